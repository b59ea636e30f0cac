"""Every search is bounded: the smoothed-δ branch-and-bound of SHM counts its work, prunes in log
space with a relative tolerance, and at the ``smoothed_work`` limit returns a certified bracket.

Work is counted (window evaluations: expectations ``E_m`` and sharp cell bounds), never timed. The brute force is
independent of the fast path: every ``δ(N)`` from the dense hockey-stick kernel on the full pmfs
(:func:`direct_delta`) and the law of ``N = Bin(m, q_a) + Bin(n − m, q_b)`` from scipy, for every ``m``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import binom

import privgeom as pg
from privgeom import smoothed
from privgeom.smoothed._fastpath import direct_delta


def shm_smoothed(
    n: int, T: int, eps: object, dists: list, replace: bool = False, **kw: object
) -> smoothed.SmoothedDelta:
    """The route ``method="shm"`` of smoothed_delta on the sampling-histogram mechanism."""
    return smoothed.smoothed_delta(smoothed.SamplingHistogram(n, T, replace), eps, dists, method="shm", **kw)  # type: ignore[arg-type]


def brute_force(n: int, T: int, eps: float, qa: float, qb: float, replace: bool = False) -> float:
    """``max_m E[δ(N)]`` over every ``m`` (Proposition 5 of Liu, Wang & Xia), all dense."""
    d = direct_delta(n, T, eps, replace)
    ks = np.arange(n + 1)
    best = 0.0
    for m in range(n + 1):
        law = np.convolve(binom.pmf(ks[: m + 1], m, qa), binom.pmf(ks[: n - m + 1], n - m, qb))
        best = max(best, float(np.dot(law, d)))
    return best


def test_issue_case_answers_with_bounded_work() -> None:
    """The issue's call evaluated windows near 10^-106 for 250 s; now it stops after a counted, small amount of work
    (the grid maximum is 6.47e-106, attained at m = 0: every agent at q = 0.6385…)."""
    r = shm_smoothed(100000, 99000, 2, [0.5, 0.6385164560610739])
    assert r.complete and r.work <= 300 and r.evaluated <= 100, (r.work, r.evaluated)
    assert r.counts == (0, 100000)
    assert math.isclose(r.value, 6.47e-106, rel_tol=1e-3)
    lo, hi = r.value, r.upper
    assert lo == r.value and hi <= r.value * (1 + 1e-8)  # the bracket is certified and narrow
    assert math.isclose(r.log10, math.log10(r.value), rel_tol=1e-14)


@pytest.mark.parametrize(
    "n, T, eps, qs, replace",
    [
        (40, 30, 0.5, ("1/10", "1/2"), False),
        (60, 45, 1.0, ("1/4", "2/3"), False),
        (30, 20, 0.25, ("1/5", "3/5"), True),
    ],
)
def test_bracket_contains_the_brute_force_maximum(
    n: int, T: int, eps: float, qs: tuple[str, str], replace: bool
) -> None:
    qa, qb = (float(Fraction(q)) for q in qs)
    truth = brute_force(n, T, eps, qa, qb, replace)
    full = shm_smoothed(n, T, eps, list(qs), replace)
    assert full.complete and full.work_needed == full.work
    assert math.isclose(full.value, truth, rel_tol=1e-9)
    for budget in (1, 2, 3, 5, 8):
        r = shm_smoothed(n, T, eps, list(qs), replace, max_work=budget)
        lo, hi = r.value, r.upper
        assert lo <= truth * (1 + 1e-12) and truth <= hi * (1 + 1e-12), (budget, lo, truth, hi)
        if not r.complete:
            assert r.work <= max(budget, 4) + 2  # the endpoints, then at most one cell past the limit
            assert r.work_needed > r.work and "stopped at the work limit smoothed_work" in r.summary()
            assert "pg.set_limits(smoothed_work=" in r.summary()
            # the suggested budget is enough to finish
            done = shm_smoothed(n, T, eps, list(qs), replace, max_work=r.work_needed)
            assert done.complete and math.isclose(done.value, truth, rel_tol=1e-9)


def test_work_limit_is_the_registered_limit() -> None:
    args = (60, 45, 1.0, ["1/4", "2/3"])
    with pg.limits(smoothed_work=1):
        r = shm_smoothed(*args)
        assert not r.complete
        with pytest.raises(pg.SizeLimitError, match=r"smoothed_work = 1 window evaluations"):
            shm_smoothed(*args, on_limit="raise")
    assert shm_smoothed(*args).complete
    with pytest.raises(pg.InvalidParameterError, match="on_limit"):
        shm_smoothed(*args, on_limit="guess")


def test_cli_check_decides_from_the_bracket_and_refuses_when_it_cannot(capsys: pytest.CaptureFixture[str]) -> None:
    """With one window evaluation the bracket is [0.0324…, 0.75]: a bound below it is a certified no (exit 1), a
    bound inside it cannot be decided (exit 2, naming the limit and the value that finishes)."""
    from privgeom.cli import main

    argv = ["smoothed", "shm", "--n", "60", "--T", "45", "--eps", "1", "--q", "1/4", "2/3", "--check"]
    with pg.limits(smoothed_work=1):
        assert main(argv + ["1e-200"]) == 1
        capsys.readouterr()
        assert main(argv + ["1/10"]) == 2
    err = capsys.readouterr().err
    assert "cannot be decided" in err and "--limit smoothed_work=" in err  # the command-line form on the command line
    assert main(argv + ["1/10"]) == 0  # at the default limit the search completes: 0.0324… <= 1/10
