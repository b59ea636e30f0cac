"""Catalogue mechanisms: closed forms, independent cross-checks and exact privacy levels via epsilon()."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import (
    InvalidParameterError,
    InvalidTypeError,
    LogRational,
    Mechanism,
    SizeLimitError,
    randomized_response,
)
from privgeom.testing import complete_graph, path_graph
from privgeom import delta, epsilon
from privgeom import frapp, kary_randomized_response, truncated_geometric

ALPHAS = st.fractions(min_value=Fraction(1, 50), max_value=Fraction(49, 50), max_denominator=50).filter(
    lambda a: 0 < a < 1
)


def is_column_stochastic(M: Mechanism) -> bool:
    return all(sum(M.column(j)) == 1 for j in range(M.n_inputs)) and all(v >= 0 for v in M.matrix.ravel())


def record_graph(labels: tuple[str, ...]) -> nx.Graph:
    """Tuples of records ("v1,v2,…") are neighbours when they differ in exactly one record."""
    G = nx.Graph()
    G.add_nodes_from(labels)
    for u, v in itertools.combinations(labels, 2):
        if sum(a != b for a, b in zip(u.split(","), v.split(","))) == 1:
            G.add_edge(u, v)
    return G


# ------------------------------------------------------------------------------------------------ truncated geometric
@given(st.integers(1, 6), ALPHAS)
def test_geometric_is_exact_and_ln_one_over_alpha_dp_on_the_path(n, alpha):
    M = truncated_geometric(n, alpha)
    assert M.exact and M.shape == (n + 1, n + 1) and is_column_stochastic(M)
    r = epsilon(M, path_graph(n))
    assert r.level.eps == LogRational(1 / alpha)
    # between the two ends of the path the ratio compounds: M[0, 0] / M[0, n] = α^{-n}
    assert epsilon(M, complete_graph(M.inputs)).level.eps == LogRational(alpha ** (-n))
    assert delta(M, path_graph(n), r.level.eps).delta == 0


@pytest.mark.parametrize("n", [1, 2, 5])
@pytest.mark.parametrize("alpha", [Fraction(1, 2), Fraction(1, 5), Fraction(9, 10)])
def test_geometric_equals_clamped_two_sided_geometric_noise(n, alpha):
    """Independent check: clamp i + Z to {0..n}, Z two-sided geometric, summing the pmf numerically."""
    M = truncated_geometric(n, alpha)
    a = float(alpha)
    L = 2000
    pmf = {z: (1 - a) / (1 + a) * a ** abs(z) for z in range(-L, L + 1)}
    for i in range(n + 1):
        col = [0.0] * (n + 1)
        for z, pz in pmf.items():
            col[min(n, max(0, i + z))] += pz
        assert [float(v) for v in M.column(i)] == pytest.approx(col, abs=1e-12)


def test_geometric_closed_form_entries():
    M = truncated_geometric(4, "1/3")
    a = Fraction(1, 3)
    for i in range(5):
        assert M.matrix[0, i] == a**i / (1 + a)
        assert M.matrix[4, i] == a ** (4 - i) / (1 + a)
        for z in range(1, 4):
            assert M.matrix[z, i] == (1 - a) / (1 + a) * a ** abs(z - i)
    assert M.inputs == M.outputs == ("0", "1", "2", "3", "4")


def test_geometric_float_mode():
    F = truncated_geometric(3, 0.25)
    assert not F.exact
    assert np.allclose(F.matrix, truncated_geometric(3, "1/4").float_matrix(), atol=1e-15)
    assert epsilon(F, path_graph(3)).level.eps == pytest.approx(math.log(4))
    assert truncated_geometric(3, 0.25, exact=True).exact


@pytest.mark.parametrize(
    "n, alpha, error, match",
    [
        (0, "1/2", InvalidParameterError, "n must be >= 1, got 0"),
        (2.0, "1/2", InvalidTypeError, "n must be an integer"),
        (True, "1/2", InvalidTypeError, "n must be an integer"),
        (3, 0, InvalidParameterError, r"alpha in \(0, 1\), got alpha = 0"),
        (3, 1, InvalidParameterError, "got alpha = 1"),
        (3, "3/2", InvalidParameterError, "got alpha = 3/2"),
        (3, -0.5, InvalidParameterError, "got alpha = -0.5"),
        (3, math.nan, InvalidParameterError, "not finite"),
        (3, None, InvalidTypeError, "alpha must be a number"),
        (3000, "1/2", SizeLimitError, r"truncated_geometric\(n=3000\)"),
        (10000, 0.5, SizeLimitError, "float"),
    ],
)
def test_geometric_bad_parameters(n, alpha, error, match):
    with pytest.raises(error, match=match):
        truncated_geometric(n, alpha)


# ------------------------------------------------------------------------------------------------ k-ary RR
@given(st.integers(2, 7), st.fractions(min_value=1, max_value=20, max_denominator=9))
def test_kary_rr_is_exactly_eps_ldp(k, t):
    M = kary_randomized_response(k, exp_eps=t)
    assert M.exact and is_column_stochastic(M)
    assert M.matrix[0, 0] == t / (t + k - 1) and M.matrix[1, 0] == 1 / (t + k - 1)
    r = epsilon(M, complete_graph(M.inputs))
    assert r.level.eps == LogRational(t)
    # δ(0) = total-variation distance between two columns = (e^ε − 1)/(e^ε + k − 1)
    assert delta(M, complete_graph(M.inputs), 0).delta == (t - 1) / (t + k - 1)


def test_kary_rr_parameter_forms_agree():
    by_t = kary_randomized_response(4, exp_eps=3)
    assert kary_randomized_response(4, p="1/2") == by_t  # e^ε = (k-1)p/(1-p) = 3
    assert kary_randomized_response(4, eps=LogRational(3)) == by_t
    assert kary_randomized_response(4, exp_eps="3") == by_t
    f = kary_randomized_response(4, eps=math.log(3))
    assert not f.exact and np.allclose(f.matrix, by_t.float_matrix())
    assert not kary_randomized_response(4, exp_eps=3.0).exact
    assert kary_randomized_response(4, exp_eps=3.0, exact=True).exact
    assert kary_randomized_response(["x", "y", "z"], exp_eps=1).inputs == ("x", "y", "z")
    uniform = kary_randomized_response(3, exp_eps=1)
    assert all(v == Fraction(1, 3) for v in uniform.matrix.ravel())
    assert epsilon(uniform, complete_graph(3)).level.eps == 0


def test_kary_rr_with_two_values_is_binary_rr():
    assert kary_randomized_response(["1", "0"], p="3/4") == randomized_response(1, "3/4")


@pytest.mark.parametrize(
    "n_values, kwargs, error, match",
    [
        (3, {}, InvalidParameterError, "exactly one of exp_eps=, eps=, p=; got none"),
        (3, {"exp_eps": 2, "p": "1/2"}, InvalidParameterError, r"got \['exp_eps', 'p'\]"),
        (3, {"exp_eps": "1/2"}, InvalidParameterError, "e\\^ε must be >= 1"),
        (3, {"eps": -1.0}, InvalidParameterError, "eps must be >= 0"),
        (3, {"eps": LogRational(Fraction(1, 2))}, InvalidParameterError, "e\\^ε must be >= 1"),
        (3, {"exp_eps": LogRational(2)}, InvalidTypeError, "logarithm"),
        (3, {"p": "1/4"}, InvalidParameterError, r"p in \[1/3, 1\), got p = 1/4"),
        (3, {"p": 1}, InvalidParameterError, "p = 1 reveals"),
        (3, {"p": 0.2}, InvalidParameterError, "got p = 0.2"),
        (1, {"exp_eps": 2}, InvalidParameterError, "n_values must be >= 2"),
        (["a"], {"exp_eps": 2}, InvalidParameterError, "at least 2 values"),
        (["a", "a"], {"exp_eps": 2}, InvalidParameterError, "repeated"),
        ("abc", {"exp_eps": 2}, InvalidTypeError, "list of value labels"),
        (3000, {"exp_eps": 2}, SizeLimitError, r"3000 values"),
        (10000, {"exp_eps": 2.0}, SizeLimitError, "float"),
    ],
)
def test_kary_rr_bad_parameters(n_values, kwargs, error, match):
    with pytest.raises(error, match=match):
        kary_randomized_response(n_values, **kwargs)


# ------------------------------------------------------------------------------------------------ FRAPP
@pytest.mark.parametrize("N", [2, 3, 4])
@pytest.mark.parametrize("gamma", [Fraction(1), Fraction(3, 2), Fraction(19)])
def test_frapp_one_record_is_ln_gamma_ldp_and_is_kary_rr(N, gamma):
    M = frapp(N, gamma)
    assert M.exact and is_column_stochastic(M)
    assert M == kary_randomized_response(N, exp_eps=gamma)  # the same matrix: keep w.p. γ/(γ+N−1)
    assert epsilon(M, complete_graph(M.inputs)).level.eps == LogRational(gamma)
    # γ-amplifying: every row's max/min ratio is γ
    for row in M.matrix:
        assert max(row) / min(row) == gamma


@pytest.mark.parametrize("N, k", [(2, 2), (2, 3), (3, 2), (4, 2)])
def test_frapp_records_closed_form_and_epsilon(N, k):
    gamma = Fraction(5, 2)
    M = frapp(N, gamma, k)
    assert M.shape == (N**k, N**k) and M.exact and is_column_stochastic(M)
    # entries factorise: γ^{#records kept} / (γ + N − 1)^k
    for i, d in enumerate(M.inputs):
        for w, o in enumerate(M.outputs):
            kept = sum(a == b for a, b in zip(d.split(","), o.split(",")))
            assert M.matrix[w, i] == gamma**kept / (gamma + N - 1) ** k
    assert epsilon(M, record_graph(M.inputs)).level.eps == LogRational(gamma)
    assert epsilon(M, complete_graph(M.inputs)).level.eps == LogRational(gamma**k)


def test_frapp_binary_records_is_randomized_response():
    # with values ordered 1, 0 the tuples come in RR's reverse-lexicographic order
    M = frapp(["1", "0"], 3, 3)
    R = randomized_response(3, "3/4")
    assert M.inputs == tuple(s.replace("", ",")[1:-1] for s in R.inputs)
    assert np.array_equal(M.matrix, R.matrix)


def test_frapp_labels_float_mode_and_matrix():
    M = frapp(["a", "b"], 2, 2)
    assert M.inputs == ("a,a", "a,b", "b,a", "b,b") == M.outputs
    assert frapp(3, 2).inputs == ("0", "1", "2")
    F = frapp(3, 2.0, 2)
    assert not F.exact and np.allclose(F.matrix, frapp(3, 2, 2).float_matrix())
    assert epsilon(F, record_graph(F.inputs)).level.eps == pytest.approx(math.log(2))
    A = frapp(4, "3").matrix  # one record: e^ε on the diagonal, 1 elsewhere, over e^ε + 3
    assert A[0, 0] == Fraction(1, 2) and A[1, 0] == Fraction(1, 6)


@pytest.mark.parametrize(
    "args, error, match",
    [
        ((1, 2), InvalidParameterError, "N must be >= 2"),
        ((3, "1/2"), InvalidParameterError, r"gamma >= 1, got gamma = 1/2"),
        ((3, 2, 0), InvalidParameterError, "k must be >= 1, got 0"),
        ((3, 2, 1.5), InvalidTypeError, "k must be an integer"),
        ((["a,b", "c"], 2), InvalidParameterError, "cannot contain ','"),
        ((["a", "a"], 2), InvalidParameterError, "repeated"),
        ((2, 2.0, 14), SizeLimitError, "float"),
        ((10, 2, 50), SizeLimitError, "datasets: its dense"),
        ((3, None), InvalidTypeError, "gamma must be a number"),
    ],
)
def test_frapp_bad_parameters(args, error, match):
    with pytest.raises(error, match=match):
        frapp(*args)


def test_exact_frapp_on_many_records_stays_factored():
    M = frapp(2, 2, 12)  # 4096 x 4096: kept as 12 factors, only the dense matrix is refused
    assert len(M.factors) == 12 and M.shape == (4096, 4096)
    assert M.column(0)[0] == Fraction(2, 3) ** 12 and sum(M.column(7)) == 1
    with pytest.raises(SizeLimitError, match=r"4096 x 4096 exact"):
        M.matrix
    small = frapp(3, "5/2", 2)
    dense = np.kron(frapp(3, "5/2").matrix, frapp(3, "5/2").matrix)
    assert small.matrix.tolist() == dense.tolist() and small.int_columns.denominators.tolist() == [81] * 9


@pytest.mark.parametrize("n, alpha", [(1, "1/2"), (2, "1/3"), (5, "2/3"), (8, "3/5"), (13, "1/7"), (30, "5/6")])
def test_geometric_integer_form_has_one_common_denominator(n, alpha):
    a = Fraction(alpha)
    M = truncated_geometric(n, alpha)
    C = M.int_columns
    assert C.denominators.tolist() == [(a.numerator + a.denominator) * a.denominator**n] * (n + 1)
    dense = Mechanism(M.matrix.tolist(), inputs=M.inputs, outputs=M.outputs)  # least common denominators
    assert dense == M and M == dense and dense.matrix.tolist() == M.matrix.tolist()
    assert M != truncated_geometric(n, Fraction(alpha) * Fraction(99, 100))
