"""Output-sensitive redundancy removal: Clarkson's algorithm, one LP per candidate row, with exact certificates.

A system of rows ``a_1, …, a_n`` in ``R^N`` — inequalities ``a·x ≥ 0`` of an H-representation, or generators of a
V-representation — has a row ``a_i`` *redundant* iff ``a_i`` is a nonnegative combination of the others (Farkas'
lemma: the inequality is implied, the generator is not extreme). pycddlib tests every row against all the others;
Clarkson's algorithm (K. L. Clarkson, "More output-sensitive geometric algorithms", FOCS 1994; in the form of
Fukuda, *Polyhedral Computation*, 2020, Section 7.2) keeps a set ``R`` of rows already proven irredundant and
tests each candidate against ``R`` only, so the LPs stay as small as the *answer*:

1. find an interior point ``z`` (``a_k·z > 0`` for every row; it exists iff there is no implicit equality / the
   generated cone is pointed — otherwise the system is handed to cdd);
2. for each candidate ``a_i``: if ``a_i ∈ cone(R)`` it is redundant (certificate ``λ ≥ 0``, ``Rᵀλ = a_i``);
   otherwise an LP gives ``x*`` with ``R x* ≥ 0 > a_i·x*``; walking from ``z`` to ``x*`` the first hyperplane
   ``a_j·x = 0`` crossed is a row that is irredundant among *all* rows (certificate: a point ``w`` just past it that
   violates ``a_j`` alone); ``a_j`` joins ``R`` and ``a_i`` is tested again.

Every certificate is exact: ``z`` and ``w`` are checked on the integer rows (:func:`~privgeom.geometry._verify.
exact_signs`), and ``λ`` is recovered from HiGHS's optimal basis by
:func:`~privgeom.geometry._exact_lp.exact_basis_solution` (exact primal feasibility checked). A certificate that does
not verify sends the whole system to cdd's exact redundancy removal; an LP failure is an error.

Examples
--------
>>> import numpy as np
>>> rows = np.array([[1, 0], [0, 1], [1, 1], [2, 1], [1, 3]], dtype=object)
>>> kept, lin = canonicalize(rows, rows[:0], kind="H", exact=True, method="clarkson")
>>> sorted(map(tuple, kept.tolist())), lin.shape
([(0, 1), (1, 0)], (0, 2))
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.arrays import ATOL, ROUNDOFF
from .._core.errors import InvalidParameterError
from . import _cdd
from ._canonical import _primitive_ints
from ._structure import ConeStructure
from ._verify import exact_signs

__all__ = [
    "canonicalize",
    "clarkson",
    "CLARKSON_MIN_ENTRIES",
    "CLARKSON_MIN_V_ENTRIES",
    "REDUNDANCY_METHODS",
    "irredundant_by_orbits",
    "symmetric_facets",
    "symmetric_structure",
    "ORBIT_MIN_ENTRIES",
]

#: ``method="auto"`` runs Clarkson's algorithm from this many input entries (rows x (dimension + 1)) on; below it
#: cdd's serial redundancy removal is faster (``benchmarks/bench_engines.py``).
CLARKSON_MIN_ENTRIES = 3_000
#: The same for generators (``kind="V"``): random mechanisms' rows, all extreme, are proven so by the LP-free seeding,
#: while cdd's exact removal takes an LP each — 24 x 12: cdd 0.57 s, Clarkson 0.09 s; 30 x 16: 2.1 s / 0.10 s;
#: 12 x 8: 0.05 s / 0.06 s (best of two, ``benchmarks/bench_engines.py``'s mechanisms).
CLARKSON_MIN_V_ENTRIES = 150
#: Walks per block of the LP-free seeding (bounds its n x block float arrays).
SEED_BLOCK = 512
#: Rounds of LP-free seeding (each from another random interior point).
SEED_ROUNDS = 6
#: Ray shots per candidate before Clarkson's algorithm gives the system to cdd.
SHOTS = 6
#: :func:`symmetric_facets` tests one row per orbit from this many input entries (rows x (dimension + 1)) on; below
#: it the plain routes are as fast and the caller keeps them.
ORBIT_MIN_ENTRIES = CLARKSON_MIN_ENTRIES
#: The margin ``t`` (rows of unit Euclidean norm, ``|x| ≤ 1``) above which the LP of :func:`_violated_alone` counts a
#: row as irredundant; its witness is then checked exactly, and a row below it must have an exact certificate of
#: redundancy, so the threshold only decides which certificate is looked for.
ALONE_MARGIN = 1e-9
#: The methods of :func:`canonicalize`.
REDUNDANCY_METHODS = ("auto", "cdd", "clarkson")


def _primitive(rows: np.ndarray) -> list[tuple[int, ...]]:
    return [tuple(_primitive_ints(r)) for r in rows.tolist()]


def _int_array(rows: list[tuple[int, ...]], dim: int) -> np.ndarray:
    arr = np.empty((len(rows), dim), dtype=object)
    if rows:
        arr[:] = [list(r) for r in rows]
    try:
        return arr.astype(np.int64) if rows and max(abs(v) for r in rows for v in r) < 2**62 else arr
    except OverflowError:  # pragma: no cover - guarded by the bound
        return arr


def _scaled(x: Any) -> np.ndarray:
    """A rational vector as a primitive integer row (a positive multiple of it), as an object array."""
    fr = [Fraction(v) for v in x]
    den = math.lcm(*(v.denominator for v in fr))
    ints = [int(v * den) for v in fr]
    g = math.gcd(*ints) or 1
    out = np.empty((1, len(ints)), dtype=object)
    out[0, :] = [v // g for v in ints]
    return out


def _interior(A: np.ndarray, Af: np.ndarray, seed: int = 0) -> np.ndarray | None:
    """An integer ``z`` with ``A z > 0`` exactly (HiGHS: ``A z ≥ 1``), or None when there is none or it does not
    verify."""
    from ._lp import solve_lp

    n, dim = Af.shape
    # a central point: max t s.t. a_k·z ≥ t·|a_k| (rows of unit max-abs), -1 ≤ z ≤ 1 (a Chebyshev-type centre)
    norms = np.linalg.norm(Af, axis=1)
    c = np.zeros(dim + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-Af, norms[:, None]])
    res = solve_lp(c, A_ub=A_ub, b_ub=np.zeros(n), bounds=[(-1, 1)] * dim + [(None, 1)], what="interior point")
    if res.status != "optimal" or res.x is None or res.x[-1] <= ATOL:
        return None
    margin = float(res.x[-1])
    # a generic interior point (random, seeded): symmetric inputs would otherwise put ties on every ray shot
    rng = np.random.default_rng(seed)
    base = np.asarray(res.x[:dim], dtype=float)
    for scale in (0.02, 0.002, 0.0) if seed == 0 else (0.5 * margin, 0.05 * margin):
        z = _scaled(base + scale * np.abs(base).max() * rng.uniform(-1, 1, dim))
        if (exact_signs(A, z) > 0).all():
            return z
    return None


def _in_cone(R: np.ndarray, Rf: np.ndarray, target: np.ndarray, target_f: np.ndarray) -> bool | None:
    """True when ``target`` is a nonnegative combination of the rows of ``R`` (exact ``λ`` verified), False when
    HiGHS finds none, None when HiGHS's answer cannot be made exact."""
    import scipy.sparse as sp

    from ._exact_lp import exact_basis_solution
    from ._lp import HighsModel

    if len(R) == 0:
        return bool(all(v == 0 for v in target.tolist()))
    M = sp.csc_matrix(Rf.T)
    model = HighsModel(
        np.zeros(len(R)), M, target_f, target_f, np.zeros(len(R)), np.full(len(R), np.inf), what="redundancy test"
    )
    res = model.solve(solver="dual")
    if res.status == "infeasible":
        return False
    if res.x is not None and _rational_combination(
        R, target, res.x * (np.abs(target.astype(float)).max() / np.abs(R.astype(float)).max(axis=1))
    ):
        return True
    if res.basis is None:
        return None
    rows = [{k: int(v) for k, v in enumerate(col) if v != 0} for col in R.T.tolist()]
    tgt = [int(v) for v in target.tolist()]
    sol = exact_basis_solution([0] * len(R), rows, tgt, tgt, res.basis)
    return None if sol is None else True


