"""The laws behind the shuffled tally: exact rationals for any neighbouring pair, log space for the clone pairs.

``n`` users apply a local mechanism ``R`` (``k`` inputs, ``m`` outputs; column ``R[:, x]`` is the law of the report
of a user holding ``x``) and only the histogram ``H`` of the ``n`` reports is published. The law of ``H`` for a
dataset is a Poisson-multinomial: the convolution of one multinomial per distinct input
(:func:`privgeom.smoothed._reduction.histogram_law`, the package's one exact Poisson-multinomial). Two neighbouring
datasets differ in the input of one user, ``a`` or ``b``; the others form the histogram ``others`` of their inputs.

**Clone pairs** (``docs/theory.md`` §18.2). When the other ``n − 1`` users all hold one input ``c`` with report law
``π = R[:, c]``, and ``π_j > 0`` on the outputs ``J₊``, the law of the tally is a multinomial times a linear factor::

    P_a(h) = Mult(n, π)(h) · ℓ_a(h) / n,     ℓ_a(h) = Σ_j R[j, a] h_j / π_j          (h supported on J₊)

(and ``P_a(h) = R[j, a]`` summed over the others' laws when ``h`` puts the single report of an output ``j ∉ J₊``
there). So ``δ(ε) = E_{H ~ Mult(n, π)}[(ℓ_a(H) − e^ε ℓ_b(H))₊] / n + Σ_{j ∉ J₊} (R[j, a] − e^ε R[j, b])₊``: a sum of
positive terms, with no cancellation, over the multinomial with the outputs of equal coefficient pairs
``(R[j, a]/π_j, R[j, b]/π_j)`` merged (binary reports: one dimension; ``k``-ary randomized response: at most three
merged categories for a pair of neighbours whose others hold one of the pair's inputs, four otherwise).

The log-space route sums the positive terms with Loader's binomial log-pmf (:func:`privgeom._core.logpmf.log_binom_pmf`)
and returns a first-order bound on the relative error: the weighted mean of the per-term bounds (the log-pmf's
stated accuracy, ``16 u (1 + |ln P|)`` with ``u = 2^-53``, plus the rounding of the linear factor), plus the
certified mass of the rows skipped by Chernoff's bound (two merged dimensions).

Examples
--------
>>> from fractions import Fraction as F
>>> R = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]            # binary randomized response, rows = reports 1, 0
>>> exact_pair_delta(R, (1, 0), 0, 1, F(1))                  # n = 2: the other user holds input 0
Fraction(3, 8)
>>> clone_delta_exact(R, 2, 1, 0, 1, F(1))                   # the same pair through the clone closed form
Fraction(3, 8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.logpmf import log_binom_pmf
from .._core.numbers import Scalar
from ..analyses.profiles._hockey_stick import hockey_stick
from ..smoothed._pmf import chernoff_log_tail
from ..smoothed._reduction import histogram_law

__all__ = [
    "Merged",
    "TailSum",
    "merge_clone",
    "exact_pair_laws",
    "exact_pair_delta",
    "clone_delta_exact",
    "clone_delta_log",
    "clone_epsilon",
    "dissenter_delta_log",
    "UNIT_ROUNDOFF",
]

#: The unit roundoff of float64, ``u = 2^-53``.
UNIT_ROUNDOFF = 2.0**-53
#: Relative error bound of one log-pmf term, in units of ``u (1 + |ln P|)`` (Loader 2000: a few ulps near the mode,
#: ``ulp(|ln P|)`` in the far tails; the factor is generous).
_LOADER_ULPS = 16.0
#: Rows of a two-dimensional sum evaluated together.
_ROW_BLOCK = 64
#: A row window is widened when the certified mass beyond its edges exceeds this fraction of the row's sum.
_WINDOW_FRACTION = 1e-17
#: Skipped rows may carry at most this fraction of the sum (certified by Chernoff's bound on each row).
_SKIP_FRACTION = 1e-14


# ------------------------------------------------------------------------------------------------ exact, any pair
def exact_pair_laws(
    R: Sequence[Sequence[Scalar]], others: Sequence[int], a: int, b: int
) -> tuple[list[tuple[int, ...]], list[Scalar], list[Scalar]]:
    """The two laws of the tally for the datasets ``others + a`` and ``others + b`` on their joint support.

    ``R`` is the local mechanism as rows (``R[j][x]``), ``others[x]`` the number of other users holding input
    ``x``. Exact when the entries are Fractions (the Poisson-multinomial of
    :func:`privgeom.smoothed._reduction.histogram_law`).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> hs, P, Q = exact_pair_laws([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], (0, 0), 0, 1)
    >>> hs, [str(p) for p in P], [str(q) for q in Q]
    ([(0, 1), (1, 0)], ['1/4', '3/4'], ['3/4', '1/4'])
    """
    k = len(R[0])
    cols = [[R[j][x] for j in range(len(R))] for x in range(k)]
    ca = [c + (x == a) for x, c in enumerate(others)]
    cb = [c + (x == b) for x, c in enumerate(others)]
    la, lb = histogram_law(ca, cols), histogram_law(cb, cols)
    support = sorted(set(la) | set(lb))
    zero: Scalar = Fraction(0) if isinstance(next(iter(la.values())), Fraction) else 0.0
    return support, [la.get(h, zero) for h in support], [lb.get(h, zero) for h in support]


def exact_pair_delta(R: Sequence[Sequence[Scalar]], others: Sequence[int], a: int, b: int, exp_eps: Scalar) -> Scalar:
    """``δ(ε) = E_{e^ε}(P_a ‖ P_b)`` of the tally for one ordered neighbouring pair (exact for rational data)."""
    _, P, Q = exact_pair_laws(R, others, a, b)
    return hockey_stick(P, Q, exp_eps)


# ------------------------------------------------------------------------------------------------ clone pairs
@dataclass(frozen=True)
class Merged:
    """A clone pair reduced to merged output categories.

    ``probs[c]`` is the mass ``Σ_j π_j`` of merged category ``c`` (outputs of equal ``(R[j, a]/π_j, R[j, b]/π_j)``),
    ``u[c]``, ``v[c]`` those coefficients; ``lone`` lists ``(R[j, a], R[j, b])`` for the outputs the others never
    report (``π_j = 0``).
    """

    probs: tuple[Scalar, ...]
    u: tuple[Scalar, ...]
    v: tuple[Scalar, ...]
    lone: tuple[tuple[Scalar, Scalar], ...]


def merge_clone(R: Sequence[Sequence[Scalar]], c: int, a: int, b: int) -> Merged:
    """Merge the outputs of the clone pair (others hold ``c``; user 1 holds ``a`` or ``b``) by coefficient pair.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> t, s = F(2, 4), F(1, 4)      # 3-ary randomized response with e^ε0 = 2: p = 1/2, q = 1/4
    >>> R = [[t, s, s], [s, t, s], [s, s, t]]
    >>> [len(merge_clone(R, c, 0, 1).probs) for c in (0, 1, 2)]
    [3, 3, 3]
    """
    groups: dict[tuple[Any, Any], int] = {}
    probs: list[Scalar] = []
    us: list[Scalar] = []
    vs: list[Scalar] = []
    lone: list[tuple[Scalar, Scalar]] = []
    for j in range(len(R)):
        pj = R[j][c]
        if pj == 0:
            if R[j][a] != 0 or R[j][b] != 0:
                lone.append((R[j][a], R[j][b]))
            continue
        key = (R[j][a] / pj, R[j][b] / pj)
        if key in groups:
            probs[groups[key]] += pj
        else:
            groups[key] = len(probs)
            probs.append(pj)
            us.append(key[0])
            vs.append(key[1])
    return Merged(tuple(probs), tuple(us), tuple(vs), tuple(lone))


def clone_epsilon(merged: Merged) -> tuple[Scalar, bool]:
    """``max_h P_a(h)/P_b(h)`` of a clone pair and whether it is attained (``(ratio, True)``; ``inf`` if unbounded).

    The ratio of two linear forms in ``h`` is largest at a vertex ``h = n e_c`` of the simplex (or on a lone
    output): ``max_c u_c / v_c`` (``docs/theory.md`` §18.2).
    """
    ratios: list[Scalar] = []
    for u, v in list(zip(merged.u, merged.v)) + list(merged.lone):
        if u == 0:
            continue
        if v == 0:
            return math.inf, True
        ratios.append(u / v)
    return (max(ratios) if ratios else Fraction(0)), True


def _lone_part(merged: Merged, t: Scalar) -> Scalar:
    zero: Scalar = 0
    return sum((max(ua - t * ub, zero) for ua, ub in merged.lone), zero)


def clone_delta_exact(R: Sequence[Sequence[Scalar]], n: int, c: int, a: int, b: int, t: Fraction) -> Fraction:
    """Exact ``δ`` of the clone pair ``(c^{n−1} a, c^{n−1} b)`` at ``e^ε = t`` from the closed form (one or two merged
    dimensions; Fractions throughout).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> R = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    >>> clone_delta_exact(R, 3, 0, 0, 1, F(2))     # = exact_pair_delta(R, (2, 0), 0, 1, 2)
    Fraction(9, 64)
    """
    mg = merge_clone(R, c, a, b)
    w = [Fraction(u) - t * Fraction(v) for u, v in zip(mg.u, mg.v)]
    P = [Fraction(p) for p in mg.probs]
    total = Fraction(0)
    d = len(P)
    if d == 1:
        total = max(w[0], Fraction(0))
    elif d == 2:
        for x in range(n + 1):
            g = w[0] * x + w[1] * (n - x)
            if g > 0:
                total += math.comb(n, x) * P[0] ** x * P[1] ** (n - x) * g
        total /= n
    elif d == 3:
        for x in range(n + 1):
            for y in range(n - x + 1):
                g = w[0] * x + w[1] * y + w[2] * (n - x - y)
                if g > 0:
                    total += math.comb(n, x) * math.comb(n - x, y) * P[0] ** x * P[1] ** y * P[2] ** (n - x - y) * g
        total /= n
    else:
        raise InvalidParameterError(f"the clone closed form handles up to 3 merged output categories, got {d}")
    return total + Fraction(_lone_part(mg, t))


@dataclass(frozen=True)
class TailSum:
    """A sum of positive terms known through its logarithm, with a bound on its relative error."""

    log_value: float
    rel_error: float
    terms: int


def _logsum(logs: np.ndarray, errs: np.ndarray) -> tuple[float, float, int]:
    """``ln Σ e^{logs}`` and the weighted mean of the per-term relative errors ``errs``."""
    if logs.size == 0:
        return -math.inf, 0.0, 0
    top = float(np.max(logs))
    if top == -math.inf:
        return -math.inf, 0.0, 0
    wts = np.exp(logs - top)
    s = float(np.sum(wts))
    return top + math.log(s), float(np.dot(wts, errs) / s), int(logs.size)


def _term_errors(logp: np.ndarray, g_abs_err: np.ndarray, g: np.ndarray) -> np.ndarray:
    u = UNIT_ROUNDOFF
    return _LOADER_ULPS * u * (1.0 + np.abs(logp)) + g_abs_err / g + 8 * u


def _positive_range(w_x: float, w_rest: float, n: int) -> tuple[int, int]:
    """Integers ``x ∈ [0, n]`` with ``w_rest + w_x x > 0`` may lie in the returned range (one extra on each side)."""
    if w_x == 0:
        return (0, n) if w_rest > 0 else (1, 0)
    x0 = -w_rest / w_x
    if w_x > 0:
        return max(0, math.floor(x0)), n
    return 0, min(n, math.ceil(x0))


def clone_delta_log(merged: Merged, n: int, t: float) -> TailSum:
    """``ln δ`` of a clone pair in float log space, with a first-order bound on its relative error.

    ``merged`` comes from :func:`merge_clone` (float entries); ``t = e^ε``. One merged dimension is summed over
    the whole positive half-line of ``Bin(n, π₁)`` (vectorised; ``n`` up to ``10^6`` and beyond); two dimensions row
    by row of ``Bin(n, π₁)``, each row a half-line of ``Bin(n − x, π₂/(π₂ + π₃))``, rows taken in decreasing order
    of their Chernoff bound until the rest is certified below ``1e-14`` of the sum.
    """
    u = UNIT_ROUNDOFF
    probs = [float(p) for p in merged.probs]
    us = [float(v) for v in merged.u]
    vs = [float(v) for v in merged.v]
    w = [a - t * b for a, b in zip(us, vs)]
    werr = [2 * u * (abs(a) + abs(t * b)) + u * abs(t * b) for a, b in zip(us, vs)]  # |fl(w) − w|
    lone = float(_lone_part(merged, t))
    d = len(probs)
    if d == 1:
        log_main, err_main, count = (math.log(w[0]), 4 * u, 1) if w[0] > 0 else (-math.inf, 0.0, 0)
    elif d == 2:
        log_main, err_main, count = _one_dim(probs, w, werr, n)
    elif d == 3:
        log_main, err_main, count = _two_dim(probs, w, werr, n)
    else:
        raise InvalidParameterError(
            f"the log-space route handles clone pairs with at most 3 merged output categories, got {d}; "
            "use a smaller n for the exact route"
        )
    if lone > 0:
        ll = math.log(lone)
        top = max(ll, log_main)
        wa, wb = math.exp(log_main - top), math.exp(ll - top)
        return TailSum(top + math.log(wa + wb), (wa * err_main + wb * 8 * u) / (wa + wb), count + 1)
    return TailSum(log_main, err_main, count)


def _one_dim(probs: list[float], w: list[float], werr: list[float], n: int) -> tuple[float, float, int]:
    lo, hi = _positive_range(w[0] - w[1], w[1] * n, n)
    if lo > hi:
        return -math.inf, 0.0, 0
    x = np.arange(lo, hi + 1, dtype=float)
    g = w[1] * n + (w[0] - w[1]) * x
    keep = g > 0
    x, g = x[keep], g[keep]
    logp = log_binom_pmf(x, n, probs[0], probs[1])
    logs = logp + np.log(g) - math.log(n)
    gerr = werr[0] * x + werr[1] * (n - x) + 3 * UNIT_ROUNDOFF * (abs(w[1]) * n + abs(w[0] - w[1]) * x)
    return _logsum(logs, _term_errors(logp, gerr, g))


def _two_dim(probs: list[float], w: list[float], werr: list[float], n: int) -> tuple[float, float, int]:
    u = UNIT_ROUNDOFF
    p1 = probs[0]
    rest = probs[1] + probs[2]
    r2, r3 = probs[1] / rest, probs[2] / rest
    xs = np.arange(n + 1, dtype=float)
    row_log = log_binom_pmf(xs, n, p1, rest)
    # for row x: g(x, y) = A_x + B y with A_x = w3 (n − x) + w1 x, B = w2 − w3, y ∈ [0, n − x]
    A = w[2] * (n - xs) + w[0] * xs
    B = w[1] - w[2]
    m = n - xs
    gmax = np.maximum(A, A + B * m)
    live = gmax > 0
    # Chernoff bound on the inner mass of the positive half-line of each row
    with np.errstate(divide="ignore", invalid="ignore"):
        y0 = np.where(B != 0, -A / B, 0.0) if B != 0 else np.zeros_like(A)
    if B > 0:
        tail = chernoff_log_tail(np.clip(y0, 0, m), m, r2)
        tail = np.where(y0 >= m * r2, tail, 0.0)
    elif B < 0:
        tail = chernoff_log_tail(np.clip(y0, 0, m), m, r2)
        tail = np.where(y0 <= m * r2, tail, 0.0)
    else:
        tail = np.zeros_like(A)
    with np.errstate(divide="ignore"):
        bound = np.where(live, row_log + np.log(np.where(live, gmax, 1.0)) - math.log(n) + tail, -np.inf)
    order = np.argsort(-bound, kind="stable")
    order = order[np.isfinite(bound[order])]
    # suffix sums of the row bounds, in the processing order, to stop once the rest is negligible
    if order.size == 0:
        return -math.inf, 0.0, 0
    b_sorted = bound[order]
    top = float(b_sorted[0])
    rest_mass = np.cumsum(np.exp(b_sorted - top)[::-1])[::-1]  # rest_mass[i] = Σ_{j >= i} e^{b_j − top}
    logs_all: list[np.ndarray] = []
    errs_all: list[np.ndarray] = []
    done_log = -math.inf
    skipped = 0.0
    skipped_rows: list[tuple[float, float]] = []
    i = 0
    while i < order.size:
        rows = order[i : i + _ROW_BLOCK]
        block_logs, block_errs, block_skip = _rows(rows, A, B, m, row_log, w, werr, r2, r3, n)
        if block_logs.size:
            skipped_rows.append((float(np.logaddexp.reduce(block_logs)), block_skip))
        logs_all.append(block_logs)
        errs_all.append(block_errs)
        if block_logs.size:
            bl = float(np.max(block_logs))
            s_block = bl + math.log(float(np.sum(np.exp(block_logs - bl))))
            done_log = np.logaddexp(done_log, s_block)
        i += rows.size
        if i < order.size:
            left = math.log(float(rest_mass[i])) + top
            if done_log > -math.inf and left <= done_log + math.log(_SKIP_FRACTION):
                skipped = math.exp(left - done_log)
                break
    logs = np.concatenate(logs_all) if logs_all else np.zeros(0)
    errs = np.concatenate(errs_all) if errs_all else np.zeros(0)
    val, err, count = _logsum(logs, errs)
    windows = sum(math.exp(lg - val) * f for lg, f in skipped_rows) if val > -math.inf else 0.0
    return val, err + skipped + windows + 4 * u, count


def _row_ranges(A: np.ndarray, B: float, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the integers ``y ∈ [0, m]`` with ``A + B y > 0`` lie in ``[lo, hi]`` (one extra on each side)."""
    if B == 0:
        return np.where(A > 0, 0.0, 1.0), np.where(A > 0, m, 0.0)
    y0 = -A / B
    if B > 0:
        return np.maximum(0.0, np.floor(y0)), m.astype(float)
    return np.zeros_like(A), np.minimum(m, np.ceil(y0))


