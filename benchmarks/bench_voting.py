"""Voting rules under randomized response: fast exact methods vs the paper's recursion and naive transforms.

1. Accuracy of majority, Acc(M_ρ Maj_n), for n up to 100 001: the default (closed-form Fourier weights of Maj_n,
   O(n)), the general by-count engine (sum of two binomials in log space, O(n) per breakpoint) and the paper's
   memoised recursion (Section 6.1.1, O(n^3) states; run only where it finishes within the budget). Prints times,
   the recursion/fast ratio, and the deviation from exact Fractions (n ≤ 101) and from an independent 50-digit
   decimal evaluation of O'Donnell's closed-form spectrum (every n).
2. Exact ε of M_ρ Maj_n by vote count in log space (no underflow) up to n = 100 001, next to the truth-table route
   where it runs.
3. The Fourier spectrum by fast Walsh–Hadamard transform (O(n 2^n)) up to n = 22, vs the naive O(4^n) sums.

Run: python benchmarks/bench_voting.py [--quick] [--budget 30]
"""

from __future__ import annotations

import argparse
import time
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from privgeom import voting
from privgeom.testing import decimal_majority_accuracy  # the independent 50-digit reference (O'Donnell)
from privgeom.voting._rules import random_rule


def timed(fn: Callable[..., Any], *args: Any, repeat: int = 1, **kw: Any) -> tuple[Any, float]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(*args, **kw)
        best = min(best, time.perf_counter() - t0)
    return out, best


def accuracy_table(sizes: list[int], rho: Fraction, budget: float) -> None:
    print(f"accuracy of majority at rho = {rho} (float; references: exact Fractions up to n = 101, 50-digit decimals)")
    header = (
        f"{'n':>7} {'fast s':>9} {'counts s':>9} {'recursion s':>12} {'rec/fast':>10} {'|fast-exact|':>13} "
        f"{'|fast-ref50|':>13} {'|counts-ref50|':>15}"
    )
    print(header)
    print("-" * len(header))
    recursion_alive = True
    for n in sizes:
        f = voting.majority(n)
        fast, t_fast = timed(voting.accuracy, f, float(rho), repeat=3)
        counts, t_counts = timed(voting.accuracy, f, float(rho), method="counts")
        fast, counts = fast.value, counts.value  # the numbers of the Quantity results
        rec_text, ratio_text = "-", "-"
        if recursion_alive and n <= voting._accuracy.RECURSION_MAX_N:
            rec, t_rec = timed(voting.accuracy, f, float(rho), method="recursion")
            assert abs(rec.value - fast) < 1e-12, (n, rec, fast)
            rec_text, ratio_text = f"{t_rec:.4f}", f"{t_rec / t_fast:.0f}x"
            recursion_alive = t_rec < budget / 4
        exact_text = "-"
        if n <= 101:
            exact = voting.accuracy(f, rho).value
            assert isinstance(exact, Fraction)
            err = abs(Fraction(fast) - exact)
            assert err <= Fraction(1, 10**12), (n, float(err))
            exact_text = f"{float(err):.1e}"
        ref = decimal_majority_accuracy(n, Fraction(float(rho)))
        err_fast, err_counts = float(abs(Decimal(fast) - ref)), float(abs(Decimal(counts) - ref))
        assert err_fast <= 1e-12 and err_counts <= 1e-12, (n, err_fast, err_counts)
        print(
            f"{n:>7} {t_fast:>9.4f} {t_counts:>9.4f} {rec_text:>12} {ratio_text:>10} {exact_text:>13} {err_fast:>13.1e} {err_counts:>15.1e}"
        )
    print()


def epsilon_table(sizes: list[int], rho: float) -> None:
    print(f"exact epsilon of M_rho Maj_n at rho = {rho}: by vote count (log space) vs the truth table (2^n profiles)")
    header = f"{'n':>7} {'counts s':>9} {'table s':>9} {'table/counts':>13} {'epsilon':>14} {'|counts-table|':>15} {'bound ln(3)':>12}"
    print(header)
    print("-" * len(header))
    for n in sizes:
        f = voting.majority(n)
        res, t_counts = timed(voting.epsilon, f, rho, method="counts")
        table_text, ratio_text, diff_text = "-", "-", "-"
        if n <= 15:
            tab, t_tab = timed(voting.epsilon, f, rho, method="table")
            diff = abs(float(tab.level) - float(res.level))
            assert diff <= 1e-10, (n, diff)
            table_text, ratio_text, diff_text = f"{t_tab:.4f}", f"{t_tab / t_counts:.1f}x", f"{diff:.1e}"
        assert 0 < float(res.level) < float(res.bound)
        print(
            f"{n:>7} {t_counts:>9.4f} {table_text:>9} {ratio_text:>13} {float(res.level):>14.10f} {diff_text:>15} {float(res.bound):>12.6f}"
        )
    print()


def fourier_table(sizes: list[int], naive_max: int) -> None:
    print("Fourier spectrum of a random rule: fast Walsh-Hadamard (exact integers) vs naive sums f^(S) = E[f chi_S]")
    header = f"{'n':>4} {'2^n':>9} {'WHT s':>9} {'naive s':>9} {'naive/WHT':>10}"
    print(header)
    print("-" * len(header))
    for n in sizes:
        f = random_rule(n, seed=n)
        spec, t_wht = timed(voting.fourier, f)
        assert sum(spec.level_weights()) == 1  # Parseval
        naive_text, ratio_text = "-", "-"
        if n <= naive_max:
            table = f.table().astype(np.int64)
            j = np.arange(1 << n)

            def naive() -> np.ndarray:
                out = np.empty(1 << n, dtype=np.int64)
                for S in range(1 << n):
                    parity = (
                        np.bitwise_count(j & S) & 1
                        if hasattr(np, "bitwise_count")
                        else np.array([bin(v).count("1") & 1 for v in j & S])
                    )
                    out[S] = int(np.sum(np.where(parity, -table, table)))
                return out

            coeffs, t_naive = timed(naive)
            assert np.array_equal(coeffs, np.asarray(spec.numerators, dtype=np.int64))
            naive_text, ratio_text = f"{t_naive:.4f}", f"{t_naive / t_wht:.0f}x"
        print(f"{n:>4} {1 << n:>9} {t_wht:>9.4f} {naive_text:>9} {ratio_text:>10}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (used by the test suite)")
    ap.add_argument(
        "--budget", type=float, default=30.0, help="stop the recursion once one size takes longer than budget/4 s"
    )
    args = ap.parse_args()
    if args.quick:
        accuracy_table([11, 51, 1001], Fraction(1, 2), args.budget)
        epsilon_table([5, 11, 1001], 0.5)
        fourier_table([8, 12], naive_max=10)
        return
    accuracy_table([11, 51, 101, 201, 301, 1001, 10001, 100001], Fraction(1, 2), args.budget)
    accuracy_table([101, 1001, 10001, 100001], Fraction(9, 10), args.budget)
    accuracy_table([101, 10001, 100001], Fraction(999999, 1000000), args.budget)
    epsilon_table([5, 11, 15, 1001, 10001, 100001], 0.5)
    fourier_table([10, 12, 16, 20, 22], naive_max=12)


if __name__ == "__main__":
    import _report  # prints the tables; --publish also writes them into docs/benchmarks.md

    _report.run(main, "bench_voting")
