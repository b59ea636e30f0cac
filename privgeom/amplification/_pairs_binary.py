"""``δ(ε)`` of the shuffled tally of a binary-report local mechanism for a GENERAL neighbouring pair, in log space.

The local mechanism ``R`` has two reports (rows ``R[0]`` = report 1, ``R[1]`` = report 0) and any number of inputs;
the other ``N = n − 1`` users hold the inputs counted by ``others``. The tally is the number ``X`` of reports 1; for
the others it is a sum of independent binomials, one per distinct report law,

    ``Y = Σ_g Bin(n_g, p_g)``,   ``S(y) = P(Y = y)``,

and the changing user adds a Bernoulli: ``P_a(y) = p_a S(y − 1) + q_a S(y)`` (``q = 1 − p``, the report-0 entry kept
as given for precision). So, with ``A = p_a − e^ε p_b`` and ``B = q_a − e^ε q_b`` (``A + B = 1 − e^ε ≤ 0``),

    ``δ(ε) = Σ_y (A S(y − 1) + B S(y))₊ = Σ_y S(y) (A ρ(y) + B)₊``,   ``ρ(y) = S(y − 1)/S(y)``.

``S`` is log-concave (a convolution of log-concave binomials), so ``ρ`` is non-decreasing and the positive terms form
a half-line ``y ≥ y*`` (``A > 0 > B``; the case ``B > 0 > A`` is the same with the reports relabelled). Only that
half-line is summed (``docs/theory.md`` §18.8):

- ``y*`` is located from the saddle point ``ρ(y) ≈ e^θ`` with ``θ = ln(−B/A)`` (the tilt that makes ``y`` the
  mean), and the window ``[y_lo, y_hi]`` is widened until the first term is certainly non-positive and the rest
  beyond ``y_hi`` is certified below ``10^-18`` of the sum: for ``y > y_hi``, ``D(y) ≤ P_a(y) ≤ S(y − 1)`` and, ``S``
  being log-concave, ``Σ_{y ≥ y_hi} S(y) ≤ S(y_hi)/(1 − ρ')`` with ``ρ' = S(y_hi)/S(y_hi − 1) < 1``;
- for two groups each ``S(y) = Σ_i Bin(n_1, p_1)(i) Bin(n_2, p_2)(y − i)`` is summed on a window of the index ``i``
  around the conditional mode (the terms are log-concave in ``i``), closed by a log-concavity certificate computed
  from the exact term ratio ``T(i + 1)/T(i) = (n_1 − i) p_1 (y − i) q_2 / ((i + 1) q_1 (n_2 − y + i + 1) p_2)``;
- every log-pmf is Loader's (:func:`privgeom._core.logpmf.log_binom_pmf`), relative error ``16 u (1 + |ln P|)``.

The relative-error bound follows the convention of :class:`~privgeom.amplification._engine.TailSum`: the weighted
mean of per-term bounds — for ``S(y)`` the log-pmf bounds, the rounding of the log-sum and the certified window
truncation; for ``D(y) = A S(y − 1) + B S(y)`` the bounds of its two parts relative to ``D`` (the difference
amplifies them near the threshold) and the rounding of ``A`` and ``B`` — plus the certified mass beyond ``y_hi``, the
terms near ``y*`` whose sign the errors leave open, and the rounding of ``e^ε`` to a double. The mechanism is the one
given: its double entries (an exact entry that is not a dyadic rational is rounded before the sum, and that
rounding is not part of the bound — the convention of every log-space route of the package).

Examples
--------
>>> import math
>>> from fractions import Fraction as F
>>> from privgeom.amplification._engine import exact_pair_delta
>>> R = [[0.75, 0.25], [0.25, 0.75]]                        # binary randomized response, p = 3/4
>>> s = binary_pair_delta_log(R, (6, 1), 0, 1, 1.5)         # others: 6 hold input 0, 1 holds input 1
>>> exact = exact_pair_delta([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], (6, 1), 0, 1, F(3, 2))
>>> exact, abs(math.exp(s.log_value) / float(exact) - 1) <= s.rel_error
(Fraction(8019, 131072), True)
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.logpmf import log_binom_pmf
from ._engine import UNIT_ROUNDOFF, TailSum

__all__ = ["binary_pair_delta_log"]

#: Relative error of one log-pmf term, in units of ``u (1 + |ln P|)`` (the convention of ``_engine``).
_LOADER_ULPS = 16.0
#: The certified mass left beyond a window edge must be below this fraction of the sum it closes.
_WINDOW_FRACTION = 1e-18
#: Rows of the convolution evaluated together (bounds the memory of one block to rows × window).
_ROW_BLOCK = 512
#: Relative slack added to a computed term ratio before it is used in a geometric tail bound (far above its rounding:
#: the bound only gets more conservative).
_RATIO_SLACK = 1e-12
#: Largest window fraction of the others' law (its truncation is certified by the log-concave ratio bound).
_LAW_WINDOW_CAP = 1e-10
#: Largest number of window widenings before the evaluation is declared failed (an error, never a value).
_MAX_WIDEN = 40


def _groups(
    R: Sequence[Sequence[float]], others: Sequence[int], flip: bool
) -> tuple[list[tuple[int, float, float]], int]:
    """The other users' report-1 counts as ``[(n_g, p_g, q_g)]`` with ``0 < p_g < 1`` (equal laws merged) and the
    number of users who report 1 surely (the shift)."""
    merged: dict[tuple[float, float], int] = {}
    shift = 0
    for x, c in enumerate(others):
        if c == 0:
            continue
        p, q = float(R[0][x]), float(R[1][x])
        if flip:
            p, q = q, p
        if p == 0:
            continue
        if q == 0:
            shift += c
            continue
        merged[(p, q)] = merged.get((p, q), 0) + c
    groups = [(c, p, q) for (p, q), c in merged.items()]
    # the larger-variance group second: ρ is the mean of its ratio h, which varies least over the window then
    groups.sort(key=lambda g: (g[0] * g[1] * g[2], g[1]))
    return groups, shift


def _tilted(groups: list[tuple[int, float, float]], theta: float) -> tuple[float, float]:
    """Mean and variance of ``Y`` tilted by ``e^{θ y}``."""
    mean = var = 0.0
    for n, p, q in groups:
        pt = 1.0 / (1.0 + (q / p) * math.exp(-theta)) if theta > -700 else 0.0
        mean += n * pt
        var += n * pt * (1 - pt)
    return mean, var


class _Law:
    """``ln S(y)`` of ``Y`` (no, one or two groups) and the ratio ``ρ(y) = S(y − 1)/S(y)``, each with a bound on its
    relative error. ``ρ`` is computed directly — the closed form ``y q/((n − y + 1) p)`` for one group, for two the
    mean of the exact ratio ``h(j) = B_2(j − 1)/B_2(j) = j q_2/((n_2 − j + 1) p_2)`` under the weights
    ``B_1(i) B_2(y − i)`` — so its error is a few ulps, not the log-pmf's ``|ln P|`` ulps: the difference
    ``A ρ + B`` near the threshold amplifies it."""

    def __init__(self, groups: list[tuple[int, float, float]], fraction: float = _WINDOW_FRACTION) -> None:
        self.groups = groups
        #: the certified mass a row may leave outside its window, relative to the row's sum
        self.fraction = fraction
        self.sigmas = math.sqrt(2 * math.log(1 / fraction)) + 1.5
        self.top = sum(n for n, _, _ in groups)

    def eval(self, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(ln S, its error, ρ, its relative error)`` at ``ys`` (integers in ``[0, top]``)."""
        u = UNIT_ROUNDOFF
        ys = np.asarray(ys, dtype=float)
        if not self.groups:
            zero = np.zeros_like(ys)
            return np.where(ys == 0, 0.0, -np.inf), zero, zero, zero
        if len(self.groups) == 1:
            n, p, q = self.groups[0]
            lp = log_binom_pmf(ys, n, p, q)
            err = _LOADER_ULPS * u * (1.0 + np.abs(np.where(np.isfinite(lp), lp, 0.0))) + 4 * u
            with np.errstate(divide="ignore", invalid="ignore"):
                rho = ys * q / ((n - ys + 1) * p)
            return lp, err, rho, np.full_like(ys, 4 * u)
        out = [np.empty(ys.size) for _ in range(4)]
        for start in range(0, ys.size, _ROW_BLOCK):
            sl = slice(start, start + _ROW_BLOCK)
            for arr, val in zip(out, self._conv(ys[sl], self.sigmas)):
                arr[sl] = val
        return out[0], out[1], out[2], out[3]

    def _ratio(self, i: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``T(i + 1)/T(i)`` of the convolution terms ``T(i) = B_1(i) B_2(y − i)`` (exact up to a few ulps)."""
        (n1, p1, q1), (n2, p2, q2) = self.groups
        with np.errstate(divide="ignore", invalid="ignore"):
            return ((n1 - i) * p1 * (y - i) * q2) / ((i + 1) * q1 * (n2 - y + i + 1) * p2)

    def _rest(
        self, W: np.ndarray, s: np.ndarray, wlo: np.ndarray, whi: np.ndarray, ys: np.ndarray, bounds: tuple
    ) -> tuple[np.ndarray, np.ndarray]:
        """Certified mass beyond the window edges relative to the window sum ``s`` (log-concavity: beyond an edge
        where the terms decrease by ``ρ < 1`` the rest is at most ``T(edge) ρ/(1 − ρ)``), and the rows whose
        certificate fails."""
        imin, imax = bounds
        rest = np.zeros(ys.size)
        bad = np.zeros(ys.size, dtype=bool)
        rows = np.arange(ys.size)
        last = (whi - wlo).astype(np.int64)
        for edge, active, rho in (
            (last, whi < imax, self._ratio(whi, ys)),
            (np.zeros_like(last), wlo > imin, 1.0 / self._ratio(wlo - 1, ys)),
        ):
            rho = np.where(active, rho * (1 + _RATIO_SLACK), 0.0)
            ok = ~active | (rho < 1)
            bad |= ~ok
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                frac = np.where(active & ok, W[rows, edge] * rho / (1 - rho) / np.where(s > 0, s, 1.0), 0.0)
            rest += frac
        return rest, bad | (rest > self.fraction)

    def _conv(self, ys: np.ndarray, sigmas: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        u = UNIT_ROUNDOFF
        (n1, p1, q1), (n2, p2, q2) = self.groups
        imin = np.maximum(0.0, ys - n2)
        imax = np.minimum(float(n1), ys)
        # conditional mode: the first i with T(i + 1)/T(i) < 1 (the ratio decreases: T is log-concave in i)
        lo, hi = imin.copy(), imax.copy()
        for _ in range(64):
            mid = np.floor((lo + hi) / 2)
            go = (self._ratio(mid, ys) >= 1) & (mid < hi)
            lo = np.where(go, mid + 1, lo)
            hi = np.where(go, hi, mid)
            if np.all(lo >= hi):
                break
        mode = lo
        f1 = np.clip(mode / max(n1, 1), 0.0, 1.0)
        f2 = np.clip((ys - mode) / max(n2, 1), 0.0, 1.0)
        v1 = n1 * f1 * (1 - f1) + 1.0
        v2 = n2 * f2 * (1 - f2) + 1.0
        half = float(np.max(np.ceil(sigmas * np.sqrt(v1 * v2 / (v1 + v2)) + 16.0)))
        # one width for the block: row y covers [wlo, wlo + width − 1] ∩ [imin, imax] (terms outside are zero)
        wlo = np.maximum(imin, mode - half)
        width = int(max(1.0, float(np.max(np.minimum(imax, mode + half) - wlo + 1))))
        whi = np.minimum(imax, wlo + width - 1)
        i0 = int(np.min(wlo))
        j0 = int(np.min(ys - wlo)) - width + 1
        span_i = int(np.max(wlo)) - i0 + width
        span_j = int(np.max(ys - wlo)) - j0 + 1
        ii = np.arange(i0, i0 + span_i, dtype=float)
        jj = np.arange(j0, j0 + span_j, dtype=float)
        l1, l2 = log_binom_pmf(ii, n1, p1, q1), log_binom_pmf(jj, n2, p2, q2)
        emax = _LOADER_ULPS * u * (2.0 + float(np.max(np.abs(l1[np.isfinite(l1)]), initial=0.0)))
        emax += _LOADER_ULPS * u * float(np.max(np.abs(l2[np.isfinite(l2)]), initial=0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            h2 = np.where((jj >= 1) & (jj <= n2), jj * q2 / ((n2 - jj + 1) * p2), 0.0)  # B_2(j − 1)/B_2(j)
        view1 = np.lib.stride_tricks.sliding_window_view(l1, width)
        # j = y − i runs downwards along a row: windows of the reversed arrays
        view2 = np.lib.stride_tricks.sliding_window_view(l2[::-1], width)
        viewh = np.lib.stride_tricks.sliding_window_view(h2[::-1], width)
        r1 = (wlo - i0).astype(np.int64)
        r2 = (span_j - 1 - (ys - wlo - j0)).astype(np.int64)
        L = view1[r1] + view2[r2]
        top = np.max(L, axis=1)
        W = np.exp(L - top[:, None])
        del L
        s = W.sum(axis=1)
        logs = top + np.log(s)
        rounding = (math.ceil(math.log2(width + 1)) + 6) * u
        # every term's relative error is at most emax + 2u (1 + |ln T|) (Loader, and the rounding of exp(L − top))
        err = np.full(ys.size, emax + 2 * u * (1.0 + float(np.max(np.abs(top)))) + 2 * u * 50) + rounding
        H = viewh[r2]
        WH = W * H
        s1_win = WH.sum(axis=1)
        # the row y − 1 has one index below the window's range when it starts at i = y − n2 >= 1: the term
        # B_1(y − 1 − n2) B_2(n2), computed apart (its own log-pmf error)
        extra = (wlo == imin) & (imin >= 1)
        ex_log = np.where(
            extra,
            log_binom_pmf(np.where(extra, ys - 1 - n2, 0.0), n1, p1, q1) + float(log_binom_pmf(n2, n2, p2, q2)),
            -np.inf,
        )
        ex = np.exp(ex_log - top)
        ex_err = _LOADER_ULPS * u * (2.0 + np.abs(np.where(extra, ex_log, 0.0)))
        s1 = s1_win + ex
        rho = s1 / s
        with np.errstate(invalid="ignore", divide="ignore"):
            dev = np.abs(H - rho[:, None])
            spread = (err * (W * dev).sum(axis=1) + ex * (ex_err + err) * (1 + rho)) / np.where(s1 > 0, s1, 1.0)
        rest, bad = self._rest(W, s, wlo, whi, ys, (imin, imax))
        # the row y − 1 on the same window (its terms are T(i) h(y − i), log-concave in i)
        lo1 = np.where(extra, wlo, np.maximum(0.0, ys - 1 - n2))
        rest1, bad1 = self._rest(WH, s1, wlo, whi, ys - 1, (lo1, imax))
        bad = bad | (bad1 & (s1 > 0))
        err_rho = spread + 2 * rounding + rest + np.where(s1 > 0, rest1, 0.0)
        if np.any(bad):
            if sigmas > 1e5:
                raise InvalidParameterError(
                    "the convolution window of a shuffled pair could not be certified (log-concavity check failed)"
                )
            sub = self._conv(ys[bad], sigmas * 2)
            logs[bad], err[bad], rho[bad], err_rho[bad] = sub
            rest[bad] = 0.0
        return logs, err + rest, rho, err_rho


def binary_pair_delta_log(
    R: Sequence[Sequence[float]], others: Sequence[int], a: int, b: int, t: float, *, window: float = _WINDOW_FRACTION
) -> TailSum:
    """``ln δ`` at ``e^ε = t`` of the ordered pair ``(others + a, others + b)`` of a binary-report shuffled tally.

    Parameters
    ----------
    R : 2 × k rows of floats
        The local mechanism, ``R[j][x]`` the probability of report ``j`` (0: report 1, 1: report 0) on input ``x``.
    others : sequence of int
        How many of the other users hold each input (``n − 1`` in all).
    a, b : int
        The changing user's input in the first and in the second dataset.
    t : float
        ``e^ε >= 1``.
    window : float, optional
        The certified mass left beyond the summed terms, relative to the sum (default ``10^-18``; it enters the
        returned error bound — a coarser window gives a cheaper, still certified, upper bound ``e^{ln δ}(1 + e)``).

    Returns
    -------
    TailSum
        ``ln δ`` (``-inf`` when ``δ = 0``), a bound on the relative error of ``δ``, the number of terms summed.

    Raises
    ------
    InvalidParameterError
        More than two distinct report laws among the other users (this route convolves at most two binomials), a
        report matrix that is not 2 × k, ``t < 1``, or a window that cannot be certified.

    Examples
    --------
    >>> s = binary_pair_delta_log([[0.75, 0.25], [0.25, 0.75]], (3, 0), 0, 1, 2.0)   # a clone pair, n = 4
    >>> round(math.exp(s.log_value) * 256, 12)                                       # 27/256
    27.0
    """
    if len(R) != 2:
        raise InvalidParameterError(f"the binary-report route needs a local mechanism with 2 reports, got {len(R)}")
    if not t >= 1:
        raise InvalidParameterError(f"e^ε must be >= 1, got {t!r}")
    u = UNIT_ROUNDOFF
    pa, qa, pb, qb = float(R[0][a]), float(R[1][a]), float(R[0][b]), float(R[1][b])
    A, B = pa - t * pb, qa - t * qb
    flip = B > 0
    if flip:
        A, B, pa, qa, pb, qb = B, A, qa, pa, qb, pb
    if A <= 0:
        return TailSum(-math.inf, 0.0, 0)
    errA = u * (abs(pa) + 2 * abs(t * pb)) / A
    errB = u * (abs(qa) + 2 * abs(t * qb)) / abs(B) if B != 0 else 0.0
    groups, _shift = _groups(R, others, flip)  # the shift moves every term alike: δ does not depend on it
    if len(groups) > 2:
        raise InvalidParameterError(
            f"the binary-report route convolves at most two distinct report laws among the other users, got "
            f"{len(groups)} (others = {tuple(others)})"
        )
    if B == 0:  # D(y) = A S(y − 1) >= 0 everywhere: δ = A
        return TailSum(math.log(A), errA + 2 * u, 1)
    # the rows' windows: 10^-18 of each row for a precise value; a coarse window (an upper bound for a box of
    # datasets) lets them leave up to 10^-2 of its own fraction (the error of ρ is then amplified near y*, and stated)
    law = _Law(groups, max(_WINDOW_FRACTION, min(_LAW_WINDOW_CAP, window * 1e-2)))
    top = law.top  # Y ∈ [0, top]; the tally of all users in [0, top + 1]
    mean, var = _tilted(groups, math.log(-B / A))
    sd = math.sqrt(var + 1.0)
    y0 = int(round(mean))
    theta = math.log(-B / A)
    # beyond y* the terms fall like e^{−θ (y − y*) − (y − y*)²/(2 var)}: 10^-18 is reached within ~45/θ or ~9.5 sd
    reach = math.log(1 / window) + 4
    down, up = 16, 16 + int(math.ceil(min(reach / theta if theta > 0 else math.inf, 10 * sd)))
    lnA = math.log(A)
    have: tuple[int, int, list[np.ndarray]] | None = None  # rows computed so far: widening adds only new ones
    for _ in range(_MAX_WIDEN):
        y_lo = max(0, y0 - down)
        y_hi = top + 1 if y0 + up >= top else y0 + up
        last = min(y_hi + 1, top)
        if have is None:
            cols = list(law.eval(np.arange(y_lo, last + 1, dtype=float)))
        else:
            h_lo, h_hi, cols = have
            if y_lo < h_lo:
                new = law.eval(np.arange(y_lo, h_lo, dtype=float))
                cols = [np.concatenate([x, c]) for x, c in zip(new, cols)]
            if last > h_hi:
                new = law.eval(np.arange(h_hi + 1, last + 1, dtype=float))
                cols = [np.concatenate([c, x]) for c, x in zip(cols, new)]
        have = (y_lo, max(last, have[1]) if have else last, cols)
        off = have[1] - last
        lS, eS, rho, erho = (c[: c.size - off] if off else c for c in cols)
        k = min(y_hi, top) - y_lo + 1  # the terms y_lo..min(y_hi, top); y = top + 1 apart
        g = A * rho[:k] + B
        gerr = A * rho[:k] * (erho[:k] + errA) + abs(B) * errB + 3 * u * (A * rho[:k] + abs(B))
        left_ok = y_lo == 0 or g[0] + gerr[0] < 0
        pos = g > 0
        with np.errstate(divide="ignore"):
            logs = lS[:k][pos] + np.log(g[pos])
        errs = eS[:k][pos] + gerr[pos] / g[pos] + 4 * u
        if y_hi == top + 1 and top >= y_lo:  # every user reports 1: D = A S(top)
            logs = np.append(logs, lnA + lS[top - y_lo])
            errs = np.append(errs, eS[top - y_lo] + errA + 2 * u)
        total = float(np.logaddexp.reduce(logs)) if logs.size else -math.inf
        if y_hi >= top:
            log_rest = -math.inf
            right_ok = True
        else:  # Σ_{y > y_hi} D(y) <= Σ_{y >= y_hi} S(y) <= S(y_hi)/(1 − ρ''), ρ'' = 1/ρ(y_hi + 1) < 1
            log_ratio = -math.log(rho[-1]) + erho[-1] + _RATIO_SLACK if rho[-1] > 0 else math.inf
            right_ok = log_ratio < 0
            log_rest = lS[k - 1] + math.log1p(eS[k - 1]) - math.log(-math.expm1(log_ratio)) if right_ok else math.inf
            right_ok = right_ok and log_rest <= total + math.log(window)
        if left_ok and right_ok:
            break
        if not left_ok:
            down = 2 * down + 8
        if not right_ok:
            up = 2 * up + 8
    else:
        raise InvalidParameterError(
            f"the tail window of the shuffled pair (others = {tuple(others)}, a = {a}, b = {b}) could not be certified"
        )
    if total == -math.inf and log_rest == -math.inf:
        return TailSum(-math.inf, 0.0, 0)
    wts = np.exp(logs - total)
    rel = float(np.dot(wts, errs) / np.sum(wts)) + (math.ceil(math.log2(logs.size + 1)) + 4) * u
    # e^ε known to 2 ulps (the rounding of exp): δ moves by at most 2u t Σ_{D > 0} P_b(y), P_b = S (p_b ρ + q_b)
    with np.errstate(divide="ignore"):
        lpb = lS[:k][pos] + np.log(pb * rho[:k][pos] + qb)
    if y_hi == top + 1 and top >= y_lo:
        lpb = np.append(lpb, math.log(pb) + lS[top - y_lo] if pb > 0 else -math.inf)
    if lpb.size:
        rel += 2 * u * t * float(np.exp(np.logaddexp.reduce(lpb) - total))
    # terms left out as non-positive whose sign the error bounds leave open: at most S(y) gerr(y) each
    near = (~pos) & (g + gerr > 0)
    if np.any(near):
        with np.errstate(divide="ignore"):
            open_mass = lS[:k][near] + np.log1p(eS[:k][near]) + np.log(gerr[near])
        rel += float(np.exp(np.logaddexp.reduce(open_mass) - total))
    if log_rest > -math.inf:
        rel += math.exp(log_rest - total)
    return TailSum(total, rel, int(logs.size))
