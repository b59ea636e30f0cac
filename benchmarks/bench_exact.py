"""Exact at float speed: integer mechanisms and factored randomized response vs floats vs the Fraction route.

Every row runs one question three ways and asserts the answers agree: the exact route of today (integer columns,
vectorised integer kernels, factored Kronecker mechanisms), the float route (``to_float()``/float ``e^ε``), and the
Fraction route (``method="fraction"``: the same algorithm deciding with ``fractions.Fraction`` objects, after
building the Fraction matrix as the old storage did). Times in seconds; the ratios are Fraction/exact and
exact/float. Rows: DP membership of RR(k) on the Hamming graph; closure membership RR(k, 3/4) ∋ RR(k, 2/3)
(building included); building RR(12) exactly and its ε on the Hamming graph; ε and δ(ln 2) of RR(k); δ(ln 2) of the
truncated geometric mechanism on the path, building included (as a user runs it) and on mechanisms built beforehand;
the whole δ(ε) curve (``delta_curve``) of RR(k) and of the geometric mechanism; membership of rows in an exact cone
(``Cone.contains`` on the stored integer facets vs the Fraction dot products of the Fraction storage).

Run: python benchmarks/bench_exact.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction
from typing import Any, Callable

import numpy as np

import privgeom as pg
from privgeom.graphs._graphs import hamming_graph


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def fresh_fraction_rr(k: int, p: str) -> pg.Mechanism:
    """RR(k, p) with its Fraction matrix built, as the Fraction storage held it."""
    M = pg.randomized_response(k, p)
    M = pg.Mechanism(M.matrix, inputs=M.domain, outputs=M.outputs)
    M.matrix
    return M


def rr_contains_fraction(k: int) -> bool:
    """The Fraction route of ``RandomizedResponse(k, 3/4).contains(randomized_response(k, 2/3))``: Fraction matrix,
    integer rows from Fractions, Kronecker inverse, witness of Fractions with Fraction column sums."""
    rr = pg.RandomizedResponse(k, "3/4")
    M = fresh_fraction_rr(k, "2/3")
    X = M.matrix
    member, _, W, _, dens = rr._decide(X, True, 1e-9, M.outputs)
    c = (2 * rr._a - rr._b) ** rr._k
    Wi = W.to_ints() if hasattr(W, "to_ints") else W
    A = np.empty(Wi.shape, dtype=object)
    for o in range(Wi.shape[0]):
        A[o, :] = [Fraction(int(v), dens[o] * c) for v in Wi[o]]
    return bool(member and all(s == 1 for s in A.sum(axis=0)))


def row(name: str, t_exact: float, t_float: float | None, t_frac: float | None, agree: bool) -> None:
    f = f"{t_float:9.3f}" if t_float is not None else f"{'-':>9}"
    r = f"{t_frac:9.3f}" if t_frac is not None else f"{'refused':>9}"
    ratio_frac = f"{t_frac / max(t_exact, 1e-9):9.1f}" if t_frac is not None else f"{'-':>9}"
    ratio_float = f"{t_exact / max(t_float, 1e-9):9.1f}" if t_float is not None else f"{'-':>9}"
    print(f"{name:<52} {t_exact:9.3f} {f} {r} {ratio_frac} {ratio_float}  {agree}")
    assert agree, name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (used by the test suite)")
    args = ap.parse_args()
    k = 6 if args.quick else 10
    big_k = 8 if args.quick else 12
    n_geo = 40 if args.quick else 200

    head = f"{'question':<52} {'exact s':>9} {'float s':>9} {'Fraction':>9} {'Fr/exact':>9} {'ex/float':>9}  agree"
    print(head)
    print("-" * len(head))

    # 1. DP membership on the Hamming graph (building included)
    dp = pg.DifferentialPrivacy(hamming_graph(k), exp_eps=3)
    dpf = pg.DifferentialPrivacy(hamming_graph(k), exp_eps=3.0)
    a, te = timed(lambda: dp.contains(pg.randomized_response(k, "3/4")))
    b, tf = timed(lambda: dpf.contains(pg.randomized_response(k, 0.75)))
    c, tr = timed(lambda: dp.contains(fresh_fraction_rr(k, "3/4"), method="fraction"))
    row(f"DP(hamming({k}), e^ε=3) ∋ RR({k}, 3/4)", te, tf, tr, a.member == b.member == c.member is True)

    # 1b. the same at big_k bits: the exact route decides from the factors (the dense matrix is beyond the limit)
    dpb = pg.DifferentialPrivacy(hamming_graph(big_k), exp_eps="29/10")
    a, te = timed(lambda: dpb.contains(pg.randomized_response(big_k, "3/4")))
    if args.quick:
        b, tf = timed(
            lambda: pg.DifferentialPrivacy(hamming_graph(big_k), exp_eps=2.9).contains(
                pg.randomized_response(big_k, 0.75)
            )
        )
        c, tr = timed(lambda: dpb.contains(fresh_fraction_rr(big_k, "3/4"), method="fraction"))
        same = a.member == b.member == c.member
    else:  # floats: a 4096 x 4096 scan over 49,152 directed edges; Fractions: the dense matrix is refused
        tf, tr, same = None, None, True
    row(
        f"DP(hamming({big_k}), e^ε=29/10) ∌ RR({big_k}, 3/4)",
        te,
        tf,
        tr,
        same and not a.member and a.certificate.value < 0,
    )

    # 2. closure membership of randomized response, building included
    a, te = timed(lambda: pg.RandomizedResponse(k, "3/4").contains(pg.randomized_response(k, "2/3")))
    b, tf = timed(lambda: pg.RandomizedResponse(k, 0.75).contains(pg.randomized_response(k, 2 / 3)))
    c, tr = timed(lambda: rr_contains_fraction(k))
    row(f"RR({k}, 3/4) ∋ RR({k}, 2/3), building included", te, tf, tr, a.member == b.member == c is True)

    # 3. RR(big_k) built exactly, ε on the Hamming graph (factored); float: dense scan; Fraction: dense refused
    a, te = timed(lambda: pg.epsilon(pg.randomized_response(big_k, "3/4"), "hamming"))
    b, tf = timed(lambda: pg.epsilon(pg.randomized_response(big_k, 0.75), "hamming", max_work=10**10))
    try:
        c, tr = timed(lambda: pg.epsilon(fresh_fraction_rr(big_k, "3/4"), "hamming", method="fraction"))
        same = c.level == a.level
    except pg.SizeLimitError:
        tr, same = None, True
    row(
        f"build RR({big_k}, 3/4) + ε(hamming) = ln 3",
        te,
        tf,
        tr,
        a.level.eps == pg.LogRational(3) and math.isclose(float(b), math.log(3), rel_tol=1e-12) and same,
    )

    # 4. ε and δ(ln 2) of RR(k) on the Hamming graph
    M = pg.randomized_response(k, "3/4")
    M.int_columns
    Mf = M.to_float()
    Mf.matrix
    Mr = fresh_fraction_rr(k, "3/4")
    a, te = timed(lambda: pg.epsilon(M, "hamming"))
    b, tf = timed(lambda: pg.epsilon(Mf, "hamming"))
    c, tr = timed(lambda: pg.epsilon(Mr, "hamming", method="fraction"))
    row(f"ε(RR({k}, 3/4), hamming)", te, tf, tr, a == c and math.isclose(float(b), float(a), rel_tol=1e-12))
    d, tfac = timed(lambda: pg.epsilon(M, "hamming", method="factors"))
    row(f"ε(RR({k}, 3/4), hamming), from the factors", tfac, tf, tr, d == a)
    a, te = timed(lambda: pg.delta(M, "hamming", exp_eps=2))
    b, tf = timed(lambda: pg.delta(Mf, "hamming", exp_eps=2.0))
    c, tr = timed(lambda: pg.delta(Mr, "hamming", exp_eps=2, method="fraction"))
    row(
        f"δ(ln 2) of RR({k}, 3/4), hamming", te, tf, tr, a == c and math.isclose(b.delta, float(a.delta), abs_tol=1e-12)
    )
    d, tfac = timed(lambda: pg.delta(M, "hamming", exp_eps=2, method="factors"))
    row(f"δ(ln 2) of RR({k}, 3/4), hamming, from the factors", tfac, tf, tr, d == a)

    # 5. δ(ln 2) of the truncated geometric mechanism on the path: building included, then on built mechanisms
    for alpha in ("1/2", "2/3"):

        def fraction_geometric() -> pg.Mechanism:
            G = pg.truncated_geometric(n_geo, alpha)
            Gr = pg.Mechanism(G.matrix, inputs=G.inputs, outputs=G.outputs)
            Gr.matrix
            return Gr

        a, te = timed(lambda: pg.delta(pg.truncated_geometric(n_geo, alpha), "path", pg.LogRational(2)))
        b, tf = timed(lambda: pg.delta(pg.truncated_geometric(n_geo, float(Fraction(alpha))), "path", math.log(2)))
        c, tr = timed(lambda: pg.delta(fraction_geometric(), "path", pg.LogRational(2), method="fraction"))
        row(
            f"build geometric(n={n_geo}, α={alpha}) + δ(ln 2), path",
            te,
            tf,
            tr,
            a == c and math.isclose(b.delta, float(a.delta), abs_tol=1e-12),
        )
        G = pg.truncated_geometric(n_geo, alpha)
        G.int_columns
        Gf = G.to_float()
        Gr = fraction_geometric()
        a, te = timed(lambda: pg.delta(G, "path", exp_eps=2))
        b, tf = timed(lambda: pg.delta(Gf, "path", exp_eps=2.0))
        c, tr = timed(lambda: pg.delta(Gr, "path", exp_eps=2, method="fraction"))
        row(
            f"δ(ln 2) of geometric(n={n_geo}, α={alpha}), path, built",
            te,
            tf,
            tr,
            a == c and math.isclose(b.delta, float(a.delta), abs_tol=1e-12),
        )

    # 6. the whole δ(ε) curve: integer columns vs the Fraction matrix (method="fraction") vs floats
    from privgeom.analyses import delta_curve

    curve_k = 4 if args.quick else 8
    for name, Mc, graph in (
        (f"RR({curve_k}, 3/4), hamming", pg.randomized_response(curve_k, "3/4"), "hamming"),
        (f"geometric(n={n_geo}, α=2/3), path", pg.truncated_geometric(n_geo, "2/3"), "path"),
    ):
        Mc.int_columns
        Mcf, Mcr = Mc.to_float(), pg.Mechanism(Mc.matrix, inputs=Mc.inputs, outputs=Mc.outputs)
        Mcr.matrix
        a, te = timed(lambda: delta_curve(Mc, graph))
        b, tf = timed(lambda: delta_curve(Mcf, graph))
        c, tr = timed(lambda: delta_curve(Mcr, graph, method="fraction"))
        row(
            f"δ(ε) curve of {name}",
            te,
            tf,
            tr,
            a.pieces == c.pieces
            and a.breakpoints == c.breakpoints
            and a.level == c.level
            and math.isclose(float(b.level), float(a.level), rel_tol=1e-9),
        )

    # 7. Cone.contains on integer facets vs the Fraction route (a·x as Fraction sums, as the Fraction storage did)
    from privgeom.geometry import Cone

    ck = 5 if args.quick else 8
    R = pg.randomized_response(ck, "3/4").matrix
    cone = Cone.from_facets(pg.RandomizedResponse(ck, "3/4").row_cone().int_facets)
    cone_f = cone.to_float()
    rows = [list(r) for r in pg.randomized_response(ck, "2/3").matrix[:16]] + [list(r) for r in R[:4]]
    rows += [[Fraction(v) * (1 if j else -1) for j, v in enumerate(r)] for r in R[4:8]]
    Fcone = np.asarray(cone.facets)

    def fraction_contains(x: list[Fraction]) -> bool:
        return all(sum((a * v for a, v in zip(f, x)), Fraction(0)) >= 0 for f in Fcone)

    a, te = timed(lambda: [cone.contains(x).member for x in rows])
    b, tf = timed(lambda: [cone_f.contains([float(v) for v in x]).member for x in rows])
    c, tr = timed(lambda: [fraction_contains(x) for x in rows])
    row(f"{len(rows)} rows in the exact row cone of RR({ck}, 3/4)", te, tf, tr, a == c == b)


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_exact")
