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
    """Base class of every error privgeom raises on purpose.

    Examples
    --------
    >>> import privgeom as pg
    >>> try:
    ...     pg.parse_definition("rr:k=2")
    ... except pg.PrivgeomError as err:
    ...     print(err)
    spec 'rr:k=2': rr needs p=<value>
    """


class InvalidInputError(PrivgeomError, ValueError):
    """A value has the right type but is not acceptable (generic; the parent of the more specific errors below).

    Examples
    --------
    >>> import privgeom as pg
    >>> try:
    ...     pg.Domain.counts(-1)
    ... except pg.InvalidInputError as err:
    ...     print(type(err).__name__, isinstance(err, ValueError))
    InvalidParameterError True
    """


class InvalidTypeError(PrivgeomError, TypeError):
    """A value has a type privgeom cannot use.

    Examples
    --------
    >>> import privgeom as pg
    >>> pg.randomized_response(1.5, "3/4")
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidTypeError: k must be a positive integer, got 1.5
    """


class InvalidMechanismError(InvalidInputError):
    """A matrix is not a valid mechanism (not column-stochastic, negative, NaN/inf, ragged, bad labels).

    Examples
    --------
    >>> import privgeom as pg
    >>> try:
    ...     pg.Mechanism([[0.5, 0.2], [0.4, 0.8]])  # the first column sums to 0.9
    ... except pg.InvalidMechanismError:
    ...     print("refused")
    refused
    """


class InvalidParameterError(InvalidInputError):
    """A parameter is out of range (e.g. ``p`` outside ``(1/2, 1]`` or ``eps < 0``).

    Examples
    --------
    >>> import privgeom as pg
    >>> pg.PrivacyLevel.parse(eps=-1)
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidParameterError: eps must be >= 0, got eps = -1
    """


class FormatError(InvalidInputError):
    """A file or string does not follow the documented format (malformed JSON, bad definition spec).

    Examples
    --------
    >>> import privgeom as pg
    >>> pg.parse_definition("rr:k=2")
    Traceback (most recent call last):
        ...
    privgeom._core.errors.FormatError: spec 'rr:k=2': rr needs p=<value>
    """


class DomainMismatchError(InvalidInputError):
    """Two objects that must share an input domain (datasets) do not.

    Examples
    --------
    >>> import privgeom as pg
    >>> try:
    ...     pg.RandomizedResponse(2, "3/4").contains(pg.randomized_response(1, "3/4"))
    ... except pg.DomainMismatchError as err:
    ...     print(str(err).split(": ", 1)[1])
    the mechanism's inputs ['1', '0'] differ from the definition's inputs ['11', '10', '01', '00']
    """


class SizeLimitError(PrivgeomError, MemoryError):
    """The requested object would exhaust memory or time; refused before allocating.

    The message names the sizes, the limit and how to raise it (:func:`privgeom.set_limits`,
    :func:`privgeom.limits`).

    Examples
    --------
    >>> import privgeom as pg
    >>> try:
    ...     pg.Domain.bits(40)
    ... except pg.SizeLimitError as err:
    ...     print(str(err).split(";")[0][:44], "...")
    k = 40 bits means 2^40 datasets, more than p ...
    """


class SolverError(PrivgeomError, RuntimeError):
    """A numerical solver (LP, double description) failed; never to be read as a "no".

    Examples
    --------
    >>> import privgeom as pg
    >>> issubclass(pg.SolverError, RuntimeError), issubclass(pg.SolverError, pg.InvalidInputError)
    (True, False)
    """


class MissingDependencyError(PrivgeomError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it
    (``pip install 'privgeom[sweep]'``).

    Examples
    --------
    >>> import privgeom as pg
    >>> issubclass(pg.MissingDependencyError, ImportError)
    True
    """
