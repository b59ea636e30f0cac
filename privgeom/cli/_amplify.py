"""``privgeom shuffle`` and ``privgeom subsample`` — amplification by shuffling and by subsampling, exactly.

``privgeom shuffle --local SPEC -n N --eps E [E ...]``
    The shuffled tally of ``N`` users applying the local mechanism ``SPEC`` (a definition spec made of one mechanism:
    ``rr:k=1,p=3/4``, ``krr:n=3,exp_eps=2``, ``oue:d=4,exp_eps=3``, … or a mechanism JSON file): ``δ(ε)`` at the worst
    neighbouring pair (``--scope``: exhaustive over every dataset when it fits, else — binary reports — the certified
    worst case over every dataset by branch and bound, with its relative error and attaining datasets, else the
    clone pairs, labelled a lower bound), or at one pair (``--others 1=3,0=1 --change 1:0``). ``--fmt`` adds Feldman–McMillan–
    Talwar's clone bound, ``--definition`` the shuffled definition's row cone, semantics and DP sandwich (small ``N``),
    ``--plot FILE`` the ``log10 δ(ε)`` curves. Exit 0, or with ``--max-delta D``: 0 when every ``δ ≤ D``, else 1.
``privgeom subsample -m FILE --rate γ``
    The mechanism of ``FILE`` (its inputs histograms of records, the domain found from them or given by
    ``--records N --categories C`` and ``--every-size`` for databases of every size ``0..N``) run on a Poisson subsample (``--removed
    V`` replaces removed records by ``V``) or, with ``--size T --population N``, on ``T`` records sampled without
    replacement: its exact ε next to Balle–Barthe–Gaboardi's bound ``ln(1 + γ(e^ε − 1))`` and, with ``--eps``,
    ``δ'(ε')`` against ``γ δ(ε)``. ``--out`` saves the subsampled mechanism; exit 0 when the bound holds, 1 if not.
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from .._core.domain import Domain
from .._core.errors import DomainMismatchError, FormatError, InvalidParameterError, SizeLimitError
from .._core.io import check_figure_path, check_output_path
from .._core.level import PrivacyLevel
from .._core.numbers import log10_text, number_text
from .._core.arrays import parse_int
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar
from ..amplification import amplification_report, bbg_bound, fmt_delta, shuffled, subsampled
from ..analyses.profiles._profile import delta, epsilon
from ..definitions import parse_definition
from ..mechanisms import Mechanism
from ..plots._amplification import plot_log_profiles
from ..smoothed._reduction import count_compositions
from ._profile import max_delta_option
from ._registry import EXIT_NO, EXIT_YES, Outcome, command

__all__: list[str] = []


def _local(spec: str) -> Any:
    if Path(spec).suffix == ".json" and (Path(spec).exists() or ":" not in spec):
        return Mechanism.load(spec)  # a missing file is named as such, not parsed as a spec
    return parse_definition(spec)


def _pairs(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in text.split(","):
        if "=" not in part:
            raise FormatError(f"--others {text!r}: write INPUT=COUNT pairs separated by commas, e.g. 1=3,0=1")
        key, value = part.split("=", 1)
        name = f"--others count of {key.strip()!r}"
        try:
            count = int(value.strip())
        except ValueError:
            raise InvalidParameterError(
                f"{name} must be a whole number, got {value.strip()!r} (in --others {text!r})"
            ) from None
        out[key.strip()] = parse_int(count, name=name, min=0)
    return out


def _shuffle_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--local",
        required=True,
        help="the local mechanism: a definition spec made of one mechanism "
        "(rr:k=1,p=3/4, krr:n=3,exp_eps=2, oue:d=4,exp_eps=3, …) or a mechanism JSON file",
    )
    p.add_argument("-n", type=int, required=True, help="number of users")
    p.add_argument("--eps", nargs="+", default=["0"], help="ε value(s); ln(r) for exact results (default 0)")
    p.add_argument(
        "--scope",
        choices=("auto", "all", "certified", "clones", "near"),
        default="auto",
        help="worst case over every dataset, exhaustively (all) or by a certified branch and bound (certified: "
        "binary reports at any n, 3-ary randomized response to n = 10^4, up to 4 reports at small n), over the "
        "clone pairs (clones: any n, a lower bound), over the clone pairs and the pairs with 1-3 dissenters "
        "(near: binary reports, a lower bound), or auto: all while the exact laws fit, else certified for binary "
        "reports, else clones",
    )
    p.add_argument(
        "--others",
        default=None,
        help="one pair instead of the worst case: the other users' inputs, "
        "e.g. 1=3,0=1 (default with --change: all hold the second input)",
    )
    p.add_argument("--change", default=None, metavar="A:B", help="the changing user's inputs for --others, e.g. 1:0")
    p.add_argument("--fmt", action="store_true", help="also Feldman-McMillan-Talwar's clone bound (FOCS 2021)")
    p.add_argument(
        "--definition",
        action="store_true",
        help="also the shuffled definition: row cone, semantics, DP sandwich (small n)",
    )
    p.add_argument("--plot", default=None, metavar="FILE", help="draw log10 δ(ε) (and the FMT bound) into FILE")
    p.add_argument(
        "--max-delta",
        default=None,
        help="exit 0 when δ ≤ this value over every dataset (exhaustively, or by FMT's proven bound), 1 when a "
        "pair exceeds it; an error (exit 2) when only a lower bound is below it",
    )


def _log10_bracket(r: Any) -> tuple[float, float]:
    """``log10`` of the ends of the bracket a :class:`ShuffleDelta` states (its value ± its relative error)."""
    err = 0.0 if r.exact else float(r.rel_error)
    if r.log10 == -math.inf:
        return -math.inf, -math.inf
    return r.log10 + (math.log10(1 - err) if err < 1 else -math.inf), r.log10 + math.log10(1 + err)


def _above(r: Any, bound: Any) -> bool | None:
    """Is ``δ`` of ``r`` above ``bound`` (True), at most ``bound`` (False), or does its error bar straddle it (None)?
    Exact values are compared as rationals."""
    if r.exact and isinstance(r.value, Fraction) and isinstance(bound, Fraction):
        return r.value > bound
    if not r.exact and math.isnan(r.rel_error):
        return None  # a law summed in floats states no error bound: it decides nothing
    lo, hi = _log10_bracket(r)
    b = math.log10(float(bound)) if bound > 0 else -math.inf
    return True if lo > b else (False if hi <= b else None)


def _max_delta_verdict(
    S: Any, level: PrivacyLevel, r: Any, certified: bool, bound: Any, shown: str, one_pair: bool = False
) -> tuple[bool, str]:
    """``--max-delta``: (δ ≤ bound, the reason), with a certificate either way. ``r`` is the exact δ of one pair (the
    worst over every dataset when ``certified``, else the clone maximum, a lower bound on the worst case). A pair
    above the bound is a "no"; a "yes" needs the worst case over every dataset — the exhaustive search, or
    Feldman–McMillan–Talwar's clone bound (a proven upper bound for every ``ε₀``-DP local mechanism); otherwise the
    question is refused (a lower bound below the bound proves nothing)."""
    above = _above(r, bound)
    if above:
        return False, f"δ > {shown} at the pair {r.pair.summary()}"
    if certified and above is False:
        return True, f"δ ≤ {shown} {'at this pair' if one_pair else 'over every neighbouring pair'}"
    e0 = S.epsilon().level.exp_eps
    f = fmt_delta(S.n, e0, level) if e0 != math.inf else None
    if f is not None and _above(f, bound) is False:
        return True, f"δ ≤ FMT's clone bound {_delta_text(f)} ≤ {shown} (a proven upper bound)"
    raise SizeLimitError(
        f"--max-delta {shown} at ε = {level.shown} is undecided: δ = {_delta_text(r)} at "
        f"{'the worst pair' if certified else 'the worst clone pair, a lower bound on the worst case'} is not above "
        f"it{'' if f is None else ', and FMT' + chr(39) + f's upper bound {_delta_text(f)} is not below it'}; the "
        f"exhaustive search over every dataset (--scope all) decides it — {limit_hint('shuffle_exhaustive_work')}"
    )


def _delta_text(r: Any) -> str:
    return number_text(r.value) if r.exact or r.value != 0 else log10_text(r.log10)


@command(
    "shuffle",
    "the shuffled tally of n users applying a local mechanism: exact δ(ε) at the worst neighbouring "
    "pair (or one pair), FMT's bound, the shuffled definition",
    outputs={"plot": "figure"},
)(_shuffle_args)
def _shuffle(args: argparse.Namespace) -> Outcome:
    if args.plot:
        check_figure_path(args.plot, what="--plot")
    bound = max_delta_option(args.max_delta) if args.max_delta is not None else None
    S = shuffled(_local(args.local), args.n)
    lines = [
        f"shuffled tally of n = {args.n} users, local mechanism {S.local.n_inputs} inputs → "
        f"{S.local.n_outputs} reports (ε0: e^ε0 = {number_text(S.epsilon().level.exp_eps)})"
    ]
    data: dict[str, Any] = {"n": args.n, "local": args.local, "points": []}
    series: dict[str, list[tuple[float, float]]] = {"exact": [], "FMT clone bound": []} if args.fmt else {"exact": []}
    code = EXIT_YES
    if (args.others is None) != (args.change is None) and args.change is None:
        raise InvalidParameterError("--others needs --change A:B (the changing user's two inputs)")
    for e in args.eps:
        level = PrivacyLevel.coerce(e, name="--eps")
        if args.change is not None:
            a, _, b = args.change.partition(":")
            r = S.delta(level, S.pair(_pairs(args.others) if args.others else None, a, b))
            point: dict[str, Any] = {"eps": e, "delta": r.to_dict()}
            lines.append(str(r))
            certified = True  # the question is about this one pair
        else:
            w = S.worst_case(level, scope=args.scope)
            r = w.delta
            point = {"eps": e, "worst_case": w.to_dict()}
            lines.append(str(w))
            certified = w.certified
        series["exact"].append((float(level), r.log10))
        if args.fmt:
            e0 = S.epsilon().level.exp_eps
            f = fmt_delta(args.n, e0, level)
            point["fmt"] = f.to_dict()
            series["FMT clone bound"].append((float(level), f.log10))
            verdict = "exact ≤ bound" if r.log10 <= f.log10 else "EXACT ABOVE THE PUBLISHED BOUND"
            lines.append(f"  FMT clone bound (e^ε0 = {number_text(e0)}): δ ≤ {_delta_text(f)}  [{verdict}]")
        if bound is not None:
            ok, why = _max_delta_verdict(S, level, r, certified, bound, args.max_delta, args.change is not None)
            point["max_delta"] = {"bound": args.max_delta, "holds": ok, "reason": why}
            lines.append(f"  --max-delta: {'yes' if ok else 'no'}, {why}")
            if not ok:
                code = EXIT_NO
        data["points"].append(point)
    if args.definition:
        rep = amplification_report(S)
        lines.append(str(rep))
        data["definition"] = {
            "row_cone": rep.row_cone,
            "guarantees": list(rep.guarantees),
            "sandwich": rep.sandwich.to_dict(),
            "local_level": rep.local_level,
        }
    if args.plot:
        plot_log_profiles(series, args.plot, title=f"shuffled tally, n = {args.n}")
        lines.append(f"plot written to {args.plot}")
        data["plot"] = str(args.plot)
    return Outcome("\n".join(lines), data, code)


# ---------------------------------------------------------------------------------------------------- subsample
def _subsample_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-m", "--mechanism", required=True, help="mechanism JSON file; inputs histograms of records")
    p.add_argument(
        "--records",
        type=int,
        default=None,
        help="records per database of the file's mechanism (the "
        "largest size with --every-size); default: the histogram domain whose datasets are the file's inputs",
    )
    p.add_argument("--categories", type=int, default=None, help="record values (default: as --records)")
    p.add_argument("--every-size", action="store_true", help="the file's inputs are databases of every size 0..records")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--rate", help="Poisson subsampling: the probability γ that a record is kept")
    g.add_argument("--size", type=int, help="sampling without replacement: the sample size T (= --records)")
    p.add_argument("--population", type=int, default=None, help="without replacement: the database size N")
    p.add_argument("--removed", default=None, help="Poisson: the record value replacing each removed record")
    p.add_argument("--eps", nargs="*", default=[], help="also δ'(ε') against γ δ(ε) at these ε of the base mechanism")
    p.add_argument("--out", default=None, help="save the subsampled mechanism (JSON)")
    p.add_argument("--plot", default=None, metavar="FILE", help="draw log10 δ'(ε') and the BBG bound γ δ(ε) into FILE")


def _histogram_domain(raw: Mechanism, args: argparse.Namespace) -> Domain:
    """The histogram domain whose datasets are exactly the file's inputs, found by comparing the labels of the
    candidate domains (sizes up to the number of inputs) with them — nothing is parsed."""
    labels = tuple(raw.inputs)
    cats = [args.categories] if args.categories else range(1, len(labels) + 1)
    for c in cats:
        for up_to in (False, True):
            for n in range(1, len(labels) + 1):
                if count_compositions(n, c) > len(labels):
                    break
                dom = Domain.histograms(n, c, up_to=up_to)
                if tuple(dom.labels) == labels:
                    return dom
    raise DomainMismatchError(
        f"the inputs of {args.mechanism} are not the histograms of a number of records over "
        f"record values ({list(labels)[:4]}…): build the mechanism on pg.Domain.histograms(...)"
    )


@command(
    "subsample",
    "a mechanism run on a Poisson or without-replacement subsample: exact ε and δ next to "
    "Balle-Barthe-Gaboardi's tight bound",
    outputs={"out": "file", "plot": "figure"},
)(_subsample_args)
def _subsample(args: argparse.Namespace) -> Outcome:
    if args.plot:
        check_figure_path(args.plot, what="--plot")
    if args.out:
        check_output_path(args.out, what="--out")
    raw = Mechanism.load(args.mechanism)
    dom = (
        _histogram_domain(raw, args)
        if args.records is None
        else Domain.histograms(args.records, args.categories or 2, up_to=args.every_size)
    )
    if tuple(dom.labels) != tuple(raw.inputs):
        raise DomainMismatchError(
            f"the inputs of {args.mechanism} are not the histograms of {args.records} records "
            f"over {args.categories} values{' of every size' if args.every_size else ''} "
            f"(expected {list(dom.labels)[:4]}…, got {list(raw.inputs)[:4]}…)"
        )
    M = Mechanism(raw.matrix, dom, raw.outputs, exact=raw.exact)
    if args.rate is not None:
        S = subsampled(M, rate=args.rate, removed=args.removed)
        gamma = parse_scalar(args.rate, name="--rate", exact=M.exact or None)
        relation = "add-remove" if args.removed is None else "replace-one"
        scheme = f"Poisson subsampling at γ = {number_text(gamma)}"
    else:
        if args.population is None:
            raise InvalidParameterError("--size needs --population N (the database size)")
        S = subsampled(M, size=args.size, n=args.population)
        gamma = Fraction(args.size, args.population)
        relation, scheme = "replace-one", f"sampling {args.size} of {args.population} without replacement (γ = {gamma})"
    base = epsilon(M, relation)
    sub = epsilon(S, relation)
    t0, t1 = base.level.exp_eps, sub.level.exp_eps
    bbg = bbg_bound(t0, gamma)[0] if math.isfinite(float(t0)) else math.inf
    holds = t1 <= bbg
    lines = [
        f"{scheme}, neighbours {relation}",
        f"  base:       e^ε  = {number_text(t0)}  (ε = {number_text(base.level.eps)})",
        f"  subsampled: e^ε' = {number_text(t1)}  (ε' = {number_text(sub.level.eps)})",
        f"  BBG bound:  e^ε' ≤ 1 + γ(e^ε − 1) = {number_text(bbg)}  [{'holds' if holds else 'EXCEEDED'}; "
        f"gap {number_text(bbg - t1) if math.isfinite(float(bbg)) else 'inf'}]",
    ]
    data: dict[str, Any] = {
        "scheme": scheme,
        "relation": relation,
        "exp_eps": t0,
        "exp_eps_subsampled": t1,
        "bbg_exp_eps": bbg,
        "holds": holds,
        "profile": [],
    }
    series: dict[str, list[tuple[float, float]]] = {"subsampled δ'(ε')": [], "BBG γ δ(ε)": []}
    for e in args.eps:
        level = PrivacyLevel.coerce(e, name="--eps")
        d0 = delta(M, relation, eps=level).delta
        t_sub = 1 + gamma * (level.exp_eps - 1)
        sub_level = PrivacyLevel.from_exp_eps(t_sub)
        d1 = delta(S, relation, eps=sub_level).delta
        ok = d1 <= gamma * d0
        holds = holds and ok
        lines.append(
            f"  ε = {level.shown}: δ'(ln(1 + γ(e^ε − 1))) = {number_text(d1)} ≤ γ δ(ε) = {number_text(gamma * d0)}"
            f"  [{'holds' if ok else 'EXCEEDED'}]"
        )
        data["profile"].append(
            {
                "eps": e,
                "delta": d0,
                "eps_subsampled": sub_level.eps,
                "delta_subsampled": d1,
                "bbg_delta": gamma * d0,
                "holds": ok,
            }
        )
        if d1 > 0:
            series["subsampled δ'(ε')"].append((float(sub_level), math.log10(float(d1))))
        if d0 > 0:
            series["BBG γ δ(ε)"].append((float(sub_level), math.log10(float(gamma * d0))))
    if args.out:
        S.save(args.out)
        lines.append(f"subsampled mechanism written to {args.out}")
        data["out"] = str(args.out)
    if args.plot:
        plot_log_profiles(series, args.plot, title=scheme)
        lines.append(f"plot written to {args.plot}")
        data["plot"] = str(args.plot)
    return Outcome("\n".join(lines), data, EXIT_YES if holds else EXIT_NO)
