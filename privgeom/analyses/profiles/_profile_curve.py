"""The whole privacy profile ``ε ↦ δ(ε)`` of a finite mechanism, exactly, as an upper envelope of lines in ``e^ε``.

Write ``t = e^ε``. For one directed edge ``(D, D')`` with ``a = M[:, D]`` and ``b = M[:, D']``,
``Σ_ω (a_ω − t b_ω)₊ = max_S (P(S) − t Q(S))`` is a maximum of lines in ``t``, and the only events that matter are the
prefixes of the outputs sorted by the ratio ``a_ω / b_ω`` (decreasing; outputs with ``b_ω = 0`` first). So ``δ(t)`` is
the upper envelope of finitely many lines ``A − t B`` over all directed edges (``A = P(M(D) ∈ S)``,
``B = P(M(D') ∈ S)``): convex, non-increasing and piecewise linear in ``t``, with rational breakpoints in exact mode
(Balle, Barthe & Gaboardi 2018 for the hockey-stick form of δ). It reaches 0 exactly at ``t = e^{ε*}`` for the exact
ε* of :func:`privgeom.analyses.epsilon`, because ``δ(ε) = 0`` iff every ratio ``a_ω / b_ω`` is at most ``e^ε``.

Examples
--------
>>> from privgeom import randomized_response
>>> from privgeom.graphs._graphs import hamming_graph
>>> curve = delta_curve(randomized_response(2, "3/4"), hamming_graph(2))
>>> [(str(t), str(d)) for t, d in curve.breakpoints]
[('1', '1/2'), ('3', '0')]
"""

from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ..._core.errors import InvalidParameterError
from ..._core.numeric import ROUNDOFF, LogRational, Scalar, check_dense_size, parse_int
from ..._core.results import Result
from ...mechanisms._mechanism import Mechanism
from ..._core.level import LevelLike, PrivacyLevel, ScalarLike
from ._profile import _check_mechanism, format_level, _prepare
from ..._core.domain import RelationLike

__all__ = ["DeltaPiece", "DeltaCurve", "delta_curve", "DELTA_CURVE_METHODS"]

#: The routes of :func:`delta_curve` for an exact mechanism: ``"auto"`` (integer columns) or ``"fraction"`` (the
#: Fraction matrix, the route before integer storage; kept as a cross-check).
DELTA_CURVE_METHODS = ("auto", "fraction")


@dataclass(frozen=True)
class DeltaPiece(Result):
    """One linear piece ``δ = intercept − e^ε · slope`` of the δ(ε) curve, for ``e^ε`` in ``[start, end]``.

    ``intercept = P(M(D) ∈ S)`` and ``slope = P(M(D') ∈ S)`` for the witness ``edge = (D, D')`` and event
    ``outputs = S``; ``end`` is ``math.inf`` on the last piece.
    """

    start: Scalar
    end: Scalar
    intercept: Scalar
    slope: Scalar
    edge: tuple[str, str] | None
    outputs: tuple[str, ...]

    def summary(self) -> str:
        end = "∞)" if self.end == math.inf else f"{format_level(self.end)}]"
        where = f"e^ε ∈ [{format_level(self.start)}, {end}"
        if self.intercept == 0 and self.slope == 0:  # the last piece of a finite ε: δ is exactly 0 there
            return f"{where}: δ = 0"
        return (
            f"{where}: δ = {format_level(self.intercept)} − e^ε·{format_level(self.slope)}"
            + (f" (edge {self.edge[0]} → {self.edge[1]}, S = {{{', '.join(self.outputs)}}})" if self.edge else "")
        )


