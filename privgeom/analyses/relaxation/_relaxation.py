"""Relaxing a privacy definition by enlarging its row cone (Lin & Kifer, Section V).

Projecting the row cone onto a subset ``S`` of the datasets (Fourier–Motzkin elimination of the other coordinates,
or equivalently projecting the generators) keeps exactly the inequalities that involve only ``S``. Lifting each
projection back (other coordinates free), intersecting them and the non-negative orthant gives a larger cone: a
weaker definition whose mechanisms are those with every row in it.

For randomized response, the projection onto a pair ``(D, D')`` at Hamming distance ``h`` is
``x_D ≤ r^h x_D'`` and ``x_D' ≤ r^h x_D`` with ``r = p/(1-p)``; keeping the pairs at Hamming distance 1 yields
exactly ε-differential privacy on the Hamming graph with ``ε = ln(p/(1-p))`` (Section V).

Routes (``method=``): onto pairs, ``"auto"`` (default) reads each projection as an interval of ratios — from the
cone's closed form (randomized response: ``r^{ham}`` bit by bit; ε-DP: ``e^{dε}``) or from its generators in one
vectorised pass — and treats the relaxed cone as a system of difference constraints (:mod:`._difference_system`): ε-DP is
recognised, implied pairs found with the path that implies them, with shortest paths; lost guarantees come from one
sparse LP per symmetry orbit (:mod:`._lost`). ``"difference"`` insists on that route; ``"cone"`` is the double
description route (Fourier–Motzkin up to 8 datasets, block elimination beyond), and ``"fourier_motzkin"``,
``"block"``, ``"generators"`` force one projection method of it. All routes give the same cone; each is a named
function (its docstring says what it needs and costs) in the table ``_RELAX_ROUTES`` that :func:`relax` dispatches
through.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence, TypeAlias

import networkx as nx
import numpy as np

from ..._core.domain import Domain
from ..._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from ..._core.limits import current_limit, register_limit
from ..._core.level import PrivacyLevel
from ..._core.hints import how_to, limit_hint
from ..._core.numbers import Scalar
from ...geometry._cone import Cone
from .._coerce import as_cone
from ._relax_orbits import orbit_relaxation
from ._relax_results import PairBound, Relaxation, tight_pairs
from ..guarantees._semantics import guarantee_from_normal

if TYPE_CHECKING:
    from ...definitions._base import PrivacyDefinition

__all__ = [
    "PairBound",
    "Relaxation",
    "relax",
    "relax_pairwise",
    "subset_family",
    "family_name",
    "relaxation_domain",
    "own_family",
    "FAMILIES",
    "RELAX_METHODS",
]

#: Named families of dataset subsets for :func:`subset_family`: the neighbour relations of
#: :class:`privgeom.Domain` (pairs of neighbours; ``hamming``, ``replace-one``, ``add-remove``, ``path``, ``complete``
#: where the datasets have them), ``all-pairs`` (every pair, the same as ``complete``) and ``triples``.
FAMILIES = ("hamming", "all-pairs", "triples", "replace-one", "add-remove", "path", "complete")
#: A family of dataset subsets as :func:`subset_family` accepts it: a name of :data:`FAMILIES` (or a neighbour
#: relation of the datasets), a networkx graph (its edges) or an iterable of subsets (each an iterable of labels).
FamilyLike: TypeAlias = str | nx.Graph | Iterable[Iterable[str]]
#: A privacy definition or its row cone (``as_cone`` accepts both), as the routes of :func:`relax` take it.
_DefinitionOrCone: TypeAlias = "PrivacyDefinition | Cone"
#: Largest family of subsets :func:`relax` expands (checked from the sizes before building it), and largest
#: ``#subsets × #datasets`` the double-description route lifts (one row of that length per projected inequality).
MAX_FAMILY = 2_000_000
register_limit(
    "relax_family",
    globals(),
    "MAX_FAMILY",
    "largest relaxation family (subsets) relax() expands, and largest subsets x datasets of its "
    "double-description route",
    option="--max-family",
)


def relaxation_domain(definition_or_cone: PrivacyDefinition | Cone, labels: Sequence[str]) -> Domain | Sequence[str]:
    """The datasets of a definition as a :class:`~privgeom.Domain` when it has one with these ``labels`` (so that
    relation names such as ``replace-one`` apply as families), else the labels."""
    dom = getattr(definition_or_cone, "domain", None)
    if isinstance(dom, Domain) and tuple(dom.labels) == tuple(labels):
        return dom
    return labels


def own_family(definition: PrivacyDefinition | Cone) -> tuple[str, Any] | None:
    """The neighbour graph a definition comes with, as ``(description, family)`` for :func:`relax`; None when it
    has none.

    ε-DP has its graph (``dp:graph=replace-one,…``: the relation name, which :func:`subset_family` expands from the
    domain in time proportional to its edges; a user graph: its edges); the truncated geometric mechanism on
    ``{0..n}`` is ε-DP-like on the path ``0 − 1 − … − n`` (``docs/theory.md`` §7). Relaxing onto these pairs is what
    ``analyze`` does by default (Lin & Kifer, Section V: the pairs whose projections matter are the neighbours);
    every pair (``all-pairs``) is an explicit choice, since it has ``N(N−1)/2`` pairs.

    Examples
    --------
    >>> from privgeom.definitions import parse_definition
    >>> own_family(parse_definition("dp:graph=replace-one,n=2,categories=3,exp_eps=2"))
    ("its own graph 'replace-one'", 'replace-one')
    >>> own_family(parse_definition("geometric:n=3,alpha=1/2"))
    ("its own graph 'path'", 'path')
    >>> own_family(parse_definition("rr:k=2,p=3/4")) is None
    True
    """
    from ...definitions import DifferentialPrivacy
    from ...definitions._catalogue import GeometricDefinition

    if isinstance(definition, GeometricDefinition):
        return "its own graph 'path'", "path"
    if isinstance(definition, DifferentialPrivacy):
        name = definition.relation_name
        if name is not None:
            return f"its own graph {name!r}", name
        I, J = definition.index_pairs
        labels = definition.inputs
        edges = [(labels[i], labels[j]) for i, j in zip(I.tolist(), J.tolist())]
        return (f"its own graph ({len(edges):,} edges)", edges) if edges else None
    return None


def family_name(name: str, datasets: Domain | Sequence[str]) -> str:
    """The normalised family name ``name`` (:data:`FAMILIES`) after checking that it applies to ``datasets``; nothing
    is built.

    Raises
    ------
    InvalidParameterError
        An unknown name (the message lists the family names) or a relation these datasets do not have (the
        message lists the relations they have).

    Examples
    --------
    >>> family_name("Replace-One", Domain.databases(2, ["a", "b"]))
    'replace-one'
    >>> family_name("nosuch", ["11", "10"])
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: unknown subset family 'nosuch'; the families are hamming, all-pairs, triples, replace-one, add-remove, path, complete (the relation names where the datasets have them), or a list of subsets
    """
    key = name.strip().lower()
    if key not in FAMILIES:
        raise InvalidParameterError(
            f"unknown subset family {name!r}; the families are {', '.join(FAMILIES)} (the "
            f"relation names where the datasets have them), or a list of subsets"
        )
    if key not in ("all-pairs", "triples", "hamming"):
        _domain_of(datasets).check_relation(key)
    return key


def _domain_of(datasets: Domain | Sequence[str]) -> Domain:
    if isinstance(datasets, Domain):
        return datasets
    dom = Domain.from_labels(datasets)
    if dom.is_bits and dom.k is not None and tuple(dom.labels) == tuple(Domain.bits(dom.k).labels):
        return Domain.bits(dom.k)  # randomized response's datasets: the bit-string relations apply
    return dom


def subset_family(
    labels: Domain | Sequence[str], family: str | Iterable[Iterable[str]] | nx.Graph
) -> list[tuple[str, ...]]:
    """Expand a family of dataset subsets.

    Parameters
    ----------
    labels : Domain or sequence of str
        The datasets (a :class:`~privgeom.Domain` lets its relations, e.g. ``replace-one``, be named).
    family : str, graph or iterable of subsets
        A name of :data:`FAMILIES`: ``"hamming"`` (pairs at Hamming distance 1; bit-string labels), ``"all-pairs"``
        (= ``"complete"``), ``"triples"``, or a neighbour relation of the datasets (``"replace-one"``,
        ``"add-remove"``, ``"path"``, ``"complete"``: its edges); a networkx graph (its edges); or an explicit list of
        subsets.

    Raises
    ------
    InvalidParameterError
        An unknown family name (the message lists them) or a relation the datasets do not have.
    SizeLimitError
        A family above the size limit ``relax_family``, refused from the sizes before it is built.

    Examples
    --------
    >>> subset_family(["11", "10", "01", "00"], "hamming")
    [('11', '10'), ('11', '01'), ('10', '00'), ('01', '00')]
    >>> len(subset_family(["a", "b", "c"], "all-pairs")), subset_family(["a", "b", "c"], "triples")
    (3, [('a', 'b', 'c')])
    >>> subset_family(["0", "1", "2"], "path")
    [('0', '1'), ('1', '2')]
    """
    datasets = labels
    labels = [str(s) for s in labels]
    known = set(labels)
    n = len(labels)
    if isinstance(family, str):
        family = family_name(family, datasets)
        structured = isinstance(datasets, Domain) and datasets.kind in ("databases", "histograms")
        if family not in ("all-pairs", "triples") and (family != "hamming" or structured):
            dom = _domain_of(datasets)
            size = dom.edge_bound(family)
            if size > current_limit("relax_family"):
                raise SizeLimitError(
                    f"the family {family!r} over {n:,} datasets has up to {size:,} pairs, more than "
                    f"the limit of {current_limit('relax_family'):,}; refused before building it — "
                    f"{limit_hint('relax_family', size)}"
                )
            arith = dom.relation_pairs(family)  # a path: index arithmetic, in the graph's edge order; no graph
            if arith is not None:
                L = dom.labels
                return [(L[i], L[j]) for i, j in zip(arith[0].tolist(), arith[1].tolist())]
            return [(str(a), str(b)) for a, b in dom.relation(family, max_edges=max(size, 1)).edges]
        size = {
            "hamming": n * max(1, n.bit_length()),
            "all-pairs": n * (n - 1) // 2,
            "triples": n * (n - 1) * (n - 2) // 6,
        }.get(family, 0)
        if size > current_limit("relax_family"):
            raise SizeLimitError(
                f"the family {family!r} over {n:,} datasets has {size:,} subsets, more than the "
                f"limit of {current_limit('relax_family'):,}; refused before building it — "
                f"{limit_hint('relax_family', size)}"
            )
        if family == "hamming":
            if not labels or not Domain.from_labels(labels).is_bits:
                raise DomainMismatchError(f"the 'hamming' family needs bit-string datasets, got {labels[:6]}")
            index = {s: i for i, s in enumerate(labels)}
            flip = {"0": "1", "1": "0"}
            found: list[tuple[int, int]] = []
            for i, lab in enumerate(labels):  # neighbours by flipping one bit: O(n k), not O(n^2)
                for pos in range(len(lab)):
                    j = index.get(lab[:pos] + flip[lab[pos]] + lab[pos + 1 :])
                    if j is not None and j > i:
                        found.append((i, j))
            found.sort()
            return [(labels[i], labels[j]) for i, j in found]
        if family == "all-pairs":
            return list(itertools.combinations(labels, 2))
        return list(itertools.combinations(labels, 3))
    if isinstance(family, nx.Graph):
        family = [tuple(e) for e in family.edges]
    out = []
    for sub in family:
        if isinstance(sub, str):
            raise InvalidTypeError(f"a subset must be a sequence of dataset labels, got the string {sub!r}")
        t = tuple(str(s) for s in sub)
        missing = [s for s in t if s not in known]
        if missing:
            raise DomainMismatchError(f"unknown datasets {missing} in subset {t}; datasets: {labels[:8]}")
        if len(set(t)) != len(t) or len(t) < 1:
            raise InvalidParameterError(f"a subset must list distinct datasets, got {t}")
        out.append(t)
    if not out:
        raise InvalidParameterError("the family of subsets is empty")
    return out


def _pair_bound(proj: Cone, pair: tuple[str, str]) -> PairBound:
    """Read ``x_a ≤ r x_b`` and ``x_b ≤ r' x_a`` off a 2-D cone (assumed inside the orthant)."""
    inf: Scalar = math.inf
    fwd, bwd = inf, inf
    for alpha, beta in proj.facets:
        if alpha < 0 < beta:  # alpha x_a + beta x_b >= 0  <=>  x_a <= (beta / -alpha) x_b
            r = beta / -alpha
            fwd = r if fwd == inf or r < fwd else fwd
        elif beta < 0 < alpha:
            r = alpha / -beta
            bwd = r if bwd == inf or r < bwd else bwd
    for e in proj.equalities:  # e0 x_a + e1 x_b = 0 with opposite signs: a fixed ratio
        if e[0] != 0 and e[1] != 0 and (e[0] > 0) != (e[1] > 0):
            fwd = min(fwd, -e[1] / e[0]) if fwd != inf else -e[1] / e[0]
            bwd = min(bwd, -e[0] / e[1]) if bwd != inf else -e[0] / e[1]
    return PairBound(pair=pair, forward=fwd, backward=bwd)


