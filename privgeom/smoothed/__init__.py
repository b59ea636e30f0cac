"""Smoothed differential privacy (Liu, Wang & Xia, *Smoothed Differential Privacy*, TMLR 2023; arXiv 2107.01559).

- :func:`database_delta` — the database-wise privacy parameter ``δ_{ε,M}(x)`` (Definition 2, Theorem 1);
- :func:`smoothed_delta` — ``max_{π ∈ Π^n} E_{x~π}[δ(x)]`` (Definition 3) with distribution reduction
  (Proposition 5) and its maximiser;
- :func:`shm`, :func:`shm_smoothed_delta`, :func:`shm_database_delta` — the sampling-histogram mechanism as a
  matrix (small ``n``) and a fast exact path for large ``n`` (Theorem 2);
- property checks (Propositions 1–5) and the paper's experiments.
"""

from ._catalogue import database_labels, histogram_labels, joint, majority_vote, precompose, push_forward, sampling_sum, shm
from ._database import DatabaseDelta, InputSpace, database_delta, directed_distance, parse_inputs
from ._experiments import (
    ExperimentResult,
    election_vertices,
    elections_experiment,
    load_elections,
    load_jurisdictions,
    motivating_experiment,
    sgd_experiment,
    theorem3_experiment,
)
from ._properties import (
    PropertyCheck,
    check_composition,
    check_distribution_reduction,
    check_dp_implies_smoothed,
    check_post_processing,
    check_pre_processing,
    check_theorem1,
    random_distributions,
    random_mechanism,
)
from ._reduction import hull_vertices, tv_distance
from ._shm import SHMDatabaseDelta, SHMSmoothedDelta, shm_database_delta, shm_smoothed_delta
from ._smoothed import SmoothedDelta, expected_delta, smoothed_delta

__all__ = [
    "database_delta",
    "DatabaseDelta",
    "smoothed_delta",
    "SmoothedDelta",
    "expected_delta",
    "shm",
    "shm_smoothed_delta",
    "SHMSmoothedDelta",
    "shm_database_delta",
    "SHMDatabaseDelta",
    "majority_vote",
    "sampling_sum",
    "joint",
    "precompose",
    "push_forward",
    "histogram_labels",
    "database_labels",
    "PropertyCheck",
    "check_theorem1",
    "check_dp_implies_smoothed",
    "check_post_processing",
    "check_composition",
    "check_pre_processing",
    "check_distribution_reduction",
    "random_mechanism",
    "random_distributions",
    "elections_experiment",
    "motivating_experiment",
    "sgd_experiment",
    "theorem3_experiment",
    "ExperimentResult",
    "load_elections",
    "load_jurisdictions",
    "election_vertices",
    "hull_vertices",
    "tv_distance",
    "directed_distance",
    "parse_inputs",
    "InputSpace",
]
