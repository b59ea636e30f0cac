"""How a guarantee is worded: the parity rule of its sign pattern, its Hamming profile and its sentence.

On bit-string domains the sign pattern of a facet normal is often affine over GF(2) (:func:`parity_structure`), and
``|a_D|`` often depends only on the Hamming distance of ``D`` from one dataset; a guarantee over more than
:data:`MAX_LISTED` datasets names its sets by such a rule, or by their size (:func:`long_text`). These readings are
for :class:`~privgeom.analyses.guarantees._guarantee.Guarantee` (Lin & Kifer, Section III-C and Theorems 4.3–4.5;
``docs/theory.md`` §4), which they see through :class:`GuaranteeParts` only.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol, Sequence

import numpy as np

from ..._core.domain import Domain
from ..._core.arrays import ATOL
from ..._core.numbers import Scalar
from ..._core.numbers import number_text as _fmt

__all__ = [
    "MAX_LISTED",
    "GuaranteeParts",
    "bit_matrix",
    "long_text",
    "scaled_weights",
    "parity_sentence",
    "parity_structure",
]


class GuaranteeParts(Protocol):
    """What the wording reads of a guarantee: the labels, exactness, the support split ``(S+ indices, S- indices,
    zero tolerance)``, the integer normal (or None), the coefficients and the parity bits."""

    @property
    def labels(self) -> tuple[str, ...]: ...

    @property
    def exact(self) -> bool: ...

    @property
    def _split(self) -> tuple[tuple[int, ...], tuple[int, ...], Scalar]: ...

    @property
    def _integers(self) -> np.ndarray | None: ...

    @property
    def coefficients(self) -> tuple[Any, ...]: ...

    @property
    def parity_bits(self) -> tuple[int, ...] | None: ...


#: A guarantee sentence lists at most this many datasets; beyond it sets are named by their rule or their size.
MAX_LISTED = 12


@lru_cache(maxsize=8)
def bit_matrix(labels: tuple[str, ...]) -> np.ndarray | None:
    """Labels as an ``N x k`` 0/1 array when they are bit strings of one length, else None."""
    if not labels or len({len(s) for s in labels}) != 1:
        return None
    raw = np.frombuffer("".join(labels).encode(), dtype=np.uint8)  # all characters at once (2^20 labels)
    if len(raw) != len(labels) * len(labels[0]) or ((raw != ord("0")) & (raw != ord("1"))).any():
        return None
    return raw.reshape(len(labels), -1) - ord("0")


@lru_cache(maxsize=8)
def _is_bits_domain(labels: tuple[str, ...]) -> bool:
    return Domain.from_labels(labels).is_bits


def _hamming_profile(g: GuaranteeParts, t: int) -> dict[int, Any] | None:
    """``{h: |a_D|}`` when ``|a_D|`` depends only on the Hamming distance ``h`` of ``D`` from dataset ``t``."""
    bits = bit_matrix(g.labels)
    if bits is None:
        return None
    dist = (bits != bits[t]).sum(axis=1)
    ints = g._integers
    if ints is not None:  # one pass over the array: every class must hold a single |a_D|
        w = np.abs(ints)
        order = np.lexsort((w, dist))
        d_sorted, w_sorted = dist[order], w[order]
        first = np.concatenate(([True], d_sorted[1:] != d_sorted[:-1]))
        if np.any((~first) & (w_sorted != np.concatenate(([0], w_sorted[:-1])))):
            return None
        return {int(h): Fraction(int(v)) for h, v in zip(d_sorted[first].tolist(), w_sorted[first].tolist())}
    profile: dict[int, Any] = {}
    for h, v in zip(dist.tolist(), g.coefficients):
        w = abs(v)
        if profile.setdefault(h, w) != w:
            if g.exact or abs(float(profile[h]) - float(w)) > ATOL * max(1.0, abs(float(w))):
                return None
    return dict(sorted(profile.items()))


def _examples(labels: Sequence[str], idx: Sequence[int], n: int = 3) -> str:
    shown = ", ".join(labels[i] for i in idx[:n])
    return (
        f"{len(idx)} dataset{'s' if len(idx) != 1 else ''}"
        + (f", e.g. {shown}" if idx else "")
        + (", …" if len(idx) > n else "")
    )


def long_text(g: GuaranteeParts) -> str:
    """The sentence for a guarantee over more than :data:`MAX_LISTED` datasets: sets by rule or by size."""
    plus, minus, _ = g._split
    n_support = len(plus) + len(minus)
    where = "all " if n_support == len(g.labels) else ""
    if not minus:
        return (
            f"A non-negative combination of the probabilities of {_examples(g.labels, plus)} is non-negative: "
            f"S- is empty, so this facet constrains no attacker's inference."
        )
    t = plus[0]
    tl = g.labels[t]
    profile = _hamming_profile(g, t) if n_support == len(g.labels) else None
    if profile is not None:
        ws = list(profile.values())
        ratios = {ws[i] / ws[i + 1] for i in range(len(ws) - 1) if ws[i + 1] != 0}
        if len(ratios) == 1 and all(w != 0 for w in ws) and list(profile) == list(range(len(ws))):
            r = next(iter(ratios))
            prior = f"proportional to {_fmt(r)}^(−h) for the datasets at Hamming distance h from {tl}"
        else:
            shown = ", ".join(f"{_fmt(w)}" for w in scaled_weights(ws))
            prior = f"proportional to ({shown}) for Hamming distance {', '.join(map(str, profile))} from {tl}"
    else:
        ints = g._integers
        distinct = (
            {Fraction(abs(int(v))) for v in ints[list(plus + minus)].tolist()}
            if ints is not None
            else {abs(g.coefficients[i]) for i in plus + minus}
        )
        lo, hi = min(distinct), max(distinct)
        prior = (
            f"proportional to |a_D| ({len(distinct)} distinct weight{'s' if len(distinct) > 1 else ''}, "
            f"the largest {_fmt(hi / lo)} times the smallest)"
        )
    if g.parity_bits is not None:
        k = len(tl)
        J = g.parity_bits
        on = "" if len(J) == k else f" on bit{'s' if len(J) > 1 else ''} {', '.join(str(j + 1) for j in J)}"
        sets = (
            f"S+ is the {len(plus)} datasets at even and S- the {len(minus)} at odd Hamming distance from "
            f"{tl}{on} (parity of the bits{on} relative to {tl})"
        )
        return (
            f"An attacker whose prior over {where}{n_support} datasets is {prior} never ends up believing S- more "
            f"likely than S+, whatever the output; {sets}."
        )
    return (
        f"An attacker whose prior over {where}{n_support} datasets is {prior} never ends up believing S- "
        f"({_examples(g.labels, minus)}) more likely than S+ ({_examples(g.labels, plus)}), whatever the output."
    )


def scaled_weights(values: Sequence[Scalar]) -> list[Scalar]:
    """Weights proportional to ``values`` scaled to small integers when exact (for readable sentences)."""
    if values and all(isinstance(v, Fraction) for v in values):
        from math import gcd, lcm

        den = 1
        for v in values:
            den = lcm(den, v.denominator)  # type: ignore[union-attr]
        ints = [int(v * den) for v in values]
        g = 0
        for x in ints:
            g = gcd(g, x)
        return [Fraction(x // (g or 1)) for x in ints]
    top = max(float(v) for v in values) if values else 1.0
    return [float(v) / top for v in values]


def parity_sentence(J: tuple[int, ...], const: int, t: str, *, full: bool) -> str:
    """The sentence of :attr:`Guarantee.structure` for ``S+ = {D : const + Σ_{j∈J} D_j even}`` (``t ∈ S+`` the
    dataset with the largest coefficient; ``full``: the support is every dataset)."""
    k = len(t)  # ham(D, t) has even parity exactly on S+ (t ∈ S+), restricted to the bits J
    scope = "" if full else "among the datasets the attacker considers, "
    if len(J) == k:
        text = (
            f"{scope}S+ and S- are the datasets whose bits have {'even' if const == 0 else 'odd'} and "
            f"{'odd' if const == 0 else 'even'} parity (even and odd Hamming distance from {t})"
        )
    else:
        pos = ", ".join(str(j + 1) for j in J)
        text = (
            f"{scope}S+ and S- split the datasets by the parity of bit{'s' if len(J) > 1 else ''} "
            f"{pos} (even and odd Hamming distance from {t} on {'those bits' if len(J) > 1 else 'that bit'})"
        )
    return text


def parity_structure(labels: Sequence[str], signs: Sequence[int]) -> tuple[tuple[int, ...], int] | None:
    """Find bits ``J`` and a constant ``c`` with ``sign(D) = + iff (c + Σ_{j∈J} D_j) is even``, over GF(2).

    ``signs`` holds +1, -1 or 0 per dataset; zeros are ignored. Returns ``(J, c)`` or None when the labels are not
    bit strings of one length or no affine GF(2) function fits.

    Examples
    --------
    >>> parity_structure(["11", "10", "01", "00"], [1, -1, -1, 1])
    ((0, 1), 0)
    >>> parity_structure(["11", "10", "01", "00"], [-1, -1, 1, 1])  # S+ = first bit 0
    ((0,), 0)
    >>> parity_structure(["11", "10", "01", "00"], [1, -1, -1, -1]) is None
    True
    """
    labels = tuple(labels)
    bits = bit_matrix(labels)
    if bits is None or not _is_bits_domain(labels):
        return None
    k = bits.shape[1]
    sg = np.asarray(signs)
    keep = np.flatnonzero(sg != 0)
    if not len(keep):
        return None
    # Gaussian elimination over GF(2) on the augmented system [bits | 1] · (J, c) = b, b = 1 on S-: the same pivot
    # choice as row-by-row elimination (first row at or below the current one), each step one array operation.
    mat = np.zeros((len(keep), k + 2), dtype=np.uint8)
    mat[:, :k] = bits[keep]
    mat[:, k] = 1  # the constant c
    mat[:, k + 1] = sg[keep] < 0
    n_var = k + 1
    pivots: list[int] = []
    row = 0
    for col in range(n_var):
        below = np.flatnonzero(mat[row:, col])
        if not len(below):
            continue
        pr = row + int(below[0])
        if pr != row:
            mat[[row, pr]] = mat[[pr, row]]
        hit = mat[:, col].astype(bool)
        hit[row] = False
        mat[hit] ^= mat[row]
        pivots.append(col)
        row += 1
        if row == len(mat):
            break
    if np.any(~mat[:, :n_var].any(axis=1) & (mat[:, n_var] == 1)):
        return None  # inconsistent
    sol = [0] * n_var
    for i, col in enumerate(pivots):
        sol[col] = int(mat[i, n_var])
    J = tuple(j for j in range(k) if sol[j])
    if not J:
        return None  # constant sign: no parity structure
    return J, sol[k]