def relax(definition_or_cone: PrivacyDefinition | Cone, subsets: FamilyLike, *, method: str = "auto") -> Relaxation:
    """Relax a definition by projecting its row cone onto each subset of datasets and intersecting.

    Parameters
    ----------
    definition_or_cone : PrivacyDefinition or Cone
    subsets : family
        Anything :func:`subset_family` accepts (``"hamming"``, ``"all-pairs"``, ``"triples"``, a graph, a list).
    method : {"auto", "difference", "cone", "fourier_motzkin", "block", "generators"}
        ``"auto"``: the difference-constraint route when every subset is a pair and the pair bounds are known
        without double description (closed form or generators), else ``"cone"``. ``"difference"`` insists on it;
        ``"cone"`` projects by Fourier–Motzkin up to 8 datasets and block elimination beyond; the last three force
        one projection method (the route before the difference route; kept for cross-checks). All give the same cone.
        Each is a route of ``_RELAX_ROUTES``.

    Returns
    -------
    Relaxation
        The relaxed cone, the projections, the lost guarantees and, when it is one, the recognised ε-DP definition
        (its level in :attr:`Relaxation.level`).

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> r = relax(RandomizedResponse(2, "3/4"), "hamming")
    >>> r.recognised, r.level.exp_eps, str(r.level), len(r.lost)
    ('dp', Fraction(3, 1), 'ln(3)', 4)
    """
    route = _RELAX_ROUTES.get(method) if isinstance(method, str) else None
    if route is None:
        raise InvalidParameterError(f"unknown relaxation method {method!r}; choose one of {RELAX_METHODS}")
    known = orbit_relaxation(definition_or_cone, subsets, method)  # a definition known per orbit
    if known is not None:
        return known
    cone = as_cone(definition_or_cone)
    family = subset_family(relaxation_domain(definition_or_cone, cone.labels), subsets)
    return route(definition_or_cone, cone, family)


