"""Result objects of cone operations: :class:`ConeMembership` and :class:`Containment`.

Examples
--------
>>> from privgeom.geometry import Cone
>>> m = Cone.from_facets([[1, 0], [0, 1]], labels=["a", "b"]).contains([2, -1])
>>> m.member, m.violated, m.kind, m.value
(False, 1, 'facet', Fraction(-1, 1))
>>> print(m)
not in the cone: facet 1 gives a·x = -1 < 0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.numbers import Scalar, scalar_to_json
from .._core.results import Decision

__all__ = ["ConeMembership", "Containment"]


@dataclass(frozen=True)
class ConeMembership(Decision):
    """Answer of :meth:`Cone.contains`.

    Attributes
    ----------
    member : bool
        Whether ``x`` lies in the cone (float mode: up to the tolerance ``atol``); ``bool(membership)`` is ``member``.
        :attr:`holds` is the same answer under the name every decision uses (primary); ``member`` is its synonym.
    violated : int or None
        When ``member`` is False: index of the violated row, into :attr:`Cone.facets` (``kind="facet"``) or into
        :attr:`Cone.equalities` (``kind="equality"``). The most violated row is reported (equalities first).
        None when a structured cone decided without building its facets (``normal`` is then the violated facet).
    kind : {"facet", "equality"} or None
    normal : array or None
        The violated row ``a`` (``a·x ≥ 0`` resp. ``a·x = 0`` fails).
    value : Fraction, float or None
        ``a·x`` for the violated row (``< 0`` for a facet, ``≠ 0`` for an equality).
    exact : bool
        True when decided in exact rational arithmetic.
    """

    member: bool
    violated: int | None
    kind: str | None
    normal: np.ndarray | None
    value: Scalar | None
    exact: bool

    @property
    def holds(self) -> bool:
        """The answer, under the name every yes/no result answers with (primary): ``.member`` is the same value
        under the domain word, kept as its documented synonym."""
        return self.member

    def __bool__(self) -> bool:
        return bool(self.member)

    def summary(self) -> str:
        if self.member:
            return f"in the cone ({'exact' if self.exact else 'float'})"
        rel = "< 0" if self.kind == "facet" else "!= 0"
        return f"not in the cone: {self.kind} {self.violated} gives a·x = {self.value} {rel}"


@dataclass(frozen=True)
class Containment(Decision):
    """Answer of :meth:`Cone.issubset` / :meth:`Cone.equals`.

    Attributes
    ----------
    holds : bool
        Whether the containment (or equality) holds.
    witness : array or None
        When it fails: a generator (extreme ray, or ± a lineality direction) of the smaller cone that is not in
        the larger one.
    violated_normal : array or None
        The facet (or equality) ``a`` of the larger cone that ``witness`` violates.
    value : Fraction, float or None
        ``a·witness`` (``< 0`` for a facet, ``≠ 0`` for an equality).
    kind : {"facet", "equality"} or None
    direction : str
        ``"self <= other"`` or ``"other <= self"``: the containment the witness refutes; ``"both"`` for a
        successful :meth:`Cone.equals`.
    exact : bool
    """

    holds: bool
    witness: np.ndarray | None
    violated_normal: np.ndarray | None
    value: Scalar | None
    kind: str | None
    direction: str
    exact: bool

    def summary(self) -> str:
        if self.holds:
            return f"holds ({self.direction}, {'exact' if self.exact else 'float'})"
        w = [scalar_to_json(v) for v in self.witness] if self.witness is not None else None
        return f"fails ({self.direction}): generator {w} gives a·x = {self.value} on a violated {self.kind}"
