"""Reading and writing the files a user names: typed errors that name the path, checked before any work is done.

Every file privgeom reads or writes on a user's behalf goes through this module, so that a missing directory, an
unreadable or non-UTF-8 file, malformed or absurdly nested JSON, or an output format matplotlib cannot write is a
:class:`~privgeom.PrivgeomError` with a one-line message naming the value — never an ``OSError`` with a bare
``[Errno 2]`` or a ``RecursionError`` traceback.

Examples
--------
>>> from privgeom._core.io import parse_json
>>> parse_json('{"a": [1, 2]}', what="demo")
{'a': [1, 2]}
>>> parse_json("[" * 100000, what="mechanism")
Traceback (most recent call last):
...
privgeom._core.errors.FormatError: mechanism JSON nests deeper than 100 levels (arrays/objects inside each other); ...
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

from .errors import FormatError, InvalidParameterError, SizeLimitError
from .extras import require
from .limits import register_limit
from .hints import limit_hint
from .limits import current_limit

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_FILE_BYTES",
    "json_depth",
    "parse_json",
    "json_document",
    "read_text",
    "load_json",
    "check_output_path",
    "check_figure_path",
    "write_text",
    "figure_formats",
    "save_figure",
    "prepare_output_dir",
    "check_output_dir",
    "check_output",
    "OUTPUT_KINDS",
]

#: Deepest nesting of arrays/objects accepted in a JSON document. privgeom's formats nest at most 4 levels (a
#: list of mechanisms → mechanism → matrix → row); 100 leaves room for any hand-written file while staying far
#: below Python's recursion limit (deeper documents would make ``repr`` or any recursive walk fail).
MAX_JSON_DEPTH = 100

#: Largest input file read (bytes): 128 MiB holds a dense exact mechanism of about ten million entries, far more than
#: any analysis handles, while an endless device (``/dev/zero``) or a wrong file is refused after one bounded read.
MAX_FILE_BYTES = 128 * 2**20
register_limit(
    "file_bytes",
    globals(),
    "MAX_FILE_BYTES",
    "largest input file (mechanism, prior, utility JSON) privgeom reads, in bytes",
)


def json_depth(data: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """The nesting depth of parsed JSON ``data`` (lists/dicts inside each other), counted only until ``limit`` is passed.

    Iterative (no recursion), so it is safe on any document :func:`json.loads` accepted.

    Examples
    --------
    >>> json_depth([[1, "[[["], {"a": {}}])
    3
    >>> json_depth(5)
    0
    """
    best = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        obj, depth = stack.pop()
        if not isinstance(obj, (list, dict)):
            continue
        if depth > best:
            best = depth
            if best > limit:
                return best
        for child in obj.values() if isinstance(obj, dict) else obj:
            if isinstance(child, (list, dict)):
                stack.append((child, depth + 1))
    return best


def parse_json(text: str | bytes | bytearray, *, what: str, where: str = "") -> Any:
    """Parse JSON text, turning every failure into a :class:`~privgeom.FormatError` naming ``what`` and ``where``.

    Refuses nesting deeper than :data:`MAX_JSON_DEPTH` (also what would exhaust Python's recursion limit), and
    numbers Python refuses to convert (integers of more than 4300 digits).
    """
    at = f" in {where!r}" if where else ""
    deep = FormatError(
        f"{what} JSON{at} nests deeper than {MAX_JSON_DEPTH} levels (arrays/objects inside each "
        f"other); privgeom's formats need at most 4"
    )
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise FormatError(f"malformed {what} JSON{at}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise FormatError(f"malformed {what} JSON{at}, not valid JSON: {err}") from None
    except RecursionError:
        raise deep from None
    except ValueError as err:  # e.g. "Exceeds the limit (4300 digits) for integer string conversion"
        msg = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise FormatError(f"{what} JSON{at} cannot be read: {msg}") from None
    if json_depth(data) > MAX_JSON_DEPTH:
        raise deep
    return data


def json_document(
    data: Any,
    *,
    kind: str,
    fields: Iterable[str],
    versions: Iterable[int],
    required: Iterable[str] = (),
    kind_optional: bool = False,
) -> dict[str, Any]:
    """A privgeom JSON document (a dict, or JSON text parsed here) with its header checked: an object whose
    ``"privgeom"`` field names ``kind`` (or is absent, when ``kind_optional``), with the ``required`` fields, no field
    outside ``fields``, and a ``"version"`` (default 1) among ``versions``. The one check of every file format's
    header (mechanisms, cone definitions); the body is the format's own.

    Raises
    ------
    FormatError
        Naming what does not follow: not an object, another kind, a missing or unknown field, an unknown version.

    Examples
    --------
    >>> json_document('{"privgeom": "demo", "x": 1}', kind="demo", fields=["privgeom", "x"], versions=[1])
    {'privgeom': 'demo', 'x': 1}
    >>> json_document({"privgeom": "demo", "version": 2}, kind="demo", fields=["privgeom", "version"], versions=[1])
    Traceback (most recent call last):
    ...
    privgeom._core.errors.FormatError: demo JSON version 2 is not supported; known versions: 1
    """
    if isinstance(data, (str, bytes, bytearray)):
        data = parse_json(data, what=kind)
    if not isinstance(data, dict):
        raise FormatError(f"a {kind} JSON document must be an object, got {type(data).__name__}")
    if data.get("privgeom", kind if kind_optional else None) != kind:
        raise FormatError(f"not a {kind} document: privgeom = {data.get('privgeom')!r:.60}")
    for name in required:
        if name not in data:
            raise FormatError(f"{kind} JSON has no {name!r} field")
    unknown = set(data) - set(fields)
    if unknown:
        raise FormatError(f"unknown fields in {kind} JSON: {sorted(unknown)[:8]!r:.200}")
    version = data.get("version", 1)
    known = tuple(versions)
    if isinstance(version, bool) or version not in known:
        raise FormatError(
            f"{kind} JSON version {version!r:.40} is not supported; known versions: {', '.join(map(str, known))}"
        )
    return data


def read_text(path: str | Path, *, what: str, kind: str = "text", limit: int | None = None) -> str:
    """The UTF-8 text of a file, refused beyond ``limit`` bytes (default :data:`MAX_FILE_BYTES`).

    A missing/unreadable file or a non-UTF-8 one is a FormatError naming the path; a larger file (or an endless
    device such as ``/dev/zero``) a SizeLimitError, raised after reading at most ``limit + 1`` bytes.
    """
    cap = current_limit("file_bytes") if limit is None else int(limit)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(cap + 1)
    except IsADirectoryError:
        raise FormatError(f"cannot read {what} file {str(path)!r}: it is a directory") from None
    except OSError as err:
        raise FormatError(f"cannot read {what} file {str(path)!r}: {err.strerror or err}") from None
    if len(raw) > cap:
        try:  # a regular file says its size (an endless device does not)
            size: int | None = os.stat(path).st_size if os.path.isfile(path) else None
        except OSError:
            size = None
        hint = f" — {limit_hint('file_bytes', size if size and size > cap else None)}" if limit is None else ""
        raise SizeLimitError(f"{what} file {str(path)!r} is larger than {cap:,} bytes, more than privgeom reads{hint}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FormatError(f"{what} file {str(path)!r} is not UTF-8 {kind}: {err.reason} at byte {err.start}") from None


def load_json(path: str | Path, *, what: str) -> Any:
    """:func:`read_text` then :func:`parse_json`."""
    return parse_json(read_text(path, what=what, kind="JSON text"), what=what, where=str(path))


def check_output_path(path: str | Path, *, what: str, suffixes: Iterable[str] | None = None) -> Path:
    """Check that ``path`` can be written (its directory exists and is writable, it is not a directory).

    Call it before the work whose result is written, so that a typo in ``--out`` costs nothing.

    Parameters
    ----------
    path : str or Path
    what : str
        How the user named it (``"--out"``, ``"--plot"``), used in the message.
    suffixes : iterable of str, optional
        Allowed file suffixes (lower case, with the dot); ``None`` allows any.

    Raises
    ------
    InvalidParameterError
        Naming the path and what is wrong with it.

    Examples
    --------
    >>> check_output_path("no/such/dir/x.json", what="--out")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --out 'no/such/dir/x.json': the directory 'no/such/dir' does not exist
    """
    p = Path(path)
    if str(path) == "":
        raise InvalidParameterError(f"{what}: an empty file name")
    if suffixes is not None:
        allowed = sorted(set(suffixes))
        if p.suffix.lower() not in allowed:
            got = f"extension {p.suffix!r}" if p.suffix else "no extension"
            raise InvalidParameterError(f"{what} {str(path)!r}: {got}; use one of {', '.join(allowed)}")
    if p.is_dir():
        raise InvalidParameterError(f"{what} {str(path)!r} is a directory, not a file")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise InvalidParameterError(f"{what} {str(path)!r}: the directory {str(parent)!r} does not exist")
    if not parent.is_dir():
        raise InvalidParameterError(f"{what} {str(path)!r}: {str(parent)!r} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InvalidParameterError(f"{what} {str(path)!r}: permission denied")
    _probe_file(p, parent, what=what, path=path)
    return p


def _probe_file(p: Path, parent: Path, *, what: str, path: str | Path) -> None:
    """Try what the write will do (``os.access`` says yes to root even on ``/proc`` or a read-only mount): open an
    existing file for appending (nothing is written), or create and remove a scratch file beside the target."""
    try:
        if p.exists():
            with open(p, "a", encoding="utf-8"):
                pass
        else:
            fd, scratch = tempfile.mkstemp(dir=parent, prefix=".privgeom-write-check-")
            os.close(fd)
            os.unlink(scratch)
    except OSError as err:
        where = f"cannot write {str(p)!r}" if p.exists() else f"cannot create files in {str(parent)!r}"
        raise InvalidParameterError(f"{what} {str(path)!r}: {where} ({err.strerror or err})") from None


def check_output_dir(path: str | Path, *, what: str, value: str | Path | None = None) -> Path:
    """Check, without creating anything, that ``path`` is an existing directory privgeom can write into.

    privgeom never creates folders (a typo would scatter directories anywhere, and as root everywhere): a missing
    one is an error, found before any work.

    Raises
    ------
    InvalidParameterError
        Naming the option, the path (``value`` if given: the option's value when ``path`` is derived from it) and
        the reason: the directory does not exist, a file is in the way, or it cannot be written.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); open(os.path.join(d, "f"), "w").close()
    >>> check_output_dir(os.path.join(d, "f", "sub"), what="--out")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --out '...': '...f' is a file, not a directory
    >>> check_output_dir(os.path.join(d, "no", "such"), what="--out")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --out '...such': the directory does not exist (privgeom does not create folders: create it first)
    """
    p = Path(path)
    if str(path) == "":
        raise InvalidParameterError(f"{what}: an empty directory name")
    path = path if value is None else value
    probe = p
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        if probe == p:
            raise InvalidParameterError(f"{what} {str(path)!r} is a file, not a directory")
        raise InvalidParameterError(f"{what} {str(path)!r}: {str(probe)!r} is a file, not a directory")
    if probe != p or not p.exists():
        missing = "the directory does not exist" if Path(path) == p else f"the directory {str(p)!r} does not exist"
        raise InvalidParameterError(
            f"{what} {str(path)!r}: {missing} (privgeom does not create folders: create it first)"
        )
    if not os.access(p, os.W_OK | os.X_OK):
        raise InvalidParameterError(f"{what} {str(path)!r}: permission denied")
    _probe_file(p / ".privgeom-probe", p, what=what, path=path)
    return p


#: Kinds of output option a command declares (``privgeom.cli._registry.command(..., outputs=...)``): ``file`` (any
#: file, e.g. JSON), ``figure`` (a file in a format matplotlib writes), ``dir`` (an existing directory: never
#: created) and ``figure-or-dir`` (a ``.png`` file in an existing directory, or an existing directory that gets the
#: figure).
OUTPUT_KINDS = ("file", "figure", "dir", "figure-or-dir")


def check_output(path: str | Path, kind: str, *, what: str) -> None:
    """Check an output path of kind ``kind`` (one of :data:`OUTPUT_KINDS`) before any work; see the checks above.

    Examples
    --------
    >>> check_output("nodir/x.png", "figure", what="--plot")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --plot 'nodir/x.png': the directory 'nodir' does not exist
    """
    if kind == "file":
        check_output_path(path, what=what)
    elif kind == "figure":
        check_figure_path(path, what=what)
    elif kind == "dir":
        check_output_dir(path, what=what, value=path)
    elif kind == "figure-or-dir":
        p = Path(path)
        if p.suffix.lower() == ".png":
            if p.is_dir():
                raise InvalidParameterError(f"{what} {str(path)!r} is a directory, not a file")
            check_output_dir(p.parent if str(p.parent) else ".", what=what, value=path)
        else:
            check_output_dir(p, what=what, value=path)
    else:
        raise ValueError(f"unknown output kind {kind!r}; one of {', '.join(OUTPUT_KINDS)}")


def write_text(path: str | Path, text: str, *, what: str) -> None:
    """Write UTF-8 text; an OSError becomes an InvalidParameterError naming the path."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise InvalidParameterError(f"cannot write {what} {str(path)!r}: {err.strerror or err}") from None


def figure_formats() -> tuple[str, ...]:
    """File suffixes matplotlib can write (``.png``, ``.pdf``, ``.svg``, …), from its canvas registry."""
    FigureCanvasBase = require("matplotlib.backend_bases", extra="plot", feature="writing figures").FigureCanvasBase

    return tuple(sorted("." + ext for ext in FigureCanvasBase.get_supported_filetypes()))


def check_figure_path(path: str | Path, *, what: str = "figure file") -> Path:
    """:func:`check_output_path` for a figure: the suffix must be a format matplotlib writes.

    Examples
    --------
    >>> check_figure_path("curve.txt", what="--plot")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --plot 'curve.txt': extension '.txt'; use one of ...
    """
    return check_output_path(path, what=what, suffixes=figure_formats())


def save_figure(fig: Any, path: str | Path, **kwargs: Any) -> Path:
    """``fig.savefig(path)`` after :func:`check_figure_path`; a write failure is an InvalidParameterError naming it."""
    p = check_figure_path(path)
    try:
        fig.savefig(p, **kwargs)
    except OSError as err:
        raise InvalidParameterError(f"cannot write the figure {str(path)!r}: {err.strerror or err}") from None
    return p


def prepare_output_dir(path: str | Path, *, what: str) -> Path:
    """The existing output directory ``path`` (:func:`check_output_dir`): privgeom never creates folders, so a
    missing one is an InvalidParameterError naming it.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> prepare_output_dir(d, what="--out").is_dir()
    True
    >>> prepare_output_dir(os.path.join(d, "a", "b"), what="--out")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --out '...b': the directory does not exist (privgeom does not create folders: create it first)
    """
    return check_output_dir(path, what=what)
