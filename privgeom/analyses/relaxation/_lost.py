"""Which guarantees of the original definition survive a pairwise relaxation: one small LP per symmetry orbit.

An original facet ``f·x ≥ 0`` is still implied by the relaxed cone ``R = {x ≥ 0 : x_a ≤ c x_b}`` iff (Farkas)
``f = Σ_t λ_t (c_t e_{b_t} − e_{a_t}) + μ`` with ``λ, μ ≥ 0``. One sparse HiGHS LP decides it:

    minimise f·x  subject to  x_a − c x_b ≤ 0 for every bound,  Σ x = 1,  x ≥ 0,

whose optimum is ``≥ 0`` iff ``f`` is implied. When the permutations fixing ``f`` are known (a symmetry group of the
relaxed cone), the LP is solved first on the quotient by them — one variable per orbit of datasets, e.g. ``k + 1``
Hamming-weight classes instead of ``2^k`` datasets for randomized response — since averaging an optimum over a group
that fixes the objective and the feasible set gives a symmetric optimum. Both answers are re-verified exactly in exact mode:

- *lost*: the LP point is rationalised and *repaired* into ``R`` exactly (``y_v = min_u P_vu x_u``, shortest paths of
  the difference constraints), and ``f·y < 0`` is checked in Fractions — ``y`` is a point of the relaxed cone that
  breaks the guarantee;
- *implied*: the LP duals give ``λ``; ``μ = f − Σ λ_t (c_t e_{b_t} − e_{a_t}) ≥ 0`` is checked in Fractions.

A permutation of the datasets that maps the original cone and the family of pairs to themselves maps ``R`` to itself
and facets to facets, so the answer is computed once per orbit of facets (Lin & Kifer, Section III-C for facets as
guarantees; the symmetry group from :func:`privgeom.geometry.automorphisms`, restricted to the stabiliser of the
family, which is sound).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp

from ..._core.errors import SizeLimitError, SolverError
from ..._core.arrays import readonly, ROUNDOFF
from ..._core.limits import current_limit
from ..._core.results import Result
from ...geometry._lp import exact_nonnegative_solution, rational_candidates, solve_lp
from ._difference_system import DifferenceSystem, ratio_le
from ..._core.numbers import number_text

__all__ = ["FacetStatus", "facet_status", "local_status", "ratio_status"]


@dataclass(frozen=True)
class FacetStatus(Result):
    """Whether one original guarantee (facet) is still implied by the relaxed cone, with its verified proof.

    Attributes
    ----------
    index : int
        The facet (representative of its orbit) in the original cone's facet order.
    orbit : tuple of int
        Every facet in the same symmetry orbit (same answer).
    lost : bool
    witness : array or None
        When lost: a point of the relaxed cone with ``f·witness < 0`` (value in ``value``).
    value : Fraction or float or None
        ``f·witness``.
    combination : dict or None
        When implied: ``{bound index t: λ_t > 0}`` with ``f − Σ λ_t (c_t e_b − e_a) ≥ 0``.
    exact : bool
    """

    index: int
    orbit: tuple[int, ...] = field(repr=False)
    lost: bool
    witness: np.ndarray | None = field(repr=False)
    value: Any
    combination: dict[int, Any] | None = field(repr=False)
    exact: bool

    @property
    def size(self) -> int:
        return len(self.orbit)

    def summary(self) -> str:
        what = "lost" if self.lost else "still implied"
        return f"facet {self.index} (orbit of {self.size}): {what}"


def _kept_status(index: int, orbit: tuple[int, ...], combination: dict[int, Any], exact: bool) -> FacetStatus:
    """The status of a facet still implied, with its non-negative combination of the relaxed bounds."""
    return FacetStatus(
        index=index, orbit=orbit, lost=False, witness=None, value=None, combination=combination, exact=exact
    )


def _lost_status(index: int, orbit: tuple[int, ...], witness: np.ndarray, value: Any, exact: bool) -> FacetStatus:
    """The status of a lost facet, with the verified witness point and the facet's (negative) value on it."""
    return FacetStatus(index=index, orbit=orbit, lost=True, witness=witness, value=value, combination=None, exact=exact)


