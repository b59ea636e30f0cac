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
pruned, the others split, down to single counts (evaluated exactly).
"""

from __future__ import annotations

import heapq
import math
import time
from typing import Callable

import numpy as np
from scipy.ndimage import maximum_filter1d

from .._errors import SizeLimitError
from .._numeric import log_binom_pmf, log_hypergeom_pmf
from ..analyses import hockey_stick_columns
from ._pmf import Binomial, Hypergeometric, _Family, binom_window

__all__ = ["DeltaTable", "pair_distance_block", "bb_maximise", "direct_delta", "family", "DEFAULT_RTOL", "DEFAULT_TAIL"]

#: Relative size below which a remainder is negligible against the partial sum (float rounding level).
_REL_STOP = 1e-17
#: Absolute size below which a remainder is negligible (below the smallest normal double).
_ABS_STOP = 1e-300
#: Largest number of terms (rows × chunk width) of one vectorised step of the tail sums.
_MAX_ELEMS = 1 << 22
#: First and largest chunk width of the outward tail sums (the width grows 4× per step).
_FIRST_CHUNK, _MAX_CHUNK = 48, 4096
#: Largest one-step ratio used in the geometric remainder bound ``P / (1 − r)`` (keeps ``1 − r`` positive).
_MAX_STEP_RATIO = 1 - 1e-16
#: Default relative tolerance of the branch-and-bound over the vertex counts.
DEFAULT_RTOL = 1e-9
#: Default mass allowed outside the binomial windows of the vertex counts (``tail=`` of ``shm_smoothed_delta``).
DEFAULT_TAIL = 1e-60
#: Its logarithm (``log_tau=`` of :func:`bb_maximise`).
DEFAULT_LOG_TAU = math.log(DEFAULT_TAIL)
#: Counts per block of the Chernoff upper bounds computed when a :class:`DeltaTable` is built.
_UPPER_BLOCK = 1 << 16
#: Default largest number of branch-and-bound cells (:func:`bb_maximise`).
MAX_CELLS = 100_000
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
    while True:
        gap = b - a > 1
        if not gap.any():
            return a
        mid = np.floor((a + b) / 2)
        ok = fam.log_rho(N, mid) < level
        a = np.where(gap & ok, mid, a)
        b = np.where(gap & ~ok, mid, b)


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
    while True:
        gap = b - a > 1
        if not gap.any():
            return b
        mid = np.floor((a + b) / 2)
        ok = fam.log_rho(N, mid) > level
        b = np.where(gap & ok, mid, b)
        a = np.where(gap & ~ok, mid, a)


def _tail_sums(fam: _Family, Nd: np.ndarray, Nr: np.ndarray, start: np.ndarray, stop: np.ndarray, step: int,
               eps: float, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """``Σ_{y = start, start+step, …, stop} P_{Nd}(y) · f(y)`` with ``f = −expm1(ε ± log ρ_{Nr}(y))``.

    Returns the sums and a rigorous bound on the neglected remainder (log-concave geometric tail).
    """
    rows = len(Nd)
    total = np.zeros(rows)
    err = np.zeros(rows)
    active = (stop - start) * step >= 0
    pos = start.astype(float).copy()
    logp = np.full(rows, -np.inf)
    if active.any():
        logp[active] = fam.logpmf(Nd[active], pos[active])
    K = _FIRST_CHUNK
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
                fac = -np.expm1(eps - lr) if upper else -np.expm1(eps + lr)
                terms = np.where(valid, np.exp(lp) * np.clip(np.nan_to_num(fac, nan=1.0), 0.0, 1.0), 0.0)
            total[ii] += terms.sum(axis=1)
            last = ys[:, -1]
            reached = (last - stop[ii]) * step >= 0
            nxt = last + step
            lp_next = lp[:, -1] + fam.log_step(Ndi[:, 0], np.where(reached, last - step, last), step)
            lr_next = fam.log_step(Ndi[:, 0], np.where(reached, last, nxt), step)
            with np.errstate(over="ignore", invalid="ignore"):
                r = np.exp(lr_next)
                bound = np.where(r < 1, np.exp(lp_next) / (1 - np.minimum(r, _MAX_STEP_RATIO)), np.inf)
            done = reached | (bound <= np.maximum(_REL_STOP * total[ii], _ABS_STOP))
            err[ii] = np.where(reached, 0.0, np.where(done, bound, 0.0))
            pos[ii] = nxt
            logp[ii] = lp_next
            active[ii] = ~done
        K = min(4 * K, _MAX_CHUNK)
    return total, err


def pair_distance_block(fam: _Family, N: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``d(N, N+1)``, ``d(N+1, N)`` and their truncation bounds, vectorised over counts ``N < n``."""
    N = np.asarray(N, dtype=float)
    lo0, hi0 = fam.support(N)
    lo1, hi1 = fam.support(N + 1)
    y1 = _last_below(fam, N, lo0, hi0, -eps)
    A, ea = _tail_sums(fam, N, N, y1, lo0, -1, eps, upper=False)
    y2 = _first_above(fam, N, lo1, hi1, eps)
    B, eb = _tail_sums(fam, N + 1, N, y2, hi1, +1, eps, upper=True)
    return A, B, ea + eb


