"""The log-space δ of any shuffled pair with up to four merged outputs (privgeom.amplification._pairs) against exact
rationals (the Poisson-multinomial law), the clone closed form, and the exhaustive worst case of the shuffled tally;
the 3-ary randomized-response route (privgeom.amplification._pairs_rr3) against the same references."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom.amplification._engine import clone_delta_log, exact_pair_delta, merge_clone
from privgeom.amplification._pairs import _general_pair, merge_outputs, pair_delta_log
from privgeom.amplification._pairs_rr3 import rr3_delta_over_m, rr3_evaluator, rr3_pair_delta_log

KRR3 = pg.kary_randomized_response(3, exp_eps=2)  # p = 1/2, q = 1/4
KRR4 = pg.kary_randomized_response(4, exp_eps=2)  # p = 2/5, q = 1/5
LEVELS = (F(1), F(11, 10), F(3, 2), F(2))


def _rows(M: pg.Mechanism) -> list[list[F]]:
    return [[M.matrix[j, x] for x in range(M.n_inputs)] for j in range(M.n_outputs)]


def _check(R: list[list[F]], others: tuple[int, ...], a: int, b: int, t: F, general: bool = False) -> float:
    """The log-space value against the exact one: the relative error must lie within the stated bound."""
    exact = F(exact_pair_delta(R, others, a, b, t))
    s = (_general_pair if general else pair_delta_log)(R, others, a, b, float(t))
    if exact == 0:
        assert s.log_value == -math.inf
        return 0.0
    assert 0 < s.rel_error < 1e-6
    rel = abs(math.exp(s.log_value - math.log(exact.numerator) + math.log(exact.denominator)) - 1)
    assert rel <= s.rel_error + 4e-16, (others, a, b, t, rel, s)
    return rel


def _random_others(rng: random.Random, k: int, n: int) -> tuple[int, ...]:
    counts = [0] * k
    for _ in range(n - 1):
        counts[rng.randrange(k)] += 1
    return tuple(counts)


@pytest.mark.parametrize("M", [KRR3, KRR4], ids=["3-RR", "4-RR"])
def test_every_pair_type_against_exact_rationals(M: pg.Mechanism) -> None:
    rng = random.Random(7)
    R = _rows(M)
    k = M.n_inputs
    kinds = [
        lambda n: tuple(n - 1 if x == 1 else 0 for x in range(k)),  # clone, c ∉ {a, b} when a = 0, b = 2
        lambda n: tuple(n - 2 if x == 1 else (1 if x == 0 else 0) for x in range(k)),  # one dissenter holding a
        lambda n: tuple(n - 2 if x == 1 else (1 if x == k - 1 else 0) for x in range(k)),  # one holding a third input
        lambda n: _random_others(rng, k, n),  # random others
    ]
    for n in (2, 4, 7, 10):
        for kind in kinds:
            others = kind(n)
            for a, b in ((0, 2), (2, 0), (1, 0), (0, k - 1)):
                for t in LEVELS[::2] if k == 4 else LEVELS:
                    _check(R, others, a, b, t)


@pytest.mark.parametrize(
    "M",
    [
        pg.unary_encoding(2, exp_eps=3),  # 2 inputs, 4 outputs
        pg.hadamard_response(3, exp_eps=3),  # 3 inputs, 4 outputs
        pg.subset_selection(4, exp_eps=3),  # 4 inputs, 4 outputs
    ],
    ids=["OUE-2", "Hadamard-3", "subset-4"],
)
def test_ldp_protocols_with_four_outputs(M: pg.Mechanism) -> None:
    rng = random.Random(11)
    R = _rows(M)
    k = M.n_inputs
    for n in (3, 6, 9):
        for _ in range(4):
            others = _random_others(rng, k, n)
            a, b = rng.sample(range(k), 2)
            for t in (F(1), F(3, 2)):
                _check(R, others, a, b, t)


def test_general_route_agrees_with_the_clone_closed_form() -> None:
    """On clone pairs with three merged categories the general core sum and the clone route (§18.2) agree within
    their bounds, at an n where no exact value is at hand; with four merged categories only the general route
    exists, checked against exact rationals."""
    Rf = [[float(v) for v in row] for row in _rows(KRR3)]
    for n in (50, 150):
        for c, a, b in ((1, 0, 2), (0, 0, 1), (2, 0, 2)):
            others = tuple(n - 1 if x == c else 0 for x in range(3))
            for t in (1.0, 1.5, 1.9):
                g = _general_pair(Rf, others, a, b, t)
                cl = clone_delta_log(merge_clone(Rf, c, a, b), n, t)
                assert abs(math.exp(g.log_value - cl.log_value) - 1) <= g.rel_error + cl.rel_error
    R4 = _rows(KRR4)
    assert len(merge_clone(R4, 1, 0, 2).probs) == 4
    for n in (5, 20):
        _check(R4, (0, n - 1, 0, 0), 0, 2, F(3, 2))


def test_large_mixed_pair_against_exact_rationals() -> None:
    """A mixed 3-RR pair at n = 40 (every input held): the box, the tilt and the certified tail at work."""
    R = _rows(KRR3)
    for others, a, b in (((20, 12, 7), 0, 2), ((3, 33, 3), 1, 0)):
        for t in (F(1), F(3, 2)):
            _check(R, others, a, b, t)


@pytest.mark.slow
def test_mixed_pair_at_n_100_against_exact_rationals() -> None:
    """At n = 100 the log-pmf terms reach |ln P| ≈ 100: the per-tally bound still covers the exact value."""
    _check(_rows(KRR3), (5, 90, 4), 0, 2, F(3, 2))


def test_binary_dissenter_pair_matches_the_paper_value() -> None:
    # binary RR p = 3/4, n = 8, e^ε = 3/2: one dissenter among the others (docs/amplification.md, finding 1)
    s = pair_delta_log([[0.75, 0.25], [0.25, 0.75]], (6, 1), 0, 1, 1.5)
    assert abs(math.exp(s.log_value) / (8019 / 131072) - 1) <= s.rel_error


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(3, 4),
    st.integers(1, 6),
    st.sampled_from(LEVELS),
    st.integers(0, 10**6),
)
def test_random_mechanisms_within_the_stated_bound(k: int, m: int, n: int, t: F, seed: int) -> None:
    rng = random.Random(seed)
    cols = []
    for _ in range(k):
        w = [rng.randint(1, 9) for _ in range(m)]
        cols.append([F(v, sum(w)) for v in w])
    R = [[cols[x][j] for x in range(k)] for j in range(m)]
    a, b = rng.sample(range(k), 2)
    _check(R, _random_others(rng, k, n), a, b, t)


@pytest.mark.parametrize("t", [F(1), F(3, 2), pytest.param(F(7, 4), marks=pytest.mark.slow)])
def test_exhaustive_worst_case_of_3rr_is_the_maximum_of_the_evaluator(t: F) -> None:
    """For n ≤ 6 the exhaustive worst case over every dataset (exact rationals) is the maximum of pair_delta_log
    over every pair, attained at the same pairs (values within the stated bounds of the maximum)."""
    R = _rows(KRR3)
    eps = 0 if t == 1 else f"ln({t})"
    for n in range(2, 7):
        S = pg.shuffled(KRR3, n)
        w = S.worst_case(eps, scope="all")
        assert w.certified and w.exact
        best = -math.inf
        values = {}
        for p in S.all_pairs():
            a, b = S.inputs.index(p.a), S.inputs.index(p.b)
            s = pair_delta_log(R, p.others, a, b, float(t))
            values[p] = s
            best = max(best, s.log_value)
        assert abs(best - math.log(w.delta.value)) <= 1e-9
        near = {p for p, s in values.items() if s.log_value >= best - 1e-9}
        assert set(w.attaining) <= near
        for p in near - set(w.attaining):  # ties within the bound only when the exact values tie
            assert exact_pair_delta(R, p.others, S.inputs.index(p.a), S.inputs.index(p.b), t) == w.delta.value


def test_merging_keeps_delta() -> None:
    # 4-RR with the others holding only 0 and 1, user 0 → 1: outputs 2 and 3 merge (three merged outputs)
    R = _rows(KRR4)
    assert len(merge_outputs(R, [0, 1])) == 3
    _check(R, (3, 4, 0, 0), 0, 1, F(3, 2))


def test_clone_pair_with_an_output_the_others_never_report() -> None:
    # the others (input 1) never report output 0: a clone pair with a lone output goes to the clone closed form
    R = [[F(1, 2), F(0), F(1, 3)], [F(1, 4), F(1, 2), F(1, 3)], [F(1, 4), F(1, 2), F(1, 3)]]
    for n in (2, 5, 9):
        for t in (F(1), F(3, 2)):
            _check(R, (0, n - 1, 0), 0, 1, t)
            _check(R, (0, n - 1, 0), 2, 0, t)
    with pytest.raises(pg.InvalidParameterError, match="charge every merged output"):
        _general_pair(R, (0, 3, 0), 0, 1, 1.0)


def test_bad_input_and_size_limit() -> None:
    R = [[float(v) for v in row] for row in _rows(KRR3)]
    with pytest.raises(pg.InvalidParameterError, match="two different inputs"):
        pair_delta_log(R, (1, 1, 1), 0, 0, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="3 non-negative counts"):
        pair_delta_log(R, (1, 1), 0, 1, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="at most 4 merged outputs"):
        pair_delta_log(_rows(pg.kary_randomized_response(5, exp_eps=2)), (1, 1, 1, 1, 1), 0, 1, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="charge every merged output"):
        pair_delta_log([[1.0, 0.5, 0.0], [0.0, 0.5, 1.0]], (2, 0, 1), 0, 1, 1.0)
    with pg.limits(shuffle_pair_work=10), pytest.raises(pg.SizeLimitError, match="shuffle_pair_work"):
        pair_delta_log(R, (3, 30, 3), 0, 2, 1.5)


# --- the mixture lemma of docs/theory.md §18.9 (box bounds of the certified worst case) ---------------------------

from privgeom.amplification._mixture import common_law, mixture_bound, profile_of  # noqa: E402


def _random_local(rng: random.Random, k: int, outputs: int) -> list[list[F]]:
    cols = []
    for _ in range(k):
        w = [F(rng.randint(1, 9)) for _ in range(outputs)]
        cols.append([v / sum(w) for v in w])
    return [[cols[x][j] for x in range(k)] for j in range(outputs)]


def test_the_mixture_lemma_holds_exactly_for_one_open_user() -> None:
    """For every input x in X: δ(P + a user holding x) <= γ δ(P + a ν-user) + (1 − γ) δ(P), in exact rationals, on
    random 3 × 3 local mechanisms, pairs and levels (joint convexity of the hockey-stick divergence)."""
    rng = random.Random(7)
    for _ in range(40):
        R = _random_local(rng, 3, 3)
        X = rng.choice([[0, 1], [0, 2], [1, 2], [0, 1, 2]])
        mu = [min(R[j][x] for x in X) for j in range(3)]
        gamma = sum(mu)
        R_aug = [row + [mu[j] / gamma] for j, row in enumerate(R)]
        lo = [rng.randint(0, 2) for _ in range(3)]
        a, b = rng.sample(range(3), 2)
        t = F(rng.choice([1, 6, 3, 2]), rng.choice([1, 1, 2]))
        if t < 1:
            t = 1 / t
        base = exact_pair_delta(R_aug, tuple(lo) + (0,), a, b, t)
        with_nu = exact_pair_delta(R_aug, tuple(lo) + (1,), a, b, t)
        for x in X:
            plus = list(lo)
            plus[x] += 1
            lhs = exact_pair_delta(R_aug, tuple(plus) + (0,), a, b, t)
            assert lhs <= gamma * with_nu + (1 - gamma) * base, (R, X, lo, a, b, t, x)


@pytest.mark.parametrize("seed", range(6))
def test_the_mixture_bound_covers_every_dataset_of_its_box(seed: int) -> None:
    """The certified mixture bound of a box is at least the exact δ of every dataset in it and at most the bound of
    its lower corner alone (random 3-output local mechanisms, n <= 7, random boxes)."""
    rng = random.Random(seed)
    R = (
        _random_local(rng, 3, 3)
        if seed % 2
        else [[F(3, 5), F(1, 5), F(1, 5)], [F(1, 5), F(3, 5), F(1, 5)], [F(1, 5), F(1, 5), F(3, 5)]]
    )
    Rf = [[float(v) for v in row] for row in R]
    profile = profile_of(pair_delta_log)
    for _ in range(6):
        N = rng.randint(2, 6)
        lo = [0, 0, 0]
        for _ in range(rng.randint(0, N - 1)):
            lo[rng.randrange(3)] += 1
        r = N - sum(lo)
        X = sorted(rng.sample(range(3), rng.randint(1, 3)))
        a, b = rng.sample(range(3), 2)
        t = rng.choice([F(1), F(6, 5), F(3, 2), F(2)])
        got = mixture_bound(Rf, lo, r, X, a, b, float(t), profile, target=-math.inf)
        assert got is not None
        bound, used, estimate = got
        assert estimate <= bound + 1e-12  # every f(m) known: the estimate is the bound's sum itself
        assert used >= 1
        corner = pair_delta_log(Rf, tuple(lo), a, b, float(t))
        assert bound <= corner.log_value + math.log1p(corner.rel_error) + 1e-12
        # every way of giving the r open users inputs in X
        from itertools import combinations_with_replacement

        for picks in combinations_with_replacement(X, r):
            c = list(lo)
            for x in picks:
                c[x] += 1
            exact = exact_pair_delta(R, tuple(c), a, b, t)
            if exact > 0:
                assert math.log(exact) <= bound + 1e-12, (R, lo, X, c, a, b, t)


def test_common_law_of_randomized_response_is_uniform() -> None:
    """k-ary randomized response: any two inputs share γ = k q of their law, and ν is uniform."""
    R = [[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]]
    gamma, nu = common_law(R, [1, 2])
    assert gamma == pytest.approx(0.6) and nu == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert common_law([[1.0, 0.0], [0.0, 1.0]], [0, 1]) is None  # no report in common: no bound


def test_near_the_local_level_every_dataset_of_three_ary_rr_has_the_closed_form() -> None:
    """For e^ε >= (E²(n − 1) + 1)/(E(n − 1) + 1), E = e^{ε0}, every pair of shuffled 3-RR has
    δ = q (E − e^ε) p^m q^{n−1−m} with m the other users holding a (docs/theory.md §18.9): only the tally where every
    report is a counts, so the clone of the changing user's own input is the worst dataset there."""
    for E in (F(2), F(3), F(7)):
        p, q = E / (E + 2), 1 / (E + 2)
        R = [[p if i == j else q for j in range(3)] for i in range(3)]
        for n in (2, 3, 5):
            r2 = (E * E * (n - 1) + 1) / (E * (n - 1) + 1)
            for t in (r2, (r2 + E) / 2):
                for m in range(n):
                    for l in range(n - m):
                        c = (m, l, n - 1 - m - l)
                        assert exact_pair_delta(R, c, 0, 1, t) == q * (E - t) * p**m * q ** (n - 1 - m)
            below = r2 - F(1, 10**6)  # just below the threshold some dataset departs from the closed form
            assert (
                any(
                    exact_pair_delta(R, (m, l, n - 1 - m - l), 0, 1, below) != q * (E - below) * p**m * q ** (n - 1 - m)
                    for m in range(n)
                    for l in range(n - m)
                )
                or n == 2
            )


