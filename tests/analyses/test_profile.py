"""Exact privacy profiles: ε, δ(ε), the δ(ε) curve and its plot, checked against brute force and closed forms; the
private kernels of the profile scan (work units, edge grouping, refusals before any scan)."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom.analyses.profiles._profile as profile_mod
import privgeom.analyses.profiles._scan as scan_mod
from privgeom import (
    DomainMismatchError,
    InvalidParameterError,
    InvalidTypeError,
    LogRational,
    Mechanism,
    SizeLimitError,
    randomized_response,
)
import privgeom as pg
from privgeom.analyses.profiles._profile import MAX_PROFILE_WORK, profile_work
from privgeom.testing import complete_graph, count_calls, hamming_graph, path_graph, peak_mib
from privgeom._core.domain import resolve_graph
from privgeom.analyses.profiles._hockey_stick import hockey_stick, hockey_stick_event
from privgeom import delta, epsilon
from privgeom.results import DeltaCurve
from privgeom import delta_curve
from privgeom.plots._profile import plot_delta_curve


# ------------------------------------------------------------------------------------------------ brute force
def brute_epsilon(M: Mechanism, edges) -> Fraction | float:
    """max over ordered neighbour pairs and outputs of P(ω|D)/P(ω|D'), as the ratio (inf if unbounded)."""
    best: Fraction | float = Fraction(1)
    col = {d: i for i, d in enumerate(M.inputs)}
    for u, v in edges:
        for i, j in ((col[u], col[v]), (col[v], col[u])):
            for w in range(M.n_outputs):
                p, q = M.matrix[w, i], M.matrix[w, j]
                if p > 0 and q == 0:
                    return math.inf
                if q > 0 and p / q > best:
                    best = p / q
    return best


def brute_delta(M: Mechanism, edges, t) -> Fraction | float:
    """max over ordered pairs and ALL events S of P(S|D) − t P(S|D'), enumerating every subset of outputs."""
    col = {d: i for i, d in enumerate(M.inputs)}
    best = Fraction(0) if isinstance(t, Fraction) else 0.0
    outs = range(M.n_outputs)
    for u, v in edges:
        for i, j in ((col[u], col[v]), (col[v], col[u])):
            for r in range(M.n_outputs + 1):
                for S in itertools.combinations(outs, r):
                    P = sum((M.matrix[w, i] for w in S), Fraction(0))
                    Q = sum((M.matrix[w, j] for w in S), Fraction(0))
                    if isinstance(t, float):
                        val = float(P) - (0.0 if Q == 0 else t * float(Q))
                    else:
                        val = P - t * Q
                    best = max(best, val)
    return best


def brute_delta_at_infinity(M: Mechanism, edges) -> Fraction:
    col = {d: i for i, d in enumerate(M.inputs)}
    best = Fraction(0)
    for u, v in edges:
        for i, j in ((col[u], col[v]), (col[v], col[u])):
            best = max(best, sum((M.matrix[w, i] for w in range(M.n_outputs) if M.matrix[w, j] == 0), Fraction(0)))
    return best


@st.composite
def mech_and_edges(draw, max_in: int = 4, max_out: int = 5, zeros: bool = True):
    n_in = draw(st.integers(2, max_in))
    n_out = draw(st.integers(1, max_out))
    lo = 0 if zeros else 1
    cols = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(lo, 5), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([Fraction(x, sum(w)) for x in w])
    matrix = [[cols[j][i] for j in range(n_in)] for i in range(n_out)]
    M = Mechanism(matrix, inputs=[f"D{j}" for j in range(n_in)], outputs=[f"w{i}" for i in range(n_out)])
    pairs = list(itertools.combinations(M.inputs, 2))
    edges = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True))
    return M, edges


RATIONAL_T = st.fractions(min_value=1, max_value=12, max_denominator=7)


# ------------------------------------------------------------------------------------------------ ε
@given(mech_and_edges())
def test_epsilon_matches_brute_force_exactly(case):
    M, edges = case
    r = epsilon(M, edges)
    expected = brute_epsilon(M, edges)
    assert r.exact
    if expected == math.inf:
        assert r.infinite and r.level.eps == math.inf and r.q == 0 and r.p > 0
    else:
        assert not r.infinite
        assert isinstance(r.level.eps, LogRational) and r.level.eps.ratio == expected
        assert r.p / r.q == expected and r.level.exp_eps == expected
    # the witness names real entries of the matrix, on a real edge
    d, d2 = r.edge
    assert {d, d2} in [set(e) for e in edges]
    assert M.matrix[M.outputs.index(r.output), M.inputs.index(d)] == r.p
    assert M.matrix[M.outputs.index(r.output), M.inputs.index(d2)] == r.q


