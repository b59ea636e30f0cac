"""Sweeps: one named question over a grid of definitions or mechanisms, in parallel on Dask (issue 16).

- :func:`sweep` — ``pg.sweep(template, grid, query, *, scheduler=None, out=None, **options)`` -> a pandas DataFrame;
- :data:`QUERIES` — the named queries (``epsilon``, ``delta``, ``delta_curve``, ``relax``, ``compare``, ``optimal``,
  ``closure``, ``smoothed``, ``accuracy``), extended with :func:`register_query`;
- the engine underneath (also used by the experiments of :mod:`privgeom.smoothed` and :mod:`privgeom.voting`) is
  :func:`privgeom._core.grid.run_grid`.

Dask, pandas and pyarrow are the optional extra ``privgeom[sweep]``.
"""

from ._queries import QUERIES, Query, register_query
from ._sweep import sweep, template_fields

__all__ = ["sweep", "QUERIES", "Query", "register_query", "template_fields"]
