"""Neighbour graphs: which datasets are neighbours (differential privacy, Blowfish policies, relaxation).

Nodes are dataset labels (strings), matching :attr:`privgeom.Mechanism.inputs`. The standard graphs are the named
relations of :class:`privgeom.Domain` (``hamming_graph(k) == Domain.bits(k).relation("hamming")``). The public
function is :func:`neighbour_graph` (a relation name, a Domain or a user graph, on a set of datasets); everything that
takes a relation resolves it the same way, through :func:`privgeom._core.domain.resolve_graph`. ``hamming_graph``,
``path_graph`` and ``complete_graph`` are shorthands kept for the package's own use and its tests.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

import networkx as nx

from .._core.domain import Domain, InputsLike, RelationLike, resolve_graph
from .._core.errors import InvalidParameterError, InvalidTypeError

if TYPE_CHECKING:
    from ..mechanisms._mechanism import Mechanism

__all__ = [
    "hamming_graph",
    "path_graph",
    "complete_graph",
    "neighbour_graph",
    "edge_index_pairs",
    "standard_graph_spec",
]


def hamming_graph(k: int, *, max_edges: int | None = None) -> nx.Graph:
    """Bit strings of length ``k`` (reverse lexicographic order), edges between strings at Hamming distance 1.

    The neighbour relation of Lin & Kifer §V: relaxing randomized response onto these pairs gives ε-DP. It has
    ``k·2^(k−1)`` edges, refused before anything is built above ``max_edges`` (default
    :data:`privgeom._core.domain.MAX_GRAPH_EDGES`, i.e. ``k ≤ 15``).

    Examples
    --------
    >>> G = hamming_graph(2)
    >>> list(G.nodes), sorted(map(sorted, G.edges))
    (['11', '10', '01', '00'], [['00', '01'], ['00', '10'], ['01', '11'], ['10', '11']])
    """
    from ..mechanisms._factories import check_k

    check_k(k)
    return Domain.bits(k).relation("hamming", max_edges=max_edges)


def path_graph(n: int) -> nx.Graph:
    """Counts ``0..n`` with edges ``{c, c+1}`` (a count query whose value changes by one per neighbour).

    Examples
    --------
    >>> list(path_graph(3).edges)
    [('0', '1'), ('1', '2'), ('2', '3')]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidParameterError(f"path_graph needs an integer n >= 1, got {n!r}")
    return Domain.counts(n).relation("path")


