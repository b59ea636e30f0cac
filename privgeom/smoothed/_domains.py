"""Databases as :class:`privgeom.Domain` datasets, and the database-wise distances of Liu, Wang & Xia (Definition 2).

A finite mechanism is a :class:`~privgeom.Mechanism` whose inputs are databases, described by a
:class:`privgeom.Domain` — the one vocabulary of datasets and neighbour relations of privgeom:

``Domain.databases(n, records)``
    ``"(0,1,1)"`` — a tuple of records. Neighbours (``replace-one``): replace one record.
``Domain.bits(n)``
    ``"011"`` — ``n`` binary records (the profiles of :func:`privgeom.randomized_response` and
    :mod:`privgeom.voting`), records ``"0"`` and ``"1"``. Neighbours: ``hamming`` (= ``replace-one``).
``Domain.histograms(n, categories)``
    ``"[2,1]"`` — counts per record value (an anonymous mechanism). Neighbours: move one unit between two
    categories (replacing one record of the underlying database).
``Domain.counts(n)``
    ``"0"``, ``"1"``, …, ``"n"`` — the number of ones among ``n`` binary records (two candidates).
    Neighbours: counts differing by one.

The structure of each database (its records, its histogram) is read from the Domain (:attr:`Domain.points`), never
parsed back from the label strings. A mechanism that lost its Domain (loaded from a JSON file, post-processed) is
recognised by :func:`recognise_domain`, which builds the candidate Domains of the right size and compares their
labels with the mechanism's.

``d_{ε,M}(x, x') = Σ_y (P[M(x)=y] − e^ε P[M(x')=y])₊`` (the hockey-stick kernel
:func:`privgeom._core.columns.hockey_stick_columns`) and ``δ_{ε,M}(x) = max_{x' ~ x} max(d(x, x'), d(x', x))``
(:func:`delta_vector`); :func:`privgeom.smoothed.database_delta` reports them.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import networkx as nx
import numpy as np

from .._core.domain import Domain, RelationLike, resolve_graph
from .._core.errors import DomainMismatchError, FormatError, InvalidParameterError
from .._core.columns import hockey_stick_columns
from .._core.numbers import Scalar
from ..mechanisms import Mechanism

__all__ = [
    "BINARY_RECORDS",
    "KINDS",
    "recognise_domain",
    "input_domain",
    "record_values",
    "agents",
    "is_anonymous",
    "database_points",
    "histograms",
    "pair_distances",
    "neighbour_graph_of",
    "DeltaVector",
    "delta_vector",
]

#: The records of bit-string and count domains: record ``"0"`` and record ``"1"`` (a count is the number of ones).
BINARY_RECORDS = ("0", "1")

#: Legacy ``kind=`` names (public before :class:`~privgeom.Domain`) -> the Domain kinds they denote.
KINDS: dict[str, tuple[str, ...]] = {
    "database": ("databases", "bits"),
    "histogram": ("histograms",),
    "count": ("counts",),
}

_STRUCTURED = ("databases", "bits", "histograms", "counts")


# ---------------------------------------------------------------------------------------------------- domains
def _bits_width(N: int) -> int | None:
    k = N.bit_length() - 1
    return k if k >= 1 and 1 << k == N else None


def _candidates(N: int, kinds: tuple[str, ...], records: tuple[str, ...] | None) -> list[Any]:
    """Constructors of every structured Domain with ``N`` datasets (sizes only: nothing is read from labels)."""
    out: list[Any] = []
    binary_ok = records is None or len(records) == 2
    if "counts" in kinds and N >= 2 and binary_ok:
        out.append(lambda: Domain.counts(N - 1))
    if "bits" in kinds and (records is None or records == BINARY_RECORDS):
        k = _bits_width(N)
        if k is not None:
            out.append(lambda: Domain.bits(k))
    if "databases" in kinds:  # r^n = N: n = 1 (r = N) or r <= sqrt(N)
        widths = [len(records)] if records is not None else [*range(2, math.isqrt(N) + 1), N]
        for r in dict.fromkeys(widths):
            n, size = 1, r
            while 1 < r and size < N:
                n, size = n + 1, size * r
            if size == N and r >= 2:
                out.append(lambda n=n, r=r: Domain.databases(n, list(records) if records is not None else r))
    if "histograms" in kinds:  # C(n + c - 1, c - 1) = N: n = 1 (c = N) or C(c + 1, 2) <= N
        cats = [len(records)] if records is not None else [*range(2, math.isqrt(2 * N) + 2), N]
        for c in dict.fromkeys(cats):
            if c < 2:
                continue
            n = 1
            while math.comb(n + c - 1, c - 1) < N:
                n += 1
            if math.comb(n + c - 1, c - 1) == N:
                out.append(lambda n=n, c=c: Domain.histograms(n, list(records) if records is not None else c))
    return out


def recognise_domain(
    labels: Sequence[str], *, kind: str | None = None, records: Sequence[Any] | None = None
) -> Domain | None:
    """The structured :class:`~privgeom.Domain` whose labels are exactly ``labels`` (in any order), or None.

    For mechanisms that lost their Domain (a JSON file, a post-processed mechanism): every Domain of the right size
    (counts, bit strings, databases, histograms; ``kind`` restricts them, ``records`` fixes the record values) is
    built and its labels compared with ``labels``. Label strings are compared, never parsed.

    Examples
    --------
    >>> recognise_domain(["0", "1", "2"]).kind
    'counts'
    >>> recognise_domain(["[2,0]", "[1,1]", "[0,2]"]).kind
    'histograms'
    >>> recognise_domain(["(a,b)", "(b,b)", "(a,a)", "(b,a)"], records=["b", "a"]).values
    ('b', 'a')
    >>> recognise_domain(["a", "b"]) is None
    True
    """
    labels = tuple(str(s) for s in labels)
    target = set(labels)
    if len(target) != len(labels):
        return None
    kinds = _STRUCTURED if kind is None else KINDS[kind]
    recs = tuple(str(r) for r in records) if records is not None else None
    for make in _candidates(len(labels), kinds, recs):
        dom = make()
        if set(dom.labels) == target:
            return dom
    return None


def _check_kind(kind: Any) -> str | None:
    if kind is None or kind in KINDS:
        return kind
    raise InvalidParameterError(f"unknown input kind {kind!r}; pass a privgeom.Domain or one of {sorted(KINDS)}")


def input_domain(
    mechanism: Mechanism, kind: Domain | str | None = None, records: Sequence[Any] | None = None
) -> Domain:
    """The Domain of a mechanism's inputs, read as databases when possible.

    ``kind`` is a :class:`~privgeom.Domain` (used as given; the mechanism's inputs must be among its datasets — a
    mechanism may be defined on some of the databases only) or a legacy
    name ``"database"``, ``"histogram"``, ``"count"`` that restricts the kind; ``records`` fixes the record values
    and their order (the coordinates of the distributions). A mechanism built on a structured Domain keeps it;
    otherwise :func:`recognise_domain` is tried and, failing that, the plain labels are returned (a neighbour graph
    must then be given).

    Raises
    ------
    DomainMismatchError
        A Domain that does not hold every input of the mechanism, or ``records`` that do not match the Domain.
    InvalidParameterError
        An unknown ``kind`` name, or one that contradicts the mechanism's Domain.
    """
    recs = tuple(str(r) for r in records) if records is not None else None
    if isinstance(kind, Domain):
        dom = kind
        missing = [x for x in mechanism.inputs if x not in dom]
        if missing:
            raise DomainMismatchError(
                f"the mechanism's inputs {missing[:6]} are not datasets of the domain {dom.describe()}"
            )
        kind = None
    else:
        kind = _check_kind(kind)
        dom = mechanism.domain
        if dom.kind not in _STRUCTURED:
            found = recognise_domain(mechanism.inputs, kind=kind, records=recs)
            return found if found is not None else dom
        if kind is not None and dom.kind not in KINDS[kind]:
            raise InvalidParameterError(f"kind = {kind!r} does not describe the mechanism's {dom.kind} inputs")
    return _with_records(dom, recs)


def _with_records(dom: Domain, recs: tuple[str, ...] | None) -> Domain:
    """The same datasets with the record values in the order ``recs`` (labels produced by Domain again)."""
    if recs is None or recs == record_values(dom):
        return dom
    if dom.kind in ("bits", "counts"):
        if dom.kind == "counts" and len(recs) == 2:
            return dom  # the two records of a count are names only: the count is the number of the second
        raise DomainMismatchError(
            f"{dom.kind} datasets have the records {list(BINARY_RECORDS)}, got records={list(recs)}"
        )
    if len(recs) != len(dom.values) or (dom.kind == "databases" and set(recs) != set(dom.values)):
        raise DomainMismatchError(
            f"records={list(recs)} do not match the record values {list(dom.values)} of the inputs"
        )
    assert dom.n is not None
    if dom.kind == "databases":
        return Domain.databases(dom.n, list(recs), up_to=dom.up_to)
    return Domain.histograms(dom.n, list(recs), up_to=dom.up_to)


def _structured(dom: Domain, what: str) -> None:
    if dom.kind not in _STRUCTURED or dom.up_to:
        raise FormatError(
            f"{what} needs inputs that are databases of one size: build the mechanism with inputs=Domain.databases(n, "
            f"records), Domain.histograms(n, categories), Domain.counts(n) or Domain.bits(n), or pass kind=Domain "
            f"(got {dom.describe()})"
        )


def record_values(dom: Domain) -> tuple[str, ...]:
    """The record domain ``X`` (the coordinates of the agents' distributions)."""
    return dom.values if dom.kind in ("databases", "histograms") else BINARY_RECORDS


def agents(dom: Domain) -> int:
    """The number ``n`` of agents (records per database)."""
    _structured(dom, "smoothed DP")
    return int(dom.n or 0)


def is_anonymous(dom: Domain) -> bool:
    """True when the datasets are histograms (or counts): the mechanism only sees how many agents hold each record."""
    return dom.kind in ("histograms", "counts")


def database_points(dom: Domain) -> tuple[tuple[int, ...], ...]:
    """Per dataset, the database as record indices (databases and bit strings; bit ``j`` of ``Domain.bits``
    dataset ``i`` is bit ``j`` of the integer ``2^n − 1 − i``, the Domain's order)."""
    if dom.kind == "databases":
        return dom.points
    if dom.kind == "bits":
        k = int(dom.n or 0)
        top = (1 << k) - 1
        return tuple(tuple(((top - i) >> (k - 1 - j)) & 1 for j in range(k)) for i in range(len(dom)))
    raise InvalidParameterError(f"{dom.kind} datasets are not individual databases")


def histograms(dom: Domain) -> tuple[tuple[int, ...], ...]:
    """Per dataset, its histogram (agents per record value)."""
    _structured(dom, "smoothed DP")
    if dom.kind == "histograms":
        return dom.points
    if dom.kind == "counts":
        n = int(dom.n or 0)
        return tuple((n - c, c) for (c,) in dom.points)
    width = len(record_values(dom))
    out = []
    for p in database_points(dom):
        h = [0] * width
        for r in p:
            h[r] += 1
        out.append(tuple(h))
    return tuple(out)


# ---------------------------------------------------------------------------------------------------- distances
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


def neighbour_graph_of(mechanism: Mechanism, graph: RelationLike | None, dom: Domain) -> nx.Graph:
    """The neighbour relation by the core's :func:`privgeom.neighbour_graph`: a relation name on the inputs' Domain
    (``None``: its default relation), restricted to the mechanism's inputs when it is defined on some datasets
    only; a graph or a list of pairs is validated against the mechanism's inputs."""
    if graph is None:
        if dom.kind == "labels" and not dom.is_bits:
            raise FormatError(
                f"cannot read the mechanism's inputs {list(mechanism.inputs[:6])} as databases, histograms or counts: "
                "build it with inputs=Domain.databases(n, records) (or histograms/counts/bits), pass kind=Domain, "
                f"or give graph= ({', '.join(repr(r) for r in dom.relations)}, a networkx graph or a list of pairs)"
            )
        graph = dom
    if not isinstance(graph, (str, Domain)):
        return resolve_graph(graph, mechanism.inputs)
    G = resolve_graph(graph, dom)
    if len(dom) != mechanism.n_inputs:
        G = nx.Graph(G.subgraph(mechanism.inputs), name=G.name)
    return G


class DeltaVector(NamedTuple):
    """``δ(x)`` for every input of a mechanism (:func:`delta_vector`)."""

    values: list[Scalar]  #: ``δ(x)`` per input, in the mechanism's input order
    worst: list[int | None]  #: per input, the index of the neighbour attaining ``δ(x)`` (None: no neighbour)
    exact: bool  #: True when the values are exact Fractions


def delta_vector(mechanism: Mechanism, exp_eps: Scalar, graph: nx.Graph) -> DeltaVector:
    """``δ(x) = max_{x' ~ x} max(d(x, x'), d(x', x))`` for every input over ``graph`` (Definition 2), with the
    worst neighbour of each input."""
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
    return DeltaVector(values=values, worst=worst, exact=exact)