@dataclass(frozen=True)
class DeltaCurve(Result):
    """The whole privacy profile ``ε ↦ δ(ε)`` of a mechanism over a neighbour graph, exactly.

    ``δ`` is convex, non-increasing and piecewise linear *in* ``e^ε``: ``pieces`` lists the linear pieces on
    ``[1, ∞)`` and ``breakpoints`` their vertices ``(e^ε, δ)``, the first at ``e^ε = 1`` (``δ(0)`` = the largest
    total-variation distance between neighbours) and the last at ``e^ε = e^{ε*}`` where ``δ`` reaches 0 — ``ε*``
    is the exact ε of :func:`epsilon`. When ``ε*`` is infinite, ``δ`` decreases to ``delta_at_infinity > 0``.

    Attributes
    ----------
    exact : bool
        Pieces and breakpoints are Fractions (exact mechanism).
    pieces : tuple of DeltaPiece
    breakpoints : tuple of (e^ε, δ) pairs
    epsilon : LogRational or float
        ``ε*`` where ``δ`` first hits 0 (``math.inf`` if never).
    delta_at_infinity : Fraction or float
        ``lim δ(ε)`` as ``ε → ∞`` (0 unless ``ε*`` is infinite).
    eps_values : tuple
        The requested ε (LogRationals or floats).
    deltas : tuple
        ``δ`` at each requested ε: Fractions when ``values_exact``, floats otherwise.
    values_exact : bool
        True when every requested ``e^ε`` was rational and the mechanism exact.
    n_edges : int
    graph : str
    """

    exact: bool
    pieces: tuple[DeltaPiece, ...]
    breakpoints: tuple[tuple[Scalar, Scalar], ...]
    epsilon: LogRational | float
    delta_at_infinity: Scalar
    eps_values: tuple[LogRational | float, ...]
    deltas: tuple[Scalar, ...]
    values_exact: bool
    n_edges: int
    graph: str

    @property
    def eps(self) -> LogRational | float:
        """``ε*`` (the field :attr:`epsilon`): the smallest ε with ``δ(ε) = 0``, as :func:`~privgeom.epsilon`."""
        return self.epsilon

    def evaluate(self, eps: LevelLike | None = None, *, exp_eps: ScalarLike | None = None) -> Scalar:
        """``δ`` at one ε (same ``eps``/``exp_eps`` conventions as :func:`delta`), read off the pieces.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> from privgeom.graphs._graphs import hamming_graph
        >>> delta_curve(randomized_response(2, "3/4"), hamming_graph(2)).evaluate(exp_eps=2)
        Fraction(1, 4)
        """
        t = PrivacyLevel.parse(eps, exp_eps, allow_infinite=True).exp_eps
        return evaluate_pieces(self.pieces, t, self.exact)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        lines = [
            f"δ(ε) curve ({mode}) over {self.n_edges} edges of {self.graph!r}: {len(self.pieces)} linear pieces in e^ε; "
            f"δ(0) = {format_level(self.breakpoints[0][1]) if self.breakpoints else '0'}, δ = 0 from ε = {format_level(self.epsilon)}"
        ]
        if self.delta_at_infinity:
            lines.append(f"  δ never reaches 0: δ(ε) → {format_level(self.delta_at_infinity)} as ε → ∞")
        lines += [f"  {p.summary()}" for p in self.pieces]
        if self.eps_values:
            shown = ", ".join(f"δ({format_level(e)}) = {format_level(d)}" for e, d in list(zip(self.eps_values, self.deltas))[:6])
            lines.append(f"  {shown}{', …' if len(self.eps_values) > 6 else ''}")
        return "\n".join(lines)


def evaluate_pieces(pieces: Sequence[DeltaPiece], t: Scalar, exact: bool) -> Scalar:
    """δ at ``e^ε = t`` from the pieces of the envelope (exact when ``exact`` and ``t`` is a Fraction)."""
    if exact and isinstance(t, Fraction):
        zero: Scalar = Fraction(0)
    else:
        zero = 0.0
    if not pieces:
        return zero
    starts = [float(p.start) for p in pieces]
    k = max(0, bisect.bisect_right(starts, float(t)) - 1)
    # float keys may misplace t by one piece at a breakpoint; the envelope is a max, so take the best neighbour
    cands = pieces[max(0, k - 1) : k + 2]
    if isinstance(zero, Fraction):
        return max(max(p.intercept - t * p.slope for p in cands), zero)
    if math.isinf(t):
        return max(float(pieces[-1].intercept), 0.0)
    return max(max(float(p.intercept) - float(t) * float(p.slope) for p in cands), 0.0)


