"""When the answer is no, the nearest yes: the closest mechanism in the consistent closure.

``definition.nearest(M, norm)`` solves ``min ‖N − M‖ over N ∈ closure(definition)`` with ``N`` on the same outputs
as ``M``, by the LP the closure test already solves:

* **finite definitions** (``{M_1..M_m}``): ``N = Σ_j B_j M_j`` with ``B_j ≥ 0``, ``1ᵀ B_j = λ_j 1ᵀ``, ``Σ λ_j = 1``
  (Lin & Kifer, Theorem 3.4: ``B_j = λ_j A_j``, ``A_j`` column-stochastic);
* **definitions whose row cone decides the closure** (randomized response, Theorem 4.3; ε-DP, Lin & Kifer §V; …):
  ``N ≥ 0`` column-stochastic with every row in the row cone, i.e. ``a · N[o, :] ≥ 0`` for each valid inequality
  ``a`` — the facets of Theorem 4.3 (columns of the Kronecker inverse of ``M_rr``) for RR, the edge inequalities
  ``e^ε x_j − x_i ≥ 0`` for ε-DP, the cone's H-representation otherwise.

Norms (``D = N − M``):

``"l1"``
    ``Σ_{o,i} |D[o, i]|`` — the ℓ1 distances of the columns, summed; each column's is twice the total-variation
    distance between the output distributions of ``N`` and ``M`` on that dataset.
``"l1-column"``
    ``max_i Σ_o |D[o, i]|`` — the worst dataset's ℓ1 distance (twice the largest total variation).
``"linf"``
    ``max_{o,i} |D[o, i]|``.

The LP is written in standard form ``min c·x, A x = b, x ≥ 0`` (ℓ1 via ``D = D⁺ − D⁻``; maxima via an epigraph
variable ``t``) and solved by HiGHS (dual simplex: a vertex). Every answer is re-verified:

* the repaired mechanism's membership is checked by ``definition.contains`` (exactly in exact mode) and returned;
* exact mode rationalises the vertex by an exact solve on its support (then by rounding), so ``N`` is rational and
  ``‖N − M‖`` is computed exactly from it;
* LP duality gives the optimality certificate: any ``y`` with ``Aᵀ y ≤ c`` proves ``‖N' − M‖ ≥ b · y`` for every
  ``N'`` in the closure (weak duality). ``y`` comes from an exact solve of the complementary-slackness equations
  on the support (or the rationalised HiGHS duals), is checked exactly, and ``optimal`` is True when ``b · y``
  equals the distance. Its part on the distance rows is the functional ``W`` (``|W| ≤ 1`` for ℓ1).

Examples
--------
>>> from privgeom import randomized_response
>>> from privgeom.definitions import RandomizedResponse
>>> rep = RandomizedResponse(1, "3/4").nearest(randomized_response(1, "4/5"))   # ratio 4 > 3: not a member
>>> rep.distance, rep.membership.member, rep.certificate.optimal
(Fraction(1, 5), True, True)
>>> rep.mechanism.matrix.tolist()      # RR(1, 3/4) itself: each of the 4 entries moves by 1/20
[[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import singledispatch
from typing import Any, Callable, Iterator, NamedTuple, Sequence

import numpy as np
import scipy.sparse as sp

from .._core.errors import InvalidParameterError, SolverError
from .._core.arrays import ATOL, readonly
from .._core.numbers import number_text
from ..geometry._lp import HighsModel, check_lp_size, exact_solve, rational_candidates, support_systems
from ..mechanisms import Mechanism
from ._closure import Triplets
from ._membership import Definition, Membership, Nearest, NearestCertificate

__all__ = ["NORMS", "nearest", "closure_description", "description_nonzeros", "ClosureDescription", "nonunit_rows"]

#: Norms accepted by :func:`nearest`.
NORMS = ("l1", "l1-column", "linf")
#: Exact repair of a float LP optimum: reduced costs within this of 0 (and primal values above it) mark the columns
#: of the guessed optimal basis, solved exactly by complementary slackness; ten times HiGHS's feasibility tolerance
#: (:data:`~privgeom.geometry._lp.HIGHS_FEASIBILITY_TOL`), the order of :data:`~privgeom._core.arrays.ATOL`.
BASIS_TOL = 1e-9
#: Float mode: a dual vector is feasible when ``Aᵀ y ≤ c`` within this, and the primal and dual objectives agree
#: when within this relative to ``max(1, |distance|)`` (HiGHS's default feasibility tolerance; float optima
#: carry the LP's round-off, so the check is looser than the user tolerance).
DUAL_FEASIBILITY_TOL = 1e-7


# ---------------------------------------------------------------------------------------------------- descriptions
@dataclass(frozen=True)
class ClosureDescription:
    """How the closure is written in the LP: ``"mixture"`` of ``mats`` or ``"rows"`` with ``a · x ≥ 0`` rows."""

    kind: str
    mats: tuple[np.ndarray, ...] = ()
    inequalities: np.ndarray | None = None
    equalities: np.ndarray | None = None


def nonunit_rows(A: np.ndarray) -> np.ndarray:
    """Drop rows that are multiples of a unit vector (``x_i ≥ 0``: implied by ``N ≥ 0``) and zero rows."""
    keep = [r for r in range(A.shape[0]) if sum(1 for v in A[r] if v != 0) > 1 or any(v < 0 for v in A[r])]
    return A[keep] if keep else A[:0]


@singledispatch
def closure_description(definition: Definition, exact: bool) -> ClosureDescription:
    """The LP description of ``definition``'s closure: the default uses the row cone; a definition with a description
    of its own registers it beside its type (``_finite.py``: the mixture of its mechanisms; ``_rr.py``: the facets of
    Theorem 4.3; ``_dp.py``: the edge inequalities), as it registers its :func:`~privgeom.automorphisms`.

    Raises
    ------
    InvalidParameterError
        A definition whose row cone does not decide its closure and that is not finite.
    """
    if not definition.row_cone_decides_closure:
        raise InvalidParameterError(
            f"{definition.name}: nearest() needs a finite definition or one whose row cone decides the closure"
        )
    cone = definition.row_cone()
    F, E = np.asarray(cone.facets), np.asarray(cone.equalities)
    if not exact:
        F, E = F.astype(float), E.astype(float)
    return ClosureDescription(kind="rows", inequalities=nonunit_rows(F), equalities=E)


@singledispatch
def description_nonzeros(definition: Definition, n_out: int) -> int:
    """A lower bound of the LP's coefficients known before the description is built (0: none known)."""
    return 0


