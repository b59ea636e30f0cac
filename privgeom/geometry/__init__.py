"""Geometry layer: polyhedral cones (pycddlib double description) and LP helpers.

Public names: :class:`Cone`, :class:`ConeMembership`, :class:`Containment`.

Examples
--------
>>> from privgeom.geometry import Cone
>>> Cone.from_generators([[1, 0], [1, 1]]).facets.tolist()
[[Fraction(1, 1), Fraction(-1, 1)], [Fraction(0, 1), Fraction(1, 1)]]
"""

from ._cone import PROJECTION_METHODS, Cone, ConeMembership, Containment
from ._symmetry import Orbit, SymmetryGroup, automorphisms

__all__ = ["Cone", "ConeMembership", "Containment", "PROJECTION_METHODS", "SymmetryGroup", "Orbit", "automorphisms"]
