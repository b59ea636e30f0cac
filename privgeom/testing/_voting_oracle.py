"""Independent brute-force references for the voting tests (enumeration of profiles, no privgeom.voting code)."""

from __future__ import annotations

import itertools
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any, Sequence

from privgeom.mechanisms._factories import bit_strings


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


# ------------------------------------------------------------------------------------------------ 50-digit references
def decimal_majority_accuracy(n: int, rho: Fraction, digits: int = 50) -> Decimal:
    """Acc(M_rho Maj_n) = 1/2 + Stab/2 with Stab = sum_k rho^k W_k from O'Donnell's closed-form coefficients
    Maj^(S) = (-1)^j C(m, j) / C(n-1, 2j) * C(2m, m) / 4^m (|S| = k = 2j+1, m = (n-1)/2), in `digits`-digit decimals."""
    with localcontext() as ctx:
        ctx.prec = digits
        r = Decimal(rho.numerator) / Decimal(rho.denominator)
        m = (n - 1) // 2
        base = Decimal(1)
        for j in range(1, m + 1):  # C(2m, m) / 4^m
            base = base * (2 * j - 1) / (2 * j)
        ratio, c_nk, rk, total = Decimal(1), Decimal(n), r, Decimal(0)  # C(m,j)/C(n-1,2j), C(n,k), rho^k
        for j in range(m + 1):
            k = 2 * j + 1
            total += rk * c_nk * ratio * ratio
            if j == m:
                break
            ratio = ratio * (m - j) / (j + 1) * (k * (k + 1)) / ((n - k) * (n - k - 1))
            c_nk = c_nk * ((n - k) * (n - k - 1)) / ((k + 1) * (k + 2))
            rk = rk * r * r
        return Decimal(1) / 2 + total * base * base / 2


def _relative_tail(N: int, q: Decimal, s: int) -> Decimal:
    """P(Bin(N, q) >= s) / P(Bin(N, q) = s) for s above the mean (the terms shrink geometrically)."""
    p = 1 - q
    term, total, k = Decimal(1), Decimal(1), s
    while k < N:
        term = term * (N - k) / (k + 1) * q / p
        total += term
        k += 1
        if term < total * Decimal(10) ** (-40):
            break
    return total


def decimal_majority_edge_epsilon(n: int, rho: Fraction, digits: int = 50) -> Decimal:
    """ln P(Maj(y) = 1 | one vote +1) / P(Maj(y) = 1 | no vote +1) for odd n, in decimals: with t = (n+1)/2,
    P(S_0 >= t) = P(Bin(n, q) >= t) and P(S_1 >= t) = p P(Bin(n-1, q) >= t-1) + q P(Bin(n-1, q) >= t); each tail is
    written as its first term times a relative tail, and the first terms' ratios are t/(n q) and (n-t)/(n p)."""
    with localcontext() as ctx:
        ctx.prec = digits
        r = Decimal(rho.numerator) / Decimal(rho.denominator)
        p, q = (1 + r) / 2, (1 - r) / 2
        t = (n + 1) // 2
        r0 = _relative_tail(n, q, t)
        ratio = p * (Decimal(t) / (n * q)) * _relative_tail(n - 1, q, t - 1) / r0
        ratio += q * (Decimal(n - t) / (n * p)) * _relative_tail(n - 1, q, t) / r0
        return ratio.ln()
