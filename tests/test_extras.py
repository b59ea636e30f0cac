"""A lean install: ``import privgeom`` and ``privgeom analyze`` need none of the optional extras, and each function
that needs one raises :class:`~privgeom.MissingDependencyError` naming it (``pip install 'privgeom[plot]'``).

Absence is simulated: in a subprocess an import hook refuses matplotlib, sympy and cvxpy (as if never installed),
and in-process :func:`privgeom._core.extras.require` meets a ``None`` entry of ``sys.modules`` (Python's own
"this module is missing" marker)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import privgeom as pg
from privgeom._core.extras import EXTRAS, optional_module, require

ROOT = Path(__file__).resolve().parents[1]

#: Run in a fresh interpreter in which the three optional packages cannot be imported.
BLOCKED_RUN = textwrap.dedent("""
    import importlib.abc, io, json, sys, tempfile
    from contextlib import redirect_stdout

    BLOCKED = {"matplotlib", "sympy", "cvxpy"}

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Blocker())
    import privgeom as pg
    from privgeom import voting
    from privgeom.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["analyze"])
    report = {"analyze_rc": rc, "analyze_out": out.getvalue(), "calls": {}}
    rr = pg.RandomizedResponse(2, "3/4")
    calls = {
        "plot": lambda: pg.plot(rr.row_cone(), ["11", "10", "01"]),
        "voting figure": lambda: voting.paper.majority_accuracy_figure((0.5,), 5),
        "symbolic_row_cone": lambda: pg.symbolic_row_cone("rr:k=1,p=p", "p"),
        "least_informative": lambda: pg.least_informative(pg.RandomizedResponse(1, "3/4"), "accuracy", "2/3"),
        "dp_bounds": lambda: pg.dp_bounds(rr, "hamming"),  # exact levels are algebraic numbers: sympy's roots
    }
    for name, call in calls.items():
        try:
            call()
            report["calls"][name] = None
        except Exception as err:
            report["calls"][name] = [type(err).__name__, isinstance(err, pg.MissingDependencyError), str(err)]
    report["loaded"] = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    print(json.dumps(report))
""")


@pytest.fixture(scope="module")
def blocked() -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_import_and_analyze_need_no_extra(blocked: dict) -> None:
    assert blocked["analyze_rc"] == 0
    # the default analysis of randomized response: e^ε = 3 on the hamming graph (Lin & Kifer, Theorem 5.5's example)
    assert "ε = ln(3)" in blocked["analyze_out"]
    assert blocked["loaded"] == []


@pytest.mark.parametrize(
    ("call", "extra"),
    [
        ("plot", "plot"),
        ("voting figure", "plot"),
        ("symbolic_row_cone", "symbolic"),
        ("least_informative", "convex"),
        ("dp_bounds", "symbolic"),
    ],
)
def test_a_function_without_its_extra_names_it(blocked: dict, call: str, extra: str) -> None:
    kind, typed, message = blocked["calls"][call]
    assert kind == "MissingDependencyError" and typed, (call, kind, message)
    assert f"pip install 'privgeom[{extra}]'" in message, message


def test_require_turns_a_missing_module_into_the_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cvxpy", None)  # Python's marker of a module that cannot be imported
    with pytest.raises(pg.MissingDependencyError, match=r"pg.least_informative .* needs cvxpy.*privgeom\[convex\]"):
        pg.least_informative(pg.RandomizedResponse(1, "3/4"), "accuracy", "2/3")
    with pytest.raises(ImportError):  # still an ImportError for code that catches those
        require("cvxpy", extra="convex", feature="x")


def test_an_optional_module_imports_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sympy", None)
    sp = optional_module("sympy", extra="symbolic", feature="a test")
    assert "not imported yet" in repr(sp)  # creating the placeholder imports nothing
    with pytest.raises(pg.MissingDependencyError, match=r"a test needs sympy.*privgeom\[symbolic\]"):
        sp.Symbol("t")


def test_require_refuses_a_module_outside_its_extra() -> None:
    with pytest.raises(pg.InvalidParameterError, match="not part of the extra 'plot'"):
        require("sympy", extra="plot", feature="x")


def test_the_extras_are_declared_and_installed_by_the_set_up() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(project["dependencies"])
    extras = project["optional-dependencies"]
    for extra, dist in (("plot", "matplotlib"), ("symbolic", "sympy"), ("convex", "cvxpy")):
        assert dist not in core and any(d.startswith(dist) for d in extras[extra]), extra
        assert EXTRAS[extra] == (dist,)
    assert extras["all"] == ["privgeom[plot,symbolic,convex,sweep]"]
    assert '-e ".[all,test,docs,accountants,ppl]"' in (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
