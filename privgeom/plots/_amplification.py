"""Plot of amplified privacy profiles: ``log10 δ(ε)`` of a shuffled or subsampled mechanism next to published bounds.

The values are known through their logarithms (a shuffled tally over ``10^6`` users has ``δ`` far below the double
range), so the curves are drawn on a ``log10 δ`` axis; each series is a list of ``(ε, log10 δ)`` points (``-inf``
points, where ``δ = 0``, are left out).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from .._core.errors import InvalidParameterError
from .._core.io import check_figure_path, save_figure

__all__ = ["plot_log_profiles"]


def plot_log_profiles(
    series: Mapping[str, Sequence[tuple[float, float]]], path: str | Path | None = None, *, title: str = ""
) -> Any:
    """Draw ``log10 δ`` against ``ε`` for each named series (exact profile, bounds) into a new Figure.

    Examples
    --------
    >>> fig = plot_log_profiles({"exact": [(0.1, -3.0), (0.2, -7.5)], "bound": [(0.1, -2.0), (0.2, -5.0)]})
    >>> fig.axes[0].get_ylabel(), len(fig.axes[0].lines)
    ('log10 δ(ε)', 2)
    """
    if not series:
        raise InvalidParameterError("plot_log_profiles needs at least one series of (eps, log10 delta) points")
    if path is not None:
        check_figure_path(path)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 4.0), layout="constrained")
    ax = fig.add_subplot()
    for i, (name, points) in enumerate(series.items()):
        pts = sorted((float(e), float(d)) for e, d in points if math.isfinite(float(d)))
        ax.plot([e for e, _ in pts], [d for _, d in pts], "o-" if i == 0 else "s--", color=f"C{i}", ms=4, label=name)
    ax.set_xlabel("ε")
    ax.set_ylabel("log10 δ(ε)")
    if title:
        ax.set_title(title)
    ax.legend(loc="upper right", fontsize="small")
    if path is not None:
        save_figure(fig, path)
    return fig
