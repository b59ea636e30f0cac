"""The sampling-histogram mechanism: exact matrices, the fast path against them, Theorem 2; the bounded
branch-and-bound search of smoothed δ; the log-space laws of the vertex counts (δ far below 10^-300)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

import privgeom as pg
from privgeom import InvalidParameterError, SizeLimitError, smoothed
from privgeom.smoothed import SamplingHistogram, database_delta, shm, smoothed_delta
from privgeom.smoothed._fastpath import DeltaTable, _forward_max, _log_convolve, direct_delta
from privgeom.smoothed._pmf import Binomial, Hypergeometric, binom_window, log_binom_pmf


def _fast_smoothed(n: int, T: int, eps: object, dists: list, replace: bool = False, **kw: object):
    """The route ``method="shm"`` of smoothed_delta (chosen by "auto" for a SamplingHistogram over two records)."""
    return smoothed_delta(SamplingHistogram(n, T, replace), eps, dists, **kw)  # type: ignore[arg-type]


def _fast_delta(n: int, T: int, eps: object, N: int, replace: bool = False):
    """The route ``method="shm"`` of database_delta (chosen by "auto" for a SamplingHistogram and one x)."""
    return database_delta(SamplingHistogram(n, T, replace), eps, x=N)  # type: ignore[arg-type]


def test_shm_matrix_closed_forms() -> None:
    M = shm(6, 4, inputs="count")
    for N in range(7):
        for y in range(5):
            assert M.matrix[y, N] == Fraction(math.comb(N, y) * math.comb(6 - N, 4 - y), math.comb(6, 4))
    W = shm(4, 3, replace=True, inputs="count")
    for N in range(5):
        for y in range(4):
            assert W.matrix[y, N] == math.comb(3, y) * Fraction(N, 4) ** y * Fraction(4 - N, 4) ** (3 - y)
    H = shm(3, 2, categories=3)
    assert H.inputs[0] == "[3,0,0]" and H.column("[1,1,1]")[H.outputs.index("[1,1,0]")] == Fraction(1, 3)
    D = shm(2, 2, categories=3, inputs="database")
    assert D.n_inputs == 9 and D.column("(0,2)")[D.outputs.index("[1,0,1]")] == 1
    with pytest.raises(InvalidParameterError):
        shm(3, 4)
    with pytest.raises(InvalidParameterError):
        shm(3, 2, categories=3, inputs="count")


@pytest.mark.parametrize("replace", [False, True])
@pytest.mark.parametrize("n,T", [(1, 1), (5, 3), (12, 11), (20, 7), (9, 0)])
def test_fast_delta_matches_exact_matrix(n: int, T: int, replace: bool) -> None:
    for ratio in ("1", "3/2", "7"):
        exact = database_delta(shm(n, T, replace=replace, inputs="count"), f"ln({ratio})")
        table = DeltaTable(n, T, math.log(Fraction(ratio)), replace)
        d, err = table.delta(0, n)
        for N in range(n + 1):
            assert abs(d[N] - float(exact.values[N])) <= 1e-13 + 1e-11 * float(exact.values[N])
        assert err <= 1e-15
        assert np.all(table.upper >= d * (1 - 1e-12))


@pytest.mark.parametrize("replace", [False, True])
def test_dp_delta_of_shm(replace: bool) -> None:
    n, T = 7, 5
    exact = database_delta(shm(n, T, replace=replace, inputs="count"), "ln(4)")
    fam = Binomial(n, T) if replace else Hypergeometric(n, T)
    assert exact.delta == fam.dp_delta()  # T/n (Theorem 2, DP part) and 1 - (1 - 1/n)^T
    r = _fast_smoothed(n, T, "ln(4)", ["1/3"], replace=replace)
    assert r.dp_delta == fam.dp_delta() and r.value <= float(r.dp_delta)


@settings(max_examples=12)
@given(
    n=st.integers(2, 26),
    frac=st.floats(0.1, 1.0),
    q1=st.fractions(0, 1, max_denominator=9),
    q2=st.fractions(0, 1, max_denominator=9),
    ratio=st.sampled_from(["1", "2", "6"]),
    replace=st.booleans(),
)
def test_fast_smoothed_delta_matches_exact_matrix(
    n: int, frac: float, q1: Fraction, q2: Fraction, ratio: str, replace: bool
) -> None:
    T = max(0, min(n, round(frac * n)))
    exact = smoothed_delta(shm(n, T, replace=replace, inputs="count"), f"ln({ratio})", [q1, q2])
    fast = _fast_smoothed(n, T, f"ln({ratio})", [q1, q2], replace=replace, rtol=0)
    assert fast.value <= float(exact.value) * (1 + 1e-10) + 1e-15
    assert float(exact.value) <= fast.upper * (1 + 1e-10) + 1e-15
    assert abs(fast.value - float(exact.value)) <= 1e-10 * float(exact.value) + 1e-15


def test_branch_and_bound_against_every_count() -> None:
    n, T, eps = 300, 270, 1.0
    for qs in ((0.05, 0.45), (0.3, 0.7), (0.2, 0.21)):
        d = direct_delta(n, T, eps)
        E = [
            float(
                np.dot(
                    np.convolve(binom.pmf(np.arange(m + 1), m, qs[0]), binom.pmf(np.arange(n - m + 1), n - m, qs[1])), d
                )
            )
            for m in range(n + 1)
        ]
        r = _fast_smoothed(n, T, eps, list(qs), rtol=0)
        assert abs(r.value - max(E)) <= 1e-9 * max(E)
        assert r.value + r.error_bound >= max(E) * (1 - 1e-9)


def test_database_delta_at_one_count() -> None:
    exact = database_delta(shm(30, 27, inputs="count"), "ln(51/49)")
    for N in (0, 1, 13, 29, 30):
        r = _fast_delta(30, 27, "ln(51/49)", N)
        assert abs(r.value - float(exact.values[N])) <= 1e-13
    # huge n: cheap, and far below the DP value
    big = _fast_delta(155_507_476, 155_196_461, "ln(51/49)", 74_223_975)
    assert 0 < big.value < 1e-20 and big.truncation_bound < 1e-12 * big.value
    with pytest.raises(InvalidParameterError):
        _fast_delta(10, 5, 1.0, 11)


def test_theorem2_exponential_decay() -> None:
    # strictly positive Π, n - T = Θ(n): δ decays exponentially in n
    ns = [200, 400, 800, 1600]
    vals = [_fast_smoothed(n, n - n // 10, 1.0, ["1/5", "2/5"]).value for n in ns]
    assert all(b < a for a, b in zip(vals, vals[1:]))
    slopes = [math.log(b / a) / (nb - na) for (na, a), (nb, b) in zip(zip(ns, vals), zip(ns[1:], vals[1:]))]
    assert all(s < -1e-3 for s in slopes)
    assert vals[-1] < 1e-5 < 0.9  # versus the DP value T/n = 0.9


def test_more_categories_fall_back_to_the_matrix() -> None:
    Pi = [["1/2", "1/4", "1/4"], ["1/5", "3/5", "1/5"]]
    r = _fast_smoothed(4, 3, "ln(2)", Pi)  # "auto" takes the exact matrix with three categories
    ref = smoothed_delta(shm(4, 3, categories=3), "ln(2)", Pi)
    assert r.exact and r.value == ref.value and r.method == ref.method == "compositions"
    with pytest.raises(InvalidParameterError):
        _fast_smoothed(4, 3, "ln(2)", Pi, method="shm")
    with pytest.raises(SizeLimitError):
        _fast_smoothed(2000, 1000, 1.0, Pi)


def test_certificate_fields_and_text() -> None:
    r = _fast_smoothed(2000, 1800, 1.5, ["18586/335909", "154377/330845"])
    assert r.counts == (2000, 0) and r.error_bound >= 0 and r.truncation_bound < 1e-30
    assert "certified" in str(r) and r.to_dict()["dp_delta"] == "9/10"


def test_pmf_helpers() -> None:
    xs = np.arange(0, 41, dtype=float)
    got = np.exp(log_binom_pmf(xs, 40, 0.3, 0.7))
    ref = np.array(
        [float(math.comb(40, int(k)) * Fraction(3, 10) ** int(k) * Fraction(7, 10) ** (40 - int(k))) for k in xs]
    )
    assert np.allclose(got, ref, rtol=1e-13, atol=0)
    lo, hi, tail, log_tail = binom_window(10_000, 0.3, math.log(1e-30))
    assert 0 < lo < 3000 < hi < 10_000 and tail <= 1e-30 and log_tail == pytest.approx(math.log(tail), rel=1e-12)
    # far below a double the mass outside keeps its logarithm (the window is then wider, never a 0.0 bound)
    far = binom_window(10_000, 0.3, -2000.0)
    assert far.tail == 0.0 and -math.inf < far.log_tail <= -2000.0 and far.lo < lo and far.hi > hi
    assert binom.sf(hi, 10_000, 0.3) + binom.cdf(lo - 1, 10_000, 0.3) <= tail
    g = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0])
    assert _forward_max(g, 2).tolist() == [4.0, 4.0, 5.0, 9.0, 9.0, 9.0, 2.0]


def test_bad_tolerances_are_typed_errors() -> None:
    for kw in ({"rtol": -1.0}, {"rtol": float("nan")}, {"tail": 0.0}, {"tail": 2.0}):
        with pytest.raises(InvalidParameterError):
            _fast_smoothed(100, 90, 1.0, ["1/3", "1/2"], **kw)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError):
        _fast_smoothed(100, 90, 1000.0, ["1/3", "1/2"])


# ---------------------------------------------------------------------------------------------------- bounded search
# Every search is bounded: the smoothed-δ branch-and-bound of SHM counts its work, prunes in log
# space with a relative tolerance, and at the ``smoothed_work`` limit returns a certified bracket.
#
# Work is counted (window evaluations: expectations ``E_m`` and sharp cell bounds), never timed. The brute force is
# independent of the fast path: every ``δ(N)`` from the dense hockey-stick kernel on the full pmfs
# (:func:`direct_delta`) and the law of ``N = Bin(m, q_a) + Bin(n − m, q_b)`` from scipy, for every ``m``.


def shm_smoothed(
    n: int, T: int, eps: object, dists: list, replace: bool = False, **kw: object
) -> smoothed.SmoothedDelta:
    """The route ``method="shm"`` of smoothed_delta on the sampling-histogram mechanism."""
    return smoothed.smoothed_delta(smoothed.SamplingHistogram(n, T, replace), eps, dists, method="shm", **kw)  # type: ignore[arg-type]


def brute_force(n: int, T: int, eps: float, qa: float, qb: float, replace: bool = False) -> float:
    """``max_m E[δ(N)]`` over every ``m`` (Proposition 5 of Liu, Wang & Xia), all dense."""
    d = direct_delta(n, T, eps, replace)
    ks = np.arange(n + 1)
    best = 0.0
    for m in range(n + 1):
        law = np.convolve(binom.pmf(ks[: m + 1], m, qa), binom.pmf(ks[: n - m + 1], n - m, qb))
        best = max(best, float(np.dot(law, d)))
    return best


def test_issue_case_answers_with_bounded_work() -> None:
    """The issue's call evaluated windows near 10^-106 for 250 s; now it stops after a counted, small amount of work
    (the grid maximum is 6.47e-106, attained at m = 0: every agent at q = 0.6385…)."""
    r = shm_smoothed(100000, 99000, 2, [0.5, 0.6385164560610739])
    assert r.complete and r.work <= 300 and r.evaluated <= 100, (r.work, r.evaluated)
    assert r.counts == (0, 100000)
    assert math.isclose(r.value, 6.47e-106, rel_tol=1e-3)
    lo, hi = r.value, r.upper
    assert lo == r.value and hi <= r.value * (1 + 1e-8)  # the bracket is certified and narrow
    assert math.isclose(r.log10, math.log10(r.value), rel_tol=1e-14)


@pytest.mark.parametrize(
    "n, T, eps, qs, replace",
    [
        (40, 30, 0.5, ("1/10", "1/2"), False),
        (60, 45, 1.0, ("1/4", "2/3"), False),
        (30, 20, 0.25, ("1/5", "3/5"), True),
    ],
)
def test_bracket_contains_the_brute_force_maximum(
    n: int, T: int, eps: float, qs: tuple[str, str], replace: bool
) -> None:
    qa, qb = (float(Fraction(q)) for q in qs)
    truth = brute_force(n, T, eps, qa, qb, replace)
    full = shm_smoothed(n, T, eps, list(qs), replace)
    assert full.complete and full.work_needed == full.work
    assert math.isclose(full.value, truth, rel_tol=1e-9)
    for budget in (1, 2, 3, 5, 8):
        r = shm_smoothed(n, T, eps, list(qs), replace, max_work=budget)
        lo, hi = r.value, r.upper
        assert lo <= truth * (1 + 1e-12) and truth <= hi * (1 + 1e-12), (budget, lo, truth, hi)
        if not r.complete:
            assert r.work <= max(budget, 4) + 2  # the endpoints, then at most one cell past the limit
            assert r.work_needed > r.work and "stopped at the work limit smoothed_work" in r.summary()
            assert "pg.set_limits(smoothed_work=" in r.summary()
            # the suggested budget is enough to finish
            done = shm_smoothed(n, T, eps, list(qs), replace, max_work=r.work_needed)
            assert done.complete and math.isclose(done.value, truth, rel_tol=1e-9)


def test_work_limit_is_the_registered_limit() -> None:
    args = (60, 45, 1.0, ["1/4", "2/3"])
    with pg.limits(smoothed_work=1):
        r = shm_smoothed(*args)
        assert not r.complete
        with pytest.raises(pg.SizeLimitError, match=r"smoothed_work = 1 window evaluations"):
            shm_smoothed(*args, on_limit="raise")
    assert shm_smoothed(*args).complete
    with pytest.raises(pg.InvalidParameterError, match="on_limit"):
        shm_smoothed(*args, on_limit="guess")


def test_cli_check_decides_from_the_bracket_and_refuses_when_it_cannot(capsys: pytest.CaptureFixture[str]) -> None:
    """With one window evaluation the bracket is [0.0324…, 0.75]: a bound below it is a certified no (exit 1), a
    bound inside it cannot be decided (exit 2, naming the limit and the value that finishes)."""
    from privgeom.cli import main

    argv = ["smoothed", "shm", "--n", "60", "--T", "45", "--eps", "1", "--q", "1/4", "2/3", "--check"]
    with pg.limits(smoothed_work=1):
        assert main(argv + ["1e-200"]) == 1
        capsys.readouterr()
        assert main(argv + ["1/10"]) == 2
    err = capsys.readouterr().err
    assert "cannot be decided" in err and "--limit smoothed_work=" in err  # the command-line form on the command line
    assert main(argv + ["1/10"]) == 0  # at the default limit the search completes: 0.0324… <= 1/10


# ---------------------------------------------------------------------------------------------------- log-space laws
# The laws of the vertex counts are log-pmfs: smoothed δ far below 10^-300 keeps its dominant terms.
#
# The smoothed δ of SHM is ``max_m E_m``, ``E_m = Σ_c P(N = c) δ(c)`` (Liu, Wang & Xia, Proposition 5). When the value is
# below the smallest double, the dominant terms sit far in a tail of the count law, where ``P(N = c)`` itself is below
# ``10^-308``: built as doubles those weights were 0 (and the windows could not be narrowed below ``10^-300``, so the
# result was marked incomplete with a useless upper end). The reference here sums ``ln P(N = c) + ln δ(c)`` with
# ``P(N = c)`` from ``math.lgamma`` and ``δ(c)`` from privgeom's own :func:`~privgeom.smoothed.database_delta`.


PRIOR = [["1/2", "1/2"], ["317323/335909", "18586/335909"]]
Q = 18586 / 335909


def _log_binom(n: int, q: float, c: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(c + 1) - math.lgamma(n - c + 1) + c * math.log(q) + (n - c) * math.log1p(-q)


def _reference_log10(n: int, T: int, eps: float, lo: int, hi: int) -> float:
    """``log10 Σ_{c = lo..hi} Bin(n, Q)(c) · δ(c)`` (all ``n`` agents at the vertex ``Q``), by log-sum-exp."""
    terms = []
    for c in range(lo, hi + 1):
        d = smoothed.database_delta(smoothed.SamplingHistogram(n, T), eps, x=c)
        terms.append(_log_binom(n, Q, c) + d.log10 * math.log(10))
    top = max(terms)
    return (top + math.log(math.fsum(math.exp(t - top) for t in terms))) / math.log(10)


def test_log_convolve_matches_a_direct_sum_far_below_a_double():
    """Terms near e^-2000 (beyond the double range) convolve to their exact logs (checked by log-sum-exp)."""
    rng = np.random.default_rng(0)
    la = -np.sort(rng.uniform(0, 2000, 40))
    lb = -rng.uniform(0, 1500, 30)
    got = _log_convolve(la, lb)
    for k in range(len(got)):
        terms = [la[i] + lb[k - i] for i in range(len(la)) if 0 <= k - i < len(lb)]
        top = max(terms)
        want = top + math.log(math.fsum(math.exp(t - top) for t in terms))
        assert got[k] == pytest.approx(want, rel=1e-13)


def test_log_convolve_with_zero_weights_and_a_law_that_is_not_unimodal():
    """Zero weights (``-inf``) stay out of every block; a zig-zag law gives many blocks and the same exact logs."""
    la = np.array([-5.0, -np.inf, -900.0, -3.0, -1500.0, -np.inf, -2.0])
    lb = np.array([-np.inf, -700.0, -1.0, -1200.0])
    got = _log_convolve(la, lb)
    for k in range(len(got)):
        terms = [la[i] + lb[k - i] for i in range(len(la)) if 0 <= k - i < len(lb) and np.isfinite(la[i] + lb[k - i])]
        if not terms:
            assert got[k] == -np.inf
            continue
        top = max(terms)
        assert got[k] == pytest.approx(top + math.log(math.fsum(math.exp(t - top) for t in terms)), rel=1e-13)
    assert _log_convolve(np.array([-np.inf]), np.array([0.0])).tolist() == [-np.inf]


def test_smoothed_delta_below_the_double_range_is_complete_and_matches_the_count_sum():
    """n = 40000: the value (10^-436.6) is right and now certified (before: marked incomplete, upper 10^-299.8)."""
    n, T, eps = 40_000, 20_000, 3.0
    r = smoothed.smoothed_delta(smoothed.SamplingHistogram(n, T), eps, PRIOR, max_work=3000)
    assert r.complete and r.counts == (n, 0)
    assert r.log10_upper == pytest.approx(r.log10, abs=1e-9)
    # the dominant counts lie far below the mean n·Q ≈ 2213, near c = 1256 (checked: terms outside
    # [940, 1570] are more than e^-40 below the largest)
    assert r.log10 == pytest.approx(_reference_log10(n, T, eps, 940, 1570), abs=1e-9)


@pytest.mark.slow
def test_smoothed_delta_at_n_100000_keeps_the_dominant_terms():
    """The reported case: log10 −1086.544 at m = n (the dominant weights are near 10^-290 … 10^-420)."""
    n, T, eps = 100_000, 50_000, 3.0
    r = smoothed.smoothed_delta(smoothed.SamplingHistogram(n, T), eps, PRIOR, max_work=3000)
    assert r.complete and r.counts == (n, 0)
    assert r.log10 == pytest.approx(_reference_log10(n, T, eps, 2550, 3700), abs=1e-9)
    assert r.log10 == pytest.approx(-1086.544, abs=5e-4)
