"""CLI options of privgeom.cli._paper: --latex, rowcone --symbolic, rowcone --plot."""

from __future__ import annotations

import json
import re

import pytest

from privgeom.cli import main

EXAMPLE_4_4 = [
    r"x_{00} + 9 x_{11} &\geq 3 x_{01} + 3 x_{10} \\",
    r"9 x_{00} + x_{11} &\geq 3 x_{01} + 3 x_{10} \\",
    r"x_{01} + 9 x_{10} &\geq 3 x_{00} + 3 x_{11} \\",
    r"9 x_{01} + x_{10} &\geq 3 x_{00} + 3 x_{11}",
]


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_semantics_latex_prints_example_4_4(capsys):
    code, out, _ = _run(capsys, ["semantics", "rr:k=2,p=3/4", "--latex"])
    lines = [ln.strip() for ln in out.strip().splitlines()]
    assert code == 0 and lines[0] == r"\begin{align}" and lines[-1] == r"\end{align}"
    assert lines[1:-1] == EXAMPLE_4_4


@pytest.mark.parametrize(
    "argv", [["rowcone", "rr:k=2,p=3/4"], ["analyze"], ["compare", "rr:k=2,p=3/4", "dp:graph=hamming,k=2,exp_eps=3"]]
)
def test_latex_on_other_commands(capsys, argv):
    code, out, _ = _run(capsys, argv + ["--latex"])
    assert code == 0
    if argv[0] == "compare":
        assert r"\subsetneq" in out and r"x_{01} + 9 x_{10} \geq 3 x_{00} + 3 x_{11}" in out
    else:
        assert all(line in out for line in EXAMPLE_4_4)
    code, out, _ = _run(capsys, argv + ["--latex", "--json"])
    data = json.loads(out)
    assert code == 0 and (r"\begin{align}" in data["latex"] or r"\subsetneq" in data["latex"])


def test_relax_latex_is_the_dp_cone(capsys):
    code, out, _ = _run(capsys, ["relax", "rr:k=2,p=3/4", "--latex"])
    assert code == 0 and r"\varepsilon = \ln 3" in out
    ineqs = [ln.strip().rstrip("\\").strip() for ln in out.splitlines() if "&\\geq" in ln]
    # e^ε x_j ≥ x_i on the 4 Hamming edges of 2 bits, both directions (Section V): 8 facets with coefficients 3 and 1
    assert len(ineqs) == 8 and all(re.fullmatch(r"3 x_\{\d\d\} &\\geq x_\{\d\d\}", q) for q in ineqs)


def test_rowcone_symbolic_prints_theorem_4_3(capsys):
    code, out, _ = _run(capsys, ["rowcone", "rr:k=2,p=p", "--symbolic"])
    assert code == 0
    assert "p^2·x11 - p(1 - p)·x10 - p(1 - p)·x01 + (1 - p)^2·x00 ≥ 0" in out
    assert "(1 - p)^2·x11 - p(1 - p)·x10 - p(1 - p)·x01 + p^2·x00 ≥ 0" in out
    assert out.count("facet ") == 4 and "type constant for p in (1/2, 1)" in out and "verified exactly" in out
    code, out, _ = _run(capsys, ["rowcone", "rr:k=2,p=p", "--symbolic", "--latex"])
    assert (
        r"p^{2} x_{00} + \left(1 - p\right)^{2} x_{11} &\geq p \left(1 - p\right) x_{01} + p \left(1 - p\right) x_{10}"
        in out
    )
    code, out, _ = _run(capsys, ["rowcone", "rr:k=2,p=p", "--symbolic", "--json"])
    data = json.loads(out)
    assert data["interval"] == ["1/2", "1"] and len(data["facets"]) == 4


def test_rowcone_symbolic_needs_a_named_parameter(capsys):
    code, _, err = _run(capsys, ["rowcone", "rr:k=2,p=3/4", "--symbolic"])
    assert code == 2 and "rr:k=2,p=p" in err


def test_rowcone_plot_writes_png(capsys, tmp_path):
    out = tmp_path / "cone.png"
    code, text, _ = _run(capsys, ["rowcone", "rr:k=2,p=3/4", "--plot", str(out)])
    assert code == 0 and f"wrote {out}" in text
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
    out3 = tmp_path / "c3.png"
    code, _, _ = _run(capsys, ["rowcone", "rr:k=2,p=3/4", "--plot", str(out3), "--coords", "11,10,01"])
    assert code == 0 and out3.exists()
    code, _, err = _run(capsys, ["rowcone", "rr:k=2,p=3/4", "--plot", str(out3), "--coords", "11,10"])
    assert code == 2 and "three datasets" in err
