"""Benchmark: the certified δ of shuffled 3-ary randomized response with uniform users (``docs/theory.md`` §18.10).

3-ary randomized response with ``e^{ε₀} = e²`` (``p = e²/(e² + 2)``), ``n = 10^4`` users, ``ε = 0.5`` and
``ε = 0.15``: for each pair (others = ``A`` holders of ``a``, ``B`` of ``b``, ``C`` of ``c``, ``m`` uniform users) the
tilted linear-space route (:func:`~privgeom.amplification._pairs_rr3.rr3_pair_delta_log`) next to the general log-space
route (:func:`~privgeom.amplification._pairs.pair_delta_log`, run in a child process and given up after 60 s or when
refused by its work limit ``shuffle_pair_work``: ``—`` and the reason), the values, their certified relative errors, and whether they agree within both
errors. Then :func:`~privgeom.amplification._pairs_rr3.rr3_delta_over_m` over 200 values of ``m``.

``--quick`` runs ``n = 1000`` in a few seconds.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import time
from typing import Any

import privgeom as pg
from privgeom.amplification._pairs import pair_delta_log
from privgeom.amplification._pairs_rr3 import rr3_delta_over_m, rr3_pair_delta_log

E2 = math.exp(2)
P = E2 / (E2 + 2)
Q = (1 - P) / 2
R4 = [[P, Q, Q, 1 / 3], [Q, P, Q, 1 / 3], [Q, Q, P, 1 / 3]]  # the 4th input: a uniform user


def _general(args: tuple[int, int, int, int, float]) -> tuple[float, float, float]:
    A, B, C, m, t = args
    t0 = time.perf_counter()
    r = pair_delta_log(R4, (A, B, C, m), 0, 1, t)
    return r.log_value, r.rel_error, time.perf_counter() - t0


def _general_or_none(pool: Any, args: tuple[int, int, int, int, float], limit: float) -> Any:
    job = pool.apply_async(_general, (args,))
    try:
        return job.get(timeout=limit), pool
    except mp.TimeoutError:
        pool.terminate()
        return f"> {limit:.0f} s", mp.get_context("spawn").Pool(1)
    except pg.SizeLimitError:
        return "refused (work limit)", pool


def pair_table(n: int, limit: float, levels: tuple[float, ...] = (0.5, 0.15)) -> None:
    f = n // 10**4 if n >= 10**4 else 0.1  # the brief's pairs at n = 10^4, scaled for --quick
    N = n - 1

    def sc(x: int) -> int:
        return int(round(x * f)) if f != 1 else x

    cases = [
        ("clone", 0, 0, N, 0),
        ("A=27", 27, 0, N - 27, 0),
        ("A=700", sc(700), 0, N - sc(700), 0),
        ("A=27,m=300", 27, 0, sc(9000), sc(300)),
        ("B=5,m=3000", 0, 5, sc(6000), sc(3000)),
        # b-heavy pairs: δ far below the least-rate point's scale (the mixture bound's point lies elsewhere)
        ("b-mix", 0, sc(5314), sc(4374), 0),
        ("b-clone", 0, N, 0, 0),
        ("A=1,b-clone", 1, N - 1, 0, 0),
        ("mix", 0, sc(2000), N - sc(2000), 0),
    ]
    pool = mp.get_context("spawn").Pool(1)
    for eps in levels:
        t = math.exp(eps)
        print(f"\n== 3-RR, e^ε0 = e², n = {n}, ε = {eps} ==")
        print(
            f"{'pair':>12} {'A':>5} {'B':>5} {'C':>6} {'m':>5} {'ln δ (rr3)':>16} {'rel.err':>8} {'time':>7} "
            f"{'ln δ (general)':>16} {'rel.err':>8} {'time':>7} {'agree':>6}"
        )
        for name, A, B, C, m in cases:
            t0 = time.perf_counter()
            s = rr3_pair_delta_log(P, A, B, C, m, t)
            dt = time.perf_counter() - t0
            g, pool = _general_or_none(pool, (A, B, C, m, t), limit)
            if isinstance(g, str):
                tail = f"{'—':>16} {'':>8} {'—':>7} {'':>6}  {g}"
            else:
                ok = abs(math.exp(s.log_value - g[0]) - 1) <= s.rel_error + g[1]
                tail = f"{g[0]:>16.10f} {g[1]:>8.1e} {g[2]:>6.2f}s {str(ok):>6}"
            print(
                f"{name:>12} {A:>5} {B:>5} {C:>6} {m:>5} {s.log_value:>16.10f} {s.rel_error:>8.1e} {dt:>6.2f}s {tail}"
            )
    pool.terminate()


def over_m_table(n: int) -> None:
    f = 1.0 if n >= 10**4 else 0.1
    print("\n== rr3_delta_over_m: 200 values of m (from the pair's m on), ε = 0.5 ==")
    print(f"{'A':>5} {'B':>5} {'C':>6} {'m range':>12} {'time':>7} {'per m':>8} {'ln δ first':>14} {'ln δ last':>14}")
    for A, B, C, m0 in ((27, 0, int(9000 * f), int(300 * f)), (0, 5, int(6000 * f), int(3000 * f))):
        t0 = time.perf_counter()
        vals = rr3_delta_over_m(P, A, B, C, m0, m0 + 199, math.exp(0.5))
        dt = time.perf_counter() - t0
        rng = f"{m0}..{m0 + 199}"
        print(
            f"{A:>5} {B:>5} {C:>6} {rng:>12} {dt:>6.2f}s {1000 * dt / 200:>6.1f}ms "
            f"{vals[0].log_value:>14.6f} {vals[-1].log_value:>14.6f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 1000 (seconds)")
    parser.add_argument("--eps", type=float, nargs="+", default=[0.5, 0.15], help="the levels ε (default 0.5 0.15)")
    args = parser.parse_args()
    n = 1000 if args.quick else 10**4
    pair_table(n, 10.0 if args.quick else 60.0, args.eps)
    over_m_table(n)


if __name__ == "__main__":
    main()
