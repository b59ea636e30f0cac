"""Exact optima of the optimal-mechanism LPs: rational inputs give exact, re-verified optima on
every route, recovered from HiGHS's optimal basis (cdd's exact simplex as the fallback), never rounded floats. The
private kernels of the optimal routes (LP sizes and their refusals, ratio-row membership, the solver fallback of
least_informative) are tested here too.

The universality of the geometric mechanism (Ghosh, Roughgarden & Sundararajan 2009/2012; docs/theory.md,
"Exact optima from the optimal basis"): for ε-DP on the path 0 – 1 – … – n and every prior and every loss that is
non-decreasing in |D − ω|, the optimum over ε-DP equals the optimum over the closure of the truncated geometric
mechanism with α = e^−ε. Both are computed exactly by different LPs (the rows LP and the closure LP) and compared as
Fractions.
"""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom import SizeLimitError, SolverError
from privgeom.analyses.optimal import _optimal_adp
from privgeom.analyses.optimal._optimal import MAX_OPTIMAL_LP_SIZE, closure_constraints
from privgeom.analyses.optimal._optimal_lp import optimal_lp_size
from privgeom.analyses.optimal._optimal_sym import ratio_rows_membership
from privgeom import least_informative, optimal_mechanism
from privgeom.definitions import DifferentialPrivacy, FiniteDefinition, RandomizedResponse
from privgeom import ApproximateDP
from privgeom.geometry import _lp
from privgeom.geometry._exact_lp import exact_basis_solution, exact_lp_cdd
from privgeom.mechanisms import Mechanism, truncated_geometric
from privgeom.testing import complete_graph, forbid, path_graph, peak_mib

LOSSES = {
    "abs": lambda d, w: -abs(d - w),
    "square": lambda d, w: -((d - w) ** 2),
    "beyond-1": lambda d, w: -int(abs(d - w) > 1),
}


def priors(n: int, seed: int) -> list[list[F] | None]:
    rng = random.Random(seed)
    out: list[list[F] | None] = [None]
    for _ in range(2):
        ws = [rng.randint(1, 20) for _ in range(n)]
        out.append([F(v, sum(ws)) for v in ws])
    out.append([F(2**i, 2**n - 1) for i in range(n)])  # very skewed
    return out


def check_certificate(opt, definition, C):
    """Primal feasible exactly, the dual (z ≥ 0, w, y) exactly feasible for the rows-LP bound, equal objectives."""
    M = opt.mechanism
    assert opt.exact and M.exact and opt.certificate.exact and opt.certificate.verified
    mat = M.matrix
    assert all(v >= 0 for v in mat.ravel())
    assert all(sum(mat[:, d]) == 1 for d in range(mat.shape[1]))
    assert opt.membership.member
    value = sum(C[w][d] * mat[w, d] for w in range(mat.shape[0]) for d in range(mat.shape[1]))
    assert value == opt.value == opt.certificate.value
    if opt.formulation == "rows":
        cone = definition.row_cone()
        F_, E_ = cone.facets, cone.equalities
        assert all(v >= 0 for row in mat for a in F_ for v in [sum(a[d] * row[d] for d in range(len(row)))])
        z, y = opt.certificate.dual["z"], opt.certificate.dual["y"]
        assert all(isinstance(v, F) and v >= 0 for v in z)
        zz = np.array(z, dtype=object).reshape(mat.shape[0], len(F_))
        G = np.array(C, dtype=object) + zz.dot(F_)
        if len(E_):
            G = G + np.array(opt.certificate.dual["w"], dtype=object).reshape(mat.shape[0], len(E_)).dot(E_)
        # dual feasibility: y_D ≥ G[ω, D] for every ω, so ⟨C, M'⟩ ≤ Σ y for every member M' (weak duality)
        assert all(y[d] >= G[w, d] for w in range(mat.shape[0]) for d in range(mat.shape[1]))
        assert sum(y) == opt.certificate.bound == value


