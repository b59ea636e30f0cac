"""``privgeom closure … --repair``: the nearest member when the answer is no (used by the ``closure`` command).

Kept apart from ``_core.py`` so that the command only gains three options and one call. The repaired mechanism is
the nearest one in the chosen norm (:func:`privgeom.definitions._nearest.nearest`), re-verified as a member; ``--out``
writes it as mechanism JSON. The exit code stays the original verdict (1 when the given mechanism is not a member),
also when the repair is not available for the definition or refused by a size limit (said in the text and JSON).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._core.numbers import number_text
from ._render import matrix_shown, mechanism_lines

__all__ = ["add_repair_arguments", "repair_report"]


def add_repair_arguments(p: argparse.ArgumentParser) -> None:
    """``--repair``, ``--norm`` and ``--out`` of the closure command."""
    p.add_argument(
        "--repair",
        action="store_true",
        help="if not a member: the nearest member of the closure (verified) and its distance",
    )
    p.add_argument(
        "--norm",
        default="l1",
        choices=["l1", "l1-column", "linf"],
        help="distance for --repair: l1 summed over columns (2 x total variation per dataset, summed), "
        "l1-column (the worst dataset's), linf (largest entry change); default l1",
    )
    p.add_argument("--out", default=None, help="with --repair: write the repaired mechanism (JSON) to this file")


def repair_report(definition: Any, mechanism: Any, args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """Text lines and JSON data for ``--repair`` (empty when it was not asked for)."""
    if not getattr(args, "repair", False):
        if getattr(args, "out", None):
            from .._core.errors import InvalidParameterError

            raise InvalidParameterError("--out writes the repaired mechanism: use it together with --repair")
        return "", {}
    if args.out:
        from .._core.io import check_output_path

        check_output_path(args.out, what="--out")
    from .._core.errors import InvalidParameterError, SizeLimitError

    try:
        rep = definition.nearest(mechanism, args.norm)
    except (InvalidParameterError, SizeLimitError) as err:  # the verdict stands; only the repair is unavailable
        return f"\nrepair: not available: {err}", {"repair": None, "repair_error": str(err)}
    if rep.original_member:
        text = "\nrepair: nothing to repair, the mechanism is already a member"
    else:
        d = number_text(rep.distance if rep.exact else float(rep.distance))
        lines = [
            f"\nrepair: nearest member at {rep.norm} distance {d} ({'exact' if rep.exact else 'float'}), "
            f"verified as a member [{rep.membership.method}]"
        ]
        if rep.certificate is not None:
            lines.append(f"  optimality: {rep.certificate.summary()}")
        M = rep.mechanism
        if matrix_shown(M):
            lines.append("  repaired mechanism (rows = outputs):")
            for o, row in zip(M.outputs, M.matrix):
                cells = [number_text(v if rep.exact else float(v)) for v in row]
                lines.append(f"    {o}: " + "  ".join(cells))
        else:  # a summary; --out FILE writes the matrix
            lines += mechanism_lines(M, indent="  repaired ", how="--out FILE saves it, --json carries it")
        text = "\n".join(lines)
    if args.out:
        rep.mechanism.save(args.out)
        text += f"\n  written to {args.out}"
    return text, {"repair": rep}
