"""Private wrapper around pycddlib: the only module of privgeom that imports ``cdd``.

All functions speak *homogeneous* rows (no constant column): an H-row ``a`` means ``a·x ≥ 0`` (or ``a·x = 0`` when
it is a linearity), a V-row ``v`` is a ray (or a lineality direction). The pycddlib convention — an H-row
``[b, -A]`` means ``b - A x ≥ 0`` and a generator ``[0, v]`` is a ray, ``[1, v]`` a point — is handled here: for a
cone ``b = 0`` and ``a·x ≥ 0`` is the pycddlib row ``[0, *a]``.

Exact mode uses ``cdd.gmp`` (Python ints or Fractions in, ``fractions.Fraction`` out); float mode uses ``cdd`` (double
precision). Sizes are checked *before* calling the double description method (:data:`MAX_DD_DIM`,
:data:`MAX_DD_ENTRIES`, :data:`MAX_FM_ROWS`) because cdd cannot be interrupted once it runs. Any failure of cdd
is re-raised as :class:`~privgeom.SolverError` — never read as a "no".

Examples
--------
>>> import numpy as np
>>> from fractions import Fraction
>>> rays = np.array([[Fraction(1), Fraction(0)], [Fraction(1), Fraction(1)]], dtype=object)
>>> facets, equalities = v_to_h(rays, np.zeros((0, 2), dtype=object), exact=True)
>>> sorted(tuple(int(v) for v in row) for row in facets), equalities.shape
([(0, 1), (1, -1)], (0, 2))
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import cdd
import cdd.gmp
import numpy as np

from .._core.errors import SizeLimitError, SolverError
from .._core.limits import register_limit
from .._core.hints import limit_hint
from .._core.limits import current_limit
from ._canonical import _primitive_ints

__all__ = [
    "MAX_DD_DIM",
    "MAX_DD_ENTRIES",
    "MAX_CANON_ENTRIES",
    "MAX_FM_ROWS",
    "canonicalize",
    "v_to_h",
    "h_to_v",
    "block_eliminate",
    "fourier_eliminate",
    "exact_linprog",
    "ExactLPResult",
]

#: Largest ambient dimension for which privgeom runs the double description method (H↔V conversion,
#: block elimination). Beyond it the number of facets/rays can explode; use a structured method instead.
MAX_DD_DIM = 64
#: Largest ``rows × columns`` of an input to the double description method.
MAX_DD_ENTRIES = 20_000
#: Largest ``rows × columns`` given to cdd's LP-based canonicalisation (redundancy removal).
MAX_CANON_ENTRIES = 400_000
#: Largest number of inequalities Fourier–Motzkin elimination may hold after any elimination step.
MAX_FM_ROWS = 5_000
register_limit(
    "dd_dim",
    globals(),
    "MAX_DD_DIM",
    "largest ambient dimension of a double description (H/V conversion by any engine, block elimination)",
)
register_limit(
    "dd_entries",
    globals(),
    "MAX_DD_ENTRIES",
    "largest input of a double description by cdd, in rows x (dimension + 1) entries",
)
register_limit(
    "canon_entries",
    globals(),
    "MAX_CANON_ENTRIES",
    "largest input of cdd's redundancy removal (canonicalisation), in rows x (dimension + 1) entries",
)
register_limit(
    "fm_rows",
    globals(),
    "MAX_FM_ROWS",
    "most inequalities Fourier-Motzkin elimination may hold after any elimination step",
)
#: Float mode: entries of a cdd output row below this magnitude are cdd's round-off (the homogenising coordinate of
#: a cone's generators and inequalities is zero in exact arithmetic); cdd's own float epsilon is about 1e-9, and
#: its answers drift further, so anything larger is a genuine inhomogeneous row (an error).
CDD_FLOAT_ZERO = 1e-7
#: Float rank test of independent rows (rows scaled to unit max-abs entry): singular values below this times the
#: larger side are zero, the same order as the user tolerance :data:`~privgeom._core.arrays.ATOL`.
RANK_RTOL = 1e-9

_INEQ = cdd.RepType.INEQUALITY
_GEN = cdd.RepType.GENERATOR


def _module(exact: bool) -> Any:
    return cdd.gmp if exact else cdd


def _check_dd(n_rows: int, dim: int, what: str) -> None:
    if dim > current_limit("dd_dim"):
        raise SizeLimitError(
            f"{what}: ambient dimension {dim} exceeds the double-description limit of {current_limit('dd_dim')} "
            "dimensions; "
            "refused before running cdd (the number of facets/rays can grow exponentially) — "
            f"{limit_hint('dd_dim', dim)}"
        )
    if n_rows * (dim + 1) > current_limit("dd_entries"):
        raise SizeLimitError(
            f"{what}: {n_rows} rows x {dim} coordinates = {n_rows * (dim + 1):,} entries exceed the "
            f"double-description limit of {current_limit('dd_entries'):,} entries; refused before running cdd — "
            f"{limit_hint('dd_entries', n_rows * (dim + 1))}"
        )


def _build(rows: np.ndarray, lin_rows: np.ndarray, rep: Any, exact: bool) -> Any:
    """A cdd matrix with the inequalities/rays ``rows`` followed by the linearities ``lin_rows``."""
    mod = _module(exact)
    array: list[list[Any]] = []
    if exact:  # cdd.gmp takes Python ints and Fractions as they are (integer rows build no Fraction)
        for r in rows.tolist() + lin_rows.tolist():
            array.append([0] + [v if type(v) is int or type(v) is Fraction else Fraction(v) for v in r])
    else:
        for r in list(rows) + list(lin_rows):
            array.append([0.0] + [float(v) for v in r])
    lin = set(range(len(rows), len(rows) + len(lin_rows)))
    try:
        return mod.matrix_from_array(array, lin_set=lin, rep_type=rep)
    except Exception as err:  # pragma: no cover - cdd rejects only malformed input, which we validate earlier
        raise SolverError(f"pycddlib could not build a {len(array)} x {rows.shape[1] + 1} matrix: {err}") from err


def _as_rational(v: Any) -> Any:
    """cdd.gmp's entries as they are (Fractions, or ints), anything else as a Fraction."""
    return v if type(v) is Fraction or type(v) is int else Fraction(v)


