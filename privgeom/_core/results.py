"""Typed, immutable, printable and JSON-serialisable results.

Every result object of privgeom is a frozen dataclass that inherits :class:`Result`; :func:`to_jsonable` turns it
(and Fractions, numpy arrays, :class:`~privgeom.LogRational`, mechanisms, cones…) into plain JSON data. New types
register a converter with ``@to_jsonable.register``.

Examples
--------
>>> from dataclasses import dataclass
>>> from fractions import Fraction
>>> @dataclass(frozen=True)
... class Answer(Result):
...     value: Fraction
...     note: str
>>> Answer(Fraction(3, 4), "exact").to_dict()
{'value': '3/4', 'note': 'exact'}
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import json
import numbers
import sys
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from functools import singledispatch, total_ordering
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from .lazy import LazySequence
from .numbers import LogRational, Scalar, fraction_str, scalar_from_json, scalar_to_json

__all__ = ["Decision", "Quantity", "Result", "Serializable", "to_jsonable"]


@singledispatch
def to_jsonable(obj: Any) -> Any:
    """Convert ``obj`` to JSON-serialisable data; numbers as :func:`~privgeom._core.numbers.scalar_to_json` writes
    them (Fractions as ``"p/q"`` strings, hexadecimal beyond ``MAX_PRINTED_BITS``)."""
    nx = sys.modules.get("networkx")  # a graph exists only if networkx is loaded (it is imported on first use)
    if nx is not None and isinstance(obj, nx.Graph):
        return {"nodes": [str(v) for v in obj.nodes], "edges": [[str(u), str(v)] for u, v in obj.edges]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.repr}
    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    raise TypeError(f"privgeom cannot serialise {type(obj).__name__} to JSON")


@to_jsonable.register(type(None))
@to_jsonable.register(bool)
@to_jsonable.register(str)
def _plain(obj: Any) -> Any:
    return obj


# THE JSON of numbers (numbers.py): "p/q", floats, {"ln": …, "value": …}
for _kind in (int, float, Fraction, LogRational):
    to_jsonable.register(_kind)(scalar_to_json)


@to_jsonable.register(np.generic)
def _npscalar(obj: np.generic) -> Any:
    return to_jsonable(obj.item())


@to_jsonable.register(np.ndarray)
def _ndarray(obj: np.ndarray) -> Any:
    return [to_jsonable(v) for v in obj.tolist()] if obj.ndim else to_jsonable(obj.item())


@to_jsonable.register(list)
@to_jsonable.register(tuple)
@to_jsonable.register(LazySequence)
def _seq(obj: Any) -> Any:
    return [to_jsonable(v) for v in obj]


@to_jsonable.register(frozenset)
@to_jsonable.register(set)
def _set(obj: Any) -> Any:
    return sorted(to_jsonable(v) for v in obj)


@to_jsonable.register(dict)
def _dict(obj: dict) -> Any:
    return {str(k): to_jsonable(v) for k, v in obj.items()}


@to_jsonable.register(enum.Enum)
def _enum(obj: enum.Enum) -> Any:
    return obj.value


class Serializable:
    """The one convention of privgeom for JSON: ``to_dict``/``from_dict`` for JSON data (a dict), ``to_json``/
    ``from_json`` for JSON text (a ``str``).

    A class defines ``to_dict`` and ``from_dict``; this mixin derives the text pair from them. ``from_json`` also
    accepts the dict itself (what ``to_json`` returned before 0.2 on :class:`~privgeom.Mechanism`), so saved data
    and older callers keep working. Every subclass is registered by name, which is how :meth:`Result.from_dict`
    reads a field annotated with a type of a higher layer (a ``Mechanism``, a ``Cone``) without importing it.

    Examples
    --------
    >>> from privgeom import PrivacyLevel
    >>> text = PrivacyLevel.from_exp_eps(3).to_json(indent=None)
    >>> text
    '{"eps": {"ln": "3", "value": 1.0986122886681098}, "exp_eps": "3", "exact": true}'
    >>> PrivacyLevel.from_json(text) == PrivacyLevel.from_exp_eps(3)
    True
    """

    __slots__ = ()  # a mixin: slotted classes (Cone) keep their own __slots__

    #: Every subclass by its name (the types :meth:`Result.from_dict` can read).
    _TYPES: dict[str, type] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Serializable._TYPES.setdefault(cls.__name__, cls)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (Fractions as strings, arrays as lists)."""
        raise NotImplementedError(f"{type(self).__name__} defines no to_dict")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Read back what :meth:`to_dict` wrote."""
        raise NotImplementedError(f"{cls.__name__} defines no from_dict")

    def to_json(self, indent: int | None = 1) -> str:
        """The object as JSON text: :meth:`to_dict`, serialised."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | Mapping[str, Any]) -> Any:
        """Read back what :meth:`to_json` wrote (JSON text; a dict is read as :meth:`from_dict` reads it)."""
        if isinstance(text, Mapping):
            return cls.from_dict(text)
        from .errors import FormatError

        try:
            data = json.loads(text)
        except (ValueError, TypeError) as err:
            raise FormatError(f"{cls.__name__}.from_json needs JSON text: {err}") from None
        if not isinstance(data, dict):
            raise FormatError(f"{cls.__name__}.from_json needs a JSON object, got {type(data).__name__}")
        return cls.from_dict(data)