# ---------------------------------------------------------------------------------------------------- the LP
class _Builder:
    """Standard-form LP ``min c·x, A x = b, x ≥ 0`` assembled from vectorised COO blocks (float and exact)."""

    def __init__(self, exact: bool) -> None:
        self.exact = exact
        self.n = 0
        self.m = 0
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.b: list[Any] = []
        self.c: dict[int, Any] = {}

    def var(self, shape: tuple[int, ...]) -> np.ndarray:
        size = int(np.prod(shape))
        idx = np.arange(self.n, self.n + size).reshape(shape)
        self.n += size
        return idx

    def new_rows(self, rhs: Sequence[Any]) -> np.ndarray:
        idx = np.arange(self.m, self.m + len(rhs))
        self.m += len(rhs)
        self.b.extend(rhs)
        return idx

    def add(self, rows: Any, cols: Any, vals: Any) -> None:
        rows, cols = np.broadcast_arrays(np.asarray(rows), np.asarray(cols))
        v = np.asarray(vals, dtype=object if self.exact else float)
        v = np.broadcast_to(v, rows.shape)
        self.rows.append(rows.ravel())
        self.cols.append(cols.ravel())
        self.vals.append(v.ravel())

    def triplets(self) -> Triplets:
        return Triplets(
            np.concatenate(self.rows).astype(np.int64),
            np.concatenate(self.cols).astype(np.int64),
            np.concatenate(self.vals),
        )


def _estimate_nonzeros(desc: ClosureDescription, n_out: int, N: int, norm: str) -> int:
    dist = 3 * n_out * N + (3 * n_out * N if norm != "l1" else 0)
    if desc.kind == "mixture":
        nnz = sum(int(np.count_nonzero(np.asarray(M != 0))) for M in desc.mats)
        return n_out * nnz + 2 * n_out * sum(M.shape[0] for M in desc.mats) + dist
    ineq = 0 if desc.inequalities is None else int(np.count_nonzero(np.asarray(desc.inequalities != 0)))
    eq = 0 if desc.equalities is None else int(np.count_nonzero(np.asarray(desc.equalities != 0)))
    n_ineq = 0 if desc.inequalities is None else desc.inequalities.shape[0]
    return n_out * (ineq + eq + n_ineq) + n_out * N + dist


