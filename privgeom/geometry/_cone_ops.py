"""Operations on cones: projection (three methods), intersection, containment with witnesses, mode changes.

The methods of :class:`~privgeom.geometry._cone.Cone` delegate here. Projection onto a set of coordinates is the
relaxation step of Lin & Kifer's Section V (Fourier–Motzkin on the facets, or equivalently projecting generators).

Examples
--------
>>> from privgeom.geometry import Cone
>>> c = Cone.from_generators([[1, 2, 3], [0, 1, 1]], labels=["a", "b", "c"])
>>> [project(c, [2, 0], m).rays.tolist() for m in ("generators", "block")]
[[[Fraction(3, 1), Fraction(1, 1)], [Fraction(1, 1), Fraction(0, 1)]], [[Fraction(3, 1), Fraction(1, 1)], [Fraction(1, 1), Fraction(0, 1)]]]
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import numpy as np

from .._core.errors import DomainMismatchError, InvalidTypeError
from .._core.numeric import max_abs_int, readonly, widen
from . import _cdd
from ._canonical import canonical_pair, empty, int_dot, int_rows_to_fractions, normalise_rows
from ._cone_results import Containment

if TYPE_CHECKING:  # pragma: no cover
    from ._cone import Cone  # the cones passed in build their results (type(cone)): no import of _cone at run time

__all__ = ["project", "intersect", "issubset", "equals", "to_float", "to_exact"]


class _Elimination(NamedTuple):
    """The H-representation an elimination works on (integer rows in exact mode) and the coordinates it drops, or
    ``done``: the projection itself when nothing is left to eliminate."""

    done: Cone | None
    facets: np.ndarray
    equalities: np.ndarray
    drop: list[int]


def _elimination(cone: Cone, keep: list[int]) -> _Elimination:
    ex = cone.exact
    labels = [cone.labels[i] for i in keep]
    facets, eqs = (cone.int_facets, cone.int_equalities) if ex else (cone.facets, cone.equalities)
    drop = [j for j in range(cone.ambient_dim) if j not in set(keep)]
    done = None
    if len(facets) + len(eqs) == 0:
        done = type(cone).from_facets(empty(len(keep), ex), exact=ex, labels=labels, atol=cone.atol)
    elif not drop:
        done = type(cone).from_facets(facets[:, keep], eqs[:, keep], exact=ex, labels=labels, atol=cone.atol)
    return _Elimination(done=done, facets=facets, equalities=eqs, drop=drop)


def _project_generators(cone: Cone, keep: list[int]) -> Cone:
    """``method="generators"``: project the V-representation (``cone(G)`` maps to ``cone(G[:, keep])``); the facets
    are converted back only when asked for. Needs the rays (a double description if only facets are known); Lin &
    Kifer, Section V."""
    ex = cone.exact
    rays, lin = (cone.int_rays, cone.int_lineality) if ex else (cone.rays, cone.lineality)
    return type(cone).from_generators(rays[:, keep], lin[:, keep], exact=ex, labels=[cone.labels[i] for i in keep],
                                      atol=cone.atol)


def _project_block(cone: Cone, keep: list[int]) -> Cone:
    """``method="block"``: eliminate the dropped coordinates of the H-representation at once
    (``cdd.block_elimination``)."""
    h = _elimination(cone, keep)
    if h.done is not None:
        return h.done
    f, e = _cdd.block_eliminate(h.facets, h.equalities, h.drop, exact=cone.exact)
    kept_sorted = sorted(keep)
    order = [kept_sorted.index(i) for i in keep]
    return type(cone).from_facets(f[:, order], e[:, order], exact=cone.exact, labels=[cone.labels[i] for i in keep],
                                  atol=cone.atol)


def _project_fourier_motzkin(cone: Cone, keep: list[int]) -> Cone:
    """``method="fourier_motzkin"``: eliminate the dropped coordinates one at a time from the H-representation
    (``cdd.fourier_elimination``; kept coordinates first in the requested order, equalities as two inequalities)."""
    h = _elimination(cone, keep)
    if h.done is not None:
        return h.done
    rows = np.concatenate([h.facets, h.equalities, -h.equalities]) if len(h.equalities) else h.facets
    rows = rows[:, keep + h.drop]
    out = _cdd.fourier_eliminate(rows, len(h.drop), exact=cone.exact)
    return type(cone).from_facets(out.reshape(len(out), len(keep)), exact=cone.exact,
                                  labels=[cone.labels[i] for i in keep], atol=cone.atol)


#: The ``method=`` routes of :meth:`Cone.project` (the names of :data:`~privgeom.geometry.PROJECTION_METHODS`).
_PROJECTIONS: dict[str, Callable[[Cone, list[int]], Cone]] = {
    "generators": _project_generators,
    "fourier_motzkin": _project_fourier_motzkin,
    "block": _project_block,
}


def project(cone: Cone, keep: list[int], method: str) -> Cone:
    """Project ``cone`` onto the coordinates ``keep`` (indices, in the requested order) by ``method`` (all three give
    the same cone, Lin & Kifer Section V)."""
    return _PROJECTIONS[method](cone, keep)


class _Pair(NamedTuple):
    """Two cones in one mode (both exact, or both float) and that mode."""

    a: Cone
    b: Cone
    exact: bool


class _Violation(NamedTuple):
    """A generator (``witness``, sign-flipped for a two-sided row) violating the row ``normal`` of a cone:
    ``value = normal·witness`` (``< 0``), ``kind`` ``"facet"`` or ``"equality"``."""

    witness: Any
    normal: Any
    value: Any
    kind: str


def _common(a: Cone, b: Cone, what: str) -> _Pair:
    if not isinstance(b, type(a)):
        raise InvalidTypeError(f"{what} needs another Cone, got {type(b).__name__}")
    if a.labels != b.labels:
        raise DomainMismatchError(
            f"{what}: the cones have different coordinate labels {list(a.labels)[:8]} and {list(b.labels)[:8]}"
        )
    if a.exact and b.exact:
        return _Pair(a=a, b=b, exact=True)
    return _Pair(a=a.to_float() if a.exact else a, b=b.to_float() if b.exact else b, exact=False)


def intersect(a: Cone, b: Cone) -> Cone:
    """``a ∩ b``; exact when both are, otherwise float (the exact one converted)."""
    a, b, ex = _common(a, b, "intersect")
    if ex:  # the stored integer rows (int64 and Python-int blocks concatenate to Python ints)
        f = np.concatenate(_same_dtype(a.int_facets, b.int_facets))
        e = np.concatenate(_same_dtype(a.int_equalities, b.int_equalities))
        return type(a).from_facets(f, e, exact=True, labels=a.labels, atol=max(a.atol, b.atol))
    f = np.concatenate([a.facets, b.facets])
    e = np.concatenate([a.equalities, b.equalities])
    return type(a).from_facets(f, e, exact=ex, labels=a.labels, atol=max(a.atol, b.atol))


def _same_dtype(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Integer arrays in one dtype: all ``int64``, or all Python ints when any is."""
    return widen(*arrays) if any(a.dtype == object for a in arrays) else arrays


