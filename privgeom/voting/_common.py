"""Shared numerics of :mod:`privgeom.voting`: the noise parameter ``ρ`` and accurate binomial logarithms.

The mechanism of the referendum paper (Evren & Vepakomma, *Effects of privacy-inducing noise on welfare and influence
of referendum systems*, Definitions 1–2) keeps each vote with probability ``ρ`` and re-draws it uniformly otherwise,
so a vote is reported truthfully with probability ``p = (1+ρ)/2`` and flipped with probability ``q = (1-ρ)/2``.

Binomial probabilities for large electorates are computed in log space with Loader's saddle-point form
(``stirlerr`` and ``bd0``), which keeps full relative precision near the mode, where ``lgamma`` differences would lose
about ten digits at ``n = 10^5``.

Examples
--------
>>> r = parse_rho("1/3")
>>> r.exact, r.p, r.q, (r.a, r.b)
(True, Fraction(2, 3), Fraction(1, 3), (1, 3))
>>> round(float(np.exp(log_binom_pmf(np.array([50]), 100, 0.5, 0.5))[0]), 12)
0.079589237387
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .._errors import InvalidParameterError
from .._numeric import Scalar, parse_scalar

__all__ = [
    "Rho",
    "parse_rho",
    "log_of_ratio",
    "binomials",
    "log_binom_pmf",
    "log_binom_tail",
    "EXACT_COUNTS_MAX_N",
]

#: Largest electorate for which symmetric rules are handled in exact rational arithmetic by default (``O(n^2)``
#: big-integer operations).
EXACT_COUNTS_MAX_N = 400



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


def parse_rho(rho: Any, *, exact: bool | None = None) -> Rho:
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
        return rho if exact is None or exact == rho.exact else (rho.to_float() if not exact else parse_rho(rho.rho, exact=True))
    value = parse_scalar(rho, name="rho", exact=exact)
    if not 0 <= value <= 1:
        raise InvalidParameterError(f"rho must lie in [0, 1] (Definition 1 of the referendum paper), got rho = {value}")
    if isinstance(value, Fraction):
        return Rho(value, True, value.numerator, value.denominator)
    return Rho(float(value), False, 0, 0)


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


def log_of_ratio(ratio: Fraction) -> float:
    """``ln(ratio)`` for a positive rational, to full relative precision even when ``ratio`` is within ``2^-50`` of 1
    or has numerator and denominator of thousands of digits (``ln(num) - ln(den)`` would lose every digit there).

    Examples
    --------
    >>> log_of_ratio(Fraction(2**60 + 1, 2**60 - 1)) == math.log1p(2 / (2**60 - 1))
    True
    >>> abs(log_of_ratio(Fraction(3**50000, 2**70000)) - (50000 * math.log(3) - 70000 * math.log(2))) < 1e-9
    True
    """
    d = ratio - 1
    if abs(d) <= Fraction(1, 2):
        return math.log1p(d.numerator / d.denominator)  # int / int is correctly rounded in Python
    num, den = ratio.numerator, ratio.denominator
    shift = num.bit_length() - den.bit_length()  # ratio = 2^shift · m with m in (1/2, 2): no overflow, no cancellation
    if abs(shift) < 1000:
        return math.log(num / den)
    m = num / (den << shift) if shift >= 0 else (num << -shift) / den  # big-int true division is correctly rounded
    return math.log(m) + shift * math.log(2)


# ------------------------------------------------------------------------------------------ Loader's binomial
def _stirlerr_table() -> list[float]:
    """``stirlerr(k)`` for ``k = 0..15`` to full precision (``ln k! - (k + 1/2) ln k + k - ln √(2π)`` cancels badly in
    floats, so it is evaluated once in 40-digit decimal arithmetic)."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 40
        pi = Decimal("3.141592653589793238462643383279502884197169399375")
        half_log_2pi = (2 * pi).ln() / 2
        out = [0.0]
        for k in range(1, 16):
            dk = Decimal(k)
            out.append(float(Decimal(math.factorial(k)).ln() - (dk + Decimal("0.5")) * dk.ln() + dk - half_log_2pi))
    return out


_STIRLERR_TABLE = _stirlerr_table()


def _stirlerr(x: np.ndarray) -> np.ndarray:
    """``ln Γ(x+1) - ((x + 1/2) ln x - x + ln √(2π))`` for integers ``x ≥ 0`` (Loader 2000): table, then series."""
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    small = x <= 15
    if np.any(small):
        out[small] = [_STIRLERR_TABLE[int(v)] for v in x[small]]
    big = ~small
    if np.any(big):
        xb = x[big]
        inv2 = 1.0 / (xb * xb)
        s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
        out[big] = (s0 - (s1 - (s2 - (s3 - s4 * inv2) * inv2) * inv2) * inv2) / xb
    return out


