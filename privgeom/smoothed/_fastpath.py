"""Fast exact smoothed δ of the two-category sampling-histogram mechanism (Liu, Wang & Xia, Theorem 2, Section 6).

The SHM output given ``N`` ones among ``n`` records is the sample count ``Y`` (hypergeometric without replacement,
binomial with). By monotone likelihood ratio, the positive part of ``P_N(y) − e^ε P_{N+1}(y)`` lives on a lower tail
``y <= y₁(N)`` and that of ``P_{N+1}(y) − e^ε P_N(y)`` on an upper tail ``y >= y₂(N)``, so

``d(N, N+1) = Σ_{y <= y₁} P_N(y) (1 − e^{ε} ρ_N(y))``,  ``d(N+1, N) = Σ_{y >= y₂} P_{N+1}(y) (1 − e^{ε}/ρ_N(y))``

are sums of positive terms, evaluated from the threshold outwards with accurate log-pmfs (:mod:`._pmf`) until the
geometric remainder bound given by log-concavity is negligible. No matrix is built; every neglected tail is bounded
rigorously and reported (``truncation_bound``).

The smoothed δ maximises ``E_m = E[δ(N)]``, ``N ~ Bin(m, q_a) + Bin(n − m, q_b)``, over the number ``m`` of agents at
vertex ``q_a`` (Proposition 5). A branch-and-bound over cells ``[a, b]`` of ``m`` certifies the maximum: every
``m ∈ [a, b]`` gives ``N = C + W`` with ``C ~ Bin(a, q_a) + Bin(n − b, q_b)`` and ``0 <= W <= b − a``, hence
``E_m <= E_C[max_{0<=w<=b−a} δ(C + w)]``; cells whose bound does not beat the best value (relative ``rtol``) are
pruned, the others split, down to single counts (evaluated exactly). Everything is in log space (log-sum-exp of
log-pmfs, ``log1mexp`` for the factors ``1 − e^{ε ± log ρ}``), so values far below the smallest double keep finite,
correct logarithms. That includes the laws of the vertex counts: their weights ``P(N = c)`` are log-pmfs, convolved
in log space (:func:`_log_convolve`), with log tail bounds, because when the value is tiny its dominant terms lie
where ``P(N = c)`` is itself below the smallest double.

Every search here is bounded (docs/theory.md, §10, "Bounded searches"):

- the threshold searches :func:`_last_below`/:func:`_first_above`: 4 integer corrections, then at most
  ``_MAX_BISECTIONS`` (64) halvings of the support;
- the tail sums :func:`_log_tail_sums`: chunks of growing width walking the support outward, at most
  ``T / _MAX_CHUNK + 8`` chunks per row, stopped earlier by the geometric remainder bound;
- the window bisections of :func:`~._pmf.binom_window`: ``log2(m)`` halvings;
- the branch-and-bound :func:`bb_maximise`: at most ``smoothed_work`` window evaluations (a registered limit), then
  it returns the certified bracket.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np
from scipy.ndimage import maximum_filter1d

from .._core.errors import SizeLimitError
from .._core.limits import register_limit
from .._core.columns import hockey_stick_columns
from .._core.hints import limit_hint
from .._core.logpmf import log_binom_pmf, log_hypergeom_pmf
from .._core.limits import current_limit
from ._pmf import Binomial, Hypergeometric, _Family, binom_window

__all__ = [
    "DeltaTable",
    "LogDistances",
    "pair_log_distance_block",
    "event_thresholds",
    "Search",
    "bb_maximise",
    "direct_delta",
    "family",
    "DEFAULT_RTOL",
    "DEFAULT_TAIL",
]

#: Relative size below which a remainder is negligible against the partial sum (float rounding level).
_REL_STOP = 1e-17
#: Largest number of terms (rows × chunk width) of one vectorised step of the tail sums.
_MAX_ELEMS = 1 << 22
#: First and largest chunk width of the outward tail sums (the width grows 4× per step).
_FIRST_CHUNK, _MAX_CHUNK = 48, 4096
#: Largest one-step ratio used in the geometric remainder bound ``P / (1 − r)`` (keeps ``1 − r`` positive).
_MAX_STEP_RATIO = 1 - 1e-16
#: Rounds of the threshold bisections (the gap halves each round; supports have fewer than 2^53 points).
_MAX_BISECTIONS = 64
#: Default relative tolerance of the branch-and-bound over the vertex counts.
DEFAULT_RTOL = 1e-9
#: Default mass allowed outside the binomial windows of the vertex counts (``tail=`` of ``smoothed_delta``).
DEFAULT_TAIL = 1e-60
#: Its logarithm (``log_tau=`` of :func:`bb_maximise`).
DEFAULT_LOG_TAU = math.log(DEFAULT_TAIL)
#: Counts per block of the Chernoff upper bounds computed when a :class:`DeltaTable` is built.
_UPPER_BLOCK = 1 << 16
#: Largest number of window evaluations (expectations ``E_m`` and sharp cell bounds) of one branch-and-bound
#: (:func:`bb_maximise`): at the limit it stops and returns the certified bracket. Registered as ``smoothed_work``.
MAX_SMOOTHED_WORK = 20_000
#: Largest number of counts ``N = 0..n`` of the smoothed-δ table (one float per count). Registered as
#: ``smoothed_counts``.
MAX_SHM_COUNTS = 1 << 24
#: When the endpoint value is small, the window mass is lowered to ``value · e^{-TAIL_MARGIN}``.
TAIL_MARGIN = 30.0

register_limit(
    "smoothed_work",
    globals(),
    "MAX_SMOOTHED_WORK",
    "window evaluations of one smoothed-δ branch-and-bound of SHM (beyond: the certified bracket)",
)
register_limit(
    "smoothed_counts", globals(), "MAX_SHM_COUNTS", "counts N = 0..n of the smoothed-δ table of SHM (one float each)"
)
#: Counts per block of the straightforward method (:func:`direct_delta`): bounds its memory to a block of pmfs.
_DIRECT_BLOCK = 256


def family(n: int, T: int, replace: bool) -> _Family:
    """The law of the sample count: hypergeometric (``replace=False``) or binomial."""
    return Binomial(n, T) if replace else Hypergeometric(n, T)


def _last_below(fam: _Family, N: np.ndarray, lo: np.ndarray, hi: np.ndarray, level: float) -> np.ndarray:
    """Largest ``y`` in ``[lo, hi]`` with ``log ρ_N(y) < level`` (``lo − 1`` if none); ``ρ`` increases in ``y``.

    Starts from the closed-form root of the family and corrects it by integer steps (bisection as a fallback).
    """
    y = np.clip(np.floor(fam.root(N, level)), lo - 1, hi)
    for _ in range(4):
        up = (y + 1 <= hi) & (fam.log_rho(N, np.minimum(y + 1, hi)) < level)
        down = (y >= lo) & (fam.log_rho(N, np.maximum(y, lo)) >= level)
        if not (up.any() or down.any()):
            return y
        y = y + up - down
    a, b = lo - 1, hi + 1
    for _ in range(_MAX_BISECTIONS):  # the gap halves: at most log2(T + 2) rounds
        gap = b - a > 1
        if not gap.any():
            return a
        mid = np.floor((a + b) / 2)
        ok = fam.log_rho(N, mid) < level
        a = np.where(gap & ok, mid, a)
        b = np.where(gap & ~ok, mid, b)
    raise AssertionError("threshold bisection did not converge")  # pragma: no cover - 2^64 > any support


def _first_above(fam: _Family, N: np.ndarray, lo: np.ndarray, hi: np.ndarray, level: float) -> np.ndarray:
    """Smallest ``y`` in ``[lo, hi]`` with ``log ρ_N(y) > level`` (``hi + 1`` if none)."""
    y = np.clip(np.ceil(fam.root(N, level)), lo, hi + 1)
    for _ in range(4):
        down = (y - 1 >= lo) & (fam.log_rho(N, np.maximum(y - 1, lo)) > level)
        up = (y <= hi) & (fam.log_rho(N, np.minimum(y, hi)) <= level)
        if not (up.any() or down.any()):
            return y
        y = y + up - down
    a, b = lo - 1, hi + 1
    for _ in range(_MAX_BISECTIONS):  # the gap halves: at most log2(T + 2) rounds
        gap = b - a > 1
        if not gap.any():
            return b
        mid = np.floor((a + b) / 2)
        ok = fam.log_rho(N, mid) > level
        b = np.where(gap & ok, mid, b)
        a = np.where(gap & ~ok, mid, a)
    raise AssertionError("threshold bisection did not converge")  # pragma: no cover - 2^64 > any support


def _log1mexp_array(x: np.ndarray) -> np.ndarray:
    """``ln(1 − e^x)`` elementwise for ``x <= 0`` (Mächler 2012; ``-inf`` at ``x = 0``), the array form of
    :func:`privgeom._core.logpmf.log1mexp`."""
    x = np.minimum(np.asarray(x, dtype=float), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        near = np.log(-np.expm1(np.maximum(x, -math.log(2))))
        far = np.log1p(-np.exp(np.minimum(x, -math.log(2))))
    return np.where(x > -math.log(2), near, far)


def _log_tail_sums(
    fam: _Family,
    Nd: np.ndarray,
    Nr: np.ndarray,
    start: np.ndarray,
    stop: np.ndarray,
    step: int,
    eps: float,
    upper: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """``ln Σ_{y = start, start+step, …, stop} P_{Nd}(y) · f(y)`` with ``f = −expm1(ε ± log ρ_{Nr}(y))``, in log space.

    Every term is ``log P_{Nd}(y) + ln(1 − e^{ε ± log ρ})`` (``log1mexp``), accumulated by log-sum-exp, so a sum
    near ``10^{−300,000,000}`` keeps a finite, correct logarithm (docs/theory.md, "Smoothed DP", the tail sums).
    Returns the log sums (``-inf`` only when every term is exactly 0: an empty tail or a zero probability) and the
    log of a rigorous bound on the neglected remainder (log-concave geometric tail; ``-inf`` when none is neglected).
    """
    rows = len(Nd)
    total = np.full(rows, -np.inf)
    err = np.full(rows, -np.inf)
    active = (stop - start) * step >= 0
    pos = start.astype(float).copy()
    logp = np.full(rows, -np.inf)
    if active.any():
        logp[active] = fam.logpmf(Nd[active], pos[active])
    K = _FIRST_CHUNK
    log_rel = math.log(_REL_STOP)
    while active.any():
        idx = np.nonzero(active)[0]
        chunk = max(1, _MAX_ELEMS // K)
        for c0 in range(0, len(idx), chunk):
            ii = idx[c0 : c0 + chunk]
            ys = pos[ii, None] + step * np.arange(K)[None, :]
            valid = (stop[ii, None] - ys) * step >= 0
            ysafe = np.where(valid, ys, pos[ii, None])
            Ndi = Nd[ii, None]
            lstep = fam.log_step(Ndi, ysafe[:, :-1], step)
            lstep = np.where(valid[:, 1:], lstep, 0.0)
            lp = logp[ii, None] + np.concatenate([np.zeros((len(ii), 1)), np.cumsum(lstep, axis=1)], axis=1)
            lr = fam.log_rho(Nr[ii, None], ysafe)
            with np.errstate(invalid="ignore", over="ignore"):
                x = (eps - lr) if upper else (eps + lr)
                lfac = np.where(np.isnan(x), 0.0, _log1mexp_array(np.nan_to_num(x, nan=0.0)))
                lterms = np.where(valid, lp + lfac, -np.inf)
                lterms = np.nan_to_num(lterms, nan=-np.inf)
            mx = lterms.max(axis=1)
            fin = np.isfinite(mx)
            with np.errstate(invalid="ignore", divide="ignore"):
                chunk_log = np.where(
                    fin, mx + np.log(np.exp(lterms - np.where(fin, mx, 0.0)[:, None]).sum(axis=1)), -np.inf
                )
            total[ii] = np.logaddexp(total[ii], chunk_log)
            last = ys[:, -1]
            reached = (last - stop[ii]) * step >= 0
            nxt = last + step
            lp_next = lp[:, -1] + fam.log_step(Ndi[:, 0], np.where(reached, last - step, last), step)
            lr_next = fam.log_step(Ndi[:, 0], np.where(reached, last, nxt), step)
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                r = np.exp(lr_next)
                log_bound = np.where(r < 1, lp_next - np.log1p(-np.minimum(r, _MAX_STEP_RATIO)), np.inf)
            log_bound = np.nan_to_num(log_bound, nan=-np.inf, posinf=np.inf)
            done = reached | (log_bound <= total[ii] + log_rel) | (log_bound == -np.inf)
            err[ii] = np.where(reached, -np.inf, np.where(done, log_bound, -np.inf))
            pos[ii] = nxt
            logp[ii] = lp_next
            active[ii] = ~done
        K = min(4 * K, _MAX_CHUNK)
    return total, err


def _tail_sums(
    fam: _Family,
    Nd: np.ndarray,
    Nr: np.ndarray,
    start: np.ndarray,
    stop: np.ndarray,
    step: int,
    eps: float,
    upper: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_log_tail_sums` exponentiated (the sums and the remainder bound as floats; below ~1e-308 they are 0)."""
    lt, le = _log_tail_sums(fam, Nd, Nr, start, stop, step, eps, upper)
    return np.exp(lt), np.exp(le)