def _rational_combination(R: np.ndarray, target: np.ndarray, lam: np.ndarray) -> bool:
    """True when a rationalisation of the float multipliers ``lam`` (denominators up to 10^3, 10^6, 10^9:
    :func:`~privgeom.geometry._lp.rational_candidates`) is an exact certificate ``λ ≥ 0``, ``Σ λ_r R_r = target``;
    cheaper than solving the basis system over the rationals when the multipliers are simple fractions."""
    from ._lp import rational_candidates

    support = np.nonzero(lam > ROUNDOFF)[0]
    if len(support) == 0:
        return False
    rows = [[int(v) for v in R[k].tolist()] for k in support.tolist()]
    want = [int(v) for v in target.tolist()]
    for cand in rational_candidates(lam[support]):
        if any(c < 0 for c in cand):
            continue
        den = math.lcm(*(c.denominator for c in cand))
        num = [int(c * den) for c in cand]
        if all(sum(n * r[j] for n, r in zip(num, rows)) == den * want[j] for j in range(len(want))):
            return True
    return False


def _separating(R: np.ndarray, Rf: np.ndarray, a_f: np.ndarray, tol: float = ATOL) -> np.ndarray | None:
    """A float ``x*`` with ``R x* ≥ 0`` and ``a·x* < 0`` (LP ``min a·x`` over the box), None when the optimum is
    above ``-tol``."""
    from ._lp import solve_lp

    res = solve_lp(
        a_f, A_ub=-Rf if len(R) else None, b_ub=np.zeros(len(R)) if len(R) else None, bounds=(-1, 1), what="separation"
    )
    if res.status != "optimal" or res.x is None or res.fun is None or res.fun >= -tol:
        return None
    return res.x


