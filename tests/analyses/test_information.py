"""least_informative: the least mutual information I(D; ω) of a mechanism in a closure with expected utility ≥ a.

Checked against the closed form for one bit under randomized response (ln 2 − H(a) nats; docs/theory.md, "The
information cost of a design"), against brute-force grids over two-dataset, two-output mechanisms, and against
inclusions of closures (a larger closure can only reveal less)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

import privgeom as pg
from privgeom import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from privgeom import least_informative
from privgeom.definitions import DifferentialPrivacy, FiniteDefinition, RandomizedResponse
from privgeom import ApproximateDP
from privgeom.mechanisms import Mechanism, truncated_geometric
from privgeom.results import LeastInformative
from privgeom.testing import complete_graph, path_graph

ROOT = Path(__file__).resolve().parents[2]


def h(a: float) -> float:
    return -sum(v * math.log(v) for v in (a, 1 - a) if v > 0)


def mi2(pi, M) -> float:
    """I(D; ω) in nats of a 2 × 2 channel (rows = outputs) under prior pi, from the definition."""
    q = M.dot(pi)
    return float(sum(pi[d] * M[w, d] * math.log(M[w, d] / q[w]) for w in range(2) for d in range(2) if M[w, d] > 0))


@pytest.mark.parametrize("p, a", [("3/4", "3/5"), ("3/4", "2/3"), ("3/4", "3/4"), ("9/10", "0.55"), ("9/10", "0.8")])
def test_one_bit_randomized_response_closed_form(p, a):
    res = least_informative(RandomizedResponse(1, p), "accuracy", a)
    af = float(F(a))
    assert abs(float(res.value) - (math.log(2) - h(af))) < 1e-6
    # the solver-independent bound (linearisation + LP) brackets the closed form with the returned value
    assert res.lower_bound - 1e-9 <= math.log(2) - h(af) <= float(res.value) + 1e-9
    assert float(res.value) - res.lower_bound < 1e-5
    assert res.utility >= af - 1e-6 and res.status == "optimal" and res.solver == "CLARABEL"
    assert not res.exact and res.best == F(p) and abs(res.gap) < 1e-5
    # the minimiser is the binary symmetric channel with crossover 1 − a (a post-processed randomized response)
    assert np.allclose(res.mechanism.float_matrix(), [[af, 1 - af], [1 - af, af]], atol=1e-4)


def test_below_a_constant_output_reveals_nothing():
    res = least_informative(RandomizedResponse(1, "3/4"), "accuracy", "1/2")
    assert abs(float(res.value)) < 1e-7


def grid_min(pi, U, at_least, member, steps=400):
    """Brute force over all 2 × 2 channels M = [[x, y], [1 − x, 1 − y]] on a grid, keeping members."""
    best = math.inf
    for x in np.linspace(0, 1, steps + 1):
        for y in np.linspace(0, 1, steps + 1):
            M = np.array([[x, y], [1 - x, 1 - y]])
            if not member(M):
                continue
            util = sum(pi[d] * U[d][w] * M[w, d] for w in range(2) for d in range(2))
            if util >= at_least - 1e-12:
                best = min(best, mi2(pi, M))
    return best


def test_grid_dp_on_two_datasets():
    r, pi, U = 3.0, np.array([1 / 3, 2 / 3]), [[2, 0], [0, 1]]  # either constant output has utility 2/3
    d = DifferentialPrivacy(complete_graph(2), exp_eps=3)
    opt = pg.optimal_mechanism(d, U, [F(1, 3), F(2, 3)])
    assert opt.value > F(2, 3)
    at_least = (opt.value + F(2, 3)) / 2
    res = least_informative(d, U, at_least, [F(1, 3), F(2, 3)])
    member = lambda M: all(M[w, i] <= r * M[w, j] + 1e-12 for w in range(2) for i in range(2) for j in range(2))  # noqa: E731
    g = grid_min(pi, U, float(at_least), member)
    assert g >= float(res.value) - 1e-6  # the solver's minimum is below every feasible grid point
    assert g >= res.lower_bound - 1e-9 and float(res.value) - res.lower_bound < 1e-5
    assert g - float(res.value) < 5e-3  # and the grid comes close to it
    assert float(res.value) > 1e-3  # a genuine trade-off, not the trivial zero


def test_grid_finite_definition_post_processings():
    """Closure of one 2 × 2 mechanism: its post-processings B·M1 (column-stochastic B), searched over a grid of B."""
    M1 = np.array([[0.8, 0.3], [0.2, 0.7]])
    d = FiniteDefinition([Mechanism([["4/5", "3/10"], ["1/5", "7/10"]])])
    pi, U = np.array([1 / 2, 1 / 2]), [[1, 0], [0, 1]]
    at_least = F(3, 5)
    res = least_informative(d, U, at_least)
    assert res.formulation == "closure"
    best = math.inf
    for b0 in np.linspace(0, 1, 401):
        for b1 in np.linspace(0, 1, 401):
            M = np.array([[b0, b1], [1 - b0, 1 - b1]]).dot(M1)
            if 0.5 * M[0, 0] + 0.5 * M[1, 1] >= 0.6 - 1e-12:
                best = min(best, mi2(pi, M))
    assert best >= float(res.value) - 1e-6 and best - float(res.value) < 5e-3


def test_larger_closures_reveal_less():
    n = 4
    U = [[-abs(d - w) for w in range(n)] for d in range(n)]
    dp = DifferentialPrivacy(path_graph(n - 1), exp_eps=2)
    geo = FiniteDefinition([truncated_geometric(n - 1, "1/2")])  # its closure is inside ε-DP on the path
    at_least = F(-1)
    a = least_informative(dp, U, at_least)
    b = least_informative(geo, U, at_least)
    assert a.formulation == "rows" and b.formulation == "closure"
    assert float(a.value) <= float(b.value) + 1e-6
    adp = least_informative(ApproximateDP(path_graph(n - 1), exp_eps=2, delta="1/20"), U, at_least)
    assert adp.formulation == "hockey-stick" and float(adp.value) <= float(a.value) + 1e-6


def test_bad_inputs():
    rr = RandomizedResponse(1, "3/4")
    with pytest.raises(InvalidParameterError, match="best achievable expected utility 3/4"):
        least_informative(rr, "accuracy", "4/5")
    with pytest.raises(DomainMismatchError, match="3 rows"):
        least_informative(rr, [[1, 0], [0, 1], [1, 1]], "1/2")
    with pytest.raises(InvalidParameterError, match="sum to 1"):
        least_informative(rr, "accuracy", "1/2", ["1/2", "1/3"])
    with pytest.raises(InvalidTypeError):
        least_informative("rr", "accuracy", "1/2")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="at_least"):
        least_informative(rr, "accuracy", "lots")
    with pytest.raises(SizeLimitError, match="information_variables"):
        least_informative(DifferentialPrivacy(path_graph(3), exp_eps=2), "accuracy", "1/2", max_variables=5)


def test_result_is_typed_and_serialisable():
    res = least_informative(RandomizedResponse(1, "3/4"), "accuracy", "2/3")
    assert isinstance(res, LeastInformative) and isinstance(res.value, float)  # one number: .value is it
    assert res.value == float(pg.analyses.mutual_information(res.mechanism))
    data = json.loads(res.to_json())
    assert data["solver"] == "CLARABEL" and data["exact"] is False and data["value"] == res.value
    assert "nats" in res.summary()
    with pytest.raises(Exception):
        res.status = "x"  # type: ignore[misc]


def test_import_privgeom_does_not_load_cvxpy():
    code = "import sys, privgeom; print('cvxpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def _cli(argv, capsys):
    from privgeom.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_objective_information(capsys, tmp_path):
    code, out, err = _cli(
        ["optimal", "rr:k=1,p=3/4", "--objective", "information", "--at-least", "2/3", "--json"], capsys
    )
    assert code == 0, err
    data = json.loads(out)
    assert abs(data["value"] - (math.log(2) - h(2 / 3))) < 1e-6 and data["best"] == "3/4"
    target = tmp_path / "m.json"
    code, out, err = _cli(
        ["optimal", "rr:k=1,p=3/4", "--objective", "information", "--at-least", "0.6", "--out", str(target)], capsys
    )
    assert code == 0 and "nats" in out and target.is_file()
    assert np.allclose(pg.Mechanism.load(str(target)).float_matrix(), [[0.6, 0.4], [0.4, 0.6]], atol=1e-4)
    # the default objective is still the utility LP
    code, out, err = _cli(["optimal", "rr:k=1,p=3/4", "--json"], capsys)
    assert code == 0 and json.loads(out)["value"] == "3/4"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--objective", "information", "--at-least", "4/5"], "best achievable expected utility 3/4"),
        (["--objective", "information"], "needs --at-least"),
        (["--at-least", "1/2"], "--objective information only"),
        (["--objective", "information", "--at-least", "x"], "'x'"),
        (["--objective", "entropy"], "entropy"),
    ],
)
def test_cli_information_errors(argv, fragment, capsys):
    code, out, err = _cli(["optimal", "rr:k=1,p=3/4", *argv], capsys)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
