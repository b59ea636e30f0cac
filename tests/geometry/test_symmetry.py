"""Symmetry groups of privacy definitions: known generators, graph searches, orbits by union–find."""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

import privgeom as pg
from privgeom import InvalidInputError, InvalidParameterError, InvalidTypeError, SizeLimitError
from privgeom.geometry import Cone, automorphisms
from privgeom.results import Orbit, SymmetryGroup
from privgeom.testing import hamming_graph
from privgeom.testing import bit_strings


def closure_order(G: SymmetryGroup) -> int:
    """Independent check: enumerate the generated group by breadth-first closure (small groups only)."""
    ident = tuple(range(G.n))
    seen = {ident}
    frontier = [ident]
    while frontier:
        nxt = []
        for h in frontier:
            for g in G.generators:
                c = tuple(g[h[i]] for i in range(G.n))
                if c not in seen:
                    seen.add(c)
                    nxt.append(c)
        frontier = nxt
    return len(seen)


def sizes(orbits: tuple[Orbit, ...]) -> list[int]:
    return sorted(o.size for o in orbits)


# ------------------------------------------------------------------------------------------ randomized response
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_rr_facets_form_one_orbit_and_generators_preserve_the_cone(k):
    rr = pg.RandomizedResponse(k, "3/4")
    G = automorphisms(rr)
    assert G.source == "hypercube" and G.complete
    assert G.order == 2**k * math.factorial(k)
    assert len(G.generators) == 2 * k - 1
    F = rr.row_cone().facets
    assert sizes(G.orbits_of_rows(F)) == [2**k]
    # each generator maps the set of facets onto itself, one by one
    keys = {tuple(r) for r in F.tolist()}
    for p in G.generators:
        assert {tuple(r) for r in G.image_of_rows(p, F).tolist()} == keys
    # the same generators act on the facet index s (bit string) by the same index rule
    orbit_items = G.orbits_of_items(2**k, lambda p, s: p[s])
    assert sizes(orbit_items) == [2**k]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_hypercube_group_order_by_closure(k):
    rr = pg.RandomizedResponse(k, "2/3")
    G = automorphisms(rr)
    assert closure_order(G) == G.order == 2**k * math.factorial(k)


def test_rr_p_one_is_the_orthant_with_the_symmetric_group():
    G = automorphisms(pg.RandomizedResponse(2, 1))
    assert G.source == "symmetric" and G.order == 24 and closure_order(G) == 24


def test_rr_float_mode_same_group():
    G = automorphisms(pg.RandomizedResponse(3, 0.75))
    F = pg.RandomizedResponse(3, 0.75).row_cone().facets
    assert G.order == 48 and sizes(G.orbits_of_rows(F)) == [8]


# ------------------------------------------------------------------------------------------ ε-DP over graphs
@pytest.mark.parametrize("k", [2, 3, 4])
def test_dp_hypercube_facets_one_orbit(k):
    dp = pg.DifferentialPrivacy.hamming(k, exp_eps=3)
    G = automorphisms(dp)
    assert G.source == "hypercube" and G.order == 2**k * math.factorial(k)
    F = dp.row_cone().facets
    assert len(F) == k * 2**k  # directed edges
    assert sizes(G.orbits_of_rows(F)) == [k * 2**k]


def test_dp_q3_q4_ray_orbits():
    """Counts of rays per orbit; totals equal the ray counts of the double description (38 and 990)."""
    dp3 = pg.DifferentialPrivacy.hamming(3, exp_eps=3)
    R3 = dp3.row_cone().rays
    o3 = sizes(automorphisms(dp3).orbits_of_rows(R3))
    assert o3 == [2, 8, 8, 8, 12] and sum(o3) == len(R3) == 38
    dp4 = pg.DifferentialPrivacy.hamming(4, exp_eps=3)
    R4 = dp4.row_cone().rays
    o4 = sizes(automorphisms(dp4).orbits_of_rows(R4))
    assert o4 == [2, 8, 8, 12, 16, 16, 16, 16, 16, 16, 16, 48, 48, 48, 48, 48, 64, 64, 64, 64, 64, 96, 96, 96]
    assert sum(o4) == len(R4) == 990
    # every orbit size divides the group order (orbit–stabiliser)
    assert all(384 % s == 0 for s in o4)


@pytest.mark.parametrize("k", [2, 3])
def test_dp_group_from_facets_agrees_with_graph(k):
    """Independent route: search the permutations of the canonical facets with networkx."""
    dp = pg.DifferentialPrivacy.hamming(k, exp_eps=3)
    Gf = automorphisms(dp.row_cone(), method="facets")
    assert Gf.source == "facets" and Gf.order == automorphisms(dp).order == closure_order(Gf)


