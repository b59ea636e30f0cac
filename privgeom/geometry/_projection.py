"""Projection of a cone given by generators onto pairs of coordinates: an interval of ratios, in one vectorised pass.

The projection of ``cone(G)`` onto coordinates ``S`` is the cone of the projected generators ``G[:, S]`` (Lin & Kifer,
Section V: relaxing a definition keeps exactly the inequalities over ``S``). For a pair ``(a, b)`` and non-negative
generators it is the set of ``(x_a, x_b) ≥ 0`` with

    min_g g_a / g_b  ≤  x_a / x_b  ≤  max_g g_a / g_b,

so it is described by two ratio bounds ``x_a ≤ c_ab x_b`` (``c_ab = max_g g_a / g_b``) and ``x_b ≤ c_ba x_a``. Zeros:
a generator with ``g_b = 0 < g_a`` makes ``c_ab`` infinite; generators with ``g_a = g_b = 0`` say nothing; when every
generator has ``g_b = 0`` and ``g_a = 0`` the projection is ``{0}`` (``c_ab = 0``); ``g_a = 0 < g_b`` contributes ratio 0.

Exact mode compares the ratios exactly: generators are scaled to integers (ratios do not change), the float ratios
pick the candidates within a relative :data:`CANDIDATE_RTOL` of the maximum, and the maximum among those is taken in
Fractions.

Examples
--------
>>> import numpy as np
>>> from fractions import Fraction as F
>>> G = np.array([[F(3, 4), F(1, 4), 0], [F(1, 4), F(3, 4), 1]], dtype=object)
>>> fwd, bwd = generator_pair_bounds(G, [0, 0], [1, 2], exact=True)
>>> fwd.tolist(), bwd.tolist()
([Fraction(3, 1), inf], [Fraction(3, 1), Fraction(4, 1)])
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.errors import InvalidInputError
from .._core.arrays import readonly

__all__ = ["generator_pair_bounds", "MAX_PAIR_CHUNK", "CANDIDATE_RTOL"]

#: Largest ``#generators × #pairs`` block of ratios held at once (the pairs are processed in chunks).
MAX_PAIR_CHUNK = 2**22
#: Exact mode: generators whose float ratio is within this relative margin of the float maximum are compared in
#: Fractions. Float ratios of integers are off by a few ulps (about 1e-16 relative), so a margin far above that
#: never misses the exact maximum; it only decides how many candidates are checked exactly.
CANDIDATE_RTOL = 1e-9


def _integer_generators(G: np.ndarray) -> np.ndarray:
    """Exact generators scaled positively to Python integers, row by row (ratios within a row unchanged)."""
    out = np.empty(G.shape, dtype=object)
    for i, row in enumerate(G):
        den = 1
        for v in row:
            den = den * Fraction(v).denominator // math.gcd(den, Fraction(v).denominator)
        out[i] = [int(Fraction(v) * den) for v in row]
    return out


def _max_ratio(
    num: np.ndarray, den: np.ndarray, inum: np.ndarray | None, iden: np.ndarray | None, exact: bool
) -> np.ndarray:
    """Column-wise ``max_g num[g] / den[g]`` with the zero rules of the module doc; ``num``, ``den``: (m, P) floats."""
    m, P = num.shape
    out = np.empty(P, dtype=object if exact else float)
    pos_den = den > 0
    unbounded = np.asarray(((num > 0) & ~pos_den).any(axis=0), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(pos_den, num / np.where(pos_den, den, 1.0), -np.inf)
    best = ratio.max(axis=0) if m else np.full(P, -np.inf)
    for p in range(P):
        if unbounded[p]:
            out[p] = math.inf
        elif best[p] == -np.inf:
            out[p] = Fraction(0) if exact else 0.0  # every generator is zero on both coordinates
        elif not exact:
            out[p] = float(best[p])
        else:
            assert inum is not None and iden is not None
            cand = np.nonzero(pos_den[:, p] & (ratio[:, p] >= best[p] * (1 - CANDIDATE_RTOL)))[0]
            out[p] = max(Fraction(int(inum[g, p]), int(iden[g, p])) for g in cand)
    return out


def generator_pair_bounds(G: Any, ia: Any, ib: Any, *, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """Ratio bounds of the projections of ``cone(G)`` onto the pairs ``(ia[t], ib[t])`` (see the module doc).

    Parameters
    ----------
    G : 2-D array, shape (m, N)
        Non-negative generators (rays) as rows; Fractions in exact mode.
    ia, ib : sequences of int
        Coordinate indices of the pairs.
    exact : bool

    Returns
    -------
    forward, backward : object (exact) or float arrays
        ``forward[t] = sup x_a / x_b`` and ``backward[t] = sup x_b / x_a`` over the cone (``math.inf`` unbounded).

    Raises
    ------
    InvalidInputError
        A negative generator entry (the projection is then no interval of ratios inside the orthant).
    """
    A = np.asarray(G)
    ia = np.asarray(ia, dtype=np.int64)
    ib = np.asarray(ib, dtype=np.int64)
    F = A.astype(float)
    if (F < 0).any():
        raise InvalidInputError("generator_pair_bounds needs non-negative generators (a row cone of mechanisms)")
    Ai = _integer_generators(A) if exact else None
    m = max(1, A.shape[0])
    chunk = max(1, MAX_PAIR_CHUNK // m)
    fwd = np.empty(len(ia), dtype=object if exact else float)
    bwd = np.empty(len(ia), dtype=object if exact else float)
    for s in range(0, len(ia), chunk):
        a, b = ia[s : s + chunk], ib[s : s + chunk]
        Fa, Fb = F[:, a], F[:, b]
        Ia = Ai[:, a] if Ai is not None else None
        Ib = Ai[:, b] if Ai is not None else None
        fwd[s : s + chunk] = _max_ratio(Fa, Fb, Ia, Ib, exact)
        bwd[s : s + chunk] = _max_ratio(Fb, Fa, Ib, Ia, exact)
    return readonly(fwd), readonly(bwd)
