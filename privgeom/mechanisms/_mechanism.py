"""The :class:`Mechanism`: an immutable, validated column-stochastic matrix.

Notation of Lin & Kifer's row-cone paper (``docs/theory.md`` §1): columns are the possible datasets
``D_1..D_N`` (the *inputs*), rows are the outputs ``ω``, and ``M[ω, i] = P(M(D_i) = ω)``.
"""

from __future__ import annotations

import json
import math
import numbers
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from .._domain import Domain
from .._errors import (
    DomainMismatchError,
    FormatError,
    InvalidMechanismError,
    InvalidParameterError,
    InvalidTypeError,
)
from .._io import parse_json, read_text, write_text
from .._numeric import (
    ATOL,
    Scalar,
    check_dense_size,
    is_exact_scalar,
    parse_scalar,
    readonly,
    scalar_to_json,
    to_exact_array,
    to_float_array,
)

__all__ = ["Mechanism", "JSON_SCHEMA", "JSON_VERSIONS"]

#: Versions of the mechanism JSON format this release reads (a file without ``"version"`` is read as version 1).
JSON_VERSIONS: tuple[int, ...] = (1,)

#: The documented JSON schema of a saved mechanism (see :meth:`Mechanism.to_json`).
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


def _labels(labels: Iterable[Any] | None, n: int, kind: str, default_prefix: str) -> tuple[str, ...]:
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


def _as_rows(matrix: Any) -> list[list[Any]]:
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


