"""The global size limits of privgeom: one public place to read and raise them.

Every computation that can grow (dense matrices, LPs, double description, relaxation) estimates its size first and
refuses at once with :class:`~privgeom.SizeLimitError` when the size is beyond a limit. The limits are named here:
:func:`get_limits` lists them (value, default, description), :func:`set_limits` changes the process-wide values and
:func:`limits` changes them inside a ``with`` block only, for this thread or asyncio task alone. Every refusal message
names the limit and says how to raise it: ``pg.set_limits(name=N)`` or ``with pg.limits(name=N):`` in Python,
``--limit name=N`` (every command takes it, repeatable) or the command's own option (``--max-work``) on the command
line — the command line sets :func:`privgeom._core.hints.command_line` while a command runs and :func:`limit_hint`
reads it.

Storage, in two layers:

- the **process value** of each limit is a module constant of the module that checks it (``MAX_EXACT_ENTRIES`` of
  :mod:`privgeom._core.arrays`, ``MAX_DD_DIM`` of :mod:`privgeom.geometry._cdd`, …); the module registers it here at
  import with :func:`register_limit` (this root module never imports the upper layers) and its value then becomes
  the default. :func:`set_limits` assigns the constants, so code or tests that patch a constant see the same value;
- the **context overrides** of :func:`limits` live in a :class:`contextvars.ContextVar`: a ``with pg.limits(...)``
  block changes what its own thread (or asyncio task) reads and nothing else — another thread, started before or
  during the block, still reads the process values.

Readers call :func:`current_limit` (``current_limit("dd_dim")``) at the moment they check a size: the innermost
override of the current context, else the process value. :func:`active_limits` is the table that differs from the
defaults here (overrides and process values alike); the sweep engine (:mod:`privgeom._core.grid`) ships it with
every task and its workers evaluate the points inside :func:`applied`, so a Dask worker — a thread, a process or a
machine — uses the limits of the sweep that sent it.

Examples
--------
>>> import privgeom as pg
>>> pg.get_limits()["exact_entries"]
4194304
>>> with pg.limits(exact_entries=10):
...     current_limit("exact_entries"), pg.get_limits()["exact_entries"]
(10, 10)
>>> current_limit("exact_entries")
4194304
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

from . import arrays as _arrays, hints as _hints
from .errors import InvalidParameterError
from .arrays import parse_int
from .hints import limit_hint
from .results import Result

__all__ = [
    "LimitInfo",
    "Limits",
    "get_limits",
    "set_limits",
    "limits",
    "register_limit",
    "limit_hint",
    "current_limit",
    "active_limits",
    "applied",
]


@dataclass(frozen=True)
class LimitInfo(Result):
    """One size limit: its public ``name``, ``value`` in force here (this context's override, else the process
    value), ``default``, what it bounds and where its process value is stored (``constant``, a module constant)."""

    name: str
    value: int
    default: int
    description: str
    constant: str
    option: str = ""

    def summary(self) -> str:
        changed = "" if self.value == self.default else f" (default {self.default:,})"
        cli = f"; command line: {self.option}" if self.option else ""
        return f"{self.name} = {self.value:,}{changed}: {self.description}{cli}"


@dataclass(frozen=True)
class Limits(Result, Mapping[str, int]):
    """The size limits in force here (:func:`get_limits`): a read-only mapping ``name -> value`` whose
    :attr:`entries` also give each limit's default and description."""

    entries: tuple[LimitInfo, ...]

    def __getitem__(self, name: str) -> int:
        for info in self.entries:
            if info.name == name:
                return info.value
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(info.name for info in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def info(self, name: str) -> LimitInfo:
        """The :class:`LimitInfo` of ``name``."""
        for entry in self.entries:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def summary(self) -> str:
        return (
            "privgeom size limits (pg.set_limits(name=N) or `with pg.limits(name=N):` to change; on the command "
            "line --limit name=N):\n"
        ) + "\n".join("  " + info.summary() for info in self.entries)


@dataclass
class _Entry:
    namespace: MutableMapping[str, Any]
    constant: str
    description: str
    default: int
    option: str

    @property
    def where(self) -> str:
        return f"{self.namespace.get('__name__', '?')}.{self.constant}"


_REGISTRY: dict[str, _Entry] = {}

#: Functions that import the modules registering limits (the package root adds one: its modules load on first use,
#: PEP 562, so a limit is registered only once its module is imported). Run once, before the registry is first read.
#: One of the two loader lists through which the façade tells the base layer about higher modules (the other is
#: ``_core.display.LOADERS``; docs/ARCHITECTURE.md, "How lower code reaches higher code"): each limit stays declared,
#: with its description, by the module that checks it.
LOADERS: list[Callable[[], None]] = []


def _load_all() -> None:
    while LOADERS:
        LOADERS.pop(0)()


def register_limit(
    name: str, namespace: MutableMapping[str, Any], constant: str, description: str, *, option: str = ""
) -> None:
    """Register the module constant ``namespace[constant]`` (pass ``globals()``) as the global size limit ``name``.

    Called at import by the module that checks the limit; its current value becomes the default. ``option`` names a
    command-line option that raises the same limit for one command. Registering the same name for the same
    constant again (a module reload) replaces the entry; another constant under a taken name is refused.
    """
    where = f"{namespace.get('__name__', '?')}.{constant}"
    old = _REGISTRY.get(name)
    if old is not None and old.where != where:
        raise InvalidParameterError(f"the size limit {name!r} is already registered for {old.where}, not {where}")
    value = namespace[constant]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidParameterError(f"the size limit {name!r} ({where}) must be an int, got {value!r}")
    _REGISTRY[name] = _Entry(namespace, constant, description, value, option)
    if option:
        _hints.LIMIT_OPTIONS[name] = option
    else:
        _hints.LIMIT_OPTIONS.pop(name, None)


#: The overrides of the innermost :func:`limits` block of this thread or asyncio task (name -> value; empty outside
#: any block). A new thread starts with none: it reads the process values.
_OVERRIDES: ContextVar[Mapping[str, int]] = ContextVar("privgeom_limits", default=MappingProxyType({}))


def _entry(name: str) -> _Entry:
    entry = _REGISTRY.get(name)
    if entry is None:
        _load_all()
        entry = _REGISTRY.get(name)
    if entry is None:
        raise InvalidParameterError(f"unknown size limit {name!r}; the limits are {', '.join(sorted(_REGISTRY))}")
    return entry


def _process_value(entry: _Entry) -> int:
    return int(entry.namespace[entry.constant])


def current_limit(name: str) -> int:
    """The size limit ``name`` in force here and now: the innermost ``with pg.limits(...)`` override of this thread
    or asyncio task, else the process value (:func:`set_limits`, the module constant). Size checks call it at the
    moment they check, never at import.

    Examples
    --------
    >>> current_limit("dd_dim")
    64
    >>> with limits(dd_dim=70):
    ...     current_limit("dd_dim")
    70
    """
    value = _OVERRIDES.get().get(name)
    return _process_value(_entry(name)) if value is None else value


def get_limits() -> Limits:
    """The size limits in force here, a mapping ``name -> value`` (a :class:`Limits` result): the overrides of the
    enclosing :func:`limits` blocks of this thread or task, else the process values.

    Examples
    --------
    >>> import privgeom as pg
    >>> lim = pg.get_limits()
    >>> lim["dd_dim"], "exact_entries" in lim
    (64, True)
    >>> print(lim.info("dd_dim"))  # doctest: +ELLIPSIS
    dd_dim = 64: largest ambient dimension of a double description ...
    """
    _load_all()
    overrides = _OVERRIDES.get()
    return Limits(
        entries=tuple(
            LimitInfo(
                name=name,
                value=int(overrides.get(name, _process_value(e))),
                default=e.default,
                description=e.description,
                constant=e.where,
                option=e.option,
            )
            for name, e in sorted(_REGISTRY.items())
        )
    )


def validated(values: Mapping[str, Any]) -> dict[str, int]:
    """``values`` checked as :func:`set_limits` checks them (names registered, integers >= 1; None = the default)."""
    if values:
        _load_all()
    unknown = sorted(set(values) - set(_REGISTRY))
    if unknown:
        raise InvalidParameterError(
            f"unknown size limit {', '.join(map(repr, unknown))}; the limits are {', '.join(sorted(_REGISTRY))}"
        )
    return {
        name: (_REGISTRY[name].default if value is None else parse_int(value, name=name, min=1, allow_str=True))
        for name, value in values.items()
    }


def set_limits(**values: int | str | None) -> dict[str, int]:
    """Change the process values of size limits (every thread, outside the ``with pg.limits(...)`` blocks that
    override them); returns the previous process values of the limits changed.

    Every value is validated (an integer ``>= 1``, integer strings accepted; ``None`` restores the default) before
    any is set. Use :func:`limits` to change them inside a ``with`` block only.

    Raises
    ------
    InvalidParameterError
        An unknown limit name (the message lists the valid ones) or a value below 1.
    InvalidTypeError
        A value that is not an integer.

    Examples
    --------
    >>> import privgeom as pg
    >>> old = pg.set_limits(dd_dim=80)
    >>> old, pg.get_limits()["dd_dim"]
    ({'dd_dim': 64}, 80)
    >>> _ = pg.set_limits(**old)
    >>> pg.set_limits(dd_dims=80)
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: unknown size limit 'dd_dims'; the limits are ...
    """
    new = validated(values)
    previous = {name: _process_value(_REGISTRY[name]) for name in new}
    for name, value in new.items():
        entry = _REGISTRY[name]
        entry.namespace[entry.constant] = value
    return previous


@contextlib.contextmanager
def applied(table: Mapping[str, int]) -> Iterator[None]:
    """Evaluate the block with ``table`` (``name -> value``, as :func:`active_limits` gives it) over the limits in
    force; the enclosing values come back on exit. For tables already validated (a sweep's task on its worker)."""
    token = _OVERRIDES.set(MappingProxyType({**_OVERRIDES.get(), **table}))
    try:
        yield
    finally:
        _OVERRIDES.reset(token)


@contextlib.contextmanager
def limits(**values: int | str | None) -> Iterator[Limits]:
    """Change size limits inside a ``with`` block, for this thread or asyncio task only; the enclosing values are in
    force again on exit (also when the block raises). Yields the :class:`Limits` in force.

    Other threads (and tasks started outside the block) keep reading their own values; a sweep started inside the
    block ships the limits to its workers (:func:`active_limits`). ``None`` means the default inside the block.

    Examples
    --------
    >>> import privgeom as pg
    >>> with pg.limits(exact_entries=10):
    ...     pg.Mechanism([["1/2", "1/4"], ["1/2", "3/4"]]).exact
    True
    """
    with applied(validated(values)):
        yield get_limits()


def active_limits() -> dict[str, int]:
    """The limits in force here that a worker must be told (``name -> value``): this context's overrides and the
    process values that differ from their defaults (:func:`set_limits`, or a patched constant). What a sweep ships
    to its workers.

    Examples
    --------
    >>> active_limits()
    {}
    >>> with limits(dd_dim=70):
    ...     active_limits()
    {'dd_dim': 70}
    """
    table = {name: _process_value(e) for name, e in _REGISTRY.items() if _process_value(e) != e.default}
    table.update(_OVERRIDES.get())  # an override is shipped even at its default: the worker's process may differ
    return dict(sorted(table.items()))


_arrays.LIMIT_READER[:] = [current_limit]
register_limit(
    "exact_entries",
    vars(_arrays),
    "MAX_EXACT_ENTRIES",
    "largest dense exact (Fraction) array privgeom allocates, in entries (about 100 bytes each)",
)
register_limit(
    "dense_entries",
    vars(_arrays),
    "MAX_DENSE_ENTRIES",
    "largest dense float64 array privgeom allocates, in entries (8 bytes each)",
)