@given(mech_and_edges())
def test_epsilon_float_mode_agrees(case):
    M, edges = case
    r = epsilon(M.to_float(), edges)
    expected = brute_epsilon(M, edges)
    assert not r.exact and isinstance(r.level.eps, float)
    if expected == math.inf:
        assert r.infinite and math.isinf(r.level.eps)
    else:
        assert r.level.eps == pytest.approx(math.log(expected), abs=1e-12)


@given(mech_and_edges(max_in=4, max_out=4))
def test_epsilon_block_scan_equals_single_block(case):
    M, edges = case
    old = scan_mod._BLOCK
    try:
        scan_mod._BLOCK = 1
        small, small_f = epsilon(M, edges), epsilon(M.to_float(), edges)
    finally:
        scan_mod._BLOCK = old
    assert epsilon(M, edges) == small
    assert epsilon(M.to_float(), edges) == small_f


@given(mech_and_edges(max_in=4, max_out=4), RATIONAL_T)
def test_edge_grouping_does_not_change_answers(case, t):
    """Edges are grouped by their multiset of (P(ω|D), P(ω|D')) pairs; switching grouping off changes nothing."""
    M, edges = case
    grouped = (epsilon(M, edges), delta(M, edges, exp_eps=t), delta_curve(M, edges, exp_eps_values=[t]))
    old = scan_mod._CLASS_ENTRIES
    try:
        scan_mod._CLASS_ENTRIES = -1
        assert len(profile_mod._prepare(M, edges).reps) == 2 * len(edges)
        ungrouped = (epsilon(M, edges), delta(M, edges, exp_eps=t), delta_curve(M, edges, exp_eps_values=[t]))
    finally:
        scan_mod._CLASS_ENTRIES = old
    assert grouped == ungrouped


def test_symmetric_mechanisms_need_one_class():
    # every directed Hamming edge of RR sees the same multiset of output pairs: exact work is done once
    assert len(profile_mod._prepare(randomized_response(4, "3/4"), hamming_graph(4)).reps) == 1
    M = randomized_response(2, "3/4")
    P = profile_mod._prepare(M, complete_graph(M.inputs))
    # pairs (11,10) at distance 1 and (11,00) at distance 2 (directed edge 4) represent the two classes
    assert list(P.reps) == [0, 4]


@pytest.mark.slow
def test_large_exact_randomized_response():
    M = randomized_response(10, "3/4")
    G = hamming_graph(10)
    assert epsilon(M, G).level.eps == LogRational(3)
    assert delta(M, G, exp_eps=2).delta == Fraction(1, 4)


@pytest.fixture
def monkeypatch_block(monkeypatch):
    def set_block(value: int) -> None:
        monkeypatch.setattr(scan_mod, "_BLOCK", value)

    return set_block


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("p", ["3/4", "2/3", "9/10", "51/100"])
def test_randomized_response_epsilon_closed_forms(k, p):
    """Lin & Kifer §V: RR(p) on k bits is ln(p/(1-p))-DP on the Hamming graph; k·ln(p/(1-p)) on the complete graph."""
    p = Fraction(p)
    M = randomized_response(k, p)
    r = p / (1 - p)
    on_cube = epsilon(M, hamming_graph(k))
    assert on_cube.level.eps == LogRational(r) and str(on_cube.level.eps) == f"ln({r})"
    assert epsilon(M, complete_graph(M.inputs)).level.eps == LogRational(r**k)
    # δ at the exact ε is 0, and positive just below it
    assert delta(M, hamming_graph(k), on_cube.level.eps).delta == 0
    assert delta(M, hamming_graph(k), exp_eps=r * Fraction(99, 100)).delta > 0


def test_epsilon_infinite_for_rr_with_p_one_and_for_disjoint_supports():
    M = randomized_response(2, 1)
    r = epsilon(M, hamming_graph(2))
    assert r.infinite and r.level.eps == math.inf and r.level.exp_eps == math.inf and float(r) == math.inf
    assert r.edge == ("11", "10") and r.output == "11" and r.p == 1 and r.q == 0
    assert "∞" in str(r)
    assert json.loads(r.to_json())["level"]["eps"] == "inf"


