"""parse_int (the integer validator) and log_of_ratio (the accurate log of a rational behind LogRational)."""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import InvalidParameterError, InvalidTypeError, LogRational, SizeLimitError
from privgeom._core.arrays import parse_int
from privgeom._core.numbers import log_of_ratio


def test_parse_int_accepts_integers_only() -> None:
    assert parse_int(5, name="n") == 5 and parse_int(np.int32(7), name="n") == 7
    assert parse_int(" 12 ", name="n", allow_str=True) == 12
    for bad in (True, 3.0, None, "3", [3]):
        with pytest.raises(InvalidTypeError, match="n must be an integer"):
            parse_int(bad, name="n")
    with pytest.raises(InvalidParameterError, match="'1.5' is not an integer"):
        parse_int("1.5", name="n", allow_str=True)
    with pytest.raises(InvalidParameterError, match="n must be >= 1, got 0"):
        parse_int(0, name="n", min=1)
    with pytest.raises(SizeLimitError, match="k = 40 is more than 26, the most bits"):
        parse_int(40, name="k", max=26, what="bits")


def _ln_decimal(r: Fraction) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        return float((Decimal(r.numerator).ln() - Decimal(r.denominator).ln()))


@given(st.integers(1, 10**40), st.integers(1, 10**40))
def test_log_of_ratio_is_correctly_rounded_within_an_ulp(a: int, b: int) -> None:
    r = Fraction(a, b)
    expected = _ln_decimal(r)
    got = log_of_ratio(r)
    assert got == pytest.approx(expected, rel=4e-16, abs=1e-300)
    assert float(LogRational(r)) == got


def test_log_of_ratio_near_one_and_huge() -> None:
    assert log_of_ratio(Fraction(10**30 + 1, 10**30)) == 1e-30  # no cancellation near 1
    big = Fraction(3**50000, 2**70000)  # beyond float range: scaled by a power of two
    assert math.isclose(log_of_ratio(big), 50000 * math.log(3) - 70000 * math.log(2), rel_tol=1e-13)
    with pytest.raises(InvalidParameterError):
        log_of_ratio(Fraction(0))
