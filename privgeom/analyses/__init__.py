"""Analyses of privacy definitions: semantics, relaxation, privacy profiles, comparison, optimal mechanisms."""

from ._profile import DeltaResult, EpsilonResult, delta, epsilon, hockey_stick, hockey_stick_event
from ._profile_curve import DeltaCurve, DeltaPiece, delta_curve
from ._relaxation import FAMILIES, PairBound, Relaxation, relax, relax_pairwise, subset_family
from ._semantics import (
    Guarantee,
    GuaranteeCheck,
    ProductPriorCheck,
    check_guarantee,
    check_product_prior,
    guarantee_from_normal,
    parity_structure,
    semantics,
)

__all__ = [
    "Guarantee",
    "GuaranteeCheck",
    "ProductPriorCheck",
    "semantics",
    "guarantee_from_normal",
    "check_guarantee",
    "check_product_prior",
    "parity_structure",
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
]
