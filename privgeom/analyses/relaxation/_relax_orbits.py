"""The per-orbit route of :func:`~privgeom.analyses.relax`: a relaxation built from what a definition knows per orbit.

A definition that offers its structure per orbit of its symmetry group
(:class:`~privgeom.definitions._orbit_structure.OrbitStructured`, e.g. randomized response on its hypercube) may know
its projection onto a named family of pairs in closed form (:class:`~privgeom.definitions._orbit_structure.PairOrbits`):
the same ratio bound ``r`` on every pair in both directions and, per orbit of its facets, whether the facet is lost,
with a verified witness. Then (Lin & Kifer, Section V) the relaxed cone — the intersection of the projections
``{x ≥ 0 : x_i ≤ r x_j, x_j ≤ r x_i}`` over the pairs — is exactly ε-DP on the pairs' graph with ``e^ε = r``, and
this module builds the :class:`~privgeom.analyses.Relaxation` the difference route would build, without expanding
the family, building a ``n x n`` array or solving an LP: pairs, bounds, projections and lost guarantees are lazy
sequences built one item at a time when read. It applies to ``method`` ``"auto"`` and ``"difference"`` and a family
given by name; anything else returns None and the generic routes answer.

:func:`orbit_relaxation` is the entry point (:func:`~privgeom.analyses.relax` and
:func:`~privgeom.analyses.relax_pairwise` call it first; the command line asks it whether the family needs expanding).

Examples
--------
>>> from privgeom import RandomizedResponse
>>> r = orbit_relaxation(RandomizedResponse(20, "3/4"), "hamming", "auto")
>>> r.recognised, r.level.exp_eps, len(r.lost), [st.size for st in r.statuses]
('dp', Fraction(3, 1), 1048576, [1048576])
>>> orbit_relaxation(RandomizedResponse(3, "3/4"), "all-pairs", "auto") is None
True
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any, Callable, Sequence, cast

import networkx as nx
import numpy as np

from ..._core.lazy import LazySequence
from ..._core.level import PrivacyLevel
from ..._core.numbers import fraction_str
from ...definitions._orbit_structure import OrbitStructure, PairOrbits, orbit_structure_of
from ...geometry._cone import Cone
from ...geometry._structure import ConeStructure, check_rows_size
from ..guarantees._semantics import Guarantee
from ..guarantees._summary import guarantee_with_parity, shown_as_public_base
from ._lost import FacetStatus
from ._relax_results import PairBound, Relaxation

__all__ = ["orbit_relaxation"]


def _pair_cone(labels: tuple[str, str], r: Fraction) -> Cone:
    """The projection onto a pair: ``x ≥ 0``, ``x_a ≤ r x_b``, ``x_b ≤ r x_a``."""
    one, zero = Fraction(1), Fraction(0)
    return Cone.from_facets([[one, zero], [zero, one], [-one, r], [r, -one]], exact=True, labels=labels)


def _pairs_graph(labels: tuple[str, ...], pairs: Sequence[tuple[str, str]]) -> nx.Graph:
    """The graph of the pairs over every dataset, as the generic route builds it."""
    graph = nx.Graph(name="pairs")
    graph.add_nodes_from(labels)
    graph.add_edges_from(pairs)
    return graph


def _relaxed_cone(fam: PairOrbits, labels: tuple[str, ...], pair: Callable[[int], tuple[str, str]]) -> tuple[Cone, Any]:
    """ε-DP on the pairs' graph with ``e^ε = bound``: the generic objects (graph, row cone) when the definition says
    they are small enough to store, else a cone known by its structure (counts, pair bounds, one facet per directed
    pair; its dense facets refused by size before anything is built)."""
    from ...definitions import DifferentialPrivacy

    r, m, n = fam.bound, fam.n_pairs, len(labels)
    if fam.store_graph:
        graph = _pairs_graph(labels, [pair(t) for t in range(m)])
        return DifferentialPrivacy(graph, exp_eps=r).row_cone(), graph

    def facets() -> Any:
        check_rows_size(2 * m, n, exact=True, what=f"the {2 * m:,} facets of ε-DP on the graph of {m:,} pairs")
        graph = _pairs_graph(labels, [pair(t) for t in range(m)])  # pragma: no cover - refused above
        return DifferentialPrivacy(graph, exp_eps=r).row_cone().facets  # pragma: no cover

    def facet(t: int) -> np.ndarray:
        i, j = fam.index_pair(t % m)
        if t >= m:
            i, j = j, i
        row = np.full(n, Fraction(0), dtype=object)
        row[i], row[j] = Fraction(-1), r
        return row

    structure = ConeStructure(
        f"{fam.family}-difference",
        f"one facet x_i ≤ e^ε x_j per directed pair of the {fam.family} family ({2 * m:,}), e^ε = {fraction_str(r)}",
        n_facets=2 * m,
        dim=n,
        pointed=True,
        facets=facets,
        pair_bounds=fam.relaxed_pair_bounds,
        facet=facet,
    )
    return Cone.from_structure(structure, labels=labels, exact=True), None


@shown_as_public_base
@dataclass(frozen=True)
class _OrbitRelaxation(Relaxation):
    """A relaxation built per orbit: its definition (ε-DP on the pairs' graph) is built on first read, and so is the
    graph when it is not stored."""

    @property
    def definition(self) -> Any:
        cached = self.__dict__.get("_definition")
        if cached is None:
            from ...definitions import DifferentialPrivacy

            graph = self.graph
            if graph is None:  # the graph of the pairs, as the generic route builds it
                graph = _pairs_graph(tuple(self.cone.labels), cast(Sequence[tuple[str, str]], self.subsets))
            assert self.level is not None  # recognised: ε-DP on the pairs' graph
            cached = DifferentialPrivacy(graph, exp_eps=self.level.exp_eps, inputs=self.cone.labels)
            object.__setattr__(self, "_definition", cached)
        return cached


def _lost_sequence(os: OrbitStructure, lost_orbits: list[Sequence[int]]) -> LazySequence:
    """The guarantees of every facet of the lost orbits, in orbit order, each built when read."""
    ends = list(accumulate(len(m) for m in lost_orbits))
    labels = os.labels

    def lost(j: int) -> Guarantee:
        o = bisect.bisect_right(ends, j)
        i = int(lost_orbits[o][j - (ends[o - 1] if o else 0)])
        return guarantee_with_parity(labels, lambda: os.normal(i), os.parity(i) if os.parity is not None else None)

    return LazySequence(ends[-1] if ends else 0, lost)


def _relaxation(os: OrbitStructure, fam: PairOrbits) -> Relaxation:
    labels = os.labels
    m, r = fam.n_pairs, fam.bound

    def pair(t: int) -> tuple[str, str]:
        i, j = fam.index_pair(t)
        return labels[i], labels[j]

    relaxed, graph = _relaxed_cone(fam, labels, pair)
    statuses = tuple(
        FacetStatus(
            index=s.representative,
            orbit=cast(tuple, s.members),
            lost=s.lost,
            witness=s.witness,
            value=s.value,
            combination=None if s.lost else dict(s.combination or {}),
            exact=True,
        )
        for s in fam.statuses
    )
    lost_orbits = [s.members for s in fam.statuses if s.lost]
    lost = _lost_sequence(os, lost_orbits)
    G = os.group
    symmetry = G.source + (f", order {G.order:,}" if G.order else "")
    level = PrivacyLevel.from_exp_eps(r)
    n_lost_orbits = len(lost_orbits)
    orbit_text = (
        (
            f" ({n_lost_orbits} orbit{'s' if n_lost_orbits != 1 else ''} of the symmetry group: {symmetry}; "
            f"one verified witness per orbit)"
        )
        if len(statuses) < os.n_facets
        else ""
    )
    text = (
        f"Projecting onto {m} pair{'s' if m != 1 else ''} and intersecting gives exactly ε-differential privacy on "
        f"their graph with e^ε = {fraction_str(r)} (ε = {level.eps}); {len(lost)} of {os.n_facets} original "
        f"guarantees are lost{orbit_text}."
    )
    return _OrbitRelaxation(
        cone=relaxed,
        subsets=cast(tuple, LazySequence(m, pair)),
        projections=LazySequence(m, lambda t: _pair_cone(pair(t), r)),
        pair_bounds=cast(tuple, LazySequence(m, lambda t: PairBound(pair=pair(t), forward=r, backward=r))),
        recognised="dp",
        level=level,
        graph_source=graph,
        lost=lost,
        kept=os.n_facets - len(lost),
        method="difference",
        text=text,
        route="difference",
        implied=(),
        statuses=statuses,
        symmetry=symmetry,
        n_facets=os.n_facets,
    )


def orbit_relaxation(obj: Any, family: Any, method: str = "auto") -> Relaxation | None:
    """The relaxation of ``obj`` onto ``family`` per orbit (module doc), or None (the generic routes answer).

    ``family`` is what the caller gave (a name such as ``"hamming"``; nothing is expanded); ``method`` is that of
    :func:`~privgeom.analyses.relax`. Built once per definition (its orbit structure keeps it).
    """
    if method not in ("auto", "difference"):
        return None
    os = orbit_structure_of(obj)
    if os is None or not isinstance(family, str):
        return None
    cache: dict[str, Relaxation] = os.__dict__.setdefault("_relaxations", {})
    if family not in cache:
        fam = os.pairs(family)
        if fam is None:
            return None
        cache[family] = _relaxation(os, fam)
    return cache[family]
