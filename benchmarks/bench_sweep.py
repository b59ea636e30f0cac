"""pg.sweep: a 200-point grid serially (one process) vs on Dask's local process scheduler (every core).

The grid is ``rr:k={k},p={p}`` with two values of ``k`` and 100 values of ``p ∈ (1/2, 1)``: a CPU-bound row
(``k ∈ {6, 7}``, the whole exact δ(ε) curve of each mechanism, ``delta_curve``, ~0.1 s a point) and an
overhead-bound row (``k ∈ {3, 4}``, the exact relaxation, ``relax``, a few ms a point). Both runs must give
the same rows (checked), and so must the default scheduler (in-process for a second, then Dask's processes when
the rest of the work is long enough to pay for them); the table prints the wall times, the work per point and the
ratios serial / Dask and serial / default. ``dask work`` is the points' own seconds summed over the workers divided
by the Dask wall time: about the number of cores when the points really run in parallel (a busy machine shows both
a lower ratio and inflated per-point seconds). On a
2-core machine the ideal ratio is 2; worker start-up (spawned processes import privgeom), pickling and batching eat
into it, and a busy machine shares its cores.

Run: python benchmarks/bench_sweep.py [--quick] [--points 200]
"""

from __future__ import annotations

import argparse
import os
import time
from fractions import Fraction

import privgeom as pg


def grid(points: int, ks: list[int]) -> dict[str, list]:
    per_k = max(1, points // len(ks))
    ps = [str(Fraction(per_k + 1 + i, 2 * per_k + 1)) for i in range(per_k)]  # p in (1/2, 1), all distinct
    return {"k": ks, "p": ps}


def run(query: str, g: dict[str, list], scheduler: str | None) -> tuple[float, object]:
    t0 = time.perf_counter()
    frame = pg.sweep("rr:k={k},p={p}", g, query, scheduler=scheduler, progress=False)
    return time.perf_counter() - t0, frame


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a handful of points (used by the test suite)")
    ap.add_argument("--points", type=int, default=200, help="grid points (default 200)")
    args = ap.parse_args()
    points = 6 if args.quick else args.points
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{points} points, {cores} cores; serial = one process, dask = local 'processes' scheduler (every core)")
    print(f"{'query':<12} {'serial s':>9} {'dask s':>9} {'default s':>10} {'work/pt ms':>11} {'dask work':>10} "
          f"{'errors':>7} {'serial/dask':>12} {'serial/default':>15}")
    for query, ks in (("delta_curve", [6, 7]), ("relax", [3, 4])):
        g = grid(points, ks)
        n = len(g["k"]) * len(g["p"])
        t_serial, a = run(query, g, "serial")
        t_dask, b = run(query, g, "processes")
        t_auto, c = run(query, g, None)
        ra = a.drop(columns="seconds").to_dict("records")  # type: ignore[attr-defined]
        rb = b.drop(columns="seconds").to_dict("records")  # type: ignore[attr-defined]
        rc = c.drop(columns="seconds").to_dict("records")  # type: ignore[attr-defined]
        assert str(ra) == str(rb) == str(rc), f"{query}: the Dask rows differ from the serial rows"
        errors = int(a["error"].notna().sum())  # type: ignore[index]
        work = float(a["seconds"].sum()) / n * 1000  # type: ignore[index]
        # the points' own seconds summed over the workers, over the wall time: ~ cores when the work runs in parallel
        busy = float(b["seconds"].sum()) / t_dask  # type: ignore[index]
        print(f"{query:<12} {t_serial:>9.2f} {t_dask:>9.2f} {t_auto:>10.2f} {work:>11.1f} {busy:>9.2f}x {errors:>7} "
              f"{t_serial / t_dask:>12.2f} {t_serial / t_auto:>15.2f}")


if __name__ == "__main__":
    main()
