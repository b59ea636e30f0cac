"""Exact ``δ(x)`` of sampling-sum mechanisms by a subset-sum dynamic program (SGD step, Theorem 3 experiment).

A batch of ``T`` of the ``n`` records (integers ``0..V−1``) is drawn without replacement and ``⌈Σ batch / w⌉`` is
published (``w = 1``: the exact sum, i.e. the sampling average of Theorem 3; ``w = T``: the re-quantised mean of an
SGD step with 8-bit gradients, Liu, Wang & Xia Section 6). The number of ``t``-subsets with each sum is computed
*exactly* by a dynamic program over the records, modulo a few 30-bit primes (reconstructed by Garner's algorithm, so
no floating-point cancellation). Removing one copy of a value ``a`` (the record that a neighbour replaces) is an exact
downdate ``c'_t = c_t − shift_a(c'_{t−1})``, so for every replaced value ``a`` and replacement ``b``

``P_x(S) = (A(S) + B(S − a)) / C(n, T)``,  ``P_{x'}(S) = (A(S) + B(S − b)) / C(n, T)``,

with ``A``/``B`` the ``T``/``(T−1)``-subset sums of the other ``n − 1`` records. ``δ(x)`` (Definition 2) is the
maximum of both directed distances over all ``a`` in ``x`` and all ``b``.

Examples
--------
>>> from fractions import Fraction
>>> from privgeom.smoothed import database_delta
>>> from privgeom.smoothed._catalogue import sampling_sum
>>> M = sampling_sum(3, 2, [0, 1, 2])
>>> float(database_delta(M, 0, x="(0,1,2)").value) == float(sampling_delta([0, 1, 2], 2, 3, [0.0])[0])
True
"""

from __future__ import annotations

import math
from typing import Iterator, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.level import PrivacyLevel
from .._core.limits import register_limit
from .._core.arrays import ATOL, check_dense_size, parse_int
from .._core.columns import hockey_stick_columns
from .._core.hints import limit_hint
from .._core.logpmf import log_binom_pmf
from .._core.limits import current_limit

__all__ = [
    "SubsetSums",
    "sampling_delta",
    "expected_sampling_delta",
    "count_histograms",
    "quantised_gaussian",
    "discretised_uniform",
]

#: The moduli of the subset-sum counts: the largest primes below ``2^30`` (products of two fit in int64).
_PRIMES = (1073741789, 1073741783, 1073741741, 1073741723, 1073741719, 1073741717, 1073741689, 1073741671)
#: Bits of a count that one prime carries (a little below ``log2`` of the primes, for Garner's reconstruction).
_BITS_PER_PRIME = 29.9
#: Largest ``(T + 1) x (max sum + 1)`` table per prime.
MAX_TABLE = 2_000_000
#: Default largest number of histograms of the exact expectation (:func:`expected_sampling_delta`).
MAX_HISTOGRAMS = 20_000
register_limit(
    "subset_sum_table",
    globals(),
    "MAX_TABLE",
    "entries (T + 1) x (largest sum + 1) of one subset-sum table of the sampling mechanisms",
)
register_limit(
    "sampling_histograms",
    globals(),
    "MAX_HISTOGRAMS",
    "histograms the exact expectation of the sampling mechanisms' delta enumerates",
)
#: The sparse route of :func:`sampling_delta` is taken when at most this fraction of the sums is reachable.
_SPARSE_FRACTION = 0.25


def _garner(res: np.ndarray, primes: Sequence[int]) -> np.ndarray:
    """Float value of the integers with residues ``res[i]`` modulo ``primes[i]`` (mixed radix, no cancellation)."""
    digits: list[np.ndarray] = []
    for i, p in enumerate(primes):
        x = res[i] % p
        for j in range(i):
            inv = pow(primes[j] % p, -1, p)
            x = ((x - digits[j]) % p) * inv % p
        digits.append(x)
    out = np.zeros(res.shape[1:])
    radix = 1.0
    for i, p in enumerate(primes):
        out += digits[i].astype(float) * radix
        radix *= p
    return out


