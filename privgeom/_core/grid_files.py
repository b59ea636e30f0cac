"""Output files of the grid runner: run keys, reading and writing rows, and which earlier rows a resumed grid reuses.

:func:`privgeom._core.grid.run_grid` writes every row with its run key (:func:`run_key`) in the column
:data:`RUN_COLUMN`, and on a re-run reuses a row only when its run key and the text of its grid values
(:func:`grid_key`) both match (:func:`answered_rows`); a file without that column was not written by a sweep and
:func:`read_rows` refuses it. The module docstring of :mod:`privgeom._core.grid` tells the whole story.

Examples
--------
>>> grid_key(0.5), grid_key(2), grid_key("2/3")
('0.5', '2', '2/3')
>>> answered_rows([{"k": 2, "error": None, "run": "A"}, {"k": 3, "error": None, "run": "B"}], ["k"], "A")
{('2',): {'k': 2, 'error': None, 'run': 'A'}}
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import math
import os
import re
import types
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .errors import FormatError, MissingDependencyError

__all__ = [
    "require",
    "grid_key",
    "out_format",
    "function_key",
    "run_key",
    "file_key",
    "read_rows",
    "csv_value",
    "callable_key",
    "to_frame",
    "write_rows",
    "answered_rows",
    "EXTRA",
    "OUT_FORMATS",
    "RUN_COLUMN",
    "RESERVED",
    "Row",
]

#: Name of the optional extra that brings Dask, pandas and pyarrow.
EXTRA = "sweep"
#: The output formats, by file extension.
OUT_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
#: The column of an output file holding each row's run key (:func:`run_key`).
RUN_COLUMN = "run"
#: Column names a grid axis or an answer field may not take.
RESERVED = ("seconds", "error", RUN_COLUMN)

Row = dict[str, Any]


def require(module: str) -> Any:
    """Import one module of the optional extra, or raise :class:`MissingDependencyError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"sweeps need the optional dependencies Dask, pandas and pyarrow ({module} is missing): "
            f"pip install 'privgeom[{EXTRA}]'"
        ) from exc


def _has(module: str) -> bool:
    try:
        require(module)
    except MissingDependencyError:
        return False
    return True


def grid_key(value: Any) -> str:
    """The text that identifies a grid value across runs (``2``, ``0.5``, ``2/3``): ``str``, floats by ``repr``."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars read back from a file
        return grid_key(value.item())
    return str(value)


def out_format(out: str | Path) -> str:
    """``"parquet"`` or ``"csv"`` from the file extension (anything else: :class:`FormatError`)."""
    fmt = OUT_FORMATS.get(Path(out).suffix.lower())
    if fmt is None:
        raise FormatError(f"output file {str(out)!r}: use a .parquet, .pq or .csv extension")
    return fmt


def _version() -> str:
    try:
        return importlib.metadata.version("privgeom")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree without metadata
        return "unknown"


def _jsonable(value: Any) -> Any:
    """A key part that JSON does not know: its spec or JSON form where it has one, else its ``repr`` (an object
    whose ``repr`` holds its address never matches again: its rows are recomputed, never wrongly reused)."""
    for method in ("spec", "to_json"):
        f = getattr(value, method, None)
        if callable(f):
            try:
                return {type(value).__name__: f()}
            except Exception:  # noqa: BLE001 - an object whose spec needs arguments: fall back to repr
                pass
    return repr(value)


def callable_key(func: Callable[..., Any]) -> str:
    """What identifies a Python function across runs: its qualified name and a digest of its code (nested code
    included), its defaults and the values it closes over (by ``repr``), so that two lambdas of one module, one body
    edited, or one closure over another value never share rows. The globals it reads are not part of it.

    Examples
    --------
    >>> def rr(p):
    ...     return lambda k: (k, p)
    >>> callable_key(rr("3/4")) == callable_key(rr("3/4")), callable_key(rr("3/4")) == callable_key(rr("2/3"))
    (True, False)
    >>> callable_key(divmod)
    'builtins.divmod'
    """
    name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"
    code = getattr(func, "__code__", None)
    if not isinstance(code, types.CodeType):
        return name
    digest = hashlib.sha256()

    def feed(c: types.CodeType) -> None:
        digest.update(c.co_code + repr((c.co_names, c.co_varnames)).encode())
        for const in c.co_consts:
            feed(const) if isinstance(const, types.CodeType) else digest.update(repr(const).encode())

    feed(code)
    cells = []
    for cell in getattr(func, "__closure__", None) or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:  # an empty cell
            cells.append(None)
    digest.update(repr((getattr(func, "__defaults__", None), getattr(func, "__kwdefaults__", None), cells)).encode())
    return f"{name} code:{digest.hexdigest()[:16]}"


def function_key(func: Callable[..., Any]) -> dict[str, Any]:
    """The run key of a bare point function: :func:`callable_key` (and a ``functools.partial``'s arguments).

    Examples
    --------
    >>> from functools import partial
    >>> function_key(partial(divmod, 7))
    {'function': 'builtins.divmod', 'args': '(7,)', 'keywords': '{}'}
    """
    inner = getattr(func, "func", func)
    key: dict[str, Any] = {"function": callable_key(inner)}
    if inner is not func:
        keywords = dict(sorted(getattr(func, "keywords", {}).items()))
        key.update(args=repr(getattr(func, "args", ())), keywords=repr(keywords))
    return key


def run_key(key: Mapping[str, Any]) -> str:
    """The canonical text of a run key (what determines a row's answer besides its grid values), with privgeom's
    version added: sorted JSON, one line. Two runs share rows only when their texts are equal.

    Examples
    --------
    >>> text = run_key({"query": "relax", "template": "rr:k={k},p=3/4"})
    >>> text.startswith('{"privgeom": "') and text.endswith('"query": "relax", "template": "rr:k={k},p=3/4"}')
    True
    """
    return json.dumps({**key, "privgeom": _version()}, sort_keys=True, ensure_ascii=False, default=_jsonable)


def file_key(path: str | Path) -> str:
    """``sha256:HEX`` of a file's bytes: the key part of an option naming a file (its content decides the answers).

    Examples
    --------
    >>> import hashlib, tempfile, pathlib
    >>> hashlib.sha256(b"[[1]]").hexdigest()[:8]
    '043f347c'
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d) / "u.json"; _ = p.write_text("[[1]]")
    ...     file_key(p)[:15]
    'sha256:043f347c'
    """
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_rows(out: str | Path) -> list[Row]:
    """The rows of an earlier run's output file (none if it does not exist).

    Raises
    ------
    FormatError
        The file cannot be read, or it has no :data:`RUN_COLUMN` column: it was not written by a sweep, and its
        rows cannot be matched to one.
    """
    path = Path(out)
    fmt = out_format(path)
    if not path.exists():
        return []
    pd = require("pandas")
    try:
        if fmt == "parquet":
            frame = pd.read_parquet(path)
        else:  # every cell as text, then typed one by one (pandas would type a column: 2 next to a gap reads 2.0)
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except Exception as exc:
        raise FormatError(f"cannot resume from {str(out)!r}: {type(exc).__name__}: {exc}") from None
    if RUN_COLUMN not in frame.columns:
        raise FormatError(
            f"cannot resume from {str(out)!r}: it has no {RUN_COLUMN!r} column, so a privgeom sweep "
            "did not write it (or one older than run keys did) and its rows cannot be matched to this "
            "sweep; write to another file or remove this one"
        )
    text = {c for c in frame.columns if fmt == "csv" and (c.endswith("_exact") or c in ("error", RUN_COLUMN))}
    rows = []
    for rec in frame.to_dict("records"):
        row = {}
        for k, v in rec.items():
            if fmt == "csv":
                v = (v or None) if k in text else csv_value(v)
            row[k] = None if _is_missing(v) else (v.item() if hasattr(v, "item") else v)
        rows.append(row)
    return rows


_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)")


def csv_value(text: str) -> Any:
    """One CSV cell as the sweep wrote it: empty -> None, ``True``/``False`` -> bool, an integer literal -> int, a
    decimal literal -> float, anything else stays text (``2/3``). Exact values, errors and run keys are read as text.

    Examples
    --------
    >>> [csv_value(t) for t in ["", "2", "-3", "0.5", "1e-20", "2/3", "True", "ln(3)"]]
    [None, 2, -3, 0.5, 1e-20, '2/3', True, 'ln(3)']
    """
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or type(v).__name__ == "NAType"


def _normalise_columns(frame: Any, names: Sequence[str]) -> Any:
    """Grid columns of mixed types become text, so that Parquet stores them (``0.5`` and ``"2/3"``)."""
    for name in names:
        kinds = {type(v) for v in frame[name] if not _is_missing(v)}
        if len(kinds) > 1 and not kinds <= {int, float}:
            frame[name] = [v if _is_missing(v) else grid_key(v) for v in frame[name]]
    return frame


def to_frame(rows: Sequence[Row], names: Sequence[str]) -> Any:
    """A pandas DataFrame of rows: grid columns first, then the answer's fields, then ``seconds`` and ``error`` (and
    the run key, :data:`RUN_COLUMN`, when the rows carry one)."""
    pd = require("pandas")
    cols: list[str] = list(names)
    for r in rows:
        cols.extend(k for k in r if k not in cols and k not in RESERVED)
    cols += ["seconds", "error"] + ([RUN_COLUMN] if any(RUN_COLUMN in r for r in rows) else [])
    frame = pd.DataFrame([{c: r.get(c) for c in cols} for r in rows], columns=cols)
    if len(frame):
        frame["error"] = frame["error"].astype(object).where(frame["error"].notna(), None)
    return _normalise_columns(frame, names)


def write_rows(out: str | Path, rows: Sequence[Row], names: Sequence[str]) -> None:
    """Write rows to ``out`` (format by extension) atomically: a temporary file renamed over the target. A column of
    integers with gaps (rows of another run, error rows) is stored as integers with gaps, not as floats."""
    path = Path(out)
    fmt = out_format(path)
    frame = to_frame(rows, names)
    pd = require("pandas")
    for column in frame.columns:
        values = [r.get(column) for r in rows]
        present = [v for v in values if not _is_missing(v)]
        if len(present) < len(values) and present and all(type(v) is int for v in present):
            frame[column] = pd.array([None if _is_missing(v) else v for v in values], dtype="Int64")
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


def _point_key(row: Row, names: Sequence[str]) -> tuple[str, ...] | None:
    if not all(n in row and not _is_missing(row[n]) for n in names):
        return None
    return tuple(grid_key(row[n]) for n in names)


def answered_rows(previous: Sequence[Row], names: Sequence[str], run: str) -> dict[tuple[str, ...], Row]:
    """The rows of an earlier run without an error whose whole key matches: the run key text ``run``
    (:func:`run_key`) and the text of their grid values (:func:`grid_key`), keyed by the latter."""
    answered: dict[tuple[str, ...], Row] = {}
    for r in previous:
        k = _point_key(r, names)
        if r.get("error") is None and r.get(RUN_COLUMN) == run and k is not None:
            answered[k] = r
    return answered
