"""Benchmark: the engine portfolio of exact cone conversion (cdd, Normaliz, PPL, and ``auto``) on generic inputs.

Cases (every engine's time, ``auto``'s time and engine, the best engine's time, answers asserted identical):

* the row cones of random column-stochastic mechanisms (entries 1..19 normalised, fixed seeds) as
  ``FiniteDefinition([M]).row_cone()``: the rows of the issue's table (20 x 10, 24 x 12, 24 x 16, 28 x 14, 30 x 16)
  and a corpus of random finite definitions (10–16 datasets, 20–30 outputs, one seed each);
* ``pg.hull`` / ``pg.intersection`` of randomized response and ε-DP on the hypercube, and ``pg.from_guarantees`` of a
  redundant list of guarantees (Clarkson's redundancy removal; each engine then converts the result).

An engine that runs past ``--budget`` seconds is stopped by the ``engine_seconds`` limit (its worker process is
terminated) and shown as ``>budget``; cdd is skipped above ``--cdd-max-entries`` generator entries (it then takes
minutes). ``auto`` is the time of the default route; "best" the fastest engine that finished.

``--quick`` runs only a few tiny row cones and one small design case (a smoke test: seconds, not minutes).
``--budget-rows`` runs only :func:`budget_rows`: RR(7) ∩ DP(Q7) by orbit and the refusal latencies of the slow cases.

Run ``python benchmarks/bench_engines.py [--quick] [--corpus N] [--max-outputs O] [--max-datasets D] [--budget S]
[--skip-table] [--skip-design]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from typing import Any, Callable

import numpy as np

import privgeom as pg
from privgeom import SizeLimitError
from privgeom.geometry import use_engine
from privgeom.geometry._engines import available_engines, choose

TABLE = [(20, 10), (24, 12), (24, 16), (28, 14), (30, 16)]
#: ``--quick``: a handful of tiny row cones (outputs, datasets, seed), each engine's answer still asserted identical.
QUICK = [(6, 4, 0), (8, 5, 1), (9, 6, 2)]


def mechanism(n_out: int, n_in: int, seed: int) -> pg.Mechanism:
    """A random column-stochastic mechanism: integer entries 1..19, each column divided by its sum."""
    rng = np.random.default_rng(seed)
    A = rng.integers(1, 20, size=(n_out, n_in))
    s = A.sum(axis=0)
    return pg.Mechanism([[Fraction(int(A[i, j]), int(s[j])) for j in range(n_in)] for i in range(n_out)])


#: An engine that ran a case in less than this many seconds runs it again (:data:`REPEATS` rounds over the engines in
#: all) and its best time is kept: on a busy machine one short run is mostly noise.
REPEAT_UNDER = 3.0
REPEATS = 3


def timed(fn: Callable[[], Any], budget: int) -> tuple[float | None, Any]:
    """The wall time of one run of ``fn()`` and its answer; ``(None, None)`` when the engine budget stopped it."""
    t = time.perf_counter()
    try:
        with pg.limits(engine_seconds=budget):
            out = fn()
    except SizeLimitError as err:
        if "engine_seconds" in str(err):
            return None, None
        raise
    return time.perf_counter() - t, out


def fmt(t: float | None, budget: int) -> str:
    return f">{budget}" if t is None else f"{t:.2f}"


def compare(
    label: str,
    build: Callable[[], Any],
    answer: Callable[[Any], Any],
    budget: int,
    skip: set[str],
    rows: list[list[str]],
) -> None:
    """Time ``answer(build())`` under every engine and ``auto``; assert the answers identical."""
    times: dict[str, float | None] = {}
    answers: dict[str, Any] = {}
    engines = [e for e in available_engines() + ("auto",) if e not in skip]
    for e in skip:
        times[e] = None
    for round_ in range(REPEATS):  # rounds over every engine, so that a burst of load hits them alike
        for engine in engines:  # auto last in a round: no engine profits from an earlier run's warm caches
            if round_ and (times[engine] is None or times[engine] >= REPEAT_UNDER):  # type: ignore[operator]
                continue

            def run() -> Any:
                with use_engine(engine):
                    return answer(build())

            spent, out = timed(run, budget)
            if round_ == 0:
                times[engine], answers[engine] = spent, out
            elif spent is not None:
                times[engine] = min(spent, times[engine] or spent)
    done = {e: a for e, a in answers.items() if a is not None}
    if len({repr(a) for a in done.values()}) > 1:
        raise AssertionError(f"{label}: the engines disagree: " + ", ".join(f"{e}: {len(a)}" for e, a in done.items()))
    finished = {e: t for e, t in times.items() if t is not None and e != "auto"}
    best = min(finished, key=lambda e: finished[e]) if finished else "-"
    size = len(next(iter(done.values()))) if done else "?"
    ratio = (times["auto"] / finished[best]) if finished and times["auto"] is not None else float("nan")
    cells = [label, str(size)] + [("skip" if e in skip else fmt(times[e], budget)) for e in available_engines()]
    rows.append(cells + [fmt(times["auto"], budget), f"{best} {fmt(finished.get(best), budget)}", f"{ratio:.2f}"])
    print(" | ".join(rows[-1]), flush=True)


#: ``--ppl-max-entries``: PPL is skipped above this many generator entries (it then runs for minutes: the issue's 30 x 16
#: gave no answer in 120 s).
PPL_MAX_ENTRIES = [400]


def row_cone_case(n_out: int, n_in: int, seed: int, budget: int, cdd_max: int, rows: list[list[str]]) -> None:
    M = mechanism(n_out, n_in, seed)
    skip = ({"cdd"} if n_out * n_in > cdd_max else set()) | ({"ppl"} if n_out * n_in > PPL_MAX_ENTRIES[0] else set())
    compare(
        f"M {n_out} x {n_in} (seed {seed}), auto={choose('V', n_out, n_in).engine}",
        lambda: pg.FiniteDefinition([pg.Mechanism(M.matrix)]).row_cone(),
        lambda c: c.int_facets.tolist(),
        budget,
        skip,
        rows,
    )


def quick_cases(budget: int, rows: list[list[str]]) -> None:
    """The ``--quick`` smoke run: tiny row cones and the smallest design case, answers asserted identical."""
    for n_out, n_in, seed in QUICK:
        row_cone_case(n_out, n_in, seed, budget, n_out * n_in, rows)
    rr2, dp2 = pg.RandomizedResponse(2, "3/4"), pg.DifferentialPrivacy.hamming(2, exp_eps=2)
    compare(
        "hull(RR(2,3/4), DP(Q2,2)) facets",
        lambda: pg.hull(rr2, dp2).row_cone(),
        lambda c: c.int_facets.tolist(),
        budget,
        set(),
        rows,
    )


def design_cases(budget: int, rows: list[list[str]]) -> None:
    rr3, dp3 = pg.RandomizedResponse(3, "3/4"), pg.DifferentialPrivacy.hamming(3, exp_eps=2)
    rr4, dp4 = pg.RandomizedResponse(4, "3/4"), pg.DifferentialPrivacy.hamming(4, exp_eps=3)
    compare(
        "hull(RR(3,3/4), DP(Q3,2)) facets",
        lambda: pg.hull(rr3, dp3).row_cone(),
        lambda c: c.int_facets.tolist(),
        budget,
        set(),
        rows,
    )
    compare(
        "hull(RR(3,3/4), DP(Q3,2)) rays",
        lambda: pg.hull(rr3, dp3).row_cone(),
        lambda c: c.int_rays.tolist(),
        budget,
        set(),
        rows,
    )
    compare(
        "hull(RR(4,3/4), DP(Q4,3)) facets",
        lambda: pg.hull(rr4, dp4).row_cone(),
        lambda c: c.int_facets.tolist(),
        budget,
        set(),
        rows,
    )
    compare(
        "intersection(RR(4,3/4), DP(Q4,3)) facets",
        lambda: pg.intersection(rr4, dp4).row_cone(),
        lambda c: c.int_facets.tolist(),
        budget,
        set(),
        rows,
    )
    rng = np.random.default_rng(5)
    base = [list(r) for r in dp3.row_cone().int_facets.tolist()]
    extra = [[int(v) for v in (np.array(base[i]) + np.array(base[j]))] for i, j in rng.integers(0, len(base), (60, 2))]
    compare(
        "from_guarantees(DP(Q3,2) facets + 60 implied)",
        lambda: pg.from_guarantees(base + extra, dp3.inputs),
        lambda D: D.row_cone().int_rays.tolist(),
        budget,
        set(),
        rows,
    )


# ------------------------------------------------------------------------------------------------ budget and orbits
def budget_rows(budget: int = 120) -> list[list[str]]:
    """The intersection of two symmetric definitions by orbit, and how fast the slow cases are refused.

    Rows: ``pg.intersection(RR(7, 3/4), DP(Q7, e^ε = 2))`` facets (1,024 inequalities in R^128, one LP per orbit of
    the hypercube group; ``docs/theory.md`` §21) and the refusal of its rays; the refusal latency, from the start of
    the command to its error (a fresh ``python -m privgeom`` process: imports included), of
    ``design dp:graph=hamming,k=6,exp_eps=3 --drop 0``, of ``rowcone cone:file=… --rays`` for a cone in R^70, and of
    ``rowcone finite:file=…`` for a 30 x 16 random mechanism under ``--limit engine_rows=10000`` (the forecast of
    ``privgeom.geometry._budget``), and the same refusal in Python. Run with ``--budget-rows``.
    """
    import json
    import subprocess
    import tempfile
    from pathlib import Path

    rows: list[list[str]] = []

    def row(case: str, result: str, seconds: float) -> None:
        rows.append([case, result, f"{seconds:.2f}"])
        print(" | ".join(rows[-1]), flush=True)

    print("case | result | seconds")
    rr7, dp7 = pg.RandomizedResponse(7, "3/4"), pg.DifferentialPrivacy.hamming(7, exp_eps=2)
    t = time.perf_counter()
    cone = pg.intersection(rr7, dp7).row_cone()
    n = cone.n_facets
    row("intersection(RR(7,3/4), DP(Q7,2)) facets", f"{n:,} facets", time.perf_counter() - t)
    t = time.perf_counter()
    try:
        cone.rays
        row("  its rays", "computed", time.perf_counter() - t)
    except SizeLimitError as err:
        row("  its rays", "refused: " + str(err).split(";")[0][:60], time.perf_counter() - t)
    with tempfile.TemporaryDirectory() as tmp:
        cycle = [[(3 if j == (i + 1) % 70 else -1 if j == i else 0) for j in range(70)] for i in range(70)]
        doc = {"privgeom": "cone-definition", "version": 1, "labels": [f"d{i}" for i in range(70)], "facets": cycle}
        (Path(tmp) / "cone70.json").write_text(json.dumps(doc))
        (Path(tmp) / "m.json").write_text(mechanism(30, 16, 0).to_json())
        commands = [
            (
                "design dp:graph=hamming,k=6,exp_eps=3 --drop 0",
                ["design", "dp:graph=hamming,k=6,exp_eps=3", "--drop", "0"],
            ),
            ("rowcone cone:file=<R^70> --rays", ["rowcone", f"cone:file={tmp}/cone70.json", "--rays"]),
            (
                "rowcone finite:file=<30 x 16> --limit engine_rows=10000",
                ["rowcone", f"finite:file={tmp}/m.json", "--limit", "engine_rows=10000"],
            ),
        ]
        for label, argv in commands:
            t = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "privgeom", *argv], capture_output=True, text=True, timeout=budget
            )
            what = "refused (exit 2)" if done.returncode == 2 else f"exit {done.returncode}"
            row(label, what, time.perf_counter() - t)
    d = pg.FiniteDefinition([mechanism(30, 16, 0)])
    t = time.perf_counter()
    try:
        with pg.limits(engine_rows=10_000):
            d.row_cone().n_facets
        row("FiniteDefinition(30 x 16).row_cone(), engine_rows=10000", "answered", time.perf_counter() - t)
    except SizeLimitError as err:
        est = str(err).split(": ", 1)[1].split(" (", 1)[0]
        row("FiniteDefinition(30 x 16).row_cone(), engine_rows=10000", f"refused ({est})", time.perf_counter() - t)
    print("\n| case | result | seconds |\n| --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return rows


def table_rows(args: argparse.Namespace, rows: list[list[str]]) -> None:
    """The row cones of the issue's table (20 x 10 … 30 x 16, seed 0)."""
    for n_out, n_in in TABLE[: args.table_max]:
        row_cone_case(n_out, n_in, 0, args.budget, args.cdd_max_entries, rows)


