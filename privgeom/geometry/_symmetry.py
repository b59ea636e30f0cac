"""Symmetry of privacy definitions: permutations of the datasets that map the row cone to itself.

An *automorphism* of a privacy definition is a permutation ``π`` of its datasets whose coordinate action maps the row
cone to itself: ``x ∈ rowcone ⇔ π·x ∈ rowcone`` with ``(π·x)[π(i)] = x[i]``. It permutes the facets (Bayesian
guarantees, Lin & Kifer, Section III-C), the extreme rays and every object built from them, so an analysis needs one
representative per *orbit*. Groups are stored by **generators** and orbits are found by union–find over the
generators (connected components of the graph ``item — image of item``), never by enumerating the group.

Known groups (no search):

* randomized response ``{M_rr(p)}`` on ``k`` bits, ``1/2 < p < 1`` (Lin & Kifer, Theorem 4.3: the facets are the
  columns of ``⊗^k [[p, p−1], [p−1, p]]``, indexed by strings ``s``): the hyperoctahedral group of the ``k``-cube
  (flip a bit, permute the bits), of order ``2^k k!``. It is the whole automorphism group: an entry of ``M_rr`` is
  ``p^{k−h}(1−p)^h`` with ``h`` the Hamming distance, so a permutation of the columns that maps rows to rows keeps
  Hamming distances, and the isometries of the cube are exactly these.
* ε-DP over a neighbour graph ``G`` with ``e^ε > 1`` (row cone ``{x : x_i ≤ e^ε x_j}`` for the directed edges, Lin &
  Kifer, Section V): every directed edge inequality is a facet (perturb ``x_i`` alone) and ``x_v ≥ 0`` is a facet
  exactly for isolated ``v``, so the automorphisms are those of ``G``: hypercube generators for the Hamming graph,
  the symmetric group for the complete graph, the reversal for the path, networkx's ``GraphMatcher`` otherwise
  (capped; ``complete=False`` when the cap is hit). With ``e^ε = 1`` the cone only sees the connected components.
* closed-form catalogue definitions (k-ary randomized response, FRAPP, the truncated geometric mechanism) register
  their known groups in :mod:`privgeom.definitions._frapp` and :mod:`privgeom.definitions._geometric` through
  :func:`known_group`, which verifies the generators on the rows before returning the group (proofs of completeness
  there).
* a finite definition: the column permutations that map the set of normalised rows of its mechanisms to itself
  (``method="rows"``, a subgroup of the row cone's group, equal to it when the rows are linearly independent, since
  then every row is an extreme ray), or the set of mechanisms to itself up to row order (``method="mechanisms"``).

Generic searches. The group of a set of rows (a finite definition, ``method="facets"`` of a cone) is found by
partition refinement (:func:`~privgeom.geometry._row_group.row_automorphisms`: individualisation–refinement with a
stabiliser chain of generators, so it returns generators and the exact order without enumerating the group);
``method="mechanisms"`` runs it on the rows with one more coordinate per mechanism that marks its rows and their
multiplicities (:func:`~privgeom.geometry._row_group.block_id_matrix`). Every generator is checked to map the rows (the
set of mechanisms) onto itself before the group is returned. Only when that search stops at its budget does the
graph search run (networkx's VF2 on a coloured graph), which enumerates group *elements* and is bounded three ways,
all deterministic: at most ``max_automorphisms`` elements, at most ``max_search_steps`` candidate-pair checks of VF2
(:data:`MAX_SEARCH_STEPS`, about a second; the same registered limit ``symmetry_steps`` bounds the refinement), and no
search at all on a coloured graph of more than ``max_search_graph`` nodes + edges (:data:`MAX_SEARCH_GRAPH`,
estimated from the sizes before anything is built). A search stopped by a bound does not refuse: it returns the
subgroup found so far (the generators of both searches; the trivial group when the search was not started), with
``complete=False``, ``order=None`` and a :attr:`SymmetryGroup.note` saying which bound stopped it — every element is
still a verified automorphism, so orbits are only finer, never wrong. ε-DP over a graph without a closed form is
searched by VF2 alone.

The group type (:class:`SymmetryGroup`, :class:`Orbit`) and the closed-form groups are in
:mod:`privgeom.geometry._groups` (re-exported here).

Examples
--------
>>> from privgeom import RandomizedResponse
>>> G = automorphisms(RandomizedResponse(3, "3/4"))
>>> G.source, G.order, len(G.generators), G.complete
('hypercube', 48, 5, True)
>>> [o.size for o in G.point_orbits()]
[8]
"""

