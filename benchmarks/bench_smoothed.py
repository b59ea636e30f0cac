"""Benchmark: exact smoothed δ of the sampling-histogram mechanism, fast path vs the straightforward method.

Fast path (``privgeom.smoothed.smoothed_delta(SamplingHistogram(n, T), …)``, route ``method="shm"``): one-sided tail sums of accurate log-pmfs (monotone
likelihood ratio), lazily over the counts ``N`` that matter, and a certified branch-and-bound over the number of agents
at each vertex of ``Π = conv{DC, NE-2}``.

Straightforward method: the full output pmf of every count ``N = 0..n`` (the package's hypergeometric log-pmf,
``O(n·T)``), the positive parts summed for both neighbours by the hockey-stick kernel, then ``E[δ(N)]`` at the
maximiser certified by the fast path. It is run
only where it finishes in reasonable time (otherwise its time is extrapolated from ``n·T``).

Also reported: the election figure's largest point (``n = 500 000``, ``T = 0.999 n``, all four ``ε``) and the whole
election figure (target ≤ 10 s and ≤ 60 s on one core). ``--quick`` runs a tiny version.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time

import numpy as np
from scipy.stats import binom

from privgeom.smoothed import SamplingHistogram, database_delta, smoothed_delta
from privgeom.smoothed._experiments import election_vertices
from privgeom.smoothed._fastpath import direct_delta
from privgeom.smoothed._shm import shm_smoothed_sweep
from privgeom.smoothed.paper import experiment

EPS = (1.0, 1.5, 2.0, 3.0)


def slow_value(n: int, T: int, eps: float, m: int, qa: float, qb: float) -> float:
    d = direct_delta(n, T, eps)
    law = np.convolve(binom.pmf(np.arange(m + 1), m, qa), binom.pmf(np.arange(n - m + 1), n - m, qb))
    return float(np.dot(law, d))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (a few seconds)")
    args = parser.parse_args()
    verts = election_vertices()
    qa, qb = float(verts[0]), float(verts[1])
    cases = (
        [(1000, 900), (2000, 1980), (20_000, 19_980)]
        if args.quick
        else [(1000, 900), (5000, 4500), (10_000, 9900), (50_000, 49_500), (100_000, 99_900), (500_000, 499_500)]
    )
    slow_budget = 2.0 if args.quick else 40.0
    per_unit = None  # seconds per n·T of the slow method, measured on the first case
    print(
        f"{'n':>8} {'T':>8} {'eps':>4} {'fast [s]':>9} {'slow [s]':>10} {'ratio':>8} {'δ fast':>12} {'δ slow':>12} {'rel.diff':>9}"
    )
    for n, T in cases:
        eps = 1.0
        t0 = time.perf_counter()
        r = smoothed_delta(SamplingHistogram(n, T), eps, verts)
        fast = time.perf_counter() - t0
        est = per_unit * n * T if per_unit is not None else 0.0
        if est <= slow_budget:
            t0 = time.perf_counter()
            v = slow_value(n, T, eps, r.counts[0], qa, qb)
            slow = time.perf_counter() - t0
            per_unit = slow / (n * T)
            diff = abs(v - r.value) / r.value if r.value else abs(v)
            print(
                f"{n:>8} {T:>8} {eps:>4g} {fast:>9.3f} {slow:>10.3f} {slow / fast:>8.1f} {r.value:>12.5g} {v:>12.5g} {diff:>9.1e}"
            )
        else:
            print(
                f"{n:>8} {T:>8} {eps:>4g} {fast:>9.3f} {'~' + format(est, '.0f'):>10} {'~' + format(est / fast, '.0f'):>8} "
                f"{r.value:>12.5g} {'(skipped)':>12} {'':>9}"
            )
    bounded_search(quick=args.quick)
    tiny_values()
    if args.quick:
        print("quick run: largest point and whole figure skipped (run without --quick)")
        return
    t0 = time.perf_counter()
    values = shm_smoothed_sweep(500_000, 499_500, EPS, verts)
    big = time.perf_counter() - t0
    print(
        f"\nlargest point n = 500000, T = 0.999 n, ε ∈ {EPS}: {big:.2f} s (target ≤ 10 s); "
        + ", ".join(f"log10 δ = {math.log10(v.value):.2f}" for v in values)
    )
    with tempfile.TemporaryDirectory() as tmp:
        res = experiment("elections", tmp, quick=False, progress=False)
    print(f"whole election figure (27 n × 4 ε, PNG + CSV): {res.seconds:.1f} s (target ≤ 60 s)")


def bounded_search(quick: bool) -> None:
    """The case that once got stuck: values near 10^-106 (before: no answer after 250 s; the branch-and-bound added the
    window tails, 1e-60, to every bound, so nothing was ever pruned). Work is counted in window evaluations."""
    q = [0.5, 0.6385164560610739]
    print(f"\n{'n':>7} {'T':>6} {'eps':>4} {'value':>12} {'work':>6} {'complete':>8} {'seconds':>8}  (bounded search)")
    for eps in (2.0,) if quick else (2.0, 1.0, 0.5):
        t0 = time.perf_counter()
        r = smoothed_delta(SamplingHistogram(100_000, 99_000), eps, q)
        print(
            f"{100_000:>7} {99_000:>6} {eps:>4g} {r.value:>12.5g} {r.work:>6} {str(r.complete):>8} "
            f"{time.perf_counter() - t0:>8.2f}"
        )


def tiny_values() -> None:
    """δ(x) far below a double, in log space (before: printed 0 with log10 = -inf)."""
    t0 = time.perf_counter()
    r = database_delta(SamplingHistogram(10**12, 10**12 - 10**9), 1, x=5 * 10**11)
    print(
        f"\nδ(x) at n = 10^12, 0.1% lost, N = n/2, ε = 1: log10 = {r.log10:.6f} "
        f"({time.perf_counter() - t0:.3f} s; mpmath reference -48228829.547770)"
    )


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_smoothed")
