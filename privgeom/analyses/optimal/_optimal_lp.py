"""The optimal-mechanism problem and its full LP: utility and prior, the LP size, the rows and closure LPs.

Expected utility of a mechanism ``M`` for a utility ``U[D, ω]`` (datasets × outputs) and a prior ``π`` over the
datasets is ``Σ_D π(D) Σ_ω U[D, ω] M[ω, D] = ⟨C, M⟩`` with ``C[ω, D] = π(D) U[D, ω]``: linear in ``M``. Two LPs here
(the ``"lp"`` route of :func:`~privgeom.analyses.optimal._optimal.optimal_mechanism`), and one for (ε, δ)-DP with
δ > 0 in :mod:`privgeom.analyses.optimal._optimal_adp`:

* **rows** — definitions whose closure is decided by their row cone (ε-DP, Pufferfish, …; Lin & Kifer,
  Definition 3.5): the variables are ``M`` itself, every row must satisfy the row cone's H-representation
  (``a·M[ω, :] ≥ 0``, ``e·M[ω, :] = 0``; for ε-DP ``x_i ≤ e^ε x_j`` per edge) and every column sums to 1. Any
  ``z ≥ 0`` (one weight per output and facet) and ``w`` give the upper bound
  ``⟨C, M⟩ ≤ Σ_D max_ω (C + zA + wE)[ω, D]`` for every member ``M`` (weak duality); for rational inputs privgeom
  recovers the exact vertex and duals from HiGHS's optimal basis (docs/theory.md, "Exact optima from the optimal
  basis"; cdd's exact simplex as the fallback), takes the bound from those exact duals, and checks that it equals
  the value of the returned mechanism. No float is ever rounded into an "exact" answer.
* **closure** — finite definitions ``{M_1..M_J}``, through the parametrisation of Theorem 3.4:
  ``M = Σ_j B_j M_j`` with ``B_j ≥ 0``, ``1ᵀ B_j = λ_j 1ᵀ``, ``Σ_j λ_j = 1``. Its dual optimum is explicit:
  ``max_j Σ_o max_ω (C M_jᵀ)[ω, o]`` (each column of ``A_j = B_j / λ_j`` is a probability vector), which is the
  certificate; it is attained by a deterministic post-processing of the best ``M_j`` (a Bayes decision rule).

Examples
--------
>>> from privgeom.definitions import DifferentialPrivacy
>>> optimal_lp_size(DifferentialPrivacy.complete(3, exp_eps=2), 3).formulation
'rows'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence, TypeAlias

import numpy as np

from ..._core.errors import DomainMismatchError, FormatError, InvalidParameterError, InvalidTypeError, SizeLimitError
from ..._core.level import ScalarLike
from ..._core.arrays import ATOL, MatrixLike, readonly, VectorLike
from ..._core.hints import limit_hint
from ..._core.numbers import fraction_str, is_exact_scalar, parse_scalar, Scalar
from ...definitions import PrivacyDefinition
from ...definitions._generating import generating_mechanisms
from ...mechanisms import Mechanism
from ._optimal_adp import _LP, _closure_constraints, _finish, _rows_constraints, special_lp, special_lp_size
from ._results import LPSize, OptimalMechanism

__all__ = ["PriorLike", "UtilityLike", "prior_vector", "utility_matrix", "optimal_lp_size"]

#: Relative difference between HiGHS's value of the closure LP and its explicit optimum above which the
#: difference is reported in the result's detail.
_CLOSURE_VALUE_RTOL = 1e-7


# ---------------------------------------------------------------------------------------------------- inputs
#: A prior over the datasets as ``prior=`` accepts it: ``None`` or ``"uniform"``, the probabilities in the datasets'
#: order, or a ``{label: probability}`` dict (labels left out get 0).
PriorLike: TypeAlias = str | VectorLike | dict[str, ScalarLike] | None
#: A utility as ``utility=`` accepts it: ``"accuracy"``, a matrix ``U[D, ω]`` (rows = datasets) or the JSON form
#: ``{"matrix": rows, "outputs": [...], "inputs": [...]}`` of ``privgeom optimal --utility``.
UtilityLike: TypeAlias = str | MatrixLike | dict[str, Any]


def prior_vector(prior: PriorLike, inputs: Sequence[str], *, exact: bool | None = None) -> list[Scalar]:
    """A probability vector over ``inputs`` from ``None``/``"uniform"``, a sequence or a ``{label: p}`` dict.

    Examples
    --------
    >>> prior_vector("uniform", ["a", "b"]), prior_vector({"a": "1/3", "b": "2/3"}, ["a", "b"])
    ([Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 3), Fraction(2, 3)])
    """
    n = len(inputs)
    if prior is None or (isinstance(prior, str) and prior.strip() == "uniform"):
        return [Fraction(1, n) if exact is not False else 1.0 / n] * n
    if isinstance(prior, dict):
        unknown = [k for k in prior if str(k) not in inputs]
        if unknown:
            raise DomainMismatchError(f"prior mentions unknown datasets {unknown[:5]}; datasets: {list(inputs)[:8]}")
        prior = [prior.get(d, 0) for d in inputs]
    if isinstance(prior, str) or not isinstance(prior, (Sequence, np.ndarray)):
        raise InvalidTypeError(f"a prior is 'uniform', a list of probabilities or a dict, got {prior!r}")
    if len(prior) != n:
        raise DomainMismatchError(f"the prior {list(prior)[:8]!r:.120} has {len(prior)} entries for {n} datasets")
    if exact is None:
        exact = all(is_exact_scalar(v) for v in prior)
    vals: list[Scalar] = [parse_scalar(v, name="prior probability", exact=exact) for v in prior]
    if any(v < 0 for v in vals):
        raise InvalidParameterError(f"prior probabilities must be >= 0, got {[fraction_str(v) for v in vals]}")
    total = sum(vals)
    if (exact and total != 1) or (not exact and abs(float(total) - 1.0) > ATOL * n):
        raise InvalidParameterError(f"prior probabilities must sum to 1, got {fraction_str(total)}")
    return vals


def utility_matrix(
    utility: UtilityLike, inputs: Sequence[str], *, exact: bool | None = None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Parse a utility into ``(U, outputs)`` with ``U[D, ω]`` (rows = datasets in ``inputs`` order).

    Accepted: ``"accuracy"`` (``U[D, ω] = 1`` iff ``ω = D``: guess the dataset), a 2-D array-like (rows =
    datasets; outputs ``o0, o1, …``) or a dict ``{"matrix": rows, "outputs": [...], "inputs": [...]}`` (the JSON
    format of ``privgeom optimal --utility``; ``inputs`` may list the datasets in another order).

    Examples
    --------
    >>> U, outs = utility_matrix({"matrix": [[1, 0], [0, "1/2"]], "outputs": ["y", "n"]}, ["a", "b"])
    >>> U.tolist(), outs
    ([[Fraction(1, 1), Fraction(0, 1)], [Fraction(0, 1), Fraction(1, 2)]], ('y', 'n'))
    """
    n = len(inputs)
    outputs: Sequence[Any] | None = None
    rows_labels: Sequence[Any] | None = None
    if isinstance(utility, str):
        if utility.strip() != "accuracy":
            raise InvalidParameterError(f"unknown named utility {utility!r}; use 'accuracy', a matrix or a dict")
        one, zero = (Fraction(1), Fraction(0)) if exact is not False else (1.0, 0.0)
        eye = np.empty((n, n), dtype=object if exact is not False else float)
        eye[:] = zero
        eye[np.arange(n), np.arange(n)] = one
        return readonly(eye), tuple(str(s) for s in inputs)  # already parsed: no per-entry work
    elif isinstance(utility, dict):
        if "matrix" not in utility:
            raise FormatError("a utility dict needs a 'matrix' field (rows = datasets, columns = outputs)")
        unknown = set(utility) - {"matrix", "outputs", "inputs", "privgeom", "version"}
        if unknown:
            raise FormatError(f"unknown fields in utility: {sorted(unknown)}")
        mat, outputs, rows_labels = utility["matrix"], utility.get("outputs"), utility.get("inputs")
    else:
        mat = utility
    try:
        arr = np.array(mat, dtype=object)
    except (ValueError, TypeError):
        raise FormatError("the utility matrix must be a rectangular 2-D list of numbers") from None
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise FormatError(
            f"the utility must be a rectangular, non-empty 2-D matrix (rows = datasets, columns = "
            f"outputs), got shape {arr.shape}"
        )
    if rows_labels is not None:
        rows_labels = [str(s) for s in rows_labels]
        if sorted(rows_labels) != sorted(inputs) or len(rows_labels) != arr.shape[0]:
            raise DomainMismatchError(f"utility inputs {rows_labels[:8]} are not the datasets {list(inputs)[:8]}")
        arr = arr[[rows_labels.index(d) for d in inputs]]
    if arr.shape[0] != n:
        raise DomainMismatchError(f"the utility has {arr.shape[0]} rows but there are {n} datasets (rows = datasets)")
    flat = list(arr.ravel())
    if exact is None:
        exact = all(is_exact_scalar(v) for v in flat)
    vals = [parse_scalar(v, name="utility entry", exact=exact) for v in flat]
    U = np.array(vals, dtype=object if exact else float).reshape(arr.shape)
    outs = tuple(str(o) for o in outputs) if outputs is not None else tuple(f"o{j}" for j in range(arr.shape[1]))
    if len(outs) != arr.shape[1] or len(set(outs)) != len(outs):
        raise FormatError(
            f"{len(outs)} distinct output labels needed for {arr.shape[1]} utility columns, got {list(outs)[:8]}"
        )
    return U, outs


