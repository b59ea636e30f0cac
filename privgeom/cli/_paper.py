"""Paper-ready options of existing commands: ``--latex``, ``rowcone --symbolic`` and ``rowcone --plot``.

This module extends commands that other modules registered (it is listed last in
:data:`privgeom.cli._main.COMMAND_MODULES`): :func:`extend` wraps a command's ``add_arguments`` and ``run`` so that
the extra options are parsed and handled here, without touching the command's own module.

- ``--latex`` on ``rowcone``, ``semantics``, ``analyze``, ``compare`` and ``relax`` prints LaTeX instead of text
  (:func:`privgeom.to_latex`; the facets as an ``align`` environment like Lin & Kifer's Example 4.4,
  docs/theory.md §5). With ``--json`` the LaTeX is added to the JSON as ``"latex"``.
- ``rowcone SPEC --symbolic`` takes a spec whose parameter is a name (``rr:k=2,p=p``,
  ``dp:graph=hamming,k=2,exp_eps=t``, ``geometric:n=3,alpha=a``) and prints the facets as polynomials in it with
  the interval where the combinatorial type is constant and its breakpoints, verified at fresh rational points
  (:func:`privgeom.symbolic_row_cone`, docs/theory.md §11).
- ``rowcone SPEC --plot FILE.png`` draws the slice of the row cone by the simplex of three datasets (up to four
  triples in one figure), facets labelled by ``S+``/``S−``, with the rows of the definition's mechanism or of
  ``--rows FILE.json`` (:func:`privgeom.plots._cone.cone_slice`).

Examples
--------
>>> from privgeom.cli import main
>>> main(["semantics", "rr:k=1,p=3/4", "--latex"])
\\begin{align}
  3 x_{1} &\\geq x_{0} \\\\
  3 x_{0} &\\geq x_{1}
\\end{align}
0
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, Callable

from .._core.errors import FormatError, InvalidParameterError
from ._registry import COMMANDS, EXIT_YES, Outcome, declare_outputs

__all__ = ["extend", "LATEX_COMMANDS"]

#: Commands that accept ``--latex``.
LATEX_COMMANDS = ("rowcone", "semantics", "analyze", "compare", "relax")

Runner = Callable[[argparse.Namespace], Outcome]


def extend(
    name: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    run: Callable[[argparse.Namespace, Runner], Outcome],
) -> None:
    """Add options to the registered command ``name``: ``run(args, original_run)`` handles them.

    Does nothing when the command is not registered (its module is missing).
    """
    cmd = COMMANDS.get(name)
    if cmd is None or getattr(cmd.run, "_paper_extended", None) == add_arguments.__name__:
        return
    original_add, original_run = cmd.add_arguments, cmd.run

    def add(p: argparse.ArgumentParser) -> None:
        original_add(p)
        add_arguments(p)

    def wrapped(args: argparse.Namespace) -> Outcome:
        return run(args, original_run)

    wrapped._paper_extended = add_arguments.__name__  # type: ignore[attr-defined]
    COMMANDS[name] = dataclasses.replace(cmd, add_arguments=add, run=wrapped)


# ------------------------------------------------------------------------------------------------------ --latex
def _latex_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--latex",
        action="store_true",
        help="print LaTeX (facets/guarantees as an align environment, as in Example 4.4) instead of text",
    )


def _latex_of(name: str, args: argparse.Namespace) -> str:
    """The LaTeX of a command, computed from its arguments (the commands' own data may be streamed summaries)."""
    from .._core.display import to_latex
    from ..analyses import relax, semantics
    from ..analyses.relaxation._relaxation import relaxation_domain
    from ..definitions import parse_definition

    d = parse_definition(args.definition)
    if name == "rowcone":
        return to_latex(d.row_cone())
    if name == "semantics":
        return to_latex(semantics(d))
    # analyze: the row cone and the relaxation onto the command's family; relax: the relaxation
    from ._routes import _default_family, _max_family, _relaxation_route

    limit = _max_family(args)
    requested = getattr(args, "family", None)
    datasets = relaxation_domain(d, tuple(d.inputs))
    family = _default_family(tuple(d.inputs), requested, datasets)
    _relaxation_route(d, tuple(d.inputs), family, None, limit, datasets, requested=requested is not None)
    if name == "relax":
        return to_latex(relax(d, family))
    cone = d.row_cone()
    parts = [
        f"% privacy definition {d.spec()}: row cone (one Bayesian guarantee per facet)",
        to_latex(cone),
        to_latex(relax(d, family)),
    ]
    return "\n".join(parts)


def _with_latex(name: str) -> Callable[[argparse.Namespace, Runner], Outcome]:
    def run(args: argparse.Namespace, original: Runner) -> Outcome:
        if not getattr(args, "latex", False):
            return original(args)
        if name == "compare":
            from ..analyses import compare
            from ..analyses.comparison._compare import Comparison
            from ..definitions import parse_definition

            out = original(args)
            c = (
                out.data
                if isinstance(out.data, Comparison)
                else compare(parse_definition(args.definition_a), parse_definition(args.definition_b))
            )
            tex = to_latex_any(c)
            return Outcome(tex, {"latex": tex, "result": c}, out.code)
        tex = _latex_of(name, args)
        return Outcome(tex, {"latex": tex}, EXIT_YES)

    return run


def to_latex_any(obj: Any) -> str:
    from .._core.display import to_latex

    return to_latex(obj)


# ------------------------------------------------------------------------------------------------------ rowcone
def _rowcone_args(p: argparse.ArgumentParser) -> None:
    _latex_arg(p)
    p.add_argument(
        "--symbolic",
        action="store_true",
        help="the parameter is a name (rr:k=2,p=p): facets as polynomials in it, verified, with the "
        "interval of constant combinatorial type and its breakpoints",
    )
    p.add_argument(
        "--plot", metavar="FILE", help="draw the cone's slice by the simplex of three datasets (PNG/PDF/SVG)"
    )
    p.add_argument("--coords", metavar="A,B,C", help="the three datasets to draw (default: up to four triples)")
    p.add_argument("--rows", metavar="FILE", help="mechanism JSON whose rows are drawn (default: the definition's own)")


def _symbolic_param(spec: str) -> str:
    from ..analyses.guarantees._symbolic import PARAMETER_RANGES

    kind, _, rest = spec.partition(":")
    for part in rest.split(","):
        key, _, value = part.partition("=")
        if (kind.strip(), key.strip()) in PARAMETER_RANGES and value.strip().isidentifier():
            return value.strip()
    known = ", ".join(f"{k}:{v}=NAME" for k, v in PARAMETER_RANGES)
    raise InvalidParameterError(
        f"--symbolic needs a spec whose parameter is a name, e.g. rr:k=2,p=p; got {spec!r} "
        f"(symbolic parameters: {known})"
    )


def _plot(args: argparse.Namespace, cone: Any, definition: Any) -> str:
    from ..mechanisms._mechanism import Mechanism
    from ..plots._cone import cone_slice, cone_slices

    mech: Mechanism | None
    if args.rows:
        mech = Mechanism.load(args.rows)
    else:
        try:
            mechs = getattr(definition, "mechanisms", None)
        except Exception:  # noqa: BLE001 - a definition too large to densify simply has no rows to draw
            mechs = None
        mech = mechs[0] if mechs else None
    if args.coords:
        coords = [c.strip() for c in args.coords.split(",")]
        if len(coords) != 3:
            raise FormatError(f"--coords needs three datasets separated by commas, got {args.coords!r}")
        cone_slice(cone, coords, mechanism=mech, path=args.plot)
    elif cone.ambient_dim == 3:
        cone_slice(cone, mechanism=mech, path=args.plot)
    else:
        cone_slices(cone, mechanism=mech, path=args.plot)
    return f"wrote {args.plot}"


def _rowcone_run(args: argparse.Namespace, original: Runner) -> Outcome:
    for given, option in ((args.coords, "--coords"), (args.rows, "--rows")):
        if given is not None and not args.plot:
            raise FormatError(f"{option} {given!r} chooses what --plot draws; give --plot FILE too")
    if args.symbolic:
        from ..analyses.guarantees._symbolic import symbolic_row_cone

        if args.plot:
            raise InvalidParameterError("--plot needs a numeric parameter; drop --symbolic")
        s = symbolic_row_cone(args.definition, _symbolic_param(args.definition))
        if args.latex:
            return Outcome(s.to_latex(), {"latex": s.to_latex(), "result": s}, EXIT_YES)
        return Outcome(s.summary(), s, EXIT_YES)
    out = _with_latex("rowcone")(args, original)
    if args.plot:
        from ..definitions import parse_definition

        d = parse_definition(args.definition)
        line = _plot(args, d.row_cone(), d)
        if args.latex:
            import sys

            print(line, file=sys.stderr)
        else:
            out = out.appended(line)
    return out


def _register() -> None:
    import importlib

    # The commands extended here must be registered first (this module may be imported on its own, e.g. by doctest).
    for module in ("privgeom.cli._core", "privgeom.cli._analyze", "privgeom.cli._closures"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise
    extend("rowcone", _rowcone_args, _rowcone_run)
    declare_outputs("rowcone", plot="figure")
    for name in LATEX_COMMANDS:
        if name != "rowcone":
            extend(name, _latex_arg, _with_latex(name))


_register()
