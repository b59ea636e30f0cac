"""Words: the sentences the commands print read as English and say what is meant — plurals
agree, group names read inside "the … group", the δ(ε) curve says δ = 0 where it is 0, the compare witness names
the output it speaks of."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from privgeom.cli import main

RR2 = str(Path(__file__).resolve().parents[2] / "examples" / "rr2_mechanism.json")


def _out(capsys, *argv, code=0):
    got = main(list(argv))
    out, err = capsys.readouterr()
    assert got == code, err
    return out


def test_isolated_datasets_singular_and_plural(capsys):
    one = _out(capsys, "relax", "rr:k=2,p=3/4", "--family", "11:10,11:01")
    assert "x_i ≥ 0 for 1 isolated dataset\n" in one and "1 isolated datasets" not in one
    two = _out(capsys, "relax", "rr:k=2,p=3/4", "--family", "11:10")
    assert "x_i ≥ 0 for 2 isolated datasets" in two


def test_stabiliser_reads_as_a_group_name(capsys):
    out = _out(capsys, "relax", "rr:k=2,p=3/4", "--family", "11:10,11:01")
    assert "symmetry: stabiliser of a family in the hypercube group of unknown order" in out
    assert "family group" not in out and ", stabiliser" not in out
    assert "(3 orbits of the symmetry group: stabiliser of a family in the hypercube; one verified LP per orbit)" in out
    full = _out(capsys, "relax", "rr:k=3,p=3/4", "--family", "hamming")
    # randomized response on its Hamming pairs: one orbit decided by a verified witness, no LP (RandomizedResponse.orbit_structure)
    assert "(1 orbit of the symmetry group: hypercube, order 48; one verified witness per orbit)" in full


def test_delta_curve_says_zero_where_delta_is_zero(capsys):
    out = _out(capsys, "delta", "-m", RR2, "--graph", "path", "--curve")
    # ε* = ln 4 (the largest ratio 4/9 : 1/9 on the path): δ = 4/9 − e^ε/9 on [1, 4], then exactly 0
    assert "e^ε ∈ [1, 4]: δ = 4/9 − e^ε·1/9 (edge 10 → 01, S = {10})" in out
    assert "e^ε ∈ [4, ∞): δ = 0\n" in out
    assert "e^ε·0" not in out and "inf]" not in out


def test_delta_piece_summary():
    from fractions import Fraction

    from privgeom.results import DeltaPiece

    last = DeltaPiece(
        start=Fraction(4), end=float("inf"), intercept=Fraction(0), slope=Fraction(0), edge=None, outputs=()
    )
    assert last.summary() == "e^ε ∈ [4, ∞): δ = 0"
    mid = DeltaPiece(
        start=Fraction(1),
        end=Fraction(4),
        intercept=Fraction(4, 9),
        slope=Fraction(1, 9),
        edge=("10", "01"),
        outputs=("10",),
    )
    assert mid.summary() == "e^ε ∈ [1, 4]: δ = 4/9 − e^ε·1/9 (edge 10 → 01, S = {10})"


def test_compare_names_the_output_it_speaks_of(capsys):
    out = _out(capsys, "compare", "rr:k=2,p=3/4", "dp:graph=hamming,k=2,exp_eps=3")
    assert "'witness'" not in out
    # the row x = (3, 1, 1, 3)/4 is the output ω; prior ∝ (9, 1, 3, 3) on (10, 01, 11, 00): S+ = {10, 01} has 5/8;
    # P(ω | ·) = x/4 = (1/4, 1/4, 3/4, 3/4), so P(S+ | ω) = (9·1 + 1·1)/(9 + 1 + 9 + 9) = 10/28 = 5/14
    m = re.search(
        r"after seeing the output ω of that mechanism whose probabilities are the row x/4: "
        r"P\(S\+ \| ω\) = 5/14 < P\(S- \| ω\) = 9/14\.",
        out,
    )
    assert m, out


def test_analyze_header_has_single_spaces(capsys):
    out = _out(capsys, "analyze", "rr:k=2,p=3/4")
    assert out.startswith("privacy definition rr:k=2,p=3/4 (randomized response (k=2, p=3/4)) on 4 datasets")


@pytest.mark.parametrize(
    "argv",
    [
        ("relax", "rr:k=2,p=3/4", "--family", "11:10,11:01"),
        ("relax", "geometric:n=3,alpha=1/2", "--family", "all-pairs"),
        ("rowcone", "dp:graph=hamming,k=2,exp_eps=3", "--rays"),
        ("delta", "-m", RR2, "--graph", "path", "--curve"),
        ("epsilon", "--mechanism", RR2, "--graph", "hamming"),
        ("analyze",),
    ],
)
def test_no_number_noun_disagreement(capsys, argv):
    out = _out(capsys, *argv)
    bad = re.findall(r"\b1 (datasets|facets|orbits|rays|edges|pairs|guarantees|pieces)\b", out)
    assert not bad, bad


def test_weighted_rule_names_its_weights_as_numbers(capsys):
    """A Python list repr (``['4', '2', '1', '1']``) is no way to print weights in a sentence."""
    out = _out(capsys, "voting", "influence", "weighted", "--weights", "4,2,1,1", "--quota", "5", "--rho", "1/2")
    assert "influence I_i[weighted([4, 2, 1, 1], quota=5)] (Definition 4):" in out and "'4'" not in out
    # voter 0 is pivotal iff the others' weight w has w < 5 <= w + 4: every subset of {2, 1, 1} but the empty one, 7/8
    assert "voter 0: 7/8" in out


def test_design_writes_logarithms_of_fractions_with_parentheses(capsys):
    out = _out(capsys, "design", "rr:k=2,p=3/4", "--drop", "0", code=1)
    # ln 5/3 would read as (ln 5)/3; the inner DP level of RR(3/4) without facet 0 is e^ε = 5/3
    assert "e^ε ≤ 5/3 (ε = ln(5/3) ≈ 0.510826)" in out and "ln 5/3" not in out


def test_optimal_says_yes_not_a_python_boolean(capsys):
    out = _out(capsys, "optimal", "dp:graph=complete,n=4,exp_eps=3", "--utility", "accuracy", "--prior", "uniform")
    # k-RR with e^ε = 3 on 4 outputs: accuracy 3/(3 + 3) = 1/2 is optimal (and in the closure)
    assert "expected utility 1/2; in the closure: yes [" in out and "True" not in out


def test_theorem_4_5_summary_agrees_in_number():
    import privgeom as pg
    from privgeom import check_product_prior

    M = pg.randomized_response(2, "3/4")
    # first bit a fair coin (not eligible: 1/4 < 1/2 < 3/4), second bit 1 w.p. 3/4: one subset, {1}, on 4 outputs
    one = check_product_prior(M, "3/4", ["1/2", "3/4"])
    assert one.summary() == (
        "Theorem 4.5 holds: 1 subset of the bits [1] keeps its a-priori more likely parity on all 4 outputs"
    )
    # both bits eligible: the subsets {0}, {1}, {0, 1}
    three = check_product_prior(M, "3/4", ["3/4", "3/4"])
    assert three.summary().startswith("Theorem 4.5 holds: 3 subsets of the bits [0, 1] keep their a-priori")
