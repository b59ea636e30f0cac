"""``M_ρ f`` as a matrix, its exact ε over the one-vote neighbour graph, and Remark 1's equality condition.

``M_ρ f(x)`` outputs ``f(y)`` with ``y ~ N_ρ x`` (Definition 2 of the referendum paper). As a privgeom
:class:`~privgeom.Mechanism` its inputs are the ``2^n`` profiles as the bit-string :class:`~privgeom.Domain`
``Domain.bits(n)`` (vote ``+1`` ↔ ``"1"``, ``-1`` ↔ ``"0"``, reverse lexicographic order) — exactly the datasets of
``privgeom.randomized_response(n, p)`` with ``p = (1+ρ)/2`` — and its rows are the values of ``f`` (``"1"`` then
``"-1"``). The noise is given as ``rho=`` or as the level ``eps=`` of that randomized response,
``e^ε = (1+ρ)/(1-ρ)`` (``docs/theory.md`` §17). Since ``M_ρ f = A · RR_n(p)`` with the deterministic post-processing ``A[r, y] = [f(y) = r]``, it lies in
``closure(RR_n(p))``.

Proposition 2: ``M_ρ f`` is ``ln((1+ρ)/(1-ρ))``-DP for every ``f``. Remark 1: the bound is attained iff some output
``r`` has a non-empty level set ``{f = r}`` inside a half-cube ``{z_i = b}`` (then the ratio is exactly ``p/q``;
otherwise every ratio ``(pA + qB)/(qA + pB)`` with ``A, B > 0`` is strictly smaller). :func:`epsilon` computes the
exact ε — a :class:`~privgeom.LogRational` when ``ρ`` is rational.

Examples
--------
>>> from privgeom import voting
>>> M = voting.mechanism(voting.majority(3), "1/2")
>>> M.inputs[:3], M.outputs, M.domain.kind, [str(v) for v in M.row("1")[:2]]
(('111', '110', '101'), ('1', '-1'), 'bits', ['27/32', '21/32'])
>>> e = voting.epsilon(voting.majority(3), "1/2", method="table")
>>> str(e.level), str(e.bound), e.attains_bound, e.edge
('ln(11/5)', 'ln(3)', False, ('100', '000'))
>>> voting.epsilon(voting.majority(3), eps="ln(3)", method="table") == e    # the same noise as a level: ρ = 1/2
True
>>> voting.epsilon(voting.majority(3), "1/2").counts       # by vote count: one +1 vote against none
(1, 0)
>>> voting.epsilon(voting.dictator(3), "1/2").attains_bound
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from .._core.domain import Domain
from .._core.level import LevelLike, PrivacyLevel
from .._core.arrays import ATOL, ROUNDOFF
from .._core.numbers import log_of_ratio, LogRational, Scalar
from .._core.results import Decision
from ..analyses.profiles._pure_dp import EpsilonResult
from ..mechanisms import Mechanism
from ..mechanisms._factories import bit_strings
from ._common import Rho, RhoLike, noise, parse_rho, pick_route
from .._core.numbers import log10_text, number_text
from ._counts import epsilon_counts
from ._fourier import apply_noise, apply_noise_integer, apply_noise_log
from ._profiles import half
from ._rules import Rule, check_rule

__all__ = [
    "mechanism",
    "epsilon",
    "VotingEpsilon",
    "attains_bound",
    "BoundAttainment",
    "epsilon_bound",
    "output_values",
]


def output_values(f: Rule) -> list[Any]:
    """Output labels' values: ``[1, -1]`` for a voting rule, else the distinct values in decreasing order."""
    if f.is_boolean:
        return [1, -1]
    vals = f.counts if f.counts is not None else f.table()
    return sorted(set(vals.tolist()), reverse=True)


def _label(value: Any) -> str:
    return str(value)


