"""ε and δ(ε) over named relations: one resolution (resolve_graph), the complete-relation route, sizes refused first."""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom.testing import count_calls, peak_mib
from privgeom import Domain, InvalidParameterError, LogRational, Mechanism, SizeLimitError
from privgeom.analyses.profiles._profile import MAX_PROFILE_WORK, profile_work
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


def test_mechanism_domain_drives_the_relation() -> None:
    D = Domain.databases(2, 2)
    q = Fraction(1, 4)
    M = Mechanism([[3 * q, q, q, q], [q, 3 * q, 3 * q, 3 * q]], inputs=D)
    assert M.domain is D and M.inputs == D.labels
    r = epsilon(M, "replace-one")
    assert r.level.eps == LogRational(3) and r.n_edges == 4
    with pytest.raises(InvalidParameterError, match="'hamming', 'complete'"):
        epsilon(M, "path")


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
