"""M_rho f as a Mechanism: labels, closure(RR), exact epsilon (table and counts), Proposition 2 and Remark 1."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom import voting
from privgeom.voting import paper
from privgeom.testing import random_rule
from privgeom.testing import brute_epsilon_ratio, brute_rows

try:
    from privgeom.definitions import RandomizedResponse
except ImportError:  # pragma: no cover - the core definitions are part of the project
    RandomizedResponse = None  # type: ignore[assignment,misc]

needs_rr = pytest.mark.skipif(
    RandomizedResponse is None, reason="privgeom.definitions.RandomizedResponse is not available"
)

ALL_N3 = [voting.Rule.from_truth_table([1 - 2 * ((code >> j) & 1) for j in range(8)]) for code in range(256)]


def test_mechanism_matrix_layout_and_values() -> None:
    f = voting.tribes(2, 2)
    rho = Fraction(1, 3)
    M = voting.mechanism(f, rho)
    assert M.inputs == pg.randomized_response(4, (1 + rho) / 2).inputs
    assert M.outputs == ("1", "-1") and M.exact
    rows = brute_rows(list(f.table()), 4, rho)
    assert list(M.row("1")) == rows[1] and list(M.row("-1")) == rows[-1]
    # M_rho f = A · RR_n(p) with the deterministic post-processing A[r, y] = [f(y) = r]
    A = [[1 if v == r else 0 for v in f.table()] for r in (1, -1)]
    assert pg.randomized_response(4, (1 + rho) / 2).post_process(A, outputs=["1", "-1"]) == M
    Mf = voting.mechanism(f, 1 / 3)
    assert not Mf.exact and np.allclose(Mf.float_matrix(), M.float_matrix(), atol=1e-15)
    const = voting.mechanism(voting.Rule.constant(2), "1/2")
    assert list(const.row("-1")) == [0, 0, 0, 0]


@needs_rr
@pytest.mark.parametrize("rho", [Fraction(1, 2), Fraction(1, 3), Fraction(9, 10)])
def test_mechanism_in_closure_of_rr(rho: Fraction) -> None:
    p = (1 + rho) / 2
    for f in (voting.majority(3), voting.tribes(2, 2), voting.parity(3), random_rule(4, seed=2)):
        rr = RandomizedResponse(f.n, p)
        assert rr.contains(voting.mechanism(f, rho)).member, f.name
        assert RandomizedResponse(f.n, float(p)).contains(voting.mechanism(f, float(rho))).member
    # more correlation than RR(p) allows is outside the closure: the dictator reveals its voter through RR(p') > p
    stronger = (1 + rho) / 2 + (1 - rho) / 4
    assert not RandomizedResponse(3, p).contains(voting.mechanism(voting.dictator(3), 2 * stronger - 1)).member


@pytest.mark.parametrize("rho", [Fraction(1, 2), Fraction(1, 3)])
def test_epsilon_exact_on_all_rules_n3_prop2_remark1(rho: Fraction) -> None:
    bound = pg.LogRational((1 + rho) / (1 - rho))
    for f in ALL_N3:
        values = set(f.table().tolist())
        res = voting.epsilon(f, rho)
        if len(values) == 1:
            assert res.level.eps == 0
            continue
        assert isinstance(res.level.eps, pg.LogRational)
        assert res.level.exp_eps == brute_epsilon_ratio(list(f.table()), 3, rho)
        assert res.level.eps <= bound  # Proposition 2
        assert (
            res.attains_bound == (res.level.eps == bound) == paper.attains_bound(f).holds
        )  # Remark 1, both directions


def test_epsilon_random_rules_n5_against_brute_force() -> None:
    rho = Fraction(2, 5)
    for seed in range(4):
        f = random_rule(5, seed=seed)
        res = voting.epsilon(f, rho)
        assert res.level.exp_eps == brute_epsilon_ratio(list(f.table()), 5, rho)
        assert res.attains_bound == paper.attains_bound(f).holds
        fl = voting.epsilon(f, float(rho))
        assert float(fl.level.eps) == pytest.approx(float(res.level.eps), abs=1e-12)
        # the witness really attains the ratio
        M = voting.mechanism(f, rho)
        assert (
            M.row(res.output)[M.inputs.index(res.edge[0])] / M.row(res.output)[M.inputs.index(res.edge[1])]
            == res.level.exp_eps
        )
        assert sum(a != b for a, b in zip(res.edge[0], res.edge[1])) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 11])
def test_counts_and_table_epsilon_agree(n: int) -> None:
    rules = [
        voting.threshold(n, 0),
        voting.conjunction(n),
        voting.disjunction(n),
        voting.Rule.symmetric(([1, -1, -1] * 5)[: n + 1]),
    ]
    if n % 2:
        rules.append(voting.majority(n))
    for f in rules:
        for rho in (Fraction(1, 2), Fraction(7, 8)):
            if len(set(f.counts.tolist())) < 2:
                continue
            exact = voting.epsilon(f, rho, method="counts")
            assert exact.level.eps == voting.epsilon(f, rho, method="table").level.eps, f.name
            logspace = voting.epsilon(f, float(rho), method="counts")
            assert float(logspace.level.eps) == pytest.approx(float(exact.level.eps), rel=1e-12, abs=1e-13)


def test_log_space_epsilon_agrees_with_exact_counts_at_n_201() -> None:
    for f in (voting.majority(201), voting.threshold(200, 14), voting.Rule.symmetric([1, -1] * 30 + [1] * 141)):
        for rho in (Fraction(1, 10), Fraction(1, 2), Fraction(99, 100)):
            exact = voting.epsilon(f, rho)
            assert exact.exact and exact.method == "counts"
            fl = voting.epsilon(f, float(rho))
            assert float(fl.level.eps) == pytest.approx(float(exact.level.eps), rel=1e-9)


@pytest.mark.parametrize("rho", [0.1, 0.5, 0.9, 0.999])
def test_majority_epsilon_at_100001_no_underflow(rho: float) -> None:
    res = voting.epsilon(voting.majority(100001), rho)
    eps = float(res.level.eps)
    assert res.method == "counts" and math.isfinite(eps)
    assert 0 < eps < float(res.bound) and not res.attains_bound
    # extremes of the count: hazard-rate ordering puts the worst ratio at 0 vs 1 (or n-1 vs n) votes +1
    assert res.counts in ((1, 0), (0, 1), (100000, 100001), (100001, 100000))
    # large-n value: the ratio tends to (p^2 + q^2) / (2pq) = (1 + rho^2) / (1 - rho^2)
    assert eps == pytest.approx(math.log((1 + rho**2) / (1 - rho**2)), rel=2e-3)


def test_threshold_epsilon_is_attained_at_the_extreme_counts() -> None:
    f = voting.threshold(301, 21)
    res = voting.epsilon(f, Fraction(3, 5))
    assert res.counts in ((1, 0), (300, 301))


def test_epsilon_special_cases() -> None:
    assert voting.epsilon(voting.majority(3), 0).level.eps == 0
    assert voting.epsilon(voting.Rule.constant(4, -1), "1/2").level.eps == 0
    assert voting.epsilon(voting.majority(3), 1).level.eps == math.inf
    big_dictator = voting.epsilon(voting.dictator(60, 3), "1/2")
    assert big_dictator.attains_bound and str(big_dictator.level.eps) == "ln(3)"
    par = voting.epsilon(voting.parity(50), "1/2")
    assert par.level.eps == pg.LogRational(Fraction(2**50 + 1, 2**50 - 1))
    assert voting.epsilon(voting.parity(4), "1/2", method="table").level.eps == pg.LogRational(Fraction(17, 15))
    assert paper.attains_bound(voting.dictator(60, 3)).holds and paper.attains_bound(voting.disjunction(7)).voter == 0
    assert "attains" in str(voting.epsilon(voting.dictator(3), "1/2"))
    data = voting.epsilon(voting.majority(3), "1/2").to_dict()
    assert data["level"]["eps"] == {"ln": "11/5", "value": pytest.approx(math.log(11 / 5))}
    with pytest.raises(pg.InvalidParameterError):
        voting.epsilon(voting.majority(3), "1/2", method="bogus")


def test_remark1_brute_force_condition() -> None:
    for f in ALL_N3[:64]:
        table = f.table()
        labels = f.labels()
        expected = False
        for r, i, b in itertools.product((1, -1), range(3), "10"):
            level = [s for s, v in zip(labels, table) if v == r]
            if level and all(s[i] == b for s in level):
                expected = True
        assert paper.attains_bound(f).holds == expected


@pytest.mark.parametrize("rho", [Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)])
def test_majority_epsilon_at_100001_against_50_digit_reference(rho: Fraction) -> None:
    """The log-space ε by counts vs an independent decimal evaluation of the edge ratio P(·|1 vote +1)/P(·|none)."""
    from privgeom.testing import decimal_majority_edge_epsilon

    n = 100001
    res = voting.epsilon(voting.majority(n), float(rho))
    reference = float(decimal_majority_edge_epsilon(n, Fraction(float(rho))))
    # ln P is about -10^4 here, so float logs carry ~1e-12 absolute error each
    assert float(res) == pytest.approx(reference, rel=2e-11, abs=1e-13)
    assert res.counts in ((1, 0), (100000, 100001))
    # and at n = 201 the same reference equals the exact rational epsilon
    exact = voting.epsilon(voting.majority(201), rho)
    assert exact.exact and float(exact) == pytest.approx(float(decimal_majority_edge_epsilon(201, rho)), rel=1e-14)


def test_epsilon_float_value_and_json_for_huge_or_near_one_ratios() -> None:
    par = voting.epsilon(voting.parity(50), "1/2")  # ratio (2^50 + 1)/(2^50 - 1): ln(num) - ln(den) would give 0
    assert float(par) == pytest.approx(math.log1p(2 / (2**50 - 1)), rel=1e-15)
    big = voting.epsilon(voting.parity(20001), "1/2")  # integers of ~6000 digits
    data = big.to_dict()
    assert data["level"]["eps"]["ln"].startswith("0x") and data["level"]["eps"]["value"] == 0.0 and "ln(a/b" in str(big)
    assert (
        pg.LogRational.from_dict(data["level"]["eps"]) == big.level.eps
    )  # exact in JSON (hexadecimal beyond MAX_PRINTED_BITS)
    small = voting.epsilon(voting.majority(301), "1/100")  # exact, ratio close to 1
    assert float(small) == pytest.approx(float(voting.epsilon(voting.majority(301), 0.01)), rel=1e-12)


def test_remark1_closed_form_for_symmetric_rules() -> None:
    """OR_n: {f = -1} = {all -1} lies in {z_0 = -1}, so ε = ln(p/q) exactly at any n (Remark 1)."""
    res = voting.epsilon(voting.disjunction(100001), 0.5)
    assert res.method == "remark1" and res.attains_bound and float(res) == math.log(3)
    exact = voting.epsilon(voting.conjunction(200), "1/3")
    assert exact.level.eps == pg.LogRational(2) and exact.counts == (200, 199)
    assert (
        exact.level.eps == voting.epsilon(voting.conjunction(200), "1/3", method="counts").level.eps
    )  # computed route
    assert paper.CHECKS["Remark 1"](voting.disjunction(301), "1/2").holds  # the check computes ε by counts


def test_typed_errors_for_wrong_arguments() -> None:
    with pytest.raises(pg.InvalidTypeError):
        voting.epsilon([1, -1], "1/2")  # type: ignore[arg-type]
    with pytest.raises(pg.InvalidTypeError):
        voting.mechanism(None, "1/2")  # type: ignore[arg-type]
    with pytest.raises(pg.SizeLimitError):
        random_rule(40)
