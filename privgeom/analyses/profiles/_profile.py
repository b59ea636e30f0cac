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
>>> from privgeom import randomized_response, hamming_graph
>>> M = randomized_response(2, "3/4")
>>> str(epsilon(M, hamming_graph(2)).eps)
'ln(3)'
>>> delta(M, hamming_graph(2), exp_eps=2).delta
Fraction(1, 4)

The whole curve ``ε ↦ δ(ε)`` is :func:`privgeom.analyses.delta_curve` (module ``_profile_curve``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

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
    MAX_PROFILE_WORK,
    _blocks,
    _check_mechanism,
    _matrix_views,
    _Prepared,
    _prepare,
    _resolve_pairs,
    profile_work,
)

__all__ = [
    "MAX_PROFILE_WORK",
    "EPSILON_METHODS",
    "profile_work",
    "EpsilonResult",
    "DeltaResult",
    "epsilon",
    "delta",
    "hockey_stick",
    "hockey_stick_event",
    "hockey_stick_columns",
]

#: Methods of :func:`epsilon`: ``"scan"`` (every directed edge, the generic route), ``"complete"`` (row ranges,
#: only for the complete relation), ``"factors"`` (a factored mechanism on the Hamming relation of its bits, from
#: its factors), ``"fraction"`` (the scan deciding with Fraction objects: the reference route); ``"auto"`` picks
#: ``"complete"`` or ``"factors"`` when they apply.
EPSILON_METHODS = ("auto", "scan", "complete", "factors", "fraction")

#: Relative margin within which float log-ratios / hockey-stick sums are re-checked exactly (float errors are
#: below 1e-15 relative; the margin is generous so that no exact maximum is missed).
_EXACT_RECHECK = 1e-9
#: Absolute margin (times ``1 + e^ε``) within which float hockey-stick sums are recomputed exactly.
_DELTA_RECHECK = 1e-10


