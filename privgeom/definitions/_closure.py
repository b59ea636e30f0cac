"""Consistent-closure membership of a finite privacy definition as a linear program.

Lin & Kifer (Theorem 3.4): ``closure({M_1..M_m})`` is the set of all ``Σ_j λ_j A_j M_j`` with ``A_j``
column-stochastic and ``λ`` a probability vector. Absorbing ``λ_j`` into ``B_j = λ_j A_j`` gives the LP of
``docs/theory.md`` §2::

    find B_j ≥ 0, λ ≥ 0 with Σ_j B_j M_j = M',  1ᵀ B_j = λ_j 1ᵀ,  Σ_j λ_j = 1.

privgeom solves the ℓ1-relaxation ``min ‖Σ_j B_j M_j − M'‖_1`` (always feasible) with HiGHS. Its optimum ``r*``
is the ℓ1 distance from ``M'`` to the closure; its dual values give a separating functional ``W`` with
``|W| ≤ 1``. By default the LP is first *reduced by the row space* of the mechanisms (``_closure_model.py``: only
``rank`` equations per output, rescaled to the identity on a basis, so an invertible mechanism costs ``n_out·N``
instead of ``n_out·N²`` coefficients; a row of ``M'`` outside the row space is answered by a span certificate),
assembled sparse once per definition and output count, and re-solved from the previous basis for later queries.
``reduce=False`` keeps the unreduced LP reachable; it is also the fallback whenever the reduced LP's answer does not
verify. A *yes* returns the witness ``(A_j, λ_j)``; a *no* returns :class:`SeparatingCertificate` ``W``: every
``N`` in the closure has ``⟨W, N⟩ ≥ β := min_j Σ_ω min_o (W M_jᵀ)[o, ω]`` while ``⟨W, M'⟩ < β``.

Both are re-verified before they are returned. Exact mode rationalises the float solution (rounding, then an exact
solve on the support of the solution, then cdd's exact simplex) and checks it in rational arithmetic; float mode
checks the witness residual ``≤ atol`` (max-abs) or the certificate gap ``> atol · max|W|`` (then ``M'`` is more
than ``atol`` away from the closure in ℓ1). If nothing verifies, :class:`~privgeom.SolverError` is raised.

Examples
--------
>>> import numpy as np
>>> from fractions import Fraction as F
>>> M = np.array([[F(1, 2), F(0)], [F(1, 2), F(1, 2)], [F(0), F(1, 2)]], dtype=object)
>>> ans = closure_lp_membership([M], np.array([[F(1), F(0)], [F(0), F(1)]], dtype=object), exact=True)
>>> ans.member, ans.method, type(ans.certificate).__name__
(False, 'lp', 'SeparatingCertificate')
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import cached_property
from typing import Any, MutableMapping, NamedTuple, Sequence

import numpy as np
import scipy.sparse as sp

from .._core.errors import SolverError
from .._core.arrays import ATOL, readonly
from .._core.columns import int_columns, widen
from .._core.limits import current_limit
from ..geometry._lp import (
    WITNESS_FIRST,
    check_lp_size,
    exact_nonnegative_solution,
    exact_solve,
    rational_candidates,
    solve_lp,
    support_systems,
)
from ._membership import ClosureWitness, Membership, SeparatingCertificate
from ._closure_model import DEFAULT_SOLVER, ClosureModel, closure_lp_nonzeros
from .._core.numbers import number_text

__all__ = [
    "closure_lp_membership",
    "verify_closure_witness",
    "verify_separating_certificate",
    "witness_from_coefficients",
]

#: Float mode: a mixture weight ``λ_j`` at or below this is dropped (its component carries no mass: ``B_j = λ_j A_j``
#: would be divided by round-off); the order of float64's relative precision.
NEGLIGIBLE_WEIGHT = 1e-15
#: Float mode: a column of a recovered component ``A_j`` summing to at most this is empty (set to a point mass on
#: the first output instead of dividing by it); any positive column sum above it is normalised.
EMPTY_COLUMN = 1e-300


def _as_float(a: np.ndarray) -> np.ndarray:
    return a.astype(float) if a.dtype != float else a


# ---------------------------------------------------------------------------------------------------- verification
def verify_closure_witness(
    mats: Sequence[np.ndarray],
    target: np.ndarray,
    witness: ClosureWitness,
    *,
    exact: bool,
    atol: float = ATOL,
    fraction: bool = False,
) -> Fraction | float | None:
    """Check ``target = Σ λ_j A_j M_{c_j}`` (exactly, or within ``atol``); return the residual or None if it fails.

    Checks every ``A_j ≥ 0`` with columns summing to 1, ``λ ≥ 0`` summing to 1, and the product. Exact mode works
    on integers (:func:`_verify_exact_ints`); ``fraction=True`` does the same with Fraction objects (reference).
    """
    lam = witness.weights
    if len(lam) != len(witness.post_processings) or len(lam) != len(witness.components) or not lam:
        return None
    if exact and not fraction:
        if any(w < 0 for w in lam) or sum(lam) != 1:
            return None
        return _verify_exact_ints(mats, target, witness)
    if exact:
        if any(w < 0 for w in lam) or sum(lam) != 1:
            return None
        total = np.zeros(target.shape, dtype=object)
        total[...] = Fraction(0)
        for c, w, A in zip(witness.components, lam, witness.post_processings):
            M = mats[c]
            if A.shape != (target.shape[0], M.shape[0]):
                return None
            if (A < 0).any() or any(s != 1 for s in A.sum(axis=0)):
                return None
            total = total + w * A.dot(M)
        return Fraction(0) if bool((total == target).all()) else None
    lamf = np.array([float(w) for w in lam])
    if (lamf < -atol).any() or abs(lamf.sum() - 1.0) > atol:
        return None
    totalf = np.zeros(target.shape)
    for c, w, A in zip(witness.components, lamf, witness.post_processings):
        Af = _as_float(np.asarray(A))
        M = _as_float(np.asarray(mats[c]))
        if Af.shape != (target.shape[0], M.shape[0]):
            return None
        if (Af < -atol).any() or (np.abs(Af.sum(axis=0) - 1.0) > atol).any():
            return None
        totalf += w * Af.dot(M)
    res = float(np.abs(totalf - _as_float(target)).max()) if target.size else 0.0
    return res if res <= atol else None


def _verify_exact_ints(mats: Sequence[np.ndarray], target: np.ndarray, witness: ClosureWitness) -> Fraction | None:
    """The exact check of :func:`verify_closure_witness` on integers (Python ints, so nothing overflows).

    Each matrix is put in integer-column form ``num[:, i] / den[i]`` (:func:`~privgeom._core.columns.int_columns`, least
    common denominators, so ``A ≥ 0`` with unit column sums is ``num ≥ 0`` and ``Σ num = den``). With ``L`` the least
    common multiple of ``A``'s column denominators, ``(A M)[r, i] = Σ_ω (An[r, ω] L / Ad[ω]) Mn[ω, i] / (L Md[i])``;
    the weighted sum is accumulated as numerators over per-column denominators and compared with the target by
    cross-multiplication.
    """
    Tn, Td = widen(*int_columns(target)) if target.size else (np.zeros(target.shape, dtype=object), None)
    tot_n = np.zeros(target.shape, dtype=object)
    tot_d = np.ones(target.shape[1], dtype=object)
    for c, w, A in zip(witness.components, witness.weights, witness.post_processings):
        M = mats[c]
        if A.shape != (target.shape[0], M.shape[0]):
            return None
        An, Ad = (
            widen(*int_columns(A)) if A.size else (np.zeros(A.shape, dtype=object), np.ones(A.shape[1], dtype=object))
        )
        if (An < 0).any() or not bool((An.sum(axis=0) == Ad).all()):
            return None
        Mn, Md = widen(*int_columns(M))
        L = math.lcm(*Ad.tolist()) if Ad.size else 1
        wf = Fraction(w)
        num = (An * (L // Ad)).dot(Mn) * wf.numerator  # over L · Md · w.denominator
        den = Md * (L * wf.denominator)
        new_d = np.lcm(tot_d, den)
        tot_n = tot_n * (new_d // tot_d) + num * (new_d // den)
        tot_d = new_d
    if Td is None:
        return Fraction(0)
    return Fraction(0) if bool((tot_n * Td == Tn * tot_d).all()) else None


def separating_bound(mats: Sequence[np.ndarray], W: np.ndarray) -> Any:
    """``β = min_j Σ_ω min_o (W M_jᵀ)[o, ω]``: a lower bound of ``⟨W, N⟩`` over the closure."""
    vals = []
    for M in mats:
        P = W.dot(M.T)  # (n_out, r_j)
        vals.append(P.min(axis=0).sum() if P.size else 0)
    return min(vals)


def verify_separating_certificate(
    mats: Sequence[np.ndarray], target: np.ndarray, cert: SeparatingCertificate, *, exact: bool, atol: float = ATOL
) -> bool:
    """Recompute ``β`` and ``⟨W, M'⟩`` from ``W`` and check ``⟨W, M'⟩ < β`` (float: by more than ``atol·max|W|``)."""
    W = cert.functional
    if W.shape != target.shape:
        return False
    if exact:
        beta = separating_bound(mats, W)
        value = (W * target).sum()
        return bool(value < beta and beta == cert.bound and value == cert.value)
    Wf = _as_float(W)
    beta = float(separating_bound([_as_float(M) for M in mats], Wf))
    value = float((Wf * _as_float(target)).sum())
    scale = float(np.abs(Wf).max()) if Wf.size else 0.0
    return bool(beta - value > atol * scale and scale > 0)


def witness_from_coefficients(
    mats: Sequence[np.ndarray], B: Sequence[np.ndarray], lam: Sequence[Any], *, exact: bool
) -> ClosureWitness | None:
    """Turn ``B_j = λ_j A_j`` into a :class:`ClosureWitness` (dropping components with ``λ_j = 0``)."""
    comps, weights, posts = [], [], []
    for j, (Bj, lj) in enumerate(zip(B, lam)):
        if exact:
            if lj == 0:
                if any(v != 0 for v in Bj.ravel()):
                    return None
                continue
            A = Bj / lj
        else:
            lj = float(lj)
            if lj <= NEGLIGIBLE_WEIGHT:
                continue
            A = np.clip(_as_float(Bj) / lj, 0.0, None)
            sums = A.sum(axis=0)
            zero = sums <= EMPTY_COLUMN
            A[:, ~zero] = A[:, ~zero] / sums[~zero]
            A[0, zero] = 1.0
        comps.append(j)
        weights.append(lj)
        posts.append(readonly(A))
    if not comps:
        return None
    if not exact:
        tot = sum(weights)
        weights = [w / tot for w in weights]
    return ClosureWitness(
        components=tuple(comps),
        weights=tuple(weights),
        post_processings=tuple(posts),
        residual=Fraction(0) if exact else 0.0,
    )


# ---------------------------------------------------------------------------------------------------- the LP
class Triplets(NamedTuple):
    """A sparse LP matrix in coordinate form: ``A[rows[t], cols[t]] = vals[t]``."""

    rows: np.ndarray
    cols: np.ndarray
    vals: np.ndarray


class _ClosureLP:
    """Index bookkeeping of the closure LP (variables ``B_j[o, ω]`` at ``offs[j] + o·r_j + ω``, then ``λ``).

    The exact constraint triplets (``rows``, ``cols``, ``vals``; used to rationalise a solution on its support) are
    built lazily, only when exact mode needs them. Sizes are checked here, before anything is built.
    """

    def __init__(
        self,
        mats: Sequence[np.ndarray],
        target: np.ndarray,
        *,
        max_nonzeros: int | None = None,
        what: str = "closure LP",
    ) -> None:
        self.mats = list(mats)
        self.target = target
        self.n_out, self.N = target.shape
        self.r = [M.shape[0] for M in self.mats]
        self.offs = []
        off = 0
        for rj in self.r:
            self.offs.append(off)
            off += self.n_out * rj
        self.nb = off
        self.m = len(self.mats)
        self.n_core = self.nb + self.m
        self.n_eq = self.n_out * self.N + sum(self.r) + 1
        self.max_nonzeros = max_nonzeros
        self.what = what
        nnz_g = sum(int(np.count_nonzero(np.asarray(M != 0))) for M in self.mats)
        self.nnz_full = closure_lp_nonzeros(nnz_g, self.n_out, sum(self.r), self.N, self.m)

    def check_full_size(self) -> None:
        """Refuse the unreduced LP (all ``N`` equations per output) before it is built."""
        check_lp_size(
            self.n_eq,
            self.n_core + 2 * self.n_out * self.N,
            self.nnz_full,
            what=self.what,
            max_nonzeros=self.max_nonzeros,
            hint="the max_nonzeros= keyword of FiniteDefinition.closure_lp()",
        )

    @cached_property
    def _triplets(self) -> Triplets:
        self.check_full_size()
        return self._coo()

    @property
    def rows(self) -> np.ndarray:
        return self._triplets.rows

    @property
    def cols(self) -> np.ndarray:
        return self._triplets.cols

    @property
    def vals(self) -> np.ndarray:
        return self._triplets.vals

    def _coo(self) -> Triplets:
        rows, cols, vals = [], [], []
        n_out, N = self.n_out, self.N
        o = np.arange(n_out)
        e2 = n_out * N
        roff = 0
        for j, M in enumerate(self.mats):
            rj = self.r[j]
            w_idx, i_idx = np.nonzero(np.asarray(M != 0))
            v = np.asarray(M)[w_idx, i_idx]
            rows.append((o[:, None] * N + i_idx[None, :]).ravel())
            cols.append((self.offs[j] + o[:, None] * rj + w_idx[None, :]).ravel())
            vals.append(np.tile(v, n_out))
            # column sums: Σ_o B_j[o, ω] − λ_j = 0
            ww, oo = np.meshgrid(np.arange(rj), o, indexing="ij")
            rows.append((e2 + roff + ww).ravel())
            cols.append((self.offs[j] + oo * rj + ww).ravel())
            vals.append(np.array([1] * (rj * n_out), dtype=object))
            rows.append(e2 + roff + np.arange(rj))
            cols.append(np.full(rj, self.nb + j))
            vals.append(np.array([-1] * rj, dtype=object))
            roff += rj
        rows.append(np.full(self.m, self.n_eq - 1))
        cols.append(self.nb + np.arange(self.m))
        vals.append(np.array([1] * self.m, dtype=object))
        return Triplets(
            np.concatenate(rows).astype(np.int64),
            np.concatenate(cols).astype(np.int64),
            np.concatenate([np.asarray(v, dtype=object) for v in vals]),
        )

    def rhs(self) -> list[Any]:
        return list(self.target.ravel()) + [0] * sum(self.r) + [1]

    def split(self, x: Sequence[Any]) -> tuple[list[np.ndarray], list[Any]]:
        arr = np.asarray(x, dtype=object if isinstance(x[0], Fraction) else float)
        B = [arr[self.offs[j] : self.offs[j] + self.n_out * rj].reshape(self.n_out, rj) for j, rj in enumerate(self.r)]
        return B, list(arr[self.nb : self.nb + self.m])

    def solve_separation(self) -> np.ndarray:
        """max β − ⟨W, M'⟩ s.t. W M_jᵀ ≥ z_j (entrywise, per output o), Σ_ω z_j(ω) ≥ β, −1 ≤ W ≤ 1."""
        n_out, N = self.n_out, self.N
        nW = n_out * N
        nz = sum(self.r)
        check_lp_size(
            n_out * nz + self.m,
            nW + nz + 1,
            self.nnz_full,
            what=f"{self.what} (separation LP)",
            max_nonzeros=self.max_nonzeros,
            hint="the max_nonzeros= keyword of FiniteDefinition.closure_lp()",
        )
        rows, cols, vals = [], [], []
        o = np.arange(n_out)
        row = 0
        zoff = 0
        for j, M in enumerate(self.mats):
            Mf = _as_float(np.asarray(M))
            rj = self.r[j]
            w_idx, i_idx = np.nonzero(Mf)
            # row (j, o, w): −Σ_i M_j[w, i] W[o, i] + z_j[w] ≤ 0
            rr = row + o[:, None] * rj + w_idx[None, :]
            rows += [rr.ravel(), (row + o[:, None] * rj + np.arange(rj)[None, :]).ravel()]
            cols += [(o[:, None] * N + i_idx[None, :]).ravel(), np.tile(nW + zoff + np.arange(rj), n_out)]
            vals += [np.tile(-Mf[w_idx, i_idx], n_out), np.ones(n_out * rj)]
            row += n_out * rj
            zoff += rj
        zoff = 0
        for j in range(self.m):
            rj = self.r[j]
            rows += [np.full(rj + 1, row)]
            cols += [np.concatenate([nW + zoff + np.arange(rj), [nW + nz]])]
            vals += [np.concatenate([-np.ones(rj), [1.0]])]
            row += 1
            zoff += rj
        A = sp.csc_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(row, nW + nz + 1)
        )
        c = np.concatenate([_as_float(self.target).ravel(), np.zeros(nz), [-1.0]])
        bounds = [(-1.0, 1.0)] * nW + [(None, None)] * (nz + 1)
        res = solve_lp(c, A_ub=A, b_ub=np.zeros(row), bounds=bounds, what="separation LP")
        if res.status != "optimal" or res.x is None:
            raise SolverError("separation LP: HiGHS reported infeasible for a problem that is always feasible")
        return res.x[:nW].reshape(n_out, N)


