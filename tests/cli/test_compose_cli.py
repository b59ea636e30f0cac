"""``privgeom compose`` through the real entry point: composed definitions and mechanisms, --json, exit codes."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import privgeom as pg
from privgeom.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def rr1_file(tmp_path):
    path = tmp_path / "rr1.json"
    pg.randomized_response(1, "3/4").save(path)
    return path


def test_composed_dp_definitions_are_not_decided_by_their_cone(capsys):
    spec2, spec4 = "dp:graph=complete,n=3,exp_eps=2", "dp:graph=complete,n=3,exp_eps=4"
    code, out, _ = run(capsys, "compose", spec2, spec2, "--against", spec4)
    assert code == 1  # the cone (DP(K3, 4)'s) is only an outer description
    assert "only an outer description" in out and "strictly inside" in out and "ln(4)-DP" in out
    code, out, _ = run(capsys, "compose", spec2, spec2, "--json")
    data = json.loads(out)
    assert data["decided"] is False and data["definition"] == "FiniteDefinition"
    assert data["row_cone"] == {"facets": 6, "rays": 6, "dim": 3}


def test_independent_rr_is_rr_on_two_bits(capsys):
    code, out, _ = run(capsys, "compose", "rr:k=1,p=3/4", "--k", "2", "--independent", "--json")
    data = json.loads(out)
    assert code == 0 and data["decided"] is True and data["definition"] == "ConeDefinition"
    assert data["row_cone"]["facets"] == pg.RandomizedResponse(2, "3/4").row_cone().n_facets


def test_composed_mechanism_epsilon_delta_and_curve(capsys, rr1_file):
    code, out, _ = run(capsys, "compose", "-m", rr1_file, "--k", "3", "--graph", "hamming", "--exp-eps", "3", "--curve")
    assert code == 0 and "ln(27)" in out and "= 3/8 (exact)" in out and "linear pieces" in out
    code, out, _ = run(capsys, "compose", "-m", rr1_file, "--k", "3", "--graph", "hamming", "--exp-eps", "3", "--json")
    data = json.loads(out)
    assert Fraction(data["delta"]["delta"]) == Fraction(3, 8)  # KOV: k = 3, i = 1 at e^ε = 3


def test_bad_invocations_exit_2(capsys, rr1_file):
    assert run(capsys, "compose")[0] == 2
    assert run(capsys, "compose", "rr:k=1,p=3/4", "-m", rr1_file)[0] == 2
    assert run(capsys, "compose", "rr:k=1,p=3/4")[0] == 2  # one definition, k = 1: nothing to compose
    assert run(capsys, "compose", "-m", rr1_file, "--k", "0")[0] == 2


@pytest.mark.parametrize("items", [["rr:k=1,p=3/4"], ["-m", "RR1"], ["rr:k=1,p=3/4", "--independent"]])
def test_huge_k_is_refused_before_anything_is_built(capsys, rr1_file, items):
    argv = [rr1_file if a == "RR1" else a for a in items]
    code, out, err = run(capsys, "compose", *argv, "--k", str(10**11), "--json")
    data = json.loads(out)
    assert code == 2 and data["error"] == "SizeLimitError" and "100,000,000,000 runs" in data["message"]
    assert "composition_runs" in data["message"]
