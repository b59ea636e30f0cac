"""Figure 1 of Liu, Wang & Xia: database-wise δ of the sampling-histogram mechanism at the actual two-party totals of
every US presidential election 1920-2020, with 0.2% of the ballots lost and ε = ln(0.51/0.49). DP would say δ = T/n
≈ 1.

Writes ``smoothed_motivating.png`` and ``smoothed_motivating.csv`` into ``--out`` (default
``out/``); ``--quick`` runs reduced sizes.
Same as ``privgeom smoothed figure motivating``.

Run: ``python examples/smoothed_motivating.py --out out [--quick]``
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
    result = experiment("motivating", args.out, quick=args.quick)
    print(result)
    for row in result.rows[:6]:
        print("  ", {k: (float(f"{v:.6g}") if isinstance(v, float) else v) for k, v in row.items()})


if __name__ == "__main__":
    main()
