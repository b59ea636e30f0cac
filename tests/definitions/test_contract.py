"""The shared definition contract (:mod:`privgeom.testing`) on the core cases
(:data:`privgeom.testing.CASES`: randomized response, finite definitions, ε-DP on standard graphs), and
the nearest-member repair on the same cases.

Append new definitions to ``CASES`` in ``privgeom/testing/_definition_cases.py``; every contract check then runs on
them, for every membership method the definition lists in ``membership_methods``.
"""

from __future__ import annotations

from typing import Any, Sequence

import pytest
from privgeom.testing import CASES, DefinitionCase
from privgeom.testing import DefinitionContract, definition

CASE_PARAMS = [pytest.param(c, id=c.id) for c in CASES]


class TestDefinitionContract(DefinitionContract):
    @classmethod
    def cases(cls) -> Sequence[DefinitionCase]:
        return CASES


# ---------------------------------------------------------------------------------------------------- nearest member
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_nearest_member_repairs_non_members(case: Any) -> None:
    """``nearest`` turns each listed non-member into a member at exactly the distance it reports (ℓ1, recomputed
    here), with a dual lower bound that matches it in exact mode; definitions without an LP description refuse."""
    from privgeom import InvalidParameterError
    from privgeom.definitions import FiniteDefinition

    d = definition(case)
    supported = isinstance(d, FiniteDefinition) or d.row_cone_decides_closure
    for M in case.non_members(d)[:2]:
        if M.n_inputs * M.n_outputs > 64:
            continue
        if not supported:
            with pytest.raises(InvalidParameterError):
                d.nearest(M)
            return
        rep = d.nearest(M)
        N = rep.mechanism
        assert not rep.original_member and N.outputs == M.outputs and N.inputs == M.inputs
        assert d.contains(N).member
        X = N.matrix if rep.exact else N.float_matrix()
        Y = M.matrix if rep.exact else M.float_matrix()
        dist = sum(abs(v) for v in (X - Y).ravel())
        assert rep.distance == dist if rep.exact else abs(rep.distance - dist) < 1e-9
        assert rep.distance > 0
        cert = rep.certificate
        assert cert is not None and cert.lower_bound <= rep.distance + (0 if rep.exact else 1e-9)
        if rep.exact:
            assert cert.optimal and cert.lower_bound == rep.distance