class Mechanism:
    """A mechanism as an immutable column-stochastic matrix ``M[ω, i] = P(M(D_i) = ω)``.

    Parameters
    ----------
    matrix : 2-D sequence or numpy array
        Rows are outputs, columns are inputs (datasets). Entries may be ints, Fractions, rational strings
        (``"3/4"``) or floats.
    inputs, outputs : sequence of str, optional
        Labels of the columns (datasets) and rows (outputs); default ``d0, d1, …`` and ``o0, o1, …``. ``inputs``
        may be a :class:`~privgeom.Domain`, which then names the datasets and their neighbour relations.
    exact : bool, optional
        ``True``: entries become Fractions (floats are converted bit-exactly, so ``0.1`` will usually fail the
        exact column-sum check — pass ``"1/10"``). ``False``: float64. ``None`` (default): exact when every entry
        is rational (int, Fraction, string), float otherwise.
    atol : float in [0, 1)
        Float mode only: tolerance of the non-negativity and column-sum checks. Entries in ``[-atol, 0)`` are
        set to 0.

    Raises
    ------
    InvalidMechanismError
        Non-2-D or ragged input, negative/NaN/infinite entries, columns not summing to 1, bad labels.
    InvalidTypeError
        Entries that are not numbers.
    SizeLimitError
        More entries than privgeom allocates densely.

    Examples
    --------
    >>> M = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["1", "0"], outputs=["1", "0"])
    >>> M.exact, M.matrix[0, 0], M.shape
    (True, Fraction(3, 4), (2, 2))
    >>> M.post_process([[1, 1]]).matrix.tolist()
    [[Fraction(1, 1), Fraction(1, 1)]]
    >>> M.product(M).inputs
    ('11', '10', '01', '00')
    """

    __slots__ = ("_matrix", "_inputs", "_outputs", "_exact", "_domain")
    _domain: Domain | None

    def __init__(
        self,
        matrix: Any,
        inputs: Iterable[Any] | None = None,
        outputs: Iterable[Any] | None = None,
        *,
        exact: bool | None = None,
        atol: float = ATOL,
    ) -> None:
        _check_atol(atol)
        domain: Domain | None = None
        if isinstance(matrix, Mechanism):
            domain = matrix._domain if inputs is None else None
            inputs = matrix.inputs if inputs is None else inputs
            outputs = matrix.outputs if outputs is None else outputs
            exact = matrix.exact if exact is None else exact
            matrix = matrix.matrix
        if isinstance(matrix, np.ndarray) and matrix.ndim == 2 and matrix.dtype.kind in "iuf":
            n_out, n_in = matrix.shape
            if n_out == 0 or n_in == 0:
                raise InvalidMechanismError(f"a mechanism matrix cannot be empty, got shape {matrix.shape}")
            if exact is None:
                exact = matrix.dtype.kind in "iu"
            check_dense_size(n_out, n_in, exact=bool(exact), what="this mechanism")
            try:
                arr = to_exact_array(matrix, name="matrix entry") if exact else matrix.astype(float, copy=True)
            except InvalidParameterError as err:  # NaN/inf cannot be made exact
                raise InvalidMechanismError(str(err)) from None
        else:
            rows = _as_rows(matrix)
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
                flat = []
            for v in flat:
                if isinstance(v, (bool, np.bool_)) or not (is_exact_scalar(v) or isinstance(v, (float, np.floating))):
                    if isinstance(v, str):
                        raise InvalidMechanismError(f"matrix entry {v!r} is not a rational number like '3/4'")
                    raise InvalidTypeError(f"matrix entry {v!r} ({type(v).__name__}) is not a number")
            if exact is None:
                exact = all(is_exact_scalar(v) for v in flat)
            try:
                if not flat:
                    pass  # the float fast path above built ``arr``
                elif exact:
                    arr = to_exact_array(rows, name="matrix entry")
                else:
                    arr = np.array(
                        [[float(parse_scalar(v, name="matrix entry", exact=False)) for v in row] for row in rows]
                    )
            except InvalidParameterError as err:  # NaN/inf entries: an invalid mechanism, not a bad parameter
                raise InvalidMechanismError(str(err)) from None
        self._exact = bool(exact)
        self._matrix = readonly(self._validate(arr, atol))
        if isinstance(inputs, Domain):
            domain, inputs = inputs, inputs.labels
        self._inputs = _labels(inputs, n_in, "input", "d")
        self._outputs = _labels(outputs, n_out, "output", "o")
        self._domain = domain

    def _validate(self, arr: np.ndarray, atol: float) -> np.ndarray:
        if self._exact:
            neg = np.argwhere(arr < 0)
            if neg.size:
                r, c = neg[0]
                raise InvalidMechanismError(f"entry [{r}, {c}] = {arr[r, c]} is negative; probabilities must be >= 0")
            sums = arr.sum(axis=0)
            for j, s in enumerate(sums):
                if s != 1:
                    raise InvalidMechanismError(f"column {j} sums to {s}, not 1: a mechanism must be column-stochastic")
            return arr
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
                f"column {j} sums to {float(sums[j])!r}, not 1 (tolerance {atol:g}): a mechanism must be column-stochastic"
            )
        return arr

    # ------------------------------------------------------------------------------------------------ accessors
    @property
    def matrix(self) -> np.ndarray:
        """The read-only matrix (object array of Fractions in exact mode, float64 otherwise)."""
        return self._matrix

    @property
    def inputs(self) -> tuple[str, ...]:
        """Labels of the datasets (columns)."""
        return self._inputs

    @property
    def domain(self) -> Domain:
        """The datasets as a :class:`~privgeom.Domain` (the one given as ``inputs``, else plain labels).

        Examples
        --------
        >>> from privgeom import Domain
        >>> M = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=Domain.bits(1))
        >>> M.inputs, M.domain.kind, Mechanism(M.matrix).domain.kind
        (('1', '0'), 'bits', 'labels')
        """
        if self._domain is None:
            self._domain = Domain.from_labels(self._inputs)
        return self._domain

    @property
    def outputs(self) -> tuple[str, ...]:
        """Labels of the outputs (rows)."""
        return self._outputs

    @property
    def exact(self) -> bool:
        """True when entries are Fractions."""
        return self._exact

    @property
    def shape(self) -> tuple[int, int]:
        """``(number of outputs, number of inputs)``."""
        return self._matrix.shape  # type: ignore[return-value]

    @property
    def n_inputs(self) -> int:
        """Number of datasets."""
        return self._matrix.shape[1]

    @property
    def n_outputs(self) -> int:
        """Number of outputs."""
        return self._matrix.shape[0]

    def row(self, output: int | str) -> np.ndarray:
        """The row of one output (by index or label), as a read-only array over the inputs."""
        return self._matrix[self._index(output, self._outputs, "output")]

    def column(self, dataset: int | str) -> np.ndarray:
        """The output distribution on one dataset (by index or label)."""
        return self._matrix[:, self._index(dataset, self._inputs, "input")]

    @staticmethod
    def _index(key: int | str, labels: tuple[str, ...], kind: str) -> int:
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            if not -len(labels) <= int(key) < len(labels):
                raise InvalidMechanismError(f"{kind} index {key} out of range 0..{len(labels) - 1}")
            return int(key) % len(labels)
        try:
            return labels.index(str(key))
        except ValueError:
            raise InvalidMechanismError(f"unknown {kind} label {key!r}; known: {list(labels)[:10]}") from None

    def to_float(self) -> "Mechanism":
        """The same mechanism in float mode."""
        if not self._exact:
            return self
        return Mechanism(to_float_array(self._matrix), self._kept_inputs(), self._outputs, exact=False)

    def to_exact(self) -> "Mechanism":
        """The same mechanism in exact mode (floats converted bit-exactly; may fail the exact column-sum check)."""
        return self if self._exact else Mechanism(self._matrix.tolist(), self._kept_inputs(), self._outputs, exact=True)

    def float_matrix(self) -> np.ndarray:
        """The matrix as float64 (a copy in exact mode)."""
        return to_float_array(self._matrix) if self._exact else self._matrix

    # ------------------------------------------------------------------------------------------------ operations
    def _kept_inputs(self) -> Domain | tuple[str, ...]:
        """The inputs for a mechanism on the same datasets: the Domain when known (operations that keep the columns
        keep the structure, so ``pg.delta(M.to_float(), "replace-one", eps)`` still applies), else the labels."""
        return self._domain if self._domain is not None else self._inputs

    def _coerce(self, other: "Mechanism") -> tuple[np.ndarray, np.ndarray, bool]:
        exact = self._exact and other._exact
        a = self._matrix if exact else self.float_matrix()
        b = other._matrix if exact else other.float_matrix()
        return a, b, exact

    def post_process(self, A: Any, outputs: Iterable[Any] | None = None) -> "Mechanism":
        """Post-processing ``A ∘ M = A @ M`` with ``A`` column-stochastic (columns indexed by this mechanism's outputs).

        The result is exact when both ``A`` and ``M`` are exact.

        Examples
        --------
        >>> M = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]])
        >>> M.post_process([["1/2", "1/2"], ["1/2", "1/2"]]).matrix[0].tolist()
        [Fraction(1, 2), Fraction(1, 2)]
        """
        if not isinstance(A, Mechanism):
            A = Mechanism(A, inputs=self._outputs if _ncols(A) == self.n_outputs else None, outputs=outputs)
        if A.n_inputs != self.n_outputs:
            raise DomainMismatchError(
                f"post-processing has {A.n_inputs} columns but the mechanism has {self.n_outputs} outputs"
            )
        a, m, exact = A._coerce(self)
        return Mechanism(a.dot(m), self._kept_inputs(), A.outputs if outputs is None else outputs, exact=exact)

    def __matmul__(self, other: "Mechanism") -> "Mechanism":
        """``A @ M`` is ``M.post_process(A)``."""
        if not isinstance(other, Mechanism):
            return NotImplemented
        return other.post_process(self)

    def product(self, other: "Mechanism", sep: str = "") -> "Mechanism":
        """Independent product (Kronecker): run both on the two parts of a composite dataset.

        Input and output labels are concatenated (``sep`` between them); if that makes labels collide, ``","`` is
        used instead. ``M_rr`` on ``k`` bits is the ``k``-fold product of the one-bit mechanism (Lin & Kifer, §IV).

        Examples
        --------
        >>> B = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["1", "0"], outputs=["1", "0"])
        >>> P = B.product(B)
        >>> P.inputs, [str(v) for v in P.matrix[0]]
        (('11', '10', '01', '00'), ['9/16', '3/16', '3/16', '1/16'])
        """
        a, b, exact = self._coerce(other)
        check_dense_size(a.shape[0] * b.shape[0], a.shape[1] * b.shape[1], exact=exact, what="this product")
        mat = np.kron(a, b)

        def cat(x: tuple[str, ...], y: tuple[str, ...]) -> list[str]:
            labels = [u + sep + v for u in x for v in y]
            return labels if len(set(labels)) == len(labels) else [u + "," + v for u in x for v in y]

        return Mechanism(mat, cat(self._inputs, other._inputs), cat(self._outputs, other._outputs), exact=exact)

    def restrict(self, inputs: Sequence[int | str]) -> "Mechanism":
        """The mechanism on a subset of its datasets (columns kept in the given order).

        Examples
        --------
        >>> M = Mechanism([["1/2", 1, 0], ["1/2", 0, 1]], inputs=["a", "b", "c"])
        >>> M.restrict(["c", "a"]).matrix.tolist()
        [[Fraction(0, 1), Fraction(1, 2)], [Fraction(1, 1), Fraction(1, 2)]]
        """
        idx = [self._index(k, self._inputs, "input") for k in inputs]
        if not idx:
            raise InvalidMechanismError("restrict() needs at least one input")
        return Mechanism(self._matrix[:, idx], [self._inputs[i] for i in idx], self._outputs, exact=self._exact)

    def drop_zero_rows(self) -> "Mechanism":
        """The same mechanism without outputs that have probability 0 on every dataset."""
        keep = [i for i in range(self.n_outputs) if any(v != 0 for v in self._matrix[i])]
        return Mechanism(self._matrix[keep], self._kept_inputs(), [self._outputs[i] for i in keep], exact=self._exact)

    # ------------------------------------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict following :data:`JSON_SCHEMA` (exact entries as strings like ``"3/4"``).

        Examples
        --------
        >>> Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["1", "0"]).to_json()["matrix"]
        [['3/4', '1/4'], ['1/4', '3/4']]
        """
        return {
            "privgeom": "mechanism",
            "version": 1,
            "exact": self._exact,
            "inputs": list(self._inputs),
            "outputs": list(self._outputs),
            "matrix": [[scalar_to_json(v) for v in row] for row in self._matrix],
        }

    @classmethod
    def from_json(cls, data: Any) -> "Mechanism":
        """Build a mechanism from a dict (or JSON text) following :data:`JSON_SCHEMA`.

        Examples
        --------
        >>> M = Mechanism([["1/3", 1], ["2/3", 0]], inputs=["a", "b"])
        >>> Mechanism.from_json(M.to_json()) == M
        True
        """
        if isinstance(data, (str, bytes, bytearray)):
            data = parse_json(data, what="mechanism")
        if not isinstance(data, dict):
            raise FormatError(f"a mechanism JSON document must be an object, got {type(data).__name__}")
        if data.get("privgeom", "mechanism") != "mechanism":
            raise FormatError(f"not a mechanism document: privgeom = {data.get('privgeom')!r}")
        if "matrix" not in data:
            raise FormatError("mechanism JSON has no 'matrix' field")
        unknown = set(data) - set(JSON_SCHEMA["properties"])
        if unknown:
            raise FormatError(f"unknown fields in mechanism JSON: {sorted(unknown)[:8]!r:.200}")
        version = data.get("version", 1)
        if isinstance(version, bool) or version not in JSON_VERSIONS:
            raise FormatError(f"mechanism JSON version {version!r:.40} is not supported; known versions: "
                              f"{', '.join(map(str, JSON_VERSIONS))}")
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
        return cls(data["matrix"], data.get("inputs"), data.get("outputs"), exact=exact)

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path`` (an unwritable path is an InvalidParameterError naming it)."""
        write_text(path, json.dumps(self.to_json(), indent=1) + "\n", what="mechanism file")

    @classmethod
    def load(cls, path: str | Path) -> "Mechanism":
        """Read a mechanism saved by :meth:`save` (or written by hand following :data:`JSON_SCHEMA`).

        Raises :class:`~privgeom.FormatError` for an unreadable file, text that is not UTF-8 JSON or a document that
        does not follow the schema.

        Examples
        --------
        >>> import tempfile, os
        >>> M = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]])
        >>> path = os.path.join(tempfile.mkdtemp(), "m.json")
        >>> M.save(path)
        >>> Mechanism.load(path) == M
        True
        """
        text = read_text(path, what="mechanism", kind="JSON text")
        try:
            return cls.from_json(text)
        except FormatError as err:
            raise FormatError(f"{str(path)!r}: {err}") from None

    # ------------------------------------------------------------------------------------------------ dunder
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mechanism):
            return NotImplemented
        return (
            self._exact == other._exact
            and self._inputs == other._inputs
            and self._outputs == other._outputs
            and self.shape == other.shape
            and bool(np.all(self._matrix == other._matrix))
        )

    __hash__ = None  # type: ignore[assignment]

    def _repr_html_(self) -> str:
        from .._display import to_html

        return to_html(self)

    def __repr__(self) -> str:
        mode = "exact" if self._exact else "float"
        return f"Mechanism({self.n_outputs} outputs x {self.n_inputs} inputs, {mode}, inputs={list(self._inputs)[:6]}{'...' if self.n_inputs > 6 else ''})"

    def __str__(self) -> str:
        head = "        " + " ".join(f"{x:>8}" for x in self._inputs)
        lines = [head]
        for label, row in zip(self._outputs, self._matrix):
            cells = " ".join(f"{(str(v) if self._exact else f'{v:.4g}'):>8}" for v in row)
            lines.append(f"{label:>7} {cells}")
        return "\n".join(lines)


