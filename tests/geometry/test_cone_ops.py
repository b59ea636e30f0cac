"""Projection, intersection, containment, mode mixing, size limits and solver failures of :class:`Cone`.

Reference: Lin & Kifer's row-cone paper, Section V (relaxation by Fourier–Motzkin; ``reference/row-cone.md``).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom import DomainMismatchError, InvalidInputError, InvalidTypeError, SizeLimitError, SolverError
from privgeom import randomized_response
from privgeom.geometry import Cone
from privgeom.testing import PROJECTION_METHODS
from privgeom.results import Containment

METHODS = list(PROJECTION_METHODS)


def ints(arr: np.ndarray) -> list[list[int]]:
    return [[int(v) for v in row] for row in arr]


def hamming(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b))


# ----------------------------------------------------------------------------------------------------- project
@pytest.mark.parametrize("method", METHODS)
def test_rr_pair_projection_section_v(method: str) -> None:
    """Projecting RR onto a pair (D, D') gives x_D ≤ r^h x_D' and x_D' ≤ r^h x_D, r = p/(1-p), h = ham(D, D')."""
    p = F(3, 4)
    r = p / (1 - p)
    M = randomized_response(2, p)
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    pr = c.project(["11", "10"], method=method)
    assert pr.labels == ("11", "10")
    assert ints(pr.facets) == [[3, -1], [-1, 3]]  # 3·x10 ≥ x11 and 3·x11 ≥ x10
    for a, b in [("11", "00"), ("01", "10"), ("00", "01")]:
        rh = int(r ** hamming(a, b))
        assert ints(c.project([a, b], method=method).facets) == [[rh, -1], [-1, rh]]


def test_rr_relaxes_to_dp() -> None:
    """Intersecting the distance-1 pair projections (lifted back) gives the ε-DP cone, ε = ln 3."""
    M = randomized_response(2, "3/4")
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    labels = c.labels
    rows = []
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if hamming(a, b) == 1:
                pr = c.project([a, b], method="block")
                for f in pr.facets:
                    row = [0] * 4
                    row[i], row[j] = f[0], f[1]
                    rows.append(row)
    dp = Cone.from_facets(rows, labels=labels)
    assert dp.n_facets == 8 and c.issubset(dp).holds and not dp.issubset(c).holds


@pytest.mark.parametrize("method", METHODS)
def test_projection_reorders_and_keeps_all(method: str) -> None:
    c = Cone.from_facets([[1, -1, 0], [0, 1, -1], [0, 0, 1]], labels=["a", "b", "c"])  # a ≥ b ≥ c ≥ 0
    assert ints(c.project(["c", "a"], method=method).facets) == [[1, 0], [-1, 1]]
    full = c.project([2, 1, 0], method=method)
    assert full.labels == ("c", "b", "a") and ints(full.rays) == sorted(
        [[r[2], r[1], r[0]] for r in ints(c.rays)], reverse=True
    )


@pytest.mark.parametrize("method", METHODS)
def test_projection_edge_cases(method: str) -> None:
    whole = Cone.from_facets([], labels=["a", "b", "c"])
    assert whole.project(["b"], method=method).is_full_space
    trivial = Cone.from_generators([], labels=["a", "b", "c"])
    assert trivial.project(["a", "c"], method=method).is_trivial
    # equality x1 = x2 and lineality along x0: projection onto (x0, x2) is a half-plane x2 ≥ 0
    c = Cone.from_facets([[0, 1, 0]], [[0, 1, -1]])
    assert ints(c.project([0, 2], method=method).facets) == [[0, 1]]
    line = Cone.from_generators([[1, 1, 0]], [[1, -1, 0]])
    assert ints(line.project([0, 1], method=method).facets) == [[1, 1]]
    # a projection can become the whole space
    assert Cone.from_facets([[1, -1]]).project([0], method=method).is_full_space


def test_project_bad_arguments() -> None:
    c = Cone.from_facets([[1, 0], [0, 1]], labels=["a", "b"])
    with pytest.raises(InvalidInputError, match="method"):
        c.project(["a"], method="magic")
    with pytest.raises(InvalidInputError, match="'z'"):
        c.project(["z"])
    with pytest.raises(InvalidInputError, match="out of range"):
        c.project([5])
    with pytest.raises(InvalidInputError, match="repeated"):
        c.project(["a", 0])
    with pytest.raises(InvalidInputError, match="at least one"):
        c.project([])
    assert c.project("a").labels == ("a",)


def test_projection_float_mode_agrees() -> None:
    M = randomized_response(2, "2/3")
    c = Cone.from_generators(M.float_matrix(), labels=M.inputs)
    results = [c.project(["11", "00"], method=m) for m in METHODS]
    for r in results:
        assert not r.exact and np.allclose(r.facets, results[0].facets, atol=1e-9)
        assert np.allclose(r.facets, [[1.0, -0.25], [-0.25, 1.0]], atol=1e-9)  # r^2 = 4


# -------------------------------------------------------------------------------------------- intersect/subset
def test_intersect() -> None:
    a = Cone.from_facets([[1, 0], [0, 1]])
    b = Cone.from_facets([[1, -2], [-1, 3]])
    c = a.intersect(b)
    assert ints(c.rays) == [[3, 1], [2, 1]] and c.issubset(a).holds and c.issubset(b).holds
    assert c == b.intersect(a)
    assert a.intersect(Cone.from_facets([], labels=a.labels)) == a
    assert a.intersect(Cone.from_facets([[-1, -1]])).is_trivial


def test_issubset_witness() -> None:
    M = randomized_response(2, "3/4")
    rr = Cone.from_generators(M.matrix, labels=M.inputs)
    orthant = Cone.from_generators(np.eye(4, dtype=int), labels=M.inputs)
    assert rr.issubset(orthant).holds and isinstance(rr.issubset(orthant), Containment)
    res = orthant.issubset(rr)
    assert not res and res.direction == "self <= other" and res.kind == "facet"
    assert res.witness is not None and res.violated_normal is not None
    # re-verify the witness independently: it is a generator of the orthant and violates a facet of rr
    assert orthant.contains(res.witness).member and not rr.contains(res.witness).member
    assert any(list(res.violated_normal) == list(f) for f in rr.facets)
    assert res.value == sum(a * b for a, b in zip(res.violated_normal, res.witness)) < 0
    assert "fails" in str(res) and res.to_dict()["value"] == str(res.value)


def test_issubset_lineality_and_equalities() -> None:
    line = Cone.from_generators([[0, 1]], lineality=[[1, 0]])  # upper half-plane
    quadrant = Cone.from_facets([[1, 0], [0, 1]])
    res = line.issubset(quadrant)
    assert res.witness is not None
    assert not res and list(res.witness) == [-1, 0] and res.value == -1  # the lineality direction with a bad sign
    assert quadrant.issubset(line).holds
    flat = Cone.from_facets([[1, 0, 0]], [[0, 0, 1]])
    res = Cone.from_facets([[1, 0, 0], [0, 0, 1]]).issubset(flat)
    assert not res and res.kind == "equality" and res.value != 0
    assert flat.issubset(Cone.from_facets([[1, 0, 0], [0, 0, 1]])).holds


def test_equals_both_directions() -> None:
    a = Cone.from_generators([[1, 0], [0, 1]])
    b = Cone.from_facets([[1, 0], [0, 1]])
    assert a.equals(b).holds and a.equals(b).direction == "both"
    c = Cone.from_generators([[1, 0], [1, 1]])
    r = c.equals(a)
    assert r.holds is False and r.direction == "other <= self"
    assert a.contains(r.witness).member and not c.contains(r.witness).member
    assert not a.equals(Cone.from_generators([[1, 0]])).holds


def test_mixing_exact_and_float() -> None:
    ex = Cone.from_facets([[1, 0], [0, 1]])
    fl = Cone.from_facets([[1.0, -0.5], [0.0, 1.0]])
    inter = ex.intersect(fl)
    assert not inter.exact
    assert np.allclose(inter.facets, [[1.0, -0.5], [0.0, 1.0]])
    res = ex.issubset(fl)
    assert not res.holds and not res.exact
    assert fl.issubset(ex).holds and not fl.issubset(ex).exact


def test_domain_mismatch() -> None:
    a = Cone.from_facets([[1, 0], [0, 1]], labels=["a", "b"])
    b = Cone.from_facets([[1, 0], [0, 1]], labels=["a", "c"])
    for op in (a.intersect, a.issubset, a.equals):
        with pytest.raises(DomainMismatchError, match="'c'"):
            op(b)
    with pytest.raises(InvalidTypeError):
        a.intersect("cone")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ limits and failures
def test_size_limit_dimension() -> None:
    c = Cone.from_generators(np.eye(pg.get_limits()["dd_dim"] + 1, dtype=int))
    with pytest.raises(SizeLimitError, match="dd_dim"):
        c.facets
    with pytest.raises(SizeLimitError, match="dd_dim"):
        c.project([0], method="block")


def test_size_limit_entries() -> None:
    with pg.limits(dd_entries=10), pytest.raises(SizeLimitError, match="dd_entries"):
        Cone.from_generators([[1, 0, 0], [0, 1, 0], [0, 0, 1]]).facets
    with pg.limits(dd_entries=10, canon_entries=10), pytest.raises(SizeLimitError, match="canon_entries"):
        Cone.from_generators([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]])


def test_size_limit_fourier_motzkin() -> None:
    M = randomized_response(3, "3/4")
    c = Cone.from_generators(M.matrix, labels=M.inputs)
    with pg.limits(fm_rows=5):
        with pytest.raises(SizeLimitError, match="fm_rows"):
            c.project(["111", "000"], method="fourier_motzkin")
        assert ints(c.project(["111", "000"], method="block").facets) == [[27, -1], [-1, 27]]


def test_cdd_failure_is_solver_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import cdd.gmp

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated cdd failure")

    monkeypatch.setattr(cdd.gmp, "polyhedron_from_matrix", boom)
    monkeypatch.setattr(cdd.gmp, "redundant_rows", boom)
    monkeypatch.setattr(cdd.gmp, "block_elimination", boom)
    monkeypatch.setattr(cdd.gmp, "fourier_elimination", boom)
    c = Cone.from_facets([[1, 0], [0, 1]])
    with pytest.raises(SolverError, match="simulated"):
        c.rays
    with pytest.raises(SolverError, match="simulated"):
        Cone.from_facets([[1, 0], [0, 1], [1, 1]])
    with pytest.raises(SolverError, match="simulated"):
        Cone.from_facets([[1, 0, 0], [0, 1, 0], [0, 0, 1]]).project([0], method="block")
    with pytest.raises(SolverError, match="simulated"):
        Cone.from_facets([[1, 0, 0], [0, 1, 0], [0, 0, 1]]).project([0], method="fourier_motzkin")
