"""Smoothed differential privacy of a finite mechanism (Liu, Wang & Xia, Definition 3).

``M`` is ``(ε, δ, Π)``-smoothed DP when ``max_{π ∈ Π^n} E_{x ~ π}[δ_{ε,M}(x)] ≤ δ``. :func:`smoothed_delta` computes
the left-hand side for a finite set ``Π`` of distributions over the record domain, using distribution reduction
(Proposition 5): only the vertices of ``conv(Π)`` matter, and when ``δ(x)`` is symmetric in the agents (anonymous
mechanisms) only the number of agents at each vertex.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from .._core.domain import Domain, RelationLike
from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.level import LevelLike, PrivacyLevel
from .._core.limits import register_limit
from .._core.numeric import ATOL, LogRational, Scalar, fraction_str, limit_hint, parse_int
from .._core.results import Quantity, Result
from ..mechanisms import Mechanism
from ._database import (
    agents,
    database_points,
    delta_vector,
    histograms,
    input_domain,
    is_anonymous,
    neighbour_graph_of,
    record_values,
)
from ._reduction import (
    compositions,
    count_compositions,
    grid_compositions,
    grid_error_bound,
    histogram_law,
    hull_vertices,
    multinomial_law,
    parse_distributions,
    tv_distance,
)

__all__ = ["SmoothedDelta", "smoothed_delta", "expected_delta", "histogram_deltas"]

#: Default cap on the number of vertex assignments / compositions evaluated exactly (the size limit
#: ``smoothed_evaluations``, read at call time; ``max_evaluations=`` overrides it for one call).
MAX_EVALUATIONS = 5_000
#: Largest number of databases ``k^n`` for the (non-anonymous) tensor contraction.
MAX_DATABASES = 2**20
register_limit("smoothed_evaluations", globals(), "MAX_EVALUATIONS",
               "vertex assignments / compositions smoothed_delta evaluates exactly (above it: a certified grid)")
register_limit("smoothed_tensor_databases", globals(), "MAX_DATABASES",
               "databases k^n of the smoothed-delta tensor contraction (non-anonymous mechanisms)")


@dataclass(frozen=True)
class SmoothedDelta(Result):
    """``max_{π ∈ Π^n} E_{x~π}[δ_{ε,M}(x)]`` (Definition 3) with the maximising assignment.

    Attributes
    ----------
    value : scalar
        The smoothed δ (the best value found; exact when ``error_bound == 0``).
    error_bound : scalar
        Certified: the true maximum lies in ``[value, value + error_bound]`` (0 unless a grid was used).
    counts : tuple of int or None
        Agents per vertex at the maximiser (symmetric / anonymous case).
    assignment : tuple of int
        Vertex index of each agent at the maximiser; ``maximiser`` gives the distributions themselves.
    vertices : tuple of tuple
        Vertices of ``conv(Π)`` (Proposition 5).
    method : str
        ``"enumeration"`` (all ``|V|^n`` assignments), ``"compositions"`` (all counts) or ``"grid"``.
    dp_delta : scalar
        ``max_x δ(x)``, the DP δ (Theorem 1); ``value <= dp_delta`` (Proposition 1).

    ``float(r)`` is the value as a float.
    """

    value: Scalar
    error_bound: Scalar
    exact: bool
    eps: LogRational | float
    exp_eps: Scalar
    n: int
    records: tuple[str, ...]
    vertices: tuple[tuple[Scalar, ...], ...]
    counts: tuple[int, ...] | None
    assignment: tuple[int, ...]
    method: str
    evaluated: int
    dp_delta: Scalar

    def __float__(self) -> float:
        return float(self.value)

    @property
    def maximiser(self) -> tuple[tuple[Scalar, ...], ...]:
        """The maximising distributions ``(π_1, …, π_n)``, one per agent."""
        return tuple(self.vertices[a] for a in self.assignment)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        where = (
            "counts per vertex " + str(self.counts) if self.counts is not None else "assignment " + str(self.assignment)
        )
        err = "" if self.error_bound == 0 else f" (certified error <= {fraction_str(self.error_bound)}, grid)"
        verts = ", ".join("[" + ", ".join(fraction_str(v) for v in vx) + "]" for vx in self.vertices)
        return (
            f"smoothed δ at ε = {self.eps}, n = {self.n} ({mode}, Liu-Wang-Xia Definition 3): "
            f"{fraction_str(self.value)}{err}\n"
            f"  maximiser: {where} over the {len(self.vertices)} vertices of conv(Π): {verts}\n"
            f"  method: {self.method} ({self.evaluated} evaluated); DP δ = max_x δ(x) = {fraction_str(self.dp_delta)}"
        )


# ---------------------------------------------------------------------------------------------------- helpers
def _prepare(mechanism: Mechanism, eps: LevelLike, distributions: Any, graph: RelationLike | None, kind: Domain | str | None,
             records: Sequence[Any] | None) -> tuple:
    """``(level, domain, n, present, values, rows, exact)``: ``present`` lists the Domain's datasets that are
    inputs of the mechanism (all of them unless it was built on some only) and ``values[i]`` is ``δ`` of
    ``present[i]``."""
    level = PrivacyLevel.coerce(eps)
    dom = input_domain(mechanism, kind, records)
    n = agents(dom)  # refuses domains that are not databases of one size
    G = neighbour_graph_of(mechanism, graph, dom)
    raw, _, exact_d = delta_vector(mechanism, level.exp_eps, G)
    column = {lab: i for i, lab in enumerate(mechanism.inputs)}
    present = [i for i, lab in enumerate(dom.labels) if lab in column]
    values = [raw[column[dom.labels[i]]] for i in present]
    rows, exact_p = parse_distributions(distributions, k=len(record_values(dom)))
    exact = exact_d and exact_p
    if not exact:
        values = [float(v) for v in values]
        rows = [[float(v) for v in r] for r in rows]
    return level, dom, n, present, values, rows, exact


def histogram_deltas(hists: Sequence[tuple[int, ...]], values: Sequence[Scalar], *,
                     atol: float = ATOL) -> dict[tuple[int, ...], Scalar] | None:
    """``{histogram: δ}`` when ``δ(x)`` only depends on the histogram ``hists[i]`` of ``x`` (else None)."""
    out: dict[tuple[int, ...], Scalar] = {}
    for h, v in zip(hists, values):
        if h in out:
            w = out[h]
            same = (v == w) if isinstance(v, Fraction) else abs(float(v) - float(w)) <= atol
            if not same:
                return None
        else:
            out[h] = v
    return out


def _expect_hist(law: dict[tuple[int, ...], Scalar], dh: dict[tuple[int, ...], Scalar], zero: Scalar) -> Scalar:
    total = zero
    for h, p in law.items():
        if p == 0:
            continue
        if h not in dh:
            raise DomainMismatchError(f"histogram {list(h)} has probability {p} but is not an input of the mechanism")
        total = total + p * dh[h]
    return total


def _tensor(dom: Domain, present: Sequence[int], values: Sequence[Scalar], rows: Sequence[Sequence[Scalar]],
            exact: bool) -> np.ndarray:
    recs = record_values(dom)
    k, n = len(recs), agents(dom)
    size = k**n
    if size > MAX_DATABASES:
        raise SizeLimitError(f"{k}^{n} = {size:,} databases exceed the enumeration limit smoothed_tensor_databases = "
                             f"{MAX_DATABASES:,}, refused before allocating; "
                             f"{limit_hint('smoothed_tensor_databases', size)}")
    D = np.empty((k,) * n, dtype=object if exact else float)
    D.fill(Fraction(0) if exact else 0.0)
    filled = np.zeros((k,) * n, dtype=bool)
    points = database_points(dom)
    for i, v in zip(present, values):
        D[points[i]] = v
        filled[points[i]] = True
    if not filled.all():
        support = {j for r in rows for j, v in enumerate(r) if v != 0}
        for idx in zip(*np.nonzero(~filled)):
            if all(j in support for j in idx):
                lab = "(" + ",".join(recs[j] for j in idx) + ")"
                raise DomainMismatchError(f"database {lab} has positive probability under Π but is not an input")
    return D


def _contract(D: np.ndarray, rows: Sequence[Sequence[Scalar]], exact: bool, symmetric: bool) -> tuple[Scalar, tuple[int, ...], int]:
    vecs = [np.array(r, dtype=object if exact else float) for r in rows]
    best: list[Any] = [None, ()]
    count = [0]

    def rec(T: np.ndarray, prefix: tuple[int, ...], start: int) -> None:
        if T.ndim == 0:
            val = T.item() if hasattr(T, "item") else T
            count[0] += 1
            if best[0] is None or val > best[0]:
                best[0], best[1] = val, prefix
            return
        for a in range(start, len(vecs)):
            rec(np.tensordot(vecs[a], T, axes=(0, 0)), prefix + (a,), a if symmetric else 0)

    rec(D, (), 0)
    return best[0], best[1], count[0]


# ---------------------------------------------------------------------------------------------------- API
def expected_delta(
    mechanism: Mechanism,
    eps: LevelLike,
    agent_distributions: Any,
    *,
    graph: RelationLike | None = None,
    kind: Domain | str | None = None,
    records: Sequence[Any] | None = None,
) -> Quantity:
    """``E_{x~π}[δ_{ε,M}(x)]`` for one product distribution ``π = (π_1, …, π_n)`` (the inner term of Definition 3).

    Returns a :class:`~privgeom.Quantity` (``value``, ``exact``; compares equal to the number, ``float()``).
    ``graph``, ``kind`` and ``records`` are as in :func:`smoothed_delta`.

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> q = expected_delta(randomized_response(2, "3/4"), "ln(2)", ["1/2", "1/2"])
    >>> q == Fraction(1, 4), q.exact, float(q)
    (True, True, 0.25)
    """
    level, dom, n, present, values, rows, exact = _prepare(mechanism, eps, agent_distributions, graph, kind, records)
    if len(rows) != n:
        raise InvalidParameterError(f"expected_delta needs one distribution per agent ({n}), got {len(rows)}")
    zero: Scalar = Fraction(0) if exact else 0.0
    detail = f"ε = {level.eps}, {n} agents, Liu-Wang-Xia Definition 3 (inner term)"
    if is_anonymous(dom):
        hists = histograms(dom)
        dh = {hists[i]: v for i, v in zip(present, values)}
        law = histogram_law([1] * n, rows)
        total = _expect_hist(law, dh, zero)
        return Quantity(total if exact else float(total), "expected δ", exact, detail)
    D = _tensor(dom, present, values, rows, exact)
    for r in rows:
        D = np.tensordot(np.array(r, dtype=object if exact else float), D, axes=(0, 0))
    value: Any = D.item() if hasattr(D, "item") else D
    return Quantity(value if exact else float(value), "expected δ", exact, detail)


def smoothed_delta(
    mechanism: Mechanism,
    eps: LevelLike,
    distributions: Any,
    n: int | None = None,
    *,
    graph: RelationLike | None = None,
    kind: Domain | str | None = None,
    records: Sequence[Any] | None = None,
    method: str = "auto",
    grid_step: int | None = None,
    max_evaluations: int | None = None,
    atol: float = ATOL,
) -> SmoothedDelta:
    """Smoothed δ: ``max_{π ∈ Π^n} E_{x~π}[δ_{ε,M}(x)]`` (Liu, Wang & Xia, Definition 3), with its maximiser.

    Parameters
    ----------
    mechanism : Mechanism
        Inputs are databases of ``n`` agents: a mechanism built on ``Domain.databases``, ``Domain.bits``,
        ``Domain.histograms`` or ``Domain.counts`` (as the factories of :mod:`privgeom.smoothed` do), or one whose
        labels are those of such a Domain (:func:`~privgeom.smoothed._database.recognise_domain`).
    eps : ε (read by :class:`privgeom.PrivacyLevel`; ``"ln(r)"`` / LogRational for exact results)
    distributions : list of probability vectors over the records (``Π``); a bare ``q`` means ``[1 − q, q]``
    n : int, optional
        Number of agents; checked against the mechanism's inputs.
    method : ``"auto"``, ``"enumeration"``, ``"compositions"`` or ``"grid"``
        ``auto``: every vertex assignment (non-symmetric ``δ``) or every composition (symmetric ``δ``, Proposition
        5) when there are at most ``max_evaluations`` of them (default: the ``smoothed_evaluations`` limit,
        5,000), else a grid of compositions with a certified error
        bound (``error_bound``).
    grid_step : int, optional
        Spacing of the grid (default: the smallest with at most ``max_evaluations`` points).
    atol : float
        Float mode: tolerance for merging equal distributions / vertices and for deciding that ``δ(x)`` is
        symmetric in the agents.
    graph : relation name, Domain, networkx graph or list of pairs, optional
        Neighbour relation of ``δ(x)``, resolved by :func:`privgeom.neighbour_graph` (default: the Domain's, replace-one).
    kind : Domain or ``"database"``/``"histogram"``/``"count"``, optional
        The inputs' Domain (a mechanism may be defined on some of its databases only), or a restriction of the kinds
        recognised from plain labels.
    records : sequence, optional
        The record values in the order of the distributions' coordinates.

    Returns
    -------
    SmoothedDelta

    Examples
    --------
    Noiseless majority of 3 voters, each voting 1 with probability 1/4 or 1/3 (``Π`` = both). ``δ(x) = 1`` exactly
    at the pivotal profiles (one or two votes for 1), so the smoothed δ is the largest pivotal probability:

    >>> from privgeom.smoothed import majority_vote
    >>> r = smoothed_delta(majority_vote(3), "ln(2)", ["1/4", "1/3"])
    >>> r.value, r.counts, r.dp_delta
    (Fraction(2, 3), (0, 3), Fraction(1, 1))
    >>> round(smoothed_delta(majority_vote(3), 1.0, ["1/4", "1/3"]).value, 6)
    0.666667
    """
    if method not in ("auto", "enumeration", "compositions", "grid"):
        raise InvalidParameterError(f"unknown method {method!r}; use auto, enumeration, compositions or grid")
    if grid_step is not None:
        try:
            grid_step = parse_int(grid_step, name="grid_step", min=1)
        except InvalidTypeError:
            raise InvalidParameterError(f"grid_step must be a positive integer, got {grid_step!r}") from None
    if max_evaluations is None:
        max_evaluations = MAX_EVALUATIONS
    max_evaluations = parse_int(max_evaluations, name="max_evaluations", min=1)
    level, dom, n_agents, present, values, rows, exact = _prepare(mechanism, eps, distributions, graph, kind, records)
    if n is not None and parse_int(n, name="n", min=1) != n_agents:
        raise DomainMismatchError(f"n = {n} but the mechanism's inputs are databases of {n_agents} agents")
    exp_eps = level.exp_eps
    hists = histograms(dom)
    vidx = hull_vertices(rows, exact=exact, atol=atol)
    V = [rows[i] for i in vidx]
    zero: Scalar = Fraction(0) if exact else 0.0
    dp = max(values)
    dh = histogram_deltas([hists[i] for i in present], values, atol=atol)
    common = dict(
        exact=exact, eps=level.eps, exp_eps=exp_eps if exact else float(exp_eps), n=n_agents, records=record_values(dom),
        vertices=tuple(tuple(v) for v in V), dp_delta=dp,
    )
    if dh is None or method == "enumeration":
        if method in ("compositions", "grid") and dh is None:
            raise InvalidParameterError("δ(x) is not symmetric in the agents: only method='enumeration' is valid")
        symmetric = dh is not None
        n_eval = count_compositions(n_agents, len(V)) if symmetric else len(V) ** n_agents
        if n_eval > max_evaluations:
            raise SizeLimitError(f"{n_eval:,} vertex assignments exceed max_evaluations = {max_evaluations:,} "
                                 f"(limit smoothed_evaluations), refused before evaluating; "
                                 f"{limit_hint('smoothed_evaluations', n_eval, keyword='max_evaluations')}")
        D = _tensor(dom, present, values, V, exact)
        val, assign, cnt = _contract(D, V, exact, symmetric)
        counts = tuple(assign.count(a) for a in range(len(V))) if symmetric else None
        return SmoothedDelta(value=val, error_bound=zero, counts=counts, assignment=assign,
                             method="enumeration", evaluated=cnt, **common)  # type: ignore[arg-type]
    total = count_compositions(n_agents, len(V))
    use_grid = method == "grid" or (method == "auto" and total > max_evaluations)
    if use_grid:
        step = grid_step or _smallest_step(n_agents, len(V), max_evaluations)
        cands = grid_compositions(n_agents, len(V), step)
    else:
        step = 1
        if total > max_evaluations and method == "compositions":
            raise SizeLimitError(f"{total:,} compositions exceed max_evaluations = {max_evaluations:,} (limit "
                                 f"smoothed_evaluations), refused before evaluating; "
                                 f"{limit_hint('smoothed_evaluations', total, keyword='max_evaluations')}")
        cands = list(compositions(n_agents, len(V)))
    cache: dict[tuple[int, int], dict] = {}

    def law_of(c: tuple[int, ...]) -> dict:
        law: dict | None = None
        for v, cv in enumerate(c):
            if cv == 0:
                continue
            part = cache.setdefault((v, cv), multinomial_law(cv, V[v]))
            law = part if law is None else _conv(law, part)
        return law if law is not None else histogram_law([0] * len(V), V)

    best_val: Scalar | None = None
    best_c: tuple[int, ...] = cands[0]
    for c in cands:
        val = _expect_hist(law_of(c), dh, zero)
        if best_val is None or val > best_val:
            best_val, best_c = val, c
    err: Scalar = zero
    if use_grid and step > 1:
        lip = _lipschitz(dh, len(record_values(dom)), zero)
        tvs = [tv_distance(v, V[-1]) for v in V]
        err = grid_error_bound(n_agents, len(V), step, tvs, lip)
    assign = tuple(v for v, cv in enumerate(best_c) for _ in range(cv))
    method_used = "grid" if use_grid and step > 1 else "compositions"
    return SmoothedDelta(value=best_val, error_bound=err, counts=best_c, assignment=assign,  # type: ignore[arg-type]
                         method=method_used, evaluated=len(cands), **common)  # type: ignore[arg-type]


def _conv(a: dict, b: dict) -> dict:
    from ._reduction import _convolve

    return _convolve(a, b)


def _lipschitz(dh: dict[tuple[int, ...], Scalar], k: int, zero: Scalar) -> Scalar:
    """``max |δ(h) − δ(h')|`` over histograms differing by one moved unit."""
    best = zero
    for h, v in dh.items():
        for a in range(k):
            for b in range(k):
                if a == b or h[b] == 0:
                    continue
                h2 = tuple(x + (j == a) - (j == b) for j, x in enumerate(h))
                if h2 in dh:
                    d = v - dh[h2]
                    d = d if d >= 0 else -d
                    if d > best:
                        best = d
    return best


def _smallest_step(n_agents: int, k: int, max_evaluations: int) -> int:
    """Smallest grid step with at most ``max_evaluations`` grid points, by bisection: the number of points
    ``count_compositions(n_agents // step, k)`` does not increase with ``step`` and is 1 at ``step = n_agents + 1``,
    so the search takes at most ``log2(n_agents) + 1`` evaluations (a linear scan took millions at large ``n``).

    Examples
    --------
    >>> _smallest_step(10**9, 3, 100_000)   # 10^9 // 2242153 = 446: C(448, 2) = 99,681 <= 10^5 < C(449, 2) = 100,128
    2242153
    """
    lo, hi = 1, n_agents + 1  # count(hi) = 1 <= max_evaluations; find the smallest step that fits
    if count_compositions(n_agents, k) <= max_evaluations:
        return 1
    while hi - lo > 1:  # invariant: count(lo) > max_evaluations >= count(hi)
        mid = (lo + hi) // 2
        if count_compositions(n_agents // mid, k) <= max_evaluations:
            hi = mid
        else:
            lo = mid
    return hi