class LogDistances(NamedTuple):
    """The logs of the two directed distances of the pairs of neighbouring counts ``(N, N + 1)`` and of the bounds of
    their neglected tails (:func:`pair_log_distance_block`)."""

    forward: np.ndarray  #: ``ln d(N, N+1)``
    backward: np.ndarray  #: ``ln d(N+1, N)``
    forward_error: np.ndarray  #: log of the truncation bound of ``forward``
    backward_error: np.ndarray  #: log of the truncation bound of ``backward``


def pair_log_distance_block(fam: _Family, N: np.ndarray, eps: float) -> LogDistances:
    """``ln d(N, N+1)``, ``ln d(N+1, N)`` and the logs of their truncation bounds, vectorised over counts ``N < n``.

    Log space end to end: a distance that underflows a double still has its finite, correct logarithm; ``-inf``
    only when the one-sided tail is provably empty (docs/theory.md, "Smoothed DP").
    """
    N = np.asarray(N, dtype=float)
    lo0, hi0 = fam.support(N)
    lo1, hi1 = fam.support(N + 1)
    y1 = _last_below(fam, N, lo0, hi0, -eps)
    A, ea = _log_tail_sums(fam, N, N, y1, lo0, -1, eps, upper=False)
    y2 = _first_above(fam, N, lo1, hi1, eps)
    B, eb = _log_tail_sums(fam, N + 1, N, y2, hi1, +1, eps, upper=True)
    return LogDistances(forward=A, backward=B, forward_error=ea, backward_error=eb)