def test_epsilon_on_graph_without_edges_and_integer_nodes():
    M = randomized_response(1, "3/4")
    G = nx.Graph()
    G.add_nodes_from(M.inputs)
    r = epsilon(M, G)
    assert r.level.eps == 0 and r.edge is None and r.n_edges == 0 and "no edges" in str(r)
    assert epsilon(M.to_float(), []).level.eps == 0.0
    # integer nodes are labels, never silently column positions; positions only when asked for
    assert epsilon(M, [(0, 1)]).level.eps == LogRational(3)  # the labels are "1", "0": the nodes 0, 1 name them
    M2 = randomized_response(2, "3/4")  # labels 11, 10, 01, 00
    with pytest.raises(
        DomainMismatchError, match=r"nodes \[0, 1, 2, 3\] are not the datasets' labels .*nodes='positions'"
    ):
        epsilon(M2, nx.path_graph(4))  # read as positions this was ln 9, silently
    assert epsilon(M2, resolve_graph(nx.path_graph(4), M2, nodes="positions")).level.eps == LogRational(9)
    assert epsilon(M2, resolve_graph([(0, 1)], M2, nodes="positions")).level.eps == LogRational(3)


def test_epsilon_exact_with_fractions_that_underflow_floats():
    tiny = Fraction(1, 10**400)
    M = Mechanism([[tiny, 2 * tiny], [1 - tiny, 1 - 2 * tiny]], inputs=["a", "b"])
    r = epsilon(M, [("a", "b")])
    assert r.level.eps == LogRational(2) and r.output == "o0" and r.edge == ("b", "a")
    assert float(r) == pytest.approx(math.log(2))


def test_epsilon_near_ties_are_decided_exactly():
    # two ratios differing by ~1e-30: floats cannot tell them apart, the exact pass must
    e = Fraction(1, 10**30)
    x = [Fraction(1, 4), Fraction(1, 4) + e / 8, Fraction(1, 2) - e / 8]
    y = [Fraction(1, 8), Fraction(1, 8), Fraction(3, 4)]
    M = Mechanism([[a, b] for a, b in zip(x, y)], inputs=["x", "y"])
    r = epsilon(M, [("x", "y")])
    assert r.level.eps.ratio == 2 + e and r.output == "o1"


def test_epsilon_beyond_float_range():
    # exact: the ratio 10^400 is kept; float: ε ≈ 921 is fine but e^ε overflows to inf, not an error
    tiny = Fraction(1, 10**400)
    M = Mechanism([[1 - tiny, 0], [tiny, 1]], inputs=["a", "b"])
    assert epsilon(M, [("a", "b")]).infinite
    N = Mechanism([[1 - tiny, tiny], [tiny, 1 - tiny]], inputs=["a", "b"])
    r = epsilon(N, [("a", "b")])
    assert r.level.eps.ratio == (1 - tiny) / tiny and r.level.exp_eps == (1 - tiny) / tiny
    f = epsilon(Mechanism([[1.0, 1e-320], [0.0, 1.0]], inputs=["a", "b"]), [("a", "b")])
    assert f.infinite
    g = epsilon(Mechanism([[1.0 - 1e-310, 1e-310], [1e-310, 1.0 - 1e-310]], inputs=["a", "b"]), [("a", "b")])
    assert g.level.eps == pytest.approx(310 * math.log(10)) and g.level.exp_eps == math.inf


def test_epsilon_summary_and_json():
    r = epsilon(randomized_response(2, "3/4"), hamming_graph(2))
    text = str(r)
    assert "ln(3)" in text and "11 → 10" in text and "9/16" in text and "3/16" in text
    data = json.loads(r.to_json())
    assert data["level"]["eps"] == {"ln": "3", "value": pytest.approx(math.log(3))}
    assert data["edge"] == ["11", "10"] and data["p"] == "9/16"


def test_epsilon_bad_inputs():
    M = randomized_response(1, "3/4")
    with pytest.raises(InvalidTypeError, match="Mechanism"):
        epsilon([[1, 0], [0, 1]], [(0, 1)])
    with pytest.raises(DomainMismatchError, match="'zz'"):
        epsilon(M, [("1", "zz")])
    with pytest.raises(InvalidTypeError, match="neighbour relation"):
        epsilon(M, 5)


