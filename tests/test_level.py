"""PrivacyLevel: the one ε parser (exact/float modes, huge ε, typed errors)."""

from __future__ import annotations

import math
from fractions import Fraction as F
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import FormatError, InvalidParameterError, InvalidTypeError, LogRational, PrivacyLevel, PrivgeomError


@pytest.mark.parametrize(
    "kwargs,ratio",
    [
        ({"exp_eps": 3}, F(3)),
        ({"exp_eps": "5/2"}, F(5, 2)),
        ({"eps": "ln(3)"}, F(3)),
        ({"eps": " ln( 9/4 ) "}, F(9, 4)),
        ({"eps": "ln 51/49"}, F(51, 49)),
        ({"eps": LogRational(F(7, 3))}, F(7, 3)),
        ({"eps": 0}, F(1)),
        ({"eps": "0"}, F(1)),
    ],
)
def test_exact_levels(kwargs: dict, ratio: F) -> None:
    lv = PrivacyLevel.parse(**kwargs)
    assert lv.exact and lv.exp_eps == ratio and isinstance(lv.exp_eps, F)
    assert lv.eps == LogRational(ratio)
    assert math.isclose(float(lv), math.log(ratio), rel_tol=1e-13, abs_tol=0)


@pytest.mark.parametrize("eps", [1.0, 0.5, "1.1", F(1, 2), 2])
def test_float_levels_and_note(eps: object) -> None:
    lv = PrivacyLevel.parse(eps=eps)
    assert not lv.exact and isinstance(lv.exp_eps, float)
    assert lv.exp_eps == math.exp(float(F(str(eps)) if isinstance(eps, str) else eps))  # type: ignore[arg-type]
    rational = not isinstance(eps, float)
    assert bool(lv.note) == rational  # Lindemann–Weierstrass: rational ε ≠ 0 has irrational e^ε
    with pytest.raises(InvalidParameterError, match="irrational"):
        PrivacyLevel.parse(eps=eps, exact=True)


def test_float_zero_stays_float() -> None:
    lv = PrivacyLevel.parse(eps=0.0)
    assert not lv.exact and lv.exp_eps == 1.0 and isinstance(lv.exp_eps, float) and lv.eps == 0.0


def test_exact_false_converts_and_equality() -> None:
    lv = PrivacyLevel.parse(exp_eps="5/2", exact=False)
    assert lv.exp_eps == 2.5 and not lv.exact and math.isclose(lv.eps, math.log(2.5), rel_tol=1e-15)
    assert PrivacyLevel.parse(exp_eps=3) == PrivacyLevel.parse(eps="ln(3)")
    assert PrivacyLevel.parse(exp_eps=3) != PrivacyLevel.parse(exp_eps=3.0)
    assert PrivacyLevel.coerce(PrivacyLevel.parse(exp_eps=2)).exp_eps == 2
    assert PrivacyLevel.coerce("ln(2)").exp_eps == 2


def test_huge_and_near_zero() -> None:
    with pytest.raises(InvalidParameterError, match="too large"):
        PrivacyLevel.parse(eps=800)
    lv = PrivacyLevel.parse(eps=800, allow_infinite=True)
    assert lv.infinite and lv.exp_eps == math.inf and lv.eps == 800.0
    assert PrivacyLevel.parse(eps=700).exp_eps == math.exp(700)
    huge = PrivacyLevel.parse(exp_eps=F(10) ** 400)  # exact: no overflow at all
    assert huge.exact and math.isclose(float(huge), 400 * math.log(10))
    tiny = PrivacyLevel.parse(eps=f"ln({10**30 + 1}/{10**30})")
    assert float(tiny) == 1e-30  # log1p, no cancellation


