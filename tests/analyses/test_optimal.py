"""Optimal mechanisms over closures (exact LP certificates) and the Kairouz–Oh–Viswanath staircase results."""

from __future__ import annotations

import itertools
import math
import os
import random
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

import privgeom as pg
from privgeom.analyses.comparison._compare import extreme_mechanisms
from privgeom.analyses.optimal._optimal import bayes_utility, mutual_information_utility
from privgeom import (
    binary_mechanism,
    kov_regimes,
    mutual_information,
    optimal_mechanism,
    staircase_optimum,
    staircase_patterns,
)
from privgeom.analyses.optimal._optimal_lp import prior_vector, utility_matrix
from privgeom.definitions import DifferentialPrivacy, FiniteDefinition, RandomizedResponse
from privgeom import ApproximateDP
from privgeom import kary_randomized_response
from privgeom.testing import complete_graph, hamming_graph, path_graph

ROOT = Path(__file__).resolve().parents[2]


def local_dp(n: int, r) -> DifferentialPrivacy:
    return DifferentialPrivacy(complete_graph(n), exp_eps=r)


def random_problem(rng: random.Random, n: int, m: int):
    U = [[F(rng.randint(0, 9)) for _ in range(m)] for _ in range(n)]
    prior = [F(rng.randint(1, 4)) for _ in range(n)]
    return U, [p / sum(prior) for p in prior]


def brute_force(definition, U, prior) -> F:
    """max over the extreme mechanisms N of the Bayes value Σ_o max_ω Σ_D π_D U[D, ω] N[o, D] (no LP at all)."""
    best = None
    for N in extreme_mechanisms(definition.row_cone()):
        val = sum(
            max(sum(prior[d] * U[d][w] * N.matrix[o, d] for d in range(N.n_inputs)) for w in range(len(U[0])))
            for o in range(N.n_outputs)
        )
        best = val if best is None or val > best else best
    return best


# ------------------------------------------------------------------------------------------- optimal_mechanism
@pytest.mark.parametrize("n,r", [(2, F(3)), (3, F(2)), (4, F(3)), (4, F(5, 2))])
def test_local_dp_accuracy_is_randomized_response(n, r):
    opt = optimal_mechanism(local_dp(n, r), "accuracy")
    assert opt.formulation == "rows" and opt.exact
    assert opt.value == r / (r + n - 1)  # k-RR: keep with probability e^ε/(e^ε + n − 1)
    cert = opt.certificate
    assert cert.exact and cert.bound == cert.value == opt.value and cert.gap == 0
    assert opt.membership.member
    krr = kary_randomized_response(n, exp_eps=r)
    assert sum(krr.matrix[i, i] for i in range(n)) / n == opt.value


def test_rows_lp_agrees_with_vertex_enumeration_and_the_staircase_lp():
    rng = random.Random(5)
    for n, r in [(3, F(2)), (4, F(5, 2))]:
        dp = local_dp(n, r)
        for _ in range(3):
            U, prior = random_problem(rng, n, 3)
            opt = optimal_mechanism(dp, U, prior)
            st = staircase_optimum(n, r, bayes_utility(U, prior, dp.inputs))
            assert opt.certificate.exact and st.exact
            assert opt.value == st.value == st.bound == brute_force(dp, U, prior)
            # KOV: the optimum is attained by a staircase mechanism (rows = scaled extreme rays, ratio exactly e^ε)
            assert all(max(row) / min(row) == r for row in st.mechanism.matrix)
            assert dp.contains(st.mechanism).member
            # ... followed by the Bayes decision, which gives a mechanism over the utility's outputs with that value
            C = [[prior[d] * U[d][w] for d in range(n)] for w in range(3)]
            A = [[F(0)] * st.mechanism.n_outputs for _ in range(3)]
            for o, row in enumerate(st.mechanism.matrix):
                scores = [sum(C[w][d] * row[d] for d in range(n)) for w in range(3)]
                A[scores.index(max(scores))][o] = F(1)
            decided = st.mechanism.post_process(A)
            assert sum(C[w][d] * decided.matrix[w, d] for w in range(3) for d in range(n)) == opt.value


@settings(max_examples=15)
@given(
    st.lists(st.integers(0, 6), min_size=6, max_size=6),
    st.lists(st.integers(1, 5), min_size=3, max_size=3),
    st.sampled_from([F(3, 2), F(2), F(4)]),
)
def test_optimum_matches_brute_force_on_random_problems(u, w, r):
    U = [[F(u[2 * d]), F(u[2 * d + 1])] for d in range(3)]
    prior = [F(v, sum(w)) for v in w]
    opt = optimal_mechanism(local_dp(3, r), U, prior)
    assert opt.certificate.exact and opt.value == brute_force(local_dp(3, r), U, prior)


