"""Run the shared contract checks of ``tests/definitions/test_contract.py`` on the catalogue's cases.

The contract module is imported by path and its check functions are called with the cases of
``cases_catalogue.py`` (which the lead can also append to the shared ``CASES``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
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


# ------------------------------------------------------------------------------------------------------------------
# Certificates and witnesses the shared contract only summarises (types it does not know) are re-verified here,
# independently (plain Fraction / numpy arithmetic), and through their own ``verify`` where they have one.
def _hockey(M: Any, i: int, j: int, ratio: Any, exact: bool) -> Any:
    """``Σ_ω (M[ω, i] − r M[ω, j])₊`` recomputed from scratch."""
    from fractions import Fraction

    if exact:
        return sum((max(Fraction(M.matrix[w, i]) - ratio * Fraction(M.matrix[w, j]), Fraction(0))
                    for w in range(M.n_outputs)), Fraction(0))
    m = M.float_matrix()
    return float(np.clip(m[:, i] - float(ratio) * m[:, j], 0, None).sum())


def _directed_edges(d: Any) -> set[tuple[str, str]]:
    return {(str(a), str(b)) for a, b in d.graph.edges} | {(str(b), str(a)) for a, b in d.graph.edges}


def _verify_adp_answer(d: Any, M: Any, ans: Any) -> None:
    from privgeom.definitions import HockeyStickCertificate, HockeyStickWitness

    exact = ans.exact
    ratio, delta = d.exp_eps, d.delta
    if ans.member:
        w = ans.witness
        assert isinstance(w, HockeyStickWitness)
        assert set(w.edges) == _directed_edges(d), "the witness must cover every edge in both directions"
        for (a, b), v in zip(w.edges, w.values):
            true = _hockey(M, d.inputs.index(a), d.inputs.index(b), ratio, exact)
            if exact and ans.method != "lp":
                assert v == true and v <= delta
            else:  # the LP's t-sums are upper bounds of the hockey-stick values
                assert float(v) >= float(true) - 1e-8 and float(v) <= float(delta) + 1e-8
        return
    c = ans.certificate
    assert isinstance(c, HockeyStickCertificate)
    assert c.verify(M)
    assert c.edge in _directed_edges(d)
    i, j = d.inputs.index(c.edge[0]), d.inputs.index(c.edge[1])
    rows = [M.outputs.index(o) for o in c.outputs]
    m = M.matrix if exact else M.float_matrix()
    p = sum(m[w, i] for w in rows)
    q = sum(m[w, j] for w in rows)
    if exact:
        assert (p, q) == (c.p_from, c.p_to) and p - ratio * q == c.value > delta
    else:
        assert float(p) - float(ratio) * float(q) > float(delta)


def _verify_completion(d: Any, x: Any, ans: Any) -> None:
    """A row-cone yes from a completion: the member is a member (checked again) and ``x = scale · row``."""
    from fractions import Fraction

    from privgeom.definitions import CompletionWitness

    w = ans.witness
    if not isinstance(w, CompletionWitness):
        return
    M = w.mechanism
    col = M.matrix if ans.exact else M.float_matrix()
    assert all((s == 1) if ans.exact else abs(float(s) - 1) < 1e-9 for s in col.sum(axis=0))
    assert (np.asarray(col, dtype=float) >= -1e-12).all()
    again = d.contains(M)
    assert again.member
    if hasattr(d, "graph"):
        _verify_adp_answer(d, M, again)
    row = M.matrix[w.row]
    if ans.exact:
        assert [Fraction(v) for v in x] == [w.scale * Fraction(v) for v in row]
    else:
        assert np.allclose([float(v) for v in x], [float(w.scale) * float(v) for v in row])


ADP_CASES = [c for c in CASES if c.id.startswith("adp")]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in ADP_CASES])
@pytest.mark.parametrize("method", ["auto", "hockey-stick", "lp"])
def test_adp_witnesses_and_certificates_re_verified(case: Any, method: str) -> None:
    d = contract.definition(case)
    twin = case.float_twin()
    for M in case.members(d) + case.non_members(d):
        _verify_adp_answer(d, M, d.contains(M, method=method))
        _verify_adp_answer(twin, M.to_float(), twin.contains(M.to_float(), method=method))


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_completion_witnesses_re_verified(case: Any) -> None:
    d = contract.definition(case)
    for x in case.rows_in(d):
        _verify_completion(d, x, d.contains_row(x))


def test_contract_covers_every_catalogue_definition() -> None:
    """ApproximateDP (δ > 0 and δ = 0), Pufferfish, FRAPP, geometric and k-RR each have a case with members,
    non-members, a float twin where the definition has a float mode, and known rows in / out of the row cone."""
    from privgeom.definitions import ApproximateDP, FrappDefinition, GeometricDefinition, KaryRRDefinition, Pufferfish

    seen: dict[type, int] = {}
    for c in CASES:
        d = contract.definition(c)
        seen[type(d)] = seen.get(type(d), 0) + 1
        assert c.members(d) and c.non_members(d) and c.rows_in(d) and c.rows_out(d), c.id
    for cls in (ApproximateDP, Pufferfish, FrappDefinition, GeometricDefinition, KaryRRDefinition):
        assert seen.get(cls, 0) >= 1, cls.__name__
    deltas = {contract.definition(c).delta for c in ADP_CASES}
    assert 0 in deltas and any(v > 0 for v in deltas)
