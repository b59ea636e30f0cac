"""The voting rule type :class:`Rule`: a function ``f: {-1, 1}^n → {-1, 1}`` (or real-valued) stored as a truth
table or, for a symmetric rule, by vote count; the size limits of both representations and the constructors behind
the class methods (truth table, callable, values per count, constant).

The standard rules (majority, threshold, dictator, tribes, …) are built in :mod:`privgeom.voting._rules`.

Examples
--------
>>> f = Rule.symmetric([-1, -1, 1, 1])      # majority of three voters, by count
>>> f.is_symmetric, f("110"), f.table().tolist()
(True, 1, [1, 1, 1, -1, 1, -1, -1, -1])
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core import arrays as _arrays
from .._core.limits import register_limit
from .._core.limits import current_limit
from .._core.level import ScalarLike
from .._core.arrays import parse_int, readonly
from .._core.hints import limit_hint
from ..mechanisms._factories import bit_strings
from ._profiles import Profile, count_ones, half, normalise_values, popcounts, profile_index

__all__ = [
    "Rule",
    "check_rule",
    "MAX_TABLE_BITS",
    "MAX_CALLABLE_BITS",
    "MAX_COUNT_VOTERS",
]


#: Largest number of voters for which a truth table is built (``2^26`` entries, the default float limit of
#: privgeom); the check itself follows the current global limits (:func:`_table_bits`).
MAX_TABLE_BITS = int(math.log2(_arrays.MAX_DENSE_ENTRIES))
#: Largest number of voters for which a Python callable is evaluated on every profile.
MAX_CALLABLE_BITS = 20
#: Default largest electorate of a rule stored by vote count (``n + 1`` values; every by-count engine is at least
#: ``O(n)`` in time and memory): the size limit ``count_voters``, read at call time. The ``max_n=`` keyword of the
#: factories overrides it for one call (``--max-n`` or ``--limit count_voters=N`` in the CLI).
MAX_COUNT_VOTERS = 10**7
register_limit(
    "callable_voters",
    globals(),
    "MAX_CALLABLE_BITS",
    "largest number of voters on which a Python callable is tabulated (2^n calls)",
)
register_limit(
    "count_voters",
    globals(),
    "MAX_COUNT_VOTERS",
    "largest electorate of a voting rule stored by vote count (n + 1 values, O(n) work)",
    option="--max-n",
)


def _check_count_size(n: int, max_n: Any, what: str) -> None:
    """Refuse, before allocating, a rule stored by vote count on more than ``max_n`` voters (``None``: the
    ``count_voters`` limit in force)."""
    limit = current_limit("count_voters") if max_n is None else parse_int(max_n, name="max_n", min=1)
    if n > limit:
        raise SizeLimitError(
            f"{what} on n = {n:,} voters stores {n + 1:,} values by vote count and every by-count computation costs at "
            f"least O(n) time and memory (limit {'count_voters' if max_n is None else 'max_n'} = {limit:,}); refused "
            f"before allocating; "
            f"{limit_hint('count_voters', n, keyword='max_n')}"
        )


def check_rule(f: Any) -> "Rule":
    """``f`` itself when it is a :class:`Rule`, else :class:`~privgeom.InvalidTypeError` naming what was given."""
    if not isinstance(f, Rule):
        raise InvalidTypeError(
            f"expected a voting rule (privgeom.voting.Rule, e.g. voting.majority(5)), got {type(f).__name__} {f!r:.60}"
        )
    return f


def _table_bits(exact_objects: bool) -> int:
    """Largest number of voters whose truth table fits the current ``exact_entries``/``dense_entries`` limit."""
    return int(math.log2(current_limit("exact_entries") if exact_objects else current_limit("dense_entries")))


def _check_table_size(n: int, *, exact_objects: bool, what: str) -> None:
    limit_bits = _table_bits(exact_objects)
    if n > limit_bits:
        raise SizeLimitError(
            f"{what} needs a truth table of 2^{n} profiles (limit 2^{limit_bits}); refused before allocating — "
            "symmetric rules (majority, threshold, AND, OR, parity) work by vote count at any n"
        )


class Rule:
    """A function ``f: {-1, 1}^n → R`` on vote profiles; a *voting rule* when its values are ``±1``.

    Build rules with the factories (:func:`~privgeom.voting.majority`, :func:`~privgeom.voting.dictator`,
    :func:`~privgeom.voting.threshold`, …) or the class methods
    :meth:`from_truth_table`, :meth:`from_function`, :meth:`symmetric` and :meth:`constant` rather than directly. A
    rule is immutable; its truth table is computed on first use and cached.

    Attributes
    ----------
    n : int
        Number of voters.
    name : str
        Readable name, e.g. ``"majority(5)"``.
    kind : str
        ``"majority"``, ``"threshold"``, ``"dictator"``, ``"and"``, ``"or"``, ``"parity"``, ``"constant"``,
        ``"weighted"``, ``"tribes"``, ``"symmetric"``, ``"table"``, ``"callable"`` or ``"noisy"``; used to dispatch
        closed forms.
    params : dict
        The parameters of the factory (``theta``, ``i``, ``weights`` …).

    Examples
    --------
    >>> from privgeom.voting import dictator
    >>> f = dictator(3, 2)
    >>> f.kind, f.is_symmetric, f.is_monotone, f("110"), f.params
    ('dictator', False, True, -1, {'i': 2})
    """

    __slots__ = ("_n", "_name", "_kind", "_params", "_counts", "_table", "_builder", "_monotone", "_boolean")

    def __init__(
        self,
        n: int,
        *,
        name: str,
        kind: str,
        params: Mapping[str, Any] | None = None,
        counts: np.ndarray | None = None,
        table: np.ndarray | None = None,
        builder: Callable[[], np.ndarray] | None = None,
        monotone: bool | None = None,
    ) -> None:
        self._n = parse_int(n, name="n", min=1)
        self._name = name
        self._kind = kind
        self._params = dict(params or {})
        if counts is not None and len(counts) != self._n + 1:
            raise InvalidParameterError(
                f"a symmetric rule on {n} voters needs {n + 1} values per count, got {len(counts)}"
            )
        if table is not None and len(table) != 1 << self._n:
            raise InvalidParameterError(f"a truth table on {n} voters needs {1 << self._n} values, got {len(table)}")
        self._counts = None if counts is None else readonly(counts)
        self._table = None if table is None else readonly(table)
        self._builder = builder
        self._monotone = monotone
        self._boolean: bool | None = (
            True if (builder is not None and table is None and counts is None) else None
        )  # builders give ±1

    # ------------------------------------------------------------------------------------------- constructors
    @classmethod
    def from_truth_table(
        cls, values: Sequence[ScalarLike] | Mapping[Any, ScalarLike] | np.ndarray, *, name: str | None = None
    ) -> "Rule":
        """A rule from its ``2^n`` values.

        Parameters
        ----------
        values : sequence or mapping
            A sequence in profile order (``bit_strings(n)``: ``11…1`` first), or a mapping from profiles (bit strings
            or tuples of votes) to values covering every profile. Values ``±1`` give a voting rule; any rational or
            float values give a real-valued function (Fourier analysis, influences and Theorem 3 apply to those too).

        Examples
        --------
        >>> f = Rule.from_truth_table([1, 1, 1, -1])       # OR of two voters
        >>> f.n, f("01"), f("00")
        (2, 1, -1)
        >>> Rule.from_truth_table({"1": 1, "0": -1}).table().tolist()
        [1, -1]
        """
        return _from_truth_table(values, name=name)

    @classmethod
    def from_function(cls, func: Callable[[tuple[int, ...]], ScalarLike], n: int, *, name: str | None = None) -> "Rule":
        """Tabulate a Python callable on every profile (votes as a tuple of ``±1``), for small ``n`` (the limit
        ``callable_voters``).

        Examples
        --------
        >>> Rule.from_function(lambda x: 1 if x[0] == x[1] else -1, 2).table().tolist()
        [1, -1, -1, 1]
        """
        return _from_function(func, n, name=name)

    @classmethod
    def symmetric(cls, values: Iterable[ScalarLike], *, name: str | None = None) -> "Rule":
        """A symmetric rule given by its value for each number ``c = 0..n`` of ``+1`` votes (stored by count).

        Examples
        --------
        >>> Rule.symmetric([-1, 1, -1]).table().tolist()     # 1 iff exactly one of two voters votes +1
        [-1, 1, 1, -1]
        """
        return _symmetric(values, name=name)

    @classmethod
    def constant(cls, n: int, value: int = 1, *, max_n: int | None = None) -> "Rule":
        """The constant rule (Remark 1: ``M_ρ f`` is then 0-differentially private).

        Examples
        --------
        >>> Rule.constant(3, -1).counts.tolist()
        [-1, -1, -1, -1]
        """
        return _constant(n, value, max_n=max_n)

    # ------------------------------------------------------------------------------------------- attributes
    @property
    def n(self) -> int:
        """Number of voters."""
        return self._n

    @property
    def name(self) -> str:
        """Readable name of the rule."""
        return self._name

    @property
    def kind(self) -> str:
        """Family of the rule (dispatch key for closed forms)."""
        return self._kind

    @property
    def params(self) -> dict[str, Any]:
        """Parameters of the factory that built the rule (a copy)."""
        return dict(self._params)

    @property
    def is_symmetric(self) -> bool:
        """True when the rule is stored by vote count (its value depends only on the number of ``+1`` votes)."""
        return self._counts is not None

    @property
    def counts(self) -> np.ndarray | None:
        """Value per number ``c = 0..n`` of ``+1`` votes (read-only), or ``None`` for non-symmetric rules."""
        return self._counts

    def _values(self) -> np.ndarray:
        return self._counts if self._counts is not None else self.table()

    @property
    def exact(self) -> bool:
        """True when every value is rational (integers or Fractions); tables built on demand hold ``±1``."""
        if self._counts is not None:
            return self._counts.dtype != float
        if self._table is not None:
            return self._table.dtype != float
        return True

    @property
    def is_boolean(self) -> bool:
        """True when every value is ``+1`` or ``-1`` (a social choice function)."""
        if self._boolean is None:
            vals = self._values()
            self._boolean = bool(np.all((vals == 1) | (vals == -1)))
        return self._boolean

    @property
    def has_table(self) -> bool:
        """True when the truth table is (or can be) held in memory."""
        if self._table is not None:
            return True
        return self._n <= _table_bits(self._object_values())

    def _object_values(self) -> bool:
        return self._counts is not None and self._counts.dtype == object

    def table(self) -> np.ndarray:
        """The ``2^n`` values in profile order (``11…1`` first), read-only; built on first use.

        Raises
        ------
        SizeLimitError
            When ``2^n`` values would not fit in memory.
        """
        if self._table is None:
            _check_table_size(self._n, exact_objects=self._object_values(), what=self._name)
            if self._counts is not None:
                built = self._counts[self._n - popcounts(self._n)]
            elif self._builder is not None:
                built = self._builder()
            else:  # pragma: no cover - every factory gives one of the three
                raise InvalidParameterError(f"{self._name} has neither a table nor counts")
            self._table = readonly(np.asarray(built))
        return self._table

    def cube(self) -> np.ndarray:
        """The truth table reshaped to ``(2,)*n``: axis ``i`` is voter ``i``, index 0 is vote ``+1``."""
        return self.table().reshape((2,) * self._n)

    @property
    def is_monotone(self) -> bool:
        """True when changing any vote from ``-1`` to ``+1`` never lowers the value."""
        if self._monotone is None:
            if self._counts is not None:
                self._monotone = bool(np.all(self._counts[1:] >= self._counts[:-1]))
            else:
                cube = self.cube()
                self._monotone = all(bool(np.all(half(cube, i, 0) >= half(cube, i, 1))) for i in range(self._n))
        return self._monotone

    def breakpoints(self) -> list[int]:
        """For symmetric rules: the counts ``b`` with ``value(b) ≠ value(b-1)`` (empty for a constant)."""
        if self._counts is None:
            raise InvalidParameterError(f"{self._name} is not stored by vote count")
        c = self._counts
        return [int(b) for b in np.nonzero(c[1:] != c[:-1])[0] + 1]

    def labels(self) -> list[str]:
        """The profiles as bit strings, in order (``bit_strings(n)``)."""
        return bit_strings(self._n)

    def __call__(self, profile: Profile) -> Any:
        """Value on one profile (bit string such as ``"110"`` or votes such as ``(1, 1, -1)``)."""
        if self._counts is not None:  # only the number of +1 votes matters
            value = self._counts[count_ones(profile, self._n)]
        else:
            value = self.table()[profile_index(profile, self._n)]
        return value.item() if isinstance(value, np.generic) else value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule):
            return NotImplemented
        if self._n != other._n:
            return False
        if self._counts is not None and other._counts is not None:
            return bool(np.all(self._counts == other._counts))
        return bool(np.all(self.table() == other.table()))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Rule({self._name})"


def _sym(n: int, values: Sequence[int] | np.ndarray, *, name: str, kind: str, **params: Any) -> Rule:
    return Rule(n, name=name, kind=kind, params=params, counts=np.asarray(values, dtype=np.int64))


def _pm1(mask: np.ndarray) -> np.ndarray:
    """``+1`` where ``mask`` holds, ``-1`` elsewhere (int64, built without a Python loop)."""
    return np.where(mask, 1, -1).astype(np.int64)


def _constant(n: int, value: int = 1, *, max_n: int | None = None) -> Rule:
    """:meth:`Rule.constant`."""
    n = parse_int(n, name="n", min=1)
    if value not in (-1, 1):
        raise InvalidParameterError(f"a constant voting rule takes the value 1 or -1, got {value!r}")
    _check_count_size(n, max_n, f"constant({n}, {value})")
    return _sym(n, np.full(n + 1, value, dtype=np.int64), name=f"constant({n}, {value})", kind="constant", value=value)


def _symmetric(values: Iterable[Any], *, name: str | None = None) -> Rule:
    """:meth:`Rule.symmetric`."""
    vals = normalise_values(values, name="values by count")
    n = len(vals) - 1
    if n < 1:
        raise InvalidParameterError("a symmetric rule needs n + 1 >= 2 values (one per count of +1 votes)")
    return Rule(n, name=name or f"symmetric({n})", kind="symmetric", counts=vals)


def _from_truth_table(values: Any, *, name: str | None = None) -> Rule:
    """:meth:`Rule.from_truth_table`."""
    if isinstance(values, Mapping):
        items = list(values.items())
        if not items:
            raise InvalidParameterError("an empty truth table")
        first = items[0][0]
        n = len(first) if isinstance(first, str) else len(tuple(first))
        if len(items) != 1 << n:
            raise InvalidParameterError(f"a truth table on {n} voters needs {1 << n} profiles, got {len(items)}")
        _check_table_size(n, exact_objects=True, what="this truth table")
        ordered: list[Any] = [None] * (1 << n)
        for key, v in items:
            ordered[profile_index(key, n)] = v
        if any(v is None for v in ordered):
            raise InvalidParameterError("the truth table does not cover every profile")
        seq: Any = ordered
    else:
        seq = values
    arr = np.asarray(seq) if not isinstance(seq, np.ndarray) else seq
    if arr.ndim != 1:
        raise InvalidParameterError(f"a truth table is a flat sequence of 2^n values, got shape {arr.shape}")
    size = arr.shape[0]
    n = size.bit_length() - 1
    if size < 2 or 1 << n != size:
        raise InvalidParameterError(f"a truth table needs 2^n values (n >= 1), got {size}")
    _check_table_size(n, exact_objects=False, what="this truth table")
    if arr.dtype.kind in "iu":
        table = arr.astype(np.int64)
    elif arr.dtype.kind == "f":
        table = arr.astype(float)
        if not np.all(np.isfinite(table)):
            raise InvalidParameterError("truth-table values must be finite")
    elif arr.dtype.kind == "b":
        raise InvalidTypeError("truth-table values must be numbers (±1 for a voting rule), not booleans")
    else:
        table = normalise_values(arr.tolist(), name="truth-table value")
    return Rule(n, name=name or f"table({n})", kind="table", table=table)


def _from_function(func: Callable[[tuple[int, ...]], Any], n: int, *, name: str | None = None) -> Rule:
    """:meth:`Rule.from_function`."""
    n = parse_int(n, name="n", min=1)
    if n > current_limit("callable_voters"):
        raise SizeLimitError(
            f"tabulating a callable on 2^{n} profiles is refused before calling it (limit "
            f"callable_voters = {current_limit('callable_voters'):,} voters); "
            f"{limit_hint('callable_voters', n)}"
        )
    profiles = [tuple(1 if ch == "1" else -1 for ch in s) for s in bit_strings(n)]
    table = normalise_values((func(x) for x in profiles), name="value of the callable")
    return Rule(n, name=name or str(getattr(func, "__name__", "callable")), kind="callable", table=table)