# ------------------------------------------------------------------------------------------------ routes of relax
def _route_auto(original: _DefinitionOrCone, cone: Cone, family: list[tuple[str, ...]]) -> Relaxation:
    """``method="auto"``: the difference-constraint route (:mod:`._difference_route`) when every subset is a pair and
    the pair bounds are known without double description (closed form or generators); else :func:`_route_cone`.

    Cost: pair bounds in one vectorised pass, shortest paths and one LP per symmetry orbit of the original facets;
    the fallback is double description (Lin & Kifer, Section V; ``docs/theory.md`` §6)."""
    from . import _difference_route  # read at call time: tests forbid the generic route by patching it

    fast = _difference_route.relax_by_differences(original, cone, family, required=False)
    if fast is not None:
        return fast
    return _relax_by_cones(cone, family, _cone_method(cone), "auto")


def _route_difference(original: _DefinitionOrCone, cone: Cone, family: list[tuple[str, ...]]) -> Relaxation:
    """``method="difference"``: the difference-constraint route only (pairs, pair bounds without double
    description); raises :class:`~privgeom.InvalidParameterError` naming the reason when it does not apply.
    Cost and source as :func:`_route_auto`."""
    from . import _difference_route

    out = _difference_route.relax_by_differences(original, cone, family, required=True)
    assert out is not None  # required=True: it answers or raises
    return out


