"""pg.sweep: a grid serially (one process) vs on Dask (local processes, the default scheduler, a LocalCluster).

The grid is ``rr:k={k},p={p}`` with two values of ``k`` and ``points / 2`` values of ``p ∈ (1/2, 1)``: a CPU-bound
row (``k ∈ {8, 9}``, the whole exact δ(ε) curve of each mechanism, ``delta_curve``, 0.04 s and 0.15 s a point on
the 2-core reference machine: about 60 s of serial work at ``--points 660``) and an
overhead-bound row (``k ∈ {3, 4}``, the exact relaxation, ``relax``, a few ms a point). Every run must give the same
rows as the serial run (checked). Columns:

- ``serial s``, ``dask s``, ``default s``: wall times of the serial loop, Dask's local process scheduler from the
  first point (``scheduler="processes"``) and the default scheduler (in-process for a second, then Dask's processes
  when the rest of the work is long enough to pay for them);
- ``cold s``, ``warm s`` (with ``--cluster``): a ``distributed.LocalCluster`` with one single-threaded worker process
  per core, started before the clock runs: its first sweep (workers that have imported nothing, warmed by the
  sweep's worker plugin) and a second sweep of the same grid;
- ``work/pt ms``: the points' own seconds per point in the serial run;
- ``dask work``: the points' own seconds summed over the workers divided by the Dask wall time: about the number of
  cores when the points really run in parallel (a busy machine shows both a lower ratio and inflated per-point
  seconds);
- ``eff dask``, ``eff default``, ``eff warm``: the speed-up over the serial run divided by the cores, i.e. the
  fraction of the ideal ``serial / cores`` reached (100 % = every core busy with points the whole time). Worker
  start-up, pickling, batching, the in-process probe points, writing rows and other programs on the machine eat into
  it;
- ``cpu eff``: the CPU seconds of the serial run over those of the Dask run (this process and its worker processes):
  the share of the parallel run's CPU spent on the points themselves. Unlike the wall-clock columns it does not
  depend on what else the machine runs, so on a shared machine it is the figure to read: ``eff dask`` approaches it
  when the cores are free.

Run: python benchmarks/bench_sweep.py [--quick] [--points 200] [--cluster] [--query delta_curve]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from fractions import Fraction
from typing import Any

import privgeom as pg


def grid(points: int, ks: list[int]) -> dict[str, list]:
    per_k = max(1, points // len(ks))
    ps = [str(Fraction(per_k + 1 + i, 2 * per_k + 1)) for i in range(per_k)]  # p in (1/2, 1), all distinct
    return {"k": ks, "p": ps}


def cpu() -> float:
    """CPU seconds of this process and of its finished children (Dask's local worker processes once reaped)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(query: str, g: dict[str, list], scheduler: Any) -> tuple[float, Any, float]:
    t0, c0 = time.perf_counter(), cpu()
    frame = pg.sweep("rr:k={k},p={p}", g, query, scheduler=scheduler, progress=False)
    return time.perf_counter() - t0, frame, cpu() - c0


def rows(frame: Any) -> str:
    return str(frame.drop(columns="seconds").to_dict("records"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a handful of points (used by the test suite)")
    ap.add_argument("--points", type=int, default=200, help="grid points (default 200)")
    ap.add_argument("--cluster", action="store_true", help="also time a distributed.LocalCluster, cold and warm")
    ap.add_argument("--query", choices=("delta_curve", "relax"), default=None, help="only this row")
    args = ap.parse_args()
    points = 6 if args.quick else args.points
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    cluster = client = None
    if args.cluster:
        import distributed

        cluster = distributed.LocalCluster(
            n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{points} points, {cores} cores, load average {load:.1f} at the start; {time.strftime('%Y-%m-%d %H:%M')}")
    head = (
        f"{'query':<12} {'serial s':>9} {'dask s':>8} {'default s':>10} "
        + (f"{'cold s':>8} {'warm s':>8} " if client else "")
        + f"{'work/pt ms':>11} {'dask work':>10} {'eff dask':>9} {'eff default':>12}"
        + (f" {'eff warm':>9}" if client else "")
        + f" {'cpu eff':>8} {'errors':>7}"
    )
    print(head, flush=True)
    try:
        for query, ks in (("delta_curve", [8, 9]), ("relax", [3, 4])):
            if args.query not in (None, query):
                continue
            g = grid(points, ks)
            n = len(g["k"]) * len(g["p"])
            run(query, {"k": ks, "p": ["3/4"]}, "serial")  # this process imports the query's modules before timing
            t_serial, a, cpu_serial = run(query, g, "serial")
            t_dask, b, cpu_dask = run(query, g, "processes")
            t_auto, c, _ = run(query, g, None)
            assert rows(a) == rows(b) == rows(c), f"{query}: the Dask rows differ from the serial rows"
            extra, eff_warm = "", ""
            if client is not None:
                t_cold, d, _ = run(query, g, client)
                t_warm, e, _ = run(query, g, client)
                assert rows(a) == rows(d) == rows(e), f"{query}: the cluster rows differ from the serial rows"
                extra = f"{t_cold:>8.2f} {t_warm:>8.2f} "
                eff_warm = f" {t_serial / t_warm / cores:>8.0%}"
            errors = int(a["error"].notna().sum())
            work = float(a["seconds"].sum()) / n * 1000
            # the points' own seconds summed over the workers, over the wall time: ~ cores when they run in parallel
            busy = float(b["seconds"].sum()) / t_dask
            print(
                f"{query:<12} {t_serial:>9.2f} {t_dask:>8.2f} {t_auto:>10.2f} {extra}{work:>11.1f} {busy:>9.2f}x "
                f"{t_serial / t_dask / cores:>8.0%} {t_serial / t_auto / cores:>11.0%}{eff_warm} "
                f"{cpu_serial / cpu_dask:>8.0%} {errors:>7}",
                flush=True,
            )
    finally:
        if client is not None:
            client.close()
            cluster.close()  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
