"""The scan machinery of the privacy profiles: relations resolved to column-index edges, sized and refused first.

:func:`~privgeom.analyses.epsilon`, :func:`~privgeom.analyses.delta` and :func:`~privgeom.analyses.delta_curve`
scan ``outputs × directed edges``. Here the relation is resolved (:func:`privgeom.neighbour_graph`; named relations
are sized from their :class:`~privgeom.Domain` and the complete relation is produced as index arrays, never as a
networkx graph), the cost :func:`profile_work` is checked against ``max_work`` before anything is computed, and
directed edges whose multisets of output pairs coincide are grouped into classes (one exact computation per class).
The kernels at the end scan the prepared edges: the largest log-ratio and its witness (ε), the largest hockey-stick
sum and its edge (δ(ε)), floats first and exact re-checks of the near-maximal candidates.

Examples
--------
>>> from privgeom import randomized_response
>>> P = _prepare(randomized_response(2, "3/4"), "hamming")
>>> P.n_edges, len(P.I), len(P.reps), P.graph
(4, 8, 1, 'hamming(2)')
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, Sequence

import numpy as np

from ..._core.domain import Domain, RelationLike, resolve_graph
from ..._core.errors import InvalidTypeError, SizeLimitError
from ..._core.limits import current_limit, register_limit
from ..._core.level import eps_of
from ..._core.columns import (
    fits_int64,
    hockey_stick_columns,
    hockey_stick_int,
    int_columns_log,
    int_columns_to_float,
    max_abs_int,
    widen,
)
from ..._core.hints import limit_hint
from ..._core.numbers import Scalar
from ...mechanisms._mechanism import Mechanism

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["MAX_PROFILE_WORK", "profile_work"]

#: Entries per block when scanning ``outputs x directed edges`` (bounds the memory of every scan).
_BLOCK = 1 << 18

#: Default largest cost of a profile scan, in units of :func:`profile_work` (``directed edges × (outputs + 32)``;
#: about 2 s of numpy work on one core). Raise it with ``max_work=`` (CLI: ``--max-work``).
MAX_PROFILE_WORK = 1 << 27
register_limit(
    "profile_work",
    globals(),
    "MAX_PROFILE_WORK",
    "default largest cost of a profile scan (directed edges × (outputs + 32)); max_work= raises it for one call",
    option="--max-work",
)

#: Per-edge Python overhead of grouping edges into classes, in the units of :func:`profile_work`.
_EDGE_OVERHEAD = 32


def _check_mechanism(mechanism: Any) -> Mechanism:
    if not isinstance(mechanism, Mechanism):
        raise InvalidTypeError(f"expected a privgeom Mechanism, got {type(mechanism).__name__}")
    return mechanism


def _blocks(n_rows: int, n_dir: int) -> Iterator[slice]:
    step = max(1, _BLOCK // max(1, n_rows))
    for start in range(0, n_dir, step):
        yield slice(start, min(n_dir, start + step))


@dataclass(frozen=True)
class _Prepared:
    """A mechanism and a validated graph, ready for scanning.

    ``I, J``: every directed edge as column indices, ordered by undirected edge ``i < j`` (sorted), ``(i, j)`` before
    ``(j, i)``. ``reps``: ascending indices into ``I, J``, one per *class* of directed edges whose multisets of
    output pairs ``{(M[ω, D], M[ω, D'])}`` are identical — ε, δ(ε) and the δ lines depend only on that multiset, so
    exact work is done once per class (for randomized response on the Hamming graph there is a single class), and
    the representative is the class's first edge, which keeps ties broken by edge order. ``ids``: the matrix as
    indices into ``values`` (its distinct entries); ``X`` the float matrix, ``Z`` its exact zero mask, ``L`` ``ln M``
    (0 where ``M`` is 0) computed from numerators and denominators so that tiny Fractions do not underflow. Exact
    integer route: ``ids`` the matrix as indices into the distinct values ``values[0] / values[1]`` (integers).
    """

    M: Mechanism
    exact: bool
    I: np.ndarray
    J: np.ndarray
    reps: np.ndarray
    graph: str
    n_edges: int
    X: np.ndarray
    Z: np.ndarray
    L: np.ndarray
    ids: np.ndarray | None = None
    values: tuple[np.ndarray, np.ndarray] | None = None

    def label(self, d: int) -> tuple[str, str]:
        """Labels ``(D, D')`` of directed edge ``d``."""
        return self.M.inputs[int(self.I[d])], self.M.inputs[int(self.J[d])]


#: Most class signatures (matrix entries) stored while grouping edges; past it, further edges are not grouped.
_CLASS_ENTRIES = 1 << 22


def _edge_classes(ids: np.ndarray, n_values: int, I: np.ndarray, J: np.ndarray) -> np.ndarray:
    n_out = ids.shape[0]
    seen: set[bytes] = set()
    reps: list[int] = []
    for sl in _blocks(n_out, len(I)):
        if len(seen) * n_out > _CLASS_ENTRIES:  # no memory for more signatures: every remaining edge is its own class
            reps.extend(range(sl.start, len(I)))
            break
        keys = ids[:, I[sl]].astype(np.int64) * n_values + ids[:, J[sl]]
        keys.sort(axis=0)
        cols = np.ascontiguousarray(keys.T)
        for e in _first_distinct_rows(cols):
            sig = cols[e].tobytes()
            if sig not in seen:
                seen.add(sig)
                reps.append(sl.start + e)
    return np.array(reps, dtype=np.intp)


#: Odd 64-bit multipliers hashing a signature row (any fixed values work: hashes are verified exactly).
_HASH_WEIGHTS = np.random.default_rng(20240601).integers(1, 2**62, size=4096, dtype=np.int64) | 1


def _first_distinct_rows(cols: np.ndarray) -> list[int]:
    """Indices (ascending) of the first occurrence of each distinct row of an int64 matrix.

    Rows are hashed to one int64 each (wrapping dot product), grouped by ``np.unique`` in 1-D, and every row is then
    compared exactly with its group's first row; a block with a hash collision falls back to the row-by-row loop.
    """
    n, width = cols.shape
    if n == 0:
        return []
    if width > len(_HASH_WEIGHTS):
        return _first_distinct_rows_loop(cols)
    with np.errstate(over="ignore"):
        h = (cols * _HASH_WEIGHTS[:width]).sum(axis=1)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    if not bool((cols == cols[first[inverse.ravel()]]).all()):
        return _first_distinct_rows_loop(cols)
    return np.sort(first).tolist()


def _first_distinct_rows_loop(cols: np.ndarray) -> list[int]:
    seen: set[bytes] = set()
    out = []
    for e in range(cols.shape[0]):
        sig = cols[e].tobytes()
        if sig not in seen:
            seen.add(sig)
            out.append(e)
    return out


def profile_work(n_outputs: int, n_edges: int) -> int:
    """Cost of scanning ``n_edges`` undirected edges of a mechanism with ``n_outputs`` outputs (both directions).

    Examples
    --------
    >>> profile_work(4, 4)
    288
    """
    return 2 * int(n_edges) * (int(n_outputs) + _EDGE_OVERHEAD)


def _check_work(M: Mechanism, n_edges: int, max_work: int | None, what: str) -> None:
    limit = current_limit("profile_work") if max_work is None else max_work
    work = profile_work(M.n_outputs, n_edges)
    if work > limit:
        raise SizeLimitError(
            f"{what} over {n_edges:,} edges ({M.n_inputs:,} inputs × {M.n_outputs:,} outputs) needs about {work:,} "
            f"units of work, more than the limit {limit:,}; refused before computing — "
            f"{limit_hint('profile_work', work, keyword='max_work')}"
        )


def _complete_on(G: nx.Graph, inputs: Sequence[str]) -> bool:
    """True when ``G`` is the complete graph on exactly the datasets (checked from sizes, without iterating edges)."""
    import networkx as nx  # loaded on first use (start-up time)

    N = len(inputs)
    return (
        G.number_of_nodes() == N
        and G.number_of_edges() == N * (N - 1) // 2
        and nx.number_of_selfloops(G) == 0
        and all(isinstance(v, str) for v in G.nodes)
        and set(G.nodes) == set(inputs)
    )


class _Pairs(NamedTuple):
    """A relation resolved on a mechanism's inputs (:func:`_resolve_pairs`)."""

    I: np.ndarray  #: first endpoints ``i`` of the undirected edges ``i < j`` (column indices, sorted)
    J: np.ndarray  #: second endpoints ``j``
    name: str  #: the graph's name
    complete: bool  #: the relation is complete (then ``I``, ``J`` may be empty: see ``complete_route``)


def _resolve_pairs(
    M: Mechanism, graph: RelationLike, max_work: int | None, what: str, *, complete_route: bool = False
) -> _Pairs:
    """Undirected edges ``i < j`` (sorted) of a relation on ``M``'s inputs, the graph's name and "is complete".

    Named relations (a string or a Domain) are sized from the domain first and refused before anything is built;
    the complete relation is produced as index arrays, never as a networkx graph. Everything else goes through
    :func:`privgeom.neighbour_graph`. With ``complete_route=True`` a complete relation is reported without its
    edges and without the work check (the caller does not scan edges).
    """
    dom = M.domain
    N = M.n_inputs
    none = np.empty(0, dtype=np.intp)
    name: str | None = None
    if isinstance(graph, str):
        name = dom.check_relation(graph)
    elif isinstance(graph, Domain):
        if set(graph.labels) != set(M.inputs):
            resolve_graph(graph, dom)  # raises the mismatch error
        dom = graph
        name = dom.check_relation(graph.default_relation)
    if name is not None:
        if name == "complete" and complete_route:
            return _Pairs(none, none, f"complete({N})", True)
        n_edges = dom.edge_bound(name)
        _check_work(M, n_edges, max_work, what)
        if name == "complete":
            iu, ju = np.triu_indices(N, 1)
            return _Pairs(iu.astype(np.intp), ju.astype(np.intp), f"complete({N})", True)
        G = dom.relation(name, max_edges=n_edges)
    else:
        nx_module = sys.modules.get("networkx")  # a networkx graph exists only once networkx is loaded
        if nx_module is not None and isinstance(graph, nx_module.Graph):
            if _complete_on(graph, M.inputs):
                gname = str(graph.name or f"complete({N})")
                if complete_route:
                    return _Pairs(none, none, gname, True)
                _check_work(M, graph.number_of_edges(), max_work, what)
                iu, ju = np.triu_indices(N, 1)
                return _Pairs(iu.astype(np.intp), ju.astype(np.intp), gname, True)
            _check_work(M, graph.number_of_edges(), max_work, what)
        G = resolve_graph(graph, dom)
        _check_work(M, G.number_of_edges(), max_work, what)
    from ...graphs._graphs import edge_index_pairs  # networkx: loaded on first use (start-up time)

    pairs = edge_index_pairs(G, M.inputs)
    I = np.array([i for i, j in pairs], dtype=np.intp)
    J = np.array([j for i, j in pairs], dtype=np.intp)
    return _Pairs(I, J, str(G.name or "graph"), len(pairs) == N * (N - 1) // 2 and N > 1)


class _MatrixViews(NamedTuple):
    """A mechanism's matrix as the scans read it (:func:`_matrix_views`)."""

    ids: np.ndarray  #: every entry as an index into the distinct values
    X: np.ndarray  #: the entries as floats
    Z: np.ndarray  #: exact zero mask
    L: np.ndarray  #: ``ln`` of the entries (0 where zero), from numerators and denominators in exact mode
    n_values: int  #: number of distinct values
    values: tuple[np.ndarray, np.ndarray] | None  #: exact integer route: the distinct values ``va / vb``


def _matrix_views(M: Mechanism) -> _MatrixViews:
    """Entries as indices into the distinct values, floats, zero mask, logs and (exact) the distinct values as
    integers ``(va, vb)`` (value ``va / vb``).

    Exact mode works on :attr:`~privgeom.Mechanism.int_columns`: every entry reduced to ``(a, b)`` coprime, the
    distinct pairs found by one ``np.unique`` on the key ``a · (max b + 1) + b`` when it fits in ``int64`` (a dict of
    pairs otherwise); no Fraction is built.
    """
    if M.exact:
        C = M.int_columns
        d0 = C.denominators[0]
        if bool((C.denominators == d0).all()):  # one common denominator: equal entries have equal numerators
            va, ids = _distinct_ints(C.numerators.ravel())
            vb = np.full(len(va), d0, dtype=C.denominators.dtype)
            return _views_from(ids.reshape(M.shape), va, vb)
        L = math.lcm(*(int(d) for d in set(C.denominators.tolist())))
        if C.numerators.dtype == object or not fits_int64(L, C.max_numerator() + 1):
            # one common denominator L for the whole matrix: equal entries have equal numerators
            scaled = widen(C.numerators)[0] * (L // widen(C.denominators)[0])
            va, ids = _distinct_ints(scaled.ravel())
            return _views_from(ids.reshape(M.shape), va, np.full(len(va), L, dtype=object))
        num, den = C.numerators, np.broadcast_to(C.denominators, C.shape)
        g = np.gcd(num, den)
        a, b = num // g, den // g
        if a.dtype != object and fits_int64(max_abs_int(a) + 1, max_abs_int(b) + 1):
            keys, inv = np.unique(a * (max_abs_int(b) + 1) + b, return_inverse=True)
            ids = inv.ravel()
            va, vb = keys // (max_abs_int(b) + 1), keys % (max_abs_int(b) + 1)
        else:
            index: dict[tuple[int, int], int] = {}
            ids = np.fromiter(
                (index.setdefault(k, len(index)) for k in zip(a.ravel().tolist(), b.ravel().tolist())),
                dtype=np.intp,
                count=a.size,
            )
            va = np.array([k[0] for k in index], dtype=object)
            vb = np.array([k[1] for k in index], dtype=object)
        return _views_from(ids.reshape(M.shape), va, vb)
    else:
        fv, inv = np.unique(M.matrix, return_inverse=True)
        ids = inv.ravel()
        zv = fv == 0
        lv = np.log(np.where(zv, 1.0, fv))
    ids = ids.reshape(M.shape)
    return _MatrixViews(ids, fv[ids], zv[ids], lv[ids], len(fv), None)


#: A prime below 2**62 (2**62 − 57): Python ints are grouped by their residues modulo it (Python's own ``hash`` is
#: a residue modulo the Mersenne prime 2**61 − 1, under which every power of two collides with a small number).
_HASH_PRIME = 2**62 - 57


def _distinct_ints(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct values, index of each value among them)`` of a 1-D integer array (int64 or Python ints).

    Python ints are grouped by their residues modulo a prime below ``2**62`` (one ``np.unique`` on int64) and every
    value is then compared exactly with its group's first value; a collision falls back to a dictionary.
    """
    if values.dtype != object:
        va, inv = np.unique(values, return_inverse=True)
        return va, inv.ravel()
    h = np.asarray(values % _HASH_PRIME).astype(np.int64)
    _, first, inv = np.unique(h, return_index=True, return_inverse=True)
    inv = inv.ravel()
    va = values[first]
    if bool((va[inv] == values).all()):
        return va, inv
    seen: dict[int, int] = {}
    ids = np.fromiter((seen.setdefault(v, len(seen)) for v in values.tolist()), dtype=np.intp, count=values.size)
    return np.array(list(seen), dtype=object), ids


def _views_from(ids: np.ndarray, va: np.ndarray, vb: np.ndarray) -> _MatrixViews:
    """The views of :func:`_matrix_views` from entry ids and the distinct values ``va / vb`` (integers)."""
    fv = int_columns_to_float(va[None, :], vb)[0] if len(va) else np.zeros(0)
    zv = np.asarray(va == 0, dtype=bool)
    lv = int_columns_log(va[None, :], vb)[0] if len(va) else np.zeros(0)
    return _MatrixViews(ids, fv[ids], zv[ids], lv[ids], len(fv), (va, vb))


def _matrix_views_fraction(M: Mechanism) -> _MatrixViews:
    """:func:`_matrix_views` with Fraction objects (exact mode; no integer values): the reference route of
    ``method="fraction"``."""
    if not M.exact:
        return _matrix_views(M)
    index: dict[Any, int] = {}
    flat = M.matrix.ravel()
    ids = np.fromiter((index.setdefault(v, len(index)) for v in flat), dtype=np.intp, count=flat.size)
    values = list(index)
    fv = np.array([float(v) for v in values], dtype=float)
    zv = np.array([v == 0 for v in values], dtype=bool)
    lv = np.array([0.0 if v == 0 else math.log(v.numerator) - math.log(v.denominator) for v in values])
    ids = ids.reshape(M.shape)
    return _MatrixViews(ids, fv[ids], zv[ids], lv[ids], len(fv), None)


def _prepare(
    mechanism: Any,
    graph: RelationLike,
    *,
    max_work: int | None = None,
    what: str = "the scan",
    fraction: bool = False,
    pairs: _Pairs | None = None,
) -> _Prepared:
    """A mechanism and its relation ready for scanning: directed edges, matrix views and edge classes.

    ``pairs``: the relation already resolved by :func:`_resolve_pairs` with its edges listed (and its work
    checked), when the caller has it.
    """
    M = _check_mechanism(mechanism)
    if pairs is None:
        pairs = _resolve_pairs(M, graph, max_work, what)
    pi, pj = pairs.I, pairs.J
    I = np.empty(2 * len(pi), dtype=np.intp)
    J = np.empty(2 * len(pi), dtype=np.intp)
    I[0::2], I[1::2] = pi, pj
    J[0::2], J[1::2] = pj, pi
    V = _matrix_views_fraction(M) if fraction else _matrix_views(M)
    reps = _edge_classes(V.ids, V.n_values, I, J)
    return _Prepared(
        M=M,
        exact=M.exact,
        I=I,
        J=J,
        reps=reps,
        graph=pairs.name,
        n_edges=len(pi),
        X=V.X,
        Z=V.Z,
        L=V.L,
        ids=V.ids,
        values=V.values,
    )


# ---------------------------------------------------------------------------------------------------- kernels
#: Relative margin within which float log-ratios / hockey-stick sums are re-checked exactly (float errors are
#: below 1e-15 relative; the margin is generous so that no exact maximum is missed).
_EXACT_RECHECK = 1e-9
#: Absolute margin (times ``1 + e^ε``) within which float hockey-stick sums are recomputed exactly.
_DELTA_RECHECK = 1e-10


def _scan_max(P: _Prepared) -> tuple[float, tuple[int, int] | None]:
    """Pass 1 of the scan: ``(float maximum of the log-ratios, None)``, or ``(-inf, (r, w))`` for the first class
    ``r`` and output ``w`` with ``M[w, D] > 0 = M[w, D']`` (ε infinite)."""
    Z, L = P.Z, P.L
    I, J = P.I[P.reps], P.J[P.reps]
    best = -math.inf
    for sl in _blocks(P.M.n_outputs, len(I)):
        Pi, Pj = ~Z[:, I[sl]], ~Z[:, J[sl]]
        inf_mask = Pi & ~Pj
        if inf_mask.any():
            r_loc, w = np.argwhere(inf_mask.T)[0]
            return -math.inf, (sl.start + int(r_loc), int(w))
        both = Pi & Pj
        if both.any():
            D = np.where(both, L[:, I[sl]] - L[:, J[sl]], -math.inf)
            best = max(best, float(D.max()))
    return best, None


def _scan_witness(P: _Prepared, best: float, fraction: bool) -> tuple[int, int]:
    """Pass 2 of the scan: the witness ``(class r, output w)`` of the largest ratio.

    Float mode: the first argmax. Exact mode: every candidate within a safe margin of the float maximum, compared
    exactly — by cross-multiplying the integer columns, or with Fraction objects when ``fraction``.
    """
    M, Z, L = P.M, P.Z, P.L
    I, J = P.I[P.reps], P.J[P.reps]
    if P.exact:
        finite = np.abs(L[~Z])
        tol = _EXACT_RECHECK * (1.0 + (float(finite.max()) if finite.size else 0.0))
    else:
        tol = 0.0
    win: tuple[int, int] | None = None
    win_ratio: Fraction | None = None
    for sl in _blocks(M.n_outputs, len(I)):
        both = ~Z[:, I[sl]] & ~Z[:, J[sl]]
        D = np.where(both, L[:, I[sl]] - L[:, J[sl]], -math.inf)
        cand = np.argwhere(D.T >= best - tol)
        if not P.exact:
            if cand.size:
                r_loc, w = cand[0]
                return sl.start + int(r_loc), int(w)
            continue
        if fraction:
            for r_loc, w in cand:
                r = sl.start + int(r_loc)
                ratio = M.matrix[w, I[r]] / M.matrix[w, J[r]]
                if win_ratio is None or ratio > win_ratio:
                    win, win_ratio = (r, int(w)), ratio
            continue
        # integers: M[w, i] / M[w, j] = (num[w, i] den[j]) / (num[w, j] den[i]); compare by cross-multiplication
        C = M.int_columns
        rr = sl.start + cand[:, 0]
        ww = cand[:, 1]
        tops = (C.numerators[ww, I[rr]].astype(object) * C.denominators[J[rr]].astype(object)).tolist()
        bots = (C.numerators[ww, J[rr]].astype(object) * C.denominators[I[rr]].astype(object)).tolist()
        for r, w, a, b in zip(rr.tolist(), ww.tolist(), tops, bots):
            if win_ratio is None or a * win_ratio.denominator > win_ratio.numerator * b:
                win, win_ratio = (r, w), Fraction(a, b)
    assert win is not None  # a column pair always has an output with ratio >= 1 (columns sum to 1)
    return win


def _entry_reader(M: Mechanism, fraction: bool) -> Callable[[Any, Any], Any]:
    """``entry(w, i)``: one matrix entry as a Fraction (exact; from the integers unless ``fraction``) or a float."""
    if not M.exact:
        return lambda w, i: float(M.matrix[int(w), int(i)])
    if fraction:
        return lambda w, i: M.matrix[int(w), int(i)]
    C = M.int_columns
    return lambda w, i: C.entry(int(w), int(i))


def _delta_scan(P: _Prepared, t: Scalar, fraction: bool = False) -> tuple[Scalar, int]:
    """``(max δ, argmax directed edge)``; exact when the mechanism is exact and ``t`` a Fraction.

    Floats first (vectorised, one edge per class); in exact mode only the classes whose float δ is within a safe
    margin of the float maximum are recomputed exactly (float errors are below ``1e-15 (1 + t)`` per edge), on
    integers by :func:`~privgeom._core.columns.hockey_stick_int` (with Fraction objects when ``fraction``).
    """
    exact = P.exact and isinstance(t, Fraction)
    tf = float(t)
    I, J = P.I[P.reps], P.J[P.reps]
    sums = np.empty(len(I))
    for sl in _blocks(P.M.n_outputs, len(I)):
        sums[sl] = hockey_stick_columns(P.X[:, I[sl]], P.X[:, J[sl]], tf)
    if not exact:
        r = int(np.argmax(sums))
        return float(sums[r]), int(P.reps[r])
    best: Fraction | None = None
    arg = 0
    cands = np.flatnonzero(sums >= sums.max() - _DELTA_RECHECK * (1.0 + tf))
    if fraction:
        values = [hockey_stick_columns(P.M.matrix[:, [I[c]]], P.M.matrix[:, [J[c]]], t)[0] for c in cands.tolist()]
    else:
        assert isinstance(t, Fraction)
        exact_sums, common = _delta_exact(P, I[cands], J[cands], t)
        top = max(exact_sums)
        c = int(cands[exact_sums.index(top)])  # the first maximum, as the loop below would choose
        return Fraction(top, common), int(P.reps[c])
    for c, value in zip(cands.tolist(), values):
        if best is None or value > best:
            best, arg = value, c
    assert best is not None
    return best, int(P.reps[arg])


def _delta_exact(P: _Prepared, I: np.ndarray, J: np.ndarray, t: Fraction) -> tuple[list[int], int]:
    """Exact ``Σ_ω (M[ω, I[c]] − t M[ω, J[c]])₊`` for every ``c``, on integers, by distinct pairs of entries.

    Log-space floats first drop the terms that are surely not positive (``M[ω, I] = 0``, or ``ln M[ω, I] −
    ln M[ω, J] < ln t`` by more than the float error); every remaining term is a pair of distinct matrix values, and
    each distinct pair is evaluated once by :func:`~privgeom._core.columns.hockey_stick_int`. The column sums are
    ``counts @ terms`` on integers over the terms' least common denominator. Falls back to the column kernel when
    the distinct values are not at hand. Returns ``(numerators, common denominator)`` of the sums.
    """
    if P.values is None or P.ids is None:
        C = P.M.int_columns
        num, den = C.numerators, C.denominators
        vals = hockey_stick_int(num[:, I], den[I], num[:, J], den[J], t.numerator, t.denominator)
        common = math.lcm(*(v.denominator for v in vals))
        return [v.numerator * (common // v.denominator) for v in vals], common
    va, vb = P.values
    nv = len(va)
    tol = _EXACT_RECHECK * (1.0 + (float(np.abs(P.L).max()) if P.L.size else 0.0))
    keep = ~P.Z[:, I] & (P.Z[:, J] | (P.L[:, I] - P.L[:, J] >= float(eps_of(t)) - tol))
    zero = ([0] * len(I), 1)
    if not keep.any():
        return zero
    cols, rows = np.nonzero(keep.T)
    key = P.ids[rows, I[cols]].astype(np.int64) * nv + P.ids[rows, J[cols]]
    ukeys, inv = np.unique(key, return_inverse=True)
    uA, uB = ukeys // nv, ukeys % nv
    terms = hockey_stick_int(va[uA][None, :], vb[uA], va[uB][None, :], vb[uB], t.numerator, t.denominator)
    pos = np.flatnonzero(np.array([v > 0 for v in terms], dtype=bool))
    if pos.size == 0:
        return zero
    slot = np.full(len(ukeys), -1, dtype=np.intp)
    slot[pos] = np.arange(pos.size)
    s = slot[inv.ravel()]
    hit = s >= 0
    counts = np.zeros((len(I), pos.size), dtype=np.int64)
    np.add.at(counts, (cols[hit], s[hit]), 1)
    Lt = math.lcm(*(terms[u].denominator for u in pos.tolist()))
    nums = np.array([terms[u].numerator * (Lt // terms[u].denominator) for u in pos.tolist()], dtype=object)
    sums = counts.astype(object).dot(nums)
    return [int(v) for v in sums], Lt
