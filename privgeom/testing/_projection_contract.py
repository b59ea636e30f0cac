"""Abstract contract base: every projection method agrees with the generic double-description route.

In the style of :mod:`privgeom.testing` (dp_accounting's shared accountant tests): a test module subclasses
:class:`ProjectionContract` (class name starting with ``Test``) and implements ``cases()`` (a list of
:class:`ProjectionCase`); the base class holds the tests, parametrised over the cases and the methods by its
``pytest_generate_tests`` method, so every projection method is held to the same assertions:

- **Cone.project**, for every method of :data:`privgeom.geometry._cone.PROJECTION_METHODS` (``"generators"``,
  ``"fourier_motzkin"``, ``"block"``) and every coordinate subset of the case: the same cone (``==``: the same
  labels, mode and canonical H-representation; exactly equal in exact mode) as the *generic route*, the double
  description of the projected extreme rays and lineality (:func:`generic_projection`, computed here from the
  rays alone, independently of :meth:`Cone.project`);
- **pair projections** without double description (the ratio interval read from the cone's closed form or its
  generators, :func:`privgeom.analyses.relaxation._difference_route.pair_bounds_of`, as the difference route of ``relax`` uses
  it): the cone ``{x ≥ 0 : x_a ≤ c_ab x_b, x_b ≤ c_ba x_a}`` equals the generic projection onto the pair;
- **relax / relax_pairwise**, for every ``method=`` of :data:`privgeom.analyses.RELAX_METHODS`: the same relaxed cone,
  the same recognition (``"dp"`` or not, the same ``e^ε`` — exact in exact mode — and the same neighbour graph)
  and the same number of lost and kept guarantees as the double-description route ``method="cone"``
  (projection by Fourier–Motzkin, lifting, intersection), which in turn is checked against the intersection of
  the generic projections. A route that does not apply (``"difference"`` on subsets that are not pairs) must
  refuse with :class:`~privgeom.InvalidParameterError`, never answer differently.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np
import pytest

import privgeom as pg
from privgeom.analyses import relax
from privgeom.analyses.relaxation._relaxation import RELAX_METHODS
from privgeom.analyses.relaxation._difference_route import pair_bounds_of
from privgeom.geometry import Cone
from privgeom.geometry._cone import PROJECTION_METHODS

__all__ = ["ProjectionCase", "ProjectionContract", "generic_projection", "pair_cone", "same_level", "ATOL"]

#: Tolerance of float comparisons of ratio bounds (relative to 1 + |value|).
ATOL = 1e-9


@dataclass(frozen=True)
class ProjectionCase:
    """One shared case: a definition (or cone) and the coordinate subsets to project onto.

    ``make()`` returns a :class:`~privgeom.definitions.PrivacyDefinition` or a :class:`Cone`; ``subsets(labels)``
    the coordinate subsets (tuples of labels) for :meth:`Cone.project`; ``families`` the ``subsets=`` arguments of
    :func:`privgeom.relax` (family names, graphs or explicit lists) checked across every relaxation method.
    """

    name: str
    make: Callable[[], Any]
    subsets: Callable[[tuple[str, ...]], list[tuple[str, ...]]]
    families: tuple[Any, ...] = ("hamming",)
    notes: dict[str, Any] = field(default_factory=dict)


#: Built cones, once per case (keyed by the case object).
_cones: dict[int, tuple[ProjectionCase, Any, Cone]] = {}


def built(case: ProjectionCase) -> tuple[Any, Cone]:
    """``(definition or cone, row cone)`` of the case, built once."""
    if id(case) not in _cones:
        obj = case.make()
        cone = obj if isinstance(obj, Cone) else obj.row_cone()
        _cones[id(case)] = (case, obj, cone)
    return _cones[id(case)][1], _cones[id(case)][2]


def generic_projection(cone: Cone, subset: Sequence[str]) -> Cone:
    """The generic route: the double description of the projected generators (rays and ± lineality)."""
    idx = [cone.labels.index(s) for s in subset]
    rays = np.asarray(cone.rays)[:, idx] if len(cone.rays) else np.zeros((0, len(idx)))
    lin = np.asarray(cone.lineality)[:, idx] if len(cone.lineality) else np.zeros((0, len(idx)))
    return Cone.from_generators(rays.tolist(), lin.tolist() or None, exact=cone.exact, labels=tuple(subset))


def pair_cone(labels: tuple[str, str], forward: Any, backward: Any, exact: bool) -> Cone:
    """``{(x_a, x_b) ≥ 0 : x_a ≤ forward · x_b, x_b ≤ backward · x_a}`` (an infinite bound is no facet; a zero
    bound pins the coordinate to 0)."""
    one: Any = Fraction(1) if exact else 1.0
    zero: Any = Fraction(0) if exact else 0.0
    rows = [[one, zero], [zero, one]]
    if forward != math.inf:
        rows.append([-one, forward])
    if backward != math.inf:
        rows.append([backward, -one])
    return Cone.from_facets(rows, exact=exact, labels=labels)


def same_level(a: Any, b: Any, exact: bool) -> bool:
    """Equal ``e^ε`` (exactly in exact mode), or both None."""
    if a is None or b is None:
        return a is None and b is None
    if exact:
        return bool(a == b)
    return abs(float(a) - float(b)) <= ATOL * (1.0 + abs(float(b)))


def _edges(graph: Any) -> set[frozenset[str]]:
    return set() if graph is None else {frozenset(e) for e in graph.edges}


class ProjectionContract(ABC):
    """Every projection method and relaxation route agrees with the generic double-description route."""

    @classmethod
    @abstractmethod
    def cases(cls) -> Sequence[ProjectionCase]:
        """The shared cases every projection method is checked on."""

    def pytest_generate_tests(self, metafunc: Any) -> None:
        if "case" not in metafunc.fixturenames:
            return
        cases = list(metafunc.cls.cases())
        assert cases, f"{metafunc.cls.__name__}.cases() is empty: a contract must be run on at least one case"
        if "method" in metafunc.fixturenames:
            methods = PROJECTION_METHODS if "project" in metafunc.function.__name__ else RELAX_METHODS
            params = [(c, m) for c in cases for m in methods]
            metafunc.parametrize(("case", "method"), params, ids=[f"{c.name}-{m}" for c, m in params])
        else:
            metafunc.parametrize("case", cases, ids=[c.name for c in cases])

    # ------------------------------------------------------------------------------------------ Cone.project
    def test_project_agrees_with_generic(self, case: ProjectionCase, method: str) -> None:
        _, cone = built(case)
        subsets = case.subsets(cone.labels)
        assert subsets, f"{case.name}: no subsets to project onto"
        for subset in subsets:
            got = cone.project(list(subset), method=method)
            want = generic_projection(cone, subset)
            assert got.labels == tuple(subset) and got.exact == cone.exact
            assert got == want, (case.name, method, subset, got.facets.tolist(), want.facets.tolist())

    def test_pair_bounds_agree_with_generic(self, case: ProjectionCase) -> None:
        _, cone = built(case)
        pairs = [s for s in case.subsets(cone.labels) if len(s) == 2]
        if not pairs:
            pytest.skip("no pairs in this case")
        index = {s: i for i, s in enumerate(cone.labels)}
        ia = np.array([index[a] for a, _ in pairs], dtype=np.int64)
        ib = np.array([index[b] for _, b in pairs], dtype=np.int64)
        bounds = pair_bounds_of(cone, ia, ib)
        assert bounds is not None, f"{case.name}: the pair bounds of a small cone are always known"
        for (a, b), f, g in zip(pairs, *bounds):
            assert pair_cone((a, b), f, g, cone.exact) == generic_projection(cone, (a, b)), ((a, b), f, g)

    # ------------------------------------------------------------------------------------------ relax routes
    def test_cone_route_is_the_generic_intersection(self, case: ProjectionCase) -> None:
        obj, cone = built(case)
        exact = cone.exact
        zero: Any = Fraction(0) if exact else 0.0
        one: Any = Fraction(1) if exact else 1.0
        n = cone.ambient_dim
        for family in case.families:
            r = relax(obj, family, method="cone")
            rows = [[one if i == j else zero for j in range(n)] for i in range(n)]
            eqs: list[list[Any]] = []
            for subset in r.subsets:
                proj = generic_projection(cone, subset)
                for target, normals in ((rows, proj.facets), (eqs, proj.equalities)):
                    for a in normals:
                        v = [zero] * n
                        for s, coef in zip(subset, a):
                            v[cone.labels.index(s)] = coef
                        target.append(v)
            want = Cone.from_facets(rows, eqs or None, exact=exact, labels=cone.labels)
            assert r.cone == want, (case.name, family)

    def test_relax_agrees_with_cone_route(self, case: ProjectionCase, method: str) -> None:
        obj, cone = built(case)
        for family in case.families:
            ref = relax(obj, family, method="cone")
            try:
                got = relax(obj, family, method=method)
            except pg.InvalidParameterError:
                assert method == "difference" and any(len(s) != 2 for s in ref.subsets), (case.name, family)
                continue
            assert got.exact == ref.exact
            assert got.cone == ref.cone, (case.name, family, method)
            assert got.recognised == ref.recognised, (case.name, family, method)
            assert same_level(got.level and got.level.exp_eps, ref.level and ref.level.exp_eps, cone.exact), (
                got.level,
                ref.level,
            )
            if ref.recognised:
                assert _edges(got.graph) == _edges(ref.graph)
                assert got.definition.row_cone() == ref.cone
            assert len(got.lost) == len(ref.lost) and got.kept == ref.kept, (
                case.name,
                family,
                method,
                len(got.lost),
                len(ref.lost),
            )
            assert {str(g) for g in got.lost} == {str(g) for g in ref.lost} or not cone.exact
