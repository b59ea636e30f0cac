"""The referendum paper (Evren & Vepakomma) in one namespace: its results as executable checks, Remark 1's
condition, Equation (3) for majority and Figure 2.

- :data:`CHECKS` maps each result's name (``"Proposition 2"``, ``"Theorem 3"``, …, ``"Section 6"``) to its check;
  :func:`check_all` runs every check that applies to a rule. Each check computes both sides by independent routes —
  definitions (mechanism matrix, enumeration of profiles, Definition 5's coupling) on one side, Fourier or closed
  forms on the other — and returns a :class:`TheoremCheck` (exact when ``ρ`` is rational). The noise is ``rho=`` or
  its privacy level ``eps=`` (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17).
- :func:`attains_bound`: Remark 1's condition, decided on the rule's level sets.
- :func:`majority_accuracy_bounds`: the accuracy of majority against Equation (3)'s arcsine bounds.
- :func:`majority_accuracy_data`, :func:`majority_accuracy_figure`: Figure 2.

Examples
--------
>>> from privgeom import voting
>>> from privgeom.voting import paper
>>> print(paper.CHECKS["Theorem 3"](voting.majority(3), "1/2"))
Theorem 3 on majority(3), rho = 1/2: holds (exact) — I_i[M_rho f] = (1+rho^2)/2 · I_i[f] for every voter: 5/16 = 5/16
>>> all(paper.check_all(voting.tribes(2, 2), "1/3")), all(paper.check_all(voting.majority(5), eps="ln(2)"))
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Mapping

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.level import LevelLike
from .._core.arrays import ATOL, parse_int
from .._core.numbers import LogRational, Scalar
from .._core.numbers import number_text
from .._core.results import Decision
from ._accuracy import (  # noqa: F401 - MajorityAccuracy and BoundAttainment: the result types, importable from here
    ACCURACY_ROUNDOFF,
    CLOSED_FORMS,
    MajorityAccuracy,
    _accuracy,
    _limit,
    majority_accuracy_bounds,
    majority_accuracy_data,
    majority_accuracy_figure,
)
from ._common import RhoLike, noise, parse_rho
from ._fourier import SYMMETRIC_TABLE_MAX_N, fourier, noise_table
from ._influence import _influence_values, _probabilistic_values, _total_influence, _welfare
from ._mechanism import BoundAttainment, attains_bound, epsilon  # noqa: F401
from ._profiles import popcounts
from ._rules import Rule, majority

__all__ = [
    "CHECKS",
    "check_all",
    "attains_bound",
    "majority_accuracy_bounds",
    "majority_accuracy_data",
    "majority_accuracy_figure",
]

#: Largest electorate of the brute force of Proposition 4 (``2^(2^4) = 65536`` rules; ``n = 5`` would be ``2^32``).
BRUTE_FORCE_MAX_N = 4


@dataclass(frozen=True)
class TheoremCheck(Decision):
    """One executable check: ``holds`` compares ``lhs`` and ``rhs`` (exactly when ``exact``) by ``relation``.

    Examples
    --------
    >>> from privgeom import voting
    >>> c = CHECKS["Proposition 5"](voting.majority(5))
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
    return TheoremCheck(
        name=name,
        rule=f if isinstance(f, str) else f.name,
        rho=rho,
        holds=ok,
        exact=exact,
        statement=statement,
        lhs=lhs,
        rhs=rhs,
    )


def _computed_epsilon(f: Rule, rho: Scalar) -> Any:
    """ε by computation (vote counts or the truth table), never by the closed forms that Remark 1 itself provides."""
    return epsilon(f, rho, method="counts" if f.is_symmetric else ("table" if f.has_table else "auto"))


