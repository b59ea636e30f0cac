"""Compound specs ``intersection(SPEC, SPEC, …)`` and ``hull(SPEC, SPEC, …)``: what the design operations' ``spec()``
writes reads back through ``parse_definition`` as the same definition (same canonical row cone, same membership
answers), and malformed compound specs are refused with a FormatError naming the text."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

import privgeom as pg

# ---------------------------------------------------------------------------------------------------- members
#: Rationals for RR's p in (1/2, 1) and for e^ε ≥ 1; δ in (0, 1).
P_VALUES = ("3/4", "2/3", "3/5", "4/5", "9/10")
EXP_EPS = ("2", "3", "5/2", "9")
DELTAS = ("1/10", "1/4")


def _member(k: int) -> st.SearchStrategy[str]:
    """A spec on the 2^k bit strings (randomized response, ε-DP or (ε, δ)-DP on the Hamming graph, or a hull)."""
    rr = st.sampled_from(P_VALUES).map(lambda p: f"rr:k={k},p={p}")
    dp = st.sampled_from(EXP_EPS).map(lambda e: f"dp:graph=hamming,k={k},exp_eps={e}")
    adp = st.tuples(st.sampled_from(EXP_EPS), st.sampled_from(DELTAS)).map(
        lambda t: f"adp:graph=hamming,k={k},exp_eps={t[0]},delta={t[1]}"
    )
    nested = st.tuples(rr, dp).map(lambda t: f"hull({t[0]}, {t[1]})")
    return st.one_of(rr, dp, adp, nested)


@st.composite
def _combined(draw: st.DrawFn) -> tuple[str, list[str]]:
    k = draw(st.sampled_from((1, 2)))
    op = draw(st.sampled_from(("intersection", "hull")))
    members = draw(st.lists(_member(k), min_size=2, max_size=3))
    return op, members


def _mechanisms(k: int) -> list[pg.Mechanism]:
    """Randomized response at several p: inside some members, outside others (RR(k, q) ⊆ RR(k, p) iff q ≤ p)."""
    return [pg.randomized_response(k, q) for q in ("3/5", "3/4", "9/10")]


def _build(op: str, members: list[str]) -> pg.PrivacyDefinition:
    """``pg.intersection`` / ``pg.hull`` folded over the members (an intersection with a member its row cone does not
    decide is an IntersectionDefinition, whose spec is the compound form)."""
    combine = pg.hull if op == "hull" else pg.intersection
    out = pg.parse_definition(members[0])
    for s in members[1:]:
        out = combine(out, pg.parse_definition(s))
    return out


def _facets(d: pg.PrivacyDefinition) -> list[list[Fraction]]:
    return sorted(d.row_cone().int_facets.tolist())


@given(_combined())
def test_spec_of_an_intersection_or_hull_reads_back_as_the_same_definition(case: tuple[str, list[str]]) -> None:
    op, members = case
    built = _build(op, members)
    back = pg.parse_definition(built.spec())
    assert type(back) is type(built)
    assert back.spec() == built.spec()
    assert back.inputs == built.inputs
    assert _facets(back) == _facets(built)
    k = len(built.inputs[0])
    defs = [pg.parse_definition(s) for s in members]
    for M in _mechanisms(k):
        answer = back.contains(M).member
        assert answer == built.contains(M).member
        inside = [d.contains(M).member for d in defs]
        if op == "intersection":  # closure(A) ∩ closure(B) ∩ … (docs/theory.md §13)
            assert answer == all(inside)
        elif any(inside):  # every member of a member is in the hull
            assert answer


def test_the_typed_form_is_the_operation_of_its_members() -> None:
    rr, dp = pg.RandomizedResponse(2, "3/4"), pg.DifferentialPrivacy.hamming(2, exp_eps=3)
    typed = pg.parse_definition("intersection(rr:k=2,p=3/4, dp:graph=hamming,k=2,exp_eps=3)")
    # RR(2, 3/4) changes one bit's report odds by 3 = e^ε, so it is inside 3-DP and the intersection is RR itself:
    # its four facets (Lin & Kifer Theorem 4.3) 9·x_11 − 3·x_10 − 3·x_01 + x_00 ≥ 0 and its images under bit flips
    assert _facets(typed) == _facets(rr) == sorted([[9, -3, -3, 1], [-3, 9, 1, -3], [-3, 1, 9, -3], [1, -3, -3, 9]])
    assert (
        typed.spec() == pg.intersection(rr, dp).spec() == "intersection(rr:k=2,p=3/4, dp:graph=hamming,k=2,exp_eps=3)"
    )
    h = pg.parse_definition("hull(rr:k=1,p=3/4, rr:k=1,p=2/3)")
    assert _facets(h) == _facets(pg.RandomizedResponse(1, "3/4"))  # RR(2/3) ⊆ RR(3/4): the hull is the larger one


def test_three_members_and_nesting() -> None:
    spec = "intersection(rr:k=2,p=3/4, hull(rr:k=2,p=2/3, rr:k=2,p=3/5), adp:graph=hamming,k=2,exp_eps=2,delta=1/4)"
    d = pg.parse_definition(spec)
    assert type(d).__name__ == "IntersectionDefinition"
    assert [m.spec() for m in getattr(d, "members")] == [
        "rr:k=2,p=3/4",
        "hull(rr:k=2,p=2/3, rr:k=2,p=3/5)",
        "adp:graph=hamming,k=2,exp_eps=2,delta=1/4",
    ]
    assert d.spec() == spec
    # the hull of RR(2/3) and RR(3/5) is RR(2/3) (nested closures), which is inside RR(3/4): its cone is RR(2/3)'s
    assert _facets(d) == _facets(pg.RandomizedResponse(2, "2/3"))
    assert d.contains(pg.randomized_response(2, "2/3")).member
    assert not d.contains(pg.randomized_response(2, "3/4")).member


@pytest.mark.parametrize(
    "make",
    [
        lambda: pg.without(pg.RandomizedResponse(2, "3/4"), [0]),
        lambda: pg.only(pg.DifferentialPrivacy.path(3, exp_eps=2), lambda g: "0" in g.s_minus),
        lambda: pg.from_guarantees([[2, -1], [-1, 3]], ["a", "b"]),
        lambda: pg.compose(pg.RandomizedResponse(1, "3/4"), pg.RandomizedResponse(1, "2/3"), independent=True),
        lambda: pg.compose(pg.RandomizedResponse(1, "3/4"), pg.RandomizedResponse(1, "2/3")),
        lambda: pg.without(pg.hull(pg.RandomizedResponse(1, "3/4"), pg.RandomizedResponse(1, "2/3")), [0]),
    ],
    ids=["without", "only", "from_guarantees", "compose-independent", "compose-sequential", "without-of-hull"],
)
def test_the_other_design_operations_write_their_exact_json(make) -> None:
    d = make()
    spec = d.spec()
    assert spec.startswith(("cone:json=", "finite:json="))
    back = pg.parse_definition(spec)
    assert type(back) is type(d) and back.inputs == d.inputs
    assert back.row_cone() == d.row_cone()


def _nested(depth: int) -> str:
    spec = "rr:k=1,p=3/4"
    for _ in range(depth):
        spec = f"intersection({spec}, rr:k=1,p=2/3)"
    return spec


@pytest.mark.parametrize(
    "spec, error, words",
    [
        ("intersection(rr:k=2,p=3/4", pg.FormatError, ["'intersection(rr:k=2,p=3/4'", "')'"]),
        ("intersection(rr:k=2,p=3/4, rr:k=2,p=2/3) x", pg.FormatError, ["trailing text"]),
        ("intersection(rr:k=2,p=3/4, rr:k=2,p=2/3))", pg.FormatError, ["unbalanced ')'"]),
        ("intersection(rr:k=2,p=3/4)", pg.FormatError, ["at least two definitions, got 1", "'rr:k=2,p=3/4'"]),
        ("hull()", pg.FormatError, ["at least two definitions, got 0"]),
        ("intersection(rr:k=2,p=3/4, foo:x=1)", pg.FormatError, ["member 2", "unknown definition kind 'foo'"]),
        ("intersection(rr:k=2,p=3/4, rr:k=2)", pg.FormatError, ["member 2", "rr needs p="]),
        (
            "union(rr:k=2,p=3/4, rr:k=2,p=2/3)",
            pg.FormatError,
            ["unknown compound form 'union'", "hull", "intersection"],
        ),
        ("intersection(k=2, rr:k=2,p=3/4)", pg.FormatError, ["'k=2' does not start a definition"]),
        ("intersection(rr:k=2,p=3/4,, rr:k=2,p=2/3)", pg.FormatError, ["an empty member"]),
        ("intersection(rr:k=2,p=3/4, rr:k=1,p=3/4)", pg.DomainMismatchError, ["different datasets"]),
        (_nested(40), pg.FormatError, ["nested more than 32 deep"]),
    ],
)
def test_malformed_compound_specs_name_the_offending_text(spec: str, error: type, words: list[str]) -> None:
    with pytest.raises(error) as info:
        pg.parse_definition(spec)
    for w in words:
        assert w in str(info.value)


def test_a_nesting_within_the_limit_parses() -> None:
    d = pg.parse_definition(_nested(5))  # RR(1, 2/3) ⊆ RR(1, 3/4): every intersection is RR(1, 2/3)
    assert _facets(d) == _facets(pg.RandomizedResponse(1, "2/3"))
    assert pg.parse_definition(d.spec()).spec() == d.spec()