from __future__ import annotations

import dataclasses
import math
from functools import singledispatch
from typing import Any, Callable, Sequence

import networkx as nx
import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SolverError
from .._core.limits import register_limit
from .._core.arrays import ATOL
from .._core.hints import limit_hint
from .._core.limits import current_limit
from ._canonical import normalise_rows
from ._cone import Cone
from ._row_group import ENTRIES_PER_STEP, block_id_matrix, distinct_rows, maps_blocks, row_automorphisms, value_ids
from ._groups import (
    Orbit,
    SymmetryGroup,
    _check_entries,
    _factorial,
    _group_from_elements,
    _symmetric_generators,
    hypercube_generators,
    known_group,
    source_phrase,
    stabiliser_source,
    symmetric_generators,
)

__all__ = [
    "SymmetryGroup",
    "Orbit",
    "automorphisms",
    "source_phrase",
    "stabiliser_source",
    "hypercube_generators",
    "MAX_AUTOMORPHISMS",
    "MAX_SEARCH_STEPS",
    "MAX_SEARCH_GRAPH",
    "rr_automorphisms",
    "dp_automorphisms",
    "finite_automorphisms",
    "trivial_automorphisms",
    "known_group",
    "symmetric_generators",
]

#: Default cap on automorphisms enumerated by a graph search (``complete=False`` when reached).
MAX_AUTOMORPHISMS = 5000
#: Budget of one generic (VF2) search, in work units: each candidate-pair feasibility check counts ``64 + degree``
#: (a fixed cost plus the neighbours it visits; one unit is about 0.2–0.4 µs), so the default is about a second.
MAX_SEARCH_STEPS = 2_500_000
#: Largest coloured search graph (nodes + edges, estimated from the sizes before building it) of a generic search.
MAX_SEARCH_GRAPH = 100_000
register_limit(
    "symmetry_elements",
    globals(),
    "MAX_AUTOMORPHISMS",
    "automorphisms a generic symmetry search enumerates (a budget: past it, a subgroup with a note)",
)
register_limit(
    "symmetry_steps",
    globals(),
    "MAX_SEARCH_STEPS",
    "work units of one generic (VF2) symmetry search (a budget: past it, a subgroup with a note)",
)
register_limit(
    "symmetry_graph",
    globals(),
    "MAX_SEARCH_GRAPH",
    "nodes + edges of a generic symmetry search graph (a budget: past it, not searched, with a note)",
)


class _SearchBudget(Exception):
    """Raised inside VF2 when the step budget is spent."""


