"""Database-wise privacy parameter ``δ_{ε,M}(x)`` (Liu, Wang & Xia, *Smoothed Differential Privacy*, Definition 2).

:func:`database_delta` dispatches between two routes (:data:`ROUTES`): ``"matrix"`` — the hockey-stick kernel on
the columns of a :class:`~privgeom.Mechanism` (every database; exact with Fractions) — and ``"shm"`` — the
log-space tail sums of the sampling-histogram mechanism at one database (:class:`SamplingHistogram`, ``n`` in the
billions). By Theorem 1, ``max_x δ(x)`` is the smallest ``δ`` for which ``M`` is ``(ε, δ)``-DP (``privgeom.delta``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from .._core.domain import Domain, RelationLike
from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError
from .._core.level import LevelLike, PrivacyLevel
from .._core.columns import hockey_stick_columns
from .._core.numbers import Scalar
from ..mechanisms import Mechanism
from ._catalogue import shm
from ._domains import delta_vector, input_domain, neighbour_graph_of
from ._results import DatabaseDelta, SamplingHistogram, log10_of
from ._shm import shm_database_delta

__all__ = ["database_delta", "ROUTES"]


@dataclass(frozen=True)
class _Query:
    """One call of :func:`database_delta`, validated: what every route receives."""

    mechanism: Mechanism | SamplingHistogram
    level: PrivacyLevel
    graph: RelationLike | None
    x: str | None
    kind: Domain | str | None
    records: Sequence[Any] | None


def _matrix(q: _Query) -> DatabaseDelta:
    """Route ``"matrix"``: ``δ(x)`` of every column by the hockey-stick kernel on the pairs of neighbouring columns
    (Definition 2), the witness edge and event of the maximum (Theorem 1). Needs the matrix (a
    :class:`SamplingHistogram` is built as ``shm(n, T, inputs="count")``, refused when large); costs one kernel
    evaluation per edge of the neighbour relation; exact for an exact matrix and a rational ``e^ε``."""
    M = q.mechanism
    if isinstance(M, SamplingHistogram):
        M = shm(M.n, M.T, replace=M.replace, inputs="count")
    level = q.level
    dom = input_domain(M, q.kind, q.records)
    G = neighbour_graph_of(M, q.graph, dom)
    values, worst_idx, exact = delta_vector(M, level.exp_eps, G)
    imax = max(range(len(values)), key=lambda i: values[i])
    worst = tuple(M.inputs[w] if w is not None else None for w in worst_idx)
    x = q.x
    if x is not None and x not in M.inputs:
        raise DomainMismatchError(f"x = {x!r} is not an input of the mechanism; inputs: {list(M.inputs)[:8]}")
    value = values[M.inputs.index(x)] if x is not None else values[imax]
    zero: Scalar = Fraction(0) if exact else 0.0
    edge: tuple[str, str] | None = None
    outputs: tuple[str, ...] = ()
    p_ev, q_ev = zero, zero
    t = level.exp_eps if exact else float(level.exp_eps)
    j = worst_idx[imax]
    if j is not None:  # the witness: the direction of the worst pair that attains the maximum, and its event
        mat = M.matrix if exact else M.float_matrix()
        cols = [(imax, j), (j, imax)]
        vals, mask = hockey_stick_columns(mat[:, [a for a, _ in cols]], mat[:, [b for _, b in cols]], t, events=True)
        d = 0 if vals[0] >= vals[1] else 1
        a, b = cols[d]
        edge = (M.inputs[a], M.inputs[b])
        if values[imax] > 0:
            S = np.flatnonzero(mask[:, d])
            outputs = tuple(M.outputs[w] for w in S)
            p_ev = sum((mat[w, a] for w in S), zero)
            q_ev = sum((mat[w, b] for w in S), zero)
            if not exact:
                p_ev, q_ev = float(p_ev), float(q_ev)
    return DatabaseDelta(
        delta=values[imax],
        level=level,
        exact=exact,
        edge=edge,
        outputs=outputs,
        p_event=p_ev,
        q_event=q_ev,
        n_edges=G.number_of_edges(),
        graph=str(G.name or "graph"),
        detail=level.note,
        inputs=M.inputs,
        values=tuple(values),
        worst=worst,
        argmax=M.inputs[imax],
        x=x,
        value=value,
        method="matrix",
        log10=log10_of(value),
    )


def _shm(q: _Query) -> DatabaseDelta:
    """Route ``"shm"``: ``δ(x)`` of a :class:`SamplingHistogram` at the one database ``x`` (its number of ones ``N``)
    from the four directed distances to ``N ± 1``, each a one-sided tail sum of log-pmfs (monotone likelihood ratio;
    Theorem 2; docs/theory.md, "Smoothed DP"). Needs ``x``; costs a few tail sums whatever ``n``; floats, with the
    log10 of the value kept in log space and the threshold event (:func:`._shm.shm_database_delta`)."""
    M = q.mechanism
    if not isinstance(M, SamplingHistogram):
        raise InvalidParameterError(
            "method='shm' needs the sampling-histogram mechanism as a SamplingHistogram(n, T), "
            f"got a {type(M).__name__}; use method='matrix'"
        )
    if q.x is None:
        raise InvalidParameterError("method='shm' gives δ(x) at one database: pass x (the number of ones N)")
    if q.graph is not None or q.kind is not None or q.records is not None:
        raise InvalidParameterError(
            "method='shm' uses the replace-one relation on the counts of ones: graph, kind and records do not apply"
        )
    return shm_database_delta(M.n, M.T, q.level, q.x, M.replace)


#: The routes of :func:`database_delta` by ``method=`` name.
ROUTES: dict[str, Callable[[_Query], DatabaseDelta]] = {"matrix": _matrix, "shm": _shm}


def database_delta(
    mechanism: Mechanism | SamplingHistogram,
    eps: LevelLike,
    graph: RelationLike | None = None,
    x: str | int | None = None,
    *,
    kind: Domain | str | None = None,
    records: Sequence[Any] | None = None,
    method: str = "auto",
) -> DatabaseDelta:
    """Database-wise privacy parameter ``δ_{ε,M}(x)`` (Liu, Wang & Xia, Definition 2).

    Parameters
    ----------
    mechanism : Mechanism or SamplingHistogram
        Columns are databases: a mechanism built on ``Domain.databases``/``bits``/``histograms``/``counts``
        (the factories of :mod:`privgeom.smoothed` do so), or one whose labels are those of such a Domain; or the
        sampling-histogram mechanism given by its parameters (no matrix).
    eps : float, rational, LogRational, ``"ln(r)"`` or PrivacyLevel
        Read by :meth:`privgeom.PrivacyLevel.parse`; exact results need ``e^ε`` rational (``"ln(r)"``, 0).
    graph : relation name, Domain, networkx graph or list of pairs, optional
        Neighbour relation, resolved by :func:`privgeom.neighbour_graph` on the inputs' Domain (``"replace-one"``,
        ``"hamming"``, ``"complete"``, …); default: the Domain's default relation (replace-one; hamming on bit
        strings; path on counts — the same graph).
    x : str, optional
        One database to report (``value`` is then ``δ(x)``); for a SamplingHistogram its number of ones.
    kind : Domain or ``"database"``/``"histogram"``/``"count"``, optional
        The inputs' Domain (or a restriction of the kinds recognised); ``records`` fixes the record order.
    method : ``"auto"``, ``"matrix"`` or ``"shm"``
        ``auto``: ``"shm"`` for a SamplingHistogram with ``x`` given, ``"matrix"`` otherwise (:data:`ROUTES`).

    Returns
    -------
    DatabaseDelta
        ``values[i] = δ(inputs[i])``; over a matrix ``delta = max_x δ(x)`` is the DP δ (Theorem 1).

    Examples
    --------
    Randomized response on 2 bits with truth probability 3/4 at ``ε = ln 2``:

    >>> from privgeom import randomized_response
    >>> r = database_delta(randomized_response(2, "3/4"), "ln(2)")
    >>> r.exact, r.values[0], r.delta
    (True, Fraction(1, 4), Fraction(1, 4))
    >>> database_delta(randomized_response(2, "3/4"), "ln(3)", "replace-one").delta
    Fraction(0, 1)

    The sampling-histogram mechanism at ``N = 5`` ones: the tail sums agree with the exact matrix (``5/21``):

    >>> M = SamplingHistogram(10, 5)
    >>> fast, matrix = database_delta(M, 0, x=5), database_delta(M, 0, x=5, method="matrix")
    >>> fast.method, abs(fast.value - 5 / 21) < 1e-15, matrix.value
    ('shm', True, Fraction(5, 21))
    """
    if not isinstance(mechanism, (Mechanism, SamplingHistogram)):
        raise InvalidTypeError(
            f"database_delta needs a Mechanism or a SamplingHistogram, got {type(mechanism).__name__}"
        )
    if method != "auto" and method not in ROUTES:
        raise InvalidParameterError(f"unknown method {method!r}; use auto, {', '.join(ROUTES)}")
    query = _Query(
        mechanism=mechanism,
        level=PrivacyLevel.coerce(eps),
        graph=graph,
        x=None if x is None else str(x),
        kind=kind,
        records=records,
    )
    if method == "auto":
        method = "shm" if isinstance(mechanism, SamplingHistogram) and x is not None else "matrix"
    return ROUTES[method](query)