def _violation_int(gen: np.ndarray, cone: Cone, two_sided: bool) -> _Violation | None:
    """Exact :func:`_violation` on integer rows: the generator ``gen`` and ``cone``'s stored integer rows (the
    canonical rows of an exact cone are integers, so ``a·g`` is an integer); same choice, Fractions returned."""
    best: tuple[Any, ...] | None = None
    worst = 0.0
    for kind, rows in (("equality", cone.int_equalities), ("facet", cone.int_facets)):
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
            rows = cone.int_equalities if kind == "equality" else cone.int_facets
            w = int_rows_to_fractions(gen.reshape(1, -1))[0]
            normal = int_rows_to_fractions(rows[i].reshape(1, -1))[0]
            return _Violation(witness=-w if flip else w, normal=normal, value=val, kind=kind)
    return None


def _violation(gen: np.ndarray, cone: Cone, exact: bool, two_sided: bool) -> _Violation | None:
    """First (most violated) row of ``cone`` that the generator violates: (witness, normal, value, kind)."""
    xs = 1.0 if exact else max(1.0, float(np.abs(gen.astype(float)).max()))
    atol = cone.atol
    best: _Violation | None = None
    worst = 0.0
    for kind, rows in (("equality", cone.equalities), ("facet", cone.facets)):
        for a in rows:
            if exact:
                val: Any = sum((u * v for u, v in zip(a, gen)), Fraction(0))
                tol = 0.0
            else:
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


