"""``privgeom sweep TEMPLATE --grid NAME=V1,V2,... --query Q --out FILE`` — a query over a grid, on Dask.

Thin over :func:`privgeom.sweep`: each ``--grid`` is one axis (``k=2..12`` is an inclusive integer range; integer
values become integers, anything else stays text such as ``2/3``); the query's options are the options below (a
value may hold ``{name}`` fields of the grid, e.g. ``--eps {eps}``); ``--out`` writes Parquet or CSV (by extension)
as points finish, each row with its run key (column ``run``: template, query, options, grid names, version), and a
re-run with the same key skips the points answered there (another template or query is evaluated afresh; a file that
no sweep wrote is refused, exit 2); ``--plot`` draws the first numeric answer (or
``--field``) over one grid axis (lines) or two (heatmap); ``--scheduler`` is ``serial``, ``processes``,
``threads`` or the address of a running Dask scheduler. Exit 0 when every point was answered, 1 when some point
recorded an error (the sweep still finished), 2 on bad options.
"""

from __future__ import annotations

import argparse
from typing import Any

from .._core.errors import InvalidParameterError
from .._core.grid import parse_grid_option
from .._core.io import check_figure_path
from ..plots._sweep import save_sweep_plot
from ..sweeps import sweep
from ..sweeps._queries import QUERIES
from ._registry import EXIT_NO, EXIT_YES, Outcome, command

#: CLI option -> query option (dest); each is passed only when given.
OPTIONS = {
    "eps": "ε for delta/smoothed: a number or ln(r)",
    "exp_eps": "e^ε for delta, e.g. 3 or 5/2",
    "graph": "neighbour relation for epsilon/delta/delta_curve (default: the inputs' default) and dp_bounds "
    "(default hamming)",
    "pairs": "relax: the pairs to relax to (default hamming)",
    "spec": "compare: the fixed definition, e.g. rr:k=2,p=3/4",
    "mechanism": "closure: the fixed mechanism (JSON file)",
    "utility": "optimal/ldp_gap: 'accuracy' (default) or a JSON utility matrix file",
    "prior": "optimal/ldp_gap: 'uniform' (default) or probabilities in dataset order",
    "q": "smoothed on shm:n=,T=: Bernoulli parameters of Π's vertices, e.g. '0.3;0.5'",
    "rho": "accuracy: the correlation ρ of randomized response",
    "method": "accuracy: the method (auto)",
    "k": "composed_delta: how many times the mechanism runs (a number, or {k} for a grid axis k)",
}


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "template",
        help="spec with {name} fields, e.g. 'rr:k={k},p={p}' (smoothed: 'shm:n={n},T={T}'; accuracy: 'majority:n={n}')",
    )
    p.add_argument(
        "--grid",
        action="append",
        required=True,
        metavar="NAME=V1,V2,...",
        help="one grid axis (repeatable): values separated by commas, or an inclusive integer range A..B",
    )
    p.add_argument(
        "--query",
        required=True,
        choices=sorted(QUERIES),
        help="the question asked at every point: "
        + "; ".join(f"{n} ({', '.join(q.options) or 'no options'})" for n, q in sorted(QUERIES.items())),
    )
    for name, text in OPTIONS.items():
        p.add_argument(f"--{name.replace('_', '-')}", dest=f"q_{name}", default=None, help=text)
    p.add_argument(
        "--out",
        "-o",
        default=None,
        help="Parquet (.parquet/.pq) or CSV (.csv) file; a re-run with the "
        "same file, template, query and options skips the points already answered (each row records its "
        "run key in the column 'run')",
    )
    p.add_argument(
        "--plot", default=None, help="figure file (.png, .pdf, .svg): lines over one grid axis, a heatmap over two"
    )
    p.add_argument("--field", default=None, help="column drawn by --plot (default: the first numeric answer)")
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="serial, processes, threads or the address "
        "of a running Dask scheduler (default: Dask's local process scheduler on every core)",
    )
    p.add_argument("--batch", type=int, default=None, help="points per Dask task (default: about 4 tasks per core)")


@command(
    "sweep",
    "one query over a grid of definitions or mechanisms, in parallel on Dask (Parquet/CSV, resumable)",
    outputs={"out": "file", "plot": "figure"},
)(_args)
def _run(args: argparse.Namespace) -> Outcome:
    grid: dict[str, list[Any]] = {}
    for text in args.grid:
        name, values = parse_grid_option(text)
        if name in grid:
            raise InvalidParameterError(f"--grid {name} is given twice")
        grid[name] = values
    if args.plot:
        check_figure_path(args.plot, what="--plot")
        if len(grid) > 2:
            raise InvalidParameterError(f"--plot draws one or two grid axes; this grid has {len(grid)}")
    options = {name: getattr(args, f"q_{name}") for name in OPTIONS if getattr(args, f"q_{name}") is not None}
    frame = sweep(args.template, grid, args.query, scheduler=args.scheduler, out=args.out, batch=args.batch, **options)
    errors = frame[frame["error"].notna()]
    records = [{k: (None if v != v else v) for k, v in r.items()} for r in frame.to_dict("records")]
    text_lines = [frame.drop(columns=["seconds"]).to_string(index=False, max_colwidth=48)]
    skipped = frame.attrs.get("skipped", 0)
    text_lines.append(
        f"{len(frame)} points, {len(errors)} with an error, {frame['seconds'].sum():.2f} s of work"
        + (f"; {skipped} answered by an earlier run of {args.out}" if skipped else "")
        + (f"; written to {args.out}" if args.out else "")
    )
    if args.plot:
        save_sweep_plot(args.plot, frame, list(grid), args.field)
        text_lines.append(f"plot written to {args.plot}")
    data = {
        "template": args.template,
        "query": args.query,
        "grid": grid,
        "rows": records,
        "errors": len(errors),
        "skipped": skipped,
        "key": frame.attrs.get("key"),
        "out": args.out,
        "plot": args.plot,
    }
    return Outcome("\n".join(text_lines), data, EXIT_NO if len(errors) else EXIT_YES)
