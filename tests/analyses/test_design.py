"""Designing definitions: ConeDefinition round trips, from_guarantees, without/only, intersection/hull, dp_bounds.

Values from theory: the DP sandwich of randomized response on one bit is ``p/(1−p)`` on both sides (its row cone *is*
the DP cone, Lin & Kifer §V); hand computations for RR(2, 3/4), the truncated geometric and k-RR are in the tests.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import privgeom as pg
from privgeom.analyses.design._design import from_guarantees, listed_facets, only
from privgeom.definitions import ConeDefinition


def _catalogue() -> list[pg.PrivacyDefinition]:
    return [
        pg.RandomizedResponse(2, "3/4"),
        pg.DifferentialPrivacy.path(3, exp_eps=2),
        pg.parse_definition("geometric:n=3,alpha=1/2"),
        pg.parse_definition("krr:n=3,exp_eps=2"),
    ]


# ---------------------------------------------------------------------------------------------------- done-when checks
@pytest.mark.parametrize("D", _catalogue(), ids=lambda d: d.spec())
def test_cone_of_the_row_cone_is_the_same_definition(D: pg.PrivacyDefinition) -> None:
    C = ConeDefinition(D.row_cone())
    assert pg.compare(C, D).relation == "equal"
    a, b = pg.optimal_mechanism(C), pg.optimal_mechanism(D)
    assert a.exact and b.exact and a.value == b.value
    assert C.contains(a.mechanism).member and D.contains(a.mechanism).member


@pytest.mark.parametrize("D", _catalogue(), ids=lambda d: d.spec())
def test_from_guarantees_on_the_printed_semantics_gives_the_definition_back(D: pg.PrivacyDefinition) -> None:
    back = pg.from_guarantees(pg.semantics(D), D.inputs)
    assert pg.compare(back, D).relation == "equal"
    assert back.redundant == ()


def test_relaxation_definition_is_never_none() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    r = pg.relax(rr, [("11", "10", "01"), ("10", "01", "00")])  # a family of triples: not a graph
    assert r.recognised == ""
    d = r.definition
    assert isinstance(d, ConeDefinition)
    assert d.contains(pg.randomized_response(2, "3/4")).member
    assert d.row_cone() == r.cone
    assert pg.compare(rr, d).relation == "subset"  # relaxing only loses guarantees
    dp = pg.relax_pairwise(rr, "hamming").definition
    assert isinstance(dp, pg.DifferentialPrivacy) and dp.level.exp_eps == 3


def test_relaxation_onto_part_of_the_datasets_keeps_every_dataset() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    r = pg.relax_pairwise(rr, [("11", "10")])
    d = r.definition
    assert d.inputs == rr.inputs and d.row_cone() == r.cone
    assert d.contains(pg.randomized_response(2, "3/4")).member


# ---------------------------------------------------------------------------------------------------- ConeDefinition
def test_no_names_the_row_and_the_facet() -> None:
    D = ConeDefinition(pg.RandomizedResponse(1, "3/4").row_cone())
    ans = D.contains(pg.randomized_response(1, "4/5"))
    c = ans.certificate
    x = pg.randomized_response(1, "4/5").matrix[c.row]
    assert not ans.member and c.label.startswith("facet ")
    i = int(c.label.split()[1])
    assert list(D.row_cone().facets[i]) == list(c.normal) and c.value == sum(a * v for a, v in zip(c.normal, x)) < 0


def test_a_cone_without_the_all_ones_vector_is_refused() -> None:
    with pytest.raises(pg.InvalidParameterError, match="facet"):
        ConeDefinition(pg.Cone.from_facets([[-1, 0]], labels=["a", "b"]))


def test_a_facet_tight_at_ones_becomes_an_equality() -> None:
    D = ConeDefinition(pg.Cone.from_facets([[1, -1]], labels=["a", "b"]))
    assert len(D.row_cone().equalities) == 1 and D.row_cone().dim == 1
    assert D.contains(pg.Mechanism([["1/2", "1/2"], ["1/2", "1/2"]], inputs=["a", "b"])).member
    assert not D.contains(pg.Mechanism([[1, "1/2"], [0, "1/2"]], inputs=["a", "b"])).member


def test_json_round_trip_and_refusals(tmp_path: object) -> None:
    D = ConeDefinition(pg.RandomizedResponse(2, "3/4").row_cone(), name="rr cone")
    path = f"{tmp_path}/d.json"
    D.save(path)
    again = pg.parse_definition(f"cone:file={path}")
    assert again.row_cone() == D.row_cone() and again.name == "rr cone" and again.spec() == f"cone:file={path}"
    data = D.to_dict()
    for bad in (
        {**data, "extra": 1},
        {**data, "version": 2},
        {**data, "privgeom": "cone"},
        {**data, "facets": [["1", "2"]]},
    ):
        with pytest.raises(pg.FormatError):
            ConeDefinition.from_dict(bad)
    assert json.loads(json.dumps(data))["privgeom"] == "cone-definition"
    assert "\\geq" in D.to_latex() and "rr cone" in D._repr_html_()


def test_semantics_and_relaxation_run_on_a_cone_definition() -> None:
    D = ConeDefinition(pg.RandomizedResponse(2, "3/4").row_cone())
    assert [g.coefficients for g in pg.semantics(D)] == [
        g.coefficients for g in pg.semantics(pg.RandomizedResponse(2, "3/4"))
    ] or len(pg.semantics(D)) == 4
    r = pg.relax_pairwise(D, "hamming")
    assert r.recognised == "dp" and r.level.exp_eps == 3


# ---------------------------------------------------------------------------------------------------- design operations
def test_redundant_guarantee_certificate_verifies() -> None:
    D = from_guarantees(
        [[3, -1], [-1, 3], [5, -1], {"prior": {"1": "3/4", "0": "1/4"}, "s_plus": ["1"], "s_minus": ["0"]}], ["1", "0"]
    )
    vecs = [[F(3), F(-1)], [F(-1), F(3)], [F(5), F(-1)], [F(3, 4), F(-1, 4)]]
    # in order: g0 = 4·g3 (the attacker statement is g0 scaled), then g2 = (5/3)·g3·4 + slack on x_0 ≥ 0
    assert [r.index for r in D.redundant] == [0, 2]
    for r in D.redundant:
        combo = [sum(w * vecs[j][d] for j, w in zip(r.implied_by, r.weights)) + r.slack[d] for d in range(2)]
        assert combo == vecs[r.index] and all(w >= 0 for w in r.weights) and all(m >= 0 for m in r.slack)
    assert pg.compare(D, pg.RandomizedResponse(1, "3/4")).relation == "equal"


def test_without_only_intersection_hull_relations() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    dp = pg.DifferentialPrivacy.hamming(2, exp_eps=3)
    weaker = pg.without(rr, [0])
    assert pg.compare(weaker, rr).relation == "superset"
    assert listed_facets(rr)[0].tolist() not in [list(f) for f in weaker.row_cone().facets]
    assert (
        pg.compare(
            pg.without(rr, orbits=[0]), ConeDefinition(pg.Cone.from_facets(np.eye(4, dtype=int), labels=rr.inputs))
        ).relation
        == "equal"
    )
    assert pg.compare(pg.intersection(rr, dp), rr).relation == "equal"  # RR ⊂ DP(3): the intersection is RR
    assert pg.compare(pg.hull(rr, dp), dp).relation == "equal"
    small = pg.DifferentialPrivacy.hamming(2, exp_eps=2)
    both = pg.intersection(rr, small)
    assert pg.compare(both, rr).relation == "subset" and pg.compare(both, small).relation in ("subset", "equal")
    h = pg.hull(rr, small)
    assert pg.compare(rr, h).relation in ("subset", "equal") and pg.compare(small, h).relation in ("subset", "equal")
    kept = only(dp, lambda g: "11" in g.s_plus)  # the guarantees protecting 11
    assert pg.compare(kept, dp).relation == "superset"
    with pytest.raises(pg.InvalidParameterError):
        pg.without(rr, [17])
    with pytest.raises(pg.DomainMismatchError):
        pg.intersection(rr, pg.RandomizedResponse(1, "3/4"))


def test_listed_facets_follow_the_rowcone_listing() -> None:
    from privgeom.cli._render import facet_rows

    for D in _catalogue():
        rows, _ = facet_rows(D.row_cone())
        assert [list(r) for r in rows()] == [list(r) for r in listed_facets(D)]


# ---------------------------------------------------------------------------------------------------- dp_bounds
@pytest.mark.parametrize("p", ["3/4", "2/3", "9/10", "51/100"])
def test_dp_bounds_of_one_bit_rr_is_its_ratio(p: str) -> None:
    b = pg.dp_bounds(pg.RandomizedResponse(1, p), "hamming")
    ratio = F(p) / (1 - F(p))
    assert b.inner.exp_eps == b.outer.exp_eps == ratio and b.inner_kind == "exact"


@pytest.mark.parametrize(
    "D",
    [
        pg.DifferentialPrivacy.hamming(2, exp_eps=3),
        pg.DifferentialPrivacy.path(3, exp_eps="5/2"),
        pg.DifferentialPrivacy.complete(3, exp_eps=2),
    ],
    ids=lambda d: d.spec(),
)
def test_dp_bounds_of_dp_is_its_level(D: pg.DifferentialPrivacy) -> None:
    b = pg.dp_bounds(D, D.graph)
    assert b.inner.exp_eps == b.outer.exp_eps == D.level.exp_eps


def test_dp_bounds_hand_computations() -> None:
    # RR(2, 3/4): facet 9x11 − 3x10 − 3x01 + x00 ≥ 0 on the DP ray (1, t, t, 1): 10 − 6t ≥ 0, so t ≤ 5/3 (the ray
    # (1, t, t, t²) gives (t − 3)² ≥ 0); a row of RR has ratio p/(1−p) = 3 on each edge.
    b = pg.dp_bounds(pg.RandomizedResponse(2, "3/4"), "hamming")
    assert (b.inner.exp_eps, b.outer.exp_eps) == (F(5, 3), F(3))
    assert b.leaving_level > F(5, 3) and sum(a * x for a, x in zip(b.inner_facet, b.leaving_ray)) < 0
    assert b.outer_member is not None and pg.RandomizedResponse(2, "3/4").contains(b.outer_member).member
    # truncated geometric, alpha = 1/2: interior facet 5x_z − 2x_{z−1} − 2x_{z+1} ≥ 0 on (t, 1, t): t ≤ 5/4
    g = pg.dp_bounds(pg.parse_definition("geometric:n=3,alpha=1/2"), "path")
    assert (g.inner.exp_eps, g.outer.exp_eps) == (F(5, 4), F(2))
    # 3-ary RR with e^eps = 2: facet 3x_0 − x_1 − x_2 ≥ 0 on (1, t, t): t ≤ 3/2
    k = pg.dp_bounds(pg.parse_definition("krr:n=3,exp_eps=2"), "complete")
    assert (k.inner.exp_eps, k.outer.exp_eps) == (F(3, 2), F(2))


def test_dp_bounds_algebraic_and_infinite() -> None:
    # x_a ≤ 2 x_c and x_c ≤ 2 x_a on the path a–b–c: the DP ray (t², t, 1) needs t² ≤ 2; x_b is unbounded
    D = pg.from_guarantees([[-1, 0, 2], [2, 0, -1]], ["a", "b", "c"])
    b = pg.dp_bounds(D, "path")
    lo, hi = b.inner_interval
    assert b.inner_kind == "algebraic" and hi - lo < F(1, 10**12) and lo * lo < 2 < hi * hi
    assert "t**2 - 2" in b.inner_root
    assert b.outer.infinite


def test_dp_bounds_float_agrees_with_exact() -> None:
    e = pg.dp_bounds(pg.RandomizedResponse(2, "3/4"), "hamming")
    f = pg.dp_bounds(pg.RandomizedResponse(2, 0.75), "hamming")
    assert not f.exact and abs(float(f.inner.exp_eps) - 5 / 3) < 1e-9 and abs(float(f.outer.exp_eps) - 3) < 1e-9
    assert e.exact


def test_dp_bounds_refuses_beyond_its_limit_and_disconnected_graphs() -> None:
    with pg.limits(dp_bounds_work=3):
        with pytest.raises(pg.SizeLimitError, match="dp_bounds_work"):
            pg.dp_bounds(pg.RandomizedResponse(2, "3/4"), "hamming")
    with pytest.raises(pg.InvalidParameterError, match="connected"):
        pg.dp_bounds(pg.RandomizedResponse(2, "3/4"), [("11", "10")])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=4))
def test_dp_sandwich_on_random_cone_definitions(rows: list[list[int]]) -> None:
    facets = [r if sum(r) > 0 else [v - min(r) + 1 for v in r] for r in rows]  # keep 1 strictly inside
    D = ConeDefinition(pg.Cone.from_facets(facets + [[1, 1, 1]], labels=["a", "b", "c"]))
    b = pg.dp_bounds(D, "path")
    assert b.inner.exp_eps <= b.outer.exp_eps
    if b.inner.infinite:
        return
    level = b.inner.exp_eps if b.inner_kind == "exact" else b.inner_interval[0]  # type: ignore[index]
    inside = pg.DifferentialPrivacy([("a", "b"), ("b", "c")], exp_eps=level, inputs=["a", "b", "c"])
    assert pg.compare(inside, D).relation in ("subset", "equal")
    # tight: just above inner the DP cone leaves D (checked by double description, independently of the polynomials)
    above = pg.DifferentialPrivacy([("a", "b"), ("b", "c")], exp_eps=b.leaving_level, inputs=["a", "b", "c"])
    assert pg.compare(above, D).relation not in ("subset", "equal")
    if not b.outer.infinite:
        outside = pg.DifferentialPrivacy([("a", "b"), ("b", "c")], exp_eps=b.outer.exp_eps, inputs=["a", "b", "c"])
        assert pg.compare(D, outside).relation in ("subset", "equal")
    assert math.isfinite(float(b.inner.exp_eps))


@pytest.mark.parametrize(
    "spec",
    [
        "rr:k=2,p=3/4",
        "dp:graph=hamming,k=2,exp_eps=3",
        "geometric:n=3,alpha=1/2",
        "krr:n=3,exp_eps=2",
        "dp:graph=path,n=3,exp_eps=5/2",
    ],
)
def test_listed_facets_are_the_row_cone_facets_in_order(spec: str) -> None:
    """The facets the design operations number are ``row_cone().facets`` and the guarantees of ``pg.semantics``, in
    that order (the rest of the one facet order is in test_design_soundness.py)."""
    D = pg.parse_definition(spec)
    facets = [list(f) for f in D.row_cone().facets]
    assert [list(g.normal) for g in pg.semantics(D)] == facets == [list(f) for f in listed_facets(D)]
