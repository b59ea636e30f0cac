"""Shared numerics of :mod:`privgeom.voting`: the noise parameter ``ρ`` and accurate binomial logarithms.

The mechanism of the referendum paper (Evren & Vepakomma, *Effects of privacy-inducing noise on welfare and influence
of referendum systems*, Definitions 1–2) keeps each vote with probability ``ρ`` and re-draws it uniformly otherwise,
so a vote is reported truthfully with probability ``p = (1+ρ)/2`` and flipped with probability ``q = (1-ρ)/2``.
Every voting function takes the noise as ``rho=`` or as the privacy level ``eps=`` of that randomized response:
``e^ε = p/q = (1+ρ)/(1-ρ)``, so ``ρ = (e^ε-1)/(e^ε+1)`` (``docs/theory.md`` §17; :func:`noise`), exact when ``e^ε``
is rational.

Binomial probabilities for large electorates come from the package's one binomial log-pmf,
:func:`privgeom._core.logpmf.log_binom_pmf` (Loader's saddle-point form), re-exported here for the voting modules.

Examples
--------
>>> r = parse_rho("1/3")
>>> r.exact, r.p, r.q, (r.a, r.b)
(True, Fraction(2, 3), Fraction(1, 3), (1, 3))
>>> noise(eps="ln(3)").rho, noise("1/2").level.exp_eps      # the bridge both ways, exact
(Fraction(1, 2), Fraction(3, 1))
>>> round(float(np.exp(log_binom_pmf(np.array([50]), 100, 0.5, 0.5))[0]), 12)
0.079589237387
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, TypeAlias, TypeVar

import numpy as np  # noqa: F401  (the module's doctests use np)

from .._core.errors import InvalidParameterError
from .._core.level import LevelLike, PrivacyLevel, ScalarLike
from .._core.logpmf import log_binom_pmf, log_binom_tail
from .._core.numbers import parse_scalar, Scalar

__all__ = [
    "Rho",
    "parse_rho",
    "noise",
    "pick_route",
    "RhoLike",
    "binomials",
    "log_binom_pmf",
    "log_binom_tail",
    "EXACT_COUNTS_MAX_N",
    "EXACT_BINOMIAL_MAX_N",
]

#: Largest electorate for which symmetric rules are handled in exact rational arithmetic by default (``O(n^2)``
#: big-integer operations).
EXACT_COUNTS_MAX_N = 400
#: Largest electorate at which closed forms by vote count (influence, welfare at ``ρ = 1``) are formed with exact
#: binomial coefficients (``C(n, n/2)`` has about ``n`` bits; at ``n = 10^7`` the exact Fraction alone takes a minute).
#: Beyond it they are evaluated in floats from the binomial log-pmf (Loader), ``O(breakpoints)`` time and memory.
EXACT_BINOMIAL_MAX_N = 100_000


@dataclass(frozen=True)
class Rho:
    """The noise parameter ``ρ ∈ [0, 1]`` with ``p = (1+ρ)/2``, ``q = (1-ρ)/2``.

    In exact mode ``ρ = a/b`` in lowest terms, so ``p = (b+a)/(2b)`` and ``q = (b-a)/(2b)`` have integer numerators.
    """

    rho: Scalar
    exact: bool
    a: int
    b: int

    @property
    def p(self) -> Scalar:
        """Probability that a vote is reported as cast, ``(1+ρ)/2``."""
        return (1 + self.rho) / 2

    @property
    def q(self) -> Scalar:
        """Probability that a vote is flipped, ``(1-ρ)/2``."""
        return (1 - self.rho) / 2

    @property
    def log_p(self) -> float:
        """``ln p`` in float, to full relative precision (``ln(1 - q)`` with the exact ``q`` when ``ρ ≥ 1/2``)."""
        r = float(self.rho)
        return math.log1p(-(1 - r) / 2) if r >= 0.5 else math.log1p(r) - math.log(2)

    @property
    def log_q(self) -> float:
        """``ln q`` in float (``-inf`` when ``ρ = 1``), accurate for ``ρ`` near 1."""
        r = float(self.rho)
        return -math.inf if r >= 1 else math.log1p(-r) - math.log(2)

    def to_float(self) -> "Rho":
        """The same parameter in float mode."""
        return Rho(float(self.rho), False, 0, 0)

    @property
    def level(self) -> PrivacyLevel:
        """The privacy level of this randomized response, ``e^ε = p/q = (1+ρ)/(1-ρ)`` (``docs/theory.md`` §17;
        Proposition 2 of the referendum paper): exact for rational ``ρ < 1``, infinite at ``ρ = 1``."""
        if self.rho == 1:
            return PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True)
        if self.exact:
            return PrivacyLevel.from_exp_eps((1 + self.rho) / (1 - self.rho))
        r = float(self.rho)
        # ε = ln(1+ρ) - ln(1-ρ) = 2 artanh(ρ), to full relative precision also for ρ near 0
        return PrivacyLevel(exp_eps=(1 + r) / (1 - r), exact=False, eps=math.log1p(r) - math.log1p(-r), given="eps")


#: ``ρ`` as the voting functions accept it: a number (:data:`~privgeom._core.level.ScalarLike`; rational = exact mode) or
#: an already validated :class:`Rho`.
RhoLike: TypeAlias = Rho | ScalarLike


def parse_rho(rho: RhoLike, *, exact: bool | None = None) -> Rho:
    """Validate the correlation ``ρ ∈ [0, 1]`` of the paper's Definition 1.

    Rational input (``"1/2"``, ``Fraction``, ``0``, ``1``) gives exact mode; floats give float mode.

    Raises
    ------
    InvalidParameterError
        If ``ρ`` is outside ``[0, 1]``.

    Examples
    --------
    >>> parse_rho(0.5).exact, parse_rho(1).rho
    (False, Fraction(1, 1))
    """
    if isinstance(rho, Rho):
        return (
            rho
            if exact is None or exact == rho.exact
            else (rho.to_float() if not exact else parse_rho(rho.rho, exact=True))
        )
    value = parse_scalar(rho, name="rho", exact=exact)
    if not 0 <= value <= 1:
        raise InvalidParameterError(f"rho must lie in [0, 1] (Definition 1 of the referendum paper), got rho = {value}")
    if isinstance(value, Fraction):
        return Rho(value, True, value.numerator, value.denominator)
    return Rho(float(value), False, 0, 0)


def noise(
    rho: RhoLike | None = None,
    *,
    eps: LevelLike | None = None,
    default: RhoLike | None = None,
    exact: bool | None = None,
) -> Rho:
    """The noise of randomized response on votes, given as exactly one of ``rho=`` (the keep-probability ``ρ``) and
    ``eps=`` (its privacy level ``ε``); ``default`` when neither is given (``None``: one is required).

    The bridge (``docs/theory.md`` §17): a kept vote is reported as cast with probability ``p = (1+ρ)/2``, so the
    randomized response has ``e^ε = p/(1-p) = (1+ρ)/(1-ρ)`` and ``ρ = (e^ε-1)/(e^ε+1)`` — ``tanh(ε/2)``. An exact
    level (``"ln(3)"``, ``0``, a :class:`~privgeom.PrivacyLevel` with a rational ``e^ε``) gives an exact ``ρ``; a
    float ε gives a float ``ρ`` (``tanh``, accurate for small ε); ``ε = ∞`` gives ``ρ = 1``.

    Raises
    ------
    InvalidParameterError
        Both ``rho`` and ``eps`` given, or neither without a default; ``ρ`` outside ``[0, 1]``; ``ε < 0``.

    Examples
    --------
    >>> noise(eps="ln(3)").rho, noise(eps=0).rho, noise(eps=PrivacyLevel.from_exp_eps("9/4")).rho
    (Fraction(1, 2), Fraction(0, 1), Fraction(5, 13))
    >>> round(float(noise(eps=1.0).rho), 12) == round(math.tanh(0.5), 12)
    True
    """
    if rho is not None and eps is not None:
        raise InvalidParameterError(
            f"give exactly one of rho= and eps= (got rho={rho!r}, eps={eps!r}): "
            "they name the same noise, e^eps = (1+rho)/(1-rho)"
        )
    if eps is None:
        if rho is None:
            if default is None:
                raise InvalidParameterError("give the noise as rho= (keep-probability in [0, 1]) or eps= (its level)")
            rho = default
        return parse_rho(rho, exact=exact)
    level = PrivacyLevel.coerce(eps, name="eps", allow_infinite=True)
    if level.infinite:
        value: Scalar = Fraction(1) if exact else 1.0
    elif level.exact:
        t = Fraction(level.exp_eps)
        value = (t - 1) / (t + 1)
    else:
        value = math.tanh(float(level.eps) / 2)
    return parse_rho(value, exact=exact)


R = TypeVar("R")


def pick_route(routes: Mapping[str, R], method: str, what: str) -> R:
    """The route registered under ``method`` in a dispatcher's table, or :class:`~privgeom.InvalidParameterError`
    naming the value and the choices.

    Examples
    --------
    >>> pick_route({"auto": 1, "table": 2}, "table", "epsilon")
    2
    >>> pick_route({"auto": 1}, "fast", "epsilon")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: unknown epsilon method 'fast'; choose one of auto
    """
    route = routes.get(method) if isinstance(method, str) else None
    if route is None:
        raise InvalidParameterError(f"unknown {what} method {method!r}; choose one of {', '.join(routes)}")
    return route


def binomials(N: int, ks: list[int]) -> list[int]:
    """``[C(N, k) for k in ks]`` for increasing ``ks``: ``math.comb`` for a few, one incremental sweep for many (a
    symmetric rule such as parity has ``n`` breakpoints; ``n`` separate ``math.comb`` calls would take minutes at
    ``n = 10^5``, the sweep about a second).

    Examples
    --------
    >>> binomials(10, [0, 3, 4, 10]) == [math.comb(10, k) for k in (0, 3, 4, 10)]
    True
    """
    if len(ks) <= 8:
        return [math.comb(N, k) for k in ks]
    out: list[int] = []
    k0 = ks[0]
    value = math.comb(N, k0)
    for k in ks:
        while k0 < k:
            value = value * (N - k0) // (k0 + 1)
            k0 += 1
        out.append(value)
    return out