def _graph_automorphisms(
    graph: nx.Graph,
    labels: Sequence[str],
    *,
    max_automorphisms: int | None,
    source: str,
    node_match: Callable[..., bool] | None = None,
    edge_match: Callable[..., bool] | None = None,
    complete_if_all: bool = True,
    points: Sequence[Any] | None = None,
    max_search_steps: int | None = None,
) -> SymmetryGroup:
    """Automorphisms of a (coloured) graph restricted to the nodes ``points`` (default: the labels), capped by the
    number of elements and by ``max_search_steps`` VF2 candidate-pair checks (deterministic budget)."""
    from networkx.algorithms.isomorphism import GraphMatcher

    cap = _check_cap(max_automorphisms)
    budget = _check_budget(max_search_steps, "max_search_steps")

    class _Counting(GraphMatcher):
        steps = 0

        def syntactic_feasibility(self, G1_node: Any, G2_node: Any) -> bool:
            self.steps += 64 + len(self.G1._adj[G1_node])  # a fixed cost plus the neighbours the check visits
            if self.steps > budget:
                raise _SearchBudget
            return bool(super().syntactic_feasibility(G1_node, G2_node))

    pts = list(labels) if points is None else list(points)
    where = {v: i for i, v in enumerate(pts)}
    found: set[tuple[int, ...]] = set()
    elements: list[tuple[int, ...]] = []
    capped = False
    note = ""
    matcher = _Counting(graph, graph, node_match=node_match, edge_match=edge_match)
    try:
        for mapping in matcher.isomorphisms_iter():
            perm = tuple(where[mapping[v]] for v in pts)
            if perm in found:
                continue
            found.add(perm)
            elements.append(perm)
            if len(elements) >= cap:
                capped = True
                note = (
                    f"generic search stopped at {cap:,} automorphisms (limit "
                    f"symmetry_elements): possibly a subgroup; "
                    f"{limit_hint('symmetry_elements', keyword='max_automorphisms')}"
                )
                break
    except _SearchBudget:
        capped = True
        note = (
            f"generic search stopped after {budget:,} steps with {len(elements):,} automorphisms "
            f"found (limit symmetry_steps): possibly a subgroup; "
            f"{limit_hint('symmetry_steps', keyword='max_search_steps')}"
        )
    return _group_from_elements(labels, elements, source, capped, complete_if_all, note)


def _not_searched(labels: Sequence[str], source: str, size: int, limit: int) -> SymmetryGroup:
    return SymmetryGroup.trivial(
        labels,
        source=f"{source} (not searched)",
        note=(
            f"symmetry not searched: {len(labels):,} datasets give a search graph of {size:,} nodes and edges, "
            f"more than the generic search limit symmetry_graph = {limit:,}; "
            f"{limit_hint('symmetry_graph', size, keyword='max_search_graph')}"
        ),
    )


#: The keyword of each search budget -> its registered limit (read at call time).
_BUDGETS = {"max_search_steps": "symmetry_steps", "max_search_graph": "symmetry_graph"}


def _check_budget(value: int | None, name: str) -> int:
    """``value``, or the registered limit in force when it is None; a positive integer."""
    if value is None:
        return current_limit(_BUDGETS[name])
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidParameterError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _check_cap(max_automorphisms: int | None) -> int:
    """``max_automorphisms``, or the ``symmetry_elements`` limit in force when it is None."""
    if max_automorphisms is None:
        return current_limit("symmetry_elements")
    if isinstance(max_automorphisms, bool) or not isinstance(max_automorphisms, int) or max_automorphisms < 1:
        raise InvalidParameterError(f"max_automorphisms must be a positive integer, got {max_automorphisms!r}")
    return max_automorphisms


# ----------------------------------------------------------------------------------------------- dispatch
@singledispatch
def automorphisms(obj: Any, *, max_automorphisms: int | None = None, **options: Any) -> SymmetryGroup:
    """The symmetry group of a privacy definition or cone (permutations of the datasets mapping the row cone to itself).

    Dispatch (``functools.singledispatch``; register new types with ``automorphisms.register``):
    :class:`~privgeom.RandomizedResponse` → hypercube generators; :class:`~privgeom.DifferentialPrivacy` → the
    neighbour graph's automorphisms; :class:`~privgeom.FiniteDefinition` → column permutations of its mechanisms
    (``method="rows"`` or ``"mechanisms"``); :class:`~privgeom.Cone` → the group it carries (attribute
    ``symmetry``), else the trivial group, or with ``method="facets"`` the permutations of its canonical facets; any
    other privacy definition → the trivial group (``complete=False``).

    Parameters
    ----------
    obj : PrivacyDefinition or Cone
    max_automorphisms : int
        Cap for graph searches; when reached, the group found is a subgroup (``complete=False``, ``order=None``).
    max_search_steps, max_search_graph : int, optional (keywords of the generic searches)
        Budget of VF2 candidate-pair checks (:data:`MAX_SEARCH_STEPS`) and largest search graph, nodes + edges
        (:data:`MAX_SEARCH_GRAPH`); beyond them the group found so far (or the trivial group) is returned with
        ``complete=False`` and a :attr:`~SymmetryGroup.note` (see the module doc). Known groups ignore them.

    Raises
    ------
    InvalidTypeError
        An object that is neither a privacy definition nor a cone.
    SizeLimitError
        More generator entries than ``MAX_PERMUTATION_ENTRIES``.

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy
    >>> G = automorphisms(DifferentialPrivacy.hamming(4, exp_eps=3))
    >>> G.source, G.order
    ('hypercube', 384)
    >>> automorphisms(DifferentialPrivacy.path(3, exp_eps=2)).generators
    ((3, 2, 1, 0),)
    """
    raise InvalidTypeError(f"automorphisms takes a privacy definition or a Cone, got {type(obj).__name__}")


