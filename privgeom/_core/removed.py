"""Public names removed in 0.2, each with its replacement: reading one raises an ``AttributeError`` that names it.

Release 0.2 cut the public surface from 251 names to about 120 (``CHANGELOG.md`` has the table). For one release a
removed name does not fail with a bare "has no attribute": the package's PEP 562 ``__getattr__`` looks the name up
in :data:`REMOVED` and raises ``AttributeError("privgeom.hamming_graph was removed in 0.2; use …")``, as networkx
does for its removed names. ``hasattr`` stays False and nothing old is importable: the message only points the way.
The table goes away in 0.3.

Result types that users only receive moved to :mod:`privgeom.results`; kernels, formatters and helpers became
private (their answers are reached through the public functions named here); the paper checks became tables
(``voting.paper.CHECKS``, ``smoothed.paper.CHECKS``).

Methods that moved out of their class answer the same way: :data:`REMOVED_METHODS` names them and a
:class:`RemovedMethod` in the class body raises ``AttributeError("PrivacyDefinition.without was removed in 0.2; use
…")`` on every read, from the class or an instance (``hasattr`` is False there too). The design operations
``without``, ``only`` and ``from_guarantees`` are functions of ``analyses/design`` (``pg.without(d, ...)``), not
methods of the definition classes.

Examples
--------
>>> err = removed_name_error("privgeom", "hamming_graph")
>>> print(err)
privgeom.hamming_graph was removed in 0.2; use pg.neighbour_graph("hamming", pg.Domain.bits(k))
>>> print(removed_name_error("privgeom", "no_such_name"))
module 'privgeom' has no attribute 'no_such_name'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NoReturn

__all__ = ["REMOVED", "REMOVED_METHODS", "RemovedMethod", "removed_name_error", "removed_names_getattr"]

_RESULTS = "privgeom.results.{}"


def _results(names: str) -> dict[str, str]:
    """Result types now public in :mod:`privgeom.results` (users receive them; ``isinstance`` and docs there)."""
    return {name: _RESULTS.format(name) for name in names.split()}


#: ``package -> {removed name: what to use instead}``, the package as ``"privgeom"`` or its subpackage's short name
#: (``"graphs"`` is ``privgeom.graphs``: the base layer names no higher module); ``pg`` is ``import privgeom as pg``.
REMOVED: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "privgeom": MappingProxyType(
            {
                **_results(
                    "ClosureWitness Comparison ConeMembership Containment DPBounds DeltaCurve DeltaResult "
                    "EpsilonResult LeastInformative MixingThreshold Nearest OptimalMechanism Orbit RayOrbits "
                    "RedundantGuarantee RowCertificate RowWitness SeparatingCertificate SymbolicRowCone "
                    "SymmetryGroup Limits LimitInfo"
                ),
                "Repair": "privgeom.results.Nearest (what d.nearest(M) returns)",
                "IntColumns": "Mechanism.matrix (an exact mechanism keeps its integer columns internally)",
                "bit_strings": "pg.Domain.bits(k).labels",
                "hamming_graph": 'pg.neighbour_graph("hamming", pg.Domain.bits(k))',
                "path_graph": 'pg.neighbour_graph("path", pg.Domain.counts(n))',
                "complete_graph": 'pg.neighbour_graph("complete", labels)',
                "resolve_graph": "pg.neighbour_graph(relation, inputs)",
            }
        ),
        "analyses": MappingProxyType(
            {
                **_results(
                    "Comparison DPBounds DeltaCurve DeltaPiece DeltaResult EpsilonResult FacetOrbit GuaranteeCheck "
                    "Inclusion InclusionWitness KOVRegimes LeastInformative OptimalMechanism OptimalityCertificate "
                    "PairBound ProductPriorCheck RedundantGuarantee RowConeSummary StaircaseOptimum UtilityGap"
                ),
                "RowUtility": 'pg.optimal_mechanism(d, utility=...) (a utility is "accuracy", a matrix or a callable)',
                "bayes_utility": "pg.optimal_mechanism(d, utility=..., prior=...)",
                "mutual_information_utility": 'pg.optimal_mechanism(d, objective="information")',
                "utility_matrix": "pg.optimal_mechanism(d, utility=...)",
                "FAMILIES": "pg.relax(d, family) with a relation name or a list of dataset subsets",
                "RELATIONS": "pg.compare(a, b).relation",
                "subset_family": "pg.relax(d, family)",
                "extreme_mechanisms": "pg.compare(a, b) (its witness is an extreme mechanism)",
                "generating_mechanisms": "pg.least_informative(d) or d.row_cone()",
                "inclusion": "pg.compare(a, b)",
                "hockey_stick": "pg.delta(M, eps, graph)",
                "hockey_stick_columns": "pg.delta(M, eps, graph)",
                "hockey_stick_event": "pg.delta(M, eps, graph).witness",
                "guarantee_from_normal": "pg.semantics(d) (its guarantees) or pg.check_guarantee",
                "format_facet": "str() of a guarantee from pg.semantics(d)",
                "format_vector": "pg.describe_row_cone(d)",
                "inequality_text": "str() of pg.compare(a, b)",
                "listed_facets": "pg.describe_row_cone(d)",
                "parity_structure": "pg.check_product_prior(d, ...)",
            }
        ),
        "definitions": MappingProxyType(
            {
                **_results(
                    "ClosureWitness CompletionWitness HockeyStickCertificate HockeyStickWitness MixingThreshold "
                    "Nearest NearestCertificate RayOrbits RowCertificate RowWitness SeparatingCertificate"
                ),
                "Repair": "privgeom.results.Nearest (what d.nearest(M) returns)",
                "ClosedFormDefinition": "pg.FiniteDefinition (or pg.parse_definition)",
                "LocalProtocol": 'pg.parse_definition("oue:d=4,eps=1") and the other local-protocol spec kinds',
                "definition_kinds": "pg.parse_definition (an unknown kind's error lists the known kinds)",
                "register_definition_kind": "pg.PrivacyDefinition (subclass it and build the definition directly)",
                "dp_cone_rays": "pg.DifferentialPrivacy(...).row_cone().rays or pg.dp_ray_orbits",
                "dp_ray_patterns": "pg.dp_ray_orbits(graph)",
                "hypercube_dp_ray_count": "pg.dp_ray_orbits(graph).n_rays",
                "nearest": "the definition's method (d.nearest(M))",
            }
        ),
        "geometry": MappingProxyType(
            {
                **_results("ConeMembership Containment Orbit SymmetryGroup"),
                "PROJECTION_METHODS": "Cone.project(..., method=...) (an unknown method's error lists them)",
            }
        ),
        "mechanisms": MappingProxyType(
            {
                "IntColumns": "Mechanism.matrix (an exact mechanism keeps its integer columns internally)",
                "JSON_SCHEMA": "Mechanism.to_json() and Mechanism.from_json() (the document names its format and version)",
                "bit_strings": "pg.Domain.bits(k).labels",
                "frapp_matrix": "pg.frapp(N, gamma).matrix",
            }
        ),
        "graphs": MappingProxyType(
            {
                "hamming_graph": 'pg.neighbour_graph("hamming", pg.Domain.bits(k))',
                "path_graph": 'pg.neighbour_graph("path", pg.Domain.counts(n))',
                "complete_graph": 'pg.neighbour_graph("complete", labels)',
            }
        ),
        "voting": MappingProxyType(
            {
                **_results(
                    "Banzhaf BoundAttainment FourierSpectrum Influences MajorityAccuracy TheoremCheck VotingEpsilon"
                ),
                "weighted_majority": "voting.majority(n, weights=...)",
                "weighted_threshold": "voting.threshold(n, theta, weights=...)",
                "constant": "voting.Rule.constant",
                "symmetric": "voting.Rule.symmetric",
                "from_truth_table": "voting.Rule.from_truth_table",
                "from_function": "voting.Rule.from_function",
                "total_influence": "voting.influence(f).total",
                "total_probabilistic_influence": "voting.probabilistic_influence(f, rho).total",
                "epsilon_bound": "voting.epsilon(f, rho).bound",
                "attains_bound": "voting.paper.attains_bound",
                "majority_accuracy_limit": 'voting.paper.CHECKS["Equation (3)"]',
                "majority_accuracy_bounds": "voting.paper.majority_accuracy_bounds",
                "majority_accuracy_data": "voting.paper.majority_accuracy_data",
                "majority_accuracy_figure": "voting.paper.majority_accuracy_figure",
                "save_majority_accuracy_figure": "voting.paper.majority_accuracy_figure(..., path=...)",
                "paper_recursion_accuracy": 'voting.accuracy(f, rho, method="recursion")',
                "check_all": "voting.paper.check_all",
                "check_epsilon_bound": 'voting.paper.CHECKS["Proposition 2"]',
                "check_bound_attainment": 'voting.paper.CHECKS["Remark 1"]',
                "check_probabilistic_influence": 'voting.paper.CHECKS["Theorem 3"]',
                "check_majority_maximises_welfare": 'voting.paper.CHECKS["Proposition 4"]',
                "check_monotone_welfare": 'voting.paper.CHECKS["Proposition 5"]',
                "check_noisy_welfare": 'voting.paper.CHECKS["Theorem 6"]',
                "check_welfare_fourier": 'voting.paper.CHECKS["Lemma 10"]',
                "check_accuracy_stability": 'voting.paper.CHECKS["Equation (1)"]',
                "check_stability_noise_operator": 'voting.paper.CHECKS["Equation (2)"]',
                "check_majority_accuracy_limit": 'voting.paper.CHECKS["Equation (3)"]',
                "check_accuracy_closed_form": 'voting.paper.CHECKS["Section 6"]',
            }
        ),
        "smoothed": MappingProxyType(
            {
                "SHMDatabaseDelta": "privgeom.results.DatabaseDelta (one result type per quantity, whatever the method)",
                "SHMSmoothedDelta": "privgeom.results.SmoothedDelta (one result type per quantity, whatever the method)",
                "shm_database_delta": 'smoothed.database_delta(smoothed.SamplingHistogram(n, T), ..., method="shm")',
                "shm_smoothed_delta": 'smoothed.smoothed_delta(smoothed.SamplingHistogram(n, T), ..., method="shm")',
                "ExperimentResult": "smoothed.paper.ExperimentResult",
                "PropertyCheck": "smoothed.paper.PropertyCheck",
                "check_dp_delta": 'smoothed.paper.check("Theorem 1", ...)',
                "check_dp_implies_smoothed": 'smoothed.paper.check("Proposition 1", ...)',
                "check_post_processing": 'smoothed.paper.check("Proposition 2", ...)',
                "check_composition": 'smoothed.paper.check("Proposition 3", ...)',
                "check_pre_processing": 'smoothed.paper.check("Proposition 4", ...)',
                "check_distribution_reduction": 'smoothed.paper.check("Proposition 5", ...)',
                "elections_experiment": 'smoothed.paper.experiment("elections", out)',
                "motivating_experiment": 'smoothed.paper.experiment("motivating", out)',
                "sgd_experiment": 'smoothed.paper.experiment("sgd", out)',
                "sampling_sum_experiment": 'smoothed.paper.experiment("theorem3", out)',
                "load_elections": 'smoothed.paper.experiment("elections", out) (the data ships in privgeom/data)',
                "load_jurisdictions": 'smoothed.paper.experiment("elections", out) (the data ships in privgeom/data)',
                "election_vertices": 'smoothed.paper.experiment("elections", out)',
                "sampling_sum": "smoothed.shm (the sampling-histogram mechanism)",
                "joint": 'smoothed.paper.check("Proposition 3", ...) (composition)',
                "precompose": 'smoothed.paper.check("Proposition 4", ...) (pre-processing)',
                "push_forward": 'smoothed.paper.check("Proposition 4", ...) (pre-processing)',
            }
        ),
        "sweeps": MappingProxyType(
            {
                "QUERIES": "pg.sweep(template, grid, query) (an unknown query's error lists the names)",
                "Query": "pg.sweeps.register_query",
                "template_fields": "pg.sweep(template, grid, query) (the template's fields are the grid's axes)",
            }
        ),
        "plots": MappingProxyType(
            {
                "cone_slice": "pg.plot(cone, coords, mechanism=M)",
                "cone_slices": "pg.plot(cone, triples=[...], mechanism=M)",
                "plot_delta_curve": "pg.plot(pg.delta_curve(M, graph))",
                "plot_kov_regimes": "pg.plot(pg.kov_regimes(...))",
                "plot_privacy_profiles": "pg.plot({name: mechanism, ...}, graph)",
                "plot_sweep": "pg.plot(frame, axes, field)",
                "save_sweep_plot": "pg.plot(frame, axes, field, path=...)",
            }
        ),
    }
)


#: ``class -> {removed method: what to use instead}`` for the methods that became functions (one release).
REMOVED_METHODS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "PrivacyDefinition": MappingProxyType(
            {
                "without": "pg.without(definition, facets, orbits=...)",
                "only": "pg.only(definition, predicate)",
            }
        ),
        "ConeDefinition": MappingProxyType({"from_guarantees": "pg.from_guarantees(guarantees, inputs)"}),
    }
)


def _removed(owner: str, name: str, use: str) -> AttributeError:
    return AttributeError(f"{owner}.{name} was removed in 0.2; use {use}")


def removed_name_error(package: str, name: str) -> AttributeError:
    """The ``AttributeError`` for reading ``package.name``: the replacement when the name was removed in 0.2."""
    use = REMOVED.get(package.removeprefix("privgeom."), {}).get(name)
    if use is None:
        return AttributeError(f"module {package!r} has no attribute {name!r}")
    return _removed(package, name, use)


class RemovedMethod:
    """A class attribute standing for a removed method (:data:`REMOVED_METHODS`): every read, from the class or an
    instance, raises the ``AttributeError`` that names the replacement.

    The class that defines the attribute names it in the message (a subclass inherits the answer).

    Examples
    --------
    >>> class PrivacyDefinition:
    ...     without = RemovedMethod()
    >>> PrivacyDefinition().without([0])
    Traceback (most recent call last):
        ...
    AttributeError: PrivacyDefinition.without was removed in 0.2; use pg.without(definition, facets, orbits=...)
    >>> hasattr(PrivacyDefinition, "without")
    False
    """

    owner = ""
    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        if name not in REMOVED_METHODS.get(owner.__name__, {}):
            raise TypeError(f"{owner.__name__}.{name} is not in REMOVED_METHODS (add it with its replacement)")
        self.owner, self.name = owner.__name__, name

    def __get__(self, instance: object, owner: type | None = None) -> NoReturn:
        raise _removed(self.owner, self.name, REMOVED_METHODS[self.owner][self.name])


def removed_names_getattr(package: str) -> Callable[[str], NoReturn]:
    """A PEP 562 ``__getattr__`` for a package without lazy names: every miss raises :func:`removed_name_error`.

    Examples
    --------
    >>> getattr_ = removed_names_getattr("privgeom.graphs")
    >>> getattr_("path_graph")
    Traceback (most recent call last):
        ...
    AttributeError: privgeom.graphs.path_graph was removed in 0.2; use pg.neighbour_graph("path", pg.Domain.counts(n))
    """

    def __getattr__(name: str) -> NoReturn:
        raise removed_name_error(package, name)

    return __getattr__
