"""Numeric kernels: parse_int (the integer validator), log_of_ratio (the accurate log of a rational behind LogRational),
the one tolerance convention (ATOL, tolerance) and eps_of (the one conversion of a level to ε)."""

from __future__ import annotations

import inspect
import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
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


def test_one_tolerance_convention() -> None:
    from privgeom._core.arrays import ATOL, tolerance

    # every public atol: a constructor stores one (default ATOL), a call takes None = the object's own (ATOL)
    offenders = []
    for name in pg.__all__:
        obj = getattr(pg, name)
        for fn in [obj, *(v for k, v in vars(obj).items() if not k.startswith("_"))] if inspect.isclass(obj) else [obj]:
            fn = fn.__func__ if isinstance(fn, (classmethod, staticmethod)) else fn
            try:
                params = inspect.signature(fn).parameters
            except (TypeError, ValueError):
                continue
            if "atol" in params and params["atol"].default not in (None, ATOL):
                offenders.append(f"{name}.{getattr(fn, '__name__', '')} atol={params['atol'].default}")
    assert not offenders, offenders
    assert tolerance(None) == ATOL == 1e-9 and tolerance(0) == 0.0


def test_eps_of_is_the_one_conversion() -> None:
    from privgeom._core.level import eps_of

    assert eps_of(Fraction(9, 4)) == LogRational(Fraction(9, 4)) and eps_of(math.e) == 1.0
    with pytest.raises(InvalidParameterError, match="positive"):
        eps_of(0.0)


def test_log_of_ratio_is_the_core_one() -> None:
    import privgeom.voting._common as common
    import privgeom.voting._mechanism as mech

    assert not hasattr(common, "log_of_ratio")
    assert mech.log_of_ratio is pg._core.numbers.log_of_ratio
