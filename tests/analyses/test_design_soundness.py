"""Design operations are sound for every kind of definition, including those their row cone does not decide.

The property: ``pg.intersection(a, b).contains(M).member == a.contains(M).member and b.contains(M).member`` for every
pair of catalogue definitions on the same datasets — ε-DP, randomized response, (ε, δ)-DP with δ = 0 and δ > 0,
Pufferfish, k-ary RR, the truncated geometric, the local protocols, finite and cone definitions — because
``closure(A) ∩ closure(B)`` is closed under post-processing and mixtures (Lin & Kifer, Definition 3.3), so it is its
own closure. The hull contains both (rows of members lie in their row cones). ``without`` and ``only`` refuse, naming
the reason, a definition that its row cone does not decide.

The hand value of the issue's example: RR(2, 9/10) has columns ``M(11) = (81, 9, 9, 1)/100`` and
``M(10) = (9, 81, 1, 9)/100``; the hockey stick at ``e^1`` on the edge ``11 → 10`` is
``(81 − 9e)/100 + (9 − e)/100 = (9 − e)/10 ≈ 0.628 > 1/10``, so the mechanism is not (1, 1/10)-DP.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import privgeom as pg
from privgeom.definitions import ConeDefinition

from privgeom.testing import DATA

BITS = ("11", "10", "01", "00")
PATH = ("0", "1", "2")


def _bits_definitions() -> list[pg.PrivacyDefinition]:
    rr = pg.randomized_response
    return [
        pg.RandomizedResponse(2, "3/4"),
        pg.RandomizedResponse(2, "9/10"),
        pg.parse_definition("dp:graph=hamming,k=2,exp_eps=2"),
        pg.parse_definition("dp:graph=hamming,k=2,exp_eps=3"),
        pg.parse_definition("adp:graph=hamming,k=2,exp_eps=2,delta=1/4"),
        pg.parse_definition("adp:graph=hamming,k=2,eps=1,delta=1/10"),
        pg.parse_definition("adp:graph=hamming,k=2,exp_eps=3,delta=0"),
        pg.parse_definition(f"pufferfish:file={DATA / 'bit_secret.json'}"),
        pg.FiniteDefinition([rr(2, "3/4"), rr(2, "2/3")]),  # two mechanisms: not decided by its row cone
        pg.from_guarantees([[3, -1, 0, 0], [-1, 3, 0, 0], [0, 0, 2, -1], [0, 0, -1, 2]], BITS),
    ]


def _path_list() -> list[pg.PrivacyDefinition]:
    specs = [
        "krr:n=3,exp_eps=2",
        "geometric:n=2,alpha=1/2",
        "dp:graph=path,n=2,exp_eps=2",
        "dp:graph=path,n=2,exp_eps=4",
        "adp:graph=path,n=2,exp_eps=2,delta=1/5",
        "oue:d=3,exp_eps=3",
        "olh:d=3,exp_eps=3",
        "ss:d=3,exp_eps=3",
        "hr:d=3,exp_eps=3",
    ]
    out = [pg.parse_definition(s) for s in specs]
    out.append(pg.definitions.Pufferfish.from_graph(pg.neighbour_graph("path", PATH), exp_eps=3))
    return out


GROUPS = {"bits": (BITS, _bits_definitions()), "path": (PATH, _path_list())}
PAIRS = [(g, i, j) for g, (_, defs) in GROUPS.items() for i in range(len(defs)) for j in range(len(defs))]
_BUILT: dict[tuple[str, int, int], pg.PrivacyDefinition] = {}


def _intersection(g: str, i: int, j: int) -> pg.PrivacyDefinition:
    if (g, i, j) not in _BUILT:
        defs = GROUPS[g][1]
        _BUILT[(g, i, j)] = pg.intersection(defs[i], defs[j])
    return _BUILT[(g, i, j)]


def _pool(inputs: tuple[str, ...]) -> list[pg.Mechanism]:
    """Mechanisms near the definitions' boundaries: RR-like (product or k-ary), the identity and a constant."""
    n = len(inputs)
    out = [pg.Mechanism(np.eye(n, dtype=int).astype(object), inputs=inputs)]
    out.append(pg.Mechanism([[F(1, 2)] * n, [F(1, 2)] * n], inputs=inputs))
    if n == 4:
        out += [pg.randomized_response(2, p) for p in ("51/100", "3/5", "2/3", "3/4", "4/5", "9/10")]
    else:
        for r in (F(3, 2), F(2), F(3), F(5)):  # k-ary RR: r/(r + n − 1) on the diagonal
            out.append(
                pg.Mechanism(
                    [[r / (r + n - 1) if a == b else 1 / (r + n - 1) for b in range(n)] for a in range(n)],
                    inputs=inputs,
                )
            )
    return out


