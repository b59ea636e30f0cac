"""Privacy definitions and consistent-closure membership (Lin & Kifer's row-cone analysis).

A :class:`PrivacyDefinition` is a set of mechanisms over one input domain; ``contains(M)`` decides membership in
its consistent closure (Theorem 3.4) with a verified witness or certificate, ``row_cone()`` gives its row cone
(Definition 3.5). Built in: :class:`FiniteDefinition`, :class:`RandomizedResponse` (Theorem 4.3),
:class:`DifferentialPrivacy`; :func:`parse_definition` reads spec strings such as ``"rr:k=3,p=3/4"``.
"""

from ._base import (
    ClosureWitness,
    Membership,
    PrivacyDefinition,
    RowCertificate,
    RowWitness,
    SeparatingCertificate,
)
from ._finite import FiniteDefinition
from ._cone_definition import ConeDefinition
from ._rr import RandomizedResponse
from ._dp import DifferentialPrivacy
from ._registry import definition_kinds, parse_definition, register_definition_kind
from ._approx_dp import ApproximateDP, CompletionWitness, HockeyStickCertificate, HockeyStickWitness
from ._pufferfish import Pufferfish
from ._nearest import Nearest, NearestCertificate, Repair, nearest
from ._mixing import MixingThreshold, mixing_threshold
from ._catalogue import (
    ClosedFormDefinition,
    FrappDefinition,
    GeometricDefinition,
    KaryRRDefinition,
    dp_cone_rays,
    dp_ray_patterns,
    hypercube_dp_ray_count,
)
from ._ldp import LocalProtocol
from ._ray_orbits import RayOrbits, dp_ray_orbits

__all__ = [
    "PrivacyDefinition",
    "Membership",
    "ClosureWitness",
    "RowWitness",
    "SeparatingCertificate",
    "RowCertificate",
    "FiniteDefinition",
    "ConeDefinition",
    "RandomizedResponse",
    "DifferentialPrivacy",
    "parse_definition",
    "register_definition_kind",
    "definition_kinds",
    "ApproximateDP",
    "HockeyStickWitness",
    "HockeyStickCertificate",
    "CompletionWitness",
    "Pufferfish",
    "ClosedFormDefinition",
    "GeometricDefinition",
    "FrappDefinition",
    "KaryRRDefinition",
    "LocalProtocol",
    "dp_cone_rays",
    "dp_ray_patterns",
    "hypercube_dp_ray_count",
    "dp_ray_orbits",
    "RayOrbits",
    "nearest",
    "Nearest",
    "Repair",
    "NearestCertificate",
    "mixing_threshold",
    "MixingThreshold",
]
