"""Optimal mechanisms under (ε, δ)-DP with ``δ > 0``: an LP with hockey-stick auxiliary variables.

The row cone of (ε, δ)-DP with ``δ > 0`` is the whole orthant (Lin & Kifer, §III-D.2), so neither the rows LP nor
the closure LP of :mod:`privgeom.analyses.optimal._optimal` applies; (ε, δ)-DP is its own closure and its membership is the
hockey-stick condition on every directed edge (Balle, Barthe & Gaboardi, NeurIPS 2018, Def. 2 and Thm. 1), which is
linear once each positive part gets an auxiliary variable. This module registers that LP with
:func:`special_lp` (used by :func:`~privgeom.analyses.optimal_mechanism`) for :class:`~privgeom.definitions.ApproximateDP`.

It also holds what every optimisation over a closure shares (the LP plumbing ``_LP`` and ``_finish``, and
:class:`ClosureConstraints` with :func:`closure_constraints`, the one linear description of "``M`` is in the closure"
used by the LPs and by :func:`~privgeom.analyses.least_informative`), so that :mod:`privgeom.analyses.optimal._optimal`
imports this module and not the other way round; the result types are in :mod:`privgeom.analyses.optimal._results`.

Examples
--------
Guessing one of three values (uniform prior) under (ε, δ)-DP on ``K_3`` with ``e^ε = 2``, ``δ = 1/10``: the
symmetric mechanism with diagonal ``p`` has hockey-stick value ``p − 2 (1 − p)/2 = 2p − 1``, so ``p = 11/20``
(pure DP gives ``e^ε / (e^ε + 2) = 1/2``).

>>> from privgeom.definitions import ApproximateDP
>>> from privgeom import neighbour_graph
>>> from privgeom.analyses import optimal_mechanism
>>> K3 = neighbour_graph("complete", ["0", "1", "2"])
>>> opt = optimal_mechanism(ApproximateDP(K3, exp_eps=2, delta="1/10"), "accuracy")
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

from ..._core.errors import InvalidTypeError, SizeLimitError, SolverError
from ..._core.limits import register_limit
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str
from ..._core.limits import current_limit
from ...definitions import ApproximateDP, Membership, PrivacyDefinition
from ...definitions._generating import generating_mechanisms
from ...geometry._exact_lp import ExactLPSolution, exact_basis_solution, exact_lp_cdd
from ...geometry._lp import HighsModel, check_lp_size
from ...mechanisms import Mechanism
from ..._core.numbers import number_text
from ._results import LPDims, OptimalityCertificate, OptimalMechanism

__all__ = [
    "MAX_ADP_OPTIMAL_VARIABLES",
    "special_lp",
    "special_lp_size",
    "special_constraints",
    "ClosureConstraints",
    "closure_constraints",
]


# ---------------------------------------------------------------------------------------------------- LP plumbing
@dataclass(frozen=True)
class ClosureConstraints:
    """A linear description of "``M`` is in the consistent closure", shared by every optimisation over the closure.

    Variables ``x ≥ 0`` (``n`` of them) with ``eq`` rows ``= b_eq`` and ``ub`` rows ``≤ 0`` (``{column:
    coefficient}`` dicts); the mechanism is the linear image ``M[ω, D] = Σ_k mech[ω][D][k] x_k`` (``m`` outputs ×
    ``N`` datasets). The optimal-mechanism LPs maximise ``⟨C, M⟩`` over it (:meth:`objective`) and
    :func:`~privgeom.analyses.least_informative` minimises mutual information over it, so both describe the closure
    the same way. ``formulation`` names it (``"rows"``: ``x = M`` with the row cone's facets per output;
    ``"closure"``: post-processings ``B_j`` of generating mechanisms, Lin & Kifer Theorem 3.4; ``"hockey-stick"``:
    (ε, δ)-DP with auxiliary variables); ``data`` holds what its certificate needs (facets, matrices, edges).
    """

    formulation: str
    n: int
    eq: list[dict[int, Any]]
    b_eq: list[Any]
    ub: list[dict[int, Any]]
    mech: tuple[tuple[dict[int, Any], ...], ...]
    exact: bool
    data: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def shape(self) -> tuple[int, int]:
        """``(outputs, datasets)`` of the mechanism."""
        return len(self.mech), len(self.mech[0]) if self.mech else 0

    def objective(self, C: np.ndarray) -> list[Any]:
        """``c`` with ``c·x = ⟨C, M(x)⟩`` for a gain matrix ``C[ω, D]``."""
        c: list[Any] = [Fraction(0) if self.exact else 0.0] * self.n
        for w, row in enumerate(self.mech):
            for d, form in enumerate(row):
                cwd = C[w, d]
                if cwd:
                    for k, a in form.items():
                        c[k] = c[k] + cwd * a
        return c

    def mechanism_matrix(self, x: Sequence[Any]) -> np.ndarray:
        """``M(x)`` as an ``m × N`` array (object dtype for exact ``x``)."""
        exact = bool(len(x)) and isinstance(x[0], Fraction)
        zero: Any = Fraction(0) if exact else 0.0
        return np.array(
            [[sum((a * x[k] for k, a in form.items()), zero) for form in row] for row in self.mech],
            dtype=object if exact else float,
        )

    def sparse_map(self) -> Any:
        """The map ``x ↦ vec(M)`` (row-major ``ω, D``) as a float scipy sparse matrix."""
        m, N = self.shape
        trip = [
            (w * N + d, k, float(a))
            for w, row in enumerate(self.mech)
            for d, form in enumerate(row)
            for k, a in form.items()
        ]
        r, c, v = zip(*trip) if trip else ((), (), ())
        return sp.csr_matrix((v, (r, c)), shape=(m * N, self.n))


@dataclass(frozen=True)
class _Solved:
    x: np.ndarray
    fun: float
    eq_duals: np.ndarray | None
    ub_duals: np.ndarray | None
    exact: ExactLPSolution | None
    note: str


class _LP:
    """``max c·x`` s.t. ``A_eq x = b_eq``, ``A_ub x ≤ b_ub`` (default 0), ``x ≥ 0``; rows are ``{column: coefficient}``
    dicts.

    Solved by HiGHS's dual simplex; in exact mode the optimum is then recovered exactly from HiGHS's optimal basis
    (:func:`~privgeom.geometry._exact_lp.exact_basis_solution`: the square systems of the basic columns and of the active
    rows solved in rationals, then primal and dual feasibility checked exactly), with cdd's exact simplex as the
    fallback when that basis is not exactly optimal. Either way ``_Solved.exact`` holds an exact, verified primal
    and dual pair; exact mode never rounds floats.
    """

    def __init__(
        self,
        n: int,
        c: list[Any],
        eq: list[dict[int, Any]],
        b_eq: list[Any],
        ub: list[dict[int, Any]],
        exact: bool,
        what: str,
        b_ub: list[Any] | None = None,
    ) -> None:
        self.n, self.c, self.eq, self.b_eq, self.ub, self.exact, self.what = n, c, eq, b_eq, ub, exact, what
        self.b_ub: list[Any] = [0] * len(ub) if b_ub is None else list(b_ub)

    @classmethod
    def of(cls, model: ClosureConstraints, c: list[Any], what: str) -> "_LP":
        """The LP ``max c·x`` over a :class:`ClosureConstraints`."""
        return cls(model.n, c, model.eq, model.b_eq, model.ub, model.exact, what)

    def solve(self) -> _Solved:
        rows = list(self.eq) + list(self.ub)
        trip = [(i, j, float(a)) for i, row in enumerate(rows) for j, a in row.items()]
        r, cidx, v = zip(*trip) if trip else ((), (), ())
        check_lp_size(len(rows), self.n, len(trip), what=self.what)
        A = sp.csc_matrix((v, (r, cidx)), shape=(len(rows), self.n))
        lo = [float(b) for b in self.b_eq] + [-np.inf] * len(self.ub)
        hi = [float(b) for b in self.b_eq] + [float(b) for b in self.b_ub]
        model = HighsModel(
            -np.array([float(v) for v in self.c]), A, lo, hi, np.zeros(self.n), np.full(self.n, np.inf), what=self.what
        )
        res = model.solve(solver="dual")
        if res.status != "optimal":
            raise SolverError(
                f"{self.what}: HiGHS reports the LP infeasible, which is impossible for a non-empty closure"
            )
        ne = len(self.eq)
        duals = res.eq_duals
        sol: ExactLPSolution | None = None
        note = ""
        if self.exact:
            lo_x: list[Any] = list(self.b_eq) + [None] * len(self.ub)
            hi_x: list[Any] = list(self.b_eq) + list(self.b_ub)
            neg = [-v for v in self.c]
            if res.basis is not None:
                sol = exact_basis_solution(neg, rows, lo_x, hi_x, res.basis)
            if sol is None:
                note = "HiGHS's basis is not exactly optimal; "
                try:
                    sol = exact_lp_cdd(neg, rows, lo_x, hi_x)
                except SizeLimitError as err:
                    raise SolverError(
                        f"{self.what}: every input is rational but HiGHS's optimal basis does not give an "
                        f"exactly optimal vertex, and the exact fallback is refused: {err}"
                    ) from err
            if sol is None:
                raise SolverError(
                    f"{self.what}: every input is rational but neither HiGHS's optimal basis nor cdd's "
                    "exact simplex gives a verified exact optimum; no float answer is substituted"
                )
            note += f"exact optimum from {'HiGHS’s optimal basis' if sol.method == 'basis' else 'cdd’s exact simplex'}"
        return _Solved(
            x=np.asarray(res.x),
            fun=-float(res.fun or 0.0),
            eq_duals=None if duals is None else np.asarray(duals[:ne]),
            ub_duals=None if duals is None else np.asarray(duals[ne:]),
            exact=sol,
            note=note,
        )

    def feasible(self, x: Sequence[Any]) -> bool:
        dot = lambda row: sum((a * x[j] for j, a in row.items()), Fraction(0))  # noqa: E731
        return (
            all(v >= 0 for v in x)
            and all(dot(row) == b for row, b in zip(self.eq, self.b_eq))
            and all(dot(row) <= b for row, b in zip(self.ub, self.b_ub))
        )

    def value(self, x: Sequence[Any]) -> Any:
        return sum((a * v for a, v in zip(self.c, x) if a), Fraction(0) if self.exact else 0.0)

    def exact_duals(self, sol: ExactLPSolution) -> tuple[np.ndarray, np.ndarray]:
        """``(eq duals, ub duals)`` of an exact solution, as object arrays (convention of :class:`LPResult` for
        ``min −c·x``)."""
        ne = len(self.eq)
        return np.array(sol.y[:ne], dtype=object), np.array(sol.y[ne:], dtype=object)


def _finish(
    definition: PrivacyDefinition,
    M: Mechanism,
    C: np.ndarray,
    bound: Any,
    exact: bool,
    formulation: str,
    dual: dict[str, Any],
    detail: str,
    membership: Membership | None = None,
) -> OptimalMechanism:
    mat = M.matrix if exact else M.float_matrix()
    if exact:  # only the non-zero costs contribute (accuracy: N of N² entries)
        nz = np.nonzero(np.asarray(C, dtype=object) != 0)
        value = sum((C[w, d] * mat[w, d] for w, d in zip(*nz)), Fraction(0))
    else:
        value = float(np.sum(np.asarray(C, dtype=float) * mat))
    tol = 0.0 if exact else 1e-7 * max(1.0, abs(float(value)))
    gap = bound - value
    verified = gap == 0 if exact else abs(float(gap)) <= tol
    if exact and not verified:
        raise SolverError(
            f"optimal mechanism for {definition.spec()}: every input is rational but the exact dual bound "
            f"{fraction_str(bound)} differs from the exact value {fraction_str(value)}; no float answer "
            "is substituted"
        )
    if not verified:
        detail += f"; NOT verified: gap {number_text(float(gap), digits=3)} exceeds the tolerance {number_text(tol)}"
    cert = OptimalityCertificate(
        bound=bound,
        value=value,
        gap=gap,
        exact=exact and verified,
        verified=verified,
        tolerance=tol,
        dual=dual,
        detail=detail,
    )
    if membership is None:  # a caller's exact structured re-check (every row, every constraint) stands in for it
        membership = definition.contains(M)
    text = (
        f"optimal mechanism for {definition.spec()} ({formulation} LP): expected utility {fraction_str(value)}"
        f"{'' if exact else f' ≈ {number_text(float(value), digits=10)}'}; in the closure: {'yes' if membership.member else 'NO'} [{membership.method}]"
    )
    return OptimalMechanism(
        mechanism=M,
        value=value,
        exact=exact and verified,
        formulation=formulation,
        definition=definition.spec(),
        certificate=cert,
        membership=membership,
        text=text,
    )


@singledispatch
def special_lp(definition: Any) -> Callable[..., OptimalMechanism] | None:
    """The dedicated LP of a definition that is neither finite nor row-wise (a registry by type); None if none."""
    return None


@singledispatch
def special_constraints(definition: Any, n_outputs: int, exact: bool) -> ClosureConstraints | None:
    """The :class:`ClosureConstraints` of a definition that is neither finite nor row-wise (a registry by type)."""
    return None


#: Largest number of LP variables (outputs × (datasets + directed edges)) of the (ε, δ)-DP optimal-mechanism LP.
MAX_ADP_OPTIMAL_VARIABLES = 200_000
register_limit(
    "adp_optimal_variables",
    globals(),
    "MAX_ADP_OPTIMAL_VARIABLES",
    "largest number of variables (outputs × (datasets + directed edges)) of the (ε, δ)-DP optimal-mechanism LP",
)


@special_constraints.register
def _adp_constraints(definition: ApproximateDP, n_outputs: int, exact: bool) -> ClosureConstraints:
    """(ε, δ)-DP with hockey-stick auxiliary variables (see :func:`_adp_lp`)."""
    from ...graphs._graphs import edge_index_pairs

    m, N = int(n_outputs), len(definition.inputs)
    pairs = edge_index_pairs(definition.graph, definition.inputs)
    directed = [(i, j) for i, j in pairs] + [(j, i) for i, j in pairs]
    E = len(directed)
    n_vars = m * N + m * E + 1
    if n_vars > current_limit("adp_optimal_variables"):
        raise SizeLimitError(
            f"optimal_mechanism: the (ε, δ)-DP LP for {definition.spec()} would have {n_vars:,} "
            f"variables (limit {current_limit('adp_optimal_variables'):,}); refused before "
            "building it — "
            f"{limit_hint('adp_optimal_variables', n_vars)}"
        )
    exact = exact and bool(definition.exact)
    one: Any = Fraction(1) if exact else 1.0
    r: Any = definition.level.exp_eps if exact else float(definition.level.exp_eps)
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
    mech = tuple(tuple({mi(w, d): one} for d in range(N)) for w in range(m))
    return ClosureConstraints(
        formulation="hockey-stick",
        n=n_vars,
        eq=eq,
        b_eq=[1] * (N + 1),
        ub=ub,
        mech=mech,
        exact=exact,
        data={"directed": directed, "r": r, "delta": dl},
    )


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
    In exact mode ``z`` is the exact dual recovered from HiGHS's optimal basis (``_LP``), and the bound must
    equal the value of the exact vertex.
    """
    m, N = C.shape
    model = _adp_constraints(definition, m, exact)
    exact = model.exact
    directed, r, dl = model.data["directed"], model.data["r"], model.data["delta"]
    E = len(directed)
    lp = _LP.of(
        model, model.objective(C if exact else np.asarray(C, dtype=float)), f"optimal mechanism for {definition.spec()}"
    )
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

    if res.exact is not None:
        raw = lp.exact_duals(res.exact)[1][: m * E]
        zs = [np.array([max(sz * v, Fraction(0)) for v in raw], dtype=object) for sz in (-1, 1)]
    else:
        rawf = np.asarray(res.ub_duals if res.ub_duals is not None else np.zeros(len(model.ub)))[: m * E]
        zs = [np.clip(-sz * rawf, 0, None) for sz in (1, -1)]
    bound, y, z = min(((*bound_of(zc), zc) for zc in zs), key=lambda q: q[0])
    detail = (
        f"(ε, δ)-DP LP with hockey-stick auxiliary variables ({m * E} t's); bound "
        f"Σ_D max_ω G[ω, D] + δ Σ_e max_ω z[e, ω] from HiGHS's {'exact ' if exact else ''}duals"
    )
    if res.exact is not None:
        M = Mechanism(model.mechanism_matrix(res.exact.x), definition.inputs, outputs, exact=True)
        return _finish(definition, M, C, bound, True, "hockey-stick", {"z": z, "y": y}, f"{detail}; {res.note}")
    M = Mechanism(model.mechanism_matrix(np.clip(res.x, 0, None)), definition.inputs, outputs, exact=False)
    return _finish(
        definition, M, np.asarray(C, dtype=float), float(bound), False, "hockey-stick", {"z": z, "y": y}, detail
    )


