"""Uniform results: one-number answers are Quantities, yes/no answers are Decisions with ``holds``; the vocabulary
of every public result type (``privgeom.results``): ``.holds``, ``.value`` with its ``unit``, ``to_dict``/``from_dict``,
``to_json``/``from_json`` (text)."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path
from dataclasses import dataclass
from fractions import Fraction

import pytest

import privgeom as pg
from privgeom.results import Decision


def test_quantity_compares_converts_and_serialises() -> None:
    q = pg.Quantity(Fraction(3, 4), "accuracy", detail="majority(3)")
    assert q == Fraction(3, 4) and q != Fraction(1, 2) and q < 1 and q >= Fraction(3, 4)
    assert float(q) == 0.75 and q.exact
    assert json.loads(q.to_json()) == {"value": "3/4", "name": "accuracy", "exact": True, "detail": "majority(3)"}
    assert str(q) == "accuracy = 3/4 (exact; majority(3))"
    assert pg.Quantity(2, "n").value == Fraction(2) and pg.Quantity(2, "n").exact  # ints are exact
    f = pg.Quantity(0.5, "delta")
    assert not f.exact and f == 0.5 and f == pg.Quantity(0.5, "other")
    assert hash(pg.Quantity(Fraction(1, 2), "a")) == hash(Fraction(1, 2))
    assert (q == "3/4") is False  # not a number: not equal


def test_decision_truth_value_and_undecided() -> None:
    @dataclass(frozen=True)
    class Check(Decision):
        holds: bool | None

    assert bool(Check(True)) and not bool(Check(False))
    with pytest.raises(pg.SolverError, match="undecided"):
        bool(Check(None))


def test_membership_and_checks_have_holds_and_exact() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    yes = rr.contains(pg.randomized_response(2, "2/3"))
    no = rr.contains(pg.randomized_response(2, "7/8"))
    assert yes.member is True and bool(yes) and no.member is False and not bool(no)
    assert isinstance(yes, Decision) and yes.exact
    g = pg.semantics(rr)[0]
    check = pg.analyses.check_guarantee(pg.randomized_response(2, "3/4"), g)
    assert check.holds and bool(check) and check.exact
    cone_check = rr.row_cone().contains([3, 1, 1, 3])
    assert bool(cone_check) == cone_check.member and isinstance(cone_check, Decision)


def test_relaxation_names_its_level_eps_and_mode() -> None:
    r = pg.relax_pairwise(pg.RandomizedResponse(2, "3/4"), "hamming")
    assert r.level == pg.PrivacyLevel.from_exp_eps(3) and r.level.eps == pg.LogRational(Fraction(3)) and r.exact
    data = json.loads(r.to_json())
    assert data["eps"]["ln"] == "3" and data["exp_eps"] == "3" and "epsilon" not in data and data["exact"] is True


def test_mutual_information_is_a_quantity() -> None:
    mi = pg.analyses.mutual_information(pg.Mechanism([[1, 0], [0, 1]]))
    assert isinstance(mi, pg.Quantity) and not mi.exact and mi.name == "mutual information"
    assert float(mi) == pytest.approx(0.6931471805599453)


#: Result types that are parts of answers (witnesses, certificates, groups, pieces), not answers of a public analysis.
PARTS = {
    "Result",
    "SymmetryGroup",
    "Orbit",
    "ClosureWitness",
    "RowWitness",
    "RowCertificate",
    "SeparatingCertificate",
    "PairBound",
    "DeltaPiece",
    "InclusionWitness",
    "HockeyStickWitness",
    "HockeyStickCertificate",
    "CompletionWitness",
    "NearestCertificate",
    "Limits",
    "LimitInfo",  # the last two: settings, not answers
    "Decision",
    "ImpliedPair",
    "LPSize",
}  # a mixin; a part of a Relaxation; a size estimate, not an answer


def test_every_public_answer_type_says_whether_it_is_exact() -> None:
    import dataclasses
    import inspect

    import importlib
    import pkgutil

    # every result type of the package, public or received from a private module (most are not public names)
    modules = [
        importlib.import_module(m.name)
        for m in pkgutil.walk_packages(pg.__path__, "privgeom.")
        if not m.name.endswith("__main__")
    ]
    missing = []
    for mod in modules:
        for name, cls in vars(mod).items():
            if (
                inspect.isclass(cls)
                and cls.__module__ == mod.__name__
                and issubclass(cls, pg.Result)
                and name not in PARTS
            ):
                fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
                if not (hasattr(cls, "exact") or "exact" in fields):
                    missing.append(f"{mod.__name__}.{name}")
    assert not missing, missing


# ------------------------------------------------------------------------------------------------ the vocabulary
from privgeom import results as R  # noqa: E402

#: Results whose answer is one number: ``.value`` and a class attribute ``unit`` saying what it measures.
ONE_NUMBER = {
    "Quantity",
    "DeltaResult",
    "DatabaseDelta",
    "SmoothedDelta",
    "UtilityGap",
    "LeastInformative",
    "OptimalMechanism",
    "StaircaseOptimum",
    "MixingThreshold",
}
#: Results whose answer is a privacy level: ``.level``, a PrivacyLevel (the type is the unit: ε and e^ε).
LEVEL = {"EpsilonResult", "VotingEpsilon", "Relaxation"}
#: Results with several numbers or a structure (curves, cones, groups, witnesses, certificates, reports, settings).
COMPOSITE = {
    "Result",
    "Limits",
    "LimitInfo",
    "Nearest",
    "NearestCertificate",
    "ClosureWitness",
    "CompletionWitness",
    "RowWitness",
    "RowCertificate",
    "SeparatingCertificate",
    "HockeyStickWitness",
    "HockeyStickCertificate",
    "RayOrbits",
    "SymmetryGroup",
    "Orbit",
    "DeltaCurve",
    "DeltaPiece",
    "PairBound",
    "FacetStatus",
    "ImpliedPair",
    "Guarantee",
    "RowConeSummary",
    "FacetOrbit",
    "SymbolicRowCone",
    "Comparison",
    "InclusionWitness",
    "OptimalityCertificate",
    "KOVRegimes",
    "LPSize",
    "RedundantGuarantee",
    "DPBounds",
    "Banzhaf",
    "FourierSpectrum",
    "Influences",
    "ExperimentResult",
}


def _decisions() -> set[str]:
    return {name for name in R.__all__ if issubclass(getattr(R, name), R.Decision)}


def test_every_public_result_type_is_classified_once() -> None:
    groups = [_decisions(), ONE_NUMBER, LEVEL, COMPOSITE]
    listed = [name for group in groups for name in group]
    assert sorted(listed) == sorted(set(listed)), "a type in two groups"
    assert set(listed) == set(R.__all__), (
        f"unclassified: {set(R.__all__) - set(listed)}; stale: {set(listed) - set(R.__all__)}"
    )
    for name in R.__all__:
        assert issubclass(getattr(R, name), R.Result), name


@pytest.mark.parametrize("name", sorted(_decisions() - {"Decision"}))
def test_every_decision_answers_holds(name: str) -> None:
    cls = getattr(R, name)
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    assert "holds" in fields or isinstance(getattr(cls, "holds", None), property), name


@pytest.mark.parametrize("name", sorted(ONE_NUMBER))
def test_every_one_number_result_has_value_and_unit(name: str) -> None:
    cls = getattr(R, name)
    fields = {f.name for f in dataclasses.fields(cls)}
    assert "value" in fields or isinstance(getattr(cls, "value", None), property), name
    assert isinstance(cls.unit, str) and len(cls.unit) > 5 and "unit" not in fields, name


@pytest.mark.parametrize("name", sorted(LEVEL))
def test_level_results_state_a_privacy_level(name: str) -> None:
    assert dataclasses.fields(getattr(R, name))[0].name == "level" or "level" in {
        f.name for f in dataclasses.fields(getattr(R, name))
    }


@pytest.mark.parametrize("name", R.__all__)
def test_every_result_type_has_the_four_methods(name: str) -> None:
    cls = getattr(R, name)
    for method in ("to_dict", "from_dict", "to_json", "from_json"):
        assert callable(getattr(cls, method, None)), (name, method)


#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"


def _package_sources() -> list[tuple[str, ast.Module]]:
    root = Path(pg.__file__).parent
    return [(str(p.relative_to(root)), ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(root.rglob(PY_FILES))]


def test_to_json_returns_text_and_to_dict_a_dict_everywhere() -> None:
    wrong = []
    for rel, tree in _package_sources():
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name in ("to_json", "to_dict"):
                want = "str" if fn.name == "to_json" else "dict[str, Any]"
                got = ast.unparse(fn.returns) if fn.returns else None
                if got != want:
                    wrong.append(f"{rel}:{fn.lineno} {fn.name} -> {got}")
    assert not wrong, wrong


def _answers() -> list[object]:
    rr = pg.RandomizedResponse(2, "3/4")
    M = pg.randomized_response(1, "3/4")
    return [
        rr.contains(pg.randomized_response(2, "2/3")),  # Membership
        rr.row_cone().contains([3, 1, 1, 3]),  # ConeMembership
        pg.epsilon(pg.randomized_response(2, "3/4"), "hamming"),  # EpsilonResult
        pg.delta(M, "hamming", "ln(2)"),  # DeltaResult
        pg.delta_curve(M, "hamming"),  # DeltaCurve
        pg.check_guarantee(pg.randomized_response(2, "3/4"), pg.semantics(rr)[0]),
        pg.ldp_utility_gap(pg.parse_definition("oue:d=3,exp_eps=3")),  # UtilityGap
        pg.optimal_mechanism(pg.RandomizedResponse(1, "3/4")),  # OptimalMechanism
        pg.mixing_threshold(pg.RandomizedResponse(1, "3/4"), pg.randomized_response(1, "7/8")),
        pg.compare(rr, pg.RandomizedResponse(2, "2/3")),  # Comparison
        pg.relax_pairwise(rr, "hamming"),  # Relaxation
        pg.voting.accuracy(pg.voting.majority(3), "1/2"),  # Quantity
        pg.voting.epsilon(pg.voting.majority(3), "1/2"),  # VotingEpsilon
    ]


def test_real_answers_speak_the_vocabulary() -> None:
    for answer in _answers():
        name = type(answer).__name__
        text = answer.to_json()
        assert isinstance(text, str) and json.loads(text) == answer.to_dict(), name
        if isinstance(answer, R.Decision):
            assert answer.holds in (True, False) and bool(answer) == answer.holds, name
        if name in ONE_NUMBER:
            assert answer.value is not None and answer.unit, name


def test_the_membership_synonym_is_the_same_answer() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    for M, expected in ((pg.randomized_response(2, "2/3"), True), (pg.randomized_response(2, "7/8"), False)):
        m = rr.contains(M)
        assert m.holds is m.member is expected  # RR(p') ∈ closure(RR(3/4)) iff 1/2 ≤ p' ≤ 3/4 (Lin & Kifer)
        c = rr.row_cone().contains([3, 1, 1, 3] if expected else [9, 1, 1, 0])
        assert c.holds == c.member


def test_delta_value_is_delta_and_its_unit_a_probability() -> None:
    d = pg.delta(pg.randomized_response(1, "3/4"), "hamming", "ln(2)")
    assert d.value == d.delta == Fraction(1, 4)  # 3/4 − 2·1/4 (Dwork & Roth, hockey-stick divergence)
    assert d.unit.startswith("probability")


@pytest.mark.parametrize("index", range(7))
def test_results_read_back_from_json(index: int) -> None:
    make = [
        lambda: pg.Quantity(Fraction(3, 4), "accuracy", detail="majority(3)"),
        lambda: pg.delta(pg.randomized_response(1, "3/4"), "hamming", "ln(2)"),
        lambda: pg.epsilon(pg.randomized_response(2, "3/4"), "hamming"),
        lambda: pg.epsilon(pg.randomized_response(2, 0.75), "hamming"),
        lambda: pg.ldp_utility_gap(pg.parse_definition("oue:d=3,exp_eps=3")),
        lambda: pg.voting.influence(pg.voting.majority(3)),
        lambda: pg.voting.accuracy(pg.voting.majority(3), "1/2"),
    ][index]
    answer = make()
    back = type(answer).from_json(answer.to_json())
    assert back == answer and back.to_dict() == answer.to_dict()
    assert type(answer).from_dict(answer.to_dict()) == answer


def test_a_field_that_cannot_be_read_back_is_named() -> None:
    m = pg.RandomizedResponse(2, "3/4").contains(pg.randomized_response(2, "2/3"))  # witness: any Result
    with pytest.raises(pg.FormatError, match="Membership.witness"):
        R.Membership.from_json(m.to_json())
    with pytest.raises(pg.FormatError, match="the field 'delta' is missing"):
        R.DeltaResult.from_dict({"level": pg.PrivacyLevel.from_exp_eps(2).to_dict()})
    with pytest.raises(pg.FormatError, match="JSON"):
        R.DeltaResult.from_json("{not json")


def test_objects_share_the_convention() -> None:
    M = pg.randomized_response(2, "3/4")
    cone = pg.RandomizedResponse(2, "3/4").row_cone()
    level = pg.PrivacyLevel.from_exp_eps(3)
    for obj in (M, cone, level, pg.LogRational(Fraction(3))):
        text = obj.to_json()
        assert isinstance(text, str) and json.loads(text) == obj.to_dict()
        assert type(obj).from_json(text) == obj and type(obj).from_dict(obj.to_dict()) == obj
    assert pg.Mechanism.from_json(M.to_dict()) == M  # a dict, as Mechanism.to_json returned before 0.2, still reads
