"""The privacy level ε as one validated value: :class:`PrivacyLevel`, the one ε parser of privgeom.

A level is given either as ``eps = ε`` (a float, ``0``, ``"ln(3)"``, a :class:`~privgeom.LogRational`) or as
``exp_eps = e^ε`` (a rational such as ``3`` or ``"5/2"`` for exact work, or a float). ``e^ε`` is exact (a
``Fraction``) when it is rational: a rational ``exp_eps``, ``eps = ln(r)`` or an exact ``eps = 0`` (``0``,
``"0"``; the float ``0.0`` stays a float, as every float does). Any other ``eps`` —
including a rational non-zero one, whose ``e^ε`` is irrational by the Lindemann–Weierstrass theorem — gives the
float ``exp(ε)``, and the level says so in :attr:`PrivacyLevel.note`.

Huge ε: ``exp(ε)`` overflows a float beyond :data:`EPS_OVERFLOW`; such a level is refused unless the caller asks
for ``allow_infinite=True`` (then ``e^ε = inf``, which the δ(ε) computations read as "no constraint").
Near zero: ``ε = ln(r)`` with ``r`` close to 1 converts to float through ``log1p`` (see
:class:`~privgeom.LogRational`), so nothing cancels.

Examples
--------
>>> from privgeom import PrivacyLevel
>>> PrivacyLevel.parse(exp_eps="3").eps
LogRational(ratio=Fraction(3, 1))
>>> lv = PrivacyLevel.parse(eps="ln(3/2)")
>>> lv.exp_eps, lv.exact, str(lv)
(Fraction(3, 2), True, 'ln(3/2)')
>>> round(PrivacyLevel.parse(eps=1.0).exp_eps, 6), PrivacyLevel.parse(eps=0).exact
(2.718282, True)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Mapping
from typing import Any, TypeAlias

from .errors import FormatError, InvalidParameterError, InvalidTypeError
from .numbers import fraction_str, LogRational, parse_scalar, Scalar
from .results import Serializable, to_jsonable
from .numbers import number_text, scalar_to_json

__all__ = ["PrivacyLevel", "EPS_OVERFLOW", "ScalarLike", "LevelLike", "eps_of"]


def eps_of(exp_eps: Scalar) -> LogRational | float:
    """ε from ``e^ε``: the one conversion of privgeom (exact ``ln(r)`` for a Fraction, ``math.log`` for a float).

    ``e^ε = inf`` gives ``ε = inf``; ``e^ε`` must be positive (``ε`` may be negative for ratios below 1, as log
    likelihood ratios are). Use :meth:`PrivacyLevel.from_exp_eps` when the value is a privacy level (``≥ 1``).

    Examples
    --------
    >>> eps_of(Fraction(3)), eps_of(1.0), eps_of(math.inf)
    (LogRational(ratio=Fraction(3, 1)), 0.0, inf)
    """
    if isinstance(exp_eps, Fraction):
        return LogRational(exp_eps)
    if isinstance(exp_eps, int) and not isinstance(exp_eps, bool):
        return LogRational(Fraction(exp_eps))
    value = float(exp_eps)
    if not value > 0:
        raise InvalidParameterError(f"e^ε must be positive to take its logarithm, got {exp_eps!r}")
    return math.inf if math.isinf(value) else math.log(value)


#: Largest float ε privgeom exponentiates: ``exp(700)`` ≈ 1e304 is still a float, ``exp(710)`` overflows.
EPS_OVERFLOW = 700.0

#: One number as privgeom parses it (:func:`~privgeom._core.numbers.parse_scalar`): ``int``, ``Fraction`` or a rational
#: string such as ``"3/4"`` (exact mode), or a ``float`` (float mode). The type of ``exp_eps=``, ``p=``, ``rho=``,
#: ``alpha=``, ``gamma=``, ``delta=`` and the other numeric parameters.
ScalarLike: TypeAlias = Fraction | float | int | str

#: ``"ln(r)"``, ``"ln r"``, ``"log(r)"`` (natural logarithm of a positive rational ``r``).
_LN = re.compile(r"^\s*(?:ln|log)\s*(?:\(\s*(?P<paren>[^()]+?)\s*\)|\s(?P<bare>[^()\s]+))\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class PrivacyLevel(Serializable):
    """A validated privacy level ``ε ≥ 0`` with ``e^ε`` exact whenever it is rational.

    Attributes
    ----------
    exp_eps : Fraction or float
        ``e^ε ≥ 1`` (a Fraction in exact mode; ``math.inf`` only with ``allow_infinite=True``).
    exact : bool
        True when ``exp_eps`` is a Fraction.
    eps : LogRational or float
        ``ε``: a :class:`~privgeom.LogRational` in exact mode, a float otherwise.
    given : str
        ``"eps"`` or ``"exp_eps"``: how the level was given.
    shown : LevelLike or None
        The value as the user gave it (stripped strings kept as strings), for names and spec strings.
    note : str
        Why an exact-looking input was computed in float (empty otherwise).

    Examples
    --------
    >>> PrivacyLevel.parse(exp_eps=3) == PrivacyLevel.parse(eps="ln(3)")
    True
    >>> PrivacyLevel.parse(eps="1/2").note[:40]
    'eps = 1/2 is rational and non-zero, so e'
    >>> PrivacyLevel.coerce(PrivacyLevel.parse(exp_eps=2)).exp_eps
    Fraction(2, 1)
    """

    exp_eps: Scalar
    exact: bool
    eps: LogRational | float
    given: str = "exp_eps"
    shown: LevelLike | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.exact != isinstance(self.exp_eps, Fraction):
            raise InvalidParameterError(f"PrivacyLevel: exact={self.exact} does not match exp_eps = {self.exp_eps!r}")

    # ------------------------------------------------------------------------------------------------ parsing
    @classmethod
    def parse(
        cls,
        eps: LevelLike | None = None,
        exp_eps: ScalarLike | None = None,
        *,
        exact: bool | None = None,
        name: str = "eps",
        owner: str = "",
        allow_infinite: bool = False,
    ) -> "PrivacyLevel":
        """The one ε parser: exactly one of ``eps`` and ``exp_eps``.

        Parameters
        ----------
        eps : float, int, Fraction, str, LogRational or PrivacyLevel, optional
            ``ε ≥ 0``: a number (``1.1``, ``"0.5"``), ``0`` (exact), ``"ln(r)"``/``"ln r"`` or a
            :class:`~privgeom.LogRational` (exact).
        exp_eps : rational or float, optional
            ``e^ε ≥ 1`` directly (``3``, ``"5/2"``, ``Fraction``: exact; floats: float mode).
        exact : bool, optional
            ``True``: exact mode — a float ``exp_eps`` is converted bit for bit (as :func:`parse_scalar` does), an
            ``eps`` whose ``e^ε`` is irrational is refused. ``False`` converts to float; ``None`` keeps the input's
            mode.
        name : str
            Name of the parameter in messages (``"eps"``, ``"--eps"``, ``"t"`` …); ``exp_<name>`` for the other.
        owner : str
            Prefix of the messages (e.g. ``"DifferentialPrivacy"``).
        allow_infinite : bool
            Let an ε whose exponential overflows become ``e^ε = inf`` instead of an error.

        Raises
        ------
        InvalidParameterError
            Both or neither given, ``ε < 0``, ``e^ε < 1``, overflow, ``exact=True`` with an irrational ``e^ε``.
        InvalidTypeError
            A logarithm passed as ``exp_eps``, or a value that is not a number.
        FormatError
            ``"exp(…)"`` strings (write ``ln(r)`` or pass ``exp_eps=``).

        Examples
        --------
        >>> PrivacyLevel.parse(eps=" ln( 9/4 ) ").exp_eps
        Fraction(9, 4)
        >>> PrivacyLevel.parse(eps="ln 3").eps
        LogRational(ratio=Fraction(3, 1))
        >>> PrivacyLevel.parse(exp_eps="5/2", exact=False).exp_eps
        2.5
        >>> PrivacyLevel.parse(eps=800, allow_infinite=True).exp_eps
        inf
        """
        pre = f"{owner}: " if owner else ""
        xname = f"exp_{name.lstrip('-')}" if not name.startswith("--") else f"--exp-{name[2:]}"
        if (eps is None) == (exp_eps is None):
            raise InvalidParameterError(
                f"{pre}give exactly one of {name}= and {xname}= (got {name}={eps!r}, {xname}={exp_eps!r})"
            )
        if isinstance(eps, PrivacyLevel):
            level = eps
        elif exp_eps is not None:
            level = cls._from_exp(exp_eps, pre, xname, exact)
        else:
            level = cls._from_eps(eps, pre, name, xname, allow_infinite)
        return level._with_mode(exact, pre, name, xname)

    @classmethod
    def coerce(cls, value: LevelLike, **kwargs: Any) -> "PrivacyLevel":
        """A :class:`PrivacyLevel` unchanged, or anything :meth:`parse` accepts as ``eps``.

        Examples
        --------
        >>> PrivacyLevel.coerce("ln(2)").exp_eps
        Fraction(2, 1)
        """
        if isinstance(value, PrivacyLevel):
            return value
        return cls.parse(eps=value, **kwargs)

    @classmethod
    def _from_exp(cls, exp_eps: Any, pre: str, xname: str, exact: bool | None) -> "PrivacyLevel":
        if isinstance(exp_eps, LogRational):
            raise InvalidTypeError(f"{pre}{xname} is e^ε itself, a number >= 1; got the logarithm {exp_eps}")
        # exact=True converts a float e^ε bit for bit, as parse_scalar does everywhere
        t = parse_scalar(exp_eps, name=xname, exact=True if exact else None)
        if t < 1:
            raise InvalidParameterError(f"{pre}{xname} = e^ε must be >= 1 (ε >= 0), got {xname} = {fraction_str(t)}")
        shown = exp_eps.strip() if isinstance(exp_eps, str) else t
        if isinstance(t, Fraction):
            return cls(t, True, LogRational(t), "exp_eps", shown)
        return cls(t, False, math.log(t), "exp_eps", shown)

    @classmethod
    def _from_eps(cls, eps: Any, pre: str, name: str, xname: str, allow_infinite: bool) -> "PrivacyLevel":
        if isinstance(eps, str):
            m = _LN.match(eps)
            if m:
                inner = m.group("paren") or m.group("bare")
                r = Fraction(parse_scalar(inner, name=f"the ratio inside {name} = {eps.strip()!r}", exact=True))
                if not r > 0:
                    raise InvalidParameterError(f"{pre}{name} = {eps.strip()!r}: ln() needs a positive ratio, got {r}")
                eps = LogRational(r)
            elif eps.strip().lower().startswith("exp"):
                raise FormatError(f"{pre}{name} = {eps.strip()!r}: write 'ln(r)' for ε = ln r, or pass {xname}=")
        if isinstance(eps, LogRational):
            if eps.ratio < 1:
                raise InvalidParameterError(f"{pre}{name} must be >= 0 (e^ε must be >= 1), got {name} = {eps}")
            return cls(eps.ratio, True, eps, "eps", eps)
        shown = eps.strip() if isinstance(eps, str) else eps
        e = parse_scalar(eps, name=name)
        if e < 0:
            raise InvalidParameterError(f"{pre}{name} must be >= 0, got {name} = {fraction_str(e)}")
        if e == 0 and isinstance(e, Fraction):  # a float 0.0 stays in float mode: floats are never made exact
            return cls(Fraction(1), True, LogRational(Fraction(1)), "eps", shown)
        note = ""
        text = shown if isinstance(shown, str) else fraction_str(e)  # as typed: '1e400', not its 401 digits
        if isinstance(e, Fraction):
            note = (
                f"{name} = {text} is rational and non-zero, so e^ε is irrational (Lindemann–Weierstrass): computed in "
                f"float; pass {name}=LogRational(r), {name}='ln(r)' or {xname}=r for an exact answer"
            )
        if e > EPS_OVERFLOW:  # compared before float(): a huge Fraction would overflow the conversion itself
            if not allow_infinite:
                raise InvalidParameterError(
                    f"{pre}{name} = {text} is too large: e^ε overflows a float (limit {name} <= "
                    f"{number_text(EPS_OVERFLOW)}; give {name}='ln(r)' or {xname}=r for an exact huge level)"
                )
            return cls(math.inf, False, float(e) if e < 1e308 else math.inf, "eps", shown, note)
        value = float(e)
        return cls(math.exp(value), False, value, "eps", shown, note)

    def _with_mode(self, exact: bool | None, pre: str, name: str, xname: str) -> "PrivacyLevel":
        if exact is True and not self.exact:
            raise InvalidParameterError(
                f"{pre}e^ε = {self.exp_eps!r} is irrational; give {xname}= or {name}='ln(r)' for exact mode"
            )
        if exact is False and self.exact:
            t = float(self.exp_eps)
            return PrivacyLevel(t, False, float(self.eps), self.given, self.shown, self.note)
        return self

    @classmethod
    def from_eps(
        cls, eps: LevelLike, *, exact: bool | None = None, name: str = "eps", allow_infinite: bool = False
    ) -> "PrivacyLevel":
        """The level ``ε`` (anything :meth:`parse` accepts as ``eps=``).

        Examples
        --------
        >>> PrivacyLevel.from_eps("ln(3)") == PrivacyLevel.from_exp_eps(3)
        True
        """
        return cls.parse(eps=eps, exact=exact, name=name, allow_infinite=allow_infinite)

    @classmethod
    def from_exp_eps(
        cls, exp_eps: ScalarLike, *, exact: bool | None = None, name: str = "eps", allow_infinite: bool = False
    ) -> "PrivacyLevel":
        """The level with ``e^ε = exp_eps`` (a rational: exact; a float: float mode; ``inf`` with
        ``allow_infinite=True``: no privacy).

        Examples
        --------
        >>> PrivacyLevel.from_exp_eps("9/4").eps
        LogRational(ratio=Fraction(9, 4))
        >>> PrivacyLevel.from_exp_eps(float("inf"), allow_infinite=True).infinite
        True
        """
        if allow_infinite and isinstance(exp_eps, float) and math.isinf(exp_eps) and exp_eps > 0:
            return cls(math.inf, False, math.inf, "exp_eps", exp_eps)
        return cls.parse(exp_eps=exp_eps, exact=exact, name=name)

    # ------------------------------------------------------------------------------------------------ algebra
    def __add__(self, other: "PrivacyLevel") -> "PrivacyLevel":
        """Sequential composition: ``ε₁ + ε₂``, i.e. ``e^ε₁ · e^ε₂`` (Dwork & Roth, *The Algorithmic Foundations
        of Differential Privacy*, Theorem 3.14). Exact when both levels are exact; an exact and a float level give
        a float level (and say so in :attr:`note`).

        Examples
        --------
        >>> str(PrivacyLevel.from_exp_eps(3) + PrivacyLevel.from_eps("ln(2)"))
        'ln(6)'
        """
        if not isinstance(other, PrivacyLevel):
            return NotImplemented
        if self.exact and other.exact:
            return PrivacyLevel.from_exp_eps(self.exp_eps * other.exp_eps)
        note = "" if not (self.exact or other.exact) else "an exact and a float level composed: float mode"
        exp = float(self.exp_eps) * float(other.exp_eps)
        eps = float(self.eps) + float(other.eps)
        return PrivacyLevel(exp, False, eps, "eps", eps, note)

    def __mul__(self, k: int) -> "PrivacyLevel":
        """``k``-fold composition ``k·ε`` (``e^{kε}``), for a non-negative integer ``k``.

        Examples
        --------
        >>> str(PrivacyLevel.from_exp_eps(3) * 2)
        'ln(9)'
        """
        if isinstance(k, bool) or not isinstance(k, int):
            return NotImplemented
        if k < 0:
            raise InvalidParameterError(f"a level composes a non-negative number of times, got k = {k}")
        if self.exact:
            return PrivacyLevel.from_exp_eps(Fraction(self.exp_eps) ** k)
        return PrivacyLevel(float(self.exp_eps) ** k, False, k * float(self.eps), "eps", k * float(self.eps), self.note)

    __rmul__ = __mul__

    def _key(self, other: Any) -> tuple[Any, Any]:
        if not isinstance(other, PrivacyLevel):
            raise TypeError
        if self.exact and other.exact:
            return self.exp_eps, other.exp_eps
        return float(self.exp_eps), float(other.exp_eps)

    def __lt__(self, other: "PrivacyLevel") -> bool:
        """Levels are ordered by ``e^ε`` (exactly when both are exact).

        Examples
        --------
        >>> PrivacyLevel.from_exp_eps(2) < PrivacyLevel.from_eps("ln(3)")
        True
        """
        try:
            a, b = self._key(other)
        except TypeError:
            return NotImplemented
        return bool(a < b)

    def __le__(self, other: "PrivacyLevel") -> bool:
        try:
            a, b = self._key(other)
        except TypeError:
            return NotImplemented
        return bool(a <= b)

    def __gt__(self, other: "PrivacyLevel") -> bool:
        try:
            a, b = self._key(other)
        except TypeError:
            return NotImplemented
        return bool(a > b)

    def __ge__(self, other: "PrivacyLevel") -> bool:
        try:
            a, b = self._key(other)
        except TypeError:
            return NotImplemented
        return bool(a >= b)

    # ------------------------------------------------------------------------------------------------ views
    @property
    def infinite(self) -> bool:
        """True when ``e^ε`` overflowed (only with ``allow_infinite=True``)."""
        return not self.exact and math.isinf(self.exp_eps)

    def __float__(self) -> float:
        return float(self.eps)

    def __str__(self) -> str:
        return fraction_str(self.eps)  # ln(3) exact, the float's repr otherwise

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, PrivacyLevel):
            return self.exp_eps == other.exp_eps and self.exact == other.exact
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.exp_eps, self.exact))

    def to_dict(self) -> dict[str, Any]:
        """``{"eps": …, "exp_eps": …, "exact": …}`` (ε as in :meth:`LogRational.to_json`)."""
        exp = None if self.infinite and not self.exact else scalar_to_json(self.exp_eps)
        return {"eps": scalar_to_json(self.eps), "exp_eps": exp, "exact": self.exact}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PrivacyLevel":
        """The level :meth:`to_dict` wrote, exactly as written (a float level keeps its float ε and ``e^ε``).

        Examples
        --------
        >>> level = PrivacyLevel.from_eps(0.5)
        >>> PrivacyLevel.from_dict(level.to_dict()) == level, PrivacyLevel.from_dict({"eps": "inf", "exp_eps": None, "exact": False}).infinite
        (True, True)
        """
        from .numbers import scalar_from_json

        if not isinstance(data, Mapping) or not {"eps", "exp_eps", "exact"} <= set(data):
            raise FormatError(f"a privacy level is {{'eps', 'exp_eps', 'exact'}}, got {data!r}")
        eps = scalar_from_json(data["eps"], name="eps")
        if data["exp_eps"] is None:
            if not (isinstance(eps, float) and math.isinf(eps)):
                raise FormatError(f"a privacy level without exp_eps must have eps = inf, got {data!r}")
            return cls.from_exp_eps(math.inf, allow_infinite=True)
        exp_eps = scalar_from_json(data["exp_eps"], name="exp_eps")
        if isinstance(exp_eps, LogRational):
            raise FormatError(f"exp_eps is a number, not a logarithm: {data['exp_eps']!r}")
        if data["exact"]:
            return cls.from_exp_eps(exp_eps)
        return cls(exp_eps=float(exp_eps), exact=False, eps=float(eps))


@to_jsonable.register(PrivacyLevel)
def _level_json(obj: PrivacyLevel) -> Any:
    """A level field of a result in JSON: :meth:`PrivacyLevel.to_dict` (``eps``, ``exp_eps``, ``exact``; an infinite
    ``eps`` as ``"inf"``, as every float of privgeom's JSON)."""
    return to_jsonable(obj.to_dict())


#: A privacy level as ``eps=`` accepts it (:meth:`PrivacyLevel.parse`): ε as a number (``1.1``, ``"0.5"``, ``0``),
#: ``"ln(r)"``, a :class:`~privgeom.LogRational` or a :class:`PrivacyLevel`.
LevelLike: TypeAlias = PrivacyLevel | LogRational | ScalarLike
