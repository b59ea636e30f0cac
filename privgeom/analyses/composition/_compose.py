"""``pg.compose``: one entry point composing mechanisms or privacy definitions.

Mechanisms run on the same datasets compose *sequentially* into a :class:`ComposedMechanism` kept factored (module
``_mechanism``); with ``independent=True`` they compose into the independent (Kronecker) product on product datasets,
:meth:`privgeom.Mechanism.product`. Privacy definitions compose into the consistent closure of the compositions of
their members (module ``_definitions``): a :class:`~privgeom.ConeDefinition` when its row cone decides it, else the
:class:`~privgeom.FiniteDefinition` of the composed generators.

Examples
--------
>>> import privgeom as pg
>>> C = pg.compose(pg.randomized_response(1, "3/4"), k=200)
>>> C.k, C.epsilon("hamming").level.exp_eps == 3**200
(200, True)
>>> D = pg.compose(pg.RandomizedResponse(1, "3/4"), pg.RandomizedResponse(1, "3/4"), independent=True)
>>> type(D).__name__, D.contains(pg.randomized_response(2, "3/4")).member
('ConeDefinition', True)
"""

from __future__ import annotations

from typing import Any

from ..._core.errors import InvalidParameterError, InvalidTypeError
from ..._core.numeric import parse_int
from ...definitions._base import PrivacyDefinition
from ...mechanisms._mechanism import Mechanism
from ._definitions import compose_definitions
from ._mechanism import ComposedMechanism

__all__ = ["compose"]


def compose(*items: Any, k: int | None = None, independent: bool = False) -> Any:
    """Compose mechanisms or privacy definitions.

    Parameters
    ----------
    *items : Mechanism, (Mechanism, int) or PrivacyDefinition
        All mechanisms, all ``(mechanism, count)`` pairs (each mechanism run ``count`` times), or all definitions.
    k : int, optional
        Run every item ``k`` times (mechanisms: ``compose(M, k=1000)`` is the 1000-fold composition; definitions:
        the ``k``-fold composition, folded pairwise).
    independent : bool
        Independent product on product datasets instead of sequential composition on the same datasets.

    Returns
    -------
    ComposedMechanism, Mechanism or PrivacyDefinition
        Sequential mechanisms: a :class:`ComposedMechanism` (``epsilon``, ``delta``, ``delta_curve``, ``loss``,
        ``dense``); independent mechanisms: the Kronecker product :class:`~privgeom.Mechanism`; definitions: a
        :class:`~privgeom.ConeDefinition` when the composed row cone decides the closure, else a
        :class:`~privgeom.FiniteDefinition` (see ``compose_definitions`` in ``privgeom.analyses.composition._definitions`` for
        the report with the cone and the witness).

    Raises
    ------
    InvalidTypeError
        Mixed or unknown items.
    DomainMismatchError
        Sequential composition of items on different datasets.

    Examples
    --------
    >>> import privgeom as pg
    >>> C = pg.compose(pg.randomized_response(1, "3/4"), k=3)
    >>> C.delta("hamming", exp_eps=3).delta, C.dense().shape
    (Fraction(3, 8), (8, 2))
    >>> H = pg.compose((pg.randomized_response(1, "3/4"), 2), (pg.randomized_response(1, "2/3"), 5))
    >>> H.k, H.epsilon("hamming").level.exp_eps == 3**2 * 2**5
    (7, True)
    """
    if not items:
        raise InvalidParameterError("compose needs at least one mechanism or definition")
    reps = 1 if k is None else parse_int(k, name="k", min=1)
    if all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], Mechanism) for x in items) and not independent:
        # (mechanism, count) pairs: a heterogeneous composition with its own count per mechanism
        return ComposedMechanism([(M, parse_int(n, name="count", min=1) * reps) for M, n in items])
    if all(isinstance(x, Mechanism) for x in items):
        if independent:
            seq = [M for M in items for _ in range(reps)]
            out = seq[0]
            for M in seq[1:]:
                out = out.product(M)
            return out
        return ComposedMechanism([(M, reps) for M in items])
    if all(isinstance(x, PrivacyDefinition) for x in items):
        seq = [D for D in items for _ in range(reps)]
        if len(seq) < 2:
            return seq[0]
        out = seq[0]
        for D in seq[1:]:
            out = compose_definitions(out, D, independent=independent).definition
        return out
    kinds = sorted({type(x).__name__ for x in items})
    raise InvalidTypeError(f"compose takes mechanisms or privacy definitions (all of one kind), got {', '.join(kinds)}")
