"""Finite privacy definitions: closure membership by LP (Theorem 3.4) and by linear solve (independent rows)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import (
    DomainMismatchError,
    InvalidInputError,
    InvalidParameterError,
    InvalidTypeError,
    Mechanism,
    mixture,
    randomized_response,
)
from privgeom.definitions import FiniteDefinition
from privgeom.results import ClosureWitness, RowCertificate, RowWitness, SeparatingCertificate
from privgeom.testing import check_certificate, check_witness
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
    check_witness(D, M, ans)  # Σ λ_j A_j M_j = M exactly, A_j stochastic, λ a distribution
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
    check_witness(D, target, ans)
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
        check_certificate(D, target, exact)  # W · target < min over A of W · (A M32), exactly


# ---------------------------------------------------------------------------------------------------- solver failures


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
