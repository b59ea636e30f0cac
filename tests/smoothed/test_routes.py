"""The method= routes of database_delta and smoothed_delta: the SHM fast routes against the exact matrix routes on the
same instances, "auto" choosing them, levels on the results, the ε ↔ ρ bridge of majority_vote, the public names."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privgeom import DomainMismatchError, InvalidParameterError, InvalidTypeError, PrivacyLevel
from privgeom import smoothed
from privgeom.smoothed import SamplingHistogram, database_delta, majority_vote, shm, smoothed_delta

SHMS = [(10, 5, False), (12, 11, False), (8, 3, True), (7, 7, False)]


@pytest.mark.parametrize("n, T, replace", SHMS)
@pytest.mark.parametrize("eps", ["ln(3/2)", 0, 0.7])
def test_database_delta_routes_agree(n: int, T: int, replace: bool, eps: object) -> None:
    """δ(x) by the log-space tail sums (method="shm") equals the exact matrix route at every count."""
    M = SamplingHistogram(n, T, replace)
    matrix = database_delta(M, eps, method="matrix")  # every count, on shm(n, T, inputs="count")
    assert matrix.method == "matrix" and matrix.inputs == tuple(str(N) for N in range(n + 1))
    for N in range(n + 1):
        fast = database_delta(M, eps, x=N)  # auto: a SamplingHistogram and one x -> the tail sums
        assert fast.method == "shm" and fast.mechanism == M and not fast.exact
        exact = matrix.values[N]
        assert abs(fast.value - float(exact)) <= 1e-13 + 1e-12 * float(exact), (N, fast.value, exact)
        assert fast.delta == fast.value and fast.x == str(N)
        assert database_delta(M, eps, x=N, method="matrix").value == exact
    assert matrix.delta == max(matrix.values)
    if matrix.exact:  # Theorem 2: the DP δ of SHM is T/n (1 − (1 − 1/n)^T with replacement) at ε = 0
        assert eps != 0 or matrix.delta == M.dp_delta


@pytest.mark.parametrize("n, T, replace", SHMS)
def test_smoothed_delta_routes_agree(n: int, T: int, replace: bool) -> None:
    """The certified branch-and-bound (method="shm") against the exact compositions and enumeration of the matrix."""
    M = SamplingHistogram(n, T, replace)
    Pi = ["1/7", "1/2"]
    fast = smoothed_delta(M, "ln(2)", Pi)
    assert fast.method == "shm" and not fast.exact and fast.assignment == () and fast.mechanism == M
    comp = smoothed_delta(M, "ln(2)", Pi, method="compositions")
    assert comp.exact and comp.dp_delta == M.dp_delta == fast.dp_delta
    if n <= 8:  # every assignment of the vertices to the agents, on the matrix over all 2^n databases
        enum = smoothed_delta(shm(n, T, replace=replace, inputs="database"), "ln(2)", Pi, method="enumeration")
        assert enum.value == comp.value and enum.method == "enumeration"
    assert fast.value <= float(comp.value) * (1 + 1e-10) + 1e-15 <= float(fast.upper) * (1 + 1e-9) + 2e-15
    assert abs(fast.value - float(comp.value)) <= 1e-10 * float(comp.value) + 1e-15
    assert fast.vertices == comp.vertices == ((Fraction(6, 7), Fraction(1, 7)), (Fraction(1, 2), Fraction(1, 2)))
    assert fast.counts == comp.counts or fast.value == pytest.approx(float(comp.value), rel=1e-9)
    # the same number on the matrix built by the user (the route before SamplingHistogram existed)
    assert smoothed_delta(shm(n, T, replace=replace, inputs="count"), "ln(2)", Pi).value == comp.value


def test_auto_chooses_and_refuses_mismatched_routes() -> None:
    M = SamplingHistogram(10, 9)
    assert database_delta(M, 1.0).method == "matrix"  # no x: every count, on the matrix
    assert smoothed_delta(M, 1.0, [["1/2", "1/4", "1/4"]]).method == "compositions"  # 3 records: the matrix
    R = majority_vote(3)
    with pytest.raises(InvalidParameterError, match="SamplingHistogram"):
        database_delta(R, 1.0, x="1", method="shm")
    with pytest.raises(InvalidParameterError, match="SamplingHistogram"):
        smoothed_delta(R, 1.0, ["1/4"], method="shm")
    with pytest.raises(InvalidParameterError, match="one database"):
        database_delta(M, 1.0, method="shm")
    with pytest.raises(InvalidParameterError, match="graph, kind and records"):
        database_delta(M, 1.0, "complete", x=3)
    with pytest.raises(InvalidParameterError, match="unknown method 'tails'"):
        smoothed_delta(M, 1.0, ["1/4"], method="tails")
    with pytest.raises(DomainMismatchError, match="n = 11"):
        smoothed_delta(M, 1.0, ["1/4"], 11)
    with pytest.raises(InvalidTypeError, match="SamplingHistogram"):
        database_delta("shm", 1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="T must be <= n"):
        SamplingHistogram(3, 4)


def test_results_state_their_level() -> None:
    """One name per quantity: ``level`` (a PrivacyLevel), no eps/exp_eps duplicates, no dp_delta alias of delta."""
    r = database_delta(majority_vote(3, "1/2"), "ln(2)")
    assert isinstance(r.level, PrivacyLevel) and str(r.level) == "ln(2)" and r.level.exp_eps == 2
    assert not hasattr(r, "dp_delta")
    s = smoothed_delta(majority_vote(3), "ln(2)", ["1/4", "1/3"])
    assert s.level == PrivacyLevel.from_exp_eps(2) and not hasattr(s, "eps") and not hasattr(s, "exp_eps")
    f = smoothed_delta(SamplingHistogram(50, 40), 1.0, ["1/10", "1/2"])
    assert str(f.level) == "1.0" and "ε = 1.0" in str(f)
    assert s.to_dict()["level"]["exp_eps"] == "2"


@pytest.mark.parametrize("ratio", ["1", "3", "9/4", "51/49"])
def test_majority_vote_eps_is_the_keep_probability(ratio: str) -> None:
    """ρ = (e^ε − 1)/(e^ε + 1) exactly: one ballot kept with p = (1 + ρ)/2, flipped with q = (1 − ρ)/2 is randomized
    response with p/q = e^ε (docs/theory.md §17)."""
    t = Fraction(ratio)
    rho = (t - 1) / (t + 1)
    one = majority_vote(1, eps=f"ln({ratio})")
    assert one == majority_vote(1, rho)
    p, q = one.column("1")  # the vote 1 is published as 1 with p, as -1 with q
    assert p / q == t and p + q == 1
    assert majority_vote(5, eps=f"ln({ratio})", inputs="database") == majority_vote(5, rho, inputs="database")
    approx = majority_vote(3, eps=float(PrivacyLevel.from_exp_eps(t)))
    assert not approx.exact
    assert approx.float_matrix() == pytest.approx(majority_vote(3, rho).float_matrix(), abs=1e-12)
    with pytest.raises(InvalidParameterError, match="one of rho= and eps="):
        majority_vote(3, rho, eps=f"ln({ratio})")


def test_public_names_within_budget() -> None:
    """smoothed.__all__ and smoothed.paper.__all__ together name at most 12 things, all importable."""
    from privgeom.smoothed import paper

    names = set(smoothed.__all__) | set(paper.__all__)
    print(f"smoothed public names: {len(names)}")
    assert len(names) <= 12, sorted(names)
    for module in (smoothed, paper):
        for name in module.__all__:
            assert getattr(module, name) is not None
