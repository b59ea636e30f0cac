"""Exact subset-sum δ(x) (SGD step, Theorem 3) against the exact matrices and brute force."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathlib import Path

from privgeom import InvalidParameterError, SizeLimitError
from privgeom.smoothed import SamplingHistogram, database_delta, smoothed_delta
from privgeom.smoothed._catalogue import sampling_sum
from privgeom.smoothed._experiments import hoeffding_halfwidth, sampling_sum_experiment
from privgeom.smoothed._subsetsum import SubsetSums, expected_sampling_delta, quantised_gaussian, sampling_delta


@settings(max_examples=12)
@given(data=st.data(), n=st.integers(1, 4), V=st.integers(2, 4), ratio=st.sampled_from(["1", "2", "9/4"]))
def test_sampling_delta_matches_exact_matrix(data: st.DataObject, n: int, V: int, ratio: str) -> None:
    T = data.draw(st.integers(0, n))
    x = data.draw(st.lists(st.integers(0, V - 1), min_size=n, max_size=n))
    M = sampling_sum(n, T, range(V))
    exact = database_delta(M, f"ln({ratio})", x="(" + ",".join(map(str, x)) + ")").value
    got = sampling_delta(x, T, V, [math.log(Fraction(ratio))])[0]
    assert abs(got - float(exact)) <= 1e-13


def test_binned_output_matches_brute_force() -> None:
    rng = np.random.default_rng(3)
    for _ in range(10):
        n, V, w = int(rng.integers(2, 6)), int(rng.integers(2, 9)), int(rng.integers(2, 4))
        T = int(rng.integers(1, n + 1))
        x = rng.integers(0, V, n).tolist()
        ref = 0.0
        e = math.e

        def law(y: list[int]) -> dict[int, int]:
            out: dict[int, int] = {}
            for S in itertools.combinations(range(n), T):
                o = -((-sum(y[i] for i in S)) // w)
                out[o] = out.get(o, 0) + 1
            return out

        px, tot = law(x), math.comb(n, T)
        for i in range(n):
            for b in range(V):
                py = law(x[:i] + [b] + x[i + 1 :])
                keys = set(px) | set(py)
                ref = max(
                    ref,
                    sum(max(px.get(k, 0) - e * py.get(k, 0), 0) for k in keys) / tot,
                    sum(max(py.get(k, 0) - e * px.get(k, 0), 0) for k in keys) / tot,
                )
        assert sampling_delta(x, T, V, [1.0], bin_width=w)[0] == pytest.approx(ref, abs=1e-14)


def test_subset_sum_counts_are_exact_integers() -> None:
    rec = [7, 3, 3, 0, 5, 9, 9, 9, 2, 1, 4, 8, 6, 6, 5, 3, 2, 7, 1, 0]
    s = SubsetSums(rec, 6)
    ref = np.zeros(s.smax + 1)
    for S in itertools.combinations(rec, 6):
        ref[sum(S)] += 1
    assert np.array_equal(s.counts(6), ref)
    A, B = s.without(9)
    rest = list(rec)
    rest.remove(9)
    refA = np.zeros(s.smax + 1)
    for S in itertools.combinations(rest, 6):
        refA[sum(S)] += 1
    assert np.array_equal(A, refA)
    # large binomial coefficients need several primes and stay exact
    big = SubsetSums([1] * 200, 20)
    assert len(big.primes) >= 3 and big.counts(20)[20] == float(math.comb(200, 20))
    with pytest.raises(SizeLimitError):
        SubsetSums([10**6] * 5, 5)


def test_sampling_sum_with_two_levels_is_shm() -> None:
    # Theorem 3 experiment, K = 2: the sampling sum is SHM; the exact smoothed δ agrees with the matrix route
    n, T = 5, 2
    M = sampling_sum(n, T, [0, 1])
    exact = smoothed_delta(M, 1.0, [[0.5, 0.5]]).value
    fast = smoothed_delta(SamplingHistogram(n, T), 1.0, [[0.5, 0.5]]).value
    assert fast == pytest.approx(float(exact), rel=1e-12)
    # E over all 2^n databases with exact per-database δ(x) equals the smoothed value
    avg = np.mean([sampling_delta(list(x), T, 2, [1.0])[0] for x in itertools.product((0, 1), repeat=n)])
    assert avg == pytest.approx(float(exact), rel=1e-12)


def test_fine_discretisation_reaches_T_over_n() -> None:
    rng = np.random.default_rng(0)
    n, T = 8, 2
    vals = [sampling_delta(rng.integers(0, 4096, n).tolist(), T, 4096, [1.0])[0] for _ in range(5)]
    assert all(v == pytest.approx(T / n, abs=1e-12) for v in vals)  # Theorem 3: δ = T/n
    coarse = [sampling_delta(rng.integers(0, 2, 16).tolist(), T, 2, [1.0])[0] for _ in range(5)]
    assert max(coarse) < T / 16


def test_quantised_gaussian() -> None:
    p = quantised_gaussian(0.1, 0.12)
    k = np.arange(-127, 129)
    assert p.sum() == pytest.approx(1.0, abs=1e-14)
    assert float((p * k).sum() / 256) == pytest.approx(0.1, abs=2e-3)  # mean ≈ μ (up to the ceiling)
    assert np.all(p > 0)


def _brute_delta(x: list[int], T: int, V: int, w: int, e: float) -> float:
    """δ(x) of ⌈Σ batch / w⌉ by enumerating every batch and every replacement (independent of the DP)."""
    n = len(x)

    def law(y: list[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        for S in itertools.combinations(range(n), T):
            o = -((-sum(y[i] for i in S)) // w)
            out[o] = out.get(o, 0) + 1
        return out

    px, tot, best = law(x), math.comb(n, T), 0.0
    for i in range(n):
        for b in range(V):
            py = law(x[:i] + [b] + x[i + 1 :])
            keys = set(px) | set(py)
            best = max(
                best,
                sum(max(px.get(k, 0) - e * py.get(k, 0), 0) for k in keys) / tot,
                sum(max(py.get(k, 0) - e * px.get(k, 0), 0) for k in keys) / tot,
            )
    return best


def test_expected_sampling_delta_is_exact_against_every_database() -> None:
    # two groups of agents with different laws (the two vertices of Π), re-quantised mean: E[δ] by brute force over
    # every database with its product probability equals the histogram route
    laws = [[0.5, 0.3, 0.2, 0.0], [0.1, 0.2, 0.3, 0.4]]
    counts, T, w, e = [1, 3], 2, 2, math.exp(0.5)
    ref = 0.0
    for x in itertools.product(range(4), repeat=4):
        prob = laws[0][x[0]] * laws[1][x[1]] * laws[1][x[2]] * laws[1][x[3]]
        if prob:
            ref += prob * _brute_delta(list(x), T, 4, w, e)
    vals, hists = expected_sampling_delta(laws, counts, T, [0.5], bin_width=w)
    assert vals[0] == pytest.approx(ref, rel=1e-12)
    assert hists == math.comb(4 + 3, 3) - 1  # all histograms but [0,0,0,4] (the first agent never draws 3)
    with pytest.raises(SizeLimitError):
        expected_sampling_delta([quantised_gaussian(0.0, 0.12)], [100], 10, [1.0])
    with pytest.raises(InvalidParameterError):
        expected_sampling_delta(laws, [1], T, [0.5])


def test_monte_carlo_estimate_is_consistent_with_the_exact_expectation() -> None:
    # the estimator used at the paper's sizes, on an instance small enough for the exact expectation
    law = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
    n, T = 6, 2
    exact = expected_sampling_delta([law], [n], T, [1.0])[0][0]
    rng = np.random.default_rng(1)
    S = 400
    mc = np.mean([sampling_delta(rng.choice(5, size=n, p=law).tolist(), T, 5, [1.0])[0] for _ in range(S)])
    assert abs(mc - exact) <= hoeffding_halfwidth(T / n, S, alpha=1e-3)
    assert 0 < exact < T / n


def test_theorem3_experiment_exact_points(tmp_path: Path) -> None:
    r = sampling_sum_experiment(tmp_path, ns=[4, 5], levels=[2, 3, 4096], databases=4)
    by = {(row["levels"], row["n"]): row for row in r.rows}
    for n in (4, 5):
        two = by[(2, n)]
        assert two["method"] == "exact" and two["delta"] == pytest.approx(two["shm_delta"], rel=1e-12)
        assert by[(3, n)]["method"] == "exact"
        fine = by[(4096, n)]
        assert fine["method"] == "monte carlo" and fine["delta"] == pytest.approx(2 / n, abs=1e-12)
    # K = 3 by hand through the exact matrix: E over all 3^4 databases of δ(x)
    M = sampling_sum(4, 2, [0, 1, 2])
    dd = database_delta(M, 1.0)
    assert by[(3, 4)]["delta"] == pytest.approx(float(np.mean([float(v) for v in dd.values])), rel=1e-12)


def test_sampling_sum_carries_the_databases_domain() -> None:
    """The sampling sum is built on a Domain of databases, like the other smoothed factories (so the core analyses
    take a relation name directly)."""
    assert sampling_sum(2, 1, [0, 1]).domain.kind == "databases"