@st.composite
def _mechanisms(draw: st.DrawFn, inputs: tuple[str, ...]) -> pg.Mechanism:
    """A post-processing (random column-stochastic matrix with small integer weights) of a pool mechanism, or a
    two-mechanism mixture of pool mechanisms: members of a closure stay members, so both answers occur."""
    pool = _pool(inputs)
    base = pool[draw(st.integers(0, len(pool) - 1))]
    if draw(st.booleans()):
        other = pool[draw(st.integers(0, len(pool) - 1))]
        w = F(draw(st.integers(1, 3)), 4)
        return pg.mixture([base, other], [w, 1 - w])
    m = base.matrix.shape[0]
    out = draw(st.integers(1, 3))
    weights = [[draw(st.integers(0, 3)) for _ in range(m)] for _ in range(out)]
    cols = [sum(weights[o][c] for o in range(out)) for c in range(m)]
    A = [[F(weights[o][c], cols[c]) if cols[c] else (F(1) if o == 0 else F(0)) for c in range(m)] for o in range(out)]
    return pg.Mechanism(np.array(A, dtype=object).dot(base.matrix), inputs=inputs)


def test_there_are_at_least_200_pairs_and_every_kind_of_definition() -> None:
    assert len(PAIRS) >= 200
    kinds = {type(d).__name__ for _, defs in GROUPS.values() for d in defs}
    assert {
        "ApproximateDP",
        "Pufferfish",
        "RandomizedResponse",
        "DifferentialPrivacy",
        "FiniteDefinition",
        "ConeDefinition",
        "KaryRRDefinition",
        "GeometricDefinition",
    } <= kinds
    undecided = [d for _, defs in GROUPS.values() for d in defs if not d.row_cone_decides_closure]
    assert len(undecided) >= 5  # (ε, δ)-DP with δ > 0, the finite ones, the local protocols


@settings(max_examples=12)
@given(st.sampled_from(sorted(GROUPS)).flatmap(lambda g: st.tuples(st.just(g), _mechanisms(GROUPS[g][0]))))
def test_intersection_is_the_conjunction_on_every_pair(case: tuple[str, pg.Mechanism]) -> None:
    """Every pair of the group, one drawn mechanism: the intersection answers, and its answer is the conjunction;
    a "no" carries the failing member's certificate, a "yes" every member's membership."""
    g, M = case
    defs = GROUPS[g][1]
    answers = [d.contains(M).member for d in defs]
    for gg, i, j in PAIRS:
        if gg != g:
            continue
        both = _intersection(g, i, j)
        ans = both.contains(M)
        assert ans.member == (answers[i] and answers[j]), (defs[i].spec(), defs[j].spec())
        if not ans.member:
            assert ans.certificate is not None
        elif both.row_cone_decides_closure is False:
            assert [m.member for m in ans.witness.memberships] == [True, True]


