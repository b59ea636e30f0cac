"""The certified worst case of the shuffled tally over every dataset (branch and bound, ``scope="certified"``)
against the exhaustive search over every dataset in exact rationals, and its behaviour at large n."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

import privgeom as pg

RR = pg.randomized_response(1, "3/4")  # inputs/outputs '1', '0'; p = 3/4


def _levels() -> tuple[F, ...]:
    return (F(1), F(11, 10), F(6, 5), F(3, 2), F(2), F(3))


@pytest.mark.parametrize("p", ["3/4", "2/3", "9/10"])
def test_certified_worst_case_equals_the_exhaustive_search(p: str) -> None:
    """Binary randomized response, n <= 12, six levels: the value (within its certified error) and the attaining
    datasets equal the exhaustive exact answer — including the levels where the worst dataset has dissenters."""
    M = pg.randomized_response(1, p)
    for n in range(2, 13):
        S = pg.shuffled(M, n)
        for t in _levels():
            eps = 0 if t == 1 else f"ln({t})"
            full = S.worst_case(eps, scope="all")
            cert = S.worst_case(eps, scope="certified")
            assert cert.certified and cert.scope == "all datasets (branch and bound)"
            if full.delta.value == 0:
                assert cert.delta.value == 0
                continue
            exact = float(full.delta.value)
            assert abs(cert.delta.value / exact - 1) <= cert.delta.rel_error + 1e-15, (p, n, t)
            assert cert.delta.rel_error < 1e-9
            assert set(cert.attaining) == set(full.attaining), (p, n, t)


def test_certified_worst_case_of_an_asymmetric_local_mechanism() -> None:
    """A 2 × 2 local mechanism with no input/report symmetry: every direction is searched."""
    M = pg.Mechanism([["1/3", "3/5"], ["2/3", "2/5"]], ["x", "y"], ["r", "s"])
    for n in (3, 6, 10):
        S = pg.shuffled(M, n)
        for t in (F(1), F(6, 5), F(2)):
            eps = 0 if t == 1 else f"ln({t})"
            full, cert = S.worst_case(eps, scope="all"), S.worst_case(eps, scope="certified")
            if full.delta.value == 0:  # e^ε above every likelihood ratio
                assert cert.delta.value == 0 and t >= F(5, 3)
                continue
            assert abs(cert.delta.value / float(full.delta.value) - 1) <= cert.delta.rel_error + 1e-15
            assert set(cert.attaining) == set(full.attaining)


def test_the_counterexample_to_all_other_users_equal_is_found_and_certified() -> None:
    """n = 8, p = 3/4, e^ε = 3/2: the worst dataset has one dissenter (8019/131072), above every clone pair
    (6561/131072); the branch and bound names it."""
    w = pg.shuffled(RR, 8).worst_case("ln(3/2)", scope="certified")
    assert abs(w.delta.value * 131072 / 8019 - 1) <= w.delta.rel_error + 1e-15
    assert {p.others for p in w.attaining} == {(6, 1), (1, 6)}
    assert w.delta.value > 6561 / 131072 * (1 + 1e-6)


def test_auto_scope_is_certified_at_large_n_for_binary_reports() -> None:
    """Beyond the exhaustive sizes, scope="auto" is the branch and bound for binary reports: certified, with boxes
    of datasets pruned, and its value at least the clone maximum and at least the one-dissenter pairs."""
    S = pg.shuffled(pg.randomized_response(1, "3/4"), 400)
    w = S.worst_case("ln(6/5)")
    assert w.certified and w.boxes_pruned > 0 and w.pairs_checked < 400
    clones = S.worst_case("ln(6/5)", scope="clones")
    near = S.worst_case("ln(6/5)", scope="near")
    assert w.delta.log10 >= near.delta.log10 - 1e-12 >= clones.delta.log10 - 1e-12
    d = w.to_dict()
    assert d["certified"] is True and d["boxes_pruned"] == w.boxes_pruned


def test_certified_scope_refuses_more_than_four_reports_beyond_the_exhaustive_sizes() -> None:
    S = pg.shuffled(pg.kary_randomized_response(5, exp_eps=2), 40)
    with pytest.raises(pg.InvalidParameterError, match="pair evaluator for 5 reports"):
        S.worst_case(0.5, scope="certified")
    assert not S.worst_case(0.5).certified  # auto: the clone maximum, a lower bound
    assert not pg.shuffled(pg.kary_randomized_response(3, exp_eps=2), 40).worst_case(0.5).certified


def test_certified_search_respects_its_limit() -> None:
    with pg.limits(shuffle_certified_boxes=5):
        with pytest.raises(pg.SizeLimitError, match="shuffle_certified_boxes"):
            pg.shuffled(RR, 300).worst_case("ln(6/5)", scope="certified")


@pytest.mark.slow
def test_certified_worst_case_at_n_1000_matches_direct_convolution() -> None:
    """Binary RR, ε0 = 1, n = 1000, ε = 0.05: the worst dataset over every split (direct float convolution, all
    1000 of them) has one dissenter; the certified search finds the same dataset and value."""
    import numpy as np
    from scipy.stats import binom

    n, eps = 1000, 0.05
    p = math.e / (1 + math.e)
    q = 1 - p

    def direct(n1: int) -> float:
        others = np.convolve(binom.pmf(np.arange(n1 + 1), n1, p), binom.pmf(np.arange(n - n1), n - 1 - n1, q))
        P, Q = np.convolve([q, p], others), np.convolve([p, q], others)
        return float(np.maximum(P - math.exp(eps) * Q, 0).sum())

    values = np.array([direct(n1) for n1 in range(n)])
    M = pg.Mechanism([[p, q], [q, p]], ["1", "0"], ["1", "0"])
    w = pg.shuffled(M, n).worst_case(eps, scope="certified")
    assert abs(w.delta.value / values.max() - 1) < 1e-9
    assert {pr.others for pr in w.attaining} == {(998, 1), (1, 998)}


def test_certified_scope_refuses_three_distinct_report_laws() -> None:
    """Two reports but three inputs with three distinct report laws: the general-pair route convolves at most two
    binomials, so the certified search refuses (and auto falls back to the clone maximum, labelled a lower bound)."""
    M = pg.Mechanism([["1/4", "1/2", "3/4"], ["3/4", "1/2", "1/4"]], ["a", "b", "c"], ["1", "0"])
    S = pg.shuffled(M, 200)
    with pytest.raises(pg.InvalidParameterError, match="3 distinct laws"):
        S.worst_case("ln(6/5)", scope="certified")
    assert not S.worst_case("ln(6/5)").certified


def test_auto_falls_back_to_the_clone_maximum_when_the_certified_search_is_too_long() -> None:
    """At ε = 0 the profile over datasets is flat (the variance of the others' count does not depend on the split
    for randomized response) and few boxes prune: under auto, a search past its budget gives the clone maximum,
    labelled a lower bound with the reason; scope="certified" still certifies (every dataset evaluated here)."""
    S = pg.shuffled(pg.randomized_response(1, "3/4"), 2500)
    with pg.limits(shuffle_certified_boxes=50):  # the budget of auto is at most the limit: a quick fallback
        w = S.worst_case(0)
    assert not w.certified and w.scope == "clone pairs (the certified search needs more than 50 pair evaluations here)"
    small = pg.shuffled(pg.randomized_response(1, "3/4"), 200).worst_case(0, scope="certified")
    assert small.certified and small.delta.value > pg.shuffled(pg.randomized_response(1, "3/4"), 200).worst_case(
        0, scope="clones"
    ).delta.value * (1 + small.delta.rel_error)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_certified_equals_exhaustive_for_three_ary_randomized_response(n: int) -> None:
    """The branch and bound with the core-and-minority evaluator (three reports) finds the exhaustive worst case."""
    S = pg.shuffled(pg.kary_randomized_response(3, exp_eps=3), n)
    for eps in ("ln(3/2)", "ln(2)"):
        every = S.worst_case(eps, scope="all")
        found = S.worst_case(eps, scope="certified")
        assert every.certified and found.certified
        assert abs(found.delta.value / float(every.delta.value) - 1) <= max(found.delta.rel_error, 1e-15)
        key = lambda p: (p.others, p.a, p.b)  # noqa: E731
        assert sorted(map(key, found.attaining)) == sorted(map(key, every.attaining))


def test_auto_does_not_try_the_certified_search_for_three_reports_at_large_n() -> None:
    """Auto keeps the clone maximum, labelled a lower bound, for three or four reports at large n (the certified
    search is asked for explicitly: near the level where the worst dataset changes kind it can take minutes)."""
    w = pg.shuffled(pg.kary_randomized_response(3, exp_eps=3), 2000).worst_case("ln(2)")
    assert not w.certified and "clone" in w.scope


def test_certified_three_ary_randomized_response_at_n_300_is_the_third_input_clone() -> None:
    """3-RR, e^ε0 = e², n = 300, ε = 0.5 (below the level where the clone of the changing user's own input takes
    over): the branch and bound over all 45,150 datasets of one direction (the route of §18.10, boxes bounded by the
    mixture lemma of §18.9) certifies the clone whose other users hold the third input — the same value as the clone
    closed form of §18.2, a different route."""
    S = pg.shuffled(pg.kary_randomized_response(3, exp_eps=math.exp(2)), 300)
    w = S.worst_case(0.5, scope="certified")
    assert w.certified and w.boxes_pruned > 0 and w.pairs_checked < 2000
    clones = S.worst_case(0.5, scope="clones")
    assert abs(w.delta.log10 - clones.delta.log10) * math.log(10) <= w.delta.rel_error + clones.delta.rel_error + 1e-12
    third = {
        (p.a, p.b)
        for p in w.attaining
        if max(p.others) == 299 and p.others[p.inputs.index(p.a)] == 0 == p.others[p.inputs.index(p.b)]
    }
    assert len(third) == 6 and len(w.attaining) == 6  # every ordered pair, the others on the third input


@pytest.mark.parametrize("n", [3, 4, 5])
def test_certified_search_with_a_partial_relabelling_symmetry_equals_the_exhaustive_search(n: int) -> None:
    """A 3 × 3 local mechanism invariant only under swapping inputs 0 and 1 together with reports 0 and 1: the search
    takes one ordered pair per orbit (3 of 6) and lists the images; value and attaining datasets equal the exhaustive
    search's, with the mixture bound on (three reports)."""
    M = pg.Mechanism(
        [["1/2", "1/4", "1/3"], ["1/4", "1/2", "1/3"], ["1/4", "1/4", "1/3"]], ["x", "y", "z"], ["r", "s", "u"]
    )
    S = pg.shuffled(M, n)
    for eps in ("ln(6/5)", "ln(3/2)"):
        every = S.worst_case(eps, scope="all")
        found = S.worst_case(eps, scope="certified")
        assert found.certified
        assert abs(found.delta.value / float(every.delta.value) - 1) <= max(found.delta.rel_error, 1e-15)
        key = lambda p: (p.others, p.a, p.b)  # noqa: E731
        assert sorted(map(key, found.attaining)) == sorted(map(key, every.attaining))
