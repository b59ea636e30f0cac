"""Spec strings: parse_definition, the registry of kinds, round trips and malformed specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privgeom import (
    FormatError,
    InvalidInputError,
    InvalidParameterError,
    Mechanism,
    SizeLimitError,
    randomized_response,
)
from privgeom.definitions import (
    DifferentialPrivacy,
    FiniteDefinition,
    PrivacyDefinition,
    RandomizedResponse,
    parse_definition,
)
from privgeom.definitions._registry import definition_kinds, register_definition_kind
from privgeom.definitions._registry import _COMPOUND, _KINDS, split_compound, split_spec


@pytest.mark.parametrize(
    "spec, cls, exact",
    [
        ("rr:k=3,p=3/4", RandomizedResponse, True),
        ("rr:k=2,p=0.75", RandomizedResponse, True),  # a decimal string is a rational
        ("rr:k=2,p=0.7,exact=false", RandomizedResponse, False),
        ("dp:graph=hamming,k=2,exp_eps=3", DifferentialPrivacy, True),
        ("dp:graph=complete,n=4,exp_eps=2", DifferentialPrivacy, True),
        ("dp:graph=path,n=5,eps=1.2", DifferentialPrivacy, False),
        ("dp:graph=path,n=5,eps=ln(3)", DifferentialPrivacy, True),
        ("dp:graph=path,n=5,eps=0", DifferentialPrivacy, True),
        ("dp:graph=edges,inputs=a;b;c,edges=a~b;b~c,exp_eps=2", DifferentialPrivacy, True),
        (" rr : k = 2 , p = 3/4 ".replace("rr :", "rr:"), RandomizedResponse, True),
    ],
)
def test_parse_and_round_trip(spec: str, cls: type, exact: bool) -> None:
    d = parse_definition(spec)
    assert isinstance(d, cls) and d.exact == exact
    again = parse_definition(d.spec())
    assert again.spec() == d.spec() and again.inputs == d.inputs and again.exact == d.exact


def test_parsed_values() -> None:
    rr = parse_definition("rr:k=3,p=3/4")
    assert isinstance(rr, RandomizedResponse) and rr.k == 3 and rr.spec() == "rr:k=3,p=3/4"
    dp = parse_definition("dp:graph=path,n=5,eps=1.2")
    assert isinstance(dp, DifferentialPrivacy) and len(dp.inputs) == 6 and dp.spec() == "dp:graph=path,n=5,eps=1.2"
    assert parse_definition("dp:graph=complete,n=4,exp_eps=2").n_inputs == 4
    assert parse_definition(rr) is rr


def test_finite_file_and_inline(tmp_path: Path) -> None:
    A = randomized_response(1, "3/4")
    B = Mechanism([[1, "1/2"], [0, "1/2"]], inputs=A.inputs)
    one = tmp_path / "one.json"
    A.save(one)
    many = tmp_path / "many.json"
    many.write_text(json.dumps([A.to_dict(), B.to_dict()]))
    d1 = parse_definition(f"finite:file={one}")
    assert isinstance(d1, FiniteDefinition) and len(d1.mechanisms) == 1 and d1.spec() == f"finite:file={one}"
    d2 = parse_definition(f"finite:file={many}")
    assert len(d2.mechanisms) == 2 and d2.mechanisms[1] == B
    inline = FiniteDefinition([A, B])
    back = parse_definition(inline.spec())
    assert back.spec() == inline.spec() and back.mechanisms == inline.mechanisms
    assert back.contains(A).member


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("rr", "expected '<kind>:"),
        (":k=3", "expected '<kind>:"),
        ("rr:k=2", "p=<value>"),
        ("rr:p=3/4", "k=<value>"),
        ("rr:k=two,p=3/4", "k='two'"),
        ("rr:k=2,p=3/4,q=1", "'q'"),
        ("rr:k=2,p=3/4,k=3", "twice"),
        ("rr:k=2,,p=3/4", "part ''"),
        ("rr:k=2,p", "part 'p'"),
        ("rr:k=2,p=3/4,exact=maybe", "exact='maybe'"),
        ("torus:n=3", "unknown definition kind 'torus'"),
        ("dp:graph=torus,n=3,exp_eps=2", "graph='torus'"),
        ("dp:graph=hamming,k=2", "exactly one of eps"),
        ("dp:graph=hamming,k=2,eps=1,exp_eps=3", "exactly one of eps"),
        ("dp:graph=path,exp_eps=2", "n=<value>"),
        ("dp:graph=edges,inputs=a;b,edges=a-b,exp_eps=2", "'a-b'"),
        ("finite:", "exactly one of file"),
        ("finite:file=/nonexistent/x.json", "cannot read"),
        ('finite:json=[{"matrix": [[1]]}', "unbalanced"),
        ('finite:json={"nope": 1}', "no 'matrix'"),
        ("finite:json=[]", "empty list"),
    ],
)
def test_malformed_specs_raise_format_error(spec: str, fragment: str) -> None:
    with pytest.raises(FormatError) as info:
        parse_definition(spec)
    assert fragment in str(info.value)


def test_bad_values_keep_their_type_and_name_the_spec() -> None:
    with pytest.raises(InvalidParameterError, match=r"rr:k=2,p=1/3"):
        parse_definition("rr:k=2,p=1/3")
    with pytest.raises(InvalidParameterError, match="eps must be >= 0"):
        parse_definition("dp:graph=hamming,k=2,eps=-1")
    with pytest.raises(SizeLimitError):
        parse_definition("rr:k=99,p=3/4")
    with pytest.raises(FormatError):
        parse_definition(42)


def test_register_a_new_kind() -> None:
    def factory(params: dict[str, str]) -> PrivacyDefinition:
        return RandomizedResponse(1, params.pop("p", "3/4"))

    register_definition_kind("test-coin", factory)
    try:
        assert "test-coin" in definition_kinds()
        assert parse_definition("test-coin:p=2/3").spec() == "rr:k=1,p=2/3"
        with pytest.raises(FormatError, match="unknown key"):
            parse_definition("test-coin:p=2/3,zzz=1")
        with pytest.raises(InvalidInputError):
            register_definition_kind("test-coin", factory)
        register_definition_kind("test-coin", factory, replace=True)
        with pytest.raises(InvalidInputError):
            register_definition_kind("bad name", factory)
        with pytest.raises(InvalidInputError):
            register_definition_kind("nofactory", "x")  # type: ignore[arg-type]
    finally:
        _KINDS.pop("test-coin", None)


def test_split_spec_brackets_and_quotes() -> None:
    assert split_spec('finite:json=[{"a": "x,y"}, 2],z=1') == ("finite", {"json": '[{"a": "x,y"}, 2]', "z": "1"})
    assert split_spec("rr:") == ("rr", {})
    with pytest.raises(FormatError):
        split_spec("rr:k=1)")


def test_spec_of_unwritable_graph() -> None:
    dp = DifferentialPrivacy([("a,b", "c")], exp_eps=2)
    with pytest.raises(FormatError):
        dp.spec()
    assert "DifferentialPrivacy" in repr(dp)


def test_a_compound_form_registers_beside_the_kinds() -> None:
    """``compound=True`` registers ``name(SPEC, SPEC, …)``: the factory gets the parsed members; a kind and a compound
    form never share a name."""

    def first(members: list[PrivacyDefinition]) -> PrivacyDefinition:
        return members[0]

    assert {"intersection", "hull"} <= set(definition_kinds(compound=True))
    with pytest.raises(InvalidInputError, match="already registered as a compound form"):
        register_definition_kind("hull", first)
    with pytest.raises(InvalidInputError, match="already registered as a kind"):
        register_definition_kind("rr", first, compound=True)
    register_definition_kind("test-first", first, compound=True)
    try:
        d = parse_definition("test-first(rr:k=1,p=3/4, dp:graph=hamming,k=1,exp_eps=2)")
        assert d.spec() == "rr:k=1,p=3/4"
        assert "test-first" not in definition_kinds()
    finally:
        _COMPOUND.pop("test-first", None)


def test_split_compound_groups_the_members_parameters() -> None:
    """The one tokenizer splits at top-level commas; a part opening ``<kind>:`` or ``<name>(`` starts a member."""
    spec = (
        'intersection(finite:json=[{"a": [1, 2]}], dp:graph=edges,inputs=a;b,edges=a~b,eps=ln(3), hull(x:y=1, z:w=2))'
    )
    assert split_compound(spec) == (
        "intersection",
        ['finite:json=[{"a": [1, 2]}]', "dp:graph=edges,inputs=a;b,edges=a~b,eps=ln(3)", "hull(x:y=1, z:w=2)"],
    )
    assert split_compound("  hull (rr:k=1,p=3/4 , rr:k=1,p=2/3)  ") == ("hull", ["rr:k=1,p=3/4", "rr:k=1,p=2/3"])
    assert split_compound("dp:graph=path,n=3,eps=ln(3)") is None
