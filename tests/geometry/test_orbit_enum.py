"""The orbit engine (adjacency decomposition on symmetric cones): the same canonical facets and rays as cdd and
Normaliz on symmetric inputs given only as matrices, the group found, and the fall back on asymmetric inputs."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom.geometry import Cone, use_engine
from privgeom.geometry import _orbit_enum, _row_group


def _bits(k: int) -> list[int]:
    return [bin(x).count("1") for x in range(1 << k)]


def _matrix_definition(M: pg.Mechanism) -> pg.FiniteDefinition:
    """A user's mechanism given only as its matrix: nothing tells the package it is randomized response."""
    return pg.FiniteDefinition([pg.Mechanism(M.matrix)])


def _facets(build, engine: str) -> list[list[int]]:
    with use_engine(engine):
        return build().int_facets.tolist()


def _hypercube_images(row: list[int], k: int) -> list[list[int]]:
    """The orbit of a row of R^{2^k} under the bit flips and bit permutations of the k-cube."""
    out = set()
    for flip in range(1 << k):
        for perm in itertools.permutations(range(k)):
            img = [0] * (1 << k)
            for x in range(1 << k):
                y = sum(((x >> perm[i]) & 1) << i for i in range(k)) ^ flip
                img[y] = row[x]
            out.add(tuple(img))
    return [list(r) for r in sorted(out)]


def _stochastic(rows: list[list[int]]) -> pg.Mechanism:
    """Rows whose column sums are equal (a row set invariant under a transitive group), divided by that sum."""
    s = {sum(col) for col in zip(*rows)}
    assert len(s) == 1
    total = s.pop()
    return pg.Mechanism([[Fraction(v, total) for v in r] for r in rows])


@pytest.mark.parametrize("k", [3, 4])
def test_randomized_response_matrix_by_orbit(k: int) -> None:
    # Lin & Kifer, Theorem 4.3: the facets of RR on k bits are the 2^k columns of ⊗^k [[p, p-1], [p-1, p]], one orbit
    # of the hypercube group (order 2^k k!)
    M = pg.randomized_response(k, "3/4")
    build = lambda: _matrix_definition(M).row_cone()  # noqa: E731
    by_orbit = _facets(build, "orbits")
    assert by_orbit == _facets(build, "cdd") == _facets(build, "normaliz")
    assert len(by_orbit) == 2**k
    R = build().int_rays
    out = _orbit_enum.orbit_facets(R)
    assert out.order == 2**k * math.factorial(k) and out.n_orbits == 1
    # the facet of string 0...0: p^k on x = 0...0 and (p-1)^h p^(k-h) scaled (p = 3/4: 3^(k-h) (-1)^h)
    col = [3 ** (k - h) * (-1) ** h for h in _bits(k)]
    assert col[::-1] in by_orbit or col in by_orbit


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_random_mechanism_symmetric_under_the_cube(seed: int) -> None:
    # a random row and its images under bit flips and permutations of 3 bits: a mechanism nobody taught the package
    rng = np.random.default_rng(seed)
    rows = _hypercube_images(rng.integers(1, 20, size=8).tolist(), 3)
    M = _stochastic(rows)
    build = lambda: pg.FiniteDefinition([M]).row_cone()  # noqa: E731
    assert _facets(build, "orbits") == _facets(build, "cdd")
    G = _row_group.row_automorphisms(build().int_rays)
    assert G.complete and G.order is not None and G.order % 48 == 0  # the cube's group is a subgroup


def test_random_mechanism_symmetric_under_bit_flips_only() -> None:
    # two random rows and their images under the 8 bit flips of 3 bits: 16 generators in R^8
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(2):
        r = rng.integers(1, 20, size=8).tolist()
        rows += [[r[x ^ f] for x in range(8)] for f in range(8)]
    M = _stochastic(rows)
    build = lambda: pg.FiniteDefinition([M]).row_cone()  # noqa: E731
    assert _facets(build, "orbits") == _facets(build, "cdd")
    G = _row_group.row_automorphisms(build().int_rays)
    assert G.complete and G.order is not None and G.order % 8 == 0


def test_hull_of_two_symmetric_definitions() -> None:
    rr, dp = pg.RandomizedResponse(3, "3/4"), pg.DifferentialPrivacy.hamming(3, exp_eps=2)
    build = lambda: pg.hull(rr, dp).row_cone()  # noqa: E731
    by_orbit = _facets(build, "orbits")
    assert by_orbit == _facets(build, "normaliz")
    assert len(by_orbit) == 1008


