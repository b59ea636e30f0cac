"""The fast routes for the sampling-histogram mechanism (Liu, Wang & Xia, Section 5.1, Theorem 2, Section 6).

:func:`shm_smoothed_sweep` computes the smoothed δ of SHM with two categories for large ``n`` without ever building
the mechanism matrix (the route ``method="shm"`` of :func:`~privgeom.smoothed.smoothed_delta`, at several ``ε`` at
once); :func:`shm_database_delta` gives ``δ(x)`` at one database (the motivating example, Figure 1; the route
``method="shm"`` of :func:`~privgeom.smoothed.database_delta`). With ``k >= 3`` categories the smoothed δ is taken
on the exact matrix :func:`~privgeom.smoothed.shm`, refused above :data:`MAX_MATRIX_ENTRIES` by
:func:`check_matrix_size`.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.level import LevelLike, PrivacyLevel
from .._core.limits import register_limit
from .._core.hints import limit_hint
from .._core.limits import current_limit
from ._fastpath import (
    DEFAULT_RTOL,
    DEFAULT_TAIL,
    DeltaTable,
    bb_maximise,
    event_thresholds,
    family,
    pair_log_distance_block,
)
from ._reduction import count_compositions, hull_vertices, parse_distributions
from ._results import DatabaseDelta, SamplingHistogram, SmoothedDelta
from .._core.numbers import number_text

__all__ = ["shm_smoothed_sweep", "shm_database_delta", "check_matrix_size", "check_search_options"]

#: Largest ``(#histograms) x (#sample histograms)`` for the matrix fallback with ``k >= 3`` categories.
MAX_MATRIX_ENTRIES = 2_000_000
register_limit(
    "shm_matrix_entries",
    globals(),
    "MAX_MATRIX_ENTRIES",
    "matrix entries of SHM built by smoothed_delta for a SamplingHistogram (k >= 3 categories, matrix routes)",
)
#: Relative size of the truncation bound (against the value) below which the windows are wide enough.
TRUNCATION_RTOL = 1e-9
#: Largest worst event (number of sample counts) that :func:`shm_database_delta` lists with its probabilities.
MAX_EVENT_OUTPUTS = 10_000
#: When the truncation bound is too large, the next window mass is ``value · e^{-TAIL_MARGIN}``.
TAIL_MARGIN = 30.0
#: Largest number of branch-and-bound rounds with narrower windows (each round is bounded by ``smoothed_work``).
MAX_TAIL_ROUNDS = 4


def shm_database_delta(n: int, T: int, eps: LevelLike, N: Any, replace: bool = False) -> DatabaseDelta:
    """``δ_{ε,SHM}(x)`` for a database with ``N`` ones (Definition 2), exactly up to float rounding, in log space.

    Only the neighbours ``N ± 1`` matter: ``δ(N) = max`` of the four directed distances, each a one-sided tail sum
    (monotone likelihood ratio; docs/theory.md, "Smoothed DP"), so this is cheap even for ``n`` in the hundreds of
    billions. The sums are log-sum-exps of log-pmfs (Liu, Wang & Xia, Definition 2 and Theorem 2), so ``log10`` is
    finite and right far below the smallest double. The same number as
    ``privgeom.delta(shm(n, T, inputs="count"), edges at N, ε)`` (checked in ``tests/contracts``). The route
    ``method="shm"`` of :func:`~privgeom.smoothed.database_delta`.

    Examples
    --------
    >>> r = shm_database_delta(10, 5, 0, 5)
    >>> abs(r.value - 5 / 21) < 1e-15, r.edge, (r.side, r.threshold)  # exact matrix: δ(5) = 5/21 at ε = 0
    (True, ('4', '5'), ('<=', 2))
    >>> tiny = shm_database_delta(10**12, 10**12 - 10**9, 1, 5 * 10**11)
    >>> tiny.value, round(tiny.log10, 2)   # underflows a double; the log10 is exact to ~1e-13 (mpmath)
    (0.0, -48228829.55)
    """
    M = SamplingHistogram(n, T, replace)
    N = M.count(N)
    level = PrivacyLevel.coerce(eps)
    n = M.n
    fam = family(n, M.T, M.replace)
    lows = [v for v in (N - 1, N) if 0 <= v <= n - 1]
    common: dict[str, Any] = dict(
        level=level,
        exact=False,
        outputs=(),
        p_event=math.nan,
        q_event=math.nan,
        n_edges=len(lows),
        graph=f"replace-one edges at count {N}",
        detail=level.note,
        x=str(N),
        argmax=str(N),
        inputs=(str(N),),
        method="shm",
        mechanism=M,
    )
    if not lows:
        return DatabaseDelta(delta=0.0, edge=None, value=0.0, values=(0.0,), worst=(None,), **common)
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
    return DatabaseDelta(
        delta=value,
        edge=(str(a), str(b)),
        value=value,
        values=(value,),
        worst=(str(b if a == N else a),),
        truncation_bound=math.exp(log_err),
        log10=logv / ln10,
        log10_truncation=log_err / ln10,
        threshold=thr if logv > -math.inf else None,
        side=side if logv > -math.inf else "",
        **common,
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


def check_matrix_size(M: SamplingHistogram, k: int, method: str) -> None:
    """Refuse, before building it, a matrix of SHM with ``k`` categories above :data:`MAX_MATRIX_ENTRIES` entries
    (the limit ``shm_matrix_entries``)."""
    entries = count_compositions(M.n, k) * count_compositions(M.T, k)
    if entries <= current_limit("shm_matrix_entries"):
        return
    why = (
        f"the fast path handles two categories; with k = {k} categories"
        if k != 2
        else f"method={method!r} works on the matrix:"
    )
    raise SizeLimitError(
        f"{why} SHM has {entries:,} matrix entries (limit shm_matrix_entries = "
        f"{current_limit('shm_matrix_entries'):,}), refused "
        f"before building; use smaller n, merge categories (pre-processing, Proposition 4) or "
        f"{limit_hint('shm_matrix_entries', entries)}"
    )


def check_search_options(rtol: float, tail: float, on_limit: str) -> None:
    """Validate the options of the branch-and-bound (:func:`shm_smoothed_sweep`)."""
    if on_limit not in ("bracket", "raise"):
        raise InvalidParameterError(f"on_limit must be 'bracket' or 'raise', got {on_limit!r}")
    if not (isinstance(rtol, (int, float)) and 0 <= rtol < 1):
        raise InvalidParameterError(f"rtol must lie in [0, 1), got {rtol!r}")
    if not (isinstance(tail, (int, float)) and 0 < tail < 1):
        raise InvalidParameterError(f"tail must lie in (0, 1), got {tail!r}")


def shm_smoothed_sweep(
    n: int,
    T: int,
    eps_values: Sequence[LevelLike],
    distributions: Any,
    replace: bool = False,
    *,
    rtol: float = DEFAULT_RTOL,
    tail: float = DEFAULT_TAIL,
    progress: Callable[[int], None] | None = None,
    max_work: int | None = None,
    on_limit: str = "bracket",
) -> tuple[SmoothedDelta, ...]:
    """Smoothed δ of the two-category sampling-histogram mechanism (Definition 3, Theorem 2) at several ``ε`` for
    one ``n``, ``T`` and ``Π``, sharing the laws of the vertex counts between the ``ε`` (the election figure's
    sweeps and the CLI); the route ``method="shm"`` of :func:`~privgeom.smoothed.smoothed_delta`, whose docstring
    describes the options.

    A certified branch-and-bound over the number of agents at each vertex of ``conv(Π)`` (Proposition 5), in log
    space (:mod:`._fastpath`; docs/theory.md, "Smoothed DP"); if the truncation bound is not below
    ``TRUNCATION_RTOL·value`` the search is repeated with narrower windows (at most ``MAX_TAIL_ROUNDS`` times).

    Examples
    --------
    >>> [round(r.value, 6) for r in shm_smoothed_sweep(50, 40, [1.0, 2.0], ["1/10", "1/2"])]
    [0.347769, 0.347648]
    """
    M = SamplingHistogram(n, T, replace)
    check_search_options(rtol, tail, on_limit)
    levels = [PrivacyLevel.coerce(e) for e in eps_values]
    rows, exact = parse_distributions(distributions)
    if len(rows[0]) != 2:
        raise InvalidParameterError(
            f"method='shm' handles two records (votes 0 and 1), got distributions over "
            f"{len(rows[0])} records; use method='auto' (the matrix) for more categories"
        )
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
        table = DeltaTable(M.n, M.T, float(level.eps), M.replace)
        log_tau = math.log(tail)
        for _ in range(MAX_TAIL_ROUNDS):
            res = bb_maximise(
                table, pair(qa), pair(qb), rtol=rtol, log_tau=log_tau, progress=progress, laws=laws, max_work=max_work
            )
            log_tau = res.log_tau
            if (
                not res.complete
                or res.log_value == -math.inf
                or res.log_truncation <= math.log(TRUNCATION_RTOL) + res.log_value
            ):
                break
            # the window laws are log-pmfs with log tails (:mod:`._fastpath`): the mass may go far below a double
            narrower = min(res.log_value - TAIL_MARGIN, log_tau - TAIL_MARGIN)
            log_tau = narrower
        if on_limit == "raise" and not res.complete:
            raise SizeLimitError(
                f"the smoothed-δ branch-and-bound of SHM (n = {M.n}, ε = {level.eps}) stopped at the work limit "
                f"smoothed_work = {res.limit:,} window evaluations ({res.work:,} done) with the certified "
                f"bracket [{number_text(res.value)}, "
                f"{number_text(math.exp(res.log_upper))}]; {limit_hint('smoothed_work', res.needed)}"
            )
        m = int(res.m)
        counts = (m, M.n - m) if len(verts) == 2 else (M.n,)
        log_hi = float(np.logaddexp(res.log_upper, res.log_truncation))
        out.append(
            SmoothedDelta(
                value=float(res.value),
                error_bound=float(res.error_bound),
                truncation_bound=float(res.truncation_bound),
                exact=False,
                level=level,
                n=M.n,
                records=("0", "1"),
                vertices=tuple((1 - q, q) for q in verts),
                counts=counts,
                assignment=(),
                method="shm",
                evaluated=int(res.evaluations),
                dp_delta=table.fam.dp_delta(),
                log10=res.log_value / ln10,
                log10_upper=log_hi / ln10,
                complete=bool(res.complete),
                work=int(res.work),
                work_needed=int(res.needed),
                cells=int(res.cells),
                seconds=time.perf_counter() - t0,
                mechanism=M,
            )
        )
    return tuple(out)
