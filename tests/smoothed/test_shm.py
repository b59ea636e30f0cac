"""The sampling-histogram mechanism: exact matrices, the fast path against them, Theorem 2."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from privgeom import InvalidParameterError, SizeLimitError
from privgeom.smoothed import SamplingHistogram, database_delta, shm, smoothed_delta
from privgeom.smoothed._fastpath import DeltaTable, _forward_max, direct_delta
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
