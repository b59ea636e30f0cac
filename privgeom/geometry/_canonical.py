"""Input parsing and the canonical (printable, comparable) form of cone representations.

Canonical form of a cone (both representations), chosen so that equal cones give equal arrays:

* **Linear parts** (equalities of the H-representation, lineality basis of the V-representation): the reduced row
  echelon form of the subspace (unique for the subspace), each row then scaled by a positive factor — so the first
  nonzero entry, the pivot, is positive.
* **Facet normals / rays**: first projected orthogonally onto the orthogonal complement of the linear part (a facet
  normal is only defined modulo the equalities, a ray modulo the lineality space), then scaled by a *positive*
  factor (the sign carries meaning: ``a·x ≥ 0`` is not ``-a·x ≥ 0``).
* **Scaling**: exact rows become primitive integer vectors (gcd 1); :class:`~privgeom.geometry.Cone` stores them as
  integers (:func:`as_int_rows`: ``int64`` when every entry fits, Python ints otherwise) and shows them as
  ``Fraction`` arrays with denominator 1; float rows get unit max-abs entry, entries below ``atol`` in magnitude are
  set to 0.
* **Order**: rows sorted in *decreasing* lexicographic order (so the orthant's facets are the identity matrix), with
  duplicates removed.

Examples
--------
>>> from fractions import Fraction as F
>>> normalise_rows(np.array([[F(1, 2), F(-3, 4)], [F(0), F(2)]], dtype=object), exact=True).tolist()
[[Fraction(2, 1), Fraction(-3, 1)], [Fraction(0, 1), Fraction(1, 1)]]
>>> normalise_rows(np.array([[1, -3], [4, 2]]), exact=True, as_int=True).tolist()
[[2, 1], [1, -3]]
>>> rref(np.array([[F(0), F(2), F(4)], [F(1), F(1), F(1)]], dtype=object), exact=True).tolist()
[[Fraction(1, 1), Fraction(0, 1), Fraction(-1, 1)], [Fraction(0, 1), Fraction(1, 1), Fraction(2, 1)]]
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from .._core.errors import DomainMismatchError, InvalidInputError, InvalidTypeError
from .._core.numbers import number_text
from .._core.arrays import ATOL, check_dense_size
from .._core.columns import fit_int_array, fits_int64, max_abs_int, widen
from .._core.numbers import is_exact_scalar, parse_scalar

__all__ = [
    "parse_rows",
    "parse_labels",
    "parse_pair",
    "parse_vector",
    "parse_coords",
    "ParsedRows",
    "rref",
    "project_out",
    "normalise_rows",
    "canonical_pair",
    "empty",
    "identity",
    "as_int_rows",
    "int_rows_to_fractions",
    "int_dot",
    "scale_to_integers",
    "inequality_lines",
]


def as_int_rows(rows: np.ndarray) -> np.ndarray:
    """Integer-valued exact rows (ints, or Fractions with denominator 1) as ``int64`` when every entry fits, else as
    an object array of Python ints (never wrapping around).

    >>> as_int_rows(np.array([[Fraction(2), Fraction(-3)]], dtype=object)).dtype, as_int_rows(np.array([[2**70]], dtype=object)).dtype
    (dtype('int64'), dtype('O'))
    """
    arr = np.asarray(rows)
    if arr.dtype != object:
        return arr.astype(np.int64, copy=False)
    out = np.empty(arr.shape, dtype=object)
    flat = out.reshape(-1)
    vals = arr.reshape(-1).tolist()
    for i, v in enumerate(vals):
        if type(v) is not int:
            if getattr(v, "denominator", 1) != 1:
                raise InvalidInputError(f"canonical exact rows must be integers, got {v!r}")
            v = int(v)
        flat[i] = v
    return fit_int_array(out) if arr.size else np.zeros(arr.shape, dtype=np.int64)


def int_rows_to_fractions(rows: np.ndarray) -> np.ndarray:
    """The object array of Fractions (denominator 1) of an integer array: the exact rows as :class:`Cone` shows them.

    >>> int_rows_to_fractions(np.array([[1, -2]])).tolist()
    [[Fraction(1, 1), Fraction(-2, 1)]]
    """
    out = np.empty(rows.shape, dtype=object)
    out.reshape(-1)[:] = list(map(Fraction, rows.reshape(-1).tolist()))
    return out


def empty(dim: int, exact: bool) -> np.ndarray:
    """A ``0 x dim`` array of the mode's dtype."""
    return np.zeros((0, dim), dtype=object if exact else float)


