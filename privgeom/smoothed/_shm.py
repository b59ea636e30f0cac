"""Public fast path for the sampling-histogram mechanism (Liu, Wang & Xia, Section 5.1, Theorem 2, Section 6).

:func:`shm_smoothed_delta` computes the smoothed δ of SHM with two categories for large ``n`` without ever building
the mechanism matrix; :func:`shm_database_delta` gives ``δ(x)`` at one database (the motivating example, Figure 1).
For ``k >= 3`` categories and small ``n`` it falls back to the exact matrix :func:`~privgeom.smoothed.shm` and
:func:`~privgeom.smoothed.smoothed_delta`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from .._errors import InvalidParameterError, SizeLimitError
from .._numeric import LogRational, fraction_str, parse_int
from .._level import LevelLike, PrivacyLevel
from .._results import Result
from ..analyses import DeltaResult
from ._fastpath import DEFAULT_RTOL, DEFAULT_TAIL, DeltaTable, bb_maximise, family, pair_distance_block
from ._reduction import count_compositions, hull_vertices, parse_distributions

__all__ = ["SHMSmoothedDelta", "SHMDatabaseDelta", "shm_smoothed_delta", "shm_smoothed_sweep", "shm_database_delta"]

#: Largest ``(#histograms) x (#sample histograms)`` for the matrix fallback with ``k >= 3`` categories.
MAX_MATRIX_ENTRIES = 2_000_000
#: Relative size of the truncation bound (against the value) below which the windows are wide enough.
TRUNCATION_RTOL = 1e-9
#: Smallest window mass tried when widening the windows (``e^{-690}``, above the smallest normal double).
SMALLEST_TAIL = 1e-290
#: Floor of the widened window mass.
TAIL_FLOOR = 1e-300
#: When the truncation bound is too large, the next window mass is ``value · e^{-TAIL_MARGIN}``.
TAIL_MARGIN = 30.0


def _check(n: Any, T: Any, replace: bool) -> tuple[int, int]:
    n, T = parse_int(n, name="n"), parse_int(T, name="T")
    if n < 1 or T < 0:
        raise InvalidParameterError(f"need n >= 1 and T >= 0, got n = {n}, T = {T}")
    if not replace and T > n:
        raise InvalidParameterError(f"without replacement T must be <= n, got T = {T} > n = {n}")
    return n, T


@dataclass(frozen=True)
class SHMSmoothedDelta(Result):
    """Smoothed δ of the two-category sampling-histogram mechanism (Definition 3, Theorem 2).

    Attributes
    ----------
    value : float
        ``max_m E[δ(N)]`` found (a certified lower bound of the smoothed δ up to float rounding).
    error_bound : float
        Branch-and-bound gap: the true maximum over the vertex counts is at most ``value + error_bound``.
    truncation_bound : float
        Rigorous bound on every neglected tail (binomial windows, hypergeometric/binomial remainders).
    counts : (int, int)
        Agents at each vertex at the maximiser (``vertices`` order).
    vertices : tuple
        ``q`` (probability of record 1) of the vertices of ``conv(Π)``.
    dp_delta : Fraction
        DP δ of SHM: ``T/n`` without replacement, ``1 − (1 − 1/n)^T`` with (Theorem 2, third item).
    exact : bool
        Always False: the value is a float (certified by ``error_bound`` and ``truncation_bound``).

    ``float(r)`` is ``r.value``.
    """

    value: float
    error_bound: float
    truncation_bound: float
    n: int
    T: int
    eps: LogRational | float
    replace: bool
    vertices: tuple[Any, ...]
    counts: tuple[int, ...]
    dp_delta: Fraction
    evaluations: int
    cells: int
    seconds: float
    exact: bool = False

    def __float__(self) -> float:
        return float(self.value)

    @property
    def upper(self) -> float:
        """Certified upper bound ``value + error_bound + truncation_bound``."""
        return self.value + self.error_bound + self.truncation_bound

    def summary(self) -> str:
        how = "with" if self.replace else "without"
        verts = ", ".join(fraction_str(q) for q in self.vertices)
        return (
            f"smoothed δ of SHM (n = {self.n}, T = {self.T}, {how} replacement) at ε = {self.eps}: {self.value:.6g}\n"
            f"  maximiser: {self.counts} agents at the vertices q = {verts}\n"
            f"  certified: true value <= {self.upper:.6g} (branch-and-bound gap {self.error_bound:.2g}, "
            f"tails {self.truncation_bound:.2g}); DP δ = {fraction_str(self.dp_delta)} "
            f"({self.evaluations} expectations, {self.seconds:.2f} s)"
        )


@dataclass(frozen=True)
class SHMDatabaseDelta(DeltaResult):
    """``δ_{ε,SHM}(x)`` at a database with ``N`` ones among ``n`` records (Definition 2), as a
    :class:`~privgeom.DeltaResult` over the replace-one edges at ``x`` (counts ``N − 1``, ``N``, ``N + 1``).

    ``delta`` (= ``value``) is the largest of the (up to) four directed hockey-stick distances at ``x``; ``edge``
    is the directed pair of counts attaining it. The worst event is a one-sided tail of the sample count (monotone
    likelihood ratio), summed outward without listing its outputs, so ``outputs`` is empty and ``p_event``,
    ``q_event`` are NaN (not computed); ``truncation_bound`` bounds the neglected tail mass.
    """

    value: float = 0.0
    truncation_bound: float = 0.0
    n: int = 0
    T: int = 0
    N: int = 0
    replace: bool = False
    dp_delta: Fraction = Fraction(0)

    def summary(self) -> str:
        how = "with" if self.replace else "without"
        log10 = math.log10(self.value) if self.value > 0 else -math.inf
        return (
            f"δ(x) of SHM (n = {self.n}, T = {self.T}, {how} replacement) at N = {self.N} ones, ε = {self.eps}: "
            f"{self.value:.6g} (log10 = {log10:.2f}; tails <= {self.truncation_bound:.2g}); "
            f"DP δ = {fraction_str(self.dp_delta)}"
        )


def shm_database_delta(n: int, T: int, eps: LevelLike, N: int, replace: bool = False) -> SHMDatabaseDelta:
    """``δ_{ε,SHM}(x)`` for a database with ``N`` ones (Definition 2), exactly up to float rounding.

    Only the neighbours ``N ± 1`` matter: ``δ(N) = max`` of the four directed distances, each a one-sided tail sum
    (monotone likelihood ratio), so this is cheap even for ``n`` in the hundreds of millions. The same number as
    ``privgeom.delta(shm(n, T, inputs="count"), edges at N, ε)`` (checked in ``tests/contracts``).

    Examples
    --------
    >>> r = shm_database_delta(10, 5, 0, 5)
    >>> abs(r.value - 5 / 21) < 1e-15, r.dp_delta, r.edge  # the exact matrix gives δ(5) = 5/21 at ε = 0
    (True, Fraction(1, 2), ('4', '5'))
    """
    n, T = _check(n, T, replace)
    N = parse_int(N, name="N", min=0)
    if N > n:
        raise InvalidParameterError(f"N must be an integer in 0..{n}, got {N!r}")
    level = PrivacyLevel.coerce(eps)
    fam = family(n, T, replace)
    lows = [v for v in (N - 1, N) if 0 <= v <= n - 1]
    common = dict(
        eps=level.eps, exp_eps=float(level.exp_eps), exact=False, outputs=(), p_event=math.nan, q_event=math.nan,
        n_edges=len(lows), graph=f"replace-one edges at count {N}", detail=level.note, n=n, T=T, N=N, replace=replace,
        dp_delta=fam.dp_delta(),
    )
    if not lows:
        return SHMDatabaseDelta(delta=0.0, edge=None, value=0.0, truncation_bound=0.0, **common)  # type: ignore[arg-type]
    A, B, err = pair_distance_block(fam, np.array(lows, dtype=float), float(level.eps))
    # A[i] = d(lows[i], lows[i] + 1), B[i] = d(lows[i] + 1, lows[i])
    cands = [(float(A[i]), (lows[i], lows[i] + 1)) for i in range(len(lows))]
    cands += [(float(B[i]), (lows[i] + 1, lows[i])) for i in range(len(lows))]
    value, (a, b) = max(cands, key=lambda c: c[0])
    return SHMDatabaseDelta(
        delta=value, edge=(str(a), str(b)), value=value, truncation_bound=float(err.max()), **common  # type: ignore[arg-type]
    )


def _matrix_fallback(n: int, T: int, eps: PrivacyLevel, rows: list, replace: bool) -> SHMSmoothedDelta:
    from ._catalogue import shm
    from ._smoothed import smoothed_delta

    k = len(rows[0])
    entries = count_compositions(n, k) * count_compositions(T, k)
    if entries > MAX_MATRIX_ENTRIES:
        raise SizeLimitError(
            f"the fast path handles two categories; with k = {k} categories SHM has {entries:,} matrix entries "
            f"(limit {MAX_MATRIX_ENTRIES:,}) — use smaller n or merge categories (pre-processing, Proposition 4)"
        )
    t0 = time.perf_counter()
    r = smoothed_delta(shm(n, T, k, replace), eps, rows)
    return SHMSmoothedDelta(
        value=float(r.value), error_bound=float(r.error_bound), truncation_bound=0.0, n=n, T=T, eps=r.eps,
        replace=replace, vertices=tuple(tuple(v) for v in r.vertices), counts=r.counts or (),
        dp_delta=family(n, T, replace).dp_delta(), evaluations=r.evaluated, cells=0,
        seconds=time.perf_counter() - t0,
    )


def shm_smoothed_delta(
    n: int,
    T: int,
    eps: LevelLike,
    distributions: Any,
    replace: bool = False,
    *,
    rtol: float = DEFAULT_RTOL,
    tail: float = DEFAULT_TAIL,
    progress: Callable[[int], None] | None = None,
) -> SHMSmoothedDelta:
    """Smoothed δ of the sampling-histogram mechanism for large ``n`` (Definition 3, Theorem 2), exactly.

    Parameters
    ----------
    n, T : int
        Agents and sample size (``T = n − lost`` in the election experiment).
    eps : ε (float, rational, LogRational, ``"ln(r)"`` or PrivacyLevel)
    distributions : probability vectors over the two records, ``[[1 − q, q], …]`` (or bare ``q``)
        Only the vertices of their convex hull matter (Proposition 5): the smallest and largest ``q``.
    replace : bool
        Sample with replacement.
    rtol : float
        Branch-and-bound tolerance: cells whose certified upper bound is within ``value·(1 + rtol)`` are not split
        further (the gap is reported in ``error_bound``). ``rtol=0`` resolves every competitive cell exactly.
    tail : float
        Mass allowed outside the binomial windows; if the resulting ``truncation_bound`` is not below
        ``TRUNCATION_RTOL·value`` (1e-9) the computation is repeated with a smaller ``tail``.

    Returns
    -------
    SHMSmoothedDelta

    Examples
    --------
    Ten voters, one vote lost, ``π ∈ conv{Bernoulli(1/10), Bernoulli(1/2)}``:

    >>> r = shm_smoothed_delta(10, 9, 1.0, ["1/10", "1/2"])
    >>> r.counts, round(r.value, 6), r.dp_delta, r.exact
    ((10, 0), 0.865163, Fraction(9, 10), False)
    >>> from privgeom.smoothed import shm, smoothed_delta   # the exact matrix agrees
    >>> round(smoothed_delta(shm(10, 9, inputs="count"), 1.0, ["1/10", "1/2"]).value, 6)
    0.865163
    """
    return shm_smoothed_sweep(n, T, [eps], distributions, replace, rtol=rtol, tail=tail, progress=progress)[0]


def shm_smoothed_sweep(
    n: int,
    T: int,
    eps_values: Sequence[Any],
    distributions: Any,
    replace: bool = False,
    *,
    rtol: float = DEFAULT_RTOL,
    tail: float = DEFAULT_TAIL,
    progress: Callable[[int], None] | None = None,
) -> tuple[SHMSmoothedDelta, ...]:
    """:func:`shm_smoothed_delta` at several ``ε`` for one ``n``, ``T`` and ``Π``, sharing the laws of the vertex
    counts between the ``ε`` (the election figure's sweeps and the CLI).

    Examples
    --------
    >>> [round(r.value, 6) for r in shm_smoothed_sweep(50, 40, [1.0, 2.0], ["1/10", "1/2"])]
    [0.347769, 0.347648]
    """
    n, T = _check(n, T, replace)
    levels = [PrivacyLevel.coerce(e) for e in eps_values]
    if not (isinstance(rtol, (int, float)) and 0 <= rtol < 1):
        raise InvalidParameterError(f"rtol must lie in [0, 1), got {rtol!r}")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise InvalidParameterError(f"tail must lie in (0, 1), got {tail!r}")
    rows, exact = parse_distributions(distributions)
    if len(rows[0]) != 2:
        return tuple(_matrix_fallback(n, T, level, rows, replace) for level in levels)
    vidx = hull_vertices(rows, exact=exact)
    verts = sorted({rows[i][1] for i in vidx})
    qa = verts[0]
    qb = verts[-1]
    pair = lambda q: (float(q), float(1 - q) if isinstance(q, Fraction) else 1.0 - float(q))  # noqa: E731
    laws: dict = {}
    out = []
    for level in levels:
        t0 = time.perf_counter()
        table = DeltaTable(n, T, float(level.eps), replace)
        log_tau = math.log(tail)
        while True:
            res = bb_maximise(table, pair(qa), pair(qb), rtol=rtol, log_tau=log_tau, progress=progress, laws=laws)
            if (res["truncation_bound"] <= TRUNCATION_RTOL * res["value"] or res["value"] == 0
                    or log_tau <= math.log(SMALLEST_TAIL)):
                break
            log_tau = max(math.log(TAIL_FLOOR), math.log(res["value"]) - TAIL_MARGIN)
        m = int(res["m"])
        counts = (m, n - m) if len(verts) == 2 else (n,)
        out.append(SHMSmoothedDelta(
            value=float(res["value"]), error_bound=float(res["error_bound"]),
            truncation_bound=float(res["truncation_bound"]), n=n, T=T, eps=level.eps, replace=replace,
            vertices=tuple(verts), counts=counts, dp_delta=table.fam.dp_delta(), evaluations=int(res["evaluations"]),
            cells=int(res["cells"]), seconds=time.perf_counter() - t0,
        ))
    return tuple(out)