@special_lp.register
def _(definition: ApproximateDP) -> Any:
    return _adp_lp


@singledispatch
def special_lp_size(definition: Any, n_outputs: int) -> LPDims | None:
    """The sizes (variables, constraints, nonzeros) of the dedicated LP of :func:`special_lp`, from the sizes alone."""
    return None


@special_lp_size.register
def _(definition: ApproximateDP, n_outputs: int) -> LPDims:
    m, N = n_outputs, len(definition.inputs)
    E = 2 * definition.graph.number_of_edges()
    return LPDims(variables=m * N + m * E + 1, constraints=m * E + E + N + 1, nonzeros=4 * m * E + E + m * N + 1)


# ---------------------------------------------------------------------------------------------------- models
def _rows_constraints(definition: PrivacyDefinition, m: int, exact: bool) -> ClosureConstraints:
    """``x = M`` (row-major), every row in the row cone (``a·M[ω, :] ≥ 0`` per facet, ``e·M[ω, :] = 0`` per
    equality; Lin & Kifer Definition 3.5) and every column a probability vector. Works for any definition whose
    closure its row cone decides and that exposes the cone's ``facets``/``equalities``."""
    cone = definition.row_cone()
    exact = exact and cone.exact
    N = len(definition.inputs)
    F = cone.facets if exact else cone.facets.astype(float)
    E = cone.equalities if exact else cone.equalities.astype(float)
    one: Any = Fraction(1) if exact else 1.0
    idx = lambda w, d: w * N + d  # noqa: E731
    ub = [{idx(w, d): -a[d] for d in range(N) if a[d] != 0} for w in range(m) for a in F]
    eq = [{idx(w, d): one for w in range(m)} for d in range(N)]
    eq += [{idx(w, d): e[d] for d in range(N) if e[d] != 0} for w in range(m) for e in E]
    b_eq: list[Any] = [1] * N + [0] * (m * len(E))
    mech = tuple(tuple({idx(w, d): one} for d in range(N)) for w in range(m))
    return ClosureConstraints(
        formulation="rows", n=m * N, eq=eq, b_eq=b_eq, ub=ub, mech=mech, exact=exact, data={"F": F, "E": E}
    )