def _rows(
    rows: np.ndarray,
    A: np.ndarray,
    B: float,
    m: np.ndarray,
    row_log: np.ndarray,
    w: list[float],
    werr: list[float],
    r2: float,
    r3: float,
    n: int,
    sigmas: float = 9.0,
) -> tuple[np.ndarray, np.ndarray, float]:
    """The positive terms of a block of rows and a bound on the terms left out, relative to the block's sum.

    Each row is summed on a window of ``±sigmas`` standard deviations of its inner binomial around the point of its
    positive half-line nearest the inner mode; the terms ``T(y) = Bin(m, r₂)(y) (A + B y)`` are log-concave in
    ``y`` (a log-concave law times a positive linear factor), so beyond a window edge where ``T`` decreases by the
    ratio ``ρ < 1`` the rest is at most ``T(edge) ρ / (1 − ρ)``: rows whose certificate fails are redone on a
    window four times wider.
    """
    lo, hi = _row_ranges(A[rows], B, m[rows])
    mm = m[rows].astype(float)
    sd = np.sqrt(mm * r2 * r3)
    center = np.clip(np.floor((mm + 1) * r2), lo, hi)
    half = np.ceil(sigmas * sd + 10)
    wlo, whi = np.maximum(lo, center - half), np.minimum(hi, center + half)
    width = int(np.max(whi - wlo + 1, initial=0))
    if width <= 0:
        return np.zeros(0), np.zeros(0), 0.0
    Y = wlo[:, None] + np.arange(width, dtype=float)[None, :]
    inside = Y <= whi[:, None]
    X = np.broadcast_to(rows.astype(float)[:, None], Y.shape)
    Mm = np.broadcast_to(mm[:, None], Y.shape)
    G = A[rows][:, None] + B * Y
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = np.where(inside, log_binom_pmf(np.where(inside, Y, 0.0), Mm, r2, r3), -np.inf)
        logT = (
            np.where(inside & (G > 0), lp + np.log(np.where(G > 0, G, 1.0)), -np.inf)
            + row_log[rows][:, None]
            - math.log(n)
        )
    # log-concavity certificates at the window edges that are not the ends of the positive range
    redo = np.zeros(rows.size, dtype=bool)
    left_out = np.full(rows.size, -np.inf)
    idx = np.arange(rows.size)
    last = (whi - wlo).astype(int)
    for edge, inner, active in (
        (last, np.maximum(last - 1, 0), whi < hi),
        (np.zeros_like(last), np.minimum(1, last), wlo > lo),
    ):
        te, ti = logT[idx, edge], logT[idx, inner]
        with np.errstate(invalid="ignore"):
            step = np.where(np.isfinite(te), te - ti, -np.inf)  # a zero edge term: the log-concave rest is zero
        ok = ~active | (step < 0)
        redo |= active & ~ok
        rho = np.exp(np.minimum(step, 0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            bound = np.where(active & ok & np.isfinite(te), te + np.log(rho) - np.log1p(-rho), -np.inf)
        left_out = np.logaddexp(left_out, bound)
    row_sum = np.logaddexp.reduce(np.where(np.isfinite(logT), logT, -np.inf), axis=1)
    redo |= np.isfinite(left_out) & (left_out > row_sum + math.log(_WINDOW_FRACTION)) & (half < mm)
    if np.any(redo) and sigmas < 1e4:
        again_l, again_e, again_s = _rows(rows[redo], A, B, m, row_log, w, werr, r2, r3, n, sigmas * 4)
        keep = ~redo
        first_l, first_e, first_s = _collect(logT[keep], lp[keep], X[keep], Y[keep], G[keep], row_log, w, werr, n)
        skip_keep = _skip_fraction(left_out[keep], first_l)
        tot_l, tot_e = np.concatenate([first_l, again_l]), np.concatenate([first_e, again_e])
        return tot_l, tot_e, skip_keep + again_s
    out_l, out_e, _ = _collect(logT, lp, X, Y, G, row_log, w, werr, n)
    return out_l, out_e, _skip_fraction(left_out, out_l)


def _skip_fraction(left_out: np.ndarray, logs: np.ndarray) -> float:
    """Σ e^{left_out} relative to Σ e^{logs}."""
    if logs.size == 0 or not np.any(np.isfinite(left_out)):
        return 0.0
    total = float(np.logaddexp.reduce(logs))
    return float(np.exp(np.logaddexp.reduce(left_out) - total))


def _collect(
    logT: np.ndarray,
    lp: np.ndarray,
    X: np.ndarray,
    Y: np.ndarray,
    G: np.ndarray,
    row_log: np.ndarray,
    w: list[float],
    werr: list[float],
    n: int,
) -> tuple[np.ndarray, np.ndarray, float]:
    u = UNIT_ROUNDOFF
    ok = np.isfinite(logT)
    Xv, Yv, Gv, lpv = X[ok], Y[ok], G[ok], lp[ok]
    rl = row_log[Xv.astype(int)]
    gerr = (
        werr[0] * Xv
        + werr[1] * Yv
        + werr[2] * (n - Xv - Yv)
        + 4 * u * (abs(w[0]) * Xv + abs(w[1]) * Yv + abs(w[2]) * (n - Xv - Yv))
    )
    errs = _term_errors(lpv, gerr, Gv) + _LOADER_ULPS * u * (1 + np.abs(rl))
    return logT[ok], errs, 0.0


def dissenter_delta_log(
    R: Sequence[Sequence[float]], n: int, c: int, d_input: int, d: int, a: int, b: int, t: float
) -> TailSum:
    """``ln δ`` of a binary-report pair whose other users hold ``c`` except ``d`` of them, who hold ``d_input``.

    The tally is the clone tally of the changing user and ``n − d − 1`` others (closed form of §18.2) plus the ``d``
    dissenters' ``Bin(d, R[0, d_input])`` reports: ``P_a(x) = Σ_i Bin(d, ·)(i) P_a^{clone}(x − i)``, each law in log
    space (a log-sum over ``d + 1`` terms), and ``δ = Σ_x P_a(x) (1 − e^{ε} P_b(x)/P_a(x))₊`` term by term. The
    relative-error bound is the weighted mean of ``η_x (1 + 2 r_x/(1 − r_x))`` with ``r_x = e^ε P_b(x)/P_a(x)`` and
    ``η_x`` the log-pmf bound of each law (the difference amplifies the error where the ratio is near ``e^ε``).
    Reports must be binary (two outputs) and every output possible for input ``c``.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> R = [[0.75, 0.25], [0.25, 0.75]]
    >>> s = dissenter_delta_log(R, 8, 0, 1, 1, 0, 1, 1.5)    # others 6×input 0, 1×input 1; exact 8019/131072
    >>> abs(math.exp(s.log_value) / (8019 / 131072) - 1) < 1e-12
    True
    """
    u = UNIT_ROUNDOFF
    if len(R) != 2:
        raise InvalidParameterError(f"the dissenter route needs binary reports, got {len(R)} outputs")
    pi1, pi0 = float(R[0][c]), float(R[1][c])
    if pi1 <= 0 or pi0 <= 0:
        raise InvalidParameterError("the dissenter route needs both reports possible for the other users' input")
    m = n - d  # the changing user and the n − d − 1 clones
    y = np.arange(m + 1, dtype=float)
    base = log_binom_pmf(y, m, pi1, pi0) - math.log(m)

    def clone_log(x: int) -> np.ndarray:
        lin = float(R[0][x]) * y / pi1 + float(R[1][x]) * (m - y) / pi0
        with np.errstate(divide="ignore"):
            return base + np.log(lin)

    r1 = float(R[0][d_input])
    i = np.arange(d + 1, dtype=float)
    wlog = log_binom_pmf(i, d, r1, float(R[1][d_input]))
    la_c, lb_c = clone_log(a), clone_log(b)
    size = m + d + 1
    LA = np.full(size, -np.inf)
    LB = np.full(size, -np.inf)
    for k in range(d + 1):  # log-sum over the dissenters' count of report 1
        if wlog[k] == -np.inf:
            continue
        LA[k : k + m + 1] = np.logaddexp(LA[k : k + m + 1], wlog[k] + la_c)
        LB[k : k + m + 1] = np.logaddexp(LB[k : k + m + 1], wlog[k] + lb_c)
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = math.log(t) + LB - LA  # ln r_x
        pos = np.isfinite(LA) & (gap < 0)
        logs = LA[pos] + np.log(-np.expm1(gap[pos]))
        r = np.exp(gap[pos])
        eta = _LOADER_ULPS * u * (1.0 + np.abs(LA[pos])) + 4 * u * (d + 1)
        errs = eta * (1.0 + 2.0 * r / (1.0 - r))
    val, err, count = _logsum(logs, errs)
    return TailSum(val, err, count)