def _shoot(A: np.ndarray, Af: np.ndarray, z: np.ndarray, x: np.ndarray) -> int | None:
    """The row first crossed on the segment from ``z`` (interior) to ``x``, certified exactly: a point just past it
    violates that row alone. None when the crossing is not unique in floating point or the point does not verify."""
    zf = np.asarray(z[0], dtype=float)
    az, ax = Af @ zf, Af @ x
    scale = np.abs(zf).max()
    x = x * scale  # the same direction at the scale of z
    ax = ax * scale
    down = ax < az
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(down, az / (az - ax), np.inf)
    order = np.argsort(t)
    j = int(order[0])
    if not np.isfinite(t[j]) or t[j] > 1.0 + ATOL:
        return None
    nxt = float(t[order[1]]) if len(t) > 1 else math.inf
    if nxt - t[j] <= ATOL * max(1.0, t[j]):
        return None
    tt = Fraction(float(t[j] + (min(nxt, 2 * t[j] + 1) - t[j]) / 2))
    zq = [Fraction(int(v)) for v in z[0].tolist()]
    xq = [Fraction(float(v)) for v in x]
    w = _scaled([a + tt * (b - a) for a, b in zip(zq, xq)])
    s = exact_signs(A, w)[:, 0]
    if s[j] < 0 and (np.delete(s, j) >= 0).all():
        return j
    return None


def _seed(rows: np.ndarray, Af: np.ndarray, z: np.ndarray) -> set[int]:
    """Rows proven irredundant without an LP: from ``z`` walk against each row ``a_i`` (towards ``z − s·a_i``, which
    violates ``a_i``); when the first hyperplane crossed is unique, a point just past it violating that row alone is
    checked exactly (all walks at once, in blocks of :data:`SEED_BLOCK`)."""
    n, dim = rows.shape
    zf = np.asarray(z[0], dtype=float)
    zq = [Fraction(int(v)) for v in z[0].tolist()]
    az = Af @ zf
    found: set[int] = set()
    for start in range(0, n, SEED_BLOCK):
        idx = np.arange(start, min(n, start + SEED_BLOCK))
        s = 2.0 * az[idx] / (Af[idx] ** 2).sum(axis=1)
        X = zf[None, :] - s[:, None] * Af[idx]  # (m, dim): target of walk i
        AX = Af @ X.T  # (n, m)
        with np.errstate(divide="ignore", invalid="ignore"):
            T = np.where(AX < az[:, None], az[:, None] / (az[:, None] - AX), np.inf)
        order = np.argsort(T, axis=0)[:2]
        cols = np.arange(len(idx))
        t1, t2 = T[order[0], cols], T[order[1], cols] if n > 1 else np.full(len(idx), np.inf)
        ok = np.isfinite(t1) & (t2 - t1 > ATOL * np.maximum(1.0, t1))
        cand = [
            (int(order[0, c]), float(t1[c] + (np.minimum(t2[c], 2 * t1[c] + 1) - t1[c]) / 2), c)
            for c in np.nonzero(ok)[0].tolist()
            if int(order[0, c]) not in found
        ]
        if not cand:
            continue
        W = np.concatenate(
            [_scaled([a + Fraction(tt) * (Fraction(float(b)) - a) for a, b in zip(zq, X[c])]) for _, tt, c in cand]
        )
        S = exact_signs(rows, W)  # (n, m')
        neg = (S < 0).sum(axis=0)
        for k, (j, _, _) in enumerate(cand):
            if neg[k] == 1 and S[j, k] < 0:
                found.add(j)
    return found