def complete_graph(labels: int | Sequence[Any]) -> nx.Graph:
    """Every pair of datasets are neighbours (local DP on one record with ``n`` values).

    Examples
    --------
    >>> complete_graph(3).number_of_edges(), list(complete_graph(["a", "b"]).edges)
    (3, [('a', 'b')])
    """
    if isinstance(labels, bool):
        raise InvalidTypeError(f"complete_graph takes a number of datasets or a list of labels, got {labels!r}")
    if isinstance(labels, int):
        if labels < 2:
            raise InvalidParameterError(f"complete_graph needs at least 2 datasets, got {labels}")
        nodes = [str(i) for i in range(labels)]
    else:
        nodes = [str(x) for x in labels]
    if not nodes:
        raise InvalidParameterError("complete_graph needs at least one dataset")
    return Domain.from_labels(nodes).relation("complete", max_edges=len(nodes) * (len(nodes) - 1) // 2)


def neighbour_graph(
    relation: RelationLike, inputs: InputsLike | Mechanism, *, nodes: str = "labels", max_edges: int | None = None
) -> nx.Graph:
    """The neighbour graph of a relation on a set of datasets: the one public way to build or check a graph.

    Every ``graph=``/``relation=`` parameter of the package resolves its argument this way
    (:func:`privgeom._core.domain.resolve_graph`), so ``neighbour_graph(relation, inputs)`` shows exactly which
    pairs of datasets a call treats as neighbours.

    Parameters
    ----------
    relation : str, Domain, networkx.Graph or iterable of label pairs
        A relation name (``"hamming"``, ``"replace-one"``, ``"add-remove"``, ``"path"``, ``"complete"``; a string
        is always a name, never an iterable of nodes), a :class:`~privgeom.Domain` (its default relation:
        ``hamming`` for bits, ``path`` for counts, ``replace-one`` for databases and histograms), or a user graph
        (a networkx graph or an edge list), validated against the datasets. Any graph gives a Blowfish-style DP
        policy (Lin & Kifer, Section V; He, Machanavajjhala & Ding, Blowfish privacy).
    inputs : Domain, Mechanism or sequence of str
        The datasets: a :class:`~privgeom.Domain` (``Domain.bits(k)``, ``Domain.counts(n)``, …), a mechanism (its
        columns) or a list of labels.
    nodes : {"labels", "positions"}
        How a user graph's nodes name the datasets: their labels, compared as strings (default; a node that is not
        one is an error naming the nodes and the labels), or integer column positions — only when asked for.
    max_edges : int, optional
        Refuse a named relation with more edges before building it (default: the ``graph_edges`` size limit).

    Returns
    -------
    networkx.Graph
        Nodes are the dataset labels, in the order of ``inputs``.

    Raises
    ------
    InvalidParameterError
        An unknown relation name, or one that does not apply to the datasets (``hamming`` on labels that are not
        bit strings); the message lists the valid relations.
    DomainMismatchError
        A node that is not one of the datasets (not a position with ``nodes="positions"``).
    InvalidTypeError
        Something that is neither a relation name, a Domain, a graph nor an edge list.

    Examples
    --------
    >>> from privgeom import Domain
    >>> G = neighbour_graph("hamming", Domain.bits(2))
    >>> list(G.nodes), sorted(map(sorted, G.edges))
    (['11', '10', '01', '00'], [['00', '01'], ['00', '10'], ['01', '11'], ['10', '11']])
    >>> list(neighbour_graph(Domain.counts(3), Domain.counts(3)).edges)
    [('0', '1'), ('1', '2'), ('2', '3')]
    >>> neighbour_graph("complete", ["a", "b", "c"]).number_of_edges()
    3
    >>> G = neighbour_graph([("a", "b"), ("b", "c")], ["a", "b", "c"])
    >>> list(G.nodes), sorted(map(sorted, G.edges))
    (['a', 'b', 'c'], [['a', 'b'], ['b', 'c']])
    >>> sorted(map(sorted, neighbour_graph(nx.path_graph(3), ["a", "b", "c"], nodes="positions").edges))
    [['a', 'b'], ['b', 'c']]
    """
    return resolve_graph(relation, inputs, max_edges=max_edges, nodes=nodes)


def edge_index_pairs(graph: nx.Graph, inputs: Sequence[str]) -> list[tuple[int, int]]:
    """Edges of a validated neighbour graph as sorted ``(i, j)`` column-index pairs (``i < j``)."""
    import numpy as np

    index = {s: i for i, s in enumerate(inputs)}
    E = graph.number_of_edges()
    if E == 0:
        return []
    flat = np.fromiter((index[x] for e in graph.edges for x in e), dtype=np.int64, count=2 * E).reshape(E, 2)
    pairs = np.unique(np.sort(flat, axis=1), axis=0)  # lexicographic, as sorted tuples
    return list(zip(pairs[:, 0].tolist(), pairs[:, 1].tolist()))


def standard_graph_spec(graph: nx.Graph) -> str | None:
    """``"graph=hamming,k=2"`` / ``"graph=path,n=5"`` / ``"graph=complete,n=4"`` for the standard graphs, else None.

    Decided from the graph's name, its node order and its edges in ``O(V + E)``, without building a reference graph.

    Examples
    --------
    >>> standard_graph_spec(hamming_graph(2)), standard_graph_spec(nx.Graph([("a", "b")]))
    ('graph=hamming,k=2', None)
    """
    m = re.fullmatch(r"(hamming|path|complete)\((\d+)\)", str(getattr(graph, "name", "") or ""))
    if not m:
        return None
    kind, size = m.group(1), int(m.group(2))
    if graph.is_directed() or graph.is_multigraph():
        return None
    if kind == "hamming":
        if not 1 <= size <= 26:
            return None
        n_nodes, n_edges = 1 << size, size << (size - 1)
    elif kind == "path":
        if size < 1:
            return None
        n_nodes, n_edges = size + 1, size
    else:
        if size < 2:
            return None
        n_nodes, n_edges = size, size * (size - 1) // 2
    if graph.number_of_nodes() != n_nodes or graph.number_of_edges() != n_edges:
        return None
    nodes = [str(v) for v in graph.nodes]
    labels = Domain.bits(size).labels if kind == "hamming" else tuple(str(c) for c in range(n_nodes))
    if tuple(nodes) != labels or any(not isinstance(v, str) for v in graph.nodes):
        return None
    if kind == "path" and any(abs(int(u) - int(v)) != 1 for u, v in graph.edges):
        return None
    if kind == "hamming" and any(bin(int(u, 2) ^ int(v, 2)).count("1") != 1 for u, v in graph.edges):
        return None
    if any(u == v for u, v in graph.edges):  # a complete simple graph has no loops: the count then decides
        return None
    return f"graph={kind},{'k' if kind == 'hamming' else 'n'}={size}"
