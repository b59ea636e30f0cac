"""The laws of the vertex counts are log-pmfs: smoothed δ far below 10^-300 keeps its dominant terms.

The smoothed δ of SHM is ``max_m E_m``, ``E_m = Σ_c P(N = c) δ(c)`` (Liu, Wang & Xia, Proposition 5). When the value is
below the smallest double, the dominant terms sit far in a tail of the count law, where ``P(N = c)`` itself is below
``10^-308``: built as doubles those weights were 0 (and the windows could not be narrowed below ``10^-300``, so the
result was marked incomplete with a useless upper end). The reference here sums ``ln P(N = c) + ln δ(c)`` with
``P(N = c)`` from ``math.lgamma`` and ``δ(c)`` from privgeom's own :func:`~privgeom.smoothed.database_delta`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from privgeom import smoothed
from privgeom.smoothed._fastpath import _log_convolve

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
