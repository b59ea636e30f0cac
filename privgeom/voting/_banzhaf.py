"""Banzhaf power of weighted voting games by generating functions (no truth table).

In the weighted game ``[quota; w_1, …, w_n]`` a coalition wins when its total weight is at least ``quota``. Voter
``i`` *swings* for a coalition ``S ∌ i`` when ``S`` loses and ``S ∪ {i}`` wins, i.e. ``quota - w_i ≤ w(S) < quota``.
With integer weights, ``Π_j (1 + z^{w_j}) = Σ_k N_k z^k`` counts the coalitions of each weight; dividing out voter
``i``'s factor, ``(1 + z^{w_i})^{-1} = Σ_j (-z^{w_i})^j``, is an alternating cumulative sum along the residues
modulo ``w_i`` — so all swing counts cost ``O(n W)`` with ``W = Σ w_j`` (and one division per *distinct* weight).

The raw Banzhaf index ``swings_i / 2^{n-1}`` is exactly the influence ``I_i[f]`` (Definition 4 of the referendum
paper) of the rule ``f = majority(weights=weights, quota=quota)``; the normalised index is ``swings_i / Σ_j swings_j``
(``= I_i / I[f]`` for these monotone rules).

Examples
--------
>>> b = banzhaf([4, 2, 1, 1], 5)          # voter 0 with any one other voter wins
>>> b.swings, [str(v) for v in b.normalized]
((7, 1, 1, 1), ['7/10', '1/10', '1/10', '1/10'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.limits import current_limit, register_limit
from .._core.level import ScalarLike
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar
from .._core.results import Result
from .._core.numbers import number_text

__all__ = ["banzhaf", "Banzhaf", "MAX_TOTAL_WEIGHT"]

#: Largest total (integer-scaled) weight for the generating-function arrays.
MAX_TOTAL_WEIGHT = 1 << 26
register_limit(
    "banzhaf_weight",
    globals(),
    "MAX_TOTAL_WEIGHT",
    "total integer-scaled weight of a weighted voting game (the generating function's length)",
)


@dataclass(frozen=True)
class Banzhaf(Result):
    """Swing counts and Banzhaf indices of a weighted voting game ``[quota; weights]``: ``raw[i] = swings[i] /
    2^{n-1}`` (the influence of voter ``i``) and ``normalized[i] = swings[i] / total_swings``.

    Examples
    --------
    >>> b = banzhaf([2, 1, 1], 3)
    >>> b.swings, b.raw[0], b.normalized[0]
    ((3, 1, 1), Fraction(3, 4), Fraction(3, 5))
    """

    weights: tuple[Fraction, ...]
    quota: Fraction
    swings: tuple[int, ...]
    raw: tuple[Fraction, ...]
    normalized: tuple[Fraction, ...]
    total_swings: int

    @property
    def exact(self) -> bool:
        """True: swing counts by exact generating functions, indices as Fractions."""
        return True

    def summary(self) -> str:
        lines = [f"Banzhaf power of the weighted game [{self.quota}; {', '.join(map(str, self.weights))}]"]
        lines.append(f"{'voter':>6} {'weight':>10} {'swings':>14} {'raw = influence':>18} {'normalised':>12}")
        for i, (w, s, r, z) in enumerate(
            zip(self.weights, self.swings, self.raw, self.normalized or (None,) * len(self.raw))
        ):
            lines.append(
                f"{i:>6} {str(w):>10} {s:>14} {number_text(float(r), digits=10):>18} {('-' if z is None else f'{number_text(float(z), digits=10)}'):>12}"
            )
        return "\n".join(lines)


def _exact_weight(w: Any, name: str) -> Fraction:
    value = parse_scalar(w, name=name)
    if isinstance(value, float):
        if not value.is_integer():
            raise InvalidTypeError(f"{name} = {w!r}: the generating-function method needs integer or rational weights")
        value = Fraction(int(value))
    return value


def _divide_out(gf: np.ndarray, w: int) -> np.ndarray:
    """``gf / (1 + z^w)`` (exact; the quotient has degree ``len(gf) - 1 - w``)."""
    size = gf.shape[0]
    rows = -(-size // w)
    padded = np.zeros(rows * w, dtype=gf.dtype)
    padded[:size] = gf
    grid = padded.reshape(rows, w)
    signs = np.where(np.arange(rows) % 2 == 0, 1, -1).astype(gf.dtype if gf.dtype != object else np.int64)[:, None]
    quotient = (signs * np.cumsum(signs * grid, axis=0)).ravel()
    return quotient[: size - w]


def banzhaf(weights: Iterable[ScalarLike], quota: ScalarLike | None = None) -> Banzhaf:
    """Banzhaf swing counts and indices of ``[quota; weights]`` by the generating-function method.

    Parameters
    ----------
    weights : sequence of non-negative integers or rationals
        Rationals are scaled to integers by their common denominator.
    quota : rational, optional
        A coalition wins iff its weight is ``≥ quota``. Default: strictly more than half of the total weight (the
        same default as :func:`~privgeom.voting.majority` with ``weights``).

    Examples
    --------
    >>> banzhaf([1, 1, 1]).raw                 # majority of three: each voter's influence is 1/2
    (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2))
    >>> banzhaf([3, 1, 1, 1], 4).swings        # 3 is pivotal in 7 coalitions of the other voters
    (7, 1, 1, 1)
    """
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise InvalidTypeError(f"weights must be a sequence of numbers, got {type(weights).__name__} {weights!r:.60}")
    ws = [_exact_weight(w, "weight") for w in weights]
    if not ws:
        raise InvalidParameterError("banzhaf needs at least one weight")
    if any(w < 0 for w in ws):
        raise InvalidParameterError(
            f"weights must be non-negative for a weighted voting game, got {[str(w) for w in ws]}"
        )
    n = len(ws)
    den = math.lcm(*(w.denominator for w in ws))
    iw = [int(w * den) for w in ws]
    total = sum(iw)
    if quota is None:
        iq = total // 2 + 1  # strictly more than half of the (scaled) weight
        qv = Fraction(iq, den)
    else:
        qv = _exact_weight(quota, "quota")
        iq = math.ceil(qv * den)
    if total > current_limit("banzhaf_weight"):
        raise SizeLimitError(
            f"total scaled weight {total:,} exceeds the limit banzhaf_weight = "
            f"{current_limit('banzhaf_weight'):,}; "
            f"refused before allocating; {limit_hint('banzhaf_weight', total)}"
        )
    dtype: Any = np.int64 if n <= 62 else object
    gf = np.zeros(total + 1, dtype=dtype)
    gf[0] = 1
    reach = 0
    for w in iw:  # multiply by (1 + z^w)
        if w == 0:
            gf[: reach + 1] *= 2
        else:
            gf[w : reach + w + 1] += gf[: reach + 1].copy()
        reach += w
    swings_by_weight: dict[int, int] = {}
    for w in set(iw):
        if w == 0 or iq <= 0 or iq > total:
            swings_by_weight[w] = 0
            continue
        others = _divide_out(gf, w)  # coalitions of the other voters, by weight
        lo, hi = max(0, iq - w), min(others.shape[0] - 1, iq - 1)
        swings_by_weight[w] = int(others[lo : hi + 1].sum()) if hi >= lo else 0
    swings = tuple(swings_by_weight[w] for w in iw)
    all_swings = sum(swings)
    raw = tuple(Fraction(s, 1 << (n - 1)) for s in swings)
    normalized = tuple(Fraction(s, all_swings) for s in swings) if all_swings else ()
    return Banzhaf(weights=tuple(ws), quota=qv, swings=swings, raw=raw, normalized=normalized, total_swings=all_swings)
