"""Distribution reduction (Liu, Wang & Xia, Proposition 5) and the laws of histograms.

``E_{x~π}[δ(x)]`` is multilinear in ``(π_1, …, π_n)``: its maximum over ``conv(Π)^n`` is attained with every
``π_j`` a vertex of ``conv(Π)``. When ``δ(x)`` is symmetric in the agents (always for anonymous, histogram-based
mechanisms) only *how many* agents sit at each vertex matters: a composition ``c`` of ``n`` into ``|V|`` parts, under
which the histogram is ``Σ_v Multinomial(c_v, v)``.

Moving one agent from vertex ``a`` to vertex ``b`` changes the expectation by at most
``TV(a, b) · L`` with ``L = max |δ(h) − δ(h')|`` over neighbouring histograms; :func:`grid_error_bound` turns this
into the certified error of a maximisation over a grid of compositions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any, Iterator, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError
from .._core.arrays import ATOL
from .._core.numbers import is_exact_scalar, parse_scalar, Scalar

__all__ = [
    "parse_distributions",
    "hull_vertices",
    "tv_distance",
    "compositions",
    "count_compositions",
    "grid_compositions",
    "grid_error_bound",
    "multinomial_law",
    "histogram_law",
]


def parse_distributions(
    distributions: Any, k: int | None = None, *, exact: bool | None = None, atol: float = ATOL
) -> tuple[list[list[Scalar]], bool]:
    """Validate probability vectors over the record domain.

    A bare number ``q`` stands for the two-record distribution ``[1 − q, q]``. Returns the rows and whether they
    are exact (every entry rational).

    Examples
    --------
    >>> parse_distributions(["1/4", [Fraction(1, 2), Fraction(1, 2)]])
    ([[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 2), Fraction(1, 2)]], True)
    >>> parse_distributions([[0.5, 0.5]])[1]
    False
    """
    if isinstance(distributions, (str, bytes)) or not hasattr(distributions, "__iter__"):
        raise InvalidTypeError(f"distributions must be a list of probability vectors, got {distributions!r}")
    raw: list[list[Any]] = []
    for d in distributions:
        if isinstance(d, (str, int, float, Fraction, np.number)):
            raw.append(["__1-q__", d])
        else:
            raw.append(list(d))
    if not raw:
        raise InvalidParameterError("at least one distribution is needed")
    flat = [v for r in raw for v in r if not (isinstance(v, str) and v == "__1-q__")]
    if exact is None:
        exact = all(is_exact_scalar(v) for v in flat)
    rows: list[list[Scalar]] = []
    for r in raw:
        if isinstance(r[0], str) and r[0] == "__1-q__":
            q = parse_scalar(r[1], name="q", exact=exact)
            r = [1 - q, q]
        rows.append([parse_scalar(v, name="probability", exact=exact) for v in r])
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise InvalidParameterError(f"distributions have different lengths {sorted(widths)}")
    if k is not None and widths != {k}:
        raise InvalidParameterError(f"distributions must have {k} entries (one per record), got {widths.pop()}")
    for r in rows:
        if any(v < 0 for v in r):
            raise InvalidParameterError(f"distribution {[str(v) for v in r]} has a negative entry")
        s = sum(r)
        if (exact and s != 1) or (not exact and abs(float(s) - 1.0) > atol):
            raise InvalidParameterError(f"distribution {[str(v) for v in r]} sums to {s}, not 1")
    return rows, bool(exact)


def tv_distance(p: Sequence[Scalar], q: Sequence[Scalar]) -> Scalar:
    """Total-variation distance ``Σ (p − q)₊``.

    Examples
    --------
    >>> tv_distance([Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)])
    Fraction(1, 4)
    """
    return sum((a - b for a, b in zip(p, q) if a > b), Fraction(0) if all(isinstance(v, Fraction) for v in p) else 0.0)


#: Singular values below ``RANK_FACTOR · atol · max(1, largest)`` count as zero (the affine hull's dimension).
RANK_FACTOR = 10


def _vertices_float(pts: np.ndarray, atol: float) -> list[int]:
    from scipy.spatial import ConvexHull, QhullError

    centred = pts - pts.mean(axis=0)
    if not np.any(np.abs(centred) > atol):
        return [0]
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    rank = int(np.sum(s > atol * max(1.0, s[0]) * RANK_FACTOR))
    coords = centred @ vt[:rank].T
    if rank == 1:
        c = coords[:, 0]
        return sorted({int(np.argmin(c)), int(np.argmax(c))})
    try:
        hull = ConvexHull(coords)
    except QhullError as err:  # pragma: no cover - degenerate input already handled by the rank test
        from .._core.errors import SolverError

        raise SolverError(f"qhull failed on the distributions: {err}") from None
    return sorted(int(v) for v in hull.vertices)


def hull_vertices(
    distributions: Sequence[Sequence[Scalar]], *, exact: bool | None = None, atol: float = ATOL
) -> list[int]:
    """Indices of the distributions that are vertices of their convex hull (one index per distinct vertex).

    Exact rows use the core's exact :class:`~privgeom.geometry.Cone` (pycddlib, GMP rationals) on the homogenised
    points ``(1, π)``; float rows use qhull after projecting onto their affine hull (so a segment — two candidates —
    or a single point is handled).

    Examples
    --------
    >>> rows, _ = parse_distributions(["1/10", "1/2", "3/10", "1/10"])
    >>> hull_vertices(rows)
    [0, 1]
    >>> hull_vertices([[0.2, 0.3, 0.5], [0.5, 0.3, 0.2], [0.35, 0.3, 0.35], [0.3, 0.4, 0.3]])
    [0, 1, 3]
    """
    if exact is None:
        exact = all(isinstance(v, Fraction) for r in distributions for v in r)
    # first occurrence of each distinct point
    seen: dict[tuple, int] = {}
    for i, r in enumerate(distributions):
        key = tuple(Fraction(v) for v in r) if exact else tuple(round(float(v) / atol) for v in r)
        seen.setdefault(key, i)
    uniq = sorted(seen.values())
    if len(uniq) == 1:
        return uniq
    if exact:
        from ..geometry import Cone

        gens = [[Fraction(1)] + [Fraction(v) for v in distributions[i]] for i in uniq]
        rays = Cone.from_generators(gens, exact=True).rays
        keep = []
        for ray in rays:
            pt = tuple(Fraction(v) / Fraction(ray[0]) for v in ray[1:])
            keep.append(seen[pt])
        return sorted(keep)
    pts = np.array([[float(v) for v in distributions[i]] for i in uniq])
    return sorted(uniq[j] for j in _vertices_float(pts, atol))


# ---------------------------------------------------------------------------------------------------- compositions
def count_compositions(n: int, parts: int) -> int:
    """Number of ways to place ``n`` agents on ``parts`` vertices: ``C(n + parts − 1, parts − 1)``."""
    return math.comb(n + parts - 1, parts - 1)


def compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """All ``(c_1..c_parts)`` with ``c_v >= 0`` and ``Σ c_v = n`` (lexicographically decreasing in ``c_1``).

    Examples
    --------
    >>> list(compositions(2, 2))
    [(2, 0), (1, 1), (0, 2)]
    """
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in compositions(n - first, parts - 1):
            yield (first,) + rest


def grid_compositions(n: int, parts: int, step: int) -> list[tuple[int, ...]]:
    """Compositions whose first ``parts − 1`` counts are multiples of ``step`` (the last absorbs the rest).

    For two vertices the grid also contains ``(n, 0)``, so every count is within ``⌊gap/2⌋`` moves of it.

    Examples
    --------
    >>> grid_compositions(5, 2, 2)
    [(0, 5), (2, 3), (4, 1), (5, 0)]
    """
    if step < 1:
        raise InvalidParameterError(f"grid step must be >= 1, got {step}")
    out: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == parts - 1:
            out.append(prefix + (left,))
            return
        for c in range(0, left + 1, step):
            rec(prefix + (c,), left - c)

    rec((), n)
    if parts == 2 and (n, 0) not in out:
        out.append((n, 0))
    return out


def grid_error_bound(n: int, parts: int, step: int, tvs: Sequence[Scalar], lipschitz: Scalar) -> Scalar:
    """Certified gap between the maximum over all compositions and over :func:`grid_compositions`.

    ``tvs[v]`` is ``TV(vertex v, last vertex)``; ``lipschitz`` is ``max |δ(h) − δ(h')|`` over neighbouring
    histograms. Moving one agent between vertices ``a`` and ``b`` changes ``E[δ]`` by at most
    ``TV(a, b)·lipschitz``; every composition reaches the grid by at most ``step − 1`` moves per vertex into the
    last one (``⌊(step)/2⌋``-ish for two vertices: half the largest gap).

    Examples
    --------
    >>> grid_error_bound(10, 2, 4, [Fraction(1, 5), 0], Fraction(1, 10))
    Fraction(1, 25)
    """
    if step <= 1:
        return Fraction(0) if isinstance(lipschitz, Fraction) else 0.0
    if parts == 2:
        grid = sorted(c[0] for c in grid_compositions(n, 2, step))
        gap = max(b - a for a, b in zip(grid, grid[1:]))
        return (gap // 2) * tvs[0] * lipschitz
    return (step - 1) * sum(tvs[:-1]) * lipschitz


# ---------------------------------------------------------------------------------------------------- laws
def multinomial_law(m: int, p: Sequence[Scalar]) -> dict[tuple[int, ...], Scalar]:
    """Law of the histogram of ``m`` i.i.d. records drawn from ``p``: ``{histogram: probability}``.

    Examples
    --------
    >>> multinomial_law(2, [Fraction(1, 4), Fraction(3, 4)])
    {(2, 0): Fraction(1, 16), (1, 1): Fraction(3, 8), (0, 2): Fraction(9, 16)}
    """
    k = len(p)
    exact = all(isinstance(v, Fraction) for v in p)
    one: Scalar = Fraction(1) if exact else 1.0
    out: dict[tuple[int, ...], Scalar] = {}
    for combo in combinations_with_replacement(range(k), m):
        h = [0] * k
        for c in combo:
            h[c] += 1
        coef = math.factorial(m)
        prob = one
        for j, hj in enumerate(h):
            coef //= math.factorial(hj)
            prob = prob * p[j] ** hj
        out[tuple(h)] = coef * prob
    return out


def _convolve(a: dict[tuple[int, ...], Scalar], b: dict[tuple[int, ...], Scalar]) -> dict[tuple[int, ...], Scalar]:
    out: dict[tuple[int, ...], Scalar] = {}
    for ha, pa in a.items():
        if pa == 0:
            continue
        for hb, pb in b.items():
            if pb == 0:
                continue
            h = tuple(x + y for x, y in zip(ha, hb))
            out[h] = out.get(h, 0) + pa * pb
    return out


def histogram_law(counts: Sequence[int], vertices: Sequence[Sequence[Scalar]]) -> dict[tuple[int, ...], Scalar]:
    """Law of the histogram when ``counts[v]`` agents draw their record from ``vertices[v]`` (Poisson multinomial).

    Examples
    --------
    >>> law = histogram_law([1, 1], [[Fraction(1), Fraction(0)], [Fraction(1, 2), Fraction(1, 2)]])
    >>> sorted(law.items())
    [((1, 1), Fraction(1, 2)), ((2, 0), Fraction(1, 2))]
    """
    law: dict[tuple[int, ...], Scalar] | None = None
    for c, v in zip(counts, vertices):
        if c == 0:
            continue
        part = multinomial_law(c, v)
        law = part if law is None else _convolve(law, part)
    if law is None:
        k = len(vertices[0])
        exact = all(isinstance(x, Fraction) for x in vertices[0])
        return {tuple([0] * k): Fraction(1) if exact else 1.0}
    return law
