"""The results of :func:`~privgeom.analyses.relax`: :class:`Relaxation` and its :class:`PairBound` entries.

Both relaxation routes build them (the double-description route in :mod:`._relaxation`, the difference route in
:mod:`._difference_route`), so they live here, below both modules (no import cycle between the two routes).

Examples
--------
>>> from privgeom import RandomizedResponse, relax
>>> r = relax(RandomizedResponse(1, "3/4"), "hamming")
>>> isinstance(r, Relaxation), r.recognised, r.pair_bounds[0].forward, str(r.level)
(True, 'dp', Fraction(3, 1), 'ln(3)')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Sequence

import networkx as nx
import numpy as np

from ..._core.level import PrivacyLevel
from ..._core.arrays import ATOL
from ..._core.numbers import Scalar

if TYPE_CHECKING:
    import networkx as nx
from ..._core.results import Result, to_jsonable
from ...geometry._cone import Cone
from ._difference_system import ImpliedPair
from ._lost import FacetStatus
from ..guarantees._semantics import Guarantee

__all__ = ["PairBound", "Relaxation", "tight_pairs", "MAX_JSON_WITNESS", "MAX_JSON_CONE_ENTRIES"]

#: :meth:`Relaxation.to_dict` lists a lost guarantee's witness point only up to this many coordinates.
MAX_JSON_WITNESS = 4096
#: :meth:`Relaxation.to_dict` writes the relaxed cone's facets, the subsets, the graph, the bounds and the lost
#: guarantees only when ``ambient dimension × facets`` is at most this (a JSON document of a few megabytes).
MAX_JSON_CONE_ENTRIES = 2**16


def tight_pairs(
    forward: Sequence[Any] | np.ndarray, backward: Sequence[Any] | np.ndarray, *, exact: bool, atol: float = ATOL
) -> tuple[Scalar, np.ndarray] | None:
    """The ε-DP candidate of a pairwise relaxation: ``(e^ε, mask)`` where ``e^ε`` is the smallest finite ratio bound
    and ``mask`` marks the pairs bounded by it in both directions (their graph is the candidate neighbour graph);
    None when no bound is finite, the smallest is below 1, or no pair is tight both ways.

    Both relaxation routes decide recognition from this one rule (then each checks that the relaxed cone is exactly
    ε-DP over the graph: by cone equality, or by paths of the difference constraints). Float ratios are tight within
    a relative ``atol`` (Fourier–Motzkin, double description and float generators round them) and ``e^ε`` is then
    their mean; ``e^ε`` is at least 1.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> tight_pairs([F(3), F(9)], [F(3), F(9)], exact=True)
    (Fraction(3, 1), array([ True, False]))
    >>> tight_pairs([2.0, math.inf], [2.0 * (1 + 1e-12), 5.0], exact=False)[0] > 2.0
    True
    """
    finite = [r for r in [*forward, *backward] if r != math.inf]
    if not finite:
        return None
    R: Any = min(finite)
    if R < 1 - (0 if exact else atol):
        return None

    def tight(r: Any) -> bool:
        return bool(r == R) if exact else bool(r != math.inf and abs(float(r) - float(R)) <= atol * float(R))

    mask = np.array([tight(f) and tight(b) for f, b in zip(forward, backward)], dtype=bool)
    if not mask.any():
        return None
    if not exact:
        R = float(np.mean([float(v) for t in np.nonzero(mask)[0].tolist() for v in (forward[t], backward[t])]))
    if R < 1:
        R = Fraction(1) if exact else 1.0
    return R, mask


@dataclass(frozen=True)
class PairBound(Result):
    """The projection of a cone onto a pair ``(a, b)`` read as ratio bounds ``x_a ≤ forward · x_b`` and
    ``x_b ≤ backward · x_a`` (``math.inf`` when unbounded).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> b = PairBound(pair=("1", "0"), forward=F(3), backward=F(2))
    >>> str(b.level), PairBound(pair=("1", "0"), forward=F(3), backward=math.inf).level is None
    ('ln(3)', True)
    """

    pair: tuple[str, str]
    forward: Scalar
    backward: Scalar

    @property
    def level(self) -> PrivacyLevel | None:
        """The level at which the two datasets are indistinguishable: ``e^ε = max(forward, backward)``, the smallest
        ``e^ε`` with ``x_a ≤ e^ε x_b`` and ``x_b ≤ e^ε x_a`` on the projection (ε-DP restricted to this one edge,
        ``docs/theory.md`` §6); None when a direction is unbounded or the bound is below 1 (a coordinate forced to 0
        — never for a privacy definition, whose row cone contains the all-ones vector). Computed when read."""
        e = max(self.forward, self.backward)
        if e == math.inf or not e >= 1:
            return None
        return PrivacyLevel.from_exp_eps(e)

    def summary(self) -> str:
        return (
            f"x_{self.pair[0]} ≤ {self.forward} x_{self.pair[1]},  x_{self.pair[1]} ≤ {self.backward} x_{self.pair[0]}"
        )


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
    level : PrivacyLevel or None
        The level ε of the recognised ε-DP (``level.exp_eps`` a Fraction and ``level.eps`` a
        :class:`~privgeom.LogRational` in exact mode); None when not recognised.
    graph : networkx.Graph or None
        The neighbour graph of the pairs when recognised.
    lost : sequence of Guarantee
        Guarantees (facets) of the original cone that the relaxed cone no longer implies (built one by one on access
        on the difference route; ``len`` is free).
    kept : int
        Original facets still implied.
    method : str
        The projection method or ``"difference"``.
    text : str
        A one-paragraph description.
    route : str
        ``"difference"`` (ratio bounds, shortest paths, LPs per orbit) or ``"cone"`` (double description).
    implied : tuple of ImpliedPair or None
        Bounds of the family implied by a path of others, with the path (difference route; None when not computed).
    statuses : tuple of FacetStatus
        Difference route: one verified answer per symmetry orbit of original facets (witness point when lost,
        non-negative combination when implied).
    symmetry : str
        The symmetry group used for the orbits.
    n_facets : int
        Facets of the original cone.

    Examples
    --------
    >>> import privgeom as pg
    >>> r = pg.relax_pairwise(pg.RandomizedResponse(2, "3/4"), "hamming")
    >>> isinstance(r, pg.Relaxation), r.recognised, r.level.exp_eps
    (True, 'dp', Fraction(3, 1))
    """

    cone: Cone
    subsets: tuple[tuple[str, ...], ...] = field(repr=False)
    projections: Sequence[Cone] = field(repr=False)
    pair_bounds: tuple[PairBound, ...] = field(repr=False)
    recognised: str
    level: PrivacyLevel | None
    graph_source: "nx.Graph | Callable[[], nx.Graph] | None" = field(
        repr=False
    )  # the graph (or None), or a zero-argument callable building it when read
    lost: Sequence[Guarantee] = field(repr=False)
    kept: int
    method: str
    text: str
    route: str = "cone"
    implied: tuple[ImpliedPair, ...] | None = field(default=(), repr=False)
    statuses: tuple[FacetStatus, ...] = field(default=(), repr=False)
    symmetry: str = ""
    n_facets: int = 0

    @cached_property
    def graph(self) -> nx.Graph | None:
        """The neighbour graph of the pairs when recognised (built on first read when the relaxation was given a
        builder: the own-graph route of a path keeps no graph until asked)."""
        g = self.graph_source
        return g() if callable(g) else g

    def to_dict(self) -> dict[str, Any]:
        """Counts, the recognised definition, the bounds, implied pairs with paths and the lost guarantees by orbit
        (the relaxed cone's facets only when small)."""
        out: dict[str, Any] = {
            "route": self.route,
            "method": self.method,
            "recognised": self.recognised,
            "exp_eps": None if self.level is None else to_jsonable(self.level.exp_eps),
            "eps": None if self.level is None else to_jsonable(self.level.eps),
            "exact": self.exact,
            "text": self.text,
            "n_subsets": len(self.subsets),
            "n_facets": self.n_facets or self.kept + len(self.lost),
            "n_lost": len(self.lost),
            "kept": self.kept,
            "symmetry": self.symmetry,
            "graph_edges": None if self.graph is None else self.graph.number_of_edges(),
            "cone": {"n_facets": self.cone.n_facets, "dim": self.cone.dim, "ambient_dim": self.cone.ambient_dim},
            "implied": None if self.implied is None else [to_jsonable(p) for p in self.implied],
            "orbits": [
                {
                    "representative": st.index,
                    "size": st.size,
                    "lost": st.lost,
                    "witness": to_jsonable(st.witness)
                    if st.witness is not None and len(st.witness) <= MAX_JSON_WITNESS
                    else None,
                    "value": to_jsonable(st.value),
                }
                for st in self.statuses
            ],
        }
        small = self.cone.ambient_dim * max(1, self.cone.n_facets) <= MAX_JSON_CONE_ENTRIES
        if small:
            out["cone"] = self.cone.to_dict("H")
            out["subsets"] = [list(t) for t in self.subsets]
            out["graph"] = to_jsonable(self.graph)
            out["pair_bounds"] = [to_jsonable(b) for b in self.pair_bounds]
            out["lost"] = [to_jsonable(g) for g in self.lost]
        return out

    def summary(self) -> str:
        return self.text

    @property
    def exact(self) -> bool:
        """True when the relaxed cone is exact (Fractions, pycddlib's GMP backend)."""
        return bool(self.cone.exact)

    @property
    def definition(self) -> Any:
        """The relaxed definition, never None: the recognised :class:`~privgeom.DifferentialPrivacy` when the relaxed
        cone is ε-DP over the graph of the pairs, else the :class:`~privgeom.ConeDefinition` of the relaxed cone.

        The relaxed cone lives on all the datasets of the original definition (coordinates outside every subset are
        only bounded by ``x ≥ 0``), so the new definition has the same datasets; it contains every member of the
        original (a row of a member lies in the original cone, hence in every lifted projection) and its row cone is
        the relaxed cone (which contains ``1`` in its relative interior: ``docs/theory.md`` §13).

        Examples
        --------
        >>> from privgeom import RandomizedResponse, randomized_response, relax
        >>> r = relax(RandomizedResponse(2, "3/4"), [("11", "10", "01"), ("10", "01", "00")])
        >>> d = r.definition
        >>> type(d).__name__, d.contains(randomized_response(2, "3/4")).member, d.row_cone() == r.cone
        ('ConeDefinition', True, True)
        """
        cached = self.__dict__.get("_definition")
        if cached is not None:
            return cached
        if self.recognised == "dp" and self.graph is not None and self.level is not None:
            from ...definitions import DifferentialPrivacy

            out: Any = DifferentialPrivacy(self.graph, exp_eps=self.level.exp_eps, inputs=self.cone.labels)
        else:
            from ...definitions import ConeDefinition

            out = ConeDefinition(self.cone, name=f"relaxation onto {len(self.subsets)} subsets")
        object.__setattr__(self, "_definition", out)
        return out


@to_jsonable.register(Relaxation)
def _relaxation_json(obj: Relaxation) -> Any:
    return obj.to_dict()
