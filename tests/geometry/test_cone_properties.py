"""Hypothesis properties of :class:`Cone` on random small exact cones (derandomised profile from conftest).

Independent cross-checks: membership against an LP feasibility test (scipy HiGHS), projections by three methods,
canonical forms under H→V→H and V→H→V, witnesses re-verified, exact vs float.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from privgeom.geometry import Cone
from privgeom.testing import PROJECTION_METHODS

DIM = st.integers(min_value=1, max_value=4)


@st.composite
def generator_matrices(draw: st.DrawFn, min_rows: int = 0, max_rows: int = 6) -> tuple[list[list[int]], int]:
    dim = draw(DIM)
    n = draw(st.integers(min_value=min_rows, max_value=max_rows))
    rows = draw(st.lists(st.lists(st.integers(-3, 3), min_size=dim, max_size=dim), min_size=n, max_size=n))
    return rows, dim


@st.composite
def cones(draw: st.DrawFn) -> Cone:
    rows, dim = draw(generator_matrices())
    lin = draw(st.lists(st.lists(st.integers(-2, 2), min_size=dim, max_size=dim), max_size=1))
    labels = [f"c{i}" for i in range(dim)]
    if draw(st.booleans()):
        return Cone.from_generators(rows, lin or None, labels=labels)
    return Cone.from_facets(rows, lin or None, labels=labels)


def in_cone_lp(gens: np.ndarray, lin: np.ndarray, x: np.ndarray) -> bool:
    """x = Gᵀ μ + Lᵀ ν with μ ≥ 0 — an LP feasibility test independent of cdd."""
    dim = len(x)
    cols = [np.asarray(g, dtype=float) for g in gens] + [np.asarray(v, dtype=float) for v in lin]
    cols += [-np.asarray(v, dtype=float) for v in lin]
    if not cols:
        return bool(np.allclose(x, 0))
    A = np.array(cols).T.reshape(dim, len(cols))
    res = linprog(np.zeros(len(cols)), A_eq=A, b_eq=np.asarray(x, dtype=float), bounds=(0, None), method="highs")
    return bool(res.status == 0)


@given(generator_matrices(min_rows=1), st.data())
def test_nonnegative_combinations_are_contained(gm: tuple[list[list[int]], int], data: st.DataObject) -> None:
    rows, dim = gm
    c = Cone.from_generators(rows, labels=[f"c{i}" for i in range(dim)])
    mu = data.draw(
        st.lists(st.fractions(min_value=0, max_value=5, max_denominator=7), min_size=len(rows), max_size=len(rows))
    )
    x = [sum((m * r[j] for m, r in zip(mu, rows)), F(0)) for j in range(dim)]
    assert c.contains(x).member
    for r in rows:
        assert c.contains(r).member
    for r in c.rays:
        assert c.contains(r).member


@given(cones())
def test_h_v_h_identity_on_canonical_forms(c: Cone) -> None:
    h = Cone.from_facets(c.facets, c.equalities, labels=c.labels)
    assert np.array_equal(h.facets, c.facets) and np.array_equal(h.equalities, c.equalities)
    assert np.array_equal(h.rays, c.rays) and np.array_equal(h.lineality, c.lineality)
    v = Cone.from_generators(c.rays, c.lineality, labels=c.labels)
    assert np.array_equal(v.facets, c.facets) and np.array_equal(v.rays, c.rays) and v == c
    # dimension and pointedness agree between the two representations
    assert h.dim == v.dim == c.ambient_dim - len(c.equalities)
    assert h.is_pointed == v.is_pointed == (len(c.lineality) == 0)
    assert c.equals(v).holds


@given(cones(), st.lists(st.integers(-4, 4), min_size=8, max_size=8))
def test_membership_matches_lp_and_certificate(c: Cone, xs: list[int]) -> None:
    x = xs[: c.ambient_dim]
    m = c.contains(x)
    assert m.member == in_cone_lp(c.rays, c.lineality, np.array(x, dtype=float))
    if not m.member:
        assert m.normal is not None
        assert m.value == sum(a * b for a, b in zip(m.normal, x))
        # the violated row is valid on the whole cone: a separating certificate
        for g in c.rays:
            val = sum(a * b for a, b in zip(m.normal, g))
            assert val == 0 if m.kind == "equality" else val >= 0
        for g in c.lineality:
            assert sum(a * b for a, b in zip(m.normal, g)) == 0


@settings(max_examples=25)
@given(cones(), st.data())
def test_projection_methods_agree(c: Cone, data: st.DataObject) -> None:
    keep = data.draw(st.lists(st.integers(0, c.ambient_dim - 1), min_size=1, max_size=c.ambient_dim, unique=True))
    results = [c.project(keep, method=m) for m in PROJECTION_METHODS]
    for r in results:
        assert r == results[0] and str(r) == str(results[0])
        assert r.labels == tuple(c.labels[i] for i in keep)
    # images of the generators are in the projection
    for g in c.rays:
        assert results[0].contains([g[i] for i in keep]).member


@given(cones(), cones())
def test_intersect_and_issubset_witnesses(a: Cone, b: Cone) -> None:
    if a.ambient_dim != b.ambient_dim:
        return
    inter = a.intersect(b)
    assert inter.issubset(a).holds and inter.issubset(b).holds
    res = a.issubset(b)
    if res.holds:
        assert inter == a
        for g in a.rays:
            assert b.contains(g).member
    else:
        assert res.witness is not None and res.violated_normal is not None
        assert a.contains(res.witness).member and not b.contains(res.witness).member
        assert res.value == sum(u * v for u, v in zip(res.violated_normal, res.witness))
        assert inter != a


@given(cones())
def test_exact_and_float_agree(c: Cone) -> None:
    f_from_facets = Cone.from_facets(c.facets.astype(float), c.equalities.astype(float), labels=c.labels)
    assert f_from_facets == c.to_float()
    f_from_gens = Cone.from_generators(c.rays.astype(float), c.lineality.astype(float), labels=c.labels)
    assert f_from_gens == c.to_float()
    assert f_from_gens.to_exact(max_denominator=10**6) == c, (c.rays, c.lineality, f_from_gens.rays)