# ------------------------------------------------------------------------------------------------ δ
@given(mech_and_edges(), RATIONAL_T)
def test_delta_matches_brute_force_exactly(case, t):
    M, edges = case
    r = delta(M, edges, exp_eps=t)
    assert r.exact and isinstance(r.delta, Fraction)
    assert r.delta == brute_delta(M, edges, t)
    assert r.level.exp_eps == t and r.level.eps == LogRational(t)
    # the witness event attains δ on the witness edge
    assert r.p_event - t * r.q_event == r.delta
    d, d2 = r.edge
    i, j = M.inputs.index(d), M.inputs.index(d2)
    S = [M.outputs.index(o) for o in r.outputs]
    assert sum((M.matrix[w, i] for w in S), Fraction(0)) == r.p_event
    assert sum((M.matrix[w, j] for w in S), Fraction(0)) == r.q_event
    assert (r.delta == 0) == (not r.outputs)


@given(mech_and_edges(), st.floats(min_value=0, max_value=3))
def test_delta_float_mode_agrees(case, eps):
    M, edges = case
    r = delta(M, edges, eps)
    assert not r.exact and isinstance(r.delta, float)
    assert r.delta == pytest.approx(float(brute_delta(M, edges, math.exp(eps))), abs=1e-12)
    r2 = delta(M.to_float(), edges, eps)
    assert r2.delta == pytest.approx(r.delta, abs=1e-12)


@given(mech_and_edges())
def test_delta_at_zero_is_the_largest_total_variation(case):
    M, edges = case
    col = {d: i for i, d in enumerate(M.inputs)}
    tv = max(sum(abs(M.matrix[w, col[u]] - M.matrix[w, col[v]]) for w in range(M.n_outputs)) / 2 for u, v in edges)
    assert delta(M, edges, 0).delta == tv
    assert delta(M, edges, exp_eps=1).delta == tv
    assert delta(M, edges, LogRational(1)).delta == tv


@given(mech_and_edges())
def test_delta_vanishes_exactly_at_the_exact_epsilon(case):
    M, edges = case
    e = epsilon(M, edges)
    if e.infinite:
        assert delta(M, edges, 800.0).delta == pytest.approx(float(brute_delta_at_infinity(M, edges)))
        assert delta(M, edges, exp_eps=10**6).delta > 0
    else:
        assert delta(M, edges, e.level.eps).delta == 0
        if e.level.eps.ratio > 1:
            below = 1 + (e.level.eps.ratio - 1) * Fraction(999, 1000)
            assert delta(M, edges, exp_eps=below).delta > 0


def test_delta_block_scan_equals_single_block(monkeypatch_block):
    M = randomized_response(3, "2/3")
    G = hamming_graph(3)
    whole = delta(M, G, exp_eps="3/2")
    monkeypatch_block(3)
    assert delta(M, G, exp_eps="3/2") == whole
    assert delta(M, G, 0.3).delta == pytest.approx(float(brute_delta(M, G.edges, math.exp(0.3))))


def test_delta_eps_forms():
    M = randomized_response(1, "3/4")
    r = delta(M, [("1", "0")], "1/2")
    assert not r.exact and "irrational" in r.detail and r.detail in str(r)
    assert r.delta == pytest.approx(0.75 - math.exp(0.5) / 4)
    r = delta(M, [("1", "0")], exp_eps=2.0)
    assert not r.exact and "float" in r.detail and r.delta == pytest.approx(0.25)
    r = delta(M, [("1", "0")], 0)
    assert r.exact and r.delta == Fraction(1, 2) and r.level.eps == 0
    r = delta(M.to_float(), [("1", "0")], LogRational(2))
    assert not r.exact and r.detail == "" and r.delta == pytest.approx(0.25)
    # ε beyond float range: e^ε = ∞, δ = mass where the neighbour has none
    assert delta(M, [("1", "0")], 1000.0).delta == 0.0
    assert delta(randomized_response(1, 1), [("1", "0")], 1000.0).delta == 1.0
    # "ln(r)" as for DifferentialPrivacy(eps="ln(3)"): exact
    r = delta(M, [("1", "0")], "ln(2)")
    assert r.exact and r.delta == Fraction(1, 4) and r.level.eps == LogRational(2)
    with pytest.raises(InvalidParameterError, match="positive"):
        delta(M, [("1", "0")], "ln(0)")
    with pytest.raises(InvalidParameterError, match=">= 0"):
        delta(M, [("1", "0")], "ln(1/2)")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({}, InvalidParameterError, "exactly one"),
        ({"eps": 1.0, "exp_eps": 2}, InvalidParameterError, "exactly one"),
        ({"eps": -0.1}, InvalidParameterError, ">= 0"),
        ({"eps": LogRational(Fraction(1, 2))}, InvalidParameterError, ">= 0"),
        ({"exp_eps": "1/2"}, InvalidParameterError, ">= 1"),
        ({"exp_eps": LogRational(2)}, InvalidTypeError, "logarithm"),
        ({"eps": "abc"}, InvalidParameterError, "rational"),
        ({"eps": True}, InvalidTypeError, "number"),
        ({"eps": math.nan}, InvalidParameterError, "finite"),
    ],
)
def test_delta_bad_eps(kwargs, error, match):
    with pytest.raises(error, match=match):
        delta(randomized_response(1, "3/4"), [("1", "0")], **kwargs)