def _check_atol(atol: Any) -> None:
    """``atol`` must be a finite real number >= 0 (checked before the matrix, so the message names ``atol``)."""
    if isinstance(atol, (bool, np.bool_)) or not isinstance(atol, numbers.Real):
        raise InvalidTypeError(f"atol must be a number >= 0, got {atol!r:.60} ({type(atol).__name__})")
    if not math.isfinite(float(atol)) or atol < 0:
        raise InvalidParameterError(f"atol must be a finite number >= 0, got atol={atol!r}")


def _ncols(A: Any) -> int:
    try:
        return len(A[0])
    except (TypeError, IndexError, KeyError):
        return -1


def mixture(mechanisms: Sequence[Mechanism], weights: Sequence[Any]) -> Mechanism:
    """Mixture ``Σ_j λ_j M_j``: run ``M_j`` with probability ``λ_j`` (closure under mixing, Lin & Kifer Theorem 3.4).

    If every mechanism has the same output labels the outputs are shared and the matrices are summed; otherwise
    the output space is the disjoint union (output ``"j:ω"``), i.e. the mixture also reveals which mechanism ran
    (a post-processing of it forgets that).

    Examples
    --------
    >>> A = Mechanism([[1, 0], [0, 1]], outputs=["y", "n"])
    >>> B = Mechanism([[0, 1], [1, 0]], outputs=["y", "n"])
    >>> mixture([A, B], ["1/4", "3/4"]).matrix.tolist()
    [[Fraction(1, 4), Fraction(3, 4)], [Fraction(3, 4), Fraction(1, 4)]]
    """
    if len(mechanisms) == 0 or len(mechanisms) != len(weights):
        raise InvalidMechanismError(f"mixture needs one weight per mechanism, got {len(mechanisms)} and {len(weights)}")
    for M in mechanisms:
        if not isinstance(M, Mechanism):
            raise InvalidTypeError(f"mixture takes Mechanism objects, got {type(M).__name__}")
    inputs = mechanisms[0].inputs
    for M in mechanisms:
        if M.inputs != inputs:
            raise DomainMismatchError(f"mixture components have different inputs: {list(inputs)} vs {list(M.inputs)}")
    exact = all(M.exact for M in mechanisms) and all(is_exact_scalar(w) for w in weights)
    lam: list[Scalar] = [parse_scalar(w, name="mixture weight", exact=exact) for w in weights]
    if any(w < 0 for w in lam):
        raise InvalidMechanismError(f"mixture weights must be >= 0, got {[str(w) for w in lam]}")
    total = sum(lam)
    if (exact and total != 1) or (not exact and abs(float(total) - 1) > ATOL):
        raise InvalidMechanismError(f"mixture weights must sum to 1, got {total}")
    mats = [M.matrix if exact else M.float_matrix() for M in mechanisms]
    if all(M.outputs == mechanisms[0].outputs for M in mechanisms):
        mat = sum((w * m for w, m in zip(lam, mats)), start=np.zeros_like(mats[0]) if not exact else 0 * mats[0])
        return Mechanism(mat, inputs, mechanisms[0].outputs, exact=exact)
    mat = np.vstack([w * m for w, m in zip(lam, mats)])
    outs = [f"{j}:{o}" for j, M in enumerate(mechanisms) for o in M.outputs]
    return Mechanism(mat, inputs, outs, exact=exact)
