"""One entry point for figures: :func:`plot` draws whatever result it is given (a ``functools.singledispatch``).

Each kind of object has its own drawing function in this package, registered here: a δ(ε) curve
(:func:`privgeom.delta_curve`), the regimes of :func:`privgeom.kov_regimes`, a row cone (slices by the simplex of
three datasets), a mapping of named mechanisms (their privacy profiles side by side) and the DataFrame of
:func:`privgeom.sweep`. Every figure is a :class:`matplotlib.figure.Figure` built without pyplot (Agg-safe, never
shown); ``path=`` saves it (format from the suffix).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Sequence

from .._core.domain import RelationLike
from .._core.errors import InvalidTypeError
from ..analyses.optimal._optimal import KOVRegimes
from ..analyses.profiles._profile_curve import DeltaCurve
from ..geometry._cone import Cone
from ..mechanisms._mechanism import Mechanism

__all__ = ["plot"]


@functools.singledispatch
def plot(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """Draw a result of privgeom as a matplotlib Figure (no pyplot, never shown).

    What is drawn depends on the type of ``obj``; the other arguments are those of the drawing for that type:

    - a :class:`DeltaCurve` (from :func:`privgeom.delta_curve`): the exact privacy profile ε ↦ δ(ε);
      ``plot(curve, path=None, ax=None)``.
    - a ``KOVRegimes`` (from :func:`privgeom.kov_regimes`): utility against ε of the best binary mechanism, k-ary
      randomized response and the staircase optimum, with the regimes shaded; ``plot(regimes, path=None, ax=None)``.
    - a :class:`privgeom.Cone` (a row cone): its slice by the simplex of three datasets, each facet labelled with its
      guarantee and a mechanism's rows as points; ``plot(cone, coords=None, *, mechanism=None, ax=None, path=None,
      title=None)``, or ``plot(cone, triples=[...], mechanism=None, path=None)`` for up to four slices in one figure.
    - a mapping ``name -> Mechanism``: their exact privacy profiles δ(ε) over one neighbour relation;
      ``plot(mechanisms, graph, *, eps_max=None, n_points=121, ax=None, path=None)``.
    - the DataFrame of :func:`privgeom.sweep`: a field over one grid axis (lines) or two (a heatmap);
      ``plot(frame, axes, field=None, *, path=None)``.

    Raises
    ------
    InvalidTypeError
        An object there is no drawing for (the message names its type).

    Examples
    --------
    >>> import privgeom as pg
    >>> fig = pg.plot(pg.RandomizedResponse(2, "3/4").row_cone(), ["11", "10", "01"],
    ...               mechanism=pg.randomized_response(2, "7/8"))
    >>> fig.axes[0].get_title()
    'row cone ∩ simplex on 11, 10, 01'
    >>> fig = pg.plot(pg.delta_curve(pg.randomized_response(1, "3/4"), "hamming"))
    >>> fig.axes[0].get_xlabel()
    'ε'
    >>> pg.plot(3)
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidTypeError: plot has no drawing for a int; it draws a DeltaCurve, KOVRegimes, Cone, a mapping of named mechanisms or a sweep's DataFrame
    """
    if type(obj).__module__.split(".")[0] == "pandas" and hasattr(obj, "columns"):  # pandas loads on first use
        return _sweep(obj, *args, **kwargs)
    raise InvalidTypeError(
        f"plot has no drawing for a {type(obj).__name__}; it draws a DeltaCurve, KOVRegimes, Cone, "
        "a mapping of named mechanisms or a sweep's DataFrame"
    )


@plot.register(DeltaCurve)
def _curve(curve: DeltaCurve, path: str | Path | None = None, ax: Any = None) -> Any:
    from ._profile import plot_delta_curve

    return plot_delta_curve(curve, path, ax)


@plot.register(KOVRegimes)
def _regimes(regimes: KOVRegimes, path: str | Path | None = None, ax: Any = None) -> Any:
    from ._kov import plot_kov_regimes

    return plot_kov_regimes(regimes, path, ax)


@plot.register(Cone)
def _cone(
    cone: Cone,
    coords: Sequence[str] | None = None,
    *,
    triples: Sequence[Sequence[str]] | None = None,
    mechanism: Mechanism | None = None,
    ax: Any = None,
    path: str | Path | None = None,
    title: str | None = None,
) -> Any:
    from ._cone import cone_slice, cone_slices

    if triples is not None:
        if coords is not None or ax is not None or title is not None:
            raise InvalidTypeError(
                "plot(cone, triples=...) draws its own figure: give either coords or triples, "
                "and no ax or title with triples"
            )
        return cone_slices(cone, triples, mechanism=mechanism, path=path)
    return cone_slice(cone, coords, mechanism=mechanism, ax=ax, path=path, title=title)


@plot.register(Mapping)
def _profiles(
    mechanisms: Mapping[str, Mechanism],
    graph: RelationLike,
    *,
    eps_max: float | None = None,
    n_points: int = 121,
    ax: Any = None,
    path: str | Path | None = None,
) -> Any:
    from ._cone import plot_privacy_profiles

    return plot_privacy_profiles(mechanisms, graph, eps_max=eps_max, n_points=n_points, ax=ax, path=path)


def _sweep(frame: Any, axes: Sequence[str], field: str | None = None, *, path: str | Path | None = None) -> Any:
    from ._sweep import plot_sweep

    fig = plot_sweep(frame, axes, field)
    if path is not None:
        fig.savefig(Path(path), dpi=110)  # as save_sweep_plot
    return fig
