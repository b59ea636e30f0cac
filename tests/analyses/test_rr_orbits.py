"""Randomized response per orbit (its orbit structure, definitions/_rr_orbits.py, read by the per-orbit routes of the
analyses) against the generic routes, and the work it avoids."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom.definitions import _rr_orbits
from privgeom.analyses.relaxation import _difference_route
from privgeom.analyses.guarantees import _summary
from privgeom.analyses.guarantees._summary import orbit_summary
from privgeom.analyses.relaxation._relax_orbits import orbit_relaxation
from privgeom import relax_pairwise
from privgeom.geometry import _structure


def _generic_relaxation(rr):
    """The difference route without the per-orbit route (the family expanded first, as before)."""
    from privgeom.analyses.relaxation._relaxation import relaxation_domain, subset_family

    family = subset_family(relaxation_domain(rr, rr.row_cone().labels), "hamming")
    return _difference_route.relax_by_differences(rr, rr.row_cone(), family, required=True)


@pytest.mark.parametrize("k,p", [(2, "3/4"), (3, "2/3"), (5, "3/4"), (8, "3/4"), (6, "9/10")])
def test_relaxation_matches_generic(k, p):
    rr = pg.RandomizedResponse(k, p)
    fast = relax_pairwise(rr, "hamming")
    assert fast.statuses and fast.statuses[0].witness is not None and fast.symmetry.startswith("hypercube")
    slow = _generic_relaxation(rr)
    assert (fast.recognised, fast.level.exp_eps, str(fast.level.eps)) == (
        slow.recognised,
        slow.level.exp_eps,
        str(slow.level.eps),
    )
    assert fast.level.exp_eps == Fraction(p) / (1 - Fraction(p))  # Lin & Kifer Section V: e^eps = p/(1-p)
    assert (len(fast.lost), fast.kept, fast.n_facets) == (len(slow.lost), slow.kept, slow.n_facets) == (2**k, 0, 2**k)
    assert [(s.index, s.size, s.lost) for s in fast.statuses] == [(s.index, s.size, s.lost) for s in slow.statuses]
    assert list(fast.subsets) == list(slow.subsets)
    assert [(b.pair, b.forward, b.backward) for b in fast.pair_bounds] == [
        (b.pair, b.forward, b.backward) for b in slow.pair_bounds
    ]
    assert fast.graph is not None and set(map(frozenset, fast.graph.edges)) == set(map(frozenset, slow.graph.edges))
    assert fast.cone == slow.cone
    for j in (0, 1, 2**k - 1):
        assert fast.lost[j].text == slow.lost[j].text
        assert list(fast.lost[j].coefficients) == list(slow.lost[j].coefficients)
    assert fast.text.replace("witness", "LP") == slow.text


def test_lost_witness_is_in_the_dp_cone_and_violates_the_facet():
    rr = pg.RandomizedResponse(6, "3/4")
    st = relax_pairwise(rr, "hamming").statuses[0]
    x = [Fraction(int(v)) for v in st.witness]
    dp = pg.DifferentialPrivacy.hamming(6, exp_eps=3)
    assert dp.row_cone().contains(x).member
    value = sum(Fraction(int(a)) * v for a, v in zip(rr.facet(st.index, scaled=True), x))
    assert value == st.value < 0


@pytest.mark.parametrize("p", ["3/4", "2/3", "51/100"])
def test_lost_value_closed_form(p):
    """docs/theory.md §5: the witness value is (b−a)E − aO with E ± O = b^k, (2a−b)^k; negative for k >= 2."""
    for k in (2, 3, 6):
        rr = pg.RandomizedResponse(k, p)
        a, b = Fraction(p).numerator, Fraction(p).denominator
        E, O = (b**k + (2 * a - b) ** k) // 2, (b**k - (2 * a - b) ** k) // 2
        x, value = _rr_orbits.lost_witness(rr, 5 % 2**k)
        assert value == (b - a) * E - a * O < 0
        assert value == sum(int(c) * int(v) for c, v in zip(rr.facet(5 % 2**k, scaled=True), x))  # the dense dot


def test_summary_matches_generic():
    for k in (2, 5, 8):
        rr = pg.RandomizedResponse(k, "3/4")
        fast = pg.describe_row_cone(rr)
        assert orbit_summary(rr) is not None
        slow = pg.describe_row_cone(rr, group=pg.automorphisms(rr))  # a given group: the generic route
        assert fast.lines() == [
            line if "symmetry:" not in line else line.replace("a subgroup of the automorphisms", "all automorphisms")
            for line in slow.lines()
        ]
        assert [(o.size, o.representative, list(o.members)) for o in fast.facet_orbits] == [
            (o.size, o.representative, list(o.members)) for o in slow.facet_orbits
        ]
        assert fast.facet_orbits[0].guarantee.text == slow.facet_orbits[0].guarantee.text
        assert [Fraction(int(v)) for v in fast.facet_orbits[0].normal] == list(slow.facet_orbits[0].normal)


def test_analyze_text_matches_generic(monkeypatch, capsys):
    from privgeom.cli import main

    assert main(["analyze", "rr:k=8,p=3/4"]) == 0
    fast = capsys.readouterr().out
    monkeypatch.setattr(pg.RandomizedResponse, "orbit_structure", lambda self: None)  # the generic routes
    assert main(["analyze", "rr:k=8,p=3/4"]) == 0
    slow = capsys.readouterr().out
    assert fast.replace("one verified witness per orbit", "one verified LP per orbit") == slow
    assert "256 of 256 original guarantees are lost" in fast


def test_k20_without_dense_work(monkeypatch):
    """2^20 datasets: no dense facet matrix, no family expansion, no generic orbit search or LP (counted by
    forbidding them), and the answer of the theory: ε-DP with e^ε = 3, all 2^20 guarantees lost in one orbit."""

    def forbidden(*args, **kwargs):
        raise AssertionError("the generic route ran")

    from privgeom.analyses.relaxation import _relaxation

    monkeypatch.setattr(_structure, "kronecker_integer_rows", forbidden)
    monkeypatch.setattr(_relaxation, "subset_family", forbidden)
    monkeypatch.setattr(_difference_route, "relax_by_differences", forbidden)
    monkeypatch.setattr(_summary, "_kronecker_orbits", forbidden)
    monkeypatch.setattr(pg.RandomizedResponse, "facets", forbidden)
    rr = pg.RandomizedResponse(20, "3/4")
    r = relax_pairwise(rr, "hamming")
    assert (r.recognised, r.level.exp_eps, len(r.lost), [s.size for s in r.statuses]) == ("dp", 3, 2**20, [2**20])
    assert r.graph is None and r.cone.n_facets == 20 * 2**20 and len(r.subsets) == 10 * 2**20
    assert r.subsets[-1] == ("00000000000000000001", "00000000000000000000")
    s = pg.describe_row_cone(rr)
    assert (s.n_facets, len(s.facet_orbits), s.facet_orbits[0].size, s.group_order) == (
        2**20,
        1,
        2**20,
        2**20 * math.factorial(20),
    )
    assert s.facet_orbits[0].inequality.startswith("3486784401·X0 − 1162261467·X1")
    assert "parity of the bits relative to 00000000000000000000" in s.facet_orbits[0].guarantee.text
    assert r.lost[7].text.endswith("relative to 00000000000000000111).")


def test_per_orbit_routes_decline_other_cases():
    assert orbit_relaxation(pg.RandomizedResponse(1, "3/4"), "hamming", "auto") is None  # k = 1: nothing lost
    assert orbit_relaxation(pg.RandomizedResponse(3, "3/4"), "all-pairs", "auto") is None
    assert orbit_relaxation(pg.RandomizedResponse(3, 0.75), "hamming", "auto") is None
    assert orbit_relaxation(pg.RandomizedResponse(3, "1"), "hamming", "auto") is None
    assert orbit_relaxation(pg.RandomizedResponse(3, "3/4"), "hamming", "cone") is None
    assert orbit_summary(pg.RandomizedResponse(3, "3/4"), rays=True) is None
    assert relax_pairwise(pg.RandomizedResponse(1, "3/4")).kept == 2  # the generic route: RR(1) is ε-DP


def test_lazy_facet_row_matches_dense():
    cone = pg.RandomizedResponse(5, "3/4").row_cone()
    dense = _structure.kronecker_integer_rows(cone, "H")
    assert all(np.array_equal(_structure.kronecker_integer_row(cone, i), dense[i]) for i in range(32))


def test_definition_of_a_large_relaxation_is_dp_on_the_cube():
    """Beyond the stored graph (k > STORED_MAX_K) the relaxed definition is still ε-DP on the k-cube, built when read."""
    k = _rr_orbits.STORED_MAX_K + 1
    r = relax_pairwise(pg.RandomizedResponse(k, "3/4"), "hamming")
    assert r.graph is None
    d = r.definition
    assert (
        isinstance(d, pg.DifferentialPrivacy) and d.level.exp_eps == 3 and d.graph.number_of_edges() == k * 2 ** (k - 1)
    )
    assert tuple(d.inputs) == tuple(r.cone.labels)
    fwd, _ = r.cone.structure.pair_bounds(np.array([0, 0]), np.array([1, 3]))
    assert list(fwd) == [3, 9]  # e^{d ε} at graph distance d (Section V)