def _exact_witness(lp: _ClosureLP, x: np.ndarray) -> ClosureWitness | None:
    """Rationalise the core part of a float LP solution into an exactly verified witness."""
    core = np.clip(x[: lp.n_core], 0.0, None)

    def attempt(vec: Sequence[Any]) -> ClosureWitness | None:
        if any(v < 0 for v in vec):
            return None
        B, lam = lp.split(list(vec))
        wit = witness_from_coefficients(lp.mats, B, lam, exact=True)
        if wit is None:
            return None
        return wit if verify_closure_witness(lp.mats, lp.target, wit, exact=True) is not None else None

    for cand in list(rational_candidates(core))[:2]:
        wit = attempt(list(cand))
        if wit is not None:
            return wit
    rhs = lp.rhs()
    for support, rowdicts in support_systems(lp.rows, lp.cols, lp.vals, lp.n_eq, core):
        if not support:
            continue
        for nonnegative in (False, True):  # a solution on the support, then (small supports) a non-negative one
            if not nonnegative:
                sol = exact_solve(rowdicts, rhs, n_vars=len(support))
            elif len(support) <= current_limit("exact_lp_variables"):
                dense = np.empty((lp.n_eq, len(support)), dtype=object)
                dense[...] = Fraction(0)
                for r_, rowd in enumerate(rowdicts):
                    for t, coef in rowd.items():
                        dense[r_, t] = coef
                sol = exact_nonnegative_solution(dense, rhs)
            else:
                sol = None
            if sol is not None:
                full = [Fraction(0)] * lp.n_core
                for t, v in enumerate(support):
                    full[v] = sol[t]
                wit = attempt(full)
                if wit is not None:
                    return wit
    return None


