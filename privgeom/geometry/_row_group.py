"""The coordinate permutations that map a finite set of rows to itself, found by partition refinement.

The symmetry group of a cone given only by its generators (a user's mechanism, a hull, a ``cone:file=``): the
permutations ``p`` of the coordinates whose action on rows (``b[p[i]] = a[i]``, the convention of
:class:`~privgeom.geometry._groups.SymmetryGroup`) maps the set of rows onto itself. It maps the cone to itself, so it
permutes the facets and the extreme rays; :mod:`privgeom.geometry._orbit_enum` enumerates them by orbit.

Method: *individualisation–refinement* (McKay, "Practical graph isomorphism", Congressus Numerantium 30, 1981; McKay
& Piperno, "Practical graph isomorphism, II", J. Symbolic Comput. 60, 2014) on the bipartite graph rows × coordinates
whose edges carry the entries as colours, with a stabiliser chain of *generators*, never the group's elements:

1. **refinement** — the colour of a coordinate becomes (its colour, the multiset of (row colour, entry) over its
   column), the colour of a row (its colour, the multiset of (coordinate colour, entry) over the row), until no cell
   splits (1-dimensional Weisfeiler–Leman). New colours are ranks of the sorted signatures, so two colourings
   related by a permutation refine to colourings related by it, with the same sequence of signatures (the *trace*);
2. **search** — to find an automorphism that maps ``b`` to ``y`` and fixes the base points chosen so far, individualise
   ``b`` on one side and ``y`` on the other, refine both, compare traces, and descend (first non-singleton cell:
   individualise its first point on the source side, try every point of the same cell on the target side) to a
   discrete colouring, the candidate permutation, which is checked exactly on the rows;
3. **stabiliser chain** — the base ``b_1, b_2, …`` is the first point of the first non-singleton cell at each level;
   the levels are then processed bottom up: at level ``i`` every generator found so far fixes ``b_1 … b_{i−1}``, and
   for every ``y`` of ``b_i``'s cell not already in the orbit of ``b_i`` under them, a search either finds an
   automorphism (a new generator) or proves there is none (the search is exhaustive). With ``G_i`` the pointwise
   stabiliser of ``b_1 … b_{i−1}``, the generators found at levels ``≥ i`` generate a subgroup of ``G_i`` that
   contains ``G_{i+1}`` (by induction) and has the orbit of ``b_i`` under ``G_i`` (every point of it was reached or
   searched), so it is ``G_i`` (orbit–stabiliser); the generators generate the whole group and
   ``|G| = ∏ |orbit of b_i under G_i|``.

The search is bounded by the registered limit ``symmetry_steps`` of the generic symmetry searches
(:mod:`privgeom.geometry._symmetry`), counted as :data:`ENTRIES_PER_STEP` matrix entries visited by the refinements
per step; past it the generators found so far are returned with ``complete=False`` and ``order=None`` —
every generator is still a verified automorphism, so orbits are only finer, never wrong.

Examples
--------
Randomized response on one bit and on two bits (its matrix scaled to integers):

>>> g = row_automorphisms(np.array([[3, 1], [1, 3]]))
>>> g.generators, g.order, g.complete
([(1, 0)], 2, True)
>>> from privgeom import randomized_response
>>> R = np.array(randomized_response(2, "3/4").matrix * 16, dtype=np.int64)
>>> row_automorphisms(R).order        # the hypercube group of the square: 2^2 · 2!
8
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.limits import current_limit
from ._groups import _row_keys

__all__ = [
    "RowGroup",
    "row_automorphisms",
    "ENTRIES_PER_STEP",
    "act_on_rows",
    "value_ids",
    "block_id_matrix",
    "maps_blocks",
    "distinct_rows",
]

#: The budget of one search, in matrix entries visited by the refinements (about 20–50 ns each), per work unit of
#: the generic symmetry search budget ``symmetry_steps`` (:data:`privgeom.geometry._symmetry.MAX_SEARCH_STEPS`, about
#: 0.2–0.4 µs each): one registered limit bounds every generic symmetry search, to about a second by default.
ENTRIES_PER_STEP = 16


@dataclass(frozen=True)
class RowGroup:
    """The coordinate permutations found to map a set of rows to itself.

    Attributes
    ----------
    generators : list of tuple of int
        Each a permutation ``p`` (coordinate ``i`` goes to ``p[i]``), an exactly checked automorphism.
    order : int or None
        ``∏`` of the base orbit sizes when the search finished, else None.
    complete : bool
        Whether the generators generate the whole group (the search finished within its budget).
    work : int
        Matrix entries the refinements visited.
    """

    generators: list[tuple[int, ...]]
    order: int | None
    complete: bool
    work: int

    @property
    def is_trivial(self) -> bool:
        """No generator (the group found is the identity alone)."""
        return not self.generators


class _Budget(Exception):
    """The work budget of a search is spent."""


def act_on_rows(p: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The images of ``rows`` under the coordinate permutation ``p``: ``out[:, p[i]] = rows[:, i]``.

    >>> act_on_rows(np.array([1, 2, 0]), np.array([[5, 6, 7]])).tolist()
    [[7, 5, 6]]
    """
    out = np.empty_like(rows)
    out[:, p] = rows
    return out


