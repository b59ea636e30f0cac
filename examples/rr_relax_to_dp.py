"""Section V (Lin & Kifer): relaxing randomized response by Fourier–Motzkin yields ε-differential privacy.

Projects rowcone(RR(k, p)) onto every pair of datasets: the pair (D, D') keeps x_D ≤ r^h x_D' and x_D' ≤ r^h x_D with
r = p/(1-p) and h = ham(D, D'). Keeping the Hamming-distance-1 pairs and intersecting gives exactly the row cone of
ε-DP on the Hamming graph, ε = ln(p/(1-p)); the parity guarantees are what is lost.

Run: python examples/rr_relax_to_dp.py [--kmax 3]
"""

from __future__ import annotations

import argparse
from fractions import Fraction

import privgeom as pg


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kmax", type=int, default=3)
    args = ap.parse_args()
    for p in (Fraction(3, 4), Fraction(2, 3)):
        r_ratio = p / (1 - p)
        for k in range(1, args.kmax + 1):
            rr = pg.RandomizedResponse(k, p)
            pairs = pg.relax(rr, "all-pairs") if k > 1 else None
            if pairs is not None:
                for b in pairs.pair_bounds:
                    h = sum(a != c for a, c in zip(*b.pair))
                    assert b.forward == b.backward == r_ratio**h
            res = pg.relax_pairwise(rr, "hamming")
            dp = pg.DifferentialPrivacy.hamming(k, exp_eps=r_ratio)
            print(f"p = {p}, k = {k}: {res.text}")
            assert res.recognised == "dp" and res.level.exp_eps == r_ratio and res.cone.equals(dp.row_cone()).holds
            print(
                f"   ε = {res.level} = ln(p/(1-p)) ≈ {float(res.level):.6f}; every pair at Hamming distance h "
                f"is bounded by (p/(1-p))^h"
            )


if __name__ == "__main__":
    main()
