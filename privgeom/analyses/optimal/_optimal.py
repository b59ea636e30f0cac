"""Optimal mechanisms: maximise expected utility over the consistent closure of a privacy definition (an LP).

The problem (utility, prior, gain matrix ``C``), the size of its LP and the full LPs (rows and closure) are in
:mod:`privgeom.analyses.optimal._optimal_lp`, the (ε, δ)-DP LP in :mod:`privgeom.analyses.optimal._optimal_adp`
and the routes that need no full LP in :mod:`privgeom.analyses.optimal._optimal_sym`; this module chooses among
them (``method=``) and holds the local-DP theory below.

Kairouz, Oh & Viswanath (*Extremal mechanisms for local differential privacy*, NIPS 2014; JMLR 17, 2016 —
"KOV") study local DP, i.e. ε-DP on the complete graph ``K_n``. Its row cone has the ``2^n − 2`` extreme rays
``{1, e^ε}^n`` minus the constants (:func:`staircase_patterns`). For a *sublinear* utility ``Σ_ω μ(M[ω, :])``
(``μ`` convex and positively homogeneous — mutual information, f-divergences, and every linear utility followed by
the best decision, ``μ(x) = max_ω Σ_D C[ω, D] x_D``) KOV show that an optimal mechanism is a *staircase
mechanism*, rows ``θ_s s`` over the patterns ``s``, with ``θ`` solving the LP ``max Σ_s θ_s μ(s)`` subject to
``Σ_s θ_s s = 1``, ``θ ≥ 0`` (:func:`staircase_optimum`), and that the binary mechanism (two patterns splitting
the inputs in halves) is optimal in the high-privacy regime and k-ary randomized response in the low-privacy
regime (:func:`kov_regimes`).

Examples
--------
>>> from privgeom.definitions import DifferentialPrivacy
>>> opt = optimal_mechanism(DifferentialPrivacy.complete(3, exp_eps=2), "accuracy")
>>> opt.value, opt.certificate.exact, opt.certificate.bound
(Fraction(1, 2), True, Fraction(1, 2))
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ..._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError, SolverError
from ..._core.level import PrivacyLevel, ScalarLike
from ..._core.limits import register_limit
from ..._core.arrays import ATOL, check_dense_size, ROUNDOFF
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str, Scalar
from ..._core.limits import current_limit
from ..._core.results import Quantity
from ...definitions import PrivacyDefinition
from ...definitions._generating import generating_mechanisms
from ...mechanisms import Mechanism
from ._optimal_adp import _LP, ClosureConstraints, closure_constraints
from ._optimal_lp import (
    PriorLike,
    UtilityLike,
    _check_lp_size,
    _cost_matrix,
    _Problem,
    _refuse_lp,
    _route_lp,
    prior_vector,
    utility_matrix,
)
from ._results import KOVRegimes, LPSize, OptimalityCertificate, OptimalMechanism, StaircaseOptimum

__all__ = [
    "OptimalityCertificate",
    "OptimalMechanism",
    "optimal_mechanism",
    "LPSize",
    "MAX_OPTIMAL_LP_SIZE",
    "ClosureConstraints",
    "closure_constraints",
    "OPTIMAL_METHODS",
    "RowUtility",
    "bayes_utility",
    "mutual_information_utility",
    "mutual_information",
    "staircase_patterns",
    "binary_mechanism",
    "StaircaseOptimum",
    "staircase_optimum",
    "KOVRegimes",
    "kov_regimes",
]

#: Default largest optimal-mechanism LP, measured as constraint-matrix nonzeros + variables and estimated from the
#: sizes before anything is built (:func:`~privgeom.analyses.optimal._optimal_lp.optimal_lp_size`). Measured on 2
#: shared cores with exact re-verification (docs/theory.md §16): size 3,456 (ε-DP on K_12) 0.8 s, 5,280 (path, 30
#: values) 2.3 s, 16,000 (K_20) 4.5 s, 12,288 (the 5-cube) 64 s, 18,592 (path, 56 values) 39 s — time grows like
#: size^2–2.5 and with degeneracy, so 5,000 is the largest round size at which every family measured answers within
#: about 10 s. It limits the LP actually built: the symmetry-reduced one when symmetry applies; the explicit and
#: closed-form routes build none. Raise it with ``optimal_mechanism(..., max_lp_size=)``.
MAX_OPTIMAL_LP_SIZE = 5_000
register_limit(
    "optimal_lp_size",
    globals(),
    "MAX_OPTIMAL_LP_SIZE",
    "default largest optimal-mechanism LP (nonzeros + variables) built; max_lp_size= raises it for one call",
    option="--max-lp-size",
)

#: Largest ``n`` for which :func:`staircase_patterns` enumerates the ``2^n − 2`` patterns.
MAX_STAIRCASE_INPUTS = 14
register_limit(
    "staircase_inputs",
    globals(),
    "MAX_STAIRCASE_INPUTS",
    "most inputs n for which staircase_patterns() enumerates the 2^n - 2 patterns",
)


def _check_size(
    definition: PrivacyDefinition, formulation: str, variables: int, constraints: int, nonzeros: int, limit: int | None
) -> None:
    """Refuse an LP of the given sizes above ``limit`` (default :data:`MAX_OPTIMAL_LP_SIZE`)."""
    _refuse_lp(
        definition,
        LPSize(formulation=formulation, variables=variables, constraints=constraints, nonzeros=nonzeros),
        current_limit("optimal_lp_size") if limit is None else limit,
    )


def _route_explicit(p: _Problem) -> OptimalMechanism | None:
    """Finite definitions only: the Bayes decision on the best generating mechanism, the closure LP's explicit dual
    (Lin & Kifer Theorem 3.4). No LP; one matrix product per generating mechanism. None for other definitions."""
    from ._optimal_sym import explicit_closure_optimum

    if p.mechs is None:
        return None
    return explicit_closure_optimum(p.definition, p.mechs, p.C, p.outputs, p.exact)


def _route_closed_form(p: _Problem) -> OptimalMechanism | None:
    """ε-DP on a complete graph, accuracy, uniform prior: ``n``-ary randomized response with its closed-form dual
    (Kairouz, Oh & Viswanath, JMLR 2016). No LP; ``O(n²)`` checks. None when the setting does not match."""
    from ._optimal_sym import closed_form_optimum

    if p.mechs is not None:
        return None
    return closed_form_optimum(p.definition, p.C, p.outputs, p.exact)


def _route_symmetric(p: _Problem) -> OptimalMechanism | None:
    """Ratio-cone definitions (ε-DP) whose symmetry group preserves the utility and prior (outputs = datasets): the
    rows LP reduced to one variable per orbit (orbit averaging, :mod:`~privgeom.analyses.optimal._optimal_sym`),
    expanded and re-verified against the full constraints. The reduced LP is size-checked against ``limit``. None
    when no reduction applies."""
    from ._optimal_sym import symmetric_rows_optimum

    if p.mechs is not None:
        return None
    return symmetric_rows_optimum(
        p.definition, p.C, p.outputs, p.exact, lambda v, c, z: _check_size(p.definition, "symmetric", v, c, z, p.limit)
    )


#: The routes of :func:`optimal_mechanism` (``method=``); a route returns None when it does not apply. See
#: :mod:`privgeom.analyses.optimal._optimal_sym`.
_OPTIMAL_ROUTES: dict[str, Callable[[_Problem], OptimalMechanism | None]] = {
    "lp": _route_lp,
    "explicit": _route_explicit,
    "closed-form": _route_closed_form,
    "symmetric": _route_symmetric,
}
#: The order in which ``method="auto"`` tries the routes: the first that applies answers.
_AUTO_ORDER = ("explicit", "closed-form", "symmetric", "lp")
#: The ``method=`` names of :func:`optimal_mechanism`.
OPTIMAL_METHODS = ("auto", *_OPTIMAL_ROUTES)
#: What a route that does not apply needed (the error of an explicit ``method=``; ``"explicit"`` says it itself).
_ROUTE_NEEDS = {
    "closed-form": "ε-DP on a complete graph, accuracy, uniform prior",
    "symmetric": "an ε-DP definition whose symmetry group preserves the utility and prior, outputs = datasets",
}


def _check_accuracy_size(definition: PrivacyDefinition, method: str, limit: int) -> None:
    """The ``N × N`` accuracy utility is refused before it is built when no route could use it."""
    n = len(definition.inputs)
    if method == "lp":
        _check_lp_size(definition, n, limit)
    try:
        check_dense_size(n, n, exact=definition.exact, what="the accuracy utility")
    except SizeLimitError:  # too large for every route: name the LP limit first (the usual knob)
        _check_lp_size(definition, n, limit)
        raise


def optimal_mechanism(
    definition: PrivacyDefinition,
    utility: UtilityLike = "accuracy",
    prior: PriorLike = None,
    *,
    max_lp_size: int | None = None,
    method: str = "auto",
) -> OptimalMechanism:
    """Maximise expected utility ``Σ_D π(D) Σ_ω U[D, ω] M[ω, D]`` over the consistent closure of a definition.

    Parameters
    ----------
    definition : PrivacyDefinition
        Finite definitions (``FiniteDefinition``, ``RandomizedResponse``) use the closure LP of Theorem 3.4;
        row-cone-decided ones (``DifferentialPrivacy``, …) the rows LP; (ε, δ)-DP with ``δ > 0`` a hockey-stick LP
        (:mod:`~privgeom.analyses.optimal._optimal_adp`). Others are refused.
    utility : "accuracy", 2-D array-like or dict
        ``U[D, ω]``, rows = datasets (see :func:`~privgeom.analyses.optimal._optimal_lp.utility_matrix`); its
        columns are the outputs of the mechanism.
    prior : None, "uniform", sequence or dict
        ``π`` over the datasets (see :func:`~privgeom.analyses.optimal._optimal_lp.prior_vector`); default uniform.
    max_lp_size : int, optional
        Largest LP (nonzeros + variables, :func:`~privgeom.analyses.optimal._optimal_lp.optimal_lp_size`) to
        build; default :data:`MAX_OPTIMAL_LP_SIZE`. Checked from the sizes before the utility matrix (for
        ``"accuracy"``) or the LP is built; for ``method="symmetric"`` the reduced LP's size.
    method : {"auto", "lp", "explicit", "closed-form", "symmetric"}
        ``"lp"``: the full LP below. ``"explicit"``: finite definitions, the Bayes decision on the best generating
        mechanism (the closure LP's explicit dual, no LP). ``"closed-form"``: k-ary randomized response for accuracy
        under the uniform prior on the complete graph (KOV 2016). ``"symmetric"``: the rows LP reduced by the
        symmetry group of the definition, utility and prior (orbit averaging). ``"auto"`` (default) takes the first
        that applies, in the order explicit, closed form, symmetric, LP. Every route ends in the same exact
        re-verification (:mod:`privgeom.analyses.optimal._optimal_sym`).

    Returns
    -------
    OptimalMechanism
        The mechanism, its value and an :class:`OptimalityCertificate` (exact when the definition, utility and
        prior are rational and the re-verification succeeds; otherwise float with the gap reported).

    Raises
    ------
    InvalidTypeError
        Not a privacy definition, or a definition without an LP formulation here.
    DomainMismatchError, FormatError, InvalidParameterError, SizeLimitError
        Utility or prior that does not fit the datasets; an LP too large to build.

    Notes
    -----
    Sources: Lin & Kifer, Theorem 3.4, Definition 3.5; LP duality; for (ε, δ)-DP Balle, Barthe & Gaboardi 2018,
    Thm. 1. Local DP: see :func:`staircase_optimum` (KOV).

    Examples
    --------
    Guessing one of three values under local DP with ``e^ε = 2``: randomized response is optimal (value
    ``e^ε / (e^ε + 2) = 1/2``); under randomized response on two bits with ``p = 3/4`` the best guess is the
    identity decision (``9/16``).

    >>> from privgeom.definitions import DifferentialPrivacy, RandomizedResponse
    >>> opt = optimal_mechanism(DifferentialPrivacy.complete(3, exp_eps=2), "accuracy")
    >>> [str(v) for v in opt.mechanism.column(0)]
    ['1/2', '1/4', '1/4']
    >>> optimal_mechanism(RandomizedResponse(2, "3/4"), "accuracy").value
    Fraction(9, 16)
    """
    from ..._core.arrays import parse_int

    if not isinstance(definition, PrivacyDefinition):
        raise InvalidTypeError(f"optimal_mechanism takes a privacy definition, got {type(definition).__name__}")
    if method not in OPTIMAL_METHODS:
        raise InvalidParameterError(
            f"unknown optimal_mechanism method {method!r}; choose one of {list(OPTIMAL_METHODS)}"
        )
    limit = (
        current_limit("optimal_lp_size") if max_lp_size is None else parse_int(max_lp_size, name="max_lp_size", min=1)
    )
    inputs = tuple(definition.inputs)
    if isinstance(utility, str) and utility.strip() == "accuracy":  # N outputs: check before building N × N entries
        _check_accuracy_size(definition, method, limit)
    U, outputs = utility_matrix(utility, inputs, exact=None if definition.exact else False)
    pi = prior_vector(prior, inputs, exact=None if U.dtype == object else False)
    exact = definition.exact and U.dtype == object and all(isinstance(v, Fraction) for v in pi)
    problem = _Problem(
        definition=definition,
        C=_cost_matrix(U, pi, exact),
        outputs=outputs,
        exact=exact,
        mechs=generating_mechanisms(definition),
        limit=limit,
    )
    for name in _AUTO_ORDER if method == "auto" else (method,):
        if (found := _OPTIMAL_ROUTES[name](problem)) is not None:
            return found
    if method == "explicit":
        raise InvalidParameterError(f"method='explicit' needs a finite definition; {definition.spec()} is not")
    raise InvalidParameterError(
        f"method={method!r} does not apply to {definition.spec()} with this utility and "
        f"prior ({_ROUTE_NEEDS[method]} needed)"
    )


# ---------------------------------------------------------------------------------------------------- KOV
@dataclass(frozen=True)
class RowUtility:
    """A sublinear utility ``U(M) = Σ_ω μ(M[ω, :])`` (KOV 2016): ``μ`` convex, ``μ(t x) = t μ(x)``; ``exact``: ``μ``
    returns exact Fractions on rational rows."""

    name: str
    mu: Callable[[np.ndarray], Scalar]
    exact: bool

    def of(self, mechanism: Mechanism) -> Scalar:
        """``Σ_ω μ(M[ω, :])``."""
        mat = mechanism.matrix if (self.exact and mechanism.exact) else mechanism.float_matrix()
        return sum((self.mu(row) for row in mat), Fraction(0) if self.exact and mechanism.exact else 0.0)


def bayes_utility(utility: UtilityLike, prior: PriorLike, inputs: Sequence[str]) -> RowUtility:
    """``μ(x) = max_ω Σ_D π(D) U[D, ω] x_D``: expected utility of the best decision on each output (exact).

    Examples
    --------
    >>> bayes_utility("accuracy", None, ["a", "b"]).mu(np.array([Fraction(3, 4), Fraction(1, 4)]))
    Fraction(3, 8)
    """
    U, outs = utility_matrix(utility, inputs)
    pi = prior_vector(prior, inputs, exact=None if U.dtype == object else False)
    exact = U.dtype == object and all(isinstance(v, Fraction) for v in pi)
    C = [[pi[d] * U[d, w] for d in range(len(inputs))] for w in range(len(outs))]

    def mu(x: np.ndarray) -> Scalar:
        return max(sum((c * v for c, v in zip(row, x)), Fraction(0) if exact else 0.0) for row in C)

    return RowUtility(f"bayes({len(outs)} outputs)", mu, exact)


def mutual_information_utility(prior: PriorLike, n: int) -> RowUtility:
    """``μ(x) = Σ_D π(D) x_D ln(x_D / Σ_D' π(D') x_D')``, so ``Σ_ω μ(M[ω, :]) = I(X; M(X))`` in nats (KOV 2016)."""
    pi = np.array([float(v) for v in prior_vector(prior, [str(i) for i in range(n)], exact=False)])

    def mu(x: np.ndarray) -> float:
        xf = np.asarray(x, dtype=float)
        q = float(pi.dot(xf))
        pos = (xf > 0) & (pi > 0)
        return float(np.sum(pi[pos] * xf[pos] * np.log(xf[pos] / q))) if q > 0 else 0.0

    return RowUtility("mutual information", mu, False)


def mutual_information(mechanism: Mechanism, prior: PriorLike = None) -> Quantity:
    """``I(X; M(X))`` in nats for ``X ~ prior`` (default uniform), as a float :class:`~privgeom.Quantity`.

    The objective of Kairouz, Oh and Viswanath (2016, "Extremal mechanisms for local differential privacy").

    Examples
    --------
    >>> mi = mutual_information(Mechanism([[1, 0], [0, 1]]))
    >>> round(float(mi), 6) == round(math.log(2), 6), mi.name, mi.exact
    (True, 'mutual information', False)
    """
    pi = prior_vector(prior, mechanism.inputs, exact=False)
    value = float(mutual_information_utility(pi, mechanism.n_inputs).of(mechanism))
    return Quantity(value=value, name="mutual information", exact=False, detail=f"nats, {mechanism.n_inputs} datasets")


def _ratio(exp_eps: ScalarLike) -> Scalar:
    r = PrivacyLevel.parse(exp_eps=exp_eps).exp_eps
    if not r > 1:
        raise InvalidParameterError(f"staircase patterns need e^ε > 1, got {fraction_str(r)}")
    return r


def staircase_patterns(n: int, exp_eps: ScalarLike) -> np.ndarray:
    """The ``2^n − 2`` staircase patterns ``{1, e^ε}^n`` (constants excluded): the extreme rays of local DP.

    Local DP on ``n`` values is ε-DP on ``K_n``, the cone ``{x : x_i ≤ e^ε x_j for all i ≠ j}``; its extreme
    rays are exactly the non-constant vectors of ``{1, e^ε}^n`` (KOV 2016, staircase patterns; proof in
    :mod:`privgeom.definitions._catalogue`). Row ``s`` has ``e^ε`` where bit ``i`` of ``s`` (most significant
    first) is 1, for ``s = 1 .. 2^n − 2``. Exact when ``exp_eps`` is rational.

    Raises
    ------
    InvalidParameterError
        ``n < 2`` or ``e^ε ≤ 1``.
    SizeLimitError
        ``n > MAX_STAIRCASE_INPUTS``.

    Examples
    --------
    >>> staircase_patterns(2, 3).tolist()
    [[Fraction(1, 1), Fraction(3, 1)], [Fraction(3, 1), Fraction(1, 1)]]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise InvalidParameterError(f"staircase patterns need an integer n >= 2, got {n!r}")
    if n > current_limit("staircase_inputs"):
        raise SizeLimitError(
            f"n = {n} means 2^{n} − 2 staircase patterns; the limit is n = "
            f"{current_limit('staircase_inputs')} "
            f"inputs — {limit_hint('staircase_inputs', n)}"
        )
    r = _ratio(exp_eps)
    one: Scalar = Fraction(1) if isinstance(r, Fraction) else 1.0
    rows = [[r if (s >> (n - 1 - i)) & 1 else one for i in range(n)] for s in range(1, 2**n - 1)]
    return np.array(rows, dtype=object if isinstance(r, Fraction) else float)


def _pattern_label(s: Sequence[Any]) -> str:
    return "".join("1" if v > 1 else "0" for v in s)


def binary_mechanism(n: int | Sequence[Any], exp_eps: ScalarLike, split: Sequence[int] | None = None) -> Mechanism:
    """KOV's binary mechanism: report whether the value is in ``T`` with probability ``e^ε / (1 + e^ε)``.

    Its two rows are the staircase patterns of ``T`` and of its complement divided by ``1 + e^ε``; ``T`` defaults
    to the first ``⌊n/2⌋`` values (a balanced split).

    Examples
    --------
    >>> binary_mechanism(4, 3).matrix.tolist()[0]
    [Fraction(3, 4), Fraction(3, 4), Fraction(1, 4), Fraction(1, 4)]
    """
    labels = [str(i) for i in range(n)] if isinstance(n, (int, np.integer)) else [str(v) for v in n]
    k = len(labels)
    T = set(range(k // 2)) if split is None else {int(i) for i in split}
    if not T or len(T) >= k or not T <= set(range(k)):
        raise InvalidParameterError(f"the split must be a non-empty proper subset of 0..{k - 1}, got {sorted(T)}")
    r = _ratio(exp_eps)
    one: Scalar = Fraction(1) if isinstance(r, Fraction) else 1.0
    top = [(r if i in T else one) / (1 + r) for i in range(k)]
    return Mechanism([top, [1 - v for v in top]], inputs=labels, outputs=["in T", "not in T"])


def staircase_optimum(
    n: int, exp_eps: ScalarLike, utility: RowUtility | UtilityLike = "accuracy", prior: PriorLike = None
) -> StaircaseOptimum:
    """Solve KOV's LP ``max Σ_s θ_s μ(s)`` s.t. ``Σ_s θ_s s = 1``, ``θ ≥ 0`` over the staircase patterns.

    For a sublinear row utility this is the optimum over all ε-locally-DP mechanisms (KOV 2016, the staircase LP:
    every row is a non-negative combination of patterns and ``μ`` is sublinear). Exact when ``e^ε`` is rational and the
    utility is exact (re-verified: a dual ``y`` with ``y·s ≥ μ(s)`` for all ``s`` and ``Σ y`` equal to the value).

    Parameters
    ----------
    n : int
        Number of values (datasets ``"0" .. "n-1"``).
    exp_eps : ScalarLike
        ``e^ε``.
    utility : str, matrix, dict or RowUtility
        ``"mutual-information"`` (``I(X; Y)`` in nats for ``X ~ prior``: KOV's information-preservation problem), or a
        utility as :func:`privgeom.optimal_mechanism` takes it (``"accuracy"``, ``U[D, ω]``, the JSON form), whose
        row utility is the expected utility of the best decision on each output (Bayes); or a row utility built
        already.
    prior : optional
        Prior over the ``n`` values (default uniform), as :func:`privgeom.optimal_mechanism` takes it.

    Examples
    --------
    >>> opt = staircase_optimum(3, 2)
    >>> opt.value, opt.bound, opt.patterns
    (Fraction(1, 2), Fraction(1, 2), ('001', '010', '100'))
    >>> round(float(staircase_optimum(2, 3, "mutual-information").value), 6)  # ln 2 − H(3/4) nats
    0.130812
    """
    if not isinstance(utility, RowUtility):
        if isinstance(utility, str) and utility.strip() == "mutual-information":
            utility = mutual_information_utility(prior, n)
        else:
            utility = bayes_utility(utility, prior, [str(i) for i in range(n)])
    S = staircase_patterns(n, exp_eps)
    r = S.max()
    exact = utility.exact and S.dtype == object
    mus = [utility.mu(s) for s in S]
    eq = [{j: S[j, d] for j in range(len(S))} for d in range(n)]
    lp = _LP(len(S), mus, eq, [1] * n, [], exact, f"staircase LP (n={n})")
    res = lp.solve()
    x = np.clip(np.asarray(res.x), 0, None)
    if res.exact is not None:
        ye = lp.exact_duals(res.exact)[0]
        yss: list[list[Any]] = [[ye], [-ye]]
    else:
        yss = [[np.asarray(res.eq_duals)], [-np.asarray(res.eq_duals)]]
    best: tuple[Any, Any] | None = None
    for ycands in yss:
        for y in ycands:
            deficit = max(
                mu - sum((a * b for a, b in zip(y, s)), Fraction(0) if exact else 0.0) for mu, s in zip(mus, S)
            )
            bnd = sum(y) + max(deficit, 0)  # shifting y by deficit/n repairs every constraint (s ≥ 1 entrywise)
            if best is None or bnd < best[0]:
                best = (bnd, y)
    assert best is not None
    theta: list[Any] = list(x)
    if exact:
        assert res.exact is not None  # _LP raises rather than return no exact optimum for exact inputs
        theta = list(res.exact.x)
        if lp.value(theta) != best[0]:
            raise SolverError(
                f"staircase LP (n={n}): the exact dual bound {fraction_str(best[0])} differs from the "
                f"exact value {fraction_str(lp.value(theta))}"
            )
    value = lp.value(theta) if exact else float(np.dot(x, [float(v) for v in mus]))
    bound = best[0] if exact else float(best[0])
    used = [j for j in range(len(S)) if (theta[j] > 0 if exact else theta[j] > ROUNDOFF)]
    rows = [[theta[j] * v for v in S[j]] for j in used]
    M = Mechanism(rows, inputs=[str(i) for i in range(n)], outputs=[_pattern_label(S[j]) for j in used], exact=exact)
    level = PrivacyLevel.from_exp_eps(r if isinstance(r, Fraction) else float(r))
    return StaircaseOptimum(
        n=n,
        level=level,
        utility=utility.name,
        value=value,
        bound=bound,
        exact=exact,
        theta=tuple(theta[j] for j in used),
        patterns=tuple(_pattern_label(S[j]) for j in used),
        mechanism=M,
    )


class _KOVPoint(NamedTuple):
    """The three utilities of :func:`kov_regimes` at one ε (``optimum`` NaN when the LP was not solved)."""

    binary: float
    rr: float
    optimum: float


def kov_regimes(
    n: int = 4, eps: Sequence[float] | None = None, prior: PriorLike = None, *, tol: float = ATOL
) -> KOVRegimes:
    """KOV's privacy regimes for the utility ``I(X; Y)`` (mutual information, nats), ``X ~ prior`` on ``n`` values.

    Why this utility: KOV's information-preservation problem (KOV 2016). Mutual information is not
    linear in the mechanism, but it is *sublinear* in the rows (``μ`` of :func:`mutual_information_utility` is
    convex and positively homogeneous), so the staircase LP of :func:`staircase_optimum` is its exact optimum over
    all ε-locally-DP mechanisms (KOV 2016, the staircase LP), solved here with HiGHS for each ε. ``binary`` is the best
    binary mechanism over all splits, ``rr`` is ``n``-ary randomized response, ``optimum`` the staircase LP value.

    What is reproduced (and tested): for uniform ``X`` on ``n = 4`` values the binary mechanism is optimal up to
    ε ≈ 0.8221 and randomized response from there on — exactly where the two curves cross; for ``n = 6`` binary is
    optimal for ε ≲ 0.519, randomized response for ε ≳ 1.710, and in between the optimum beats both (KOV's
    intermediate regime, where they "well approximate" it). Caveat found numerically: for odd ``n`` (uniform ``X``)
    no single balanced split exists and the optimum mixes several splits even at small ε, so the high-privacy
    statement is only checked here for even ``n``.

    Examples
    --------
    >>> k = kov_regimes(4, [0.5, 2.0])
    >>> close = lambda a, b: math.isclose(a, b, rel_tol=1e-9)
    >>> round(float(k.crossover), 4), close(k.binary[0], k.optimum[0]), close(k.rr[1], k.optimum[1])
    (0.8221, True, True)
    """
    from ...mechanisms._catalogue import kary_randomized_response

    grid = tuple(float(e) for e in (eps if eps is not None else np.linspace(0.1, 4.0, 40)))
    if not grid or any(not e > 0 for e in grid):
        raise InvalidParameterError(f"kov_regimes needs positive ε values, got {list(grid)[:5]}")
    util = mutual_information_utility(prior, n)
    splits = [T for k in range(1, n // 2 + 1) for T in itertools.combinations(range(n), k)]

    def curves(e: float, lp: bool = True) -> _KOVPoint:
        r = math.exp(e)
        b = max(float(util.of(binary_mechanism(n, r, T))) for T in splits)
        rr = float(util.of(kary_randomized_response(n, exp_eps=r, exact=False)))
        return _KOVPoint(binary=b, rr=rr, optimum=float(staircase_optimum(n, r, util).value) if lp else math.nan)

    def optimal(which: int, e: float) -> bool:  # is curve 0 (binary) / 1 (RR) optimal at ε = e?
        c = curves(e)
        return abs(c[which] - c[2]) <= tol * max(1.0, abs(c[2]))

    def bisect(lo: float, hi: float, pred: Callable[[float], bool]) -> float:  # pred(lo) True, pred(hi) False
        for _ in range(40):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if pred(mid) else (lo, mid)
        return (lo + hi) / 2

    B, R, O = zip(*(curves(e) for e in grid))
    b_ok = [abs(b - o) <= tol * max(1.0, abs(o)) for b, o in zip(B, O)]
    r_ok = [abs(rr - o) <= tol * max(1.0, abs(o)) for rr, o in zip(R, O)]
    b_up = r_from = cross = None
    if b_ok[0]:
        i = b_ok.index(False) if False in b_ok else len(grid)
        b_up = grid[-1] if i == len(grid) else bisect(grid[i - 1], grid[i], lambda e: optimal(0, e))
    if r_ok[-1]:
        i = max((j for j in range(len(grid)) if not r_ok[j]), default=-1)
        r_from = grid[0] if i < 0 else bisect(grid[i], grid[i + 1], lambda e: not optimal(1, e))
    for i in range(len(grid) - 1):
        if B[i] > R[i] and B[i + 1] <= R[i + 1]:
            cross = bisect(grid[i], grid[i + 1], lambda e: (lambda c: c[0] > c[1])(curves(e, lp=False)))
            break
    fmt = lambda v: "—" if v is None else f"{v:.4f}"  # noqa: E731
    text = (
        f"local DP on {n} values, utility I(X; Y) (nats), X {'uniform' if prior is None else 'with the given prior'}:"
        f" binary optimal for ε ≤ {fmt(b_up)}, randomized response optimal for ε ≥ {fmt(r_from)}; the curves "
        f"cross at ε = {fmt(cross)}"
    )
    level = lambda v: None if v is None else PrivacyLevel.from_eps(float(v))  # noqa: E731
    return KOVRegimes(
        n=n,
        utility="mutual information",
        eps_grid=grid,
        binary=B,
        rr=R,
        optimum=O,
        crossover=level(cross),
        binary_optimal_up_to=level(b_up),
        rr_optimal_from=level(r_from),
        text=text,
    )