def _route_cone(original: _DefinitionOrCone, cone: Cone, family: list[tuple[str, ...]]) -> Relaxation:
    """``method="cone"``: double description — Fourier–Motzkin up to :data:`FM_MAX_DATASETS` datasets, block
    elimination beyond (Lin & Kifer, Section V). Any subsets; cost limits :data:`MAX_FM_ELIMINATED`,
    :data:`MAX_BLOCK_WORK`, :data:`MAX_CONE_ROUTE_WORK` checked before projecting."""
    return _relax_by_cones(cone, family, _cone_method(cone), "cone")


def _route_fourier_motzkin(original: _DefinitionOrCone, cone: Cone, family: list[tuple[str, ...]]) -> Relaxation:
    """``method="fourier_motzkin"``: the double-description route projecting by Fourier–Motzkin elimination with
    redundancy LPs (:meth:`~privgeom.Cone.project`); at most :data:`MAX_FM_ELIMINATED` eliminated coordinates."""
    return _relax_by_cones(cone, family, "fourier_motzkin", "fourier_motzkin")


def _route_block(original: _DefinitionOrCone, cone: Cone, family: list[tuple[str, ...]]) -> Relaxation:
    """``method="block"``: the double-description route projecting by pycddlib's block elimination; work about
    facets² × eliminated coordinates, at most :data:`MAX_BLOCK_WORK`."""
    return _relax_by_cones(cone, family, "block", "block")


