"""ε-DP on a named path without a networkx graph: the index-arithmetic route against the graph route.

The route is checked against the graph route it replaces (``Domain.relation_pairs`` switched off: the graph is built
in the definition and the relaxation family is read from it) on the whole ``analyze`` report, text and JSON; the work
is counted by forbidding graph construction; the sparse guarantees are checked against the dense ones.
"""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

import privgeom as pg
from privgeom._core import domain as _domain
from privgeom.analyses.guarantees._semantics import SparseNormal, sparse_difference_facet
from privgeom import Guarantee, semantics
from privgeom.analyses.guarantees._summary import _involution_orbits
from privgeom import describe_row_cone
from privgeom.cli import main
from privgeom.definitions import DifferentialPrivacy, parse_definition
from privgeom.geometry._structure import normalised_facet, structured_facet
from privgeom.results import SymmetryGroup
from privgeom.testing import path_graph


def _analyze(capsys, *argv):
    code = main(["analyze", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _graph_route(monkeypatch):
    """Switch the arithmetic route off: every relation is built as a graph, as before."""
    monkeypatch.setattr(_domain.Domain, "relation_pairs", lambda self, relation: None)


@pytest.mark.parametrize("n, level", [(10, "exp_eps=2"), (100, "exp_eps=3/2"), (100, "eps=0.5"), (1000, "exp_eps=2")])
def test_analyze_text_and_json_match_the_graph_route(capsys, monkeypatch, n, level):
    spec = f"dp:graph=path,n={n},{level}"
    new = [_analyze(capsys, spec), _analyze(capsys, spec, "--json")]
    with monkeypatch.context() as m:
        _graph_route(m)
        assert parse_definition(spec).graph_built  # the old route really ran
        old = [_analyze(capsys, spec), _analyze(capsys, spec, "--json")]
    assert new == old


def test_analyze_builds_no_graph_on_the_path(capsys, monkeypatch):
    built = []
    monkeypatch.setattr(
        nx.Graph,
        "add_edges_from",
        lambda self, *a, **k: built.append(a) or pytest.fail("a networkx graph was built on the path route"),
    )
    out = _analyze(capsys, "dp:graph=path,n=3000,exp_eps=2")
    assert "6000 facets" in out and "3000 orbits" in out and "none lost" in out
    assert built == []
    dp = parse_definition("dp:graph=path,n=3000,exp_eps=2")
    s = describe_row_cone(dp)
    assert [o.members for o in s.facet_orbits[:2]] == [(0, 5999), (1, 5998)]  # i→i+1 ↔ n−i→n−i−1
    assert len(semantics(dp)[0].s_plus) == 1 and not dp.graph_built


def test_path_edges_are_the_graph_edges():
    dp = DifferentialPrivacy("path", exp_eps=2, inputs=pg.Domain.counts(6))
    ref = DifferentialPrivacy(path_graph(6), exp_eps=2)
    assert not dp.graph_built
    assert [a.tolist() for a in dp.index_pairs] == [a.tolist() for a in ref.index_pairs]
    assert dp.edges == ref.edges and dp.spec() == ref.spec() and dp.name == ref.name
    fwd, _ = dp.pair_bounds([0, 0, 5, 2], [6, 1, 2, 2])
    assert fwd.tolist() == ref.pair_bounds([0, 0, 5, 2], [6, 1, 2, 2])[0].tolist() == [64, 2, 8, 1]
    assert not dp.graph_built
    assert nx.utils.graphs_equal(dp.graph, ref.graph) and dp.graph_built


def test_graph_edges_limit_applies_when_the_graph_is_built(monkeypatch):
    monkeypatch.setattr(_domain, "MAX_GRAPH_EDGES", 10)
    dp = parse_definition("dp:graph=path,n=20,exp_eps=2")  # two index arrays: not a graph, not refused
    assert dp.row_cone().n_facets == 40
    with pytest.raises(pg.SizeLimitError, match="graph_edges"):
        dp.graph
    with pytest.raises(pg.SizeLimitError):
        parse_definition("dp:graph=hamming,k=4,exp_eps=2")  # 32 edges, built as a graph: refused as before


@pytest.mark.parametrize("exact", [True, False])
def test_sparse_facets_equal_the_normalised_dense_ones(exact):
    dp = DifferentialPrivacy.path(5, exp_eps="3/2" if exact else 1.5)
    cone = dp.row_cone()
    for i in range(cone.n_facets):
        sp = sparse_difference_facet(cone, i)
        dense = normalised_facet(structured_facet(cone, i), exact)
        assert sp.dense(exact=exact).tolist() == dense.tolist()
        g_s = Guarantee(labels=dp.inputs, exact=exact, source=sp)
        g_d = Guarantee(labels=dp.inputs, exact=exact, source=dense)
        assert (g_s.text, g_s.prior, g_s.s_plus, g_s.s_minus) == (g_d.text, g_d.prior, g_d.s_plus, g_d.s_minus)
        assert g_s.to_dict() == g_d.to_dict() and g_s == g_d
    assert sparse_difference_facet(pg.RandomizedResponse(2, "3/4").row_cone(), 0) is None


def test_sparse_guarantee_reads_only_the_support():
    g = Guarantee(
        labels=tuple(str(i) for i in range(10**6)),
        exact=True,
        source=SparseNormal(10**6, (7, 3), (Fraction(3), Fraction(-2))),
    )
    assert g.text.startswith("An attacker whose prior over {7, 3} is proportional to (3, 2)")
    assert g.prior == {"7": Fraction(3, 5), "3": Fraction(2, 5)}
    assert "coefficients" not in g.__dict__  # nothing dense was built


def test_involution_orbits_match_the_components():
    G = SymmetryGroup(labels=tuple("abcde"), generators=((4, 1, 3, 2, 0),), source="swap", order=2, complete=True)
    img = np.array([4, 1, 3, 2, 0])
    assert list(_involution_orbits(img)) == list(G.orbits_of_items(5, lambda p, t: p[t], vectorised=True))


@pytest.mark.parametrize("n", [1, 2, 5, 50])
@pytest.mark.parametrize("level", ["exp_eps=2", "eps=0"])
def test_path_group_equals_the_structural_search(n, level):
    from privgeom.geometry._symmetry import dp_automorphisms

    dp = parse_definition(f"dp:graph=path,n={n},{level}")
    a, b = pg.automorphisms(dp), dp_automorphisms(dp)
    assert (a.generators, a.source, a.order, a.complete) == (b.generators, b.source, b.order, b.complete)