# ------------------------------------------------------------------ 3-ary randomized response with uniform users
def _rr3_rows(p: float) -> list[list[F]]:
    """3-RR with the double ``p`` (``q = (1 − p)/2``, exact for ``p ≥ 1/2``) and a fourth, uniform input column."""
    P, Q, third = F(p), F((1 - p) / 2), F(1, 3)
    return [[P, Q, Q, third], [Q, P, Q, third], [Q, Q, P, third]]


def _rr3_check(p: float, A: int, B: int, C: int, m: int, t: F) -> None:
    exact = F(exact_pair_delta(_rr3_rows(p), (A, B, C, m), 0, 1, t))
    s = rr3_pair_delta_log(p, A, B, C, m, float(t))
    if exact == 0:
        assert s.log_value == -math.inf
        return
    assert 0 < s.rel_error < 1e-9
    rel = abs(math.exp(s.log_value - math.log(exact.numerator) + math.log(exact.denominator)) - 1)
    assert rel <= s.rel_error, (p, A, B, C, m, t, rel, s)


@pytest.mark.parametrize("p", [0.5, 0.6, 0.75, math.exp(2) / (math.exp(2) + 2)])
def test_rr3_route_against_exact_rationals(p: float) -> None:
    """Every mix of a-, b-, c-holders and uniform users (zeros included) up to n = 12, four levels: the tilted
    linear-space value lies within its stated bound of the exact Poisson-multinomial δ (δ = 0 when t ≥ p/q)."""
    mixes = [(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 4, 0), (0, 0, 0, 5), (2, 1, 1, 1), (3, 0, 2, 2)]
    mixes += [(0, 4, 1, 3), (2, 2, 2, 2), (5, 0, 0, 4), (1, 6, 0, 0), (0, 0, 7, 4), (4, 3, 2, 2)]
    for A, B, C, m in mixes:
        for t in LEVELS:
            _rr3_check(p, A, B, C, m, t)


