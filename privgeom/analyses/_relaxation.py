"""Relaxing a privacy definition by enlarging its row cone (Lin & Kifer, Section V).

Projecting the row cone onto a subset ``S`` of the datasets (Fourier–Motzkin elimination of the other coordinates,
or equivalently projecting the generators) keeps exactly the inequalities that involve only ``S``. Lifting each
projection back (other coordinates free), intersecting them and the non-negative orthant gives a larger cone: a
weaker definition whose mechanisms are those with every row in it.

For randomized response, the projection onto a pair ``(D, D')`` at Hamming distance ``h`` is
``x_D ≤ r^h x_D'`` and ``x_D' ≤ r^h x_D`` with ``r = p/(1-p)``; keeping the pairs at Hamming distance 1 yields
exactly ε-differential privacy on the Hamming graph with ``ε = ln(p/(1-p))`` (Section V).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Sequence

import networkx as nx
import numpy as np

from .._domain import Domain
from .._errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from .._numeric import LogRational, Scalar
from .._results import Result
from ..geometry._cone import Cone
from ._coerce import as_cone
from ._semantics import Guarantee, guarantee_from_normal

__all__ = ["PairBound", "Relaxation", "relax", "relax_pairwise", "subset_family", "FAMILIES"]

#: Named families of dataset subsets for :func:`subset_family`.
FAMILIES = ("hamming", "all-pairs", "triples")


@dataclass(frozen=True)
class PairBound(Result):
    """The projection of a cone onto a pair ``(a, b)`` read as ratio bounds ``x_a ≤ forward · x_b`` and
    ``x_b ≤ backward · x_a`` (``math.inf`` when unbounded)."""

    pair: tuple[str, str]
    forward: Scalar
    backward: Scalar

    def summary(self) -> str:
        return f"x_{self.pair[0]} ≤ {self.forward} x_{self.pair[1]},  x_{self.pair[1]} ≤ {self.backward} x_{self.pair[0]}"


@dataclass(frozen=True)
class Relaxation(Result):
    """A relaxed row cone and what it is.

    Attributes
    ----------
    cone : Cone
        The relaxed row cone: the non-negative orthant intersected with every lifted projection.
    subsets : tuple of tuple of str
        The dataset subsets projected onto.
    projections : tuple of Cone
        The projection onto each subset (in that subset's coordinates).
    pair_bounds : tuple of PairBound
        For two-element subsets, the ratio bounds read off the projection.
    recognised : str
        ``"dp"`` when the result is ε-DP over the graph of the pairs (every pair bounded by one ratio ``e^ε`` in both
        directions, and the relaxed cone equals that DP row cone, checked); ``""`` otherwise.
    exp_eps, epsilon :
        ``e^ε`` (Fraction in exact mode) and ``ε`` (:class:`~privgeom.LogRational` in exact mode) when recognised.
    graph : networkx.Graph or None
        The neighbour graph of the pairs when recognised.
    lost : tuple of Guarantee
        Guarantees (facets) of the original cone that the relaxed cone no longer implies.
    text : str
        A one-paragraph description.
    """

    cone: Cone
    subsets: tuple[tuple[str, ...], ...]
    projections: tuple[Cone, ...] = field(repr=False)
    pair_bounds: tuple[PairBound, ...]
    recognised: str
    exp_eps: Scalar | None
    epsilon: LogRational | float | None
    graph: nx.Graph | None = field(repr=False)
    lost: tuple[Guarantee, ...]
    kept: int
    method: str
    text: str

    def summary(self) -> str:
        return self.text

    @property
    def definition(self) -> Any:
        """The recognised :class:`~privgeom.DifferentialPrivacy` definition (None when not recognised)."""
        if self.recognised != "dp" or self.graph is None:
            return None
        from ..definitions import DifferentialPrivacy

        return DifferentialPrivacy(self.graph, exp_eps=self.exp_eps)


def subset_family(labels: Sequence[str], family: str | Iterable[Iterable[str]] | nx.Graph) -> list[tuple[str, ...]]:
    """Expand a family of dataset subsets.

    Parameters
    ----------
    labels : sequence of str
        Dataset labels.
    family : str, graph or iterable of subsets
        ``"hamming"`` (pairs at Hamming distance 1; bit-string labels), ``"all-pairs"``, ``"triples"``,
        a networkx graph (its edges), or an explicit list of subsets.

    Examples
    --------
    >>> subset_family(["11", "10", "01", "00"], "hamming")
    [('11', '10'), ('11', '01'), ('10', '00'), ('01', '00')]
    >>> len(subset_family(["a", "b", "c"], "all-pairs")), subset_family(["a", "b", "c"], "triples")
    (3, [('a', 'b', 'c')])
    """
    labels = [str(s) for s in labels]
    known = set(labels)
    if isinstance(family, str):
        if family == "hamming":
            if not labels or not Domain.from_labels(labels).is_bits:
                raise DomainMismatchError(f"the 'hamming' family needs bit-string datasets, got {labels[:6]}")
            return [(a, b) for a, b in itertools.combinations(labels, 2) if sum(x != y for x, y in zip(a, b)) == 1]
        if family == "all-pairs":
            return list(itertools.combinations(labels, 2))
        if family == "triples":
            return list(itertools.combinations(labels, 3))
        raise InvalidParameterError(f"unknown subset family {family!r}; use one of {FAMILIES} or a list of subsets")
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
    return PairBound(pair, fwd, bwd)


def relax(definition_or_cone: Any, subsets: Any, *, method: str = "fourier_motzkin") -> Relaxation:
    """Relax a definition by projecting its row cone onto each subset of datasets and intersecting.

    Parameters
    ----------
    definition_or_cone : PrivacyDefinition or Cone
    subsets : family
        Anything :func:`subset_family` accepts (``"hamming"``, ``"all-pairs"``, ``"triples"``, a graph, a list).
    method : {"fourier_motzkin", "block", "generators"}
        How each projection is computed (all three give the same cone).

    Returns
    -------
    Relaxation
        The relaxed cone, the projections, the lost guarantees and, when it is one, the recognised ε-DP definition.

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> r = relax(RandomizedResponse(2, "3/4"), "hamming")
    >>> r.recognised, r.exp_eps, str(r.epsilon), len(r.lost)
    ('dp', Fraction(3, 1), 'ln(3)', 4)
    """
    cone = as_cone(definition_or_cone)
    labels = cone.labels
    family = subset_family(labels, subsets)
    index = {s: i for i, s in enumerate(labels)}
    n = len(labels)
    if len(family) * n > 10**7:
        raise SizeLimitError(f"{len(family)} subsets over {n} datasets is more than privgeom relaxes at once")
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

    recognised, exp_eps, eps, graph = "", None, None, None
    recognition = _recognise_dp(relaxed, bounds, family, labels, exact)
    if recognition is not None:
        recognised = "dp"
        exp_eps, graph = recognition
        eps = LogRational(exp_eps) if isinstance(exp_eps, Fraction) else math.log(float(exp_eps))
    lost = []
    for a in cone.facets:
        if not _implied(relaxed, a):
            lost.append(guarantee_from_normal(list(a), labels, exact=exact))
    kept = cone.n_facets - len(lost)
    if recognised:
        noun = "pair" if len(family) == 1 else "pairs"
        n_edges = graph.number_of_edges() if graph is not None else 0
        on = "their graph" if n_edges == len(family) else f"the graph of the {n_edges} pairs bounded by e^ε (the others are implied)"
        text = (f"Projecting onto {len(family)} {noun} and intersecting gives exactly ε-differential privacy on {on} "
                f"with e^ε = {exp_eps} (ε = {eps}); {len(lost)} of {cone.n_facets} original guarantees are lost.")
    else:
        noun = "subset" if len(family) == 1 else "subsets"
        text = (f"Projecting onto {len(family)} {noun} gives a cone with {relaxed.n_facets} facets; "
                f"{len(lost)} of {cone.n_facets} original guarantees are lost; not recognised as ε-DP.")
    return Relaxation(relaxed, tuple(family), tuple(projections), tuple(bounds), recognised, exp_eps, eps, graph,
                      tuple(lost), kept, method, text)


def _recognise_dp(relaxed: Cone, bounds: list[PairBound], family: list[tuple[str, ...]], labels: Sequence[str],
                  exact: bool) -> tuple[Scalar, nx.Graph] | None:
    """``(e^ε, graph)`` when ``relaxed`` is exactly the ε-DP row cone over the graph of the pairs whose ratio bound is the
    smallest one, ``e^ε``, in both directions (checked by cone equality); None otherwise.

    Float ratios are grouped within a relative ``1e-9`` (their mean is reported), since FM/DD round them.
    """
    if not bounds or len(bounds) != len(family):
        return None
    finite = [r for b in bounds for r in (b.forward, b.backward) if r != math.inf]
    if not finite:
        return None
    R: Any = min(finite)
    if R < 1 - (0 if exact else 1e-9):
        return None

    def tight(r: Any) -> bool:
        return bool(r == R) if exact else bool(r != math.inf and abs(float(r) - float(R)) <= 1e-9 * float(R))

    # The candidate graph: the pairs bounded by the smallest ratio in both directions. Looser pairs (e.g. Hamming
    # distance 2 under randomized response, bounded by r^2) may be implied by paths of tight ones; the cone-equality
    # check below decides whether the relaxed cone is exactly ε-DP over the tight pairs.
    edges = [b for b in bounds if tight(b.forward) and tight(b.backward)]
    if not edges:
        return None
    if not exact:
        R = float(np.mean([float(r) for b in edges for r in (b.forward, b.backward)]))
    G = nx.Graph(name="pairs")
    G.add_nodes_from(labels)
    G.add_edges_from(b.pair for b in edges)
    from ..definitions import DifferentialPrivacy

    dp = DifferentialPrivacy(G, exp_eps=max(R, 1) if exact else max(float(R), 1.0))
    return (dp.exp_eps, G) if _same_cone(relaxed, dp.row_cone()) else None


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
    from ..definitions._rows import cone_lp_membership

    eq = cone.equalities
    G = np.concatenate([cone.facets, eq, -eq]) if len(eq) else cone.facets
    a = np.array(list(normal), dtype=object if cone.exact else float)
    if len(G) == 0:
        return bool(all(v == 0 for v in a))
    return bool(cone_lp_membership(G, a, exact=cone.exact, labels=cone.labels, atol=cone.atol,
                                   what="relaxed cone dual").member)


def _implied(cone: Cone, normal: Sequence[Any]) -> bool:
    """Whether ``normal · x ≥ 0`` holds on all of ``cone`` (on its generators for small cones, exactly in exact
    mode; by Farkas on its facets beyond :data:`RAYS_MAX_DIM`)."""
    if cone.ambient_dim > RAYS_MAX_DIM:
        return _implied_by_facets(cone, normal)
    a = np.array(list(normal), dtype=object if cone.exact else float)
    for r in cone.rays:
        if (a * np.asarray(r)).sum() < (0 if cone.exact else -1e-9):
            return False
    for line in cone.lineality:
        if (a * np.asarray(line)).sum() != 0 if cone.exact else abs(float((a * np.asarray(line)).sum())) > 1e-9:
            return False
    return True


def relax_pairwise(definition_or_cone: Any, pairs: Any = "hamming", *, method: str = "fourier_motzkin") -> Relaxation:
    """Relax by projecting onto pairs of datasets (Lin & Kifer, Section V) and recognise ε-DP.

    ``pairs`` is a list of label pairs, a networkx graph, ``"hamming"`` (default) or ``"all-pairs"``.

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> r = relax_pairwise(RandomizedResponse(3, "3/4"))
    >>> r.recognised, str(r.epsilon), r.graph.number_of_edges()
    ('dp', 'ln(3)', 12)
    """
    cone = as_cone(definition_or_cone)
    family = subset_family(cone.labels, pairs)
    bad = [s for s in family if len(s) != 2]
    if bad:
        raise InvalidParameterError(f"relax_pairwise takes pairs; got {bad[0]} (use relax() for larger subsets)")
    return relax(cone, family, method=method)