def _upper_bound_block(fam: _Family, N: np.ndarray, eps: float) -> np.ndarray:
    """Cheap Chernoff upper bounds on ``d(N, N+1)`` and ``d(N+1, N)`` (their maximum), vectorised."""
    lo0, hi0 = fam.support(N)
    lo1, hi1 = fam.support(N + 1)
    y1 = _last_below(fam, N, lo0, hi0, -eps) + 1  # one step of slack against rounding of the threshold
    y2 = _first_above(fam, N, lo1, hi1, eps) - 1
    la = np.where(y1 >= lo0, fam.log_tail_bound(N, np.minimum(y1, hi0), upper=False), -np.inf)
    lb = np.where(y2 <= hi1, fam.log_tail_bound(N + 1, np.maximum(y2, lo1), upper=True), -np.inf)
    return np.exp(np.maximum(la, lb))


class DeltaTable:
    """``δ(N)`` of the two-category SHM, computed lazily in blocks of counts and cached (one ``ε``).

    ``upper`` holds a cheap Chernoff upper bound of ``δ`` for every ``N``, replaced by the exact value where known.
    """

    BLOCK = 2048
    #: Largest ``n`` for which the table (one float per count for the upper bounds) is built.
    MAX_N = 1 << 24

    def __init__(self, n: int, T: int, eps: float, replace: bool) -> None:
        self.n, self.T, self.eps = int(n), int(T), float(eps)
        if self.n + 1 > self.MAX_N:
            raise SizeLimitError(
                f"the smoothed-δ table of SHM needs one value per count N = 0..{self.n} (limit {self.MAX_N:,}); "
                "refused before allocating — use shm_database_delta for single databases"
            )
        self.fam = family(n, T, replace)
        self.dp = float(self.fam.dp_delta())
        self._exact: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        Ns = np.arange(self.n, dtype=float)
        ub_pair = np.empty(self.n)
        for s in range(0, self.n, _UPPER_BLOCK):
            ub_pair[s : s + _UPPER_BLOCK] = _upper_bound_block(self.fam, Ns[s : s + _UPPER_BLOCK], self.eps)
        ub = np.full(self.n + 1, 0.0)
        ub[:-1] = ub_pair
        ub[1:] = np.maximum(ub[1:], ub_pair)
        self.upper = np.minimum(ub, self.dp)

    @property
    def blocks_done(self) -> set[int]:
        """Indices of the blocks of counts whose exact ``δ`` is known."""
        return set(self._exact)

    def _compute_block(self, b: int) -> None:
        lo = b * self.BLOCK
        hi = min(self.n, lo + self.BLOCK - 1)
        plo, phi = max(0, lo - 1), min(self.n - 1, hi)
        Ns = np.arange(plo, phi + 1, dtype=float)
        A, B, e = pair_distance_block(self.fam, Ns, self.eps)
        pair = np.maximum(A, B)
        idx = np.arange(lo, hi + 1)
        val = np.zeros(len(idx))
        er = np.zeros(len(idx))
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
        self.upper[lo : hi + 1] = np.minimum(self.upper[lo : hi + 1], val + er)

    def ensure(self, lo: int, hi: int) -> None:
        """Compute the exact ``δ(N)`` for ``lo <= N <= hi``."""
        lo, hi = max(0, lo), min(self.n, hi)
        for b in range(lo // self.BLOCK, hi // self.BLOCK + 1):
            if b not in self._exact:
                self._compute_block(b)

    def delta(self, lo: int, hi: int) -> tuple[np.ndarray, float]:
        """Exact ``δ(lo..hi)`` and the largest truncation bound among them."""
        lo, hi = max(0, lo), min(self.n, hi)
        self.ensure(lo, hi)
        b0, b1 = lo // self.BLOCK, hi // self.BLOCK
        vals = np.concatenate([self._exact[b][0] for b in range(b0, b1 + 1)])
        errs = np.concatenate([self._exact[b][1] for b in range(b0, b1 + 1)])
        off = lo - b0 * self.BLOCK
        return vals[off : off + hi - lo + 1], float(errs[off : off + hi - lo + 1].max(initial=0.0))


def _pmf_window(m: int, q: float, qc: float, log_tau: float) -> tuple[int, np.ndarray, float]:
    lo, hi, tail = binom_window(m, q, log_tau)
    if m == 0:
        return 0, np.ones(1), 0.0
    xs = np.arange(lo, hi + 1, dtype=float)
    return lo, np.exp(log_binom_pmf(xs, float(m), q, qc)), tail


def _mixture_law(a: int, qa: tuple[float, float], b: int, qb: tuple[float, float], log_tau: float) -> tuple[int, np.ndarray, float]:
    """Law of ``Bin(a, q_a) + Bin(b, q_b)`` on a window: offset, pmf, certified mass outside."""
    la, pa, ta = _pmf_window(a, qa[0], qa[1], log_tau)
    lb, pb, tb = _pmf_window(b, qb[0], qb[1], log_tau)
    return la + lb, np.convolve(pa, pb), ta + tb


def bb_maximise(table: DeltaTable, qa: tuple[float, float], qb: tuple[float, float], *, rtol: float = DEFAULT_RTOL,
                log_tau: float = DEFAULT_LOG_TAU, max_cells: int = MAX_CELLS,
                progress: Callable[[int], None] | None = None, laws: dict | None = None) -> dict:
    """Certified ``max_m E_m`` over ``m ∈ 0..n`` (``m`` agents at ``q_a``, ``n − m`` at ``q_b``); see module docstring.

    ``qa``/``qb`` are ``(q, 1 − q)`` pairs (``q`` = probability of record 1). Returns a dict with ``value``,
    ``m``, ``error_bound`` (branch-and-bound gap), ``truncation_bound``, ``evaluations`` and ``cells``. ``laws`` may
    be a dict shared between calls with the same ``n`` and vertices (e.g. several ``ε``) to reuse the count laws.
    """
    n, dp = table.n, table.dp
    laws = {} if laws is None else laws

    def law(a: int, b: int) -> tuple[int, np.ndarray, float]:
        key = (n, a, b, qa, qb, log_tau)
        if key not in laws:
            laws[key] = _mixture_law(a, qa, b, qb, log_tau)
        return laws[key]  # type: ignore[no-any-return]
    evals: dict[int, float] = {}
    trunc = [0.0]

    def E(m: int) -> float:
        if m not in evals:
            off, pmf, tail = law(m, n - m)
            d, e = table.delta(off, off + len(pmf) - 1)
            evals[m] = float(np.dot(pmf, d))
            trunc[0] = max(trunc[0], tail * dp + e)
            if progress is not None:
                progress(len(evals))
        return evals[m]

    def cheap(a: int, b: int) -> float:
        la, ha, ta = binom_window(a, qa[0], log_tau)
        lb, hb, tb = binom_window(n - b, qb[0], log_tau)
        lo, hi = la + lb, min(n, ha + hb + (b - a))
        return float(table.upper[lo : hi + 1].max()) + (ta + tb) * dp

    def sharp(a: int, b: int) -> float:
        off, pmf, tail = law(a, n - b)
        s = b - a
        hi = off + len(pmf) - 1
        table.ensure(off, hi)
        ext_hi = min(n, hi + s)
        g = table.upper[off : ext_hi + 1]
        h = _forward_max(g, s)  # h(c) = max_{0<=w<=s} g(c+w)
        return float(np.dot(pmf, h[: len(pmf)])) + tail * dp

    best_m = max((0, n), key=E) if qa != qb else n
    best = E(best_m)
    if qa == qb:
        return dict(value=best, m=n, error_bound=0.0, truncation_bound=trunc[0], evaluations=len(evals), cells=0)
    heap: list[tuple[float, int, int]] = [(-cheap(0, n), 0, n)]
    pruned_max, cells = 0.0, 0
    while heap:
        negu, a, b = heapq.heappop(heap)
        cells += 1
        if cells > max_cells:
            raise SizeLimitError(f"branch-and-bound exceeded max_cells = {max_cells} cells; raise rtol or max_cells")
        if b - a <= 1:
            continue
        slack = best * (1 + rtol)
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
    gap = max(0.0, pruned_max - best)
    return dict(value=best, m=best_m, error_bound=gap, truncation_bound=trunc[0], evaluations=len(evals), cells=cells)


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

    The pmfs are the package's one binomial/hypergeometric log-pmf (:func:`privgeom._numeric.log_binom_pmf`,
    :func:`~privgeom._numeric.log_hypergeom_pmf`) over all ``T + 1`` outputs, and the two directed distances of
    each pair of neighbouring counts ``(N, N + 1)`` are the package's one hockey-stick kernel
    (:func:`privgeom.analyses.hockey_stick_columns`) on these dense columns; ``δ(N)`` is the larger of the pairs at
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
