"""δ(ε) of a k-fold composition in log space, with a stated error bound: the route beyond the exact atoms.

When the exact privacy-loss distribution (module ``_loss``) would need more atoms than
:data:`~privgeom.analyses.composition._loss.MAX_COMPOSITION_ATOMS` — generic ratios, ``C(k + m − 1, m − 1)``
distinct count vectors — the k-fold composition of one mechanism with ``m`` finite ratio classes on an edge is summed
over count vectors directly, in floats:

    δ(t) = 1 − (1 − P_∞)^k + Σ_{n} mult(n) (Π_c P_c^{n_c} − t Π_c Q_c^{n_c})₊

(the hockey-stick divergence of the composed pair, Balle, Barthe & Gaboardi 2018, Thm. 1; multinomial masses of
count vectors as in ``_loss``). It is summed **meet in the middle**: the classes are split into two groups ``A`` and
``B``; the number ``r`` of the ``k`` outputs that fall in ``A`` is binomial under ``D``, and for each ``r`` every
count vector of ``A`` (``r`` outputs) is paired with the count vectors of ``B`` (``k − r`` outputs) whose loss exceeds
``ln t − L_A`` — a suffix of ``B``'s vectors sorted by loss, read off suffix sums of their masses under ``D`` and
``D'``. So the work is ``Σ_r (|A_r| + |B_{k−r}|) log`` instead of the ``C(k + m − 1, m − 1)`` count vectors it
covers. The values of ``r`` outside a window holding all but ``1e-13`` of the binomial law are skipped, and their
mass is added to the upper end of the bracket (a left-out vector contributes between 0 and its mass under ``D``).

The bracket ``[lo, hi]`` is certified under one stated assumption: every double-precision special function used
(``lgamma``, ``log``, ``exp``, the binomial tails of the window) is accurate to ``1e-13`` relative, so that each term ``Π P``, ``Π Q`` is
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
from ..._core.hints import limit_hint
from ..._core.numbers import number_text
from ..._core.results import Result
from ._loss import INF, RatioClass
from ..._core.limits import current_limit

__all__ = ["CertifiedDelta", "certified_delta", "certified_delta_pair", "TERM_RELATIVE_ERROR", "MAX_CERTIFIED_STATES"]

#: Relative error granted to each float term (products of powers and binomial tails): ``1e-13`` per special
#: function, compounded over at most a few hundred operations, with a wide margin.
TERM_RELATIVE_ERROR = 1e-10
#: Relative error granted to a composed loss ``Σ n_c ℓ_c`` per unit of ``k · max |ℓ_c|`` (its float sum of at most
#: ``k`` terms is within ``k`` ulps, about ``2e-16 k``; the margin is generous).
LOSS_RELATIVE_ERROR = 1e-13
#: Mass left out of each enumerated class's window (per level, conditional on the state).
_WINDOW_TAIL = 1e-13
#: Largest number of count vectors of one group listed by the certified route.
MAX_CERTIFIED_STATES = 20_000_000
register_limit(
    "certified_states",
    globals(),
    "MAX_CERTIFIED_STATES",
    "largest number of count vectors of one group listed by the certified log-space route of a composed δ(ε)",
)


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
        Count vectors covered (pairs of one vector of each group).
    """

    value: float
    lo: float
    hi: float
    rounding: float
    pruned: float
    n_states: int

    @property
    def exact(self) -> bool:
        """Always False: a bracket computed in floats (with its stated bound)."""
        return False

    def summary(self) -> str:
        lo, hi = number_text(self.lo, digits=12), number_text(self.hi, digits=12)
        return (
            f"δ ∈ [{lo}, {hi}] (width {number_text(self.hi - self.lo, digits=3)}: rounding ≤ "
            f"{number_text(self.rounding, digits=2)}, pruned mass ≤ {number_text(self.pruned, digits=2)}; "
            f"{self.n_states:,} states)"
        )


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


def _check_states(sizes: Sequence[tuple[int, int, int, int]]) -> None:
    """Refuse before listing when a pair of groups ``(|A| classes, r, |B| classes, k − r)`` would list more count
    vectors than ``certified_states`` (``C(r + |A| − 1, |A| − 1) + C(k − r + |B| − 1, |B| − 1)``)."""
    needed = max(math.comb(r + a - 1, a - 1) + math.comb(q + b - 1, b - 1) for a, r, b, q in sizes)
    if needed > current_limit("certified_states"):
        raise SizeLimitError(
            f"the certified δ of this composition would list {needed:,} count vectors of two "
            f"groups, more than the limit {current_limit('certified_states'):,}; refused before listing — "
            f"{limit_hint('certified_states', needed)}"
        )


