"""Exact cones stored as integers: the integer accessors, laziness of the Fraction views, and the integer kernels
(membership, containment, equality) against a plain Fraction computation, with numbers beyond int64."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom.geometry._canonical as canonical_mod
import privgeom.geometry._cdd as cdd_mod
import privgeom.geometry._cone_ops as cone_ops_mod
import privgeom.geometry._structure as structure_mod
from privgeom import InvalidTypeError
from privgeom.geometry import Cone


def _dot(a: Any, x: Any) -> Fraction:
    return sum((Fraction(u) * Fraction(v) for u, v in zip(a, x)), Fraction(0))


def _most_violated(cone: Cone, x: list[Fraction]) -> tuple[int | None, str | None, Fraction | None]:
    """The reference rule of Cone.contains on the Fraction rows: equalities first, then facets; the largest
    |a·x| / max|a| among violated rows, the first one on ties."""
    for kind, rows in (("equality", cone.equalities), ("facet", cone.facets)):
        best: tuple[int | None, str | None, Fraction | None] = (None, None, None)
        worst = 0.0
        for i, a in enumerate(rows):
            val = _dot(a, x)
            if (val != 0) if kind == "equality" else (val < 0):
                score = -abs(float(val)) / float(max(abs(v) for v in a))
                if best[0] is None or score < worst:
                    best, worst = (i, kind, val), score
        if best[0] is not None:
            return best
    return None, None, None


class _CountingFraction(Fraction):
    """Stands in for ``Fraction`` in the geometry modules and counts every construction through that name."""

    calls = 0

    def __new__(cls, *args: Any, **kwargs: Any) -> Fraction:  # type: ignore[misc]
        _CountingFraction.calls += 1
        return Fraction(*args, **kwargs)


@pytest.fixture
def count_fractions(monkeypatch: pytest.MonkeyPatch) -> type[_CountingFraction]:
    for mod in (canonical_mod, cdd_mod, cone_ops_mod, structure_mod):
        monkeypatch.setattr(mod, "Fraction", _CountingFraction)
    _CountingFraction.calls = 0
    return _CountingFraction


def test_integer_accessors_and_dtypes() -> None:
    c = Cone.from_generators(np.array([[1, 0, 0], [1, 1, 0], [2, 1, 3]]))
    for ints, fracs in (
        (c.int_facets, c.facets),
        (c.int_equalities, c.equalities),
        (c.int_rays, c.rays),
        (c.int_lineality, c.lineality),
    ):
        assert ints.dtype == np.int64 and not ints.flags.writeable and not fracs.flags.writeable
        assert fracs.dtype == object and all(type(v) is Fraction for v in fracs.ravel())
        assert ints.tolist() == [[int(v) for v in r] for r in fracs]
    assert c.facets is c.facets  # cached
    big = Cone.from_facets([[2**70, -1, 0], [0, 1, 0], [0, 0, 1]])
    assert big.int_facets.dtype == object and big.int_facets[0, 0] == 2**70 and type(big.int_facets[0, 0]) is int
    assert big.facets[0, 0] == Fraction(2**70)
    with pytest.raises(InvalidTypeError, match="float"):
        c.to_float().int_facets


def test_integer_input_builds_no_fraction(count_fractions: type[_CountingFraction]) -> None:
    F = np.array([[3, -1, 0], [0, 2, -1], [0, 0, 5]])
    c = Cone.from_facets(F)  # independent rows: parsed, normalised and stored as integers
    d = Cone.from_generators([[1, 2, 3], [0, 1, 1]])  # lists of ints too
    assert c.int_facets.tolist() == [[3, -1, 0], [0, 2, -1], [0, 0, 1]] and d.int_rays.tolist() == [
        [1, 2, 3],
        [0, 1, 1],
    ]
    assert c.contains([1, 3, 5]).member and not c.contains([0, 1, 0]).member
    assert c == Cone.from_facets(F) and hash(c) == hash(Cone.from_facets(F))
    assert count_fractions.calls <= 4  # only the answer of the failed membership: a·x = -1 and its normal a
    c.facets
    assert count_fractions.calls > 1  # the Fraction view is built on first access only


def test_fraction_and_integer_inputs_give_the_same_cone() -> None:
    rows = [[Fraction(1, 2), Fraction(-1, 3), 0], [0, Fraction(2, 7), Fraction(-4, 7)], [0, 0, 1]]
    a = Cone.from_facets(rows)
    b = Cone.from_facets(np.array([[3, -2, 0], [0, 1, -2], [0, 0, 1]]))
    assert a == b and hash(a) == hash(b) and a.equals(b).holds and str(a) == str(b)
    assert a.to_dict() == b.to_dict() and Cone.from_dict(a.to_dict()) == a
    assert a.to_dict("H")["facets"] == [["3", "-2", "0"], ["0", "1", "-2"], ["0", "0", "1"]]


BIG = st.integers(-(2**70), 2**70)
SMALL = st.integers(-6, 6)


@st.composite
def cones_and_points(draw: st.DrawFn) -> tuple[list[list[int]], list[Fraction]]:
    ints = BIG if draw(st.booleans()) else SMALL
    n = draw(st.integers(1, 4))
    gens = draw(st.lists(st.lists(ints, min_size=3, max_size=3), min_size=n, max_size=n))
    x = draw(st.lists(st.fractions(min_value=-(2**66), max_value=2**66, max_denominator=2**65), min_size=3, max_size=3))
    return gens, x


@given(data=cones_and_points())
def test_membership_integer_route_equals_the_fraction_rule(data: tuple[list[list[int]], list[Fraction]]) -> None:
    gens, x = data
    c = Cone.from_generators(gens, labels=["a", "b", "c"])
    m = c.contains(x)
    idx, kind, val = _most_violated(c, x)
    assert m.exact and m.member == (idx is None)
    if not m.member:
        assert (m.violated, m.kind, m.value) == (idx, kind, val) and type(m.value) is Fraction
        rows = c.equalities if kind == "equality" else c.facets
        assert m.normal.tolist() == rows[idx].tolist()
    # a generator is always in its cone; the float route agrees on it
    assert all(c.contains(list(g)).member for g in gens)


@given(
    a=st.lists(st.lists(st.one_of(BIG, SMALL), min_size=3, max_size=3), min_size=1, max_size=4),
    b=st.lists(st.lists(st.one_of(BIG, SMALL), min_size=3, max_size=3), min_size=1, max_size=4),
)
def test_containment_integer_route_equals_the_fraction_rule(a: list[list[int]], b: list[list[int]]) -> None:
    A = Cone.from_generators(a, labels=["a", "b", "c"])
    B = Cone.from_generators(b, labels=["a", "b", "c"])
    r = A.issubset(B)
    # reference: every ray satisfies B (a·r >= 0, e·r = 0), every lineality direction has a·l = 0 = e·l
    ok = (
        all(_dot(f, g) >= 0 for f in B.facets for g in A.rays)
        and all(_dot(e, g) == 0 for e in B.equalities for g in A.rays)
        and all(_dot(f, g) == 0 for f in np.concatenate([B.facets, B.equalities]) for g in A.lineality)
    )
    assert r.holds == ok and r.exact
    if not r.holds:
        assert r.value == _dot(r.violated_normal, r.witness)
        assert (r.value < 0) if r.kind == "facet" else (r.value != 0)
        assert any(
            list(r.witness) == list(g) or list(-r.witness) == list(g) for g in np.concatenate([A.rays, A.lineality])
        )
    both = A.equals(B)
    assert both.holds == (A == B) == (ok and B.issubset(A).holds)
    assert (A.intersect(B) == B.intersect(A)) and A.intersect(B).issubset(A).holds