def clarkson(rows: np.ndarray) -> list[int] | None:
    """Indices of the irredundant rows of ``rows`` (distinct primitive integer rows, no row a positive multiple of
    another) by Clarkson's algorithm with exact certificates (see the module docstring); None when there is no
    interior point or a certificate cannot be made exact (the caller then uses cdd)."""
    n, dim = rows.shape
    Af = rows.astype(float)
    Af = Af / np.abs(Af).max(axis=1, keepdims=True)
    z = _interior(rows, Af)
    if z is None:
        return None
    seeded = _seed(rows, Af, z)
    for k in range(1, SEED_ROUNDS):  # more walks from other interior points while they keep finding rows
        zk = _interior(rows, Af, seed=k)
        more = _seed(rows, Af, zk) - seeded if zk is not None else set()
        seeded |= more
        if len(more) < max(2, len(seeded) // 20):
            break
    kept: list[int] = sorted(seeded)
    pending = [i for i in range(n) if i not in seeded]
    while pending:
        i = pending[-1]
        if i in kept:
            pending.pop()
            continue
        R, Rf = rows[kept], Af[kept]
        x = _separating(R, Rf, Af[i])
        if x is None:  # the optimum is 0 in floating point: prove a_i redundant exactly
            inside = _in_cone(R, Rf, rows[i], Af[i])
            if inside is None:
                return None
            if inside:
                pending.pop()
                continue
            x = _separating(R, Rf, Af[i], tol=0.0)
            if x is None:
                return None
        rng = np.random.default_rng(len(kept))
        for attempt in range(SHOTS):  # a tie or a kept row crossed first: shoot again at a nudged target
            target = x if attempt == 0 else x + 1e-4 * attempt * rng.standard_normal(dim)
            j = _shoot(rows, Af, z, target)
            if j is not None and j not in kept:
                break
        else:
            return None
        kept.append(j)
    return sorted(kept)


def canonicalize(
    rows: np.ndarray, lin_rows: np.ndarray, *, kind: str, exact: bool, method: str = "auto"
) -> tuple[np.ndarray, np.ndarray]:
    """Remove redundant rows (and find implicit linearities): as :func:`privgeom.geometry._cdd.canonicalize`, by
    Clarkson's algorithm for a large exact system without linear part (``method="auto"`` from
    :data:`CLARKSON_MIN_ENTRIES` entries, generators from :data:`CLARKSON_MIN_V_ENTRIES`; ``"clarkson"`` forces it
    where it applies, ``"cdd"`` never uses it).

    Clarkson's rows come back as primitive integer rows (the same cone; the caller puts them in canonical form).
    """
    if method not in REDUNDANCY_METHODS:
        raise InvalidParameterError(f"unknown redundancy method {method!r}; choose one of {REDUNDANCY_METHODS}")
    n, dim = rows.shape
    use = (
        exact
        and len(lin_rows) == 0
        and n > dim
        and method != "cdd"
        and (method == "clarkson" or n * (dim + 1) >= (CLARKSON_MIN_V_ENTRIES if kind == "V" else CLARKSON_MIN_ENTRIES))
    )
    if use:
        prim = sorted(set(t for t in _primitive(rows) if any(t)))
        ints = _int_array(prim, dim)
        kept = clarkson(ints)
        if kept is not None:
            out = np.empty((len(kept), dim), dtype=object)
            if kept:
                out[:] = [list(prim[k]) for k in kept]
            return out, lin_rows
    return _cdd.canonicalize(rows, lin_rows, kind=kind, exact=exact)


# --------------------------------------------------------------------------------------------------- by orbit
def _violated_alone(rows: np.ndarray, Af: np.ndarray, i: int) -> np.ndarray | None:
    """An exact integer point ``w`` with ``a_i·w < 0 ≤ a_j·w`` for every other row ``j`` (row ``i`` irredundant), or
    None when the LP finds no such point with a margin above :data:`ALONE_MARGIN` or the point does not verify.

    The LP (rows scaled to unit norm) maximises ``t`` subject to ``a_j·x ≥ t`` for ``j ≠ i``, ``a_i·x ≤ −t``,
    ``−1 ≤ x ≤ 1``, ``t ≤ 1`` — a strictly separating point; in a full-dimensional cone row ``i`` is irredundant iff
    the optimum is positive (a point just outside the relative interior of its facet; Fukuda, *Polyhedral
    Computation*, 2020, Section 7.2)."""
    from ._lp import solve_lp

    n, dim = Af.shape
    U = Af / np.linalg.norm(Af, axis=1, keepdims=True)
    signs = np.ones(n)
    signs[i] = -1.0
    c = np.zeros(dim + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-signs[:, None] * U, np.ones((n, 1))])  # t − s_j a_j·x ≤ 0
    res = solve_lp(
        c, A_ub=A_ub, b_ub=np.zeros(n), bounds=[(-1, 1)] * dim + [(None, 1)], what="irredundancy of an orbit"
    )
    if res.status != "optimal" or res.x is None or res.x[-1] <= ALONE_MARGIN:
        return None
    w = _scaled(res.x[:dim])
    s = exact_signs(rows, w)[:, 0]
    return w if s[i] < 0 and (np.delete(s, i) >= 0).all() else None


