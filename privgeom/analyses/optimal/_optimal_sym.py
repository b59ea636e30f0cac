"""Optimal mechanisms without the full LP: explicit Bayes rules, closed forms and the symmetry-reduced LP.

Three routes of :func:`~privgeom.analyses.optimal_mechanism` (``method=``), each ending in the same exact
re-verification as the LP (docs/theory.md, "Optimal mechanisms up to symmetry"):

* ``"explicit"`` — finite definitions ``{M_1..M_J}``: the closure LP of Lin & Kifer Theorem 3.4 has the explicit dual
  optimum ``t = max_j Σ_o max_ω (C M_jᵀ)[ω, o]`` (each column of ``B_j / λ_j`` is a probability vector), attained by
  the deterministic Bayes decision on the best ``M_j``. No LP is solved: one matrix product per ``M_j``, done in
  integers (common denominators) for rational data.
* ``"closed-form"`` — ε-DP on the complete graph ``K_n`` (local DP), accuracy under the uniform prior: ``n``-ary
  randomized response is optimal with value ``e^ε / (e^ε + n − 1)`` (Kairouz, Oh & Viswanath, JMLR 17, 2016: the
  low-privacy regime; for accuracy it holds at every ε). Certificate: the dual weight
  ``z = c₀ / (e^ε + n − 1)`` on every facet ``e^ε x_D − x_ω ≥ 0`` of row ``ω`` (``C = c₀ I``), which makes every
  entry of ``C + zA`` equal, so ``Σ_D max_ω (C + zA)[ω, D] = c₀ n e^ε / (e^ε + n − 1)``.
* ``"symmetric"`` — ratio-cone definitions (ε-DP) whose utility and prior are invariant under a group ``G`` of
  dataset permutations acting on datasets and outputs alike (outputs = datasets). The LP's feasible set and
  objective are ``G``-invariant and convex, so averaging an optimum over ``G`` gives a ``G``-invariant optimum
  (``M ↦ |G|⁻¹ Σ_g g·M``; the average of feasible points is feasible and has the same objective). The LP restricted
  to invariant ``M`` has one variable per orbit of (output, dataset) pairs and one constraint per orbit of
  (output, facet) pairs. Its exact optimum is expanded back to the full mechanism, its duals spread evenly over each
  constraint orbit (``z_c = z_O / |O|``), and both are re-verified against the *full* constraints: every row in the
  cone, and the full dual bound ``Σ_D max_ω (C + zA)[ω, D]`` equal to the value.

Examples
--------
>>> from privgeom.definitions import DifferentialPrivacy
>>> from privgeom.analyses import optimal_mechanism
>>> optimal_mechanism(DifferentialPrivacy.complete(5, exp_eps=3), method="closed-form").value
Fraction(3, 7)
>>> opt = optimal_mechanism(DifferentialPrivacy.hamming(3, exp_eps=3), method="symmetric")
>>> opt.value, opt.certificate.exact
(Fraction(27, 64), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..._core.errors import SolverError
from ..._core.arrays import check_dense_size
from ..._core.numbers import fraction_str
from ...definitions import Membership, PrivacyDefinition
from ...mechanisms import Mechanism
from ._optimal_adp import _LP, _finish
from ._results import LPDims, OptimalMechanism

__all__ = [
    "explicit_closure_optimum",
    "closed_form_optimum",
    "symmetric_rows_optimum",
    "ratio_rows_membership",
    "reduced_lp_size",
]

_INT64_SAFE = 1 << 62
#: Largest (items × generators) for the orbit computation of the symmetric reduction: (output, facet) pairs and
#: (output, dataset) pairs, times the group generators — about 1 s and 1 GB at this size.
MAX_REDUCTION_ITEMS = 20_000_000


# ---------------------------------------------------------------------------------------------------- integers
def _lcm_den(values: Any) -> int:
    den = 1
    for d in {v.denominator if isinstance(v, Fraction) else Fraction(v).denominator for v in values}:
        den = den * d // math.gcd(den, d)
    return den


def _as_ints(A: np.ndarray) -> tuple[np.ndarray, int]:
    """``(A·L, L)`` for a rational matrix: Python-int object array (int64 when it fits)."""
    flat = [v if isinstance(v, Fraction) else Fraction(v) for v in A.ravel()]
    L = _lcm_den(flat)
    ints = [v.numerator * (L // v.denominator) for v in flat]
    big = max((abs(v) for v in ints), default=0) >= _INT64_SAFE
    return np.array(ints, dtype=object if big else np.int64).reshape(A.shape), L


class _RatioData(NamedTuple):
    """The ratio constraints ``x_a ≤ r x_b`` of a row cone (``a``, ``b``: index arrays; ``r``: the one ratio)."""

    a: np.ndarray
    b: np.ndarray
    r: Any


def _ratio_data(definition: PrivacyDefinition) -> _RatioData | None:
    """``(a, b, r)`` when the row cone is ``{x ≥ 0 : x_a ≤ r x_b}`` with one ratio ``r`` (ε-DP), else None."""
    if not definition.row_cone_decides_closure:
        return None
    st = definition.row_cone().structure
    if st is None or st.difference is None or len(st.difference.nonneg) or len(set(st.difference.c)) != 1:
        return None
    d = st.difference
    return _RatioData(a=np.asarray(d.a, dtype=np.int64), b=np.asarray(d.b, dtype=np.int64), r=d.c[0] if d.c else None)


def ratio_rows_membership(definition: PrivacyDefinition, M: Mechanism) -> Membership | None:
    """Exact membership of a mechanism in a ratio-cone definition, every row against every constraint, vectorised
    in integers (``q·x_a ≤ p·x_b`` for ``r = p/q`` on the common-denominator matrix); None when not applicable or
    not a member (the caller then asks ``definition.contains`` for its certificate).

    Examples
    --------
    >>> from privgeom.definitions import DifferentialPrivacy
    >>> from privgeom.mechanisms import Mechanism
    >>> ratio_rows_membership(DifferentialPrivacy.complete(2, exp_eps=3),
    ...                       Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["0", "1"])).member
    True
    """
    data = _ratio_data(definition)
    if (
        data is None
        or not (definition.exact and M.exact)
        or data[2] is None
        or tuple(M.inputs) != tuple(definition.inputs)
    ):
        return None
    a, b, r = data
    X, _ = _as_ints(M.matrix)
    r = Fraction(r)
    p, q = r.numerator, r.denominator
    if X.dtype != object and np.abs(X).max(initial=0) * max(p, q) >= _INT64_SAFE:
        X = X.astype(object)
    if (X < 0).any() or (q * X[:, a] > p * X[:, b]).any():
        return None
    return Membership(
        member=True,
        method="ratio-rows",
        exact=True,
        detail=f"every row satisfies x_i ≤ {fraction_str(r)}·x_j on all {len(a):,} ratio constraints "
        f"(checked in integers)",
    )


def _finish_verified(
    definition: PrivacyDefinition,
    M: Mechanism,
    C: np.ndarray,
    bound: Any,
    exact: bool,
    formulation: str,
    dual: dict[str, Any],
    detail: str,
) -> OptimalMechanism:
    return _finish(
        definition,
        M,
        C,
        bound,
        exact,
        formulation,
        dual,
        detail,
        membership=ratio_rows_membership(definition, M) if exact else None,
    )


#: Largest dense facet matrix (facets × datasets) for which the dual is also reported in the rows LP's format.
MAX_DUAL_DENSE = 250_000


def _rows_dual(definition: PrivacyDefinition, Z: Any, y: list[Any]) -> dict[str, Any]:
    """The certificate's dual: ``z_ratio[ω, t]`` (weight on ``r x_b − x_a ≥ 0`` of row ``ω``, ratio constraint ``t``;
    given as ``(integer numerators, denominator)`` in ``z_ratio_scaled`` when large) and ``y``; plus ``z``, the same
    weights on the rows of ``row_cone().facets`` (the rows LP's format: flattened ``outputs × facets``), when that
    matrix has at most :data:`MAX_DUAL_DENSE` entries."""
    cone = definition.row_cone()
    N = len(definition.inputs)
    small = cone.n_facets * N <= MAX_DUAL_DENSE
    if isinstance(Z, tuple):
        if not small:
            return {"z_ratio_scaled": Z, "y": y}
        Z = np.array([Fraction(int(v), Z[1]) for v in Z[0].ravel()], dtype=object).reshape(Z[0].shape)
    out: dict[str, Any] = {"z_ratio": Z, "y": y}
    if not small:
        return out
    a, b, r = _ratio_data(definition)  # type: ignore[misc]
    where = {(int(i), int(j)): t for t, (i, j) in enumerate(zip(a, b))}
    F = cone.facets
    z = np.empty((Z.shape[0], len(F)), dtype=Z.dtype)
    covered = np.zeros(len(a), dtype=bool)
    for f, row in enumerate(F):
        neg, pos = [int(i) for i in np.flatnonzero(row < 0)], [int(i) for i in np.flatnonzero(row > 0)]
        if len(neg) != 1 or len(pos) != 1 or (neg[0], pos[0]) not in where:
            return out  # a facet that is not a ratio constraint (e.g. x_i ≥ 0): keep the compact form only
        s = row[pos[0]] / r  # the facet is s·(r e_b − e_a)
        z[:, f] = Z[:, where[(neg[0], pos[0])]] / s
        covered[where[(neg[0], pos[0])]] = True
    if np.any(Z[:, ~covered] != 0):  # weight on a redundant constraint: only the compact form is a certificate
        return out
    out["z"] = z.ravel()
    return out


# ---------------------------------------------------------------------------------------------------- explicit
def explicit_closure_optimum(
    definition: PrivacyDefinition, mechs: Sequence[Mechanism], C: np.ndarray, outputs: tuple[str, ...], exact: bool
) -> OptimalMechanism:
    """The Bayes decision on the best generating mechanism (module docstring, ``"explicit"``)."""
    m, N = C.shape
    exact = exact and all(Mj.exact for Mj in mechs)
    best: tuple[Any, int, np.ndarray] | None = None
    ints: dict[int, tuple[np.ndarray, int]] = {}
    if exact:
        Ci, Lc = _as_ints(np.asarray(C, dtype=object))
    for j, Mj in enumerate(mechs):
        check_dense_size(m, Mj.n_outputs, exact=exact, what=f"the Bayes table of generating mechanism #{j}")
        if exact:
            Mi, Lm = ints[j] = _as_ints(Mj.matrix)
            if (
                Ci.dtype != object
                and Mi.dtype != object
                and int(np.abs(Ci).max(initial=0)) * int(np.abs(Mi).max(initial=0)) * N < _INT64_SAFE
            ):
                G = Ci.dot(Mi.T)
            else:
                G = Ci.astype(object).dot(Mi.T.astype(object))
            dec = np.argmax(G, axis=0) if G.dtype != object else np.array([int(np.argmax(col)) for col in G.T])
            total: Any = Fraction(sum(int(G[dec[o], o]) for o in range(G.shape[1])), Lc * Lm)
        else:
            G = np.asarray(C, dtype=float).dot(Mj.float_matrix().T)
            dec = np.argmax(G, axis=0)
            total = float(G[dec, np.arange(G.shape[1])].sum())
        if best is None or total > best[0]:
            best = (total, j, dec)
    assert best is not None
    t, j, dec = best
    if exact:  # M = B M_j with the decision B, summed in integers over M_j's common denominator
        Mi, Lm = ints[j]
        acc = np.zeros((m, N), dtype=Mi.dtype)
        np.add.at(acc, np.asarray(dec, dtype=np.int64), Mi)
        rows = np.array([Fraction(int(v), Lm) for v in acc.ravel()], dtype=object).reshape(m, N)
    else:
        mat = mechs[j].float_matrix()
        rows = np.zeros((m, N))
        np.add.at(rows, np.asarray(dec, dtype=np.int64), mat)
    M = Mechanism(rows, definition.inputs, outputs, exact=exact)
    detail = (
        f"explicit optimum of the closure LP (Theorem 3.4): the dual t = max_j Σ_o max_ω (C M_jᵀ)[ω, o] is "
        f"attained by the Bayes decision on generating mechanism #{j}; no LP solved"
    )
    return _finish(definition, M, C, t, exact, "closure", {"t": t, "mechanism": j}, detail)


# ---------------------------------------------------------------------------------------------------- closed form
def _is_complete_accuracy(definition: PrivacyDefinition, C: np.ndarray) -> Any:
    """``c₀`` when the definition is ε-DP on a complete graph and ``C = c₀ I`` (accuracy, uniform prior), else None."""
    data = _ratio_data(definition)
    m, N = C.shape
    if data is None or m != N or data[2] is None or len(data[0]) != N * (N - 1) or N < 2:
        return None
    a, b, _ = data
    if len(set(zip(a.tolist(), b.tolist()))) != N * (N - 1) or (a == b).any():
        return None
    c0 = C[0, 0]
    if not c0 > 0 or any(C[i, i] != c0 for i in range(N)):
        return None
    off = C.copy()
    off[np.arange(N), np.arange(N)] = 0
    return c0 if not np.any(off != 0) else None


def closed_form_optimum(
    definition: PrivacyDefinition, C: np.ndarray, outputs: tuple[str, ...], exact: bool
) -> OptimalMechanism | None:
    """``n``-ary randomized response for accuracy under the uniform prior on ``K_n`` (module docstring); None when
    the definition, utility or prior is not of that form."""
    c0 = _is_complete_accuracy(definition, C)
    if c0 is None:
        return None
    a, b, r = _ratio_data(definition)  # type: ignore[misc]
    N = C.shape[0]
    if not exact:
        r, c0 = float(r), float(c0)
    hi, lo = r / (r + N - 1), 1 / (r + N - 1)
    rows = np.empty((N, N), dtype=object if exact else float)
    rows[:] = lo
    rows[np.arange(N), np.arange(N)] = hi
    M = Mechanism(rows, definition.inputs, outputs, exact=exact)
    z = c0 / (r + N - 1)
    # weight z on the facets r x_b − x_a ≥ 0 of row ω with a = ω, 0 on every other (integers over z's denominator)
    Zi = np.zeros((N, len(a)), dtype=np.int64 if not exact or abs(Fraction(z).numerator) < _INT64_SAFE else object)
    Zi[a, np.arange(len(a))] = Fraction(z).numerator if exact else 1
    Z: Any = (Zi, Fraction(z).denominator) if exact else Zi * z
    bound, y = _full_dual_bound(C, Z, a, b, r, exact)
    detail = (
        f"closed form: {N}-ary randomized response is optimal for accuracy under the uniform prior on the "
        f"complete graph (Kairouz–Oh–Viswanath 2016); dual weight {fraction_str(z)} on each facet e^ε x_D ≥ "
        f"x_ω of row ω, checked on all {len(a) * N:,} (row, facet) pairs"
    )
    return _finish_verified(definition, M, C, bound, exact, "rows", _rows_dual(definition, Z, y), detail)


# ---------------------------------------------------------------------------------------------------- symmetric
def _orbit_ids(n: int, maps: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """Orbit id of each of ``n`` items under the maps (connected components), ids in order of first member."""
    src = np.concatenate([np.arange(n, dtype=np.int64)] * max(1, len(maps)))
    dst = np.concatenate(maps) if maps else np.arange(n, dtype=np.int64)
    k, comp = connected_components(
        coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n)), directed=True, connection="weak"
    )
    first = np.full(k, n, dtype=np.int64)
    np.minimum.at(first, comp, np.arange(n, dtype=np.int64))
    rank = np.empty(k, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(k)
    return rank[comp], k


def _invariant_generators(definition: PrivacyDefinition, C: np.ndarray) -> list[np.ndarray]:
    """Generators of the registered automorphism group (each maps the row cone onto itself) under which
    ``C[pω, pD] = C[ω, D]`` — outputs identified with datasets. The subgroup they generate is what is used."""
    from ...geometry._symmetry import automorphisms

    try:
        G = automorphisms(definition)
    except Exception:  # noqa: BLE001 - no registered group: no reduction
        return []
    keep = []
    for p in G.generator_array:
        img = np.empty_like(C)
        img[np.ix_(p, p)] = C
        if np.array_equal(img, C) and not np.array_equal(p, np.arange(len(p))):
            keep.append(np.asarray(p))
    return keep


def reduced_lp_size(definition: PrivacyDefinition, C: np.ndarray) -> LPDims | None:
    """The sizes (variables, constraints, nonzeros) of the symmetry-reduced LP, or None when no reduction applies."""
    red = _reduction(definition, C)
    return None if red is None else red.size


@dataclass(frozen=True)
class _Reduction:
    """The orbit reduction of the rows LP: the group generators ``gens``; ``pid[ω, D]`` the orbit of each (output,
    dataset) pair (``n_p`` orbits: the variables); ``tid`` the orbit of each (output, ratio constraint) pair (``n_t``
    orbits: the constraints); the ratio constraints ``x_a ≤ r x_b``; one dataset per orbit (``point_reps``: the column
    sums kept); the reduced LP's ``size``."""

    gens: list[np.ndarray]
    pid: np.ndarray
    n_p: int
    tid: np.ndarray
    n_t: int
    a: np.ndarray
    b: np.ndarray
    r: Any
    size: LPDims
    point_reps: list[int]


def _reduction(definition: PrivacyDefinition, C: np.ndarray) -> _Reduction | None:
    data = _ratio_data(definition)
    m, N = C.shape
    if data is None or m != N or data[2] is None:
        return None
    gens = _invariant_generators(definition, C)
    if not gens:
        return None
    a, b, r = data
    E = len(a)
    if (m * E + N * N) * len(gens) > MAX_REDUCTION_ITEMS:
        return None  # the orbit computation itself would be too large: the caller falls back to the LP (size-checked)
    pid, n_p = _orbit_ids(N * N, [(p[:, None] * N + p[None, :]).ravel() for p in gens])  # pair (ω, D) = ω N + D
    keys = a * N + b
    order = np.argsort(keys)
    skeys = keys[order]
    tmaps = []
    for p in gens:
        img = p[a] * N + p[b]
        pos = np.minimum(np.searchsorted(skeys, img), E - 1)
        if not np.array_equal(skeys[pos], img):
            raise SolverError("a registered automorphism does not map the ratio constraints onto themselves")
        tmaps.append((p[:, None] * E + order[pos][None, :]).ravel())
    tid, n_t = _orbit_ids(m * E, tmaps)  # (ω, t) = ω E + t
    qid, n_q = _orbit_ids(N, gens)
    point_reps = [int(np.flatnonzero(qid == o)[0]) for o in range(n_q)]
    size = LPDims(variables=n_p, constraints=n_t + n_q, nonzeros=2 * n_t + n_q * min(n_p, m))
    return _Reduction(
        gens=gens, pid=pid.reshape(m, N), n_p=n_p, tid=tid, n_t=n_t, a=a, b=b, r=r, size=size, point_reps=point_reps
    )


def symmetric_rows_optimum(
    definition: PrivacyDefinition,
    C: np.ndarray,
    outputs: tuple[str, ...],
    exact: bool,
    check_size: Callable[[int, int, int], None] | None = None,
) -> OptimalMechanism | None:
    """The orbit-reduced rows LP, expanded and re-verified (module docstring, ``"symmetric"``); None when no
    reduction applies. ``check_size(variables, constraints, nonzeros)`` may refuse the reduced LP before it is built."""
    red = _reduction(definition, C)
    if red is None:
        return None
    if check_size is not None:
        check_size(*red.size)
    n_p, n_t, pid, tid, a, b, r = red.n_p, red.n_t, red.pid, red.tid, red.a, red.b, red.r
    m, N = C.shape
    E = len(a)
    if not exact:
        r = float(r)
    zero: Any = Fraction(0) if exact else 0.0
    c_red = np.array([zero] * n_p, dtype=object if exact else float)
    np.add.at(c_red, pid.ravel(), np.asarray(C, dtype=c_red.dtype).ravel())
    first = np.full(n_t, m * E, dtype=np.int64)
    np.minimum.at(first, tid, np.arange(m * E, dtype=np.int64))
    ub = []
    for rep in first.tolist():
        w, t = divmod(rep, E)
        row: dict[int, Any] = {}
        ia, ib = int(pid[w, a[t]]), int(pid[w, b[t]])
        row[ia] = row.get(ia, 0) + 1
        row[ib] = row.get(ib, 0) - r
        ub.append(row)
    eq = []
    for d in red.point_reps:  # one column sum per orbit of datasets (invariance gives the others)
        row = {}
        for w in range(m):
            row[int(pid[w, d])] = row.get(int(pid[w, d]), 0) + 1
        eq.append(row)
    what = f"symmetry-reduced optimal mechanism for {definition.spec()}"
    sizes = np.bincount(tid, minlength=n_t)
    note = ""
    try:
        lp = _LP(n_p, list(c_red), eq, [1] * len(eq), ub, exact, what)
        res = lp.solve()
        cands = [
            (
                np.array(
                    res.exact.x if res.exact is not None else np.clip(res.x, 0, None), dtype=object if exact else float
                ),
                np.asarray(
                    lp.exact_duals(res.exact)[1]
                    if res.exact is not None
                    else (res.ub_duals if res.ub_duals is not None else np.zeros(n_t))
                ),
            )
        ]
        note = res.note
    except SolverError:
        if not exact:
            raise
        # HiGHS's basis is not exactly optimal and the exact fallback is refused: rationalise HiGHS's float primal
        # and dual; the full re-verification below accepts only an exactly feasible pair with equal objectives
        from ...geometry._lp import rational_candidates

        flt = _LP(
            n_p,
            [float(v) for v in c_red],
            eq,
            [1] * len(eq),
            [{k: float(v) for k, v in row.items()} for row in ub],
            False,
            what,
        ).solve()
        yub = flt.ub_duals if flt.ub_duals is not None else np.zeros(n_t)
        cands = list(zip(rational_candidates(np.clip(flt.x, 0, None)), rational_candidates(yub)))
        note = "HiGHS's float optimum rationalised, then verified exactly on the full LP"
    detail = (
        f"symmetry-reduced rows LP: {n_p} orbit variables and {n_t} constraint orbits instead of {m * N:,} "
        f"variables and {m * E:,} constraints ({len(red.gens)} group generators); solution expanded and "
        f"re-verified on the full constraints, dual spread evenly over each constraint orbit"
        f"{'; ' + note if note else ''}"
    )
    for v, y_ub in cands:
        mat = v[pid]
        if exact and (np.any(mat < 0) or any(sum(mat[:, d]) != 1 for d in range(N))):
            continue
        M = Mechanism(mat, definition.inputs, outputs, exact=exact)
        best: tuple[Any, Any, Any] | None = None
        for sign in (-1, 1):
            zt = np.array(
                [max(sign * y_ub[o], zero) / int(sizes[o]) for o in range(n_t)], dtype=object if exact else float
            )
            Z = zt[tid].reshape(m, E)
            bnd, y = _full_dual_bound(C, Z, a, b, r, exact)
            if best is None or bnd < best[0]:
                best = (bnd, Z, y)
        assert best is not None
        value = (np.asarray(C, dtype=object) * mat).sum() if exact else None
        if exact and best[0] != value:
            continue
        return _finish_verified(
            definition, M, C, best[0], exact, "rows", _rows_dual(definition, best[1], best[2]), detail
        )
    raise SolverError(
        f"{what}: no exactly verified optimum (neither HiGHS's basis nor its rationalised float optimum "
        "passes the exact re-verification); no float answer is substituted"
    )


def _full_dual_bound(
    C: np.ndarray, Z: np.ndarray | tuple[np.ndarray, int], a: np.ndarray, b: np.ndarray, r: Any, exact: bool
) -> tuple[Any, list[Any]]:
    """``(Σ_D y_D, y)`` with ``y_D = max_ω (C + zA)[ω, D]`` for weights ``Z[ω, t]`` on the facets ``r x_b − x_a ≥ 0``
    of every row — the weak-duality bound, over the full constraint set. Exact mode works in integers (``Z`` may be
    given as ``(integer matrix, denominator)``), int64 when the magnitudes allow it."""
    m, N = C.shape
    if not exact:
        G = np.asarray(C, dtype=float).copy()
        Zf = np.asarray(Z, dtype=float)
        for w in range(m):
            np.add.at(G[w], b, r * Zf[w])
            np.add.at(G[w], a, -Zf[w])
        yf: list[Any] = [float(v) for v in G.max(axis=0)]
        return float(sum(yf)), yf
    Zi, Lz = Z if isinstance(Z, tuple) else _as_ints(np.asarray(Z, dtype=object))
    Ci, Lc = _as_ints(np.asarray(C, dtype=object))
    rr = Fraction(r)
    p, q = rr.numerator, rr.denominator
    # scaled G = C·Lc·Lz·q + Lc·(p Z_b − q Z_a) (all over Lc·Lz·q)
    deg = max(int(np.bincount(a, minlength=N).max(initial=0)), int(np.bincount(b, minlength=N).max(initial=0)))
    zmax = int(np.abs(Zi).max(initial=0)) if Zi.size else 0
    cmax = int(np.abs(Ci).max(initial=0)) if Ci.size else 0
    small = cmax * Lz * q + zmax * Lc * max(p, q) * deg * 2 < _INT64_SAFE
    dt: Any = np.int64 if small and Zi.dtype != object and Ci.dtype != object else object
    G = Ci.astype(dt) * (Lz * q)
    Zo = Zi.astype(dt)
    for w in range(m):
        np.add.at(G[w], b, Zo[w] * (Lc * p))
        np.add.at(G[w], a, -Zo[w] * (Lc * q))
    y = [Fraction(int(v), Lc * Lz * q) for v in G.max(axis=0)]
    return sum(y, Fraction(0)), y
