"""Domain: labels reproduce the package's orders; relations reproduce the old graph builders; no silent guesses."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
from privgeom import Domain, DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from privgeom.testing import hamming_graph, path_graph
from privgeom.testing import bit_strings


def _edges(G: nx.Graph) -> set[frozenset[str]]:
    return {frozenset(e) for e in G.edges}


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_bits_reproduce_randomized_response_and_hamming_graph(k: int) -> None:
    D = Domain.bits(k)
    assert D.labels == pg.randomized_response(k, "3/4").inputs == tuple(bit_strings(k))
    assert D.is_bits and D.k == k and len(D) == 2**k
    G, old = D.relation("hamming"), hamming_graph(k)
    assert list(G.nodes) == list(old.nodes) and list(G.edges) == list(old.edges)  # same order: same tie-breaking
    assert G.name == old.name == f"hamming({k})"
    assert D.n_edges("hamming") == G.number_of_edges() == k * 2 ** (k - 1)
    assert _edges(D.relation("replace-one")) == _edges(G)
    for u, v in G.edges:  # theory: neighbours differ in exactly one bit
        assert sum(a != b for a, b in zip(u, v)) == 1


@pytest.mark.parametrize("n", [1, 2, 5])
def test_counts_path_is_path_graph(n: int) -> None:
    D = Domain.counts(n)
    assert D.labels == tuple(str(c) for c in range(n + 1))
    G = D.relation("path")
    assert list(G.edges) == list(path_graph(n).edges) and G.name == f"path({n})"
    assert D.relation("complete").number_of_edges() == (n + 1) * n // 2 == D.n_edges("complete")


@pytest.mark.parametrize("n,records", [(1, 2), (2, 2), (3, 2), (2, 3), (2, ["a", "b", "c"])])
def test_databases_reproduce_smoothed_labels_and_default_graph(n: int, records: object) -> None:
    D = Domain.databases(n, records)
    recs = list(range(records)) if isinstance(records, int) else records
    assert list(D.labels) == ["(" + ",".join(map(str, x)) + ")" for x in itertools.product(recs, repeat=n)]
    G = D.relation("replace-one")
    assert G.name == "replace-one(database)"
    for u, v in G.edges:  # theory: neighbours differ in exactly one record
        assert sum(a != b for a, b in zip(u.strip("()").split(","), v.strip("()").split(","))) == 1
    # closed form: N·n·(m−1)/2 edges (each record changes to one of m−1 other values)
    m = len(recs)
    assert G.number_of_edges() == m**n * n * (m - 1) // 2 == D.n_edges("replace-one")


@pytest.mark.parametrize("n,c", [(1, 2), (2, 2), (3, 2), (3, 3), (2, 4)])
def test_histograms_reproduce_smoothed_labels_and_default_graph(n: int, c: int) -> None:
    D = Domain.histograms(n, c)
    assert [tuple(map(int, s.strip("[]").split(","))) for s in D.labels] == sorted(
        (h for h in itertools.product(range(n + 1), repeat=c) if sum(h) == n), reverse=True
    )
    G = D.relation("replace-one")
    assert G.name == "replace-one(histogram)"
    for u, v in G.edges:  # theory: one unit moved between categories ⇒ ℓ1 distance 2
        hu, hv = (list(map(int, s.strip("[]").split(","))) for s in (u, v))
        assert sum(abs(a - b) for a, b in zip(hu, hv)) == 2


def test_voting_profiles_are_bits() -> None:
    from privgeom import voting

    M = voting.mechanism(voting.majority(3), "1/2")
    assert M.inputs == Domain.bits(3).labels


def test_add_remove_closed_forms() -> None:
    # databases of size 0..n over m values: each database of size s < n has m supersets by appending
    D = Domain.databases(2, 2, up_to=True)
    assert D.labels[:3] == ("()", "(0)", "(1)") and "add-remove" in D.relations
    G = D.relation("add-remove")
    for u, v in G.edges:
        a, b = sorted(
            (u.strip("()").split(",") if u != "()" else [], v.strip("()").split(",") if v != "()" else []), key=len
        )
        assert len(b) == len(a) + 1 and any(b[:j] + b[j + 1 :] == a for j in range(len(b)))
    H = Domain.histograms(3, 3, up_to=True).relation("add-remove")
    # every histogram of total s < 3 gains one record in one of 3 categories: Σ_{s<3} C(s+2,2)·3 edges
    assert H.number_of_edges() == sum((s + 2) * (s + 1) // 2 * 3 for s in range(3))
    assert "add-remove" not in Domain.histograms(3, 3).relations
    with pytest.raises(InvalidParameterError, match="does not apply"):
        Domain.histograms(3, 3).relation("add-remove")


def test_plain_labels_hamming_only_on_bit_strings() -> None:
    D = Domain.labels(["11", "10", "01", "00"])
    assert D.kind == "labels" and D.is_bits and D.k == 2
    assert list(D.relation("hamming").edges) == list(hamming_graph(2).edges)
    assert D.relation("hamming").name == "hamming(2)"
    sub = Domain.labels(["111", "101", "000"])  # a subset of bit strings: one-bit pairs only
    assert _edges(sub.relation("hamming")) == {frozenset(("111", "101"))}
    for labels in (["0", "1", "2", "3"], ["ab", "ac"], ["1", "10"]):
        D = Domain.labels(labels)
        assert not D.is_bits and "hamming" not in D.relations
        with pytest.raises(InvalidParameterError, match=r"'hamming' does not apply.*'path', 'complete'"):
            D.relation("hamming")


def test_resolve_graph_string_is_a_name_never_nodes() -> None:
    inputs = ("11", "10", "01", "00")
    for name in ("complete", "hamming", "path"):
        G = pg.neighbour_graph(name, inputs)
        assert set(G.nodes) == set(inputs)
    with pytest.raises(InvalidParameterError) as err:
        pg.neighbour_graph("hammming", inputs)
    msg = str(err.value)
    assert "'hammming'" in msg and all(f"'{r}'" in msg for r in Domain.labels(inputs).relations)
    with pytest.raises(InvalidTypeError):
        pg.neighbour_graph(None, inputs)


def test_resolve_graph_accepts_domain_graph_and_edge_list() -> None:
    inputs = Domain.bits(2).labels
    a = pg.neighbour_graph("hamming", inputs)
    b = pg.neighbour_graph(Domain.bits(2), inputs)
    c = pg.neighbour_graph(hamming_graph(2), inputs)
    d = pg.neighbour_graph(list(hamming_graph(2).edges), inputs)
    assert _edges(a) == _edges(b) == _edges(c) == _edges(d)
    with pytest.raises(DomainMismatchError):
        pg.neighbour_graph(Domain.counts(3), inputs)
    with pytest.raises(DomainMismatchError):
        pg.neighbour_graph([("11", "zz")], inputs)


def test_size_limits_refuse_before_building() -> None:
    D = Domain.labels(range(2000))
    assert D.n_edges("complete") == 1999000
    with pytest.raises(SizeLimitError, match="max_edges"):
        D.relation("complete")
    assert Domain.labels(range(30)).relation("complete", max_edges=435).number_of_edges() == 435
    with pytest.raises(SizeLimitError):
        Domain.bits(40)
    with pytest.raises(SizeLimitError):
        Domain.databases(30, 3)


@pytest.mark.parametrize("bad", [True, 1.5, "3", None])
def test_bad_sizes_are_typed(bad: object) -> None:
    with pytest.raises((InvalidTypeError, InvalidParameterError)):
        Domain.bits(bad)  # type: ignore[arg-type]
    with pytest.raises((InvalidTypeError, InvalidParameterError)):
        Domain.counts(bad)  # type: ignore[arg-type]


def test_domain_is_immutable_sequence() -> None:
    D = Domain.counts(2)
    assert list(D) == ["0", "1", "2"] and "1" in D and D.index("2") == 2
    with pytest.raises(DomainMismatchError):
        D.index("7")
    with pytest.raises(Exception):
        D.n = 5  # type: ignore[misc]
    with pytest.raises(Exception):
        Domain.labels(["a", "a"])
    with pytest.raises(InvalidTypeError):
        Domain.labels("abc")
    assert Domain.counts(2) == Domain.counts(2) and hash(Domain.counts(2)) == hash(Domain.counts(2))
    assert len(list(itertools.islice(D, 2))) == 2


@given(st.text(max_size=20))
def test_fuzz_relation_names_are_names_or_one_error(name: str) -> None:
    D = Domain.bits(2)
    try:
        G = pg.neighbour_graph(name, D)
    except InvalidParameterError as err:
        assert "valid relations" in str(err)
        return
    assert name.strip().lower() in D.relations and set(G.nodes) == set(D.labels)


# ---------------------------------------------------------------------- graph nodes are labels
def test_integer_nodes_are_never_silently_read_as_positions() -> None:
    """``pg.epsilon(pg.randomized_response(2, "3/4"), nx.path_graph(4))`` returned ln 9: the nodes 0..3 were read as
    the columns 11, 10, 01, 00. A graph whose nodes are not the labels is an error naming both."""
    M = pg.randomized_response(2, "3/4")
    with pytest.raises(DomainMismatchError) as err:
        pg.epsilon(M, nx.path_graph(4))
    msg = str(err.value)
    assert "nodes [0, 1, 2, 3]" in msg and "['11', '10', '01', '00']" in msg and "nodes='positions'" in msg
    with pytest.raises(DomainMismatchError, match=r"nodes \[0, 1\] are not the datasets' labels"):
        pg.DifferentialPrivacy([(0, 1)], exp_eps=3, inputs=["a", "b"])
    # asked for explicitly: the path 11 - 10 - 01 - 00, whose pair 10, 01 differs in two bits: ratio 9 (exact)
    G = pg.neighbour_graph(nx.path_graph(4), M, nodes="positions")
    assert _edges(G) == {frozenset(e) for e in [("11", "10"), ("10", "01"), ("01", "00")]}
    assert pg.epsilon(M, G).level.eps == pg.LogRational(9)
    assert pg.epsilon(M, hamming_graph(2)).level.eps == pg.LogRational(3)  # the labelled graph: ln 3


def test_positions_must_be_positions_and_labels_that_look_like_integers_still_match() -> None:
    counts = Domain.counts(3)  # labels "0".."3": the integer node 2 is the label "2", not a position
    assert _edges(pg.neighbour_graph(nx.path_graph(4), counts)) == _edges(counts.relation("path"))
    with pytest.raises(DomainMismatchError, match=r"nodes \[4\] are not column positions 0..3"):
        pg.neighbour_graph([(3, 4)], counts, nodes="positions")
    with pytest.raises(DomainMismatchError, match="not column positions"):
        pg.neighbour_graph([("0", "1")], counts, nodes="positions")  # strings are labels, not positions
    with pytest.raises(InvalidParameterError, match="nodes='indices'"):
        pg.neighbour_graph([(0, 1)], counts, nodes="indices")
    with pytest.raises(DomainMismatchError, match=r"nodes \['x'\] are not the datasets' labels") as err:
        pg.neighbour_graph([("0", "x")], counts)
    assert "positions" not in str(err.value)  # 'x' is no position either: no misleading hint
