"""The one fast-path protocol: a definition offers its structure per orbit (``orbit_structure()``, the protocol of
definitions/_orbit_structure.py) and the analyses' per-orbit routes (``orbit_summary``, ``orbit_relaxation``) take it
for ANY definition offering it — checked here on k-ary randomized response, which does not offer it itself — and
agree with the generic routes. Randomized response per orbit (its orbit structure, definitions/_rr_orbits.py, read by
the per-orbit routes of the analyses) against the generic routes, and the work it avoids, is checked below."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom import relax_pairwise, semantics
from privgeom.analyses.guarantees import _summary
from privgeom.analyses.relaxation import _difference_route
from privgeom.definitions import _rr_orbits
from privgeom.geometry import _structure
from privgeom.analyses.guarantees._summary import orbit_summary
from privgeom.analyses.relaxation._relax_orbits import orbit_relaxation
from privgeom.definitions._orbit_structure import (
    FacetOrbitData,
    OrbitStatus,
    OrbitStructure,
    OrbitStructured,
    PairOrbits,
    orbit_structure_of,
)


class OrbitKRR(pg.KaryRRDefinition):
    """k-ary randomized response on ``N`` values with integer ``γ = e^ε > 1``, described per orbit of ``S_N``.

    Its facets are ``f_z = (γ + N − 1) e_z − 1`` (Agrawal & Haritsa; definitions/_frapp.py): primitive integers with
    ``γ + N − 2`` at ``z`` and ``−1`` elsewhere, one orbit under ``S_N``. Every pair ``(a, b)`` has
    ``sup x_a / x_b = γ`` over the rows of the mechanism (Lin & Kifer, Section V), so the all-pairs relaxation is ε-DP
    on the complete graph, and for ``N ≥ 3`` the facet of ``z`` is lost: ``x_z = 1``, ``x_j = γ`` (``j ≠ z``) has
    ratios ``γ`` and ``1`` and facet value ``(γ + N − 2) − (N − 1) γ = (N − 2)(1 − γ) < 0``.
    """

    def orbit_structure(self) -> OrbitStructure:
        N, g = self.n_inputs, int(self.level.exp_eps)
        cone = self.row_cone()

        def normal(i: int) -> np.ndarray:
            row = np.full(N, -1, dtype=np.int64)
            row[i] = g + N - 2
            return row

        def all_pairs() -> PairOrbits:
            pairs = list(itertools.combinations(range(N), 2))
            x = np.full(N, g, dtype=np.int64)
            x[0] = 1
            status = OrbitStatus(
                representative=0, members=range(N), lost=True, witness=x, value=Fraction(int(normal(0) @ x))
            )

            def bounds(ia, ib):
                out = np.array([Fraction(1) if a == b else Fraction(g) for a, b in zip(ia, ib)], dtype=object)
                return out, out.copy()

            return PairOrbits(
                family="all-pairs",
                n_pairs=len(pairs),
                index_pair=pairs.__getitem__,
                bound=Fraction(g),
                statuses=(status,),
                relaxed_pair_bounds=bounds,
            )

        return OrbitStructure(
            name=self.spec(),
            cone=cone,
            group=pg.automorphisms(self),
            facet_orbits=(FacetOrbitData(size=N, representative=0, members=range(N)),),
            normal=normal,
            families={"all-pairs": all_pairs},
        )


@pytest.mark.parametrize("N,g", [(3, 2), (4, 3), (5, 4)])
def test_a_definition_offering_the_protocol_gets_the_per_orbit_routes(N, g):
    fast_d, slow_d = OrbitKRR(N, exp_eps=g), pg.KaryRRDefinition(N, exp_eps=g)
    assert isinstance(fast_d, OrbitStructured) and orbit_structure_of(slow_d) is None
    # the summary: per orbit, and the generic route's answer
    fast, slow = pg.describe_row_cone(fast_d), pg.describe_row_cone(slow_d)
    assert orbit_summary(fast_d) is not None and orbit_summary(slow_d) is None
    assert type(fast.facet_orbits[0]).__qualname__ == "_OrbitFacetOrbit"
    assert type(slow.facet_orbits[0]).__qualname__ == "FacetOrbit"
    assert fast.lines() == slow.lines()
    assert [o.size for o in fast.facet_orbits] == [o.size for o in slow.facet_orbits] == [N]
    assert list(fast.facet_orbits[0].normal) == list(slow.facet_orbits[0].normal) == [g + N - 2] + [-1] * (N - 1)
    assert fast.facet_orbits[0].guarantee.text == slow.facet_orbits[0].guarantee.text
    # the relaxation: per orbit (no LP), the same answer as the difference route's LP per orbit
    r_fast, r_slow = pg.relax(fast_d, "all-pairs"), pg.relax(slow_d, "all-pairs")
    assert orbit_relaxation(fast_d, "all-pairs") is not None and orbit_relaxation(slow_d, "all-pairs") is None
    assert type(r_fast).__qualname__ == "_OrbitRelaxation" and type(r_slow).__qualname__ == "Relaxation"
    assert (r_fast.recognised, r_fast.level.exp_eps) == (r_slow.recognised, r_slow.level.exp_eps) == ("dp", g)
    assert (len(r_fast.lost), r_fast.kept) == (len(r_slow.lost), r_slow.kept) == (N, 0)
    assert [(s.size, s.lost) for s in r_fast.statuses] == [(s.size, s.lost) for s in r_slow.statuses] == [(N, True)]
    assert r_fast.statuses[0].value == (N - 2) * (1 - g)  # the closed form of the class doc
    assert list(r_fast.subsets) == list(r_slow.subsets)
    assert [(b.pair, b.forward, b.backward) for b in r_fast.pair_bounds] == [
        (b.pair, b.forward, b.backward) for b in r_slow.pair_bounds
    ]
    assert r_fast.cone == r_slow.cone == pg.DifferentialPrivacy(r_slow.graph, exp_eps=g).row_cone()
    assert sorted(tuple(g_.coefficients) for g_ in r_fast.lost) == sorted(tuple(g_.coefficients) for g_ in r_slow.lost)
    assert r_fast.text.replace("witness", "LP") == r_slow.text
    # the witness: in the relaxed cone, violating the representative facet
    st = r_fast.statuses[0]
    assert r_fast.cone.contains([Fraction(int(v)) for v in st.witness]).member


def test_other_families_and_methods_take_the_generic_route():
    d = OrbitKRR(4, exp_eps=3)
    assert orbit_relaxation(d, "complete", "auto") is None  # a family the definition does not describe
    assert orbit_relaxation(d, "all-pairs", "cone") is None
    assert orbit_summary(d, rays=True) is None and orbit_summary(d, group=pg.automorphisms(d)) is None


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_randomized_response_fast_and_generic_routes_agree(k, monkeypatch):
    """RR on k bits: per orbit (k >= 2; k = 1 declines) and generic answers agree — the summary, the Hamming
    relaxation (Lin & Kifer Section V: ε-DP with e^ε = p/(1−p)) and the semantics (Theorem 4.3, closed form vs the
    canonical facets of the cone)."""
    rr = pg.RandomizedResponse(k, "3/4")
    assert (orbit_structure_of(rr) is None) == (k == 1)
    fast_s, fast_r = pg.describe_row_cone(rr), pg.relax_pairwise(rr, "hamming")
    monkeypatch.setattr(pg.RandomizedResponse, "orbit_structure", lambda self: None)  # the generic routes
    generic = pg.RandomizedResponse(k, "3/4")
    slow_s, slow_r = pg.describe_row_cone(generic), pg.relax_pairwise(generic, "hamming")
    assert fast_s.lines() == slow_s.lines()
    assert [(o.size, list(o.members)) for o in fast_s.facet_orbits] == [
        (o.size, list(o.members)) for o in slow_s.facet_orbits
    ]
    assert fast_s.facet_orbits[0].guarantee.text == slow_s.facet_orbits[0].guarantee.text
    assert (
        (fast_r.recognised, fast_r.level.exp_eps, fast_r.kept, len(fast_r.lost))
        == (slow_r.recognised, slow_r.level.exp_eps, slow_r.kept, len(slow_r.lost))
        == ("dp", 3, 2 if k == 1 else 0, 0 if k == 1 else 2**k)
    )
    assert fast_r.cone == slow_r.cone and list(fast_r.subsets) == list(slow_r.subsets)
    assert fast_r.text.replace("witness", "LP") == slow_r.text
    assert [list(g.coefficients) for g in semantics(rr)] == [list(g.coefficients) for g in semantics(rr.row_cone())]


def test_the_routes_name_no_definition():
    """The per-orbit routes read the protocol only: their code names no definition class (docstrings aside), and the
    closed-form guarantees of randomized response are a registered handler of the semantics dispatch (no type test
    inside its default)."""
    import ast
    import inspect
    import textwrap

    from privgeom.analyses.guarantees import _semantics, _summary
    from privgeom.analyses.relaxation import _relax_orbits

    def names(obj):
        tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
        return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
        }

    # ε-DP is what a pairwise relaxation is recognised as (built, not asked for); PrivacyDefinition annotates
    definitions = {name for name in dir(pg.definitions) if name[:1].isupper()} - {
        "DifferentialPrivacy",
        "PrivacyDefinition",
    }
    assert "RandomizedResponse" in definitions
    for obj in (_relax_orbits, _summary.orbit_summary, _summary._summary_of_orbits, _summary.describe_row_cone):
        assert not names(obj) & definitions, obj
    assert "isinstance" not in names(_semantics._semantics)
    assert _semantics._semantics.dispatch(pg.RandomizedResponse) is _semantics._rr_semantics
    assert _semantics._semantics.dispatch(pg.KaryRRDefinition) is _semantics._semantics.dispatch(object)


# ------------------------------------------------------------------------------ randomized response per orbit
def _generic_relaxation(rr):
    """The difference route without the per-orbit route (the family expanded first, as before)."""
    from privgeom.analyses.relaxation._relaxation import relaxation_domain, subset_family

    family = subset_family(relaxation_domain(rr, rr.row_cone().labels), "hamming")
    return _difference_route.relax_by_differences(rr, rr.row_cone(), family, required=True)


@pytest.mark.parametrize("k,p", [(2, "3/4"), (3, "2/3"), (5, "3/4"), (8, "3/4"), (6, "9/10")])
def test_relaxation_matches_generic(k, p):
    rr = pg.RandomizedResponse(k, p)
    fast = relax_pairwise(rr, "hamming")
    assert fast.statuses and fast.statuses[0].witness is not None and fast.symmetry.startswith("hypercube")
    slow = _generic_relaxation(rr)
    assert (fast.recognised, fast.level.exp_eps, str(fast.level.eps)) == (
        slow.recognised,
        slow.level.exp_eps,
        str(slow.level.eps),
    )
    assert fast.level.exp_eps == Fraction(p) / (1 - Fraction(p))  # Lin & Kifer Section V: e^eps = p/(1-p)
    assert (len(fast.lost), fast.kept, fast.n_facets) == (len(slow.lost), slow.kept, slow.n_facets) == (2**k, 0, 2**k)
    assert [(s.index, s.size, s.lost) for s in fast.statuses] == [(s.index, s.size, s.lost) for s in slow.statuses]
    assert list(fast.subsets) == list(slow.subsets)
    assert [(b.pair, b.forward, b.backward) for b in fast.pair_bounds] == [
        (b.pair, b.forward, b.backward) for b in slow.pair_bounds
    ]
    assert fast.graph is not None and set(map(frozenset, fast.graph.edges)) == set(map(frozenset, slow.graph.edges))
    assert fast.cone == slow.cone
    for j in (0, 1, 2**k - 1):
        assert fast.lost[j].text == slow.lost[j].text
        assert list(fast.lost[j].coefficients) == list(slow.lost[j].coefficients)
    assert fast.text.replace("witness", "LP") == slow.text


def test_lost_witness_is_in_the_dp_cone_and_violates_the_facet():
    rr = pg.RandomizedResponse(6, "3/4")
    st = relax_pairwise(rr, "hamming").statuses[0]
    x = [Fraction(int(v)) for v in st.witness]
    dp = pg.DifferentialPrivacy.hamming(6, exp_eps=3)
    assert dp.row_cone().contains(x).member
    value = sum(Fraction(int(a)) * v for a, v in zip(rr.facet(st.index, scaled=True), x))
    assert value == st.value < 0


@pytest.mark.parametrize("p", ["3/4", "2/3", "51/100"])
def test_lost_value_closed_form(p):
    """docs/theory.md §5: the witness value is (b−a)E − aO with E ± O = b^k, (2a−b)^k; negative for k >= 2."""
    for k in (2, 3, 6):
        rr = pg.RandomizedResponse(k, p)
        a, b = Fraction(p).numerator, Fraction(p).denominator
        E, O = (b**k + (2 * a - b) ** k) // 2, (b**k - (2 * a - b) ** k) // 2
        x, value = _rr_orbits.lost_witness(rr, 5 % 2**k)
        assert value == (b - a) * E - a * O < 0
        assert value == sum(int(c) * int(v) for c, v in zip(rr.facet(5 % 2**k, scaled=True), x))  # the dense dot


def test_summary_matches_generic():
    for k in (2, 5, 8):
        rr = pg.RandomizedResponse(k, "3/4")
        fast = pg.describe_row_cone(rr)
        assert orbit_summary(rr) is not None
        slow = pg.describe_row_cone(rr, group=pg.automorphisms(rr))  # a given group: the generic route
        assert fast.lines() == [
            line if "symmetry:" not in line else line.replace("a subgroup of the automorphisms", "all automorphisms")
            for line in slow.lines()
        ]
        assert [(o.size, o.representative, list(o.members)) for o in fast.facet_orbits] == [
            (o.size, o.representative, list(o.members)) for o in slow.facet_orbits
        ]
        assert fast.facet_orbits[0].guarantee.text == slow.facet_orbits[0].guarantee.text
        assert [Fraction(int(v)) for v in fast.facet_orbits[0].normal] == list(slow.facet_orbits[0].normal)


def test_analyze_text_matches_generic(monkeypatch, capsys):
    from privgeom.cli import main

    assert main(["analyze", "rr:k=8,p=3/4"]) == 0
    fast = capsys.readouterr().out
    monkeypatch.setattr(pg.RandomizedResponse, "orbit_structure", lambda self: None)  # the generic routes
    assert main(["analyze", "rr:k=8,p=3/4"]) == 0
    slow = capsys.readouterr().out
    assert fast.replace("one verified witness per orbit", "one verified LP per orbit") == slow
    assert "256 of 256 original guarantees are lost" in fast


def test_k20_without_dense_work(monkeypatch):
    """2^20 datasets: no dense facet matrix, no family expansion, no generic orbit search or LP (counted by
    forbidding them), and the answer of the theory: ε-DP with e^ε = 3, all 2^20 guarantees lost in one orbit."""

    def forbidden(*args, **kwargs):
        raise AssertionError("the generic route ran")

    from privgeom.analyses.relaxation import _relaxation

    monkeypatch.setattr(_structure, "kronecker_integer_rows", forbidden)
    monkeypatch.setattr(_relaxation, "subset_family", forbidden)
    monkeypatch.setattr(_difference_route, "relax_by_differences", forbidden)
    monkeypatch.setattr(_summary, "_kronecker_orbits", forbidden)
    monkeypatch.setattr(pg.RandomizedResponse, "facets", forbidden)
    rr = pg.RandomizedResponse(20, "3/4")
    r = relax_pairwise(rr, "hamming")
    assert (r.recognised, r.level.exp_eps, len(r.lost), [s.size for s in r.statuses]) == ("dp", 3, 2**20, [2**20])
    assert r.graph is None and r.cone.n_facets == 20 * 2**20 and len(r.subsets) == 10 * 2**20
    assert r.subsets[-1] == ("00000000000000000001", "00000000000000000000")
    s = pg.describe_row_cone(rr)
    assert (s.n_facets, len(s.facet_orbits), s.facet_orbits[0].size, s.group_order) == (
        2**20,
        1,
        2**20,
        2**20 * math.factorial(20),
    )
    assert s.facet_orbits[0].inequality.startswith("3486784401·X0 − 1162261467·X1")
    assert "parity of the bits relative to 00000000000000000000" in s.facet_orbits[0].guarantee.text
    assert r.lost[7].text.endswith("relative to 00000000000000000111).")


def test_per_orbit_routes_decline_other_cases():
    assert orbit_relaxation(pg.RandomizedResponse(1, "3/4"), "hamming", "auto") is None  # k = 1: nothing lost
    assert orbit_relaxation(pg.RandomizedResponse(3, "3/4"), "all-pairs", "auto") is None
    assert orbit_relaxation(pg.RandomizedResponse(3, 0.75), "hamming", "auto") is None
    assert orbit_relaxation(pg.RandomizedResponse(3, "1"), "hamming", "auto") is None
    assert orbit_relaxation(pg.RandomizedResponse(3, "3/4"), "hamming", "cone") is None
    assert orbit_summary(pg.RandomizedResponse(3, "3/4"), rays=True) is None
    assert relax_pairwise(pg.RandomizedResponse(1, "3/4")).kept == 2  # the generic route: RR(1) is ε-DP


def test_lazy_facet_row_matches_dense():
    cone = pg.RandomizedResponse(5, "3/4").row_cone()
    dense = _structure.kronecker_integer_rows(cone, "H")
    assert all(np.array_equal(_structure.kronecker_integer_row(cone, i), dense[i]) for i in range(32))


def test_definition_of_a_large_relaxation_is_dp_on_the_cube():
    """Beyond the stored graph (k > STORED_MAX_K) the relaxed definition is still ε-DP on the k-cube, built when read."""
    k = _rr_orbits.STORED_MAX_K + 1
    r = relax_pairwise(pg.RandomizedResponse(k, "3/4"), "hamming")
    assert r.graph is None
    d = r.definition
    assert (
        isinstance(d, pg.DifferentialPrivacy) and d.level.exp_eps == 3 and d.graph.number_of_edges() == k * 2 ** (k - 1)
    )
    assert tuple(d.inputs) == tuple(r.cone.labels)
    fwd, _ = r.cone.structure.pair_bounds(np.array([0, 0]), np.array([1, 3]))
    assert list(fwd) == [3, 9]  # e^{d ε} at graph distance d (Section V)
