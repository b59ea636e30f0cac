"""The closure LP of Theorem 3.4 as a HiGHS model: sparse, built once per definition, reduced by the row space.

The membership LP of ``_closure.py`` asks for ``B_j ≥ 0``, ``λ ≥ 0`` with ``Σ_j B_j M_j = M'``,
``1ᵀ B_j = λ_j 1ᵀ`` and ``Σ λ_j = 1`` (Lin & Kifer, Theorem 3.4). Output row ``o`` of ``M'`` gives the ``N``
equations ``Gᵀ b_o = m'_o``, where ``G`` stacks the rows of all ``M_j`` (``R x N``) and ``b_o`` stacks the rows
``B_j[o, :]``. Only ``ρ = rank G`` of these equations are independent, so the model is **reduced by the row space**:

* choose ``ρ`` rows ``J`` of ``G`` spanning its row space and ``ρ`` datasets ``I`` with ``S = G[J, I]ᵀ`` invertible
  (QR with column pivoting, twice); every row of ``Gᵀ`` is a combination of the rows ``I``;
* ``Gᵀ b = y`` holds iff ``y`` lies in the column space of ``Gᵀ`` (every row of ``M'`` lies in the row space of the
  mechanisms — else ``M'`` is not a member, with a "span" certificate) and ``R b = P y`` with ``P = S^{-1} E_I`` and
  ``R = S^{-1} Gᵀ[I, :]`` (``ρ x R``, the identity on the columns ``J``). Proof: if ``y = Gᵀ c`` then
  ``Gᵀ(b − c) = 0 ⟺ Gᵀ[I, :](b − c) = 0 ⟺ R b = R c = P y``.

For an invertible mechanism such as randomized response, ``R`` is the identity: ``n_out · N²`` coefficients become
``n_out · N``. Where ``R`` would have more non-zeros than ``Gᵀ[I, :]``, the unscaled rows ``Gᵀ[I, :]`` are used
(``P = E_I``). The LP minimises the ℓ1 residual of the reduced equations (zero iff member); its dual values ``Y``
on those equations give the separating functional ``W = Y P`` (every candidate is re-verified by the caller).

The constraint matrix is assembled once in scipy sparse COO/CSC (no dense intermediate of LP size), passed to
HiGHS once and kept (:class:`~privgeom.geometry._lp.HighsModel`); a new target only changes the right-hand side,
and the simplex variants re-solve from the previous optimal basis (warm start).

Examples
--------
>>> import numpy as np
>>> G = np.array([[0.5, 0.0], [0.5, 0.5], [0.0, 0.5]])
>>> model = ClosureModel([G], n_out=2)
>>> model.rank, model.n_rows     # 3 rows of rank 2: 2·2 reduced equations + 3 column sums + 1
(2, 8)
>>> res, W = model.solve(np.array([[1.0, 0.0], [0.0, 1.0]]))   # the identity is not in the closure
>>> res.fun > 0.1
True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from .._core.arrays import check_dense_size
from ..geometry._lp import HIGHS_SOLVERS, HighsModel, LPResult, check_lp_size

__all__ = ["ClosureModel", "DEFAULT_SOLVER", "closure_lp_nonzeros"]

#: HiGHS algorithm used by default, chosen by measurement (``benchmarks/bench_closure_lp.py``, 2 shared cores, two
#: queries each — a member and a non-member — cold, on the reduced model): on RR(7) (128 x 128) the dual simplex
#: took 3.9 s, the interior-point method 4.2 s, HiGHS's choice 8.0 s, the primal simplex 9.6 s; on the random
#: rank-deficient definitions (N x N of rank N/2) the interior-point method was about twice as fast as the dual
#: simplex (N = 64: 3.4 s vs 6.2 s; N = 96: 19 s vs 50 s) and the primal simplex slower still. A new target changes
#: every right-hand side, so the simplex warm start from the previous basis gained little (RR(7): 1.4 s vs 1.6 s per
#: query); the model itself (assembly, reduction, HiGHS setup) is what the cache saves. Hence the interior-point
#: method (with crossover, so that solutions are vertices, which rationalise best).
DEFAULT_SOLVER = "ipm"

#: Relative size below which an entry of the reduced rows ``R`` is rounding noise (set to zero).
_DROP = 1e-12
#: Relative size of the last kept pivot in the rank decision (QR with column pivoting).
_RANK_TOL = 1e-10


def closure_lp_nonzeros(nnz_mats: int, n_out: int, n_rows: int, n_cols: int, m: int) -> int:
    """Coefficients of the unreduced closure LP: ``n_out · nnz(G)`` + column sums + ``λ`` + ℓ1 slacks."""
    return n_out * nnz_mats + n_out * n_rows + n_rows + m + 2 * n_out * n_cols


def _row_space(G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``J`` of ``G`` spanning its row space and datasets ``I`` with ``G[J][:, I]`` invertible."""
    if G.size == 0 or not np.abs(G).max() > 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    _, Rf, piv = sla.qr(G.T, mode="economic", pivoting=True)
    d = np.abs(np.diag(Rf))
    rho = int((d > _RANK_TOL * d[0]).sum())
    J = np.sort(piv[:rho])
    _, Rf2, piv2 = sla.qr(G[J], mode="economic", pivoting=True)
    I = np.sort(piv2[:rho])
    return J.astype(np.int64), I.astype(np.int64)


