"""The integer kernels of ε, δ(ε) and DP membership against the Fraction route (``method="fraction"``).

Random exact mechanisms, including entries whose numerators and denominators exceed ``int64`` (weights up to
``2**70``): the integer kernels must then compute on Python integers, never wrap around, and give exactly the answer
(value and witness) of the Fraction route.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
from privgeom import DifferentialPrivacy, LogRational, Mechanism, randomized_response
from privgeom import delta, epsilon
from privgeom.testing import hamming_graph


@st.composite
def exact_mechanisms(draw: st.DrawFn, big: bool = False) -> list[list[Fraction]]:
    """Columns ``w / Σ w`` from random integer weights (zeros allowed), up to ``2**70`` when ``big``."""
    n_out = draw(st.integers(2, 4))
    n_in = draw(st.integers(2, 4))
    top = 2**70 if big else 12
    cols = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(0, top), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([Fraction(x, sum(w)) for x in w])
    return [[cols[i][o] for i in range(n_in)] for o in range(n_out)]


RATIOS = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(7), Fraction(2**65 + 1, 2**64)])


def _path(M: Mechanism) -> list[tuple[str, str]]:
    return [(M.inputs[i], M.inputs[i + 1]) for i in range(M.n_inputs - 1)]


@given(rows=exact_mechanisms(big=True))
def test_big_integers_are_stored_as_python_ints_and_round_trip(rows: list[list[Fraction]]) -> None:
    M = Mechanism(rows)
    C = M.int_columns
    assert C.fractions().tolist() == rows and M.matrix.tolist() == rows
    assert C.is_int64 == (max(C.max_numerator(), C.max_denominator()) < 2**63)
    assert (np.asarray(C.numerators).sum(axis=0) == C.denominators).all()
    lazy = Mechanism._from_ints(C.numerators, C.denominators, M.inputs, M.outputs)
    assert lazy == M and lazy.float_matrix().tolist() == [[float(v) for v in r] for r in rows]


@given(rows=exact_mechanisms(big=True), t=RATIOS)
def test_epsilon_and_delta_integer_routes_equal_the_fraction_route(rows: list[list[Fraction]], t: Fraction) -> None:
    M = Mechanism(rows)
    for graph in (_path(M), "complete"):
        if graph == "complete":
            a, b = epsilon(M, graph), epsilon(M, _complete(M), method="fraction")
            assert a.level.eps == b.level.eps and a.infinite == b.infinite
        else:
            assert epsilon(M, graph, method="scan") == epsilon(M, graph, method="fraction")
            assert delta(M, graph, exp_eps=t) == delta(M, graph, exp_eps=t, method="fraction")


def _complete(M: Mechanism) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(M.inputs) for b in M.inputs[i + 1 :]]


@given(rows=exact_mechanisms(big=True), t=RATIOS)
def test_dp_membership_integer_route_equals_the_fraction_route(rows: list[list[Fraction]], t: Fraction) -> None:
    M = Mechanism(rows)
    dp = DifferentialPrivacy(_complete(M), exp_eps=t, inputs=M.inputs)
    a, b = dp.contains(M), dp.contains(M, method="fraction")
    assert a.member == b.member and a.exact and b.exact
    assert a.member == (epsilon(M, "complete").level.eps <= LogRational(t))  # ε-DP iff ε(M) ≤ ln t
    if not a.member:
        assert (a.certificate.output, a.certificate.edge, a.certificate.value) == (
            b.certificate.output,
            b.certificate.edge,
            b.certificate.value,
        )
        assert a.certificate.value < 0


def test_dp_membership_beyond_int64_at_the_boundary() -> None:
    """x_i = e^ε x_j exactly with numbers of ~2^70: a yes; one unit less of slack: a no naming that row and edge."""
    big = 2**70 + 3
    t = Fraction(big + 1, big)  # e^ε just above 1, numerator and denominator beyond int64
    M = Mechanism(
        [
            [Fraction(big + 1, 2 * big + 1), Fraction(big, 2 * big + 1)],
            [Fraction(big, 2 * big + 1), Fraction(big + 1, 2 * big + 1)],
        ],
        inputs=["a", "b"],
    )
    assert not M.int_columns.is_int64 and M.int_columns.max_denominator() > 2**63  # Python ints
    assert DifferentialPrivacy([("a", "b")], exp_eps=t).contains(M).member
    tighter = Fraction(big + 2, big + 1)  # smaller than t
    no = DifferentialPrivacy([("a", "b")], exp_eps=tighter).contains(M)
    ref = DifferentialPrivacy([("a", "b")], exp_eps=tighter).contains(M, method="fraction")
    assert not no.member and no.certificate.value == ref.certificate.value < 0
    assert epsilon(M, [("a", "b")]).level.eps == LogRational(t)


@pytest.mark.parametrize("k, p", [(2, "3/4"), (3, "2/3"), (4, "5/9"), (3, "1")])
def test_factored_randomized_response_epsilon_equals_the_dense_scan(k: int, p: str) -> None:
    M = randomized_response(k, p)
    assert M.factors is not None
    a, b = epsilon(M, "hamming", method="factors"), epsilon(M, "hamming", method="scan")
    assert a == b  # value and witness (edge, output, p, q)
    pv = Fraction(p)
    assert a.infinite if pv == 1 else a.level.eps == LogRational(pv / (1 - pv))  # Lin & Kifer §V: ln(p / (1 − p))


def test_randomized_response_on_twelve_bits_is_exact_without_a_dense_matrix() -> None:
    M = randomized_response(12, "3/4")
    r = pg.epsilon(M, "hamming")
    assert r.exact and r.level.eps == LogRational(3) and r.p == Fraction(3, 4) ** 12 and r.q == r.p / 3
    assert r.edge == ("1" * 12, "1" * 11 + "0") and r.output == "1" * 12
    with pytest.raises(pg.InvalidParameterError, match="factored"):
        epsilon(Mechanism([["1/2", 1], ["1/2", 0]]), [("d0", "d1")], method="factors")


@pytest.mark.parametrize(
    "k, p, t", [(2, "3/4", 2), (3, "2/3", "3/2"), (3, "3/4", 1), (4, "5/9", 3), (3, "1", 2), (2, "3/4", 3)]
)
def test_factored_randomized_response_delta_equals_the_dense_scan(k: int, p: str, t: Any) -> None:
    M = randomized_response(k, p)
    a, b = delta(M, "hamming", exp_eps=t, method="factors"), delta(M, "hamming", exp_eps=t, method="fraction")
    assert a == b  # value, edge, event and its probabilities
    pv, tv = Fraction(p), Fraction(t)
    assert a.delta == max(Fraction(0), pv - tv * (1 - pv))  # one bit: δ = (p − t(1 − p))₊


def test_delta_of_twelve_bits_from_the_factors() -> None:
    r = pg.delta(randomized_response(12, "3/4"), "hamming", exp_eps=2)
    assert r.exact and r.delta == Fraction(1, 4) and len(r.outputs) == 2**11 and r.p_event == Fraction(3, 4)


def test_dp_membership_of_twelve_bits_from_the_factors() -> None:
    M = randomized_response(12, "3/4")
    graph = hamming_graph(12)
    assert DifferentialPrivacy(graph, exp_eps=3).contains(M).member  # RR(3/4) is ln(3)-DP (Lin & Kifer §V)
    no = DifferentialPrivacy(graph, exp_eps="29/10").contains(M)
    cert = no.certificate
    assert not no.member and no.exact and cert.value < 0
    assert (
        cert.value
        == Fraction(29, 10) * M.row(cert.output)[M.inputs.index(cert.edge[1])]
        - M.row(cert.output)[M.inputs.index(cert.edge[0])]
    )
    assert sum(a != b for a, b in zip(*cert.edge)) == 1


@given(rows=exact_mechanisms(big=True))
def test_delta_curve_integer_route_equals_the_fraction_route(rows: list[list[Fraction]]) -> None:
    """The whole δ(ε) curve on integer columns (common denominator of all columns, integer hull tests) equals the
    Fraction route piece by piece, and both agree with δ at their breakpoints and with ε."""
    from privgeom import delta_curve

    M = Mechanism(rows)
    for graph in (_path(M), _complete(M)):
        a = delta_curve(M, graph, exp_eps_values=[1, 2, Fraction(2**65 + 1, 2**64)])
        b = delta_curve(M, graph, exp_eps_values=[1, 2, Fraction(2**65 + 1, 2**64)], method="fraction")
        assert a.exact and b.exact and a.values_exact
        assert a.pieces == b.pieces and a.breakpoints == b.breakpoints
        assert a.level.eps == b.level.eps and a.delta_at_infinity == b.delta_at_infinity and a.deltas == b.deltas
        assert all(isinstance(v, Fraction) for bp in a.breakpoints for v in bp)
        for t, d in a.breakpoints:  # an independent kernel: the hockey-stick δ at each vertex
            assert delta(M, graph, exp_eps=t).delta == d
        assert a.level.eps == epsilon(M, graph, method="scan").level.eps


def test_delta_curve_unknown_method_is_refused() -> None:
    from privgeom import delta_curve

    with pytest.raises(pg.InvalidParameterError, match="'integer'"):
        delta_curve(randomized_response(1, "3/4"), "hamming", method="integer")
