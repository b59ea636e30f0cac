"""``pg.neighbour_graph``: the one public way to build or check a neighbour graph.

It is the resolution every ``graph=`` parameter uses, so it must give exactly the graphs of the standard shorthands
(same nodes, same edge order: witnesses break ties by edge order) and the same refusals.
"""

from __future__ import annotations

import networkx as nx
import pytest

import privgeom as pg
from privgeom.testing import complete_graph, hamming_graph, path_graph


def _same(a: nx.Graph, b: nx.Graph) -> bool:
    return list(a.nodes) == list(b.nodes) and list(a.edges) == list(b.edges)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_hamming_is_the_hypercube(k: int) -> None:
    G = pg.neighbour_graph("hamming", pg.Domain.bits(k))
    assert _same(G, hamming_graph(k)) and _same(G, pg.neighbour_graph(pg.Domain.bits(k), pg.Domain.bits(k)))
    assert G.number_of_edges() == k * 2 ** (k - 1)  # k·2^(k−1) edges of the k-cube


def test_path_complete_and_a_mechanisms_inputs() -> None:
    assert _same(pg.neighbour_graph("path", pg.Domain.counts(5)), path_graph(5))
    assert _same(pg.neighbour_graph("complete", [str(i) for i in range(4)]), complete_graph(4))
    M = pg.randomized_response(2, "3/4")
    assert _same(pg.neighbour_graph("hamming", M), hamming_graph(2))
    assert pg.neighbour_graph("complete", M).number_of_edges() == 6  # C(4, 2)


def test_user_graphs_are_checked_against_the_datasets() -> None:
    G = pg.neighbour_graph([("a", "b"), ("b", "c")], ["a", "b", "c"])
    assert list(G.nodes) == ["a", "b", "c"] and list(G.edges) == [("a", "b"), ("b", "c")]
    by_position = pg.neighbour_graph(nx.path_graph(3), ["a", "b", "c"], nodes="positions")
    assert sorted(map(sorted, by_position.edges)) == [["a", "b"], ["b", "c"]]
    with pytest.raises(pg.DomainMismatchError):
        pg.neighbour_graph(nx.path_graph(3), ["a", "b", "c"])  # integer nodes are never read as positions unasked


def test_refusals_name_the_value() -> None:
    with pytest.raises(pg.InvalidParameterError, match="hammming"):
        pg.neighbour_graph("hammming", pg.Domain.bits(2))
    with pytest.raises(pg.InvalidParameterError, match="hamming"):
        pg.neighbour_graph("hamming", ["0", "1", "2"])  # not bit strings: never silently another relation
    with pytest.raises(pg.SizeLimitError):
        pg.neighbour_graph("complete", [str(i) for i in range(10)], max_edges=44)  # C(10, 2) = 45 edges
    assert pg.neighbour_graph("complete", [str(i) for i in range(10)], max_edges=45).number_of_edges() == 45
