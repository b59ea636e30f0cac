"""Plot of an exact privacy profile ``ε ↦ δ(ε)`` (see :func:`privgeom.analyses.delta_curve`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from .._core.extras import require
from .._core.errors import InvalidTypeError
from .._core.io import check_figure_path, save_figure
from .._core.level import eps_of
from .._core.numbers import level_text as format_level
from ..analyses.profiles._profile_curve import DeltaCurve, evaluate_pieces

__all__ = ["plot_delta_curve"]


def plot_delta_curve(curve: DeltaCurve, path: str | Path | None = None, ax: Any = None) -> Any:
    """Draw the δ(ε) curve of a mechanism: the exact envelope, its breakpoints, the requested points and ε*.

    Between breakpoints ``δ`` is linear in ``e^ε`` (so slightly curved in ε); the envelope is drawn from the exact
    pieces on a fine grid, breakpoints as dots, the requested ``(ε, δ)`` values as crosses, and the exact ε* (where
    ``δ`` reaches 0) as a dashed vertical line.

    Parameters
    ----------
    curve : DeltaCurve
        The result of :func:`privgeom.analyses.delta_curve`.
    path : str or Path, optional
        Where to save the figure (format from the suffix, checked before drawing, e.g. ``.png``, ``.pdf``).
    ax : matplotlib Axes, optional
        Draw into these axes; default: a new :class:`matplotlib.figure.Figure` (no pyplot, no global state).

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the plot (never shown).

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> from privgeom.graphs._graphs import hamming_graph
    >>> from privgeom.analyses.profiles._profile_curve import delta_curve
    >>> fig = plot_delta_curve(delta_curve(randomized_response(2, "3/4"), hamming_graph(2)))
    >>> fig.axes[0].get_xlabel()
    'ε'
    """
    if not isinstance(curve, DeltaCurve):
        raise InvalidTypeError(f"plot_delta_curve needs a DeltaCurve (from delta_curve()), got {type(curve).__name__}")
    if path is not None:
        check_figure_path(path)
    if ax is None:
        Figure = require("matplotlib.figure", extra="plot", feature="pg.plot").Figure

        fig = Figure(figsize=(6.0, 4.0), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    finite_bp = [float(eps_of(t)) for t, _ in curve.breakpoints if math.isfinite(float(t))]
    asked = [float(e) for e in curve.eps_values if math.isfinite(float(e))]
    top = max(finite_bp + asked + [0.0])
    top = 1.15 * top if top > 0 else 1.0
    grid = np.linspace(0.0, top, 400)
    values = [float(evaluate_pieces(curve.pieces, math.exp(e), False)) for e in grid]
    ax.plot(grid, values, color="C0", lw=2, label="δ(ε) (exact envelope)")
    if curve.breakpoints:
        ax.plot(
            [float(eps_of(t)) for t, _ in curve.breakpoints],
            [float(d) for _, d in curve.breakpoints],
            "o",
            color="C0",
            ms=4,
            label="breakpoints",
        )
    if curve.eps_values:
        ax.plot(
            asked,
            [float(d) for e, d in zip(curve.eps_values, curve.deltas) if math.isfinite(float(e))],
            "x",
            color="C1",
            label="requested ε",
        )
    if not curve.level.infinite:
        ax.axvline(float(curve.level), ls="--", color="C3", lw=1, label=f"ε* = {format_level(curve.level.eps)}")
    elif curve.delta_at_infinity:
        ax.axhline(float(curve.delta_at_infinity), ls=":", color="C3", lw=1, label="δ(∞) > 0: ε* = ∞")
    ax.set_xlabel("ε")
    ax.set_ylabel("δ(ε)")
    ax.set_xlim(0.0, top)
    ax.set_ylim(bottom=0.0)
    ax.set_title(f"Privacy profile over {curve.graph}")
    ax.legend(loc="upper right", fontsize="small")
    if path is not None:
        save_figure(fig, path)
    return fig
