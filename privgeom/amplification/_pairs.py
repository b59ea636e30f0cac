"""Certified log-space ``δ(ε)`` of the shuffled tally for any neighbouring pair, up to four merged outputs.

A pair is ``(others, a, b)``: ``others[x]`` other users hold input ``x``, the changing user holds ``a`` or ``b``
(``docs/theory.md`` §18.1). :func:`pair_delta_log` returns ``ln δ`` with a bound on its relative error for any such
pair whose reports take at most four values once merged, at ``n`` up to ``10^4`` and beyond.

**Merging.** Outputs whose rows agree on every input that occurs in the pair (the others' inputs, ``a`` and ``b``)
are merged: each user splits the merged count by the same fixed proportions whatever its input, so the merged tally is
sufficient and ``δ`` is unchanged. For ``k``-ary randomized response every output outside the occurring inputs merges.

**Core and minority** (``docs/theory.md`` §18.7). Let group 0 be the largest group of other users whose report law
``π`` charges every merged output, ``c₀`` its size, ``n₀ = c₀ + 1``, and ``Y`` the law of the tally of the remaining
``d = n − n₀`` users (the *minority*). The clone identity of §18.2 applied to the changing user and group 0 gives

    P_a(h) = Σ_y Y(y) C_a(h − y),      C_a(z) = Mult(n₀, π)(z) · ℓ_a(z)/n₀,   ℓ_a(z) = Σ_j R[j, a] z_j / π_j,

so ``P_a − e^ε P_b = Y ⊛ C`` with ``C = Mult(n₀, π) ℓ/n₀`` and ``ℓ = ℓ_a − e^ε ℓ_b`` linear. Both laws are computed in
log space on a box of tallies (``log_binom_pmf`` for the multinomial, one binomial factor per coordinate; ``Y`` by
adding its users one at a time) and ``δ = Σ_h P_a(h) (1 − r_h)₊``, ``r_h = e^ε P_b(h)/P_a(h)``.

**The box.** ``C`` is positive only where ``ℓ > 0``; its mass there is largest around the point ``z* = n₀ π_λ`` of the
exponentially tilted law ``π_λ ∝ π e^{λ v}`` (``v_j`` the coefficients of ``ℓ``) with ``Σ_j π_λ,j v_j = 0`` — the
dominating point of the half-space. The box is ``z* ± K σ_λ`` (tilted standard deviations) widened by the minority's
extent. Since ``(Y ⊛ C)₊ ≤ Y ⊛ C₊`` and ``Σ Y = 1``, the positive mass of the tallies left out is at most that of
``C₊`` outside the core box, and on ``{ℓ > 0}`` Chernoff's bound gives, for every ``α, β ≥ 0`` and coordinate ``i``,
``P(ℓ(Z) > 0, Z_i ≥ u) ≤ exp(n₀ ln Σ_j π_j e^{α v_j + β [j = i]} − β u)`` (and the mirror for ``Z_i ≤ l``), times
``max_j v_j ≥ ℓ(z)/n₀``; the tallies are also cut at ``ℓ(h) ≤ L`` (beyond ``ℓ = 0`` the terms decay like
``e^{−λℓ}``), certified by ``P(ℓ(Z) > L') ≤ exp(n₀ ln Σ_j π_j e^{α v_j} − α L')``. Only the tallies with
``ℓ(h) > min_y ℓ(y)`` over the minority's support are summed: elsewhere every ``ℓ(h − y) ≤ 0`` and ``P_a ≤ e^ε P_b``.
``K`` grows until the certified mass is below ``10^-14`` of the sum.

**Error bound.** Each computed ``P(h)`` carries a relative error ``η(h)``: Loader's log-pmf accuracy
``16 u (1 + |ln|)`` per binomial factor (as the other routes of :mod:`privgeom.amplification._engine`), the rounding of
the chain's and the linear factor's logs, the sum of the exponentials, the minority's law, and ``n u`` for the rounding
of the mechanism's entries and conditional probabilities to doubles; the terms' bounds are linear in ``|ln term|``, and
for positive terms ``x_y`` of sum ``S``, ``Σ_y x_y ln(1/x_y) ≤ S ln(N/S)`` (Jensen), so ``|ln P(h)| + ln N`` bounds
them per tally. A term ``P_a − e^ε P_b`` then errs by at most ``η (P_a + e^ε P_b)``; the returned bound is the
sum of these over every tally with ``r_h < 1 + 3η`` (sign changes included) relative to the computed ``δ``, plus the
certified mass left out of the box.

Examples
--------
>>> from fractions import Fraction as F
>>> from privgeom.amplification._engine import exact_pair_delta
>>> t, s = F(1, 2), F(1, 4)                               # 3-ary randomized response, e^ε0 = 2
>>> R = [[t, s, s], [s, t, s], [s, s, t]]
>>> r = pair_delta_log(R, (3, 1, 1), 0, 2, 1.0)           # n = 6, others hold 0, 0, 0, 1, 2
>>> exact = exact_pair_delta(R, (3, 1, 1), 0, 2, F(1))
>>> abs(math.exp(r.log_value) / float(exact) - 1) <= r.rel_error + 1e-15
True
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
from scipy.optimize import brentq, minimize

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.hints import limit_hint
from .._core.limits import current_limit, register_limit
from .._core.logpmf import log_binom_pmf
from .._core.numbers import Scalar
from ._engine import (
    UNIT_ROUNDOFF,
    TailSum,
    clone_delta_log,
    merge_clone,
)

__all__ = ["pair_delta_log", "merge_outputs", "MAX_PAIR_WORK"]

#: Largest work ``(tallies in the box) × (points of the minority's law)`` of one log-space pair.
MAX_PAIR_WORK = 4 * 10**8
register_limit(
    "shuffle_pair_work",
    globals(),
    "MAX_PAIR_WORK",
    "box tallies x minority tallies of the log-space delta of one shuffled pair (any pair, up to 4 merged outputs)",
)
#: Loader's per-factor accuracy in units of ``u (1 + |ln P|)`` (the same generous factor as the clone route).
_LOADER_ULPS = 16.0
#: The certified mass left out of the box may be at most this fraction of the sum.
_SKIP_FRACTION = 1e-14
#: Root-finding tolerance of the tilt λ of the dominating point (it only centres the box: any λ is sound).
_TILT_TOL = 1e-12
#: Start offset and tolerance of the Chernoff exponent search (any exponent gives a valid bound; a better one a tighter).
_NM_STEP = 1e-3
_NM_XTOL = 1e-8
#: Relative margin around the band of ℓ, far above its float rounding (a wider band only adds tallies).
_BAND_MARGIN = 1e-9
#: Initial half-width of the box in tilted standard deviations (one, two, three free dimensions): wide enough that the
#: certificate usually closes in one pass, narrower in three dimensions where a second pass is cheaper than width.
_K0 = {1: 10.5, 2: 10.5, 3: 9.0}


def merge_outputs(R: Sequence[Sequence[Scalar]], inputs: Sequence[int]) -> list[list[Scalar]]:
    """The rows of ``R`` summed over outputs whose entries agree on every input in ``inputs`` (all-zero rows dropped).

    Examples
    --------
    >>> R = [[2, 1, 1, 1], [1, 2, 1, 1], [1, 1, 2, 1], [1, 1, 1, 2]]
    >>> merge_outputs(R, [0, 1])            # outputs 2 and 3 merge for users holding 0 or 1
    [[2, 1, 1, 1], [1, 2, 1, 1], [2, 2, 3, 3]]
    """
    keys: dict[tuple[Any, ...], int] = {}
    out: list[list[Scalar]] = []
    for row in R:
        key = tuple(row[x] for x in inputs)
        if all(v == 0 for v in key):
            continue
        if key in keys:
            i = keys[key]
            out[i] = [u + v for u, v in zip(out[i], row)]
        else:
            keys[key] = len(out)
            out.append(list(row))
    return out


def _minority_law(groups: list[tuple[int, np.ndarray]], D: int) -> tuple[np.ndarray, float]:
    """``ln Y`` on ``[0, d]^D`` (first ``D`` coordinates) for the minority groups ``(count, merged column)``, by
    adding the users one at a time (a log-sum of positive terms per step), and its relative-error bound."""
    d = sum(c for c, _ in groups)
    shape = (d + 1,) * D
    Y = np.full(shape, -np.inf)
    Y[(0,) * D] = 0.0
    steps = 0
    for c, col in groups:
        with np.errstate(divide="ignore"):
            lc = np.log(col)
        for _ in range(c):
            new = Y + lc[D]
            for j in range(D):
                shifted = np.full(shape, -np.inf)
                src = tuple(slice(0, d) if ax == j else slice(None) for ax in range(D))
                dst = tuple(slice(1, d + 1) if ax == j else slice(None) for ax in range(D))
                shifted[dst] = Y[src] + lc[j]
                new = np.logaddexp(new, shifted)
            Y = new
            steps += 1
    finite = Y[np.isfinite(Y)]
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    return Y, steps * (D + 2) * 4 * UNIT_ROUNDOFF * (1.0 + top)


def _tilt(pi: np.ndarray, v: np.ndarray) -> float:
    """``λ ≥ 0`` with ``Σ_j π_j e^{λ v_j} v_j = 0`` (0 when the mean of ``ℓ`` is already non-negative)."""

    def f(lam: float) -> float:
        e = v * lam
        e = e - np.max(e)
        return float(np.sum(pi * np.exp(e) * v))

    if f(0.0) >= 0:
        return 0.0
    hi = 1.0
    while f(hi) < 0:
        hi *= 2.0
    return float(brentq(f, 0.0, hi, xtol=_TILT_TOL, rtol=_TILT_TOL))


def _log_mgf(n0: int, pi: np.ndarray, expo: np.ndarray) -> float:
    top = float(np.max(expo))
    return n0 * (top + math.log(float(np.sum(pi * np.exp(expo - top)))))


def _outside_bound(
    n0: int, pi: np.ndarray, v: np.ndarray, lam: float, lo: list[int], hi: list[int], l_cut: float
) -> float:
    """``ln`` of a certified bound on ``Σ Mult(n₀, π)(z) ℓ(z)/n₀`` over the core tallies ``z`` with ``ℓ(z) > 0``
    outside the box or with ``ℓ(z) > l_cut`` (Chernoff, module docstring)."""
    vmax = float(np.max(v))
    if vmax <= 0:
        return -math.inf
    logs = []
    for i in range(len(lo)):
        for side, edge in ((1.0, hi[i] + 1), (-1.0, lo[i] - 1)):
            if (side > 0 and edge > n0) or (side < 0 and edge < 0):
                continue  # nothing beyond this face

            def g(x: np.ndarray, i: int = i, side: float = side, edge: int = edge) -> float:
                alpha, beta = abs(float(x[0])), abs(float(x[1]))
                expo = alpha * v
                expo[i] += side * beta
                return _log_mgf(n0, pi, expo) - side * beta * edge

            sd = math.sqrt(max(n0 * pi[i] * (1 - pi[i]), 1.0))
            start = np.array([lam, 3.0 / sd])
            best = min(g(start), g(np.array([0.0, 3.0 / sd])))
            res = minimize(g, start, method="Nelder-Mead", options={"xatol": 1e-6, "fatol": 1e-3, "maxiter": 400})
            best = min(best, float(res.fun), g(res.x))  # any (α, β) is a valid bound; take the smallest evaluated
            logs.append(best)
    # the face ℓ(z) > l_cut: P(ℓ(Z) > l_cut) ≤ exp(ln E e^{α ℓ(Z)} − α l_cut) for every α ≥ 0
    if l_cut < vmax * n0:

        def f(x: np.ndarray) -> float:
            alpha = abs(float(x[0]))
            return _log_mgf(n0, pi, alpha * v) - alpha * l_cut

        res = minimize(f, np.array([lam + _NM_STEP]), method="Nelder-Mead", options={"xatol": _NM_XTOL, "maxiter": 200})
        logs.append(min(float(res.fun), f(res.x), f(np.array([lam]))))
    if not logs:
        return -math.inf
    return math.log(vmax) + float(np.logaddexp.reduce(np.array(logs)))


def pair_delta_log(R: Sequence[Sequence[Scalar]], others: Sequence[int], a: int, b: int, t: float) -> TailSum:
    """``ln δ(ε)`` of the shuffled tally for the pair ``(others + a, others + b)`` with a certified relative error.

    Parameters
    ----------
    R : sequence of rows
        The local mechanism, ``R[j][x]`` the probability of report ``j`` for input ``x`` (floats or Fractions).
    others : sequence of int
        ``others[x]`` is the number of other users holding input ``x``.
    a, b : int
        The changing user's inputs (``P_a`` is compared with ``P_b``).
    t : float
        ``e^ε``.

    Returns
    -------
    TailSum
        ``ln δ`` (``-inf`` when ``δ = 0``), a bound on the relative error of ``δ``, and the number of tallies summed.
        Clone pairs with at most three merged categories go to :func:`~privgeom.amplification._engine.clone_delta_log`;
        every other pair to the core-and-minority sum of the module docstring (``docs/theory.md`` §18.7).

    Raises
    ------
    InvalidParameterError
        Malformed ``others``, ``a``, ``b`` or ``t``; more than four merged outputs; no input held by other users whose
        report law charges every merged output (outside the clone pairs).
    SizeLimitError
        When (tallies in the box) × (points of the minority's law) exceeds the limit ``shuffle_pair_work``.

    Examples
    --------
    >>> R = [[0.75, 0.25], [0.25, 0.75]]
    >>> s = pair_delta_log(R, (6, 1), 0, 1, 1.5)      # binary RR, one dissenter; exact 8019/131072
    >>> abs(math.exp(s.log_value) / (8019 / 131072) - 1) < 1e-12
    True
    """
    return _general_pair(R, others, a, b, t, use_clone=True)


def _general_pair(
    R: Sequence[Sequence[Scalar]], others: Sequence[int], a: int, b: int, t: float, *, use_clone: bool = False
) -> TailSum:
    """:func:`pair_delta_log`; with ``use_clone=False`` clone pairs too go through the core-and-minority sum."""
    k = len(R[0])
    counts = [int(c) for c in others]
    if len(counts) != k or any(c < 0 for c in counts):
        raise InvalidParameterError(f"others must give {k} non-negative counts (one per input), got {list(others)}")
    if not (0 <= a < k and 0 <= b < k) or a == b:
        raise InvalidParameterError(f"a and b must be two different inputs in 0..{k - 1}, got a = {a}, b = {b}")
    t = float(t)
    if not t > 0:
        raise InvalidParameterError(f"e^ε must be positive, got {t}")
    n = sum(counts) + 1
    held = [x for x in range(k) if counts[x]]
    inputs = sorted(set(held) | {a, b})
    merged = merge_outputs(R, inputs)
    m = len(merged)
    if m > 4:
        raise InvalidParameterError(
            f"the log-space pair route handles at most 4 merged outputs, got {m}; use the exact route at small n"
        )
    if use_clone and len(held) == 1:  # a clone pair: the closed form of §18.2 (lone outputs allowed)
        mg = merge_clone([[float(v) for v in row] for row in R], held[0], a, b)
        if len(mg.probs) <= 3:
            return clone_delta_log(mg, n, t)
    cols = {x: np.array([float(row[x]) for row in merged]) for x in inputs}
    # the core: the largest group whose report law charges every merged output (a virtual one when alone)
    full = [x for x in held if np.all(cols[x] > 0)]
    if held and not full:
        raise InvalidParameterError(
            "the log-space pair route needs one input held by other users whose reports charge every merged output"
        )
    core = max(full, key=lambda x: counts[x]) if full else None
    pi = cols[core] if core is not None else np.full(m, 1.0 / m)
    n0 = counts[core] + 1 if core is not None else 1
    # the implied (last) coordinate: the output of largest variance, so the box is smallest
    order = sorted(range(m), key=lambda j: pi[j] * (1 - pi[j]))
    pi = pi[order]
    ua = cols[a][order] / pi
    ub = cols[b][order] / pi
    v = ua - t * ub
    if float(np.max(v)) <= 0:
        return TailSum(-math.inf, 0.0, 0)  # ℓ ≤ 0 everywhere: P_a ≤ e^ε P_b at every tally
    minority = [(counts[x], cols[x][order]) for x in held if x != core]
    return _core_sum(n, n0, pi, ua, ub, v, t, minority, m - 1)


def _core_sum(
    n: int,
    n0: int,
    pi: np.ndarray,
    ua: np.ndarray,
    ub: np.ndarray,
    v: np.ndarray,
    t: float,
    minority: list[tuple[int, np.ndarray]],
    D: int,
) -> TailSum:
    """The core-and-minority sum of the module docstring, on boxes widened until the left-out mass is certified."""
    u = UNIT_ROUNDOFF
    d = n - n0
    if D == 0:  # one merged output: every tally is the same, δ = (1 − e^ε)₊
        return TailSum(math.log(1 - t), 4 * u, 1) if t < 1 else TailSum(-math.inf, 0.0, 0)
    lam = _tilt(pi, v)
    e = lam * v
    pl = pi * np.exp(e - np.max(e))
    pl = pl / np.sum(pl)
    center = n0 * pl
    sd = np.sqrt(n0 * pl * (1 - pl))
    s_l = math.sqrt(n0 * float(np.sum(pl * v * v) - np.sum(pl * v) ** 2))
    logY, etaY = _minority_law(minority, D) if d else (np.zeros((1,) * D), 0.0)
    ysupp = np.argwhere(np.isfinite(logY))
    lin = v[:D] - v[D]  # ℓ(z) = lin · z + v_D · (count of z)
    ly = ysupp @ lin + v[D] * d if d else np.zeros(1)
    # a margin far above the rounding of ℓ keeps every tally whose exact ℓ lies in the band
    margin = _BAND_MARGIN * (1.0 + float(np.max(np.abs(v))) * n)
    y_lo, y_hi = float(np.min(ly)) - margin, float(np.max(ly)) + margin
    K = _K0[D]
    while True:
        lo = [max(0, int(math.floor(center[i] - K * sd[i])) - 1) for i in range(D)]
        hi = [min(n0, int(math.ceil(center[i] + K * sd[i])) + 1) for i in range(D)]
        # tallies h with ℓ(h) > l_max are left out (certified below): beyond ℓ = 0 the terms carry e^{−λℓ} on top of
        # the tilted law's Gaussian decay, so the slab is the thinner of K σ_ℓ and K²/(2λ)
        l_max = min(K * s_l, K * K / (2 * lam) if lam > 0 else math.inf) + 1.0
        work = math.prod(hi[i] - lo[i] + 1 + d for i in range(D)) * len(ysupp)
        if work > current_limit("shuffle_pair_work"):
            raise SizeLimitError(
                f"the log-space δ of this pair costs {work:,} (box tallies × minority tallies; n = {n}, "
                f"{d} users outside the largest input group), above the limit shuffle_pair_work = "
                f"{current_limit('shuffle_pair_work'):,}; {limit_hint('shuffle_pair_work', work)}"
            )
        val, err, count = _slab_sum(n0, pi, ua, ub, v, t, logY, etaY, ysupp, lo, hi, d, n, (y_lo, y_hi, l_max))
        skip = _outside_bound(n0, pi, v, lam, lo, hi, l_max - y_hi)
        gap = skip - val if val > -math.inf else math.inf
        if skip == -math.inf and val == -math.inf:
            return TailSum(-math.inf, 0.0, 0)
        if gap <= math.log(_SKIP_FRACTION):
            return TailSum(val, err + (math.exp(gap) if skip > -math.inf else 0.0), count)
        if all(lo[i] == 0 and hi[i] == n0 for i in range(D)) and l_max - y_hi >= float(np.max(v)) * n0:
            raise InvalidParameterError(f"the certified tail could not be closed (n = {n}): δ underflows the bound")
        # the bound decays like e^{−K²/2}: widen by what is missing, with a margin
        missing = (gap - math.log(_SKIP_FRACTION)) if gap < math.inf else 40.0
        K = math.sqrt(K * K + 2 * missing) + 0.5


def _core_chunk(
    n0: int, pi: np.ndarray, ua: np.ndarray, ub: np.ndarray, v: np.ndarray, grids: list[np.ndarray], band
) -> tuple[np.ndarray, np.ndarray]:
    """``ln C_a``, ``ln C_b`` on a chunk of the core box (``grids``: open meshes of ``z_0 … z_{D−1}``), ``-inf``
    outside the simplex and outside the band ``band[0] < ℓ(z) ≤ band[1]`` where they are needed."""
    D = len(grids)
    shape = np.broadcast(*grids).shape
    last = n0 - sum(grids)
    ell = sum(v[i] * grids[i] for i in range(D)) + v[D] * last
    mask = np.broadcast_to((last >= 0) & (ell > band[0]) & (ell <= band[1]), shape).copy()
    for g in grids:
        mask &= (g >= 0) & (g <= n0)
    la = np.full(shape, -np.inf)
    lb = np.full(shape, -np.inf)
    if not np.any(mask):
        return la, lb
    # Mult(n₀, π)(z) as a chain of binomials (Loader's log-pmf per factor); the factors before the last depend on
    # fewer coordinates and are computed on their own grids
    partial: Any = np.zeros(())
    left_b: Any = np.asarray(float(n0))
    for i in range(D - 1):
        s_i, s_next = float(np.sum(pi[i:])), float(np.sum(pi[i + 1 :]))
        partial = partial + log_binom_pmf(grids[i], left_b, pi[i] / s_i, s_next / s_i)
        left_b = left_b - grids[i]
    s_i, s_next = float(np.sum(pi[D - 1 :])), float(pi[D])
    zs = [np.broadcast_to(g, shape)[mask] for g in grids]
    left_m = np.broadcast_to(left_b, shape)[mask]
    total = np.broadcast_to(partial, shape)[mask] + log_binom_pmf(zs[D - 1], left_m, pi[D - 1] / s_i, s_next / s_i)
    left = left_m - zs[D - 1]
    lin_a = sum(ua[i] * zs[i] for i in range(D)) + ua[D] * left
    lin_b = sum(ub[i] * zs[i] for i in range(D)) + ub[D] * left
    with np.errstate(divide="ignore", invalid="ignore"):
        la[mask] = np.where(lin_a > 0, total + np.log(np.where(lin_a > 0, lin_a, 1.0)), -np.inf) - math.log(n0)
        lb[mask] = np.where(lin_b > 0, total + np.log(np.where(lin_b > 0, lin_b, 1.0)), -np.inf) - math.log(n0)
    return la, lb


def _log_sum_shifted(core: np.ndarray, items: list[tuple[tuple[slice, ...], float]]) -> np.ndarray:
    """Pointwise ``ln Σ_y e^{ln Y(y) + core[shift_y]}``: the running maximum first, then the sum of exponentials."""
    if len(items) == 1:
        return items[0][1] + core[items[0][0]]
    top = np.full(core[items[0][0]].shape, -np.inf)
    for sl, ly in items:
        np.maximum(top, ly + core[sl], out=top)
    safe = np.where(np.isfinite(top), top, 0.0)
    acc = np.zeros_like(top)
    for sl, ly in items:
        acc += np.exp(ly + core[sl] - safe)
    with np.errstate(divide="ignore"):
        return np.where(np.isfinite(top), safe + np.log(acc), -np.inf)


#: Tallies per chunk of the box evaluated at once.
_CHUNK = 2_000_000


def _slab_sum(
    n0: int,
    pi: np.ndarray,
    ua: np.ndarray,
    ub: np.ndarray,
    v: np.ndarray,
    t: float,
    logY: np.ndarray,
    etaY: float,
    ysupp: np.ndarray,
    lo: list[int],
    hi: list[int],
    d: int,
    n: int,
    ranges: tuple[float, float, float],
) -> tuple[float, float, int]:
    """``ln Σ_h (P_a − e^ε P_b)₊`` over the tallies ``h ∈ box + [0, d]^D`` with ``y_lo < ℓ(h) ≤ l_max`` (elsewhere
    ``P_a ≤ e^ε P_b`` or the mass is certified by :func:`_outside_bound`) and its relative-error bound, in chunks of
    the first coordinate."""
    u = UNIT_ROUNDOFF
    D = len(lo)
    y_lo, y_hi, l_max = ranges
    band = (y_lo - y_hi, l_max - y_lo)  # ℓ(z) = ℓ(h) − ℓ(y) for the needed core tallies z = h − y
    hlen = [hi[i] - lo[i] + 1 + d for i in range(D)]

    def axis(values: np.ndarray, i: int) -> np.ndarray:
        return values.reshape(tuple(-1 if ax == i else 1 for ax in range(D)))

    zrest = [axis(np.arange(hlen[i] + d, dtype=float) + lo[i] - d, i) for i in range(1, D)]
    hrest = [axis(np.arange(hlen[i], dtype=float) + lo[i], i) for i in range(1, D)]
    rows = max(1, _CHUNK // max(1, math.prod(hlen[1:]) + 1))
    items = [
        (tuple(int(y[i]) for i in range(D)), float(logY[tuple(y)])) for y in ysupp
    ]  # (shift, ln Y(y)) for each point of the minority's support
    logs_all: list[np.ndarray] = []
    near_all: list[np.ndarray] = []
    lin = v[:D] - v[D]
    for start in range(lo[0], lo[0] + hlen[0], rows):
        count = min(rows, lo[0] + hlen[0] - start)
        # core tallies z_0 ∈ [start − d, start + count): index of h_0 − y_0 is (h_0 − start) + d − y_0
        z0 = axis(np.arange(count + d, dtype=float) + start - d, 0)
        ca, cb = _core_chunk(n0, pi, ua, ub, v, [z0, *zrest], band)
        shifted = [
            (tuple(slice(d - y[i], d - y[i] + (count if i == 0 else hlen[i])) for i in range(D)), ly) for y, ly in items
        ]
        LA, LB = _log_sum_shifted(ca, shifted), _log_sum_shifted(cb, shifted)
        h0 = axis(np.arange(count, dtype=float) + start, 0)
        ell_h = lin[0] * h0 + sum(lin[i] * hrest[i - 1] for i in range(1, D)) + v[D] * n
        keep = np.broadcast_to((ell_h > y_lo) & (ell_h <= l_max), LA.shape) & np.isfinite(LA)
        if not np.any(keep):
            continue
        la, lb = LA[keep], LB[keep]
        with np.errstate(divide="ignore", invalid="ignore"):
            gap = math.log(t) + lb - la  # ln r_h
            pos = gap < 0
            logs_all.append(la[pos] + np.log(-np.expm1(gap[pos])))
            near_all.append(np.stack([la, lb]))
    logs = np.concatenate(logs_all) if logs_all else np.zeros(0)
    if logs.size == 0:
        return -math.inf, 0.0, 0
    # per-tally relative error of P: Σ_y x_y (c + ln(1/x_y)) ≤ S (c + ln(N/S)) for positive terms of sum S (Jensen),
    # so the log-pmf (Loader), chain and accumulation bounds, linear in |ln term|, hold with |ln P| + ln N
    nr = np.concatenate(near_all, axis=1)
    extra = D + 2 + math.log(max(len(ysupp), 1)) + max(0.0, math.log(float(max(np.max(ua), np.max(ub)))))
    per_ulp = (_LOADER_ULPS + 2 * D + 6) * u  # Loader per factor; the chain's additions; ln Y + ln C − max; exp, log
    sums = 2 * len(ysupp) * u  # the sum of the exponentials (positive terms)

    def eta_of(lp: np.ndarray) -> np.ndarray:
        return per_ulp * (extra + np.abs(lp)) + sums + etaY + n * u

    eta_a, eta_b = eta_of(nr[0]), eta_of(nr[1])
    tol = float(np.max(np.maximum(eta_a, eta_b)))
    near = math.log(t) + nr[1] - nr[0] < math.log1p(3 * tol)
    with np.errstate(divide="ignore"):
        err_logs = np.logaddexp(
            nr[0][near] + np.log(eta_a[near]), math.log(t) + nr[1][near] + np.log(eta_b[near])
        ) - math.log1p(-tol)
    val = float(np.logaddexp.reduce(logs))
    err_abs = float(np.logaddexp.reduce(err_logs)) if err_logs.size else -math.inf
    return val, math.exp(err_abs - val) + 4 * u * math.log(max(logs.size, 2)), int(logs.size)