def test_rr3_route_against_exact_rationals_at_n_40() -> None:
    """Large groups of a-, b-, c-holders and uniform users together (n = 40): the product, the recurrence over the
    smaller group and the uniform users, the tilt and the certified box all at work."""
    for mix in ((20, 0, 19, 0), (12, 9, 10, 8), (0, 39, 0, 0), (39, 0, 0, 0)):
        _rr3_check(0.75, *mix, F(3, 2))


def test_rr3_route_against_the_general_log_space_route() -> None:
    """At n = 200 … 2000 with a small minority, the two certified routes agree within both stated errors: clone
    pairs (pair_delta_log takes the closed form of §18.2), a few a/b holders, and uniform users (a 4th column)."""
    p = math.exp(2) / (math.exp(2) + 2)
    q = (1 - p) / 2
    R = [[p, q, q, 1 / 3], [q, p, q, 1 / 3], [q, q, p, 1 / 3]]
    cases = [(0, 0, 199, 0), (0, 0, 1999, 0), (2, 1, 497, 0), (0, 3, 996, 0), (1, 1, 695, 2), (0, 0, 297, 2)]
    for A, B, C, m in cases:
        for t in (1.0, math.exp(0.3), 1.5):
            s = rr3_pair_delta_log(p, A, B, C, m, t)
            r = pair_delta_log(R, (A, B, C, m), 0, 1, t)
            assert abs(math.exp(s.log_value - r.log_value) - 1) <= s.rel_error + r.rel_error, (A, B, C, m, t)
            assert s.rel_error < 1e-9
    # every other user holds a (or b): the clone closed form of §18.2 on the general side
    for others in ((1999, 0, 0, 0), (0, 1999, 0, 0)):
        for t in (1.0, math.exp(0.3)):
            s = rr3_pair_delta_log(p, *others, t)
            r = pair_delta_log(R, others, 0, 1, t)
            assert abs(math.exp(s.log_value - r.log_value) - 1) <= s.rel_error + r.rel_error, (others, t)
            assert s.rel_error < 1e-8


