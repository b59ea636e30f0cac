"""Typed results of the voting API: Quantity for one number, Influences for one number per voter,
PrivacyLevel for Proposition 2's bound; the curated public surface; uniform integer validation."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom import voting
from privgeom.voting import paper
from privgeom.results import Influences


def test_single_numbers_are_quantities() -> None:
    f = voting.majority(3)
    for q, name in [
        (voting.accuracy(f, "1/2"), "accuracy"),
        (voting.stability(f, "1/2"), "stability"),
        (voting.welfare(f, "1/2"), "welfare"),
        (voting.influence(f, 0), "influence"),
        (voting.probabilistic_influence(f, "1/2", 0), "probabilistic influence"),
        (voting.accuracy(voting.threshold(3, 0), "1/2", method="recursion"), "accuracy"),
    ]:
        assert isinstance(q, pg.Quantity) and q.name == name and q.exact and isinstance(q.value, Fraction), name
        assert json.loads(q.to_json())["value"] == str(q.value)
        assert str(q).startswith(f"{name} = {q.value} (exact; ")
    acc = voting.accuracy(f, "1/2")
    assert (
        acc == Fraction(45, 64) and float(acc) == 45 / 64 and "majority(3)" in acc.detail and "rho = 1/2" in acc.detail
    )
    fl = voting.accuracy(voting.majority(101), 0.5)
    assert not fl.exact and isinstance(fl.value, float) and 0.5 < fl < 1
    limit = paper.majority_accuracy_bounds(101, 0.5).lower  # 1/2 + arcsin(ρ)/π, the limit as n → ∞
    assert limit == pytest.approx(0.5 + 1 / 6) and limit < fl


def test_influences_behave_like_the_tuple_of_values() -> None:
    f = voting.tribes(2, 2)
    infl = voting.influence(f)
    assert isinstance(infl, Influences) and infl.exact and infl.name == "influence" and infl.rule == f.name
    assert len(infl) == 4 and infl[0] == Fraction(3, 8) and infl[-1] == Fraction(3, 8) and infl[1:3] == infl.values[1:3]
    assert list(infl) == list(infl.values) and infl == infl.values == voting.influence(f, method="fourier")
    assert infl.total == sum(infl.values) == voting.influence(f).total
    arr = np.asarray(infl)
    assert arr.shape == (4,) and arr[0] == Fraction(3, 8)
    assert np.allclose(np.asarray(voting.influence(f), dtype=float), 0.375)
    data = json.loads(infl.to_json())
    assert data["values"] == ["3/8"] * 4 and data["total"] == "3/2" and data["exact"] is True
    assert "voter 0: 3/8" in str(infl) and "total 3/2" in str(infl)
    sym = voting.influence(voting.majority(101))
    assert sym.symmetric and "every voter" in str(sym) and sym.total == 101 * sym[0]
    prob = voting.probabilistic_influence(f, "1/3")
    assert isinstance(prob, Influences) and prob.name == "probabilistic influence" and "rho = 1/3" in prob.detail
    assert prob == tuple(Fraction(5, 9) * v for v in infl)  # Theorem 3
    many = voting.influence(voting.majority(weights=list(range(1, 21))))
    assert "more voters" in str(many)


def epsilon_bound(rho: object = None, *, eps: object = None) -> pg.PrivacyLevel:
    """Proposition 2's bound ``(1+ρ)/(1−ρ)`` of the noise, as :func:`voting.epsilon` reports it (any rule)."""
    return voting.epsilon(voting.dictator(1), rho, eps=eps).bound  # type: ignore[arg-type]


def test_epsilon_bound_is_a_privacy_level() -> None:
    b = epsilon_bound("1/2")
    assert isinstance(b, pg.PrivacyLevel) and b.exact and b.exp_eps == 3 and b.eps == pg.LogRational(3)
    assert str(b) == "ln(3)" and voting.epsilon(voting.dictator(3), "1/2").bound == b
    assert epsilon_bound(eps="ln(3)") == b and voting.epsilon(voting.dictator(3), eps=b).bound == b
    fb = epsilon_bound(0.5)
    assert not fb.exact and float(fb) == pytest.approx(math.log(3), rel=1e-15)
    assert epsilon_bound(1).infinite and float(epsilon_bound(1)) == math.inf
    assert epsilon_bound(0).eps == pg.LogRational(1)


@pytest.mark.parametrize(
    "call, error, fragment",
    [
        (lambda: voting.majority(0), pg.InvalidParameterError, "n must be >= 1, got 0"),
        (lambda: voting.majority(3.0), pg.InvalidTypeError, "n must be an integer"),  # type: ignore[arg-type]
        (lambda: voting.majority(True), pg.InvalidTypeError, "n must be an integer"),  # type: ignore[arg-type]
        (lambda: voting.dictator(3, -1), pg.InvalidParameterError, "i must be >= 0"),
        (lambda: voting.tribes(0, 2), pg.InvalidParameterError, "width must be >= 1, got 0"),
        (lambda: voting.majority(5, max_n=0), pg.InvalidParameterError, "max_n must be >= 1"),
        (lambda: voting.influence(voting.majority(3), 3), pg.InvalidParameterError, "out of range 0..2"),
        (lambda: voting.influence(voting.majority(3), 1.0), pg.InvalidTypeError, "voter index"),  # type: ignore[call-overload]
        (lambda: paper.majority_accuracy_data(n_max=0), pg.InvalidParameterError, "n_max must be >= 1, got 0"),
        (
            lambda: voting.accuracy(voting.threshold(0, 0), "1/2", method="recursion"),
            pg.InvalidParameterError,
            "n must be >= 1",
        ),
        (lambda: paper.CHECKS["Proposition 4"](5), pg.SizeLimitError, "n = 5 is more than 4"),
        (lambda: voting.fourier(voting.majority(3)).coefficient({0.5}), pg.InvalidTypeError, "voter"),
    ],
)
def test_integer_parameters_use_the_core_validator(call, error, fragment: str) -> None:
    with pytest.raises(error, match=fragment.replace("(", r"\(").replace(".", r"\.")):
        call()
