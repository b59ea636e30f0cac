"""Influence, probabilistic influence (Definition 5) and welfare (Definitions 6–7) of the referendum paper.

- Influence (Definition 4): ``I_i[f] = P_x[f(x^{i→1}) ≠ f(x^{i→-1})]``; for real-valued ``f`` the same quantity is
  ``E_x[((f(x^{i→1}) - f(x^{i→-1}))/2)^2]``, which is what is computed (they agree for ``±1`` values). Via Fourier
  ``I_i[f] = Σ_{S∋i} f̂(S)^2`` (O'Donnell Theorem 2.20).
- Probabilistic influence (Definition 5): every voter casts ``x_j``; the noisy votes of the *other* voters are kept
  (``y_j = z_j = x_j``, uniform by Fact 1), and voter ``i`` is re-noised **once for each of her two votes,
  independently**: ``y_i ~ N_ρ(1)``, ``z_i ~ N_ρ(-1)``; ``I_i[M_ρ f] = E[((f(y) - f(z))/2)^2]``. So the pair
  ``(y_i, z_i)`` is ``(1, -1)`` with probability ``p²``, ``(-1, 1)`` with ``q²`` and equal otherwise (then it
  contributes 0), and Theorem 3 follows: ``I_i[M_ρ f] = (p² + q²) I_i[f] = (1+ρ²)/2 · I_i[f]``. The coupling matters —
  :func:`probabilistic_influence` also evaluates the alternatives (``"shared"``: one keep/redraw coin and one redrawn
  value for both votes, giving ``ρ I_i``; ``"same_flip"``: one flip coin for both, giving ``I_i``; ``"independent"``:
  every voter's noise redrawn for ``y`` and ``z``), none of which satisfies Theorem 3.
- Welfare (Definitions 6–7): ``w_x(f) = #{i: x_i = f(x)} - #{i: x_i ≠ f(x)} = f(x) Σ_i x_i``, ``W(f) = E_x[w_x(f)]``
  and ``W(M_ρ f) = E_{x, M}[w_x(M_ρ f)]``. Lemma 10: ``W(f) = Σ_i f̂({i})``; Proposition 5: ``W(f) = I[f]`` for
  monotone ``f``; Theorem 6: ``W(M_ρ f) = ρ W(f)``.

Examples
--------
>>> from privgeom import voting
>>> print(voting.influence(voting.majority(3)))
influence of majority(3) (exact): every voter 1/2; total 3/2
>>> voting.influence(voting.majority(3)) == (Fraction(1, 2),) * 3
True
>>> voting.probabilistic_influence(voting.majority(3), "1/2", 0).value   # (1 + 1/4)/2 · 1/2
Fraction(5, 16)
>>> voting.welfare(voting.majority(3)).value, voting.welfare(voting.majority(3), "1/2").value
(Fraction(3, 2), Fraction(3, 4))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterator, overload

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.arrays import parse_int
from .._core.numbers import Scalar
from .._core.numbers import number_text
from .._core.results import Quantity, Result
from .._core.level import LevelLike
from ._common import (
    EXACT_BINOMIAL_MAX_N,
    EXACT_COUNTS_MAX_N,
    Rho,
    RhoLike,
    binomials,
    log_binom_pmf,
    noise,
    parse_rho,
    pick_route,
)
from ._counts import noisy_counts
from ._fourier import fourier, noise_table
from ._profiles import half, integer_form, popcounts
from ._rules import Rule, check_rule

__all__ = [
    "Influences",
    "influence",
    "probabilistic_influence",
    "welfare",
    "INFLUENCE_ROUTES",
    "WELFARE_ROUTES",
    "COUPLINGS",
    "coupling_table",
]

#: Couplings of the two re-noised votes of voter ``i`` understood by :func:`probabilistic_influence`.
COUPLINGS = ("definition5", "shared", "same_flip", "independent")


#: Largest number of voters listed one by one in :meth:`Influences.summary` (the rest are counted).
SUMMARY_MAX_VOTERS = 12


def _check_voter(f: Rule, i: Any) -> int:
    i = parse_int(i, name="voter index")
    if not 0 <= i < f.n:
        raise InvalidParameterError(f"voter index {i!r} is out of range 0..{f.n - 1}")
    return i


def _number(value: Scalar) -> str:
    return number_text(value, digits=15)


@dataclass(frozen=True, eq=False)
class Influences(Result):
    """One number per voter — influences ``I_i[f]`` (Definition 4) or probabilistic influences ``I_i[M_ρ f]``
    (Definition 5) — with their sum.

    Behaves as the tuple of the values: ``len``, indexing (``infl[i]`` is voter ``i``'s value, a Fraction in exact
    mode), iteration, ``np.asarray(infl)``, and equality with a tuple or list of numbers (``infl == (v,) * n``).

    Attributes
    ----------
    values : tuple of Fraction or float
        The value of each voter, in voter order.
    exact : bool
        True when every value is an exact Fraction.
    total : Fraction or float
        ``Σ_i values[i]`` (total influence ``I[f]``, or ``I[M_ρ f]``).
    name : str
        ``"influence"`` or ``"probabilistic influence"``.
    rule : str
        The rule's name.
    detail : str
        The setting (``ρ``, the coupling or the method).
    symmetric : bool
        True when every voter has the same value by symmetry of the rule.

    Examples
    --------
    >>> from privgeom import voting
    >>> infl = voting.influence(voting.dictator(3, 2))
    >>> infl[2], len(infl), infl.total, infl.exact
    (Fraction(1, 1), 3, Fraction(1, 1), True)
    >>> print(infl)
    influence of dictator(3, i=2) (exact): voter 0: 0, voter 1: 0, voter 2: 1; total 1
    """

    values: tuple[Scalar, ...]
    exact: bool
    total: Scalar
    name: str = "influence"
    rule: str = ""
    detail: str = ""
    symmetric: bool = False

    def __len__(self) -> int:
        return len(self.values)

    @overload
    def __getitem__(self, i: int) -> Scalar: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Scalar, ...]: ...

    def __getitem__(self, i: int | slice) -> Scalar | tuple[Scalar, ...]:
        return self.values[i]

    def __iter__(self) -> Iterator[Scalar]:
        return iter(self.values)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.values, dtype=dtype)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Influences):
            return self.values == other.values
        if isinstance(other, (tuple, list)):
            return self.values == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.values)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        where = f"; {self.detail}" if self.detail else ""
        if self.symmetric and self.values:
            body = f"every voter {_number(self.values[0])}"
        else:
            shown = [f"voter {i}: {_number(v)}" for i, v in enumerate(self.values[:SUMMARY_MAX_VOTERS])]
            more = len(self.values) - len(shown)
            body = ", ".join(shown) + (f", … ({more} more voters)" if more > 0 else "")
        return f"{self.name} of {self.rule} ({mode}{where}): {body}; total {_number(self.total)}"


def _influences(values: tuple[Scalar, ...], f: Rule, name: str, detail: str = "") -> Influences:
    exact = all(isinstance(v, Fraction) for v in values)
    return Influences(
        values=values,
        exact=exact,
        total=_total(values, f.is_symmetric),
        name=name,
        rule=f.name,
        detail=detail,
        symmetric=f.is_symmetric,
    )


def _pair_terms(f: Rule) -> tuple[Scalar, ...]:
    """``E_{x_{-i}}[((f(x^{i→1}) - f(x^{i→-1}))/2)^2]`` for every voter, from the truth table (Definition 4)."""
    form = integer_form(f.table())
    size = 1 << (f.n - 1)
    if form is None:
        cube = np.asarray(f.table(), float).reshape((2,) * f.n)
        return tuple(float(np.mean(((half(cube, i, 0) - half(cube, i, 1)) / 2) ** 2)) for i in range(f.n))
    nums, den = form
    small = nums.dtype != object and int(np.max(np.abs(nums))) < 2**20
    cube = nums.reshape((2,) * f.n) if small else nums.astype(object).reshape((2,) * f.n)
    out: list[Scalar] = []
    for i in range(f.n):
        d = half(cube, i, 0) - half(cube, i, 1)
        total = int(np.sum(d * d)) if small else sum(int(v) ** 2 for v in d.ravel().tolist() if v)
        out.append(Fraction(total, 4 * size * den * den))
    return tuple(out)


def _symmetric_pair_term(f: Rule) -> Scalar:
    """``E_{c' ~ Bin(n-1, 1/2)}[((v(c'+1) - v(c'))/2)^2]`` — only the breakpoints of ``v`` contribute."""
    v = f.counts
    assert v is not None
    n = f.n
    bps = f.breakpoints()
    if f.exact and n <= EXACT_BINOMIAL_MAX_N:
        form = integer_form(v)
        assert form is not None
        nums, den = form
        combs = binomials(n - 1, [b - 1 for b in bps])
        total = sum(c * (int(nums[b]) - int(nums[b - 1])) ** 2 for c, b in zip(combs, bps))
        return Fraction(total, 4 * den * den << (n - 1))
    if not bps:
        return 0.0
    b = np.array(bps)
    weights = np.exp(log_binom_pmf(b - 1, n - 1, 0.5, 0.5))
    jumps = (np.asarray(v, float)[b] - np.asarray(v, float)[b - 1]) / 2
    return math.fsum((weights * jumps**2).tolist())


def _infl_definition(f: Rule) -> tuple[Scalar, ...]:
    """``definition``: any truth table, ``O(n 2^n)``: the pairs of profiles differing in voter ``i``
    (Definition 4; exact integers for rational tables)."""
    return _pair_terms(f)


def _infl_fourier(f: Rule) -> tuple[Scalar, ...]:
    """``fourier``: any truth table, ``O(n 2^n)``: ``Σ_{S ∋ i} f̂(S)^2`` (O'Donnell Theorem 2.20)."""
    return fourier(f).influences()


def _infl_counts(f: Rule) -> tuple[Scalar, ...]:
    """``counts``: symmetric rules, any ``n``, ``O(breakpoints)``: the binomial weights of the breakpoints — for
    majority ``C(n-1, (n-1)/2)/2^{n-1}`` — exactly up to ``n = 10^5`` (:data:`EXACT_BINOMIAL_MAX_N`), in floats
    beyond."""
    if not f.is_symmetric:
        raise InvalidParameterError(f"method 'counts' needs a symmetric rule; {f.name} is not")
    return (_symmetric_pair_term(f),) * f.n


def _infl_banzhaf(f: Rule) -> tuple[Scalar, ...]:
    """``banzhaf``: weighted majorities with non-negative weights, any ``n``, ``O(n W)`` for total integer weight
    ``W``: swing counts by generating functions (:func:`~privgeom.voting.banzhaf`; the raw index is ``I_i``)."""
    from ._banzhaf import banzhaf

    if f.kind != "weighted" or not f.is_monotone:
        raise InvalidParameterError(
            f"method 'banzhaf' needs a weighted majority with non-negative weights; {f.name} is not"
        )
    params = f.params
    quota = params["quota"]
    if params.get("strict"):  # yes-weight > quota  <=>  yes-weight >= the next point of the weight lattice
        den = math.lcm(*(Fraction(w).denominator for w in params["weights"]))
        quota = Fraction(math.floor(Fraction(quota) * den) + 1, den)
    return banzhaf(params["weights"], quota).raw


def _infl_auto(f: Rule) -> tuple[Scalar, ...]:
    """``auto``: counts for symmetric rules, banzhaf for weighted rules without a truth table, else definition."""
    if f.is_symmetric:
        return _infl_counts(f)
    if f.kind == "weighted" and not f.has_table:
        return _infl_banzhaf(f)
    return _infl_definition(f)


#: The routes of :func:`influence` by ``method=`` name (see each route's docstring).
INFLUENCE_ROUTES: dict[str, Callable[[Rule], tuple[Scalar, ...]]] = {
    "auto": _infl_auto,
    "definition": _infl_definition,
    "fourier": _infl_fourier,
    "counts": _infl_counts,
    "banzhaf": _infl_banzhaf,
}
INFLUENCE_METHODS = tuple(INFLUENCE_ROUTES)


@overload
def influence(f: Rule, i: None = None, *, method: str = "auto") -> Influences: ...


@overload
def influence(f: Rule, i: int, *, method: str = "auto") -> Quantity: ...


def influence(f: Rule, i: int | None = None, *, method: str = "auto") -> Influences | Quantity:
    """Influence ``I_i[f]`` of voter ``i`` (Definition 4) as a :class:`~privgeom.Quantity`, or every voter's
    influence as :class:`Influences` when ``i`` is None — with the total influence ``I[f] = Σ_i I_i[f]`` as
    ``.total`` (``I[Maj_n] ~ √(2/π) √n``).

    Parameters
    ----------
    method : {"auto", "definition", "fourier", "counts", "banzhaf"}
        One of :data:`INFLUENCE_ROUTES` (each route's docstring says what it needs and costs). ``auto``: counts,
        then banzhaf for weighted rules without a table, then definition.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.influence(voting.majority(101), 0) == Fraction(math.comb(100, 50), 2**100)
    True
    >>> voting.influence(voting.dictator(3, 2)).values
    (Fraction(0, 1), Fraction(0, 1), Fraction(1, 1))
    >>> voting.influence(voting.majority(3)).total, voting.influence(voting.parity(4)).total
    (Fraction(3, 2), Fraction(4, 1))
    """
    f = check_rule(f)
    route = pick_route(INFLUENCE_ROUTES, method, "influence")
    if i is not None:
        i = _check_voter(f, i)
    values = route(f)
    if i is None:
        return _influences(values, f, "influence")
    return Quantity(value=values[i], name="influence", detail=f"voter {i} of {f.name}")


def _influence_values(f: Rule, method: str = "auto") -> tuple[Scalar, ...]:
    """``(I_0[f], …, I_{n-1}[f])`` as bare numbers."""
    return pick_route(INFLUENCE_ROUTES, method, "influence")(f)


def _total_influence(f: Rule, method: str = "auto") -> Scalar:
    return _total(_influence_values(f, method), f.is_symmetric)


def _total(values: tuple[Scalar, ...], symmetric: bool) -> Scalar:
    if symmetric:  # every voter alike: one multiplication instead of n big-rational additions
        return len(values) * values[0]
    return sum(values, Fraction(0)) if all(isinstance(v, Fraction) for v in values) else math.fsum(map(float, values))


def coupling_table(coupling: str, rho: RhoLike) -> dict[tuple[int, int], Scalar]:
    """Joint law of the two re-noised votes ``(y_i, z_i)`` of voter ``i`` (votes ``1`` and ``-1``) per coupling.

    Examples
    --------
    >>> t = coupling_table("definition5", "1/2")
    >>> t[(1, -1)], t[(-1, 1)], t[(1, 1)]
    (Fraction(9, 16), Fraction(1, 16), Fraction(3, 16))
    """
    r = parse_rho(rho)
    p, q, x = r.p, r.q, r.rho
    if coupling == "definition5":  # y_i ~ N_rho(1) and z_i ~ N_rho(-1) independently
        return {(1, -1): p * p, (-1, 1): q * q, (1, 1): p * q, (-1, -1): q * p}
    if coupling == "shared":  # one keep/redraw coin and one redrawn value for both
        return {(1, -1): x, (-1, 1): 0 * x, (1, 1): (1 - x) / 2, (-1, -1): (1 - x) / 2}
    if coupling == "same_flip":  # one flip coin for both
        return {(1, -1): p, (-1, 1): q, (1, 1): 0 * x, (-1, -1): 0 * x}
    raise InvalidParameterError(f"coupling {coupling!r} is not a per-voter coupling; choose one of {COUPLINGS[:3]}")


def _independent(f: Rule, r: Rho) -> tuple[Scalar, ...]:
    """Every coin re-drawn: ``E_x E[((f(y) - f(z))/2)^2]`` with ``y ~ N_ρ(x^{i→1})``, ``z ~ N_ρ(x^{i→-1})``
    independent: ``(T(f²)(x^{i→1}) + T(f²)(x^{i→-1}) - 2 T f(x^{i→1}) T f(x^{i→-1})) / 4`` averaged over ``x``."""
    tf = noise_table(f, r).reshape((2,) * f.n)
    table = f.table()
    tf2 = noise_table(Rule.from_truth_table(table * table), r).reshape((2,) * f.n)
    out: list[Scalar] = []
    for i in range(f.n):
        a, b = half(tf, i, 0), half(tf, i, 1)
        a2, b2 = half(tf2, i, 0), half(tf2, i, 1)
        terms = (a2 + b2 - 2 * a * b) / 4
        if terms.dtype == object:
            out.append(sum(terms.ravel().tolist(), Fraction(0)) / terms.size)
        else:
            out.append(math.fsum(terms.ravel().tolist()) / terms.size)
    return tuple(out)


@overload
def probabilistic_influence(
    f: Rule, rho: RhoLike | None = None, i: None = None, *, eps: LevelLike | None = None, coupling: str = "definition5"
) -> Influences: ...


@overload
def probabilistic_influence(
    f: Rule, rho: RhoLike | None, i: int, *, eps: LevelLike | None = None, coupling: str = "definition5"
) -> Quantity: ...


@overload
def probabilistic_influence(f: Rule, *, i: int, eps: LevelLike, coupling: str = "definition5") -> Quantity: ...


def probabilistic_influence(
    f: Rule,
    rho: RhoLike | None = None,
    i: int | None = None,
    *,
    eps: LevelLike | None = None,
    coupling: str = "definition5",
) -> Influences | Quantity:
    """Probabilistic influence ``I_i[M_ρ f]`` exactly as Definition 5: a :class:`~privgeom.Quantity` for voter
    ``i``, or :class:`Influences` of every voter when ``i`` is None, whose ``.total`` is ``I[M_ρ f]`` (by Theorem 3,
    ``(1+ρ²)/2 · I[f]``).

    Parameters
    ----------
    rho, eps
        The noise: exactly one of ``ρ`` and the level ``ε`` of the randomized response on the votes
        (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17).
    coupling : str
        ``"definition5"`` (default — the paper's definition: others' noisy votes kept, voter ``i`` re-noised once
        for each of her votes, independently); the alternatives ``"shared"``, ``"same_flip"`` and
        ``"independent"`` are provided to show that Theorem 3 depends on this choice (:data:`COUPLINGS`).

    Examples
    --------
    >>> from privgeom import voting
    >>> f = voting.majority(3)
    >>> [voting.probabilistic_influence(f, "1/2", 0, coupling=c).value for c in COUPLINGS]
    [Fraction(5, 16), Fraction(1, 4), Fraction(1, 2), Fraction(241, 512)]
    >>> voting.probabilistic_influence(f, eps="ln(3)").total, voting.probabilistic_influence(f, eps="ln(3)", i=0).value
    (Fraction(15, 16), Fraction(5, 16))
    """
    f = check_rule(f)
    if coupling not in COUPLINGS:
        raise InvalidParameterError(f"unknown coupling {coupling!r}; choose one of {', '.join(COUPLINGS)}")
    r = noise(rho, eps=eps)
    if i is not None:
        i = _check_voter(f, i)
    values = _probabilistic_values(f, r, coupling)
    detail = f"rho = {r.rho}, coupling {coupling}"
    if i is None:
        return _influences(values, f, "probabilistic influence", detail)
    return Quantity(value=values[i], name="probabilistic influence", detail=f"voter {i} of {f.name}, {detail}")


def _probabilistic_values(f: Rule, r: Rho, coupling: str = "definition5") -> tuple[Scalar, ...]:
    """``(I_0[M_ρ f], …, I_{n-1}[M_ρ f])`` as bare numbers."""
    if coupling == "independent":
        values = _independent(f, r)
    else:
        # Σ over the joint law of (y_i, z_i) of E_{x_{-i}}[((f(x_{-i}, y_i) - f(x_{-i}, z_i))/2)^2]: equal votes give 0,
        # and both unequal pairs give E[((f(x^{i→1}) - f(x^{i→-1}))/2)^2]
        law = coupling_table(coupling, r)
        if f.is_symmetric:
            pair: tuple[Scalar, ...] = (_symmetric_pair_term(f),)
        elif f.has_table:
            pair = _pair_terms(f)
        else:  # ±1 rule without a table (weighted majority of many voters): the pair term is I_i[f] (Banzhaf)
            pair = _influence_values(f)
        values = tuple(
            _combine([(w, 0 if a == b else v) for (a, b), w in law.items()], r.exact and isinstance(v, Fraction))
            for v in pair
        )
        if f.is_symmetric:
            values = values * f.n
    return values


def _combine(weighted: list[tuple[Scalar, Scalar]], exact: bool) -> Scalar:
    if exact:
        return sum((Fraction(w) * Fraction(v) for w, v in weighted), Fraction(0))
    return math.fsum(float(w) * float(v) for w, v in weighted)


def welfare(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None, method: str = "auto") -> Quantity:
    """Welfare ``W(M_ρ f) = E_{x, M}[#{i: x_i = M_ρ f(x)} - #{i: x_i ≠ M_ρ f(x)}]`` (Definitions 6–7); no noise
    (``ρ = 1``, the default) gives ``W(f)``.

    Parameters
    ----------
    rho, eps
        The noise: at most one of ``ρ`` and the level ``ε`` of the randomized response on the votes
        (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17); neither means ``ρ = 1``.
    method : {"auto", "definition", "fourier", "counts", "theorem6"}
        One of :data:`WELFARE_ROUTES` (each route's docstring says what it needs and costs). ``auto`` takes counts
        for symmetric rules (theorem6 beyond ``n = 400`` when ``ρ < 1``), else definition.

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.welfare(voting.majority(5), "1/3") == voting.welfare(voting.majority(5)).value / 3
    True
    >>> print(voting.welfare(voting.dictator(4)))
    welfare = 1 (exact; dictator(4, i=0), rho = 1)
    >>> voting.welfare(voting.parity(3)).value, voting.welfare(voting.majority(3), eps="ln(3)").value
    (Fraction(0, 1), Fraction(3, 4))
    """
    f = check_rule(f)
    r = noise(rho, eps=eps, default=1)
    return Quantity(value=_welfare(f, r, method), name="welfare", detail=f"{f.name}, rho = {r.rho}")


def _welfare(f: Rule, r: Rho, method: str = "auto") -> Scalar:
    """``W(M_ρ f)`` as a bare number (Fraction or float)."""
    f = check_rule(f)
    if not f.is_boolean:
        raise InvalidParameterError(
            f"welfare is defined for voting rules with values ±1 (Definition 6); {f.name} is real-valued"
        )
    return pick_route(WELFARE_ROUTES, method, "welfare")(f, r)


def _wel_theorem6(f: Rule, r: Rho) -> Scalar:
    """``theorem6``: ``ρ · W(f)`` (Theorem 6), ``W(f)`` by counts (symmetric rules) or by definition."""
    base = _welfare(f, parse_rho(1), "counts" if f.is_symmetric else "definition")
    return r.rho * base if r.exact else float(r.rho) * float(base)


def _wel_fourier(f: Rule, r: Rho) -> Scalar:
    """``fourier``: any truth table, ``O(n 2^n)``: ``ρ Σ_i f̂({i})`` (Lemma 10 with Theorem 6)."""
    spec = fourier(f)
    first = sum((spec.coefficient({i}) for i in range(f.n)), Fraction(0) if spec.exact else 0.0)
    return r.rho * first if r.exact and spec.exact else float(r.rho) * float(first)


def _wel_counts(f: Rule, r: Rho) -> Scalar:
    """``counts``: symmetric rules: ``Σ_c C(n, c) (2c - n) E[M_ρ f | c] / 2^n`` by vote count, exact up to
    ``n = 400`` for ``ρ < 1`` and up to ``n = 10^5`` (:data:`EXACT_BINOMIAL_MAX_N`) for ``ρ = 1`` (only the
    breakpoints contribute; float beyond, from the binomial log-pmf)."""
    if not f.is_symmetric:
        raise InvalidParameterError(f"method 'counts' needs a symmetric rule; {f.name} is not")
    n = f.n
    if r.rho == 1:  # W(f) = n E[f(x) x_1] = (n/2) Σ_b (v(b) - v(b-1)) C(n-1, b-1) / 2^{n-1}
        v = f.counts
        assert v is not None
        bps = f.breakpoints()
        if n > EXACT_BINOMIAL_MAX_N:  # float: the binomial weights from the log-pmf, O(breakpoints)
            b = np.array(bps, dtype=float)
            weights = np.exp(log_binom_pmf(b - 1, n - 1, 0.5, 0.5)) if bps else np.zeros(0)
            jumps = (
                np.asarray(v, float)[np.array(bps, dtype=np.intp)]
                - np.asarray(v, float)[np.array(bps, dtype=np.intp) - 1]
            )
            return n / 2 * math.fsum((weights * jumps).tolist())
        total = sum(int(v[b] - v[b - 1]) * c for c, b in zip(binomials(n - 1, [b - 1 for b in bps]), bps))
        return Fraction(n * total, 2 << (n - 1)) if r.exact else n * total / float(2 << (n - 1))
    tv = noisy_counts(f, r)
    if tv.dtype == object:
        return sum((Fraction(math.comb(n, c) * (2 * c - n), 1 << n) * tv[c] for c in range(n + 1)), Fraction(0))
    weights = np.exp(log_binom_pmf(np.arange(n + 1), n, 0.5, 0.5))
    return math.fsum((weights * (2 * np.arange(n + 1) - n) * tv).tolist())


def _wel_definition(f: Rule, r: Rho) -> Scalar:
    """``definition``: any truth table, ``O(n 2^n)``: ``2^{-n} Σ_x (P(M f(x) = 1) - P(M f(x) = -1)) Σ_i x_i``
    (Definitions 6–7)."""
    n = f.n
    signed = noise_table(f, r) if r.rho != 1 else f.table()
    votes_sum = n - 2 * popcounts(n).astype(np.int64)
    if signed.dtype == object:
        return sum((s * v for s, v in zip(votes_sum.tolist(), signed.tolist())), Fraction(0)) / (1 << n)
    if r.exact:
        return Fraction(int(np.dot(votes_sum, signed.astype(np.int64))), 1 << n)
    return math.fsum((votes_sum * np.asarray(signed, float)).tolist()) / (1 << n)


def _wel_auto(f: Rule, r: Rho) -> Scalar:
    """``auto``: counts for symmetric rules (theorem6 beyond ``n = 400`` when ``ρ < 1``), else definition."""
    if f.is_symmetric:
        return (_wel_counts if (r.rho == 1 or f.n <= EXACT_COUNTS_MAX_N) else _wel_theorem6)(f, r)
    return _wel_definition(f, r)


#: The routes of :func:`welfare` by ``method=`` name (see each route's docstring).
WELFARE_ROUTES: dict[str, Callable[[Rule, Rho], Scalar]] = {
    "auto": _wel_auto,
    "definition": _wel_definition,
    "fourier": _wel_fourier,
    "counts": _wel_counts,
    "theorem6": _wel_theorem6,
}
WELFARE_METHODS = tuple(WELFARE_ROUTES)
