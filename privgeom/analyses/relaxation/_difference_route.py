"""The difference-constraint route of :func:`~privgeom.analyses.relax` (pairs only; Lin & Kifer, Section V).

1. Pair bounds: the projection of the row cone onto a pair is an interval of ratios, read from the cone's closed
   form (randomized response: ``r^{ham(a,b)}``, factorised bit by bit; ε-DP: ``e^{d ε}``; simplicial catalogue
   definitions: their generators) or from its generators in one vectorised pass (:mod:`privgeom.geometry._projection`).
2. Recognition: the relaxed cone equals ε-DP over the graph ``G`` of the pairs bounded by the smallest ratio ``r`` in
   both directions iff every other bound ``c_ab ≥ r^{d_G(a, b)}`` (:mod:`._difference_system`); the path in ``G`` is the
   certificate that the pair is implied.
3. Lost guarantees: one LP per symmetry orbit of the original facets (:mod:`._lost`).

Nothing here runs double description; every size is checked before work. :func:`relax_by_differences` tries the
routes of ``_DIFFERENCE_ROUTES`` in order: ``"own-graph"`` (ε-DP onto its own edges: the definition itself, nothing
searched; ``docs/theory.md`` §7) and ``"difference"`` (steps 1–3 above, one named function per step).
"""

from __future__ import annotations

import math
from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable, Iterator, NamedTuple, Sequence, overload

import networkx as nx
import numpy as np

from ..._core.errors import InvalidInputError, InvalidParameterError, PrivgeomError, SizeLimitError
from ..._core.level import PrivacyLevel
from ..._core.arrays import readonly
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str, Scalar
from ..._core.limits import current_limit
from ..._core.results import to_jsonable
from ...geometry._cone import Cone
from ...geometry._structure import ConeStructure, DifferenceData, RowTest, check_rows_size

from ._difference_system import DifferenceSystem, ImpliedPair, ratio_le
from ._lost import FacetStatus, facet_status, ratio_status
from ._relax_results import PairBound, Relaxation, tight_pairs
from ..guarantees._semantics import Guarantee, guarantee_from_normal

__all__ = ["relax_by_differences", "pair_bounds_of"]

#: H-only cones up to this dimension get their rays by double description for the pair bounds (``"auto"`` route).
RAYS_FOR_BOUNDS_MAX_DIM = 16


