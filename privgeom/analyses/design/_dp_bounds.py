"""The DP sandwich of a privacy definition: the ε-DP levels just inside and just outside it (``docs/theory.md`` §13).

For a definition with row cone ``R`` and a connected neighbour graph ``G``, write ``C_t`` for the ε-DP row cone over
``G`` at ``e^ε = t`` (``x_i ≤ t x_j`` on every edge, ``x ≥ 0``). ``C_t`` grows with ``t``.

* ``outer`` — the smallest ``t`` with ``R ⊆ C_t`` (every member is ``ln t``-DP): ``max r_i / r_j`` over the extreme
  rays ``r`` of ``R`` and the directed edges ``(i, j)`` (``∞`` when some ray has ``r_j = 0 < r_i``). Attained by the
  ray and edge of the maximum; a two-output member with that ray as a row is returned.
* ``inner`` — the largest ``t`` with ``C_t ⊆ R`` (every ``ln t``-DP mechanism is a member). For ``t > 1`` the extreme
  rays of ``C_t`` are ``x_D = t^{u_D}`` for integer patterns ``u`` that do not depend on ``t``
  (:func:`~privgeom.definitions._catalogue.dp_ray_patterns`). So ``C_t ⊆ R`` iff ``f_{a,u}(t) = Σ_D a_D t^{u_D} ≥ 0`` for every
  facet ``a`` of ``R`` and pattern ``u`` — polynomials with the facet's coefficients. ``f_{a,u}(1) = a·1 ≥ 0``;
  since ``C_t`` grows, the admissible ``t`` form an interval ``[1, inner]`` and ``inner`` is the smallest real root
  ``≥ 1`` at which some ``f_{a,u}`` changes sign to negative. It is algebraic in general: returned exactly when
  rational (then re-verified: ``C_inner ⊆ R`` by exact cone containment), else as a sympy ``CRootOf`` with a rational
  interval narrower than ``1e-12`` (``inner_kind == "algebraic"``; the level holds the float).

Examples
--------
>>> from privgeom import RandomizedResponse
>>> b = dp_bounds(RandomizedResponse(1, "3/4"), "hamming")
>>> b.inner.exp_eps, b.outer.exp_eps
(Fraction(3, 1), Fraction(3, 1))
>>> b = dp_bounds(RandomizedResponse(2, "3/4"), "hamming")
>>> b.inner.exp_eps, b.outer.exp_eps, b.outer_edge
(Fraction(5, 3), Fraction(3, 1), ('11', '10'))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from ..._core.domain import RelationLike, resolve_graph
from ..._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError, SolverError
from ..._core.extras import require
from ..._core.level import PrivacyLevel
from ..._core.limits import register_limit
from ..._core.arrays import ATOL, ROUNDOFF
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str
from ..._core.limits import current_limit
from ..._core.numbers import number_text
from ..._core.results import Result
from ...definitions import DifferentialPrivacy, PrivacyDefinition
from ...definitions._catalogue import dp_ray_patterns
from ...mechanisms import Mechanism
from ..comparison._witness import _two_output, _witness_scale

__all__ = ["DPBounds", "dp_bounds", "dp_bounds_graph", "MAX_DP_BOUNDS_WORK"]

#: Largest number of (facet, DP ray pattern) polynomials :func:`dp_bounds` examines, checked before any root is found.
MAX_DP_BOUNDS_WORK = 200_000
register_limit(
    "dp_bounds_work",
    globals(),
    "MAX_DP_BOUNDS_WORK",
    "largest number of (facet, DP extreme-ray pattern) polynomials dp_bounds examines",
)

#: The isolating interval of an algebraic ``inner`` is refined below this width.
INTERVAL_WIDTH = Fraction(1, 10**13)


@dataclass(frozen=True)
class DPBounds(Result):
    """The DP sandwich ``C_inner ⊆ R ⊆ C_outer`` of a definition over a graph (see the module docstring).

    Attributes
    ----------
    definition : str
        Its spec.
    inner : PrivacyLevel
        The largest ``e^ε`` such that every ε-DP mechanism over the graph is in the definition (infinite when all are).
    inner_kind : str
        ``"exact"`` (a rational, verified by exact cone containment), ``"algebraic"`` (an irrational root:
        ``inner_root`` and ``inner_interval``), ``"float"`` (a float cone) or ``"infinite"``.
    inner_interval : tuple of Fraction or None
        A rational interval containing ``inner`` (narrower than 1e-12; a point when exact).
    inner_root : str
        The exact root (sympy ``CRootOf`` / rational) and its polynomial in ``t = e^ε``.
    inner_facet : tuple
        The facet ``a`` of the row cone that the DP rays leave first.
    inner_pattern : tuple of int
        The DP extreme ray ``x_D = t^{u_D}`` that leaves the cone just above ``inner``.
    leaving_level, leaving_ray :
        A rational ``t`` just above ``inner`` and the DP ray ``t^u`` at it, which violates ``inner_facet``
        (checked exactly).
    outer : PrivacyLevel
        The smallest ``e^ε`` such that every member is ε-DP over the graph (infinite: no ε suffices).
    outer_ray : tuple
        The extreme ray of the row cone attaining it; ``outer_edge`` the directed edge ``(D_i, D_j)`` with
        ``r_i / r_j = outer``; ``outer_member`` a two-output member with that ray as its first row.
    decides : bool
        Whether the definition's row cone decides its membership. When it does not, ``inner`` is about the row cone
        only (every ε-DP mechanism with ``e^ε ≤ inner`` has its rows in it, and may still be outside the
        definition); ``outer`` holds for every definition (the rows of members lie in the row cone).
    """

    definition: str
    graph: str
    inner: PrivacyLevel
    inner_kind: str
    inner_interval: tuple[Fraction, Fraction] | None
    inner_root: str
    inner_facet: tuple[Any, ...]
    inner_pattern: tuple[int, ...]
    leaving_level: Any
    leaving_ray: tuple[Any, ...]
    outer: PrivacyLevel
    outer_ray: tuple[Any, ...]
    outer_edge: tuple[str, str] | None
    outer_member: Mechanism | None = field(repr=False)
    exact: bool = True
    text: str = ""
    decides: bool = True

    def summary(self) -> str:
        return self.text


def _level(value: Any, exact: bool) -> PrivacyLevel:
    if value == math.inf:
        return PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True)  # no ε suffices: the infinite level
    if exact and isinstance(value, Fraction):
        return PrivacyLevel.parse(exp_eps=value, exact=True)
    return PrivacyLevel.parse(exp_eps=float(value))


def _shown(level: PrivacyLevel) -> str:
    if level.infinite:
        return "∞"
    v = level.exp_eps
    return (
        f"{number_text(v)} (ε = {number_text(level.eps, approx=True)})"
        if level.exact
        else f"{number_text(v, digits=12)} (ε ≈ {number_text(level.eps)})"
    )


# ---------------------------------------------------------------------------------------------------- outer
class _OuterHit(NamedTuple):
    """The largest ratio ``r_i / r_j`` over the extreme rays and directed edges, the ray and the edge attaining it."""

    value: Any
    ray: Any
    edge: tuple[str, str] | None


def _outer(cone: Any, I: np.ndarray, J: np.ndarray, labels: tuple[str, ...]) -> _OuterHit:
    exact = cone.exact
    rays = cone.rays
    best: Any = Fraction(1) if exact else 1.0
    arg: tuple[Any, tuple[str, str] | None] = (rays[0] if len(rays) else None, None)
    for r in rays:
        for i, j in zip(I, J):
            ri, rj = r[i], r[j]
            if rj == 0:
                if ri > 0:
                    return _OuterHit(value=math.inf, ray=r, edge=(labels[i], labels[j]))
                continue
            q = Fraction(ri) / Fraction(rj) if exact else float(ri) / float(rj)
            if q > best:
                best, arg = q, (r, (labels[i], labels[j]))
    return _OuterHit(value=best, ray=arg[0], edge=arg[1])


# ---------------------------------------------------------------------------------------------------- inner
def _sympy() -> Any:
    """sympy, for the exact algebraic thresholds (the [symbolic] extra; without it MissingDependencyError)."""
    return require("sympy", extra="symbolic", feature="exact DP bounds (pg.dp_bounds on an exact definition)")


@dataclass
class _Root:
    """A real algebraic number: the root of the irreducible ``g`` (a sympy Poly over QQ) in ``[lo, hi]`` (a point when
    rational)."""

    g: Any
    lo: Fraction
    hi: Fraction

    @property
    def rational(self) -> bool:
        return self.lo == self.hi

    def refine(self) -> None:

        if self.rational:
            return
        eps = (self.hi - self.lo) / 4
        a, b = self.g.refine_root(_sym(self.lo), _sym(self.hi), eps=_sym(eps))
        self.lo, self.hi = _frac(a), _frac(b)

    def less(self, other: "_Root") -> bool:
        for _ in range(400):
            if self.hi < other.lo:
                return True
            if other.hi < self.lo:
                return False
            if self.rational and other.rational:
                return self.lo < other.lo
            if self.g.monic() == other.g.monic():  # the same isolated root of one irreducible polynomial
                return False
            if self.rational and other.g.eval(_sym(self.lo)) == 0:
                return False
            if other.rational and self.g.eval(_sym(other.lo)) == 0:
                return False
            self.refine()
            other.refine()
        raise SolverError("dp_bounds: two algebraic thresholds could not be separated")  # pragma: no cover

    def text(self) -> str:
        sympy = _sympy()

        if self.rational:
            return fraction_str(self.lo)
        roots = sorted(self.g.intervals(), key=lambda iv: iv[0][0])
        idx = next(i for i, ((a, b), _) in enumerate(roots) if _frac(a) <= self.hi and self.lo <= _frac(b))
        return str(sympy.CRootOf(self.g.as_expr(), idx))


def _sym(v: Fraction) -> Any:
    sympy = _sympy()

    return sympy.Rational(v.numerator, v.denominator)


def _frac(v: Any) -> Fraction:
    sympy = _sympy()

    v = sympy.Rational(v)
    return Fraction(int(v.p), int(v.q))


class _Crossing(NamedTuple):
    """Where a polynomial ``f(t)`` turns negative: the root (a :class:`_Root`, or a float), a point just above it where
    ``f < 0``, and ``f`` (a sympy Poly, or its text in float mode)."""

    root: Any
    above: Any
    poly: Any


def _crossing_exact(coeffs: dict[int, Fraction]) -> _Crossing | None:
    """The smallest root ``ρ ≥ 1`` of ``f(t) = Σ c_k t^k`` after which ``f < 0``: ``(root, a rational point just
    above it where f < 0, f)``, or None when ``f ≥ 0`` on ``[1, ∞)``."""
    sympy = _sympy()

    t = sympy.Symbol("t")
    f = sympy.Poly(sum(_sym(c) * t**k for k, c in coeffs.items()), t, domain="QQ")
    if f.is_zero or f.degree() == 0:
        return None
    roots: list[_Root] = []
    for g, _ in f.factor_list()[1]:  # irreducible factors over QQ: the rational roots are the linear ones
        if g.degree() == 1:
            c1, c0 = g.all_coeffs()
            v = _frac(-c0 / c1)
            roots.append(_Root(g, v, v))
        else:
            roots += [_Root(g, _frac(a), _frac(b)) for (a, b), _ in g.intervals()]
    kept = []
    for r in roots:
        while r.lo < 1 < r.hi:  # irrational: never exactly 1
            r.refine()
        if r.lo >= 1:
            kept.append(r)
    for i in range(len(kept)):  # make the isolating intervals of different factors disjoint
        for j in range(i + 1, len(kept)):
            kept[i].less(kept[j])
    kept.sort(key=lambda r: r.lo)
    for idx, r in enumerate(kept):
        nxt = kept[idx + 1].lo if idx + 1 < len(kept) else r.hi + 1
        p = (r.hi + nxt) / 2
        if f.eval(_sym(p)) < 0:
            return _Crossing(root=r, above=p, poly=f)
    return None


class _InnerHit(NamedTuple):
    """The first (facet, DP ray pattern) polynomial to turn negative above ``t = 1``, and where it does."""

    crossing: _Crossing
    facet: np.ndarray
    pattern: np.ndarray


def _inner(cone: Any, graph: nx.Graph, labels: tuple[str, ...]) -> _InnerHit | None:
    """The smallest crossing over every facet of the row cone and DP extreme-ray pattern (module docstring)."""
    exact = cone.exact
    U = dp_ray_patterns(graph)
    nodes = [str(v) for v in graph.nodes]
    where = [nodes.index(d) for d in labels]
    U = np.asarray(U)[:, where]
    F = [np.asarray(a) for a in cone.facets] + [s * np.asarray(e) for e in cone.equalities for s in (1, -1)]
    work = len(F) * len(U)
    if work > current_limit("dp_bounds_work"):
        raise SizeLimitError(
            f"dp_bounds: {len(F):,} facets × {len(U):,} DP ray patterns = {work:,} polynomials, more "
            f"than the limit of {current_limit('dp_bounds_work'):,}; refused before any root "
            "is found — "
            f"{limit_hint('dp_bounds_work', work)}"
        )
    best: _InnerHit | None = None
    seen: dict[tuple[Any, ...], _Crossing | None] = {}
    for a in F:
        for u in U:
            coeffs: dict[int, Any] = {}
            for c, k in zip(a, u):
                if c != 0:
                    coeffs[int(k)] = coeffs.get(int(k), 0) + c
            key = tuple(sorted(coeffs.items()))
            if key not in seen:
                seen[key] = (
                    _crossing_exact({k: Fraction(v) for k, v in coeffs.items()}) if exact else _crossing_float(coeffs)
                )
            hit = seen[key]
            if hit is None:
                continue
            if best is None or _less(hit.root, best.crossing.root, exact):
                best = _InnerHit(crossing=hit, facet=a, pattern=u)
    return best


def _less(a: Any, b: Any, exact: bool) -> bool:
    return a.less(b) if exact else bool(a < b)


def _crossing_float(coeffs: dict[int, Any]) -> _Crossing | None:
    """:func:`_crossing_exact` in float: the real roots ``≥ 1`` from numpy."""
    deg = max(coeffs)
    poly = np.zeros(deg + 1)
    for k, c in coeffs.items():
        poly[deg - k] += float(c)
    roots = sorted(
        float(r.real) for r in np.roots(poly) if abs(r.imag) <= ATOL * max(1.0, abs(r)) and r.real >= 1 - ROUNDOFF
    )
    for idx, r in enumerate(roots):
        nxt = roots[idx + 1] if idx + 1 < len(roots) else r + 1
        p = (r + nxt) / 2 if nxt > r else r + 1e-6
        if np.polyval(poly, p) < 0:
            text = " + ".join(f"{number_text(c)}·t^{k}" for k, c in sorted(coeffs.items()))
            return _Crossing(root=max(r, 1.0), above=p, poly=text)
    return None


# ---------------------------------------------------------------------------------------------------- API
def dp_bounds_graph(graph: RelationLike, labels: tuple[str, ...]) -> nx.Graph:
    """The neighbour graph of :func:`dp_bounds`, checked before any work: it resolves on ``labels``, it is connected,
    and the extreme rays of the ε-DP cone over it (which ``inner`` needs) fit the size limit ``dp_rays`` by their
    proven lower bound (:func:`~privgeom.definitions._dp_rays.dp_ray_count_lower_bound`; hypercube ``k = 5`` has
    65,536). Callers that prepare work for a sandwich (``privgeom design``) call it first.

    Raises
    ------
    InvalidParameterError, FormatError, DomainMismatchError
        A graph that does not resolve on the datasets, or is not connected.
    SizeLimitError
        Too many DP extreme rays (``pg.set_limits(dp_rays=…)``).

    Examples
    --------
    >>> sorted(dp_bounds_graph("path", ("a", "b", "c")).edges)
    [('a', 'b'), ('b', 'c')]
    """
    from ...definitions import _dp_rays

    G = resolve_graph(graph, labels)
    if len(labels) > 1 and not nx.is_connected(G):
        raise InvalidParameterError(
            f"dp_bounds: the neighbour graph {getattr(G, 'name', '') or graph!r} is not connected; "
            "the DP sandwich needs a connected graph"
        )
    if len(labels) > 1:
        bound = _dp_rays.dp_ray_count_lower_bound(G)
        if bound > current_limit("dp_rays"):
            raise SizeLimitError(
                f"dp_bounds: the ε-DP cone over {getattr(G, 'name', '') or 'this graph'} ({len(labels)} datasets) has at "
                f"least {bound:,} extreme rays, more than the limit of {current_limit('dp_rays'):,} (dp_rays); refused "
                f"before any work — {limit_hint('dp_rays', bound)}"
            )
    return G


def dp_bounds(definition: PrivacyDefinition, graph: RelationLike = "hamming") -> DPBounds:
    """The ε-DP levels between which a definition sits over a neighbour graph (``docs/theory.md`` §13).

    Parameters
    ----------
    definition : PrivacyDefinition
        Any definition with a row cone (catalogue or :class:`~privgeom.ConeDefinition`). For one whose row cone does
        not decide membership, ``inner`` is about its row cone (``decides`` is False and the text says so).
    graph : relation name, Domain, networkx graph or edge list
        A *connected* neighbour relation on the definition's datasets (:func:`privgeom.neighbour_graph`).

    Returns
    -------
    DPBounds
        ``inner ≤ outer`` with their witnesses; both re-verified (exact cone containment at a rational ``inner``,
        every extreme ray inside ``C_outer``).

    Raises
    ------
    InvalidParameterError
        A graph that is not connected (the DP cone at ``e^ε = 1`` is then not one ray).
    SizeLimitError
        Too many (facet, DP ray) pairs (``pg.set_limits(dp_bounds_work=…)``), or too many DP rays (checked first, by
        :func:`dp_bounds_graph`, before the row cone is built).

    Examples
    --------
    >>> import privgeom as pg
    >>> b = pg.dp_bounds(pg.RandomizedResponse(2, "3/4"), "hamming")
    >>> b.inner.exp_eps, b.outer.exp_eps
    (Fraction(5, 3), Fraction(3, 1))
    """
    if not isinstance(definition, PrivacyDefinition):
        raise InvalidTypeError(f"dp_bounds takes a privacy definition, got {type(definition).__name__}")
    labels = tuple(definition.inputs)
    G = dp_bounds_graph(graph, labels)
    cone = definition.row_cone()
    exact = bool(cone.exact)
    outer, member = _outer_bound(definition, cone, G, labels)
    inner = _inner_bound(cone, G, labels)
    inner_level, outer_level = _level(inner.value, exact), _level(outer.value, exact)
    decides = bool(definition.row_cone_decides_closure)
    where = (
        "is in it"
        if decides
        else (
            "has its rows in its row cone, which does not decide membership (such a "
            "mechanism may still be outside the definition)"
        )
    )
    lines = [
        f"DP sandwich of {_spec(definition)} over {getattr(G, 'name', '') or 'the graph'}:",
        f"  inner: every ε-DP mechanism with e^ε ≤ {_shown(inner_level)} {where}"
        + ("" if inner.kind in ("exact", "infinite") else f" ({inner.kind}: {inner.root_text})"),
        f"  outer: every member is ε-DP with e^ε = {_shown(outer_level)}"
        + (f", attained on the edge {outer.edge[0]}→{outer.edge[1]}" if outer.edge else ""),
    ]
    if inner.kind != "infinite":
        lines.append(
            f"  just above inner, the DP ray x_D = t^u (u = {list(inner.pattern)}) leaves the cone through "
            f"{_facet_text(inner.facet, labels)}"
        )
    if outer.value == math.inf:
        lines.append("  no ε makes every member DP: an extreme ray has x_j = 0 < x_i on a neighbouring pair")
    return DPBounds(
        definition=_spec(definition),
        graph=getattr(G, "name", "") or "user graph",
        inner=inner_level,
        inner_kind=inner.kind,
        inner_interval=inner.interval,
        inner_root=inner.root_text,
        inner_facet=inner.facet,
        inner_pattern=inner.pattern,
        leaving_level=inner.above,
        leaving_ray=inner.leaving,
        outer=outer_level,
        outer_ray=tuple(outer.ray.tolist()) if outer.ray is not None else (),
        outer_edge=outer.edge,
        outer_member=member,
        exact=exact,
        text="\n".join(lines),
        decides=decides,
    )


def _outer_bound(
    definition: PrivacyDefinition, cone: Any, G: nx.Graph, labels: tuple[str, ...]
) -> tuple[_OuterHit, Mechanism | None]:
    """``outer`` with its ray and edge, re-verified (every extreme ray inside ``C_outer``), and a two-output member
    with that ray as its first row (None when no two-output member realises it)."""
    exact = bool(cone.exact)
    dp0 = DifferentialPrivacy(G, exp_eps=2 if exact else 2.0, inputs=labels)
    I0, J0 = dp0.index_pairs
    I, J = np.concatenate([I0, J0]), np.concatenate([J0, I0])  # both directions of every edge
    outer = _outer(cone, I, J, labels)
    member = None
    if outer.ray is not None and len(labels) > 1:
        member = _two_output(outer.ray, _witness_scale(outer.ray, cone, exact), list(labels), exact)
        if not definition.contains(member if member.exact == definition.exact else member.to_float()).member:
            member = None  # a row-cone ray that no two-output member realises (definitions not decided by the cone)
    if outer.value != math.inf and len(labels) > 1:
        check = DifferentialPrivacy(G, exp_eps=outer.value, inputs=labels)
        if not all(check.contains_row(r).member for r in cone.rays):
            raise SolverError("dp_bounds: an extreme ray escapes the DP cone at the computed outer level")
    return outer, member


@dataclass(frozen=True)
class _InnerBound:
    """``inner`` as :func:`dp_bounds` reports it (the fields ``inner_*`` and ``leaving_*`` of :class:`DPBounds`)."""

    kind: str
    value: Any
    interval: tuple[Fraction, Fraction] | None = None
    root_text: str = ""
    facet: tuple[Any, ...] = ()
    pattern: tuple[int, ...] = ()
    above: Any = None
    leaving: tuple[Any, ...] = ()


def _inner_bound(cone: Any, G: nx.Graph, labels: tuple[str, ...]) -> _InnerBound:
    """``inner``: exact and re-verified (``C_inner ⊆ R`` by exact cone containment) when rational, an algebraic root
    in a narrow rational interval otherwise, a float root for a float cone, infinite when no DP ray ever leaves."""
    hit = _inner(cone, G, labels) if len(labels) > 1 else None
    if hit is None:
        return _InnerBound(kind="infinite", value=math.inf)
    facet, pattern, above = tuple(hit.facet.tolist()), tuple(int(v) for v in hit.pattern), hit.crossing.above
    leaving = tuple(above ** int(k) for k in pattern)
    if not cone.exact:
        return _InnerBound(
            kind="float",
            value=hit.crossing.root,
            root_text=f"root of {hit.crossing.poly}",
            facet=facet,
            pattern=pattern,
            above=above,
            leaving=leaving,
        )
    r = hit.crossing.root
    if r.rational:
        kind, interval, value = "exact", (r.lo, r.lo), r.lo
        if not DifferentialPrivacy(G, exp_eps=value, inputs=labels).row_cone().issubset(cone).holds:
            raise SolverError("dp_bounds: the DP cone at the computed inner level is not inside the row cone")
    else:
        while r.hi - r.lo > INTERVAL_WIDTH:
            r.refine()
        kind, interval, value = "algebraic", (r.lo, r.hi), float((r.lo + r.hi) / 2)
    if sum(a * v for a, v in zip(facet, leaving)) >= 0:
        raise SolverError("dp_bounds: the DP ray just above inner does not leave the row cone")
    return _InnerBound(
        kind=kind,
        value=value,
        interval=interval,
        root_text=f"{r.text()} (a root of {hit.crossing.poly.as_expr()} = 0 in t = e^ε)",
        facet=facet,
        pattern=pattern,
        above=above,
        leaving=leaving,
    )


def _spec(d: PrivacyDefinition) -> str:
    s = d.spec()
    return s if len(s) <= 80 else d.name


def _facet_text(facet: tuple[Any, ...], labels: tuple[str, ...]) -> str:
    from ...definitions._rows import format_inequality

    return format_inequality(np.array(facet, dtype=object), labels)
