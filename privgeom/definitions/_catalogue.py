"""Catalogue definitions: closed-form facets of well-known mechanisms, extreme rays of ε-DP cones, spec kinds.

This module adds to the definition registry the spec kinds ``geometric``, ``frapp``, ``krr``, ``adp`` and
``pufferfish`` (see :func:`register_catalogue`), builds the finite definitions of three classical mechanisms with
their row cones in closed form, and re-exports the extreme-ray enumeration of ε-DP cones (:mod:`._dp_rays`).

Spec strings
------------
``geometric:n=4,alpha=1/2``
    The truncated geometric mechanism on ``{0..n}`` (Ghosh, Roughgarden & Sundararajan, STOC 2009).
``frapp:N=3,gamma=4,k=1``
    FRAPP / PRAM with γ-amplification, ``N`` values per record, ``k`` records (Agrawal & Haritsa, ICDE 2005).
``krr:n=4,exp_eps=3`` or ``krr:n=4,p=1/2``
    k-ary randomized response on ``n`` values (Kairouz, Oh & Viswanath, JMLR 2016).
``adp:graph=hamming,k=2,eps=1,delta=1/10`` (also ``exp_eps=``; ``graph=path,n=…``, ``graph=complete,n=…``)
    (ε, δ)-DP, :class:`~privgeom.definitions.ApproximateDP`.
``pufferfish:file=spec.json`` (or ``pufferfish:data=<base64>``)
    :class:`~privgeom.definitions.Pufferfish`; JSON format in :mod:`privgeom.definitions._pufferfish`.

The closed-form definitions live by family: :mod:`._closed_form` (their base, :class:`ClosedFormDefinition`),
:mod:`._geometric` (the truncated geometric mechanism) and :mod:`._frapp` (FRAPP and k-ary randomized response),
each with its proofs; they are re-exported here.

Notes
-----
**Extreme rays and facets of ε-DP cones** are enumerated and proved in :mod:`privgeom.definitions._dp_rays`
(re-exported here).

Examples
--------
>>> parse_definition("geometric:n=2,alpha=1/2").row_cone().n_facets
3
>>> from privgeom.graphs._graphs import complete_graph
>>> len(dp_ray_patterns(complete_graph(4)))
14
"""

from __future__ import annotations

from typing import Any

from .._core.errors import FormatError
from ._base import PrivacyDefinition
from ._closed_form import ClosedFormDefinition
from ._dp_rays import (
    dp_cone_rays,
    dp_ray_count_lower_bound,
    dp_ray_patterns,
    hypercube_dp_ray_count,
)
from ._frapp import FrappDefinition, KaryRRDefinition, frapp_facets, frapp_generators, frapp_inverse, krr_gamma
from ._geometric import GeometricDefinition, geometric_facets, geometric_inverse
from ._registry import (
    definition_kinds,
    parse_definition,
    register_definition_kind,
    spec_bool,
    spec_int,
    spec_required,
)

__all__ = [
    "ClosedFormDefinition",
    "GeometricDefinition",
    "FrappDefinition",
    "KaryRRDefinition",
    "register_catalogue",
    "CATALOGUE_KINDS",
    "geometric_inverse",
    "geometric_facets",
    "frapp_facets",
    "frapp_inverse",
    "krr_gamma",
    "frapp_generators",
    "dp_ray_patterns",
    "dp_cone_rays",
    "dp_ray_count_lower_bound",
    "hypercube_dp_ray_count",
]


# --------------------------------------------------------------------------------------------------- spec kinds
def _geometric_spec(params: dict[str, str]) -> PrivacyDefinition:
    n = spec_int(params, "n", "geometric")
    alpha = spec_required(params, "alpha", "geometric")
    return GeometricDefinition(n, alpha, exact=spec_bool(params, "exact", "geometric"))


def _frapp_spec(params: dict[str, str]) -> PrivacyDefinition:
    N = spec_int(params, "N", "frapp")
    gamma = spec_required(params, "gamma", "frapp")
    k = spec_int(params, "k", "frapp") if "k" in params else 1
    return FrappDefinition(N, gamma, k, exact=spec_bool(params, "exact", "frapp"))


def _krr_spec(params: dict[str, str]) -> PrivacyDefinition:
    from ._dp import dp_level

    n = spec_int(params, "n", "krr", minimum=2)  # KaryRRDefinition's own check would name its n_values
    exact = spec_bool(params, "exact", "krr")
    given = {k: params.pop(k) for k in ("exp_eps", "eps", "p") if k in params}
    if len(given) != 1:
        raise FormatError(f"krr needs exactly one of exp_eps=, eps=, p=; got {sorted(given) or 'none'}")
    if "eps" in given:
        ratio = dp_level(eps=given["eps"], exact=exact, owner="krr").exp_eps
        return KaryRRDefinition(n, exp_eps=ratio, exact=exact)
    return KaryRRDefinition(n, exp_eps=given.get("exp_eps"), p=given.get("p"), exact=exact)


def _adp_spec(params: dict[str, str]) -> PrivacyDefinition:
    from ._approx_dp import ApproximateDP
    from ._dp import DifferentialPrivacy

    delta = spec_required(params, "delta", "adp")
    exact = params.get("exact")
    rest = ",".join(f"{k}={params.pop(k)}" for k in list(params))
    dp = parse_definition("dp:" + rest)
    if not isinstance(dp, DifferentialPrivacy):  # pragma: no cover - the dp kind always returns it
        raise FormatError("adp: the dp part of the spec did not give an ε-DP definition")
    return ApproximateDP(
        dp, delta=delta, exact=False if exact is not None and exact.lower() in ("false", "0", "no") else None
    )


def _pufferfish_spec(params: dict[str, str]) -> PrivacyDefinition:
    from ._pufferfish import Pufferfish

    path = params.pop("file", None)
    data = params.pop("data", None)
    if (path is None) == (data is None):
        raise FormatError("pufferfish needs exactly one of file=<spec.json> and data=<base64 JSON>")
    if path is not None:
        return Pufferfish.load(path)
    assert data is not None
    return Pufferfish.from_data_string(data)


#: The spec kinds this module registers, with their factories.
CATALOGUE_KINDS: dict[str, Any] = {
    "geometric": _geometric_spec,
    "frapp": _frapp_spec,
    "krr": _krr_spec,
    "adp": _adp_spec,
    "pufferfish": _pufferfish_spec,
}


def register_catalogue() -> None:
    """Register the spec kinds ``geometric``, ``frapp``, ``krr``, ``adp``, ``pufferfish`` (idempotent).

    Examples
    --------
    >>> register_catalogue()
    >>> parse_definition("krr:n=3,exp_eps=2").name
    '3-ary randomized response (exp_eps=2)'
    >>> parse_definition("adp:graph=hamming,k=2,eps=1,delta=1/10").exact
    False
    """
    known = set(definition_kinds())
    for name, factory in CATALOGUE_KINDS.items():
        if name not in known:
            register_definition_kind(name, factory)


register_catalogue()
