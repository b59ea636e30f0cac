"""Difference-constraint systems (:class:`DifferenceSystem`): a pairwise relaxation's bounds as shortest paths.

A relaxation onto pairs (Lin & Kifer, Section V) keeps, for every pair ``(a, b)``, the projection of the row cone,
which is an interval of ratios: ``x_a ≤ c_ab x_b`` and ``x_b ≤ c_ba x_a``. The relaxed cone

    R = {x ≥ 0 : x_a ≤ c_ab x_b for every bound}

is, in log space (``y = ln x``), a system of *difference constraints* ``y_a − y_b ≤ ln c_ab``. Chaining bounds along
a path gives ``x_a ≤ (Π c) x_b``, and the smallest product over paths, ``P_ab``, is attained (``x_v = P_vb`` is in
``R`` by the triangle inequality), so ``P_ab = sup_R x_a / x_b`` (the classical shortest-path theory of difference
constraints, e.g. Cormen et al., *Introduction to Algorithms*, Section 24.4). Hence, without any double description
or LP:

- a bound is *implied* (redundant) iff a path of other bounds has product ``≤ c_ab`` — the path is the certificate;
- ``R`` equals the ε-DP row cone over a graph ``G`` with ratio ``r`` iff every bound satisfies ``c_ab ≥ r^{d_G(a,b)}``
  (``G``'s own edges are bounds of ``R``, so ``DP_G ⊇ R`` always; the reverse is edge-by-edge implication);
- the facets of ``R`` are the non-implied bounds plus ``x_v ≥ 0`` for the ``v`` no bound points to (when every cycle
  has product ``> 1``, i.e. ``R`` is full-dimensional).

Products are compared exactly (Fractions) in exact mode. All shortest paths here are multiplicative Dijkstra /
label-correcting searches on the bounds themselves, so exactness is never lost.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Any, Iterable, Sequence

import networkx as nx
import numpy as np

from ..._core.errors import InvalidParameterError, SizeLimitError
from ..._core.limits import register_limit
from ..._core.arrays import ATOL, ROUNDOFF
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str, Scalar
from ..._core.limits import current_limit
from ..._core.results import Result

__all__ = ["DifferenceSystem", "ImpliedPair", "MAX_LOST_WORK", "MAX_PATH_WORK", "ratio_le"]

#: Largest ``(#bounds checked) × (#bounds + #datasets)`` spent on finding which bounds are implied by which paths
#: outside the ε-DP case (one bounded shortest-path search per bound).
MAX_PATH_WORK = 50_000_000
register_limit(
    "path_work",
    globals(),
    "MAX_PATH_WORK",
    "largest work (#bounds × (#bounds + #datasets)) spent finding which ratio bounds of a difference "
    "relaxation are implied by paths of others",
)

#: Largest ``#orbits × (#bounds + #datasets)`` spent on the lost-guarantee LPs of the difference route of
#: :func:`privgeom.relax` (checked before the first LP). It lives here, not in the lazily imported route module
#: ``_difference_route``, so that the limit is registered as soon as privgeom is imported.
MAX_LOST_WORK = 10**9
register_limit(
    "lost_work",
    globals(),
    "MAX_LOST_WORK",
    "largest work (#facet orbits × (#bounds + #datasets)) spent finding which guarantees a difference relaxation loses",
)


@dataclass(frozen=True)
class ImpliedPair(Result):
    """A ratio bound ``x_a ≤ bound · x_b`` of the relaxation implied by a path of other bounds.

    ``path`` lists the datasets ``a = v_0, v_1, …, v_m = b``; chaining ``x_{v_i} ≤ c x_{v_{i+1}}`` gives
    ``x_a ≤ path_bound · x_b`` with ``path_bound ≤ bound`` (checked exactly in exact mode).
    """

    pair: tuple[str, str]
    bound: Scalar
    path: tuple[str, ...]
    path_bound: Scalar

    def summary(self) -> str:
        """The sentence, with the path's product when it is strictly below the bound."""
        via = " → ".join(str(v) for v in self.path)
        text = f"x_{self.pair[0]} ≤ {fraction_str(self.bound)}·x_{self.pair[1]} is implied by the path {via}"
        same = self.path_bound == self.bound or (
            not isinstance(self.path_bound, Fraction)
            and math.isclose(float(self.path_bound), float(self.bound), rel_tol=ROUNDOFF, abs_tol=0.0)
        )
        return text if same else f"{text} (product {fraction_str(self.path_bound)})"


