"""Extreme rays of ε-DP cones up to symmetry: one canonical pattern per orbit and its size, without listing the rays.

Notes
-----
**What is enumerated** (``docs/theory.md`` §7). For ``r = e^ε > 1`` the extreme rays of the ε-DP cone over a
connected graph ``G`` are ``r^u`` for the integer patterns ``u`` with ``|u_i − u_j| ≤ 1`` on every edge whose tight
edges (``|u_i − u_j| = 1``) span ``G``, modulo translation (:mod:`._dp_rays`). An automorphism ``π`` of the definition
(:func:`privgeom.automorphisms`: an automorphism of ``G``) permutes the coordinates, ``(π·u)[π(i)] = u[i]``; it maps
rays to rays and commutes with translation, so the group acts on the ray patterns.

**Canonical representatives by orderly generation** (Read 1978; McKay, "Isomorph-free exhaustive generation",
J. Algorithms 26, 1998, §2 and §4). Fix the breadth-first order of :func:`._dp_rays.dp_ray_patterns` as the order of
positions and compare patterns lexicographically in it. Because a permutation commutes with translation, comparing
``π·u`` with ``u`` does not depend on which translate of ``u`` is used, so each orbit has exactly one pattern ``u``
(taken with ``u = 0`` at the first position) with ``u ≤_lex π·u`` for every group element ``π``: the *lex-leader*.
The backtracking assigns positions in order; at a partial pattern, the positions ``t`` of ``π·u`` whose sources
``π^{-1}(0..t)`` are all assigned are known, and when such a known prefix of ``π·u`` is already lexicographically
smaller than ``u``'s, no completion is a lex-leader: the branch is pruned (every lex-leader survives, so nothing is
lost). Each group element is followed along the branch as *alive* (equal so far), *dead* (already larger: it can never
prune below) or *pruning*. At a complete pattern every position is known: it is kept when no element prunes, and
the alive elements are exactly its stabiliser, so its orbit has ``|G| / |Stab(u)|`` rays (orbit–stabiliser theorem).
The orbit sizes therefore add up to the number of rays, which the tests check against the full enumeration.

For the full symmetric group (the complete graph) the lex-leader of a pattern is its non-decreasing rearrangement
and the stabiliser of ``u`` is the product of the factorials of its value multiplicities; no group element is
listed. Otherwise the group elements are listed from the generators (closure, at most ``dp_ray_group`` of them;
the hypercube ``Q_5`` has ``2^5 · 5! = 3840``) and the comparisons run on all alive elements at once with numpy, in
exact integers.

Examples
--------
>>> from privgeom import DifferentialPrivacy
>>> orb = dp_ray_orbits(DifferentialPrivacy.hamming(3, exp_eps=3))
>>> orb.n_rays, sorted(orb.sizes)
(38, [2, 8, 8, 8, 12])
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from .._core.errors import InvalidInputError, InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.hints import limit_hint
from .._core.limits import current_limit, register_limit
from .._core.level import PrivacyLevel, ScalarLike
from .._core.arrays import readonly
from .._core.numbers import fraction_str, parse_scalar, scalar_to_json
from .._core.results import Result
from ..geometry._symmetry import SymmetryGroup, automorphisms, source_phrase
from . import _dp_rays
from ._dp import DifferentialPrivacy
from ._dp_rays import _connected_graph, _exact_rays, _positive_int, _tight_edges_span

__all__ = ["RayOrbits", "dp_ray_orbits", "MAX_RAY_ORBITS", "MAX_GROUP_ELEMENTS"]

#: Largest number of ray orbits :func:`dp_ray_orbits` lists before it refuses.
MAX_RAY_ORBITS = 20_000
#: Largest number of group elements :func:`dp_ray_orbits` lists from the generators (the symmetric group needs none).
MAX_GROUP_ELEMENTS = 100_000
register_limit(
    "dp_ray_orbits",
    globals(),
    "MAX_RAY_ORBITS",
    "most orbits of extreme rays of an eps-DP cone listed by representative (rowcone --rays, ray_orbits)",
)
register_limit(
    "dp_ray_group",
    globals(),
    "MAX_GROUP_ELEMENTS",
    "most symmetry-group elements listed to find the orbits of an eps-DP cone's extreme rays",
)


@dataclass(frozen=True)
class RayOrbits(Result):
    """The extreme rays of an ε-DP cone by orbit: one canonical exponent pattern per orbit and the orbit's size.

    Attributes
    ----------
    labels : tuple of str
        The datasets, in coordinate order.
    patterns : numpy.ndarray
        Read-only ``(orbits, N)`` int64 array: row ``j`` is the pattern ``u`` (``min u = 0``) of the representative
        ray ``e^{ε u}`` of orbit ``j`` (the lex-leader of its orbit, module Notes).
    sizes : tuple of int
        The number of extreme rays in each orbit (``|G| / |Stab(u)|``).
    group_source, group_order : str, int
        The symmetry group used (:func:`privgeom.automorphisms` of the definition).
    level : PrivacyLevel or None
        The privacy level of the definition (None when a bare graph was given); the rays' patterns do not depend on
        it, the rays themselves are ``e^{ε u}`` (:meth:`rays`).
    steps : int
        Search steps (values tried), the work done.
    """

    labels: tuple[str, ...]
    patterns: np.ndarray
    sizes: tuple[int, ...]
    group_source: str
    group_order: int
    level: PrivacyLevel | None
    steps: int
    exact: bool = True

    @property
    def n_rays(self) -> int:
        """The number of extreme rays: the sum of the orbit sizes."""
        return sum(self.sizes)

    @property
    def n_orbits(self) -> int:
        return len(self.sizes)

    def rays(self, exp_eps: ScalarLike | None = None) -> np.ndarray:
        """The representative rays ``p^u q^{max u − u}`` for ``e^ε = p/q`` (exact integers, ``object`` array).

        Examples
        --------
        >>> from privgeom import DifferentialPrivacy
        >>> dp_ray_orbits(DifferentialPrivacy.complete(3, exp_eps=3)).rays().tolist()
        [[1, 1, 3], [1, 3, 3]]
        """
        own = None if self.level is None else self.level.exp_eps
        given = own if exp_eps is None else parse_scalar(exp_eps, name="exp_eps")
        if given is None:
            raise InvalidParameterError("rays of orbits found from a bare graph need exp_eps")
        if not isinstance(given, Fraction):
            raise InvalidParameterError(f"exact rays need a rational exp_eps, got {given!r}")
        r = given
        if not r > 1:
            raise InvalidParameterError(f"rays need exp_eps > 1, got {fraction_str(r)}")
        return _exact_rays(self.patterns, r)

    def summary(self) -> str:
        return (
            f"{self.n_rays:,} extreme rays in {self.n_orbits:,} orbit{'s' if self.n_orbits != 1 else ''} of the "
            f"{self.group_source} group of order {self.group_order:,} ({self.steps:,} search steps)"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "n_rays": self.n_rays,
            "n_orbits": self.n_orbits,
            "orbits": [{"size": s, "pattern": p} for s, p in zip(self.sizes, self.patterns.tolist())],
            "group_source": self.group_source,
            "group_order": self.group_order,
            "exp_eps": None if self.level is None else scalar_to_json(self.level.exp_eps),
            "steps": self.steps,
            "exact": self.exact,
        }


# ------------------------------------------------------------------------------------------------ the group
def _group_elements(G: SymmetryGroup, max_elements: int) -> np.ndarray:
    """All elements of the group generated by ``G.generators`` as an ``(|G|, N)`` int64 array (closure by breadth-first
    search over products with the generators), refused beyond ``max_elements``."""
    n = G.n
    if G.order is not None and G.order > max_elements:
        raise SizeLimitError(
            f"the {source_phrase(G.source)} symmetry group has {G.order:,} elements, more than the limit of {max_elements:,} listed "
            f"to find ray orbits; refused before listing them — {limit_hint('dp_ray_group', G.order)}"
        )
    gens = [tuple(g) for g in G.generators]
    ident = tuple(range(n))
    seen = {ident}
    frontier = [ident]
    while frontier:
        nxt = []
        for a in frontier:
            for g in gens:
                b = tuple(g[i] for i in a)  # g ∘ a
                if b not in seen:
                    seen.add(b)
                    nxt.append(b)
                    if len(seen) > max_elements:
                        raise SizeLimitError(
                            f"the {source_phrase(G.source)} symmetry group has more than {max_elements:,} elements (the limit listed "
                            f"to find ray orbits); refused — {limit_hint('dp_ray_group', None)}"
                        )
        frontier = nxt
    return np.array(sorted(seen), dtype=np.int64).reshape(len(seen), n)


def _is_full_symmetric(G: SymmetryGroup) -> bool:
    n = G.n
    if n > 1 and G.order is not None and G.order == math.factorial(n):
        return True
    return G.source == "symmetric" and G.order is None and len(G.point_orbits()) == 1


def _check_group(I: np.ndarray, J: np.ndarray, G: SymmetryGroup) -> None:
    """Every generator must map edges to edges (an automorphism of the graph, hence of the ε-DP cone)."""
    edges = set(zip(np.minimum(I, J).tolist(), np.maximum(I, J).tolist()))
    for j, p in enumerate(G.generator_array):
        a, b = p[I], p[J]
        if set(zip(np.minimum(a, b).tolist(), np.maximum(a, b).tolist())) != edges:
            raise InvalidInputError(f"generator {j} of the {G.source} group does not map the neighbour graph to itself")


# ------------------------------------------------------------------------------------------------ the search
class _Found(NamedTuple):
    """What :func:`_search` found: the lex-leader patterns, their orbit sizes, the group order, the search steps."""

    patterns: list[list[int]]
    sizes: list[int]
    group_order: int
    steps: int


def _search(
    n: int, I: np.ndarray, J: np.ndarray, group: SymmetryGroup, *, max_orbits: int, max_steps: int, max_elements: int
) -> _Found:
    """Orderly generation (module Notes) on the graph of the index pairs ``(I[e], J[e])`` over ``range(n)``:
    lex-leader patterns (rows in dataset order), their orbit sizes, the group order and the number of search steps."""
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(zip(I.tolist(), J.tolist()))
    order = list(nx.bfs_tree(H, 0))
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(n)
    symmetric = _is_full_symmetric(group)
    earlier = [] if symmetric else [[int(pos[w]) for w in H.neighbors(v) if pos[w] < t] for t, v in enumerate(order)]
    edges = [(int(pos[a]), int(pos[b])) for a, b in H.edges]
    colour: list[int] | None = None
    if nx.is_bipartite(H):
        c = nx.bipartite.color(H)
        colour = [c[v] for v in order]
    if symmetric:
        order_g = math.factorial(n)
        Q = np.zeros((0, n), dtype=np.int64)
        C = Q
    else:
        P = _group_elements(group, max_elements)  # dataset i -> P[g, i]
        order_g = len(P)
        if group.order is not None and group.order != order_g:
            raise InvalidInputError(f"the generators give {order_g:,} elements, not the group order {group.order:,}")
        inv = np.empty_like(P)
        rows = np.arange(len(P))[:, None]
        inv[rows, P] = np.arange(n)[None, :]
        # (g·u)[position t] = u[position Q[g, t]]: the dataset at t comes from inv[g, order[t]]
        Q = pos[inv[:, order]]
        C = np.maximum.accumulate(Q, axis=1)  # position t of g·u is comparable once depth > C[g, t]
    u = np.zeros(n, dtype=np.int64)
    found: list[list[int]] = []
    sizes: list[int] = []
    steps = 0

    def record(stab: int) -> None:
        if symmetric:  # K_n: u in {c, c+1}; every c-dataset is adjacent to every (c+1)-dataset, so spanning iff both
            if int(u.max()) == int(u.min()):
                return
        elif colour is None and not _tight_edges_span(u, edges, n):
            return
        if len(found) >= max_orbits:
            raise SizeLimitError(
                f"the eps-DP cone has more than {max_orbits:,} orbits of extreme rays (the limit "
                f"dp_ray_orbits); "
                f"refused — {limit_hint('dp_ray_orbits', None, keyword='max_orbits')}"
            )
        lo = int(u.min())
        found.append([int(u[pos[i]]) - lo for i in range(n)])
        sizes.append(order_g // stab)

    def check(alive: np.ndarray, depth: int) -> np.ndarray | None:
        """The elements still equal on the known prefix, or None when one is already smaller (prune)."""
        if not len(alive):
            return alive
        known = C[alive] < depth  # (a, n): comparable positions
        D = np.where(known, u[Q[alive]] - u[None, :], 0)
        nz = D != 0
        first = np.argmax(nz, axis=1)
        has = nz[np.arange(len(alive)), first]
        sign = D[np.arange(len(alive)), first]
        if bool(np.any(has & (sign < 0))):
            return None
        return alive[~has]

    def rec(t: int, alive: np.ndarray) -> None:
        nonlocal steps
        if t == n:
            if symmetric:
                _, counts = np.unique(u, return_counts=True)
                stab = math.prod(math.factorial(int(c)) for c in counts)
            else:
                stab = len(alive)
            record(stab)
            return
        if symmetric:  # K_n, u non-decreasing: every earlier dataset is a neighbour, max u[t-1], min u[0]
            lo, hi = int(u[t - 1]), int(u[0]) + 1
        else:
            nb = earlier[t]
            lo = max(int(u[w]) for w in nb) - 1
            hi = min(int(u[w]) for w in nb) + 1
        for val in range(lo, hi + 1):
            if colour is not None and (val - colour[t] + colour[0]) % 2:
                continue
            steps += 1
            if steps > max_steps:
                raise SizeLimitError(
                    f"enumerating the eps-DP cone's ray orbits needs more than {max_steps:,} search "
                    f"steps (the limit dp_ray_steps); refused — "
                    f"{limit_hint('dp_ray_steps', None, keyword='max_steps')}"
                )
            u[t] = val
            nxt = alive if symmetric else check(alive, t + 1)
            if nxt is not None:
                rec(t + 1, nxt)
        u[t] = 0

    u[0] = 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), n + 500))  # one frame per dataset (Python frames, not C stack)
    alive0 = np.arange(len(Q), dtype=np.int64)
    first = alive0 if symmetric else check(alive0, 1)
    assert first is not None  # one position: every element is equal there
    rec(1, first)
    return _Found(found, sizes, order_g, steps)


def dp_ray_orbits(
    definition: DifferentialPrivacy | nx.Graph,
    *,
    group: SymmetryGroup | None = None,
    max_orbits: int | None = None,
    max_steps: int | None = None,
    max_elements: int | None = None,
) -> RayOrbits:
    """The extreme rays of an ε-DP cone (``e^ε > 1``) up to symmetry: one canonical pattern per orbit, its size.

    Orderly generation over the automorphism group (module Notes; McKay 1998; ``docs/theory.md`` §7): only
    lex-leader patterns are completed, so the work follows the number of orbits, not of rays. The orbit sizes come
    from the orbit–stabiliser theorem and add up to the number of extreme rays.

    Parameters
    ----------
    definition : DifferentialPrivacy or networkx.Graph
        An ε-DP definition with ``e^ε > 1`` over a connected neighbour graph, or the graph itself (its patterns do
        not depend on ``e^ε``).
    group : SymmetryGroup, optional
        Automorphisms to use (verified to map the graph to itself). Default: :func:`privgeom.automorphisms` of the
        definition (hypercube group for Hamming graphs, symmetric group for complete graphs, reversal for paths).
    max_orbits, max_steps, max_elements : int, optional
        Refuse (``SizeLimitError``) beyond this many orbits, search steps or listed group elements. Default: the
        global size limits ``dp_ray_orbits``, ``dp_ray_steps`` and ``dp_ray_group`` (:func:`privgeom.get_limits`).

    Returns
    -------
    RayOrbits

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy
    >>> orb = dp_ray_orbits(DifferentialPrivacy.complete(4, exp_eps=2))
    >>> orb.patterns.tolist(), orb.sizes, orb.n_rays        # 2^4 - 2 rays
    ([[0, 0, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1]], (4, 6, 4), 14)
    >>> dp_ray_orbits(DifferentialPrivacy.hamming(4, exp_eps=3)).n_rays
    990
    """
    if isinstance(definition, nx.Graph):
        G = _connected_graph(definition)
        definition = DifferentialPrivacy(G, exp_eps=2)
        level = None
    elif isinstance(definition, DifferentialPrivacy):
        level = definition.level
        if not level.exp_eps > 1:
            raise InvalidParameterError(
                f"ray orbits need exp_eps > 1 (at exp_eps = 1 the cone has one ray per component), got "
                f"{fraction_str(level.exp_eps)}"
            )
        _connected_graph(definition.graph)
    else:
        raise InvalidTypeError(
            f"dp_ray_orbits needs a DifferentialPrivacy definition or a networkx graph, got {type(definition).__name__}"
        )
    max_orbits = current_limit("dp_ray_orbits") if max_orbits is None else _positive_int(max_orbits, "max_orbits")
    max_steps = current_limit("dp_ray_steps") if max_steps is None else _positive_int(max_steps, "max_steps")
    max_elements = (
        current_limit("dp_ray_group") if max_elements is None else _positive_int(max_elements, "max_elements")
    )
    labels = tuple(definition.inputs)
    I, J = (np.asarray(a, dtype=np.int64) for a in definition.index_pairs)
    if group is None:
        group = automorphisms(definition)
    elif not isinstance(group, SymmetryGroup):
        raise InvalidTypeError(f"group must be a SymmetryGroup, got {type(group).__name__}")
    if group.n != len(labels):
        raise InvalidInputError(f"the group acts on {group.n} datasets, the definition has {len(labels)}")
    _check_group(I, J, group)
    g_order = group.order
    if g_order is not None:  # each orbit has at most |G| rays: refuse from the proven bound before searching
        bound = -(-_dp_rays.dp_ray_count_lower_bound(definition.graph) // g_order)
        if bound > max_orbits:
            raise SizeLimitError(
                f"the eps-DP cone over {len(labels):,} datasets has at least {bound:,} orbits of extreme rays under "
                f"the {group.source} group of order {g_order:,}, more than the limit dp_ray_orbits of {max_orbits:,}; "
                f"refused before searching — {limit_hint('dp_ray_orbits', bound, keyword='max_orbits')}"
            )
    found, sizes, order, steps = _search(
        len(labels), I, J, group, max_orbits=max_orbits, max_steps=max_steps, max_elements=max_elements
    )
    pats = np.array(found, dtype=np.int64).reshape(len(found), len(labels))
    return RayOrbits(
        labels=labels,
        patterns=readonly(pats),
        sizes=tuple(sizes),
        group_source=group.source,
        group_order=order,
        level=level,
        steps=steps,
    )