@pytest.mark.parametrize("n, r", [(3, F(2)), (5, F(3, 2)), (8, F(3, 2)), (6, F(3))])
@pytest.mark.parametrize("loss", sorted(LOSSES))
def test_geometric_mechanism_is_universal_exactly(n, r, loss):
    dp = DifferentialPrivacy(path_graph(n - 1), exp_eps=r)
    geo = FiniteDefinition([truncated_geometric(n - 1, 1 / r)])
    U = [[LOSSES[loss](d, w) for w in range(n)] for d in range(n)]
    for prior in priors(n, seed=n * 100 + int(r * 10)):
        a = optimal_mechanism(dp, U, prior)
        b = optimal_mechanism(geo, U, prior)
        assert a.exact and b.exact and a.formulation == "rows" and b.formulation == "closure"
        assert isinstance(a.value, F) and a.value == b.value
        pi = prior or [F(1, n)] * n
        C = [[pi[d] * U[d][w] for d in range(n)] for w in range(n)]
        check_certificate(a, dp, C)
        check_certificate(b, geo, C)


def test_issue_example_is_exact():
    """The float −1.346161865569273 of the issue: the path with 8 datasets, e^ε = 3/2, U = −|D − ω|."""
    n = 8
    U = [[-abs(d - w) for w in range(n)] for d in range(n)]
    rng = random.Random(1)
    for _ in range(12):
        ws = [rng.randint(1, 20) for _ in range(n)]
        prior = [F(v, sum(ws)) for v in ws]
        a = optimal_mechanism(DifferentialPrivacy(path_graph(n - 1), exp_eps="3/2"), U, prior)
        b = optimal_mechanism(FiniteDefinition([truncated_geometric(n - 1, "2/3")]), U, prior)
        assert a.exact and isinstance(a.value, F) and a.value == b.value
        assert "optimal basis" in a.certificate.detail


def test_the_exact_optimum_is_the_cdd_optimum():
    """Two exact algorithms, one LP: the vertex from HiGHS's basis and cdd's exact simplex give the same optimum."""
    n = 5
    dp = DifferentialPrivacy(path_graph(n - 1), exp_eps=2)
    U = np.array([[F(-((d - w) ** 2)) for w in range(n)] for d in range(n)], dtype=object)
    C = np.array([[F(1, n) * U[d, w] for d in range(n)] for w in range(n)], dtype=object)
    model = closure_constraints(dp, n)
    c = model.objective(C)
    rows = model.eq + model.ub
    lo = list(model.b_eq) + [None] * len(model.ub)
    hi = list(model.b_eq) + [0] * len(model.ub)
    sol = exact_lp_cdd([-v for v in c], rows, lo, hi)
    assert sol is not None and sol.method == "cdd"
    assert -sol.value == optimal_mechanism(dp, U.tolist()).value


def test_cdd_is_the_fallback_when_the_basis_route_fails(monkeypatch):
    monkeypatch.setattr(_optimal_adp, "exact_basis_solution", lambda *a, **k: None)
    n = 4
    U = [[-abs(d - w) for w in range(n)] for d in range(n)]
    a = optimal_mechanism(DifferentialPrivacy(path_graph(n - 1), exp_eps=3), U)
    b = optimal_mechanism(FiniteDefinition([truncated_geometric(n - 1, "1/3")]), U)
    assert a.exact and a.value == b.value and "cdd" in a.certificate.detail
    adp = optimal_mechanism(ApproximateDP(complete_graph(3), exp_eps=2, delta="1/10"), "accuracy")
    assert adp.exact and adp.value == F(11, 20) and "cdd" in adp.certificate.detail


