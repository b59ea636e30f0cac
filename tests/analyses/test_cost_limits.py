"""Refuse before working: sizes are estimated before anything large is built."""

from __future__ import annotations

from fractions import Fraction
import tracemalloc

import pytest

import privgeom as pg
from privgeom.testing import forbid, peak_mib
from privgeom import SizeLimitError
from privgeom.analyses.optimal._optimal import MAX_OPTIMAL_LP_SIZE
from privgeom import optimal_mechanism
from privgeom.analyses.optimal._optimal_lp import optimal_lp_size
from privgeom.testing import hamming_graph


def _refuses_cheaply(fn, match, *, mb=50):
    """Refused from the sizes: the peak of Python allocations stays small (work counted, not timed)."""
    tracemalloc.start()
    try:
        with pytest.raises(SizeLimitError, match=match) as info:
            fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < mb * 2**20, peak
    return str(info.value)


@pytest.mark.parametrize("k", [22, 24, 26])
def test_hamming_spec_refused_before_building_the_labels(k):
    msg = _refuses_cheaply(lambda: pg.parse_definition(f"dp:graph=hamming,k={k},exp_eps=3"), "edges")
    assert f"{k << (k - 1):,}" in msg and "max_edges=" in msg and "500,000" in msg


def test_dp_on_a_bits_domain_refused_before_building_the_labels():
    _refuses_cheaply(lambda: pg.DifferentialPrivacy(pg.Domain.bits(26), exp_eps=3), "k·2")
    _refuses_cheaply(lambda: pg.DifferentialPrivacy("hamming", exp_eps=3, inputs=pg.Domain.bits(25)), "edges")
    _refuses_cheaply(lambda: hamming_graph(20), "max_edges=")


def test_bit_count_limit_names_the_edge_limit():
    msg = _refuses_cheaply(lambda: pg.Domain.bits(40), "2\\^40")
    assert "graph_edges" in msg and "MAX_" not in msg


def test_bits_domain_is_lazy_but_behaves_like_a_tuple_of_labels():
    D = pg.Domain.bits(3)
    assert len(D) == 8 and D.index("011") == 4 and "000" in D
    assert D == pg.Domain.bits(3) and hash(D) == hash(pg.Domain.bits(3))
    assert D.labels[0] == "111" and D.n_edges("hamming") == 12


def test_optimal_mechanism_refuses_large_lps_before_building(monkeypatch):
    from privgeom.analyses.optimal import _optimal_adp

    forbid(monkeypatch, _optimal_adp._LP, "__init__")  # no LP is assembled, let alone solved
    d = pg.parse_definition("dp:graph=path,n=100000,exp_eps=3")
    msg = _refuses_cheaply(lambda: optimal_mechanism(d), "max_lp_size=")
    assert "variables" in msg and f"{MAX_OPTIMAL_LP_SIZE:,}" in msg
    with pytest.raises(SizeLimitError, match="closure LP"):
        optimal_mechanism(pg.parse_definition("krr:n=60,exp_eps=3"), method="lp")
    with pytest.raises(SizeLimitError, match="rows LP"):
        optimal_mechanism(pg.parse_definition("dp:graph=path,n=60,exp_eps=3"), method="lp")
    # the default route answers a finite definition (k-RR, here n = 30) without an LP (explicit Bayes rule) and reduces the path's LP by its
    # reversal, whose reduced LP is still above the limit
    assert optimal_mechanism(pg.parse_definition("krr:n=30,exp_eps=3")).value == Fraction(3, 32)
    with pytest.raises(SizeLimitError, match="symmetric LP"):
        optimal_mechanism(pg.parse_definition("dp:graph=path,n=60,exp_eps=3"))


def test_optimal_lp_size_and_raising_the_limit():
    d = pg.parse_definition("dp:graph=path,n=3,exp_eps=2")
    est = optimal_lp_size(d, 4)
    assert (est.variables, est.constraints, est.nonzeros) == (16, 4 * 6 + 4, 4 * 6 * 2 + 16)
    with pytest.raises(SizeLimitError):
        optimal_mechanism(d, max_lp_size=10)
    assert optimal_mechanism(d, max_lp_size=est.size).exact
    adp = pg.parse_definition("adp:graph=complete,n=3,exp_eps=2,delta=1/10")
    assert optimal_lp_size(adp, 3).formulation == "dedicated"


def test_path_symmetry_is_found_without_a_graph_search(monkeypatch):
    from privgeom.geometry import _symmetry

    forbid(monkeypatch, _symmetry, "_graph_automorphisms")
    d = pg.parse_definition("dp:graph=path,n=100000,exp_eps=3")
    G, peak = peak_mib(lambda: _symmetry.automorphisms(d))
    assert peak < 64, peak  # generators of the reversal only, no search structures
    assert G.source == "reversal" and G.complete
