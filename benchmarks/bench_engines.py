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


# ------------------------------------------------------------------------------------------- symmetric inputs
def symmetric_mechanism(k: int, n_weight_pairs: int, seed: int) -> pg.Mechanism:
    """A user's symmetric mechanism on ``k`` bits given only as a matrix: ``2^k`` outputs ``o`` reporting ``x`` with
    weights ``f(d(o, x))`` (``f`` random, ``30..33``: a randomized-response-like profile) and ``n_weight_pairs`` pairs of
    outputs reporting the Hamming weight ``w(x)`` with noise, ``g(|j − w(x)|)`` and ``g(|k − j − w(x)|)``; columns
    normalised. Its symmetry group (bit permutations and the complement) has order ``2 · k!``; nothing tells the
    package."""
    rng = np.random.default_rng(seed)
    n = 1 << k
    w = [bin(x).count("1") for x in range(n)]
    f = [int(v) for v in 30 + rng.integers(0, 4, size=k + 1)]
    g = [int(v) for v in rng.integers(1, 20, size=k + 1)]
    rows = [[f[w[o ^ x]] for x in range(n)] for o in range(n)]
    for j in range(0, k + 1, max(1, 6 // n_weight_pairs))[:n_weight_pairs]:
        rows.append([g[abs(j - w[x])] for x in range(n)])
        rows.append([g[abs(k - j - w[x])] for x in range(n)])
    s = np.array(rows, dtype=np.int64).sum(axis=0)
    return pg.Mechanism([[Fraction(r[x], int(s[x])) for x in range(n)] for r in rows])


def cube_mechanism(k: int, extra: str, seed: int) -> pg.Mechanism:
    """A random mechanism on ``k`` bits symmetric under the whole cube group (bit flips and bit permutations, order
    ``2^k k!``), given only as a matrix: ``2^k`` outputs ``o`` reporting ``x`` with weights ``f(d(o, x))`` (``f``
    random, ``30..33``) and, with ``extra="parity"``, two outputs reporting the parity of ``x`` (weights 1 and 19),
    with ``extra="bits"``, two outputs per bit reporting it (weights 1 and 19); columns normalised."""
    rng = np.random.default_rng(seed)
    n = 1 << k
    w = [bin(x).count("1") for x in range(n)]
    f = [int(v) for v in 30 + rng.integers(0, 4, size=k + 1)]
    rows = [[f[w[o ^ x]] for x in range(n)] for o in range(n)]
    tests = (
        [[w[x] % 2 for x in range(n)]] if extra == "parity" else [[(x >> i) & 1 for x in range(n)] for i in range(k)]
    )
    for t in tests:
        rows += [[1 if v else 19 for v in t], [19 if v else 1 for v in t]]
    s = np.array(rows, dtype=np.int64).sum(axis=0)
    return pg.Mechanism([[Fraction(r[x], int(s[x])) for x in range(n)] for r in rows])


def _rays(definition: Any) -> np.ndarray:
    """The canonical generators of a definition's row cone (computed before any clock starts)."""
    return np.asarray(definition.row_cone().int_rays)


def _finite(M: pg.Mechanism) -> pg.FiniteDefinition:
    return pg.FiniteDefinition([M])


def _int_rows(rows: Any) -> list[list[int]]:
    """Rational rows (ints, Fractions) scaled positively to integers."""
    import math

    out = []
    for r in rows:
        den = math.lcm(*(Fraction(v).denominator for v in r))
        out.append([int(Fraction(v) * den) for v in r])
    return out


def _normaliz_timed(ints: list[list[int]]) -> tuple[float, list[list[int]]]:
    """Normaliz's conversion timed inside the worker process it runs in (PyNormaliz's OpenMP threads must not start in
    the parent, which forks the workers of the verified route)."""
    from privgeom.geometry._engines import NORMALIZ_THREADS
    from privgeom.geometry._normaliz import normaliz_v_to_h

    t0 = time.perf_counter()
    out = normaliz_v_to_h(ints, [], threads=NORMALIZ_THREADS)[0]
    return time.perf_counter() - t0, out


def symmetric_cases(budget: int, rows: list[list[str]]) -> None:
    """Symmetric inputs nobody described to the package: the orbit engine against Normaliz and cdd on the same cone.

    Each row: the case, the facets, the orbit engine's reason (the symmetry group's order, the orbits), then the
    seconds of each engine's conversion alone (best of two: the orbit engine's route in this process, Normaliz through
    PyNormaliz with its threads timed inside its worker process, cdd's exact double description), the ratio Normaliz / orbits, and the seconds
    of the whole verified route (``facets_verified(..., method=...)``: the conversion, the exact canonical form and the
    verification every engine pays alike, Normaliz in its worker process) for the orbit engine and Normaliz. The
    answers are asserted identical (canonical form) and verified."""
    from privgeom.geometry import _cdd
    from privgeom.geometry._engines import facets_verified, fast_canonical, run_in_worker
    from privgeom.geometry._orbit_enum import orbit_route
    from privgeom.geometry._verify import verify_pair

    rr4, dp4 = pg.RandomizedResponse(4, "3/4"), pg.DifferentialPrivacy.hamming(4, exp_eps=3)
    rr5 = pg.Mechanism(pg.randomized_response(5, "3/4").matrix)
    # (label, the generators, engines skipped, whether the verified routes are timed too)
    cases: list[tuple[str, Callable[[], np.ndarray], set[str], bool]] = [
        ("RR(5, 3/4) as a matrix", lambda: _rays(pg.FiniteDefinition([rr5])), set(), True),
        ("cube-symmetric 5-bit mechanism 34 x 32", lambda: _rays(_finite(cube_mechanism(5, "parity", 1))), set(), True),
        (
            "cube-symmetric 5-bit mechanism 42 x 32",
            lambda: _rays(_finite(cube_mechanism(5, "bits", 1))),
            {"cdd"},
            False,
        ),
        ("weight-symmetric 5-bit mechanism 34 x 32", lambda: _rays(_finite(symmetric_mechanism(5, 1, 1))), set(), True),
        ("weight-symmetric 5-bit mechanism 36 x 32", lambda: _rays(_finite(symmetric_mechanism(5, 2, 1))), set(), True),
        ("generators of hull(RR(4,3/4), DP(Q4,3))", lambda: _rays(pg.hull(rr4, dp4)), {"cdd"}, True),
    ]
    for label, build, skip, verified in cases:
        R = build()
        n = R.shape[1]
        zero = np.zeros((0, n), dtype=R.dtype)
        ints = [[int(v) for v in r] for r in R.tolist()]
        why = ""

        def orbits() -> list[list[int]]:
            nonlocal why
            raw, why = orbit_route("V", R, zero, forced=True, auto=False, sub_facets=facets_verified)
            assert raw is not None, why
            return raw[0]

        conversions: dict[str, Callable[[], Any]] = {
            "orbits": orbits,
            "normaliz": lambda: run_in_worker(_normaliz_timed, (ints,), "normaliz"),
            "cdd": lambda: _int_rows(
                _cdd.v_to_h(np.array(ints, dtype=object), zero.astype(object), exact=True)[0].tolist()
            ),
        }
        alone: dict[str, float | None] = {}
        answers: dict[str, Any] = {}
        for engine, convert in conversions.items():
            alone[engine] = None
            if engine in skip:
                continue
            for _ in range(2):  # best of two: the reference machine is shared
                t0 = time.perf_counter()
                try:
                    with pg.limits(engine_seconds=budget):
                        out = convert()
                except SizeLimitError:  # Normaliz stopped at the budget
                    break
                t = time.perf_counter() - t0
                if engine == "normaliz":  # timed inside its worker process (no process start, no transfer)
                    t, out = out
                prev = alone[engine]
                alone[engine] = t if prev is None else min(prev, t)
            if alone[engine] is not None:
                canon = fast_canonical(out, n)
                assert canon is not None
                answers[engine] = canon.tolist()
        if len({repr(a) for a in answers.values()}) != 1:
            raise AssertionError(f"{label}: the engines disagree")
        F = np.array(answers["orbits"], dtype=np.int64).reshape(-1, n)
        verify_pair((R, zero), (F, np.zeros((0, n), dtype=np.int64)), engine="bench")
        totals: dict[str, float | None] = {"orbits": None, "normaliz": None}
        for engine in ("orbits", "normaliz") if verified else ():

            def run(engine: str = engine) -> Any:
                return facets_verified((R, zero), method=engine)[0].tolist()

            best: float | None = None
            for _ in range(2):
                secs, got = timed(run, budget)
                assert got is None or got == answers["orbits"]
                best = secs if best is None or (secs is not None and secs < best) else best
            totals[engine] = best
        t_orb, t_nmz = alone["orbits"], alone["normaliz"]
        ratio = f"{t_nmz / t_orb:.1f}x" if t_orb and t_nmz else (f">{budget / t_orb:.1f}x" if t_orb else "-")
        rows.append(
            [label, str(len(F)), why]
            + [("skip" if e in skip else fmt(alone[e], budget)) for e in conversions]
            + [ratio]
            + [(fmt(totals[e], budget) if verified else "-") for e in ("orbits", "normaliz")]
        )
        print(" | ".join(rows[-1]), flush=True)


def symmetric_main(argv: list[str] | None = None) -> int:
    """``python benchmarks/bench_engines.py --symmetric [--budget S]``: the symmetric cases alone."""
    ap = argparse.ArgumentParser(description="orbit engine vs Normaliz and cdd on symmetric inputs")
    ap.add_argument("--symmetric", action="store_true")
    ap.add_argument("--budget", type=int, default=120, help="seconds one engine may run on one case")
    args = ap.parse_args(argv)
    for engine in ("normaliz", "orbits"):  # warm-up: imports, the first worker start, the first LP
        with use_engine(engine):
            pg.FiniteDefinition([pg.Mechanism(pg.randomized_response(3, "3/4").matrix)]).row_cone().n_facets
    rows: list[list[str]] = []
    head = [
        "case",
        "facets",
        "orbit engine",
        "orbits s",
        "normaliz s",
        "cdd s",
        "normaliz / orbits",
        "orbits verified s",
        "normaliz verified s",
    ]
    symmetric_cases(args.budget, rows)
    print("\n| " + " | ".join(head) + " |\n|" + " --- |" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__" and "--symmetric" in sys.argv:
    sys.exit(symmetric_main())


if __name__ == "__main__":
    sys.exit(main())
