"""Analyses of privacy definitions: semantics, relaxation, privacy profiles, comparison, optimal mechanisms."""

from typing import TYPE_CHECKING

from .._core.lazy import lazy_exports

if TYPE_CHECKING:  # the names load on first use (PEP 562 __getattr__ below): a fast `import privgeom`
    from .comparison._compare import (
        RELATIONS,
        Comparison,
        Inclusion,
        InclusionWitness,
        compare,
        extreme_mechanisms,
        generating_mechanisms,
        inclusion,
        inequality_text,
    )
    from .optimal._information import LeastInformative, least_informative
    from .optimal._optimal import (
        KOVRegimes,
        OptimalityCertificate,
        OptimalMechanism,
        RowUtility,
        StaircaseOptimum,
        bayes_utility,
        binary_mechanism,
        kov_regimes,
        mutual_information,
        mutual_information_utility,
        optimal_mechanism,
        staircase_optimum,
        staircase_patterns,
        utility_matrix,
    )
    from .profiles._profile import DeltaResult, EpsilonResult, delta, epsilon, hockey_stick, hockey_stick_event
    from .profiles._profile import hockey_stick_columns
    from .profiles._profile_curve import DeltaCurve, DeltaPiece, delta_curve
    from .relaxation._relaxation import FAMILIES, PairBound, Relaxation, relax, relax_pairwise, subset_family
    from .guarantees._semantics import (
        Guarantee,
        GuaranteeCheck,
        ProductPriorCheck,
        check_guarantee,
        check_product_prior,
        guarantee_from_normal,
        parity_structure,
        semantics,
    )
    from .design._design import RedundantGuarantee, from_guarantees, hull, intersection, listed_facets, only, without
    from .design._dp_bounds import DPBounds, dp_bounds
    from .guarantees._summary import FacetOrbit, RowConeSummary, describe_row_cone, format_facet, format_vector
    from .profiles._ldp_gap import UtilityGap, ldp_utility_gap


__all__ = [
    "UtilityGap",
    "ldp_utility_gap",
    "Guarantee",
    "GuaranteeCheck",
    "ProductPriorCheck",
    "semantics",
    "guarantee_from_normal",
    "check_guarantee",
    "check_product_prior",
    "parity_structure",
    "describe_row_cone",
    "RowConeSummary",
    "FacetOrbit",
    "format_facet",
    "format_vector",
    "PairBound",
    "Relaxation",
    "relax",
    "relax_pairwise",
    "subset_family",
    "FAMILIES",
    "EpsilonResult",
    "DeltaResult",
    "DeltaCurve",
    "DeltaPiece",
    "epsilon",
    "delta",
    "delta_curve",
    "hockey_stick",
    "hockey_stick_event",
    "hockey_stick_columns",
    "compare",
    "Comparison",
    "Inclusion",
    "InclusionWitness",
    "inclusion",
    "extreme_mechanisms",
    "generating_mechanisms",
    "inequality_text",
    "RELATIONS",
    "optimal_mechanism",
    "LeastInformative",
    "least_informative",
    "OptimalMechanism",
    "OptimalityCertificate",
    "utility_matrix",
    "RowUtility",
    "bayes_utility",
    "mutual_information_utility",
    "mutual_information",
    "staircase_patterns",
    "binary_mechanism",
    "staircase_optimum",
    "StaircaseOptimum",
    "kov_regimes",
    "KOVRegimes",
    "from_guarantees",
    "RedundantGuarantee",
    "without",
    "only",
    "intersection",
    "hull",
    "listed_facets",
    "dp_bounds",
    "DPBounds",
]


__getattr__, __dir__ = lazy_exports(__name__, globals(), {
    ".comparison._compare": (
        "RELATIONS Comparison Inclusion InclusionWitness compare extreme_mechanisms generating_mechanisms "
        "inclusion inequality_text"
    ),
    ".optimal._information": "LeastInformative least_informative",
    ".optimal._optimal": (
        "KOVRegimes OptimalityCertificate OptimalMechanism RowUtility StaircaseOptimum bayes_utility "
        "binary_mechanism kov_regimes mutual_information mutual_information_utility optimal_mechanism "
        "staircase_optimum staircase_patterns utility_matrix"
    ),
    ".profiles._profile": "DeltaResult EpsilonResult delta epsilon hockey_stick hockey_stick_event hockey_stick_columns",
    ".profiles._profile_curve": "DeltaCurve DeltaPiece delta_curve",
    ".relaxation._relaxation": "FAMILIES PairBound Relaxation relax relax_pairwise subset_family",
    ".guarantees._semantics": (
        "Guarantee GuaranteeCheck ProductPriorCheck check_guarantee check_product_prior guarantee_from_normal "
        "parity_structure semantics"
    ),
    ".design._design": "RedundantGuarantee from_guarantees hull intersection listed_facets only without",
    ".design._dp_bounds": "DPBounds dp_bounds",
    ".guarantees._summary": "FacetOrbit RowConeSummary describe_row_cone format_facet format_vector",
    ".profiles._ldp_gap": "UtilityGap ldp_utility_gap",
})
