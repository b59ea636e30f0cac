"""FRAPP / PRAM with γ-amplification and k-ary randomized response: closed-form inverse, facets and symmetry.

Agrawal & Haritsa (ICDE 2005) for FRAPP, Kairouz, Oh & Viswanath (JMLR 2016) for k-ary randomized response. Spec
kinds ``frapp:N=3,gamma=4,k=1`` and ``krr:n=4,exp_eps=3`` / ``krr:n=4,p=1/2`` (registered by :mod:`._catalogue`).

Notes
-----
**FRAPP / k-ary randomized response.** One record with ``N`` values is perturbed by
``A = x((γ−1) I + J)`` with ``x = 1/(γ + N − 1)`` (diagonal ``γx``, off-diagonal ``x``: ratio γ, "γ-amplification").
For ``γ > 1``, ``A^{-1} = (1/x)(1/(γ−1)) (I − J/(γ + N − 1))``: indeed
``((γ−1)I + J)(I − J/(γ+N−1)) = (γ−1) I + J − (γ − 1 + N) J/(γ + N − 1) = (γ−1) I`` since ``J² = N J``. Column ``z`` of
``A^{-1}`` is a positive multiple of ``f_z = (γ+N−1) e_z − 1``: entry ``γ + N − 2`` at ``z`` and ``−1`` elsewhere. With
``k`` independent records the mechanism is ``⊗^k A`` with inverse ``⊗^k A^{-1}``, so the facets are
``f_{z_1} ⊗ … ⊗ f_{z_k}``: the entry at dataset ``i`` is ``(−1)^{h} (γ+N−2)^{k−h}`` with ``h`` the number of records
on which ``i`` and ``z`` differ (a Hamming distance) — the sign alternates with ``h``. k-ary randomized response with
``e^ε = γ`` is the case ``k = 1`` (with truth probability ``p``: ``γ = p(N−1)/(1−p)``). For ``N = 2`` this is the
randomized-response cone of Lin & Kifer (Theorem 4.3) with ``γ = p/(1−p)``.

**Symmetry groups** (registered with :func:`privgeom.automorphisms`; see :mod:`._closed_form`).

* *k-ary randomized response / FRAPP with* ``γ = 1``: every permutation of the datasets maps ``G`` (constant rows)
  to itself; the symmetric group, complete.
* *FRAPP on* ``k`` *records of* ``N`` *values,* ``γ > 1`` (k-ary RR is ``k = 1``): ``G[z, i] = x^k γ^{k − h(z, i)}``
  with ``h`` the Hamming distance on ``[N]^k``. Any permutation of the values of *one* record (the others fixed)
  and any permutation of the records keeps ``h``, hence maps row ``z`` to row ``π(z)``: these generate the wreath
  product ``S_N ≀ S_k`` of order ``(N!)^k k!`` (value permutations act on each record independently, not only
  uniformly). *Complete:* every row of ``G`` sums to 1 and a coordinate permutation keeps sums and normalisation, so
  ``π`` maps row ``z`` to exactly some row ``σ(z)``: ``γ^{−h(σz, πi)} = γ^{−h(z, i)}`` for all ``z, i``, i.e.
  ``h(σz, πi) = h(z, i)`` (``γ > 1``); ``z = i`` gives ``σ = π``, so ``π`` is an isometry of the Hamming scheme
  ``H(k, N)``, whose isometry group is ``S_N ≀ S_k`` (Brouwer, Cohen & Neumaier, *Distance-Regular Graphs*,
  Theorem 9.2.1). For ``k = 1`` this is the symmetric group ``S_N``; for ``N = 2`` the hyperoctahedral group.
Examples
--------
>>> [[int(v) for v in f] for f in frapp_facets(2, 3, 2)]
[[9, -3, -3, 1], [-3, 9, 1, -3], [-3, 1, 9, -3], [1, -3, -3, 9]]
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from .._core.errors import InvalidParameterError
from .._core.level import PrivacyLevel, ScalarLike
from .._core.numbers import fraction_str, parse_scalar, Scalar
from ..geometry._symmetry import SymmetryGroup, automorphisms
from ._closed_form import ClosedFormDefinition, _known, _size, _spec_scalar, _symmetric_group

__all__ = ["FrappDefinition", "KaryRRDefinition", "frapp_facets", "frapp_inverse", "krr_gamma", "frapp_generators"]


# ------------------------------------------------------------------------------------------------- closed forms
def frapp_facets(N: int, gamma: ScalarLike, k: int = 1) -> np.ndarray:
    """The ``N^k`` facets of the FRAPP row cone: ``f_{z_1} ⊗ … ⊗ f_{z_k}``, ``f_z = (γ+N−1) e_z − 1``.

    Entry ``(z, i)`` is ``(−1)^h (γ+N−2)^{k−h}`` with ``h`` the number of records where ``i`` and ``z`` differ;
    datasets and facets are ordered like ``np.kron`` (first record most significant). Needs ``γ > 1``.
    """
    N = _size(N, "N", 2)
    k = _size(k, "k", 1)
    g = parse_scalar(gamma, name="gamma")
    if not g > 1:
        raise InvalidParameterError(
            f"FRAPP facets need gamma > 1 (the matrix is singular at gamma = 1), got {fraction_str(g)}"
        )
    size = N**k
    from .._core.arrays import check_dense_size

    exact = isinstance(g, Fraction)
    check_dense_size(size, size, exact=exact, what=f"the FRAPP facets (N={N}, k={k})")
    c = g + N - 2
    powers = [c**e for e in range(k + 1)]
    digits = list(product(range(N), repeat=k))
    out = np.empty((size, size), dtype=object if exact else float)
    for zi, z in enumerate(digits):
        for ii, i in enumerate(digits):
            h = sum(1 for s, t in zip(z, i) if s != t)
            out[zi, ii] = (-1) ** h * powers[k - h]
    return out


def frapp_inverse(N: int, gamma: ScalarLike, k: int = 1) -> np.ndarray:
    """``(⊗^k A)^{-1} = ⊗^k A^{-1}`` with ``A^{-1} = ((γ+N−1) I − J)/(γ − 1)`` (module Notes); needs ``γ > 1``.

    Examples
    --------
    >>> [[str(v) for v in row] for row in frapp_inverse(2, 3)]
    [['3/2', '-1/2'], ['-1/2', '3/2']]
    """
    N = _size(N, "N", 2)
    k = _size(k, "k", 1)
    g = parse_scalar(gamma, name="gamma")
    if not g > 1:
        raise InvalidParameterError(
            f"the FRAPP matrix is singular at gamma = {fraction_str(g)}; the inverse needs gamma > 1"
        )
    from .._core.arrays import check_dense_size

    exact = isinstance(g, Fraction)
    check_dense_size(N**k, N**k, exact=exact, what=f"the FRAPP inverse (N={N}, k={k})")
    one: Any = Fraction(1) if exact else 1.0
    base = np.full((N, N), -one / (g - 1), dtype=object if exact else float)
    for i in range(N):
        base[i, i] = (g + N - 2) / (g - 1)
    out = base
    for _ in range(k - 1):
        out = np.kron(out, base)
    return out


def krr_gamma(n_values: int, *, exp_eps: ScalarLike | None = None, p: ScalarLike | None = None) -> Scalar:
    """The amplification ``γ = e^ε`` of k-ary randomized response from ``exp_eps`` or the truth probability ``p``.

    ``p = γ / (γ + n − 1)``, i.e. ``γ = p (n − 1) / (1 − p)``; needs ``1/n ≤ p < 1`` (``γ ≥ 1``).

    Examples
    --------
    >>> krr_gamma(4, p="1/2"), krr_gamma(4, exp_eps=3)
    (Fraction(3, 1), Fraction(3, 1))
    """
    n_values = _size(n_values, "n_values", 2)
    if (exp_eps is None) == (p is None):
        raise InvalidParameterError(
            f"k-ary randomized response: give exactly one of exp_eps= and p= (got {exp_eps!r}, {p!r})"
        )
    if exp_eps is not None:
        return PrivacyLevel.parse(exp_eps=exp_eps, owner="k-ary randomized response").exp_eps
    q = parse_scalar(p, name="p")
    if not Fraction(1, n_values) <= q < 1 if isinstance(q, Fraction) else not 1.0 / n_values <= q < 1.0:
        raise InvalidParameterError(f"k-ary randomized response needs 1/{n_values} <= p < 1, got p = {fraction_str(q)}")
    return q * (n_values - 1) / (1 - q)


# ------------------------------------------------------------------------------------------------- definitions
class FrappDefinition(ClosedFormDefinition):
    """FRAPP / PRAM with γ-amplification on ``k`` records of ``N`` values (Agrawal & Haritsa, ICDE 2005).

    Closed-form facets ``⊗ f_{z_r}``, ``f_z = (γ+N−1) e_z − 1`` (module Notes); needs ``γ > 1`` for them (at ``γ = 1``
    the mechanism is constant and the generic finite-definition methods are used).

    Examples
    --------
    >>> d = FrappDefinition(3, 4)
    >>> [[int(v) for v in f] for f in d.row_cone().facets]
    [[5, -1, -1], [-1, 5, -1], [-1, -1, 5]]
    >>> d.spec()
    'frapp:N=3,gamma=4,k=1'
    """

    def __init__(self, N: int, gamma: ScalarLike, k: int = 1, *, exact: bool | None = None) -> None:
        from ..mechanisms._catalogue import frapp

        N = _size(N, "N", 2)
        M = frapp(N, gamma, k, exact=exact)
        self._N, self._k = N, int(k)
        self._gamma = parse_scalar(gamma, name="gamma", exact=M.exact)
        spec = f"frapp:N={N},gamma={_spec_scalar(self._gamma)},k={self._k}" + ("" if M.exact else ",exact=false")
        super().__init__(
            M,
            name=f"FRAPP (N={N}, gamma={_spec_scalar(self._gamma)}, k={self._k})",
            spec=spec,
            invertible=bool(self._gamma > 1),
        )

    @property
    def gamma(self) -> Scalar:
        """The amplification γ."""
        return self._gamma

    @property
    def n_values(self) -> int:
        """``N``, the number of values of one record."""
        return self._N

    @property
    def n_records(self) -> int:
        """``k``, the number of records."""
        return self._k

    def closed_form_inverse(self) -> np.ndarray:
        return frapp_inverse(self._N, self._gamma, self._k)

    def closed_form_facets(self) -> np.ndarray:
        return frapp_facets(self._N, self._gamma, self._k)


class KaryRRDefinition(ClosedFormDefinition):
    """k-ary randomized response on ``n`` values (Kairouz, Oh & Viswanath, JMLR 2016): FRAPP with ``k = 1``.

    Examples
    --------
    >>> d = KaryRRDefinition(4, exp_eps=3)
    >>> d.spec(), [int(v) for v in d.closed_form_facets()[0]]
    ('krr:n=4,exp_eps=3', [5, -1, -1, -1])
    >>> KaryRRDefinition(4, p="1/2").spec()
    'krr:n=4,p=1/2'
    """

    def __init__(
        self,
        n_values: int,
        *,
        exp_eps: ScalarLike | None = None,
        p: ScalarLike | None = None,
        exact: bool | None = None,
    ) -> None:
        from ..mechanisms._catalogue import kary_randomized_response

        n = _size(n_values, "n_values", 2)
        M = kary_randomized_response(n, exp_eps=exp_eps, p=p, exact=exact)
        self._n = n
        self._gamma = krr_gamma(n, exp_eps=exp_eps, p=p)
        if not M.exact:
            self._gamma = float(self._gamma)
        key, val = ("exp_eps", exp_eps) if exp_eps is not None else ("p", p)
        shown = _spec_scalar(parse_scalar(val, name=key, exact=M.exact))
        spec = f"krr:n={n},{key}={shown}" + ("" if M.exact else ",exact=false")
        super().__init__(
            M, name=f"{n}-ary randomized response ({key}={shown})", spec=spec, invertible=bool(self._gamma > 1)
        )

    @property
    def level(self) -> PrivacyLevel:
        """The privacy level with ``e^ε = γ`` (a :class:`~privgeom.PrivacyLevel`; built on first use).

        Examples
        --------
        >>> str(KaryRRDefinition(4, p="1/2").level)
        'ln(3)'
        """
        return PrivacyLevel.from_exp_eps(self._gamma)

    def closed_form_inverse(self) -> np.ndarray:
        return frapp_inverse(self._n, self._gamma, 1)

    def closed_form_facets(self) -> np.ndarray:
        return frapp_facets(self._n, self._gamma, 1)


# ------------------------------------------------------------------------------------------------- symmetry groups
def frapp_generators(N: int, k: int) -> list[tuple[int, ...]]:
    """Generators of ``S_N ≀ S_k`` on the ``N^k`` datasets in ``np.kron`` order (first record most significant):
    a transposition and an ``N``-cycle of the values of each record, and the swaps of adjacent records.

    Examples
    --------
    >>> frapp_generators(2, 2)
    [(2, 3, 0, 1), (1, 0, 3, 2), (0, 2, 1, 3)]
    """
    digits = list(product(range(N), repeat=k))
    where = {d: i for i, d in enumerate(digits)}
    value_maps = [tuple([1, 0] + list(range(2, N)))] + ([tuple(list(range(1, N)) + [0])] if N > 2 else [])
    gens = []
    for r in range(k):
        for vm in value_maps:
            gens.append(tuple(where[d[:r] + (vm[d[r]],) + d[r + 1 :]] for d in digits))
    for r in range(k - 1):
        gens.append(tuple(where[d[:r] + (d[r + 1], d[r]) + d[r + 2 :]] for d in digits))
    return gens


def _frapp_automorphisms(D: Any, **options: Any) -> SymmetryGroup:
    """Known group of FRAPP (module Notes, *Symmetry groups*): ``S_N ≀ S_k``, or ``S_{N^k}`` at ``γ = 1``."""
    if not D.gamma > 1:
        return _symmetric_group(D)
    N, k = D.n_values, D.n_records
    order = math.factorial(N) ** k * math.factorial(k) if N * k <= 4096 else None
    return _known(D, frapp_generators(N, k), f"wreath product S_{N} ≀ S_{k}" if k > 1 else "symmetric", order)


def _krr_automorphisms(D: Any, **options: Any) -> SymmetryGroup:
    """Known group of k-ary randomized response (module Notes): the symmetric group, complete."""
    return _symmetric_group(D)


automorphisms.register(
    FrappDefinition, _frapp_automorphisms
)  # privgeom.automorphisms (geometry never imports definitions)
automorphisms.register(KaryRRDefinition, _krr_automorphisms)
