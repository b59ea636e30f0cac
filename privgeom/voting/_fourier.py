"""Fourier analysis on the cube: Walsh–Hadamard spectrum, the noise operator ``T_ρ`` and noise stability.

Every ``f: {-1,1}^n → R`` is ``f(x) = Σ_S f̂(S) χ_S(x)`` with ``χ_S(x) = Π_{i∈S} x_i`` and
``f̂(S) = E_x[f(x) χ_S(x)]`` (Appendix A.4 of the referendum paper, Plancherel's theorem as its Lemma 8). All ``2^n``
coefficients come from one fast Walsh–Hadamard transform in ``O(n 2^n)`` — exact integers for rational tables.

The noise operator (Definition 8) is ``T_ρ f(x) = E_{y ~ N_ρ x}[f(y)]``, i.e. ``T_ρ f = Σ_S ρ^{|S|} f̂(S) χ_S``, and
stability (Definition 9) is ``Stab_ρ[f] = E[f(x) f(y)] = E[f T_ρ f]`` (Equation (2) of the paper)
``= Σ_S ρ^{|S|} f̂(S)^2 = Σ_k ρ^k W_k[f]`` with level weights ``W_k = Σ_{|S|=k} f̂(S)^2`` (Plancherel, the paper's
Lemma 8; O'Donnell Theorem 2.49).

Examples
--------
>>> from privgeom import voting
>>> spec = voting.fourier(voting.majority(3))
>>> print(spec)
Fourier spectrum of majority(3) (exact): 1/2·x0 + 1/2·x1 + 1/2·x2 - 1/2·x0x1x2
>>> spec.level_weights()
(Fraction(0, 1), Fraction(3, 4), Fraction(0, 1), Fraction(1, 4))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

import numpy as np

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.limits import register_limit
from .._core.arrays import parse_int, readonly
from .._core.hints import limit_hint
from .._core.numbers import Scalar
from .._core.limits import current_limit
from .._core.numbers import number_text
from .._core.results import Result
from ._common import Rho, RhoLike, noise
from ._profiles import half, integer_form, popcounts
from ._rules import Rule, check_rule
from .._core.level import LevelLike

__all__ = [
    "FourierSpectrum",
    "fourier",
    "walsh_hadamard",
    "apply_noise",
    "apply_noise_integer",
    "apply_noise_log",
    "noise_operator",
    "symmetric_level_coefficients",
    "SYMMETRIC_SPECTRUM_MAX_N",
    "SYMMETRIC_TABLE_MAX_N",
    "JSON_COEFFICIENTS_MAX_N",
]

#: Largest electorate for which the exact per-level spectrum of a symmetric rule is computed (``O(n^2)`` big ints).
SYMMETRIC_SPECTRUM_MAX_N = 2000
register_limit(
    "spectrum_voters",
    globals(),
    "SYMMETRIC_SPECTRUM_MAX_N",
    "largest electorate of the exact per-level Fourier spectrum of a symmetric rule (O(n^2) big integers)",
)
#: Largest electorate at which :func:`fourier` transforms the truth table of a symmetric rule (``2^16`` profiles);
#: beyond it the spectrum is computed per level (Krawtchouk), ``O(n^2)`` without any table.
SYMMETRIC_TABLE_MAX_N = 16
#: Largest electorate for which :meth:`FourierSpectrum.to_dict` lists the non-zero coefficients subset by subset
#: (at most ``2^12`` entries); larger spectra give their level weights only.
JSON_COEFFICIENTS_MAX_N = 12


# ------------------------------------------------------------------------------------------------ kernels
def walsh_hadamard(values: np.ndarray) -> np.ndarray:
    """Unnormalised Walsh–Hadamard transform ``H[S] = Σ_j v[j] (-1)^{|S ∧ j|}`` in ``O(n 2^n)``.

    Works on int64 (exact, caller guarantees no overflow), object (Python ints/Fractions) and float arrays. With the
    profile order of :mod:`privgeom.voting`, ``H[S] / 2^n = f̂(S)`` where bit ``n-1-i`` of ``S`` means voter ``i ∈ S``.

    Examples
    --------
    >>> walsh_hadamard(np.array([1, 1, 1, -1])).tolist()
    [2, 2, 2, -2]
    """
    h = np.array(values, copy=True)
    size = h.shape[0]
    n = size.bit_length() - 1
    for i in range(n):
        v = h.reshape(1 << i, 2, -1)
        x0 = v[:, 0, :].copy()
        v[:, 0, :] += v[:, 1, :]
        v[:, 1, :] = x0 - v[:, 1, :]
    return h


def _axes(n: int) -> Iterable[tuple[int, int]]:
    for i in range(n):
        yield 1 << i, 1 << (n - 1 - i)


def apply_noise(values: np.ndarray, n: int, p: float, q: float) -> np.ndarray:
    """Float ``T_ρ g`` on a table: along every voter axis ``g ↦ [[p, q], [q, p]] g`` (``p = (1+ρ)/2``)."""
    arr = np.array(values, dtype=float, copy=True)
    for left, right in _axes(n):
        v = arr.reshape(left, 2, right)
        x0 = v[:, 0, :].copy()
        x1 = v[:, 1, :].copy()
        v[:, 0, :] = p * x0 + q * x1
        v[:, 1, :] = q * x0 + p * x1
    return arr


def apply_noise_integer(numerators: np.ndarray, n: int, a: int, b: int) -> tuple[np.ndarray, int]:
    """Exact ``T_ρ g`` for ``ρ = a/b`` on integer numerators: returns ``(N, (2b)^n)`` with ``T_ρ g = N / (2b)^n``.

    Uses int64 while ``max|g| (2b)^n < 2^62`` and Python integers beyond.
    """
    big_p, big_q = b + a, b - a
    bound = (int(np.max(np.abs(numerators))) if numerators.size else 0) * (2 * b) ** n
    arr = np.array(numerators, dtype=np.int64 if bound < 2**62 and numerators.dtype != object else object, copy=True)
    for left, right in _axes(n):
        v = arr.reshape(left, 2, right)
        x0 = v[:, 0, :].copy()
        x1 = v[:, 1, :].copy()
        v[:, 0, :] = big_p * x0 + big_q * x1
        v[:, 1, :] = big_q * x0 + big_p * x1
    return arr, (2 * b) ** n


def apply_noise_log(log_values: np.ndarray, n: int, log_p: float, log_q: float) -> np.ndarray:
    """``ln T_ρ g`` from ``ln g`` for a non-negative table ``g`` (no underflow; ``-inf`` entries allowed)."""
    arr = np.array(log_values, dtype=float, copy=True)
    for left, right in _axes(n):
        v = arr.reshape(left, 2, right)
        x0 = v[:, 0, :].copy()
        x1 = v[:, 1, :].copy()
        v[:, 0, :] = np.logaddexp(log_p + x0, log_q + x1)
        v[:, 1, :] = np.logaddexp(log_q + x0, log_p + x1)
    return arr


def _exact_wht(rule: Rule) -> tuple[np.ndarray, int] | None:
    """``(H, D)`` with ``f̂(S) = H[S] / (D 2^n)`` in integers, or ``None`` for float tables."""
    form = integer_form(rule.table())
    if form is None:
        return None
    nums, den = form
    bound = (int(np.max(np.abs(nums))) if nums.size else 0) << rule.n
    if nums.dtype != object and bound >= 2**62:
        nums = nums.astype(object)
    return walsh_hadamard(nums), den << rule.n


def symmetric_level_coefficients(rule: Rule) -> list[Fraction]:
    """Exact ``f̂_k`` (the common coefficient of every ``|S| = k``) of a symmetric rule, ``k = 0..n``.

    ``Σ_{|S|=k} χ_S(x) = [z^k] (1+z)^c (1-z)^{n-c}`` for a profile with ``c`` votes ``+1``, so
    ``2^n C(n,k) f̂_k = [z^k] Σ_c C(n,c) f(c) (1+z)^c (1-z)^{n-c}`` (Krawtchouk polynomials), computed with
    ``O(n^2)`` big-integer additions.

    Examples
    --------
    >>> from privgeom import voting
    >>> [str(v) for v in symmetric_level_coefficients(voting.majority(3))]
    ['0', '1/2', '0', '-1/2']
    """
    counts = rule.counts
    if counts is None:
        raise InvalidParameterError(f"{rule.name} is not symmetric")
    form = integer_form(counts)
    if form is None:
        raise InvalidParameterError("the exact per-level spectrum needs rational values")
    n = rule.n
    if n > current_limit("spectrum_voters"):
        raise SizeLimitError(
            f"the exact spectrum of a symmetric rule costs O(n^2) big integers; n = {n:,} voters > "
            f"the limit spectrum_voters = {current_limit('spectrum_voters'):,}, refused before "
            "any work; "
            f"{limit_hint('spectrum_voters', n)}"
        )
    nums, den = form
    poly = np.array([(-1) ** k * math.comb(n, k) for k in range(n + 1)], dtype=object)  # (1-z)^n
    total = np.zeros(n + 1, dtype=object)
    for c in range(n + 1):
        v = int(nums[c])
        if v:
            total += (math.comb(n, c) * v) * poly
        if c < n:
            quotient = np.cumsum(poly)[:n]  # poly / (1 - z), exact
            poly = np.concatenate([quotient, [0]]) + np.concatenate([[0], quotient])  # times (1 + z)
    scale = den << n
    return [Fraction(int(total[k]), scale * math.comb(n, k)) for k in range(n + 1)]


# ------------------------------------------------------------------------------------------------ result
@dataclass(frozen=True)
class FourierSpectrum(Result):
    """The Fourier spectrum ``f̂(S)`` of a function on ``{-1, 1}^n``.

    Stored by subset (``2^n`` coefficients from the Walsh–Hadamard transform) or, for symmetric rules, by level
    (``f̂(S)`` depends only on ``|S|``). In exact mode ``f̂(S) = numerators[S] / denominator``.

    Examples
    --------
    >>> from privgeom import voting
    >>> s = voting.fourier(voting.tribes(2, 2))
    >>> s.coefficient({0}), s.level_weights()[1], s.by_level
    (Fraction(3, 8), Fraction(9, 16), False)
    """

    name: str
    n: int
    exact: bool
    by_level: bool
    numerators: np.ndarray = field(repr=False)
    denominator: int = field(repr=False, default=1)

    def _mask(self, subset: Iterable[int]) -> int:
        mask = 0
        for i in subset:
            i = parse_int(i, name="voter")
            if not 0 <= i < self.n:
                raise InvalidParameterError(f"voter {i} is out of range 0..{self.n - 1}")
            mask |= 1 << (self.n - 1 - i)
        return mask

    def _value(self, raw: Any) -> Scalar:
        if not self.exact:
            return float(raw)
        if isinstance(raw, Fraction):
            return raw
        return Fraction(int(raw), self.denominator)

    def coefficient(self, subset: Iterable[int]) -> Scalar:
        """``f̂(S)`` for a set of voters ``S`` (e.g. ``{0, 2}``; ``()`` is the mean)."""
        voters = set(parse_int(i, name="voter") for i in subset)
        mask = self._mask(voters)
        return self._value(self.numerators[len(voters)] if self.by_level else self.numerators[mask])

    def level_weights(self) -> tuple[Scalar, ...]:
        """``W_k = Σ_{|S|=k} f̂(S)^2`` for ``k = 0..n`` (they sum to ``E[f^2]``, which is 1 for a voting rule)."""
        n = self.n
        if self.by_level:
            vals = [self._value(v) for v in self.numerators]
            return tuple(math.comb(n, k) * v * v for k, v in enumerate(vals))
        level = popcounts(n)
        if not self.exact:
            return tuple(
                float(w) for w in np.bincount(level, weights=np.asarray(self.numerators, float) ** 2, minlength=n + 1)
            )
        squares = self._exact_squares()
        sums = np.zeros(n + 1, dtype=squares.dtype)
        np.add.at(sums, level, squares)
        d2 = self.denominator**2
        return tuple(Fraction(int(s), d2) for s in sums)

    def _exact_squares(self) -> np.ndarray:
        """``numerators**2`` in int64 when every partial sum fits (always for ±1 tables up to n = 30), else Python ints."""
        nums = self.numerators
        if nums.dtype != object:
            top = int(np.max(np.abs(nums))) if nums.size else 0
            if top * top * nums.size < 2**62:
                return nums.astype(np.int64) ** 2
        return nums.astype(object) ** 2

    @property
    def degree(self) -> int:
        """Largest ``|S|`` with ``f̂(S) ≠ 0`` (``-1`` for the zero function)."""
        nz = [k for k, w in enumerate(self.level_weights()) if w != 0]
        return max(nz) if nz else -1

    def stability(self, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> Scalar:
        """``Stab_ρ[f] = Σ_k ρ^k W_k`` (Definition 9, Equation (2) with Plancherel — O'Donnell Theorem 2.49); exact
        when ``ρ`` and the spectrum are; the noise as ``rho=`` or ``eps=`` (``docs/theory.md`` §17). (A number, not a
        Quantity: :func:`~privgeom.voting.stability` is the public function.)"""
        r = noise(rho, eps=eps)
        exact = r.exact and self.exact
        weights = self.level_weights()
        if exact:
            return sum((r.rho**k * w for k, w in enumerate(weights)), Fraction(0))
        x = float(r.rho)
        return math.fsum(x**k * float(w) for k, w in enumerate(weights))

    def influences(self) -> tuple[Scalar, ...]:
        """``I_i[f] = Σ_{S ∋ i} f̂(S)^2`` for every voter (O'Donnell Theorem 2.20)."""
        n = self.n
        if self.by_level:
            vals = [self._value(v) for v in self.numerators]
            one = sum(
                (math.comb(n - 1, k - 1) * vals[k] * vals[k] for k in range(1, n + 1)),
                Fraction(0) if self.exact else 0.0,
            )
            return (one,) * n
        out: list[Scalar] = []
        squares = self._exact_squares() if self.exact else np.asarray(self.numerators, float) ** 2
        cube = squares.reshape((2,) * n)
        for i in range(n):
            s = half(cube, i, 1).sum()
            out.append(Fraction(int(s), self.denominator**2) if self.exact else float(s))
        return tuple(out)

    def nonzero(self, limit: int | None = None) -> list[tuple[tuple[int, ...], Scalar]]:
        """``(S, f̂(S))`` for the non-zero coefficients (by subset), ordered by ``|S|`` then ``S``."""
        n = self.n
        out: list[tuple[tuple[int, ...], Scalar]] = []
        if self.by_level:
            from itertools import combinations

            for k in range(n + 1):
                if self.numerators[k] != 0:
                    for S in combinations(range(n), k):
                        out.append((S, self._value(self.numerators[k])))
                        if limit is not None and len(out) >= limit:
                            return out
            return out
        masks = np.nonzero(np.asarray(self.numerators != 0))[0]
        level = popcounts(n)[masks]
        # equal-size subsets in lexicographic order of their voters = decreasing masks (voter 0 is the top bit)
        for m in masks[np.lexsort((-masks, level))]:
            S = tuple(i for i in range(n) if (int(m) >> (n - 1 - i)) & 1)
            out.append((S, self._value(self.numerators[m])))
            if limit is not None and len(out) >= limit:
                break
        return out

    def summary(self) -> str:
        terms = self.nonzero(limit=13)
        more = " + …" if len(terms) > 12 else ""
        parts = []
        for S, v in terms[:12]:
            mono = "".join(f"x{i}" for i in S)
            sign = "-" if v < 0 else "+"
            mag = number_text(abs(v) if self.exact else abs(float(v)))
            parts.append((sign, f"{mag}·{mono}" if mono else mag))
        if not parts:
            text = "0"
        else:
            text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
            text += "".join(f" {s} {t}" for s, t in parts[1:])
        mode = "exact" if self.exact else "float"
        return f"Fourier spectrum of {self.name} ({mode}): {text}{more}"

    def to_dict(self) -> dict[str, Any]:
        from .._core.results import to_jsonable

        data: dict[str, Any] = {"name": self.name, "n": self.n, "exact": self.exact, "by_level": self.by_level}
        data["level_weights"] = to_jsonable(list(self.level_weights()))
        if self.by_level:  # the common coefficient of every |S| = k, by k
            data["level_coefficients"] = [to_jsonable(self._value(v)) for v in self.numerators]
        elif self.n <= JSON_COEFFICIENTS_MAX_N:  # non-zero coefficients keyed by the voters of S ("" is the mean)
            data["coefficients"] = {",".join(map(str, S)): to_jsonable(v) for S, v in self.nonzero()}
        return data


# ------------------------------------------------------------------------------------------------ API
def fourier(f: Rule) -> FourierSpectrum:
    """The Fourier spectrum of ``f`` (fast Walsh–Hadamard transform; per level for symmetric rules).

    Exact (Fractions) for rational values; truth tables up to ``n = 26`` (``n = 22`` in a few seconds), symmetric
    rules up to ``n = 2000`` without a table.

    Examples
    --------
    >>> from privgeom import voting
    >>> s = voting.fourier(voting.dictator(3, 1))
    >>> s.coefficient({1}), s.coefficient(()), s.degree
    (Fraction(1, 1), Fraction(0, 1), 1)
    >>> voting.fourier(voting.majority(101)).coefficient({0}) == voting.influence(voting.majority(101), 0)
    True
    """
    f = check_rule(f)
    if f.is_symmetric and (not f.has_table or f.n > SYMMETRIC_TABLE_MAX_N):
        if not f.exact:
            raise InvalidParameterError("the per-level spectrum of a symmetric rule needs rational values")
        coeffs = symmetric_level_coefficients(f)
        arr = np.empty(f.n + 1, dtype=object)
        arr[:] = coeffs
        return FourierSpectrum(name=f.name, n=f.n, exact=True, by_level=True, numerators=readonly(arr), denominator=1)
    exact = _exact_wht(f)
    if exact is not None:
        H, den = exact
        return FourierSpectrum(name=f.name, n=f.n, exact=True, by_level=False, numerators=readonly(H), denominator=den)
    H = walsh_hadamard(np.asarray(f.table(), dtype=float)) / float(1 << f.n)
    return FourierSpectrum(name=f.name, n=f.n, exact=False, by_level=False, numerators=readonly(H), denominator=1)


def noise_table(f: Rule, r: Rho) -> np.ndarray:
    """The table of ``T_ρ f`` (Fractions in exact mode, floats otherwise)."""
    form = integer_form(f.table()) if r.exact else None
    if form is not None:
        nums, den = form
        out, scale = apply_noise_integer(nums, f.n, r.a, r.b)
        res = np.empty(out.shape, dtype=object)
        res[:] = [Fraction(int(v), scale * den) for v in out]
        return res
    return apply_noise(np.asarray(f.table(), dtype=float), f.n, float(r.p), float(r.q))


def noise_operator(f: Rule, rho: RhoLike | None = None, *, eps: LevelLike | None = None) -> Rule:
    """``T_ρ f`` as a (real-valued) rule: ``T_ρ f(x) = E_{y ~ N_ρ x}[f(y)]`` (Definition 8 of the paper); the noise
    as ``rho=`` or its level ``eps=`` (``ρ = (e^ε-1)/(e^ε+1)``, ``docs/theory.md`` §17).

    Symmetric rules stay symmetric (``T_ρ`` commutes with permutations of the voters).

    Examples
    --------
    >>> from privgeom import voting
    >>> voting.noise_operator(voting.dictator(2), "1/2").table().tolist()
    [Fraction(1, 2), Fraction(1, 2), Fraction(-1, 2), Fraction(-1, 2)]
    >>> [str(v) for v in voting.noise_operator(voting.majority(3), "1/2").counts]
    ['-11/16', '-5/16', '5/16', '11/16']
    """
    f = check_rule(f)
    r = noise(rho, eps=eps)
    name = f"T_{r.rho} {f.name}"
    if f.is_symmetric:
        from ._counts import noisy_counts

        return Rule(f.n, name=name, kind="noisy", params={"rho": r.rho, "of": f.name}, counts=noisy_counts(f, r))
    return Rule(f.n, name=name, kind="noisy", params={"rho": r.rho, "of": f.name}, table=noise_table(f, r))
