"""ε and δ(ε) over named relations: one resolution (resolve_graph), the complete-relation route, sizes refused first."""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom import Domain, InvalidParameterError, LogRational, Mechanism
from privgeom import delta, epsilon
from privgeom import delta_curve
from privgeom.testing import hamming_graph, path_graph


def brute_epsilon(M: Mechanism, edges) -> Fraction | float:
    """max over ordered neighbour pairs and outputs of P(ω|D)/P(ω|D') (inf if some P(ω|D') = 0 < P(ω|D))."""
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


@st.composite
def mechanisms(draw, max_in: int = 5, max_out: int = 5):
    n_in, n_out = draw(st.integers(2, max_in)), draw(st.integers(1, max_out))
    cols = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(0, 5), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([Fraction(x, sum(w)) for x in w])
    matrix = [[cols[j][i] for j in range(n_in)] for i in range(n_out)]
    return Mechanism(matrix, inputs=[f"D{j}" for j in range(n_in)], outputs=[f"w{i}" for i in range(n_out)])


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("p", ["3/4", "9/10"])
def test_relation_name_domain_and_graph_agree(k: int, p: str) -> None:
    M = pg.randomized_response(k, p)
    by_name = epsilon(M, "hamming")
    by_domain_graph = epsilon(M, Domain.bits(k).relation("hamming"))
    by_graph = epsilon(M, hamming_graph(k))
    by_domain = epsilon(M, Domain.bits(k))
    assert by_name == by_domain_graph == by_graph == by_domain
    r = Fraction(p) / (1 - Fraction(p))
    assert by_name.level.eps == LogRational(r)  # Lin & Kifer §V: ε = ln(p/(1−p))
    t = Fraction(3, 2)
    assert delta(M, "hamming", exp_eps=t) == delta(M, hamming_graph(k), exp_eps=t)
    assert delta_curve(M, "hamming").breakpoints == delta_curve(M, hamming_graph(k)).breakpoints


def test_plain_labels_need_bit_strings_for_hamming() -> None:
    M = pg.truncated_geometric(3, "1/2")  # inputs "0".."3": not bit strings
    with pytest.raises(InvalidParameterError) as err:
        epsilon(M, "hamming")
    msg = str(err.value)
    assert "'hamming' does not apply" in msg and "'path'" in msg and "'complete'" in msg
    # the relations that do apply, by name and by graph, agree
    assert epsilon(M, "path") == epsilon(M, path_graph(3))
    assert epsilon(M, "path").level.eps == LogRational(2)  # geometric mechanism with α = 1/2 is ln(2)-DP on the path


def test_one_error_for_a_bad_relation_name() -> None:
    M = pg.randomized_response(2, "3/4")
    for bad in ("hammming", "cycle", ""):
        with pytest.raises(InvalidParameterError, match="valid relations: 'hamming', 'replace-one', 'complete'"):
            epsilon(M, bad)
    with pytest.raises(InvalidParameterError, match="method"):
        epsilon(M, "hamming", method="fast")
    with pytest.raises(InvalidParameterError, match="needs the complete relation"):
        epsilon(M, "hamming", method="complete")


@settings(max_examples=60, deadline=None)
@given(mechanisms())
def test_complete_route_equals_scan_and_brute_force(M) -> None:
    edges = list(nx.complete_graph(M.inputs).edges)
    for mech in (M, M.to_float()):
        fast = epsilon(mech, "complete")
        scan = epsilon(mech, "complete", method="scan")
        graph = epsilon(mech, nx.complete_graph(mech.inputs))  # a user's complete graph is detected too
        assert fast.n_edges == scan.n_edges == len(edges) and fast.infinite == scan.infinite
        if mech.exact:
            assert fast.level.eps == scan.level.eps == graph.level.eps
            expected = brute_epsilon(mech, edges)
            assert fast.level.eps == (math.inf if expected == math.inf else LogRational(expected))
        else:
            assert float(fast.level.eps) == pytest.approx(float(scan.level.eps), abs=1e-12)
        # the witness attains the value (ties may pick another edge than the scan)
        i, j = (mech.inputs.index(d) for d in fast.edge)
        w = mech.outputs.index(fast.output)
        assert (mech.matrix[w, i], mech.matrix[w, j]) == (fast.p, fast.q) or not mech.exact
        if not fast.infinite and mech.exact:
            assert LogRational(fast.p / fast.q) == fast.level.eps


def test_mechanism_domain_drives_the_relation() -> None:
    D = Domain.databases(2, 2)
    q = Fraction(1, 4)
    M = Mechanism([[3 * q, q, q, q], [q, 3 * q, 3 * q, 3 * q]], inputs=D)
    assert M.domain is D and M.inputs == D.labels
    r = epsilon(M, "replace-one")
    assert r.level.eps == LogRational(3) and r.n_edges == 4
    with pytest.raises(InvalidParameterError, match="'hamming', 'complete'"):
        epsilon(M, "path")