def _read_field(value: Any, annotation: Any, where: str) -> Any:
    """``value`` (JSON data) as the type ``annotation`` says: the inverse of :func:`to_jsonable` for one field."""
    from .errors import FormatError

    if annotation is Any or annotation is object:
        return value
    if value is None:
        if annotation is type(None) or type(None) in typing.get_args(annotation):
            return None
        raise FormatError(f"{where}: null where {annotation} is needed")
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for arm in (a for a in args if a is not type(None)):
            try:
                return _read_field(value, arm, where)
            except (FormatError, TypeError, ValueError, ZeroDivisionError) as err:
                errors.append(str(err))
        raise FormatError(f"{where}: {value!r} is none of {annotation} ({'; '.join(errors)})")
    if origin in (tuple, list, collections.abc.Sequence) and isinstance(value, list):
        if origin is tuple and args and args[-1] is not Ellipsis:
            return tuple(_read_field(v, a, where) for v, a in zip(value, args, strict=True))
        item = args[0] if args else Any
        out = [_read_field(v, item, where) for v in value]
        return out if origin is list else tuple(out)
    if origin in (dict, collections.abc.Mapping) and isinstance(value, dict):
        item = args[1] if len(args) == 2 else Any
        return {k: _read_field(v, item, where) for k, v in value.items()}
    return _read_plain(value, annotation, where)


def _read_plain(value: Any, annotation: Any, where: str) -> Any:
    from .errors import FormatError

    if annotation is bool or annotation is str:
        if not isinstance(value, annotation):
            raise FormatError(f"{where}: {value!r} is not a {annotation.__name__}")
        return value
    if annotation is int:
        number = scalar_from_json(value, name=where) if isinstance(value, str) else value
        if isinstance(number, bool) or not isinstance(number, (int, Fraction)) or int(number) != number:
            raise FormatError(f"{where}: {value!r} is not an integer")
        return int(number)
    if annotation in (Fraction, float, LogRational):
        number = scalar_from_json(value, name=where)
        if annotation is float and isinstance(number, (int, float)) and not isinstance(number, bool):
            return float(number)
        if not isinstance(number, annotation):
            raise FormatError(f"{where}: {value!r} is not a {annotation.__name__}")
        return number
    if annotation is np.ndarray and isinstance(value, list):
        return np.array(_numbers(value), dtype=object if _has_fraction(value) else float)
    if isinstance(annotation, type) and issubclass(annotation, Serializable) and isinstance(value, dict):
        return annotation.from_dict(value)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return annotation(value)
    raise FormatError(f"{where}: cannot read {type(value).__name__} back as {annotation}")


def _numbers(value: Any) -> Any:
    return [_numbers(v) for v in value] if isinstance(value, list) else scalar_from_json(value)


def _has_fraction(value: Any) -> bool:
    return any(_has_fraction(v) for v in value) if isinstance(value, list) else isinstance(value, str)


def _field_types(cls: type) -> dict[str, Any]:
    """The fields' annotations, resolved in the class's module and among the :class:`Serializable` types (a field
    whose annotation names a type neither knows is read as plain JSON data)."""
    module = sys.modules.get(cls.__module__)
    namespace = {**vars(typing), **Serializable._TYPES, **(vars(module) if module else {})}
    out = {}
    for f in dataclasses.fields(cls):
        try:
            out[f.name] = eval(f.type, namespace) if isinstance(f.type, str) else f.type  # noqa: S307 (annotations)
        except (NameError, AttributeError, SyntaxError, TypeError):
            out[f.name] = Any
    return out


