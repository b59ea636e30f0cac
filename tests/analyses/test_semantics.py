"""Semantics of row cones: S+/S-, priors, parity recognition, posterior checks and Theorem 4.5 (Lin & Kifer)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom.analyses import (
    check_guarantee,
    check_product_prior,
    guarantee_from_normal,
    parity_structure,
    semantics,
)

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
    g = guarantee_from_normal([F(1, 2), F(-3, 2), 0, F(2)], ["a", "b", "c", "d"])
    assert g.s_plus == ("d", "a") and g.s_minus == ("b",)
    assert g.prior == {"d": F(1, 2), "b": F(3, 8), "a": F(1, 8)}
    assert g.parity_bits is None and g.structure == ""


def test_parity_structure_subset_and_complement():
    labels = pg.bit_strings(3)
    # sign = + iff bits 1 and 3 have even parity
    signs = [1 if (int(s[0]) + int(s[2])) % 2 == 0 else -1 for s in labels]
    assert parity_structure(labels, signs) == ((0, 2), 0)
    assert parity_structure(labels, [-v for v in signs]) == ((0, 2), 1)
    g = guarantee_from_normal(signs, labels)
    assert "bits 1, 3" in g.text
    assert parity_structure(["a", "b"], [1, -1]) is None


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


def test_theorem_4_5_float_mode_agrees():
    M = pg.randomized_response(2, 0.75)
    assert check_product_prior(M, 0.75, [0.8, 0.1]).holds
    assert not check_product_prior(DP_NOT_RR.to_float(), 0.75, [0.75, 0.75]).holds


def test_bad_input():
    with pytest.raises(pg.DomainMismatchError):
        guarantee_from_normal([1, -1], ["a", "b", "c"])
    with pytest.raises(pg.InvalidParameterError):
        guarantee_from_normal([0, 0], ["a", "b"])
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
    for g in semantics(pg.DifferentialPrivacy(pg.hamming_graph(2), exp_eps=3)):
        assert g.parity_bits is None and g.structure == "" and "parity" not in g.text
    # a 4-point support inside 3-bit datasets that splits by the parity of bits 2 and 3: claimed, scoped to the prior
    labels = pg.bit_strings(3)
    normal = [0] * 8
    for s, v in (("111", 1), ("110", -1), ("101", -1), ("100", 1)):
        normal[labels.index(s)] = v
    g = guarantee_from_normal(normal, labels)
    assert g.parity_bits == (1, 2)
    assert g.structure.startswith("among the datasets the attacker considers") and "bits 2, 3" in g.structure
    # full support: no scoping phrase (Example 4.4)
    assert all(g.structure.startswith("S+ and S-") for g in semantics(pg.RandomizedResponse(2, "3/4")))
