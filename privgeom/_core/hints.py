"""How a refusal tells its reader to raise a size limit: ``pg.set_limits(NAME=N)`` in Python, ``--limit NAME=N`` (or
the command's own option) on the command line.

One mechanism for both: while a command of the ``privgeom`` program runs, the command line sets
:func:`command_line` (a context variable holding the option strings that command accepts); :func:`limit_hint` and
:func:`how_to` read it. No message is special-cased for the command line. Imported from here by the modules that refuse,
where the size checks live; :func:`privgeom._core.limits.register_limit` fills :data:`LIMIT_OPTIONS`.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Iterable, Iterator

__all__ = ["LIMIT_OPTIONS", "command_line", "on_command_line", "how_to", "limit_hint"]


#: Limit name -> the command-line option that raises it for one command (``--max-work`` for ``profile_work``),
#: filled by :func:`privgeom._core.limits.register_limit`.
LIMIT_OPTIONS: dict[str, str] = {}

#: Set by the command line while a command runs (:func:`command_line`): the option strings that command accepts.
#: ``None`` in Python. :func:`limit_hint` and :func:`how_to` read it, so a refusal names the form its reader can
#: type: ``--limit NAME=N`` (or the command's own option) on the command line, ``pg.set_limits(NAME=N)`` in Python.
_COMMAND_LINE: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "privgeom_command_line", default=None
)


@contextlib.contextmanager
def command_line(options: Iterable[str]) -> Iterator[None]:
    """Inside this block refusals are spelled for the command line whose command accepts ``options``.

    Examples
    --------
    >>> with command_line(["--max-work"]):
    ...     limit_hint("dd_dim", 65)
    'raise it with --limit dd_dim=65'
    >>> limit_hint("dd_dim", 65)
    'raise it with pg.set_limits(dd_dim=65) or `with pg.limits(dd_dim=65):`'
    """
    token = _COMMAND_LINE.set(frozenset(options))
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


def on_command_line() -> bool:
    """Whether a command of the ``privgeom`` program is running (:func:`command_line`)."""
    return _COMMAND_LINE.get() is not None


def how_to(python: str, cli: str) -> str:
    """``python`` (a keyword such as ``method='auto'``) in Python, ``cli`` (``--method auto``) on the command line.

    Examples
    --------
    >>> how_to("method='auto'", "--method auto")
    "method='auto'"
    """
    return cli if on_command_line() else python


def limit_hint(name: str, needed: int | None = None, option: str = "", *, keyword: str = "") -> str:
    """How to raise the global size limit ``name`` (the end of a refusal message), for the reader at hand.

    In Python: ``pg.set_limits(name=N)`` or ``with pg.limits(name=N):``, after the function's own keyword
    ``keyword`` when it has one (``max_work=``). On the command line (:func:`command_line`): the command's own
    option (``option``, else the one registered for the limit, when the command accepts it) and ``--limit name=N``,
    the global option every command takes. ``needed`` (the size that was refused) is shown as the value to set.

    Examples
    --------
    >>> limit_hint("exact_entries", 5000)
    'raise it with pg.set_limits(exact_entries=5000) or `with pg.limits(exact_entries=5000):`'
    >>> limit_hint("profile_work", keyword="max_work")
    'raise it with max_work=N or pg.set_limits(profile_work=N) or `with pg.limits(profile_work=N):`'
    >>> with command_line(["--max-work", "--json"]):
    ...     limit_hint("profile_work", 99, option="--max-work")
    'raise it with --max-work 99 (or --limit profile_work=99)'
    """
    value = "N" if needed is None else str(int(needed))
    accepted = _COMMAND_LINE.get()
    if accepted is not None:
        own = option or LIMIT_OPTIONS.get(name, "")
        if own and own in accepted:
            return f"raise it with {own} {value} (or --limit {name}={value})"
        return f"raise it with --limit {name}={value}"
    first = f"{keyword}={value} or " if keyword else ""
    return f"raise it with {first}pg.set_limits({name}={value}) or `with pg.limits({name}={value}):`"
