"""Shuffled and subsampled definitions: row cone, semantics and DP sandwich against independent computations."""

from __future__ import annotations

from fractions import Fraction as F

import privgeom as pg
from privgeom.amplification import amplification_report


def test_shuffled_binary_rr_over_four_users() -> None:
    S = pg.shuffled(pg.randomized_response(1, "3/4"), 4)
    r = amplification_report(S)
    assert r.n_facets == 5 and r.n_guarantees == 5 and r.exact
    # the outer level is the pure ε of the tally, which shuffling does not reduce (docs/theory.md §18.3)
    assert r.sandwich.outer.exp_eps == 3 == pg.epsilon(S.mechanism(), S.relation()).level.exp_eps
    assert r.local_level.exp_eps == 3
    # the inner level: every ε-DP mechanism at e^ε = 17/15 is in the closure (just above it a DP ray leaves)
    assert r.sandwich.inner.exp_eps == F(17, 15)
    assert r.definition.contains(S.mechanism()).member  # the generator itself
    # every facet is a valid guarantee of the generator: its row-cone inequality holds on every output row
    cone = r.definition.row_cone()
    M = S.mechanism()
    for row in M.matrix:
        assert cone.contains(list(row)).member


def test_subsampled_definition_sits_between_dp_levels() -> None:
    dom = pg.Domain.histograms(1, 2, up_to=True)
    M = pg.Mechanism([["3/4", "1/4", "1/4"], ["1/4", "3/4", "3/4"]], dom)
    S = pg.subsampled(M, rate="1/10")
    r = amplification_report(S, "add-remove", local=M, local_graph="add-remove")
    assert r.local_level.exp_eps == 3 and r.sandwich.outer.exp_eps == F(6, 5)
    assert r.sandwich.inner.exp_eps <= r.sandwich.outer.exp_eps