class _Built(NamedTuple):
    """The assembled LP, the map ``x ↦ N`` from its solution to the repaired matrix, and the indices of the
    distance rows ``N − D⁺ + D⁻ = M``."""

    builder: _Builder
    to_N: Callable[[Sequence[Any]], np.ndarray]
    dist_rows: np.ndarray


def _build(desc: ClosureDescription, target: np.ndarray, norm: str, exact: bool) -> _Built:
    """The LP of ``desc`` for the target ``M`` in ``norm`` (module docstring)."""
    n_out, N = target.shape
    L = _Builder(exact)
    one: Any = Fraction(1) if exact else 1.0
    dist_rows = L.new_rows(list(target.ravel())).reshape(n_out, N)  # N − D⁺ + D⁻ = M
    if desc.kind == "mixture":
        Bs = [L.var((n_out, M.shape[0])) for M in desc.mats]
        lam = L.var((len(desc.mats),))
        for j, M in enumerate(desc.mats):
            w_idx, i_idx = np.nonzero(np.asarray(M != 0))
            L.add(dist_rows[:, i_idx], Bs[j][:, w_idx], np.asarray(M)[w_idx, i_idx][None, :])
            cs = L.new_rows([0] * M.shape[0])  # Σ_o B_j[o, w] − λ_j = 0
            L.add(cs[None, :], Bs[j], one)
            L.add(cs, np.full(M.shape[0], lam[j]), -one)
        L.add(L.new_rows([1]), lam, one)

        def to_N(x: Sequence[Any]) -> np.ndarray:
            xa = np.asarray(x, dtype=object if exact else float)
            return sum((xa[B].dot(np.asarray(M)) for B, M in zip(Bs, desc.mats)), np.zeros((n_out, N), dtype=xa.dtype))
    else:
        Nv = L.var((n_out, N))
        L.add(dist_rows, Nv, one)
        L.add(L.new_rows([1] * N)[None, :], Nv, one)  # columns sum to 1
        for A, slack in ((desc.inequalities, True), (desc.equalities, False)):
            if A is None or A.shape[0] == 0:
                continue
            q_idx, i_idx = np.nonzero(np.asarray(A != 0))
            rows = L.new_rows([0] * (n_out * A.shape[0])).reshape(n_out, A.shape[0])
            L.add(rows[:, q_idx], Nv[:, i_idx], np.asarray(A)[q_idx, i_idx][None, :])  # a · N[o, :] − s = 0
            if slack:
                L.add(rows, L.var(rows.shape), -one)

        def to_N(x: Sequence[Any]) -> np.ndarray:
            return np.asarray(x, dtype=object if exact else float)[Nv]

    Dp, Dm = L.var((n_out, N)), L.var((n_out, N))
    L.add(dist_rows, Dp, -one)
    L.add(dist_rows, Dm, one)
    if norm == "l1":
        for v in np.concatenate([Dp.ravel(), Dm.ravel()]):
            L.c[int(v)] = one
    else:
        t = int(L.var((1,))[0])
        L.c[t] = one
        if norm == "linf":  # D⁺ + D⁻ + σ − t = 0 per entry
            rows = L.new_rows([0] * (n_out * N)).reshape(n_out, N)
            L.add(rows, Dp, one)
            L.add(rows, Dm, one)
            L.add(rows, L.var((n_out, N)), one)
            L.add(rows, t, -one)
        else:  # Σ_o (D⁺ + D⁻)[o, i] + σ_i − t = 0 per column
            rows = L.new_rows([0] * N)
            L.add(rows[None, :], Dp, one)
            L.add(rows[None, :], Dm, one)
            L.add(rows, L.var((N,)), one)
            L.add(rows, np.full(N, t), -one)
    return _Built(L, to_N, dist_rows)


def _norm(D: np.ndarray, norm: str) -> Any:
    A = np.abs(D)
    if norm == "l1":
        return A.sum()
    if norm == "linf":
        return A.max()
    return A.sum(axis=0).max()


# ---------------------------------------------------------------------------------------------------- exact repair
def _support_solve(L: _Builder, trip: Triplets, x: np.ndarray) -> Iterator[Any]:
    """Exact vertices on the support of ``x`` (several thresholds), each ``A_S x_S = b`` with ``x ≥ 0`` (lazily)."""
    rows, cols, vals = trip
    for support, rowdicts in support_systems(rows, cols, vals, L.m, x):
        sol = exact_solve(rowdicts, L.b, n_vars=len(support))
        if sol is None or any(v < 0 for v in sol):
            continue
        full = [Fraction(0)] * L.n
        for k, v in enumerate(support):
            full[v] = sol[k]
        yield full


