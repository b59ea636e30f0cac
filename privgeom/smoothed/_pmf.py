"""The two-category SHM count laws, on the package's one binomial/hypergeometric log-pmf.

The log-pmfs themselves are :func:`privgeom._core.logpmf.log_binom_pmf` and :func:`privgeom._core.logpmf.log_hypergeom_pmf`
(Loader's saddle-point algorithm, a few ulps of relative error for every ``n``); this module also holds the two-category SHM families used by the fast path: the law of the sample count ``Y`` given
``N`` ones among ``n`` records — hypergeometric (without replacement) or ``Binomial(T, N/n)`` (with replacement) —
with their likelihood ratio ``ρ_N(y) = P_{N+1}(y)/P_N(y)`` (increasing in ``y``: monotone likelihood ratio), their
one-step ratios (both laws are log-concave) and Chernoff tail bounds.

Examples
--------
>>> import numpy as np
>>> from math import comb, log
>>> abs(float(log_binom_pmf(np.array([3.0]), 10, 0.3, 0.7)[0]) - log(comb(10, 3) * 0.3**3 * 0.7**7)) < 1e-14
True
>>> fam = Hypergeometric(10, 4)
>>> p = float(np.exp(fam.logpmf(np.array([5.0]), np.array([2.0]))[0]))   # C(5,2) C(5,2) / C(10,4) = 10/21
>>> abs(p - 10 / 21) < 1e-15
True
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from scipy.special import rel_entr

from .._core.logpmf import bd0, log_binom_pmf, log_hypergeom_pmf, stirlerr

__all__ = [
    "stirlerr",
    "bd0",
    "log_binom_pmf",
    "Hypergeometric",
    "Binomial",
    "chernoff_log_tail",
    "binom_window",
    "Window",
]


def chernoff_log_tail(a: np.ndarray, m: np.ndarray | float, p: np.ndarray | float) -> np.ndarray:
    """``log`` of the Chernoff bound ``exp(−m·KL(a/m ‖ p))`` on ``P(X <= a)`` (``a <= mp``) or ``P(X >= a)`` (``a >= mp``).

    Valid for sums of ``m`` independent Bernoulli(``p``) draws and, by Hoeffding (1963, Theorem 4), for draws
    without replacement from a population with a fraction ``p`` of ones. Returns 0 (the trivial bound) when ``m = 0``.
    """
    a, m, p = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, m, p)))
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.clip(np.where(m > 0, a / np.where(m > 0, m, 1.0), p), 0.0, 1.0)
        kl = rel_entr(frac, p) + rel_entr(1 - frac, 1 - p)
        out = np.where(m > 0, -m * kl, 0.0)
    return np.minimum(np.nan_to_num(out, nan=0.0, neginf=-np.inf), 0.0)


def _log_tail_scalar(a: float, m: float, p: float) -> float:
    """Scalar version of :func:`chernoff_log_tail` (pure Python, for bisections)."""
    if m <= 0:
        return 0.0
    f = min(1.0, max(0.0, a / m))
    kl = 0.0
    if f > 0:
        kl += f * math.log(f / p)
    if f < 1:
        kl += (1 - f) * math.log((1 - f) / (1 - p))
    return min(0.0, -m * kl)


class Window(NamedTuple):
    """A window ``[lo, hi]`` of a count's law and the certified mass outside it (:func:`binom_window`)."""

    lo: int
    hi: int
    tail: float  #: the certified mass outside (a float: 0.0 once it is below the smallest double)
    log_tail: float  #: its natural log, finite far below the smallest double (``-inf`` when nothing is outside)


