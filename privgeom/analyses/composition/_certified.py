"""δ(ε) of a k-fold composition in log space, with a stated error bound: the route beyond the exact atoms.

When the exact privacy-loss distribution (module ``_loss``) would need more atoms than
:data:`~privgeom.analyses.composition._loss.MAX_COMPOSITION_ATOMS` — generic ratios, ``C(k + m − 1, m − 1)``
distinct count vectors — the k-fold composition of one mechanism with ``m`` finite ratio classes on an edge is summed
over count vectors directly, in floats:

    δ(t) = 1 − (1 − P_∞)^k + Σ_{n} mult(n) (Π_c P_c^{n_c} − t Π_c Q_c^{n_c})₊

(the hockey-stick divergence of the composed pair, Balle, Barthe & Gaboardi 2018, Thm. 1; multinomial masses of
count vectors as in ``_loss``). Two devices keep it small:

* the **last two classes in closed form**: given the counts of the other classes and ``r`` outputs left, the loss
  ``L_j = L_0 + j ℓ_a + (r − j) ℓ_b`` (``ℓ_a > ℓ_b``) is increasing in the number ``j`` of class-``a`` outputs, so
  the event ``{L > ln t}`` is a binomial upper tail ``j ≥ j*``, whose masses under ``D`` and ``D'`` are regularised
  incomplete beta functions ``I_π(j*, r − j* + 1)`` (Abramowitz & Stegun 26.5.24 for the binomial tail);
* **pruning with accounting**: the count of each enumerated class is drawn from a window holding all but ``τ`` of
  its conditional binomial law, and states of negligible mass are dropped; every mass left out is added up and
  enters the upper end of the bracket (a left-out vector contributes between 0 and its mass under ``D``).

The bracket ``[lo, hi]`` is certified under one stated assumption: every double-precision special function used
(``lgamma``, ``log``, ``exp``, ``betainc``) is accurate to ``1e-13`` relative, so that each term ``Π P``, ``Π Q`` is
within :data:`TERM_RELATIVE_ERROR` of its value; then ``|computed − true| ≤ TERM_RELATIVE_ERROR · (ΣP + t ΣQ) +
η`` with ``η`` the largest loss error times the mass near the threshold (a term misplaced across ``ln t`` contributes
at most its mass times its distance to ``ln t``). The bound is stated in the result, never hidden.

Examples
--------
>>> from fractions import Fraction
>>> from privgeom import randomized_response
>>> from privgeom.analyses.composition._loss import ratio_classes, compose_losses
>>> c = ratio_classes(randomized_response(1, "3/4"), 0, 1)
>>> b = certified_delta(c, 50, 20.0)
>>> exact = float(compose_losses([(c, 50)]).delta(Fraction(20)))
>>> b.lo <= exact <= b.hi, b.hi - b.lo < 1e-9
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from ..._core.errors import SizeLimitError
from ..._core.limits import register_limit
from ..._core.results import Result
from ._loss import INF, RatioClass

__all__ = ["CertifiedDelta", "certified_delta", "TERM_RELATIVE_ERROR", "MAX_CERTIFIED_STATES"]

#: Relative error granted to each float term (products of powers and binomial tails): ``1e-13`` per special
#: function, compounded over at most a few hundred operations, with a wide margin.
TERM_RELATIVE_ERROR = 1e-10
#: Mass left out of each enumerated class's window (per level, conditional on the state).
_WINDOW_TAIL = 1e-13
#: States whose mass under ``D`` is below this are dropped (their mass is added to the bound).
_STATE_FLOOR = 1e-16
#: Largest number of enumerated states of the certified route.
MAX_CERTIFIED_STATES = 20_000_000
register_limit("certified_states", globals(), "MAX_CERTIFIED_STATES",
               "largest number of count-vector states summed by the certified log-space route of a composed δ(ε)")


@dataclass(frozen=True)
class CertifiedDelta(Result):
    """A certified bracket ``lo ≤ δ ≤ hi`` of a k-fold composition's δ at one ``t = e^ε`` on one directed edge.

    Attributes
    ----------
    value : float
        The computed sum (the midpoint estimate).
    lo, hi : float
        The bracket: ``value − rounding`` and ``value + rounding + pruned``.
    rounding : float
        The stated float error bound (see the module docstring).
    pruned : float
        The mass under ``D`` of the count vectors left out (an upper bound of their contribution).
    n_states : int
        Count-vector states summed.
    """

    value: float
    lo: float
    hi: float
    rounding: float
    pruned: float
    n_states: int

    def summary(self) -> str:
        return (f"δ ∈ [{self.lo:.12g}, {self.hi:.12g}] (width {self.hi - self.lo:.3g}: rounding ≤ {self.rounding:.2g}, "
                f"pruned mass ≤ {self.pruned:.2g}; {self.n_states:,} states)")


def _binom_window(rem: np.ndarray, pi: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``[lo, hi]`` per state holding all but about ``_WINDOW_TAIL`` of ``Bin(rem, pi)``, and the mass outside."""
    from scipy.stats import binom  # loaded on first use (start-up time)

    if pi <= 0:
        z = np.zeros_like(rem)
        return z, z, np.zeros(len(rem))
    if pi >= 1:
        return rem.copy(), rem.copy(), np.zeros(len(rem))
    values, inv = np.unique(rem, return_inverse=True)  # the window depends on rem only: once per value
    lo = np.maximum(binom.ppf(_WINDOW_TAIL / 2, values, pi), 0).astype(np.int64)
    hi = np.minimum(binom.isf(_WINDOW_TAIL / 2, values, pi), values).astype(np.int64)
    hi = np.maximum(hi, lo)
    out = np.asarray(binom.cdf(lo - 1, values, pi) + binom.sf(hi, values, pi), dtype=float)
    inv = inv.ravel()
    return lo[inv], hi[inv], out[inv]


