"""The deployed local-DP protocols against k-ary randomized response: who can simulate whom, their δ(ε) curves and
what utility each gives up against the best ε-LDP mechanism, computed by sweeps (docs/ldp_study.md shows the result).

For d values and e^ε on a grid (full: d = 2..6, e^ε ∈ {2, 3, 5}; ``--quick``: d = 2..4), every protocol is built
exactly at that ε — k-ary randomized response (``krr``), ω-subset selection with Ye & Barg's default ω (``ss``),
optimized unary encoding (``oue``), optimized and binary local hashing (``olh``, ``blh``) and Hadamard response
(``hr``). SUE (basic one-time RAPPOR) is left out: its exact matrix needs e^{ε/2} rational, which 2, 3 and 5 are
not. Five sweeps (``pg.sweep``), each written to a Parquet file in ``--out``:

1. ``ldp_pairs.parquet`` — query ``pair`` on the template ``A|B``: the closure relation of every pair of protocols at
   the same (d, ε) (``pg.compare``; A simulates B iff B is in A's consistent closure).
2. ``ldp_gap.parquet`` — query ``ldp_gap``: optimal expected accuracy (uniform prior) over the protocol's closure
   against the best ε-LDP mechanism (``pg.ldp_utility_gap``, exact LPs with certificates).
3. ``ldp_delta_curve.parquet`` and ``ldp_delta.parquet`` — queries ``delta_curve`` and ``delta`` (at e^ε' = 3/2) on
   the complete graph: the exact δ(ε') curve of each protocol.
4. ``ldp_bounds.parquet`` — query ``dp_bounds`` on the complete graph: the DP sandwich of each protocol's closure.

The tables (``ldp_study_report.md``) and the figure (``ldp_study.png``) are built from the Parquet files only. The
script checks what theory says along the way: every outer bound equals the nominal e^ε, k-ary RR has gap 0, and
every δ curve is the line δ(0)·(e^ε − e^ε')/(e^ε − 1) (the likelihood ratios of these protocols are e^ε, 1, e^−ε).

Run: python examples/ldp_study.py --out out/          (add --quick for d = 2..4)
"""

from __future__ import annotations

import argparse
import itertools
from fractions import Fraction
from pathlib import Path

import pandas as pd

import privgeom as pg

PROTOCOLS = ("krr", "ss", "oue", "olh", "blh", "hr")
NAMES = {"krr": "k-ary RR", "ss": "subset selection", "oue": "OUE", "olh": "OLH", "blh": "BLH", "hr": "Hadamard"}
EXP_EPS = (2, 3, 5)
#: The e^ε' at which δ is also evaluated (below every e^ε of the grid).
MID = Fraction(3, 2)
SYMBOL = {"equal": "=", "superset": "⊐", "subset": "⊏", "incomparable": "∥"}


def spec(p: str, d: int, e: int) -> str:
    """The spec of protocol ``p`` on ``d`` values at e^ε = ``e``."""
    return f"krr:n={d},exp_eps={e}" if p == "krr" else f"{p}:d={d},exp_eps={e}"


def protocol(p: str, d: int, e: int) -> str:
    """Sweep template: one protocol (a spec string, parsed by the query)."""
    return spec(p, d, e)


def pair(pair: str, d: int, e: int) -> str:
    """Sweep template of the ``pair`` query: ``"A|B"`` for the pair axis value ``"A-B"``."""
    a, b = pair.split("-")
    return f"{spec(a, d, e)}|{spec(b, d, e)}"


