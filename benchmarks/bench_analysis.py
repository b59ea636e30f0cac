"""Benchmark: the row-cone analysis of randomized response at real sizes, new structured routes against today's.

For RR(k, 3/4), k = 2..12 (``--quick``: k = 2, 3, in-process; the relaxation also at k = 13, 14 in the full run) it times

* ``analyze`` — the library work behind ``privgeom analyze``: the row cone and its counts (facets, rays, dimension),
  the closure facts the CLI shows (``RR(5/8)`` in, ``RR(7/8)`` out, for k ≤ 6 as ``privgeom analyze`` does; none
  beyond) and the relaxation onto Hamming pairs. New: the Kronecker-structured cone (Theorem 4.3
  in closed form, nothing dense) and ``relax_pairwise(..., method="auto")``; old: the cone canonicalised by
  pycddlib from its dense facets and ``method="cone"`` (Fourier–Motzkin up to 8 datasets, block elimination beyond);
* ``relax`` — ``relax_pairwise(RR, "hamming")``: difference constraints + one verified LP per symmetry orbit against
  the double-description route (``method="cone"``) and the projected-generators route (``method="generators"``);
* ``semantics`` — the facets and one Bayesian guarantee per facet: facets canonical by construction against
  pycddlib's canonicalisation.

Every cell runs in a subprocess with a time budget (``--budget``, default 60 s; ``--quick`` 20 s); a route that
refuses (``SizeLimitError``, raised before any work) shows "refused", one over budget "out of reach" (and is not run
for larger k). Where two or more routes answer, the answers (recognised definition, e^ε, number of lost guarantees
and facets) are asserted equal and the time ratio old/new is printed; "same answers" is "n/a" when only one answered.

A second table (``--only-compare`` prints only it) times ``compare`` and ``optimal`` at the sizes users
meet: the LP-per-facet-orbit containment and the ε-DP level rule against ray enumeration (``method="rays"``), and
the explicit / closed-form / symmetry-reduced optima against the full LP (limit lifted).

A third table (``scale`` rows; ``--only-own-graph`` runs it alone) times ``privgeom analyze`` on ε-DP on histograms
(``replace-one``), the truncated geometric mechanism and ε-DP on a path: the relaxation onto the definition's own
graph (the default) against the relaxation onto all pairs (the default before), answers asserted equal. A fourth
(``path`` rows, also in ``--only-own-graph``) runs ``privgeom analyze dp:graph=path,n=N,exp_eps=2`` end to end, each cell
in its own process: the path's edges by index arithmetic (no networkx graph) against the graph route, reports asserted
identical, time and peak memory printed.

Run ``python benchmarks/bench_analysis.py [--quick] [--only-compare | --only-own-graph] [--max-k K] [--budget S]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

P = "3/4"


def _subprocess_cell(cmd: list[str], budget: float) -> dict[str, Any]:
    """Run one benchmark cell as ``cmd`` in a subprocess with a time budget: its JSON answer with ``status``."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        return {"status": "out of reach"}
    if proc.returncode == 3:
        return {"status": "refused", "why": proc.stdout.strip()[:160]}
    if proc.returncode != 0:
        return {"status": "error", "why": (proc.stderr.strip().splitlines() or ["?"])[-1][:200]}
    out = json.loads(proc.stdout)
    out["status"] = "ok"
    return out


def _cell(task: str, route: str, k: int) -> dict[str, Any]:
    """Run one cell in this process and return its answer (called in the subprocess)."""
    import privgeom as pg
    from privgeom.analyses import relax_pairwise, semantics
    from privgeom.cli._analyze import _closure_examples
    from privgeom.geometry import Cone

    if task in SCALE_TASKS:
        return _scale_cell(task, route, k)
    rr = pg.RandomizedResponse(k, P)
    t0 = time.perf_counter()
    if task == "analyze":
        if route == "new":
            cone = rr.row_cone()
        else:
            cone = Cone.from_facets(rr.facets(), exact=True, labels=rr.inputs)
        counts = (cone.n_facets, cone.dim, cone.is_pointed)
        # the closure facts ``privgeom analyze`` shows (RR(5/8) inside, RR(7/8) outside, up to k = 6; none beyond)
        member = [m.member for _, m in _closure_examples(rr)] or None
        r = relax_pairwise(rr if route == "new" else cone, "hamming", method="auto" if route == "new" else "cone")
        ans = {
            "facets": counts[0],
            "dim": counts[1],
            "member": member,
            "recognised": r.recognised,
            "exp_eps": str(r.level and r.level.exp_eps),
            "lost": len(r.lost),
        }
    elif task == "relax":
        method = {"new": "auto", "old": "cone", "generators": "generators"}[route]
        r = relax_pairwise(rr, "hamming", method=method)
        ans = {
            "recognised": r.recognised,
            "exp_eps": str(r.level and r.level.exp_eps),
            "lost": len(r.lost),
            "kept": r.kept,
        }
        if route == "new":
            ans["LPs (orbits)"] = len(r.statuses)
    elif task == "semantics":
        cone = rr.row_cone() if route == "new" else Cone.from_facets(rr.facets(), exact=True, labels=rr.inputs)
        gs = semantics(cone)
        ans = {"guarantees": len(gs), "parity": sum(1 for g in gs if g.parity_bits is not None)}
    else:  # pragma: no cover - argparse restricts the values
        raise ValueError(task)
    ans["seconds"] = time.perf_counter() - t0
    return ans


