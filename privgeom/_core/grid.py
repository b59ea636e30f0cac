"""The one grid runner of privgeom: evaluate a function at every point of a grid, in parallel on Dask, resumably.

:func:`privgeom.sweep` (templates and named queries) and the experiments of :mod:`privgeom.smoothed` and
:mod:`privgeom.voting` run their grids through :func:`run_grid`; it sits at the base layer so that every layer can.

- A **grid** is the Cartesian product of named lists (:func:`expand_grid`, in the order given: the last name varies
  fastest). On the command line a list is ``NAME=V1,V2,...`` or an integer range ``NAME=A..B`` (both ends included,
  integers only; :func:`parse_grid_option`).
- A **point** is one ``{name: value}`` dict. The function returns a dict of flat fields for it. A point whose
  function raises is recorded, never stops the run: its row has the ``error`` column set to ``"TypeName: message"``
  (a :class:`~privgeom.PrivgeomError` and any other :class:`Exception` alike; ``KeyboardInterrupt`` still stops).
- **Schedulers** (``scheduler=``): ``None`` (default) — Dask's local ``"processes"`` scheduler on every core (no
  server), after evaluating points in this process for :data:`AUTO_SERIAL_SECONDS`: when the remaining work,
  estimated from those points, is below :data:`AUTO_PARALLEL_SECONDS` the sweep stays in-process (starting worker
  processes would cost more than they save); ``"processes"`` — Dask's process pool from the first point; ``"threads"`` — Dask's thread pool (for work that releases the GIL);
  ``"serial"`` — a plain loop in this process; a ``dask.distributed.Client`` or a scheduler address
  (``"tcp://host:8786"``) — an existing cluster. Points are batched (:func:`batch_size`) so that each task carries
  enough work to hide Dask's overhead, and each batch's rows come back as soon as it finishes (Dask callbacks on the
  local schedulers, ``as_completed`` on a cluster): the progress bar and the output file follow.
- **Resume**: with an output file (``.parquet``/``.pq`` or ``.csv``), a row already there is reused — its point is
  not evaluated again — only when its *whole key* matches: the text of its grid values (:func:`grid_key`) and the
  run key, the canonical JSON text of everything else that determines an answer (:func:`run_key`; for
  :func:`privgeom.sweep`: the template — a callable by
  :func:`~privgeom._core.grid_files.callable_key` —, the query, its options — a file named by an option also by its
  SHA-256 —, the grid's names, and privgeom's version). Every row of the file carries its run key in the column
  :data:`RUN_COLUMN` (a column, not file metadata, so that CSV and Parquet work alike and a copied or concatenated
  file keeps it), so one file may hold the rows of several sweeps; rows of other runs are kept as they are. A file
  without that column was not written by a sweep: it is refused (:class:`~privgeom.FormatError` naming it), never
  read as answers. Rows with an error are evaluated again. The size limits (:mod:`privgeom._core.limits`) are not
  part of the key: they decide whether a point is refused (an error row, tried again), not its answer. The file is
  rewritten atomically as batches finish (at most every :data:`WRITE_INTERVAL` seconds, and at the end).
- **Limits**: the size limits in force where the grid is started (``with pg.limits(...)`` overrides and
  ``pg.set_limits`` values, :func:`privgeom._core.limits.active_limits`) travel with every task and are in force on
  its worker, whatever the scheduler.
- **Workers**: before the first task, :data:`PROBE_POINTS` points are evaluated here (they measure the cost of a
  point, and with the local process scheduler the worker processes, forked afterwards, start with privgeom's modules
  and caches warm); batches then hold about :data:`TASK_SECONDS` of work each (never more than a quarter of a
  worker's share, for load balance; :func:`batch_size`). On a cluster a worker plugin (:func:`warm_up_plugin`)
  warms every worker once — it imports the point function's modules and, when a point costs less than
  :data:`WARM_UP_SECONDS`, evaluates the measured point there too (lazy imports, per-structure caches) — before the
  tasks are submitted. A scheduler address is tried within :data:`CONNECT_TIMEOUT` seconds; an unreachable one
  raises :class:`~privgeom.InvalidParameterError` naming the address and what failed.

Dask, pandas and pyarrow are the optional extra ``privgeom[sweep]``; they are imported only when needed and their
absence raises :class:`~privgeom.MissingDependencyError` naming the extra.

Examples
--------
>>> expand_grid({"k": [2, 3], "p": ["2/3", "3/4"]})
[{'k': 2, 'p': '2/3'}, {'k': 2, 'p': '3/4'}, {'k': 3, 'p': '2/3'}, {'k': 3, 'p': '3/4'}]
>>> parse_grid_option("k=2..5")
('k', [2, 3, 4, 5])
>>> rows = run_grid(lambda pt: {"square": pt["k"] ** 2}, {"k": [1, 2, 3]}, scheduler="serial")
>>> [(r["k"], r["square"], r["error"]) for r in rows]
[(1, 1, None), (2, 4, None), (3, 9, None)]
"""

