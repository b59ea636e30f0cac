"""The nearest member of the closure (``definition.nearest``, ``closure --repair``) and the mixing threshold.

Values are checked by hand (written out below), against an independent LP (cvxpy with the Clarabel interior-point
solver, a different formulation: ``N = Y M`` instead of row inequalities) and by brute force on a grid.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from itertools import product

import cvxpy as cp
import numpy as np
import pytest

import privgeom as pg
from privgeom import InvalidParameterError, Mechanism, SizeLimitError, randomized_response
from privgeom.cli import main
from privgeom.definitions import DifferentialPrivacy, FiniteDefinition, RandomizedResponse, mixing_threshold
from privgeom.results import Nearest

M32 = Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]], inputs=["a", "b"])
IDENTITY = Mechanism([[1, 0], [0, 1]], inputs=["a", "b"])
# e^ε = 3 on the path 0 - 1 - 2 - 3: row 0 breaks x[2] ≤ 3·x[3], row 1 breaks x[1] ≤ 3·x[0]
DP_PATH = DifferentialPrivacy.path(3, exp_eps=3)
BAD_PATH = Mechanism([["9/10", "1/2", "1/5", "1/20"], ["1/10", "1/2", "4/5", "19/20"]], inputs=DP_PATH.inputs)


def _norm(D: np.ndarray, norm: str) -> object:
    A = np.abs(D)
    return {"l1": A.sum(), "linf": A.max(), "l1-column": A.sum(axis=0).max()}[norm]


def _cvx_norm(D: cp.Expression, norm: str) -> cp.Expression:
    if norm == "l1":
        return cp.sum(cp.abs(D))
    if norm == "linf":
        return cp.max(cp.abs(D))
    return cp.max(cp.sum(cp.abs(D), axis=0))


def independent_mixture_distance(mats: list[np.ndarray], target: np.ndarray, norm: str) -> float:
    """min ‖Σ_j λ_j A_j M_j − M‖ over column-stochastic A_j and weights λ (as B_j = λ_j A_j), by cvxpy/Clarabel."""
    n_out = target.shape[0]
    Bs = [cp.Variable((n_out, M.shape[0]), nonneg=True) for M in mats]
    lam = cp.Variable(len(mats), nonneg=True)
    cons = [cp.sum(lam) == 1] + [cp.sum(B, axis=0) == lam[j] for j, B in enumerate(Bs)]
    N = sum(B @ M for B, M in zip(Bs, mats))
    prob = cp.Problem(cp.Minimize(_cvx_norm(N - target, norm)), cons)
    prob.solve(solver=cp.CLARABEL)
    return float(prob.value)


def independent_dp_distance(dp: DifferentialPrivacy, target: np.ndarray, norm: str) -> float:
    """min ‖N − M‖ over column-stochastic N ≥ 0 with N[:, i] ≤ e^ε N[:, j] on every directed edge (cvxpy)."""
    N = cp.Variable(target.shape, nonneg=True)
    idx = {d: k for k, d in enumerate(dp.inputs)}
    c = float(dp.level.exp_eps)
    cons = [cp.sum(N, axis=0) == 1] + [N[:, idx[i]] <= c * N[:, idx[j]] for i, j in dp.edges]
    prob = cp.Problem(cp.Minimize(_cvx_norm(N - target, norm)), cons)
    prob.solve(solver=cp.CLARABEL)
    return float(prob.value)


def check_repair(rep: Nearest, definition: pg.PrivacyDefinition, M: Mechanism) -> None:
    """The repaired mechanism is a verified member at exactly the reported distance, proven optimal."""
    assert isinstance(rep, Nearest) and not rep.original_member
    assert rep.mechanism.inputs == M.inputs and rep.mechanism.outputs == M.outputs
    assert rep.membership.member and definition.contains(rep.mechanism).member
    if rep.exact:
        assert rep.mechanism.exact and rep.membership.exact
        assert rep.distance == _norm(rep.mechanism.matrix - M.matrix, rep.norm)  # exactly
        assert rep.certificate is not None and rep.certificate.optimal
        assert rep.certificate.lower_bound == rep.distance
    else:
        assert abs(rep.distance - _norm(rep.mechanism.float_matrix() - M.float_matrix(), rep.norm)) < 1e-12
        assert rep.certificate is not None and rep.certificate.lower_bound <= rep.distance + 1e-9


# ---------------------------------------------------------------------------------------------------- by hand
def test_rr_one_bit_by_hand_every_norm() -> None:
    """RR(1, 4/5) against closure(RR(1, 3/4)): the ratio 4 must come down to 3.

    Members are [[a, b], [1−a, 1−b]] with a ≤ 3b and 1 − b ≤ 3(1 − a). Write a = 4/5 − s, b = 1/5 + u: the rows need
    s + 3u ≥ 1/5 and 3s + u ≥ 1/5. Moving a by s moves 1 − a by s too, so ℓ1 = 2(s + u), minimal at s = u = 1/20:
    1/5; the per-column ℓ1 is max(2s, 2u) = 1/10 and ℓ∞ is max(s, u) = 1/20, both at s = u = 1/20 as well.
    """
    rr, M = RandomizedResponse(1, "3/4"), randomized_response(1, "4/5")
    expected = {"l1": F(1, 5), "l1-column": F(1, 10), "linf": F(1, 20)}
    for norm, value in expected.items():
        rep = rr.nearest(M, norm)
        check_repair(rep, rr, M)
        assert rep.distance == value and rep.method == "row-cone-lp"
    assert rr.nearest(M).mechanism.matrix.tolist() == [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]


def test_rr_one_bit_brute_force_grid() -> None:
    """Every member [[a, b], [1−a, 1−b]] on a 1/100 grid is at ℓ1 distance ≥ the repaired one's (1/5)."""
    best = min(
        2 * abs(a - 0.8) + 2 * abs(b - 0.2)
        for a, b in product(np.arange(101) / 100, repeat=2)
        if a <= 3 * b + 1e-12 and 1 - b <= 3 * (1 - a) + 1e-12
    )
    rep = RandomizedResponse(1, "3/4").nearest(randomized_response(1, "4/5"))
    assert abs(best - float(rep.distance)) < 1e-12  # the optimum (s = u = 1/20) lies on the grid


