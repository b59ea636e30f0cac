"""The shared contract every privacy definition and every membership backend must satisfy.

In the style of :mod:`privgeom.testing`: a test module subclasses :class:`DefinitionContract` (class name starting
with ``Test``) and implements ``cases()`` (a list of :class:`~privgeom.testing.DefinitionCase`); the base
class holds the tests, parametrised over the cases (and, for membership, over ``"auto"`` and every method in
``definition.membership_methods``) by its ``pytest_generate_tests`` method:

- its own mechanisms, post-processings and mixtures are members, with a witness that re-verifies independently;
- the listed non-members are rejected with a certificate that re-verifies independently;
- exact and float mode agree; a float mechanism given to an exact definition is decided in float (``exact=False``);
- rows of members lie in the row cone; if the row cone decides the closure, a non-member has a row outside it;
- ``contains_row`` agrees with the known rows; ``spec()`` round-trips; wrong inputs raise ``DomainMismatchError``.

The checks here re-implement the verification with plain numpy/Fraction arithmetic rather than calling
privgeom's own verifiers.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import pytest

from privgeom import DomainMismatchError, Mechanism
from privgeom.definitions import Membership, PrivacyDefinition, parse_definition
from privgeom.definitions._base import ClosureWitness, RowCertificate, RowWitness, SeparatingCertificate

from ._definition_cases import DefinitionCase

__all__ = ["DefinitionContract", "definition", "check_witness", "check_certificate", "ATOL"]

#: Tolerance of the float checks.
ATOL = 1e-9
#: Tolerance of float sums over many entries (a witness's mixture weights and their product with the generators).
LOOSE_ATOL = 1e-8

#: Definitions built once per case (keyed by the case object: ids may repeat between case lists).
_built: dict[int, tuple[DefinitionCase, PrivacyDefinition]] = {}


def definition(case: DefinitionCase) -> PrivacyDefinition:
    """``case.make()``, built once."""
    if id(case) not in _built:
        _built[id(case)] = (case, case.make())
    return _built[id(case)][1]


# ---------------------------------------------------------------------------------------------------- verifiers
def _mat(M: Mechanism, exact: bool) -> np.ndarray:
    return M.matrix if exact else M.float_matrix()


def _generators(d: PrivacyDefinition) -> list[np.ndarray] | None:
    mechs = getattr(d, "mechanisms", None)
    if mechs is None:
        return None
    return [M.matrix for M in mechs]


def check_witness(d: PrivacyDefinition, M: Mechanism, ans: Membership) -> None:
    w = ans.witness
    if w is None:  # allowed for definitions that are their own closure (checking the constraints is the proof)
        return
    if isinstance(w, ClosureWitness):
        gens = _generators(d)
        assert gens is not None, "a ClosureWitness needs the definition's generating mechanisms"
        exact = ans.exact
        target = _mat(M, exact)
        total: Any = 0
        lam_sum: Any = 0
        for c, lam, A in zip(w.components, w.weights, w.post_processings):
            A = np.asarray(A)
            G = gens[c] if exact else np.asarray(gens[c], dtype=float)
            assert A.shape == (M.n_outputs, G.shape[0])
            if exact:
                assert lam >= 0 and all(v >= 0 for v in A.ravel())
                assert all(s == 1 for s in A.sum(axis=0))
            else:
                Af = A.astype(float)
                assert float(lam) >= -ATOL and (Af >= -ATOL).all()
                assert np.allclose(Af.sum(axis=0), 1.0, atol=LOOSE_ATOL)
            total = total + lam * A.dot(G) if exact else total + float(lam) * A.astype(float).dot(G)
            lam_sum = lam_sum + lam
        if exact:
            assert lam_sum == 1
            assert (total == target).all()
        else:
            assert abs(float(lam_sum) - 1) <= LOOSE_ATOL
            assert np.abs(total - target).max() <= LOOSE_ATOL
    elif isinstance(w, RowWitness):
        assert all((v >= 0) if ans.exact else (float(v) >= -1e-6) for v in w.coefficients)


def _valid_for_definition(d: PrivacyDefinition, normal: np.ndarray, exact: bool) -> None:
    """``normal · g ≥ 0`` for every generator row (or every extreme ray of the row cone)."""
    gens = None
    try:
        gens = _generators(d)
    except Exception:  # e.g. a definition whose mechanism is too large to build
        gens = None
    if gens is not None:
        for G in gens:
            vals = G.dot(normal) if exact else np.asarray(G, dtype=float).dot(normal.astype(float))
            assert all(v >= 0 for v in vals) if exact else (vals >= -ATOL).all()
        return
    cone = d.row_cone()
    rays = cone.rays if exact else np.asarray(cone.rays, dtype=float)
    lin = cone.lineality
    nv = normal if exact else normal.astype(float)
    for r in rays:
        v = np.dot(np.asarray(r, dtype=object if exact else float), nv)
        assert (v >= 0) if exact else v >= -ATOL
    for l in lin:
        v = np.dot(np.asarray(l, dtype=object if exact else float), nv)
        assert (v == 0) if exact else abs(v) <= ATOL


def check_certificate(d: PrivacyDefinition, M: Mechanism, ans: Membership) -> None:
    c = ans.certificate
    assert c is not None, "a no must carry a certificate"
    exact = ans.exact
    if isinstance(c, RowCertificate):
        assert 0 <= c.row < M.n_outputs
        assert c.output == M.outputs[c.row]
        x = _mat(M, exact)[c.row]
        normal = np.asarray(c.normal)
        if exact:
            value = sum((Fraction(int(a)) if isinstance(a, (int, np.integer)) else a) * b for a, b in zip(normal, x))
            assert value == c.value and value < 0
        else:
            value = float(normal.astype(float).dot(x))
            assert abs(value - float(c.value)) <= ATOL and value < 0
        _valid_for_definition(d, normal, exact)
    elif isinstance(c, SeparatingCertificate):
        gens = _generators(d)
        assert gens is not None
        W = np.asarray(c.functional)
        target = _mat(M, exact)
        if exact:
            beta = min(W.dot(G.T).min(axis=0).sum() for G in gens)
            value = (W * target).sum()
            assert value < beta
            assert beta == c.bound and value == c.value
        else:
            Wf = W.astype(float)
            beta = min(Wf.dot(np.asarray(G, dtype=float).T).min(axis=0).sum() for G in gens)
            value = float((Wf * target).sum())
            assert beta - value > ATOL * np.abs(Wf).max()
    # other certificate types (added by later definitions) must at least summarise themselves
    assert isinstance(str(c), str)


# ---------------------------------------------------------------------------------------------------- the contract
class DefinitionContract:
    """The contract checks; subclasses give the cases (``cases()``) and pytest runs every check on each of them."""

    @classmethod
    def cases(cls) -> Sequence[DefinitionCase]:
        """The cases this test class checks (override)."""
        raise NotImplementedError

    def pytest_generate_tests(self, metafunc: Any) -> None:
        cases = list(metafunc.cls.cases())
        assert cases, f"{metafunc.cls.__name__}.cases() is empty: a contract must be run on at least one case"
        if "method" in metafunc.fixturenames:
            params = [
                pytest.param(c, m, id=f"{c.id}-{m}")
                for c in cases
                for m in ("auto",) + tuple(definition(c).membership_methods)
            ]
            metafunc.parametrize("case, method", params)
        elif "case" in metafunc.fixturenames:
            metafunc.parametrize("case", [pytest.param(c, id=c.id) for c in cases])

    def test_members_are_accepted_with_verified_witness(self, case: Any, method: str) -> None:
        d = definition(case)
        for M in case.members(d):
            ans = d.contains(M, method=method)
            assert isinstance(ans, Membership)
            assert ans.member and bool(ans), f"{case.id}: {method} rejected a member:\n{M}\n{ans}"
            assert ans.exact == (d.exact and M.exact)
            assert ans.certificate is None
            if method != "auto":
                assert ans.method == method or method == "linear-solve" and ans.method == "lp"
            check_witness(d, M, ans)
            json.loads(ans.to_json())
            assert str(ans)

    def test_non_members_are_rejected_with_verified_certificate(self, case: Any, method: str) -> None:
        d = definition(case)
        for M in case.non_members(d):
            ans = d.contains(M, method=method)
            assert not ans.member and not bool(ans), f"{case.id}: {method} accepted a non-member:\n{M}"
            assert ans.witness is None
            check_certificate(d, M, ans)
            json.loads(ans.to_json())

    def test_exact_and_float_agree(self, case: Any) -> None:
        d = definition(case)
        twin = case.float_twin() if case.float_twin else None
        for expected, mechs in ((True, case.members(d)), (False, case.non_members(d))):
            for M in mechs:
                if twin is not None:
                    assert not twin.exact
                    ans = twin.contains(M.to_float())
                    assert ans.member == expected and not ans.exact
                    (check_witness if expected else check_certificate)(twin, M.to_float(), ans)
                if d.exact:
                    mixed = d.contains(M.to_float())  # float mechanism on an exact definition: float mode, said so
                    assert mixed.member == expected and mixed.exact is False

    def test_rows_of_members_lie_in_the_row_cone(self, case: Any) -> None:
        d = definition(case)
        cone = d.row_cone() if case.row_cone else None
        for M in case.members(d):
            for x in M.matrix:
                if cone is not None:
                    assert cone.contains(x).member
                assert d.contains_row(x).member

    def test_row_cone_decides_only_where_it_does(self, case: Any) -> None:
        d = definition(case)
        if not d.row_cone_decides_closure:
            return
        for M in case.non_members(d):
            assert any(not d.contains_row(x).member for x in M.matrix), (
                f"{case.id} claims the row cone decides closure, yet every row of a non-member is in it"
            )

    def test_contains_row_on_known_vectors(self, case: Any) -> None:
        d = definition(case)
        for x in case.rows_in(d):
            ans = d.contains_row(x)
            assert ans.member, f"{case.id}: {x} should be in the row cone"
            if isinstance(ans.witness, RowWitness):
                assert all((v >= 0) if ans.exact else float(v) >= -1e-6 for v in ans.witness.coefficients)
        for x in case.rows_out(d):
            ans = d.contains_row(x)
            assert not ans.member, f"{case.id}: {x} should not be in the row cone"
            c = ans.certificate
            assert isinstance(c, RowCertificate)
            xv = [Fraction(v) for v in x]
            normal = [Fraction(int(a)) if isinstance(a, (int, np.integer)) else Fraction(a) for a in c.normal]
            assert sum(a * b for a, b in zip(normal, xv)) < 0
            if case.row_cone:
                cone = d.row_cone()
                assert not cone.contains(x).member

    def test_spec_round_trips(self, case: Any) -> None:
        d = definition(case)
        again = parse_definition(d.spec())
        assert type(again) is type(d)
        assert again.spec() == d.spec()
        assert again.inputs == d.inputs and again.exact == d.exact
        assert again.row_cone_decides_closure == d.row_cone_decides_closure

    def test_mismatched_inputs_raise(self, case: Any) -> None:
        d = definition(case)
        M = case.members(d)[0]
        renamed = Mechanism(M.matrix, inputs=[f"other{i}" for i in range(M.n_inputs)], outputs=M.outputs)
        with pytest.raises(DomainMismatchError):
            d.contains(renamed)
        smaller = Mechanism([[1] * (M.n_inputs + 1)], inputs=[f"z{i}" for i in range(M.n_inputs + 1)])
        with pytest.raises(DomainMismatchError):
            d.contains(smaller)

    def test_identity_fields(self, case: Any) -> None:
        d = definition(case)
        assert isinstance(d.name, str) and d.name
        assert isinstance(d.inputs, tuple) and all(isinstance(s, str) for s in d.inputs)
        assert isinstance(d.exact, bool)
        assert isinstance(d.row_cone_decides_closure, bool)
        assert d.spec() in repr(d)
        with pytest.raises(Exception):
            d.contains(case.members(d)[0], method="no-such-method")
