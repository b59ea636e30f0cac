"""Extreme rays of ε-DP cones by orbit: orderly generation against the full enumeration.

Theory (``docs/theory.md`` §7, Notes of ``privgeom.definitions._ray_orbits``): the rays are ``r^u`` for integer
patterns ``u`` (mod translation) with ``|u_i − u_j| ≤ 1`` on edges and spanning tight edges; the automorphisms of the
graph permute them; each orbit is reported once by its lex-leader, with size ``|G| / |Stab(u)|``.

Checks, each independent of the search:

* totals: the orbit sizes add up to the full enumeration's count (:func:`dp_ray_patterns`) and to the closed forms:
  ``Q_1..Q_4``: 2, 6, 38, 990 (``Q_5``: 395,094, :func:`hypercube_dp_ray_count`); ``K_n``: ``2^n − 2`` in ``n − 1``
  orbits of sizes ``C(n, m)``; paths with ``n`` edges: ``2^n`` rays in ``(2^n + 2^{n/2}[n even]) / 2`` orbits
  (Burnside for the reversal); cycles against the full enumeration;
* orbits: applying every group element to the representatives gives exactly the full set of patterns, each orbit
  of the announced size, the orbits pairwise disjoint (so the canonical forms are distinct);
* extremality: the tight constraints of each representative ray ``3^u`` have exact rank ``N − 1``;
* work: the orbit route takes fewer search steps than the full enumeration is allowed (counted, never timed).
"""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import pytest

import privgeom as pg
from privgeom import DifferentialPrivacy, SizeLimitError
from privgeom.testing import hamming_graph
from privgeom.definitions import dp_ray_orbits
from privgeom.results import RayOrbits
from privgeom.definitions._catalogue import dp_ray_patterns, hypercube_dp_ray_count
from privgeom.geometry._lp import exact_rank
from privgeom.results import SymmetryGroup


def all_elements(dp: DifferentialPrivacy) -> list[tuple[int, ...]]:
    """The group of the definition by closure (independent of the module's own closure)."""
    gens = pg.automorphisms(dp).generators
    n = len(dp.inputs)
    seen = {tuple(range(n))}
    todo = list(seen)
    while todo:
        a = todo.pop()
        for g in gens:
            b = tuple(a[g[i]] for i in range(n))
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return sorted(seen)


def normalise(u) -> tuple[int, ...]:
    lo = min(u)
    return tuple(int(v) - lo for v in u)


def image(p, u) -> tuple[int, ...]:
    out = [0] * len(u)
    for i, v in enumerate(u):
        out[p[i]] = int(v)
    return normalise(out)


def check_against_full(dp: DifferentialPrivacy) -> RayOrbits:
    orb = dp_ray_orbits(dp)
    full = {normalise(u) for u in dp_ray_patterns(dp.graph)}
    elements = all_elements(dp)
    assert orb.group_order == len(elements)
    union: set[tuple[int, ...]] = set()
    for u, size in zip(orb.patterns.tolist(), orb.sizes):
        assert min(u) == 0
        members = {image(p, u) for p in elements}
        assert len(members) == size  # orbit–stabiliser: the announced size is the orbit's
        assert not members & union  # disjoint orbits: distinct canonical forms
        union |= members
    assert union == full and orb.n_rays == len(full)
    return orb


def tight_rank(dp: DifferentialPrivacy, u, r: int = 3) -> int:
    rows = []
    for i, j in zip(*dp.index_pairs):
        i, j = int(i), int(j)
        if abs(u[i] - u[j]) == 1:
            hi, lo = (i, j) if u[i] > u[j] else (j, i)  # x_hi = r x_lo is tight
            row = [Fraction(0)] * len(u)
            row[hi], row[lo] = Fraction(1), Fraction(-r)
            rows.append(row)
    return exact_rank(rows) if rows else 0


# ------------------------------------------------------------------------------------------------ hypercubes
@pytest.mark.parametrize("k,rays,orbits", [(1, 2, 1), (2, 6, 2), (3, 38, 5), (4, 990, 24)])
def test_hypercube_orbits_cover_the_full_enumeration(k, rays, orbits):
    dp = DifferentialPrivacy.hamming(k, exp_eps=3)
    orb = check_against_full(dp)
    assert orb.n_rays == rays == hypercube_dp_ray_count(k) and orb.n_orbits == orbits
    assert orb.group_source == ("symmetric" if k == 1 else "hypercube")  # Q_1 is K_2
    assert orb.group_order == 2**k * math.factorial(k)
    assert all(orb.group_order % s == 0 for s in orb.sizes)
    for u in orb.patterns.tolist():
        assert tight_rank(dp, u) == 2**k - 1  # an extreme ray of the cone in R^(2^k)


