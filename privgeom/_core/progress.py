"""The one progress bar of privgeom: a thin layer over :mod:`tqdm` on stderr.

A bar is drawn only when it helps a person waiting at a terminal:

- only when the stream (stderr by default) is a terminal, unless a caller forces it with ``enabled=True`` (the
  ``--progress`` options of the CLI) or off with ``enabled=False``;
- never inside :func:`quiet` (the CLI wraps every command run with ``--json`` in it), unless forced on;
- only once the loop has run for ``delay`` seconds (default 1 s), so quick commands print nothing.

Library code reports progress with :class:`Progress` (a counter) or :func:`track` (wrapping an iterable); both are
free when no bar is shown.

The CLI runs every command inside :func:`activity`: an indeterminate bar (spinner, elapsed time and the current
:func:`stage`) drawn by a background thread once the command has run for :data:`ACTIVITY_DELAY` seconds, under the
same rules (a terminal, not :func:`quiet`); it steps aside while a :class:`Progress` bar is open and is erased when
the command ends, so nothing of it remains above the answer.

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

import io
import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, TextIO, TypeVar


__all__ = [
    "Progress",
    "track",
    "quiet",
    "is_quiet",
    "drawn",
    "abandon",
    "activity",
    "stage",
    "Activity",
    "ACTIVITY_DELAY",
]

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
    for act in list(_ACTIVE):
        act.stop()


def _tqdm() -> Any:
    """tqdm's bar class, imported when the first bar is shown (a fast start of ``import privgeom`` and the CLI)."""
    from tqdm import tqdm

    return tqdm


def _width(stream: TextIO) -> dict[str, Any]:
    """tqdm's size options: follow the terminal, or 80 x 24 where it reports no size (tqdm would otherwise cut every
    line to nothing, or hide the bar below a screen of height 0, e.g. in a pty opened without a size)."""
    try:
        size = os.get_terminal_size(stream.fileno())
        cols, rows = size.columns, size.lines
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        cols = rows = 0
    opts: dict[str, Any] = {"dynamic_ncols": True} if cols > 0 else {"ncols": 80}
    if rows <= 0:
        opts["nrows"] = 24
    return opts


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

    def __init__(
        self,
        total: int,
        label: str = "",
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        delay: float = 1.0,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _wanted(enabled, self.stream)
        self.total = max(1, int(total))
        self.done = 0
        self._bar: Any = None
        if self.enabled:
            self._bar = _tqdm()(
                total=self.total,
                desc=label or None,
                file=self.stream,
                delay=delay,
                leave=True,
                mininterval=0.2,
                **_width(self.stream),
            )
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


def track(
    iterable: Iterable[T], *, total: int | None = None, label: str = "", enabled: bool | None = None, delay: float = 1.0
) -> Iterator[T]:
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


#: Seconds a command runs before :func:`activity` draws its bar.
ACTIVITY_DELAY = 1.0
#: Seconds between two redraws of the activity bar.
ACTIVITY_INTERVAL = 0.2

_ACTIVE: list["Activity"] = []
_SPIN = "|/-\\"


class Activity:
    """An indeterminate bar for work without a step count (see :func:`activity`); :meth:`stage` names the current
    step. Drawn by a daemon thread so that it moves while the main thread is busy in numpy, cdd or an LP solver."""

    def __init__(
        self, label: str, *, stream: TextIO | None = None, enabled: bool | None = None, delay: float | None = None
    ) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _wanted(enabled, self.stream)
        self.delay = ACTIVITY_DELAY if delay is None else float(delay)
        self.note = ""
        self._bar: Any = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._start = time.monotonic()
        self._thread: threading.Thread | None = None
        self._turn = 0
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name="privgeom-activity", daemon=True)
            self._thread.start()

    def stage(self, note: str) -> None:
        """Name the current step (shown after the elapsed time)."""
        self.note = note

    def _draw(self) -> None:
        with self._lock:
            if self._done.is_set():
                return
            if _OPEN:  # a counting bar is open: it tells more; step aside
                if self._bar is not None:
                    self._bar.leave = False
                    self._bar.close()
                    self._bar = None
                return
            self._turn += 1
            if self._bar is None:
                self._bar = _tqdm()(
                    total=None,
                    file=self.stream,
                    leave=False,
                    mininterval=0,
                    delay=1e-9,
                    desc=f"{_SPIN[self._turn % len(_SPIN)]} {self.label}",
                    bar_format="{desc} [{elapsed}]{postfix}",
                    **_width(self.stream),
                )
                self._bar.start_t -= time.monotonic() - self._start  # elapsed since the command started
            self._bar.set_description_str(f"{_SPIN[self._turn % len(_SPIN)]} {self.label}", refresh=False)
            self._bar.set_postfix_str(self.note[:60], refresh=False)
            self._bar.refresh()

    def _run(self) -> None:
        wait = max(0.0, self.delay - (time.monotonic() - self._start))
        if self._done.wait(wait):
            return
        while not self._done.is_set():
            self._draw()
            self._done.wait(ACTIVITY_INTERVAL)

    def stop(self) -> None:
        """Stop the thread and erase the bar (idempotent)."""
        self._done.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        with self._lock:
            if self._bar is not None:
                self._bar.leave = False
                self._bar.close()
                self._bar = None
        if self in _ACTIVE:
            _ACTIVE.remove(self)

    @property
    def visible(self) -> bool:
        """True while the bar is drawn."""
        return self._bar is not None


@contextmanager
def activity(
    label: str, *, stream: TextIO | None = None, enabled: bool | None = None, delay: float | None = None
) -> Iterator[Activity]:
    """Show an indeterminate bar (spinner, elapsed time, current :func:`stage`) while the block runs longer than
    ``delay`` seconds (default :data:`ACTIVITY_DELAY`), on a terminal and outside :func:`quiet` (see the module
    docstring). The CLI wraps every command in it.

    Examples
    --------
    >>> import io
    >>> with activity("quiet demo", stream=io.StringIO()) as act:   # not a terminal: no thread, no bar
    ...     stage("step 1")
    >>> act.enabled, act.note
    (False, 'step 1')
    """
    act = Activity(label, stream=stream, enabled=enabled, delay=delay)
    _ACTIVE.append(act)
    try:
        yield act
    finally:
        act.stop()


def stage(note: str) -> None:
    """Name the current step of the innermost :func:`activity` (free when there is none)."""
    if _ACTIVE:
        _ACTIVE[-1].stage(note)