def run_sweeps(out: Path, ds: list[int]) -> dict[str, Path]:
    grid = {"p": list(PROTOCOLS), "d": ds, "e": list(EXP_EPS)}
    pairs = [f"{a}-{b}" for a, b in itertools.combinations(PROTOCOLS, 2)]
    files = {name: out / f"ldp_{name}.parquet" for name in ("pairs", "gap", "delta_curve", "delta", "bounds")}
    jobs = [
        ("pairs", pair, {"pair": pairs, "d": ds, "e": list(EXP_EPS)}, "pair", {}),
        ("gap", protocol, grid, "ldp_gap", {}),
        ("delta_curve", protocol, grid, "delta_curve", {"graph": "complete"}),
        ("delta", protocol, grid, "delta", {"graph": "complete", "exp_eps": str(MID)}),
        ("bounds", protocol, grid, "dp_bounds", {"graph": "complete"}),
    ]
    for name, template, g, query, options in jobs:
        frame = pg.sweep(template, g, query, out=files[name], **options)
        bad = frame[frame["error"].notna()]
        assert bad.empty, f"sweep {name}: {len(bad)} point(s) failed:\n{bad.to_string()}"
        print(
            f"sweep {query:11s} {len(frame):4d} points, {frame['seconds'].sum():6.1f} s of work -> {files[name].name}"
        )
    return files


def frac(text: str) -> Fraction:
    return Fraction(text)


def check_theory(gap: pd.DataFrame, curve: pd.DataFrame, mid: pd.DataFrame, bounds: pd.DataFrame) -> None:
    """What theory says, asserted on the Parquet data (exact strings)."""
    for r in bounds.itertuples():
        assert r.outer_exact == str(r.e), f"{r.p} d={r.d}: outer {r.outer_exact} ≠ nominal e^ε {r.e}"
    for r in gap.itertuples():
        assert r.exp_eps_exact == str(r.e) and frac(r.gap_exact) >= 0
        if r.p == "krr":
            assert frac(r.gap_exact) == 0, f"k-ary RR is the optimal ε-LDP mechanism for accuracy (d={r.d})"
    joined = curve.merge(mid, on=["p", "d", "e"], suffixes=("", "_mid"))
    for r in joined.itertuples():
        assert r.pieces <= 2 and r.eps_zero_exact == f"ln({r.e})"
        line = frac(r.delta_at_0_exact) * (r.e - MID) / (r.e - 1)
        assert frac(r.delta_exact) == line, f"{r.p} d={r.d} e={r.e}: δ(3/2) = {r.delta_exact}, the line gives {line}"


