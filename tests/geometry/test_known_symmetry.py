"""Known symmetry groups of the closed-form catalogue definitions, cross-checked against the generic search; the
private symmetry kernels (generic search, hypercube generators)."""

from __future__ import annotations

import math

import pytest

import privgeom as pg
from privgeom.testing import count_calls, forbid, peak_mib
from privgeom.geometry import _symmetry
from privgeom.geometry._symmetry import finite_automorphisms, hypercube_generators
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


def test_refinement_finds_the_group_the_graph_search_could_not(monkeypatch):
    from networkx.algorithms.isomorphism import GraphMatcher

    # k-ary randomized response on 10 values as a plain matrix: the symmetric group S_10 (3,628,800 elements, which
    # the element-enumerating VF2 search never reached within its budget), found by partition refinement, no VF2
    d = pg.FiniteDefinition([pg.parse_definition("krr:n=10,exp_eps=3").mechanism])
    checks = count_calls(monkeypatch, GraphMatcher, "syntactic_feasibility")
    G = automorphisms(d)
    assert checks[0] == 0
    assert (G.source, G.order, G.complete, G.note) == ("columns", math.factorial(10), True, "")
    assert len(G.point_orbits()) == 1 and G.preserves_rows(d.row_cone().facets)
    # randomized response on 5 bits as a plain matrix: the hypercube group, 2^5 · 5! = 3,840
    R5 = pg.FiniteDefinition([pg.randomized_response(5, "3/4")])
    H = automorphisms(R5)
    assert (H.order, H.complete, checks[0]) == (2**5 * math.factorial(5), True, 0)
    assert H.preserves_rows(R5.mechanisms[0].matrix)


def test_generic_search_is_bounded_and_says_so(monkeypatch):
    from networkx.algorithms.isomorphism import GraphMatcher

    # a budget too small for partition refinement: VF2 is tried under the same budget, and both stop
    d = pg.FiniteDefinition([pg.parse_definition("krr:n=10,exp_eps=3").mechanism])
    checks = count_calls(monkeypatch, GraphMatcher, "syntactic_feasibility")
    G = automorphisms(d, max_search_steps=1_000)
    # each VF2 candidate-pair check costs at least 64 steps of the budget: the work is bounded by the budget
    assert 0 < checks[0] <= 1_000 // 64 + 1
    assert not G.complete and G.order is None
    assert "max_search_steps" in G.note and "max_search_steps" in G.summary()
    assert G.note.startswith("partition refinement stopped after 1,000 steps") and "symmetry_steps" in G.note
    # what was found is still a subgroup: every generator maps the rows onto themselves
    assert G.preserves_rows(d.row_cone().facets)
    # the element-count budget of VF2 on a graph without a closed form (the star K_1,9: S_9)
    star = pg.DifferentialPrivacy([("c", str(i)) for i in range(9)], exp_eps=3)
    checks[0] = 0
    S = automorphisms(star, max_automorphisms=10**7, max_search_steps=6_400)
    assert 0 < checks[0] <= 101 and "6,400 steps" in S.note and not S.complete


def test_generic_search_refuses_to_start_on_huge_inputs():
    d = pg.FiniteDefinition([pg.parse_definition("krr:n=400,exp_eps=3").mechanism])
    G = finite_automorphisms(d)
    assert G.is_trivial() and not G.complete
    assert "not searched" in G.note and "max_search_graph" in G.note


def test_a_search_cut_short_is_said_in_the_summary():
    from privgeom import describe_row_cone

    mech = pg.parse_definition("krr:n=10,exp_eps=3").mechanism
    with pg.limits(symmetry_steps=1_000):
        s = describe_row_cone(pg.FiniteDefinition([mech]))
    assert any("max_search_steps" in n and "1,000 steps" in n for n in s.notes)
    assert any(line.startswith("  note: partition refinement stopped") for line in s.lines())
    assert describe_row_cone(pg.FiniteDefinition([mech])).notes == ()  # found whole at the default budget
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


# ------------------------------------------------------------- partition refinement against the VF2 graph search
def _closure(G) -> set[tuple[int, ...]]:
    """Every element of the group generated by ``G.generators`` (small groups only)."""
    ident = tuple(range(G.n))
    seen, todo = {ident}, [ident]
    while todo:
        h = todo.pop()
        for g in G.generators:
            c = tuple(g[h[i]] for i in range(G.n))
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def _by_vf2(monkeypatch, obj, **kw):
    """The group by the VF2 graph search alone (the route before partition refinement): the refinement is given
    no budget, so it stops at once and the search falls back to VF2, here with budgets that let it finish."""
    real = _symmetry.row_automorphisms
    with monkeypatch.context() as m:
        m.setattr(_symmetry, "row_automorphisms", lambda rows, max_work=None: real(rows, max_work=1))
        return automorphisms(obj, max_automorphisms=10**6, max_search_steps=10**9, **kw)


