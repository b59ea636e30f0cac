"""Database-wise δ (Definition 2) and Theorem 1 against brute force over events, exactly."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from privgeom.testing import database_delta_brute, event_distance, random_mechanism

from privgeom import (
    DomainMismatchError,
    FormatError,
    InvalidParameterError,
    LogRational,
    Mechanism,
    randomized_response,
)
import privgeom as pg
from privgeom.smoothed import database_delta, majority_vote, paper, shm


@given(
    seed=st.integers(0, 10_000), n=st.integers(1, 3), k=st.integers(2, 3), ratio=st.sampled_from(["1", "3/2", "2", "5"])
)
def test_database_delta_matches_event_brute_force(seed: int, n: int, k: int, ratio: str) -> None:
    if k**n > 27:
        n = 2
    M = random_mechanism(seed, n=n, records=k, outputs=3)
    r = database_delta(M, f"ln({ratio})")
    assert r.exact
    points = M.domain.points  # the records of each column, from the mechanism's Domain
    cols = {p: list(M.matrix[:, i]) for i, p in enumerate(points)}
    ref = database_delta_brute(cols, Fraction(ratio), k)
    for i, p in enumerate(points):
        assert r.values[i] == ref[p]
    assert r.delta == max(ref.values())


@given(seed=st.integers(0, 10_000), ratio=st.sampled_from(["1", "2", "4"]))
def test_theorem1_holds_exactly(seed: int, ratio: str) -> None:
    c = paper.check("Theorem 1", random_mechanism(seed, n=2, records=2, outputs=4), f"ln({ratio})")
    assert c.holds and c.exact and c.lhs == c.rhs


def test_randomized_response_closed_form() -> None:
    # RR on k bits at ε = ln(e): δ(x) = max over one flipped bit of Σ (p - e(1-p))_+ …; closed form via events
    p = Fraction(3, 4)
    for ratio in (Fraction(1), Fraction(2), Fraction(3)):
        r = database_delta(randomized_response(2, p), LogRational(ratio))
        # neighbours differ in one bit; the other bit factors out: d = (p - e(1-p))_+ + ((1-p) - e p)_+
        expected = max(p - ratio * (1 - p), Fraction(0)) + max((1 - p) - ratio * p, Fraction(0))
        assert set(r.values) == {expected}
        assert r.delta == expected


def test_noiseless_majority_is_one_at_pivotal_profiles() -> None:
    r = database_delta(majority_vote(3, inputs="database"), "ln(7)")
    for lab, v in zip(r.inputs, r.values):
        ones = lab.count("1")
        assert v == (1 if ones in (1, 2) else 0)


def test_count_histogram_and_database_inputs_agree() -> None:
    e = "ln(3/2)"
    by_count = database_delta(shm(4, 2, inputs="count"), e)
    by_hist = database_delta(shm(4, 2, inputs="histogram"), e)
    by_db = database_delta(shm(4, 2, inputs="database"), e)
    hist = dict(zip(by_hist.inputs, by_hist.values))
    for lab, v in zip(by_count.inputs, by_count.values):
        assert hist[f"[{4 - int(lab)},{lab}]"] == v
    for lab, v in zip(by_db.inputs, by_db.values):
        ones = lab.count("1")
        assert by_count.at(str(ones)) == v


def test_float_mode_and_x() -> None:
    M = shm(5, 3, inputs="count")
    exact = database_delta(M, "ln(2)")
    flt = database_delta(M, math.log(2))
    assert not flt.exact
    assert all(abs(float(a) - b) < 1e-12 for a, b in zip(exact.values, flt.values))
    one = database_delta(M, "ln(2)", x="2")
    assert one.value == exact.at("2") and one.x == "2"
    assert "δ(2)" in str(one)


def test_custom_graph_and_errors() -> None:
    M = Mechanism([["3/4", "1/4", "1/2"], ["1/4", "3/4", "1/2"]], inputs=["a", "b", "c"])
    G = nx.Graph([("a", "b")])
    r = database_delta(M, 0, graph=G)
    assert r.values == (Fraction(1, 2), Fraction(1, 2), Fraction(0))
    with pytest.raises(FormatError):
        database_delta(Mechanism([[1, 0], [0, 1]], inputs=["(0,1)", "(0,1,1)"]), 0)
    with pytest.raises(DomainMismatchError):
        database_delta(shm(3, 1, inputs="count"), 0, x="7")
    with pytest.raises(InvalidParameterError):
        database_delta(M, -1)
    with pytest.raises(InvalidParameterError):
        database_delta(M, 0, graph="nonsense")


def test_eps_parsing_and_inputs() -> None:
    assert database_delta(randomized_response(1, "3/4"), "ln(51/49)").level.exp_eps == Fraction(51, 49)
    assert database_delta(randomized_response(1, "3/4"), 0).level.exp_eps == Fraction(1)
    # the hockey stick of P = (1/2, 1/2) against Q = (1/4, 3/4) at e^ε = 1 is the total variation 1/4, both ways
    pair = Mechanism([[0.5, 0.25], [0.5, 0.75]], inputs=["p", "q"])
    assert pg.delta(pair, "complete", exp_eps=1.0).value == pytest.approx(0.25)
    assert event_distance([Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)], Fraction(5)) == 1


def test_string_databases_use_hamming_neighbours() -> None:
    r = database_delta(randomized_response(3, "2/3"), "ln(1)")
    # TV between outputs of datasets at Hamming distance 1 is 2p-1 = 1/3
    assert set(r.values) == {Fraction(1, 3)}
    labels = ["".join(b) for b in itertools.product("10", repeat=3)]
    assert set(r.worst) <= set(labels)
