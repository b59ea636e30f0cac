"""The generic closure LP (Theorem 3.4) against a plain sparse HiGHS model of the same LP.

Two definitions without usable structure for the LP route:

- RR(k): ``FiniteDefinition([M_rr(k, 3/4)])`` in float mode (the LP does not know it is randomized response),
  tested against ``RR(k, 2/3)`` (a member) and ``RR(k, 4/5)`` (not a member);
- a random rank-deficient definition on ``N`` datasets: ``M = A M_0`` with ``M_0`` a random ``N/2 x N`` mechanism and
  ``A`` a random ``N x N/2`` post-processing (so ``M`` is ``N x N`` of rank ``N/2``: dependent rows, the row cone does
  not decide), tested against a random post-processing of ``M`` (a member) and of ``M_0`` (more informative: not a
  member).

Routes, each on the same two targets, answers asserted equal to the baseline's:

- ``plain``: the baseline, today's ℓ1 LP written out in a few lines of scipy.sparse and solved by
  ``scipy.optimize.linprog(method="highs")`` (this file, :func:`plain_sparse_highs`);
- ``generic``: ``FiniteDefinition.contains(M, method="lp")`` on a fresh definition (reduced by the row space,
  interior-point method, witness/certificate re-verified), i.e. a cold start including assembly;
- ``warm``: the same definition asked again about new targets (the assembled, reduced model is cached on the
  definition and only its right-hand side changes);
- ``dual``/``primal``/``ipm``/``choose``: the generic LP (cold) with each HiGHS algorithm, to justify the default;
- ``unreduced``: the generic LP without the row-space reduction (today's model through the same code), with
  ``--unreduced`` (slow at k = 7) and in ``--quick``.

Run: python benchmarks/bench_closure_lp.py [--quick] [--k 7] [--n 128] [--solvers dual,ipm] [--unreduced]
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

import privgeom as pg


def plain_sparse_highs(mats: list[np.ndarray], target: np.ndarray) -> bool:
    """Baseline: min ‖Σ_j B_j M_j − M'‖_1 s.t. 1ᵀB_j = λ_j 1ᵀ, Σλ = 1, all ≥ 0; member iff the optimum is 0."""
    n_out, N = target.shape
    m, nS = len(mats), n_out * N
    blocks: list[list[Any]] = [[None] * (2 * m + 2) for _ in range(m + 2)]
    for j, M in enumerate(mats):
        blocks[0][j] = sp.kron(sp.eye(n_out), sp.csr_matrix(M.T))  # Σ_j B_j M_j (row-major B_j)
        blocks[1 + j][j] = sp.kron(sp.csr_matrix(np.ones((1, n_out))), sp.eye(M.shape[0]))  # column sums of B_j
        blocks[1 + j][m + j] = sp.csr_matrix(-np.ones((M.shape[0], 1)))  # … = λ_j
        blocks[m + 1][m + j] = sp.csr_matrix(np.ones((1, 1)))  # Σ λ_j = 1
    blocks[0][2 * m], blocks[0][2 * m + 1] = sp.eye(nS), -sp.eye(nS)  # ℓ1 slacks s⁺ − s⁻
    A = sp.bmat(blocks, format="csc")
    b = np.concatenate([target.ravel(), np.zeros(sum(M.shape[0] for M in mats)), [1.0]])
    c = np.concatenate([np.zeros(A.shape[1] - 2 * nS), np.ones(2 * nS)])
    res = linprog(c, A_eq=A, b_eq=b, bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"baseline LP failed: {res.message}")
    return bool(res.fun <= 1e-7)


def random_mechanism(rng: np.random.Generator, n_out: int, n_in: int) -> np.ndarray:
    M = rng.random((n_out, n_in)) ** 3  # skewed entries: rows far from proportional
    return M / M.sum(axis=0)


def rr_case(k: int) -> tuple[str, pg.Mechanism, list[pg.Mechanism]]:
    return (
        f"RR(k={k}) {2**k}x{2**k}",
        pg.randomized_response(k, 0.75),
        [pg.randomized_response(k, 2 / 3), pg.randomized_response(k, 0.8), pg.randomized_response(k, 0.7)],
    )


