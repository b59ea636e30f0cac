"""The results of the referendum paper as executable checks (exact when ``ρ`` is rational).

Each check computes both sides by independent routes — definitions (mechanism matrix, enumeration of profiles,
Definition 5's coupling) on one side, Fourier or closed forms on the other — and returns a :class:`TheoremCheck`.

Examples
--------
>>> from privgeom import voting
>>> print(voting.check_probabilistic_influence(voting.majority(3), "1/2"))
Theorem 3 on majority(3), rho = 1/2: holds (exact) — I_i[M_rho f] = (1+rho^2)/2 · I_i[f] for every voter: 5/16 = 5/16
>>> all(voting.check_all(voting.tribes(2, 2), "1/3"))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.numeric import ATOL, LogRational, Scalar, parse_int
from .._core.numbers import number_text
from .._core.results import Decision
from ._accuracy import ACCURACY_ROUNDOFF, CLOSED_FORMS, _accuracy, _limit
from ._common import parse_rho
from ._fourier import SYMMETRIC_TABLE_MAX_N, fourier, noise_table
from ._influence import _influence_values, _probabilistic_values, _total_influence, _welfare
from ._mechanism import _bound, attains_bound, epsilon
from ._rules import Rule, _check_table_size, from_truth_table, majority, popcounts
from .._core.level import ScalarLike

__all__ = [
    "TheoremCheck",
    "check_epsilon_bound",
    "check_bound_attainment",
    "check_probabilistic_influence",
    "check_majority_maximises_welfare",
    "check_monotone_welfare",
    "check_noisy_welfare",
    "check_welfare_fourier",
    "check_accuracy_stability",
    "check_stability_noise_operator",
    "check_majority_accuracy_limit",
    "check_accuracy_closed_form",
    "check_all",
]

#: Largest electorate of the brute force of Proposition 4 (``2^(2^4) = 65536`` rules; ``n = 5`` would be ``2^32``).
BRUTE_FORCE_MAX_N = 4


@dataclass(frozen=True)
class TheoremCheck(Decision):
    """One executable check: ``holds`` compares ``lhs`` and ``rhs`` (exactly when ``exact``) by ``relation``.

    Examples
    --------
    >>> from privgeom import voting
    >>> c = voting.check_monotone_welfare(voting.majority(5))
    >>> bool(c), c.exact, c.lhs
    (True, True, Fraction(15, 8))
    """

    name: str
    rule: str
    rho: Scalar | None
    holds: bool
    exact: bool
    statement: str
    lhs: Any
    rhs: Any
    relation: str = "="

    def summary(self) -> str:
        at = f", rho = {self.rho}" if self.rho is not None else ""
        mode = "exact" if self.exact else "float"
        return f"{self.name} on {self.rule}{at}: {'holds' if self.holds else 'FAILS'} ({mode}) — {self.statement}: {_fmt(self.lhs)} {self.relation} {_fmt(self.rhs)}"


def _fmt(v: Any) -> str:
    if isinstance(v, (tuple, list)):
        items = [_fmt(x) for x in v]
        return items[0] if len(set(items)) == 1 else "(" + ", ".join(items) + ")"
    return number_text(v, digits=12)


def _same(a: Any, b: Any) -> tuple[bool, bool]:
    """(equal, compared exactly)."""
    if isinstance(a, (tuple, list)):
        pairs = [_same(x, y) for x, y in zip(a, b)]
        return len(a) == len(b) and all(p[0] for p in pairs), all(p[1] for p in pairs)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b, True
    if isinstance(a, LogRational) and isinstance(b, LogRational):
        return a == b, True
    return math.isclose(float(a), float(b), rel_tol=ATOL, abs_tol=ATOL), False


def _check(name: str, f: Rule | str, rho: Scalar | None, statement: str, lhs: Any, rhs: Any) -> TheoremCheck:
    ok, exact = _same(lhs, rhs)
    return TheoremCheck(name, f if isinstance(f, str) else f.name, rho, ok, exact, statement, lhs, rhs)


def _computed_epsilon(f: Rule, rho: ScalarLike) -> Any:
    """ε by computation (vote counts or the truth table), never by the closed forms that Remark 1 itself provides."""
    return epsilon(f, rho, method="counts" if f.is_symmetric else ("table" if f.has_table else "auto"))


def check_epsilon_bound(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """Proposition 2: the exact ε of ``M_ρ f`` (lhs, computed over the one-vote neighbour graph) is at most
    ``ln((1+ρ)/(1-ρ))`` (rhs).

    Examples
    --------
    >>> from privgeom import voting
    >>> print(voting.check_epsilon_bound(voting.majority(3), "1/2"))
    Proposition 2 on majority(3), rho = 1/2: holds (exact) — epsilon(M_rho f) <= ln((1+rho)/(1-rho)): ln(11/5) <= ln(3)
    """
    r = parse_rho(rho)
    res = _computed_epsilon(f, r.rho) if 0 < r.rho < 1 else epsilon(f, r.rho)
    bound = _bound(r)
    ok = res.epsilon <= bound if isinstance(res.epsilon, LogRational) and isinstance(bound, LogRational) else float(res.epsilon) <= float(bound) * (1 + ATOL) + ATOL
    return TheoremCheck("Proposition 2", f.name, r.rho, bool(ok), res.exact, "epsilon(M_rho f) <= ln((1+rho)/(1-rho))", res.epsilon, bound, "<=")


def check_bound_attainment(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """Remark 1: for ``0 < ρ < 1``, ε attains the bound iff a level set of ``f`` lies in a half-cube (ε computed
    by counts or on the truth table, the condition decided by :func:`~privgeom.voting.attains_bound`).

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_bound_attainment(voting.conjunction(3), "1/2").holds, voting.check_bound_attainment(voting.majority(3), "1/2").lhs
    (True, False)
    """
    r = parse_rho(rho)
    if not 0 < r.rho < 1:
        raise InvalidParameterError("Remark 1 is about 0 < rho < 1")
    res = _computed_epsilon(f, r.rho)
    cond = attains_bound(f).holds
    return TheoremCheck("Remark 1", f.name, r.rho, cond == res.attains_bound, res.exact, "epsilon attains the bound iff {f = r} ⊆ {z_i = b}", res.attains_bound, cond)


def check_probabilistic_influence(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """Theorem 3: ``I_i[M_ρ f] = (1+ρ²)/2 · I_i[f]`` — Definition 5 (joint law of the two re-noised votes times the
    table's pair differences) vs Fourier influences.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_probabilistic_influence(voting.tribes(2, 2), "1/3").lhs[0]    # 5/9 · I_0 = 5/9 · 3/8
    Fraction(5, 24)
    """
    r = parse_rho(rho)
    lhs = _probabilistic_values(f, r)
    base = _influence_values(f, "fourier") if f.has_table and f.n <= SYMMETRIC_TABLE_MAX_N else _influence_values(f)
    factor = (1 + r.rho * r.rho) / 2  # type: ignore[operator]
    rhs = tuple(factor * v if isinstance(v, Fraction) and r.exact else float(factor) * float(v) for v in base)
    return _check("Theorem 3", f, r.rho, "I_i[M_rho f] = (1+rho^2)/2 · I_i[f] for every voter", lhs, rhs)


def check_majority_maximises_welfare(n: int) -> TheoremCheck:
    """Proposition 4 by brute force over all ``2^(2^n)`` rules (``n ≤ 4``): for odd ``n`` majority is the unique
    welfare maximiser; for even ``n`` the maximisers are the ``2^{C(n, n/2)}`` tie-breakings (Remark 2).

    Examples
    --------
    >>> c = check_majority_maximises_welfare(3)
    >>> c.holds, c.lhs, c.rule
    (True, (1, True), 'all 256 rules on 3 voters')
    """
    n = parse_int(n, name="n", min=1, max=BRUTE_FORCE_MAX_N, what="voters of the brute force over all 2^(2^n) rules")
    size = 1 << n
    votes_sum = (n - 2 * popcounts(n)).astype(np.int64)
    codes = np.arange(1 << size, dtype=np.int64)
    tables = 1 - 2 * ((codes[:, None] >> np.arange(size)) & 1)  # every ±1 table
    welfare_num = tables @ votes_sum  # 2^n W(f)
    best = int(welfare_num.max())
    winners = np.nonzero(welfare_num == best)[0]
    if n % 2:
        maj = majority(n).table()
        lhs: Any = (len(winners), bool(np.array_equal(tables[winners[0]], maj)))
        rhs: Any = (1, True)
        statement = "number of welfare maximisers, and whether it is majority"
    else:
        lhs = len(winners)
        rhs = 2 ** math.comb(n, n // 2)
        statement = "number of welfare maximisers (ties broken either way, Remark 2)"
    return TheoremCheck("Proposition 4", f"all {1 << size} rules on {n} voters", None, lhs == rhs, True, statement, lhs, rhs)


def check_monotone_welfare(f: Rule) -> TheoremCheck:
    """Proposition 5: a monotone rule has ``W(f) = I[f]``.

    Examples
    --------
    >>> from privgeom import voting
    >>> print(voting.check_monotone_welfare(voting.majority(5)))
    Proposition 5 on majority(5): holds (exact) — W(f) = I[f]: 15/8 = 15/8
    """
    if not f.is_monotone:
        raise InvalidParameterError(f"Proposition 5 is about monotone rules; {f.name} is not monotone")
    return _check("Proposition 5", f, None, "W(f) = I[f]", _welfare(f, parse_rho(1)), _total_influence(f))


def check_noisy_welfare(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """Theorem 6: ``W(M_ρ f) = ρ W(f)`` — welfare of the mechanism by definition vs ``ρ`` times ``W(f)``.

    Examples
    --------
    >>> from privgeom import voting
    >>> c = voting.check_noisy_welfare(voting.tribes(2, 2), "1/3")
    >>> c.holds, c.lhs
    (True, Fraction(1, 2))
    """
    r = parse_rho(rho)
    method = "counts" if f.is_symmetric and not f.has_table else "definition"
    lhs = _welfare(f, r, method)
    base = _welfare(f, parse_rho(1), method)
    rhs = r.rho * base if r.exact and isinstance(base, Fraction) else float(r.rho) * float(base)  # type: ignore[operator]
    return _check("Theorem 6", f, r.rho, "W(M_rho f) = rho · W(f)", lhs, rhs)


def check_welfare_fourier(f: Rule) -> TheoremCheck:
    """Lemma 10: ``W(f) = Σ_i f̂({i})`` — welfare by definition vs the degree-one Fourier weights.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_welfare_fourier(voting.dictator(3, 1)).lhs
    Fraction(1, 1)
    """
    one = parse_rho(1)
    return _check("Lemma 10", f, None, "W(f) = sum_i f^({i})", _welfare(f, one, "definition"), _welfare(f, one, "fourier"))


def check_accuracy_stability(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """Equation (1): ``2 Acc(M_ρ f) - 1 = Stab_ρ[f]`` — accuracy read off the mechanism matrix vs Fourier stability.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_accuracy_stability(voting.majority(3), "1/2").rhs      # 3/4 ρ + 1/4 ρ^3
    Fraction(13, 32)
    """
    r = parse_rho(rho)
    acc = _accuracy(f, r, "definition")
    stab = fourier(f).stability(r.rho)
    return _check("Equation (1)", f, r.rho, "2 Acc(M_rho f) - 1 = Stab_rho[f]", 2 * acc - 1, stab)  # type: ignore[operator]


def check_stability_noise_operator(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """Equation (2): ``Stab_ρ[f] = E_x[f(x) T_ρ f(x)]`` — Fourier sum vs the noise operator applied to the table.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_stability_noise_operator(voting.parity(3), "1/2").lhs      # ρ^3
    Fraction(1, 8)
    """
    r = parse_rho(rho)
    stab = fourier(f).stability(r.rho)
    table = f.table()
    tf = noise_table(f, r)
    if tf.dtype == object:
        rhs: Scalar = sum((Fraction(v) * t for v, t in zip(table.tolist(), tf.tolist())), Fraction(0)) / table.shape[0]
    else:
        rhs = math.fsum((np.asarray(table, float) * tf).tolist()) / table.shape[0]
    return _check("Equation (2)", f, r.rho, "Stab_rho[f] = E[f · T_rho f]", stab, rhs)


def check_majority_accuracy_limit(n: int, rho: ScalarLike) -> TheoremCheck:
    """Equation (3) with Lemma 7: ``1/2 + arcsin(ρ)/π ≤ Acc(M_ρ Maj_n)``, and the accuracy decreases in odd ``n``.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_majority_accuracy_limit(11, "1/2").holds
    True
    """
    majority(n)  # n must be odd and positive (typed error otherwise)
    r = parse_rho(rho)
    accs = [float(_accuracy(majority(m), r.to_float())) for m in range(1, n + 1, 2)]
    low = _limit(r)
    decreasing = all(b <= a + ACCURACY_ROUNDOFF for a, b in zip(accs, accs[1:]))
    lhs = (accs[-1] >= low - ACCURACY_ROUNDOFF, decreasing)
    return TheoremCheck(
        "Equation (3)", f"majority(1..{n})", r.rho, lhs == (True, True), False,
        f"Acc >= 1/2 + arcsin(rho)/pi = {number_text(low, digits=12)} and Acc decreasing in n (Acc(Maj_{n}) = {number_text(accs[-1], digits=12)})", lhs, (True, True),
    )


def check_accuracy_closed_form(f: Rule, rho: ScalarLike) -> TheoremCheck:
    """The accuracy formulas of Section 6 (dictator ``(1+ρ)/2``, AND/OR ``1 - 2^{1-n}(1 - ((1+ρ)/2)^n)``, parity)
    against the accuracy read off the mechanism matrix.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.check_accuracy_closed_form(voting.conjunction(3), "1/3").lhs
    Fraction(89, 108)
    """
    if f.kind not in CLOSED_FORMS:
        raise InvalidParameterError(f"no closed form for {f.name}")
    r = parse_rho(rho)
    return _check(f"Accuracy of {f.kind}", f, r.rho, "closed form = P[M_rho f(x) = f(x)]", _accuracy(f, r, "closed_form"), _accuracy(f, r, "definition"))


def check_all(f: Rule, rho: ScalarLike) -> tuple[TheoremCheck, ...]:
    """Every check that applies to ``f`` (a voting rule with a truth table) at ``ρ``.

    Examples
    --------
    >>> from privgeom import voting
    >>> [c.name for c in voting.check_all(voting.majority(3), "1/2")][:4]
    ['Proposition 2', 'Theorem 3', 'Theorem 6', 'Lemma 10']
    """
    r = parse_rho(rho)
    checks = [check_epsilon_bound(f, r.rho), check_probabilistic_influence(f, r.rho), check_noisy_welfare(f, r.rho)]
    if f.has_table:
        checks += [check_welfare_fourier(f), check_accuracy_stability(f, r.rho), check_stability_noise_operator(f, r.rho)]
    if 0 < r.rho < 1:
        checks.append(check_bound_attainment(f, r.rho))
    if f.is_monotone:
        checks.append(check_monotone_welfare(f))
    if f.kind in CLOSED_FORMS and f.has_table:
        checks.append(check_accuracy_closed_form(f, r.rho))
    if f.is_symmetric and f.kind == "majority":
        checks.append(_check("Accuracy by the paper's recursion", f, r.rho, "recursion = counts", _accuracy(f, r, "recursion"), _accuracy(f, r, "counts")))
    return tuple(checks)


def random_rule(n: int, seed: int = 0) -> Rule:
    """A uniformly random voting rule on ``n`` voters (a helper of the tests and benchmarks, not part of the public
    API), reproducible from ``seed``.

    Examples
    --------
    >>> f = random_rule(3, seed=1)
    >>> f.name, f.table().tolist()
    ('random(3, seed=1)', [-1, 1, 1, 1, -1, -1, 1, 1])
    """
    n = parse_int(n, name="n", min=1)
    _check_table_size(n, exact_objects=False, what=f"random_rule({n})")
    rng = np.random.default_rng(seed)
    return from_truth_table(rng.choice(np.array([-1, 1]), size=1 << n), name=f"random({n}, seed={seed})")

