"""ε-differential privacy over neighbour graphs, decided row by row."""

from __future__ import annotations

import math
from fractions import Fraction as F

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import (
    DomainMismatchError,
    InvalidParameterError,
    InvalidTypeError,
    LogRational,
    Mechanism,
    randomized_response,
)
from privgeom.testing import hamming_graph, path_graph
from privgeom.definitions import DifferentialPrivacy, RandomizedResponse, parse_definition
from privgeom.results import RowCertificate
from privgeom.geometry import Cone


def dp_level(eps=None, exp_eps=None, *, exact=None):
    """The privacy level a DP definition reads from its parameters (its ``.level``: ε = 0 is exact however spelt)."""
    return DifferentialPrivacy.path(2, eps=eps, exp_eps=exp_eps, exact=exact).level


@pytest.mark.parametrize("p", ["3/5", "2/3", "3/4", "4/5", "9/10"])
def test_rr_is_dp_exactly_when_p_over_1_minus_p_le_e_eps(p: str) -> None:
    pv = F(p)
    dp = DifferentialPrivacy.hamming(3, exp_eps=3)
    ans = dp.contains(randomized_response(3, p))
    assert ans.member == (pv / (1 - pv) <= 3)
    assert ans.method == "dp-row-inequalities" and ans.exact
    if not ans.member:
        c = ans.certificate
        assert isinstance(c, RowCertificate)
        Di, Dj = c.edge
        assert sum(a != b for a, b in zip(Di, Dj)) == 1  # neighbours differ in one bit
        x = randomized_response(3, p).row(c.output)
        i, j = dp.inputs.index(Di), dp.inputs.index(Dj)
        assert c.value == 3 * x[j] - x[i] < 0
        assert c.inequality == f"x[{Di}] ≤ 3·x[{Dj}]"
        assert c.label == f"{Di}->{Dj}"


def test_row_cone_h_representation() -> None:
    dp = DifferentialPrivacy.hamming(2, exp_eps=3)
    cone = dp.row_cone()
    assert cone.n_facets == 8  # 2|E| edge inequalities; x >= 0 is implied for e^eps > 1 on a connected graph
    assert cone == Cone.from_facets(dp.inequalities(), labels=dp.inputs)
    # Lin & Kifer Section V: RR(p) relaxes to DP with e^eps = p/(1-p): rowcone(RR) ⊆ rowcone(DP)
    assert RandomizedResponse(2, "3/4").row_cone().issubset(cone).holds
    assert not RandomizedResponse(2, "4/5").row_cone().issubset(cone).holds


def test_eps_zero_is_constant_rows() -> None:
    dp = DifferentialPrivacy.path(2, eps=0)
    assert dp.exact and dp.level.exp_eps == 1
    assert dp.contains(Mechanism([["1/3"] * 3, ["2/3"] * 3], inputs=dp.inputs)).member
    assert not dp.contains_row([1, 1, 2]).member
    assert not dp.contains_row([-1, -1, -1]).member  # the row cone is inside the orthant


def test_isolated_dataset_and_edge_list() -> None:
    dp = DifferentialPrivacy([("a", "b")], exp_eps=2, inputs=["a", "b", "c"])
    assert dp.inputs == ("a", "b", "c") and dp.edges == (("a", "b"), ("b", "a"))
    assert dp.contains(Mechanism([["1/2", "1/4", 0], ["1/2", "3/4", 1]], inputs=["a", "b", "c"])).member
    assert not dp.contains(Mechanism([[1, "1/3", 0], [0, "2/3", 1]], inputs=["a", "b", "c"])).member
    by_order = DifferentialPrivacy([("x", "y"), ("y", "z")], exp_eps=2)
    assert by_order.inputs == ("x", "y", "z")
    assert by_order.spec() == "dp:graph=edges,inputs=x;y;z,edges=x~y;y~z,exp_eps=2"
    assert parse_definition(by_order.spec()).edges == by_order.edges
    G = nx.Graph()
    G.add_edges_from([(0, 1), (1, 2)])
    assert DifferentialPrivacy(G, exp_eps=2).inputs == ("0", "1", "2")


