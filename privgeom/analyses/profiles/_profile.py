"""Exact privacy profiles of finite mechanisms: ε, δ(ε) and the whole δ(ε) curve over a neighbour graph.

For a mechanism ``M`` (``M[ω, i] = P(M(D_i) = ω)``) and a neighbour graph ``G`` on its datasets:

* **ε** (pure differential privacy, Dwork, McSherry, Nissim & Smith 2006, Def. 1; the row-wise form of
  ``docs/theory.md`` §7): the smallest ``ε`` with ``M[ω, i] ≤ e^ε M[ω, j]`` for every edge ``{i, j}`` (both
  directions) and every output ``ω``, i.e. ``ε = max ln(M[ω, i] / M[ω, j])``. It is infinite when some output has
  positive probability on one neighbour and probability zero on the other. In exact mode ``ε`` is the logarithm of a
  rational, returned as :class:`~privgeom.LogRational`.
* **δ(ε)** (approximate DP, Dwork, Kenthapadi, McSherry, Mironov & Naor 2006): the smallest ``δ`` with
  ``P(M(D) ∈ S) ≤ e^ε P(M(D') ∈ S) + δ`` for every event ``S`` and every directed edge ``(D, D')``. For a finite
  output space the worst event is ``S = {ω : M[ω, D] > e^ε M[ω, D']}``, so ``δ(ε)`` is the maximum over directed
  edges of the *hockey-stick divergence* ``Σ_ω (M[ω, D] − e^ε M[ω, D'])₊`` (Barthe & Olmedo 2013; Balle, Barthe &
  Gaboardi 2018, Def. 2 and Thm. 1). It is exact (a ``Fraction``) when ``M`` is exact and ``e^ε`` is rational.
* **The δ(ε) curve.** Write ``t = e^ε``. For one directed edge, ``Σ_ω (a_ω − t b_ω)₊ = max_S (P(S) − t Q(S))`` is a
  maximum of lines in ``t``, and the only sets that matter are the prefixes of the outputs sorted by the ratio
  ``a_ω / b_ω``. So ``δ`` is the upper envelope of finitely many lines ``A − t B`` (``A = P(M(D) ∈ S)``,
  ``B = P(M(D') ∈ S)``): convex, non-increasing and piecewise linear in ``t``, with rational breakpoints in exact
  mode. It reaches 0 exactly at ``t = e^{ε}`` for the exact ε above (``δ(ε) = 0`` iff every ratio is ``≤ e^ε``).

Examples
--------
>>> from privgeom import randomized_response
>>> from privgeom.graphs._graphs import hamming_graph
>>> M = randomized_response(2, "3/4")
>>> str(epsilon(M, hamming_graph(2)).level)
'ln(3)'
>>> delta(M, hamming_graph(2), exp_eps=2).delta
Fraction(1, 4)

The whole curve ``ε ↦ δ(ε)`` is :func:`privgeom.analyses.delta_curve` (module ``_profile_curve``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ..._core.errors import InvalidParameterError, InvalidTypeError
from ..._core import numeric as _numeric
from ..._core.domain import Domain, RelationLike
from ..._core.level import LevelLike, PrivacyLevel, ScalarLike
from ..._core.numeric import (ATOL, LogRational, Scalar, hockey_stick_columns, hockey_stick_int, int_columns_log,
                        is_exact_scalar, parse_scalar)
from ..._core.results import Result, to_jsonable
from ..._core.numbers import level_text as format_level
from ...mechanisms._mechanism import Mechanism
from ._scan import (  # noqa: F401  (MAX_PROFILE_WORK, profile_work, _prepare re-exported for callers of _profile)
    _EXACT_RECHECK,
    MAX_PROFILE_WORK,
    _check_mechanism,
    _delta_scan,
    _entry_reader,
    _Prepared,
    _prepare,
    _resolve_pairs,
    _scan_max,
    _scan_witness,
    profile_work,
)

__all__ = [
    "MAX_PROFILE_WORK",
    "EPSILON_METHODS",
    "DELTA_METHODS",
    "profile_work",
    "EpsilonResult",
    "DeltaResult",
    "epsilon",
    "delta",
    "hockey_stick",
    "hockey_stick_event",
    "hockey_stick_columns",
]


# ---------------------------------------------------------------------------------------------------- ε
@dataclass(frozen=True)
class EpsilonResult(Result):
    """The exact ε of a mechanism over a neighbour graph, with the edge and output that attain it.

    Attributes
    ----------
    level : PrivacyLevel
        ``ε = max ln(M[ω, D] / M[ω, D'])``: ``level.eps`` is a :class:`~privgeom.LogRational` and ``level.exp_eps``
        the exact ratio ``p / q`` in exact mode, floats otherwise; infinite (``level.infinite``, ``e^ε = inf``) when
        some output separates two neighbours. ``float(result)`` is ε as a float.
    exact : bool
        True when computed with Fractions (``level.eps`` is then ``ln`` of an exact rational).
    infinite : bool
        True when some output is possible on ``D`` and impossible on its neighbour ``D'``.
    edge : tuple of str or None
        The witness direction ``(D, D')``: the ratio is ``P(M(D) = ω) / P(M(D') = ω)``. None if the graph has no
        edges (then ε = 0).
    output : str or None
        The witness output ``ω``.
    p, q : Fraction, float or None
        ``P(M(D) = ω)`` and ``P(M(D') = ω)`` (``q = 0`` when infinite).
    n_edges : int
        Number of (undirected) edges examined.
    graph : str
        Name of the neighbour graph.
    """

    level: PrivacyLevel
    exact: bool
    infinite: bool
    edge: tuple[str, str] | None
    output: str | None
    p: Scalar | None
    q: Scalar | None
    n_edges: int
    graph: str

    def __float__(self) -> float:
        return float(self.level)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        if self.edge is None:
            return f"ε = 0 ({mode}): the neighbour graph {self.graph!r} has no edges"
        d, d2 = self.edge
        if self.infinite:
            return (
                f"ε = ∞ ({mode}) over {self.n_edges} edges of {self.graph!r}: output {self.output!r} has "
                f"P(ω | {d}) = {format_level(self.p)} but P(ω | {d2}) = 0"
            )
        return (
            f"ε = {format_level(self.level.eps)} ({mode}) over {self.n_edges} edges of {self.graph!r}; attained on "
            f"edge {d} → {d2} at output {self.output!r}: P(ω | {d}) = {format_level(self.p)}, P(ω | {d2}) = "
            f"{format_level(self.q)}"
        )


@to_jsonable.register(EpsilonResult)
def _epsilon_json(obj: EpsilonResult) -> Any:
    return obj.to_dict()


#: ``ε = ∞`` (``e^ε = inf``): some output separates two neighbours.
_INFINITE = PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True)


def _ratio_level(ratio: Fraction) -> PrivacyLevel:
    """The exact level ``ε = ln(ratio)`` of a witness ratio ``p / q >= 1``."""
    return PrivacyLevel.from_exp_eps(ratio)


def _log_level(eps: float) -> PrivacyLevel:
    """The float level of a log-ratio ``ε >= 0`` (kept as computed; ``e^ε = inf`` beyond the float range)."""
    return PrivacyLevel.from_eps(float(eps), allow_infinite=True)


def _zero_level(exact: bool) -> PrivacyLevel:
    """``ε = 0``: exact (``e^ε = 1``) or float."""
    return PrivacyLevel.from_exp_eps(1) if exact else PrivacyLevel.from_eps(0.0)


def epsilon(mechanism: Mechanism, graph: RelationLike, *, method: str = "auto", max_work: int | None = None) -> EpsilonResult:
    """The exact ε of a finite mechanism over a neighbour graph (pure differential privacy).

    ``ε = max over edges {D, D'} (both directions) and outputs ω of ln(P(M(D) = ω) / P(M(D') = ω))``, outputs
    with probability 0 on both neighbours ignored (Dwork et al. 2006, Def. 1; over a general graph this is the
    Blowfish/"generic DP" form, Kifer & Machanavajjhala 2014; Lin & Kifer's row-cone condition
    ``x_i ≤ e^ε x_j``, ``docs/theory.md`` §7). The mechanism is ε'-DP over the graph iff ``ε' ≥ ε``.

    Parameters
    ----------
    mechanism : Mechanism
        Exact mechanisms give an exact answer (:class:`~privgeom.LogRational`); float ones a float.
    graph : str, Domain, networkx.Graph or iterable of pairs
        Neighbour relation on ``mechanism.inputs``, resolved by :func:`privgeom.neighbour_graph`: a relation name
        (``"hamming"``, ``"path"``, ``"complete"``, … — a string is always a name), a :class:`~privgeom.Domain`,
        or a graph / edge list (integer nodes are accepted as column indices).
    method : {"auto", "scan", "complete", "factors", "fraction"}
        The route (each a private function of this module with its own docstring, ``EPSILON_METHODS``).
        ``"scan"``: every directed edge (the generic route). ``"complete"``: for the complete relation only,
        ``ε = max_ω (max_i ln M[ω, i] − min_i ln M[ω, i])`` from the row ranges in ``O(outputs × inputs)``
        (every pair of datasets is an edge, so the worst pair of a row is its largest and smallest entry).
        ``"factors"``: an exact mechanism kept factored into one-bit factors (:func:`~privgeom.randomized_response`,
        :attr:`~privgeom.Mechanism.factors`) on the relation ``"hamming"``: ``ε = max_f ε_f`` from the factors, no
        dense matrix (``docs/theory.md`` §7; same value and witness as the scan). ``"fraction"``: the scan deciding
        with Fraction objects (the reference route). ``"auto"`` (default): ``"factors"`` when it applies and the
        dense matrix is beyond the size limit ``exact_entries``, else ``"complete"`` when the relation is complete,
        else ``"scan"``.
    max_work : int, optional
        Refuse a scan costlier than this (units of :func:`profile_work`; default :data:`MAX_PROFILE_WORK`),
        before computing anything.

    Returns
    -------
    EpsilonResult
        ``level`` (infinite, with ``infinite=True``, when some output separates two neighbours perfectly) and
        the witness edge ``(D, D')`` and output. Ties are broken by edge order (sorted column indices, ``(i, j)``
        before ``(j, i)``) and then output order.

    Raises
    ------
    InvalidTypeError
        ``mechanism`` is not a Mechanism, or ``graph`` is neither a graph nor a list of pairs.
    InvalidParameterError
        An unknown ``method`` or one that does not apply; a relation name that is unknown or does not apply to
        the inputs (e.g. ``"hamming"`` on labels that are not bit strings); the message lists the valid ones.
    DomainMismatchError
        A graph node is not one of the mechanism's datasets.
    SizeLimitError
        The scan would cost more than ``max_work``.

    Notes
    -----
    Exact mode first scans the log-ratios in floats (logs of the numerators and denominators, so tiny Fractions do
    not underflow) and then compares exactly, with Fractions, every candidate within a safe margin of the float
    maximum; the answer is therefore exact, not rounded.

    Examples
    --------
    Randomized response with ``p = 3/4`` on two bits (Lin & Kifer §V): ``ε = ln(p/(1−p)) = ln 3`` on the Hamming
    graph, twice that on the complete graph.

    >>> from privgeom import randomized_response
    >>> from privgeom.graphs._graphs import hamming_graph, complete_graph
    >>> M = randomized_response(2, "3/4")
    >>> r = epsilon(M, hamming_graph(2))
    >>> r.level.eps, r.level.exp_eps, r.edge, r.output, r.p, r.q
    (LogRational(ratio=Fraction(3, 1)), Fraction(3, 1), ('11', '10'), '11', Fraction(9, 16), Fraction(3, 16))
    >>> str(epsilon(M, complete_graph(M.inputs)).level), str(epsilon(M, "complete").level)
    ('ln(9)', 'ln(9)')
    >>> epsilon(M, "hamming") == epsilon(M, hamming_graph(2)) == epsilon(M, "hamming", method="fraction")
    True
    >>> from privgeom import Mechanism
    >>> print(epsilon(Mechanism([[1, "1/2"], [0, "1/2"]], inputs=["a", "b"]), [("a", "b")]))
    ε = ∞ (exact) over 1 edges of 'user graph': output 'o1' has P(ω | b) = 1/2 but P(ω | a) = 0
    """
    route = _EPSILON_ROUTES.get(method)
    if route is None:
        raise InvalidParameterError(f"unknown method {method!r}; use one of {', '.join(EPSILON_METHODS)}")
    return route(_check_mechanism(mechanism), graph, max_work)


def _epsilon_route_auto(M: Mechanism, graph: RelationLike, max_work: int | None) -> EpsilonResult:
    """``method="auto"``: the cheapest route that applies.

    ``"factors"`` when ``M`` is factored, the relation is its Hamming relation and the dense matrix is beyond the
    size limit (below it the scan gives the same answer and honours ``max_work``); else ``"complete"`` when the
    relation is complete (row ranges, ``O(outputs × inputs)``); else ``"scan"``, on the edges resolved here.
    Sources: those of the three routes.
    """
    if _factored_hamming(M, graph, dense_refused=True):
        return _epsilon_factors(M)
    pairs = _resolve_pairs(M, graph, max_work, "ε", complete_route=True)
    if pairs.complete:
        return _epsilon_complete(M, pairs.name)
    return _epsilon_scan(_prepare(M, graph, max_work=max_work, what="ε", pairs=pairs), fraction=False)


def _epsilon_route_scan(M: Mechanism, graph: RelationLike, max_work: int | None) -> EpsilonResult:
    """``method="scan"``: every directed edge, one per class of equal column pairs (the generic route).

    Needs only a relation; costs :func:`profile_work` (refused above ``max_work`` before anything is computed).
    Exact mechanisms are decided on their integer columns (:func:`_epsilon_scan`; Dwork et al. 2006, Def. 1).
    """
    return _epsilon_scan(_prepare(M, graph, max_work=max_work, what="ε"), fraction=False)


def _epsilon_route_fraction(M: Mechanism, graph: RelationLike, max_work: int | None) -> EpsilonResult:
    """``method="fraction"``: the scan deciding exact candidates with Fraction objects (the reference route).

    Same cost as ``"scan"`` plus a Fraction division per near-maximal candidate; kept as a cross-check of the
    integer route (same value and witness). Source: Dwork et al. 2006, Def. 1.
    """
    return _epsilon_scan(_prepare(M, graph, max_work=max_work, what="ε", fraction=True), fraction=True)


def _epsilon_route_complete(M: Mechanism, graph: RelationLike, max_work: int | None) -> EpsilonResult:
    """``method="complete"``: row ranges (:func:`_epsilon_complete`), for the complete relation only.

    Needs the complete relation (its name, a Domain whose default it is, or a complete networkx graph on the
    datasets); costs ``O(outputs × inputs)`` and lists no edge. Source: Dwork et al. 2006, Def. 1 on ``K_N``.
    """
    pairs = _resolve_pairs(M, graph, max_work, "ε", complete_route=True)
    if not pairs.complete:
        raise InvalidParameterError(f"method='complete' needs the complete relation; {pairs.name!r} is not complete")
    return _epsilon_complete(M, pairs.name)


def _epsilon_route_factors(M: Mechanism, graph: RelationLike, max_work: int | None) -> EpsilonResult:
    """``method="factors"``: from the one-bit factors (:func:`_epsilon_factors`), no dense matrix.

    Needs an exact mechanism kept factored into 2×2 factors (:attr:`~privgeom.Mechanism.factors`) and its Hamming
    relation; costs ``O(factors)`` (no edge is scanned, so ``max_work`` does not apply). Source:
    ``docs/theory.md`` §7 (ε of a product over its Hamming relation).
    """
    if not _factored_hamming(M, graph, dense_refused=False):
        raise InvalidParameterError("method='factors' needs a factored mechanism (randomized_response) and the "
                                    "relation 'hamming' on its bit strings")
    return _epsilon_factors(M)


#: The routes of :func:`epsilon` by ``method=`` name (see its ``method`` parameter).
_EPSILON_ROUTES: dict[str, Callable[[Mechanism, RelationLike, int | None], EpsilonResult]] = {
    "auto": _epsilon_route_auto,
    "scan": _epsilon_route_scan,
    "complete": _epsilon_route_complete,
    "factors": _epsilon_route_factors,
    "fraction": _epsilon_route_fraction,
}
#: Methods of :func:`epsilon`: the names of its routes.
EPSILON_METHODS = tuple(_EPSILON_ROUTES)


def _epsilon_scan(P: _Prepared, fraction: bool) -> EpsilonResult:
    """ε by scanning one directed edge per class: infinities and the float maximum first (:func:`_scan_max`), then
    the witness (:func:`_scan_witness`), decided exactly in exact mode."""
    M, exact = P.M, P.exact
    if len(P.I) == 0:
        return EpsilonResult(level=_zero_level(exact), exact=exact, infinite=False, edge=None, output=None, p=None,
                             q=None, n_edges=0, graph=P.graph)
    entry = _entry_reader(M, fraction)
    I, J = P.I[P.reps], P.J[P.reps]  # one directed edge per class; r indexes these
    best, separated = _scan_max(P)
    if separated is not None:  # some output is possible on D and impossible on D'
        r, w = separated
        p = entry(w, I[r])
        return EpsilonResult(level=_INFINITE, exact=exact, infinite=True, edge=P.label(int(P.reps[r])),
                             output=M.outputs[w], p=p, q=p * 0, n_edges=P.n_edges, graph=P.graph)
    r, w = _scan_witness(P, best, fraction)
    p, q = entry(w, I[r]), entry(w, J[r])
    level = _ratio_level(Fraction(p) / Fraction(q)) if exact else _log_level(P.L[w, I[r]] - P.L[w, J[r]])
    return EpsilonResult(level=level, exact=exact, infinite=False, edge=P.label(int(P.reps[r])),
                         output=M.outputs[w], p=p, q=q, n_edges=P.n_edges, graph=P.graph)


def _epsilon_complete(M: Mechanism, name: str) -> EpsilonResult:
    """ε over the complete relation from row ranges: ``max_ω ln(max_i M[ω, i] / min_i M[ω, i])``.

    On the complete graph every ordered pair of datasets is a directed edge, so for each output the largest ratio
    is its largest entry over its smallest; the row is infinite when it mixes zero and positive entries
    (Dwork et al. 2006, Def. 1, on ``K_N``: local DP). ``O(outputs × inputs)`` instead of ``O(outputs × inputs²)``.
    Exact mode: float scan on logs of numerators and denominators, then exact Fractions on every row within the
    re-check margin. Ties are broken by output order (the scan breaks them by edge order: same ε, maybe another
    witness).
    """
    N = M.n_inputs
    exact = M.exact
    if N < 2:
        return EpsilonResult(level=_zero_level(exact), exact=exact, infinite=False, edge=None, output=None, p=None,
                             q=None, n_edges=0, graph=name)
    n_edges = N * (N - 1) // 2
    if exact:
        C = M.int_columns
        Z = C.numerators == 0
        L = int_columns_log(C.numerators, C.denominators)
    else:  # no grouping of equal entries needed: logs straight from the float matrix
        Z = M.matrix == 0
        L = np.log(np.where(Z, 1.0, M.matrix))
    nz_any, z_any = (~Z).any(axis=1), Z.any(axis=1)
    mixed = np.flatnonzero(nz_any & z_any)
    if mixed.size:
        w = int(mixed[0])
        i, j = int(np.argmax(~Z[w])), int(np.argmax(Z[w]))
        p = C.entry(w, i) if exact else float(M.matrix[w, i])
        return EpsilonResult(level=_INFINITE, exact=exact, infinite=True, edge=(M.inputs[i], M.inputs[j]),
                             output=M.outputs[w], p=p, q=p * 0, n_edges=n_edges, graph=name)
    rows = np.flatnonzero(nz_any)  # rows without zeros (rows of zeros only carry no constraint)
    Lr = L[rows]
    span = Lr.max(axis=1) - Lr.min(axis=1)
    if not exact:
        r = int(np.argmax(span))
        w = int(rows[r])
        i, j = int(np.argmax(Lr[r])), int(np.argmin(Lr[r]))
        if i == j:
            i, j = 0, 1
        return EpsilonResult(level=_log_level(span[r]), exact=False, infinite=False, edge=(M.inputs[i], M.inputs[j]),
                             output=M.outputs[w], p=float(M.matrix[w, i]), q=float(M.matrix[w, j]),
                             n_edges=n_edges, graph=name)
    tol = _EXACT_RECHECK * (1.0 + float(np.abs(Lr).max()))
    win: tuple[Fraction, int, int, int] | None = None
    for r in np.flatnonzero(span >= float(span.max()) - tol).tolist():
        w = int(rows[r])
        row = M.row(w)
        i = max(range(N), key=lambda c: (row[c], -c))
        j = min(range(N), key=lambda c: (row[c], c))
        if i == j:
            i, j = 0, 1
        ratio = row[i] / row[j]
        if win is None or ratio > win[0]:
            win = (ratio, w, i, j)
    assert win is not None
    ratio, w, i, j = win
    return EpsilonResult(level=_ratio_level(ratio), exact=True, infinite=False, edge=(M.inputs[i], M.inputs[j]),
                         output=M.outputs[w], p=C.entry(w, i), q=C.entry(w, j), n_edges=n_edges, graph=name)


def _factored_hamming(M: Mechanism, graph: RelationLike, *, dense_refused: bool) -> bool:
    """True when ``M`` is an exact mechanism kept factored into one-bit factors (:attr:`Mechanism.factors`) and
    ``graph`` names the Hamming relation of its bit strings (the string ``"hamming"`` or its Domain); with
    ``dense_refused`` only when its dense matrix is beyond the dense size limit (below it ``"auto"`` keeps the scan,
    which gives the same answer and honours ``max_work``)."""
    F = M.factors
    if F is None or not M.exact or not all(f.shape == (2, 2) for f in F):
        return False
    if isinstance(graph, Domain):
        if graph.labels != M.inputs or graph.default_relation != "hamming":
            return False
    elif graph != "hamming":
        return False
    if M.domain.kind != "bits":
        return False
    return not dense_refused or M.n_inputs * M.n_outputs > _numeric.MAX_EXACT_ENTRIES


def _epsilon_factors(M: Mechanism) -> EpsilonResult:
    """ε of a product ``F_1 ⊗ … ⊗ F_k`` over the Hamming relation (neighbours differ in one factor's input) from
    its factors: ``ε = max_f ε_f`` with ``ε_f`` the ε of ``F_f`` on the complete graph of its inputs.

    For neighbours differing in factor ``f`` the product's entries are ``F_f[ω_f, a] Π_{g≠f} F_g[ω_g, d_g]`` and
    ``F_f[ω_f, b] Π_{g≠f} F_g[ω_g, d_g]``; outputs with ``Π_{g≠f} F_g[ω_g, d_g] = 0`` carry no constraint and every
    column has a positive entry, so the largest ratio over ``ω`` is the largest ratio of ``F_f`` (``docs/theory.md``
    §7; Dwork et al. 2006, Def. 1). The witness: the last factor attaining the maximum (as the scan, whose first
    edge differs in the last bit), the first input and its first positive output in every other factor.
    """
    results = [_epsilon_complete(F, "complete") for F in M.factors or ()]
    best = max(range(len(results)), key=lambda f: (results[f].level, f))
    res = results[best]
    k = len(results)
    n_edges = M.n_inputs * sum(F.n_inputs - 1 for F in M.factors or ()) // 2
    name = f"hamming({k})"
    if res.edge is None:
        return EpsilonResult(level=_zero_level(True), exact=True, infinite=False, edge=None, output=None, p=None,
                             q=None, n_edges=n_edges, graph=name)
    ins, outs = [], []
    pos = Fraction(1)
    for f, F in enumerate(M.factors or ()):
        if f == best:
            continue
        col = F.column(0)
        w = next(o for o, v in enumerate(col) if v > 0)
        pos *= col[w]
        ins.append(F.inputs[0])
        outs.append(F.outputs[w])
    a, b = res.edge
    D = "".join(ins[:best] + [a] + ins[best:])
    D2 = "".join(ins[:best] + [b] + ins[best:])
    out = "".join(outs[:best] + [str(res.output)] + outs[best:])
    assert isinstance(res.p, Fraction) and isinstance(res.q, Fraction)
    return EpsilonResult(level=res.level, exact=True, infinite=res.infinite, edge=(D, D2), output=out,
                         p=res.p * pos, q=res.q * pos, n_edges=n_edges, graph=name)


# ---------------------------------------------------------------------------------------------------- δ
@dataclass(frozen=True)
class DeltaResult(Result):
    """The exact ``δ(ε)`` of a mechanism over a neighbour graph, with the edge and event that attain it.

    Attributes
    ----------
    delta : Fraction or float
        ``max over directed edges (D, D') of Σ_ω (P(M(D) = ω) − e^ε P(M(D') = ω))₊``.
    level : PrivacyLevel
        The ε asked for: ``level.eps`` (a LogRational when ``e^ε`` is rational) and ``level.exp_eps`` (``e^ε``).
    exact : bool
        True when ``delta`` is an exact Fraction (exact mechanism and rational ``e^ε``).
    edge : tuple of str or None
        The witness direction ``(D, D')`` (None when the graph has no edges).
    outputs : tuple of str
        The witness event ``S = {ω : P(M(D) = ω) > e^ε P(M(D') = ω)}``, so that
        ``delta = P(M(D) ∈ S) − e^ε P(M(D') ∈ S)``; empty when ``delta = 0``.
    p_event, q_event : Fraction or float
        ``P(M(D) ∈ S)`` and ``P(M(D') ∈ S)``.
    n_edges : int
        Number of (undirected) edges examined.
    graph : str
        Name of the neighbour graph.
    detail : str
        Notes (e.g. why the computation fell back to floats).
    """

    delta: Scalar
    level: PrivacyLevel
    exact: bool
    edge: tuple[str, str] | None
    outputs: tuple[str, ...]
    p_event: Scalar
    q_event: Scalar
    n_edges: int
    graph: str
    detail: str = ""

    def __float__(self) -> float:
        return float(self.delta)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        head = (f"δ(ε = {format_level(self.level.eps)}) = {format_level(self.delta)} ({mode}) over {self.n_edges} edges "
                f"of {self.graph!r}")
        if self.edge is None:
            text = head + "; no edges"
        elif not self.outputs:
            text = head + "; no event separates any pair of neighbours at this ε"
        else:
            d, d2 = self.edge
            shown = ", ".join(self.outputs[:8]) + (", …" if len(self.outputs) > 8 else "")
            text = (
                f"{head}; attained on edge {d} → {d2} with the event S = {{{shown}}}: "
                f"P(S | {d}) = {format_level(self.p_event)}, e^ε P(S | {d2}) = {format_level(self.level.exp_eps)} × "
                f"{format_level(self.q_event)}"
            )
        return text + (f" [{self.detail}]" if self.detail else "")


def delta(
    mechanism: Mechanism, graph: RelationLike, eps: LevelLike | None = None, *, exp_eps: ScalarLike | None = None,
    max_work: int | None = None, method: str = "auto",
) -> DeltaResult:
    """The exact ``δ(ε)`` of a finite mechanism over a neighbour graph (approximate differential privacy).

    ``δ(ε) = max over edges {D, D'} (both directions) of Σ_ω (P(M(D) = ω) − e^ε P(M(D') = ω))₊``, the smallest
    ``δ`` for which the mechanism is ``(ε, δ)``-DP over the graph (Dwork et al. 2006; the hockey-stick form is
    Barthe & Olmedo 2013 and Balle, Barthe & Gaboardi 2018, Thm. 1).

    Parameters
    ----------
    mechanism : Mechanism
    graph : str, Domain, networkx.Graph or iterable of pairs
        Neighbour relation on ``mechanism.inputs`` (a relation name or a graph; see :func:`epsilon`).
    eps : float, LogRational, "ln(r)", rational or PrivacyLevel, optional
        ``ε >= 0``. A :class:`~privgeom.LogRational` ``ln(r)`` gives an exact answer for an exact mechanism; a
        float gives a float. A rational ``ε ≠ 0`` (``1``, ``"1/2"``) has an irrational ``e^ε``, so it is computed in
        floats and the result says so.
    exp_eps : rational or float, optional
        ``e^ε >= 1`` directly (instead of ``eps``); a rational value gives an exact Fraction. Both are parsed by
        :meth:`privgeom.PrivacyLevel.parse` (an ε whose exponential overflows means ``e^ε = ∞``).
    max_work : int, optional
        Refuse a scan costlier than this (see :func:`epsilon`).
    method : {"auto", "factors", "fraction"}
        The route (``DELTA_METHODS``, each a private function with its own docstring). ``"auto"``: exact sums
        on integers (:attr:`~privgeom.Mechanism.int_columns`), or ``"factors"`` when it applies and the dense
        matrix is beyond the size limit; ``"factors"``: a factored mechanism (:attr:`~privgeom.Mechanism.factors`)
        on the Hamming relation of its bits, from its factors; ``"fraction"``: the scan with Fraction objects (the
        reference route, slower).

    Returns
    -------
    DeltaResult
        ``delta`` with its witness: the directed edge ``(D, D')`` and the event ``S`` with
        ``delta = P(M(D) ∈ S) − e^ε P(M(D') ∈ S)``; ``level`` is the ε asked for.

    Raises
    ------
    InvalidParameterError
        Both or neither of ``eps``/``exp_eps``; ``ε < 0``; an unknown ``method`` or one that does not apply.
    InvalidTypeError, DomainMismatchError
        Bad mechanism or graph (see :func:`epsilon`).

    Examples
    --------
    >>> from privgeom import randomized_response, LogRational
    >>> from privgeom.graphs._graphs import hamming_graph
    >>> M = randomized_response(1, "3/4")
    >>> r = delta(M, [("1", "0")], exp_eps=1)      # ε = 0: the total-variation distance
    >>> r.delta, r.edge, r.outputs, str(r.level)
    (Fraction(1, 2), ('1', '0'), ('1',), 'ln(1)')
    >>> delta(M, [("1", "0")], LogRational(3)).delta     # δ(ln 3) = 0: RR(3/4) is ln(3)-DP
    Fraction(0, 1)
    >>> round(delta(M, [("1", "0")], 0.5).delta, 6)
    0.33782
    """
    route = _DELTA_ROUTES.get(method)
    if route is None:
        raise InvalidParameterError(f"unknown method {method!r}; use one of {', '.join(DELTA_METHODS)}")
    return route(mechanism, graph, PrivacyLevel.parse(eps, exp_eps, allow_infinite=True), max_work)


def _delta_route_auto(mechanism: Mechanism, graph: RelationLike, level: PrivacyLevel, max_work: int | None) -> DeltaResult:
    """``method="auto"``: from the factors (:func:`_delta_factors`) when ``mechanism`` is factored, ``e^ε`` exact,
    the relation its Hamming relation and the dense matrix beyond the size limit; else the scan on integers
    (:func:`_delta_on`), which costs :func:`profile_work` and honours ``max_work``. Source: Balle, Barthe & Gaboardi
    2018, Thm. 1 (δ as the largest hockey-stick divergence over directed edges)."""
    if isinstance(mechanism, Mechanism) and isinstance(level.exp_eps, Fraction) and \
            _factored_hamming(mechanism, graph, dense_refused=True):
        return _delta_factors(mechanism, level)
    return _delta_on(_prepare(mechanism, graph, max_work=max_work, what="δ(ε)"), level, fraction=False)


def _delta_route_factors(mechanism: Mechanism, graph: RelationLike, level: PrivacyLevel,
                         max_work: int | None) -> DeltaResult:
    """``method="factors"``: ``δ = max_f δ_f`` from the one-bit factors (:func:`_delta_factors`), no dense matrix.

    Needs an exact mechanism kept factored into 2×2 factors, a rational ``e^ε`` and the Hamming relation of its
    bits; costs ``O(factors)`` (no edge is scanned, so ``max_work`` does not apply). Source: ``docs/theory.md`` §7.
    """
    if not (isinstance(mechanism, Mechanism) and isinstance(level.exp_eps, Fraction)
            and _factored_hamming(mechanism, graph, dense_refused=False)):
        raise InvalidParameterError("method='factors' needs a factored exact mechanism (randomized_response), an "
                                    "exact e^ε and the relation 'hamming' on its bit strings")
    return _delta_factors(mechanism, level)


def _delta_route_fraction(mechanism: Mechanism, graph: RelationLike, level: PrivacyLevel,
                          max_work: int | None) -> DeltaResult:
    """``method="fraction"``: the scan with Fraction objects (the reference route before integer columns; same
    answer, slower). Costs :func:`profile_work` plus one exact hockey-stick sum per near-maximal class. Source: as
    ``"auto"``."""
    return _delta_on(_prepare(mechanism, graph, max_work=max_work, what="δ(ε)", fraction=True), level, fraction=True)


#: The routes of :func:`delta` by ``method=`` name (see its ``method`` parameter).
_DELTA_ROUTES: dict[str, Callable[[Mechanism, RelationLike, PrivacyLevel, int | None], DeltaResult]] = {
    "auto": _delta_route_auto,
    "factors": _delta_route_factors,
    "fraction": _delta_route_fraction,
}
#: Methods of :func:`delta`: the names of its routes.
DELTA_METHODS = tuple(_DELTA_ROUTES)


def _delta_on(P: _Prepared, level: PrivacyLevel, fraction: bool) -> DeltaResult:
    """δ(ε) of a prepared scan (:func:`_delta_scan`) with its witness event ``S = {ω : M[ω, D] > e^ε M[ω, D']}``
    (Balle, Barthe & Gaboardi 2018, Thm. 1: the worst event of the hockey-stick divergence)."""
    M, t = P.M, level.exp_eps
    exact = M.exact and isinstance(t, Fraction)
    note = level.note or ("e^ε given as a float: computed in float" if M.exact and not exact else "")
    zero: Scalar = Fraction(0) if exact else 0.0
    if len(P.I) == 0:
        return DeltaResult(delta=zero, level=level, exact=exact, edge=None, outputs=(), p_event=zero, q_event=zero,
                           n_edges=0, graph=P.graph, detail=note)
    value, d = _delta_scan(P, t, fraction)
    a = list(M.column(int(P.I[d]))) if exact else [float(v) for v in P.X[:, P.I[d]]]
    b = list(M.column(int(P.J[d]))) if exact else [float(v) for v in P.X[:, P.J[d]]]
    if value > 0:
        if not exact and math.isinf(t):
            S = [w for w in range(M.n_outputs) if b[w] == 0 and a[w] > 0]
        else:
            S = [w for w in range(M.n_outputs) if a[w] - t * b[w] > 0]
    else:
        S = []
    p_ev: Scalar = sum((a[w] for w in S), zero)
    q_ev: Scalar = sum((b[w] for w in S), zero)
    return DeltaResult(delta=value, level=level, exact=exact, edge=P.label(d), outputs=tuple(M.outputs[w] for w in S),
                       p_event=p_ev, q_event=q_ev, n_edges=P.n_edges, graph=P.graph, detail=note)


def _delta_factors(M: Mechanism, level: PrivacyLevel) -> DeltaResult:
    """δ(ε) of a product ``F_1 ⊗ … ⊗ F_k`` over its Hamming relation from the factors: ``max_f δ_f(ε)``.

    For neighbours differing in factor ``f`` the two output distributions are ``P ⊗ R`` and ``Q ⊗ R`` with ``R`` the
    product of the other factors' columns, and ``Σ_{ω, ρ} (P(ω) R(ρ) − t Q(ω) R(ρ))₊ = Σ_ω (P(ω) − t Q(ω))₊`` since
    ``Σ_ρ R(ρ) = 1`` (Balle, Barthe & Gaboardi 2018, Thm. 1; ``docs/theory.md`` §7). The witness event is
    ``S = {ω : ω_f ∈ S_f, R(ρ) > 0}``; the last factor attaining the maximum is reported, with the first input of the
    others (the scan's choice).
    """
    F = M.factors or ()
    results = [delta(G, [(G.inputs[0], G.inputs[1])], exp_eps=level.exp_eps) for G in F]
    best = max(range(len(results)), key=lambda f: (results[f].delta, f))
    res = results[best]
    n_edges = M.n_inputs * len(F) // 2
    a, b = res.edge or (F[best].inputs[0], F[best].inputs[1])
    ins = [G.inputs[0] for G in F]
    D = "".join(ins[:best] + [a] + ins[best + 1:])
    D2 = "".join(ins[:best] + [b] + ins[best + 1:])
    # S = {ω : M[ω, D] > e^ε M[ω, D']}: ω_f in S_f and every other factor positive at its input (bit labels: one
    # character per factor)
    allowed = [{G.outputs[w] for w, v in enumerate(G.column(0)) if v > 0} for G in F]
    allowed[best] = set(res.outputs)
    outs = tuple(o for o in M.outputs if all(ch in ok for ch, ok in zip(o, allowed))) if res.outputs else ()
    return DeltaResult(delta=res.delta, level=level, exact=True, edge=(D, D2), outputs=outs, p_event=res.p_event,
                       q_event=res.q_event, n_edges=n_edges, graph=f"hamming({len(F)})", detail=level.note)


# ---------------------------------------------------------------------------------------------------- hockey stick
def _distribution(values: Any, name: str, exact: bool | None) -> list[Scalar]:
    if isinstance(values, (str, bytes)) or isinstance(values, Mechanism):
        raise InvalidTypeError(f"{name} must be a sequence of probabilities, got {type(values).__name__}")
    try:
        items = list(np.asarray(values, dtype=object).ravel()) if isinstance(values, np.ndarray) else list(values)
    except TypeError:
        raise InvalidTypeError(f"{name} must be a sequence of probabilities, got {values!r}") from None
    if not items:
        raise InvalidParameterError(f"{name} is empty")
    out = [parse_scalar(v, name=f"{name}[{i}]", exact=exact) for i, v in enumerate(items)]
    for i, v in enumerate(out):
        if v < 0:
            raise InvalidParameterError(f"{name}[{i}] = {format_level(v)} is negative; probabilities must be >= 0")
    total = sum(out)
    if (exact and total != 1) or (not exact and abs(float(total) - 1.0) > ATOL * max(1, len(out))):
        raise InvalidParameterError(f"{name} sums to {format_level(total)}, not 1: it is not a probability distribution")
    return out


class _Pair(NamedTuple):
    """Two validated distributions on the same outputs and ``t = e^ε`` (all exact, or all float)."""

    p: list[Scalar]
    q: list[Scalar]
    t: Scalar


def _pair(P: Any, Q: Any, exp_eps: ScalarLike | LogRational) -> _Pair:
    if isinstance(exp_eps, LogRational):
        exp_eps = exp_eps.ratio
    t = parse_scalar(exp_eps, name="exp_eps")
    if t < 0:
        raise InvalidParameterError(f"exp_eps must be >= 0, got {format_level(t)}")
    raw = [list(x) if not isinstance(x, (str, bytes, Mechanism)) and hasattr(x, "__iter__") else x for x in (P, Q)]
    exact = isinstance(t, Fraction) and all(
        isinstance(r, list) and all(is_exact_scalar(v) for v in r) for r in raw
    )
    p = _distribution(raw[0], "P", exact)
    q = _distribution(raw[1], "Q", exact)
    if len(p) != len(q):
        raise InvalidParameterError(f"P and Q must be distributions on the same outputs, got lengths {len(p)} and {len(q)}")
    return _Pair(p=p, q=q, t=t if exact else float(t))


def hockey_stick(P: Sequence[ScalarLike], Q: Sequence[ScalarLike], exp_eps: ScalarLike | LogRational) -> Scalar:
    """The hockey-stick divergence ``E_t(P ‖ Q) = Σ_ω (P(ω) − t Q(ω))₊ = max_S (P(S) − t Q(S))`` with ``t = e^ε``.

    ``P`` is ``(ε, δ)``-indistinguishable from ``Q`` in one direction iff ``E_{e^ε}(P ‖ Q) ≤ δ`` (Barthe & Olmedo
    2013; Balle, Barthe & Gaboardi 2018, Def. 2). The maximising event is :func:`hockey_stick_event`; both validate
    their inputs and then call the kernel :func:`hockey_stick_columns`.

    Parameters
    ----------
    P, Q : sequences of probabilities
        Two distributions on the same finite outputs (non-negative, summing to 1).
    exp_eps : rational, float or LogRational
        ``t = e^ε >= 0`` (a LogRational ``ln r`` means ``t = r``).

    Returns
    -------
    Fraction or float
        Exact when every probability and ``t`` are rational.

    Examples
    --------
    >>> hockey_stick(["3/4", "1/4"], ["1/4", "3/4"], 1)
    Fraction(1, 2)
    >>> hockey_stick(["3/4", "1/4"], ["1/4", "3/4"], 2)
    Fraction(1, 4)
    >>> hockey_stick([0.75, 0.25], [0.25, 0.75], 3)
    0.0
    """
    p, q, t = _pair(P, Q, exp_eps)
    value = hockey_stick_columns(_column(p, t), _column(q, t), t)[0]
    return value if isinstance(t, Fraction) else float(value)


def _column(values: list[Scalar], t: Scalar) -> np.ndarray:
    return np.array(values, dtype=object if isinstance(t, Fraction) else float)


def hockey_stick_event(P: Sequence[ScalarLike], Q: Sequence[ScalarLike], exp_eps: ScalarLike | LogRational) -> tuple[int, ...]:
    """The event ``S = {ω : P(ω) > t Q(ω)}`` (output indices) attaining :func:`hockey_stick`.

    Examples
    --------
    >>> hockey_stick_event(["1/2", "1/3", "1/6"], ["1/6", "1/3", "1/2"], 2)
    (0,)
    """
    p, q, t = _pair(P, Q, exp_eps)
    _, mask = hockey_stick_columns(_column(p, t), _column(q, t), t, events=True)
    return tuple(int(w) for w in np.flatnonzero(mask[:, 0]))