class ClosureModel:
    """The (reduced) closure LP for ``n_out`` outputs over the float mechanisms ``mats``, held by HiGHS.

    Parameters
    ----------
    mats : sequence of 2-D float arrays
        The mechanisms ``M_j`` (rows = outputs, columns = the common datasets).
    n_out : int
        Number of outputs of the mechanisms that will be tested.
    reduce : bool
        Reduce by the row space (default); False builds today's unreduced LP (all ``N`` equations per output).
    max_nonzeros : int, optional
        LP size limit (default :data:`privgeom.geometry._lp.MAX_LP_NONZEROS`); checked before anything is built.
    what : str
        Name for messages.

    Attributes
    ----------
    rank : int
        ``ρ``, the number of equations kept per output (``N`` when not reduced).
    n_rows, n_cols, nnz : int
        Size of the LP handed to HiGHS.
    solves : int
        How many times the model was solved (the first solve is cold, later ones warm).
    """

    def __init__(
        self,
        mats: Sequence[np.ndarray],
        n_out: int,
        *,
        reduce: bool = True,
        max_nonzeros: int | None = None,
        what: str = "closure LP",
    ) -> None:
        mats = [np.asarray(M, dtype=float) for M in mats]
        self.what = what
        self.n_out = int(n_out)
        self.N = mats[0].shape[1]
        self.r = [M.shape[0] for M in mats]
        self.m = len(mats)
        Rt = sum(self.r)
        nnz_g = sum(int(np.count_nonzero(M)) for M in mats)
        hint = "the max_nonzeros= keyword of FiniteDefinition.closure_lp()"
        # refuse before any work: the unreduced model exactly, the reduced one by its unavoidable part (column
        # sums, λ, one equation per output); its exact size is checked again after the rank, before assembling
        full = closure_lp_nonzeros(nnz_g, self.n_out, Rt, self.N, self.m)
        floor = self.n_out * Rt + Rt + self.m + 3 * self.n_out
        check_lp_size(
            self.n_out * self.N + Rt + 1,
            self.n_out * Rt + self.m + 2 * self.n_out * self.N,
            floor if reduce else full,
            what=what,
            max_nonzeros=max_nonzeros,
            hint=hint,
        )
        self.offs = np.cumsum([0] + [self.n_out * rj for rj in self.r])[:-1]
        self.nb = self.n_out * Rt
        G = np.vstack(mats)
        self.reduced = bool(reduce)
        self.basis_rows: np.ndarray | None = None
        if reduce:
            check_dense_size(Rt, self.N, exact=False, what=f"{what}: the stacked mechanisms ({Rt} x {self.N})")
            J, I = _row_space(G)
            rho = len(J)
            self.J, self.I = J, I
            Gt_I = G[:, I].T  # rows I of Gᵀ (ρ x Rt)
            if rho:
                S = G[J][:, I].T
                Sinv = np.linalg.inv(S)
                R = Sinv @ Gt_I
                R[np.abs(R) <= _DROP * max(1.0, float(np.abs(R).max()))] = 0.0
                R[:, J] = np.eye(rho)
            else:
                Sinv = np.zeros((0, 0))
                R = np.zeros((0, Rt))
            if np.count_nonzero(R) <= np.count_nonzero(Gt_I):
                self.R = R
                self.P = np.zeros((rho, self.N))
                self.P[:, I] = Sinv
            else:
                self.R = Gt_I
                self.P = np.zeros((rho, self.N))
                self.P[np.arange(rho), I] = 1.0
            self.rank = rho
            # orthonormal basis of the row space: T − T Q Qᵀ is orthogonal to every row of every M_j, so
            # W = −(T − T Q Qᵀ) has W M_jᵀ = 0 and ⟨W, T⟩ = −‖T − T Q Qᵀ‖² < 0 (a separating functional)
            self.basis_rows = np.linalg.qr(G[J].T)[0].T if rho else np.zeros((0, self.N))
        else:
            self.R = G.T
            self.P = np.eye(self.N)
            self.rank = self.N
            self.J = self.I = np.arange(0)
        nnz_r = int(np.count_nonzero(self.R))
        rho = self.rank
        self.n_top = self.n_out * rho
        self.n_rows = self.n_top + Rt + 1
        self.n_cols = self.nb + self.m + 2 * self.n_top
        self.nnz = self.n_out * nnz_r + self.nb + Rt + self.m + 2 * self.n_top
        check_lp_size(self.n_rows, self.n_cols, self.nnz, what=what, max_nonzeros=max_nonzeros, hint=hint)
        A = self._assemble()
        c = np.concatenate([np.zeros(self.nb + self.m), np.ones(2 * self.n_top)])
        lo = np.zeros(self.n_rows)
        lo[-1] = 1.0
        self.model = HighsModel(c, A, lo, lo.copy(), np.zeros(self.n_cols), np.full(self.n_cols, np.inf), what=what)
        self.solves = 0

    def _assemble(self) -> sp.csc_matrix:
        """COO triplets of the whole constraint matrix, vectorised (no dense array of LP size)."""
        n_out, rho, Rt = self.n_out, self.rank, sum(self.r)
        # stacked index s -> (mechanism j, row w): column of B_j[o, w] is offs[j] + o·r_j + w
        comp = np.repeat(np.arange(self.m), self.r)
        w_of = np.concatenate([np.arange(rj) for rj in self.r])
        off_of = np.asarray(self.offs)[comp]
        r_of = np.asarray(self.r)[comp]
        o = np.arange(n_out)
        q, s = np.nonzero(self.R)
        v = self.R[q, s]
        rows = [(o[:, None] * rho + q[None, :]).ravel()]
        cols = [(off_of[s][None, :] + o[:, None] * r_of[s][None, :] + w_of[s][None, :]).ravel()]
        vals = [np.tile(v, n_out)]
        # column sums Σ_o B_j[o, w] − λ_j = 0 (row n_top + s)
        srange = np.arange(Rt)
        rows.append(np.repeat(self.n_top + srange, n_out))
        cols.append((off_of[:, None] + o[None, :] * r_of[:, None] + w_of[:, None]).ravel())
        vals.append(np.ones(Rt * n_out))
        rows.append(self.n_top + srange)
        cols.append(self.nb + comp)
        vals.append(-np.ones(Rt))
        rows.append(np.full(self.m, self.n_rows - 1))
        cols.append(self.nb + np.arange(self.m))
        vals.append(np.ones(self.m))
        top = np.arange(self.n_top)
        rows += [top, top]
        cols += [self.nb + self.m + top, self.nb + self.m + self.n_top + top]
        vals += [np.ones(self.n_top), -np.ones(self.n_top)]
        A = sp.coo_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(self.n_rows, self.n_cols)
        )
        return A.tocsc()

    def span_residual(self, T: np.ndarray) -> np.ndarray:
        """``T − T Q Qᵀ``: the parts of the rows of ``T`` orthogonal to the mechanisms' row space (zero when unreduced).

        ``R b = P y`` is equivalent to ``Gᵀ b = y`` only for ``y`` in the row space, so a non-zero residual must
        be settled (a certificate, or the unreduced LP) before the reduced LP is trusted.
        """
        if self.basis_rows is None:
            return np.zeros_like(T)
        return T - (T @ self.basis_rows.T) @ self.basis_rows

    def solve(self, T: np.ndarray, solver: str = DEFAULT_SOLVER) -> tuple[LPResult, np.ndarray | None]:
        """Solve for the target ``T`` (``n_out x N`` floats): the HiGHS result and the functional ``W = −Y P``."""
        if solver not in HIGHS_SOLVERS:
            from .._core.errors import InvalidParameterError

            raise InvalidParameterError(
                f"{self.what}: unknown LP solver {solver!r}; choose one of {list(HIGHS_SOLVERS)}"
            )
        rhs = (np.asarray(T, dtype=float) @ self.P.T).ravel()
        res = self.model.solve(row_lower=rhs, row_upper=rhs, rows=np.arange(self.n_top), solver=solver)
        self.solves += 1
        if res.status != "optimal" or res.x is None:
            from .._core.errors import SolverError

            raise SolverError(f"{self.what}: the ℓ1-relaxation is always feasible, yet HiGHS reported {res.status}")
        W = None
        if res.eq_duals is not None:
            W = -(res.eq_duals[: self.n_top].reshape(self.n_out, self.rank) @ self.P)
        return res, W

    def core(self, x: np.ndarray) -> np.ndarray:
        """The ``B``/``λ`` part of a solution (same layout as :class:`~privgeom.definitions._closure._ClosureLP`)."""
        return x[: self.nb + self.m]