def test_delta_summary_and_json():
    r = delta(randomized_response(2, "3/4"), hamming_graph(2), exp_eps=2)
    assert r.delta == Fraction(1, 4) and r.edge == ("11", "10") and r.outputs == ("11", "01")
    assert "1/4" in str(r) and "S = {11, 01}" in str(r)
    assert json.loads(r.to_json())["delta"] == "1/4"
    zero = delta(randomized_response(2, "3/4"), hamming_graph(2), exp_eps=3)
    assert zero.delta == 0 and zero.outputs == () and "no event" in str(zero)
    empty = delta(randomized_response(1, "3/4"), [], exp_eps=2)
    assert empty.delta == 0 and empty.edge is None and "no edges" in str(empty)


# ------------------------------------------------------------------------------------------------ hockey stick
def test_hockey_stick_exact_float_and_event():
    P, Q = ["1/2", "1/3", "1/6"], ["1/6", "1/3", "1/2"]
    assert hockey_stick(P, Q, 1) == Fraction(1, 3)
    assert hockey_stick(P, Q, Fraction(3, 2)) == Fraction(1, 4)
    assert hockey_stick(P, Q, 3) == 0
    assert hockey_stick(P, Q, 0) == 1
    assert hockey_stick(P, Q, LogRational(Fraction(3, 2))) == Fraction(1, 4)
    assert hockey_stick_event(P, Q, 1) == (0,)
    assert hockey_stick_event(P, Q, Fraction(1, 2)) == (0, 1)
    f = hockey_stick([0.5, 1 / 3, 1 / 6], [1 / 6, 1 / 3, 0.5], 1.5)
    assert isinstance(f, float) and f == pytest.approx(0.25)
    assert isinstance(hockey_stick(P, Q, 1.5), float)


@given(mech_and_edges(max_in=2, max_out=5), RATIONAL_T)
def test_hockey_stick_is_the_max_over_events(case, t):
    M, _ = case
    P, Q = list(M.column(0)), list(M.column(1))
    best = max(
        sum((P[w] - t * Q[w] for w in S), Fraction(0))
        for r in range(len(P) + 1)
        for S in itertools.combinations(range(len(P)), r)
    )
    assert hockey_stick(P, Q, t) == best
    S = hockey_stick_event(P, Q, t)
    assert sum((P[w] - t * Q[w] for w in S), Fraction(0)) == best


@pytest.mark.parametrize(
    "P, Q, t, error, match",
    [
        (["1/2", "1/2"], ["1"], 1, InvalidParameterError, "lengths 2 and 1"),
        (["1/2", "1/4"], ["1/2", "1/2"], 1, InvalidParameterError, "P sums to 3/4"),
        (["3/2", "-1/2"], ["1/2", "1/2"], 1, InvalidParameterError, r"P\[1\] = -1/2 is negative"),
        ([], [], 1, InvalidParameterError, "empty"),
        ("ab", ["1"], 1, InvalidTypeError, "sequence"),
        (3, ["1"], 1, InvalidTypeError, "sequence"),
        (["1"], ["1"], -1, InvalidParameterError, "exp_eps"),
        ([1.0, math.nan], [0.5, 0.5], 1, InvalidParameterError, "finite"),
    ],
)
def test_hockey_stick_bad_input(P, Q, t, error, match):
    with pytest.raises(error, match=match):
        hockey_stick(P, Q, t)


