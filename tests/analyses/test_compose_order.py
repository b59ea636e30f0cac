"""Sequential composition of mechanisms or definitions whose datasets are the same but listed in another order."""

from fractions import Fraction

import pytest

import privgeom as pg


def _reversed(M: pg.Mechanism) -> pg.Mechanism:
    return M.restrict(list(reversed(M.inputs)))


def test_mechanisms_listed_in_another_order_are_aligned_before_composing():
    M = pg.randomized_response(1, "3/4")
    N = _reversed(M)
    assert N.inputs != M.inputs
    aligned = pg.compose(M, N)
    same = pg.compose(M, k=2)
    assert aligned.inputs == M.inputs
    # ε of RR(3/4) run twice is ln 9, δ(ln 3) = (9 − 3·1)/16 = 3/8 (the output 11 alone), whichever order the second run lists its datasets in
    assert aligned.epsilon("complete").level.exp_eps == same.epsilon("complete").level.exp_eps == Fraction(9)
    assert (
        aligned.delta("complete", pg.LogRational(3)).delta
        == same.delta("complete", pg.LogRational(3)).delta
        == Fraction(3, 8)
    )


def test_definitions_listed_in_another_order_compose_like_the_aligned_ones():
    rr = pg.RandomizedResponse(1, "3/4")
    flipped = pg.FiniteDefinition([_reversed(pg.randomized_response(1, "3/4"))])
    assert flipped.inputs != rr.inputs
    assert pg.compose(rr, flipped).row_cone() == pg.compose(rr, rr).row_cone()


def test_different_datasets_are_still_refused_by_name():
    M = pg.randomized_response(1, "3/4")
    other = pg.Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["a", "b"])
    with pytest.raises(pg.DomainMismatchError, match=r"differ"):
        pg.compose(M, other)
    with pytest.raises(pg.DomainMismatchError, match=r"differ"):
        pg.compose(pg.RandomizedResponse(1, "3/4"), pg.FiniteDefinition([other]))


def test_composed_generators_merge_proportional_outputs_without_changing_the_closure():
    rr = pg.RandomizedResponse(1, "3/4")
    composed = pg.compose(rr, k=3)
    (G,) = composed.mechanisms
    # RR(3/4) three times: 8 outputs, likelihood ratios 27, 3, 1/3, 1/27 — four distinct directions
    assert G.n_outputs == 4
    assert sorted(G.matrix[:, 0] / G.matrix[:, 1]) == [Fraction(1, 27), Fraction(1, 3), Fraction(3), Fraction(27)]
    dense = pg.FiniteDefinition([pg.compose(pg.randomized_response(1, "3/4"), k=3).dense()])
    assert dense.mechanisms[0].n_outputs == 8
    probes = [pg.randomized_response(1, p) for p in ("3/4", "27/32", "9/10", "27/28")] + [
        pg.compose(pg.randomized_response(1, "3/4"), k=2).dense()
    ]
    for M in probes:  # the same answers from the merged and the dense generator
        assert composed.contains(M).member == dense.contains(M).member
    # the majority of three RR(3/4) reports is RR(27/32) (27/64 + 27/64), the most accurate symmetric bit; 9/10 is not
    assert [composed.contains(M).member for M in probes] == [True, True, False, False, True]


def test_a_cone_from_repeated_directions_equals_the_cone_from_distinct_ones():
    rows = [[3, 1], [6, 2], [1, 3], ["1/2", "3/2"], [9, 3], [2, 2]]
    many = pg.Cone.from_generators(rows, exact=True)
    few = pg.Cone.from_generators([[3, 1], [1, 3]], exact=True)
    assert many == few and many.n_rays == 2