def binom_window(m: int, q: float, log_tau: float) -> Window:
    """Window ``[lo, hi]`` of ``Binomial(m, q)`` outside which the mass is at most ``e^{log_tau}`` (Chernoff).

    Returns the window with ``tail``, the certified mass outside it, and ``log_tail``, its logarithm (finite when
    the mass is below the smallest double, so windows as narrow as ``e^{-10^4}`` keep a certified bound).

    Examples
    --------
    >>> lo, hi, b, _ = binom_window(1000, 0.5, math.log(1e-12))
    >>> lo < 500 < hi and b <= 1e-12
    True
    >>> w = binom_window(100_000, 0.05, -3000.0)
    >>> w.tail, -3000.0 - 1 < w.log_tail <= -3000.0
    (0.0, True)
    """
    if m <= 0 or q <= 0.0:
        return Window(lo=0, hi=0, tail=0.0, log_tail=-math.inf)
    if q >= 1.0:
        return Window(lo=m, hi=m, tail=0.0, log_tail=-math.inf)
    half = log_tau - math.log(2.0)
    mean = m * q

    def logt(a: int) -> float:
        return _log_tail_scalar(float(a), float(m), q)

    lo_bound = -math.inf
    if logt(0) > half:
        lo = 0
    else:
        a, b = 0, int(math.floor(mean))  # logt(a) <= half < logt(b): find the largest such a
        while b - a > 1:
            c = (a + b) // 2
            if logt(c) <= half:
                a = c
            else:
                b = c
        lo, lo_bound = a + 1, logt(a)
    hi_bound = -math.inf
    if logt(m) > half:
        hi = m
    else:
        a, b = int(math.ceil(mean)), m
        while b - a > 1:
            c = (a + b) // 2
            if logt(c) <= half:
                b = c
            else:
                a = c
        hi, hi_bound = b - 1, logt(b)
    log_tail = (
        lo_bound
        if hi_bound == -math.inf
        else (
            hi_bound
            if lo_bound == -math.inf
            else max(lo_bound, hi_bound) + math.log1p(math.exp(-abs(lo_bound - hi_bound)))
        )
    )
    return Window(lo=lo, hi=max(hi, lo), tail=math.exp(log_tail), log_tail=log_tail)


