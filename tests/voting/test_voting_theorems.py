"""Every result of the referendum paper as an executable check, on named and random rules."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom import voting
from privgeom.voting import paper
from privgeom.testing import random_rule

NAMED = [
    voting.majority(5),
    voting.dictator(4, 2),
    voting.conjunction(4),
    voting.disjunction(3),
    voting.parity(3),
    voting.threshold(4, 1),
    voting.tribes(2, 2),
    voting.majority(weights=[3, 2, 1, 1]),
    voting.Rule.constant(3),
]


@pytest.mark.parametrize("rho", [Fraction(1, 2), Fraction(1, 3), Fraction(0), Fraction(1)])
def test_all_checks_hold_exactly_on_named_rules(rho: Fraction) -> None:
    for f in NAMED:
        for check in paper.check_all(f, rho):
            assert check.holds, str(check)
            assert check.exact or check.lhs == float("inf"), str(check)  # at rho = 1, epsilon = inf is a float


@settings(max_examples=25)
@given(st.integers(1, 5), st.integers(0, 10**6), st.fractions(0, 1, max_denominator=9))
def test_all_checks_hold_on_random_rules(n: int, seed: int, rho: Fraction) -> None:
    f = random_rule(n, seed)
    checks = paper.check_all(f, rho)
    assert all(checks), [str(c) for c in checks if not c]


def test_checks_in_float_mode() -> None:
    checks = paper.check_all(voting.majority(5), 0.37)
    assert all(checks) and not any(c.exact for c in checks if c.name in ("Theorem 3", "Theorem 6"))


def test_closed_form_checks_and_prop4() -> None:
    for f in (voting.dictator(5, 1), voting.conjunction(5), voting.disjunction(5), voting.parity(5)):
        assert paper.CHECKS["Section 6"](f, "2/7").holds
    assert paper.CHECKS["Proposition 4"](3).holds
    assert paper.CHECKS["Equation (3)"](51, "1/2").holds


def test_large_n_checks_by_counts() -> None:
    f = voting.majority(3001)
    assert paper.CHECKS["Theorem 3"](f, "1/2").holds
    assert paper.CHECKS["Theorem 6"](f, "1/2").holds
    assert paper.CHECKS["Proposition 2"](f, "1/2").holds


def test_check_errors_and_text() -> None:
    with pytest.raises(pg.InvalidParameterError):
        paper.CHECKS["Proposition 5"](voting.parity(3))
    with pytest.raises(pg.InvalidParameterError):
        paper.CHECKS["Remark 1"](voting.majority(3), 1)
    with pytest.raises(pg.SizeLimitError):
        paper.CHECKS["Proposition 4"](5)
    text = str(paper.CHECKS["Theorem 3"](voting.majority(3), "1/2"))
    assert text.startswith("Theorem 3 on majority(3)") and "holds (exact)" in text
