"""Facet and extreme-ray counts of ε-DP cones against derived formulas, cross-checked several ways.

Formulas (derived in the Notes of ``privgeom.definitions._dp_rays``; ``r = e^ε > 1``):

* facets: ``2|E|`` for every connected graph — ``K_n``: ``n(n−1)``; path ``P_n`` (``n`` edges): ``2n``; ``Q_k``:
  ``k 2^k``; cycle ``C_m``: ``2m``;
* rays = integer patterns ``u`` (mod translation) with ``|u_i − u_j| ≤ 1`` on edges whose tight edges connect all
  datasets: ``K_n``: ``2^n − 2``; ``P_n``: ``2^n``; even cycle ``C_m``: closed ±1 walks ``C(m, m/2)``; odd cycle: one
  flat edge and a closed walk on the rest, ``m · C(m−1, (m−1)/2)``; ``Q_k``: homomorphisms to ``Z``: 2, 6, 38, 990.

Cross-checks: pycddlib exact (``cdd.gmp``) double description from the inequalities alone (``row_cone()`` itself
lists rays by the enumeration, so it is not used as the reference) against the formula and against the structured
enumeration (:func:`dp_cone_rays`); an independent numpy rank test of extremality; float ``cdd`` against exact;
V → H → V round trip; the ray orbits of :func:`privgeom.dp_ray_orbits` against the orbits of the double description's
rays under the same group. The private kernels of the catalogue's (ε, δ)-DP membership (the size limits of its LP
cross-check) are tested here too.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import networkx as nx
import numpy as np
import pytest

from privgeom import ApproximateDP, SizeLimitError, automorphisms, dp_ray_orbits, randomized_response
from privgeom.testing import complete_graph, hamming_graph, path_graph
from privgeom.definitions._catalogue import (
    dp_cone_rays,
    dp_ray_count_lower_bound,
    dp_ray_patterns,
    hypercube_dp_ray_count,
)
from privgeom import DifferentialPrivacy
from privgeom.geometry import Cone


def cycle(m: int) -> nx.Graph:
    G = nx.cycle_graph([str(i) for i in range(m)])
    G.name = f"cycle{m}"
    return G


def ray_set(rays: np.ndarray) -> set[tuple[F, ...]]:
    """Rays up to positive scaling: each divided by its first non-zero entry."""
    out = set()
    for r in rays:
        first = next(v for v in r if v != 0)
        out.add(tuple(F(v) / F(first) for v in r))
    return out


def dd_cone(dp: DifferentialPrivacy, *, exact: bool = True) -> Cone:
    """The same cone from its inequalities *without* the ray enumeration: pycddlib's double description decides.

    (``DifferentialPrivacy.row_cone`` lists its rays with :func:`dp_cone_rays`, so comparing it with the enumeration
    would be circular.)
    """
    return Cone.from_facets(dp.inequalities(exact=exact), exact=exact, labels=dp.inputs)


def check_extreme(graph: nx.Graph, r: F, rays: np.ndarray) -> None:
    """Independent extremality test with plain numpy: each ray is feasible and its tight constraints have rank n − 1."""
    nodes = list(graph.nodes)
    idx = {v: i for i, v in enumerate(nodes)}
    n = len(nodes)
    rows = []
    for a, b in graph.edges:
        for i, j in ((idx[a], idx[b]), (idx[b], idx[a])):
            row = np.zeros(n)
            row[i], row[j] = -1.0, float(r)
            rows.append(row)
    A = np.array(rows)
    for ray in rays:
        x = np.array([float(v) for v in ray])
        slack = A @ x
        assert (slack >= -1e-9 * np.abs(x).max()).all()
        tight = A[np.abs(slack) <= 1e-9 * np.abs(x).max()]
        assert np.linalg.matrix_rank(tight) == n - 1


def check(graph: nx.Graph, r: F, n_facets: int, n_rays: int) -> None:
    dp = DifferentialPrivacy(graph, exp_eps=r)
    cone = dp.row_cone()
    assert cone.n_facets == n_facets
    assert cone.n_rays == n_rays and cone.is_pointed and cone.dim == graph.number_of_nodes()
    # independent 1: pycddlib's exact double description from the H-representation alone
    dd = dd_cone(dp)
    assert dd.n_facets == n_facets and dd.n_rays == n_rays
    # structured enumeration (no double description) gives exactly the same rays
    enum = dp_cone_rays(graph, r)
    assert len(enum) == n_rays
    assert ray_set(dd.rays) == ray_set(enum) == ray_set(cone.rays)
    # independent 2: every enumerated ray is extreme (rank test), and they are pairwise distinct (ray_set size)
    check_extreme(graph, r, enum)
    assert len(ray_set(enum)) == n_rays
    # V -> H -> V: the enumerated rays generate the cone with the same facets (small cases: pycddlib's
    # redundancy removal on generators costs seconds beyond ~100 rays)
    if n_rays <= 64:
        assert Cone.from_generators(enum, labels=dp.inputs) == cone
    # rays up to symmetry (orderly generation, docs/theory.md §7): the orbit sizes are those of the double
    # description's rays under the same group, and add up to their number
    orbits = dp_ray_orbits(dp)
    assert orbits.n_rays == n_rays
    generic = automorphisms(dp).orbits_of_rows(dd.rays)
    assert sorted(orbits.sizes) == sorted(o.size for o in generic)
    assert ray_set(orbits.rays()) <= ray_set(dd.rays)  # each representative is one of the extreme rays


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("r", [F(2), F(3, 2)])
def test_complete_graph(n: int, r: F) -> None:
    check(complete_graph(n), r, n * (n - 1), 2**n - 2)
    # the rays are the {1, r}-patterns with both values present (Kairouz–Oh–Viswanath staircase patterns)
    patterns = {tuple(int(v) for v in u) for u in dp_ray_patterns(complete_graph(n))}
    assert all(set(u) == {0, 1} for u in patterns) and len(patterns) == 2**n - 2


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 7])
def test_path(n: int) -> None:
    check(path_graph(n), F(3), 2 * n, 2**n)
    # every ray is a ±1 walk in the exponent
    for u in dp_ray_patterns(path_graph(n)):
        assert all(abs(int(u[i + 1]) - int(u[i])) == 1 for i in range(n))


@pytest.mark.parametrize("m", [3, 4, 5, 6, 7, 8])
def test_cycles(m: int) -> None:
    rays = comb(m, m // 2) if m % 2 == 0 else m * comb(m - 1, (m - 1) // 2)
    check(cycle(m), F(2), 2 * m, rays)


@pytest.mark.parametrize("k, rays", [(1, 2), (2, 6), (3, 38), (4, 990)])
def test_hypercube(k: int, rays: int) -> None:
    if k <= 3:
        check(hamming_graph(k), F(2), k * 2**k, rays)
    else:  # k = 4: exact double description from the inequalities (~1 s; float cdd takes ~20 s here)
        dd = dd_cone(DifferentialPrivacy.hamming(4, exp_eps=2))
        assert dd.n_facets == 64 and dd.n_rays == 990
        assert ray_set(dd.rays) == ray_set(dp_cone_rays(hamming_graph(4), 2))
    assert hypercube_dp_ray_count(k) == rays == len(dp_ray_patterns(hamming_graph(k)))
    assert dp_ray_count_lower_bound(hamming_graph(k)) <= rays


@pytest.mark.parametrize(
    "graph", [complete_graph(4), path_graph(4), hamming_graph(3), cycle(5)], ids=["K4", "P4", "Q3", "C5"]
)
def test_float_double_description_agrees_with_exact(graph: nx.Graph) -> None:
    exact = dd_cone(DifferentialPrivacy(graph, exp_eps=F(5, 2)))
    flt = dd_cone(DifferentialPrivacy(graph, exp_eps=2.5), exact=False)
    assert not flt.exact and flt.n_facets == exact.n_facets and flt.n_rays == exact.n_rays
    assert flt.to_exact(max_denominator=1000) == exact
    got = {tuple(np.round(np.asarray(r, dtype=float) / float(r[0]), 9)) for r in flt.rays}
    want = {tuple(np.round(np.asarray([float(v) for v in r]) / float(r[0]), 9)) for r in exact.rays}
    assert got == want


@pytest.mark.parametrize("seed", range(4))
def test_random_connected_graphs(seed: int) -> None:
    """The ray characterisation holds on arbitrary graphs: enumeration equals cdd, facets equal 2|E|."""
    G = nx.connected_watts_strogatz_graph(7, 3, 0.5, seed=seed)
    G = nx.relabel_nodes(G, {v: f"d{v}" for v in G.nodes})
    dp = DifferentialPrivacy(G, exp_eps=3)
    cone = dd_cone(dp)
    assert cone.n_facets == 2 * G.number_of_edges()
    assert ray_set(cone.rays) == ray_set(dp_cone_rays(G, 3))
    check_extreme(G, F(3), dp_cone_rays(G, 3))


def test_refusals_are_immediate_and_clear() -> None:
    with pytest.raises(SizeLimitError, match="at least 65,536 extreme rays"):
        dp_ray_patterns(hamming_graph(5))
    with pytest.raises(SizeLimitError, match="2\\^\\(2\\^5\\)"):
        hypercube_dp_ray_count(6)
    with pytest.raises(SizeLimitError, match="max_rays"):
        dp_ray_patterns(complete_graph(10), max_rays=100)
    with pytest.raises(SizeLimitError, match="search steps"):
        dp_ray_patterns(complete_graph(12), max_steps=1000)
    from privgeom import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="not connected"):
        dp_ray_patterns(nx.Graph([("a", "b"), ("c", "d")]))
    with pytest.raises(InvalidParameterError, match="exp_eps > 1"):
        dp_cone_rays(path_graph(2), 1)


def test_lp_size_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    import privgeom.definitions._approx_dp as mod
    from privgeom import SizeLimitError

    adp = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/4")
    M = randomized_response(2, "3/4")
    monkeypatch.setattr(mod, "MAX_CROSS_CHECK_VARIABLES", 4)
    ans = adp.contains(M)
    assert ans.member and "cross-check skipped" in ans.detail and ans.witness.lp_value is None
    monkeypatch.setattr(mod, "MAX_ADP_LP_VARIABLES", 4)
    with pytest.raises(SizeLimitError, match="auxiliary variables"):
        adp.contains(M, method="lp")


@pytest.mark.parametrize(
    "graph, r", [(path_graph(3), F(2)), (complete_graph(4), F(3, 2)), (hamming_graph(3), F(3))], ids=["P3", "K4", "Q3"]
)
def test_delta_zero_cone_is_generated_by_the_dp_rays(graph, r) -> None:
    """(ε, 0)-DP's row cone against the cone generated by the enumerated extreme rays ``r^u`` of ε-DP (independent:
    no double description from facets); the rest of δ = 0 is ε-DP is in test_catalogue_adp.py."""
    adp = ApproximateDP(graph, exp_eps=r, delta=0)
    cone = adp.row_cone()
    assert cone.equals(Cone.from_generators(dp_cone_rays(graph, r), labels=adp.inputs)).holds
