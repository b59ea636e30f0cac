"""The information cost of a design: the least mutual information ``I(D; ω)`` of a useful enough mechanism.

:func:`least_informative` minimises the mutual information between the dataset ``D ~ π`` (prior fixed) and the
output ``ω`` of a mechanism in the consistent closure of a privacy definition, subject to an expected utility of at
least ``at_least``:

    minimise  ``I(M) = Σ_ω Σ_D π(D) M[ω, D] ln(M[ω, D] / q_ω)``,  ``q_ω = Σ_D π(D) M[ω, D]``
    over      ``M`` in the closure (the same linear description as :func:`~privgeom.analyses.optimal_mechanism`,
              :func:`~privgeom.analyses.optimal._optimal.closure_constraints`)
    s.t.      ``⟨C, M⟩ ≥ at_least``, ``C[ω, D] = π(D) U[D, ω]``.

For a fixed input distribution the mutual information is a convex function of the channel (Cover & Thomas,
*Elements of Information Theory*, 2nd ed., Theorem 2.7.4), and each term ``π(D) M ln(M / q)`` is ``π(D)`` times the
relative entropy function ``rel_entr(M[ω, D], q_ω)``, jointly convex with an exponential-cone representation; the
constraints are linear, so this is a convex program (docs/theory.md, "The information cost of a design"). It is
solved with cvxpy (Clarabel, falling back to SCS), imported only when the function is called.

The outputs are the utility's columns, which loses nothing: following any member of the closure by its Bayes
decision rule onto these outputs keeps it in the closure (closure under post-processing), does not lower the
expected utility and does not raise the mutual information (data-processing inequality, Cover & Thomas Thm 2.8.1).

Examples
--------
One bit under randomized response with ``p = 3/4``, uniform prior, accuracy at least ``2/3``: the minimum is
``ln 2 − H(2/3)`` nats (a binary symmetric channel with crossover ``1/3``, docs/theory.md).

>>> import math
>>> from privgeom.definitions import RandomizedResponse
>>> res = least_informative(RandomizedResponse(1, "3/4"), "accuracy", "2/3")
>>> h = -(2/3) * math.log(2/3) - (1/3) * math.log(1/3)
>>> abs(float(res.value) - (math.log(2) - h)) < 1e-6, res.exact, res.status
(True, False, 'optimal')
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sp

from ..._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError, SolverError
from ..._core.extras import require
from ..._core.limits import register_limit
from ..._core.limits import current_limit
from ..._core.level import ScalarLike
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str, parse_scalar
from ..._core.results import Result
from ...definitions import PrivacyDefinition
from ...mechanisms import Mechanism
from ._optimal import closure_constraints, mutual_information, optimal_mechanism
from ._optimal_lp import PriorLike, UtilityLike, optimal_lp_size, prior_vector, utility_matrix
from ..._core.numbers import number_text

__all__ = ["LeastInformative", "least_informative", "MAX_INFORMATION_VARIABLES", "INFORMATION_SOLVERS"]

#: Largest convex program (variables of the closure constraints, :func:`~privgeom.analyses.optimal._optimal_lp.optimal_lp_size`) built by
#: :func:`least_informative`; each variable brings an exponential cone, so this is kept well below the LP limit.
MAX_INFORMATION_VARIABLES = 3_000
register_limit(
    "information_variables",
    globals(),
    "MAX_INFORMATION_VARIABLES",
    "largest number of variables of the least-informative-mechanism convex program (exponential cones)",
)

#: cvxpy solvers tried in order (both handle the exponential cone).
INFORMATION_SOLVERS = ("CLARABEL", "SCS")
#: Feasibility slack allowed on the utility constraint after the solve (relative to max |C|).
_UTILITY_SLACK = 1e-6


@dataclass(frozen=True)
class LeastInformative(Result):
    """Result of :func:`least_informative`.

    ``mechanism``: the minimiser found (outputs = the utility's columns; float); ``value``: its mutual information
    ``I(D; ω)`` in nats, recomputed from ``mechanism`` (a float, as :func:`~privgeom.analyses.mutual_information`
    gives it); ``utility``: its
    expected utility (≥ ``at_least`` up to the solver's tolerance); ``best``: the largest achievable expected utility
    (:func:`~privgeom.analyses.optimal_mechanism`); ``gap``: the duality gap the solver reported (``nan`` when it
    reports none); ``lower_bound``: a lower bound on the minimum that does not trust the convex solver (the
    convexity of ``I`` linearised at ``mechanism``, minimised over the closure by an LP; ``nan`` when not
    available), so the true minimum lies in ``[lower_bound, value]``; ``solver`` and ``status`` as cvxpy reports
    them (``"optimal_inaccurate"``: the solver stopped at reduced accuracy; the utility floor is still checked);
    ``exact`` is always False (a float solve).
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "nats: the mutual information I(D; ω)"

    mechanism: Mechanism
    value: float
    utility: float
    at_least: Any
    best: Any
    gap: float
    solver: str
    status: str
    definition: str
    formulation: str
    lower_bound: float = math.nan
    exact: bool = False

    def summary(self) -> str:
        return (
            f"least informative mechanism for {self.definition} ({self.formulation} formulation) with expected "
            f"utility ≥ {fraction_str(self.at_least)} (best achievable {fraction_str(self.best)}): I(D; ω) = "
            f"{number_text(float(self.value), digits=10)} nats (utility {number_text(self.utility, digits=10)}; {self.solver} {self.status}, duality gap "
            f"{number_text(self.gap, digits=3)}; independent lower bound {number_text(self.lower_bound, digits=10)})\n{self.mechanism}"
        )


def _solve(problem: Any, solver: str) -> tuple[str, float]:
    """Solve with ``solver``; return cvxpy's status and the solver's duality gap (primal − dual objective for
    Clarabel, SCS's reported gap) read from the raw solution."""
    data, chain, inverse = problem.get_problem_data(solver)
    raw = chain.solve_via_data(problem, data, False, False, {})
    for part in inverse:  # cvxpy's Clarabel interface reads these options back when unpacking
        if hasattr(part, "solver_options") and part.solver_options is None:
            part.solver_options = {}
    with warnings.catch_warnings():  # an inaccurate solve is reported through the returned status instead
        warnings.filterwarnings("ignore", message="Solution may be inaccurate", category=UserWarning)
        problem.unpack_results(raw, chain, inverse)
    if isinstance(raw, dict):
        gap = float(raw.get("info", {}).get("gap", math.nan))
    else:
        pv, dv = getattr(raw, "obj_val", None), getattr(raw, "obj_val_dual", None)
        gap = abs(float(pv) - float(dv)) if pv is not None and dv is not None else math.nan
    return str(problem.status), gap


def least_informative(
    definition: PrivacyDefinition,
    utility: UtilityLike = "accuracy",
    at_least: ScalarLike = 0,
    prior: PriorLike = None,
    *,
    max_variables: int | None = None,
    max_lp_size: int | None = None,
) -> LeastInformative:
    """Minimise the mutual information ``I(D; ω)`` (nats, ``D ~ prior``) over the definition's closure subject to an
    expected utility of at least ``at_least``: a convex program (module docstring; docs/theory.md).

    Parameters
    ----------
    definition : PrivacyDefinition
        Any definition :func:`~privgeom.analyses.optimal_mechanism` handles: finite ones (closure of Theorem 3.4),
        ones decided by their row cone (any definition exposing ``row_cone()``), (ε, δ)-DP.
    utility : "accuracy", 2-D array-like or dict
        ``U[D, ω]``, rows = datasets (:func:`~privgeom.analyses.optimal._optimal_lp.utility_matrix`).
    at_least : number
        Required expected utility; at most the optimum of :func:`~privgeom.analyses.optimal_mechanism`.
    prior : None, "uniform", sequence or dict
        ``π`` over the datasets (:func:`~privgeom.analyses.optimal._optimal_lp.prior_vector`); default uniform.
    max_variables : int, optional
        Largest description of the closure (variables of its constraints); default :data:`MAX_INFORMATION_VARIABLES`.
    max_lp_size : int, optional
        Passed to :func:`~privgeom.analyses.optimal_mechanism` (the LP that finds the best achievable utility).

    Returns
    -------
    LeastInformative

    Raises
    ------
    InvalidParameterError
        ``at_least`` above the best achievable expected utility (the message names it) or not a number.
    SizeLimitError
        A model larger than the limit, refused before it is built.
    SolverError
        Neither Clarabel nor SCS solved the program.

    Examples
    --------
    Asking for no more utility than a constant output gives reveals nothing:

    >>> from privgeom.definitions import DifferentialPrivacy
    >>> res = least_informative(DifferentialPrivacy.complete(3, exp_eps=2), "accuracy", "1/3")
    >>> abs(float(res.value)) < 1e-6
    True
    """
    if not isinstance(definition, PrivacyDefinition):
        raise InvalidTypeError(f"least_informative takes a privacy definition, got {type(definition).__name__}")
    from ..._core.arrays import parse_int

    limit = (
        current_limit("information_variables")
        if max_variables is None
        else parse_int(max_variables, name="max_variables", min=1)
    )
    inputs = tuple(definition.inputs)
    n_out = len(inputs) if isinstance(utility, str) and utility.strip() == "accuracy" else None
    target = parse_scalar(at_least, name="at_least")
    if n_out is None:
        n_out = len(utility_matrix(utility, inputs)[1])
    est = optimal_lp_size(definition, n_out)
    if est.variables > limit:
        raise SizeLimitError(
            f"least_informative: the closure constraints of {definition.name} with {n_out:,} outputs has "
            f"{est.variables:,} variables (one exponential cone each), more than the limit "
            f"{limit:,}; refused before building it — raise it with max_variables= or "
            f"{limit_hint('information_variables', est.variables).removeprefix('raise it with ')}"
        )
    best = optimal_mechanism(definition, utility, prior, max_lp_size=max_lp_size)
    if target > best.value:
        raise InvalidParameterError(
            f"at_least = {fraction_str(target)} is above the best achievable expected utility "
            f"{fraction_str(best.value)} of {definition.spec()} (optimal_mechanism)"
        )
    U, outputs = utility_matrix(utility, inputs, exact=False)
    pi = np.array([float(v) for v in prior_vector(prior, inputs, exact=False)])
    m, N = len(outputs), len(inputs)
    C = np.array([[pi[d] * U[d, w] for d in range(N)] for w in range(m)], dtype=float)
    model = closure_constraints(definition, m, exact=False)
    cp = require("cvxpy", extra="convex", feature="pg.least_informative (an exponential-cone program)")

    T = model.sparse_map()  # vec(M) = T x, row-major (ω, D)
    keep = [w * N + d for w in range(m) for d in range(N) if pi[d] > 0]
    Q = sp.csr_matrix(sp.kron(sp.identity(m), sp.csr_matrix(pi.reshape(1, N))).dot(T))  # q = Q x
    rep = sp.csr_matrix(([1.0] * len(keep), (range(len(keep)), [k // N for k in keep])), shape=(len(keep), m))
    weights = np.array([pi[k % N] for k in keep])
    x = cp.Variable(model.n, nonneg=True)
    Mv = T[keep] @ x
    objective = cp.Minimize(weights @ cp.rel_entr(Mv, rep @ (Q @ x)))

    def rows(rs: list[dict[int, Any]]) -> Any:
        trip = [(i, j, float(a)) for i, r in enumerate(rs) for j, a in r.items()]
        r_, c_, v_ = zip(*trip) if trip else ((), (), ())
        return sp.csr_matrix((v_, (r_, c_)), shape=(len(rs), model.n))

    cons = [rows(model.eq) @ x == np.array([float(b) for b in model.b_eq])]
    if model.ub:
        cons.append(rows(model.ub) @ x <= 0)
    c = np.array([float(v) for v in model.objective(C)])
    cons.append(c @ x >= float(target))
    problem = cp.Problem(objective, cons)
    status, gap, used = "not run", math.nan, ""
    errors = []
    for solver in INFORMATION_SOLVERS:
        try:
            status, gap = _solve(problem, solver)
        except Exception as err:  # cvxpy raises SolverError / ValueError on solver trouble
            errors.append(f"{solver}: {type(err).__name__}: {err}")
            continue
        used = solver
        if status in ("optimal", "optimal_inaccurate") and x.value is not None:
            break
        errors.append(f"{solver}: status {status}")
    if not used or x.value is None or status not in ("optimal", "optimal_inaccurate"):
        raise SolverError(
            f"least_informative for {definition.spec()}: no solver solved the convex program "
            f"({'; '.join(errors)}); no answer can be given"
        )
    M = np.clip(model.mechanism_matrix(np.clip(np.asarray(x.value, dtype=float), 0, None)), 0, None)
    M = M / M.sum(axis=0, keepdims=True)
    mech = Mechanism(M, inputs, outputs, exact=False)
    achieved = float(np.sum(C * M))
    scale = max(1.0, float(np.abs(C).max()))
    if achieved < float(target) - _UTILITY_SLACK * scale:
        raise SolverError(
            f"least_informative for {definition.spec()}: the solver's mechanism has expected utility "
            f"{number_text(achieved, digits=10)} < at_least = {fraction_str(target)} beyond the tolerance"
        )
    mi = mutual_information(mech, list(pi))
    value = float(mi)
    lower = _linearisation_bound(model, C, pi, M, float(mi), float(target), definition.spec())
    return LeastInformative(
        mechanism=mech,
        value=value,
        utility=achieved,
        at_least=target,
        best=best.value,
        gap=gap,
        solver=used,
        status=status,
        definition=definition.spec(),
        formulation=model.formulation,
        lower_bound=lower,
        exact=False,
    )


def _linearisation_bound(
    model: Any, C: np.ndarray, pi: np.ndarray, M: np.ndarray, value: float, target: float, what: str
) -> float:
    """A lower bound on the minimum, independent of the convex solver: ``I`` is convex on all non-negative ``M``
    (Cover & Thomas Thm 2.7.4), so ``I(M') ≥ I(M) + ⟨∇I(M), M' − M⟩`` for every feasible ``M'``, with
    ``∂I/∂M[ω, D] = π(D) ln(M[ω, D] / q_ω)``; minimising the right-hand side over the feasible set is an LP over
    the same closure constraints (HiGHS). ``nan`` when the gradient is infinite (``M`` has a zero entry where the prior
    and ``q_ω`` are positive) or the LP fails."""
    from ._optimal_adp import _LP

    q = M.dot(pi)
    with np.errstate(divide="ignore", invalid="ignore"):
        grad = np.where(pi[None, :] > 0, pi[None, :] * np.log(M / q[:, None]), 0.0)
    if not np.all(np.isfinite(grad)):
        return math.nan
    c = model.objective(-grad)  # maximise −⟨∇I, M(x)⟩
    util = [float(v) for v in model.objective(C)]
    lp = _LP(
        model.n,
        [float(v) for v in c],
        model.eq,
        model.b_eq,
        [*model.ub, dict(enumerate(-u for u in util))],
        False,
        f"linearisation bound of least_informative for {what}",
        b_ub=[0.0] * len(model.ub) + [-target],
    )
    try:
        res = lp.solve()
    except (SolverError, SizeLimitError):
        return math.nan
    return value - res.fun - float(np.sum(grad * M))
