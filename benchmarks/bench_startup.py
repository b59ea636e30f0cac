"""Benchmark: start-up time — whole processes, as ratios to ``python -c "import numpy"``.

Rows (each a fresh interpreter, timed from outside with ``subprocess`` and ``time.perf_counter``; the median of the
runs; the CPU time of the child, user + system from ``resource.getrusage``, is printed too because it is steadier
than wall-clock time on a busy machine):

* ``python -c "import numpy"`` — the floor: privgeom needs numpy;
* ``python -c "import privgeom"`` — the subpackages load on first use (PEP 562), so this is numpy plus privgeom's
  layer-0 modules, without networkx, scipy.optimize, cdd, sympy, …;
* ``privgeom --help`` — the command list comes from a light index (``privgeom/cli/_index.py``), no command module;
* ``privgeom voting accuracy majority -n 100001 --rho 1/2`` — a voting answer: the voting modules only.

Before this change (every name imported eagerly, every command module loaded for any command) each of the three
privgeom rows took about 9x the CPU time of the numpy row (0.93–1.15 s); after it, 1.3x, 1.6–1.8x and 2.3x
(0.14–0.29 s).

Run ``python benchmarks/bench_startup.py [--quick] [--runs N] [--root DIR]`` (default 7 runs, ``--quick`` 2;
``--root``: the checkout to time, default this one).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ROWS: tuple[tuple[str, list[str]], ...] = (
    ('python -c "import numpy"', ["-c", "import numpy"]),
    ('python -c "import privgeom"', ["-c", "import privgeom"]),
    ("privgeom --help", ["-m", "privgeom", "--help"]),
    (
        "privgeom voting accuracy majority -n 100001 --rho 1/2",
        ["-m", "privgeom", "voting", "accuracy", "majority", "-n", "100001", "--rho", "1/2"],
    ),
)


def _once(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``python ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"python {' '.join(args)} failed: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int, root: Path) -> list[tuple[str, float, float]]:
    """``(row, median wall seconds, median CPU seconds)`` of each row of :data:`ROWS`."""
    env = dict(os.environ, PYTHONPATH=str(root), MPLBACKEND="Agg")
    out = []
    for label, args in ROWS:
        _once(args, env, root)  # warm the file cache and the bytecode
        times = [_once(args, env, root) for _ in range(runs)]
        out.append((label, statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 runs per row (the test suite's setting)")
    parser.add_argument("--runs", type=int, default=None, help="runs per row (default 7)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to time (default: this one)")
    args = parser.parse_args()
    runs = args.runs or (2 if args.quick else 7)
    rows = measure(runs, args.root.resolve())
    base_wall, base_cpu = rows[0][1], rows[0][2]
    print(f"start-up, whole processes, median of {runs} runs (ratios to the numpy row)")
    print(f"{'command':<58}{'wall s':>8}{'ratio':>7}{'cpu s':>8}{'ratio':>7}")
    for label, wall, cpu in rows:
        print(f"{label:<58}{wall:>8.3f}{wall / base_wall:>7.1f}{cpu:>8.3f}{cpu / max(base_cpu, 1e-9):>7.1f}")


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_startup")
