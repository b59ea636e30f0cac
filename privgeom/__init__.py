"""privgeom: privacy definitions as geometry.

Mechanisms are column-stochastic matrices; a privacy definition is a set of them; its consistent closure and row
cone tell what it allows and what it protects (Lin & Kifer's row-cone analysis).

Examples
--------
>>> import privgeom as pg
>>> rr = pg.RandomizedResponse(2, "3/4")
>>> rr.contains(pg.randomized_response(2, "2/3")).member
True
>>> rr.row_cone().n_facets
4
>>> str(pg.relax_pairwise(rr).epsilon)
'ln(3)'
"""

from ._errors import (
    DomainMismatchError,
    FormatError,
    InvalidInputError,
    InvalidMechanismError,
    InvalidParameterError,
    InvalidTypeError,
    PrivgeomError,
    SizeLimitError,
    SolverError,
)
from ._domain import Domain, resolve_graph
from ._level import PrivacyLevel
from ._numeric import LogRational
from ._results import Quantity, Result
from ._display import to_html, to_latex
from .analyses import (
    Comparison,
    DeltaCurve,
    DeltaResult,
    EpsilonResult,
    Guarantee,
    OptimalMechanism,
    Relaxation,
    binary_mechanism,
    check_guarantee,
    check_product_prior,
    compare,
    describe_row_cone,
    delta,
    delta_curve,
    epsilon,
    kov_regimes,
    mutual_information,
    optimal_mechanism,
    relax,
    relax_pairwise,
    semantics,
    staircase_optimum,
    staircase_patterns,
)
from .definitions import (
    ApproximateDP,
    ClosureWitness,
    FrappDefinition,
    GeometricDefinition,
    KaryRRDefinition,
    Pufferfish,
    RowCertificate,
    RowWitness,
    SeparatingCertificate,
    DifferentialPrivacy,
    FiniteDefinition,
    Membership,
    PrivacyDefinition,
    RandomizedResponse,
    parse_definition,
    Nearest,
    Repair,
    MixingThreshold,
    mixing_threshold,
)
from .geometry import Cone, ConeMembership, Containment, Orbit, SymmetryGroup, automorphisms
from .graphs import complete_graph, hamming_graph, neighbour_graph, path_graph
from .mechanisms import (
    Mechanism,
    bit_strings,
    frapp,
    kary_randomized_response,
    mixture,
    randomized_response,
    truncated_geometric,
)
from . import _display_types  # noqa: F401  (registers the renderers of the library's types with _display)

from . import smoothed, voting  # noqa: E402  (subpackages: privgeom.smoothed, privgeom.voting)

__version__ = "0.1.0"

__all__ = [
    "smoothed",
    "voting",
    # errors
    "PrivgeomError",
    "InvalidInputError",
    "InvalidTypeError",
    "InvalidMechanismError",
    "InvalidParameterError",
    "FormatError",
    "SizeLimitError",
    "SolverError",
    "DomainMismatchError",
    # numbers, privacy levels and datasets
    "Quantity",
    "Result",
    "LogRational",
    "PrivacyLevel",
    "Domain",
    "resolve_graph",
    # display
    "to_html",
    "to_latex",
    # parametric row cones (sympy, imported on first use)
    "symbolic_row_cone",
    "SymbolicRowCone",
    # mechanisms
    "Mechanism",
    "mixture",
    "randomized_response",
    "bit_strings",
    "truncated_geometric",
    "kary_randomized_response",
    "frapp",
    # neighbour graphs
    "hamming_graph",
    "path_graph",
    "complete_graph",
    "neighbour_graph",
    # geometry
    "Cone",
    "ConeMembership",
    "Containment",
    "SymmetryGroup",
    "Orbit",
    "automorphisms",
    # definitions
    "PrivacyDefinition",
    "Membership",
    "ClosureWitness",
    "FiniteDefinition",
    "RandomizedResponse",
    "DifferentialPrivacy",
    "parse_definition",
    "RowWitness",
    "RowCertificate",
    "SeparatingCertificate",
    "ApproximateDP",
    "Pufferfish",
    "GeometricDefinition",
    "FrappDefinition",
    "KaryRRDefinition",
    "Nearest",
    "Repair",
    "MixingThreshold",
    "mixing_threshold",
    # analyses
    "Guarantee",
    "describe_row_cone",
    "semantics",
    "check_guarantee",
    "check_product_prior",
    "Relaxation",
    "relax",
    "relax_pairwise",
    "EpsilonResult",
    "DeltaResult",
    "DeltaCurve",
    "epsilon",
    "delta",
    "delta_curve",
    "Comparison",
    "compare",
    "OptimalMechanism",
    "optimal_mechanism",
    "staircase_patterns",
    "staircase_optimum",
    "binary_mechanism",
    "kov_regimes",
    "mutual_information",
]


def __getattr__(name: str) -> object:
    # The symbolic route needs sympy (0.5 s to import): load it on first use only.
    if name in ("symbolic_row_cone", "SymbolicRowCone"):
        from .analyses import _symbolic

        return getattr(_symbolic, name)
    raise AttributeError(f"module 'privgeom' has no attribute {name!r}")
