"""Extreme rays of ε-DP cones over any connected neighbour graph, without double description.

Notes
-----
**Extreme rays of ε-DP cones** (any connected graph ``G = (V, E)``, ratio ``r = e^ε > 1``). The cone is
``{x : x_i ≤ r x_j for every edge, both directions}`` (it forces ``x ≥ 0``). Let ``x`` be an extreme ray and ``H``
its graph of tight edges (``x_i = r^{±1} x_j``). On a connected component ``C`` of ``H`` the tight constraints have
``x|_C ≠ 0`` in their null space, so their rank is at most ``|C| − 1``; extremality needs rank ``|V| − 1``, hence
``H`` is connected and spanning, and ``x = c · r^{u}`` with ``u : V → Z``. Feasibility says ``|u_i − u_j| ≤ 1`` on
every edge; conversely every such integer ``u`` whose tight edges (``|u_i − u_j| = 1``) form a connected spanning
subgraph gives an extreme ray (a spanning tree of tight constraints has rank ``|V| − 1``). So the rays are these
integer patterns modulo translation; their number does not depend on ``r > 1``. Consequences:

* complete graph ``K_n``: ``u ∈ {c, c+1}`` with both values present, i.e. the vectors in ``{1, r}^n`` other than
  the two constant ones: ``2^n − 2`` rays (the staircase patterns of Kairouz, Oh & Viswanath);
* path with ``n`` edges (``n + 1`` datasets): every edge must be tight (a tree), ``u`` is a ±1 walk: ``2^n`` rays;
* bipartite graphs (hypercubes): parity forces every edge to be tight, so the rays are the graph homomorphisms to
  ``Z`` up to translation. Fixing ``u = 0`` on one side and ``u = ±1`` freely on the other gives
  ``2^{max side}`` distinct rays: the hypercube ``Q_k`` has at least ``2^{2^{k−1}}`` (exact counts 2, 6, 38, 990,
  395 094 for ``k = 1..5``, computed by :func:`hypercube_dp_ray_count`).

**Up to symmetry.** Cones too large to list are counted and listed by orbit of the graph's automorphisms, one
lex-leader pattern per orbit with its size, by orderly generation: :func:`privgeom.dp_ray_orbits`
(:mod:`._ray_orbits`, ``docs/theory.md`` §7; ``Q_5``: 434 orbits).

**Facets.** For ``r > 1`` and a connected simple graph each of the ``2|E|`` inequalities is a facet. The cone is
full-dimensional (the all-ones vector is interior), so it suffices that no inequality is implied by the others: for
the directed edge ``(i, j)`` let ``d'`` be the distance in ``G − ij`` (``∞`` off ``j``'s component) and
``u_v = min(d'(j, v), 3/2)``. A distance is 1-Lipschitz along the edges of ``G − ij`` and so is its minimum with a
constant, so ``x = r^u`` satisfies every other inequality; ``d'(j, i) ≥ 2`` (the graph is simple) gives ``u_i = 3/2``,
``u_j = 0``, so ``x_i = r^{3/2} x_j > r x_j``. Hence ``K_n`` has ``n(n−1)`` facets, the path with ``n`` edges ``2n``
and ``Q_k`` has ``k 2^k``.

Examples
--------
>>> from privgeom.graphs._graphs import complete_graph, path_graph
>>> len(dp_ray_patterns(complete_graph(4))), len(dp_ray_patterns(path_graph(3)))
(14, 8)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Sequence

import networkx as nx
import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.limits import register_limit
from .._core.hints import limit_hint
from .._core.numbers import fraction_str, parse_scalar
from .._core.limits import current_limit
from .._core.level import ScalarLike
from .._core.domain import RelationLike

__all__ = [
    "dp_ray_patterns",
    "dp_cone_rays",
    "dp_ray_count_lower_bound",
    "hypercube_dp_ray_count",
    "MAX_DP_RAYS",
    "MAX_ENUMERATION_STEPS",
]

#: Largest number of extreme rays :func:`dp_cone_rays` / :func:`dp_ray_patterns` will enumerate.
MAX_DP_RAYS = 50_000
#: Largest number of search steps (partial assignments) of the ray enumeration before it refuses.
MAX_ENUMERATION_STEPS = 5_000_000
register_limit(
    "dp_rays",
    globals(),
    "MAX_DP_RAYS",
    "most extreme rays of an eps-DP cone enumerated without double description (rowcone --rays, "
    "DifferentialPrivacy(...).row_cone().rays)",
)
register_limit(
    "dp_ray_steps",
    globals(),
    "MAX_ENUMERATION_STEPS",
    "most search steps (partial assignments) of the eps-DP ray enumeration",
)
#: Exact ray counts of the ε-DP cone on the hypercube ``Q_k`` (homomorphisms ``Q_k → Z`` up to translation).
_HYPERCUBE_RAYS = {1: 2, 2: 6, 3: 38, 4: 990, 5: 395_094}


# ------------------------------------------------------------------------------------------- rays of ε-DP cones
def _positive_int(k: Any, name: str) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an integer, got {k!r}")
    if int(k) < 1:
        raise InvalidParameterError(f"{name} must be >= 1, got {k}")
    return int(k)


def _connected_graph(graph: RelationLike) -> nx.Graph:
    if not isinstance(graph, nx.Graph):
        raise InvalidTypeError(f"expected a networkx graph, got {type(graph).__name__}")
    if graph.number_of_nodes() < 2:
        raise InvalidParameterError("an ε-DP cone with rays to enumerate needs at least 2 datasets")
    if not nx.is_connected(graph):
        raise InvalidParameterError(
            f"the neighbour graph {getattr(graph, 'name', '') or ''} is not connected; the ε-DP cone is then a product "
            "of the cones of its components (enumerate each component)"
        )
    return graph


def dp_ray_count_lower_bound(graph: nx.Graph) -> int:
    """A proven lower bound on the number of extreme rays of the ε-DP cone over a connected graph (``r > 1``).

    Any connected graph: the cone is pointed and full-dimensional in ``R^n`` (``1`` is interior), so it has at least
    ``n`` extreme rays. Bipartite graphs: also ``2^{max side}`` (``u = 0`` on one side, ``u = ±1`` freely on the
    other; module Notes).

    Examples
    --------
    >>> from privgeom.graphs._graphs import hamming_graph
    >>> dp_ray_count_lower_bound(hamming_graph(5)), dp_ray_count_lower_bound(hamming_graph(6))
    (65536, 4294967296)
    """
    G = _connected_graph(graph)
    n = G.number_of_nodes()
    if nx.is_bipartite(G):
        a, b = nx.bipartite.sets(G)
        return max(n, 2 ** max(len(a), len(b)))
    return n


def hypercube_dp_ray_count(k: int) -> int:
    """Exact number of extreme rays of the ε-DP cone on the hypercube ``Q_k`` (``e^ε > 1``), for ``k ≤ 5``.

    The rays are the homomorphisms ``u : Q_k → Z`` up to translation (module Notes). ``Q_k = Q_{k−1} □ K_2``, so a
    homomorphism is a pair ``(f, g)`` of homomorphisms of ``Q_{k−1}`` with ``|f − g| = 1`` pointwise; the count is the
    number of such pairs with ``f`` normalised, computed from the list for ``k − 1``. Values: 2, 6, 38, 990, 395 094.

    Raises
    ------
    SizeLimitError
        For ``k ≥ 6`` (at least ``2^{2^{k−1}}`` rays: beyond enumeration).

    Examples
    --------
    >>> [hypercube_dp_ray_count(k) for k in (1, 2, 3)]
    [2, 6, 38]
    """
    k = _positive_int(k, "k")
    if k > 5:
        raise SizeLimitError(
            f"the eps-DP cone on the hypercube Q_{k} has at least 2^(2^{k - 1}) = {2**2 ** (k - 1):.3e} extreme rays; "
            "privgeom counts them only for k <= 5"
        )
    if k in (1, 2, 3, 4):
        return len(_hypercube_homs(k))
    P = _hypercube_homs(k - 1)
    total = 0
    for c in range(-(k + 1), k + 2):
        D = (P[None, :, :] + c) - P[:, None, :]
        total += int(np.all(np.abs(D) == 1, axis=2).sum())
    return total


def _hypercube_homs(k: int) -> np.ndarray:
    """All homomorphisms ``Q_k → Z`` with ``u(1…1) = 0`` as integer rows (vertex order of ``np.kron``)."""
    homs = np.zeros((1, 1), dtype=np.int64)
    for level in range(1, k + 1):
        if len(homs) ** 2 > 5_000_000:
            raise SizeLimitError(f"listing the homomorphisms of Q_{level} is too large")
        rows = []
        for f in homs:
            for g in homs:
                for c in range(-level - 1, level + 2):
                    if np.all(np.abs(g + c - f) == 1):
                        rows.append(np.concatenate([f, g + c]))
        homs = np.array(rows, dtype=np.int64)
    return homs


def _tight_edges_span(u: Sequence[int] | np.ndarray, edges: Sequence[tuple[int, int]], n: int) -> bool:
    """Whether the tight edges ``|u_a − u_b| = 1`` of ``edges`` connect all ``n`` datasets (union–find; module Notes:
    the condition for the integer pattern ``u`` to be an extreme ray)."""
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    parts = n
    for a, b in edges:
        if abs(int(u[a]) - int(u[b])) == 1:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
                parts -= 1
    return parts == 1


def _exact_rays(U: np.ndarray, r: Fraction, cast: Callable[[int], Any] = int) -> np.ndarray:
    """The rays ``p^u q^{max u − u}`` (``r = p/q``) of the integer patterns ``U`` (one per row), each entry passed
    through ``cast``, as an ``object`` array of ``U``'s shape (module Notes: ``r^u`` scaled to integers)."""
    p, q = r.numerator, r.denominator
    out = np.empty(U.shape, dtype=object)
    for i, row in enumerate(U.tolist()):
        top = max(row)
        out[i] = [cast(p**e * q ** (top - e)) for e in row]
    return out


