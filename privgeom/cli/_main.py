"""Entry point of the ``privgeom`` command.

Subcommand modules are imported from :data:`COMMAND_MODULES`; each registers itself in :mod:`._registry`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from typing import Sequence

from .._core import progress as _progress
from .._core.errors import InvalidParameterError, PrivgeomError
from .._core.limits import limits as pg_limits
from .._core.hints import command_line
from .._core.io import check_output
from .._core.results import to_jsonable
from ._index import COMMAND_INDEX
from ._registry import COMMANDS, EXIT_ERROR, GROUPS, Command, declare_outputs

__all__ = ["main", "build_parser", "check_outputs", "parse_limits", "COMMAND_MODULES", "EXIT_INTERRUPTED"]

#: Modules that register subcommands (imported lazily by :func:`build_parser`). A module that is missing is skipped.
COMMAND_MODULES = (
    "privgeom.cli._core",
    "privgeom.cli._analyze",
    "privgeom.cli._profile",
    "privgeom.cli._closures",
    "privgeom.cli._voting",
    "privgeom.cli._smoothed",
    "privgeom.cli._design",
    "privgeom.cli._compose",
    "privgeom.cli._sweep",
    "privgeom.cli._amplify",
    "privgeom.cli._paper",  # last: adds --latex/--symbolic/--plot to commands registered above
)


#: Output options of commands whose modules do not declare them with ``command(..., outputs=...)``:
#: ``(parent, name) -> {dest: kind}`` (kinds: :data:`privgeom._core.io.OUTPUT_KINDS`), applied after loading the modules.
DECLARED_HERE: dict[tuple[str | None, str], dict[str, str]] = {
    ("smoothed", "figure"): {"out": "dir"},
}

#: Exit code of a command ended by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

#: Set this environment variable to a non-empty value to see the traceback of an internal error.
DEBUG_ENV = "PRIVGEOM_DEBUG"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``PROG: error: MESSAGE (see 'PROG --help')``, exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        line = f"{_one_line(message)} (see '{self.prog} --help')"
        if _JSON_REQUESTED:  # --json promises JSON on stdout, for argument errors too
            print(json.dumps({"error": "FormatError", "message": line}))
        print(f"{self.prog}: error: {line}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)


#: Whether the command line being parsed asks for ``--json`` (argument errors then print a JSON error too).
_JSON_REQUESTED = False


def _one_line(text: str, limit: int = 400) -> str:
    """The first line of an error message, shortened to ``limit`` characters."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _message(err: BaseException) -> str:
    if isinstance(err, OSError) and not isinstance(err, PrivgeomError):
        # the causes are fixed where files are opened (privgeom._core.io); this is the fallback: name the file
        name = err.filename if err.filename is not None else ""
        what = err.strerror or type(err).__name__
        return f"{what}: {str(name)!r}" if name else what
    return _one_line(str(err)) or type(err).__name__


def _load_modules(names: Sequence[str] = COMMAND_MODULES) -> None:
    paper = "privgeom.cli._paper"
    extend_again = paper in sys.modules  # _paper extends the commands registered before it is imported
    for name in names:
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue
        if extend_again and name != paper:
            sys.modules[paper]._register()  # idempotent: adds --latex, --plot, … to the commands loaded now
    for (parent, name), kinds in DECLARED_HERE.items():
        declare_outputs(name, parent, **kinds)


