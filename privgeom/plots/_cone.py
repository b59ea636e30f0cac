"""Pictures of row cones and privacy profiles (Agg-safe: figures are built without pyplot and never shown).

:func:`cone_slice` draws the slice of a row cone by the probability simplex ``{x ≥ 0, x_1 + x_2 + x_3 = 1}`` of three
datasets (for a larger cone, of its projection onto three chosen datasets — the relaxation of docs/theory.md §6):
the cone is the shaded polygon, each facet ``a·x ≥ 0`` is a line labelled with its ``S+``/``S−`` sets (its Bayesian
guarantee, Lin & Kifer Section III-C; docs/theory.md §4), and the rows of a mechanism appear as points, normalised to
the simplex, filled when inside the cone and crossed when outside. :func:`cone_slices` puts up to four such panels
(every triple of a 4-dataset cone) in one figure. :func:`plot_privacy_profiles` compares the exact privacy profiles
``ε ↦ δ(ε)`` (docs/theory.md §8) of several mechanisms.

Examples
--------
>>> import privgeom as pg
>>> fig = cone_slice(pg.RandomizedResponse(2, "3/4").row_cone(), ["11", "10", "01"],
...                  mechanism=pg.randomized_response(2, "7/8"))
>>> fig.axes[0].get_title()
'row cone ∩ simplex on 11, 10, 01'
"""

from __future__ import annotations

import itertools
import math
import textwrap
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .._core.extras import require
from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError
from .._core.arrays import ROUNDOFF
from ..geometry._cone import Cone
from ..mechanisms._mechanism import Mechanism
from .._core.domain import RelationLike

__all__ = ["cone_slice", "cone_slices", "plot_privacy_profiles"]

#: Most panels :func:`cone_slices` draws in one figure (a 2 × 2 grid stays readable; more would need smaller axes).
MAX_PANELS = 4

_CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3) / 2]])


def _xy(x: Sequence[float]) -> np.ndarray:
    """Barycentric point of the simplex (entries summing to 1) → plane coordinates of the triangle."""
    return np.asarray(x, dtype=float) @ _CORNERS


def _new_axes(ax: Any, size: tuple[float, float] = (5.6, 5.2)) -> tuple[Any, Any]:
    if ax is not None:
        return ax.figure, ax
    Figure = require("matplotlib.figure", extra="plot", feature="pg.plot").Figure

    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _set(labels: Sequence[str]) -> str:
    return "{" + ",".join(labels) + "}"


def _polygon(cone: Cone) -> np.ndarray:
    """Vertices (barycentric) of cone ∩ simplex, in angular order; empty when the slice is empty."""
    orthant = Cone.from_facets(np.eye(3, dtype=int).tolist(), labels=cone.labels)
    inter = cone.to_float().intersect(orthant.to_float())
    pts = [
        np.asarray(r, dtype=float) / float(np.sum(np.asarray(r, dtype=float)))
        for r in inter.rays
        if float(np.sum(np.asarray(r, dtype=float))) > ROUNDOFF
    ]
    if not pts:
        return np.zeros((0, 3))
    arr = np.array(pts)
    xy = arr @ _CORNERS
    c = xy.mean(axis=0)
    order = np.argsort(np.arctan2(xy[:, 1] - c[1], xy[:, 0] - c[0]))
    return arr[order]


def _segment(a: np.ndarray) -> list[np.ndarray]:
    """Where ``a·x = 0`` meets the triangle: up to two barycentric points."""
    out: list[np.ndarray] = []
    for i, j in ((0, 1), (1, 2), (2, 0)):
        ai, aj = float(a[i]), float(a[j])
        if ai == aj:
            continue
        s = ai / (ai - aj)
        if -ROUNDOFF <= s <= 1 + ROUNDOFF:
            p = np.zeros(3)
            p[i], p[j] = 1 - s, s
            if not any(np.allclose(p, q) for q in out):
                out.append(p)
    return out[:2]