def _route_generators(original: _DefinitionOrCone, cone: Cone, family: list[tuple[str, ...]]) -> Relaxation:
    """``method="generators"``: the double-description route projecting the extreme rays (the projection of a cone
    is the cone of the projected generators), then one conversion back to facets per subset."""
    return _relax_by_cones(cone, family, "generators", "generators")


def _cone_method(cone: Cone) -> str:
    """The projection method of the ``"cone"`` route: Fourier–Motzkin up to :data:`FM_MAX_DATASETS` datasets."""
    return "fourier_motzkin" if cone.ambient_dim <= FM_MAX_DATASETS else "block"


#: The routes of :func:`relax` by ``method=`` name (module doc; each route's docstring says what it needs and costs).
_RELAX_ROUTES: dict[str, Callable[[_DefinitionOrCone, Cone, list[tuple[str, ...]]], Relaxation]] = {
    "auto": _route_auto,
    "difference": _route_difference,
    "cone": _route_cone,
    "fourier_motzkin": _route_fourier_motzkin,
    "block": _route_block,
    "generators": _route_generators,
}
#: The ``method=`` values of :func:`relax` (see the module doc).
RELAX_METHODS = tuple(_RELAX_ROUTES)


#: The ``"cone"`` route projects by Fourier–Motzkin up to this many datasets, by block elimination beyond (FM's
#: per-step redundancy LPs take about a minute on 16 datasets).
FM_MAX_DATASETS = 8


