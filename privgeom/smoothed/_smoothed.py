"""Smoothed differential privacy of a finite mechanism (Liu, Wang & Xia, Definition 3).

``M`` is ``(ε, δ, Π)``-smoothed DP when ``max_{π ∈ Π^n} E_{x ~ π}[δ_{ε,M}(x)] ≤ δ``. :func:`smoothed_delta` computes
the left-hand side for a finite set ``Π`` of distributions over the record domain, using distribution reduction
(Proposition 5): only the vertices of ``conv(Π)`` matter, and when ``δ(x)`` is symmetric in the agents (anonymous
mechanisms) only the number of agents at each vertex.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from .._core.domain import Domain, RelationLike
from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.level import LevelLike, PrivacyLevel
from .._core.limits import register_limit
from .._core.arrays import ATOL, MatrixLike, parse_int, tolerance
from .._core.hints import limit_hint
from .._core.numbers import Scalar
from .._core.limits import current_limit
from .._core.results import Quantity
from ..mechanisms import Mechanism
from ._catalogue import shm
from ._fastpath import DEFAULT_RTOL, DEFAULT_TAIL
from ._results import SamplingHistogram, SmoothedDelta
from ._shm import check_matrix_size, check_search_options, shm_smoothed_sweep
from ._domains import (
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

__all__ = ["smoothed_delta", "expected_delta", "histogram_deltas", "ROUTES"]

#: Default cap on the number of vertex assignments / compositions evaluated exactly (the size limit
#: ``smoothed_evaluations``, read at call time; ``max_evaluations=`` overrides it for one call).
MAX_EVALUATIONS = 5_000
#: Largest number of databases ``k^n`` for the (non-anonymous) tensor contraction.
MAX_DATABASES = 2**20
register_limit(
    "smoothed_evaluations",
    globals(),
    "MAX_EVALUATIONS",
    "vertex assignments / compositions smoothed_delta evaluates exactly (above it: a certified grid)",
)
register_limit(
    "smoothed_tensor_databases",
    globals(),
    "MAX_DATABASES",
    "databases k^n of the smoothed-delta tensor contraction (non-anonymous mechanisms)",
)


# ---------------------------------------------------------------------------------------------------- helpers
class _Prepared(NamedTuple):
    """A mechanism's database-wise ``δ`` read on its Domain, and the distributions ``Π`` in the same mode."""

    level: PrivacyLevel
    domain: Domain
    n: int  #: agents
    present: list[int]  #: the Domain's datasets that are inputs of the mechanism (all unless built on some only)
    values: list[Scalar]  #: ``values[i]`` is ``δ`` of ``present[i]``
    rows: list[list[Scalar]]  #: the distributions of ``Π``
    exact: bool


def _prepare(
    mechanism: Mechanism,
    eps: LevelLike,
    distributions: Any,
    graph: RelationLike | None,
    kind: Domain | str | None,
    records: Sequence[Any] | None,
) -> _Prepared:
    """``δ(x)`` of every database of the mechanism (Definition 2) and the distributions, both exact or both float."""
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
    return _Prepared(level=level, domain=dom, n=n, present=present, values=values, rows=rows, exact=exact)


def histogram_deltas(
    hists: Sequence[tuple[int, ...]], values: Sequence[Scalar], *, atol: float = ATOL
) -> dict[tuple[int, ...], Scalar] | None:
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


def _tensor(
    dom: Domain, present: Sequence[int], values: Sequence[Scalar], rows: Sequence[Sequence[Scalar]], exact: bool
) -> np.ndarray:
    recs = record_values(dom)
    k, n = len(recs), agents(dom)
    size = k**n
    if size > current_limit("smoothed_tensor_databases"):
        raise SizeLimitError(
            f"{k}^{n} = {size:,} databases exceed the enumeration limit smoothed_tensor_databases = "
            f"{current_limit('smoothed_tensor_databases'):,}, refused before allocating; "
            f"{limit_hint('smoothed_tensor_databases', size)}"
        )
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


class _Best(NamedTuple):
    """The maximum of the tensor contraction (:func:`_contract`)."""

    value: Scalar
    assignment: tuple[int, ...]  #: vertex index per agent
    evaluated: int  #: assignments evaluated


