"""Accuracy Acc(M_rho f): every method against brute force, exact Fractions and each other; Equation (3)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
from privgeom import voting
from privgeom.voting import paper
from privgeom.testing import random_rule
from privgeom.testing import brute_accuracy

RHOS = [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10), Fraction(1)]


@pytest.mark.parametrize("rho", RHOS)
def test_all_exact_methods_agree_with_brute_force(rho: Fraction) -> None:
    rules = [
        voting.majority(3),
        voting.majority(5),
        voting.threshold(4, 1),
        voting.conjunction(3),
        voting.disjunction(4),
        voting.dictator(3, 1),
        voting.parity(4),
        voting.tribes(2, 2),
        voting.majority(weights=[3, 1, 1, 1], quota=4),
    ]
    for f in rules:
        expected = brute_accuracy(list(f.table()), f.n, rho)
        assert voting.accuracy(f, rho) == expected, f.name
        assert voting.accuracy(f, rho, method="fourier") == expected
        assert voting.accuracy(f, rho, method="definition") == expected
        if f.is_symmetric:
            assert voting.accuracy(f, rho, method="counts") == expected
            assert voting.accuracy(f, rho, method="levels") == expected
        if f.kind in ("majority", "threshold", "and"):
            assert voting.accuracy(f, rho, method="recursion") == expected  # the paper's memoised recursion


@given(
    st.integers(1, 4).flatmap(lambda n: st.lists(st.sampled_from([-1, 1]), min_size=1 << n, max_size=1 << n)),
    st.fractions(0, 1, max_denominator=12),
)
def test_random_rules_fourier_equals_brute_force(table: list[int], rho: Fraction) -> None:
    f = voting.Rule.from_truth_table(table)
    assert voting.accuracy(f, rho) == brute_accuracy(table, f.n, rho)


@pytest.mark.parametrize("n", [1, 2, 5, 12, 40])
@pytest.mark.parametrize("rho", [Fraction(1, 3), Fraction(4, 5)])
def test_closed_forms(n: int, rho: Fraction) -> None:
    p = (1 + rho) / 2
    and_or = 1 - Fraction(2, 2**n) * (1 - p**n)
    assert voting.accuracy(voting.dictator(n, n - 1), rho) == p
    assert voting.accuracy(voting.conjunction(n), rho) == and_or
    assert voting.accuracy(voting.disjunction(n), rho) == and_or
    assert voting.accuracy(voting.parity(n), rho) == (1 + rho**n) / 2
    assert voting.accuracy(voting.conjunction(n), rho, method="counts") == and_or  # independent route
    if n <= 12:
        assert voting.accuracy(voting.dictator(n), rho, method="fourier") == p


def test_float_methods_within_1e12_of_exact_fractions() -> None:
    for n in list(range(1, 40, 2)) + [61, 101, 201]:
        f = voting.majority(n)
        for rho in (Fraction(1, 10), Fraction(1, 2), Fraction(99, 100)):
            exact = voting.accuracy(f, rho).value
            assert isinstance(exact, Fraction)
            for method in ("majority", "counts"):
                fast = voting.accuracy(f, float(rho), method=method).value
                assert isinstance(fast, float)
                assert abs(Fraction(fast) - exact) <= Fraction(1, 10**12), (n, rho, method)
    for f in (
        voting.threshold(60, 7),
        voting.threshold(61, -9),
        voting.Rule.symmetric([1, 1, -1, -1, 1, -1, -1, 1, 1, -1, 1] * 3 + [1]),
    ):
        exact = voting.accuracy(f, Fraction(2, 3)).value
        assert abs(Fraction(voting.accuracy(f, 2 / 3, method="counts").value) - exact) <= Fraction(1, 10**12), f.name


def test_majority_100001_fast_methods_agree() -> None:
    f = voting.majority(100001)
    for rho in (0.1, 0.5, 0.9, 0.99):
        a = voting.accuracy(f, rho).value
        b = voting.accuracy(f, rho, method="counts").value
        assert abs(a - b) <= 1e-12
        limit = paper.majority_accuracy_bounds(100001, rho).lower  # 1/2 + arcsin(ρ)/π, the limit as n → ∞
        assert limit <= a <= limit + 1 / math.sqrt((1 - rho**2) * 100001)


def test_large_symmetric_rules_by_counts() -> None:
    n = 20001
    t = voting.threshold(n, 101)
    acc = voting.accuracy(t, 0.5)
    assert 0.5 < acc < 1
    # threshold with theta = 0 is majority (odd n): the general engine reproduces the majority spectrum
    assert float(voting.accuracy(voting.threshold(n, 0), 0.5)) == pytest.approx(
        float(voting.accuracy(voting.majority(n), 0.5)), abs=1e-12
    )
    assert float(voting.accuracy(voting.conjunction(n), 0.5)) == pytest.approx(1 - 2.0 ** (1 - n), abs=1e-15)


def test_equation3_and_lemma7() -> None:
    for rho in ("1/10", "1/2", "9/10"):
        check = paper.CHECKS["Equation (3)"](201, rho)
        assert check.holds, check
    bounds = paper.majority_accuracy_bounds(10001, 0.5)
    assert bounds.holds and 0 < bounds.gap and 0 < bounds.scaled_gap < 0.01  # the O(1/sqrt n) of Equation (3) is loose:
    far = paper.majority_accuracy_bounds(100001, 0.5)
    assert far.gap_times_n == pytest.approx(bounds.gap_times_n, rel=1e-3)  # the gap decays like 1/n
    assert float(paper.majority_accuracy_bounds(11, "1/2").lower) == pytest.approx(0.5 + 1 / 6)  # the limit, any n


def test_stability_is_two_accuracy_minus_one() -> None:
    for f in (voting.majority(7), voting.tribes(2, 3), random_rule(6, seed=1)):
        for rho in RHOS:
            assert voting.stability(f, rho) == 2 * voting.accuracy(f, rho).value - 1
    real = voting.Rule.from_truth_table(["1/2", 2, 0, -1])
    assert voting.stability(real, "1/2") == voting.fourier(real).stability("1/2")
    sym = voting.Rule.symmetric(["1/2", 2, -1])
    assert (
        voting.stability(sym, "1/3", method="counts")
        == voting.stability(sym, "1/3", method="fourier")
        == voting.stability(sym, "1/3", method="levels")
    )


def test_errors() -> None:
    with pytest.raises(pg.InvalidParameterError):
        voting.accuracy(voting.majority(3), "3/2")
    with pytest.raises(pg.InvalidParameterError):
        voting.accuracy(voting.majority(3), -0.1)
    with pytest.raises(pg.InvalidParameterError):
        voting.accuracy(voting.majority(3), "1/2", method="nope")
    with pytest.raises(pg.InvalidParameterError):
        voting.accuracy(voting.parity(3), "1/2", method="recursion")
    with pytest.raises(pg.InvalidParameterError):
        voting.accuracy(voting.Rule.from_truth_table([0.5, 1.0]), "1/2")
    with pytest.raises(pg.SizeLimitError):
        voting.accuracy(voting.majority(weights=list(range(1, 31))), "1/2")
    with pytest.raises(pg.SizeLimitError):
        voting.accuracy(voting.threshold(5001, 0), 0.5, method="recursion")


@pytest.mark.parametrize("n", [2001, 100001])
@pytest.mark.parametrize("rho", [Fraction(1, 10), Fraction(1, 2), Fraction(999999, 1000000)])
def test_majority_accuracy_against_50_digit_reference(n: int, rho: Fraction) -> None:
    """Done-when: error <= 1e-12 at n = 100 001 against an independent 50-digit evaluation of O'Donnell's spectrum
    (the by-count engine used to be 5e-12 off at rho near 1: ln p was taken from the rounded p = (1+rho)/2)."""
    from decimal import Decimal, localcontext

    from privgeom.testing import decimal_majority_accuracy

    reference = decimal_majority_accuracy(n, Fraction(float(rho)))  # the float rho the fast methods see, exactly
    f = voting.majority(n)
    q = voting.accuracy(f, float(rho))
    fast = q.value
    assert q.detail.endswith("method majority")  # the O(n) closed-form spectrum, not a by-count or Fourier sum
    assert abs(Decimal(fast) - reference) <= Decimal("1e-14")
    assert abs(Decimal(voting.accuracy(f, float(rho), method="counts").value) - reference) <= Decimal("1e-13")
    if n == 2001 and rho == Fraction(1, 2):  # and the reference itself against exact Fractions (by-count engine)
        exact = voting.accuracy(voting.majority(301), rho).value
        with localcontext() as ctx:  # the quotient at 60 digits (the default context has 28)
            ctx.prec = 60
            quotient = Decimal(exact.numerator) / exact.denominator
        assert abs(decimal_majority_accuracy(301, rho) - quotient) < Decimal("1e-45")


def test_errors_typed() -> None:
    with pytest.raises(pg.InvalidTypeError):
        voting.accuracy("majority", 0.5)  # type: ignore[arg-type]
    with pytest.raises(pg.InvalidParameterError):
        paper.CHECKS["Equation (3)"](0, "1/2")
    with pytest.raises(pg.InvalidParameterError):
        voting.accuracy(voting.threshold(0, 0), "1/2", method="recursion")
