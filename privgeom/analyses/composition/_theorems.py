"""The composition theorems as executable checks: Kairouz–Oh–Viswanath's optimal composition and basic composition.

* **Optimal composition** (Kairouz, Oh & Viswanath, *The Composition Theorem for Differential Privacy*, ICML 2015,
  Theorem 3.3): the k-fold adaptive composition of ``(ε, δ)``-DP mechanisms is
  ``((k − 2i) ε, 1 − (1 − δ)^k (1 − δ_i))``-DP for every ``i = 0, …, ⌊k/2⌋``, with

      δ_i = Σ_{ℓ=0}^{i−1} C(k, ℓ) (e^{(k−ℓ)ε} − e^{(k−2i+ℓ)ε}) / (1 + e^ε)^k,

  and this is attained by binary randomized response with ``e^ε = p / (1 − p)`` (their Theorem 3.5 / the proof of
  3.3: the composed pair is the worst). :func:`kov_delta` evaluates ``δ_i`` exactly for rational ``e^ε``;
  :func:`kov_check` puts it next to the exact δ of the composed randomized response (module ``_mechanism``) at every
  ``ε' = (k − 2i) ε`` — two independent computations that must agree as rationals.
* **Basic composition** (Dwork & Roth 2014, Thm. 3.16): runs that are ``(ε_j, δ_j)``-DP compose to
  ``(Σ ε_j, Σ δ_j)``-DP. :func:`basic_composition` takes each part's exact ``ε_j`` (so ``δ_j = 0``) or its exact
  ``δ_j(ε_j)`` at given levels, adds the levels with :class:`~privgeom.PrivacyLevel` arithmetic, and reports the exact
  δ of the composition at the summed level next to the basic bound: the exact gap, 0 when the bound is tight.

Examples
--------
>>> from fractions import Fraction
>>> kov_delta(3, 1, 3)
Fraction(3, 8)
>>> all(row.equal for row in kov_check(6, 2).rows)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ..._core.domain import RelationLike
from ..._core.errors import InvalidParameterError
from ..._core.level import LevelLike, PrivacyLevel, ScalarLike
from ..._core.numbers import level_text as format_level
from ..._core.arrays import parse_int
from ..._core.numbers import parse_scalar, Scalar
from ..._core.results import Result
from ...mechanisms._factories import randomized_response
from ._mechanism import ComposedMechanism

__all__ = ["kov_delta", "kov_check", "KOVCheck", "KOVRow", "basic_composition", "BasicComposition"]


def kov_delta(k: int, i: int, exp_eps: ScalarLike, delta: ScalarLike = 0) -> Fraction:
    """Kairouz–Oh–Viswanath's δ at ``ε' = (k − 2i) ε`` for the k-fold composition of ``(ε, δ)``-DP mechanisms
    (ICML 2015, Theorem 3.3): ``1 − (1 − δ)^k (1 − δ_i)``, exact for rational ``e^ε`` and ``δ``.

    Examples
    --------
    >>> kov_delta(1, 0, 3), kov_delta(2, 1, 3)     # k = 2 at ε' = 0: the total variation of RR(3/4)⊗2
    (Fraction(0, 1), Fraction(1, 2))
    """
    k = parse_int(k, name="k", min=1)
    i = parse_int(i, name="i", min=0, max=k // 2)
    r = Fraction(parse_scalar(exp_eps, name="exp_eps", exact=True))
    d = Fraction(parse_scalar(delta, name="delta", exact=True))
    if r < 1 or not 0 <= d <= 1:
        raise InvalidParameterError(f"kov_delta needs e^ε ≥ 1 and 0 ≤ δ ≤ 1, got e^ε = {r}, δ = {d}")
    di = (
        sum((math.comb(k, ell) * (r ** (k - ell) - r ** (k - 2 * i + ell)) for ell in range(i)), Fraction(0))
        / (1 + r) ** k
    )
    return 1 - (1 - d) ** k * (1 - di)


@dataclass(frozen=True)
class KOVRow(Result):
    """One level of the check: ``i``, the level ``ε' = (k − 2i) ε``, the theorem's δ and the δ computed from the
    exact privacy-loss atoms of the composed randomized response."""

    i: int
    level: PrivacyLevel
    theorem: Fraction
    computed: Fraction
    equal: bool

    @property
    def exact(self) -> bool:
        """Always True: both values are exact rationals."""
        return True


@dataclass(frozen=True)
class KOVCheck(Result):
    """Kairouz–Oh–Viswanath Theorem 3.3 against the exact δ of k-fold randomized response, at every ``ε'``;
    ``level`` is the per-run ε."""

    k: int
    level: PrivacyLevel
    rows: tuple[KOVRow, ...]

    @property
    def exact(self) -> bool:
        """Always True: the comparison is between exact rationals."""
        return True

    @property
    def holds(self) -> bool:
        """Every row agrees exactly."""
        return all(r.equal for r in self.rows)

    def summary(self) -> str:
        head = (
            f"KOV Theorem 3.3, k = {self.k}, e^ε = {format_level(self.level.exp_eps)}: "
            f"{'equal at every' if self.holds else 'DIFFERS at some'} ε' = (k − 2i)ε, i = 0…{self.k // 2}"
        )
        rows = [
            f"  i = {r.i}: e^ε' = {format_level(r.level.exp_eps)}, δ = {format_level(r.computed)}"
            + ("" if r.equal else f" (theorem: {format_level(r.theorem)})")
            for r in self.rows[:8]
        ]
        return "\n".join([head] + rows + (["  …"] if len(self.rows) > 8 else []))


def kov_check(k: int, exp_eps: ScalarLike) -> KOVCheck:
    """Check Theorem 3.3 of Kairouz, Oh & Viswanath (ICML 2015) exactly: binary randomized response with
    ``p = e^ε / (1 + e^ε)`` composed ``k`` times has ``δ((k − 2i) ε) = δ_i`` for every ``i`` (its δ = 0 case).

    Examples
    --------
    >>> c = kov_check(4, "3/2")
    >>> c.holds, [str(r.theorem) for r in c.rows]
    (True, ['0', '9/125', '37/125'])
    """
    k = parse_int(k, name="k", min=1)
    r = Fraction(parse_scalar(exp_eps, name="exp_eps", exact=True))
    if r < 1:
        raise InvalidParameterError(f"kov_check needs e^ε ≥ 1, got {r}")
    C = ComposedMechanism([(randomized_response(1, r / (1 + r)), k)])
    L = C.loss(("1", "0"))
    rows = []
    for i in range(k // 2 + 1):
        t = r ** (k - 2 * i)
        th = kov_delta(k, i, r)
        ex = L.delta(t)
        rows.append(KOVRow(i=i, level=PrivacyLevel.from_exp_eps(t), theorem=th, computed=ex, equal=th == ex))
    return KOVCheck(k=k, level=PrivacyLevel.from_exp_eps(r), rows=tuple(rows))


@dataclass(frozen=True)
class BasicComposition(Result):
    """Basic composition as an outer bound, next to the exact δ at the summed level.

    Attributes
    ----------
    level : PrivacyLevel
        ``Σ_j k_j ε_j``.
    bound : Fraction or float
        ``Σ_j k_j δ_j(ε_j)`` (Dwork & Roth 2014, Thm. 3.16).
    delta : Fraction or float
        The composition's exact ``δ`` at ``level`` (the right end of the certified bracket when not exact).
    gap : Fraction or float
        ``bound − delta ≥ 0``; 0 when basic composition is tight.
    tight : bool
    edge : tuple of str or None
        Where the exact δ is attained.
    """

    level: PrivacyLevel
    bound: Scalar
    delta: Scalar
    gap: Scalar
    tight: bool
    edge: tuple[str, str] | None

    @property
    def exact(self) -> bool:
        """True when the bound and δ are exact rationals."""
        return isinstance(self.delta, Fraction) and isinstance(self.bound, Fraction)

    def summary(self) -> str:
        return (
            f"basic composition: (ε = {format_level(self.level.eps)}, δ ≤ {format_level(self.bound)}); exact δ = "
            f"{format_level(self.delta)}: {'tight' if self.tight else f'gap {format_level(self.gap)}'}"
        )


def basic_composition(
    C: ComposedMechanism, graph: RelationLike, levels: Sequence[LevelLike] | None = None
) -> BasicComposition:
    """Basic composition of the parts of ``C`` as an outer bound, with the exact δ at the summed level.

    ``levels``: one ε per part (default: each part's exact pure-DP ε over ``graph``, so ``δ_j = 0``). Each part is
    ``(ε_j, δ_j(ε_j))``-DP with its exact δ (:func:`privgeom.delta`); the composition is
    ``(Σ k_j ε_j, Σ k_j δ_j)``-DP (Dwork & Roth 2014, Thm. 3.16), and its exact δ at ``Σ k_j ε_j`` is at most that.

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> C = ComposedMechanism([(randomized_response(1, "3/4"), 3)])
    >>> b = basic_composition(C, "hamming")
    >>> str(b.level), b.bound, b.delta, b.tight
    ('ln(27)', Fraction(0, 1), Fraction(0, 1), True)
    >>> b = basic_composition(C, "hamming", ["ln(2)"])
    >>> str(b.level), str(b.bound), str(b.delta), str(b.gap)
    ('ln(8)', '3/4', '19/64', '29/64')
    """
    from ..profiles._profile import delta, epsilon

    lv_parts: list[PrivacyLevel] = []
    deltas: list[Scalar] = []
    if levels is not None and len(levels) != len(C.parts):
        raise InvalidParameterError(f"basic_composition needs one level per part ({len(C.parts)}), got {len(levels)}")
    for n, (M, k) in enumerate(C.parts):
        if levels is None:
            lv = epsilon(M, graph).level
            d: Scalar = Fraction(0) if lv.exact else 0.0
        else:
            lv = PrivacyLevel.parse(eps=levels[n])
            d = delta(M, graph, lv).delta
        lv_parts.append(lv * k)
        deltas.append(d * k)
    total = lv_parts[0]
    for lv in lv_parts[1:]:
        total = total + lv
    bound = sum(deltas[1:], deltas[0])
    res = C.delta(graph, total)
    exact_value = res.delta if res.exact else res.hi
    if total.infinite:
        exact_value = Fraction(0) if C.exact else 0.0
    gap = bound - exact_value
    return BasicComposition(level=total, bound=bound, delta=exact_value, gap=gap, tight=gap == 0, edge=res.edge)
