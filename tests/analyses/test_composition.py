"""Composition of mechanisms and definitions: exact privacy profiles against the dense product, the KOV theorem,
certified and accountant brackets, composed definitions' cones, closures and DP sandwich."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom.analyses.composition._certified import certified_delta
from privgeom.analyses.composition._definitions import compose_definitions, composed_dp_sandwich
from privgeom.analyses.composition._loss import ratio_classes
from privgeom.analyses.composition._theorems import basic_composition, kov_check, kov_delta


def _random_mechanism(rng: np.random.Generator, n_out: int, n_in: int, zeros: bool = False) -> pg.Mechanism:
    W = rng.integers(0 if zeros else 1, 7, size=(n_out, n_in))
    W[0] += 1  # every column has mass
    cols = [[F(int(W[w, i]), int(W[:, i].sum())) for i in range(n_in)] for w in range(n_out)]
    return pg.Mechanism(cols, inputs=[str(i) for i in range(n_in)])


# ------------------------------------------------------------------------------------------ against the dense product
@pytest.mark.parametrize("seed", range(6))
def test_exact_profile_equals_the_dense_composition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    M1 = _random_mechanism(rng, 3, 3, zeros=seed % 2 == 0)
    M2 = _random_mechanism(rng, 2, 3)
    for C in (pg.compose(M1, k=3), pg.compose(M1, M2), pg.compose(M1, M2, k=2)):
        dense = C.dense()
        for graph in ("complete", [("0", "1"), ("1", "2")]):
            assert C.epsilon(graph).level == pg.epsilon(dense, graph).level
            for t in (F(1), F(3, 2), F(4), F(30)):
                r = C.delta(graph, exp_eps=t)
                assert r.exact and r.delta == pg.delta(dense, graph, exp_eps=t).delta
                assert r.intercept is not None and r.slope is not None
                assert r.intercept - t * r.slope == r.delta  # the witness event's P(S) − e^ε Q(S)
            curve = C.delta_curve(graph)
            ref = pg.delta_curve(dense, graph)
            assert curve.breakpoints == ref.breakpoints and curve.level == ref.level


def test_irrational_level_gives_the_exact_linear_form() -> None:
    C = pg.compose(pg.randomized_response(1, "3/4"), k=10)
    r = C.delta("hamming", 5.0)
    # e^5 ≈ 148.4: the event is 3^(n1 − n0) ≥ 243, i.e. n1 ≥ 8 of the 10 answers truthful
    import math

    P = sum(F(math.comb(10, n) * 3**n, 4**10) for n in range(8, 11))
    Q = sum(F(math.comb(10, n) * 3 ** (10 - n), 4**10) for n in range(8, 11))
    assert (r.intercept, r.slope) == (P, Q)
    assert r.delta == pytest.approx(float(P) - math.exp(5) * float(Q), rel=1e-12)


def test_kary_rr_on_the_complete_graph_has_one_edge_class_and_the_lattice_stays_small() -> None:
    M = pg.kary_randomized_response(4, exp_eps=3)
    C = pg.compose(M, k=30)
    r = C.delta("complete", exp_eps=3)
    assert r.exact and r.n_atoms == 61  # ratios 3^e, e = −30 … 30
    # one edge: classes {3: P 1/2}, {1: P 1/3}, {1/3: P 1/6}; brute force over count vectors
    import math

    total = F(0)
    for a in range(31):
        for b in range(31 - a):
            c = 30 - a - b
            if a - c >= 2:  # ratio 3^(a − c) > 3
                m = math.comb(30, a) * math.comb(30 - a, b)
                total += m * (
                    F(1, 2) ** a * F(1, 3) ** b * F(1, 6) ** c - 3 * F(1, 6) ** a * F(1, 3) ** b * F(1, 2) ** c
                )
    assert r.delta == total


# ------------------------------------------------------------------------------------------------ theorems
@pytest.mark.parametrize("exp_eps", [F(2), F(3), F(3, 2)])
def test_kov_theorem_3_3_exactly_for_k_up_to_50(exp_eps: F) -> None:
    for k in range(1, 51):
        check = kov_check(k, exp_eps)
        assert check.holds, check.summary()
        assert len(check.rows) == k // 2 + 1


def test_kov_delta_closed_form_small_case() -> None:
    # k = 2, i = 1: (r² − 1)/(1 + r)² = (r − 1)/(r + 1); with δ: 1 − (1 − δ)²(1 − δ_1)
    assert kov_delta(2, 1, 3) == F(1, 2)
    assert kov_delta(2, 1, 3, "1/10") == 1 - F(81, 100) * F(1, 2)


def test_basic_composition_is_an_outer_bound_with_its_exact_gap() -> None:
    M = pg.randomized_response(1, "3/4")
    b = basic_composition(pg.compose(M, k=3), "hamming", ["ln(2)"])
    assert b.bound == 3 * pg.delta(M, "hamming", exp_eps=2).delta == F(3, 4)
    assert b.exact and b.delta == F(27 - 8, 64) and b.gap == F(3, 4) - F(19, 64) and not b.tight
    assert basic_composition(pg.compose(M, k=3), "hamming").tight  # pure ε adds exactly on one edge


# ------------------------------------------------------------------------------------------------ brackets
@pytest.mark.parametrize("seed", range(4))
def test_certified_bracket_contains_the_exact_value(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    M = _random_mechanism(rng, 5, 2)
    classes = ratio_classes(M, 0, 1)
    for k in (2, 9, 14):
        L = pg.compose(M, k=k).loss(("0", "1"))
        for t in (F(1), F(2), F(9, 2)):
            b = certified_delta(classes, k, t)
            assert b.lo <= float(L.delta(t)) <= b.hi and b.hi - b.lo < 1e-8


def test_certified_route_when_the_exact_atoms_do_not_fit() -> None:
    rng = np.random.default_rng(7)
    M = _random_mechanism(rng, 5, 2)
    C = pg.compose(M, k=12)
    exact = C.delta([("0", "1")], exp_eps=2)
    with pg.limits(composition_atoms=50):
        r = C.delta([("0", "1")], exp_eps=2)
        with pytest.raises(pg.SizeLimitError):
            C.delta([("0", "1")], exp_eps=2, route="exact")
    assert r.route == "certified" and not r.exact and r.lo <= exact.delta <= r.hi


@pytest.mark.parametrize("k", [2, 5, 20])
def test_exact_delta_lies_in_dp_accountings_bracket(k: int) -> None:
    pytest.importorskip("dp_accounting")
    from privgeom.analyses.composition._accountants import dp_accounting_bracket

    rng = np.random.default_rng(k)
    for _ in range(3):
        M = _random_mechanism(rng, 3, 2)
        L = pg.compose(M, k=k).loss(("0", "1"))  # the direction 0 → 1 that the accountant is given
        for eps in (0.0, 0.5, 1.5):
            exact = (
                float(L.delta(F(1)))
                if eps == 0
                else float(pg.compose(M, k=k).delta([("0", "1")], eps, route="exact").delta)
            )
            lo, hi = dp_accounting_bracket(M, ("0", "1"), k, eps)
            one_way = _one_way(L, eps)
            assert lo - 1e-9 <= one_way <= hi + 1e-9
            assert exact >= one_way - 1e-15


def _one_way(L, eps: float) -> float:
    import math

    from privgeom.analyses.composition._loss import split_at_exp

    a, b = L.line(split_at_exp(L, eps))
    return float(a) - math.exp(eps) * float(b)


# ------------------------------------------------------------------------------------------------ definitions
def test_composed_dp_on_k3_is_not_decided_by_its_cone_which_is_dp_at_the_product_level() -> None:
    D2 = pg.parse_definition("dp:graph=complete,n=3,exp_eps=2")
    D4 = pg.parse_definition("dp:graph=complete,n=3,exp_eps=4")
    rep = compose_definitions(D2, D2)
    assert rep.row_cone == D4.row_cone()  # Hadamard products of {1, 2}-patterns generate the {1, 4}-patterns
    assert not rep.decided and rep.witness is not None
    assert D4.contains(rep.witness).member and not rep.definition.contains(rep.witness).member
    cmp = pg.compare(rep.definition, D4)
    assert cmp.relation == "subset"
    assert rep.definition.contains(pg.compose(pg.kary_randomized_response(3, exp_eps=2), k=2).dense()).member
    s = composed_dp_sandwich(rep, "complete", steps=3)
    assert (
        s.outer == 4 and s.inner == 2 and s.inner_fails == 2 + F(2, 2**3)
    )  # 2 in (by the ratio candidates), bisection above
    # ε-DP itself is inside (compose with a constant mechanism): every vertex ray mechanism of DP(K3, 2) is a member
    from privgeom.analyses.composition._definitions import ray_mechanisms

    assert all(
        rep.definition.contains(K).member
        for K in ray_mechanisms(np.array(D2.row_cone().rays, dtype=object), list(D2.inputs))
    )
    assert s.failing is not None and not rep.definition.contains(s.failing).member


def test_composed_rr_definitions_sequential_and_independent() -> None:
    R = pg.RandomizedResponse(1, "3/4")
    seq = compose_definitions(R, R)
    assert seq.row_cone == pg.RandomizedResponse(1, "9/10").row_cone()  # ratio 3 · 3 = 9 = p'/(1 − p')
    assert not seq.decided  # RR(9/10) has total variation 4/5; the composition of two RR(3/4) only 1/2
    assert not seq.definition.contains(pg.randomized_response(1, "9/10")).member
    ind = compose_definitions(R, R, independent=True)
    assert ind.decided and ind.row_cone == pg.RandomizedResponse(2, "3/4").row_cone()
    assert isinstance(ind.definition, pg.ConeDefinition)
    assert ind.definition.contains(pg.randomized_response(2, "3/4")).member


def test_compose_refuses_mixed_or_mismatched_items() -> None:
    with pytest.raises(pg.InvalidTypeError):
        pg.compose(pg.randomized_response(1, "3/4"), pg.RandomizedResponse(1, "3/4"))  # type: ignore[call-overload]
    with pytest.raises(pg.DomainMismatchError):
        pg.compose(pg.randomized_response(1, "3/4"), pg.kary_randomized_response(3, exp_eps=2))
    with pytest.raises(pg.InvalidParameterError):
        pg.compose(pg.randomized_response(1, "3/4"), k=0)
    with pytest.raises(pg.DomainMismatchError):
        pg.compose(pg.randomized_response(1, "3/4"), k=2).loss(("1", "x"))
    with pytest.raises(pg.InvalidParameterError):
        pg.compose(pg.randomized_response(1, "3/4"), k=2).delta("hamming", exp_eps=2, route="fast")


def test_heterogeneous_certified_route_brackets_the_exact_value() -> None:
    rng = np.random.default_rng(11)
    M1, M2 = _random_mechanism(rng, 4, 2), _random_mechanism(rng, 3, 2, zeros=True)
    C = pg.compose((M1), M2, k=6)
    for t in (F(1), F(3), F(12)):
        exact = C.delta([("0", "1")], exp_eps=t)
        r = C.delta([("0", "1")], exp_eps=t, route="certified")
        assert r.route == "certified" and r.lo <= exact.delta <= r.hi and r.hi - r.lo < 1e-9


def test_composed_cone_definition_answers_every_analysis() -> None:
    D = pg.compose(pg.RandomizedResponse(1, "3/4"), pg.RandomizedResponse(1, "2/3"), independent=True)
    assert isinstance(D, pg.ConeDefinition)
    # the product of RR(3/4) and RR(2/3) on two bits is a member; RR(2, 3/4) is not (its second bit says more)
    assert D.contains(pg.randomized_response(1, "3/4").product(pg.randomized_response(1, "2/3"))).member
    assert not D.contains(pg.randomized_response(2, "3/4")).member
    assert len(pg.semantics(D)) == D.row_cone().n_facets
    b = pg.dp_bounds(D, "hamming")
    assert b.outer.exp_eps == 3  # the worse bit
    opt = pg.optimal_mechanism(D, "accuracy")
    assert opt.value == F(3, 4) * F(2, 3)  # the product of the two bits' accuracies


def test_epsilon_witness_output_has_the_stated_probabilities() -> None:
    M = pg.Mechanism([["1/2", "1/8"], ["1/4", "1/16"], ["1/4", "13/16"]], inputs=["a", "b"])  # two outputs of ratio 4
    r = pg.compose(M, k=3).epsilon("complete")
    assert r.level.exp_eps == 64 and r.output == "o0^3" and (r.p, r.q) == (F(1, 8), F(1, 512))


def test_rr_composed_1000_times_at_150_against_the_binomial_sum() -> None:
    import math

    r = pg.compose(pg.randomized_response(1, "3/4"), k=1000).delta("hamming", exp_eps=150)
    # 3^(2n − 1000) > 150 iff n ≥ 503 truthful answers (3^5 = 243 > 150 > 81 = 3^4)
    expected = sum(F(math.comb(1000, n) * (3**n - 150 * 3 ** (1000 - n)), 4**1000) for n in range(503, 1001))
    assert r.exact and r.delta == expected and r.n_atoms == 1001


def test_prv_accountant_bounds_contain_the_exact_value() -> None:
    pytest.importorskip("prv_accountant")
    from prv_accountant import PRVAccountant

    from privgeom.analyses.composition._accountants import to_prv_accountant

    M = pg.randomized_response(1, "3/4")
    acc = PRVAccountant(
        prvs=[to_prv_accountant(M, ("1", "0"))], max_self_compositions=[50], eps_error=0.01, delta_error=1e-8
    )
    lo, _, hi = acc.compute_delta(3.0, [50])
    assert lo <= float(pg.compose(M, k=50).delta("hamming", 3.0).delta) <= hi


def test_which_guarantees_survive_composition() -> None:
    D2 = pg.parse_definition("dp:graph=complete,n=3,exp_eps=2")
    rep = compose_definitions(D2, D2)
    assert rep.survived == (0, 0) and rep.appeared == 6  # every 2x_i ≥ x_j gives way to 4x_i ≥ x_j
    constant = pg.FiniteDefinition([pg.Mechanism([[1, 1, 1]], inputs=list(D2.inputs))])
    same = compose_definitions(D2, constant)  # composing with a constant mechanism changes nothing
    # (the constant's cone is the ray 1: its one facet, x0 + x1 + x2 ≥ 0, holds too; its equalities are not facets)
    assert same.decided and same.row_cone == D2.row_cone() and same.survived == (6, 1) and same.appeared == 0


def _direction(a) -> tuple:
    """A facet normal up to positive scaling."""
    v = [F(x) for x in a]
    m = max(abs(x) for x in v)
    return tuple(x / m for x in v)


def test_tensor_product_with_a_simplicial_factor_has_exactly_the_product_facets() -> None:
    R = pg.RandomizedResponse(1, "3/4")  # a simplicial cone on two datasets
    D = pg.parse_definition("dp:graph=complete,n=3,exp_eps=2")  # six rays in three dimensions: not simplicial
    rep = compose_definitions(R, D, independent=True)
    products = {
        _direction([F(x) * F(y) for x in a for y in b]) for a in R.row_cone().facets for b in D.row_cone().facets
    }
    assert {_direction(f) for f in rep.row_cone.facets} == products  # docs/theory.md §20, "Facets of a tensor product"
    assert rep.row_cone.n_facets == R.row_cone().n_facets * D.row_cone().n_facets


def test_huge_k_is_refused_before_anything_is_built() -> None:
    M, D = pg.randomized_response(1, "3/4"), pg.RandomizedResponse(1, "3/4")
    for call in (
        lambda: pg.compose(M, k=10**12),
        lambda: pg.compose((M, 10**12)),
        lambda: pg.compose(M, k=10**12, independent=True),
        lambda: pg.compose(D, k=10**12),
    ):
        with pytest.raises(pg.SizeLimitError, match=r"1,000,000,000,000 runs .*composition_runs"):
            call()
    with pg.limits(composition_runs=3):
        assert pg.compose(M, k=3).k == 3
        with pytest.raises(pg.SizeLimitError, match="4 runs"):
            pg.compose((M, 2), (pg.randomized_response(1, "2/3"), 2))


def test_float_generators_compose_bit_exactly_or_are_refused_with_the_reason() -> None:
    halves = pg.FiniteDefinition([pg.Mechanism([[0.75, 0.25], [0.25, 0.75]], inputs=["1", "0"], exact=False)])
    rep = compose_definitions(halves, halves)  # binary fractions: converted exactly, the same as RR(3/4) composed
    assert (
        rep.row_cone == compose_definitions(pg.RandomizedResponse(1, "3/4"), pg.RandomizedResponse(1, "3/4")).row_cone
    )
    tenths = pg.FiniteDefinition([pg.Mechanism([[0.7, 0.2], [0.3, 0.8]], inputs=["a", "b"], exact=False)])
    with pytest.raises(pg.InvalidParameterError, match=r"computed exactly.*rational entries"):
        pg.compose(tenths, tenths)


def test_float_definitions_compose_from_exact_cones_or_are_refused() -> None:
    # a float definition's own row cone is rounded (rays (1, 0.333…)): the composed cone must come from the exact
    # generators — RR(3/4) ⊙ RR(3/4) has rays (9, 1), (1, 9), not a rounded ratio
    halves = pg.FiniteDefinition([pg.Mechanism([[0.75, 0.25], [0.25, 0.75]], inputs=["1", "0"], exact=False)])
    rep = compose_definitions(halves, halves)
    assert sorted(tuple(r) for r in rep.row_cone.rays) == [(1, 9), (9, 1)]
    assert all(c.exact for c in rep.parts)
    float_dp = pg.DifferentialPrivacy.hamming(1, exp_eps=1.5)
    if not float_dp.row_cone().exact:
        with pytest.raises(pg.InvalidParameterError, match="row cone is in floats"):
            pg.compose(float_dp, float_dp)