def pair_bounds_of(cone: Cone, ia: np.ndarray, ib: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(sup x_a/x_b, sup x_b/x_a)`` for the pairs, without double description where the cone's structure or its
    generators give them; None when neither is available (or the cone is not inside the orthant)."""
    from ...geometry._projection import generator_pair_bounds

    st = cone.structure
    if st is not None and st.pair_bounds is not None:
        return st.pair_bounds(ia, ib)
    known_v = cone._v is not None or cone._ray_source is not None or (st is not None and st.rays is not None)
    if not known_v and cone.ambient_dim > RAYS_FOR_BOUNDS_MAX_DIM:
        return None
    try:
        rays, lin = cone.rays, cone.lineality
    except SizeLimitError:
        return None
    if len(lin) or not _float_safe_generators(rays, exact=cone.exact):
        return None
    return generator_pair_bounds(rays, ia, ib, exact=cone.exact)


#: Magnitudes of nonzero generator entries that the float pre-screen of the generator pair bounds handles: their
#: ratios stay normal floats (between 2^-1000 and 2^1000), so it never mistakes a tiny entry for a zero one.
_FLOAT_SAFE_RANGE = (Fraction(1, 2**500), Fraction(2**500))


def _float_safe_generators(rays: Any, *, exact: bool = True) -> bool:
    """Whether the rays are non-negative and, when exact, every nonzero entry lies within :data:`_FLOAT_SAFE_RANGE`:
    an exact test (exact rays may hold integers far beyond the float range, which a float cast would overflow or,
    for tiny ones, round to zero). Rays outside it leave the pair bounds to the cone route.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> _float_safe_generators([[F(1), F(3)], [F(2), 0]]), _float_safe_generators([[F(1), F(-1)]])
    (True, False)
    >>> _float_safe_generators([[10**400, 1]]), _float_safe_generators([[F(1, 10**400), 1]])
    (False, False)
    """
    if not exact:
        return not bool((np.asarray(rays, dtype=float) < 0).any())
    lo, hi = _FLOAT_SAFE_RANGE
    for x in np.asarray(rays, dtype=object).ravel():
        if x < 0 or (x != 0 and not lo <= abs(x) <= hi):
            return False
    return True


class _Lazy(Sequence[Any]):
    """A sequence whose items are built on access (``len`` is free)."""

    def __init__(self, n: int, build: Any) -> None:
        self._n, self._build = n, build

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if not -self._n <= i < self._n:
            raise IndexError(i)
        return self._build(i % self._n)

    def __iter__(self) -> Iterator[Any]:
        return (self._build(i) for i in range(self._n))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (tuple, list, _Lazy)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


@to_jsonable.register(_Lazy)
def _lazy_json(obj: _Lazy) -> Any:
    return [to_jsonable(v) for v in obj]


def _pair_cone(labels: tuple[str, str], fwd: Any, bwd: Any, exact: bool) -> Cone:
    """The 2-D projection ``{(x_a, x_b) ≥ 0 : x_a ≤ fwd x_b, x_b ≤ bwd x_a}``."""
    one: Any = Fraction(1) if exact else 1.0
    zero: Any = Fraction(0) if exact else 0.0
    rows = [[one, zero], [zero, one]]
    if fwd != math.inf:
        rows.append([-one, fwd])
    if bwd != math.inf:
        rows.append([bwd, -one])
    return Cone.from_facets(rows, exact=exact, labels=labels)


class _FacetSource(NamedTuple):
    """The original facets as the lost-guarantee check reads them: how many, the ``i``-th one, and their order
    (``"structure"``: the structure's order for a cone not built yet; ``"canonical"``: the built cone's)."""

    n: int
    facet: Callable[[int], Any]
    order: str


def _facet_source(cone: Cone) -> _FacetSource:
    """The structure's order for a cone not built yet, else canonical (:class:`_FacetSource`)."""
    st = cone.structure
    if cone._h is None and st is not None and st.facet is not None and st.n_facets is not None:
        from ...geometry._canonical import normalise_rows

        raw = st.facet

        def facet(i: int) -> Any:  # scaled like the canonical facets (primitive integers / unit max-abs entry)
            row = np.asarray(raw(i), dtype=object if cone.exact else float)
            nz = np.flatnonzero(row != 0)  # the scaling depends on the nonzero entries only (sparse facets stay cheap)
            out = row.copy()
            if len(nz):
                out[nz] = normalise_rows(row[nz].reshape(1, -1), exact=cone.exact, atol=cone.atol)[0]
            return out

        return _FacetSource(n=st.n_facets, facet=facet, order="structure")
    F = cone.facets
    return _FacetSource(n=len(F), facet=lambda i: F[i], order="canonical")


def _family_stabilizer(group: Any, ia: np.ndarray, ib: np.ndarray) -> Any:
    """The subgroup generated by the generators mapping the family of pairs to itself (vectorised: each generator
    is checked by sorting ``m`` encoded pairs, instead of building ``m`` frozensets)."""
    from ...geometry._symmetry import SymmetryGroup, stabiliser_source

    n = len(group.labels)
    lo, hi = np.minimum(ia, ib), np.maximum(ia, ib)
    ref = np.sort(lo * n + hi)
    kept = []
    for p, parr in zip(group.generators, group.generator_array):
        pa, pb = parr[ia], parr[ib]
        img = np.sort(np.minimum(pa, pb) * n + np.maximum(pa, pb))
        if np.array_equal(img, ref):
            kept.append(p)
    if len(kept) == len(group.generators):
        return group
    return SymmetryGroup(
        labels=group.labels,
        generators=tuple(kept),
        source=stabiliser_source(group.source, "a family"),
        order=None,
        complete=False,
    )


class _Orbits(NamedTuple):
    """Orbits of the original facets (``members``, one tuple of facet indices each), the description of the group
    used and the group itself (None when trivial or unknown)."""

    members: list[tuple[int, ...]]
    symmetry: str
    group: Any


def _orbits(original: Any, cone: Cone, source: _FacetSource, ia: np.ndarray, ib: np.ndarray) -> _Orbits:
    """Orbits of the original facets under the automorphisms that fix the family of pairs ``(ia, ib)``
    (singletons when none is known)."""
    from ...geometry._symmetry import automorphisms

    n_facets = source.n
    singletons: list[tuple[int, ...]] = [(i,) for i in range(n_facets)]
    try:
        group = automorphisms(original if not isinstance(original, Cone) else cone)
        group = _family_stabilizer(group, ia, ib)
    except (PrivgeomError, ValueError):
        return _Orbits(members=singletons, symmetry="none (no symmetry group could be found)", group=None)
    if group.is_trivial():
        return _Orbits(members=singletons, symmetry="trivial", group=None)
    st = cone.structure
    try:
        if source.order == "structure" and st is not None and callable(st.extra.get("facet_action")):
            orbits = group.orbits_of_items(n_facets, st.extra["facet_action"], vectorised=True)
        else:
            rows = np.array([source.facet(i) for i in range(n_facets)])
            orbits = group.orbits_of_rows(rows, atol=cone.atol)
    except (InvalidInputError, SizeLimitError):
        return _Orbits(
            members=singletons, symmetry="none (the facets are not closed under the group found)", group=None
        )
    symmetry = group.source + (f", order {group.order:,}" if group.order else "")
    return _Orbits(members=[o.members for o in orbits], symmetry=symmetry, group=group)


class _Recognised(NamedTuple):
    """The relaxed cone is ε-DP over ``graph`` with ratio ``exp_eps``; ``implied``: the other bounds, each with the
    path of ``graph`` that implies it."""

    exp_eps: Scalar
    graph: nx.Graph
    implied: list[ImpliedPair]


def _recognise(
    S: DifferenceSystem, ia: np.ndarray, ib: np.ndarray, fwd: np.ndarray, bwd: np.ndarray, labels: tuple[str, ...]
) -> _Recognised | None:
    """The ε-DP the relaxed cone is (module doc, step 2), else None."""
    exact = S.exact
    found = tight_pairs(fwd, bwd, exact=exact, atol=S.atol)
    if found is None:
        return None
    R: Any
    R, tmask = found
    G = nx.Graph(name="pairs")
    G.add_nodes_from(labels)
    G.add_edges_from((labels[int(a)], labels[int(b)]) for a, b in zip(ia[tmask], ib[tmask]))
    implied: list[ImpliedPair] = []
    paths: dict[str, dict[str, list[str]]] = {}
    for t in np.nonzero(~tmask)[0]:
        for a, b, c in ((ia[t], ib[t], fwd[t]), (ib[t], ia[t], bwd[t])):
            if c == math.inf:
                continue  # no bound: nothing to imply
            la, lb = labels[int(a)], labels[int(b)]
            if la not in paths:
                paths[la] = nx.single_source_shortest_path(G, la)
            path = paths[la].get(lb)
            if path is None:
                return None
            prod = R ** (len(path) - 1)
            if not ratio_le(prod, c, exact, steps=len(path), atol=S.atol):
                return None
            implied.append(ImpliedPair(pair=(la, lb), bound=c, path=tuple(path), path_bound=prod))
    return _Recognised(exp_eps=R, graph=G, implied=implied)


def _difference_cone(S: DifferenceSystem, keep: list[int], labels: tuple[str, ...]) -> Cone:
    """The relaxed cone from its irredundant bounds ``keep`` (no tight cycle): facets = those bounds plus
    ``x_v ≥ 0`` for the datasets no bound points to (module doc of :mod:`._difference_system`)."""
    n, exact = S.n, S.exact
    incoming = {int(S.b[t]) for t in keep}
    nonneg = tuple(v for v in range(n) if v not in incoming)
    A, B = S.a[keep], S.b[keep]
    C = tuple(S.c[t] for t in keep)

    def facets() -> np.ndarray:
        out = np.zeros((len(keep) + len(nonneg), n), dtype=object if exact else float)
        if exact:
            out[...] = Fraction(0)
        for r, (a, b, c) in enumerate(zip(A, B, C)):
            out[r, a], out[r, b] = -1, c
        for r, v in enumerate(nonneg):
            out[len(keep) + r, v] = 1
        return out

    sub = DifferenceSystem(labels, A, B, C, exact, S.atol)

    def contains(x: np.ndarray, ex: bool, atol: float) -> RowTest:
        xs = list(x)
        for i, v in enumerate(xs):
            if (v < 0) if ex else (float(v) < -atol):
                normal = np.zeros(n, dtype=object if exact else float)
                normal[i] = 1
                return RowTest(member=False, normal=normal, value=v)
        for a, b, c in zip(A, B, C):
            val = c * xs[b] - xs[a]
            if (val < 0) if ex else (float(val) < -atol * max(1.0, float(c))):
                normal = np.zeros(n, dtype=object if exact else float)
                normal[a], normal[b] = -1, c
                return RowTest(member=False, normal=normal, value=val)
        return RowTest(member=True)

    def pair_bounds(ia: Any, ib: Any) -> tuple[np.ndarray, np.ndarray]:
        f = np.empty(len(ia), dtype=object if exact else float)
        g = np.empty(len(ia), dtype=object if exact else float)
        for t, (a, b) in enumerate(zip(ia, ib)):
            f[t] = sub.path_product(int(a), int(b))[0]
            g[t] = sub.path_product(int(b), int(a))[0]
        return readonly(f), readonly(g)

    structure = ConeStructure(
        "difference",
        f"{len(keep)} ratio bounds x_a ≤ c x_b and {len(nonneg)} non-negativity facets",
        n_facets=len(keep) + len(nonneg),
        dim=n,
        pointed=True,
        facets=facets,
        contains=contains,
        pair_bounds=pair_bounds,
        difference=DifferenceData(A, B, C, nonneg),
    )
    return Cone.from_structure(structure, labels=labels, exact=exact)


class _NotApplicable(Exception):
    """A route of :func:`relax_by_differences` does not apply to this input (the message says why)."""


class _Pairs(NamedTuple):
    """The family of pairs by dataset index: ``family[t] = (labels[ia[t]], labels[ib[t]])``."""

    family: list[tuple[str, ...]]
    ia: np.ndarray
    ib: np.ndarray


def relax_by_differences(
    original: Any, cone: Cone, family: list[tuple[str, ...]], *, required: bool, lost: bool = True
) -> Relaxation | None:
    """The difference route (module doc), or None when it does not apply (and ``required`` is False).

    The routes of :data:`_DIFFERENCE_ROUTES` are tried in order; the first that applies answers.

    Raises
    ------
    InvalidParameterError
        ``required`` and the route does not apply (subsets that are not pairs, no pair bounds, a bound ``0``).
    """
    reason = "some subsets are not pairs"
    if all(len(sub) == 2 for sub in family):
        index = {s: i for i, s in enumerate(cone.labels)}
        pairs = _Pairs(
            family=family,
            ia=np.array([index[a] for a, _ in family], dtype=np.int64),
            ib=np.array([index[b] for _, b in family], dtype=np.int64),
        )
        for route in _DIFFERENCE_ROUTES.values():
            try:
                return route(original, cone, pairs, lost=lost)
            except _NotApplicable as why:
                reason = str(why)
    if required:
        raise InvalidParameterError(f"method='difference' does not apply: {reason}; use method='cone'")
    return None


# ------------------------------------------------------------------------------------------------ difference routes
def _route_own_graph(original: Any, cone: Cone, pairs: _Pairs, *, lost: bool = True) -> Relaxation:
    """ε-DP relaxed onto the pairs of its own graph: the definition itself, in time proportional to the edges.

    Needs: ``original`` ε-DP (its cone a difference structure) and the family exactly its edge set; raises
    :class:`_NotApplicable` otherwise. Cost: nothing but lazy sequences (no path search, no LP; ``lost`` is moot).

    The projection of ``DP_G = {x ≥ 0 : x_a ≤ r x_b on every edge}`` (``r = e^ε ≥ 1``) onto a pair is
    ``x_a ≤ P_ab x_b``, ``P_ab`` the smallest product of bounds along a path (:mod:`._difference_system`), here
    ``r^{d_G(a,b)}``; on an edge ``d_G = 1``, so each projection is the edge's own pair of bounds and their
    intersection is ``DP_G`` again. Every original facet is one of the kept bounds (its combination is the bound
    itself), so nothing is lost (``docs/theory.md`` §7, own graph).
    """
    from ...definitions import DifferentialPrivacy

    family, ia, ib = pairs
    if not isinstance(original, DifferentialPrivacy) or cone.structure is None or cone.structure.difference is None:
        raise _NotApplicable("not ε-DP onto its own graph")
    level = original.level
    R = level.exp_eps
    I, J = original.index_pairs
    n = cone.ambient_dim
    if len(I) != len(ia) or not R >= 1:
        raise _NotApplicable("not ε-DP onto its own graph")
    mine = np.sort(np.minimum(ia, ib) * n + np.maximum(ia, ib))
    theirs = np.sort(np.minimum(I, J) * n + np.maximum(I, J))
    if not np.array_equal(mine, theirs) or (len(mine) > 1 and bool((np.diff(mine) == 0).any())):
        raise _NotApplicable("not ε-DP onto its own graph")
    exact = cone.exact
    m = len(family)
    pair_bounds: Sequence[PairBound] = _Lazy(
        m, lambda t: PairBound(pair=(family[t][0], family[t][1]), forward=R, backward=R)
    )
    projections = _Lazy(m, lambda t: _pair_cone(family[t], R, R, exact))  # type: ignore[arg-type]
    text = (
        f"Projecting onto the {m} pair{'s' if m != 1 else ''} of its own graph and intersecting gives back exactly "
        f"ε-differential privacy on that graph with e^ε = {fraction_str(R)} (ε = {level.eps}): each pair's "
        f"projection is its own bound x_a ≤ e^ε x_b both ways (a shortest path of one edge), so all "
        f"{cone.n_facets} original guarantees are kept (none lost; no path search or LP needed)."
    )

    def graph() -> nx.Graph:  # read-only view of the definition's graph (no copy of E edges), built when read
        return nx.restricted_view(original._graph, (), ())

    return Relaxation(
        cone=cone,
        subsets=tuple(family),
        projections=projections,
        pair_bounds=pair_bounds,  # type: ignore[arg-type]
        recognised="dp",
        level=level,
        graph_source=graph,
        lost=(),
        kept=cone.n_facets,
        method="own-graph",
        text=text,
        route="difference",
        implied=(),
        statuses=(),
        symmetry="not needed (nothing is lost)",
        n_facets=cone.n_facets,
    )


def _route_difference(original: Any, cone: Cone, pairs: _Pairs, *, lost: bool = True) -> Relaxation:
    """Any family of pairs whose ratio bounds are known without double description (module doc, steps 1–3).

    Needs: :func:`pair_bounds_of` answers (a structure's closed form, or generators) and no bound is ``0``; raises
    :class:`_NotApplicable` naming what is missing. Cost: one pass over the pairs, shortest paths for recognition and
    implied bounds (size limit ``path_work``), one bounded path search or LP per symmetry orbit of the original
    facets (``lost_work``; skipped with ``lost=False``).
    """
    family, ia, ib = pairs
    bounds = pair_bounds_of(cone, ia, ib)
    if bounds is None:
        raise _NotApplicable("the pair bounds are not known without double description")
    fwd, bwd = bounds
    if any(v == 0 for v in fwd) or any(v == 0 for v in bwd):
        raise _NotApplicable("a coordinate vanishes on the whole cone (a ratio bound 0)")
    labels, exact = cone.labels, cone.exact
    S = DifferenceSystem.from_bounds(
        labels,
        [(int(a), int(b), c) for a, b, c in zip(ia, ib, fwd)] + [(int(b), int(a), c) for a, b, c in zip(ia, ib, bwd)],
        exact,
        atol=cone.atol,
    )
    relaxed = _relaxed_cone(S, ia, ib, fwd, bwd, labels)
    check = _lost_check(original, cone, S, ia, ib) if lost else None
    return Relaxation(
        cone=relaxed.cone,
        subsets=tuple(family),
        projections=_Lazy(len(family), lambda t: _pair_cone(family[t], fwd[t], bwd[t], exact)),  # type: ignore[arg-type]
        pair_bounds=tuple(PairBound(pair=(p[0], p[1]), forward=f, backward=b) for p, f, b in zip(family, fwd, bwd)),
        recognised="dp" if relaxed.level is not None else "",
        level=relaxed.level,
        graph_source=relaxed.graph,
        lost=() if check is None else check.lost,
        kept=0 if check is None else check.kept,
        method="difference",
        text=_difference_text(len(family), len(S.c), relaxed, check),
        route="difference",
        implied=None if relaxed.implied is None else tuple(relaxed.implied),
        statuses=() if check is None else tuple(check.statuses),
        symmetry="not used" if check is None else check.symmetry,
        n_facets=cone.n_facets if check is None else check.n_facets,
    )


#: The routes of :func:`relax_by_differences`, tried in this order (the first that applies answers); the keys are
#: the :attr:`Relaxation.method` each reports.
_DIFFERENCE_ROUTES: dict[str, Callable[..., Relaxation]] = {
    "own-graph": _route_own_graph,
    "difference": _route_difference,
}


# ------------------------------------------------------------------------------------------------ steps of the route
@dataclass(frozen=True)
class _RelaxedCone:
    """The relaxed cone of a difference system, with its level and graph when it is ε-DP (else None), the bounds
    implied by paths (None when not computed) and a note for the text."""

    cone: Cone
    level: PrivacyLevel | None
    graph: nx.Graph | None
    implied: list[ImpliedPair] | None
    note: str = ""


def _relaxed_cone(
    S: DifferenceSystem, ia: np.ndarray, ib: np.ndarray, fwd: np.ndarray, bwd: np.ndarray, labels: tuple[str, ...]
) -> _RelaxedCone:
    """Step 2 of the module doc: the ε-DP row cone when recognised; else the cone of the irredundant bounds
    (:func:`_difference_cone`), or of all the bounds through cdd when a cycle of bounds is tight (degenerate)."""
    exact = S.exact
    rec = _recognise(S, ia, ib, fwd, bwd, labels)
    if rec is not None:
        from ...definitions import DifferentialPrivacy

        dp = DifferentialPrivacy(rec.graph, exp_eps=rec.exp_eps, exact=None if exact else False)
        return _RelaxedCone(cone=dp.row_cone(), level=dp.level, graph=rec.graph, implied=rec.implied)
    implied: list[ImpliedPair] | None
    note = ""
    try:
        implied = S.implied_bounds()
        gone = {(p.pair[0], p.pair[1]) for p in implied}
        keep = [t for t in range(len(S.c)) if (labels[int(S.a[t])], labels[int(S.b[t])]) not in gone]
        tight = S.has_tight_cycle(keep)
    except SizeLimitError as err:
        implied, keep, tight, note = None, list(range(len(S.c))), True, f" (implied pairs not listed: {err})"
    if tight:
        check_rows_size(len(S.c) + S.n, S.n, exact=exact, what="the relaxed cone's inequalities")
        relaxed = Cone.from_facets(_rows(S, list(range(len(S.c))), S.n, exact), exact=exact, labels=labels)
    else:
        relaxed = _difference_cone(S, keep, labels)
    return _RelaxedCone(cone=relaxed, level=None, graph=None, implied=implied, note=note)


@dataclass(frozen=True)
class _LostCheck:
    """Step 3 of the module doc: one verified status per orbit of original facets, the lost guarantees (built when
    read), how many original facets are kept, the symmetry used and how many facets and orbits there are."""

    statuses: list[FacetStatus]
    lost: Sequence[Guarantee]
    kept: int
    symmetry: str
    n_facets: int
    n_orbits: int


def _lost_check(original: Any, cone: Cone, S: DifferenceSystem, ia: np.ndarray, ib: np.ndarray) -> _LostCheck:
    """Which original guarantees the relaxed system ``S`` no longer implies: one decision per symmetry orbit (a
    bounded path search when the original is itself a difference cone, else :func:`~._lost.facet_status`), every
    answer verified (witness point or non-negative combination).

    Raises
    ------
    SizeLimitError
        ``#orbits × work per orbit`` above the size limit ``lost_work`` (before the first search or LP).
    """
    labels, exact = cone.labels, cone.exact
    source = _facet_source(cone)
    orbits = _orbits(original, cone, source, ia, ib)
    # a difference cone's facets are ratio bounds and x_v >= 0, decided by one bounded path search each (no LP)
    # (a bounded search visits the datasets within ratio c of the bound's source: about the average degree of S)
    per_orbit = (
        len(S.c) // max(S.n, 1) + 1
        if cone.structure is not None and cone.structure.difference is not None
        else len(S.c) + S.n
    )
    work = len(orbits.members) * per_orbit
    if work > current_limit("lost_work"):  # the global limit lost_work, read at call time
        raise SizeLimitError(
            f"checking which of the {source.n:,} original guarantees are lost needs "
            f"{len(orbits.members):,} LPs over {len(S.c):,} bounds (work {work:,}, limit "
            f"{current_limit('lost_work'):,}); refused before solving — pass lost=False to skip it, "
            f"or {limit_hint('lost_work', work)}"
        )
    diff = cone.structure.difference if cone.structure is not None and source.order == "structure" else None
    statuses: list[FacetStatus] = []
    lost_idx: list[int] = []
    for members in orbits.members:
        rep = members[0]
        st = None
        if diff is not None:  # the original is a difference cone: its facets are ratio bounds and x_v >= 0
            if rep >= len(diff.a):
                st = FacetStatus(
                    index=rep, orbit=tuple(members), lost=False, witness=None, value=None, combination={}, exact=exact
                )
            else:
                st = ratio_status(
                    S, int(diff.a[rep]), int(diff.b[rep]), -1, diff.c[rep], index=rep, orbit=tuple(members)
                )
        if st is None:
            st = facet_status(
                S, list(source.facet(rep)), index=rep, orbit=members, what=f"original facet {rep}", group=orbits.group
            )
        statuses.append(st)
        if st.lost:
            lost_idx.extend(members)
    lost_idx.sort()
    lost_seq: Sequence[Guarantee] = _Lazy(
        len(lost_idx), lambda j: guarantee_from_normal(list(source.facet(lost_idx[j])), labels, exact=exact)
    )
    return _LostCheck(
        statuses=statuses,
        lost=lost_seq,
        kept=source.n - len(lost_idx),
        symmetry=orbits.symmetry,
        n_facets=source.n,
        n_orbits=len(orbits.members),
    )


def _difference_text(n_pairs: int, n_bounds: int, relaxed: _RelaxedCone, check: _LostCheck | None) -> str:
    """The one-paragraph description of a difference-route relaxation (``check`` None: lost guarantees not
    checked)."""
    orbit_text = ""
    if check is not None:
        n_lost_orbits = sum(1 for st in check.statuses if st.lost)
        if check.n_orbits < check.n_facets:
            orbit_text = (
                f" ({n_lost_orbits} orbit{'s' if n_lost_orbits != 1 else ''} of the symmetry group: "
                f"{check.symmetry}; one verified LP per orbit)"
            )
    lost_text = (
        "" if check is None else f"{len(check.lost)} of {check.n_facets} original guarantees are lost{orbit_text}"
    )
    if relaxed.level is not None:
        assert relaxed.graph is not None
        noun = "pair" if n_pairs == 1 else "pairs"
        n_edges = relaxed.graph.number_of_edges()
        on = (
            "their graph"
            if n_edges == n_pairs
            else f"the graph of the {n_edges} pairs bounded by e^ε (the others are implied)"
        )
        return (
            f"Projecting onto {n_pairs} {noun} and intersecting gives exactly ε-differential privacy on {on} "
            f"with e^ε = {fraction_str(relaxed.level.exp_eps)} (ε = {relaxed.level.eps}); "
            + (f"{lost_text}." if check is not None else "lost guarantees not checked.")
        )
    noun = "subset" if n_pairs == 1 else "subsets"
    n_imp = (
        ""
        if relaxed.implied is None
        else f"; {len(relaxed.implied)} of the {n_bounds} ratio bounds are implied by paths"
    )
    return (
        f"Projecting onto {n_pairs} {noun} gives a cone with {relaxed.cone.n_facets} facets{n_imp}; "
        + (f"{lost_text}; " if check is not None else "lost guarantees not checked; ")
        + "not recognised as ε-DP."
        + relaxed.note
    )


def _rows(S: DifferenceSystem, keep: list[int], n: int, exact: bool) -> np.ndarray:
    """The bounds ``keep`` as rows ``c e_b − e_a`` plus the orthant ``e_v`` (for cdd when the cone is degenerate)."""
    out = np.zeros((len(keep) + n, n), dtype=object if exact else float)
    if exact:
        out[...] = Fraction(0)
    for r, t in enumerate(keep):
        out[r, int(S.a[t])] = -1
        out[r, int(S.b[t])] = S.c[t]
    for v in range(n):
        out[len(keep) + v, v] = 1
    return out