def cone_slice(
    cone: Cone,
    coords: Sequence[str] | None = None,
    *,
    mechanism: Mechanism | None = None,
    ax: Any = None,
    path: str | Path | None = None,
    title: str | None = None,
) -> Any:
    """Draw the slice of a row cone by the simplex of three datasets.

    Parameters
    ----------
    cone : Cone
        A row cone (coordinates = dataset labels).
    coords : sequence of three labels, optional
        The datasets to draw; default the first three. A cone over more datasets is projected onto them first
        (:meth:`Cone.project`), which keeps exactly the guarantees involving only these datasets.
    mechanism : Mechanism, optional
        Its rows (restricted to ``coords`` and normalised to sum 1) are drawn as points: filled dots inside the
        (projected) cone, crosses outside. Zero rows are skipped.
    ax : matplotlib Axes, optional
        Draw into these axes; default a new :class:`matplotlib.figure.Figure`.
    path : str or Path, optional
        Save the figure there (format from the suffix).
    title : str, optional
        Axes title (default names the datasets).

    Returns
    -------
    matplotlib.figure.Figure
    """
    if not isinstance(cone, Cone):
        raise InvalidTypeError(f"cone_slice needs a Cone, got {type(cone).__name__}")
    coords = list(cone.labels[:3] if coords is None else coords)
    if len(coords) != 3 or len(set(coords)) != 3:
        raise InvalidParameterError(f"cone_slice needs three distinct datasets, got {coords!r}")
    missing = [c for c in coords if c not in cone.labels]
    if missing:
        raise DomainMismatchError(f"datasets {missing} are not coordinates of the cone ({', '.join(cone.labels)})")
    sub = cone if list(cone.labels) == coords else cone.project(coords)
    fig, ax = _new_axes(ax)
    tri = np.vstack([_CORNERS, _CORNERS[:1]])
    ax.plot(tri[:, 0], tri[:, 1], color="0.3", lw=1)
    for k, lab in enumerate(coords):
        off = np.array([[-0.06, -0.05], [0.06, -0.05], [0.0, 0.04]])[k]
        ax.annotate(f"{lab}", _CORNERS[k] + off, ha="center", va="center", fontsize=12, fontweight="bold")
    poly = _polygon(sub)
    if len(poly) >= 3:
        xy = poly @ _CORNERS
        ax.fill(xy[:, 0], xy[:, 1], color="C0", alpha=0.18, lw=0, label="row cone")
    taken: list[np.ndarray] = _row_points(sub, mechanism, coords) if mechanism is not None else []
    for n, a in enumerate(sub.facets):
        a = np.asarray(a, dtype=float)
        plus = [coords[i] for i in range(3) if a[i] > 0]
        minus = [coords[i] for i in range(3) if a[i] < 0]
        seg = _segment(a)
        if len(seg) < 2 or not minus:
            continue  # x_i ≥ 0 lies on the triangle's edge: no guarantee to label
        xy = np.array(seg) @ _CORNERS
        ax.plot(xy[:, 0], xy[:, 1], color=f"C{1 + n % 8}", lw=1.8)
        # place the label where it is farthest from the labels already placed and from the rows of the mechanism
        cands = [(1 - w) * xy[0] + w * xy[1] for w in (0.2, 0.35, 0.5, 0.65, 0.8)]
        mid = max(cands, key=lambda c: min([float(np.hypot(*(c - q))) for q in taken] + [9.0]))
        taken.append(mid)
        ax.annotate(
            f"F{n + 1}: S+={_set(plus)}\nS−={_set(minus)}",
            mid,
            fontsize=8,
            ha="center",
            va="center",
            color=f"C{1 + n % 8}",
            bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="none", alpha=0.85),
        )
    if mechanism is not None:
        _rows(ax, sub, mechanism, coords)
    ax.set_aspect("equal")
    ax.set_xlim(-0.12, 1.12)
    ax.set_ylim(-0.1, 0.95)
    ax.axis("off")
    ax.set_title(textwrap.fill(title or f"row cone ∩ simplex on {', '.join(coords)}", width=_TITLE_WIDTH))
    if mechanism is not None or len(poly) >= 3:
        ax.legend(loc="upper right", fontsize="small", frameon=False)
    if path is not None:
        fig.savefig(path, dpi=130)
    return fig


def _row_points(cone: Cone, mechanism: Mechanism, coords: Sequence[str]) -> list[np.ndarray]:
    idx = [mechanism.inputs.index(c) for c in coords if c in mechanism.inputs]
    if len(idx) != 3:
        return []
    out = []
    for row in mechanism.matrix:
        x = [float(row[i]) for i in idx]
        if sum(x) > 0:
            out.append(_xy([v / sum(x) for v in x]))
    return out


def _rows(ax: Any, cone: Cone, mechanism: Mechanism, coords: Sequence[str]) -> None:
    missing = [c for c in coords if c not in mechanism.inputs]
    if missing:
        raise DomainMismatchError(
            f"the mechanism has no datasets {missing} (its inputs: {', '.join(mechanism.inputs)})"
        )
    idx = [mechanism.inputs.index(c) for c in coords]
    ins: list[tuple[str, np.ndarray]] = []
    outs: list[tuple[str, np.ndarray]] = []
    for w, row in zip(mechanism.outputs, mechanism.matrix):
        x = [row[i] for i in idx]
        total = sum(x)
        if total == 0:
            continue
        point = _xy([float(v / total) for v in x])
        (ins if cone.contains(x).member else outs).append((w, point))
    for group, style, name in (
        (ins, dict(marker="o", color="#1a7f37"), "row inside"),
        (outs, dict(marker="X", color="#b42318"), "row outside"),
    ):
        if group:
            pts = np.array([p for _, p in group])
            ax.scatter(pts[:, 0], pts[:, 1], s=50, zorder=3, label=name, **style)
            for w, p in group:
                ax.annotate(f"ω={w}", p, xytext=(4, 4), textcoords="offset points", fontsize=8)