def run_cell(task: str, route: str, k: int, budget: float, in_process: bool = False) -> dict[str, Any]:
    """The cell in a subprocess (in this process with ``in_process``, for the small ``--quick`` sizes): its answer,
    or ``{"status": "refused" | "out of reach" | "error"}``."""
    if in_process:
        from privgeom import SizeLimitError

        try:
            out = _cell(task, route, k)
        except SizeLimitError as err:
            return {"status": "refused", "why": str(err)[:160]}
        out["status"] = "ok" if out["seconds"] <= budget else "out of reach"
        return out
    cmd = [sys.executable, __file__, "--cell", task, route, str(k)]
    return _subprocess_cell(cmd, budget)


def fmt(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "out of reach"
    if cell["status"] != "ok":
        return cell["status"]
    t = cell["seconds"]
    return f"{t * 1e3:.0f} ms" if t < 1 else f"{t:.2f} s"


def same_answers(cells: dict[str, dict[str, Any] | None]) -> str:
    """ "yes" / "NO" when two or more routes answered (their common answer keys compared with the new route's, or the
    first answering route's), "n/a" when fewer than two did (nothing to compare)."""
    ok = [c for c in cells.values() if c is not None and c["status"] == "ok"]
    if len(ok) < 2:
        return "n/a"
    ref = ok[0]
    keys = [key for key in ref if key not in ("seconds", "status", "LPs (orbits)", "peak MB")]
    return "yes" if all(c.get(key) == ref.get(key) for c in ok for key in keys if key in c) else "NO"


ROUTES = {"analyze": ("new", "old"), "relax": ("new", "old", "generators"), "semantics": ("new", "old")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--quick", action="store_true", help="k = 2, 3 only, in this process, small budget (the test suite runs this)"
    )
    ap.add_argument("--max-k", type=int, default=None, help="largest k (default 12; 14 for relax)")
    ap.add_argument("--budget", type=float, default=None, help="seconds per cell (default 60, quick 20)")
    ap.add_argument("--cell", nargs=3, metavar=("TASK", "ROUTE", "K"), help=argparse.SUPPRESS)
    ap.add_argument("--only-compare", action="store_true", help="only the compare/optimal table")
    args = ap.parse_args(argv)
    if args.cell:
        from privgeom import SizeLimitError

        task, route, k = args.cell
        try:
            print(json.dumps(_cell(task, route, int(k))))
        except SizeLimitError as err:
            print(str(err))
            return 3
        return 0
    budget = args.budget or (20.0 if args.quick else 60.0)
    if args.only_compare:
        return main_scale(args.quick, budget)
    top = args.max_k or (3 if args.quick else 12)
    where = "in this process (--quick)" if args.quick else "each in its own process"
    print(f"RR(k, p={P}); time per cell (budget {budget:.0f} s, {where}); ratio = old / new")
    print("task | k | datasets | new | old | generators | ratio old/new | same answers | answer (new)")
    print("--- | --- | --- | --- | --- | --- | --- | --- | ---")
    failures = 0
    for task, routes in ROUTES.items():
        gone: set[str] = set()
        kmax = top if args.max_k or args.quick or task != "relax" else 14
        for k in range(2, kmax + 1):
            cells: dict[str, dict[str, Any] | None] = {}
            for route in routes:
                if route in gone:
                    cells[route] = None
                    continue
                cells[route] = run_cell(task, route, k, budget, in_process=args.quick)
                if cells[route]["status"] == "out of reach":  # type: ignore[index]
                    gone.add(route)
            new = cells["new"]
            same = same_answers(cells)
            if same == "NO":
                failures += 1
            old = cells.get("old")
            ratio = "-"
            if new and new["status"] == "ok" and old and old["status"] == "ok":
                ratio = f"{old['seconds'] / max(new['seconds'], 1e-9):.1f}x"
            answer = (
                ", ".join(f"{key}={new[key]}" for key in new if key not in ("seconds", "status"))
                if new and new["status"] == "ok"
                else "-"
            )
            print(
                f"{task} | {k} | {2**k} | {fmt(new)} | {fmt(old)} | "
                f"{fmt(cells.get('generators')) if 'generators' in routes else '-'} | {ratio} | "
                f"{same} | {answer}"
            )
            if new is None or new["status"] != "ok":
                break
    failures += orbit_rows(quick=args.quick, budget=budget)
    if failures:
        print(f"{failures} row(s) where the routes disagree", file=sys.stderr)
        return 1
    return main_scale(args.quick, budget)


# ------------------------------------------------------------------------------------------ the compare/optimal table
#: compare and optimal without enumeration: task -> (sizes, quick sizes, size label). "new" is the default route
#: (``method="auto"``; for compare at k ≤ 4 the LP route is forced so that it is the one timed), "old" the route of
#: before (``method="rays"`` / ``method="lp"`` with the LP limit lifted), answers asserted equal where both finish.
SCALE_TASKS: dict[str, tuple[tuple[int, ...], tuple[int, ...], str]] = {
    "compare rr:k,p=3/4 vs dp:hamming,k,exp_eps=3": ((2, 3, 4, 5, 6, 8, 10), (2, 3), "k"),
    "compare dp:hamming,k at exp_eps=2 vs 3": ((2, 3, 4, 5, 8), (2, 3), "k"),
    "optimal dp:complete,n,exp_eps=3 (accuracy, uniform)": ((5, 10, 20, 30, 50, 100), (5,), "n"),
    "optimal rr:k,p=3/4 (accuracy, uniform)": ((2, 3, 4, 5, 6, 8), (2, 3), "k"),
    "optimal dp:hamming,k,exp_eps=3 (accuracy, uniform)": ((2, 3, 4, 5, 6), (2, 3), "k"),
}


def _scale_cell(task: str, route: str, k: int) -> dict[str, Any]:
    import privgeom as pg
    from privgeom.analyses.comparison._compare import compare
    from privgeom.analyses.optimal._optimal import optimal_mechanism

    big = 10**9
    if task.startswith("compare rr"):
        a, b = pg.parse_definition(f"rr:k={k},p=3/4"), pg.parse_definition(f"dp:graph=hamming,k={k},exp_eps=3")
    elif task.startswith("compare dp"):
        a, b = (pg.parse_definition(f"dp:graph=hamming,k={k},exp_eps={t}") for t in (2, 3))
    elif task.startswith("optimal dp:complete"):
        d = pg.parse_definition(f"dp:graph=complete,n={k},exp_eps=3")
    elif task.startswith("optimal rr"):
        d = pg.parse_definition(f"rr:k={k},p=3/4")
    else:
        d = pg.parse_definition(f"dp:graph=hamming,k={k},exp_eps=3")
    t0 = time.perf_counter()
    if task.startswith("compare"):
        method = "rays" if route == "old" else ("lp" if task.startswith("compare rr") and k <= 4 else "auto")
        c = compare(a, b, method=method)
        for inc in (c.a_in_b, c.b_in_a):  # every witness verified: in the larger closure, outside the other
            if inc.holds is False:
                assert inc.witness.in_source.member and not inc.witness.not_in_larger.member
        ans: dict[str, Any] = {"relation": c.relation, "exact": c.exact}
    else:
        opt = optimal_mechanism(
            d,
            "accuracy",
            "uniform",
            method="lp" if route == "old" else "auto",
            max_lp_size=big if route == "old" else None,
        )
        assert opt.certificate.exact and opt.membership.member
        ans = {"value": str(opt.value), "exact": opt.exact}
    ans["seconds"] = time.perf_counter() - t0
    return ans


def main_scale(quick: bool, budget: float) -> int:
    """The compare/optimal table: new route against the old one, answers asserted equal."""
    where = "in this process (--quick)" if quick else "each in its own process"
    print(f"\ncompare and optimal without enumeration; time per cell (budget {budget:.0f} s, {where})")
    print("task | size | new | old | ratio old/new | same answers | answer (new)")
    print("--- | --- | --- | --- | --- | --- | ---")
    failures = 0
    for task, (sizes, quick_sizes, label) in SCALE_TASKS.items():
        old_gone: dict[str, Any] | None = None  # the old route's refusal or time-out, repeated for larger sizes
        for k in quick_sizes if quick else sizes:
            new = run_cell(task, "new", k, budget, in_process=quick)
            old = old_gone or run_cell(task, "old", k, budget, in_process=quick)
            if old["status"] in ("out of reach", "refused"):
                old_gone = old
            same = same_answers({"new": new, "old": old})
            failures += same == "NO"
            ratio = "-"
            if new["status"] == "ok" and old and old["status"] == "ok":
                ratio = f"{old['seconds'] / max(new['seconds'], 1e-9):.1f}x"
            answer = (
                ", ".join(f"{key}={new[key]}" for key in new if key not in ("seconds", "status"))
                if new["status"] == "ok"
                else new.get("why", "-")
            )
            print(f"{task} | {label}={k} | {fmt(new)} | {fmt(old)} | {ratio} | {same} | {answer}")
    if failures:
        print(f"{failures} row(s) where the routes disagree", file=sys.stderr)
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------- RR per orbit
_ORBIT_CELL = """
import json, resource, sys, time
import privgeom as pg
from privgeom.analyses.guarantees import _summary  # loaded before the clock starts, as both routes need them
from privgeom.analyses.relaxation import _relax_orbits
if sys.argv[2] == "old":
    pg.RandomizedResponse.orbit_structure = lambda self: None  # the generic routes
t = time.perf_counter()
if sys.argv[3] == "orbit analyze":  # the command's whole text (the route's name in it aside)
    import contextlib, io
    from privgeom.cli._main import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["analyze", f"rr:k={sys.argv[1]},p=3/4"])
    answer = [code, buf.getvalue().replace("one verified witness per orbit", "one verified LP per orbit")]
else:
    rr = pg.RandomizedResponse(int(sys.argv[1]), "3/4")
    r = pg.relax_pairwise(rr, "hamming")
    s = pg.describe_row_cone(rr)
    text = (r.lost[0].text, s.facet_orbits[0].guarantee.text, s.facet_orbits[0].inequality)
    answer = [r.recognised, str(r.level and r.level.exp_eps), len(r.lost), [st.size for st in r.statuses],
              [o.size for o in s.facet_orbits], text]
out = {"seconds": time.perf_counter() - t, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
       "answer": answer}
print(json.dumps(out))
"""


def _orbit_cell(task: str, k: int, route: str, budget: float) -> dict[str, Any] | None:
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-c", _ORBIT_CELL, str(k), route, task], capture_output=True, text=True, timeout=budget
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:80]}
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def orbit_rows(*, quick: bool, budget: float) -> int:
    """``relax``: ``relax_pairwise(RR(k, 3/4), "hamming")`` plus ``describe_row_cone``; ``analyze``: the command
    ``privgeom analyze rr:k=K,p=3/4`` (its whole text compared). Per orbit (new) against the generic routes (old),
    each in its own process (time after the import); peak memory is the process's maximum resident set.
    Returns the number of rows where the answers differ."""
    print()
    print(
        "RR(k, 3/4) per orbit (new) vs generic (old); orbit relax = relax_pairwise(hamming) + describe_row_cone, "
        "orbit analyze = privgeom analyze rr:k=K,p=3/4"
    )
    print("task | k | datasets | new s | new peak MB | old s | old peak MB | ratio old/new | same answers")
    print("--- | --- | --- | --- | --- | --- | --- | --- | ---")
    bad = 0
    for task, k in [(t, k) for t in ("orbit relax", "orbit analyze") for k in ((4, 6) if quick else (12, 16, 20))]:
        new = _orbit_cell(task, k, "new", budget)
        old = _orbit_cell(task, k, "old", budget) if k <= 16 else None  # the generic route needs minutes beyond
        ok = lambda c: c is not None and "seconds" in c  # noqa: E731
        same = "-" if not (ok(new) and ok(old)) else ("yes" if new["answer"] == old["answer"] else "NO")  # type: ignore[index]
        bad += same == "NO"
        cell = lambda c: (  # noqa: E731
            f"{c['seconds']:.2f} | {c['peak_mb']}"
            if ok(c)
            else ("out of budget | -" if c is None else f"{c['error']} | -")
        )
        ratio = f"{old['seconds'] / max(new['seconds'], 1e-9):.1f}x" if ok(new) and ok(old) else "-"  # type: ignore[index]
        print(f"{task} | {k} | {2**k} | {cell(new)} | {cell(old)} | {ratio} | {same}")
    return bad


