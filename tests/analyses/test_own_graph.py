"""Relaxation onto the definition's own graph (the ``analyze`` default) and the symmetry of ε-DP on histograms.

Every new route is cross-checked against the generic one on sizes both reach: the category permutations against
the bounded graph search, the own-graph relaxation against the difference route on a bare cone and the
double-description route, the geometric mechanism's lost guarantees against the closed form (interior facets lost,
the two end facets kept: ``docs/theory.md`` §7).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from privgeom import Domain
from privgeom.analyses import describe_row_cone, relax
from privgeom.analyses.relaxation._relaxation import own_family
from privgeom.cli import main as cli_main
from privgeom.definitions import DifferentialPrivacy, parse_definition
from privgeom.definitions._dp import category_permutations
from privgeom.geometry._symmetry import dp_automorphisms
from privgeom import automorphisms


def _histogram_dp(n: int, c: int, relation: str = "replace-one", up_to: bool = False) -> DifferentialPrivacy:
    return DifferentialPrivacy(relation, exp_eps=2, inputs=Domain.histograms(n, c, up_to=up_to))


# ------------------------------------------------------------------------------------------ category permutations
@pytest.mark.parametrize(
    "n,c,relation,up_to",
    [
        (2, 3, "replace-one", False),
        (3, 3, "replace-one", False),
        (4, 3, "replace-one", False),
        (2, 4, "replace-one", False),
        (3, 2, "replace-one", False),
        (2, 3, "add-remove", True),
    ],
)
def test_category_permutations_are_automorphisms_of_the_graph(n: int, c: int, relation: str, up_to: bool) -> None:
    dp = _histogram_dp(n, c, relation, up_to)
    G = category_permutations(dp)
    assert G is not None and G.order == math.factorial(c) and not G.complete
    I, J = dp.index_pairs
    edges = {frozenset((int(i), int(j))) for i, j in zip(I, J)}
    for p in G.generators:  # each generator maps the edge set onto itself and the points by permuting categories
        assert {frozenset((p[i], p[j])) for i, j in edges} == edges
        pts = dp.domain.points
        assert all(sorted(pts[p[i]]) == sorted(pts[i]) for i in range(len(pts)))
    assert automorphisms(dp).source == "category permutations"


@pytest.mark.parametrize("n,c", [(2, 3), (3, 3), (4, 3), (2, 4)])
def test_category_orbits_match_the_graph_search(n: int, c: int) -> None:
    """At these sizes the bounded search finds the whole automorphism group; its facet orbits refine no further
    than the category permutations' orbits and the counts agree wherever the two groups have the same order."""
    dp = _histogram_dp(n, c)
    searched = dp_automorphisms(dp)
    mine = describe_row_cone(dp)
    theirs = describe_row_cone(dp, group=searched)
    assert mine.n_facets == theirs.n_facets == 2 * len(dp.index_pairs[0])
    assert sum(o.size for o in mine.facet_orbits) == mine.n_facets
    if searched.order == math.factorial(c):
        assert sorted(o.size for o in mine.facet_orbits) == sorted(o.size for o in theirs.facet_orbits)
    else:  # a larger group: coarser orbits (never finer)
        assert len(theirs.facet_orbits) <= len(mine.facet_orbits)


def test_category_permutations_refuse_an_asymmetric_graph() -> None:
    dom = Domain.histograms(2, 3)
    edges = [(dom.labels[0], dom.labels[1])]
    dp = DifferentialPrivacy(edges, exp_eps=2, inputs=list(dom.labels))
    assert category_permutations(dp) is None  # no domain named: the generic search runs


# ------------------------------------------------------------------------------------------------- own family
def test_own_family_of_catalogue_definitions() -> None:
    assert own_family(parse_definition("dp:graph=replace-one,n=3,categories=3,exp_eps=2"))[1] == "replace-one"
    assert own_family(parse_definition("dp:graph=path,n=3,exp_eps=2"))[1] == "path"
    assert own_family(parse_definition("geometric:n=3,alpha=1/2"))[1] == "path"
    assert own_family(parse_definition("rr:k=2,p=3/4")) is None
    user = DifferentialPrivacy([("a", "b"), ("b", "c")], exp_eps=3)
    assert own_family(user)[1] == [("a", "b"), ("b", "c")]


