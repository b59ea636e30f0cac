"""Pictures of row cones (Lin & Kifer): randomized response, ε-DP and the geometric mechanism, sliced by the simplex.

Draws (1) the four 3-dataset projections of rowcone(RR(k=2, p=3/4)) with the rows of RR(3/4) (inside, on the
boundary) and of RR(7/8) (outside: not in the closure, Theorem 4.3), each facet labelled by its S+/S− sets;
(2) ε-DP on the path 0-1-2 with e^ε = 2 with the rows of the truncated geometric mechanism (α = 1/2), strictly inside;
(3) the privacy profiles δ(ε) of RR(3/4), RR(2/3) and the parity mechanism that witnesses RR ⊊ ln(3)-DP. Also
prints the symbolic row cone of RR on two bits (Theorem 4.3 as polynomials in p, verified).

Writes rr_cone_slices.png, dp_path_slice.png and privacy_profiles.png into --out.

Run: python examples/rr_cone_pictures.py --out out
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import privgeom as pg


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="out", help="output directory (default out/)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    rr = pg.RandomizedResponse(2, "3/4")
    cone = rr.row_cone()
    strong = pg.randomized_response(2, "7/8")
    print(f"RR(7/8) in closure(RR(3/4)): {rr.contains(strong).member}  (Theorem 4.3: its rows leave the cone)")
    pg.plot(
        cone,
        triples=[tr for tr in itertools.combinations(cone.labels, 3)],
        mechanism=strong,
        path=out / "rr_cone_slices.png",
    )

    dp = pg.parse_definition("dp:graph=path,n=2,exp_eps=2")
    geo = pg.truncated_geometric(2, "1/2")
    print(f"geometric(α=1/2) in closure(ε-DP, e^ε = 2): {dp.contains(geo).member}")
    pg.plot(
        dp.row_cone(),
        mechanism=geo,
        path=out / "dp_path_slice.png",
        title="ε-DP on the path 0–1–2 (e^ε = 2) and the geometric mechanism (α = 1/2)",
    )

    c = pg.compare(rr, pg.DifferentialPrivacy(pg.Domain.bits(2), exp_eps=3))
    witness = c.b_in_a.witness.mechanism
    print(f"compare: {c.relation}; the witness mechanism is ln(3)-DP but breaks a parity guarantee")
    pg.plot(
        {
            "RR(3/4)": pg.randomized_response(2, "3/4"),
            "RR(2/3)": pg.randomized_response(2, "2/3"),
            "parity witness": witness,
        },
        "hamming",
        path=out / "privacy_profiles.png",
    )

    print(pg.symbolic_row_cone("rr:k=2,p=p", "p"))
    for name in ("rr_cone_slices.png", "dp_path_slice.png", "privacy_profiles.png"):
        print(f"wrote {out / name}")


if __name__ == "__main__":
    main()
