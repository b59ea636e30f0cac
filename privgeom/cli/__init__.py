"""The ``privgeom`` command line (thin layer over the public API)."""

from ._main import main

__all__ = ["main"]
