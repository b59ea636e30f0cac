"""Influence (Definition 4), probabilistic influence (Definition 5, Theorem 3) and welfare (Definitions 6–7)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
from privgeom import voting
from privgeom.voting import paper
from privgeom.testing import random_rule
from privgeom.testing import brute_influence, profiles, transition

RHOS = [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10), Fraction(1)]


@pytest.mark.parametrize("n", [1, 3, 5, 7, 11, 101, 1001])
def test_majority_influence_closed_form(n: int) -> None:
    expected = Fraction(math.comb(n - 1, (n - 1) // 2), 2 ** (n - 1))
    f = voting.majority(n)
    assert voting.influence(f, 0) == expected
    assert voting.influence(f).total == n * expected
    if n <= 11:
        assert voting.influence(f, method="definition") == (expected,) * n
        assert voting.influence(f, method="fourier") == (expected,) * n


def test_total_influence_of_majority_grows_like_sqrt_n() -> None:
    n = 100001
    total = float(voting.influence(voting.majority(n)).total)
    assert total == pytest.approx(math.sqrt(2 / math.pi) * math.sqrt(n), rel=1e-4)


@given(st.integers(1, 5).flatmap(lambda n: st.lists(st.sampled_from([-1, 1]), min_size=1 << n, max_size=1 << n)))
def test_influence_definition_vs_fourier_vs_brute_force(table: list[int]) -> None:
    f = voting.Rule.from_truth_table(table)
    by_def = voting.influence(f, method="definition")
    assert by_def == voting.influence(f, method="fourier")
    assert by_def == tuple(brute_influence(table, f.n, i) for i in range(f.n))


def test_symmetric_influence_by_counts_equals_table() -> None:
    for rule in [
        voting.threshold(6, 2),
        voting.parity(5),
        voting.Rule.symmetric([1, -1, 1, 1, -1]),
        voting.Rule.symmetric(["1/2", 0, 3, "-2/3"]),
    ]:
        assert voting.influence(rule, method="counts") == voting.influence(rule, method="definition")


def _definition5_by_enumeration(table: list, n: int, rho: Fraction, i: int) -> Fraction:
    """E over x, y_i ~ N_rho(1), z_i ~ N_rho(-1), y_j = z_j = x_j (j != i) of ((f(y) - f(z))/2)^2."""
    xs = profiles(n)
    value = dict(zip(xs, map(Fraction, table)))
    p, q = (1 + rho) / 2, (1 - rho) / 2
    total = Fraction(0)
    for x in xs:
        for yi, py in ((1, p), (-1, q)):
            for zi, pz in ((-1, p), (1, q)):
                y = x[:i] + (yi,) + x[i + 1 :]
                z = x[:i] + (zi,) + x[i + 1 :]
                total += py * pz * ((value[y] - value[z]) / 2) ** 2
    return total / len(xs)


@pytest.mark.parametrize("rho", RHOS)
def test_theorem3_exact_on_named_and_random_rules(rho: Fraction) -> None:
    factor = (1 + rho * rho) / 2
    rules = [
        voting.majority(5),
        voting.dictator(4, 1),
        voting.tribes(2, 2),
        voting.parity(3),
        voting.conjunction(3),
        voting.majority(weights=[3, 2, 1, 1]),
        random_rule(5, seed=7),
        voting.Rule.from_truth_table(["1/2", 3, -1, "2/7"]),
    ]
    for f in rules:
        values = voting.probabilistic_influence(f, rho)
        assert values == tuple(factor * v for v in voting.influence(f, method="fourier")), f.name
        if f.n <= 4:
            assert values == tuple(_definition5_by_enumeration(list(f.table()), f.n, rho, i) for i in range(f.n))


def test_theorem3_at_large_n_by_counts() -> None:
    f = voting.majority(20001)
    rho = Fraction(2, 3)
    assert voting.probabilistic_influence(f, rho, 17) == (1 + rho * rho) / 2 * voting.influence(f, 17).value
    assert voting.probabilistic_influence(f, rho).total == (1 + rho * rho) / 2 * voting.influence(f).total


def _independent_by_enumeration(table: list[int], n: int, rho: Fraction, i: int) -> Fraction:
    xs = profiles(n)
    value = dict(zip(xs, table))
    total = Fraction(0)
    for x in xs:
        xp = x[:i] + (1,) + x[i + 1 :]
        xm = x[:i] + (-1,) + x[i + 1 :]
        for y in xs:
            for z in xs:
                w = transition(xp, y, rho) * transition(xm, z, rho)
                total += w * Fraction(value[y] - value[z], 2) ** 2
    return total / len(xs)


def test_alternative_couplings_do_not_satisfy_theorem3() -> None:
    """The coupling in Definition 5 matters: sharing all coins, one flip coin, or redrawing every coin break Theorem 3."""
    rho = Fraction(1, 2)
    factor = (1 + rho * rho) / 2
    f = voting.majority(3)
    base = voting.influence(f, 0).value
    assert voting.probabilistic_influence(f, rho, 0) == factor * base
    shared = voting.probabilistic_influence(f, rho, 0, coupling="shared")
    same_flip = voting.probabilistic_influence(f, rho, 0, coupling="same_flip")
    independent = voting.probabilistic_influence(f, rho, 0, coupling="independent")
    assert shared == rho * base != factor * base
    assert same_flip == base != factor * base
    assert independent == _independent_by_enumeration(list(f.table()), 3, rho, 0) != factor * base
    # a dummy voter has influence 0, but with every coin redrawn she seems to matter
    g = voting.dictator(3, 0)
    assert voting.probabilistic_influence(g, rho, 2) == 0
    assert voting.probabilistic_influence(g, rho, 2, coupling="independent") > 0
    # the alternatives fail on random rules too, for every 0 < rho < 1
    for seed in range(3):
        h = random_rule(4, seed=seed)
        for r in (Fraction(1, 3), Fraction(3, 4)):
            target = tuple((1 + r * r) / 2 * v for v in voting.influence(h))
            for coupling in ("shared", "same_flip", "independent"):
                assert voting.probabilistic_influence(h, r, coupling=coupling) != target


def test_welfare_definitions_lemma10_prop5_theorem6() -> None:
    for f in [
        voting.majority(5),
        voting.dictator(4, 2),
        voting.tribes(2, 2),
        voting.conjunction(3),
        voting.majority(weights=[2, 1, 1]),
    ]:
        w = voting.welfare(f, method="definition")
        assert w == voting.welfare(f, method="fourier")  # Lemma 10
        assert w == voting.influence(f).total  # Proposition 5 (monotone)
        for rho in RHOS:
            assert voting.welfare(f, rho, method="definition") == rho * w.value  # Theorem 6
    # non-monotone: W(f) != I[f]
    assert voting.welfare(voting.parity(3)) == 0 != voting.influence(voting.parity(3)).total
    # by brute-force enumeration of Definition 7 for majority(3)
    xs = profiles(3)
    rho = Fraction(1, 3)
    f = voting.majority(3)
    total = Fraction(0)
    for x in xs:
        for y in xs:
            out = f.table()[xs.index(y)]
            total += transition(x, y, rho) * sum(1 if a == out else -1 for a in x)
    assert voting.welfare(f, rho) == total / len(xs)


def test_welfare_symmetric_counts_any_n() -> None:
    n = 1001
    f = voting.majority(n)
    assert voting.welfare(f) == n * Fraction(math.comb(n - 1, 500), 2 ** (n - 1))
    assert voting.welfare(f, "1/2") == voting.welfare(f).value / 2  # Theorem 6 path beyond n = 400
    g = voting.majority(301)
    assert voting.welfare(g, "1/3", method="counts") == voting.welfare(g).value / 3  # by definition, exact counts
    assert float(voting.welfare(voting.threshold(50, 4), 0.5, method="counts")) == pytest.approx(
        0.5 * float(voting.welfare(voting.threshold(50, 4))), rel=1e-12
    )


def test_proposition4_brute_force() -> None:
    check = paper.CHECKS["Proposition 4"](3)
    assert check.holds and check.lhs == (1, True)
    assert paper.CHECKS["Proposition 4"](1).holds
    even = paper.CHECKS["Proposition 4"](4)  # Remark 2: 2^C(4,2) = 64 tie-breakings
    assert even.holds and even.lhs == 64


def test_welfare_needs_a_voting_rule() -> None:
    with pytest.raises(pg.InvalidParameterError):
        voting.welfare(voting.Rule.from_truth_table([0.5, 1.0]))
    assert np.isclose(float(voting.welfare(voting.majority(5), 0.5)), 15 / 16)


def test_many_breakpoints_at_large_n() -> None:
    """Parity changes value at every count: influence and welfare by counts sweep the binomials once."""
    n = 20001
    assert voting.influence(voting.parity(n), 0) == 1
    assert voting.welfare(voting.parity(n)) == 0
    alt = voting.Rule.symmetric([1, -1, -1] * 6667)  # n = 20000: the value changes unless c' = c - 1 ≡ 1 (mod 3)
    N = 19999  # c' ~ Bin(N, 1/2); by roots of unity P(c' ≡ 1 mod 3) = (2^N + 2 cos(π (N - 2) / 3)) / (3 · 2^N)
    assert voting.influence(alt, 5, method="counts") == 1 - Fraction(2**N + 1, 3 * 2**N)  # cos(5π/3) = 1/2
    small = voting.Rule.symmetric([1, -1, -1] * 5)
    assert voting.influence(small, method="counts") == voting.influence(small, method="definition")
    assert voting.welfare(small, method="counts") == voting.welfare(small, method="definition")


def test_probabilistic_influence_of_weighted_rules_without_table() -> None:
    f = voting.majority(weights=list(range(1, 31)))  # 2^30 profiles: no table
    rho = Fraction(1, 3)
    assert (
        voting.probabilistic_influence(f, rho, 29) == (1 + rho * rho) / 2 * voting.banzhaf(list(range(1, 31))).raw[29]
    )
    with pytest.raises(pg.InvalidTypeError):
        voting.influence("majority")  # type: ignore[arg-type]
    with pytest.raises(pg.InvalidTypeError):
        voting.banzhaf(None)  # type: ignore[arg-type]
