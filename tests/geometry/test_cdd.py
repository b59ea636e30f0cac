"""The private pycddlib wrapper, the canonical-form helpers and the generator pair bounds of projection."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom import SolverError
from privgeom.geometry import Cone
from privgeom.testing import path_graph
from privgeom.geometry import _cdd
from privgeom.geometry._canonical import canonical_pair, normalise_rows, project_out, rref
from privgeom.geometry._projection import generator_pair_bounds


def arr(rows: list[list[int]]) -> np.ndarray:
    out = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=object)
    for i, r in enumerate(rows):
        out[i, :] = [F(v) for v in r]
    return out


def test_exact_linprog_statuses() -> None:
    assert _cdd.exact_linprog([[1, -1, 0], [1, 0, -1], [0, 1, 1]]) == ("optimal", [F(1), F(1)], F(2))
    assert _cdd.exact_linprog([[0, 1], [0, 1]])[0] == "unbounded"  # max x0 subject to x0 ≥ 0
    assert _cdd.exact_linprog([[-1, 1], [2, -1], [0, 1]]) == ("optimal", [F(2)], F(2))  # max x0, 1 ≤ x0 ≤ 2
    assert _cdd.exact_linprog([[-1, 1], [0, -1], [0, 1]])[0] == "infeasible"  # x0 ≥ 1 and x0 ≤ 0
    status, x, value = _cdd.exact_linprog([["1/2", -1], [0, 1], [0, -1]], maximize=False)  # min -x0, x0 ≤ 1/2
    assert (status, x, value) == ("optimal", [F(1, 2)], F(-1, 2))


def test_exact_linprog_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    import cdd.gmp

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cdd.gmp, "linprog_solve", boom)
    with pytest.raises(SolverError, match="boom"):
        _cdd.exact_linprog([[1, -1], [0, 1]])


def test_canonicalize_finds_implicit_linearity_and_redundancy() -> None:
    rows, lin = _cdd.canonicalize(
        arr([[1, 0], [-1, 0], [1, 1], [0, 1], [0, 2]]), arr([]).reshape(0, 2), kind="H", exact=True
    )
    assert len(lin) >= 1 and all(r[1] == 0 for r in lin)
    assert len(rows) == 1 and rows[0][1] > 0
    # independent rows are returned untouched without calling cdd
    r2, l2 = _cdd.canonicalize(arr([[1, 2], [3, 4]]), arr([]).reshape(0, 2), kind="V", exact=True)
    assert r2.tolist() == [[1, 2], [3, 4]] and l2.shape == (0, 2)


def test_conversions_float_and_exact_agree() -> None:
    rays = arr([[3, 1, 0], [1, 3, 0], [1, 1, 1]])
    fe, ee = _cdd.v_to_h(rays, rays[:0], exact=True)
    ff, ef = _cdd.v_to_h(rays.astype(float), rays[:0].astype(float), exact=False)
    ce = normalise_rows(fe, exact=True).astype(float)
    cf = normalise_rows(ff, exact=False)
    assert np.allclose(ce / np.abs(ce).max(axis=1, keepdims=True), cf)
    assert ee.shape == ef.shape == (0, 3)


def test_rref_and_projection() -> None:
    basis = rref(arr([[2, 4, 0], [1, 2, 0], [0, 0, 3]]), exact=True)
    assert basis.tolist() == [[1, 2, 0], [0, 0, 1]]
    p = project_out(arr([[1, 0, 5]]), basis, exact=True)
    assert p.tolist() == [[F(4, 5), F(-2, 5), 0]]  # orthogonal to (1, 2, 0) and (0, 0, 1)
    fb = rref(np.array([[2.0, 4.0, 0.0], [1.0, 2.0, 1e-12]]), exact=False)
    assert np.allclose(fb, [[1.0, 2.0, 0.0]])
    main, lin = canonical_pair(arr([[1, 0, 5]]), arr([[0, 0, -7], [-3, -6, 0]]), exact=True)
    assert lin.tolist() == [[1, 2, 0], [0, 0, 1]] and main.tolist() == [[2, -1, 0]]


def test_normalise_rows_float_dedupes_within_tolerance() -> None:
    out = normalise_rows(np.array([[2.0, -1.0], [1.0, -0.5 + 1e-13], [0.0, 1e-12]]), exact=False)
    assert out.tolist() == [[1.0, -0.5]]


def test_modular_rank_fast_path_is_only_trusted_for_full_rank() -> None:
    from fractions import Fraction as F

    from privgeom.geometry._cdd import _full_rank_mod_prime, _independent

    rng = np.random.default_rng(7)
    full = np.array([[F(int(v), 3) for v in row] for row in rng.integers(-9, 9, size=(6, 8))], dtype=object)
    assert _full_rank_mod_prime(full) and _independent(full, exact=True)
    dep = np.vstack([full[:3], (full[0] * F(2, 7) - full[1]).reshape(1, -1)])
    assert not _full_rank_mod_prime(dep) and not _independent(dep, exact=True)
    # rows independent over Q but dependent modulo the prime: the fast path says no, the exact RREF says yes
    from privgeom.geometry._cdd import _RANK_PRIME

    tricky = np.array([[F(1), F(0)], [F(1), F(_RANK_PRIME)]], dtype=object)
    assert not _full_rank_mod_prime(tricky) and _independent(tricky, exact=True)


def test_rr_pair_bounds_factorise_and_match_generators():
    rr = pg.RandomizedResponse(3, "3/4")
    pairs = list(itertools.permutations(range(8), 2))
    ia, ib = [a for a, _ in pairs], [b for _, b in pairs]
    fwd, bwd = rr.pair_bounds(ia, ib)
    gf, gb = generator_pair_bounds(rr.mechanism.matrix, ia, ib, exact=True)
    assert list(fwd) == list(gf) and list(bwd) == list(gb)
    labels = rr.inputs
    for (a, b), c in zip(pairs, fwd):
        assert c == F(3) ** sum(u != v for u, v in zip(labels[a], labels[b]))
    # the same bound read off the 2-D projection computed by Fourier–Motzkin
    proj = Cone.from_facets(rr.facets(), labels=labels).project([labels[0], labels[7]], method="fourier_motzkin")
    assert [int(v) for v in proj.facets[0]] in ([27, -1], [-1, 27])


def test_dp_pair_bounds_are_graph_distances_and_match_rays():
    dp = pg.DifferentialPrivacy(path_graph(4), exp_eps=2)
    pairs = list(itertools.permutations(range(5), 2))
    ia, ib = [a for a, _ in pairs], [b for _, b in pairs]
    fwd, _ = dp.pair_bounds(ia, ib)
    gf, _ = generator_pair_bounds(dp.row_cone().rays, ia, ib, exact=True)
    assert list(fwd) == list(gf) == [F(2) ** abs(a - b) for a, b in pairs]


def test_generator_pair_bounds_zero_rules_and_float():
    G = np.array([[1.0, 0.0, 0.0], [1.0, 2.0, 0.0]])
    fwd, bwd = generator_pair_bounds(G, [0, 1, 2], [1, 2, 2], exact=False)
    assert fwd[0] == np.inf and bwd[0] == 2.0  # g = (1, 0) makes x_0 / x_1 unbounded
    assert fwd[1] == np.inf and bwd[1] == 0.0  # coordinate 2 vanishes on the cone
    assert fwd[2] == 0.0  # both coordinates vanish: the projection is {0}
    with pytest.raises(pg.InvalidInputError):
        generator_pair_bounds(np.array([[1, -1]]), [0], [1], exact=True)