# ---------------------------------------------------------------------------------------------------- ε
@dataclass(frozen=True)
class EpsilonResult(Result):
    """The exact ε of a mechanism over a neighbour graph, with the edge and output that attain it.

    Attributes
    ----------
    epsilon : LogRational or float
        ``max ln(M[ω, D] / M[ω, D'])``; a :class:`~privgeom.LogRational` in exact mode, a float otherwise, and
        ``math.inf`` (float) when infinite. Also :attr:`eps`, the package-wide name of a privacy level (the JSON
        form carries both keys).
    exact : bool
        True when computed with Fractions (``eps`` is then ``ln`` of an exact rational).
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

    epsilon: LogRational | float
    exact: bool
    infinite: bool
    edge: tuple[str, str] | None
    output: str | None
    p: Scalar | None
    q: Scalar | None
    n_edges: int
    graph: str

    @property
    def value(self) -> float:
        """ε as a float (``math.inf`` when infinite)."""
        return float(self.eps)

    @property
    def eps(self) -> LogRational | float:
        """ε, the package-wide name of a privacy level (the field :attr:`epsilon`)."""
        return self.epsilon

    @property
    def exp_eps(self) -> Scalar:
        """Alias of :attr:`exp_epsilon`."""
        return self.exp_epsilon

    def to_dict(self) -> dict[str, Any]:
        """JSON data; ``eps`` repeats ``epsilon`` under the package-wide name."""
        data = super().to_dict()
        data["eps"] = data["epsilon"]
        return data

    @property
    def exp_epsilon(self) -> Scalar:
        """``e^ε``: the exact ratio ``p / q`` in exact mode, a float otherwise (``math.inf`` when infinite)."""
        if self.infinite:
            return math.inf
        if isinstance(self.eps, LogRational):
            return self.eps.ratio
        try:
            return math.exp(self.eps)
        except OverflowError:  # ε > ~709.78: e^ε is beyond float range (the ratio p / q is still reported)
            return math.inf

    def __float__(self) -> float:
        return self.value

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
            f"ε = {format_level(self.eps)} ({mode}) over {self.n_edges} edges of {self.graph!r}; attained on edge "
            f"{d} → {d2} at output {self.output!r}: P(ω | {d}) = {format_level(self.p)}, P(ω | {d2}) = {format_level(self.q)}"
        )


@to_jsonable.register(EpsilonResult)
def _epsilon_json(obj: EpsilonResult) -> Any:
    return obj.to_dict()


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
        Neighbour relation on ``mechanism.inputs``, resolved by :func:`privgeom.resolve_graph`: a relation name
        (``"hamming"``, ``"path"``, ``"complete"``, … — a string is always a name), a :class:`~privgeom.Domain`,
        or a graph / edge list (integer nodes are accepted as column indices).
    method : {"auto", "scan", "complete", "factors", "fraction"}
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
        ``eps`` (``math.inf`` with ``infinite=True`` when some output separates two neighbours perfectly) and
        the witness edge ``(D, D')`` and output. Ties are broken by edge order (sorted column indices, ``(i, j)``
        before ``(j, i)``) and then output order.

    Raises
    ------
    InvalidTypeError
        ``mechanism`` is not a Mechanism, or ``graph`` is neither a graph nor a list of pairs.
    InvalidParameterError
        A relation name that is unknown or does not apply to the inputs (e.g. ``"hamming"`` on labels that are
        not bit strings); the message lists the valid relations.
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

    >>> from privgeom import randomized_response, hamming_graph, complete_graph
    >>> M = randomized_response(2, "3/4")
    >>> r = epsilon(M, hamming_graph(2))
    >>> r.eps, r.edge, r.output, r.p, r.q
    (LogRational(ratio=Fraction(3, 1)), ('11', '10'), '11', Fraction(9, 16), Fraction(3, 16))
    >>> str(epsilon(M, complete_graph(M.inputs)).eps), str(epsilon(M, "complete").eps)
    ('ln(9)', 'ln(9)')
    >>> epsilon(M, "hamming") == epsilon(M, hamming_graph(2))
    True
    >>> from privgeom import Mechanism
    >>> print(epsilon(Mechanism([[1, "1/2"], [0, "1/2"]], inputs=["a", "b"]), [("a", "b")]))
    ε = ∞ (exact) over 1 edges of 'user graph': output 'o1' has P(ω | b) = 1/2 but P(ω | a) = 0
    """
    if method not in EPSILON_METHODS:
        raise InvalidParameterError(f"unknown method {method!r}; use one of {', '.join(EPSILON_METHODS)}")
    M0 = _check_mechanism(mechanism)
    if method in ("auto", "factors") and _factored_hamming(M0, graph, dense_refused=method == "auto"):
        return _epsilon_factors(M0)
    if method == "factors":
        raise InvalidParameterError("method='factors' needs a factored mechanism (randomized_response) and the "
                                    "relation 'hamming' on its bit strings")
    if method in ("auto", "complete"):
        _, _, name, complete = _resolve_pairs(M0, graph, max_work, "ε", complete_route=True)
        if complete:
            return _epsilon_complete(M0, name)
        if method == "complete":
            raise InvalidParameterError(f"method='complete' needs the complete relation; {name!r} is not complete")
    fraction = method == "fraction"
    P = _prepare(M0, graph, max_work=max_work, what="ε", fraction=fraction)
    M, exact = P.M, P.exact
    entry = _entry_reader(M, fraction)
    if len(P.I) == 0:
        zero: LogRational | float = LogRational(Fraction(1)) if exact else 0.0
        return EpsilonResult(zero, exact, False, None, None, None, None, 0, P.graph)
    Z, L, n_out = P.Z, P.L, M.n_outputs
    I, J = P.I[P.reps], P.J[P.reps]  # one directed edge per class; r indexes these

    # pass 1: infinities and the float maximum of the log-ratios
    best = -math.inf
    for sl in _blocks(n_out, len(I)):
        Pi, Pj = ~Z[:, I[sl]], ~Z[:, J[sl]]
        inf_mask = Pi & ~Pj
        if inf_mask.any():
            r_loc, w = np.argwhere(inf_mask.T)[0]
            r = sl.start + int(r_loc)
            p = entry(w, I[r])
            return EpsilonResult(
                math.inf, exact, True, P.label(int(P.reps[r])), M.outputs[w], p, p * 0, P.n_edges, P.graph
            )
        both = Pi & Pj
        if both.any():
            D = np.where(both, L[:, I[sl]] - L[:, J[sl]], -math.inf)
            best = max(best, float(D.max()))
    # pass 2: the witnesses (float: first argmax; exact: exact comparison of every near-maximal candidate)
    if exact:
        finite = np.abs(L[~Z])
        tol = _EXACT_RECHECK * (1.0 + (float(finite.max()) if finite.size else 0.0))
    else:
        tol = 0.0
    win: tuple[int, int] | None = None
    win_ratio: Fraction | None = None
    for sl in _blocks(n_out, len(I)):
        both = ~Z[:, I[sl]] & ~Z[:, J[sl]]
        D = np.where(both, L[:, I[sl]] - L[:, J[sl]], -math.inf)
        cand = np.argwhere(D.T >= best - tol)
        if not exact:
            if cand.size:
                r_loc, w = cand[0]
                win = (sl.start + int(r_loc), int(w))
                break
            continue
        if fraction:
            for r_loc, w in cand:
                r = sl.start + int(r_loc)
                ratio = M.matrix[w, I[r]] / M.matrix[w, J[r]]
                if win_ratio is None or ratio > win_ratio:
                    win, win_ratio = (r, int(w)), ratio
            continue
        # integers: M[w, i] / M[w, j] = (num[w, i] den[j]) / (num[w, j] den[i]); compare by cross-multiplication
        C = M.int_columns
        rr = sl.start + cand[:, 0]
        ww = cand[:, 1]
        tops = (C.numerators[ww, I[rr]].astype(object) * C.denominators[J[rr]].astype(object)).tolist()
        bots = (C.numerators[ww, J[rr]].astype(object) * C.denominators[I[rr]].astype(object)).tolist()
        for r, w, a, b in zip(rr.tolist(), ww.tolist(), tops, bots):
            if win_ratio is None or a * win_ratio.denominator > win_ratio.numerator * b:
                win, win_ratio = (r, w), Fraction(a, b)
    assert win is not None  # a column pair always has an output with ratio >= 1 (columns sum to 1)
    r, w = win
    p, q = entry(w, I[r]), entry(w, J[r])
    eps: LogRational | float = LogRational(p / q) if exact else float(L[w, I[r]] - L[w, J[r]])
    return EpsilonResult(eps, exact, False, P.label(int(P.reps[r])), M.outputs[w], p, q, P.n_edges, P.graph)


