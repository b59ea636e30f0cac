"""Figure 2 (right) of Liu, Wang & Xia: one SGD step with 8-bit quantised Gaussian gradients (N(0, 0.12²) or N(0.1,
0.12²)), batch T = round(√n), n = 100..250, ε ∈ {0.5, 1, 3}. Output laws and δ(x) are exact (subset-sum dynamic
program); the expectation over databases is a Monte Carlo average, reported with its standard error and a rigorous 95%
Hoeffding half-width (exact enumeration would need ~10^90 histograms at n = 100; see privgeom.smoothed.paper.experiment("sgd")).

Writes ``smoothed_sgd.png`` and ``smoothed_sgd.csv`` into ``--out`` (default
``out/``); ``--quick`` runs reduced sizes.
Same as ``privgeom smoothed figure sgd``.

Run: ``python examples/smoothed_sgd.py --out out [--quick]``
"""

from __future__ import annotations

import argparse
from pathlib import Path

from privgeom.smoothed.paper import experiment


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", default="out", help="output directory (default out/)")
    parser.add_argument("--quick", action="store_true", help="reduced sizes, runs in seconds")
    args = parser.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)  # this script's choice: privgeom never creates folders
    result = experiment("sgd", args.out, quick=args.quick)
    print(result)
    for row in result.rows[:6]:
        print("  ", {k: (float(f"{v:.6g}") if isinstance(v, float) else v) for k, v in row.items()})


if __name__ == "__main__":
    main()
