"""``privgeom design``: every argument is read and checked before any work, bad input exits 2 with one line naming
the argument, and definitions that their row cone does not decide get one consistent account.

"Before any work" is checked structurally (``privgeom.testing``): the design operations and the report's routines are
replaced by functions that fail the test if entered, so the refusal provably comes from the sizes and arguments alone.
"""

from __future__ import annotations

import json

import pytest

from privgeom.cli import main
from privgeom.cli import _design as design_cli
from privgeom.testing import forbid

ADP = "adp:graph=hamming,k=2,eps=1,delta=1/10"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _forbid_work(monkeypatch) -> None:
    """The design operations and the report (``from_guarantees`` is how ``--guarantee`` is read, so it may run)."""
    for name in (
        "without",
        "only",
        "intersection",
        "hull",
        "describe_row_cone",
        "compare",
        "dp_bounds",
        "optimal_mechanism",
        "least_informative",
    ):
        forbid(monkeypatch, design_cli, name)


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, data in {
        "zero": [[0, 0, 0, 0]],
        "ones": [[1, 1, 1, 1]],
        "prior11": [0.5, 0.3, 0.2, 0.1],
        "empty": [],
    }.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(data))
    paths["nan"] = tmp_path / "nan.json"
    paths["nan"].write_text('{"matrix": [[NaN, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}')
    return paths


@pytest.mark.parametrize(
    "argv, words",
    [
        (["rr:k=2,p=3/4", "--drop", "abc"], ["--drop", "abc", "not an integer"]),
        (["rr:k=2,p=3/4", "--drop", "1.5"], ["--drop", "1.5"]),
        (["rr:k=2,p=3/4", "--drop", "-1"], ["--drop", "-1"]),
        (["rr:k=2,p=3/4", "--drop-orbit", "x"], ["--drop-orbit", "x"]),
        (["rr:k=2,p=3/4", "--guarantee", "{zero}"], ["--guarantee", "zero vector"]),
        (["rr:k=2,p=3/4", "--guarantee", "{ones}"], ["--guarantee", "implied by x ≥ 0"]),
        (["rr:k=2,p=3/4", "--guarantee", "{empty}"], ["--guarantee", "non-empty"]),
        (["rr:k=2,p=3/4", "--graph", "nosuch"], ["--graph nosuch", "unknown neighbour relation"]),
        (["krr:n=3,exp_eps=2", "--graph", "hamming"], ["--graph hamming", "does not apply"]),
        (["rr:k=2,p=3/4", "--utility", "{nan}"], ["--utility", "not finite"]),
        (["rr:k=2,p=3/4", "--prior", "1/2,1/2,1/2,1/2"], ["--prior 1/2,1/2,1/2,1/2", "sum to 1"]),
        (["rr:k=2,p=3/4", "--prior", "{prior11}"], ["--prior", "sum to 1, got 1.1"]),
        (["rr:k=2,p=3/4", "--prior", "0,0,0,0"], ["--prior 0,0,0,0", "sum to 1, got 0"]),
        (["rr:k=2,p=3/4", "--only", ""], ["--only", "needs an expression"]),
        (["rr:k=2,p=3/4", "--intersect", "rr:k=1,p=3/4"], ["--intersect", "different datasets"]),
        (["rr:k=2,p=3/4", "--hull", "nosuch:k=1"], ["--hull", "unknown definition kind"]),
        ([ADP, "--drop", "0"], ["--drop", "not decided by its row cone"]),
        ([ADP, "--only", "n_minus <= 1"], ["--only", "not decided by its row cone"]),
    ],
)
def test_bad_input_exits_2_before_any_work(capsys, monkeypatch, files, argv, words):
    _forbid_work(monkeypatch)
    argv = [a.format(**files) if a.startswith("{") else a for a in argv]
    code, out, err = run(capsys, "design", *argv)
    assert code == 2 and out == "", (out, err)
    assert len(err.strip().splitlines()) == 1 and "internal error" not in err and "Forbidden" not in err, err
    for w in words:
        assert w in err, (w, err)


