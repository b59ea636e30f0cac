"""Every output path option of every command is checked before the command runs.

Commands declare their output options (``command(..., outputs={"out": "file"})``, ``declare_outputs``); the main
program checks each given path right after parsing. The table below has a missing directory, an unwritable place
(``/proc``, where even root cannot create files) and, for figures, an unknown extension for every declared option of
every command; each row must end with exit code 2 and one line naming the option, the value and the reason — before
any work (the commands' entry points are replaced by a function that fails the test if it runs).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import pytest

import privgeom as pg
from privgeom.cli import main
from privgeom.cli._main import build_parser
from privgeom.cli._registry import COMMANDS, GROUPS, Command

#: Options whose name says they write something: each must be declared as an output of its command.
OUTPUT_WORDS = ("out", "plot", "save", "write", "figure", "dir")

UNWRITABLE = "/proc" if Path("/proc/self").exists() else None

# (command, command line with {OUT} where the path goes, option, kind)
COMMAND_LINES: list[tuple[str, str, str, str]] = [
    ("analyze", "analyze rr:k=2,p=3/4 --out {OUT}", "--out", "file"),
    ("rowcone", "rowcone rr:k=2,p=3/4 --out {OUT}", "--out", "file"),
    ("rowcone", "rowcone rr:k=2,p=3/4 --plot {OUT}", "--plot", "figure"),
    ("semantics", "semantics rr:k=2,p=3/4 --out {OUT}", "--out", "file"),
    ("closure", "closure rr:k=2,p=3/4 -m m.json --repair --out {OUT}", "--out", "file"),
    ("delta", "delta -m m.json --curve --plot {OUT}", "--plot", "figure"),
    ("optimal", "optimal dp:graph=complete,n=4,exp_eps=3 --out {OUT}", "--out", "file"),
    ("design", "design rr:k=1,p=3/4 --out {OUT}", "--out", "file"),
    ("voting figure", "voting figure --out {OUT}", "--out", "figure-or-dir"),
    ("smoothed figure", "smoothed figure elections --quick --out {OUT}", "--out", "dir"),
    ("sweep", "sweep rr:k={{k}},p=3/4 --grid k=1,2 --query relax --out {OUT}", "--out", "file"),
    ("sweep", "sweep rr:k={{k}},p=3/4 --grid k=1,2 --query relax --plot {OUT}", "--plot", "figure"),
    ("shuffle", "shuffle --local rr:k=1,p=3/4 -n 3 --eps 0 --plot {OUT}", "--plot", "figure"),
    ("subsample", "subsample -m m.json --records 1 --rate 1/2 --out {OUT}", "--out", "file"),
    ("subsample", "subsample -m m.json --records 1 --rate 1/2 --plot {OUT}", "--plot", "figure"),
]


def _bad_paths(kind: str) -> list[tuple[str, str]]:
    """(path, fragment of the reason) for a kind of output."""
    name = {"file": "x.json", "figure": "x.png", "figure-or-dir": "x.png", "dir": "sub"}[kind]
    # folders are never created: a missing one is refused like a missing parent of a file
    rows = [
        (
            f"nodir/{name}",
            "the directory does not exist (privgeom does not create folders"
            if kind == "dir"
            else "the directory 'nodir' does not exist",
        ),
        (f"m.json/{name}", "is a file" if kind in ("dir", "figure-or-dir") else "is not a directory"),
    ]
    if kind in ("dir", "figure-or-dir"):
        rows.append(
            ("no/such/folder/", "the directory does not exist (privgeom does not create folders: create it first)")
        )
        rows.append(("/nonexistent", "the directory does not exist"))
    if UNWRITABLE:
        rows.append((UNWRITABLE if kind == "dir" else f"{UNWRITABLE}/{name}", f"cannot create files in '{UNWRITABLE}'"))
    if kind == "figure":
        rows.append(("x.txt", "extension '.txt'; use one of"))
    if kind == "file":
        rows.append(("adir", "'adir' is a directory"))
    return [(p, f) for p, f in rows if f is not None]


ROWS = [
    (line.format(OUT=path), option, path, fragment)
    for _, line, option, kind in COMMAND_LINES
    for path, fragment in _bad_paths(kind)
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("output_paths")
    pg.randomized_response(2, "2/3").save(d / "m.json")
    (d / "adir").mkdir()
    return d


def _every_command() -> list[Command]:
    build_parser()
    return list(COMMANDS.values()) + [c for g in GROUPS.values() for c in g.children.values()]


@pytest.fixture
def no_work(monkeypatch):
    """Replace the run of every command by a function that fails the test: the path must be refused first."""
    from privgeom.cli import _registry

    build_parser()

    def forbid(cmd: Command) -> Command:
        def run(args: argparse.Namespace):
            raise AssertionError(f"{cmd.path} ran although an output path was bad")

        import dataclasses

        return dataclasses.replace(cmd, run=run)

    for name, cmd in list(_registry.COMMANDS.items()):
        monkeypatch.setitem(_registry.COMMANDS, name, forbid(cmd))
    for grp in _registry.GROUPS.values():
        for name, cmd in list(grp.children.items()):
            monkeypatch.setitem(grp.children, name, forbid(cmd))
    # build_parser() must not re-register the originals: the modules are already imported, so it does not


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("line,option,path,fragment", ROWS, ids=[r[0] for r in ROWS])
def test_bad_output_path_is_refused_before_any_work(
    line, option, path, fragment, workdir, capsys, monkeypatch, no_work
):
    monkeypatch.chdir(workdir)
    code, out, err = _run(shlex.split(line), capsys)
    lines = err.strip("\n").splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"privgeom: error: {option} {path!r}"), lines[0]
    assert fragment in lines[0], (fragment, lines[0])
    assert not (workdir / "nodir").exists() and not (workdir / "no").exists() and not Path("/nonexistent").exists()


def test_every_output_option_is_declared_and_in_the_table():
    """An option whose name says it writes (``--out``, ``--plot``, ...) must be declared, and every declared one has
    rows above."""
    undeclared = []
    covered = {(name, opt) for name, _, opt, _ in COMMAND_LINES}
    declared = set()
    parser = build_parser()
    for cmd in _every_command():
        sub = argparse.ArgumentParser()
        cmd.add_arguments(sub)
        kinds = dict(cmd.outputs)
        for action in sub._actions:
            if action.dest in ("help",) or not action.option_strings:
                continue
            if any(w in action.dest for w in OUTPUT_WORDS) and action.dest not in kinds:
                undeclared.append(f"{cmd.path} {action.option_strings[0]}")
        for dest in kinds:
            declared.add((cmd.path, "--" + dest.replace("_", "-")))
    assert parser is not None
    assert not undeclared, f"output options not declared with command(..., outputs=...): {undeclared}"
    assert declared <= covered, f"declared output options without rows in COMMAND_LINES: {declared - covered}"


def test_good_paths_still_work(workdir, capsys, monkeypatch):
    monkeypatch.chdir(workdir)
    code, out, err = _run(["rowcone", "rr:k=2,p=3/4", "--out", "good.json"], capsys)
    assert code == 0 and (workdir / "good.json").stat().st_size > 0, err
    code, out, err = _run(["voting", "figure", "--out", "adir/fig.png", "--n-max", "5", "--rhos", "1/2"], capsys)
    assert code == 0 and (workdir / "adir" / "fig.png").exists(), err
    code, out, err = _run(["voting", "figure", "--out", "adir", "--n-max", "5", "--rhos", "1/2"], capsys)
    assert code == 0 and (workdir / "adir" / "voting_figure2.png").exists(), err


def test_library_figure_functions_never_create_folders(tmp_path):
    """The library routines behind the figure commands refuse a missing folder before any work, too."""
    from privgeom import smoothed, voting

    with pytest.raises(pg.InvalidParameterError, match="does not exist"):
        voting.paper.majority_accuracy_figure(rhos=(0.5,), n_max=5, path=tmp_path / "no" / "such")
    with pytest.raises(pg.InvalidParameterError, match="does not exist"):
        voting.paper.majority_accuracy_figure(rhos=(0.5,), n_max=5, path=tmp_path / "no" / "f.png")
    for name in ("elections", "motivating", "sgd", "theorem3"):
        with pytest.raises(pg.InvalidParameterError, match="does not exist"):
            smoothed.paper.experiment(name, tmp_path / "no" / "such", quick=True)
    assert list(tmp_path.iterdir()) == []


def test_the_write_check_leaves_no_file_behind(workdir):
    from privgeom._core.io import check_output

    before = sorted(p.name for p in workdir.iterdir())
    check_output(str(workdir / "new.json"), "file", what="--out")
    check_output(str(workdir / "adir"), "dir", what="--out")
    with pytest.raises(pg.InvalidParameterError, match="does not exist"):
        check_output(str(workdir / "a" / "b"), "dir", what="--out")
    assert sorted(p.name for p in workdir.iterdir()) == before


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX paths")
