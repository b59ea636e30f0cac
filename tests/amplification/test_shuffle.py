"""The shuffled tally: laws against brute force, the clone closed form against the exact laws and mpmath, the
exhaustive worst case against the clone maximum used at large n, and FMT's published bound against exact values."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

import privgeom as pg
from hypothesis import given, settings
from hypothesis import strategies as st

from privgeom.amplification._engine import clone_delta_log, dissenter_delta_log, exact_pair_delta, merge_clone
from privgeom.amplification._pairs_binary import binary_pair_delta_log
from privgeom.amplification import blanket_delta, fmt_delta

RR = pg.randomized_response(1, "3/4")  # inputs/outputs '1', '0'; p = 3/4
KRR3 = pg.kary_randomized_response(3, exp_eps=2)  # p = 1/2, q = 1/4


def _brute_law(M: pg.Mechanism, inputs: tuple[int, ...]) -> dict[tuple[int, ...], F]:
    """Law of the tally by enumerating every vector of reports (independent of the package's convolution)."""
    law: dict[tuple[int, ...], F] = {}
    m = M.n_outputs
    for reports in itertools.product(range(m), repeat=len(inputs)):
        prob = F(1)
        for x, j in zip(inputs, reports):
            prob *= M.matrix[j, x]
        h = tuple(reports.count(j) for j in range(m))
        law[h] = law.get(h, F(0)) + prob
    return law


def test_dense_matrix_is_the_law_of_the_tally() -> None:
    for M, n in ((RR, 3), (KRR3, 3)):
        S = pg.shuffled(M, n).mechanism()
        for label, point in zip(S.inputs, S.domain.points):
            inputs = tuple(x for x, c in enumerate(point) for _ in range(c))
            law = _brute_law(M, inputs)
            col = dict(zip(S.outputs, S.column(label)))
            for h, p in law.items():
                assert col["[" + ",".join(map(str, h)) + "]"] == p


@pytest.mark.parametrize("t", [F(1), F(11, 10), F(3, 2), F(2), F(3)])
def test_clone_closed_form_equals_the_exact_law(t: F) -> None:
    eps = 0 if t == 1 else f"ln({t})"
    for M, ns in ((RR, range(1, 13)), (KRR3, range(1, 7))):
        rows = [[M.matrix[j, x] for x in range(M.n_inputs)] for j in range(M.n_outputs)]
        for n in ns:
            S = pg.shuffled(M, n)
            for p in S.clone_pairs():
                closed = S.delta(eps, p, method="exact")
                assert closed.exact and closed.route == "clone closed form (exact)"
                law = exact_pair_delta(rows, p.others, M.inputs.index(p.a), M.inputs.index(p.b), t)
                assert law == closed.value


def test_worst_case_agrees_with_the_generic_delta_of_the_dense_matrix() -> None:
    """The package's generic δ over the replace-one graph of input histograms is the max over neighbouring pairs in
    both orders: it must equal the exhaustive worst case."""
    for M, n, t in ((RR, 6, F(3, 2)), (KRR3, 4, F(6, 5)), (RR, 9, F(11, 10))):
        S = pg.shuffled(M, n)
        w = S.worst_case(f"ln({t})", scope="all")
        generic = pg.delta(S.mechanism(), S.relation(), eps=f"ln({t})")
        assert w.certified and generic.delta == w.delta.value


def _mp_shuffled_rr_delta(n: int, p: float, eps: float) -> mpmath.mpf:
    """δ of the clone pair (others hold input 1) from the definition, in 40-digit arithmetic: P_a(c) = p s(c−1) +
    q s(c) with s = Bin(n−1, p) (independent of the closed form)."""
    mpmath.mp.dps = 40
    P, Q, t = mpmath.mpf(p), 1 - mpmath.mpf(p), mpmath.e ** mpmath.mpf(eps)

    def s(c: int) -> mpmath.mpf:
        if c < 0 or c > n - 1:
            return mpmath.mpf(0)
        return mpmath.exp(
            mpmath.loggamma(n)
            - mpmath.loggamma(c + 1)
            - mpmath.loggamma(n - c)
            + c * mpmath.log(P)
            + (n - 1 - c) * mpmath.log(Q)
        )

    total = mpmath.mpf(0)
    for c in range(n + 1):
        a = P * s(c - 1) + Q * s(c)
        b = Q * s(c - 1) + P * s(c)
        if a > t * b:
            total += a - t * b
    return total


@pytest.mark.parametrize("n, eps", [(2000, 0.1), (2000, 0.4), (5000, 0.3)])
def test_log_space_route_against_mpmath(n: int, eps: float) -> None:
    p = math.e / (1 + math.e)
    M = pg.Mechanism([[p, 1 - p], [1 - p, p]], ["1", "0"], ["1", "0"])
    S = pg.shuffled(M, n)
    r = S.delta(eps, S.pair({"1": n - 1}, "1", "0"), method="log")
    ref = _mp_shuffled_rr_delta(n, p, eps)
    rel = abs(mpmath.log10(ref) - r.log10) * math.log(10)
    assert rel <= r.rel_error + 1e-15, (rel, r.rel_error)
    assert r.rel_error < 1e-9


def test_log_space_route_against_exact_rationals_two_dimensions() -> None:
    n = 60
    S = pg.shuffled(KRR3, n)
    Sf = pg.shuffled(KRR3.to_float(), n)
    for p in S.clone_pairs()[:6]:
        e = S.delta("ln(6/5)", p, method="exact")
        f = Sf.delta("ln(6/5)", Sf.pair(p.others, p.a, p.b), method="log")
        assert abs(f.value / float(e.value) - 1) <= f.rel_error + 1e-15


def test_exhaustive_worst_case_against_the_clone_maximum() -> None:
    """The reduction suggested for large n — the maximum over clone pairs (every other user holds one input) — is not
    the worst case (scope="certified" is what large n uses). Exhaustively for
    n <= 12 (binary RR, p = 3/4) and n <= 6 (3-ary RR, e^ε0 = 2): it is never above the worst case; it equals it at
    the levels tested with e^ε >= 2 (binary) and e^ε >= 7/4 (3-ary); it does NOT at smaller levels (binary: e^ε <= 3/2
    for most n; 3-ary: e^ε = 3/2 at n = 3, 5, 6) — the worst dataset is mixed there."""
    for M, ns, high in ((RR, range(2, 13), (F(2), F(5, 2), F(3))), (KRR3, range(2, 7), (F(7, 4), F(2), F(3)))):
        for n in ns:
            S = pg.shuffled(M, n)
            for t in (F(1), F(11, 10), F(6, 5), F(3, 2)) + high:
                eps = 0 if t == 1 else f"ln({t})"
                full, clones = S.worst_case(eps, scope="all"), S.worst_case(eps, scope="clones")
                assert full.certified and not clones.certified
                assert clones.delta.value <= full.delta.value
                if t in high:
                    assert clones.delta.value == full.delta.value, (n, t)
                    assert set(clones.attaining) <= set(full.attaining)
    # the counterexamples: the worst dataset of 8 users at e^ε = 3/2 has one dissenter among the others
    S = pg.shuffled(RR, 8)
    full, clones = S.worst_case("ln(3/2)", scope="all"), S.worst_case("ln(3/2)", scope="clones")
    assert full.delta.value == F(8019, 131072) and clones.delta.value == F(6561, 131072)
    assert {p.others for p in full.attaining} == {(6, 1), (1, 6)}
    # and at ε = 0 (total variation) the worst split is balanced
    full = pg.shuffled(RR, 8).worst_case(0, scope="all")
    assert {p.others for p in full.attaining} == {(4, 3), (3, 4)}


def test_pure_epsilon_is_not_amplified() -> None:
    for M, n in ((RR, 5), (KRR3, 4)):
        S = pg.shuffled(M, n)
        e = S.epsilon()
        assert e.level.exp_eps == pg.epsilon(M, "complete").level.exp_eps
        assert e.level.exp_eps == pg.epsilon(S.mechanism(), S.relation()).level.exp_eps
        assert isinstance(e.level, pg.PrivacyLevel) and e.level.exact and str(e.level) == f"ln({e.level.exp_eps})"


def test_pure_epsilon_of_a_separating_local_mechanism_is_infinite() -> None:
    e = pg.shuffled(pg.Mechanism([[1, 0], [0, 1]]), 3).epsilon()
    assert e.level.exp_eps == math.inf == pg.epsilon(pg.Mechanism([[1, 0], [0, 1]]), "complete").level.exp_eps


@pytest.mark.parametrize("t", [F(1), F(11, 10), F(3, 2), F(2)])
def test_fmt_clone_bound_is_never_below_the_exact_worst_case(t: F) -> None:
    eps = 0 if t == 1 else f"ln({t})"
    for M, e0, ns in ((RR, F(3), range(2, 13)), (KRR3, F(2), range(2, 7))):
        for n in ns:
            exact = pg.shuffled(M, n).worst_case(eps, scope="all").delta.value
            bound = fmt_delta(n, e0, eps).value
            assert exact <= bound, (n, t, exact, bound)


@pytest.mark.parametrize("t", [F(1), F(11, 10), F(3, 2), F(2)])
def test_blanket_bound_is_never_below_the_exact_worst_case_and_tighter_than_fmt_for_rr(t: F) -> None:
    eps = 0 if t == 1 else f"ln({t})"
    for M, e0, ns in ((RR, F(3), range(2, 13)), (KRR3, F(2), range(2, 7))):
        for n in ns:
            exact = pg.shuffled(M, n).worst_case(eps, scope="all").delta.value
            blanket = blanket_delta(M, n, eps).value
            assert exact <= blanket, (n, t)
            if M is RR:
                assert blanket <= fmt_delta(n, e0, eps).value
    # at n = 3 and ε = 0 the blanket bound is attained: 5/16 (a mixed dataset and the clone pairs both give it)
    assert blanket_delta(RR, 3, 0).value == pg.shuffled(RR, 3).worst_case(0).delta.value == F(5, 16)


def test_fmt_bound_is_the_published_pair() -> None:
    """FMT's pair at n = 3, e^ε0 = 3, ε = 0 by hand: C ~ Bin(2, 1/3), total variation (2α − 1)·TV(Bin(C,1/2), +1)
    with α = 3/4: 1/2 · (4/9 · 1 + 4/9 · 1/2 + 1/9 · 1/2) = 13/36."""
    assert fmt_delta(3, F(3), 0).value == F(13, 36)


def test_bad_input_is_refused_with_the_value_named() -> None:
    S = pg.shuffled(RR, 4)
    with pytest.raises(pg.InvalidParameterError, match="'2' is not an input"):
        S.pair(a="2")
    with pytest.raises(pg.InvalidParameterError, match="sum to n - 1 = 3, got 2"):
        S.pair({"1": 2}, "1", "0")
    with pytest.raises(pg.InvalidParameterError, match="two different inputs"):
        S.pair(a="1", b="1")
    with pytest.raises(pg.InvalidParameterError, match="unknown method 'fast'"):
        S.delta(0.1, S.pair(), method="fast")
    S3 = pg.shuffled(KRR3, 4)  # a mixed 3-ary pair in log space agrees with the exact law within its bound
    mixed = S3.pair({"0": 1, "1": 1, "2": 1}, "0", "1")
    logd, exact = S3.delta(0.1, mixed, method="log"), S3.delta(0.1, mixed, method="exact")
    assert logd.route == "core and minority (log space)"
    assert abs(logd.value / float(exact.value) - 1) <= logd.rel_error
    with pytest.raises(pg.InvalidParameterError, match="n must be"):
        pg.shuffled(RR, 0)
    with pytest.raises(pg.InvalidTypeError):
        pg.shuffled("rr", 3)
    with pg.limits(shuffle_tallies=10):
        with pytest.raises(pg.SizeLimitError, match="shuffle_tallies"):
            pg.shuffled(RR, 40).mechanism()


def test_results_serialise() -> None:
    S = pg.shuffled(RR, 10**6)
    r = S.delta(0.05, S.pair(a="1", b="0"))
    d = r.to_dict()
    assert d["route"] == "clone closed form (log space)" and d["value"] == 0.0 and d["log10"] < -400
    assert "e-4" in str(r)  # printed through its log10


def test_one_dissenter_beats_the_clone_pairs_at_n_1000() -> None:
    """The claim of docs/amplification.md: binary RR with ε0 = 1 over n = 1000 users at ε = 0.05. Every dataset
    (n1 of the other users hold 1), in floats by direct convolution (independent of the package's routes): the worst
    has one dissenter (n1 = 998), about 0.06 % above the clone pair n1 = 999, whose value the log-space route gives."""
    from scipy.stats import binom

    n, eps = 1000, 0.05
    p = math.e / (1 + math.e)
    q = 1 - p

    def direct(n1: int) -> float:
        others = np.convolve(binom.pmf(np.arange(n1 + 1), n1, p), binom.pmf(np.arange(n - n1), n - 1 - n1, q))
        P, Q = np.convolve([q, p], others), np.convolve([p, q], others)
        return float(np.maximum(P - math.exp(eps) * Q, 0).sum())

    values = np.array([direct(n1) for n1 in range(n)])
    assert int(values.argmax()) == 998
    assert 5e-4 < values[998] / values[999] - 1 < 7e-4
    M = pg.Mechanism([[p, q], [q, p]], ["1", "0"], ["1", "0"])
    S = pg.shuffled(M, n)
    clone = S.delta(eps, S.pair({"1": n - 1}, "1", "0"), method="log")
    assert abs(clone.value / values[999] - 1) < 1e-9
    near = S.worst_case(eps, scope="near")  # the clone pairs and the pairs with 1..3 dissenters find it
    assert abs(near.delta.value / values.max() - 1) < 1e-9 and near.delta.pair.others in ((998, 1), (1, 998))
    assert not near.certified


def test_dissenter_route_against_exact_rationals() -> None:
    for n, t in ((8, F(3, 2)), (12, F(11, 10)), (30, F(2))):
        S = pg.shuffled(RR, n)
        Sf = pg.shuffled(RR.to_float(), n)
        for p in S.dissenter_pairs(3):
            e = S.delta(f"ln({t})", p, method="exact")
            f = Sf.delta(f"ln({t})", Sf.pair(p.others, p.a, p.b), method="log")
            assert f.route == "clone tally with dissenters (log space)"
            assert abs(f.value / float(e.value) - 1) <= f.rel_error + 1e-15


def test_worst_case_compares_exact_values_exactly(monkeypatch) -> None:
    # two pairs whose exact δ differ by 10^-30 relative have the same float log10: the larger must be reported
    S = pg.shuffled(pg.randomized_response(1, "3/4"), 3)
    small, large = F(1, 7), F(1, 7) + F(1, 7 * 10**30)
    pairs = S.all_pairs()
    assert math.log10(small) == math.log10(large)
    real = type(S).delta

    def fake(self, level, pair, *, method="auto"):
        r = real(self, level, pair, method=method)
        value = large if pair == pairs[-1] else small
        return type(r)(value, math.log10(value), 0.0, r.level, pair, r.n, True, r.route, r.terms)

    monkeypatch.setattr(type(S), "delta", fake)
    w = S.worst_case("ln(2)", scope="all")
    assert w.delta.value == large and w.attaining == (pairs[-1],)


def test_exact_local_at_an_irrational_level_is_bracketed_with_a_stated_error() -> None:
    # exact 3-RR at ε = 0.5 over 5 users: the exhaustive worst case used the law in floats with no error bound; now
    # the exact law at rationals around e^0.5 brackets it — checked against the dense matrix at e^0.5 to 40 digits
    from decimal import Decimal, getcontext

    getcontext().prec = 50
    t = F(Decimal("0.5").exp())
    S = pg.shuffled(pg.kary_randomized_response(3, exp_eps=2), 5)
    w = S.worst_case(0.5)
    assert w.certified and 0 < w.delta.rel_error < 1e-12
    true = pg.delta(S.mechanism(), S.relation(), exp_eps=t).delta
    assert abs(F(w.delta.value) - true) <= F(w.delta.rel_error) * true


def _rational_binary(p: F, q: F) -> tuple[list[list[F]], list[list[float]]]:
    R = [[p, q], [1 - p, 1 - q]]
    return R, [[float(v) for v in row] for row in R]


@pytest.mark.parametrize("p, q", [(F(3, 4), F(1, 4)), (F(1, 3), F(3, 5)), (F(9, 10), F(1, 2)), (F(1), F(1, 4))])
def test_general_pair_evaluator_against_exact_rationals(p: F, q: F) -> None:
    """Every dataset of n <= 14 users, both directions, five levels: the log-space δ of a general binary pair is
    within its certified relative error of the exact Poisson-binomial law (a zero exactly where δ = 0)."""
    R, Rf = _rational_binary(p, q)
    for n in (2, 3, 5, 9, 14):
        for m in range(n):
            for t in (F(1), F(11, 10), F(3, 2), F(2), F(4)):
                for a, b in ((0, 1), (1, 0)):
                    exact = exact_pair_delta(R, (m, n - 1 - m), a, b, t)
                    s = binary_pair_delta_log(Rf, (m, n - 1 - m), a, b, float(t))
                    if exact == 0:
                        assert s.log_value == -math.inf
                        continue
                    assert abs(math.exp(s.log_value) / float(exact) - 1) <= s.rel_error + 1e-15, (p, q, n, m, t)
                    assert s.rel_error < 1e-9


@pytest.mark.parametrize("n, eps", [(2000, 0.1), (100_000, 0.05), (1_000_000, 0.05)])
def test_general_pair_evaluator_against_the_clone_and_dissenter_routes(n: int, eps: float) -> None:
    """At large n the general evaluator agrees with the clone closed form (clone pairs) and with the dissenter
    route (one to three dissenters) within the sum of their certified errors, and certifies better than 1e-9."""
    p = math.e / (1 + math.e)
    R = [[p, 1 - p], [1 - p, p]]
    t = math.exp(eps)
    for c in (0, 1):
        s = binary_pair_delta_log(R, (n - 1, 0) if c == 0 else (0, n - 1), 0, 1, t)
        ref = clone_delta_log(merge_clone(R, c, 0, 1), n, t)
        assert abs(s.log_value - ref.log_value) <= s.rel_error + ref.rel_error + 1e-15
        assert s.rel_error < 1e-9
    if n <= 100_000:  # the dissenter route costs (n + 1)(d + 1)
        for d in (1, 3):
            s = binary_pair_delta_log(R, (n - 1 - d, d), 0, 1, t)
            ref = dissenter_delta_log(R, n, 0, 1, d, 0, 1, t)
            assert abs(s.log_value - ref.log_value) <= s.rel_error + ref.rel_error + 1e-15
    s = binary_pair_delta_log(R, (n // 2, n - 1 - n // 2), 0, 1, t)  # a balanced split: two binomials convolved
    assert s.rel_error < 1e-9 and s.log_value > -math.inf


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(2, 9),
    st.sampled_from([F(1), F(11, 10), F(3, 2), F(2)]),
    st.data(),
)
def test_a_box_bound_is_above_every_dataset_in_the_box(i: int, j: int, n: int, t: F, data) -> None:
    """The lemma behind the pruning: for others with m in [m_lo, m_hi] holding input 0, the δ of the pair with only
    the m_lo holders of input 0 and the n − 1 − m_hi holders of input 1 (fewer users) bounds — with its certified
    error — the exact δ of every dataset in the box (post-processing by the remaining users' reports)."""
    R, Rf = _rational_binary(F(i, 10), F(j, 10))
    N = n - 1
    m_lo = data.draw(st.integers(0, N))
    m_hi = data.draw(st.integers(m_lo, N))
    a = data.draw(st.integers(0, 1))
    bound = binary_pair_delta_log(Rf, (m_lo, N - m_hi), a, 1 - a, float(t))
    upper = math.exp(bound.log_value) * (1 + bound.rel_error) if bound.log_value > -math.inf else 0.0
    for m in range(m_lo, m_hi + 1):
        exact = exact_pair_delta(R, (m, N - m), a, 1 - a, t)
        assert float(exact) <= upper * (1 + 1e-15) + 1e-300, (m_lo, m_hi, m, exact, upper)


@pytest.mark.parametrize("p, q", [(F(3, 4), F(1, 4)), (F(1, 3), F(3, 5))])
def test_every_pruned_box_is_below_its_bound_and_the_maximum(p: F, q: F) -> None:
    """The branch and bound's audit trail: every box it prunes, at n = 12 and 30, has every dataset's exact δ at most
    the box's certified bound, and that bound below the certified maximum."""
    from privgeom.amplification._worst import certified_worst_case

    R, Rf = _rational_binary(p, q)
    for n in (12, 30):
        for t in (F(1), F(11, 10), F(3, 2)):
            boxes: list = []
            w = certified_worst_case(Rf, n, float(t), on_prune=lambda *box: boxes.append(box))
            top = math.exp(w.log_value) * (1 + w.rel_error)
            for lo, hi, a, b, log_upper in boxes:
                upper = math.exp(log_upper)
                assert upper < top
                for m in range(lo[0], hi[0] + 1):
                    exact = exact_pair_delta(R, (m, n - 1 - m), a, b, t)
                    assert float(exact) <= upper * (1 + 1e-15), (n, t, lo, hi, m)
            assert boxes or n == 12
