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
>>> str(pg.relax_pairwise(rr).level)
'ln(3)'
"""

from ._core.errors import (
    DomainMismatchError,
    FormatError,
    InvalidInputError,
    InvalidMechanismError,
    InvalidParameterError,
    InvalidTypeError,
    PrivgeomError,
    SizeLimitError,
    SolverError,
    MissingDependencyError,
)
from ._core.domain import Domain
from ._core.level import PrivacyLevel
from ._core.numbers import LogRational
from ._core.results import Quantity, Result
from ._core.limits import get_limits, limits, set_limits
from ._core.display import to_html, to_latex
from typing import TYPE_CHECKING as _TYPE_CHECKING

# The subpackages load on first use (PEP 562 ``__getattr__`` below), so that ``import privgeom`` and the command
# line start fast: networkx, scipy.optimize, cdd, sympy, … are imported only by the functions that need them.
# The imports below are for type checkers only; :data:`_LAZY` says where each name lives at run time.
if _TYPE_CHECKING:
    from .analyses import (
        Guarantee,
        Relaxation,
        binary_mechanism,
        check_guarantee,
        check_product_prior,
        compare,
        compose,
        delta,
        delta_curve,
        describe_row_cone,
        dp_bounds,
        epsilon,
        from_guarantees,
        hull,
        intersection,
        kov_regimes,
        ldp_utility_gap,
        least_informative,
        mutual_information,
        only,
        optimal_mechanism,
        relax,
        relax_pairwise,
        semantics,
        staircase_optimum,
        staircase_patterns,
        without,
    )
    from .definitions import (
        ApproximateDP,
        ConeDefinition,
        DifferentialPrivacy,
        FiniteDefinition,
        FrappDefinition,
        GeometricDefinition,
        KaryRRDefinition,
        Membership,
        PrivacyDefinition,
        Pufferfish,
        RandomizedResponse,
        dp_ray_orbits,
        mixing_threshold,
        parse_definition,
    )
    from .geometry import Cone, automorphisms, use_engine
    from .graphs import neighbour_graph
    from .mechanisms import (
        Mechanism,
        frapp,
        hadamard_response,
        kary_randomized_response,
        local_hashing,
        mixture,
        randomized_response,
        subset_selection,
        truncated_geometric,
        unary_encoding,
    )
    from .analyses.guarantees._symbolic import symbolic_row_cone
    from .plots import plot
    from . import results, smoothed, sweeps, voting
    from .sweeps import sweep
    from .amplification import shuffled, subsampled

from typing import TypeAlias as _TypeAlias  # noqa: E402

import importlib as _importlib  # noqa: E402

from ._core import display as _display, domain as _domain, level as _level, limits as _limits  # noqa: E402
from ._core import removed as _removed  # noqa: E402
from ._core import lazy as _lazy  # noqa: E402

# Types of the parameters (re-bound here with their documentation, which Sphinx reads from these comments)
#: A privacy level as ``eps=`` accepts it: ε as a number (``1.1``, ``"0.5"``, ``0``), ``"ln(r)"``, a
#: :class:`LogRational` or a :class:`PrivacyLevel` (see :meth:`PrivacyLevel.parse`).
LevelLike: _TypeAlias = _level.LevelLike
#: One number: ``int``, ``Fraction`` or a rational string such as ``"3/4"`` (exact mode), or a ``float``; the type of
#: ``exp_eps=``, ``p=``, ``rho=``, ``alpha=``, ``gamma=``, ``delta=``.
ScalarLike: _TypeAlias = _level.ScalarLike
#: A neighbour relation as :func:`neighbour_graph` accepts it (every ``graph=``/``relation=``): a relation name
#: (``"hamming"``, ``"replace-one"``, ``"add-remove"``, ``"path"``, ``"complete"``), a :class:`Domain` (its default
#: relation), a networkx graph or an iterable of pairs of dataset labels.
RelationLike: _TypeAlias = _domain.RelationLike
#: The datasets (a mechanism's columns) as ``inputs=`` accepts them: a :class:`Domain` or a sequence of labels.
InputsLike: _TypeAlias = _domain.InputsLike

from ._version import __version__ as __version__  # noqa: E402  (the one place the version is written)

__all__ = [
    # subpackages with their own vocabulary (loaded on first use)
    "voting",
    "smoothed",
    "sweeps",
    "results",
    # errors
    "PrivgeomError",
    "InvalidInputError",
    "InvalidTypeError",
    "InvalidMechanismError",
    "InvalidParameterError",
    "FormatError",
    "DomainMismatchError",
    "SizeLimitError",
    "SolverError",
    "MissingDependencyError",
    # global size limits
    "get_limits",
    "set_limits",
    "limits",
    # numbers, privacy levels, datasets and neighbour relations
    "Quantity",
    "Result",
    "LogRational",
    "PrivacyLevel",
    "Domain",
    "neighbour_graph",
    "LevelLike",
    "ScalarLike",
    "RelationLike",
    "InputsLike",
    # display
    "to_html",
    "to_latex",
    "plot",
    # mechanisms
    "Mechanism",
    "mixture",
    "randomized_response",
    "truncated_geometric",
    "kary_randomized_response",
    "frapp",
    "unary_encoding",
    "local_hashing",
    "hadamard_response",
    "subset_selection",
    # geometry
    "Cone",
    "automorphisms",
    "use_engine",
    # definitions
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
    # analyses: semantics
    "Guarantee",
    "semantics",
    "check_guarantee",
    "check_product_prior",
    "describe_row_cone",
    "symbolic_row_cone",
    # analyses: relaxation and privacy profiles
    "Relaxation",
    "relax",
    "relax_pairwise",
    "epsilon",
    "delta",
    "delta_curve",
    "ldp_utility_gap",
    # analyses: comparison, optimal mechanisms, design
    "compare",
    "compose",
    "optimal_mechanism",
    "least_informative",
    "mutual_information",
    "staircase_patterns",
    "staircase_optimum",
    "binary_mechanism",
    "kov_regimes",
    "from_guarantees",
    "without",
    "only",
    "intersection",
    "hull",
    "dp_bounds",
    # grids
    "sweep",
    # amplification by shuffling and subsampling
    "shuffled",
    "subsampled",
]


#: Where each lazily loaded public name lives: ``name -> (module, attribute)`` (``attribute`` None: the module).
_LAZY: dict[str, tuple[str, str | None]] = {
    "smoothed": ("privgeom.smoothed", None),
    "voting": ("privgeom.voting", None),
    "sweeps": ("privgeom.sweeps", None),
    "results": ("privgeom.results", None),
    "sweep": ("privgeom.sweeps", "sweep"),
    "plot": ("privgeom.plots", "plot"),
    "shuffled": ("privgeom.amplification", "shuffled"),
    "subsampled": ("privgeom.amplification", "subsampled"),
    # the symbolic route needs sympy (0.5 s to import)
    "symbolic_row_cone": ("privgeom.analyses.guarantees._symbolic", "symbolic_row_cone"),
}
for _package, _names in {
    "privgeom.mechanisms": (
        "Mechanism mixture randomized_response truncated_geometric kary_randomized_response frapp "
        "unary_encoding local_hashing hadamard_response subset_selection"
    ),
    "privgeom.graphs": "neighbour_graph",
    "privgeom.geometry": "Cone automorphisms use_engine",
    "privgeom.definitions": (
        "PrivacyDefinition Membership FiniteDefinition ConeDefinition RandomizedResponse "
        "DifferentialPrivacy ApproximateDP Pufferfish GeometricDefinition FrappDefinition "
        "KaryRRDefinition parse_definition mixing_threshold dp_ray_orbits"
    ),
    "privgeom.analyses": (
        "Guarantee semantics check_guarantee check_product_prior describe_row_cone Relaxation relax "
        "relax_pairwise epsilon delta delta_curve ldp_utility_gap compare compose optimal_mechanism "
        "least_informative mutual_information staircase_patterns staircase_optimum "
        "binary_mechanism kov_regimes from_guarantees without only intersection hull dp_bounds"
    ),
}.items():
    _LAZY.update((_name, (_package, _name)) for _name in _names.split())

#: The modules that register global size limits (``register_limit``): :func:`get_limits` and :func:`set_limits`
#: import them before reading the registry, so every limit is listed although the modules load on first use
#: (tests/test_startup.py checks the list against the sources).
_LIMIT_MODULES = (
    "privgeom._core.domain",
    "privgeom._core.grid",
    "privgeom._core.io",
    "privgeom.analyses.comparison._compare",
    "privgeom.analyses.composition._loss",
    "privgeom.analyses.composition._certified",
    "privgeom.analyses.composition._definitions",
    "privgeom.analyses.relaxation._difference_system",
    "privgeom.analyses.design._dp_bounds",
    "privgeom.analyses.optimal._information",
    "privgeom.analyses.optimal._optimal",
    "privgeom.analyses.optimal._optimal_adp",
    "privgeom.analyses.relaxation._relaxation",
    "privgeom.amplification._shuffle",
    "privgeom.amplification._worst",
    "privgeom.amplification._pairs",
    "privgeom.analyses.profiles._scan",
    "privgeom.analyses.guarantees._summary",
    "privgeom.definitions._approx_dp",
    "privgeom.definitions._dp_rays",
    "privgeom.definitions._ray_orbits",
    "privgeom.geometry._cdd",
    "privgeom.geometry._engines",
    "privgeom.geometry._lp",
    "privgeom.geometry._groups",
    "privgeom.geometry._symmetry",
    "privgeom.mechanisms._ldp",
    "privgeom.smoothed._experiments",
    "privgeom.smoothed._fastpath",
    "privgeom.smoothed._shm",
    "privgeom.smoothed._smoothed",
    "privgeom.smoothed._subsetsum",
    "privgeom.voting._accuracy",
    "privgeom.voting._banzhaf",
    "privgeom.voting._counts",
    "privgeom.voting._fourier",
    "privgeom.voting._rule",
)


def _import_limit_modules() -> None:
    for module in _LIMIT_MODULES:
        _importlib.import_module(module)


def _import_compound_specs() -> None:
    _importlib.import_module("privgeom.analyses.design._design")  # registers the spec forms intersection(…), hull(…)


def _import_renderers() -> None:
    _importlib.import_module("privgeom.display._renderers")  # registers the renderers of the library's types


# The façade tells the base layer about higher modules in exactly these three loader lists (docs/ARCHITECTURE.md, "How
# lower code reaches higher code"): the size limits, the renderers and the compound specs are registered by modules
# loaded on first use.
_limits.LOADERS.append(_import_limit_modules)
_display.LOADERS.append(_import_renderers)
_lazy.SPEC_LOADERS.append(_import_compound_specs)


def __getattr__(name: str) -> object:
    """Load a public name on first use (PEP 562) and keep it in the module's namespace."""
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise _removed.removed_name_error("privgeom", name) from None  # a removed name names its replacement
    value = _importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
