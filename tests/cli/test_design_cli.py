"""``privgeom design`` through the real entry point: the report, --out read back by cone:file=, --json, exit codes."""

from __future__ import annotations

import json
import math

import pytest

import privgeom as pg
from privgeom.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_design_out_is_read_back_by_closure(capsys, tmp_path):
    d = tmp_path / "d.json"
    code, out, _ = run(capsys, "design", "rr:k=2,p=3/4", "--drop", "0", "--out", d)
    assert code == 1  # dropping a facet of RR(2) lets x_00 = 0 < x_10: no ε-DP level bounds it (outer = ∞)
    assert "1 guarantee no longer given" in out and "inner: every ε-DP mechanism with e^ε ≤ 5/3" in out
    # the optimal accuracy grows: base 9/16 (RR(3/4)^⊗2 with Bayes decoding), new 23/36 (certified by the LP dual)
    assert "base: 9/16" in out and "new : 23/36" in out
    m = tmp_path / "m.json"
    pg.randomized_response(2, "3/4").save(m)
    code, out, _ = run(capsys, "closure", f"cone:file={d}", "-m", m)
    assert code == 0 and "IN closure" in out
    pg.randomized_response(2, "9/10").save(m)
    code, out, _ = run(capsys, "closure", f"cone:file={d}", "-m", m)
    assert code == 1 and "violates facet" in out


def test_design_json_and_recognition(capsys):
    code, out, _ = run(capsys, "design", "rr:k=1,p=3/4", "--json")
    data = json.loads(out)
    assert code == 0 and data["what"]["relation_to_base"] == "equal"
    assert data["what"]["dp_bounds"]["inner"]["exp_eps"] == "3"
    assert data["utility"]["base"]["value"] == data["utility"]["new"]["value"] == "3/4"
    code, out, _ = run(capsys, "design", "rr:k=1,p=3/4")
    assert "it is ε-differential privacy over hamming with e^ε = 3" in out


def test_design_guarantee_intersect_hull_only(capsys, tmp_path):
    g = tmp_path / "g.json"
    g.write_text(
        json.dumps([[3, -1, 0, 0], {"prior": {"11": "3/4", "10": "1/4"}, "s_plus": ["11"], "s_minus": ["10"]}])
    )
    code, out, _ = run(capsys, "design", "dp:graph=hamming,k=2,exp_eps=3", "--guarantee", g)
    assert code == 0 and "redundant in --guarantee" in out and "0 new" in out  # already a DP facet
    code, out, _ = run(capsys, "design", "rr:k=2,p=3/4", "--intersect", "dp:graph=hamming,k=2,exp_eps=2", "--json")
    data = json.loads(out)
    assert data["what"]["relation_to_base"] == "superset" and len(data["changes"]["added"]) > 0
    code, out, _ = run(capsys, "design", "rr:k=2,p=3/4", "--hull", "dp:graph=hamming,k=2,exp_eps=3")
    assert "it is ε-differential privacy over hamming with e^ε = 3" in out
    code, out, _ = run(capsys, "design", "dp:graph=path,n=2,exp_eps=2", "--only", "s_minus contains 0")
    assert code == 1 and "3 guarantees no longer given" in out  # 4 edge facets, one has 0 in S-


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--only", "n_plus >"], "expected a value"),
        (["--only", "weight > 1"], "not a field"),
        (["--drop", "99"], "facet 99 does not exist"),
        (["--intersect", "rr:k=1,p=3/4"], "different datasets"),
    ],
)
def test_design_bad_invocations_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, "design", "rr:k=2,p=3/4", *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------------------------------- --at-least
def test_design_at_least_one_bit_closed_form(capsys):
    """One bit under RR(3/4), uniform prior, accuracy ≥ a = 2/3 ≤ p: the least information is ln 2 − H(a) nats
    (a binary symmetric channel with crossover 1 − a, docs/theory.md §15), for BASE and for its cone definition."""
    code, out, _ = run(
        capsys, "design", "rr:k=1,p=3/4", "--at-least", "2/3", "--utility", "accuracy", "--prior", "uniform", "--json"
    )
    data = json.loads(out)
    a = 2 / 3
    closed = math.log(2) + a * math.log(a) + (1 - a) * math.log(1 - a)
    assert code == 0 and data["information"]["at_least"] == "2/3"
    for key in ("base", "new"):
        entry = data["information"][key]
        assert entry["feasible"] is True and entry["status"] in ("optimal", "optimal_inaccurate")
        assert abs(entry["value"] - closed) < 1e-6
        assert entry["lower_bound"] <= entry["value"] + 1e-9 and abs(entry["lower_bound"] - closed) < 1e-5
        assert entry["gap"] < 1e-6 and entry["best"] == "3/4" and entry["utility"] >= a - 1e-6
        assert len(entry["mechanism"]["matrix"]) == 2
    code, out, _ = run(
        capsys, "design", "rr:k=1,p=3/4", "--at-least", "2/3", "--utility", "accuracy", "--prior", "uniform"
    )
    assert code == 0 and "information cost: least mutual information I(D; ω) at expected utility ≥ 2/3" in out
    assert f"base: {data['information']['base']['value']:.10g} nats" in out


def test_design_at_least_matches_least_informative_and_reports_above_best(capsys, tmp_path):
    """Dropping facet 0 of RR(2, 3/4) raises the best accuracy from 9/16 to 23/36: a floor of 5/8 is reported as out
    of BASE's reach and solved for the new definition, with the value pg.least_informative gives directly."""
    d = tmp_path / "d.json"
    code, out, _ = run(
        capsys,
        "design",
        "rr:k=2,p=3/4",
        "--drop",
        "0",
        "--at-least",
        "5/8",
        "--utility",
        "accuracy",
        "--prior",
        "uniform",
        "--out",
        d,
        "--json",
    )
    data = json.loads(out)
    assert code == 1  # as without --at-least: no ε-DP level bounds the new definition
    base, new = data["information"]["base"], data["information"]["new"]
    assert base["feasible"] is False and base["status"] == "above_best" and base["best"] == "9/16"
    assert base["value"] is None
    assert new["feasible"] is True and new["best"] == "23/36"
    direct = pg.least_informative(pg.ConeDefinition.load(d), "accuracy", "5/8")
    assert abs(new["value"] - float(direct.value)) < 1e-6
    assert direct.lower_bound - 1e-7 <= new["value"] and new["lower_bound"] <= float(direct.value) + 1e-7
    code, out, _ = run(
        capsys,
        "design",
        "rr:k=2,p=3/4",
        "--drop",
        "0",
        "--at-least",
        "5/8",
        "--utility",
        "accuracy",
        "--prior",
        "uniform",
    )
    assert "base: none: 5/8 is above its best expected utility 9/16" in out


def test_design_without_at_least_has_no_information_section(capsys):
    code, out, _ = run(capsys, "design", "rr:k=1,p=3/4", "--json")
    assert code == 0 and json.loads(out)["information"] == {}
    code, out, _ = run(capsys, "design", "rr:k=1,p=3/4")
    assert "information cost" not in out


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--at-least", "1/2"], "needs --utility and --prior stated"),
        (["--at-least", "1/2", "--utility", "accuracy"], "needs --prior stated"),
        (["--at-least", "1/2", "--prior", "uniform"], "needs --utility stated"),
        (["--at-least", "half", "--utility", "accuracy", "--prior", "uniform"], "half"),
    ],
)
def test_design_at_least_bad_invocations_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, "design", "rr:k=1,p=3/4", *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and out == ""
