"""The composition query of :func:`privgeom.sweep`: ``composed_delta``, δ(ε) of the point's mechanism run ``k``
times, so that ``k`` is a grid axis (``--grid k=1,10,100 --query composed_delta --k {k} --exp-eps 3``).

Registered with :func:`~privgeom.sweeps._queries.register_query` when :mod:`privgeom.sweeps` is imported.

Examples
--------
>>> import privgeom as pg
>>> frame = pg.sweep("rr:k=1,p=3/4", {"k": [1, 3]}, "composed_delta", k="{k}", exp_eps=3, scheduler="serial")
>>> frame["delta_exact"].tolist()
['0', '3/8']
"""

from __future__ import annotations

from typing import Any, Mapping

from .._core.level import PrivacyLevel
from .._core.arrays import parse_int
from ..analyses.composition._mechanism import ComposedMechanism
from ._queries import as_mechanism, exact_fields, register_query

__all__: list[str] = []


def _composed_delta(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """δ(ε) of the point's mechanism composed ``k`` times (option ``k``, default 1) at option ``eps`` or ``exp_eps``
    over option ``graph`` (default: the inputs' default relation): exact privacy-loss atoms, or the certified bracket
    beyond their size (:meth:`~privgeom.analyses.composition._mechanism.ComposedMechanism.delta`).

    Fields: ``delta``/``delta_exact``, ``lo``, ``hi`` (the bracket; equal to δ when exact), ``route``,
    ``exp_eps``/``exp_eps_exact``.
    """
    M = as_mechanism(obj)
    k = parse_int(options.get("k", 1), name="k", min=1, allow_str=True)
    level = PrivacyLevel.parse(
        eps=options.get("eps"), exp_eps=options.get("exp_eps"), name="eps", owner="composed_delta"
    )
    graph = options.get("graph") or M.domain.default_relation
    r = ComposedMechanism([(M, k)]).delta(graph, level)
    exact_value = r.exact and not isinstance(r.delta, float)
    return {
        **exact_fields("delta", r.delta if exact_value else float(r.delta)),
        "lo": float(r.lo),
        "hi": float(r.hi),
        "route": r.route,
        **exact_fields("exp_eps", r.level.exp_eps if r.level.exact else float(r.level.exp_eps)),
    }


register_query("composed_delta", _composed_delta, needs="mechanism", options=("k", "eps", "exp_eps", "graph"))
