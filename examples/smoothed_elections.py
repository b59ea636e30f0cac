"""Figure 2 (left) and Appendix I of Liu, Wang & Xia: smoothed δ of the sampling-histogram mechanism when 10%, 1% or
0.1% of the ballots are lost, Π = conv{DC, NE-2} (2020), ε ∈ {1, 1.5, 2, 3}. Every point is an exact, certified
maximum over the vertex counts.

Writes ``smoothed_elections.png`` and ``smoothed_elections.csv`` into ``--out`` (default
``out/``); ``--quick`` runs reduced sizes.
Same as ``privgeom smoothed figure elections``.

Run: ``python examples/smoothed_elections.py --out out [--quick]``
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
    result = experiment("elections", args.out, quick=args.quick)
    print(result)
    for row in result.rows[:6]:
        print("  ", {k: (float(f"{v:.6g}") if isinstance(v, float) else v) for k, v in row.items()})


if __name__ == "__main__":
    main()
