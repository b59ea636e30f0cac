"""Benchmark: exact composition (``pg.compose``) against the accountants that discretise.

Rows (each timed in-process, after a warm-up import of scipy and the accountants):

1. ``rr1000`` — δ(ε) of RR(1, 3/4) composed 1,000 times at ``e^ε = 150`` (an exact rational) and at ``ε = 5`` (the
   exact form ``a − e^5 · b`` with rationals ``a``, ``b``).
2. ``krr200`` — 4-ary randomized response (``e^ε = 3``) composed 200 times over the complete graph, exact.
3. ``random6`` — a 6-output random mechanism composed 100 times: privgeom's certified bracket (log-space route)
   against dp_accounting's ``[optimistic, pessimistic]`` at its default discretisation (``1e-4``), both printed with
   widths and times; prv_accountant's ``[lower, upper]`` when it is installed.
4. ``kov`` — Kairouz–Oh–Viswanath Theorem 3.3 checked exactly for ``k = 1..50`` at ``e^ε ∈ {2, 3, 3/2}``.
5. ``inside`` — 20 random finite mechanisms, ``k ∈ {2, 5, 20}``: privgeom's exact δ inside dp_accounting's bracket at
   ``ε ∈ {0, 0.5, 1, 2}`` (counts of points checked and violated).
6. ``growing`` — RR(1, 3/4) and the 6-output mechanism at ``k = 10, 50, 100, 200``: privgeom and dp_accounting, time
   and bracket width at one ε per row.
7. ``definitions`` — ``compose(DP(K3, 2), DP(K3, 2))`` and ``compose(RR(1, 3/4), RR(1, 3/4))``: row cone, relation
   to ``DP(K3, 4)`` / ``RR(1, 9/10)``, decided or not, DP sandwich; and the independent product of the RR
   definitions against ``RR(2, 3/4)``.

``--figure PATH`` draws δ(ε) of RR(1, 6/11) composed 50 times: privgeom's exact curve and dp_accounting's brackets.
Run ``python benchmarks/bench_composition.py [--quick] [--figure docs/composition_accountants.png]``.
"""

from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction as F
from typing import Any, Callable

import numpy as np

import privgeom as pg
from privgeom.analyses.composition._accountants import dp_accounting_bracket, to_prv_accountant
from privgeom.analyses.composition._definitions import compose_definitions, composed_dp_sandwich
from privgeom.analyses.composition._theorems import kov_check


def timed(f: Callable[[], Any]) -> tuple[Any, float]:
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def random6(seed: int = 0) -> pg.Mechanism:
    """A 6-output mechanism on two datasets with entries drawn from 10..19 (normalised), float."""
    rng = np.random.default_rng(seed)
    w = rng.integers(10, 20, size=(6, 2)).astype(float)
    return pg.Mechanism(w / w.sum(axis=0), inputs=["0", "1"], exact=False)


def row_rr1000() -> None:
    M = pg.randomized_response(1, "3/4")
    r, s = timed(lambda: pg.compose(M, k=1000).delta("hamming", exp_eps=150))
    d = r.delta
    print(
        f"rr1000  e^ε = 150: δ exact = {d.numerator.bit_length()}-bit / {d.denominator.bit_length()}-bit rational "
        f"≈ {float(d):.17g}; 1 − δ ≈ {float(1 - d):.6g}; {s:.3f} s"
    )
    r, s = timed(lambda: pg.compose(M, k=1000).delta("hamming", 5.0))
    print(
        f"rr1000  ε = 5: δ = a − e^5·b exactly, a ≈ {float(r.intercept):.17g}, b ≈ {float(r.slope):.6g} "
        f"(rationals over 4^1000); {s:.3f} s"
    )


def row_krr200() -> None:
    M = pg.kary_randomized_response(4, exp_eps=3)
    r, s = timed(lambda: pg.compose(M, k=200).delta("complete", exp_eps=3))
    print(
        f"krr200  4-RR(e^ε = 3) × 200, complete graph, e^ε = 3: δ exact ≈ {float(r.delta):.17g} "
        f"({r.n_atoms} atoms, {r.n_edges} edges); {s:.3f} s"
    )


