"""Refuse before working: sizes are estimated before anything large is built."""

from __future__ import annotations

import tracemalloc

import pytest

import privgeom as pg
from privgeom import SizeLimitError
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
