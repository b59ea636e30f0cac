"""Closure membership for randomized response: structured path vs generic LP vs pycddlib double description.

For growing k, decides whether ``M' = RR(k, 2/3)`` (a member) and ``M'' = RR(k, 4/5)`` (not a member) lie in
closure(RR(k, 3/4)) three ways, asserts the answers agree and prints the times and the ratios to the structured path:

- structured: ``M' M_rr^{-1} ≥ 0`` applied axis by axis (Kronecker), O(k 2^k) per row (Lin & Kifer, Theorem 4.3);
- LP: the generic closure LP of Theorem 3.4 through HiGHS, witness/certificate re-verified;
- DD: facets of the row cone by pycddlib's double description, then every row checked against every facet.

Then one-row membership in the row cone at large k (structured path only; no 2^k x 2^k matrix is formed).

Run: python benchmarks/bench_core.py [--quick] [--kmax 7] [--budget 20]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np

import privgeom as pg


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t0


def dd_membership(M: pg.Mechanism, candidate: pg.Mechanism) -> bool:
    cone = pg.Cone.from_generators(M.matrix, labels=M.inputs)
    return all(cone.contains(row).member for row in candidate.matrix)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (used by the test suite)")
    ap.add_argument("--kmax", type=int, default=7)
    ap.add_argument("--budget", type=float, default=5.0, help="stop a method once one size takes longer (s)")
    ap.add_argument("--row-k", type=int, nargs="*", default=[12, 16, 20])
    args = ap.parse_args()
    kmax = 3 if args.quick else args.kmax
    row_ks = [10] if args.quick else args.row_k
    p = Fraction(3, 4)

    print("closure membership of RR(k, 2/3) [member] and RR(k, 4/5) [non-member] in closure(RR(k, 3/4)), exact")
    header = (
        f"{'k':>3} {'N':>5} {'structured s':>13} {'LP s':>10} {'DD s':>10} {'LP/struct':>10} {'DD/struct':>10}  agree"
    )
    print(header)
    print("-" * len(header))
    alive = {"lp": True, "dd": True}
    refusals: list[str] = []
    for k in range(1, kmax + 1):
        M = pg.randomized_response(k, p)
        rr = pg.RandomizedResponse(k, p)
        finite = pg.FiniteDefinition([M])
        yes, no = pg.randomized_response(k, "2/3"), pg.randomized_response(k, "4/5")
        (a1, t1), (a2, t2) = timed(rr.contains, yes), timed(rr.contains, no)
        t_struct = t1 + t2
        answers = [(a1.member, a2.member)]
        cells = [f"{t_struct:13.4f}"]
        ratios = []
        for key, fn in (
            ("lp", lambda m: finite.contains(m, method="lp").member),
            ("dd", lambda m: dd_membership(M, m)),
        ):
            if not alive[key]:
                cells.append(f"{'skipped':>10}")
                ratios.append(f"{'-':>10}")
                continue
            try:
                (b1, s1), (b2, s2) = timed(fn, yes), timed(fn, no)
            except pg.SizeLimitError as err:
                cells.append(f"{'refused':>10}")
                ratios.append(f"{'-':>10}")
                alive[key] = False
                refusals.append(f"k={k} {key}: {err}")
                continue
            answers.append((b1, b2))
            cells.append(f"{s1 + s2:10.4f}")
            ratios.append(f"{(s1 + s2) / t_struct:10.1f}")
            if s1 + s2 > args.budget:
                alive[key] = False
        agree = all(a == (True, False) for a in answers)
        assert agree, f"methods disagree at k={k}: {answers}"
        print(f"{k:3d} {2**k:5d} {cells[0]} {cells[1]} {cells[2]} {ratios[0]} {ratios[1]}  {agree}")

    for line in refusals:
        print("  refused:", line)
    print("\none row in rowcone(RR(k, 3/4)) by the structured path (no 2^k x 2^k matrix)")
    print(f"{'k':>3} {'N':>9} {'float s':>10} {'exact s':>10}  member(float, exact)")
    rng = np.random.default_rng(0)
    for k in row_ks:
        rr = pg.RandomizedResponse(k, p)
        # a row of RR(k, 2/3) (a member): the product of per-bit rows, for a random output string
        s = rng.integers(0, 2, size=k)
        row_f = np.ones(1)
        row_e = [Fraction(1)]
        for bit in s:
            base = [Fraction(2, 3), Fraction(1, 3)] if bit else [Fraction(1, 3), Fraction(2, 3)]
            row_f = np.kron(row_f, np.array([float(b) for b in base]))
            row_e = [a * b for a in row_e for b in base]
        mf, tf = timed(rr.contains_row, row_f)
        if k <= 16 or not args.quick:
            me, te = timed(rr.contains_row, np.array(row_e, dtype=object))
            print(f"{k:3d} {2**k:9d} {tf:10.4f} {te:10.4f}  ({mf.member}, {me.member})")
            assert mf.member and me.member
        else:
            print(f"{k:3d} {2**k:9d} {tf:10.4f} {'-':>10}  ({mf.member}, -)")


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_core")