# The handlers of the privacy definitions are duck-typed and registered by the definitions' own modules
# (``automorphisms.register(RandomizedResponse, rr_automorphisms)`` in ``definitions/_rr.py``, …): definitions sit
# above geometry, so this module never imports them.
def trivial_automorphisms(definition: Any, *, max_automorphisms: int | None = None, **options: Any) -> SymmetryGroup:
    """The trivial group of a privacy definition with no known structure (``complete=False``)."""
    return SymmetryGroup.trivial(definition.inputs, source="trivial (no known structure)")


def rr_automorphisms(rr: Any, *, max_automorphisms: int | None = None, **options: Any) -> SymmetryGroup:
    """Randomized response on ``k`` bits: the hypercube group (order ``2^k k!``); for ``p = 1`` (the orthant) the
    symmetric group (docs/theory.md §5)."""
    _check_cap(max_automorphisms)
    k, n = rr.k, rr.n_inputs
    labels = tuple(rr.inputs)
    if rr.p == 1:  # the row cone is the orthant: every permutation
        return _symmetric_group(labels, "the symmetric group of the orthant")
    _check_entries(2 * k - 1, n, f"the hypercube group of randomized response on k = {k} bits")
    gens = hypercube_generators(k)
    return SymmetryGroup(
        labels=labels,
        generators=tuple(map(tuple, gens.tolist())),
        source="hypercube",
        order=(1 << k) * math.factorial(k),
        complete=True,
    )


def _symmetric_group(labels: tuple[str, ...], what: str) -> SymmetryGroup:
    """The symmetric group on the datasets (two generators), refused above ``MAX_PERMUTATION_ENTRIES``."""
    n = len(labels)
    _check_entries(2, n, what)
    sym = _symmetric_generators(list(range(n)), n)
    return SymmetryGroup(
        labels=labels,
        generators=tuple(tuple(g.tolist()) for g in sym),
        source="symmetric",
        order=_factorial(n),
        complete=True,
    )


def _hamming_group(labels: tuple[str, ...], spec: str) -> SymmetryGroup:
    """The Hamming graph on ``k`` bits (whatever its labels' order): the hypercube group, order ``2^k k!`` (bit flips
    and bit permutations). ``O(2^k k)``."""
    n = len(labels)
    k = int(spec.split("=")[-1])
    _check_entries(2 * k - 1, n, f"the hypercube group of the Hamming graph on k = {k} bits")
    where = {s: i for i, s in enumerate(labels)}
    ref = [format((1 << k) - 1 - i, f"0{k}b") for i in range(1 << k)]  # index order of hypercube_generators
    perm_idx = np.array([where[s] for s in ref], dtype=np.int64)  # generator index -> our index
    gens = []
    for g in hypercube_generators(k):
        p = np.empty(n, dtype=np.int64)
        p[perm_idx] = perm_idx[g]
        gens.append(tuple(p.tolist()))
    return SymmetryGroup(
        labels=labels, generators=tuple(gens), source="hypercube", order=(1 << k) * math.factorial(k), complete=True
    )


def _complete_group(labels: tuple[str, ...], spec: str) -> SymmetryGroup:
    """The complete graph: the symmetric group (two generators, order ``n!``)."""
    return _symmetric_group(labels, "the symmetric group of the complete graph")