from __future__ import annotations

import itertools
import math
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .errors import FormatError, InvalidParameterError, SizeLimitError
from .limits import register_limit
from .arrays import parse_int
from .hints import limit_hint
from .numbers import number_text
from .grid_files import (
    EXTRA,
    OUT_FORMATS,
    RESERVED,
    RUN_COLUMN,
    Row,
    _has,
    _is_missing,
    _point_key,
    answered_rows,
    file_key,
    function_key,
    grid_key,
    out_format,
    read_rows,
    require,
    run_key,
    to_frame,
    write_rows,
)
from .limits import active_limits, applied, current_limit
from .progress import Progress

__all__ = [
    "expand_grid",
    "parse_grid_option",
    "parse_grid_value",
    "run_grid",
    "batch_size",
    "require",
    "grid_key",
    "answered_rows",
    "read_rows",
    "write_rows",
    "to_frame",
    "out_format",
    "run_key",
    "file_key",
    "warm_up_plugin",
    "connect",
    "function_key",
    "OUT_FORMATS",
    "SCHEDULERS",
    "WRITE_INTERVAL",
    "MAX_GRID_POINTS",
    "EXTRA",
    "RUN_COLUMN",
    "RESERVED",
    "TASK_SECONDS",
    "PROBE_POINTS",
    "WARM_UP_SECONDS",
    "CONNECT_TIMEOUT",
]

#: The named schedulers (besides a ``dask.distributed.Client`` or a scheduler address).
SCHEDULERS = ("processes", "threads", "serial")
#: Seconds between two rewrites of the output file while a grid runs.
WRITE_INTERVAL = 2.0
#: Largest number of grid points (the product of the list lengths), checked before any work.
MAX_GRID_POINTS = 1_000_000
register_limit(
    "grid_points",
    globals(),
    "MAX_GRID_POINTS",
    "largest number of points of a sweep grid (the product of its list lengths)",
)
#: With the default scheduler, seconds of in-process work before the remaining points go to Dask's worker processes
#: (starting them costs about a second each: a sweep shorter than this never pays for them).
AUTO_SERIAL_SECONDS = 1.0
#: With the default scheduler, the remaining work (estimated from the points done in-process) below which the sweep
#: stays in-process: spawned workers each import privgeom, a few seconds on a busy machine (benchmarks/bench_sweep.py).
AUTO_PARALLEL_SECONDS = 5.0
#: Largest integer range ``A..B`` on the command line.
MAX_RANGE = 100_000
#: Seconds of work per Dask task aimed at when the cost of a point has been measured (:func:`batch_size`): enough to
#: hide a task's overhead (milliseconds), short enough that the last tasks do not leave workers idle.
TASK_SECONDS = 0.5
#: A cluster's workers evaluate one point each before the tasks start (:func:`warm_up_plugin`) when a point costs
#: less than this (measured here); dearer points only import their modules there.
WARM_UP_SECONDS = 1.0
#: Points evaluated in this process before the first task, to measure the cost of a point (the first one also pays
#: for imports and caches, so the cost is that of the others).
PROBE_POINTS = 2
#: Seconds allowed to reach a scheduler address before the sweep is refused.
CONNECT_TIMEOUT = 2.0


