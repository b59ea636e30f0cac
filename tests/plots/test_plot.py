"""``pg.plot``: one entry point that draws each kind of result with the drawing registered for its type.

Each case draws the same object through ``pg.plot`` and through the drawing function behind it and compares what is
drawn (the plotted data, titles and labels), so the dispatch cannot silently pick another drawing or drop an
argument. The drawings themselves (privgeom.plots._cone: the geometry of the drawn slices and profiles, and the
files) are checked below.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import privgeom as pg
from privgeom import kov_regimes
from privgeom.plots._cone import _polygon, _segment, cone_slice, cone_slices, plot_privacy_profiles
from privgeom.plots._kov import plot_kov_regimes
from privgeom.plots._profile import plot_delta_curve
from privgeom.plots._sweep import plot_sweep
from privgeom.testing import hamming_graph


def _drawn(fig: Any) -> list[tuple[str, str, str, list[list[list[float]]]]]:
    """Per axes: title, x label, y label and the data of every line."""
    return [
        (
            ax.get_title(),
            ax.get_xlabel(),
            ax.get_ylabel(),
            [[list(map(float, line.get_xdata())), list(map(float, line.get_ydata()))] for line in ax.lines],
        )
        for ax in fig.axes
    ]


def test_a_delta_curve() -> None:
    curve = pg.delta_curve(pg.randomized_response(1, "3/4"), "hamming")
    assert _drawn(pg.plot(curve)) == _drawn(plot_delta_curve(curve))


def test_the_kov_regimes(tmp_path: Path) -> None:
    regimes = kov_regimes(3, [0.5, 1.0, 2.0])
    fig = pg.plot(regimes, tmp_path / "kov.png")
    assert _drawn(fig) == _drawn(plot_kov_regimes(regimes))
    assert (tmp_path / "kov.png").stat().st_size > 0


def test_a_cone_one_slice_or_several(tmp_path: Path) -> None:
    cone = pg.RandomizedResponse(2, "3/4").row_cone()
    strong = pg.randomized_response(2, "7/8")
    one = pg.plot(cone, ["11", "10", "01"], mechanism=strong, title="t")
    assert _drawn(one) == _drawn(cone_slice(cone, ["11", "10", "01"], mechanism=strong, title="t"))
    assert one.axes[0].get_title() == "t"
    triples = [["11", "10", "01"], ["11", "10", "00"]]
    several = pg.plot(cone, triples=triples, mechanism=strong, path=tmp_path / "s.png")
    assert len(several.axes) == 2 and _drawn(several) == _drawn(cone_slices(cone, triples, mechanism=strong))
    with pytest.raises(pg.InvalidTypeError, match="either coords or triples"):
        pg.plot(cone, ["11", "10", "01"], triples=triples)


def test_a_mapping_of_mechanisms_gives_their_privacy_profiles() -> None:
    mechanisms = {"RR 3/4": pg.randomized_response(2, "3/4"), "RR 2/3": pg.randomized_response(2, "2/3")}
    fig = pg.plot(mechanisms, "hamming", n_points=11)
    assert _drawn(fig) == _drawn(plot_privacy_profiles(mechanisms, "hamming", n_points=11))
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["RR 3/4 (ε = ln(3))", "RR 2/3 (ε = ln(2))"]


def test_a_sweep_frame(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"k": [1, 2, 3], "exp_eps": [3.0, 3.0, 3.0], "exp_eps_exact": ["3", "3", "3"]})
    fig = pg.plot(frame, ["k"], path=tmp_path / "sweep.png")
    assert _drawn(fig) == _drawn(plot_sweep(frame, ["k"]))
    assert _drawn(fig)[0][3] == [[[1.0, 2.0, 3.0], [3.0, 3.0, 3.0]]]
    assert (tmp_path / "sweep.png").stat().st_size > 0


@pytest.mark.parametrize("obj", [3, "hamming", pg.randomized_response(1, "3/4")])
def test_anything_else_is_a_typed_error_naming_its_type(obj: object) -> None:
    with pytest.raises(pg.InvalidTypeError, match=f"no drawing for a {type(obj).__name__};"):
        pg.plot(obj)


# ------------------------------------------------------------------ the row-cone and profile drawings (_cone.py)
def test_polygon_of_dp_slice_matches_the_inequalities():
    # ε-DP on the path 0-1-2 with e^ε = 2: slice vertices satisfy x_i ≤ 2 x_j on both edges, and some are tight
    cone = pg.parse_definition("dp:graph=path,n=2,exp_eps=2").row_cone()
    poly = _polygon(cone)
    assert len(poly) == 4
    assert np.allclose(poly.sum(axis=1), 1)
    for x in poly:
        assert x[0] <= 2 * x[1] + 1e-12 and x[1] <= 2 * x[0] + 1e-12
        assert x[1] <= 2 * x[2] + 1e-12 and x[2] <= 2 * x[1] + 1e-12
    # the vertex (2, 1, ... ) / sum: x0 = 2 x1, x2 = x1/2  ->  (4, 2, 1)/7
    assert any(np.allclose(x, np.array([4, 2, 1]) / 7) for x in poly)


def test_segment_meets_the_triangle_where_the_facet_vanishes():
    seg = _segment(np.array([2.0, -1.0, 0.0]))  # 2 x0 = x1
    assert len(seg) == 2
    for p in seg:
        assert math.isclose(2 * p[0] - p[1], 0, abs_tol=1e-12) and math.isclose(p.sum(), 1)


def test_cone_slice_points_inside_and_outside(tmp_path):
    rr = pg.RandomizedResponse(2, "3/4").row_cone()
    out = tmp_path / "slice.png"
    fig = cone_slice(rr, ["11", "10", "01"], mechanism=pg.randomized_response(2, "2/3"), path=out)
    assert out.stat().st_size > 10_000
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "row inside" in labels and "row outside" not in labels  # RR(2/3) is in the closure of RR(3/4)
    fig2 = cone_slice(rr, ["11", "10", "01"], mechanism=pg.randomized_response(2, "7/8"))
    labels2 = [t.get_text() for t in fig2.axes[0].get_legend().get_texts()]
    assert "row outside" in labels2
    texts = [t.get_text() for t in ax.texts]
    assert any(t.startswith("F") and "S+=" in t and "S−=" in t for t in texts)


def test_cone_slices_and_errors(tmp_path):
    rr = pg.RandomizedResponse(2, "3/4").row_cone()
    fig = cone_slices(rr, path=tmp_path / "four.png")
    assert len(fig.axes) == 4 and (tmp_path / "four.png").exists()
    with pytest.raises(pg.InvalidParameterError):
        cone_slice(rr, ["11", "10"])
    with pytest.raises(pg.DomainMismatchError):
        cone_slice(rr, ["11", "10", "zz"])
    with pytest.raises(pg.InvalidTypeError):
        cone_slice("not a cone")


def test_privacy_profiles_curves_reach_zero_at_exact_eps(tmp_path):
    mechs = {"RR 3/4": pg.randomized_response(2, "3/4"), "RR 2/3": pg.randomized_response(2, "2/3")}
    fig = plot_privacy_profiles(mechs, hamming_graph(2), path=tmp_path / "prof.png")
    lines = [ln for ln in fig.axes[0].lines if len(ln.get_xdata()) > 2]
    assert len(lines) == 2
    for ln, eps in zip(lines, (math.log(3), math.log(2))):
        x, y = np.asarray(ln.get_xdata()), np.asarray(ln.get_ydata())
        assert np.all(y[x >= eps + 1e-9] <= 1e-12) and np.all(y[x < eps - 1e-9] > 0)
    # δ(0) is the total variation distance of neighbouring columns: 1/2 for RR(3/4) on 2 bits
    assert math.isclose(lines[0].get_ydata()[0], 0.5)
