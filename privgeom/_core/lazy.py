"""A read-only sequence whose items are built when first read.

Analyses of large structured definitions have one item per facet (ε-DP on a path of 100,001 counts has 200,000
facets, hence 200,000 guarantees) while a report reads a dozen of them. :class:`LazySequence` stands where a tuple of
items would: ``len`` is free, indexing and slicing build (and cache) only the items read, iteration builds them in
order, and equality compares item by item with any other sequence.

Examples
--------
>>> built = []
>>> squares = LazySequence(10**9, lambda i: built.append(i) or i * i)
>>> len(squares), squares[3], squares[-1], built
(1000000000, 9, 999999998000000001, [3, 999999999])
>>> squares[2:5]
(4, 9, 16)
>>> LazySequence(3, lambda i: i) == (0, 1, 2)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from typing import Any, Callable, Generic, TypeVar, overload

from .errors import InvalidTypeError
from .removed import removed_name_error

__all__ = ["LazySequence"]

T = TypeVar("T")

#: Callables run once before the compound definition specs (``intersection(…)``, ``hull(…)``) are first read: the
#: façade (``privgeom/__init__.py``) puts here the import of the analysis module that registers them, which loads on
#: first use (docs/ARCHITECTURE.md, "How lower code reaches higher code", as ``_core.limits.LOADERS``).
SPEC_LOADERS: list[Callable[[], None]] = []


class LazySequence(Sequence[T], Generic[T]):
    """``n`` items, item ``i`` built by ``make(i)`` on first access and cached (a read-only, tuple-like sequence).

    Parameters
    ----------
    n : int
        Number of items.
    make : callable
        ``make(i)`` builds item ``i`` (``0 <= i < n``).
    """

    __slots__ = ("_n", "_make", "_cache")

    def __init__(self, n: int, make: Callable[[int], T]) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidTypeError(f"LazySequence needs a non-negative int length, got {n!r}")
        self._n = n
        self._make = make
        self._cache: dict[int, T] = {}

    def __len__(self) -> int:
        return self._n

    def _item(self, i: int) -> T:
        try:
            return self._cache[i]
        except KeyError:
            item = self._cache[i] = self._make(i)
            return item

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self._item(i) for i in range(*index.indices(self._n)))
        try:
            i = index.__index__()
        except AttributeError:
            raise InvalidTypeError(f"sequence indices must be integers or slices, got {type(index).__name__}") from None
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(f"index {index} out of range for {self._n} items")
        return self._item(i)

    def __iter__(self) -> Iterator[T]:
        return (self._item(i) for i in range(self._n))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(other) == self._n and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Sequence[T]) -> tuple[T, ...]:
        return tuple(self) + tuple(other)

    def __repr__(self) -> str:
        return f"LazySequence({self._n} items, {len(self._cache)} built)"


def lazy_exports(
    package: str, namespace: dict[str, Any], table: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's PEP 562 ``__getattr__`` and ``__dir__`` that import each exported name's module on first use.

    ``table`` maps a submodule (``"._compare"``, relative to ``package``) to the names it exports, separated by
    spaces. A name read once is stored in ``namespace`` (the package's ``globals()``), so later reads are plain.
    The package keeps the same imports under ``if TYPE_CHECKING:`` for type checkers.

    Examples
    --------
    >>> ns: dict[str, Any] = {"__all__": ["sqrt"]}
    >>> getattr_, dir_ = lazy_exports("json", ns, {"math": "sqrt"})
    >>> getattr_("sqrt")(9.0), "sqrt" in ns, dir_()
    (3.0, True, ['__all__', 'sqrt'])
    """
    where = {name: module for module, names in table.items() for name in names.split()}

    def __getattr__(name: str) -> Any:
        try:
            module = where[name]
        except KeyError:
            raise removed_name_error(package, name) from None  # a removed name names its replacement
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