def irredundant_by_orbits(rows: np.ndarray, orbits: Any) -> list[int] | None:
    """The irredundant rows of ``rows`` (distinct primitive integer rows of a full-dimensional system that a group
    permutes; ``orbits`` its orbits on them, e.g. :meth:`~privgeom.geometry._groups.SymmetryGroup.orbits_of_rows`),
    by one LP per orbit; None when a certificate cannot be made exact (the caller then takes the plain route).

    A group element maps the system to itself, so it maps an irredundant row to an irredundant row and a
    redundant one to a redundant one: the representative of each orbit decides it. A representative with a point
    violating it alone (:func:`_violated_alone`, checked exactly) puts its orbit in the answer ``K``; every other
    representative must be a non-negative combination of the rows of ``K`` (exact ``λ``, :func:`_in_cone`), and so
    is every row of its orbit (the image of the combination, ``K`` being a union of orbits). Hence ``{x : K x ≥ 0}``
    is the cone of all the rows and no row of ``K`` can be left out: ``K`` is the unique irredundant system.

    Examples
    --------
    >>> rows = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.int64)   # x ≥ 0, y ≥ 0, x + y ≥ 0; swapping x and y
    >>> irredundant_by_orbits(rows, [(0, 1), (2,)])
    [0, 1]
    """
    from .._core.progress import Progress

    n, dim = rows.shape
    members = [tuple(getattr(o, "members", o)) for o in orbits]
    Af = rows.astype(float)
    kept: list[int] = []
    doubtful: list[int] = []
    # one LP per orbit, then one per implied orbit: a bar after a second on a terminal
    with Progress(2 * len(members), f"{n:,} rows in R^{dim} by orbit ({len(members)} orbits), LPs") as bar:
        for orbit in members:
            w = _violated_alone(rows, Af, orbit[0])
            (kept.extend(orbit) if w is not None else doubtful.append(orbit[0]))
            bar.update()
        kept.sort()
        R, Rf = rows[kept], Af[kept]
        Rf = Rf / np.abs(Rf).max(axis=1, keepdims=True) if len(kept) else Rf
        bar.update(len(members) - len(doubtful))
        for i in doubtful:
            target_f = Af[i] / np.abs(Af[i]).max()
            if _in_cone(R, Rf, rows[i], target_f) is not True:
                return None
            bar.update()
    return kept


