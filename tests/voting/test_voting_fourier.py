"""Fourier spectrum (Walsh–Hadamard), noise operator and stability against brute force and closed forms."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import voting
from privgeom.testing import random_rule
from privgeom.testing import brute_fourier, profiles, transition


@given(st.integers(1, 5).flatmap(lambda n: st.lists(st.integers(-3, 3), min_size=1 << n, max_size=1 << n)))
def test_wht_matches_definition(values: list[int]) -> None:
    f = voting.Rule.from_truth_table(values)
    spec = voting.fourier(f)
    for S, coeff in brute_fourier(values, f.n).items():
        assert spec.coefficient(S) == coeff
    assert sum(spec.level_weights()) == Fraction(sum(v * v for v in values), len(values))  # Parseval


def test_majority3_spectrum_and_stability() -> None:
    spec = voting.fourier(voting.majority(3))
    half = Fraction(1, 2)
    assert [(S, c) for S, c in spec.nonzero()] == [((0,), half), ((1,), half), ((2,), half), ((0, 1, 2), -half)]
    for rho in [Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(7, 9), Fraction(1)]:
        expected = Fraction(3, 4) * rho + Fraction(1, 4) * rho**3
        assert spec.stability(rho) == expected
        assert voting.stability(voting.majority(3), rho) == expected  # via exact counts
        assert voting.stability(voting.majority(3), rho, method="levels") == expected
        assert voting.stability(voting.majority(3), rho, method="fourier") == expected


@pytest.mark.parametrize("n", [5, 9, 15, 41])
def test_symmetric_levels_match_odonnell_majority_formula(n: int) -> None:
    """Maj_n^(S) = (-1)^((k-1)/2) C((n-1)/2, (k-1)/2) / C(n-1, k-1) * C(n-1, (n-1)/2) / 2^(n-1) for odd |S| = k."""
    spec = voting.fourier(voting.majority(n))
    m = (n - 1) // 2
    for k in range(n + 1):
        S = tuple(range(k))
        if k % 2 == 0:
            assert spec.coefficient(S) == 0
        else:
            expected = (
                (-1) ** ((k - 1) // 2)
                * Fraction(math.comb(m, (k - 1) // 2), math.comb(n - 1, k - 1))
                * Fraction(math.comb(n - 1, m), 2 ** (n - 1))
            )
            assert spec.coefficient(S) == expected


def test_noise_operator_is_the_expectation_over_noisy_votes() -> None:
    f = voting.tribes(2, 2)
    rho = Fraction(2, 5)
    tf = voting.noise_operator(f, rho).table()
    xs = profiles(4)
    for x, value in zip(xs, tf):
        assert value == sum(transition(x, y, rho) * v for y, v in zip(xs, f.table()))
    # symmetric rules stay symmetric and agree with their own table
    g = voting.majority(5)
    tg = voting.noise_operator(g, rho)
    assert tg.is_symmetric
    assert tg.table().tolist() == voting.noise_operator(voting.Rule.from_truth_table(g.table()), rho).table().tolist()


def test_float_spectrum_and_float_noise() -> None:
    f = voting.Rule.from_truth_table([0.5, -1.0, 2.0, 0.25])
    spec = voting.fourier(f)
    assert not spec.exact
    assert spec.coefficient(()) == pytest.approx((0.5 - 1 + 2 + 0.25) / 4)
    g = voting.majority(5)
    assert float(voting.stability(g, 0.3)) == pytest.approx(float(voting.stability(g, Fraction(3, 10))), abs=1e-14)


def test_wht_n18_and_printing() -> None:
    f = random_rule(18, seed=3)
    spec = voting.fourier(f)
    assert sum(spec.level_weights()) == 1
    assert spec.influences() == voting.influence(f, method="definition")
    text = str(voting.fourier(voting.majority(3)))
    assert "1/2·x0" in text and "- 1/2·x0x1x2" in text
    data = voting.fourier(voting.majority(3)).to_dict()
    assert data["coefficients"]["0,1,2"] == "-1/2"
    assert voting.fourier(voting.majority(41)).to_dict()["by_level"] is True


def test_degree_and_noise_of_parity() -> None:
    spec = voting.fourier(voting.parity(5))
    assert spec.degree == 5 and spec.level_weights()[5] == 1
    assert voting.stability(voting.parity(5), Fraction(1, 2)) == Fraction(1, 32)
    assert np.all(
        np.asarray(voting.noise_operator(voting.parity(3), Fraction(1, 2)).table())
        == np.asarray(voting.parity(3).table()) * Fraction(1, 8)
    )
