"""Neighbour relations on datasets: the edges of the named relations and the validation of user graphs.

The edges of a named relation on a :class:`~privgeom.Domain` (:func:`relation_edges`, in a fixed order, each once)
and the name of its graph (:func:`graph_name`), which :meth:`~privgeom.Domain.relation` builds into a networkx graph
after its size check; :func:`validate_graph`, the one validation of a user graph or edge list against the dataset
labels (the body of :func:`privgeom.neighbour_graph` for graphs, through ``domain.resolve_graph``). The relations
are the neighbour graphs of differential privacy (Dwork & Roth, Definition 2.4: replace-one and add-remove), of Lin &
Kifer's Section V (Hamming graph on bit strings) and of the smoothed-DP paper of Liu, Wang & Xia (``docs/theory.md``
§7, §10).

Examples
--------
>>> bit_labels(2)
('11', '10', '01', '00')
>>> list(_one_position_edges(bit_labels(2)))
[('11', '01'), ('11', '10'), ('10', '00'), ('01', '00')]
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol, Sequence, TypeAlias, Union

import numpy as np

from .errors import DomainMismatchError, InvalidParameterError, InvalidTypeError

if TYPE_CHECKING:
    import networkx as nx


__all__ = ["GraphLike", "NODE_READINGS", "validate_graph", "relation_edges", "graph_name", "bit_labels"]

#: A user neighbour graph: a networkx graph or an iterable of pairs of dataset labels (integer nodes are read as
#: column indices when the labels are not integers); validated by :func:`validate_graph`.
GraphLike: TypeAlias = Union["nx.Graph", Iterable[Sequence[Any]]]  # networkx is imported on first use


class Datasets(Protocol):
    """What the relations read of a :class:`~privgeom.Domain`: the kind of datasets, their labels, record values and
    structure points, and the sizes ``n`` and ``k`` (read structurally, so this module needs nothing above it)."""

    @property
    def kind(self) -> str: ...

    @property
    def labels(self) -> tuple[str, ...]: ...

    @property
    def n(self) -> int | None: ...

    @property
    def values(self) -> tuple[str, ...]: ...

    @property
    def points(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def k(self) -> int | None: ...

    def __len__(self) -> int: ...


def bit_labels(k: int) -> tuple[str, ...]:
    """The ``2^k`` bit strings of length ``k`` in reverse lexicographic order (the labels of ``Domain.bits(k)``)."""
    n = 1 << k
    return tuple(format(n - 1 - i, f"0{k}b") for i in range(n))


def _one_position_edges(labels: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Pairs of bit strings differing in one bit, in the order of ``Domain.bits(k).relation("hamming")`` (``O(N·k)``).

    For each label in order, its one-bit flips in position order; each edge once, from its earlier end.
    """
    order = {s: i for i, s in enumerate(labels)}
    for i, s in enumerate(labels):
        for j in range(len(s)):
            t = s[:j] + ("0" if s[j] == "1" else "1") + s[j + 1 :]
            if order.get(t, -1) > i:
                yield s, t


def relation_edges(dom: Datasets, name: str) -> Iterator[tuple[str, str]]:
    """The edges of the named relation ``name`` (already checked to apply) on ``dom``, each once, in a fixed order:
    Dwork & Roth, Definition 2.4 (replace-one, add-remove), Lin & Kifer, Section V (Hamming), ``docs/theory.md`` §7."""
    L = dom.labels
    if name == "complete":
        return itertools.combinations(L, 2)
    if name == "path" or (name == "replace-one" and dom.kind == "counts"):
        return zip(L, L[1:])
    if dom.kind == "bits" or (name == "hamming" and dom.kind == "labels"):
        return _one_position_edges(L)
    if name in ("hamming", "replace-one") and dom.kind == "databases":  # replace one record by another value
        return _point_edges(
            dom,
            lambda p: (p[:j] + (r,) + p[j + 1 :] for j in range(len(p)) for r in range(len(dom.values)) if r != p[j]),
        )
    if name == "replace-one" and dom.kind == "histograms":
        c = len(dom.values)
        return _point_edges(
            dom,
            lambda p: (
                tuple(v + (i == a) - (i == b) for i, v in enumerate(p))
                for a in range(c)
                for b in range(c)
                if a != b and p[b] > 0
            ),
        )
    if name == "add-remove" and dom.kind == "databases":
        return _point_edges(
            dom,
            lambda p: (p + (r,) for r in range(len(dom.values))),
            directed=True,
            extra=lambda p: (p[:j] + p[j + 1 :] for j in range(len(p))),
        )
    if name == "add-remove" and dom.kind == "histograms":
        c = len(dom.values)
        return _point_edges(dom, lambda p: (tuple(v + (i == a) for i, v in enumerate(p)) for a in range(c)))
    raise InvalidParameterError(f"relation {name!r} is not defined on {dom.kind}")  # pragma: no cover