def _split(mat: Any, dim: int, exact: bool, *, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Split a cdd matrix into (non-linearity rows, linearity rows) as homogeneous arrays of width ``dim``.

    For H-matrices rows ``[b, a]`` with ``a = 0`` and ``b > 0`` (the trivial ``1 ≥ 0``) are dropped; for
    V-matrices the points ``[1, v]`` are dropped after checking that the only point is the origin.
    """
    dtype: Any = object if exact else float
    conv: Any = _as_rational if exact else float
    lin = set(mat.lin_set)
    plain: list[list[Any]] = []
    linear: list[list[Any]] = []
    for i, row in enumerate(mat.array):
        head = conv(row[0])
        body = [conv(v) for v in row[1:]]
        if len(body) != dim:
            raise SolverError(f"pycddlib returned a row of width {len(body)}, expected {dim}")
        if head != 0:
            if kind == "V":
                if any(abs(v) > (0 if exact else CDD_FLOAT_ZERO) for v in body):
                    raise SolverError(f"pycddlib returned the point {body} for a cone (expected only the origin)")
                continue
            if all(v == 0 for v in body) and head > 0:
                continue
            if exact or abs(head) > CDD_FLOAT_ZERO:
                raise SolverError(f"pycddlib returned the inhomogeneous row {[head, *body]} for a cone")
        if all(v == 0 for v in body):
            continue
        (linear if i in lin else plain).append(body)
    out_plain = np.array(plain, dtype=dtype).reshape(len(plain), dim)
    out_lin = np.array(linear, dtype=dtype).reshape(len(linear), dim)
    return out_plain, out_lin


_RANK_PRIME = 2_147_483_629  # a prime below 2^31: products of residues fit in int64


def _full_rank_mod_prime(rows: np.ndarray) -> bool:
    """True when the rational rows, scaled to integers, have full row rank modulo :data:`_RANK_PRIME`.

    Full rank modulo a prime implies full rank over the rationals (a nonzero minor mod p is a nonzero minor), so a
    True answer is exact; a False answer may be a bad prime and must be confirmed in exact arithmetic. This makes
    the independence test of a ``2^k``-facet simplicial cone (randomized response, k = 8: 256 x 256) a fraction of a
    second instead of a Fraction RREF of tens of seconds.
    """
    P = _RANK_PRIME
    n, dim = rows.shape
    if n > dim:
        return False
    A = np.empty((n, dim), dtype=np.int64)
    for i, r in enumerate(rows.tolist()):  # Python ints and Fractions
        den = 1
        for v in r:
            den = den * v.denominator // math.gcd(den, v.denominator)
        A[i] = [int(v) % P for v in r] if den == 1 else [int(v * den) % P for v in r]
    for c in range(n):  # elimination on rows; pivot search over the remaining columns
        nz = np.nonzero(A[c:, c:])
        if len(nz[0]) == 0:
            return False
        i, j = int(nz[0][0]) + c, int(nz[1][0]) + c
        A[[c, i]] = A[[i, c]]
        A[:, [c, j]] = A[:, [j, c]]
        inv = pow(int(A[c, c]), P - 2, P)
        A[c] = (A[c] * inv) % P
        below = A[c + 1 :, c].copy()
        if below.any():
            A[c + 1 :] = (A[c + 1 :] - (below[:, None] * A[c][None, :]) % P) % P
    return True


def _independent(rows: np.ndarray, exact: bool) -> bool:
    from ._canonical import rref

    if exact:
        if _full_rank_mod_prime(rows):
            return True
        return len(rref(rows, exact=True)) == len(rows)
    a = np.asarray(rows, dtype=float)
    a = a / np.abs(a).max(axis=1, keepdims=True)
    return bool(np.linalg.matrix_rank(a, tol=RANK_RTOL * max(a.shape)) == len(a))


def canonicalize(rows: np.ndarray, lin_rows: np.ndarray, *, kind: str, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """Remove redundant rows and find implicit linearities (``cdd.implicit_linearity_rows``, ``cdd.redundant_rows``).

    Zero rows are dropped first; linearly independent systems are returned unchanged (they are irredundant).

    Parameters
    ----------
    rows, lin_rows : 2-D arrays with the same number of columns
        Inequalities ``a·x ≥ 0`` and equalities (``kind="H"``), or rays and lineality directions (``kind="V"``).
    kind : {"H", "V"}
    exact : bool

    Returns
    -------
    (rows, lin_rows)
        An irredundant system describing the same cone (linearity rows not yet in a canonical basis).
    """
    dim = rows.shape[1]
    rows = rows[[any(v != 0 for v in r) for r in rows]].reshape(-1, dim)
    lin_rows = lin_rows[[any(v != 0 for v in r) for r in lin_rows]].reshape(-1, dim)
    if exact and len(rows) > 1:
        rows = _distinct_directions(rows)
    n = len(rows) + len(lin_rows)
    if n == 0:
        return rows, lin_rows
    if n <= dim and _independent(np.concatenate([rows, lin_rows]), exact):
        # Linearly independent rows are irredundant and carry no implicit linearity (for H: some x makes every
        # inequality strict; for V: no nonnegative combination of the rays vanishes): nothing for cdd to do.
        return rows, lin_rows
    if n * (dim + 1) > current_limit("canon_entries"):
        raise SizeLimitError(
            f"canonicalising {n} rows in dimension {dim} ({n * (dim + 1):,} entries) exceeds the limit of "
            f"{current_limit('canon_entries'):,} entries; refused before running cdd — "
            f"{limit_hint('canon_entries', n * (dim + 1))}"
        )
    mod = _module(exact)
    rep = _INEQ if kind == "H" else _GEN
    mat = _build(rows, lin_rows, rep, exact)
    try:
        # Same result as cdd.matrix_canonicalize (implicit linearities, then serial redundancy removal), but
        # cdd's redundant_rows is about ten times faster than its matrix_redundancy_remove on FM systems.
        implicit = set(mod.implicit_linearity_rows(mat))
        lin_all = set(range(len(rows), n)) | implicit
        if implicit:
            mat = mod.matrix_from_array(mat.array, lin_set=lin_all, rep_type=rep)
        redundant = set(mod.redundant_rows(mat))
    except Exception as err:
        raise SolverError(f"pycddlib failed to canonicalise a {n} x {dim} {kind}-representation: {err}") from err
    allrows = np.concatenate([rows, lin_rows])
    plain = [i for i in range(n) if i not in lin_all and i not in redundant]
    linear = [i for i in sorted(lin_all)]
    return allrows[plain].reshape(len(plain), dim), allrows[linear].reshape(len(linear), dim)


def _distinct_directions(rows: np.ndarray) -> np.ndarray:
    """The exact rows with one representative per direction (rows that are positive multiples of each other describe
    the same inequality or ray): the first of each, in the given order. Composed mechanisms, hulls and products
    repeat directions many times (RR(3/4) composed ten times: 1,024 rows, 11 directions); cdd's redundancy LPs then
    run on the distinct ones only."""
    seen: set[tuple[int, ...]] = set()
    keep: list[int] = []
    for i, r in enumerate(rows):
        key = tuple(_primitive_ints(r))  # the primitive integer row of the direction (ints: by gcd, no Fraction)
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return rows if len(keep) == len(rows) else rows[keep]


def _convert(rows: np.ndarray, lin_rows: np.ndarray, *, source: str, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    dim = rows.shape[1]
    n = len(rows) + len(lin_rows)
    what = "H-to-V conversion" if source == "H" else "V-to-H conversion"
    _check_dd(n, dim, what)
    mod = _module(exact)
    mat = _build(rows, lin_rows, _INEQ if source == "H" else _GEN, exact)
    try:
        poly = mod.polyhedron_from_matrix(mat)
        out = mod.copy_generators(poly) if source == "H" else mod.copy_inequalities(poly)
    except Exception as err:
        raise SolverError(f"pycddlib failed in the {what} of {n} rows in dimension {dim}: {err}") from err
    return _split(out, dim, exact, kind="V" if source == "H" else "H")


def v_to_h(rays: np.ndarray, lineality: np.ndarray, *, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """Facets and equalities of ``cone(rays) + span(lineality)`` (double description; not yet canonical).

    The caller must handle the empty generator set (the trivial cone ``{0}``) itself.
    """
    return _convert(rays, lineality, source="V", exact=exact)


def h_to_v(facets: np.ndarray, equalities: np.ndarray, *, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """Extreme rays and lineality directions of ``{x : F x ≥ 0, E x = 0}`` (not yet canonical).

    The caller must handle the empty system (the whole space) itself.
    """
    return _convert(facets, equalities, source="H", exact=exact)


def block_eliminate(
    facets: np.ndarray, equalities: np.ndarray, eliminate: Sequence[int], *, exact: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Project ``{x : F x ≥ 0, E x = 0}`` by eliminating the coordinates ``eliminate`` (``cdd.block_elimination``).

    Returns the (possibly redundant) system over the remaining coordinates, in their original order.
    """
    dim = facets.shape[1]
    keep = dim - len(set(eliminate))
    n = len(facets) + len(equalities)
    _check_dd(n, dim, "block elimination")
    mat = _build(facets, equalities, _INEQ, exact)
    try:
        out = _module(exact).block_elimination(mat, {int(j) + 1 for j in eliminate})
    except Exception as err:
        raise SolverError(f"pycddlib block elimination failed ({n} rows, dimension {dim}): {err}") from err
    return _split(out, keep, exact, kind="H")


def fourier_eliminate(inequalities: np.ndarray, n_last: int, *, exact: bool) -> np.ndarray:
    """Eliminate the last ``n_last`` coordinates of ``{x : A x ≥ 0}`` one at a time (``cdd.fourier_elimination``).

    At every step the coordinate with the fewest new rows (``n_pos · n_neg − n_pos − n_neg``, the classic greedy
    rule) is moved to the last column and eliminated; redundant rows are then removed with
    ``cdd.matrix_canonicalize`` and the row count is checked against :data:`MAX_FM_ROWS`. Equalities must have
    been split into two inequalities by the caller. Returns the system over the first ``width - n_last``
    coordinates, in their original order.
    """
    rows = inequalities
    mod = _module(exact)
    keep = rows.shape[1] - n_last
    for step in range(n_last):
        width = rows.shape[1]
        if len(rows) == 0:
            return rows[:, :keep]
        cands = list(range(keep, width))

        def cost(j: int) -> int:
            pos = sum(1 for v in rows[:, j] if v > 0)
            neg = sum(1 for v in rows[:, j] if v < 0)
            return pos * neg - pos - neg

        best = min(cands, key=cost)
        order = [j for j in range(width) if j != best] + [best]
        rows = rows[:, order]
        mat = _build(rows, rows[:0], _INEQ, exact)
        try:
            out = mod.fourier_elimination(mat)
        except Exception as err:
            raise SolverError(f"pycddlib Fourier-Motzkin elimination failed ({len(rows)} rows): {err}") from err
        if len(out.array) > current_limit("fm_rows"):
            raise SizeLimitError(
                f"Fourier-Motzkin elimination produced {len(out.array):,} inequalities after step {step + 1} of "
                f"{n_last} (limit {current_limit('fm_rows'):,} inequalities); use method='block' or 'generators', or "
                f"{limit_hint('fm_rows', len(out.array))}"
            )
        plain, lin = _split(out, width - 1, exact, kind="H")
        both = np.concatenate([plain, lin, -lin]) if len(lin) else plain
        rows, lin = canonicalize(both, both[:0], kind="H", exact=exact)
        if len(lin):
            rows = np.concatenate([rows, lin, -lin])
    return rows


class ExactLPResult(NamedTuple):
    """An exact LP answer of :func:`exact_linprog`: ``status`` (``"optimal"``, ``"infeasible"`` or ``"unbounded"``),
    the primal solution ``x`` and the optimum ``value`` (both None unless optimal)."""

    status: str
    x: list[Fraction] | None
    value: Fraction | None


def exact_linprog(array: Sequence[Sequence[Any]], *, maximize: bool = True) -> ExactLPResult:
    """Solve an LP exactly with cdd's GMP simplex (``cdd.gmp.linprog_from_array`` + ``linprog_solve``).

    ``array`` uses pycddlib's layout: every row but the last is a constraint ``[b, *(-a)]`` meaning
    ``b - a·x ≥ 0``; the last row ``[c0, *c]`` is the objective ``c0 + c·x``.

    Returns
    -------
    (status, x, value)
        ``status`` is ``"optimal"`` (``x`` the primal solution, ``value`` the optimum), ``"infeasible"`` or
        ``"unbounded"`` (``x`` and ``value`` None).

    Raises
    ------
    SolverError
        cdd failed or stopped with any other status.

    Examples
    --------
    >>> status, x, value = exact_linprog([[1, -1, 0], [1, 0, -1], [0, 1, 1]])   # max x0 + x1, x0 ≤ 1, x1 ≤ 1
    >>> status, x, value
    ('optimal', [Fraction(1, 1), Fraction(1, 1)], Fraction(2, 1))
    """
    rows = [[Fraction(v) for v in row] for row in array]
    try:
        lp = cdd.gmp.linprog_from_array(rows, obj_type=cdd.LPObjType.MAX if maximize else cdd.LPObjType.MIN)
        cdd.gmp.linprog_solve(lp)
    except Exception as err:
        raise SolverError(f"cdd exact LP failed ({len(rows)} rows): {err}") from err
    status = lp.status
    if status == cdd.LPStatusType.OPTIMAL:
        return ExactLPResult(
            status="optimal", x=[Fraction(v) for v in lp.primal_solution], value=Fraction(lp.obj_value)
        )
    if status in (cdd.LPStatusType.INCONSISTENT, cdd.LPStatusType.STRUC_INCONSISTENT):
        return ExactLPResult(status="infeasible", x=None, value=None)
    if status in (cdd.LPStatusType.DUAL_INCONSISTENT, cdd.LPStatusType.STRUC_DUAL_INCONSISTENT):
        return ExactLPResult(status="unbounded", x=None, value=None)
    raise SolverError(f"cdd exact LP ended with status {status!r}")
