"""Row-level tools: the row cone of a finite definition, the linear-solve fast path, readable inequalities.

If the rows of a mechanism ``M`` are linearly independent then (``docs/theory.md`` §3)
``closure({M}) = {M' column-stochastic : every row of M' ∈ rowcone({M})}``: writing ``M' = Y M`` (unique),
``Y ≥ 0`` is the whole condition, since ``1ᵀ M' = 1ᵀ = 1ᵀ M`` and independence force ``1ᵀ Y = 1ᵀ``. So membership is a
linear solve plus a sign check. A negative ``Y[o, ω]`` yields the violated facet ``a = M⁺ e_ω`` (``a · g ≥ 0`` for
every row ``g`` of ``M``, ``a · x = Y[o, ω] < 0``); a row outside the span of ``M`` yields ``a = −(x − x_proj)``.

Zero rows never matter and proportional rows can be merged (merging and splitting proportional outputs are
post-processings), so :func:`reduce_rows` normalises a mechanism before the independence test.

Examples
--------
>>> import numpy as np
>>> from fractions import Fraction as F
>>> G = np.array([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], dtype=object)
>>> ans = independent_rows_membership(G, np.array([[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]], dtype=object),
...                                   exact=True, labels=("1", "0"), outputs=("1", "0"))
>>> ans.member, ans.method, ans.witness.post_processings[0].tolist()
(True, 'linear-solve', [[Fraction(5, 6), Fraction(1, 6)], [Fraction(1, 6), Fraction(5, 6)]])
>>> format_inequality(np.array([F(3), F(-1), F(0)]), ("a", "b", "c"))
'3·x[a] − x[b] ≥ 0'
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp

from .._core.errors import InvalidInputError, InvalidTypeError, DomainMismatchError
from .._core.arrays import ATOL, readonly, ROUNDOFF
from .._core.numbers import parse_scalar
from .._core.numbers import number_text
from ..geometry._lp import (
    WITNESS_FIRST,
    check_lp_size,
    exact_inverse,
    exact_rank,
    exact_solve,
    rational_candidates,
    solve_lp,
)
from ._membership import ClosureWitness, Definition, Membership, RowCertificate, RowWitness

#: :func:`repair_normal` in float mode: the shift ``t`` is raised by this absolute amount (and by a relative
#: :data:`~privgeom._core.arrays.ROUNDOFF`) so that a shift that should make ``a·g`` exactly 0 leaves it non-negative;
#: the smallest positive normal float order, it changes nothing else.
REPAIR_FLOOR = 1e-300

__all__ = [
    "format_inequality",
    "reduce_rows",
    "rows_independent",
    "independent_rows_membership",
    "cone_lp_membership",
    "repair_normal",
    "as_vector",
    "generic_row_membership",
    "independent_row_membership",
]


# ---------------------------------------------------------------------------------------------------- formatting
def format_inequality(normal: np.ndarray, labels: Sequence[str], rel: str = "≥", limit: int = 12) -> str:
    """``a · x ≥ 0`` as text, e.g. ``'3·x[a] − x[b] ≥ 0'`` (at most ``limit`` terms, then ``…``)."""
    terms = []
    for a, lab in zip(normal, labels):
        if a == 0:
            continue
        mag = abs(a)
        coef = "" if mag == 1 else f"{number_text(mag)}·"
        sign = "−" if a < 0 else "+"
        terms.append((sign, f"{coef}x[{lab}]"))
        if len(terms) >= limit:
            terms.append(("+", "…"))
            break
    if not terms:
        return f"0 {rel} 0"
    text = ("−" if terms[0][0] == "−" else "") + terms[0][1]
    for sign, t in terms[1:]:
        text += f" {sign} {t}"
    return f"{text} {rel} 0"


def as_vector(x: Any, n: int, *, exact: bool, name: str = "x") -> tuple[np.ndarray, bool]:
    """Parse a row vector of length ``n``; returns ``(array, exact)`` — float input forces float mode."""
    if isinstance(x, np.ndarray):
        arr = x
    else:
        try:
            items = list(x)
        except TypeError:
            raise InvalidTypeError(f"{name} must be a vector, got {type(x).__name__}") from None
        if any(isinstance(v, (list, tuple, np.ndarray)) for v in items):
            raise InvalidInputError(f"{name} must be a 1-D vector")
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
    if arr.ndim != 1:
        raise InvalidInputError(f"{name} must be a 1-D vector, got shape {arr.shape}")
    if arr.shape[0] != n:
        raise DomainMismatchError(f"{name} has {arr.shape[0]} entries but the definition has {n} datasets")
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            raise InvalidInputError(f"{name} has non-finite entries")
        return arr.astype(float), False
    if arr.dtype.kind in "iu":
        if exact:
            return arr, True
        return arr.astype(float), False
    if arr.dtype.kind != "O":
        raise InvalidTypeError(f"{name} must hold numbers, got dtype {arr.dtype}")
    if all(type(v) is Fraction or type(v) is int for v in arr):  # fast path for large exact vectors
        if exact:
            if all(type(v) is Fraction for v in arr):
                return arr, True
            out = np.empty(len(arr), dtype=object)
            out[:] = [v if type(v) is Fraction else Fraction(v) for v in arr]
            return out, True
        return np.array([float(v) for v in arr]), False
    vals = [parse_scalar(v, name=name) for v in arr]
    is_exact = exact and all(isinstance(v, Fraction) for v in vals)
    if is_exact:
        return np.array(vals, dtype=object), True
    return np.array([float(v) for v in vals]), False


# ---------------------------------------------------------------------------------------------------- normalising
def reduce_rows(G: np.ndarray, *, exact: bool, atol: float = ATOL) -> tuple[np.ndarray, list[int]]:
    """Drop zero rows and merge proportional rows (summing them).

    Returns the reduced generator matrix and, for every original row, the index of its reduced row (``-1`` for
    a zero row).
    """
    reduced: list[np.ndarray] = []
    keys: dict[Any, int] = {}
    index: list[int] = []
    for g in G:
        if exact:
            nz = [v for v in g if v != 0]
            if not nz:
                index.append(-1)
                continue
            key: Any = tuple(v / nz[0] for v in g)
        else:
            gf = np.asarray(g, dtype=float)
            s = float(np.abs(gf).sum())
            if s <= atol:
                index.append(-1)
                continue
            key = tuple(np.round(gf / s / atol).astype(np.int64))
        if key in keys:
            reduced[keys[key]] = reduced[keys[key]] + g
            index.append(keys[key])
        else:
            keys[key] = len(reduced)
            index.append(len(reduced))
            reduced.append(np.array(g, dtype=object if exact else float))
    if not reduced:
        return np.zeros((0, G.shape[1]), dtype=object if exact else float), index
    return np.vstack(reduced), index


def rows_independent(G: np.ndarray, *, exact: bool) -> bool:
    """True when the rows of ``G`` are linearly independent (exact rank, or numerical rank in float mode)."""
    if G.shape[0] == 0:
        return True
    if G.shape[0] > G.shape[1]:
        return False
    if exact:
        return exact_rank(G) == G.shape[0]
    return int(np.linalg.matrix_rank(G.astype(float))) == G.shape[0]


# ---------------------------------------------------------------------------------------------------- exact algebra
def _exact_inverse(H: np.ndarray) -> np.ndarray:
    inv = exact_inverse(H)
    if inv is None:  # pragma: no cover - only called for independent rows
        raise InvalidInputError("internal: singular matrix in the linear-solve path")
    return inv


def _pinv(G: np.ndarray, exact: bool) -> np.ndarray:
    """``G⁺ = Gᵀ (G Gᵀ)^{-1}`` for independent rows (``N x r``); ``G^{-1}`` when ``G`` is square."""
    if exact:
        if G.shape[0] == G.shape[1]:
            return _exact_inverse(G)
        return G.T.dot(_exact_inverse(G.dot(G.T)))
    return np.linalg.pinv(G.astype(float))


def repair_normal(normal: np.ndarray, G: np.ndarray, *, exact: bool) -> np.ndarray:
    """Make ``a · g ≥ 0`` hold for every (non-negative, non-zero) generator row ``g`` by adding ``t · 1``.

    ``1 · g > 0`` for every non-zero non-negative ``g``, so ``t = max(0, max_g −a·g / 1·g)`` works; this absorbs the
    rounding of a rationalised float normal.
    """
    if G.shape[0] == 0:
        return normal
    vals = G.dot(normal)
    sums = G.sum(axis=1)
    t: Any = 0
    for v, s in zip(vals, sums):
        if v < 0 and s > 0:
            t = max(t, -v / s)
    if t == 0:
        return normal
    if not exact:
        t = float(t) * (1 + ROUNDOFF) + REPAIR_FLOOR
    return normal + t


def _row_certificate(
    normal: np.ndarray,
    G: np.ndarray,
    x: np.ndarray,
    *,
    exact: bool,
    atol: float,
    row: int,
    output: str,
    labels: Sequence[str],
    label: str,
) -> RowCertificate | None:
    """Verify ``a·g ≥ 0`` for all generators and ``a·x < 0`` (float: ``< −atol·‖a‖_1``) and build the certificate."""
    if exact:
        if any(v < 0 for v in G.dot(normal)):
            return None
        value = x.dot(normal)
        if not value < 0:
            return None
    else:
        nf = normal.astype(float)
        scale = float(np.abs(nf).sum())
        if scale <= 0:
            return None
        nf = nf / scale
        if (G.astype(float).dot(nf) < -ROUNDOFF).any():
            return None
        value = float(x.astype(float).dot(nf))
        if not value < -atol:
            return None
        normal = nf
    return RowCertificate(
        row=row,
        output=output,
        normal=readonly(normal),
        value=value,
        inequality=format_inequality(normal, labels),
        label=label,
    )


# ---------------------------------------------------------------------------------------------------- fast path
def independent_rows_membership(
    G: np.ndarray,
    target: np.ndarray,
    *,
    exact: bool,
    labels: Sequence[str],
    outputs: Sequence[str],
    atol: float = ATOL,
    index: Sequence[int] | None = None,
    n_original: int | None = None,
) -> Membership | None:
    """Closure membership for ONE mechanism with linearly independent rows ``G``: ``M' = Y G`` with ``Y ≥ 0``.

    ``index``/``n_original`` map the reduced rows back to the rows of the original mechanism (see
    :func:`reduce_rows`) so that the witness is a post-processing of the original mechanism. Returns None when
    the answer could not be verified (float mode at the tolerance boundary); the caller then uses the LP.
    """
    r = G.shape[0]
    idx = list(range(r)) if index is None else list(index)
    n_orig = r if n_original is None else n_original
    Gp = _pinv(G, exact)
    Y = target.dot(Gp)  # (n_out, r)
    Gm = G if exact else G.astype(float)
    xs = target if exact else target.astype(float)
    recon = Y.dot(Gm)
    # rows outside the span of G
    for o in range(target.shape[0]):
        diff = xs[o] - recon[o]
        off = any(v != 0 for v in diff) if exact else float(np.abs(diff).max()) > atol
        if off:
            cert = _row_certificate(
                -diff, Gm, xs[o], exact=exact, atol=atol, row=o, output=outputs[o], labels=labels, label="span"
            )
            if cert is not None:
                return Membership(
                    member=False,
                    method="linear-solve",
                    exact=exact,
                    certificate=cert,
                    detail=f"row {outputs[o]!r} is not in the span of the mechanism's rows",
                )
            if exact:  # pragma: no cover - exact projection residual always certifies
                return None
    neg = np.argwhere(Y < 0) if exact else np.argwhere(Y < -atol)
    if neg.size:
        o, w = (int(v) for v in neg[np.argmin([float(Y[a, b]) for a, b in neg])])
        cert = _row_certificate(
            Gp[:, w],
            Gm,
            xs[o],
            exact=exact,
            atol=atol,
            row=o,
            output=outputs[o],
            labels=labels,
            label=f"dual basis {w}",
        )
        if cert is not None:
            return Membership(
                member=False,
                method="linear-solve",
                exact=exact,
                certificate=cert,
                detail=f"row {outputs[o]!r} needs a negative multiple of generator {w}",
            )
        return None
    # witness: A[:, original row] = Y[:, reduced row]; zero rows get an arbitrary distribution
    n_out = target.shape[0]
    if exact:
        A = np.empty((n_out, n_orig), dtype=object)
        A[...] = Fraction(0)
    else:
        A = np.zeros((n_out, n_orig))
        Y = np.clip(Y, 0.0, None)
    for k, red in enumerate(idx):
        if red < 0:
            A[0, k] = 1
        else:
            A[:, k] = Y[:, red]
    if not exact:
        sums = A.sum(axis=0)
        A = A / np.where(sums > 0, sums, 1.0)
    wit = ClosureWitness(
        components=(0,),
        weights=(Fraction(1) if exact else 1.0,),
        post_processings=(readonly(A),),
        residual=Fraction(0) if exact else 0.0,
    )
    return Membership(
        member=True,
        method="linear-solve",
        exact=exact,
        witness=wit,
        detail="M' = Y M with Y ≥ 0 (independent rows: the row cone decides closure)",
    )


# ---------------------------------------------------------------------------------------------------- cone LP
def cone_lp_membership(
    G: np.ndarray, x: np.ndarray, *, exact: bool, labels: Sequence[str], atol: float = ATOL, what: str = "row cone"
) -> Membership:
    """Is ``x`` in the cone generated by the rows of ``G``? ℓ1-relaxed LP ``x = yᵀG + s⁺ − s⁻``, verified.

    A yes returns :class:`RowWitness` ``y ≥ 0``; a no returns :class:`RowCertificate` with a Farkas normal ``a``
    (``G a ≥ 0``, ``a · x < 0``) from the LP dual, repaired by :func:`repair_normal` and re-verified.

    Raises
    ------
    SolverError
        HiGHS failed or nothing could be verified.
    """
    from .._core.errors import SolverError

    R, N = G.shape
    nnz_g = int(np.count_nonzero(np.asarray(G != 0)))
    check_lp_size(N, R + 2 * N, nnz_g + 2 * N, what=f"{what} LP")
    Gf = G.astype(float)
    xf = x.astype(float)
    eye = sp.identity(N, format="csc")
    A = sp.hstack([sp.csc_matrix(Gf.T), eye, -eye], format="csc")
    c = np.concatenate([np.zeros(R), np.ones(2 * N)])
    res = solve_lp(c, A_eq=A, b_eq=xf, method="highs-ds", what=what + " LP")
    if res.status != "optimal" or res.x is None:
        raise SolverError(f"{what} LP: the ℓ1-relaxation is always feasible, yet HiGHS reported infeasible")
    dist = float(res.fun or 0.0)
    y = np.clip(res.x[:R], 0.0, None)

    def witness() -> Membership | None:
        if exact:
            cands = list(rational_candidates(y))[:2]
            support = [i for i in range(R) if y[i] > ROUNDOFF]
            if support:
                sol = exact_solve(G[support].T, list(x), n_vars=len(support))
                if sol is not None:
                    full = np.array([Fraction(0)] * R, dtype=object)
                    full[support] = sol
                    cands.append(full)
            for cand in cands:
                if all(v >= 0 for v in cand) and bool((cand.dot(G) == x).all()):
                    wit = RowWitness(
                        generators=f"rows of the {what}", residual=Fraction(0), _coefficients=readonly(cand)
                    )
                    return Membership(member=True, method="lp", exact=True, witness=wit)
            return None
        resid = float(np.abs(y.dot(Gf) - xf).max()) if N else 0.0
        if resid > atol:
            return None
        return Membership(
            member=True,
            method="lp",
            exact=False,
            witness=RowWitness(generators=f"rows of the {what}", residual=resid, _coefficients=readonly(y)),
        )

    def certificate() -> Membership | None:
        if res.eq_duals is None:
            return None
        for sign in (-1.0, 1.0):
            a = sign * res.eq_duals
            s = float(np.abs(a).max())
            if s <= 0:
                continue
            a = a / s
            cands = rational_candidates(a) if exact else [a]
            for cand in cands:
                fixed = repair_normal(cand, G if exact else Gf, exact=exact)
                cert = _row_certificate(
                    fixed,
                    G if exact else Gf,
                    x if exact else xf,
                    exact=exact,
                    atol=atol,
                    row=-1,
                    output="",
                    labels=labels,
                    label="Farkas",
                )
                if cert is not None:
                    return Membership(
                        member=False,
                        method="lp",
                        exact=exact,
                        certificate=cert,
                        detail=f"Farkas certificate from the {what} LP (ℓ1 distance ≈ {number_text(dist, digits=3)})",
                    )
        return None

    order = (witness, certificate) if dist <= (WITNESS_FIRST if exact else atol) else (certificate, witness)
    for f in order:
        out = f()
        if out is not None:
            return out
    raise SolverError(
        f"{what} LP (ℓ1 distance {number_text(dist, digits=3)}): neither a witness nor a certificate verified"
    )


def generic_row_membership(definition: Definition, x: Any, *, atol: float | None = None) -> Membership:
    """Row-cone membership through :meth:`PrivacyDefinition.row_cone` (double description), for any definition."""
    vec, exact = as_vector(x, definition.n_inputs, exact=definition.exact)
    cone = definition.row_cone()
    ans = cone.contains(vec, atol=atol)
    exact = bool(ans.exact)
    if ans.member:
        return Membership(member=True, method="row-cone", exact=exact, detail="x satisfies every facet of the row cone")
    normal = np.asarray(ans.normal)
    value: Any = ans.value
    if ans.kind == "equality" and value > 0:
        normal, value = -normal, -value
    cert = RowCertificate(
        row=-1,
        output="",
        normal=readonly(normal),
        value=value,
        inequality=format_inequality(normal, definition.inputs),
        label=f"{ans.kind} {ans.violated}",
    )
    return Membership(
        member=False, method="row-cone", exact=exact, certificate=cert, detail=f"x violates {ans.kind} {ans.violated}"
    )


def rows_row_cone_membership(
    definition: Definition, X: Any, outputs: Sequence[str], *, exact: bool, atol: float, cone: str, detail: str
) -> Membership:
    """Every row of ``X`` (outputs ``outputs``) through :func:`generic_row_membership`: the first row outside the row
    cone gives a "no" whose :class:`RowCertificate` names that output (detail ``"row 'o' leaves the <cone>"``); else
    "yes" with ``detail``."""
    for o, x in enumerate(X):
        ans = generic_row_membership(definition, x if exact else np.asarray(x, dtype=float), atol=atol)
        if not ans.member:
            cert: Any = ans.certificate
            cert = replace(cert, row=o, output=outputs[o])
            return Membership(
                member=False,
                method="row-cone",
                exact=ans.exact,
                certificate=cert,
                detail=f"row {outputs[o]!r} leaves the {cone}",
            )
    return Membership(member=True, method="row-cone", exact=exact, detail=detail)


def independent_row_membership(
    G: np.ndarray, x: np.ndarray, *, exact: bool, labels: Sequence[str], atol: float = ATOL
) -> Membership | None:
    """One vector ``x`` against the cone of linearly independent rows ``G``: ``x = y G`` with ``y ≥ 0``.

    Returns a verified :class:`Membership` (method ``"linear-solve"``), or None when float mode cannot verify
    (the caller then uses :func:`cone_lp_membership`).
    """
    Gm = G if exact else G.astype(float)
    xs = x if exact else x.astype(float)
    Gp = _pinv(G, exact)
    y = xs.dot(Gp)
    diff = xs - y.dot(Gm)
    if any(v != 0 for v in diff) if exact else float(np.abs(diff).max()) > atol:
        cert = _row_certificate(-diff, Gm, xs, exact=exact, atol=atol, row=-1, output="", labels=labels, label="span")
        if cert is None:
            return None
        return Membership(
            member=False,
            method="linear-solve",
            exact=exact,
            certificate=cert,
            detail="x is not in the span of the rows",
        )
    neg = [i for i, v in enumerate(y) if (v < 0 if exact else v < -atol)]
    if neg:
        w = min(neg, key=lambda i: float(y[i]))
        cert = _row_certificate(
            Gp[:, w], Gm, xs, exact=exact, atol=atol, row=-1, output="", labels=labels, label=f"dual basis {w}"
        )
        if cert is None:
            return None
        return Membership(
            member=False,
            method="linear-solve",
            exact=exact,
            certificate=cert,
            detail=f"x needs a negative multiple of generator {w}",
        )
    if not exact:
        y = np.clip(y, 0.0, None)
        resid = float(np.abs(y.dot(Gm) - xs).max()) if xs.size else 0.0
        if resid > atol:
            return None
        return Membership(
            member=True,
            method="linear-solve",
            exact=False,
            witness=RowWitness(generators="rows of the mechanism", residual=resid, _coefficients=readonly(y)),
        )
    if not (all(v >= 0 for v in y) and bool((y.dot(G) == x).all())):  # pragma: no cover - exact algebra
        return None
    return Membership(
        member=True,
        method="linear-solve",
        exact=True,
        witness=RowWitness(generators="rows of the mechanism", residual=Fraction(0), _coefficients=readonly(y)),
    )
