"""Benchmark: how the ε-DP cone on the hypercube Q_k grows (facets, extreme rays) and what pycddlib can do.

For k = 2..5 (``--quick``: k = 2, 3) and ``e^ε = 2`` it reports

* facets: ``k 2^k`` (formula) and the time to build the H-representation (``DifferentialPrivacy.hamming(k).row_cone()``,
  pycddlib redundancy removal), exact and float;
* extreme rays: the structured enumeration of ``privgeom.definitions._catalogue.dp_ray_patterns`` (fast path:
  homomorphisms ``Q_k → Z``, no double description) against the generic route, pycddlib's double description from the
  facets (``cdd.gmp`` exact and ``cdd`` float, raw conversion), and their time ratio;
* what is out of reach, with the refusal privgeom gives (``SizeLimitError``) instead of hanging;
* rays up to symmetry: :func:`privgeom.dp_ray_orbits` (orderly generation over the automorphism group,
  one lex-leader per orbit, sizes by orbit–stabiliser; ``docs/theory.md`` §7) against the full enumeration
  ``dp_ray_patterns`` on ``Q_k`` and ``K_n`` (its size limits raised), the totals asserted equal and the time ratio
  printed; at ``k = 5`` also against the count of ``hypercube_dp_ray_count``.

Run ``python benchmarks/bench_dp_cones.py [--quick] [--max-k K] [--float-cone]``. ``--float-cone`` also times the float
``Cone.rays`` route, whose float redundancy removal takes ~30 s at k = 4.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import numpy as np

from privgeom import SizeLimitError, dp_ray_orbits, limits
from privgeom.graphs._graphs import complete_graph, hamming_graph
from privgeom.definitions._catalogue import dp_ray_count_lower_bound, dp_ray_patterns, hypercube_dp_ray_count
from privgeom.definitions._dp import DifferentialPrivacy
from privgeom.geometry import _cdd

#: Largest k for which the benchmark runs pycddlib's double description for the rays (k = 5 has 395 094 rays:
#: measured, cdd's float conversion did not finish within 300 s and the exact one is slower still).
MAX_DD_K = 4


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def fmt_t(t: float | None) -> str:
    return "-" if t is None else (f"{t * 1e3:.1f} ms" if t < 1 else f"{t:.2f} s")


def row(k: int, quick: bool, float_cone: bool) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    out: dict[str, Any] = {"k": k, "datasets": 2**k, "facets_formula": k * 2**k}
    dp_x = DifferentialPrivacy.hamming(k, exp_eps=2)
    dp_f = DifferentialPrivacy.hamming(k, exp_eps=2.0)
    cone_x, out["t_facets_exact"] = timed(lambda: (lambda c: (c, c.n_facets))(dp_x.row_cone()))
    cone_f, out["t_facets_float"] = timed(lambda: (lambda c: (c, c.n_facets))(dp_f.row_cone()))
    out["facets"] = cone_x[1]
    assert cone_x[1] == cone_f[1] == k * 2**k, "facet count differs from k 2^k"
    # fast path: structured enumeration of the rays
    try:
        pats, out["t_enum"] = timed(lambda: dp_ray_patterns(hamming_graph(k)))
        out["rays"] = len(pats)
    except SizeLimitError as err:
        out["t_enum"] = None
        out["rays"] = None
        notes.append(f"k={k}: rays refused by dp_ray_patterns: {err}")
    if out["rays"] is None and not quick and k <= 5:
        n, t = timed(lambda: hypercube_dp_ray_count(k))
        out["rays_counted"] = n
        notes.append(f"k={k}: exact ray count {n:,} (homomorphisms Q_{k} -> Z, counted in {fmt_t(t)}, not listed)")
    # generic route: pycddlib's double description from the facets
    out["t_dd_exact"] = out["t_dd_float"] = out["t_cone_float"] = None
    if k <= MAX_DD_K:
        F_x = np.asarray(cone_x[0].facets)
        E_x = np.asarray(cone_x[0].equalities)
        (rx, _), out["t_dd_exact"] = timed(lambda: _cdd.h_to_v(F_x, E_x, exact=True))
        (rf, _), out["t_dd_float"] = timed(lambda: _cdd.h_to_v(F_x.astype(float), E_x.astype(float), exact=False))
        assert len(rx) == len(rf) == out["rays"], "cdd and the enumeration disagree"
        if float_cone or k <= 3:
            n_f, out["t_cone_float"] = timed(lambda: DifferentialPrivacy.hamming(k, exp_eps=2.0).row_cone().n_rays)
            assert n_f == out["rays"]
    else:
        bound = dp_ray_count_lower_bound(hamming_graph(k))
        notes.append(
            f"k={k}: pycddlib's double description not run: at least {bound:,} rays in dimension {2**k} "
            f"(measured at k=5: cdd float did not finish in 300 s); privgeom refuses rather than hangs"
        )
    return out, notes


def orbit_rows(quick: bool, max_k: int) -> list[tuple[str, int, int, float, float, str]]:
    """Orbit route against the full enumeration: (graph, rays, orbits, t orbits, t full, what the total matched)."""
    cases = [("Q", k) for k in ([2, 3] if quick else range(2, max_k + 1))] + [
        ("K", n) for n in ([8] if quick else [8, 12, 16])
    ]
    out = []
    for kind, m in cases:
        dp = DifferentialPrivacy.hamming(m, exp_eps=2) if kind == "Q" else DifferentialPrivacy.complete(m, exp_eps=2)
        graph = hamming_graph(m) if kind == "Q" else complete_graph(m)
        orb, t_orb = timed(lambda: dp_ray_orbits(dp))
        with limits(dp_rays=10**6, dp_ray_steps=10**8):
            full, t_full = timed(lambda: dp_ray_patterns(graph))
        assert orb.n_rays == len(full), "orbit total differs from the full enumeration"
        check = "= full enumeration"
        if kind == "Q" and m <= 5:
            assert orb.n_rays == hypercube_dp_ray_count(m), "orbit total differs from the count"
            check += " = hypercube_dp_ray_count"
        out.append((f"{kind}_{m}", orb.n_rays, orb.n_orbits, t_orb, t_full, check))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny run (k = 2, 3)")
    parser.add_argument("--max-k", type=int, default=5, help="largest k (default 5)")
    parser.add_argument("--float-cone", action="store_true", help="also time Cone.rays in float at k = 4 (~30 s)")
    args = parser.parse_args(argv)
    ks = [2, 3] if args.quick else list(range(2, args.max_k + 1))
    rows, notes = [], []
    for k in ks:
        r, n = row(k, args.quick, args.float_cone)
        rows.append(r)
        notes.extend(n)
    head = (
        "k",
        "datasets",
        "facets",
        "t facets exact",
        "t facets float",
        "rays",
        "t enum (fast)",
        "t cdd exact",
        "t cdd float",
        "exact/enum",
        "float/enum",
        "t Cone.rays float",
    )
    print("eps-DP cone on the hypercube Q_k, e^eps = 2 (facets: k 2^k; rays: homomorphisms Q_k -> Z)")
    print(" | ".join(head))
    for r in rows:
        rays = (
            r["rays"]
            if r["rays"] is not None
            else (f"{r['rays_counted']:,} (refused)" if "rays_counted" in r else "refused")
        )

        def ratio(key: str) -> str:
            if r[key] is None or r["t_enum"] in (None, 0):
                return "-"
            return f"{r[key] / r['t_enum']:.1f}x"

        cells = (
            r["k"],
            r["datasets"],
            r["facets"],
            fmt_t(r["t_facets_exact"]),
            fmt_t(r["t_facets_float"]),
            rays,
            fmt_t(r["t_enum"]),
            fmt_t(r["t_dd_exact"]),
            fmt_t(r["t_dd_float"]),
            ratio("t_dd_exact"),
            ratio("t_dd_float"),
            fmt_t(r["t_cone_float"]),
        )
        print(" | ".join(str(c) for c in cells))
    print()
    print("Out of reach:")
    for note in notes:
        print("  " + note)
    try:
        hypercube_dp_ray_count(6)
    except SizeLimitError as err:
        print(f"  k=6: {err}")
    if not any(r["k"] >= 5 for r in rows):
        print("  k>=5: not run in this mode (use the full run)")
    print()
    print(
        "Rays up to symmetry: dp_ray_orbits (orderly generation, lex-leaders) vs the full enumeration dp_ray_patterns"
    )
    print(" | ".join(("graph", "rays", "orbits", "t orbits", "t full", "full/orbits", "total checked")))
    for name, n_rays, n_orb, t_orb, t_full, check in orbit_rows(args.quick, args.max_k):
        ratio = f"{t_full / t_orb:.1f}x" if t_orb > 0 else "-"
        print(
            " | ".join(str(c) for c in (name, f"{n_rays:,}", f"{n_orb:,}", fmt_t(t_orb), fmt_t(t_full), ratio, check))
        )
    return 0


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_dp_cones")
