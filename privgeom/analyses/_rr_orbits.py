"""Randomized response described per orbit of its hypercube group: row cone summary and Hamming relaxation.

Randomized response on ``k`` bits with ``p = a/b`` (exact, ``1/2 < p < 1``) has the hypercube group (bit flips and
bit permutations, order ``2^k k!``) as automorphisms. Everything :func:`~privgeom.analyses.describe_row_cone` and
:func:`~privgeom.analyses.relax` report about it is one computation per orbit (``docs/theory.md`` §5, "Randomized
response per orbit"):

* the ``2^k`` facets (Lin & Kifer, Theorem 4.3) form ONE orbit: the facet of ``s`` goes to the facet of ``π(s)`` and
  the group is transitive on bit strings. The representative is the facet of ``1…1``, ``b^k`` times
  ``Σ_D a^{ham(s,D)} (a−b)^{k−ham(s,D)} x_D ≥ 0`` (primitive since ``gcd(a, b−a) = 1``);
* the ``k 2^{k−1}`` edges of the Hamming graph form ONE orbit (the group is edge-transitive), so every pair bound is
  the bound of one representative edge, ``p/(1−p)`` (Lin & Kifer, Section V), read from the structure and checked
  against ``p/(1−p)``; the relaxation is ε-DP on the ``k``-cube with ``e^ε = p/(1−p)``;
* for ``k ≥ 2`` every facet is lost, decided once on the representative with a verified witness: the point
  ``x_D = b−a`` when ``k − ham(s, D)`` is even and ``x_D = a`` when it is odd satisfies every ε-DP constraint
  (neighbours have opposite parity, ratio ``a/(b−a) = e^ε``) and gives the facet the value
  ``(b−a)E − aO < 0`` with ``E ± O = b^k, (2a−b)^k`` (it is ``< 0`` iff ``(1+t)/(1−t) < p/(1−p)``,
  ``t = (2p−1)^k``, true for ``k ≥ 2``; equality at ``k = 1``, where nothing is lost and the generic route answers).

No ``2^k x 2^k`` array is built; the lost guarantees, pairs, bounds and projections are lazy sequences built one item
at a time when read. Other cases (float or extreme ``p``, ``k = 1``, other families, a given group, rays) return None
and the generic route answers.

Examples
--------
>>> from privgeom import RandomizedResponse, relax_pairwise
>>> r = relax_pairwise(RandomizedResponse(20, "3/4"), "hamming")
>>> r.recognised, r.level.exp_eps, len(r.lost), [st.size for st in r.statuses]
('dp', Fraction(3, 1), 1048576, [1048576])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Sequence, cast

import networkx as nx
import numpy as np

from .._core.errors import SolverError
from .._core.lazy import LazySequence
from .._core.level import PrivacyLevel
from .._core.arrays import readonly
from .._core.numbers import fraction_str
from ..definitions import RandomizedResponse
from ..geometry._cone import Cone
from ..geometry._structure import ConeStructure, check_rows_size
from ..geometry._symmetry import SymmetryGroup, automorphisms
from ._hooks import structured_relaxation, structured_summary
from .relaxation._lost import FacetStatus
from .relaxation._relax_results import PairBound, Relaxation
from .guarantees._semantics import Guarantee
from .guarantees._wording import MAX_LISTED, parity_sentence
from .guarantees._summary import FacetOrbit, RowConeSummary, _terms

__all__: list[str] = []

#: Up to this many bits the summary carries the hypercube group's generators and the relaxation its networkx graph
#: and ε-DP row cone (exactly the objects of the generic route); beyond, they are described, not stored
#: (``2k − 1`` permutations of ``2^k`` datasets; ``k 2^{k−1}`` edges).
STORED_MAX_K = 10


def _applies(rr: RandomizedResponse) -> bool:
    p = rr.p
    return rr.exact and isinstance(p, Fraction) and Fraction(1, 2) < p < 1 and rr.k >= 2


def _popcount(x: np.ndarray, k: int) -> np.ndarray:
    out = np.zeros(len(x), dtype=np.int64)
    for t in range(k):
        out += (x >> t) & 1
    return out


def _group(rr: RandomizedResponse, labels: tuple[str, ...]) -> SymmetryGroup:
    """The hypercube group: its generators when small (as :func:`~privgeom.automorphisms` gives them), else
    described by source and order only."""
    if rr.k <= STORED_MAX_K:
        return automorphisms(rr)
    k = rr.k
    return SymmetryGroup(labels=labels, generators=(), source="hypercube", order=(1 << k) * math.factorial(k),
                         complete=True, note=f"generators not stored: the {k} bit flips and {k - 1} adjacent bit transpositions of "
                         f"{1 << k:,} datasets")


@dataclass(frozen=True, eq=False)
class _RRFacetOrbit(FacetOrbit):
    """The one facet orbit of randomized response: the representative as primitive integers from the Kronecker
    structure (Theorem 4.3), without a pass over ``2^k`` Fractions; its inequality is set in closed form."""

    @cached_property
    def normal(self) -> np.ndarray:
        return cast(np.ndarray, self.source())

    @cached_property
    def guarantee(self) -> Guarantee:
        return _facet_guarantee(self.labels, self.representative, lambda: self.normal)


def _facet_guarantee(labels: tuple[str, ...], s: int, normal: Any) -> Guarantee:
    """The guarantee of the facet of dataset ``s`` with its parity structure known: the sign of
    ``a^h (a−b)^{k−h}`` (``h = ham(s, D)``) is ``+`` iff ``ham(D, s̄)`` is even (``s̄`` the complement of ``s``,
    index ``2^k − 1 − s``, the dataset with the largest coefficient), i.e. iff ``c + Σ_j D_j`` is even with
    ``c = popcount(s̄) mod 2`` — the answer :func:`~privgeom.analyses.guarantees._wording.parity_structure` finds by elimination."""
    g = Guarantee(labels=labels, exact=True, source=normal)
    t = labels[len(labels) - 1 - s]
    k = len(t)
    const = t.count("1") % 2
    J = tuple(range(k))
    g.__dict__["_parity"] = (J, parity_sentence(J, const, t, full=True))
    return g


def _facet_inequality(k: int, a: int, b: int, t_label: str) -> str:
    """``Σ_h a^{k−h} (a−b)^h X_h ≥ 0`` as :func:`~privgeom.analyses.guarantees._summary.format_facet` writes a Hamming-class facet."""
    values = [a ** (k - h) * (a - b) ** h for h in range(k + 1)]
    return (_terms(values, [f"X{h}" for h in range(k + 1)]) + f" ≥ 0, where Xh is the sum of x_D over the datasets D "
            f"at Hamming distance h from {t_label}")


@structured_summary.register(RandomizedResponse)
def _rr_summary(rr: RandomizedResponse, *, rays: bool, definition: str | None, group: Any) -> RowConeSummary | None:
    """One facet orbit of ``2^k`` facets (module doc); None (generic route) for rays, a given group or another p."""
    if rays or group is not None or not _applies(rr):
        return None
    cone = rr.row_cone()
    st = cone.structure
    assert st is not None
    labels = tuple(cone.labels)
    n, k = rr.n_inputs, rr.k
    G = _group(rr, labels)
    a, b = rr.p.numerator, rr.p.denominator  # type: ignore[union-attr]

    def make(j: int) -> FacetOrbit:
        o = _RRFacetOrbit(size=n, representative=0, members=cast(tuple, range(n)), labels=labels, exact=True,
                          source=lambda: rr.facet(0, scaled=True))
        if n > MAX_LISTED:  # the text of format_facet for a Hamming-class facet, in closed form
            o.__dict__["inequality"] = _facet_inequality(k, a, b, labels[n - 1])
        return o

    return RowConeSummary(definition=definition if definition is not None else rr.spec(), n_datasets=n, dim=n,
                          pointed=True, n_facets=n, n_equalities=0, n_rays=st.n_rays, rule=st.description,
                          group_source="hypercube", group_order=G.order, group_complete=True,
                          facet_orbits=LazySequence(1, make), ray_orbits=None, notes=(), group=G, exact=True)


# ------------------------------------------------------------------------------------------------ relaxation
class _HammingPairs:
    """The pairs of the ``hamming`` family in the order :func:`~privgeom.analyses.relaxation._relaxation.subset_family` lists them (sorted
    index pairs ``i < j``; ``j = i XOR 2^t`` for a bit ``t`` not set in ``i``), the ``t``-th one found by a prefix
    count built on first read."""

    def __init__(self, k: int, labels: tuple[str, ...]) -> None:
        self.k, self.labels, self.n = k, labels, 1 << k
        self.m = k << (k - 1)

    @cached_property
    def _ends(self) -> np.ndarray:
        up = self.k - _popcount(np.arange(self.n, dtype=np.int64), self.k)
        return np.cumsum(up)

    def index_pair(self, t: int) -> tuple[int, int]:
        i = int(np.searchsorted(self._ends, t, side="right"))
        r = t - (int(self._ends[i - 1]) if i else 0)
        free = [u for u in range(self.k) if not (i >> u) & 1]
        return i, i ^ (1 << free[r])

    def pair(self, t: int) -> tuple[str, str]:
        i, j = self.index_pair(t)
        return self.labels[i], self.labels[j]


def _pair_cone(labels: tuple[str, str], r: Fraction) -> Cone:
    """The projection onto an edge: ``x ≥ 0``, ``x_a ≤ r x_b``, ``x_b ≤ r x_a``."""
    one, zero = Fraction(1), Fraction(0)
    return Cone.from_facets([[one, zero], [zero, one], [-one, r], [r, -one]], exact=True, labels=labels)


def _dp_cone(rr: RandomizedResponse, pairs: _HammingPairs, r: Fraction, labels: tuple[str, ...]) -> tuple[Cone, Any]:
    """ε-DP on the ``k``-cube with ``e^ε = r``: the generic objects (graph, row cone) up to :data:`STORED_MAX_K`,
    else a cone known by its structure (counts, pair bounds ``r^{ham(a,b)}``, one facet per directed edge)."""
    from ..definitions import DifferentialPrivacy

    k, n, m = rr.k, rr.n_inputs, pairs.m
    if k <= STORED_MAX_K:
        graph = nx.Graph(name="pairs")
        graph.add_nodes_from(labels)
        graph.add_edges_from(pairs.pair(t) for t in range(m))
        return DifferentialPrivacy(graph, exp_eps=r).row_cone(), graph

    def facets() -> Any:
        check_rows_size(2 * m, n, exact=True, what=f"the {2 * m:,} facets of ε-DP on the {k}-cube")
        return DifferentialPrivacy.hamming(k, exp_eps=r).row_cone().facets  # pragma: no cover - refused above

    def facet(t: int) -> np.ndarray:
        i, j = pairs.index_pair(t % m)
        if t >= m:
            i, j = j, i
        row = np.full(n, Fraction(0), dtype=object)
        row[i], row[j] = Fraction(-1), r
        return row

    structure = ConeStructure(
        "hypercube-difference", f"one facet x_i ≤ e^ε x_j per directed edge of the {k}-cube ({2 * m:,}), "
        f"e^ε = {fraction_str(r)}", n_facets=2 * m, dim=n, pointed=True, facets=facets,
        pair_bounds=rr.pair_bounds, facet=facet)  # DP on Q_k: sup x_a/x_b = r^{ham(a,b)} (Section V), as RR's
    return Cone.from_structure(structure, labels=labels, exact=True), None


def _lost_witness(rr: RandomizedResponse, s: int) -> tuple[np.ndarray, Fraction]:
    """The verified witness that the facet of dataset ``s`` is lost (module doc): ``x`` in the ε-DP cone of the
    ``k``-cube with ``facet_s · x < 0``. Raises SolverError when a check fails."""
    k, n = rr.k, rr.n_inputs
    a, b = rr.p.numerator, rr.p.denominator  # type: ignore[union-attr]
    h = _popcount(np.arange(n, dtype=np.int64) ^ s, k)  # ham(s, D) = popcount of the XOR of the indices
    x = np.where((k - h) % 2 == 0, b - a, a).astype(np.int64)
    idx = np.arange(n, dtype=np.int64)
    for t in range(k):  # every directed edge: (b − a) x_i ≤ a x_j, i.e. x_i ≤ r x_j
        if not ((b - a) * x <= a * x[idx ^ (1 << t)]).all():
            raise SolverError(f"{rr.name}: the lost-guarantee witness leaves the ε-DP cone")  # pragma: no cover
    counts = np.bincount(h, minlength=k + 1).tolist()  # the number of datasets at each distance, counted
    value = sum(c * a**hh * (a - b) ** (k - hh) * ((b - a) if (k - hh) % 2 == 0 else a)
                for hh, c in enumerate(counts))
    if not value < 0:
        raise SolverError(f"{rr.name}: the lost-guarantee witness does not violate the facet")  # pragma: no cover
    return readonly(x), Fraction(value)


@dataclass(frozen=True)
class _HypercubeRelaxation(Relaxation):
    """The relaxation of randomized response onto the Hamming pairs: its definition is ε-DP on the ``k``-cube, built
    on first read (the graph of ``k 2^{k−1}`` edges is not stored beyond :data:`STORED_MAX_K` bits)."""

    @property
    def definition(self) -> Any:
        cached = self.__dict__.get("_definition")
        if cached is None:
            from ..definitions import DifferentialPrivacy

            graph = self.graph
            if graph is None:  # the graph of the pairs, as the generic route builds it (size-checked by the family)
                graph = nx.Graph(name="pairs")
                graph.add_nodes_from(self.cone.labels)
                graph.add_edges_from(self.subsets)
            assert self.level is not None  # recognised: ε-DP on the k-cube
            cached = DifferentialPrivacy(graph, exp_eps=self.level.exp_eps, inputs=self.cone.labels)
            object.__setattr__(self, "_definition", cached)
        return cached


def _relax_rr(rr: RandomizedResponse) -> Relaxation:
    k, n = rr.k, rr.n_inputs
    p = cast(Fraction, rr.p)
    r = p / (1 - p)
    cone = rr.row_cone()
    labels = tuple(cone.labels)
    pairs = _HammingPairs(k, labels)
    m = pairs.m
    i0, j0 = pairs.index_pair(0)  # the representative edge: one orbit (the hypercube group is edge-transitive)
    fwd, bwd = rr.pair_bounds([i0], [j0])
    if not (fwd[0] == r and bwd[0] == r):
        raise SolverError(f"{rr.name}: the pair bound {fwd[0]} of the representative edge is not p/(1−p) = {r}")
    relaxed, graph = _dp_cone(rr, pairs, r, labels)
    witness, value = _lost_witness(rr, 0)
    status = FacetStatus(index=0, orbit=cast(tuple, range(n)), lost=True, witness=witness, value=value,
                         combination=None, exact=True)
    order = (1 << k) * math.factorial(k)
    symmetry = f"hypercube, order {order:,}"
    level = PrivacyLevel.from_exp_eps(r)
    text = (f"Projecting onto {m} pairs and intersecting gives exactly ε-differential privacy on their graph with "
            f"e^ε = {fraction_str(r)} (ε = {level.eps}); {n} of {n} original guarantees are lost (1 orbit of the "
            f"symmetry group: {symmetry}; one verified witness per orbit).")

    def lost(j: int) -> Guarantee:
        return _facet_guarantee(labels, j, lambda: rr.facet(j, scaled=True))

    subsets: Sequence[tuple[str, ...]] = LazySequence(m, pairs.pair)
    return _HypercubeRelaxation(
        cone=relaxed, subsets=cast(tuple, subsets), projections=LazySequence(m, lambda t: _pair_cone(pairs.pair(t), r)),
        pair_bounds=cast(tuple, LazySequence(m, lambda t: PairBound(pair=pairs.pair(t), forward=r, backward=r))),
        recognised="dp", level=level, graph_source=graph, lost=LazySequence(n, lost), kept=0, method="difference",
        text=text, route="difference", implied=(), statuses=(status,), symmetry=symmetry, n_facets=n)


@structured_relaxation.register(RandomizedResponse)
def _rr_relaxation(rr: RandomizedResponse, family: Any, method: str) -> Relaxation | None:
    """The Hamming relaxation per orbit (module doc); None (generic route) otherwise."""
    if not (isinstance(family, str) and family == "hamming") or method not in ("auto", "difference") \
            or not _applies(rr):
        return None
    cached = rr.__dict__.get("_hamming_relaxation")  # the definition is immutable: one relaxation per definition
    if cached is None:
        cached = rr.__dict__["_hamming_relaxation"] = _relax_rr(rr)
    return cached
