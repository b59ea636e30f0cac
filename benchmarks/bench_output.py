"""Benchmark: output at disk speed — the rays, facets and guarantee sentences of RR(k, 3/4) written
as integer rows straight from the Kronecker structure (Theorem 4.3), against the ``Fraction`` route they replace.

Rows (each route timed in this process; outputs asserted byte-for-byte equal, ratio old/new printed):

* ``rays --out``: the JSON rows of the extreme rays. Old: ``cone.rays`` (the rows of ``M_rr`` as ``Fraction`` objects,
  canonicalised) through ``to_jsonable``; new: ``ray_rows`` (one integer Kronecker power, sorted, joined as text).
* ``facets --out``: the JSON rows of the facets. Old: each facet normalised alone as ``Fraction``s; new: ``facet_rows``.
* ``ray orbits``: the ``--rays`` summary. Old: orbits of the canonical ``Fraction`` rays by hashing permuted rows; new:
  the orbits of the output strings under the hypercube group, shown by their first canonical ray.
* ``semantics --all``: the 2^k guarantee sentences. Old: guarantees read from ``Fraction`` normals; new: from the
  integer normals (array operations for the sets, the Hamming profile and the parity).

and, for the new route only, the two commands end to end in a subprocess (``privgeom rowcone rr:k=K,p=3/4 --rays
--out FILE`` and ``privgeom semantics rr:k=K,p=3/4 --all``; interpreter start-up and imports included).

Run ``python benchmarks/bench_output.py [--quick] [--k K]`` (default k = 10; ``--quick``: k = 5).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def _rows(k: int) -> list[tuple[str, float, float, bool]]:
    import privgeom as pg
    from privgeom._core.results import to_jsonable
    from privgeom.analyses.guarantees._semantics import Guarantee, semantics
    from privgeom.analyses.guarantees._summary import _kronecker_ray_orbits, _ray_orbits
    from privgeom.cli._render import IntegerRow, facet_rows, ray_rows
    from privgeom.geometry._canonical import normalise_rows
    from privgeom.geometry._structure import structured_facet
    from privgeom.geometry._symmetry import automorphisms

    spec = f"rr:k={k},p=3/4"
    out = []

    def text(items: Any) -> str:
        return ",\n  ".join(r.json() if isinstance(r, IntegerRow) else json.dumps(to_jsonable(r)) for r in items)

    cone = pg.parse_definition(spec).row_cone()
    old, t_old = _timed(lambda: text(cone.rays))
    cone = pg.parse_definition(spec).row_cone()
    new, t_new = _timed(lambda: text(ray_rows(cone)[0]()))
    out.append(("rays --out", t_old, t_new, old == new))

    def old_facets() -> str:
        rows = [
            normalise_rows(np.array([[Fraction(x) for x in structured_facet(cone, i)]], dtype=object), exact=True)[0]
            for i in range(cone.n_facets)
        ]
        return text(sorted(rows, key=tuple, reverse=True))  # the canonical order (cone.facets)

    old, t_old = _timed(old_facets)
    new, t_new = _timed(lambda: text(facet_rows(cone)[0]()))
    out.append(("facets --out", t_old, t_new, old == new))

    d = pg.parse_definition(spec)
    G = automorphisms(d)
    old, t_old = _timed(lambda: _ray_orbits(pg.parse_definition(spec).row_cone(), G))
    new, t_new = _timed(lambda: _kronecker_ray_orbits(pg.parse_definition(spec).row_cone(), G))
    out.append(("ray orbits", t_old, t_new, old == new))

    rr = pg.RandomizedResponse(k, "3/4")

    def old_semantics() -> list[str]:
        gs = semantics(rr)
        fr = [Guarantee(g.labels, True, [Fraction(int(v)) for v in g.source().tolist()]) for g in gs]
        return [g.text for g in fr]

    old, t_old = _timed(old_semantics)
    new, t_new = _timed(lambda: [g.text for g in semantics(pg.RandomizedResponse(k, "3/4"))])
    out.append(("semantics --all", t_old, t_new, old == new))
    return out


def _cli(argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "privgeom", *argv], capture_output=True, text=True, env=env, timeout=600
    )
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"privgeom {' '.join(argv)} failed: {proc.stderr}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="k = 5 (the suite runs this)")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    k = 5 if args.quick else args.k
    print(f"output of RR(k={k}, 3/4): old Fraction route vs integer rows ({os.cpu_count()} cores)")
    print("row | old s | new s | ratio | same bytes")
    bad = []
    for name, t_old, t_new, same in _rows(k):
        print(f"{name} | {t_old:.3f} | {t_new:.3f} | {t_old / max(t_new, 1e-9):.1f}x | {'yes' if same else 'NO'}")
        if not same:
            bad.append(name)
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "r.json")
        t_rowcone = _cli(["rowcone", f"rr:k={k},p=3/4", "--rays", "--out", out])
        t_sem = _cli(["semantics", f"rr:k={k},p=3/4", "--all"])
    print(f"CLI rowcone rr:k={k},p=3/4 --rays --out | - | {t_rowcone:.2f} | - | -")
    print(f"CLI semantics rr:k={k},p=3/4 --all | - | {t_sem:.2f} | - | -")
    if bad:
        raise SystemExit(f"old and new routes differ: {bad}")


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_output")