def _point_edges(
    dom: Datasets,
    moves: Callable[[tuple[int, ...]], Iterable[tuple[int, ...]]],
    directed: bool = False,
    extra: Callable[[tuple[int, ...]], Iterable[tuple[int, ...]]] | None = None,
) -> Iterator[tuple[str, str]]:
    """Edges between the datasets whose structure points are one ``move`` (or ``extra`` move) apart."""
    where = {p: i for i, p in enumerate(dom.points)}
    seen: set[tuple[int, int]] = set()
    for i, p in enumerate(dom.points):
        cands = itertools.chain(moves(p), extra(p) if extra else ())
        for q in cands:
            j = where.get(q)
            if j is None or j == i:
                continue
            key = (min(i, j), max(i, j))
            if key in seen:
                continue
            seen.add(key)
            yield dom.labels[key[0]], dom.labels[key[1]]


def graph_name(dom: Datasets, name: str) -> str:
    """The name of the graph of a named relation on ``dom`` (``hamming(3)``, ``path(4)``, ``replace-one(database)``,
    ``complete(5)``, …), as :meth:`Domain.relation` names it."""
    N = len(dom)
    if name == "complete":
        return f"complete({N})"
    if dom.kind == "bits":
        return f"hamming({dom.n})"
    if dom.kind == "counts" and name in ("path", "replace-one"):
        return f"path({dom.n})"
    if dom.kind == "databases":
        return f"{name}(database)"
    if dom.kind == "histograms":
        return f"{name}(histogram)"
    if name == "hamming":
        k = dom.k or 1
        return f"hamming({k})" if len(dom.labels) == 1 << k and dom.labels == bit_labels(k) else "hamming"
    return f"path({N - 1})" if dom.labels == tuple(str(c) for c in range(N)) else f"{name}"


#: How :func:`validate_graph` reads the nodes of a user graph: ``"labels"`` (the default: every node is a dataset
#: label, compared as a string) or ``"positions"`` (every node is an integer column position ``0 .. n-1`` of the
#: datasets, e.g. a ``networkx.path_graph(4)`` over randomized response's ``11, 10, 01, 00``).
NODE_READINGS = ("labels", "positions")


