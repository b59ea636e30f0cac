"""Closed forms of the catalogue mechanisms' row cones, checked against pycddlib's exact double description."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest

import privgeom.definitions._catalogue  # noqa: F401  (registers the catalogue spec kinds)
from privgeom import FormatError, InvalidParameterError, InvalidTypeError, Mechanism
from privgeom.testing import path_graph
from privgeom.definitions import parse_definition
from privgeom.definitions._catalogue import frapp_facets, frapp_inverse, geometric_facets, geometric_inverse, krr_gamma
from privgeom import FrappDefinition, GeometricDefinition, KaryRRDefinition
from privgeom import DifferentialPrivacy
from privgeom import RandomizedResponse
from privgeom.geometry import Cone
from privgeom import frapp, kary_randomized_response, truncated_geometric


def kms_geometric(n: int, a: F) -> np.ndarray:
    """G = D K built from the definition (clamped two-sided geometric noise), independently of privgeom."""
    G = np.empty((n + 1, n + 1), dtype=object)
    for z in range(n + 1):
        d = 1 / (1 + a) if z in (0, n) else (1 - a) / (1 + a)
        for i in range(n + 1):
            G[z, i] = d * a ** abs(z - i)
    return G


def eye(n: int) -> np.ndarray:
    out = np.full((n, n), F(0), dtype=object)
    for i in range(n):
        out[i, i] = F(1)
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7])
@pytest.mark.parametrize("alpha", ["1/2", "1/3", "2/5"])
def test_geometric_inverse_is_tridiagonal_and_exact(n: int, alpha: str) -> None:
    a = F(alpha)
    G = kms_geometric(n, a)
    assert (truncated_geometric(n, alpha).matrix == G).all()
    inv = geometric_inverse(n, alpha)
    assert (G.dot(inv) == eye(n + 1)).all() and (inv.dot(G) == eye(n + 1)).all()
    for i, z in product(range(n + 1), repeat=2):
        if abs(i - z) > 1:
            assert inv[i, z] == 0
    # facets are positive multiples of the columns of G^{-1}
    fac = geometric_facets(n, alpha)
    for z in range(n + 1):
        ratios = {inv[i, z] / fac[z, i] for i in range(n + 1) if fac[z, i] != 0}
        assert len(ratios) == 1 and ratios.pop() > 0
        assert all(inv[i, z] == 0 for i in range(n + 1) if fac[z, i] == 0)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("alpha", ["1/2", "2/3"])
def test_geometric_facets_match_double_description(n: int, alpha: str) -> None:
    d = GeometricDefinition(n, alpha)
    dd = Cone.from_generators(d.mechanism.matrix, labels=d.inputs)  # cdd.gmp, from the rows
    closed = d.row_cone()
    assert closed == dd
    assert dd.n_facets == n + 1 and dd.n_rays == n + 1
    assert d.row_cone_decides_closure


@pytest.mark.parametrize("n", [2, 3, 4, 6])
@pytest.mark.parametrize("alpha", ["1/2", "1/3", "3/4"])
def test_geometric_closure_strictly_inside_dp_on_path(n: int, alpha: str) -> None:
    a = F(alpha)
    geo = GeometricDefinition(n, alpha).row_cone()
    dp = DifferentialPrivacy.path(n, exp_eps=1 / a).row_cone()
    assert geo.issubset(dp).holds
    back = dp.issubset(geo)
    assert not back.holds
    # verify the witness by hand: a DP row violating a geometric facet
    x, normal = back.witness, back.violated_normal
    assert all(x[i] <= x[i + 1] / a and x[i + 1] <= x[i] / a for i in range(n))
    assert sum(p * q for p, q in zip(normal, x)) < 0
    # the explicit witness of the proof: (1/α, 1, 1/α, …) against the interior facet z = 1
    w = [1 / a if i % 2 == 0 else F(1) for i in range(n + 1)]
    assert DifferentialPrivacy.path(n, exp_eps=1 / a).contains_row(w).member
    f1 = geometric_facets(n, alpha)[1]
    assert sum(p * q for p, q in zip(f1, w)) == a * a - 1 < 0


def test_geometric_with_one_step_equals_dp() -> None:
    """n = 1: only the boundary facets x_0 ≥ α x_1, x_1 ≥ α x_0, which are the DP edge inequalities."""
    assert GeometricDefinition(1, "1/3").row_cone() == DifferentialPrivacy.path(1, exp_eps=3).row_cone()


def frapp_kron(N: int, g: F, k: int) -> np.ndarray:
    x = 1 / (g + N - 1)
    A = np.full((N, N), x, dtype=object)
    for i in range(N):
        A[i, i] = g * x
    out = A
    for _ in range(k - 1):
        out = np.kron(out, A)
    return out


@pytest.mark.parametrize(
    "N, gamma, k", [(2, "3", 1), (3, "4", 1), (3, "5/2", 2), (2, "3", 3), (4, "2", 2), (2, "7/3", 4)]
)
def test_frapp_facets_closed_form_against_cdd(N: int, gamma: str, k: int) -> None:
    g = F(gamma)
    A = frapp_kron(N, g, k)
    assert (frapp(N, gamma, k).matrix == A).all()
    inv = frapp_inverse(N, gamma, k)
    assert (A.dot(inv) == eye(N**k)).all()
    fac = frapp_facets(N, gamma, k)
    # sign pattern: (−1)^h (γ+N−2)^{k−h}, h = number of records where the dataset differs from the facet's index
    digits = list(product(range(N), repeat=k))
    for zi, z in enumerate(digits):
        for ii, i in enumerate(digits):
            h = sum(s != t for s, t in zip(z, i))
            assert fac[zi, ii] == (-1) ** h * (g + N - 2) ** (k - h)
            assert (fac[zi, ii] > 0) == (h % 2 == 0)
    d = FrappDefinition(N, gamma, k)
    dd = Cone.from_generators(A, labels=d.inputs)
    assert d.row_cone() == dd and dd.n_facets == N**k and dd.n_rays == N**k


@pytest.mark.parametrize("k, p", [(1, "3/4"), (2, "3/4"), (3, "2/3")])
def test_frapp_on_bits_is_randomized_response(k: int, p: str) -> None:
    """N = 2, γ = p/(1−p): the randomized-response cone of Lin & Kifer (Theorem 4.3)."""
    pv = F(p)
    fr = FrappDefinition(2, pv / (1 - pv), k).row_cone()
    rr = RandomizedResponse(k, p)
    # FRAPP datasets "a,b,…" (value 0 first) vs RR bit strings (11…1 first): relabel and compare
    relabel = [s.replace(",", "") for s in fr.labels]
    order = [relabel.index(lab) for lab in rr.inputs]
    cone = Cone.from_facets(fr.facets[:, order], labels=rr.inputs)
    assert cone == rr.row_cone()


@pytest.mark.parametrize("n, gamma", [(2, "3"), (3, "2"), (4, "3"), (5, "9/4")])
def test_kary_rr_is_frapp_with_one_record(n: int, gamma: str) -> None:
    krr = KaryRRDefinition(n, exp_eps=gamma)
    assert krr.row_cone() == FrappDefinition(n, gamma, 1).row_cone()
    g = F(gamma)
    p = g / (g + n - 1)
    assert KaryRRDefinition(n, p=p).row_cone() == krr.row_cone() and krr_gamma(n, p=p) == g
    assert krr.row_cone() == Cone.from_generators(kary_randomized_response(n, exp_eps=gamma).matrix, labels=krr.inputs)
    # facets (γ + n − 2) x_z ≥ Σ_{i≠z} x_i: n facets, strictly inside local DP (K_n) with the same ε for n ≥ 3
    dp = DifferentialPrivacy.complete(n, exp_eps=g).row_cone()
    assert krr.row_cone().issubset(dp).holds
    assert dp.issubset(krr.row_cone()).holds == (n == 2)


@pytest.mark.parametrize("seed", range(4))
def test_closed_form_membership_agrees_with_linear_solve_and_lp(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for d in (GeometricDefinition(3, "1/2"), FrappDefinition(2, 3, 2), KaryRRDefinition(3, exp_eps=2)):
        n = d.n_inputs
        raw = rng.integers(1, 6, size=(3, n))
        M = Mechanism([[F(int(raw[o, i]), int(raw[:, i].sum())) for i in range(n)] for o in range(3)], inputs=d.inputs)
        P = d.mechanism.post_process(
            [
                [F(int(v), int(s)) for v, s in zip(row, raw.sum(axis=0)[: d.mechanism.n_outputs])]
                for row in raw[:, : d.mechanism.n_outputs]
            ]
        )
        for target in (M, P):
            answers = {m: d.contains(target, method=m) for m in ("closed-form", "linear-solve", "lp")}
            assert len({a.member for a in answers.values()}) == 1, answers
            assert answers["closed-form"].exact
        assert d.contains(P, method="closed-form").member


def test_spec_kinds_and_errors() -> None:
    assert parse_definition("geometric:n=4,alpha=1/2").spec() == "geometric:n=4,alpha=1/2"
    assert parse_definition("frapp:N=3,gamma=4,k=1").spec() == "frapp:N=3,gamma=4,k=1"
    assert parse_definition("frapp:N=3,gamma=4").spec() == "frapp:N=3,gamma=4,k=1"
    assert parse_definition("krr:n=4,exp_eps=3").spec() == "krr:n=4,exp_eps=3"
    assert parse_definition("krr:n=4,p=1/2").level.exp_eps == 3
    assert parse_definition("krr:n=4,eps=ln(3)").level.exp_eps == 3
    assert parse_definition("geometric:n=2,alpha=0.5,exact=false").exact is False
    g1 = parse_definition("frapp:N=2,gamma=1")  # γ = 1: constant mechanism, no closed form, generic methods
    assert "closed-form" not in g1.membership_methods and g1.row_cone().dim == 1
    with pytest.raises(FormatError, match="alpha"):
        parse_definition("geometric:n=4")
    with pytest.raises(FormatError, match="exactly one"):
        parse_definition("krr:n=4,exp_eps=3,p=1/2")
    with pytest.raises(FormatError, match="not an integer"):
        parse_definition("frapp:N=three,gamma=4")
    with pytest.raises(InvalidParameterError, match="alpha"):
        parse_definition("geometric:n=4,alpha=3/2")
    with pytest.raises(InvalidParameterError):
        GeometricDefinition(0, "1/2")
    with pytest.raises(InvalidTypeError):
        GeometricDefinition(2.5, "1/2")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="gamma > 1"):
        frapp_facets(2, 1)
    with pytest.raises(InvalidParameterError, match="singular"):
        frapp_inverse(3, 1)
    with pytest.raises(InvalidParameterError, match="exactly one"):
        krr_gamma(3)
    with pytest.raises(InvalidParameterError):
        krr_gamma(3, p="1/4")
    with pytest.raises(InvalidParameterError, match="unknown membership method"):
        FrappDefinition(2, 1).contains(frapp(2, 1), method="closed-form")


def test_float_mode_closed_form() -> None:
    d = GeometricDefinition(3, 0.5)
    assert not d.exact
    ans = d.contains(truncated_geometric(3, 0.6), method="closed-form")
    assert ans.member and not ans.exact
    no = d.contains(truncated_geometric(3, 0.3), method="closed-form")
    assert not no.member and no.certificate.value < 0
    assert d.row_cone().to_exact(max_denominator=100) == GeometricDefinition(3, "1/2").row_cone()
    assert path_graph(3).number_of_nodes() == d.n_inputs
