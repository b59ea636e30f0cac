"""Every projection method (``Cone.project``, pair bounds, every ``relax`` route) runs through the shared
projection contract (:mod:`privgeom.testing`) on the same cases: randomized response on 1–3 bits onto
Hamming pairs and other subsets, ε-DP on small graphs, the truncated geometric definition, a random finite
definition, in exact and float mode."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import networkx as nx

from privgeom.testing import ProjectionCase, ProjectionContract

import privgeom as pg
from privgeom.definitions import FiniteDefinition, parse_definition


def _hamming_and(*more: tuple[int, ...]):
    """Hamming pairs of bit-string labels plus the subsets at the given positions of the label list."""

    def subsets(labels: tuple[str, ...]) -> list[tuple[str, ...]]:
        out = [(a, b) for a, b in itertools.combinations(labels, 2) if sum(x != y for x, y in zip(a, b)) == 1]
        return out + [tuple(labels[i] for i in pos) for pos in more if max(pos) < len(labels)]

    return subsets


def _pairs_and(*more: tuple[int, ...]):
    def subsets(labels: tuple[str, ...]) -> list[tuple[str, ...]]:
        return list(itertools.combinations(labels, 2)) + [
            tuple(labels[i] for i in pos) for pos in more if max(pos) < len(labels)
        ]

    return subsets


def _random_finite(seed: int, n_inputs: int = 3, n_outputs: int = 3, count: int = 2) -> FiniteDefinition:
    """``count`` random exact mechanisms with small denominators (columns sum to 1)."""
    rng = random.Random(seed)
    mechs = []
    for _ in range(count):
        cols = []
        for _ in range(n_inputs):
            w = [rng.randint(1, 6) for _ in range(n_outputs)]
            cols.append([F(v, sum(w)) for v in w])
        mat = [[cols[j][i] for j in range(n_inputs)] for i in range(n_outputs)]
        mechs.append(pg.Mechanism(mat, inputs=[f"d{j}" for j in range(n_inputs)]))
    return FiniteDefinition(mechs)


def _cycle(n: int) -> nx.Graph:
    return nx.cycle_graph([str(i) for i in range(n)])


CASES = [
    ProjectionCase("rr1", lambda: pg.RandomizedResponse(1, "3/4"), _hamming_and((0,), (0, 1))),
    ProjectionCase(
        "rr2",
        lambda: pg.RandomizedResponse(2, "2/3"),
        _hamming_and((0, 3), (0, 1, 2), (3,)),
        families=("hamming", "all-pairs", "triples"),
    ),
    ProjectionCase(
        "rr3",
        lambda: pg.RandomizedResponse(3, "3/4"),
        _hamming_and((0, 7), (0, 3, 5), (1, 2, 4, 7)),
        families=("hamming", [("111", "000"), ("110", "001")]),
    ),
    ProjectionCase(
        "rr2-float",
        lambda: pg.RandomizedResponse(2, 0.75),
        _hamming_and((0, 3), (0, 1, 2)),
        families=("hamming", "all-pairs"),
    ),
    ProjectionCase(
        "dp-path3",
        lambda: parse_definition("dp:graph=path,n=2,exp_eps=2"),
        _pairs_and((0, 1, 2)),
        families=("all-pairs", [("0", "1"), ("1", "2")], "triples"),
    ),
    ProjectionCase(
        "dp-cycle4",
        lambda: pg.DifferentialPrivacy(_cycle(4), exp_eps=3),
        _pairs_and((0, 1, 2), (0, 2)),
        families=("all-pairs", [("0", "1"), ("1", "2"), ("2", "3"), ("3", "0")]),
    ),
    ProjectionCase(
        "dp-hamming2-float",
        lambda: parse_definition("dp:graph=hamming,k=2,exp_eps=2").row_cone().to_float(),
        _hamming_and((0, 3), (0, 1, 2)),
        families=("hamming", "all-pairs"),
    ),
    ProjectionCase(
        "geometric3",
        lambda: parse_definition("geometric:n=3,alpha=1/2"),
        _pairs_and((0, 2, 3)),
        families=("all-pairs", [("0", "1"), ("1", "2"), ("2", "3")]),
    ),
    ProjectionCase(
        "finite-random", lambda: _random_finite(7), _pairs_and((0, 1, 2)), families=("all-pairs", "triples")
    ),
    ProjectionCase(
        "finite-random-float", lambda: _random_finite(11).row_cone().to_float(), _pairs_and(), families=("all-pairs",)
    ),
]


class TestProjectionContract(ProjectionContract):
    @classmethod
    def cases(cls) -> list[ProjectionCase]:
        return CASES