def _path_group(labels: tuple[str, ...], spec: str) -> SymmetryGroup:
    """The path ``0 – 1 – … – n−1``: the reversal (order 2), the whole automorphism group of a path."""
    n = len(labels)
    where = {s: i for i, s in enumerate(labels)}
    order = [where[str(c)] for c in range(n)]
    rev = np.empty(n, dtype=np.int64)
    rev[order] = order[::-1]
    return SymmetryGroup(labels=labels, generators=(tuple(rev.tolist()),), source="reversal", order=2, complete=True)


#: The neighbour graphs whose automorphism group :func:`dp_automorphisms` knows in closed form, by the graph kind
#: :func:`_structural_spec` recognises (``graph=<kind>,…``); any other graph is searched (bounded VF2).
_KNOWN_GRAPH_GROUPS: dict[str, Callable[[tuple[str, ...], str], SymmetryGroup]] = {
    "hamming": _hamming_group,
    "complete": _complete_group,
    "path": _path_group,
}


def dp_automorphisms(
    dp: Any,
    *,
    max_automorphisms: int | None = None,
    max_search_steps: int | None = None,
    max_search_graph: int | None = None,
    **options: Any,
) -> SymmetryGroup:
    """ε-DP over a graph: the graph's automorphisms (the row cone ``x_i ≤ e^ε x_j`` per edge maps to itself exactly
    under them); known in closed form for the graphs of :data:`_KNOWN_GRAPH_GROUPS`, else a bounded search; for
    ``e^ε = 1`` the component group."""
    max_automorphisms = _check_cap(max_automorphisms)
    max_search_steps = _check_budget(max_search_steps, "max_search_steps")
    max_search_graph = _check_budget(max_search_graph, "max_search_graph")
    labels = tuple(dp.inputs)
    if dp.level.exp_eps == 1:
        return _component_group(dp.graph, labels)
    pairs = getattr(dp, "index_pairs", None)
    if pairs is None:
        from ..graphs._graphs import edge_index_pairs

        ep = edge_index_pairs(dp.graph, labels)
        pairs = (np.array([i for i, _ in ep], dtype=np.int64), np.array([j for _, j in ep], dtype=np.int64))
    I, J = (np.asarray(v, dtype=np.int64) for v in pairs)
    spec = _structural_spec(labels, I, J)
    if spec is not None:
        return _KNOWN_GRAPH_GROUPS[spec.split(",")[0].removeprefix("graph=")](labels, spec)
    size = len(labels) + len(I)
    if size > max_search_graph:
        return _not_searched(labels, "graph", size, max_search_graph)
    return _graph_automorphisms(
        dp.graph, labels, max_automorphisms=max_automorphisms, source="graph", max_search_steps=max_search_steps
    )


def _structural_spec(labels: tuple[str, ...], I: np.ndarray, J: np.ndarray) -> str | None:
    """``graph=hamming,k=K`` / ``graph=complete,n=N`` / ``graph=path,n=N`` when the graph given by its distinct
    undirected index pairs ``(I[e], J[e])`` is one of them whatever its name (``O(E)`` with numpy)."""
    n, m = len(labels), len(I)
    if n >= 2 and m == n * (n - 1) // 2:
        return f"graph=complete,n={n}"
    if n >= 2 and m == n - 1 and labels == tuple(str(c) for c in range(n)):
        if bool(np.all(np.abs(J - I) == 1)):
            return f"graph=path,n={n - 1}"
    k = len(labels[0]) if labels else 0
    if (
        k
        and k < 63
        and n == 1 << k
        and m == k * (n >> 1)
        and all(len(s) == k and not set(s) - {"0", "1"} for s in labels)
    ):
        vals = np.array([int(s, 2) for s in labels], dtype=np.int64)
        x = vals[I] ^ vals[J]
        if bool(np.all((x != 0) & ((x & (x - 1)) == 0))):  # exactly one differing bit
            return f"graph=hamming,k={k}"
    return None


