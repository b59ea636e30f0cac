"""Groups of dataset permutations: :class:`SymmetryGroup` (stored by generators), its :class:`Orbit` objects, and the
groups known in closed form (hypercube, symmetric group, :func:`known_group`).

A group acts on the datasets, and through their coordinates on rows: the image of a row ``a`` under ``p`` is ``b``
with ``b[p[i]] = a[i]``. Orbits are found by union–find over the generators (connected components of the graph
``item — image of item``), never by enumerating the group. The searches that find the group of a privacy definition
are in :mod:`privgeom.geometry._symmetry`.

Examples
--------
>>> G = SymmetryGroup(labels=("a", "b", "c", "d"), generators=tuple(map(tuple, hypercube_generators(2).tolist())),
...                   source="hypercube", order=8, complete=True)
>>> [o.members for o in G.point_orbits()], source_phrase(G.source)
([(0, 1, 2, 3)], 'hypercube')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .._core.errors import InvalidInputError, InvalidParameterError, SizeLimitError
from .._core.limits import register_limit
from .._core.arrays import ATOL, readonly, tolerance
from .._core.hints import limit_hint
from .._core.limits import current_limit
from .._core.results import Result
from ._canonical import normalise_rows

__all__ = [
    "SymmetryGroup",
    "Orbit",
    "source_phrase",
    "stabiliser_source",
    "hypercube_generators",
    "symmetric_generators",
    "known_group",
    "MAX_PERMUTATION_ENTRIES",
]

#: Largest ``(number of generators) × (number of datasets)`` a group may store (Python ints in tuples).
MAX_PERMUTATION_ENTRIES = 2**21
register_limit(
    "permutation_entries", globals(), "MAX_PERMUTATION_ENTRIES", "largest generators x datasets a symmetry group stores"
)
#: Largest group order computed as an exact factorial (symmetric groups); beyond it ``order`` is None.
_MAX_FACTORIAL = 4096
#: Floor of the float grid on which rows are compared (a zero ``atol`` would divide by zero).
_MIN_GRID = 1e-300


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
    scaled = np.round(np.asarray(rows, dtype=float) / max(atol, _MIN_GRID)) + 0.0
    _, inverse = np.unique(scaled, return_inverse=True)
    return inverse.reshape(rows.shape).astype(np.int64)


#: How a group's source reads before "group" (the other sources read as adjectives already).
_SOURCE_PHRASES = {
    "columns": "column-permutation",
    "mechanisms": "mechanism-permutation",
    "facets": "facet-permutation",
    "components": "component-permutation",
}


def source_phrase(source: str) -> str:
    """A group's ``source`` as it reads before the word "group": ``"facets"`` → ``"facet-permutation"``.

    Examples
    --------
    >>> source_phrase("facets"), source_phrase("columns (not searched)"), source_phrase("hypercube")
    ('facet-permutation', 'column-permutation (not searched)', 'hypercube')
    """
    for word, phrase in _SOURCE_PHRASES.items():
        if source == word or source.startswith(word + " "):
            return phrase + source[len(word) :]
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
        if len(gens) * n > current_limit("permutation_entries"):
            raise SizeLimitError(
                f"a symmetry group with {len(gens)} generators on {n:,} datasets ({len(gens) * n:,} entries) exceeds "
                f"the limit of {current_limit('permutation_entries'):,}; refused before building it — "
                f"{limit_hint('permutation_entries', len(gens) * n)}"
            )
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
    def trivial(
        cls, labels: Sequence[str], *, complete: bool = False, source: str = "trivial", note: str = ""
    ) -> SymmetryGroup:
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

    def orbits_of_rows(self, rows: Any, *, atol: float | None = None) -> tuple[Orbit, ...]:
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
        keys = _row_keys(A, tolerance(atol))
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
                        f"generator {j} maps row {i} outside the given rows: the rows are not closed under the group"
                    )
                dst[i] = t
            maps.append(dst)
        return _components(len(A), maps)

    def preserves_rows(self, rows: Any, *, atol: float | None = None) -> bool:
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
        return SymmetryGroup(
            labels=self.labels,
            generators=kept,
            source=stabiliser_source(self.source, "a family"),
            order=1 if not kept else None,
            complete=False,
            note=self.note,
        )

    def summary(self) -> str:
        order = f"order {self.order:,}" if self.order is not None else "order unknown"
        g = len(self.generators)
        full = "the full automorphism group" if self.complete else "a subgroup of the automorphisms"
        note = f"; {self.note}" if self.note else ""
        return (
            f"{source_phrase(self.source)} symmetry group on {self.n} datasets: {g} generator{'s' if g != 1 else ''}, {order} "
            f"({full}), {len(self.point_orbits())} orbit(s) of datasets{note}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "generators": [list(p) for p in self.generators],
            "source": self.source,
            "order": self.order,
            "complete": self.complete,
            "note": self.note,
        }


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
    if n_gens * n > current_limit("permutation_entries"):
        raise SizeLimitError(
            f"{what}: {n_gens} generators on {n:,} datasets ({n_gens * n:,} entries) exceed the limit of "
            f"{current_limit('permutation_entries'):,}; refused before building them — "
            f"{limit_hint('permutation_entries', n_gens * n)}"
        )


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


def known_group(
    labels: Sequence[str],
    generators: Sequence[Sequence[int]],
    source: str,
    order: int | None,
    complete: bool,
    rows: Any,
    *,
    exact: bool,
    atol: float = ATOL,
) -> SymmetryGroup:
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
    group = SymmetryGroup(
        labels=tuple(labels),
        generators=tuple(tuple(int(v) for v in g) for g in generators),
        source=source,
        order=order,
        complete=complete,
    )
    A = np.asarray(rows)
    if group.preserves_rows(A, atol=atol):  # the rows themselves map to rows: no normalisation needed
        return group
    nonzero = [i for i in range(A.shape[0]) if any((v != 0) if exact else abs(v) > atol for v in A[i])]
    norm = normalise_rows(A[nonzero], exact=exact, atol=atol)
    if not group.preserves_rows(norm, atol=atol):
        raise InvalidInputError(
            f"the known {source} group does not preserve the rows it was claimed for; please report"
        )
    return group


def _group_from_elements(
    labels: Sequence[str],
    elements: list[tuple[int, ...]],
    source: str,
    capped: bool,
    complete_if_all: bool,
    note: str = "",
) -> SymmetryGroup:
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
        return SymmetryGroup(
            labels=tuple(labels), generators=tuple(gens), source=source, order=None, complete=False, note=note
        )
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
    return SymmetryGroup(
        labels=tuple(labels),
        generators=tuple(gens),
        source=source,
        order=len(elements),
        complete=complete_if_all,
        note=note,
    )