def test_hypercube_q4_sizes_match_the_generic_orbits_of_the_rays():
    """Same multiset of orbit sizes as the generic route (hashing the permuted canonical rays of the cone)."""
    dp = DifferentialPrivacy.hamming(4, exp_eps=3)
    generic = sorted(o.size for o in pg.automorphisms(dp).orbits_of_rows(dp.row_cone().rays))
    assert sorted(dp_ray_orbits(dp).sizes) == generic


@pytest.mark.slow
def test_hypercube_q5_total_is_the_full_count():
    orb = dp_ray_orbits(DifferentialPrivacy.hamming(5, exp_eps=3))
    assert orb.n_rays == 395_094 == hypercube_dp_ray_count(5)
    assert orb.n_orbits == 434 and all(3840 % s == 0 for s in orb.sizes)
    dp = DifferentialPrivacy.hamming(5, exp_eps=3)
    for u in orb.patterns.tolist()[::20]:
        assert tight_rank(dp, u) == 31


def test_q5_orbits_in_far_fewer_steps_than_the_full_enumeration_is_refused_at():
    """Counted work: the orbit route lists Q5 in a few thousand search steps; the full enumeration is refused with
    ten times that budget (and needs 395,094 leaves at least)."""
    orb = dp_ray_orbits(DifferentialPrivacy.hamming(5, exp_eps=3))
    assert orb.n_rays == 395_094 and orb.steps < 10_000
    with pytest.raises(SizeLimitError, match="search steps"):
        dp_ray_patterns(hamming_graph(5), max_rays=400_000, max_steps=10 * orb.steps)


# ------------------------------------------------------------------------------------------------ other graphs
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_complete_graph_orbits_by_number_of_high_values(n):
    dp = DifferentialPrivacy.complete(n, exp_eps=2)
    orb = check_against_full(dp) if n <= 6 else dp_ray_orbits(dp)
    assert orb.group_source == "symmetric" and orb.n_orbits == n - 1
    assert sorted(orb.sizes) == sorted(math.comb(n, m) for m in range(1, n))
    assert orb.n_rays == 2**n - 2
    assert sorted(int(u.sum()) for u in orb.patterns) == list(range(1, n))  # m datasets at r, the rest at 1