def identity(dim: int, exact: bool) -> np.ndarray:
    """The ``dim x dim`` identity in the mode's dtype."""
    if not exact:
        return np.eye(dim)
    out = np.full((dim, dim), Fraction(0), dtype=object)
    for i in range(dim):
        out[i, i] = Fraction(1)
    return out


def int_dot(rows: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``rows @ vectors.T`` of integer arrays, exactly: in ``int64`` when ``dim · max|row| · max|vector|`` fits (so no
    partial sum can wrap around), else on Python integers (object arrays)."""
    dim = rows.shape[1]
    if rows.dtype != object and vectors.dtype != object and fits_int64(dim, max_abs_int(rows), max_abs_int(vectors)):
        return np.asarray(rows.dot(vectors.T))
    r, v = widen(rows, vectors)
    return np.asarray(r.dot(v.T))


def _common_denominator(vals: Sequence[Any]) -> tuple[list[int], int]:
    """``(integers, d)`` with ``vals = integers / d`` and ``d > 0`` the least common denominator of the ints and
    Fractions ``vals``."""
    den = 1
    for v in vals:
        d = v.denominator
        if d != 1:
            den = den * d // math.gcd(den, d)
    return ([int(v) for v in vals] if den == 1 else [int(v * den) for v in vals]), den


def scale_to_integers(x: Any) -> tuple[np.ndarray, int]:
    """A rational vector as ``(integers, d)`` with ``x = integers / d`` and ``d > 0`` the least common denominator
    (integers as :func:`~privgeom.geometry._canonical.as_int_rows` stores them)."""
    ints, den = _common_denominator(list(x))
    arr = np.empty((1, len(ints)), dtype=object)
    arr[0, :] = ints
    return as_int_rows(arr)[0], den


# ------------------------------------------------------------------------------------------------------ parsing
def _row_list(values: Any, name: str) -> list[list[Any]] | np.ndarray:
    """Turn user input into a 2-D numpy array (numeric dtype) or a list of row lists, rejecting bad shapes."""
    if isinstance(values, np.ndarray):
        if values.ndim != 2:
            raise InvalidInputError(f"{name} must be a 2-D array (one row per vector), got shape {values.shape}")
        if values.dtype.kind not in "biufO":
            raise InvalidTypeError(f"{name} must hold numbers, got dtype {values.dtype}")
        if values.dtype.kind in "biuf":
            return values
        return [list(r) for r in values]
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidTypeError(f"{name} must be a 2-D list or array of numbers, got {type(values).__name__}")
    rows: list[list[Any]] = []
    for i, row in enumerate(values):
        if isinstance(row, np.ndarray):
            row = list(row.ravel()) if row.ndim == 1 else row
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise InvalidInputError(f"row {i} of {name} is {row!r}, not a sequence of numbers")
        rows.append(list(row))
    widths = sorted({len(r) for r in rows})
    if len(widths) > 1:
        raise InvalidInputError(f"{name} is ragged: rows have lengths {widths}")
    return rows


def parse_rows(
    values: Any, *, name: str, exact: bool | None, dim: int | None, keep_ints: bool = False
) -> tuple[np.ndarray | None, bool | None]:
    """Validate one block of rows.

    Returns ``(array, inferred_exact)``; ``array`` is None when ``values`` is None. The array is an object array
    of Fractions when ``exact`` is True, float64 when False; when ``exact`` is None the raw parsed rows are
    returned as an object array together with the inferred mode (all entries rational → exact). With
    ``keep_ints=True`` integer entries of an exact result stay Python ints (no Fraction is built for them).
    """
    if values is None:
        return None, None
    rows = _row_list(values, name)
    if isinstance(rows, np.ndarray):
        n, width = rows.shape
        check_dense_size(n, width, exact=bool(exact) if exact is not None else rows.dtype.kind in "biu", what=name)
        if rows.dtype.kind == "f":
            bad = np.argwhere(~np.isfinite(rows))
            if bad.size:
                r, c = bad[0]
                raise InvalidInputError(f"{name}[{r}, {c}] = {rows[r, c]!r} is not finite")
        inferred = rows.dtype.kind in "biu"
        if dim is not None and n and width != dim:
            raise InvalidInputError(f"{name} has {width} columns but the cone lives in R^{dim}")
        mode = inferred if exact is None else exact
        if mode and inferred and keep_ints:
            arr = rows.astype(object)  # Python ints
        elif mode:
            arr = np.empty(rows.shape, dtype=object)
            arr.ravel()[:] = [Fraction(int(v)) if inferred else Fraction(float(v)) for v in rows.ravel()]
        else:
            arr = rows.astype(float)
        return arr.reshape(n, width), inferred
    n = len(rows)
    width = len(rows[0]) if rows else (dim if dim is not None else 0)
    if dim is not None and n and width != dim:
        raise InvalidInputError(f"{name} has {width} columns but the cone lives in R^{dim}")
    check_dense_size(n, width, exact=exact is not False, what=name)
    inferred_exact = True
    parsed: list[list[Any]] = []
    for i, row in enumerate(rows):
        out_row = []
        for j, v in enumerate(row):
            if isinstance(v, (bool, np.bool_)):
                raise InvalidTypeError(f"{name}[{i}, {j}] = {v!r} is a boolean, not a number")
            if not (is_exact_scalar(v) or isinstance(v, (float, np.floating))):
                if isinstance(v, str):
                    raise InvalidInputError(f"{name}[{i}, {j}] = {v!r} is not a rational number like '3/4'")
                if isinstance(v, Fraction) or (hasattr(v, "numerator") and hasattr(v, "denominator")):
                    v = Fraction(int(v.numerator), int(v.denominator))
                else:
                    raise InvalidTypeError(f"{name}[{i}, {j}] = {v!r} ({type(v).__name__}) is not a number")
            if not is_exact_scalar(v):
                inferred_exact = False
                if not math.isfinite(float(v)):
                    raise InvalidInputError(f"{name}[{i}, {j}] = {v!r} is not finite")
            out_row.append(v)
        parsed.append(out_row)
    mode = inferred_exact if exact is None else exact
    arr = np.empty((n, width), dtype=object if mode else float)
    for i, row in enumerate(parsed):
        for j, v in enumerate(row):
            if mode and keep_ints and isinstance(v, (int, np.integer)):
                arr[i, j] = int(v)
            else:
                arr[i, j] = parse_scalar(v, name=f"{name}[{i}, {j}]", exact=mode)
    return arr, inferred_exact


def parse_labels(labels: Any, dim: int) -> tuple[str, ...]:
    """Coordinate labels: default ``x0 … x{dim-1}``; otherwise ``dim`` unique strings."""
    if labels is None:
        return tuple(f"x{i}" for i in range(dim))
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise InvalidInputError(f"labels must be a sequence of strings, got {labels!r}")
    out = (
        labels if isinstance(labels, tuple) and all(type(x) is str for x in labels) else tuple(str(x) for x in labels)
    )  # a tuple of str is kept as it is (2^20 labels: no copy)
    if len(out) != dim:
        raise InvalidInputError(f"{len(out)} labels {list(out)[:8]} given for a cone in R^{dim}")
    if len(set(out)) != dim:
        dup = sorted({x for x in out if out.count(x) > 1})
        raise InvalidInputError(f"coordinate labels must be unique; repeated: {dup[:8]}")
    return out


class ParsedRows(NamedTuple):
    """A validated pair of row blocks (facets and equalities, or rays and lineality), their labels and mode."""

    main: np.ndarray
    lineality: np.ndarray
    labels: tuple[str, ...]
    exact: bool


def parse_pair(main: Any, lin: Any, names: tuple[str, str], exact: bool | None, labels: Any, atol: float) -> ParsedRows:
    """Validate a pair of row blocks (facets and equalities, or rays and lineality; ``names`` for the messages),
    the coordinate ``labels`` and ``atol``: both blocks as 2-D arrays of one width, in one mode (``exact=None``: exact
    when every entry is rational), ints kept as ints in exact mode."""
    if isinstance(atol, bool) or not isinstance(atol, (int, float)) or not atol >= 0:
        raise InvalidInputError(f"atol must be a non-negative float, got {atol!r}")
    dim_hint = None
    if labels is not None and not isinstance(labels, (str, bytes)) and isinstance(labels, Iterable):
        labels = tuple(labels)
        dim_hint = len(labels)
    a, ea = parse_rows(main, name=names[0], exact=exact, dim=dim_hint, keep_ints=exact is not False)
    b, eb = parse_rows(lin, name=names[1], exact=exact, dim=dim_hint, keep_ints=exact is not False)
    widths = {arr.shape[1] for arr in (a, b) if arr is not None and len(arr)}
    if len(widths) > 1:
        raise InvalidInputError(f"{names[0]} and {names[1]} have different widths {sorted(widths)}")
    if widths:
        dim = widths.pop()
    elif dim_hint is not None:
        dim = dim_hint
    else:
        shapes = [arr.shape[1] for arr in (a, b) if arr is not None and arr.shape[1]]
        if not shapes:
            raise InvalidInputError(
                f"cannot tell the ambient dimension from empty {names[0]}; pass labels=[...] (or a 0 x N array)"
            )
        dim = shapes[0]
    if dim < 1:
        raise InvalidInputError("a cone needs ambient dimension at least 1")
    if exact is None:
        exact = all(e is not False for e in (ea, eb))
    out: list[np.ndarray] = []
    for arr, e in ((a, ea), (b, eb)):
        if arr is None or not len(arr):
            out.append(empty(dim, exact))
        elif exact:
            if arr.dtype != object or not all(type(v) is int or isinstance(v, Fraction) for v in arr.ravel()):
                arr = np.asarray(parse_rows(arr, name="rows", exact=True, dim=dim, keep_ints=True)[0])
            out.append(arr)
        else:
            out.append(np.asarray(arr, dtype=float))
    return ParsedRows(main=out[0], lineality=out[1], labels=parse_labels(labels, dim), exact=bool(exact))


def parse_vector(x: Any, labels: tuple[str, ...], *, exact: bool, name: str = "x") -> tuple[np.ndarray, bool]:
    """A point of the cone with coordinate ``labels``, and whether it is decided exactly: an object array (ints kept
    as ints: the integer kernels scale Fractions once) when the cone is ``exact`` and every entry is rational, else
    float64.

    >>> parse_vector([1, "1/2"], ("a", "b"), exact=True)
    (array([1, Fraction(1, 2)], dtype=object), True)
    >>> parse_vector([1, 0.5], ("a", "b"), exact=True)
    (array([1. , 0.5]), False)
    """
    if hasattr(x, "dtype") and getattr(x, "ndim", 1) == 1:
        arr0 = np.asarray(x)
        rows = arr0.reshape(1, -1)
    elif isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        raise InvalidTypeError(f"{name} must be a vector (1-D sequence of numbers), got {type(x).__name__}")
    else:
        seq = list(x)
        if any(isinstance(v, (list, tuple, np.ndarray)) for v in seq):
            raise InvalidInputError(f"{name} must be a 1-D vector, got nested input {seq[:3]!r}...")
        rows = [seq]  # type: ignore[assignment]
    arr, inferred = parse_rows(rows, name=name, exact=None, dim=None, keep_ints=True)
    assert arr is not None
    if arr.shape[1] != len(labels):
        raise DomainMismatchError(
            f"{name} has {arr.shape[1]} coordinates but the cone lives in R^{len(labels)} (labels {list(labels)[:8]})"
        )
    vec = arr[0]
    if inferred and exact:  # ints stay ints (the integer kernel scales Fractions once)
        out = np.empty(len(vec), dtype=object)
        out[:] = list(vec)
        return out, True
    return np.array([float(v) for v in vec]), False


def parse_coords(coords: Any, labels: tuple[str, ...]) -> list[int]:
    """The indices of the coordinates to keep in a projection, given by index or label (at least one, no repeats).

    >>> parse_coords(["b", 0], ("a", "b", "c"))
    [1, 0]
    """
    if isinstance(coords, (str, int, np.integer)):
        coords = [coords]
    out: list[int] = []
    for c in coords:
        if isinstance(c, (int, np.integer)) and not isinstance(c, bool):
            if not 0 <= int(c) < len(labels):
                raise InvalidInputError(f"coordinate index {c} out of range 0..{len(labels) - 1}")
            out.append(int(c))
        elif isinstance(c, str) and c in labels:
            out.append(labels.index(c))
        else:
            raise InvalidInputError(f"unknown coordinate {c!r}; labels are {list(labels)[:12]}")
    if not out:
        raise InvalidInputError("project needs at least one coordinate to keep")
    if len(set(out)) != len(out):
        raise InvalidInputError(f"repeated coordinates in {list(coords)!r}")
    return out


# ------------------------------------------------------------------------------------------------- linear algebra
def rref(rows: np.ndarray, *, exact: bool, atol: float = ATOL) -> np.ndarray:
    """Reduced row echelon form of the row space of ``rows``, zero rows dropped (pivots equal 1)."""
    dim = rows.shape[1]
    if exact:
        m = [[Fraction(v) for v in r] for r in (rows.tolist() if isinstance(rows, np.ndarray) else rows)]
        out: list[list[Any]] = []
        col = 0
        r0 = 0
        while r0 < len(m) and col < dim:
            piv = next((i for i in range(r0, len(m)) if m[i][col] != 0), None)
            if piv is None:
                col += 1
                continue
            m[r0], m[piv] = m[piv], m[r0]
            p = m[r0][col]
            m[r0] = [v / p for v in m[r0]]
            for i in range(len(m)):
                if i != r0 and m[i][col] != 0:
                    f = m[i][col]
                    m[i] = [a - f * b for a, b in zip(m[i], m[r0])]
            r0 += 1
            col += 1
        out = m[:r0]
        arr = np.empty((len(out), dim), dtype=object)
        for i, r in enumerate(out):
            arr[i, :] = r
        return arr
    a = np.array(rows, dtype=float, copy=True)
    scale = max(1.0, float(np.abs(a).max())) if a.size else 1.0
    r0 = 0
    for col in range(dim):
        if r0 >= len(a):
            break
        piv = r0 + int(np.argmax(np.abs(a[r0:, col])))
        if abs(a[piv, col]) <= atol * scale:
            a[r0:, col] = 0.0
            continue
        a[[r0, piv]] = a[[piv, r0]]
        a[r0] /= a[r0, col]
        for i in range(len(a)):
            if i != r0:
                a[i] -= a[i, col] * a[r0]
        r0 += 1
    out_f = a[:r0]
    out_f[np.abs(out_f) <= atol] = 0.0
    return out_f


def project_out(rows: np.ndarray, basis: np.ndarray, *, exact: bool) -> np.ndarray:
    """Orthogonal projection of each row onto the orthogonal complement of ``span(basis)``."""
    if len(basis) == 0 or len(rows) == 0:
        return rows.copy()
    if not exact:
        q, _ = np.linalg.qr(np.asarray(basis, dtype=float).T)
        r = np.asarray(rows, dtype=float)
        return np.asarray(r - (r @ q) @ q.T)
    ortho: list[list[Fraction]] = []
    norms: list[Fraction] = []
    for b in basis.tolist():
        v = list(b)
        for q_, n_ in zip(ortho, norms):
            c = sum((x * y for x, y in zip(v, q_)), Fraction(0)) / n_
            v = [x - c * y for x, y in zip(v, q_)]
        n = sum((x * x for x in v), Fraction(0))
        if n != 0:
            ortho.append(v)
            norms.append(n)
    out = np.empty(rows.shape, dtype=object)
    for i, r in enumerate(rows.tolist()):
        v = list(r)
        for q_, n_ in zip(ortho, norms):
            c = sum((x * y for x, y in zip(v, q_)), Fraction(0)) / n_
            if c:
                v = [x - c * y for x, y in zip(v, q_)]
        out[i, :] = v
    return out


def _primitive_ints(row: Sequence[Any]) -> list[int]:
    """The primitive integer vector positively proportional to a row of ints and Fractions (all zeros stay zeros)."""
    ints, _ = _common_denominator(row)
    g = 0
    for n in ints:
        g = math.gcd(g, n)
        if g == 1:
            return ints
    if g == 0:
        return ints
    return [v // g for v in ints]


def _primitive(row: Sequence[Fraction]) -> list[Fraction]:
    return [Fraction(v) for v in _primitive_ints(row)]


def normalise_rows(
    rows: np.ndarray, *, exact: bool, atol: float = ATOL, sign: bool = False, as_int: bool = False
) -> np.ndarray:
    """Scale every row positively (primitive integers / unit max-abs), drop zero rows and duplicates, sort.

    With ``sign=True`` (linear parts) the first nonzero entry is also made positive. Exact rows come back as
    Fractions, or with ``as_int=True`` as integers (:func:`as_int_rows`), building no Fraction.
    """
    dim = rows.shape[1]
    out: list[tuple[Any, ...]] = []
    for r in rows.tolist() if exact else rows:
        v: list[Any]
        if exact:
            v = _primitive_ints(r)
            if all(x == 0 for x in v):
                continue
        else:
            f = np.asarray(r, dtype=float)
            m = float(np.abs(f).max()) if f.size else 0.0
            if m <= atol:
                continue
            f = f / m
            f[np.abs(f) <= atol] = 0.0
            v = [float(x) for x in f]
        if sign:
            first = next(x for x in v if x != 0)
            if first < 0:
                v = [-x for x in v]
        out.append(tuple(v))
    if exact:
        uniq = sorted(set(out), reverse=True)
        if as_int:
            arr_i = np.empty((len(uniq), dim), dtype=object)
            for i, t in enumerate(uniq):
                arr_i[i, :] = t
            return fit_int_array(arr_i) if len(uniq) else np.zeros((0, dim), dtype=np.int64)
        uniq = [tuple(map(Fraction, t)) for t in uniq]
    else:
        uniq = []
        for t in sorted(out, key=lambda t: tuple(round(x / atol) * atol for x in t) if atol > 0 else t, reverse=True):
            if not uniq or max(abs(a - b) for a, b in zip(t, uniq[-1])) > atol:
                uniq.append(t)
    arr = np.empty((len(uniq), dim), dtype=object if exact else float)
    for i, t in enumerate(uniq):
        arr[i, :] = t
    return arr


def canonical_pair(
    rows: np.ndarray, lin_rows: np.ndarray, *, exact: bool, atol: float = ATOL, as_int: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Canonical form of an *irredundant* pair (facets, equalities) or (rays, lineality); see the module doc.

    ``as_int=True`` (exact): both arrays as integers (:func:`as_int_rows`) instead of Fractions."""
    basis = rref(lin_rows, exact=exact, atol=atol) if len(lin_rows) else lin_rows
    lin = normalise_rows(basis, exact=exact, atol=atol, sign=True, as_int=as_int) if len(basis) else basis
    if as_int and exact and not len(basis):
        lin = np.zeros((0, rows.shape[1]), dtype=np.int64)
    # keep the RREF order (pivot columns increasing) rather than re-sorting: it is already canonical, and decreasing
    # lexicographic order coincides with it for primitive rows whose first nonzero entry is positive.
    proj = project_out(rows, basis, exact=exact)
    main = normalise_rows(proj, exact=exact, atol=atol, as_int=as_int)
    return main, lin


# ---------------------------------------------------------------------------------------------------- printing
def _label_term(label: str) -> str:
    return label if label[:1].isalpha() else f"x{label}"


def _format_row(row: np.ndarray, labels: Sequence[str], rel: str) -> str:
    terms = [(c, labels[i]) for i, c in enumerate(row) if c != 0]
    terms.sort(key=lambda t: (-float(t[0]), t[1]))
    parts: list[str] = []
    for c, lab in terms:
        mag = number_text(abs(c))
        term = f"{mag}·{_label_term(lab)}"
        if not parts:
            parts.append(term if c > 0 else f"-{term}")
        else:
            parts.append(("+ " if c > 0 else "- ") + term)
    return " ".join(parts) + f" {rel} 0"


def inequality_lines(facets: np.ndarray, equalities: np.ndarray, labels: Sequence[str]) -> list[str]:
    """One line per facet (``… ≥ 0``) and per equality (``… = 0``), terms by decreasing coefficient; the lines of
    ``print(cone)``.

    >>> inequality_lines(np.array([[2, -1]]), np.zeros((0, 2), dtype=np.int64), ("a", "1"))
    ['2·a - 1·x1 ≥ 0']
    """
    return [_format_row(a, labels, "≥") for a in facets] + [_format_row(e, labels, "=") for e in equalities]
