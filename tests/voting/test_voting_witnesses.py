"""Every voting ε names a real witness, and tiny ε are values (item 1).

For a constant rule or ρ = 0 every profile has the same output law, so any edge attains the ratio 1; the witness
probability is the share of profiles where the rule takes the output (docs/theory.md §9, "Witnesses and sizes").
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest

from privgeom import voting


@pytest.mark.parametrize(
    "rule, rho, output, p",
    [
        (voting.majority(5), "0", "1", Fraction(1, 2)),  # symmetric: half the profiles
        (voting.threshold(4, 1), "0", "1", Fraction(5, 16)),  # sum > 1 iff at least 3 votes +1: (4 + 1)/16
        (voting.parity(4), 0.0, "1", 0.5),
        (voting.majority(weights=[2, 1, 1]), "0", "1", Fraction(3, 8)),  # weight > 2: {0,1}, {0,2}, {0,1,2} of 8
        (voting.Rule.constant(3, -1), "1/2", "-1", Fraction(1)),
        (voting.dictator(40, 3), "0", "1", Fraction(1, 2)),  # beyond the table: the dictator's vote
    ],
)
def test_constant_output_law_has_a_witness(rule: voting.Rule, rho: object, output: str, p: object) -> None:
    r = voting.epsilon(rule, rho)
    assert r.method == "constant" and float(r) == 0.0
    assert r.output == output and r.p == p and r.q == p and type(r.p) is type(p)
    a, b = r.edge  # type: ignore[misc]
    assert len(a) == len(b) == rule.n and sum(x != y for x, y in zip(a, b)) == 1  # a Hamming edge
    if rule.n <= 10:  # the mechanism's matrix gives the same probabilities on both profiles
        M = voting.mechanism(rule, rho)
        w = M.outputs.index(output)
        assert M.matrix[w, M.inputs.index(a)] == p == M.matrix[w, M.inputs.index(b)]
    assert "ratio 1 on every edge" in r.summary()


def test_by_count_sentence_names_the_profiles() -> None:
    r = voting.epsilon(voting.majority(5), "1/2")
    assert "output 1 on a profile with 1 vote +1 against its neighbour with 0 votes +1" in r.summary()
    assert r.counts == (1, 0) and r.edge == ("10000", "00000")
    assert r.p / r.q == r.level.exp_eps  # type: ignore[operator, union-attr]


def test_tiny_epsilon_is_printed_from_its_logarithm() -> None:
    """Parity at n = 9999, ρ = 1/2: ε = ln((1 + 2^-9999)/(1 − 2^-9999)) ≈ 2^-9998, far below a double."""
    r = voting.epsilon(voting.parity(9999), "1/2")
    assert float(r) == 0.0 and r.level.exp_eps > 1  # type: ignore[union-attr]
    with mp.workdps(30):
        x = mp.mpf(2) ** -9999
        ref = float(mp.log10(mp.log1p(x) - mp.log1p(-x)))
    assert r.level.exp_eps == Fraction(2**9999 + 1, 2**9999 - 1)  # type: ignore[union-attr]
    mant, exp = 10 ** (ref - math.floor(ref)), math.floor(ref)
    assert f"{mant:.12g}e{exp}" in r.summary() and r.to_dict()["level"]["eps"]["log10"] == pytest.approx(ref, rel=1e-14)


def _log10_majority_minus(n: int, plus: int) -> float:
    """``log10 P(majority of the noisy votes is −1)`` at ρ = 1/2 for ``plus ∈ {n − 1, n}`` votes +1 (mpmath, 30
    digits): each +1 vote turns −1 with probability 1/4, a −1 vote stays −1 with probability 3/4."""
    half = (n + 1) // 2
    with mp.workdps(30):

        def pmf(k: int) -> mp.mpf:
            return mp.binomial(plus, k) * mp.mpf(1 / 4) ** k * mp.mpf(3 / 4) ** (plus - k)

        tail = mp.fsum(pmf(k) for k in range(half, half + 400))  # terms fall by ~1/3 per step
        if plus == n - 1:  # the −1 voter: P(X + J >= half) = P(X >= half) + P(X = half − 1) · 3/4
            tail += pmf(half - 1) * mp.mpf(3) / 4
        return float(mp.log10(tail))


def test_witness_probabilities_below_a_double_keep_their_logarithms() -> None:
    r = voting.epsilon(voting.majority(100001), 0.5)
    assert r.counts == (100000, 100001) and r.output == "-1" and r.p == 0.0 == r.q  # both underflow
    ref_p, ref_q = _log10_majority_minus(100001, 100000), _log10_majority_minus(100001, 100001)
    assert math.isclose(r.log10_p, ref_p, rel_tol=1e-12) and math.isclose(r.log10_q, ref_q, rel_tol=1e-12)
    assert math.isclose((r.log10_p - r.log10_q) * math.log(10), float(r), rel_tol=1e-9)  # the ratio is e^ε
    assert "probabilities 3.64761e-6250 and 2.18853e-6250" in r.summary()


def test_remark1_witness_logs_are_the_closed_form() -> None:
    """AND_n at ρ = 1/2: output 1 needs every noisy vote +1, so p = (3/4)^n and q = (3/4)^(n−1)·(1/4) (Remark 1)."""
    n = 100000
    r = voting.epsilon(voting.conjunction(n), "1/2")
    assert r.method == "remark1" and r.p == 0.0  # below a double
    assert math.isclose(r.log10_p, n * math.log10(3 / 4), rel_tol=1e-14)
    assert math.isclose(r.log10_q, (n - 1) * math.log10(3 / 4) + math.log10(1 / 4), rel_tol=1e-14)
    small = voting.epsilon(voting.conjunction(4), "1/2")
    assert small.p == Fraction(81, 256) and math.isclose(small.log10_p, math.log10(81 / 256), rel_tol=1e-14)