#: Relative tolerances tried, tightest first, when reading which bounds are tight at a float LP vertex (see
#: :func:`vertex_candidates`); every candidate is verified exactly, so a wrong guess only costs a retry.
TIGHT_RTOLS = (1e-9, 1e-7, 1e-5, 1e-3)


def vertex_candidates(S: DifferenceSystem, x: Any) -> list[list[Any]]:
    """Exact points of the relaxed cone read off a float LP vertex ``x``, one per tolerance of :data:`TIGHT_RTOLS`.

    At a vertex every nonzero coordinate is tied to the largest one by a chain of tight bounds ``x_a = c x_b``, so
    the exact vertex is the largest coordinate set to 1 and the others propagated exactly along the tight bounds
    (products of the bounds, however small: ``3^-15`` is no harder than ``1/3``). Coordinates the LP leaves below the
    tolerance are 0. Rounding the float point coordinate by coordinate instead loses the small coordinates once
    the bounds span more than the solver's precision (randomized response at ``k ≥ 15``, the geometric mechanism at
    ``n ≥ 35``). Each candidate is passed through :meth:`DifferenceSystem.repair` (the largest point of the cone
    below it), so it is feasible; the caller checks that it breaks the facet.
    """
    xf = np.clip(np.asarray(x, dtype=float), 0.0, None)
    top = float(xf.max()) if xf.size else 0.0
    if not top > 0:
        return []
    xf = xf / top
    a, b = S.a, S.b
    c = np.array([float(v) for v in S.c])
    one: Any = Fraction(1) if S.exact else 1.0
    zero: Any = Fraction(0) if S.exact else 0.0
    out: list[list[Any]] = []
    for rtol in TIGHT_RTOLS:
        alive = xf > rtol * ROUNDOFF**0.5
        ca = c * xf[b] if len(c) else c
        tight = np.flatnonzero(alive[a] & alive[b] & (np.abs(xf[a] - ca) <= rtol * np.maximum(xf[a], ca)))
        adj: list[list[tuple[int, int]]] = [[] for _ in range(S.n)]
        for t in tight.tolist():
            adj[int(b[t])].append((int(a[t]), t))  # x_a = c x_b from b
            adj[int(a[t])].append((int(b[t]), ~t))  # x_b = x_a / c from a
        y: list[Any] = [None] * S.n
        for root in np.argsort(-xf, kind="stable").tolist():
            if y[root] is not None or not alive[root]:
                continue
            y[root] = (
                one
                if root == int(np.argmax(xf))
                else (Fraction(float(xf[root])).limit_denominator(10**12) if S.exact else float(xf[root]))
            )
            stack = [root]
            while stack:
                u = stack.pop()
                for v, t in adj[u]:
                    if y[v] is None:
                        y[v] = y[u] * S.c[t] if t >= 0 else y[u] / S.c[~t]
                        stack.append(v)
        y = [zero if v is None else v for v in y]
        out.append(S.repair(y))
    return out


#: Largest relaxed-cone LP (variables) solved exactly by cdd's GMP simplex before HiGHS is tried: exact answers need no
#: rounding, which fails once the bounds span more than float precision (products like ``3^-15``).
EXACT_LP_MAX_VARIABLES = 128


