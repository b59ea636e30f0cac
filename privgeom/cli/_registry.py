"""Registry of ``privgeom`` subcommands.

A subcommand module defines ``add_arguments(parser)`` and ``run(args) -> Outcome`` and registers them with
:func:`command`. The main program adds ``--json`` to every command, prints ``Outcome.text`` (or ``Outcome.data`` as
JSON with ``--json``) and exits with ``Outcome.code``: 0 yes / 1 no / 2 error. A long listing (``rowcone --all``) sets
``Outcome.lines`` instead: lines produced lazily, printed one at a time as they come. Commands with sub-subcommands
(``privgeom voting accuracy``) register a parent with :func:`group` and children with ``command(..., parent=...)``.

Output paths are declared, not discovered: ``command(..., outputs={"out": "file", "plot": "figure"})`` (or
:func:`declare_outputs` for options another module adds) names each option (by its ``dest``) that writes a file or a
directory, with its kind (:data:`privgeom._core.io.OUTPUT_KINDS`). The main program checks every declared path right
after parsing, before the command runs, so a typo costs nothing (tests/cli checks that every ``--out``/``--plot``
option of every command is declared).
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
import itertools
from typing import Any, Callable, Iterable, Iterator, Mapping

__all__ = [
    "Outcome",
    "Command",
    "COMMANDS",
    "GROUPS",
    "command",
    "group",
    "declare_outputs",
    "find_command",
    "EXIT_YES",
    "EXIT_NO",
    "EXIT_ERROR",
]

EXIT_YES, EXIT_NO, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True)
class Outcome:
    """What a subcommand returns: human text, JSON data and the exit code (0 yes / 1 no).

    ``lines``, when given, is the human text as an iterable of lines produced lazily (a generator: each line computed
    when it is printed); the main program prints them one at a time, flushing, instead of ``text`` (which is then
    ``""``), so a listing of 200,000 facets starts at once and never exists as one string. Read the text through
    :meth:`iter_lines`; a generator of lines can be read once.

    Examples
    --------
    >>> out = Outcome("", {}, lines=(f"line {i}" for i in range(2)))
    >>> list(out.appended("end").iter_lines())
    ['line 0', 'line 1', 'end']
    >>> list(Outcome("a", {}).appended("b").iter_lines())
    ['a', 'b']
    """

    text: str
    data: Any
    code: int = EXIT_YES
    lines: Iterable[str] | None = field(default=None, compare=False, repr=False)

    def iter_lines(self) -> Iterator[str]:
        """The human text line by line (``lines`` when given, else ``text`` split at newlines)."""
        if self.lines is not None:
            return iter(self.lines)
        return iter(self.text.split("\n"))

    def appended(self, line: str) -> "Outcome":
        """This outcome with one more line of text at the end (still lazy when ``lines`` is)."""
        if self.lines is not None:
            return dataclasses.replace(self, lines=itertools.chain(self.lines, [line]))
        return dataclasses.replace(self, text=self.text + "\n" + line)


@dataclass(frozen=True)
class Command:
    """A registered subcommand."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Outcome]
    parent: str | None = None
    description: str = ""
    #: ``(dest, kind)`` of each option that names an output path (kinds: :data:`privgeom._core.io.OUTPUT_KINDS`).
    outputs: tuple[tuple[str, str], ...] = ()

    @property
    def path(self) -> str:
        """``"voting accuracy"`` for a child, else the name."""
        return f"{self.parent} {self.name}" if self.parent else self.name


@dataclass
class _Group:
    name: str
    help: str
    children: dict[str, Command] = field(default_factory=dict)


COMMANDS: dict[str, Command] = {}
GROUPS: dict[str, _Group] = {}


def group(name: str, help: str) -> None:
    """Declare a command group (``privgeom NAME SUBCOMMAND``)."""
    GROUPS.setdefault(name, _Group(name, help))


def command(
    name: str, help: str, *, parent: str | None = None, description: str = "", outputs: Mapping[str, str] | None = None
) -> Callable[
    [Callable[[argparse.ArgumentParser], None]], Callable[[Callable[[argparse.Namespace], Outcome]], Command]
]:
    """Register a subcommand: ``command(name, help)(add_arguments)(run)``.

    Typical use::

        def _args(p): p.add_argument("--k", type=int, default=2)
        def _run(args): return Outcome("text", {"k": args.k})
        command("demo", "a demo")(_args)(_run)
    """

    def with_args(
        add_arguments: Callable[[argparse.ArgumentParser], None],
    ) -> Callable[[Callable[[argparse.Namespace], Outcome]], Command]:
        def with_run(run: Callable[[argparse.Namespace], Outcome]) -> Command:
            cmd = Command(name, help, add_arguments, run, parent, description, tuple((outputs or {}).items()))
            if parent is None:
                COMMANDS[name] = cmd
            else:
                if parent not in GROUPS:
                    raise KeyError(f"command group {parent!r} is not declared")
                GROUPS[parent].children[name] = cmd
            return cmd

        return with_run

    return with_args


def find_command(name: str, parent: str | None = None) -> Command | None:
    """The registered command ``name`` (a child of ``parent``), or None."""
    if parent is None:
        return COMMANDS.get(name)
    grp = GROUPS.get(parent)
    return grp.children.get(name) if grp is not None else None


def declare_outputs(name: str, parent: str | None = None, **kinds: str) -> None:
    """Declare output options (``dest=kind``) of an already registered command, e.g. an option that
    :func:`privgeom.cli._paper.extend` added. Does nothing when the command is not registered."""
    cmd = find_command(name, parent)
    if cmd is None:
        return
    merged = dict(cmd.outputs)
    merged.update(kinds)
    new = dataclasses.replace(cmd, outputs=tuple(merged.items()))
    if parent is None:
        COMMANDS[name] = new
    else:
        GROUPS[parent].children[name] = new
