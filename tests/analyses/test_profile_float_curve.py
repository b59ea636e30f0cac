"""The float δ(ε) curve keeps every line: float mechanisms whose probabilities span many orders of magnitude.

The envelope of a float mechanism is decided exactly on its float lines (an orientation test with Shewchuk's error
bound and an exact fallback), so the curve must agree with :func:`privgeom.delta` at every ε and reach 0 at the ε of
:func:`privgeom.epsilon`, however small the probabilities and their differences are.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg


@st.composite
def spread_mechanism(draw):
    """A float mechanism with 2–4 inputs and 2–6 outputs whose entries are ``10^-u`` for ``u`` in ``[0, 14]``
    (some exactly 0), each column normalised, with a relation name its datasets accept."""
    n_in = draw(st.integers(2, 4))
    n_out = draw(st.integers(2, 6))
    exps = st.one_of(st.floats(0, 14, allow_nan=False), st.just(math.inf))
    cols = []
    for _ in range(n_in):
        col = [10.0**-u for u in draw(st.lists(exps, min_size=n_out, max_size=n_out))]
        if max(col) == 0:
            col[draw(st.integers(0, n_out - 1))] = 1.0
        total = math.fsum(col)
        cols.append([v / total for v in col])
    X = np.array(cols).T
    M = pg.Mechanism(X, inputs=[f"D{j}" for j in range(n_in)])
    return M, draw(st.sampled_from(["complete", "path"]))


def _check_curve_against_delta(M: pg.Mechanism, graph: str) -> None:
    curve = pg.delta_curve(M, graph)
    assert not curve.exact
    eps = pg.epsilon(M, graph)
    if eps.infinite:
        assert curve.level.eps == math.inf
        top = 1.25 * math.log(float(max(p.start for p in curve.pieces))) + 1.0
    else:
        star = float(eps.level.eps)
        assert float(curve.level.eps) == pytest.approx(star, rel=1e-12, abs=1e-15)
        top = star
    grid = [top * f for f in (0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.97, 0.995, 1.1)]
    for e in grid:
        want = pg.delta(M, graph, e).delta
        assert curve.evaluate(e) == pytest.approx(want, rel=1e-7, abs=1e-13), (e, want)


@settings(max_examples=500)
@given(spread_mechanism())
def test_float_curve_matches_delta_on_spread_mechanisms(case):
    M, graph = case
    _check_curve_against_delta(M, graph)


def _regression_mechanism() -> pg.Mechanism:
    a = [3e-5, 0.11, 0.0, 6e-6, 1e-10]
    b = [0.39, 0.0, 6e-5, 2e-11, 1e-5]
    a[2] = 1.0 - math.fsum(a)
    b[1] = 1.0 - math.fsum(b)
    return pg.Mechanism(np.array([a, b]).T, inputs=["a", "b"])


def test_float_curve_keeps_lines_of_small_probabilities():
    """Closed forms on a 5 × 2 float mechanism whose last lines differ by ~1e-6 (products ~1e-12).

    Edge a → b, S = {o3}: δ = 6e-6 − e^ε·2e-11 for e^ε in [1e5, 3e5] (ε* = ln 3e5 ≈ 12.6115); edge b → a,
    S = {o4}: δ = 1e-5 − e^ε·1e-10 below e^ε = 1e5 (down to ``e^ε`` = 13000, where o0's line takes over).
    An absolute tolerance of 1e-12 on the hull test dropped both lines (δ(12) came out 0 and ε* = ln 1e5).
    """
    M = _regression_mechanism()
    c = pg.delta_curve(M, "complete", [10.0, 11.0, 12.0])
    assert float(c.level.eps) == pytest.approx(math.log(6e-6 / 2e-11), rel=1e-12)
    assert c.deltas[0] == pytest.approx(1e-5 - math.exp(10) * 1e-10, rel=1e-9)
    assert c.deltas[1] == pytest.approx(6e-6 - math.exp(11) * 2e-11, rel=1e-9)
    assert c.deltas[2] == pytest.approx(6e-6 - math.exp(12) * 2e-11, rel=1e-9)
    _check_curve_against_delta(M, "complete")


def test_float_curve_lines_through_one_point_at_tiny_scale():
    """Three float lines through one point, exactly in binary, with probabilities near 2^-40: outputs o0 and o1 both
    have ratio 4 on edge a → b, so the events {o0} and {o0, o1} and the zero line meet at e^ε = 4. The middle line
    is dropped (its float determinant is 0 within the error bound, so the exact fallback decides) and ε* = ln 4."""
    u = 2.0**-40
    M = pg.Mechanism([[u, u / 4], [u / 2, u / 8], [1 - 1.5 * u, 1 - 0.375 * u]], inputs=["a", "b"])
    c = pg.delta_curve(M, [("a", "b")], exp_eps_values=[2.0, 4.0])
    assert c.pieces[-2].intercept == 1.5 * u and c.pieces[-2].slope == 0.375 * u
    assert all(p.slope != u / 4 for p in c.pieces)
    assert c.breakpoints[-1] == (4.0, 0.0) and c.level.eps == pytest.approx(math.log(4), rel=1e-15)
    assert c.deltas == (pytest.approx(0.75 * u, rel=1e-12), 0.0)