# ---------------------------------------------------------------------------------------------------- LP size
def optimal_lp_size(definition: PrivacyDefinition, n_outputs: int) -> LPSize:
    """The LP :func:`~privgeom.analyses.optimal._optimal.optimal_mechanism` would build for ``n_outputs`` outputs
    (the utility's columns), from sizes only.

    * closure LP (finite ``{M_1..M_J}`` with ``o_j`` outputs): ``m Σ o_j + J`` variables, ``Σ o_j + 1`` equalities;
    * rows LP: ``m N`` variables, one row per output and facet (``2`` nonzeros per facet of a difference cone such as
      ε-DP, else up to ``N``), ``N`` column sums, the equalities;
    * a special LP (e.g. the hockey-stick LP of (ε, δ)-DP): its registered estimate (``special_lp_size``).

    The row cone is asked only for its facet count, which structured cones (ε-DP) know without building anything.
    """
    m, N = int(n_outputs), len(definition.inputs)
    mechs = generating_mechanisms(definition)
    if mechs is not None:
        O, J = sum(M.n_outputs for M in mechs), len(mechs)
        return LPSize(formulation="closure", variables=m * O + J, constraints=O + 1, nonzeros=m * O + O + J)
    if definition.row_cone_decides_closure:
        cone = definition.row_cone()
        st = cone.structure
        nf = cone.n_facets
        per = 2 if st is not None and st.kind == "difference" else N
        n_eq = 0 if st is not None and st.kind == "difference" else len(cone.equalities)
        return LPSize(
            formulation="rows",
            variables=m * N,
            constraints=m * nf + N + m * n_eq,
            nonzeros=m * nf * per + m * N + m * n_eq * N,
        )
    special = special_lp_size(definition, m)
    if special is not None:
        return LPSize(formulation="dedicated", **special._asdict())
    raise InvalidTypeError(
        f"optimal_mechanism: {definition.spec()} is neither finite nor decided by its row cone, "
        "and privgeom has no other LP over its closure"
    )