def test_complete_graph_without_listing_the_symmetric_group():
    """K_20: 20! elements are never listed (the lex-leader is the sorted pattern); 2^20 − 2 rays in 19 orbits."""
    with pg.limits(dp_ray_group=1, dp_ray_steps=1000):
        orb = dp_ray_orbits(DifferentialPrivacy.complete(20, exp_eps=3))
    assert orb.n_rays == 2**20 - 2 and orb.n_orbits == 19 and orb.group_order == math.factorial(20)
    big = dp_ray_orbits(DifferentialPrivacy.complete(120, exp_eps=3))  # deeper than a small recursion limit allows
    assert big.n_orbits == 119 and big.n_rays == 2**120 - 2 and big.steps < 120 * 121


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8])
def test_path_orbits_burnside(n):
    dp = DifferentialPrivacy.path(n, exp_eps=2)
    orb = check_against_full(dp)
    fixed = 2 ** (n // 2) if n % 2 == 0 else 0  # walks equal to their reversed negation
    assert orb.n_rays == 2**n and orb.n_orbits == (2**n + fixed) // 2
    assert orb.group_source == ("symmetric" if n == 1 else "reversal") and set(orb.sizes) <= {1, 2}  # P_1 is K_2


@pytest.mark.parametrize("m", [3, 4, 5, 6, 7, 8])
def test_cycle_orbits_against_formula_and_full_enumeration(m):
    G = nx.cycle_graph([str(i) for i in range(m)])
    dp = DifferentialPrivacy(G, exp_eps=3)
    orb = check_against_full(dp)
    rays = math.comb(m, m // 2) if m % 2 == 0 else m * math.comb(m - 1, (m - 1) // 2)
    assert orb.n_rays == rays and orb.group_order == 2 * m  # the dihedral group
    for u in orb.patterns.tolist():
        assert tight_rank(dp, u) == m - 1


@pytest.mark.parametrize(
    "graph",
    [
        nx.petersen_graph(),
        nx.balanced_tree(2, 2),
        nx.wheel_graph(6),
        nx.complete_bipartite_graph(2, 3),
        nx.ladder_graph(3),
    ],
    ids=["petersen", "tree", "wheel", "K23", "ladder"],
)
def test_other_graphs_against_full_enumeration(graph):
    G = nx.relabel_nodes(graph, {v: str(v) for v in graph.nodes})
    dp = DifferentialPrivacy(G, exp_eps=2)
    orb = check_against_full(dp)
    for u in orb.patterns.tolist():
        assert tight_rank(dp, u, r=2) == len(u) - 1


def test_a_subgroup_gives_finer_orbits_with_the_same_total():
    dp = DifferentialPrivacy.hamming(3, exp_eps=3)
    flip = pg.automorphisms(dp).generators[0]  # one bit flip: a group of order 2
    sub = SymmetryGroup(labels=dp.inputs, generators=(flip,), source="one flip", order=2, complete=False)
    orb = dp_ray_orbits(dp, group=sub)
    assert orb.n_rays == 38 and orb.group_order == 2 and orb.n_orbits == 19
    assert dp_ray_orbits(dp, group=SymmetryGroup.trivial(dp.inputs)).n_orbits == 38


# ------------------------------------------------------------------------------------------------ the result
def test_result_rays_json_and_graph_input():
    orb = dp_ray_orbits(DifferentialPrivacy.complete(3, exp_eps="3/2"))
    assert orb.rays().tolist() == [[2, 2, 3], [2, 3, 3]]  # p^u q^(max u - u) with r = 3/2
    assert orb.rays(5).tolist() == [[1, 1, 5], [1, 5, 5]]
    assert not orb.patterns.flags.writeable
    d = orb.to_dict()
    assert d["n_rays"] == 6 and d["orbits"] == [{"size": 3, "pattern": [0, 0, 1]}, {"size": 3, "pattern": [0, 1, 1]}]
    assert "6 extreme rays in 2 orbits of the symmetric group of order 6" in orb.summary()
    bare = dp_ray_orbits(hamming_graph(3))
    assert bare.n_rays == 38 and bare.level is None
    with pytest.raises(pg.InvalidParameterError, match="need exp_eps"):
        bare.rays()


def test_describe_row_cone_and_cli_report_q5_by_orbit(capsys):
    from privgeom import describe_row_cone
    from privgeom.cli import main

    s = describe_row_cone(DifferentialPrivacy.hamming(4, exp_eps=3), rays=True)
    assert s.n_rays == 990 and len(s.ray_orbits) == 24 and sum(size for size, _ in s.ray_orbits) == 990
    s = describe_row_cone(DifferentialPrivacy.complete(4, exp_eps=3), rays=True)
    assert [t for _, t in s.ray_orbits] == [
        "(0: 1, 1: 1, 2: 1, 3: 3)",
        "(0: 1, 1: 1, 2: 3, 3: 3)",
        "(0: 1, 1: 3, 2: 3, 3: 3)",
    ]
    code = main(["rowcone", "dp:graph=hamming,k=5,exp_eps=3", "--rays"])
    out = capsys.readouterr().out
    assert code == 0 and "395,094 extreme rays" in out and "extreme rays: 395,094 in 434 orbits" in out
    assert "- 2 × x_D = 3^u_D with u = (0 1 1 0" in out


# ------------------------------------------------------------------------------------------------ refusals
def test_bad_inputs_are_typed_errors():
    with pytest.raises(pg.InvalidParameterError, match="exp_eps > 1"):
        dp_ray_orbits(DifferentialPrivacy.hamming(2, exp_eps=1))
    with pytest.raises(pg.InvalidParameterError, match="not connected"):
        dp_ray_orbits(DifferentialPrivacy(nx.Graph([("a", "b"), ("c", "d")]), exp_eps=2))
    with pytest.raises(pg.InvalidTypeError, match="RandomizedResponse"):
        dp_ray_orbits(pg.RandomizedResponse(2, "3/4"))  # type: ignore[arg-type]
    dp = DifferentialPrivacy.path(3, exp_eps=2)
    swap = SymmetryGroup(
        labels=dp.inputs, generators=((1, 0, 2, 3),), source="swap", order=2, complete=False
    )  # not an automorphism of the path
    with pytest.raises(pg.InvalidInputError, match="does not map the neighbour graph"):
        dp_ray_orbits(dp, group=swap)
    with pytest.raises(pg.InvalidParameterError, match="max_orbits must be >= 1"):
        dp_ray_orbits(dp, max_orbits=0)


def test_size_limits_refuse_before_or_while_searching():
    with pytest.raises(SizeLimitError, match=r"at least 93,207 orbits.*max_orbits=93207"):
        dp_ray_orbits(DifferentialPrivacy.hamming(6, exp_eps=3))  # 2^32 rays / 46,080 elements: before searching
    with pytest.raises(SizeLimitError, match=r"more than 4 orbits.*max_orbits=N"):
        dp_ray_orbits(DifferentialPrivacy.hamming(3, exp_eps=3), max_orbits=4)  # 5 orbits, found while searching
    with pytest.raises(SizeLimitError, match=r"more than 10 search steps"):
        dp_ray_orbits(DifferentialPrivacy.hamming(3, exp_eps=3), max_steps=10)
    with pytest.raises(SizeLimitError, match=r"48 elements.*max_elements|dp_ray_group=48"):
        dp_ray_orbits(DifferentialPrivacy.hamming(3, exp_eps=3), max_elements=47)
    assert (
        dp_ray_orbits(DifferentialPrivacy.hamming(3, exp_eps=3), max_orbits=5, max_steps=24, max_elements=48).n_rays
        == 38
    )
