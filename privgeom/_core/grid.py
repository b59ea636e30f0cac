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
- **Resume**: with an output file (``.parquet``/``.pq`` or ``.csv``), rows already there without an error are
  reused and their points are not evaluated again (points are keyed by the text of their grid values); the file is
  rewritten atomically as batches finish (at most every :data:`WRITE_INTERVAL` seconds, and at the end). Points
  whose row holds an error are evaluated again.

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

import importlib
import itertools
import math
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .errors import FormatError, InvalidParameterError, MissingDependencyError, SizeLimitError
from .limits import register_limit
from .arrays import parse_int
from .hints import limit_hint
from .progress import Progress

__all__ = ["expand_grid", "parse_grid_option", "parse_grid_value", "run_grid", "batch_size", "require",
           "grid_key", "answered_rows", "read_rows", "write_rows", "to_frame", "out_format",
           "OUT_FORMATS", "SCHEDULERS", "WRITE_INTERVAL", "MAX_GRID_POINTS", "EXTRA"]

#: Name of the optional extra that brings Dask, pandas and pyarrow.
EXTRA = "sweep"
#: The output formats, by file extension.
OUT_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
#: The named schedulers (besides a ``dask.distributed.Client`` or a scheduler address).
SCHEDULERS = ("processes", "threads", "serial")
#: Seconds between two rewrites of the output file while a grid runs.
WRITE_INTERVAL = 2.0
#: Largest number of grid points (the product of the list lengths), checked before any work.
MAX_GRID_POINTS = 1_000_000
register_limit("grid_points", globals(), "MAX_GRID_POINTS",
               "largest number of points of a sweep grid (the product of its list lengths)")
#: With the default scheduler, seconds of in-process work before the remaining points go to Dask's worker processes
#: (starting them costs about a second each: a sweep shorter than this never pays for them).
AUTO_SERIAL_SECONDS = 1.0
#: With the default scheduler, the remaining work (estimated from the points done in-process) below which the sweep
#: stays in-process: spawned workers each import privgeom, a few seconds on a busy machine (benchmarks/bench_sweep.py).
AUTO_PARALLEL_SECONDS = 5.0
#: Largest integer range ``A..B`` on the command line.
MAX_RANGE = 100_000

Row = dict[str, Any]


def require(module: str) -> Any:
    """Import one module of the optional extra, or raise :class:`MissingDependencyError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"sweeps need the optional dependencies Dask, pandas and pyarrow ({module} is missing): "
            f"pip install 'privgeom[{EXTRA}]'") from exc


def _has(module: str) -> bool:
    try:
        require(module)
    except MissingDependencyError:
        return False
    return True


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
                raise SizeLimitError(f"--grid {text!r}: the range {part!r} has {hi - lo + 1:,} values, more than "
                                     f"{MAX_RANGE:,}")
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
    if size > MAX_GRID_POINTS:
        raise SizeLimitError(f"the grid has {size:,} points, more than {MAX_GRID_POINTS:,}; "
                             + limit_hint("grid_points", size))
    return out


def expand_grid(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """The points of a grid: the product of its named lists, the last name varying fastest."""
    g = _check_grid(grid)
    names = list(g)
    return [dict(zip(names, combo)) for combo in itertools.product(*g.values())]


def grid_key(value: Any) -> str:
    """The text that identifies a grid value across runs (``2``, ``0.5``, ``2/3``): ``str``, floats by ``repr``."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars read back from a file
        return grid_key(value.item())
    return str(value)


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
        clash = set(fields) & (set(point) | {"seconds", "error"})
        if clash:
            raise InvalidParameterError(f"the answer's fields {sorted(clash)} clash with grid names or "
                                        "'seconds'/'error'; rename the grid axis")
        row.update(fields)
        row["error"] = None
    except Exception as exc:  # one point's failure never stops the sweep (KeyboardInterrupt still does)
        row["error"] = f"{type(exc).__name__}: {exc}"
    row["seconds"] = time.perf_counter() - t0
    return row


def _run_batch(func: Callable[[dict[str, Any]], Mapping[str, Any]], batch: list[tuple[int, dict[str, Any]]],
               record: bool = True) -> list[tuple[int, Row]]:
    return [(i, _evaluate(func, pt, record)) for i, pt in batch]


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def batch_size(n_points: int, workers: int, *, per_worker: int = 4) -> int:
    """Points per task: about ``per_worker`` tasks per worker (load balance) but never below one point.

    Examples
    --------
    >>> batch_size(200, 2), batch_size(3, 2), batch_size(0, 2)
    (25, 1, 1)
    """
    return max(1, math.ceil(n_points / max(1, workers * per_worker)))


