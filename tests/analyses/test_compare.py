"""compare(): relations of consistent closures, how each inclusion is decided, and verified witnesses; row-cone
containment without enumeration (privgeom.analyses.comparison._containment) and ε-DP levels by their ratios,
cross-checked against the ray-enumerating route on every size both reach."""

from __future__ import annotations

from fractions import Fraction
from fractions import Fraction as F

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom import InvalidParameterError
from privgeom.analyses.comparison._compare import (
    RELATIONS,
    dp_level_rule,
    extreme_mechanisms,
    inclusion,
    inequality_text,
)
from privgeom.analyses.comparison._containment import lp_containment
from privgeom import compare
from privgeom import epsilon
from privgeom.definitions import DifferentialPrivacy, FiniteDefinition, RandomizedResponse
from privgeom import ApproximateDP
from privgeom.testing import complete_graph, hamming_graph, path_graph
from privgeom.testing import bit_strings

LABELS = ["11", "10", "01", "00"]


def rr_dp(k: int = 2):
    return RandomizedResponse(k, "3/4"), DifferentialPrivacy(hamming_graph(k), exp_eps=3)


def test_rr_strictly_inside_dp_with_the_parity_witness():
    rr, dp = rr_dp()
    c = compare(rr, dp)
    assert c.relation == "subset" and c.exact
    assert c.a_in_b.holds is True and c.a_in_b.method == "row-cone" and c.a_in_b.witness is None
    ba = c.b_in_a
    assert ba.holds is False and ba.method == "row-cone"
    w = ba.witness
    assert w.kind == "row"
    assert list(w.row) == [3, 1, 1, 3]  # a DP row: ratio 3 on every Hamming edge
    assert list(w.facet) == [-3, 9, 1, -3]  # facet s = 01 of Example 4.4 (scaled by 16)
    assert w.value == -8 and w.scale == 4
    assert w.facet_text == "9 x[10] + x[01] ≥ 3 x[11] + 3 x[00]"
    # the witness mechanism: randomized response (p = 3/4) on the parity of the two bits
    assert w.mechanism.matrix.tolist() == [[F(3, 4), F(1, 4), F(1, 4), F(3, 4)], [F(1, 4), F(3, 4), F(3, 4), F(1, 4)]]
    assert w.in_source.member and not w.not_in_larger.member
    # independent checks: exactly ln(3)-DP on the Hamming graph, and outside closure(RR)
    e = epsilon(w.mechanism, hamming_graph(2))
    assert e.exact and e.level.exp_eps == 3
    assert not rr.contains(w.mechanism).member
    assert dp.contains(w.mechanism).member
    # the parity guarantee it breaks, with the attacker's exact numbers
    g = w.guarantee
    assert g.parity_bits == (0, 1) and set(g.s_plus) == {"10", "01"} and set(g.s_minus) == {"11", "00"}
    assert g.prior == {"10": F(9, 16), "01": F(1, 16), "11": F(3, 16), "00": F(3, 16)}
    assert (w.prior_plus, w.prior_minus) == (F(5, 8), F(3, 8))
    assert (w.posterior_plus, w.posterior_minus) == (F(5, 14), F(9, 14))
    row = dict(zip(LABELS, w.mechanism.row("witness")))
    joint_plus = g.prior["10"] * row["10"] + g.prior["01"] * row["01"]
    joint_minus = g.prior["11"] * row["11"] + g.prior["00"] * row["00"]
    assert joint_plus / (joint_plus + joint_minus) == F(5, 14)
    assert w.check.violating_output == "witness"


def test_reverse_order_is_superset_and_json_round_trip():
    rr, dp = rr_dp()
    c = compare(dp, rr)
    assert c.relation == "superset"
    d = c.to_dict()
    assert d["relation"] == "superset"
    assert d["a_in_b"]["witness"]["posterior_minus"] == "9/14"
    assert "⊋" in str(c)