def _contract(D: np.ndarray, rows: Sequence[Sequence[Scalar]], exact: bool, symmetric: bool) -> _Best:
    """The largest ``E[δ]`` over the assignments of ``rows`` to the agents (only sorted ones when ``symmetric``)."""
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
    return _Best(value=best[0], assignment=best[1], evaluated=count[0])


# ---------------------------------------------------------------------------------------------------- API
def expected_delta(
    mechanism: Mechanism,
    eps: LevelLike,
    agent_distributions: MatrixLike,
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
    P = _prepare(mechanism, eps, agent_distributions, graph, kind, records)
    n, rows, exact = P.n, P.rows, P.exact
    if len(rows) != n:
        raise InvalidParameterError(f"expected_delta needs one distribution per agent ({n}), got {len(rows)}")
    zero: Scalar = Fraction(0) if exact else 0.0
    detail = f"ε = {P.level}, {n} agents, Liu-Wang-Xia Definition 3 (inner term)"
    if is_anonymous(P.domain):
        hists = histograms(P.domain)
        dh = {hists[i]: v for i, v in zip(P.present, P.values)}
        total = _expect_hist(histogram_law([1] * n, rows), dh, zero)
        return Quantity(value=total if exact else float(total), name="expected δ", exact=exact, detail=detail)
    D = _tensor(P.domain, P.present, P.values, rows, exact)
    for r in rows:
        D = np.tensordot(np.array(r, dtype=object if exact else float), D, axes=(0, 0))
    value: Any = D.item() if hasattr(D, "item") else D
    return Quantity(value=value if exact else float(value), name="expected δ", exact=exact, detail=detail)


@dataclass(frozen=True)
class _Options:
    """The validated options of :func:`smoothed_delta` (each route reads its own)."""

    grid_step: int | None
    max_evaluations: int
    atol: float
    rtol: float
    tail: float
    max_work: int | None
    on_limit: str
    progress: Callable[[int], None] | None


class _Problem(NamedTuple):
    """A prepared matrix problem: ``δ`` per database, the vertices of ``conv(Π)`` (Proposition 5), ``δ`` per
    histogram when it is symmetric in the agents (else None) and the DP δ."""

    prepared: _Prepared
    vertices: list[list[Scalar]]
    by_histogram: dict[tuple[int, ...], Scalar] | None
    dp_delta: Scalar


class _Job:
    """One call of :func:`smoothed_delta`: what every route receives; the matrix problem is prepared on first use
    (a :class:`SamplingHistogram` is then built as its matrix, refused above ``shm_matrix_entries``)."""

    def __init__(
        self,
        mechanism: Mechanism | SamplingHistogram,
        level: PrivacyLevel,
        distributions: Any,
        n: int | None,
        graph: RelationLike | None,
        kind: Domain | str | None,
        records: Sequence[Any] | None,
        options: _Options,
        method: str,
    ) -> None:
        self.mechanism, self.level, self.distributions, self.n = mechanism, level, distributions, n
        self.graph, self.kind, self.records, self.options, self.method = graph, kind, records, options, method

    def record_count(self) -> int:
        """How many records the distributions of ``Π`` are over."""
        return len(parse_distributions(self.distributions)[0][0])

    @cached_property
    def problem(self) -> _Problem:
        M = self.mechanism
        if isinstance(M, SamplingHistogram):
            k = self.record_count()
            check_matrix_size(M, k, self.method)
            M = shm(M.n, M.T, k, M.replace, inputs="count" if k == 2 else "histogram")
        P = _prepare(M, self.level, self.distributions, self.graph, self.kind, self.records)
        if self.n is not None and parse_int(self.n, name="n", min=1) != P.n:
            raise DomainMismatchError(f"n = {self.n} but the mechanism's inputs are databases of {P.n} agents")
        V = [P.rows[i] for i in hull_vertices(P.rows, exact=P.exact, atol=self.options.atol)]
        hists = histograms(P.domain)
        dh = histogram_deltas([hists[i] for i in P.present], P.values, atol=self.options.atol)
        return _Problem(prepared=P, vertices=V, by_histogram=dh, dp_delta=max(P.values))

    def result(self, **fields: Any) -> SmoothedDelta:
        """The :class:`SmoothedDelta` of a matrix route, with the fields every such route shares."""
        P = self.problem.prepared
        return SmoothedDelta(
            exact=P.exact,
            level=P.level,
            n=P.n,
            records=record_values(P.domain),
            vertices=tuple(tuple(v) for v in self.problem.vertices),
            dp_delta=self.problem.dp_delta,
            **fields,
        )

    def symmetric(self) -> dict[tuple[int, ...], Scalar]:
        """``δ`` per histogram, or the error of a route that needs ``δ(x)`` symmetric in the agents."""
        dh = self.problem.by_histogram
        if dh is None:
            raise InvalidParameterError("δ(x) is not symmetric in the agents: only method='enumeration' is valid")
        return dh


def _enumeration(job: _Job) -> SmoothedDelta:
    """Route ``"enumeration"``: every assignment of the vertices of ``conv(Π)`` to the agents (Definition 3 with
    Proposition 5) — ``|V|^n`` of them, or the sorted ones (compositions) when ``δ(x)`` is symmetric — by contracting
    the tensor of ``δ`` over the databases. Needs the matrix; exact; refused above ``max_evaluations`` assignments
    (limit ``smoothed_evaluations``) or ``k^n`` databases (``smoothed_tensor_databases``)."""
    P, V, opts = job.problem.prepared, job.problem.vertices, job.options
    symmetric = job.problem.by_histogram is not None
    n_eval = count_compositions(P.n, len(V)) if symmetric else len(V) ** P.n
    if n_eval > opts.max_evaluations:
        raise SizeLimitError(
            f"{n_eval:,} vertex assignments exceed max_evaluations = {opts.max_evaluations:,} "
            f"(limit smoothed_evaluations), refused before evaluating; "
            f"{limit_hint('smoothed_evaluations', n_eval, keyword='max_evaluations')}"
        )
    D = _tensor(P.domain, P.present, P.values, V, P.exact)
    best = _contract(D, V, P.exact, symmetric)
    counts = tuple(best.assignment.count(a) for a in range(len(V))) if symmetric else None
    return job.result(
        value=best.value,
        error_bound=Fraction(0) if P.exact else 0.0,
        counts=counts,
        assignment=best.assignment,
        method="enumeration",
        evaluated=best.evaluated,
    )


def _compositions(job: _Job) -> SmoothedDelta:
    """Route ``"compositions"``: every number of agents per vertex of ``conv(Π)`` (Proposition 5; ``δ(x)``
    symmetric in the agents, e.g. an anonymous mechanism), each evaluated on the law of the histogram (multinomial
    convolutions). Needs the matrix; exact; refused above ``max_evaluations`` compositions."""
    P, V, opts = job.problem.prepared, job.problem.vertices, job.options
    dh = job.symmetric()
    total = count_compositions(P.n, len(V))
    if total > opts.max_evaluations:
        raise SizeLimitError(
            f"{total:,} compositions exceed max_evaluations = {opts.max_evaluations:,} (limit "
            f"smoothed_evaluations), refused before evaluating; "
            f"{limit_hint('smoothed_evaluations', total, keyword='max_evaluations')}"
        )
    return _best_of(job, dh, list(compositions(P.n, len(V))), step=1)


def _grid(job: _Job) -> SmoothedDelta:
    """Route ``"grid"``: the compositions on a grid of spacing ``grid_step`` (default: the smallest with at most
    ``max_evaluations`` points), with a certified error bound from the Lipschitz constant of ``δ`` over histograms
    and the total-variation distances of the vertices (:func:`~._reduction.grid_error_bound`). Needs ``δ(x)``
    symmetric; the value is exact, the maximum lies within ``error_bound`` of it."""
    P, V, opts = job.problem.prepared, job.problem.vertices, job.options
    dh = job.symmetric()
    step = opts.grid_step or _smallest_step(P.n, len(V), opts.max_evaluations)
    return _best_of(job, dh, grid_compositions(P.n, len(V), step), step=step)


def _best_of(job: _Job, dh: dict[tuple[int, ...], Scalar], cands: list[tuple[int, ...]], step: int) -> SmoothedDelta:
    """The best of the compositions ``cands`` (and the grid's error bound when ``step > 1``)."""
    P, V = job.problem.prepared, job.problem.vertices
    zero: Scalar = Fraction(0) if P.exact else 0.0
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
    if step > 1:
        lip = _lipschitz(dh, len(record_values(P.domain)), zero)
        err = grid_error_bound(P.n, len(V), step, [tv_distance(v, V[-1]) for v in V], lip)
    assign = tuple(v for v, cv in enumerate(best_c) for _ in range(cv))
    return job.result(
        value=best_val,
        error_bound=err,
        counts=best_c,
        assignment=assign,
        method="grid" if step > 1 else "compositions",
        evaluated=len(cands),
    )


def _shm_route(job: _Job) -> SmoothedDelta:
    """Route ``"shm"``: the sampling-histogram mechanism with two records for large ``n`` (Theorem 2), without its
    matrix — a certified branch-and-bound over the number of agents at each vertex, in log space
    (:func:`._shm.shm_smoothed_sweep`). Needs a :class:`SamplingHistogram`; floats certified by ``error_bound`` and
    ``truncation_bound``; bounded by ``max_work`` window evaluations (limit ``smoothed_work``)."""
    M, opts = job.mechanism, job.options
    if not isinstance(M, SamplingHistogram):
        raise InvalidParameterError(
            "method='shm' needs the sampling-histogram mechanism as a SamplingHistogram(n, T), "
            f"got a {type(M).__name__}"
        )
    if job.graph is not None or job.kind is not None or job.records is not None:
        raise InvalidParameterError(
            "method='shm' uses the replace-one relation on the counts of ones: graph, kind and records do not apply"
        )
    if job.n is not None and parse_int(job.n, name="n", min=1) != M.n:
        raise DomainMismatchError(f"n = {job.n} but the mechanism has {M.n} agents")
    return shm_smoothed_sweep(
        M.n,
        M.T,
        [job.level],
        job.distributions,
        M.replace,
        rtol=opts.rtol,
        tail=opts.tail,
        progress=opts.progress,
        max_work=opts.max_work,
        on_limit=opts.on_limit,
    )[0]


#: The routes of :func:`smoothed_delta` by ``method=`` name.
ROUTES: dict[str, Callable[[_Job], SmoothedDelta]] = {
    "enumeration": _enumeration,
    "compositions": _compositions,
    "grid": _grid,
    "shm": _shm_route,
}


def _auto(job: _Job) -> str:
    """``method="auto"``: ``shm`` for a SamplingHistogram over two records; otherwise ``enumeration`` when ``δ(x)``
    is not symmetric, ``compositions`` when they number at most ``max_evaluations``, else ``grid``."""
    if isinstance(job.mechanism, SamplingHistogram) and job.record_count() == 2:
        return "shm"
    if job.problem.by_histogram is None:
        return "enumeration"
    P = job.problem.prepared
    return (
        "grid" if count_compositions(P.n, len(job.problem.vertices)) > job.options.max_evaluations else "compositions"
    )


def _options(
    grid_step: Any,
    max_evaluations: Any,
    atol: float,
    rtol: float,
    tail: float,
    max_work: int | None,
    on_limit: str,
    progress: Callable[[int], None] | None,
) -> _Options:
    if grid_step is not None:
        try:
            grid_step = parse_int(grid_step, name="grid_step", min=1)
        except InvalidTypeError:
            raise InvalidParameterError(f"grid_step must be a positive integer, got {grid_step!r}") from None
    max_evaluations = parse_int(
        current_limit("smoothed_evaluations") if max_evaluations is None else max_evaluations,
        name="max_evaluations",
        min=1,
    )
    check_search_options(rtol, tail, on_limit)
    return _Options(
        grid_step=grid_step,
        max_evaluations=max_evaluations,
        atol=atol,
        rtol=rtol,
        tail=tail,
        max_work=max_work,
        on_limit=on_limit,
        progress=progress,
    )


def smoothed_delta(
    mechanism: Mechanism | SamplingHistogram,
    eps: LevelLike,
    distributions: MatrixLike,
    n: int | None = None,
    *,
    graph: RelationLike | None = None,
    kind: Domain | str | None = None,
    records: Sequence[Any] | None = None,
    method: str = "auto",
    grid_step: int | None = None,
    max_evaluations: int | None = None,
    atol: float | None = None,
    rtol: float = DEFAULT_RTOL,
    tail: float = DEFAULT_TAIL,
    max_work: int | None = None,
    on_limit: str = "bracket",
    progress: Callable[[int], None] | None = None,
) -> SmoothedDelta:
    """Smoothed δ: ``max_{π ∈ Π^n} E_{x~π}[δ_{ε,M}(x)]`` (Liu, Wang & Xia, Definition 3), with its maximiser.

    Parameters
    ----------
    mechanism : Mechanism or SamplingHistogram
        Inputs are databases of ``n`` agents: a mechanism built on ``Domain.databases``, ``Domain.bits``,
        ``Domain.histograms`` or ``Domain.counts`` (as the factories of :mod:`privgeom.smoothed` do), or one whose
        labels are those of such a Domain (:func:`~privgeom.smoothed._domains.recognise_domain`); or the
        sampling-histogram mechanism by its parameters (no matrix: ``n`` in the billions).
    eps : ε (read by :class:`privgeom.PrivacyLevel`; ``"ln(r)"`` / LogRational for exact results)
    distributions : list of probability vectors over the records (``Π``); a bare ``q`` means ``[1 − q, q]``
    n : int, optional
        Number of agents; checked against the mechanism's inputs.
    method : ``"auto"``, ``"enumeration"``, ``"compositions"``, ``"grid"`` or ``"shm"`` (:data:`ROUTES`)
        ``auto``: ``shm`` for a SamplingHistogram over two records; else every vertex assignment (non-symmetric
        ``δ``) or every composition (symmetric ``δ``, Proposition 5) when there are at most ``max_evaluations``
        of them (default: the ``smoothed_evaluations`` limit, 5,000), else a grid of compositions with a
        certified error bound (``error_bound``). The matrix routes take a SamplingHistogram as its matrix
        :func:`~privgeom.smoothed.shm` (refused above the ``shm_matrix_entries`` limit).
    grid_step : int, optional
        ``grid``: spacing of the grid (default: the smallest with at most ``max_evaluations`` points).
    atol : float, optional
        Float mode: tolerance for merging equal distributions / vertices and for deciding that ``δ(x)`` is
        symmetric in the agents (default :data:`~privgeom._core.arrays.ATOL`).
    graph : relation name, Domain, networkx graph or list of pairs, optional
        Neighbour relation of ``δ(x)``, resolved by :func:`privgeom.neighbour_graph` (default: the Domain's, replace-one).
    kind : Domain or ``"database"``/``"histogram"``/``"count"``, optional
        The inputs' Domain (a mechanism may be defined on some of its databases only), or a restriction of the kinds
        recognised from plain labels.
    records : sequence, optional
        The record values in the order of the distributions' coordinates.
    rtol : float
        ``shm``: branch-and-bound tolerance — cells whose certified upper bound is within ``value·(1 + rtol)`` are
        not split further (the gap is reported in ``error_bound``); ``rtol=0`` resolves every competitive cell.
    tail : float
        ``shm``: mass allowed outside the binomial windows; the search narrows it when the truncation bound is not
        small against the value.
    max_work : int, optional
        ``shm``: largest number of window evaluations of the branch-and-bound (default: the ``smoothed_work``
        limit, ``pg.get_limits()["smoothed_work"]``).
    on_limit : {"bracket", "raise"}
        ``shm``: at the work limit return the certified bracket (``complete=False``; default) or raise
        :class:`~privgeom.SizeLimitError` naming the limit.
    progress : callable, optional
        ``shm``: called with the number of expectations evaluated so far.

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

    Ten voters, one vote lost (the sampling-histogram mechanism), ``π ∈ conv{Bernoulli(1/10), Bernoulli(1/2)}``:
    the certified fast route and the exact matrix agree.

    >>> fast = smoothed_delta(SamplingHistogram(10, 9), 1.0, ["1/10", "1/2"])
    >>> fast.method, fast.counts, round(fast.value, 6), fast.dp_delta
    ('shm', (10, 0), 0.865163, Fraction(9, 10))
    >>> round(smoothed_delta(SamplingHistogram(10, 9), 1.0, ["1/10", "1/2"], method="compositions").value, 6)
    0.865163
    """
    if method != "auto" and method not in ROUTES:
        raise InvalidParameterError(f"unknown method {method!r}; use auto, {', '.join(ROUTES)}")
    if not isinstance(mechanism, (Mechanism, SamplingHistogram)):
        raise InvalidTypeError(
            f"smoothed_delta needs a Mechanism or a SamplingHistogram, got {type(mechanism).__name__}"
        )
    options = _options(grid_step, max_evaluations, tolerance(atol), rtol, tail, max_work, on_limit, progress)
    job = _Job(mechanism, PrivacyLevel.coerce(eps), distributions, n, graph, kind, records, options, method)
    return ROUTES[_auto(job) if method == "auto" else method](job)


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