# ------------------------------------------------------------------------------------------------ δ(ε) curve
@given(mech_and_edges(), st.lists(RATIONAL_T, min_size=1, max_size=4))
def test_delta_curve_matches_delta_everywhere(case, ts):
    M, edges = case
    curve = delta_curve(M, edges, exp_eps_values=ts)
    assert curve.exact and curve.values_exact
    for t, d in zip(ts, curve.deltas):
        assert d == delta(M, edges, exp_eps=t).delta
    # breakpoints are exact vertices of δ, and δ is linear in e^ε between them
    bps = curve.breakpoints
    for t, d in bps:
        assert d == delta(M, edges, exp_eps=t).delta
    for (t0, d0), (t1, d1) in zip(bps, bps[1:]):
        mid = (t0 + t1) / 2
        assert delta(M, edges, exp_eps=mid).delta == (d0 + d1) / 2
        assert d1 <= d0
    # convex: slopes (in e^ε) strictly decrease in magnitude
    slopes = [p.slope for p in curve.pieces]
    assert all(a > b for a, b in zip(slopes, slopes[1:]))
    # the piece witnesses attain their line
    for piece in curve.pieces:
        if piece.edge is not None:
            i, j = M.inputs.index(piece.edge[0]), M.inputs.index(piece.edge[1])
            S = [M.outputs.index(o) for o in piece.outputs]
            assert sum((M.matrix[w, i] for w in S), Fraction(0)) == piece.intercept
            assert sum((M.matrix[w, j] for w in S), Fraction(0)) == piece.slope
    # where δ hits 0 is the exact ε
    e = epsilon(M, edges)
    if e.infinite:
        assert curve.level.eps == math.inf and curve.delta_at_infinity == brute_delta_at_infinity(M, edges) > 0
    else:
        assert curve.level.eps == e.level.eps and curve.delta_at_infinity == 0
        assert bps[-1] == (e.level.eps.ratio, 0)
    assert bps[0][0] == 1 and bps[0][1] == delta(M, edges, 0).delta


@given(mech_and_edges(max_in=3, max_out=4))
def test_delta_curve_float_mode_agrees(case):
    M, edges = case
    exact = delta_curve(M, edges)
    fl = delta_curve(M.to_float(), edges)
    assert not fl.exact and not fl.values_exact
    # the float curve is the exact envelope of the float lines: the same function up to rounding of the entries
    # (it may hold extra pieces a few ulps long where rounding splits a breakpoint of the exact curve)
    for t, d in exact.breakpoints:
        assert fl.evaluate(exp_eps=float(t)) == pytest.approx(float(d), abs=1e-9)
    for tf, df in fl.breakpoints:
        assert df == pytest.approx(float(exact.evaluate(exp_eps=Fraction(tf))), abs=1e-9)
    assert [tf for tf, _ in fl.breakpoints] == sorted(tf for tf, _ in fl.breakpoints)
    assert fl.deltas == pytest.approx([float(d) for d in exact.deltas], abs=1e-9)
    assert float(fl.level.eps) == pytest.approx(float(exact.level.eps), rel=1e-9)


def test_delta_curve_rr_closed_form():
    """RR(p) on one bit: δ(ε) = p − e^ε (1 − p) for e^ε ≤ p/(1−p), then 0."""
    M = randomized_response(1, "4/5")
    c = delta_curve(M, [("1", "0")], [LogRational(1), LogRational(2), LogRational(4), LogRational(5), 0.5])
    assert c.breakpoints == ((1, Fraction(3, 5)), (4, 0))
    assert not c.values_exact  # 0.5 is a float ε, so every value is a float
    assert c.deltas[:4] == pytest.approx([0.6, 0.4, 0.0, 0.0])
    assert c.deltas[4] == pytest.approx(0.8 - math.exp(0.5) / 5)
    exact_c = delta_curve(M, [("1", "0")], [LogRational(1), LogRational(2), 0])
    assert exact_c.values_exact and exact_c.deltas == (Fraction(3, 5), Fraction(2, 5), Fraction(3, 5))
    assert c.evaluate(exp_eps=3) == Fraction(1, 5) and c.evaluate(LogRational(9)) == 0
    assert c.evaluate(0.0) == pytest.approx(0.6)


def test_delta_curve_default_grid_and_summary():
    M = randomized_response(2, "3/4")
    c = delta_curve(M, hamming_graph(2), n_points=5)
    assert len(c.eps_values) == 5 and c.eps_values[0] == 0.0
    assert c.eps_values[-1] == pytest.approx(1.25 * math.log(3))
    assert c.deltas[0] == pytest.approx(0.5) and c.deltas[-1] == 0.0
    text = str(c)
    assert "ln(3)" in text and "δ(0) = 1/2" in text
    assert json.loads(c.to_json())["breakpoints"] == [["1", "1/2"], ["3", "0"]]


