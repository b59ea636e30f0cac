"""Core subcommands: ``analyze``, ``closure``, ``rowcone``, ``semantics``, ``relax``.

Definitions are spelled as specs (``rr:k=3,p=3/4``, ``dp:graph=hamming,k=2,exp_eps=3``); see
:func:`privgeom.definitions.parse_definition`.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from .._errors import FormatError
from ..analyses._relaxation import relax
from ..analyses._semantics import check_guarantee, semantics
from ..definitions import parse_definition
from ..mechanisms._mechanism import Mechanism
from ._registry import EXIT_NO, EXIT_YES, Outcome, command
from ._repair import add_repair_arguments, repair_report

DEFAULT_SPEC = "rr:k=2,p=3/4"


def _definition_arg(p: argparse.ArgumentParser, default: str | None = DEFAULT_SPEC) -> None:
    p.add_argument("definition", nargs="?" if default else None, default=default,
                   help=f"privacy definition spec, e.g. rr:k=3,p=3/4 or dp:graph=hamming,k=2,exp_eps=3 (default {default})")


def _family(value: str) -> Any:
    """``hamming``, ``all-pairs``, ``triples`` or an explicit list ``11:10,11:01`` (subsets joined by ':')."""
    if value in ("hamming", "all-pairs", "triples"):
        return value
    subsets = [tuple(part.split(":")) for part in value.split(",") if part]
    if not subsets or any(len(s) < 1 or "" in s for s in subsets):
        raise FormatError(f"bad subset family {value!r}: use hamming, all-pairs, triples or a list like 11:10,11:01")
    return subsets


#: Above this many datasets the CLI projects by block elimination instead of one-coordinate-at-a-time Fourier–Motzkin
#: (same cone, cross-checked in the tests; FM's per-step redundancy LPs take about a minute on 16 datasets).
FM_MAX_DATASETS = 8


def _relax_method(cone: Any, requested: str | None) -> str:
    if requested and requested != "auto":
        return requested
    return "fourier_motzkin" if cone.ambient_dim <= FM_MAX_DATASETS else "block"


def _rowcone_text(cone: Any) -> str:
    lines = [f"row cone in R^{cone.ambient_dim} (datasets {', '.join(cone.labels)}): dimension {cone.dim}, "
             f"{cone.n_facets} facets, {cone.n_rays} extreme rays, {'pointed' if cone.is_pointed else 'not pointed'}"]
    text = str(cone).splitlines()[1:]  # the first line repeats the header
    lines.extend("  " + line.strip() for line in text if line.strip())
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------- analyze
def _analyze_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument("--family", default=None, help="relaxation family (default: hamming on bit strings, else all-pairs)")


def _closure_examples(definition: Any) -> list[tuple[str, Any]]:
    """Closure facts worth showing: for randomized response, a weaker RR is inside, a stronger one outside."""
    from ..definitions import RandomizedResponse
    from ..mechanisms._factories import randomized_response

    out: list[tuple[str, Any]] = []
    if isinstance(definition, RandomizedResponse) and definition.k <= 6:
        p = definition.p
        weaker = (p + Fraction(1, 2)) / 2 if isinstance(p, Fraction) else (p + 0.5) / 2
        out.append((f"RR(k={definition.k}, p={weaker})", definition.contains(randomized_response(definition.k, weaker))))
        if p < 1:
            stronger = (p + 1) / 2
            out.append((f"RR(k={definition.k}, p={stronger})",
                        definition.contains(randomized_response(definition.k, stronger))))
    return out


@command("analyze", "full report: closure facts, row cone, semantics, relaxation (default rr:k=2,p=3/4)")(_analyze_args)
def _analyze(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    cone = d.row_cone()
    guarantees = semantics(cone)
    labels = cone.labels
    bits = all(set(s) <= {"0", "1"} for s in labels) and len({len(s) for s in labels}) == 1
    family = _family(args.family) if args.family else ("hamming" if bits else "all-pairs")
    relaxation = relax(cone, family, method=_relax_method(cone, None))
    facts = _closure_examples(d)
    lines = [f"privacy definition {d.spec()}  ({d.name}) on {len(labels)} datasets: {', '.join(labels)}", ""]
    lines.append("1. consistent closure")
    lines.append(f"   the row cone {'decides' if d.row_cone_decides_closure else 'does NOT decide'} closure membership"
                 f" for this definition")
    for name, m in facts:
        lines.append(f"   {name}: {'in' if m.member else 'NOT in'} the closure  [{m.method}] {m.detail}")
    lines += ["", "2. " + _rowcone_text(cone), "", "3. semantics (one Bayesian guarantee per facet)"]
    note = getattr(d, "semantics_note", "")
    if note:
        lines.append(f"   note: {note}")
    lines += [f"   - {g.text}" for g in guarantees]
    how = "Fourier–Motzkin" if relaxation.method == "fourier_motzkin" else "block elimination (Fourier–Motzkin on a block)"
    lines += ["", f"4. relaxation by {how} onto the family {family!r}", "   " + relaxation.text]
    if relaxation.recognised == "dp":
        lines.append(f"   => ε-differential privacy with ε = {relaxation.epsilon} ≈ {float(relaxation.epsilon):.6f}")  # type: ignore[arg-type]
    data = {
        "definition": d.spec(),
        "datasets": list(labels),
        "closure": {"row_cone_decides": d.row_cone_decides_closure,
                    "examples": [{"mechanism": n, "membership": m} for n, m in facts]},
        "row_cone": cone,
        "semantics": list(guarantees),
        "semantics_note": note,
        "relaxation": relaxation,
    }
    return Outcome("\n".join(lines), data, EXIT_YES)


# ---------------------------------------------------------------------------------------------------------- closure
def _closure_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p, default=None)
    p.add_argument("--mechanism", "-m", required=True, help="JSON file with the mechanism (see Mechanism.to_json)")
    p.add_argument("--method", default="auto", help="membership backend (auto, lp, or a fast path the definition offers)")
    add_repair_arguments(p)


@command("closure", "is a mechanism (JSON file) in the consistent closure of a definition? exit 0 yes / 1 no")(_closure_args)
def _closure(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    mech = Mechanism.load(args.mechanism)
    m = d.contains(mech, method=args.method)
    verdict = "IN" if m.member else "NOT in"
    decides = d.row_cone_decides_closure
    text = (f"{args.mechanism} is {verdict} closure({d.spec()})  [method: {m.method}]\n"
            f"the row cone {'decides' if decides else 'does not decide'} closure membership for this definition\n"
            f"{m.summary()}")
    data = {"definition": d.spec(), "member": m.member, "method": m.method, "row_cone_decides": decides,
            "membership": m}
    repair_text, repair_data = repair_report(d, mech, args)
    return Outcome(text + repair_text, {**data, **repair_data}, EXIT_YES if m.member else EXIT_NO)


# ---------------------------------------------------------------------------------------------------------- rowcone
def _rowcone_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument("--rays", action="store_true", help="also list the extreme rays")


@command("rowcone", "facets (and extreme rays) of the row cone of a definition")(_rowcone_args)
def _rowcone(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    cone = d.row_cone()
    text = _rowcone_text(cone)
    if args.rays:
        text += "\nextreme rays:\n" + "\n".join("  (" + ", ".join(str(v) for v in r) + ")" for r in cone.rays)
    return Outcome(text, {"definition": d.spec(), "row_cone": cone}, EXIT_YES)


# ---------------------------------------------------------------------------------------------------------- semantics
def _semantics_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument("--check", metavar="FILE", help="check every guarantee on the outputs of this mechanism (JSON); "
                   "exit 1 if one fails")


@command("semantics", "the Bayesian guarantees (S+, S-, attacker prior) of every facet of the row cone")(_semantics_args)
def _semantics(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    guarantees = semantics(d)
    lines = [f"{len(guarantees)} guarantees of {d.spec()}:"] + [f"- {g.text}" for g in guarantees]
    data: dict[str, Any] = {"definition": d.spec(), "guarantees": list(guarantees)}
    code = EXIT_YES
    if args.check:
        mech = Mechanism.load(args.check)
        checks = [check_guarantee(mech, g) for g in guarantees]
        data["checks"] = checks
        failed = [c for c in checks if not c.holds]
        lines.append(f"checked on {args.check}: {len(checks) - len(failed)} of {len(checks)} guarantees hold")
        lines += [f"  {c.summary()}" for c in failed]
        code = EXIT_NO if failed else EXIT_YES
    return Outcome("\n".join(lines), data, code)


# ---------------------------------------------------------------------------------------------------------- relax
def _relax_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument("--family", "--pairs", dest="family", default=None,
                   help="subsets to project onto: hamming (default on bit strings), all-pairs, triples, or 11:10,11:01")
    p.add_argument("--method", default="auto", choices=["auto", "fourier_motzkin", "block", "generators"],
                   help=f"projection method; auto = fourier_motzkin up to {FM_MAX_DATASETS} datasets, block beyond")


@command("relax", "relax a definition by Fourier–Motzkin projection onto subsets; recognise ε-DP")(_relax_args)
def _relax(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    cone = d.row_cone()
    bits = all(set(s) <= {"0", "1"} for s in cone.labels) and len({len(s) for s in cone.labels}) == 1
    family = _family(args.family) if args.family else ("hamming" if bits else "all-pairs")
    r = relax(cone, family, method=_relax_method(cone, args.method))
    lines = [r.text]
    lines += [f"  {b.summary()}" for b in r.pair_bounds[:20]]
    if len(r.pair_bounds) > 20:
        lines.append(f"  ... ({len(r.pair_bounds) - 20} more pairs)")
    if r.lost:
        lines.append("guarantees no longer implied:")
        lines += [f"  - {g.text}" for g in r.lost]
    lines.append(_rowcone_text(r.cone))
    return Outcome("\n".join(lines), r, EXIT_YES)
