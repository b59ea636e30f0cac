"""The privgeom exception hierarchy.

Every error privgeom raises on bad input is a :class:`PrivgeomError`; each concrete class also subclasses the
matching built-in (``ValueError``, ``TypeError``, ``RuntimeError``, ``MemoryError``) so that callers who catch the
built-ins keep working.

Examples
--------
>>> from privgeom import Mechanism, PrivgeomError
>>> try:
...     Mechanism([[0.5, 0.2], [0.4, 0.8]])
... except PrivgeomError as err:
...     print(type(err).__name__, isinstance(err, ValueError))
InvalidMechanismError True
"""

from __future__ import annotations

__all__ = [
    "PrivgeomError",
    "InvalidInputError",
    "InvalidTypeError",
    "InvalidMechanismError",
    "InvalidParameterError",
    "FormatError",
    "SizeLimitError",
    "SolverError",
    "DomainMismatchError",
    "MissingDependencyError",
]


class PrivgeomError(Exception):
    """Base class of every error privgeom raises on purpose."""


class InvalidInputError(PrivgeomError, ValueError):
    """A value has the right type but is not acceptable (generic)."""


class InvalidTypeError(PrivgeomError, TypeError):
    """A value has a type privgeom cannot use."""


class InvalidMechanismError(InvalidInputError):
    """A matrix is not a valid mechanism (not column-stochastic, negative, NaN/inf, ragged, bad labels)."""


class InvalidParameterError(InvalidInputError):
    """A parameter is out of range (e.g. ``p`` outside ``(1/2, 1]`` or ``eps < 0``)."""


class FormatError(InvalidInputError):
    """A file or string does not follow the documented format (malformed JSON, bad definition spec)."""


class DomainMismatchError(InvalidInputError):
    """Two objects that must share an input domain (datasets) do not."""


class SizeLimitError(PrivgeomError, MemoryError):
    """The requested object would exhaust memory or time; refused before allocating."""


class SolverError(PrivgeomError, RuntimeError):
    """A numerical solver (LP, double description) failed; never to be read as a "no"."""


class MissingDependencyError(PrivgeomError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it
    (``pip install 'privgeom[sweep]'``)."""
