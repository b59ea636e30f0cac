"""The one progress bar of privgeom: a thin layer over :mod:`tqdm` on stderr.

A bar is drawn only when it helps a person waiting at a terminal:

- only when the stream (stderr by default) is a terminal, unless a caller forces it with ``enabled=True`` (the
  ``--progress`` options of the CLI) or off with ``enabled=False``;
- never inside :func:`quiet` (the CLI wraps every command run with ``--json`` in it), unless forced on;
- only once the loop has run for ``delay`` seconds (default 1 s), so quick commands print nothing.

Library code reports progress with :class:`Progress` (a counter) or :func:`track` (wrapping an iterable); both are
free when no bar is shown.

Examples
--------
>>> import io
>>> buf = io.StringIO()
>>> with Progress(3, "demo", stream=buf, enabled=True, delay=0.0) as bar:
...     for _ in range(3):
...         bar.update()
>>> "3/3" in buf.getvalue()
True
>>> list(track(range(3), label="silent"))   # not a terminal: no bar, same items
[0, 1, 2]
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, TextIO, TypeVar

from tqdm import tqdm

__all__ = ["Progress", "track", "quiet", "is_quiet", "drawn", "abandon"]

T = TypeVar("T")

_QUIET = [False]
_OPEN: dict[int, "Progress"] = {}


@contextmanager
def quiet(on: bool = True) -> Iterator[None]:
    """Within this block, bars that are not forced on stay hidden (``on=False`` leaves the setting unchanged)."""
    before = _QUIET[0]
    _QUIET[0] = before or on
    try:
        yield
    finally:
        _QUIET[0] = before


def is_quiet() -> bool:
    """True inside :func:`quiet`."""
    return _QUIET[0]


def drawn() -> bool:
    """True while a visible bar is open (the CLI then starts its Ctrl-C message on a new line)."""
    return bool(_OPEN)


def abandon() -> None:
    """Erase and close every open bar (the CLI calls this on Ctrl-C, before its one-line message)."""
    for bar in list(_OPEN.values()):
        bar.close(erase=True)


def _wanted(enabled: bool | None, stream: TextIO) -> bool:
    if enabled is not None:
        return bool(enabled)
    if _QUIET[0]:
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class Progress:
    """A progress counter shown as a tqdm bar on stderr (see the module docstring for when it is visible).

    Parameters
    ----------
    total : int
        Number of steps.
    label : str
        Text before the bar.
    stream : text stream, optional
        Where to draw (default ``sys.stderr``).
    enabled : bool, optional
        Force the bar on or off; default: on a terminal and outside :func:`quiet`.
    delay : float
        Seconds before the bar first appears.
    """

    def __init__(self, total: int, label: str = "", *, stream: TextIO | None = None, enabled: bool | None = None,
                 delay: float = 1.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _wanted(enabled, self.stream)
        self.total = max(1, int(total))
        self.done = 0
        self._bar: Any = None
        if self.enabled:
            self._bar = tqdm(total=self.total, desc=label or None, file=self.stream, delay=delay, leave=True,
                             dynamic_ncols=True, mininterval=0.2)
            _OPEN[id(self)] = self

    def update(self, k: int = 1, note: str = "") -> None:
        """Advance by ``k`` steps; ``note`` is shown after the bar."""
        self.done += k
        if self._bar is not None:
            if note:
                self._bar.set_postfix_str(note[:40], refresh=False)
            self._bar.update(k)

    def close(self, erase: bool = False) -> None:
        """Finish the bar (prints nothing if it never appeared; ``erase=True`` also wipes its line)."""
        if self._bar is not None:
            if erase:
                self._bar.leave = False
            self._bar.close()
            self._bar = None
            _OPEN.pop(id(self), None)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def track(iterable: Iterable[T], *, total: int | None = None, label: str = "", enabled: bool | None = None,
          delay: float = 1.0) -> Iterator[T]:
    """Iterate over ``iterable`` while advancing a :class:`Progress` bar (``total`` defaults to ``len(iterable)``)."""
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = 0
    bar = Progress(total or 1, label, enabled=enabled, delay=delay)
    try:
        for item in iterable:
            yield item
            bar.update()
    finally:
        bar.close()
