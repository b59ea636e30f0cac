"""Checks and parsing of what a :class:`~privgeom.Mechanism` is built from: matrix entries, labels, tolerance, JSON.

The constructor of :class:`~privgeom.mechanisms._mechanism.Mechanism` reads the user's matrix with :func:`parse_matrix`
and validates it with :func:`validated_ints` (exact: integers over column denominators) or :func:`validated_floats`;
:meth:`~privgeom.Mechanism.from_json` checks a document with :func:`check_json_document` against
:data:`JSON_SCHEMA`. Column-stochastic means ``M[ω, i] >= 0`` and ``Σ_ω M[ω, i] = 1`` (``docs/theory.md`` §1).

Examples
--------
>>> parse_matrix([["3/4", "1/4"], ["1/4", "3/4"]], None).exact
True
>>> check_labels(None, 2, "input", "d")
('d0', 'd1')
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from .._core.errors import FormatError, InvalidMechanismError, InvalidParameterError, InvalidTypeError
from .._core.io import json_document
from .._core.arrays import check_dense_size, readonly, to_exact_array
from .._core.columns import fits_int64, max_abs_int
from .._core.numbers import is_exact_scalar, parse_scalar
from .._core.numbers import number_text
from ._intmat import IntColumns

__all__ = [
    "JSON_SCHEMA",
    "JSON_VERSIONS",
    "ParsedMatrix",
    "parse_matrix",
    "check_labels",
    "check_atol",
    "validated_ints",
    "validated_floats",
    "as_fraction_array",
    "check_json_document",
]

#: Versions of the mechanism JSON format this release reads (a file without ``"version"`` is read as version 1).
JSON_VERSIONS: tuple[int, ...] = (1,)

#: The documented JSON schema of a saved mechanism (see :meth:`~privgeom.Mechanism.to_json`).
JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["matrix"],
    "properties": {
        "privgeom": {"const": "mechanism"},
        "version": {"const": 1},
        "exact": {"type": "boolean", "description": "true: entries are rational strings such as '3/4'"},
        "inputs": {"type": "array", "items": {"type": "string"}, "description": "dataset labels (columns)"},
        "outputs": {"type": "array", "items": {"type": "string"}, "description": "output labels (rows)"},
        "matrix": {
            "type": "array",
            "items": {"type": "array", "items": {"type": ["string", "number"]}},
            "description": "rows = outputs, columns = inputs; every column sums to 1",
        },
    },
}


class ParsedMatrix(NamedTuple):
    """A matrix read by :func:`parse_matrix`, not yet validated: ``entries`` (Fractions/ints when ``exact``, else
    float64), ``ints`` (set when an integer array was given: numerators over the denominator 1), ``exact`` and
    ``shape`` (outputs, inputs)."""

    entries: np.ndarray
    ints: IntColumns | None
    exact: bool
    shape: tuple[int, int]


def check_labels(labels: Iterable[Any] | None, n: int, kind: str, default_prefix: str) -> tuple[str, ...]:
    """``n`` unique ``kind`` labels as strings (``default_prefix`` + index when ``labels`` is None)."""
    if labels is None:
        return tuple(f"{default_prefix}{i}" for i in range(n))
    if isinstance(labels, (str, bytes)):
        raise InvalidMechanismError(f"{kind} labels must be a sequence of labels, got the single string {labels!r}")
    out = tuple(str(x) for x in labels)
    if len(out) != n:
        raise InvalidMechanismError(f"{len(out)} {kind} labels given for a matrix with {n} {kind}s: {list(out)[:8]}")
    if len(set(out)) != n:
        dup = sorted({x for x in out if out.count(x) > 1})
        raise InvalidMechanismError(f"{kind} labels must be unique; repeated: {dup[:8]}")
    return out


def as_rows(matrix: Any) -> list[list[Any]]:
    """Turn the user's matrix into a list of rows, rejecting ragged or non-2-D input with a clear message."""
    if isinstance(matrix, np.ndarray):
        if matrix.ndim != 2:
            raise InvalidMechanismError(f"a mechanism matrix must be 2-D, got an array of shape {matrix.shape}")
        if matrix.dtype.kind not in "biufO":
            raise InvalidTypeError(f"a mechanism matrix must hold numbers, got dtype {matrix.dtype}")
        return [list(row) for row in matrix]
    if isinstance(matrix, (str, bytes)) or not isinstance(matrix, Sequence):
        raise InvalidTypeError(f"a mechanism matrix must be a 2-D list or array, got {type(matrix).__name__}")
    rows = []
    for i, row in enumerate(matrix):
        if isinstance(row, np.ndarray):
            row = list(row)
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise InvalidMechanismError(f"row {i} of the matrix is {row!r}, not a sequence of numbers")
        rows.append(list(row))
    if not rows:
        raise InvalidMechanismError("a mechanism needs at least one output row")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise InvalidMechanismError(f"ragged matrix: rows have lengths {sorted(widths)}")
    if 0 in widths:
        raise InvalidMechanismError("a mechanism needs at least one input column")
    return rows


