"""The ``privgeom`` command line: argument parsing, size checks before work, and text / JSON rendering of results.

It is part of the package, not a client of it: the commands call the analyses' own modules (the routes, size
limits and streamed row iterators that the public functions are built on), so that a command can refuse a size
before any work and stream a large result row by row. :func:`main` (the console script, through
:mod:`privgeom.cli._launch`) is its one public entry; the command modules are imported on demand (``_index.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    """``main`` is imported on first use, so that importing :mod:`privgeom.cli` (the launcher) loads no command."""
    if name == "main":
        from ._main import main

        return main
    raise AttributeError(f"module 'privgeom.cli' has no attribute {name!r}")
