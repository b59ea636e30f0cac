"""Entry point of the ``privgeom`` command.

Subcommand modules are imported from :data:`COMMAND_MODULES`; each registers itself in :mod:`._registry`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Sequence

from .._errors import PrivgeomError
from .._results import to_jsonable
from ._registry import COMMANDS, EXIT_ERROR, GROUPS, Command

__all__ = ["main", "build_parser", "COMMAND_MODULES"]

#: Modules that register subcommands (imported lazily by :func:`build_parser`). A module that is missing is skipped.
COMMAND_MODULES = (
    "privgeom.cli._core",
    "privgeom.cli._catalogue",
    "privgeom.cli._voting",
    "privgeom.cli._smoothed",
    "privgeom.cli._paper",  # last: adds --latex/--symbolic/--plot to commands registered above
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"privgeom: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)


def _load_modules() -> None:
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise


def _add(sub: argparse._SubParsersAction, cmd: Command) -> None:
    p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description or cmd.help)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    cmd.add_arguments(p)
    p.set_defaults(_command=cmd)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (every registered command)."""
    _load_modules()
    parser = _Parser(prog="privgeom", description="Privacy definitions as geometry: closure, row cone, semantics, relaxation.")
    sub = parser.add_subparsers(metavar="COMMAND")
    for cmd in COMMANDS.values():
        _add(sub, cmd)
    for grp in GROUPS.values():
        gp = sub.add_parser(grp.name, help=grp.help, description=grp.help)
        gsub = gp.add_subparsers(metavar="SUBCOMMAND")
        for child in grp.children.values():
            _add(gsub, child)
        gp.set_defaults(_group_parser=gp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``privgeom``; returns the exit code (0 yes, 1 no, 2 error). User errors print one line, no traceback."""
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    cmd: Command | None = getattr(args, "_command", None)
    if cmd is None:
        (getattr(args, "_group_parser", None) or parser).print_help(sys.stderr)
        return EXIT_ERROR
    try:
        outcome = cmd.run(args)
    except (PrivgeomError, OSError) as err:
        msg = str(err).splitlines()[0] if str(err) else type(err).__name__
        if getattr(args, "json", False):
            print(json.dumps({"error": type(err).__name__, "message": msg}))
        print(f"privgeom: error: {msg}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as err:  # a bug, not a user error: keep the traceback, but never exit 1 (= "no")
        import traceback

        traceback.print_exc(file=sys.stderr)
        msg = str(err).splitlines()[0] if str(err) else ""
        if getattr(args, "json", False):
            print(json.dumps({"error": type(err).__name__, "message": msg, "internal": True}))
        print(f"privgeom: internal error ({type(err).__name__}: {msg}); this is a bug in privgeom", file=sys.stderr)
        return EXIT_ERROR
    try:
        if args.json:
            print(json.dumps(to_jsonable(outcome.data), indent=1))
        else:
            print(outcome.text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `privgeom analyze | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return outcome.code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