#: ``threshold_rows``: small random mechanisms (outputs, datasets) across the ``auto`` threshold between cdd and
#: Normaliz (:data:`privgeom.geometry._engines.AUTO_NORMALIZ_ENTRIES` generator entries).
THRESHOLD = [(8, 5), (10, 6), (12, 7), (12, 8), (14, 8), (15, 9), (16, 9), (16, 10), (18, 10), (20, 10)]


def threshold_rows(args: argparse.Namespace, rows: list[list[str]]) -> None:
    """Small row cones on both sides of the ``auto`` threshold (every engine, cdd included)."""
    for n_out, n_in in THRESHOLD:
        row_cone_case(n_out, n_in, 7, args.budget, max(args.cdd_max_entries, n_out * n_in), rows)


def corpus_rows(args: argparse.Namespace, rows: list[list[str]]) -> None:
    """The corpus: ``--corpus`` random finite definitions, 10–16 datasets, 20–30 outputs, seeds 100, 101, …"""
    rng = np.random.default_rng(2024)
    for k in range(args.corpus):
        n_in = int(rng.integers(10, min(16, args.max_datasets) + 1))
        n_out = int(rng.integers(20, min(30, args.max_outputs) + 1))
        row_cone_case(n_out, n_in, 100 + k, args.budget, args.cdd_max_entries, rows)