def _certificate(lp: _ClosureLP, W_float: np.ndarray, *, exact: bool, atol: float) -> SeparatingCertificate | None:
    candidates = []
    for sign in (1.0, -1.0):
        Wf = sign * W_float
        scale = float(np.abs(Wf).max()) if Wf.size else 0.0
        if scale <= 0 or not np.isfinite(scale):
            continue
        candidates.append(Wf / scale)
    for Wf in candidates:
        if exact:
            for Wq in rational_candidates(Wf):
                beta = separating_bound(lp.mats, Wq)
                value = (Wq * lp.target).sum()
                if value < beta:
                    cert = SeparatingCertificate(functional=readonly(Wq), bound=beta, value=value)
                    if verify_separating_certificate(lp.mats, lp.target, cert, exact=True):
                        return cert
        else:
            mats_f = [_as_float(np.asarray(M)) for M in lp.mats]
            beta = float(separating_bound(mats_f, Wf))
            value = float((Wf * _as_float(lp.target)).sum())
            cert = SeparatingCertificate(functional=readonly(Wf.copy()), bound=beta, value=value)
            if verify_separating_certificate(lp.mats, lp.target, cert, exact=False, atol=atol):
                return cert
    return None


#: How many assembled models (one per output count and variant) a definition keeps.
_CACHED_MODELS = 4

