"""Testing tools for privgeom and for code built on it: contract harnesses, independent oracles, work counters.

In the spirit of ``numpy.testing``: what privgeom's own test suite uses to hold every privacy definition, every
membership backend and every ε / δ fast path to the same checks, offered publicly so that a user who adds a
definition kind, a fast path or a projection method can run the same contract on it. Importing this module needs
``pytest`` (the ``[test]`` extra); ``import privgeom`` never imports it.

Contract harnesses (subclass one in a class whose name starts with ``Test`` and implement ``cases()``):

- :class:`DefinitionContract` with :class:`DefinitionCase` (``CASES``, ``CATALOGUE_CASES``): consistent-closure
  membership of every definition, with every witness and certificate re-verified independently;
- :class:`EpsilonContract` / :class:`DeltaContract` with :class:`ProfileCase`: an ε or δ fast path agrees with the
  generic route, with a genuine witness;
- :class:`ProjectionContract` with :class:`ProjectionCase`: every relaxation / projection method agrees (the methods
  it runs: :data:`PROJECTION_METHODS` of ``Cone.project``, :data:`RELAX_METHODS` of ``relax`` / ``relax_pairwise``).

Independent oracles (Fractions and enumeration, no code shared with the routes they check): the ``smoothed_*`` and
``voting`` brute-force references below.

Work counters (tests run on busy machines, so none asserts a wall-clock time): :func:`forbid`,
:func:`forbid_double_description`, :func:`forbid_dense_factored`,
:func:`count_calls`, :func:`peak_mib`, :func:`boom`, :func:`assert_cli_refused`.

Small builders tests need: :func:`hamming_graph`, :func:`path_graph`, :func:`complete_graph` (shorthands for
:func:`privgeom.neighbour_graph` on bits, counts and labels), :func:`bit_strings`, :func:`random_rule`.

Examples
--------
>>> from privgeom.testing import hamming_graph, bit_strings
>>> bit_strings(2), hamming_graph(2).number_of_edges()
(['11', '10', '01', '00'], 4)
"""

from __future__ import annotations

from pathlib import Path

from privgeom.graphs._graphs import complete_graph, hamming_graph, path_graph
from privgeom.mechanisms._factories import bit_strings
from privgeom.voting._rules import random_rule

from ._catalogue_cases import CATALOGUE_CASES, LDP_CASES
from ._definition_cases import CASES, DefinitionCase
from ._definition_contract import DefinitionContract, check_certificate, check_witness, definition
from ._profile_contract import DeltaContract, EpsilonContract, ProfileCase
from ._projection_contract import (
    PROJECTION_METHODS,
    RELAX_METHODS,
    ProjectionCase,
    ProjectionContract,
    generic_projection,
    pair_cone,
    same_level,
)
from ._smoothed_oracle import (
    database_delta_brute,
    event_distance,
    random_distributions,
    random_mechanism,
    smoothed_brute,
)
from ._voting_oracle import (
    brute_accuracy,
    brute_epsilon_ratio,
    brute_fourier,
    brute_influence,
    brute_rows,
    decimal_majority_accuracy,
    decimal_majority_edge_epsilon,
    profiles,
    transition,
    votes,
)
from ._work import (
    DOUBLE_DESCRIPTION,
    Forbidden,
    assert_cli_refused,
    boom,
    count_calls,
    forbid,
    forbid_dense_factored,
    forbid_double_description,
    peak_mib,
)

#: The folder of the data files the contract cases read (Pufferfish instances as JSON).
DATA: Path = Path(__file__).resolve().with_name("data")

__all__ = [
    # contract harnesses and their cases
    "DefinitionContract",
    "DefinitionCase",
    "CASES",
    "CATALOGUE_CASES",
    "LDP_CASES",
    "definition",
    "check_witness",
    "check_certificate",
    "EpsilonContract",
    "DeltaContract",
    "ProfileCase",
    "ProjectionContract",
    "ProjectionCase",
    "PROJECTION_METHODS",
    "RELAX_METHODS",
    "generic_projection",
    "pair_cone",
    "same_level",
    "DATA",
    # oracles
    "database_delta_brute",
    "event_distance",
    "random_distributions",
    "random_mechanism",
    "smoothed_brute",
    "brute_accuracy",
    "brute_epsilon_ratio",
    "brute_fourier",
    "brute_influence",
    "brute_rows",
    "decimal_majority_accuracy",
    "decimal_majority_edge_epsilon",
    "profiles",
    "transition",
    "votes",
    # work counters
    "Forbidden",
    "forbid",
    "forbid_double_description",
    "forbid_dense_factored",
    "DOUBLE_DESCRIPTION",
    "count_calls",
    "peak_mib",
    "boom",
    "assert_cli_refused",
    # builders
    "hamming_graph",
    "path_graph",
    "complete_graph",
    "bit_strings",
    "random_rule",
]