def test_rr3_over_m_matches_single_values_and_decreases() -> None:
    """The recurrence over m gives the single-pair values (within both bounds), and δ never increases with m
    (adding a user of fixed input is a post-processing, §18.4 (iii))."""
    p, t = 0.75, 1.4
    values = rr3_delta_over_m(p, 30, 4, 260, 0, 130, t)  # two chunks of m
    assert len(values) == 131
    for m in (0, 1, 64, 95, 96, 130):
        s = rr3_pair_delta_log(p, 30, 4, 260, m, t)
        assert abs(math.exp(s.log_value - values[m].log_value) - 1) <= s.rel_error + values[m].rel_error
    for x, y in zip(values, values[1:]):
        assert y.log_value <= x.log_value + x.rel_error + y.rel_error
    assert values[-1].log_value < values[0].log_value - 1  # and it does decrease


def test_rr3_evaluator_maps_any_pair_of_inputs() -> None:
    R = _rr3_rows(0.6)
    Rf = [[float(v) for v in row] for row in R]
    for others in ((2, 1, 3, 0), (0, 4, 1, 2), (3, 3, 0, 1)):
        for a, b in ((0, 1), (1, 0), (2, 0), (1, 2)):
            exact = F(exact_pair_delta(R, others, a, b, F(3, 2)))
            s = rr3_evaluator(Rf, others, a, b, 1.5)
            assert abs(math.exp(s.log_value) / float(exact) - 1) <= s.rel_error
    three = [row[:3] for row in Rf]  # no uniform column: m = 0
    assert rr3_evaluator(three, (2, 1, 3), 0, 2, 1.2) == rr3_pair_delta_log(0.6, 2, 3, 1, 0, 1.2)


