"""Geometry layer: polyhedral cones (an engine portfolio of exact double description: pycddlib, Normaliz, PPL) and
LP helpers.

Public names: :class:`Cone`, :func:`automorphisms` and :func:`use_engine` (the conversion engine in a block:
``"auto"``, ``"cdd"``, ``"normaliz"``, ``"ppl"``, ``"orbits"`` — by orbit of a symmetric cone's group, see
``privgeom.geometry._orbit_enum``; see ``privgeom.geometry._engines``). The results of cone operations (``ConeMembership``,
``Containment``) and the symmetry types (``SymmetryGroup``, ``Orbit``) are received, never built: they live in
``privgeom.geometry._cone_results`` and ``privgeom.geometry._groups``.

Examples
--------
>>> from privgeom.geometry import Cone
>>> Cone.from_generators([[1, 0], [1, 1]]).facets.tolist()
[[Fraction(1, 1), Fraction(-1, 1)], [Fraction(0, 1), Fraction(1, 1)]]
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from ._cone import Cone
from ._engines import use_engine
from ._symmetry import automorphisms

__all__ = ["Cone", "automorphisms", "use_engine"]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
