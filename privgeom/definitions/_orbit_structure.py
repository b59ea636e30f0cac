"""The one way a definition offers a fast path: its structure per orbit of its symmetry group, as data.

A definition whose symmetry group acts on its row cone with few orbits can describe the cone (and its relaxation
onto a family of pairs) one orbit at a time, in closed form, without any ``n x n`` array. It says so by a method
``orbit_structure()`` (the protocol :class:`OrbitStructured`) returning an :class:`OrbitStructure`, or None when
its closed form does not apply to these parameters. The analyses (``privgeom.analyses``, one layer up) look the
method up (:func:`orbit_structure_of`) and build their own results from this data — a row cone summary per orbit
(:func:`~privgeom.describe_row_cone`) and a relaxation per orbit (:func:`~privgeom.relax`); nothing here imports or
names the analyses, and an analysis never asks which definition it holds.

What the data must satisfy (each definition proves it in its own module, e.g. randomized response by Lin & Kifer's
Theorem 4.3 and Section V in ``definitions/_rr_orbits.py``):

* the facets are irredundant and full-dimensional (no equalities), ``normal(i)`` is facet ``i`` as primitive integers
  (exact mode), and ``facet_orbits`` partition the facet indices into orbits of ``group``;
* a :class:`PairOrbits` of a family: ``pair(t)`` lists its pairs in the order
  :func:`~privgeom.analyses.relaxation._relaxation.subset_family` lists them, every projection onto a pair is the
  interval ``[1/bound, bound]`` of ratios (so the relaxed cone is ε-DP on the pairs' graph with ``e^ε = bound``, Lin &
  Kifer Section V), and ``statuses`` give, per facet orbit, a verified witness when it is lost (a point of that ε-DP
  cone with ``normal · x = value < 0``).

Examples
--------
>>> from privgeom import RandomizedResponse
>>> os = orbit_structure_of(RandomizedResponse(3, "3/4"))
>>> os.n_facets, [o.size for o in os.facet_orbits], os.group.order, os.normal(0).tolist()
(8, [8], 48, [-1, 3, 3, -9, 3, -9, -9, 27])
>>> fam = os.pairs("hamming")
>>> fam.n_pairs, fam.index_pair(0), fam.bound, [(s.lost, int(s.value)) for s in fam.statuses]
(12, (0, 1), Fraction(3, 1), [(True, -48)])
>>> orbit_structure_of(RandomizedResponse(3, 0.75)) is None      # float p: no closed form offered
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from ..geometry._cone import Cone
from ..geometry._symmetry import SymmetryGroup

__all__ = ["FacetOrbitData", "OrbitStatus", "OrbitStructure", "OrbitStructured", "PairOrbits", "orbit_structure_of"]


@dataclass(frozen=True)
class FacetOrbitData:
    """One orbit of facets under the definition's group: its size, representative and members (facet indices)."""

    size: int
    representative: int
    members: Sequence[int] = field(repr=False)


@dataclass(frozen=True)
class OrbitStatus:
    """Whether the facets of one orbit are lost by a relaxation: a lost orbit carries a verified witness ``x`` in the
    relaxed cone with ``normal(representative) · x = value < 0``; a kept one the combination ``{t: λ_t > 0}`` of the
    relaxed constraints (pair ``t``'s bound ``x_i ≤ r x_j``) that implies it."""

    representative: int
    members: Sequence[int] = field(repr=False)
    lost: bool
    witness: np.ndarray | None = field(repr=False, default=None)
    value: Fraction | None = None
    combination: Mapping[int, Fraction] | None = field(repr=False, default=None)


@dataclass(frozen=True)
class PairOrbits:
    """The projection of the row cone onto a family of pairs, in closed form (see the module doc for what must hold).

    Attributes
    ----------
    family : str
        The family's name (``"hamming"``).
    n_pairs : int
    index_pair : callable ``t -> (i, j)``
        The ``t``-th pair as dataset indices, in the order of ``subset_family``.
    bound : Fraction
        ``sup x_i / x_j`` over the row cone, the same on every pair and in both directions (checked on a
        representative pair by the definition).
    statuses : tuple of OrbitStatus
        One per facet orbit (in the order of :attr:`OrbitStructure.facet_orbits`).
    relaxed_pair_bounds : callable ``(ia, ib) -> (forward, backward)``
        The ratio bounds of the relaxed cone (ε-DP on the pairs' graph: ``bound`` to the graph distance).
    store_graph : bool
        Small enough to store the pairs' networkx graph and the generic ε-DP row cone (else they are described).
    """

    family: str
    n_pairs: int
    index_pair: Callable[[int], tuple[int, int]] = field(repr=False)
    bound: Fraction
    statuses: tuple[OrbitStatus, ...] = field(repr=False)
    relaxed_pair_bounds: Callable[[Any, Any], tuple[np.ndarray, np.ndarray]] = field(repr=False)
    store_graph: bool = True


@dataclass(frozen=True)
class OrbitStructure:
    """A row cone described per orbit of a symmetry group (see the module doc).

    Attributes
    ----------
    name : str
        The definition's spec (shown in summaries).
    cone : Cone
        The row cone (known in closed form: counts and structure, nothing dense built).
    group : SymmetryGroup
        The full symmetry group (possibly described by source and order only, without generators).
    facet_orbits : tuple of FacetOrbitData
    normal : callable ``i -> row``
        Facet ``i`` as primitive integers (``int64`` or Python ints), built alone.
    parity : callable ``i -> (J, c, t)`` or None
        The parity rule of facet ``i``'s guarantee when known in closed form and every coefficient of the facet is
        nonzero (its support is every dataset): ``S+ = {D : c + Σ_{j∈J} D_j even}`` and
        ``t`` the dataset with the largest coefficient (as ``guarantees._wording.parity_structure`` would find it).
    hamming_profile : callable ``i -> (t, values)`` or None
        When facet ``i``'s coefficient of ``D`` depends only on ``h = ham(D, t)``: ``t`` and ``values[h]``.
    families : mapping ``name -> callable returning PairOrbits``
        The families of pairs whose relaxation is known per orbit.
    """

    name: str
    cone: Cone = field(repr=False)
    group: SymmetryGroup = field(repr=False)
    facet_orbits: tuple[FacetOrbitData, ...]
    normal: Callable[[int], np.ndarray] = field(repr=False)
    parity: Callable[[int], tuple[tuple[int, ...], int, str]] | None = field(repr=False, default=None)
    hamming_profile: Callable[[int], tuple[str, list[int]]] | None = field(repr=False, default=None)
    families: Mapping[str, Callable[[], PairOrbits]] = field(repr=False, default_factory=dict)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.cone.labels)

    @property
    def n_facets(self) -> int:
        return sum(o.size for o in self.facet_orbits)

    def pairs(self, family: Any) -> PairOrbits | None:
        """The relaxation data of ``family`` (a name), or None when this family is not known per orbit."""
        make = self.families.get(family) if isinstance(family, str) else None
        return make() if make is not None else None


@runtime_checkable
class OrbitStructured(Protocol):
    """A definition that offers its structure per orbit (None when its closed form does not apply)."""

    def orbit_structure(self) -> OrbitStructure | None: ...


def orbit_structure_of(obj: Any) -> OrbitStructure | None:
    """The :class:`OrbitStructure` ``obj`` offers (the protocol :class:`OrbitStructured`), or None.

    >>> orbit_structure_of(object()) is None
    True
    """
    return obj.orbit_structure() if isinstance(obj, OrbitStructured) else None
