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
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ..._core.errors import InvalidParameterError
from ..._core.arrays import check_dense_size, parse_int
from ..._core.numbers import LogRational, Scalar
from ..._core.results import Result
from ...mechanisms._mechanism import Mechanism
from ..._core.level import LevelLike, PrivacyLevel, ScalarLike, eps_of
from ..._core.numbers import level_text as format_level
from ._scan import _Prepared, _check_mechanism, _prepare
from ..._core.domain import RelationLike

__all__ = ["DeltaPiece", "DeltaCurve", "delta_curve", "DELTA_CURVE_METHODS"]


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
        return f"{where}: δ = {format_level(self.intercept)} − e^ε·{format_level(self.slope)}" + (
            f" (edge {self.edge[0]} → {self.edge[1]}, S = {{{', '.join(self.outputs)}}})" if self.edge else ""
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
    level : PrivacyLevel
        ``ε*`` where ``δ`` first hits 0 (infinite, ``e^ε = inf``, if never): the exact ε of :func:`epsilon`.
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
    level: PrivacyLevel
    delta_at_infinity: Scalar
    eps_values: tuple[LogRational | float, ...]
    deltas: tuple[Scalar, ...]
    values_exact: bool
    n_edges: int
    graph: str

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
            f"δ(0) = {format_level(self.breakpoints[0][1]) if self.breakpoints else '0'}, δ = 0 from ε = {format_level(self.level.eps)}"
        ]
        if self.delta_at_infinity:
            lines.append(f"  δ never reaches 0: δ(ε) → {format_level(self.delta_at_infinity)} as ε → ∞")
        lines += [f"  {p.summary()}" for p in self.pieces]
        if self.eps_values:
            shown = ", ".join(
                f"δ({format_level(e)}) = {format_level(d)}" for e, d in list(zip(self.eps_values, self.deltas))[:6]
            )
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


def _ratio_order(a: np.ndarray, b: np.ndarray) -> list[int]:
    """Outputs with ``a_ω > 0`` sorted by ``a_ω / b_ω`` decreasing (``b_ω = 0`` first, ties by index)."""
    idx = [w for w in range(len(a)) if a[w] > 0]
    return sorted(idx, key=lambda w: (b[w] != 0, -(a[w] / b[w]) if b[w] != 0 else 0, w))


def _prefix_sums(a: np.ndarray, b: np.ndarray, zero: Scalar) -> tuple[list[Scalar], list[Scalar]]:
    """Prefix lines of one directed edge, in :func:`_ratio_order`: ``(A_1 … A_m, B_1 … B_m)`` (line ``k`` is
    ``A_k − t B_k``, the event of the first ``k`` outputs)."""
    As: list[Scalar] = []
    Bs: list[Scalar] = []
    A = B = zero
    for w in _ratio_order(a, b):
        A, B = A + a[w], B + b[w]
        As.append(A)
        Bs.append(B)
    return As, Bs


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


def _int_prefix_sums(na: list[int], nb: list[int], sa: int, sb: int) -> tuple[list[int], list[int]]:
    """Prefix lines of one directed edge as integers over the common denominator ``L`` of all columns:
    ``(L·A_k)_k, (L·B_k)_k`` with ``sa = L / den_a``, ``sb = L / den_b``."""
    As: list[int] = []
    Bs: list[int] = []
    A = B = 0
    for w in _int_order(na, nb):
        A, B = A + na[w], B + nb[w]
        As.append(A * sa)
        Bs.append(B * sb)
    return As, Bs


class _Line(NamedTuple):
    """A candidate line ``δ = A − t·B`` of the envelope with its witness."""

    A: Any  #: intercept ``P(M(D) ∈ S)`` (times ``L`` on the integer route)
    B: Any  #: slope ``P(M(D') ∈ S)`` (times ``L`` on the integer route)
    d: int  #: the directed edge (index into ``P.I``, ``P.J``); -1 for the zero line
    k: int  #: ``S`` is the first ``k`` outputs in the edge's ratio order


@dataclass(frozen=True)
class _CurveLines:
    """What a route of :func:`delta_curve` hands to the envelope: the best line for each slope, steepest first."""

    P: _Prepared
    lines: list[_Line]
    #: the integer route's common denominator ``L`` (its lines are ``(L·A, L·B)``); None on the other routes
    denominator: int | None
    #: ``order(d)``: the outputs of directed edge ``d`` in its ratio order (its events are the prefixes)
    order: Callable[[int], list[int]]