def _component_group(G: nx.Graph, labels: tuple[str, ...]) -> SymmetryGroup:
    """``e^ε = 1``: the cone is ``{x ≥ 0 constant on each component}``; any permutation keeping the partition."""
    n = len(labels)
    where = {s: i for i, s in enumerate(labels)}
    comps = sorted((sorted(where[v] for v in c) for c in nx.connected_components(G)), key=lambda c: (len(c), c))
    gens: list[np.ndarray] = []
    order: int | None = 1
    for c in comps:
        gens += _symmetric_generators(c, n)
        f = _factorial(len(c))
        order = order * f if (order is not None and f is not None) else None
    by_size: dict[int, list[list[int]]] = {}
    for c in comps:
        by_size.setdefault(len(c), []).append(c)
    for same in by_size.values():
        for a, b in zip(same, same[1:]):
            p = np.arange(n, dtype=np.int64)
            p[a], p[b] = b, a
            gens.append(p)
        f = _factorial(len(same))
        order = order * f if (order is not None and f is not None) else None
    _check_entries(len(gens), n, "the component group of ε = 0")
    return SymmetryGroup(
        labels=labels,
        generators=tuple(tuple(g.tolist()) for g in gens),
        source="components",
        order=order,
        complete=True,
    )


def _coloured_row_graph(blocks: list[tuple[np.ndarray, list[int]]], n: int, exact: bool, atol: float) -> nx.Graph:
    """Columns ``("c", j)``, one node per block ``("m", l)``, one per distinct row ``("r", l, o)`` (with its
    multiplicity); row–column edges coloured by the entry value (zero entries: no edge)."""
    G = nx.Graph()
    G.add_nodes_from((("c", j) for j in range(n)), kind="c")
    ids = value_ids([b for b, _ in blocks], atol)
    zero_id = None
    if blocks:
        flat = np.vstack([b for b, _ in blocks])
        zero_mask = (flat == 0) if exact else (np.abs(np.asarray(flat, dtype=float)) <= atol)
        allids = np.vstack(ids)
        if zero_mask.any():
            zero_id = int(allids[zero_mask][0])
    for l, ((rows, mult), vid) in enumerate(zip(blocks, ids)):
        G.add_node(("m", l), kind="m")
        for o in range(len(rows)):
            G.add_node(("r", l, o), kind=("r", mult[o]))
            G.add_edge(("m", l), ("r", l, o), v=-1)
            for j in range(n):
                if int(vid[o, j]) != zero_id:
                    G.add_edge(("r", l, o), ("c", j), v=int(vid[o, j]))
    return G


