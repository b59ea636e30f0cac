"""Subcommands ``epsilon`` and ``delta``: the privacy profile of one mechanism over a neighbour relation.

Exit codes (the main program adds ``--json`` and maps errors to 2):

``privgeom epsilon``
    0 when ε is finite, 1 when it is infinite (some output separates two neighbours perfectly).
``privgeom delta``
    0, or with ``--max-delta D``: 0 when ``δ(ε) ≤ D`` and 1 otherwise.

Neighbour relations (``--graph``) are resolved on the mechanism's inputs by :func:`privgeom.neighbour_graph`:
``hamming`` (the default; inputs must be bit strings of one length, pairs differing in one bit — on other inputs it
is refused with the list of valid relations, never replaced), ``complete`` (every pair), ``path`` (consecutive
inputs in the file's order) or ``edges:a-b,c-d`` (``a:b`` also accepted, for labels containing ``-``). Scans costing
more than ``--max-work`` are refused before computing.
"""

from __future__ import annotations

import argparse
from typing import Any

import networkx as nx

from .._core.domain import RELATIONS, resolve_graph
from .._core.errors import FormatError, InvalidParameterError
from .._core.io import check_figure_path
from .._core.level import PrivacyLevel
from .._core.arrays import parse_int
from .._core.numbers import fraction_str, parse_scalar
from ..analyses.profiles._profile import delta, epsilon
from ..analyses.profiles import _scan
from ..analyses.profiles._profile_curve import delta_curve
from ..mechanisms import Mechanism
from ._registry import EXIT_NO, EXIT_YES, Outcome, command
from .._core.numbers import number_text

__all__ = ["graph_from_option", "relation_from_option", "eps_from_option"]


# ---------------------------------------------------------------------------------------------------- helpers
def relation_from_option(value: str) -> Any:
    """The ``--graph`` value as :func:`privgeom.neighbour_graph` takes it: a relation name, or an edge list.

    Examples
    --------
    >>> relation_from_option(" hamming "), relation_from_option("edges:a-b,c:d")
    ('hamming', [('a', 'b'), ('c', 'd')])
    """
    v = value.strip()
    if not v.startswith("edges:"):
        return v
    pairs = []
    for part in v[len("edges:") :].split(","):
        part = part.strip()
        sep = ":" if ":" in part else "-"
        ends = part.split(sep)
        if len(ends) != 2 or not all(ends):
            raise FormatError(f"bad edge {part!r} in --graph {value!r}: write edges:a-b,c-d (or a:b)")
        pairs.append((ends[0], ends[1]))
    return pairs


def graph_from_option(value: str, inputs: Any) -> nx.Graph:
    """Build the ``--graph`` neighbour relation on ``inputs`` (see the module docstring) via
    :func:`privgeom.neighbour_graph`: a name that does not apply to the inputs is refused, never replaced.

    Examples
    --------
    >>> sorted(map(sorted, graph_from_option("hamming", ("11", "10", "01", "00")).edges))
    [['00', '01'], ['00', '10'], ['01', '11'], ['10', '11']]
    >>> list(graph_from_option("edges:a-b", ("a", "b", "c")).edges)
    [('a', 'b')]
    """
    rel = relation_from_option(value)
    G = resolve_graph(rel, inputs)
    if not isinstance(rel, str):
        G.name = "edges"
    return G


def eps_from_option(value: str, *, name: str = "--eps") -> PrivacyLevel:
    """``--eps`` through :meth:`privgeom.PrivacyLevel.parse`: ``"ln(3)"`` is exact, a number is a float level.

    Examples
    --------
    >>> eps_from_option("ln(3)").eps, eps_from_option("0.5").exp_eps > 1
    (LogRational(ratio=Fraction(3, 1)), True)
    """
    return PrivacyLevel.parse(eps=value, name=name, allow_infinite=True)


def _max_work(value: Any) -> int | None:
    return None if value is None else parse_int(value, name="--max-work", min=1, allow_str=True)


def _mechanism_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mechanism", "-m", required=True, help="JSON file with the mechanism (Mechanism.to_json format)")
    p.add_argument(
        "--graph",
        "-g",
        default="hamming",
        help="neighbour relation on the inputs: hamming (default; bit-string inputs only), complete, path "
        "or edges:a-b,c-d",
    )
    p.add_argument(
        "--max-work",
        dest="max_work",
        default=None,
        help=f"refuse scans costing more than this (default {_scan.MAX_PROFILE_WORK:,}; about outputs × "
        "directed edges)",
    )


