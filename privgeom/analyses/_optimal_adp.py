"""Optimal mechanisms under (ε, δ)-DP with ``δ > 0``: an LP with hockey-stick auxiliary variables.

The row cone of (ε, δ)-DP with ``δ > 0`` is the whole orthant (Lin & Kifer, §III-D.2), so neither the rows LP nor
the closure LP of :mod:`privgeom.analyses._optimal` applies; (ε, δ)-DP is its own closure and its membership is the
hockey-stick condition on every directed edge (Balle, Barthe & Gaboardi, NeurIPS 2018, Def. 2 and Thm. 1), which is
linear once each positive part gets an auxiliary variable. This module registers that LP with
:func:`special_lp` (used by :func:`~privgeom.analyses.optimal_mechanism`) for :class:`~privgeom.definitions.ApproximateDP`.

It also holds what every optimal-mechanism LP shares (the result types :class:`OptimalMechanism` and
:class:`OptimalityCertificate`, the LP plumbing ``_LP`` and ``_finish``), so that :mod:`privgeom.analyses._optimal`
imports this module and not the other way round.

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

from dataclasses import dataclass, field
from fractions import Fraction
from functools import singledispatch
from typing import Any, Callable, Sequence

import numpy as np
import scipy.sparse as sp

from .._errors import SizeLimitError, SolverError
from .._limits import register_limit
from .._numeric import ATOL, Scalar, fraction_str, limit_hint
from .._results import Result
from ..definitions import ApproximateDP, Membership, PrivacyDefinition
from ..geometry._lp import exact_solve, rational_candidates, rationalize, solve_lp
from ..mechanisms import Mechanism

__all__ = ["MAX_ADP_OPTIMAL_VARIABLES", "special_lp", "special_lp_size", "OptimalityCertificate", "OptimalMechanism"]


# ---------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class OptimalityCertificate(Result):
    """LP duality certificate of an optimum: an upper ``bound`` valid for *every* mechanism of the closure.

    ``value``: expected utility of the returned mechanism (recomputed), ``gap = bound − value``. ``exact``: primal
    feasibility and ``bound == value`` verified in rationals; ``verified``: that, or (float) ``|gap| ≤ tolerance``.
    ``dual``: the dual vectors used (``z, w, y`` rows LP; ``u, t`` closure LP; ``z, y`` hockey-stick LP).
    """

    bound: Scalar
    value: Scalar
    gap: Scalar
    exact: bool
    verified: bool
    tolerance: float
    dual: dict[str, Any] = field(repr=False)
    detail: str

    def summary(self) -> str:
        if not self.verified:
            return f"NOT certified: dual bound {fraction_str(self.bound)}, value {fraction_str(self.value)}; {self.detail}"
        how = "exactly (rational arithmetic)" if self.exact else f"in float (gap {float(self.gap):.3g}, tolerance {self.tolerance:g})"
        return f"optimal: dual bound {fraction_str(self.bound)} = value {fraction_str(self.value)}, verified {how}; {self.detail}"


@dataclass(frozen=True)
class OptimalMechanism(Result):
    """Result of :func:`optimal_mechanism`: an optimal ``mechanism`` (outputs = the utility's outputs), its expected
    utility ``value`` (``Σ_D π(D) Σ_ω U[D, ω] M[ω, D]``), ``exact`` (certified in rational arithmetic), the
    ``formulation`` (``"rows"``, ``"closure"`` or ``"hockey-stick"``), the definition's spec, the
    :class:`OptimalityCertificate` and ``membership``: ``definition.contains(mechanism)``, an independent re-check.
    """

    mechanism: Mechanism
    value: Scalar
    exact: bool
    formulation: str
    definition: str
    certificate: OptimalityCertificate
    membership: Membership
    text: str

    def summary(self) -> str:
        return f"{self.text}\n{self.mechanism}\n{self.certificate.summary()}"


# ---------------------------------------------------------------------------------------------------- LP plumbing
class _LP:
    """``max c·x`` s.t. ``A_eq x = b_eq``, ``A_ub x ≤ 0``, ``x ≥ 0``; rows are ``{column: coefficient}`` dicts."""

    def __init__(self, n: int, c: list[Any], eq: list[dict[int, Any]], b_eq: list[Any], ub: list[dict[int, Any]],
                 exact: bool, what: str) -> None:
        self.n, self.c, self.eq, self.b_eq, self.ub, self.exact, self.what = n, c, eq, b_eq, ub, exact, what

    @staticmethod
    def _sparse(rows: list[dict[int, Any]], n: int) -> Any:
        trip = [(i, j, float(a)) for i, row in enumerate(rows) for j, a in row.items()]
        r, cidx, v = zip(*trip) if trip else ((), (), ())
        return sp.csr_matrix((v, (r, cidx)), shape=(len(rows), n)) if rows else None

    def solve(self) -> Any:
        A_ub = self._sparse(self.ub, self.n)
        res = solve_lp(-np.array([float(v) for v in self.c]), A_ub=A_ub,
                       b_ub=np.zeros(len(self.ub)) if self.ub else None, A_eq=self._sparse(self.eq, self.n),
                       b_eq=np.array([float(b) for b in self.b_eq]), method="highs-ds", what=self.what)
        if res.status != "optimal":
            raise SolverError(f"{self.what}: HiGHS reports the LP infeasible, which is impossible for a non-empty closure")
        return res

    def feasible(self, x: Sequence[Any]) -> bool:
        dot = lambda row: sum((a * x[j] for j, a in row.items()), Fraction(0))  # noqa: E731
        return (all(v >= 0 for v in x) and all(dot(row) == b for row, b in zip(self.eq, self.b_eq))
                and all(dot(row) <= 0 for row in self.ub))

    def value(self, x: Sequence[Any]) -> Any:
        return sum((a * v for a, v in zip(self.c, x) if a), Fraction(0) if self.exact else 0.0)

    def exact_primal(self, x: np.ndarray) -> list[Fraction] | None:
        """Rationalise a float vertex: rounding candidates, then an exact solve on its support and tight rows."""
        best: list[Fraction] | None = None
        for cand in rational_candidates(x):
            xs = list(cand)
            if self.feasible(xs) and (best is None or self.value(xs) > self.value(best)):
                best = xs
        if best is not None:
            return best
        tol = ATOL
        rows = list(self.eq) + [row for row in self.ub if abs(sum(float(a) * x[j] for j, a in row.items())) <= tol]
        rhs = list(self.b_eq) + [Fraction(0)] * (len(rows) - len(self.eq))
        rows += [{j: Fraction(1)} for j in range(self.n) if x[j] <= tol]
        rhs += [Fraction(0)] * (len(rows) - len(rhs))
        sol = exact_solve(rows, rhs, n_vars=self.n)
        return sol if sol is not None and self.feasible(sol) else None


def _finish(definition: PrivacyDefinition, M: Mechanism, C: np.ndarray, bound: Any, exact: bool, formulation: str,
            dual: dict[str, Any], detail: str) -> OptimalMechanism:
    mat = M.matrix if exact else M.float_matrix()
    value = (C * mat).sum() if exact else float(np.sum(np.asarray(C, dtype=float) * mat))
    tol = 0.0 if exact else 1e-7 * max(1.0, abs(float(value)))
    gap = bound - value
    verified = gap == 0 if exact else abs(float(gap)) <= tol
    if not verified:
        detail += f"; NOT verified: gap {float(gap):.3g} exceeds the tolerance {tol:g}"
    cert = OptimalityCertificate(bound, value, gap, exact and verified, verified, tol, dual, detail)
    membership = definition.contains(M)
    text = (f"optimal mechanism for {definition.spec()} ({formulation} LP): expected utility {fraction_str(value)}"
            f"{'' if exact else f' ≈ {float(value):.10g}'}; in the closure: {membership.member} [{membership.method}]")
    return OptimalMechanism(M, value, exact and verified, formulation, definition.spec(), cert, membership, text)




@singledispatch
def special_lp(definition: Any) -> Callable[..., OptimalMechanism] | None:
    """The dedicated LP of a definition that is neither finite nor row-wise (a registry by type); None if none."""
    return None


#: Largest number of LP variables (outputs × (datasets + directed edges)) of the (ε, δ)-DP optimal-mechanism LP.
MAX_ADP_OPTIMAL_VARIABLES = 200_000
register_limit("adp_optimal_variables", globals(), "MAX_ADP_OPTIMAL_VARIABLES",
               "largest number of variables (outputs × (datasets + directed edges)) of the (ε, δ)-DP "
               "optimal-mechanism LP")


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
    from ..graphs._graphs import edge_index_pairs

    m, N = C.shape
    pairs = edge_index_pairs(definition.graph, definition.inputs)
    directed = [(i, j) for i, j in pairs] + [(j, i) for i, j in pairs]
    E = len(directed)
    n_vars = m * N + m * E + 1
    if n_vars > MAX_ADP_OPTIMAL_VARIABLES:
        raise SizeLimitError(f"optimal_mechanism: the (ε, δ)-DP LP for {definition.spec()} would have {n_vars:,} "
                             f"variables (limit {MAX_ADP_OPTIMAL_VARIABLES:,}); refused before building it — "
                             f"{limit_hint('adp_optimal_variables', n_vars)}")
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


@singledispatch
def special_lp_size(definition: Any, n_outputs: int) -> tuple[int, int, int] | None:
    """``(variables, constraints, nonzeros)`` of the dedicated LP of :func:`special_lp`, from the sizes alone."""
    return None


@special_lp_size.register
def _(definition: ApproximateDP, n_outputs: int) -> tuple[int, int, int]:
    m, N = n_outputs, len(definition.inputs)
    E = 2 * definition.graph.number_of_edges()
    return m * N + m * E + 1, m * E + E + N + 1, 4 * m * E + E + m * N + 1
