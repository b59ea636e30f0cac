"""Cone construction, canonical form, conversion and membership — values from theory.

Reference: Lin & Kifer's row-cone paper, Theorem 4.3 / Example 4.4 (``reference/row-cone.md``).
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom import (
    DomainMismatchError,
    FormatError,
    InvalidInputError,
    InvalidTypeError,
    PrivgeomError,
    randomized_response,
)
from privgeom.geometry import Cone
from privgeom.results import ConeMembership


def ints(arr: np.ndarray) -> list[list[int]]:
    return [[int(v) for v in row] for row in arr]


def primitive(vec: list[F]) -> tuple[int, ...]:
    """Primitive integer vector with the same direction (positive scaling)."""
    den = 1
    for v in vec:
        den = den * v.denominator // math.gcd(den, v.denominator)
    iv = [int(v * den) for v in vec]
    g = 0
    for n in iv:
        g = math.gcd(g, n)
    return tuple(n // g for n in iv)


def rr_facets_theory(k: int, p: F) -> set[tuple[int, ...]]:
    """Theorem 4.3: for every bit string s, Σ_i p^{ham(s,D_i)} (p-1)^{k-ham(s,D_i)} x_i ≥ 0."""
    datasets = ["".join(b) for b in itertools.product("10", repeat=k)]  # reverse lexicographic 11..1 … 00..0
    out = set()
    for s in datasets:
        row = []
        for d in datasets:
            h = sum(a != b for a, b in zip(s, d))
            row.append(p**h * (p - 1) ** (k - h))
        out.add(primitive(row))
    return out


# ------------------------------------------------------------------------------------------------ basic cones
def test_orthant_facets_and_rays() -> None:
    c = Cone.from_generators(np.eye(3, dtype=int))
    assert c.exact and c.ambient_dim == 3 and c.labels == ("x0", "x1", "x2")
    assert ints(c.facets) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert ints(c.rays) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert c.equalities.shape == (0, 3) and c.lineality.shape == (0, 3)
    assert (c.dim, c.is_pointed, c.n_facets, c.n_rays) == (3, True, 3, 3)
    assert not c.is_full_space and not c.is_trivial
    assert all(isinstance(v, F) for v in c.facets.ravel())


def test_arrays_are_read_only() -> None:
    c = Cone.from_facets([[1, 0], [0, 1]])
    for arr in (c.facets, c.equalities, c.rays, c.lineality):
        with pytest.raises(ValueError):
            arr[...] = 0


@pytest.mark.parametrize("p", [F(3, 4), F(2, 3), F(9, 10), F(51, 100)])
def test_rr_k2_facets_match_example_4_4(p: F) -> None:
    M = randomized_response(2, p)
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    assert M.inputs == ("11", "10", "01", "00")
    assert c.n_facets == 4 and c.n_rays == 4 and c.dim == 4 and c.is_pointed
    assert {tuple(int(v) for v in row) for row in c.facets} == rr_facets_theory(2, p)
    # Example 4.4 written out: p² x00 + (1-p)² x11 - p(1-p) x01 - p(1-p) x10 ≥ 0 over (11, 10, 01, 00)
    q = 1 - p
    assert primitive([q * q, -p * q, -p * q, p * p]) in {tuple(int(v) for v in row) for row in c.facets}


def test_rr_k2_p34_primitive_normal() -> None:
    M = randomized_response(2, "3/4")
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    assert (1, -3, -3, 9) in {tuple(int(v) for v in row) for row in c.facets}
    assert "9·x00 + 1·x11 - 3·x01 - 3·x10 ≥ 0" in str(c)


@pytest.mark.parametrize("k,p", [(1, F(3, 4)), (3, F(3, 4)), (3, F(2, 3)), (4, F(4, 5))])
def test_rr_facets_theorem_4_3_and_inverse(k: int, p: F) -> None:
    M = randomized_response(k, p)
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    assert c.n_facets == 2**k and c.n_rays == 2**k
    assert {tuple(int(v) for v in row) for row in c.facets} == rr_facets_theory(k, p)
    # Independent cross-check: facets are the columns of M^{-1} (x ∈ cone iff x M^{-1} ≥ 0).
    inv = np.linalg.inv(M.float_matrix())
    from_inverse = {tuple(np.round(col / np.abs(col).max(), 9)) for col in inv.T}
    ours = {tuple(np.round(row.astype(float) / float(max(abs(v) for v in row)), 9)) for row in c.facets}
    assert ours == from_inverse
    # rays are the rows of M (up to scaling)
    assert {primitive(list(r)) for r in M.matrix} == {tuple(int(v) for v in r) for r in c.rays}


def test_generators_redundant_and_duplicates_removed() -> None:
    c = Cone.from_generators([[1, 0], [1, 1], [2, 1], [2, 0], [0, 0], [3, 3]])
    assert ints(c.rays) == [[1, 1], [1, 0]]
    assert ints(c.facets) == [[1, -1], [0, 1]]


def test_lineality() -> None:
    c = Cone.from_generators([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [1, 1, 1]])
    assert ints(c.lineality) == [[1, 0, 0]]
    assert ints(c.rays) == [[0, 1, 1], [0, 1, 0]]  # projected orthogonally to the lineality space
    assert not c.is_pointed and c.dim == 3
    assert ints(c.facets) == [[0, 1, -1], [0, 0, 1]]
    g = Cone.from_generators([[0, 1, 0]], lineality=[[2, 0, 0], [4, 0, 0]])
    assert ints(g.lineality) == [[1, 0, 0]] and ints(g.equalities) == [[0, 0, 1]]
    assert ints(g.facets) == [[0, 1, 0]]


def test_lineality_sign_fixed_facet_sign_kept() -> None:
    a = Cone.from_generators([[0, 1]], lineality=[[-3, 0]])
    assert ints(a.lineality) == [[1, 0]]
    b = Cone.from_facets([[0, -2]], equalities=[[-5, 0]])
    assert ints(b.equalities) == [[1, 0]] and ints(b.facets) == [[0, -1]]


def test_facets_modulo_equalities_projected() -> None:
    # x0 = x1 and x0 ≥ 0: the normal (1, 0) is taken modulo (1, -1): orthogonal part (1/2, 1/2) → (1, 1)
    c = Cone.from_facets([[1, 0]], equalities=[[1, -1]])
    assert ints(c.equalities) == [[1, -1]] and ints(c.facets) == [[1, 1]]
    assert c == Cone.from_facets([[0, 1]], equalities=[[-1, 1]])
    assert c == Cone.from_generators([[1, 1]])
    assert c.dim == 1 and c.is_pointed


def test_implicit_equalities_detected() -> None:
    c = Cone.from_facets([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert ints(c.equalities) == [[1, 0, 0]] and ints(c.facets) == [[0, 1, 0], [0, 0, 1]]
    assert c.dim == 2


# --------------------------------------------------------------------------------------------------- edge cases
def test_whole_space() -> None:
    for c in (
        Cone.from_facets([], labels=["a", "b"]),
        Cone.from_facets(np.zeros((0, 2), dtype=int)),
        Cone.from_generators([[1, 0], [-1, 0], [0, 1], [0, -1]]),
        Cone.from_facets([[0, 0]]),
    ):
        assert c.is_full_space and not c.is_trivial and not c.is_pointed
        assert c.facets.shape == (0, 2) and c.equalities.shape == (0, 2)
        assert ints(c.lineality) == [[1, 0], [0, 1]] and c.rays.shape == (0, 2)
        assert c.dim == 2 and c.contains([-5, 7]).member
        assert str(c).endswith("the whole space")


def test_trivial_cone() -> None:
    for c in (
        Cone.from_generators([], labels=["a", "b", "c"]),
        Cone.from_generators([[0, 0, 0]]),
        Cone.from_facets([[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, -1, -1]]),
        Cone.from_facets([], equalities=[[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    ):
        assert c.is_trivial and c.dim == 0 and c.is_pointed and not c.is_full_space
        assert ints(c.equalities) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]] and c.facets.shape == (0, 3)
        assert c.rays.shape == (0, 3) and c.lineality.shape == (0, 3)
        assert c.contains([0, 0, 0]).member
        m = c.contains([0, 2, 0])
        assert not m.member and m.kind == "equality" and m.violated == 1 and m.value == 2


def test_lower_dimensional_cone() -> None:
    c = Cone.from_generators([[1, 0, 0], [0, 1, 0]])
    assert c.dim == 2 and ints(c.equalities) == [[0, 0, 1]] and ints(c.facets) == [[1, 0, 0], [0, 1, 0]]
    m = c.contains([1, 1, F(1, 3)])
    assert (m.member, m.kind, m.violated, m.value) == (False, "equality", 0, F(1, 3))


def test_one_dimensional_ambient() -> None:
    c = Cone.from_generators([[5]])
    assert ints(c.facets) == [[1]] and ints(c.rays) == [[1]] and c.contains([-1]).value == -1
    assert Cone.from_generators([[2], [-3]]).is_full_space


# --------------------------------------------------------------------------------------------------- membership
def test_contains_reports_violated_facet() -> None:
    M = randomized_response(2, "3/4")
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    for r in M.matrix:
        assert c.contains(r).member
    x = [1, 0, 0, 0]
    m = c.contains(x)
    assert isinstance(m, ConeMembership) and not m and m.exact and m.kind == "facet"
    assert m.normal is not None and m.violated is not None
    assert m.value == sum(a * b for a, b in zip(m.normal, x)) < 0
    assert list(c.facets[m.violated]) == list(m.normal)
    assert m.to_dict()["value"] == str(m.value) and "not in the cone" in str(m)
    # a boundary point (the facet vanishes) is in the cone exactly
    assert c.contains([3, 9, 1, 3]).member and not c.contains([3 - F(1, 10**12), 9, 1, 3]).member


def test_contains_float_tolerance() -> None:
    c = Cone.from_facets([[1, -3], [-1, 3]], exact=False)  # the line x0 = 3 x1
    assert c.contains([3.0, 1.0 + 1e-12]).member and not c.contains([3.0, 1.1]).member
    e = Cone.from_facets([[1, 0], [0, 1]])
    m = e.contains([-1e-12, 1.0])
    assert m.member and not m.exact
    assert not e.contains([-1e-12, 1.0], atol=1e-15).member


def test_contains_bad_vectors() -> None:
    c = Cone.from_facets([[1, 0], [0, 1]], labels=["a", "b"])
    with pytest.raises(DomainMismatchError, match="3 coordinates"):
        c.contains([1, 2, 3])
    with pytest.raises(InvalidInputError, match="not finite"):
        c.contains([float("nan"), 1.0])
    with pytest.raises(InvalidTypeError):
        c.contains("ab")
    with pytest.raises(InvalidInputError):
        c.contains([[1, 2]])


# -------------------------------------------------------------------------------------------------- round trips
def test_h_v_h_round_trip_rr() -> None:
    M = randomized_response(3, "2/3")
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    h = Cone.from_facets(c.facets, labels=c.labels)
    assert h == c and np.array_equal(h.rays, c.rays)
    v = Cone.from_generators(h.rays, h.lineality, labels=c.labels)
    assert np.array_equal(v.facets, c.facets) and hash(v) == hash(c)


def test_canonical_print_equal() -> None:
    a = Cone.from_generators([[2, 0], [1, 1], [0, 0]])
    b = Cone.from_facets([[5, -5], [0, 3], [1, 0]])
    assert a == b and str(a) == str(b)
    assert a != Cone.from_facets([[1, -1], [0, 1]], labels=["u", "v"])  # labels differ
    assert a != a.to_float()  # exact flag differs
    assert a != "a cone"


# ----------------------------------------------------------------------------------------------- exact vs float
def test_float_mode_matches_exact() -> None:
    M = randomized_response(2, "3/4")
    ex = Cone.from_generators(M.matrix, labels=M.inputs)
    fl = Cone.from_generators(M.float_matrix(), labels=M.inputs)
    assert not fl.exact and fl.facets.dtype == float
    assert np.allclose(fl.facets, ex.to_float().facets, atol=1e-9)
    assert np.allclose(np.abs(fl.facets).max(axis=1), 1.0)  # unit max-abs normalisation
    assert ex.to_float() == fl and fl.to_exact(max_denominator=1000) == ex
    assert fl.to_exact().exact and ex.to_exact() is ex and fl.to_float() is fl
    assert fl.equals(ex).holds and not fl.equals(ex).exact


def test_exact_inference() -> None:
    assert Cone.from_facets([["1/2", 1]]).exact
    assert not Cone.from_facets([[0.5, 1]]).exact
    assert Cone.from_facets([[0.5, 1]], exact=True).facets.tolist() == [[F(1), F(2)]]
    assert not Cone.from_facets([[1, 2]], exact=False).exact
    assert Cone.from_facets(np.array([[1, 2]])).exact and not Cone.from_facets(np.array([[1.0, 2.0]])).exact


# -------------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call,err,match",
    [
        (lambda: Cone.from_generators([[1, 2], [3]]), InvalidInputError, "ragged"),
        (lambda: Cone.from_generators([[1, float("nan")]]), InvalidInputError, "nan"),
        (lambda: Cone.from_facets(np.array([[1.0, np.inf]])), InvalidInputError, "inf"),
        (lambda: Cone.from_generators([[1, 2]], labels=["a"]), InvalidInputError, "R\\^1"),
        (lambda: Cone.from_generators([[1, 2]], labels=["a", "a"]), InvalidInputError, "unique"),
        (lambda: Cone.from_generators([[1, 2]], [[1, 2, 3]]), InvalidInputError, "widths"),
        (lambda: Cone.from_generators([]), InvalidInputError, "labels"),
        (lambda: Cone.from_generators([[1, "x"]]), InvalidInputError, "'x'"),
        (lambda: Cone.from_generators([[1, None]]), InvalidTypeError, "None"),
        (lambda: Cone.from_generators([[True, 1]]), InvalidTypeError, "True"),
        (lambda: Cone.from_generators(5), InvalidTypeError, "int"),
        (lambda: Cone.from_generators(np.array([1, 2])), InvalidInputError, "2-D"),
        (lambda: Cone.from_facets([[1, 2]], atol=-1.0), InvalidInputError, "atol"),
        (lambda: Cone.from_facets([[1, 2]], labels="ab"), InvalidInputError, "labels"),
        (lambda: Cone.from_dict({"labels": ["a"]}), FormatError, "facets"),
    ],
)
def test_bad_input(call, err, match) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(err, match=match) as info:
        call()
    assert isinstance(info.value, PrivgeomError)


def test_direct_construction_refused() -> None:
    with pytest.raises(InvalidTypeError):
        Cone()


# ------------------------------------------------------------------------------------------------------ output
def test_str_and_repr() -> None:
    c = Cone.from_facets([[F(1, 2), F(-1, 3)]], equalities=[[0, 0, 2]][:0], labels=["a", "b"])
    assert str(c) == "Cone in R^2, dim 2, 1 facet (exact):\n  3·a - 2·b ≥ 0"
    f = Cone.from_facets([[1.0, -0.5]], labels=["a", "b"])
    assert "1·a - 0.5·b ≥ 0" in str(f) and "(float)" in str(f)
    assert "facets" in repr(c) and "rays" not in repr(c)


def test_to_dict_round_trip() -> None:
    M = randomized_response(2, "3/4")
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    d = c.to_dict()
    assert d["facets"][0] == ["9", "-3", "-3", "1"] and d["labels"] == ["11", "10", "01", "00"]
    assert json.loads(json.dumps(d)) == d
    assert Cone.from_dict(d) == c
    assert Cone.from_dict(c.to_dict("V")) == c and "rays" not in c.to_dict("H")
    f = c.to_float()
    assert Cone.from_dict(f.to_dict()) == f
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class ResultHoldingACone(pg.Result):  # a result type of one's own (pg.Result): its fields are written as JSON
        cone: Cone

    assert ResultHoldingACone(c).to_dict() == {"cone": d}  # a cone inside a result is written as its to_dict
