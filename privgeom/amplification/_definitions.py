"""Shuffled and subsampled *definitions*: the consistent closure of the amplified generators, and what it protects.

A privacy definition given by generating mechanisms ``{G_1, …}`` becomes, after shuffling over ``n`` users or after
subsampling, the finite definition ``{shuffled(G_i, n)}`` (resp. ``{subsampled(G_i, …)}``) and its consistent closure
(Lin & Kifer, Definition 3.3, Theorem 3.4; ``docs/theory.md`` §18.4). At small ``n`` its row cone, the Bayesian
semantics of the facets (Lin & Kifer, Section III-C) and the DP sandwich (``docs/theory.md`` §13: the ε-DP levels just
inside and just outside the closure, over the neighbour relation of the model) say what an attacker still learns from
the tally, and between which DP levels the amplified definition sits — compared with the local level ``ε₀``.

Examples
--------
>>> import privgeom as pg
>>> r = amplification_report(pg.shuffled(pg.randomized_response(1, "3/4"), 4))
>>> str(r.sandwich.inner.exp_eps), str(r.sandwich.outer.exp_eps), str(r.local_level.exp_eps)
('17/15', '3', '3')
>>> r.n_facets, r.n_guarantees
(5, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._core.level import PrivacyLevel
from .._core.results import Result
from ..analyses.design._dp_bounds import DPBounds, dp_bounds
from ..analyses.guarantees._semantics import semantics
from ..analyses.guarantees._summary import describe_row_cone
from ..analyses.profiles._profile import epsilon
from ..definitions import FiniteDefinition
from ..mechanisms import Mechanism
from ._shuffle import Shuffled

__all__ = ["AmplificationReport", "amplification_report", "amplified_definition"]


def amplified_definition(model: Shuffled | Mechanism) -> FiniteDefinition:
    """The finite definition made of the amplified generator: the dense shuffled matrix, or a subsampled mechanism."""
    return FiniteDefinition([model.mechanism() if isinstance(model, Shuffled) else model])


@dataclass(frozen=True)
class AmplificationReport(Result):
    """Row cone, semantics and DP sandwich of an amplified definition, next to the local level.

    Attributes
    ----------
    name : str
        What was amplified.
    row_cone : str
        The row-cone summary (facets by symmetry orbit).
    guarantees : tuple of str
        One Bayesian guarantee per facet (what an attacker still cannot learn from the output).
    sandwich : DPBounds
        The ε-DP levels just inside and just outside the closure over the model's neighbour relation.
    local_level : PrivacyLevel or None
        The pure ``ε₀`` of the local mechanism (shuffle model) or of the mechanism before subsampling.
    """

    name: str
    row_cone: str
    n_facets: int
    guarantees: tuple[str, ...]
    sandwich: DPBounds
    local_level: PrivacyLevel | None
    exact: bool
    definition: FiniteDefinition = field(repr=False, compare=False)

    @property
    def n_guarantees(self) -> int:
        return len(self.guarantees)

    def summary(self) -> str:
        lines = [
            f"definition: {self.name}",
            f"  {self.row_cone}".replace("\n", "\n  "),
            f"  {self.n_guarantees} guarantees (one per facet):",
        ]
        lines += [f"  - {g}" for g in self.guarantees]
        lines.append("  " + str(self.sandwich).replace("\n", "\n  "))
        if self.local_level is not None:
            lines.append(
                f"  local level: ε0 = {self.local_level.eps} (e^ε0 = {self.local_level.exp_eps}); the amplified "
                f"definition contains ε-DP at e^ε = {self.sandwich.inner.exp_eps} and is contained in ε-DP at "
                f"e^ε = {self.sandwich.outer.exp_eps}"
            )
        return "\n".join(lines)


def amplification_report(
    model: Shuffled | Mechanism, graph: Any = None, *, local: Mechanism | None = None, local_graph: Any = "complete"
) -> AmplificationReport:
    """What the amplified definition protects: its row cone, semantics and DP sandwich (small sizes only).

    Parameters
    ----------
    model : Shuffled or Mechanism
        A shuffled model (its dense matrix is built; the relation is ``replace-one`` on input histograms) or a
        subsampled mechanism (give ``graph``: ``"add-remove"`` or ``"replace-one"``).
    graph : relation, optional
        The neighbour relation (default: the shuffle model's).
    local : Mechanism, optional
        The mechanism before amplification, whose pure ε is reported (default: the shuffled model's local mechanism).
    local_graph : relation
        The relation of ``local``'s pure ε (default ``complete``: local DP).
    """
    D = amplified_definition(model)
    if isinstance(model, Shuffled):
        G = model.relation() if graph is None else graph
        local = model.local if local is None else local
        name = f"shuffled tally of {model.n} users ({model.local.n_inputs} inputs, {model.local.n_outputs} reports)"
    else:
        G = graph if graph is not None else model.domain.default_relation
        if isinstance(G, str):  # the finite definition keeps the labels only: resolve the relation on the domain
            G = model.domain.relation(G)
        name = f"subsampled mechanism ({model.n_inputs} datasets)"
    summary = describe_row_cone(D)
    guarantees = tuple(str(g) for g in semantics(D))
    local_level = epsilon(local, local_graph).level if local is not None else None
    return AmplificationReport(
        name=name,
        row_cone=str(summary),
        n_facets=summary.n_facets if hasattr(summary, "n_facets") else len(guarantees),
        guarantees=guarantees,
        sandwich=dp_bounds(D, G),
        local_level=local_level,
        exact=D.exact,
        definition=D,
    )