@pytest.mark.parametrize(
    "spec",
    [
        "dp:graph=replace-one,n=2,categories=3,exp_eps=2",
        "dp:graph=replace-one,n=4,categories=3,exp_eps=3/2",
        "dp:graph=add-remove,n=2,categories=2,exp_eps=2",
        "dp:graph=path,n=6,exp_eps=5/2",
        "dp:graph=hamming,k=3,exp_eps=3",
    ],
)
def test_own_graph_relaxation_equals_the_generic_routes(spec: str) -> None:
    """ε-DP relaxed onto its own edges is itself (closed form); the difference route on the bare cone (no shortcut)
    and the all-pairs relaxation agree, and so does double description where it runs (≤ 8 datasets)."""
    d = parse_definition(spec)
    family = own_family(d)[1]
    fast = relax(d, family)
    assert fast.method == "own-graph" and fast.recognised == "dp" and fast.level == d.level
    assert len(fast.lost) == 0 and fast.kept == d.row_cone().n_facets
    edges = list(fast.subsets)
    generic = relax(d.row_cone(), edges)  # a bare cone: the difference route with path searches and orbits
    assert generic.method == "difference" and generic.recognised == "dp" and generic.level == fast.level
    assert len(generic.lost) == 0 and generic.cone == fast.cone
    every = relax(d, "all-pairs")
    assert every.recognised == "dp" and every.level == fast.level and len(every.lost) == 0
    assert every.cone == fast.cone
    if d.n_inputs <= 8:
        dd = relax(d.row_cone(), edges, method="cone")
        assert dd.cone == fast.cone and len(dd.lost) == 0
    assert all(b.forward == b.backward == d.level.exp_eps for b in fast.pair_bounds)
    assert fast.projections[0] == generic.projections[0] and fast.projections[0].n_facets == 2  # the two bounds


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_geometric_onto_its_path_loses_the_interior_facets(n: int) -> None:
    """Theory (docs/theory.md §7, catalogue Notes): relaxed onto the path, the geometric mechanism gives ε-DP with
    e^ε = 1/α; the interior facets are lost (the alternating DP row breaks them), the two end facets are bounds of
    the path and kept. All-pairs (the former default) gives the same."""
    d = parse_definition(f"geometric:n={n},alpha=1/2")
    own = relax(d, "path")
    every = relax(d, "all-pairs")
    for r in (own, every):
        assert r.recognised == "dp" and r.level.exp_eps == 2
        assert len(r.lost) == n - 1 and r.kept == 2
    assert own.cone == every.cone
    assert sorted(tuple(g.coefficients) for g in own.lost) == sorted(tuple(g.coefficients) for g in every.lost)
    for st in own.statuses:
        if st.lost:  # the witness is a DP row breaking the facet, exactly
            assert st.value < 0 and all(isinstance(v, (int, Fraction)) for v in st.witness)
            assert DifferentialPrivacy.path(n, exp_eps=2).contains_row(list(st.witness)).member
            assert sum(g * w for g, w in zip(d.facet_row(st.index), st.witness)) < 0  # breaks the facet itself


def test_ratio_facet_implied_by_its_own_bound() -> None:
    from privgeom.analyses.relaxation._difference_system import DifferenceSystem
    from privgeom.analyses.relaxation._lost import facet_status

    S = DifferenceSystem.from_bounds(["a", "b", "c"], [(0, 1, 2), (1, 0, 2), (1, 2, 2), (2, 1, 2)], True)
    st = facet_status(S, [Fraction(-1), Fraction(3), Fraction(0)])  # x_a ≤ 3 x_b: the bound x_a ≤ 2 x_b, λ = 1
    assert not st.lost and st.combination == {S.bound_index[(0, 1)]: 1}
    st = facet_status(S, [Fraction(-1), Fraction(0), Fraction(4)])  # x_a ≤ 4 x_c: the path a → b → c
    assert not st.lost and len(st.combination) == 2
    assert facet_status(S, [Fraction(-1), Fraction(0), Fraction(3)]).lost  # product 4 > 3


# ------------------------------------------------------------------------------------------------------ the CLI
def test_analyze_says_it_relaxes_onto_the_own_graph(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main(["analyze", "dp:graph=replace-one,n=3,categories=3,exp_eps=2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "onto its own graph 'replace-one' (the default; --family all-pairs relaxes onto every pair)" in out
    assert "category permutations group of order 6" in out
    assert "ε-differential privacy with ε = ln(2)" in out
    code = cli_main(["analyze", "dp:graph=replace-one,n=3,categories=3,exp_eps=2", "--family", "all-pairs"])
    out2 = capsys.readouterr().out
    assert code == 0 and "onto the family 'all-pairs'" in out2 and "ε-differential privacy with ε = ln(2)" in out2


def test_analyze_geometric_reports_lost_orbits(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["analyze", "geometric:n=6,alpha=1/2"]) == 0
    out = capsys.readouterr().out
    assert "onto its own graph 'path'" in out
    assert "guarantees no longer implied: 5 in 3 orbits" in out  # interior z = 1..5 under the reversal
    assert "ln(2)" in out


@pytest.mark.parametrize("n", [3, 6, 12])
def test_local_route_matches_the_lp_route(n: int) -> None:
    """The projection onto a facet's support (local_status) and the full relaxed-cone LP agree on every facet."""
    from privgeom.analyses.relaxation._difference_system import DifferenceSystem
    from privgeom.analyses.relaxation._lost import _exact_minimum, local_status

    d = parse_definition(f"geometric:n={n},alpha=1/3")
    S = DifferenceSystem.from_bounds(
        d.inputs, [(i, i + 1, 3) for i in range(n)] + [(i + 1, i, 3) for i in range(n)], True
    )
    for z in range(n + 1):
        f = list(d.facet_row(z))
        value, _ = _exact_minimum(S, f, [1] * (n + 1))
        st = local_status(S, f, index=z)
        if 0 < z < n:
            assert st is not None and st.lost == (value < 0) and st.lost  # interior facets: lost (theory)
        else:
            assert st is None  # two-term facets: ratio bounds, decided elsewhere
