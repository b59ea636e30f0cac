"""Exact optima of LPs with rational data: from a simplex basis (HiGHS's), or by cdd's exact GMP simplex.

privgeom solves its LPs with HiGHS in floating point (:mod:`privgeom.geometry._lp`). When the data are rational, an
optimal *basis* determines the exact optimum: :func:`exact_basis_solution` solves the two square systems of the
basis (vertex and duals) over the rationals and checks exact primal and dual feasibility, so LP duality proves the
pair optimal (docs/theory.md, "Exact optima from the optimal basis"). :func:`exact_lp_cdd` is the fallback for
small LPs when HiGHS's basis is only nearly optimal.

Examples
--------
>>> sol = exact_basis_solution([-1, -1], [{0: 1, 1: 2}, {0: 3, 1: 1}], [None, None], [4, 6], ((1, 1), (2, 2)))
>>> sol.value, sol.method
(Fraction(-14, 5), 'basis')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import numpy as np

from .._core.errors import SizeLimitError, SolverError
from .._core.hints import limit_hint
from .._core.limits import current_limit
from ._lp import _frac, exact_solve

__all__ = ["ExactLPSolution", "exact_basis_solution", "exact_lp_cdd"]


@dataclass(frozen=True)
class ExactLPSolution:
    """An exactly verified optimum of ``min c·x`` s.t. ``lower ≤ A x ≤ upper``, ``x ≥ 0`` (see
    :func:`exact_basis_solution`).

    ``x`` is primal feasible and ``y`` (one dual per row, the sensitivity of the optimum to the row's active bound,
    the sign convention of ``LPResult``) dual feasible, both checked in rational arithmetic, and
    ``value == c·x == Σ_i y_i b_i`` where ``b_i`` is the active bound of row ``i``: LP duality then proves ``x``
    optimal. ``method`` is ``"basis"`` (HiGHS's optimal basis solved exactly) or ``"cdd"`` (cdd's exact simplex).
    """

    x: tuple[Fraction, ...]
    y: tuple[Fraction, ...]
    value: Fraction
    method: str


def _dot(row: dict[int, Fraction], x: Sequence[Fraction]) -> Fraction:
    return sum((a * x[j] for j, a in row.items()), Fraction(0))


def _verify_exact(
    c: list[Fraction],
    rows: list[dict[int, Fraction]],
    lower: list[Fraction | None],
    upper: list[Fraction | None],
    x: Sequence[Fraction],
    y: Sequence[Fraction],
) -> Fraction | None:
    """Exact optimality check of ``(x, y)`` for ``min c·x``, ``lower ≤ A x ≤ upper``, ``x ≥ 0``: primal
    feasibility, dual feasibility (``y_i ≥ 0`` only on a finite lower bound, ``≤ 0`` only on a finite upper bound,
    reduced costs ``c − Aᵀy ≥ 0``) and equal objectives. Returns the optimum or None."""
    if any(v < 0 for v in x):
        return None
    dual_obj = Fraction(0)
    for row, lo, hi, yi in zip(rows, lower, upper, y):
        ax = _dot(row, x)
        if (lo is not None and ax < lo) or (hi is not None and ax > hi):
            return None
        if yi > 0:
            if lo is None:
                return None
            dual_obj += yi * lo
        elif yi < 0:
            if hi is None:
                return None
            dual_obj += yi * hi
    reduced = list(c)
    for row, yi in zip(rows, y):
        if yi:
            for j, a in row.items():
                reduced[j] -= a * yi
    if any(d < 0 for d in reduced):
        return None
    primal_obj = sum((cj * xj for cj, xj in zip(c, x) if cj), Fraction(0))
    return primal_obj if primal_obj == dual_obj else None


class _ExactLP(NamedTuple):
    """An LP ``min c·x`` s.t. ``lower ≤ A x ≤ upper``, ``x ≥ 0`` in Fractions (absent bounds None)."""

    c: list[Fraction]
    rows: list[dict[int, Fraction]]
    lower: list[Fraction | None]
    upper: list[Fraction | None]


def _exact_inputs(
    c: Sequence[Any], rows: Sequence[dict[int, Any]], lower: Sequence[Any], upper: Sequence[Any]
) -> _ExactLP:
    fin = lambda v: None if v is None or (isinstance(v, float) and not np.isfinite(v)) else _frac(v)  # noqa: E731
    return _ExactLP(
        c=[_frac(v) for v in c],
        rows=[{int(j): _frac(a) for j, a in r.items() if a != 0} for r in rows],
        lower=[fin(v) for v in lower],
        upper=[fin(v) for v in upper],
    )


def exact_basis_solution(
    c: Sequence[Any],
    rows: Sequence[dict[int, Any]],
    lower: Sequence[Any],
    upper: Sequence[Any],
    basis: tuple[Sequence[int], Sequence[int]],
) -> ExactLPSolution | None:
    """Recover the exact optimum of ``min c·x`` s.t. ``lower ≤ A x ≤ upper``, ``x ≥ 0`` from an optimal basis.

    ``rows`` are ``{column: coefficient}`` dicts with rational coefficients; ``None`` or ``±inf`` bounds are absent.
    ``basis`` is HiGHS's ``(column statuses, row statuses)`` (``LPResult.basis``; ``1`` = basic). A basis
    determines the vertex and its duals (standard simplex theory, e.g. Chvátal, *Linear Programming*, ch. 8):
    non-basic columns are 0 and non-basic rows hold at their active bound, a square system for the basic columns
    (``A_{N,B} x_B = b_N``); the duals vanish on basic rows and make the basic reduced costs zero
    (``A_{N,B}ᵀ y_N = c_B``). Both systems are solved by exact Gauss–Jordan elimination over the rationals
    (:func:`exact_solve`), and the pair is then checked for exact primal and dual feasibility and equal objectives
    (:class:`ExactLPSolution`). Returns None when the basis does not give an exactly optimal pair (HiGHS's float
    tolerances accepted a basis that is only nearly optimal), in which case :func:`exact_lp_cdd` is the fallback.

    Examples
    --------
    ``min −x₀ − x₁`` s.t. ``x₀ + 2x₁ ≤ 4``, ``3x₀ + x₁ ≤ 6``: vertex ``(8/5, 6/5)``, duals ``(−2/5, −1/5)``.

    >>> rows = [{0: 1, 1: 2}, {0: 3, 1: 1}]
    >>> sol = exact_basis_solution([-1, -1], rows, [None, None], [4, 6], ((1, 1), (2, 2)))
    >>> [str(v) for v in sol.x], [str(v) for v in sol.y], sol.value
    (['8/5', '6/5'], ['-2/5', '-1/5'], Fraction(-14, 5))
    """
    cc, rr, lo, hi = _exact_inputs(c, rows, lower, upper)
    col_status, row_status = basis
    BASIC, LOWER = 1, 0  # HiGHS basis status codes (2, at the upper bound, never occurs: x ≥ 0 has none)
    n = len(cc)
    if len(col_status) != n or len(row_status) != len(rr):
        return None
    basic = [j for j in range(n) if col_status[j] == BASIC]
    if any(col_status[j] not in (BASIC, LOWER) for j in range(n)):  # x ≥ 0 has no upper bound: only "at 0"
        return None
    pos = {j: k for k, j in enumerate(basic)}
    active: list[tuple[int, Fraction]] = []
    for i, st in enumerate(row_status):
        if st == BASIC:
            continue
        bound = lo[i] if (st == LOWER or hi[i] is None) else hi[i]
        if bound is None:
            bound = hi[i] if lo[i] is None else lo[i]
        if bound is None:
            return None
        active.append((i, bound))
    sub = [{pos[j]: a for j, a in rr[i].items() if j in pos} for i, _ in active]
    xb = exact_solve(sub, [b for _, b in active], n_vars=len(basic)) if basic else []
    if xb is None:
        return None
    x = [Fraction(0)] * n
    for j, v in zip(basic, xb):
        x[j] = v
    arow = {i: k for k, (i, _) in enumerate(active)}
    trans: list[dict[int, Fraction]] = [dict() for _ in basic]
    for i, _ in active:
        for j, a in rr[i].items():
            if j in pos:
                trans[pos[j]][arow[i]] = a
    yn = exact_solve(trans, [cc[j] for j in basic], n_vars=len(active)) if active else []
    if yn is None:
        return None
    y = [Fraction(0)] * len(rr)
    for (i, _), v in zip(active, yn):
        y[i] = v
    value = _verify_exact(cc, rr, lo, hi, x, y)
    return None if value is None else ExactLPSolution(tuple(x), tuple(y), value, "basis")


def exact_lp_cdd(
    c: Sequence[Any], rows: Sequence[dict[int, Any]], lower: Sequence[Any], upper: Sequence[Any]
) -> ExactLPSolution | None:
    """Solve ``min c·x`` s.t. ``lower ≤ A x ≤ upper``, ``x ≥ 0`` with cdd's exact GMP simplex (primal and duals),
    verified like :func:`exact_basis_solution`; None when cdd's answer does not verify or the LP is infeasible.

    Only for small LPs (at most :data:`~privgeom.geometry._lp.MAX_EXACT_LP_VARIABLES` variables): the fallback
    when HiGHS's basis does not give an exact optimum.

    Raises
    ------
    SizeLimitError
        More variables than :data:`~privgeom.geometry._lp.MAX_EXACT_LP_VARIABLES`.
    SolverError
        cdd ended neither optimal nor infeasible (e.g. unbounded).

    Examples
    --------
    >>> sol = exact_lp_cdd([-1, -1], [{0: 1, 1: 2}, {0: 3, 1: 1}], [None, None], [4, 6])
    >>> [str(v) for v in sol.x], sol.value, sol.method
    (['8/5', '6/5'], Fraction(-14, 5), 'cdd')
    """
    import cdd
    import cdd.gmp

    cc, rr, lo, hi = _exact_inputs(c, rows, lower, upper)
    n = len(cc)
    if n > current_limit("exact_lp_variables"):
        raise SizeLimitError(
            f"the exact LP (cdd's GMP simplex) with {len(rr):,} rows and {n:,} variables exceeds the "
            f"limit of {current_limit('exact_lp_variables'):,} variables; refused before "
            "building it — "
            f"{limit_hint('exact_lp_variables', n)}"
        )
    table: list[list[Fraction]] = []
    origin: list[tuple[int, int]] = []  # (row index or -1 for x_j ≥ 0, sign of A x in the cdd row b + sign·A x ≥ 0)
    for i, row in enumerate(rr):
        dense = [row.get(j, Fraction(0)) for j in range(n)]
        h, lw = hi[i], lo[i]
        if h is not None:
            table.append([h] + [-v for v in dense])
            origin.append((i, -1))
        if lw is not None:
            table.append([-lw] + dense)
            origin.append((i, 1))
    for j in range(n):
        table.append([Fraction(0)] + [Fraction(int(k == j)) for k in range(n)])
        origin.append((-1, j))
    table.append([Fraction(0)] + [-v for v in cc])  # cdd maximises −c·x
    try:
        lp = cdd.gmp.linprog_from_array(table, obj_type=cdd.LPObjType.MAX)
        cdd.gmp.linprog_solve(lp)
    except Exception as err:  # pragma: no cover - defensive
        raise SolverError(f"cdd exact LP failed: {err}") from err
    if lp.status in (cdd.LPStatusType.INCONSISTENT, cdd.LPStatusType.STRUC_INCONSISTENT):
        return None
    if lp.status != cdd.LPStatusType.OPTIMAL:
        raise SolverError(f"cdd exact LP ended with status {lp.status!r}")
    x = [Fraction(v) for v in lp.primal_solution]
    y = [Fraction(0)] * len(rr)
    for k, v in lp.dual_solution:  # max −c·x ≤ Σ v_k b_k: the row b + s·A x ≥ 0 carries dual s·v in our convention
        i, sgn = origin[int(k)]
        if i >= 0:
            y[i] += sgn * Fraction(v)
    value = _verify_exact(cc, rr, lo, hi, x, y)
    return None if value is None else ExactLPSolution(tuple(x), tuple(y), value, "cdd")