def test_delta_curve_three_lines_through_one_point():
    """Regression: lines meeting at one breakpoint must not leave a zero-length piece (exact comparisons only)."""
    M = Mechanism([["1/3", "1/6"], ["1/3", "1/6"], ["1/3", "2/3"]], inputs=["a", "b"])
    c = delta_curve(M, [("a", "b")])
    assert c.breakpoints == ((1, Fraction(1, 3)), (2, 0))
    assert [(p.intercept, p.slope) for p in c.pieces] == [(Fraction(2, 3), Fraction(1, 3)), (0, 0)]


def test_delta_curve_infinite_epsilon():
    # output 'o0' is impossible on b
    M = Mechanism([["1/2", 0], ["1/2", 1]], inputs=["a", "b"])
    c = delta_curve(M, [("a", "b")])
    assert c.level.eps == math.inf and c.delta_at_infinity == Fraction(1, 2)
    assert c.pieces[-1].end == math.inf and c.pieces[-1].slope == 0
    assert "never reaches 0" in str(c)
    assert c.evaluate(900.0) == pytest.approx(0.5)


def test_delta_curve_path_and_counts():
    # a two-step staircase on a path: every edge contributes a different piece
    M = Mechanism(
        [["1/2", "1/4", "1/8"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "5/8"]],
        inputs=["0", "1", "2"],
    )
    c = delta_curve(M, path_graph(2))
    assert c.level.eps == epsilon(M, path_graph(2)).level.eps == LogRational(Fraction(5, 2))
    for t, d in c.breakpoints:
        assert d == brute_delta(M, path_graph(2).edges, t)


def test_delta_curve_bad_input(monkeypatch):
    M = randomized_response(1, "3/4")
    with pytest.raises(InvalidParameterError, match="at most one"):
        delta_curve(M, [("1", "0")], [0.1], exp_eps_values=[2])
    with pytest.raises(InvalidParameterError, match="n_points"):
        delta_curve(M, [("1", "0")], n_points=1)
    with pytest.raises(InvalidParameterError, match=">= 0"):
        delta_curve(M, [("1", "0")], [-1.0])
    monkeypatch.setattr("privgeom._core.arrays.MAX_EXACT_ENTRIES", 2)
    with pytest.raises(SizeLimitError, match="δ\\(ε\\) curve"):
        delta_curve(M, [("1", "0")])


# ------------------------------------------------------------------------------------------------ plot
def test_plot_delta_curve(tmp_path):
    from matplotlib.figure import Figure

    c = delta_curve(randomized_response(2, "3/4"), hamming_graph(2), [LogRational(2), 0.5])
    fig = plot_delta_curve(c, path=tmp_path / "curve.png")
    assert isinstance(fig, Figure) and (tmp_path / "curve.png").stat().st_size > 1000
    ax = fig.axes[0]
    assert ax.get_xlabel() == "ε" and ax.get_ylabel() == "δ(ε)"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("ln(3)" in s for s in labels)
    # the drawn envelope starts at δ(0) = 1/2
    assert ax.lines[0].get_ydata()[0] == pytest.approx(0.5)


def test_plot_delta_curve_into_axes_and_infinite():
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    c = delta_curve(Mechanism([["1/2", 0], ["1/2", 1]], inputs=["a", "b"]), [("a", "b")])
    assert plot_delta_curve(c, ax=ax) is fig
    assert any("ε* = ∞" in t.get_text() for t in ax.get_legend().get_texts())
    with pytest.raises(InvalidTypeError, match="DeltaCurve"):
        plot_delta_curve("curve")
    assert isinstance(c, DeltaCurve)