def _closure_constraints(
    definition: PrivacyDefinition, mechs: Sequence[Mechanism], m: int, exact: bool
) -> ClosureConstraints:
    """``M = Σ_j B_j M_j`` with ``B_j ≥ 0``, ``1ᵀ B_j = λ_j 1ᵀ``, ``Σ_j λ_j = 1`` (Lin & Kifer Theorem 3.4): the
    variables are the entries of each ``B_j`` (``m × o_j``, row-major) and then the ``λ_j``."""
    exact = exact and all(M.exact for M in mechs)
    mats = [M.matrix if exact else M.float_matrix() for M in mechs]
    N = len(definition.inputs)
    sizes = [Mj.shape[0] for Mj in mats]
    offsets = [int(v) for v in np.cumsum([0] + [m * o for o in sizes])]
    lam0 = offsets[-1]
    eq: list[dict[int, Any]] = [
        {**{offsets[j] + w * o_j + o: 1 for w in range(m)}, lam0 + j: -1}
        for j, o_j in enumerate(sizes)
        for o in range(o_j)
    ]  # 1ᵀ B_j = λ_j 1ᵀ
    eq.append({lam0 + j: 1 for j in range(len(mats))})
    mech = tuple(
        tuple(
            {
                offsets[j] + w * o_j + o: mats[j][o, d]
                for j, o_j in enumerate(sizes)
                for o in range(o_j)
                if mats[j][o, d] != 0
            }
            for d in range(N)
        )
        for w in range(m)
    )
    return ClosureConstraints(
        formulation="closure",
        n=lam0 + len(mats),
        eq=eq,
        b_eq=[0] * (len(eq) - 1) + [1],
        ub=[],
        mech=mech,
        exact=exact,
        data={"mats": mats, "offsets": offsets},
    )