def test_rr3_bad_input_is_refused_with_the_value() -> None:
    with pytest.raises(pg.InvalidParameterError, match="p = 0.3"):
        rr3_pair_delta_log(0.3, 1, 1, 1, 0, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="p = 1.0"):
        rr3_pair_delta_log(1.0, 1, 1, 1, 0, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="C must be a non-negative integer, got -2"):
        rr3_pair_delta_log(0.5, 1, 1, -2, 0, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="got 0.9"):
        rr3_pair_delta_log(0.5, 1, 1, 1, 0, 0.9)
    with pytest.raises(pg.InvalidParameterError, match="m_lo = 5, m_hi = 4"):
        rr3_delta_over_m(0.5, 1, 1, 1, 5, 4, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="randomized response, got"):
        rr3_evaluator([[0.5, 0.3, 0.25], [0.25, 0.5, 0.25], [0.25, 0.2, 0.5]], (1, 1, 1), 0, 1, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="3 outputs and 3 or 4 inputs, got a 2 x 2"):
        rr3_evaluator([[0.75, 0.25], [0.25, 0.75]], (1, 1), 0, 1, 1.0)
    with pytest.raises(pg.InvalidParameterError, match="must report uniformly, got"):
        rr3_evaluator([[0.5, 0.25, 0.25, 0.5], [0.25, 0.5, 0.25, 0.25], [0.25, 0.25, 0.5, 0.25]], (1, 1, 1, 1), 0, 1, 1)
    with pytest.raises(pg.InvalidParameterError, match="a = 3, b = 0"):
        rr3_evaluator(_rr3_rows(0.5), (1, 1, 1, 1), 3, 0, 1.0)
    with pg.limits(shuffle_pair_work=10), pytest.raises(pg.SizeLimitError, match="shuffle_pair_work"):
        rr3_pair_delta_log(0.5, 3, 2, 30, 1, 1.5)


