"""Exact mechanisms as integers: :class:`IntColumns`, numerators over one common denominator per column.

An exact :class:`~privgeom.Mechanism` stores ``M[ω, i] = num[ω, i] / den[i]`` with ``den[i] > 0`` a common
denominator of column ``i`` (usually the least one; equality compares by cross-multiplication), in numpy
``int64`` when every number fits and as object arrays of Python integers otherwise — never wrapping around. The
exact kernels (ε, δ(ε), DP membership) compare and sum these integers by cross-multiplication; ``Fraction`` objects
appear only at the API's edges (:attr:`Mechanism.matrix`, reading one entry, printing). ``docs/theory.md`` §7 gives
the row conditions they decide.

:class:`IntColumns` is the type of the public :attr:`~privgeom.Mechanism.int_columns` (users receive it, never build
it; code that annotates with it imports it from this module).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._core.arrays import readonly
from .._core.columns import fit_int_array, int_columns_to_float, int_columns_to_fractions, max_abs_int

__all__ = ["IntColumns", "canonical_int_columns", "kron_int_columns"]


@dataclass(frozen=True)
class IntColumns:
    """An exact column-stochastic matrix as integers: ``M[ω, i] = numerators[ω, i] / denominators[i]``.

    Returned by :attr:`privgeom.Mechanism.int_columns` (immutable; not built by hand). Use it to compute with an
    exact mechanism as integers without building ``Fraction`` objects, e.g. ``M[ω, D] ≤ t M[ω, D']`` as
    ``num[ω, D] · den[D'] ≤ t · num[ω, D'] · den[D]``.

    Attributes
    ----------
    numerators : numpy.ndarray
        2-D (outputs × inputs), read-only; ``int64`` when every entry fits, else an object array of Python ints.
    denominators : numpy.ndarray
        1-D (inputs), read-only, positive; a common denominator of its column (so
        ``numerators[:, i].sum() == denominators[i]`` for a mechanism): the least one for mechanisms built from
        entries, operations and most factories; :func:`~privgeom.truncated_geometric` keeps its one denominator
        ``(a+b) b^n`` for every column. Same dtype rule.

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> C = randomized_response(2, "3/4").int_columns
    >>> C.numerators[0].tolist(), C.denominators.tolist(), C.is_int64
    ([9, 3, 3, 1], [16, 16, 16, 16], True)
    >>> C.entry(0, 1)
    Fraction(3, 16)
    >>> isinstance(C, IntColumns), bool((C.fractions() == randomized_response(2, "3/4").matrix).all())
    (True, True)
    """

    numerators: np.ndarray
    denominators: np.ndarray

    @property
    def is_int64(self) -> bool:
        """True when both arrays are ``int64`` (else Python integers)."""
        return self.numerators.dtype != object and self.denominators.dtype != object

    @property
    def shape(self) -> tuple[int, int]:
        """``(outputs, inputs)``."""
        return self.numerators.shape

    def max_numerator(self) -> int:
        """The largest numerator (a Python int)."""
        return max_abs_int(self.numerators)

    def max_denominator(self) -> int:
        """The largest denominator (a Python int)."""
        return max_abs_int(self.denominators)

    def entry(self, row: int, col: int) -> Fraction:
        """One entry as a Fraction."""
        return Fraction(int(self.numerators[row, col]), int(self.denominators[col]))

    def fractions(self) -> np.ndarray:
        """The matrix as an object array of Fractions (a new array)."""
        return int_columns_to_fractions(self.numerators, self.denominators)

    def floats(self) -> np.ndarray:
        """The matrix as float64, correctly rounded (a new array)."""
        return int_columns_to_float(self.numerators, self.denominators)


def canonical_int_columns(num: np.ndarray, den: np.ndarray) -> IntColumns:
    """The unique :class:`IntColumns` of ``num[:, i] / den[i]`` (``den > 0``): divide each column by
    ``gcd(den[i], num[:, i])``, store ``int64`` when it fits."""
    num, den = np.asarray(num), np.asarray(den)
    if num.dtype != object and den.dtype != object:
        num, den = num.astype(np.int64, copy=False), den.astype(np.int64, copy=False)
    g = np.gcd(np.gcd.reduce(num, axis=0), den) if num.shape[0] else den
    g = np.where(g == 0, 1, g)
    return IntColumns(readonly(fit_int_array(num // g)), readonly(fit_int_array(den // g)))


def kron_int_columns(a: IntColumns, b: IntColumns) -> IntColumns:
    """The Kronecker product of two integer matrices: numerators and denominators multiply (``int64`` only when the
    products are bounded below ``2**63``, checked from the largest entries)."""
    from .._core.columns import fits_int64, widen

    an, ad, bn, bd = a.numerators, a.denominators, b.numerators, b.denominators
    if not (fits_int64(max_abs_int(an), max_abs_int(bn)) and fits_int64(max_abs_int(ad), max_abs_int(bd))):
        an, ad, bn, bd = widen(an, ad, bn, bd)
    return canonical_int_columns(np.kron(an, bn), np.kron(ad, bd))
