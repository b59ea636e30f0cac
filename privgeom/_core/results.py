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

import dataclasses
import enum
import json
import numbers
import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import singledispatch, total_ordering
from typing import Any

import numpy as np

from .lazy import LazySequence
from .numbers import LogRational, Scalar, fraction_str, scalar_to_json

__all__ = ["Decision", "Quantity", "Result", "to_jsonable"]


@singledispatch
def to_jsonable(obj: Any) -> Any:
    """Convert ``obj`` to JSON-serialisable data; numbers as :func:`~privgeom._core.numbers.scalar_to_json` writes
    them (Fractions as ``"p/q"`` strings, hexadecimal beyond ``MAX_PRINTED_BITS``)."""
    nx = sys.modules.get("networkx")  # a graph exists only if networkx is loaded (it is imported on first use)
    if nx is not None and isinstance(obj, nx.Graph):
        return {"nodes": [str(v) for v in obj.nodes], "edges": [[str(u), str(v)] for u, v in obj.edges]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.repr}
    if hasattr(obj, "to_json"):
        return obj.to_json()
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


class Result:
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

    def to_json(self, indent: int | None = 1) -> str:
        """The result as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    def summary(self) -> str:
        """One-paragraph human-readable description (subclasses override)."""
        parts = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.repr:
                v = getattr(self, f.name)
                shown = fraction_str(v) if isinstance(v, (int, Fraction, LogRational)) and not isinstance(v, bool) else v
                parts.append(f"{f.name}={shown if isinstance(v, (str, int, Fraction, LogRational)) else type(v).__name__}")
        return f"{type(self).__name__}(" + ", ".join(parts) + ")"

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        from .display import to_html

        return to_html(self)


class Decision(Result):
    """Mixin for yes/no results: ``holds`` is the answer and ``bool(result)`` is ``holds``.

    Subclasses define ``holds`` (a field or a property); the membership results (``Membership``, ``ConeMembership``)
    answer "is it a member?" with ``member`` instead and override ``bool``. An undecided answer (``holds is None``) has no truth value:
    ``bool`` raises rather than reading it as "no" (a failure is never a no).

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
