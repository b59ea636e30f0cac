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