def test_k3_witness_is_rr_on_the_parity_of_three_bits():
    rr, dp = rr_dp(3)
    c = compare(rr, dp)
    assert c.relation == "subset"
    w = c.b_in_a.witness
    parity = [F(3, 4) if s.count("1") % 2 == 0 else F(1, 4) for s in bit_strings(3)]
    assert list(w.mechanism.row("witness")) in (parity, [1 - v for v in parity])
    assert w.posterior_minus > w.posterior_plus and w.prior_plus > w.prior_minus
    assert (w.prior_plus, w.posterior_plus) == (F(9, 16), F(3, 10))


@pytest.mark.parametrize("p,q,rel", [("2/3", "3/4", "subset"), ("3/4", "2/3", "superset"), ("3/4", "3/4", "equal")])
def test_randomized_response_is_monotone_in_p(p, q, rel):
    assert compare(RandomizedResponse(2, p), RandomizedResponse(2, q)).relation == rel


@settings(max_examples=15)
@given(
    st.fractions(F(1, 2), 1, max_denominator=24).filter(lambda v: v > F(1, 2)),
    st.fractions(F(1, 2), 1, max_denominator=24).filter(lambda v: v > F(1, 2)),
)
def test_rr_relation_matches_theory_and_witnesses_are_verified(p, q):
    c = compare(RandomizedResponse(1, p), RandomizedResponse(1, q))
    assert c.relation == ("equal" if p == q else "subset" if p < q else "superset")
    for inc in (c.a_in_b, c.b_in_a):
        if inc.holds is False:
            w = inc.witness
            assert w.in_source.member and not w.not_in_larger.member and w.posterior_minus > w.posterior_plus


def test_finite_definition_of_the_rr_matrix_equals_rr():
    rr = RandomizedResponse(2, "3/4")
    c = compare(FiniteDefinition([pg.randomized_response(2, "3/4")]), rr)
    assert c.relation == "equal" and c.a_in_b.method == c.b_in_a.method == "row-cone"


def test_dp_on_different_paths_is_incomparable():
    d1 = DifferentialPrivacy(nx.Graph([("0", "1"), ("1", "2")]), exp_eps=2)
    d2 = DifferentialPrivacy(pg.neighbour_graph(nx.Graph([("1", "0"), ("0", "2")]), d1.inputs), exp_eps=2)
    c = compare(d1, d2)
    assert c.relation == "incomparable"
    for inc in (c.a_in_b, c.b_in_a):
        assert inc.holds is False and inc.witness.in_source.member and not inc.witness.not_in_larger.member


def test_undecided_by_row_cones_uses_generating_mechanisms():
    # Lin & Kifer's 3x2 example: its row cone is the whole orthant, like the identity's, but the closures differ
    M = pg.Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])
    I = pg.Mechanism([[1, 0], [0, 1]], inputs=["a", "b"])
    FM, FI = FiniteDefinition([M]), FiniteDefinition([I])
    assert FM.row_cone().equals(FI.row_cone()).holds
    c = compare(FM, FI)
    assert c.relation == "subset"
    assert c.b_in_a.method == "generating-mechanisms" and c.b_in_a.holds is False
    w = c.b_in_a.witness
    assert w.kind == "mechanism" and w.mechanism == I and w.not_in_larger.certificate is not None
    assert w.row is None and w.facet is None


@pytest.mark.parametrize("r,holds", [(3, True), (5, False)])
def test_extreme_mechanisms_decide_dp_inside_a_finite_definition(r, holds):
    # {M} (3x2 above) contains RR(3/4) = [[3/4,1/4],[1/4,3/4]] (post-process with columns (1,0),(1/2,1/2),(0,1))
    # but not RR(5/6): a1 + a2 = 5/3 needs a1 > 1.
    M = pg.Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])
    dp = DifferentialPrivacy(complete_graph(["a", "b"]), exp_eps=r)
    ext = extreme_mechanisms(dp.row_cone())
    assert [E.matrix.tolist() for E in ext] == [[[F(r, r + 1), F(1, r + 1)], [F(1, r + 1), F(r, r + 1)]]]
    inc = inclusion(dp, FiniteDefinition([M]))
    assert inc.method == "extreme-mechanisms" and inc.holds is holds and inc.exact


