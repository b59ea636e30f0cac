"""The ``privgeom`` command line: argument parsing, size checks before work, and text / JSON rendering of results.

It is part of the package, not a client of it: the commands call the analyses' own modules (the routes, size
limits and streamed row iterators that the public functions are built on), so that a command can refuse a size
before any work and stream a large result row by row. Two names are public: :func:`main` (the console script,
through :mod:`privgeom.cli._launch`) and :func:`build_parser`, the full argument parser for programs that embed the
command line (to check or document a command line without running it). The command modules are imported on demand
(``_index.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["main", "build_parser"]


def __getattr__(name: str) -> Any:
    """``main`` and ``build_parser`` are imported on first use, so that importing :mod:`privgeom.cli` (the launcher)
    loads no command."""
    if name == "main":
        from ._main import main

        return main
    if name == "build_parser":
        from ._main import build_parser

        return build_parser
    raise AttributeError(f"module 'privgeom.cli' has no attribute {name!r}")