class _Family(ABC):
    """Law of the sample count ``Y`` given ``N`` ones among ``n`` records (two categories)."""

    n: int
    T: int

    @abstractmethod
    def support(self, N: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    @abstractmethod
    def logpmf(self, N: np.ndarray, y: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def log_rho(self, N: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``log P_{N+1}(y) − log P_N(y)`` (``±inf`` off the supports); increasing in ``y``."""
        ...

    @abstractmethod
    def log_step(self, N: np.ndarray, y: np.ndarray, step: int) -> np.ndarray:
        """``log P_N(y + step) − log P_N(y)`` for ``step = ±1`` (non-increasing along the direction: log-concave)."""
        ...

    @abstractmethod
    def root(self, N: np.ndarray, level: float) -> np.ndarray:
        """Real ``y`` where ``log ρ_N(y) ≈ level`` (a starting point for the exact integer threshold search)."""
        ...

    @abstractmethod
    def dp_delta(self) -> Fraction:
        """``max_N δ(N)`` over all counts: ``T/n`` without replacement, ``1 − (1 − 1/n)^T`` with."""
        ...

    @abstractmethod
    def log_tail_bound(self, N: np.ndarray, y: np.ndarray, upper: bool) -> np.ndarray:
        """Chernoff bound on ``log P_N(Y <= y)`` (``upper=False``) or ``log P_N(Y >= y)``."""
        ...


class Hypergeometric(_Family):
    """``Y ~ Hypergeometric``: ``T`` draws without replacement from ``n`` records holding ``N`` ones."""

    def __init__(self, n: int, T: int) -> None:
        self.n, self.T = int(n), int(T)

    def support(self, N: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.maximum(0.0, self.T - self.n + N), np.minimum(N, float(self.T))

    def logpmf(self, N: np.ndarray, y: np.ndarray) -> np.ndarray:
        return log_hypergeom_pmf(y, float(self.n), N, float(self.T))

    def log_rho(self, N: np.ndarray, y: np.ndarray) -> np.ndarray:
        n, T = self.n, self.T
        a = N + 1 - y  # > 0 inside the support of P_N
        b = n - N - T + y  # 0 where P_{N+1}(y) = 0
        with np.errstate(divide="ignore", invalid="ignore"):
            val = np.log1p(y / np.where(a > 0, a, 1.0)) + np.log1p(-(T - y) / np.where(n - N > 0, n - N, 1.0))
        val = np.where(b <= 0, -np.inf, val)
        return np.where(a <= 0, np.inf, val)

    def log_step(self, N: np.ndarray, y: np.ndarray, step: int) -> np.ndarray:
        n, T = self.n, self.T
        with np.errstate(divide="ignore", invalid="ignore"):
            if step < 0:  # P(y-1)/P(y) = y (n-N-T+y) / ((N-y+1)(T-y+1))
                return np.log(y) + np.log(n - N - T + y) - np.log(N - y + 1) - np.log(T - y + 1)
            return np.log(N - y) + np.log(T - y) - np.log(y + 1) - np.log(n - N - T + y + 1)

    def root(self, N: np.ndarray, level: float) -> np.ndarray:
        # (N+1)(n-N-T+y) = r (N+1-y)(n-N) with r = e^level: linear in y
        r = math.exp(level)
        n, T = self.n, self.T
        return ((N + 1) * (r * (n - N) - (n - N - T))) / ((N + 1) + r * (n - N))

    def dp_delta(self) -> Fraction:
        return Fraction(self.T, self.n)

    def log_tail_bound(self, N: np.ndarray, y: np.ndarray, upper: bool) -> np.ndarray:
        p = N / self.n
        direct = chernoff_log_tail(y, float(self.T), p)
        via_unsampled = chernoff_log_tail(N - y, float(self.n - self.T), p)  # Y <= y  <=>  U >= N - y
        ok = (y <= self.T * p) if not upper else (y >= self.T * p)
        okU = (N - y >= (self.n - self.T) * p) if not upper else (N - y <= (self.n - self.T) * p)
        return np.minimum(np.where(ok, direct, 0.0), np.where(okU, via_unsampled, 0.0))


class Binomial(_Family):
    """``Y ~ Binomial(T, N/n)``: ``T`` draws with replacement."""

    def __init__(self, n: int, T: int) -> None:
        self.n, self.T = int(n), int(T)

    def support(self, N: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        T = float(self.T)
        return np.where(N >= self.n, T, 0.0), np.where(N <= 0, 0.0, T)

    def logpmf(self, N: np.ndarray, y: np.ndarray) -> np.ndarray:
        return log_binom_pmf(y, float(self.T), N / self.n, (self.n - N) / self.n)

    def log_rho(self, N: np.ndarray, y: np.ndarray) -> np.ndarray:
        n, T = self.n, self.T
        with np.errstate(divide="ignore", invalid="ignore"):
            up = np.where(y > 0, y * np.log1p(1.0 / np.where(N > 0, N, 1.0)), 0.0)
            up = np.where((N <= 0) & (y > 0), np.inf, up)
            down = np.where(T - y > 0, (T - y) * np.log1p(-1.0 / np.where(n - N > 0, n - N, 1.0)), 0.0)
            down = np.where((n - N - 1 <= 0) & (T - y > 0), -np.inf, down)
        return up + down

    def log_step(self, N: np.ndarray, y: np.ndarray, step: int) -> np.ndarray:
        T = self.T
        with np.errstate(divide="ignore", invalid="ignore"):
            if step < 0:
                return np.log(y) - np.log(T - y + 1) + np.log(self.n - N) - np.log(N)
            return np.log(T - y) - np.log(y + 1) + np.log(N) - np.log(self.n - N)

    def root(self, N: np.ndarray, level: float) -> np.ndarray:
        # y a + (T - y) b = level with a = log((N+1)/N), b = log((n-N-1)/(n-N)): linear in y
        n, T = self.n, self.T
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.log1p(1.0 / np.where(N > 0, N, 1.0))
            b = np.log1p(-1.0 / np.where(n - N > 1, n - N, 2.0))
            y = (level - T * b) / (a - b)
        return np.nan_to_num(y, nan=0.0, posinf=float(T), neginf=0.0)

    def dp_delta(self) -> Fraction:
        return 1 - Fraction(self.n - 1, self.n) ** self.T

    def log_tail_bound(self, N: np.ndarray, y: np.ndarray, upper: bool) -> np.ndarray:
        p = N / self.n
        ok = (y <= self.T * p) if not upper else (y >= self.T * p)
        return np.where(ok, chernoff_log_tail(y, float(self.T), p), 0.0)