def _group_vectors(
    group: Sequence[tuple[float, float, float]], r: int, lgam: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every count vector of ``r`` outputs over the classes of ``group`` as arrays: its loss ``Σ n_c ℓ_c`` and the
    logs of its masses ``r!/Π n_c! · Π P_c^{n_c}`` (under ``D``) and the same with ``Q_c`` (under ``D'``)."""
    rem = np.array([r], dtype=np.int64)
    L = np.zeros(1)
    lP = np.full(1, lgam[r])
    lQ = np.full(1, lgam[r])
    for n_c, (ell, P, Q) in enumerate(group):
        last = n_c == len(group) - 1
        if last:
            n = rem
            idx = np.arange(len(rem))
        else:
            width = rem + 1
            idx = np.repeat(np.arange(len(rem)), width)
            n = np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width)
        rem = rem[idx] - n
        L = L[idx] + n * ell
        lP = lP[idx] - lgam[n] + n * math.log(P)
        lQ = lQ[idx] - lgam[n] + (n * math.log(Q) if Q > 0 else np.where(n > 0, -np.inf, 0.0))
    return L, lP, lQ


def _pair_sums(
    A: tuple[np.ndarray, np.ndarray, np.ndarray], B: tuple[np.ndarray, np.ndarray, np.ndarray], coef: float, lt: float
) -> tuple[float, float]:
    """``(Σ P, Σ Q)`` over the pairs (vector of ``A``, vector of ``B``) with ``L_A + L_B > ln t``, each pair's masses
    the product of its vectors' times ``e^coef``: ``B`` sorted by loss, suffix sums, one ``searchsorted``."""
    LA, lPA, lQA = A
    LB, lPB, lQB = B
    order = np.argsort(LB)
    LB, lPB, lQB = LB[order], lPB[order], lQB[order]
    SP = np.concatenate([np.cumsum(np.exp(lPB)[::-1])[::-1], [0.0]])  # SP[i] = Σ_{j ≥ i} P_j (ascending loss)
    SQ = np.concatenate([np.cumsum(np.exp(lQB)[::-1])[::-1], [0.0]])
    cut = np.searchsorted(LB, lt - LA, side="right")  # first B vector with L_A + L_B > ln t
    return float(np.sum(np.exp(coef + lPA) * SP[cut])), float(np.sum(np.exp(coef + lQA) * SQ[cut]))


def _finite(classes: Sequence[RatioClass]) -> list[tuple[float, float, float]]:
    return [(math.log(float(c.ratio)), float(c.p), float(c.q)) for c in classes if c.ratio != INF and c.ratio != 0]


def _inf_mass(parts: Sequence[tuple[Sequence[RatioClass], int]]) -> float:
    """``1 − Π_j (1 − P^{(j)}_∞)^{k_j}``: some component has ratio ∞ (exact when the masses are rational)."""
    masses: list[tuple[Fraction | float, int]] = []
    for classes, k in parts:
        exact = not any(isinstance(c.p, float) for c in classes)
        zero: Fraction | float = Fraction(0) if exact else 0.0
        masses.append((sum((c.p for c in classes if c.ratio == INF), zero), k))
    if all(isinstance(m, Fraction) for m, _ in masses):
        keep = Fraction(1)
        for m, k in masses:
            keep *= (1 - Fraction(m)) ** k
        return float(1 - keep)
    log_keep = sum(k * math.log1p(-float(m)) if m < 1 else -math.inf for m, k in masses)
    return -math.expm1(log_keep)


def _bracket(
    inf_part: float,
    total_P: float,
    total_Q: float,
    tf: float,
    lt: float,
    k: int,
    ell_max: float,
    pruned: float,
    n_states: int,
) -> CertifiedDelta:
    value = total_P - tf * total_Q
    eta = LOSS_RELATIVE_ERROR * (k * (ell_max + 1.0) + abs(lt))  # the loss's float error near the threshold
    rounding = TERM_RELATIVE_ERROR * (total_P + tf * total_Q) + eta * total_P
    v = inf_part + value
    return CertifiedDelta(
        value=v,
        lo=max(0.0, v - rounding),
        hi=min(1.0, v + rounding + pruned),
        rounding=rounding,
        pruned=pruned,
        n_states=n_states,
    )


def certified_delta(classes: Sequence[RatioClass], k: int, t: float | Fraction) -> CertifiedDelta:
    """A certified bracket of ``δ(t)`` for one mechanism with ratio ``classes`` composed ``k`` times (one direction).

    Raises
    ------
    SizeLimitError
        More than ``MAX_CERTIFIED_STATES`` count vectors of one group would be listed.
    """
    from scipy.special import gammaln

    tf = float(t)
    lt = math.log(tf) if tf > 0 else -math.inf
    inf_part = _inf_mass([(classes, k)])
    fin = _finite(classes)
    if not fin:
        return CertifiedDelta(value=inf_part, lo=inf_part, hi=inf_part, rounding=0.0, pruned=0.0, n_states=0)
    ell_max = max(abs(c[0]) for c in fin)
    lgam = gammaln(np.arange(k + 1) + 1.0)  # ln n! for n = 0 … k
    if len(fin) == 1:  # one vector: all k outputs in the class
        P, Q = _pair_sums(_group_vectors(fin, k, lgam), _group_vectors([], 0, lgam), 0.0, lt)
        return _bracket(inf_part, P, Q, tf, lt, k, ell_max, 0.0, 1)
    # meet in the middle: two groups of classes; r of the k outputs fall in group A (binomial under D, pruned with
    # its window, the pruned mass accounted), the rest in group B (module docstring)
    half = len(fin) // 2
    A, B = fin[:half], fin[half:]
    SA, SB = sum(c[1] for c in A), sum(c[1] for c in B)
    lo_r, hi_r, outside = _binom_window(np.array([k], dtype=np.int64), SA / (SA + SB))
    pruned = float(outside[0]) * (SA + SB) ** k
    _check_states([(len(A), r, len(B), k - r) for r in range(int(lo_r[0]), int(hi_r[0]) + 1)])
    total_P = total_Q = 0.0
    n_states = 0
    for r in range(int(lo_r[0]), int(hi_r[0]) + 1):
        GA, GB = _group_vectors(A, r, lgam), _group_vectors(B, k - r, lgam)
        n_states += len(GA[0]) * len(GB[0])
        P, Q = _pair_sums(GA, GB, float(lgam[k] - lgam[r] - lgam[k - r]), lt)
        total_P += P
        total_Q += Q
    return _bracket(inf_part, total_P, total_Q, tf, lt, k, ell_max, pruned, n_states)


def certified_delta_pair(
    first: tuple[Sequence[RatioClass], int], second: tuple[Sequence[RatioClass], int], t: float | Fraction
) -> CertifiedDelta:
    """A certified bracket of ``δ(t)`` for two mechanisms composed ``k_1`` and ``k_2`` times (one direction): the
    count vectors of the first against those of the second, met in the middle (nothing pruned).

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> from privgeom.analyses.composition._loss import ratio_classes, compose_losses
    >>> a, b = ratio_classes(randomized_response(1, "3/4"), 0, 1), ratio_classes(randomized_response(1, "2/3"), 0, 1)
    >>> c = certified_delta_pair((a, 7), (b, 5), 10.0)
    >>> c.lo <= float(compose_losses([(a, 7), (b, 5)]).delta(Fraction(10))) <= c.hi
    True
    """
    from scipy.special import gammaln

    (ca, ka), (cb, kb) = first, second
    tf = float(t)
    lt = math.log(tf) if tf > 0 else -math.inf
    inf_part = _inf_mass([first, second])
    fa, fb = _finite(ca), _finite(cb)
    if not fa or not fb:
        return CertifiedDelta(value=inf_part, lo=inf_part, hi=inf_part, rounding=0.0, pruned=0.0, n_states=0)
    lgam = gammaln(np.arange(max(ka, kb) + 1) + 1.0)
    _check_states([(len(fa), ka, len(fb), kb)])
    GA, GB = _group_vectors(fa, ka, lgam), _group_vectors(fb, kb, lgam)
    P, Q = _pair_sums(GA, GB, 0.0, lt)
    ell_max = max(abs(c[0]) for c in fa + fb)
    return _bracket(inf_part, P, Q, tf, lt, ka + kb, ell_max, 0.0, len(GA[0]) * len(GB[0]))
