"""Core subcommands: ``closure``, ``rowcone``, ``semantics``, ``relax``, and the helpers they share with ``analyze``
(:mod:`privgeom.cli._analyze`).

Definitions are spelled as specs (``rr:k=3,p=3/4``, ``dp:graph=hamming,k=2,exp_eps=3``); see
:func:`privgeom.definitions.parse_definition`. ``rowcone``, ``semantics`` and ``analyze`` print counts, symmetry
orbits and one representative per orbit (:func:`privgeom.analyses.describe_row_cone`); ``--all`` lists everything,
``--json`` / ``--out FILE`` carry the complete data, streamed row by row (``_render.py``). ``analyze`` reports every
part it could do and names the part refused, with the reason.
"""

from __future__ import annotations

import argparse
import dataclasses
from bisect import bisect_left
import itertools
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from .._core.errors import DomainMismatchError, PrivgeomError, SizeLimitError
from .._core.hints import limit_hint
from .._core.limits import current_limit
from .._core.progress import stage
from .._core.results import to_jsonable
from ..analyses.relaxation._relaxation import RELAX_METHODS, relax, relaxation_domain
from ..analyses.guarantees._semantics import Guarantee, check_guarantee, semantics
from ..analyses.guarantees._summary import RowConeSummary, describe_row_cone, format_facet
from ..definitions import parse_definition
from ..geometry._symmetry import automorphisms, source_phrase
from ..mechanisms._mechanism import Mechanism
from ._registry import EXIT_NO, EXIT_YES, Outcome, command
from ._render import (
    MAX_MATRIX_SHOWN,
    Stream,
    StreamedData,
    bounded_membership,
    equality_rows,
    facet_rows,
    implied_lines,
    lineality_rows,
    listing,
    ray_rows,
    write_out,
)
from ._repair import add_repair_arguments, repair_report
from ._routes import (
    FM_MAX_DATASETS,
    _check_cone_rays_early,
    _cone_document_dim,
    _default_family,
    _family_sets,
    _max_family,
    _max_family_option,
    _relax_method,
    _relaxation_route,
)

DEFAULT_SPEC = "rr:k=2,p=3/4"


def _definition_arg(p: argparse.ArgumentParser, default: str | None = DEFAULT_SPEC) -> None:
    p.add_argument(
        "definition",
        nargs="?" if default else None,
        default=default,
        help=f"privacy definition spec, e.g. rr:k=3,p=3/4 or dp:graph=hamming,k=2,exp_eps=3 (default {default})",
    )


#: How many orbits (and, with --check, failures) the default text lists before saying how many more there are.
MAX_ORBITS_SHOWN = 12


def _rowcone_text(cone: Any) -> str:
    """Every facet of a (small) cone, one per line (used for relaxed cones and ``--all``)."""
    lines = [
        f"row cone in R^{cone.ambient_dim}: dimension {cone.dim}, {cone.n_facets} facets, "
        f"{'pointed' if cone.is_pointed else 'not pointed'}"
    ]
    rows, _ = facet_rows(cone)
    lines += [f"  {format_facet(r, cone.labels, exact=cone.exact, limit=10**9)}" for r in rows()]
    lines += [
        f"  {format_facet(e, cone.labels, exact=cone.exact, limit=10**9).replace(' ≥ 0', ' = 0')}"
        for e in equality_rows(cone)
    ]
    return "\n".join(lines)


def facet_number(i: int | None) -> str:
    """The prefix of a facet's line in the ``--all`` listings: its 0-based position in ``rowcone --all`` (the order
    ``design --drop`` and ``pg.without`` use); ``[=]`` for an equality."""
    return "[=] " if i is None else f"[{i}] "


def _listed_positions(cone: Any) -> Callable[[Any], int | None]:
    """Position of a facet normal in the ``rowcone --all`` order (:func:`facet_rows`; the semantics list another
    order), ``None`` for a row that is no facet (an equality). Float rows are matched to 9 significant digits."""
    rows, _ = facet_rows(cone)

    def key(r: Any) -> tuple[Any, ...]:
        return tuple(r) if cone.exact else tuple(float(f"{float(v):.9g}") + 0.0 for v in r)

    where = {key(r): i for i, r in enumerate(rows())}
    return lambda r: where.get(key(r))


def _normal_of(g: Any) -> Any:
    """A guarantee's normal for :func:`_listed_positions`: the integer row when there is one (no Fractions built)."""
    ints = g.integer_normal
    return g.coefficients if ints is None else ints.tolist()


def _out_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--all", action="store_true", help="list everything instead of counts, orbits and representatives")
    p.add_argument("--out", metavar="FILE", help="write the complete data as JSON to FILE (streamed)")


def _finish(text: str, data: StreamedData, out: str | None) -> str:
    if out:
        stage(f"writing {out}")
        size = write_out(out, data)
        text += f"\ncomplete data written to {out} ({size:,} bytes of JSON)"
    return text


def _finish_outcome(text: str, lines: Iterator[str] | None, data: StreamedData, out: str | None, code: int) -> Outcome:
    """The outcome of a command with an ``--all`` listing: ``lines`` (lazy, printed as they come) when given, else
    ``text``; ``--out FILE`` is written first and its line comes last, as :func:`_finish` does."""
    if lines is None:
        return Outcome(_finish(text, data, out), data, code)
    outcome = Outcome("", data, code, lines=lines)
    if out:
        return outcome.appended(_finish("", data, out)[1:])
    return outcome


def _lost_orbits(definition: Any, relaxation: Any, family: Any) -> list[tuple[int, Guarantee]]:
    """The lost guarantees by orbit: from the relaxation's verified per-orbit statuses (difference route), else the
    symmetries of the definition that keep the family (sound orbits of the lost facets)."""
    lost = relaxation.lost
    if not lost:
        return []
    statuses = getattr(relaxation, "statuses", ())
    if statuses:
        order = sorted(m for st in statuses if st.lost for m in st.orbit)  # the order of ``relaxation.lost``
        return [(st.size, lost[bisect_left(order, st.index)]) for st in statuses if st.lost]
    labels = lost[0].labels
    try:
        G = automorphisms(definition).stabilizer_of_family(_family_sets(labels, family))
        rows = np.array([g.coefficients for g in lost], dtype=object if lost[0].exact else float)
        orbits = G.orbits_of_rows(rows)
    except PrivgeomError:
        return [(1, g) for g in lost]
    return [(o.size, lost[o.representative]) for o in orbits]


def _lost_lines(definition: Any, relaxation: Any, family: Any, *, indent: str, all_: bool = False) -> list[str]:
    if all_:
        return [f"{indent}guarantees no longer implied ({len(relaxation.lost)}):"] + [
            f"{indent}- {g.text}" for g in relaxation.lost
        ]
    lost = _lost_orbits(definition, relaxation, family)
    if not lost:
        return []
    head = f"{indent}guarantees no longer implied: {len(relaxation.lost)} in {len(lost)} orbit{'s' if len(lost) != 1 else ''}"
    return [head] + listing(
        lost,
        lambda t: f"{t[0]} × {t[1].text}" if t[0] > 1 else t[1].text,
        limit=MAX_ORBITS_SHOWN // 2,
        more="orbits of lost guarantees (--all / --json list them all)",
        indent=indent,
    )


def _semantics_lines(summary: RowConeSummary, *, indent: str, limit: int | None = MAX_ORBITS_SHOWN) -> list[str]:
    n_orb = len(summary.facet_orbits)
    head = (
        f"{indent}{summary.n_facets} guarantee{'s' if summary.n_facets != 1 else ''} (one per facet) in {n_orb} "
        f"orbit{'s' if n_orb != 1 else ''} of the {source_phrase(summary.group_source)} symmetry group"
    )
    if summary.n_equalities:
        head += f", and two per equality ({summary.n_equalities} equalities; --all lists them)"
    return [head + ":"] + listing(
        summary.facet_orbits,
        lambda o: f"{o.size} × {o.guarantee.text}" if o.size > 1 else o.guarantee.text,
        limit=limit,
        more="orbits (--all lists every guarantee)",
        indent=indent,
    )


# ---------------------------------------------------------------------------------------------------------- closure
def _closure_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p, default=None)
    p.add_argument("--mechanism", "-m", required=True, help="JSON file with the mechanism (see Mechanism.to_json)")
    p.add_argument(
        "--method", default="auto", help="membership backend (auto, lp, or a fast path the definition offers)"
    )
    p.add_argument(
        "--all",
        action="store_true",
        help=f"carry the membership witness in --json whatever its size (without --all it is left out for a "
        f"mechanism of more than {MAX_MATRIX_SHOWN} entries: a post-processing as large as the matrix)",
    )
    add_repair_arguments(p)