def test_dp_path_by_hand() -> None:
    """ln 3-DP on the path 0-1-2-3, ℓ1.

    Row 0 (9/10, 1/2, 1/5, 1/20) breaks x[2] ≤ 3·x[3]: raising x[3] to 1/15 costs 2·(1/15 − 1/20) = 1/30 (row 1's
    entry drops by as much), lowering x[2] to 3/20 costs 1/10. Row 1 (1/10, 1/2, 4/5, 19/20) breaks x[1] ≤ 3·x[0]:
    with x[0] raised by s and x[1] lowered by u it needs 3s + u ≥ 1/5, cost 2(s + u): s = 1/15, cost 2/15 (and the
    changes to row 0 keep it valid). Total 1/30 + 2/15 = 1/6.
    """
    rep = DP_PATH.nearest(BAD_PATH)
    check_repair(rep, DP_PATH, BAD_PATH)
    assert rep.distance == F(1, 6)
    assert rep.mechanism.matrix.tolist() == [
        [F(5, 6), F(1, 2), F(1, 5), F(1, 15)],
        [F(1, 6), F(1, 2), F(4, 5), F(14, 15)],
    ]


def test_finite_definition_by_hand() -> None:
    """closure({M32}) on two outputs is {[[a, b], [1−a, 1−b]] : |a − b| ≤ 1/2}; from the identity the ℓ1 distance is
    2(1 − a) + 2b ≥ 2(1 − 1/2) = 1."""
    D = FiniteDefinition([M32])
    rep = D.nearest(IDENTITY)
    check_repair(rep, D, IDENTITY)
    assert rep.distance == 1 and rep.method == "mixture-lp"
    a, b = rep.mechanism.matrix[0]
    assert a - b == F(1, 2)
    assert rep.certificate is not None and np.abs(rep.certificate.functional).max() <= 1  # |W| ≤ 1 for ℓ1


# ---------------------------------------------------------------------------------------------------- cross-checks
@pytest.mark.parametrize("norm", ["l1", "l1-column", "linf"])
def test_against_independent_lp(norm: str) -> None:
    rr, M = RandomizedResponse(2, "3/4"), randomized_response(2, "4/5")
    rep = rr.nearest(M, norm)
    check_repair(rep, rr, M)
    mats = [rr.mechanism.float_matrix()]
    assert abs(float(rep.distance) - independent_mixture_distance(mats, M.float_matrix(), norm)) < 1e-6
    rep = DP_PATH.nearest(BAD_PATH, norm)
    check_repair(rep, DP_PATH, BAD_PATH)
    assert abs(float(rep.distance) - independent_dp_distance(DP_PATH, BAD_PATH.float_matrix(), norm)) < 1e-6