def closure_constraints(
    definition: PrivacyDefinition, n_outputs: int, *, exact: bool | None = None
) -> ClosureConstraints:
    """The linear description of the definition's closure used by :func:`optimal_mechanism` (and by
    :func:`~privgeom.analyses.least_informative`): the post-processing variables of Theorem 3.4 for finite definitions, the row
    cone's facets for definitions decided by their row cone (any definition exposing ``row_cone()`` with
    ``row_cone_decides_closure``), else a registered special model (:func:`special_constraints`, e.g. (ε, δ)-DP).

    Examples
    --------
    >>> from privgeom.definitions import DifferentialPrivacy
    >>> mdl = closure_constraints(DifferentialPrivacy.path(2, exp_eps=2), 2)
    >>> mdl.formulation, mdl.n, len(mdl.eq), len(mdl.ub), mdl.exact
    ('rows', 6, 3, 8, True)
    """
    ex = definition.exact if exact is None else bool(exact) and definition.exact
    mechs = generating_mechanisms(definition)
    if mechs is not None:
        return _closure_constraints(definition, mechs, int(n_outputs), ex)
    if definition.row_cone_decides_closure:
        return _rows_constraints(definition, int(n_outputs), ex)
    if (model := special_constraints(definition, int(n_outputs), ex)) is not None:
        return model
    raise InvalidTypeError(
        f"{definition.spec()} is neither finite nor decided by its row cone, and privgeom has no "
        "other linear description of its closure"
    )
