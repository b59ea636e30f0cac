"""Published amplification-by-shuffling bounds, computed from their formulas to compare with the exact profiles.

Feldman, McMillan & Talwar, *Hiding among the clones: a simple and nearly optimal analysis of privacy amplification
by shuffling* (FOCS 2021):

- **The clone reduction** (their Theorem 3.2, evaluated numerically in their Appendix E): for any ``ε₀``-DP local
  randomizers and neighbouring datasets, the shuffled output is a post-processing of the pair
  ``P = (A + Δ, C − A + 1 − Δ)``, ``Q = (A + 1 − Δ, C − A + Δ)`` with ``C ~ Bin(n − 1, e^{−ε₀})``,
  ``A ~ Bin(C, 1/2)``, ``Δ ~ Bern(e^{ε₀}/(e^{ε₀} + 1))``; so ``δ(ε) ≤ max(E_{e^ε}(P‖Q), E_{e^ε}(Q‖P))``. That pair
  is itself a shuffled tally: of the local mechanism with outputs ``{1, 0, *}`` whose changing user reports ``1``
  with probability ``α = e^{ε₀}/(e^{ε₀} + 1)`` (``0`` otherwise) or the reverse, and whose other users report ``1``
  and ``0`` with probability ``e^{−ε₀}/2`` each and ``*`` otherwise (a clone pair of ``n`` users). :func:`fmt_delta`
  evaluates it with the package's own clone closed form — exactly for small ``n``, in log space beyond — instead
  of their bracketing of the sum over ``C``.
- **The closed form** (their Theorem 3.1): for ``ε₀ ≤ ln(n / (16 ln(2/δ)))`` the shuffled output is
  ``(ε, δ)``-DP with ``ε = ln(1 + (e^{ε₀} − 1)/(e^{ε₀} + 1) · (8 √(e^{ε₀} ln(4/δ)) / √n + 8 e^{ε₀} / n))``
  (:func:`fmt_closed_form`). Their published code evaluates a variant with the factor
  ``(1 − e^{−ε₀}) / (1 + e^{−ε₀ − ε₁})``, ``ε₁ = ln(1 + 8 √(e^{ε₀} ln(4/δ)/n) + 8 e^{ε₀}/n)``, in place of
  ``(e^{ε₀} − 1)/(e^{ε₀} + 1)`` (``variant="code"``; slightly larger: 0.5378 against 0.5346 at their README's example).

Balle, Bell, Gascón & Nissim, *The privacy blanket of the shuffle model* (CRYPTO 2019), **the blanket
decomposition**: every column of a local mechanism ``R`` is ``R[j, x] = γ ω_j + (1 − γ) ν_x(j)`` with the blanket
``γ ω_j = min_x R[j, x]``, ``γ = Σ_j min_x R[j, x]``. Revealing, for every other user, whether the report came from the
blanket and, if not, the report itself is a view that depends on the changing user only through its report plus
``Mult(K, ω)``, ``K ~ Bin(n − 1, γ)`` whatever the dataset; so ``δ(ε)`` of the tally is at most the ``δ`` of that
view (post-processing), for **every** dataset. The view is again a clone pair — other users report ``j`` with
probability ``min_x R[j, x]`` and ``*`` otherwise — and :func:`blanket_delta` evaluates it exactly. For binary
randomized response the blanket is uniform with ``γ = 2/(e^{ε₀} + 1) > e^{−ε₀}``: more hiding than FMT's clones, a
tighter upper bound (``docs/theory.md`` §18.5).

Examples
--------
>>> from fractions import Fraction as F
>>> r = fmt_delta(3, F(3), 0)          # n = 3, e^ε0 = 3, ε = 0: the weighted total variation
>>> r.value
Fraction(13, 36)
>>> round(fmt_closed_form(10**5, 4.0, 1e-6), 4), round(fmt_closed_form(10**5, 4.0, 1e-6, variant="code"), 4)
(0.5346, 0.5378)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.level import LevelLike, PrivacyLevel, ScalarLike
from .._core.numbers import parse_scalar
from ..mechanisms import Mechanism
from ._shuffle import ShuffleDelta, shuffled

__all__ = [
    "fmt_clone_mechanism",
    "fmt_delta",
    "fmt_closed_form",
    "epsilon_at_delta",
    "blanket_mechanism",
    "blanket_delta",
]


def fmt_clone_mechanism(exp_eps0: ScalarLike) -> Mechanism:
    """The local mechanism whose clone pair is the pair of Feldman, McMillan & Talwar's clone reduction.

    Inputs ``a``, ``b`` (the changing user) and ``c`` (every other user); outputs ``1``, ``0``, ``*``.

    Examples
    --------
    >>> [str(v) for v in fmt_clone_mechanism(3).column("c")]
    ['1/6', '1/6', '2/3']
    """
    t = parse_scalar(exp_eps0, name="exp_eps0")
    alpha = t / (t + 1)
    clone = 1 / t / 2
    mat = [[alpha, 1 - alpha, clone], [1 - alpha, alpha, clone], [0 * t, 0 * t, 1 - 2 * clone]]
    exact = isinstance(t, Fraction)
    return Mechanism(np.array(mat, dtype=object if exact else float), ["a", "b", "c"], ["1", "0", "*"], exact=exact)


def fmt_delta(n: int, exp_eps0: ScalarLike, eps: LevelLike, *, method: str = "auto") -> ShuffleDelta:
    """Feldman–McMillan–Talwar's clone bound on ``δ(ε)`` of ``n`` shuffled ``ε₀``-DP reports, evaluated exactly.

    The larger of the two directions of their pair (module docstring), as the clone pair of
    :func:`fmt_clone_mechanism` over ``n`` users: exact rationals when ``e^{ε₀}`` and ``e^ε`` are rational and
    ``n`` is small, else the log-space route with its relative-error bound.
    """
    S = shuffled(fmt_clone_mechanism(exp_eps0), n)
    level = PrivacyLevel.coerce(eps, name="eps")
    forward = S.delta(level, S.pair({"c": n - 1}, "a", "b"), method=method)
    backward = S.delta(level, S.pair({"c": n - 1}, "b", "a"), method=method)
    return max(forward, backward, key=lambda r: r.log10)


def blanket_mechanism(local: Mechanism, a: int, b: int) -> Mechanism:
    """The local mechanism whose clone pair is the blanket view of the pair ``a → b`` of ``local`` (module docstring):
    inputs ``a``, ``b`` (the changing user's columns) and ``c`` (the blanket ``min_x R[j, x]``, then ``*``).

    Examples
    --------
    >>> import privgeom as pg
    >>> [str(v) for v in blanket_mechanism(pg.randomized_response(1, "3/4"), 0, 1).column("c")]
    ['1/4', '1/4', '1/2']
    """
    exact = local.exact
    mat = local.matrix if exact else local.float_matrix()
    rows = []
    for j in range(local.n_outputs):
        low = min(mat[j, x] for x in range(local.n_inputs))
        rows.append([mat[j, a], mat[j, b], low])
    gamma = sum(r[2] for r in rows)
    zero = rows[0][0] * 0
    rows.append([zero, zero, 1 - gamma])
    labels = [str(o) for o in local.outputs] + ["*"]
    return Mechanism(np.array(rows, dtype=object if exact else float), ["a", "b", "c"], labels, exact=exact)


def blanket_delta(local: Mechanism, n: int, eps: LevelLike, *, method: str = "auto") -> ShuffleDelta:
    """The privacy-blanket upper bound on ``δ(ε)`` of ``n`` shuffled reports of ``local``, over every dataset:
    the largest, over ordered pairs of inputs, of the blanket view's ``δ`` (module docstring), evaluated exactly.

    Examples
    --------
    >>> import privgeom as pg
    >>> from fractions import Fraction as F
    >>> blanket_delta(pg.randomized_response(1, "3/4"), 3, 0).value   # K ~ Bin(2, 1/2): (1/2)(1/4·1 + 1/2·1/2 + 1/4·1/2)
    Fraction(5, 16)
    """
    level = PrivacyLevel.coerce(eps, name="eps")
    best: ShuffleDelta | None = None
    k = local.n_inputs
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            S = shuffled(blanket_mechanism(local, a, b), n)
            r = S.delta(level, S.pair({"c": n - 1}, "a", "b"), method=method)
            if best is None or r.log10 > best.log10:
                best = r
    assert best is not None
    return best


def fmt_closed_form(n: int, eps0: float, delta: float, *, variant: str = "paper") -> float | None:
    """The ``ε`` of Feldman, McMillan & Talwar's Theorem 3.1 at ``δ`` (``variant="paper"``; ``"code"``: the factor
    of their published code, module docstring), or None outside its range ``ε₀ ≤ ln(n / (16 ln(2/δ)))``."""
    if eps0 > math.log(n / (16 * math.log(2 / delta))):
        return None
    t = math.exp(eps0)
    inner = 8 * math.sqrt(t * math.log(4 / delta)) / math.sqrt(n) + 8 * t / n
    if variant == "code":
        factor = (1 - math.exp(-eps0)) / (1 + math.exp(-eps0 - math.log1p(inner)))
    elif variant == "paper":
        factor = (t - 1) / (t + 1)
    else:
        raise InvalidParameterError(f"unknown variant {variant!r}; choose paper or code")
    return math.log1p(factor * inner)


def epsilon_at_delta(delta_of: Callable[[float], float], delta: float, eps_hi: float, *, iterations: int = 50) -> float:
    """The smallest ``ε`` in ``[0, eps_hi]`` with ``delta_of(ε) <= delta`` by bisection (``δ(ε)`` is non-increasing);
    returns an upper end of a bracket of width ``eps_hi / 2^iterations``.

    Examples
    --------
    >>> round(epsilon_at_delta(lambda e: math.exp(-e), 0.5, 5.0), 9) == round(math.log(2), 9)
    True
    """
    lo, hi = 0.0, eps_hi
    if delta_of(hi) > delta:
        return math.inf
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if delta_of(mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi
