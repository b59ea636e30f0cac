"""The ``analyze`` subcommand: the full report of a definition in four parts (closure facts, row cone, semantics,
relaxation), each run on its own so that a refused part (a size limit, a part that does not apply) is named with its
reason while the others are reported.

The parts share the helpers of the core commands (:mod:`privgeom.cli._core`): the definition argument, the orbit
listings of the semantics and of the lost guarantees, and the ``--out`` / ``--json`` output streamed row by row
(``_render.py``).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any, Callable, Sequence, TypeVar

from .._core.errors import PrivgeomError, SizeLimitError
from .._core.progress import Progress
from .._core.results import to_jsonable
from ..analyses.relaxation._relaxation import own_family, relax, relaxation_domain
from ..analyses.guarantees._semantics import semantics
from ..analyses.guarantees._summary import describe_row_cone
from ..analyses.guarantees._wording import MAX_LISTED
from ..definitions import parse_definition
from ._core import (
    MAX_ORBITS_SHOWN,
    _definition_arg,
    _finish,
    _fresh,
    _lost_lines,
    _method_option,
    _out_option,
    _semantics_lines,
)
from ._registry import EXIT_YES, Outcome, command
from ._render import Stream, StreamedData, facet_rows, implied_lines
from ._routes import _default_family, _max_family, _max_family_option, _relax_method, _relaxation_route

T = TypeVar("T")


def _analyze_args(p: argparse.ArgumentParser) -> None:
    _definition_arg(p)
    p.add_argument(
        "--family",
        default=None,
        help="relaxation family (default: the definition's own neighbour graph, e.g. replace-one for "
        "dp:graph=replace-one,… and path for geometric; else hamming on bit strings, else all-pairs)",
    )
    _method_option(p)
    _max_family_option(p)
    _out_option(p)


def _closure_examples(definition: Any) -> list[tuple[str, Any]]:
    """Closure facts worth showing: for randomized response, a weaker RR is inside, a stronger one outside."""
    from ..definitions import RandomizedResponse
    from ..mechanisms._factories import randomized_response

    out: list[tuple[str, Any]] = []
    if isinstance(definition, RandomizedResponse) and definition.k <= 6:
        p = definition.p
        weaker = (p + Fraction(1, 2)) / 2 if isinstance(p, Fraction) else (p + 0.5) / 2
        out.append(
            (f"RR(k={definition.k}, p={weaker})", definition.contains(randomized_response(definition.k, weaker)))
        )
        if p < 1:
            stronger = (p + 1) / 2
            out.append(
                (
                    f"RR(k={definition.k}, p={stronger})",
                    definition.contains(randomized_response(definition.k, stronger)),
                )
            )
    return out


def _run_part(name: str, refused: dict[str, str], work: Callable[[], T]) -> T | None:
    """Run one part of ``analyze``; a refusal (size limit, or a part that does not apply) is recorded, not raised."""
    try:
        return work()
    except PrivgeomError as err:
        refused[name] = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        return None


def _datasets_line(labels: Any) -> str:
    n = len(labels)
    shown = ", ".join(labels[:MAX_LISTED]) + (f", … ({n} in all)" if n > MAX_LISTED else "")
    return f"{n} datasets: {shown}"


def _relaxation_head(r: Any) -> dict[str, Any]:
    """The relaxation without its big parts (the relaxed cone's facets and the lost guarantees are streamed)."""
    level = r.level
    return {
        "recognised": r.recognised,
        "exp_eps": to_jsonable(None if level is None else level.exp_eps),
        "epsilon": to_jsonable(None if level is None else level.eps),
        "method": r.method,
        "kept": r.kept,
        "n_lost": len(r.lost),
        "n_subsets": len(r.subsets),
        "pair_bounds": to_jsonable(r.pair_bounds) if len(r.pair_bounds) <= 10_000 else "(omitted: too many)",
        "cone": {"n_facets": r.cone.n_facets, "dim": r.cone.dim},
        "text": r.text,
    }


@command(
    "analyze",
    "full report: closure facts, row cone, semantics, relaxation (default rr:k=2,p=3/4)",
    outputs={"out": "file"},
)(_analyze_args)
def _analyze(args: argparse.Namespace) -> Outcome:
    d = parse_definition(args.definition)
    spec = d.spec()
    labels = tuple(d.inputs)
    limit = _max_family(args)
    own = own_family(d) if args.family is None else None  # the definition's own graph first (all-pairs is a choice)
    datasets = relaxation_domain(d, labels)
    family = own[1] if own is not None else _default_family(labels, args.family, datasets)
    if args.family is not None:  # a requested family that cannot be expanded is a user error, not a refused part
        _relaxation_route(d, labels, family, args.method, limit, datasets)
    refused: dict[str, str] = {}
    with Progress(4, "analyze") as bar:
        facts = _run_part("closure", refused, lambda: _closure_examples(d)) or []
        bar.update()
        cone = _run_part("row cone", refused, d.row_cone)
        summary = (
            _run_part("row cone", refused, lambda: describe_row_cone(d, definition=spec)) if cone is not None else None
        )
        bar.update()
        bar.update()
        relaxation = (
            _run_part(
                "relaxation",
                refused,
                lambda: (
                    _relaxation_route(d, labels, family, args.method, limit, datasets, requested=False)
                    or relax(d, family, method=_relax_method(cone.ambient_dim, args.method))
                ),
            )
            if cone is not None
            else None
        )
        lost = (
            _run_part("relaxation", refused, lambda: _lost_lines(d, relaxation, family, indent="   "))
            if relaxation
            else None
        )
        bar.update()
    lines = [f"privacy definition {spec} ({d.name}) on {_datasets_line(labels)}", "", "1. consistent closure"]
    lines.append(
        f"   the row cone {'decides' if d.row_cone_decides_closure else 'does NOT decide'} closure membership"
        f" for this definition"
    )
    for name, m in facts:
        lines.append(f"   {name}: {'in' if m.member else 'NOT in'} the closure  [{m.method}] {m.detail}")
    if "closure" in refused:
        lines.append(f"   refused: {refused['closure']}")
    elif not facts:
        lines.append("   (closure examples are shown for randomized response up to k = 6)")
    lines.append("")
    if summary is not None:
        lines.append("2. " + "\n".join(summary.lines(max_orbits=MAX_ORBITS_SHOWN, indent="   ")))
    else:
        lines.append(f"2. row cone: refused: {refused.get('row cone', '')}")
    note = getattr(d, "semantics_note", "")
    lines += ["", "3. semantics (one Bayesian guarantee per facet; one sentence per orbit)"]
    if note:
        lines.append(f"   note: {note}")
    if summary is not None:
        lines += _semantics_lines(summary, indent="   ")
    else:
        lines.append("   not available: the row cone was refused")
    lines.append("")
    if relaxation is not None:
        how = {
            "fourier_motzkin": "Fourier–Motzkin",
            "block": "block elimination (Fourier–Motzkin on a block)",
            "difference": "difference constraints (pair bounds, shortest paths, one LP per orbit)",
            "generators": "projected generators",
            "own-graph": "its own edges (each projection is the edge's bound: nothing to search)",
        }.get(relaxation.method, relaxation.method)
        onto = (
            f"{own[0]} (the default; --family all-pairs relaxes onto every pair)"
            if own is not None
            else f"the family {family!r}"
        )
        lines += [f"4. relaxation by {how} onto {onto}", "   " + relaxation.text]
        if relaxation.recognised == "dp" and relaxation.level is not None:
            lines.append(
                f"   => ε-differential privacy with ε = {relaxation.level.eps} ≈ {float(relaxation.level):.6f}"
            )
        lines += implied_lines(getattr(relaxation, "implied", None), indent="   ", more="(relax --all lists every one)")
        lines += lost or []
    else:
        onto = own[0] if own is not None else f"the family {family!r}"
        lines.append(f"4. relaxation onto {onto}: refused: {refused.get('relaxation', 'the row cone was refused')}")
    if refused:
        lines += [
            "",
            "parts refused (the others are reported above): " + "; ".join(f"{k}: {v}" for k, v in refused.items()),
        ]
    data_parts: list[tuple[str, Any]] = [
        ("definition", spec),
        ("datasets", list(labels)),
        (
            "closure",
            {
                "row_cone_decides": d.row_cone_decides_closure,
                "examples": [{"mechanism": n, "membership": m} for n, m in facts],
            },
        ),
        ("row_cone", summary),
    ]
    if cone is not None and summary is not None:
        try:
            rows, count = facet_rows(cone)
            data_parts.append(("facets", Stream(rows, count)))
        except SizeLimitError as err:  # the report needs no facet matrix: --out/--json say why the facets are missing
            refused["facets"] = f"SizeLimitError: {str(err).splitlines()[0]}"
        if "facets" in refused and cone.structure is not None and cone.structure.kind == "kronecker":
            refused["semantics"] = refused["relaxation_lost"] = "as many coefficients as the facets (dense guarantees)"
        else:
            data_parts.append(("semantics", Stream(lambda: (_fresh(g).to_dict(labels=False) for g in semantics(d)))))
    data_parts.append(("semantics_note", note))
    if relaxation is not None:
        data_parts.append(("relaxation", _relaxation_head(relaxation)))
        if "relaxation_lost" not in refused:
            data_parts.append(
                ("relaxation_lost", Stream(lambda: (_fresh(g).to_dict(labels=False) for g in relaxation.lost)))
            )
    data_parts.append(("refused", refused))
    data = StreamedData(
        data_parts,
        {
            "row_cone": cone,
            "guarantees": _Deferred(lambda: semantics(d)) if summary is not None else None,
            "relaxation": relaxation,
            "summary": summary,
        },
    )
    return Outcome(_finish("\n".join(lines), data, args.out), data, EXIT_YES)


class _Deferred(Sequence[Any]):
    """A sequence computed on first use (``analyze``'s guarantees: every facet canonical, never needed for the text)."""

    def __init__(self, make: Callable[[], Sequence[Any]]) -> None:
        self._make: Callable[[], Sequence[Any]] = make
        self._seq: Sequence[Any] | None = None

    def _get(self) -> Sequence[Any]:
        if self._seq is None:
            self._seq = self._make()
        return self._seq

    def __len__(self) -> int:
        return len(self._get())

    def __getitem__(self, i: Any) -> Any:
        return self._get()[i]

    def __iter__(self) -> Any:
        return iter(self._get())