def _option_name(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def parse_limits(values: Sequence[str]) -> dict[str, int]:
    """The ``--limit NAME=N`` options of a command as ``{name: N}``, validated like :func:`privgeom.set_limits`.

    Raises
    ------
    InvalidParameterError
        A value without ``=``, an unknown limit name (the message lists the valid names) or a value below 1.
    InvalidTypeError
        A value that is not an integer.

    Examples
    --------
    >>> parse_limits(["block_work=60000", "dd_dim=80"])
    {'block_work': 60000, 'dd_dim': 80}
    >>> parse_limits(["blocks=3"])
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --limit 'blocks=3': unknown size limit 'blocks'; the limits are ...
    """
    from .._core import limits as _limits

    out: dict[str, int] = {}
    for text in values:
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise InvalidParameterError(
                f"--limit {text!r}: write NAME=N, e.g. --limit block_work=60000; the limits "
                f"are {', '.join(_limits.get_limits())}"
            )
        try:
            out.update(_limits.validated({name: value.strip()}))
        except PrivgeomError as err:
            raise type(err)(f"--limit {text!r}: {err}") from None
    return out


def check_outputs(cmd: Command, args: argparse.Namespace) -> None:
    """Check every output path the command declares (``Command.outputs``) before it runs: a missing directory, a
    directory that cannot be written or an unknown figure extension is one error naming the option and the value."""
    for dest, kind in cmd.outputs:
        value = getattr(args, dest, None)
        if value is not None:
            check_output(value, kind, what=_option_name(dest))


def _add(sub: argparse._SubParsersAction, cmd: Command) -> None:
    p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description or cmd.help)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=N",
        dest="_limits",
        help="raise (or lower) a global size limit for this run, e.g. --limit block_work=60000; "
        "repeatable (the limits and their defaults: python -c 'import privgeom as pg; "
        "print(pg.get_limits())')",
    )
    cmd.add_arguments(p)
    p.set_defaults(_command=cmd, _options=frozenset(p._option_string_actions))


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser of ``privgeom``: every command and sub-command, with ``--json`` and ``--limit``.

    Public as :func:`privgeom.cli.build_parser`, for programs that embed the command line: parse (and so check) a
    command line without running it, or list the commands and their options. Building it imports every command
    module; :func:`main` imports only the module of the command it runs.

    Returns
    -------
    argparse.ArgumentParser
        Parsing a command line gives the options of its command; nothing runs.

    Examples
    --------
    >>> from privgeom.cli import build_parser
    >>> args = build_parser().parse_args(["epsilon", "-m", "m.json", "--json"])
    >>> args.json
    True
    """
    _load_modules()
    return _build()


#: What ``privgeom --help`` says first.
DESCRIPTION = "Privacy definitions as geometry: closure, row cone, semantics, relaxation."


def _build() -> argparse.ArgumentParser:
    """The argument parser of the commands registered so far."""
    parser = _Parser(prog="privgeom", description=DESCRIPTION)
    sub = parser.add_subparsers(metavar="COMMAND")
    place = {name: i for i, name in enumerate(COMMAND_INDEX)}  # the --help order, whatever the import order
    for cmd in sorted(COMMANDS.values(), key=lambda c: place.get(c.name, len(place))):
        _add(sub, cmd)
    for grp in sorted(GROUPS.values(), key=lambda g: place.get(g.name, len(place))):
        gp = sub.add_parser(grp.name, help=grp.help, description=grp.help)
        gsub = gp.add_subparsers(metavar="SUBCOMMAND")
        for child in grp.children.values():
            _add(gsub, child)
        gp.set_defaults(_group_parser=gp)
    return parser


def _parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of one run: for ``privgeom COMMAND ...`` the full parser of the command modules loaded so far plus
    the module of ``COMMAND`` only (a fast start); for ``privgeom --help``, no command or an unknown one, the list of
    commands from :data:`._index.COMMAND_INDEX`, which imports no command module."""
    entry = COMMAND_INDEX.get(argv[0]) if argv else None
    if entry is None:
        parser = _Parser(prog="privgeom", description=DESCRIPTION)
        sub = parser.add_subparsers(metavar="COMMAND")
        for name, (_, help) in COMMAND_INDEX.items():
            sub.add_parser(name, help=help)
        return parser
    _load_modules((entry[0], *EXTENDED_BY.get(entry[0], ())))
    return _build()


