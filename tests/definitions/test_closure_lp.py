"""The closure LP as a HiGHS model: row-space reduction, solver variants, model reuse, sizes refused up front; solver
failures as errors, and the exact witness by support solve and by cdd.

Every fast route is cross-checked against the unreduced LP (``reduce=False``, today's model) and the answers are
re-verified (witness / certificate) exactly as before.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom.testing import forbid

import privgeom.geometry._lp as lpmod
from privgeom import Mechanism, SizeLimitError, SolverError, mixture, randomized_response
from privgeom.definitions import FiniteDefinition
from privgeom.results import SeparatingCertificate
from privgeom.definitions._closure import (
    closure_lp_membership,
    verify_closure_witness,
    verify_separating_certificate,
)
from privgeom.definitions._closure_model import ClosureModel
from privgeom.definitions._rows import reduce_rows

ROOT = Path(__file__).resolve().parents[2]
LABELS = ["a", "b", "c", "d"]
#: The 3x2 example of test_finite.py and the identity on its two datasets.
M32 = Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])
IDENTITY = Mechanism([[1, 0], [0, 1]], inputs=["a", "b"])


@st.composite
def exact_mechanisms(draw: st.DrawFn, big: bool = False) -> list[list[F]]:
    """Columns ``w / Σ w`` from random integer weights (zeros allowed), up to ``2**70`` when ``big`` (the strategy of
    tests/analyses/test_profile_integers.py)."""
    n_out = draw(st.integers(2, 4))
    n_in = draw(st.integers(2, 4))
    top = 2**70 if big else 12
    cols = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(0, top), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([F(x, sum(w)) for x in w])
    return [[cols[i][o] for i in range(n_in)] for o in range(n_out)]


def rational_mechanism(rng: np.random.Generator, n_out: int, n_in: int) -> Mechanism:
    X = rng.integers(0, 6, size=(n_out, n_in))
    X[0] += 1  # no zero column
    labels = LABELS[:n_in] if n_in <= len(LABELS) else None
    return Mechanism([[F(int(v), int(s)) for v, s in zip(row, X.sum(axis=0))] for row in X], inputs=labels)


def rank_deficient(rng: np.random.Generator) -> tuple[Mechanism, Mechanism]:
    """``M = A M_0`` with ``M_0`` 2 x 4 and ``A`` 5 x 2: five rows of rank 2, and ``M_0`` itself."""
    M0 = rational_mechanism(rng, 2, 4)
    A = rational_mechanism(rng, 5, 2).matrix
    return M0.post_process(A), M0


def all_routes(D: FiniteDefinition, target: Mechanism) -> list[bool]:
    answers = []
    for reduce in (True, False):
        for solver in ("dual", "primal", "ipm", "choose"):
            ans = FiniteDefinition(list(D.mechanisms)).closure_lp(target, solver=solver, reduce=reduce)
            mats = [M.matrix if ans.exact else M.float_matrix() for M in D.mechanisms]
            tm = target.matrix if ans.exact else target.float_matrix()
            if ans.member:
                assert verify_closure_witness(mats, tm, ans.witness, exact=ans.exact) is not None
            else:
                assert verify_separating_certificate(mats, tm, ans.certificate, exact=ans.exact)
            answers.append(ans.member)
    return answers


# ---------------------------------------------------------------------------------------------------- agreement
@pytest.mark.parametrize("seed", range(6))
def test_reduced_and_unreduced_agree_on_rank_deficient_definitions(seed: int) -> None:
    rng = np.random.default_rng(seed)
    M, M0 = rank_deficient(rng)
    D = FiniteDefinition([M])
    assert not D.row_cone_decides_closure
    yes = M.post_process(rational_mechanism(rng, 3, 5).matrix)
    for target, expected in ((yes, True), (M0, None)):
        answers = all_routes(D, target)
        assert len(set(answers)) == 1, answers
        if expected is not None:
            assert answers[0] is expected
        float_answers = all_routes(FiniteDefinition([M.to_float()]), target.to_float())
        assert float_answers == answers


def test_several_mechanisms_and_mixtures() -> None:
    rng = np.random.default_rng(11)
    A, B = rational_mechanism(rng, 3, 4), rational_mechanism(rng, 4, 4)
    D = FiniteDefinition([A, B])
    inside = mixture(
        [A.post_process(rational_mechanism(rng, 2, 3).matrix), B.post_process(rational_mechanism(rng, 2, 4).matrix)],
        ["1/3", "2/3"],
    )
    assert set(all_routes(D, inside)) == {True}
    outside = Mechanism(np.eye(4, dtype=int).tolist(), inputs=LABELS)
    assert len(set(all_routes(D, outside))) == 1


# ---------------------------------------------------------------------------------------------------- the reduction
def test_reduction_of_an_invertible_mechanism_is_the_identity() -> None:
    """RR(3): rank 8, the reduced rows R are the identity, so the LP has n_out·N instead of n_out·N² coefficients."""
    G = randomized_response(3, 0.75).float_matrix()
    reduced, full = ClosureModel([G], n_out=8), ClosureModel([G], n_out=8, reduce=False)
    assert reduced.rank == 8 and np.array_equal(reduced.R, np.eye(8))
    assert full.nnz - reduced.nnz == 8 * (64 - 8)
    # P = G^{-T}: the right-hand side of output o is m'_o G^{-1}, the coefficients of the linear solve
    T = randomized_response(3, 2 / 3).float_matrix()
    assert np.allclose((T @ reduced.P.T), T @ np.linalg.inv(G))


def test_reduction_keeps_rank_many_equations() -> None:
    rng = np.random.default_rng(2)
    M, _ = rank_deficient(rng)
    model = ClosureModel([M.float_matrix()], n_out=3)
    assert model.rank == 2 and model.n_top == 3 * 2
    # the residual outside the row space vanishes for members and not for a row off the span
    assert (
        np.abs(model.span_residual(M.post_process(np.ones((1, 5), dtype=int)).float_matrix()[[0, 0, 0]])).max() < 1e-12
    )


def test_row_outside_the_span_gets_a_span_certificate() -> None:
    """Rows of rank 1 ((1, 1, 1, 1)/4 repeated): a target whose rows are not constant is not in the span."""
    flat = Mechanism([["1/4"] * 4] * 4, inputs=LABELS)
    D = FiniteDefinition([flat])
    target = Mechanism([["1/2", "1/2", "1/2", "1/2"], ["1/2", "1/2", "1/2", "1/2"]], inputs=LABELS)
    assert D.contains(target, method="lp").member
    skew = Mechanism([["3/4", "1/4", "1/2", "1/2"], ["1/4", "3/4", "1/2", "1/2"]], inputs=LABELS)
    ans = D.contains(skew, method="lp")  # (auto would merge the proportional rows and solve linearly)
    assert not ans.member and ans.exact and "span" in ans.detail
    assert isinstance(ans.certificate, SeparatingCertificate)
    assert verify_separating_certificate([flat.matrix], skew.matrix, ans.certificate, exact=True)
    assert not D.closure_lp(skew, reduce=False).member


# ---------------------------------------------------------------------------------------------------- reuse
def test_model_is_built_once_and_reused_warm() -> None:
    D = FiniteDefinition([randomized_response(3, "3/4")])
    assert D.contains(randomized_response(3, "2/3"), method="lp").member
    assert len(D._lp_cache) == 1
    (model,) = D._lp_cache.values()
    assert model.solves == 1 and not model.model.warm
    # the simplex variants re-solve the same HiGHS model from the previous basis
    assert not D.closure_lp(randomized_response(3, "4/5"), solver="dual").member
    assert D.closure_lp(randomized_response(3, "7/10"), solver="dual").member
    assert len(D._lp_cache) == 1 and model.solves == 3 and model.model.warm
    # another output count is another model
    two = randomized_response(3, "3/4").post_process([[1] * 4 + [0] * 4, [0] * 4 + [1] * 4])
    assert D.contains(two, method="lp").member and len(D._lp_cache) == 2


# ---------------------------------------------------------------------------------------------------- sizes
def test_sizes_are_refused_before_building(monkeypatch) -> None:
    """The unreduced LP of RR(8) is refused at once, naming sizes and the keyword: n_out·nnz(M) = 256·65,536, plus
    n_out·256 column-sum entries, 256 λ entries, 1 for Σλ and 2·n_out·N slacks = 16,974,081 > 2^24. Nothing is
    assembled or handed to HiGHS (the builders fail the test if reached)."""
    from privgeom.definitions import _closure, _closure_model

    D = FiniteDefinition([randomized_response(8, 0.75)])
    target = randomized_response(8, 0.7)
    forbid(monkeypatch, _closure._ClosureLP, "_coo")
    forbid(monkeypatch, _closure_model.ClosureModel, "_assemble")
    forbid(monkeypatch, _closure_model, "HighsModel")
    with pytest.raises(SizeLimitError, match=r"16,974,081 non-zero coefficients.*max_nonzeros") as err:
        D.closure_lp(target, reduce=False)
    assert "256" in str(err.value) and "GB" in str(err.value)
    with pytest.raises(SizeLimitError, match="max_nonzeros"):
        D.closure_lp(target, max_nonzeros=10_000)
    assert not D._lp_cache  # no model was kept
    with pytest.raises(SizeLimitError):
        closure_lp_membership([np.eye(3)], np.eye(3), exact=False, max_nonzeros=5)


# ---------------------------------------------------------------------------------------------------- benchmark
def test_benchmark_quick_runs_and_prints_the_table() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_closure_lp.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for needle in (
        "plain sparse HiGHS",
        "generic closure LP",
        "warm (cached model)",
        "solver=ipm",
        "RR(k=3)",
        "random rank 8",
        "ratio plain/generic",
    ):
        assert needle in out


@given(rows=exact_mechanisms(big=True), post=exact_mechanisms(big=True), lam=st.fractions(0, 1, max_denominator=2**66))
def test_closure_witness_verification_on_integers_equals_the_fraction_route(
    rows: list[list[Fraction]], post: list[list[Fraction]], lam: Fraction
) -> None:
    from privgeom.results import ClosureWitness

    M = Mechanism(rows)
    A = np.array(post, dtype=object)
    if A.shape[1] != M.n_outputs:
        A = Mechanism(np.eye(M.n_outputs, dtype=int)).matrix  # identity post-processing
    target = (lam * A.dot(M.matrix) + (1 - lam) * M.matrix) if A.shape[0] == M.n_outputs else A.dot(M.matrix)
    comps, weights, posts = (
        ((0, 0), (lam, 1 - lam), (A, Mechanism(np.eye(M.n_outputs, dtype=int)).matrix))
        if A.shape[0] == M.n_outputs
        else ((0,), (Fraction(1),), (A,))
    )
    wit = ClosureWitness(comps, weights, posts, Fraction(0))
    mats = [M.matrix]
    for tgt, expected in (
        (target, True),
        (target + np.where(np.arange(target.size).reshape(target.shape) == 0, Fraction(1, 2**70), 0), False),
    ):
        a = verify_closure_witness(mats, tgt, wit, exact=True)
        b = verify_closure_witness(mats, tgt, wit, exact=True, fraction=True)
        assert (a is not None) == (b is not None) == expected


def test_zero_and_proportional_rows_are_reduced() -> None:
    # rows (1/4, 0), (1/4, 0) are proportional, a zero row; after merging: (1/2,0), (1/2,1) ... independent
    M = Mechanism([["1/4", 0], ["1/4", 0], [0, 0], ["1/2", 1]], inputs=["a", "b"])
    G, index = reduce_rows(M.matrix, exact=True)
    assert index == [0, 0, -1, 1]
    assert G.tolist() == [[F(1, 2), F(0)], [F(1, 2), F(1)]]
    D = FiniteDefinition([M])
    assert D.row_cone_decides_closure
    target = Mechanism([["1/4", 0], ["3/4", 1]], inputs=["a", "b"])
    ans = D.contains(target)
    assert ans.member and ans.method == "linear-solve"
    A = ans.witness.post_processings[0]
    assert A.shape == (2, 4) and (A.dot(M.matrix) == target.matrix).all()
    assert all(s == 1 for s in A.sum(axis=0))
    lp = D.contains(target, method="lp")
    assert lp.member
    assert not D.contains(IDENTITY).member and not D.contains(IDENTITY, method="lp").member


def test_solver_failure_is_an_error_not_a_no(monkeypatch: pytest.MonkeyPatch) -> None:
    import highspy

    class Bad:
        status = 4
        message = "numerical difficulties"

    real = lpmod._new_highs

    class Flaky:  # HiGHS that ends every solve with "solve error"
        def __init__(self) -> None:
            self._h = real()

        def __getattr__(self, name: str) -> object:
            return getattr(self._h, name)

        def getModelStatus(self) -> object:
            return highspy.HighsModelStatus.kSolveError

    monkeypatch.setattr(lpmod, "linprog", lambda *a, **k: Bad())
    monkeypatch.setattr(lpmod, "_new_highs", Flaky)
    with pytest.raises(SolverError, match="solve error|Solve error"):
        FiniteDefinition([M32]).contains(IDENTITY)
    with pytest.raises(SolverError):
        closure_lp_membership([M32.matrix], IDENTITY.matrix, exact=True, reduce=False)

    class Crashing(Flaky):
        def run(self) -> None:
            raise RuntimeError("HiGHS crashed")

    def boom(*a: object, **k: object) -> None:
        raise ValueError("HiGHS crashed")

    monkeypatch.setattr(lpmod, "linprog", boom)
    monkeypatch.setattr(lpmod, "_new_highs", Crashing)
    with pytest.raises(SolverError, match="crashed"):
        closure_lp_membership([M32.matrix], IDENTITY.matrix, exact=True)


def test_unverifiable_answer_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    import privgeom.definitions._closure as cl

    monkeypatch.setattr(cl, "_exact_witness", lambda lp, x: None)
    monkeypatch.setattr(cl, "_certificate", lambda lp, W, exact, atol: None)
    with pytest.raises(SolverError):
        FiniteDefinition([M32]).contains(M32)


def _awkward_target() -> tuple[list[Mechanism], Mechanism]:
    labels = ["a", "b", "c"]
    A = Mechanism([["311/997", "5/13", "1/7"], ["400/997", "3/13", "2/7"], ["286/997", "5/13", "4/7"]], inputs=labels)
    B = Mechanism([["17/19", "2/23", "1/2"], ["2/19", "21/23", "1/2"]], inputs=labels)
    post_a = [["3/11", "1/5", "7/9"], ["8/11", "4/5", "2/9"]]
    post_b = [["1/3", "5/7"], ["2/3", "2/7"]]
    return [A, B], mixture([A.post_process(post_a), B.post_process(post_b)], ["101/997", "896/997"])


def test_exact_witness_by_support_solve_and_by_cdd(monkeypatch: pytest.MonkeyPatch) -> None:
    import privgeom.definitions._closure as cl

    mechs, target = _awkward_target()
    mats = [M.matrix for M in mechs]
    ans = FiniteDefinition(mechs).contains(target)
    assert ans.member and verify_closure_witness(mats, target.matrix, ans.witness, exact=True) == 0
    # force the last resort: no exact support solve, only cdd's exact simplex on the support
    monkeypatch.setattr(cl, "exact_solve", lambda *a, **k: None)
    ans2 = FiniteDefinition(mechs).contains(target)
    assert ans2.member and verify_closure_witness(mats, target.matrix, ans2.witness, exact=True) == 0
