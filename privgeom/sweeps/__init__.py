"""Sweeps: one named question over a grid of definitions or mechanisms, in parallel on Dask.

- :func:`sweep` — ``pg.sweep(template, grid, query, *, scheduler=None, out=None, **options)`` -> a pandas DataFrame;
- the named queries (``epsilon``, ``delta``, ``delta_curve``, ``relax``, ``compare``, ``optimal``, ``closure``,
  ``smoothed``, ``accuracy``, ``pair``, ``ldp_gap``, ``dp_bounds``; the table ``QUERIES`` of ``privgeom.sweeps._queries``), extended with
  :func:`register_query` (the extension point);
- the engine underneath (also used by the experiments of :mod:`privgeom.smoothed` and :mod:`privgeom.voting`) is
  :func:`privgeom._core.grid.run_grid`.

Dask, pandas and pyarrow are the optional extra ``privgeom[sweep]``.

Examples
--------
>>> import privgeom as pg
>>> frame = pg.sweep("rr:k=1,p={p}", {"p": ["2/3", "3/4"]}, "relax", scheduler="serial")
>>> frame["exp_eps_exact"].tolist()
['2', '3']
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from ._queries import register_query
from . import _amplify_queries  # noqa: F401  (registers the shuffle and subsample queries)
from ._sweep import sweep
from . import _compose_queries  # noqa: F401,E402  (registers the query composed_delta: k as a grid axis)

__all__ = ["sweep", "register_query"]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