def mechanism(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> Mechanism:
    """``M_ρ f`` as a column-stochastic matrix: ``M[r, x] = P(f(y) = r)``, ``y ~ N_ρ x`` (Definition 2).

    Inputs: the profiles as ``Domain.bits(n)``, labelled and ordered as the datasets of
    ``privgeom.randomized_response(n, (1+ρ)/2)``; outputs: ``"1"`` and ``"-1"`` (both rows always present). The noise
    is ``rho=`` or ``eps=`` (exactly one; ``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17). Exact (Fractions) for
    rational ``ρ`` or rational ``e^ε``.

    Examples
    --------
    >>> from privgeom import voting
    >>> print(voting.mechanism(voting.dictator(2), "1/2"))
                  11       10       01       00
          1      3/4      3/4      1/4      1/4
         -1      1/4      1/4      3/4      3/4
    """
    f = check_rule(f)
    r = noise(rho, eps=eps)
    table = f.table()
    values = output_values(f)
    n = f.n
    if r.exact:
        rows = np.empty((len(values), table.shape[0]), dtype=object)
        for k, value in enumerate(values):
            nums, den = apply_noise_integer((table == value).astype(np.int64), n, r.a, r.b)
            rows[k] = [Fraction(int(v), den) for v in nums]
        return Mechanism(rows, Domain.bits(n), [_label(v) for v in values], exact=True)
    rows_f = np.stack([apply_noise((table == value).astype(float), n, float(r.p), float(r.q)) for value in values])
    return Mechanism(rows_f, Domain.bits(n), [_label(v) for v in values], exact=False)


def epsilon_bound(rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> PrivacyLevel:
    """``ε = ln((1+ρ)/(1-ρ))`` (Proposition 2) as a :class:`~privgeom.PrivacyLevel`: exact (``e^ε = (1+ρ)/(1-ρ)``)
    for rational ``ρ < 1``, infinite at ``ρ = 1`` — the level of randomized response with ``p = (1+ρ)/2``
    (``docs/theory.md`` §17), so ``epsilon_bound(eps=ε)`` is ``ε`` itself.

    Examples
    --------
    >>> b = epsilon_bound("1/2")
    >>> str(b), b.exp_eps, b.exact
    ('ln(3)', Fraction(3, 1), True)
    >>> round(float(epsilon_bound(0.5)), 12), epsilon_bound(1).infinite, str(epsilon_bound(eps="ln(5)"))
    (1.098612288668, True, 'ln(5)')
    """
    return noise(rho, eps=eps).level


@dataclass(frozen=True)
class VotingEpsilon(EpsilonResult):
    """Exact ε of ``M_ρ f`` over profiles differing in one vote: the core :class:`~privgeom.analyses.profiles._pure_dp.EpsilonResult` (same
    ``level``, ``edge``, ``output``, ``p``, ``q``, ``graph`` as ``privgeom.epsilon(voting.mechanism(f, ρ),
    "hamming")``) with the voting details added.

    ``level`` is ε as a :class:`~privgeom.PrivacyLevel` with ``level.exp_eps = p / q = P(M_ρ f(D) = output) /
    P(M_ρ f(D') = output)`` for the witness ``edge = (D, D')``; ``bound`` is Proposition 2's level of the randomized
    response itself (``docs/theory.md`` §17). The ``table`` method names the two profiles as bit strings; the
    ``counts`` method (symmetric rules) names their numbers of ``+1`` votes
    (``counts``) and, for ``n <=`` :data:`EDGE_LABEL_MAX_N`, two representative profiles (``edge``); its log-space
    engine also gives ``log10_p`` and ``log10_q``, finite where ``p`` and ``q`` underflow a double (majority at
    ``n = 100001``: ``p ≈ 10^-4352``).
    ``float(result)`` is ε to full relative precision (also when the exact ratio is within ``2^-50`` of 1).

    Examples
    --------
    >>> from privgeom import voting
    >>> e = voting.epsilon(voting.parity(3), "1/2", method="table")
    >>> str(e.level), e.level.exp_eps, e.edge, round(float(e), 12)
    ('ln(9/7)', Fraction(9, 7), ('111', '011'), 0.251314428281)
    >>> e.output, e.p, e.q, e.graph, str(e.bound)
    ('1', Fraction(9, 16), Fraction(7, 16), 'hamming(3)', 'ln(3)')
    """

    rule: str = ""
    n: int = 0
    rho: Scalar = 0
    attains_bound: bool = False
    method: str = ""
    counts: tuple[int, int] | None = None
    log10_p: float | None = None
    log10_q: float | None = None
    bound: PrivacyLevel = field(kw_only=True)

    def __float__(self) -> float:
        return _log_float(self.level.eps)

    def to_dict(self) -> dict[str, Any]:
        from .._core.results import to_jsonable

        data: dict[str, Any] = {}
        for fld in fields(self):  # accurate values (ratios near 1 or with huge integers) and no giant strings
            value = getattr(self, fld.name)
            if fld.name == "n_edges" and value.bit_length() > 62:  # n 2^(n-1): too many digits for JSON at large n
                data[fld.name] = f"{self.n}*2^{self.n - 1}"
            else:
                data[fld.name] = to_jsonable(value)
        return data

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        if self.method == "deterministic":  # ρ = 1: the ratio is infinite exactly where the rule flips
            example = (
                f", e.g. output {self.output} is certain on {_short_profile(self.edge[0])} and impossible on "
                f"its neighbour {_short_profile(self.edge[1])}"
                if self.edge is not None
                else ""
            )
            detail = (
                f"{mode}, deterministic: the ratio is infinite on the neighbouring profiles where the rule flips"
                f"{example}; equal probabilities where it does not"
            )
        elif self.method == "constant":
            detail = f"{mode}, constant: every profile gives the same output distribution, ratio 1 on every edge"
        else:
            if self.method == "table" and self.edge is not None:
                where = f"between profiles {self.edge[0]} and {self.edge[1]}"
            elif self.counts is not None:
                where = (
                    f"on a profile with {_votes(self.counts[0])} +1 against its neighbour with "
                    f"{_votes(self.counts[1])} +1"
                )
            elif self.edge is not None:
                where = f"between profiles {_short_profile(self.edge[0])} and {_short_profile(self.edge[1])}"
            elif self.rule.startswith("dictator("):
                where = "on every pair of profiles that differ in the dictator's vote"
            elif self.rule.startswith("parity("):
                where = "on every pair of neighbouring profiles, each flipping the parity"
            else:
                where = "on some pair of neighbouring profiles"
            detail = f"{mode}, {self.method}; output {self.output} {where}"
            if self.log10_p is not None and self.log10_q is not None and self.p == 0:  # p, q below a double
                detail += f", probabilities {log10_text(self.log10_p)} and {log10_text(self.log10_q)}"
        verdict = "attains" if self.attains_bound else "is below"
        return (
            f"M_rho {self.rule} with rho = {self.rho}: epsilon = {_log_text(self.level.eps)} ({detail}); "
            f"it {verdict} Proposition 2's bound ln((1+rho)/(1-rho)) = {_log_text(self.bound.eps)}"
        )


#: Largest electorate for which by-count results carry two representative profiles as ``edge`` labels.
EDGE_LABEL_MAX_N = 256
#: Relative tolerance under which two float log-ratios of the truth-table search are near-ties: every near-tie is
#: kept as a candidate and the winner decided afterwards (exactly in integers when ``ρ`` is rational).
TIE_RTOL = 1e-9
#: Largest electorate at which ``method="auto"`` computes the ε of a dictator or parity rule that has a truth table
#: (on the table, or by vote counts for parity) instead of taking its closed form, so that small cases go through
#: the general engines and name a witness found by search.
AUTO_COMPUTED_MAX_N = 12


def _present_values(f: Rule) -> list[Any]:
    """The output values the rule actually takes (a constant voting rule still has the two rows ``1``, ``-1``)."""
    if f.counts is None and not f.has_table:  # a dictator beyond the table size takes both values
        return output_values(f)
    vals = f.counts if f.counts is not None else f.table()
    return [v for v in output_values(f) if np.any(vals == v)]


def _constant_probability(f: Rule, r: Rho, value: Any, constant: bool) -> Scalar:
    """``P(M_ρ f(x) = value)``, the same for every profile ``x`` when ``f`` is constant (then 1) or ``ρ = 0`` (every
    noisy vote is uniform, so it is the share of profiles where ``f = value``: ``Σ_c C(n, c) [f_c = value] / 2^n``
    by vote count, or the truth table's share)."""
    if constant:
        share = Fraction(1)
    elif f.counts is not None:
        hits = np.flatnonzero(f.counts == value).tolist()
        share = Fraction(sum(math.comb(f.n, int(c)) for c in hits), 2**f.n)
    elif f.has_table:
        share = Fraction(int(np.count_nonzero(f.table() == value)), 2**f.n)
    else:  # a dictator beyond the table size: its vote is uniform
        share = Fraction(1, 2)
    return share if r.exact else float(share)


def _deterministic_witness(f: Rule) -> tuple[tuple[str, str] | None, Any]:
    """At ``ρ = 1``: two neighbouring profiles where ``f`` differs (labels; representatives of neighbouring counts
    for symmetric rules, None beyond :data:`EDGE_LABEL_MAX_N` voters) and the value of ``f`` on the first."""
    if f.counts is not None:
        v = f.counts
        c = int(np.flatnonzero(v[1:] != v[:-1])[0])
        return _count_profiles(f.n, c + 1, c), v[c + 1]
    cube = f.cube()
    index = np.arange(cube.size).reshape(cube.shape)
    for i in range(f.n):
        diff = (half(cube, i, 0) != half(cube, i, 1)).ravel()
        if diff.any():
            k = int(np.flatnonzero(diff)[0])
            hi, lo = int(half(index, i, 0).ravel()[k]), int(half(index, i, 1).ravel()[k])
            labels = bit_strings(f.n)
            return (labels[hi], labels[lo]), f.table()[hi]
    raise AssertionError("a non-constant rule differs on some pair of neighbouring profiles")  # pragma: no cover


def _count_profiles(n: int, hi: int, lo: int) -> tuple[str, str] | None:
    """Two neighbouring profiles with ``hi`` and ``lo`` votes +1 (``|hi − lo| = 1``): ``1…10…0`` strings."""
    if n > EDGE_LABEL_MAX_N:
        return None
    return "1" * hi + "0" * (n - hi), "1" * lo + "0" * (n - lo)


def _votes(k: int) -> str:
    """``"1 vote"``, ``"0 votes"``, ``"3 votes"``."""
    return f"{k} vote" if k == 1 else f"{k} votes"


def _short_profile(label: str) -> str:
    """A profile label for text: as is up to 24 votes, else by runs (``1^51 0^50``)."""
    if len(label) <= 24:
        return label
    runs: list[str] = []
    i = 0
    while i < len(label):
        j = i
        while j < len(label) and label[j] == label[i]:
            j += 1
        runs.append(f"{label[i]}^{j - i}")
        i = j
    text = " ".join(runs)
    return text if len(runs) <= 6 else f"a profile of {len(label)} votes"


def _log_float(value: LogRational | float) -> float:
    """``float(ε)`` to full relative precision (also for ratios within ``2^-50`` of 1, e.g. parity at large ``n``)."""
    return log_of_ratio(value.ratio) if isinstance(value, LogRational) else float(value)


def _log_text(value: LogRational | float) -> str:
    """``ln(r) = 0.693147180560`` (12 digits; :func:`~privgeom._core.numbers.number_text`)."""
    return number_text(value, digits=12, approx=True, sep=" = ")


def _result(
    f: Rule,
    r: Rho,
    ratio: Scalar,
    method: str,
    output: Any,
    *,
    p: Scalar | None = None,
    q: Scalar | None = None,
    edge: tuple[str, str] | None = None,
    counts: tuple[int, int] | None = None,
) -> VotingEpsilon:
    """The result for the witness ratio ``p/q = e^ε`` (``math.inf`` where the rule flips at ``ρ = 1``)."""
    bound = r.level
    infinite = ratio == math.inf
    level = PrivacyLevel.from_exp_eps(ratio, allow_infinite=True)
    if isinstance(ratio, Fraction):
        attains = bound.exact and ratio == bound.exp_eps
        exact = True
    else:
        attains = math.isclose(float(level), _log_float(bound.eps), rel_tol=ATOL, abs_tol=ROUNDOFF)
        exact = r.exact and infinite
    n = f.n
    return VotingEpsilon(
        level=level,
        exact=exact,
        infinite=infinite,
        edge=edge,
        output=_label(output),
        p=p,
        q=q,
        n_edges=n * 2 ** (n - 1),
        graph=f"hamming({n})",
        rule=f.name,
        n=n,
        rho=r.rho,
        bound=bound,
        attains_bound=attains,
        method=method,
        counts=counts,
    )


def _table_epsilon(f: Rule, r: Rho) -> VotingEpsilon:
    """``method="table"``: any rule with a truth table (``2^n`` profiles, ``O(n 2^n)``): a log-space float pass
    locates the near-maximal ratios of every output along every voter's edges, and the winner is decided exactly in
    integers (``T_ρ`` on integer numerators) when ``ρ`` is rational."""
    n = f.n
    table = f.table()
    values = [v for v in output_values(f) if np.any(table == v)]
    index = np.arange(table.shape[0]).reshape((2,) * n)
    best = -1.0
    found: list[tuple[Any, int, np.ndarray]] = []  # (output, voter, log-ratios along that voter's edges)
    logs_by_value = {}
    for value in values:
        logs = np.where(table == value, 0.0, -np.inf)
        L = apply_noise_log(logs, n, r.log_p, r.log_q).reshape((2,) * n)
        logs_by_value[value] = L
        for i in range(n):
            d = (half(L, i, 0) - half(L, i, 1)).ravel()
            top = float(np.max(np.abs(d)))
            if top > best + TIE_RTOL * max(1.0, best):
                best, found = top, []
            if top >= best - TIE_RTOL * max(1.0, best):
                found.append((value, i, d))
    cands = []  # (value, x with the larger probability, its neighbour)
    tol = TIE_RTOL * max(1.0, best)
    for value, i, d in found:
        j0 = half(index, i, 0).ravel()
        j1 = half(index, i, 1).ravel()
        for k in np.nonzero(np.abs(d) >= best - tol)[0]:
            cands.append((value, int(j0[k]), int(j1[k])) if d[k] >= 0 else (value, int(j1[k]), int(j0[k])))
    labels = bit_strings(n)
    if not r.exact:  # the largest log-ratio among the near-ties (they agree to TIE_RTOL)
        value, hi, lo = max(
            cands, key=lambda c: float(logs_by_value[c[0]].ravel()[c[1]] - logs_by_value[c[0]].ravel()[c[2]])
        )
        L = logs_by_value[value].ravel()
        return _result(
            f,
            r,
            math.exp(float(L[hi] - L[lo])),
            "table",
            value,
            p=math.exp(float(L[hi])),
            q=math.exp(float(L[lo])),
            edge=(labels[hi], labels[lo]),
        )
    noisy = {
        value: apply_noise_integer((table == value).astype(np.int64), n, r.a, r.b) for value in {c[0] for c in cands}
    }
    nums = {value: pair[0] for value, pair in noisy.items()}
    top_ratio: Fraction | None = None
    witness = cands[0]
    for value, hi, lo in cands:
        ratio = Fraction(int(nums[value][hi]), int(nums[value][lo]))
        if top_ratio is None or ratio > top_ratio:
            top_ratio, witness = ratio, (value, hi, lo)
    assert top_ratio is not None
    value, hi, lo = witness
    den = int(noisy[value][1])
    return _result(
        f,
        r,
        top_ratio,
        "table",
        value,
        p=Fraction(int(nums[value][hi]), den),
        q=Fraction(int(nums[value][lo]), den),
        edge=(labels[hi], labels[lo]),
    )


def _counts_epsilon(f: Rule, r: Rho) -> VotingEpsilon:
    """ε of a symmetric rule by vote count (:func:`~privgeom.voting._counts.epsilon_counts`), its witness as two
    counts and, up to :data:`EDGE_LABEL_MAX_N` voters, two representative profiles."""
    rec = epsilon_counts(f, r)
    c = rec.lower
    pair = (c + 1, c) if rec.increasing else (c, c + 1)
    ln10 = math.log(10)
    res = _result(
        f, r, rec.ratio, "counts", rec.output, p=rec.p, q=rec.q, edge=_count_profiles(f.n, *pair), counts=pair
    )
    if rec.log_p is None or rec.log_q is None:
        return res
    return replace(res, log10_p=rec.log_p / ln10, log10_q=rec.log_q / ln10)


#: Breakpoints (value changes along the vote count) of the symmetric CLI rules, from ``n`` alone.
_BREAKPOINTS = {
    "majority": lambda n: 1,
    "threshold": lambda n: 1,
    "and": lambda n: 1,
    "or": lambda n: 1,
    "parity": lambda n: n,
}


def check_epsilon_size(kind: str, n: int, method: str = "auto", rho: Any = None) -> None:
    """Refuse, from the rule's kind and ``n`` alone and before the rule is built, an :func:`epsilon` whose route
    would exceed a size limit: the by-count engine (``breakpoints × n`` steps, ``voting_count_work``) or the truth
    table (``2^n`` profiles). The routes are those of :func:`epsilon`: ``ρ ∈ {0, 1}`` and the closed forms (dictator,
    parity, and by Remark 1 AND/OR under ``auto``) cost nothing; majority and threshold go by counts under ``auto``.
    A threshold outside ``[−n, n)`` is constant (no breakpoint) and also costs nothing.

    Examples
    --------
    >>> check_epsilon_size("majority", 1001)          # 1,001 steps: fine
    >>> check_epsilon_size("majority", 9_999_999)     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: majority(9999999) changes value 1 time; ... = 9,999,999 steps ...
    """
    from ._counts import check_count_work
    from ._rules import _check_table_size

    if rho is not None and parse_rho(rho).rho in (0, 1):
        return
    counts = method == "counts" or (method == "auto" and kind in ("majority", "threshold"))
    if counts and kind in _BREAKPOINTS:
        check_count_work(f"{kind}({n})", _BREAKPOINTS[kind](n), n)
    elif method == "table":
        _check_table_size(n, exact_objects=False, what=f"epsilon of {kind}({n}) on the truth table")


def epsilon(
    f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None, method: str = "auto"
) -> VotingEpsilon:
    """Exact ε of ``M_ρ f``: ``max ln(P(M_ρ f(x) = r) / P(M_ρ f(x') = r))`` over profiles ``x, x'`` differing in one
    vote and outputs ``r`` (Definition 3), next to Proposition 2's bound ``ln((1+ρ)/(1-ρ))``.

    Parameters
    ----------
    f : Rule
        The voting rule.
    rho, eps
        The noise: exactly one of the keep-probability ``ρ ∈ [0, 1]`` and the level ``ε`` of the randomized response
        on the votes (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17; then ``bound`` is ``ε``).
    method : {"auto", "table", "counts"}
        One of :data:`EPSILON_ROUTES` (each route's docstring says what it needs and costs): ``table`` works on the
        ``2^n`` profiles, ``counts`` on vote counts (symmetric rules, any ``n``), ``auto`` takes a closed form where
        a theorem gives ε, then counts for symmetric rules, then the table. A constant rule, ``ρ = 0`` and ``ρ = 1``
        are answered directly by every method.

    Examples
    --------
    >>> from privgeom import voting
    >>> e = voting.epsilon(voting.majority(100001), 0.5)        # log space, no underflow at the extreme counts
    >>> e.method, e.counts, round(float(e.level), 9)
    ('counts', (100000, 100001), 0.510841623)
    >>> round(math.log((1 + 0.5**2) / (1 - 0.5**2)), 9)           # its large-n limit, below ln 3
    0.510825624
    """
    f = check_rule(f)
    r = noise(rho, eps=eps)
    route = pick_route(EPSILON_ROUTES, method, "epsilon")
    degenerate = _degenerate_epsilon(f, r)
    return degenerate if degenerate is not None else route(f, r)


def _degenerate_epsilon(f: Rule, r: Rho) -> VotingEpsilon | None:
    """A constant rule or ``ρ = 0`` (every column the same distribution: ratio 1 on any edge), and ``ρ = 1``
    (deterministic: some output is certain on one profile and impossible on a neighbour); None otherwise."""
    values = _present_values(f)
    n = f.n
    if len(values) < 2 or r.rho == 0:
        one = Fraction(1) if r.exact else 1.0
        prob = _constant_probability(f, r, values[0], len(values) < 2)
        edge = ("1" * n, "0" + "1" * (n - 1)) if n <= EDGE_LABEL_MAX_N else None  # any edge attains ratio 1
        return _result(f, r, one, "constant", values[0], p=prob, q=prob, edge=edge)
    if r.rho == 1:
        edge, value = _deterministic_witness(f)
        zero, certain = (Fraction(0), Fraction(1)) if r.exact else (0.0, 1.0)
        return _result(f, r, math.inf, "deterministic", value, p=certain, q=zero, edge=edge)
    return None


def _closed_form_epsilon(f: Rule, r: Rho) -> VotingEpsilon:
    """Dictator and parity, any ``n``, ``O(1)``: Remark 1 gives ``ε = ln(p/q)`` for a dictator, and
    ``P(parity(y) = ±1 | x) = (1 ± ρ^n χ(x))/2`` gives ``ln((1+ρ^n)/(1-ρ^n))``, on the all-(+1) profile and its
    neighbour with the deciding voter (dictator) or voter 0 (parity) flipped."""
    n = f.n
    i = int(f.params.get("i", 0)) if f.kind == "dictator" else 0
    if f.kind == "dictator":
        pv, qv = r.p, r.q
    else:
        pv, qv = (1 + r.rho**n) / 2, (1 - r.rho**n) / 2
    edge = ("1" * n, "1" * i + "0" + "1" * (n - i - 1)) if n <= EDGE_LABEL_MAX_N else None
    return _result(f, r, pv / qv, "closed_form", 1, p=pv, q=qv, edge=edge)


def _remark1_epsilon(f: Rule, r: Rho) -> VotingEpsilon | None:
    """Symmetric voting rules with a level set in a half-cube (AND, OR), any ``n``, ``O(1)`` after the
    :func:`attains_bound` test: Remark 1 ("if") — ``{f = r} ⊆ {z_i = b}``, so ``P(r | x^{i→b}) / P(r | x^{i→-b}) =
    p/q`` for every ``x``; None when the condition fails."""
    rem = attains_bound(f)
    if not rem.holds:
        return None
    n = f.n
    pair = (n, n - 1) if rem.vote == 1 else (0, 1)
    # P(S_n = n) = P(S_0 = 0) = p^n and P(S_{n-1} = n) = P(S_1 = 0) = p^(n-1) q (the level set is one count)
    if r.exact and n <= EDGE_LABEL_MAX_N:
        pv, qv = r.p**n, r.p ** (n - 1) * r.q
    else:
        pv, qv = math.exp(n * r.log_p), math.exp((n - 1) * r.log_p + r.log_q)
    ratio = r.p / r.q
    res = _result(f, r, ratio, "remark1", rem.output, p=pv, q=qv, edge=_count_profiles(n, *pair), counts=pair)
    ln10 = math.log(10)  # the logs stay finite where p^n underflows (AND at n = 10^7)
    return replace(res, log10_p=n * r.log_p / ln10, log10_q=((n - 1) * r.log_p + r.log_q) / ln10)


def _by_counts_epsilon(f: Rule, r: Rho) -> VotingEpsilon:
    """``method="counts"``: symmetric rules, any ``n`` — exact up to ``n = 400`` for rational ``ρ``, log space beyond
    with no underflow (``breakpoints × n`` steps, the limit ``voting_count_work``; the logs of the extreme-count
    probabilities are about ``-10^4`` at ``n = 10^5``, so the float ε carries an absolute error of a few ``10^-12``
    there — measured against a 50-digit reference: ``2.5e-12`` at ``ρ = 1/2``). Dictator and parity take their
    closed forms (:func:`_closed_form_epsilon`)."""
    if f.kind in ("dictator", "parity"):
        return _closed_form_epsilon(f, r)
    return _counts_epsilon(f, r)


def _auto_epsilon(f: Rule, r: Rho) -> VotingEpsilon:
    """``method="auto"``: the closed forms of dictator and parity (beyond ``n =`` :data:`AUTO_COMPUTED_MAX_N` or
    without a table; smaller ones are computed so that they name a witness found by search), Remark 1 for
    symmetric voting rules, then counts for symmetric rules, then the truth table."""
    if f.kind in ("dictator", "parity") and not (f.has_table and f.n <= AUTO_COMPUTED_MAX_N):
        return _closed_form_epsilon(f, r)
    if f.is_symmetric and f.is_boolean:
        res = _remark1_epsilon(f, r)
        if res is not None:
            return res
    return _counts_epsilon(f, r) if f.is_symmetric else _table_epsilon(f, r)


#: The routes of :func:`epsilon` by ``method=`` name.
EPSILON_ROUTES: dict[str, Callable[[Rule, Rho], VotingEpsilon]] = {
    "auto": _auto_epsilon,
    "table": _table_epsilon,
    "counts": _by_counts_epsilon,
}
EPSILON_METHODS = tuple(EPSILON_ROUTES)


@dataclass(frozen=True)
class BoundAttainment(Decision):
    """Remark 1's condition: some output ``r`` with ``∅ ≠ {z : f(z) = r} ⊆ {z : z_i = b}``.

    Examples
    --------
    >>> from privgeom import voting
    >>> from privgeom.voting import paper
    >>> r = paper.attains_bound(voting.disjunction(3))
    >>> r.holds, r.output, r.voter, r.vote
    (True, '-1', 0, -1)
    """

    rule: str
    holds: bool
    output: str | None = None
    vote: int | None = None
    voter: int | None = None

    @property
    def exact(self) -> bool:
        """Always True: Remark 1's condition is decided combinatorially on the rule's level sets."""
        return True

    def summary(self) -> str:
        if not self.holds:
            return f"{self.rule}: no level set lies in a half-cube, so epsilon < ln((1+rho)/(1-rho)) for 0 < rho < 1 (Remark 1)"
        return (
            f"{self.rule}: every profile with output {self.output} has voter {self.voter} voting {self.vote:+d}, so "
            "epsilon = ln((1+rho)/(1-rho)) for 0 < rho < 1 (Remark 1)"
        )


def attains_bound(f: Rule) -> BoundAttainment:
    """Decide Remark 1's equality condition (the exact iff: ``ε = ln((1+ρ)/(1-ρ))`` for ``0 < ρ < 1``).

    Examples
    --------
    >>> from privgeom import voting
    >>> from privgeom.voting import paper
    >>> paper.attains_bound(voting.conjunction(4)).holds, paper.attains_bound(voting.majority(3)).holds
    (True, False)
    """
    f = check_rule(f)
    if f.kind == "dictator" and not f.has_table:
        return BoundAttainment(rule=f.name, holds=True, output="1", vote=1, voter=int(f.params["i"]))
    if f.is_symmetric:
        v = f.counts
        assert v is not None
        for value in output_values(f):
            if np.count_nonzero(v == value) != 1:  # a level set inside a half-cube is one extreme count
                continue
            if v[f.n] == value:
                return BoundAttainment(rule=f.name, holds=True, output=_label(value), vote=1, voter=0)
            if v[0] == value:
                return BoundAttainment(rule=f.name, holds=True, output=_label(value), vote=-1, voter=0)
        return BoundAttainment(rule=f.name, holds=False)
    cube = f.cube()
    for value in output_values(f):
        ind = cube == value
        if not np.any(ind):
            continue
        for i in range(f.n):
            if not np.any(half(ind, i, 1)):
                return BoundAttainment(rule=f.name, holds=True, output=_label(value), vote=1, voter=i)
            if not np.any(half(ind, i, 0)):
                return BoundAttainment(rule=f.name, holds=True, output=_label(value), vote=-1, voter=i)
    return BoundAttainment(rule=f.name, holds=False)