def _exact_minimum(S: DifferenceSystem, f: Sequence[Any], weights: Sequence[Any]) -> tuple[Fraction, list[Fraction]]:
    """``min f·x`` over ``{x ≥ 0, x_a ≤ c x_b, weights·x = 1}``, exactly (cdd GMP simplex): value and minimiser."""
    from ...geometry._cdd import exact_linprog

    n = S.n
    rows: list[list[Any]] = []
    for a, b, c in zip(S.a.tolist(), S.b.tolist(), S.c):
        row: list[Any] = [Fraction(0)] * (n + 1)
        row[1 + a] -= 1
        row[1 + b] += c
        rows.append(row)  # c x_b - x_a >= 0
    for i in range(n):
        row = [Fraction(0)] * (n + 1)
        row[1 + i] = Fraction(1)
        rows.append(row)  # x_i >= 0
    w = [Fraction(v) for v in weights]
    rows.append([Fraction(-1), *w])  # w·x >= 1
    rows.append([Fraction(1), *(-v for v in w)])  # w·x <= 1
    rows.append([Fraction(0), *(Fraction(v) for v in f)])
    status, x, value = exact_linprog(rows, maximize=False)
    if status != "optimal" or x is None or value is None:
        raise SolverError(f"exact relaxed-cone LP: {status}")
    return value, x


def _lp_matrices(S: DifferenceSystem) -> tuple[Any, np.ndarray]:
    m, n = len(S.c), S.n
    rows = np.concatenate([np.arange(m), np.arange(m)])
    cols = np.concatenate([S.a, S.b])
    vals = np.concatenate([np.ones(m), -np.array([float(c) for c in S.c])])
    A = sp.csr_matrix((vals, (rows, cols)), shape=(m, n))
    return A, np.zeros(m)


def _check_implied(S: DifferenceSystem, f: Sequence[Any], lam: Sequence[Any]) -> bool:
    mu = list(f)
    for t, l in enumerate(lam):
        if l:
            mu[int(S.a[t])] += l
            mu[int(S.b[t])] -= l * S.c[t]
    return (
        all(v >= 0 for v in mu)
        if S.exact
        else all(float(v) >= -S.atol * max(1.0, max(abs(float(x)) for x in f)) for v in mu)
    )


def _ratio_facet(S: DifferenceSystem, f: Sequence[Any], index: int, orbit: tuple[int, ...]) -> FacetStatus | None:
    """Facets ``x_v ≥ 0`` and ratio facets ``c x_b − x_a ≥ 0`` are decided without an LP (:func:`ratio_status`)."""
    support = [i for i, v in enumerate(f) if v != 0]
    if len(support) == 1 and f[support[0]] > 0:
        return _kept_status(index, orbit, {}, S.exact)
    if len(support) != 2:
        return None
    i, j = support
    if f[i] < 0 < f[j]:
        a, b = i, j
    elif f[j] < 0 < f[i]:
        a, b = j, i
    else:
        return None
    return ratio_status(S, a, b, f[a], f[b], index=index, orbit=orbit)


def ratio_status(
    S: DifferenceSystem, a: int, b: int, fa: Any, fb: Any, *, index: int = 0, orbit: tuple[int, ...] = ()
) -> FacetStatus | None:
    """The facet ``fa x_a + fb x_b ≥ 0`` (``fa < 0 < fb``), i.e. ``x_a ≤ c x_b`` with ``c = fb / −fa``: implied iff a
    path of bounds has product ``P ≤ c`` (the shortest-path closure is the tight bound); the combination is the path
    (``λ_i`` = ``−fa`` times the product of the bounds before step ``i``, ``μ = (fb + fa P) e_b ≥ 0``). None when no
    path is short enough (then it is lost; the LP gives the witness)."""
    c = fb / -fa if S.exact else float(fb) / -float(fa)
    direct = S.bound_index.get((a, b))
    if direct is not None and ratio_le(S.c[direct], c, S.exact, atol=S.atol):
        # the bound itself (a relaxation onto the definition's own graph keeps every edge): λ = −fa, μ = (fb + fa c_t) e_b
        return _kept_status(index, orbit or (index,), {direct: -fa}, S.exact)
    prod, path = S.path_product(a, b, limit=c)
    if path is None or not ratio_le(prod, c, S.exact, steps=len(path), atol=S.atol):
        return None
    where = S.bound_index
    lam: dict[int, Any] = {}
    acc: Any = -fa
    for u, v in zip(path, path[1:]):
        t = where[(u, v)]
        lam[t] = lam.get(t, 0) + acc
        acc = acc * S.c[t]
    return _kept_status(index, orbit or (index,), lam, S.exact)