def _cost_matrix(U: np.ndarray, pi: Sequence[Any], exact: bool) -> np.ndarray:
    """``C[ω, D] = π(D) U[D, ω]``, multiplying only the non-zero utilities (accuracy has ``N`` of ``N²``)."""
    if not exact:
        return np.asarray(U, dtype=float).T * np.array([float(v) for v in pi])[None, :]
    Ut = np.asarray(U, dtype=object).T
    C = np.empty(Ut.shape, dtype=object)
    C[:] = Fraction(0)
    rows, cols = np.nonzero(Ut != 0)
    if len(rows):
        C[rows, cols] = [Fraction(pi[d]) * Ut[w, d] for w, d in zip(rows.tolist(), cols.tolist())]
    return C


def _refuse_lp(definition: PrivacyDefinition, est: LPSize, limit: int, context: str = "") -> None:
    """Refuse the LP of estimated size ``est`` when ``est.size`` exceeds ``limit`` (``context``: e.g. the outputs)."""
    if est.size > limit:
        spec = definition.spec()
        what = spec if len(spec) <= 80 else definition.name
        raise SizeLimitError(
            f"optimal_mechanism: the {est.formulation} LP for {what}{context} would have {est.variables:,} variables, "
            f"{est.constraints:,} constraints and {est.nonzeros:,} nonzeros (size {est.size:,} = nonzeros + "
            f"variables), more than the limit {limit:,}; refused before building it — "
            f"{limit_hint('optimal_lp_size', est.size, keyword='max_lp_size')}"
        )


