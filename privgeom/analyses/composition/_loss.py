"""Privacy-loss distributions of one directed edge, exactly: likelihood-ratio classes and their compositions.

For a directed edge ``(D, D')`` and a mechanism ``M`` with columns ``a = M[:, D]`` and ``b = M[:, D']``, the outputs
fall into *ratio classes*: the outputs with one likelihood ratio ``a_ω / b_ω = r`` (``r = ∞`` when ``b_ω = 0 < a_ω``,
``r = 0`` when ``a_ω = 0 < b_ω``). Only the class masses ``P_c = Σ_{ω ∈ c} a_ω`` and ``Q_c = Σ_{ω ∈ c} b_ω`` matter
for the hockey-stick divergence ``Σ_ω (a_ω − t b_ω)₊`` (it is ``Σ_c (P_c − t Q_c)₊``, since ``P_c = r Q_c`` inside a
class). Running mechanisms ``M_1, …, M_k`` on the same dataset gives the output tuples ``(ω_1, …, ω_k)`` with
probability ``Π_j a^{(j)}_{ω_j}``; their likelihood ratio is the product of the ratios, so the composed outputs fall
into the classes of *count vectors*: ``n_c`` outputs of class ``c`` of each mechanism. A count vector of one
mechanism composed ``k`` times has mass ``k! / Π_c n_c! · Π_c P_c^{n_c}`` (multinomial) under ``D`` and the same with
``Q_c`` under ``D'``, and ratio ``Π_c r_c^{n_c}``; vectors with equal ratios merge. This is the privacy-loss
distribution of the composition (Dwork & Rothblum 2016; Sommer, Meiser & Mohammadi 2019, Def. 5 and Thm. 1, where
composition is the convolution of the losses), kept here as exact atoms ``ratio ↦ (P, Q)`` on integers over one
common denominator, so that

    δ(t) = P(ratio = ∞) + Σ_{atoms with ratio > t} (P − t Q)        (t = e^ε)

is exact (Balle, Barthe & Gaboardi 2018, Thm. 1: the hockey-stick divergence is attained by the event
``{ratio > t}``). The atoms are built by a dynamic program over the classes whose states are (outputs used, ratio so
far): states with equal ratio merge, which keeps lattice cases (randomized response: ratios ``r^{n_1 − n_2}``) at
``O(k²)`` states however large ``C(k + m − 1, m − 1)`` is.

Examples
--------
>>> from fractions import Fraction as F
>>> from privgeom import randomized_response
>>> classes = ratio_classes(randomized_response(1, "3/4"), 0, 1)
>>> [(str(c.ratio), str(c.p), str(c.q)) for c in classes]
[('3', '3/4', '1/4'), ('1/3', '1/4', '3/4')]
>>> L = compose_losses([(classes, 2)])
>>> [str(r) for r in L.ratios], L.delta(F(2))
(['9', '1', '1/9'], Fraction(7, 16))
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any, Sequence

from ..._core.errors import InvalidParameterError, SizeLimitError
from ..._core.hints import limit_hint
from ..._core.limits import register_limit
from ..._core.numbers import level_text as format_level
from ..._core.numbers import Scalar
from ..._core.results import Result
from ...mechanisms._mechanism import Mechanism
from ..._core.limits import current_limit

__all__ = [
    "RatioClass",
    "LossDistribution",
    "ratio_classes",
    "compose_losses",
    "MAX_COMPOSITION_ATOMS",
    "MAX_COMPOSITION_RUNS",
    "check_runs",
    "compare_with_exp",
]

#: Largest number of exact atoms (distinct composed likelihood ratios, or states of the dynamic program) kept
#: before the exact route gives up and the certified log-space route takes over.
MAX_COMPOSITION_ATOMS = 400_000
register_limit(
    "composition_atoms",
    globals(),
    "MAX_COMPOSITION_ATOMS",
    "largest number of exact atoms (distinct composed likelihood ratios) of a composed privacy-loss "
    "distribution before the certified log-space route is used",
)

#: Largest total number of runs ``Σ_j k_j`` of a composition (mechanisms or definitions), refused before anything
#: is built: the exact ``ε`` alone is a rational with about ``k`` digits, and ``|Ω|^k`` is kept as an integer.
MAX_COMPOSITION_RUNS = 1_000_000
register_limit(
    "composition_runs",
    globals(),
    "MAX_COMPOSITION_RUNS",
    "largest total number of runs (sum of the counts k) of a composition of mechanisms or definitions",
)


def check_runs(runs: int) -> None:
    """Refuse a composition of more than ``composition_runs`` runs (before anything is allocated).

    Examples
    --------
    >>> check_runs(1000)
    >>> check_runs(10**12)
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: a composition of 1,000,000,000,000 runs is more than the limit 1,000,000 (composition_runs); refused — raise it with pg.set_limits(composition_runs=1000000000000) or `with pg.limits(composition_runs=1000000000000):`
    """
    if runs > current_limit("composition_runs"):
        raise SizeLimitError(
            f"a composition of {runs:,} runs is more than the limit {current_limit('composition_runs'):,} "
            f"(composition_runs); refused — {limit_hint('composition_runs', runs)}"
        )


#: ``r = ∞``: the class of outputs possible on ``D`` and impossible on ``D'``.
INF = math.inf


@dataclass(frozen=True)
class RatioClass(Result):
    """The outputs of one mechanism with one likelihood ratio ``P(ω | D) / P(ω | D') = ratio`` on a directed edge.

    Attributes
    ----------
    ratio : Fraction, float or math.inf
        The common ratio (``math.inf`` when ``P(ω | D') = 0``; ``0`` when ``P(ω | D) = 0``).
    p, q : Fraction or float
        ``P(M(D) ∈ class)`` and ``P(M(D') ∈ class)``.
    outputs : tuple of str
        The outputs in the class.
    """

    ratio: Scalar
    p: Scalar
    q: Scalar
    outputs: tuple[str, ...]

    @property
    def exact(self) -> bool:
        """True when the masses are Fractions (an exact mechanism)."""
        return isinstance(self.p, Fraction)

    def summary(self) -> str:
        r = "∞" if self.ratio == INF else format_level(self.ratio)
        return f"ratio {r}: {{{', '.join(self.outputs)}}} with P = {format_level(self.p)}, Q = {format_level(self.q)}"


def ratio_classes(M: Mechanism, i: int, j: int) -> tuple[RatioClass, ...]:
    """The ratio classes of mechanism ``M`` on the directed edge from column ``i`` to column ``j``, by decreasing ratio.

    Exact mechanisms are read on their integer columns (ratios ``(n_a d_b) / (n_b d_a)`` as Fractions, no float);
    float mechanisms group outputs of equal float ratio. Outputs impossible on both datasets are left out.

    Examples
    --------
    >>> from privgeom import Mechanism
    >>> M = Mechanism([["1/2", "1/4"], ["1/4", "1/8"], ["1/4", "0"], ["0", "5/8"]], inputs=["a", "b"])
    >>> [(str(c.ratio), c.outputs) for c in ratio_classes(M, 0, 1)]
    [('inf', ('o2',)), ('2', ('o0', 'o1')), ('0', ('o3',))]
    """
    groups: dict[Any, list[Any]] = {}
    if M.exact:
        C = M.int_columns
        na, nb = [int(v) for v in C.numerators[:, i].tolist()], [int(v) for v in C.numerators[:, j].tolist()]
        da, db = int(C.denominators[i]), int(C.denominators[j])
        for w, (x, y) in enumerate(zip(na, nb)):  # integers here; the float branch below reads floats
            if x == 0 and y == 0:
                continue
            r: Any = INF if y == 0 else Fraction(x * db, y * da)
            g = groups.setdefault(r, [0, 0, []])
            g[0] += x
            g[1] += y
            g[2].append(M.outputs[w])
        out = [
            RatioClass(ratio=r, p=Fraction(g[0], da), q=Fraction(g[1], db), outputs=tuple(g[2]))
            for r, g in groups.items()
        ]
    else:
        X = M.float_matrix()
        for w in range(M.n_outputs):
            fx, fy = float(X[w, i]), float(X[w, j])
            if fx == 0 and fy == 0:
                continue
            r = INF if fy == 0 else fx / fy
            g = groups.setdefault(r, [0.0, 0.0, []])
            g[0] += fx
            g[1] += fy
            g[2].append(M.outputs[w])
        out = [RatioClass(ratio=r, p=g[0], q=g[1], outputs=tuple(g[2])) for r, g in groups.items()]
    return tuple(sorted(out, key=lambda c: -float(c.ratio) if c.ratio != INF else -INF))


# ---------------------------------------------------------------------------------------------------- exact atoms
@dataclass(frozen=True)
class _IntClasses:
    """One mechanism's classes on integers over a common denominator ``d``: finite positive ratios ``(r, p, q)``
    with ``P_c = p / d``, ``Q_c = q / d``; classes of ratio ``∞`` and ``0`` are left out (a count vector using one has
    ``Q = 0`` or ``P = 0``: the first add to ``P(ratio = ∞)``, the second never to δ)."""

    finite: tuple[tuple[Fraction, int, int], ...]
    d: int


def _int_classes(classes: Sequence[RatioClass]) -> _IntClasses:
    d = math.lcm(*(Fraction(v).denominator for c in classes for v in (c.p, c.q)))
    fin = tuple(
        (Fraction(c.ratio), int(Fraction(c.p) * d), int(Fraction(c.q) * d))
        for c in classes
        if c.ratio != INF and c.ratio != 0
    )
    return _IntClasses(fin, d)


def _fold(ic: _IntClasses, k: int, cap: int) -> dict[Fraction, list[int]] | None:
    """Atoms ``ratio ↦ [P·d^k, Q·d^k]`` of one mechanism composed ``k`` times, over its finite positive classes.

    Dynamic program over the classes: a state ``(u, r)`` is "``u`` of the ``k`` outputs drawn from the classes seen
    so far, with ratio product ``r``", weighted by ``Π C(remaining, n_c) p_c^{n_c}`` (and the same with ``q``); the
    last class takes the remaining outputs. The weights sum to the multinomial masses (Sommer, Meiser & Mohammadi
    2019, Thm. 1: composition convolves the losses). Returns None when more than ``cap`` states arise.
    """
    fin = ic.finite
    if not fin:
        return {}
    states: dict[tuple[int, Fraction], list[int]] = {(0, Fraction(1)): [1, 1]}
    for c, (r, p, q) in enumerate(fin):
        last = c == len(fin) - 1
        rpow, ppow, qpow = [Fraction(1)], [1], [1]
        for _ in range(k):
            rpow.append(rpow[-1] * r)
            ppow.append(ppow[-1] * p)
            qpow.append(qpow[-1] * q)
        new: dict[tuple[int, Fraction], list[int]] = {}
        for (u, rr), (P, Q) in states.items():
            rem = k - u
            choices = (rem,) if last else range(rem + 1)
            for n in choices:
                coef = 1 if last else math.comb(rem, n)
                key = (u + n, rr * rpow[n])
                cur = new.get(key)
                if cur is None:
                    new[key] = [P * coef * ppow[n], Q * coef * qpow[n]]
                else:
                    cur[0] += P * coef * ppow[n]
                    cur[1] += Q * coef * qpow[n]
            if len(new) > cap:
                return None
        states = new
    return {r: v for (_, r), v in states.items()}


def _convolve(A: dict[Fraction, list[int]], B: dict[Fraction, list[int]], cap: int) -> dict[Fraction, list[int]] | None:
    """The atoms of two independent compositions: ratios multiply, masses multiply (denominators multiply)."""
    out: dict[Fraction, list[int]] = {}
    for r1, (P1, Q1) in A.items():
        for r2, (P2, Q2) in B.items():
            key = r1 * r2
            cur = out.get(key)
            if cur is None:
                out[key] = [P1 * P2, Q1 * Q2]
                if len(out) > cap:
                    return None
            else:
                cur[0] += P1 * P2
                cur[1] += Q1 * Q2
    return out


@dataclass(frozen=True)
class LossDistribution:
    """The exact privacy-loss distribution of a composition on one directed edge.

    ``ratios`` are the distinct finite composed likelihood ratios, decreasing; ``A[i]``, ``B[i]`` the masses under
    ``D`` and ``D'`` of the atoms ``0 … i`` as integers over ``denominator``; ``p_inf`` the mass under ``D`` of the
    outputs impossible under ``D'`` (ratio ``∞``). ``δ(t) = p_inf + (A[i] − t B[i]) / denominator`` with ``i`` the
    last atom of ratio ``> t`` (:meth:`delta`).
    """

    ratios: tuple[Fraction, ...]
    A: tuple[int, ...]
    B: tuple[int, ...]
    denominator: int
    p_inf: Fraction

    @property
    def n_atoms(self) -> int:
        """Number of distinct finite ratios."""
        return len(self.ratios)

    def count_above(self, t: Fraction) -> int:
        """How many atoms have ratio ``> t`` (``t`` rational)."""
        neg = [-r for r in self.ratios]  # increasing
        return bisect.bisect_left(neg, -t)

    def line(self, i: int) -> tuple[Fraction, Fraction]:
        """``(intercept, slope)`` of the event made of the first ``i`` atoms and the ratio-∞ outputs: ``δ = intercept
        − t · slope`` on that event (``P(S)``, ``Q(S)``)."""
        if i == 0:
            return self.p_inf, Fraction(0)
        return self.p_inf + Fraction(self.A[i - 1], self.denominator), Fraction(self.B[i - 1], self.denominator)

    def delta(self, t: Fraction) -> Fraction:
        """The exact ``δ`` at a rational ``t = e^ε``: ``P(S) − t Q(S)`` for ``S = {ratio > t}``."""
        a, b = self.line(self.count_above(t))
        return a - t * b

    def epsilon_ratio(self) -> Scalar:
        """``e^ε`` of pure DP on this direction: the largest ratio (``math.inf`` with ratio-∞ mass)."""
        if self.p_inf > 0:
            return INF
        return self.ratios[0] if self.ratios else Fraction(1)


def compose_losses(
    parts: Sequence[tuple[Sequence[RatioClass], int]], *, cap: int | None = None
) -> LossDistribution | None:
    """The exact loss distribution of mechanisms with exact ``classes`` composed ``k`` times each, or None when more
    than ``cap`` atoms (default :data:`MAX_COMPOSITION_ATOMS`) would be needed.

    ``P(ratio = ∞)`` is ``1 − Π_j (Σ_{finite c} P^{(j)}_c)^{k_j}``: a composed output is finite iff every component
    is (outputs of ratio 0 have ``P = 0`` and carry no δ).

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> c = ratio_classes(randomized_response(1, "3/4"), 0, 1)
    >>> L = compose_losses([(c, 3)])
    >>> [str(r) for r in L.ratios], [str(L.delta(Fraction(t))) for t in (1, 3, 27)]
    (['27', '3', '1/3', '1/27'], ['11/16', '3/8', '0'])
    """
    limit = current_limit("composition_atoms") if cap is None else cap
    atoms: dict[Fraction, list[int]] | None = {Fraction(1): [1, 1]}
    den = 1
    finite_mass = Fraction(1)
    for classes, k in parts:
        ic = _int_classes(classes)
        folded = _fold(ic, k, limit)
        if folded is None or atoms is None:
            return None
        atoms = _convolve(atoms, folded, limit)
        if atoms is None:
            return None
        den *= ic.d**k
        finite_mass *= Fraction(sum(p for _, p, _ in ic.finite), ic.d) ** k
    assert atoms is not None
    order = sorted(atoms, reverse=True)
    A: list[int] = []
    B: list[int] = []
    sa = sb = 0
    for r in order:
        P, Q = atoms[r]
        sa += P
        sb += Q
        A.append(sa)
        B.append(sb)
    return LossDistribution(tuple(order), tuple(A), tuple(B), den, 1 - finite_mass)


# ---------------------------------------------------------------------------------------------------- irrational t
#: Relative gap between ``ln(ratio)`` and ε beyond which the float comparison decides (float logs err by ~1e-16).
_FLOAT_DECIDES = 1e-9
#: Decimal digits used to place a rational ratio against an irrational ``e^ε`` (ε a rational float).
_DIGITS = 80


def compare_with_exp(ratio: Fraction, eps: float) -> int:
    """Sign of ``ratio − e^eps`` for a rational ``ratio > 0`` and a float ``eps`` (read as the exact binary rational
    it is, so ``e^eps`` is irrational unless ``eps = 0``): decided from ``ln(ratio)`` when the float gap is clear, else
    with 80-digit decimals (``e^x`` of a non-zero rational is irrational, Lindemann–Weierstrass, so the two are never
    equal; the decimals decide unless they agree to 70 digits, which is refused).

    Examples
    --------
    >>> compare_with_exp(Fraction(148), 5.0), compare_with_exp(Fraction(149), 5.0)
    (-1, 1)
    """
    if eps == 0:
        return (ratio > 1) - (ratio < 1)
    from ..._core.numbers import log_of_ratio

    gap = log_of_ratio(ratio) - eps
    if abs(gap) > _FLOAT_DECIDES * (1 + abs(eps)):
        return 1 if gap > 0 else -1
    ctx = Context(prec=_DIGITS)
    e = ctx.exp(Decimal(eps))  # Decimal(float) is the float's exact binary value
    r = ctx.divide(Decimal(ratio.numerator), Decimal(ratio.denominator))
    diff = ctx.subtract(r, e)
    if abs(diff) <= abs(e) * Decimal(10) ** (10 - _DIGITS):
        raise InvalidParameterError(
            f"the ratio {ratio} agrees with e^{eps!r} to {_DIGITS - 10} digits; give e^ε as a rational instead"
        )
    return 1 if diff > 0 else -1


def split_at_exp(L: LossDistribution, eps: float) -> int:
    """How many atoms of ``L`` have ratio ``> e^eps`` (``eps`` a float, read exactly)."""
    lo, hi = 0, len(L.ratios)
    while lo < hi:  # ratios decrease: find the first atom with ratio < e^eps
        mid = (lo + hi) // 2
        if compare_with_exp(L.ratios[mid], eps) > 0:
            lo = mid + 1
        else:
            hi = mid
    return lo