def row_random6(k: int = 100, eps: float = 1.0) -> None:
    M = random6()
    C = pg.compose(M, k=k)
    r, s = timed(lambda: C.delta([("0", "1")], eps, route="certified"))
    # one direction for the accountants; privgeom's edge list holds both: take the same direction for the comparison
    from privgeom.analyses.composition._certified import certified_delta
    from privgeom.analyses.composition._loss import ratio_classes

    one, s1 = timed(lambda: certified_delta(ratio_classes(M, 0, 1), k, math.exp(eps)))
    (lo, hi), s2 = timed(lambda: dp_accounting_bracket(M, ("0", "1"), k, eps))
    print(
        f"random6 k = {k}, ε = {eps}: privgeom certified [{one.lo:.12f}, {one.hi:.12f}] width {one.hi - one.lo:.2g} "
        f"in {s1:.3f} s (both directions: [{float(r.lo):.12f}, {float(r.hi):.12f}] in {s:.3f} s)"
    )
    print(
        f"        dp_accounting (1e-4)  [{lo:.12f}, {hi:.12f}] width {hi - lo:.2g} in {s2:.3f} s "
        f"(optimistic and pessimistic, each composed {k} times)"
    )
    try:
        from prv_accountant import PRVAccountant

        def prv() -> tuple[float, float, float]:
            acc = PRVAccountant(
                prvs=[to_prv_accountant(M, ("0", "1"))], max_self_compositions=[k], eps_error=0.01, delta_error=1e-10
            )
            return acc.compute_delta(eps, [k])

        (plo, _, phi), s3 = timed(prv)
        print(
            f"        prv_accountant        [{plo:.12f}, {phi:.12f}] width {phi - plo:.2g} in {s3:.3f} s "
            f"(eps_error 0.01, delta_error 1e-10)"
        )
    except ImportError:
        print("        prv_accountant: not installed")


def row_kov() -> None:
    def run() -> bool:
        return all(kov_check(k, r).holds for r in (F(2), F(3), F(3, 2)) for k in range(1, 51))

    ok, s = timed(run)
    print(
        f"kov     Theorem 3.3, k = 1..50, e^ε ∈ {{2, 3, 3/2}}: {'all equal (exact rationals)' if ok else 'MISMATCH'}; "
        f"{s:.3f} s"
    )


def row_inside(n_mech: int = 20) -> None:
    rng = np.random.default_rng(2024)
    checked = violated = 0
    t = time.perf_counter()
    for _ in range(n_mech):
        m = int(rng.integers(2, 6))
        W = rng.integers(1, 9, size=(m, 2))
        M = pg.Mechanism([[F(int(W[w, i]), int(W[:, i].sum())) for i in range(2)] for w in range(m)], inputs=["0", "1"])
        for k in (2, 5, 20):
            L = pg.compose(M, k=k).loss(("0", "1"))
            for eps in (0.0, 0.5, 1.0, 2.0):
                from privgeom.analyses.composition._loss import split_at_exp

                a, b = L.line(split_at_exp(L, eps))
                exact = float(a) - math.exp(eps) * float(b)
                lo, hi = dp_accounting_bracket(M, ("0", "1"), k, eps)
                checked += 1
                violated += not (lo - 1e-12 <= exact <= hi + 1e-12)
    print(
        f"inside  {n_mech} random mechanisms × k ∈ {{2, 5, 20}} × 4 ε: {checked} points, {violated} outside "
        f"dp_accounting's bracket; {time.perf_counter() - t:.1f} s"
    )


