"""Known symmetry groups of the closed-form catalogue definitions, cross-checked against the generic search; the
private symmetry kernels (generic search, hypercube generators)."""

from __future__ import annotations

import math

import pytest

import privgeom as pg
from privgeom.testing import count_calls, forbid, peak_mib
from privgeom.geometry import _symmetry
from privgeom.geometry._symmetry import MAX_SEARCH_STEPS, finite_automorphisms, hypercube_generators
from privgeom import automorphisms


def _orbits(G):
    return sorted(o.members for o in G.point_orbits())


@pytest.mark.parametrize("n", [3, 4, 5])
def test_krr_group_is_symmetric_and_matches_generic_search(n):
    d = pg.parse_definition(f"krr:n={n},exp_eps=3")
    G = automorphisms(d)
    assert (G.source, G.order, G.complete) == ("symmetric", math.factorial(n), True)
    generic = finite_automorphisms(d)
    assert generic.order == G.order and _orbits(generic) == _orbits(G)
    assert G.preserves_rows(d.row_cone().facets)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_geometric_group_is_reversal_and_matches_generic_search(n):
    d = pg.parse_definition(f"geometric:n={n},alpha=1/2")
    G = automorphisms(d)
    assert (G.source, G.order, G.complete) == ("reversal", 2, True)
    assert G.generators == (tuple(range(n, -1, -1)),)
    generic = finite_automorphisms(d)
    assert generic.order == 2 and _orbits(generic) == _orbits(G)
    assert G.preserves_rows(d.row_cone().facets)


@pytest.mark.parametrize("N,k", [(2, 2), (3, 2), (2, 3)])
def test_frapp_group_is_the_wreath_product_and_matches_generic_search(N, k):
    d = pg.parse_definition(f"frapp:N={N},gamma=4,k={k}")
    G = automorphisms(d)
    assert G.order == math.factorial(N) ** k * math.factorial(k) and G.complete
    generic = finite_automorphisms(d, max_automorphisms=10_000, max_search_steps=10**9)
    assert generic.order == G.order and _orbits(generic) == _orbits(G)
    assert G.preserves_rows(d.row_cone().facets)


def test_gamma_one_gives_the_symmetric_group():
    G = automorphisms(pg.parse_definition("krr:n=4,p=1/4"))
    assert G.order == 24 and G.complete


def test_large_catalogue_definitions_get_their_group_at_once(monkeypatch):
    # known groups: the generic graph search is never entered (it fails the test if reached)
    forbid(monkeypatch, _symmetry, "_graph_automorphisms")
    G = automorphisms(pg.parse_definition("krr:n=100,exp_eps=3"))
    H = automorphisms(pg.parse_definition("geometric:n=100,alpha=1/2"))
    assert len(G.point_orbits()) == 1 and G.complete
    assert len(H.point_orbits()) == 51 and H.order == 2


def test_generic_search_is_bounded_and_says_so(monkeypatch):
    from networkx.algorithms.isomorphism import GraphMatcher

    d = pg.FiniteDefinition([pg.parse_definition("krr:n=10,exp_eps=3").mechanism])
    checks = count_calls(monkeypatch, GraphMatcher, "syntactic_feasibility")
    G = automorphisms(d)
    # each VF2 candidate-pair check costs at least 64 steps of the budget: the work is bounded by the budget
    assert 0 < checks[0] <= MAX_SEARCH_STEPS // 64 + 1
    assert not G.complete and G.order is None
    assert "max_search_steps" in G.note and "max_search_steps" in G.summary()
    assert f"{MAX_SEARCH_STEPS:,} steps" in G.note
    # a smaller budget stops sooner, and says which budget
    checks[0] = 0
    small = finite_automorphisms(d, max_search_steps=6_400)
    assert 0 < checks[0] <= 101 and "6,400 steps" in small.note and not small.complete


def test_generic_search_refuses_to_start_on_huge_inputs():
    d = pg.FiniteDefinition([pg.parse_definition("krr:n=400,exp_eps=3").mechanism])
    G = finite_automorphisms(d)
    assert G.is_trivial() and not G.complete
    assert "not searched" in G.note and "max_search_graph" in G.note


def test_a_search_cut_short_is_said_in_the_summary():
    from privgeom import describe_row_cone

    d = pg.FiniteDefinition([pg.parse_definition("krr:n=10,exp_eps=3").mechanism])
    s = describe_row_cone(d)
    assert any("max_search_steps" in n and f"{MAX_SEARCH_STEPS:,} steps" in n for n in s.notes)
    assert any(line.startswith("  note: generic search stopped") for line in s.lines())
    assert describe_row_cone(pg.RandomizedResponse(2, "3/4")).notes == ()  # a known, complete group: no note


def test_hypercube_generators_are_cube_isometries():
    k = 4
    for g in hypercube_generators(k):
        for i in range(16):
            for j in range(16):
                assert bin(i ^ j).count("1") == bin(int(g[i]) ^ int(g[j])).count("1")


def test_path_symmetry_is_found_without_a_graph_search(monkeypatch):
    from privgeom.geometry import _symmetry

    forbid(monkeypatch, _symmetry, "_graph_automorphisms")
    d = pg.parse_definition("dp:graph=path,n=100000,exp_eps=3")
    G, peak = peak_mib(lambda: _symmetry.automorphisms(d))
    assert peak < 64, peak  # generators of the reversal only, no search structures
    assert G.source == "reversal" and G.complete