# ---------------------------------------------------------------------------------------------------- grids
def parse_grid_value(text: str) -> Any:
    """A command-line grid value: an integer literal becomes an ``int``, anything else stays text (``"2/3"``)."""
    t = text.strip()
    try:
        return int(t) if t.lstrip("+-").isdigit() else t
    except ValueError:  # pragma: no cover - isdigit guarantees int() succeeds
        return t


def parse_grid_option(text: str) -> tuple[str, list[Any]]:
    """``NAME=V1,V2,...`` or ``NAME=A..B`` (an inclusive range of integers) -> ``(name, values)``.

    Examples
    --------
    >>> parse_grid_option("p=2/3,3/4")
    ('p', ['2/3', '3/4'])
    >>> parse_grid_option("n=1,3..5")
    ('n', [1, 3, 4, 5])
    """
    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier() or not rest.strip():
        raise FormatError(f"--grid {text!r}: write NAME=V1,V2,... or NAME=A..B (integers), e.g. k=2..6 or p=2/3,3/4")
    values: list[Any] = []
    for part in rest.split(","):
        part = part.strip()
        if not part:
            raise FormatError(f"--grid {text!r}: empty value")
        if ".." in part:
            lo_s, _, hi_s = part.partition("..")
            try:
                lo, hi = int(lo_s), int(hi_s)
            except ValueError:
                raise FormatError(f"--grid {text!r}: the range {part!r} needs integer ends, e.g. 2..12") from None
            if hi < lo:
                raise FormatError(f"--grid {text!r}: the range {part!r} is empty (end below start)")
            if hi - lo + 1 > MAX_RANGE:
                raise SizeLimitError(
                    f"--grid {text!r}: the range {part!r} has {hi - lo + 1:,} values, more than {MAX_RANGE:,}"
                )
            values.extend(range(lo, hi + 1))
        else:
            values.append(parse_grid_value(part))
    return name, values


