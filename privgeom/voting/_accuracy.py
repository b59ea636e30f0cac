"""Accuracy and noise stability of ``M_ρ f`` (Section 6 of the referendum paper).

``Acc(M_ρ f) = P_{x, M}[M_ρ f(x) = f(x)] = 1/2 + Stab_ρ[f]/2`` for a voting rule (Equation (1)), with
``Stab_ρ[f] = E[f(x) T_ρ f(x)]`` (Equation (2)). Methods:

================  ==========================================================================================
``closed_form``   dictator ``(1+ρ)/2``; AND/OR ``1 - 2^{1-n}(1 - ((1+ρ)/2)^n)`` (Section 6.2–6.3); parity
                  ``(1+ρ^n)/2``; constants 1 — any ``n``, exact for rational ``ρ``
``fourier``       any truth table: ``Σ_k ρ^k W_k`` from the Walsh–Hadamard level weights (exact)
``definition``    any truth table: ``2^{-n} Σ_x P(M_ρ f(x) = f(x))`` read off the mechanism matrix (exact)
``counts``        symmetric rules by vote count: exact big-integer polynomials up to ``n = 400`` (rational ``ρ``),
                  log-space sum of two binomials beyond (``O(n)`` per breakpoint, float)
``levels``        symmetric rules: exact per-level Fourier weights (Krawtchouk), ``n ≤ 2000``
``majority``      majority: the closed-form Fourier weights of ``Maj_n`` (O'Donnell Thm 5.19) summed in float —
                  ``O(n)``, error ``≤ ε_mach · I[Maj_n]``; the default for large ``n``
``recursion``     threshold rules ``f_θ``: the paper's memoised recursion (Section 6.1.1, Figure 1), ``O(n^3)``
================  ==========================================================================================

Each method is a route of :data:`ACCURACY_ROUTES` with its own docstring. The noise is ``rho=`` or its privacy
level ``eps=`` (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17). Figure 2 of the paper (accuracy of majority
against ``n`` with the ``1/2 + arcsin(ρ)/π`` limits) is drawn by :func:`majority_accuracy_figure` from
:func:`majority_accuracy_data` (both in :mod:`privgeom.voting.paper`).

Examples
--------
>>> from privgeom import voting
>>> print(voting.accuracy(voting.majority(3), "1/2"))
accuracy = 45/64 (exact; majority(3), rho = 1/2, method counts)
>>> voting.accuracy(voting.dictator(5), "1/3").value, voting.accuracy(voting.conjunction(2), 0).value
(Fraction(2, 3), Fraction(5, 8))
>>> round(float(voting.accuracy(voting.majority(100001), 0.5)), 9)
0.666667586
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from .._core.extras import require
from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.grid import run_grid
from .._core.io import check_output_dir
from .._core.limits import current_limit, register_limit
from .._core.level import LevelLike, ScalarLike
from .._core.arrays import parse_int
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar, Scalar
from .._core.results import Decision, Quantity
from ._common import EXACT_COUNTS_MAX_N, Rho, RhoLike, log_binom_pmf, noise, parse_rho, pick_route
from ._counts import accuracy_counts, stability_counts
from ._fourier import fourier, symmetric_level_coefficients
from ._rules import Rule, check_rule, majority
from .._core.numbers import number_text

__all__ = [
    "accuracy",
    "stability",
    "ACCURACY_ROUTES",
    "ACCURACY_METHODS",
    "majority_accuracy_limit",
    "majority_accuracy_bounds",
    "MajorityAccuracy",
    "RECURSION_MAX_N",
    "majority_accuracy_figure",
    "majority_accuracy_data",
    "FIGURE_RHOS",
    "ACCURACY_ROUNDOFF",
]

#: Largest electorate for the paper's recursion (``O(n^3)`` memoised states; recursion depth ``n``).
RECURSION_MAX_N = 1000
register_limit(
    "recursion_voters",
    globals(),
    "RECURSION_MAX_N",
    "largest electorate of the paper's accuracy recursion (O(n^3) memoised states, depth n)",
)
#: Float round-off of an accuracy (a number in ``[1/2, 1]`` summed with ``math.fsum``): Equation (3)'s lower bound
#: and Lemma 7's monotonicity are judged up to this slack.
ACCURACY_ROUNDOFF = 1e-15


def _setting(f: Rule, r: Rho, method: str | None = None) -> str:
    """The ``detail`` of a :class:`~privgeom.Quantity`: the rule, ``ρ`` and the method that computed it."""
    return f"{f.name}, rho = {r.rho}" + (f", method {method}" if method else "")


def _require_boolean(f: Rule) -> None:
    if not f.is_boolean:
        raise InvalidParameterError(
            f"accuracy is defined for voting rules with values ±1 (Section 6); {f.name} is real-valued"
        )


# ------------------------------------------------------------------------------------------------ closed forms
def _dictator(f: Rule, r: Rho) -> Scalar:
    return r.p


def _and_or(f: Rule, r: Rho) -> Scalar:
    if r.exact:
        return 1 - Fraction(2, 2**f.n) * (1 - r.p**f.n)
    return 1 - 2.0 ** (1 - f.n) * (1 - float(r.p) ** f.n)


def _parity(f: Rule, r: Rho) -> Scalar:
    return (1 + r.rho**f.n) / 2


def _constant(f: Rule, r: Rho) -> Scalar:
    return Fraction(1) if r.exact else 1.0


#: Closed-form accuracies keyed by :attr:`Rule.kind`.
CLOSED_FORMS: dict[str, Callable[[Rule, Rho], Scalar]] = {
    "dictator": _dictator,
    "and": _and_or,
    "or": _and_or,
    "parity": _parity,
    "constant": _constant,
}


# ------------------------------------------------------------------------------------------------ majority
def _majority_levels_stability(n: int, rho: float) -> float:
    """``Stab_ρ[Maj_n] = Σ_{k odd} ρ^k W_k`` with ``W_1 = n (C(n-1, m)/2^{n-1})^2`` and
    ``W_{k+2}/W_k = (n-k) k^2 / ((k+1)(k+2)(n-k-1))`` (from O'Donnell Theorem 5.19), all terms positive."""
    if rho == 0:
        return 0.0
    m = (n - 1) // 2
    log_i = float(log_binom_pmf(np.array([m]), n - 1, 0.5, 0.5)[0]) if n > 1 else 0.0
    k = np.arange(1, n - 1, 2, dtype=float)
    ratios = (n - k) * k * k / ((k + 1) * (k + 2) * (n - k - 1)) * (rho * rho)
    terms = np.concatenate([[1.0], np.cumprod(ratios)]) * (n * math.exp(2 * log_i) * rho)
    return math.fsum(terms.tolist())


def _limit(rho: RhoLike) -> float:
    return 0.5 + math.asin(float(parse_rho(rho).rho)) / math.pi


def majority_accuracy_limit(rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> Quantity:
    """``lim_{n→∞} Acc(M_ρ Maj_n) = 1/2 + arcsin(ρ)/π`` (Sheppard; Lemma 7 and Equation (3) of the paper), a float
    :class:`~privgeom.Quantity` (also ``majority_accuracy_bounds(n, ρ).lower``).

    Examples
    --------
    >>> round(float(majority_accuracy_limit(0.5)), 15)      # 1/2 + 1/6
    0.666666666666667
    >>> majority_accuracy_limit("1/2").name
    'accuracy limit'
    """
    r = noise(rho, eps=eps)
    return Quantity(
        value=_limit(r), name="accuracy limit", detail=f"majority as n -> infinity, rho = {r.rho}: 1/2 + arcsin(rho)/pi"
    )


@dataclass(frozen=True)
class MajorityAccuracy(Decision):
    """Equation (3): ``1/2 + arcsin(ρ)/π ≤ Acc(M_ρ Maj_n) ≤ 1/2 + arcsin(ρ)/π + O(1/(√(1-ρ²) √n))``.

    ``scaled_gap = (accuracy - lower) · √(1-ρ²) · √n`` is the constant the ``O(·)`` realises at this ``n``; it tends
    to 0, because the gap actually decays like ``1/n`` (``gap_times_n`` settles, e.g. near 0.092 at ``ρ = 1/2``).

    Examples
    --------
    >>> b = majority_accuracy_bounds(10001, 0.5)
    >>> b.holds, round(b.gap_times_n, 3)
    (True, 0.092)
    """

    n: int
    rho: Scalar
    accuracy: float
    lower: float
    gap: float
    scaled_gap: float
    gap_times_n: float
    holds: bool

    @property
    def exact(self) -> bool:
        """False: the accuracy and the arcsin bound are compared in floating point."""
        return False

    def summary(self) -> str:
        return (
            f"Acc(M_rho Maj_{self.n}) at rho = {self.rho}: {number_text(self.accuracy, digits=15)}; lower bound 1/2 + arcsin(rho)/pi = "
            f"{number_text(self.lower, digits=15)}; gap {self.gap:.3e} (gap·sqrt(1-rho^2)·sqrt(n) = {number_text(self.scaled_gap, digits=4)}, gap·n = {number_text(self.gap_times_n, digits=4)}); "
            f"Equation (3) lower bound {'holds' if self.holds else 'FAILS'}"
        )


def majority_accuracy_bounds(n: int, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> MajorityAccuracy:
    """Exact accuracy of majority next to the arcsin bounds of Equation (3) (noise as ``rho=`` or ``eps=``,
    ``docs/theory.md`` §17).

    Examples
    --------
    >>> b = majority_accuracy_bounds(101, 0.5)
    >>> b.holds, round(b.gap, 6)
    (True, 0.000914)
    """
    r = noise(rho, eps=eps)
    acc = float(_accuracy(majority(n), r.to_float()))
    low = _limit(r)
    gap = acc - low
    scaled = gap * math.sqrt(1 - float(r.rho) ** 2) * math.sqrt(n)
    return MajorityAccuracy(
        n=n,
        rho=r.rho,
        accuracy=acc,
        lower=low,
        gap=gap,
        scaled_gap=scaled,
        gap_times_n=gap * n,
        holds=gap >= -ACCURACY_ROUNDOFF,
    )


# ------------------------------------------------------------------------------------------------ recursion
def _recursion(n: Any, theta: Any, r: Rho) -> Scalar:
    """Accuracy of the threshold rule ``f_θ`` by the paper's memoised recursion (Section 6.1.1, Figure 1):
    ``T_ρ f_θ(x) = (1+ρ)/2 · T_ρ f_{θ-x_n}(x_{-n}) + (1-ρ)/2 · T_ρ f_{θ+x_n}(x_{-n})``, memoised on
    ``(voters left, +1 votes among them, threshold)`` for the profile ``x = (1,…,1,-1,…,-1)`` with ``c`` ones; then
    ``Stab`` by Equation (2) and accuracy by Equation (1). Exact in Fractions for rational ``ρ``. Baseline only:
    ``O(n^3)`` states (the limit ``recursion_voters``)."""
    n = parse_int(n, name="n", min=1)
    theta = parse_scalar(theta, name="theta")
    if n > current_limit("recursion_voters"):
        raise SizeLimitError(
            f"the paper's recursion has O(n^3) states and depth n; n = {n:,} voters > the limit "
            f"recursion_voters = {current_limit('recursion_voters'):,}, refused before any work; "
            f"{limit_hint('recursion_voters', n)}"
        )
    p, q = r.p, r.q
    one: Scalar = Fraction(1) if r.exact else 1.0
    zero: Scalar = Fraction(0) if r.exact else 0.0
    memo: dict[tuple[int, int, int], Scalar] = {}

    def T(m: int, ones: int, th: int) -> Scalar:  # P(y_1 + … + y_m > th), x = ones × (+1) then (m-ones) × (-1)
        key = (m, ones, th)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if m == 0:
            val = one if 0 > th else zero
        else:
            xm = -1 if ones < m else 1
            rest = ones if xm == -1 else ones - 1
            val = p * T(m - 1, rest, th - xm) + q * T(m - 1, rest, th + xm)
        memo[key] = val
        return val

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 2 * n + 200))
    try:
        stab: Any = zero
        for c in range(n + 1):
            fx = 1 if 2 * c - n > theta else -1
            weight = Fraction(math.comb(n, c), 2**n) if r.exact else math.comb(n, c) / 2**n
            stab += weight * fx * (2 * T(n, c, theta) - 1)
    finally:
        sys.setrecursionlimit(old)
    return (1 + stab) / 2


def _threshold_theta(f: Rule) -> int:
    counts = f.counts
    bps = f.breakpoints() if counts is not None else []
    if counts is None or len(bps) != 1 or counts[0] != -1:
        raise InvalidParameterError(f"the paper's recursion computes threshold rules f_theta; {f.name} is not one")
    return 2 * bps[0] - f.n - 1  # value 1 iff c >= b iff 2c - n > 2b - n - 1


# ------------------------------------------------------------------------------------------------ routes
def _acc_closed_form(f: Rule, r: Rho) -> Scalar:
    """``closed_form``: dictator, AND, OR, parity and constants (:data:`CLOSED_FORMS`, Section 6.2–6.3), any ``n``,
    ``O(1)``, exact for rational ``ρ``."""
    if f.kind not in CLOSED_FORMS:
        raise InvalidParameterError(f"no closed form for {f.name}; closed forms exist for {sorted(CLOSED_FORMS)}")
    return CLOSED_FORMS[f.kind](f, r)


def _acc_fourier(f: Rule, r: Rho) -> Scalar:
    """``fourier``: any truth table, ``O(n 2^n)``: ``(1 + Σ_k ρ^k W_k)/2`` from the Walsh–Hadamard level weights
    (Equations (1)–(2)); exact for rational tables and ``ρ``."""
    return (1 + _stab_fourier(f, r)) / 2


def _acc_levels(f: Rule, r: Rho) -> Scalar:
    """``levels``: symmetric rules, ``n ≤ 2000`` (``O(n^2)`` big integers): the exact per-level Fourier weights
    (Krawtchouk polynomials) in Equation (1)."""
    return (1 + _stab_levels(f, r)) / 2


def _acc_definition(f: Rule, r: Rho) -> Scalar:
    """``definition``: any truth table: ``2^{-n} Σ_x P(M_ρ f(x) = f(x))`` read off the mechanism matrix
    (Definition 2; the reference route of the checks)."""
    from ._mechanism import mechanism

    M = mechanism(f, r.rho)
    table = f.table()
    row_of = {int(v): i for i, v in enumerate((1, -1))}
    picks = M.matrix[[row_of[int(v)] for v in table], np.arange(table.shape[0])]
    if M.exact:
        return sum(picks.tolist(), Fraction(0)) / table.shape[0]
    return math.fsum(picks.tolist()) / table.shape[0]


def _acc_counts(f: Rule, r: Rho) -> Scalar:
    """``counts``: symmetric rules by vote count: exact big-integer polynomials up to ``n = 400`` (rational ``ρ``),
    log-space sums of two binomials beyond (``O(n)`` per breakpoint, float; :mod:`privgeom.voting._counts`)."""
    return accuracy_counts(f, r)


def _acc_majority(f: Rule, r: Rho) -> Scalar:
    """``majority``: majority only, ``O(n)`` in float: the closed-form Fourier weights of ``Maj_n`` (O'Donnell
    Theorem 5.19) summed with an error ``≤ ε_mach · I[Maj_n]``; the default for large ``n``."""
    if f.kind != "majority":
        raise InvalidParameterError(
            f"method 'majority' is the closed-form spectrum of Maj_n; {f.name} is not a majority"
        )
    return 0.5 + 0.5 * _majority_levels_stability(f.n, float(r.rho))


def _acc_recursion(f: Rule, r: Rho) -> Scalar:
    """``recursion``: threshold rules ``f_θ`` (majority included) by the paper's memoised recursion
    (:func:`_recursion`, Section 6.1.1), ``O(n^3)`` — the baseline of ``benchmarks/bench_voting.py``."""
    return _recursion(f.n, _threshold_theta(f), r)


def _acc_auto(f: Rule, r: Rho) -> Scalar:
    """``auto``: the route :func:`_auto` names — a closed form, then exact counts (symmetric, ``n ≤ 400``,
    rational ``ρ``), then the majority spectrum or log-space counts (large symmetric), then Fourier (tables)."""
    return ACCURACY_ROUTES[_auto(f, r)](f, r)


#: The routes of :func:`accuracy` by ``method=`` name (see each route's docstring).
ACCURACY_ROUTES: dict[str, Callable[[Rule, Rho], Scalar]] = {
    "auto": _acc_auto,
    "closed_form": _acc_closed_form,
    "fourier": _acc_fourier,
    "definition": _acc_definition,
    "counts": _acc_counts,
    "levels": _acc_levels,
    "majority": _acc_majority,
    "recursion": _acc_recursion,
}
ACCURACY_METHODS = tuple(ACCURACY_ROUTES)


def _stab_fourier(f: Rule, r: Rho) -> Scalar:
    """``Stab_ρ[f] = Σ_k ρ^k W_k`` from the Walsh–Hadamard level weights (any truth table, ``O(n 2^n)``)."""
    return fourier(f).stability(r.rho if r.exact else float(r.rho))


def _stab_levels(f: Rule, r: Rho) -> Scalar:
    """``Stab_ρ[f] = Σ_k ρ^k C(n, k) f̂_k^2`` from the exact per-level coefficients of a symmetric rule."""
    coeffs = symmetric_level_coefficients(f)
    n = f.n
    if r.exact:
        return sum((r.rho**k * math.comb(n, k) * c * c for k, c in enumerate(coeffs)), Fraction(0))
    x = float(r.rho)
    return math.fsum(x**k * math.comb(n, k) * float(c * c) for k, c in enumerate(coeffs))


def _auto(f: Rule, r: Rho) -> str:
    """The route ``auto`` takes for ``f`` at ``ρ``."""
    if f.kind in CLOSED_FORMS:
        return "closed_form"
    if f.is_symmetric:
        if r.exact and f.exact and f.n <= EXACT_COUNTS_MAX_N:
            return "counts"
        return "majority" if f.kind == "majority" else "counts"
    return "fourier"


def accuracy(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None, method: str = "auto") -> Quantity:
    """``Acc(M_ρ f) = P_{x, M}[M_ρ f(x) = f(x)]`` under impartial culture (Section 6).

    Parameters
    ----------
    f : Rule
        A voting rule (values ``±1``).
    rho, eps
        The noise: exactly one of ``ρ ∈ [0, 1]`` (rational values give Fractions wherever the method is exact) and
        the level ``ε`` of the randomized response on the votes (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17;
        ``"ln(3)"`` is ``ρ = 1/2`` exactly).
    method : str
        One of :data:`ACCURACY_ROUTES` (see the module documentation and each route's docstring); ``"auto"`` picks a
        closed form, then exact counts (symmetric, ``n ≤ 400``), then the majority Fourier sum or the log-space
        counts (large symmetric), then the Fourier method (truth tables).

    Returns
    -------
    Quantity
        ``value`` is a Fraction when the method is exact (rational ``ρ``), else a float; ``float(q)`` converts;
        ``detail`` names the rule, ``ρ`` and the method used.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.accuracy(voting.majority(5), "1/2", method="recursion") == voting.accuracy(voting.majority(5), "1/2")
    True
    >>> voting.accuracy(voting.tribes(2, 2), "1/2").value      # Fourier on the truth table
    Fraction(1425, 2048)
    >>> voting.accuracy(voting.majority(3), eps="ln(3)").value  # e^ε = 3 is ρ = 1/2
    Fraction(45, 64)
    """
    f = check_rule(f)
    _require_boolean(f)
    r = noise(rho, eps=eps)
    chosen = _chosen(f, r, method)
    return Quantity(value=ACCURACY_ROUTES[chosen](f, r), name="accuracy", detail=_setting(f, r, chosen))


def _chosen(f: Rule, r: Rho, method: str) -> str:
    """``method`` validated, with ``auto`` resolved to the route it takes."""
    pick_route(ACCURACY_ROUTES, method, "accuracy")
    return _auto(f, r) if method == "auto" else method


def _accuracy(f: Rule, r: Rho, method: str = "auto") -> Scalar:
    """The accuracy as a bare number (Fraction or float), for the package's own computations and checks."""
    f = check_rule(f)
    _require_boolean(f)
    return pick_route(ACCURACY_ROUTES, method, "accuracy")(f, r)


def stability(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None, method: str = "auto") -> Quantity:
    """Noise stability ``Stab_ρ[f] = E_{x, y ~ N_ρ x}[f(x) f(y)] = Σ_S ρ^{|S|} f̂(S)^2`` (Definition 9); the noise
    as ``rho=`` or ``eps=`` (``docs/theory.md`` §17).

    For voting rules ``Stab_ρ[f] = 2 Acc(M_ρ f) - 1`` (Equation (1)) and the accuracy methods apply; real-valued
    functions use the Fourier weights (tables) or ``E[f T_ρ f]`` by count (symmetric, Equation (2)).

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.stability(voting.majority(3), "1/2").value      # 3/4 ρ + 1/4 ρ^3
    Fraction(13, 32)
    """
    f = check_rule(f)
    r = noise(rho, eps=eps)
    return Quantity(
        value=_stability(f, r, method), name="stability", detail=_setting(f, r, None if method == "auto" else method)
    )


def _stability(f: Rule, r: Rho, method: str = "auto") -> Scalar:
    """The noise stability as a bare number (Fraction or float): ``2 Acc - 1`` by the accuracy routes for voting
    rules (Equation (1)), a route of :data:`STABILITY_ROUTES` for real-valued functions."""
    f = check_rule(f)
    if f.is_boolean:
        return 2 * _accuracy(f, r, method) - 1
    if method not in STABILITY_ROUTES:
        raise InvalidParameterError(
            f"method {method!r} is not available for real-valued functions; use fourier, counts or levels"
        )
    return STABILITY_ROUTES[method](f, r)


def _stab_counts(f: Rule, r: Rho) -> Scalar:
    """``counts`` (real-valued): ``E[f T_ρ f]`` by vote count for symmetric functions (Equation (2);
    :mod:`privgeom.voting._counts`); a truth table goes through Fourier."""
    return stability_counts(f, r) if f.is_symmetric else _stab_fourier(f, r)


def _stab_by_levels(f: Rule, r: Rho) -> Scalar:
    """``levels`` (real-valued): the exact per-level Fourier weights of a symmetric function (``n ≤ 2000``); a truth
    table goes through Fourier."""
    return _stab_levels(f, r) if f.is_symmetric else _stab_fourier(f, r)


#: The routes of :func:`stability` for real-valued functions by ``method=`` name (voting rules take the accuracy
#: routes): ``auto`` is ``counts`` (symmetric functions by count, tables by Fourier).
STABILITY_ROUTES: dict[str, Callable[[Rule, Rho], Scalar]] = {
    "auto": _stab_counts,
    "fourier": _stab_fourier,
    "counts": _stab_counts,
    "levels": _stab_by_levels,
}


# ------------------------------------------------------------------------------------------------ Figure 2
# Figure 2 of the paper: accuracy of M_ρ Maj_n against odd n for several ρ. Each curve is the exact accuracy (the
# closed-form majority spectrum, float); the dashed line at 1/2 + arcsin(ρ)/π is its limit (Equation (3), Sheppard's
# formula). Drawn with the object-oriented matplotlib API and the Agg canvas — no pyplot state, nothing shown.

#: Default correlations drawn in Figure 2.
FIGURE_RHOS = (0.1, 0.3, 0.5, 0.7, 0.9)
#: Largest ``(number of ρ) × Σ_{odd n <= n_max} (n + 1)`` by-count steps of Figure 2 (about 5 s on the reference
#: machine; the default figure costs 13,260). Registered as ``voting_figure_work``.
MAX_FIGURE_WORK = 20_000_000
register_limit(
    "voting_figure_work",
    globals(),
    "MAX_FIGURE_WORK",
    "(rho values x sum of n + 1 over odd n <= n_max) by-count steps of the majority-accuracy figure",
)


def _check_figure(rhos: Sequence[Any], n_max: Any) -> tuple[list[float], int]:
    """The ρ values and ``n_max`` of Figure 2, validated, and its size refused before any work: every curve costs
    ``Σ_{odd n <= n_max} (n + 1) = m (m + 1)`` by-count steps, ``m = ⌈n_max / 2⌉`` (``voting_figure_work``)."""
    n_max = parse_int(n_max, name="n_max", min=1)
    values = list(dict.fromkeys(float(parse_rho(r).rho) for r in rhos))  # distinct: one grid axis
    if not values:
        raise InvalidParameterError("Figure 2 needs at least one rho")
    m = (n_max + 1) // 2
    work = len(values) * m * (m + 1)
    if work > current_limit("voting_figure_work"):
        raise SizeLimitError(
            f"Figure 2 up to n = {n_max:,} for {len(values)} rho value{'s' if len(values) != 1 else ''} costs "
            f"{work:,} by-count steps (limit voting_figure_work = {current_limit('voting_figure_work'):,}), "
            "refused before any work; "
            f"lower n_max or {limit_hint('voting_figure_work', work)}"
        )
    return values, n_max


def majority_accuracy_data(
    rhos: Sequence[ScalarLike] = FIGURE_RHOS, n_max: int = 101, *, scheduler: Any = None
) -> dict[str, Any]:
    """The numbers behind Figure 2: ``{"n": odd n, "accuracy": {ρ: [...]}, "limit": {ρ: 1/2 + arcsin(ρ)/π}}``.

    The grid ``ρ × n`` runs through the grid runner of :func:`privgeom.sweep` (``scheduler``: ``None`` uses every
    core once the work outlasts a second, ``"serial"`` stays in this process; see :mod:`privgeom._core.grid`).

    Examples
    --------
    >>> majority_accuracy_data(rhos=(0.5,), n_max=3)["accuracy"]
    {0.5: [0.75, 0.703125]}
    """
    values, n_max = _check_figure(rhos, n_max)
    ns = list(range(1, n_max + 1, 2))
    rows = run_grid(_figure_point, {"rho": values, "n": ns}, scheduler=scheduler, label="figure 2", errors="raise")
    acc: dict[float, list[float]] = {r: [] for r in values}
    for row in rows:  # grid order: ρ outer, n inner
        acc[row["rho"]].append(row["accuracy"])
    return {"n": ns, "accuracy": acc, "limit": {r: _limit(r) for r in values}}


def _figure_point(point: dict[str, Any]) -> dict[str, float]:
    """One point ``(ρ, n)`` of Figure 2: the accuracy of randomized response on majority of ``n``."""
    return {"accuracy": float(_accuracy(majority(point["n"]), parse_rho(point["rho"])))}


def majority_accuracy_figure(
    rhos: Sequence[ScalarLike] = FIGURE_RHOS, n_max: int = 101, *, path: str | Path | None = None, dpi: int = 120
) -> Any:
    """A matplotlib ``Figure`` reproducing Figure 2 (accuracy of majority vs ``n``, with the arcsin limits); with
    ``path``, also written as a PNG there (a ``.png`` file, or an existing directory that gets
    ``voting_figure2.png``; folders are never created).

    Examples
    --------
    >>> fig = majority_accuracy_figure(rhos=(0.5, 0.9), n_max=11)
    >>> len(fig.axes[0].lines)    # one curve and one dashed limit per rho
    4
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = majority_accuracy_figure(rhos=(0.5,), n_max=5, path=d)
    ...     (Path(d) / "voting_figure2.png").read_bytes()[:4]
    b'\\x89PNG'
    """
    _check_figure(rhos, n_max)  # sizes before anything is created or drawn
    target = None if path is None else figure_path(path)
    Figure = require("matplotlib.figure", extra="plot", feature="the accuracy figure of voting.paper").Figure

    data = majority_accuracy_data(rhos, n_max)
    fig = Figure(figsize=(7.0, 4.5), layout="constrained")
    ax = fig.add_subplot()
    colours = [f"C{i % 10}" for i in range(len(data["accuracy"]))]
    for colour, (rho, acc) in zip(colours, data["accuracy"].items()):
        ax.plot(
            data["n"], acc, marker="o", markersize=2.5, linewidth=1.2, color=colour, label=f"ρ = {number_text(rho)}"
        )
        ax.axhline(data["limit"][rho], color=colour, linestyle="--", linewidth=0.8)
    ax.set_xlabel("number of voters n (odd)")
    ax.set_ylabel("accuracy  P[M_ρ Maj_n(x) = Maj_n(x)]")
    ax.set_title("Randomized response on majority (Figure 2); dashed: 1/2 + arcsin(ρ)/π")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize="small")
    if target is not None:
        fig.savefig(target, dpi=dpi, format="png")
    return fig


def figure_path(path: str | Path) -> Path:
    """Where :func:`majority_accuracy_figure` writes: ``path`` itself when it ends in ``.png``, else
    ``path/voting_figure2.png``; its folder must exist (checked before drawing, never created)."""
    target = Path(path)
    if target.suffix.lower() != ".png":
        target = target / "voting_figure2.png"
    check_output_dir(target.parent if str(target.parent) else ".", what="path", value=path)
    return target