def symmetric_facets(
    facets: np.ndarray, group: Any, *, min_entries: int | None = None
) -> tuple[np.ndarray, Any] | None:
    """The canonical irredundant facets (primitive integer rows, decreasing lexicographic order) of ``{x : F x ≥ 0}``
    for exact rows ``F`` that the permutation group ``group`` (a :class:`~privgeom.geometry._groups.SymmetryGroup`)
    maps to themselves, by :func:`irredundant_by_orbits`, with the orbits of the answer; None when the route does not
    apply and the caller keeps the plain one: fewer than ``min_entries`` (default :data:`ORBIT_MIN_ENTRIES`) input
    entries, a group that does not permute the rows, no interior point (the system has implicit equalities), or a
    certificate that is not exact.

    Examples
    --------
    >>> from privgeom.geometry._groups import SymmetryGroup
    >>> G = SymmetryGroup(labels=("a", "b"), generators=((1, 0),), source="swap", order=2, complete=True)
    >>> F, orbits = symmetric_facets(np.array([[2, 0], [0, 2], [1, 1], [3, -1], [-1, 3]]), G, min_entries=0)
    >>> F.tolist(), [o.members for o in orbits]
    ([[3, -1], [-1, 3]], [(0, 1)])
    """
    from .._core.errors import InvalidInputError

    n, dim = facets.shape
    if n * (dim + 1) < (ORBIT_MIN_ENTRIES if min_entries is None else min_entries) or n <= dim:
        return None
    ints = _distinct_primitive(facets)
    try:
        orbits = group.orbits_of_rows(ints)
    except InvalidInputError:  # the group does not map these rows to themselves
        return None
    Af = ints.astype(float)
    if _interior(ints, Af / np.abs(Af).max(axis=1, keepdims=True)) is None:
        return None
    kept = irredundant_by_orbits(ints, orbits)
    if kept is None:
        return None
    where = {i: k for k, i in enumerate(kept)}  # the rows are in canonical order, and so are the kept ones
    kept_orbits = [o for o in orbits if o.members[0] in where]
    return ints[kept], tuple(
        replace(o, representative=where[o.representative], members=tuple(where[i] for i in o.members))
        for o in kept_orbits
    )


def _distinct_primitive(rows: np.ndarray) -> np.ndarray:
    """Exact rows as distinct primitive integer rows without the zero row, in decreasing lexicographic order (the
    canonical order of :class:`~privgeom.geometry.Cone`); ``int64`` rows vectorised."""
    if rows.dtype != object and np.abs(rows).max(initial=0) < 2**62:
        a = rows.astype(np.int64)
        g = np.gcd.reduce(a, axis=1)
        a = a[g > 0] // g[g > 0][:, None]
        return np.ascontiguousarray(np.unique(a, axis=0)[::-1])
    prim = sorted(set(t for t in _primitive(np.asarray(rows, dtype=object)) if any(t)), reverse=True)
    return _int_array(prim, rows.shape[1])


def symmetric_structure(facets: np.ndarray, group: Any, *, min_entries: int | None = None) -> ConeStructure | None:
    """The cone ``{x : F x ≥ 0}`` as a :class:`~privgeom.geometry._structure.ConeStructure` of kind ``"symmetric"``
    when :func:`symmetric_facets` applies (None otherwise): its canonical irredundant facets, full-dimensional, and
    ``group`` carried as its symmetry (:attr:`~privgeom.geometry.Cone.symmetry`), so that a cone built from it (a
    cone definition's face of ``1``, an orbit summary) finds the group again without a search.

    Examples
    --------
    >>> from privgeom.geometry._groups import SymmetryGroup
    >>> G = SymmetryGroup(labels=("a", "b"), generators=((1, 0),), source="swap", order=2, complete=True)
    >>> st = symmetric_structure(np.array([[2, 0], [0, 2], [3, -1], [-1, 3]]), G, min_entries=0)
    >>> st.kind, st.n_facets, st.canonical_facets().tolist()
    ('symmetric', 2, [[3, -1], [-1, 3]])
    """
    found = symmetric_facets(facets, group, min_entries=min_entries)
    if found is None:
        return None
    from ._lp import modular_rank

    F, orbits = found
    F.setflags(write=False)
    # full rank modulo a prime proves full rank, so no line lies in the cone; otherwise left to the cone to decide
    pointed = True if modular_rank(F) == F.shape[1] else None
    return ConeStructure(
        "symmetric",
        f"{len(F)} facets in {len(orbits)} orbit{'s' if len(orbits) != 1 else ''} of the {group.source} group, each "
        "orbit proven irredundant (or redundant) by one LP with an exact certificate",
        n_facets=len(F),
        dim=F.shape[1],
        pointed=pointed,
        facets=lambda: F,
        canonical_facets=lambda: F,
        extra={"symmetry": replace(group, complete=False)},  # a group of the cone, maybe not its whole group
    )
