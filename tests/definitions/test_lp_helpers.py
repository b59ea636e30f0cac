"""The LP helper (HiGHS through scipy) and the exact rational tools used to re-verify its answers."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import scipy.sparse as sp

import privgeom.geometry._lp as lpmod
from privgeom import SizeLimitError, SolverError
from privgeom.geometry._lp import (
    exact_nonnegative_solution,
    exact_rank,
    exact_solve,
    rational_candidates,
    rationalize,
    solve_lp,
)


def test_solve_lp_optimal_and_duals() -> None:
    # min x + 2y  s.t.  x + y = 1, x, y >= 0  ->  x = 1, dual 1
    res = solve_lp(np.array([1.0, 2.0]), A_eq=sp.csr_matrix([[1.0, 1.0]]), b_eq=np.array([1.0]))
    assert res.status == "optimal" and np.allclose(res.x, [1, 0]) and abs(res.fun - 1) < 1e-12
    assert res.eq_duals is not None and abs(res.eq_duals[0] - 1) < 1e-9


def test_solve_lp_infeasible_is_a_status_and_unbounded_an_error() -> None:
    res = solve_lp(np.zeros(1), A_eq=np.array([[1.0]]), b_eq=np.array([-1.0]))
    assert res.status == "infeasible" and res.x is None
    with pytest.raises(SolverError):
        solve_lp(np.array([-1.0]), bounds=(0, None))


def test_solver_failures_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    class Res:
        status = 1
        message = "iteration limit"

    monkeypatch.setattr(lpmod, "linprog", lambda *a, **k: Res())
    with pytest.raises(SolverError, match="iteration limit"):
        solve_lp(np.zeros(1))
    monkeypatch.setattr(lpmod, "MAX_LP_NONZEROS", 1)
    with pytest.raises(SizeLimitError):
        solve_lp(np.zeros(2), A_eq=np.ones((1, 2)), b_eq=np.ones(1))


def test_exact_solve_and_rank() -> None:
    assert exact_solve([[2, 1], [1, 3]], [3, 4]) == [F(1), F(1)]
    assert exact_solve([[1, 1], [2, 2]], [1, 3]) is None  # inconsistent
    sol = exact_solve([[1, 1, 0], [0, 1, 1]], ["1/2", "1/3"])
    assert sol is not None and sol[0] + sol[1] == F(1, 2) and sol[1] + sol[2] == F(1, 3)
    assert exact_solve([{0: F(1), 2: F(1)}], [F(5)], n_vars=3) in ([F(5), F(0), F(0)], [F(0), F(0), F(5)])
    assert exact_rank(np.array([[F(1), F(2)], [F(2), F(4)]], dtype=object)) == 1
    assert exact_rank(sp.csr_matrix(np.eye(3))) == 3


def test_exact_nonnegative_solution() -> None:
    sol = exact_nonnegative_solution([[1, 1, 1], [1, -1, 0]], [1, "1/3"])
    assert sol is not None and all(v >= 0 for v in sol)
    assert sol[0] + sol[1] + sol[2] == 1 and sol[0] - sol[1] == F(1, 3)
    assert exact_nonnegative_solution([[1, 1]], [-1]) is None
    with pytest.raises(SizeLimitError):
        exact_nonnegative_solution(np.ones((1, 500), dtype=int), [1])


def test_rationalize() -> None:
    assert rationalize([1 / 3, 0.25], 100).tolist() == [F(1, 3), F(1, 4)]
    assert rationalize([0.1], None)[0] == F(0.1)
    cands = list(rational_candidates(np.array([1 / 3])))
    assert cands[0][0] == F(1, 3) and cands[-1][0] == F(1 / 3)


# ------------------------------------------------------------------------------------ exact rank modulo a prime
def test_modular_rank_bounds_the_rank_and_decides_full_rank() -> None:
    """The modular route agrees with exact elimination on Fractions, and returns only when its bound is full rank."""
    import random
    from fractions import Fraction

    from privgeom.geometry._lp import RANK_PRIME, exact_rank, modular_rank

    rng = random.Random(7)
    for trial in range(40):
        m, n = rng.randint(1, 6), rng.randint(1, 6)
        A = [[Fraction(rng.randint(-3, 3), rng.randint(1, 4)) for _ in range(n)] for _ in range(m)]
        if trial % 3 == 0 and m > 1:
            A[-1] = [a + 2 * b for a, b in zip(A[0], A[1 % m])]  # a dependent row
        exact = exact_rank(A, method="fraction")
        assert modular_rank(A) <= exact
        assert exact_rank(A) == exact
    # a dependency that only shows modulo the prime: the bound is not full, so elimination on Fractions decides
    assert modular_rank([[1, 1], [1, 1 + RANK_PRIME]]) == 1
    assert exact_rank([[1, 1], [1, 1 + RANK_PRIME]]) == 2


def test_kary_rr_decides_full_rank_without_fraction_elimination(monkeypatch) -> None:
    """k-ary RR on 60 values is invertible: the modular bound is full, so no Fraction elimination runs."""
    import privgeom as pg
    from privgeom.geometry import _lp

    def forbidden(*args, **kwargs):
        raise AssertionError("elimination on Fractions ran although the modular rank was full")

    monkeypatch.setattr(_lp, "_rref", forbidden)
    M = pg.parse_definition("krr:n=60,exp_eps=3").mechanism
    assert _lp.exact_rank(M.matrix) == 60
