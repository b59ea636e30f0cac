"""The row kernels of cone operations: projection (three methods), containment with witnesses, membership, modes.

:class:`~privgeom.geometry._cone.Cone` delegates here and builds its results from what these functions return: they
work on the stored rows of a cone (primitive integer rows in exact mode, float64 otherwise; see
:mod:`privgeom.geometry._canonical`) and know nothing of the cone type. Projection onto a set of coordinates is the
relaxation step of Lin & Kifer's Section V (Fourier–Motzkin on the facets, or equivalently projecting generators).

Examples
--------
The cone ``x0 ≥ x1 ≥ x2 ≥ 0`` projected onto ``(x0, x2)`` by block elimination: ``x0 ≥ x2 ≥ 0``.

>>> import numpy as np
>>> f = np.array([[1, -1, 0], [0, 1, -1], [0, 0, 1]]); e = np.zeros((0, 3), dtype=np.int64)
>>> p = project(lambda: (f, e), lambda: (None, None), [0, 2], "block", exact=True)
>>> p.kind, p.main.tolist(), p.lineality.shape
('H', [[Fraction(1, 1), Fraction(-1, 1)], [Fraction(0, 1), Fraction(1, 1)]], (0, 2))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, NamedTuple

import numpy as np

from .._core.numeric import max_abs_int, readonly, widen
from . import _cdd
from ._canonical import empty, int_dot, int_rows_to_fractions, normalise_rows, scale_to_integers
from ._cone_results import Containment

__all__ = ["Projected", "RowViolation", "project", "most_violated", "containment", "float_pair", "rows_to_exact",
           "same_dtype"]

#: A cone's stored pair of row blocks: (facets, equalities) or (rays, lineality).
Pair = tuple[np.ndarray, np.ndarray]


# ------------------------------------------------------------------------------------------------------ projection
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


def _project_fourier_motzkin(hrep: Callable[[], Pair], vrep: Callable[[], Pair], keep: list[int],
                             exact: bool) -> Projected:
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


#: The ``method=`` routes of :meth:`Cone.project` (the names of :data:`~privgeom.geometry._cone.PROJECTION_METHODS`).
_PROJECTIONS: dict[str, Callable[[Callable[[], Pair], Callable[[], Pair], list[int], bool], Projected]] = {
    "generators": _project_generators,
    "fourier_motzkin": _project_fourier_motzkin,
    "block": _project_block,
}


def project(hrep: Callable[[], Pair], vrep: Callable[[], Pair], keep: list[int], method: str, *,
            exact: bool) -> Projected:
    """Project a cone onto the coordinates ``keep`` (indices, in the requested order) by ``method`` (all three give
    the same cone, Lin & Kifer Section V). ``hrep()`` / ``vrep()`` return the cone's stored rows (computed on demand:
    a route asks only for the representation it works on)."""
    return _PROJECTIONS[method](hrep, vrep, keep, exact)


# ------------------------------------------------------------------------------------------------------ membership
class RowViolation(NamedTuple):
    """The most violated row of a cone at a point: ``row``, its index into the facets or equalities (``kind``), the
    row ``normal`` and ``value = normal·x``."""

    row: int
    kind: str
    normal: Any
    value: Any


def _dot(a: np.ndarray, x: np.ndarray) -> Any:
    if a.dtype == object or x.dtype == object:
        return sum((u * v for u, v in zip(a, x)), Fraction(0) if a.dtype == object and x.dtype == object else 0.0)
    return float(np.dot(a, x))


def _most_violated_int(hrep: Pair, x: np.ndarray) -> RowViolation | None:
    """Exact :func:`most_violated` on the stored integers: ``x = xi / d`` scaled once, ``a·x = (a·xi) / d``."""
    xi, d = scale_to_integers(x)
    best: RowViolation | None = None
    for kind, rows in zip(("equality", "facet"), (hrep[1], hrep[0])):
        if not len(rows):
            continue
        vals = int_dot(rows, xi.reshape(1, -1))[:, 0]
        bad = np.nonzero(vals != 0 if kind == "equality" else vals < 0)[0]
        worst = 0.0
        for i in bad.tolist():  # the most violated row, scored as a·x / max|a| (first on ties)
            val = Fraction(int(vals[i]), d)
            score = -abs(float(val)) / float(max_abs_int(rows[i]))
            if best is None or score < worst:
                normal = int_rows_to_fractions(rows[i].reshape(1, -1))[0]
                best, worst = RowViolation(row=i, kind=kind, normal=normal, value=val), score
        if best is not None:
            return best
    return best


def most_violated(hrep: Pair, x: np.ndarray, exact: bool, atol: float) -> RowViolation | None:
    """Most violated equality (if any), else most violated facet of the stored rows ``hrep = (facets, equalities)``
    at ``x``; None when ``x`` is in the cone. Float mode: ``a·x ≥ -atol·max|a|·max(1, max|x|)``."""
    if exact:
        return _most_violated_int(hrep, x)
    f, eq = hrep  # integers or floats, compared in float
    f = f.astype(float)
    eq = eq.astype(float)
    x = x.astype(float)
    xs = max(1.0, float(np.abs(x).max()) if x.size else 0.0)
    best: RowViolation | None = None
    worst = 0.0
    for kind, rows in (("equality", eq), ("facet", f)):
        for i, a in enumerate(rows):
            val = _dot(a, x)
            tol = atol * float(np.abs(a).max()) * xs
            bad = abs(val) > tol if kind == "equality" else val < -tol
            score = -abs(val) / float(np.abs(a).max())
            if bad and (best is None or score < worst):
                best, worst = RowViolation(row=i, kind=kind, normal=a, value=val), score
        if best is not None:
            return best
    return best


# ----------------------------------------------------------------------------------------------------- containment
class _Violation(NamedTuple):
    """A generator (``witness``, sign-flipped for a two-sided row) violating the row ``normal`` of a cone:
    ``value = normal·witness`` (``< 0``), ``kind`` ``"facet"`` or ``"equality"``."""

    witness: Any
    normal: Any
    value: Any
    kind: str


def _violation_int(gen: np.ndarray, hrep: Pair, two_sided: bool) -> _Violation | None:
    """Exact :func:`_violation` on integer rows: the generator ``gen`` and a cone's stored integer rows (the
    canonical rows of an exact cone are integers, so ``a·g`` is an integer); same choice, Fractions returned."""
    facets, eqs = hrep
    best: tuple[Any, ...] | None = None
    worst = 0.0
    for kind, rows in (("equality", eqs), ("facet", facets)):
        if not len(rows):
            continue
        vals = int_dot(rows, gen.reshape(1, -1))[:, 0]
        sided = kind == "equality" or two_sided
        bad = np.nonzero(vals != 0 if sided else vals < 0)[0]
        for i in bad.tolist():
            val = int(vals[i])
            flip = sided and val > 0 and kind == "facet"
            score = -abs(float(val)) / float(max_abs_int(rows[i]))
            if best is None or score < worst:
                best, worst = (i, flip, Fraction(-val if flip else val), kind), score
        if best is not None:
            i, flip, val, kind = best
            rows = eqs if kind == "equality" else facets
            w = int_rows_to_fractions(gen.reshape(1, -1))[0]
            normal = int_rows_to_fractions(rows[i].reshape(1, -1))[0]
            return _Violation(witness=-w if flip else w, normal=normal, value=val, kind=kind)
    return None


def _violation(gen: np.ndarray, hrep: Pair, atol: float, two_sided: bool) -> _Violation | None:
    """First (most violated) row of a float cone's ``hrep`` that the generator violates: (witness, normal, value,
    kind)."""
    xs = max(1.0, float(np.abs(gen.astype(float)).max()))
    facets, eqs = hrep
    best: _Violation | None = None
    worst = 0.0
    for kind, rows in (("equality", eqs), ("facet", facets)):
        for a in rows:
            val = float(np.dot(a.astype(float), gen.astype(float)))
            tol = atol * float(np.abs(a.astype(float)).max()) * xs
            w = gen
            if kind == "equality" or two_sided:
                bad = abs(val) > tol
                if bad and val > 0 and kind == "facet":
                    w, val = -gen, -val
            else:
                bad = val < -tol
            score = -abs(float(val)) / float(max(abs(v) for v in a))
            if bad and (best is None or score < worst):
                best, worst = _Violation(witness=w, normal=a, value=val, kind=kind), score
        if best is not None:
            return best
    return best


def _suspects(gens: np.ndarray, two_sided: bool, hrep: Pair, exact: bool, atol: float) -> np.ndarray:
    """Boolean mask of the generators that may violate the cone ``hrep`` (one matrix product instead of a Python
    loop).

    Exact mode is exact (integer arithmetic); float mode flags values below half the tolerance of
    :func:`_violation`, so it never misses a violation that :func:`_violation` would report.
    """
    n = len(gens)
    mask = np.zeros(n, dtype=bool)
    if n == 0:
        return mask
    for kind, rows in (("equality", hrep[1]), ("facet", hrep[0])):
        if len(rows) == 0:
            continue
        if exact:  # stored integer rows on both sides
            vals = int_dot(gens, rows)
            bad = (vals != 0) if (kind == "equality" or two_sided) else (vals < 0)
        else:
            g, r = gens.astype(float), rows.astype(float)
            vals = g.dot(r.T)
            xs = np.maximum(1.0, np.abs(g).max(axis=1))[:, None]
            tol = 0.5 * atol * np.abs(r).max(axis=1)[None, :] * xs
            bad = (np.abs(vals) > tol) if (kind == "equality" or two_sided) else (vals < -tol)
        mask |= np.asarray(bad, dtype=bool).any(axis=1)
    return mask


def containment(vrep: Pair, hrep: Pair, *, exact: bool, atol: float, direction: str) -> Containment:
    """Whether the cone generated by ``vrep = (rays, lineality)`` lies in the cone ``hrep = (facets, equalities)``
    (both stored rows in one mode; ``atol`` the larger cone's): it does iff every generator satisfies every row, so
    a "no" names a generator and the row it violates."""
    rays, lin = vrep
    flags = list(_suspects(rays, False, hrep, exact, atol)) + list(_suspects(lin, True, hrep, exact, atol))
    gens = [(r, False) for r in rays] + [(lv, True) for lv in lin]
    for (g, two_sided), suspect in zip(gens, flags):
        if not suspect:
            continue
        v = _violation_int(g, hrep, two_sided) if exact else _violation(g, hrep, atol, two_sided)
        if v is not None:
            return Containment(holds=False, witness=readonly(np.asarray(v.witness)),
                               violated_normal=readonly(np.asarray(v.normal)), value=v.value, kind=v.kind,
                               direction=direction, exact=exact)
    return Containment(holds=True, witness=None, violated_normal=None, value=None, kind=None, direction=direction,
                       exact=exact)


# ----------------------------------------------------------------------------------------------------------- modes
def same_dtype(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Integer arrays in one dtype: all ``int64``, or all Python ints when any is."""
    return widen(*arrays) if any(a.dtype == object for a in arrays) else arrays


def float_pair(pair: tuple[np.ndarray, np.ndarray] | None, atol: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A stored canonical pair in float mode: rows rescaled to unit max-abs entry (no cdd call); None stays None."""
    if pair is None:
        return None
    main = normalise_rows(pair[0].astype(float), exact=False, atol=atol) if len(pair[0]) else pair[0].astype(float)
    lin = normalise_rows(pair[1].astype(float), exact=False, atol=atol, sign=True) if len(pair[1]) else pair[1].astype(float)
    return main, lin


def rows_to_exact(arr: np.ndarray, max_denominator: int | None) -> np.ndarray:
    """Float rows as Fractions: bit-exact, or ``limit_denominator(max_denominator)`` when given."""
    out = np.empty(arr.shape, dtype=object)
    for idx, v in np.ndenumerate(arr):
        f = Fraction(float(v))
        out[idx] = f.limit_denominator(max_denominator) if max_denominator else f
    return out