def test_dp_hamming_with_permuted_inputs():
    H = hamming_graph(3)
    labels = sorted(H.nodes)  # 000, 001, ... (not the default order)
    dp = pg.DifferentialPrivacy(H, exp_eps=2, inputs=labels)
    G = automorphisms(dp)
    assert G.order == 48
    F = dp.row_cone().facets
    assert G.preserves_rows(F) and sizes(G.orbits_of_rows(F)) == [24]


def test_dp_complete_path_cycle_and_components():
    K = pg.DifferentialPrivacy.complete(4, exp_eps=2)
    GK = automorphisms(K)
    assert GK.source == "symmetric" and GK.order == 24 == closure_order(GK)
    assert sizes(GK.orbits_of_rows(K.row_cone().facets)) == [12]
    P = pg.DifferentialPrivacy.path(4, exp_eps=2)
    GP = automorphisms(P)
    assert GP.generators == ((4, 3, 2, 1, 0),)
    assert sizes(GP.point_orbits()) == [1, 2, 2]
    assert GP.preserves_rows(P.row_cone().facets) and GP.preserves_rows(P.row_cone().rays)
    C6 = nx.relabel_nodes(nx.cycle_graph(6), str)
    GC = automorphisms(pg.DifferentialPrivacy(C6, exp_eps=3))
    assert GC.source == "graph" and GC.order == 12 == closure_order(GC) and GC.complete
    assert GC.preserves_rows(pg.DifferentialPrivacy(C6, exp_eps=3).row_cone().facets)
    Z = automorphisms(pg.DifferentialPrivacy(nx.Graph([("a", "b"), ("c", "d"), ("e", "f"), ("e", "g")]), exp_eps=1))
    assert Z.source == "components" and Z.order == 2 * 2 * 6 * 2 == closure_order(Z)


def test_graph_search_cap_gives_a_subgroup():
    C6 = nx.relabel_nodes(nx.cycle_graph(6), str)
    G = automorphisms(pg.DifferentialPrivacy(C6, exp_eps=3), max_automorphisms=3)
    assert not G.complete and G.order is None
    assert G.preserves_rows(pg.DifferentialPrivacy(C6, exp_eps=3).row_cone().facets)
    with pytest.raises(InvalidParameterError, match="max_automorphisms"):
        automorphisms(pg.DifferentialPrivacy(C6, exp_eps=3), max_automorphisms=0)


# ------------------------------------------------------------------------------------------ finite definitions
def test_finite_definition_of_rr_finds_the_hypercube_group():
    F = pg.FiniteDefinition([pg.randomized_response(3, "3/4")])
    G = automorphisms(F)
    assert G.source == "columns" and G.order == 48 and G.complete
    assert sizes(G.orbits_of_rows(F.row_cone().facets)) == [8]
    Gm = automorphisms(F, method="mechanisms")
    assert Gm.order == 48 and not Gm.complete


def test_finite_definition_two_mechanisms_swapped_by_symmetry():
    A = pg.Mechanism([["1/2", "1/4", "1/4"], ["1/2", "3/4", "3/4"]], inputs=["a", "b", "c"])
    B = pg.Mechanism([["1/4", "1/2", "1/4"], ["3/4", "1/2", "3/4"]], inputs=["a", "b", "c"])
    Gm = automorphisms(pg.FiniteDefinition([A, B]), method="mechanisms")
    # the transposition a<->b swaps A and B; b<->c maps A to itself and B to the third rotation (absent)
    assert Gm.order == 2 and sizes(Gm.point_orbits()) == [1, 2]
    assert Gm.point_orbits()[0].members == (0, 1)


def test_finite_definition_without_symmetry_is_trivial():
    M = pg.Mechanism([["1/2", "1/3", 0], ["1/2", "2/3", 1]], inputs=["a", "b", "c"])
    G = automorphisms(pg.FiniteDefinition([M]))
    assert G.order == 1 and G.generators == ()


def test_bad_method_and_type():
    with pytest.raises(InvalidParameterError, match="'bogus'"):
        automorphisms(pg.FiniteDefinition([pg.randomized_response(1, "3/4")]), method="bogus")
    with pytest.raises(InvalidTypeError, match="list"):
        automorphisms([1, 2])