def relation_tables(pairs: pd.DataFrame, ds: list[int]) -> list[str]:
    lines: list[str] = []
    for e in EXP_EPS:
        sub = pairs[pairs["e"] == e]
        lines += [
            f"**e^ε = {e}** — row A, column d: `=` A and B simulate each other (equal closures), `⊐` A simulates B "
            "and not conversely, `⊏` B simulates A and not conversely, `∥` neither.",
            "",
            "| A | B | " + " | ".join(f"d={d}" for d in ds) + " |",
            "| --- | --- | " + " | ".join("---" for _ in ds) + " |",
        ]
        for pr in dict.fromkeys(sub["pair"]):
            a, b = pr.split("-")
            cells = [SYMBOL[sub[(sub["pair"] == pr) & (sub["d"] == d)]["relation"].iloc[0]] for d in ds]
            lines.append(f"| {NAMES[a]} | {NAMES[b]} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def protocol_table(gap: pd.DataFrame, curve: pd.DataFrame, bounds: pd.DataFrame, ds: list[int]) -> list[str]:
    g = gap.set_index(["p", "d", "e"])
    c = curve.set_index(["p", "d", "e"])
    b = bounds.set_index(["p", "d", "e"])
    head = (
        "| protocol | d | "
        + " | ".join(f"gap e^ε={e}" for e in EXP_EPS)
        + " | "
        + " | ".join(f"δ(0) e^ε={e}" for e in EXP_EPS)
        + " | "
        + " | ".join(f"inner e^ε={e}" for e in EXP_EPS)
        + " |"
    )
    lines = [head, "| --- | --- | " + " | ".join("---" for _ in range(3 * len(EXP_EPS))) + " |"]
    for p in PROTOCOLS:
        for d in ds:
            cells = [g.loc[(p, d, e), "gap_exact"] for e in EXP_EPS]
            cells += [c.loc[(p, d, e), "delta_at_0_exact"] for e in EXP_EPS]
            cells += [b.loc[(p, d, e), "inner_exact"] or f"{b.loc[(p, d, e), 'inner']:.4f}" for e in EXP_EPS]
            lines.append(f"| {NAMES[p]} | {d} | " + " | ".join(cells) + " |")
    return lines


def figure(gap: pd.DataFrame, curve: pd.DataFrame, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, len(EXP_EPS), figsize=(11, 6), sharex=True)
    styles = dict(zip(PROTOCOLS, ("k.-", "C7x:", "C0o-", "C1s--", "C2^-.", "C3d-")))
    for j, e in enumerate(EXP_EPS):
        for p in PROTOCOLS:
            gs = gap[(gap["p"] == p) & (gap["e"] == e)].sort_values("d")
            cs = curve[(curve["p"] == p) & (curve["e"] == e)].sort_values("d")
            axes[0, j].plot(gs["d"], gs["gap"], styles[p], label=NAMES[p])
            axes[1, j].plot(cs["d"], cs["delta_at_0"], styles[p], label=NAMES[p])
        axes[0, j].set_title(f"e^ε = {e}")
        axes[1, j].set_xlabel("d (domain size)")
    axes[0, 0].set_ylabel("accuracy gap to the best ε-LDP")
    axes[1, 0].set_ylabel("δ at ε' = 0 (total variation)")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle("Deployed local-DP protocols: utility gap and δ(ε') curve (δ falls linearly in e^ε' to 0 at e^ε)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out", default="out", help="directory for the Parquet files, ldp_study.png and ldp_study_report.md"
    )
    ap.add_argument("--quick", action="store_true", help="d = 2..4 instead of 2..6")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ds = list(range(2, 5 if args.quick else 7))

    files = run_sweeps(out, ds)
    # everything below reads the Parquet files only
    pairs, gap, curve, mid, bounds = (
        pd.read_parquet(files[n]) for n in ("pairs", "gap", "delta_curve", "delta", "bounds")
    )
    check_theory(gap, curve, mid, bounds)

    sizes = f"d = {ds[0]}..{ds[-1]}, e^ε ∈ {{{', '.join(map(str, EXP_EPS))}}}" + (
        " (the --quick grid)" if args.quick else ""
    )
    counts = pairs["relation"].value_counts().to_dict()
    report = [
        f"Computed for {sizes}: {len(pairs)} pairs and {len(gap)} protocol instances, by five sweeps. "
        f"Relations found: {', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}.",
        "",
        "### Who can simulate whom",
        "",
        *relation_tables(pairs, ds),
        "### Utility gap, δ(ε) and the DP sandwich",
        "",
        "Gap: optimal expected accuracy (uniform prior) of the best ε-LDP mechanism minus that of the protocol's "
        "closure (exact). δ(0): the protocol's δ at ε' = 0 on the complete graph; its exact δ(ε') curve is the "
        "line from δ(0) at e^ε' = 1 to 0 at e^ε' = e^ε (checked at e^ε' = 3/2 for every row). Inner: the largest "
        "e^ε' such that every ε'-LDP mechanism lies in the protocol's row cone (the outer bound equals the "
        "nominal e^ε in every row).",
        "",
        *protocol_table(gap, curve, bounds, ds),
        "",
        "![Utility gap (top) and δ at ε' = 0 (bottom) of each protocol against the domain size](ldp_study.png)",
        "",
    ]
    (out / "ldp_study_report.md").write_text("\n".join(report) + "\n", encoding="utf-8")
    figure(gap, curve, out / "ldp_study.png")
    print("\n".join(relation_tables(pairs, ds)))
    print("\n".join(protocol_table(gap, curve, bounds, ds)))
    print(f"\nwrote {out / 'ldp_study.png'} and {out / 'ldp_study_report.md'}")


if __name__ == "__main__":
    main()
