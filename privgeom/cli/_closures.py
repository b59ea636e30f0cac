"""Subcommands ``compare`` and ``optimal``: questions on the consistent closures of definitions.

Exit codes (the main program adds ``--json`` and maps errors to 2):

``privgeom compare A B``
    0 when ``closure(A) ⊆ closure(B)`` is proved (relation ``subset`` or ``equal``), 1 otherwise (``superset``,
    ``incomparable``, or ``undecided`` — the text says which).
``privgeom optimal``
    0 (the optimum is always found; exact with a verified certificate for rational inputs, else verified in float).
    With ``--objective information --at-least U``: 0 with the least mutual information found; 2 when ``U`` exceeds
    the best achievable expected utility (the message names it) or no solver succeeds.

Output size of ``optimal``: the text and ``--json`` give the value, the certificate, the membership check and the
mechanism's shape and entries in summary (:func:`~privgeom.cli._render.mechanism_lines`); the matrix itself is
printed, and carried in the JSON, when it has at most :data:`~privgeom.cli._render.MAX_MATRIX_SHOWN` entries or with
``--all``. ``--out FILE`` saves the whole mechanism, whatever its size.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .._core.errors import FormatError, InvalidParameterError, PrivgeomError
from .._core.io import check_output_path, load_json
from .._core.numbers import parse_scalar
from ..analyses.comparison._compare import compare
from ..analyses.optimal import _optimal as optimal_lp
from ..analyses.optimal._information import least_informative
from ..analyses.optimal._optimal import optimal_mechanism
from ..definitions import parse_definition
from ._registry import EXIT_NO, EXIT_YES, Outcome, command
from ._render import MAX_MATRIX_SHOWN, bounded_result, matrix_shown, mechanism_lines

__all__ = ["BUILTIN_UTILITIES"]


# ---------------------------------------------------------------------------------------------------- compare
def _compare_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("definition_a", help="spec, e.g. rr:k=2,p=3/4")
    p.add_argument("definition_b", help="spec, e.g. dp:graph=hamming,k=2,exp_eps=3")


@command(
    "compare",
    "relation of the consistent closures of two definitions (subset, superset, equal, incomparable) "
    "with witnesses; exit 0 iff closure(A) ⊆ closure(B)",
)(_compare_args)
def _compare(args: argparse.Namespace) -> Outcome:
    c = compare(parse_definition(args.definition_a), parse_definition(args.definition_b))
    return Outcome(c.summary(), c, EXIT_YES if c.relation in ("subset", "equal") else EXIT_NO)


# ---------------------------------------------------------------------------------------------------- optimal
def _optimal_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("definition", help="spec, e.g. dp:graph=complete,n=4,exp_eps=3")
    p.add_argument(
        "--utility",
        "-u",
        default="accuracy",
        help="'accuracy' (guess the dataset; default) or a JSON file {\"matrix\": rows = datasets, "
        '"outputs": [...], "inputs": [...]}',
    )
    p.add_argument(
        "--prior",
        default="uniform",
        help="'uniform' (default), comma-separated probabilities in dataset order (1/2,1/4,1/4) or a JSON "
        "file (list, or {dataset: probability})",
    )
    p.add_argument(
        "--objective",
        choices=("utility", "information"),
        default="utility",
        help="'utility' (default): maximise expected utility (an LP); 'information': minimise the mutual "
        "information I(D; ω) in nats subject to expected utility >= --at-least (a convex program)",
    )
    p.add_argument(
        "--at-least",
        metavar="U",
        default=None,
        help="with --objective information: the expected utility the mechanism must reach (at most the "
        "optimum of --objective utility)",
    )
    p.add_argument("--out", "-o", metavar="JSON", help="save the optimal mechanism to this file (whatever its size)")
    p.add_argument(
        "--all",
        action="store_true",
        help=f"print the whole matrix and carry it (and the membership witness) in --json; without it a "
        f"mechanism of more than {MAX_MATRIX_SHOWN} entries is summarised (shape, entries, factors)",
    )
    p.add_argument(
        "--max-lp-size",
        type=int,
        default=None,
        metavar="N",
        help="largest LP to build (nonzeros + variables; default "
        f"{optimal_lp.MAX_OPTIMAL_LP_SIZE:,}): larger ones are refused from their size before any work",
    )


def _read_json(path: str, what: str) -> Any:
    return load_json(path, what=what)


#: The named utilities of ``optimal --utility`` (:func:`~privgeom.optimal_mechanism` takes the same names).
BUILTIN_UTILITIES = ("accuracy",)


def _utility_option(value: str) -> Any:
    """A built-in utility name, else a JSON file; a value that is neither names both choices."""
    v = value.strip()
    if v in BUILTIN_UTILITIES:
        return v
    if not Path(v).exists():
        looks_like = "file" if v.lower().endswith(".json") or "/" in v else "utility"
        raise InvalidParameterError(
            f"--utility {value!r}: no such {looks_like}; use a built-in utility "
            f'({", ".join(BUILTIN_UTILITIES)}) or a JSON file {{"matrix": rows = datasets, '
            f'"outputs": [...], "inputs": [...]}}'
        )
    return _read_json(v, "utility")


def _prior_option(value: str) -> Any:
    v = value.strip()
    if v == "uniform":
        return None
    if v.endswith(".json") or Path(v).is_file():
        return _read_json(v, "prior")
    parts = [part.strip() for part in v.split(",")]
    for part in parts:
        try:
            parse_scalar(part, name="--prior entry")
        except PrivgeomError:
            raise FormatError(
                f"--prior {value!r}: {part!r} is not a probability; write 'uniform', probabilities in "
                f"dataset order such as 1/2,1/4,1/4, or a JSON file"
            ) from None
    return parts


@command(
    "optimal",
    "the mechanism maximising expected utility over the closure of a definition (an LP), with an "
    "optimality certificate; --objective information: the least mutual information at a utility floor",
    outputs={"out": "file"},
)(_optimal_args)
def _optimal(args: argparse.Namespace) -> Outcome:
    if args.out:
        check_output_path(args.out, what="--out")
    if args.objective == "information" and args.at_least is None:
        raise InvalidParameterError("--objective information needs --at-least U (the expected utility to reach)")
    if args.objective == "utility" and args.at_least is not None:
        raise InvalidParameterError(f"--at-least {args.at_least} applies to --objective information only")
    d = parse_definition(args.definition)
    utility: Any = _utility_option(args.utility)
    res: Any
    if args.objective == "information":
        res = least_informative(
            d,
            utility,
            parse_scalar(args.at_least, name="--at-least"),
            _prior_option(args.prior),
            max_lp_size=args.max_lp_size,
        )
        mech = res.mechanism
        head, tail = res.summary().split("\n", 1)[0], ""  # the summary's first line; the matrix follows it
    else:
        res = optimal_mechanism(d, utility, _prior_option(args.prior), max_lp_size=args.max_lp_size)
        mech = res.mechanism
        head, tail = res.text, "\n" + res.certificate.summary()
    shown = matrix_shown(mech, args.all)
    text = head + "\n" + (str(mech) if shown else "\n".join(mechanism_lines(mech))) + tail
    data = bounded_result(res, all_=args.all)
    if args.out:
        mech.save(args.out)
        text += f"\nmechanism written to {args.out}"
    return Outcome(text, data, EXIT_YES)