def test_complete_graph_is_local_dp() -> None:
    dp = DifferentialPrivacy.complete(4, eps=LogRational(3))
    assert dp.exact and dp.level.exp_eps == 3 and dp.level.eps == LogRational(3)
    n = 4
    krr = Mechanism([[F(3, 6) if i == j else F(1, 6) for j in range(n)] for i in range(n)], inputs=dp.inputs)
    assert dp.contains(krr).member  # k-RR with ratio 3
    assert dp.row_cone().n_facets == n * (n - 1)


def test_float_mode() -> None:
    dp = DifferentialPrivacy.hamming(2, eps=math.log(3))
    assert not dp.exact and abs(dp.level.exp_eps - 3) < 1e-12
    ans = dp.contains(randomized_response(2, "3/4"))  # on the boundary: within tolerance
    assert ans.member and not ans.exact
    no = dp.contains(randomized_response(2, 0.8))
    assert not no.member and no.certificate.value < -1e-9
    assert dp.spec() == f"dp:graph=hamming,k=2,eps={math.log(3)!r}"
    assert parse_definition(dp.spec()).level.exp_eps == dp.level.exp_eps


def test_row_cone_method_agrees() -> None:
    dp = DifferentialPrivacy.path(3, exp_eps="3/2")
    rng = np.random.default_rng(3)
    for _ in range(20):
        raw = rng.integers(1, 6, size=(3, 4))
        M = Mechanism([[F(int(raw[o, i]), int(raw[:, i].sum())) for i in range(4)] for o in range(3)], inputs=dp.inputs)
        a, b = dp.contains(M), dp.contains(M, method="row-cone")
        assert a.member == b.member
        if not b.member:
            x = M.matrix[b.certificate.row]
            assert b.certificate.normal.dot(x) == b.certificate.value < 0


@given(st.lists(st.integers(0, 20), min_size=4, max_size=4), st.sampled_from(["2", "3/2", "5"]))
def test_contains_row_matches_definition(row: list[int], r: str) -> None:
    dp = DifferentialPrivacy.hamming(2, exp_eps=r)
    c = F(r)
    x = dict(zip(dp.inputs, row))
    expected = all(x[u] <= c * x[v] and x[v] <= c * x[u] for u, v in hamming_graph(2).edges)
    assert dp.contains_row(row).member == expected
    assert DifferentialPrivacy.hamming(2, exp_eps=float(c)).contains_row(np.array(row, float)).member == expected
    assert dp.row_cone().contains(row).member == expected


# ---------------------------------------------------------------------------------------------------- parameters
def test_parameter_forms() -> None:
    assert dp_level(exp_eps=3).exp_eps == 3 and isinstance(dp_level(exp_eps=3).exp_eps, F)
    assert dp_level(eps="ln(3)").exp_eps == 3
    assert dp_level(eps=" ln( 9/4 ) ").exp_eps == F(9, 4)
    assert dp_level(eps=0).exp_eps == 1 and dp_level(eps=0.0).exp_eps == 1 and isinstance(dp_level(eps=0.0).exp_eps, F)
    assert isinstance(dp_level(eps=1.2).exp_eps, float) and isinstance(dp_level(eps="1/2").exp_eps, float)
    assert isinstance(dp_level(exp_eps=2.5).exp_eps, float)
    assert isinstance(dp_level(exp_eps="5/2", exact=False).exp_eps, float)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"eps": 1, "exp_eps": 3},
        {"eps": -0.5},
        {"eps": "-1"},
        {"exp_eps": "1/2"},
        {"exp_eps": 0.9},
        {"eps": LogRational(F(1, 2))},
        {"eps": 1.0, "exact": True},
        {"eps": 1e6},
        {"eps": "ln(-2)"},
    ],
)
def test_bad_parameters(kwargs: dict) -> None:
    with pytest.raises(InvalidParameterError):
        DifferentialPrivacy(hamming_graph(1), **kwargs)


def test_bad_graphs_and_inputs() -> None:
    with pytest.raises(DomainMismatchError):
        DifferentialPrivacy([("a", "q")], exp_eps=2, inputs=["a", "b"])
    with pytest.raises(InvalidTypeError):
        DifferentialPrivacy(42, exp_eps=2)
    dp = DifferentialPrivacy.path(2, exp_eps=2)
    with pytest.raises(DomainMismatchError):
        dp.contains(randomized_response(1, "3/4"))
    with pytest.raises(DomainMismatchError):
        dp.contains_row([1, 1])
    assert DifferentialPrivacy(path_graph(2), exp_eps=2).spec() == "dp:graph=path,n=2,exp_eps=2"
