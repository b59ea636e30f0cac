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
  their known groups in :mod:`privgeom.definitions._catalogue` through :func:`known_group`, which verifies the
  generators on the rows before returning the group (proofs of completeness there).
* a finite definition: the column permutations that map the set of normalised rows of its mechanisms to itself
  (``method="rows"``, a subgroup of the row cone's group, equal to it when the rows are linearly independent, since
  then every row is an extreme ray), or the set of mechanisms to itself up to row order (``method="mechanisms"``).

Cost of the generic search. The graph search (networkx's VF2 on a coloured graph) enumerates group *elements*, so it
is bounded three ways, all deterministic: at most ``max_automorphisms`` elements, at most ``max_search_steps``
candidate-pair checks of VF2 (:data:`MAX_SEARCH_STEPS`, about a second), and no search at all on a coloured graph of
more than ``max_search_graph`` nodes + edges (:data:`MAX_SEARCH_GRAPH`, estimated from the sizes before anything is
built). A search stopped by a bound does not refuse: it returns the subgroup found so far (the trivial group when the
search was not started), with ``complete=False``, ``order=None`` and a :attr:`SymmetryGroup.note` saying which bound
stopped it — every element is still a verified automorphism, so orbits are only finer, never wrong.

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

import math
from dataclasses import dataclass, field
from functools import singledispatch
from typing import Any, Callable, Iterable, Sequence

import networkx as nx
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .._core.errors import InvalidInputError, InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.limits import register_limit
from .._core.numeric import ATOL, limit_hint, readonly
from .._core.results import Result
from ..graphs._graphs import standard_graph_spec
from ._canonical import normalise_rows
from ._cone import Cone

__all__ = ["SymmetryGroup", "Orbit", "automorphisms", "source_phrase", "hypercube_generators", "MAX_PERMUTATION_ENTRIES",
           "MAX_AUTOMORPHISMS", "MAX_SEARCH_STEPS", "MAX_SEARCH_GRAPH", "rr_automorphisms", "dp_automorphisms",
           "finite_automorphisms", "trivial_automorphisms", "known_group", "symmetric_generators"]

#: Largest ``(number of generators) × (number of datasets)`` a group may store (Python ints in tuples).
MAX_PERMUTATION_ENTRIES = 2**21
register_limit("permutation_entries", globals(), "MAX_PERMUTATION_ENTRIES",
               "largest generators x datasets a symmetry group stores")
#: Default cap on automorphisms enumerated by a graph search (``complete=False`` when reached).
MAX_AUTOMORPHISMS = 5000
#: Budget of one generic (VF2) search, in work units: each candidate-pair feasibility check counts ``64 + degree``
#: (a fixed cost plus the neighbours it visits; one unit is about 0.2–0.4 µs), so the default is about a second.
MAX_SEARCH_STEPS = 2_500_000
#: Largest coloured search graph (nodes + edges, estimated from the sizes before building it) of a generic search.
MAX_SEARCH_GRAPH = 100_000
register_limit("symmetry_elements", globals(), "MAX_AUTOMORPHISMS",
               "automorphisms a generic symmetry search enumerates (a budget: past it, a subgroup with a note)")
register_limit("symmetry_steps", globals(), "MAX_SEARCH_STEPS",
               "work units of one generic (VF2) symmetry search (a budget: past it, a subgroup with a note)")
register_limit("symmetry_graph", globals(), "MAX_SEARCH_GRAPH",
               "nodes + edges of a generic symmetry search graph (a budget: past it, not searched, with a note)")
#: Largest group order computed as an exact factorial (symmetric groups); beyond it ``order`` is None.
_MAX_FACTORIAL = 4096


# ------------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Orbit(Result):
    """One orbit of a group on rows or items: its smallest index as representative, all members, the size.

    Examples
    --------
    >>> Orbit(representative=2, members=(2, 5, 7), size=3).summary()
    'orbit of 3 items, representative 2'
    """

    representative: int
    members: tuple[int, ...]
    size: int

    def summary(self) -> str:
        return f"orbit of {self.size} item{'s' if self.size != 1 else ''}, representative {self.representative}"


def _components(n: int, arrays: Sequence[np.ndarray]) -> tuple[Orbit, ...]:
    """Orbits of ``n`` items under the maps ``i -> a[i]`` (union–find as graph connected components)."""
    if n == 0:
        return ()
    src = np.concatenate([np.arange(n, dtype=np.int64)] * max(1, len(arrays)))
    dst = np.concatenate([np.asarray(a, dtype=np.int64) for a in arrays]) if arrays else np.arange(n, dtype=np.int64)
    graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    _, comp = connected_components(graph, directed=True, connection="weak")
    order = np.argsort(comp, kind="stable")
    bounds = np.flatnonzero(np.diff(comp[order])) + 1
    groups = np.split(order, bounds)
    groups.sort(key=lambda g: int(g[0]))
    return tuple(Orbit(representative=m[0], members=tuple(m), size=len(m)) for m in (g.tolist() for g in groups))


def _row_keys(rows: np.ndarray, atol: float) -> np.ndarray:
    """Rows as int64 id arrays (equal values get equal ids), so that rows can be hashed by their bytes."""
    if rows.dtype == object:
        flat = rows.ravel()
        ids: dict[Any, int] = {}
        out = np.fromiter((ids.setdefault(v, len(ids)) for v in flat), dtype=np.int64, count=flat.size)
        return out.reshape(rows.shape)
    scaled = np.round(np.asarray(rows, dtype=float) / max(atol, 1e-300)) + 0.0
    _, inverse = np.unique(scaled, return_inverse=True)
    return inverse.reshape(rows.shape).astype(np.int64)


#: How a group's source reads before "group" (the other sources read as adjectives already).
_SOURCE_PHRASES = {"columns": "column-permutation", "mechanisms": "mechanism-permutation",
                   "facets": "facet-permutation", "components": "component-permutation"}


def source_phrase(source: str) -> str:
    """A group's ``source`` as it reads before the word "group": ``"facets"`` → ``"facet-permutation"``.

    Examples
    --------
    >>> source_phrase("facets"), source_phrase("columns (not searched)"), source_phrase("hypercube")
    ('facet-permutation', 'column-permutation (not searched)', 'hypercube')
    """
    for word, phrase in _SOURCE_PHRASES.items():
        if source == word or source.startswith(word + " "):
            return phrase + source[len(word):]
    return source


@dataclass(frozen=True)
class SymmetryGroup(Result):
    """A group of permutations of the datasets, given by generators (dataset ``i`` goes to dataset ``p[i]``).

    Attributes
    ----------
    labels : tuple of str
        The datasets, in coordinate order.
    generators : tuple of tuple of int
        Each a permutation ``p`` of ``range(N)``.
    source : str
        Where the group comes from: ``"hypercube"``, ``"symmetric"``, ``"reversal"``, ``"graph"``,
        ``"components"``, ``"columns"``, ``"facets"``, ``"trivial"``, ...
    order : int or None
        The order of the generated group when known (``2^k k!`` for the ``k``-cube).
    complete : bool
        True when the group is known to be the whole automorphism group of the row cone; False when it may be a
        proper subgroup (capped search, stabiliser, unknown structure).
    note : str
        Why the group may be incomplete when a search bound stopped it (empty otherwise); shown by :meth:`summary`.

    Notes
    -----
    The image of a row ``a`` under ``p`` is ``b`` with ``b[p[i]] = a[i]`` (coordinates move with their datasets).

    Examples
    --------
    >>> G = SymmetryGroup(labels=("a", "b", "c"), generators=((1, 0, 2),), source="example", order=2, complete=False)
    >>> [o.members for o in G.point_orbits()]
    [(0, 1), (2,)]
    >>> import numpy as np
    >>> [o.members for o in G.orbits_of_rows(np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]]))]
    [(0, 1), (2,)]
    """

    labels: tuple[str, ...]
    generators: tuple[tuple[int, ...], ...]
    source: str
    order: int | None
    complete: bool
    note: str = ""
    _array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.labels)
        gens = tuple(tuple(int(v) for v in p) for p in self.generators)
        if len(gens) * n > MAX_PERMUTATION_ENTRIES:
            raise SizeLimitError(
                f"a symmetry group with {len(gens)} generators on {n:,} datasets ({len(gens) * n:,} entries) exceeds "
                f"the limit of {MAX_PERMUTATION_ENTRIES:,}; refused before building it — "
                f"{limit_hint('permutation_entries', len(gens) * n)}")
        arr = np.array(gens, dtype=np.int64).reshape(len(gens), n)
        ref = np.arange(n, dtype=np.int64)
        for j, row in enumerate(arr):
            if not np.array_equal(np.sort(row), ref):
                raise InvalidInputError(f"generator {j} is not a permutation of range({n}): {list(gens[j][:12])}")
        object.__setattr__(self, "generators", gens)
        object.__setattr__(self, "labels", tuple(str(s) for s in self.labels))
        object.__setattr__(self, "_array", readonly(arr))

    # ---------------------------------------------------------------------------------------------- basics
    @classmethod
    def trivial(cls, labels: Sequence[str], *, complete: bool = False, source: str = "trivial",
                note: str = "") -> SymmetryGroup:
        """The group with no generators (every orbit a single element)."""
        return cls(tuple(labels), (), source, 1, complete, note)

    @property
    def n(self) -> int:
        """Number of datasets."""
        return len(self.labels)

    @property
    def generator_array(self) -> np.ndarray:
        """The generators as a read-only ``(g, N)`` int64 array."""
        return self._array

    def is_trivial(self) -> bool:
        """True when every generator is the identity."""
        return bool(np.all(self._array == np.arange(self.n)))

    def image_of_rows(self, p: Sequence[int] | np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Images ``b`` of the rows ``a`` under ``p``: ``b[:, p[i]] = a[:, i]``."""
        arr = np.asarray(rows)
        out = np.empty_like(arr)
        out[..., np.asarray(p, dtype=np.int64)] = arr
        return out

    # ---------------------------------------------------------------------------------------------- orbits
    def point_orbits(self) -> tuple[Orbit, ...]:
        """Orbits of the group on the datasets (indices into :attr:`labels`)."""
        return _components(self.n, list(self._array))

    def orbits_of_rows(self, rows: Any, *, atol: float = ATOL) -> tuple[Orbit, ...]:
        """Orbits on a set of canonical row vectors (facets, rays) that the group permutes among themselves.

        Rows are compared exactly (Fractions) or up to ``atol`` (floats); each must be normalised the same way
        (canonical cone rows are).

        Raises
        ------
        InvalidInputError
            When the image of a row under a generator is not one of the rows (the rows are not closed under the
            group, or not normalised alike).
        """
        A = np.asarray(rows)
        if A.ndim != 2 or A.shape[1] != self.n:
            raise InvalidInputError(f"orbits_of_rows needs rows of length {self.n}, got shape {A.shape}")
        keys = _row_keys(A, atol)
        index: dict[bytes, int] = {}
        for i, r in enumerate(keys):
            index.setdefault(r.tobytes(), i)
        maps = []
        for j, p in enumerate(self._array):
            img = self.image_of_rows(p, keys)
            dst = np.empty(len(A), dtype=np.int64)
            for i, r in enumerate(img):
                t = index.get(r.tobytes())
                if t is None:
                    raise InvalidInputError(
                        f"generator {j} maps row {i} outside the given rows: the rows are not closed under the group")
                dst[i] = t
            maps.append(dst)
        return _components(len(A), maps)

    def preserves_rows(self, rows: Any, *, atol: float = ATOL) -> bool:
        """True when every generator maps the set of rows onto itself (e.g. the facets of the row cone)."""
        try:
            self.orbits_of_rows(rows, atol=atol)
        except InvalidInputError:
            return False
        return True

    def orbits_of_items(self, n_items: int, act: Callable[..., Any], *, vectorised: bool = False) -> tuple[Orbit, ...]:
        """Orbits of implicitly indexed objects ``0..n_items−1`` (the facet of string ``s``, an ordered edge, …).

        ``act(p, item)`` returns the index of the image of ``item`` under the permutation ``p`` (a tuple). With
        ``vectorised=True``, ``act(p, items)`` receives ``p`` as an int64 array and all items as an array, and
        returns the array of images.

        Examples
        --------
        >>> G = SymmetryGroup(labels=("a", "b", "c"), generators=((1, 2, 0),), source="cycle", order=3, complete=True)
        >>> pairs = [(0, 1), (1, 2), (2, 0), (1, 0), (2, 1), (0, 2)]      # ordered pairs of datasets
        >>> act = lambda p, t: pairs.index((p[pairs[t][0]], p[pairs[t][1]]))
        >>> [o.members for o in G.orbits_of_items(6, act)]
        [(0, 1, 2), (3, 4, 5)]
        """
        n_items = int(n_items)
        if n_items < 0:
            raise InvalidParameterError(f"n_items must be >= 0, got {n_items}")
        maps = []
        items = np.arange(n_items, dtype=np.int64)
        for j, p in enumerate(self._array):
            if vectorised:
                dst = np.asarray(act(p, items), dtype=np.int64)
            else:
                tp = self.generators[j]
                dst = np.fromiter((act(tp, t) for t in range(n_items)), dtype=np.int64, count=n_items)
            if dst.shape != (n_items,) or (n_items and (dst.min() < 0 or dst.max() >= n_items)):
                raise InvalidInputError(f"act maps items of generator {j} outside range({n_items})")
            maps.append(dst)
        return _components(n_items, maps)

    # ---------------------------------------------------------------------------------------------- subgroups
    def stabilizer_of_family(self, family: Iterable[Iterable[str]]) -> SymmetryGroup:
        """The subgroup generated by the generators that map the family of subsets of datasets to itself.

        Sound (every element maps the family to itself) but possibly smaller than the true stabiliser; when every
        generator preserves the family it is the whole group (same order and ``complete`` flag).
        """
        where = {s: i for i, s in enumerate(self.labels)}
        fam: set[frozenset[int]] = set()
        for subset in family:
            members = [subset] if isinstance(subset, str) else list(subset)
            try:
                fam.add(frozenset(where[str(s)] for s in members))
            except KeyError as err:
                raise InvalidInputError(f"dataset {err.args[0]!r} of the family is not one of the datasets") from None
        kept = tuple(p for p in self.generators if {frozenset(p[i] for i in S) for S in fam} == fam)
        if len(kept) == len(self.generators):
            return self
        return SymmetryGroup(labels=self.labels, generators=kept, source=stabiliser_source(self.source, "a family"),
                             order=1 if not kept else None, complete=False, note=self.note)

    def summary(self) -> str:
        order = f"order {self.order:,}" if self.order is not None else "order unknown"
        g = len(self.generators)
        full = "the full automorphism group" if self.complete else "a subgroup of the automorphisms"
        note = f"; {self.note}" if self.note else ""
        return (f"{source_phrase(self.source)} symmetry group on {self.n} datasets: {g} generator{'s' if g != 1 else ''}, {order} "
                f"({full}), {len(self.point_orbits())} orbit(s) of datasets{note}")

    def to_dict(self) -> dict[str, Any]:
        return {"labels": list(self.labels), "generators": [list(p) for p in self.generators], "source": self.source,
                "order": self.order, "complete": self.complete, "note": self.note}


# ----------------------------------------------------------------------------------------------- constructions
def stabiliser_source(source: str, what: str) -> str:
    """The name of a stabiliser subgroup, read in sentences as "the … group" (``"stabiliser of a family in the
    hypercube"``: "the stabiliser of a family in the hypercube group of unknown order").

    Examples
    --------
    >>> stabiliser_source("hypercube", "a family")
    'stabiliser of a family in the hypercube'
    """
    return f"stabiliser of {what} in the {source}"


def hypercube_generators(k: int) -> np.ndarray:
    """Generators of the hyperoctahedral group on indices ``0..2^k−1`` (bit ``b`` of the index is one coordinate).

    ``k`` bit flips ``i -> i XOR 2^b`` and ``k−1`` adjacent transpositions of bits ``b, b+1``; together they generate
    all ``2^k k!`` isometries of the ``k``-cube. The same permutations act on the bit-string labels of
    :func:`~privgeom.randomized_response` (index ``i`` is the complement of the string's value, and flips and bit
    transpositions commute with complementing).

    Examples
    --------
    >>> hypercube_generators(2).tolist()
    [[1, 0, 3, 2], [2, 3, 0, 1], [0, 2, 1, 3]]
    """
    idx = np.arange(1 << k, dtype=np.int64)
    gens = [idx ^ (1 << b) for b in range(k)]
    for b in range(k - 1):
        lo, hi = (idx >> b) & 1, (idx >> (b + 1)) & 1
        gens.append((idx & ~np.int64((1 << b) | (1 << (b + 1)))) | (lo << (b + 1)) | (hi << b))
    return np.array(gens, dtype=np.int64).reshape(len(gens), 1 << k)


def _check_entries(n_gens: int, n: int, what: str) -> None:
    if n_gens * n > MAX_PERMUTATION_ENTRIES:
        raise SizeLimitError(
            f"{what}: {n_gens} generators on {n:,} datasets ({n_gens * n:,} entries) exceed the limit of "
            f"{MAX_PERMUTATION_ENTRIES:,}; refused before building them — {limit_hint('permutation_entries', n_gens * n)}")


def _factorial(n: int) -> int | None:
    return math.factorial(n) if n <= _MAX_FACTORIAL else None


def _symmetric_generators(members: Sequence[int], n: int) -> list[np.ndarray]:
    """A transposition and an m-cycle generating the symmetric group on ``members`` (fixing everything else)."""
    gens: list[np.ndarray] = []
    m = len(members)
    if m < 2:
        return gens
    t = np.arange(n, dtype=np.int64)
    t[members[0]], t[members[1]] = members[1], members[0]
    gens.append(t)
    if m > 2:
        c = np.arange(n, dtype=np.int64)
        c[list(members)] = list(members[1:]) + [members[0]]
        gens.append(c)
    return gens


def symmetric_generators(members: Sequence[int], n: int) -> list[tuple[int, ...]]:
    """Generators (a transposition and a cycle) of the symmetric group on ``members`` inside ``range(n)``.

    Examples
    --------
    >>> symmetric_generators([0, 1, 2], 4)
    [(1, 0, 2, 3), (1, 2, 0, 3)]
    """
    _check_entries(2, n, f"the symmetric group on {len(members):,} datasets")
    return [tuple(g.tolist()) for g in _symmetric_generators(list(members), n)]


def known_group(labels: Sequence[str], generators: Sequence[Sequence[int]], source: str, order: int | None,
                complete: bool, rows: Any, *, exact: bool, atol: float = ATOL) -> SymmetryGroup:
    """A group known in closed form, verified before it is returned: every generator must map the set of
    normalised nonzero ``rows`` (e.g. a mechanism's rows, which generate its row cone) onto itself.

    The verification proves that each generator is an automorphism (a permutation of generating rays maps the cone
    onto itself); the rows are first compared as given (cheap), then normalised. Completeness (``complete=True``) is the caller's theorem. Cost ``O(generators × rows × N)``.

    Raises
    ------
    InvalidInputError
        A generator that does not preserve the rows (a wrong closed form: please report).

    Examples
    --------
    >>> import numpy as np
    >>> known_group(("a", "b"), [(1, 0)], "swap", 2, True, np.array([[3, 1], [1, 3]]), exact=True).order
    2
    """
    group = SymmetryGroup(labels=tuple(labels), generators=tuple(tuple(int(v) for v in g) for g in generators),
                          source=source, order=order, complete=complete)
    A = np.asarray(rows)
    if group.preserves_rows(A, atol=atol):  # the rows themselves map to rows: no normalisation needed
        return group
    nonzero = [i for i in range(A.shape[0]) if any((v != 0) if exact else abs(v) > atol for v in A[i])]
    norm = normalise_rows(A[nonzero], exact=exact, atol=atol)
    if not group.preserves_rows(norm, atol=atol):
        raise InvalidInputError(f"the known {source} group does not preserve the rows it was claimed for; please report")
    return group


def _group_from_elements(labels: Sequence[str], elements: list[tuple[int, ...]], source: str, capped: bool,
                         complete_if_all: bool, note: str = "") -> SymmetryGroup:
    """Reduce an enumerated set of automorphisms to a generating set; order when not capped.

    A complete enumeration (not capped) is reduced greedily by closure (the closure never exceeds the group). A capped
    one keeps the elements that merge point orbits (union–find, at most ``N − 1`` generators): the point orbits are
    those of all the elements found, and no closure of a possibly huge group is attempted.
    """
    n = len(labels)
    ident = tuple(range(n))
    gens: list[tuple[int, ...]] = []
    if capped:
        parent = list(range(n))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for g in elements:
            merged = False
            for i, j in enumerate(g):
                a, b = find(i), find(j)
                if a != b:
                    parent[a] = b
                    merged = True
            if merged:
                gens.append(g)
        return SymmetryGroup(labels=tuple(labels), generators=tuple(gens), source=source, order=None, complete=False,
                             note=note)
    closure: set[tuple[int, ...]] = {ident}
    limit = max(len(elements), 1)
    for g in elements:
        if g in closure:
            continue
        gens.append(g)
        frontier = list(closure)
        while frontier and len(closure) <= limit:
            nxt = []
            for h in frontier:
                for s in gens:
                    c = tuple(s[h[i]] for i in range(n))
                    if c not in closure:
                        closure.add(c)
                        nxt.append(c)
            frontier = nxt
    return SymmetryGroup(labels=tuple(labels), generators=tuple(gens), source=source, order=len(elements),
                         complete=complete_if_all, note=note)


class _SearchBudget(Exception):
    """Raised inside VF2 when the step budget is spent."""


def _graph_automorphisms(graph: nx.Graph, labels: Sequence[str], *, max_automorphisms: int | None, source: str,
                         node_match: Callable[..., bool] | None = None,
                         edge_match: Callable[..., bool] | None = None,
                         complete_if_all: bool = True, points: Sequence[Any] | None = None,
                         max_search_steps: int | None = None) -> SymmetryGroup:
    """Automorphisms of a (coloured) graph restricted to the nodes ``points`` (default: the labels), capped by the
    number of elements and by ``max_search_steps`` VF2 candidate-pair checks (deterministic budget)."""
    from networkx.algorithms.isomorphism import GraphMatcher

    cap = _check_cap(max_automorphisms)
    budget = _check_budget(max_search_steps, "max_search_steps")

    class _Counting(GraphMatcher):  # type: ignore[misc]
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
                note = (f"generic search stopped at {cap:,} automorphisms (limit "
                        f"symmetry_elements): possibly a subgroup; "
                        f"{limit_hint('symmetry_elements', keyword='max_automorphisms')}")
                break
    except _SearchBudget:
        capped = True
        note = (f"generic search stopped after {budget:,} steps with {len(elements):,} automorphisms "
                f"found (limit symmetry_steps): possibly a subgroup; "
                f"{limit_hint('symmetry_steps', keyword='max_search_steps')}")
    return _group_from_elements(labels, elements, source, capped, complete_if_all, note)


def _not_searched(labels: Sequence[str], source: str, size: int, limit: int) -> SymmetryGroup:
    return SymmetryGroup.trivial(
        labels, source=f"{source} (not searched)",
        note=(f"symmetry not searched: {len(labels):,} datasets give a search graph of {size:,} nodes and edges, "
              f"more than the generic search limit symmetry_graph = {limit:,}; "
              f"{limit_hint('symmetry_graph', size, keyword='max_search_graph')}"))


#: The keyword of each search budget -> the module constant holding its registered limit (read at call time).
_BUDGETS = {"max_search_steps": "MAX_SEARCH_STEPS", "max_search_graph": "MAX_SEARCH_GRAPH"}


def _check_budget(value: int | None, name: str) -> int:
    """``value``, or the registered limit in force when it is None; a positive integer."""
    if value is None:
        return int(globals()[_BUDGETS[name]])
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidParameterError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _check_cap(max_automorphisms: int | None) -> int:
    """``max_automorphisms``, or the ``symmetry_elements`` limit in force when it is None."""
    if max_automorphisms is None:
        return MAX_AUTOMORPHISMS
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
def trivial_automorphisms(definition: Any, *, max_automorphisms: int | None = None,
                          **options: Any) -> SymmetryGroup:
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
    return SymmetryGroup(labels=labels, generators=tuple(map(tuple, gens.tolist())), source="hypercube",
                         order=(1 << k) * math.factorial(k), complete=True)


def _symmetric_group(labels: tuple[str, ...], what: str) -> SymmetryGroup:
    """The symmetric group on the datasets (two generators), refused above ``MAX_PERMUTATION_ENTRIES``."""
    n = len(labels)
    _check_entries(2, n, what)
    sym = _symmetric_generators(list(range(n)), n)
    return SymmetryGroup(labels=labels, generators=tuple(tuple(g.tolist()) for g in sym), source="symmetric",
                         order=_factorial(n), complete=True)


def _hamming_group(labels: tuple[str, ...], spec: str) -> SymmetryGroup:
    """The Hamming graph on ``k`` bits (whatever its labels' order): the hypercube group, order ``2^k k!`` (bit flips
    and bit permutations). ``O(2^k k)``."""
    n = len(labels)
    k = int(spec.split("=")[-1])
    _check_entries(2 * k - 1, n, f"the hypercube group of the Hamming graph on k = {k} bits")
    where = {s: i for i, s in enumerate(labels)}
    ref = [format((1 << k) - 1 - i, f"0{k}b") for i in range(1 << k)]   # index order of hypercube_generators
    perm_idx = np.array([where[s] for s in ref], dtype=np.int64)         # generator index -> our index
    gens = []
    for g in hypercube_generators(k):
        p = np.empty(n, dtype=np.int64)
        p[perm_idx] = perm_idx[g]
        gens.append(tuple(p.tolist()))
    return SymmetryGroup(labels=labels, generators=tuple(gens), source="hypercube", order=(1 << k) * math.factorial(k),
                         complete=True)


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


def dp_automorphisms(dp: Any, *, max_automorphisms: int | None = None,
                     max_search_steps: int | None = None, max_search_graph: int | None = None,
                     **options: Any) -> SymmetryGroup:
    """ε-DP over a graph: the graph's automorphisms (the row cone ``x_i ≤ e^ε x_j`` per edge maps to itself exactly
    under them); known in closed form for the graphs of :data:`_KNOWN_GRAPH_GROUPS`, else a bounded search; for
    ``e^ε = 1`` the component group."""
    max_automorphisms = _check_cap(max_automorphisms)
    max_search_steps = _check_budget(max_search_steps, "max_search_steps")
    max_search_graph = _check_budget(max_search_graph, "max_search_graph")
    labels = tuple(dp.inputs)
    if dp.exp_eps == 1:
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
    return _graph_automorphisms(dp.graph, labels, max_automorphisms=max_automorphisms, source="graph",
                                max_search_steps=max_search_steps)


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
    if k and k < 63 and n == 1 << k and m == k * (n >> 1) and all(len(s) == k and not set(s) - {"0", "1"} for s in labels):
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
    return SymmetryGroup(labels=labels, generators=tuple(tuple(g.tolist()) for g in gens), source="components",
                         order=order, complete=True)


def _value_ids(blocks: list[np.ndarray], exact: bool, atol: float) -> list[np.ndarray]:
    keys = _row_keys(np.vstack(blocks), atol) if blocks else np.zeros((0, 0), dtype=np.int64)
    out, start = [], 0
    for b in blocks:
        out.append(keys[start:start + len(b)])
        start += len(b)
    return out


def _coloured_row_graph(blocks: list[tuple[np.ndarray, list[int]]], n: int, exact: bool, atol: float) -> nx.Graph:
    """Columns ``("c", j)``, one node per block ``("m", l)``, one per distinct row ``("r", l, o)`` (with its
    multiplicity); row–column edges coloured by the entry value (zero entries: no edge)."""
    G = nx.Graph()
    G.add_nodes_from((("c", j) for j in range(n)), kind="c")
    ids = _value_ids([b for b, _ in blocks], exact, atol)
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


def _distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, list[int]]:
    seen: dict[tuple[Any, ...], int] = {}
    mult: list[int] = []
    keep: list[int] = []
    for i, r in enumerate(rows):
        key = tuple(r.tolist())
        if key in seen:
            mult[seen[key]] += 1
        else:
            seen[key] = len(keep)
            keep.append(i)
            mult.append(1)
    return rows[keep], mult


def _match(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(a.get("kind") == b.get("kind"))


def _ematch(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(a.get("v") == b.get("v"))


def _rows_group(blocks: list[tuple[np.ndarray, list[int]]], labels: tuple[str, ...], exact: bool, atol: float,
                max_automorphisms: int, source: str, complete: bool, max_search_steps: int | None = None,
                max_search_graph: int | None = None) -> SymmetryGroup:
    max_search_graph = _check_budget(max_search_graph, "max_search_graph")
    n = len(labels)
    size = n + sum(len(rows) * (n + 2) for rows, _ in blocks) + len(blocks)  # nodes + edges, an upper bound
    if size > max_search_graph:
        return _not_searched(labels, source, size, max_search_graph)
    G = _coloured_row_graph(blocks, n, exact, atol)
    return _graph_automorphisms(G, labels, max_automorphisms=max_automorphisms, source=source, node_match=_match,
                                edge_match=_ematch, complete_if_all=complete, points=[("c", j) for j in range(n)],
                                max_search_steps=max_search_steps)


def _finite_by_mechanisms(D: Any, mats: list[np.ndarray], labels: tuple[str, ...], exact: bool, atol: float,
                          cap: int, budget: tuple[int, int]) -> SymmetryGroup:
    """``method="mechanisms"``: column permutations mapping the *set* of mechanisms to itself (each mechanism's rows
    as one coloured block, equal mechanisms merged). A subgroup of the row cone's group (``complete=False``)."""
    distinct: dict[Any, tuple[np.ndarray, list[int]]] = {}
    for A in mats:
        rows, mult = _distinct_rows(A)
        key = tuple(sorted(zip((tuple(r.tolist()) for r in rows), mult)))
        distinct.setdefault(key, (rows, mult))
    return _rows_group(list(distinct.values()), labels, exact, atol, cap, "mechanisms", False, *budget)


def _finite_by_rows(D: Any, mats: list[np.ndarray], labels: tuple[str, ...], exact: bool, atol: float,
                    cap: int, budget: tuple[int, int]) -> SymmetryGroup:
    """``method="rows"`` (default): column permutations mapping the set of normalised non-zero rows of all mechanisms
    to itself, i.e. the generators of the row cone; the whole group when one mechanism decides the closure."""
    allrows = np.vstack(mats)
    nonzero = [i for i in range(allrows.shape[0]) if any((v != 0) if exact else abs(v) > atol for v in allrows[i])]
    norm = normalise_rows(allrows[nonzero], exact=exact, atol=atol)
    rows, _ = _distinct_rows(norm)
    decides = bool(getattr(D, "row_cone_decides_closure", False)) and len(D.mechanisms) == 1
    return _rows_group([(rows, [1] * len(rows))], labels, exact, atol, cap, "columns", decides, *budget)


#: The ``method=`` routes of :func:`finite_automorphisms`.
_FINITE_METHODS: dict[str, Callable[..., SymmetryGroup]] = {"rows": _finite_by_rows,
                                                             "mechanisms": _finite_by_mechanisms}


def finite_automorphisms(D: Any, *, max_automorphisms: int | None = None, method: str = "rows",
                          atol: float = ATOL, max_search_steps: int | None = None,
                          max_search_graph: int | None = None, **options: Any) -> SymmetryGroup:
    """Column permutations of a finite definition's mechanisms (generic, bounded VF2 search; module doc)."""
    max_automorphisms = _check_cap(max_automorphisms)
    budget = (_check_budget(max_search_steps, "max_search_steps"), _check_budget(max_search_graph, "max_search_graph"))
    if method not in _FINITE_METHODS:
        raise InvalidParameterError(f"automorphisms of a finite definition: method must be 'rows' or 'mechanisms', "
                                    f"got {method!r}")
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
        raise InvalidParameterError("automorphisms(cone, method='facets') needs a full-dimensional pointed cone "
                                    f"(this one has {len(cone.equalities)} equalities, {len(cone.lineality)} "
                                    "lineality directions)")
    if cone.n_facets * (cone.ambient_dim + 2) > budget[1]:  # estimated before the facets are built
        return _not_searched(tuple(cone.labels), "facets", cone.n_facets * (cone.ambient_dim + 2), budget[1])
    F = np.asarray(cone.facets)
    return _rows_group([(F, [1] * len(F))], tuple(cone.labels), cone.exact, cone.atol, cap, "facets", True, *budget)


#: The ``method=`` routes of :func:`automorphisms` on a :class:`Cone`.
_CONE_METHODS: dict[str, Callable[[Any, int, tuple[int, int]], SymmetryGroup]] = {"carried": _cone_carried,
                                                                                   "facets": _cone_facets}


def _cone_automorphisms(cone: Any, *, max_automorphisms: int | None = None, method: str = "carried",
                        max_search_steps: int | None = None, max_search_graph: int | None = None,
                        **options: Any) -> SymmetryGroup:
    max_automorphisms = _check_cap(max_automorphisms)
    budget = (_check_budget(max_search_steps, "max_search_steps"), _check_budget(max_search_graph, "max_search_graph"))
    if method not in _CONE_METHODS:
        raise InvalidParameterError(f"automorphisms of a Cone: method must be 'carried' or 'facets', got {method!r}")
    return _CONE_METHODS[method](cone, max_automorphisms, budget)


automorphisms.register(Cone, _cone_automorphisms)
