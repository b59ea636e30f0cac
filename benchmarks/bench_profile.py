"""ε over the complete relation: row ranges (``method="complete"``) vs the generic edge scan (``method="scan"``).

On ``K_N`` every ordered pair of datasets is an edge, so ``ε = max_ω ln(max_i M[ω, i] / min_i M[ω, i])``: the row
route costs ``O(outputs × N)`` where the scan costs ``O(outputs × N²)``. For growing ``N`` (random float mechanisms
with a few outputs, and exact k-ary randomized response) this prints both times, their ratio and whether the two
answers agree; the scan is stopped once one size exceeds the budget, and sizes beyond ``MAX_PROFILE_WORK`` are
refused by the scan at once (the time to refuse is printed).

Run: python benchmarks/bench_profile.py [--quick] [--nmax 2000] [--budget 10]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import privgeom as pg
from privgeom.analyses.profiles._profile import MAX_PROFILE_WORK, profile_work


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (used by the test suite)")
    ap.add_argument("--nmax", type=int, default=2000)
    ap.add_argument("--n-outputs", dest="outputs", type=int, default=8)
    ap.add_argument("--budget", type=float, default=10.0, help="stop the scan once one size takes longer (s)")
    args = ap.parse_args()
    sizes = [10, 40] if args.quick else [n for n in (10, 50, 100, 200, 500, 1000, 2000, 5000) if n <= args.nmax]
    rng = np.random.default_rng(0)

    print(f"ε of a random float mechanism ({args.outputs} outputs) over the complete relation on N inputs")
    header = f"{'N':>6} {'edges':>10} {'complete s':>11} {'scan s':>10} {'scan/complete':>14}  agree"
    print(header)
    print("-" * len(header))
    scan_alive = True
    for N in sizes:
        A = rng.random((args.outputs, N)) + 0.05
        M = pg.Mechanism(A / A.sum(axis=0), inputs=[f"d{i}" for i in range(N)])
        fast, t_fast = timed(pg.epsilon, M, "complete")
        edges = N * (N - 1) // 2
        if not scan_alive:
            print(f"{N:>6} {edges:>10,} {t_fast:>11.4f} {'(skipped)':>10}")
            continue
        if profile_work(M.n_outputs, edges) > MAX_PROFILE_WORK:
            t0 = time.perf_counter()
            try:
                pg.epsilon(M, "complete", method="scan")
            except pg.SizeLimitError:
                pass
            print(f"{N:>6} {edges:>10,} {t_fast:>11.4f} {'refused':>10} in {time.perf_counter() - t0:.4f} s")
            continue
        slow, t_slow = timed(pg.epsilon, M, "complete", method="scan")
        agree = math.isclose(float(fast), float(slow), rel_tol=1e-12)
        print(f"{N:>6} {edges:>10,} {t_fast:>11.4f} {t_slow:>10.4f} {t_slow / max(t_fast, 1e-9):>14.1f}  {agree}")
        assert agree, (N, str(fast.level), str(slow.level))
        scan_alive = t_slow < args.budget

    print()
    print("exact k-ary randomized response (e^ε = 3) over the complete relation: ε = ln 3 both ways")
    header = f"{'k':>5} {'complete s':>11} {'scan s':>10} {'scan/complete':>14}  agree"
    print(header)
    print("-" * len(header))
    for k in [4, 8] if args.quick else [4, 16, 64, 128]:
        M = pg.kary_randomized_response(k, exp_eps=3)
        fast, t_fast = timed(pg.epsilon, M, "complete")
        slow, t_slow = timed(pg.epsilon, M, "complete", method="scan")
        agree = fast.level == slow.level == pg.PrivacyLevel.from_exp_eps(3)
        print(f"{k:>5} {t_fast:>11.4f} {t_slow:>10.4f} {t_slow / max(t_fast, 1e-9):>14.1f}  {agree}")
        assert agree


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_profile")
