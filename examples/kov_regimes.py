"""Kairouz–Oh–Viswanath regimes of local DP: binary mechanism at high privacy, randomized response at low privacy.

Local DP on n values is ε-DP on the complete graph K_n. Its row cone has the 2^n − 2 extreme rays {1, e^ε}^n
(the staircase patterns; checked here against pycddlib's double description), and for a sublinear utility the
optimum over all locally private mechanisms is an LP over those patterns (KOV, JMLR 2016: the staircase LP).

1. Linear utility (guess the value, a random utility): the rows LP of ``optimal_mechanism`` over the closure of DP on
   K_n and KOV's staircase LP have the same exact optimum, attained by a mechanism whose rows are scaled patterns.
2. Utility = mutual information I(X; Y) with X uniform (KOV's information preservation; sublinear, so the staircase
   LP is exact): the best binary mechanism is optimal for small ε, n-ary randomized response for large ε; the plot
   marks the crossover. n = 4 has two clean regimes; n = 6 (full run) also shows the intermediate regime.

Run: python examples/kov_regimes.py --out out/ [--quick]
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction
from pathlib import Path

import numpy as np

import privgeom as pg
from privgeom import Cone, DifferentialPrivacy, kov_regimes, optimal_mechanism, staircase_optimum, staircase_patterns


def check_patterns(n: int, r: Fraction) -> None:
    """The staircase patterns are exactly the extreme rays of the local-DP cone (double description)."""
    dp = DifferentialPrivacy.complete(n, exp_eps=r)
    cone = Cone.from_facets(dp.row_cone().facets, labels=dp.inputs)  # re-derive the rays with cdd.gmp
    pats = {tuple(v / min(p) for v in p) for p in staircase_patterns(n, r)}
    rays = {tuple(v / min(p) for v in p) for p in cone.rays}
    assert pats == rays, pats ^ rays
    print(
        f"K_{n}, e^ε = {r}: the {len(rays)} extreme rays of the local-DP cone are the staircase patterns {{1, {r}}}^{n}"
    )


def linear_utility_demo(n: int, r: Fraction, seed: int) -> None:
    rng = random.Random(seed)
    for name, U in (
        ("accuracy", "accuracy"),
        ("random utility", [[Fraction(rng.randint(0, 9)) for _ in range(3)] for _ in range(n)]),
    ):
        prior = [Fraction(rng.randint(1, 4)) for _ in range(n)]
        prior = [p / sum(prior) for p in prior]
        opt = optimal_mechanism(DifferentialPrivacy.complete(n, exp_eps=r), U, prior)
        st = staircase_optimum(n, r, U, prior)
        assert opt.exact and st.exact and opt.value == st.value == st.bound
        # the staircase mechanism (rows θ_s s) followed by the Bayes decision attains the optimum and is locally DP
        assert all(min(row) > 0 and max(row) / min(row) == r for row in st.mechanism.matrix)
        assert DifferentialPrivacy.complete(n, exp_eps=r).contains(st.mechanism).member
        print(
            f"{name}: rows LP optimum = {opt.value} (certificate exact: {opt.certificate.exact}) = staircase LP "
            f"optimum {st.value}, attained with the patterns {', '.join(st.patterns)}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out", help="directory for the PNG plots")
    ap.add_argument("--quick", action="store_true", help="fewer ε values, n = 4 only")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    check_patterns(4, Fraction(3))
    linear_utility_demo(4, Fraction(5, 2), args.seed)

    grid = np.linspace(0.1, 3.0, 12) if args.quick else np.linspace(0.05, 4.0, 80)
    for n in [4] if args.quick else [4, 6]:
        k = kov_regimes(n, grid)
        print(k.text)
        print(f"{'ε':>6} {'binary':>10} {'RR':>10} {'optimum':>10}  winner")
        for e, b, rr, o in list(zip(k.eps_grid, k.binary, k.rr, k.optimum))[:: max(1, len(k.eps_grid) // 12)]:
            win = "binary" if abs(b - o) <= 1e-9 * max(1, o) else ("RR" if abs(rr - o) <= 1e-9 * max(1, o) else "mixed")
            print(f"{e:6.3f} {b:10.6f} {rr:10.6f} {o:10.6f}  {win}")
        path = out / f"kov_regimes_n{n}.png"
        pg.plot(k, path)
        print(f"plot written to {path}")


if __name__ == "__main__":
    main()
