"""Designing a privacy definition: randomized response on three bits, its DP sandwich, a relaxation that is not DP, a
definition built from chosen guarantees, and the utility each one buys (docs/design.md walks through it).

1. RR(3, 3/4) sits between two levels of ε-DP on the Hamming cube: every ε-DP mechanism with e^ε ≤ inner is in it, and
   every member is ε-DP with e^ε = outer (``pg.dp_bounds``; both exact, with the DP ray and the member row that make
   them tight).
2. Relaxing RR onto the six two-bit faces of the cube keeps only what RR says about each face; the result is not a DP
   definition (``Relaxation.definition`` is a ``ConeDefinition``) but has its own sandwich.
3. A definition built from chosen guarantees (``pg.from_guarantees``): the ε-DP edge guarantees at
   e^ε = 3 plus RR's two parity guarantees centred on 111 and 000; redundant ones are reported with their certificate.
4. What each buys: the optimal expected utility (uniform prior) for guessing the dataset (accuracy) and for learning
   the parity of the three bits — what RR's facets protect — each certified exactly by LP duality, as a table and a
   plot against the ε-DP optimum as a function of e^ε.
5. What each costs in information: the least mutual information I(D; ω) in nats (``pg.least_informative``, a convex
   program) of a member guessing the dataset with accuracy at least 1/6 — a floor every design reaches — in the
   table, and the whole trade-off (least information against the accuracy floor, up to each design's best) as a
   second plot.

Run: python examples/design_definition.py --out out/
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

import privgeom as pg
from privgeom.definitions import ConeDefinition


#: The accuracy floor of the information-cost column: below the best accuracy of every design in the table.
FLOOR = Fraction(1, 6)
#: Points per design on the information-utility trade-off plot.
STEPS = 6


def fmt(v: Fraction) -> str:
    return f"{v} ≈ {float(v):.4f}" if isinstance(v, Fraction) and v.denominator != 1 else str(v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out", help="directory for design_utility.png and design_report.md")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    base = pg.RandomizedResponse(3, "3/4")
    cube = pg.neighbour_graph("hamming", pg.Domain.bits(3))
    sandwich = pg.dp_bounds(base, cube)
    print(sandwich.summary())

    faces = [tuple(s for s in base.inputs if s[i] == b) for i in range(3) for b in "10"]
    relaxed = pg.relax(base, faces).definition
    assert isinstance(relaxed, ConeDefinition)
    relaxed_sandwich = pg.dp_bounds(relaxed, cube)
    print(f"\nrelaxation onto the {len(faces)} two-bit faces: {relaxed.name}, {relaxed.row_cone().n_facets} facets")
    print(relaxed_sandwich.summary())

    dp3 = pg.DifferentialPrivacy(cube, exp_eps=3)
    parity = [g for g in pg.semantics(base) if g.s_plus[0] in ("111", "000")]
    chosen = pg.from_guarantees(
        list(pg.semantics(dp3)) + parity, base.inputs, name="DP(e^ε = 3) + parity around 111 and 000"
    )
    chosen_sandwich = pg.dp_bounds(chosen, cube)
    print(
        f"\nchosen guarantees: {len(pg.semantics(dp3))} DP edge guarantees + {len(parity)} parity guarantees; "
        f"{len(chosen.redundant)} redundant"
    )
    print(chosen_sandwich.summary())

    parity_utility = {
        "matrix": [[int(s.count("1") % 2 == c) for c in (0, 1)] for s in base.inputs],
        "outputs": ["even", "odd"],
        "inputs": list(base.inputs),
    }
    rows = [
        ("ε-DP at inner(RR)", pg.DifferentialPrivacy(cube, exp_eps=sandwich.inner.exp_eps), None),
        ("RR(3, 3/4)", base, sandwich),
        ("relaxation onto faces", relaxed, relaxed_sandwich),
        ("chosen guarantees", chosen, chosen_sandwich),
        ("ε-DP at outer(RR)", dp3, None),
    ]
    table = [
        "| definition | relation to RR | inner e^ε | outer e^ε | accuracy | parity utility | "
        f"information (nats) at accuracy ≥ {FLOOR} |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    values, best_accuracy = {}, {}
    for name, d, b in rows:
        acc = pg.optimal_mechanism(d)
        opt = pg.optimal_mechanism(d, parity_utility)
        assert opt.exact and opt.certificate.verified and acc.exact and acc.certificate.verified
        values[name], best_accuracy[name] = opt.value, acc.value
        assert acc.value >= FLOOR  # the floor is feasible for every design
        info = pg.least_informative(d, "accuracy", FLOOR)
        assert info.lower_bound <= float(info.value) + 1e-9 and info.status in ("optimal", "optimal_inaccurate")
        rel = pg.compare(d, base).relation
        b = b or pg.dp_bounds(d, cube)
        inner = "∞" if b.inner.infinite else fmt(b.inner.exp_eps)
        outer = "∞" if b.outer.infinite else fmt(b.outer.exp_eps)
        table.append(
            f"| {name} | {rel} | {inner} | {outer} | {fmt(acc.value)} | {fmt(opt.value)} | "
            f"{float(info.value):.6f} (lower bound {info.lower_bound:.6f}) |"
        )
    print("\n" + "\n".join(table))

    grid = [Fraction(k, 4) for k in range(4, 17)]
    curve = [pg.optimal_mechanism(pg.DifferentialPrivacy(cube, exp_eps=t), parity_utility).value for t in grid]

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4))
    ax.plot([float(t) for t in grid], [float(v) for v in curve], "k.-", label="ε-DP on the cube (exact LP optimum)")
    for (name, d, b), colour in zip(rows[1:4], ("tab:blue", "tab:orange", "tab:green")):
        b = b or pg.dp_bounds(d, cube)
        hi = 4.0 if b.outer.infinite else float(b.outer.exp_eps)
        ax.hlines(
            float(values[name]),
            float(b.inner.exp_eps),
            hi,
            colors=colour,
            linewidth=3,
            label=f"{name}: sandwich [inner, outer]",
        )
    ax.set_xlabel("e^ε")
    ax.set_ylabel("optimal probability of guessing the parity")
    ax.set_title("RR on three bits and two designs between levels of ε-DP")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(out / "design_utility.png", dpi=110)
    plt.close(fig)

    # the information-utility trade-off: least I(D; ω) against the accuracy floor, up to each design's best accuracy
    fig, ax = plt.subplots(figsize=(6.4, 4))
    styles = ("k.-", "b.-", "C1s--", "g^:", "C3x-.")
    for (name, d, _), style in zip(rows, styles):
        top = best_accuracy[name]
        floors = [Fraction(1, 8) + (top - Fraction(1, 8)) * Fraction(j, STEPS) for j in range(STEPS + 1)]
        bits = [float(pg.least_informative(d, "accuracy", f).value) for f in floors]
        ax.plot([float(f) for f in floors], bits, style, label=f"{name} (best accuracy {float(top):.3f})")
    ax.axvline(float(FLOOR), color="grey", linewidth=0.8)
    ax.set_xlabel("required probability of guessing the dataset (accuracy floor)")
    ax.set_ylabel("least mutual information I(D; ω) (nats)")
    ax.set_title("What each design costs in information (uniform prior)")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(out / "design_information.png", dpi=110)
    plt.close(fig)

    report = [
        f"RR(3, 3/4) lies between ε-DP with e^ε = {fmt(sandwich.inner.exp_eps)} (inner) and e^ε = "
        f"{fmt(sandwich.outer.exp_eps)} (outer) on the Hamming cube. The relaxation onto the {len(faces)} two-bit "
        f"faces has {relaxed.row_cone().n_facets} facets and its sandwich is [{fmt(relaxed_sandwich.inner.exp_eps)}, "
        f"{'∞' if relaxed_sandwich.outer.infinite else fmt(relaxed_sandwich.outer.exp_eps)}]. The definition from "
        f"chosen guarantees keeps {chosen.row_cone().n_facets} facets ({len(chosen.redundant)} of the "
        f"{len(pg.semantics(dp3)) + len(parity)} guarantees given were redundant).",
        "",
        *table,
        "",
        "![Optimal probability of guessing the parity under ε-DP as a function of e^ε, and the utility of each "
        "design drawn over its DP sandwich](design_utility.png)",
        "",
        f"The last column is the information cost at the floor accuracy ≥ {FLOOR}, which every design reaches "
        f"(the strictest, ε-DP at inner(RR), has best accuracy {fmt(min(best_accuracy.values()))}): the least "
        "mutual information I(D; ω) of a member reaching it, with the lower bound that does not trust the "
        "convex solver. The plot draws the whole trade-off, from accuracy 1/8 (a constant output, 0 nats) to "
        "each design's best accuracy; the grey line is the floor of the table.",
        "",
        "![Least mutual information against the accuracy floor for each design](design_information.png)",
        "",
    ]
    (out / "design_report.md").write_text("\n".join(report) + "\n", encoding="utf-8")
    print(f"\nwrote {out / 'design_utility.png'}, {out / 'design_information.png'} and {out / 'design_report.md'}")


if __name__ == "__main__":
    main()