def _check_input_count(definition: Any, mechanism: Mechanism, where: str) -> None:
    """Refuse a mechanism whose number of inputs is not the definition's number of datasets, comparing the counts
    before any label is built (``rr:k=20`` has 1,048,576 dataset labels; a 4-input mechanism is refused at once)."""
    n_def, n_mech = definition.n_inputs, mechanism.n_inputs
    if n_def != n_mech:
        shown = ", ".join(list(mechanism.inputs)[:4]) + (", ..." if n_mech > 4 else "")
        raise DomainMismatchError(
            f"the mechanism in {where} has {n_mech:,} input{'s' if n_mech != 1 else ''} ({shown}) but "
            f"{definition.spec()} has {n_def:,} dataset{'s' if n_def != 1 else ''}: a mechanism for this definition "
            "has one input per dataset, in the definition's order"
        )


@command(
    "closure",
    "is a mechanism (JSON file) in the consistent closure of a definition? exit 0 yes / 1 no",
    outputs={"out": "file"},
)(_closure_args)
def _closure(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    mech = Mechanism.load(args.mechanism)
    _check_input_count(d, mech, args.mechanism)
    m = d.contains(mech, method=args.method)
    verdict = "IN" if m.member else "NOT in"
    decides = d.row_cone_decides_closure
    text = (
        f"{args.mechanism} is {verdict} closure({d.spec()})  [method: {m.method}]\n"
        f"the row cone {'decides' if decides else 'does not decide'} closure membership for this definition\n"
        f"{m.summary()}"
    )
    data = {
        "definition": d.spec(),
        "member": m.member,
        "method": m.method,
        "row_cone_decides": decides,
        "membership": bounded_membership(m, mech, all_=args.all),
    }
    repair_text, repair_data = repair_report(d, mech, args)
    return Outcome(text + repair_text, {**data, **repair_data}, EXIT_YES if m.member else EXIT_NO)


# ---------------------------------------------------------------------------------------------------------- rowcone
def _rowcone_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument("--rays", action="store_true", help="also compute the extreme rays (and their orbits)")
    _out_option(p)


def _fresh(g: Any) -> Any:
    """A copy of a guarantee without its cached sets and sentence: streaming thousands of them to a file keeps one
    guarantee's data in memory at a time, not all of them."""
    return dataclasses.replace(g)


def _check_listing(n_rows: int | None, n_columns: int, what: str) -> None:
    """Refuse an ``--all`` text listing beyond the size limit ``listed_coefficients`` before any work."""

    cap = current_limit("listed_coefficients")
    if n_rows is not None and n_rows * n_columns > cap:
        raise SizeLimitError(
            f"--all would print {n_rows:,} {what} of {n_columns:,} coefficients each ({n_rows * n_columns:,} numbers, "
            f"more than the {cap:,} a text listing shows); refused before any work — without --all you get "
            "counts, orbits and representatives, and --out FILE or --json still carry every one as data; or "
            f"{limit_hint('listed_coefficients', n_rows * n_columns)}"
        )


@command(
    "rowcone",
    "facets (and extreme rays) of the row cone of a definition: counts, orbits, representatives",
    outputs={"out": "file"},
)(_rowcone_args)
def _rowcone(args: argparse.Namespace) -> Outcome:
    if args.rays:
        _check_cone_rays_early(args.definition)
    stage("parsing the definition")
    d = parse_definition(args.definition)
    stage("row cone")
    cone = d.row_cone()
    if args.all:
        st = cone.structure
        _check_listing(st.n_facets if st is not None else None, len(cone.labels), "facets")
    stage("summary and symmetry orbits" + (" (with the extreme rays)" if args.rays else ""))
    summary = describe_row_cone(d, rays=args.rays)
    labels = cone.labels
    listed: Iterator[str] | None = None
    if args.all:  # the rays are enumerated (or refused) before the first line is printed
        listed = _rowcone_listing(summary, cone, ray_rows(cone)[0] if args.rays else None)
        text = ""
    else:
        text = "\n".join([f"{d.spec()}: " + summary.lines()[0]] + summary.lines()[1:])
    rows, count = facet_rows(cone)
    parts: list[tuple[str, Any]] = [
        ("definition", d.spec()),
        ("summary", summary),
        ("labels", list(labels)),
        ("facets", Stream(rows, count)),
        ("equalities", equality_rows(cone)),
    ]
    if args.rays and _rays_by_orbit_only(cone, summary):
        parts += [
            (
                "rays_not_listed",
                f"{summary.n_rays:,} extreme rays, more than the dp_rays limit of "
                f"{current_limit('dp_rays'):,}: the summary lists them by orbit; every ray: "
                f"{limit_hint('dp_rays', summary.n_rays)}",
            ),
            ("lineality", lineality_rows(cone)),
        ]
    elif args.rays:
        rays, n_rays = ray_rows(cone)
        parts += [("rays", Stream(rays, n_rays)), ("lineality", lineality_rows(cone))]
    data = StreamedData(parts, {"row_cone": cone, "summary": summary})
    return _finish_outcome(text, listed, data, args.out, EXIT_YES)


def _rowcone_listing(summary: RowConeSummary, cone: Any, rays: Callable[[], Iterator[Any]] | None) -> Iterator[str]:
    """The ``rowcone --all`` text, one line at a time: each facet (numbered ``[i]``), equality and ray formatted
    when it is printed."""
    labels = cone.labels
    yield summary.header()
    if summary.rule:
        yield f"  {summary.rule}"
    yield f"  {summary.symmetry_line()}"
    rows, _ = facet_rows(cone)
    for i, r in enumerate(rows()):
        yield f"  {facet_number(i)}{format_facet(r, labels, exact=cone.exact, limit=10**9)}"
    for e in equality_rows(cone):
        yield f"  {format_facet(e, labels, exact=cone.exact, limit=10**9).replace(' ≥ 0', ' = 0')}"
    if rays is not None:
        yield "extreme rays:"
        for r in rays():
            yield "  (" + ", ".join(str(v) for v in r) + ")"
        for r in lineality_rows(cone):
            yield "  line: (" + ", ".join(str(v) for v in r) + ")"


def _rays_by_orbit_only(cone: Any, summary: RowConeSummary) -> bool:
    """An ε-DP cone whose rays the summary counted by orbit (docs/theory.md §7) but are more than the ``dp_rays``
    limit lets list: the data carries the orbits, not every ray."""
    st = cone.structure
    return (
        st is not None
        and st.kind == "difference"
        and summary.n_rays is not None
        and summary.n_rays > current_limit("dp_rays")
    )


# ---------------------------------------------------------------------------------------------------------- semantics
def _semantics_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument(
        "--check",
        metavar="FILE",
        help="check every guarantee on the outputs of this mechanism (JSON); exit 1 if one fails",
    )
    _out_option(p)


@command(
    "semantics",
    "the Bayesian guarantees (S+, S-, attacker prior) of the facets of the row cone, by orbit",
    outputs={"out": "file"},
)(_semantics_args)
def _semantics(args: argparse.Namespace) -> Outcome:
    stage("parsing the definition")
    d = parse_definition(args.definition)
    summary = None
    if not args.all:  # the summary refuses a cone too large to describe before the guarantees are built
        stage("symmetry orbits")
        summary = describe_row_cone(d)
    if args.all:  # from the row cone's structure when it counts the facets, before a guarantee is built
        st = d.row_cone().structure
        _check_listing(st.n_facets if st is not None else None, d.n_inputs, "guarantees")
    stage("row cone and guarantees")
    guarantees = semantics(d)
    listed: Iterator[str] | None = None
    if args.all:
        _check_listing(len(guarantees), len(d.inputs), "guarantees")
        listed = _semantics_listing(d, guarantees)
        lines: list[str] = []
    else:
        assert summary is not None
        lines = [f"{d.spec()}:"] + _semantics_lines(summary, indent="")
    note = getattr(d, "semantics_note", "")
    if note:
        lines.append(f"note: {note}")
    parts: list[tuple[str, Any]] = [
        ("definition", d.spec()),
        ("labels", list(d.inputs)),
        ("guarantees", Stream(lambda: (_fresh(g).to_dict(labels=False) for g in guarantees), len(guarantees))),
    ]
    code = EXIT_YES
    if args.check:
        mech = Mechanism.load(args.check)
        stage(f"checking {len(guarantees):,} guarantees on {args.check}")
        checks = [check_guarantee(mech, g) for g in guarantees]
        parts.append(
            (
                "checks",
                Stream(
                    lambda: (
                        {
                            "holds": c.holds,
                            "violating_output": c.violating_output,
                            "posterior_plus": to_jsonable(c.posterior_plus),
                            "posterior_minus": to_jsonable(c.posterior_minus),
                            "skipped": list(c.skipped),
                        }
                        for c in checks
                    ),
                    len(checks),
                ),
            )
        )
        failed = [c for c in checks if not c.holds]
        lines.append(f"checked on {args.check}: {len(checks) - len(failed)} of {len(checks)} guarantees hold")
        lines += listing(
            failed,
            lambda c: c.summary(),
            limit=None if args.all else MAX_ORBITS_SHOWN,
            more="violated guarantees (--all lists them)",
        )
        code = EXIT_NO if failed else EXIT_YES
    data = StreamedData(parts, {"guarantees": guarantees})
    if listed is not None:  # the lines after the listing (note, checks) follow it
        listed = itertools.chain(listed, lines)
    return _finish_outcome("\n".join(lines), listed, data, args.out, code)


def _semantics_listing(d: Any, guarantees: Sequence[Guarantee]) -> Iterator[str]:
    """The ``semantics --all`` listing, one line at a time: each guarantee is built (and numbered ``[i]`` as in
    ``rowcone --all``) when its line is printed."""
    yield (f"{len(guarantees)} guarantees of {d.spec()} ([i]: facet i as rowcone --all and design --drop number them):")
    number = _listed_positions(d.row_cone())
    for g in guarantees:
        yield f"- {facet_number(number(_normal_of(g)))}{g.text}"


# ---------------------------------------------------------------------------------------------------------- relax
def _method_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--method",
        default="auto",
        choices=list(RELAX_METHODS),
        help="relaxation route: auto = difference constraints where the pair bounds are known in closed form, "
        f"else the cone route (cone = fourier_motzkin up to {FM_MAX_DATASETS} datasets, block beyond)",
    )