#: Facets with at most this many nonzero coefficients are decided on the projection of the relaxed cone onto their
#: support (:func:`local_status`): a handful of path searches and an LP in that many variables.
LOCAL_MAX_SUPPORT = 8


def local_status(
    S: DifferenceSystem, f: Sequence[Any], *, index: int = 0, orbit: tuple[int, ...] = ()
) -> FacetStatus | None:
    """Decide a facet with a small support ``U`` on the projection of the relaxed cone onto ``U``, exactly.

    The projection of ``R = {x ≥ 0 : x_a ≤ c x_b}`` onto the coordinates ``U`` is ``{x_U ≥ 0 : x_u ≤ P_uv x_v}``
    with ``P_uv`` the smallest product of bounds along a path (``docs/theory.md`` §7, own graph: Fourier–Motzkin on difference
    constraints keeps difference constraints, and ``y_v = min_u P_vu x_u`` lifts any such ``x_U`` back into ``R``;
    Cormen et al., §24.4). So ``f·x ≥ 0`` on ``R`` iff it holds on that ``|U|``-dimensional cone: one exact LP there
    (cdd's GMP simplex). Lost: the local minimiser is lifted to a point of ``R`` and checked exactly; implied: the
    local Farkas combination is expanded along the paths into bounds of ``S`` and checked exactly. Exact mode with
    every bound ``≥ 1`` only; None when it does not apply (the caller's LP decides).
    """
    if not S.exact or not S.monotone:
        return None
    support = [i for i, v in enumerate(f) if v != 0]
    if not 3 <= len(support) <= LOCAL_MAX_SUPPORT:  # two terms: a ratio bound (ratio_status, else the LP)
        return None
    s = len(support)
    paths: dict[tuple[int, int], tuple[Any, list[int]]] = {}
    for u in support:
        found = S.path_products(u, support)
        if found is None:
            return None
        for v, pp in found.items():
            paths[(u, v)] = pp
    keys = sorted(paths)
    pos = {u: i for i, u in enumerate(support)}
    Q = DifferenceSystem(
        tuple(str(u) for u in support),
        np.array([pos[k[0]] for k in keys], dtype=np.int64),
        np.array([pos[k[1]] for k in keys], dtype=np.int64),
        tuple(paths[k][0] for k in keys),
        True,
        S.atol,
    )
    fs = [Fraction(f[u]) for u in support]
    value, xs = _exact_minimum(Q, fs, [Fraction(1)] * s)
    orbit_t = orbit or (index,)
    if value < 0:
        scale = math.lcm(*(Fraction(v).denominator for v in xs))  # a cone: integer coordinates, lifted in ints
        start: dict[int, Any] = {u: int(Fraction(xs[i]) * scale) for i, u in enumerate(support) if xs[i] != 0}
        y = S.lift(start or {support[0]: 1})
        if y is None:
            return None
        val = sum((Fraction(f[u]) * y[u] for u in support), Fraction(0))  # f·y: f vanishes off the support
        if not (val < 0 and S.contains(y)):
            raise SolverError(f"facet {index}: the lifted local witness does not verify; please report")
        arr = np.empty(S.n, dtype=object)
        arr[:] = y
        return _lost_status(index, orbit_t, readonly(arr), val, True)
    m = len(keys)  # local Farkas: f_U = Σ λ_uv (P_uv e_v − e_u) + μ, λ, μ ≥ 0
    M = np.empty((s, m + s), dtype=object)
    M[...] = Fraction(0)
    for t, (u, v) in enumerate(keys):
        M[pos[u], t] -= 1
        M[pos[v], t] += paths[(u, v)][0]
    for i in range(s):
        M[i, m + i] = Fraction(1)
    sol = exact_nonnegative_solution(M, fs)
    if sol is None:
        return None
    where = S.bound_index
    lam: dict[int, Any] = {}
    for t, (u, v) in enumerate(keys):
        acc = sol[t]
        if not acc:
            continue
        path = paths[(u, v)][1]
        for p, q in zip(path, path[1:]):
            e = where[(p, q)]
            lam[e] = lam.get(e, 0) + acc
            acc = acc * S.c[e]
    mu: dict[int, Any] = {u: Fraction(f[u]) for u in support}
    for e, l in lam.items():
        a, b = int(S.a[e]), int(S.b[e])
        mu[a] = mu.get(a, Fraction(0)) + l
        mu[b] = mu.get(b, Fraction(0)) - l * S.c[e]
    if any(v < 0 for v in mu.values()):
        raise SolverError(f"facet {index}: the expanded local combination does not verify; please report")
    return _kept_status(index, orbit_t, lam, True)


