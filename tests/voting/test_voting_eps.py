"""The noise as a privacy level: ``eps=`` wherever ``rho=`` is (docs/theory.md §17).

The bridge ``e^ε = (1+ρ)/(1−ρ)``, ``ρ = (e^ε−1)/(e^ε+1)`` is checked on closed values (ln 3 ↔ 1/2, ln(9/4) ↔ 5/13),
both ways exactly on rationals, against ``tanh(ε/2)`` in floats, and through every voting function: the same noise
given either way gives the same answer, exactly.

This file is also where the voting tests reach the private kernels underneath the public functions: the per-level
Fourier coefficients of a symmetric rule, the coupling laws of probabilistic influence, the binomial log-pmf at the
edges, the accuracy limit, and the names kept out of the public surface.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

import privgeom as pg
from privgeom import voting
from privgeom.cli import main
from privgeom.voting import paper
from privgeom.voting._common import noise, parse_rho


@pytest.mark.parametrize(
    ("eps", "rho"),
    [
        ("ln(3)", Fraction(1, 2)),
        ("ln(9/4)", Fraction(5, 13)),
        (0, Fraction(0)),
        ("ln(2)", Fraction(1, 3)),
        (pg.PrivacyLevel.from_exp_eps(7), Fraction(3, 4)),
        (pg.LogRational(Fraction(101, 99)), Fraction(1, 100)),
    ],
)
def test_closed_values_of_the_bridge(eps: object, rho: Fraction) -> None:
    r = noise(eps=eps)
    assert r.exact and r.rho == rho and isinstance(r.rho, Fraction)
    assert noise(rho).level.exp_eps == (1 + rho) / (1 - rho) == r.level.exp_eps  # and back: e^ε = (1+ρ)/(1−ρ)


def test_the_bridge_is_a_bijection_on_rationals() -> None:
    for a in range(0, 40):
        rho = Fraction(a, 41)
        level = parse_rho(rho).level
        assert noise(eps=level).rho == rho  # ρ → e^ε → ρ, exactly
        t = Fraction(a + 41, 41)  # e^ε ≥ 1 → ρ → e^ε
        assert parse_rho(noise(eps=pg.PrivacyLevel.from_exp_eps(t)).rho).level.exp_eps == t


def test_float_levels_give_tanh() -> None:
    for eps in (1e-12, 1e-6, 0.3, 1.0, 5.0, 30.0):
        r = noise(eps=eps)
        assert not r.exact and r.rho == pytest.approx(math.tanh(eps / 2), rel=1e-15)
        # log1p(ρ) − log1p(−ρ) recovers ε, also near 0; near ρ = 1 the float ρ holds 1 − ρ only to 2^-53 absolute,
        # so ε comes back to within 2^-52 / (1 − ρ) (6e-4 at ε = 30, where 1 − ρ ≈ 2e-13)
        assert abs(float(r.level) - eps) <= 1e-12 * eps + 2.0**-52 / (1 - float(r.rho))
    assert noise(eps=pg.PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True)).rho == 1
    assert noise(eps="1/2").rho == pytest.approx(math.tanh(0.25), rel=1e-15)  # rational ε: e^ε irrational, float


def test_exactly_one_of_rho_and_eps() -> None:
    f = voting.majority(3)
    with pytest.raises(pg.InvalidParameterError, match="exactly one of rho= and eps="):
        voting.accuracy(f, "1/2", eps="ln(3)")
    with pytest.raises(pg.InvalidParameterError, match="rho= .* or eps="):
        voting.accuracy(f)
    with pytest.raises(pg.InvalidParameterError, match="must be >= 0"):
        voting.epsilon(f, eps=-1)
    assert voting.welfare(f) == voting.welfare(f, 1) == Fraction(3, 2)  # welfare alone defaults to no noise


RULES = [voting.majority(5), voting.dictator(3, 1), voting.tribes(2, 2), voting.threshold(4, 1), voting.parity(3)]


@pytest.mark.parametrize("f", RULES, ids=lambda f: f.name)
def test_every_function_takes_the_level(f: voting.Rule) -> None:
    rho, eps = "1/3", "ln(2)"  # e^ε = (1 + 1/3)/(1 − 1/3) = 2
    assert voting.accuracy(f, rho) == voting.accuracy(f, eps=eps)
    assert voting.stability(f, rho) == voting.stability(f, eps=eps)
    assert voting.welfare(f, rho) == voting.welfare(f, eps=eps)
    assert voting.probabilistic_influence(f, rho) == voting.probabilistic_influence(f, eps=eps)
    assert voting.noise_operator(f, rho) == voting.noise_operator(f, eps=eps)
    assert voting.fourier(f).stability(rho) == voting.fourier(f).stability(eps=eps)
    assert voting.mechanism(f, rho) == voting.mechanism(f, eps=eps)
    by_rho, by_eps = voting.epsilon(f, rho), voting.epsilon(f, eps=eps)
    assert by_rho == by_eps and by_eps.bound == pg.PrivacyLevel.from_eps(eps)  # Proposition 2's bound is ε itself
    assert by_eps.level <= by_eps.bound
    assert [c.holds for c in paper.check_all(f, rho)] == [c.holds for c in paper.check_all(f, eps=eps)]
    assert paper.CHECKS["Theorem 3"](f, eps=eps) == paper.CHECKS["Theorem 3"](f, rho)


def test_majority_accuracy_bounds_take_the_level() -> None:
    assert paper.majority_accuracy_bounds(101, eps="ln(3)") == paper.majority_accuracy_bounds(101, "1/2")
    assert paper.CHECKS["Equation (3)"](21, eps=1.0).holds


def test_mechanism_is_on_the_bit_string_domain() -> None:
    M = voting.mechanism(voting.majority(3), eps="ln(3)")
    rr = pg.randomized_response(3, "3/4")
    assert M.domain.kind == rr.domain.kind == "bits" and M.inputs == rr.inputs
    core, fast = pg.epsilon(M, "hamming"), voting.epsilon(voting.majority(3), "1/2", method="table")
    assert core.p / core.q == fast.p / fast.q == Fraction(11, 5)  # witnesses may differ among ties, not the ratio
    assert float(core) == pytest.approx(float(fast), rel=1e-15) and fast.level.exp_eps == Fraction(11, 5)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["voting", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_eps_next_to_rho(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (
        ("accuracy", "majority", "-n", "5"),
        ("welfare", "majority", "-n", "5"),
        ("influence", "tribes", "--width", "2", "--count", "2"),
    ):
        code_r, by_rho, _ = _cli(capsys, *command, "--rho", "1/2")
        code_e, by_eps, _ = _cli(capsys, *command, "--eps", "ln(3)")
        assert code_r == code_e == 0 and by_rho == by_eps and "rho = 1/2" in by_eps
    with pytest.raises(SystemExit) as stop:  # argparse refuses both, naming them
        main(["voting", "accuracy", "majority", "-n", "5", "--rho", "1/2", "--eps", "ln(3)"])
    assert stop.value.code == 2 and "not allowed with argument --rho" in capsys.readouterr().err
    code, _, err = _cli(capsys, "accuracy", "majority", "-n", "5", "--eps=-1")
    assert code == 2 and "--eps must be >= 0" in err


def test_cli_epsilon_with_the_level_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "epsilon", "majority", "-n", "3", "--eps", "ln(3)", "--json")
    data = json.loads(out)
    assert code == 0 and data["rho"] == "1/2" and data["level"]["eps"]["ln"] == "11/5" and data["private"] is True
    code, _, err = _cli(capsys, "epsilon", "majority", "-n", "3")
    assert code == 2 and "--rho" in err


def test_symmetric_spectrum_by_level_equals_table_spectrum() -> None:
    rule = voting.Rule.symmetric([1, -1, -1, 1, 1, -1, 1])
    by_table = voting.fourier(rule)
    from privgeom.voting._fourier import symmetric_level_coefficients

    levels = symmetric_level_coefficients(rule)
    for S, c in by_table.nonzero():
        assert c == levels[len(S)]
    assert by_table.level_weights() == tuple(math.comb(6, k) * c * c for k, c in enumerate(levels))


def test_coupling_tables_are_distributions() -> None:
    from privgeom.voting._influence import coupling_table

    for c in ("definition5", "shared", "same_flip"):
        law = coupling_table(c, "2/5")
        assert sum(law.values()) == 1 and all(v >= 0 for v in law.values())
    with pytest.raises(pg.InvalidParameterError):
        voting.probabilistic_influence(voting.majority(3), "1/2", coupling="bogus")


def test_binomial_log_pmf_keeps_relative_precision_at_the_edges() -> None:
    """P(Bin(n, p) = n) = p^n with p = (1+rho)/2 rounded in floats: the log must come from the exact q."""
    from decimal import Decimal, localcontext

    import numpy as np

    from privgeom.voting._common import log_binom_pmf

    n, rho = 100000, 0.999999
    p, q = (1 + rho) / 2, (1 - rho) / 2
    with localcontext() as ctx:
        ctx.prec = 40
        exact = n * (1 - Decimal(q)).ln()  # q = (1-rho)/2 is exact in floats
    value = float(log_binom_pmf(np.array([n]), n, p, q)[0])
    assert abs(Decimal(value) - exact) <= abs(exact) * Decimal("1e-15")


def test_public_surface_is_user_facing() -> None:
    for name in ("FIGURE_RHOS", "COUPLINGS", "MAX_COUNT_VOTERS", "random_rule"):
        assert name not in voting.__all__ and not hasattr(voting, name), name
    from privgeom.voting._accuracy import FIGURE_RHOS
    from privgeom.voting._influence import COUPLINGS
    from privgeom.voting._rule import MAX_COUNT_VOTERS

    assert FIGURE_RHOS and "definition5" in COUPLINGS and MAX_COUNT_VOTERS >= 10**6
    assert not [n for n in voting.__all__ if n.startswith("check_")]  # the paper's checks live in voting.paper
    assert len(paper.CHECKS) == 11 and "check_all" in paper.__all__
    assert all(hasattr(voting, n) for n in voting.__all__) and all(hasattr(paper, n) for n in paper.__all__)
    # the budget: at most 24 public names in voting and voting.paper together; result types are received,
    # not constructed, so they are importable from their modules but not listed
    names = set(voting.__all__) | set(paper.__all__)
    assert len(names) <= 24, sorted(names)
    assert not {"Influences", "VotingEpsilon", "TheoremCheck", "FourierSpectrum", "Banzhaf"} & names


def test_majority_accuracy_limit_is_a_quantity() -> None:
    """The limit ``1/2 + arcsin(ρ)/π`` that the figure and ``voting accuracy`` print is a float Quantity."""
    from privgeom.voting._accuracy import majority_accuracy_limit

    limit = majority_accuracy_limit(0.5)
    assert isinstance(limit, pg.Quantity) and not limit.exact and float(limit) == pytest.approx(0.5 + 1 / 6)
    assert limit < voting.accuracy(voting.majority(101), 0.5)