def _check_lp_size(definition: PrivacyDefinition, n_outputs: int, limit: int) -> None:
    _refuse_lp(definition, optimal_lp_size(definition, n_outputs), limit, f" with {n_outputs:,} outputs")


# ---------------------------------------------------------------------------------------------------- rows LP
def _rows_lp(definition: PrivacyDefinition, C: np.ndarray, outputs: tuple[str, ...], exact: bool) -> OptimalMechanism:
    m, N = C.shape
    model = _rows_constraints(definition, m, exact)
    exact = model.exact
    F, E = model.data["F"], model.data["E"]
    lp = _LP.of(
        model, model.objective(C if exact else np.asarray(C, dtype=float)), f"optimal mechanism for {definition.spec()}"
    )
    res = lp.solve()

    def bound_of(z: np.ndarray, w: np.ndarray) -> tuple[Any, list[Any]]:
        zz = z.reshape(m, len(F)) if len(F) else np.zeros((m, 0), dtype=z.dtype)
        ww = w.reshape(m, len(E)) if len(E) else np.zeros((m, 0), dtype=w.dtype)
        G = C + zz.dot(F) + ww.dot(E) if len(E) else C + zz.dot(F)
        y = [max(G[:, d]) for d in range(N)]
        return sum(y), y

    cands = []
    if res.exact is not None:  # the exact duals of the optimal basis: z = −(ub duals), w = ±(facet-equality duals)
        y_eq, y_ub = lp.exact_duals(res.exact)
        for sz, sw in itertools.product((-1, 1), (1, -1)):
            zc = np.array([max(sz * v, Fraction(0)) for v in y_ub], dtype=object)
            cands.append((*bound_of(zc, np.array([sw * v for v in y_eq[N:]], dtype=object)), zc, sw * y_eq[N:]))
    else:
        nu = -np.asarray(res.ub_duals if res.ub_duals is not None else np.zeros(0))
        mu = np.asarray(res.eq_duals)[N:] if res.eq_duals is not None else np.zeros(0)
        for sz, sw in itertools.product((1, -1), (1, -1)):  # any z ≥ 0 and w give a valid bound: keep the best
            zf = np.clip(sz * nu, 0, None)
            cands.append((*bound_of(zf, sw * mu), zf, sw * mu))
    bound, y, z, w = min(cands, key=lambda t: t[0])
    detail = (
        f"rows LP: HiGHS dual simplex; bound Σ_D max_ω (C + zA + wE)[ω, D] from its {'exact ' if exact else ''}duals"
    )
    if res.exact is not None:
        M = Mechanism(model.mechanism_matrix(res.exact.x), definition.inputs, outputs, exact=True)
        return _finish(definition, M, C, bound, True, "rows", {"z": z, "w": w, "y": y}, f"{detail}; {res.note}")
    x = np.clip(np.asarray(res.x), 0, None)
    M = Mechanism(x.reshape(m, N), definition.inputs, outputs, exact=False)
    return _finish(
        definition, M, np.asarray(C, dtype=float), float(bound), False, "rows", {"z": z, "w": w, "y": y}, detail
    )


