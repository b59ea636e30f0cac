"""Certified ``δ(ε)`` of the shuffled tally of 3-ary randomized response with uniform users, in tilted linear space.

The local mechanism is 3-ary randomized response, ``R = [[p, q, q], [q, p, q], [q, q, p]]`` (``p > q > 0``,
``q = (1 − p)/2``); besides ``A``, ``B``, ``C`` other users holding the inputs ``a``, ``b`` and the third input ``c``
there are ``m`` *uniform users* (report uniform over the three outputs). The changing user holds ``a`` or ``b``.
The method is ``docs/theory.md`` §18.10:

- every report is a mixture, ``R[·, x] = γ U + (1 − γ) e_x`` with ``γ = 3q``; the tally is ``(h_a, h_b)``
  (``h_c = n − h_a − h_b``), kept in the coordinates ``(σ, h₂) = (h_a + h_b, h₂)``;
- all laws are **exponentially tilted** by ``x^h = e^{θ·h}`` (an exact rescaling: the tilted law of the others is
  the law of users whose report laws are ``π_j x_j / M`` with ``M = Σ_j π_j x_j``), with ``θ`` the point of least
  large-deviation rate on the curve ``M_a(θ) = e^ε M_b(θ)`` (where the likelihood ratio crosses ``e^ε``: the
  dominating point of ``δ``); where the box also holds tallies of tilt weight beyond the range of doubles, further
  tilts on the segment towards the mixture bound's dominating point (below) take them, each tally from the tilt of
  smallest log scale ``ln Z + ln x^{−h}``;
- the others' tilted law is one matrix product ``K · β`` for the larger of the ``a``/``b`` groups (its truthful
  count on the band of ``K``, the landings of every uniform draw split by ``β``), then the smaller group's truthful
  count ``T₂`` by adding its ``B − T₂`` uniform draws one at a time (a three-term recurrence on the grid), and every
  further uniform user by the same recurrence (:func:`rr3_delta_over_m`);
- the changing user is a three-term stencil, and ``δ = Z Σ_h x^{−h} (P̂_a − e^ε P̂_b)₊`` on a box of tallies around
  both dominating points; the mass outside the box is bounded by Chernoff's bound on
  ``(P_a − e^ε P_b)₊(h) ≤ 3(1 − γ)(1 − κ) P(H' = h, Σ_draws (ℓ_j − κ) > 0)`` (``ℓ(y) = y_a − e^ε y_b``,
  ``κ = q(e^ε − 1)/(p − q)``, the sum over the uniform draws of the tally ``H'`` in which the changing user draws
  uniformly), a product of one moment generating function per user.

Every quantity is a sum of positive terms, so each computed value carries a relative error bound ``η`` (Loader's
log-pmf accuracy per factor — Loader 2000, *Fast and accurate computation of binomial probabilities* —, ``γ_W`` of
each product or convolution of length ``W`` — Higham 2002, *Accuracy and Stability of Numerical Algorithms*, §3.1, for
non-negative terms in any order —, a few ``u`` per recurrence step
and per user for the rounding of the tilted report laws) and an absolute bound ``τ`` (underflow, and factors below
``e^{−L}`` carried as absolute errors or left out, ``L`` set ``50`` above the largest tilt weight ``ln x^{−h}`` of the
tallies a tilt takes, relative to ``δ``'s scale); the bound on ``δ`` sums ``η (P_a + e^ε P_b) + (1 + e^ε) τ``, times
the weight, over every tally whose sign the errors leave open (in logs where the weight exceeds ``e^640``, or Chernoff's
bound on a half-space holding those tallies), the roundings of the tilt weights and of ``ln Z``, and the certified
mass outside the box.

Examples
--------
>>> from fractions import Fraction as F
>>> from privgeom.amplification._engine import exact_pair_delta
>>> s = rr3_pair_delta_log(0.5, 2, 1, 1, 1, 1.5)      # p = 1/2; others: 2 hold a, 1 b, 1 c, 1 uniform user
>>> third = F(1, 3)
>>> R = [[F(1, 2), F(1, 4), F(1, 4), third], [F(1, 4), F(1, 2), F(1, 4), third], [F(1, 4), F(1, 4), F(1, 2), third]]
>>> exact = exact_pair_delta(R, (2, 1, 1, 1), 0, 1, F(3, 2))
>>> abs(math.exp(s.log_value) / float(exact) - 1) <= s.rel_error < 1e-9
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import numpy as np
from scipy.optimize import brentq, minimize, minimize_scalar

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.hints import limit_hint
from .._core.limits import current_limit
from .._core.logpmf import log_binom_pmf
from .._core.numbers import Scalar
from ._engine import UNIT_ROUNDOFF, TailSum

__all__ = ["rr3_pair_delta_log", "rr3_delta_over_m", "rr3_evaluator"]

_U = UNIT_ROUNDOFF
#: Root-finding tolerance of the mixture bound's tilt (it only places the box: any value is sound).
_ALPHA_TOL = 1e-13
#: Stopping tolerance of the searches for tilts and exponents (any value is sound, a better one tighter).
_NEWTON_TOL = 1e-7
#: Ridge of the Newton step's Hessian, and the smallest step length it divides by (a search direction only).
_RIDGE, _TINY_STEP = 1e-12, 1e-300
#: Floor of the error in the test that decides whether the left-out mass calls for another pass.
_ERR_FLOOR = 1e-12
_TINY = 2.0**-1074
#: Loader's per-factor accuracy in units of ``u (1 + |ln P|)`` (the convention of ``_engine``).
_LOADER_ULPS = 16.0
#: Factors with ``ln P`` below ``−L`` carry their error as an absolute bound (``≤ 16 u (1 + 746) e^{−L}``), with
#: ``L = _L_CAP`` or, where the box holds tilt weights up to ``e^W``, ``W + _L_MARGIN`` (at most ``_L_MAX``).
_L_CAP = 250.0
_L_MARGIN = 50.0
_L_MAX = 690.0
#: Binomial weights below ``e^{−L − _L_DROP}`` are left out (each adds at most that to the absolute bound).
_L_DROP = 30.0
#: Tallies of tilt weight ``Z x^{−h}`` above ``e^_W_CAP`` times that of the dominating point are summed in logs (only
#: where their sign is open: there the absolute error bound of the tilted law is amplified by the weight).
_W_CAP = _L_MAX - _L_MARGIN
#: The certified mass outside the box may be at most this fraction of the sum.
_SKIP_FRACTION = 1e-14
#: Initial half-width of the box in standard deviations of the dominating point's law.
_K0 = 9.5
#: Relative error of one user's tilted report law, in units of ``u`` (:func:`_tilted`).
_PER_USER = 6.0
#: The most tilts of one box (each takes the tallies where its scale is the smallest).
_MAX_PASS = 2
#: Values of ``m`` evaluated on one box (one tilt, one base law).
_CHUNK = 96


def _gamma(k: float) -> float:
    return k * _U / (1 - k * _U)


def _pmf(N: int, p1: float, p0: float, lcap: float) -> tuple[int, np.ndarray, int]:
    """``Bin(N, p1)`` on the range where ``ln P ≥ −lcap − _L_DROP``: ``(start, values, dropped count)``."""
    lp = log_binom_pmf(np.arange(N + 1, dtype=float), N, p1, p0)
    keep = np.flatnonzero(lp >= -lcap - _L_DROP)
    lo, hi = int(keep[0]), int(keep[-1])
    return lo, np.exp(lp[lo : hi + 1]), N + 1 - (hi - lo + 1)


def _check(p: float, counts: Sequence[int], t: float, q: float | None = None) -> tuple[float, float, float]:
    p, t = float(p), float(t)
    if not (1.0 / 3.0 < p < 1.0):
        raise InvalidParameterError(f"3-ary randomized response needs 1/3 < p < 1, got p = {p}")
    for name, c in zip(("A", "B", "C", "m"), counts):
        if int(c) != c or c < 0:
            raise InvalidParameterError(f"the count {name} must be a non-negative integer, got {c}")
    if not t >= 1.0 or math.isinf(t):
        raise InvalidParameterError(f"e^ε must be a finite number ≥ 1, got {t}")
    q = (1.0 - p) / 2.0 if q is None else float(q)
    if abs(p + 2 * q - 1) > 4 * _U:
        raise InvalidParameterError(f"3-ary randomized response needs p + 2q = 1, got p = {p}, q = {q}")
    if not 0 < q < p:
        raise InvalidParameterError(f"3-ary randomized response needs p > q = (1 − p)/2, got p = {p}")
    return p, q, t


class _Pair:
    """A pair in the outputs ``(1, 2, c)``: group 1 (the larger of the ``a``/``b`` groups) enters the matrix
    product, group 2 the recurrence; ``a_is_1`` says whether output 1 is ``a``."""

    def __init__(self, p: float, q: float, t: float, A: int, B: int, C: int):
        self.p, self.q, self.t = p, q, t
        self.a_is_1 = A >= B
        self.N1, self.N2, self.C = (A, B, C) if self.a_is_1 else (B, A, C)
        self.law_a = np.array([p, q, q]) if self.a_is_1 else np.array([q, p, q])
        self.law_b = self.law_a[[1, 0, 2]]
        self.ell = np.array([1.0, -t, 0.0]) if self.a_is_1 else np.array([-t, 1.0, 0.0])
        # each uniform draw j of H' scores ℓ_j − κ; the tilt α ≥ 0 of the draws with mean score 0 (theory §18.10)
        self.kappa = q * (t - 1) / (p - q)
        self.score = self.ell - self.kappa

        def f(a: float) -> float:
            return float(np.sum(self.score * np.exp(a * self.score)))

        hi = 1.0
        while f(hi) <= 0 and hi < 2.0**20:  # (only where t·q rounds to p: the centre of the box, not a bound)
            hi *= 2
        self._rate: dict[int, tuple[tuple[float, float], np.ndarray, np.ndarray]] = {}
        self.alpha = 0.0 if f(0.0) >= 0 else (float(brentq(f, 0.0, hi, xtol=_ALPHA_TOL)) if f(hi) > 0 else hi)

    def groups(self, m: int) -> list[tuple[int, int]]:
        """``(count, truthful output)`` of every user of ``H'`` (−1: a uniform user; the changing user is one)."""
        return [(self.N1, 0), (self.N2, 1), (self.C, 2), (m + 1, -1)]

    def dominating(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        """Mean and standard deviations of ``(σ, h₂)`` under the tilt ``e^{α Σ (ℓ_j − κ)}`` of the uniform draws."""
        gam, e = 3 * self.q, np.exp(self.alpha * self.score) / 3
        mean, cov = np.zeros(2), np.zeros((2, 2))
        for count, out in self.groups(m):
            w = e.copy() if out < 0 else gam * e
            if out >= 0:
                w[out] += 1 - gam
            w = w / w.sum()
            mean += count * w[:2]
            cov += count * (np.diag(w[:2]) - np.outer(w[:2], w[:2]))
        T = np.array([[1.0, 1.0], [0.0, 1.0]])  # (h1, h2) -> (σ, h2)
        c2 = T @ cov @ T.T
        return T @ mean, np.sqrt(np.maximum(np.diag(c2), 0.25))

    def theta(self, target: np.ndarray, m: int) -> tuple[float, float]:
        """``(θ₁, θ₂)`` whose exponential tilt of the others and one uniform user has mean ``target`` (Newton; any
        ``θ`` is an exact rescaling, this one only centres the doubles' range)."""
        laws = [self.law_of(g) for g in range(4)]
        counts = [self.N1, self.N2, self.C, m + 1]
        h = np.array([target[0] - target[1], target[1]])
        th = self.alpha * self.ell[:2]
        for _ in range(60):
            x = np.exp(np.append(th, 0.0) - max(float(np.max(th)), 0.0))
            g, H = -h.copy(), np.zeros((2, 2))
            for c, law in zip(counts, laws):
                w = law * x / float(law @ x)
                g += c * w[:2]
                H += c * (np.diag(w[:2]) - np.outer(w[:2], w[:2]))
            if float(np.max(np.abs(g))) < _NEWTON_TOL * (1 + float(np.sum(counts))):
                break
            step = np.linalg.solve(H + _RIDGE * np.eye(2), g)
            th = th - step * min(1.0, 2.0 / max(_TINY_STEP, float(np.max(np.abs(step)))))
        return float(th[0]), float(th[1])

    def rate_point(self, m: int) -> tuple[tuple[float, float], np.ndarray, np.ndarray]:
        """The point of least large-deviation rate on the curve ``M_a(θ) = e^ε M_b(θ)`` (where the likelihood ratio
        of the tilted law crosses ``e^ε``): its tilt ``(θ₁, θ₂)``, the tilted mean of ``(σ, h₂)`` and its standard
        deviations. Only the centre of the box and of the doubles' range (any tilt is an exact rescaling)."""
        if m in self._rate:
            return self._rate[m]
        p, q, t = self.p, self.q, self.t
        ia, ib = (0, 1) if self.a_is_1 else (1, 0)
        laws = [self.law_of(g) for g in range(4)]
        counts = [self.N1, self.N2, self.C, m + 1]

        def point(u: float) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
            xb = math.exp(u)  # on the curve: p x_a + q x_b + q = t (q x_a + p x_b + q)
            xa = (xb * (t * p - q) + q * (t - 1)) / (p - t * q)
            x = np.ones(3)
            x[ia], x[ib] = xa, xb
            th = np.log(x[:2])
            mean, cov, lam = np.zeros(2), np.zeros((2, 2)), 0.0
            for c, law in zip(counts, laws):
                if c == 0:
                    continue
                M = float(law @ x)
                w = law * x / M
                mean += c * w[:2]
                cov += c * (np.diag(w[:2]) - np.outer(w[:2], w[:2]))
                lam += c * math.log(M)
            return th, float(th @ mean) - lam, mean, cov

        grid = np.linspace(-12.0, 12.0, 97)
        vals = [point(float(u))[1] for u in grid]
        i = int(np.argmin(vals))
        lo, hi = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, grid.size - 1)])
        u = float(minimize_scalar(lambda v: point(v)[1], bounds=(lo, hi), method="bounded").x)
        th, _, mean, cov = point(u)
        T = np.array([[1.0, 1.0], [0.0, 1.0]])
        c2 = T @ cov @ T.T
        self._rate[m] = ((float(th[0]), float(th[1])), T @ mean, np.sqrt(np.maximum(np.diag(c2), 0.25)))
        return self._rate[m]

    def law_of(self, g: int) -> np.ndarray:
        p, q = self.p, self.q
        return [np.array([p, q, q]), np.array([q, p, q]), np.array([q, q, p]), np.full(3, 1.0 / 3)][g]


