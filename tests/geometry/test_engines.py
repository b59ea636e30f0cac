"""The engine portfolio: identical exact answers across engines, forced methods, verification that refuses a wrong
engine answer, budgets counted in work, Clarkson's redundancy removal against cdd's."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom import SizeLimitError, SolverError
from privgeom.geometry import Cone, use_engine
from privgeom.geometry import _engines, _orbit_enum, _projection, _redundancy, _row_group, _verify

ENGINES = _engines.available_engines()


def _random_generators(n: int, dim: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return rng.integers(1, 20, size=(n, dim)).tolist()


def test_core_engines_installed() -> None:
    # PyNormaliz is a core dependency (manylinux wheels); pplpy is the extra [ppl], tested whenever it is installed
    assert ENGINES[:2] == ("cdd", "normaliz")


@pytest.mark.parametrize("seed", range(6))
def test_engines_agree_exactly_on_random_cones(seed: int) -> None:
    G = _random_generators(9 + seed % 3, 4 + seed % 3, seed)
    answers = {}
    for engine in ENGINES:
        with use_engine(engine):
            c = Cone.from_generators(G)
            answers[engine] = (c.int_facets.tolist(), c.int_equalities.tolist())
    assert len({str(a) for a in answers.values()}) == 1
    facets = np.array(answers["cdd"][0])
    assert (facets @ np.array(G).T >= 0).all()  # every facet valid on every generator


@pytest.mark.parametrize("engine", ENGINES)
def test_rr_example_4_4_by_every_engine(engine: str) -> None:
    # Lin & Kifer, Example 4.4: randomized response on two bits, p = 3/4, has the facet 9·x00 + 1·x11 - 3·x01 - 3·x10
    M = pg.randomized_response(2, "3/4")
    with use_engine(engine):
        c = Cone.from_generators(M.matrix, labels=M.inputs)
        assert c.n_facets == 4
    assert [1, -3, -3, 9] in c.int_facets.tolist()


@pytest.mark.parametrize("engine", ENGINES)
def test_h_to_v_by_every_engine_with_lineality(engine: str) -> None:
    # {x : x0 ≥ 0, x1 ≥ 0} in R^3: rays e0, e1 and the line along e2
    with use_engine(engine):
        c = Cone.from_facets([[1, 0, 0], [0, 1, 0]])
        rays, lin = c.int_rays.tolist(), c.int_lineality.tolist()
    assert rays == [[1, 0, 0], [0, 1, 0]] and lin == [[0, 0, 1]]


@pytest.mark.parametrize("engine", ENGINES)
def test_v_to_h_with_equalities(engine: str) -> None:
    # a cone in the plane x2 = 0 of R^3: the equality comes back, in canonical form
    with use_engine(engine):
        c = Cone.from_generators([[1, 0, 0], [1, 1, 0]])
        assert c.int_equalities.tolist() == [[0, 0, 1]]
        assert c.int_facets.tolist() == [[1, -1, 0], [0, 1, 0]]


def test_forced_method_is_used_and_auto_follows_the_table() -> None:
    for engine in ENGINES:
        assert _engines.choose("V", 3, 2, engine) == _engines.Choice(engine, "forced")
    big = _engines.AUTO_NORMALIZ_ENTRIES
    assert _engines.choose("V", big, 1, "auto").engine == "normaliz"
    assert _engines.choose("V", 2, 2, "auto").engine == "cdd"
    assert _engines.choose("H", 10_000, 16, "auto").engine == "cdd"
    with pytest.raises(pg.InvalidParameterError, match="unknown cone engine 'nmz'"):
        _engines.choose("V", 3, 2, "nmz")


def test_forced_engine_is_the_one_that_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    real = _engines._run

    def spy(engine: str, *args: object) -> object:
        seen.append(engine)
        return real(engine, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(_engines, "_run", spy)
    for engine in ENGINES:
        with use_engine(engine):
            Cone.from_generators([[1, 0], [1, 1], [0, 1], [2, 1]]).n_facets
    assert seen == list(ENGINES)


# ------------------------------------------------------------------------------------------------ verification
def _corrupt(monkeypatch: pytest.MonkeyPatch, change: object) -> None:
    real = _engines._engine_kernel

    def wrong(engine: str, kind: str, main: object, lin: object, dim: int) -> object:
        facets, eqs = real(engine, kind, main, lin, dim)
        return change(facets), eqs  # type: ignore[operator]

    monkeypatch.setattr(_engines, "_engine_kernel", wrong)


# the cone over a square: rays (1,±1,±1)... written with nonnegative entries: rays (1,0,0),(1,1,0),(1,1,1),(1,0,1)
SQUARE = [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "change, message",
    [
        (lambda f: f[:-1] + [[0, 0, 1], [1, -1, -1]], "facet·ray = -1"),  # an invalid inequality
        (lambda f: f + [[2, -1, 0]], "rank 1, not 2"),  # valid (x0 ≥ x1 doubled plus x0) but not a facet
        (lambda f: f[1:], "rays 0|rays 1|ray"),  # a facet missing: rays on it lose rank
        (lambda f: f + [[0, 0, 0]] and [[v * 2 for v in r] for r in f], None),  # scaled rows are re-normalised: fine
    ],
)
def test_verification_refuses_a_wrong_engine_answer(
    monkeypatch: pytest.MonkeyPatch, engine: str, change: object, message: str | None
) -> None:
    _corrupt(monkeypatch, change)
    with use_engine(engine):
        c = Cone.from_generators(SQUARE)
        if message is None:
            assert c.n_facets == 4
            return
        with pytest.raises(SolverError, match=f"{engine} returned a wrong answer") as err:
            c.facets
        assert "refused" in str(err.value)
    with use_engine("cdd"), pytest.raises(SolverError):  # the cone never stored the wrong answer
        c.facets


def test_dropped_facet_is_caught_by_the_ray_ranks() -> None:
    # the cone over a square: 4 rays, 4 facets; without one facet the two rays on it are tight on one facet only
    c = Cone.from_generators(SQUARE)
    R, F = c.int_rays, c.int_facets
    z = np.zeros((0, 3), dtype=np.int64)
    _verify.verify_pair((R, z), (F, z), engine="demo")
    with pytest.raises(SolverError, match=r"ray \d .* rank 1, not 2 \(not a ray\)"):
        _verify.verify_pair((R, z), (F[1:], z), engine="demo")


@pytest.mark.parametrize("seed", range(5))
def test_exact_signs_match_python_integers(seed: int) -> None:
    rng = np.random.default_rng(seed)
    big = [int(v) * 10**15 + int(w) for v, w in zip(rng.integers(-9, 9, 40), rng.integers(-9, 9, 40))]
    A = np.array(big[:20], dtype=object).reshape(5, 4)
    B = np.concatenate([A[:2] * 3, np.array(big[20:], dtype=object).reshape(5, 4)])
    B[0] = [A[1, 1], -A[1, 0], 0, 0]  # orthogonal to row 1 of A: an exact zero among huge products
    want = [[int(np.sign(sum(int(x) * int(y) for x, y in zip(a, b)))) for b in B] for a in A]
    assert _verify.exact_signs(A, B).tolist() == want
    assert want[1][0] == 0


# ------------------------------------------------------------------------------------------------------- budgets
def test_engine_rows_budget_counts_the_answer() -> None:
    with pg.limits(engine_rows=3):
        c = Cone.from_generators(SQUARE)
        with pytest.raises(SizeLimitError, match=r"returned 4 facets .* limit of 3 .*engine_rows"):
            c.facets
    assert Cone.from_generators(SQUARE).n_facets == 4


def test_engine_seconds_budget_stops_the_worker() -> None:
    import time

    with pg.limits(engine_seconds=1), pytest.raises(SizeLimitError, match="engine_seconds"):
        _engines.run_in_worker(time.sleep, (60,), "a sleeping engine")


def test_worker_errors_are_solver_errors() -> None:
    with pytest.raises(SolverError, match="ZeroDivisionError"):
        _engines.run_in_worker(divmod, (1, 0), "a failing engine")


def test_dimension_limit_bounds_every_engine() -> None:
    for engine in ENGINES:
        with use_engine(engine), pg.limits(dd_dim=3):
            c = Cone.from_generators(np.eye(4, dtype=int).tolist() + [[1, 1, 1, 1]])
            with pytest.raises(SizeLimitError, match="dd_dim"):
                c.facets


def test_upper_bound_theorem() -> None:
    # cyclic polytopes: a hexagon has 6 edges; a 4-polytope with 7 vertices at most n(n-3)/2 = 14 facets
    assert _engines.upper_bound_rows(6, 3) == 6
    assert _engines.upper_bound_rows(7, 5) == 7 * 4 // 2
    assert _engines.upper_bound_rows(30, 16) == 2 * math.comb(22, 7)


# ------------------------------------------------------------------------------------------------------ Clarkson
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind", ["H", "V"])
def test_clarkson_matches_cdd(seed: int, kind: str) -> None:
    rng = np.random.default_rng(seed)
    dim = 4 + seed % 3
    rows = rng.integers(1, 30, size=(40, dim)).astype(object)
    if kind == "H":  # inequalities around the positive direction: a_k·1 > 0 for every row
        rows = rows - rng.integers(0, 12, size=(40, dim)).astype(object)
        rows = rows[[sum(r) > 0 for r in rows.tolist()]]
    a, _ = _redundancy.canonicalize(rows, rows[:0], kind=kind, exact=True, method="clarkson")
    b, _ = _redundancy.canonicalize(rows, rows[:0], kind=kind, exact=True, method="cdd")

    def canon(x: np.ndarray) -> set[tuple[int, ...]]:
        return {tuple(v) for v in _engines.fast_canonical([[int(F(t)) for t in r] for r in x.tolist()], dim).tolist()}

    assert canon(a) == canon(b) and 0 < len(canon(a)) < len(rows)


def test_clarkson_certificates_on_a_known_system() -> None:
    # x ≥ 0, y ≥ 0 and the implied x + y ≥ 0, 2x + y ≥ 0, x + 3y ≥ 0: only the orthant's two facets remain
    rows = np.array([[1, 0], [0, 1], [1, 1], [2, 1], [1, 3]], dtype=object)
    assert _redundancy.clarkson(rows) == [0, 1]
    # no interior point (x ≥ 0 and -x ≥ 0): Clarkson declines, cdd finds the implicit equality
    flat = np.array([[1, 0], [-1, 0], [0, 1]], dtype=object)
    assert _redundancy.clarkson(flat) is None
    kept, lin = _redundancy.canonicalize(flat, flat[:0], kind="H", exact=True, method="clarkson")
    assert len(lin) == 2 and len(kept) == 1


def test_large_intersection_goes_through_clarkson(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = _redundancy.clarkson
    monkeypatch.setattr(_redundancy, "clarkson", lambda rows: calls.append(rows.shape) or real(rows))
    monkeypatch.setattr(_redundancy, "CLARKSON_MIN_ENTRIES", 400)
    rows = _random_generators(120, 4, 7)
    c = Cone.from_generators(rows)
    assert len(calls) == 1 and calls[0][1] == 4
    with use_engine("cdd"):
        assert c.n_facets == Cone.from_generators(rows[:]).n_facets


def test_compressed_ranks_agree_with_elimination() -> None:
    # a ray tight on many facets: the random compression C·T keeps the rank (a lower bound that is full here)
    rng = np.random.default_rng(3)
    rows = rng.integers(-50, 50, size=(200, 6))
    rows[:, 5] = rows[:, 0] + rows[:, 1]  # rank 5
    masks = np.ones((2, 200), dtype=bool)
    masks[1, 3:] = False  # rank 3
    assert _verify._compressed_ranks(rows, masks, rows[:0]).tolist() == [5, 3]
    assert _verify.batch_ranks_mod_p(rows, masks).tolist() == [5, 3]


# ------------------------------------------------------------------------------------ vectorised exact kernels
@pytest.mark.parametrize("seed", range(4))
def test_batched_ranks_equal_exact_ranks(seed: int) -> None:
    # tall, rank-deficient and single-matrix batches (a batch of one once aliased its input), with extra rows
    rng = np.random.default_rng(seed)
    n = 3 + seed
    rows = rng.integers(-3, 4, size=(40, n)) * (rng.random((40, n)) < 0.7)
    rows[-5:] = rows[:5] + rows[5:10]  # dependent rows
    for masks in (rng.random((60, 40)) < 0.4, np.ones((1, 40), dtype=bool), rng.random((1, 40)) < 0.2):
        ext = rows[:1] * 2 if seed % 2 else np.zeros((0, n), dtype=np.int64)
        got = _verify.batch_ranks_mod_p(rows, masks, ext)
        want = [_verify.int_rank(np.concatenate([rows[m], ext])) for m in masks]
        assert got.tolist() == want
    assert _verify.int_rank(np.array([[2**80, 3], [2**81, 6], [1, 1]], dtype=object)) == 2


def test_residues_of_big_integers_are_exact() -> None:
    rng = np.random.default_rng(7)
    vals = [int(a) * 2**60 + int(b) for a, b in zip(rng.integers(-(2**31), 2**31, 60), rng.integers(0, 2**60, 60))]
    A = np.array(vals + [-1, 0, 2**92 - 1, -(2**92)], dtype=object).reshape(8, 8)
    for p in _verify.PRIMES[:2] + (_verify.ELIM_PRIME,):
        assert _verify._mod_p(A, p).tolist() == [[v % p for v in r] for r in A.tolist()]


def test_fast_canonical_of_big_rows_is_primitive_sorted_and_unique() -> None:
    rows = [[3 * 2**70, 6], [0, 5], [2**70, 2], [-(2**70), 1]]
    out = _engines.fast_canonical(rows, 2)
    assert out.tolist() == [[2**69, 1], [0, 1], [-(2**70), 1]]  # the first two rows are one ray


def test_extreme_generators_from_the_facets_match_redundancy_removal() -> None:
    # many generators, most redundant (sums of others): the route through one conversion keeps exactly the extreme
    # ones that cdd's redundancy removal keeps, and the same facets
    rng = np.random.default_rng(3)
    base = rng.integers(1, 9, size=(12, 5))
    mix = rng.integers(0, 3, size=(400, 12)) @ base
    G = np.concatenate([base, mix[mix.any(axis=1)]])
    both = _engines.generators_verified(G, method="normaliz")
    assert both is not None
    (R, L), (Fa, E) = both
    with use_engine("cdd"):
        c = Cone.from_generators(G)
        assert R.tolist() == c.int_rays.tolist() and Fa.tolist() == c.int_facets.tolist() and L.shape[0] == 0
    # a cone with a line (x and -x) is not for this route
    assert _engines.generators_verified(np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0]] * 400), method="normaliz") is None


# ----------------------------------------------------------------------------------------------- projection
def test_every_projection_engine_gives_the_image_of_the_generators() -> None:
    # x0 ≥ x1 ≥ x2 ≥ 0 onto (x0, x2): x0 ≥ x2 ≥ 0, whichever engine eliminates (Lin & Kifer, Section V)
    c = Cone.from_facets([[1, -1, 0], [0, 1, -1], [0, 0, 1]])
    c.int_rays  # the generators are known: an elimination is checked on them
    for method in _projection.PROJECTION_METHODS:
        assert c.project([0, 2], method=method).int_facets.tolist() == [[1, -1], [0, 1]]


def test_a_wrong_elimination_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from privgeom.geometry._projection import ELIMINATIONS, Eliminator, Projected

    def too_tight(hrep, vrep, keep, exact):  # type: ignore[no-untyped-def]
        # x0 ≥ 2·x2 cuts off the projected generator (1, 1)
        return Projected("H", np.array([[F(1), F(-2)], [F(0), F(1)]], dtype=object), np.zeros((0, 2), dtype=object))

    monkeypatch.setitem(ELIMINATIONS, "block", Eliminator("cdd", "H", too_tight))
    c = Cone.from_facets([[1, -1, 0], [0, 1, -1], [0, 0, 1]])
    c.int_rays
    with pytest.raises(
        SolverError, match=r"wrong projection: the inequality \[1, -2\] fails on the projected generator"
    ):
        c.project([0, 2], method="block")


# ---------------------------------------------------------------------------------------------------- the orbit engine
# The orbit engine (adjacency decomposition on symmetric cones): the same canonical facets and rays as cdd and
# Normaliz on symmetric inputs given only as matrices, the group found, and the fall back on asymmetric inputs.


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


class _Clock:
    """A clock that moves ``step`` seconds each time it is read: the orbit engine's budget is tested on the
    readings, never on the wall clock."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def test_orbit_engine_is_stopped_by_engine_seconds(monkeypatch) -> None:
    # randomized response on 3 bits as a plain matrix takes the orbit route; every reading of the clock moves it 2 s,
    # so the second reading is past a budget of 1 s: refused with the limit named and how to raise it
    build = lambda: _matrix_definition(pg.randomized_response(3, "3/4")).row_cone()  # noqa: E731
    slow = _Clock(2.0)
    monkeypatch.setattr(_orbit_enum, "_clock", slow)
    with use_engine("orbits"), pg.limits(engine_seconds=1):
        with pytest.raises(SizeLimitError, match="engine_seconds") as err:
            build().int_facets
    assert str(err.value).startswith("orbits: stopped after") and "pg.set_limits(engine_seconds=" in str(err.value)
    # a clock that moves 1 ms a reading stays within the same budget: the same route answers, as cdd does
    quick = _Clock(0.001)
    monkeypatch.setattr(_orbit_enum, "_clock", quick)
    with pg.limits(engine_seconds=1):
        assert _facets(build, "orbits") == _facets(build, "cdd")
    assert quick.reads >= 2  # the budget was read, and never reached


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