# ------------------------------------------------------------------------------ catalogue definitions at scale
#: ``privgeom analyze`` on ε-DP on histograms, the truncated geometric mechanism and ε-DP on a path (issue rows):
#: new = relaxation onto the definition's own graph (the default), old = onto all pairs (the default before).
SCALE_SPECS = {
    "replace-one": ("dp:graph=replace-one,n={n},categories=3,exp_eps=2", (10, 20, 50, 100), (3, 4)),
    "geometric": ("geometric:n={n},alpha=1/2", (20, 40, 100, 200, 400, 1000), (3, 6)),
    "path": ("dp:graph=path,n={n},exp_eps=2", (100, 1000, 100_000, 400_000, 1_000_000), (5, 12)),
}


def _own_graph_cell(spec: str, route: str) -> dict[str, Any]:
    """The library work behind ``privgeom analyze SPEC``: parse, row cone, facet orbits, relaxation (new: onto the
    definition's own graph; old: onto all pairs), the lost guarantees counted."""
    from privgeom.analyses import describe_row_cone, relax
    from privgeom.analyses.relaxation._relaxation import own_family
    from privgeom.definitions import parse_definition

    t0 = time.perf_counter()
    d = parse_definition(spec)
    summary = describe_row_cone(d, definition=spec)
    own = own_family(d)
    assert own is not None
    r = relax(d, own[1] if route == "new" else "all-pairs")
    ans: dict[str, Any] = {
        "datasets": summary.n_datasets,
        "facets": summary.n_facets,
        "recognised": r.recognised,
        "exp_eps": str(r.level and r.level.exp_eps),
        "lost": len(r.lost),
    }
    if route == "new":
        ans["orbits"] = len(summary.facet_orbits)
    ans["seconds"] = time.perf_counter() - t0
    return ans


