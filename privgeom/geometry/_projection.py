"""Projection of cones: the projection engines of :meth:`Cone.project`, and pair projections in one vectorised pass.

**Projection engines** (:data:`ELIMINATIONS`, the ``method=`` of :meth:`~privgeom.geometry.Cone.project`): the image
of a cone under a coordinate projection is the cone of its projected generators, or the result of eliminating the
dropped coordinates from its facets (Fourier–Motzkin; Lin & Kifer, Section V). ``"generators"`` projects the
generators and leaves the facets of the image to the conversion engines (:mod:`privgeom.geometry._engines`: cdd,
Normaliz or PPL by the ``auto`` rule, verified); ``"fourier_motzkin"`` and ``"block"`` eliminate by pycddlib, and an
exact elimination is checked on the projected generators when the cone stores them (:func:`check_projection`).

**Pair projections.**

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
from typing import Any, Callable, NamedTuple

import numpy as np

from .._core.errors import InvalidInputError, SolverError
from .._core.arrays import readonly
from . import _cdd
from ._canonical import empty
from ._verify import exact_signs

__all__ = [
    "generator_pair_bounds",
    "MAX_PAIR_CHUNK",
    "CANDIDATE_RTOL",
    "PROJECTION_METHODS",
    "ELIMINATIONS",
    "Eliminator",
    "Projected",
    "project",
    "check_projection",
]

#: A cone's stored pair of row blocks: (facets, equalities) or (rays, lineality).
Pair = tuple[np.ndarray, np.ndarray]

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


class Projected(NamedTuple):
    """The rows of a projected cone: ``kind`` ``"H"`` (``main`` facets, ``lineality`` equalities) or ``"V"`` (``main``
    generators, ``lineality`` lineality directions), not yet canonical."""

    kind: str
    main: np.ndarray
    lineality: np.ndarray


def _eliminated_early(facets: np.ndarray, eqs: np.ndarray, keep: list[int], exact: bool) -> Projected | None:
    """The projection when nothing is left to eliminate (no rows, or no coordinate dropped), else None."""
    if len(facets) + len(eqs) == 0:
        return Projected(kind="H", main=empty(len(keep), exact), lineality=empty(len(keep), exact))
    if len(keep) == facets.shape[1]:
        return Projected(kind="H", main=facets[:, keep], lineality=eqs[:, keep])
    return None


def _project_generators(hrep: Callable[[], Pair], vrep: Callable[[], Pair], keep: list[int], exact: bool) -> Projected:
    """``method="generators"``: project the V-representation (``cone(G)`` maps to ``cone(G[:, keep])``); the facets
    are converted back only when asked for. Needs the rays (a double description if only facets are known); Lin &
    Kifer, Section V."""
    rays, lin = vrep()
    return Projected(kind="V", main=rays[:, keep], lineality=lin[:, keep])


def _project_block(hrep: Callable[[], Pair], vrep: Callable[[], Pair], keep: list[int], exact: bool) -> Projected:
    """``method="block"``: eliminate the dropped coordinates of the H-representation at once
    (``cdd.block_elimination``)."""
    facets, eqs = hrep()
    done = _eliminated_early(facets, eqs, keep, exact)
    if done is not None:
        return done
    drop = [j for j in range(facets.shape[1]) if j not in set(keep)]
    f, e = _cdd.block_eliminate(facets, eqs, drop, exact=exact)
    kept_sorted = sorted(keep)
    order = [kept_sorted.index(i) for i in keep]
    return Projected(kind="H", main=f[:, order], lineality=e[:, order])


def _project_fourier_motzkin(
    hrep: Callable[[], Pair], vrep: Callable[[], Pair], keep: list[int], exact: bool
) -> Projected:
    """``method="fourier_motzkin"``: eliminate the dropped coordinates one at a time from the H-representation
    (``cdd.fourier_elimination``; kept coordinates first in the requested order, equalities as two inequalities)."""
    facets, eqs = hrep()
    done = _eliminated_early(facets, eqs, keep, exact)
    if done is not None:
        return done
    drop = [j for j in range(facets.shape[1]) if j not in set(keep)]
    rows = np.concatenate([facets, eqs, -eqs]) if len(eqs) else facets
    rows = rows[:, keep + drop]
    out = _cdd.fourier_eliminate(rows, len(drop), exact=exact)
    return Projected(kind="H", main=out.reshape(len(out), len(keep)), lineality=empty(len(keep), exact))


class Eliminator(NamedTuple):
    """A projection engine: the exact ``engine`` that does the work, the representation it ``works_on`` (``"V"``:
    the generators, whose projected cone's facets are converted later by :func:`~privgeom.geometry._engines.
    facets_verified`; ``"H"``: the facets, eliminated) and its ``route``."""

    engine: str
    works_on: str
    route: Callable[[Callable[[], Pair], Callable[[], Pair], list[int], bool], Projected]


#: The projection engines by ``method=`` of :meth:`Cone.project` (the names of :data:`PROJECTION_METHODS`):
#: projecting the generators (the facets of the image then come from the engine portfolio, ``auto``: cdd, Normaliz or
#: PPL, verified) or eliminating coordinates from the facets by pycddlib (Fourier–Motzkin one coordinate at a time,
#: or block elimination), checked on the projected generators when the cone knows them.
ELIMINATIONS: dict[str, Eliminator] = {
    "generators": Eliminator("auto", "V", _project_generators),
    "fourier_motzkin": Eliminator("cdd", "H", _project_fourier_motzkin),
    "block": Eliminator("cdd", "H", _project_block),
}
#: The methods accepted by :meth:`Cone.project`.
PROJECTION_METHODS = tuple(ELIMINATIONS)
#: The route of each method (the registry of named routes, each with its docstring).
_PROJECTIONS = {name: elim.route for name, elim in ELIMINATIONS.items()}


def _int_rows(rows: np.ndarray) -> np.ndarray:
    """Rational rows scaled positively to integer rows (an object array of Python ints)."""
    out = np.empty(rows.shape, dtype=object)
    for i, r in enumerate(rows.tolist()):
        den = math.lcm(*(Fraction(v).denominator for v in r)) if r else 1
        out[i] = [int(Fraction(v) * den) for v in r]
    return out


def check_projection(p: Projected, vrep: Pair, keep: list[int], engine: str) -> None:
    """An eliminated system ``p`` (kind ``"H"``, exact) holds on every projected generator of the cone with the stored
    generators ``vrep``: each inequality ``≥ 0`` on ``rays[:, keep]``, each equality and each inequality ``= 0`` on
    ``lineality[:, keep]`` (a line stays a line). So the image of the cone lies in the eliminated cone; that nothing
    beyond the image is admitted is trusted to the elimination, as an engine's completeness is (``docs/theory.md``
    §21). Raises :class:`~privgeom.SolverError` naming the engine and the failing row."""
    rays, lin = (np.asarray(a)[:, keep] for a in vrep)
    main, eqs = _int_rows(p.main), _int_rows(p.lineality)
    for rows, gens, what in (
        (main, rays, "inequality"),
        (eqs, rays, "equality"),
        (main, lin, "inequality"),
        (eqs, lin, "equality"),
    ):
        if not (len(rows) and len(gens)):
            continue
        s = exact_signs(rows, gens)
        bad = (s != 0) if (what == "equality" or gens is lin) else (s < 0)
        if bad.any():
            i, j = (int(v) for v in np.argwhere(bad)[0])
            raise SolverError(
                f"{engine} returned a wrong projection: the {what} {rows[i].tolist()} fails on the projected "
                f"generator {gens[j].tolist()}; the answer is refused"
            )


def project(
    hrep: Callable[[], Pair],
    vrep: Callable[[], Pair],
    keep: list[int],
    method: str,
    *,
    exact: bool,
    known_vrep: Pair | None = None,
) -> Projected:
    """Project a cone onto the coordinates ``keep`` (indices, in the requested order) by the projection engine
    ``method`` (all give the same cone, Lin & Kifer Section V). ``hrep()`` / ``vrep()`` return the cone's stored rows
    (computed on demand: a route asks only for the representation it works on); ``known_vrep``, the generators when
    the cone already stores them, checks an exact elimination (:func:`check_projection`).

    Raises
    ------
    InvalidInputError
        An unknown method (the message lists :data:`PROJECTION_METHODS`).

    Examples
    --------
    The cone ``x0 ≥ x1 ≥ x2 ≥ 0`` projected onto ``(x0, x2)`` by block elimination: ``x0 ≥ x2 ≥ 0``.

    >>> f = np.array([[1, -1, 0], [0, 1, -1], [0, 0, 1]]); e = np.zeros((0, 3), dtype=np.int64)
    >>> r = np.array([[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    >>> p = project(lambda: (f, e), lambda: (r, e), [0, 2], "block", exact=True, known_vrep=(r, e))
    >>> p.kind, p.main.tolist(), p.lineality.shape
    ('H', [[Fraction(1, 1), Fraction(-1, 1)], [Fraction(0, 1), Fraction(1, 1)]], (0, 2))
    """
    if method not in ELIMINATIONS:
        raise InvalidInputError(f"unknown projection method {method!r}; choose one of {PROJECTION_METHODS}")
    elim = ELIMINATIONS[method]
    p = elim.route(hrep, vrep, keep, exact)
    if exact and p.kind == "H" and known_vrep is not None:
        check_projection(p, known_vrep, keep, f"{elim.engine} ({method})")
    return p