def _fixing(group: Any, f: Sequence[Any]) -> Any:
    """The subgroup generated by the generators of ``group`` that fix the row ``f`` (sound, maybe smaller)."""
    from ...geometry._symmetry import SymmetryGroup, stabiliser_source

    arr = np.array(list(f), dtype=object)
    kept = tuple(
        p
        for p, parr in zip(group.generators, group.generator_array)
        if all(u == v for u, v in zip(group.image_of_rows(parr, arr), arr))
    )
    return SymmetryGroup(
        labels=group.labels,
        generators=kept,
        source=stabiliser_source(group.source, "a facet"),
        order=None,
        complete=False,
    )


def _quotient_witness(S: DifferenceSystem, f: Sequence[Any], group: Any) -> tuple[bool, list[Any] | None]:
    """Decide ``min f·x`` over the relaxed cone on the quotient by the subgroup fixing ``f`` (module doc).

    The feasible set and the objective are invariant under that subgroup, so averaging an optimum over it gives a
    symmetric optimum: the LP only needs one variable per orbit of datasets (``k + 1`` Hamming-weight classes for a
    randomized-response facet under the bit permutations). Returns ``(decided, witness)``: ``(True, point)`` when a
    symmetric point of the relaxed cone breaks ``f`` (verified by the caller), ``(True, None)`` when none does (so
    ``f`` is implied), ``(False, None)`` when no reduction applies.
    """
    H = _fixing(group, f)
    if not H.generators:
        return False, None
    orbit_of = np.empty(S.n, dtype=np.int64)
    orbits = H.point_orbits()
    for o, orb in enumerate(orbits):
        orbit_of[list(orb.members)] = o
    q = len(orbits)
    best: dict[tuple[int, int], Any] = {}
    for a, b, c in zip(orbit_of[S.a].tolist(), orbit_of[S.b].tolist(), S.c):
        if a == b:
            if c < 1:
                return False, None
            continue
        if (a, b) not in best or c < best[(a, b)]:
            best[(a, b)] = c
    keys = sorted(best)
    Q = DifferenceSystem(
        tuple(str(i) for i in range(q)),
        np.array([k[0] for k in keys], dtype=np.int64),
        np.array([k[1] for k in keys], dtype=np.int64),
        tuple(best[k] for k in keys),
        S.exact,
        S.atol,
    )
    weights = np.zeros(q)
    fq = np.zeros(q)
    for i, v in enumerate(f):
        fq[orbit_of[i]] += float(v)
        weights[orbit_of[i]] += 1.0
    if S.exact and q <= EXACT_LP_MAX_VARIABLES:
        fq_exact = [Fraction(0)] * q
        for i, v in enumerate(f):
            fq_exact[int(orbit_of[i])] += Fraction(v)
        value, xq_exact = _exact_minimum(Q, fq_exact, [Fraction(int(w)) for w in weights])
        if value >= 0:
            return True, None
        return True, [xq_exact[o] for o in orbit_of.tolist()]
    A, b = _lp_matrices(Q)
    scale = float(np.abs(fq).max()) or 1.0
    res = solve_lp(
        fq / scale,
        A_ub=A if A.shape[0] else None,
        b_ub=b if A.shape[0] else None,
        A_eq=weights.reshape(1, q),
        b_eq=np.ones(1),
        method="highs-ds",
        what="quotient relaxed-cone LP",
    )
    if res.status != "optimal" or res.fun is None or res.x is None:
        return False, None
    if res.fun >= -S.atol:
        return True, None
    xq = np.clip(res.x, 0.0, None)
    xq = xq / (float(xq.max()) or 1.0)  # a cone: scale freely, so that rationalising keeps small entries
    rounded = (
        Q.repair(list(cand) if S.exact else [float(v) for v in cand])
        for cand in (rational_candidates(xq) if S.exact else [xq])
    )
    for yq in itertools.chain(vertex_candidates(Q, xq), rounded):
        y = [yq[o] for o in orbit_of.tolist()]
        val = sum((fv * yv for fv, yv in zip(f, y)), Fraction(0) if S.exact else 0.0)
        if val < 0 if S.exact else val < -ROUNDOFF:
            return True, y
    return False, None


