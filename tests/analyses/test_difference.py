"""The difference-constraint route of relax: cross-checked against the double-description route on every size both
reach, ε-DP recognised on any graph, implied pairs with their paths, lost guarantees with verified certificates; and
the private kernels of relaxation (subset families, the facet-only path, the route tables)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import networkx as nx
import numpy as np
import pytest

import privgeom as pg
from privgeom.analyses import relax, relax_pairwise
from privgeom.analyses.relaxation._difference_system import DifferenceSystem
from privgeom.analyses.relaxation._lost import facet_status
from privgeom.analyses.relaxation._relaxation import subset_family
from privgeom.geometry import Cone
from privgeom.testing import bit_strings, complete_graph, hamming_graph, path_graph


def _lost_set(r):
    return sorted(tuple(g.coefficients) for g in r.lost)


def _same(new, old):
    assert new.route == "difference" and old.route == "cone"
    assert new.cone.equals(old.cone).holds
    assert new.recognised == old.recognised and new.level == old.level
    assert _lost_set(new) == _lost_set(old)
    assert new.kept == old.kept
    assert [(b.pair, b.forward, b.backward) for b in new.pair_bounds] == [
        (b.pair, b.forward, b.backward) for b in old.pair_bounds
    ]


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("family", ["hamming", "all-pairs"])
def test_rr_new_route_matches_cone_route(k, family):
    rr = pg.RandomizedResponse(k, "3/4")
    _same(relax_pairwise(rr, family), relax_pairwise(rr, family, method="cone"))


@pytest.mark.parametrize("family", [[("11", "10"), ("11", "00")], [("11", "10")], [("11", "00"), ("10", "01")]])
def test_unrecognised_families_match_cone_route(family):
    rr = pg.RandomizedResponse(2, "3/4")
    new, old = relax(rr, family), relax(rr, family, method="fourier_motzkin")
    _same(new, old)
    assert np.array_equal(new.cone.facets, old.cone.facets)  # the closed-form facets are the canonical ones


@pytest.mark.parametrize("seed", range(4))
def test_random_finite_definitions_match_cone_route(seed):
    rng = np.random.default_rng(seed)
    n = 4
    M = rng.integers(1, 6, size=(3, n)).astype(object)
    M = np.array([[F(int(v), int(c)) for v, c in zip(row, M.sum(axis=0))] for row in M], dtype=object)
    d = pg.FiniteDefinition([pg.Mechanism(M, inputs=list("abcd"))])
    pairs = list(itertools.combinations("abcd", 2))
    family = [pairs[i] for i in rng.choice(len(pairs), size=4, replace=False)]
    new, old = relax(d, family), relax(d, family, method="fourier_motzkin")
    _same(new, old)
    if new.recognised != "dp":
        assert np.array_equal(new.cone.facets, old.cone.facets)


def test_float_rr_matches():
    rr = pg.RandomizedResponse(3, 0.7)
    new, old = relax_pairwise(rr), relax_pairwise(rr, method="cone")
    assert new.recognised == old.recognised == "dp"
    assert abs(float(new.level.exp_eps) - 0.7 / 0.3) < 1e-9 and len(new.lost) == len(old.lost) == 8
    assert new.cone.equals(old.cone).holds


def _graphs():
    yield path_graph(5)
    yield nx.relabel_nodes(nx.cycle_graph(6), str)
    yield complete_graph(4)
    yield hamming_graph(3)
    yield nx.relabel_nodes(nx.petersen_graph(), str)
    yield nx.relabel_nodes(nx.gnp_random_graph(8, 0.35, seed=1), str)
    g = nx.Graph([("a", "b"), ("b", "c"), ("d", "e")])
    g.add_node("f")
    yield g


@pytest.mark.parametrize("graph", list(_graphs()))
def test_dp_relaxed_onto_its_own_edges_is_itself(graph):
    dp = pg.DifferentialPrivacy(graph, exp_eps=F(5, 2))
    r = relax_pairwise(dp, graph)
    assert r.recognised == "dp" and r.level.exp_eps == F(5, 2)
    assert r.cone == dp.row_cone() and len(r.lost) == 0 and r.kept == dp.row_cone().n_facets
    assert sorted(map(sorted, r.graph.edges)) == sorted(map(sorted, graph.edges))
    assert all(not st.lost for st in r.statuses)


def test_dp_own_edges_cross_checked_with_cone_route():
    dp = pg.DifferentialPrivacy(hamming_graph(2), exp_eps=3)
    _same(relax_pairwise(dp, "hamming"), relax_pairwise(dp, "hamming", method="cone"))


@pytest.mark.parametrize("alpha", ["1/2", "1/3", "2/5"])
def test_geometric_onto_adjacent_counts_is_dp_on_the_path(alpha):
    g = pg.parse_definition(f"geometric:n=4,alpha={alpha}")
    r = relax_pairwise(g, path_graph(4))
    assert r.recognised == "dp" and r.level.exp_eps == 1 / F(alpha)
    assert r.cone == pg.DifferentialPrivacy.path(4, exp_eps=1 / F(alpha)).row_cone()
    old = relax_pairwise(g, path_graph(4), method="cone")
    _same(r, old)


def test_all_pairs_reports_which_pairs_are_implied_by_which_paths():
    g = pg.parse_definition("geometric:n=3,alpha=1/2")
    r = relax(g, "all-pairs")
    assert r.recognised == "dp" and r.level.exp_eps == 2
    implied = {p.pair: p for p in r.implied}
    assert set(implied) == {(a, b) for a, b in itertools.permutations("0123", 2) if abs(int(a) - int(b)) > 1}
    p = implied[("0", "3")]
    assert p.path == ("0", "1", "2", "3") and p.path_bound == 8 and p.bound == 8
    rr = relax(pg.RandomizedResponse(3, "3/4"), "all-pairs")
    for q in rr.implied:
        h = sum(u != v for u, v in zip(*q.pair))
        assert len(q.path) == h + 1 and q.path_bound == q.bound == F(3) ** h
    assert len(rr.implied) == 2 * (28 - 12)


def test_implied_bounds_when_not_dp():
    # bounds 0->1 (2), 1->2 (3), 0->2 (7: implied by 0->1->2, product 6), 2->0 (5) and 1->0 (4)
    S = DifferenceSystem.from_bounds(list("abc"), [(0, 1, 2), (1, 2, 3), (0, 2, 7), (2, 0, 5), (1, 0, 4)], True)
    imp = S.implied_bounds()
    assert [(p.pair, p.path, p.path_bound) for p in imp] == [(("a", "c"), ("a", "b", "c"), F(6))]
    assert S.path_product(1, 0) == (F(4), [1, 0])


@pytest.mark.parametrize("k", [2, 3, 4])
def test_rr_lost_certificates_verify_exactly(k):
    rr = pg.RandomizedResponse(k, "3/4")
    r = relax_pairwise(rr)
    assert len(r.statuses) == 1 and r.statuses[0].size == 2**k and r.statuses[0].lost  # one orbit
    st = r.statuses[0]
    f = rr.facet(st.index, scaled=True)  # primitive: the facet as the guarantees scale it
    w = st.witness
    assert sum(a * b for a, b in zip(f, w)) == st.value < 0
    assert r.cone.contains(list(w)).member  # a point of ε-DP breaking the parity guarantee
    assert len(r.lost) == 2**k and r.kept == 0


def test_implied_combination_verifies():
    S = DifferenceSystem.from_bounds(list("abc"), [(0, 1, F(3)), (2, 1, F(3)), (1, 0, F(3)), (1, 2, F(3))], True)
    f = [F(-1), F(6), F(-1)]
    st = facet_status(S, f)
    assert not st.lost
    mu = list(f)
    for t, lam in st.combination.items():
        assert lam > 0
        mu[int(S.a[t])] += lam
        mu[int(S.b[t])] -= lam * S.c[t]
    assert all(v >= 0 for v in mu)


def test_lost_orbits_without_symmetry_fall_back_to_each_facet():
    rr = pg.RandomizedResponse(2, "3/4")
    cone = Cone.from_facets(rr.facets(), labels=rr.inputs)  # a plain cone: no known group
    r = relax_pairwise(cone)
    assert r.recognised == "dp" and len(r.statuses) == 4 and len(r.lost) == 4


def test_methods_and_errors():
    rr = pg.RandomizedResponse(2, "3/4")
    with pytest.raises(pg.InvalidParameterError, match="not pairs"):
        relax(rr, "triples", method="difference")
    with pytest.raises(pg.InvalidParameterError, match="unknown relaxation method"):
        relax(rr, "hamming", method="magic")
    assert relax(rr, "triples").route == "cone"
    r = relax_pairwise(rr)
    d = r.to_dict()
    assert d["recognised"] == "dp" and d["orbits"][0]["size"] == 4 and d["n_lost"] == 4
    import json

    json.loads(r.to_json())
    assert len(r.projections) == 4 and r.projections[0].n_facets == 2


@pytest.mark.parametrize("seed", range(5))
def test_difference_cone_facets_match_cdd(seed):
    rng = random.Random(seed)
    labels = list("abcde")
    bounds = []
    for a, b in itertools.permutations(range(5), 2):
        if rng.random() < 0.45:
            bounds.append((a, b, F(rng.randint(2, 9), rng.randint(1, 2))))
    from privgeom.analyses.relaxation._difference_route import _difference_cone, _rows

    S = DifferenceSystem.from_bounds(labels, bounds, True)
    gone = {p.pair for p in S.implied_bounds()}
    keep = [t for t in range(len(S.c)) if (labels[int(S.a[t])], labels[int(S.b[t])]) not in gone]
    if S.has_tight_cycle(keep):
        pytest.skip("degenerate draw")
    fast = _difference_cone(S, keep, tuple(labels))
    slow = Cone.from_facets(_rows(S, list(range(len(S.c))), 5, True), labels=labels)
    assert np.array_equal(fast.facets, slow.facets)


def test_geometric_relaxation_beyond_float_precision_is_exact():
    # The path bounds multiply to 2^40: rounding a float LP point fails here; the exact LP gives verified witnesses.
    import privgeom as pg
    from fractions import Fraction

    r = pg.relax_pairwise(pg.parse_definition("geometric:n=40,alpha=1/2"), path_graph(40))
    assert r.recognised == "dp" and r.level.exp_eps == Fraction(2) and len(r.lost) == 40 - 1
    for st in r.statuses:
        if st.lost:
            assert st.value < 0 and all(v >= 0 for v in st.witness)


def _huge_dp_cone(scale):
    """ε-DP (e^ε = 2) on the complete graph of 3 datasets, each facet times ``scale`` with its positive coefficient
    raised by its index + 1 (so no common factor cancels): exact rays with entries far beyond the float range."""
    facets = []
    for i, (a, b) in enumerate(itertools.permutations(range(3), 2)):
        f = [0, 0, 0]
        f[a], f[b] = 2 * scale + i + 1, -scale
        facets.append([str(x) for x in f])
    return pg.ConeDefinition.from_dict(
        {
            "privgeom": "cone-definition",
            "version": 1,
            "name": "huge",
            "exact": True,
            "labels": ["0", "1", "2"],
            "facets": facets,
            "equalities": [],
        }
    )


def test_exact_rays_beyond_float_range_relax_exactly():
    """Rays of ~1e400 used to overflow a float sign test; the relaxation now answers exactly, equal to the cone route,
    and the pair bounds are the exact ones (forward bound of (0, 1) is sup x_0/x_1 over the cone)."""
    d = _huge_dp_cone(10**200)
    auto = relax(d, "all-pairs")
    cone_route = relax(d, "all-pairs", method="cone")
    assert auto.cone.equals(cone_route.cone).holds
    assert auto.recognised == cone_route.recognised and not auto.recognised
    assert auto.lost == cone_route.lost == ()
    # the same cone with a small scale goes through the float pre-screen: both routes agree there too
    small = _huge_dp_cone(10**3)
    _same_cone = relax(small, "all-pairs").cone.equals(relax(small, "all-pairs", method="cone").cone).holds
    assert _same_cone


def test_subset_family_errors():
    with pytest.raises(pg.InvalidParameterError):
        subset_family(["a", "b"], "quadruples")
    with pytest.raises(pg.DomainMismatchError):
        subset_family(["a", "b"], "hamming")
    with pytest.raises(pg.DomainMismatchError):
        subset_family(["a", "b"], [("a", "z")])
    with pytest.raises(pg.InvalidTypeError):
        subset_family(["a", "b"], ["ab"])
    with pytest.raises(pg.InvalidParameterError):
        relax_pairwise(pg.RandomizedResponse(2, "3/4"), "triples")
    g = hamming_graph(2)
    assert sorted(map(sorted, subset_family(bit_strings(2), g))) == sorted(
        map(sorted, subset_family(bit_strings(2), "hamming"))
    )
    assert list(itertools.chain(*subset_family(["a", "b"], "all-pairs"))) == ["a", "b"]


@pytest.mark.parametrize("family", ["hamming", "all-pairs"])
def test_facet_only_path_agrees_with_rays(monkeypatch, family):
    # beyond RAYS_MAX_DIM the relaxed cone is never converted to rays (ε-DP on the 5-cube has 395,094); the Farkas
    # LPs on its facets must give the same recognition and the same lost guarantees
    from privgeom.analyses.relaxation import _relaxation

    rr = pg.RandomizedResponse(3, "3/4")
    by_rays = relax_pairwise(rr, family, method="block")
    monkeypatch.setattr(_relaxation, "RAYS_MAX_DIM", 0)
    by_facets = relax_pairwise(rr, family, method="block")
    assert by_facets.recognised == by_rays.recognised
    assert by_facets.level == by_rays.level
    assert [g.coefficients for g in by_facets.lost] == [g.coefficients for g in by_rays.lost]
    assert by_facets.cone == by_rays.cone


def test_relation_names_are_families():
    """``replace-one``, ``add-remove``, ``path``, ``complete``, ``hamming`` wherever a family of pairs is taken."""
    rr = pg.RandomizedResponse(2, "3/4")
    # on bits, replace-one (one record of k = 2 bits... each bit a record) and hamming give the same pairs
    assert sorted(map(sorted, subset_family(pg.Domain.bits(2), "replace-one"))) == sorted(
        map(sorted, subset_family(rr.inputs, "hamming"))
    )
    assert sorted(map(sorted, subset_family(rr.inputs, "complete"))) == sorted(
        map(sorted, subset_family(rr.inputs, "all-pairs"))
    )
    assert relax_pairwise(rr, "replace-one").level.exp_eps == 3 == relax_pairwise(rr, "hamming").level.exp_eps
    assert subset_family(["0", "1", "2"], "path") == [("0", "1"), ("1", "2")]
    # a definition on databases: its relation names apply (replace-one relaxes to itself, exactly)
    d = pg.parse_definition("dp:graph=replace-one,n=2,records=3,exp_eps=2")
    r = relax(d, "replace-one")
    assert r.recognised == "dp" and r.level.exp_eps == 2 and len(r.lost) == 0
    assert r.graph.number_of_edges() == d.domain.n_edges("replace-one") == 18
    geo = pg.parse_definition("dp:graph=path,n=4,exp_eps=3")
    assert relax(geo, "path").level.exp_eps == 3


def test_relax_dispatches_through_its_route_table(monkeypatch):
    from privgeom.analyses.relaxation import _relaxation

    assert tuple(_relaxation._RELAX_ROUTES) == _relaxation.RELAX_METHODS
    assert all(route.__doc__ for route in _relaxation._RELAX_ROUTES.values())
    seen = []

    def spy(original, cone, family):
        seen.append((len(family), cone.ambient_dim))
        return "answered by the table"

    monkeypatch.setitem(_relaxation._RELAX_ROUTES, "block", spy)
    assert relax(pg.RandomizedResponse(2, "3/4"), "hamming", method="block") == "answered by the table"
    assert seen == [(4, 4)]
    with pytest.raises(pg.InvalidParameterError, match="unknown relaxation method 'nope'.*fourier_motzkin"):
        relax(pg.RandomizedResponse(2, "3/4"), "hamming", method="nope")


def test_difference_routes_are_tried_in_order():
    """ε-DP onto its own edges is answered by the own-graph route (nothing searched); the same cone given bare, by
    the difference route; a family that is not pairs by neither (the reason is the refusal's)."""
    from privgeom.analyses.relaxation import _difference_route as rd

    assert list(rd._DIFFERENCE_ROUTES) == ["own-graph", "difference"]
    assert all(route.__doc__ for route in rd._DIFFERENCE_ROUTES.values())
    dp = pg.DifferentialPrivacy.hamming(2, exp_eps=3)
    edges = [tuple(e) for e in subset_family(dp.inputs, "hamming")]
    own = rd.relax_by_differences(dp, dp.row_cone(), edges, required=True)
    bare = rd.relax_by_differences(dp.row_cone(), dp.row_cone(), edges, required=True)
    assert (own.method, bare.method) == ("own-graph", "difference")
    assert own.level == bare.level == dp.level and own.cone == bare.cone and len(own.lost) == len(bare.lost) == 0
    triples = [("11", "10", "01")]
    assert rd.relax_by_differences(dp, dp.row_cone(), triples, required=False) is None
    with pytest.raises(pg.InvalidParameterError, match="some subsets are not pairs"):
        rd.relax_by_differences(dp, dp.row_cone(), triples, required=True)