def test_extreme_mechanisms_of_local_dp_are_staircase_mechanisms():
    ext = extreme_mechanisms(DifferentialPrivacy(complete_graph(3), exp_eps=2).row_cone())
    for E in ext:
        for row in E.matrix:
            assert max(row) / min(row) == 2  # every row is a scaled pattern in {1, 2}^3
    assert {E.n_outputs for E in ext} <= {2, 3}


def test_approximate_dp_is_weaker_than_pure_dp():
    adp = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/10")
    dp = DifferentialPrivacy(hamming_graph(2), exp_eps=2)
    c = compare(adp, dp)
    assert c.relation == "superset"
    assert c.b_in_a.method == "extreme-mechanisms" and c.b_in_a.holds
    w = c.a_in_b.witness
    assert w.in_source.member and not w.not_in_larger.member and w.posterior_minus == 1


def test_mixed_exact_and_float_is_reported_as_float():
    c = compare(RandomizedResponse(2, 0.75), DifferentialPrivacy(hamming_graph(2), exp_eps=3))
    assert c.relation == "subset" and not c.exact
    assert c.b_in_a.witness.posterior_minus == pytest.approx(9 / 14)


def test_errors():
    rr, dp = rr_dp()
    with pytest.raises(pg.DomainMismatchError, match="different input domains"):
        compare(rr, RandomizedResponse(3, "3/4"))
    with pytest.raises(pg.InvalidTypeError, match="privacy definitions"):
        compare(rr, "dp")  # type: ignore[arg-type]
    assert set(RELATIONS) >= {"subset", "superset", "equal", "incomparable"}
    assert inequality_text([F(1, 2), -1], ["a", "b"]) == "1/2 x[a] ≥ x[b]"


# ------------------------------------------------------------------------------------------- (ε, δ)-DP vs (ε, δ)-DP
def _dominant_divergence(t1, d1, t2):
    """Closed form of the dominant pair's hockey stick: δ₁ + (1 − δ₁)(t₁ − t₂)₊ / (1 + t₁)."""
    return d1 + (1 - d1) * max(t1 - t2, 0) / (1 + t1)


@pytest.mark.parametrize(
    "t1, d1, t2, d2",
    [
        (3, F(1, 10), 3, F(1, 5)),  # same ε, more δ: subset
        (3, F(1, 10), 2, F(1, 5)),  # 1/10 + 9/40 = 13/40 > 1/5: incomparable
        (3, F(1, 10), 2, F(1, 2)),  # 13/40 <= 1/2: subset
        (2, F(1, 4), 2, F(1, 4)),  # equal
    ],
)
def test_adp_vs_adp_by_the_dominant_pair(t1, d1, t2, d2):
    G = complete_graph(3)
    A, B = ApproximateDP(G, exp_eps=t1, delta=d1), ApproximateDP(G, exp_eps=t2, delta=d2)
    c = compare(A, B)
    ab = _dominant_divergence(F(t1), d1, F(t2)) <= d2
    ba = _dominant_divergence(F(t2), d2, F(t1)) <= d1
    assert (c.a_in_b.holds, c.b_in_a.holds) == (ab, ba)
    assert c.exact and {c.a_in_b.method, c.b_in_a.method} == {"dominant-pair"}
    for inc, (X, Y) in ((c.a_in_b, (A, B)), (c.b_in_a, (B, A))):
        if not inc.holds:  # the witness is re-verified here with the definitions' own hockey-stick membership
            M = inc.witness.mechanism
            assert X.contains(M).member and not Y.contains(M).member
            assert inc.witness.not_in_larger.certificate.verify(M)


def test_adp_vs_adp_on_other_graphs_stays_honest():
    path = ApproximateDP(path_graph(2), exp_eps=3, delta=F(1, 10))
    full = ApproximateDP(complete_graph(["0", "1", "2"]), exp_eps=3, delta=F(1, 5))
    c = compare(path, full)
    # the path's closure ⊆ complete's needs group privacy on 0–2: not decided, and never reported as a "no"
    assert c.a_in_b.holds is None and c.relation == "undecided"
    assert c.b_in_a.holds is False and c.b_in_a.method == "dominant-pair"


# ---------------------------------------------------------------- containment without enumeration, ε-DP by ratios
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