def _tilted(pr: _Pair, th: tuple[float, float]) -> dict[str, float]:
    """The tilted report laws as floats. ``x₁ ≈ e^{θ₁}``, ``x₂ ≈ e^{θ₂}`` are multiples of ``2^-20`` (then
    ``x₁ + x₂`` and ``x₁ + x₂ + 1`` are exact) and with ``x_c = 1`` define the tilt exactly; every probability below
    is one to three roundings of exact data, at most ``5 u`` on the path of one user's report (``6 u`` is used)."""
    p, q = pr.p, pr.q
    x1, x2 = (max(1.0, round(math.exp(min(max(v, -13.0), 20.0)) * 2.0**20)) / 2.0**20 for v in th)
    s = x1 + x2 + 1
    M1, M2, Mc = p * x1 + q * (x2 + 1), p * x2 + q * (x1 + 1), p + q * (x1 + x2)
    return dict(
        x1=x1, x2=x2, lx1=math.log(x1), lx2=math.log(x2), M1=M1, M2=M2, Mc=Mc, Mu=s / 3,
        t1=(p - q) * x1 / M1, n1=q * s / M1, t2=(p - q) * x2 / M2, n2=q * s / M2,
        lc=q * (x1 + x2) / Mc, nc=p / Mc, rl=(x1 + x2) / s, nl=1 / s, rs=x2 / (x1 + x2), ns=x1 / (x1 + x2),
        u1=x1 / s, u2=x2 / s, uc=1 / s,
    )  # fmt: skip