@pytest.mark.parametrize("A", [0, pytest.param(27, marks=pytest.mark.slow)])
def test_rr3_route_at_n_10_4_against_the_general_route(A: int) -> None:
    """n = 10^4, e^ε0 = e², ε = 0.5: the clone pair (ln δ ≈ −149.024, the closed form of §18.2 on the general side)
    and 27 a-holders among the others agree within both stated errors."""
    p = math.exp(2) / (math.exp(2) + 2)
    q = (1 - p) / 2
    R = [[p, q, q], [q, p, q], [q, q, p]]
    s = rr3_pair_delta_log(p, A, 0, 9999 - A, 0, math.exp(0.5))
    r = pair_delta_log(R, (A, 0, 9999 - A), 0, 1, math.exp(0.5))
    assert abs(math.exp(s.log_value - r.log_value) - 1) <= s.rel_error + r.rel_error
    assert s.rel_error < 3e-8
    if A == 0:
        assert abs(s.log_value + 149.024) < 1e-3


def test_rr3_b_heavy_pairs_against_exact_rationals() -> None:
    """Others mostly holding b (the changing user's other input) up to n = 12, e^ε up to 27/10 < e^{ε0} = e²: the
    least-rate box and its tilts give the exact δ within the stated bound."""
    p = math.exp(2) / (math.exp(2) + 2)
    for mix in ((0, 11, 0, 0), (1, 10, 0, 0), (0, 8, 3, 0), (1, 7, 1, 2)):
        for t in (F(3, 2), F(27, 10)):
            _rr3_check(p, *mix, t)


