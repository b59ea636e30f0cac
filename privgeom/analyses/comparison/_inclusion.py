"""One inclusion ``closure(X) ⊆ closure(Y)`` as :func:`~privgeom.analyses.compare` answers it (:class:`Inclusion`),
and the dedicated rules that decide it without comparing row cones: ε-DP at two levels on one graph
(:func:`dp_level_rule`) and (ε, δ)-DP pairs by the dominant pair of Kairouz, Oh & Viswanath (:func:`dominant_pair`,
a ``singledispatch`` registry on the type of ``X``). The general route (row cones, generating and extreme
mechanisms) is :mod:`privgeom.analyses.comparison._compare`, which reads these first.

Examples
--------
>>> from privgeom.definitions import DifferentialPrivacy
>>> a, b = (DifferentialPrivacy.hamming(2, exp_eps=t) for t in (2, 3))
>>> dp_level_rule(a, b).method, dp_level_rule(b, a).holds
('dp-level', False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import singledispatch
from typing import Any

import numpy as np

from ..._core.errors import SolverError
from ..._core.level import PrivacyLevel
from ..._core.numbers import Scalar, fraction_str
from ..._core.results import Decision
from ...definitions import PrivacyDefinition
from ...mechanisms import Mechanism
from ._witness import InclusionWitness, _label, _mechanism_witness, _row_witness

__all__ = ["Inclusion", "dp_level_rule", "dominant_pair"]


# ---------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Inclusion(Decision):
    """One direction of a comparison: is ``closure(smaller) ⊆ closure(larger)``?

    Attributes
    ----------
    smaller, larger : str
        Specs of the two definitions.
    holds : bool or None
        The answer; ``None`` when privgeom cannot decide it (see ``detail``).
    method : str
        ``"row-cone"`` (by rays, or by generators / one LP per facet orbit: ``detail`` says which),
        ``"dp-level"`` (ε-DP levels on one graph), ``"dominant-pair"`` ((ε, δ)-DP), ``"generating-mechanisms"``,
        ``"extreme-mechanisms"`` or ``"undecided"``.
    exact : bool
        True when every step was decided in exact rational arithmetic.
    witness : InclusionWitness or None
        For ``holds=False``.
    detail : str
        How it was decided, in one or two sentences.
    smaller_level, larger_level : PrivacyLevel or None
        For ``method="dp-level"`` (ε-DP on one graph) and ``"dominant-pair"`` ((ε, δ)-DP): the two ε compared;
        None otherwise.
    """

    smaller: str
    larger: str
    holds: bool | None
    method: str
    exact: bool
    witness: InclusionWitness | None
    detail: str
    smaller_level: PrivacyLevel | None = None
    larger_level: PrivacyLevel | None = None

    def summary(self) -> str:
        verdict = {True: "⊆", False: "⊄", None: "⊆?"}[self.holds]
        text = (
            f"closure({self.smaller}) {verdict} closure({self.larger})  [{self.method}, "
            f"{'exact' if self.exact else 'float'}]: {self.detail}"
        )
        if self.witness is not None:
            text += "\n  witness: " + self.witness.text.replace("\n", "\n  ")
        return text


def _inclusion(
    X: PrivacyDefinition,
    Y: PrivacyDefinition,
    *,
    holds: bool | None,
    method: str,
    exact: bool,
    detail: str,
    witness: InclusionWitness | None = None,
    levels: tuple[PrivacyLevel, PrivacyLevel] | None = None,
) -> Inclusion:
    """The :class:`Inclusion` ``closure(X) ⊆ closure(Y)``, built by keyword."""
    lx, ly = levels if levels is not None else (None, None)
    return Inclusion(
        smaller=X.spec(),
        larger=Y.spec(),
        holds=holds,
        method=method,
        exact=exact,
        witness=witness,
        detail=detail,
        smaller_level=lx,
        larger_level=ly,
    )


# ---------------------------------------------------------------------------------------------------- ε-DP levels
def dp_level_rule(X: Any, Y: Any) -> Inclusion | None:
    """ε-DP at two levels on the same graph: ``closure(X) ⊆ closure(Y)`` iff ``e^ε_X ≤ e^ε_Y`` (docs/theory.md,
    "Containment without enumeration"); None when the pair is not of that form.

    The row cone ``{x ≥ 0 : x_i ≤ t x_j on every edge}`` grows with ``t`` (``x_i ≤ t x_j ≤ t' x_j`` for
    ``x_j ≥ 0``), and ε-DP is decided by its row cone, so ``t_X ≤ t_Y`` gives the inclusion. If ``t_X > t_Y ≥ 1``,
    the two-point row ``x_a = t_X``, ``x = 1`` elsewhere (``a`` an endpoint of an edge ``ab``) satisfies every
    constraint of X (``1 ≤ t_X x_a`` as ``t_X ≥ 1``) and violates ``x_a ≤ t_Y x_b``: it is the witness (re-verified
    by :func:`_row_witness` through both definitions' ``contains``).

    Examples
    --------
    >>> from privgeom.definitions import DifferentialPrivacy
    >>> a, b = (DifferentialPrivacy.hamming(2, exp_eps=t) for t in (2, 3))
    >>> dp_level_rule(a, b).holds, dp_level_rule(b, a).witness.row.tolist()
    (True, [Fraction(1, 1), Fraction(1, 1), Fraction(1, 1), Fraction(3, 1)])
    """
    from ...definitions import DifferentialPrivacy

    if type(X) is not DifferentialPrivacy or type(Y) is not DifferentialPrivacy:
        return None
    ex, ey = ({frozenset(map(str, e)) for e in D.graph.edges} for D in (X, Y))
    if ex != ey or not ex:
        return None
    exact = bool(X.exact and Y.exact)
    rx, ry = (X.level.exp_eps, Y.level.exp_eps) if exact else (float(X.level.exp_eps), float(Y.level.exp_eps))
    why = (
        f"ε-DP on the same graph ({len(ex):,} edges) at e^ε = {fraction_str(rx)} and {fraction_str(ry)}: the row "
        f"cone is monotone in e^ε"
    )
    levels = (PrivacyLevel.from_exp_eps(rx), PrivacyLevel.from_exp_eps(ry))
    if rx <= ry:
        return _inclusion(
            X,
            Y,
            holds=True,
            method="dp-level",
            exact=exact,
            levels=levels,
            detail=f"{why}, and ε-DP is decided by its row cone",
        )
    a, b = sorted(min(ex, key=sorted))
    labels = list(X.inputs)
    ia, ib = labels.index(a), labels.index(b)
    one: Any = Fraction(1) if exact else 1.0
    x = np.array([rx if i == ia else one for i in range(len(labels))], dtype=object if exact else float)
    normal = np.array(
        [ry if i == ib else (-one if i == ia else 0 * one) for i in range(len(labels))],
        dtype=object if exact else float,
    )
    w = _row_witness(X, Y, x, normal, ry - rx, X.row_cone(), exact)
    if w.in_source is None or not w.in_source.member or w.not_in_larger is None or w.not_in_larger.member:
        raise SolverError(f"the two-point witness for {_label(X)} ⊄ {_label(Y)} does not verify; please report")
    return _inclusion(
        X,
        Y,
        holds=False,
        method="dp-level",
        exact=exact,
        witness=w,
        levels=levels,
        detail=f"{why}, and the two-point row with {fraction_str(rx)} at {a} violates x[{a}] ≤ "
        f"{fraction_str(ry)}·x[{b}]",
    )


# ---------------------------------------------------------------------------------------------------- (ε, δ)-DP pairs
@singledispatch
def _pair_rule(X: Any, Y: Any) -> Inclusion | None:
    """A dedicated decision of ``closure(X) ⊆ closure(Y)`` for some pairs of definition types (registry on ``X``)."""
    return None


def dominant_pair(exp_eps: Scalar, delta: Scalar) -> tuple[list[Scalar], list[Scalar]]:
    """The four-output pair ``(P, Q)`` that every (ε, δ)-DP pair of distributions is a post-processing of.

    ``P = (δ, (1−δ) t/(1+t), (1−δ)/(1+t), 0)`` and ``Q`` reversed, ``t = e^ε`` (Kairouz, Oh & Viswanath, *The
    composition theorem for differential privacy*, ICML 2015, Section 2: the privacy region of any (ε, δ)-DP pair
    is inside that of ``(P, Q)``, hence by Blackwell's theorem it is a post-processing of it).

    Examples
    --------
    >>> [str(v) for v in dominant_pair(Fraction(2), Fraction(1, 10))[0]]
    ['1/10', '3/5', '3/10', '0']
    """
    t, d = exp_eps, delta
    P = [d, (1 - d) * t / (1 + t), (1 - d) / (1 + t), 0 * d]
    return P, P[::-1]


def _adp_pair_rule(X: Any, Y: Any) -> Inclusion | None:
    """(ε₁, δ₁)-DP ⊆ (ε₂, δ₂)-DP when Y's edges are among X's: decided by the dominant pair.

    Hockey-stick divergences only decrease under post-processing, so every member's pair on an edge of X has
    ``H_{e^{ε₂}} ≤ H_{e^{ε₂}}(P, Q)`` (:func:`dominant_pair`): if that is ``≤ δ₂`` the inclusion holds on every edge of
    Y. Otherwise the mechanism with column ``P`` at one endpoint ``a`` of an edge ``ab`` of Y and ``Q`` everywhere
    else is in X (its only non-zero divergences are those of ``(P, Q)`` and ``(Q, P)``, both (ε₁, δ₁)) and not in Y.
    """
    from ...definitions import ApproximateDP
    from ...definitions._approx_dp import hockey_stick_values

    if not isinstance(Y, ApproximateDP):
        return None
    ex, ey = ({frozenset(map(str, e)) for e in D.graph.edges} for D in (X, Y))
    if not ey <= ex:
        return None
    exact = bool(X.exact and Y.exact)
    conv = (lambda v: v) if exact else float
    rx, dx, ry, dy = (conv(v) for v in (X.level.exp_eps, X.delta, Y.level.exp_eps, Y.delta))
    levels = (PrivacyLevel.from_exp_eps(rx), PrivacyLevel.from_exp_eps(ry))
    if not ey:
        return _inclusion(
            X,
            Y,
            holds=True,
            method="dominant-pair",
            exact=exact,
            levels=levels,
            detail=f"{_label(Y)} has no edges, so every mechanism is in it",
        )
    P, Q = dominant_pair(rx, dx)
    pair = np.array([[p, q] for p, q in zip(P, Q)], dtype=object if exact else float)
    worst = hockey_stick_values(pair, [(0, 1)], ry)[0][2]
    why = (
        f"every (ε, δ)-DP pair is a post-processing of the dominant pair of {_label(X)} (Kairouz, Oh & Viswanath "
        f"2015, Section 2), whose hockey-stick divergence at e^ε = {fraction_str(ry)} is {fraction_str(worst)}"
    )
    if worst <= dy:
        return _inclusion(
            X,
            Y,
            holds=True,
            method="dominant-pair",
            exact=exact,
            levels=levels,
            detail=f"{why} <= δ = {fraction_str(dy)}, and every edge of {_label(Y)} is an edge of {_label(X)}",
        )
    a, b = sorted(next(iter(sorted(ey, key=sorted))))
    cols = [P if d == a else Q for d in X.inputs]
    M = Mechanism(
        [[c[w] for c in cols] for w in range(4)], inputs=X.inputs, outputs=["p", "mid+", "mid-", "q"], exact=exact
    )
    in_x, not_y = X.contains(M), Y.contains(M)
    if not in_x.member or not_y.member:  # pragma: no cover - a theorem, checked anyway
        raise SolverError(f"the dominant-pair witness for {_label(X)} ⊄ {_label(Y)} does not verify; please report")
    w = _mechanism_witness(X, Y, M, not_y, f"the dominant-pair mechanism (column P at {a}, Q elsewhere)")
    return _inclusion(
        X,
        Y,
        holds=False,
        method="dominant-pair",
        exact=exact,
        witness=w,
        levels=levels,
        detail=f"{why} > δ = {fraction_str(dy)}",
    )


def _register_pair_rules() -> None:
    from ...definitions import ApproximateDP

    _pair_rule.register(ApproximateDP, _adp_pair_rule)


_register_pair_rules()
