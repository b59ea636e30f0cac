"""Semantics of row cones: S+/S-, priors, parity recognition, posterior checks and Theorem 4.5 (Lin & Kifer)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom.analyses import check_guarantee, check_product_prior, semantics
from privgeom.results import Guarantee
from privgeom.testing import hamming_graph
from privgeom.testing import bit_strings

LABELS2 = ("11", "10", "01", "00")

# A DP(e^eps = 3) mechanism on 2 bits whose first row (1/4, 3/4, 3/4, 1/4) breaks the RR(3/4) parity facet
# (1, -3, -3, 9): 1/4 - 9/4 - 9/4 + 9/4 = -2 < 0.
DP_NOT_RR = pg.Mechanism([["1/4", "3/4", "3/4", "1/4"], ["3/4", "1/4", "1/4", "3/4"]], inputs=LABELS2)


def random_post_processing(rng: random.Random, n_out: int, n_in: int) -> list[list[F]]:
    cols = []
    for _ in range(n_in):
        w = [F(rng.randint(0, 5)) for _ in range(n_out)]
        if sum(w) == 0:
            w[rng.randrange(n_out)] = F(1)
        s = sum(w)
        cols.append([v / s for v in w])
    return [[cols[j][i] for j in range(n_in)] for i in range(n_out)]


def test_example_4_4_guarantee_sentence_and_prior():
    gs = semantics(pg.RandomizedResponse(2, "3/4"))
    assert len(gs) == 4
    g = next(g for g in gs if g.s_plus[0] == "11" and set(g.s_plus) == {"11", "00"})
    # Equation (4) of Example 4.4: p^2 x11 + (1-p)^2 x00 >= p(1-p)(x01 + x10): prior (9, 1, 3, 3)/16.
    assert g.prior == {"11": F(9, 16), "00": F(1, 16), "10": F(3, 16), "01": F(3, 16)}
    assert set(g.s_minus) == {"01", "10"}
    assert "proportional to (9, 1, 3, 3)" in g.text
    assert "never ends up believing {10, 01} more likely than {11, 00}" in g.text
    assert "parity" in g.text
    # The four facets split the datasets by parity: two have S+ = even parity, two S+ = odd parity.
    assert sorted(frozenset(g.s_plus) for g in gs) == sorted(
        [frozenset({"11", "00"})] * 2 + [frozenset({"10", "01"})] * 2, key=sorted
    )


@pytest.mark.parametrize("p", ["3/4", "2/3", "9/10"])
def test_rr_facets_all_name_full_parity(p):
    for k in (1, 2, 3):
        gs = semantics(pg.RandomizedResponse(k, p))
        assert len(gs) == 2**k
        assert all(g.parity_bits == tuple(range(k)) for g in gs)
        assert all(g.exact for g in gs)
        # the prior is proportional to |a| and sums to one, exactly
        assert all(sum(g.prior.values()) == 1 for g in gs)


def test_prior_is_proportional_to_abs_coefficients():
    g = Guarantee.from_normal([F(1, 2), F(-3, 2), 0, F(2)], ["a", "b", "c", "d"])
    assert g.s_plus == ("d", "a") and g.s_minus == ("b",)
    assert g.prior == {"d": F(1, 2), "b": F(3, 8), "a": F(1, 8)}
    assert g.parity_bits is None and g.structure == ""


def test_parity_structure_subset_and_complement():
    labels = bit_strings(3)
    # sign = + iff bits 1 and 3 have even parity
    signs = [1 if (int(s[0]) + int(s[2])) % 2 == 0 else -1 for s in labels]
    g = Guarantee.from_normal(signs, labels)
    h = Guarantee.from_normal([-v for v in signs], labels)
    assert g.parity_bits == h.parity_bits == (0, 2)
    # S+ is the even class on bits 1, 3 (it holds 111) for g, the odd class (it holds 110) for the complement
    assert "from 111 on those bits" in g.structure and "from 110 on those bits" in h.structure
    assert "bits 1, 3" in g.text
    assert Guarantee.from_normal([1, -1], ["a", "b"]).parity_bits is None


def test_guarantees_hold_on_members_and_fail_outside():
    rr = pg.RandomizedResponse(2, "3/4")
    gs = semantics(rr)
    M = pg.randomized_response(2, "3/4")
    rng = random.Random(4)
    for _ in range(5):
        A = random_post_processing(rng, 3, 4)
        N = M.post_process(A)
        assert all(check_guarantee(N, g).holds for g in gs)
    checks = [check_guarantee(DP_NOT_RR, g) for g in gs]
    failed = [c for c in checks if not c.holds]
    assert failed, "the DP mechanism outside the RR closure must break a parity guarantee"
    c = failed[0]
    i = c.outputs.index(c.violating_output)
    assert c.posterior_plus[i] < c.posterior_minus[i]
    assert isinstance(c.posterior_plus[i], F)


def test_posteriors_are_the_bayes_formula():
    gs = semantics(pg.RandomizedResponse(2, "3/4"))
    g = next(g for g in gs if set(g.s_plus) == {"11", "00"} and g.s_plus[0] == "11")
    c = check_guarantee(DP_NOT_RR, g)
    # output 0 row (1/4, 3/4, 3/4, 1/4) with prior (11: 9, 10: 3, 01: 3, 00: 1)/16
    plus = F(9, 16) * F(1, 4) + F(1, 16) * F(1, 4)
    minus = F(3, 16) * F(3, 4) * 2
    assert c.posterior_plus[0] == plus / (plus + minus)
    assert c.posterior_minus[0] == minus / (plus + minus)
    assert not c.holds and c.violating_output == DP_NOT_RR.outputs[0]


def test_theorem_4_5_on_random_product_priors_and_post_processings():
    rng = random.Random(45)
    for k, p in ((2, F(3, 4)), (3, F(2, 3))):
        M = pg.randomized_response(k, p)
        for _ in range(6):
            N = M.post_process(random_post_processing(rng, rng.randint(2, 4), 2**k))
            q = [F(rng.randint(0, 20), 20) for _ in range(k)]
            res = check_product_prior(N, p, q)
            assert res.holds, res.summary()
            eligible = [j for j in range(k) if q[j] >= p or q[j] <= 1 - p]
            assert res.eligible_bits == tuple(eligible)
            assert res.subsets_checked == 2 ** len(eligible) - 1


def test_theorem_4_5_only_for_the_closure():
    # Outside the closure the guarantee fails for some product prior (the converse part of Theorem 4.5).
    res = check_product_prior(DP_NOT_RR, "3/4", ["3/4", "3/4"])
    assert not res.holds
    J, output, prior_even, post_even = res.violation
    assert J == (0, 1) and prior_even == F(10, 16) and post_even == F(10, 28)
    assert (res.violation.bits, res.violation.prior_even, res.violation.posterior_even) == (J, prior_even, post_even)
    assert res.violation.output == output and output in DP_NOT_RR.outputs
    assert res.to_dict()["violation"] == [[0, 1], output, "5/8", "5/14"]  # a named tuple is still a JSON list


def test_theorem_4_5_float_mode_agrees():
    M = pg.randomized_response(2, 0.75)
    assert check_product_prior(M, 0.75, [0.8, 0.1]).holds
    assert not check_product_prior(DP_NOT_RR.to_float(), 0.75, [0.75, 0.75]).holds


def test_bad_input():
    with pytest.raises(pg.DomainMismatchError):
        Guarantee.from_normal([1, -1], ["a", "b", "c"])
    with pytest.raises(pg.InvalidParameterError):
        Guarantee.from_normal([0, 0], ["a", "b"])
    with pytest.raises(pg.DomainMismatchError):
        check_product_prior(pg.Mechanism([[1, 0], [0, 1]], inputs=["x", "y"]), "3/4", ["1/2"])
    with pytest.raises(pg.DomainMismatchError):
        check_product_prior(pg.randomized_response(2, "3/4"), "3/4", ["1/2"])
    with pytest.raises(pg.InvalidParameterError):
        check_product_prior(pg.randomized_response(1, "3/4"), "3/4", ["3/2"])
    with pytest.raises(pg.InvalidTypeError):
        semantics("rr:k=2")


def test_semantics_json_round_trip():
    import json

    gs = semantics(pg.RandomizedResponse(1, "3/4"))
    data = json.loads(gs[0].to_json())
    assert set(data) >= {"coefficients", "s_plus", "s_minus", "prior", "text"}
    assert all(isinstance(v, str) for v in data["coefficients"])


def test_parity_is_claimed_only_where_it_says_something():
    # a DP facet x_11 <= 3 x_10 has a 2-point support: any two bit strings "differ in parity" on some bits, so no
    # parity structure is claimed
    for g in semantics(pg.DifferentialPrivacy(hamming_graph(2), exp_eps=3)):
        assert g.parity_bits is None and g.structure == "" and "parity" not in g.text
    # a 4-point support inside 3-bit datasets that splits by the parity of bits 2 and 3: claimed, scoped to the prior
    labels = bit_strings(3)
    normal = [0] * 8
    for s, v in (("111", 1), ("110", -1), ("101", -1), ("100", 1)):
        normal[labels.index(s)] = v
    g = Guarantee.from_normal(normal, labels)
    assert g.parity_bits == (1, 2)
    assert g.structure.startswith("among the datasets the attacker considers") and "bits 2, 3" in g.structure
    # full support: no scoping phrase (Example 4.4)
    assert all(g.structure.startswith("S+ and S-") for g in semantics(pg.RandomizedResponse(2, "3/4")))


# ------------------------------------------------------------------------------------------ lazy guarantees
@pytest.mark.parametrize("p", ["3/4", "2/3", 0.8])
def test_rr_closed_form_guarantees_equal_the_cone_route(p):
    """The closed-form route (Theorem 4.3, no cone) gives the canonical facets of the generic route, in order."""
    for k in (1, 2, 3, 4):
        rr = pg.RandomizedResponse(k, p)
        generic = pg.Cone.from_facets(rr.facets(), exact=rr.exact, labels=rr.inputs)
        fast = semantics(rr)
        slow = semantics(generic)
        if rr.exact:
            assert [g.coefficients for g in fast] == [g.coefficients for g in slow]
        else:
            assert np.allclose([g.coefficients for g in fast], [g.coefficients for g in slow])
        assert [g.s_plus for g in fast] == [g.s_plus for g in slow]


def test_semantics_at_k10_is_cheap_and_sentences_name_sets_by_rule():
    gs = semantics(pg.RandomizedResponse(10, "3/4"))
    assert len(gs) == 1024
    assert all("coefficients" not in g.__dict__ for g in gs)  # nothing built yet
    g = gs[7]
    assert (g.n_plus, g.n_minus) == (512, 512)
    labels = g.labels
    assert sum(s in g.text for s in labels) <= 12  # at most a dozen datasets named
    assert "proportional to 3^(−h)" in g.text and "parity of the bits relative to" in g.text
    # the rule is right: S+ is exactly the datasets at even Hamming distance from the named dataset
    t = g.s_plus[0]
    assert all(sum(a != b for a, b in zip(t, d)) % 2 == 0 for d in g.s_plus)
    assert all(sum(a != b for a, b in zip(t, d)) % 2 == 1 for d in g.s_minus)
    assert sum(g.prior.values()) == 1 and g.prior[t] == max(g.prior.values())
    assert g.prior[t] / g.prior[g.s_minus[0]] == 3  # one bit of Hamming distance: ratio p/(1-p) = 3
    assert len([x for x in gs if "coefficients" in x.__dict__]) == 1


def test_long_sentence_without_structure_names_sets_by_size():
    labels = [f"d{i}" for i in range(20)]
    normal = [F(i + 1) if i % 3 else F(-(i + 1)) for i in range(20)]
    g = Guarantee.from_normal(normal, labels)
    assert g.n_minus == 7 and g.n_plus == 13
    assert "S- (7 datasets, e.g." in g.text and "S+ (13 datasets, e.g." in g.text
    assert sum(f"d{i}," in g.text + "," or f"d{i})" in g.text for i in range(20)) <= 12
    assert "20 distinct weights" in g.text


def test_guarantee_equality_and_json_without_labels():
    a = Guarantee.from_normal([9, -3, -3, 1], LABELS2)
    b = semantics(pg.RandomizedResponse(2, "3/4"))
    assert a in b and hash(a) == hash(next(x for x in b if x == a))
    d = a.to_dict(labels=False)
    assert "labels" not in d and d["s_plus"] == ["11", "00"] and d["prior"]["11"] == "9/16"


def test_describe_row_cone_orbits_match_the_generic_route():
    from privgeom import describe_row_cone
    from privgeom.geometry import automorphisms

    # randomized response (facets by string) and ε-DP (facets by directed edge) against orbits of the dense facets
    for d in (
        pg.RandomizedResponse(3, "3/4"),
        pg.DifferentialPrivacy.hamming(3, exp_eps=3),
        pg.DifferentialPrivacy.path(5, exp_eps=2),
        pg.parse_definition("geometric:n=5,alpha=1/3"),
    ):
        s = describe_row_cone(d)
        generic = automorphisms(d).orbits_of_rows(d.row_cone().facets)
        assert sorted(o.size for o in s.facet_orbits) == sorted(o.size for o in generic)
        assert sum(o.size for o in s.facet_orbits) == s.n_facets
        # the representative printed is a facet of the cone
        F = {tuple(r) for r in d.row_cone().facets.tolist()}
        for o in s.facet_orbits:
            assert tuple(o.guarantee.coefficients) in F
    s = describe_row_cone(pg.DifferentialPrivacy.hamming(4, exp_eps=3), rays=True)
    assert s.n_rays == 990 and sum(size for size, _ in s.ray_orbits) == 990 and len(s.ray_orbits) == 24
