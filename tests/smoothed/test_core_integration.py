"""SHM and voting mechanisms through the core: row cone, semantics, closure (skipped if the core lacks them)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privgeom.smoothed import majority_vote, shm, smoothed_delta
from privgeom.smoothed.paper import check

definitions = pytest.importorskip("privgeom.definitions")
geometry = pytest.importorskip("privgeom.geometry")
FiniteDefinition = getattr(definitions, "FiniteDefinition", None)
if FiniteDefinition is None:  # pragma: no cover - depends on the state of the core
    pytest.skip("privgeom.definitions.FiniteDefinition is not available yet", allow_module_level=True)


@pytest.mark.parametrize("n,T", [(3, 2), (4, 2), (4, 3)])
def test_shm_row_cone_is_generated_by_its_rows(n: int, T: int) -> None:
    M = shm(n, T, inputs="count")
    cone = FiniteDefinition([M]).row_cone()
    direct = geometry.Cone.from_generators(M.matrix.tolist(), labels=M.inputs)
    assert cone == direct
    assert cone.dim == T + 1  # the T + 1 hypergeometric rows are linearly independent
    for row in M.matrix:  # every facet a·x >= 0 holds on every row
        for a in cone.facets:
            assert sum(ai * ri for ai, ri in zip(a, row)) >= 0
    # SHM is symmetric under N -> n - N: the facet set is invariant under reversing the coordinates
    facets = {tuple(f) for f in cone.facets}
    assert {tuple(reversed(f)) for f in facets} == facets
    assert cone.contains([Fraction(1)] * (n + 1)).member  # the all-ones vector (sum of the rows)


def test_shm_semantics_guarantees_hold_on_rows() -> None:
    analyses = pytest.importorskip("privgeom.analyses")
    M = shm(3, 2, inputs="count")
    guarantees = analyses.semantics(FiniteDefinition([M]).row_cone())
    assert guarantees
    assert all("attacker" in g.text for g in guarantees)


def test_closure_membership_and_post_processing_smoothed_delta() -> None:
    M = shm(4, 3, inputs="count")
    A = [[1, 1, 0, 0], [0, 0, 1, 1]]  # report only whether at least 2 of the 3 sampled records are ones
    post = M.post_process(A)
    assert FiniteDefinition([M]).contains(post).member
    Pi = ["1/5", "1/2"]
    assert smoothed_delta(post, "ln(2)", Pi).value <= smoothed_delta(M, "ln(2)", Pi).value


def test_theorem1_agrees_with_core_delta() -> None:
    for M in (shm(5, 3, inputs="count"), majority_vote(3, "1/3", inputs="database")):
        c = check("Theorem 1", M, "ln(3/2)")
        assert c.holds and "privgeom.analyses.delta" in c.detail
