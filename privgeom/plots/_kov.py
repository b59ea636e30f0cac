"""Plot of Kairouz–Oh–Viswanath's privacy regimes (see :func:`privgeom.analyses.optimal._optimal.kov_regimes`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._core.extras import require
from .._core.errors import InvalidTypeError
from .._core.io import check_figure_path, save_figure
from ..analyses.optimal._optimal import KOVRegimes

__all__ = ["plot_kov_regimes"]


def plot_kov_regimes(regimes: KOVRegimes, path: str | Path | None = None, ax: Any = None) -> Any:
    """Draw utility against ε for the best binary mechanism, k-ary randomized response and the staircase optimum.

    The high-privacy regime (binary optimal) and the low-privacy regime (randomized response optimal) are shaded,
    and the ε where the binary and randomized-response curves cross is marked with a dashed line (Kairouz, Oh &
    Viswanath, *Extremal mechanisms for local differential privacy*, JMLR 2016).

    Parameters
    ----------
    regimes : KOVRegimes
        The result of :func:`privgeom.analyses.optimal._optimal.kov_regimes`.
    path : str or Path, optional
        Where to save the figure (format from the suffix, checked before drawing, e.g. ``.png``).
    ax : matplotlib Axes, optional
        Draw into these axes; default a new :class:`matplotlib.figure.Figure` (no pyplot, never shown).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from privgeom.analyses.optimal._optimal import kov_regimes
    >>> fig = plot_kov_regimes(kov_regimes(4, [0.5, 1.0, 2.0]))
    >>> fig.axes[1].get_xlabel(), len(fig.axes[0].lines) >= 3
    ('ε', True)
    """
    if not isinstance(regimes, KOVRegimes):
        raise InvalidTypeError(
            f"plot_kov_regimes needs a KOVRegimes (from kov_regimes()), got {type(regimes).__name__}"
        )
    if path is not None:
        check_figure_path(path)
    ratio_ax = None
    if ax is None:
        Figure = require("matplotlib.figure", extra="plot", feature="pg.plot").Figure

        fig = Figure(figsize=(6.4, 6.4), layout="constrained")
        ax, ratio_ax = fig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    else:
        fig = ax.figure
    eps = list(regimes.eps_grid)
    lo, hi = eps[0], eps[-1]
    if regimes.binary_optimal_up_to is not None:
        ax.axvspan(lo, float(regimes.binary_optimal_up_to), color="C0", alpha=0.08, label="binary optimal")
    if regimes.rr_optimal_from is not None:
        ax.axvspan(float(regimes.rr_optimal_from), hi, color="C1", alpha=0.08, label="randomized response optimal")
    ax.plot(eps, regimes.optimum, color="k", lw=3, alpha=0.35, label="optimum (staircase LP)")
    ax.plot(eps, regimes.binary, color="C0", lw=1.5, label="best binary mechanism")
    ax.plot(eps, regimes.rr, color="C1", lw=1.5, label=f"{regimes.n}-ary randomized response")
    if regimes.crossover is not None:
        ax.axvline(
            float(regimes.crossover), ls="--", color="C3", lw=1, label=f"crossover ε = {float(regimes.crossover):.4f}"
        )
    ax.set_xlabel("ε")
    ax.set_ylabel(f"{regimes.utility} (nats)")
    ax.set_xlim(lo, hi)
    ax.set_title(f"Local DP on {regimes.n} values: KOV regimes")
    ax.legend(loc="upper left", fontsize="small")
    if ratio_ax is not None:  # the same curves as a fraction of the optimum: the regimes are where a curve hits 1
        for vals, color, name in ((regimes.binary, "C0", "binary"), (regimes.rr, "C1", "randomized response")):
            ratio_ax.plot(
                eps, [v / o if o > 0 else 1.0 for v, o in zip(vals, regimes.optimum)], color=color, lw=1.5, label=name
            )
        if regimes.crossover is not None:
            ratio_ax.axvline(float(regimes.crossover), ls="--", color="C3", lw=1)
        ratio_ax.axhline(1.0, color="k", lw=0.8, alpha=0.5)
        ratio_ax.set_ylabel("fraction of the optimum")
        ratio_ax.set_xlabel("ε")
        ax.set_xlabel("")
        ratio_ax.legend(loc="lower right", fontsize="small")
    if path is not None:
        save_figure(fig, path)
    return fig
