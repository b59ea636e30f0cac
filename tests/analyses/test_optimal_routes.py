"""The fast routes of optimal_mechanism (explicit Bayes rule, k-RR closed form, symmetry-reduced LP) against the
full LP on every size both reach, and against theory values."""

import re
from fractions import Fraction

import pytest

from privgeom import InvalidParameterError
from privgeom import optimal_mechanism
from privgeom.definitions import DifferentialPrivacy, RandomizedResponse
from privgeom.testing import complete_graph, hamming_graph, path_graph

BIG = 10**9


def _same(fast, lp):
    assert fast.exact and lp.exact and fast.certificate.exact
    assert fast.value == lp.value == fast.certificate.bound
    assert fast.membership.member


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("t", [2, 3, "3/2", 10])
def test_closed_form_krr_matches_lp(n, t):
    dp = DifferentialPrivacy(complete_graph(n), exp_eps=t)
    fast = optimal_mechanism(dp, method="closed-form")
    _same(fast, optimal_mechanism(dp, method="lp", max_lp_size=BIG))
    r = Fraction(t)
    assert fast.value == r / (r + n - 1)  # KOV 2016: k-RR, accuracy e^ε / (e^ε + n − 1)
    assert fast.mechanism.matrix[0, 0] == r / (r + n - 1) and fast.mechanism.matrix[0, 1] == 1 / (r + n - 1)


@pytest.mark.parametrize("graph", [hamming_graph(2), hamming_graph(3), complete_graph(5), path_graph(4), path_graph(5)])
@pytest.mark.parametrize("t", [2, 3])
def test_symmetric_reduction_matches_lp(graph, t):
    dp = DifferentialPrivacy(graph, exp_eps=t)
    fast = optimal_mechanism(dp, method="symmetric")
    _same(fast, optimal_mechanism(dp, method="lp", max_lp_size=BIG))
    v = int(re.search(r"(\d+) orbit variables", fast.certificate.detail).group(1))  # the reduced LP's own report
    assert v < len(dp.inputs) ** 2  # fewer variables than the full LP (orbits of (output, dataset) pairs)


def test_symmetric_reduction_on_hamming_is_product_rr():
    """ε-DP on the k-cube, accuracy, uniform prior: the reduced LP finds value (e^ε/(1+e^ε))^k for e^ε = 3 — the
    k-fold one-bit randomized response, whose accuracy is p^k with p = 3/4; the reduced LP has k + 1 variables
    (pairs by Hamming distance)."""
    for k in (2, 3, 4, 5):
        dp = DifferentialPrivacy(hamming_graph(k), exp_eps=3)
        opt = optimal_mechanism(dp, method="symmetric")
        assert opt.value == Fraction(3, 4) ** k
        assert f" {k + 1} orbit variables" in opt.certificate.detail


def test_symmetric_reduction_with_invariant_prior_and_utility():
    """A non-accuracy utility invariant under the path's reversal: U[D, ω] = −|D − ω| (squared loss family)."""
    dp = DifferentialPrivacy(path_graph(4), exp_eps=2)
    n = 5
    U = [[-abs(d - w) for w in range(n)] for d in range(n)]
    util = {"matrix": U, "outputs": list(dp.inputs)}
    prior = ["1/10", "1/5", "2/5", "1/5", "1/10"]
    fast = optimal_mechanism(dp, util, prior, method="symmetric")
    _same(fast, optimal_mechanism(dp, util, prior, method="lp", max_lp_size=BIG))


def test_symmetric_refused_without_invariance():
    dp = DifferentialPrivacy(path_graph(3), exp_eps=2)
    with pytest.raises(InvalidParameterError, match="symmetric"):
        optimal_mechanism(dp, "accuracy", ["1/2", "1/4", "1/8", "1/8"], method="symmetric")
    with pytest.raises(InvalidParameterError, match="closed-form"):
        optimal_mechanism(dp, method="closed-form")
    with pytest.raises(InvalidParameterError, match="explicit"):
        optimal_mechanism(dp, method="explicit")
    with pytest.raises(InvalidParameterError, match="nope"):
        optimal_mechanism(dp, method="nope")


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("p", ["3/4", "2/3"])
def test_explicit_rr_matches_lp(k, p):
    rr = RandomizedResponse(k, p)
    fast = optimal_mechanism(rr, method="explicit")
    _same(fast, optimal_mechanism(rr, method="lp", max_lp_size=BIG))
    assert fast.value == Fraction(p) ** k  # the identity decision on M_rr: every row's largest entry is p^k


def test_explicit_with_prior_and_utility():
    rr = RandomizedResponse(2, "3/4")
    U = [[1, 0], [0, 1], [1, 0], ["1/2", "1/2"]]
    prior = ["1/2", "1/4", "1/8", "1/8"]
    _same(
        optimal_mechanism(rr, U, prior, method="explicit"),
        optimal_mechanism(rr, U, prior, method="lp", max_lp_size=BIG),
    )


def test_auto_answers_the_issue_sizes_with_default_limits():
    """Sizes the full LP refuses at the default limit are answered by the fast routes (counted, not timed)."""
    opt = optimal_mechanism(DifferentialPrivacy(complete_graph(30), exp_eps=3))
    assert opt.value == Fraction(3, 32) and "closed form" in opt.certificate.detail
    opt = optimal_mechanism(RandomizedResponse(6, "3/4"))
    assert opt.value == Fraction(3, 4) ** 6 and "no LP solved" in opt.certificate.detail
    opt = optimal_mechanism(DifferentialPrivacy(hamming_graph(6), exp_eps=3))
    assert opt.value == Fraction(3, 4) ** 6 and "7 orbit variables" in opt.certificate.detail