# ------------------------------------------------------------------------------------------ the group object
def test_group_validation_and_limits():
    with pytest.raises(InvalidInputError, match="not a permutation"):
        SymmetryGroup(("a", "b"), ((0, 0),), "bad", None, False)
    with pytest.raises(SizeLimitError, match="entries"):
        SymmetryGroup(tuple(str(i) for i in range(2**20)), tuple([tuple(range(2**20))] * 3), "big", None, False)
    G = SymmetryGroup(("a", "b", "c"), ((1, 0, 2),), "swap", 2, False)
    with pytest.raises(InvalidInputError, match="not closed"):
        G.orbits_of_rows(np.array([[1, 0, 0]]))
    assert not G.preserves_rows(np.array([[1, 0, 0]]))
    assert G.to_dict()["generators"] == [[1, 0, 2]]
    assert "order 2" in G.summary()


def test_orbits_of_items_vectorised_equals_scalar():
    G = automorphisms(pg.RandomizedResponse(4, "3/4"))
    n = 16
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    where = {t: a for a, t in enumerate(pairs)}
    scalar = G.orbits_of_items(len(pairs), lambda p, t: where[(p[pairs[t][0]], p[pairs[t][1]])])
    P = np.array(pairs)

    def vec(p, items):
        img = p[P[items]]
        return np.array([where[(int(a), int(b))] for a, b in img])

    assert scalar == G.orbits_of_items(len(pairs), vec, vectorised=True)
    # ordered pairs of the 4-cube by Hamming distance 1..4: one orbit each
    assert sizes(scalar) == [16, 16 * 4, 16 * 4, 16 * 6]  # distance 4, 1 (or 3), 3 (or 1), 2


def test_stabilizer_of_family():
    G = automorphisms(pg.RandomizedResponse(3, "3/4"))
    edges = [(u, v) for u, v in hamming_graph(3).edges]
    assert G.stabilizer_of_family(edges) is G
    S = G.stabilizer_of_family([("111", "110")])
    assert not S.complete and 0 < len(S.generators) < len(G.generators)
    fam = {frozenset(("111", "110"))}
    for p in S.generators:
        assert {frozenset(S.labels[p[S.labels.index(s)]] for s in f) for f in fam} == fam
    with pytest.raises(InvalidInputError, match="'zz'"):
        G.stabilizer_of_family([("zz",)])


def test_cone_carries_no_group_by_default():
    c = Cone.from_generators([[1, 0], [0, 1]], exact=True)
    G = automorphisms(c)
    assert G.source.startswith("trivial") and G.generators == ()
    Gf = automorphisms(c, method="facets")
    assert Gf.order == 2
    with pytest.raises(InvalidParameterError, match="full-dimensional"):
        automorphisms(Cone.from_generators([[1, 1]], exact=True), method="facets")


def test_exact_fractions_and_integers_hash_alike():
    G = SymmetryGroup(("a", "b"), ((1, 0),), "swap", 2, True)
    rows = np.array([[Fraction(1), Fraction(2)], [2, 1]], dtype=object)
    assert sizes(G.orbits_of_rows(rows)) == [2]


def test_unnamed_standard_graphs_are_recognised_by_structure():
    """A relaxation returns ε-DP on an unnamed graph: the hypercube / complete / path are recognised by their edges,
    with the same group as the named graph (no capped search)."""
    H = nx.Graph([(u, v) for u, v in hamming_graph(4).edges])  # no name
    G = automorphisms(pg.DifferentialPrivacy(H, exp_eps=3, inputs=bit_strings(4)))
    assert G.source == "hypercube" and G.order == 384 and G.complete
    K = nx.Graph([(a, b) for a in "wxyz" for b in "wxyz" if a < b])
    assert automorphisms(pg.DifferentialPrivacy(K, exp_eps=2)).order == 24
    P = nx.Graph([("2", "3"), ("0", "1"), ("1", "2")])
    GP = automorphisms(pg.DifferentialPrivacy(P, exp_eps=2, inputs=["0", "1", "2", "3"]))
    assert GP.source == "reversal" and GP.generators == ((3, 2, 1, 0),)
    # a 4-cycle on bit strings is the 2-cube; a path on bit strings is not a cube
    C = nx.Graph([("00", "01"), ("01", "11"), ("11", "10"), ("10", "00")])
    assert automorphisms(pg.DifferentialPrivacy(C, exp_eps=2)).order == 8
    Q = nx.Graph([("00", "01"), ("01", "11"), ("11", "10")])
    GQ = automorphisms(pg.DifferentialPrivacy(Q, exp_eps=2))
    assert GQ.source == "graph" and GQ.order == 2
