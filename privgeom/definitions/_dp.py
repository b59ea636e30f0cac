"""ε-differential privacy over a neighbour graph, as a privacy definition decided row by row.

A mechanism ``M`` satisfies ε-DP over a neighbour graph ``G`` on the datasets iff every row ``x`` satisfies
``x_i ≤ e^ε x_j`` for every edge ``{i, j}`` in both directions (``docs/theory.md`` §7, "ε-differential privacy and its relatives as
cones"; Lin & Kifer, Section V, where relaxing randomized response by Fourier–Motzkin yields exactly this cone).
DP is closed under post-processing and mixing, so it equals its own consistent closure and its row cone decides
membership: the row cone is ``{x ≥ 0 : e^ε x_j − x_i ≥ 0 for every directed edge}``, given directly in
H-representation. With the Hamming graph on bit strings this is classical DP; other graphs give Blowfish-style
policies, the complete graph ``K_n`` gives local DP on one record with ``n`` values.

Exactness: ``exp_eps`` rational (``3``, ``"3/2"``, ``Fraction``), ``eps`` as a :class:`~privgeom.LogRational` or the
string ``"ln(3)"``, or ``eps = 0`` give an exact ratio; any other ``eps`` gives the float ``exp(eps)``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

import networkx as nx
import numpy as np

from .._core.domain import Domain, InputsLike, RelationLike, resolve_graph
from .._core.relations import graph_nodes
from .._core.errors import FormatError, InvalidInputError, InvalidParameterError
from .._core.level import LevelLike, PrivacyLevel, ScalarLike
from .._core.arrays import readonly
from .._core.columns import int_columns
from .._core.numbers import fraction_str, LogRational
from ..graphs._graphs import edge_index_pairs
from ..graphs._graphs import standard_graph_spec
from ..geometry._symmetry import SymmetryGroup, automorphisms, dp_automorphisms
from ..mechanisms import Mechanism
from ._base import HasLevel, Membership, PrivacyDefinition, RowCertificate
from ._dp_rows import Violation, edge_certificate, factored_route, factored_violation, violation, violation_int
from ._nearest import ClosureDescription, closure_description, nonunit_rows
from ._rows import as_vector, rows_row_cone_membership

__all__ = ["DifferentialPrivacy", "dp_level", "standard_graph_spec", "structured_graph_spec", "SPEC_UNSAFE"]

#: Characters that cannot appear in dataset labels written into a ``graph=edges`` spec.
SPEC_UNSAFE = set(",;~=:[]{}\"' ")


def dp_level(
    eps: LevelLike | None = None, exp_eps: ScalarLike | None = None, *, exact: bool | None = None, owner: str = "DP"
) -> PrivacyLevel:
    """:meth:`PrivacyLevel.parse` with the convention of the DP definitions that ``ε = 0`` is exact even when
    given as the float ``0.0`` (``e^0 = 1`` is rational whatever the spelling).

    Examples
    --------
    >>> dp_level(eps=0.0).exp_eps, dp_level(exp_eps="3/2").eps
    (Fraction(1, 1), LogRational(ratio=Fraction(3, 2)))
    """
    if exp_eps is None and isinstance(eps, float) and eps == 0.0 and exact is not False:
        return replace(PrivacyLevel.parse(eps=0, exact=exact, owner=owner), shown=eps)
    return PrivacyLevel.parse(eps, exp_eps, exact=exact, owner=owner)


def _given(level: PrivacyLevel) -> tuple[str, Any]:
    return ("exp_eps", level.exp_eps) if level.given == "exp_eps" else ("eps", level.shown)


def structured_graph_spec(domain: Domain, relation: str) -> str | None:
    """``graph=replace-one,n=2,records=3`` (databases) / ``…,categories=3`` (histograms) / ``graph=add-remove,…``
    (every size ``0..n``) for a named relation on a database or histogram :class:`~privgeom.Domain`, else None.

    Examples
    --------
    >>> structured_graph_spec(Domain.databases(2, ["a", "b"]), "replace-one")
    'graph=replace-one,n=2,records=a;b'
    >>> structured_graph_spec(Domain.histograms(3, 2, up_to=True), "add-remove")
    'graph=add-remove,n=3,categories=2'
    """
    if domain.kind not in ("databases", "histograms") or relation not in ("replace-one", "add-remove"):
        return None
    if domain.up_to != (relation == "add-remove"):
        return None
    values = domain.values
    if values == tuple(str(i) for i in range(len(values))):
        shown = str(len(values))
    elif all(v and not set(v) & SPEC_UNSAFE for v in values) and not all(v.isdigit() for v in values):
        shown = ";".join(values)
    else:
        return None
    key = "records" if domain.kind == "databases" else "categories"
    return f"graph={relation},n={domain.n},{key}={shown}"


class DifferentialPrivacy(HasLevel, PrivacyDefinition):
    """ε-differential privacy over a neighbour graph: every row satisfies ``x_i ≤ e^ε x_j`` on every edge.

    Parameters
    ----------
    graph : str, Domain, networkx.Graph or iterable of label pairs
        The neighbour relation, resolved by :func:`privgeom.neighbour_graph`: a relation name (``"hamming"``,
        ``"path"``, ``"complete"``, …; needs ``inputs``), a :class:`~privgeom.Domain` (its datasets and default
        relation), or a graph / edge list whose nodes are dataset labels. With an edge list and no ``inputs``,
        datasets are ordered by first appearance.
    eps : float, LogRational, "ln(r)" or 0, optional
        The privacy parameter ε ≥ 0.
    exp_eps : rational or float ≥ 1, optional
        ``e^ε`` directly (give exactly one of ``eps`` and ``exp_eps``).
    inputs : Domain or sequence of str, optional
        Dataset labels and their order (default: the graph's node order).
    exact : bool, optional
        Force float (False) or insist on exact mode (True).

    Raises
    ------
    InvalidParameterError
        Bad ``eps``/``exp_eps`` (see :meth:`privgeom.PrivacyLevel.parse`), or a relation name that does not apply.
    DomainMismatchError
        Graph nodes that are not among ``inputs``.

    Notes
    -----
    DP equals its own closure, and a column-stochastic matrix is in DP iff every row is in the row cone, so
    :attr:`row_cone_decides_closure` is True and ``contains`` checks the rows (method ``"dp-row-inequalities"``;
    ``"row-cone"`` uses the double-description cone instead). Exact mode compares integers by cross-multiplication
    (:attr:`~privgeom.Mechanism.int_columns`); ``"fraction"`` is the same row check on Fraction objects (the
    reference route, much slower). A no names the row, the edge and the violated inequality; a yes has no witness
    beyond the inequalities themselves.

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> dp = DifferentialPrivacy.hamming(2, exp_eps=3)
    >>> dp.contains(randomized_response(2, "3/4")).member
    True
    >>> no = dp.contains(randomized_response(2, "4/5"))
    >>> no.member, no.certificate.edge, no.certificate.inequality
    (False, ('11', '10'), 'x[11] ≤ 3·x[10]')
    >>> dp.spec()
    'dp:graph=hamming,k=2,exp_eps=3'
    """

    membership_methods = ("dp-row-inequalities", "row-cone", "fraction")

    def __init__(
        self,
        graph: RelationLike,
        eps: LevelLike | None = None,
        exp_eps: ScalarLike | None = None,
        *,
        inputs: InputsLike | None = None,
        exact: bool | None = None,
    ) -> None:
        self._level = dp_level(eps, exp_eps, exact=exact, owner="DifferentialPrivacy")
        self._ratio, self._given = self._level.exp_eps, _given(self._level)
        self._exact = self._level.exact
        self._named: tuple[Domain, str] | None = None  # (domain, relation name) when the relation was named
        if isinstance(graph, Domain):
            if inputs is not None and Domain.coerce(inputs).labels != graph.labels:
                resolve_graph(graph, inputs)  # raises the mismatch
            self._named = (graph, graph.default_relation)
        elif isinstance(graph, str):
            if inputs is None:
                raise InvalidParameterError(
                    f"DifferentialPrivacy: the relation name {graph!r} needs the datasets: pass inputs= (a Domain or "
                    f"labels), or a Domain such as Domain.bits(k) instead of the name"
                )
            dom = Domain.coerce(inputs)
            self._named = (dom, dom.check_relation(graph))
        known = self._named[0].relation_pairs(self._named[1]) if self._named is not None else None
        if known is not None and self._named is not None:
            # a path: its edges are index arithmetic; the networkx graph is built only if a caller needs it
            dom, rel = self._named
            if not len(dom):
                raise InvalidInputError("DifferentialPrivacy: the input domain is empty")
            self._graph_cache: nx.Graph | None = None
            self._graph_name = dom._graph_name(rel)
            self._inputs = tuple(dom.labels)
            I0, J0 = known
            self._I = np.concatenate([I0, J0])
            self._J = np.concatenate([J0, I0])
            return
        # every relation goes through the one resolver (privgeom.neighbour_graph): a Domain or a name on the
        # datasets, or a graph / edge list whose datasets are `inputs` (default: the nodes it names, in order)
        relation: RelationLike
        datasets: Any
        if self._named is not None:
            relation, datasets = self._named[1], self._named[0]
        else:
            relation, datasets = graph, (inputs.labels if isinstance(inputs, Domain) else inputs)
            if datasets is None:
                datasets = graph_nodes(graph)
        if isinstance(datasets, Domain):  # the relation is size-checked before the labels are built
            G = resolve_graph(relation, datasets)
            labels = tuple(datasets.labels)
        else:
            labels = tuple(str(v) for v in datasets)
            if not labels:
                raise InvalidInputError("DifferentialPrivacy: the input domain is empty")
            if len(set(labels)) != len(labels):
                raise InvalidInputError(f"DifferentialPrivacy: repeated dataset labels in {list(labels)[:8]}")
            G = resolve_graph(relation, labels)
        self._graph_cache = G
        self._graph_name = getattr(G, "name", "") or "user graph"
        self._inputs = labels
        pairs = edge_index_pairs(G, labels)
        self._I = np.array([i for i, j in pairs] + [j for i, j in pairs], dtype=np.int64)
        self._J = np.array([j for i, j in pairs] + [i for i, j in pairs], dtype=np.int64)

    @classmethod
    def hamming(
        cls, k: int, *, eps: LevelLike | None = None, exp_eps: ScalarLike | None = None, exact: bool | None = None
    ) -> "DifferentialPrivacy":
        """ε-DP on ``k`` bits (neighbours differ in one bit: ``neighbour_graph("hamming", Domain.bits(k))``)."""
        return cls(Domain.bits(k), eps=eps, exp_eps=exp_eps, exact=exact)

    @classmethod
    def complete(
        cls, n: int, *, eps: LevelLike | None = None, exp_eps: ScalarLike | None = None, exact: bool | None = None
    ) -> "DifferentialPrivacy":
        """Local DP on one record with ``n`` values (every pair neighbours: ``neighbour_graph("complete", n)``)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise InvalidParameterError(f"DifferentialPrivacy.complete needs an integer n >= 2 values, got {n!r}")
        return cls("complete", eps=eps, exp_eps=exp_eps, inputs=[str(i) for i in range(n)], exact=exact)

    @classmethod
    def path(
        cls, n: int, *, eps: LevelLike | None = None, exp_eps: ScalarLike | None = None, exact: bool | None = None
    ) -> "DifferentialPrivacy":
        """DP for a count in ``0..n`` (neighbours differ by one: ``neighbour_graph(Domain.counts(n), Domain.counts(n))``)."""
        return cls(Domain.counts(n), eps=eps, exp_eps=exp_eps, exact=exact)

    # ------------------------------------------------------------------------------------------------ identity
    @property
    def domain(self) -> Domain:
        """The datasets as a :class:`~privgeom.Domain`: the one the relation was named on (``dp:graph=replace-one,…``),
        else plain labels."""
        return self._named[0] if self._named is not None else Domain.from_labels(self._inputs)

    @property
    def relation_name(self) -> str | None:
        """The name of the neighbour relation when the graph was given by one (``"replace-one"``, ``"path"``, …),
        else None (a user graph)."""
        return self._named[1] if self._named is not None else None

    @property
    def graph(self) -> nx.Graph:
        """The (validated) neighbour graph; a copy."""
        return self._graph.copy()

    @property
    def _graph(self) -> nx.Graph:
        """The neighbour graph, shared (not a copy). A named path keeps only its index arrays until this is read; then
        the graph is built once (size-checked by :meth:`privgeom.Domain.relation`) and kept."""
        if self._graph_cache is None:
            assert self._named is not None
            self._graph_cache = self._named[0].relation(self._named[1])
        return self._graph_cache

    @property
    def graph_built(self) -> bool:
        """Whether the networkx graph exists (a named path builds it only when a caller needs it).

        Examples
        --------
        >>> dp = DifferentialPrivacy("path", exp_eps=2, inputs=Domain.counts(3))
        >>> dp.graph_built, dp.spec(), dp.graph_built, dp.graph.number_of_edges(), dp.graph_built
        (False, 'dp:graph=path,n=3,exp_eps=2', False, 3, True)
        """
        return self._graph_cache is not None

    @property
    def index_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """The undirected edges as read-only index arrays ``(I, J)`` with ``I[e] < J[e]``, sorted (no graph copy).

        Examples
        --------
        >>> [a.tolist() for a in DifferentialPrivacy.path(2, exp_eps=2).index_pairs]
        [[0, 1], [1, 2]]
        """
        E = len(self._I) // 2
        return readonly(self._I[:E]), readonly(self._J[:E])

    @property
    def edges(self) -> tuple[tuple[str, str], ...]:
        """Directed neighbour pairs ``(D_i, D_j)``, one per inequality ``x_i ≤ e^ε x_j``."""
        return tuple((self._inputs[i], self._inputs[j]) for i, j in zip(self._I, self._J))

    @property
    def name(self) -> str:
        kind, val = self._given
        par = f"eps={val}" if kind == "eps" else f"e^eps={fraction_str(val)}"
        return f"differential privacy ({par}, graph {self._graph_name})"

    def _path_spec(self) -> str | None:
        """:func:`standard_graph_spec` of the graph a named path would build, from its name and labels (its edges
        join ``i`` to ``i + 1`` by construction); computed once."""
        if "_path_spec_cached" not in self.__dict__:
            n = len(self._inputs) - 1
            ok = n >= 1 and self._graph_name == f"path({n})" and self._inputs == tuple(str(c) for c in range(n + 1))
            self.__dict__["_path_spec_cached"] = f"graph=path,n={n}" if ok else None
        return self.__dict__["_path_spec_cached"]

    def spec(self) -> str:
        """``dp:graph=…,exp_eps=…`` (or ``eps=…``); user graphs as ``graph=edges,inputs=a;b,edges=a~b``.

        Raises
        ------
        FormatError
            A user graph whose labels contain characters the spec syntax reserves.
        """
        g = self._path_spec() if self._graph_cache is None else standard_graph_spec(self._graph)
        if g is None and self._named is not None:
            g = structured_graph_spec(*self._named)
        if g is None:
            bad = [s for s in self._inputs if not s or set(s) & SPEC_UNSAFE]
            if bad:
                raise FormatError(f"{self.name}: dataset label {bad[0]!r} cannot be written into a spec string")
            edges = ";".join(f"{self._inputs[i]}~{self._inputs[j]}" for i, j in zip(self._I, self._J) if i < j)
            g = f"graph=edges,inputs={';'.join(self._inputs)},edges={edges}"
        kind, val = self._given
        if isinstance(self._ratio, Fraction):
            par = f"eps={val}" if kind == "eps" and isinstance(val, LogRational) else f"exp_eps={self._ratio}"
            if kind == "eps" and not isinstance(val, LogRational):
                par = "eps=0"
        elif kind == "eps":
            par = f"eps={val}" if isinstance(val, str) else f"eps={fraction_str(val)}"
        else:
            par = f"exp_eps={fraction_str(self._ratio)},exact=false"
        return f"dp:{g},{par}"

    @property
    def row_cone_decides_closure(self) -> bool:
        """True: DP is defined row by row and equals its own closure."""
        return True

    # ------------------------------------------------------------------------------------------------ geometry
    def inequalities(self, exact: bool | None = None) -> np.ndarray:
        """One row ``a = e^ε e_j − e_i`` per directed edge (``a · x ≥ 0``), then ``e_i`` (``x_i ≥ 0``) per dataset."""
        ex = self.exact if exact is None else exact and self.exact
        n, E = self.n_inputs, len(self._I)
        from ..geometry._structure import check_rows_size

        check_rows_size(E + n, n, exact=ex, what=f"the inequalities of {self.name}")
        c: Any = self._ratio if ex else float(self._ratio)
        if ex:
            A = np.empty((E + n, n), dtype=object)
            A[...] = Fraction(0)
        else:
            A = np.zeros((E + n, n))
        for r, (i, j) in enumerate(zip(self._I, self._J)):
            A[r, i] = -1
            A[r, j] = c
        for i in range(n):
            A[E + i, i] = 1
        return readonly(A)

    def row_cone(self) -> Any:
        """The row cone ``{x ≥ 0 : e^ε x_j − x_i ≥ 0 for every directed edge}`` (Lin & Kifer §V), built lazily.

        For ``e^ε > 1`` the cone is known in closed form (a ``"difference"`` structure): its facets are exactly the
        ``2|E|`` edge inequalities plus ``x_i ≥ 0`` for isolated datasets — a path of ``d ≥ 2`` edges only implies the
        weaker ratio ``e^{dε}``, and ``x_i ≥ 0`` follows from any edge at ``i`` (``x_i ≥ e^{-ε} x_j ≥ e^{-2ε} x_i``).
        It is full-dimensional and pointed; the projection onto a pair ``(a, b)`` is the interval of ratios
        ``[e^{-dε}, e^{dε}]`` with ``d`` the graph distance (shortest paths of the difference constraints). Nothing
        dense is built until facets or rays are asked for (size-checked first; rays by the dedicated enumeration of
        ``_dp_rays``). At ``e^ε = 1`` the cone is given by its inequalities and canonicalised by cdd.

        Examples
        --------
        >>> from privgeom.graphs._graphs import hamming_graph
        >>> cone = DifferentialPrivacy(hamming_graph(2), exp_eps=3).row_cone()
        >>> cone.n_facets, cone.dim
        (8, 4)
        >>> DifferentialPrivacy.path(100000, exp_eps=3).row_cone().n_facets     # nothing dense is built
        200000
        """
        return self._cached_row_cone(self._build_row_cone)

    def _build_row_cone(self) -> Any:
        from ..geometry._cone import Cone
        from ..geometry._structure import ConeStructure, DifferenceData, check_rows_size

        n = self.n_inputs
        if not self._ratio > 1:
            check_rows_size(len(self._I) + n, n, exact=self.exact, what=f"the inequalities of {self.name}")
            return Cone.from_facets(self.inequalities(), exact=self.exact, labels=self._inputs)
        ratio = self._ratio
        degree = np.bincount(self._I, minlength=n)  # each undirected edge once as I: the degree
        isolated = tuple(np.flatnonzero(degree == 0).tolist())
        n_facets = len(self._I) + len(isolated)

        E = len(self._I)

        def facets() -> np.ndarray:
            A = self.inequalities()
            keep = list(range(E)) + [E + i for i in isolated]
            return A[keep]

        def facet(t: int) -> np.ndarray:
            row = np.zeros(n, dtype=object if self.exact else float)
            if self.exact:
                row[...] = Fraction(0)
            if t < E:
                row[self._I[t]], row[self._J[t]] = -1, ratio
            else:
                row[isolated[t - E]] = 1
            return row

        keys = self._I * n + self._J
        order = np.argsort(keys)
        iso_pos = {v: r for r, v in enumerate(isolated)}

        def facet_action(p: np.ndarray, items: np.ndarray) -> np.ndarray:
            """Facet ``t`` (directed edge ``I→J``, then isolated datasets) maps to the facet of ``p(I)→p(J)``."""
            out = np.empty(len(items), dtype=np.int64)
            edge = items < E
            img = p[self._I[items[edge]]] * n + p[self._J[items[edge]]]
            out[edge] = order[np.searchsorted(keys[order], img)]
            out[~edge] = [E + iso_pos[int(p[isolated[int(t) - E]])] for t in items[~edge]]
            return out

        def rays() -> Any:
            from ._dp_rays import dp_cone_rays

            return dp_cone_rays(self._graph, ratio)

        structure = ConeStructure(
            "difference",
            f"one facet x_i ≤ e^ε x_j per directed edge ({len(self._I)}), e^ε = {fraction_str(ratio)}"
            + (
                f", and x_i ≥ 0 for {len(isolated)} isolated dataset{'s' if len(isolated) != 1 else ''}"
                if isolated
                else ""
            ),
            n_facets=n_facets,
            dim=n,
            pointed=True,
            facets=facets,
            contains=self._cone_contains,
            # rays by the dedicated enumeration on connected graphs; otherwise by double description from the facets
            rays=rays if n > 1 and self._connected() else None,
            pair_bounds=self.pair_bounds,
            facet=facet,
            difference=DifferenceData(self._I, self._J, (ratio,) * len(self._I), isolated),
            extra={"facet_action": facet_action, "symmetry": self._symmetry},
        )
        return Cone.from_structure(structure, labels=self._inputs, exact=self.exact)

    def _connected(self) -> bool:
        """Is the neighbour graph connected? (Components of the index arrays: no networkx graph needed.)"""
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        n = self.n_inputs
        adj = coo_matrix((np.ones(len(self._I), dtype=np.int8), (self._I, self._J)), shape=(n, n))
        return int(connected_components(adj, directed=False)[0]) == 1

    def pair_bounds(
        self, ia: Sequence[int] | np.ndarray, ib: Sequence[int] | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``sup x_a / x_b`` over the DP row cone: ``e^{dε}`` with ``d`` the graph distance (``math.inf`` when ``a``, ``b``
        lie in different components); symmetric. Shortest paths of the difference constraints ``x_i ≤ e^ε x_j``
        (chaining along a path gives the bound; ``x_v = e^{-ε d(v, b)}`` attains it).

        Examples
        --------
        >>> fwd, _ = DifferentialPrivacy.path(3, exp_eps=2).pair_bounds([0, 0, 1], [1, 3, 1])
        >>> fwd.tolist()
        [Fraction(2, 1), Fraction(8, 1), Fraction(1, 1)]
        """
        ia = np.asarray(ia, dtype=np.int64)
        ib = np.asarray(ib, dtype=np.int64)
        labels = self._inputs
        out = np.empty(len(ia), dtype=object if self.exact else float)
        dist: dict[int, dict[str, int]] = {}
        if self._graph_cache is None:  # a named path: the distance of i and j is |i − j|, no graph needed
            for t, (a, b) in enumerate(zip(ia.tolist(), ib.tolist())):
                out[t] = self._ratio ** abs(a - b)
            return readonly(out), readonly(out)
        G = self._graph
        for t, (a, b) in enumerate(zip(ia, ib)):
            a = int(a)
            if a == int(b) or G.has_edge(labels[a], labels[int(b)]):
                out[t] = self._ratio ** (0 if a == int(b) else 1)
                continue
            if a not in dist:
                dist[a] = nx.single_source_shortest_path_length(self._graph, labels[a])
            d = dist[a].get(labels[int(b)])
            out[t] = math.inf if d is None else self._ratio**d
        return readonly(out), readonly(out)

    # ------------------------------------------------------------------------------------------------ membership
    def _certificate(self, x: np.ndarray, o: int, output: str, e: int, exact: bool, atol: float) -> RowCertificate:
        return edge_certificate(self._I, self._J, self._ratio, self._inputs, x, o, output, e, exact, atol)

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Is ``mechanism`` ε-DP (= in the closure, which is DP itself)? Decided row by row.

        DP is closed under post-processing and mixing and is row-wise (``docs/theory.md`` §7, "ε-DP and its
        relatives as cones"): a mechanism is in it iff every row satisfies ``x_i ≤ e^ε x_j`` on every edge. Exact
        when both the mechanism and ``e^ε`` are exact; float mode accepts violations up to ``atol``.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> from privgeom.graphs._graphs import hamming_graph
        >>> dp = DifferentialPrivacy(hamming_graph(2), exp_eps=3)
        >>> dp.contains(randomized_response(2, "3/4")).member, dp.contains(randomized_response(2, "4/5")).member
        (True, False)
        """
        self.check_method(method)
        M = self.check_mechanism(mechanism)
        tol = self._tol(atol)
        exact = self.exact and M.exact
        if exact and method in ("auto", "dp-row-inequalities") and factored_route(self._I, self._J, M):
            v = factored_violation(self._I, self._J, Fraction(self._ratio), M)
            return self._row_answer(v, M, lambda o: M.row(o), exact, tol)
        if exact and method in ("auto", "dp-row-inequalities"):
            C = M.int_columns
            v = violation_int(self._I, self._J, Fraction(self._ratio), C.numerators, C.denominators)
            return self._row_answer(v, M, lambda o: M.row(o), exact, tol)
        X = M.matrix if exact else M.float_matrix()
        if method == "row-cone":
            return rows_row_cone_membership(
                self,
                X,
                M.outputs,
                exact=exact,
                atol=tol,
                cone="DP row cone",
                detail="every row satisfies every facet of the DP row cone",
            )
        name = "fraction" if method == "fraction" else "dp-row-inequalities"
        return self._row_answer(
            violation(self._I, self._J, self._ratio, X, exact, tol), M, lambda o: X[o], exact, tol, name
        )

    def _row_answer(
        self, v: Violation | None, M: Mechanism, row: Any, exact: bool, tol: float, name: str = "dp-row-inequalities"
    ) -> Membership:
        if v is None:
            return Membership(
                member=True,
                method=name,
                exact=exact,
                detail=f"every row satisfies x_i ≤ {fraction_str(self._ratio)}·x_j on all "
                f"{len(self._I)} directed edges",
            )
        o, e = v
        cert = self._certificate(row(o), o, M.outputs[o], e, exact, tol)
        return Membership(
            member=False,
            method=name,
            exact=exact,
            certificate=cert,
            detail=f"row {M.outputs[o]!r} violates {cert.inequality}",
        )

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is the vector ``x`` in the DP row cone (``x ≥ 0`` and every edge inequality)?

        Examples
        --------
        >>> dp = DifferentialPrivacy.path(2, exp_eps=2)
        >>> dp.contains_row([1, 2, 4]).member, dp.contains_row([1, 3, 3]).certificate.inequality
        (True, 'x[1] ≤ 2·x[0]')
        """
        tol = self._tol(atol)
        vec, exact = as_vector(x, self.n_inputs, exact=self.exact)
        vec = np.array([Fraction(v) for v in vec], dtype=object) if exact else vec.astype(float)
        negative = self._negative_entry(vec, exact, tol, "dp-row-inequalities")
        if negative is not None:
            return negative
        if exact:
            num, den = int_columns(vec.reshape(1, -1))
            v = violation_int(self._I, self._J, Fraction(self._ratio), num, den)
        else:
            v = violation(self._I, self._J, self._ratio, vec.reshape(1, -1), exact, tol)
        if v is None:
            return Membership(
                member=True, method="dp-row-inequalities", exact=exact, detail="every edge inequality holds"
            )
        cert = self._certificate(vec, -1, "", v.edge, exact, tol)
        return Membership(
            member=False,
            method="dp-row-inequalities",
            exact=exact,
            certificate=cert,
            detail=f"x violates {cert.inequality}",
        )


def category_permutations(dp: DifferentialPrivacy) -> SymmetryGroup | None:
    """The permutations of the categories as a group of ε-DP on histograms, or None when it does not apply.

    A dataset of ``Domain.histograms(n, c)`` is a vector of counts ``(h_0, …, h_{c−1})``; permuting the categories
    permutes the histograms, and maps the ``replace-one`` relation (move one record from category ``a`` to ``b``) and
    the ``add-remove`` relation (add one record to category ``a``) onto themselves, so it maps every edge inequality
    ``x_i ≤ e^ε x_j`` to another one: an automorphism of the row cone (``docs/theory.md`` §7, "Histograms").
    The group is ``S_c`` of order ``c!``, generated by the transposition of the first two categories and the
    ``c``-cycle. Each generator is verified on the graph's edges (sorted codes, ``O(E log E)``), so a user graph on
    histogram labels that is not symmetric gets None (then the bounded graph search runs). The group is reported as
    a subgroup (``complete=False``): the graph may have more automorphisms (the complete graph has all of ``S_N``).

    Examples
    --------
    >>> G = category_permutations(DifferentialPrivacy("replace-one", exp_eps=2, inputs=Domain.histograms(2, 3)))
    >>> G.source, G.order, len(G.generators), G.complete
    ('category permutations', 6, 2, False)
    """
    named = dp._named
    dom = named[0] if named is not None else None
    if (
        not isinstance(dom, Domain)
        or dom.kind != "histograms"
        or tuple(dom.labels) != dp.inputs
        or dp.level.exp_eps == 1
    ):
        return None
    c = len(dom.values)
    if c < 2:
        return None
    pts = np.array(dom.points, dtype=np.int64)  # (N, c) counts
    radix = int(pts.max()) + 1 if len(pts) else 1
    weights = radix ** np.arange(c, dtype=np.int64)[::-1]
    codes = pts @ weights
    order = np.argsort(codes)
    sorted_codes = codes[order]
    I, J = dp.index_pairs
    n = len(dp.inputs)
    ref = np.sort(np.minimum(I, J) * n + np.maximum(I, J))
    gens: list[tuple[int, ...]] = []
    for perm in ([1, 0] + list(range(2, c)), list(range(1, c)) + [0]):
        if c == 2 and gens:
            break  # the transposition is the 2-cycle
        img_codes = pts[:, perm] @ weights
        pos = np.searchsorted(sorted_codes, img_codes)
        pos = np.minimum(pos, len(sorted_codes) - 1)
        if not np.array_equal(sorted_codes[pos], img_codes):
            return None
        p = order[pos]
        pa, pb = p[I], p[J]
        if not np.array_equal(np.sort(np.minimum(pa, pb) * n + np.maximum(pa, pb)), ref):
            return None
        gens.append(tuple(p.tolist()))
    return SymmetryGroup(
        labels=dp.inputs,
        generators=tuple(gens),
        source="category permutations",
        order=math.factorial(c),
        complete=False,
    )


def _dp_group(dp: Any, **options: Any) -> SymmetryGroup:
    """:func:`~privgeom.automorphisms` of ε-DP: the permutations of the categories on histograms
    (:func:`category_permutations`), else the structural groups and the bounded graph search."""
    known = category_permutations(dp) if isinstance(dp, DifferentialPrivacy) else None
    if (
        known is None
        and isinstance(dp, DifferentialPrivacy)
        and not dp.graph_built
        and dp.level.exp_eps != 1
        and dp.n_inputs > 2
        and dp._path_spec() is not None
    ):  # a named path on 0..n (n ≥ 2): the reversal v ↦ n − v
        n = dp.n_inputs
        return SymmetryGroup(
            labels=dp.inputs, generators=(tuple(range(n - 1, -1, -1)),), source="reversal", order=2, complete=True
        )
    return known if known is not None else dp_automorphisms(dp, **options)


# privgeom.automorphisms (geometry never imports definitions) and the closure of d.nearest's LP, beside the type
automorphisms.register(DifferentialPrivacy, _dp_group)


@closure_description.register(DifferentialPrivacy)
def _dp_description(definition: DifferentialPrivacy, exact: bool) -> ClosureDescription:
    return ClosureDescription(kind="rows", inequalities=nonunit_rows(definition.inequalities(exact)))
