"""Profiles of votes: their order, indexing and vote counts, and the value arrays of rules.

Votes are ``+1`` / ``-1``; a *profile* is one vote per voter. Profiles are ordered exactly like the datasets of
:func:`privgeom.randomized_response` (``Domain.bits(n)``): as bit strings with vote ``+1`` ↔ bit ``"1"`` and ``-1`` ↔
``"0"``, in reverse lexicographic order (``11…1`` first, ``00…0`` last). Internally profile number ``j`` has voter
``i`` voting ``-1`` exactly when bit ``n-1-i`` of ``j`` is set, so ``table.reshape((2,)*n)`` has one axis per voter
(index 0 = ``+1``).

Examples
--------
>>> profile_index("110", 3), profile_index((1, 1, -1), 3), count_ones("110", 3)
(1, 1, 2)
>>> integer_form(normalise_values(["1/2", 1], name="values"))[1]
2
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Sequence, TypeAlias

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError
from .._core.numbers import parse_scalar

__all__ = ["Profile", "popcounts", "half", "profile_index", "count_ones", "normalise_values", "integer_form"]

#: One profile: a bit string such as ``"110"`` or the votes ``(1, 1, -1)``.
Profile: TypeAlias = str | Sequence[int]


def popcounts(n: int) -> np.ndarray:
    """Number of ``-1`` votes of each profile, in profile order (``0`` for ``11…1`` first).

    Examples
    --------
    >>> popcounts(3).tolist()
    [0, 1, 1, 2, 1, 2, 2, 3]
    """
    pc = np.zeros(1, dtype=np.int32)
    for _ in range(n):
        pc = np.concatenate([pc, pc + 1])
    return pc


def half(cube: np.ndarray, i: int, vote_index: int) -> np.ndarray:
    """The sub-cube where voter ``i`` votes ``+1`` (``vote_index`` 0) or ``-1`` (1), always as an array."""
    return np.atleast_1d(np.take(cube, vote_index, axis=i))


def profile_index(profile: Profile, n: int) -> int:
    """Position of a profile (bit string ``"101"`` or votes ``(1, -1, 1)``) in the profile order."""
    if isinstance(profile, str):
        bits = [1 if ch == "0" else 0 for ch in _bit_string(profile, n)]
    else:
        bits = [1 if v == -1 else 0 for v in _votes(profile, n)]
    j = 0
    for b in bits:
        j = (j << 1) | b
    return j


def count_ones(profile: Profile, n: int) -> int:
    """Number of ``+1`` votes of a profile (validated like :func:`profile_index`, without building an index)."""
    if isinstance(profile, str):
        return _bit_string(profile, n).count("1")
    return _votes(profile, n).count(1)


def _bit_string(profile: str, n: int) -> str:
    """The profile ``"101"`` checked to be a bit string of length ``n``."""
    if len(profile) != n or set(profile) - {"0", "1"}:
        raise InvalidParameterError(f"profile {profile[:40]!r} is not a bit string of length {n}")
    return profile


def _votes(profile: Profile, n: int) -> list[int]:
    """The profile ``(1, -1, 1)`` as ``n`` votes in ``{-1, 1}`` (the one check of a vote sequence)."""
    try:
        votes = [int(v) for v in profile]
    except (TypeError, ValueError):
        raise InvalidTypeError(f"a profile is a bit string or a sequence of votes +1/-1, got {profile!r}") from None
    if len(votes) != n or any(v not in (-1, 1) for v in votes):
        raise InvalidParameterError(f"profile {profile!r} is not a sequence of {n} votes in {{-1, 1}}")
    return votes


def normalise_values(values: Iterable[Any], *, name: str) -> np.ndarray:
    """int64 (all integers), object array of Fractions (other rationals) or float64 (any float)."""
    raw = list(values)
    if not raw:
        raise InvalidParameterError(f"{name} is empty")
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in raw):
        return np.array([int(v) for v in raw], dtype=np.int64)
    parsed = [parse_scalar(v, name=name) for v in raw]
    if all(isinstance(v, Fraction) for v in parsed):
        if all(v.denominator == 1 for v in parsed):  # type: ignore[union-attr]
            return np.array([int(v) for v in parsed], dtype=np.int64)
        out = np.empty(len(parsed), dtype=object)
        out[:] = parsed
        return out
    return np.array([float(v) for v in parsed], dtype=float)


def integer_form(values: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(numerators, D)`` with ``values = numerators / D`` for exact arrays (``None`` for float arrays)."""
    if values.dtype.kind in "iu":
        return values.astype(np.int64), 1
    if values.dtype == object:
        den = 1
        for v in values.ravel():
            den = den * v.denominator // math.gcd(den, v.denominator)
        nums = np.empty(values.shape, dtype=object)
        nums.ravel()[:] = [int(v * den) for v in values.ravel()]
        return nums, den
    return None
