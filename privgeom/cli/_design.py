"""``privgeom design BASE``: build a new privacy definition from BASE and report what it is and what it buys.

Operations, applied in this order (each optional; with none the new definition is BASE's row cone as a cone
definition): ``--drop I`` / ``--drop-orbit J`` (facets of BASE's row cone, 0-based in the order of
``row_cone().facets`` — as ``rowcone --all`` and ``semantics`` number them — or whole symmetry orbits as ``rowcone``
numbers them), ``--only EXPR`` (keep the guarantees EXPR accepts),
``--guarantee FILE`` (add guarantees: a JSON list of coefficient vectors or attacker statements
``{"prior": {D: w}, "s_plus": [...], "s_minus": [...]}``), ``--intersect SPEC`` and ``--hull SPEC``.

The report is a list of sections (:data:`SECTIONS`), each a function of the :class:`DesignContext` returning text
lines and JSON data; a new section (e.g. the information cost of a design) is one more entry.

The ``--only`` language (no ``eval``): comparisons ``FIELD OP VALUE`` joined by ``and``, ``or``, ``not`` and
parentheses. Fields: ``n_plus``, ``n_minus`` (integers), ``s_plus``, ``s_minus`` (sets of datasets), ``structure``,
``text`` (strings). Operators: ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=`` (integers), ``contains`` (a dataset in a
set, or a substring of a string), ``==`` / ``!=`` also compare strings. Values: integers, bare words or quoted
strings. Example: ``--only "n_minus <= 1 and not s_minus contains 00"``.

With ``--at-least U`` (which needs ``--utility`` and ``--prior`` stated, since ``U`` is an expected utility under
them; refused otherwise) the report adds the information cost of BASE and of the new definition:
:func:`~privgeom.analyses.least_informative`, the least mutual information ``I(D; ω)`` in nats of a member reaching
expected utility ``U``, with the solver's duality gap, the solver-independent lower bound and the solver status. A
``U`` above one definition's best expected utility is reported for that definition (JSON ``"feasible": false``,
``"status": "above_best"``), not refused, and does not change the exit code: dropping guarantees can make a floor
reachable that BASE cannot reach.

Every argument is read and checked before any work: ``--drop``/``--drop-orbit`` (non-negative integers),
``--only`` (an expression; an empty one is refused), ``--guarantee`` (read by ``from_guarantees``: a zero vector, or
guarantees all implied by ``x ≥ 0``, are refused), ``--intersect``/``--hull`` (specs on BASE's datasets), ``--graph``
(a connected relation on BASE's datasets whose ε-DP cone has few enough extreme rays for the DP sandwich:
:func:`~privgeom.analyses.design._dp_bounds.dp_bounds_graph`), ``--utility`` and ``--prior``. A bad one exits 2 with
one line naming it, before any work: bad input never reaches the report. A part of the report that a size limit stops
(an LP, the DP rays past their proven lower bound) says "not computed (over a size limit)" with the limit to raise.

Definitions that their row cone does not decide ((ε, δ)-DP with ``δ > 0``, finite definitions of several
mechanisms, the local protocols): ``--drop``, ``--drop-orbit`` and ``--only`` act on the facets of BASE's row cone
and are refused for such a BASE (its guarantees are not those facets); ``--intersect`` and ``--guarantee`` give an
intersection whose membership asks every member (:func:`~privgeom.intersection`), which the report says, whose
optimal utility is not computed and which ``--out`` refuses (it has no ``cone:file=`` form); ``--hull`` is always a
cone definition; with no operation the new definition is the cone definition of BASE's row cone, and the operations
line says so.

Exit codes: 0 when the new definition makes every member ε-DP over the graph for some finite ε, 1 when no ε does
(``dp_bounds`` outer is infinite), 2 on an error.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from .._core.domain import Domain
from .._core.errors import (
    DomainMismatchError,
    FormatError,
    InvalidInputError,
    InvalidParameterError,
    PrivgeomError,
    SizeLimitError,
)
from .._core.io import check_output_path, load_json
from .._core.arrays import ATOL
from .._core.numbers import fraction_str, parse_scalar
from .._core.arrays import parse_int
from ..analyses import compare, describe_row_cone, dp_bounds, least_informative, optimal_mechanism
from ..analyses.design._design import from_guarantees, hull, intersection, only, without
from ..analyses.design._dp_bounds import dp_bounds_graph
from ..analyses.design._intersection import IntersectionDefinition
from ..analyses.guarantees._semantics import guarantee_from_normal
from ..analyses.optimal._optimal_lp import prior_vector, utility_matrix
from ..definitions import ConeDefinition, PrivacyDefinition, parse_definition
from ._closures import _prior_option, _utility_option
from ._core import MAX_ORBITS_SHOWN, _semantics_lines
from ._registry import EXIT_NO, EXIT_YES, Outcome, command
from .._core.numbers import number_text

__all__ = ["DesignContext", "SECTIONS", "parse_predicate"]


# ---------------------------------------------------------------------------------------------------- --only language
_TOKEN = re.compile(r"\s*(?:(\()|(\))|(==|!=|<=|>=|<|>)|'([^']*)'|\"([^\"]*)\"|([^\s()<>=!'\"]+))")
_INT_FIELDS = ("n_plus", "n_minus")
_SET_FIELDS = ("s_plus", "s_minus")
_STR_FIELDS = ("structure", "text")


def _tokens(expr: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    expr = expr.rstrip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            raise FormatError(f"--only {expr!r}: cannot read {expr[pos : pos + 20]!r}")
        lp, rp, op, q1, q2, word = m.groups()
        if lp:
            out.append(("(", "("))
        elif rp:
            out.append((")", ")"))
        elif op:
            out.append(("op", op))
        elif q1 is not None or q2 is not None:
            out.append(("str", q1 if q1 is not None else q2))
        else:
            low = word.lower()
            out.append((low, low) if low in ("and", "or", "not", "contains") else ("word", word))
        pos = m.end()
    return out


def parse_predicate(expr: str) -> Callable[[Any], bool]:
    """A predicate on :class:`~privgeom.Guarantee` from the ``--only`` language (module docstring), parsed without eval.

    Examples
    --------
    >>> from privgeom.analyses.guarantees._semantics import guarantee_from_normal
    >>> g = guarantee_from_normal([3, -1, 0], ["a", "b", "c"])
    >>> parse_predicate("n_minus <= 1 and s_minus contains b")(g), parse_predicate("not s_plus contains a")(g)
    (True, False)
    >>> parse_predicate("n_plus >")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.FormatError: --only 'n_plus >': expected a value after '>'
    """
    if not isinstance(expr, str) or not expr.strip():
        raise FormatError("--only needs an expression such as 'n_minus <= 1'")
    toks = _tokens(expr)
    pos = 0

    def peek() -> str | None:
        return toks[pos][0] if pos < len(toks) else None

    def take() -> tuple[str, str]:
        nonlocal pos
        if pos >= len(toks):
            raise FormatError(f"--only {expr!r}: unexpected end")
        pos += 1
        return toks[pos - 1]

    def disj() -> Callable[[Any], bool]:
        parts = [conj()]
        while peek() == "or":
            take()
            parts.append(conj())
        return parts[0] if len(parts) == 1 else (lambda g: any(p(g) for p in parts))

    def conj() -> Callable[[Any], bool]:
        parts = [neg()]
        while peek() == "and":
            take()
            parts.append(neg())
        return parts[0] if len(parts) == 1 else (lambda g: all(p(g) for p in parts))

    def neg() -> Callable[[Any], bool]:
        if peek() == "not":
            take()
            inner = neg()
            return lambda g: not inner(g)
        if peek() == "(":
            take()
            inner = disj()
            if take()[0] != ")":
                raise FormatError(f"--only {expr!r}: missing ')'")
            return inner
        return comparison()

    def comparison() -> Callable[[Any], bool]:
        kind, name = take()
        if kind != "word" or name not in _INT_FIELDS + _SET_FIELDS + _STR_FIELDS:
            raise FormatError(
                f"--only {expr!r}: {name!r} is not a field; use one of "
                f"{', '.join(_INT_FIELDS + _SET_FIELDS + _STR_FIELDS)}"
            )
        okind, op = take()
        if okind not in ("op", "contains"):
            raise FormatError(f"--only {expr!r}: expected an operator after {name!r}, got {op!r}")
        if pos >= len(toks) or toks[pos][0] not in ("word", "str"):
            raise FormatError(f"--only {expr!r}: expected a value after {op!r}")
        value = take()[1]
        if name in _INT_FIELDS:
            if op == "contains" or not re.fullmatch(r"-?\d+", value):
                raise FormatError(f"--only {expr!r}: {name} compares with an integer ({op} {value!r} given)")
            v = int(value)
            ops: dict[str, Callable[[int, int], bool]] = {
                "==": lambda a, b: a == b,
                "!=": lambda a, b: a != b,
                "<": lambda a, b: a < b,
                "<=": lambda a, b: a <= b,
                ">": lambda a, b: a > b,
                ">=": lambda a, b: a >= b,
            }
            f = ops[op]
            return lambda g: f(int(getattr(g, name)), v)
        if op == "contains":
            return lambda g: value in getattr(g, name)
        if op in ("==", "!="):
            want = op == "=="
            if name in _SET_FIELDS:
                target = set(value.split(";")) if value else set()
                return lambda g: (set(getattr(g, name)) == target) == want
            return lambda g: (getattr(g, name) == value) == want
        raise FormatError(f"--only {expr!r}: {name} takes contains, == or !=, not {op!r}")

    pred = disj()
    if pos != len(toks):
        raise FormatError(f"--only {expr!r}: unexpected {toks[pos][1]!r}")
    return pred


# ---------------------------------------------------------------------------------------------------- the design
@dataclass
class DesignContext:
    """What the report sections read: the base and new definitions, the graph, the utility and prior, the log of
    operations; ``cache`` holds results that several sections share."""

    base: PrivacyDefinition
    new: PrivacyDefinition
    graph: Any
    utility: Any
    prior: Any
    operations: list[str]
    redundant: tuple[Any, ...] = ()
    at_least: Any = None
    cache: dict[str, Any] = field(default_factory=dict)


class _Built(NamedTuple):
    """The designed definition, the operations applied (in words) and the redundant guarantees found on the way."""

    definition: PrivacyDefinition
    operations: list[str]
    redundant: tuple[Any, ...]


class _Request(NamedTuple):
    """The operations of one ``design`` call, every argument read and checked before any work."""

    drops: list[int]
    orbits: list[int]
    only: Callable[[Any], bool] | None
    guarantees: ConeDefinition | None
    n_added: int
    intersect: PrivacyDefinition | None
    hull: PrivacyDefinition | None


def _retyped(err: PrivgeomError, prefix: str) -> PrivgeomError:
    """The same error type with ``prefix`` naming the argument (unless the message already starts with its option)."""
    if str(err).startswith(prefix.split()[0]):
        return err
    return type(err)(f"{prefix}: {err}")


def _request(args: argparse.Namespace, base: PrivacyDefinition) -> _Request:
    """Read every operation argument (module docstring) before any work; a bad one is an error naming it."""
    drops = [parse_int(v, name="--drop", min=0, allow_str=True) for v in args.drop or []]
    orbits = [parse_int(v, name="--drop-orbit", min=0, allow_str=True) for v in args.drop_orbit or []]
    only_pred = parse_predicate(args.only) if args.only is not None else None
    if (drops or orbits or only_pred is not None) and not base.row_cone_decides_closure:
        used = "/".join(
            opt for opt, on in (("--drop", drops), ("--drop-orbit", orbits), ("--only", only_pred is not None)) if on
        )
        raise InvalidParameterError(
            f"{used} act{'s' if '/' not in used else ''} on the facets of BASE's row cone, and {base.spec()} is not "
            f"decided by its row cone (a mechanism with every row in it can be outside {base.name}): dropping or "
            f"keeping facets would not give a weaker form of BASE. Use --intersect, --guarantee or --hull, or design "
            f"from the cone definition of its row cone (rowcone {base.spec()} --all, saved as cone:file=…)"
        )
    added, n_added = None, 0
    if args.guarantee:
        data = load_json(args.guarantee, what="guarantee")
        items = data.get("guarantees") if isinstance(data, dict) and "guarantees" in data else data
        if not isinstance(items, list) or not items:
            raise FormatError(f"--guarantee {args.guarantee!r}: expected a non-empty JSON list of guarantees")
        n_added = len(items)
        try:
            added = from_guarantees(items, base.inputs)
        except PrivgeomError as err:
            raise _retyped(err, f"--guarantee {args.guarantee!r}") from None
    specs = {}
    for opt, spec in (("--intersect", args.intersect), ("--hull", args.hull)):
        if spec is None:
            continue
        try:
            specs[opt] = parse_definition(spec)
        except PrivgeomError as err:
            raise _retyped(err, f"{opt} {spec!r}") from None
        if tuple(specs[opt].inputs) != tuple(base.inputs):
            raise DomainMismatchError(
                f"{opt} {spec!r}: the definitions have different datasets: "
                f"{list(base.inputs)[:6]} and {list(specs[opt].inputs)[:6]}"
            )
    return _Request(drops, orbits, only_pred, added, n_added, specs.get("--intersect"), specs.get("--hull"))


def _build(args: argparse.Namespace, base: PrivacyDefinition, req: _Request) -> _Built:
    ops: list[str] = []
    redundant: tuple[Any, ...] = ()
    current: PrivacyDefinition = base
    if req.drops or req.orbits:
        current = without(base, req.drops, orbits=req.orbits)
        ops.append("dropped " + ", ".join([f"facet {i}" for i in req.drops] + [f"orbit {j}" for j in req.orbits]))
    if req.only is not None:
        current = only(current, req.only)
        ops.append(f"kept the guarantees with {args.only}")
    if req.guarantees is not None:
        redundant = req.guarantees.redundant
        current = intersection(current, req.guarantees)
        ops.append(f"added {req.n_added} guarantee{'s' if req.n_added != 1 else ''} from {args.guarantee}")
    if req.intersect is not None:
        current = intersection(current, req.intersect)
        ops.append(f"intersected with {args.intersect}")
    if req.hull is not None:
        current = hull(current, req.hull)
        ops.append(f"took the hull with {args.hull}")
    if current is base:
        current = ConeDefinition(base.row_cone(), name=f"row cone of {base.spec()}")
        if base.row_cone_decides_closure:
            ops.append("no operation: the row cone of BASE as a cone definition")
        else:
            ops.append(
                "no operation: BASE is not decided by its row cone, so the new definition is the cone "
                "definition of BASE's row cone (every mechanism whose rows lie in it), which holds every member "
                "of BASE (the comparison below says whether it holds more)"
            )
    return _Built(definition=current, operations=ops, redundant=redundant)


def _implied(normal: np.ndarray, cone: Any) -> bool:
    """``normal · x ≥ 0`` on the whole cone (every extreme ray; the row cones here are pointed)."""
    vals = [sum(a * r for a, r in zip(normal, ray)) for ray in cone.rays]
    exact = cone.exact and all(not isinstance(a, float) for a in normal)
    return all(v >= 0 for v in vals) if exact else all(float(v) >= -ATOL for v in vals)


# ---------------------------------------------------------------------------------------------------- sections
def _section_definition(ctx: DesignContext) -> tuple[list[str], dict[str, Any]]:
    summary = describe_row_cone(ctx.new)
    lines = ["new definition: " + ctx.new.name, "  " + "; ".join(ctx.operations)]
    if not ctx.new.row_cone_decides_closure:
        lines.append(
            "  a mechanism is a member when it is in every one of the intersected definitions (each asked "
            "directly); the row cone below holds every member's rows but does not decide membership"
        )
    lines += ["  " + line for line in summary.lines(max_orbits=MAX_ORBITS_SHOWN, indent="  ")]
    lines += _semantics_lines(summary, indent="  ")
    return lines, {
        "operations": ctx.operations,
        "definition": ctx.new.to_dict(),  # type: ignore[attr-defined]
        "row_cone_decides_closure": ctx.new.row_cone_decides_closure,
        "row_cone": summary,
    }


def _section_what(ctx: DesignContext) -> tuple[list[str], dict[str, Any]]:
    rel = compare(ctx.base, ctx.new)
    word = {
        "equal": "the same definition as BASE",
        "subset": "weaker than BASE (allows more mechanisms)",
        "superset": "stronger than BASE (allows fewer mechanisms)",
        "incomparable": "incomparable with BASE",
    }.get(rel.relation, "undecided against BASE")
    lines = [f"what it is: {word}"]
    data: dict[str, Any] = {"relation_to_base": rel.relation}
    try:
        b = dp_bounds(ctx.new, ctx.graph)
    except SizeLimitError as err:
        lines.append(f"  DP sandwich over {ctx.graph}: not computed (over a size limit): {err}")
        data["dp_bounds"] = None
        return lines, data
    ctx.cache["dp_bounds"] = b
    if b.decides and b.inner_kind == "exact" and not b.outer.infinite and b.inner.exp_eps == b.outer.exp_eps:
        lines.append(f"  it is ε-differential privacy over {ctx.graph} with e^ε = {fraction_str(b.inner.exp_eps)}")
    lines += ["  " + line for line in b.text.splitlines()]
    data["dp_bounds"] = b
    return lines, data


def _section_changes(ctx: DesignContext) -> tuple[list[str], dict[str, Any]]:
    cb, cn = ctx.base.row_cone(), ctx.new.row_cone()
    labels = tuple(ctx.base.inputs)
    dropped = [a for a in cb.facets if not _implied(a, cn)]
    added = [a for a in cn.facets if not _implied(a, cb)]
    lines = [
        f"relative to BASE: {len(dropped)} guarantee{'s' if len(dropped) != 1 else ''} no longer given, "
        f"{len(added)} new"
    ]
    for what, rows in (("dropped", dropped), ("added", added)):
        for a in rows[:MAX_ORBITS_SHOWN]:
            lines.append(f"  - {what}: {guarantee_from_normal(list(a), labels, exact=cb.exact).text}")
        if len(rows) > MAX_ORBITS_SHOWN:
            lines.append(f"  … {len(rows) - MAX_ORBITS_SHOWN} more {what} (--json lists them all)")
    beyond = [m.spec() for m in getattr(ctx.new, "members", ()) if not m.row_cone_decides_closure]
    for spec in beyond:
        lines.append(
            f"  + beyond the row cone: every member must also be in {spec}, which its row cone does not decide"
        )
    for r in ctx.redundant:
        lines.append(f"  redundant in --guarantee: {r.text}")
    return lines, {
        "dropped": [list(a) for a in dropped],
        "added": [list(a) for a in added],
        "beyond_row_cone": beyond,
        "redundant": list(ctx.redundant),
    }


def _section_utility(ctx: DesignContext) -> tuple[list[str], dict[str, Any]]:
    lines = [
        f"optimal expected utility ({ctx.utility if isinstance(ctx.utility, str) else 'utility file'}, "
        f"{'uniform prior' if ctx.prior is None else 'given prior'}):"
    ]
    data: dict[str, Any] = {}
    for key, d in (("base", ctx.base), ("new", ctx.new)):
        if not _has_linear_closure(d):
            lines.append(
                f"  {key:4}: not computed: privgeom has no linear description of the closure of {d.name} "
                f"(an intersection with a definition not decided by its row cone)"
            )
            data[key] = None
            continue
        try:
            opt = optimal_mechanism(d, ctx.utility, ctx.prior)
        except SizeLimitError as err:
            lines.append(f"  {key:4}: not computed (over a size limit): {err}")
            data[key] = None
            continue
        ctx.cache[f"optimal_{key}"] = opt
        v = opt.value
        lines.append(
            f"  {key:4}: {fraction_str(v)}"
            + (f" ≈ {number_text(float(v))}" if opt.exact else "")
            + f"  — {opt.certificate.summary()}"
        )
        data[key] = opt
    return lines, data


def _section_information(ctx: DesignContext) -> tuple[list[str], dict[str, Any]]:
    """The information cost (:func:`~privgeom.analyses.least_informative`) of BASE and of the new definition at the
    utility floor ``--at-least``; empty without it. A floor above one definition's best expected utility is reported
    for that definition (status ``above_best``), not refused: dropping guarantees can make a floor reachable."""
    if ctx.at_least is None:
        return [], {}
    target = ctx.at_least
    lines = [f"information cost: least mutual information I(D; ω) at expected utility ≥ {fraction_str(target)}:"]
    data: dict[str, Any] = {"at_least": target}
    for key, d in (("base", ctx.base), ("new", ctx.new)):
        entry: dict[str, Any] = {
            "feasible": False,
            "at_least": target,
            "best": None,
            "value": None,
            "gap": None,
            "lower_bound": None,
            "solver": None,
            "status": None,
            "utility": None,
            "mechanism": None,
        }
        opt = ctx.cache.get(f"optimal_{key}")
        if opt is not None and target > opt.value:
            entry.update(best=opt.value, status="above_best")
            lines.append(
                f"  {key:4}: none: {fraction_str(target)} is above its best expected utility {fraction_str(opt.value)}"
            )
            data[key] = entry
            continue
        if not _has_linear_closure(d):
            lines.append(f"  {key:4}: not computed: privgeom has no linear description of the closure of {d.name}")
            entry["status"] = "not_computed"
            data[key] = entry
            continue
        try:
            res = least_informative(d, ctx.utility, target, ctx.prior)
        except SizeLimitError as err:
            lines.append(f"  {key:4}: not computed (over a size limit): {err}")
            entry["status"] = "over_limit"
            data[key] = entry
            continue
        ctx.cache[f"information_{key}"] = res
        entry.update(
            feasible=True,
            best=res.best,
            value=float(res.value),
            gap=res.gap,
            lower_bound=res.lower_bound,
            solver=res.solver,
            status=res.status,
            utility=res.utility,
            mechanism=res.mechanism,
        )
        lines.append(
            f"  {key:4}: {number_text(float(res.value), digits=10)} nats (lower bound {number_text(res.lower_bound, digits=10)}, duality gap "
            f"{number_text(res.gap, digits=3)}, {res.solver} {res.status}; utility {number_text(res.utility, digits=10)})"
        )
        data[key] = entry
    return lines, data


def _has_linear_closure(d: PrivacyDefinition) -> bool:
    """Whether :func:`~privgeom.optimal_mechanism` has a linear description of ``d``'s closure: every catalogue
    definition and cone definition has one; an intersection with a definition not decided by its row cone has not."""
    return not isinstance(d, IntersectionDefinition)


#: The report, in order: ``(name, section)``. A section returns its text lines and its JSON data.
SECTIONS: list[tuple[str, Callable[[DesignContext], tuple[list[str], dict[str, Any]]]]] = [
    ("definition", _section_definition),
    ("what", _section_what),
    ("changes", _section_changes),
    ("utility", _section_utility),
    ("information", _section_information),
]


# ---------------------------------------------------------------------------------------------------- command
def _design_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("definition", help="BASE definition spec, e.g. rr:k=2,p=3/4")
    p.add_argument(
        "--drop",
        action="append",
        metavar="I",
        help="drop facet I of BASE's row cone (0-based, in the order of rowcone --all); repeatable",
    )
    p.add_argument(
        "--drop-orbit",
        dest="drop_orbit",
        action="append",
        metavar="J",
        help="drop every facet of symmetry orbit J (as rowcone lists the orbits, 0-based); repeatable",
    )
    p.add_argument(
        "--only",
        metavar="EXPR",
        help="keep only the guarantees EXPR accepts, e.g. 'n_minus <= 1' "
        "(fields n_plus n_minus s_plus s_minus structure text; and/or/not; see the docs)",
    )
    p.add_argument(
        "--guarantee",
        metavar="FILE",
        help="add the guarantees of a JSON list (coefficient vectors or "
        '{"prior": {...}, "s_plus": [...], "s_minus": [...]})',
    )
    p.add_argument("--intersect", metavar="SPEC", help="also give every guarantee of this definition")
    p.add_argument("--hull", metavar="SPEC", help="the smallest cone definition containing this one too")
    p.add_argument(
        "--graph",
        default=None,
        help="neighbour relation of the DP sandwich (default: hamming on bit strings, else path)",
    )
    p.add_argument("--utility", "-u", default=None, help="'accuracy' (default) or a JSON utility file")
    p.add_argument("--prior", default=None, help="'uniform' (default), probabilities 1/2,1/4,1/4 or a JSON file")
    p.add_argument(
        "--at-least",
        dest="at_least",
        metavar="U",
        default=None,
        help="also report the information cost of BASE and of the new definition: the least mutual "
        "information I(D; ω) in nats at expected utility >= U (needs --utility and --prior)",
    )
    p.add_argument("--out", metavar="FILE", help="write the new definition (read back by cone:file=FILE)")


@command(
    "design",
    "build a new definition from BASE (drop, keep, add guarantees; intersect, hull): what it is, "
    "its DP sandwich and the utility it buys; exit 1 when no ε-DP level bounds it",
    outputs={"out": "file"},
)(_design_args)
def _design(args: argparse.Namespace) -> Outcome:
    if args.out:
        check_output_path(args.out, what="--out")
    at_least = None
    if args.at_least is not None:
        missing = [opt for opt, v in (("--utility", args.utility), ("--prior", args.prior)) if v is None]
        if missing:
            raise InvalidParameterError(
                f"--at-least {args.at_least} needs {' and '.join(missing)} stated (the floor "
                f"is an expected utility under them), e.g. --utility accuracy --prior uniform"
            )
        at_least = parse_scalar(args.at_least, name="--at-least")
    base = parse_definition(args.definition)
    req = _request(args, base)
    graph, utility, prior = _report_options(args, base)
    if at_least is not None:
        _check_floor(args.at_least, at_least, utility, prior, base.inputs)
    new, ops, redundant = _build(args, base, req)
    if args.out and not isinstance(new, ConeDefinition):
        raise InvalidParameterError(
            f"--out {args.out}: the new definition ({new.name}) is not a cone definition "
            f"(it is not decided by its row cone), so it has no cone:file= form"
        )
    ctx = DesignContext(base, new, graph, utility, prior, ops, redundant, at_least=at_least)
    lines = [f"design from {base.spec()} on {len(base.inputs)} datasets"]
    data: dict[str, Any] = {"base": base.spec()}
    for name, section in SECTIONS:
        text, part = section(ctx)
        if text:
            lines += [""] + text
        data[name] = part
    if args.out:
        new.save(args.out)  # type: ignore[attr-defined]
        lines += ["", f"new definition written to {args.out} (use it as cone:file={args.out})"]
    b = ctx.cache.get("dp_bounds")
    code = EXIT_NO if b is not None and b.outer.infinite else EXIT_YES
    return Outcome("\n".join(lines), data, code)


def _check_floor(raw: str, floor: Any, utility: Any, prior: Any, inputs: Sequence[str]) -> None:
    """Refuse a ``--at-least`` floor that no mechanism reaches: a mechanism's expected utility
    ``Σ_D π_D Σ_ω M[ω, D] U[D, ω]`` is at most ``Σ_D π_D max_ω U[D, ω]``, as every column ``M[·, D]`` is a
    probability vector; above that ceiling the floor is bad input (before any work), not a report of two "none"."""
    U, _ = utility_matrix(utility, inputs)
    pi = prior_vector(prior, inputs)
    ceiling = sum(p * max(row) for p, row in zip(pi, U.tolist()))
    if floor > ceiling:
        raise InvalidParameterError(
            f"--at-least {raw}: no mechanism reaches it; the expected utility of any mechanism "
            f"is at most Σ_D prior(D) max_ω u(D, ω) = {number_text(ceiling)} under this "
            f"utility and prior"
        )


def _report_options(args: argparse.Namespace, base: PrivacyDefinition) -> tuple[str, Any, Any]:
    """``--graph``, ``--utility`` and ``--prior``, read and checked on BASE's datasets before any work (the DP
    sandwich's size too: :func:`~privgeom.analyses.design._dp_bounds.dp_bounds_graph`); a bad one is an error naming
    it. Returns the graph's name as given (or the default), the utility and the prior."""
    graph = args.graph or ("hamming" if Domain.from_labels(base.inputs).is_bits else "path")
    try:
        dp_bounds_graph(graph, tuple(base.inputs))
    except InvalidInputError as err:
        raise _retyped(err, f"--graph {graph}") from None
    except SizeLimitError as err:
        raise _retyped(err, f"the report's DP sandwich over {graph}") from None
    u_opt = args.utility or "accuracy"
    try:
        utility: Any = _utility_option(u_opt)
        utility_matrix(utility, base.inputs)
    except InvalidInputError as err:
        raise _retyped(err, f"--utility {u_opt}") from None
    try:
        prior = _prior_option(args.prior or "uniform")
        prior_vector(prior, base.inputs)
    except InvalidInputError as err:
        raise _retyped(err, f"--prior {args.prior}") from None
    return graph, utility, prior