class Result(Serializable):
    """Mixin for frozen-dataclass results: ``to_dict``, ``to_json`` and a readable ``__str__`` via ``summary``.

    Every result privgeom returns is one; a result type of your own gets the same behaviour by inheriting it.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> from fractions import Fraction
    >>> @dataclass(frozen=True)
    ... class Ratio(Result):
    ...     value: Fraction
    ...     exact: bool = True
    >>> r = Ratio(value=Fraction(3, 4))
    >>> print(r)
    Ratio(value=3/4, exact=True)
    >>> r.to_json(indent=None)
    '{"value": "3/4", "exact": true}'
    """

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (Fractions as strings, arrays as lists)."""
        return {f.name: to_jsonable(getattr(self, f.name)) for f in dataclasses.fields(self) if f.repr}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """The result :meth:`to_dict` wrote, read back field by field as the annotations say (numbers exactly as
        written, levels, mechanisms, cones, nested results of a named type, tuples of those).

        Raises :class:`~privgeom.FormatError` naming the field it cannot read back: a required field missing from
        ``data``, or a field whose type the data does not fix (a witness typed as any ``Result``).
        """
        from .errors import FormatError

        if not dataclasses.is_dataclass(cls):
            raise FormatError(f"{cls.__name__} is not a result type that can be read back")
        hints = _field_types(cls)
        kwargs = {}
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            if f.name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise FormatError(f"{cls.__name__}.from_dict: the field {f.name!r} is missing")
                continue
            kwargs[f.name] = _read_field(data[f.name], hints[f.name], f"{cls.__name__}.{f.name}")
        return cls(**kwargs)

    def summary(self) -> str:
        """One-paragraph human-readable description (subclasses override)."""
        parts = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.repr:
                v = getattr(self, f.name)
                shown = (
                    fraction_str(v) if isinstance(v, (int, Fraction, LogRational)) and not isinstance(v, bool) else v
                )
                parts.append(
                    f"{f.name}={shown if isinstance(v, (str, int, Fraction, LogRational)) else type(v).__name__}"
                )
        return f"{type(self).__name__}(" + ", ".join(parts) + ")"

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        from .display import to_html

        return to_html(self)


class Decision(Result):
    """Mixin for yes/no results: ``holds`` is the answer and ``bool(result)`` is ``holds``.

    Subclasses define ``holds`` (a field or a property): every yes/no result of privgeom answers with ``.holds``.
    The membership results (``Membership``, ``ConeMembership``) also answer with the domain word ``member``, the
    same value (``holds`` is primary, ``member`` its documented synonym). An undecided answer (``holds is None``)
    has no truth value: ``bool`` raises rather than reading it as "no" (a failure is never a no).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Check(Decision):
    ...     holds: bool
    >>> bool(Check(True)), Check(False).holds
    (True, False)
    """

    holds: Any

    def __bool__(self) -> bool:
        if self.holds is None:
            from .errors import SolverError

            raise SolverError(f"{type(self).__name__} is undecided: it has no truth value (check .holds is None)")
        return bool(self.holds)


@total_ordering
@dataclass(frozen=True, eq=False)
class Quantity(Result):
    """A named number returned by the public API: the value with its mode, printable and JSON-serialisable.

    Analyses whose answer is one number (an accuracy, a welfare, an influence, an expected δ) return a Quantity
    rather than a bare scalar, so every public result has ``exact``, ``summary()``, ``to_dict()`` and
    ``to_json()``. ``float(q)`` gives the value as a float; ``q.value`` the exact Fraction (exact mode) or float.
    A Quantity compares equal to, and orders against, plain numbers and other Quantities by its value, so
    ``q == Fraction(3, 4)`` and ``q <= 1`` read as they would on the number.

    Attributes
    ----------
    value : Fraction or float
        The number (a Fraction exactly when ``exact``).
    name : str
        What the number is (``"accuracy"``, ``"welfare"``, …).
    exact : bool
        True when ``value`` is an exact Fraction.
    detail : str
        A short description of the setting (the rule, ρ, …), used by :meth:`summary`.

    Examples
    --------
    >>> from fractions import Fraction
    >>> q = Quantity(Fraction(3, 4), "accuracy", detail="majority(3), rho = 1/2")
    >>> q == Fraction(3, 4), float(q), q.exact, q < 1
    (True, 0.75, True, True)
    >>> print(q)
    accuracy = 3/4 (exact; majority(3), rho = 1/2)
    >>> q.to_dict()
    {'value': '3/4', 'name': 'accuracy', 'exact': True, 'detail': 'majority(3), rho = 1/2'}
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "dimensionless: the number that .name names (an accuracy, a welfare, an influence, …)"

    value: Scalar
    name: str = "value"
    exact: bool = dataclasses.field(default=None)  # type: ignore[assignment]
    detail: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.value, (int, np.integer)) and not isinstance(self.value, bool):
            object.__setattr__(self, "value", Fraction(int(self.value)))
        if self.exact is None:
            object.__setattr__(self, "exact", isinstance(self.value, Fraction))

    def __float__(self) -> float:
        return float(self.value)

    @staticmethod
    def _other(other: Any) -> Any:
        if isinstance(other, Quantity):
            return other.value
        if isinstance(other, numbers.Real) and not isinstance(other, bool):
            return other
        if isinstance(other, np.floating | np.integer):
            return other.item()
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        o = self._other(other)
        return NotImplemented if o is NotImplemented else bool(self.value == o)

    def __lt__(self, other: Any) -> bool:
        o = self._other(other)
        return NotImplemented if o is NotImplemented else bool(self.value < o)

    def __hash__(self) -> int:
        return hash(self.value)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        where = f"; {self.detail}" if self.detail else ""
        return f"{self.name} = {fraction_str(self.value)} ({mode}{where})"