# ---------------------------------------------------------------------------------------------------- closure LP
def _closure_lp(
    definition: PrivacyDefinition, mechs: Sequence[Mechanism], C: np.ndarray, outputs: tuple[str, ...], exact: bool
) -> OptimalMechanism:
    m = C.shape[0]
    model = _closure_constraints(definition, mechs, m, exact)
    exact = model.exact
    mats, offsets = model.data["mats"], model.data["offsets"]
    Cx = C if exact else np.asarray(C, dtype=float)
    Gs = [Cx.dot(Mj.T) for Mj in mats]  # G_j[ω, o] = Σ_D C[ω, D] M_j[o, D]
    n = model.n
    c: list[Any] = [v for G in Gs for v in G.ravel()] + [0] * len(mats)  # = model.objective(Cx), computed directly
    lp = _LP.of(model, c, f"optimal mechanism for {definition.spec()}")
    res = lp.solve()
    u = [[max(G[:, o]) for o in range(G.shape[1])] for G in Gs]
    totals = [sum(uj) for uj in u]
    t = max(totals)
    jstar = int(np.argmax([float(v) for v in totals])) if not exact else totals.index(t)
    detail = "closure LP (Theorem 3.4): HiGHS value confirmed by the explicit dual t = max_j Σ_o max_ω (C M_jᵀ)[ω, o]"
    if res.exact is not None and res.exact.value == -t:
        vec = np.array(res.exact.x, dtype=object)
        detail += f"; {res.note}"
    else:
        vec = np.zeros(n, dtype=object if exact else float)  # the Bayes decision rule on the best M_j
        G = Gs[jstar]
        for o in range(G.shape[1]):
            col = [G[w, o] for w in range(m)]
            vec[offsets[jstar] + col.index(max(col)) * G.shape[1] + o] = 1
        detail += "; primal built from the dual (deterministic Bayes decision on the best M_j)"
        if abs(float(res.fun) - float(t)) > _CLOSURE_VALUE_RTOL * max(1.0, abs(float(t))):
            detail += f"; HiGHS value {res.fun!r} differs from the explicit optimum"
    acc = sum(vec[offsets[j] : offsets[j + 1]].reshape(m, -1).dot(Mj) for j, Mj in enumerate(mats))  # Σ_j B_j M_j
    M = Mechanism(acc, definition.inputs, outputs, exact=exact)
    return _finish(definition, M, Cx, t, exact, "closure", {"u": u, "t": t}, detail)


@dataclass(frozen=True)
class _Problem:
    """What every route of :func:`~privgeom.analyses.optimal._optimal.optimal_mechanism` gets: the definition, the
    gain matrix ``C[ω, D] = π(D) U[D, ω]``, the outputs, the mode, the generating mechanisms (None unless the
    definition is finite) and the LP size limit."""

    definition: PrivacyDefinition
    C: np.ndarray
    outputs: tuple[str, ...]
    exact: bool
    mechs: Sequence[Mechanism] | None
    limit: int


def _route_lp(p: _Problem) -> OptimalMechanism:
    """The full LP, for every definition with a linear description of its closure: the closure LP (finite, Lin &
    Kifer Theorem 3.4), the rows LP (decided by its row cone, Definition 3.5) or a registered special LP ((ε, δ)-DP,
    Balle, Barthe & Gaboardi 2018, Thm. 1). Size-checked (:func:`optimal_lp_size`) before it is built."""
    definition = p.definition
    _check_lp_size(definition, len(p.outputs), p.limit)
    if p.mechs is not None:
        return _closure_lp(definition, p.mechs, p.C, p.outputs, p.exact)
    if definition.row_cone_decides_closure:
        return _rows_lp(definition, p.C, p.outputs, p.exact)
    if (special := special_lp(definition)) is not None:
        return special(definition, p.C, p.outputs, p.exact)
    raise InvalidTypeError(
        f"optimal_mechanism: {definition.spec()} is neither finite nor decided by its row cone, "
        "and privgeom has no other LP over its closure"
    )
