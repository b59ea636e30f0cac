"""The global size limits of privgeom: one public place to read and raise them.

Every computation that can grow (dense matrices, LPs, double description, relaxation) estimates its size first and
refuses at once with :class:`~privgeom.SizeLimitError` when the size is beyond a limit. The limits are named here:
:func:`get_limits` lists them (value, default, description), :func:`set_limits` changes them for the session and
:func:`limits` changes them inside a ``with`` block only. Every refusal message names the limit and says how to
raise it: ``pg.set_limits(name=N)`` or ``with pg.limits(name=N):`` in Python, ``--limit name=N`` (every command takes
it, repeatable) or the command's own option (``--max-work``) on the command line — the command line sets
:func:`privgeom._core.hints.command_line` while a command runs and :func:`limit_hint` reads it.

Storage: each limit stays a module constant of the module that checks it (``MAX_EXACT_ENTRIES`` of
:mod:`privgeom._core.arrays`, ``MAX_DD_DIM`` of :mod:`privgeom.geometry._cdd`, …), read at call time; the module
registers it here at import with :func:`register_limit` (this root module never imports the upper layers, the
same registry pattern as ``geometry.automorphisms``). Setting a limit assigns the constant, so code or tests that
patch the constants directly see the same values.

Examples
--------
>>> import privgeom as pg
>>> pg.get_limits()["exact_entries"]
4194304
>>> with pg.limits(exact_entries=10):
...     pg.get_limits()["exact_entries"]
10
>>> pg.get_limits()["exact_entries"]
4194304
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, Callable

from . import arrays as _arrays, hints as _hints
from .errors import InvalidParameterError
from .arrays import parse_int
from .hints import limit_hint
from .results import Result

__all__ = ["LimitInfo", "Limits", "get_limits", "set_limits", "limits", "register_limit", "limit_hint"]


@dataclass(frozen=True)
class LimitInfo(Result):
    """One global size limit: its public ``name``, current ``value``, ``default``, what it bounds and where it is
    stored (``constant``, a module constant read at call time)."""

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
    """The current global size limits (:func:`get_limits`): a read-only mapping ``name -> value`` whose
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
        return ("privgeom size limits (pg.set_limits(name=N) or `with pg.limits(name=N):` to change; on the command "
                "line --limit name=N):\n") + "\n".join(
            "  " + info.summary() for info in self.entries)


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
LOADERS: list[Callable[[], None]] = []


def _load_all() -> None:
    while LOADERS:
        LOADERS.pop(0)()


def register_limit(name: str, namespace: MutableMapping[str, Any], constant: str, description: str, *,
                   option: str = "") -> None:
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


def get_limits() -> Limits:
    """The current global size limits, a mapping ``name -> value`` (a :class:`Limits` result).

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
    return Limits(entries=tuple(
        LimitInfo(name=name, value=int(e.namespace[e.constant]), default=e.default, description=e.description,
                  constant=e.where, option=e.option)
        for name, e in sorted(_REGISTRY.items())))


def validated(values: Mapping[str, Any]) -> dict[str, int]:
    """``values`` checked as :func:`set_limits` checks them (names registered, integers >= 1; None = the default)."""
    if values:
        _load_all()
    unknown = sorted(set(values) - set(_REGISTRY))
    if unknown:
        raise InvalidParameterError(f"unknown size limit {', '.join(map(repr, unknown))}; the limits are "
                                    f"{', '.join(sorted(_REGISTRY))}")
    return {name: (_REGISTRY[name].default if value is None else parse_int(value, name=name, min=1, allow_str=True))
            for name, value in values.items()}


def set_limits(**values: int | str | None) -> dict[str, int]:
    """Change global size limits for the session; returns the previous values of the limits changed.

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
    previous = {name: int(_REGISTRY[name].namespace[_REGISTRY[name].constant]) for name in new}
    for name, value in new.items():
        entry = _REGISTRY[name]
        entry.namespace[entry.constant] = value
    return previous


@contextlib.contextmanager
def limits(**values: int | str | None) -> Iterator[Limits]:
    """Change global size limits inside a ``with`` block; the previous values are restored on exit (also when the
    block raises). Yields the :class:`Limits` in force.

    Examples
    --------
    >>> import privgeom as pg
    >>> with pg.limits(exact_entries=10):
    ...     pg.Mechanism([["1/2", "1/4"], ["1/2", "3/4"]]).exact
    True
    """
    previous = set_limits(**values)
    try:
        yield get_limits()
    finally:
        for name, value in previous.items():
            entry = _REGISTRY[name]
            entry.namespace[entry.constant] = value


register_limit("exact_entries", vars(_arrays), "MAX_EXACT_ENTRIES",
               "largest dense exact (Fraction) array privgeom allocates, in entries (about 100 bytes each)")
register_limit("dense_entries", vars(_arrays), "MAX_DENSE_ENTRIES",
               "largest dense float64 array privgeom allocates, in entries (8 bytes each)")