def facet_status(
    S: DifferenceSystem,
    f: Sequence[Any],
    *,
    index: int = 0,
    orbit: Sequence[int] = (),
    what: str = "facet",
    group: Any = None,
) -> FacetStatus:
    """Decide whether ``f·x ≥ 0`` holds on the relaxed cone of ``S`` (see the module doc), with a verified proof.

    Raises
    ------
    SolverError
        HiGHS fails, or its answer cannot be turned into an exactly verified witness / combination.
    SizeLimitError
        The LP exceeds the HiGHS size limit (checked before solving).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> S = DifferenceSystem.from_bounds(["a", "b"], [(0, 1, F(3)), (1, 0, F(3))], True)
    >>> st = facet_status(S, [F(9), F(-3)])             # 9 x_a ≥ 3 x_b follows from x_b ≤ 3 x_a
    >>> st.lost, st.combination
    (False, {1: Fraction(3, 1)})
    >>> st = facet_status(S, [F(3), F(-1)] )            # 3 x_a ≥ x_b: implied too (it is the bound itself)
    >>> st.lost
    False
    >>> st = facet_status(S, [F(-1), F(2)])             # x_a ≤ 2 x_b is lost: x = (3/4, 1/4) breaks it
    >>> st.lost, st.witness.tolist(), st.value
    (True, [Fraction(3, 4), Fraction(1, 4)], Fraction(-1, 4))
    >>> T = DifferenceSystem.from_bounds(["a", "b", "c"], [(0, 1, F(3)), (2, 1, F(3))], True)
    >>> facet_status(T, [F(-1), F(6), F(-1)]).combination     # 6 x_b ≥ x_a + x_c: an LP, verified exactly
    {0: Fraction(1, 1), 1: Fraction(1, 1)}
    >>> facet_status(T, [F(-1), F(5), F(-1)]).lost
    True
    """
    n = S.n
    orbit_t0 = tuple(int(i) for i in orbit) or (index,)
    quick = _ratio_facet(S, f, index, orbit_t0)
    if quick is not None:
        return quick
    local = local_status(S, f, index=index, orbit=orbit_t0)
    if local is not None:
        return local
    if group is not None and not group.is_trivial():
        decided, y = _quotient_witness(S, f, group)
        if decided and y is not None:
            val = sum((fv * yv for fv, yv in zip(f, y)), Fraction(0) if S.exact else 0.0)
            if (val < 0 if S.exact else val < -ROUNDOFF) and S.contains(y, atol=S.atol):
                arr = np.empty(n, dtype=object if S.exact else float)
                arr[:] = y
                return _lost_status(index, orbit_t0, readonly(arr), val, S.exact)
    orbit_t = tuple(int(i) for i in orbit) or (index,)
    if S.exact and n <= EXACT_LP_MAX_VARIABLES:
        value, xe = _exact_minimum(S, f, [1] * n)
        if value < 0:
            arr = np.empty(n, dtype=object)
            arr[:] = xe
            if not S.contains(xe):
                raise SolverError(f"relaxed-cone LP for {what}: cdd's exact optimum is not in the relaxed cone")
            return _lost_status(
                index, orbit_t, readonly(arr), sum((fv * yv for fv, yv in zip(f, xe)), Fraction(0)), True
            )
    fl = np.array([float(v) for v in f])
    scale = float(np.abs(fl).max()) or 1.0
    A, b = _lp_matrices(S)
    res = solve_lp(
        fl / scale,
        A_ub=A if A.shape[0] else None,
        b_ub=b if A.shape[0] else None,
        A_eq=np.ones((1, n)),
        b_eq=np.ones(1),
        method="highs-ds",
        what=f"relaxed-cone LP for {what}",
    )
    if res.status != "optimal" or res.fun is None:
        raise SolverError(
            f"relaxed-cone LP for {what}: {res.status} ({res.message}); the relaxed cone contains the "
            "positive point x = 1 only when its bounds are >= 1 on cycles"
        )
    orbit_t = tuple(int(i) for i in orbit) or (index,)
    if res.fun < -S.atol:
        assert res.x is not None
        x = np.clip(res.x, 0.0, None)
        x = x / (float(x.max()) or 1.0)  # a cone: scale freely, so that rationalising keeps small entries
        rounded = (
            S.repair(list(cand) if S.exact else [float(v) for v in cand])
            for cand in (rational_candidates(x) if S.exact else [x])
        )
        for y in itertools.chain(vertex_candidates(S, x), rounded):
            val = sum((fv * yv for fv, yv in zip(f, y)), Fraction(0) if S.exact else 0.0)
            if (val < 0 if S.exact else val < -ROUNDOFF) and S.contains(y, atol=S.atol):
                arr = np.empty(n, dtype=object if S.exact else float)
                arr[:] = y
                return _lost_status(index, orbit_t, readonly(arr), val, S.exact)
        raise SolverError(
            f"relaxed-cone LP for {what}: the LP point (value {number_text(res.fun, digits=3)}) did not verify exactly"
        )
    duals = res.ub_duals if res.ub_duals is not None else np.zeros(0)
    lam_f = np.clip(-duals * scale, 0.0, None)
    cands = rational_candidates(lam_f) if S.exact else [lam_f]
    for lam in cands:
        if _check_implied(S, f, list(lam)):
            return _kept_status(index, orbit_t, {t: v for t, v in enumerate(lam) if v}, S.exact)
    if S.exact and len(S.c) + n <= current_limit("exact_lp_variables"):
        # last resort: the exact GMP simplex on f = Σ λ_t g_t + μ
        m = len(S.c)
        M = np.empty((n, m + n), dtype=object)
        M[...] = Fraction(0)
        for t in range(m):
            M[int(S.a[t]), t] -= 1
            M[int(S.b[t]), t] += S.c[t]
        for i in range(n):
            M[i, m + i] = Fraction(1)
        sol = exact_nonnegative_solution(M, list(f))
        if sol is not None and _check_implied(S, f, sol[:m]):
            return _kept_status(index, orbit_t, {t: v for t, v in enumerate(sol[:m]) if v}, True)
    if len(S.c) + n > current_limit("exact_lp_variables") and S.exact:
        raise SizeLimitError(
            f"relaxed-cone LP for {what}: the HiGHS combination did not verify exactly and the exact "
            f"fallback needs {len(S.c) + n:,} variables (limit "
            f"{current_limit('exact_lp_variables'):,})"
        )
    raise SolverError(f"relaxed-cone LP for {what}: the combination from the LP duals did not verify")
