"""Catalogue of well-known finite mechanisms: truncated geometric, k-ary randomized response, FRAPP/PRAM.

Every factory returns a :class:`~privgeom.Mechanism` whose columns are the datasets and rows the outputs
(``M[ω, i] = P(M(D_i) = ω)``), exact (Fractions) when its parameters are rational, and refuses sizes that
:func:`privgeom._core.arrays.check_dense_size` would not allocate, *before* allocating.

Examples
--------
>>> M = truncated_geometric(2, "1/2")
>>> [[str(v) for v in row] for row in M.matrix]
[['2/3', '1/3', '1/6'], ['1/6', '1/3', '1/6'], ['1/6', '1/3', '2/3']]
>>> kary_randomized_response(3, exp_eps=2).column(0).tolist()
[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
>>> frapp(2, 3, 2).inputs
('0,0', '0,1', '1,0', '1,1')
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.level import LevelLike, PrivacyLevel, ScalarLike
from .._core.arrays import check_dense_size, EXACT_ENTRY_BYTES, FLOAT_ENTRY_BYTES, parse_int
from .._core.numbers import parse_scalar, Scalar
from ._mechanism import Mechanism

__all__ = ["truncated_geometric", "kary_randomized_response", "frapp", "frapp_matrix"]

#: :func:`frapp` refuses ``N^k`` above this many datasets at once (from ``k log N``, before computing ``N^k``) with
#: a message naming ``N^k`` and the memory its matrix would need: not a tunable limit, since the dense-size checks of
#: :func:`~privgeom._core.arrays.check_dense_size` (global limits ``exact_entries``/``dense_entries``) refuse far
#: smaller sizes anyway and no memory holds a ``2^31 x 2^31`` matrix.
MAX_FRAPP_DATASETS = 2**31

#: An exact :func:`frapp` on ``k >= 2`` records is kept factored (no dense matrix) up to this many datasets (their
#: labels are listed); beyond it the dense-size checks refuse it as before.
MAX_FACTORED_DATASETS = 2**20


def _value_labels(values: Any, *, name: str) -> list[str]:
    """``int n`` → ``'0'..'n-1'``; a sequence → its labels as strings (at least two, unique, no commas)."""
    if isinstance(values, (int, np.integer)) and not isinstance(values, bool):
        n = parse_int(values, name=name, min=2)
        check_dense_size(n, n, exact=False, what=f"{name} = {n} values")
        return [str(v) for v in range(n)]
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidTypeError(
            f"{name} must be a number of values (int >= 2) or a list of value labels, got {values!r}"
        )
    labels = [str(v) for v in values]
    if len(labels) < 2:
        raise InvalidParameterError(f"{name} needs at least 2 values, got {labels}")
    if len(set(labels)) != len(labels):
        raise InvalidParameterError(f"{name} has repeated value labels: {labels}")
    return labels


# ---------------------------------------------------------------------------------------------------- geometric
def truncated_geometric(n: int, alpha: ScalarLike, *, exact: bool | None = None) -> Mechanism:
    """The truncated (range-restricted) geometric mechanism on counts ``{0..n}`` (Ghosh, Roughgarden & Sundararajan).

    Add two-sided geometric noise ``P(Z = z) ∝ α^{|z|}`` to the true count ``i`` and clamp the result to
    ``{0..n}``. The mass that falls below 0 or above ``n`` is folded onto the end points:

    * interior ``0 < z < n``: ``M[z, i] = (1−α)/(1+α) · α^{|z−i|}``;
    * ``M[0, i] = Σ_{z ≤ 0} (1−α)/(1+α) α^{i−z} = α^i / (1+α)``;
    * ``M[n, i] = α^{n−i} / (1+α)``.

    *Column sums.* ``Σ_{z=1}^{n−1} α^{|z−i|}(1−α) = (1 − α^i) + (α − α^{n−i})`` (two geometric sums, on each side of
    ``i``), and adding ``α^i + α^{n−i}`` for the end points gives ``1 + α``; dividing by ``1+α`` gives 1 (for
    ``n = 1`` there are no interior rows and ``(α^i + α^{1−i})/(1+α) = 1`` directly).

    *Privacy.* For neighbouring counts ``i, i+1`` every row ratio ``M[z, i]/M[z, i+1]`` is ``α^{±1}`` (interior:
    ``|z−i|`` and ``|z−i−1|`` differ by one; end points: ``α^i/α^{i+1}`` and ``α^{n−i}/α^{n−i−1}``), so the mechanism
    is exactly ``ln(1/α)``-differentially private on the path graph ``0 − 1 − … − n``
    (:func:`privgeom.analyses.epsilon` recovers it). Ghosh, Roughgarden & Sundararajan, *Universally
    utility-maximizing privacy mechanisms*, STOC 2009 (SIAM J. Comput. 41(6), 2012), Def. 2.3 and Thm. 1.1: it is
    simultaneously optimal for every Bayesian count-query consumer.

    Parameters
    ----------
    n : int
        Largest count (``n >= 1``); the mechanism is ``(n+1) x (n+1)``.
    alpha : rational or float in (0, 1)
        ``α = e^{−ε}``. ``"1/2"`` or ``Fraction(1, 2)`` give an exact mechanism.
    exact : bool, optional
        Force the mode; default: exact iff ``alpha`` is rational.

    Raises
    ------
    InvalidParameterError
        ``n < 1`` or ``alpha`` outside ``(0, 1)``.
    SizeLimitError
        ``(n+1)^2`` entries beyond the global size limit ``exact_entries`` / ``dense_entries``
        (:func:`privgeom.get_limits`).

    Examples
    --------
    >>> M = truncated_geometric(3, "1/3")
    >>> M.inputs == M.outputs == ('0', '1', '2', '3')
    True
    >>> [str(v) for v in M.column("1")]
    ['1/4', '1/2', '1/6', '1/12']
    >>> from privgeom import epsilon
    >>> str(epsilon(M, "path").level.eps)
    'ln(3)'
    """
    n = parse_int(n, name="n", min=1)
    a = parse_scalar(alpha, name="alpha", exact=exact)
    if not 0 < a < 1:
        raise InvalidParameterError(f"the geometric mechanism needs alpha in (0, 1), got alpha = {a}")
    is_exact = isinstance(a, Fraction)
    check_dense_size(n + 1, n + 1, exact=is_exact, what=f"truncated_geometric(n={n})")
    labels = [str(c) for c in range(n + 1)]
    if isinstance(a, Fraction):
        return _geometric_ints(n, a, labels)
    one: Scalar = 1.0
    powers = [one]
    for _ in range(n):
        powers.append(powers[-1] * a)
    inner = (1 - a) / (1 + a)
    mat = np.empty((n + 1, n + 1), dtype=float)
    for i in range(n + 1):
        for z in range(n + 1):
            if z == 0:
                mat[z, i] = powers[i] / (1 + a)
            elif z == n:
                mat[z, i] = powers[n - i] / (1 + a)
            else:
                mat[z, i] = inner * powers[abs(z - i)]
    labels = [str(c) for c in range(n + 1)]
    return Mechanism(mat, inputs=labels, outputs=labels, exact=is_exact)


def _geometric_ints(n: int, alpha: Fraction, labels: list[str]) -> Mechanism:
    """The exact truncated geometric mechanism straight from integers: with ``α = a/b`` every entry is an integer
    over the common denominator ``(a+b) b^n`` (kept for every column) — interior ``(b−a) a^d b^{n−d}`` (``d = |z−i|``), ends ``a^i b^{n−i+1}`` and
    ``a^{n−i} b^{i+1}`` (the formulas of :func:`truncated_geometric` times ``(a+b) b^n``)."""
    a, b = alpha.numerator, alpha.denominator
    pa = [a**d for d in range(n + 1)]
    pb = [b**d for d in range(n + 2)]
    z = np.arange(n + 1)[:, None]
    i = np.arange(n + 1)[None, :]
    d = np.abs(z - i)
    PA, PB = np.array(pa, dtype=object), np.array(pb, dtype=object)
    inner = np.array([(b - a) * pa[t] * pb[n - t] for t in range(n + 1)], dtype=object)
    num = inner[d]  # a gather: one table of n + 1 integers
    num[0, :] = PA[i[0]] * PB[n - i[0] + 1]
    num[n, :] = PA[n - i[0]] * PB[i[0] + 1]
    # one common denominator for every column (not the least one: equal entries then have equal numerators)
    return Mechanism._from_ints(num, np.full(n + 1, (a + b) * pb[n], dtype=object), labels, labels, reduced=False)


def _two_value_ints(k: int, keep: Fraction, other: Fraction, labels: list[str]) -> Mechanism:
    """The exact ``k x k`` matrix with ``keep`` on the diagonal and ``other`` elsewhere, built from integers."""
    L = math.lcm(keep.denominator, other.denominator)
    num = np.full((k, k), other.numerator * (L // other.denominator), dtype=object)
    np.fill_diagonal(num, keep.numerator * (L // keep.denominator))
    return Mechanism._from_ints(num, np.full(k, L, dtype=object), labels, labels)


# ---------------------------------------------------------------------------------------------------- k-RR
def kary_randomized_response(
    n_values: int | Sequence[Any],
    *,
    exp_eps: ScalarLike | None = None,
    eps: LevelLike | None = None,
    p: ScalarLike | None = None,
    exact: bool | None = None,
) -> Mechanism:
    """k-ary randomized response (Warner 1965; k-RR of Kairouz, Oh & Viswanath 2014/2016).

    Report the true value with probability ``p = e^ε / (e^ε + k − 1)`` and each of the ``k − 1`` other values with
    probability ``1 / (e^ε + k − 1)`` (so ``(1−p)/(k−1)``). Every row is ``(e^ε, 1, …, 1)/(e^ε + k − 1)`` up to order,
    so the largest ratio between two columns is exactly ``e^ε``: the mechanism is ε-locally differentially private,
    i.e. ε-DP on the complete graph ``K_k`` (Kairouz, Oh & Viswanath, *Extremal mechanisms for local differential
    privacy*, JMLR 17, 2016, §4 eq. (10) and Thm. 14, where it is optimal in the low-privacy regime). For ``k = 2``
    it is binary randomized response with ``p = e^ε/(1+e^ε)``.

    Parameters
    ----------
    n_values : int or sequence
        ``k >= 2`` values (labelled ``'0'..'k-1'``) or the list of value labels.
    exp_eps, eps, p : exactly one of them
        ``exp_eps = e^ε >= 1`` (rational → exact); ``eps >= 0`` as a float or :class:`~privgeom.LogRational`
        (``LogRational(r)`` is exact); or the truth probability ``p ∈ [1/k, 1)`` (``e^ε = (k−1)p/(1−p)``).
    exact : bool, optional
        Force the mode.

    Raises
    ------
    InvalidParameterError
        Not exactly one of ``exp_eps``/``eps``/``p``; ``e^ε < 1``, ``ε < 0``, or ``p`` outside ``[1/k, 1)``.

    Examples
    --------
    >>> M = kary_randomized_response(["a", "b", "c", "d"], exp_eps=3)
    >>> [str(v) for v in M.column("a")]
    ['1/2', '1/6', '1/6', '1/6']
    >>> kary_randomized_response(2, p="3/4").column(0).tolist()
    [Fraction(3, 4), Fraction(1, 4)]
    >>> from privgeom import epsilon
    >>> str(epsilon(M, "complete").level.eps)
    'ln(3)'
    """
    labels = _value_labels(n_values, name="n_values")
    k = len(labels)
    given = [name for name, v in (("exp_eps", exp_eps), ("eps", eps), ("p", p)) if v is not None]
    if len(given) != 1:
        raise InvalidParameterError(f"give exactly one of exp_eps=, eps=, p=; got {given or 'none'}")
    t: Scalar
    if p is not None:
        pv = parse_scalar(p, name="p", exact=exact)
        if not (Fraction(1, k) <= pv < 1 if isinstance(pv, Fraction) else 1.0 / k <= pv < 1.0):
            raise InvalidParameterError(
                f"k-ary randomized response with k = {k} needs p in [1/{k}, 1), got p = {pv} "
                "(p = 1 reveals the value: ε = ∞)"
            )
        keep, other = pv, (1 - pv) / (k - 1)
    else:
        t = PrivacyLevel.parse(eps, exp_eps, exact=exact).exp_eps
        keep, other = t / (t + k - 1), 1 / (t + k - 1)
    is_exact = isinstance(keep, Fraction)
    check_dense_size(k, k, exact=is_exact, what=f"kary_randomized_response({k} values)")
    if is_exact:
        return _two_value_ints(k, Fraction(keep), Fraction(other), labels)
    mat = np.full((k, k), other, dtype=object if is_exact else float)
    np.fill_diagonal(mat, keep)
    return Mechanism(mat, inputs=labels, outputs=labels, exact=is_exact)


# ---------------------------------------------------------------------------------------------------- FRAPP
def frapp_matrix(N: int, gamma: ScalarLike, *, exact: bool | None = None) -> np.ndarray:
    """The ``N x N`` γ-amplifying uniform-perturbation matrix of FRAPP: ``A[v, u] = γx`` if ``v = u`` else ``x``.

    ``x = 1/(γ + N − 1)`` makes every column sum to 1 (Agrawal & Haritsa 2005, §4, eq. (5)).

    Examples
    --------
    >>> frapp_matrix(3, 2).tolist()
    [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]]
    """
    N = parse_int(N, name="N", min=2)
    g = parse_scalar(gamma, name="gamma", exact=exact)
    if g < 1:
        raise InvalidParameterError(f"FRAPP needs an amplification gamma >= 1, got gamma = {g}")
    is_exact = isinstance(g, Fraction)
    check_dense_size(N, N, exact=is_exact, what=f"frapp_matrix(N={N})")
    x = 1 / (g + N - 1)
    mat = np.full((N, N), x, dtype=object if is_exact else float)
    np.fill_diagonal(mat, g * x)
    return mat


def frapp(N: int | Sequence[Any], gamma: ScalarLike, k: int = 1, *, exact: bool | None = None) -> Mechanism:
    """FRAPP/PRAM with the γ-amplifying uniform perturbation, applied independently to ``k`` records.

    Each record takes one of ``N`` values and is perturbed by the matrix ``A`` of :func:`frapp_matrix`: kept with
    probability ``γx`` and replaced by each other value with probability ``x = 1/(γ + N − 1)`` (Agrawal & Haritsa,
    *A framework for high-accuracy privacy-preserving mining*, ICDE 2005, §4 eq. (5); the post-randomisation method
    PRAM of Gouweleeuw et al. 1998 with this transition matrix). ``A`` is *γ-amplifying* (Evfimievski, Gehrke &
    Srikant, PODS 2003, Def. 4): every row has ``max_u A[v, u] / min_u A[v, u] = γ``. On ``k`` records perturbed
    independently the mechanism is the Kronecker power ``A^{⊗k}``; datasets and outputs are the ``N^k`` tuples of
    values in lexicographic order, labelled ``"v1,v2,…"`` (``"v"`` when ``k = 1``).

    *Privacy.* For one record, ``max ln(A[v,u]/A[v,u'])`` over ``u ≠ u'`` is ``ln γ`` exactly (``γ > 1``), so FRAPP is
    ``ln(γ)``-locally DP (complete graph ``K_N``). For ``k`` records the entries factorise, ``A^{⊗k}[w, d] =
    Π_r A[w_r, d_r]``, so datasets differing in one record have ratios in ``{γ^{-1}, 1, γ}``: ``ln(γ)``-DP on the
    graph of tuples at Hamming distance 1, and ``k·ln(γ)``-DP on the complete graph.

    Parameters
    ----------
    N : int or sequence
        Number of values per record (``>= 2``, labelled ``'0'..'N-1'``) or the list of value labels (no commas).
    gamma : rational or float, >= 1
        Amplification ``γ = e^ε``; rational gives an exact mechanism.
    k : int
        Number of records (``>= 1``); the mechanism is ``N^k x N^k``.
    exact : bool, optional
        Force the mode.

    Raises
    ------
    InvalidParameterError
        ``N < 2``, ``k < 1``, ``γ < 1``, repeated labels or labels with commas.
    SizeLimitError
        ``N^{2k}`` entries beyond the dense limits (checked before allocating; an exact FRAPP on ``k >= 2`` records
        is kept factored, :attr:`~privgeom.Mechanism.factors`, and only its dense matrix is refused).

    Examples
    --------
    >>> M = frapp(["a", "b", "c"], 4, 1)
    >>> [str(v) for v in M.column("a")]
    ['2/3', '1/6', '1/6']
    >>> M2 = frapp(2, "3", 2)
    >>> [str(v) for v in M2.column("0,0")]
    ['9/16', '3/16', '3/16', '1/16']
    >>> from privgeom import epsilon
    >>> str(epsilon(M2, "complete").level.eps)
    'ln(9)'
    """
    values = _value_labels(N, name="N")
    if any("," in v for v in values):
        raise InvalidParameterError(f"FRAPP value labels cannot contain ',' (it separates records): {values}")
    k = parse_int(k, name="k", min=1)
    n = len(values)
    g = parse_scalar(gamma, name="gamma", exact=exact)
    is_exact = isinstance(g, Fraction)
    if k * math.log2(n) > math.log2(MAX_FRAPP_DATASETS):  # from the logarithm: n**k itself may be astronomically long
        digits = k * math.log10(n)
        entry_bytes = EXACT_ENTRY_BYTES if is_exact else FLOAT_ENTRY_BYTES
        raise SizeLimitError(
            f"frapp(N={n}, k={k}) has {n}^{k} ≈ 10^{digits:.1f} datasets: its dense {n}^{k} x {n}^{k} matrix would "
            f"need about 10^{2 * digits + math.log10(entry_bytes):.1f} bytes, which no computer's memory holds; "
            "refused before computing anything (choose a smaller N or k)"
        )
    size = n**k
    if not is_exact or k == 1 or size > MAX_FACTORED_DATASETS:
        check_dense_size(size, size, exact=is_exact, what=f"frapp(N={n}, k={k})")
    labels = [",".join(t) for t in itertools.product(values, repeat=k)]
    if is_exact:
        if g < 1:
            raise InvalidParameterError(f"FRAPP needs an amplification gamma >= 1, got gamma = {g}")
        x = 1 / (g + n - 1)
        one = _two_value_ints(n, Fraction(g * x), Fraction(x), values)
        return one if k == 1 else Mechanism._from_factors([one] * k, labels, labels)
    base = frapp_matrix(n, g, exact=is_exact)
    mat = base
    for _ in range(k - 1):
        mat = np.kron(mat, base)
    return Mechanism(mat, inputs=labels, outputs=labels, exact=is_exact)
