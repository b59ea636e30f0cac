"""Two-candidate voting rules ``f: {-1, 1}^n → {-1, 1}`` (and real-valued functions on the cube).

Votes are ``+1`` / ``-1``; a *profile* is one vote per voter, ordered like the datasets of
:func:`privgeom.randomized_response` (``11…1`` first; :mod:`privgeom.voting._profiles`).

Two representations:

- a **truth table** (``2^n`` values), for any rule while ``2^n`` fits in memory (:class:`~privgeom.SizeLimitError`
  beyond; tables of named rules such as a dictator or a weighted majority are built only when needed);
- for **symmetric** rules (the value depends only on the number ``c`` of ``+1`` votes), the ``n+1`` values per count,
  so that electorates of ``10^5`` voters and more are handled without any table.

The standard rules follow Appendix B of the referendum paper (Evren & Vepakomma) and O'Donnell's *Analysis of
Boolean Functions*.

Examples
--------
>>> f = majority(3)
>>> f.is_symmetric, f.counts.tolist(), f("110"), f((-1, -1, 1))
(True, [-1, -1, 1, 1], 1, -1)
>>> f.table().tolist()
[1, 1, 1, -1, 1, -1, -1, -1]
>>> threshold(4, 0).counts.tolist()   # ties go to -1
[-1, -1, -1, 1, 1]
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core import arrays as _arrays
from .._core.limits import register_limit
from .._core.limits import current_limit
from .._core.level import ScalarLike
from .._core.arrays import parse_int, readonly
from .._core.hints import limit_hint
from .._core.numbers import is_exact_scalar, parse_scalar
from ..mechanisms._factories import bit_strings
from ._profiles import Profile, count_ones, half, normalise_values, popcounts, profile_index

__all__ = [
    "Rule",
    "majority",
    "dictator",
    "conjunction",
    "disjunction",
    "threshold",
    "tribes",
    "parity",
    "random_rule",
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

    Build rules with the factories (:func:`majority`, :func:`dictator`, :func:`threshold`, …) or the class methods
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


# ------------------------------------------------------------------------------------------- factories
def _sym(n: int, values: Sequence[int] | np.ndarray, *, name: str, kind: str, **params: Any) -> Rule:
    return Rule(n, name=name, kind=kind, params=params, counts=np.asarray(values, dtype=np.int64))


def _pm1(mask: np.ndarray) -> np.ndarray:
    """``+1`` where ``mask`` holds, ``-1`` elsewhere (int64, built without a Python loop)."""
    return np.where(mask, 1, -1).astype(np.int64)


def majority(
    n: int | None = None,
    *,
    weights: Iterable[ScalarLike] | None = None,
    quota: ScalarLike | None = None,
    max_n: int | None = None,
) -> Rule:
    """``Maj_n(x) = sign(x_1 + … + x_n)`` for odd ``n`` (Appendix B of the paper); with ``weights``, the weighted
    voting game ``[quota; w_1, …, w_n]``: ``1`` iff the voters voting ``1`` hold weight ``≥ quota``.

    Without ``quota`` a weighted majority needs *strictly more than half* of the total weight. Equal weights give a
    symmetric rule (stored by count). Rational weights are compared exactly. ``n``, when given with ``weights``,
    must be their number.

    Examples
    --------
    >>> majority(5).counts.tolist()
    [-1, -1, -1, 1, 1, 1]
    >>> f = majority(weights=[2, 1, 1], quota=3)
    >>> f("110"), f("011"), f.is_symmetric, f.name
    (1, -1, False, 'weighted([2, 1, 1], quota=3)')
    >>> majority(weights=[1, 1, 1]).counts.tolist()
    [-1, -1, 1, 1]
    """
    if weights is not None:
        return _with_n(_weighted_majority(weights, quota), n)
    if quota is not None:
        raise InvalidParameterError(
            f"quota = {quota!r} is the winning weight of a weighted majority: give weights= too"
        )
    if n is None:
        raise InvalidParameterError("majority needs the number of voters n (odd), or weights=")
    n = parse_int(n, name="n", min=1)
    if n % 2 == 0:
        raise InvalidParameterError(
            f"majority needs an odd number of voters, got n = {n}; use threshold({n}, 0) (ties to -1)"
        )
    _check_count_size(n, max_n, f"majority({n})")
    c = np.arange(n + 1, dtype=np.int64)
    return _sym(n, _pm1(2 * c > n), name=f"majority({n})", kind="majority")


def threshold(
    n: int | None = None,
    theta: ScalarLike = 0,
    *,
    weights: Iterable[ScalarLike] | None = None,
    max_n: int | None = None,
) -> Rule:
    """``f_θ(x) = 1`` if ``x_1 + … + x_n > θ`` else ``-1`` (Section 6.1.1; majority with ties to ``-1`` is ``f_0``);
    with ``weights``, ``f(x) = 1`` iff ``Σ w_i x_i > θ`` (the weighted threshold of O'Donnell, ties to ``-1``).

    Since ``Σ w_i x_i = 2·(weight voting 1) - Σ w_i``, the weighted threshold is the weighted voting game with quota
    ``(Σ w_i + θ)/2``, strict. ``n``, when given with ``weights``, must be their number.

    Examples
    --------
    >>> threshold(3, 1).counts.tolist()    # sum > 1 means all three vote +1
    [-1, -1, -1, 1]
    >>> threshold(weights=[3, 1, 1])("011")
    -1
    """
    if weights is not None:
        return _with_n(_weighted_threshold(weights, theta), n)
    if n is None:
        raise InvalidParameterError("threshold needs the number of voters n, or weights=")
    n = parse_int(n, name="n", min=1)
    th = parse_scalar(theta, name="theta")
    _check_count_size(n, max_n, f"threshold({n}, theta={th})")
    # 2c - n > θ  <=>  c > (n + θ)/2  <=>  c >= floor((n + θ)/2) + 1 (exact for rational θ)
    first = math.floor(Fraction(n + th) / 2) + 1 if isinstance(th, Fraction) else None
    c = np.arange(n + 1, dtype=np.int64)
    values = _pm1(c >= first) if first is not None else _pm1(2 * c - n > float(th))
    return _sym(n, values, name=f"threshold({n}, theta={th})", kind="threshold", theta=th)


def conjunction(n: int, *, max_n: int | None = None) -> Rule:
    """``AND_n``: ``1`` iff every voter votes ``1`` (Appendix B).

    Examples
    --------
    >>> conjunction(2).table().tolist()
    [1, -1, -1, -1]
    """
    n = parse_int(n, name="n", min=1)
    _check_count_size(n, max_n, f"and({n})")
    return _sym(n, _pm1(np.arange(n + 1) == n), name=f"and({n})", kind="and")


def disjunction(n: int, *, max_n: int | None = None) -> Rule:
    """``OR_n``: ``-1`` iff every voter votes ``-1`` (Appendix B).

    Examples
    --------
    >>> disjunction(2).table().tolist()
    [1, 1, 1, -1]
    """
    n = parse_int(n, name="n", min=1)
    _check_count_size(n, max_n, f"or({n})")
    return _sym(n, _pm1(np.arange(n + 1) >= 1), name=f"or({n})", kind="or")


def parity(n: int, *, max_n: int | None = None) -> Rule:
    """``χ_[n](x) = x_1 x_2 ⋯ x_n`` (the Fourier character of the whole electorate).

    Examples
    --------
    >>> parity(2).table().tolist()
    [1, -1, -1, 1]
    """
    n = parse_int(n, name="n", min=1)
    _check_count_size(n, max_n, f"parity({n})")
    return _sym(n, _pm1((n - np.arange(n + 1)) % 2 == 0), name=f"parity({n})", kind="parity")


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


def dictator(n: int, i: int = 0) -> Rule:
    """The dictatorship of voter ``i``: ``f(x) = x_i`` (Appendix B).

    Examples
    --------
    >>> dictator(2, 1).table().tolist()
    [1, -1, 1, -1]
    """
    n = parse_int(n, name="n", min=1)
    i = parse_int(i, name="i", min=0)
    if i >= n:
        raise InvalidParameterError(f"voter index i = {i} is out of range 0..{n - 1}")

    def build() -> np.ndarray:
        j = np.arange(1 << n, dtype=np.int64)
        return np.where((j >> (n - 1 - i)) & 1, -1, 1).astype(np.int64)

    if n == 1:
        return Rule(
            1, name="dictator(1, i=0)", kind="dictator", params={"i": 0}, counts=np.array([-1, 1], dtype=np.int64)
        )
    return Rule(n, name=f"dictator({n}, i={i})", kind="dictator", params={"i": i}, builder=build, monotone=True)


def _weights(weights: Iterable[Any]) -> tuple[list[Any], bool]:
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise InvalidTypeError(f"weights must be a sequence of numbers, got {type(weights).__name__} {weights!r:.60}")
    raw = list(weights)
    if not raw:
        raise InvalidParameterError("weights must list one weight per voter, got an empty list")
    exact = all(is_exact_scalar(w) for w in raw)
    return [parse_scalar(w, name="weight", exact=exact) for w in raw], exact


def _weighted(weights: Iterable[Any], quota: Any, strict: bool, *, name: str, params: dict[str, Any]) -> Rule:
    ws, exact = _weights(weights)
    n = len(ws)
    qv = parse_scalar(quota, name="quota", exact=exact)
    monotone = all(w >= 0 for w in ws)

    def passes(total: Any) -> bool:
        return bool(total > qv) if strict else bool(total >= qv)

    params = dict(params, exact=exact, strict=strict)
    if len(set(ws)) == 1:  # equal weights: symmetric, stored by count
        counts = np.array([1 if passes(c * ws[0]) else -1 for c in range(n + 1)], dtype=np.int64)
        return Rule(n, name=name, kind="weighted", params=params, counts=counts, monotone=monotone)

    def build() -> np.ndarray:
        if exact:
            den = math.lcm(*(Fraction(w).denominator for w in ws), Fraction(qv).denominator)
            iw = [int(w * den) for w in ws]
            iq = int(qv * den)
            yes = np.zeros(1, dtype=np.int64 if sum(abs(w) for w in iw) < 2**62 else object)
            for w in iw:
                yes = np.stack([yes + w, yes], axis=1).ravel()
            ok = yes > iq if strict else yes >= iq
        else:
            fyes = np.zeros(1)
            for w in ws:
                fyes = np.stack([fyes + float(w), fyes], axis=1).ravel()
            ok = fyes > float(qv) if strict else fyes >= float(qv)
        return np.where(ok, 1, -1).astype(np.int64)

    return Rule(n, name=name, kind="weighted", params=params, builder=build, monotone=monotone or None)


def _with_n(rule: Rule, n: int | None) -> Rule:
    """``rule``, after checking that ``n`` (when given) is its number of voters."""
    if n is not None and parse_int(n, name="n", min=1) != rule.n:
        raise InvalidParameterError(f"n = {n} contradicts the {rule.n} weights of {rule.name}; drop n or give {rule.n}")
    return rule


def _weighted_majority(weights: Iterable[Any], quota: Any = None) -> Rule:
    """:func:`majority` with ``weights``: the game ``[quota; weights]`` (default quota: more than half, strict)."""
    ws, exact = _weights(weights)
    total = sum(ws)
    strict = quota is None
    qv = total / 2 if quota is None else parse_scalar(quota, name="quota", exact=exact)
    label = "total/2 (strict)" if quota is None else str(qv)
    return _weighted(
        ws,
        qv,
        strict,
        name=f"weighted([{', '.join(map(str, ws))}], quota={label})",
        params={"weights": tuple(ws), "quota": qv},
    )


def _weighted_threshold(weights: Iterable[Any], theta: Any = 0) -> Rule:
    """:func:`threshold` with ``weights``: ``Σ w_i x_i > θ``, the game with quota ``(Σ w_i + θ)/2``, strict."""
    ws, exact = _weights(weights)
    th = parse_scalar(theta, name="theta", exact=exact)
    qv = (sum(ws) + th) / 2
    return _weighted(
        ws,
        qv,
        True,
        name=f"weighted_threshold([{', '.join(map(str, ws))}], theta={th})",
        params={"weights": tuple(ws), "theta": th, "quota": qv},
    )


def tribes(width: int, count: int) -> Rule:
    """``Tribes_{w,s}``: ``count`` disjoint tribes of ``width`` consecutive voters; ``1`` iff some tribe votes
    unanimously ``1`` (an OR of ANDs, O'Donnell §2.1).

    Examples
    --------
    >>> t = tribes(2, 2)
    >>> t("1100"), t("1010"), t("0011")
    (1, -1, 1)
    """
    width = parse_int(width, name="width", min=1)
    count = parse_int(count, name="count", min=1)
    n = width * count

    def build() -> np.ndarray:
        hit = np.zeros((1 << width,) * count, dtype=bool)
        for axis in range(count):
            index: list[Any] = [slice(None)] * count
            index[axis] = 0
            hit[tuple(index)] = True
        return np.where(hit.ravel(), 1, -1).astype(np.int64)

    return Rule(
        n,
        name=f"tribes(width={width}, count={count})",
        kind="tribes",
        params={"width": width, "count": count},
        builder=build,
        monotone=True,
    )


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


def random_rule(n: int, seed: int = 0) -> Rule:
    """A uniformly random voting rule on ``n`` voters (a helper of the tests and benchmarks, not part of the public
    API), reproducible from ``seed``.

    Examples
    --------
    >>> f = random_rule(3, seed=1)
    >>> f.name, f.table().tolist()
    ('random(3, seed=1)', [-1, 1, 1, 1, -1, -1, 1, 1])
    """
    n = parse_int(n, name="n", min=1)
    _check_table_size(n, exact_objects=False, what=f"random_rule({n})")
    rng = np.random.default_rng(seed)
    return _from_truth_table(rng.choice(np.array([-1, 1]), size=1 << n), name=f"random({n}, seed={seed})")
