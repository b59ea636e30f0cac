"""Independent brute-force references and random instances for the smoothed-DP tests.

Fractions only, no shared code with :mod:`privgeom.smoothed`: the instances are core :class:`privgeom.Mechanism`
matrices on :meth:`privgeom.Domain.databases`, whose :attr:`~privgeom.Domain.points` give the records of each
column.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from privgeom import Domain, Mechanism


def random_mechanism(
    seed: int, *, n: int = 2, records: int = 2, outputs: int = 3, denominator: int = 6, anonymous: bool = False
) -> Mechanism:
    """A random exact mechanism on ``Domain.databases(n, records)`` (labels ``"(0,1)"``), entries ``k/denominator``.

    ``anonymous=True`` makes the columns depend on the histogram only.
    """
    rng = random.Random(seed)
    dom = Domain.databases(n, records)
    cols: dict[Any, list[Fraction]] = {}

    def column() -> list[Fraction]:
        cuts = sorted(rng.randint(0, denominator) for _ in range(outputs - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [denominator])]
        return [Fraction(p, denominator) for p in parts]

    mat = []
    for x in dom.points:
        key = tuple(sorted(x)) if anonymous else x
        if key not in cols:
            cols[key] = column()
        mat.append(cols[key])
    return Mechanism(np.array(mat, dtype=object).T, dom, [f"o{i}" for i in range(outputs)], exact=True)


def random_distributions(seed: int, *, count: int = 3, records: int = 2, denominator: int = 5) -> list[list[Fraction]]:
    """``count`` random rational probability vectors over ``records`` values."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cuts = sorted(rng.randint(0, denominator) for _ in range(records - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [denominator])]
        out.append([Fraction(p, denominator) for p in parts])
    return out


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
