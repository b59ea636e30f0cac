"""Tiny values are values: SHM's δ(x) in log space against an independent mpmath computation.

The reference below shares nothing with the package: it evaluates the hypergeometric pmf with mpmath's ``loggamma``
at 40 digits, finds the worst event of each directed pair by bisection on the exact likelihood ratio and sums the
positive part of ``P_a(y) − e^ε P_b(y)`` over it (Definition 2 of Liu, Wang & Xia; docs/theory.md, "Smoothed DP").
At ``n = 10^9 … 10^12`` the values lie between ``10^-48,000`` and ``10^-48,000,000``, far below a double.
"""

from __future__ import annotations

import math

import mpmath as mp
import pytest

import privgeom as pg
from privgeom import smoothed

DPS = 40
#: Terms summed outward from the threshold; the terms fall geometrically (ratio <= e^-1 in these cases), so the
#: neglected rest is below 10^-100 of the sum.
TERMS = 400


def _log_c(a: int, b: int) -> mp.mpf:
    return mp.loggamma(a + 1) - mp.loggamma(b + 1) - mp.loggamma(a - b + 1)


def _log_p(n: int, T: int, N: int, y: int) -> mp.mpf:
    if y < max(0, T - n + N) or y > min(N, T):
        return mp.mpf("-inf")
    return _log_c(N, y) + _log_c(n - N, T - y) - _log_c(n, T)


def _log_d(n: int, T: int, a: int, b: int, eps: mp.mpf) -> mp.mpf:
    """``ln Σ_y (P_a(y) − e^ε P_b(y))₊`` for neighbouring counts ``a``, ``b``."""
    lo, hi = max(0, T - n + min(a, b)), min(max(a, b), T)

    def log_ratio(y: int) -> mp.mpf:  # ln P_b(y) − ln P_a(y), monotone in y
        return _log_p(n, T, b, y) - _log_p(n, T, a, y)

    def below(y: int) -> bool:
        return bool(log_ratio(y) < -eps)

    if a < b:  # the positive part is a lower tail: the largest y with ratio < e^-ε
        if not below(lo):
            return mp.mpf("-inf")
        x, z = lo, hi + 1
        while z - x > 1:
            c = (x + z) // 2
            x, z = (c, z) if below(c) else (x, c)
        ys = range(x, max(lo - 1, x - TERMS), -1)
    else:
        if not below(hi):
            return mp.mpf("-inf")
        x, z = lo - 1, hi
        while z - x > 1:
            c = (x + z) // 2
            x, z = (x, c) if below(c) else (c, z)
        ys = range(z, min(hi + 1, z + TERMS))
    terms = [_log_p(n, T, a, y) + mp.log(-mp.expm1(eps + log_ratio(y))) for y in ys]
    top = max(terms)
    return top + mp.log(mp.fsum(mp.exp(t - top) for t in terms))


def reference_log10_delta(n: int, T: int, N: int, eps: mp.mpf) -> mp.mpf:
    with mp.workdps(DPS):
        cands = []
        for low in (N - 1, N):
            if 0 <= low <= n - 1:
                cands += [_log_d(n, T, low, low + 1, eps), _log_d(n, T, low + 1, low, eps)]
        return max(cands) / mp.log(10)


CASES = [  # n, T, N, eps (as given to privgeom, and as an mpmath number)
    (2 * 10**6, 1_998_000, 10**6, 1, mp.mpf(1)),
    (10**9, 10**9 - 10**6, 5 * 10**8, 1, mp.mpf(1)),
    (10**10, 10**10 - 10**7, 4 * 10**9, "ln(3/2)", mp.log(mp.mpf(3) / 2)),
    (10**11, 10**11 - 10**8, 5 * 10**10, 2, mp.mpf(2)),
    (10**12, 10**12 - 10**9, 5 * 10**11, 1, mp.mpf(1)),
    (10**12, 10**12 - 10**9, 3 * 10**11, 1, mp.mpf(1)),
]