def _edge_lines(a: np.ndarray, b: np.ndarray, exact: bool) -> list[tuple[Scalar, Scalar, int]]:
    """Prefix lines ``(A_k, B_k, k)`` of one directed edge: outputs sorted by ``a/b`` (decreasing, ``b = 0`` first)."""
    idx = [w for w in range(len(a)) if a[w] > 0]
    inf_first = sorted(idx, key=lambda w: (b[w] != 0, -(a[w] / b[w]) if b[w] != 0 else 0, w))
    out: list[tuple[Scalar, Scalar, int]] = []
    A: Scalar = Fraction(0) if exact else 0.0
    B: Scalar = Fraction(0) if exact else 0.0
    for k, w in enumerate(inf_first, start=1):
        A, B = A + a[w], B + b[w]
        out.append((A, B, k))
    return out


def _int_order(na: list[int], nb: list[int]) -> list[int]:
    """Outputs with ``a_ω > 0`` sorted by ``a_ω / b_ω`` decreasing (``b_ω = 0`` first, ties by index), decided on the
    integer numerators of one column pair by cross-multiplication (the columns' denominators are common factors)."""

    def cmp(w: int, v: int) -> int:
        bw, bv = nb[w] != 0, nb[v] != 0
        if bw != bv:
            return 1 if bw else -1
        if bw:
            lhs, rhs = na[v] * nb[w], na[w] * nb[v]  # a_v/b_v vs a_w/b_w: w first when its ratio is larger
            if lhs != rhs:
                return -1 if lhs < rhs else 1
        return -1 if w < v else (1 if w > v else 0)

    return sorted((w for w in range(len(na)) if na[w] > 0), key=functools.cmp_to_key(cmp))


def _int_edge_lines(na: list[int], nb: list[int], sa: int, sb: int) -> list[tuple[int, int, int]]:
    """Prefix lines of one directed edge as integers over the common denominator ``L`` of all columns:
    ``(L·A_k, L·B_k, k)`` with ``sa = L / den_a``, ``sb = L / den_b``."""
    out: list[tuple[int, int, int]] = []
    A = B = 0
    for k, w in enumerate(_int_order(na, nb), start=1):
        A, B = A + na[w], B + nb[w]
        out.append((A * sa, B * sb, k))
    return out