def run_scale_cell(spec: str, route: str, budget: float, in_process: bool) -> dict[str, Any]:
    """:func:`_own_graph_cell` in a subprocess with a time budget (in this process for ``--quick``)."""
    if in_process:
        from privgeom import SizeLimitError

        try:
            out = _own_graph_cell(spec, route)
        except SizeLimitError as err:
            return {"status": "refused", "why": str(err)[:160]}
        out["status"] = "ok"
        return out
    cmd = [sys.executable, __file__, "--scale-cell", spec, route]
    return _subprocess_cell(cmd, budget)


def scale_rows(quick: bool, budget: float) -> int:
    """The second table: catalogue definitions at scale, new (own graph) against old (all pairs); failures."""
    where = "in this process (--quick)" if quick else "each in its own process"
    print()
    print(
        f"privgeom analyze at scale (budget {budget:.0f} s per cell, {where}); new = onto the definition's own "
        "graph, old = onto all pairs"
    )
    print("scale | spec | new | old | ratio old/new | same answers | answer (new)")
    print("--- | --- | --- | --- | --- | --- | ---")
    failures = 0
    for spec_fmt, full, small in SCALE_SPECS.values():
        old_gone = False
        for n in small if quick else full:
            spec = spec_fmt.format(n=n)
            new = run_scale_cell(spec, "new", budget, quick)
            old = None if old_gone else run_scale_cell(spec, "old", budget, quick)
            if old is not None and old["status"] != "ok":
                old_gone = True
            same = same_answers({"new": new, "old": old})
            failures += same == "NO"
            ratio = (
                f"{old['seconds'] / max(new['seconds'], 1e-9):.1f}x"
                if new["status"] == "ok" and old and old["status"] == "ok"
                else "-"
            )
            answer = (
                ", ".join(f"{key}={new[key]}" for key in new if key not in ("seconds", "status"))
                if new["status"] == "ok"
                else new.get("why", "-")
            )
            print(f"scale | {spec} | {fmt(new)} | {fmt(old)} | {ratio} | {same} | {answer}")
    return failures