def _suspects(gens: np.ndarray, two_sided: bool, cone: Cone, exact: bool) -> np.ndarray:
    """Boolean mask of the generators that may violate ``cone`` (one matrix product instead of a Python loop).

    Exact mode is exact (integer arithmetic); float mode flags values below half the tolerance of
    :func:`_violation`, so it never misses a violation that :func:`_violation` would report.
    """
    n = len(gens)
    mask = np.zeros(n, dtype=bool)
    if n == 0:
        return mask
    for kind, rows in (("equality", cone.int_equalities if exact else cone.equalities),
                       ("facet", cone.int_facets if exact else cone.facets)):
        if len(rows) == 0:
            continue
        if exact:  # stored integer rows on both sides
            vals = int_dot(gens, rows)
            bad = (vals != 0) if (kind == "equality" or two_sided) else (vals < 0)
        else:
            g, r = gens.astype(float), rows.astype(float)
            vals = g.dot(r.T)
            xs = np.maximum(1.0, np.abs(g).max(axis=1))[:, None]
            tol = 0.5 * cone.atol * np.abs(r).max(axis=1)[None, :] * xs
            bad = (np.abs(vals) > tol) if (kind == "equality" or two_sided) else (vals < -tol)
        mask |= np.asarray(bad, dtype=bool).any(axis=1)
    return mask


def issubset(a: Cone, b: Cone, direction: str = "self <= other") -> Containment:
    """``a ⊆ b`` iff every generator of ``a`` satisfies the H-representation of ``b``."""
    a, b, ex = _common(a, b, "issubset")
    rays, lin = (a.int_rays, a.int_lineality) if ex else (a.rays, a.lineality)
    flags = list(_suspects(rays, False, b, ex)) + list(_suspects(lin, True, b, ex))
    gens = [(r, False) for r in rays] + [(lv, True) for lv in lin]
    for (g, two_sided), suspect in zip(gens, flags):
        if not suspect:
            continue
        v = _violation_int(g, b, two_sided) if ex else _violation(g, b, ex, two_sided)
        if v is not None:
            return Containment(holds=False, witness=readonly(np.asarray(v.witness)),
                               violated_normal=readonly(np.asarray(v.normal)), value=v.value, kind=v.kind,
                               direction=direction, exact=ex)
    return Containment(holds=True, witness=None, violated_normal=None, value=None, kind=None, direction=direction,
                       exact=ex)


def equals(a: Cone, b: Cone) -> Containment:
    """``a == b`` as two containments; the first failing direction is reported with its witness."""
    first = issubset(a, b, "self <= other")
    if not first.holds:
        return first
    second = issubset(b, a, "other <= self")
    if not second.holds:
        return second
    return Containment(holds=True, witness=None, violated_normal=None, value=None, kind=None, direction="both",
                       exact=first.exact and second.exact)


def _float_pair(pair: tuple[np.ndarray, np.ndarray] | None, atol: float) -> tuple[np.ndarray, np.ndarray] | None:
    if pair is None:
        return None
    main = normalise_rows(pair[0].astype(float), exact=False, atol=atol) if len(pair[0]) else pair[0].astype(float)
    lin = normalise_rows(pair[1].astype(float), exact=False, atol=atol, sign=True) if len(pair[1]) else pair[1].astype(float)
    return main, lin


def to_float(cone: Cone) -> Cone:
    """Float copy of ``cone`` (canonical rows rescaled to unit max-abs entry; no cdd call)."""
    if not cone.exact:
        return cone
    if cone._h is None and cone._v is None:
        cone._hrep()  # a structured cone not built yet (size-checked)
    h = _float_pair(cone._h, cone.atol)
    v = _float_pair(cone._v, cone.atol)
    return type(cone)._make(cone.labels, False, cone.atol, h, v)


def to_exact(cone: Cone, *, max_denominator: int | None = None) -> Cone:
    """Exact copy of a float cone (bit-exact or ``limit_denominator`` conversion, then ``cdd.gmp`` canonical form)."""
    if cone.exact:
        return cone

    def conv(arr: np.ndarray) -> np.ndarray:
        out = np.empty(arr.shape, dtype=object)
        for idx, v in np.ndenumerate(arr):
            f = Fraction(float(v))
            out[idx] = f.limit_denominator(max_denominator) if max_denominator else f
        return out

    if cone._h is not None:
        f, e = cone._h
        return type(cone).from_facets(conv(f), conv(e), exact=True, labels=cone.labels, atol=cone.atol)
    r, lin = cone.rays, cone.lineality
    return type(cone).from_generators(conv(r), conv(lin), exact=True, labels=cone.labels, atol=cone.atol)


__all__ += ["canonical_pair"]  # re-exported for tests of the canonical form