def _is_position(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def graph_nodes(graph: GraphLike) -> list[Any]:
    """The datasets a graph or an edge list names, in order: a graph's node order, else the order in which the pairs
    first name them (the datasets of a relation given without them, as ``DifferentialPrivacy(edges)`` reads it).

    Examples
    --------
    >>> graph_nodes([("b", "c"), ("a", "b")])
    ['b', 'c', 'a']
    """
    import networkx as nx  # noqa: F811 - loaded on first use (start-up time)

    if isinstance(graph, nx.Graph):
        return list(graph.nodes)
    try:
        edges = [tuple(e) for e in graph]
    except TypeError:
        raise InvalidTypeError(
            f"a neighbour relation must be a networkx graph or a list of pairs, got {graph!r}"
        ) from None
    out: list[Any] = []
    seen: set[Any] = set()
    for e in edges:
        for v in e:
            if not isinstance(v, Hashable) or v not in seen:
                out.append(v)
                if isinstance(v, Hashable):
                    seen.add(v)
    return out


def _labelled_copy(graph: Any, labels: list[str]) -> nx.Graph | None:
    """A simple undirected graph whose nodes are exactly the string ``labels``, copied in label order with its
    edges as they are (nothing left to check edge by edge); None when the graph needs the general validation."""
    import networkx as nx  # noqa: F811

    if not isinstance(graph, nx.Graph) or graph.is_directed() or graph.is_multigraph():
        return None
    if graph.number_of_nodes() != len(labels) or not all(isinstance(v, str) for v in graph):
        return None
    if set(graph) != set(labels) or nx.number_of_selfloops(graph):
        return None
    G = nx.Graph(name=getattr(graph, "name", "") or "user graph")
    G.add_nodes_from(labels)
    G.add_edges_from(graph.edges)
    return G


def validate_graph(graph: GraphLike, inputs: Sequence[str], *, nodes: str = "labels") -> nx.Graph:
    """A user graph (networkx graph or iterable of label pairs) validated against the dataset labels ``inputs``.

    ``nodes="labels"`` (default): every node must be one of the labels (compared as strings, so the integer node
    ``3`` is the count ``"3"``); a node that is not is an error naming the nodes and the labels, never a silent
    guess. ``nodes="positions"``: every node must be an integer column position ``0 .. n-1``, read as
    ``inputs[position]`` — only when asked for. (The body of :func:`privgeom.neighbour_graph`, which also accepts
    relation names; kept here so this module needs no layer above it.)

    Raises
    ------
    DomainMismatchError
        A node that is not a label (``nodes="labels"``) or not a position (``nodes="positions"``).
    InvalidParameterError
        ``nodes`` not in :data:`NODE_READINGS`.

    Examples
    --------
    >>> sorted(map(sorted, validate_graph([("a", "b"), ("b", "c")], ["a", "b", "c"]).edges))
    [['a', 'b'], ['b', 'c']]
    >>> sorted(map(sorted, validate_graph([(0, 1), (1, 2)], ["a", "b", "c"], nodes="positions").edges))
    [['a', 'b'], ['b', 'c']]
    >>> validate_graph([(0, 1)], ["a", "b", "c"])
    Traceback (most recent call last):
    ...
    privgeom._core.errors.DomainMismatchError: the neighbour graph's nodes [0, 1] are not the datasets' labels ['a', 'b', 'c']; if they are column positions (0 = 'a'), say so with nodes='positions'
    """
    if nodes not in NODE_READINGS:
        raise InvalidParameterError(
            f"nodes={nodes!r}: read graph nodes as one of {', '.join(map(repr, NODE_READINGS))}"
        )
    import networkx as nx  # noqa: F811 - loaded on first use (start-up time)

    labels = [str(x) for x in inputs]
    label_set = set(labels)
    if nodes == "labels":
        copied = _labelled_copy(graph, labels)
        if copied is not None:
            return copied
    node_list = graph_nodes(graph)
    edges: Iterable[Any] = graph.edges if isinstance(graph, nx.Graph) else [tuple(e) for e in graph]

    if nodes == "positions":
        bad = [v for v in node_list if not (_is_position(v) and 0 <= v < len(labels))]
        if bad:
            raise DomainMismatchError(
                f"the neighbour graph's nodes {_few(bad)} are not column positions 0..{len(labels) - 1} "
                f"of the datasets {_few(labels)} (nodes='positions')"
            )
    else:
        bad = [v for v in node_list if str(v) not in label_set]
        if bad:
            positions = all(_is_position(v) and 0 <= v < len(labels) for v in node_list)
            hint = (
                f"; if they are column positions (0 = {labels[0]!r}), say so with nodes='positions'"
                if positions and labels
                else ""
            )
            raise DomainMismatchError(
                f"the neighbour graph's nodes {_few(bad)} are not the datasets' labels {_few(labels)}{hint}"
            )

    def name(v: Any) -> str:
        return labels[int(v)] if nodes == "positions" else str(v)

    G = nx.Graph(name=getattr(graph, "name", "") or "user graph")
    G.add_nodes_from(labels)
    for e in edges:
        if len(e) != 2:
            raise InvalidTypeError(f"a neighbour pair must have two datasets, got {e!r}")
        u, v = name(e[0]), name(e[1])
        if u == v:
            raise DomainMismatchError(f"a dataset cannot be its own neighbour: {u!r}")
        G.add_edge(u, v)
    return G


def _few(values: Sequence[Any], shown: int = 8) -> str:
    """``[a, b, …]`` with at most ``shown`` values, then how many more."""
    head = list(values[:shown])
    return repr(head) if len(values) <= shown else f"{repr(head)[:-1]}, … ({len(values) - shown:,} more)]"