def row_growing(ks: tuple[int, ...]) -> None:
    for name, M, eps in (("RR(3/4)", pg.randomized_response(1, "3/4"), 3.0), ("random6", random6(), 1.0)):
        edge = (M.inputs[0], M.inputs[1])
        for k in ks:
            C = pg.compose(M, k=k)
            r, s = timed(lambda: C.delta([edge], eps))
            width = 0.0 if r.exact else float(r.hi) - float(r.lo)
            (lo, hi), s2 = timed(lambda: dp_accounting_bracket(M, edge, k, eps))
            print(
                f"growing {name:8s} k = {k:4d}: privgeom {r.route:9s} δ ≈ {float(r.delta):.10f} width {width:.2g} "
                f"{s:7.3f} s | dp_accounting width {hi - lo:.2g} {s2:7.3f} s"
            )


def row_definitions() -> None:
    D2 = pg.parse_definition("dp:graph=complete,n=3,exp_eps=2")
    D4 = pg.parse_definition("dp:graph=complete,n=3,exp_eps=4")
    rep, s = timed(lambda: compose_definitions(D2, D2))
    sw = composed_dp_sandwich(rep, "complete", steps=6)
    print(
        f"defs    compose(DP(K3,2), DP(K3,2)): cone == DP(K3,4)'s: {rep.row_cone == D4.row_cone()}; decided by its "
        f"cone: {rep.decided}; relation to DP(K3,4): {pg.compare(rep.definition, D4).relation}; {sw.summary()}; "
        f"{s:.2f} s"
    )
    R = pg.RandomizedResponse(1, "3/4")
    seq = compose_definitions(R, R)
    ind = compose_definitions(R, R, independent=True)
    print(
        f"defs    compose(RR(3/4), RR(3/4)): cone == RR(9/10)'s: "
        f"{seq.row_cone == pg.RandomizedResponse(1, '9/10').row_cone()}, decided: {seq.decided}; independent: cone "
        f"== RR(2, 3/4)'s: {ind.row_cone == pg.RandomizedResponse(2, '3/4').row_cone()}, decided: {ind.decided}"
    )


def figure(path: str, k: int = 50) -> None:
    """δ(ε) of RR(1, 6/11) (e^ε = 6/5 per run) composed ``k`` times: privgeom's exact curve against dp_accounting's
    brackets at a coarse discretisation (0.05) and at its default (1e-4)."""
    from matplotlib.figure import Figure

    M = pg.randomized_response(1, "6/11")
    curve = pg.compose(M, k=k).delta_curve("hamming")
    eps = np.linspace(0.0, 4.0, 81)
    exact = [float(curve.evaluate(float(e))) for e in eps]
    fig = Figure(figsize=(6, 3.6))
    ax = fig.add_subplot()
    for interval, colour in ((0.05, "tab:orange"), (1e-4, "tab:green")):
        los, his = zip(
            *(dp_accounting_bracket(M, ("1", "0"), k, float(e), value_discretization_interval=interval) for e in eps)
        )
        ax.fill_between(eps, los, his, color=colour, alpha=0.35, label=f"dp_accounting bracket (interval {interval:g})")
    ax.plot(eps, exact, color="tab:blue", lw=1.2, label="privgeom exact")
    ax.set_xlabel("ε")
    ax.set_ylabel("δ(ε)")
    ax.set_title(f"RR(6/11) composed {k} times")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"figure  written to {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rows and smaller k")
    ap.add_argument("--figure", default=None, help="write the accountant comparison figure here")
    args = ap.parse_args()
    import scipy.stats  # noqa: F401  (warm-up: imports are not timed)

    try:
        from dp_accounting.pld import privacy_loss_distribution  # noqa: F401
    except ImportError:
        have_accountant = False
    else:
        have_accountant = True
        dp_accounting_bracket(pg.randomized_response(1, "3/4"), ("1", "0"), 2, 1.0)
    pg.compose(random6(), k=5).delta([("0", "1")], 1.0, route="certified")
    row_rr1000()
    row_krr200()
    row_kov()
    row_definitions()
    if not have_accountant:
        print("dp_accounting is not installed (pip install 'privgeom[accountants]'): accountant rows skipped")
        return
    row_random6()
    row_inside(2 if args.quick else 20)
    row_growing((10, 50) if args.quick else (10, 50, 100, 200))
    if args.figure:
        figure(args.figure)


if __name__ == "__main__":
    main()