def test_a_dp_sandwich_over_the_limits_is_refused_before_the_design_is_built(capsys, monkeypatch):
    """ε-DP on the 6-cube has at least 2^32 DP extreme rays (the report's sandwich needs them): refused from that
    bound alone — no facet is dropped, no cone is built — where it took 69–80 s before."""
    from privgeom.geometry import Cone

    _forbid_work(monkeypatch)
    forbid(monkeypatch, Cone, "from_facets")
    code, out, err = run(capsys, "design", "dp:graph=hamming,k=6,exp_eps=3", "--drop", "0")
    assert code == 2 and "4,294,967,296" in err and "dp_rays" in err and "Forbidden" not in err, err


def test_intersection_with_approximate_dp_is_not_the_same_definition(capsys):
    """RR(2, 9/10) is not (1, 1/10)-DP (hockey stick (9 − e)/10 ≈ 0.628 on an edge at 11), so intersecting with it is
    strictly stronger; the report names the member its row cone does not decide."""
    code, out, _ = run(capsys, "design", "rr:k=2,p=9/10", "--intersect", ADP, "--json")
    data = json.loads(out)
    assert code == 0 and data["what"]["relation_to_base"] == "superset"
    assert data["definition"]["row_cone_decides_closure"] is False
    assert data["changes"]["beyond_row_cone"] == [ADP] and data["utility"]["new"] is None
    code, out, _ = run(capsys, "design", "rr:k=2,p=9/10", "--intersect", ADP)
    assert "stronger than BASE" in out and "the same definition as BASE" not in out
    assert f"beyond the row cone: every member must also be in {ADP}" in out
    assert "has its rows in its row cone, which does not decide membership" in out  # the sandwich's inner is honest
    assert "refused" not in out


def test_intersection_with_approximate_dp_cannot_be_written_as_a_cone_file(capsys, tmp_path):
    code, out, err = run(capsys, "design", "rr:k=2,p=9/10", "--intersect", ADP, "--out", tmp_path / "d.json")
    assert code == 2 and "--out" in err and "not a cone definition" in err and not (tmp_path / "d.json").exists()


def test_approximate_dp_base_without_operations_gives_one_account(capsys):
    """BASE = (1, 1/10)-DP, not decided by its row cone (the orthant): the new definition is the cone definition of
    that row cone — every mechanism — and every section says so consistently: weaker than BASE, the DP sandwich
    outer is infinite (exit 1), nothing dropped from the row cone, accuracy 1 for the new definition."""
    code, out, _ = run(capsys, "design", ADP, "--json")
    data = json.loads(out)
    assert code == 1
    assert "not decided by its row cone" in data["definition"]["operations"][0]
    assert data["what"]["relation_to_base"] == "subset"
    assert data["changes"]["dropped"] == [] and data["changes"]["added"] == []
    assert float(data["utility"]["new"]["value"]) == 1.0


def test_hull_with_approximate_dp_is_every_mechanism(capsys):
    """The hull is the smallest cone definition containing both; (1, 1/10)-DP's row cone is the orthant, so it is
    every mechanism (weaker than BASE, accuracy 1)."""
    code, out, _ = run(capsys, "design", "rr:k=2,p=9/10", "--hull", ADP, "--json")
    data = json.loads(out)
    assert code == 1 and data["what"]["relation_to_base"] == "subset" and float(data["utility"]["new"]["value"]) == 1.0


def test_drop_numbers_facets_as_rowcone_all_lists_them(capsys):
    """``--drop 0`` on RR(2, 3/4) drops [0] of ``rowcone --all``, which is ``row_cone().facets[0]``."""
    code, out, _ = run(capsys, "rowcone", "rr:k=2,p=3/4", "--all")
    first = next(line for line in out.splitlines() if line.strip().startswith("[0]"))
    assert first.strip() == "[0] 9·x_11 + 1·x_00 − 3·x_10 − 3·x_01 ≥ 0"
    code, out, _ = run(capsys, "design", "rr:k=2,p=3/4", "--drop", "0", "--json")
    dropped = json.loads(out)["changes"]["dropped"]
    assert [[int(v) for v in r] for r in dropped] == [[9, -3, -3, 1]]