def _ranks(keys: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The rank of each row of the integer matrix ``keys`` among its distinct rows (in a fixed order of their bytes,
    a function of the values alone), a hash of the distinct rows in that order, and their number."""
    k = np.ascontiguousarray(keys, dtype=np.int64)
    flat = k.view(np.dtype((np.void, 8 * k.shape[1]))).ravel()
    uniq, inv = np.unique(flat, return_inverse=True)
    return inv.ravel().astype(np.int64), hash(uniq.tobytes()), len(uniq)


class _Search:
    """The state of one search: value ids of the rows, the work counter and its budget."""

    def __init__(self, rows: np.ndarray, budget: int) -> None:
        flat = rows.ravel()
        if rows.dtype == object:
            ids: dict[Any, int] = {}
            vid = np.fromiter((ids.setdefault(int(v), len(ids)) for v in flat), dtype=np.int64, count=flat.size)
        else:
            _, vid = np.unique(flat, return_inverse=True)
        self.vid = np.asarray(vid, dtype=np.int64).reshape(rows.shape)
        self.m, self.n = rows.shape
        self.V = int(self.vid.max()) + 1 if self.vid.size else 1
        self.rowset = np.unique(self.vid, axis=0)
        self.work = 0
        self.budget = budget

    def refine(self, cc: np.ndarray, rc: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
        """The coarsest equitable refinement of (coordinate colours ``cc``, row colours ``rc``) and its trace."""
        trace: list[int] = []
        n_c, n_r = -1, -1
        while True:
            self.work += 2 * self.m * self.n
            if self.work > self.budget:
                raise _Budget
            sig_c = np.sort(rc[:, None] * self.V + self.vid, axis=0).T
            cc, hc, n_c2 = _ranks(np.hstack([cc[:, None], sig_c]))
            sig_r = np.sort(cc[None, :] * self.V + self.vid, axis=1)
            rc, hr, n_r2 = _ranks(np.hstack([rc[:, None], sig_r]))
            trace += [hc, hr]
            if n_c2 == n_c and n_r2 == n_r:
                return cc, rc, tuple(trace)
            n_c, n_r = n_c2, n_r2

    @staticmethod
    def individualise(cc: np.ndarray, j: int) -> np.ndarray:
        """Coordinate ``j`` alone in a new cell just before its old cell."""
        out = 2 * cc + 1
        out[j] -= 1
        return out

    def is_automorphism(self, p: np.ndarray) -> bool:
        return bool(np.array_equal(np.unique(act_on_rows(p, self.vid), axis=0), self.rowset))

    def extend(self, src: tuple[np.ndarray, np.ndarray], dst: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
        """An automorphism mapping the refined colouring ``src`` onto ``dst`` (equal traces), or None (exhaustive)."""
        cs, rs = src
        ct, rt = dst
        counts = np.bincount(cs, minlength=self.n)
        big = np.flatnonzero(counts > 1)
        if not len(big):  # discrete: the permutation is determined by the colours
            p = np.empty(self.n, dtype=np.int64)
            p[np.argsort(cs)] = np.argsort(ct)
            return p if self.is_automorphism(p) else None
        cell = int(big[0])
        x = int(np.flatnonzero(cs == cell)[0])
        cs2, rs2, tr = self.refine(self.individualise(cs, x), rs)
        for y in np.flatnonzero(ct == cell).tolist():
            ct2, rt2, tr2 = self.refine(self.individualise(ct, y), rt)
            if tr2 == tr:
                found = self.extend((cs2, rs2), (ct2, rt2))
                if found is not None:
                    return found
        return None


def _orbit(start: int, gens: list[np.ndarray]) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        for g in gens:
            j = int(g[i])
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def row_automorphisms(rows: np.ndarray, *, max_work: int | None = None) -> RowGroup:
    """Generators of the group of coordinate permutations mapping the set of ``rows`` to itself (module doc).

    Parameters
    ----------
    rows : (m, n) integer array
        Distinct rows (``int64`` or Python ints); equal values are compared exactly.
    max_work : int, optional
        Budget in matrix entries visited (default: :data:`ENTRIES_PER_STEP` times the registered limit
        ``symmetry_steps``).

    Returns
    -------
    RowGroup
        Every generator checked exactly; ``complete`` and ``order`` when the search finished within its budget.
    """
    rows = np.asarray(rows)
    m, n = rows.shape
    budget = ENTRIES_PER_STEP * current_limit("symmetry_steps") if max_work is None else int(max_work)
    if m == 0 or n < 2:
        return RowGroup([], 1, True, 0)
    s = _Search(rows, budget)
    found: list[np.ndarray] = []
    order = 1
    try:
        # the base: individualise the first point of the first non-singleton cell until the colouring is discrete
        levels = []
        cc, rc, _ = s.refine(np.zeros(n, dtype=np.int64), np.zeros(m, dtype=np.int64))
        while True:
            big = np.flatnonzero(np.bincount(cc, minlength=n) > 1)
            if not len(big):
                break
            cell = np.flatnonzero(cc == int(big[0])).tolist()
            src = s.refine(s.individualise(cc, cell[0]), rc)
            levels.append((cc, rc, cell, src))
            cc, rc = src[0], src[1]
        # bottom up: every generator found so far fixes the base points above the current level
        for cc, rc, cell, src in reversed(levels):
            b = cell[0]
            orbit = _orbit(b, found)
            for y in cell[1:]:
                if y in orbit:
                    continue
                dst = s.refine(s.individualise(cc, y), rc)
                if dst[2] != src[2]:
                    continue
                p = s.extend(src[:2], dst[:2])
                if p is not None:
                    found.append(p)
                    orbit = _orbit(b, found)
            order *= len(orbit)
    except _Budget:
        return RowGroup([tuple(int(v) for v in g) for g in found], None, False, s.work)
    return RowGroup([tuple(int(v) for v in g) for g in found], order, True, s.work)


# ---------------------------------------------------------------- sets of blocks of rows (a finite definition's mechanisms)
#: A block: distinct rows (values) and the multiplicity of each.
Block = tuple[np.ndarray, list[int]]


def distinct_rows(rows: np.ndarray) -> Block:
    """The distinct rows of ``rows`` (first occurrences, in order) and the multiplicity of each.

    >>> distinct_rows(np.array([[1, 2], [3, 4], [1, 2]]))[1]
    [2, 1]
    """
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


def value_ids(blocks: list[np.ndarray], atol: float) -> list[np.ndarray]:
    """The rows of every block as ``int64`` value ids shared by all blocks (equal values get equal ids: exactly for
    exact rows, on the grid of ``atol`` for floats)."""
    keys = _row_keys(np.vstack(blocks), atol) if blocks else np.zeros((0, 0), dtype=np.int64)
    out, start = [], 0
    for b in blocks:
        out.append(keys[start : start + len(b)])
        start += len(b)
    return out


def block_id_matrix(blocks: list[Block], atol: float) -> np.ndarray:
    """One integer matrix whose row automorphisms, restricted to the first ``n`` coordinates, are the permutations
    of the ``n`` columns mapping the set of ``blocks`` (each a multiset of rows) onto itself.

    One block of simple rows is its value ids. Otherwise one coordinate per block is appended, holding on the
    block's rows a fresh id per multiplicity (ids ``> top``, ``top`` above every value id) and ``top`` elsewhere.
    A symmetry ``q`` of these rows maps the columns to the columns (only the appended coordinates hold ids
    ``≥ top``), and its restriction ``p`` maps block ``l``'s rows, with their multiplicities, onto the rows of the
    block ``q`` sends coordinate ``n + l`` to; conversely a ``p`` mapping the set of blocks onto itself extends by
    that permutation of the blocks. Two equal blocks are assumed merged, so the restriction is one to one and the
    orders agree.

    >>> block_id_matrix([(np.array([[1, 0], [0, 1]]), [1, 1])], 1e-9).tolist()
    [[0, 1], [1, 0]]
    >>> block_id_matrix([(np.array([[1, 0]]), [2]), (np.array([[0, 1]]), [1])], 1e-9).tolist()
    [[0, 1, 2, 3], [1, 0, 4, 2]]
    """
    ids = value_ids([b for b, _ in blocks], atol)
    if len(blocks) == 1 and all(m == 1 for m in blocks[0][1]):
        return np.unique(ids[0], axis=0) if len(ids[0]) else ids[0]
    top = max((int(v.max()) for v in ids if v.size), default=-1) + 1  # ids >= top never occur in the columns
    out = []
    for l, (vid, (_, mult)) in enumerate(zip(ids, blocks)):
        extra = np.full((len(vid), len(blocks)), top, dtype=np.int64)
        extra[:, l] = top + np.asarray(mult, dtype=np.int64)
        out.append(np.hstack([vid, extra]))
    return np.unique(np.vstack(out), axis=0)


def maps_blocks(perms: Any, blocks: list[Block], atol: float) -> bool:
    """Whether every column permutation of ``perms`` maps the set of ``blocks`` (multisets of rows, compared by value
    id) onto itself: an independent check of what :func:`block_id_matrix` encodes.

    >>> maps_blocks([(1, 0)], [(np.array([[1, 0]]), [1]), (np.array([[0, 1]]), [1])], 1e-9)
    True
    >>> maps_blocks([(1, 0)], [(np.array([[1, 0]]), [2]), (np.array([[0, 1]]), [1])], 1e-9)
    False
    """
    vids = value_ids([b for b, _ in blocks], atol)
    mults = [m for _, m in blocks]
    keys = {frozenset(zip(map(tuple, v.tolist()), m)) for v, m in zip(vids, mults)}
    for p in perms:
        image = {frozenset(zip(map(tuple, act_on_rows(np.asarray(p), v).tolist()), m)) for v, m in zip(vids, mults)}
        if image != keys:
            return False
    return True