def _planted(seed: int) -> pg.Mechanism:
    """A random column-stochastic matrix on 6 datasets whose rows are closed under the planted group generated by
    the 3-cycle (0 1 2) and the swap (3 4) (order 6): the orbits of two random integer rows, each column divided by
    its sum (constant on the group's orbits, so the group is kept)."""
    import numpy as np
    from fractions import Fraction

    rng = np.random.default_rng(seed)
    gens = [(1, 2, 0, 3, 4, 5), (0, 1, 2, 4, 3, 5)]
    rows: set[tuple[int, ...]] = set()
    for r in rng.integers(1, 6, size=(2, 6)).tolist():
        todo = [tuple(r)]
        while todo:
            a = todo.pop()
            if a not in rows:
                rows.add(a)
                for p in gens:
                    b = [0] * 6
                    for i, v in enumerate(a):
                        b[p[i]] = v
                    todo.append(tuple(b))
    A = sorted(rows)
    sums = [sum(r[j] for r in A) for j in range(6)]
    return pg.Mechanism([[Fraction(r[j], sums[j]) for j in range(6)] for r in A])


def _asymmetric() -> pg.Mechanism:
    return pg.Mechanism([["1/2", "1/3", "1/5", "1/7"], ["1/4", "1/3", "3/5", "2/7"], ["1/4", "1/3", "1/5", "4/7"]])


CROSS_CHECK = {
    "RR(2)": (lambda: pg.FiniteDefinition([pg.randomized_response(2, "3/4")]), 8),
    "RR(3)": (lambda: pg.FiniteDefinition([pg.randomized_response(3, "3/4")]), 48),
    "kRR n=4 (ε-DP)": (lambda: pg.FiniteDefinition([pg.parse_definition("krr:n=4,exp_eps=3").mechanism]), 24),
    "geometric n=4 (ε-DP)": (
        lambda: pg.FiniteDefinition([pg.parse_definition("geometric:n=4,alpha=1/2").mechanism]),
        2,
    ),
    "RR(2) at p = 3/4 and 2/3, floats": (
        lambda: pg.FiniteDefinition([pg.randomized_response(2, p).to_float() for p in ("3/4", "2/3")]),
        8,
    ),
    "planted, seed 1": (lambda: pg.FiniteDefinition([_planted(1)]), None),
    "planted, seed 2": (lambda: pg.FiniteDefinition([_planted(2)]), None),
    "asymmetric": (lambda: pg.FiniteDefinition([_asymmetric()]), 1),
}


@pytest.mark.parametrize("method", ["rows", "mechanisms"])
@pytest.mark.parametrize("name", sorted(CROSS_CHECK))
def test_refinement_and_vf2_find_the_same_group(monkeypatch, name, method):
    make, order = CROSS_CHECK[name]
    d = make()
    G = automorphisms(d, method=method)
    old = _by_vf2(monkeypatch, d, method=method)
    assert old.order is not None  # VF2 enumerated the whole group
    assert (G.order, G.complete, G.source) == (old.order, old.complete, old.source)
    assert _closure(G) == _closure(old) and len(_closure(G)) == G.order
    if order is not None and method == "rows":
        assert G.order == order
    if name.startswith("planted"):  # the planted group is among the symmetries found
        assert G.order % 6 == 0
        assert {(1, 2, 0, 3, 4, 5), (0, 1, 2, 4, 3, 5)} <= _closure(G)
    M = d.mechanisms[0]
    assert G.preserves_rows(M.matrix if d.exact else M.float_matrix(), atol=1e-9) or method == "mechanisms"


def test_mechanisms_route_with_repeated_rows(monkeypatch):
    # A repeats a row; B is A with datasets a and c swapped. a<->c swaps A and B; a<->b fixes A but not B (and maps
    # it outside the set), so the group of the set {A, B} is {id, a<->c}, as VF2 on the coloured graph finds
    A = pg.Mechanism([["1/4", "1/4", 0], ["1/4", "1/4", 0], ["1/2", "1/2", 1]], inputs=["a", "b", "c"])
    B = pg.Mechanism([[0, "1/4", "1/4"], [0, "1/4", "1/4"], [1, "1/2", "1/2"]], inputs=["a", "b", "c"])
    d = pg.FiniteDefinition([A, B])
    G = automorphisms(d, method="mechanisms")
    old = _by_vf2(monkeypatch, d, method="mechanisms")
    assert G.order == old.order == 2 and _closure(G) == _closure(old) == {(0, 1, 2), (2, 1, 0)}
    assert not automorphisms(pg.FiniteDefinition([A]), method="mechanisms").is_trivial()  # a<->b fixes A alone


def test_facets_route_of_a_cone_matches_vf2(monkeypatch):
    import networkx as nx

    # ε-DP on the 5-cycle (no closed form): the dihedral group of order 10 on the facets of its row cone
    cone = pg.DifferentialPrivacy(nx.relabel_nodes(nx.cycle_graph(5), str), exp_eps=2).row_cone()
    G = automorphisms(cone, method="facets")
    old = _by_vf2(monkeypatch, cone, method="facets")
    assert G.order == old.order == 10 and G.complete and _closure(G) == _closure(old)