def test_the_issues_example_is_not_a_member_with_the_hockey_stick_certificate() -> None:
    rr = pg.RandomizedResponse(2, "9/10")
    adp = pg.ApproximateDP(pg.Domain.bits(2), eps=1, delta="1/10")
    both = pg.intersection(rr, adp)
    ans = both.contains(pg.randomized_response(2, "9/10"))
    assert not ans.member and ans.method == "intersection" and "adp:" in ans.detail
    cert = ans.certificate
    assert abs(float(cert.value) - (9 - math.e) / 10) < 1e-9  # (9 − e)/10 ≈ 0.628 on an edge at 11
    assert float(cert.value) > 0.1 and "11" in cert.edge
    # the row cone alone would have said yes: RR's rows are in the orthant, adp's row cone
    assert pg.ConeDefinition(both.row_cone()).contains(pg.randomized_response(2, "9/10")).member
    assert both.row_cone() == pg.RandomizedResponse(2, "9/10").row_cone()  # R_RR ∩ orthant, exact
    yes = both.contains(pg.randomized_response(2, "3/5"))  # (3/5·2 − … ): ratios 3/2 ≤ e on every edge
    assert yes.member and [m.member for m in yes.witness.memberships] == [True, True]


def test_intersection_of_definitions_decided_by_their_row_cones_stays_a_cone_definition() -> None:
    both = pg.intersection(pg.RandomizedResponse(2, "3/4"), pg.parse_definition("dp:graph=hamming,k=2,exp_eps=2"))
    assert isinstance(both, ConeDefinition) and both.row_cone_decides_closure


def test_nested_intersections_flatten_and_compare_soundly() -> None:
    rr, dp, adp = (
        pg.parse_definition(s)
        for s in ("rr:k=2,p=9/10", "dp:graph=hamming,k=2,exp_eps=3", "adp:graph=hamming,k=2,exp_eps=2,delta=1/4")
    )
    inner = pg.intersection(rr, adp)
    nested = pg.intersection(inner, dp)
    assert [d.spec() for d in nested.members] == [rr.spec(), adp.spec(), dp.spec()]
    # RR(9/10) ⊄ the intersection (it is not (ln 2, 1/4)-DP): compare finds the member's refusal
    assert pg.compare(rr, nested).relation in ("superset", "incomparable")
    assert not pg.compare(rr, nested).a_in_b.holds


@settings(max_examples=8)
@given(st.sampled_from(sorted(GROUPS)).flatmap(lambda g: st.tuples(st.just(g), _mechanisms(GROUPS[g][0]))))
def test_the_hull_holds_every_member_of_either(case: tuple[str, pg.Mechanism]) -> None:
    g, M = case
    defs = GROUPS[g][1]
    for i, j in [(0, 4), (1, 5), (4, 7), (2, 8)]:
        a, b = defs[i], defs[j]
        if a.contains(M).member or b.contains(M).member:
            assert pg.hull(a, b).contains(M).member, (a.spec(), b.spec())


@pytest.mark.parametrize("spec", ["adp:graph=hamming,k=2,eps=1,delta=1/10", "oue:d=3,exp_eps=3"])
def test_without_and_only_refuse_definitions_not_decided_by_their_row_cone(spec: str) -> None:
    D = pg.parse_definition(spec)
    assert not D.row_cone_decides_closure
    with pytest.raises(pg.InvalidParameterError, match="not decided by its row cone"):
        pg.without(D, [0])
    with pytest.raises(pg.InvalidParameterError, match="not decided by its row cone"):
        pg.only(D, lambda g: True)
    # the cone definition of its row cone is what the message points to, and it works
    C = ConeDefinition(D.row_cone())
    assert C.row_cone_decides_closure and pg.without(C, [0]).row_cone_decides_closure