#: A row of ``M'`` farther than this (max-abs) from the mechanisms' row space is tested for a span certificate.
_SPAN_TOL = 1e-9


def _closure_model(cache: MutableMapping[Any, ClosureModel] | None, lp: _ClosureLP, reduce: bool) -> ClosureModel:
    """The HiGHS model for ``lp``'s definition and output count: from ``cache`` (kept on the definition) or new."""
    key = (lp.n_out, bool(reduce), lp.max_nonzeros)
    model = cache.get(key) if cache is not None else None
    if model is None:
        if not reduce:
            lp.check_full_size()
        model = ClosureModel(
            [_as_float(np.asarray(M)) for M in lp.mats],
            lp.n_out,
            reduce=reduce,
            max_nonzeros=lp.max_nonzeros,
            what=f"{lp.what} closure LP",
        )
        if cache is not None:
            while len(cache) >= _CACHED_MODELS:  # keep the most recent few (each holds a HiGHS instance)
                del cache[next(iter(cache))]
            cache[key] = model
    return model


def closure_lp_membership(
    mats: Sequence[np.ndarray],
    target: np.ndarray,
    *,
    exact: bool,
    atol: float = ATOL,
    what: str = "closure",
    solver: str | None = None,
    reduce: bool = True,
    cache: MutableMapping[Any, ClosureModel] | None = None,
    max_nonzeros: int | None = None,
) -> Membership:
    """Decide ``target ∈ closure({mats})`` by the LP of Theorem 3.4 with a verified witness or certificate.

    Parameters
    ----------
    mats : sequence of 2-D arrays
        The mechanisms ``M_j`` (rows = outputs, columns = the common inputs); object arrays of Fractions in exact
        mode. Zero rows may be present.
    target : 2-D array
        The mechanism ``M'`` to test (same number of columns).
    exact : bool
        Verify in exact rational arithmetic (all arrays must then hold Fractions/ints).
    atol : float
        Float-mode tolerance (see the module docstring).
    solver : str, optional
        HiGHS algorithm: ``"ipm"`` (default, :data:`~privgeom.definitions._closure_model.DEFAULT_SOLVER`),
        ``"dual"``, ``"primal"``, ``"simplex"`` or ``"choose"``.
    reduce : bool
        Reduce the LP by the row space of the mechanisms (default); False solves today's unreduced ℓ1 LP.
    cache : dict, optional
        Where assembled models are kept for reuse (the definition's own cache): repeated queries only change the
        right-hand side and re-solve from the previous basis.
    max_nonzeros : int, optional
        LP size limit (default ``privgeom.geometry._lp.MAX_LP_NONZEROS``), checked before anything is built.

    Raises
    ------
    SizeLimitError
        The LP would exceed ``max_nonzeros`` (refused before building; the message names the sizes).
    SolverError
        HiGHS failed, or neither a witness nor a certificate could be verified.
    """
    lp = _ClosureLP(mats, target, max_nonzeros=max_nonzeros, what=what)
    solver = DEFAULT_SOLVER if solver is None else solver
    Tf = _as_float(np.asarray(target))
    model = _closure_model(cache, lp, reduce)
    if model.reduced:
        D = model.span_residual(Tf)
        if D.size and float(np.abs(D).max()) > _SPAN_TOL:
            cert = _certificate(lp, -D, exact=exact, atol=atol)
            if cert is not None:
                o = int(np.argmax(np.abs(D).max(axis=1)))
                return Membership(
                    member=False,
                    method="lp",
                    exact=exact,
                    certificate=cert,
                    detail=f"{what}: row {o} of the mechanism is not in the span of the definition's "
                    "rows (separating functional from the row-space reduction of the closure LP)",
                )
            model = _closure_model(cache, lp, False)
    out = _decide(lp, model, Tf, solver, exact=exact, atol=atol, what=what)
    if out is None and model.reduced:  # the reduced LP is a speed-up only: the unreduced LP decides
        model = _closure_model(cache, lp, False)
        out = _decide(lp, model, Tf, solver, exact=exact, atol=atol, what=what)
    if out is None:
        mode = "exactly" if exact else f"within atol={number_text(atol)}"
        raise SolverError(
            f"{what}: the closure LP gave neither a witness nor a certificate that verifies {mode}"
            + ("" if exact else "; the mechanism is at the tolerance boundary — choose another atol")
        )
    return out