def _dual_candidates(
    L: _Builder, trip: Triplets, x: np.ndarray, y: np.ndarray | None, exact: bool, c: np.ndarray
) -> Iterator[np.ndarray]:
    """Dual vectors to check, cheapest first: the rounded HiGHS duals, then complementary slackness solved exactly
    (on the columns with zero reduced cost, then on the support of ``x``)."""
    rows, cols, vals = trip
    if not exact:
        if y is not None:
            yield y
        return
    if y is not None:
        yield from rational_candidates(y)
    red = (
        None
        if y is None
        else c.astype(float) - sp.csc_matrix((vals.astype(float), (rows, cols)), shape=(L.m, L.n)).T.dot(y)
    )
    for tight in (
        [] if red is None else [int(i) for i in np.nonzero(np.abs(red) <= BASIS_TOL)[0]],
        [int(i) for i in np.nonzero(x > BASIS_TOL)[0]],
    ):
        if not tight:
            continue
        pos = {v: k for k, v in enumerate(tight)}
        coldicts: list[dict[int, Fraction]] = [dict() for _ in tight]
        for r_, c_, v_ in zip(rows, cols, vals):
            k = pos.get(int(c_))
            if k is not None:
                coldicts[k][int(r_)] = coldicts[k].get(int(r_), Fraction(0)) + Fraction(v_)
        sol = exact_solve(coldicts, [c[v] for v in tight], n_vars=L.m)
        if sol is not None:
            yield np.array(sol, dtype=object)


def _dual_bound(L: _Builder, trip: Triplets, y: np.ndarray, c: np.ndarray, exact: bool) -> Any | None:
    """``b · y`` when ``Aᵀ y ≤ c`` (exactly, or within :data:`DUAL_FEASIBILITY_TOL` in float mode), else None (weak
    duality)."""
    rows, cols, vals = trip
    if exact:
        aty = np.zeros(L.n, dtype=object)
        aty[...] = Fraction(0)
        np.add.at(aty, cols, vals * y[rows])
        if any(a > cc for a, cc in zip(aty, c)):
            return None
        return sum((bb * yy for bb, yy in zip(L.b, y)), Fraction(0))
    A = sp.csc_matrix((vals.astype(float), (rows, cols)), shape=(L.m, L.n))
    if (A.T.dot(y) - c.astype(float) > DUAL_FEASIBILITY_TOL).any():
        return None
    return float(np.dot(np.asarray(L.b, dtype=float), y))


def _is_optimal(bound: Any, distance: Any, exact: bool) -> bool:
    if exact:
        return bool(bound == distance)
    return abs(float(bound) - float(distance)) <= DUAL_FEASIBILITY_TOL * max(1.0, abs(float(distance)))


# ---------------------------------------------------------------------------------------------------- routes
@dataclass(frozen=True)
class _SolvedLP:
    """The nearest-member LP in standard form and HiGHS's optimal vertex: what the repair routes work from."""

    builder: _Builder
    triplets: Triplets
    c: np.ndarray
    to_N: Callable[[Sequence[Any]], np.ndarray]
    dist_rows: np.ndarray
    x: np.ndarray
    eq_duals: np.ndarray | None
    fun: float
    kind: str


class _Candidate(NamedTuple):
    """A verified member of the closure, its distance to the given mechanism and its membership answer."""

    distance: Any
    mechanism: Mechanism
    membership: Membership


class _Certifier:
    """LP duality for the distance: walks the dual candidates (:func:`_dual_candidates`) until one proves the
    distance optimal, keeping the best verified lower bound ``b · y`` (weak duality, :func:`_dual_bound`)."""

    def __init__(self, lp: _SolvedLP, exact: bool) -> None:
        self.lp, self.exact = lp, exact
        self.duals = _dual_candidates(lp.builder, lp.triplets, lp.x, lp.eq_duals, exact, lp.c)
        self.bound: Any = None
        self.y: np.ndarray | None = None

    def optimal(self, distance: Any) -> bool:
        return self.bound is not None and _is_optimal(self.bound, distance, self.exact)

    def certify(self, distance: Any) -> None:
        """Advance through the dual candidates until one proves ``distance`` optimal (or none is left)."""
        if self.optimal(distance):
            return
        for y in self.duals:
            val = _dual_bound(self.lp.builder, self.lp.triplets, y, self.lp.c, self.exact)
            if val is not None and (self.bound is None or val > self.bound):
                self.bound, self.y = val, y
                if self.optimal(distance):
                    return

    def certificate(self, distance: Any) -> NearestCertificate | None:
        if self.bound is None or self.y is None:
            return None
        return NearestCertificate(
            lower_bound=self.bound,
            functional=readonly(np.asarray(self.y)[self.lp.dist_rows]),
            optimal=self.optimal(distance),
        )


