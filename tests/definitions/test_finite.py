"""Finite privacy definitions: closure membership by LP (Theorem 3.4) and by linear solve (independent rows)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom.geometry._lp as lpmod
from privgeom import (
    DomainMismatchError,
    InvalidInputError,
    InvalidParameterError,
    InvalidTypeError,
    Mechanism,
    SolverError,
    mixture,
    randomized_response,
)
from privgeom.definitions import FiniteDefinition
from privgeom.results import ClosureWitness, RowCertificate, RowWitness, SeparatingCertificate
from privgeom.definitions._closure import (
    closure_lp_membership,
    verify_closure_witness,
    verify_separating_certificate,
)
from privgeom.definitions._rows import reduce_rows
from privgeom.geometry import Cone

M32 = Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])
IDENTITY = Mechanism([[1, 0], [0, 1]], inputs=["a", "b"])


# ---------------------------------------------------------------------------------------------------- the 3x2 example
def test_three_by_two_row_cone_does_not_decide() -> None:
    D = FiniteDefinition([M32])
    assert D.row_cone_decides_closure is False
    assert D.membership_methods == ("lp",)
    # the row cone is the whole non-negative orthant ...
    assert D.row_cone() == Cone.from_facets([[1, 0], [0, 1]], labels=["a", "b"])
    assert D.contains_row([1, 0]).member and D.contains_row([0, 1]).member
    # ... yet the identity (both rows in the orthant) is not in the closure: decided by the LP
    ans = D.contains(IDENTITY)
    assert not ans.member and ans.method == "lp" and ans.exact
    cert = ans.certificate
    assert isinstance(cert, SeparatingCertificate)
    W = cert.functional
    beta = W.dot(M32.matrix.T).min(axis=0).sum()
    assert (W * IDENTITY.matrix).sum() < beta
    # the answer says so in words, and the row-cone methods are refused with the reason
    assert "row cone does not decide" in ans.detail and "row cone does not decide" in ans.summary()
    with pytest.raises(InvalidParameterError, match="row cone does not decide"):
        D.contains(IDENTITY, method="linear-solve")
    with pytest.raises(InvalidParameterError, match="row cone does not decide"):
        D.contains(IDENTITY, method="row-cone")
    # where the row cone decides, no such note
    assert (
        "does not decide" not in FiniteDefinition([IDENTITY]).contains(M32.post_process([[1, 1, 0], [0, 0, 1]])).detail
    )


def test_load_rejects_non_utf8_file(tmp_path) -> None:
    from privgeom import FormatError

    f = tmp_path / "bin.json"
    f.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(FormatError, match="not UTF-8"):
        FiniteDefinition.load(f)


def test_three_by_two_members() -> None:
    D = FiniteDefinition([M32])
    # erase-then-guess: reveal w.p. 1/2, otherwise output a fair coin
    M = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["a", "b"])
    ans = D.contains(M)
    assert ans.member and isinstance(ans.witness, ClosureWitness)
    A = ans.witness.post_processings[0]
    assert (A.dot(M32.matrix) == M.matrix).all()
    assert not D.contains(Mechanism([[1, "1/4"], [0, "3/4"]], inputs=["a", "b"])).member


# ---------------------------------------------------------------------------------------------------- decides / reduce
def test_independent_rows_decide_and_linear_solve() -> None:
    M = randomized_response(1, "3/4")
    D = FiniteDefinition([M])
    assert D.row_cone_decides_closure
    ans = D.contains(randomized_response(1, "2/3"))
    assert ans.member and ans.method == "linear-solve"
    assert ans.witness.post_processings[0].tolist() == [[F(5, 6), F(1, 6)], [F(1, 6), F(5, 6)]]
    no = D.contains(randomized_response(1, "4/5"))
    assert not no.member and no.method == "linear-solve"
    assert isinstance(no.certificate, RowCertificate)


def test_zero_and_proportional_rows_are_reduced() -> None:
    # rows (1/4, 0), (1/4, 0) are proportional, a zero row; after merging: (1/2,0), (1/2,1) ... independent
    M = Mechanism([["1/4", 0], ["1/4", 0], [0, 0], ["1/2", 1]], inputs=["a", "b"])
    G, index = reduce_rows(M.matrix, exact=True)
    assert index == [0, 0, -1, 1]
    assert G.tolist() == [[F(1, 2), F(0)], [F(1, 2), F(1)]]
    D = FiniteDefinition([M])
    assert D.row_cone_decides_closure
    target = Mechanism([["1/4", 0], ["3/4", 1]], inputs=["a", "b"])
    ans = D.contains(target)
    assert ans.member and ans.method == "linear-solve"
    A = ans.witness.post_processings[0]
    assert A.shape == (2, 4) and (A.dot(M.matrix) == target.matrix).all()
    assert all(s == 1 for s in A.sum(axis=0))
    lp = D.contains(target, method="lp")
    assert lp.member
    assert not D.contains(IDENTITY).member and not D.contains(IDENTITY, method="lp").member


def test_span_certificate() -> None:
    # rows span only the direction (1, 1, 0) and (0, 0, 1): (1, 0, 0) is outside the span
    M = Mechanism([["1/2", "1/2", 0], ["1/2", "1/2", 0], [0, 0, 1]], inputs=["x", "y", "z"])
    D = FiniteDefinition([M])
    assert D.row_cone_decides_closure
    ans = D.contains_row([1, 0, 0])
    assert not ans.member and ans.certificate.label == "span"
    normal = ans.certificate.normal
    assert all(v == 0 for v in M.matrix.dot(normal))  # orthogonal to every generator
    assert normal.dot([1, 0, 0]) < 0
    no = D.contains(Mechanism([[1, 0, 0], [0, 1, 1]], inputs=["x", "y", "z"]))
    assert not no.member and no.certificate.row == 0


# ---------------------------------------------------------------------------------------------------- several mechanisms
def test_mixture_of_two_mechanisms() -> None:
    A = randomized_response(1, "3/4")
    B = Mechanism([[1, "1/2"], [0, "1/2"]], inputs=A.inputs)
    D = FiniteDefinition([A, B])
    assert not D.row_cone_decides_closure
    M = mixture([A, B], ["1/3", "2/3"])
    ans = D.contains(M)
    assert ans.member and ans.method == "lp"
    assert verify_closure_witness([A.matrix, B.matrix], M.matrix, ans.witness, exact=True) == 0
    # the row cone of the union is generated by all rows
    assert D.row_cone() == Cone.from_generators(np.vstack([A.matrix, B.matrix]), labels=A.inputs)


def test_contains_row_lp_path() -> None:
    D = FiniteDefinition([M32, Mechanism([[1, 0], [0, 1]], inputs=["a", "b"])])
    yes = D.contains_row(["1/3", "1/5"])
    assert yes.member and yes.method == "lp" and isinstance(yes.witness, RowWitness)
    y = yes.witness.coefficients
    G = np.vstack([M32.matrix, IDENTITY.matrix])
    assert (y.dot(G) == np.array([F(1, 3), F(1, 5)], dtype=object)).all() and all(v >= 0 for v in y)
    no = D.contains_row([1, -1])
    assert not no.member
    assert all(v >= 0 for v in G.dot(no.certificate.normal)) and no.certificate.value < 0


# ---------------------------------------------------------------------------------------------------- properties
def _stochastic(data: st.DataObject, n_out: int, n_in: int) -> list[list[F]]:
    cols = []
    for _ in range(n_in):
        raw = data.draw(st.lists(st.integers(0, 7), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([F(v, sum(raw)) for v in raw])
    return [[cols[i][o] for i in range(n_in)] for o in range(n_out)]


@given(st.data())
def test_lp_witness_for_random_mixtures_of_post_processings(data: st.DataObject) -> None:
    n_in = data.draw(st.integers(2, 3))
    labels = [f"d{i}" for i in range(n_in)]
    mechs = [Mechanism(_stochastic(data, data.draw(st.integers(1, 3)), n_in), inputs=labels) for _ in range(2)]
    D = FiniteDefinition(mechs)
    n_out = data.draw(st.integers(1, 3))
    parts = [M.post_process(_stochastic(data, n_out, M.n_outputs)) for M in mechs]
    w = data.draw(st.fractions(0, 1, max_denominator=9))
    target = mixture(parts, [w, 1 - w])
    ans = D.contains(target, method="lp")
    assert ans.member and ans.exact
    assert verify_closure_witness([M.matrix for M in mechs], target.matrix, ans.witness, exact=True) == 0
    flt = FiniteDefinition([M.to_float() for M in mechs]).contains(target.to_float())
    assert flt.member and not flt.exact


@given(st.data())
def test_exact_and_float_lp_agree_on_random_targets(data: st.DataObject) -> None:
    D = FiniteDefinition([M32])
    target = Mechanism(_stochastic(data, 2, 2), inputs=["a", "b"])
    exact = D.contains(target)
    flt = FiniteDefinition([M32.to_float()]).contains(target.to_float())
    assert exact.member == flt.member
    # theory: A M32 has columns (a1/2 + a2/2, a2/2 + a3/2) for a in [0,1]^3, i.e. |M[0,a] - M[0,b]| <= 1/2
    m = target.matrix
    assert exact.member == (abs(m[0, 0] - m[0, 1]) <= F(1, 2))
    if not exact.member:
        assert verify_separating_certificate([M32.matrix], m, exact.certificate, exact=True)


# ---------------------------------------------------------------------------------------------------- solver failures
def test_solver_failure_is_an_error_not_a_no(monkeypatch: pytest.MonkeyPatch) -> None:
    import highspy

    class Bad:
        status = 4
        message = "numerical difficulties"

    real = lpmod._new_highs

    class Flaky:  # HiGHS that ends every solve with "solve error"
        def __init__(self) -> None:
            self._h = real()

        def __getattr__(self, name: str) -> object:
            return getattr(self._h, name)

        def getModelStatus(self) -> object:
            return highspy.HighsModelStatus.kSolveError

    monkeypatch.setattr(lpmod, "linprog", lambda *a, **k: Bad())
    monkeypatch.setattr(lpmod, "_new_highs", Flaky)
    with pytest.raises(SolverError, match="solve error|Solve error"):
        FiniteDefinition([M32]).contains(IDENTITY)
    with pytest.raises(SolverError):
        closure_lp_membership([M32.matrix], IDENTITY.matrix, exact=True, reduce=False)

    class Crashing(Flaky):
        def run(self) -> None:
            raise RuntimeError("HiGHS crashed")

    def boom(*a: object, **k: object) -> None:
        raise ValueError("HiGHS crashed")

    monkeypatch.setattr(lpmod, "linprog", boom)
    monkeypatch.setattr(lpmod, "_new_highs", Crashing)
    with pytest.raises(SolverError, match="crashed"):
        closure_lp_membership([M32.matrix], IDENTITY.matrix, exact=True)


def test_unverifiable_answer_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    import privgeom.definitions._closure as cl

    monkeypatch.setattr(cl, "_exact_witness", lambda lp, x: None)
    monkeypatch.setattr(cl, "_certificate", lambda lp, W, exact, atol: None)
    with pytest.raises(SolverError):
        FiniteDefinition([M32]).contains(M32)


# ---------------------------------------------------------------------------------------------------- bad input
def test_bad_definitions() -> None:
    with pytest.raises(InvalidInputError):
        FiniteDefinition([])
    with pytest.raises(InvalidTypeError):
        FiniteDefinition([[1, 0], [0, 1]])  # type: ignore[list-item]
    with pytest.raises(InvalidTypeError):
        FiniteDefinition("rr")  # type: ignore[arg-type]
    with pytest.raises(DomainMismatchError):
        FiniteDefinition([M32, randomized_response(1, "3/4")])
    D = FiniteDefinition([M32])
    with pytest.raises(DomainMismatchError):
        D.contains(randomized_response(1, "3/4"))
    with pytest.raises(InvalidTypeError):
        D.contains([[1, 0], [0, 1]])  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError):
        D.contains(M32, method="simplex")
    with pytest.raises(DomainMismatchError):
        D.contains_row([1, 2, 3])


def test_mixed_modes_run_in_float() -> None:
    D = FiniteDefinition([M32, M32.to_float()])
    assert not D.exact
    ans = FiniteDefinition([M32]).contains(IDENTITY.to_float())
    assert not ans.member and not ans.exact


def _awkward_target() -> tuple[list[Mechanism], Mechanism]:
    labels = ["a", "b", "c"]
    A = Mechanism([["311/997", "5/13", "1/7"], ["400/997", "3/13", "2/7"], ["286/997", "5/13", "4/7"]], inputs=labels)
    B = Mechanism([["17/19", "2/23", "1/2"], ["2/19", "21/23", "1/2"]], inputs=labels)
    post_a = [["3/11", "1/5", "7/9"], ["8/11", "4/5", "2/9"]]
    post_b = [["1/3", "5/7"], ["2/3", "2/7"]]
    return [A, B], mixture([A.post_process(post_a), B.post_process(post_b)], ["101/997", "896/997"])


def test_exact_witness_by_support_solve_and_by_cdd(monkeypatch: pytest.MonkeyPatch) -> None:
    import privgeom.definitions._closure as cl

    mechs, target = _awkward_target()
    mats = [M.matrix for M in mechs]
    ans = FiniteDefinition(mechs).contains(target)
    assert ans.member and verify_closure_witness(mats, target.matrix, ans.witness, exact=True) == 0
    # force the last resort: no exact support solve, only cdd's exact simplex on the support
    monkeypatch.setattr(cl, "exact_solve", lambda *a, **k: None)
    ans2 = FiniteDefinition(mechs).contains(target)
    assert ans2.member and verify_closure_witness(mats, target.matrix, ans2.witness, exact=True) == 0
