"""Randomized response per orbit of its hypercube group, as data: :meth:`RandomizedResponse.orbit_structure`.

Randomized response on ``k`` bits with ``p = a/b`` (exact, ``1/2 < p < 1``, ``k ≥ 2``) has the hypercube group (bit
flips and bit permutations, order ``2^k k!``) as automorphisms (``docs/theory.md`` §5, "Randomized response per
orbit"):

* the ``2^k`` facets (Lin & Kifer, Theorem 4.3) form ONE orbit: the facet of ``s`` goes to the facet of ``π(s)`` and
  the group is transitive on bit strings. Facet ``i`` (dataset ``s``) is ``b^k`` times
  ``Σ_D a^{ham(s,D)} (a−b)^{k−ham(s,D)} x_D ≥ 0`` (primitive since ``gcd(a, b−a) = 1``); its coefficient depends
  only on the Hamming distance from the complement ``s̄`` (the largest coefficient, ``a^k``), and its sign is ``+``
  iff ``ham(D, s̄)`` is even: the parity rule ``c + Σ_j D_j`` even with ``c = popcount(s̄) mod 2``;
* the ``k 2^{k−1}`` edges of the Hamming graph form ONE orbit (the group is edge-transitive), so every pair bound is
  the bound of one representative edge, ``p/(1−p)`` (Lin & Kifer, Section V), read from the structure and checked
  against ``p/(1−p)``; the relaxation is ε-DP on the ``k``-cube with ``e^ε = p/(1−p)``;
* for ``k ≥ 2`` every facet is lost, decided once on the representative with a verified witness: the point
  ``x_D = b−a`` when ``k − ham(s, D)`` is even and ``x_D = a`` when it is odd satisfies every ε-DP constraint
  (neighbours have opposite parity, ratio ``a/(b−a) = e^ε``) and gives the facet the value
  ``(b−a)E − aO < 0`` with ``E ± O = b^k, (2a−b)^k`` (it is ``< 0`` iff ``(1+t)/(1−t) < p/(1−p)``,
  ``t = (2p−1)^k``, true for ``k ≥ 2``; equality at ``k = 1``, where nothing is lost and the generic route answers).

Nothing of size ``2^k x 2^k`` is built. Other cases (float or extreme ``p``, ``k = 1``) give None.

Examples
--------
>>> from privgeom import RandomizedResponse
>>> rr = RandomizedResponse(2, "3/4")
>>> x, value = lost_witness(rr, 0)
>>> x.tolist(), value                 # in ε-DP on the square with e^ε = 3, violating the facet of 11
([1, 3, 3, 1], Fraction(-8, 1))
>>> HammingPairs(2, ("11", "10", "01", "00")).pair(2)
('10', '00')
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cached_property
from typing import Any, cast

import numpy as np

from .._core.errors import SolverError
from .._core.arrays import readonly
from ..geometry._symmetry import SymmetryGroup, automorphisms
from ._orbit_structure import FacetOrbitData, OrbitStatus, OrbitStructure, PairOrbits

__all__ = ["STORED_MAX_K", "HammingPairs", "lost_witness", "rr_orbit_structure"]

#: Up to this many bits the group is given by its generators and the relaxation stores its networkx graph and ε-DP
#: row cone (exactly the objects of the generic route); beyond, they are described, not stored
#: (``2k − 1`` permutations of ``2^k`` datasets; ``k 2^{k−1}`` edges).
STORED_MAX_K = 10


def applies(rr: Any) -> bool:
    """Whether the closed forms of the module doc hold: exact ``1/2 < p < 1`` and ``k ≥ 2``."""
    p = rr.p
    return bool(rr.exact and isinstance(p, Fraction) and Fraction(1, 2) < p < 1 and rr.k >= 2)


def popcount(x: np.ndarray, k: int) -> np.ndarray:
    """The number of set bits among the low ``k`` bits of each entry of ``x``."""
    out = np.zeros(len(x), dtype=np.int64)
    for t in range(k):
        out += (x >> t) & 1
    return out


def hypercube_group(rr: Any, labels: tuple[str, ...]) -> SymmetryGroup:
    """The hypercube group: its generators when small (as :func:`~privgeom.automorphisms` gives them), else
    described by source and order only."""
    if rr.k <= STORED_MAX_K:
        return automorphisms(rr)
    k = rr.k
    return SymmetryGroup(
        labels=labels,
        generators=(),
        source="hypercube",
        order=(1 << k) * math.factorial(k),
        complete=True,
        note=f"generators not stored: the {k} bit flips and {k - 1} adjacent bit transpositions of {1 << k:,} datasets",
    )


class HammingPairs:
    """The pairs of the ``hamming`` family in the order ``subset_family`` lists them (sorted index pairs ``i < j``;
    ``j = i XOR 2^t`` for a bit ``t`` not set in ``i``), the ``t``-th one found by a prefix count built on first
    read."""

    def __init__(self, k: int, labels: tuple[str, ...]) -> None:
        self.k, self.labels, self.n = k, labels, 1 << k
        self.m = k << (k - 1)

    @cached_property
    def _ends(self) -> np.ndarray:
        up = self.k - popcount(np.arange(self.n, dtype=np.int64), self.k)
        return np.cumsum(up)

    def index_pair(self, t: int) -> tuple[int, int]:
        """The ``t``-th pair as dataset indices."""
        i = int(np.searchsorted(self._ends, t, side="right"))
        r = t - (int(self._ends[i - 1]) if i else 0)
        free = [u for u in range(self.k) if not (i >> u) & 1]
        return i, i ^ (1 << free[r])

    def pair(self, t: int) -> tuple[str, str]:
        """The ``t``-th pair as labels."""
        i, j = self.index_pair(t)
        return self.labels[i], self.labels[j]


def lost_witness(rr: Any, s: int) -> tuple[np.ndarray, Fraction]:
    """The verified witness that the facet of dataset ``s`` is lost (module doc): ``x`` in the ε-DP cone of the
    ``k``-cube with ``facet_s · x < 0``. Raises SolverError when a check fails."""
    k, n = rr.k, rr.n_inputs
    a, b = rr.p.numerator, rr.p.denominator
    h = popcount(np.arange(n, dtype=np.int64) ^ s, k)  # ham(s, D) = popcount of the XOR of the indices
    x = np.where((k - h) % 2 == 0, b - a, a).astype(np.int64)
    idx = np.arange(n, dtype=np.int64)
    for t in range(k):  # every directed edge: (b − a) x_i ≤ a x_j, i.e. x_i ≤ r x_j
        if not ((b - a) * x <= a * x[idx ^ (1 << t)]).all():
            raise SolverError(f"{rr.name}: the lost-guarantee witness leaves the ε-DP cone")  # pragma: no cover
    counts = np.bincount(h, minlength=k + 1).tolist()  # the number of datasets at each distance, counted
    value = sum(c * a**hh * (a - b) ** (k - hh) * ((b - a) if (k - hh) % 2 == 0 else a) for hh, c in enumerate(counts))
    if not value < 0:
        raise SolverError(f"{rr.name}: the lost-guarantee witness does not violate the facet")  # pragma: no cover
    return readonly(x), Fraction(value)


def _hamming_pairs(rr: Any, labels: tuple[str, ...]) -> PairOrbits:
    """The Hamming family per orbit: one edge orbit with bound ``p/(1−p)``, one facet orbit, lost (module doc)."""
    k, n = rr.k, rr.n_inputs
    p = cast(Fraction, rr.p)
    r = p / (1 - p)
    pairs = HammingPairs(k, labels)
    i0, j0 = pairs.index_pair(0)  # the representative edge: one orbit (the hypercube group is edge-transitive)
    fwd, bwd = rr.pair_bounds([i0], [j0])
    if not (fwd[0] == r and bwd[0] == r):
        raise SolverError(f"{rr.name}: the pair bound {fwd[0]} of the representative edge is not p/(1−p) = {r}")
    witness, value = lost_witness(rr, 0)
    status = OrbitStatus(representative=0, members=range(n), lost=True, witness=witness, value=value)
    # ε-DP on Q_k: sup x_a/x_b = r^{ham(a,b)} (Section V), the same bounds as randomized response's own
    return PairOrbits(
        family="hamming",
        n_pairs=pairs.m,
        index_pair=pairs.index_pair,
        bound=r,
        statuses=(status,),
        relaxed_pair_bounds=rr.pair_bounds,
        store_graph=k <= STORED_MAX_K,
    )


def rr_orbit_structure(rr: Any) -> OrbitStructure | None:
    """The :class:`~privgeom.definitions._orbit_structure.OrbitStructure` of randomized response (module doc), or
    None outside exact ``1/2 < p < 1``, ``k ≥ 2``."""
    if not applies(rr):
        return None
    cone = rr.row_cone()
    labels = tuple(cone.labels)
    k, n = rr.k, rr.n_inputs
    a, b = rr.p.numerator, rr.p.denominator

    def parity(i: int) -> tuple[tuple[int, ...], int, str]:
        t = labels[n - 1 - i]  # the complement of dataset i: the largest coefficient a^k
        return tuple(range(k)), t.count("1") % 2, t

    def hamming_profile(i: int) -> tuple[str, list[int]]:
        return labels[n - 1 - i], [a ** (k - h) * (a - b) ** h for h in range(k + 1)]

    return OrbitStructure(
        name=rr.spec(),
        cone=cone,
        group=hypercube_group(rr, labels),
        facet_orbits=(FacetOrbitData(size=n, representative=0, members=range(n)),),
        normal=lambda i: rr.facet(i, scaled=True),
        parity=parity,
        hamming_profile=hamming_profile,
        families={"hamming": lambda: _hamming_pairs(rr, labels)},
    )
