"""Privacy definitions and consistent-closure membership (Lin & Kifer's row-cone analysis).

A :class:`PrivacyDefinition` is a set of mechanisms over one input domain; ``contains(M)`` decides membership in
its consistent closure (Theorem 3.4) with a verified witness or certificate, ``row_cone()`` gives its row cone
(Definition 3.5). Built in: :class:`FiniteDefinition`, :class:`RandomizedResponse` (Theorem 4.3),
:class:`DifferentialPrivacy`; :func:`parse_definition` reads spec strings such as ``"rr:k=3,p=3/4"``. The witnesses
and certificates a membership carries (``ClosureWitness``, ``RowCertificate``, …) are received, never built: they
live in the private modules (``privgeom.definitions._membership``, ``_approx_dp``, …) and are public in
:mod:`privgeom.results`.

Examples
--------
>>> from privgeom.definitions import RandomizedResponse, parse_definition
>>> parse_definition("rr:k=1,p=3/4").p == RandomizedResponse(1, "3/4").p
True
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from ._base import Membership, PrivacyDefinition
from ._finite import FiniteDefinition
from ._cone_definition import ConeDefinition
from ._rr import RandomizedResponse
from ._dp import DifferentialPrivacy
from ._registry import parse_definition
from ._approx_dp import ApproximateDP
from ._pufferfish import Pufferfish
from ._mixing import mixing_threshold
from ._catalogue import FrappDefinition, GeometricDefinition, KaryRRDefinition
from ._ray_orbits import dp_ray_orbits
from . import _ldp  # noqa: F401  (registers the spec kinds of the local-DP protocols)

__all__ = [
    "PrivacyDefinition",
    "Membership",
    "FiniteDefinition",
    "ConeDefinition",
    "RandomizedResponse",
    "DifferentialPrivacy",
    "ApproximateDP",
    "Pufferfish",
    "GeometricDefinition",
    "FrappDefinition",
    "KaryRRDefinition",
    "parse_definition",
    "mixing_threshold",
    "dp_ray_orbits",
]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