def test_two_mechanism_definition_against_independent_lp() -> None:
    rng = np.random.default_rng(3)
    labels = ["a", "b", "c"]

    def rand(n_out: int) -> Mechanism:
        X = rng.integers(1, 9, size=(n_out, 3))
        return Mechanism([[F(int(v), int(s)) for v, s in zip(row, X.sum(axis=0))] for row in X], inputs=labels)

    D = FiniteDefinition([rand(3), rand(2)])
    target = Mechanism([[1, 0, 0], [0, 1, 0], [0, 0, 1]], inputs=labels)
    for norm in ("l1", "linf"):
        rep = D.nearest(target, norm)
        check_repair(rep, D, target)
        ind = independent_mixture_distance([M.float_matrix() for M in D.mechanisms], target.float_matrix(), norm)
        assert abs(float(rep.distance) - ind) < 1e-6


def test_exact_and_float_agree() -> None:
    cases = [
        (RandomizedResponse(2, "3/4"), RandomizedResponse(2, 0.75), randomized_response(2, "4/5")),
        (DP_PATH, DifferentialPrivacy.path(3, exp_eps=3.0), BAD_PATH),
        (FiniteDefinition([M32]), FiniteDefinition([M32.to_float()]), IDENTITY),
    ]
    for exact_def, float_def, M in cases:
        ex = exact_def.nearest(M)
        fl = float_def.nearest(M.to_float())
        assert ex.exact and not fl.exact
        check_repair(fl, float_def, M.to_float())
        assert abs(float(ex.distance) - fl.distance) < 1e-9


def test_member_needs_no_repair() -> None:
    rr = RandomizedResponse(2, "3/4")
    rep = rr.nearest(randomized_response(2, "2/3"))
    assert rep.original_member and rep.distance == 0 and rep.certificate is None and rep.method == "member"
    assert "already" in rep.summary()


def test_bad_input_and_size_refusal() -> None:
    rr = RandomizedResponse(2, "3/4")
    with pytest.raises(InvalidParameterError, match="norm"):
        rr.nearest(randomized_response(2, "4/5"), "l2")
    with pytest.raises(SizeLimitError, match="max_nonzeros"):
        rr.nearest(randomized_response(2, "4/5"), max_nonzeros=10)
    with pytest.raises(InvalidParameterError, match="row inequalities"):
        mixing_threshold(FiniteDefinition([M32]), IDENTITY)


# ---------------------------------------------------------------------------------------------------- mixing weight
def test_mixing_threshold_ln3_dp_on_the_path_by_hand() -> None:
    """ln 3-DP on the path 0 - 1 - 2, M = [[9/10, 1/2, 1/20], [1/10, 1/2, 19/20]], U uniform (1/2 everywhere).

    Each inequality x_i ≤ 3·x_j on a row is g_M + t (g_U − g_M) ≥ 0 with g = 3·x_j − x_i; g_U = 3/2 − 1/2 = 1.
    Row 0, x[1] ≤ 3·x[2]: g_M = 3/20 − 1/2 = −7/20, so t ≥ (7/20) / (7/20 + 1) = 7/27.
    Row 1, x[1] ≤ 3·x[0]: g_M = 3/10 − 1/2 = −1/5, so t ≥ (1/5) / (1/5 + 1) = 1/6.
    Every other inequality holds at t = 0 and for U. Hence t = max(7/27, 1/6) = 7/27, and at t = 7/27 row 0 is
    x[0] = (20/27)(9/10) + (7/27)(1/2) = 43/54, x[1] = 1/2 (unchanged: it equals U's 1/2),
    x[2] = (20/27)(1/20) + (7/27)(1/2) = 1/6: exactly x[1] = 3·x[2].
    """
    dp = DifferentialPrivacy.path(2, exp_eps=3)
    M = Mechanism([["9/10", "1/2", "1/20"], ["1/10", "1/2", "19/20"]], inputs=dp.inputs)
    th = mixing_threshold(dp, M)
    assert th.t == F(7, 27) and th.exact and th.upper == 1
    assert th.membership is not None and th.membership.member
    assert th.mechanism is not None and th.mechanism.matrix[0].tolist() == [F(43, 54), F(1, 2), F(1, 6)]
    assert "x[1]" in th.binding and "x[2]" in th.binding
    # just below the threshold the mixture is not ε-DP, and the float computation agrees
    t = F(7, 27) - F(1, 1000)
    below = Mechanism((1 - t) * M.matrix + t * np.full(M.shape, F(1, 2), dtype=object), inputs=dp.inputs)
    assert not dp.contains(below).member
    fl = mixing_threshold(DifferentialPrivacy.path(2, exp_eps=3.0), M.to_float())
    assert not fl.exact and abs(fl.t - 7 / 27) < 1e-12
    # a member needs no mixing
    assert mixing_threshold(dp, th.mechanism).t == 0


