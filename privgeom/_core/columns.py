"""Columns of mechanisms, the kernels below every layer: exact columns as integers over one denominator each, and
the hockey-stick divergence of two columns behind every δ(ε) of the package.

- Integer columns: numerators over one denominator per column, ``int64`` when every intermediate fits (checked from
  bounds before computing), Python integers otherwise, never wrapping around. Exact mechanisms hold their matrix
  this way (``IntColumns``); :func:`int_columns` converts a Fraction array, :func:`int_columns_to_fractions` and
  :func:`int_columns_to_float` convert back.
- The hockey-stick kernel, on Fractions or floats (:func:`hockey_stick_columns`) and on integer columns over common
  denominators (:func:`hockey_stick_int`): for a finite output space the worst event of the pair
  ``(A[:, c], B[:, c])`` is ``S = {ω : A[ω, c] > t B[ω, c]}`` and the value is ``A(S) − t B(S)`` (Barthe & Olmedo
  2013; Balle, Barthe & Gaboardi 2018, Def. 2 and Thm. 1).

Examples
--------
>>> from fractions import Fraction
>>> A = np.array([[Fraction(3, 4)], [Fraction(1, 4)]], dtype=object)
>>> B = np.array([[Fraction(1, 4)], [Fraction(3, 4)]], dtype=object)
>>> num, den = int_columns(A)
>>> num.tolist(), den.tolist(), hockey_stick_columns(A, B, Fraction(2)).tolist()
([[3], [1]], [4], [Fraction(1, 4)])
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .numbers import LogRational

__all__ = [
    "INT64_MAX",
    "max_abs_int",
    "fits_int64",
    "fit_int_array",
    "widen",
    "int_columns",
    "int_columns_to_fractions",
    "int_columns_to_float",
    "int_columns_log",
    "hockey_stick_columns",
    "hockey_stick_int",
]


# ---------------------------------------------------------------------------------------------------- exact integers
#: Largest magnitude an ``int64`` holds; integer kernels keep every intermediate at or below it (checked from bounds
#: before computing) and otherwise compute on Python integers (object arrays), never wrapping around.
INT64_MAX = 2**63 - 1

_numerator = np.frompyfunc(lambda v: v.numerator, 1, 1)
_denominator = np.frompyfunc(lambda v: v.denominator, 1, 1)
_int_div = np.frompyfunc(lambda a, b: a / b, 2, 1)  # Python int / int: correctly rounded, no overflow for big ints


def max_abs_int(array: np.ndarray) -> int:
    """The largest ``|v|`` of an integer array (int64 or object array of Python ints) as a Python int (0 if empty).

    Examples
    --------
    >>> max_abs_int(np.array([3, -7])), max_abs_int(np.array([2**70, -1], dtype=object)) == 2**70
    (7, True)
    """
    if array.size == 0:
        return 0
    if array.dtype == object:
        return int(max(abs(int(array.max())), abs(int(array.min()))))
    return max(abs(int(array.max())), abs(int(array.min())))


def fits_int64(*bounds: int) -> bool:
    """True when the product of the non-negative ``bounds`` is at most :data:`INT64_MAX` (checked in Python ints).

    Examples
    --------
    >>> fits_int64(2**31, 2**31), fits_int64(2**32, 2**31)
    (True, False)
    """
    prod = 1
    for b in bounds:
        prod *= int(b)
    return prod <= INT64_MAX


def fit_int_array(array: np.ndarray) -> np.ndarray:
    """An integer array as ``int64`` when every entry fits, else as an object array of Python ints.

    Examples
    --------
    >>> fit_int_array(np.array([1, 2], dtype=object)).dtype, fit_int_array(np.array([2**64], dtype=object)).dtype
    (dtype('int64'), dtype('O'))
    """
    if array.dtype == object:
        return array.astype(np.int64) if max_abs_int(array) <= INT64_MAX else array
    return array.astype(np.int64, copy=False)


def widen(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays as object arrays of Python ints (exact arithmetic of any size)."""
    return tuple(a if a.dtype == object else a.astype(object) for a in arrays)