def _exact_repair(
    definition: Definition,
    M: Mechanism,
    target: np.ndarray,
    norm: str,
    lp: _SolvedLP,
    certifier: _Certifier,
    tol: float,
) -> _Candidate | None:
    """Exact mode: a rational nearest member from HiGHS's float vertex.

    Needs an exact definition and mechanism. Tries, cheapest first, the vertex rounded to small denominators
    (:func:`~privgeom.geometry._lp.rational_candidates`, three of them) and then the exact solutions of
    ``A_S x_S = b`` on the vertex's support (:func:`_support_solve`; a vertex of the LP, so optimal when HiGHS's is).
    Each candidate must be column-stochastic and an exact member (``definition.contains``); the closest one is kept,
    and the search stops as soon as a dual vector proves its distance optimal (module docstring, LP duality).
    """
    best: _Candidate | None = None
    Nf = lp.to_N(np.clip(lp.x, 0.0, None)).astype(float)
    tries = itertools.chain(
        list(rational_candidates(Nf))[:3], (lp.to_N(v) for v in _support_solve(lp.builder, lp.triplets, lp.x))
    )
    for Nq in tries:
        if any(v < 0 for v in Nq.ravel()) or any(s != 1 for s in Nq.sum(axis=0)):
            continue
        R = Mechanism(Nq, inputs=M.inputs, outputs=M.outputs, exact=True)
        ans = definition.contains(R)
        if not (ans.member and ans.exact):
            continue
        d = _norm(Nq - target, norm)
        if best is None or d < best.distance:
            best = _Candidate(d, R, ans)
        certifier.certify(best.distance)
        if certifier.optimal(best.distance):
            break
    return best


def _float_repair(
    definition: Definition,
    M: Mechanism,
    target: np.ndarray,
    norm: str,
    lp: _SolvedLP,
    certifier: _Certifier,
    tol: float,
) -> _Candidate | None:
    """Float mode: HiGHS's vertex, clipped to ``N ≥ 0`` and its columns renormalised to sum to 1, kept when
    ``definition.contains`` accepts it within ``atol``; its distance is certified by the HiGHS duals (checked within
    :data:`DUAL_FEASIBILITY_TOL`)."""
    Nf = np.clip(lp.to_N(np.clip(lp.x, 0.0, None)), 0.0, None)
    Nf = Nf / Nf.sum(axis=0)
    R = Mechanism(Nf, inputs=M.inputs, outputs=M.outputs, exact=False, atol=tol)
    ans = definition.contains(R, atol=tol)
    if not ans.member:
        return None
    best = _Candidate(float(_norm(R.matrix - target, norm)), R, ans)
    certifier.certify(best.distance)
    return best


#: The repair routes of :func:`nearest`, by mode: each turns the solved LP into a verified member (or None).
_REPAIR_ROUTES: dict[str, Callable[..., _Candidate | None]] = {"exact": _exact_repair, "float": _float_repair}