def _batches(todo: list[tuple[int, dict[str, Any]]], size: int) -> list[list[tuple[int, dict[str, Any]]]]:
    return [todo[i:i + size] for i in range(0, len(todo), size)]


def _stream_serial(func: Callable[..., Any], batches: list[list[tuple[int, dict[str, Any]]]], record: bool
                   ) -> Iterator[list[tuple[int, Row]]]:
    for b in batches:
        yield _run_batch(func, b, record)


def _stream_local(func: Callable[..., Any], batches: list[list[tuple[int, dict[str, Any]]]], how: str,
                  workers: int, sink: Callable[[list[tuple[int, Row]]], None], record: bool) -> None:
    """Dask's local scheduler; each finished batch goes to ``sink`` from Dask's ``posttask`` callback."""
    dask = require("dask")
    require("dask.callbacks")

    tasks = [dask.delayed(_run_batch, pure=False)(func, b, record) for b in batches]
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


def _stream_cluster(func: Callable[..., Any], batches: list[list[tuple[int, dict[str, Any]]]], scheduler: Any,
                    record: bool) -> Iterator[list[tuple[int, Row]]]:
    distributed = require("distributed")
    client, own = scheduler, False
    if isinstance(scheduler, str):
        client, own = distributed.Client(scheduler.strip(), set_as_default=False), True
    try:
        futures = [client.submit(_run_batch, func, b, record, pure=False) for b in batches]
        for fut in distributed.as_completed(futures):
            yield fut.result()
    finally:
        if own:
            client.close()


def _resolve(scheduler: Any) -> str:
    if scheduler is None:
        return "auto"
    if isinstance(scheduler, str):
        s = scheduler.strip()
        if s in SCHEDULERS:
            return s
        if "://" in s or ":" in s:
            return "cluster"
        raise InvalidParameterError(f"unknown scheduler {scheduler!r}: use {', '.join(SCHEDULERS)}, a "
                                    "dask.distributed.Client or a scheduler address such as tcp://127.0.0.1:8786")
    if type(scheduler).__name__ == "Client" and hasattr(scheduler, "submit"):
        return "cluster"
    raise InvalidParameterError(f"unknown scheduler {scheduler!r} ({type(scheduler).__name__}): use "
                                f"{', '.join(SCHEDULERS)}, a dask.distributed.Client or a scheduler address")


# ---------------------------------------------------------------------------------------------------- files
def out_format(out: str | Path) -> str:
    """``"parquet"`` or ``"csv"`` from the file extension (anything else: :class:`FormatError`)."""
    fmt = OUT_FORMATS.get(Path(out).suffix.lower())
    if fmt is None:
        raise FormatError(f"output file {str(out)!r}: use a .parquet, .pq or .csv extension")
    return fmt


def read_rows(out: str | Path) -> list[Row]:
    """The rows of an earlier run's output file (none if it does not exist)."""
    path = Path(out)
    fmt = out_format(path)
    if not path.exists():
        return []
    pd = require("pandas")
    try:
        if fmt == "parquet":
            frame = pd.read_parquet(path)
        else:  # exact values and errors are text, whatever they look like ("3" stays "3")
            header = pd.read_csv(path, nrows=0).columns
            frame = pd.read_csv(path, dtype={c: str for c in header if c.endswith("_exact") or c == "error"})
    except Exception as exc:
        raise FormatError(f"cannot resume from {str(out)!r}: {type(exc).__name__}: {exc}") from None
    rows = []
    for rec in frame.to_dict("records"):
        rows.append({k: (None if _is_missing(v) else (v.item() if hasattr(v, "item") else v)) for k, v in rec.items()})
    return rows


def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _normalise_columns(frame: Any, names: Sequence[str]) -> Any:
    """Grid columns of mixed types become text, so that Parquet stores them (``0.5`` and ``"2/3"``)."""
    for name in names:
        kinds = {type(v) for v in frame[name]}
        if len(kinds) > 1 and not kinds <= {int, float}:
            frame[name] = [grid_key(v) for v in frame[name]]
    return frame


def to_frame(rows: Sequence[Row], names: Sequence[str]) -> Any:
    """A pandas DataFrame of rows: grid columns first, then the answer's fields, then ``seconds`` and ``error``."""
    pd = require("pandas")
    cols: list[str] = list(names)
    for r in rows:
        cols.extend(k for k in r if k not in cols and k not in ("seconds", "error"))
    cols += ["seconds", "error"]
    frame = pd.DataFrame([{c: r.get(c) for c in cols} for r in rows], columns=cols)
    if len(frame):
        frame["error"] = frame["error"].astype(object).where(frame["error"].notna(), None)
    return _normalise_columns(frame, names)


