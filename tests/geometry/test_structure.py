"""Structure-aware cones: closed-form facets/rays agree with double description; counts need no dense matrix."""

from __future__ import annotations

import random
from fractions import Fraction as F

import networkx as nx
import numpy as np
import pytest

import privgeom as pg
from privgeom.geometry import Cone
from privgeom.testing import complete_graph, hamming_graph, path_graph


def _generic(cone_rows, labels, exact=True):
    return Cone.from_facets(cone_rows, exact=exact, labels=labels)


@pytest.mark.parametrize("k,p", [(1, "3/4"), (2, "3/4"), (3, "2/3"), (4, "9/10"), (5, "3/5")])
def test_rr_canonical_facets_equal_cdd_canonical_form(k, p):
    rr = pg.RandomizedResponse(k, p)
    cone = rr.row_cone()
    assert cone.structure.kind == "kronecker"
    generic = _generic(rr.facets(), rr.inputs)
    assert np.array_equal(cone.facets, generic.facets)
    assert all(isinstance(v, F) for v in cone.facets.ravel())
    assert cone == generic
    assert np.array_equal(cone.rays, Cone.from_generators(rr.mechanism.matrix, labels=rr.inputs).rays)


def test_rr_float_structure_matches_generic():
    rr = pg.RandomizedResponse(3, 0.7)
    assert rr.row_cone() == _generic(rr.facets(), rr.inputs, exact=False)


def _graphs():
    yield "path", path_graph(4)
    yield "cycle", nx.relabel_nodes(nx.cycle_graph(5), str)
    yield "complete", complete_graph(4)
    yield "hamming", hamming_graph(3)
    yield "petersen", nx.relabel_nodes(nx.petersen_graph(), str)
    g = nx.Graph([("a", "b"), ("b", "c"), ("d", "e")])
    g.add_node("f")  # disconnected, with an isolated dataset
    yield "disconnected", g
    rnd = nx.gnp_random_graph(7, 0.4, seed=3)
    yield "random", nx.relabel_nodes(rnd, str)


@pytest.mark.parametrize("name,graph", list(_graphs()))
@pytest.mark.parametrize("ratio", [F(3), F(3, 2)])
def test_dp_closed_form_facets_are_the_irredundant_ones(name, graph, ratio):
    dp = pg.DifferentialPrivacy(graph, exp_eps=ratio)
    cone = dp.row_cone()
    assert cone.structure.kind == "difference"
    generic = _generic(dp.inequalities(), dp.inputs)  # cdd removes the redundant rows
    assert cone.n_facets == generic.n_facets  # from the structure, before building
    assert np.array_equal(cone.facets, generic.facets), name
    assert cone.dim == generic.dim and cone.is_pointed == generic.is_pointed


def test_dp_ratio_one_keeps_the_generic_route():
    dp = pg.DifferentialPrivacy(path_graph(3), exp_eps=1)
    cone = dp.row_cone()
    assert cone.structure is None and len(cone.equalities) == 3


@pytest.mark.parametrize("spec", ["geometric:n=4,alpha=1/2", "krr:n=4,exp_eps=3", "frapp:N=3,gamma=4,k=2"])
def test_closed_form_catalogue_cones(spec):
    d = pg.parse_definition(spec)
    cone = d.row_cone()
    assert cone.structure.kind == "simplicial"
    assert cone.n_facets == cone.n_rays == cone.dim == d.n_inputs
    generic = _generic(d.closed_form_facets(), d.inputs)
    assert np.array_equal(cone.facets, generic.facets)
    assert np.array_equal(cone.rays, Cone.from_generators(d.mechanism.matrix, labels=d.inputs).rays)


def test_counts_membership_and_bounds_without_dense_matrices():
    rr = pg.RandomizedResponse(14, "3/4")
    cone = rr.row_cone()
    assert (cone.n_facets, cone.n_rays, cone.dim, cone.is_pointed) == (2**14, 2**14, 2**14, True)
    x = [F(1)] * 2**14
    assert cone.contains(x).member
    x[0] = F(100)
    m = cone.contains(x)
    assert not m.member and m.value < 0 and m.violated is None
    assert cone._h is None and cone._v is None  # nothing dense was built
    with pytest.raises(pg.SizeLimitError, match="exact_entries"):
        cone.facets
    dp = pg.DifferentialPrivacy.path(20000, exp_eps=3).row_cone()
    assert dp.n_facets == 40000 and dp.contains([F(1)] * 20001).member
    with pytest.raises(pg.SizeLimitError):
        dp.facets


@pytest.mark.parametrize("seed", range(6))
def test_structured_membership_agrees_with_facets(seed):
    rng = random.Random(seed)
    for d in (pg.RandomizedResponse(3, "3/4"), pg.DifferentialPrivacy(hamming_graph(2), exp_eps=2)):
        fresh, built = d.row_cone(), d.row_cone()
        built.facets  # force the facet route
        for _ in range(10):
            x = [F(rng.randint(0, 9), rng.randint(1, 4)) for _ in range(len(d.inputs))]
            assert fresh.contains(x).member == built.contains(x).member
