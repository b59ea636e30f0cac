"""Database-wise privacy parameter ``δ_{ε,M}(x)`` (Liu, Wang & Xia, *Smoothed Differential Privacy*, Definition 2).

A finite mechanism is a :class:`~privgeom.Mechanism` whose inputs are databases. Three label syntaxes are
understood (a registry, :data:`INPUT_KINDS`, maps each to a parser and a default neighbour relation):

``"database"``
    ``"(0,1,1)"`` — a tuple of records; also plain equal-length strings such as ``"011"`` (one record per
    character, as produced by :func:`privgeom.randomized_response`). Neighbours: replace one record.
``"histogram"``
    ``"[2,1]"`` — counts per record value (an anonymous mechanism). Neighbours: move one unit between two
    categories (replacing one record of the underlying database).
``"count"``
    ``"0"``, ``"1"``, …, ``"n"`` — the number of ones among ``n`` binary records (two candidates).
    Neighbours: counts differing by one.

``d_{ε,M}(x, x') = Σ_y (P[M(x)=y] − e^ε P[M(x')=y])₊`` and
``δ_{ε,M}(x) = max_{x' ~ x} max(d(x, x'), d(x', x))``; by Theorem 1, ``max_x δ(x)`` is the smallest ``δ`` for which
``M`` is ``(ε, δ)``-DP.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import networkx as nx
import numpy as np

from .._errors import DomainMismatchError, FormatError, InvalidParameterError, InvalidTypeError
from .._numeric import LogRational, Scalar, fraction_str, parse_scalar
from .._results import Result
from .._level import PrivacyLevel
from ..analyses import DeltaResult, hockey_stick_columns
from ..graphs import neighbour_graph
from ..mechanisms import Mechanism

__all__ = [
    "InputSpace",
    "INPUT_KINDS",
    "parse_inputs",
    "level_pair",
    "default_graph",
    "directed_distance",
    "pair_distances",
    "database_delta",
    "DatabaseDelta",
]

_TUPLE = re.compile(r"^\((.*)\)$")
_HIST = re.compile(r"^\[(.*)\]$")


# ---------------------------------------------------------------------------------------------------- input spaces
@dataclass(frozen=True)
class InputSpace:
    """How the inputs of a mechanism are read as databases.

    Attributes
    ----------
    kind : str
        ``"database"``, ``"histogram"`` or ``"count"``.
    records : tuple of str
        The record domain ``X`` (order = coordinates of the distributions).
    n : int
        Number of agents (records per database).
    points : tuple of tuple of int
        Per input: the database as record indices (``database``) or the histogram (``histogram``/``count``).
    """

    kind: str
    records: tuple[str, ...]
    n: int
    points: tuple[tuple[int, ...], ...]

    @property
    def anonymous(self) -> bool:
        """True when inputs are histograms (the mechanism only sees how many agents hold each record)."""
        return self.kind != "database"

    def histogram(self, i: int) -> tuple[int, ...]:
        """The histogram of input ``i`` (counts per record)."""
        if self.anonymous:
            return self.points[i]
        h = [0] * len(self.records)
        for r in self.points[i]:
            h[r] += 1
        return tuple(h)


def _split_items(body: str) -> list[str]:
    return [s.strip() for s in body.split(",")] if body.strip() else []


def _record_order(values: set[str], records: Sequence[Any] | None) -> tuple[str, ...]:
    if records is not None:
        out = tuple(str(r) for r in records)
        missing = values - set(out)
        if missing:
            raise DomainMismatchError(f"records {sorted(missing)} appear in the inputs but not in records={list(out)}")
        return out
    try:
        return tuple(sorted(values, key=lambda s: (0, Fraction(s), s)))
    except (ValueError, ZeroDivisionError):
        return tuple(sorted(values))


def _parse_database(labels: Sequence[str], records: Sequence[Any] | None) -> InputSpace:
    rows: list[list[str]] = []
    for lab in labels:
        m = _TUPLE.match(lab.strip())
        rows.append(_split_items(m.group(1)) if m else list(lab))
    lengths = {len(r) for r in rows}
    if len(lengths) != 1 or 0 in lengths:
        raise FormatError(f"database labels must all hold the same positive number of records, got lengths {sorted(lengths)}")
    recs = _record_order({v for r in rows for v in r}, records)
    index = {r: i for i, r in enumerate(recs)}
    return InputSpace("database", recs, lengths.pop(), tuple(tuple(index[v] for v in r) for r in rows))


def _parse_histogram(labels: Sequence[str], records: Sequence[Any] | None) -> InputSpace:
    pts: list[tuple[int, ...]] = []
    for lab in labels:
        m = _HIST.match(lab.strip())
        if not m:
            raise FormatError(f"histogram label {lab!r} is not of the form '[h0,h1,...]'")
        try:
            pts.append(tuple(int(v) for v in _split_items(m.group(1))))
        except ValueError:
            raise FormatError(f"histogram label {lab!r} holds a non-integer count") from None
    ks, ns = {len(p) for p in pts}, {sum(p) for p in pts}
    if len(ks) != 1 or len(ns) != 1 or any(v < 0 for p in pts for v in p):
        raise FormatError(f"histogram labels must share one length and one total, got lengths {sorted(ks)}, totals {sorted(ns)}")
    k = ks.pop()
    recs = tuple(str(r) for r in records) if records is not None else tuple(str(i) for i in range(k))
    if len(recs) != k:
        raise DomainMismatchError(f"{len(recs)} records given for histograms over {k} categories")
    return InputSpace("histogram", recs, ns.pop(), tuple(pts))


def _parse_count(labels: Sequence[str], records: Sequence[Any] | None, n: int | None = None) -> InputSpace:
    try:
        counts = [int(lab) for lab in labels]
    except ValueError:
        raise FormatError(f"count labels must be integers, got {list(labels)[:6]}") from None
    top = max(counts) if n is None else n
    if min(counts) < 0 or max(counts) > top:
        raise FormatError(f"counts must lie in 0..{top}, got {sorted(counts)[:3]}…{sorted(counts)[-3:]}")
    recs = tuple(str(r) for r in records) if records is not None else ("0", "1")
    if len(recs) != 2:
        raise DomainMismatchError(f"count inputs need exactly two records, got {list(recs)}")
    return InputSpace("count", recs, top, tuple((top - c, c) for c in counts))


#: Registry of input-label kinds: name -> parser(labels, records) -> InputSpace.
INPUT_KINDS: dict[str, Callable[..., InputSpace]] = {
    "database": _parse_database,
    "histogram": _parse_histogram,
    "count": _parse_count,
}


def _guess_kind(labels: Sequence[str]) -> str:
    if all(_HIST.match(s.strip()) for s in labels):
        return "histogram"
    integers = all(s.strip().lstrip("-").isdigit() for s in labels)
    bit_strings = all(len(s) == len(labels[0]) and len(s) > 1 for s in labels)
    if integers and len(labels) > 1 and not bit_strings:
        return "count"
    return "database"


def parse_inputs(labels: Sequence[str], kind: str | None = None, records: Sequence[Any] | None = None) -> InputSpace:
    """Read mechanism input labels as databases, histograms or counts (see the module docstring).

    Examples
    --------
    >>> parse_inputs(["(0,1)", "(1,1)"]).points
    ((0, 1), (1, 1))
    >>> sp = parse_inputs(["[2,0]", "[1,1]", "[0,2]"])
    >>> sp.kind, sp.n, sp.records
    ('histogram', 2, ('0', '1'))
    >>> parse_inputs(["0", "1", "2"]).points
    ((2, 0), (1, 1), (0, 2))
    """
    labels = [str(s) for s in labels]
    kind = kind or _guess_kind(labels)
    if kind not in INPUT_KINDS:
        raise InvalidParameterError(f"unknown input kind {kind!r}; known: {sorted(INPUT_KINDS)}")
    return INPUT_KINDS[kind](labels, records)


def default_graph(space: InputSpace, labels: Sequence[str]) -> nx.Graph:
    """Replace-one neighbours: databases differing in one record / histograms differing by one moved unit.

    Examples
    --------
    >>> G = default_graph(parse_inputs(["(0,0)", "(0,1)", "(1,0)", "(1,1)"]), ["(0,0)", "(0,1)", "(1,0)", "(1,1)"])
    >>> sorted(map(sorted, G.edges))
    [['(0,0)', '(0,1)'], ['(0,0)', '(1,0)'], ['(0,1)', '(1,1)'], ['(1,0)', '(1,1)']]
    """
    G = nx.Graph(name=f"replace-one({space.kind})")
    G.add_nodes_from(labels)
    where = {p: i for i, p in enumerate(space.points)}
    k = len(space.records)
    for i, p in enumerate(space.points):
        if space.kind == "database":
            cands = (p[:j] + (r,) + p[j + 1 :] for j in range(len(p)) for r in range(k) if r != p[j])
        else:
            cands = (
                tuple(v + (c == a) - (c == b) for c, v in enumerate(p)) for a in range(k) for b in range(k) if a != b and p[b] > 0
            )
        for q in cands:
            j2 = where.get(q)
            if j2 is not None and j2 > i:
                G.add_edge(labels[i], labels[j2])
    return G


# ---------------------------------------------------------------------------------------------------- ε
def level_pair(eps: Any) -> tuple[Any, Scalar]:
    """``(ε, e^ε)`` of a privacy level read by the package's one ε parser, :meth:`privgeom.PrivacyLevel.parse`.

    Examples
    --------
    >>> level_pair("ln(51/49)")
    (LogRational(ratio=Fraction(51, 49)), Fraction(51, 49))
    """
    level = PrivacyLevel.coerce(eps)
    return level.eps, level.exp_eps


# ---------------------------------------------------------------------------------------------------- distances
def directed_distance(p: Any, q: Any, exp_eps: Scalar) -> Scalar:
    """``d(p, q) = Σ_y (p(y) − e^ε q(y))₊ = max_S p(S) − e^ε q(S)`` for two output distributions (Liu, Wang & Xia,
    Definition 2), by the package's one hockey-stick kernel :func:`privgeom.analyses.hockey_stick_columns`.

    Examples
    --------
    >>> directed_distance([Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)], Fraction(2))
    Fraction(1, 4)
    """
    pl, ql = list(p), list(q)
    if isinstance(exp_eps, Fraction) and all(isinstance(v, (Fraction, int)) for v in pl + ql):
        A = np.array([Fraction(v) for v in pl], dtype=object)
        B = np.array([Fraction(v) for v in ql], dtype=object)
        return hockey_stick_columns(A, B, exp_eps)[0]  # type: ignore[no-any-return]
    return float(hockey_stick_columns(np.asarray(pl, dtype=float), np.asarray(ql, dtype=float), float(exp_eps))[0])


def pair_distances(
    matrix: np.ndarray, pairs: Sequence[tuple[int, int]], exp_eps: Scalar, exact: bool
) -> tuple[list[Scalar], list[Scalar]]:
    """For column pairs ``(i, j)``: the lists ``d(i, j)`` and ``d(j, i)`` (hockey-stick kernel, both directions)."""
    if not pairs:
        return [], []
    I, J = [p[0] for p in pairs], [p[1] for p in pairs]
    mat = matrix if exact else np.asarray(matrix, dtype=float)
    t = exp_eps if exact else float(exp_eps)
    f = hockey_stick_columns(mat[:, I], mat[:, J], t)
    b = hockey_stick_columns(mat[:, J], mat[:, I], t)
    if exact:
        return list(f), list(b)
    return [float(v) for v in f], [float(v) for v in b]


# ---------------------------------------------------------------------------------------------------- result
@dataclass(frozen=True)
class DatabaseDelta(DeltaResult):
    """Database-wise ``δ_{ε,M}(x)`` for every input (Definition 2) and its maximum (Theorem 1).

    A :class:`~privgeom.DeltaResult` — ``delta`` is ``max_x δ(x)``, the DP δ of ``privgeom.delta(M, graph, ε)``,
    with its witness ``edge`` and event ``outputs`` — plus the database-wise values.

    Attributes
    ----------
    inputs : tuple of str — the databases
    values : tuple — ``δ(x)`` per input
    worst : tuple — per input, the neighbour attaining ``δ(x)`` (None when it has no neighbour)
    argmax : str — a database attaining ``delta``
    x : str or None — the queried database, if any
    value : scalar — ``δ(x)`` when ``x`` was given, else ``delta``
    dp_delta : scalar — alias of ``delta`` (its name before it became a DeltaResult): ``M`` is ``(ε, δ)``-DP iff
        ``δ >= dp_delta`` (Theorem 1)

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> r = database_delta(randomized_response(2, "3/4"), "ln(2)")
    >>> r.delta, r.edge, r.outputs, r.at("10")
    (Fraction(1, 4), ('11', '10'), ('11', '01'), Fraction(1, 4))
    """

    inputs: tuple[str, ...] = ()
    values: tuple[Scalar, ...] = ()
    worst: tuple[str | None, ...] = ()
    argmax: str = ""
    x: str | None = None
    value: Scalar = 0

    @property
    def dp_delta(self) -> Scalar:
        """``max_x δ(x)`` (alias of :attr:`delta`)."""
        return self.delta

    def at(self, x: str) -> Scalar:
        """``δ(x)`` of one database label."""
        try:
            return self.values[self.inputs.index(str(x))]
        except ValueError:
            raise DomainMismatchError(f"{x!r} is not an input; inputs: {list(self.inputs)[:8]}") from None

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        head = f"database-wise δ at ε = {self.eps} ({mode}, Liu-Wang-Xia Definition 2)"
        if self.x is not None:
            return f"{head}: δ({self.x}) = {fraction_str(self.value)} (worst neighbour {self.worst[self.inputs.index(self.x)]})"
        lines = [head + ":"]
        for lab, v, w in list(zip(self.inputs, self.values, self.worst))[:20]:
            lines.append(f"  δ({lab}) = {fraction_str(v)}" + (f"  [vs {w}]" if w is not None else ""))
        if len(self.inputs) > 20:
            lines.append(f"  … {len(self.inputs) - 20} more")
        lines.append(f"max_x δ(x) = {fraction_str(self.delta)} at {self.argmax}: (ε, δ)-DP iff δ >= this (Theorem 1)")
        return "\n".join(lines)


def _resolve_graph(
    mechanism: Mechanism, graph: Any, kind: str | None, records: Sequence[Any] | None
) -> tuple[nx.Graph, InputSpace | None]:
    space: InputSpace | None
    try:
        space = parse_inputs(mechanism.inputs, kind, records)
    except (FormatError, DomainMismatchError):
        if graph is None:
            raise
        space = None
    if graph is None or (isinstance(graph, str) and graph in ("replace-one", "default")):
        if space is None:
            raise FormatError("cannot read the mechanism's inputs as databases; pass a neighbour graph")
        return default_graph(space, mechanism.inputs), space
    if isinstance(graph, str):
        raise InvalidParameterError(f"unknown graph {graph!r}; pass 'replace-one', a networkx graph or a list of pairs")
    return neighbour_graph(graph, mechanism.inputs), space


def delta_vector(
    mechanism: Mechanism, exp_eps: Scalar, graph: nx.Graph
) -> tuple[list[Scalar], list[int | None], bool]:
    """``δ(x)`` for every input over ``graph`` (internal): values, index of the worst neighbour, exactness."""
    exact = mechanism.exact and isinstance(exp_eps, Fraction)
    mat = mechanism.matrix if exact else mechanism.float_matrix()
    index = {s: i for i, s in enumerate(mechanism.inputs)}
    pairs = sorted({tuple(sorted((index[u], index[v]))) for u, v in graph.edges})
    fw, bw = pair_distances(mat, pairs, exp_eps, exact)  # type: ignore[arg-type]
    zero: Scalar = Fraction(0) if exact else 0.0
    values: list[Scalar] = [zero] * mechanism.n_inputs
    worst: list[int | None] = [None] * mechanism.n_inputs
    for (i, j), a, b in zip(pairs, fw, bw):
        m = max(a, b)
        for u, w in ((i, j), (j, i)):
            if worst[u] is None or m > values[u]:
                values[u], worst[u] = m, w
    return values, worst, exact


def database_delta(
    mechanism: Mechanism,
    eps: Any,
    graph: Any = None,
    x: str | None = None,
    *,
    kind: str | None = None,
    records: Sequence[Any] | None = None,
) -> DatabaseDelta:
    """Database-wise privacy parameter ``δ_{ε,M}(x)`` (Liu, Wang & Xia, Definition 2) for every database.

    Parameters
    ----------
    mechanism : Mechanism
        Columns are databases (labels ``"(0,1,1)"``, ``"011"``, histograms ``"[2,1]"`` or counts ``"2"``).
    eps : float, rational, LogRational or ``"ln(r)"``
        Exact results need ``e^ε`` rational: pass ``LogRational(r)`` or ``"ln(r)"`` (or 0).
    graph : networkx graph, list of pairs or ``"replace-one"``, optional
        Neighbour relation; default replace-one (see :func:`default_graph`).
    x : str, optional
        One database to report (``value`` is then ``δ(x)``).
    kind, records : optional
        Force the input kind (``"database"``, ``"histogram"``, ``"count"``) and the record order.

    Returns
    -------
    DatabaseDelta
        ``values[i] = δ(inputs[i])``; ``dp_delta = max_x δ(x)`` is the DP δ (Theorem 1).

    Examples
    --------
    Randomized response on 2 bits with truth probability 3/4 at ``ε = ln 2``:

    >>> from privgeom import randomized_response
    >>> r = database_delta(randomized_response(2, "3/4"), "ln(2)")
    >>> r.exact, r.values[0], r.delta
    (True, Fraction(1, 4), Fraction(1, 4))
    >>> database_delta(randomized_response(2, "3/4"), "ln(3)").delta
    Fraction(0, 1)
    """
    if not isinstance(mechanism, Mechanism):
        raise InvalidTypeError(f"database_delta needs a Mechanism, got {type(mechanism).__name__}")
    level = PrivacyLevel.parse(eps=eps)
    G, _ = _resolve_graph(mechanism, graph, kind, records)
    values, worst_idx, exact = delta_vector(mechanism, level.exp_eps, G)
    imax = max(range(len(values)), key=lambda i: values[i])
    worst = tuple(mechanism.inputs[w] if w is not None else None for w in worst_idx)
    if x is not None:
        x = str(x)
        if x not in mechanism.inputs:
            raise DomainMismatchError(f"x = {x!r} is not an input of the mechanism; inputs: {list(mechanism.inputs)[:8]}")
        value = values[mechanism.inputs.index(x)]
    else:
        value = values[imax]
    zero: Scalar = Fraction(0) if exact else 0.0
    edge: tuple[str, str] | None = None
    outputs: tuple[str, ...] = ()
    p_ev, q_ev = zero, zero
    t = level.exp_eps if exact else float(level.exp_eps)
    j = worst_idx[imax]
    if j is not None:  # the witness: the direction of the worst pair that attains the maximum, and its event
        mat = mechanism.matrix if exact else mechanism.float_matrix()
        cols = [(imax, j), (j, imax)]
        vals, mask = hockey_stick_columns(mat[:, [a for a, _ in cols]], mat[:, [b for _, b in cols]], t, events=True)
        d = 0 if vals[0] >= vals[1] else 1
        a, b = cols[d]
        edge = (mechanism.inputs[a], mechanism.inputs[b])
        if values[imax] > 0:
            S = np.flatnonzero(mask[:, d])
            outputs = tuple(mechanism.outputs[w] for w in S)
            p_ev = sum((mat[w, a] for w in S), zero)
            q_ev = sum((mat[w, b] for w in S), zero)
            if not exact:
                p_ev, q_ev = float(p_ev), float(q_ev)
    return DatabaseDelta(
        delta=values[imax], eps=level.eps, exp_eps=t, exact=exact, edge=edge, outputs=outputs, p_event=p_ev,
        q_event=q_ev, n_edges=G.number_of_edges(), graph=str(G.name or "graph"), detail=level.note,
        inputs=mechanism.inputs, values=tuple(values), worst=worst, argmax=mechanism.inputs[imax], x=x, value=value,
    )
