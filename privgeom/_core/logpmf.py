"""Binomial and hypergeometric log-pmfs, one implementation for the whole package (voting by vote count, the
smoothed sampling-histogram mechanism), accurate for every ``n``.

Loader (2000), *Fast and accurate computation of binomial probabilities*: ``ln P(Bin(n, p) = k)`` through the
Stirling remainder :func:`stirlerr` and the deviance :func:`bd0` evaluated without cancellation, which keeps a
relative error of a few ulps for every ``n`` (``gammaln`` differences lose about ten digits at ``n = 10^5``); tails
summed outward from the mode in log space (:func:`log_binom_tail`).

Examples
--------
>>> import math
>>> round(math.exp(float(log_binom_pmf(1, 2, 0.5, 0.5))), 12)
0.5
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["stirlerr", "bd0", "log_binom_pmf", "log_hypergeom_pmf", "log_binom_tail", "log1mexp"]


# ================================================================================================ binomial log-pmf
# One implementation of the binomial and hypergeometric log-pmfs for the whole package (voting by vote count, the
# smoothed sampling-histogram mechanism). Loader (2000), *Fast and accurate computation of binomial probabilities*:
# ``ln P(Bin(n, p) = k)`` through the Stirling remainder ``stirlerr`` and the deviance
# ``bd0(x, m) = x ln(x/m) + m − x`` evaluated without cancellation, which keeps a relative error of a few ulps for
# every ``n`` (``gammaln`` differences lose about ten digits at ``n = 10^5``).


def _stirlerr_table() -> np.ndarray:
    """``stirlerr(k)`` for ``k = 0..15`` in 50-digit decimal arithmetic (the float formula cancels badly)."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 50
        two_pi = Decimal("6.28318530717958647692528676655900576839433879875021")
        out = [0.0]
        fact = Decimal(1)
        for k in range(1, 16):
            fact *= k
            d = Decimal(k)
            out.append(float(fact.ln() - (d + Decimal("0.5")) * d.ln() + d - two_pi.ln() / 2))
    return np.array(out)


_STIRLERR = _stirlerr_table()
#: Number of terms after which Loader's deviance series is abandoned (it converges long before, |v| < 0.053).
_BD0_MAX_TERMS = 60


def stirlerr(x: Any) -> np.ndarray:
    """``ln Γ(x+1) − ((x + 1/2) ln x − x + ln √(2π))`` for integer-valued ``x >= 0`` (Loader 2000): table up to 15,
    then the Stirling series to the ``x^-9`` term.

    Examples
    --------
    >>> ref = math.lgamma(21) - (20.5 * math.log(20) - 20 + 0.5 * math.log(2 * math.pi))
    >>> abs(float(stirlerr(np.array([20.0]))[0]) - ref) < 1e-15
    True
    """
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    small = x <= 15
    if np.any(small):
        out[small] = _STIRLERR[x[small].astype(int)]
    big = ~small
    if np.any(big):
        xb = x[big]
        inv2 = 1.0 / (xb * xb)
        s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
        out[big] = (s0 - (s1 - (s2 - (s3 - s4 * inv2) * inv2) * inv2) * inv2) / xb
    return out


def bd0(x: Any, m: Any) -> np.ndarray:
    """Deviance ``x ln(x/m) + m − x >= 0`` without cancellation when ``x ≈ m`` (Loader 2000, series in
    ``v = (x−m)/(x+m)`` summed until it no longer changes in floats); ``x >= 0``, ``m > 0``.

    Examples
    --------
    >>> float(bd0(np.array([5.0]), np.array([5.0]))[0]), round(float(bd0(np.array([0.0]), np.array([2.0]))[0]), 15)
    (0.0, 2.0)
    """
    x, m = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(m, dtype=float))
    out = np.empty(x.shape)
    near = np.abs(x - m) < 0.1 * (x + m)
    if np.any(near):
        xn, mn = x[near], m[near]
        v = (xn - mn) / (xn + mn)
        s = (xn - mn) * v
        ej = 2 * xn * v
        v2 = v * v
        for j in range(1, _BD0_MAX_TERMS):
            ej = ej * v2
            s1 = s + ej / (2 * j + 1)
            if np.array_equal(s1, s):  # stop when no term changes the sum any more (the most accurate rule)
                break
            s = s1
        out[near] = s
    far = ~near
    if np.any(far):
        xf, mf = x[far], m[far]
        with np.errstate(divide="ignore", invalid="ignore"):
            out[far] = np.where(xf > 0, xf * np.log(np.where(xf > 0, xf, 1.0) / mf), 0.0) + mf - xf
    return out


