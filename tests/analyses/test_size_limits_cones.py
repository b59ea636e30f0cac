"""Cost before work: every size limit of the cone analysis is raised at once, naming the sizes and how to raise the
limit — no refusal after minutes of computing, no numpy MemoryError. "At once" is checked by work, not time: the
double-description entry points fail the test if reached, and the peak of Python allocations stays small."""

from __future__ import annotations

import pytest

import privgeom as pg
from privgeom.testing import forbid_double_description, peak_mib
from privgeom.analyses import relax

PEAK_MIB = 32  # the refused objects would take hundreds of MB to GB; the checks are arithmetic on sizes


@pytest.fixture(autouse=True)
def _no_double_description(monkeypatch):
    """No cdd conversion or elimination may start in this module: every answer comes from sizes or closed forms."""
    forbid_double_description(monkeypatch)


def _refused_quickly(call, *words):
    err, peak = peak_mib(call)
    assert isinstance(err, pg.SizeLimitError), err
    assert peak < PEAK_MIB, (peak, str(err))
    for w in words:
        assert w in str(err)
    return err


@pytest.fixture(scope="module")
def big():
    return {
        "rr12": pg.RandomizedResponse(12, "3/4"),
        "path": pg.DifferentialPrivacy.path(12000, exp_eps=3),
        "q6": pg.DifferentialPrivacy.hamming(6, exp_eps=3),
    }


def test_dense_facets_and_rays_refused_at_once(big):
    _refused_quickly(lambda: big["rr12"].row_cone().facets, "4096 x 4096", "exact_entries")
    _refused_quickly(lambda: big["rr12"].row_cone().rays, "4096 x 4096")
    _refused_quickly(lambda: big["path"].row_cone().facets, "24000 x 12001")
    _refused_quickly(lambda: big["path"].inequalities(), "36001 x 12001")
    _refused_quickly(lambda: big["q6"].row_cone().rays, "max_rays")


def test_counts_are_not_refused(big):
    counts, peak = peak_mib(lambda: (big["rr12"].row_cone().n_facets, big["path"].row_cone().n_facets))
    assert counts == (4096, 24000) and peak < PEAK_MIB


def test_relaxation_routes_refused_at_once(big):
    _refused_quickly(lambda: relax(pg.RandomizedResponse(13, "3/4"), "all-pairs"), "relax_family")
    rr6 = pg.RandomizedResponse(6, "3/4")
    _refused_quickly(lambda: relax(rr6, "hamming", method="generators"), "cone_route_work", "R^64")
    _refused_quickly(
        lambda: relax(pg.RandomizedResponse(4, "3/4"), "hamming", method="fourier_motzkin"), "fm_eliminated"
    )
    _refused_quickly(
        lambda: relax(pg.DifferentialPrivacy.hamming(4, exp_eps=3), "hamming", method="block"),
        "block_work",
        "64 facets",
    )


def test_facets_never_need_rays():
    cone = pg.DifferentialPrivacy.hamming(5, exp_eps=3).row_cone()  # 395,094 rays: never computed here
    assert cone.n_facets == 160 and len(cone.facets) == 160
    assert cone._v is None