def design_rows(args: argparse.Namespace, rows: list[list[str]]) -> None:
    """Hull, intersection and ``from_guarantees`` cases."""
    design_cases(args.budget, rows)


#: The groups of rows :func:`main` runs, in order (a new group: a function ``(args, rows) -> None`` and its name here;
#: ``--skip NAME`` leaves one out).
ROW_FUNCTIONS: list[Callable[[argparse.Namespace, list[list[str]]], None]] = [
    threshold_rows,
    table_rows,
    corpus_rows,
    design_rows,
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=int, default=30, help="random finite definitions in the corpus (default 30)")
    ap.add_argument("--max-outputs", type=int, default=30, help="largest number of outputs in the corpus")
    ap.add_argument("--max-datasets", type=int, default=16, help="largest number of datasets in the corpus")
    ap.add_argument("--budget", type=int, default=120, help="seconds one engine may run on one case")
    ap.add_argument("--cdd-max-entries", type=int, default=300, help="skip cdd above this many generator entries")
    ap.add_argument("--ppl-max-entries", type=int, default=400, help="skip PPL above this many generator entries")
    ap.add_argument("--table-max", type=int, default=len(TABLE), help="how many rows of the issue's table to run")
    ap.add_argument("--skip", action="append", default=[], help="leave out a group of rows (table_rows, ...)")
    ap.add_argument("--skip-table", action="store_true", help="the same as --skip table_rows")
    ap.add_argument("--skip-design", action="store_true", help="the same as --skip design_rows")
    ap.add_argument("--quick", action="store_true", help="only a few tiny cases (a smoke test of every engine)")
    ap.add_argument("--budget-rows", action="store_true", help="only the intersection by orbit and the refusal times")
    args = ap.parse_args(argv)
    if args.budget_rows:
        budget_rows(args.budget)
        return 0
    PPL_MAX_ENTRIES[0] = args.ppl_max_entries
    skip = (
        set(args.skip)
        | ({"table_rows"} if args.skip_table else set())
        | ({"design_rows"} if args.skip_design else set())
    )
    rows: list[list[str]] = []
    head = ["case", "facets/rays"] + list(available_engines()) + ["auto", "best", "auto/best"]
    for engine in available_engines():  # warm-up: imports and the first worker start are not charged to a case
        with use_engine(engine):
            pg.FiniteDefinition([mechanism(7, 4, 1) if args.quick else mechanism(12, 10, 1)]).row_cone().n_facets
    if args.quick:
        print(" | ".join(head))
        quick_cases(min(args.budget, 60), rows)
        return 0
    print(" | ".join(head))
    for group in ROW_FUNCTIONS:
        if group.__name__ not in skip:
            group(args, rows)
    print("\n| " + " | ".join(head) + " |\n|" + " --- |" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
