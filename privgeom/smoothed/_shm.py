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

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.limits import register_limit
from .._core.numeric import LogRational, fraction_str, limit_hint, log10_text, parse_int
from .._core.level import LevelLike, PrivacyLevel
from .._core.results import Result
from ..analyses import DeltaResult
from ._fastpath import (
    DEFAULT_RTOL, DEFAULT_TAIL, DeltaTable, bb_maximise, event_thresholds, family, pair_log_distance_block,
)
from ._reduction import count_compositions, hull_vertices, parse_distributions
from .._core.numbers import number_text

__all__ = ["SHMSmoothedDelta", "SHMDatabaseDelta", "shm_smoothed_delta", "shm_smoothed_sweep", "shm_database_delta"]

#: Largest ``(#histograms) x (#sample histograms)`` for the matrix fallback with ``k >= 3`` categories.
MAX_MATRIX_ENTRIES = 2_000_000
register_limit("shm_matrix_entries", globals(), "MAX_MATRIX_ENTRIES",
               "matrix entries of the k >= 3 category SHM fallback of shm_smoothed_delta")
#: Relative size of the truncation bound (against the value) below which the windows are wide enough.
TRUNCATION_RTOL = 1e-9
#: Smallest window mass tried when widening the windows (``e^{-690}``, above the smallest normal double).
SMALLEST_TAIL = 1e-290
#: Largest worst event (number of sample counts) that :func:`shm_database_delta` lists with its probabilities.
MAX_EVENT_OUTPUTS = 10_000
#: Floor of the widened window mass.
TAIL_FLOOR = 1e-300
#: When the truncation bound is too large, the next window mass is ``value · e^{-TAIL_MARGIN}``.
TAIL_MARGIN = 30.0
#: Largest number of branch-and-bound rounds with narrower windows (each round is bounded by ``smoothed_work``).
MAX_TAIL_ROUNDS = 4


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
    bracket : (float, float)
        The certified bracket ``[lower, upper]`` of the smoothed δ: ``lower = value`` and
        ``upper = value + error_bound + truncation_bound``. Narrow (relative ``rtol``) when ``complete``; when the
        search stopped at the work limit it is what the evaluated windows certify.
    log10, log10_bracket : float, (float, float)
        ``log10`` of ``value`` and of the bracket, computed in log space (finite even when the floats underflow).
    complete : bool
        False when the branch-and-bound stopped at the ``smoothed_work`` limit (``pg.set_limits(smoothed_work=…)``);
        ``work_needed`` is then a budget certainly enough to finish.
    counts : (int, int)
        Agents at each vertex at the maximiser (``vertices`` order).
    vertices : tuple
        ``q`` (probability of record 1) of the vertices of ``conv(Π)``.
    dp_delta : Fraction
        DP δ of SHM: ``T/n`` without replacement, ``1 − (1 − 1/n)^T`` with (Theorem 2, third item).
    evaluations, work, cells : int
        Expectations ``E_m`` evaluated, window evaluations (expectations and sharp cell bounds), cells visited.
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
    bracket: tuple[float, float] = (0.0, 0.0)
    log10: float = -math.inf
    log10_bracket: tuple[float, float] = (-math.inf, -math.inf)
    complete: bool = True
    work: int = 0
    work_needed: int = 0

    def __float__(self) -> float:
        return float(self.value)

    @property
    def upper(self) -> float:
        """Certified upper bound ``value + error_bound + truncation_bound`` (``bracket[1]``)."""
        return self.value + self.error_bound + self.truncation_bound

    def summary(self) -> str:
        how = "with" if self.replace else "without"
        verts = ", ".join(fraction_str(q) for q in self.vertices)
        lo, hi = (log10_text(v) for v in self.log10_bracket)
        stopped = "" if self.complete else (
            f"\n  stopped at the work limit smoothed_work after {self.work:,} window evaluations: the smoothed δ lies in "
            f"the certified bracket [{lo}, {hi}]; {limit_hint('smoothed_work', self.work_needed)}"
        )
        return (
            f"smoothed δ of SHM (n = {self.n}, T = {self.T}, {how} replacement) at ε = {self.eps}: "
            f"{log10_text(self.log10)}\n"
            f"  {'maximiser' if self.complete else 'best found'}: {self.counts} agents at the vertices q = {verts}\n"
            f"  certified: true value <= {hi} (branch-and-bound gap {number_text(self.error_bound, digits=2)}, "
            f"tails {number_text(self.truncation_bound, digits=2)}); DP δ = {fraction_str(self.dp_delta)} "
            f"({self.evaluations} expectations, {self.work} window evaluations, {self.seconds:.2f} s)" + stopped
        )


