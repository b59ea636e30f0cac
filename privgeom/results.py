"""The result types privgeom returns: one place to ``isinstance`` them and read their documentation.

Every analysis answers with an immutable, printable, JSON-serialisable result (a frozen dataclass inheriting
:class:`Result`). The types live next to the code that builds them; this module names them all, so a user can write
``isinstance(r, privgeom.results.DeltaResult)`` and the API reference has one page per type. Importing this module
is cheap: each type loads with its module on first use.

The vocabulary every result speaks:

- a yes/no result is a :class:`Decision`: ``.holds`` is the answer (True, False, or None when undecided) and
  ``bool(r)`` is ``r.holds``; the membership results (:class:`Membership`, :class:`ConeMembership`) also answer
  with the domain word ``.member`` — the same value; ``.holds`` is the primary name;
- a result whose answer is one number has ``.value``, and its class attribute ``unit`` says what the number is
  (a probability, an ε as a :class:`~privgeom.PrivacyLevel`, nats, …);
- ``to_dict()`` gives plain JSON data and ``from_dict(data)`` reads it back; ``to_json()`` gives JSON text (a
  ``str``) and ``from_json(text)`` reads it back;
- a result whose answer is a privacy level states it as ``.level``, a :class:`~privgeom.PrivacyLevel` (whose type
  is the unit: ε and ``e^ε``, exact when rational);
- tolerances: a constructor stores its absolute tolerance ``atol`` (default ``1e-9``); every call on or about an
  object takes ``atol=None``, meaning the object's own, or a number to override it. Exact (Fraction) inputs ignore
  it. The only relative tolerance is the ``rtol`` of a search that stops when it cannot improve by more than that
  fraction (:func:`privgeom.smoothed.smoothed_delta`).

Examples
--------
>>> import privgeom as pg
>>> from privgeom import results
>>> m = pg.RandomizedResponse(2, "3/4").contains(pg.randomized_response(2, "2/3"))
>>> isinstance(m, results.Membership), isinstance(m, results.Decision), m.holds, m.member
(True, True, True, True)
>>> d = pg.delta(pg.randomized_response(1, "3/4"), "hamming", "ln(2)")
>>> isinstance(d, results.DeltaResult), d.value, d.unit.split(":")[0]
(True, Fraction(1, 4), 'probability')
>>> results.DeltaResult.from_json(d.to_json()) == d
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._core.lazy import lazy_exports

if TYPE_CHECKING:
    from ._core.limits import LimitInfo, Limits
    from ._core.results import Decision, Quantity, Result
    from .analyses.comparison._compare import Comparison, Inclusion
    from .analyses.comparison._witness import InclusionWitness
    from .analyses.design._design import RedundantGuarantee
    from .analyses.design._dp_bounds import DPBounds
    from .analyses.guarantees._semantics import Guarantee, GuaranteeCheck, ProductPriorCheck
    from .analyses.guarantees._summary import FacetOrbit, RowConeSummary
    from .analyses.guarantees._symbolic import SymbolicRowCone
    from .analyses.optimal._information import LeastInformative
    from .analyses.optimal._results import (
        KOVRegimes,
        LPSize,
        OptimalityCertificate,
        OptimalMechanism,
        StaircaseOptimum,
    )
    from .analyses.profiles._hockey_stick import DeltaResult
    from .analyses.profiles._ldp_gap import UtilityGap
    from .analyses.profiles._profile_curve import DeltaCurve, DeltaPiece
    from .analyses.profiles._pure_dp import EpsilonResult
    from .analyses.relaxation._difference_system import ImpliedPair
    from .analyses.relaxation._lost import FacetStatus
    from .analyses.relaxation._relax_results import PairBound, Relaxation
    from .definitions._approx_dp import HockeyStickCertificate, HockeyStickWitness
    from .definitions._membership import (
        ClosureWitness,
        CompletionWitness,
        Membership,
        Nearest,
        NearestCertificate,
        RowCertificate,
        RowWitness,
        SeparatingCertificate,
    )
    from .definitions._mixing import MixingThreshold
    from .definitions._ray_orbits import RayOrbits
    from .geometry._cone_results import ConeMembership, Containment
    from .geometry._groups import Orbit, SymmetryGroup
    from .smoothed._experiments import ExperimentResult
    from .smoothed._properties import PropertyCheck
    from .smoothed._results import DatabaseDelta, SmoothedDelta
    from .voting._accuracy import MajorityAccuracy
    from .voting._banzhaf import Banzhaf
    from .voting._fourier import FourierSpectrum
    from .voting._influence import Influences
    from .voting._mechanism import BoundAttainment, VotingEpsilon
    from .voting.paper import TheoremCheck

#: Where each result type lives: ``module -> names`` (the table :func:`~privgeom._core.lazy.lazy_exports` reads).
_WHERE = {
    "privgeom._core.results": "Result Decision Quantity",
    "privgeom._core.limits": "Limits LimitInfo",
    "privgeom.definitions._membership": (
        "Membership Nearest NearestCertificate ClosureWitness CompletionWitness RowWitness "
        "RowCertificate SeparatingCertificate"
    ),
    "privgeom.definitions._approx_dp": "HockeyStickWitness HockeyStickCertificate",
    "privgeom.definitions._mixing": "MixingThreshold",
    "privgeom.definitions._ray_orbits": "RayOrbits",
    "privgeom.geometry._cone_results": "ConeMembership Containment",
    "privgeom.geometry._groups": "SymmetryGroup Orbit",
    "privgeom.analyses.profiles._pure_dp": "EpsilonResult",
    "privgeom.analyses.profiles._hockey_stick": "DeltaResult",
    "privgeom.analyses.profiles._profile_curve": "DeltaCurve DeltaPiece",
    "privgeom.analyses.profiles._ldp_gap": "UtilityGap",
    "privgeom.analyses.relaxation._relax_results": "Relaxation PairBound",
    "privgeom.analyses.relaxation._lost": "FacetStatus",
    "privgeom.analyses.relaxation._difference_system": "ImpliedPair",
    "privgeom.analyses.guarantees._semantics": "Guarantee GuaranteeCheck ProductPriorCheck",
    "privgeom.analyses.guarantees._summary": "RowConeSummary FacetOrbit",
    "privgeom.analyses.guarantees._symbolic": "SymbolicRowCone",
    "privgeom.analyses.comparison._compare": "Comparison Inclusion",
    "privgeom.analyses.comparison._witness": "InclusionWitness",
    "privgeom.analyses.optimal._results": "OptimalMechanism OptimalityCertificate StaircaseOptimum KOVRegimes LPSize",
    "privgeom.analyses.optimal._information": "LeastInformative",
    "privgeom.analyses.design._design": "RedundantGuarantee",
    "privgeom.analyses.design._dp_bounds": "DPBounds",
    "privgeom.voting._accuracy": "MajorityAccuracy",
    "privgeom.voting._banzhaf": "Banzhaf",
    "privgeom.voting._fourier": "FourierSpectrum",
    "privgeom.voting._influence": "Influences",
    "privgeom.voting._mechanism": "VotingEpsilon BoundAttainment",
    "privgeom.voting.paper": "TheoremCheck",
    "privgeom.smoothed._results": "DatabaseDelta SmoothedDelta",
    "privgeom.smoothed._properties": "PropertyCheck",
    "privgeom.smoothed._experiments": "ExperimentResult",
}

__all__ = [
    "Result",
    "Decision",
    "Quantity",
    "Limits",
    "LimitInfo",
    "Membership",
    "Nearest",
    "NearestCertificate",
    "ClosureWitness",
    "CompletionWitness",
    "RowWitness",
    "RowCertificate",
    "SeparatingCertificate",
    "HockeyStickWitness",
    "HockeyStickCertificate",
    "MixingThreshold",
    "RayOrbits",
    "ConeMembership",
    "Containment",
    "SymmetryGroup",
    "Orbit",
    "EpsilonResult",
    "DeltaResult",
    "DeltaCurve",
    "DeltaPiece",
    "UtilityGap",
    "Relaxation",
    "PairBound",
    "FacetStatus",
    "ImpliedPair",
    "Guarantee",
    "GuaranteeCheck",
    "ProductPriorCheck",
    "RowConeSummary",
    "FacetOrbit",
    "SymbolicRowCone",
    "Comparison",
    "Inclusion",
    "InclusionWitness",
    "OptimalMechanism",
    "OptimalityCertificate",
    "StaircaseOptimum",
    "KOVRegimes",
    "LPSize",
    "LeastInformative",
    "RedundantGuarantee",
    "DPBounds",
    "MajorityAccuracy",
    "Banzhaf",
    "FourierSpectrum",
    "Influences",
    "VotingEpsilon",
    "BoundAttainment",
    "TheoremCheck",
    "DatabaseDelta",
    "SmoothedDelta",
    "PropertyCheck",
    "ExperimentResult",
]

__getattr__, __dir__ = lazy_exports(__name__, globals(), _WHERE)