def test_dp_on_the_hypercube_accuracy_is_product_rr():
    opt = optimal_mechanism(DifferentialPrivacy(hamming_graph(3), exp_eps=2), "accuracy")
    assert opt.value == F(2, 3) ** 3 and opt.certificate.exact


def test_finite_definitions_use_the_closure_lp():
    opt = optimal_mechanism(RandomizedResponse(2, "3/4"), "accuracy")
    assert opt.formulation == "closure" and opt.value == F(9, 16) and opt.certificate.exact
    assert opt.certificate.dual["t"] == F(9, 16)
    # two mechanisms: the better one wins; a skewed prior changes the decision
    M1 = pg.randomized_response(1, "3/4")
    M2 = pg.Mechanism([["9/10", "3/10"], ["1/10", "7/10"]], inputs=["1", "0"])
    D = FiniteDefinition([M1, M2])
    opt = optimal_mechanism(D, "accuracy", ["1/2", "1/2"])
    assert opt.value == F(4, 5)  # M2: (9/10 + 7/10)/2
    assert D.contains(opt.mechanism).member
    opt = optimal_mechanism(D, "accuracy", {"1": "9/10", "0": "1/10"})
    assert opt.value == F(9, 10)  # always answer "1"


def test_float_mode_reports_the_gap():
    opt = optimal_mechanism(DifferentialPrivacy(hamming_graph(2), eps=1.0), "accuracy")
    r = math.e
    assert not opt.exact and not opt.certificate.exact
    assert opt.value == pytest.approx((r / (1 + r)) ** 2, abs=1e-9)
    assert 0 <= float(opt.certificate.gap) <= opt.certificate.tolerance


def test_utility_and_prior_parsing():
    U, outs = utility_matrix({"matrix": [[0, 1], [1, 0]], "outputs": ["x", "y"], "inputs": ["b", "a"]}, ["a", "b"])
    assert U.tolist() == [[1, 0], [0, 1]] and outs == ("x", "y")
    assert prior_vector([0.25, 0.75], ["a", "b"]) == [0.25, 0.75]


@pytest.mark.parametrize(
    "utility,prior,err,match",
    [
        ([[1, 0]], None, pg.DomainMismatchError, "rows = datasets"),
        ("best", None, pg.InvalidParameterError, "unknown named utility"),
        ({"matrix": [[1], [0]], "foo": 1}, None, pg.FormatError, "unknown fields"),
        ([[1, 2], [3]], None, pg.FormatError, "rectangular"),
        ("accuracy", ["1/2", "1/4"], pg.InvalidParameterError, "sum to 1"),
        ("accuracy", ["3/2", "-1/2"], pg.InvalidParameterError, ">= 0"),
        ("accuracy", [1], pg.DomainMismatchError, "1 entries for 2 datasets"),
        ("accuracy", {"z": 1}, pg.DomainMismatchError, "unknown datasets"),
    ],
)
def test_bad_utilities_and_priors(utility, prior, err, match):
    with pytest.raises(err, match=match):
        optimal_mechanism(local_dp(2, 3), utility, prior)


class _Opaque(pg.PrivacyDefinition):
    """A definition with neither generators, a deciding row cone nor a dedicated LP."""

    inputs = ("a", "b")
    exact = True
    name = "opaque"
    row_cone_decides_closure = False

    def contains(self, mechanism, *, method="auto"):  # pragma: no cover - never called
        raise NotImplementedError

    def row_cone(self):  # pragma: no cover - never called
        raise NotImplementedError

    def spec(self):
        return "opaque:"


def test_definitions_without_an_lp_are_refused():
    with pytest.raises(pg.InvalidTypeError, match="neither finite nor decided"):
        optimal_mechanism(_Opaque(), "accuracy")
    with pytest.raises(pg.InvalidTypeError, match="privacy definition"):
        optimal_mechanism("dp", "accuracy")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------- (ε, δ)-DP, δ > 0
