"""Analyses of privacy definitions: semantics, relaxation, privacy profiles, comparison, optimal mechanisms.

The public names are re-exported by :mod:`privgeom` (``pg.epsilon``, ``pg.relax``, …); result types that are only
received (``EpsilonResult``, ``DeltaCurve``, ``Comparison``, ``OptimalMechanism``, …) and the kernels underneath
(hockey-stick divergences, utility matrices, subset families) live in the private modules of the topic folders
(``guarantees/``, ``relaxation/``, ``profiles/``, ``comparison/``, ``optimal/``, ``design/``).

Examples
--------
>>> import privgeom as pg
>>> from privgeom import analyses
>>> analyses.relax_pairwise is pg.relax_pairwise
True
"""

from typing import TYPE_CHECKING

from .._core.lazy import lazy_exports

if TYPE_CHECKING:  # the names load on first use (PEP 562 __getattr__ below): a fast `import privgeom`
    from .comparison._compare import compare
    from .composition._definitions import compose
    from .design._design import from_guarantees, hull, intersection, only, without
    from .design._dp_bounds import dp_bounds
    from .guarantees._semantics import Guarantee, check_guarantee, check_product_prior, semantics
    from .guarantees._summary import describe_row_cone
    from .optimal._information import least_informative
    from .optimal._optimal import (
        binary_mechanism,
        kov_regimes,
        mutual_information,
        optimal_mechanism,
        staircase_optimum,
        staircase_patterns,
    )
    from .profiles._ldp_gap import ldp_utility_gap
    from .profiles._profile import delta, epsilon
    from .profiles._profile_curve import delta_curve
    from .relaxation._relaxation import Relaxation, relax, relax_pairwise


__all__ = [
    # guarantees (Bayesian semantics of the facets)
    "Guarantee",
    "semantics",
    "check_guarantee",
    "check_product_prior",
    "describe_row_cone",
    # relaxation (Fourier–Motzkin)
    "Relaxation",
    "relax",
    "relax_pairwise",
    # privacy profiles
    "epsilon",
    "delta",
    "delta_curve",
    "ldp_utility_gap",
    # comparison
    "compare",
    # composition
    "compose",
    # optimal mechanisms
    "optimal_mechanism",
    "least_informative",
    "mutual_information",
    "staircase_patterns",
    "staircase_optimum",
    "binary_mechanism",
    "kov_regimes",
    # design
    "from_guarantees",
    "without",
    "only",
    "intersection",
    "hull",
    "dp_bounds",
]


__getattr__, __dir__ = lazy_exports(
    __name__,
    globals(),
    {
        ".comparison._compare": "compare",
        ".composition._definitions": "compose",
        ".design._design": "from_guarantees hull intersection only without",
        ".design._dp_bounds": "dp_bounds",
        ".guarantees._semantics": "Guarantee check_guarantee check_product_prior semantics",
        ".guarantees._summary": "describe_row_cone",
        ".optimal._information": "least_informative",
        ".optimal._optimal": (
            "binary_mechanism kov_regimes mutual_information optimal_mechanism staircase_optimum staircase_patterns"
        ),
        ".profiles._ldp_gap": "ldp_utility_gap",
        ".profiles._profile": "delta epsilon",
        ".profiles._profile_curve": "delta_curve",
        ".relaxation._relaxation": "Relaxation relax relax_pairwise",
    },
)
