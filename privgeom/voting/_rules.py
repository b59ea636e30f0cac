"""Two-candidate voting rules ``f: {-1, 1}^n → {-1, 1}`` (and real-valued functions on the cube).

Votes are ``+1`` / ``-1``; a *profile* is one vote per voter, ordered like the datasets of
:func:`privgeom.randomized_response` (``11…1`` first; :mod:`privgeom.voting._profiles`).

Two representations:

- a **truth table** (``2^n`` values), for any rule while ``2^n`` fits in memory (:class:`~privgeom.SizeLimitError`
  beyond; tables of named rules such as a dictator or a weighted majority are built only when needed);
- for **symmetric** rules (the value depends only on the number ``c`` of ``+1`` votes), the ``n+1`` values per count,
  so that electorates of ``10^5`` voters and more are handled without any table.

The standard rules follow Appendix B of the referendum paper (Evren & Vepakomma) and O'Donnell's *Analysis of
Boolean Functions*.

Examples
--------
>>> f = majority(3)
>>> f.is_symmetric, f.counts.tolist(), f("110"), f((-1, -1, 1))
(True, [-1, -1, 1, 1], 1, -1)
>>> f.table().tolist()
[1, 1, 1, -1, 1, -1, -1, -1]
>>> threshold(4, 0).counts.tolist()   # ties go to -1
[-1, -1, -1, 1, 1]
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError
from .._core.level import ScalarLike
from .._core.arrays import parse_int
from .._core.numbers import is_exact_scalar, parse_scalar
from ._rule import (
    MAX_TABLE_BITS,
    Rule,
    _check_count_size,
    _check_table_size,
    _from_truth_table,
    _pm1,
    _sym,
    check_rule,
)
from ._rule import _constant, _from_function, _symmetric, _table_bits  # noqa: F401 - importable from here as before

__all__ = [
    "Rule",
    "majority",
    "dictator",
    "conjunction",
    "disjunction",
    "threshold",
    "tribes",
    "parity",
    "random_rule",
    "check_rule",
    "MAX_TABLE_BITS",
]


# ------------------------------------------------------------------------------------------- factories
def majority(
    n: int | None = None,
    *,
    weights: Iterable[ScalarLike] | None = None,
    quota: ScalarLike | None = None,
    max_n: int | None = None,
) -> Rule:
    """``Maj_n(x) = sign(x_1 + … + x_n)`` for odd ``n`` (Appendix B of the paper); with ``weights``, the weighted
    voting game ``[quota; w_1, …, w_n]``: ``1`` iff the voters voting ``1`` hold weight ``≥ quota``.

    Without ``quota`` a weighted majority needs *strictly more than half* of the total weight. Equal weights give a
    symmetric rule (stored by count). Rational weights are compared exactly. ``n``, when given with ``weights``,
    must be their number.

    Examples
    --------
    >>> majority(5).counts.tolist()
    [-1, -1, -1, 1, 1, 1]
    >>> f = majority(weights=[2, 1, 1], quota=3)
    >>> f("110"), f("011"), f.is_symmetric, f.name
    (1, -1, False, 'weighted([2, 1, 1], quota=3)')
    >>> majority(weights=[1, 1, 1]).counts.tolist()
    [-1, -1, 1, 1]
    """
    if weights is not None:
        return _with_n(_weighted_majority(weights, quota), n)
    if quota is not None:
        raise InvalidParameterError(
            f"quota = {quota!r} is the winning weight of a weighted majority: give weights= too"
        )
    if n is None:
        raise InvalidParameterError("majority needs the number of voters n (odd), or weights=")
    n = parse_int(n, name="n", min=1)
    if n % 2 == 0:
        raise InvalidParameterError(
            f"majority needs an odd number of voters, got n = {n}; use threshold({n}, 0) (ties to -1)"
        )
    _check_count_size(n, max_n, f"majority({n})")
    c = np.arange(n + 1, dtype=np.int64)
    return _sym(n, _pm1(2 * c > n), name=f"majority({n})", kind="majority")


def threshold(
    n: int | None = None,
    theta: ScalarLike = 0,
    *,
    weights: Iterable[ScalarLike] | None = None,
    max_n: int | None = None,
) -> Rule:
    """``f_θ(x) = 1`` if ``x_1 + … + x_n > θ`` else ``-1`` (Section 6.1.1; majority with ties to ``-1`` is ``f_0``);
    with ``weights``, ``f(x) = 1`` iff ``Σ w_i x_i > θ`` (the weighted threshold of O'Donnell, ties to ``-1``).

    Since ``Σ w_i x_i = 2·(weight voting 1) - Σ w_i``, the weighted threshold is the weighted voting game with quota
    ``(Σ w_i + θ)/2``, strict. ``n``, when given with ``weights``, must be their number.

    Examples
    --------
    >>> threshold(3, 1).counts.tolist()    # sum > 1 means all three vote +1
    [-1, -1, -1, 1]
    >>> threshold(weights=[3, 1, 1])("011")
    -1
    """
    if weights is not None:
        return _with_n(_weighted_threshold(weights, theta), n)
    if n is None:
        raise InvalidParameterError("threshold needs the number of voters n, or weights=")
    n = parse_int(n, name="n", min=1)
    th = parse_scalar(theta, name="theta")
    _check_count_size(n, max_n, f"threshold({n}, theta={th})")
    # 2c - n > θ  <=>  c > (n + θ)/2  <=>  c >= floor((n + θ)/2) + 1 (exact for rational θ)
    first = math.floor(Fraction(n + th) / 2) + 1 if isinstance(th, Fraction) else None
    c = np.arange(n + 1, dtype=np.int64)
    values = _pm1(c >= first) if first is not None else _pm1(2 * c - n > float(th))
    return _sym(n, values, name=f"threshold({n}, theta={th})", kind="threshold", theta=th)


def conjunction(n: int, *, max_n: int | None = None) -> Rule:
    """``AND_n``: ``1`` iff every voter votes ``1`` (Appendix B).

    Examples
    --------
    >>> conjunction(2).table().tolist()
    [1, -1, -1, -1]
    """
    n = parse_int(n, name="n", min=1)
    _check_count_size(n, max_n, f"and({n})")
    return _sym(n, _pm1(np.arange(n + 1) == n), name=f"and({n})", kind="and")


def disjunction(n: int, *, max_n: int | None = None) -> Rule:
    """``OR_n``: ``-1`` iff every voter votes ``-1`` (Appendix B).

    Examples
    --------
    >>> disjunction(2).table().tolist()
    [1, 1, 1, -1]
    """
    n = parse_int(n, name="n", min=1)
    _check_count_size(n, max_n, f"or({n})")
    return _sym(n, _pm1(np.arange(n + 1) >= 1), name=f"or({n})", kind="or")


def parity(n: int, *, max_n: int | None = None) -> Rule:
    """``χ_[n](x) = x_1 x_2 ⋯ x_n`` (the Fourier character of the whole electorate).

    Examples
    --------
    >>> parity(2).table().tolist()
    [1, -1, -1, 1]
    """
    n = parse_int(n, name="n", min=1)
    _check_count_size(n, max_n, f"parity({n})")
    return _sym(n, _pm1((n - np.arange(n + 1)) % 2 == 0), name=f"parity({n})", kind="parity")


def dictator(n: int, i: int = 0) -> Rule:
    """The dictatorship of voter ``i``: ``f(x) = x_i`` (Appendix B).

    Examples
    --------
    >>> dictator(2, 1).table().tolist()
    [1, -1, 1, -1]
    """
    n = parse_int(n, name="n", min=1)
    i = parse_int(i, name="i", min=0)
    if i >= n:
        raise InvalidParameterError(f"voter index i = {i} is out of range 0..{n - 1}")

    def build() -> np.ndarray:
        j = np.arange(1 << n, dtype=np.int64)
        return np.where((j >> (n - 1 - i)) & 1, -1, 1).astype(np.int64)

    if n == 1:
        return Rule(
            1, name="dictator(1, i=0)", kind="dictator", params={"i": 0}, counts=np.array([-1, 1], dtype=np.int64)
        )
    return Rule(n, name=f"dictator({n}, i={i})", kind="dictator", params={"i": i}, builder=build, monotone=True)


def _weights(weights: Iterable[Any]) -> tuple[list[Any], bool]:
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise InvalidTypeError(f"weights must be a sequence of numbers, got {type(weights).__name__} {weights!r:.60}")
    raw = list(weights)
    if not raw:
        raise InvalidParameterError("weights must list one weight per voter, got an empty list")
    exact = all(is_exact_scalar(w) for w in raw)
    return [parse_scalar(w, name="weight", exact=exact) for w in raw], exact


def _weighted(weights: Iterable[Any], quota: Any, strict: bool, *, name: str, params: dict[str, Any]) -> Rule:
    ws, exact = _weights(weights)
    n = len(ws)
    qv = parse_scalar(quota, name="quota", exact=exact)
    monotone = all(w >= 0 for w in ws)

    def passes(total: Any) -> bool:
        return bool(total > qv) if strict else bool(total >= qv)

    params = dict(params, exact=exact, strict=strict)
    if len(set(ws)) == 1:  # equal weights: symmetric, stored by count
        counts = np.array([1 if passes(c * ws[0]) else -1 for c in range(n + 1)], dtype=np.int64)
        return Rule(n, name=name, kind="weighted", params=params, counts=counts, monotone=monotone)

    def build() -> np.ndarray:
        if exact:
            den = math.lcm(*(Fraction(w).denominator for w in ws), Fraction(qv).denominator)
            iw = [int(w * den) for w in ws]
            iq = int(qv * den)
            yes = np.zeros(1, dtype=np.int64 if sum(abs(w) for w in iw) < 2**62 else object)
            for w in iw:
                yes = np.stack([yes + w, yes], axis=1).ravel()
            ok = yes > iq if strict else yes >= iq
        else:
            fyes = np.zeros(1)
            for w in ws:
                fyes = np.stack([fyes + float(w), fyes], axis=1).ravel()
            ok = fyes > float(qv) if strict else fyes >= float(qv)
        return np.where(ok, 1, -1).astype(np.int64)

    return Rule(n, name=name, kind="weighted", params=params, builder=build, monotone=monotone or None)


def _with_n(rule: Rule, n: int | None) -> Rule:
    """``rule``, after checking that ``n`` (when given) is its number of voters."""
    if n is not None and parse_int(n, name="n", min=1) != rule.n:
        raise InvalidParameterError(f"n = {n} contradicts the {rule.n} weights of {rule.name}; drop n or give {rule.n}")
    return rule


def _weighted_majority(weights: Iterable[Any], quota: Any = None) -> Rule:
    """:func:`majority` with ``weights``: the game ``[quota; weights]`` (default quota: more than half, strict)."""
    ws, exact = _weights(weights)
    total = sum(ws)
    strict = quota is None
    qv = total / 2 if quota is None else parse_scalar(quota, name="quota", exact=exact)
    label = "total/2 (strict)" if quota is None else str(qv)
    return _weighted(
        ws,
        qv,
        strict,
        name=f"weighted([{', '.join(map(str, ws))}], quota={label})",
        params={"weights": tuple(ws), "quota": qv},
    )


def _weighted_threshold(weights: Iterable[Any], theta: Any = 0) -> Rule:
    """:func:`threshold` with ``weights``: ``Σ w_i x_i > θ``, the game with quota ``(Σ w_i + θ)/2``, strict."""
    ws, exact = _weights(weights)
    th = parse_scalar(theta, name="theta", exact=exact)
    qv = (sum(ws) + th) / 2
    return _weighted(
        ws,
        qv,
        True,
        name=f"weighted_threshold([{', '.join(map(str, ws))}], theta={th})",
        params={"weights": tuple(ws), "theta": th, "quota": qv},
    )


def tribes(width: int, count: int) -> Rule:
    """``Tribes_{w,s}``: ``count`` disjoint tribes of ``width`` consecutive voters; ``1`` iff some tribe votes
    unanimously ``1`` (an OR of ANDs, O'Donnell §2.1).

    Examples
    --------
    >>> t = tribes(2, 2)
    >>> t("1100"), t("1010"), t("0011")
    (1, -1, 1)
    """
    width = parse_int(width, name="width", min=1)
    count = parse_int(count, name="count", min=1)
    n = width * count

    def build() -> np.ndarray:
        hit = np.zeros((1 << width,) * count, dtype=bool)
        for axis in range(count):
            index: list[Any] = [slice(None)] * count
            index[axis] = 0
            hit[tuple(index)] = True
        return np.where(hit.ravel(), 1, -1).astype(np.int64)

    return Rule(
        n,
        name=f"tribes(width={width}, count={count})",
        kind="tribes",
        params={"width": width, "count": count},
        builder=build,
        monotone=True,
    )


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
    return _from_truth_table(rng.choice(np.array([-1, 1]), size=1 << n), name=f"random({n}, seed={seed})")