def log_binom_pmf(k: Any, n: Any, p: Any, q: Any) -> np.ndarray:
    """``ln P(Bin(n, p) = k)``, vectorised over ``k`` (and broadcast over ``n``, ``p``, ``q``), with ``q = 1 − p``
    passed separately so that the smaller of the two carries full relative precision.

    Loader's saddle-point form (Loader 2000): the relative error of the probability is a few ulps near the mode and
    ``ulp(|ln P|)`` in the far tails; no underflow (``ln P`` is returned below ``1e-308`` too); ``-inf`` outside
    ``0..n`` and where the probability is 0. The two means ``n p`` and ``n q`` are formed so that they add up to ``n``
    exactly, the larger derived from the smaller (else the total mass is off by about ``n`` ulps), and the edge
    terms ``p^n``, ``q^n`` take the log of the larger probability as ``log1p(−smaller)``.

    Examples
    --------
    >>> float(log_binom_pmf(np.array([0]), 10, 0.5, 0.5)[0]) == -10 * math.log(2)
    True
    >>> round(float(np.exp(log_binom_pmf(np.array([50]), 100, 0.5, 0.5))[0]), 12)
    0.079589237387
    """
    k, n, p, q = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (k, n, p, q)))
    out = np.full(k.shape, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = np.where(p <= q, np.log(p), np.log1p(-q))
        lq = np.where(q <= p, np.log(q), np.log1p(-p))
        inside = (k >= 0) & (k <= n)
        lo = inside & (k == 0)
        if np.any(lo):
            out[lo] = np.where(n[lo] == 0, 0.0, np.where(q[lo] > 0, n[lo] * lq[lo], -np.inf))
        hi = inside & (k == n) & (k > 0)
        if np.any(hi):
            out[hi] = np.where(p[hi] > 0, n[hi] * lp[hi], -np.inf)
        mid = inside & (k > 0) & (k < n) & (p > 0) & (q > 0)
        if np.any(mid):
            km, nm, pm, qm = k[mid], n[mid], p[mid], q[mid]
            nk = nm - km
            small = np.where(pm <= qm, nm * pm, nm * qm)
            mean_p = np.where(pm <= qm, small, nm - small)
            mean_q = nm - mean_p
            val = stirlerr(nm) - stirlerr(km) - stirlerr(nk) - bd0(km, mean_p) - bd0(nk, mean_q)
            out[mid] = val - 0.5 * (math.log(2 * math.pi) + np.log(km) + np.log1p(-km / nm))
    return out


def log_hypergeom_pmf(y: Any, n: Any, N: Any, T: Any) -> np.ndarray:
    """``ln P(Y = y)`` for ``Y ~ Hypergeometric``: ``T`` draws without replacement from ``n`` items of which ``N``
    are marked, ``P(Y = y) = C(N, y) C(n−N, T−y) / C(n, T)``.

    Written as a ratio of three binomial probabilities with the same (arbitrary) ``p = T/n`` — the powers of ``p``
    and ``q`` cancel — so each factor keeps Loader's relative precision (Loader 2000, §4); ``-inf`` off the support.

    Examples
    --------
    >>> p = float(np.exp(log_hypergeom_pmf(np.array([2.0]), 10, 5, 4))[0])   # C(5,2) C(5,2) / C(10,4) = 10/21
    >>> abs(p - 10 / 21) < 1e-15
    True
    """
    y, n, N, T = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (y, n, N, T)))
    p, q = T / n, (n - T) / n
    norm = log_binom_pmf(T, n, p, q)
    return log_binom_pmf(y, N, p, q) + log_binom_pmf(T - y, n - N, p, q) - norm


def log1mexp(x: float) -> float:
    """``ln(1 − e^x)`` for ``x <= 0`` without cancellation (Mächler 2012)."""
    if x == -math.inf:
        return 0.0
    if x > -math.log(2):
        return math.log(-math.expm1(x))
    return math.log1p(-math.exp(x))


def log_binom_tail(n: int, p: float, q: float, t: int, *, upper: bool) -> float:
    """``ln P(Bin(n, p) >= t)`` (``upper=True``) or ``ln P(Bin(n, p) <= t)`` (``upper=False``), without underflow.

    The small side of the distribution is summed outward from ``t`` (terms decrease geometrically, ratios
    ``(n−k)p / ((k+1)q)``); the large side is ``log1p`` of minus the small side, so there is no cancellation.

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
        return log1mexp(_outward_sum(n, p, q, t - 1, -1))
    if t >= n:
        return 0.0
    if t < 0:
        return -math.inf
    if t < n * p:
        return _outward_sum(n, p, q, t, -1)
    return log1mexp(_outward_sum(n, p, q, t + 1, +1))


def _outward_sum(n: int, p: float, q: float, t: int, direction: int) -> float:
    """``ln Σ_{k >= t} P(k)`` (direction +1) or ``ln Σ_{k <= t} P(k)`` (−1) when ``t`` lies on the small side."""
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
