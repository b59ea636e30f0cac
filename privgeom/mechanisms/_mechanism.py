"""The :class:`Mechanism`: an immutable, validated column-stochastic matrix.

Notation of Lin & Kifer's row-cone paper (``docs/theory.md`` §1): columns are the possible datasets
``D_1..D_N`` (the *inputs*), rows are the outputs ``ω``, and ``M[ω, i] = P(M(D_i) = ω)``.
"""

from __future__ import annotations

import math
from pathlib import Path
from collections.abc import Mapping
from typing import Any, ClassVar, Iterable, Sequence

import numpy as np

from .._core.domain import Domain
from .._core.errors import DomainMismatchError, FormatError, InvalidMechanismError, InvalidTypeError
from .._core.io import read_text, write_text
from .._core.level import ScalarLike
from .._core.arrays import ATOL, check_dense_size, MatrixLike, readonly
from .._core.columns import fit_int_array, fits_int64, int_columns, int_columns_to_fractions, max_abs_int, widen
from .._core.numbers import is_exact_scalar, parse_scalar, Scalar, scalar_to_json
from .._core.numbers import number_text
from .._core.results import Serializable
from ._checks import (
    JSON_SCHEMA,
    as_fraction_array,
    check_atol,
    check_json_document,
    check_labels,
    parse_matrix,
    validated_floats,
    validated_ints,
)
from ._intmat import IntColumns, canonical_int_columns, kron_int_columns

__all__ = ["Mechanism", "mixture"]


