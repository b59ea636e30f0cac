"""``pg.sweep``: ask one named question at every point of a grid of definitions or mechanisms, in parallel on Dask.

The engine (scheduling, batching, streaming, errors, resume, output files) is :func:`privgeom._core.grid.run_grid`; this
module turns a template and a named query (:mod:`privgeom.sweeps._queries`) into the function it evaluates.
"""

from __future__ import annotations

import string
from functools import partial
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .._core.errors import InvalidParameterError, InvalidTypeError
from .._core.grid import expand_grid, file_key, require, run_grid, to_frame
from .._core.grid_files import callable_key
from ._queries import QUERIES, Query

__all__ = ["sweep", "template_fields", "sweep_key"]


def template_fields(template: str) -> list[str]:
    """The ``{name}`` fields of a spec template, in order.

    Examples
    --------
    >>> template_fields("rr:k={k},p={p}")
    ['k', 'p']
    """
    try:
        return [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError as exc:
        raise InvalidParameterError(f"template {template!r}: {exc}") from None


def _fill(value: Any, point: Mapping[str, Any]) -> Any:
    return value.format(**point) if isinstance(value, str) and "{" in value else value


def _point(
    template: str | Callable[..., Any], query: Query, options: Mapping[str, Any], point: dict[str, Any]
) -> dict[str, Any]:
    """One point's fields (module level, so that Dask's processes and clusters can pickle it)."""
    obj = template.format(**point) if isinstance(template, str) else template(**point)
    return query.run(obj, {k: _fill(v, point) for k, v in options.items()})


def _option_key(value: Any) -> Any:
    """An option as it enters the run key: a text naming an existing file also by its content (:func:`file_key`)."""
    if isinstance(value, str) and "{" not in value:
        try:
            if Path(value).is_file():
                return {"file": value, "content": file_key(value)}
        except OSError:  # a text too long or odd to be a path: it is no file
            pass
    return value


def sweep_key(
    template: str | Callable[..., Any], query: Query, options: Mapping[str, Any], names: Sequence[str]
) -> dict[str, Any]:
    """What determines a sweep row's answer besides its grid values: the template (a callable by its name, code and
    closure, :func:`~privgeom._core.grid_files.callable_key`; not the globals it reads), the query (its name and its
    function's code: a query registered again under the same name is another query), its options (files also by
    content) and the grid's names. Rows of an output file are reused only under the same key
    (:func:`privgeom._core.grid.run_key` adds privgeom's version).

    Examples
    --------
    >>> from privgeom.sweeps._queries import QUERIES
    >>> key = sweep_key("rr:k={k},p=3/4", QUERIES["relax"], {}, ["k"])
    >>> key["template"], key["query"], key["options"], key["grid"], key["query_code"].split()[0]
    ('rr:k={k},p=3/4', 'relax', {}, ['k'], 'privgeom.sweeps._queries._relax')
    """
    what = template if isinstance(template, str) else callable_key(template)
    return {
        "template": what,
        "query": query.name,
        "query_code": callable_key(query.function),
        "options": {k: _option_key(v) for k, v in sorted(options.items())},
        "grid": list(names),
    }


def _resolve_query(query: str | Query) -> Query:
    if isinstance(query, Query):
        return query
    q = QUERIES.get(query) if isinstance(query, str) else None
    if q is None:
        raise InvalidParameterError(f"unknown query {query!r}: use one of {', '.join(sorted(QUERIES))}")
    return q


def sweep(
    template: str | Callable[..., Any],
    grid: Mapping[str, Sequence[Any]],
    query: str | Query,
    *,
    scheduler: Any = None,
    out: str | Path | None = None,
    progress: bool | None = None,
    batch: int | None = None,
    workers: int | None = None,
    **options: Any,
) -> Any:
    """Answer ``query`` at every point of ``grid`` for the definitions or mechanisms ``template`` builds.

    Parameters
    ----------
    template : str or callable
        A spec with ``{name}`` fields filled from each point (``"rr:k={k},p={p}"``, parsed by
        :func:`privgeom.parse_definition`; the ``smoothed`` and ``accuracy`` queries read ``shm:n={n},T={T}`` and
        ``majority:n={n}``), or a factory called as ``template(**point)`` returning a Mechanism, a definition or
        what the query reads.
    grid : mapping name -> list of values
        The points are the product of the lists (the last name varies fastest). Every name is used by the template
        or an option.
    query : str
        A name of :data:`privgeom.sweeps._queries.QUERIES`: ``epsilon``, ``delta`` (``eps=`` or ``exp_eps=``),
        ``delta_curve``, ``relax`` (``pairs=``), ``compare`` (``spec=``), ``optimal`` (``utility=``, ``prior=``),
        ``closure`` (``mechanism=``), ``smoothed`` (``eps=``, ``q=``/``dist=``), ``accuracy`` (``rho=``).
    scheduler : None, "processes", "threads", "serial", dask.distributed.Client or address
        ``None``: Dask's local process scheduler on every core (a single batch runs in-process); ``"serial"``: a
        loop here; a Client or ``"tcp://host:port"``: an existing cluster (see :mod:`privgeom._core.grid`).
    out : path, optional
        ``.parquet``/``.pq`` or ``.csv``, written as points finish. A re-run with the same file skips the points
        answered there by the same sweep — same template, query, options (a file option by its content), grid
        names and privgeom version, recorded in each row's ``run`` column (:func:`sweep_key`); rows of other sweeps
        stay in the file, untouched, and rows with an error are tried again. A file without a ``run`` column was
        not written by a sweep and is refused (:class:`~privgeom.FormatError`).
    progress, batch, workers
        Progress bar on/off (default: on a terminal), points per task, local worker processes.
    **options
        The query's options; a string option may hold ``{name}`` fields (``eps="{eps}"`` follows a grid axis).

    Returns
    -------
    pandas.DataFrame
        One row per point in grid order: the grid values, the query's fields (floats, with exact values as text
        in ``*_exact`` columns), ``seconds`` and ``error`` (``None``, or ``"TypeName: message"`` of the point's
        exception: one point's failure never stops the sweep). ``frame.attrs`` holds ``query``, ``template``,
        ``skipped`` (the points answered in ``out`` by an earlier run of the same sweep, not evaluated again) and
        ``key`` (:func:`sweep_key`).

    Raises
    ------
    MissingDependencyError
        Dask, pandas or pyarrow are missing (``pip install 'privgeom[sweep]'``).
    FormatError
        ``out`` exists but was not written by a sweep (no ``run`` column), or cannot be read.
    InvalidParameterError
        Bad options or grid, or a scheduler address that cannot be reached (within two seconds).

    Examples
    --------
    >>> import privgeom as pg
    >>> df = pg.sweep("rr:k={k},p={p}", {"k": [2, 3], "p": ["2/3", "3/4"]}, "relax", scheduler="serial")
    >>> df[["k", "p", "recognised", "exp_eps_exact"]].values.tolist()
    [[2, '2/3', 'dp', '2'], [2, '3/4', 'dp', '3'], [3, '2/3', 'dp', '2'], [3, '3/4', 'dp', '3']]
    >>> df = pg.sweep("rr:k=2,p={p}", {"p": ["3/4", "1/3"]}, "compare", spec="rr:k=2,p=2/3", scheduler="serial")
    >>> df.loc[0, "relation"], df.loc[1, "error"][:22]     # p = 1/3 is no randomized response: recorded
    ('superset', 'InvalidParameterError:')
    """
    require("pandas")
    require("pyarrow")
    if scheduler not in ("serial", "threads"):
        require("dask")
    q = _resolve_query(query)
    q.check_options(options)
    if isinstance(template, str):
        used = set(template_fields(template))
    elif callable(template):
        used = set(grid)
    else:
        raise InvalidTypeError(
            f"the template must be a spec string with {{name}} fields or a callable, got {type(template).__name__}"
        )
    for v in options.values():
        if isinstance(v, str):
            used |= set(template_fields(v))
    unknown = sorted(used - set(grid))
    if unknown:
        raise InvalidParameterError(
            f"the template or options use {', '.join('{' + u + '}' for u in unknown)}, "
            f"which the grid does not define (grid: {', '.join(grid) or 'empty'})"
        )
    unused = [name for name in grid if name not in used]
    if unused:
        raise InvalidParameterError(
            f"grid axis {', '.join(map(repr, unused))} is used neither by the template "
            "nor by an option: every point would repeat the same question"
        )
    points = expand_grid(grid)
    names = list(grid)
    key = sweep_key(template, q, options, names)
    report: dict[str, Any] = {}
    rows = run_grid(
        partial(_point, template, q, dict(options)),
        points,
        scheduler=scheduler,
        out=out,
        progress=progress,
        batch=batch,
        workers=workers,
        label=f"sweep {q.name}",
        key=key,
        report=report,
    )
    frame = to_frame(rows, names)
    frame.attrs.update(
        query=q.name,
        template=template if isinstance(template, str) else repr(template),
        skipped=report.get("reused", 0),
        key=key,
    )
    return frame