def test_mixing_with_a_given_mechanism() -> None:
    """Mixing towards U = M with its rows swapped: g_U = 3·x'_j − x'_i. On the 2-point path with e^ε = 3 and
    M = [[9/10, 1/10], [1/10, 9/10]], row 0 needs 9/10 − (8/10) t ≤ 3 (1/10 + (8/10) t) ⟺ 6/10 ≤ 32t/10 ⟺ t ≥ 3/16."""
    dp = DifferentialPrivacy.path(1, exp_eps=3)
    M = Mechanism([["9/10", "1/10"], ["1/10", "9/10"]], inputs=dp.inputs)
    U = Mechanism([["1/10", "9/10"], ["9/10", "1/10"]], inputs=dp.inputs)
    assert mixing_threshold(dp, M, U).t == F(3, 16)
    # a U that is not a member may leave no weight in [0, 1]: the identity breaks x[0] ≤ 3·x[1] on row 0 just as M
    # does (g_M = 3/10 − 9/10 < 0 and g_U = 0 − 1 < g_M), so every mixture breaks it
    W = Mechanism([[1, 0], [0, 1]], inputs=dp.inputs)
    none = mixing_threshold(dp, M, W)
    assert none.t is None and none.mechanism is None


def test_mixing_threshold_for_randomized_response() -> None:
    """RR(1, 4/5) towards uniform under RR(1, 3/4): the row (4/5 − 3t/10, 1/5 + 3t/10) needs ratio ≤ 3:
    4/5 − 3t/10 ≤ 3/5 + 9t/10 ⟺ 1/5 ≤ 12t/10 ⟺ t ≥ 1/6 (and then the mechanism is RR(1, 3/4))."""
    th = mixing_threshold(RandomizedResponse(1, "3/4"), randomized_response(1, "4/5"))
    assert th.t == F(1, 6) and th.mechanism == randomized_response(1, "3/4")


# ---------------------------------------------------------------------------------------------------- CLI
def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out


@pytest.mark.parametrize(
    "spec,mech,distance",
    [
        ("rr:k=2,p=3/4", randomized_response(2, "4/5"), "31/50"),
        (DP_PATH.spec(), BAD_PATH, "1/6"),
        ("finite", IDENTITY, "1"),
    ],
)
def test_cli_repair(tmp_path, capsys, spec: str, mech: Mechanism, distance: str) -> None:
    if spec == "finite":
        M32.save(tmp_path / "def.json")
        spec = f"finite:file={tmp_path / 'def.json'}"
    mech.save(tmp_path / "m.json")
    out_file = tmp_path / "repaired.json"
    code, out = _cli(capsys, "closure", spec, "-m", str(tmp_path / "m.json"), "--repair", "--out", str(out_file))
    assert code == 1  # the original mechanism is not a member
    assert f"distance {distance} (exact)" in out and "optimal" in out
    code, out = _cli(capsys, "closure", spec, "-m", str(out_file))
    assert code == 0 and " IN closure" in out
    code, out = _cli(capsys, "closure", spec, "-m", str(tmp_path / "m.json"), "--repair", "--norm", "linf", "--json")
    data = json.loads(out)
    assert code == 1 and data["member"] is False
    rep = data["repair"]
    assert rep["norm"] == "linf" and rep["membership"]["member"] is True and rep["certificate"]["optimal"] is True
    repaired = Mechanism.from_json(rep["mechanism"])
    assert F(rep["distance"]) == np.abs(repaired.matrix - mech.matrix).max()


def test_cli_out_without_repair_is_refused(tmp_path, capsys) -> None:
    randomized_response(2, "4/5").save(tmp_path / "m.json")
    code = main(["closure", "rr:k=2,p=3/4", "-m", str(tmp_path / "m.json"), "--out", str(tmp_path / "x.json")])
    assert code == 2


def test_cli_repair_unavailable_keeps_the_verdict(tmp_path, capsys) -> None:
    """(ε, δ)-DP with δ > 0: the row cone does not decide, so no repair LP — the exit code stays 1 (not a member)."""
    Mechanism([[1, 0], [0, 1]], inputs=["1", "0"]).save(tmp_path / "m.json")
    spec = "adp:graph=hamming,k=1,exp_eps=3,delta=1/10"
    code, out = _cli(capsys, "closure", spec, "-m", str(tmp_path / "m.json"), "--repair")
    assert code == 1 and "repair: not available" in out
    code, out = _cli(capsys, "closure", spec, "-m", str(tmp_path / "m.json"), "--repair", "--json")
    assert code == 1 and json.loads(out)["repair"] is None