def parse_matrix(matrix: Any, exact: bool | None) -> ParsedMatrix:
    """Read a matrix given as a 2-D list or numpy array (not a Mechanism) into its entries: an integer numpy
    array keeps integers (``ints``), otherwise rows of ints, Fractions, rational strings or floats are checked and
    converted (Fractions when ``exact``, float64 otherwise; ``exact=None``: exact when every entry is rational).
    Sizes are refused before allocating; nothing is checked for being column-stochastic yet."""
    ints: IntColumns | None = None
    if isinstance(matrix, np.ndarray) and matrix.ndim == 2 and matrix.dtype.kind in "iuf":
        n_out, n_in = matrix.shape
        if n_out == 0 or n_in == 0:
            raise InvalidMechanismError(f"a mechanism matrix cannot be empty, got shape {matrix.shape}")
        if exact is None:
            exact = matrix.dtype.kind in "iu"
        check_dense_size(n_out, n_in, exact=bool(exact), what="this mechanism")
        if exact and matrix.dtype.kind in "iu":  # integers: numerators over the denominator 1, no Fractions
            ints = IntColumns(
                matrix.astype(object if matrix.dtype == np.uint64 else np.int64), np.ones(n_in, dtype=np.int64)
            )
            arr = matrix
        else:
            try:
                arr = to_exact_array(matrix, name="matrix entry") if exact else matrix.astype(float, copy=True)
            except InvalidParameterError as err:  # NaN/inf cannot be made exact
                raise InvalidMechanismError(str(err)) from None
    else:
        rows = as_rows(matrix)
        n_out, n_in = len(rows), len(rows[0])
        check_dense_size(n_out, n_in, exact=exact is not False, what="this mechanism")
        flat = [v for row in rows for v in row]
        kinds = set(map(type, flat))  # one C-speed pass: plain floats (a loaded JSON file) skip the checks below
        if kinds == {float} and exact is not True:
            exact = False
            arr = np.array(flat, dtype=float).reshape(n_out, n_in)
            if not np.isfinite(arr).all():
                bad = np.argwhere(~np.isfinite(arr))[0]
                raise InvalidMechanismError(f"matrix entry = {float(arr[bad[0], bad[1]])!r} is not finite")
        else:
            exact, arr = _parsed_entries(flat, rows, exact)
    return ParsedMatrix(arr, ints, bool(exact), (n_out, n_in))


def _parsed_entries(flat: list[Any], rows: list[list[Any]], exact: bool | None) -> tuple[bool, np.ndarray]:
    """Entries of any Python kinds checked one by one (numbers only; strings must be rationals like ``'3/4'``), then
    stored exactly (every entry exact, or ``exact=True``) or as floats."""
    for v in flat:
        if isinstance(v, (bool, np.bool_)) or not (is_exact_scalar(v) or isinstance(v, (float, np.floating))):
            if isinstance(v, str):
                raise InvalidMechanismError(f"matrix entry {v!r} is not a rational number like '3/4'")
            raise InvalidTypeError(f"matrix entry {v!r} ({type(v).__name__}) is not a number")
    if exact is None:
        exact = all(is_exact_scalar(v) for v in flat)
    n_out, n_in = len(rows), len(rows[0])
    try:
        if exact:
            return True, exact_entries(flat).reshape(n_out, n_in)
        return False, np.array(
            [[float(parse_scalar(v, name="matrix entry", exact=False)) for v in row] for row in rows]
        )
    except InvalidParameterError as err:  # NaN/inf entries: an invalid mechanism, not a bad parameter
        raise InvalidMechanismError(str(err)) from None


