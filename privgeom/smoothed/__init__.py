"""Smoothed differential privacy (Liu, Wang & Xia, *Smoothed Differential Privacy*, TMLR 2023; arXiv 2107.01559).

- :func:`database_delta` — the database-wise privacy parameter ``δ_{ε,M}(x)`` (Definition 2, Theorem 1);
- :func:`smoothed_delta` — ``max_{π ∈ Π^n} E_{x~π}[δ(x)]`` (Definition 3) with distribution reduction
  (Proposition 5) and its maximiser;
- :func:`shm`, :func:`shm_smoothed_delta`, :func:`shm_database_delta` — the sampling-histogram mechanism as a
  matrix (small ``n``) and a fast exact path for large ``n`` (Theorem 2);
- property checks (Theorem 1, Propositions 1–5) and the paper's experiments.

Database labels come from :class:`privgeom.Domain` (``Domain.databases``, ``Domain.histograms``,
``Domain.counts``); the hockey-stick distance of two distributions is :func:`privgeom.analyses.hockey_stick`.
"""

from ._catalogue import joint, majority_vote, precompose, push_forward, sampling_sum, shm
from ._database import DatabaseDelta, database_delta
from ._experiments import (
    ExperimentResult,
    election_vertices,
    elections_experiment,
    load_elections,
    load_jurisdictions,
    motivating_experiment,
    sampling_sum_experiment,
    sgd_experiment,
)
from ._properties import (
    PropertyCheck,
    check_composition,
    check_distribution_reduction,
    check_dp_delta,
    check_dp_implies_smoothed,
    check_post_processing,
    check_pre_processing,
)
from ._shm import SHMDatabaseDelta, SHMSmoothedDelta, shm_database_delta, shm_smoothed_delta
from ._smoothed import SmoothedDelta, expected_delta, smoothed_delta

__all__ = [
    # privacy parameters (Definitions 2 and 3, Theorem 1)
    "database_delta",
    "DatabaseDelta",
    "smoothed_delta",
    "SmoothedDelta",
    "expected_delta",
    # the sampling-histogram mechanism (Theorem 2): matrix for small n, fast exact paths for large n
    "shm",
    "shm_smoothed_delta",
    "SHMSmoothedDelta",
    "shm_database_delta",
    "SHMDatabaseDelta",
    # mechanisms and their combinations
    "majority_vote",
    "sampling_sum",
    "joint",
    "precompose",
    "push_forward",
    # the paper's properties as executable checks (paper numbers in the docstrings)
    "PropertyCheck",
    "check_dp_delta",  # Theorem 1
    "check_dp_implies_smoothed",  # Proposition 1
    "check_post_processing",  # Proposition 2
    "check_composition",  # Proposition 3
    "check_pre_processing",  # Proposition 4
    "check_distribution_reduction",  # Proposition 5
    # the paper's experiments and data
    "elections_experiment",
    "motivating_experiment",
    "sgd_experiment",
    "sampling_sum_experiment",
    "ExperimentResult",
    "load_elections",
    "load_jurisdictions",
    "election_vertices",
]