def _best_lines(P: _Prepared, sums: Callable[[int, int], tuple[list[Any], list[Any]]], zero: Scalar) -> list[_Line]:
    """All prefix lines of one directed edge per class, the largest intercept kept for each slope (the others are
    below it everywhere on ``t >= 0``), sorted by decreasing slope. Edges of one class have the same lines, so one
    edge per class suffices (its first, for ordered witnesses)."""
    best_for_B: dict[Any, tuple[Any, int, int]] = {zero: (zero, -1, 0)}
    for d in (int(r) for r in P.reps):
        As, Bs = sums(int(P.I[d]), int(P.J[d]))
        for k, (A, B) in enumerate(zip(As, Bs), start=1):
            cur = best_for_B.get(B)
            if cur is None or A > cur[0]:
                best_for_B[B] = (A, d, k)
    return sorted((_Line(A, B, d, k) for B, (A, d, k) in best_for_B.items()), key=lambda line: -line.B)


def _integer_lines(P: _Prepared) -> _CurveLines:
    """Lines of an exact mechanism on its integer columns (:attr:`~privgeom.Mechanism.int_columns`): Python-int
    numerator columns read once per column used, every line a pair of integers over ``L``, the lcm of their
    denominators (``docs/theory.md`` §7)."""
    C = P.M.int_columns
    cols_used = sorted({int(c) for d in P.reps for c in (P.I[int(d)], P.J[int(d)])})
    num_cols = {c: [int(v) for v in C.numerators[:, c].tolist()] for c in cols_used}
    dens = {c: int(C.denominators[c]) for c in cols_used}
    L = math.lcm(*set(dens.values())) if dens else 1
    scale = {c: L // dv for c, dv in dens.items()}
    lines = _best_lines(P, lambda i, j: _int_prefix_sums(num_cols[i], num_cols[j], scale[i], scale[j]), 0)
    return _CurveLines(
        P=P, lines=lines, denominator=L, order=lambda d: _int_order(num_cols[int(P.I[d])], num_cols[int(P.J[d])])
    )


def _object_lines(P: _Prepared) -> _CurveLines:
    """Lines of the Fraction matrix (exact mode) or of Python floats (float mode)."""
    X = P.M.matrix if P.exact else np.array(P.X.tolist(), dtype=object)  # Python floats, not numpy scalars
    zero: Scalar = Fraction(0) if P.exact else 0.0
    lines = _best_lines(P, lambda i, j: _prefix_sums(X[:, i], X[:, j], zero), zero)
    return _CurveLines(P=P, lines=lines, denominator=None, order=lambda d: _ratio_order(X[:, P.I[d]], X[:, P.J[d]]))


def _prepare_curve(mechanism: Mechanism, graph: RelationLike, max_work: int | None, fraction: bool) -> _Prepared:
    """The scan of :func:`delta_curve`, refused when ``classes × (outputs + 1)`` lines would not fit in memory."""
    P = _prepare(mechanism, graph, max_work=max_work, what="the δ(ε) curve", fraction=fraction)
    check_dense_size(
        len(P.reps), P.M.n_outputs + 1, exact=P.exact, what="the δ(ε) curve (classes of directed edges x outputs lines)"
    )
    return P


def _curve_route_auto(mechanism: Mechanism, graph: RelationLike, max_work: int | None) -> _CurveLines:
    """``method="auto"``: integer columns for an exact mechanism (hull tests are integer comparisons, Fractions built
    only for the pieces returned), Python floats otherwise. Costs :func:`profile_work` for the scan plus sorting
    ``outputs`` per class of directed edges. Source: the hockey-stick form of δ (Balle, Barthe & Gaboardi 2018,
    Thm. 1) as an upper envelope of lines in ``e^ε``, on integer columns (``docs/theory.md`` §7)."""
    P = _prepare_curve(mechanism, graph, max_work, fraction=False)
    return _integer_lines(P) if P.exact else _object_lines(P)


def _curve_route_fraction(mechanism: Mechanism, graph: RelationLike, max_work: int | None) -> _CurveLines:
    """``method="fraction"``: the same algorithm on the Fraction matrix (the route before integer storage, kept as
    a cross-check; same answer, slower: every hull test is a Fraction product). Same source as ``"auto"``."""
    return _object_lines(_prepare_curve(mechanism, graph, max_work, fraction=True))


#: The routes of :func:`delta_curve` by ``method=`` name (they differ in the arithmetic of the lines).
_DELTA_CURVE_ROUTES: dict[str, Callable[[Mechanism, RelationLike, int | None], _CurveLines]] = {
    "auto": _curve_route_auto,
    "fraction": _curve_route_fraction,
}
#: Methods of :func:`delta_curve`: the names of its routes.
DELTA_CURVE_METHODS = tuple(_DELTA_CURVE_ROUTES)


def delta_curve(
    mechanism: Mechanism,
    graph: RelationLike,
    eps_values: Sequence[LevelLike] | None = None,
    *,
    exp_eps_values: Sequence[ScalarLike] | None = None,
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
        The route (``DELTA_CURVE_METHODS``, each a private function with its own docstring). ``"auto"``:
        integer columns (exact) or floats; ``"fraction"``: the same algorithm on the Fraction matrix (the route
        before integer storage, kept as a cross-check; same answer).

    Returns
    -------
    DeltaCurve
        The pieces and breakpoints, ``level`` = ε* (where δ reaches 0), and δ at the requested ε.

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
    >>> c.level.eps, c.deltas[:2], round(c.deltas[2], 6), c.values_exact
    (LogRational(ratio=Fraction(3, 1)), (0.5, 0.25), 0.07043, False)
    """
    _check_mechanism(mechanism)
    n_points = parse_int(n_points, name="n_points", min=2)
    if eps_values is not None and exp_eps_values is not None:
        raise InvalidParameterError("give at most one of eps_values= and exp_eps_values=")
    route = _DELTA_CURVE_ROUTES.get(method)
    if route is None:
        raise InvalidParameterError(f"unknown method {method!r}; use one of {', '.join(DELTA_CURVE_METHODS)}")
    lines = route(mechanism, graph, max_work)
    pieces, breakpoints = _envelope(lines)
    exact = lines.P.exact
    levels = _requested_levels(pieces, eps_values, exp_eps_values, n_points)
    values_exact = exact and all(isinstance(lv.exp_eps, Fraction) for lv in levels)
    deltas = tuple(
        evaluate_pieces(pieces, lv.exp_eps if values_exact else float(lv.exp_eps), values_exact) for lv in levels
    )
    last = pieces[-1]
    done = last.intercept == 0 and last.slope == 0  # δ reaches 0 at the last breakpoint: ε* = ln(its e^ε)
    return DeltaCurve(
        exact=exact,
        pieces=tuple(pieces),
        breakpoints=tuple(breakpoints),
        level=PrivacyLevel.from_exp_eps(last.start)
        if done
        else PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True),
        delta_at_infinity=(Fraction(0) if exact else 0.0) if done else last.intercept,
        eps_values=tuple(lv.eps for lv in levels),
        deltas=deltas,
        values_exact=values_exact,
        n_edges=lines.P.n_edges,
        graph=lines.P.graph,
    )


#: Shewchuk's error bound for the float orientation test (Shewchuk 1997, "Adaptive precision floating-point
#: arithmetic and fast robust geometric predicates", ``ccwerrboundA = (3 + 16u)u`` with ``u = 2^-53``): when
#: ``|det| > _ORIENT_ERRBOUND · (|detleft| + |detright|)`` the float determinant has the sign of the exact one.
_ORIENT_ERRBOUND = (3.0 + 16.0 * 2.0**-53) * 2.0**-53
#: Below this magnitude the float products may be subnormal, where the bound above does not hold: decide exactly.
_ORIENT_FLOOR = 1e-290


def _hull_pops(l1: _Line, l2: _Line, line: _Line, exact: bool) -> bool:
    """Whether ``l2`` is useless once ``line`` follows it (slopes ``l1.B > l2.B > line.B``): ``l1`` and ``line``
    cross at or before ``l1`` and ``l2`` do, i.e. ``(A1 − A3)(B1 − B2) <= (A1 − A2)(B1 − B3)``.

    Exact (Fraction or integer) lines compare exactly. Float lines are read as the exact binary rationals they are:
    the float determinant decides when it clears Shewchuk's forward error bound (an orientation test, Shewchuk 1997,
    §4), else the determinant is evaluated exactly on the Fractions of the floats. The answer is therefore the
    exact upper envelope of the float lines, whatever their scale (an absolute tolerance would merge lines whose
    differences are small because the probabilities are, and drop pieces of the curve)."""
    if exact:
        return bool((l1.A - line.A) * (l1.B - l2.B) <= (l1.A - l2.A) * (l1.B - line.B))
    left = (l1.A - line.A) * (l1.B - l2.B)
    right = (l1.A - l2.A) * (l1.B - line.B)
    det, mag = left - right, abs(left) + abs(right)
    if mag > _ORIENT_FLOOR and not math.isinf(mag):
        bound = _ORIENT_ERRBOUND * mag
        if det > bound:
            return False
        if det < -bound:
            return True
    F1A, F1B, F2A, F2B = Fraction(l1.A), Fraction(l1.B), Fraction(l2.A), Fraction(l2.B)
    F3A, F3B = Fraction(line.A), Fraction(line.B)
    return (F1A - F3A) * (F1B - F2B) <= (F1A - F2A) * (F1B - F3B)


def _envelope(c: _CurveLines) -> tuple[list[DeltaPiece], list[tuple[Scalar, Scalar]]]:
    """The upper envelope of the lines on ``t = e^ε >= 1`` (convex-hull trick) as pieces with their witnesses, and
    its breakpoints ``(e^ε, δ)``.

    Every hull decision is exact: integers or Fractions in exact mode, and in float mode an orientation test
    that is exact on the float lines (:func:`_hull_pops`); float breakpoints are the correctly rounded crossings
    of the float lines, so they never decrease along the hull, and a piece whose two crossings round to the same
    float (it holds no float ``e^ε``) is left out."""
    P, integer = c.P, c.denominator is not None
    exact = P.exact or integer

    def x(l1: _Line, l2: _Line) -> Scalar:  # t where l1 (steeper) and l2 cross (L cancels for integer lines)
        if integer:
            return Fraction(l1.A - l2.A, l1.B - l2.B)
        if exact:
            return (l1.A - l2.A) / (l1.B - l2.B)
        return float((Fraction(l1.A) - Fraction(l2.A)) / (Fraction(l1.B) - Fraction(l2.B)))

    hull: list[_Line] = []
    for line in c.lines:  # slopes strictly decreasing (one line per slope)
        while hull and line.A >= hull[-1].A:
            hull.pop()  # dominated everywhere on t >= 0: no larger intercept and a larger decrease
        while len(hull) >= 2 and _hull_pops(hull[-2], hull[-1], line, exact):
            hull.pop()
        hull.append(line)
    one: Scalar = Fraction(1) if P.exact else 1.0

    def crosses_by_one(l1: _Line, l2: _Line) -> bool:  # x(l1, l2) <= 1, i.e. A1 − A2 <= B1 − B2 (B1 > B2), exactly
        if exact:
            return bool(l1.A - l2.A <= l1.B - l2.B)
        return Fraction(l1.A) - Fraction(l2.A) <= Fraction(l1.B) - Fraction(l2.B)

    # drop lines that only matter for e^ε <= 1
    while len(hull) >= 2 and crosses_by_one(hull[0], hull[1]):
        hull.pop(0)

    M = P.M
    pieces: list[DeltaPiece] = []
    breakpoints: list[tuple[Scalar, Scalar]] = []
    start: Scalar = one
    for n, line in enumerate(hull):
        end: Scalar = x(hull[n], hull[n + 1]) if n + 1 < len(hull) else math.inf
        if not exact and end == start:
            continue  # a float piece whose exact extent rounds to one point holds no float e^ε: not a piece
        S: tuple[str, ...] = ()
        edge: tuple[str, str] | None = None
        if line.d >= 0:
            S = tuple(M.outputs[w] for w in sorted(c.order(line.d)[: line.k]))
            edge = P.label(line.d)
        A, B = (Fraction(line.A, c.denominator), Fraction(line.B, c.denominator)) if c.denominator else (line.A, line.B)
        val = A - start * B
        breakpoints.append((start, val if exact else max(float(val), 0.0)))
        pieces.append(DeltaPiece(start=start, end=end, intercept=A, slope=B, edge=edge, outputs=S))
        start = end
    return pieces, breakpoints


def _requested_levels(
    pieces: list[DeltaPiece],
    eps_values: Sequence[LevelLike] | None,
    exp_eps_values: Sequence[ScalarLike] | None,
    n_points: int,
) -> list[PrivacyLevel]:
    """The levels at which :func:`delta_curve` reports δ: those given, or ``n_points`` evenly spaced float ε from 0
    to 1.25 × the ε of the last breakpoint."""
    if exp_eps_values is not None:
        return [PrivacyLevel.parse(exp_eps=v, allow_infinite=True) for v in exp_eps_values]
    if eps_values is not None:
        return [PrivacyLevel.parse(eps=v, allow_infinite=True) for v in eps_values]
    top = float(eps_of(max(p.start for p in pieces)))
    top = 1.25 * (top if top > 0 else 1.0)
    return [PrivacyLevel.from_eps(top * i / (n_points - 1), allow_infinite=True) for i in range(n_points)]
