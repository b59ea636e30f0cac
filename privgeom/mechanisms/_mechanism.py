"""The :class:`Mechanism`: an immutable, validated column-stochastic matrix.

Notation of Lin & Kifer's row-cone paper (``docs/theory.md`` §1): columns are the possible datasets
``D_1..D_N`` (the *inputs*), rows are the outputs ``ω``, and ``M[ω, i] = P(M(D_i) = ω)``.
"""

from __future__ import annotations

import json
import math
import numbers
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from .._core.domain import Domain
from .._core.errors import (
    DomainMismatchError,
    FormatError,
    InvalidMechanismError,
    InvalidParameterError,
    InvalidTypeError,
)
from .._core.io import parse_json, read_text, write_text
from .._core.level import ScalarLike
from .._core.numeric import (
    MatrixLike,
    ATOL,
    Scalar,
    check_dense_size,
    is_exact_scalar,
    parse_scalar,
    readonly,
    scalar_to_json,
    fit_int_array,
    fits_int64,
    int_columns,
    int_columns_to_fractions,
    max_abs_int,
    to_exact_array,
    widen,
)
from .._core.numbers import number_text
from ._intmat import IntColumns, canonical_int_columns, kron_int_columns

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

    __slots__ = ("_matrix", "_ints", "_factors", "_shape", "_inputs", "_outputs", "_exact", "_domain")
    _domain: Domain | None
    _matrix: np.ndarray | None
    _ints: IntColumns | None
    _factors: tuple["Mechanism", ...] | None
    _shape: tuple[int, int]

    def __init__(
        self,
        matrix: MatrixLike | Mechanism,
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
            if exact and matrix.exact:
                if matrix._ints is None and matrix._factors is not None:  # stays factored
                    self._exact, self._ints, self._matrix = True, None, None
                    self._factors, self._shape = matrix._factors, matrix._shape
                    self._set_labels(inputs, outputs, domain)
                    return
                self._set_ints(matrix.int_columns, inputs, outputs, domain, matrix._matrix)
                return
            matrix = matrix.matrix
        ints: IntColumns | None = None
        if isinstance(matrix, np.ndarray) and matrix.ndim == 2 and matrix.dtype.kind in "iuf":
            n_out, n_in = matrix.shape
            if n_out == 0 or n_in == 0:
                raise InvalidMechanismError(f"a mechanism matrix cannot be empty, got shape {matrix.shape}")
            if exact is None:
                exact = matrix.dtype.kind in "iu"
            check_dense_size(n_out, n_in, exact=bool(exact), what="this mechanism")
            if exact and matrix.dtype.kind in "iu":  # integers: numerators over the denominator 1, no Fractions
                ints = IntColumns(matrix.astype(object if matrix.dtype == np.uint64 else np.int64),
                                  np.ones(n_in, dtype=np.int64))
                arr = matrix
            else:
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
                    arr = _exact_entries(flat).reshape(n_out, n_in)
                else:
                    arr = np.array(
                        [[float(parse_scalar(v, name="matrix entry", exact=False)) for v in row] for row in rows]
                    )
            except InvalidParameterError as err:  # NaN/inf entries: an invalid mechanism, not a bad parameter
                raise InvalidMechanismError(str(err)) from None
        self._exact = bool(exact)
        if self._exact:
            if ints is None:
                num, den = int_columns(arr)
                ints = IntColumns(num, den)
                cached: np.ndarray | None = arr
            else:
                cached = None
            ints = _validated_ints(ints)
            self._set_ints(ints, inputs, outputs, domain, cached)
            return
        self._ints = None
        self._factors = None
        self._matrix = readonly(self._validate(arr, atol))
        self._shape = (n_out, n_in)
        self._set_labels(inputs, outputs, domain)

    def _set_labels(self, inputs: Any, outputs: Any, domain: Domain | None) -> None:
        n_out, n_in = self._shape
        if isinstance(inputs, Domain):
            domain, inputs = inputs, inputs.labels
        self._inputs = _labels(inputs, n_in, "input", "d")
        self._outputs = _labels(outputs, n_out, "output", "o")
        self._domain = domain

    def _set_ints(self, ints: IntColumns, inputs: Any, outputs: Any, domain: Domain | None,
                  cached: np.ndarray | None = None) -> None:
        self._exact = True
        self._ints = ints
        self._factors = None
        self._shape = ints.shape
        self._matrix = None if cached is None else readonly(_as_fraction_array(cached))
        self._set_labels(inputs, outputs, domain)

    @classmethod
    def _from_ints(cls, num: np.ndarray, den: np.ndarray, inputs: Any, outputs: Any, *, validate: bool = True,
                   reduced: bool = True) -> "Mechanism":
        """An exact mechanism straight from integers ``num[:, i] / den[i]`` (reduced to least common denominators
        when ``reduced``, else kept over the given denominators; validated unless the caller guarantees a
        column-stochastic matrix), without building a Fraction."""
        check_dense_size(num.shape[0], num.shape[1], exact=True, what="this mechanism")
        if not reduced:
            ints = IntColumns(readonly(fit_int_array(np.asarray(num))), readonly(fit_int_array(np.asarray(den))))
        else:
            ints = canonical_int_columns(num, den)
        M = cls.__new__(cls)
        M._set_ints(_validated_ints(ints) if validate else ints, inputs, outputs, None)
        return M

    @classmethod
    def _from_factors(cls, factors: Sequence["Mechanism"], inputs: Any, outputs: Any) -> "Mechanism":
        """The Kronecker product of ``factors`` kept factored: its dense matrix is built on first request (and only
        then refused by the dense size limits). Rows, ε and δ over the product's Hamming relation are computed from
        the factors (``docs/theory.md`` §7, "Factored mechanisms")."""
        factors = tuple(factors)
        exact = all(F.exact for F in factors)
        if not exact:
            factors = tuple(F.to_float() for F in factors)
        M = cls.__new__(cls)
        M._exact = exact
        M._ints = None
        M._matrix = None
        M._factors = factors
        M._shape = (math.prod(F.n_outputs for F in factors), math.prod(F.n_inputs for F in factors))
        M._set_labels(inputs, outputs, None)
        return M

    def _validate(self, arr: np.ndarray, atol: float) -> np.ndarray:
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

    # ------------------------------------------------------------------------------------------------ accessors
    @property
    def matrix(self) -> np.ndarray:
        """The read-only matrix (object array of Fractions in exact mode, float64 otherwise).

        In exact mode it is built from :attr:`int_columns` on first access and cached; the exact kernels work on
        :attr:`int_columns` and never need it. A factored mechanism (:attr:`factors`) builds its dense matrix here,
        refused beyond the dense size limits.
        """
        if self._matrix is None:
            if self._exact:
                self._matrix = readonly(self.int_columns.fractions())
            else:
                self._matrix = readonly(self._dense_float())
        return self._matrix

    @property
    def int_columns(self) -> IntColumns:
        """Exact mode: the matrix as integers, ``matrix[ω, i] == numerators[ω, i] / denominators[i]``
        (:class:`~privgeom.mechanisms._intmat.IntColumns`; ``int64`` when the numbers fit, Python ints otherwise).

        Raises :class:`~privgeom.InvalidMechanismError` for a float mechanism.

        Examples
        --------
        >>> M = Mechanism([["3/4", "1/3"], ["1/4", "2/3"]])
        >>> M.int_columns.numerators.tolist(), M.int_columns.denominators.tolist()
        ([[3, 1], [1, 2]], [4, 3])
        """
        if not self._exact:
            raise InvalidMechanismError("int_columns needs an exact mechanism; this one is float (use to_exact())")
        if self._ints is None:
            assert self._factors is not None
            check_dense_size(*self._shape, exact=True, what=f"the dense matrix of this {self._shape[0]} x "
                                                            f"{self._shape[1]} factored mechanism")
            ints = self._factors[0].int_columns
            for F in self._factors[1:]:
                ints = kron_int_columns(ints, F.int_columns)
            self._ints = ints
        return self._ints

    @property
    def factors(self) -> tuple["Mechanism", ...] | None:
        """The Kronecker factors of a mechanism kept factored (``randomized_response``, ``frapp``), else None.

        The mechanism is ``factors[0] ⊗ factors[1] ⊗ …``; its inputs and outputs are the concatenated labels.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> M = randomized_response(12, "3/4")
        >>> len(M.factors), M.shape, [str(v) for v in M.row(0)[:3]]
        (12, (4096, 4096), ['531441/16777216', '177147/16777216', '177147/16777216'])
        """
        return self._factors

    def _dense_float(self) -> np.ndarray:
        assert self._factors is not None
        check_dense_size(*self._shape, exact=False, what=f"the dense matrix of this {self._shape[0]} x "
                                                         f"{self._shape[1]} factored mechanism")
        mat = self._factors[0].float_matrix()
        for F in self._factors[1:]:
            mat = np.kron(mat, F.float_matrix())
        return mat

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
        return self._shape

    @property
    def n_inputs(self) -> int:
        """Number of datasets."""
        return self._shape[1]

    @property
    def n_outputs(self) -> int:
        """Number of outputs."""
        return self._shape[0]

    def row(self, output: int | str) -> np.ndarray:
        """The row of one output (by index or label), as a read-only array over the inputs.

        A factored mechanism computes it as the Kronecker product of its factors' rows (no dense matrix).
        """
        o = self._index(output, self._outputs, "output")
        if self._matrix is None and self._factors is not None:
            parts = _factor_indices(o, [F.n_outputs for F in self._factors])
            row = self._factors[0].row(parts[0])
            for F, i in zip(self._factors[1:], parts[1:]):
                row = np.kron(row, F.row(i))
            return readonly(row)
        if self._matrix is None:
            C = self.int_columns
            return readonly(int_columns_to_fractions(C.numerators[o:o + 1], C.denominators)[0])
        return self._matrix[o]

    def column(self, dataset: int | str) -> np.ndarray:
        """The output distribution on one dataset (by index or label)."""
        i = self._index(dataset, self._inputs, "input")
        if self._matrix is None and self._factors is not None:
            parts = _factor_indices(i, [F.n_inputs for F in self._factors])
            col = self._factors[0].column(parts[0])
            for F, j in zip(self._factors[1:], parts[1:]):
                col = np.kron(col, F.column(j))
            return readonly(col)
        if self._matrix is None:
            C = self.int_columns
            return readonly(int_columns_to_fractions(C.numerators[:, i:i + 1], C.denominators[i:i + 1])[:, 0])
        return self._matrix[:, i]

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
        if self._ints is None and self._factors is not None:
            return Mechanism._from_factors([F.to_float() for F in self._factors], self._kept_inputs(), self._outputs)
        return Mechanism(self.float_matrix(), self._kept_inputs(), self._outputs, exact=False)

    def to_exact(self) -> "Mechanism":
        """The same mechanism in exact mode (floats converted bit-exactly; may fail the exact column-sum check)."""
        return self if self._exact else Mechanism(self.matrix.tolist(), self._kept_inputs(), self._outputs, exact=True)

    def float_matrix(self) -> np.ndarray:
        """The matrix as float64 (a copy in exact mode)."""
        return self.int_columns.floats() if self._exact else self.matrix

    # ------------------------------------------------------------------------------------------------ operations
    def _kept_inputs(self) -> Domain | tuple[str, ...]:
        """The inputs for a mechanism on the same datasets: the Domain when known (operations that keep the columns
        keep the structure, so ``pg.delta(M.to_float(), "replace-one", eps)`` still applies), else the labels."""
        return self._domain if self._domain is not None else self._inputs

    def post_process(self, A: MatrixLike | Mechanism, outputs: Iterable[Any] | None = None) -> "Mechanism":
        """Post-processing ``A ∘ M = A @ M`` with ``A`` column-stochastic (columns indexed by this mechanism's outputs).

        The result is exact when both ``A`` and ``M`` are exact (computed on integers: with ``L`` the least common
        multiple of ``A``'s column denominators, ``(A @ M)[r, i] = Σ_ω A'[r, ω] num[ω, i] / (L den[i])``).

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
        outs = A.outputs if outputs is None else outputs
        if A.exact and self._exact:
            a, m = A.int_columns, self.int_columns
            L = math.lcm(*(int(d) for d in a.denominators))
            an = a.numerators * (L // a.denominators) if fits_int64(L, a.max_numerator()) else \
                widen(a.numerators)[0] * (L // widen(a.denominators)[0])
            an, mn, md = an, m.numerators, m.denominators
            if not (fits_int64(max(1, self.n_outputs), max_abs_int(an), m.max_numerator()) and fits_int64(L, m.max_denominator())):
                an, mn, md = widen(an, mn, md)
            return Mechanism._from_ints(an.dot(mn), md * L, self._kept_inputs(), outs)
        return Mechanism(A.float_matrix().dot(self.float_matrix()), self._kept_inputs(), outs, exact=False)

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
        exact = self._exact and other._exact
        check_dense_size(self.n_outputs * other.n_outputs, self.n_inputs * other.n_inputs, exact=exact,
                         what="this product")

        def cat(x: tuple[str, ...], y: tuple[str, ...]) -> list[str]:
            labels = [u + sep + v for u in x for v in y]
            return labels if len(set(labels)) == len(labels) else [u + "," + v for u in x for v in y]

        ins, outs = cat(self._inputs, other._inputs), cat(self._outputs, other._outputs)
        if exact:
            C = kron_int_columns(self.int_columns, other.int_columns)
            M = Mechanism.__new__(Mechanism)
            M._set_ints(C, ins, outs, None)
            return M
        return Mechanism(np.kron(self.float_matrix(), other.float_matrix()), ins, outs, exact=False)

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
        labels = [self._inputs[i] for i in idx]
        if self._exact:
            C = self.int_columns
            M = Mechanism.__new__(Mechanism)
            M._set_ints(IntColumns(readonly(C.numerators[:, idx]), readonly(C.denominators[idx])), labels,
                        self._outputs, None)
            return M
        return Mechanism(self.matrix[:, idx], labels, self._outputs, exact=False)

    def drop_zero_rows(self) -> "Mechanism":
        """The same mechanism without outputs that have probability 0 on every dataset."""
        if self._exact:
            C = self.int_columns
            keep = np.flatnonzero((C.numerators != 0).any(axis=1)).tolist()
            M = Mechanism.__new__(Mechanism)
            M._set_ints(IntColumns(readonly(C.numerators[keep]), C.denominators), self._kept_inputs(),
                        [self._outputs[i] for i in keep], None)
            return M
        keep = [i for i in range(self.n_outputs) if any(v != 0 for v in self.matrix[i])]
        return Mechanism(self.matrix[keep], self._kept_inputs(), [self._outputs[i] for i in keep], exact=False)

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
            "matrix": [[scalar_to_json(v) for v in row] for row in self.matrix],
        }

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | dict[str, Any]) -> "Mechanism":
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
            and self._same_entries(other)
        )

    def _same_entries(self, other: "Mechanism") -> bool:
        if self._exact:
            a, b = self.int_columns, other.int_columns
            if np.array_equal(a.denominators, b.denominators):
                return bool(np.array_equal(a.numerators, b.numerators))
            an, ad, bn, bd = widen(a.numerators, a.denominators, b.numerators, b.denominators)
            return bool((an * bd == bn * ad).all())  # cross-multiplication: denominators need not be the least
        return bool(np.all(self.matrix == other.matrix))

    __hash__ = None  # type: ignore[assignment]

    def _repr_html_(self) -> str:
        from .._core.display import to_html

        return to_html(self)

    def __repr__(self) -> str:
        mode = "exact" if self._exact else "float"
        return f"Mechanism({self.n_outputs} outputs x {self.n_inputs} inputs, {mode}, inputs={list(self._inputs)[:6]}{'...' if self.n_inputs > 6 else ''})"

    def __str__(self) -> str:
        head = "        " + " ".join(f"{x:>8}" for x in self._inputs)
        lines = [head]
        for label, row in zip(self._outputs, self.matrix):
            cells = " ".join(f"{number_text(v if self._exact else float(v), digits=4):>8}" for v in row)
            lines.append(f"{label:>7} {cells}")
        return "\n".join(lines)


def _check_atol(atol: Any) -> None:
    """``atol`` must be a finite real number >= 0 (checked before the matrix, so the message names ``atol``)."""
    if isinstance(atol, (bool, np.bool_)) or not isinstance(atol, numbers.Real):
        raise InvalidTypeError(f"atol must be a number >= 0, got {atol!r:.60} ({type(atol).__name__})")
    if not math.isfinite(float(atol)) or atol < 0:
        raise InvalidParameterError(f"atol must be a finite number >= 0, got atol={atol!r}")


def _exact_entries(flat: list[Any]) -> np.ndarray:
    """The entries as a 1-D object array of Fractions/ints: ints and Fractions pass as they are (one C-speed type
    pass), strings and other rationals through :func:`~privgeom._core.numeric.parse_scalar`."""
    out = np.empty(len(flat), dtype=object)
    if set(map(type, flat)) <= {int, Fraction}:
        out[:] = flat
    else:
        out[:] = [v if type(v) in (int, Fraction) else parse_scalar(v, name="matrix entry", exact=True) for v in flat]
    return out


def _as_fraction_array(arr: np.ndarray) -> np.ndarray:
    """An exact matrix as an object array of Fractions (ints and numpy integers become Fractions)."""
    if arr.dtype == object and all(type(v) is Fraction for v in arr.ravel()):
        return arr
    out = np.empty(arr.shape, dtype=object)
    out.ravel()[:] = [Fraction(int(v)) if not isinstance(v, Fraction) else v for v in arr.ravel()]
    return out


def _validated_ints(ints: IntColumns) -> IntColumns:
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
        raise InvalidMechanismError(f"column {j} sums to {Fraction(int(sums[j]), int(den[j]))}, not 1: "
                                    "a mechanism must be column-stochastic")
    return IntColumns(readonly(ints.numerators), readonly(ints.denominators))


def _factor_indices(index: int, sizes: Sequence[int]) -> list[int]:
    """Mixed-radix digits of ``index`` (first factor most significant), as in ``np.kron``."""
    out = []
    for n in reversed(sizes):
        index, r = divmod(index, n)
        out.append(r)
    return out[::-1]


def _ncols(A: Any) -> int:
    try:
        return len(A[0])
    except (TypeError, IndexError, KeyError):
        return -1


def mixture(mechanisms: Sequence[Mechanism], weights: Sequence[ScalarLike]) -> Mechanism:
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
