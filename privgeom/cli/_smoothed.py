"""``privgeom smoothed delta|shm|figure`` — smoothed differential privacy (Liu, Wang & Xia).

- ``delta``: database-wise δ of a mechanism saved as JSON (every database, or one with ``--x``); with ``--dist`` or
  ``--q`` the smoothed δ over ``Π`` (Definition 3) and its maximiser. ``--check D`` exits 0 iff the (certified) value
  is at most ``D``, else 1.
- ``shm``: the fast exact path for the sampling-histogram mechanism, sweeping ``--n`` and ``--eps`` (a progress bar
  appears on stderr for sweeps longer than a second); ``--at N`` gives the database-wise δ at ``N`` ones instead.
- ``figure``: the paper's experiments (``elections``, ``motivating``, ``sgd``, ``theorem3`` or ``all``), each
  writing a PNG and a CSV into ``--out``.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from .._core.errors import FormatError, InvalidParameterError, SizeLimitError
from .._core.io import prepare_output_dir
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar
from .._core.arrays import parse_int
from .._core.progress import Progress
from ..mechanisms import Mechanism
from ..smoothed import SamplingHistogram, database_delta, smoothed_delta
from ..smoothed._experiments import election_vertices
from ..smoothed._fastpath import DEFAULT_RTOL
from ..smoothed._shm import shm_smoothed_sweep
from ..smoothed.paper import EXPERIMENTS, experiment
from ._registry import EXIT_NO, EXIT_YES, Outcome, command, group
from .._core.numbers import number_text

group("smoothed", "smoothed differential privacy: database-wise δ, smoothed δ, sampling-histogram mechanism, figures")


def _dist(value: str) -> list[str]:
    parts = [p.strip() for p in value.split(",") if p.strip()]
    if not parts:
        raise FormatError(f"empty distribution {value!r}: write probabilities separated by commas, e.g. 1/4,3/4")
    return parts


def _distributions(args: argparse.Namespace) -> list[Any] | None:
    dists: list[Any] = [_dist(d) for d in (args.dist or [])]
    dists += list(args.q or [])
    return dists or None


def _verdict(value: float | Fraction, upper: float | Fraction, check: str | None) -> tuple[int, str]:
    if check is None:
        return EXIT_YES, ""
    bound = parse_scalar(check, name="--check")
    ok = upper <= bound
    return (EXIT_YES if ok else EXIT_NO), f"\n(ε, {check}, Π)-smoothed DP: {'yes' if ok else 'no'}"


# ---------------------------------------------------------------------------------------------------------- delta
def _delta_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--mechanism",
        required=True,
        help="mechanism JSON file (privgeom Mechanism.save); inputs are "
        "databases '(0,1)', histograms '[1,1]' or counts '0'..'n'",
    )
    p.add_argument("--eps", default="0", help="ε: a number, or ln(r) for exact results (default 0)")
    p.add_argument("--x", default=None, help="report δ(x) for this database only")
    p.add_argument("--dist", action="append", help="a distribution of Π over the records, e.g. 1/4,3/4 (repeatable)")
    p.add_argument("--q", action="append", help="two records: the probability q of record 1 (repeatable)")
    p.add_argument("--grid-step", type=int, default=None, help="force a grid of vertex counts with this spacing")
    p.add_argument("--check", default=None, help="exit 0 iff the smoothed δ (or δ(x)) is at most this value, else 1")


@command("delta", "database-wise δ(x) of a mechanism, or its smoothed δ over distributions Π", parent="smoothed")(
    _delta_args
)
def _delta(args: argparse.Namespace) -> Outcome:
    M = Mechanism.load(args.mechanism)
    dists = _distributions(args)
    if dists is None:
        r = database_delta(M, args.eps, x=args.x)
        code, extra = _verdict(r.value, r.value, args.check)
        return Outcome(str(r) + extra, r.to_dict(), code)
    if args.x is not None:
        raise InvalidParameterError("--x applies to the database-wise δ; drop --dist/--q to use it")
    method = "grid" if args.grid_step is not None else "auto"
    s = smoothed_delta(M, args.eps, dists, method=method, grid_step=args.grid_step)
    code, extra = _verdict(s.value, s.value + s.error_bound, args.check)
    return Outcome(str(s) + extra, s.to_dict(), code)


# ---------------------------------------------------------------------------------------------------------- shm
def _shm_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--n", type=int, nargs="+", required=True, help="number(s) of agents")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--T", type=int, help="sample size (ballots counted)")
    g.add_argument("--lost", help="fraction of records lost, e.g. 1/1000 (T = n - lost*n)")
    p.add_argument("--eps", nargs="+", default=["1"], help="ε value(s); ln(r) allowed (default 1)")
    p.add_argument(
        "--q",
        nargs="+",
        help="vertices: probabilities of record 1, e.g. 18586/335909 154377/330845 "
        "(default: the paper's DC and NE-2 shares)",
    )
    p.add_argument("--replace", action="store_true", help="sample with replacement")
    p.add_argument("--at", type=int, default=None, help="database-wise δ at N ones (no smoothing)")
    p.add_argument(
        "--rtol",
        type=float,
        default=DEFAULT_RTOL,
        help=f"branch-and-bound relative tolerance (default {number_text(DEFAULT_RTOL)})",
    )
    p.add_argument("--check", default=None, help="exit 0 iff every certified value is at most this, else 1")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="force the stderr progress bar on/off (default: on a terminal, after 1 s)",
    )


def _T(n: int, args: argparse.Namespace) -> int:
    if args.T is not None:
        return int(args.T)
    lost = parse_scalar(args.lost, name="--lost", exact=True)
    if not 0 <= lost <= 1:
        raise InvalidParameterError(f"--lost must lie in [0, 1], got {args.lost}")
    exact_lost = Fraction(lost) * n
    rounded = int(round(exact_lost))
    if rounded == 0 and lost > 0:
        raise InvalidParameterError(
            f"--lost {args.lost} of n = {n} rounds to 0 lost ballots ({args.lost} × {n} = {number_text(float(exact_lost))}; "
            f"T = n = {n}: every ballot counted, δ = 1); give --T, or a --lost above 1/{2 * n} at this n"
        )
    if rounded == n and lost < 1:
        raise InvalidParameterError(
            f"--lost {args.lost} of n = {n} rounds to all {n} ballots lost ({args.lost} × {n} = "
            f"{number_text(float(exact_lost))}; T = 0); give --T instead"
        )
    return n - rounded


@command(
    "shm",
    "sampling-histogram mechanism: fast exact smoothed δ (or δ(x) with --at), sweeping n and ε",
    parent="smoothed",
)(_shm_args)
def _shm(args: argparse.Namespace) -> Outcome:
    # sizes first, before any option derived from them (--lost of a negative n would read as a rounding problem)
    for n in args.n:
        if parse_int(n, name="--n") < 1:
            raise InvalidParameterError(f"n must be a positive integer (--n, the number of agents), got n = {n}")
    if args.T is not None:
        parse_int(args.T, name="--T (sample size)", min=0)
    if args.at is not None:
        parse_int(args.at, name="--at (number of ones)", min=0)
    qs = args.q or [str(q) for q in election_vertices()]
    points = [(n, e) for n in args.n for e in args.eps]
    bar = Progress(len(points), "shm", enabled=args.progress)
    results, lines, code = [], [], EXIT_YES
    for n in args.n:
        T = _T(n, args)
        found: list[Any]
        if args.at is not None:
            found = [database_delta(SamplingHistogram(n, T, args.replace), e, x=args.at) for e in args.eps]
        else:  # one sweep over ε per n shares the laws of the vertex counts
            found = list(shm_smoothed_sweep(n, T, args.eps, qs, replace=args.replace, rtol=args.rtol))
        for e, r in zip(args.eps, found):
            upper = r.value + r.truncation_bound if args.at is not None else r.upper
            results.append(r.to_dict())
            lines.append(str(r))
            if args.check is not None:
                bound = parse_scalar(args.check, name="--check")
                if args.at is None and not r.complete and r.value <= bound < upper:
                    raise SizeLimitError(
                        f"--check {args.check} cannot be decided at n = {n}, ε = {e}: the search stopped at the work "
                        f"limit smoothed_work = {r.work:,} with the certified bracket [{number_text(r.value)}, {number_text(upper)}]; "
                        f"{limit_hint('smoothed_work', r.work_needed)}"
                    )
                if upper > bound:
                    code = EXIT_NO
            bar.update(note=f"n={n} eps={e}")
    bar.close()
    if args.check is not None:
        lines.append(f"all values <= {args.check}: {'yes' if code == EXIT_YES else 'no'}")
    return Outcome("\n".join(lines), results if len(results) > 1 else results[0], code)


# ---------------------------------------------------------------------------------------------------------- figure
def _figure_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", choices=sorted(EXPERIMENTS) + ["all"], help="which experiment of the paper")
    p.add_argument(
        "--out",
        default=".",
        help="existing output directory for the PNG and CSV (default: the current "
        "directory; folders are never created)",
    )
    p.add_argument("--quick", action="store_true", help="reduced sizes (seconds)")
    p.add_argument("--databases", type=int, default=None, help="sgd/theorem3: random databases per point")
    p.add_argument("--seed", type=int, default=0, help="sgd/theorem3: random seed")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="force the stderr progress bar on/off (default: on a terminal, after 1 s)",
    )


@command(
    "figure",
    "reproduce an experiment of the paper (PNG + CSV): elections, motivating, sgd, theorem3, all",
    parent="smoothed",
)(_figure_args)
def _figure(args: argparse.Namespace) -> Outcome:
    names = sorted(EXPERIMENTS) if args.name == "all" else [args.name]
    prepare_output_dir(args.out, what="--out")
    texts, data = [], []
    for name in names:
        kw: dict[str, Any] = {}
        if name in ("sgd", "theorem3"):
            kw.update(databases=args.databases, seed=args.seed)
        r = experiment(name, args.out, quick=args.quick, progress=args.progress, **kw)
        texts.append(str(r))
        data.append(
            {"name": r.name, "csv": r.csv, "png": r.png, "rows": len(r.rows), "seconds": r.seconds, "note": r.note}
        )
    return Outcome("\n".join(texts), data if len(data) > 1 else data[0], EXIT_YES)