def _epsilon_complete(M: Mechanism, name: str) -> EpsilonResult:
    """ε over the complete relation from row ranges: ``max_ω ln(max_i M[ω, i] / min_i M[ω, i])``.

    On the complete graph every ordered pair of datasets is a directed edge, so for each output the largest ratio
    is its largest entry over its smallest; the row is infinite when it mixes zero and positive entries
    (Dwork et al. 2006, Def. 1, on ``K_N``: local DP). ``O(outputs × inputs)`` instead of ``O(outputs × inputs²)``.
    Exact mode: float scan on logs of numerators and denominators, then exact Fractions on every row within the
    re-check margin. Ties are broken by output order (the scan breaks them by edge order: same ε, maybe another
    witness).
    """
    N, n_out = M.n_inputs, M.n_outputs
    exact = M.exact
    if N < 2:
        zero: LogRational | float = LogRational(Fraction(1)) if exact else 0.0
        return EpsilonResult(zero, exact, False, None, None, None, None, 0, name)
    n_edges = N * (N - 1) // 2
    if exact:
        C = M.int_columns
        X = C.floats()
        Z = C.numerators == 0
        L = int_columns_log(C.numerators, C.denominators)
    else:  # no grouping of equal entries needed: logs straight from the float matrix
        X = M.matrix
        Z = X == 0
        L = np.log(np.where(Z, 1.0, X))
    nz_any, z_any = (~Z).any(axis=1), Z.any(axis=1)
    mixed = np.flatnonzero(nz_any & z_any)
    if mixed.size:
        w = int(mixed[0])
        i, j = int(np.argmax(~Z[w])), int(np.argmax(Z[w]))
        p = C.entry(w, i) if exact else float(M.matrix[w, i])
        return EpsilonResult(math.inf, exact, True, (M.inputs[i], M.inputs[j]), M.outputs[w], p, p * 0, n_edges, name)
    rows = np.flatnonzero(nz_any)  # rows without zeros (rows of zeros only carry no constraint)
    Lr = L[rows]
    hi, lo = Lr.max(axis=1), Lr.min(axis=1)
    span = hi - lo
    best = float(span.max())
    if not exact:
        r = int(np.argmax(span))
        w = int(rows[r])
        i, j = int(np.argmax(Lr[r])), int(np.argmin(Lr[r]))
        if i == j:
            i, j = 0, 1
        return EpsilonResult(float(span[r]), False, False, (M.inputs[i], M.inputs[j]), M.outputs[w],
                             float(M.matrix[w, i]), float(M.matrix[w, j]), n_edges, name)
    tol = _EXACT_RECHECK * (1.0 + float(np.abs(Lr).max()))
    win: tuple[Fraction, int, int, int] | None = None
    for r in np.flatnonzero(span >= best - tol).tolist():
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
    return EpsilonResult(LogRational(ratio), True, False, (M.inputs[i], M.inputs[j]), M.outputs[w],
                         C.entry(w, i), C.entry(w, j), n_edges, name)


