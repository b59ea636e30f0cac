"""The one fast-path protocol: a definition offers its structure per orbit (``orbit_structure()``, the protocol of
definitions/_orbit_structure.py) and the analyses' per-orbit routes (``orbit_summary``, ``orbit_relaxation``) take it
for ANY definition offering it — checked here on k-ary randomized response, which does not offer it itself — and
agree with the generic routes."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom import semantics
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
