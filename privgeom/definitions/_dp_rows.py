"""The row test of ε-differential privacy: the worst violated edge inequality ``x_i ≤ e^ε x_j`` of a mechanism.

:class:`~privgeom.definitions.DifferentialPrivacy` decides membership row by row (``docs/theory.md`` §7, "ε-DP and
its relatives as cones": DP is its own closure and its row cone decides it). The directed edges are two index arrays
``I_all[e] → J_all[e]``; each kernel returns the :class:`Violation` (row, directed edge) that the certificate names,
or None when every row satisfies every edge inequality:

* :func:`violation_int` — exact mode on the mechanism's integer columns, by cross-multiplication (int64 where the
  bound fits, Python integers otherwise);
* :func:`factored_violation` — an exact product of one-bit factors on the Hamming graph, from the factors alone
  (:func:`factored_route` says when it applies);
* :func:`violation` — Fractions or floats (the reference route, and float mode within ``atol``);

and :func:`edge_certificate` turns the violation into the :class:`~privgeom.results.RowCertificate` of the
violated inequality, re-checked on the row.

Examples
--------
>>> from fractions import Fraction
>>> I, J = np.array([0, 1]), np.array([1, 0])                 # one edge, both directions
>>> violation(I, J, Fraction(3), np.array([[Fraction(1, 5), Fraction(4, 5)]], dtype=object), True, 0.0)
Violation(row=0, edge=1)
>>> violation_int(I, J, Fraction(3), np.array([[1, 4]]), np.array([5, 5])) == (0, 1)   # 4/5 > 3 · 1/5
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from .._core.arrays import readonly
from .._core.columns import fits_int64, max_abs_int, widen
from .._core.numbers import Scalar
from .._core.limits import current_limit
from .._core.numbers import number_text
from ..mechanisms import Mechanism
from ._base import RowCertificate

__all__ = ["Violation", "violation", "violation_int", "factored_route", "factored_violation", "edge_certificate"]


class Violation(NamedTuple):
    """A violated edge inequality: row ``row`` of the mechanism and directed edge ``edge`` (an index into the
    directed edges ``I_all[e] → J_all[e]``)."""

    row: int
    edge: int


def violation_int(
    I_all: np.ndarray, J_all: np.ndarray, ratio: Fraction, num: np.ndarray, den: np.ndarray
) -> Violation | None:
    """:func:`violation` on integers (exact mode): ``x = num[:, i] / den[i]``, ``e^ε = ratio = p/q``, directed edges
    ``I_all[e] → J_all[e]``.

    ``x_i ≤ (p/q) x_j`` ⟺ ``s = p · num[:, j] · den[i] − q · num[:, i] · den[j] ≥ 0`` (cross-multiplication by
    the positive ``q den[i] den[j]``), evaluated for every row and directed edge as ``int64`` arrays when the
    bound ``max(p, q) · max num · max den`` fits (Python integers otherwise), in blocks of edges. The worst
    violation is the smallest float slack ``s / (q den[i] den[j])`` (ties: first row, then first edge), as the
    Fraction route (:func:`violation`) chooses it; violations too small for floats fall back to the first one.
    """
    if len(I_all) == 0:
        return None
    t = Fraction(ratio)
    p, q = t.numerator, t.denominator
    if not fits_int64(2 * max(p, q), max_abs_int(num) + 1, max_abs_int(den)):
        num, den = widen(num, den)
    n_rows = num.shape[0]
    T = np.ascontiguousarray(num.T)  # one input per row: gathering the two sides of an edge is contiguous
    same_den = bool((den == den[0]).all())
    step = max(1, (1 << 20) // max(1, n_rows))
    best: tuple[float, int, int] | None = None
    first: tuple[int, int] | None = None
    for start in range(0, len(I_all), step):
        I, J = I_all[start : start + step], J_all[start : start + step]
        if same_den:  # one common denominator (randomized response, k-RR, …): it cancels
            s = T[J] * p - T[I] * q
        else:
            s = T[J] * (den[I] * p)[:, None] - T[I] * (den[J] * q)[:, None]
        bad = s < 0
        if not bad.any():
            continue
        e, o = (int(v) for v in np.argwhere(bad.T)[0])
        if first is None or (o, e + start) < first:
            first = (o, e + start)
        dd = den[I] * den[J] * q if not same_den else np.full(len(I), den[0] * q, dtype=den.dtype)
        scale = dd.astype(float) if dd.dtype != object else np.array([float(v) for v in dd])
        sf = np.where(bad, (s if s.dtype != object else s.astype(float)) / scale[:, None], 0.0).T
        oo, ee = np.unravel_index(int(np.argmin(sf)), sf.shape)
        if sf[oo, ee] < 0:
            cand = (float(sf[oo, ee]), int(oo), int(ee) + start)
            if best is None or cand < best:
                best = cand
    if first is None:
        return None
    return Violation(best[1], best[2]) if best is not None else Violation(*first)


def factored_route(I_all: np.ndarray, J_all: np.ndarray, M: Mechanism) -> bool:
    """True for an exact mechanism kept factored into one-bit factors whose dense matrix is beyond the size limit,
    on the Hamming graph of its bit strings (every edge flips one bit, ``k 2^{k−1}`` edges)."""
    F = M.factors
    if F is None or not M.exact or M.domain.kind != "bits" or not all(f.shape == (2, 2) for f in F):
        return False
    if M.n_inputs * M.n_outputs <= current_limit("exact_entries"):
        return False
    k = len(F)
    x = I_all ^ J_all
    return len(I_all) == 2 * k * 2 ** (k - 1) and bool(((x & (x - 1)) == 0).all() and (x > 0).all())


def factored_violation(I_all: np.ndarray, J_all: np.ndarray, ratio: Fraction, M: Mechanism) -> Violation | None:
    """A violated edge inequality of ``M = F_1 ⊗ … ⊗ F_k`` on the Hamming graph, from the factors, or None.

    Neighbours differing in bit ``f`` have entries ``F_f[w, a] R`` and ``F_f[w, b] R`` with ``R > 0`` for a
    suitable choice of the other outputs (every column of a factor has a positive entry), so the product
    violates ``x_D ≤ e^ε x_{D'}`` iff some factor violates ``F_f[w, a] ≤ e^ε F_f[w, b]`` (``docs/theory.md`` §7,
    "Factored mechanisms"): checked on the factors' integers, and the row of the product is the certificate.
    """
    F = M.factors or ()
    t = Fraction(ratio)
    p, q = t.numerator, t.denominator
    k = len(F)
    firsts = [next(w for w in range(2) if G.int_columns.numerators[w, 0] > 0) for G in F]
    for f in reversed(range(k)):  # the last bit first, as the first edges of the scan
        C = F[f].int_columns
        n, d = C.numerators.astype(object), C.denominators.astype(object)
        for w in range(2):
            for a, b in ((0, 1), (1, 0)):
                if q * n[w, a] * d[b] > p * n[w, b] * d[a]:
                    bit = 1 << (k - 1 - f)
                    o = sum(firsts[g] << (k - 1 - g) for g in range(k) if g != f) + (w << (k - 1 - f))
                    i, j = (bit if a else 0), (bit if b else 0)
                    e = int(np.flatnonzero((I_all == i) & (J_all == j))[0])
                    return Violation(o, e)
    return None


def violation(
    I_all: np.ndarray, J_all: np.ndarray, ratio: Scalar, X: np.ndarray, exact: bool, atol: float
) -> Violation | None:
    """The row and directed edge of the worst violated edge inequality, or None (Fractions or floats; the exact
    default is :func:`violation_int`)."""
    if len(I_all) == 0:
        return None
    c: Any = ratio if exact else float(ratio)
    slack = X[:, J_all] * c - X[:, I_all]
    bad = slack < 0 if exact else slack < -atol
    if not bad.any():
        return None
    sf = np.where(bad, slack, 0).astype(float)
    oo, ee = np.unravel_index(int(np.argmin(sf)), sf.shape)
    o, e = int(oo), int(ee)
    if not bad[o, e]:  # exact violations too small for floats: take the first one
        o, e = (int(v) for v in np.argwhere(bad)[0])
    return Violation(o, e)


def edge_certificate(
    I_all: np.ndarray,
    J_all: np.ndarray,
    ratio: Scalar,
    labels: tuple[str, ...],
    x: np.ndarray,
    o: int,
    output: str,
    e: int,
    exact: bool,
    atol: float,
) -> RowCertificate:
    """The certificate of row ``x`` (output ``o``, ``output``) violating directed edge ``e``: the normal
    ``e^ε e_j − e_i`` with ``normal · x = e^ε x_j − x_i < 0`` (checked here, exactly or below ``−atol``), the
    inequality as text ``x[D_i] ≤ e^ε·x[D_j]`` and the edge ``(D_i, D_j)``.

    Examples
    --------
    >>> I, J = np.array([0, 1]), np.array([1, 0])
    >>> x = np.array([Fraction(1, 5), Fraction(4, 5)], dtype=object)
    >>> cert = edge_certificate(I, J, Fraction(3), ("a", "b"), x, 0, "o", 1, True, 0.0)
    >>> cert.inequality, cert.value, cert.edge
    ('x[b] ≤ 3·x[a]', Fraction(-1, 5), ('b', 'a'))
    """
    i, j = int(I_all[e]), int(J_all[e])
    n = len(labels)
    c: Any = ratio if exact else float(ratio)
    normal = np.array([Fraction(0)] * n, dtype=object) if exact else np.zeros(n)
    normal[i], normal[j] = -1, c
    value = c * x[j] - x[i]
    assert (value < 0) if exact else (value < -atol)
    Di, Dj = labels[i], labels[j]
    cs = number_text(c if exact else float(c))
    return RowCertificate(
        row=o,
        output=output,
        normal=readonly(normal),
        value=value,
        inequality=f"x[{Di}] ≤ {cs}·x[{Dj}]",
        label=f"{Di}->{Dj}",
        edge=(Di, Dj),
    )