def _entry_reader(M: Mechanism, fraction: bool) -> Any:
    """``entry(w, i)``: one matrix entry as a Fraction (exact; from the integers unless ``fraction``) or a float."""
    if not M.exact:
        return lambda w, i: float(M.matrix[int(w), int(i)])
    if fraction:
        return lambda w, i: M.matrix[int(w), int(i)]
    C = M.int_columns
    return lambda w, i: C.entry(int(w), int(i))


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
    best = max(range(len(results)), key=lambda f: (results[f].eps, f))
    res = results[best]
    k = len(results)
    n_edges = M.n_inputs * sum(F.n_inputs - 1 for F in M.factors or ()) // 2
    name = f"hamming({k})"
    if res.edge is None:
        return EpsilonResult(LogRational(Fraction(1)), True, False, None, None, None, None, n_edges, name)
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
    return EpsilonResult(res.eps, True, res.infinite, (D, D2), out, res.p * pos, res.q * pos, n_edges, name)


# ---------------------------------------------------------------------------------------------------- δ
@dataclass(frozen=True)
class DeltaResult(Result):
    """The exact ``δ(ε)`` of a mechanism over a neighbour graph, with the edge and event that attain it.

    Attributes
    ----------
    delta : Fraction or float
        ``max over directed edges (D, D') of Σ_ω (P(M(D) = ω) − e^ε P(M(D') = ω))₊``.
    eps : LogRational or float
        The ε asked for (a LogRational when ``e^ε`` is rational).
    exp_eps : Fraction or float
        ``e^ε``.
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
    eps: LogRational | float
    exp_eps: Scalar
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
        head = f"δ(ε = {format_level(self.eps)}) = {format_level(self.delta)} ({mode}) over {self.n_edges} edges of {self.graph!r}"
        if self.edge is None:
            text = head + "; no edges"
        elif not self.outputs:
            text = head + "; no event separates any pair of neighbours at this ε"
        else:
            d, d2 = self.edge
            shown = ", ".join(self.outputs[:8]) + (", …" if len(self.outputs) > 8 else "")
            text = (
                f"{head}; attained on edge {d} → {d2} with the event S = {{{shown}}}: "
                f"P(S | {d}) = {format_level(self.p_event)}, e^ε P(S | {d2}) = {format_level(self.exp_eps)} × {format_level(self.q_event)}"
            )
        return text + (f" [{self.detail}]" if self.detail else "")


def _delta_scan(P: _Prepared, t: Scalar, fraction: bool = False) -> tuple[Scalar, int]:
    """``(max δ, argmax directed edge)``; exact when the mechanism is exact and ``t`` a Fraction.

    Floats first (vectorised, one edge per class); in exact mode only the classes whose float δ is within a safe
    margin of the float maximum are recomputed exactly (float errors are below ``1e-15 (1 + t)`` per edge), on
    integers by :func:`~privgeom._core.numeric.hockey_stick_int` (with Fraction objects when ``fraction``).
    """
    exact = P.exact and isinstance(t, Fraction)
    tf = float(t)
    I, J = P.I[P.reps], P.J[P.reps]
    sums = np.empty(len(I))
    for sl in _blocks(P.M.n_outputs, len(I)):
        sums[sl] = hockey_stick_columns(P.X[:, I[sl]], P.X[:, J[sl]], tf)
    if not exact:
        r = int(np.argmax(sums))
        return float(sums[r]), int(P.reps[r])
    best: Fraction | None = None
    arg = 0
    cands = np.flatnonzero(sums >= sums.max() - _DELTA_RECHECK * (1.0 + tf))
    if fraction:
        values = [hockey_stick_columns(P.M.matrix[:, [I[c]]], P.M.matrix[:, [J[c]]], t)[0] for c in cands.tolist()]
    else:
        assert isinstance(t, Fraction)
        exact_sums, common = _delta_exact(P, I[cands], J[cands], t)
        top = max(exact_sums)
        c = int(cands[exact_sums.index(top)])  # the first maximum, as the loop below would choose
        return Fraction(top, common), int(P.reps[c])
    for c, value in zip(cands.tolist(), values):
        if best is None or value > best:
            best, arg = value, c
    assert best is not None
    return best, int(P.reps[arg])


def _delta_exact(P: _Prepared, I: np.ndarray, J: np.ndarray, t: Fraction) -> tuple[list[int], int]:
    """Exact ``Σ_ω (M[ω, I[c]] − t M[ω, J[c]])₊`` for every ``c``, on integers, by distinct pairs of entries.

    Log-space floats first drop the terms that are surely not positive (``M[ω, I] = 0``, or ``ln M[ω, I] −
    ln M[ω, J] < ln t`` by more than the float error); every remaining term is a pair of distinct matrix values, and
    each distinct pair is evaluated once by :func:`~privgeom._core.numeric.hockey_stick_int`. The column sums are
    ``counts @ terms`` on integers over the terms' least common denominator. Falls back to the column kernel when
    the distinct values are not at hand. Returns ``(numerators, common denominator)`` of the sums.
    """
    if P.values is None or P.ids is None:
        C = P.M.int_columns
        num, den = C.numerators, C.denominators
        vals = hockey_stick_int(num[:, I], den[I], num[:, J], den[J], t.numerator, t.denominator)
        common = math.lcm(*(v.denominator for v in vals))
        return [v.numerator * (common // v.denominator) for v in vals], common
    va, vb = P.values
    nv = len(va)
    tol = _EXACT_RECHECK * (1.0 + (float(np.abs(P.L).max()) if P.L.size else 0.0))
    keep = ~P.Z[:, I] & (P.Z[:, J] | (P.L[:, I] - P.L[:, J] >= math.log(t) - tol))
    zero = ([0] * len(I), 1)
    if not keep.any():
        return zero
    cols, rows = np.nonzero(keep.T)
    key = P.ids[rows, I[cols]].astype(np.int64) * nv + P.ids[rows, J[cols]]
    ukeys, inv = np.unique(key, return_inverse=True)
    uA, uB = ukeys // nv, ukeys % nv
    terms = hockey_stick_int(va[uA][None, :], vb[uA], va[uB][None, :], vb[uB], t.numerator, t.denominator)
    pos = np.flatnonzero(np.array([v > 0 for v in terms], dtype=bool))
    if pos.size == 0:
        return zero
    slot = np.full(len(ukeys), -1, dtype=np.intp)
    slot[pos] = np.arange(pos.size)
    s = slot[inv.ravel()]
    hit = s >= 0
    counts = np.zeros((len(I), pos.size), dtype=np.int64)
    np.add.at(counts, (cols[hit], s[hit]), 1)
    Lt = math.lcm(*(terms[u].denominator for u in pos.tolist()))
    nums = np.array([terms[u].numerator * (Lt // terms[u].denominator) for u in pos.tolist()], dtype=object)
    sums = counts.astype(object).dot(nums)
    return [int(v) for v in sums], Lt


def delta(
    mechanism: Mechanism, graph: RelationLike, eps: LevelLike | None = None, *, exp_eps: ScalarLike | None = None, max_work: int | None = None,
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
        ``"auto"``: exact sums on integers (:attr:`~privgeom.Mechanism.int_columns`), or ``"factors"`` when it
        applies and the dense matrix is beyond the size limit; ``"factors"``: a factored mechanism
        (:attr:`~privgeom.Mechanism.factors`) on the Hamming relation of its bits, from its factors;
        ``"fraction"``: the scan with Fraction objects (the reference route, slower).

    Returns
    -------
    DeltaResult
        ``delta`` with its witness: the directed edge ``(D, D')`` and the event ``S`` with
        ``delta = P(M(D) ∈ S) − e^ε P(M(D') ∈ S)``.

    Raises
    ------
    InvalidParameterError
        Both or neither of ``eps``/``exp_eps``; ``ε < 0``.
    InvalidTypeError, DomainMismatchError
        Bad mechanism or graph (see :func:`epsilon`).

    Examples
    --------
    >>> from privgeom import randomized_response, hamming_graph, LogRational
    >>> M = randomized_response(1, "3/4")
    >>> r = delta(M, [("1", "0")], exp_eps=1)      # ε = 0: the total-variation distance
    >>> r.delta, r.edge, r.outputs
    (Fraction(1, 2), ('1', '0'), ('1',))
    >>> delta(M, [("1", "0")], LogRational(3)).delta     # δ(ln 3) = 0: RR(3/4) is ln(3)-DP
    Fraction(0, 1)
    >>> round(delta(M, [("1", "0")], 0.5).delta, 6)
    0.33782
    """
    if method not in ("auto", "factors", "fraction"):
        raise InvalidParameterError(f"unknown method {method!r}; use one of auto, factors, fraction")
    fraction = method == "fraction"
    level = PrivacyLevel.parse(eps, exp_eps, allow_infinite=True)
    t, eps_value, note = level.exp_eps, level.eps, level.note
    if method != "fraction" and isinstance(mechanism, Mechanism) and isinstance(t, Fraction) and \
            _factored_hamming(mechanism, graph, dense_refused=method == "auto"):
        return _delta_factors(mechanism, t, eps_value, note)
    if method == "factors":
        raise InvalidParameterError("method='factors' needs a factored exact mechanism (randomized_response), an "
                                    "exact e^ε and the relation 'hamming' on its bit strings")
    P = _prepare(mechanism, graph, max_work=max_work, what="δ(ε)", fraction=fraction)
    M = P.M
    exact = M.exact and isinstance(t, Fraction)
    if M.exact and not exact and not note:
        note = "e^ε given as a float: computed in float"
    zero: Scalar = Fraction(0) if exact else 0.0
    if len(P.I) == 0:
        return DeltaResult(zero, eps_value, t, exact, None, (), zero, zero, 0, P.graph, note)
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
    outs = tuple(M.outputs[w] for w in S)
    return DeltaResult(value, eps_value, t, exact, P.label(d), outs, p_ev, q_ev, P.n_edges, P.graph, note)


