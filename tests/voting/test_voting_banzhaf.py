"""Banzhaf power by generating functions, cross-checked against influence (Definition 4) and known games."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
from privgeom import voting


@given(st.lists(st.integers(0, 7), min_size=1, max_size=8), st.integers(-1, 40))
def test_raw_banzhaf_is_the_influence(weights: list[int], quota: int) -> None:
    b = voting.banzhaf(weights, quota)
    f = voting.majority(weights=weights, quota=quota)
    assert b.raw == voting.influence(f, method="definition")
    if b.total_swings:
        assert sum(b.normalized) == 1
        total = voting.influence(f).total
        assert b.normalized == tuple(v / total for v in b.raw)


def test_known_games() -> None:
    # [4; 3, 1, 1, 1]: voter 0 swings in 7 of the 8 coalitions of the others (all but the empty one); each small voter once
    assert voting.banzhaf([3, 1, 1, 1], 4).swings == (7, 1, 1, 1)
    # a dummy: [2; 2, 1] gives voter 1 no power; a zero weight is a dummy too
    assert voting.banzhaf([2, 1], 2).swings == (2, 0)
    assert voting.banzhaf([1, 0, 1], 2).swings == (2, 0, 2)
    # unanimity and its complement
    assert voting.banzhaf([1, 1, 1], 3).raw == (Fraction(1, 4),) * 3
    assert voting.banzhaf([1, 1, 1], 0).total_swings == 0 and voting.banzhaf([1, 1, 1], 0).normalized == ()


def test_rational_weights_and_default_quota() -> None:
    half = voting.banzhaf(["1/2", "1/4", "1/4"])  # more than half of 1: voter 0 plus anyone
    assert half.swings == voting.banzhaf([2, 1, 1]).swings
    assert half.raw == voting.influence(voting.majority(weights=["1/2", "1/4", "1/4"]), method="definition")
    assert voting.influence(voting.majority(weights=["1/2", "1/4", "1/4"]), method="banzhaf") == half.raw


def test_large_equal_weight_game_matches_majority_by_counts() -> None:
    n = 301  # beyond int64 counts: Python integers
    b = voting.banzhaf([1] * n)
    expected = Fraction(math.comb(n - 1, (n - 1) // 2), 2 ** (n - 1))
    assert b.raw == (expected,) * n == voting.influence(voting.majority(n))


def test_weighted_influence_without_truth_table() -> None:
    weights = list(range(1, 41))  # 2^40 profiles: no table, the generating function answers
    f = voting.majority(weights=weights)
    assert not f.has_table
    infl = voting.influence(f)
    assert infl[-1] > infl[0] > 0
    assert infl == voting.banzhaf(weights).raw


def test_errors_and_summary() -> None:
    with pytest.raises(pg.InvalidParameterError):
        voting.banzhaf([1, -1], 1)
    with pytest.raises(pg.InvalidTypeError):
        voting.banzhaf([0.5, 1.25], 1)
    assert "normalised" in str(voting.banzhaf([2, 1, 1], 3))