def _adp_by_events(adp, C) -> float:
    """Independent formulation: no auxiliary variables, one constraint P(S|D) − e^ε P(S|D') ≤ δ per event S ⊆ outputs
    and directed edge (the definition of (ε, δ)-DP itself), solved with scipy's HiGHS."""
    from scipy.optimize import linprog

    m, N = C.shape
    idx = {d: i for i, d in enumerate(adp.inputs)}
    r, dl = float(adp.level.exp_eps), float(adp.delta)
    rows, rhs = [], []
    for a, b in adp.graph.edges:
        for i, j in ((idx[a], idx[b]), (idx[b], idx[a])):
            for k in range(1, m + 1):
                for S in itertools.combinations(range(m), k):
                    row = np.zeros(m * N)
                    for w in S:
                        row[w * N + i] += 1
                        row[w * N + j] -= r
                    rows.append(row)
                    rhs.append(dl)
    A_eq = np.zeros((N, m * N))
    for d in range(N):
        A_eq[d, [w * N + d for w in range(m)]] = 1
    res = linprog(
        -np.asarray(C, dtype=float).ravel(),
        A_ub=np.array(rows),
        b_ub=rhs,
        A_eq=A_eq,
        b_eq=np.ones(N),
        bounds=(0, None),
        method="highs",
    )
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize(
    "graph, r, dl",
    [
        (complete_graph(3), F(2), F(1, 10)),
        (hamming_graph(2), F(3), F(1, 4)),
        (path_graph(3), F(3, 2), F(1, 20)),
        (complete_graph(3), F(1), F(1, 2)),
    ],
)
def test_adp_optimal_mechanism_exact_and_matches_the_event_lp(graph, r, dl):
    adp = ApproximateDP(graph, exp_eps=r, delta=dl)
    opt = optimal_mechanism(adp, "accuracy")
    assert opt.formulation == "hockey-stick" and opt.exact and opt.certificate.exact and opt.membership.member
    assert opt.certificate.bound == opt.value and isinstance(opt.value, F)
    # an independent LP (events instead of auxiliary variables) has the same optimum
    n = len(adp.inputs)
    C = np.array([[F(1, n) * int(w == d) for d in range(n)] for w in range(n)], dtype=object)
    assert float(opt.value) == pytest.approx(_adp_by_events(adp, C), abs=1e-9)
    # more slack never hurts, and δ = 0 gives back pure DP's optimum (rows LP)
    pure = optimal_mechanism(DifferentialPrivacy(graph, exp_eps=r), "accuracy")
    assert pure.value <= opt.value
    assert optimal_mechanism(ApproximateDP(graph, exp_eps=r, delta=0), "accuracy").value == pure.value


def test_adp_optimal_closed_form_on_k3():
    # symmetric guess-the-value mechanism: hockey-stick 2p − 1 at e^ε = 2 (p − 2(1−p)/2), so p = (1 + δ)/2
    for dl in (F(1, 10), F(1, 3)):
        opt = optimal_mechanism(ApproximateDP(complete_graph(3), exp_eps=2, delta=dl), "accuracy")
        assert opt.value == (1 + dl) / 2


def test_adp_optimal_float_and_random_utilities():
    rng = np.random.default_rng(5)
    adp = ApproximateDP(complete_graph(3), eps=0.4, delta=0.05)
    assert not adp.exact
    for _ in range(3):
        U = rng.integers(0, 4, size=(3, 3)).tolist()
        opt = optimal_mechanism(adp, U, [0.5, 0.3, 0.2])
        assert not opt.exact and opt.certificate.verified and opt.membership.member
        C = np.array([[[0.5, 0.3, 0.2][d] * U[d][w] for d in range(3)] for w in range(3)])
        assert opt.value == pytest.approx(_adp_by_events(adp, C), abs=1e-7)


def test_adp_optimal_refuses_huge_lps(monkeypatch):
    from privgeom.analyses.optimal import _optimal_adp

    monkeypatch.setattr(_optimal_adp, "MAX_ADP_OPTIMAL_VARIABLES", 10)
    with pytest.raises(pg.SizeLimitError, match="variables"):
        optimal_mechanism(ApproximateDP(complete_graph(3), exp_eps=2, delta="1/10"), "accuracy")


# ------------------------------------------------------------------------------------------- staircase / KOV
@pytest.mark.parametrize("n", [2, 3, 4])
def test_staircase_patterns_are_the_extreme_rays_of_local_dp(n):
    r = F(3)
    pats = staircase_patterns(n, r)
    assert len(pats) == 2**n - 2
    rays = local_dp(n, r).row_cone().rays
    norm = lambda v: tuple(x / min(v) for x in v)  # noqa: E731
    assert {norm(p) for p in pats} == {norm(v) for v in rays}


def test_staircase_pattern_errors():
    with pytest.raises(pg.InvalidParameterError, match="e\\^ε > 1"):
        staircase_patterns(3, 1)
    with pytest.raises(pg.InvalidParameterError, match="n >= 2"):
        staircase_patterns(1, 3)
    with pytest.raises(pg.SizeLimitError, match="limit"):
        staircase_patterns(40, 3)
    with pytest.raises(pg.InvalidParameterError, match="proper subset"):
        binary_mechanism(4, 3, split=[0, 1, 2, 3])


def h(p: float) -> float:
    return -p * math.log(p) - (1 - p) * math.log(1 - p)


def mi_binary(r: float) -> float:  # balanced split, uniform X: I = ln 2 − h(e^ε / (1 + e^ε))
    return math.log(2) - h(r / (1 + r))


