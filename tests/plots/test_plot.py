"""``pg.plot``: one entry point that draws each kind of result with the drawing registered for its type.

Each case draws the same object through ``pg.plot`` and through the drawing function behind it and compares what is
drawn (the plotted data, titles and labels), so the dispatch cannot silently pick another drawing or drop an
argument.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import privgeom as pg
from privgeom import kov_regimes
from privgeom.plots._cone import cone_slice, cone_slices, plot_privacy_profiles
from privgeom.plots._kov import plot_kov_regimes
from privgeom.plots._profile import plot_delta_curve
from privgeom.plots._sweep import plot_sweep


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
