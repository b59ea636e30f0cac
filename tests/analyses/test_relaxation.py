"""Relaxation by Fourier–Motzkin (Lin & Kifer, Section V): randomized response relaxes to ε-DP, ε = ln(p/(1-p))."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

import privgeom as pg
from privgeom.analyses import relax, relax_pairwise
from privgeom.testing import hamming_graph
from privgeom.results import PairBound
from privgeom.testing import bit_strings


@pytest.mark.parametrize("k", [2, 3])
def test_rr_relaxes_exactly_to_dp(k):
    r = relax_pairwise(pg.RandomizedResponse(k, "3/4"), "hamming")
    assert r.recognised == "dp"
    assert r.level.exp_eps == F(3)
    assert r.level.eps == pg.LogRational(3)
    assert str(r.level.eps) == "ln(3)"
    dp = pg.DifferentialPrivacy(hamming_graph(k), exp_eps=3)
    assert r.cone.equals(dp.row_cone()).holds
    assert r.graph.number_of_edges() == k * 2 ** (k - 1)
    assert r.definition.row_cone().equals(r.cone).holds


@pytest.mark.parametrize("p,ratio", [("2/3", F(2)), ("9/10", F(9)), ("3/5", F(3, 2))])
def test_epsilon_is_log_p_over_1_minus_p(p, ratio):
    r = relax_pairwise(pg.RandomizedResponse(2, p))
    assert r.recognised == "dp" and r.level.exp_eps == ratio
    assert math.isclose(float(r.level.eps), math.log(float(ratio)))


def test_pair_projection_is_r_to_the_hamming_distance():
    k, p = 3, F(3, 4)
    rr = pg.RandomizedResponse(k, p)
    labels = bit_strings(k)
    r = relax(rr, "all-pairs")
    for b in r.pair_bounds:
        h = sum(x != y for x, y in zip(*b.pair))
        assert b.forward == b.backward == F(3) ** h, b
    # ratios 3, 9, 27: the pairs at distance 1 are tight and imply the others, so this is ε-DP on the Hamming graph
    assert r.recognised == "dp" and r.level.exp_eps == 3
    assert sorted(map(sorted, r.graph.edges)) == sorted(map(sorted, hamming_graph(k).edges))
    assert "the others are implied" in r.text
    assert len(r.pair_bounds) == len(labels) * (len(labels) - 1) // 2


def test_loose_pairs_that_are_not_implied_block_recognition():
    # 11-10 is bounded by 3, 11-00 only by 9, and nothing links 00 to the rest tightly: not ε-DP on any graph
    r = relax(pg.RandomizedResponse(2, "3/4"), [("11", "10"), ("11", "00")])
    assert [b.forward for b in r.pair_bounds] == [3, 9]
    assert r.recognised == "" and r.level is None


def test_geometric_relaxes_to_dp_on_the_path():
    g = pg.parse_definition("geometric:n=3,alpha=1/2")
    r = relax(g, "all-pairs")
    assert r.recognised == "dp" and r.level.exp_eps == 2
    assert sorted(map(sorted, r.graph.edges)) == [["0", "1"], ["1", "2"], ["2", "3"]]


@pytest.mark.parametrize("method", ["fourier_motzkin", "block", "generators"])
def test_projection_methods_agree(method):
    base = relax_pairwise(pg.RandomizedResponse(2, "3/4"))
    other = relax_pairwise(pg.RandomizedResponse(2, "3/4"), method=method)
    assert other.cone.equals(base.cone).holds
    assert other.recognised == "dp"


def test_relaxation_enlarges_and_loses_parity():
    rr = pg.RandomizedResponse(2, "3/4")
    r = relax_pairwise(rr)
    assert rr.row_cone().issubset(r.cone).holds
    assert not r.cone.issubset(rr.row_cone()).holds
    # every parity facet of RR is lost in DP (a DP row breaks each one)
    assert len(r.lost) == 4 and r.kept == 0
    assert all(g.parity_bits == (0, 1) for g in r.lost)


def test_relax_onto_single_pair_and_triples():
    rr = pg.RandomizedResponse(2, "3/4")
    r = relax(rr, [("11", "10")])
    # one pair: DP on the graph with that single edge (other datasets only need x >= 0)
    assert r.pair_bounds[0].forward == 3 and r.recognised == "dp" and r.graph.number_of_edges() == 1
    t = relax(rr, "triples")
    assert len(t.subsets) == 4
    assert rr.row_cone().issubset(t.cone).holds
    # projecting onto every subset of all datasets gives the cone back
    full = relax(rr, [tuple(bit_strings(2))])
    assert full.cone.equals(rr.row_cone()).holds and not full.lost


def test_float_mode():
    r = relax_pairwise(pg.RandomizedResponse(2, 0.75))
    assert r.recognised == "dp"
    assert math.isclose(float(r.level.exp_eps), 3.0, rel_tol=1e-9)
    assert math.isclose(r.level.eps, math.log(3.0), rel_tol=1e-9)


@pytest.mark.parametrize("k,p", [(2, 0.7), (3, 0.7), (2, 0.55), (3, 0.9), (3, 0.6)])
def test_float_mode_recognises_dp_despite_rounding(k, p):
    # FM/DD in floats give the pair ratios p/(1-p) up to rounding; recognition must not need bit-equal floats
    r = relax_pairwise(pg.RandomizedResponse(k, p))
    assert r.recognised == "dp" and not r.cone.exact
    assert math.isclose(float(r.level.exp_eps), p / (1 - p), rel_tol=1e-9)
    assert math.isclose(float(r.level.eps), math.log(p / (1 - p)), rel_tol=1e-9)
    assert (
        r.definition.row_cone().equals(pg.DifferentialPrivacy(hamming_graph(k), exp_eps=p / (1 - p)).row_cone()).holds
    )


# -------------------------------------------------------- relation names are families


def test_unknown_family_lists_the_family_names():
    with pytest.raises(pg.InvalidParameterError) as err:
        relax(pg.RandomizedResponse(2, "3/4"), "nosuch")
    msg = str(err.value)
    assert "unknown subset family 'nosuch'" in msg
    assert all(
        name in msg for name in ("hamming", "all-pairs", "triples", "replace-one", "add-remove", "path", "complete")
    )
    with pytest.raises(pg.InvalidParameterError, match="relation 'path' does not apply"):
        relax_pairwise(pg.RandomizedResponse(2, "3/4"), "path")
    with pg.limits(relax_family=5):  # the relation's size is checked before it is built
        with pytest.raises(pg.SizeLimitError, match=r"pg\.set_limits\(relax_family=6\)"):
            relax(pg.RandomizedResponse(2, "3/4"), "complete")


def test_cli_family_names(capsys):
    from privgeom.cli import main

    assert main(["relax", "rr:k=2,p=3/4", "--family", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "unknown subset family 'nosuch'" in err and "replace-one" in err and "unknown datasets" not in err
    assert main(["relax", "dp:graph=replace-one,n=2,records=3,exp_eps=2", "--family", "replace-one"]) == 0
    out = capsys.readouterr().out
    assert "exactly ε-differential privacy" in out and "e^ε = 2" in out
    assert main(["relax", "rr:k=2,p=3/4", "--family", "Replace-One"]) == 0
    assert "e^ε = 3" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------ the level
@pytest.mark.parametrize("method", ["auto", "cone", "generators"])
def test_the_level_is_one_privacy_level_on_every_route(method):
    """Lin & Kifer Section V: RR(2, 3/4) relaxes to ε-DP with e^ε = p/(1−p) = 3. The relaxation states it once, as
    ``level`` (no exp_eps/epsilon/eps duplicates), exactly on every route, and as a float level in float mode."""
    r = relax(pg.RandomizedResponse(2, "3/4"), "hamming", method=method)
    assert isinstance(r.level, pg.PrivacyLevel) and r.level == pg.PrivacyLevel.from_exp_eps(3)
    assert r.level.exact and r.level.eps == pg.LogRational(3) and str(r.level) == "ln(3)"
    assert not any(hasattr(r, name) for name in ("exp_eps", "epsilon", "eps"))
    assert r.definition.level == r.level  # the recognised ε-DP at that level
    f = relax(pg.RandomizedResponse(2, 0.75), "hamming", method=method)
    assert not f.level.exact and math.isclose(f.level.exp_eps, 3.0, rel_tol=1e-9)
    assert math.isclose(float(f.level), math.log(3.0), rel_tol=1e-9)


def test_no_level_when_not_recognised():
    r = relax(pg.RandomizedResponse(2, "3/4"), [("11", "10", "01"), ("10", "01", "00")])
    assert r.recognised == "" and r.level is None
    data = r.to_dict()
    assert data["eps"] is None and data["exp_eps"] is None and "epsilon" not in data


def test_pair_bound_level_is_the_pair_indistinguishability():
    """On all pairs of RR(2, 3/4) the projection onto a pair at Hamming distance h is ``x_a ≤ 3^h x_b`` both ways
    (Lin & Kifer Section V), so the pair is indistinguishable at e^ε = 3^h: ``ln 3`` on edges, ``ln 9`` across."""
    r = relax(pg.RandomizedResponse(2, "3/4"), "all-pairs")
    levels = {b.pair: b.level for b in r.pair_bounds}
    for (a, c), level in levels.items():
        h = sum(x != y for x, y in zip(a, c))
        assert level == pg.PrivacyLevel.from_exp_eps(3**h)
    assert str(levels[("11", "00")]) == "ln(9)"
    one_way = PairBound(pair=("a", "b"), forward=F(2), backward=math.inf)
    assert one_way.level is None  # unbounded one way: no level
    assert PairBound(pair=("a", "b"), forward=F(5, 2), backward=F(3, 2)).level.exp_eps == F(5, 2)


# ------------------------------------------------------------------------------------------------ routes as tables
