"""Smoothed δ (Definition 3) with distribution reduction (Proposition 5), exactly against brute force over Π^n."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from privgeom.testing import database_delta_brute, random_distributions, random_mechanism, smoothed_brute

from privgeom import DomainMismatchError, InvalidParameterError, Mechanism, SizeLimitError
from privgeom.smoothed import expected_delta, majority_vote, shm, smoothed_delta
from privgeom.smoothed._reduction import hull_vertices, tv_distance
from privgeom.smoothed._reduction import compositions, grid_compositions, multinomial_law, parse_distributions


def _brute(M: Mechanism, ratio: Fraction, Pi: list, k: int) -> Fraction:
    # records per column: Domain.databases gives them; a bit string (Domain.bits) is its own records
    points = M.domain.points or tuple(tuple(int(b) for b in lab) for lab in M.inputs)
    cols = {p: list(M.matrix[:, i]) for i, p in enumerate(points)}
    return smoothed_brute(database_delta_brute(cols, ratio, k), Pi, M.domain.n, k)


@given(
    seed=st.integers(0, 10_000), n=st.integers(1, 3), anonymous=st.booleans(), ratio=st.sampled_from(["1", "2", "3"])
)
def test_general_mechanism_matches_brute_force(seed: int, n: int, anonymous: bool, ratio: str) -> None:
    M = random_mechanism(seed, n=n, records=2, outputs=3, anonymous=anonymous)
    Pi = random_distributions(seed, count=3, records=2)
    r = smoothed_delta(M, f"ln({ratio})", Pi)
    assert r.exact and r.error_bound == 0
    assert r.value == _brute(M, Fraction(ratio), Pi, 2)
    # the maximiser attains the value
    assert expected_delta(M, f"ln({ratio})", [list(v) for v in r.maximiser]) == r.value
    assert r.value <= r.dp_delta


@given(seed=st.integers(0, 10_000))
def test_three_records_two_agents(seed: int) -> None:
    M = random_mechanism(seed, n=2, records=3, outputs=2)
    Pi = random_distributions(seed, count=4, records=3)
    assert smoothed_delta(M, "ln(2)", Pi).value == _brute(M, Fraction(2), Pi, 3)


def test_histogram_input_equals_database_input() -> None:
    Pi = ["1/5", "1/2", "2/3"]
    for n, T in ((3, 2), (4, 1), (4, 3)):
        a = smoothed_delta(shm(n, T, inputs="count"), "ln(3/2)", Pi)
        b = smoothed_delta(shm(n, T, inputs="histogram"), "ln(3/2)", Pi)
        c = smoothed_delta(shm(n, T, inputs="database"), "ln(3/2)", Pi)
        assert a.value == b.value == c.value
        assert a.method == "compositions" and c.counts is not None


def test_majority_closed_form_and_interior_maximiser() -> None:
    # noiseless majority of 3: δ(x) = 1 at pivotal profiles (one or two votes for 1), so the smoothed δ is the largest
    # probability that the vote is pivotal over the placements of the agents on the vertices
    def pivotal(qs: list[Fraction]) -> Fraction:
        p_none = p_all = Fraction(1)
        for q in qs:
            p_none *= 1 - q
            p_all *= q
        return 1 - p_none - p_all

    for Pi in (["1/10", "3/10"], ["1/3", "2/3"], ["1/5"]):
        r = smoothed_delta(majority_vote(3), "ln(5)", Pi)
        qs = [Fraction(q) for q in Pi]
        best = max(
            pivotal([qs[a] for a in choice]) for choice in __import__("itertools").product(range(len(qs)), repeat=3)
        )
        assert r.value == best
    # with q ∈ {1/3, 2/3} the maximiser mixes the vertices (two agents at one, one at the other): 7/9 > 2/3
    r = smoothed_delta(majority_vote(3), "ln(5)", ["1/3", "2/3"])
    assert r.value == Fraction(7, 9) and sorted(r.counts) == [1, 2]


def test_randomized_response_voting_exact() -> None:
    # M_ρ f with ρ = 1/2, n = 2: brute force over Π^n
    M = majority_vote(2, "1/2", inputs="database", tie="coin")
    Pi = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 2), Fraction(1, 2)]]
    r = smoothed_delta(M, "ln(3/2)", Pi)
    assert r.value == _brute(M, Fraction(3, 2), Pi, 2)
    assert r.value < smoothed_delta(majority_vote(2, 1, inputs="database", tie="coin"), "ln(3/2)", Pi).value


def test_grid_bound_is_certified() -> None:
    M = shm(40, 36, inputs="count")
    Pi = ["1/10", "1/2"]
    exact = smoothed_delta(M, 1.0, Pi)
    grid = smoothed_delta(M, 1.0, Pi, method="grid", grid_step=7)
    assert grid.method == "grid" and grid.error_bound > 0
    assert grid.value <= exact.value + 1e-15 <= grid.value + grid.error_bound + 2e-15
    exact_q = smoothed_delta(shm(12, 10, inputs="count"), "ln(2)", ["1/4", "1/2", "3/5"])
    grid_q = smoothed_delta(shm(12, 10, inputs="count"), "ln(2)", ["1/4", "1/2", "3/5"], method="grid", grid_step=5)
    assert grid_q.value <= exact_q.value <= grid_q.value + grid_q.error_bound
    # auto switches to a grid when there are too many compositions, and says so
    auto = smoothed_delta(M, 1.0, Pi, max_evaluations=10)
    assert auto.method == "grid" and auto.evaluated <= 11 and auto.value <= exact.value <= auto.value + auto.error_bound


def test_three_vertices_grid_bound() -> None:
    M = shm(6, 4, categories=3)
    Pi = [
        [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)],
        [Fraction(1, 5), Fraction(3, 5), Fraction(1, 5)],
        [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)],
        [Fraction(1, 10), Fraction(1, 10), Fraction(4, 5)],
    ]
    exact = smoothed_delta(M, "ln(2)", Pi)
    grid = smoothed_delta(M, "ln(2)", Pi, method="grid", grid_step=3)
    assert len(exact.vertices) == 3  # the uniform distribution lies inside the triangle of the others
    assert hull_vertices([[float(v) for v in r] for r in Pi]) == hull_vertices(Pi) == [0, 1, 3]
    assert grid.value <= exact.value <= grid.value + grid.error_bound


def test_hull_vertices_exact_float_and_degenerate() -> None:
    rows, _ = parse_distributions(["1/10", "1/2", "3/10", "1/2"])
    assert hull_vertices(rows) == [0, 1]
    rows3 = [
        [Fraction(1, 3)] * 3,
        [Fraction(1), Fraction(0), Fraction(0)],
        [Fraction(0), Fraction(1), Fraction(0)],
        [Fraction(1, 2), Fraction(1, 2), Fraction(0)],
    ]
    assert hull_vertices(rows3) == [0, 1, 2]
    # collinear points in the 3-simplex (a degenerate hull) and a single point
    col = [[0.2, 0.3, 0.5], [0.4, 0.3, 0.3], [0.3, 0.3, 0.4]]
    assert hull_vertices(col) == [0, 1]
    assert hull_vertices([[0.5, 0.5], [0.5, 0.5]]) == [0]
    assert tv_distance([Fraction(1), Fraction(0)], [Fraction(1, 4), Fraction(3, 4)]) == Fraction(3, 4)


def test_compositions_and_laws() -> None:
    assert len(list(compositions(5, 3))) == math.comb(7, 2)
    g = grid_compositions(10, 3, 4)
    assert all(sum(c) == 10 and c[0] % 4 == 0 and c[1] % 4 == 0 for c in g)
    law = multinomial_law(3, [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)])
    assert sum(law.values()) == 1 and law[(1, 1, 1)] == 6 * Fraction(1, 36)


def test_errors() -> None:
    M = random_mechanism(0, n=2)
    with pytest.raises(InvalidParameterError):
        smoothed_delta(M, 0, [[Fraction(1, 2), Fraction(1, 3)]])
    with pytest.raises(InvalidParameterError):
        smoothed_delta(M, 0, ["1/2"], method="bogus")
    with pytest.raises(DomainMismatchError):
        smoothed_delta(M, 0, ["1/2"], n=3)
    with pytest.raises(SizeLimitError):
        smoothed_delta(random_mechanism(1, n=3), 0, ["1/5", "4/5"], max_evaluations=5)
    partial = M.restrict(["(0,0)", "(0,1)"])  # a mechanism on some of the databases of its Domain
    with pytest.raises(DomainMismatchError):
        smoothed_delta(partial, 0, ["1/2"], kind=M.domain)
    # a missing database with zero probability is fine
    assert smoothed_delta(partial, 0, ["0"], kind=M.domain).value == 0


def test_summary_text() -> None:
    r = smoothed_delta(majority_vote(3), "ln(2)", ["1/4", "1/3"])
    text = str(r)
    assert "Definition 3" in text and "2/3" in text
    assert r.to_dict()["value"] == "2/3"


@given(seed=st.integers(0, 10_000), step=st.integers(2, 4), ratio=st.sampled_from(["1", "2", "4"]))
def test_grid_error_bound_really_bounds_the_error(seed: int, step: int, ratio: str) -> None:
    # random anonymous mechanisms on 6 agents: the grid maximum plus its certified bound covers the exact maximum
    M = random_mechanism(seed, n=6, records=2, outputs=3, anonymous=True)
    Pi = random_distributions(seed, count=3, records=2)
    exact = smoothed_delta(M, f"ln({ratio})", Pi)
    grid = smoothed_delta(M, f"ln({ratio})", Pi, method="grid", grid_step=step)
    assert grid.value <= exact.value <= grid.value + grid.error_bound


def test_bad_grid_step_and_large_eps_are_typed_errors() -> None:
    M = majority_vote(3)
    for bad in (0, -2, 1.5, True):
        with pytest.raises(InvalidParameterError):
            smoothed_delta(M, 0, ["1/4"], method="grid", grid_step=bad)
    with pytest.raises(InvalidParameterError):
        smoothed_delta(M, 1e6, ["1/4"])


def test_plain_labels_are_recognised_as_their_domain() -> None:
    """Plain labels (a mechanism that lost its Domain) are recognised by building the candidate Domains."""
    from privgeom.smoothed._domains import recognise_domain

    assert recognise_domain(["11", "10", "01", "00"]).kind == "bits"
    assert recognise_domain(["0", "1", "2", "10"]) is None  # not 0..3
    assert recognise_domain(["0", "1", "2", "3"]).kind == "counts"
    dom = recognise_domain(["(a,b)", "(b,b)", "(a,a)", "(b,a)"], records=["b", "a"])
    assert dom.values == ("b", "a") and dict(zip(dom.labels, dom.points))["(a,b)"] == (1, 0)