# ------------------------------------------------------------------------------------------------ route tables
def test_profile_routes_are_documented_named_functions_and_agree_with_theory() -> None:
    from privgeom import PrivacyLevel
    from privgeom.analyses.profiles import _profile_curve as curve_mod

    tables = (
        (profile_mod._EPSILON_ROUTES, profile_mod.EPSILON_METHODS),
        (profile_mod._DELTA_ROUTES, profile_mod.DELTA_METHODS),
        (curve_mod._DELTA_CURVE_ROUTES, curve_mod.DELTA_CURVE_METHODS),
    )
    for table, methods in tables:
        assert tuple(table) == methods and methods[0] == "auto"
        for name, route in table.items():  # each route a private function documenting its own method name
            assert route.__name__.startswith("_") and f'method="{name}"' in (route.__doc__ or ""), (name, route)
    # RR(3, 3/4) on the Hamming cube (Lin & Kifer §V): ε = ln(p/(1−p)) = ln 3; on K_8 the ratios compound: ln 27.
    # δ(ln 2) is one factor's hockey-stick sum (3/4 − 2·1/4)₊ + (1/4 − 2·3/4)₊ = 1/4 (Balle et al. 2018, Thm. 1).
    M = randomized_response(3, "3/4")
    ln3 = PrivacyLevel.from_exp_eps(3)
    for method in ("auto", "scan", "factors", "fraction"):
        assert epsilon(M, "hamming", method=method).level == ln3, method
    assert epsilon(M, "complete", method="complete").level == PrivacyLevel.from_exp_eps(27)
    with pytest.raises(InvalidParameterError, match="needs the complete relation"):
        epsilon(M, "hamming", method="complete")
    for method in profile_mod.DELTA_METHODS:
        r = delta(M, "hamming", exp_eps=2, method=method)
        assert r.delta == Fraction(1, 4) and r.level == PrivacyLevel.from_exp_eps(2) and r.exact, method
        assert r.p_event - 2 * r.q_event == r.delta  # the witness event attains δ
    with pytest.raises(InvalidParameterError, match="unknown method 'scan'; use one of auto, factors, fraction"):
        delta(M, "hamming", exp_eps=2, method="scan")
    # δ(ε) = 3/4 − e^ε/4 on [1, 3], 0 after: breakpoints (1, 1/2) and (3, 0), ε* = ln 3, on both routes
    curves = [delta_curve(M, "hamming", method=method) for method in curve_mod.DELTA_CURVE_METHODS]
    for c in curves:
        assert c.breakpoints == ((1, Fraction(1, 2)), (3, 0)) and c.level == ln3 and c.delta_at_infinity == 0
    assert curves[0] == curves[1]


def test_complete_on_2000_inputs_is_fast_and_scan_is_refused_at_once(monkeypatch) -> None:
    from privgeom.analyses.profiles import _scan

    N = 2000
    rng = np.random.default_rng(1)
    A = rng.random((3, N)) + 0.1
    M = Mechanism(A / A.sum(axis=0), inputs=[f"d{i}" for i in range(N)])
    # theory: ε over K_N is the largest ratio of a row's maximum to its minimum (closed form: no edge scan)
    X = M.matrix
    expected = max(math.log(X[w].max() / X[w].min()) for w in range(3))
    scans = count_calls(monkeypatch, _scan, "_matrix_views")
    assert epsilon(M, "complete").level.eps == pytest.approx(expected, rel=1e-12)
    assert scans[0] == 0
    work = profile_work(3, N * (N - 1) // 2)
    assert work > MAX_PROFILE_WORK

    def refusals():
        with pytest.raises(SizeLimitError, match=r"1,999,000 edges.*max_work"):
            delta(M, "complete", exp_eps=2)
        with pytest.raises(SizeLimitError, match="max_work"):
            epsilon(M, "complete", method="scan")
        with pytest.raises(SizeLimitError, match="max_work"):
            delta_curve(M, "complete")

    # refused from the sizes: no scan was prepared and the 1,999,000 edge pairs were never listed
    out, peak = peak_mib(refusals)
    assert out is None and scans[0] == 0 and peak < 8, (out, peak)


def test_max_work_raises_and_lowers_the_limit() -> None:
    M = pg.randomized_response(3, "3/4")
    need = profile_work(M.n_outputs, 12)
    assert epsilon(M, "hamming", max_work=need).level.eps == LogRational(3)
    with pytest.raises(SizeLimitError, match=f"{need:,} units"):
        epsilon(M, "hamming", max_work=need - 1)
    with pytest.raises(SizeLimitError):
        delta(M, hamming_graph(3), exp_eps=2, max_work=10)


@given(st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=1, max_size=30))
def test_edge_grouping_by_hash_equals_the_row_loop(rows) -> None:
    import privgeom.analyses.profiles._scan as profile_mod

    cols = np.array(rows, dtype=np.int64)
    assert profile_mod._first_distinct_rows(cols) == profile_mod._first_distinct_rows_loop(cols)


def test_edge_grouping_survives_hash_collisions(monkeypatch) -> None:
    import privgeom.analyses.profiles._scan as profile_mod

    monkeypatch.setattr(profile_mod, "_HASH_WEIGHTS", np.zeros(4096, dtype=np.int64))  # every row hashes alike
    cols = np.array([[1, 2], [1, 2], [2, 1], [0, 0], [2, 1]], dtype=np.int64)
    assert profile_mod._first_distinct_rows(cols) == [0, 2, 3]
    M = pg.randomized_response(2, "3/4")
    assert epsilon(M, "complete", method="scan").level.eps == LogRational(9)