def cone_slices(
    cone: Cone,
    triples: Sequence[Sequence[str]] | None = None,
    *,
    mechanism: Mechanism | None = None,
    path: str | Path | None = None,
) -> Any:
    """Up to four :func:`cone_slice` panels in one figure (default: the first four triples of datasets).

    Examples
    --------
    >>> import privgeom as pg
    >>> len(cone_slices(pg.RandomizedResponse(2, "3/4").row_cone()).axes)
    4
    """
    Figure = require("matplotlib.figure", extra="plot", feature="pg.plot").Figure

    if triples is None:
        triples = list(itertools.combinations(cone.labels, 3))[:MAX_PANELS]
    if not 1 <= len(triples) <= MAX_PANELS:
        raise InvalidParameterError(f"cone_slices draws 1 to {MAX_PANELS} panels, got {len(triples)} triples")
    ncols = 1 if len(triples) == 1 else 2
    nrows = math.ceil(len(triples) / ncols)
    fig = Figure(figsize=(5.6 * ncols, 5.0 * nrows), layout="constrained")
    for k, tr in enumerate(triples):
        cone_slice(cone, tr, mechanism=mechanism, ax=fig.add_subplot(nrows, ncols, k + 1))
    if cone.ambient_dim > 3:
        fig.suptitle(
            f"projections of the row cone onto three of its {cone.ambient_dim} datasets, sliced by the simplex "
            f"(facet F: S+ never less likely than S−)",
            fontsize=11,
        )
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


#: Characters per line of a slice's title (longer titles wrap instead of running off the figure).
_TITLE_WIDTH = 48

#: Line styles cycled by :func:`plot_privacy_profiles`, so that curves that coincide remain distinguishable.
_LINESTYLES = ("-", "--", ":", "-.")


def plot_privacy_profiles(
    mechanisms: Mapping[str, Mechanism],
    graph: RelationLike,
    *,
    eps_max: float | None = None,
    n_points: int = 121,
    ax: Any = None,
    path: str | Path | None = None,
) -> Any:
    """Compare the exact privacy profiles ``ε ↦ δ(ε)`` of several mechanisms over one neighbour graph.

    Each curve is :func:`privgeom.delta_curve` evaluated on a grid of ``n_points`` values of ε in
    ``[0, eps_max]`` (default 1.15 × the largest finite exact ε of the mechanisms); the exact ε of each mechanism
    (where its δ reaches 0) is marked with a dot. Curves get distinct line styles and widths, and a curve equal to
    an earlier one says so in the legend ("same curve as …").

    Examples
    --------
    >>> import privgeom as pg
    >>> fig = plot_privacy_profiles({"RR 3/4": pg.randomized_response(2, "3/4"),
    ...                              "RR 2/3": pg.randomized_response(2, "2/3")}, "hamming")
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['RR 3/4 (ε = ln(3))', 'RR 2/3 (ε = ln(2))']
    """
    from ..analyses import delta_curve, epsilon

    if not mechanisms:
        raise InvalidParameterError("plot_privacy_profiles needs at least one mechanism")
    eps = {name: epsilon(m, graph) for name, m in mechanisms.items()}
    finite = [float(e.level) for e in eps.values() if not e.infinite]
    top = float(eps_max) if eps_max is not None else 1.15 * max(finite + [1.0])
    grid = [top * i / (n_points - 1) for i in range(n_points)]
    fig, ax = _new_axes(ax, (6.4, 4.2))
    drawn: list[tuple[str, list[float]]] = []
    for k, (name, m) in enumerate(mechanisms.items()):
        curve = delta_curve(m, graph, eps_values=grid)
        e = eps[name]
        value = e.level
        ys = [float(d) for d in curve.deltas]
        same = [other for other, theirs in drawn if theirs == ys]  # coinciding curves stay visible and are named
        label = f"{name} (ε = {value})" + (f", same curve as {same[0]}" if same else "")
        ax.plot(grid, ys, color=f"C{k}", lw=max(1.0, 2.6 - 0.6 * k), ls=_LINESTYLES[k % len(_LINESTYLES)], label=label)
        drawn.append((name, ys))
        if not e.infinite and float(value) <= top:
            ax.plot([float(value)], [0.0], "o", color=f"C{k}", ms=6, clip_on=False, zorder=3)
    ax.set_xlabel("ε")
    ax.set_ylabel("δ(ε)")
    ax.set_xlim(0.0, top)
    ax.set_ylim(bottom=0.0)
    ax.set_title("privacy profiles δ(ε) (hockey-stick divergence, exact)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    if path is not None:
        fig.savefig(path, dpi=130)
    return fig