@pytest.mark.parametrize("n, T, N, eps, eps_mp", CASES, ids=[f"n={c[0]}-N={c[2]}" for c in CASES])
def test_database_delta_log10_matches_mpmath(n: int, T: int, N: int, eps: object, eps_mp: mp.mpf) -> None:
    r = smoothed.database_delta(smoothed.SamplingHistogram(n, T), eps, x=N)
    ref = float(reference_log10_delta(n, T, N, eps_mp))
    assert math.isfinite(r.log10) and r.log10 < 0
    # double-precision log-pmfs of size ~1e8 carry ~1e-16 relative error: 1e-12 relative is a generous margin
    assert abs(r.log10 - ref) <= 1e-12 * abs(ref) + 1e-9, (r.log10, ref)
    if ref < -308:
        assert r.value == 0.0 and r.delta == 0.0  # the float underflows; the log10 does not
        assert "e-" in r.summary() and "log10 = -inf" not in r.summary()
    assert r.log10_truncation < r.log10 - 9  # the neglected tail is negligible at the printed precision
    assert r.to_dict()["log10"] == r.log10


def test_issue_example_is_positive_and_printed() -> None:
    """The issue's command printed δ(x) = 0 (log10 = -inf); the true value is 10^-48,228,829.5477697 (mpmath)."""
    r = smoothed.database_delta(smoothed.SamplingHistogram(10**12, 10**12 - 10**9), 1, x=5 * 10**11)
    assert abs(r.log10 - (-48228829.5477697214520)) < 1e-4
    assert "2.83291e-48228830" in r.summary()
    assert (r.side, r.threshold) == ("<=", 499268941421) and r.outputs == ()  # the event: too many outputs to list


def test_provably_zero_is_exactly_zero() -> None:
    """With replacement, n = 8, T = 3, N = 4 at ε = 2: every likelihood ratio of the neighbours lies within
    e^{±2}, so both one-sided tails are empty and δ(x) = 0 exactly (the exact matrix agrees)."""
    r = smoothed.database_delta(smoothed.SamplingHistogram(8, 3, replace=True), "ln(7)", x=4)
    assert r.value == 0.0 and r.log10 == -math.inf and "provably 0" in r.summary()
    assert (r.p_event, r.q_event, r.outputs) == (0.0, 0.0, ())
    M = smoothed.shm(8, 3, replace=True, inputs="count")
    for m in (3, 5):  # δ over the pair {4, m} at e^ε = 7 is the larger of the two one-sided hockey sticks
        pair = pg.Mechanism(M.matrix[:, [4, m]].tolist(), inputs=["4", str(m)])
        assert pg.delta(pair, "complete", exp_eps=7).value == 0


@pytest.mark.parametrize(
    "n, T, N, eps, replace",
    [(10, 5, 5, 0.5, False), (30, 20, 9, 0.0, False), (8, 3, 1, 0.5, True), (200, 150, 80, 1.0, False)],
)
def test_listed_event_attains_delta(n: int, T: int, N: int, eps: float, replace: bool) -> None:
    """The threshold event is the hockey-stick maximiser: ``P_a(S) − e^ε P_b(S) = δ(x)`` on the exact matrix."""
    r = smoothed.database_delta(smoothed.SamplingHistogram(n, T, replace), eps, x=N)
    M = smoothed.shm(n, T, replace=replace, inputs="count").to_float()
    a, b = (M.inputs.index(v) for v in r.edge)  # type: ignore[union-attr]
    rows = [M.outputs.index(o) for o in r.outputs]
    p, q = M.matrix[rows, a].sum(), M.matrix[rows, b].sum()
    assert math.isclose(p, r.p_event, rel_tol=1e-12) and math.isclose(q, r.q_event, rel_tol=1e-12)
    assert math.isclose(p - math.exp(eps) * q, r.delta, rel_tol=1e-10)
    ys = [int(o) for o in r.outputs]
    assert ys == list(range(min(ys), max(ys) + 1))  # a threshold set on the count
    assert (r.side == "<=" and max(ys) == r.threshold) or (r.side == ">=" and min(ys) == r.threshold)


def test_unlisted_event_allocates_nothing_of_its_size() -> None:
    """The event at n = 10^12 has ~5·10^11 outputs: it is described by its threshold, never materialised."""
    import tracemalloc

    tracemalloc.start()
    try:
        r = smoothed.database_delta(smoothed.SamplingHistogram(10**12, 10**12 - 10**9), 1, x=5 * 10**11)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.outputs == () and math.isnan(r.p_event) and peak < 2**22, peak