# ------------------------------------------------------------------------------ ε-DP on a path: no graph
#: ``privgeom analyze dp:graph=path,n=N,exp_eps=2`` end to end: new = the path's edges by index arithmetic (no
#: networkx graph, sparse guarantees, orbits of the reversal from its image array); old = the graph route
#: (``Domain.relation_pairs`` switched off, ``graph_edges`` lifted to N). Reports are asserted identical.
PATH_SIZES = ((10, 100), (1000, 100_000, 400_000, 1_000_000))


def _path_cell(n: int, route: str) -> dict[str, Any]:
    """One ``privgeom analyze`` run (called in a fresh process): seconds, peak resident memory, a digest of the text."""
    import contextlib
    import hashlib
    import io
    import resource

    from privgeom._core import domain as _domain
    from privgeom.cli import main as cli_main

    argv = ["analyze", f"dp:graph=path,n={n},exp_eps=2"]
    if route == "old":
        _domain.Domain.relation_pairs = lambda self, relation: None  # type: ignore[method-assign]
        argv += ["--limit", f"graph_edges={max(n, 500_000)}"]
    buf = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        code = cli_main(argv)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {
        "code": code,
        "text": hashlib.sha256(buf.getvalue().encode()).hexdigest()[:16],
        "seconds": seconds,
        "peak MB": round(peak),
    }


