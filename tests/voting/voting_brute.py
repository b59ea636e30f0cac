"""Independent brute-force references for the voting tests (enumeration of profiles, no privgeom.voting code)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Sequence

from privgeom.mechanisms import bit_strings


def votes(label: str) -> tuple[int, ...]:
    """Bit string -> votes (+1 for '1', -1 for '0')."""
    return tuple(1 if ch == "1" else -1 for ch in label)


def profiles(n: int) -> list[tuple[int, ...]]:
    return [votes(s) for s in bit_strings(n)]


def transition(x: Sequence[int], y: Sequence[int], rho: Fraction) -> Fraction:
    """P(y | x) under N_rho: each vote kept with probability (1+rho)/2."""
    p, q = (1 + rho) / 2, (1 - rho) / 2
    out = Fraction(1)
    for a, b in zip(x, y):
        out *= p if a == b else q
    return out


def brute_fourier(table: Sequence[Any], n: int) -> dict[tuple[int, ...], Fraction]:
    xs = profiles(n)
    out = {}
    for k in range(n + 1):
        for S in itertools.combinations(range(n), k):
            total = Fraction(0)
            for x, v in zip(xs, table):
                chi = 1
                for i in S:
                    chi *= x[i]
                total += Fraction(v) * chi
            out[S] = total / len(xs)
    return out


def brute_rows(table: Sequence[int], n: int, rho: Fraction) -> dict[int, list[Fraction]]:
    """M[r][x] = P(f(y) = r | x)."""
    xs = profiles(n)
    rows: dict[int, list[Fraction]] = {1: [], -1: []}
    for x in xs:
        hit = {1: Fraction(0), -1: Fraction(0)}
        for y, v in zip(xs, table):
            hit[int(v)] += transition(x, y, rho)
        rows[1].append(hit[1])
        rows[-1].append(hit[-1])
    return rows


def brute_accuracy(table: Sequence[int], n: int, rho: Fraction) -> Fraction:
    rows = brute_rows(table, n, rho)
    return sum((rows[int(v)][j] for j, v in enumerate(table)), Fraction(0)) / (1 << n)


def brute_epsilon_ratio(table: Sequence[int], n: int, rho: Fraction) -> Fraction:
    """max P(r | x) / P(r | x') over profiles differing in one vote (0 < rho < 1)."""
    rows = brute_rows(table, n, rho)
    labels = bit_strings(n)
    index = {s: j for j, s in enumerate(labels)}
    best = Fraction(1)
    for s in labels:
        for i in range(n):
            t = s[:i] + ("0" if s[i] == "1" else "1") + s[i + 1 :]
            for r in (1, -1):
                a, b = rows[r][index[s]], rows[r][index[t]]
                if a and b:
                    best = max(best, a / b)
    return best


def brute_influence(table: Sequence[Any], n: int, i: int) -> Fraction:
    """E_x[((f(x^{i->1}) - f(x^{i->-1}))/2)^2] by enumeration."""
    labels = bit_strings(n)
    value = {s: Fraction(v) for s, v in zip(labels, table)}
    total = Fraction(0)
    for s in labels:
        if s[i] == "1":
            t = s[:i] + "0" + s[i + 1 :]
            total += ((value[s] - value[t]) / 2) ** 2
    return total / (1 << (n - 1))
