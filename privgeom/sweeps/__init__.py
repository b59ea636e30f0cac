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
from ._sweep import sweep

__all__ = ["sweep", "register_query"]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