def path_rows(quick: bool, budget: float) -> int:
    """The third table: ε-DP on a path, arithmetic route against the graph route; failures."""
    print()
    print(
        f"privgeom analyze dp:graph=path,n=N,exp_eps=2 (budget {budget:.0f} s per cell, each in its own process; "
        "peak = max resident memory of that process); new = edges by index arithmetic, old = networkx graph"
    )
    print("path | N | new | old | ratio old/new | same text | peak MB new | peak MB old")
    print("--- | --- | --- | --- | --- | --- | --- | ---")
    failures = 0
    old_gone = False
    for n in PATH_SIZES[0] if quick else PATH_SIZES[1]:
        cells: dict[str, dict[str, Any] | None] = {}
        for route in ("new", "old"):
            if route == "old" and old_gone:
                cells[route] = None
                continue
            cmd = [sys.executable, __file__, "--path-cell", str(n), route]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=budget)
                cells[route] = (
                    dict(json.loads(proc.stdout), status="ok")
                    if proc.returncode == 0
                    else {"status": "error", "why": (proc.stderr.strip().splitlines() or ["?"])[-1][:200]}
                )
            except subprocess.TimeoutExpired:
                cells[route] = {"status": "out of reach"}
        new, old = cells["new"], cells["old"]
        assert new is not None
        if old is None or old["status"] != "ok":
            old_gone = True
        same = same_answers({"new": new, "old": old})
        failures += same == "NO" or new["status"] != "ok"
        ratio = (
            f"{old['seconds'] / max(new['seconds'], 1e-9):.1f}x"
            if new["status"] == "ok" and old and old["status"] == "ok"
            else "-"
        )
        peak = [str(c["peak MB"]) if c and c["status"] == "ok" else "-" for c in (new, old)]
        print(f"path | {n:,} | {fmt(new)} | {fmt(old)} | {ratio} | {same} | {peak[0]} | {peak[1]}")
    return failures


def scale_main(argv: list[str]) -> int:
    """``--scale-cell SPEC ROUTE`` (subprocess) or the scale table alone (``--only-own-graph``)."""
    if argv[0] == "--scale-cell":
        from privgeom import SizeLimitError

        try:
            print(json.dumps(_own_graph_cell(argv[1], argv[2])))
        except SizeLimitError as err:
            print(str(err))
            return 3
        return 0
    if argv[0] == "--path-cell":
        out = _path_cell(int(argv[1]), argv[2])
        print(json.dumps({key: v for key, v in out.items() if key != "code"}))
        return 0 if out["code"] == 0 else 1
    quick = "--quick" in argv
    failures = scale_rows(quick, 20.0 if quick else 60.0)
    failures += path_rows(quick, 60.0 if quick else 120.0)
    return 1 if failures else 0


def _tables() -> int:
    """Both tables of this script (the per-orbit rows, then the scale table)."""
    code = main()
    if code == 0 and "--cell" not in sys.argv:
        code = scale_main(["--scale-table"] + (["--quick"] if "--quick" in sys.argv else []))
    return code


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("--scale-cell", "--only-own-graph", "--path-cell"):
        sys.exit(scale_main(sys.argv[1:]))
    if "--cell" in sys.argv:
        sys.exit(main())
    import _report

    _report.run(_tables, "bench_analysis")