def ratio_le(x: Any, y: Any, exact: bool, *, steps: int = 1, atol: float = ATOL) -> bool:
    """``x ≤ y`` for (products of) ratio bounds: exactly in exact mode; in float mode within a relative ``atol`` per
    multiplication (``steps``: the number of bounds multiplied into ``x``, each carrying the user data's tolerance).

    Examples
    --------
    >>> ratio_le(3.0 + 1e-10, 3.0, False), ratio_le(3.0 + 1e-10, 3, True)
    (True, False)
    """
    if exact:
        return bool(x <= y)
    return bool(float(x) <= float(y) * (1 + atol * steps))


@dataclass(frozen=True)
class DifferenceSystem:
    """Ratio bounds ``x_a ≤ c x_b`` over ``n`` datasets (one per ordered pair at most; the smallest is kept).

    Attributes
    ----------
    labels : tuple of str
    a, b : int arrays
        The bound ``x_{a[t]} ≤ c[t] x_{b[t]}``.
    c : tuple of Fraction or float
        Finite, positive bounds.
    exact : bool
    atol : float
        Float mode: relative tolerance of a ratio bound (per bound of a path, :func:`ratio_le`); the cone's ``atol``.

    Examples
    --------
    >>> S = DifferenceSystem.from_bounds(["0", "1", "2"], [(0, 1, 2), (1, 0, 2), (1, 2, 2), (2, 1, 2), (0, 2, 5)], True)
    >>> S.path_product(0, 2)
    (Fraction(4, 1), [0, 1, 2])
    >>> [p.summary() for p in S.implied_bounds()]
    ['x_0 ≤ 5·x_2 is implied by the path 0 → 1 → 2 (product 4)']
    """

    labels: tuple[str, ...]
    a: np.ndarray
    b: np.ndarray
    c: tuple[Any, ...]
    exact: bool
    atol: float = ATOL

    @classmethod
    def from_bounds(
        cls, labels: Sequence[str], bounds: Iterable[tuple[int, int, Any]], exact: bool, *, atol: float = ATOL
    ) -> DifferenceSystem:
        """From triples ``(a, b, c)``; infinite ``c`` is dropped, the smallest bound of an ordered pair kept.

        Raises
        ------
        InvalidParameterError
            A bound ``c ≤ 0`` (a coordinate forced to zero: not a difference system) or a NaN.
        """
        best: dict[tuple[int, int], Any] = {}
        for a, b, c in bounds:
            if c == math.inf:
                continue
            if not c > 0:
                raise InvalidParameterError(f"ratio bound x_{labels[a]} ≤ {c}·x_{labels[b]} is not positive")
            key = (int(a), int(b))
            c = Fraction(c) if exact else float(c)
            if key not in best or c < best[key]:
                best[key] = c
        keys = sorted(best)
        A = np.array([k[0] for k in keys], dtype=np.int64)
        B = np.array([k[1] for k in keys], dtype=np.int64)
        return cls(tuple(labels), A, B, tuple(best[k] for k in keys), bool(exact), atol)

    @property
    def n(self) -> int:
        return len(self.labels)

    @cached_property
    def monotone(self) -> bool:
        """Every bound ``≥ 1`` (log weights non-negative: the searches are Dijkstra's, stopping early)."""
        return all(v >= 1 for v in self.c)

    @cached_property
    def bound_index(self) -> dict[tuple[int, int], int]:
        """``(a, b) -> t`` for the bound ``x_a ≤ c_t x_b``."""
        return {(int(x), int(y)): t for t, (x, y) in enumerate(zip(self.a.tolist(), self.b.tolist()))}

    def _adjacency(self) -> list[list[tuple[int, int]]]:
        return self.adjacency

    @cached_property
    def adjacency(self) -> list[list[tuple[int, int]]]:
        """``adj[a]`` = list of ``(b, t)`` for the bounds ``x_a ≤ c_t x_b``."""
        adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        for t, (a, b) in enumerate(zip(self.a.tolist(), self.b.tolist())):
            adj[a].append((b, t))
        return adj

    def path_product(
        self,
        source: int,
        target: int,
        *,
        skip: int | None = None,
        limit: Any = None,
        adj: list[list[tuple[int, int]]] | None = None,
    ) -> tuple[Any, list[int] | None]:
        """Smallest product of bounds along a path ``source → target`` (optionally avoiding bound ``skip``), and
        the path; ``(math.inf, None)`` when there is none (or none with product ``≤ limit``).

        A label-correcting search with a heap (Dijkstra when every bound is ``≥ 1``), multiplying the bounds exactly.
        """
        adj = self._adjacency() if adj is None else adj
        one: Any = Fraction(1) if self.exact else 1.0
        best: dict[int, Any] = {source: one}
        prev: dict[int, tuple[int, int]] = {}
        heap: list[tuple[Any, int]] = [(one, source)]
        c = self.c
        monotone = self.monotone
        while heap:
            d, u = heapq.heappop(heap)
            if d != best.get(u):
                continue
            if limit is not None and monotone and not ratio_le(d, limit, self.exact, atol=self.atol):
                break
            for v, t in adj[u]:
                if t == skip:
                    continue
                nd = d * c[t]
                if v not in best or nd < best[v]:
                    best[v] = nd
                    prev[v] = (u, t)
                    heapq.heappush(heap, (nd, v))
        if target not in best or target == source:
            if target == source:
                return one, [source]
            return math.inf, None
        path = [target]
        while path[-1] != source:
            path.append(prev[path[-1]][0])
        return best[target], path[::-1]

    @cached_property
    def reverse_adjacency(self) -> list[list[tuple[int, int]]]:
        """``radj[b]`` = list of ``(a, t)`` for the bounds ``x_a ≤ c_t x_b``."""
        radj: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        for t, (a, b) in enumerate(zip(self.a.tolist(), self.b.tolist())):
            radj[b].append((a, t))
        return radj

    def path_products(self, source: int, targets: Iterable[int]) -> dict[int, tuple[Any, list[int]]] | None:
        """Smallest products of bounds ``source → v`` (and the paths) for every reachable ``v`` in ``targets``: one
        Dijkstra search that stops once every target is settled. None unless every bound is ``≥ 1`` (the early
        stop needs non-negative log weights)."""
        if not self.monotone:
            return None
        want = set(int(v) for v in targets) - {source}
        one: Any = Fraction(1) if self.exact else 1.0
        prev: dict[int, int] = {}
        best, done = _product_dijkstra(
            self.adjacency, self.c, {source: one}, prev=prev, finished=lambda done: not (want - done)
        )
        out: dict[int, tuple[Any, list[int]]] = {}
        for v in want & done:
            path = [v]
            while path[-1] != source:
                path.append(prev[path[-1]])
            out[v] = (best[v], path[::-1])
        return out

    def lift(self, values: dict[int, Any]) -> list[Any] | None:
        """The largest point of the relaxed cone with the given coordinates on a subset ``U``:
        ``y_v = min_{u ∈ U} P_vu x_u`` (a multi-source search backwards along the bounds; Cormen et al., §24.4).
        It lies in the cone and keeps the given values when they satisfy the shortest-path bounds among ``U``.
        None when some dataset reaches no ``u ∈ U`` (its coordinate is unbounded)."""
        c = self.c
        if self.integer_bounds is not None and all(isinstance(v, int) for v in values.values()):
            c = self.integer_bounds  # integers stay integers (exact, and an order of magnitude faster than Fractions)
        y, _ = _product_dijkstra(self.reverse_adjacency, c, values)
        if len(y) < self.n:
            return None
        return [y[v] for v in range(self.n)]

    def implied_bounds(self) -> list[ImpliedPair]:
        """Every bound implied by a path of the *other* bounds, with the path (Cormen et al., §24.4).

        Raises
        ------
        SizeLimitError
            When ``#bounds × (#bounds + #datasets)`` exceeds :data:`MAX_PATH_WORK` (refused before searching).
        """
        m = len(self.c)
        if m * (m + self.n) > current_limit("path_work"):
            raise SizeLimitError(
                f"finding implied bounds among {m:,} ratio bounds over {self.n:,} datasets would take "
                f"{m:,} path searches (work {m * (m + self.n):,}, limit "
                f"{current_limit('path_work'):,}); refused "
                f"before searching — {limit_hint('path_work', m * (m + self.n))}"
            )
        adj = self._adjacency()
        out = []
        for t in range(m):
            a, b = int(self.a[t]), int(self.b[t])
            prod, path = self.path_product(a, b, skip=t, limit=self.c[t], adj=adj)
            if path is not None and ratio_le(prod, self.c[t], self.exact, atol=self.atol):
                out.append(
                    ImpliedPair(
                        pair=(self.labels[a], self.labels[b]),
                        bound=self.c[t],
                        path=tuple(self.labels[v] for v in path),
                        path_bound=prod,
                    )
                )
        return out

    def has_tight_cycle(self, keep: Sequence[int]) -> bool:
        """Whether some bound ``t`` in ``keep`` closes a cycle of product ``≤ 1`` (then ``R`` is not full-dimensional)."""
        adj = self._adjacency()
        one: Any = Fraction(1) if self.exact else 1.0
        for t in keep:
            a, b = int(self.a[t]), int(self.b[t])
            prod, path = self.path_product(
                b, a, limit=one / self.c[t] if self.exact else 1.0 / float(self.c[t]), adj=adj
            )
            if path is not None and ratio_le(prod * self.c[t], one, self.exact, atol=self.atol):
                return True
        return False

    def repair(self, x: Sequence[Any]) -> list[Any]:
        """The largest point ``y ≤ x`` of the relaxed cone: ``y_v = min_u P_vu x_u`` (multi-source search from every
        dataset; exact with Fractions). Needs ``x ≥ 0`` and no cycle of product ``< 1``."""
        n = self.n
        radj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for t, (a, b) in enumerate(zip(self.a.tolist(), self.b.tolist())):
            radj[b].append((a, t))  # y_a ≤ c_t y_b: a key at b bounds a
        y = list(x)
        heap = [(y[v], v) for v in range(n)]
        heapq.heapify(heap)
        c = self.c
        while heap:
            d, u = heapq.heappop(heap)
            if d != y[u]:
                continue
            for v, t in radj[u]:
                nd = d * c[t]
                if nd < y[v]:
                    y[v] = nd
                    heapq.heappush(heap, (nd, v))
        return y

    @cached_property
    def integer_bounds(self) -> tuple[int, ...] | None:
        """The bounds as Python ints when every one is an integer (exact mode), else None."""
        if not self.exact or not all(v.denominator == 1 for v in self.c):
            return None
        return tuple(int(v) for v in self.c)

    def contains(self, x: Sequence[Any], *, atol: float = 0.0) -> bool:
        """``x ≥ 0`` and every bound holds (exactly in exact mode)."""
        ints = self.integer_bounds
        if ints is not None and all(isinstance(v, int) for v in x):
            return all(v >= 0 for v in x) and all(
                x[a] <= c * x[b] for a, b, c in zip(self.a.tolist(), self.b.tolist(), ints)
            )
        if self.exact:
            return all(v >= 0 for v in x) and all(x[a] <= c * x[b] for a, b, c in zip(self.a, self.b, self.c))
        xs = max(1.0, max(abs(float(v)) for v in x))
        tol = atol * xs
        return all(float(v) >= -tol for v in x) and all(
            float(x[a]) <= float(c) * float(x[b]) + tol * max(1.0, float(c)) for a, b, c in zip(self.a, self.b, self.c)
        )

    def graph_of(self, keep: Sequence[int]) -> nx.DiGraph:
        """The bounds ``keep`` as a directed graph ``a → b`` with attribute ``bound``."""
        G = nx.DiGraph()
        G.add_nodes_from(self.labels)
        for t in keep:
            G.add_edge(self.labels[int(self.a[t])], self.labels[int(self.b[t])], bound=self.c[t])
        return G


def _product_dijkstra(
    adj: Any, c: Any, start: dict[int, Any], *, prev: dict[int, int] | None = None, finished: Any = None
) -> tuple[dict[int, Any], set[int]]:
    """Dijkstra's algorithm with path weights multiplied instead of added (every bound ``c[t] ≥ 1``, so products only
    grow: Cormen et al., §24.3, on ``log c``): the smallest product ``best[v]`` from any start node (each with its
    start value) to every node reached, the settled nodes, and ``prev`` filled with the predecessors when given.
    ``finished(done)`` stops the search early once it holds."""
    best: dict[int, Any] = dict(start)
    heap = [(d, u) for u, d in start.items()]
    heapq.heapify(heap)
    done: set[int] = set()
    while heap and not (finished is not None and finished(done)):
        d, u = heapq.heappop(heap)
        if u in done or d != best.get(u):
            continue
        done.add(u)
        for v, t in adj[u]:
            nd = d * c[t]
            if v not in best or nd < best[v]:
                best[v] = nd
                if prev is not None:
                    prev[v] = u
                heapq.heappush(heap, (nd, v))
    return best, done
