"""The neighbour relations of ``privgeom/_core/relations.py`` (split out of ``_core/domain.py``): the edges
and graph names of the named relations, against closed forms and against the graphs :class:`~privgeom.Domain`
builds."""

from __future__ import annotations

from math import comb

import pytest

from privgeom import Domain
from privgeom._core import domain, relations


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_bit_labels_are_the_bits_domain(k: int) -> None:
    labels = relations.bit_labels(k)
    assert labels == Domain.bits(k).labels and len(set(labels)) == 2**k


@pytest.mark.parametrize(
    ("dom", "name", "edges"),
    [
        (Domain.bits(3), "hamming", 3 * 2**2),  # k 2^(k-1)
        (Domain.counts(4), "path", 4),
        (Domain.databases(2, 3), "replace-one", 9 * 4 // 2),  # 9 databases, each with 2 records × 2 other values
        (Domain.histograms(2, 3), "replace-one", 9),  # compositions of 2 into 3 parts, one unit moved
        (Domain.databases(1, 2, up_to=True), "add-remove", 2),
        (Domain.from_labels(["a", "b", "c", "d"]), "complete", comb(4, 2)),
    ],
)
def test_relation_edges_match_the_built_graph(dom: Domain, name: str, edges: int) -> None:
    listed = list(relations.relation_edges(dom, name))
    assert len(listed) == len(set(map(frozenset, listed))) == edges == dom.n_edges(name)
    assert set(map(frozenset, listed)) == set(map(frozenset, dom.relation(name).edges))


def test_graph_names() -> None:
    assert relations.graph_name(Domain.bits(2), "hamming") == Domain.bits(2).relation("hamming").name == "hamming(2)"
    assert relations.graph_name(Domain.from_labels(["11", "10", "01", "00"]), "hamming") == "hamming(2)"
    assert relations.graph_name(Domain.from_labels(["00", "01", "10", "11"]), "hamming") == "hamming"  # other order
    assert relations.graph_name(Domain.from_labels(["0", "1", "2"]), "path") == "path(2)"
    assert relations.graph_name(Domain.counts(3), "complete") == "complete(4)"


def test_domain_keeps_its_names() -> None:
    assert domain.validate_graph is relations.validate_graph and domain.NODE_READINGS == ("labels", "positions")