#: Cost limits of the double-description route, checked from the sizes before any projection (measured on 2 busy
#: cores: Fourier–Motzkin eliminating 14 coordinates of RR(4) runs for minutes, 6 take under a second; block
#: elimination grows like facets² × eliminated coordinates: 3.5 s for RR(4) (16² × 14), 29 s for RR(5) (32² × 30),
#: over 100 s for ε-DP on Q4 (64² × 14); canonicalising the relaxed cone and one Farkas LP per facet grow like
#: rows² × datasets, about 20 s at RR(5)'s 192 rows in R^32).
MAX_FM_ELIMINATED = 6
MAX_BLOCK_WORK = 40_000
MAX_CONE_ROUTE_WORK = 2_000_000
register_limit(
    "fm_eliminated",
    globals(),
    "MAX_FM_ELIMINATED",
    "most coordinates relax(method='fourier_motzkin') eliminates per subset",
)
register_limit(
    "block_work",
    globals(),
    "MAX_BLOCK_WORK",
    "largest estimated work facets^2 x eliminated coordinates of relax(method='block')",
)
register_limit(
    "cone_route_work",
    globals(),
    "MAX_CONE_ROUTE_WORK",
    "largest estimated work rows^2 x datasets of the double-description relaxation (canonicalisation "
    "and one LP per facet)",
)


def _other_route(family: list[tuple[str, ...]], requested: str) -> str:
    """The route to suggest instead of a refused double-description route: ``method='auto'`` (difference
    constraints) only when it was not what ran and every subset is a pair; else the reason it does not apply."""
    if any(len(s) != 2 for s in family):
        return "the difference-constraint route takes pairs only; "
    if requested in ("auto", "difference"):
        return ""
    auto = how_to("method='auto'", "--method auto")
    return f"use {auto} (difference constraints), or "


def _check_cone_route(n: int, n_facets: int, family: list[tuple[str, ...]], method: str, requested: str = "") -> None:
    """Refuse the double-description route at once when its estimated cost is out of reach (module constants).
    ``requested`` is the ``method=`` the caller asked for (a refusal never suggests the route that just ran)."""
    eliminated = n - min(len(s) for s in family)
    other = _other_route(family, requested or method)
    if method == "fourier_motzkin" and eliminated > current_limit("fm_eliminated"):
        raise SizeLimitError(
            f"relaxing by Fourier–Motzkin would eliminate {eliminated} of {n} coordinates per subset "
            f"(limit {current_limit('fm_eliminated')}); refused before projecting — {other}"
            f"{limit_hint('fm_eliminated', eliminated)}"
        )
    if method == "block" and n_facets * n_facets * eliminated > current_limit("block_work"):
        work = n_facets * n_facets * eliminated
        raise SizeLimitError(
            f"relaxing by block elimination would eliminate {eliminated} of {n} coordinates from "
            f"{n_facets} facets per subset (estimated work {n_facets}² × {eliminated} = {work:,}, "
            f"limit {current_limit('block_work'):,}); refused before projecting — {other}"
            f"{limit_hint('block_work', work)}"
        )
    rows = sum(2 if len(s) == 2 else len(s) for s in family) + n
    work = rows * rows * n
    if work > current_limit("cone_route_work"):
        raise SizeLimitError(
            f"the double-description relaxation of {n} datasets onto {len(family)} subsets would "
            f"canonicalise about {rows} inequalities in R^{n} and run one LP per facet (estimated work "
            f"{rows}² × {n} = {work:,}, limit {current_limit('cone_route_work'):,}); refused "
            "before projecting — "
            f"{other}{limit_hint('cone_route_work', work)}"
        )