class Mechanism(Serializable):
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

    Attributes
    ----------
    JSON_SCHEMA : dict
        The JSON Schema of a mechanism file, what :meth:`to_dict` writes and :meth:`from_json` reads (a class
        attribute; validate documents with any JSON Schema validator).

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
    >>> set(M.to_dict()) <= set(Mechanism.JSON_SCHEMA["properties"])
    True
    >>> M.post_process([[1, 1]]).matrix.tolist()
    [[Fraction(1, 1), Fraction(1, 1)]]
    >>> M.product(M).inputs
    ('11', '10', '01', '00')
    """

    __slots__ = ("_matrix", "_ints", "_factors", "_shape", "_inputs", "_outputs", "_exact", "_domain")
    #: The JSON Schema of a mechanism file (what :meth:`to_dict` writes, :meth:`from_json` reads).
    JSON_SCHEMA: ClassVar[dict[str, Any]] = JSON_SCHEMA
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
        check_atol(atol)
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
        parsed = parse_matrix(matrix, exact)
        arr, ints, (n_out, n_in) = parsed.entries, parsed.ints, parsed.shape
        self._exact = parsed.exact
        if self._exact:
            if ints is None:
                num, den = int_columns(arr)
                ints = IntColumns(num, den)
                cached: np.ndarray | None = arr
            else:
                cached = None
            ints = validated_ints(ints)
            self._set_ints(ints, inputs, outputs, domain, cached)
            return
        self._ints = None
        self._factors = None
        self._matrix = readonly(validated_floats(arr, atol))
        self._shape = (n_out, n_in)
        self._set_labels(inputs, outputs, domain)

    def _set_labels(self, inputs: Any, outputs: Any, domain: Domain | None) -> None:
        n_out, n_in = self._shape
        if isinstance(inputs, Domain):
            domain, inputs = inputs, inputs.labels
        self._inputs = check_labels(inputs, n_in, "input", "d")
        self._outputs = check_labels(outputs, n_out, "output", "o")
        self._domain = domain

    def _set_ints(
        self, ints: IntColumns, inputs: Any, outputs: Any, domain: Domain | None, cached: np.ndarray | None = None
    ) -> None:
        self._exact = True
        self._ints = ints
        self._factors = None
        self._shape = ints.shape
        self._matrix = None if cached is None else readonly(as_fraction_array(cached))
        self._set_labels(inputs, outputs, domain)

    @classmethod
    def _from_ints(
        cls, num: np.ndarray, den: np.ndarray, inputs: Any, outputs: Any, *, validate: bool = True, reduced: bool = True
    ) -> "Mechanism":
        """An exact mechanism straight from integers ``num[:, i] / den[i]`` (reduced to least common denominators
        when ``reduced``, else kept over the given denominators; validated unless the caller guarantees a
        column-stochastic matrix), without building a Fraction."""
        check_dense_size(num.shape[0], num.shape[1], exact=True, what="this mechanism")
        if not reduced:
            ints = IntColumns(readonly(fit_int_array(np.asarray(num))), readonly(fit_int_array(np.asarray(den))))
        else:
            ints = canonical_int_columns(num, den)
        M = cls.__new__(cls)
        M._set_ints(validated_ints(ints) if validate else ints, inputs, outputs, None)
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
            check_dense_size(
                *self._shape,
                exact=True,
                what=f"the dense matrix of this {self._shape[0]} x {self._shape[1]} factored mechanism",
            )
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
        check_dense_size(
            *self._shape,
            exact=False,
            what=f"the dense matrix of this {self._shape[0]} x {self._shape[1]} factored mechanism",
        )
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
            return readonly(int_columns_to_fractions(C.numerators[o : o + 1], C.denominators)[0])
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
            return readonly(int_columns_to_fractions(C.numerators[:, i : i + 1], C.denominators[i : i + 1])[:, 0])
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
            an = (
                a.numerators * (L // a.denominators)
                if fits_int64(L, a.max_numerator())
                else widen(a.numerators)[0] * (L // widen(a.denominators)[0])
            )
            an, mn, md = an, m.numerators, m.denominators
            if not (
                fits_int64(max(1, self.n_outputs), max_abs_int(an), m.max_numerator())
                and fits_int64(L, m.max_denominator())
            ):
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
        check_dense_size(
            self.n_outputs * other.n_outputs, self.n_inputs * other.n_inputs, exact=exact, what="this product"
        )

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
            M._set_ints(
                IntColumns(readonly(C.numerators[:, idx]), readonly(C.denominators[idx])), labels, self._outputs, None
            )
            return M
        return Mechanism(self.matrix[:, idx], labels, self._outputs, exact=False)

    def drop_zero_rows(self) -> "Mechanism":
        """The same mechanism without outputs that have probability 0 on every dataset."""
        if self._exact:
            C = self.int_columns
            keep = np.flatnonzero((C.numerators != 0).any(axis=1)).tolist()
            M = Mechanism.__new__(Mechanism)
            M._set_ints(
                IntColumns(readonly(C.numerators[keep]), C.denominators),
                self._kept_inputs(),
                [self._outputs[i] for i in keep],
                None,
            )
            return M
        keep = [i for i in range(self.n_outputs) if any(v != 0 for v in self.matrix[i])]
        return Mechanism(self.matrix[keep], self._kept_inputs(), [self._outputs[i] for i in keep], exact=False)

    # ------------------------------------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """JSON data following :attr:`Mechanism.JSON_SCHEMA` (exact entries as strings like ``"3/4"``);
        :meth:`to_json` gives it as text.

        Examples
        --------
        >>> Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["1", "0"]).to_dict()["matrix"]
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
    def from_dict(cls, data: Mapping[str, Any]) -> "Mechanism":
        """Build a mechanism from JSON data following :attr:`Mechanism.JSON_SCHEMA` (what
        :meth:`to_dict` writes); :meth:`from_json` reads the same as text (or, as before 0.2, as a dict).

        Examples
        --------
        >>> M = Mechanism([["1/3", 1], ["2/3", 0]], inputs=["a", "b"])
        >>> Mechanism.from_dict(M.to_dict()) == M, Mechanism.from_json(M.to_json()) == M
        (True, True)
        """
        checked = check_json_document(dict(data) if isinstance(data, Mapping) else data)
        return cls(checked["matrix"], checked.get("inputs"), checked.get("outputs"), exact=checked.get("exact"))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | Mapping[str, Any]) -> "Mechanism":
        """Build a mechanism from JSON text (or its dict) following :attr:`Mechanism.JSON_SCHEMA`;
        a document that does not follow it is a :class:`~privgeom.FormatError` naming what is wrong."""
        return cls.from_dict(text) if isinstance(text, Mapping) else cls.from_dict(check_json_document(text))

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path`` (an unwritable path is an InvalidParameterError naming it)."""
        write_text(path, self.to_json(indent=1) + "\n", what="mechanism file")

    @classmethod
    def load(cls, path: str | Path) -> "Mechanism":
        """Read a mechanism saved by :meth:`save` (or written by hand following
        :attr:`Mechanism.JSON_SCHEMA`).

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
