"""Voting rules: profile order, symmetric vs table representations, factories and their errors."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom import voting
from privgeom.testing import profiles


def test_profile_order_is_the_randomized_response_order() -> None:
    f = voting.majority(3)
    assert f.labels() == list(pg.randomized_response(3, "3/4").inputs)
    # value of each profile by its label: '1' = vote +1
    for label, value in zip(f.labels(), f.table()):
        assert value == (1 if label.count("1") >= 2 else -1)
        assert f(label) == value


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_symmetric_table_matches_counts(n: int) -> None:
    rng = np.random.default_rng(n)
    values = rng.choice([-1, 1], size=n + 1)
    f = voting.Rule.symmetric(values.tolist())
    for x, v in zip(profiles(n), f.table()):
        assert v == values[sum(1 for a in x if a == 1)]


def test_named_rules_by_enumeration() -> None:
    n = 4
    cases = [
        (voting.dictator(n, 2), lambda x: x[2]),
        (voting.conjunction(n), lambda x: 1 if all(a == 1 for a in x) else -1),
        (voting.disjunction(n), lambda x: 1 if any(a == 1 for a in x) else -1),
        (voting.parity(n), lambda x: int(np.prod(x))),
        (voting.threshold(n, 1), lambda x: 1 if sum(x) > 1 else -1),
        (voting.threshold(n, "-1/2"), lambda x: 1 if sum(x) > Fraction(-1, 2) else -1),
        (
            voting.majority(weights=[3, 1, 1, 1], quota=4),
            lambda x: 1 if sum(w for w, a in zip([3, 1, 1, 1], x) if a == 1) >= 4 else -1,
        ),
        (
            voting.threshold(weights=[2, 1, 1, 1], theta=1),
            lambda x: 1 if sum(w * a for w, a in zip([2, 1, 1, 1], x)) > 1 else -1,
        ),
        (voting.tribes(2, 2), lambda x: 1 if (x[0] == x[1] == 1) or (x[2] == x[3] == 1) else -1),
        (voting.Rule.from_function(lambda x: x[0] * x[3], n), lambda x: x[0] * x[3]),
    ]
    for rule, fn in cases:
        assert rule.n == n
        assert rule.table().tolist() == [fn(x) for x in profiles(n)], rule.name


def test_majority_default_weighted_and_threshold_agree() -> None:
    assert voting.majority(weights=[1] * 5) == voting.majority(5)
    assert voting.threshold(5, 0) == voting.majority(5)
    assert voting.majority(weights=[1] * 5).is_symmetric
    f = voting.majority(weights=["1/2", "1/3", "1/6"])  # exact rational weights, strict half of 1
    assert f("110") == 1 and f("101") == 1 and f("011") == -1
    assert voting.majority(weights=[0.5, 0.25, 0.25], quota=0.5)("100") == 1


def test_truth_table_inputs() -> None:
    f = voting.Rule.from_truth_table({"11": 1, "10": -1, "01": -1, "00": -1})
    assert f == voting.conjunction(2)
    g = voting.Rule.from_truth_table({(1, 1): 1, (1, -1): 1, (-1, 1): 1, (-1, -1): -1})
    assert g == voting.disjunction(2)
    h = voting.Rule.from_truth_table(["1/2", 0, 0, "-1/2"])
    assert not h.is_boolean and h.exact and h.table()[0] == Fraction(1, 2)
    assert not voting.Rule.from_truth_table([0.5, 0.0, 0.0, -0.5]).exact


def test_monotone_flags() -> None:
    assert voting.majority(5).is_monotone and voting.tribes(2, 3).is_monotone and voting.dictator(4, 1).is_monotone
    assert not voting.parity(3).is_monotone
    assert not voting.Rule.from_truth_table([1, -1, -1, 1]).is_monotone
    assert voting.Rule.from_truth_table([1, 1, 1, -1]).is_monotone


def test_large_symmetric_rules_need_no_table() -> None:
    f = voting.majority(100001)
    assert f.is_symmetric and not f.has_table
    assert f.counts is not None and f.counts.shape == (100002,)
    assert f("1" * 50001 + "0" * 50000) == 1
    with pytest.raises(pg.SizeLimitError, match="2\\^100001"):
        f.table()
    with pytest.raises(pg.SizeLimitError):
        voting.dictator(40).table()


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: voting.majority(4), pg.InvalidParameterError),
        (lambda: voting.majority(0), pg.InvalidParameterError),
        (lambda: voting.majority(2.5), pg.InvalidTypeError),
        (lambda: voting.dictator(3, 3), pg.InvalidParameterError),
        (lambda: voting.Rule.from_truth_table([1, -1, 1]), pg.InvalidParameterError),
        (lambda: voting.Rule.from_truth_table([True, False]), pg.InvalidTypeError),
        (lambda: voting.Rule.from_function(lambda x: 1, 25), pg.SizeLimitError),
        (lambda: voting.Rule.constant(3, 0), pg.InvalidParameterError),
        (lambda: voting.majority(3)("10"), pg.InvalidParameterError),
        (lambda: voting.majority(3)((1, 2, 1)), pg.InvalidParameterError),
    ],
)
def test_errors(call, error) -> None:
    with pytest.raises(error):
        call()


def test_weighted_rules_are_majority_and_threshold_with_weights() -> None:
    """The weighted game ``[quota; w]`` and the weighted threshold ``Σ w_i x_i > θ`` (quota ``(Σ w + θ)/2``, strict)."""
    f = voting.majority(weights=[2, 1, 1], quota=3)
    assert f.name == "weighted([2, 1, 1], quota=3)" and f.kind == "weighted" and f("110") == 1 and f("011") == -1
    assert voting.majority(3, weights=[1, 1, 1]) == voting.majority(3)
    t = voting.threshold(weights=[3, 1, 1], theta=0)  # 3x_0 + x_1 + x_2 > 0 iff voter 0 votes +1
    assert t.table().tolist() == voting.dictator(3, 0).table().tolist()
    with pytest.raises(pg.InvalidParameterError, match="n = 4 contradicts the 3 weights"):
        voting.majority(4, weights=[2, 1, 1])
    with pytest.raises(pg.InvalidParameterError, match="give weights= too"):
        voting.majority(3, quota=2)
    with pytest.raises(pg.InvalidParameterError, match="number of voters"):
        voting.threshold()


def test_rule_class_methods() -> None:
    assert voting.Rule.from_truth_table([1, 1, 1, -1]) == voting.disjunction(2)
    assert voting.Rule.from_function(lambda x: min(x), 3) == voting.conjunction(3)
    assert voting.Rule.symmetric([-1, -1, 1, 1]) == voting.majority(3)
    c = voting.Rule.constant(4, -1)
    assert c.kind == "constant" and c.counts.tolist() == [-1] * 5 and voting.epsilon(c, "1/2").level.exp_eps == 1