def mi_rr(n: int, r: float) -> float:  # k-RR, uniform X: I = ln n − H(row)
    p, q = r / (r + n - 1), 1 / (r + n - 1)
    return math.log(n) + p * math.log(p) + (n - 1) * q * math.log(q)


def test_mutual_information_closed_forms():
    r = math.exp(0.7)
    assert float(mutual_information(binary_mechanism(4, r))) == pytest.approx(mi_binary(r), rel=1e-12)
    assert float(mutual_information(kary_randomized_response(4, exp_eps=r))) == pytest.approx(mi_rr(4, r), rel=1e-12)
    assert float(mutual_information(pg.Mechanism([[1, 0], [0, 1]]))) == pytest.approx(math.log(2))


def test_kov_regimes_n4_binary_then_randomized_response():
    k = kov_regimes(4, [0.2, 0.5, 0.8, 0.85, 1.0, 2.0, 3.0])
    close = [math.isclose(b, o, rel_tol=1e-9) for b, o in zip(k.binary, k.optimum)]
    assert close == [True, True, True, False, False, False, False]
    close = [math.isclose(rr, o, rel_tol=1e-9) for rr, o in zip(k.rr, k.optimum)]
    assert close == [False, False, False, True, True, True, True]
    # independent crossover of the closed forms
    eps_star = brentq(lambda e: mi_binary(math.exp(e)) - mi_rr(4, math.exp(e)), 0.3, 2.0, xtol=1e-12)
    assert float(k.crossover.eps) == pytest.approx(eps_star, abs=1e-6)
    assert round(eps_star, 4) == 0.8221
    assert float(k.binary_optimal_up_to.eps) == pytest.approx(eps_star, abs=1e-6)
    assert float(k.rr_optimal_from.eps) == pytest.approx(eps_star, abs=1e-6)
    # at ε = 1/2 the LP optimum is the balanced binary mechanism itself
    st = staircase_optimum(4, math.exp(0.5), mutual_information_utility(None, 4))
    assert sorted(st.patterns) == ["0011", "1100"]
    assert st.value == pytest.approx(mi_binary(math.exp(0.5)), rel=1e-9)
    assert st.bound == pytest.approx(st.value, rel=1e-9)


def test_kov_regimes_n6_has_an_intermediate_regime():
    k = kov_regimes(6, [0.3, 1.0, 2.5])
    assert math.isclose(k.binary[0], k.optimum[0], rel_tol=1e-9)
    assert k.optimum[1] > max(k.binary[1], k.rr[1]) + 1e-3  # neither is optimal in between
    assert math.isclose(k.rr[2], k.optimum[2], rel_tol=1e-9)
    assert k.binary_optimal_up_to < k.crossover < k.rr_optimal_from


def test_kov_regimes_rejects_bad_grids():
    with pytest.raises(pg.InvalidParameterError, match="positive"):
        kov_regimes(4, [0.0, 1.0])


def test_kov_example_script_quick(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "kov_regimes.py"), "--quick", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "kov_regimes_n4.png").stat().st_size > 1000
    assert "binary optimal for ε ≤ 0.8221" in proc.stdout


def test_plot_kov_regimes(tmp_path):
    from privgeom.plots._kov import plot_kov_regimes

    fig = plot_kov_regimes(kov_regimes(4, np.linspace(0.2, 2.0, 5)), tmp_path / "k.png")
    assert (tmp_path / "k.png").exists() and len(fig.axes) == 2
    with pytest.raises(pg.InvalidTypeError):
        plot_kov_regimes("regimes")  # type: ignore[arg-type]


def test_staircase_optimum_builds_the_row_utility_from_a_utility_and_a_prior() -> None:
    # the public call needs no private helper: a utility and a prior (as optimal_mechanism takes them) or
    # "mutual-information" give the same LP as the row utilities built by hand
    prior = [F(1, 2), F(1, 3), F(1, 6)]
    U = [[1, 0, 2], [0, 3, 0], [1, 1, 1]]
    by_hand = staircase_optimum(3, 2, bayes_utility(U, prior, ["0", "1", "2"]))
    assert staircase_optimum(3, 2, U, prior).value == by_hand.value
    assert staircase_optimum(3, 2).value == F(1, 2)  # accuracy, uniform: e^ε/(e^ε + 2) (KOV 2016)
    mi = staircase_optimum(2, 3, "mutual-information")
    assert mi.value == pytest.approx(math.log(2) - (-(0.75 * math.log(0.75) + 0.25 * math.log(0.25))), abs=1e-9)
    assert mi.value == pytest.approx(staircase_optimum(2, 3, mutual_information_utility(None, 2)).value, abs=1e-12)
