"""Factories for standard mechanisms.

Randomized response follows Lin & Kifer (Theorem 4.3; ``docs/theory.md`` §5): each of ``k`` bits is reported
truthfully with probability ``p`` and flipped with probability ``1-p``; datasets and outputs are bit strings in
*reverse lexicographic* order (``11, 10, 01, 00`` for ``k = 2``), so ``M_rr = ⊗^k [[p, 1-p], [1-p, p]]``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .._core.domain import Domain
from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.arrays import check_dense_size, parse_int
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar, Scalar
from ._mechanism import Mechanism
from .._core.level import ScalarLike

__all__ = ["randomized_response", "rr_parameter", "bit_strings", "rr_base_matrix", "check_k"]

#: Largest number of bits for which privgeom enumerates the ``2**k`` datasets at the default ``domain_size`` limit
#: (:func:`check_k` follows the current limit).
MAX_BITS = 26


def check_k(k: Any, *, limit: int | None = None, name: str = "k") -> int:
    """Validate a number of bits ``k`` (a positive int with ``2^k`` within the ``domain_size`` size limit, or at most
    ``limit`` bits when given)."""
    from .._core import domain as _domain

    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be a positive integer, got {k!r}")
    k = parse_int(k, name=name, min=1)
    cap = _domain.max_bits() if limit is None else limit
    if k > cap:
        hint = f"; {limit_hint('domain_size', 1 << k)}" if limit is None and k < 64 else ""
        raise SizeLimitError(
            f"{name} = {k} bits means 2^{k} datasets, more than privgeom enumerates (limit {cap} bits){hint}"
        )
    return k


def rr_parameter(p: ScalarLike, *, exact: bool | None = None) -> Scalar:
    """Validate the randomized-response parameter ``p ∈ (1/2, 1]`` (Lin & Kifer, §IV: ``p > 1/2``)."""
    value = parse_scalar(p, name="p", exact=exact)
    if not (Fraction(1, 2) < value <= 1) if isinstance(value, Fraction) else not (0.5 < value <= 1.0):
        raise InvalidParameterError(f"randomized response needs p in (1/2, 1], got p = {value}")
    return value


def bit_strings(k: int) -> list[str]:
    """The ``2**k`` bit strings of length ``k`` in reverse lexicographic order (``'1…1'`` first, ``'0…0'`` last).

    Examples
    --------
    >>> bit_strings(2)
    ['11', '10', '01', '00']
    """
    return list(Domain.bits(check_k(k)).labels)


def rr_base_matrix(p: Scalar) -> np.ndarray:
    """The one-bit matrix ``[[p, 1-p], [1-p, p]]`` (rows/columns ordered ``1, 0``)."""
    if isinstance(p, Fraction):
        return np.array([[p, 1 - p], [1 - p, p]], dtype=object)
    return np.array([[p, 1 - p], [1 - p, p]], dtype=float)


def randomized_response(k: int, p: ScalarLike, *, exact: bool | None = None) -> Mechanism:
    """Randomized response on ``k`` bits with truth probability ``p`` (Lin & Kifer, Theorem 4.3).

    Parameters
    ----------
    k : int
        Number of bits; the mechanism is ``2**k x 2**k``. An exact one is kept factored (:attr:`Mechanism.factors`:
        ``k`` one-bit mechanisms) and builds its dense matrix only when asked for it (refused beyond the dense size
        limits), so ``k = 12..20`` works for rows, ε and δ over the Hamming graph. A float one is refused when its
        dense matrix would exhaust memory.
    p : rational or float in (1/2, 1]
        Probability of reporting each bit truthfully. ``"3/4"`` or ``Fraction(3, 4)`` give an exact mechanism.
    exact : bool, optional
        Force exact or float mode; default: exact iff ``p`` is rational.

    Examples
    --------
    >>> M = randomized_response(2, "3/4")
    >>> M.inputs
    ('11', '10', '01', '00')
    >>> [str(v) for v in M.row("11")]
    ['9/16', '3/16', '3/16', '1/16']
    """
    k = check_k(k)
    pv = rr_parameter(p, exact=exact)
    is_exact = isinstance(pv, Fraction)
    n = 1 << k
    if not is_exact:
        check_dense_size(n, n, exact=False, what=f"randomized_response(k={k})")
    bit = rr_bit(pv)
    domain = Domain.bits(k)
    if k == 1:
        return Mechanism(bit, inputs=domain, outputs=domain.labels)
    M = Mechanism._from_factors([bit] * k, domain, domain.labels)
    return M


def rr_bit(p: Scalar) -> Mechanism:
    """The one-bit randomized response ``[[p, 1-p], [1-p, p]]`` on ``('1', '0')`` (exact straight from the integers
    ``p = a/b``: numerators ``[[a, b-a], [b-a, a]]`` over ``b``).

    Examples
    --------
    >>> rr_bit(Fraction(3, 4)).int_columns.numerators.tolist()
    [[3, 1], [1, 3]]
    """
    if isinstance(p, Fraction):
        a, b = p.numerator, p.denominator
        num = np.array([[a, b - a], [b - a, a]], dtype=object)
        return Mechanism._from_ints(num, np.array([b, b], dtype=object), ("1", "0"), ("1", "0"))
    return Mechanism(rr_base_matrix(p), ("1", "0"), ("1", "0"), exact=False)