def _delta_factors(M: Mechanism, t: Fraction, eps_value: Any, note: str) -> DeltaResult:
    """δ(ε) of a product ``F_1 ⊗ … ⊗ F_k`` over its Hamming relation from the factors: ``max_f δ_f(ε)``.

    For neighbours differing in factor ``f`` the two output distributions are ``P ⊗ R`` and ``Q ⊗ R`` with ``R`` the
    product of the other factors' columns, and ``Σ_{ω, ρ} (P(ω) R(ρ) − t Q(ω) R(ρ))₊ = Σ_ω (P(ω) − t Q(ω))₊`` since
    ``Σ_ρ R(ρ) = 1`` (Balle, Barthe & Gaboardi 2018, Thm. 1; ``docs/theory.md`` §7). The witness event is
    ``S = {ω : ω_f ∈ S_f, R(ρ) > 0}``; the last factor attaining the maximum is reported, with the first input of the
    others (the scan's choice).
    """
    F = M.factors or ()
    results = [delta(G, [(G.inputs[0], G.inputs[1])], exp_eps=t) for G in F]
    best = max(range(len(results)), key=lambda f: (results[f].delta, f))
    res = results[best]
    n_edges = M.n_inputs * len(F) // 2
    name = f"hamming({len(F)})"
    a, b = res.edge or (F[best].inputs[0], F[best].inputs[1])
    ins = [G.inputs[0] for G in F]
    D = "".join(ins[:best] + [a] + ins[best + 1:])
    D2 = "".join(ins[:best] + [b] + ins[best + 1:])
    # S = {ω : M[ω, D] > e^ε M[ω, D']}: ω_f in S_f and every other factor positive at its input (bit labels: one
    # character per factor)
    allowed = [{G.outputs[w] for w, v in enumerate(G.column(0)) if v > 0} for G in F]
    allowed[best] = set(res.outputs)
    outs = tuple(o for o in M.outputs if all(ch in ok for ch, ok in zip(o, allowed))) if res.outputs else ()
    return DeltaResult(res.delta, eps_value, t, True, (D, D2), outs, res.p_event, res.q_event, n_edges, name, note)


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


def _pair(P: Any, Q: Any, exp_eps: ScalarLike) -> tuple[list[Scalar], list[Scalar], Scalar]:
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
    if not exact:
        t = float(t)
    return p, q, t


def hockey_stick(P: Sequence[Any], Q: Sequence[Any], exp_eps: ScalarLike) -> Scalar:
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


def hockey_stick_event(P: Sequence[Any], Q: Sequence[Any], exp_eps: ScalarLike) -> tuple[int, ...]:
    """The event ``S = {ω : P(ω) > t Q(ω)}`` (output indices) attaining :func:`hockey_stick`.

    Examples
    --------
    >>> hockey_stick_event(["1/2", "1/3", "1/6"], ["1/6", "1/3", "1/2"], 2)
    (0,)
    """
    p, q, t = _pair(P, Q, exp_eps)
    _, mask = hockey_stick_columns(_column(p, t), _column(q, t), t, events=True)
    return tuple(int(w) for w in np.flatnonzero(mask[:, 0]))
