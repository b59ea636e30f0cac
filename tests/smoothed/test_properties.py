"""Propositions 1–5 and Theorem 1 as exact checks on random instances small enough for brute force."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from privgeom.testing import database_delta_brute, random_distributions, random_mechanism, smoothed_brute

from privgeom import PrivacyLevel
from privgeom.smoothed import majority_vote, smoothed_delta
from privgeom.smoothed._catalogue import joint, precompose, push_forward
from privgeom.smoothed._properties import (
    check_composition,
    check_distribution_reduction,
    check_dp_delta,
    check_dp_implies_smoothed,
    check_post_processing,
    check_pre_processing,
)
from privgeom.smoothed.paper import CHECKS, check

seeds = st.integers(0, 100_000)
ratios = st.sampled_from(["1", "3/2", "2", "4"])


@settings(max_examples=15)
@given(seed=seeds, ratio=ratios, anonymous=st.booleans())
def test_dp_implies_smoothed(seed: int, ratio: str, anonymous: bool) -> None:
    M = random_mechanism(seed, n=2, records=2, outputs=3, anonymous=anonymous)
    c = check_dp_implies_smoothed(M, f"ln({ratio})", random_distributions(seed, count=2))
    assert c.holds and c.exact


@settings(max_examples=15)
@given(seed=seeds, ratio=ratios)
def test_post_processing(seed: int, ratio: str) -> None:
    M = random_mechanism(seed, n=2, records=2, outputs=3)
    A = random_mechanism(seed + 1, n=1, records=3, outputs=2).matrix  # a random 2 x 3 column-stochastic matrix
    c = check_post_processing(M, A.tolist(), f"ln({ratio})", random_distributions(seed, count=2))
    assert c.holds and c.exact
    # deterministic merging of outputs too
    c2 = check_post_processing(M, [[1, 1, 0], [0, 0, 1]], f"ln({ratio})", random_distributions(seed + 2, count=3))
    assert c2.holds


@settings(max_examples=12)
@given(seed=seeds, r1=ratios, r2=ratios)
def test_composition(seed: int, r1: str, r2: str) -> None:
    M1 = random_mechanism(seed, n=2, records=2, outputs=2)
    M2 = random_mechanism(seed + 7, n=2, records=2, outputs=2)
    c = check_composition(M1, M2, f"ln({r1})", f"ln({r2})", random_distributions(seed, count=2))
    assert c.holds and c.exact
    # the joint mechanism is checked against brute force as well
    J = joint(M1, M2)
    cols = {p: list(J.matrix[:, i]) for i, p in enumerate(J.domain.points)}
    Pi = random_distributions(seed, count=2)
    e = Fraction(r1) * Fraction(r2)
    assert c.lhs == smoothed_brute(database_delta_brute(cols, e, 2), Pi, 2, 2)


@settings(max_examples=12)
@given(seed=seeds, ratio=ratios)
def test_pre_processing(seed: int, ratio: str) -> None:
    M = random_mechanism(seed, n=2, records=2, outputs=3)
    f = {"a": "0", "b": "1", "c": "1"}
    Pi = random_distributions(seed, count=2, records=3)
    c = check_pre_processing(M, f, ["a", "b", "c"], f"ln({ratio})", Pi)
    assert c.holds and c.exact
    # push-forward and pre-composition by hand
    pushed = [push_forward(p, f, "abc", ["0", "1"]) for p in Pi]
    assert all(sum(p) == 1 for p in pushed)
    Mf = precompose(M, f, "abc")
    assert Mf.column("(a,c)").tolist() == M.column("(0,1)").tolist()
    assert c.rhs == smoothed_delta(M, f"ln({ratio})", pushed).value


@settings(max_examples=10)
@given(seed=seeds, ratio=ratios, anonymous=st.booleans())
def test_distribution_reduction(seed: int, ratio: str, anonymous: bool) -> None:
    M = random_mechanism(seed, n=2, records=2, outputs=3, anonymous=anonymous)
    Pi = random_distributions(seed, count=4)
    c = check_distribution_reduction(M, f"ln({ratio})", Pi, seed=seed)
    assert c.holds and c.exact and c.relation == "=="


@settings(max_examples=8)
@given(seed=seeds, ratio=ratios)
def test_distribution_reduction_three_records(seed: int, ratio: str) -> None:
    M = random_mechanism(seed, n=2, records=3, outputs=2)
    c = check_distribution_reduction(M, f"ln({ratio})", random_distributions(seed, count=4, records=3), seed=seed)
    assert c.holds


@settings(max_examples=10)
@given(seed=seeds, ratio=ratios)
def test_theorem1(seed: int, ratio: str) -> None:
    c = check_dp_delta(random_mechanism(seed, n=2, records=3, outputs=3), f"ln({ratio})")
    assert c.holds and c.lhs == c.rhs


def test_voting_instances() -> None:
    # randomized-response voting and noiseless majority under Π
    for rho in ("1", "1/2", "1/5"):
        M = majority_vote(3, rho, inputs="database")
        for result in (
            check_dp_implies_smoothed(M, "ln(2)", ["1/4", "1/2"]),
            check_distribution_reduction(M, "ln(2)", ["1/4", "2/5", "1/2"]),
            check_dp_delta(M, "ln(2)"),
        ):
            assert result.holds, result
    # noise helps: ρ = 1/2 has a smaller smoothed δ than noiseless majority
    a = smoothed_delta(majority_vote(5, "1/2"), "ln(2)", ["1/3", "1/2"]).value
    b = smoothed_delta(majority_vote(5), "ln(2)", ["1/3", "1/2"]).value
    assert a < b


def test_the_paper_table_runs_each_check() -> None:
    """``paper.check`` looks the result up in CHECKS (keyed by the paper's result names) and runs it."""
    M = majority_vote(2, "1/2")
    assert set(CHECKS) == {"Theorem 1", *(f"Proposition {i}" for i in range(1, 6))}
    assert check("Theorem 1", M, "ln(2)") == check_dp_delta(M, "ln(2)")
    c = check("Proposition 3", M, M, "ln(2)", "ln(3/2)", ["1/4", "1/2"])
    # the levels compose exactly: ln 2 + ln(3/2) = ln 3, and δ of (M, M) at ln 3 is the left-hand side
    both = smoothed_delta(joint(M, M), PrivacyLevel.from_exp_eps(3), ["1/4", "1/2"]).value
    assert c.exact and c.lhs == both and c.holds
    import pytest

    from privgeom import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="Proposition 9"):
        check("Proposition 9", M, "ln(2)")


def test_failing_check_is_reported() -> None:
    c = check_dp_implies_smoothed(majority_vote(2), 0, ["1/2"])
    assert c.holds and "holds" in str(c)
    from privgeom.smoothed._properties import _make

    bad = _make("demo", Fraction(1), Fraction(0), "<=", "", 1e-9)
    assert not bad and "FAILS" in str(bad)
