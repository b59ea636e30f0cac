"""Datasets with their structure (:class:`Domain`) and the one resolution of neighbour relations (:func:`resolve_graph`).

A mechanism's columns are the possible datasets. privgeom produces their labels here, from the structure, and never
parses a structure back out of label strings elsewhere:

========================  ======================================  =============================================
constructor               labels (in order)                       relations
========================  ======================================  =============================================
``Domain.bits(k)``        ``"11"``, ``"10"``, ``"01"``, ``"00"``  ``hamming`` (= ``replace-one``), ``complete``
``Domain.counts(n)``      ``"0"``, …, ``"n"``                     ``path`` (= ``replace-one``), ``complete``
``Domain.databases(n, r)``  ``"(0,0)"``, ``"(0,1)"``, …           ``replace-one``, ``hamming`` (alias), ``complete``
``Domain.histograms(n, c)`` ``"[2,0]"``, ``"[1,1]"``, ``"[0,2]"`` ``replace-one``, ``complete``
``Domain.labels(seq)``    the given labels                        ``path``, ``complete``; ``hamming`` on bit strings
========================  ======================================  =============================================

``databases(..., up_to=True)`` and ``histograms(..., up_to=True)`` hold every size ``0..n`` and add the relation
``add-remove`` (unbounded DP: neighbours differ by adding or removing one record). The relations are the neighbour
graphs of differential privacy (Dwork & Roth, Definition 2.4; bounded DP = replace-one, unbounded DP = add-remove),
of Lin & Kifer's Section V (Hamming graph on bit strings) and of the smoothed-DP paper of Liu, Wang & Xia
(replace-one neighbours of databases and histograms).

Examples
--------
>>> from privgeom import Domain
>>> from privgeom._core.domain import resolve_graph
>>> D = Domain.bits(2)
>>> D.labels, D.relations
(('11', '10', '01', '00'), ('hamming', 'replace-one', 'complete'))
>>> sorted(map(sorted, D.relation("hamming").edges))
[['00', '01'], ['00', '10'], ['01', '11'], ['10', '11']]
>>> resolve_graph("hamming", ["0", "1", "2", "3"])
Traceback (most recent call last):
    ...
privgeom._core.errors.InvalidParameterError: relation 'hamming' does not apply to these datasets (labels ['0', '1', '2', '3'] are not bit strings of equal length); valid relations: 'path', 'complete', or a networkx graph / list of label pairs
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol, Sequence, TypeAlias

import numpy as np

from .limits import register_limit
from .arrays import parse_int
from .hints import limit_hint
from .limits import current_limit
from .errors import DomainMismatchError, InvalidInputError, InvalidParameterError, InvalidTypeError, SizeLimitError
from .relations import NODE_READINGS, GraphLike, bit_labels, graph_name, relation_edges, validate_graph

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "Domain",
    "resolve_graph",
    "RELATIONS",
    "MAX_DOMAIN_SIZE",
    "MAX_GRAPH_EDGES",
    "max_bits",
    "GraphLike",
    "NODE_READINGS",
    "validate_graph",
    "RelationLike",
    "InputsLike",
]

#: Every relation name privgeom knows (a given domain supports a subset: :attr:`Domain.relations`).
RELATIONS = ("hamming", "replace-one", "add-remove", "path", "complete")

#: Largest number of datasets a :class:`Domain` enumerates (its labels are listed: at construction, or for bit
#: strings on first use); the global size limit
#: ``domain_size`` (:func:`privgeom.set_limits`), read at call time.
MAX_DOMAIN_SIZE = 2**26

#: Default largest number of edges :meth:`Domain.relation` builds into a networkx graph (a networkx edge costs
#: about 500 bytes; raise it with ``max_edges=`` or the global size limit ``graph_edges``), read at call time.
MAX_GRAPH_EDGES = 500_000
register_limit(
    "domain_size",
    globals(),
    "MAX_DOMAIN_SIZE",
    "largest number of datasets a Domain enumerates (its labels are built when used)",
)
register_limit(
    "graph_edges",
    globals(),
    "MAX_GRAPH_EDGES",
    "default largest number of edges a neighbourhood relation is built with as a networkx graph "
    "(about 500 bytes each; max_edges= raises it for one call)",
)

#: The bit count of the default ``domain_size`` limit (2^26 datasets); :func:`max_bits` follows the current limit.
_MAX_BITS = 26


def max_bits() -> int:
    """Largest ``k`` with ``2^k`` datasets within the current ``domain_size`` limit."""
    return max(0, current_limit("domain_size").bit_length() - 1)


def _int(value: Any, name: str, lo: int) -> int:
    return parse_int(value, name=name, min=lo)


def _values(values: Any, name: str) -> tuple[str, ...]:
    """Record values / categories: an int ``m`` means ``0..m-1``; otherwise a sequence of distinct values."""
    import numpy as np

    if isinstance(values, (int, np.integer)) and not isinstance(values, bool):
        m = _int(values, name, 1)
        return tuple(str(i) for i in range(m))
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidTypeError(f"{name} must be a number of values or a sequence of values, got {values!r}")
    out = tuple(str(v) for v in values)
    if not out:
        raise InvalidParameterError(f"{name} must not be empty")
    if len(set(out)) != len(out):
        raise InvalidParameterError(f"{name} must be distinct, got {list(out)[:8]}")
    return out


def _check_size(size: int, what: str) -> None:
    if size > current_limit("domain_size"):
        raise SizeLimitError(
            f"{what} has {size:,} datasets, more than privgeom enumerates (limit "
            f"{current_limit('domain_size'):,} "
            f"datasets); {limit_hint('domain_size', size)}"
        )


def _compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """``(c_1..c_parts)``, ``c ≥ 0``, ``Σ c = n``, first count decreasing (the smoothed package's order)."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, parts - 1):
            yield (first,) + rest


def _is_bit_labels(labels: Sequence[str]) -> bool:
    """THE test "are these labels bit strings of one length?" (used only through :attr:`Domain.is_bits`)."""
    if not labels:
        return False
    width = len(labels[0])
    # one pass for the lengths, then the characters of all labels at once (2^20 labels in well under a second)
    return width > 0 and all(len(s) == width for s in labels) and not set("".join(labels)) - {"0", "1"}


class HasDomain(Protocol):
    """Anything that carries its datasets as a :class:`Domain` — a :class:`~privgeom.Mechanism` — read structurally
    (its ``domain`` attribute), so that this base layer never names the layer of mechanisms."""

    @property
    def domain(self) -> "Domain": ...


@dataclass(frozen=True)
class Domain:
    """The datasets of a mechanism (its columns) with their structure and named neighbour relations.

    Attributes
    ----------
    kind : str
        ``"bits"``, ``"counts"``, ``"databases"``, ``"histograms"`` or ``"labels"``.
    labels : tuple of str
        The dataset labels in column order.
    n : int or None
        Number of bits (bits), largest count (counts), number of records (databases, histograms; the largest
        size with ``up_to=True``); None for plain labels.
    values : tuple of str
        Record values (databases), categories (histograms), ``("1", "0")`` for bits; empty otherwise.
    points : tuple of tuples of int
        The structure of each dataset: value indices per record (databases), counts per category (histograms),
        ``(c,)`` for counts; empty for bits (the label is the structure) and plain labels.
    up_to : bool
        Databases/histograms of every size ``0..n`` (the ``add-remove`` relation applies).

    Examples
    --------
    >>> Domain.counts(3).labels
    ('0', '1', '2', '3')
    >>> Domain.databases(2, 2).labels
    ('(0,0)', '(0,1)', '(1,0)', '(1,1)')
    >>> Domain.histograms(2, ["a", "b"]).labels, Domain.histograms(2, 2).relations
    (('[2,0]', '[1,1]', '[0,2]'), ('replace-one', 'complete'))
    >>> D = Domain.labels(["11", "10", "01", "00"])
    >>> D.kind, D.is_bits, D.k, D.index("01"), len(D)
    ('labels', True, 2, 2, 4)
    """

    kind: str
    labels: tuple[str, ...]
    n: int | None = None
    values: tuple[str, ...] = ()
    points: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    up_to: bool = False

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise InvalidParameterError(f"unknown domain kind {self.kind!r}; known: {list(_KINDS)}")
        if isinstance(self.__dict__.get("labels"), _LazyBitLabels):  # Domain.bits/counts: built on first use
            return
        labels = tuple(self.labels)
        if not labels:
            raise InvalidInputError("a domain needs at least one dataset")
        if len(set(labels)) != len(labels):
            dup = sorted({x for x in labels if labels.count(x) > 1})
            raise InvalidInputError(f"dataset labels must be unique; repeated: {dup[:8]}")
        object.__setattr__(self, "labels", labels)

    @property
    def _index(self) -> dict[str, int]:
        """Column of each label, built on first use."""
        index = self.__dict__.get("_index_cache")
        if index is None:
            index = {s: i for i, s in enumerate(self.labels)}
            object.__setattr__(self, "_index_cache", index)
        return index

    # ------------------------------------------------------------------------------------------------ constructors
    @classmethod
    def bits(cls, k: int) -> "Domain":
        """The ``2^k`` bit strings of length ``k`` in reverse lexicographic order, as :func:`~privgeom.randomized_response`.

        Examples
        --------
        >>> Domain.bits(2).labels
        ('11', '10', '01', '00')
        """
        k = _int(k, "k (number of bits)", 1)
        if k > max_bits():
            raise SizeLimitError(
                f"k = {k} bits means 2^{k} datasets, more than privgeom enumerates (limit "
                f"{current_limit('domain_size'):,} datasets "
                f"= 2^{max_bits()}; its Hamming graph would have {k << (k - 1):,} edges, limit "
                f"{current_limit('graph_edges'):,} "
                f"edges, the size limit graph_edges); {limit_hint('domain_size', 1 << k)}"
            )
        # the labels are built on first use: sizes, edge counts and the relation limit need only k
        return cls("bits", _LazyBitLabels(k), k, ("1", "0"))  # type: ignore[arg-type]

    @classmethod
    def counts(cls, n: int) -> "Domain":
        """Counts ``"0"``, …, ``"n"`` (a count query over ``n`` records).

        Examples
        --------
        >>> Domain.counts(2).relation("path").edges
        EdgeView([('0', '1'), ('1', '2')])
        """
        n = _int(n, "n", 0)
        _check_size(n + 1, f"counts(n={n})")
        # labels and points are built on first use: sizes, edge counts and the relation limit need only n
        return cls("counts", _LazyBitLabels(n, "counts"), n, (), _LazyBitLabels(n, "points"))  # type: ignore[arg-type]

    @classmethod
    def databases(cls, n: int, records: int | Iterable[Any] = 2, *, up_to: bool = False) -> "Domain":
        """All databases of ``n`` records, each a value in ``records`` (an int ``m`` means ``0..m-1``).

        Labels ``"(x_1,…,x_n)"`` in lexicographic order of the values as given (the databases of :mod:`privgeom.smoothed`);
        ``up_to=True``: every size ``0..n``, smallest first (``"()"`` is the empty database).

        Examples
        --------
        >>> Domain.databases(1, ["a", "b"], up_to=True).labels
        ('()', '(a)', '(b)')
        """
        n = _int(n, "n", 0 if up_to else 1)
        vals = _values(records, "records")
        sizes = range(n + 1) if up_to else [n]
        _check_size(sum(len(vals) ** s for s in sizes), f"databases(n={n}, {len(vals)} record values)")
        pts = tuple(p for s in sizes for p in itertools.product(range(len(vals)), repeat=s))
        labels = tuple("(" + ",".join(vals[i] for i in p) + ")" for p in pts)
        return cls("databases", labels, n, vals, pts, up_to)

    @classmethod
    def histograms(cls, n: int, categories: int | Iterable[Any] = 2, *, up_to: bool = False) -> "Domain":
        """All histograms ``"[h_0,…,h_{c-1}]"`` of ``n`` records over ``categories`` (``h_0`` decreasing).

        Compositions with ``h_0`` decreasing; ``up_to=True``: every total ``0..n``, smallest first.

        Examples
        --------
        >>> Domain.histograms(1, 3).labels
        ('[1,0,0]', '[0,1,0]', '[0,0,1]')
        """
        n = _int(n, "n", 0 if up_to else 1)
        cats = _values(categories, "categories")
        sizes = range(n + 1) if up_to else [n]
        from math import comb

        _check_size(sum(comb(s + len(cats) - 1, s) for s in sizes), f"histograms(n={n}, {len(cats)} categories)")
        pts = tuple(p for s in sizes for p in _compositions(s, len(cats)))
        labels = tuple("[" + ",".join(map(str, p)) + "]" for p in pts)
        return cls("histograms", labels, n, cats, pts, up_to)

    @classmethod
    def from_labels(cls, labels: Iterable[Any]) -> "Domain":
        """Plain labels (kind ``"labels"``): the relations ``path`` and ``complete``, and ``hamming`` on bit strings.

        Examples
        --------
        >>> Domain.from_labels(["a", "b", "c"]).relations
        ('path', 'complete')
        """
        if isinstance(labels, (str, bytes)):
            raise InvalidTypeError(f"dataset labels must be a sequence of labels, got the single string {labels!r}")
        if isinstance(labels, Domain):
            return labels
        try:
            out = tuple(str(s) for s in labels)
        except TypeError:
            raise InvalidTypeError(f"dataset labels must be a sequence of labels, got {labels!r}") from None
        return cls("labels", out)

    # ``Domain.labels([...])`` is the documented spelling; as a class attribute it would clash with the field, so the
    # constructor is reachable both as ``Domain.from_labels`` and (on the class) ``Domain.labels``: see below.

    @classmethod
    def coerce(cls, inputs: "InputsLike | HasDomain") -> "Domain":
        """A Domain unchanged, or plain labels (a Mechanism gives its input domain)."""
        if isinstance(inputs, Domain):
            return inputs
        dom = getattr(inputs, "domain", None)
        if isinstance(dom, Domain):
            return dom
        return cls.from_labels(inputs)  # type: ignore[arg-type]  # a Mechanism always has a Domain (above)

    # ------------------------------------------------------------------------------------------------ views
    def __len__(self) -> int:
        lazy = self.__dict__.get("labels")
        return len(lazy) if isinstance(lazy, _LazyBitLabels) else len(self.labels)

    def __iter__(self) -> Iterator[str]:
        return iter(self.labels)

    def __contains__(self, label: object) -> bool:
        return label in self._index

    def index(self, label: str) -> int:
        """Column of a dataset label.

        Raises
        ------
        DomainMismatchError
            A label that is not one of the datasets.
        """
        try:
            return self._index[label]
        except KeyError:
            raise DomainMismatchError(f"{label!r} is not one of the datasets {list(self.labels[:8])}") from None

    @property
    def is_bits(self) -> bool:
        """True for bit strings of one length (``Domain.bits`` or plain labels that are such strings)."""
        return self.kind == "bits" or (self.kind == "labels" and _is_bit_labels(self.labels))

    @property
    def k(self) -> int | None:
        """Number of bits when :attr:`is_bits` (else None)."""
        if self.kind == "bits":
            return self.n
        return len(self.labels[0]) if self.is_bits else None

    @property
    def relations(self) -> tuple[str, ...]:
        """The relation names valid for this domain."""
        if self.kind == "bits":
            return ("hamming", "replace-one", "complete")
        if self.kind == "counts":
            return ("path", "replace-one", "complete")
        if self.kind == "databases":
            return ("replace-one", "hamming") + (("add-remove",) if self.up_to else ()) + ("complete",)
        if self.kind == "histograms":
            return ("replace-one",) + (("add-remove",) if self.up_to else ()) + ("complete",)
        return (("hamming",) if self.is_bits else ()) + ("path", "complete")

    @property
    def default_relation(self) -> str:
        """``hamming`` for bits, ``path`` for counts, ``replace-one`` for databases and histograms.

        Plain labels default to ``hamming`` too, which :meth:`relation` refuses when they are not bit strings of
        one length: the default is never silently replaced by another relation."""
        if self.kind == "labels":
            return "hamming"
        return _DEFAULT_RELATION[self.kind]

    def n_edges(self, relation: str) -> int:
        """Number of edges of a named relation; closed forms from the sizes where they exist (nothing is built).

        Examples
        --------
        >>> Domain.bits(3).n_edges("hamming"), Domain.labels(range(2000)).n_edges("complete")
        (12, 1999000)
        """
        N = len(self)
        name = self.check_relation(relation)
        if name == "complete":
            return N * (N - 1) // 2
        if name == "path" or self.kind == "counts":
            return N - 1
        if self.kind == "bits":
            return N * (self.n or 0) // 2
        return sum(1 for _ in self._edges(name))

    def edge_bound(self, name: str) -> int:
        """An upper bound on the edges of a relation, from the sizes alone."""
        N = len(self)
        if name == "complete":
            return N * (N - 1) // 2
        if name == "path" or self.kind == "counts":
            return N - 1
        if self.kind == "labels":
            return N * len(self.labels[0]) // 2  # one-bit flips
        if self.kind == "bits":
            return N * (self.n or 0) // 2
        c = len(self.values)
        if self.kind == "databases":
            return N * ((self.n or 0) * (c - 1) + c)  # replace one record; add-remove appends one of c values
        return N * c * c  # histograms: move one unit between two categories / add one

    def relation(self, relation: str | GraphLike = "hamming", *, max_edges: int | None = None) -> nx.Graph:
        """The neighbour graph of a relation name (or validate a user graph / edge list on these datasets).

        Raises
        ------
        InvalidParameterError
            A name that is unknown or does not apply to this domain (the message lists the valid ones).
        SizeLimitError
            More than ``max_edges`` (default :data:`MAX_GRAPH_EDGES`) edges, refused before building.

        Examples
        --------
        >>> G = Domain.databases(2, 2).relation("replace-one")
        >>> G.name, sorted(map(sorted, G.edges))[:2]
        ('replace-one(database)', [['(0,0)', '(0,1)'], ['(0,0)', '(1,0)']])
        >>> Domain.histograms(2, 2, up_to=True).relation("add-remove").number_of_edges()
        6
        """
        if not isinstance(relation, str):
            return validate_graph(relation, self.labels)
        name = self.check_relation(relation)
        limit = current_limit("graph_edges") if max_edges is None else max_edges
        size = self.edge_bound(name)
        if size > limit:
            how = f" = k·2^(k−1) for k = {self.n} bits" if self.kind == "bits" and name != "complete" else ""
            raise SizeLimitError(
                f"the {name} relation on {len(self):,} datasets has up to {size:,} edges{how}, more than privgeom "
                f"builds as a graph (limit {limit:,}); refused before building anything — "
                f"{limit_hint('graph_edges', size, keyword='max_edges')}"
            )
        import networkx as nx  # noqa: F811 - loaded on first use (start-up time)

        G = nx.Graph(name=self._graph_name(name))
        G.add_nodes_from(self.labels)
        G.add_edges_from(self._edges(name))
        return G

    def relation_pairs(self, relation: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The undirected edges of a named relation as sorted index arrays ``(I, J)`` with ``I[e] < J[e]`` when they
        are known arithmetically, without a graph: the ``path`` relation (and ``replace-one`` on counts) joins
        dataset ``i`` to ``i + 1``. None for the other relations (build them with :meth:`relation`).

        Two ``int64`` arrays of ``N − 1`` entries are all that is allocated, so the ``graph_edges`` limit (which
        bounds networkx graphs) does not apply; :meth:`relation` checks it if the graph is ever built.

        Examples
        --------
        >>> [a.tolist() for a in Domain.counts(3).relation_pairs("path")]
        [[0, 1, 2], [1, 2, 3]]
        >>> Domain.bits(2).relation_pairs("hamming") is None
        True
        """
        name = self.check_relation(relation)
        if name == "path" or (name == "replace-one" and self.kind == "counts"):
            I = np.arange(max(len(self) - 1, 0), dtype=np.int64)
            return I, I + 1
        return None

    # ------------------------------------------------------------------------------------------------ internals
    def check_relation(self, relation: str) -> str:
        """The normalised relation name, or the one clear error listing the valid names."""
        name = relation.strip().lower()
        valid = self.relations
        if name in valid:
            return name
        listed = ", ".join(repr(v) for v in valid) + ", or a networkx graph / list of label pairs"
        if name in RELATIONS:
            raise InvalidParameterError(
                f"relation {relation!r} does not apply to these datasets ({self.describe()}); valid relations: {listed}"
            )
        raise InvalidParameterError(f"unknown neighbour relation {relation!r}; valid relations: {listed}")

    def describe(self) -> str:
        """A short description of the datasets for messages."""
        shown = list(self.labels[:6])
        if self.kind == "labels":
            return f"labels {shown}{' …' if len(self) > 6 else ''} are not bit strings of equal length"
        return f"{self.kind} {shown}{' …' if len(self) > 6 else ''}"

    def _graph_name(self, name: str) -> str:
        """The name of the graph of a relation (``hamming(3)``, ``path(4)``, ``replace-one(database)``, …)."""
        return graph_name(self, name)

    def _edges(self, name: str) -> Iterator[tuple[str, str]]:
        return relation_edges(self, name)


_KINDS = ("bits", "counts", "databases", "histograms", "labels")

#: A neighbour relation as :func:`resolve_graph` accepts it (every ``graph=``/``relation=`` parameter): a relation
#: name (:data:`RELATIONS`), a :class:`Domain` (its default relation) or a user graph (:data:`GraphLike`).
RelationLike: TypeAlias = str | Domain | GraphLike

#: The datasets (a mechanism's columns) as ``inputs=`` accepts them: a :class:`Domain` or a sequence of labels.
InputsLike: TypeAlias = Domain | Sequence[Any]


class _LazyBitLabels:
    """Placeholder for the ``2^k`` labels of :meth:`Domain.bits` (``what="bits"``), the ``n + 1`` labels of
    :meth:`Domain.counts` (``"counts"``) or its points ``(c,)`` (``"points"``) until they are first read (picklable)."""

    __slots__ = ("k", "what")

    def __init__(self, k: int, what: str = "bits") -> None:
        self.k = k
        self.what = what

    def __len__(self) -> int:
        return (1 << self.k) if self.what == "bits" else self.k + 1

    def build(self) -> tuple[Any, ...]:
        if self.what == "counts":
            return tuple(str(c) for c in range(self.k + 1))
        if self.what == "points":
            return tuple((c,) for c in range(self.k + 1))
        return bit_labels(self.k)

    def __getstate__(self) -> tuple[int, str]:
        return (self.k, self.what)

    def __setstate__(self, state: int | tuple[int, str]) -> None:
        self.k, self.what = (state, "bits") if isinstance(state, int) else state


class _LabelsConstructor:
    """``Domain.labels([...])`` on the class builds a plain-labels domain; on an instance it is the labels tuple."""

    def __get__(self, obj: Any, owner: type) -> Any:
        if obj is None:
            return owner.from_labels  # type: ignore[attr-defined]
        value = obj.__dict__["labels"]
        if isinstance(value, _LazyBitLabels):
            value = obj.__dict__["labels"] = value.build()
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["labels"] = value


class _LazyPoints:
    """``Domain.points``, built on first read when the constructor left a placeholder (:meth:`Domain.counts`)."""

    def __get__(self, obj: Any, owner: type) -> Any:
        if obj is None:
            return ()
        value = obj.__dict__.get("points", ())
        if isinstance(value, _LazyBitLabels):
            value = obj.__dict__["points"] = value.build()
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["points"] = value


def _install_labels_descriptor() -> None:
    # the dataclass machinery needs ``labels`` as a plain field; afterwards the class attribute doubles as the
    # ``Domain.labels(seq)`` constructor of the agreed API. ``points`` may be built on first read, too.
    setattr(Domain, "labels", _LabelsConstructor())
    setattr(Domain, "points", _LazyPoints())


_install_labels_descriptor()


def resolve_graph(
    relation: RelationLike, inputs: "InputsLike | HasDomain", *, max_edges: int | None = None, nodes: str = "labels"
) -> nx.Graph:
    """THE resolution of a neighbour relation on a set of datasets (public as :func:`privgeom.neighbour_graph`).

    Parameters
    ----------
    relation : str, Domain, networkx.Graph or iterable of label pairs
        A relation name (:data:`RELATIONS`; a string is always a name, never an iterable of nodes), a
        :class:`Domain` (its default relation: ``hamming`` for bits, ``path`` for counts, ``replace-one`` for
        databases and histograms), a graph or an edge list (validated against the datasets: its nodes must be
        the datasets' labels unless ``nodes="positions"``).
    inputs : Domain, Mechanism or sequence of str
        The datasets (a mechanism's :attr:`~privgeom.Mechanism.inputs` or its domain).
    max_edges : int, optional
        Refuse named relations with more edges (default :data:`MAX_GRAPH_EDGES`) before building them.
    nodes : {"labels", "positions"}
        How a graph's nodes name the datasets: ``"labels"`` (default; a node that is not a label is an error
        naming the nodes and the labels) or ``"positions"`` (integer column positions ``0 .. n-1``, e.g.
        ``resolve_graph(networkx.path_graph(4), M, nodes="positions")`` links ``M.inputs[0]`` and ``M.inputs[1]``, …).

    Raises
    ------
    InvalidParameterError
        An unknown name or one that does not apply (e.g. ``hamming`` on labels that are not equal-length bit
        strings); the message lists the valid relations. Never silently replaced by another relation.
    DomainMismatchError
        A graph node that is not one of the datasets (not a label, or not a position with ``nodes="positions"``),
        or a Domain whose labels differ from ``inputs``.

    Examples
    --------
    >>> resolve_graph("complete", ["a", "b", "c"]).number_of_edges()
    3
    >>> resolve_graph(Domain.counts(2), ["0", "1", "2"]).name
    'path(2)'
    >>> resolve_graph("hammming", Domain.bits(1))
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidParameterError: unknown neighbour relation 'hammming'; valid relations: 'hamming', 'replace-one', 'complete', or a networkx graph / list of label pairs
    """
    dom = Domain.coerce(inputs)
    if isinstance(relation, Domain):
        if relation.labels != dom.labels:
            if set(relation.labels) != set(dom.labels):
                raise DomainMismatchError(
                    f"the relation's domain {list(relation.labels[:6])} does not match the datasets {list(dom.labels[:6])}"
                )
        return relation.relation(relation.default_relation, max_edges=max_edges)
    if isinstance(relation, str):
        return dom.relation(relation, max_edges=max_edges)
    if relation is None:
        raise InvalidTypeError("a neighbour relation is required: a name such as 'hamming', a graph or a list of pairs")
    return validate_graph(relation, dom.labels, nodes=nodes)


_DEFAULT_RELATION = {"bits": "hamming", "counts": "path", "databases": "replace-one", "histograms": "replace-one"}