@dataclass(frozen=True)
class SHMDatabaseDelta(DeltaResult):
    """``δ_{ε,SHM}(x)`` at a database with ``N`` ones among ``n`` records (Definition 2), as a
    :class:`~privgeom.DeltaResult` over the replace-one edges at ``x`` (counts ``N − 1``, ``N``, ``N + 1``).

    ``delta`` (= ``value``) is the largest of the (up to) four directed hockey-stick distances at ``x``; ``edge``
    is the directed pair of counts attaining it. ``log10`` is its base-10 logarithm, computed in log space end to end
    (finite and right even when ``value`` underflows a double to 0.0; ``-inf`` only when δ(x) is provably 0).
    The worst event is a one-sided tail of the sample count (monotone likelihood ratio): ``threshold`` is its
    boundary and ``side`` its direction (``"<="`` or ``">="``), i.e. the event ``{Y side threshold}``. When it has at
    most ``MAX_EVENT_OUTPUTS`` (10,000) sample counts they are listed in ``outputs`` with ``p_event = P_a(S)`` and
    ``q_event = P_b(S)`` for the edge ``(a, b)``, so ``p_event − e^ε q_event = δ`` can be re-checked; above that
    ``outputs`` is empty and ``p_event``, ``q_event`` are NaN (the threshold alone describes the event).
    ``truncation_bound`` bounds the neglected tail mass and ``log10_truncation`` is its log10.
    """

    value: float = 0.0
    truncation_bound: float = 0.0
    n: int = 0
    T: int = 0
    N: int = 0
    replace: bool = False
    dp_delta: Fraction = Fraction(0)
    log10: float = -math.inf
    log10_truncation: float = -math.inf
    threshold: int | None = None
    side: str = ""

    def summary(self) -> str:
        how = "with" if self.replace else "without"
        zero = " (provably 0: the one-sided tails are empty)" if self.log10 == -math.inf else ""
        event = (f"; worst event: sample count {self.side} {self.threshold} on the edge {self.edge[0]} → {self.edge[1]}"
                 if self.threshold is not None and self.edge is not None else "")
        return (
            f"δ(x) of SHM (n = {self.n}, T = {self.T}, {how} replacement) at N = {self.N} ones, ε = {self.eps}: "
            f"{log10_text(self.log10)}{zero} (log10 = {self.log10:.2f}; tails <= "
            f"{log10_text(self.log10_truncation, 2)}){event}; DP δ = {fraction_str(self.dp_delta)}"
        )