def _bd0(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Deviance term ``x ln(x/m) + m - x ≥ 0`` without cancellation (Loader 2000); ``x, m > 0``."""
    x = np.asarray(x, dtype=float)
    m = np.asarray(m, dtype=float)
    out = np.empty(np.broadcast(x, m).shape)
    x, m = np.broadcast_arrays(x, m)
    near = np.abs(x - m) < 0.1 * (x + m)
    if np.any(near):
        xn, mn = x[near], m[near]
        v = (xn - mn) / (xn + mn)
        s = (xn - mn) * v
        ej = 2 * xn * v
        v2 = v * v
        for j in range(1, 40):
            ej = ej * v2
            term = ej / (2 * j + 1)
            s = s + term
            if np.all(np.abs(term) <= 1e-18 * np.abs(s)):
                break
        out[near] = s
    far = ~near
    if np.any(far):
        xf, mf = x[far], m[far]
        out[far] = xf * np.log(xf / mf) + mf - xf
    return out


def log_binom_pmf(k: np.ndarray, n: int, p: float, q: float) -> np.ndarray:
    """``ln P(Bin(n, p) = k)`` for an integer array ``k``, with ``q = 1 - p`` passed separately for accuracy.

    Uses Loader's saddle-point expansion, so the relative error of the probability is a few ulps near the mode and
    ``ulp(|ln P|)`` in the far tails (no underflow: ``ln P`` is returned even below ``1e-308``).

    Examples
    --------
    >>> float(log_binom_pmf(np.array([0]), 10, 0.5, 0.5)[0]) == -10 * math.log(2)
    True
    """
    k = np.asarray(k, dtype=float)
    out = np.full(k.shape, -np.inf)
    if n == 0:
        out[k == 0] = 0.0
        return out
    # the smaller of p, q carries full relative precision (q = (1-ρ)/2 is exact in floats for ρ ≥ 1/2, while
    # p = (1+ρ)/2 may be rounded); the log of the larger is log1p(-smaller), so P(k = n) = p^n keeps its relative
    # precision even at n = 10^5 (math.log(p) would be off by ~n ulps there)
    lp = -np.inf if p <= 0 else (math.log(p) if p <= q else math.log1p(-q))
    lq = -np.inf if q <= 0 else (math.log(q) if q <= p else math.log1p(-p))
    lo = k == 0
    hi = k == n
    if np.any(lo):
        out[lo] = n * lq if q > 0 else 0.0
    if np.any(hi):
        out[hi] = n * lp if p > 0 else 0.0
    mid = (k > 0) & (k < n)
    if np.any(mid) and p > 0 and q > 0:
        km = k[mid]
        nk = n - km
        # the two means must add up to n exactly (else the total mass is off by n·(p + q - 1), about n ulps), and the
        # larger is derived from the smaller, which carries full relative precision (q = (1-ρ)/2 is exact in floats)
        mean_p, mean_q = (n - n * q, n * q) if p >= q else (n * p, n - n * p)
        val = (
            _stirlerr(np.array([float(n)]))[0]
            - _stirlerr(km)
            - _stirlerr(nk)
            - _bd0(km, np.full_like(km, mean_p))
            - _bd0(nk, np.full_like(km, mean_q))
        )
        out[mid] = val + 0.5 * np.log(n / (2 * math.pi * km * nk))
    return out


def log_binom_tail(n: int, p: float, q: float, t: int, *, upper: bool) -> float:
    """``ln P(Bin(n, p) ≥ t)`` (``upper=True``) or ``ln P(Bin(n, p) ≤ t)`` (``upper=False``), without underflow.

    The small side of the distribution is summed outward from ``t`` (terms decrease geometrically); the large side
    is ``log1p`` of minus the small side, so there is no cancellation either way.

    Examples
    --------
    >>> round(math.exp(log_binom_tail(10, 0.5, 0.5, 8, upper=True)), 12) == round(56 / 1024, 12)
    True
    """
    if upper:
        if t <= 0:
            return 0.0
        if t > n:
            return -math.inf
        if t > n * p:
            return _outward_sum(n, p, q, t, +1)
        return _log1mexp(_outward_sum(n, p, q, t - 1, -1))
    if t >= n:
        return 0.0
    if t < 0:
        return -math.inf
    if t < n * p:
        return _outward_sum(n, p, q, t, -1)
    return _log1mexp(_outward_sum(n, p, q, t + 1, +1))


def _log1mexp(x: float) -> float:
    """``ln(1 - e^x)`` for ``x ≤ 0``."""
    if x == -math.inf:
        return 0.0
    if x > -math.log(2):
        return math.log(-math.expm1(x))
    return math.log1p(-math.exp(x))


def _outward_sum(n: int, p: float, q: float, t: int, direction: int) -> float:
    """``ln Σ_{k ≥ t} P(k)`` (direction +1) or ``ln Σ_{k ≤ t} P(k)`` (−1) when ``t`` lies on the small side."""
    head = float(log_binom_pmf(np.array([t]), n, p, q)[0])
    if head == -math.inf:
        return head
    if direction > 0:
        k = np.arange(t, n, dtype=float)
        ratios = (n - k) / (k + 1) * (p / q) if q > 0 else np.zeros_like(k)
    else:
        k = np.arange(t, 0, -1, dtype=float)
        ratios = k / (n - k + 1) * (q / p) if p > 0 else np.zeros_like(k)
    if ratios.size == 0:
        return head
    prods = np.cumprod(ratios)
    return head + math.log1p(math.fsum(prods.tolist()))
