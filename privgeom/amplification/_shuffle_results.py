"""The results of the shuffled tally: a neighbouring pair, ``δ(ε)`` of one pair, the worst case over datasets and the
pure ``ε`` — frozen, serialisable (:class:`privgeom._core.results.Result`).

Examples
--------
>>> p = ShufflePair(others=(2, 1), a="1", b="0", inputs=("1", "0"))
>>> p.summary(), p.datasets(), p.clone_input is None
('others 2×1, 1×0; user: 1 → 0', ('[3,1]', '[2,2]'), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._core.level import PrivacyLevel
from .._core.numbers import Scalar, log10_text, number_text
from .._core.results import Result

__all__ = ["ShufflePair", "ShuffleDelta", "ShuffleWorstCase", "ShuffleEpsilon"]


@dataclass(frozen=True)
class ShufflePair(Result):
    """A neighbouring pair of datasets of the shuffle model: the other users' inputs and the changing user's two.

    Attributes
    ----------
    others : tuple of int
        How many of the other ``n − 1`` users hold each input (in the order of ``inputs``).
    a, b : str
        The input of the changing user in the first and in the second dataset.
    inputs : tuple of str
        The local mechanism's inputs.
    """

    others: tuple[int, ...]
    a: str
    b: str
    inputs: tuple[str, ...]
    exact: bool = True

    @property
    def clone_input(self) -> int | None:
        """The index of the input every other user holds, or None (a mixed pair)."""
        held = [i for i, c in enumerate(self.others) if c]
        return held[0] if len(held) == 1 else (0 if not held else None)

    def datasets(self) -> tuple[str, str]:
        """The two datasets as histogram labels ``[h_0,…]`` over the inputs."""
        ia, ib = self.inputs.index(self.a), self.inputs.index(self.b)
        ha = [c + (i == ia) for i, c in enumerate(self.others)]
        hb = [c + (i == ib) for i, c in enumerate(self.others)]
        return "[" + ",".join(map(str, ha)) + "]", "[" + ",".join(map(str, hb)) + "]"

    def summary(self) -> str:
        held = ", ".join(f"{c}×{x}" for c, x in zip(self.others, self.inputs) if c) or "none"
        return f"others {held}; user: {self.a} → {self.b}"


@dataclass(frozen=True)
class ShuffleDelta(Result):
    """``δ(ε)`` of a shuffled mechanism for one ordered neighbouring pair.

    Attributes
    ----------
    value : Fraction or float
        ``δ`` (a Fraction when exact; a float, ``0.0`` when it underflows — read ``log10``).
    log10 : float
        ``log10 δ`` (``-inf`` when ``δ = 0``), finite far below the double range.
    rel_error : float
        Bound on the relative error of ``value`` (0 when exact; first order in the unit roundoff for the log-space
        route, see :mod:`privgeom.amplification._engine`; NaN — no bound claimed — for a law summed in floats).
    """

    value: Scalar
    log10: float
    rel_error: float
    level: PrivacyLevel
    pair: ShufflePair
    n: int
    exact: bool
    route: str
    terms: int = 0

    def summary(self) -> str:
        shown = number_text(self.value) if self.exact or self.value != 0 else log10_text(self.log10)
        err = (
            "exact"
            if self.exact
            else ("floats, no error bound" if math.isnan(self.rel_error) else f"relative error ≤ {self.rel_error:.1e}")
        )
        return (
            f"δ({self.level.shown}) = {shown} ({err}) over n = {self.n} users, pair {self.pair.summary()} "
            f"[{self.route}]"
        )


@dataclass(frozen=True)
class ShuffleWorstCase(Result):
    """The largest ``δ(ε)`` over neighbouring pairs, the pairs attaining it, and how far the search went.

    ``certified`` is True when the value is the worst case over **every** dataset: examined one by one
    (``scope = "all datasets"``) or bounded box by box by the branch and bound (``scope = "all datasets (branch and
    bound)"``: ``delta.rel_error`` then bounds the distance of the true worst case from ``delta.value``, every other
    dataset proven below it; ``pairs_checked`` counts the pair evaluations, ``boxes_pruned`` the boxes of datasets
    discarded by their upper bound). Otherwise the value is the maximum over ``scope`` (clone pairs, few dissenters):
    a lower bound on the worst case, attained at ``attaining``.
    """

    delta: ShuffleDelta
    attaining: tuple[ShufflePair, ...]
    scope: str
    certified: bool
    pairs_checked: int
    level: PrivacyLevel
    exact: bool
    boxes_pruned: int = 0

    def summary(self) -> str:
        kind = (
            "worst case over all datasets"
            if self.certified
            else f"maximum over {self.scope} (a lower bound on the worst case; not every dataset was examined)"
        )
        pairs = "; ".join(p.summary() for p in self.attaining[:4]) + (" …" if len(self.attaining) > 4 else "")
        how = (
            f"pair evaluations: {self.pairs_checked}, boxes of datasets pruned by their upper bound: {self.boxes_pruned}"
            if self.boxes_pruned
            else f"pairs examined: {self.pairs_checked}"
        )
        return f"{kind}: {self.delta}\n  attained by: {pairs}\n  {how}"


@dataclass(frozen=True)
class ShuffleEpsilon(Result):
    """Pure ``ε`` of the shuffled mechanism (over every neighbouring pair) with a tally attaining it.

    Attributes
    ----------
    level : PrivacyLevel
        The pure ``ε`` (``level.eps``; ``level.exp_eps`` the largest likelihood ratio, a Fraction in exact mode,
        ``inf`` when some tally separates two neighbours).
    pair : ShufflePair or None
        A neighbouring pair attaining it (None when ``ε = 0``).
    tally : str
        The tally attaining it (every user reports the same output).
    exact : bool
        True when computed with Fractions.
    """

    level: PrivacyLevel
    pair: ShufflePair | None
    tally: str
    exact: bool

    def summary(self) -> str:
        return (
            f"ε = {number_text(self.level.eps)} (e^ε = {number_text(self.level.exp_eps)}) attained by {self.pair} at the "
            f"tally {self.tally}: shuffling does not reduce pure ε"
        )