def event_thresholds(fam: _Family, N: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """The worst events of the two directed pairs at counts ``N < n`` (monotone likelihood ratio): ``{Y <= y₁}`` for
    ``d(N, N+1)`` and ``{Y >= y₂}`` for ``d(N+1, N)``; returns ``(y₁, y₂)`` (docs/theory.md, "Smoothed DP")."""
    N = np.asarray(N, dtype=float)
    lo0, hi0 = fam.support(N)
    lo1, hi1 = fam.support(N + 1)
    return _last_below(fam, N, lo0, hi0, -eps), _first_above(fam, N, lo1, hi1, eps)


def _log_upper_bound_block(fam: _Family, N: np.ndarray, eps: float) -> np.ndarray:
    """Logs of cheap Chernoff upper bounds on ``d(N, N+1)`` and ``d(N+1, N)`` (their maximum), vectorised."""
    lo0, hi0 = fam.support(N)
    lo1, hi1 = fam.support(N + 1)
    y1 = _last_below(fam, N, lo0, hi0, -eps) + 1  # one step of slack against rounding of the threshold
    y2 = _first_above(fam, N, lo1, hi1, eps) - 1
    la = np.where(y1 >= lo0, fam.log_tail_bound(N, np.minimum(y1, hi0), upper=False), -np.inf)
    lb = np.where(y2 <= hi1, fam.log_tail_bound(N + 1, np.maximum(y2, lo1), upper=True), -np.inf)
    return np.maximum(la, lb)


def _log_sum(logs: np.ndarray) -> float:
    """``ln Σ e^{logs}`` (log-sum-exp; ``-inf`` for an empty or all-``-inf`` input)."""
    if logs.size == 0:
        return -math.inf
    m = float(np.max(logs))
    if m == -math.inf:
        return m
    return m + math.log(float(np.exp(logs - m).sum()))


def _log(x: float) -> float:
    return math.log(x) if x > 0 else -math.inf


class DeltaTable:
    """``δ(N)`` of the two-category SHM in log space, computed lazily in blocks of counts and cached (one ``ε``).

    ``log_upper`` holds the log of a cheap Chernoff upper bound of ``δ`` for every ``N``, replaced by the exact log
    value where known; ``upper`` is its exponential. Values far below the smallest double keep finite logs.
    """

    BLOCK = 2048

    def __init__(self, n: int, T: int, eps: float, replace: bool) -> None:
        self.n, self.T, self.eps = int(n), int(T), float(eps)
        if self.n + 1 > current_limit("smoothed_counts"):
            raise SizeLimitError(
                f"the smoothed δ of SHM needs one value per count N = 0..{self.n} ({self.n + 1:,} counts, limit "
                f"smoothed_counts = {current_limit('smoothed_counts'):,}); refused before allocating; for "
                "single databases use "
                f"database_delta(SamplingHistogram(n, T), eps, x=N) (--at N), or "
                f"{limit_hint('smoothed_counts', self.n + 1)}"
            )
        self.fam = family(n, T, replace)
        self.dp = float(self.fam.dp_delta())
        self.log_dp = _log(self.dp)
        self._exact: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        Ns = np.arange(self.n, dtype=float)
        ub_pair = np.empty(self.n)
        for s in range(0, self.n, _UPPER_BLOCK):
            ub_pair[s : s + _UPPER_BLOCK] = _log_upper_bound_block(self.fam, Ns[s : s + _UPPER_BLOCK], self.eps)
        ub = np.full(self.n + 1, -np.inf)
        ub[:-1] = ub_pair
        ub[1:] = np.maximum(ub[1:], ub_pair)
        self.log_upper = np.minimum(ub, self.log_dp)

    @property
    def upper(self) -> np.ndarray:
        """``exp(log_upper)``: an upper bound of ``δ(N)`` for every count (0.0 where it underflows)."""
        return np.exp(self.log_upper)

    @property
    def blocks_done(self) -> set[int]:
        """Indices of the blocks of counts whose exact ``δ`` is known."""
        return set(self._exact)

    def _compute_block(self, b: int) -> None:
        lo = b * self.BLOCK
        hi = min(self.n, lo + self.BLOCK - 1)
        plo, phi = max(0, lo - 1), min(self.n - 1, hi)
        Ns = np.arange(plo, phi + 1, dtype=float)
        A, B, ea, eb = pair_log_distance_block(self.fam, Ns, self.eps)
        pair = np.maximum(A, B)
        e = np.logaddexp(ea, eb)
        idx = np.arange(lo, hi + 1)
        val = np.full(len(idx), -np.inf)
        er = np.full(len(idx), -np.inf)
        # δ(N) = max(pair(N), pair(N-1)); pair index j <-> count plo + j
        right = idx <= self.n - 1
        j = idx - plo
        val[right] = pair[j[right]]
        er[right] = e[j[right]]
        left = idx >= 1
        jl = idx - 1 - plo
        val[left] = np.maximum(val[left], pair[jl[left]])
        er[left] = np.maximum(er[left], e[jl[left]])
        self._exact[b] = (val, er)
        self.log_upper[lo : hi + 1] = np.minimum(self.log_upper[lo : hi + 1], np.logaddexp(val, er))

    def ensure(self, lo: int, hi: int) -> None:
        """Compute the exact ``δ(N)`` for ``lo <= N <= hi``."""
        lo, hi = max(0, lo), min(self.n, hi)
        for b in range(lo // self.BLOCK, hi // self.BLOCK + 1):
            if b not in self._exact:
                self._compute_block(b)

    def log_delta_bounds(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact ``ln δ(lo..hi)`` and, count by count, the logs of their truncation bounds."""
        lo, hi = max(0, lo), min(self.n, hi)
        self.ensure(lo, hi)
        b0, b1 = lo // self.BLOCK, hi // self.BLOCK
        vals = np.concatenate([self._exact[b][0] for b in range(b0, b1 + 1)])
        errs = np.concatenate([self._exact[b][1] for b in range(b0, b1 + 1)])
        off = lo - b0 * self.BLOCK
        return vals[off : off + hi - lo + 1], errs[off : off + hi - lo + 1]

    def log_delta(self, lo: int, hi: int) -> tuple[np.ndarray, float]:
        """Exact ``ln δ(lo..hi)`` and the log of the largest truncation bound among them."""
        vals, errs = self.log_delta_bounds(lo, hi)
        return vals, float(errs.max(initial=-np.inf))

    def delta(self, lo: int, hi: int) -> tuple[np.ndarray, float]:
        """Exact ``δ(lo..hi)`` and the largest truncation bound among them (floats: 0.0 below ~1e-308)."""
        v, e = self.log_delta(lo, hi)
        return np.exp(v), math.exp(e)


class _Law(NamedTuple):
    """A count's law on a window, in log space: ``log_pmf[i] = ln P(count = offset + i)``, and the log of the
    certified mass outside (``-inf`` when none). Logs, not probabilities: far in a tail the weights are below the
    smallest double, and there they multiply the largest ``δ(c)``."""

    offset: int
    log_pmf: np.ndarray
    log_tail: float


def _pmf_window(m: int, q: float, qc: float, log_tau: float) -> _Law:
    """``Bin(m, q)`` on its window of mass ``1 − e^{log_tau}`` (:func:`~._pmf.binom_window`), as log-pmfs."""
    if m == 0:
        return _Law(offset=0, log_pmf=np.zeros(1), log_tail=-math.inf)
    w = binom_window(m, q, log_tau)
    xs = np.arange(w.lo, w.hi + 1, dtype=float)
    return _Law(offset=w.lo, log_pmf=np.asarray(log_binom_pmf(xs, float(m), q, qc), dtype=float), log_tail=w.log_tail)


#: Spread (in nats) of the log-values of one block of :func:`_log_convolve`: a product of two blocks then spans
#: less than ``2 · 340 = 680`` nats, so scaled by its largest term no product falls below the smallest normal double
#: (``e^{-708}``).
_LOG_BLOCK_SPREAD = 340.0


def _log_blocks(logs: np.ndarray) -> list[tuple[int, int, float]]:
    """Consecutive blocks ``[i, j)`` of ``logs`` whose finite values span less than :data:`_LOG_BLOCK_SPREAD` nats,
    with each block's largest value (entries equal to ``-inf`` are left out): the runs of equal band
    ``⌊(max − logs) / spread⌋``, a handful for a unimodal law (one run per band on each side of the mode)."""
    finite = np.isfinite(logs)
    if not finite.any():
        return []
    top = float(logs[finite].max())
    band = np.where(finite, np.floor((top - np.where(finite, logs, top)) / _LOG_BLOCK_SPREAD), -1.0)
    cuts = np.concatenate(([0], np.flatnonzero(np.diff(band)) + 1, [len(logs)]))
    return [(int(i), int(j), float(logs[i:j].max())) for i, j in zip(cuts[:-1], cuts[1:]) if band[i] >= 0]


def _log_convolve(la: np.ndarray, lb: np.ndarray) -> np.ndarray:
    """``ln`` of the convolution of ``e^{la}`` and ``e^{lb}`` (the law of a sum of two independent counts), accurate
    to rounding however small the terms: both inputs are cut into blocks spanning at most
    :data:`_LOG_BLOCK_SPREAD` nats, each pair of blocks is convolved directly (``np.convolve``, positive terms,
    relative rounding) after scaling by its largest value, and the pieces are merged by log-add-exp."""
    out = np.full(len(la) + len(lb) - 1, -np.inf)
    blocks_b = _log_blocks(lb)
    for ia, ja, ma in _log_blocks(la):
        pa = np.exp(la[ia:ja] - ma)
        for ib, jb, mb in blocks_b:
            c = np.convolve(pa, np.exp(lb[ib:jb] - mb))
            with np.errstate(divide="ignore"):
                piece = np.log(c) + (ma + mb)
            sl = slice(ia + ib, ia + ib + len(c))
            out[sl] = np.logaddexp(out[sl], piece)
    return out


def _mixture_law(a: int, qa: tuple[float, float], b: int, qb: tuple[float, float], log_tau: float) -> _Law:
    """Law of ``Bin(a, q_a) + Bin(b, q_b)`` on a window, in log space: offset, log-pmf, log of the certified mass
    outside (a union bound over the two windows: the sum leaves its window only if a summand leaves its own)."""
    A = _pmf_window(a, qa[0], qa[1], log_tau)
    B = _pmf_window(b, qb[0], qb[1], log_tau)
    return _Law(
        offset=A.offset + B.offset,
        log_pmf=_log_convolve(A.log_pmf, B.log_pmf),
        log_tail=float(np.logaddexp(A.log_tail, B.log_tail)),
    )


@dataclass(frozen=True)
class Search:
    """The outcome of the branch-and-bound :func:`bb_maximise` over the vertex counts ``m``."""

    value: float  #: the best ``E_m`` found
    log_value: float  #: its natural log (finite far below the smallest double)
    m: int  #: the maximiser: agents at ``q_a``
    log_upper: float  #: log of the certified upper bound of every ``E_m`` (without the truncation)
    error_bound: float  #: ``exp(log_upper) − value``
    truncation_bound: float  #: bound on the neglected window tails
    log_truncation: float  #: its log
    evaluations: int  #: expectations ``E_m`` evaluated
    work: int  #: window evaluations (expectations and sharp cell bounds)
    cells: int  #: cells visited
    complete: bool  #: False when stopped by the work limit
    needed: int  #: a work budget certainly enough to finish
    log_tau: float  #: the log of the window mass used
    limit: int  #: the work limit


def bb_maximise(
    table: DeltaTable,
    qa: tuple[float, float],
    qb: tuple[float, float],
    *,
    rtol: float = DEFAULT_RTOL,
    log_tau: float = DEFAULT_LOG_TAU,
    max_work: int | None = None,
    progress: Callable[[int], None] | None = None,
    laws: dict | None = None,
) -> Search:
    """Certified ``max_m E_m`` over ``m ∈ 0..n`` (``m`` agents at ``q_a``, ``n − m`` at ``q_b``); see module docstring.

    In log space throughout (Liu, Wang & Xia, Proposition 5 and Theorem 2; docs/theory.md, "Smoothed DP"): ``ln E_m``
    is a log-sum-exp of ``ln P(N = c) + ln δ(c)``, a cell is pruned when its certified log upper bound is at most
    ``ln(best) + log1p(rtol)``, so values near ``10^{-106}`` (or far below a double) prune like any other.
    Before the search the window mass ``e^{log_tau}`` is lowered to ``best · e^{-TAIL_MARGIN}`` when the endpoint
    value ``best`` is small (a window tail larger than the value would make every bound useless). The search stops
    when no cell can beat the best value by more than ``rtol`` (relative; the default 1e-9 is below the printed 6
    digits), or after ``max_work`` window evaluations (default: the ``smoothed_work`` limit); it then returns the
    certified bracket: ``log_upper`` bounds every unevaluated count (open cells and pruned ones).

    ``qa``/``qb`` are ``(q, 1 − q)`` pairs (``q`` = probability of record 1). Returns a :class:`Search`. ``laws``
    may be a dict shared between calls with the same ``n`` and vertices (e.g. several ``ε``) to reuse the count
    laws.
    """
    n, log_dp = table.n, table.log_dp
    limit = current_limit("smoothed_work") if max_work is None else int(max_work)
    cache: dict = {} if laws is None else laws  # keyed by the window mass too
    work = [0]

    def law(a: int, b: int) -> _Law:
        key = (n, a, b, qa, qb, log_tau)
        if key not in cache:
            cache[key] = _mixture_law(a, qa, b, qb, log_tau)
        return cache[key]

    evals: dict[int, float] = {}
    trunc = [-math.inf]

    def E(m: int) -> float:
        if m not in evals:
            work[0] += 1
            off, lpmf, ltail = law(m, n - m)
            d, e = table.log_delta_bounds(off, off + len(lpmf) - 1)
            evals[m] = _log_sum(lpmf + d)
            # neglected: the window's tail (each count there has δ <= the DP δ) and each δ(c)'s own tail bound,
            # weighted by P(N = c)
            trunc[0] = max(trunc[0], float(np.logaddexp(ltail + log_dp, _log_sum(lpmf + e))))
            if progress is not None:
                progress(len(evals))
        return evals[m]

    def cheap(a: int, b: int) -> float:
        wa, wb = binom_window(a, qa[0], log_tau), binom_window(n - b, qb[0], log_tau)
        lo, hi = wa.lo + wb.lo, min(n, wa.hi + wb.hi + (b - a))
        return float(np.logaddexp(table.log_upper[lo : hi + 1].max(), np.logaddexp(wa.log_tail, wb.log_tail) + log_dp))

    def sharp(a: int, b: int) -> float:
        work[0] += 1
        off, lpmf, ltail = law(a, n - b)
        s = b - a
        hi = off + len(lpmf) - 1
        table.ensure(off, hi)
        ext_hi = min(n, hi + s)
        h = _forward_max(table.log_upper[off : ext_hi + 1], s)  # h(c) = max_{0<=w<=s} ln δ̄(c+w)
        return float(np.logaddexp(_log_sum(lpmf + h[: len(lpmf)]), ltail + log_dp))

    def result(best: float, best_m: int, upper: float, cells: int, complete: bool, needed: int) -> Search:
        upper = max(upper, best)
        return Search(
            value=math.exp(best),
            log_value=best,
            m=best_m,
            log_upper=upper,
            error_bound=max(0.0, math.exp(upper) - math.exp(best)),
            truncation_bound=math.exp(trunc[0]),
            log_truncation=trunc[0],
            evaluations=len(evals),
            work=work[0],
            cells=cells,
            complete=complete,
            needed=needed,
            log_tau=log_tau,
            limit=limit,
        )

    if qa == qb:
        return result(E(n), n, -math.inf, 0, True, work[0])
    best_m = max((0, n), key=E)
    best = E(best_m)
    wanted = best - TAIL_MARGIN - log_dp  # laws and tails are logs: no floor at the smallest double
    if best > -math.inf and wanted < log_tau:  # the windows' tails would swamp a small value: narrow them first
        log_tau = wanted
        evals.clear()
        trunc[0] = -math.inf
        best_m = max((0, n), key=E)
        best = E(best_m)
    log_slack = math.log1p(rtol)
    heap: list[tuple[float, int, int]] = [(-cheap(0, n), 0, n)]
    pruned_max, cells = -math.inf, 0
    while heap:
        if work[0] >= limit:
            open_upper = -heap[0][0]
            needed = work[0] + sum(3 * (b - a) for _, a, b in heap)
            return result(best, best_m, max(pruned_max, open_upper), cells, False, needed)
        negu, a, b = heapq.heappop(heap)
        cells += 1
        if b - a <= 1:
            continue
        slack = best + log_slack
        u = -negu
        if u <= slack:
            pruned_max = max(pruned_max, u)
            continue
        u2 = sharp(a, b)
        if u2 <= slack:
            pruned_max = max(pruned_max, u2)
            continue
        mid = (a + b) // 2
        v = E(mid)
        if v > best:
            best, best_m = v, mid
        for lo, hi in ((a, mid), (mid, b)):
            if hi - lo > 1:
                heapq.heappush(heap, (-min(u2, cheap(lo, hi)), lo, hi))
    return result(best, best_m, pruned_max, cells, True, work[0])


def _forward_max(g: np.ndarray, s: int) -> np.ndarray:
    """``h[i] = max(g[i : i + s + 1])`` (the window is clipped at the end of ``g``)."""
    if s <= 0:
        return g.copy()
    size = s + 1
    # a negative origin moves the window to the right: [i, i + s]
    return maximum_filter1d(g, size=size, origin=-(size // 2), mode="nearest")


# ---------------------------------------------------------------------------------------------------- direct method
def direct_delta(n: int, T: int, eps: float, replace: bool = False, Ns: np.ndarray | None = None) -> np.ndarray:
    """The straightforward ``O(n·T)`` method: the full output pmf of every count, positive parts summed.

    The pmfs are the package's one binomial/hypergeometric log-pmf (:func:`privgeom._core.logpmf.log_binom_pmf`,
    :func:`~privgeom._core.logpmf.log_hypergeom_pmf`) over all ``T + 1`` outputs, and the two directed distances of
    each pair of neighbouring counts ``(N, N + 1)`` are the package's one hockey-stick kernel
    (:func:`privgeom._core.columns.hockey_stick_columns`) on these dense columns; ``δ(N)`` is the larger of the pairs at
    ``N − 1`` and ``N``. Used by the benchmark and as an independent cross-check of :class:`DeltaTable` (which sums
    the same terms only over the one-sided tail where they are positive, outward from the threshold).

    Examples
    --------
    >>> d = float(direct_delta(10, 5, 0.0, Ns=[5])[0])   # the exact matrix gives δ(5) = 5/21 at ε = 0
    >>> abs(d - 5 / 21) < 1e-15, abs(d - float(DeltaTable(10, 5, 0.0, False).delta(5, 5)[0][0])) < 1e-15
    (True, True)
    """
    Ns = np.arange(n + 1) if Ns is None else np.asarray(Ns, dtype=int)
    ys = np.arange(T + 1, dtype=float)[:, None]
    t = math.exp(eps)

    def pmf(counts: np.ndarray) -> np.ndarray:  # outputs x counts
        c = counts.astype(float)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            logp = log_binom_pmf(ys, T, c / n, (n - c) / n) if replace else log_hypergeom_pmf(ys, n, c, T)
        return np.exp(logp)

    # pair[N] = max(d(N, N+1), d(N+1, N)) for the pairs that the requested counts touch
    lows = np.unique(np.concatenate([Ns - 1, Ns]))
    lows = lows[(lows >= 0) & (lows <= n - 1)]
    pair: dict[int, float] = {}
    for s in range(0, len(lows), _DIRECT_BLOCK):
        block = lows[s : s + _DIRECT_BLOCK]
        P, Q = pmf(block), pmf(block + 1)
        both = np.maximum(hockey_stick_columns(P, Q, t), hockey_stick_columns(Q, P, t))
        pair.update(zip(block.tolist(), both.tolist()))
    return np.array([max(pair.get(int(N) - 1, 0.0), pair.get(int(N), 0.0)) for N in Ns])


def _now() -> float:
    return time.perf_counter()
