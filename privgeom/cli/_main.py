"""Entry point of the ``privgeom`` command; subcommands register themselves (see ``_registry``)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 yes, 1 no, 2 error)."""
    print("privgeom: the command line is being built", file=sys.stderr)
    return 2