def _match(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(a.get("kind") == b.get("kind"))


def _ematch(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(a.get("v") == b.get("v"))


def _verified(
    group: SymmetryGroup, blocks: list[tuple[np.ndarray, list[int]]], exact: bool, atol: float
) -> SymmetryGroup:
    """``group`` once every generator is checked to map the rows onto themselves (one block of simple rows:
    :meth:`SymmetryGroup.preserves_rows` on the values) or the set of blocks onto itself (rows compared by value id).

    Raises
    ------
    SolverError
        A generator that is no symmetry (a defect of the search: please report); never returned.
    """
    if not group.generators:
        return group
    if len(blocks) == 1 and all(m == 1 for m in blocks[0][1]):
        ok = group.preserves_rows(blocks[0][0], atol=atol)
    else:
        ok = maps_blocks(group.generators, blocks, atol)
    if not ok:
        raise SolverError(
            f"the {group.source} symmetry search returned a permutation that is no symmetry; please report"
        )
    return group


def _refined_group(
    blocks: list[tuple[np.ndarray, list[int]]],
    labels: tuple[str, ...],
    exact: bool,
    atol: float,
    source: str,
    complete: bool,
    max_search_steps: int,
) -> SymmetryGroup:
    """The group by partition refinement (:func:`~privgeom.geometry._row_group.row_automorphisms`), restricted to the
    ``n`` columns; ``order=None`` when the search stopped at its budget (the generators found so far)."""
    n = len(labels)
    found = row_automorphisms(block_id_matrix(blocks, atol), max_work=ENTRIES_PER_STEP * max_search_steps)
    gens = tuple(dict.fromkeys(g[:n] for g in found.generators if g[:n] != tuple(range(n))))
    return SymmetryGroup(
        labels=labels, generators=gens, source=source, order=found.order, complete=complete and found.complete
    )


def _rows_group(
    blocks: list[tuple[np.ndarray, list[int]]],
    labels: tuple[str, ...],
    exact: bool,
    atol: float,
    max_automorphisms: int,
    source: str,
    complete: bool,
    max_search_steps: int | None = None,
    max_search_graph: int | None = None,
) -> SymmetryGroup:
    """The column permutations mapping the set of ``blocks`` (each a set of rows with multiplicities) onto itself:
    partition refinement first, the bounded VF2 search only when it stops at its budget (module doc)."""
    max_search_graph = _check_budget(max_search_graph, "max_search_graph")
    max_search_steps = _check_budget(max_search_steps, "max_search_steps")
    n = len(labels)
    size = n + sum(len(rows) * (n + 2) for rows, _ in blocks) + len(blocks)  # nodes + edges, an upper bound
    if size > max_search_graph:
        return _not_searched(labels, source, size, max_search_graph)
    if not blocks or n < 2:
        return SymmetryGroup(labels=labels, generators=(), source=source, order=1, complete=complete)
    refined = _refined_group(blocks, labels, exact, atol, source, complete, max_search_steps)
    if refined.order is not None:
        return _verified(refined, blocks, exact, atol)
    G = _coloured_row_graph(blocks, n, exact, atol)
    vf2 = _graph_automorphisms(
        G,
        labels,
        max_automorphisms=max_automorphisms,
        source=source,
        node_match=_match,
        edge_match=_ematch,
        complete_if_all=complete,
        points=[("c", j) for j in range(n)],
        max_search_steps=max_search_steps,
    )
    if vf2.order is None:  # both stopped: the generators of both (all verified), VF2's account of its bound
        vf2 = dataclasses.replace(
            vf2,
            generators=tuple(dict.fromkeys(refined.generators + vf2.generators)),
            note=(
                f"partition refinement stopped after {max_search_steps:,} steps with "
                f"{len(refined.generators):,} generators found (limit symmetry_steps); {vf2.note}"
            ),
        )
    return _verified(vf2, blocks, exact, atol)


def _finite_by_mechanisms(
    D: Any, mats: list[np.ndarray], labels: tuple[str, ...], exact: bool, atol: float, cap: int, budget: tuple[int, int]
) -> SymmetryGroup:
    """``method="mechanisms"``: column permutations mapping the *set* of mechanisms to itself (each mechanism's rows
    as one coloured block, equal mechanisms merged). A subgroup of the row cone's group (``complete=False``)."""
    distinct: dict[Any, tuple[np.ndarray, list[int]]] = {}
    for A in mats:
        rows, mult = distinct_rows(A)
        key = tuple(sorted(zip((tuple(r.tolist()) for r in rows), mult)))
        distinct.setdefault(key, (rows, mult))
    return _rows_group(list(distinct.values()), labels, exact, atol, cap, "mechanisms", False, *budget)


def _finite_by_rows(
    D: Any, mats: list[np.ndarray], labels: tuple[str, ...], exact: bool, atol: float, cap: int, budget: tuple[int, int]
) -> SymmetryGroup:
    """``method="rows"`` (default): column permutations mapping the set of normalised non-zero rows of all mechanisms
    to itself, i.e. the generators of the row cone; the whole group when one mechanism decides the closure."""
    allrows = np.vstack(mats)
    nonzero = [i for i in range(allrows.shape[0]) if any((v != 0) if exact else abs(v) > atol for v in allrows[i])]
    norm = normalise_rows(allrows[nonzero], exact=exact, atol=atol)
    rows, _ = distinct_rows(norm)
    decides = bool(getattr(D, "row_cone_decides_closure", False)) and len(D.mechanisms) == 1
    return _rows_group([(rows, [1] * len(rows))], labels, exact, atol, cap, "columns", decides, *budget)


#: The ``method=`` routes of :func:`finite_automorphisms`.
_FINITE_METHODS: dict[str, Callable[..., SymmetryGroup]] = {
    "rows": _finite_by_rows,
    "mechanisms": _finite_by_mechanisms,
}


def finite_automorphisms(
    D: Any,
    *,
    max_automorphisms: int | None = None,
    method: str = "rows",
    atol: float = ATOL,
    max_search_steps: int | None = None,
    max_search_graph: int | None = None,
    **options: Any,
) -> SymmetryGroup:
    """Column permutations of a finite definition's mechanisms (partition refinement, bounded VF2 search only when it
    stops at its budget; module doc).

    Examples
    --------
    Randomized response on 5 bits given only as a matrix: the hypercube group, ``2^5 · 5! = 3,840``.

    >>> from privgeom import FiniteDefinition, randomized_response
    >>> G = finite_automorphisms(FiniteDefinition([randomized_response(5, "3/4")]))
    >>> G.source, G.order, G.complete
    ('columns', 3840, True)
    """
    max_automorphisms = _check_cap(max_automorphisms)
    budget = (_check_budget(max_search_steps, "max_search_steps"), _check_budget(max_search_graph, "max_search_graph"))
    if method not in _FINITE_METHODS:
        raise InvalidParameterError(
            f"automorphisms of a finite definition: method must be 'rows' or 'mechanisms', got {method!r}"
        )
    labels = tuple(D.inputs)
    n = len(labels)
    total = sum(M.n_outputs for M in D.mechanisms) * (n + 2) + n
    if total > budget[1]:  # estimated from the sizes: nothing is built
        return _not_searched(labels, "columns" if method == "rows" else "mechanisms", total, budget[1])
    mats = [M.matrix if D.exact else M.float_matrix() for M in D.mechanisms]
    return _FINITE_METHODS[method](D, mats, labels, D.exact, atol, max_automorphisms, budget)


def _cone_carried(cone: Any, cap: int, budget: tuple[int, int]) -> SymmetryGroup:
    """``method="carried"`` (default): the group the cone carries (attribute ``symmetry``, set by the definition that
    built it), else the trivial group. No work."""
    carried = getattr(cone, "symmetry", None)
    if isinstance(carried, SymmetryGroup):
        return carried
    return SymmetryGroup.trivial(cone.labels, source="trivial (the cone carries no group)")


def _cone_facets(cone: Any, cap: int, budget: tuple[int, int]) -> SymmetryGroup:
    """``method="facets"``: the permutations of the coordinates mapping the canonical facets to themselves (bounded
    VF2 search on the coloured facet graph). Needs a full-dimensional pointed cone; the whole group of the cone."""
    if len(cone.equalities) or len(cone.lineality):
        raise InvalidParameterError(
            "automorphisms(cone, method='facets') needs a full-dimensional pointed cone "
            f"(this one has {len(cone.equalities)} equalities, {len(cone.lineality)} "
            "lineality directions)"
        )
    if cone.n_facets * (cone.ambient_dim + 2) > budget[1]:  # estimated before the facets are built
        return _not_searched(tuple(cone.labels), "facets", cone.n_facets * (cone.ambient_dim + 2), budget[1])
    F = np.asarray(cone.facets)
    return _rows_group([(F, [1] * len(F))], tuple(cone.labels), cone.exact, cone.atol, cap, "facets", True, *budget)


#: The ``method=`` routes of :func:`automorphisms` on a :class:`Cone`.
_CONE_METHODS: dict[str, Callable[[Any, int, tuple[int, int]], SymmetryGroup]] = {
    "carried": _cone_carried,
    "facets": _cone_facets,
}


def _cone_automorphisms(
    cone: Any,
    *,
    max_automorphisms: int | None = None,
    method: str = "carried",
    max_search_steps: int | None = None,
    max_search_graph: int | None = None,
    **options: Any,
) -> SymmetryGroup:
    max_automorphisms = _check_cap(max_automorphisms)
    budget = (_check_budget(max_search_steps, "max_search_steps"), _check_budget(max_search_graph, "max_search_graph"))
    if method not in _CONE_METHODS:
        raise InvalidParameterError(f"automorphisms of a Cone: method must be 'carried' or 'facets', got {method!r}")
    return _CONE_METHODS[method](cone, max_automorphisms, budget)


automorphisms.register(Cone, _cone_automorphisms)