def dp_ray_patterns(graph: nx.Graph, *, max_rays: int | None = None, max_steps: int | None = None) -> np.ndarray:
    """Exponent patterns ``u`` (``min u = 0``) of the extreme rays ``r^u`` of the ε-DP cone, for any ``r > 1``.

    Backtracking over the datasets in breadth-first order: ``u`` is integer, ``|u_i − u_j| ≤ 1`` on every edge, and
    the tight edges must form a connected spanning subgraph (module Notes). Rows follow the graph's node order.

    Parameters
    ----------
    graph : networkx.Graph
        Connected neighbour graph.
    max_rays, max_steps : int, optional
        Refuse (``SizeLimitError``) before enumerating when a proven lower bound exceeds ``max_rays``, or while
        enumerating when more rays or search steps are needed. Default: the global size limits ``dp_rays`` and
        ``dp_ray_steps`` (:func:`privgeom.get_limits`; ``--limit dp_rays=N`` on the command line).

    Examples
    --------
    >>> from privgeom.graphs._graphs import path_graph
    >>> dp_ray_patterns(path_graph(2)).tolist()
    [[2, 1, 0], [1, 0, 1], [0, 1, 0], [0, 1, 2]]
    """
    max_rays = current_limit("dp_rays") if max_rays is None else max_rays
    max_steps = current_limit("dp_ray_steps") if max_steps is None else max_steps
    G = _connected_graph(graph)
    nodes = list(G.nodes)
    bound = dp_ray_count_lower_bound(G)
    if bound > max_rays:
        raise SizeLimitError(
            f"the eps-DP cone over {getattr(G, 'name', '') or 'this graph'} ({len(nodes)} datasets) has at least "
            f"{bound:,} extreme rays, more than the limit dp_rays of {max_rays:,} rays; refused before "
            f"enumerating — {limit_hint('dp_rays', bound, keyword='max_rays')}"
        )
    index = {v: i for i, v in enumerate(nodes)}
    order = [index[v] for v in nx.bfs_tree(G, nodes[0])]
    pos = {v: t for t, v in enumerate(order)}
    earlier = [[index[w] for w in G.neighbors(nodes[v]) if pos[index[w]] < pos[v]] for v in order]
    edges = [(index[a], index[b]) for a, b in G.edges]
    n = len(nodes)
    # bipartite graphs: every edge of a ray is tight, so u has the parity of the 2-colouring (module Notes)
    colour = {index[v]: c for v, c in nx.bipartite.color(G).items()} if nx.is_bipartite(G) else None
    u = [0] * n
    found: list[list[int]] = []
    steps = 0

    def rec(t: int) -> None:
        nonlocal steps
        if t == n:
            if colour is not None or _tight_edges_span(u, edges, n):
                lo = min(u)
                found.append([v - lo for v in u])
                if len(found) > max_rays:
                    raise SizeLimitError(
                        f"the eps-DP cone has more than {max_rays:,} extreme rays (the limit dp_rays); "
                        f"refused — {limit_hint('dp_rays', None, keyword='max_rays')}"
                    )
            return
        v = order[t]
        nb = earlier[t]
        lo = max(u[w] for w in nb) - 1
        hi = min(u[w] for w in nb) + 1
        for val in range(lo, hi + 1):
            if colour is not None and (val - colour[v] - u[order[0]] + colour[order[0]]) % 2:
                continue
            steps += 1
            if steps > max_steps:
                raise SizeLimitError(
                    f"enumerating the eps-DP cone's rays needs more than {max_steps:,} search steps "
                    f"(the limit dp_ray_steps); refused — "
                    f"{limit_hint('dp_ray_steps', None, keyword='max_steps')}"
                )
            u[v] = val
            rec(t + 1)

    u[order[0]] = 0
    rec(1)
    return np.array(found, dtype=np.int64).reshape(len(found), n)


def dp_cone_rays(graph: nx.Graph, exp_eps: ScalarLike, *, max_rays: int | None = None) -> np.ndarray:
    """Extreme rays ``r^u`` of the ε-DP cone over ``graph`` with ``r = e^ε > 1``, without double description.

    Exact rational ``r = p/q`` gives primitive-free integer rays ``p^{u} q^{max u − u}`` as Fractions; float ``r`` gives
    float rays. Rows follow :func:`dp_ray_patterns`.

    Examples
    --------
    >>> from privgeom.graphs._graphs import complete_graph
    >>> sorted(tuple(int(v) for v in ray) for ray in dp_cone_rays(complete_graph(3), 3))[:3]
    [(1, 1, 3), (1, 3, 1), (1, 3, 3)]
    """
    r = parse_scalar(exp_eps, name="exp_eps")
    if not r > 1:
        raise InvalidParameterError(
            f"dp_cone_rays needs exp_eps > 1 (at exp_eps = 1 the cone is a single ray), got {fraction_str(r)}"
        )
    U = dp_ray_patterns(graph, max_rays=max_rays)
    if isinstance(r, Fraction):
        return _exact_rays(U, r, Fraction)
    return np.power(float(r), U.astype(float))
