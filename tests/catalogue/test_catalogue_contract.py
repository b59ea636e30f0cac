"""Run the shared contract checks of ``tests/definitions/test_contract.py`` on the catalogue's cases.

The contract module is imported by path and its check functions are called with the cases of
``cases_catalogue.py`` (which the lead can also append to the shared ``CASES``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

import privgeom.definitions._catalogue  # noqa: F401  (registers the spec kinds adp, pufferfish, geometric, …)

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path) -> Any:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


contract = _load("privgeom_definition_contract", HERE.parent / "definitions" / "test_contract.py")
catalogue = _load("privgeom_catalogue_cases", HERE / "cases_catalogue.py")
CASES = catalogue.CATALOGUE_CASES

CASE_PARAMS = [pytest.param(c, id=c.id) for c in CASES]
METHOD_PARAMS = [
    pytest.param(c, m, id=f"{c.id}-{m}")
    for c in CASES
    for m in ("auto",) + tuple(contract.definition(c).membership_methods)
]


@pytest.mark.parametrize("case, method", METHOD_PARAMS)
def test_members(case: Any, method: str) -> None:
    contract.test_members_are_accepted_with_verified_witness(case, method)


@pytest.mark.parametrize("case, method", METHOD_PARAMS)
def test_non_members(case: Any, method: str) -> None:
    contract.test_non_members_are_rejected_with_verified_certificate(case, method)


@pytest.mark.parametrize(
    "check",
    [
        "test_exact_and_float_agree",
        "test_rows_of_members_lie_in_the_row_cone",
        "test_row_cone_decides_only_where_it_does",
        "test_contains_row_on_known_vectors",
        "test_spec_round_trips",
        "test_mismatched_inputs_raise",
        "test_identity_fields",
    ],
)
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_contract_check(case: Any, check: str) -> None:
    getattr(contract, check)(case)


def test_every_catalogue_kind_has_a_case() -> None:
    kinds = {contract.definition(c).spec().partition(":")[0] for c in CASES}
    assert {"adp", "pufferfish", "geometric", "frapp", "krr"} <= kinds