def _decide(
    lp: _ClosureLP, model: ClosureModel, Tf: np.ndarray, solver: str, *, exact: bool, atol: float, what: str
) -> Membership | None:
    res, W_dual = model.solve(Tf, solver)
    assert res.x is not None
    x = model.core(res.x)
    dist = float(res.fun or 0.0)
    measure = "ℓ1 residual of the row-space-reduced LP" if model.reduced else "ℓ1 distance to the closure"
    target = lp.target

    def try_witness() -> Membership | None:
        if exact:
            wit = _exact_witness(lp, x)
        else:
            core = np.clip(x, 0.0, None)
            B, lam = lp.split(list(core))
            wit = witness_from_coefficients(lp.mats, B, lam, exact=False)
            if wit is not None:
                resid = verify_closure_witness(lp.mats, target, wit, exact=False, atol=atol)
                wit = None if resid is None else replace(wit, residual=resid)
        if wit is None:
            return None
        return Membership(
            member=True,
            method="lp",
            exact=exact,
            witness=wit,
            detail=f"{what}: witness found by the closure LP (Theorem 3.4)",
        )

    def try_certificate() -> Membership | None:
        cert = _certificate(lp, W_dual, exact=exact, atol=atol) if W_dual is not None else None
        if cert is None:
            cert = _certificate(lp, lp.solve_separation(), exact=exact, atol=atol)
        if cert is None:
            return None
        return Membership(
            member=False,
            method="lp",
            exact=exact,
            certificate=cert,
            detail=f"{what}: separating functional from the LP dual ({measure} ≈ {number_text(dist, digits=3)})",
        )

    threshold = atol if not exact else WITNESS_FIRST
    order = (try_witness, try_certificate) if dist <= threshold else (try_certificate, try_witness)
    for attempt in order:
        out = attempt()
        if out is not None:
            return out
    return None
