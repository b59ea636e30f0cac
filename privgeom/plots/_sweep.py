"""Figures of a sweep's DataFrame (:func:`privgeom.sweep`): lines over one grid axis, a heatmap over two.

Built with :class:`matplotlib.figure.Figure` (no pyplot state). Rows with an error, or whose field is missing, are
left out of lines and drawn as empty cells of a heatmap.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

from .._core.extras import require
from .._core.errors import InvalidParameterError

__all__ = ["plot_sweep", "save_sweep_plot", "default_field"]

#: Columns that are not answers (never chosen as the plotted field).
_META = ("seconds", "error")


def default_field(frame: Any, axes: Sequence[str]) -> str:
    """The first numeric answer column (not a grid axis, not ``seconds``/``error``, not an ``*_exact`` text).

    Examples
    --------
    >>> import pandas as pd
    >>> default_field(pd.DataFrame({"k": [2], "exp_eps": [2.0], "exp_eps_exact": ["2"], "seconds": [0.1]}), ["k"])
    'exp_eps'
    """
    for col in frame.columns:
        if col in axes or col in _META or col.endswith("_exact"):
            continue
        if frame[col].dtype.kind in "fiub":
            return str(col)
    raise InvalidParameterError(f"no numeric answer column to plot among {list(frame.columns)}")


def _number(v: Any) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        from fractions import Fraction

        try:
            x = float(Fraction(str(v)))
        except (ValueError, ZeroDivisionError):
            return math.nan
    return x


def _sorted_values(frame: Any, axis: str) -> list[Any]:
    values = list(dict.fromkeys(frame[axis].tolist()))
    nums = [_number(v) for v in values]
    if all(not math.isnan(x) for x in nums):
        return [v for _, v in sorted(zip(nums, values), key=lambda t: t[0])]
    return values


def plot_sweep(frame: Any, axes: Sequence[str], field: str | None = None) -> Any:
    """A Figure of ``field`` (default :func:`default_field`) over the grid ``axes``: one axis gives a line, two
    ``(x, y)`` a heatmap with ``x`` across and ``y`` up.

    With more grid columns than ``axes``, the other columns must be constant (refused otherwise: the figure would
    mix points).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"k": [2, 2, 3, 3], "p": ["2/3", "3/4"] * 2, "exp_eps": [2.0, 3.0, 2.0, 3.0],
    ...                    "error": [None] * 4})
    >>> fig = plot_sweep(df, ["k", "p"], "exp_eps")
    >>> fig.axes[0].images[0].get_array().shape
    (2, 2)
    """
    Figure = require("matplotlib.figure", extra="plot", feature="pg.plot").Figure

    axes = list(axes)
    if not 1 <= len(axes) <= 2:
        raise InvalidParameterError(f"a sweep plot has one axis (lines) or two (heatmap), got {axes}")
    for a in axes:
        if a not in frame.columns:
            raise InvalidParameterError(f"no grid column {a!r} in the sweep (columns: {list(frame.columns)})")
    field = field or default_field(frame, axes)
    if field not in frame.columns:
        raise InvalidParameterError(f"no column {field!r} in the sweep (columns: {list(frame.columns)})")
    ok = frame[frame["error"].isna()] if "error" in frame.columns else frame
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.add_subplot()
    xs = _sorted_values(frame, axes[0])
    if len(axes) == 1:
        pts = {r[axes[0]]: _number(r[field]) for r in ok.to_dict("records")}
        if len(ok) != len(ok[axes[0]].unique()):
            raise InvalidParameterError(f"several rows share each value of {axes[0]!r}: plot over two axes")
        xnum = [_number(x) for x in xs]
        numeric = all(not math.isnan(x) for x in xnum)
        pos = xnum if numeric else list(range(len(xs)))
        ax.plot(pos, [pts.get(x, math.nan) for x in xs], marker="o")
        if not numeric:
            ax.set_xticks(pos, [str(x) for x in xs])
        ax.set_xlabel(axes[0])
        ax.set_ylabel(field)
        ax.grid(True, alpha=0.3)
    else:
        ys = _sorted_values(frame, axes[1])
        cell = {(r[axes[0]], r[axes[1]]): _number(r[field]) for r in ok.to_dict("records")}
        if len(ok) != len(cell):
            raise InvalidParameterError(f"several rows share each ({axes[0]}, {axes[1]}): the other grid columns vary")
        data = [[cell.get((x, y), math.nan) for x in xs] for y in ys]
        im = ax.imshow(data, aspect="auto", origin="lower", cmap="viridis")
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_yticks(range(len(ys)), [str(y) for y in ys])
        ax.set_xlabel(axes[0])
        ax.set_ylabel(axes[1])
        fig.colorbar(im, ax=ax, label=field)
    ax.set_title(f"{field} over {' × '.join(axes)}")
    return fig


def save_sweep_plot(
    path: str | Path, frame: Any, axes: Sequence[str], field: str | None = None, *, dpi: int = 110
) -> Path:
    """Write :func:`plot_sweep` to ``path`` (format from the extension, e.g. ``.png``, ``.pdf``, ``.svg``)."""
    target = Path(path)
    plot_sweep(frame, axes, field).savefig(target, dpi=dpi)
    return target