def test_rays_by_orbit_of_a_dp_cone() -> None:
    # H to V: the rays of ε-DP on the square (x_i ≤ 2 x_j on the edges of Q2) are the facets of the polar cone
    D = pg.DifferentialPrivacy.hamming(2, exp_eps=2)
    F = D.row_cone().int_facets.tolist()
    answers = {}
    for engine in ("orbits", "cdd", "normaliz"):
        with use_engine(engine):
            answers[engine] = Cone.from_facets(F).int_rays.tolist()
    assert answers["orbits"] == answers["cdd"] == answers["normaliz"]
    # by hand: x_u = 2^(2 - d(u, S)) for S one vertex (4 rays) or an antipodal pair of vertices (2 rays)
    labels = [int(s, 2) for s in D.inputs]
    dist = lambda u, S: min(bin(u ^ v).count("1") for v in S)  # noqa: E731
    sets = [[v] for v in range(4)] + [[0, 3], [1, 2]]
    expected = {tuple(2 ** (2 - dist(u, S)) for u in labels) for S in sets}
    assert {tuple(r) for r in answers["orbits"]} == {tuple(v // math.gcd(*e) for v in e) for e in expected}


def test_asymmetric_input_falls_back() -> None:
    rng = np.random.default_rng(3)
    G = rng.integers(1, 20, size=(12, 5)).tolist()
    assert _row_group.row_automorphisms(np.array(G)).is_trivial
    with use_engine("orbits"):
        by_orbit = Cone.from_generators(G).int_facets.tolist()
    with use_engine("cdd"):
        assert by_orbit == Cone.from_generators(G).int_facets.tolist()
    raw, why = _orbit_enum.orbit_route("V", np.array(G), np.zeros((0, 5), dtype=np.int64), forced=True, auto=False)
    assert raw is None and why == "trivial symmetry group"


def test_lower_dimensional_symmetric_cone_falls_back() -> None:
    # swapping x0 and x1 maps the generators to themselves, but the cone lies in the plane x0 + x1 = x2
    G = [[1, 0, 1], [0, 1, 1]]
    with use_engine("orbits"):
        c = Cone.from_generators(G)
        pair = (c.int_facets.tolist(), c.int_equalities.tolist())
    with use_engine("cdd"):
        d = Cone.from_generators(G)
        assert pair == (d.int_facets.tolist(), d.int_equalities.tolist())
    assert pair[1] == [[1, 1, -1]]
    assert (np.array(pair[0]) @ np.array(G).T == [[3, 0], [0, 3]]).all()  # each facet tight on the other generator


def test_auto_takes_the_orbit_engine_on_a_symmetric_input_in_r16(monkeypatch: pytest.MonkeyPatch) -> None:
    # randomized response on 4 bits as a plain matrix plus two noisy-weight outputs: group of order 2 · 4! = 48
    k, n = 4, 16
    h = _bits(k)
    rows = [[30 + (h[o ^ x] * 7) % 5 for x in range(n)] for o in range(n)]
    g = [3, 11, 5, 17, 2]
    rows += [[g[h[x]] for x in range(n)], [g[k - h[x]] for x in range(n)]]
    R = np.array(rows, dtype=np.int64)
    zero = np.zeros((0, n), dtype=np.int64)
    assert R.size < _orbit_enum.AUTO_ORBIT_ENTRIES  # 288 entries: cdd's in-process size, auto leaves it to cdd
    assert _orbit_enum.orbit_route("V", R, zero, forced=False, auto=True) == (None, "not considered")
    monkeypatch.setattr(_orbit_enum, "AUTO_ORBIT_ENTRIES", 200)
    assert _orbit_enum.orbit_route("V", R, zero, forced=False, auto=True) == (None, "symmetry group of order 48")
    monkeypatch.setattr(_orbit_enum, "AUTO_ORBIT_MIN_ORDER", 48)
    raw, why = _orbit_enum.orbit_route("V", R, zero, forced=False, auto=True)
    assert raw is not None and why.startswith("symmetry group of order 48")
    assert _orbit_enum.orbit_route("V", R, np.zeros((0, n), dtype=np.int64), forced=False, auto=False)[0] is None
    with use_engine("cdd"):
        expected = Cone.from_generators(rows).int_facets.tolist()
    assert Cone.from_generators(rows).int_facets.tolist() == expected  # auto, verified


def test_row_group_of_randomized_response_is_the_hypercube_group() -> None:
    for k in (2, 3):
        R = np.array(pg.randomized_response(k, "3/4").matrix * 4**k, dtype=np.int64)
        G = _row_group.row_automorphisms(R)
        assert G.complete and G.order == 2**k * math.factorial(k)
        for p in G.generators:  # every generator maps the rows onto themselves
            img = _row_group.act_on_rows(np.array(p), R)
            assert sorted(map(tuple, img.tolist())) == sorted(map(tuple, R.tolist()))


def test_row_group_budget_returns_a_subgroup() -> None:
    R = np.array(pg.randomized_response(3, "3/4").matrix * 64, dtype=np.int64)
    G = _row_group.row_automorphisms(R, max_work=2000)
    assert not G.complete and G.order is None
    with pg.limits(symmetry_steps=100):
        assert not _row_group.row_automorphisms(R).complete


def test_exact_kernels() -> None:
    rng = np.random.default_rng(11)
    for n in (2, 5, 9):
        W = rng.integers(-9, 10, size=(n, n)).tolist()
        cols = _orbit_enum._inverse_columns(W)
        assert cols is not None
        prod = np.array(W, dtype=object).dot(np.array(cols, dtype=object).T)
        assert all(prod[i, i] > 0 for i in range(n)) and not (prod - np.diag(np.diag(prod))).any()
    assert _orbit_enum._inverse_columns([[1, 2], [2, 4]]) is None
    # a vanishing leading minor (the rows are reordered) and entries past int64 (Python integers): same columns
    for W in ([[0, 1, 2, 3], [1, 0, 5, 0], [2, 0, 0, 1], [1, 1, 1, 0]], [[2**70, 1], [3, 2**65]]):
        assert _orbit_enum._inverse_columns(W) == _orbit_enum._inverse_columns_gcd(W)
    assert _orbit_enum._inverse_columns([[0, 1], [1, 0]]) == [[0, 1], [1, 0]]
    null = _orbit_enum._nullspace([[1, 1, 0], [0, 0, 1]], 3)
    assert null == [[-1, 1, 0]]
    # orbits under the 3-cycle, in int64 and past it: the same members, each key once
    cycle = [np.array([1, 2, 0])]
    for big in (5, 2**70):
        known: set = set()
        blocks = _orbit_enum._orbit([big, 1, 0], cycle, known)
        members = sorted(tuple(r) for b in blocks for r in b.tolist())
        assert members == [(0, big, 1), (1, 0, big), (big, 1, 0)] and len(known) == 3