def random_case(n: int, seed: int = 1) -> tuple[str, pg.Mechanism, list[pg.Mechanism]]:
    rng = np.random.default_rng(seed)
    M0 = random_mechanism(rng, n // 2, n)
    M = random_mechanism(rng, n, n // 2) @ M0
    yes = random_mechanism(rng, n, n) @ M
    no = M0  # M_0 itself: strictly more informative than its garbling M
    yes2 = random_mechanism(rng, n, n) @ M
    labels = [f"d{i}" for i in range(n)]
    mk = lambda X: pg.Mechanism(X, inputs=labels)  # noqa: E731
    return f"random rank {n // 2}, {n}x{n}", mk(M), [mk(yes), mk(no), mk(yes2)]


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def run_case(name: str, M: pg.Mechanism, targets: list[pg.Mechanism], solvers: list[str], unreduced: bool) -> list[str]:
    mats = [M.float_matrix()]
    yes, no, again = targets
    (b1, b2), t_plain = timed(
        lambda: (plain_sparse_highs(mats, yes.float_matrix()), plain_sparse_highs(mats, no.float_matrix()))
    )
    print(f"  {name:28} {'plain sparse HiGHS':24} {t_plain:10.3f} {1.0:8.2f}  ({b1}, {b2})", flush=True)
    rows = []

    def report(route: str, fn: Callable[[], tuple[bool, bool]]) -> float:
        ans, t = timed(fn)
        assert ans == (b1, b2), f"{route} disagrees with the baseline on {name}: {ans} vs {(b1, b2)}"
        print(f"  {name:28} {route:24} {t:10.3f} {t / t_plain:8.3f}  {ans}", flush=True)
        return t

    def cold(**kw: Any) -> tuple[bool, bool]:
        D = pg.FiniteDefinition([M])
        if kw:
            return D.closure_lp(yes, **kw).member, D.closure_lp(no, **kw).member
        return D.contains(yes, method="lp").member, D.contains(no, method="lp").member

    t_gen = report("generic closure LP", cold)
    rows.append(f"{name}: plain {t_plain:.2f} s, generic {t_gen:.2f} s, ratio plain/generic {t_plain / t_gen:.1f}")
    D = pg.FiniteDefinition([M])
    D.contains(yes, method="lp")
    ans, t_warm = timed(lambda: D.contains(again, method="lp").member)
    ans2, t_warm2 = timed(lambda: D.contains(no, method="lp").member)
    assert ans and ans2 == b2
    print(
        f"  {name:28} {'warm (cached model)':24} {t_warm + t_warm2:10.3f} {(t_warm + t_warm2) / t_plain:8.3f}  "
        f"({ans}, {ans2})",
        flush=True,
    )
    for solver in solvers:
        report(f"solver={solver}", lambda: cold(solver=solver))
    if unreduced:
        report("unreduced (reduce=False)", lambda: cold(reduce=False))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (used by the test suite)")
    ap.add_argument("--k", type=int, default=7, help="bits of randomized response (2^k datasets)")
    ap.add_argument("--n", type=int, default=128, help="datasets of the random rank-deficient definition")
    ap.add_argument("--unreduced", action="store_true", help="also time the unreduced model (slow at k=7)")
    ap.add_argument("--solvers", default="dual,ipm", help="HiGHS algorithms to time (comma list; --quick: all four)")
    args = ap.parse_args()
    k, n = (3, 16) if args.quick else (args.k, args.n)
    print("closure LP membership (float): a member and a non-member per definition; time in s for both queries;")
    print("ratio = route time / plain sparse HiGHS time (below 1 = faster than the baseline)")
    print(f"  {'definition':28} {'route':24} {'time s':>10} {'ratio':>8}  answers")
    summary = []
    for case in (rr_case(k), random_case(n)):
        solvers = ["dual", "primal", "ipm", "choose"] if args.quick else args.solvers.split(",")
        summary += run_case(*case, solvers=solvers, unreduced=args.unreduced or args.quick)
    print()
    for line in summary:
        print(line)


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_closure_lp")
