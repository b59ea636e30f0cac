"""Independent brute-force references for the smoothed-DP tests (Fractions, no shared code with privgeom.smoothed)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Sequence


def event_distance(p: Sequence[Fraction], q: Sequence[Fraction], e: Fraction) -> Fraction:
    """max over every event S of P(S) - e Q(S) (all 2^k subsets)."""
    k = len(p)
    best = Fraction(0)
    for mask in range(1 << k):
        val = sum((p[y] - e * q[y] for y in range(k) if mask >> y & 1), Fraction(0))
        best = max(best, val)
    return best


def database_delta_brute(columns: dict[tuple, list[Fraction]], e: Fraction, records: int) -> dict[tuple, Fraction]:
    """δ(x) for databases x (tuples of record indices), replace-one neighbours, events enumerated."""
    out = {}
    for x, px in columns.items():
        best = Fraction(0)
        for j in range(len(x)):
            for r in range(records):
                if r == x[j]:
                    continue
                y = x[:j] + (r,) + x[j + 1 :]
                if y in columns:
                    py = columns[y]
                    best = max(best, event_distance(px, py, e), event_distance(py, px, e))
        out[x] = best
    return out


def smoothed_brute(delta: dict[tuple, Fraction], Pi: Sequence[Sequence[Fraction]], n: int, records: int) -> Fraction:
    """max over every (pi_1..pi_n) in Pi^n of sum_x prod_j pi_j(x_j) delta(x)."""
    best = None
    for choice in itertools.product(range(len(Pi)), repeat=n):
        total = Fraction(0)
        for x in itertools.product(range(records), repeat=n):
            prob = Fraction(1)
            for j, c in enumerate(choice):
                prob *= Pi[c][x[j]]
            total += prob * delta[x]
        best = total if best is None or total > best else best
    assert best is not None
    return best
