"""The shared definition contract (:mod:`privgeom.testing`) on the catalogue's cases
(:data:`privgeom.testing.CATALOGUE_CASES`), and independent re-verification of the witnesses and
certificates the shared contract only summarises.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pytest
from privgeom.testing import CATALOGUE_CASES
from privgeom.testing import DefinitionCase
from privgeom.testing import DefinitionContract, definition

import privgeom.definitions  # noqa: F401  (registers the spec kinds adp, pufferfish, geometric, …)

CASES = CATALOGUE_CASES
CASE_PARAMS = [pytest.param(c, id=c.id) for c in CASES]


class TestCatalogueContract(DefinitionContract):
    @classmethod
    def cases(cls) -> Sequence[DefinitionCase]:
        return CASES


def test_every_catalogue_kind_has_a_case() -> None:
    kinds = {definition(c).spec().partition(":")[0] for c in CASES}
    assert {"adp", "pufferfish", "geometric", "frapp", "krr"} <= kinds


# ------------------------------------------------------------------------------------------------------------------
# Certificates and witnesses the shared contract only summarises (types it does not know) are re-verified here,
# independently (plain Fraction / numpy arithmetic), and through their own ``verify`` where they have one.
def _hockey(M: Any, i: int, j: int, ratio: Any, exact: bool) -> Any:
    """``Σ_ω (M[ω, i] − r M[ω, j])₊`` recomputed from scratch."""
    from fractions import Fraction

    if exact:
        return sum(
            (max(Fraction(M.matrix[w, i]) - ratio * Fraction(M.matrix[w, j]), Fraction(0)) for w in range(M.n_outputs)),
            Fraction(0),
        )
    m = M.float_matrix()
    return float(np.clip(m[:, i] - float(ratio) * m[:, j], 0, None).sum())


def _directed_edges(d: Any) -> set[tuple[str, str]]:
    return {(str(a), str(b)) for a, b in d.graph.edges} | {(str(b), str(a)) for a, b in d.graph.edges}


def _verify_adp_answer(d: Any, M: Any, ans: Any) -> None:
    from privgeom.results import HockeyStickCertificate, HockeyStickWitness

    exact = ans.exact
    ratio, delta = d.level.exp_eps, d.delta
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

    from privgeom.results import CompletionWitness

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
    d = definition(case)
    twin = case.float_twin()
    for M in case.members(d) + case.non_members(d):
        _verify_adp_answer(d, M, d.contains(M, method=method))
        _verify_adp_answer(twin, M.to_float(), twin.contains(M.to_float(), method=method))


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_completion_witnesses_re_verified(case: Any) -> None:
    d = definition(case)
    for x in case.rows_in(d):
        _verify_completion(d, x, d.contains_row(x))


def test_contract_covers_every_catalogue_definition() -> None:
    """ApproximateDP (δ > 0 and δ = 0), Pufferfish, FRAPP, geometric and k-RR each have a case with members,
    non-members, a float twin where the definition has a float mode, and known rows in / out of the row cone."""
    from privgeom.definitions import ApproximateDP, FrappDefinition, GeometricDefinition, KaryRRDefinition, Pufferfish

    seen: dict[type, int] = {}
    for c in CASES:
        d = definition(c)
        seen[type(d)] = seen.get(type(d), 0) + 1
        assert c.members(d) and c.non_members(d) and c.rows_in(d) and c.rows_out(d), c.id
    for cls in (ApproximateDP, Pufferfish, FrappDefinition, GeometricDefinition, KaryRRDefinition):
        assert seen.get(cls, 0) >= 1, cls.__name__
    deltas = {definition(c).delta for c in ADP_CASES}
    assert 0 in deltas and any(v > 0 for v in deltas)