def _recurrence_rows(first: np.ndarray, stay: float, move: float, count: int, start: int) -> np.ndarray:
    """``count`` rows ``x[start:]`` from ``x = first``, each step ``x ← stay·x + move·(x shifted)`` (positive terms)."""
    out = np.empty((count, first.size - start))
    x = first
    for i in range(count):
        out[i] = x[start:]
        if i < count - 1:
            nxt = stay * x
            nxt[1:] += move * x[:-1]
            x = nxt
    return out


def _stencil(Q: np.ndarray, w: tuple[float, float, float], out: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """``(w₁ Q(σ−1, h) + w₂ Q(σ−1, h−1)) + w_c Q(σ, h)`` into ``out`` (zero below the array: exact from the low edge +
    steps on), dropping the first row and column, which are never read again; ``scratch`` is a work buffer."""
    np.multiply(Q, w[2], out=out)
    r, c = Q.shape
    sc = scratch[: r - 1, :c]
    np.multiply(Q[:-1, :], w[0], out=sc)
    out[1:, :] += sc
    sc = scratch[: r - 1, : c - 1]
    np.multiply(Q[:-1, :-1], w[1], out=sc)
    out[1:, 1:] += sc
    return out[1:, 1:]


class _Stepper:
    """Adds one uniform user at a time to an array, between two buffers (the array shrinks by a row and a column)."""

    def __init__(self, Q: np.ndarray, w: tuple[float, float, float]):
        self.w, self.bufs, self.turn = w, [np.empty_like(Q), np.empty_like(Q)], 0
        self.scratch = np.empty_like(Q)

    def step(self, Q: np.ndarray) -> np.ndarray:
        r, c = Q.shape
        buf = self.bufs[self.turn]
        self.turn ^= 1
        return _stencil(Q, self.w, buf[buf.shape[0] - r :, buf.shape[1] - c :], self.scratch)


def _base(pr: _Pair, tl: dict[str, float], m0: int, org: tuple[int, int], shape: tuple[int, int], D: int, lcap: float):
    """The others' tilted law at ``m = m0`` on the array ``org + [0, shape)`` of ``(σ, h₂)``, exact there, with its
    relative and absolute error bounds (factors below ``e^{−lcap}`` carry an absolute error)."""
    s0, b0 = org
    ns, nb = shape
    o2, w2, drop2 = _pmf(pr.N2, tl["t2"], tl["n2"], lcap)
    R2 = w2.size - 1
    T2hi = o2 + R2
    qs0, qb0, qns, qnb = s0 - T2hi, b0 - T2hi, ns + R2, nb + R2  # Q array: E shifted by every T2
    o1, w1, drop1 = _pmf(pr.N1, tl["t1"], tl["n1"], lcap)
    T1lo, T1hi = o1, o1 + w1.size - 1
    klo = m0 + pr.N2 - T2hi  # uniform draws of the smallest Q: m0 + (N2 − T2hi)
    xl, xh = max(0, qs0 - T1hi), qs0 + qns - 1 - T1lo  # landings σ'
    work = max(qns * (xh - xl + 1), (xh - xl + 1) * qnb, qns * qnb) * (R2 + D + 2)  # tally updates
    if work > current_limit("shuffle_pair_work"):
        raise SizeLimitError(
            f"the 3-ary randomized-response δ of this pair costs {work:,} (array cells × recurrence steps), above "
            f"the limit shuffle_pair_work = {current_limit('shuffle_pair_work'):,}; "
            f"{limit_hint('shuffle_pair_work', work)}"
        )
    eta_pmf = _LOADER_ULPS * _U * (1 + lcap) + 2 * _U
    tau_pmf = _LOADER_ULPS * _U * 747 * math.exp(-lcap) + 2 * _TINY
    drop = math.exp(-lcap - _L_DROP)
    Q = np.zeros((qns, qnb))
    eta, tau, W = 0.0, 0.0, 1
    if xh >= xl:
        jlo, jhi = klo + pr.N1 - T1hi, klo + pr.N1 - T1lo
        wl = max(0, xl - (jhi - jlo))
        oc, bc, dc = _pmf(pr.C, tl["lc"], tl["nc"], lcap)
        oj, bj, dj = _pmf(jlo, tl["rl"], tl["nl"], lcap)
        conv = np.convolve(bc, bj)
        lam = np.zeros(xh - wl + 1)
        a, b = max(wl, oc + oj), min(xh, oc + oj + conv.size - 1)
        if b >= a:
            lam[a - wl : b - wl + 1] = conv[a - oc - oj : b - oc - oj + 1]
        table = _recurrence_rows(lam, tl["nl"], tl["rl"], jhi - jlo + 1, xl - wl)
        # K(σ, σ') = Bin(N1, t1)(σ − σ') Λ_{klo + N1 − (σ − σ')}(σ'), on the band T1lo ≤ σ − σ' ≤ T1hi
        sig = np.arange(qs0, qs0 + qns)[:, None]
        sp = np.arange(xl, xh + 1)[None, :]
        T1 = sig - sp
        band = (T1 >= T1lo) & (T1 <= T1hi)
        Ti = np.where(band, T1 - T1lo, 0)
        K = np.where(band, w1[Ti] * table[np.where(band, T1hi - T1, 0), sp - xl], 0.0)
        # β(σ', h) = Bin(σ', rs)(h) by the recurrence in σ' from its first row (positive terms, 3u a step)
        hw0 = qb0 - (xh - xl)  # the recurrence is exact from its low edge + steps on (negative h: zero)
        hrow = np.arange(hw0, qb0 + qnb, dtype=float)
        row = np.exp(log_binom_pmf(hrow, xl, tl["rs"], tl["ns"]))
        beta = _recurrence_rows(row, tl["ns"], tl["rs"], xh - xl + 1, qb0 - hw0)
        Q = K @ beta
        W = xh - xl + 1
        nstep = jhi - jlo + W
        eta = 4 * eta_pmf + _gamma(conv.size + 2) + _gamma(W + 2) + 4 * _U * nstep
        tau = 4 * W * (tau_pmf + drop * (dc + dj + drop1 + 4) + _TINY * (nstep + 4))
    S = np.zeros(shape)
    stepper = _Stepper(Q, (tl["u1"], tl["u2"], tl["uc"]))
    for s in range(R2 + 1):  # T2 = T2hi − s: Q holds klo + s uniform draws; kept from index s on (the rest is unused)
        S += w2[R2 - s] * Q[:ns, :nb]
        if s < R2:
            Q = stepper.step(Q)
    eta += eta_pmf + 5 * _U * R2 + _gamma(R2 + 2)
    tau = (tau + tau_pmf) * (R2 + 1) + drop * (drop2 + 1) + 3 * _TINY * (R2 + 1)
    return S, eta, tau


def _lnZ(pr: _Pair, tl: dict[str, float], m: int) -> float:
    """``ln Z`` of the tilt: ``Σ_g c_g ln M_g`` over the others (the changing user's factor is in its stencil)."""
    lnZ = pr.N1 * math.log(tl["M1"]) + pr.N2 * math.log(tl["M2"]) + pr.C * math.log(tl["Mc"])
    return lnZ + m * math.log(tl["Mu"])


def _ln_err(pr: _Pair, tl: dict[str, float], m: int) -> float:
    """A bound on the rounding error of :func:`_lnZ` (absolute, on the logarithm)."""
    logs_m = [(pr.N1, tl["M1"]), (pr.N2, tl["M2"]), (pr.C, tl["Mc"]), (m, tl["Mu"])]
    return 4 * _U * (sum(c * abs(math.log(M)) for c, M in logs_m) + abs(_lnZ(pr, tl, m)) + 4)


def _chunk(
    pr: _Pair, m_lo: int, m_hi: int, K: float, npass: int, full: bool = True
) -> tuple[list[TailSum | None], float, bool]:
    """``δ`` for every ``m`` of ``[m_lo, m_hi]`` on one box; ``None`` where the box's certificate fails, the
    largest missing factor (``ln``) of the certificate, and whether a second tilt is wanted (tallies of large tilt
    weight whose sign the errors leave open). ``npass = 2`` adds the tilt of the mixture bound's dominating point:
    each tally is taken from the tilt under which its log scale ``ln Z + ln x^{−h}`` is smaller. ``full = False`` keeps
    the floors at ``e^{−_L_CAP}`` (tallies of weight above ``e^{_L_CAP − _L_MARGIN}`` then go to the log sum)."""
    t = pr.t
    n_max = pr.N1 + pr.N2 + pr.C + m_hi + 1
    D = m_hi - m_lo
    m_mid = (m_lo + m_hi) // 2
    (c_lo, sd_lo), (c_hi, sd_hi) = pr.dominating(m_lo), pr.dominating(m_hi)
    (_, r_lo, rd_lo), (_, r_hi, rd_hi) = pr.rate_point(m_lo), pr.rate_point(m_hi)
    th, mid, _ = pr.rate_point(m_mid)
    cs = [(c_lo, sd_lo), (c_hi, sd_hi), (r_lo, rd_lo), (r_hi, rd_hi)]
    lo = np.maximum(np.floor(np.min([c - K * d for c, d in cs], axis=0)) - 1, 0).astype(int)
    hi = np.minimum(np.ceil(np.max([c + K * d for c, d in cs], axis=0)) + 1, n_max).astype(int)
    s0, s1, b0, b1 = int(lo[0]), int(hi[0]), int(lo[1]), min(int(hi[1]), int(hi[0]))
    tls = [_tilted(pr, th)]
    if npass > 1:  # tilts spaced on the segment from the dominating point's to the mixture bound's
        th2 = np.array(pr.theta((c_lo + c_hi) / 2, m_mid))
        for j in range(1, npass):
            v = np.array(th) + (th2 - np.array(th)) * (j / (npass - 1))
            tls.append(_tilted(pr, (float(v[0]), float(v[1]))))
    ns, nb = s1 - s0 + 1, b1 - b0 + 1
    shape = (ns, nb)
    sig = np.arange(s0, s1 + 1, dtype=float)[:, None]
    h2 = np.arange(b0, b1 + 1, dtype=float)[None, :]
    # the reference scale: ln Z of the first tilt plus its ln x^{−h} at the dominating point
    c_off = -((mid[0] - mid[1]) * tls[0]["lx1"] + mid[1] * tls[0]["lx2"])
    args = [-((sig - h2) * tl["lx1"] + h2 * tl["lx2"]) - c_off for tl in tls]

    def scales(m: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each tilt's log scale of every tally relative to the reference, and the tallies it takes."""
        sc = [a + (_lnZ(pr, tl, m) - _lnZ(pr, tls[0], m)) for a, tl in zip(args, tls)]
        if len(sc) == 1:
            return sc, [np.ones(shape, dtype=bool)]
        pick = np.argmin(np.stack(sc), axis=0)  # ties: the first
        own = [pick == k for k in range(len(sc))]
        return sc, own

    passes = []
    ends = [scales(m_lo), scales(m_hi)]
    for k, tl in enumerate(tls):
        # absolute floors below e^{−W − _L_MARGIN} where the tallies this tilt takes have weights up to e^W
        top = max(float(np.max(sc[k], where=own[k], initial=-math.inf)) for sc, own in ends)
        lcap = min(_L_MAX, max(_L_CAP, min(top, _W_CAP) + _L_MARGIN)) if full else _L_CAP
        S, eta, tau = _base(pr, tl, m_lo, (s0 - 1 - D, b0 - 1 - D), (ns + 1 + D, nb + 1 + D), D, lcap)
        xs = np.array([tl["x1"], tl["x2"], 1.0])
        w_err = 6 * _U * (s1 * abs(tl["lx1"]) + b1 * abs(tl["lx2"]) + abs(c_off)) + 2 * _U
        st = dict(tl=tl, S=S, eta=eta, tau=tau, ca=pr.law_a * xs, cb=pr.law_b * xs, w_err=w_err)
        st["cap"] = lcap - _L_MARGIN
        st["stepper"] = _Stepper(S, (tl["u1"], tl["u2"], tl["uc"]))
        passes.append(st)
    faces = [
        (np.array([1.0, 1.0, 0.0]), s1 + 1, s1 < n_max),
        (np.array([-1.0, -1.0, 0.0]), -(s0 - 1), s0 > 0),
        (np.array([0.0, 1.0, 0.0]), b1 + 1, b1 < n_max),
        (np.array([0.0, -1.0, 0.0]), -(b0 - 1), b0 > 0),
    ]
    face_args: list[list[np.ndarray]] = [[] for _ in faces]
    out: list[TailSum | None] = []
    missing, more = -math.inf, False
    Pa, Pb, Dh, tmp, wts = (np.empty(shape) for _ in range(5))
    for s in range(D + 1):
        m = m_lo + s
        n = pr.N1 + pr.N2 + pr.C + m + 1
        lnZ = _lnZ(pr, tls[0], m)
        sc, own = scales(m)
        total, err, terms, w_err, under = 0.0, 0.0, 0, 0.0, 0.0
        far: list[np.ndarray] = []
        far_at = np.zeros(shape, dtype=bool)
        for k, st in enumerate(passes):
            tl = st["tl"]
            if s:  # S is kept from index s on: the part below is never read again
                st["S"] = st["stepper"].step(st["S"])
            V = st["S"][D - s :, D - s :]
            S00, S10, S11 = V[1:, 1:], V[:-1, 1:], V[:-1, :-1]
            for P, c in ((Pa, st["ca"]), (Pb, st["cb"])):  # the changing user: c₁ S(h − e₁) + c₂ S(h − e₂) + c_c S(h)
                np.multiply(S10, c[0], out=P)
                np.multiply(S11, c[1], out=tmp)
                P += tmp
                np.multiply(S00, c[2], out=tmp)
                P += tmp
            Pb *= t  # now e^ε P̂_b
            np.subtract(Pa, Pb, out=Dh)
            # the weight x^{−h} Z_k relative to the reference, on the tallies this tilt takes, up to e^_W_CAP
            lin = own[k] & (sc[k] <= st["cap"])
            np.exp(np.minimum(sc[k], st["cap"]), out=wts)
            wts[~lin] = 0.0
            np.maximum(Dh, 0.0, out=tmp)
            tmp *= wts
            total += float(np.sum(np.sum(tmp, axis=1)))
            terms += int(np.count_nonzero(tmp))
            e_s = st["eta"] + 5 * _U * (s + 2) + _PER_USER * _U * (n + 2)  # + the users' rounded report laws
            t_s = (st["tau"] + 3 * _TINY * (s + 1)) * (1 + 1e-6) * max(tl["M1"], tl["M2"], tl["Mc"], 1.0) * 3
            e_p = (e_s + 3 * _U) / (1 - e_s)
            # per tally |error of P̂_a − e^ε P̂_b| ≤ e_p (P̂_a + e^ε P̂_b) + (1 + e^ε) τ; summed where the sign is open
            np.add(Pa, Pb, out=tmp)
            tmp *= e_p
            tmp += (1 + t) * t_s
            near = Dh > -tmp * (1 + 4 * _U)
            # tallies of weight above e^_W_CAP: certified negative, or their whole bound taken in logs
            hi_w = near & own[k] & ~lin
            if np.any(hi_w):
                far_at |= hi_w
                far.append(sc[k][hi_w] + np.log(np.maximum(Dh[hi_w], 0.0) + tmp[hi_w]) + 4 * _U * np.abs(sc[k][hi_w]))
            tmp *= wts
            err += float(np.sum(tmp, where=near))
            # the weights' roundings (for a second tilt also that of its ln Z relative to the first)
            w_err = max(w_err, st["w_err"] + (_ln_err(pr, tl, m) + _ln_err(pr, tls[0], m) if k else 0.0))
            under += ns * nb * 4 * _TINY * (1.0 + float(np.sum(st["ca"])))  # weighted terms that underflow
        if total <= 0:
            out.append(None)
            missing = max(missing, 40.0)
            continue
        err /= total
        under /= total
        log_val = lnZ + c_off + math.log(total)
        if far:
            lf = np.concatenate(far)
            top = float(np.max(lf))
            lfr = top + math.log(float(np.sum(np.exp(lf - top))) * (1 + lf.size * _U)) - math.log(total)
            if lfr > math.log(_SKIP_FRACTION):  # or Chernoff's bound, one half-space per sector of those tallies
                lfr = min(lfr, _far_faces(pr, m, far_at, (s0, b0), (c_lo + c_hi) / 2, sd_lo) - log_val)
            far_rel = math.exp(lfr) if lfr < 700 else math.inf
            if far_rel > 1e-3 * (err + _ERR_FLOOR) and (npass < _MAX_PASS or not full):
                out.append(None)
                more = True
                continue
            err += far_rel * (1 + 2 * w_err)
        sum_err = _gamma(nb + 2) + _gamma(ns + 2) + _gamma(len(passes) + 1)
        ln_err = _ln_err(pr, tls[0], m) + 4 * _U * (abs(math.log(total)) + abs(c_off))
        # the mass outside the box (Chernoff, one face at a time), relative to the computed δ
        logs = []
        for i, (d, edge, active) in enumerate(faces):
            if not active:
                continue
            starts = face_args[i] or [np.array([pr.alpha, K / max(float(np.max(sd_lo)), 1.0)])]
            val = min(_eval_face(pr, m, d, edge, st) for st in starts)
            if val - log_val > math.log(_SKIP_FRACTION) - 3:
                v2, arg_best = _face_opt(pr, m, d, edge, starts[-1])
                face_args[i] = (face_args[i] + [arg_best])[-3:]
                val = min(val, v2)
            logs.append(val)
        outside = float(np.logaddexp.reduce(np.array(logs))) - log_val if logs else -math.inf
        if outside > math.log(_SKIP_FRACTION):
            out.append(None)
            missing = max(missing, outside - math.log(_SKIP_FRACTION))
            continue
        rel = 1.01 * (err + sum_err + w_err + ln_err + under + math.exp(outside)) + 4 * _U
        out.append(TailSum(float(log_val), float(rel), terms))
    return out, missing, more


def _far_faces(pr: _Pair, m: int, at: np.ndarray, org: tuple[int, int], c: np.ndarray, sd: np.ndarray) -> float:
    """``ln`` of a bound on ``Σ (P_a − e^ε P_b)₊`` over the tallies ``at`` (offset ``org`` in ``(σ, h₂)``): split into
    eight sectors around ``c`` (in units ``sd``), each within the half-space ``d·h ≥ min d·h`` of its middle direction
    ``d``, closed by the face bound (:func:`_eval_face`)."""
    pts = np.argwhere(at).astype(float) + np.array(org, dtype=float)
    z = (pts - c) / sd
    sector = np.round(np.arctan2(z[:, 1], z[:, 0]) / (math.pi / 4)).astype(int) % 8
    logs = []
    for k in np.unique(sector):
        phi = k * math.pi / 4
        a, b = math.cos(phi) / sd[0], math.sin(phi) / sd[1]  # a σ + b h₂ = a h₁ + (a + b) h₂
        sel = pts[sector == k]
        edge = float(np.min(a * sel[:, 0] + b * sel[:, 1]))
        logs.append(_face_opt(pr, m, np.array([a, a + b, 0.0]), edge, np.array([pr.alpha, 1.0]))[0])
    return float(np.logaddexp.reduce(np.array(logs)))


def _eval_face(pr: _Pair, m: int, d: np.ndarray, edge: float, x: np.ndarray) -> float:
    """The face bound of :meth:`_Pair.face_bound` at one point ``(α, β)`` (a valid bound on its own)."""
    ex = abs(float(x[0])) * pr.score + abs(float(x[1])) * d
    top = float(np.max(ex))
    unif = math.log(float(np.sum(np.exp(ex - top)))) + top
    b = abs(float(x[1]))
    total = math.log(3 * (pr.p - pr.q) * (1 - pr.kappa)) - b * edge  # 3(1 − γ)(1 − κ)
    for count, out in pr.groups(m):
        if count == 0:
            continue
        if out < 0:
            total += count * (unif - math.log(3.0))
        else:
            total += count * float(np.logaddexp(math.log(pr.p - pr.q) + b * d[out], math.log(pr.q) + unif))
    return total


def _face_opt(pr: _Pair, m: int, d: np.ndarray, edge: float, start: np.ndarray) -> tuple[float, np.ndarray]:
    """The face bound minimised over ``α, β ≥ 0`` from ``start`` (every point evaluated is a valid bound)."""
    best, arg = _eval_face(pr, m, d, edge, start), np.abs(start)
    res = minimize(
        lambda x: _eval_face(pr, m, d, edge, x),
        start,
        method="Nelder-Mead",
        options={"xatol": _NEWTON_TOL, "fatol": 1e-4, "maxiter": 300},
    )
    val = _eval_face(pr, m, d, edge, res.x)
    if val < best:
        best, arg = val, np.abs(res.x)
    return best, arg


def rr3_delta_over_m(
    p: float, A: int, B: int, C: int, m_lo: int, m_hi: int, t: float, *, q: float | None = None
) -> list[TailSum]:
    """``ln δ`` at ``e^ε = t`` for every number ``m ∈ [m_lo, m_hi]`` of uniform users, sharing the work.

    Parameters
    ----------
    p : float
        The diagonal of 3-ary randomized response (``1/3 < p < 1``; ``q = (1 − p)/2``).
    A, B, C : int
        The other users holding ``a``, ``b`` and the third input ``c``.
    m_lo, m_hi : int
        The range of the number of uniform users (reports uniform over the three outputs).
    t : float
        ``e^ε ≥ 1``.
    q : float, optional
        The off-diagonal entry as given (default ``(1 − p)/2``; ``p + 2q`` must be 1 within rounding).

    Returns
    -------
    list of TailSum
        One per ``m``: ``ln δ`` (``-inf`` when ``δ = 0``, i.e. ``t ≥ p/q``, §18.3) and a certified bound on its
        relative error. When ``t`` is close to ``p/q`` ``δ`` sits near the corner of the simplex, far from the tilted
        box, and the bound can exceed 1 (then ``e^{log_value} (1 + rel_error)`` is only an upper bound on ``δ``). Each added uniform user is one step of a three-term recurrence on the grid of tallies
        (module docstring); values of ``m`` are taken in chunks of one box and one tilt.

    Raises
    ------
    InvalidParameterError
        ``p``, a count or ``t`` out of range; a tail that cannot be certified.
    SizeLimitError
        When the arrays times the recurrence steps exceed the limit ``shuffle_pair_work``.

    Examples
    --------
    >>> r = rr3_delta_over_m(0.75, 3, 2, 4, 0, 3, 1.2)
    >>> [round(s.log_value, 6) for s in r] == sorted((round(s.log_value, 6) for s in r), reverse=True)
    True
    """
    m_lo, m_hi = int(m_lo), int(m_hi)
    p, q, t = _check(p, (A, B, C, m_lo), t, q)
    if m_hi < m_lo:
        raise InvalidParameterError(f"the range of m must not be empty, got m_lo = {m_lo}, m_hi = {m_hi}")
    if Fraction(t) * Fraction(q) >= Fraction(p):  # ε ≥ ε0: P_a ≤ e^ε P_b at every tally
        return [TailSum(-math.inf, 0.0, 0) for _ in range(m_lo, m_hi + 1)]
    pr = _Pair(p, q, t, int(A), int(B), int(C))
    results: list[TailSum] = []
    for first in range(m_lo, m_hi + 1, _CHUNK):
        last = min(m_hi, first + _CHUNK - 1)
        # two tilts from the start where the mixture bound's dominating point is far from the least-rate point
        far = max(
            float(np.max(np.abs(pr.rate_point(m)[1] - pr.dominating(m)[0]) / pr.dominating(m)[1]))
            for m in (first, last)
        )
        K, npass = _K0, (2 if far > 8 else 1)
        full = npass > 1
        while True:
            out, missing, more = _chunk(pr, first, last, K, npass, full)
            if all(r is not None for r in out):
                results.extend(r for r in out if r is not None)
                break
            if more and not full:  # tallies of large tilt weight and open sign: lower floors, then more tilts
                full = True
                continue
            if more and npass < _MAX_PASS:
                npass = min(_MAX_PASS, 2 * npass)
                continue
            if K > 40:
                raise InvalidParameterError(
                    f"the certified tail of the 3-ary pair (A = {A}, B = {B}, C = {C}, m = {first}..{last}, "
                    f"t = {t}) could not be closed: δ underflows the bound"
                )
            K = math.sqrt(K * K + 2 * missing) + 0.5 + 0.1 * math.sqrt(2 * missing)  # (the tails are not Gaussian)
    return results


def rr3_pair_delta_log(p: float, A: int, B: int, C: int, m: int, t: float, *, q: float | None = None) -> TailSum:
    """``ln δ`` at ``e^ε = t`` of the pair "others = ``A`` × a, ``B`` × b, ``C`` × c, ``m`` uniform users; the
    changing user holds ``a`` or ``b``", with a certified relative error (:func:`rr3_delta_over_m` for one ``m``).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> from privgeom.amplification._engine import clone_delta_exact
    >>> s = rr3_pair_delta_log(0.75, 0, 0, 3, 0, 1.0)      # clone pair (others hold c), n = 4, total variation
    >>> R = [[F(3, 4), F(1, 8), F(1, 8)], [F(1, 8), F(3, 4), F(1, 8)], [F(1, 8), F(1, 8), F(3, 4)]]
    >>> exact = clone_delta_exact(R, 4, 2, 0, 1, F(1))
    >>> exact, abs(math.exp(s.log_value) / float(exact) - 1) <= s.rel_error
    (Fraction(1815, 4096), True)
    """
    return rr3_delta_over_m(p, A, B, C, m, m, t, q=q)[0]


def rr3_evaluator(R: Sequence[Sequence[Scalar]], others: Sequence[int], a: int, b: int, t: float) -> TailSum:
    """:func:`rr3_pair_delta_log` as a pair evaluator ``(R, others, a, b, t)``.

    ``R`` (rows = outputs) must be 3-ary randomized response, ``R[j][x] = p`` if ``j = x`` else ``q``, optionally
    with a fourth input column equal to the uniform law (its holders are the uniform users); ``others`` counts the
    other users per input, ``a ≠ b`` are two of the first three inputs.

    Examples
    --------
    >>> R = [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]
    >>> s = rr3_evaluator(R, (1, 0, 2), 2, 0, 1.5)          # A = 2 (holders of 2), B = 1 (holders of 0), C = 0
    >>> s.log_value == rr3_pair_delta_log(0.5, 2, 1, 0, 0, 1.5).log_value
    True
    """
    rows = [[float(v) for v in row] for row in R]
    k = len(rows[0]) if rows else 0
    if len(rows) != 3 or k not in (3, 4) or any(len(row) != k for row in rows):
        shape = f"{len(rows)} x {k}"
        raise InvalidParameterError(f"the 3-ary route needs 3 outputs and 3 or 4 inputs, got a {shape} matrix")
    p, q = rows[0][0], rows[1][0]
    rr = all(rows[j][x] == (p if j == x else q) for j in range(3) for x in range(3))
    if not rr or not 1.0 / 3.0 < p < 1.0 or abs(p + 2 * q - 1) > 4 * _U:
        raise InvalidParameterError(f"the 3-ary route needs 3-ary randomized response, got the columns {rows}")
    if k == 4 and any(abs(rows[j][3] - 1.0 / 3.0) > 4 * _U for j in range(3)):
        col = [rows[j][3] for j in range(3)]
        raise InvalidParameterError(f"the fourth input of the 3-ary route must report uniformly, got {col}")
    counts = [int(c) for c in others]
    if len(counts) != k or any(c < 0 for c in counts):
        raise InvalidParameterError(f"others must give {k} non-negative counts, got {list(others)}")
    if not (0 <= a < 3 and 0 <= b < 3) or a == b:
        raise InvalidParameterError(f"a and b must be two different inputs in 0..2, got a = {a}, b = {b}")
    c = 3 - a - b
    return rr3_pair_delta_log(p, counts[a], counts[b], counts[c], counts[3] if k == 4 else 0, t, q=q)
