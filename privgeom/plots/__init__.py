"""Matplotlib figures (Agg-safe: figures are built without pyplot and never shown).

One public function, :func:`plot`, draws what it is given: a δ(ε) curve, the KOV regimes, a row cone, a mapping of
named mechanisms (their privacy profiles) or a sweep's DataFrame. The drawing functions behind it live in the
private modules (``_profile``, ``_kov``, ``_cone``, ``_sweep``).

Examples
--------
>>> import privgeom as pg
>>> from privgeom.plots import plot
>>> plot is pg.plot, len(plot(pg.RandomizedResponse(2, "3/4").row_cone(), triples=[["11", "10", "01"]]).axes)
(True, 1)
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from ._plot import plot

__all__ = ["plot"]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
