"""Box bounds by mixtures: a user whose input is only known to lie in a set ``X`` is, up to a shift of the tally, a
user of one common report law ``ν`` with probability ``γ`` and absent otherwise (``docs/theory.md`` §18.9).

**Lemma (mixture).** Let ``μ_j = min_{x ∈ X} R[j, x]``, ``γ = Σ_j μ_j > 0`` and ``ν = μ/γ``. For every input
``x ∈ X`` the report law is ``R[·, x] = γ ν + Σ_j (R[j, x] − μ_j) e_j``, so adding that user to a tally is the
kernel ``K_x = γ K_ν + Σ_j (R[j, x] − μ_j) S_j`` (``S_j`` adds one report ``j``: an injective map, which leaves the
hockey-stick divergence unchanged). The divergence is jointly convex, hence for the laws ``P_a, P_b`` of any pair

    δ(K_x P_a, K_x P_b) ≤ γ δ(K_ν P_a, K_ν P_b) + (1 − γ) δ(P_a, P_b),

whatever ``x ∈ X``. Applied to the ``r`` users a box leaves open, one after the other, every dataset of the box has
``δ ≤ Σ_{m=0}^{r} Bin(r, γ)(m) f(m)`` with ``f(m)`` the ``δ`` of the box's lower corner plus ``m`` users of law ``ν``.
``f`` does not increase with ``m`` (adding a user is a Markov kernel), so every ``m`` below an evaluated ``m'`` is
bounded by ``f(m')`` and the binomial's far tails by ``f`` at their inner edge.

The bound keeps what makes the users of the lower corner differ from each other — it is nearly tight when the users
left open would all be worth about ``γ`` users of law ``ν``, as for ``k``-ary randomized response, where ``ν`` is
uniform and a user holding ``x`` *is* a uniform user with probability ``γ = k q`` and truthful otherwise.

Examples
--------
>>> R = [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]          # 3-RR, e^ε0 = 2
>>> common_law(R, [0, 2])                                                   # γ = 3q, ν uniform
(0.75, (0.3333333333333333, 0.3333333333333333, 0.3333333333333333))
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from .._core.logpmf import log_binom_pmf
from ._engine import UNIT_ROUNDOFF, TailSum

__all__ = ["common_law", "mixture_bound", "ProfileEvaluator", "profile_of"]

#: ``(R_aug, others_aug, a, b, t, ms) -> [TailSum]``: ``δ`` of the pair whose others are ``others_aug`` with the last
#: entry (users of the appended law, the last column of ``R_aug``) replaced by each ``m`` in ``ms``.
ProfileEvaluator = Callable[
    [Sequence[Sequence[float]], Sequence[int], int, int, float, Sequence[int]],
    list[TailSum],
]
#: Binomial terms more than this many nats below the largest are bounded by their window's edge (not evaluated one
#: by one): ``e^{-36}`` of the mass times at most the edge value.
_SPAN = 36.0
#: A window is not refined when the interpolated estimate is within this many nats of the target (a prune would
#: need the refinement to find ``f`` lower than the interpolation by about that much).
_HOPELESS = 1e-3
#: Consecutive values of a dense profile counted as one pair evaluation (the search's budget counts evaluations).
_STEPS_PER_PAIR = 16
#: Values of ``f`` evaluated across the binomial's window first.
_POINTS = 8
#: Below the window one more value of ``f`` is evaluated where the mass left beneath it is this many nats under the
#: target; beneath it ``f <= 1``.
_FLOOR = 40.0


def common_law(R: Sequence[Sequence[float]], X: Sequence[int]) -> tuple[float, tuple[float, ...]] | None:
    """``(γ, ν)`` of the mixture lemma for the inputs ``X``, or None when the laws of ``X`` share no report."""
    mu = [min(float(row[x]) for x in X) for row in R]
    gamma = math.fsum(mu)
    if not gamma > 0:
        return None
    return gamma, tuple(v / gamma for v in mu)


def profile_of(evaluator: Callable[..., TailSum]) -> ProfileEvaluator:
    """A profile evaluator that calls a pair evaluator once per ``m``."""

    def profile(
        R_aug: Sequence[Sequence[float]], others: Sequence[int], a: int, b: int, t: float, ms: Sequence[int]
    ) -> list[TailSum]:
        base = list(others[:-1])
        return [evaluator(R_aug, tuple(base + [int(m)]), a, b, t) for m in ms]

    return profile


def _estimate(lw: np.ndarray, points: list[int], known: dict[int, float], r: int) -> float:
    """``ln Σ_m w_m f(m)`` with ``ln f`` interpolated linearly between the evaluated ``points`` (constant beyond):
    an estimate of what the full window would give, used only to decide whether evaluating it is worth it."""
    ms = np.arange(r + 1, dtype=float)
    xs = np.array(points, dtype=float)
    ys = np.array([known[m] for m in points])
    if not np.all(np.isfinite(ys)):
        return -math.inf
    return float(np.logaddexp.reduce(lw + np.interp(ms, xs, ys)))


def _upper(s: TailSum) -> float:
    """``ln`` of the certified upper end ``v (1 + e)``."""
    return s.log_value + math.log1p(s.rel_error) if s.log_value > -math.inf else -math.inf


def mixture_bound(
    R: Sequence[Sequence[float]],
    lo: Sequence[int],
    r: int,
    X: Sequence[int],
    a: int,
    b: int,
    t: float,
    profile: ProfileEvaluator,
    *,
    target: float,
    f0: TailSum | None = None,
    dense: bool = False,
    cache: dict[int, float] | None = None,
) -> tuple[float, int, float] | None:
    """``ln`` of a certified upper bound on ``δ`` over every dataset ``lo + e`` with ``|e| = r`` users whose inputs lie
    in ``X`` (the mixture lemma of the module docstring), the number of pair evaluations it took, and ``ln`` of an
    estimate of the bound with every ``f(m)`` known (for the search's choices only); None when the laws of ``X`` share
    no report.

    ``target`` is the ``ln δ`` the bound must beat (the branch and bound's best lower bound): the binomial's lower tail
    beneath ``e^{target − 40}`` of mass is bounded by ``f <= 1``. ``f0`` is ``f(0)`` when already known. ``f`` is
    evaluated at about ``_POINTS`` points of the binomial's window first; while the bound misses ``target`` but the
    optimistic sum does not rule a prune out, the stride is halved — or, with ``dense`` (a profile evaluator that
    shares work between consecutive ``m``), the whole window is asked for in one call — unless ``ln f``
    interpolated linearly between the points already evaluated reaches ``target`` (an estimate deciding only whether
    to spend more work: a bound is always the sum above). ``cache`` maps ``m`` to ``ln`` of ``f(m)``'s certified upper
    end for this corner, ``a``, ``b`` and law ``ν`` (shared between boxes; filled here).
    """
    law = common_law(R, X)
    if law is None or r <= 0:
        return None
    gamma, nu = law
    R_aug = [list(map(float, row)) + [nu[j]] for j, row in enumerate(R)]
    # X holds one report law: every dataset of the box has the same δ, that of r users of law ν
    if len({tuple(float(row[x]) for row in R) for x in X}) == 1:
        value = _upper(profile(R_aug, list(lo) + [0], a, b, t, [r])[0])
        return value, 1, value
    ms_all = np.arange(r + 1, dtype=float)
    lw = log_binom_pmf(ms_all, r, gamma, max(0.0, 1.0 - gamma))
    u = UNIT_ROUNDOFF
    # weights' relative error: Loader's 16 u (1 + |ln w|) and the rounding of γ (r ulps of γ, relative)
    werr = 16 * u * (1 + np.abs(np.where(np.isfinite(lw), lw, 0.0))) + 8 * (r + 1) * u / max(min(gamma, 1 - gamma), u)
    lw_up = lw + np.log1p(werr)
    top = float(np.max(lw))
    inside = np.flatnonzero(lw >= top - _SPAN)
    m_lo, m_hi = int(inside[0]), int(inside[-1])
    # beneath the window: f <= 1 below a point where the mass beneath is under e^{target − _FLOOR}
    floor = 0
    if m_lo > 0:
        below = np.logaddexp.accumulate(lw_up[:m_lo])  # ln P(M <= m), m < m_lo
        ok = np.flatnonzero(below <= target - _FLOOR)
        floor = int(ok[-1]) + 1 if ok.size else 0
    # f(m) is evaluated at points m_0 = floor < m_1 < … < m_hi; every m in [m_i, m_{i+1}) is bounded by f(m_i)
    # (f does not increase), m > m_hi by f(m_hi), m < floor by 1. Points are added (halving the stride) while the
    # bound misses the target but the optimistic sum (f(m_{i+1}) on each bin) does not rule a prune out.
    known = cache if cache is not None else {}
    if floor == 0 and f0 is not None:
        known[0] = _upper(f0)
    evaluations = 0
    stride = max(1, (m_hi - m_lo) // _POINTS)
    head = float(np.logaddexp.reduce(lw_up[:floor])) if floor > 0 else -math.inf

    def bin_mass(i: int, j: int) -> float:  # ln P(i <= M < j), summed directly (no cancellation)
        return float(np.logaddexp.reduce(lw_up[i:j])) if j > i else -math.inf

    while True:
        points = sorted(set([floor] + list(range(m_lo, m_hi + 1, stride)) + [m_hi]))
        need = [m for m in points if m not in known]
        if need:
            for m, s in zip(need, profile(R_aug, list(lo) + [0], a, b, t, need)):
                known[m] = _upper(s)
            # a dense profile's consecutive m cost a recurrence step each, about a sixteenth of a pair evaluation
            evaluations += 1 + len(need) // _STEPS_PER_PAIR if dense and stride == 1 else len(need)
        edges = points + [r + 1]
        pess = [head]
        opt = [head]
        for i, m in enumerate(points):
            w = bin_mass(m, edges[i + 1])
            pess.append(w + known[m])
            opt.append(w + (known[points[i + 1]] if i + 1 < len(points) else known[m]))
        total = float(np.logaddexp.reduce(np.array(pess)))
        if stride == 1 or total < target or float(np.logaddexp.reduce(np.array(opt))) >= target:
            break
        if _estimate(lw, points, known, r) >= target - _HOPELESS:
            break  # ln f interpolated linearly between the points already reaches the target: refining is hopeless
        stride = 1 if dense else max(1, stride // 2)  # a dense profile takes the rest of the window in one call
    logs = pess
    total = float(np.logaddexp.reduce(np.array(logs)))
    estimate = _estimate(lw, points, known, r) if stride > 1 else total
    # the sums' rounding (positive terms), and ν rounded to doubles: each of at most r users of law ν moves the
    # tally's law by a few ulps relative (the convention of every log-space route: the mechanism's double entries)
    return total + 16 * (r + len(logs) + 2) * u, evaluations, estimate