def _relax_by_cones(cone: Cone, family: list[tuple[str, ...]], method: str, requested: str = "") -> Relaxation:
    """The double-description route: project with ``method``, lift, intersect, canonicalise (Section V)."""
    labels = cone.labels
    index = {s: i for i, s in enumerate(labels)}
    n = len(labels)
    if len(family) * n > current_limit("relax_family"):
        raise SizeLimitError(
            f"{len(family):,} subsets over {n:,} datasets make {len(family) * n:,} "
            f"subset-coordinates, more than the limit of {current_limit('relax_family'):,}; "
            "refused before lifting — "
            f"{limit_hint('relax_family', len(family) * n)}"
        )
    _check_cone_route(n, cone.n_facets if method == "block" else 0, family, method, requested)
    exact = cone.exact
    zero: Any = Fraction(0) if exact else 0.0
    lifted: list[list[Any]] = []
    lifted_eq: list[list[Any]] = []
    projections = []
    bounds = []
    for sub in family:
        proj = cone.project([index[s] for s in sub], method=method)
        projections.append(proj)
        for rows, target in ((proj.facets, lifted), (proj.equalities, lifted_eq)):
            for a in rows:
                v = [zero] * n
                for s, coef in zip(sub, a):
                    v[index[s]] = coef
                target.append(v)
        if len(sub) == 2:
            bounds.append(_pair_bound(proj, (sub[0], sub[1])))
    one: Any = Fraction(1) if exact else 1.0
    for i in range(n):  # the orthant: rows of mechanisms are non-negative
        v = [zero] * n
        v[i] = one
        lifted.append(v)
    relaxed = Cone.from_facets(lifted, lifted_eq or None, exact=exact, labels=labels)

    level: PrivacyLevel | None = None
    graph: nx.Graph | None = None
    recognition = _recognise_dp(relaxed, bounds, family, labels, exact)
    if recognition is not None:
        exp_eps, graph = recognition
        level = PrivacyLevel.from_exp_eps(exp_eps)
    lost = []
    for a in cone.facets:
        if not _implied(relaxed, a):
            lost.append(guarantee_from_normal(list(a), labels, exact=exact))
    kept = cone.n_facets - len(lost)
    if level is not None:
        noun = "pair" if len(family) == 1 else "pairs"
        n_edges = graph.number_of_edges() if graph is not None else 0
        on = (
            "their graph"
            if n_edges == len(family)
            else f"the graph of the {n_edges} pairs bounded by e^ε (the others are implied)"
        )
        text = (
            f"Projecting onto {len(family)} {noun} and intersecting gives exactly ε-differential privacy on {on} "
            f"with e^ε = {level.exp_eps} (ε = {level.eps}); {len(lost)} of {cone.n_facets} original guarantees "
            "are lost."
        )
    else:
        noun = "subset" if len(family) == 1 else "subsets"
        text = (
            f"Projecting onto {len(family)} {noun} gives a cone with {relaxed.n_facets} facets; "
            f"{len(lost)} of {cone.n_facets} original guarantees are lost; not recognised as ε-DP."
        )
    return Relaxation(
        cone=relaxed,
        subsets=tuple(family),
        projections=tuple(projections),
        pair_bounds=tuple(bounds),
        recognised="dp" if level is not None else "",
        level=level,
        graph_source=graph,
        lost=tuple(lost),
        kept=kept,
        method=method,
        text=text,
        n_facets=cone.n_facets,
    )


def _recognise_dp(
    relaxed: Cone, bounds: list[PairBound], family: list[tuple[str, ...]], labels: Sequence[str], exact: bool
) -> tuple[Scalar, nx.Graph] | None:
    """``(e^ε, graph)`` when ``relaxed`` is exactly the ε-DP row cone over the graph of the pairs whose ratio bound is the
    smallest one, ``e^ε``, in both directions (checked by cone equality); None otherwise.

    Float ratios are grouped within a relative ``atol`` of the cone (their mean is reported), since FM/DD round them
    (:func:`~._relax_results.tight_pairs`).
    """
    if not bounds or len(bounds) != len(family):
        return None
    # The candidate graph: the pairs bounded by the smallest ratio in both directions. Looser pairs (e.g. Hamming
    # distance 2 under randomized response, bounded by r^2) may be implied by paths of tight ones; the cone-equality
    # check below decides whether the relaxed cone is exactly ε-DP over the tight pairs.
    found = tight_pairs([b.forward for b in bounds], [b.backward for b in bounds], exact=exact, atol=relaxed.atol)
    if found is None:
        return None
    R, mask = found
    G = nx.Graph(name="pairs")
    G.add_nodes_from(labels)
    G.add_edges_from(b.pair for b, m in zip(bounds, mask) if m)
    from ...definitions import DifferentialPrivacy

    dp = DifferentialPrivacy(G, exp_eps=R)
    return (dp.level.exp_eps, G) if _same_cone(relaxed, dp.row_cone()) else None