def int_columns(F: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(num, den)`` with ``F[:, c] = num[:, c] / den[c]`` and ``den[c] > 0`` the least common denominator of column
    ``c`` (so the form is unique: two exact matrices are equal iff their ``num`` and ``den`` are).

    ``F`` is a 2-D array of Fractions or ints. Computed on the global least common multiple ``L`` of the
    denominators and reduced per column by ``g = gcd(L, num[:, c])``: the column's least common denominator is
    ``L / g``. ``int64`` when the numbers fit, object arrays of Python ints otherwise.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> num, den = int_columns(np.array([[F(3, 4), F(1, 3)], [F(1, 4), F(2, 3)]], dtype=object))
    >>> num.tolist(), den.tolist(), num.dtype
    ([[3, 1], [1, 2]], [4, 3], dtype('int64'))
    """
    F = np.asarray(F, dtype=object)
    if F.ndim == 1:
        F = F[:, None]
    n, d = _numerator(F), _denominator(F)
    L = math.lcm(*set(d.ravel().tolist())) if d.size else 1
    if fits_int64(L, 1 + max_abs_int(n)):
        A = n.astype(np.int64) * (L // d.astype(np.int64))
        g = np.gcd(np.gcd.reduce(A, axis=0), L) if A.shape[0] else np.full(A.shape[1], L, dtype=np.int64)
    else:
        A = n * (L // d)
        g = np.gcd(np.gcd.reduce(A, axis=0), L) if A.shape[0] else np.full(A.shape[1], L, dtype=object)
    g = np.where(g == 0, L, g)
    return fit_int_array(A // g), fit_int_array(L // g)


def int_columns_to_fractions(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """The object array of Fractions ``num[:, c] / den[c]`` (the inverse of :func:`int_columns`)."""
    nums = num.ravel().tolist()  # Python ints (tolist converts int64 at C speed)
    dens = np.broadcast_to(den, num.shape).ravel().tolist()
    out = np.empty(num.size, dtype=object)
    out[:] = list(map(Fraction, nums, dens))
    return out.reshape(num.shape)


def int_columns_to_float(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num[:, c] / den[c]`` as float64, correctly rounded (as ``float(Fraction)``): one IEEE division when both
    integers are exact in float64 (below ``2**53``), Python's exact ``int / int`` otherwise.

    Examples
    --------
    >>> int_columns_to_float(np.array([[1], [2]]), np.array([3])).tolist()
    [[0.3333333333333333], [0.6666666666666666]]
    """
    if num.dtype != object and den.dtype != object and max(max_abs_int(num), max_abs_int(den)) < 2**53:
        return num.astype(float) / den.astype(float)
    return np.asarray(_int_div(*widen(num, np.broadcast_to(den, num.shape))), dtype=float).reshape(num.shape)


def int_columns_log(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``ln(num[:, c] / den[c])`` as float64 (0 where ``num`` is 0), from the logs of the integers, so numbers
    beyond the float range neither overflow nor underflow (relative error ~1e-16 of ``ln num`` and ``ln den``)."""
    if num.dtype != object and den.dtype != object:
        return np.log(np.where(num == 0, 1, num).astype(float)) - np.log(den.astype(float))
    lg = np.frompyfunc(lambda v: math.log(v) if v else 0.0, 1, 1)
    return (np.asarray(lg(num), dtype=float) - np.asarray(lg(den), dtype=float)).reshape(num.shape)


def hockey_stick_columns(A: Any, B: Any, exp_eps: Any, *, events: bool = False) -> Any:
    """The one hockey-stick kernel: ``Σ_ω (A[ω, c] − t B[ω, c])₊`` for every column ``c`` at once, ``t = e^ε``.

    Every δ(ε) of the package goes through this function (:func:`~privgeom.analyses.delta`,
    :func:`~privgeom.analyses.profiles._hockey_stick.hockey_stick`, the (ε, δ)-DP membership test and the database-wise δ of smoothed DP;
    it lives here, below every layer, so that each of them imports it downwards): for a finite output space the
    worst event of the pair ``(A[:, c], B[:, c])`` is ``S = {ω : A[ω, c] > t B[ω, c]}`` and the value is ``A(S) − t B(S)`` (Barthe & Olmedo
    2013; Balle, Barthe & Gaboardi 2018, Def. 2 and Thm. 1). No validation: callers pass columns of a mechanism.

    Parameters
    ----------
    A, B : 2-D arrays of the same shape (outputs × pairs)
        Object arrays of Fractions give exact values when ``exp_eps`` is a Fraction (computed on integers by
        :func:`hockey_stick_int`); anything else is computed in float64 (vectorised).
    exp_eps : Fraction, int or float
        ``t >= 0``; ``math.inf`` (float mode) gives ``Σ_ω A[ω, c] [B[ω, c] = 0]``.
    events : bool
        Also return the boolean mask of the worst events (``outputs × pairs``).

    Returns
    -------
    numpy.ndarray or (numpy.ndarray, numpy.ndarray)
        One value per column (object array of Fractions in exact mode, float64 otherwise) and, with
        ``events=True``, the mask.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> A = np.array([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], dtype=object)
    >>> hockey_stick_columns(A, A[:, ::-1], F(2)).tolist()
    [Fraction(1, 4), Fraction(1, 4)]
    >>> vals, mask = hockey_stick_columns(A.astype(float), A[:, ::-1].astype(float), 1.0, events=True)
    >>> vals.tolist(), mask[:, 0].tolist()
    ([0.5, 0.5], [True, False])
    """
    A, B = np.asarray(A), np.asarray(B)
    if A.ndim == 1:
        A, B = A[:, None], B[:, None]
    if isinstance(exp_eps, LogRational):
        exp_eps = exp_eps.ratio
    exact = A.dtype == object and B.dtype == object and isinstance(exp_eps, (Fraction, int))
    if exact:
        t = Fraction(exp_eps)
        An, Ad = int_columns(A)
        Bn, Bd = int_columns(B)
        values, mask = hockey_stick_int(An, Ad, Bn, Bd, t.numerator, t.denominator, events=True)
    else:
        Af = A.astype(float) if A.dtype != float else A
        Bf = B.astype(float) if B.dtype != float else B
        tf = float(exp_eps)
        if math.isinf(tf):
            mask = (Bf == 0) & (Af > 0)
            values = np.where(mask, Af, 0.0).sum(axis=0)
        else:
            diff = Af - tf * Bf
            mask = diff > 0
            values = np.where(mask, diff, 0.0).sum(axis=0)
    return (values, mask) if events else values


def hockey_stick_int(
    An: np.ndarray, Ad: np.ndarray, Bn: np.ndarray, Bd: np.ndarray, p: int, q: int, *, events: bool = False
) -> Any:
    """Exact hockey-stick sums on common denominators: the integer core of :func:`hockey_stick_columns`.

    Column ``c`` of ``A`` is ``An[:, c] / Ad[c]``, of ``B`` likewise, ``t = p / q`` (``p >= 0``, ``q > 0``). With the
    common denominator ``q Ad[c] Bd[c]`` every term of ``Σ_ω (A[ω, c] − t B[ω, c])₊`` is the integer
    ``D[ω, c] = q Bd[c] An[ω, c] − p Ad[c] Bn[ω, c]`` over it (Balle, Barthe & Gaboardi 2018, Thm. 1, the worst event
    being ``{ω : D[ω, c] > 0}``). ``int64`` when the bound ``rows · (|q Bd An| + |p Ad Bn|)`` fits, Python
    integers otherwise. Returns Fractions (object array), and the event mask with ``events=True``.

    Examples
    --------
    >>> An = np.array([[3], [1]]); Bn = np.array([[1], [3]]); d = np.array([4])
    >>> hockey_stick_int(An, d, Bn, d, 2, 1).tolist()
    [Fraction(1, 4)]
    """
    rows = max(1, An.shape[0])
    big = not fits_int64(rows, q * max_abs_int(Bd) * max_abs_int(An) + p * max_abs_int(Ad) * max_abs_int(Bn) + 1)
    if big or any(a.dtype == object for a in (An, Ad, Bn, Bd)):
        if big:
            An, Ad, Bn, Bd = widen(An, Ad, Bn, Bd)
        else:
            An, Ad, Bn, Bd = (a.astype(np.int64) for a in (An, Ad, Bn, Bd))
    D = An * (Bd * q) - Bn * (Ad * p)
    mask = D > 0
    sums = np.where(mask, D, 0).sum(axis=0)
    dens = Ad * Bd * q
    values = np.empty(D.shape[1], dtype=object)
    values[:] = [Fraction(int(s), int(d)) for s, d in zip(sums, dens)]
    return (values, np.asarray(mask, dtype=bool)) if events else values