def validated_floats(arr: np.ndarray, atol: float) -> np.ndarray:
    """Check a float matrix in place: finite, no entry below ``-atol`` (those in ``[-atol, 0)`` become 0), every
    column summing to 1 within ``atol`` times the number of rows."""
    bad = np.argwhere(~np.isfinite(arr))
    if bad.size:
        r, c = bad[0]
        raise InvalidMechanismError(f"entry [{r}, {c}] = {arr[r, c]} is not finite")
    neg = np.argwhere(arr < -atol)
    if neg.size:
        r, c = neg[0]
        raise InvalidMechanismError(f"entry [{r}, {c}] = {float(arr[r, c])!r} is negative; probabilities must be >= 0")
    arr[arr < 0] = 0.0
    sums = arr.sum(axis=0)
    off = np.argwhere(np.abs(sums - 1.0) > atol * max(1, arr.shape[0]))
    if off.size:
        j = int(off[0][0])
        raise InvalidMechanismError(
            f"column {j} sums to {float(sums[j])!r}, not 1 (tolerance {number_text(atol)}): a mechanism must be column-stochastic"
        )
    return arr


def check_atol(atol: Any) -> None:
    """``atol`` must be a finite real number >= 0 (checked before the matrix, so the message names ``atol``)."""
    if isinstance(atol, (bool, np.bool_)) or not isinstance(atol, numbers.Real):
        raise InvalidTypeError(f"atol must be a number >= 0, got {atol!r:.60} ({type(atol).__name__})")
    if not math.isfinite(float(atol)) or atol < 0:
        raise InvalidParameterError(f"atol must be a finite number >= 0, got atol={atol!r}")


def exact_entries(flat: list[Any]) -> np.ndarray:
    """The entries as a 1-D object array of Fractions/ints: ints and Fractions pass as they are (one C-speed type
    pass), strings and other rationals through :func:`~privgeom._core.numbers.parse_scalar`."""
    out = np.empty(len(flat), dtype=object)
    if set(map(type, flat)) <= {int, Fraction}:
        out[:] = flat
    else:
        out[:] = [v if type(v) in (int, Fraction) else parse_scalar(v, name="matrix entry", exact=True) for v in flat]
    return out


def as_fraction_array(arr: np.ndarray) -> np.ndarray:
    """An exact matrix as an object array of Fractions (ints and numpy integers become Fractions)."""
    if arr.dtype == object and all(type(v) is Fraction for v in arr.ravel()):
        return arr
    out = np.empty(arr.shape, dtype=object)
    out.ravel()[:] = [Fraction(int(v)) if not isinstance(v, Fraction) else v for v in arr.ravel()]
    return out


def validated_ints(ints: IntColumns) -> IntColumns:
    """Check an exact matrix in integer form: no negative entry, every column summing to 1 (``Σ num = den``)."""
    num, den = ints.numerators, ints.denominators
    neg = np.argwhere(num < 0)
    if neg.size:
        r, c = (int(v) for v in neg[0])
        raise InvalidMechanismError(f"entry [{r}, {c}] = {ints.entry(r, c)} is negative; probabilities must be >= 0")
    if num.dtype != object and not fits_int64(max(1, num.shape[0]), max_abs_int(num)):
        num = num.astype(object)
    sums = num.sum(axis=0)
    off = np.flatnonzero(sums != den)
    if off.size:
        j = int(off[0])
        raise InvalidMechanismError(
            f"column {j} sums to {Fraction(int(sums[j]), int(den[j]))}, not 1: a mechanism must be column-stochastic"
        )
    return IntColumns(readonly(ints.numerators), readonly(ints.denominators))


def check_json_document(data: str | bytes | bytearray | dict[str, Any]) -> dict[str, Any]:
    """A mechanism JSON document (a dict, or JSON text parsed here) checked against :data:`JSON_SCHEMA`, returned
    as a dict; :class:`~privgeom.FormatError` names what does not follow the schema."""
    data = json_document(
        data,
        kind="mechanism",
        fields=JSON_SCHEMA["properties"],
        versions=JSON_VERSIONS,
        required=("matrix",),
        kind_optional=True,
    )
    if not isinstance(data["matrix"], list) or not all(isinstance(r, list) for r in data["matrix"]):
        raise FormatError(f"'matrix' must be a list of rows (lists), got {data['matrix']!r:.80}")
    for key in ("inputs", "outputs"):
        if data.get(key) is not None and not isinstance(data[key], list):
            raise FormatError(f"'{key}' must be a list of labels, got {data[key]!r:.80}")
        bad = [v for v in data.get(key) or () if isinstance(v, bool) or not isinstance(v, (str, int))]
        if bad:
            raise FormatError(f"'{key}' labels must be strings, got {bad[0]!r:.80}")
    exact = data.get("exact")
    if exact is not None and not isinstance(exact, bool):
        raise FormatError(f"'exact' must be true or false, got {exact!r}")
    return data