def test_rr3_b_heavy_pairs_against_the_general_route() -> None:
    """n = 300, e^ε0 = e², ε = 0.5 and 1: b-clones (the closed form of §18.2 on the general side) and b-heavy mixes
    with uniform users agree within both stated errors, with a stated error far below 10^-6."""
    p = math.exp(2) / (math.exp(2) + 2)
    q = (1 - p) / 2
    R = [[p, q, q, 1 / 3], [q, p, q, 1 / 3], [q, q, p, 1 / 3]]
    for others in ((0, 299, 0, 0), (1, 298, 0, 0), (2, 250, 40, 7)):
        for t in (math.exp(0.5), math.exp(1.0)):
            s = rr3_pair_delta_log(p, *others, t)
            r = pair_delta_log(R, others, 0, 1, t)
            assert abs(math.exp(s.log_value - r.log_value) - 1) <= s.rel_error + r.rel_error, (others, t)
            assert s.rel_error < 1e-8


@pytest.mark.parametrize("eps", [0.15, pytest.param(0.5, marks=pytest.mark.slow)])
def test_rr3_tiny_delta_of_the_b_clone_at_n_10_4(eps: float) -> None:
    """n = 10^4, e^ε0 = e²: every other user holds b, δ ≈ e^-363.6 at ε = 0.5 (far below the old absolute floors):
    the stated error stays below 10^-7 and the value matches the clone closed form of §18.2."""
    p = math.exp(2) / (math.exp(2) + 2)
    q = (1 - p) / 2
    R = [[p, q, q], [q, p, q], [q, q, p]]
    s = rr3_pair_delta_log(p, 0, 9999, 0, 0, math.exp(eps))
    r = pair_delta_log(R, (0, 9999, 0), 0, 1, math.exp(eps))
    assert abs(math.exp(s.log_value - r.log_value) - 1) <= s.rel_error + r.rel_error
    assert s.rel_error < 1e-7
    if eps == 0.5:
        assert abs(s.log_value + 363.6327) < 1e-3


@pytest.mark.slow
def test_rr3_tiny_delta_of_b_heavy_mixes_at_n_10_4() -> None:
    """n = 10^4, ε = 0.5: b-heavy pairs whose δ (≈ e^-284 and e^-363.6) lies far below the least-rate point's absolute
    floors keep a certified error below 10^-7. One a-holder among 9998 b-holders agrees with the general route
    (a single a-holder is cheap there); the b-mix lies below the δ of its b-holders alone (adding a user is a
    post-processing of the tally, so it never raises δ; the clone side is the closed form of §18.2)."""
    p = math.exp(2) / (math.exp(2) + 2)
    q = (1 - p) / 2
    R = [[p, q, q], [q, p, q], [q, q, p]]
    t = math.exp(0.5)
    s = rr3_pair_delta_log(p, 1, 9998, 0, 0, t)
    r = pair_delta_log(R, (1, 9998, 0), 0, 1, t)
    assert s.rel_error < 1e-7
    assert abs(math.exp(s.log_value - r.log_value) - 1) <= s.rel_error + r.rel_error
    s = rr3_pair_delta_log(p, 0, 5314, 4374, 0, t)
    r = pair_delta_log(R, (0, 5314, 0), 0, 1, t)
    assert s.rel_error < 1e-7
    assert s.log_value + math.log1p(-s.rel_error) <= r.log_value + math.log1p(r.rel_error)
    assert abs(s.log_value + 284.3967) < 1e-3
