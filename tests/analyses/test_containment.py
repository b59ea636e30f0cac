"""Row-cone containment without enumeration (privgeom.analyses.comparison._containment) and ε-DP levels by their ratios,
cross-checked against the ray-enumerating route on every size both reach."""

from fractions import Fraction

import numpy as np
import pytest

from privgeom import InvalidParameterError
from privgeom.analyses.comparison._compare import dp_level_rule, inclusion
from privgeom import compare
from privgeom.analyses.comparison._containment import lp_containment
from privgeom.definitions import DifferentialPrivacy, RandomizedResponse
from privgeom.testing import complete_graph, hamming_graph, path_graph


def _verified(inc):
    if inc.holds is False:
        w = inc.witness
        assert w.in_source is not None and w.in_source.member and w.in_source.exact
        assert w.not_in_larger is not None and not w.not_in_larger.member
        assert w.value < 0 and np.asarray(w.facet).dot(np.asarray(w.row)) == w.value


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("p,t", [("3/4", 3), ("3/4", 2), ("2/3", 3), ("4/5", 3)])
def test_lp_route_matches_rays_rr_vs_dp(k, p, t):
    rr, dp = RandomizedResponse(k, p), DifferentialPrivacy(hamming_graph(k), exp_eps=t)
    for X, Y in ((rr, dp), (dp, rr)):
        old, new = inclusion(X, Y, method="rays"), inclusion(X, Y, method="lp")
        assert old.holds == new.holds and new.exact
        _verified(new)
    # RR(p) ⊆ DP(t) iff p/(1−p) ≤ t on each bit (the facet ratio of one edge); DP ⊄ RR for k ≥ 2 (parity)
    r = Fraction(p) / (1 - Fraction(p))
    assert inclusion(rr, dp, method="lp").holds == (r <= t)
    if k >= 2:
        assert inclusion(dp, rr, method="lp").holds is False


@pytest.mark.parametrize("k", [1, 2, 3])
def test_lp_route_matches_rays_rr_vs_rr(k):
    a, b = RandomizedResponse(k, "2/3"), RandomizedResponse(k, "3/4")
    for X, Y in ((a, b), (b, a)):
        old, new = inclusion(X, Y, method="rays"), inclusion(X, Y, method="lp")
        assert old.holds == new.holds
        _verified(new)
    assert inclusion(a, b, method="lp").holds and not inclusion(b, a, method="lp").holds


@pytest.mark.parametrize("n", [3, 4, 5])
def test_lp_route_farkas_on_graphs(n):
    """Complete-graph DP ⊆ path DP at the same level (the path's edges are among the complete graph's): the LP
    route proves it with exact duals; the converse fails with a verified LP minimiser."""
    labels = [str(i) for i in range(n)]
    K = DifferentialPrivacy(complete_graph(labels), exp_eps=2)
    P = DifferentialPrivacy(path_graph(n - 1), exp_eps=2)
    c = lp_containment(K, P)
    assert c.holds and c.how == "lp" and c.exact and len(c.farkas) == c.lps
    assert c.orbits < 2 * (n - 1)  # the reversal of the path pairs its directed edges
    d = lp_containment(P, K)
    assert not d.holds and d.value < 0
    for X, Y in ((K, P), (P, K)):
        old, new = inclusion(X, Y, method="rays"), inclusion(X, Y, method="lp")
        assert old.holds == new.holds
        _verified(new)


def test_lp_route_counts_one_orbit_at_k8():
    """The hypercube group makes RR's generators one orbit and RR's facets one orbit: one generator checked
    against the 8·2^8 directed edges, and one LP (work counted, not timed)."""
    rr, dp = RandomizedResponse(8, "3/4"), DifferentialPrivacy(hamming_graph(8), exp_eps=3)
    c = lp_containment(rr, dp)
    assert c.holds and c.orbits == 1 and c.checks == 8 * 2**8
    d = lp_containment(dp, rr)
    assert not d.holds and d.lps == 1 and d.orbits == 1
    # the witness is in the DP cone and violates the RR facet, exactly
    x = d.witness
    assert all(isinstance(v, Fraction) and v.denominator == 1 for v in x)
    assert dp.contains_row(x).member and not rr.contains_row(x).member


def test_compare_auto_uses_lp_beyond_threshold():
    c = compare(RandomizedResponse(5, "3/4"), DifferentialPrivacy(hamming_graph(5), exp_eps=3))
    assert c.relation == "subset"
    assert "one LP per facet orbit" in c.b_in_a.detail and "generators" in c.a_in_b.detail
    _verified(c.b_in_a)


def test_unknown_method_and_lp_unavailable():
    rr = RandomizedResponse(2, "3/4")
    with pytest.raises(InvalidParameterError, match="nope"):
        compare(rr, rr, method="nope")


@pytest.mark.parametrize("graph", [hamming_graph(3), path_graph(3), complete_graph(4)])
@pytest.mark.parametrize("ta,tb", [(2, 3), (3, 2), (3, 3), ("3/2", 4)])
def test_dp_levels_by_ratio_match_rays(graph, ta, tb):
    a, b = DifferentialPrivacy(graph, exp_eps=ta), DifferentialPrivacy(graph, exp_eps=tb)
    fast = dp_level_rule(a, b)
    assert fast is not None and fast.method == "dp-level"
    assert fast.holds == (Fraction(ta) <= Fraction(tb)) == inclusion(a, b, method="rays").holds
    _verified(fast)
    if not fast.holds:  # the two-point row: e^ε_a at one endpoint, 1 elsewhere
        assert sorted(fast.witness.row.tolist()) == [1] * (len(a.inputs) - 1) + [Fraction(ta)]


def test_dp_level_rule_needs_same_graph():
    a = DifferentialPrivacy(path_graph(2), exp_eps=2)
    b = DifferentialPrivacy(complete_graph(["0", "1", "2"]), exp_eps=3)
    assert dp_level_rule(a, b) is None
    assert compare(a, b).relation == compare(a, b, method="rays").relation
