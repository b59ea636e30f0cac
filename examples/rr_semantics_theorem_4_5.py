"""Theorem 4.5 (Lin & Kifer): randomized response protects the parity of bits the attacker is sure about.

Prints the Bayesian guarantee of every facet of rowcone(RR(k=2, p=3/4)) (the parity guarantees of Example 4.4),
replays the paper's two attackers, and checks Theorem 4.5 exactly on random product priors and random
post-processings of randomized response; finally shows a DP mechanism outside the closure that breaks it.

Run: python examples/rr_semantics_theorem_4_5.py [--trials 20]
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction

import privgeom as pg


def random_stochastic(rng: random.Random, n_out: int, n_in: int) -> list[list[Fraction]]:
    cols = []
    for _ in range(n_in):
        w = [Fraction(rng.randint(0, 4)) for _ in range(n_out)]
        if not any(w):
            w[0] = Fraction(1)
        cols.append([v / sum(w) for v in w])
    return [[cols[j][i] for j in range(n_in)] for i in range(n_out)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=45)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    p = Fraction(3, 4)
    rr = pg.RandomizedResponse(2, p)
    M = pg.randomized_response(2, p)

    print("Guarantees of randomized response (k = 2, p = 3/4):")
    for g in pg.semantics(rr):
        print("  -", g.text)

    print("\nAttacker 1 (bits independent, each 1 with probability p):", pg.check_product_prior(M, p, [p, p]).summary())
    a2 = pg.check_product_prior(M, p, [Fraction(1, 2), p])
    print(
        "Attacker 2 (first bit a coin flip, second bit 1 w.p. p): only the second bit is eligible:",
        a2.eligible_bits,
        "->",
        a2.summary(),
    )

    print(f"\nTheorem 4.5 on {args.trials} random post-processings and product priors (k = 3, p = 2/3):")
    p3 = Fraction(2, 3)
    M3 = pg.randomized_response(3, p3)
    checked = 0
    for _ in range(args.trials):
        N = M3.post_process(random_stochastic(rng, rng.randint(2, 5), 8))
        q = [Fraction(rng.randint(0, 12), 12) for _ in range(3)]
        res = pg.check_product_prior(N, p3, q)
        assert res.holds, res.summary()
        checked += res.subsets_checked * res.outputs_checked
    print(f"  held on every output for every eligible subset ({checked} parity comparisons, exact)")

    outside = pg.Mechanism(
        [["1/4", "3/4", "3/4", "1/4"], ["3/4", "1/4", "1/4", "3/4"]], inputs=list(pg.Domain.bits(2).labels)
    )
    print("\nA mechanism that is ln(3)-DP but outside closure(RR(3/4)):", rr.contains(outside).certificate.summary())
    res = pg.check_product_prior(outside, p, [p, p])
    print("  Theorem 4.5 for attacker 1:", res.summary())
    assert not res.holds


if __name__ == "__main__":
    main()