def delta_curve(
    mechanism: Mechanism,
    graph: RelationLike,
    eps_values: Sequence[Any] | None = None,
    *,
    exp_eps_values: Sequence[Any] | None = None,
    n_points: int = 41,
    max_work: int | None = None,
    method: str = "auto",
) -> DeltaCurve:
    """The exact privacy profile ``ε ↦ δ(ε)`` of a finite mechanism over a neighbour graph.

    For each directed edge ``(D, D')`` with ``a = M[:, D]``, ``b = M[:, D']``, sort the outputs by ``a_ω / b_ω``
    (decreasing); the hockey-stick sum is ``max_k (A_k − t B_k)`` over the prefix sums ``A_k, B_k`` (and 0), so
    ``δ(t) = max`` of all these lines over all directed edges — their upper envelope, computed with the convex-hull
    trick in exact arithmetic. Breakpoints ``t = (A − A')/(B − B')`` are rational in exact mode.

    Exact mechanisms are computed on their integer columns (:attr:`~privgeom.Mechanism.int_columns`,
    ``docs/theory.md`` §7): outputs are sorted by cross-multiplying numerators, every line ``(A, B)`` is a pair of
    integers over one common denominator ``L`` of all columns (prefix sums of numerators times ``L / den``), so the
    hull tests are integer comparisons and a breakpoint is the ratio ``(L·A − L·A') / (L·B − L·B')``; Fractions are
    built only for the pieces returned.

    Parameters
    ----------
    mechanism : Mechanism
    graph : str, Domain, networkx.Graph or iterable of pairs
        Neighbour relation, resolved as in :func:`~privgeom.epsilon` (a string is a relation name).
    eps_values : sequence, optional
        ε values (floats, :class:`~privgeom.LogRational`, or rationals as in :func:`delta`) at which to report δ.
        Default: ``n_points`` evenly spaced floats from 0 to 1.25 ε* (or to 1.25 × the last breakpoint when ε* is
        infinite).
    exp_eps_values : sequence, optional
        ``e^ε`` values instead (rationals give exact δ).
    n_points : int
        Size of the default grid.
    max_work : int, optional
        Refuse a scan costlier than this before computing (see :func:`~privgeom.epsilon`).
    method : {"auto", "fraction"}
        ``"auto"``: integer columns (exact) or floats; ``"fraction"``: the same algorithm on the Fraction matrix
        (the route before integer storage, kept as a cross-check; same answer).

    Returns
    -------
    DeltaCurve

    Raises
    ------
    SizeLimitError
        When ``directed edges × outputs`` lines would not fit in memory, or the scan exceeds ``max_work``.

    Examples
    --------
    Randomized response on one bit, ``p = 3/4``: ``δ(ε) = 3/4 − e^ε/4`` for ``e^ε ≤ 3`` and 0 after.

    >>> from privgeom import randomized_response, LogRational
    >>> M = randomized_response(1, "3/4")
    >>> c = delta_curve(M, [("1", "0")], [LogRational(1), LogRational(2), 1.0])
    >>> c.breakpoints
    ((Fraction(1, 1), Fraction(1, 2)), (Fraction(3, 1), Fraction(0, 1)))
    >>> c.epsilon, c.deltas[:2], round(c.deltas[2], 6), c.values_exact
    (LogRational(ratio=Fraction(3, 1)), (0.5, 0.25), 0.07043, False)
    """
    _check_mechanism(mechanism)
    n_points = parse_int(n_points, name="n_points", min=2)
    if eps_values is not None and exp_eps_values is not None:
        raise InvalidParameterError("give at most one of eps_values= and exp_eps_values=")
    if method not in DELTA_CURVE_METHODS:
        raise InvalidParameterError(f"unknown method {method!r}; use one of {', '.join(DELTA_CURVE_METHODS)}")
    fraction = method == "fraction"
    P = _prepare(mechanism, graph, max_work=max_work, what="the δ(ε) curve", fraction=fraction)
    M, exact, I, J, gname, n_edges = P.M, P.exact, P.I, P.J, P.graph, P.n_edges
    check_dense_size(
        len(P.reps), M.n_outputs + 1, exact=exact, what="the δ(ε) curve (classes of directed edges x outputs lines)"
    )
    integer = exact and not fraction
    X: Any = None
    if integer:  # Python-int numerator columns, read once per column used; L = lcm of their denominators
        C = M.int_columns
        cols_used = sorted({int(c) for d in P.reps for c in (I[int(d)], J[int(d)])})
        num_cols = {c: [int(v) for v in C.numerators[:, c].tolist()] for c in cols_used}
        dens = {c: int(C.denominators[c]) for c in cols_used}
        L = math.lcm(*set(dens.values())) if dens else 1
        scale = {c: L // dv for c, dv in dens.items()}
    else:
        X = M.matrix if exact else np.array(P.X.tolist(), dtype=object)  # Python floats, not numpy scalars
    zero: Scalar = 0 if integer else (Fraction(0) if exact else 0.0)

    # all candidate lines (A, B) with a witness (directed edge, prefix length); keep the best A for each B.
    # Edges of one class have the same lines, so one edge per class suffices (its first, for ordered witnesses).
    best_for_B: dict[Any, tuple[Any, int, int]] = {zero: (zero, -1, 0)}
    for d in (int(r) for r in P.reps):
        i, j = int(I[d]), int(J[d])
        cand = (_int_edge_lines(num_cols[i], num_cols[j], scale[i], scale[j]) if integer
                else _edge_lines(X[:, i], X[:, j], exact))
        for A, B, k in cand:
            cur = best_for_B.get(B)
            if cur is None or A > cur[0]:
                best_for_B[B] = (A, d, k)
    lines = sorted(((A, B, d, k) for B, (A, d, k) in best_for_B.items()), key=lambda r: -r[1])
    # never a float in exact mode (Fraction + 0.0 is a float); integers: the hull tests compare integers over L
    tol: Scalar = 0 if integer else (Fraction(0) if exact else ROUNDOFF)

    def x(l1: tuple, l2: tuple) -> Scalar:  # t where l1 (steeper) and l2 cross (L cancels for integer lines)
        if integer:
            return Fraction(l1[0] - l2[0], l1[1] - l2[1])
        return (l1[0] - l2[0]) / (l1[1] - l2[1])

    hull: list[tuple] = []
    for line in lines:
        while hull and line[0] >= hull[-1][0] - tol and line[1] <= hull[-1][1]:
            hull.pop()  # dominated everywhere on t >= 0: no larger intercept and no smaller decrease
        while len(hull) >= 2:
            l1, l2 = hull[-2], hull[-1]
            # l2 is useless if l1 and line cross before (or where) l1 and l2 do
            if (l1[0] - line[0]) * (l1[1] - l2[1]) <= (l1[0] - l2[0]) * (l1[1] - line[1]) + tol:
                hull.pop()
            else:
                break
        hull.append(line)
    one: Scalar = Fraction(1) if exact else 1.0
    # drop lines that only matter for e^ε <= 1 (float mode: pieces shorter than rounding are not pieces)
    while len(hull) >= 2 and x(hull[0], hull[1]) <= one + tol:
        hull.pop(0)

    pieces: list[DeltaPiece] = []
    breakpoints: list[tuple[Scalar, Scalar]] = []
    start: Scalar = one
    for n, (A, B, d, k) in enumerate(hull):
        end: Scalar = x(hull[n], hull[n + 1]) if n + 1 < len(hull) else math.inf
        if d >= 0:
            if integer:
                order = _int_order(num_cols[int(I[d])], num_cols[int(J[d])])
            else:
                a, b = X[:, I[d]], X[:, J[d]]
                order = [w for w in range(M.n_outputs) if a[w] > 0]
                order.sort(key=lambda w: (b[w] != 0, -(a[w] / b[w]) if b[w] != 0 else 0, w))
            S = tuple(M.outputs[w] for w in sorted(order[:k]))
            edge: tuple[str, str] | None = (M.inputs[int(I[d])], M.inputs[int(J[d])])
        else:
            S, edge = (), None
        if integer:
            A, B = Fraction(A, L), Fraction(B, L)
        val = A - start * B
        breakpoints.append((start, val if exact else max(float(val), 0.0)))
        pieces.append(DeltaPiece(start, end, A, B, edge, S))
        start = end
    last_A, last_B = pieces[-1].intercept, pieces[-1].slope
    if last_B == 0 and last_A == 0:
        eps_star: LogRational | float = (
            LogRational(Fraction(pieces[-1].start)) if exact else math.log(float(pieces[-1].start))
        )
        at_inf: Scalar = Fraction(0) if exact else 0.0
    else:
        eps_star, at_inf = math.inf, last_A
    # requested points
    pts: list[tuple[Scalar, LogRational | float]] = []
    if exp_eps_values is not None:
        levels = [PrivacyLevel.parse(exp_eps=v, allow_infinite=True) for v in exp_eps_values]
        pts = [(lv.exp_eps, lv.eps) for lv in levels]
    elif eps_values is not None:
        levels = [PrivacyLevel.parse(eps=v, allow_infinite=True) for v in eps_values]
        pts = [(lv.exp_eps, lv.eps) for lv in levels]
    else:
        finite_t = [float(p.start) for p in pieces]
        top = math.log(max(finite_t)) if finite_t else 1.0
        top = 1.25 * (top if top > 0 else 1.0)
        pts = [(math.exp(top * i / (n_points - 1)), top * i / (n_points - 1)) for i in range(n_points)]
    values_exact = exact and all(isinstance(t, Fraction) for t, _ in pts)
    deltas = tuple(evaluate_pieces(pieces, t if values_exact else float(t), values_exact) for t, _ in pts)
    return DeltaCurve(
        exact,
        tuple(pieces),
        tuple(breakpoints),
        eps_star,
        at_inf,
        tuple(e for _, e in pts),
        deltas,
        values_exact,
        n_edges,
        gname,
    )