@pytest.mark.parametrize(
    "kwargs,err,text",
    [
        ({}, InvalidParameterError, "exactly one"),
        ({"eps": 1, "exp_eps": 2}, InvalidParameterError, "exactly one"),
        ({"eps": -1}, InvalidParameterError, "eps = -1"),
        ({"eps": "ln(1/2)"}, InvalidParameterError, ">= 0"),
        ({"eps": "ln(0)"}, InvalidParameterError, "positive"),
        ({"eps": "ln(-2)"}, InvalidParameterError, "positive"),
        ({"exp_eps": "1/2"}, InvalidParameterError, "exp_eps = 1/2"),
        ({"exp_eps": LogRational(3)}, InvalidTypeError, "logarithm"),
        ({"eps": "abc"}, InvalidParameterError, "'abc'"),
        ({"eps": "exp(1)"}, FormatError, "ln"),
        ({"eps": True}, InvalidTypeError, "True"),
        ({"eps": float("nan")}, InvalidParameterError, "nan"),
    ],
)
def test_errors_name_the_value(kwargs: dict, err: type, text: str) -> None:
    with pytest.raises(err, match=text.replace("(", r"\(").replace(")", r"\)")):
        PrivacyLevel.parse(**kwargs)


def test_owner_and_cli_names() -> None:
    with pytest.raises(InvalidParameterError, match=r"^DP: --eps must be >= 0"):
        PrivacyLevel.parse(eps=-1, name="--eps", owner="DP")
    with pytest.raises(InvalidParameterError, match="--exp-eps"):
        PrivacyLevel.parse(name="--eps")
    assert PrivacyLevel.parse(exp_eps=2).to_dict() == {"eps": LogRational(2).to_dict(), "exp_eps": "2", "exact": True}


def test_exact_true_converts_float_exp_eps_bit_for_bit() -> None:
    lv = PrivacyLevel.parse(exp_eps=2.5, exact=True)
    assert lv.exact and lv.exp_eps == F(5, 2)
    assert PrivacyLevel.parse(exp_eps=0.1 + 1, exact=True).exp_eps == F(1.1)  # the float's exact binary value


@given(
    st.one_of(
        st.text(max_size=30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-(10**30), 10**30),
        st.fractions(),
        st.none(),
        st.booleans(),
    )
)
def test_fuzz_parse_gives_a_level_or_a_typed_error(value: object) -> None:
    for kwargs in ({"eps": value}, {"exp_eps": value}):
        try:
            lv = PrivacyLevel.parse(**kwargs)  # type: ignore[arg-type]
        except PrivgeomError as err:
            assert str(err)
            continue
        assert lv.exp_eps >= 1 and float(lv) >= 0 and lv.exact == isinstance(lv.exp_eps, F)


def test_astronomical_eps_is_a_typed_error() -> None:
    with pytest.raises(InvalidParameterError, match="too large"):
        PrivacyLevel.parse(eps="1e400")
    assert PrivacyLevel.parse(eps=F(10) ** 400, allow_infinite=True).infinite
    assert PrivacyLevel.parse(exp_eps="1e400").exact  # e^ε itself is a (huge) rational: exact, no overflow


# ------------------------------------------------------------------------------ constructors, composition, order
def test_from_eps_and_from_exp_eps_agree_with_parse() -> None:
    assert PrivacyLevel.from_exp_eps(3) == PrivacyLevel.parse(exp_eps=3) == PrivacyLevel.from_eps("ln(3)")
    assert PrivacyLevel.from_exp_eps(2.5).exact is False


def test_composition_multiplies_e_eps_exactly() -> None:
    """Dwork & Roth, Theorem 3.14: ε-DP mechanisms compose to (ε₁ + ε₂)-DP, i.e. e^ε multiplies."""
    a, b = PrivacyLevel.from_exp_eps("3/2"), PrivacyLevel.from_eps("ln(4)")
    assert (a + b).exp_eps == Fraction(6) and (a + b).exact
    assert (3 * a).exp_eps == Fraction(27, 8) and (a * 0).exp_eps == 1
    mixed = a + PrivacyLevel.from_eps(0.5)
    assert not mixed.exact and abs(float(mixed.eps) - (math.log(1.5) + 0.5)) < 1e-12 and mixed.note


def test_levels_are_ordered_by_e_eps() -> None:
    lv = [PrivacyLevel.from_exp_eps(x) for x in (3, 2, "5/2")]
    assert [l.exp_eps for l in sorted(lv)] == [2, Fraction(5, 2), 3]
    assert PrivacyLevel.from_exp_eps(2) <= PrivacyLevel.from_eps(math.log(2) + 1e-9)
