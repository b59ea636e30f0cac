"""DifferentialPrivacy and friends take relation names and Domains through resolve_graph; no letters as nodes."""

from __future__ import annotations

from fractions import Fraction

import pytest

import privgeom as pg
from privgeom import Domain, InvalidParameterError, LogRational
from privgeom.definitions import ApproximateDP, DifferentialPrivacy, Pufferfish, parse_definition
from privgeom.testing import hamming_graph


def dp_level(eps=None, exp_eps=None, *, exact=None):
    """The privacy level a DP definition reads from its parameters (its ``.level``: ε = 0 is exact however spelt)."""
    return DifferentialPrivacy.path(2, eps=eps, exp_eps=exp_eps, exact=exact).level


def test_a_relation_name_needs_the_datasets() -> None:
    with pytest.raises(InvalidParameterError, match=r"relation name 'hamming' needs the datasets.*inputs="):
        DifferentialPrivacy("hamming", exp_eps=3)
    with pytest.raises(InvalidParameterError, match=r"'hamming' does not apply.*'path', 'complete'"):
        DifferentialPrivacy("hamming", exp_eps=3, inputs=["0", "1", "2"])
    with pytest.raises(InvalidParameterError, match="unknown neighbour relation 'hamm'"):
        DifferentialPrivacy("hamm", exp_eps=3, inputs=Domain.bits(2))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_name_domain_and_graph_give_the_same_definition(k: int) -> None:
    ref = DifferentialPrivacy.hamming(k, exp_eps=3)
    for d in (
        DifferentialPrivacy("hamming", exp_eps=3, inputs=Domain.bits(k)),
        DifferentialPrivacy(Domain.bits(k), exp_eps=3),
        DifferentialPrivacy(hamming_graph(k), exp_eps=3),
    ):
        assert d.spec() == ref.spec() == f"dp:graph=hamming,k={k},exp_eps=3"
        assert d.inputs == ref.inputs and d.edges == ref.edges
    # RR(p) is ln(p/(1−p))-DP on the Hamming graph (Lin & Kifer §V): membership agrees whichever spelling
    M = pg.randomized_response(k, "3/4")
    assert DifferentialPrivacy(Domain.bits(k), exp_eps=3).contains(M).member
    assert not DifferentialPrivacy(Domain.bits(k), exp_eps="5/2").contains(M).member


def test_other_domains_and_definitions() -> None:
    D = Domain.databases(2, 2)
    dp = DifferentialPrivacy(D, eps="ln(2)")
    assert dp.inputs == D.labels and len(dp.edges) == 2 * 4  # 4 replace-one edges, both directions
    assert DifferentialPrivacy("path", exp_eps=2, inputs=Domain.counts(3)).spec() == "dp:graph=path,n=3,exp_eps=2"
    adp = ApproximateDP("complete", exp_eps=2, delta="1/10", inputs=["a", "b", "c"])
    assert adp.graph.number_of_edges() == 3
    assert Pufferfish.from_graph(Domain.counts(2), exp_eps=2).n_conditions == 4
    assert pg.neighbour_graph("complete", ["a", "b", "c"]).number_of_edges() == 3  # never the letters of 'complete'


def test_dp_level_keeps_the_dp_conventions() -> None:
    assert dp_level(eps=0.0).exact and dp_level(eps=0.0).exp_eps == 1  # e^0 = 1 whatever the spelling
    assert dp_level(eps="ln(3)").eps == LogRational(3)
    given = dp_level(exp_eps="5/2")
    assert (given.exp_eps, given.given, given.shown) == (Fraction(5, 2), "exp_eps", "5/2")
    assert DifferentialPrivacy.path(2, eps=1.5).level.exp_eps == pytest.approx(4.4816890703)
    with pytest.raises(InvalidParameterError, match="^DifferentialPrivacy: eps must be >= 0"):
        DifferentialPrivacy.path(2, eps=-1)


def test_spec_graph_names_are_listed() -> None:
    with pytest.raises(pg.FormatError, match="not one of hamming, complete, path, replace-one, add-remove, edges"):
        parse_definition("dp:graph=cube,n=2,exp_eps=2")
    with pytest.raises(InvalidParameterError, match="n >= 2"):
        parse_definition("dp:graph=complete,n=1,exp_eps=2")


@pytest.mark.parametrize(
    "spec,n_inputs,n_edges",
    [
        ("dp:graph=replace-one,n=2,records=2,exp_eps=3", 4, 4),  # databases {0,1}^2: the 2-cube
        ("dp:graph=replace-one,n=2,records=a;b;c,exp_eps=3", 9, 18),  # 9 databases × 2 records × 2 others / 2
        # histograms of 2 over 3, one unit moved: Σ_h (non-empty categories)·(3 − 1) / 2 = (2+4+4+2+4+2)/2
        ("dp:graph=replace-one,n=2,categories=3,exp_eps=3", 6, 9),
        # sizes 0..2 over {0,1}: () has 2 children; (a,b) has the parents (b), (a): 1 if a = b else 2 → 2 + 6
        ("dp:graph=add-remove,n=2,records=2,exp_eps=3", 7, 8),
        ("dp:graph=add-remove,n=2,categories=2,exp_eps=3", 6, 6),
    ],
)
def test_structured_specs_round_trip(spec: str, n_inputs: int, n_edges: int) -> None:
    d = parse_definition(spec)
    assert isinstance(d, DifferentialPrivacy) and len(d.inputs) == n_inputs and len(d.edges) == 2 * n_edges
    assert d.spec() == spec and parse_definition(d.spec()).edges == d.edges


def test_structured_spec_errors() -> None:
    with pytest.raises(pg.FormatError, match="exactly one of records="):
        parse_definition("dp:graph=replace-one,n=2,exp_eps=3")
    with pytest.raises(pg.FormatError, match="exactly one of records="):
        parse_definition("dp:graph=replace-one,n=2,records=2,categories=2,exp_eps=3")
