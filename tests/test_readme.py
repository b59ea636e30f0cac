"""Every snippet of README.md runs as written, and the values its comments promise are the values privgeom gives.

- ```python blocks run (exec) in a temporary directory holding a copy of ``examples/``; the claims written in their
  comments are checked on the resulting names (:data:`PYTHON_CLAIMS`, each expression must appear in the README).
- ```json blocks parse; a mechanism document loads and equals the shipped file it shows.
- ```bash blocks run line by line in the same temporary directory: ``privgeom ...`` in-process through
  :func:`privgeom.cli.main`, ``python -c ...`` with this interpreter. Lines that cannot run here are listed in
  :data:`SKIPPED` with the reason; any other line makes the test fail, so a new README command is run or explained.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import privgeom as pg
from privgeom.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: README command prefixes that are not run, with the reason.
SKIPPED: dict[str, str] = {
    "bash scripts/bootstrap.sh": "installs Debian packages and a virtual environment (needs root and the network)",
    ".venv/bin/python examples/": "the example scripts are run by tests/test_examples.py and their own tests",
    ".venv/bin/python benchmarks/": "the benchmarks are run with --quick by tests/test_examples.py and their own tests",
    "privgeom smoothed figure": "the paper's full-size figures take about a minute (elections) to several minutes; the experiments "
    "run with --quick in tests/smoothed/test_experiments.py",
    "privgeom smoothed shm --n 100000 500000": "sweeps the election figure's largest points (5-15 s on 2 cores); "
    "the same command at small n runs in tests/smoothed",
}

#: Substrings the output of a README command must contain: the values its comment promises.
EXPECTED_OUTPUT: dict[str, tuple[str, ...]] = {
    "privgeom analyze": ("rr:k=2,p=3/4", "4 facets", "ln(3)", "NOT in the closure"),
    "privgeom closure rr:k=2,p=3/4 --mechanism examples/rr2_mechanism.json": ("is IN closure",),
    "privgeom relax rr:k=3,p=3/4 --family hamming": ("e^ε = 3",),
    "privgeom epsilon --mechanism examples/rr2_mechanism.json --graph hamming": ("ε = ln(2)", "(exact)"),
    "privgeom delta -m examples/rr2_mechanism.json --graph complete --exp-eps 2": ("= 2/9 (exact)",),
    "privgeom compare rr:k=2,p=3/4 dp:graph=hamming,k=2,exp_eps=3": ("subset",),
    "privgeom compare rr:k=8,p=3/4 dp:graph=hamming,k=8,exp_eps=3": ("subset", "one LP per facet orbit"),
    "privgeom optimal dp:graph=complete,n=100,exp_eps=3 --utility accuracy --prior uniform": (
        "expected utility 1/34",
        "closed form",
    ),
    "privgeom voting accuracy majority -n 100001 --rho 1/2": ("0.666667585543565",),
    "privgeom voting accuracy majority -n 5 --eps 'ln(3)'": ("rho = 1/2", "2817/4096"),
    "privgeom voting welfare majority -n 101 --rho 1/3": ("rho · W(f)",),
    "privgeom voting epsilon majority -n 101 --rho 1/2 --eps 0.7": ("0.5257", "exact"),
    "privgeom smoothed shm --n 1000000000000 --lost 1/1000 --eps 1 --at 500000000000": (
        "2.83291e-48228830",
        "log10 = -48228829.55",
    ),
    "privgeom closure rr:k=2,p=3/5 -m examples/rr2_mechanism.json --repair --out repaired.json": (
        "NOT in closure",
        "l1 distance 152/225 (exact)",
        "optimal",
    ),
    "privgeom closure rr:k=2,p=3/5 -m repaired.json": ("is IN closure",),
    "privgeom compare ss:d=3,s=1,exp_eps=3 krr:n=3,exp_eps=3": ("equal",),
    "privgeom compare hr:d=3,exp_eps=3 dp:graph=complete,n=3,exp_eps=3": ("subset", "strictly stronger"),
    "privgeom design rr:k=2,p=3/4 --drop 0 --out d.json": ("new : 23/36", "inner: every ε-DP mechanism with e^ε ≤ 5/3"),
    "privgeom closure cone:file=d.json -m examples/rr2_mechanism.json": ("is IN closure",),
    "privgeom design rr:k=2,p=3/4 --drop 0 --utility accuracy --prior uniform --at-least 5/8": (
        "base: none: 5/8 is above its best expected utility 9/16",
        "new : 0.41333",
        "new : 23/36",
    ),
    "privgeom sweep 'rr:k={k},p={p}' --grid k=2..6 --grid p=2/3,3/4 --query relax --out s.parquet --plot s.png": (
        "10 points, 0 with an error",
        "ln(3)",
        "plot written to s.png",
    ),
    "privgeom sweep 'rr:k={k},p={p}' --grid k=2..6 --grid p=2/3,3/4 --query relax --out s.parquet": (
        "10 answered by an earlier run of s.parquet",
    ),
    "privgeom sweep 'rr:k=2,p={p}' --grid p=3/5,2/3,3/4,1/3 --query compare --spec rr:k=2,p=2/3 --out c.csv": (
        "subset",
        "equal",
        "superset",
        "4 points, 1 with an error",
    ),
    "privgeom sweep rr:k=1,p=3/4 --grid e=1,2,3 --query delta --exp-eps '{e}' --plot delta.png": (
        "1/2",
        "1/4",
        "3 points, 0 with an error",
    ),
    "privgeom sweep 'majority:n={n}' --grid n=1,3,5 --query accuracy --rho 1/2": ("3/4", "45/64", "2817/4096"),
    "privgeom sweep '{p}:d=3,exp_eps=3' --grid p=oue,hr,ss --query ldp_gap": ("29/240", "1/10"),
}

#: README commands whose documented exit code is not 0 (1 = the answer is no).
EXIT_CODES: dict[str, int] = {
    "privgeom sweep 'rr:k=2,p={p}' --grid p=3/5,2/3,3/4,1/3 --query compare --spec rr:k=2,p=2/3 --out c.csv": 1,
    "privgeom closure rr:k=2,p=3/5 -m examples/rr2_mechanism.json --repair --out repaired.json": 1,
    "privgeom design rr:k=2,p=3/4 --drop 0 --out d.json": 1,
    "privgeom design rr:k=2,p=3/4 --drop 0 --utility accuracy --prior uniform --at-least 5/8": 1,
}

#: Expressions of the README's Python block and the values its comments state.
PYTHON_CLAIMS: dict[str, object] = {
    "m.member, m.method": (True, "kronecker-inverse"),
    "cone.n_facets": 4,
    "r.recognised, r.level.exp_eps, str(r.level)": ("dp", 3, "ln(3)"),
    'pg.epsilon(M, "hamming").level.eps': pg.LogRational(3),
    'pg.delta(M, "hamming", exp_eps=2).delta': pg.LogRational(4).ratio / 16,  # 1/4
    "str(dp.level), str(adp.level)": ("ln(3)", "1.0"),
    "best.value, best.mechanism == M": (pg.LogRational(9).ratio / 16, True),  # 9/16
    'rr.contains(M2).member, pg.epsilon(M2, "hamming").level.eps': (True, pg.LogRational(2)),
    "pg.optimal_mechanism(path, loss).value, pg.optimal_mechanism(geo, loss).value": (-pg.LogRational(5).ratio / 6,)
    * 2,
    "round(float(info.value), 6)": 0.056633,
}


def _blocks(kind: str) -> list[str]:
    """The fenced blocks of ``kind`` (```kind ... ```) in README order."""
    blocks, current, inside = [], [], None
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if inside is None:
                inside = line[3:].strip()
                current = []
            else:
                if inside == kind:
                    blocks.append("\n".join(current))
                inside = None
        elif inside is not None:
            current.append(line)
    return blocks


def _bash_lines() -> list[str]:
    lines = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(shlex.join(words))
    return lines


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", d / "examples")
    return d


def test_the_readme_has_the_snippets_this_test_expects():
    assert len(_blocks("python")) >= 1 and len(_blocks("json")) >= 1 and len(_bash_lines()) >= 25
    python = "\n".join(_blocks("python"))
    for expr in PYTHON_CLAIMS:
        assert expr in python, f"the README no longer shows {expr!r}; update PYTHON_CLAIMS"
    lines = _bash_lines()
    for command in EXPECTED_OUTPUT:
        assert command in lines, f"the README no longer runs {command!r}; update EXPECTED_OUTPUT"
    for prefix in SKIPPED:
        assert any(line.startswith(prefix) for line in lines), f"SKIPPED lists {prefix!r}, absent from the README"


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_python_block_runs_and_its_claims_hold(index, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(_blocks("python")[index], f"README.md python block {index}", "exec"), namespace)
    if index == 0:
        assert "never ends up believing" in out.getvalue()
        for expr, expected in PYTHON_CLAIMS.items():
            assert eval(expr, namespace) == expected, expr  # noqa: S307 - our own README
        assert namespace["c"].relation == "subset"  # type: ignore[attr-defined]


def test_design_block_claims(workdir, monkeypatch):
    """The "Designing a definition" block: the DP sandwich of RR(2, 3/4) is [5/3, 3] (docs/theory.md §13)."""
    (block,) = [b for b in _blocks("python") if "pg.dp_bounds" in b]
    monkeypatch.chdir(workdir)
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md design block", "exec"), namespace)
    assert eval("b.inner.exp_eps, b.outer.exp_eps", namespace) == (pg.LogRational(5).ratio / 3, 3)  # noqa: S307
    assert eval("pg.compare(weaker, rr).relation", namespace) == "superset"  # noqa: S307


@pytest.mark.parametrize("index", range(len(_blocks("json"))))
def test_json_block_is_a_loadable_mechanism(index):
    data = json.loads(_blocks("json")[index])
    M = pg.Mechanism.from_json(data)
    shipped = pg.Mechanism.load(ROOT / "examples" / "rr2_mechanism.json")
    assert M == shipped == pg.randomized_response(2, "2/3")


def _skip_reason(line: str) -> str | None:
    for prefix, reason in SKIPPED.items():
        if line.startswith(prefix):
            return reason
    return None


@pytest.mark.parametrize("line", _bash_lines())
def test_bash_line_runs(line, workdir, monkeypatch, capsys):
    reason = _skip_reason(line)
    if reason is not None:
        pytest.skip(reason)
    monkeypatch.chdir(workdir)
    words = shlex.split(line)
    if words[0] == "python" and words[1] == "-c":
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        r = subprocess.run(
            [sys.executable, *words[1:]], cwd=workdir, env=env, capture_output=True, text=True, timeout=300
        )
        assert r.returncode == 0, r.stderr
        return
    assert words[0] == "privgeom", f"README line {line!r} is neither run nor listed in SKIPPED with a reason"
    code = main(words[1:])
    out, err = capsys.readouterr()
    assert code == EXIT_CODES.get(line, 0), (line, err)
    assert "Traceback" not in err and "error" not in err, err
    for fragment in EXPECTED_OUTPUT.get(line, ()):
        assert fragment in out, (line, fragment, out[:2000])
