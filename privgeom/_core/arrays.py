"""Exact and float arrays: the two modes, tolerances, dense-size checks and conversions.

privgeom never mixes the two modes silently. A value is *exact* when it is an ``int``, a ``Fraction``, a rational
string (``"3/4"``, ``"0.75"``) or a numpy integer; Python/numpy floats are *float*. Exact arrays are numpy ``object``
arrays of ``Fraction``; float arrays are ``float64``. This module holds what arrays of either mode need: the
absolute tolerance of float mode (:data:`ATOL`, :func:`tolerance`) and the round-off level (:data:`ROUNDOFF`), the
dense-size limits checked before allocating (:func:`check_dense_size`), integer parameters (:func:`parse_int`) and
the conversions between the modes. The number kinds themselves (``Scalar``, ``LogRational``), their parsing, text
and JSON live in :mod:`privgeom._core.numbers`.

Examples
--------
>>> to_exact_array([["3/4", 0.5]]).tolist()
[[Fraction(3, 4), Fraction(1, 2)]]
>>> to_float_array([[Fraction(1, 4)]]).tolist(), tolerance(None) == ATOL
([[0.25]], True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence, TypeAlias

import numpy as np

from .errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .hints import limit_hint
from .numbers import memory_text, parse_scalar

__all__ = [
    "VectorLike",
    "MatrixLike",
    "ATOL",
    "ROUNDOFF",
    "tolerance",
    "MAX_DENSE_ENTRIES",
    "MAX_EXACT_ENTRIES",
    "FLOAT_ENTRY_BYTES",
    "EXACT_ENTRY_BYTES",
    "UNREACHABLE_BYTES",
    "parse_int",
    "check_dense_size",
    "readonly",
    "to_exact_array",
    "to_float_array",
]


#: A vector as the package reads one: a 1-D array or a sequence of numbers (``int``, ``Fraction``, rational strings
#: such as ``"3/4"``, ``float``), e.g. a row of a mechanism or a point tested against a cone.
VectorLike: TypeAlias = np.ndarray | Sequence[Fraction | float | int | str]
#: A matrix as the package reads one: a 2-D array or a sequence of rows of numbers (as :data:`VectorLike`), e.g. a
#: mechanism's matrix or a cone's generators or facets.
MatrixLike: TypeAlias = np.ndarray | Sequence[Sequence[Fraction | float | int | str]]

#: Default absolute tolerance of float mode (column sums, signs, cone membership).
ATOL = 1e-9


def tolerance(atol: float | None, default: float = ATOL) -> float:
    """The absolute tolerance of a float-mode call: ``atol`` when given, else ``default`` (the tolerance of the
    object the call is about, :data:`ATOL` unless it was built with another).

    The one convention of privgeom: a constructor stores ``atol`` (default :data:`ATOL`); every call on or about
    objects takes ``atol=None``, meaning "the object's own tolerance", or a number to override it. Tolerances are
    absolute; exact (Fraction) inputs ignore them. The only relative tolerance is the ``rtol`` of a search that
    stops when no candidate can improve its best value by more than that fraction (``smoothed_delta``).

    Examples
    --------
    >>> tolerance(None), tolerance(1e-6), tolerance(None, default=1e-3)
    (1e-09, 1e-06, 0.001)
    >>> tolerance(-1.0)
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidParameterError: atol must be a finite number >= 0, got atol=-1.0
    """
    if atol is None:
        return float(default)
    if isinstance(atol, (bool, np.bool_)) or not isinstance(atol, (int, float, np.floating, np.integer)):
        raise InvalidTypeError(f"atol must be a number >= 0, got {atol!r:.60} ({type(atol).__name__})")
    if not math.isfinite(float(atol)) or atol < 0:
        raise InvalidParameterError(f"atol must be a finite number >= 0, got atol={atol!r}")
    return float(atol)


#: Float round-off: a float quantity that is zero in exact arithmetic is treated as zero below this magnitude
#: (LP weights, envelope comparisons); much smaller than :data:`ATOL`, which judges the user's data.
ROUNDOFF = 1e-12
#: Largest dense float array privgeom will allocate (2**26 float64 entries = 512 MiB).
MAX_DENSE_ENTRIES = 2**26
#: Largest dense exact (Fraction) array privgeom will allocate (a Fraction costs about 100 bytes or more).
MAX_EXACT_ENTRIES = 2**22
#: The reader of the size limit in force (``name -> value``): :func:`privgeom._core.limits.current_limit`, put here
#: by that module when it is imported (it imports this one, which therefore cannot import it; the package imports it
#: first).
LIMIT_READER: list[Callable[[str], int]] = []
#: Bytes per entry of a dense float64 array and (a low estimate) of an exact array of Fractions, for the memory
#: estimates of size refusals.
FLOAT_ENTRY_BYTES = 8
EXACT_ENTRY_BYTES = 100
#: A size refusal whose estimated memory exceeds this many bytes (1 PiB) does not suggest raising the limit: it
#: says the memory instead (no machine holds it).
UNREACHABLE_BYTES = 2**50


def parse_int(
    value: Any,
    *,
    name: str = "value",
    min: int | None = None,
    max: int | None = None,
    what: str = "",
    allow_str: bool = False,
) -> int:
    """Validate one integer parameter (a size, a count, an index): THE integer validator of privgeom.

    Accepts Python and numpy integers, and with ``allow_str=True`` integer strings (``"12"``, from the CLI and
    spec strings); refuses booleans, floats (even ``3.0``: a size is never silently rounded) and anything else.

    Parameters
    ----------
    value : int, numpy integer or str
    name : str
        Name of the parameter in messages.
    min, max : int, optional
        Inclusive bounds. Exceeding ``max`` raises :class:`SizeLimitError` (a size the caller refuses to work on);
        going below ``min`` raises :class:`InvalidParameterError`.
    what : str
        What ``max`` protects, for the message (e.g. ``"datasets privgeom enumerates"``).

    Raises
    ------
    InvalidTypeError
        Booleans, floats, None and non-numbers.
    InvalidParameterError
        Non-integer strings, values below ``min``.
    SizeLimitError
        Values above ``max``.

    Examples
    --------
    >>> parse_int("12", name="n", min=1, allow_str=True), parse_int(np.int64(3), name="k")
    (12, 3)
    >>> parse_int(0, name="n", min=1)
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidParameterError: n must be >= 1, got 0
    """
    if isinstance(value, (bool, np.bool_)) or value is None:
        raise InvalidTypeError(f"{name} must be an integer, got {value!r}")
    if isinstance(value, str) and allow_str:
        text = value.strip()
        try:
            out = int(text, 10)
        except ValueError:
            raise InvalidParameterError(f"{name} = {value!r} is not an integer") from None
    elif isinstance(value, (int, np.integer)):
        out = int(value)
    else:
        raise InvalidTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if min is not None and out < min:
        raise InvalidParameterError(f"{name} must be >= {min}, got {out}")
    if max is not None and out > max:
        raise SizeLimitError(
            f"{name} = {out} is more than {max}" + (f", the most {what}" if what else "") + "; refused"
        )
    return out


def check_dense_size(n_rows: int, n_cols: int, *, exact: bool, what: str) -> None:
    """Refuse to allocate an ``n_rows x n_cols`` dense array that would exhaust memory.

    The limits are the global size limits ``exact_entries`` and ``dense_entries`` (:func:`privgeom.get_limits`,
    raised with :func:`privgeom.set_limits` or :func:`privgeom.limits`), read at call time. The message names the
    sizes, the memory they would need and the limit; beyond :data:`UNREACHABLE_BYTES` it says the memory instead of
    suggesting to raise the limit.

    Raises
    ------
    SizeLimitError
        When the array has more than ``MAX_EXACT_ENTRIES`` (exact) or ``MAX_DENSE_ENTRIES`` (float) entries.

    Examples
    --------
    >>> check_dense_size(4, 4, exact=True, what="toy")
    >>> check_dense_size(8001, 8001, exact=True, what="krr(n=8000)")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: krr(n=8000) would need a dense 8001 x 8001 exact array (64,016,001 entries, about 6.0 GiB; limit 4,194,304 entries); refused before allocating — raise it with pg.set_limits(exact_entries=64016001) or `with pg.limits(exact_entries=64016001):`
    """
    limit = LIMIT_READER[0]("exact_entries" if exact else "dense_entries")
    entries = int(n_rows) * int(n_cols)
    if entries > limit:
        mode = "exact" if exact else "float"
        n_bytes = entries * (EXACT_ENTRY_BYTES if exact else FLOAT_ENTRY_BYTES)
        head = (
            f"{what} would need a dense {n_rows} x {n_cols} {mode} array ({entries:,} entries, "
            f"about {memory_text(n_bytes)}; limit {limit:,} entries); refused before allocating"
        )
        if n_bytes > UNREACHABLE_BYTES:
            raise SizeLimitError(f"{head} — no computer's memory holds it; use a structured method instead")
        raise SizeLimitError(f"{head} — {limit_hint('exact_entries' if exact else 'dense_entries', entries)}")


def readonly(array: np.ndarray) -> np.ndarray:
    """Return ``array`` with its write flag cleared (a view; no copy)."""
    view = array.view()
    view.flags.writeable = False
    return view


def to_exact_array(values: Any, *, name: str = "array") -> np.ndarray:
    """Convert a nested sequence or array to a numpy object array of Fractions (floats converted bit-exactly)."""
    arr = np.asarray(values, dtype=object)
    flat = [parse_scalar(v, name=name, exact=True) for v in arr.ravel()]
    out = np.empty(arr.shape, dtype=object)
    out.ravel()[:] = flat if flat else []
    return out


def to_float_array(values: Any) -> np.ndarray:
    """Convert a nested sequence or array (Fractions allowed) to float64."""
    arr = np.asarray(values)
    if arr.dtype == object:
        return np.vectorize(float, otypes=[float])(arr) if arr.size else arr.astype(float)
    return arr.astype(float)


def _as_fraction_list(values: Iterable[Any]) -> list[Fraction]:
    return [parse_scalar(v, exact=True) for v in values]  # type: ignore[misc]