def write_rows(out: str | Path, rows: Sequence[Row], names: Sequence[str]) -> None:
    """Write rows to ``out`` (format by extension) atomically: a temporary file renamed over the target."""
    path = Path(out)
    fmt = out_format(path)
    frame = to_frame(rows, names)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        if fmt == "parquet":
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_csv(tmp, index=False)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def answered_rows(previous: Sequence[Row], names: Sequence[str]) -> dict[tuple[str, ...], Row]:
    """The rows of an earlier run without an error, keyed by the text of their grid values (:func:`grid_key`)."""
    answered: dict[tuple[str, ...], Row] = {}
    for r in previous:
        if r.get("error") is None and all(n in r for n in names):
            answered[tuple(grid_key(r[n]) for n in names)] = r
    return answered


# ---------------------------------------------------------------------------------------------------- runner
def run_grid(func: Callable[[dict[str, Any]], Mapping[str, Any]], grid: Mapping[str, Sequence[Any]] | Sequence[dict[str, Any]],
             *, scheduler: Any = None, out: str | Path | None = None, batch: int | None = None,
             workers: int | None = None, progress: bool | None = None, label: str = "sweep",
             errors: str = "record") -> list[Row]:
    """Evaluate ``func(point)`` at every point of ``grid``; the rows in grid order (see the module docstring).

    Parameters
    ----------
    func : callable
        ``point -> {field: value}``; it must be picklable by cloudpickle for the process and cluster schedulers
        (module-level functions, ``functools.partial`` of them, lambdas all are).
    grid : mapping name -> list, or a list of point dicts (all with the same names)
    scheduler : None, "processes", "threads", "serial", dask.distributed.Client or address
    out : path, optional
        ``.parquet``/``.pq`` or ``.csv``: written as batches finish; answered points found there are skipped.
    batch : int, optional
        Points per task (default :func:`batch_size`).
    workers : int, optional
        Local workers (default: every core this process may use).
    progress : bool, optional
        Force the progress bar on or off (default: on a terminal).
    label : str
        Text before the progress bar.
    errors : "record" or "raise"
        ``"record"`` (default): a point's exception goes to its ``error`` column; ``"raise"``: it propagates (the
        experiments, whose points never fail on valid input).
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
    workers = _cores() if workers is None else parse_int(workers, name="workers", min=1)
    # earlier answers (resume)
    previous = read_rows(out) if out is not None else []
    answered = answered_rows(previous, names)
    keys = [tuple(grid_key(p[n]) for n in names) for p in points]
    # an earlier answer keeps the point's own values (types) for the grid columns
    rows: list[Row | None] = [None if k not in answered else {**answered[k], **p} for k, p in zip(keys, points)]
    todo = [(i, points[i]) for i in range(len(points)) if rows[i] is None]
    current = set(keys)
    others = [r for r in previous if not all(n in r for n in names)
              or tuple(grid_key(r[n]) for n in names) not in current]
    bar = Progress(len(points), label, enabled=progress)
    bar.update(len(points) - len(todo))
    last = [time.monotonic()]
    n_errors = [0]

    def flush() -> None:
        if out is not None:
            write_rows(out, [r for r in rows if r is not None] + others, names)

    def sink(done: list[tuple[int, Row]]) -> None:
        for i, row in done:
            rows[i] = row
            n_errors[0] += row.get("error") is not None
        bar.update(len(done), note=f"{n_errors[0]} errors" if n_errors[0] else "")
        if out is not None and time.monotonic() - last[0] >= WRITE_INTERVAL:
            flush()
            last[0] = time.monotonic()

    try:
        if how == "auto":  # in-process until the work outlasts the start of worker processes, then Dask
            t0, probed = time.monotonic(), 0
            while todo and (workers == 1 or time.monotonic() - t0 < AUTO_SERIAL_SECONDS):
                sink(_run_batch(func, todo[:1], record))
                todo, probed = todo[1:], probed + 1
            rest = (time.monotonic() - t0) / max(1, probed) * len(todo)  # the remaining work, estimated in-process
            # without Dask, or when the rest is too short to pay for starting workers: in-process to the end
            how = "processes" if rest > AUTO_PARALLEL_SECONDS and _has("dask") else "serial"
        size = batch_size(len(todo), workers) if batch is None else batch
        batches = _batches(todo, size)
        if batches and (how == "serial" or (how == "processes" and len(batches) == 1)):
            for done in _stream_serial(func, batches, record):  # one task: worker processes would only add their start-up
                sink(done)
        elif batches and how == "cluster":
            for done in _stream_cluster(func, batches, scheduler, record):
                sink(done)
        elif batches:
            _stream_local(func, batches, how, workers, sink, record)
    finally:
        bar.close()
        flush()
    return [r for r in rows if r is not None]