#: Modules that add options to the commands of other modules (``privgeom.cli._paper``: ``--latex``, ``--plot``, …),
#: loaded with the module of a command they extend.
EXTENDED_BY: dict[str, tuple[str, ...]] = {
    "privgeom.cli._core": ("privgeom.cli._paper",),
    "privgeom.cli._analyze": ("privgeom.cli._paper",),
    "privgeom.cli._closures": ("privgeom.cli._paper",),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``privgeom``; returns the exit code (0 yes, 1 no, 2 error, 130 interrupted).

    User errors print one line on stderr and no traceback (argument errors raise ``SystemExit(2)`` after their line,
    as argparse does). Ctrl-C prints ``privgeom: interrupted`` and returns 130. An unexpected exception is a bug:
    one line ``privgeom: internal error (...)`` and exit 2 (set ``PRIVGEOM_DEBUG=1`` to see the traceback).
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001 - the reader may be gone; nothing else to do
            pass
        try:
            _progress.abandon()
        except Exception:  # noqa: BLE001 - never let a broken bar hide the interruption
            pass
        print("privgeom: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    global _JSON_REQUESTED
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser_for(argv)
    _JSON_REQUESTED = "--json" in argv
    try:
        args = parser.parse_args(argv)
    finally:
        _JSON_REQUESTED = False
    cmd: Command | None = getattr(args, "_command", None)
    if cmd is None:
        where = getattr(args, "_group_parser", None) or parser
        sub = next(a for a in where._actions if isinstance(a, argparse._SubParsersAction))
        where.error(f"a command is required: {', '.join(sub.choices)}")
        return EXIT_ERROR  # not reached: error() exits
    json_out = bool(getattr(args, "json", False))
    # the limits and the command-line spelling of refusals hold for the whole run, also while streamed output
    # (--json, --out) computes its rows
    with contextlib.ExitStack() as run:
        run.enter_context(command_line(getattr(args, "_options", ())))
        return _run(cmd, args, json_out, run)


def _run(cmd: Command, args: argparse.Namespace, json_out: bool, run: contextlib.ExitStack) -> int:
    try:
        limits = parse_limits(getattr(args, "_limits", None) or [])
        if limits:  # reading the limits imports every module that registers one
            run.enter_context(pg_limits(**limits))
        check_outputs(cmd, args)
        with _progress.quiet(json_out), _progress.activity(f"privgeom {cmd.path}"):
            outcome = cmd.run(args)
    except (PrivgeomError, OSError, RecursionError) as err:
        if isinstance(err, RecursionError):  # fallback; the causes (deep JSON, ...) are refused where they enter
            msg = "input nested too deeply (Python's recursion limit was reached)"
        else:
            msg = _message(err)
        if json_out:
            print(json.dumps({"error": type(err).__name__, "message": msg}))
        print(f"privgeom: error: {msg}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as err:  # a bug, not a user error: one line, never exit 1 (= "no")
        if os.environ.get(DEBUG_ENV):
            import traceback

            traceback.print_exc(file=sys.stderr)
        msg = _one_line(str(err))
        if json_out:
            print(json.dumps({"error": type(err).__name__, "message": msg, "internal": True}))
        print(
            f"privgeom: internal error ({type(err).__name__}: {msg}); this is a bug in privgeom "
            f"(set {DEBUG_ENV}=1 for the traceback)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    try:
        if json_out:
            stream = getattr(outcome.data, "write_json", None)  # large data written row by row (cli/_render.py)
            if callable(stream):
                stream(sys.stdout)
            else:
                print(json.dumps(to_jsonable(outcome.data), indent=1))
        elif outcome.lines is not None:  # a lazy listing: each line printed (and flushed) as soon as it is made
            for line in outcome.lines:
                print(line)
                sys.stdout.flush()
        else:
            print(outcome.text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `privgeom analyze | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (PrivgeomError, RecursionError) as err:  # raised while a lazy listing computes its lines
        sys.stdout.flush()
        msg = (
            "input nested too deeply (Python's recursion limit was reached)"
            if isinstance(err, RecursionError)
            else _message(err)
        )
        print(f"privgeom: error: {msg}", file=sys.stderr)
        return EXIT_ERROR
    return outcome.code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
