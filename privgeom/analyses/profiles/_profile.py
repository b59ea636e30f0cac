"""Exact ε and δ(ε) of finite mechanisms over a neighbour graph: ``epsilon``, ``delta`` and their ``method=`` routes.

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

The whole curve ``ε ↦ δ(ε)`` is :func:`privgeom.analyses.delta_curve` (module ``_profile_curve``). The result
types and the computations the routes call live beside this module: ``_pure_dp`` (:class:`EpsilonResult`, the
scan, row-range and factor computations of ε) and ``_hockey_stick`` (:class:`DeltaResult`, δ of a prepared scan,
:func:`hockey_stick` of two distributions); the edge scan itself is ``_scan``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from ..._core.domain import Domain, RelationLike
from ..._core.errors import InvalidParameterError
from ..._core.limits import current_limit
from ..._core.level import LevelLike, PrivacyLevel, ScalarLike
from ...mechanisms._mechanism import Mechanism
from ._hockey_stick import DeltaResult, _delta_on
from ._pure_dp import EpsilonResult, _epsilon_complete, _epsilon_factors, _epsilon_scan
from ._scan import (  # noqa: F401  (MAX_PROFILE_WORK, profile_work re-exported for callers of _profile)
    MAX_PROFILE_WORK,
    _check_mechanism,
    _prepare,
    _resolve_pairs,
    profile_work,
)

__all__ = [
    "MAX_PROFILE_WORK",
    "EPSILON_METHODS",
    "DELTA_METHODS",
    "profile_work",
    "epsilon",
    "delta",
]


# ---------------------------------------------------------------------------------------------------- ε
def epsilon(
    mechanism: Mechanism, graph: RelationLike, *, method: str = "auto", max_work: int | None = None
) -> EpsilonResult:
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
        raise InvalidParameterError(
            "method='factors' needs a factored mechanism (randomized_response) and the "
            "relation 'hamming' on its bit strings"
        )
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
    return not dense_refused or M.n_inputs * M.n_outputs > current_limit("exact_entries")


# ---------------------------------------------------------------------------------------------------- δ
def delta(
    mechanism: Mechanism,
    graph: RelationLike,
    eps: LevelLike | None = None,
    *,
    exp_eps: ScalarLike | None = None,
    max_work: int | None = None,
    method: str = "auto",
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


def _delta_route_auto(
    mechanism: Mechanism, graph: RelationLike, level: PrivacyLevel, max_work: int | None
) -> DeltaResult:
    """``method="auto"``: from the factors (:func:`_delta_factors`) when ``mechanism`` is factored, ``e^ε`` exact,
    the relation its Hamming relation and the dense matrix beyond the size limit; else the scan on integers
    (:func:`_delta_on`), which costs :func:`profile_work` and honours ``max_work``. Source: Balle, Barthe & Gaboardi
    2018, Thm. 1 (δ as the largest hockey-stick divergence over directed edges)."""
    if (
        isinstance(mechanism, Mechanism)
        and isinstance(level.exp_eps, Fraction)
        and _factored_hamming(mechanism, graph, dense_refused=True)
    ):
        return _delta_factors(mechanism, level)
    return _delta_on(_prepare(mechanism, graph, max_work=max_work, what="δ(ε)"), level, fraction=False)


def _delta_route_factors(
    mechanism: Mechanism, graph: RelationLike, level: PrivacyLevel, max_work: int | None
) -> DeltaResult:
    """``method="factors"``: ``δ = max_f δ_f`` from the one-bit factors (:func:`_delta_factors`), no dense matrix.

    Needs an exact mechanism kept factored into 2×2 factors, a rational ``e^ε`` and the Hamming relation of its
    bits; costs ``O(factors)`` (no edge is scanned, so ``max_work`` does not apply). Source: ``docs/theory.md`` §7.
    """
    if not (
        isinstance(mechanism, Mechanism)
        and isinstance(level.exp_eps, Fraction)
        and _factored_hamming(mechanism, graph, dense_refused=False)
    ):
        raise InvalidParameterError(
            "method='factors' needs a factored exact mechanism (randomized_response), an "
            "exact e^ε and the relation 'hamming' on its bit strings"
        )
    return _delta_factors(mechanism, level)


def _delta_route_fraction(
    mechanism: Mechanism, graph: RelationLike, level: PrivacyLevel, max_work: int | None
) -> DeltaResult:
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
    D = "".join(ins[:best] + [a] + ins[best + 1 :])
    D2 = "".join(ins[:best] + [b] + ins[best + 1 :])
    # S = {ω : M[ω, D] > e^ε M[ω, D']}: ω_f in S_f and every other factor positive at its input (bit labels: one
    # character per factor)
    allowed = [{G.outputs[w] for w, v in enumerate(G.column(0)) if v > 0} for G in F]
    allowed[best] = set(res.outputs)
    outs = tuple(o for o in M.outputs if all(ch in ok for ch, ok in zip(o, allowed))) if res.outputs else ()
    return DeltaResult(
        delta=res.delta,
        level=level,
        exact=True,
        edge=(D, D2),
        outputs=outs,
        p_event=res.p_event,
        q_event=res.q_event,
        n_edges=n_edges,
        graph=f"hamming({len(F)})",
        detail=level.note,
    )