#: Up to this dimension cones are compared through their extreme rays (double description); beyond, through their
#: facets only (one small LP per facet), since e.g. ε-DP on the 5-cube has 395,094 extreme rays.
RAYS_MAX_DIM = 16


def _same_cone(a: Cone, b: Cone) -> bool:
    """``a = b``: equal canonical H-representations, else rays (small cones) or facet implication (large ones)."""
    if a == b:
        return True
    if a.ambient_dim <= RAYS_MAX_DIM:
        return bool(a.equals(b).holds)
    return _h_subset(a, b) and _h_subset(b, a)


def _h_subset(a: Cone, b: Cone) -> bool:
    """``a ⊆ b`` from H-representations only: every facet of ``b`` (and ± every equality) is implied by ``a``."""
    normals = list(b.facets) + list(b.equalities) + [-e for e in b.equalities]
    return all(_implied_by_facets(a, n) for n in normals)


def _implied_by_facets(cone: Cone, normal: Sequence[Any]) -> bool:
    """Farkas: ``normal · x ≥ 0`` on the cone iff ``normal`` is a non-negative combination of its facets and ± its
    equalities — an LP over the H-representation (verified exactly in exact mode), no extreme rays needed."""
    from ...definitions._rows import cone_lp_membership

    eq = cone.equalities
    G = np.concatenate([cone.facets, eq, -eq]) if len(eq) else cone.facets
    a = np.array(list(normal), dtype=object if cone.exact else float)
    if len(G) == 0:
        return bool(all(v == 0 for v in a))
    return bool(
        cone_lp_membership(G, a, exact=cone.exact, labels=cone.labels, atol=cone.atol, what="relaxed cone dual").member
    )


def _implied(cone: Cone, normal: Sequence[Any]) -> bool:
    """Whether ``normal · x ≥ 0`` holds on all of ``cone`` (on its generators for small cones, exactly in exact
    mode; by Farkas on its facets beyond :data:`RAYS_MAX_DIM`)."""
    if cone.ambient_dim > RAYS_MAX_DIM:
        return _implied_by_facets(cone, normal)
    a = np.array(list(normal), dtype=object if cone.exact else float)
    for r in cone.rays:
        if (a * np.asarray(r)).sum() < (0 if cone.exact else -cone.atol):
            return False
    for line in cone.lineality:
        if (a * np.asarray(line)).sum() != 0 if cone.exact else abs(float((a * np.asarray(line)).sum())) > cone.atol:
            return False
    return True


def relax_pairwise(
    definition_or_cone: PrivacyDefinition | Cone, pairs: FamilyLike = "hamming", *, method: str = "auto"
) -> Relaxation:
    """Relax by projecting onto pairs of datasets (Lin & Kifer, Section V) and recognise ε-DP.

    ``pairs`` is a list of label pairs, a networkx graph, ``"hamming"`` (default), ``"all-pairs"`` or a neighbour
    relation of the datasets (``"replace-one"``, ``"add-remove"``, ``"path"``, ``"complete"``).

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> r = relax_pairwise(RandomizedResponse(3, "3/4"))
    >>> r.recognised, str(r.level), r.graph.number_of_edges()
    ('dp', 'ln(3)', 12)
    """
    known = orbit_relaxation(definition_or_cone, pairs, method)  # a definition known per orbit
    if known is not None:
        return known
    cone = as_cone(definition_or_cone)
    family = subset_family(relaxation_domain(definition_or_cone, cone.labels), pairs)
    bad = [s for s in family if len(s) != 2]
    if bad:
        raise InvalidParameterError(f"relax_pairwise takes pairs; got {bad[0]} (use relax() for larger subsets)")
    return relax(definition_or_cone, family, method=method)