def test_no_float_answer_for_rational_inputs(monkeypatch):
    """When neither exact route verifies, rational inputs raise SolverError instead of returning a float."""
    monkeypatch.setattr(_optimal_adp, "exact_basis_solution", lambda *a, **k: None)
    monkeypatch.setattr(_optimal_adp, "exact_lp_cdd", lambda *a, **k: None)
    with pytest.raises(SolverError, match="rational"):
        optimal_mechanism(DifferentialPrivacy(path_graph(3), exp_eps=3), "accuracy", method="lp")
    # the symmetry-reduced route rationalises HiGHS's float optimum and accepts it only after the exact
    # re-verification on the full LP (value == full dual bound)
    sym = optimal_mechanism(DifferentialPrivacy(path_graph(3), exp_eps=3), "accuracy")
    assert sym.exact and sym.certificate.exact and "rationalised" in sym.certificate.detail
    # float inputs still give float answers, certified within a tolerance
    opt = optimal_mechanism(DifferentialPrivacy(path_graph(3), exp_eps=3.0), "accuracy")
    assert not opt.exact and opt.certificate.verified


def test_exact_fallback_refused_above_its_limit_is_a_solver_error(monkeypatch):
    monkeypatch.setattr(_optimal_adp, "exact_basis_solution", lambda *a, **k: None)
    monkeypatch.setattr(_lp, "MAX_EXACT_LP_VARIABLES", 3)
    with pytest.raises(SolverError, match="exact_lp_variables"):
        optimal_mechanism(DifferentialPrivacy(path_graph(3), exp_eps=3), "accuracy", method="lp")


def test_exact_basis_solution_rejects_a_wrong_basis():
    # min −x0 − x1, x0 + 2 x1 ≤ 4, 3 x0 + x1 ≤ 6: the basis {x0, row 0 slack} gives x0 = 2, x1 = 0, not optimal
    rows = [{0: 1, 1: 2}, {0: 3, 1: 1}]
    assert exact_basis_solution([-1, -1], rows, [None, None], [4, 6], ((1, 0), (1, 2))) is None
    good = exact_basis_solution([-1, -1], rows, [None, None], [4, 6], ((1, 1), (2, 2)))
    assert good is not None and good.x == (F(8, 5), F(6, 5)) and good.value == F(-14, 5)
    assert exact_lp_cdd([-1, -1], rows, [None, None], [4, 6]).x == good.x
    # infeasible LP: x0 ≥ 1 and x0 ≤ 0
    assert exact_lp_cdd([1], [{0: 1}], [1], [0]) is None


def test_staircase_lp_exact_from_the_basis():
    opt = pg.analyses.optimal._optimal.staircase_optimum(
        4, 3, pg.analyses.optimal._optimal.bayes_utility("accuracy", None, ["0", "1", "2", "3"])
    )
    assert opt.exact and opt.value == opt.bound == F(3, 6)


GRAPHS = {
    "path3": lambda: path_graph(2),
    "k3": lambda: complete_graph(3),
    "path4": lambda: path_graph(3),
    "k4": lambda: complete_graph(4),
}


@settings(max_examples=25, deadline=None)
@given(
    graph=st.sampled_from(sorted(GRAPHS)),
    r=st.sampled_from([F(3, 2), F(2), F(5, 2), F(4)]),
    data=st.data(),
    adp=st.booleans(),
)
def test_random_rational_problems_are_always_exact(graph, r, data, adp):
    """Every rational problem, rows LP or hockey-stick LP, comes back exact with a verified certificate."""
    g = GRAPHS[graph]()
    n = g.number_of_nodes()
    m = data.draw(st.integers(2, 4))
    U = [[F(data.draw(st.integers(-4, 6))) for _ in range(m)] for _ in range(n)]
    ws = [data.draw(st.integers(1, 9)) for _ in range(n)]
    prior = [F(w, sum(ws)) for w in ws]
    d = (
        ApproximateDP(g, exp_eps=r, delta=F(1, data.draw(st.integers(5, 40))))
        if adp
        else DifferentialPrivacy(g, exp_eps=r)
    )
    opt = optimal_mechanism(d, U, prior)
    assert opt.exact and isinstance(opt.value, F) and opt.certificate.exact and opt.certificate.gap == 0
    assert opt.membership.member
    if not adp:
        C = [[prior[dd] * U[dd][w] for dd in range(n)] for w in range(m)]
        check_certificate(opt, d, C)