def _upper_tail(jstar: np.ndarray, r: np.ndarray, pi: float, k: int) -> np.ndarray:
    """``Pr[Bin(r, pi) ≥ j*]`` elementwise: ``I_pi(j*, r − j* + 1)`` (A&S 26.5.24), 1 for ``j* ≤ 0``, 0 beyond ``r``.

    The tail depends on the integers ``(r, j*)`` only (both in ``0 … k``): it is tabulated once, ``(k + 1)²``
    incomplete beta values, and read off."""
    from scipy.special import betainc

    R, J = np.meshgrid(np.arange(k + 1), np.arange(k + 2), indexing="ij")
    table = np.zeros((k + 1, k + 2))
    table[:, 0] = 1.0
    mid = (J >= 1) & (J <= R)
    if pi >= 1:
        table[mid] = 1.0
    elif pi > 0:
        table[mid] = betainc(J[mid].astype(float), (R[mid] - J[mid] + 1).astype(float), pi)
    return table[r, np.clip(jstar, 0, k + 1)]


def certified_delta(classes: Sequence[RatioClass], k: int, t: float | Fraction) -> CertifiedDelta:
    """A certified bracket of ``δ(t)`` for one mechanism with ratio ``classes`` composed ``k`` times (one direction).

    Raises
    ------
    SizeLimitError
        More than ``MAX_CERTIFIED_STATES`` count-vector states would be summed.
    """
    from scipy.special import gammaln

    tf = float(t)
    lt = math.log(tf) if tf > 0 else -math.inf
    p_inf = sum((Fraction(c.p) if not isinstance(c.p, float) else c.p) for c in classes if c.ratio == INF)
    if isinstance(p_inf, Fraction):
        inf_part = float(1 - (1 - p_inf) ** k)
    else:
        inf_part = -math.expm1(k * math.log1p(-float(p_inf))) if p_inf < 1 else 1.0
    fin = [(math.log(float(c.ratio)), float(c.p), float(c.q)) for c in classes if c.ratio != INF and c.ratio != 0]
    if not fin:
        return CertifiedDelta(inf_part, inf_part, inf_part, 0.0, 0.0, 0)
    fin.sort(key=lambda c: c[1])  # enumerate the light classes, keep the two heaviest in closed form
    if len(fin) == 1:
        ell, P, Q = fin[0]
        term = P ** k - tf * Q ** k if k * ell > lt else 0.0
        err = TERM_RELATIVE_ERROR * (P ** k + tf * Q ** k)
        return CertifiedDelta(inf_part + term, max(0.0, inf_part + term - err), inf_part + term + err, err, 0.0, 1)
    a, b = sorted(fin[-2:], key=lambda c: -c[0])  # ℓ_a > ℓ_b (classes have distinct ratios)
    enum = fin[:-2]
    # states: remaining outputs, loss so far, log masses under D and D' (multinomial factors included)
    rem = np.array([k], dtype=np.int64)
    L = np.zeros(1)
    lP = np.zeros(1)
    lQ = np.zeros(1)
    pruned = 0.0
    rest_P = [sum(c[1] for c in fin[i:]) for i in range(len(fin))]
    lgam = gammaln(np.arange(k + 1) + 1.0)  # ln n! for n = 0 … k
    for i, (ell, P, Q) in enumerate(enum):
        S = rest_P[i]
        lo, hi, outside = _binom_window(rem, P / S)
        pruned += float(np.sum(np.exp(lP + rem * math.log(S)) * outside))
        width = hi - lo + 1
        total = int(width.sum())
        if total > MAX_CERTIFIED_STATES:
            raise SizeLimitError(f"the certified δ of this {k}-fold composition would sum {total:,} count-vector states, "
                                 f"more than the limit {MAX_CERTIFIED_STATES:,}; refused")
        idx = np.repeat(np.arange(len(rem)), width)
        n = lo[idx] + (np.arange(total) - np.repeat(np.cumsum(width) - width, width))
        r0 = rem[idx]
        logc = lgam[r0] - lgam[n] - lgam[r0 - n]
        rem, L = r0 - n, L[idx] + n * ell
        lP = lP[idx] + logc + n * math.log(P)
        lQ = lQ[idx] + logc + (n * math.log(Q) if Q > 0 else np.where(n > 0, -np.inf, 0.0))
        # drop states of negligible mass under D (their whole future mass is S_next^rem ≤ 1 times it)
        keep = lP > math.log(_STATE_FLOOR)
        if not keep.all():
            pruned += float(np.sum(np.exp(lP[~keep])))
            rem, L, lP, lQ = rem[keep], L[keep], lP[keep], lQ[keep]
    la, Pa, Qa = a
    lb, Pb, Qb = b
    x = (lt - L - rem * lb) / (la - lb)
    jstar = np.floor(x).astype(np.int64) + 1
    tailP = _upper_tail(jstar, rem, Pa / (Pa + Pb), k)
    tailQ = _upper_tail(jstar, rem, Qa / (Qa + Qb), k)
    Ppart = np.exp(lP + rem * math.log(Pa + Pb)) * tailP
    Qpart = np.exp(lQ + rem * math.log(Qa + Qb)) * tailQ
    value = float(np.sum(Ppart) - tf * np.sum(Qpart))
    ell_max = max(abs(c[0]) for c in fin)
    eta = 1e-13 * k * (ell_max + 1.0) + 1e-13 * abs(lt)  # the loss's float error near the threshold
    rounding = TERM_RELATIVE_ERROR * float(np.sum(Ppart) + tf * np.sum(Qpart)) + eta * float(np.sum(Ppart))
    total_value = inf_part + value
    return CertifiedDelta(total_value, max(0.0, total_value - rounding), min(1.0, total_value + rounding + pruned),
                          rounding, pruned, int(len(rem)))