def _relax_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument(
        "--family",
        "--pairs",
        dest="family",
        default=None,
        help="subsets to project onto: hamming (default on bit strings), all-pairs, triples, a neighbour "
        "relation of the datasets (replace-one, add-remove, path, complete), or 11:10,11:01",
    )
    _method_option(p)
    _max_family_option(p)
    p.add_argument("--all", action="store_true", help="list every pair bound, lost guarantee and relaxed facet")


@command("relax", "relax a definition by projection onto subsets (Lin & Kifer §V); recognise ε-DP")(_relax_args)
def _relax(args: argparse.Namespace) -> Outcome:
    dim = _cone_document_dim(args.definition) if args.method in ("block", "cone") else None
    if dim is not None:  # a cone definition's preparation costs an LP per row: refuse from its document first
        _relax_method(dim, args.method)
    stage("parsing the definition")
    d = parse_definition(args.definition)
    max_family = _max_family(args)
    datasets = relaxation_domain(d, d.inputs)
    family = _default_family(d.inputs, args.family, datasets)
    known = _relaxation_route(d, d.inputs, family, args.method, max_family, datasets, requested=args.family is not None)
    if known is not None:
        r = known
    else:
        stage("row cone")
        cone = d.row_cone()
        stage(f"relaxation onto {family!r}" if isinstance(family, str) else f"relaxation onto {len(family):,} subsets")
        r = relax(d, family, method=_relax_method(cone.ambient_dim, args.method))
    stage("lost guarantees and orbits")
    lines = [r.text]
    limit = None if args.all else MAX_ORBITS_SHOWN
    lines += listing(r.pair_bounds, lambda b: b.summary(), limit=limit, more="pair bounds (--all lists them)")
    lines += implied_lines(r.implied, all_=args.all)
    lines += _lost_lines(d, r, family, indent="", all_=args.all)
    if args.all:
        lines.append("relaxed " + _rowcone_text(r.cone))
    elif known is not None:
        lines.append("relaxed " + _per_orbit_relaxed_text(d, r))
    else:
        relaxed = r.definition if r.definition is not None else r.cone
        try:  # the symmetries of the definition that keep the family map the relaxed cone to itself
            stab = automorphisms(d).stabilizer_of_family(_family_sets(datasets, family))
        except PrivgeomError:
            stab = None
        summary = describe_row_cone(relaxed, definition="relaxed", group=stab)
        lines.append("relaxed " + "\n".join(summary.lines(max_orbits=MAX_ORBITS_SHOWN)))
    return Outcome("\n".join(lines), r, EXIT_YES)


def _per_orbit_relaxed_text(definition: Any, r: Any) -> str:
    """The relaxed cone of a relaxation answered per orbit: its summary by orbit of the definition's symmetry group
    (the route answers per orbit of that group, which keeps the family), or — when the summary would need the
    relaxed cone's facets as one dense array beyond the size limits — its structure in one line (counts and the
    closed-form rule of its facets, nothing built)."""
    try:
        summary = describe_row_cone(r.cone, definition="relaxed", group=automorphisms(definition))
        return "\n".join(summary.lines(max_orbits=MAX_ORBITS_SHOWN))
    except SizeLimitError:
        cone, st = r.cone, r.cone.structure
        head = f"row cone in R^{cone.ambient_dim}: dimension {cone.ambient_dim}"
        if st is None or st.n_facets is None:  # pragma: no cover - the per-orbit routes give their structure
            return head
        return (
            f"{head}, {st.n_facets:,} facets, {'pointed' if st.pointed else 'not pointed'}\n  {st.description}"
            f"\n  symmetry: {r.symmetry}"
        )