def test_ratio_rows_membership_agrees_with_contains():
    dp = DifferentialPrivacy(complete_graph(3), exp_eps=2)
    ok = Mechanism([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/2"], ["1/4", "1/4", "1/4"]], inputs=["0", "1", "2"])
    bad = Mechanism([["3/5", "1/5", "1/5"], ["2/5", "4/5", "4/5"]], inputs=["0", "1", "2"])
    assert ratio_rows_membership(dp, ok).member and dp.contains(ok).member
    assert ratio_rows_membership(dp, bad) is None and not dp.contains(bad).member


def _refuses_cheaply(fn, match, *, mb=50):
    """Refused from the sizes: the peak of Python allocations stays small (work counted, not timed)."""
    err, peak = peak_mib(fn)
    assert isinstance(err, SizeLimitError) and re.search(match, str(err)), err
    assert peak < mb, peak
    return str(err)


def test_optimal_mechanism_refuses_large_lps_before_building(monkeypatch):
    from privgeom.analyses.optimal import _optimal_adp

    forbid(monkeypatch, _optimal_adp._LP, "__init__")  # no LP is assembled, let alone solved
    d = pg.parse_definition("dp:graph=path,n=100000,exp_eps=3")
    msg = _refuses_cheaply(lambda: optimal_mechanism(d), "max_lp_size=")
    assert "variables" in msg and f"{MAX_OPTIMAL_LP_SIZE:,}" in msg
    with pytest.raises(SizeLimitError, match="closure LP"):
        optimal_mechanism(pg.parse_definition("krr:n=60,exp_eps=3"), method="lp")
    with pytest.raises(SizeLimitError, match="rows LP"):
        optimal_mechanism(pg.parse_definition("dp:graph=path,n=60,exp_eps=3"), method="lp")
    # the default route answers a finite definition (k-RR, here n = 30) without an LP (explicit Bayes rule) and reduces the path's LP by its
    # reversal, whose reduced LP is still above the limit
    assert optimal_mechanism(pg.parse_definition("krr:n=30,exp_eps=3")).value == Fraction(3, 32)
    with pytest.raises(SizeLimitError, match="symmetric LP"):
        optimal_mechanism(pg.parse_definition("dp:graph=path,n=60,exp_eps=3"))


def test_optimal_lp_size_and_raising_the_limit():
    d = pg.parse_definition("dp:graph=path,n=3,exp_eps=2")
    est = optimal_lp_size(d, 4)
    assert (est.variables, est.constraints, est.nonzeros) == (16, 4 * 6 + 4, 4 * 6 * 2 + 16)
    with pytest.raises(SizeLimitError):
        optimal_mechanism(d, max_lp_size=10)
    assert optimal_mechanism(d, max_lp_size=est.size).exact
    adp = pg.parse_definition("adp:graph=complete,n=3,exp_eps=2,delta=1/10")
    assert optimal_lp_size(adp, 3).formulation == "dedicated"


def test_scs_fallback(monkeypatch):
    """least_informative (test_information.py) falls back along its solver list when a solver is missing."""
    pytest.importorskip("cvxpy")  # the convex solver of least_informative
    from privgeom.analyses.optimal import _information

    def h(a: float) -> float:  # binary entropy in nats (the h of test_information.py)
        return -sum(v * math.log(v) for v in (a, 1 - a) if v > 0)

    monkeypatch.setattr(_information, "INFORMATION_SOLVERS", ("NO_SUCH_SOLVER", "SCS"))
    res = least_informative(RandomizedResponse(1, "3/4"), "accuracy", "2/3")
    assert res.solver == "SCS" and abs(float(res.value) - (math.log(2) - h(2 / 3))) < 1e-3
