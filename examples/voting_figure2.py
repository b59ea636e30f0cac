"""Figure 2 of the referendum paper: accuracy of randomized response on majority against the number of voters.

For each ρ the exact accuracy Acc(M_ρ Maj_n) = P[M_ρ Maj_n(x) = Maj_n(x)] decreases with odd n (Lemma 7) towards
1/2 + arcsin(ρ)/π (Equation (3), dashed). Writes voting_figure2.png into --out and prints the numbers, including
n = 100 001 (exact up to float rounding, computed by vote count in milliseconds).

Run: python examples/voting_figure2.py --out DIR [--quick] [--n-max 101]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from privgeom import voting
from privgeom.voting import paper


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out", help="output directory (default out/)")
    ap.add_argument("--n-max", type=int, default=101, help="largest odd n drawn (default 101)")
    ap.add_argument("--quick", action="store_true", help="a small figure (used by the test suite)")
    args = ap.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)  # this script's choice: privgeom never creates folders
    n_max = 21 if args.quick else args.n_max
    rhos = (0.1, 0.3, 0.5, 0.7, 0.9)  # the correlations of Figure 2

    path = Path(args.out) / "voting_figure2.png"
    paper.majority_accuracy_figure(rhos, n_max, path=path)
    print(f"wrote {path}")
    sizes = [1, 3, 11, n_max, 1001] + ([] if args.quick else [100001])
    print(f"{'rho':>5} " + " ".join(f"{'n=' + str(n):>13}" for n in sizes) + f" {'limit':>13}")
    for rho in rhos:
        accs = [float(voting.accuracy(voting.majority(n), rho)) for n in sizes]
        limit = paper.majority_accuracy_bounds(1, rho).lower  # 1/2 + arcsin(rho)/pi, Equation (3)
        assert all(a >= limit - 1e-15 for a in accs), "Equation (3) lower bound"
        assert all(b <= a + 1e-15 for a, b in zip(accs, accs[1:])), "Lemma 7: decreasing in n"
        print(f"{rho:>5} " + " ".join(f"{a:>13.10f}" for a in accs) + f" {limit:>13.10f}")


if __name__ == "__main__":
    main()