class SubsetSums:
    """Counts of ``t``-subsets (``t <= T``) of a multiset of integers with each sum, exactly (modular).

    Examples
    --------
    >>> s = SubsetSums([0, 1, 1, 2], 2)
    >>> s.counts(2).tolist()    # pairs: sums 1, 1, 2, 2, 3, 3 (sums 0..4)
    [0.0, 2.0, 2.0, 2.0, 0.0]
    >>> A, B = s.without(1)     # the other records are 0, 1, 2
    >>> A.tolist(), B.tolist()
    ([0.0, 1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0])
    """

    def __init__(self, records: Sequence[int], T: int) -> None:
        rec = np.asarray(records, dtype=np.int64)
        if rec.ndim != 1 or (rec.size and rec.min() < 0):
            raise InvalidParameterError("records must be a 1-D sequence of non-negative integers")
        self.n, self.T = int(rec.size), parse_int(T, name="T", min=0)
        if not self.T <= self.n:
            raise InvalidParameterError(f"need 0 <= T <= n, got T = {T}, n = {self.n}")
        self.vmax = int(rec.max()) if rec.size else 0
        self.smax = self.vmax * self.T
        if (self.T + 1) * (self.smax + 1) > current_limit("subset_sum_table"):
            entries = (self.T + 1) * (self.smax + 1)
            raise SizeLimitError(
                f"subset-sum table {(self.T + 1):,} x {(self.smax + 1):,} = {entries:,} entries exceeds "
                f"the limit subset_sum_table = {current_limit('subset_sum_table'):,}, refused "
                "before allocating; "
                f"{limit_hint('subset_sum_table', entries)}"
            )
        bits = math.log2(max(2, math.comb(self.n, self.T))) + 2
        self.primes = _PRIMES[: max(1, math.ceil(bits / _BITS_PER_PRIME))]
        if len(self.primes) == len(_PRIMES) and bits > _BITS_PER_PRIME * len(_PRIMES):
            raise SizeLimitError(f"C({self.n}, {self.T}) needs more than {len(_PRIMES)} primes")
        P = np.array(self.primes, dtype=np.int64)[:, None, None]
        c = np.zeros((len(self.primes), self.T + 1, self.smax + 1), dtype=np.int64)
        c[:, 0, 0] = 1
        top = 0  # largest reachable sum so far
        for r in np.sort(rec)[::-1]:
            r = int(r)
            top = min(self.smax, top + r)
            if self.T == 0:
                break
            # new c[t][s] = c[t][s] + c[t-1][s-r]  (numpy copies overlapping operands: RHS uses old values)
            c[:, 1:, r : top + 1] += c[:, :-1, : top + 1 - r]
            np.remainder(c[:, 1:, r : top + 1], P, out=c[:, 1:, r : top + 1])
        self._c = c
        self.values, self.mult = np.unique(rec, return_counts=True)

    def counts(self, t: int) -> np.ndarray:
        """Number of ``t``-subsets with each sum ``0..max`` (floats, exact up to rounding)."""
        return _garner(self._c[:, t, :], self.primes)

    def without(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        """``(A, B)``: counts of ``T``- and ``(T−1)``-subsets of the records with one copy of ``a`` removed."""
        if a not in set(self.values.tolist()):
            raise InvalidParameterError(f"{a} is not one of the records")
        P = np.array(self.primes, dtype=np.int64)[:, None]
        prev = self._c[:, 0, :].copy()
        B = prev
        for t in range(1, self.T + 1):
            cur = self._c[:, t, :].copy()
            if a > 0:
                cur[:, a:] -= prev[:, : self.smax + 1 - a]
            else:
                cur -= prev
            np.remainder(cur, P, out=cur)
            if t == self.T - 1:
                B = cur
            prev = cur
        A = prev
        if self.T == 0:
            return _garner(A, self.primes), np.zeros(self.smax + 1)
        return _garner(A, self.primes), _garner(B if self.T > 1 else self._c[:, 0, :], self.primes)


def _bin_all_shifts(B: np.ndarray, V: int, w: int, n_bins: int) -> np.ndarray:
    """``out[b, j] = Σ_{S : ⌈(S + b)/w⌉ = j} B(S)`` for every shift ``b = 0..V−1`` (residue trick)."""
    S = np.arange(len(B))
    rows = []
    for res in range(w):
        rows.append(np.bincount(-((-(S + res)) // w), weights=B, minlength=n_bins + V // w + 2))
    R = np.array(rows)  # R[r, j] = Σ_{⌈(S + r)/w⌉ = j} B(S)
    b = np.arange(V)
    q, r = b // w, b % w
    j = np.arange(n_bins)
    idx = j[None, :] - q[:, None]
    valid = idx >= 0
    out = np.where(valid, R[r[:, None], np.clip(idx, 0, R.shape[1] - 1)], 0.0)
    return out


def sampling_delta(
    records: Sequence[int], T: int, V: int, eps_list: Sequence[float], *, bin_width: int = 1
) -> np.ndarray:
    """Exact ``δ_{ε,M}(x)`` (Definition 2) of ``M(x) = ⌈Σ batch / w⌉`` for one database, for every ``ε`` given.

    Parameters
    ----------
    records : the database, integers in ``0..V−1``
    T : batch size (sampled without replacement)
    V : size of the record domain (replacements range over ``0..V−1``)
    eps_list : privacy parameters
    bin_width : ``w`` (1 = exact sum)

    Examples
    --------
    With two record values the mechanism is SHM; the exact matrix gives ``δ = 3/10`` for 5 records with two
    ones, a batch of 2 and ε = 0:

    >>> sampling_delta([0, 0, 0, 1, 1], 2, 2, [0.0]).round(12).tolist()
    [0.3]
    """
    V = parse_int(V, name="V", min=1)
    rec = [parse_int(v, name="record", min=0) for v in records]
    if any(v >= V for v in rec):
        raise InvalidParameterError(f"records must lie in 0..{V - 1}")
    T = parse_int(T, name="T", min=0)
    w = parse_int(bin_width, name="bin_width", min=1)
    total = math.comb(len(rec), T)
    smax = (V - 1) * T
    n_bins = -(-smax // w) + 1
    deltas = np.zeros(len(eps_list))
    exps = np.array([float(PrivacyLevel.coerce(e).exp_eps) for e in eps_list])  # the one ε parser
    base = SubsetSums(rec, T)
    S = np.arange(smax + 1)
    bvals = np.arange(V)
    for a in base.values.tolist():
        A, B = base.without(int(a))
        A = np.concatenate([A, np.zeros(smax + 1 - len(A))]) / total
        B = np.concatenate([B, np.zeros(smax + 1 - len(B))]) / total
        nz = np.nonzero(B)[0]
        if w == 1 and len(nz) < _SPARSE_FRACTION * len(B):
            d = _sparse_distances(A, B, nz, int(a), bvals, exps)
        else:
            check_dense_size(V, n_bins, exact=False, what="the replacement x output table")
            Abin = np.bincount(-((-S) // w), weights=A, minlength=n_bins)[:n_bins]
            Bsh = _bin_all_shifts(B, V, w, n_bins)  # rows b: binned B(S - b)
            Px = np.broadcast_to((Abin + Bsh[a])[:, None], (n_bins, V))  # outputs x replacements b
            Pb = (Abin[None, :] + Bsh).T
            d = np.zeros(len(exps))
            for k, e in enumerate(exps):  # the hockey-stick kernel on the dense output laws, both directions
                d1 = hockey_stick_columns(Px, Pb, e)
                d2 = hockey_stick_columns(Pb, Px, e)
                d[k] = float(np.max(np.maximum(d1, d2)))
        deltas = np.maximum(deltas, d)
    return deltas


def _sparse_distances(
    A: np.ndarray, B: np.ndarray, nz: np.ndarray, a: int, bvals: np.ndarray, exps: np.ndarray
) -> np.ndarray:
    """Both directed distances for all replacements ``b`` when ``B`` has few nonzero sums (exact sums, ``w = 1``).

    The same hockey-stick sums as the dense route, restricted to the outputs where a term can be positive: outside
    ``supp B(· − b)`` the term ``P_{x'} − e^ε P_x`` is ``(1 − e^ε) A − e^ε B(· − a) <= 0``, so only the
    ``|supp B|`` shifted sums matter (and symmetrically for ``P_x − e^ε P_{x'}``, on ``supp B(· − a)``). The kernel
    :func:`privgeom._core.columns.hockey_stick_columns` runs on these ``|supp B| × V`` sub-columns (each column a
    replacement ``b``) instead of the dense ``(max sum) × V`` laws: the sub-columns are not distributions, but the
    kernel sums the positive parts of whatever columns it is given.
    """
    L = len(B)
    Bv = B[nz]

    def at(arr: np.ndarray, idx: np.ndarray) -> np.ndarray:
        ok = (idx >= 0) & (idx < L)
        return np.where(ok, arr[np.clip(idx, 0, L - 1)], 0.0)

    Sb = bvals[:, None] + nz[None, :]  # sums containing the replaced record, valued b
    A_b, Ba_b = at(A, Sb), at(B, Sb - a)
    Sa = a + nz
    A_a = A[Sa]
    Bb_a = at(B, Sa[None, :] - bvals[:, None])
    # outputs (the support sums) x replacements b
    Pxp_on_b, Px_on_b = (A_b + Bv[None, :]).T, (A_b + Ba_b).T
    Px_on_a = np.broadcast_to((A_a + Bv)[:, None], Pxp_on_b.shape)
    Pxp_on_a = (A_a[None, :] + Bb_a).T
    out = np.zeros(len(exps))
    for k, e in enumerate(exps):
        d_xprime_x = hockey_stick_columns(Pxp_on_b, Px_on_b, e)
        d_x_xprime = hockey_stick_columns(Px_on_a, Pxp_on_a, e)
        out[k] = float(np.max(np.maximum(d_xprime_x, d_x_xprime)))
    return out


def count_histograms(n: int, support: int) -> int:
    """Number of histograms of ``n`` records over ``support`` values: ``C(n + support − 1, support − 1)``."""
    return math.comb(n + support - 1, support - 1)


def _histograms(n: int, k: int) -> Iterator[tuple[int, ...]]:
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _histograms(n - first, k - 1):
            yield (first,) + rest


def _log_multinomial(H: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``ln Multinomial(h; Σh, p)`` for every row ``h`` of ``H``, by the package's one binomial log-pmf.

    The multinomial law is a product of binomial conditionals, ``h_j ~ Bin(Σ_{i>=j} h_i, p_j / Σ_{i>=j} p_i)``,
    each evaluated by :func:`privgeom._core.logpmf.log_binom_pmf` with ``q = Σ_{i>j} p_i / Σ_{i>=j} p_i`` passed
    separately (no ``1 − p`` cancellation); ``-inf`` for impossible histograms.

    Examples
    --------
    >>> round(float(np.exp(_log_multinomial(np.array([[1, 1, 1]]), np.array([0.5, 0.25, 0.25])))[0]), 12)
    0.1875
    """
    H = np.asarray(H, dtype=float)
    p = np.asarray(p, dtype=float)
    rem = np.concatenate([np.cumsum(p[::-1])[::-1], [0.0]])  # rem[j] = Σ_{i>=j} p_i
    left = np.cumsum(H[:, ::-1], axis=1)[:, ::-1]  # records in categories >= j
    out = np.zeros(len(H))
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(H.shape[1]):
            pj = p[j] / rem[j] if rem[j] > 0 else 0.0
            qj = rem[j + 1] / rem[j] if rem[j] > 0 else 0.0
            out += log_binom_pmf(H[:, j], left[:, j], pj, qj)
    return out


def expected_sampling_delta(
    laws: Sequence[Sequence[float] | np.ndarray],
    counts: Sequence[int],
    T: int,
    eps_list: Sequence[float],
    *,
    bin_width: int = 1,
    max_histograms: int | None = None,
) -> tuple[np.ndarray, int]:
    """Exact ``E_{x~π}[δ_{ε,M}(x)]`` for the sampling-sum mechanism, without Monte Carlo (Definition 3, inner term).

    ``counts[g]`` agents draw their record i.i.d. from ``laws[g]`` (a probability vector over ``0..V−1``; e.g. the two
    vertices of ``Π`` in the SGD experiment). ``M(x) = ⌈Σ batch / w⌉`` only sees the multiset of records, so
    ``δ(x)`` depends on the histogram ``h`` of ``x`` alone, and

    ``E[δ] = Σ_h P(h) δ(h)``,  ``P(h) = Σ_{h_1 + … = h} Π_g Multinomial(h_g; counts[g], laws[g])``

    (Liu, Wang & Xia, Proposition 5: anonymous mechanisms only depend on the histogram). Every histogram over the
    support of the laws is enumerated and ``δ(h)`` computed exactly by :func:`sampling_delta`, so the result is exact
    up to float rounding. Returns ``(values per ε, number of histograms)``; refuses (``SizeLimitError``) beyond
    ``max_histograms`` — the count ``C(n + |support| − 1, |support| − 1)`` explodes (``n = 100`` agents over 256
    gradient values gives ``~10^{90}`` histograms, which is why the SGD figure at the paper's sizes averages over
    random databases instead).

    Examples
    --------
    Binary records (the sampling sum is then SHM), 5 agents, a batch of 2, ε = 1 — equals the exact matrix route:

    >>> from privgeom.smoothed import smoothed_delta
    >>> from privgeom.smoothed._catalogue import sampling_sum
    >>> vals, m = expected_sampling_delta([[0.5, 0.5]], [5], 2, [1.0])
    >>> m, round(float(vals[0]), 12) == round(float(smoothed_delta(sampling_sum(5, 2, [0, 1]), 1.0, [[0.5, 0.5]]).value), 12)
    (6, True)
    """
    if len(laws) != len(counts) or not laws:
        raise InvalidParameterError(f"need one agent count per law, got {len(laws)} laws and {len(counts)} counts")
    P = [np.asarray(law, dtype=float) for law in laws]
    V = len(P[0])
    if any(len(p) != V for p in P) or any(np.any(p < 0) or abs(float(p.sum()) - 1.0) > ATOL for p in P):
        raise InvalidParameterError("laws must be probability vectors of one common length")
    cs = [parse_int(c, name="agent count", min=0) for c in counts]
    if sum(cs) < 1:
        raise InvalidParameterError(f"agent counts must be >= 0 with a positive total, got {cs}")
    n = sum(cs)
    T = parse_int(T, name="T", min=0)
    if T > n:
        raise InvalidParameterError(f"need 0 <= T <= n, got T = {T}, n = {n}")
    support = [v for v in range(V) if any(p[v] > 0 for p, c in zip(P, cs) if c > 0)]
    k = len(support)
    total_h = count_histograms(n, k)
    cap = (
        current_limit("sampling_histograms")
        if max_histograms is None
        else parse_int(max_histograms, name="max_histograms", min=1)
    )
    if total_h > cap:
        raise SizeLimitError(
            f"exact expectation needs {total_h:,} histograms of {n} records over {k} values "
            f"(limit sampling_histograms = {cap:,}), refused before any work; "
            f"{limit_hint('sampling_histograms', total_h, keyword='max_histograms')}"
        )
    law: dict[tuple[int, ...], float] = {}
    for c, p in zip(cs, P):
        hs = list(_histograms(c, k))
        probs = np.exp(_log_multinomial(np.array(hs, dtype=float).reshape(len(hs), k), p[support]))
        part = {h: float(v) for h, v in zip(hs, probs) if v > 0}
        if not law:
            law = part
            continue
        merged: dict[tuple[int, ...], float] = {}
        for ha, pa in law.items():
            for hb, pb in part.items():
                h = tuple(a + b for a, b in zip(ha, hb))
                merged[h] = merged.get(h, 0.0) + pa * pb
        law = merged
    out = np.zeros(len(eps_list))
    for h, ph in law.items():
        records = [v for v, hv in zip(support, h) for _ in range(hv)]
        out += ph * sampling_delta(records, T, V, eps_list, bin_width=bin_width)
    return out, len(law)


def quantised_gaussian(mu: float, sigma: float, *, scale: int = 256, low: int = -127, high: int = 128) -> np.ndarray:
    """Law of ``q(g) = ⌈scale·g⌉`` for ``g ~ N(mu, sigma²)``, conditioned on ``low <= q(g) <= high`` (rejection).

    Index ``i`` of the result is the value ``low + i`` (8-bit gradients: ``{−127, …, 128}``, Section 6).

    Examples
    --------
    >>> p = quantised_gaussian(0.0, 0.12)
    >>> len(p), round(float(p.sum()), 12), bool(abs(p[127] - p[128]) < 1e-15)   # values 0 and 1 equally likely
    (256, 1.0, True)
    """
    from scipy.stats import norm

    k = np.arange(low, high + 1)
    upper = (k / scale - mu) / sigma
    lower = ((k - 1) / scale - mu) / sigma
    # P(k-1 < scale g <= k) computed on the side of the tail with the smaller mass (no cancellation)
    mass = np.where(lower > 0, norm.sf(lower) - norm.sf(upper), norm.cdf(upper) - norm.cdf(lower))
    return mass / mass.sum()


def discretised_uniform(levels: int) -> np.ndarray:
    """Uniform law on ``levels`` equally spaced values (a discretised continuous uniform)."""
    levels = parse_int(levels, name="levels", min=1)
    return np.full(levels, 1.0 / levels)
