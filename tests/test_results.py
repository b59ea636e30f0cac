"""Uniform results (issue 9): one-number answers are Quantities, yes/no answers are Decisions with ``holds``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

import pytest

import privgeom as pg
from privgeom._core.results import Decision


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
PARTS = {"Result", "SymmetryGroup", "Orbit", "ClosureWitness", "RowWitness", "RowCertificate", "SeparatingCertificate",
         "PairBound", "DeltaPiece", "InclusionWitness", "HockeyStickWitness", "HockeyStickCertificate",
         "CompletionWitness", "NearestCertificate", "Limits", "LimitInfo",  # the last two: settings, not answers
         "Decision", "ImpliedPair", "LPSize"}  # a mixin; a part of a Relaxation; a size estimate, not an answer


def test_every_public_answer_type_says_whether_it_is_exact() -> None:
    import dataclasses
    import inspect

    import importlib
    import pkgutil

    # every result type of the package, public or received from a private module (most are not public names)
    modules = [importlib.import_module(m.name) for m in pkgutil.walk_packages(pg.__path__, "privgeom.")
               if not m.name.endswith("__main__")]
    missing = []
    for mod in modules:
        for name, cls in vars(mod).items():
            if inspect.isclass(cls) and cls.__module__ == mod.__name__ and issubclass(cls, pg.Result) \
                    and name not in PARTS:
                fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
                if not (hasattr(cls, "exact") or "exact" in fields):
                    missing.append(f"{mod.__name__}.{name}")
    assert not missing, missing