def shm_database_delta(n: int, T: int, eps: LevelLike, N: int, replace: bool = False) -> SHMDatabaseDelta:
    """``δ_{ε,SHM}(x)`` for a database with ``N`` ones (Definition 2), exactly up to float rounding, in log space.

    Only the neighbours ``N ± 1`` matter: ``δ(N) = max`` of the four directed distances, each a one-sided tail sum
    (monotone likelihood ratio; docs/theory.md, "Smoothed DP"), so this is cheap even for ``n`` in the hundreds of
    billions. The sums are log-sum-exps of log-pmfs (Liu, Wang & Xia, Definition 2 and Theorem 2), so ``log10`` is
    finite and right far below the smallest double. The same number as
    ``privgeom.delta(shm(n, T, inputs="count"), edges at N, ε)`` (checked in ``tests/contracts``).

    Examples
    --------
    >>> r = shm_database_delta(10, 5, 0, 5)
    >>> abs(r.value - 5 / 21) < 1e-15, r.dp_delta, r.edge, (r.side, r.threshold)  # exact matrix: δ(5) = 5/21 at ε = 0
    (True, Fraction(1, 2), ('4', '5'), ('<=', 2))
    >>> tiny = shm_database_delta(10**12, 10**12 - 10**9, 1, 5 * 10**11)
    >>> tiny.value, round(tiny.log10, 2)   # underflows a double; the log10 is exact to ~1e-13 (mpmath)
    (0.0, -48228829.55)
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
    Nl = np.array(lows, dtype=float)
    A, B, ea, eb = pair_log_distance_block(fam, Nl, float(level.eps))
    # A[i] = ln d(lows[i], lows[i] + 1) on {Y <= y1}; B[i] = ln d(lows[i] + 1, lows[i]) on {Y >= y2}
    y1 = event_thresholds(fam, Nl, float(level.eps))
    cands = [(float(A[i]), (lows[i], lows[i] + 1), "<=", int(y1[0][i])) for i in range(len(lows))]
    cands += [(float(B[i]), (lows[i] + 1, lows[i]), ">=", int(y1[1][i])) for i in range(len(lows))]
    logv, (a, b), side, thr = max(cands, key=lambda c: c[0])
    log_err = float(np.logaddexp(ea, eb).max())
    ln10 = math.log(10)
    value = math.exp(logv)
    if logv > -math.inf:
        common.update(_event(fam, a, b, side, thr))
    else:  # provably 0: the worst event is empty
        common.update(p_event=0.0, q_event=0.0)
    return SHMDatabaseDelta(
        delta=value, edge=(str(a), str(b)), value=value, truncation_bound=math.exp(log_err), log10=logv / ln10,
        log10_truncation=log_err / ln10, threshold=thr if logv > -math.inf else None,
        side=side if logv > -math.inf else "", **common  # type: ignore[arg-type]
    )


def _event(fam: Any, a: int, b: int, side: str, thr: int) -> dict[str, Any]:
    """The worst event ``{Y side thr}`` of the directed pair ``(a, b)``, listed with ``P_a``, ``P_b`` of it when it
    has at most :data:`MAX_EVENT_OUTPUTS` outputs (``{}`` otherwise: the threshold alone describes it)."""
    lo, hi = (float(v[0]) for v in fam.support(np.array([float(a)])))
    first, last = (lo, float(thr)) if side == "<=" else (float(thr), hi)
    if last - first + 1 > MAX_EVENT_OUTPUTS:  # counted before any array is built
        return {}
    ys = np.arange(first, last + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = np.exp(fam.logpmf(np.full(len(ys), float(a)), ys))
        pb = np.exp(fam.logpmf(np.full(len(ys), float(b)), ys))
    pb = np.nan_to_num(pb, nan=0.0)
    return dict(outputs=tuple(str(int(y)) for y in ys), p_event=math.fsum(pa.tolist()), q_event=math.fsum(pb.tolist()))


def _matrix_fallback(n: int, T: int, eps: PrivacyLevel, rows: list, replace: bool) -> SHMSmoothedDelta:
    from ._catalogue import shm
    from ._smoothed import smoothed_delta

    k = len(rows[0])
    entries = count_compositions(n, k) * count_compositions(T, k)
    if entries > MAX_MATRIX_ENTRIES:
        raise SizeLimitError(
            f"the fast path handles two categories; with k = {k} categories SHM has {entries:,} matrix entries "
            f"(limit shm_matrix_entries = {MAX_MATRIX_ENTRIES:,}), refused before building; use smaller n, merge "
            f"categories (pre-processing, Proposition 4) or {limit_hint('shm_matrix_entries', entries)}"
        )
    t0 = time.perf_counter()
    r = smoothed_delta(shm(n, T, k, replace), eps, rows)
    return SHMSmoothedDelta(
        value=float(r.value), error_bound=float(r.error_bound), truncation_bound=0.0, n=n, T=T, eps=r.eps,
        replace=replace, vertices=tuple(tuple(v) for v in r.vertices), counts=r.counts or (),
        dp_delta=family(n, T, replace).dp_delta(), evaluations=r.evaluated, cells=0,
        seconds=time.perf_counter() - t0, bracket=(float(r.value), float(r.value) + float(r.error_bound)),
        log10=_log10(float(r.value)), log10_bracket=(_log10(float(r.value)), _log10(float(r.value + r.error_bound))),
        work=r.evaluated, work_needed=r.evaluated,
    )


def _log10(x: float) -> float:
    return math.log10(x) if x > 0 else -math.inf


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
    max_work: int | None = None,
    on_limit: str = "bracket",
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
        ``TRUNCATION_RTOL·value`` (1e-9) the computation is repeated with a smaller ``tail`` (at most
        ``MAX_TAIL_ROUNDS`` times; the search itself already narrows the windows to the endpoint value).
    max_work : int, optional
        Largest number of window evaluations of the branch-and-bound (default: the ``smoothed_work`` limit,
        ``pg.get_limits()["smoothed_work"]``). Every search here is bounded: the branch-and-bound by this work limit,
        the window and threshold bisections by ``log2`` of their range, the tail sums by the support.
    on_limit : {"bracket", "raise"}
        At the work limit return the certified bracket (``complete=False``; default) or raise
        :class:`~privgeom.SizeLimitError` naming the limit.

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
    return shm_smoothed_sweep(n, T, [eps], distributions, replace, rtol=rtol, tail=tail, progress=progress,
                              max_work=max_work, on_limit=on_limit)[0]


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
    max_work: int | None = None,
    on_limit: str = "bracket",
) -> tuple[SHMSmoothedDelta, ...]:
    """:func:`shm_smoothed_delta` at several ``ε`` for one ``n``, ``T`` and ``Π``, sharing the laws of the vertex
    counts between the ``ε`` (the election figure's sweeps and the CLI).

    Examples
    --------
    >>> [round(r.value, 6) for r in shm_smoothed_sweep(50, 40, [1.0, 2.0], ["1/10", "1/2"])]
    [0.347769, 0.347648]
    """
    n, T = _check(n, T, replace)
    if on_limit not in ("bracket", "raise"):
        raise InvalidParameterError(f"on_limit must be 'bracket' or 'raise', got {on_limit!r}")
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
    ln10 = math.log(10)
    for level in levels:
        t0 = time.perf_counter()
        table = DeltaTable(n, T, float(level.eps), replace)
        log_tau = math.log(tail)
        for _ in range(MAX_TAIL_ROUNDS):
            res = bb_maximise(table, pair(qa), pair(qb), rtol=rtol, log_tau=log_tau, progress=progress, laws=laws,
                              max_work=max_work)
            log_tau = res["log_tau"]
            if (not res["complete"] or res["log_value"] == -math.inf
                    or res["log_truncation"] <= math.log(TRUNCATION_RTOL) + res["log_value"]
                    or log_tau <= math.log(SMALLEST_TAIL)):
                break
            log_tau = max(math.log(TAIL_FLOOR), res["log_value"] - TAIL_MARGIN)
        if on_limit == "raise" and not res["complete"]:
            raise SizeLimitError(
                f"the smoothed-δ branch-and-bound of SHM (n = {n}, ε = {level.eps}) stopped at the work limit "
                f"smoothed_work = {res['limit']:,} window evaluations ({res['work']:,} done) with the certified "
                f"bracket [{number_text(res['value'])}, "
                f"{number_text(math.exp(res['log_upper']))}]; {limit_hint('smoothed_work', res['needed'])}"
            )
        m = int(res["m"])
        counts = (m, n - m) if len(verts) == 2 else (n,)
        log_hi = float(np.logaddexp(res["log_upper"], res["log_truncation"]))
        value = float(res["value"])
        out.append(SHMSmoothedDelta(
            value=value, error_bound=float(res["error_bound"]),
            truncation_bound=float(res["truncation_bound"]), n=n, T=T, eps=level.eps, replace=replace,
            vertices=tuple(verts), counts=counts, dp_delta=table.fam.dp_delta(), evaluations=int(res["evaluations"]),
            cells=int(res["cells"]), seconds=time.perf_counter() - t0,
            bracket=(value, value + float(res["error_bound"]) + float(res["truncation_bound"])),
            log10=res["log_value"] / ln10, log10_bracket=(res["log_value"] / ln10, log_hi / ln10),
            complete=bool(res["complete"]), work=int(res["work"]), work_needed=int(res["needed"]),
        ))
    return tuple(out)