# ---------------------------------------------------------------------------------------------------- one facet order
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
def test_one_facet_order_everywhere(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Facet i is ``row_cone().facets[i]``: the i-th guarantee of ``pg.semantics``, ``int_facets[i]`` and line ``[i]``
    of ``rowcone --all``; ``without([i])`` drops exactly it."""
    from privgeom.cli import main

    D = pg.parse_definition(spec)
    cone = D.row_cone()
    facets = [list(f) for f in cone.facets]
    assert [list(g.normal) for g in pg.semantics(D)] == facets  # the design kernel's list: test_design.py
    assert main(["rowcone", spec, "--all", "--json"]) == 0
    import json

    listed = json.loads(capsys.readouterr().out)
    rows = listed.get("facets") or listed["row_cone"]["facets"]
    assert [[F(v) for v in r] for r in rows] == facets
    for i, a in enumerate(facets):
        if sum(1 for v in a if v != 0) == 1:
            continue  # x_D ≥ 0: a cone definition always keeps it
        kept = [list(f) for f in pg.without(D, [i]).row_cone().facets]
        assert a not in kept and all(b in kept for k, b in enumerate(facets) if k != i)


def test_the_issues_facet_numbering_example() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    first = rr.row_cone().int_facets[0].tolist()
    assert first == [9, -3, -3, 1]  # 9·x_11 − 3·x_10 − 3·x_01 + x_00 ≥ 0 (Theorem 4.3, s = 11, scaled by 16)
    kept = pg.without(rr, [0]).row_cone().int_facets.tolist()
    assert first not in kept and [1, -3, -3, 9] in kept


def test_compare_knows_an_intersection_is_inside_its_members() -> None:
    """``closure(F) ∩ DP(ln 2)`` for ``F = {RR(3/4), RR(2/3)}`` (not decided by its row cone): inside ``F`` by
    construction (method ``intersection-member``), and strictly — RR(3/4) has ratio 3 > 2 on an edge."""
    fin = pg.FiniteDefinition([pg.randomized_response(2, "3/4"), pg.randomized_response(2, "2/3")])
    both = pg.intersection(fin, pg.parse_definition("dp:graph=hamming,k=2,exp_eps=2"))
    c = pg.compare(fin, both)
    assert c.b_in_a.holds and c.b_in_a.method == "intersection-member"
    assert c.a_in_b.holds is False and c.relation == "superset"


@pytest.mark.parametrize(
    "spec",
    [
        "dp:graph=path,n=3,exp_eps=2",
        "geometric:n=3,alpha=1/2",
        "dp:graph=path,n=3,eps=1",
        "dp:graph=hamming,k=2,exp_eps=3",
    ],
)
def test_dropping_an_orbit_drops_that_orbit(spec: str) -> None:
    """``without(orbits=[j])`` drops the ``size`` facets of orbit ``j`` as :func:`describe_row_cone` lists it — its
    representative among them — and keeps every other facet (orbits are numbered in the structure's own order, facets
    in ``row_cone().facets``' order)."""
    D = pg.parse_definition(spec)
    facets = [tuple(f) for f in D.row_cone().facets]
    close = (
        (lambda a, b: a == b) if D.exact else (lambda a, b: max(abs(float(x) - float(y)) for x, y in zip(a, b)) < 1e-9)
    )
    for j, o in enumerate(pg.describe_row_cone(D).facet_orbits):
        kept = [tuple(f) for f in pg.without(D, orbits=[j]).row_cone().facets]
        gone = [f for f in facets if not any(close(f, k) for k in kept)]
        assert len(gone) == o.size and any(close(tuple(o.normal), f) for f in gone), (j, gone)


@pytest.mark.parametrize("g, i", [(g, i) for g, (_, defs) in GROUPS.items() for i in range(len(defs))])
def test_without_and_only_are_weaker_or_refused_for_every_catalogue_definition(g: str, i: int) -> None:
    """Decided by its row cone: ``without([0])`` and ``only(...)`` hold every member of the definition (the pool
    mechanisms it holds). Not decided: both refuse, naming the reason."""
    inputs, defs = GROUPS[g]
    D = defs[i]
    if not D.row_cone_decides_closure:
        for op in (lambda: pg.without(D, [0]), lambda: pg.only(D, lambda gu: gu.n_minus <= 1)):
            with pytest.raises(pg.InvalidParameterError, match="not decided by its row cone"):
                op()
        return
    weaker = [pg.without(D, [0]), pg.only(D, lambda gu: gu.n_minus <= 1)]
    for M in _pool(inputs):
        if D.contains(M).member:
            assert all(W.contains(M).member for W in weaker), M
