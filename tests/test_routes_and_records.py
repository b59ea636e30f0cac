"""Strategies as tables in the geometry, mechanisms, optimal, comparison and design modules, and
the levels of their results (item 1); results built by keyword everywhere: ``tests/test_one_design.py``.

Every ``method=`` name of a dispatcher is a key of its registry of named routes, each route has a docstring, and the
routes still answer as before (cross-checked route against route).
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import pytest

import privgeom as pg
from privgeom.analyses.comparison import _compare
from privgeom.analyses.optimal import _optimal
from privgeom.geometry import _cone, _projection, _symmetry


# ------------------------------------------------------------------------------------------------------- registries
@pytest.mark.parametrize(
    ("registry", "names"),
    [
        (_optimal._OPTIMAL_ROUTES, set(_optimal.OPTIMAL_METHODS) - {"auto"}),
        (_compare._ROW_CONE_ROUTES, set(_compare.CONE_METHODS) - {"auto"}),
        (_projection._PROJECTIONS, set(_cone.PROJECTION_METHODS)),
        (_symmetry._FINITE_METHODS, {"rows", "mechanisms"}),
        (_symmetry._CONE_METHODS, {"carried", "facets"}),
        (_symmetry._KNOWN_GRAPH_GROUPS, {"hamming", "complete", "path"}),
    ],
)
def test_every_method_is_a_named_route_with_a_docstring(registry, names) -> None:
    assert set(registry) == names
    for name, route in registry.items():
        assert route.__name__.startswith("_") and inspect.getdoc(route), name


def test_auto_order_covers_every_optimal_route() -> None:
    assert sorted(_optimal._AUTO_ORDER) == sorted(_optimal._OPTIMAL_ROUTES)
    assert _optimal.OPTIMAL_METHODS == ("auto", "lp", "explicit", "closed-form", "symmetric")  # the documented order


def test_optimal_routes_agree_on_local_dp() -> None:
    """ε-DP on K_4 at e^ε = 3, accuracy: every route gives k-RR's e^ε / (e^ε + n − 1) = 1/2 (KOV 2016)."""
    dp = pg.DifferentialPrivacy(pg.Domain.from_labels(["0", "1", "2", "3"]).relation("complete"), exp_eps=3)
    values = {m: pg.analyses.optimal_mechanism(dp, method=m).value for m in ("auto", "lp", "closed-form", "symmetric")}
    assert set(values.values()) == {Fraction(1, 2)}
    with pytest.raises(pg.InvalidParameterError, match="method='explicit' needs a finite definition"):
        pg.analyses.optimal_mechanism(dp, method="explicit")


def test_projection_routes_agree() -> None:
    c = pg.Cone.from_facets([[1, -1, 0], [0, 1, -1], [0, 0, 1]])  # x0 ≥ x1 ≥ x2 ≥ 0
    cones = [c.project([2, 0], method=m) for m in _cone.PROJECTION_METHODS]
    assert all(p == cones[0] for p in cones)
    assert sorted(map(tuple, cones[0].rays.tolist())) == [(0, 1), (1, 1)]  # (x2, x0) with 0 ≤ x2 ≤ x0


def test_known_graph_groups_have_their_orders() -> None:
    """Hamming graph on k bits: 2^k k!; complete graph on n: n!; path: the reversal, order 2."""
    dp = pg.DifferentialPrivacy.hamming(3, exp_eps=2)
    assert (_symmetry.automorphisms(dp).source, _symmetry.automorphisms(dp).order) == ("hypercube", 48)
    path = pg.DifferentialPrivacy.path(4, exp_eps=2)
    assert _symmetry.automorphisms(path).order == 2 and _symmetry.automorphisms(path).generators == ((4, 3, 2, 1, 0),)
    cone = pg.Cone.from_facets([[1, 0], [0, 1]], labels=["a", "b"])
    assert _symmetry.automorphisms(cone, method="facets").order == 2
    with pytest.raises(pg.InvalidParameterError, match="'carried' or 'facets'"):
        _symmetry.automorphisms(cone, method="rows")


# ------------------------------------------------------------------------------------------------------- levels
def test_dp_level_inclusions_carry_both_levels() -> None:
    a, b = (pg.DifferentialPrivacy.hamming(2, exp_eps=t) for t in (2, 3))
    yes, no = _compare.inclusion(a, b), _compare.inclusion(b, a)
    assert yes.method == no.method == "dp-level" and yes.holds and not no.holds
    assert (yes.smaller_level, yes.larger_level) == (pg.PrivacyLevel.from_exp_eps(2), pg.PrivacyLevel.from_exp_eps(3))
    assert str(no.smaller_level) == "ln(3)" and yes.smaller_level < yes.larger_level
    assert _compare.inclusion(pg.RandomizedResponse(2, "3/4"), b).smaller_level is None  # no level compared


def test_staircase_and_kov_levels() -> None:
    opt = pg.staircase_optimum(3, 2, "accuracy")  # uniform prior on 3 values: Bayes accuracy e^ε/(e^ε + 2) = 1/2
    assert opt.level == pg.PrivacyLevel.from_exp_eps(2) and opt.value == Fraction(1, 2)
    k = pg.analyses.kov_regimes(4, [0.5, 2.0])
    assert isinstance(k.crossover, pg.PrivacyLevel) and not k.crossover.exact
    assert abs(float(k.crossover.eps) - 0.8221) < 1e-4 and abs(k.crossover.exp_eps - 2.27537) < 1e-4