def _load(args: argparse.Namespace) -> tuple[Mechanism, Any]:
    M = Mechanism.load(args.mechanism)
    rel = relation_from_option(args.graph)
    if isinstance(rel, str):
        try:
            M.domain.check_relation(rel)  # an inapplicable or unknown name is refused here, listing the valid ones
        except InvalidParameterError:
            valid = ", ".join(M.domain.relations) + " or edges:a-b,c-d"
            if rel.lower() not in RELATIONS:
                raise FormatError(f"unknown --graph {rel!r}: use {valid}") from None
            raise InvalidParameterError(
                f"--graph {rel} does not apply to the inputs of {args.mechanism} ({M.domain.describe()}); "
                f"valid here: {valid}"
            ) from None
        return M, rel
    return M, graph_from_option(args.graph, M.inputs)


# ---------------------------------------------------------------------------------------------------- epsilon
def _epsilon_args(p: argparse.ArgumentParser) -> None:
    _mechanism_args(p)


@command(
    "epsilon",
    "exact ε of a mechanism over a neighbour graph, with the edge and output attaining it; exit 1 if ε is infinite",
)(_epsilon_args)
def _epsilon(args: argparse.Namespace) -> Outcome:
    M, G = _load(args)
    r = epsilon(M, G, max_work=_max_work(args.max_work))
    text = r.summary()
    if r.exact and not r.infinite and r.edge is not None:
        text += f"\n  e^ε = {fraction_str(r.level.exp_eps)}, ε ≈ {number_text(float(r.level), digits=10)}"
    return Outcome(text, r, EXIT_NO if r.infinite else EXIT_YES)


# ---------------------------------------------------------------------------------------------------- delta
def _delta_args(p: argparse.ArgumentParser) -> None:
    _mechanism_args(p)
    level = p.add_mutually_exclusive_group()
    level.add_argument("--eps", help="ε: a number (float answer) or ln(r) (exact answer), e.g. --eps 'ln(3)'")
    level.add_argument("--exp-eps", dest="exp_eps", help="e^ε >= 1, e.g. 3 or 5/2 (exact answer for exact mechanisms)")
    p.add_argument("--curve", action="store_true", help="print the whole δ(ε) curve (exact breakpoints)")
    p.add_argument("--plot", metavar="PNG", help="also draw the curve into this file (implies --curve)")
    p.add_argument("--max-delta", dest="max_delta", help="exit 1 when δ(ε) exceeds this value")


def max_delta_option(raw: str) -> Any:
    """The value of a ``--max-delta`` option: a number in [0, 1] (δ is a probability), else an error naming it.

    Examples
    --------
    >>> max_delta_option("1/10")
    Fraction(1, 10)
    >>> max_delta_option("-1")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: --max-delta '-1' is outside [0, 1]: δ is a probability
    """
    bound = parse_scalar(raw, name="--max-delta")
    if not 0 <= bound <= 1:
        raise InvalidParameterError(f"--max-delta {raw!r} is outside [0, 1]: δ is a probability")
    return bound


@command(
    "delta",
    "exact δ(ε) of a mechanism (hockey-stick divergence over neighbours) with its witness edge and "
    "event; --curve for the whole profile",
    outputs={"plot": "figure"},
)(_delta_args)
def _delta(args: argparse.Namespace) -> Outcome:
    curve_wanted = args.curve or args.plot
    if args.eps is None and args.exp_eps is None and not curve_wanted:
        raise FormatError("privgeom delta needs --eps, --exp-eps or --curve")
    if args.plot:
        check_figure_path(args.plot, what="--plot")
    bound = None
    if args.max_delta is not None:
        if args.eps is None and args.exp_eps is None:
            raise FormatError("--max-delta needs --eps or --exp-eps")
        bound = max_delta_option(args.max_delta)
    M, G = _load(args)
    eps = eps_from_option(args.eps) if args.eps is not None else None
    work = _max_work(args.max_work)
    data: dict[str, Any] = {}
    lines = []
    point = None
    if eps is not None or args.exp_eps is not None:
        point = delta(M, G, eps, exp_eps=args.exp_eps, max_work=work)
        data["delta"] = point
        lines.append(point.summary())
    if curve_wanted:
        if eps is not None:
            c = delta_curve(M, G, [eps], max_work=work)
        elif args.exp_eps is not None:
            c = delta_curve(M, G, exp_eps_values=[args.exp_eps], max_work=work)
        else:
            c = delta_curve(M, G, max_work=work)
        data["curve"] = c
        lines.append(c.summary())
        if args.plot:
            from ..plots._profile import plot_delta_curve

            plot_delta_curve(c, args.plot)
            lines.append(f"plot written to {args.plot}")
            data["plot"] = str(args.plot)
    code = EXIT_YES
    if bound is not None and point is not None:
        ok = point.delta <= bound
        lines.append(f"δ(ε) = {fraction_str(point.delta)} {'≤' if ok else '>'} {fraction_str(bound)}")
        code = EXIT_YES if ok else EXIT_NO
    return Outcome("\n".join(lines), data, code)