def _solve_lp(
    definition: Definition, target: np.ndarray, norm: str, exact: bool, solver: str, max_nonzeros: int | None
) -> _SolvedLP:
    """Size-check, build (:func:`closure_description`, :func:`_build`) and solve the nearest-member LP with HiGHS.

    Raises SizeLimitError before building anything too large, SolverError when HiGHS does not report an optimum
    (the LP is always feasible and bounded)."""
    n_out, N = target.shape
    hint = "the max_nonzeros= keyword of nearest()"
    what = f"{definition.name}: nearest-member LP"
    check_lp_size(
        n_out * N,
        n_out * N,
        max(description_nonzeros(definition, n_out), 3 * n_out * N),
        what=what,
        max_nonzeros=max_nonzeros,
        hint=hint,
    )
    desc = closure_description(definition, exact)
    nnz = _estimate_nonzeros(desc, n_out, N, norm)
    check_lp_size(n_out * N, 3 * n_out * N, nnz, what=what, max_nonzeros=max_nonzeros, hint=hint)
    L, to_N, dist_rows = _build(desc, target, norm, exact)
    trip = L.triplets()
    c = np.zeros(L.n, dtype=object if exact else float)
    if exact:
        c[...] = Fraction(0)
    for k, v in L.c.items():
        c[k] = v
    A = sp.csc_matrix((trip[2].astype(float), (trip[0], trip[1])), shape=(L.m, L.n))
    b = np.asarray([float(v) for v in L.b])
    model = HighsModel(
        c.astype(float), A, b, b, np.zeros(L.n), np.full(L.n, np.inf), what=f"{definition.name}: nearest LP"
    )
    res = model.solve(solver=solver)
    if res.status != "optimal" or res.x is None:
        raise SolverError(
            f"{definition.name}: the nearest-member LP is always feasible, yet HiGHS reported {res.status}"
        )
    return _SolvedLP(
        builder=L,
        triplets=trip,
        c=c,
        to_N=to_N,
        dist_rows=dist_rows,
        x=res.x,
        eq_duals=res.eq_duals,
        fun=float(res.fun or 0.0),
        kind=desc.kind,
    )


def nearest(
    definition: Definition,
    mechanism: Mechanism,
    norm: str = "l1",
    *,
    atol: float | None = None,
    solver: str = "dual",
    max_nonzeros: int | None = None,
) -> Nearest:
    """The mechanism of ``definition``'s closure nearest to ``mechanism`` (see the module docstring).

    A member is its own nearest (distance 0); otherwise the LP is solved once (:func:`_solve_lp`) and the route of
    the mode (:data:`_REPAIR_ROUTES`: ``"exact"`` rationalises the vertex, ``"float"`` renormalises it) returns a
    verified member, whose distance LP duality certifies.

    Parameters
    ----------
    definition : PrivacyDefinition
    mechanism : Mechanism
        Over the definition's inputs; the repaired mechanism has the same outputs.
    norm : {"l1", "l1-column", "linf"}
    atol : float, optional
        Float-mode tolerance of the membership check.
    solver : str
        HiGHS algorithm (see :data:`privgeom.geometry._lp.HIGHS_SOLVERS`).
    max_nonzeros : int, optional
        LP size limit (default ``privgeom.geometry._lp.MAX_LP_NONZEROS``), checked before building.

    Raises
    ------
    InvalidParameterError
        Unknown norm, or a definition without an LP description of its closure.
    SizeLimitError
        The LP would be too large (refused before building).
    SolverError
        HiGHS failed or the repaired mechanism could not be verified as a member.
    """
    if norm not in NORMS:
        raise InvalidParameterError(f"unknown norm {norm!r}; choose one of {list(NORMS)}")
    M = definition.check_mechanism(mechanism)
    tol = ATOL if atol is None else float(atol)
    first = definition.contains(M, atol=tol)
    exact = bool(definition.exact and M.exact)
    if first.member:
        return Nearest(
            mechanism=M,
            distance=Fraction(0) if exact else 0.0,
            norm=norm,
            exact=exact,
            method="member",
            membership=first,
            certificate=None,
            original_member=True,
            detail="already a member",
        )
    target = M.matrix if exact else M.float_matrix()
    lp = _solve_lp(definition, target, norm, exact, solver, max_nonzeros)
    certifier = _Certifier(lp, exact)
    best = _REPAIR_ROUTES["exact" if exact else "float"](definition, M, target, norm, lp, certifier, tol)
    if best is None:
        mode = "exactly" if exact else f"within atol={number_text(tol)}"
        raise SolverError(
            f"{definition.name}: the nearest-member LP's solution could not be verified as a member {mode}"
        )
    detail = (
        f"LP optimum ≈ {number_text(float(lp.fun or 0.0))}; repaired mechanism verified as a member "
        f"({'exactly' if exact else f'within atol={number_text(tol)}'})"
    )
    return Nearest(
        mechanism=best.mechanism,
        distance=best.distance,
        norm=norm,
        exact=exact,
        method="mixture-lp" if lp.kind == "mixture" else "row-cone-lp",
        membership=best.membership,
        certificate=certifier.certificate(best.distance),
        original_member=False,
        detail=detail,
    )
