"""Optimal mechanisms under (ε, δ)-DP with ``δ > 0``: an LP with hockey-stick auxiliary variables.

The row cone of (ε, δ)-DP with ``δ > 0`` is the whole orthant (Lin & Kifer, §III-D.2), so neither the rows LP nor
the closure LP of :mod:`privgeom.analyses._optimal` applies; (ε, δ)-DP is its own closure and its membership is the
hockey-stick condition on every directed edge (Balle, Barthe & Gaboardi, NeurIPS 2018, Def. 2 and Thm. 1), which is
linear once each positive part gets an auxiliary variable. This module registers that LP with
:func:`special_lp` (used by :func:`~privgeom.analyses.optimal_mechanism`) for :class:`~privgeom.definitions.ApproximateDP`.

Examples
--------
Guessing one of three values (uniform prior) under (ε, δ)-DP on ``K_3`` with ``e^ε = 2``, ``δ = 1/10``: the
symmetric mechanism with diagonal ``p`` has hockey-stick value ``p − 2 (1 − p)/2 = 2p − 1``, so ``p = 11/20``
(pure DP gives ``e^ε / (e^ε + 2) = 1/2``).

>>> from privgeom.definitions import ApproximateDP
>>> from privgeom.graphs import complete_graph
>>> from privgeom.analyses import optimal_mechanism
>>> opt = optimal_mechanism(ApproximateDP(complete_graph(3), exp_eps=2, delta="1/10"), "accuracy")
>>> opt.value, opt.formulation, opt.certificate.exact, opt.membership.member
(Fraction(11, 20), 'hockey-stick', True, True)
"""

from __future__ import annotations

from fractions import Fraction
from functools import singledispatch
from typing import Any, Callable

import numpy as np

from .._errors import SizeLimitError
from ..definitions import ApproximateDP
from ..geometry._lp import rationalize
from ..mechanisms import Mechanism
from ._optimal import _LP, OptimalMechanism, _finish

__all__ = ["MAX_ADP_OPTIMAL_VARIABLES", "special_lp"]


@singledispatch
def special_lp(definition: Any) -> Callable[..., OptimalMechanism] | None:
    """The dedicated LP of a definition that is neither finite nor row-wise (a registry by type); None if none."""
    return None


#: Largest number of LP variables (outputs × (datasets + directed edges)) of the (ε, δ)-DP optimal-mechanism LP.
MAX_ADP_OPTIMAL_VARIABLES = 200_000


