"""The Kronecker-inverse route of randomized response (Lin & Kifer, Theorem 4.3), as functions of the definition.

With ``M_rr = ⊗^k R``, ``R = [[p, 1−p], [1−p, p]]``, the facet values of a row ``x`` are ``(2p − 1)^k x M_rr^{-1}``
(one Kronecker-structured transform, ``O(k 2^k)``, no ``2^k x 2^k`` matrix): :func:`transform` computes them,
:func:`decide` reads the answer for every row of a mechanism off their signs, :func:`certificate` builds and verifies
the violated facet of a bad row, and :func:`contains_factored` decides a product of one-bit mechanisms from its
factors alone (the mixed-product rule). :class:`~privgeom.definitions._rr.RandomizedResponse` calls these; exact mode
works on scaled integers and verifies every identity modulo primes (:mod:`._kron`).

Examples
--------
>>> from privgeom import randomized_response
>>> from privgeom.definitions import RandomizedResponse
>>> rr = RandomizedResponse(2, "3/4")
>>> decide(rr, randomized_response(2, "4/5").matrix, True, 0.0, ["a", "b", "c", "d"]).certificate.label
'01'
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, NamedTuple, Protocol, Sequence

import numpy as np

from .._core.errors import SizeLimitError, SolverError
from .._core.arrays import check_dense_size, ROUNDOFF
from .._core.numbers import Scalar
from ..mechanisms import Mechanism
from ..mechanisms._factories import rr_bit
from ._base import ClosureWitness, Membership, RowCertificate
from ._kron import (
    ModularIntegers,
    exact_dot,
    exact_kron_apply,
    integer_rows,
    kron_apply,
    verify_kron_identity,
)
from ._rows import format_inequality

__all__ = ["transform", "certificate", "decide", "per_bit_factors", "contains_factored", "dense_fits"]


class KroneckerRR(Protocol):
    """What the Kronecker route reads of a :class:`~privgeom.definitions._rr.RandomizedResponse`."""

    @property
    def _k(self) -> int: ...

    @property
    def _p(self) -> Scalar: ...

    @property
    def _labels(self) -> Sequence[str]: ...

    @property
    def name(self) -> str: ...

    @property
    def n_inputs(self) -> int: ...

    @property
    def inputs(self) -> tuple[str, ...]: ...

    def facet(self, s: str | int, *, scaled: bool = False) -> np.ndarray: ...

    def _inverse_kernel(self, exact: bool) -> tuple[tuple[Any, Any], tuple[Any, Any]]: ...

    def _forward_kernel(self, exact: bool) -> tuple[tuple[Any, Any], tuple[Any, Any]]: ...

    def _factor(self) -> int: ...


class _Transformed(NamedTuple):
    """The facet values ``W`` of some rows (:func:`transform`) and, in exact mode, the integer
    rows and their denominators they were computed from."""

    W: Any
    Xint: np.ndarray | None
    dens: list[int] | None


class _RowsDecision(NamedTuple):
    """:func:`decide`: the answer for every row, the certificate of the first bad row (None for a
    yes), the facet values ``W`` and, in exact mode, the integer rows and their denominators."""

    member: bool
    certificate: RowCertificate | None
    W: Any
    Xint: np.ndarray | None
    dens: list[int] | None


def transform(rr: KroneckerRR, X: np.ndarray, exact: bool) -> _Transformed:
    """Facet values: ``W[:, j] = x · facet_{s_j}`` (exact: times ``b^k`` and the row denominator)."""
    if not exact:
        return _Transformed(kron_apply(X.astype(float), rr._k, rr._inverse_kernel(False)), None, None)
    Xint, dens = integer_rows(X)
    return _Transformed(exact_kron_apply(Xint, rr._k, rr._inverse_kernel(True)), Xint, dens)


def certificate(
    rr: KroneckerRR,
    W: np.ndarray,
    Xint: np.ndarray | None,
    dens: list[int] | None,
    X: np.ndarray,
    o: int,
    output: str,
    exact: bool,
    atol: float,
) -> RowCertificate:
    if isinstance(W, ModularIntegers):
        neg = W.negative()[o]
        j = int(np.argmin(np.where(neg, W.approx()[o], np.inf)))
    else:
        j = int(np.argmin(W[o]))
    s = format(j, f"0{rr._k}b")
    if exact:
        assert Xint is not None and dens is not None
        normal = rr.facet(s, scaled=True)
        value = Fraction(exact_dot(normal, Xint[o]), dens[o])
        e = np.zeros((1, rr.n_inputs), dtype=np.int64)
        e[0, j] = 1
        valid = verify_kron_identity(normal.reshape(1, -1), rr._k, rr._forward_kernel(True), rr._factor(), e)
        text = f"b^k·facet({s}): " + format_inequality(normal, rr._labels)
    else:
        normal = rr.facet(s).astype(float)
        value = float(normal.dot(X[o].astype(float)))  # type: ignore[assignment]
        back = kron_apply(normal, rr._k, rr._forward_kernel(False))
        valid = bool((back >= -ROUNDOFF).all())
        text = f"facet({s}): " + format_inequality(normal, rr._labels)
    if not (valid and (value < 0 if exact else value < -atol)):
        raise SolverError(f"{rr.name}: the facet certificate for row {output!r} did not verify")
    return RowCertificate(row=o, output=output, normal=normal, value=value, inequality=text, label=s)


def decide(
    rr: KroneckerRR,
    X: np.ndarray,
    exact: bool,
    atol: float,
    outputs: Sequence[str],
    ints: tuple[np.ndarray, list[int]] | None = None,
) -> _RowsDecision:
    """Every row of ``X`` through the Kronecker inverse: the answer, the certificate of the first bad row, and the
    facet values with the integer rows they came from (exact mode) for the witness."""
    Xint: np.ndarray | None
    dens: list[int] | None
    if ints is not None:  # the integer rows are given: X = ints[0][o] / ints[1][o]
        Xint, dens = ints
        W: Any = exact_kron_apply(Xint, rr._k, rr._inverse_kernel(True))
    else:
        W, Xint, dens = transform(rr, X, exact)
    if isinstance(W, ModularIntegers):
        bad = np.nonzero(W.negative().any(axis=1))[0]
    elif exact:
        bad = np.nonzero((W < 0).any(axis=1))[0]
    else:
        bad = np.nonzero((W < -atol).any(axis=1))[0]
    if len(bad):
        o = int(bad[0])
        return _RowsDecision(False, certificate(rr, W, Xint, dens, X, o, outputs[o], exact, atol), W, Xint, dens)
    return _RowsDecision(True, None, W, Xint, dens)


def per_bit_factors(rr: KroneckerRR, M: Mechanism) -> tuple[Mechanism, ...] | None:
    """The ``k`` factors of ``M`` when it is a product of one-bit mechanisms over ``('1', '0')``, else None."""
    F = M.factors
    if F is None or len(F) != rr._k or any(tuple(f.inputs) != ("1", "0") for f in F):
        return None
    return F


def contains_factored(rr: KroneckerRR, M: Mechanism, atol: float) -> Membership:
    """Closure membership of a product ``M' = F_1 ⊗ … ⊗ F_k`` of one-bit mechanisms, from its factors.

    With ``R = [[p, 1−p], [1−p, p]]`` and ``M_rr = ⊗^k R`` (``docs/theory.md`` §5), the mixed-product rule gives
    ``(A_1 ⊗ … ⊗ A_k)(R ⊗ … ⊗ R) = (A_1 R) ⊗ … ⊗ (A_k R)``, so ``A = ⊗_t A_t`` with ``A_t = F_t R^{-1}``
    (``R^{-1} = (2p−1)^{-1} [[p, p−1], [p−1, p]]``, the per-bit factor of the Kronecker inverse of Theorem 4.3)
    satisfies ``A M_rr = M'``; it is the only solution, as ``M_rr`` is invertible. ``M'`` is in the closure iff
    ``A`` is column-stochastic (Lin & Kifer, Theorem 3.4 with one mechanism), i.e. iff every ``A_t ≥ 0``: a
    product of nonnegative factors is nonnegative, and if ``A_t[o_t, j_t] < 0`` the entry of ``A`` that picks
    a positive entry of every other factor (each column of ``A_s`` sums to 1, so has one) is negative. The
    column sums of a Kronecker product are the products of the factors' column sums,
    ``Σ_o Π_t A_t[o_t, j_t] = Π_t Σ_{o_t} A_t[o_t, j_t]``, so ``A`` is column-stochastic when every ``A_t``
    is. Hence verifying ``A_t ≥ 0``, ``1ᵀA_t = 1ᵀ`` and ``A_t R = F_t`` exactly for every factor verifies the
    product witness ``A M_rr = M'`` without any ``2^k``-sized matrix. On "no" the certificate is the row of
    ``M'`` at that negative entry of ``A``, checked against its facet like any row (:func:`decide`).
    """
    factors = per_bit_factors(rr, M)
    assert factors is not None
    R = rr_bit(rr._p).matrix
    c = 2 * Fraction(rr._p) - 1
    Rinv = np.array([[rr._p / c, (rr._p - 1) / c], [(rr._p - 1) / c, rr._p / c]], dtype=object)
    parts = [np.asarray(F.matrix).dot(Rinv) for F in factors]
    bad = next((t for t, A in enumerate(parts) if (A < 0).any()), None)
    if bad is not None:  # a row of M' with a negative coefficient y = x M_rr^{-1}: certify it like any row
        o_t, j_t = (int(v) for v in np.argwhere(parts[bad] < 0)[0])
        digits = []
        for t, A in enumerate(parts):
            digits.append(o_t if t == bad else int(np.argwhere(A > 0)[0][0]))
        o = 0
        for t, F in enumerate(factors):
            o = o * F.n_outputs + digits[t]
        x = np.asarray(M.row(o), dtype=object).reshape(1, -1)
        member, cert, *_ = decide(rr, x, True, atol, [M.outputs[o]])
        if member:  # pragma: no cover - A[o, :] has a negative entry, so row o violates a facet
            raise SolverError(f"{rr.name}: row {M.outputs[o]!r} has a negative coefficient but no violated facet")
        assert cert is not None
        cert = replace(cert, row=o, output=M.outputs[o])
        return Membership(
            member=False,
            method="kronecker-inverse",
            exact=True,
            certificate=cert,
            detail=f"row {cert.output!r} violates the facet of s={cert.label} (Theorem 4.3; "
            f"factor {bad} of the product has a negative post-processing entry)",
        )
    for A, F in zip(parts, factors):
        if not ((A >= 0).all() and all(v == 1 for v in A.sum(axis=0)) and (A.dot(R) == F.matrix).all()):
            raise SolverError(f"{rr.name}: a per-bit Kronecker witness did not verify")  # pragma: no cover
    wit_factors = [Mechanism(A, inputs=("1", "0"), outputs=F.outputs) for A, F in zip(parts, factors)]
    A_all = Mechanism._from_factors(wit_factors, rr.inputs, M.outputs)
    wit = ClosureWitness(components=(0,), weights=(Fraction(1),), post_processings=(A_all,), residual=Fraction(0))
    return Membership(
        member=True,
        method="kronecker-inverse",
        exact=True,
        witness=wit,
        detail="M' = (⊗_t A_t) · M_rr with A_t = F_t R^{-1} ≥ 0 per bit (Theorem 4.3, mixed products)",
    )


def dense_fits(n_rows: int, n_cols: int) -> bool:
    """True when a dense exact ``n_rows x n_cols`` array is within the size limits (read at call time)."""
    try:
        check_dense_size(n_rows, n_cols, exact=True, what="the post-processing witness")
    except SizeLimitError:
        return False
    return True
