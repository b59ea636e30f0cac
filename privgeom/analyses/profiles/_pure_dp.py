"""The ε of pure differential privacy: :class:`EpsilonResult` and the computations behind the routes of ``epsilon``.

:func:`privgeom.analyses.epsilon` (module ``_profile``) picks a route; the routes compute here:
:func:`_epsilon_scan` scans one directed edge per class of a prepared scan (module ``_scan``),
:func:`_epsilon_complete` reads the row ranges on the complete relation, and :func:`_epsilon_factors` takes the
largest ε of the one-bit factors of a product on its Hamming relation. All give
``ε = max ln(M[ω, D] / M[ω, D'])`` over directed edges ``(D, D')`` and outputs ``ω`` (Dwork, McSherry, Nissim &
Smith 2006, Def. 1; ``docs/theory.md`` §7), exactly (the logarithm of a rational) for an exact mechanism.

Examples
--------
>>> from privgeom import randomized_response
>>> M = randomized_response(2, "3/4")
>>> r = _epsilon_complete(M, "complete")
>>> str(r.level), r.edge, r.output
('ln(9)', ('11', '00'), '11')
>>> from privgeom.analyses.profiles._scan import _prepare
>>> _epsilon_factors(M).level == _epsilon_scan(_prepare(M, "hamming"), fraction=False).level
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..._core.level import PrivacyLevel
from ..._core.numbers import level_text as format_level
from ..._core.columns import int_columns_log
from ..._core.numbers import Scalar
from ..._core.results import Result, to_jsonable
from ...mechanisms._mechanism import Mechanism
from ._scan import _EXACT_RECHECK, _entry_reader, _Prepared, _scan_max, _scan_witness

__all__ = ["EpsilonResult"]


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


def _no_edges(exact: bool, graph: str) -> EpsilonResult:
    """ε over a graph without edges: 0 (no pair of neighbours to tell apart), no witness."""
    return EpsilonResult(
        level=_zero_level(exact),
        exact=exact,
        infinite=False,
        edge=None,
        output=None,
        p=None,
        q=None,
        n_edges=0,
        graph=graph,
    )


def _epsilon_scan(P: _Prepared, fraction: bool) -> EpsilonResult:
    """ε by scanning one directed edge per class: infinities and the float maximum first (:func:`_scan_max`), then
    the witness (:func:`_scan_witness`), decided exactly in exact mode."""
    M, exact = P.M, P.exact
    if len(P.I) == 0:
        return _no_edges(exact, P.graph)
    entry = _entry_reader(M, fraction)
    I, J = P.I[P.reps], P.J[P.reps]  # one directed edge per class; r indexes these
    best, separated = _scan_max(P)
    if separated is not None:  # some output is possible on D and impossible on D'
        r, w = separated
        p = entry(w, I[r])
        return EpsilonResult(
            level=_INFINITE,
            exact=exact,
            infinite=True,
            edge=P.label(int(P.reps[r])),
            output=M.outputs[w],
            p=p,
            q=p * 0,
            n_edges=P.n_edges,
            graph=P.graph,
        )
    r, w = _scan_witness(P, best, fraction)
    p, q = entry(w, I[r]), entry(w, J[r])
    level = _ratio_level(Fraction(p) / Fraction(q)) if exact else _log_level(P.L[w, I[r]] - P.L[w, J[r]])
    return EpsilonResult(
        level=level,
        exact=exact,
        infinite=False,
        edge=P.label(int(P.reps[r])),
        output=M.outputs[w],
        p=p,
        q=q,
        n_edges=P.n_edges,
        graph=P.graph,
    )


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
        return _no_edges(exact, name)
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
        return EpsilonResult(
            level=_INFINITE,
            exact=exact,
            infinite=True,
            edge=(M.inputs[i], M.inputs[j]),
            output=M.outputs[w],
            p=p,
            q=p * 0,
            n_edges=n_edges,
            graph=name,
        )
    rows = np.flatnonzero(nz_any)  # rows without zeros (rows of zeros only carry no constraint)
    Lr = L[rows]
    span = Lr.max(axis=1) - Lr.min(axis=1)
    if not exact:
        r = int(np.argmax(span))
        w = int(rows[r])
        i, j = int(np.argmax(Lr[r])), int(np.argmin(Lr[r]))
        if i == j:
            i, j = 0, 1
        return EpsilonResult(
            level=_log_level(span[r]),
            exact=False,
            infinite=False,
            edge=(M.inputs[i], M.inputs[j]),
            output=M.outputs[w],
            p=float(M.matrix[w, i]),
            q=float(M.matrix[w, j]),
            n_edges=n_edges,
            graph=name,
        )
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
    return EpsilonResult(
        level=_ratio_level(ratio),
        exact=True,
        infinite=False,
        edge=(M.inputs[i], M.inputs[j]),
        output=M.outputs[w],
        p=C.entry(w, i),
        q=C.entry(w, j),
        n_edges=n_edges,
        graph=name,
    )


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
        return EpsilonResult(
            level=_zero_level(True),
            exact=True,
            infinite=False,
            edge=None,
            output=None,
            p=None,
            q=None,
            n_edges=n_edges,
            graph=name,
        )
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
    return EpsilonResult(
        level=res.level,
        exact=True,
        infinite=res.infinite,
        edge=(D, D2),
        output=out,
        p=res.p * pos,
        q=res.q * pos,
        n_edges=n_edges,
        graph=name,
    )