def _adp_lp(definition: Any, C: np.ndarray, outputs: tuple[str, ...], exact: bool) -> OptimalMechanism:
    """Optimal mechanism under (ε, δ)-DP with hockey-stick auxiliary variables (δ > 0; its row cone is useless).

    Variables ``M[ω, D] ≥ 0`` (columns sum to 1), ``t[e, ω] ≥ 0`` per directed edge ``e = (i, j)`` and output, and
    ``τ = 1``: ``M[ω, i] − r M[ω, j] − t[e, ω] ≤ 0`` and ``Σ_ω t[e, ω] − δ τ ≤ 0`` — exactly the hockey-stick
    condition ``Σ_ω (M[ω, i] − r M[ω, j])₊ ≤ δ`` (Balle, Barthe & Gaboardi 2018, Thm. 1). The outputs are the
    utility's columns: (ε, δ)-DP is closed under post-processing, and following any member by its Bayes decision
    rule onto these outputs loses no utility. **Certificate** (Lagrangian duality): for every ``z ≥ 0`` (one weight
    per directed edge and output) and every member ``M``,
    ``⟨C, M⟩ ≤ Σ_D max_ω G[ω, D] + δ Σ_e max_ω z[e, ω]`` with ``G = C − Σ_e z[e, :] ⊗ (e_i − r e_j)``, because
    ``Σ_ω z[e, ω] (M[ω, i] − r M[ω, j]) ≤ max_ω z[e, ω] · Σ_ω (M[ω, i] − r M[ω, j])₊ ≤ δ max_ω z[e, ω]``.
    privgeom rationalises HiGHS's duals into ``z`` and checks that this bound equals the value of the returned
    (exactly re-verified) mechanism.
    """
    from ..graphs import edge_index_pairs

    m, N = C.shape
    pairs = edge_index_pairs(definition.graph, definition.inputs)
    directed = [(i, j) for i, j in pairs] + [(j, i) for i, j in pairs]
    E = len(directed)
    n_vars = m * N + m * E + 1
    if n_vars > MAX_ADP_OPTIMAL_VARIABLES:
        raise SizeLimitError(f"optimal_mechanism: the (ε, δ)-DP LP for {definition.spec()} would have {n_vars:,} "
                             f"variables (limit MAX_ADP_OPTIMAL_VARIABLES = {MAX_ADP_OPTIMAL_VARIABLES:,})")
    exact = exact and bool(definition.exact)
    one: Any = Fraction(1) if exact else 1.0
    r: Any = definition.exp_eps if exact else float(definition.exp_eps)
    dl: Any = definition.delta if exact else float(definition.delta)
    mi = lambda w, d: w * N + d  # noqa: E731
    ti = lambda e, w: m * N + e * m + w  # noqa: E731
    tau = m * N + m * E
    ub: list[dict[int, Any]] = []
    for e, (i, j) in enumerate(directed):
        for w in range(m):
            ub.append({mi(w, i): one, mi(w, j): -r, ti(e, w): -one})
    for e in range(E):
        ub.append({**{ti(e, w): one for w in range(m)}, tau: -dl})
    eq: list[dict[int, Any]] = [{mi(w, d): one for w in range(m)} for d in range(N)] + [{tau: one}]
    c: list[Any] = [C[w, d] for w in range(m) for d in range(N)] + [0] * (m * E + 1)
    lp = _LP(n_vars, c, eq, [1] * (N + 1), ub, exact, f"optimal mechanism for {definition.spec()}")
    res = lp.solve()
    Cx = C if exact else np.asarray(C, dtype=float)

    def bound_of(z: np.ndarray) -> tuple[Any, list[Any]]:
        G = np.array(Cx, dtype=object if exact else float)
        zz = z.reshape(E, m) if E else np.zeros((0, m))
        for e, (i, j) in enumerate(directed):
            G[:, i] = G[:, i] - zz[e]
            G[:, j] = G[:, j] + r * zz[e]
        y = [max(G[:, d]) for d in range(N)]
        slack = sum((max(zz[e]) for e in range(E)), Fraction(0) if exact else 0.0)
        return sum(y) + dl * slack, y

    raw = np.asarray(res.ub_duals if res.ub_duals is not None else np.zeros(len(ub)))[: m * E]
    cands = []
    for sz in (1, -1):
        zf = np.clip(-sz * raw, 0, None)
        zs = [rationalize(zf, d) for d in (1000, 10**6, 10**9, None)] if exact else [zf]
        cands += [(*bound_of(zc), zc) for zc in zs]
    bound, y, z = min(cands, key=lambda q: q[0])
    x = np.clip(np.asarray(res.x), 0, None)
    detail = (f"(ε, δ)-DP LP with hockey-stick auxiliary variables ({m * E} t's); bound "
              f"Σ_D max_ω G[ω, D] + δ Σ_e max_ω z[e, ω] from HiGHS's {'rationalised ' if exact else ''}duals")
    if exact:
        xs = lp.exact_primal(x)
        if xs is not None and lp.value(xs) == bound:
            M = Mechanism([xs[k * N:(k + 1) * N] for k in range(m)], definition.inputs, outputs, exact=True)
            return _finish(definition, M, C, bound, True, "hockey-stick", {"z": z, "y": y}, detail)
        detail += "; exact re-verification failed, reporting float"
    M = Mechanism(x[: m * N].reshape(m, N), definition.inputs, outputs, exact=False)
    return _finish(definition, M, np.asarray(C, dtype=float), float(bound), False, "hockey-stick",
                   {"z": z, "y": y}, detail)


@special_lp.register
def _(definition: ApproximateDP) -> Any:
    return _adp_lp