def _proposition_2(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Proposition 2: the exact ε of ``M_ρ f`` (lhs, computed over the one-vote neighbour graph) is at most
    ``ln((1+ρ)/(1-ρ))`` (rhs).

    Examples
    --------
    >>> from privgeom import voting
    >>> print(CHECKS["Proposition 2"](voting.majority(3), "1/2"))
    Proposition 2 on majority(3), rho = 1/2: holds (exact) — epsilon(M_rho f) <= ln((1+rho)/(1-rho)): ln(11/5) <= ln(3)
    """
    r = noise(rho, eps=eps)
    res = _computed_epsilon(f, r.rho) if 0 < r.rho < 1 else epsilon(f, r.rho)
    bound = r.level
    ok = res.level <= bound if res.level.exact and bound.exact else float(res.level) <= float(bound) * (1 + ATOL) + ATOL
    return TheoremCheck(
        name="Proposition 2",
        rule=f.name,
        rho=r.rho,
        holds=bool(ok),
        exact=res.exact,
        statement="epsilon(M_rho f) <= ln((1+rho)/(1-rho))",
        lhs=res.level.eps,
        rhs=bound.eps,
        relation="<=",
    )


def _remark_1(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Remark 1: for ``0 < ρ < 1``, ε attains the bound iff a level set of ``f`` lies in a half-cube (ε computed
    by counts or on the truth table, the condition decided by :func:`attains_bound`).

    Examples
    --------
    >>> from privgeom import voting
    >>> CHECKS["Remark 1"](voting.conjunction(3), "1/2").holds, CHECKS["Remark 1"](voting.majority(3), "1/2").lhs
    (True, False)
    """
    r = noise(rho, eps=eps)
    if not 0 < r.rho < 1:
        raise InvalidParameterError("Remark 1 is about 0 < rho < 1")
    res = _computed_epsilon(f, r.rho)
    cond = attains_bound(f).holds
    return TheoremCheck(
        name="Remark 1",
        rule=f.name,
        rho=r.rho,
        holds=cond == res.attains_bound,
        exact=res.exact,
        statement="epsilon attains the bound iff {f = r} ⊆ {z_i = b}",
        lhs=res.attains_bound,
        rhs=cond,
    )


def _theorem_3(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Theorem 3: ``I_i[M_ρ f] = (1+ρ²)/2 · I_i[f]`` — Definition 5 (joint law of the two re-noised votes times the
    table's pair differences) vs Fourier influences.

    Examples
    --------
    >>> from privgeom import voting
    >>> CHECKS["Theorem 3"](voting.tribes(2, 2), "1/3").lhs[0]    # 5/9 · I_0 = 5/9 · 3/8
    Fraction(5, 24)
    """
    r = noise(rho, eps=eps)
    lhs = _probabilistic_values(f, r)
    base = _influence_values(f, "fourier") if f.has_table and f.n <= SYMMETRIC_TABLE_MAX_N else _influence_values(f)
    factor = (1 + r.rho * r.rho) / 2
    rhs = tuple(factor * v if isinstance(v, Fraction) and r.exact else float(factor) * float(v) for v in base)
    return _check("Theorem 3", f, r.rho, "I_i[M_rho f] = (1+rho^2)/2 · I_i[f] for every voter", lhs, rhs)


def _proposition_4(n: int) -> TheoremCheck:
    """Proposition 4 by brute force over all ``2^(2^n)`` rules on ``n`` voters (``n ≤ 4``): for odd ``n`` majority is
    the unique welfare maximiser; for even ``n`` the maximisers are the ``2^{C(n, n/2)}`` tie-breakings (Remark 2).

    Examples
    --------
    >>> c = CHECKS["Proposition 4"](3)
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
    return TheoremCheck(
        name="Proposition 4",
        rule=f"all {1 << size} rules on {n} voters",
        rho=None,
        holds=lhs == rhs,
        exact=True,
        statement=statement,
        lhs=lhs,
        rhs=rhs,
    )


def _proposition_5(f: Rule) -> TheoremCheck:
    """Proposition 5: a monotone rule has ``W(f) = I[f]``.

    Examples
    --------
    >>> from privgeom import voting
    >>> print(CHECKS["Proposition 5"](voting.majority(5)))
    Proposition 5 on majority(5): holds (exact) — W(f) = I[f]: 15/8 = 15/8
    """
    if not f.is_monotone:
        raise InvalidParameterError(f"Proposition 5 is about monotone rules; {f.name} is not monotone")
    return _check("Proposition 5", f, None, "W(f) = I[f]", _welfare(f, parse_rho(1)), _total_influence(f))


def _theorem_6(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Theorem 6: ``W(M_ρ f) = ρ W(f)`` — welfare of the mechanism by definition vs ``ρ`` times ``W(f)``.

    Examples
    --------
    >>> from privgeom import voting
    >>> c = CHECKS["Theorem 6"](voting.tribes(2, 2), "1/3")
    >>> c.holds, c.lhs
    (True, Fraction(1, 2))
    """
    r = noise(rho, eps=eps)
    method = "counts" if f.is_symmetric and not f.has_table else "definition"
    lhs = _welfare(f, r, method)
    base = _welfare(f, parse_rho(1), method)
    rhs = r.rho * base if r.exact and isinstance(base, Fraction) else float(r.rho) * float(base)
    return _check("Theorem 6", f, r.rho, "W(M_rho f) = rho · W(f)", lhs, rhs)


def _lemma_10(f: Rule) -> TheoremCheck:
    """Lemma 10: ``W(f) = Σ_i f̂({i})`` — welfare by definition vs the degree-one Fourier weights.

    Examples
    --------
    >>> from privgeom import voting
    >>> CHECKS["Lemma 10"](voting.dictator(3, 1)).lhs
    Fraction(1, 1)
    """
    one = parse_rho(1)
    return _check(
        "Lemma 10", f, None, "W(f) = sum_i f^({i})", _welfare(f, one, "definition"), _welfare(f, one, "fourier")
    )


def _equation_1(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Equation (1): ``2 Acc(M_ρ f) - 1 = Stab_ρ[f]`` — accuracy read off the mechanism matrix vs Fourier stability.

    Examples
    --------
    >>> from privgeom import voting
    >>> CHECKS["Equation (1)"](voting.majority(3), "1/2").rhs      # 3/4 ρ + 1/4 ρ^3
    Fraction(13, 32)
    """
    r = noise(rho, eps=eps)
    acc = _accuracy(f, r, "definition")
    stab = fourier(f).stability(r.rho)
    return _check("Equation (1)", f, r.rho, "2 Acc(M_rho f) - 1 = Stab_rho[f]", 2 * acc - 1, stab)


def _equation_2(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Equation (2): ``Stab_ρ[f] = E_x[f(x) T_ρ f(x)]`` — Fourier sum vs the noise operator applied to the table.

    Examples
    --------
    >>> from privgeom import voting
    >>> CHECKS["Equation (2)"](voting.parity(3), "1/2").lhs      # ρ^3
    Fraction(1, 8)
    """
    r = noise(rho, eps=eps)
    stab = fourier(f).stability(r.rho)
    table = f.table()
    tf = noise_table(f, r)
    if tf.dtype == object:
        rhs: Scalar = sum((Fraction(v) * t for v, t in zip(table.tolist(), tf.tolist())), Fraction(0)) / table.shape[0]
    else:
        rhs = math.fsum((np.asarray(table, float) * tf).tolist()) / table.shape[0]
    return _check("Equation (2)", f, r.rho, "Stab_rho[f] = E[f · T_rho f]", stab, rhs)


def _equation_3(n: int, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """Equation (3) with Lemma 7 on majority of ``n`` voters: ``1/2 + arcsin(ρ)/π ≤ Acc(M_ρ Maj_n)``, and the
    accuracy decreases in odd ``n``.

    Examples
    --------
    >>> CHECKS["Equation (3)"](11, "1/2").holds
    True
    """
    majority(n)  # n must be odd and positive (typed error otherwise)
    r = noise(rho, eps=eps)
    accs = [float(_accuracy(majority(m), r.to_float())) for m in range(1, n + 1, 2)]
    low = _limit(r)
    decreasing = all(b <= a + ACCURACY_ROUNDOFF for a, b in zip(accs, accs[1:]))
    lhs = (accs[-1] >= low - ACCURACY_ROUNDOFF, decreasing)
    return TheoremCheck(
        name="Equation (3)",
        rule=f"majority(1..{n})",
        rho=r.rho,
        holds=lhs == (True, True),
        exact=False,
        statement=f"Acc >= 1/2 + arcsin(rho)/pi = {number_text(low, digits=12)} and Acc decreasing in n (Acc(Maj_{n}) = {number_text(accs[-1], digits=12)})",
        lhs=lhs,
        rhs=(True, True),
    )


def _section_6(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> TheoremCheck:
    """The accuracy formulas of Section 6 (dictator ``(1+ρ)/2``, AND/OR ``1 - 2^{1-n}(1 - ((1+ρ)/2)^n)``, parity)
    against the accuracy read off the mechanism matrix.

    Examples
    --------
    >>> from privgeom import voting
    >>> CHECKS["Section 6"](voting.conjunction(3), "1/3").lhs
    Fraction(89, 108)
    """
    if f.kind not in CLOSED_FORMS:
        raise InvalidParameterError(f"no closed form for {f.name}")
    r = noise(rho, eps=eps)
    return _check(
        f"Accuracy of {f.kind}",
        f,
        r.rho,
        "closed form = P[M_rho f(x) = f(x)]",
        _accuracy(f, r, "closed_form"),
        _accuracy(f, r, "definition"),
    )


#: The paper's results as checks, keyed by the result's name. Each is called with what the result is about — a rule
#: and the noise (``rho=`` or ``eps=``) for most; a rule alone for ``"Proposition 5"`` and ``"Lemma 10"``; a number
#: of voters for ``"Proposition 4"`` and, with the noise, ``"Equation (3)"`` — and returns a :class:`TheoremCheck`.
CHECKS: Mapping[str, Callable[..., TheoremCheck]] = MappingProxyType(
    {
        "Proposition 2": _proposition_2,
        "Remark 1": _remark_1,
        "Theorem 3": _theorem_3,
        "Proposition 4": _proposition_4,
        "Proposition 5": _proposition_5,
        "Theorem 6": _theorem_6,
        "Lemma 10": _lemma_10,
        "Equation (1)": _equation_1,
        "Equation (2)": _equation_2,
        "Equation (3)": _equation_3,
        "Section 6": _section_6,
    }
)


def check_all(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> tuple[TheoremCheck, ...]:
    """Every check of :data:`CHECKS` that applies to the rule ``f`` at the noise ``ρ`` (or its level ``ε``), and the
    paper's recursion against the counts for majority.

    Examples
    --------
    >>> from privgeom import voting
    >>> [c.name for c in check_all(voting.majority(3), "1/2")][:4]
    ['Proposition 2', 'Theorem 3', 'Theorem 6', 'Lemma 10']
    """
    r = noise(rho, eps=eps)
    rho_ = r.rho
    checks = [_proposition_2(f, rho_), _theorem_3(f, rho_), _theorem_6(f, rho_)]
    if f.has_table:
        checks += [_lemma_10(f), _equation_1(f, rho_), _equation_2(f, rho_)]
    if 0 < rho_ < 1:
        checks.append(_remark_1(f, rho_))
    if f.is_monotone:
        checks.append(_proposition_5(f))
    if f.kind in CLOSED_FORMS and f.has_table:
        checks.append(_section_6(f, rho_))
    if f.is_symmetric and f.kind == "majority":
        checks.append(
            _check(
                "Accuracy by the paper's recursion",
                f,
                rho_,
                "recursion = counts",
                _accuracy(f, r, "recursion"),
                _accuracy(f, r, "counts"),
            )
        )
    return tuple(checks)
