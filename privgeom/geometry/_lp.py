"""Linear programming with HiGHS (through :func:`scipy.optimize.linprog`) and exact rational re-verification.

privgeom solves its LPs in floating point (HiGHS) and then *re-verifies* every answer: in exact mode the float
solution is turned into rationals (rounding with ``limit_denominator``, an exact solve on the support of a vertex
solution, or as a last resort cdd's exact GMP simplex) and checked in exact arithmetic. Nothing here ever turns a
solver failure into a "no": failures raise :class:`~privgeom.SolverError`.

Examples
--------
>>> import numpy as np
>>> res = solve_lp(np.array([1.0, 1.0]), A_eq=np.array([[1.0, -1.0]]), b_eq=np.array([0.5]))
>>> res.status, [float(round(v, 9)) for v in res.x]
('optimal', [0.5, 0.0])
>>> exact_solve([[1, 1], [1, -1]], [1, "1/3"])
[Fraction(2, 3), Fraction(1, 3)]
>>> exact_nonnegative_solution([[1, 1], [1, -1]], [1, 3]) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Iterator, Sequence

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from .._core.errors import InvalidParameterError, SizeLimitError, SolverError
from .._core.limits import register_limit
from .._core.arrays import ATOL, ROUNDOFF
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar
from .._core.limits import current_limit

__all__ = [
    "LPResult",
    "solve_lp",
    "HighsModel",
    "HIGHS_SOLVERS",
    "check_lp_size",
    "exact_solve",
    "exact_rank",
    "modular_rank",
    "exact_inverse",
    "exact_nonnegative_solution",
    "rationalize",
    "rational_candidates",
    "MAX_LP_NONZEROS",
    "MAX_EXACT_LP_VARIABLES",
    "HIGHS_FEASIBILITY_TOL",
    "RATIONAL_DENOMINATORS",
    "SUPPORT_THRESHOLDS",
    "WITNESS_FIRST",
    "support_systems",
]

#: Largest number of non-zero constraint coefficients privgeom hands to HiGHS.
MAX_LP_NONZEROS = 2**24
#: Largest LP (variables) solved with cdd's exact GMP simplex as a last resort.
MAX_EXACT_LP_VARIABLES = 400
register_limit(
    "lp_nonzeros",
    globals(),
    "MAX_LP_NONZEROS",
    "largest LP handed to HiGHS, in non-zero constraint coefficients (about 64 bytes each)",
)
register_limit(
    "exact_lp_variables",
    globals(),
    "MAX_EXACT_LP_VARIABLES",
    "largest LP solved exactly by cdd's GMP simplex (last resort of exact answers), in variables",
)

#: HiGHS primal and dual feasibility tolerance, a thousand times tighter than HiGHS's default 1e-7: what the
#: rationalisation of LP answers needs: a vertex found within 1e-10 rounds to the exact one through
#: :data:`RATIONAL_DENOMINATORS`), and still far above the round-off of the coefficients
#: (:data:`~privgeom._core.arrays.ROUNDOFF`).
HIGHS_FEASIBILITY_TOL = 1e-10
#: HiGHS options: tighter than the defaults so that float answers can be rationalised.
_HIGHS_OPTIONS = {
    "primal_feasibility_tolerance": HIGHS_FEASIBILITY_TOL,
    "dual_feasibility_tolerance": HIGHS_FEASIBILITY_TOL,
    "presolve": True,
}
#: Largest denominators tried, in order, when rationalising a float LP answer (:func:`rational_candidates`; ``None``
#: = the float's exact binary value): small denominators first, since exact optima of privgeom's LPs have small ones.
RATIONAL_DENOMINATORS: tuple[int | None, ...] = (1000, 10**6, 10**9, None)
#: Thresholds tried, in order, for the support of a float LP solution before solving on it exactly
#: (the exact vertex repair of the closure and nearest-mechanism LPs): the user tolerance
#: :data:`~privgeom._core.arrays.ATOL` first, then the round-off level :data:`~privgeom._core.arrays.ROUNDOFF`, then every
#: non-zero entry.
SUPPORT_THRESHOLDS = (ATOL, ROUNDOFF, 0.0)
#: Exact-mode membership LPs (row cone, consistent closure): an LP optimum (ℓ1 distance) below this makes privgeom
#: try an exact witness first, else a separating certificate first. Only the order of two exact attempts depends on
#: it; it sits between HiGHS's feasibility tolerance (:data:`HIGHS_FEASIBILITY_TOL`) and the optima of genuine
#: non-members.
WITNESS_FIRST = 1e-8

#: Solver choices of :class:`HighsModel` and the HiGHS options each one sets: ``"ipm"`` is the interior-point
#: method (with crossover to a vertex), ``"dual"``/``"primal"`` the dual/primal simplex, ``"simplex"`` HiGHS's own
#: choice of simplex variant, ``"choose"`` HiGHS's own choice of algorithm.
HIGHS_SOLVERS: dict[str, dict[str, Any]] = {
    "choose": {"solver": "choose"},
    "simplex": {"solver": "simplex", "simplex_strategy": 0},
    "dual": {"solver": "simplex", "simplex_strategy": 1},
    "primal": {"solver": "simplex", "simplex_strategy": 4},
    "ipm": {"solver": "ipm", "run_crossover": "on"},
}

#: Bytes per constraint coefficient while an LP is assembled and held by HiGHS (CSC copy, COO triplets, the
#: solver's own row- and column-wise copies): a generous estimate used to refuse sizes before building.
LP_BYTES_PER_NONZERO = 64


def check_lp_size(
    n_rows: int, n_cols: int, nnz: int, *, what: str, max_nonzeros: int | None = None, hint: str = ""
) -> None:
    """Refuse an LP with more than ``max_nonzeros`` coefficients before building it.

    The default limit is the global size limit ``lp_nonzeros`` (:data:`MAX_LP_NONZEROS`, read at call time;
    :func:`privgeom.set_limits`). The message names the sizes, the memory estimate (:data:`LP_BYTES_PER_NONZERO`
    bytes per coefficient) and how to raise the limit: ``hint`` (e.g. the caller's keyword) and, unless the caller
    gave ``max_nonzeros``, ``pg.set_limits(lp_nonzeros=N)``.

    Examples
    --------
    >>> check_lp_size(10, 10, 100, what="toy LP")
    >>> check_lp_size(10**5, 10**5, 10**9, what="toy LP")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: toy LP: 100,000 rows x 100,000 variables with 1,000,000,000 non-zero coefficients (about 64.0 GB to assemble and solve) exceed the LP limit of 16,777,216 non-zeros; raise it with pg.set_limits(lp_nonzeros=1000000000) or `with pg.limits(lp_nonzeros=1000000000):`
    >>> check_lp_size(10, 10, 100, what="toy LP", max_nonzeros=50, hint="the max_nonzeros= keyword of toy()")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: toy LP: 10 rows x 10 variables with 100 non-zero coefficients (about 0.0 GB to assemble and solve) exceed the LP limit of 50 non-zeros; raise it with the max_nonzeros= keyword of toy()
    """
    limit = current_limit("lp_nonzeros") if max_nonzeros is None else int(max_nonzeros)
    if nnz > limit:
        gb = nnz * LP_BYTES_PER_NONZERO / 1e9
        if max_nonzeros is not None:
            how = f"raise it with {hint or 'the max_nonzeros= keyword'}"
        else:
            how = limit_hint("lp_nonzeros", nnz)
            if hint:
                how = how.replace("raise it with ", f"raise it with {hint}, ", 1)
        raise SizeLimitError(
            f"{what}: {n_rows:,} rows x {n_cols:,} variables with {nnz:,} non-zero coefficients (about {gb:.1f} GB to "
            f"assemble and solve) exceed the LP limit of {limit:,} non-zeros; {how}"
        )


@dataclass(frozen=True)
class LPResult:
    """A solved LP: ``status`` is ``"optimal"`` or ``"infeasible"`` (anything else raised :class:`SolverError`).

    Attributes
    ----------
    status : str
    x : numpy array or None
        Primal solution (``None`` when infeasible).
    fun : float or None
        Optimal objective value.
    eq_duals, ub_duals : numpy array or None
        HiGHS marginals (sensitivity of the optimum to ``b_eq`` / ``b_ub``), i.e. dual values with scipy's sign
        convention: for ``min c·x, A_eq x = b_eq, x ≥ 0`` they satisfy ``A_eqᵀ y ≤ c`` and ``b_eq · y = fun``.
    basis : pair of int tuples or None
        :class:`HighsModel` only: HiGHS's optimal basis, ``(column statuses, row statuses)`` as the integer values
        of ``highspy.HighsBasisStatus`` (``1`` = basic), for :func:`exact_basis_solution`.
    """

    status: str
    x: np.ndarray | None
    fun: float | None
    eq_duals: np.ndarray | None
    ub_duals: np.ndarray | None
    message: str = ""
    basis: tuple[tuple[int, ...], tuple[int, ...]] | None = None


def solve_lp(
    c: np.ndarray,
    *,
    A_ub: Any = None,
    b_ub: Any = None,
    A_eq: Any = None,
    b_eq: Any = None,
    bounds: Any = (0, None),
    method: str = "highs",
    what: str = "LP",
) -> LPResult:
    """Minimise ``c · x`` subject to ``A_ub x ≤ b_ub``, ``A_eq x = b_eq`` and ``bounds`` with HiGHS.

    Parameters
    ----------
    c, A_ub, b_ub, A_eq, b_eq, bounds
        As in :func:`scipy.optimize.linprog` (dense or scipy sparse matrices).
    method : str
        ``"highs"`` (default), ``"highs-ds"`` (dual simplex: vertex solutions) or ``"highs-ipm"``.
    what : str
        Name of the problem for error messages.

    Returns
    -------
    LPResult
        ``status == "optimal"`` or ``"infeasible"``.

    Raises
    ------
    SolverError
        Unbounded problems, iteration limits, numerical trouble, or any exception inside the solver.
    SizeLimitError
        More than :data:`MAX_LP_NONZEROS` constraint coefficients.
    """
    nnz = sum(_nnz(A) for A in (A_ub, A_eq) if A is not None)
    n_rows = sum(int(np.shape(A)[0]) for A in (A_ub, A_eq) if A is not None)
    check_lp_size(n_rows, int(np.size(c)), nnz, what=what)
    try:
        res = linprog(
            c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method=method, options=dict(_HIGHS_OPTIONS)
        )
    except Exception as err:  # scipy raises ValueError/RuntimeError on degenerate input or HiGHS errors
        raise SolverError(f"{what}: HiGHS failed ({type(err).__name__}: {err})") from err
    if res.status == 0:
        eq = np.asarray(res.eqlin.marginals, dtype=float) if getattr(res, "eqlin", None) is not None else None
        ub = np.asarray(res.ineqlin.marginals, dtype=float) if getattr(res, "ineqlin", None) is not None else None
        return LPResult("optimal", np.asarray(res.x, dtype=float), float(res.fun), eq, ub, str(res.message))
    if res.status == 2:
        return LPResult("infeasible", None, None, None, None, str(res.message))
    raise SolverError(f"{what}: HiGHS returned status {res.status} ({res.message}); no answer can be given")


def _new_highs() -> Any:
    """A silent HiGHS instance (the core class: ``highspy.Highs()`` prints a banner on stdout when created)."""
    import highspy

    core = getattr(getattr(highspy, "_core", None), "_Highs", None)
    h = core() if core is not None else highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


class HighsModel:
    """An LP ``min c·x`` s.t. ``row_lower ≤ A x ≤ row_upper``, ``col_lower ≤ x ≤ col_upper``, held by HiGHS for reuse.

    The model is passed to HiGHS once; :meth:`solve` may change the row bounds (a new right-hand side) and then
    re-solves starting from the previous optimal basis (a warm start: only the simplex variants use it).

    Parameters
    ----------
    c : 1-D array
    A : scipy sparse matrix (converted to CSC)
    row_lower, row_upper, col_lower, col_upper : 1-D arrays (``±inf`` for no bound)
    what : str
        Name for error messages.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = HighsModel(np.array([1.0, 1.0]), sp.csc_matrix([[1.0, -1.0]]), [0.5], [0.5], [0, 0], [np.inf, np.inf])
    >>> r = m.solve(); r.status, [float(v) for v in r.x], float(r.eq_duals[0])
    ('optimal', [0.5, 0.0], 1.0)
    >>> r = m.solve(row_lower=[-2.0], row_upper=[-2.0], solver="dual"); [float(v) for v in r.x], m.warm
    ([0.0, 2.0], True)
    """

    def __init__(
        self, c: Any, A: Any, row_lower: Any, row_upper: Any, col_lower: Any, col_upper: Any, *, what: str = "LP"
    ) -> None:
        import highspy

        A = sp.csc_matrix(A)
        self.what = what
        self.shape = A.shape
        self.warm = False
        inf = highspy.kHighsInf

        def arr(v: Any) -> np.ndarray:
            out = np.asarray(v, dtype=float).copy()
            out[out == np.inf] = inf
            out[out == -np.inf] = -inf
            return out

        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = int(A.shape[1]), int(A.shape[0])
        lp.col_cost_ = np.asarray(c, dtype=float)
        lp.col_lower_, lp.col_upper_ = arr(col_lower), arr(col_upper)
        lp.row_lower_, lp.row_upper_ = arr(row_lower), arr(row_upper)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = A.indptr.astype(np.int32)
        lp.a_matrix_.index_ = A.indices.astype(np.int32)
        lp.a_matrix_.value_ = A.data.astype(float)
        self._arr = arr
        self._h = _new_highs()
        for key, val in _HIGHS_OPTIONS.items():
            self._h.setOptionValue(key, val)
        status = self._h.passModel(lp)
        if status == highspy.HighsStatus.kError:
            raise SolverError(f"{what}: HiGHS refused the model ({A.shape[0]} rows, {A.shape[1]} variables)")

    def solve(
        self, *, row_lower: Any = None, row_upper: Any = None, solver: str = "choose", rows: Any = None
    ) -> LPResult:
        """Solve (after replacing the bounds of ``rows``, all rows by default); statuses as :func:`solve_lp`.

        Parameters
        ----------
        row_lower, row_upper : 1-D arrays, optional
            New bounds of ``rows`` (both given, or neither).
        solver : str
            A key of :data:`HIGHS_SOLVERS`.
        rows : 1-D int array, optional
            Which rows the new bounds belong to (default all).

        Raises
        ------
        SolverError
            Unbounded, iteration/time limits, numerical trouble or any HiGHS error.
        """
        import highspy

        if solver not in HIGHS_SOLVERS:
            from .._core.errors import InvalidParameterError

            raise InvalidParameterError(
                f"{self.what}: unknown LP solver {solver!r}; choose one of {list(HIGHS_SOLVERS)}"
            )
        h = self._h
        try:
            if row_lower is not None:
                idx = np.arange(self.shape[0], dtype=np.int32) if rows is None else np.asarray(rows, dtype=np.int32)
                h.changeRowsBounds(len(idx), idx, self._arr(row_lower), self._arr(row_upper))
            for key, val in HIGHS_SOLVERS[solver].items():
                h.setOptionValue(key, val)
            self.warm = bool(h.getBasis().valid)
            h.run()
            status = h.getModelStatus()
        except Exception as err:  # pybind raises RuntimeError/TypeError on bad input or solver trouble
            raise SolverError(f"{self.what}: HiGHS failed ({type(err).__name__}: {err})") from err
        S = highspy.HighsModelStatus
        if status == S.kOptimal:
            sol = h.getSolution()
            x = np.asarray(sol.col_value, dtype=float)
            duals = np.asarray(sol.row_dual, dtype=float) if sol.dual_valid else None
            b = h.getBasis()
            basis = (tuple(int(v) for v in b.col_status), tuple(int(v) for v in b.row_status)) if b.valid else None
            return LPResult("optimal", x, float(h.getInfo().objective_function_value), duals, None, "optimal", basis)
        if status == S.kInfeasible:
            return LPResult("infeasible", None, None, None, None, "infeasible")
        raise SolverError(
            f"{self.what}: HiGHS ended with status {h.modelStatusToString(status)!r}; no answer can be given"
        )


def _nnz(A: Any) -> int:
    if sp.issparse(A):
        return int(A.nnz)
    arr = np.asarray(A)
    return int(np.count_nonzero(arr)) if arr.size else 0


# ---------------------------------------------------------------------------------------------------- rationals
def rationalize(values: Any, max_denominator: int | None) -> np.ndarray:
    """Turn floats into Fractions: the closest fraction with denominator ``≤ max_denominator``, or exactly.

    ``max_denominator=None`` converts each float bit-exactly (every float is a dyadic rational).

    Examples
    --------
    >>> rationalize([0.3333333333333, 0.5], 1000).tolist()
    [Fraction(1, 3), Fraction(1, 2)]
    """
    arr = np.asarray(values, dtype=float)
    out = np.empty(arr.shape, dtype=object)
    flat = out.reshape(-1)
    for i, v in enumerate(arr.reshape(-1)):
        f = Fraction(float(v))
        flat[i] = f if max_denominator is None else f.limit_denominator(max_denominator)
    return out


def rational_candidates(values: Any) -> Iterable[np.ndarray]:
    """Successively finer rationalisations of a float array: denominators ``≤ 10^3, 10^6, 10^9``, then exact."""
    seen: list[np.ndarray] = []
    for den in RATIONAL_DENOMINATORS:
        cand = rationalize(values, den)
        if any(np.array_equal(cand, s) for s in seen):
            continue
        seen.append(cand)
        yield cand


def support_systems(
    rows: Any, cols: Any, vals: Any, n_rows: int, x: Any
) -> Iterator[tuple[tuple[int, ...], list[dict[int, Fraction]]]]:
    """The sparse system ``(rows, cols, vals)`` (COO, duplicates summed, ``n_rows`` rows) restricted to the support of
    a float solution ``x``, for each threshold of :data:`SUPPORT_THRESHOLDS` giving a new support: ``(support,
    rowdicts)`` with ``rowdicts[r] = {position in support: Fraction coefficient}`` — ready for :func:`exact_solve`
    (the exact repair of a float LP vertex).

    Examples
    --------
    >>> [(s, r) for s, r in support_systems([0, 0], [0, 1], [1.0, 2.0], 1, np.array([0.5, 1e-10]))]
    [((0,), [{0: Fraction(1, 1)}]), ((0, 1), [{0: Fraction(1, 1), 1: Fraction(2, 1)}])]
    """
    x = np.asarray(x, dtype=float)
    tried: set[tuple[int, ...]] = set()
    for thr in SUPPORT_THRESHOLDS:
        support = tuple(int(i) for i in np.nonzero(x > thr)[0])
        if support in tried:
            continue
        tried.add(support)
        pos = {v: k for k, v in enumerate(support)}
        rowdicts: list[dict[int, Fraction]] = [dict() for _ in range(n_rows)]
        for r_, c_, v_ in zip(rows, cols, vals):
            k = pos.get(int(c_))
            if k is not None:
                rowdicts[int(r_)][k] = rowdicts[int(r_)].get(k, Fraction(0)) + Fraction(v_)
        yield support, rowdicts


# ---------------------------------------------------------------------------------------------------- exact algebra
def _sparse_rows(A: Any) -> list[dict[int, Fraction]]:
    if isinstance(A, list) and A and isinstance(A[0], dict):
        return [{int(k): Fraction(v) for k, v in row.items() if v != 0} for row in A]
    if sp.issparse(A):
        A = A.tocsr()
        rows = []
        for i in range(A.shape[0]):
            lo, hi = A.indptr[i], A.indptr[i + 1]
            rows.append({int(j): _frac(v) for j, v in zip(A.indices[lo:hi], A.data[lo:hi]) if v != 0})
        return rows
    arr = np.asarray(A, dtype=object)
    if arr.ndim != 2:
        arr = arr.reshape(len(arr), -1)
    return [{j: _frac(v) for j, v in enumerate(row) if v != 0} for row in arr]


def _frac(v: Any) -> Fraction:
    if isinstance(v, Fraction):
        return v
    if isinstance(v, (int, np.integer)):
        return Fraction(int(v))
    return parse_scalar(v, exact=True)  # type: ignore[return-value]


def _rref(
    rows: list[dict[int, Fraction]], rhs: list[Fraction]
) -> tuple[dict[int, tuple[dict[int, Fraction], Fraction]], bool]:
    """Incremental reduced row echelon form. Returns ``{pivot column: (row, rhs)}`` and consistency."""
    pivots: dict[int, tuple[dict[int, Fraction], Fraction]] = {}
    consistent = True
    for row, b in zip(rows, rhs):
        r = dict(row)
        for col in [c for c in r if c in pivots]:
            coef = r.get(col)
            if not coef:
                continue
            prow, pb = pivots[col]
            for k, v in prow.items():
                nv = r.get(k, 0) - coef * v
                if nv:
                    r[k] = nv
                else:
                    r.pop(k, None)
            b = b - coef * pb
        if not r:
            if b != 0:
                consistent = False
            continue
        col = min(r, key=lambda c: (len(str(r[c])), c))
        piv = r[col]
        r = {k: v / piv for k, v in r.items()}
        b = b / piv
        for pc, (prow, pb) in list(pivots.items()):
            coef = prow.get(col)
            if coef:
                new = dict(prow)
                for k, v in r.items():
                    nv = new.get(k, 0) - coef * v
                    if nv:
                        new[k] = nv
                    else:
                        new.pop(k, None)
                pivots[pc] = (new, pb - coef * b)
        pivots[col] = (r, b)
    return pivots, consistent


def exact_solve(A: Any, b: Sequence[Any], n_vars: int | None = None) -> list[Fraction] | None:
    """One exact rational solution of ``A x = b`` (free variables set to 0), or None if inconsistent.

    ``A`` may be a dense 2-D array/list, a scipy sparse matrix or a list of ``{column: value}`` dicts.
    """
    rows = _sparse_rows(A)
    rhs = [_frac(v) for v in b]
    if n_vars is None:
        n_vars = (
            np.asarray(A).shape[1]
            if not (isinstance(A, list) and A and isinstance(A[0], dict)) and not sp.issparse(A)
            else (A.shape[1] if sp.issparse(A) else 1 + max((max(r) for r in rows if r), default=-1))
        )
    pivots, ok = _rref(rows, rhs)
    if not ok:
        return None
    x = [Fraction(0)] * int(n_vars)
    for col, (_row, val) in pivots.items():
        x[col] = val
    return x


def exact_inverse(A: Any) -> np.ndarray | None:
    """Exact inverse of a square rational matrix by Gauss–Jordan elimination (None if singular).

    Examples
    --------
    >>> exact_inverse([[2, 1], [1, 1]]).tolist()
    [[Fraction(1, 1), Fraction(-1, 1)], [Fraction(-1, 1), Fraction(2, 1)]]
    """
    arr = np.asarray(A, dtype=object)
    n = arr.shape[0]
    if arr.ndim != 2 or arr.shape[1] != n:
        raise ValueError(f"exact_inverse needs a square matrix, got shape {arr.shape}")
    rows = [[_frac(v) for v in arr[i]] + [Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for col in range(n):
        piv = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        prow = rows[col]
        inv = 1 / prow[col]
        prow = [v * inv for v in prow]
        rows[col] = prow
        for r in range(n):
            if r != col:
                f = rows[r][col]
                if f:
                    rows[r] = [a - f * b for a, b in zip(rows[r], prow)]
    out = np.empty((n, n), dtype=object)
    for i in range(n):
        out[i, :] = rows[i][n:]
    return out


#: A prime below 2^31: the product of two residues fits in an ``int64``, so elimination modulo it runs on numpy arrays.
RANK_PRIME = 2_147_483_647


def modular_rank(A: Any, prime: int = RANK_PRIME) -> int:
    """Rank modulo ``prime`` of a rational matrix whose rows are scaled to integers: a lower bound on its rank.

    Scaling a row by a positive integer does not change the rank, and an ``r × r`` minor that is nonzero modulo
    ``prime`` is a nonzero integer, so the rank over the rationals is at least the rank modulo ``prime``; when the
    bound is ``min(m, n)`` it *is* the rank. A denominator divisible by ``prime`` has no residue: the answer is then 0
    (no bound). Gaussian elimination modulo a prime is the standard fraction-free route (e.g. von zur Gathen &
    Gerhard, *Modern Computer Algebra*, Section 5.5, "Modular algorithms").

    Examples
    --------
    >>> modular_rank([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]]), modular_rank([[1, 2], [2, 4]])
    (2, 1)
    >>> modular_rank(np.array([[1, 2], [2, 4], [0, -3]]))      # an integer array: residues without Fractions
    2
    """
    import math

    if isinstance(A, np.ndarray) and A.ndim == 2 and A.dtype.kind in "iu":  # integers: residues at once
        if A.size == 0:
            return 0
        R = np.mod(A.astype(np.int64, copy=False), prime)
    else:
        rows = [[_frac(v) for v in row] for row in (A.tolist() if isinstance(A, np.ndarray) else A)]
        if not rows or not rows[0]:
            return 0
        R = np.empty((len(rows), len(rows[0])), dtype=np.int64)
        for i, row in enumerate(rows):
            scale = math.lcm(*(v.denominator for v in row))
            if scale % prime == 0:
                return 0
            R[i] = [(v.numerator * (scale // v.denominator)) % prime for v in row]
    rank = 0
    for col in range(R.shape[1]):
        nz = np.nonzero(R[rank:, col])[0]
        if len(nz) == 0:
            continue
        piv = rank + int(nz[0])
        R[[rank, piv]] = R[[piv, rank]]
        R[rank] = (R[rank] * pow(int(R[rank, col]), prime - 2, prime)) % prime
        below = R[rank + 1 :, col].copy()
        R[rank + 1 :] = (R[rank + 1 :] - (below[:, None] * R[rank][None, :]) % prime) % prime
        rank += 1
        if rank == R.shape[0]:
            break
    return rank


def exact_rank(A: Any, *, method: str = "auto") -> int:
    """Exact rank of a rational matrix.

    ``method="auto"`` first bounds the rank from below modulo a prime (:func:`modular_rank`, integer arrays) and
    returns it when the bound is full (``min(m, n)``: then it is the rank); otherwise, and with ``method="fraction"``,
    the rank comes from exact elimination on Fractions.

    Examples
    --------
    >>> exact_rank([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]])
    2
    >>> exact_rank([[1, 2], [2, 4]]), exact_rank([[1, 2], [2, 4]], method="fraction")
    (1, 1)
    """
    if method not in ("auto", "fraction"):
        raise InvalidParameterError(f"exact_rank: unknown method {method!r}; use 'auto' or 'fraction'")
    if method == "auto" and not sp.issparse(A) and not (isinstance(A, list) and A and isinstance(A[0], dict)):
        shape = np.shape(A)
        if len(shape) == 2 and min(shape) > 0 and modular_rank(A) == min(shape):
            return int(min(shape))
    rows = _sparse_rows(A)
    pivots, _ = _rref(rows, [Fraction(0)] * len(rows))
    return len(pivots)


def exact_nonnegative_solution(A: Any, b: Sequence[Any]) -> list[Fraction] | None:
    """An exact ``x ≥ 0`` with ``A x = b`` (cdd's exact GMP simplex), or None when there is none.

    Only for small systems (at most :data:`MAX_EXACT_LP_VARIABLES` variables): the last resort when rationalising a
    HiGHS solution failed.

    Raises
    ------
    SizeLimitError
        Too many variables for the exact simplex.
    SolverError
        cdd did not finish (neither optimal nor inconsistent).
    """
    from ._cdd import exact_linprog

    m, n = A.shape if sp.issparse(A) else np.shape(A)
    if n > current_limit("exact_lp_variables"):
        raise SizeLimitError(
            f"the exact LP (cdd's GMP simplex) with {m:,} equations and {n:,} variables exceeds the "
            f"limit of {current_limit('exact_lp_variables'):,} variables; refused before "
            "building it — "
            f"{limit_hint('exact_lp_variables', n)}"
        )
    arr = np.asarray(A, dtype=object) if not sp.issparse(A) else np.asarray(A.todense(), dtype=object)
    rhs = [_frac(v) for v in b]
    table: list[list[Fraction]] = []
    for i in range(m):
        row = [_frac(v) for v in arr[i]]
        table.append([rhs[i]] + [-v for v in row])  # b - A x >= 0
        table.append([-rhs[i]] + row)  # A x - b >= 0
    for j in range(n):
        table.append([Fraction(0)] + [Fraction(int(k == j)) for k in range(n)])
    table.append([Fraction(0)] * (n + 1))  # objective 0: a feasibility problem
    res = exact_linprog(table)
    if res.status == "infeasible":
        return None
    if res.status != "optimal":  # pragma: no cover - a zero objective is never unbounded
        raise SolverError(f"cdd exact LP ended with status {res.status!r}")
    return res.x
