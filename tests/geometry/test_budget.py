"""Never a silent hour: a generic cone conversion is forecast before it runs and refused over its budget before the
engine starts; symmetric intersections are computed by orbit with the answer of the plain route.

No test asserts a time: a refusal "before the engine" is checked by making the engine fail the test if it is ever
entered (``monkeypatch`` on its dotted path), and the work of the forecast by counting its probe's calls.
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

import privgeom as pg
from privgeom import SizeLimitError
from privgeom.geometry import Cone, use_engine
from privgeom.testing import Forbidden, boom

#: The engine entry points of the generic route (a worker process, or a kernel in this process).
ENGINE_CALLS = ("privgeom.geometry._engines.run_in_worker", "privgeom.geometry._engines._engine_kernel")
PROBE = "privgeom.geometry._budget._probe"


def _mechanism(n_out: int, n_in: int, seed: int) -> pg.Mechanism:
    """A random column-stochastic mechanism: integer entries 1..19, each column divided by its sum."""
    A = np.random.default_rng(seed).integers(1, 20, size=(n_out, n_in))
    s = A.sum(axis=0)
    return pg.Mechanism([[F(int(A[i, j]), int(s[j])) for j in range(n_in)] for i in range(n_out)])


def _forbid_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    for path in ENGINE_CALLS:
        monkeypatch.setattr(path, boom)


def _count(monkeypatch: pytest.MonkeyPatch, path: str) -> list[int]:
    module, _, name = path.rpartition(".")
    import importlib

    owner = importlib.import_module(module)
    real = getattr(owner, name)
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(path, counted)
    return calls


# ------------------------------------------------------------------------------------------------------ refusals
def test_a_large_row_cone_is_refused_from_its_forecast_before_any_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # 24 random rows in R^16: the upper bound theorem allows 22,880 facets (the answer has about 15,000); under a
    # budget of 5,000 rows the probe's forecast refuses it before Normaliz or cdd is entered
    _forbid_engines(monkeypatch)
    d = pg.FiniteDefinition([_mechanism(24, 16, 0)])
    with pg.limits(engine_rows=5000), pytest.raises(SizeLimitError) as err:
        d.row_cone().n_facets
    msg = str(err.value)
    for part in ("facets of 24 generators in R^16", "about ", "forecast:", "22,880", "more than the limit of 5,000"):
        assert part in msg, (part, msg)
    assert "(engine_rows); refused before running" in msg and "pg.set_limits(engine_rows=" in msg
    needed = int(msg.rsplit("pg.set_limits(engine_rows=", 1)[1].split(")")[0])
    assert 5000 < needed <= 22880  # the forecast lies between the budget and the bound


def test_the_time_budget_refuses_from_the_same_forecast(monkeypatch: pytest.MonkeyPatch) -> None:
    _forbid_engines(monkeypatch)
    d = pg.FiniteDefinition([_mechanism(24, 16, 0)])
    with pg.limits(engine_seconds=1), pytest.raises(SizeLimitError) as err:
        d.row_cone().n_facets
    msg = str(err.value)
    assert "more than the budget of 1 s (engine_seconds)" in msg and "pg.set_limits(engine_seconds=" in msg


def test_the_command_line_names_its_option(tmp_path: Any, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from privgeom.testing import assert_cli_refused

    _forbid_engines(monkeypatch)
    (tmp_path / "m.json").write_text(_mechanism(24, 16, 0).to_json())
    assert_cli_refused(
        ["rowcone", "finite:file={tmp}/m.json", "--limit", "engine_rows=5000"],
        ["facets of 24 generators in R^16", "refused before running", "--limit engine_rows="],
        tmp_path,
        capsys,
    )


def test_forced_engines_are_forecast_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _forbid_engines(monkeypatch)
    rows = np.random.default_rng(0).integers(1, 20, size=(20, 10)).tolist()
    for engine in ("cdd", "normaliz"):
        with (
            use_engine(engine),
            pg.limits(engine_rows=1000),
            pytest.raises(SizeLimitError, match=f"by {engine}: about"),
        ):
            Cone.from_generators(rows).n_facets


# ------------------------------------------------------------------------------------------------------ no refusal
def test_small_inputs_pay_for_no_forecast(monkeypatch: pytest.MonkeyPatch) -> None:
    # 8 rows in R^5: the upper bound theorem's 20 facets fit every budget, so no probe runs
    probes = _count(monkeypatch, PROBE)
    M = _mechanism(8, 5, 1)
    assert pg.FiniteDefinition([M]).row_cone().n_facets > 0
    assert probes == [0]


def test_a_probe_that_converts_everything_leaves_the_count_to_the_route() -> None:
    # the square's cone: 4 facets counted by the probe, then counted again (and refused) by the route itself
    square = [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]]
    with pg.limits(engine_rows=3), pytest.raises(SizeLimitError, match=r"returned 4 facets .* limit of 3"):
        Cone.from_generators(square).facets
    with pg.limits(engine_rows=4):
        assert Cone.from_generators(square).n_facets == 4


def test_a_structured_input_is_not_refused_from_small_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    # the 38 extreme rays of ε-DP on the 3-cube (e^ε = 2): the bound allows 11,968 facets, small samples have more
    # facets than the whole (24); the forecast must not refuse a budget of 100 rows, which the answer fits
    rays = pg.DifferentialPrivacy.hamming(3, exp_eps=2).row_cone().int_rays.tolist()
    probes = _count(monkeypatch, PROBE)
    with pg.limits(engine_rows=100):
        cone = Cone.from_generators(rays)
        assert cone.n_facets == 24
    assert probes == [1]
    assert cone.int_facets.tolist() == pg.DifferentialPrivacy.hamming(3, exp_eps=2).row_cone().int_facets.tolist()


@pytest.mark.slow  # the intersection itself takes a few seconds on a busy machine
def test_rays_of_a_large_intersection_are_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # RR on 7 bits and ε-DP on the 7-cube: 1,024 facets in R^128, far past the double-description dimension limit
    _forbid_engines(monkeypatch)
    both = pg.intersection(pg.RandomizedResponse(7, "3/4"), pg.DifferentialPrivacy.hamming(7, exp_eps=2))
    cone = both.row_cone()
    assert cone.n_facets == 1024
    with pytest.raises(SizeLimitError, match=r"ambient dimension 128 .* pg\.set_limits\(dd_dim=128\)"):
        cone.rays


# ------------------------------------------------------------------------------------------------------ by orbit
def _plain_intersection(a: pg.PrivacyDefinition, b: pg.PrivacyDefinition) -> Cone:
    """``R_A ∩ R_B`` by the plain route: the stacked facets given as rows (no symmetry), as a cone definition."""
    rows = np.vstack([a.row_cone().int_facets, b.row_cone().int_facets]).tolist()
    return pg.ConeDefinition(Cone.from_facets(rows, labels=a.inputs)).row_cone()


@pytest.mark.parametrize(
    ("p", "exp_eps"),
    [
        pytest.param("3/4", 3, marks=pytest.mark.slow),  # the plain route of 192 rows in R^32 takes seconds
        pytest.param("2/3", 3, marks=pytest.mark.slow),
        pytest.param("3/4", 2, marks=pytest.mark.slow),  # the plain route takes seconds (Clarkson, 192 rows)
        pytest.param("9/10", 2, marks=pytest.mark.slow),
    ],
)
def test_intersection_by_orbit_equals_the_plain_route(monkeypatch: pytest.MonkeyPatch, p: str, exp_eps: int) -> None:
    rr, dp = pg.RandomizedResponse(5, p), pg.DifferentialPrivacy.hamming(5, exp_eps=exp_eps)
    by_orbit = _count(monkeypatch, "privgeom.geometry._redundancy.irredundant_by_orbits")
    both = pg.intersection(rr, dp).row_cone()
    assert by_orbit[0] >= 1  # 192 stacked facets in R^32 (RR's one orbit, ε-DP's one orbit) are decided by orbit
    monkeypatch.undo()
    assert both.int_facets.tolist() == _plain_intersection(rr, dp).int_facets.tolist()
    # RR(p) is ε-DP with e^ε = p/(1-p) and no less, so it is inside ε-DP exactly when p/(1-p) <= e^ε, and the
    # intersection is then RR's own cone (2^5 facets); otherwise ε-DP's 160 edge facets cut it further
    inside = F(p) / (1 - F(p)) <= exp_eps
    assert (both.int_facets.tolist() == rr.row_cone().int_facets.tolist()) is inside
    if not inside:
        assert both.structure is not None and both.structure.kind == "symmetric"
        assert both.symmetry is not None and both.symmetry.order == 2**5 * math.factorial(5)


@pytest.mark.parametrize(
    ("k", "p", "exp_eps"), [(2, "3/4", 2), (3, "3/4", 2), (3, "9/10", 3), (3, "2/3", 3), (4, "3/4", 2), (4, "9/10", 4)]
)
def test_small_intersections_by_orbit_match_the_plain_route_and_normaliz(
    monkeypatch: pytest.MonkeyPatch, k: int, p: str, exp_eps: int
) -> None:
    # the orbit route forced on small cases (its size threshold set to 0): identical canonical facets to the plain
    # route's, and Normaliz's round trip (facets -> rays -> facets) gives them back
    monkeypatch.setattr("privgeom.geometry._redundancy.ORBIT_MIN_ENTRIES", 0)
    by_orbit = _count(monkeypatch, "privgeom.geometry._redundancy.irredundant_by_orbits")
    rr, dp = pg.RandomizedResponse(k, p), pg.DifferentialPrivacy.hamming(k, exp_eps=exp_eps)
    facets = pg.intersection(rr, dp).row_cone().int_facets.tolist()
    assert by_orbit[0] >= 1
    assert facets == _plain_intersection(rr, dp).int_facets.tolist()
    if k <= 3:
        with use_engine("normaliz"):
            rays = Cone.from_facets(facets).int_rays.tolist()
            if len(rays) <= 200:  # the way back canonicalises every ray first: kept to the smaller cones
                assert Cone.from_generators(rays).int_facets.tolist() == facets


def test_rr_inside_dp_intersects_to_rr_by_orbit() -> None:
    # RR(3/4) on 5 bits is ε-DP with e^ε = 3 and no less: with ε-DP at e^ε = 3 the intersection is RR's cone, with
    # e^ε = 2 it is strictly smaller and keeps both orbits (RR's 32 facets and ε-DP's 160 edge facets)
    rr = pg.RandomizedResponse(5, "3/4")
    assert pg.intersection(rr, pg.DifferentialPrivacy.hamming(5, exp_eps=3)).row_cone() == rr.row_cone()
    cut = pg.intersection(rr, pg.DifferentialPrivacy.hamming(5, exp_eps=2)).row_cone()
    assert cut.n_facets == 32 + 5 * 32 and cut.structure is not None and cut.structure.kind == "symmetric"


def test_the_orbit_route_keeps_small_cases_on_the_plain_route() -> None:
    # 80 inequalities in R^16: below the orbit route's size, the answer is RR's 16 facets (RR(3/4) is 3-DP)
    rr, dp = pg.RandomizedResponse(4, "3/4"), pg.DifferentialPrivacy.hamming(4, exp_eps=3)
    both = pg.intersection(rr, dp).row_cone()
    assert both.structure is None and both == rr.row_cone() and both.n_facets == 16


def test_forbidden_is_what_the_engines_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    # the check above can fail: an engine entered under _forbid_engines fails the test
    _forbid_engines(monkeypatch)
    with pytest.raises(AssertionError, match="expensive routine"):
        Cone.from_generators([[1, 0], [1, 1]]).n_facets
    assert issubclass(Forbidden, AssertionError)


def test_a_finite_definitions_row_cone_is_prepared_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the command line asks for the row cone twice (the cone, then its summary): its generators are made
    # irredundant once, so a refusal does not wait for the same preparation twice
    prepared = _count(monkeypatch, "privgeom.geometry._redundancy.canonicalize")
    d = pg.FiniteDefinition([_mechanism(8, 5, 3)])
    assert d.row_cone() is d.row_cone()
    assert prepared == [1]
