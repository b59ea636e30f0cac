"""Theorem 4.3 and Example 4.4 (Lin & Kifer): the row cone of randomized response, exactly.

For k = 1..K the closed-form facets ``Σ_i p^{ham(s, D_i)} (p-1)^{k-ham(s, D_i)} x_i ≥ 0`` are compared with the facets
pycddlib's exact double description computes from the rows of ``M_rr(p)``; then Example 4.4's four inequalities are
printed for k = 2 and checked coefficient by coefficient against the paper's formulas at several rational p.

Run: python examples/rr_row_cone_theorem_4_3.py [--kmax 5]
"""

from __future__ import annotations

import argparse
from fractions import Fraction

import privgeom as pg


def example_4_4(p: Fraction) -> list[dict[str, Fraction]]:
    """The four inequalities (3)-(6) of Example 4.4 written as normals a with a·x >= 0 over (11, 10, 01, 00)."""
    q = 1 - p
    return [
        {"00": p * p, "11": q * q, "01": -p * q, "10": -p * q},  # (3)
        {"00": q * q, "11": p * p, "01": -p * q, "10": -p * q},  # (4)
        {"01": p * p, "10": q * q, "00": -p * q, "11": -p * q},  # (5)
        {"01": q * q, "10": p * p, "00": -p * q, "11": -p * q},  # (6)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kmax", type=int, default=5)
    args = ap.parse_args()

    print("Theorem 4.3: closed form vs exact double description of the rows of M_rr(p)")
    for p in ("3/4", "2/3"):
        for k in range(1, args.kmax + 1):
            closed = pg.RandomizedResponse(k, p).row_cone()
            dd = pg.Cone.from_generators(pg.randomized_response(k, p).matrix, labels=pg.Domain.bits(k).labels)
            same = closed.equals(dd).holds
            print(f"  p = {p}, k = {k}: {closed.n_facets} facets, {dd.n_rays} rays, equal: {same}")
            assert same and closed.n_facets == 2**k

    print("\nExample 4.4 (k = 2): the four inequalities")
    labels = list(pg.Domain.bits(2).labels)
    for p in (Fraction(3, 4), Fraction(2, 3), Fraction(5, 9)):
        cone = pg.RandomizedResponse(2, p).row_cone()
        paper = pg.Cone.from_facets([[e[d] for d in labels] for e in example_4_4(p)], labels=labels)
        assert paper.equals(cone).holds and paper == cone
        print(f"  p = {p}: equations (3)-(6) of the paper equal the computed facets (scaled to integers):")
        for line in str(cone).splitlines()[1:]:
            print(f"    {line.strip()}")


if __name__ == "__main__":
    main()
