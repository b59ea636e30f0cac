"""Randomized response as a privacy definition (Lin & Kifer, Theorem 4.3 and Example 4.4)."""

from __future__ import annotations

from fractions import Fraction as F

import cdd
import cdd.gmp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import (
    DomainMismatchError,
    InvalidParameterError,
    Mechanism,
    SizeLimitError,
    mixture,
    randomized_response,
)
from privgeom.definitions import FiniteDefinition, RandomizedResponse
from privgeom.testing import forbid_dense_factored
from privgeom.results import ClosureWitness, RowCertificate, SeparatingCertificate
from privgeom.geometry import Cone


def ham(s: str, t: str) -> int:
    return sum(a != b for a, b in zip(s, t))


def closed_form_facet(k: int, p: F, s: str, labels: list[str]) -> list[F]:
    """Theorem 4.3 verbatim: a_i = p^{ham(s, D_i)} (p − 1)^{k − ham(s, D_i)}."""
    return [p ** ham(s, D) * (p - 1) ** (k - ham(s, D)) for D in labels]


def primitive(row: list[F]) -> tuple[int, ...]:
    from math import gcd, lcm

    den = lcm(*[v.denominator for v in row])
    ints = [int(v * den) for v in row]
    g = 0
    for v in ints:
        g = gcd(g, v)
    return tuple(v // g for v in ints)


# ---------------------------------------------------------------------------------------------------- Example 4.4
def test_example_4_4_facets_k2() -> None:
    p = F(3, 4)
    rr = RandomizedResponse(2, p)
    q = 1 - p
    x = {"11": 0, "10": 1, "01": 2, "00": 3}
    expected = [  # (3)-(6) of Example 4.4, written as a·x ≥ 0
        {"00": p * p, "11": q * q, "01": -p * q, "10": -p * q},
        {"00": q * q, "11": p * p, "01": -p * q, "10": -p * q},
        {"01": p * p, "10": q * q, "00": -p * q, "11": -p * q},
        {"01": q * q, "10": p * p, "00": -p * q, "11": -p * q},
    ]
    want = set()
    for e in expected:
        row = [F(0)] * 4
        for lab, v in e.items():
            row[x[lab]] = v
        want.add(primitive(row))
    got = {primitive(list(rr.facet(s))) for s in ("11", "10", "01", "00")}
    assert got == want
    assert Cone.from_facets(rr.facets(), labels=rr.inputs) == rr.row_cone()


def test_facet_matches_theorem_verbatim() -> None:
    for k, p in ((1, F(3, 4)), (3, F(2, 3)), (4, F(5, 7))):
        rr = RandomizedResponse(k, p)
        labels = list(rr.inputs)
        for s in labels:
            assert list(rr.facet(s)) == closed_form_facet(k, p, s, labels)
            scaled = rr.facet(s, scaled=True)
            assert [F(int(v), p.denominator**k) for v in scaled] == closed_form_facet(k, p, s, labels)
        # l1 norm of every facet is (p + 1 - p)^k = 1
        assert all(sum(abs(v) for v in rr.facet(s)) == 1 for s in labels)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_closed_form_equals_double_description(k: int) -> None:
    rr = RandomizedResponse(k, "3/4")
    closed = Cone.from_facets(rr.facets(), labels=rr.inputs)
    dd = Cone.from_generators(randomized_response(k, "3/4").matrix, labels=rr.inputs)
    assert closed == dd
    assert dd.n_facets == 2**k and dd.n_rays == 2**k  # simplicial (Theorem 4.3)


def test_closed_form_equals_double_description_k7() -> None:
    # Cone refuses DD beyond dimension 64, so run pycddlib (exact GMP) directly and compare primitive facets.
    k, p = 7, F(2, 3)
    rr = RandomizedResponse(k, p)
    M = randomized_response(k, p).matrix
    mat = cdd.gmp.matrix_from_array([[0] + list(row) for row in M], rep_type=cdd.RepType.GENERATOR)
    H = cdd.gmp.copy_inequalities(cdd.gmp.polyhedron_from_matrix(mat))
    assert not H.lin_set and all(row[0] == 0 for row in H.array)
    dd = {primitive([F(v) for v in row[1:]]) for row in H.array}
    closed = {primitive(list(rr.facet(i))) for i in range(2**k)}
    assert len(dd) == 2**k and dd == closed


# ---------------------------------------------------------------------------------------------------- Kronecker path
@pytest.mark.parametrize("k", [1, 2, 5, 8, 12])
def test_kronecker_inverse_matches_closed_form(k: int) -> None:
    """x · facet(s) = (2p − 1)^k · (x M_rr^{-1})[s̄] exactly (s̄ = complement of s, at index int(s, 2))."""
    p = F(3, 4)
    rr = RandomizedResponse(k, p)
    rng = np.random.default_rng(k)
    n = 2**k
    x = rng.integers(-5, 20, size=n)
    y = rr.coefficients(x)
    assert y.dtype == object and all(isinstance(v, F) for v in y[:5])
    for s_idx in rng.integers(0, n, size=min(n, 12)):
        s = format(n - 1 - int(s_idx), f"0{k}b")
        lhs = sum(int(a) * F(int(b)) for a, b in zip(x, rr.facet(s, scaled=True))) / p.denominator**k
        comp = int(s, 2)  # index of s̄ in reverse lexicographic order
        assert rr.inputs[comp] == "".join("1" if c == "0" else "0" for c in s)
        assert lhs == (2 * p - 1) ** k * y[comp]
    # the sign pattern decides membership
    assert rr.contains_row(x).member == all(v >= 0 for v in y)
    # float mode agrees with the exact values
    yf = RandomizedResponse(k, 0.75).coefficients(x.astype(float))
    assert np.allclose(yf, [float(v) for v in y], rtol=1e-9, atol=1e-9 * float(np.abs(yf).max()))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_coefficients_equal_dense_inverse(k: int) -> None:
    rr = RandomizedResponse(k, "2/3")
    M = randomized_response(k, "2/3").float_matrix()
    x = np.random.default_rng(0).random(2**k)
    assert np.allclose(RandomizedResponse(k, 2 / 3).coefficients(x), x @ np.linalg.inv(M))
    rows = randomized_response(k, "2/3").matrix
    for i, row in enumerate(rows):  # a row of M_rr has coefficient vector e_i
        y = rr.coefficients(row)
        assert list(y) == [F(int(j == i)) for j in range(2**k)]


# ---------------------------------------------------------------------------------------------------- the headline facts
def test_rr_two_thirds_in_closure_of_three_quarters_all_methods_agree() -> None:
    rr = RandomizedResponse(2, "3/4")
    M = randomized_response(2, "2/3")
    answers = {m: rr.contains(M, method=m) for m in rr.membership_methods}
    assert all(a.member and a.exact for a in answers.values())
    assert answers["kronecker-inverse"].method == "kronecker-inverse"
    assert answers["lp"].method == "lp"
    # M_rr(3/4) is invertible, so the post-processing is unique: every witness is the same matrix
    A = randomized_response(2, "2/3").float_matrix() @ np.linalg.inv(randomized_response(2, "3/4").float_matrix())
    ws = [answers[m].witness for m in ("kronecker-inverse", "linear-solve", "lp")]
    for w in ws:
        assert isinstance(w, ClosureWitness) and w.weights == (F(1),)
        assert np.allclose(w.post_processings[0].astype(float), A)
    assert (ws[0].post_processings[0] == ws[1].post_processings[0]).all()
    assert (ws[0].post_processings[0] == ws[2].post_processings[0]).all()
    # exact witness re-verified here: A @ M_rr(3/4) == M_rr(2/3), columns of A sum to 1, A >= 0
    Aex = ws[0].post_processings[0]
    assert (Aex.dot(randomized_response(2, "3/4").matrix) == M.matrix).all()
    assert all(s == 1 for s in Aex.sum(axis=0)) and all(v >= 0 for v in Aex.ravel())
    # Theorem 4.3: RR(2/3) = RR(3/4) followed by flipping each bit independently with probability 1/6
    flip = randomized_response(2, F(5, 6)).matrix
    assert (Aex == flip).all()


def test_rr_four_fifths_not_in_closure_verified_certificates() -> None:
    rr = RandomizedResponse(2, "3/4")
    M = randomized_response(2, "4/5")
    kron = rr.contains(M)
    assert not kron.member and kron.method == "kronecker-inverse" and kron.exact
    cert = kron.certificate
    assert isinstance(cert, RowCertificate)
    x = M.matrix[cert.row]
    normal = [F(int(v)) for v in cert.normal]
    assert sum(a * b for a, b in zip(normal, x)) == cert.value < 0
    for g in randomized_response(2, "3/4").matrix:  # the facet is valid on every generator
        assert sum(a * b for a, b in zip(normal, g)) >= 0
    assert primitive(normal) == primitive(list(rr.facet(cert.label)))
    lp = rr.contains(M, method="lp")
    assert not lp.member and isinstance(lp.certificate, SeparatingCertificate)
    W = lp.certificate.functional
    G = randomized_response(2, "3/4").matrix
    beta = W.dot(G.T).min(axis=0).sum()
    assert (W * M.matrix).sum() < beta == lp.certificate.bound
    # the functional really separates: every post-processing of M_rr(3/4) scores >= beta
    for seed in range(5):
        A = np.random.default_rng(seed).random((4, 4))
        A = A / A.sum(axis=0)
        assert (W.astype(float) * (A @ G.astype(float))).sum() >= float(beta) - 1e-12


def test_p_equal_one_is_everything() -> None:
    rr = RandomizedResponse(2, 1)
    assert rr.contains(Mechanism(np.eye(4, dtype=int).tolist(), inputs=rr.inputs)).member
    assert [list(rr.facet(s)) for s in rr.inputs] == [[F(int(i == j)) for j in range(4)] for i in range(3, -1, -1)]
    assert rr.row_cone() == Cone.from_facets(np.eye(4, dtype=int), labels=rr.inputs)


# ---------------------------------------------------------------------------------------------------- k = 20
def _rr_row(k: int, num: int, den: int) -> np.ndarray:
    """Row '1…1' of M_rr(num/den) scaled by den^k: num^{k-h} (den-num)^h with h = #zeros of the dataset."""
    n = 2**k
    h = np.bitwise_count(np.arange(n, dtype=np.int64)).astype(np.int64)  # dataset i has popcount(i) zeros
    return (num ** (k - h)) * ((den - num) ** h)


def test_one_row_at_k20_float_and_exact() -> None:
    k = 20
    rr_exact = RandomizedResponse(k, "3/4")
    rr_float = RandomizedResponse(k, 0.75)
    yes = _rr_row(k, 2, 3).astype(np.int64)  # a row of RR(2/3): in the row cone
    no = _rr_row(k, 4, 5).astype(np.int64)  # a row of RR(4/5): not
    a = rr_float.contains_row(yes / 3.0**k)
    b = rr_float.contains_row(no / 5.0**k)
    assert a.member and not a.exact and a.method == "kronecker-inverse"
    assert not b.member and b.certificate.value < -1e-9
    c = rr_exact.contains_row(yes)
    d = rr_exact.contains_row(no)
    assert c.member and c.exact and c.method == "kronecker-inverse"
    assert not d.member and d.exact and d.certificate.value < 0
    # the certificate is the facet of its bit string, recomputed independently here (Theorem 4.3)
    s = d.certificate.label
    assert len(s) == k
    normal = rr_exact.facet(s, scaled=True)
    assert int(np.dot(normal.astype(object), no.astype(object))) == d.certificate.value
    # nothing dense of size 2^20 x 2^20 was built: the work is the k-fold Kronecker inverse applied to one row
    assert "mechanism" not in rr_exact.__dict__
    assert not rr_exact.contains_row(np.eye(1, 2**k, 5, dtype=np.int64)[0]).member


def test_k20_witness_is_lazy_and_exact() -> None:
    k = 20
    rr = RandomizedResponse(k, "3/4")
    ones = np.ones(2**k, dtype=np.int64)  # the all-ones row is the sum of M_rr's rows: y = (1,…,1)
    ans = rr.contains_row(ones)
    assert ans.member and ans.exact
    w = ans.witness
    assert "_coefficients" not in w.__dict__ or w._coefficients is None  # not materialised yet
    assert (np.asarray(w.numerators) == w.denominator).all()
    small = RandomizedResponse(12, "3/4").contains_row(np.ones(2**12, dtype=np.int64)).witness
    assert all(v == 1 for v in small.coefficients)


# ---------------------------------------------------------------------------------------------------- properties
def _stochastic(data: st.DataObject, n_out: int, n_in: int) -> list[list[F]]:
    cols = []
    for _ in range(n_in):
        raw = data.draw(st.lists(st.integers(0, 6), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([F(v, sum(raw)) for v in raw])
    return [[cols[i][o] for i in range(n_in)] for o in range(n_out)]


@given(st.data())
def test_post_processing_stays_in_closure(data: st.DataObject) -> None:
    rr = RandomizedResponse(2, "3/4")
    base = randomized_response(2, "3/4")
    n_out = data.draw(st.integers(1, 5))
    M = base.post_process(_stochastic(data, n_out, 4))
    for method in ("kronecker-inverse", "lp"):
        ans = rr.contains(M, method=method)
        assert ans.member and ans.exact
    assert RandomizedResponse(2, 0.75).contains(M.to_float()).member


@given(st.data())
def test_mixtures_stay_in_closure(data: st.DataObject) -> None:
    rr = RandomizedResponse(2, "2/3")
    weaker = randomized_response(2, data.draw(st.sampled_from(["3/5", "7/12", "2/3"])))
    A = randomized_response(2, "2/3").post_process(_stochastic(data, 3, 4))
    B = weaker.post_process(_stochastic(data, 3, 4))
    w = data.draw(st.fractions(0, 1, max_denominator=12))
    M = mixture([A, B], [w, 1 - w])
    assert rr.contains(M).member
    assert rr.contains(M, method="lp").member


@given(st.lists(st.integers(0, 30), min_size=8, max_size=8))
def test_exact_and_float_rows_agree(row: list[int]) -> None:
    exact = RandomizedResponse(3, "3/4").contains_row(row)
    flt = RandomizedResponse(3, 0.75).contains_row(np.array(row, dtype=float))
    assert exact.member == flt.member
    assert exact.member == FiniteDefinition([randomized_response(3, "3/4")]).contains_row(row).member


_P = st.one_of(
    st.fractions(F(1, 2), 1, max_denominator=12),
    st.integers(2**40, 2**42).map(lambda d: F(d - 641, d)),  # huge denominators: kernels beyond int32
).filter(lambda v: v > F(1, 2))


@given(_P, _P)
def test_closure_is_ordered_by_p(p: F, q: F) -> None:
    """Theorem 4.3 / Section IV: M_rr(q) ∈ closure({M_rr(p)}) iff q ≤ p (for p, q in (1/2, 1])."""
    ans = RandomizedResponse(2, p).contains(randomized_response(2, q))
    assert ans.member == (q <= p) and ans.exact
    if ans.member:
        A = ans.witness.post_processings[0]
        assert (A.dot(randomized_response(2, p).matrix) == randomized_response(2, q).matrix).all()
    else:
        c = ans.certificate
        x = randomized_response(2, q).matrix[c.row]
        assert sum(F(int(a)) * b for a, b in zip(c.normal, x)) == c.value < 0


# ---------------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("p", ["1/2", "2/5", 0.3, "11/10", 1.5, 0.5])
def test_bad_p(p: object) -> None:
    with pytest.raises(InvalidParameterError):
        RandomizedResponse(2, p)


def test_bad_k_and_size_limits() -> None:
    with pytest.raises(InvalidParameterError):
        RandomizedResponse(0, "3/4")
    with pytest.raises(SizeLimitError):
        RandomizedResponse(40, "3/4")
    big = RandomizedResponse(12, "3/4")
    with pytest.raises(SizeLimitError):
        big.row_cone().facets  # 4096 x 4096 exact facets exceed the dense exact limit (the cone itself is lazy)
    assert len(RandomizedResponse(14, "3/4").mechanism.factors) == 14  # exact M_rr stays factored
    with pytest.raises(SizeLimitError):
        RandomizedResponse(14, "3/4").mechanism.matrix
    assert len(RandomizedResponse(22, "3/4").facet("0" * 22, scaled=True)) == 2**22
    with pytest.raises(InvalidParameterError):
        big.facet("01")
    with pytest.raises(InvalidParameterError):
        big.facet("2" * 12)
    with pytest.raises(InvalidParameterError):
        RandomizedResponse(2, 0.75).facet("11", scaled=True)


def test_domain_mismatch() -> None:
    rr = RandomizedResponse(2, "3/4")
    with pytest.raises(DomainMismatchError):
        rr.contains(randomized_response(3, "3/4"))
    with pytest.raises(DomainMismatchError):
        rr.contains_row([1, 2, 3])


def test_row_cone_rays_beyond_double_description() -> None:
    # the cone is simplicial (Theorem 4.3): its rays are the rows of M_rr, no double description needed at k = 7
    k, p = 7, F(3, 4)
    cone = RandomizedResponse(k, p).row_cone()
    assert cone.n_rays == 2**k and cone.n_facets == 2**k and cone.is_pointed and cone.dim == 2**k
    M = randomized_response(k, p).matrix
    rays = {primitive(list(r)) for r in cone.rays}
    assert rays == {primitive(list(r)) for r in M}
    flt = RandomizedResponse(3, 0.75).row_cone()
    assert flt.n_rays == 8 and not flt.exact


# ----------------------------------------------------------------------------------- factored closure witnesses
def _bit(p: F) -> Mechanism:
    return Mechanism([[p, 1 - p], [1 - p, p]], inputs=["1", "0"], outputs=["1", "0"])


def _product(factors: list[Mechanism], k: int) -> Mechanism:
    from privgeom import Domain

    outs = [""]
    for f in factors:
        outs = [o + w for o in outs for w in f.outputs]
    return Mechanism._from_factors(factors, Domain.bits(k), outs)


def _products(k: int) -> list[Mechanism]:
    """Products of one-bit mechanisms: RR(k, p') for p' above, at and below 3/4, p' = 1, mixed per-bit p', a
    three-output (erasure) factor in the closure and one outside, one bit above 3/4."""
    erase = Mechanism(
        [[F(1, 2), F(1, 6)], [F(1, 6), F(1, 2)], [F(1, 3), F(1, 3)]], inputs=["1", "0"], outputs=["1", "0", "?"]
    )
    leak = Mechanism(
        [[F(9, 10), F(1, 20)], [F(1, 20), F(9, 10)], [F(1, 20), F(1, 20)]], inputs=["1", "0"], outputs=["1", "0", "?"]
    )
    mixed = [_bit(F(2, 3)) if t % 2 else _bit(F(3, 5)) for t in range(k)]
    return [randomized_response(k, p) for p in ("2/3", "3/4", "4/5", "1", "3/5")] + [
        _product(mixed, k),
        _product([erase] + [_bit(F(2, 3))] * (k - 1), k),
        _product([_bit(F(2, 3))] * (k - 1) + [leak], k),
        _product([_bit(F(4, 5))] + [_bit(F(2, 3))] * (k - 1), k),
    ]


@pytest.mark.parametrize("k", [2, 3, 6])
def test_factored_witness_equals_the_dense_route(k: int) -> None:
    """The per-bit route (A = ⊗ F_t R^{-1}) against the dense Kronecker inverse: same answers, the factored
    witness's dense matrix is the dense witness, a "no" certifies a real row of M' against a valid facet."""
    rr = RandomizedResponse(k, "3/4")
    answers = []
    for M in _products(k):
        fac, dense = rr._contains_factored(M, 1e-9), rr.contains(M)
        assert fac.member == dense.member and fac.exact and dense.exact
        answers.append(fac.member)
        if fac.member:
            A = fac.witness.post_processings[0]
            assert isinstance(A, Mechanism) and A.factors is not None and len(A.factors) == k
            assert (A.matrix == dense.witness.post_processings[0]).all()
            if k <= 3:
                assert (A.matrix.dot(rr.mechanism.matrix) == M.matrix).all()
        else:
            cert = fac.certificate
            x = M.matrix[cert.row]
            assert cert.output == M.outputs[cert.row]
            assert sum(F(int(a)) * b for a, b in zip(cert.normal, x)) == cert.value < 0
            assert primitive([F(int(v)) for v in cert.normal]) == primitive(list(rr.facet(cert.label)))
    # closed forms: RR(p') is in the closure of RR(3/4) iff p' <= 3/4 (Theorem 4.3); erasure yes, leak and a 4/5 bit no
    assert answers == [True, True, False, False, True, True, True, False, False]


@pytest.mark.parametrize("k", [14, 15, 16])
def test_factored_witness_beyond_the_dense_limit(k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_dense_factored(monkeypatch)  # the dense matrix of a factored mechanism is never built
    rr = RandomizedResponse(k, "3/4")
    M = randomized_response(k, "2/3")
    yes = rr.contains(M)
    assert yes.member and yes.exact and yes.method == "kronecker-inverse"
    A = yes.witness.post_processings[0]
    assert isinstance(A, Mechanism) and A.shape == (2**k, 2**k) and A.factors is not None
    R = randomized_response(1, "3/4").matrix
    for At, Ft in zip(A.factors, M.factors):  # re-verified here, factor by factor: A_t R = F_t, A_t stochastic
        assert (At.matrix.dot(R) == Ft.matrix).all() and (At.matrix >= 0).all()
        assert (At.matrix == randomized_response(1, F(5, 6)).matrix).all()  # flip each bit with probability 1/6
    # one spot entry of the product: (A M_rr)[o, i] = A.row(o) · M_rr.column(i) = M'[o, i]
    o, i = 12345 % 2**k, 2**k - 2
    assert sum(a * b for a, b in zip(A.row(o), rr.mechanism.column(i))) == M.row(o)[i]
    no = rr.contains(randomized_response(k, "4/5"))
    assert not no.member and no.exact
    cert = no.certificate
    x = randomized_response(k, "4/5").row(cert.row)
    assert sum(F(int(a)) * b for a, b in zip(cert.normal, x)) == cert.value < 0