def _check_grid(grid: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
    if not isinstance(grid, Mapping) or not grid:
        raise InvalidParameterError(f"the grid must be a non-empty mapping name -> list of values, got {grid!r}")
    out: dict[str, list[Any]] = {}
    for name, values in grid.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise InvalidParameterError(f"grid name {name!r} is not an identifier")
        if name in RESERVED:
            raise InvalidParameterError(
                f"grid name {name!r} is taken by a column of every row ({', '.join(RESERVED)}); rename the axis"
            )
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise InvalidParameterError(f"grid {name!r}: expected a list of values, got {values!r}")
        vals = list(values)
        if not vals:
            raise InvalidParameterError(f"grid {name!r} has no values")
        keys = [grid_key(v) for v in vals]
        if len(set(keys)) != len(keys):
            raise InvalidParameterError(f"grid {name!r} repeats a value: {vals!r}")
        out[name] = vals
    size = math.prod(len(v) for v in out.values())
    if size > current_limit("grid_points"):
        raise SizeLimitError(
            f"the grid has {size:,} points, more than {current_limit('grid_points'):,}; "
            + limit_hint("grid_points", size)
        )
    return out


def expand_grid(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """The points of a grid: the product of its named lists, the last name varying fastest."""
    g = _check_grid(grid)
    names = list(g)
    return [dict(zip(names, combo)) for combo in itertools.product(*g.values())]


# ---------------------------------------------------------------------------------------------------- evaluation
def _evaluate(func: Callable[[dict[str, Any]], Mapping[str, Any]], point: dict[str, Any], record: bool = True) -> Row:
    """One point's row: the grid values, the function's fields, ``seconds`` and ``error`` (``record=False``: an
    exception propagates instead)."""
    t0 = time.perf_counter()
    row: Row = dict(point)
    if not record:
        row.update(func(dict(point)))
        row["error"] = None
        row["seconds"] = time.perf_counter() - t0
        return row
    try:
        fields = func(dict(point))
        clash = set(fields) & (set(point) | set(RESERVED))
        if clash:
            raise InvalidParameterError(
                f"the answer's fields {sorted(clash)} clash with grid names or "
                f"{'/'.join(map(repr, RESERVED))}; rename the grid axis"
            )
        row.update(fields)
        row["error"] = None
    except Exception as exc:  # one point's failure never stops the sweep (KeyboardInterrupt still does)
        row["error"] = f"{type(exc).__name__}: {exc}"
    row["seconds"] = time.perf_counter() - t0
    return row


def _run_batch(
    func: Callable[[dict[str, Any]], Mapping[str, Any]],
    batch: list[tuple[int, dict[str, Any]]],
    record: bool = True,
    limits: Mapping[str, int] | None = None,
) -> list[tuple[int, Row]]:
    """One task: its points' rows, evaluated under ``limits`` (the sender's :func:`active_limits`) wherever it runs."""
    with applied(limits or {}):
        return [(i, _evaluate(func, pt, record)) for i, pt in batch]


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def batch_size(n_points: int, workers: int, *, per_point: float | None = None, per_worker: int = 4) -> int:
    """Points per task: about :data:`TASK_SECONDS` of work when the cost of a point (``per_point`` seconds) was
    measured, but never more than ``n_points / (workers · per_worker)`` (each worker gets ``per_worker`` tasks or
    more, for load balance) and never below one point.

    Examples
    --------
    >>> batch_size(200, 2), batch_size(3, 2), batch_size(0, 2)
    (25, 1, 1)
    >>> batch_size(600, 2, per_point=0.1), batch_size(600, 2, per_point=2.0), batch_size(600, 2, per_point=1e-4)
    (5, 1, 75)
    """
    balanced = max(1, math.ceil(n_points / max(1, workers * per_worker)))
    if per_point is None or per_point <= 0:
        return balanced
    return max(1, min(balanced, math.ceil(TASK_SECONDS / per_point)))


def _batches(todo: list[tuple[int, dict[str, Any]]], size: int) -> list[list[tuple[int, dict[str, Any]]]]:
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def _stream_serial(
    func: Callable[..., Any], batches: list[list[tuple[int, dict[str, Any]]]], record: bool
) -> Iterator[list[tuple[int, Row]]]:
    for b in batches:
        yield _run_batch(func, b, record)


def _stream_local(
    func: Callable[..., Any],
    batches: list[list[tuple[int, dict[str, Any]]]],
    how: str,
    workers: int,
    sink: Callable[[list[tuple[int, Row]]], None],
    record: bool,
) -> None:
    """Dask's local scheduler; each finished batch goes to ``sink`` from Dask's ``posttask`` callback."""
    dask = require("dask")
    require("dask.callbacks")
    limits = active_limits()  # the pool's threads and processes do not share this context: shipped with each task
    tasks = [dask.delayed(_run_batch, pure=False)(func, b, record, limits) for b in batches]
    keys = {t.key for t in tasks}

    def _posttask(key: Any, result: Any, dsk: Any, state: Any, worker_id: Any) -> None:
        if key in keys:  # a batch (not a graph-internal task)
            sink(result)

    with dask.config.set({"multiprocessing.context": _context(dask)}), dask.callbacks.Callback(posttask=_posttask):
        dask.compute(*tasks, scheduler=how, num_workers=workers)


def _context(dask: Any) -> str:
    """The start method of Dask's local worker processes: Dask's ``multiprocessing.context`` if the user set it, else
    ``fork`` on Linux and other POSIX systems except macOS, else ``spawn``.

    Forked workers inherit the imported package: on the 2-core reference machine a spawned pool spent 4-5 s
    importing privgeom in each worker before the first point (``benchmarks/bench_sweep.py``: 60 light points took
    5.0 s with ``spawn`` against 0.4 s with ``fork``), and they need no ``if __name__ == "__main__":`` guard nor a
    re-importable main module. The workers only evaluate points (no locks of the parent's threads are taken)."""
    chosen = dask.config.get("multiprocessing.context", None)
    if chosen:
        return str(chosen)
    return "fork" if hasattr(os, "fork") and sys.platform != "darwin" else "spawn"


def connect(address: str, *, timeout: float | None = None) -> Any:
    """A ``dask.distributed.Client`` of the scheduler at ``address``, or :class:`InvalidParameterError` naming the
    address and what failed, within ``timeout`` seconds (default :data:`CONNECT_TIMEOUT`).

    A ``tcp://host:port`` address is first tried with a plain socket, so that a refused or unreachable address is
    answered at once (without a Client whose retries and clean-up take tens of seconds).

    Examples
    --------
    >>> connect("tcp://127.0.0.1:x")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: scheduler address 'tcp://127.0.0.1:x': the port 'x' is not an integer; write tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786
    """
    wait = CONNECT_TIMEOUT if timeout is None else float(timeout)
    text = address.strip()
    scheme, sep, rest = text.rpartition("://")
    if (scheme or "tcp") == "tcp":
        host, colon, port_text = rest.rpartition(":") if sep else text.rpartition(":")
        if not colon or not host:
            raise InvalidParameterError(
                f"scheduler address {address!r}: write tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
            )
        if not port_text.isdigit():
            raise InvalidParameterError(
                f"scheduler address {address!r}: the port {port_text!r} is not an integer; "
                "write tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
            )
        try:
            with socket.create_connection((host.strip("[]"), int(port_text)), timeout=wait):
                pass
        except OSError as exc:
            why = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__).lower()
            raise InvalidParameterError(
                f"cannot reach the Dask scheduler at {address!r}: {why} (within {number_text(wait)} s); "
                "start one (dask scheduler), give another address, or use --scheduler "
                "processes"
            ) from None
    distributed = require("distributed")  # after the socket: a refused address is answered without importing it
    try:
        return distributed.Client(text, timeout=wait, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InvalidParameterError(
            f"cannot connect to a Dask scheduler at {address!r}: {type(exc).__name__}: {exc}"
        ) from None


def warm_up_plugin(func: Callable[..., Any], point: dict[str, Any] | None, limits: Mapping[str, int]) -> Any:
    """A ``distributed`` worker plugin that warms each worker once: unpickling it imports the modules of ``func``;
    with a ``point``, ``setup`` also evaluates it there (result dropped, errors ignored), so that lazy imports and
    per-structure caches are filled before the first task. Registered under one name, so that a sweep replaces the
    plugin of the previous one on the same cluster."""
    plugin_base = require("distributed.diagnostics.plugin").WorkerPlugin

    class _WarmUp(plugin_base):  # type: ignore[misc, valid-type]
        name = "privgeom-sweep-warm-up"

        def __init__(self) -> None:
            self.func, self.point, self.limits = func, point, dict(limits)

        def setup(self, worker: Any) -> None:
            if self.point is not None:
                _run_batch(self.func, [(0, self.point)], True, self.limits)

    return _WarmUp()


#: Scheduler address -> the run key whose warm-up plugin it holds: a sweep run again on the same cluster (the same
#: point function) does not warm its workers again; workers that join later get the registered plugin.
_WARMED: dict[str, str] = {}


def _stream_cluster(
    func: Callable[..., Any],
    batches: list[list[tuple[int, dict[str, Any]]]],
    client: Any,
    record: bool,
    warm: dict[str, Any] | None,
    run: str,
) -> Iterator[list[tuple[int, Row]]]:
    distributed = require("distributed")
    limits = active_limits()
    address = str(getattr(getattr(client, "scheduler", None), "address", id(client)))
    if _WARMED.get(address) != run:
        client.register_plugin(warm_up_plugin(func, warm, limits))
        _WARMED[address] = run
    futures = [client.submit(_run_batch, func, b, record, limits, pure=False) for b in batches]
    for fut in distributed.as_completed(futures):
        yield fut.result()


def _resolve(scheduler: Any) -> str:
    if scheduler is None:
        return "auto"
    if isinstance(scheduler, str):
        s = scheduler.strip()
        if s in SCHEDULERS:
            return s
        if "://" in s or ":" in s:
            return "cluster"
        raise InvalidParameterError(
            f"unknown scheduler {scheduler!r}: use {', '.join(SCHEDULERS)}, a "
            "dask.distributed.Client or a scheduler address such as tcp://127.0.0.1:8786"
        )
    if type(scheduler).__name__ == "Client" and hasattr(scheduler, "submit"):
        return "cluster"
    raise InvalidParameterError(
        f"unknown scheduler {scheduler!r} ({type(scheduler).__name__}): use "
        f"{', '.join(SCHEDULERS)}, a dask.distributed.Client or a scheduler address"
    )


def _cluster_cores(client: Any) -> int:
    try:
        return max(1, sum(int(w.get("nthreads", 1)) for w in client.scheduler_info()["workers"].values()))
    except Exception:  # noqa: BLE001 - a client that cannot tell: this machine's cores
        return _cores()


# ---------------------------------------------------------------------------------------------------- runner
def run_grid(
    func: Callable[[dict[str, Any]], Mapping[str, Any]],
    grid: Mapping[str, Sequence[Any]] | Sequence[dict[str, Any]],
    *,
    scheduler: Any = None,
    out: str | Path | None = None,
    batch: int | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    label: str = "sweep",
    errors: str = "record",
    key: Mapping[str, Any] | None = None,
    report: dict[str, Any] | None = None,
) -> list[Row]:
    """Evaluate ``func(point)`` at every point of ``grid``; the rows in grid order (see the module docstring).

    Parameters
    ----------
    func : callable
        ``point -> {field: value}``; it must be picklable by cloudpickle for the process and cluster schedulers
        (module-level functions, ``functools.partial`` of them, lambdas all are).
    grid : mapping name -> list, or a list of point dicts (all with the same names)
    scheduler : None, "processes", "threads", "serial", dask.distributed.Client or address
    out : path, optional
        ``.parquet``/``.pq`` or ``.csv``: written as batches finish; points answered there under the same run key
        are skipped.
    batch : int, optional
        Points per task (default :func:`batch_size`, from the measured cost of a point).
    workers : int, optional
        Local workers (default: every core this process may use; on a cluster, its threads).
    progress : bool, optional
        Force the progress bar on or off (default: on a terminal).
    label : str
        Text before the progress bar.
    errors : "record" or "raise"
        ``"record"`` (default): a point's exception goes to its ``error`` column; ``"raise"``: it propagates (the
        experiments, whose points never fail on valid input).
    key : mapping, optional
        What determines an answer besides the grid values (JSON-able; :func:`run_key` adds privgeom's version);
        default :func:`function_key` of ``func``.
    report : dict, optional
        Filled with ``reused`` (points answered in ``out`` and not evaluated), ``batch`` (points per task) and
        ``per_point`` (the measured seconds of a point, or None).
    """
    if errors not in ("record", "raise"):
        raise InvalidParameterError(f"errors must be 'record' or 'raise', got {errors!r}")
    record = errors == "record"
    points = list(grid) if not isinstance(grid, Mapping) else expand_grid(grid)
    if not points:
        return []
    names = list(points[0])
    how = _resolve(scheduler)
    if batch is not None:
        batch = parse_int(batch, name="batch", min=1)
    if out is not None:
        out_format(out)
    if workers is not None:
        workers = parse_int(workers, name="workers", min=1)
    run = run_key(function_key(func) if key is None else key)
    # earlier answers (resume): only rows whose whole key matches
    previous = read_rows(out) if out is not None else []
    answered = answered_rows(previous, names, run)
    keys = [tuple(grid_key(p[n]) for n in names) for p in points]
    # an earlier answer keeps the point's own values (types) for the grid columns, and only the columns its run
    # filled somewhere (a file holding several runs has the union of their columns)
    own = {c for r in previous if r.get(RUN_COLUMN) == run for c, v in r.items() if not _is_missing(v)}
    rows: list[Row | None] = [
        None
        if k not in answered
        else {**{c: v for c, v in answered[k].items() if c in own and c != RUN_COLUMN}, "error": None, **p}
        for k, p in zip(keys, points)
    ]
    todo = [(i, points[i]) for i in range(len(points)) if rows[i] is None]
    current = set(keys)
    others = [r for r in previous if r.get(RUN_COLUMN) != run or _point_key(r, names) not in current]
    client = None
    if how == "cluster":  # before any work: an unreachable scheduler is refused at once
        client = connect(scheduler) if isinstance(scheduler, str) else scheduler
    bar = Progress(len(points), label, enabled=progress)
    bar.update(len(points) - len(todo))
    last = [time.monotonic()]
    n_errors = [0]
    info: dict[str, Any] = {"reused": len(points) - len(todo), "batch": batch, "per_point": None}

    def flush() -> None:
        if out is not None:
            write_rows(out, [{**r, RUN_COLUMN: run} for r in rows if r is not None] + others, names)

    def sink(done: list[tuple[int, Row]]) -> None:
        for i, row in done:
            rows[i] = row
            n_errors[0] += row.get("error") is not None
        bar.update(len(done), note=f"{n_errors[0]} errors" if n_errors[0] else "")
        if out is not None and time.monotonic() - last[0] >= WRITE_INTERVAL:
            flush()
            last[0] = time.monotonic()

    try:
        warm: dict[str, Any] | None = None
        if todo and how != "serial" and (how == "auto" or batch is None):
            # in-process first: measures a point's cost (batch size, auto's decision) and warms this process, which
            # the local process scheduler's workers are forked from; auto goes on until the work outlasts the start
            # of worker processes
            t0, times = time.monotonic(), list[float]()
            alone = (workers or _cores()) == 1
            while todo and (
                len(times) < PROBE_POINTS or (how == "auto" and (alone or time.monotonic() - t0 < AUTO_SERIAL_SECONDS))
            ):
                warm, t1 = dict(todo[0][1]), time.monotonic()
                sink(_run_batch(func, todo[:1], record))
                times.append(time.monotonic() - t1)
                todo = todo[1:]
            # the first point also paid for this process's imports and caches: a point costs what the later ones did
            info["per_point"] = sum(times[1:]) / (len(times) - 1) if len(times) > 1 else times[0]
            if info["per_point"] >= WARM_UP_SECONDS:
                warm = None
            if how == "auto":  # without Dask, or when the rest is too short to pay for starting workers: in-process
                rest = info["per_point"] * len(todo)
                how = "processes" if rest > AUTO_PARALLEL_SECONDS and _has("dask") else "serial"
        n_workers = workers or (_cluster_cores(client) if client is not None else _cores())
        size = batch_size(len(todo), n_workers, per_point=info["per_point"]) if batch is None else batch
        info["batch"] = size
        batches = _batches(todo, size)
        if batches and (how == "serial" or (how == "processes" and len(batches) == 1)):
            for done in _stream_serial(
                func, batches, record
            ):  # one task: worker processes would only add their start-up
                sink(done)
        elif batches and how == "cluster":
            for done in _stream_cluster(func, batches, client, record, warm, run):
                sink(done)
        elif batches:
            _stream_local(func, batches, how, n_workers, sink, record)
    finally:
        bar.close()
        flush()
        if client is not None and isinstance(scheduler, str):
            client.close()
        if report is not None:
            report.update(info)
    return [r for r in rows if r is not None]
