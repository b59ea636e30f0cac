"""The smallest mixing weight that repairs a mechanism: ``(1 − t) M + t U`` in the closure, in closed form.

For a definition whose closure is cut out row by row by linear inequalities ``a · x ≥ 0`` (ε-DP: ``e^ε x_j − x_i ≥ 0``
on every directed edge, Lin & Kifer §V; randomized response: the facets of Theorem 4.3; any definition whose row
cone decides the closure: its facets), mixing is linear in ``t`` on every row ``o`` and inequality ``a``:

    a · ((1 − t) M[o, :] + t U[o, :]) = g_M + t (g_U − g_M),    g_M = a · M[o, :],  g_U = a · U[o, :].

So each inequality holds on an interval of ``t``: for ``g_M < 0`` it needs ``t ≥ g_M / (g_M − g_U)`` (possible only
when ``g_U > g_M``), for ``g_M ≥ 0 > g_U`` it needs ``t ≤ g_M / (g_M − g_U)``. The smallest weight is the largest
lower bound, provided it is below every upper bound and 1; it is exact (a Fraction) in exact mode. Non-negativity
and column sums are kept by mixing two mechanisms, so nothing else can fail. ``U`` defaults to the uniform
mechanism ``U[o, i] = 1/n_out`` on the outputs of ``M`` (a member of every ε-DP definition).

Examples
--------
>>> from privgeom import Mechanism
>>> from privgeom.definitions import DifferentialPrivacy
>>> dp = DifferentialPrivacy.path(1, exp_eps=3)            # two datasets, e^ε = 3
>>> th = mixing_threshold(dp, Mechanism([["9/10", "1/10"], ["1/10", "9/10"]], inputs=dp.inputs))
>>> th.t, th.membership.member   # row 0: 9/10 − 4t/10 ≤ 3·(1/10 + 4t/10)  ⟺  6/10 ≤ 16t/10  ⟺  t ≥ 3/8
(Fraction(3, 8), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from .._core.errors import InvalidParameterError, SolverError
from .._core.arrays import ATOL
from .._core.numbers import fraction_str, Scalar
from .._core.numbers import number_text
from .._core.results import Result
from ..mechanisms import Mechanism
from ._base import Membership, PrivacyDefinition
from ._nearest import closure_description
from ._rows import format_inequality

__all__ = ["MixingThreshold", "mixing_threshold"]


@dataclass(frozen=True)
class MixingThreshold(Result):
    """The smallest ``t ∈ [0, 1]`` with ``(1 − t) M + t U`` in the closure.

    Attributes
    ----------
    t : Fraction, float or None
        The smallest weight (None when no ``t ∈ [0, 1]`` works, possible only when ``U`` is not a member).
    mechanism : Mechanism or None
        ``(1 − t) M + t U``.
    exact : bool
    binding : str
        The inequality (and row) that sets ``t``: it holds with equality at ``t``.
    upper : Fraction, float or None
        The largest weight ``≤ 1`` that still works (1 when ``U`` is a member).
    membership : Membership or None
        The verified membership of the mixed mechanism.
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "mixing weight: t in [0, 1] of (1 − t) M + t U"

    t: Scalar | None
    mechanism: Mechanism | None
    exact: bool
    binding: str
    upper: Scalar | None
    membership: Membership | None
    detail: str = ""

    @property
    def value(self) -> Scalar | None:
        """The one number this result answers (the threshold t): the name every one-number result answers
        with; ``.t`` is the same value under its domain name, :attr:`unit` says what it measures."""
        return self.t

    def summary(self) -> str:
        if self.t is None:
            return f"no mixing weight in [0, 1] makes the mechanism a member ({self.detail})"
        t = number_text(self.t if self.exact else float(self.t))
        return f"smallest mixing weight t = {t}: (1 − t)·M + t·U is a member; binding: {self.binding}"


def uniform_mechanism(M: Mechanism, exact: bool) -> Mechanism:
    """``U[o, i] = 1 / n_out`` on the outputs and inputs of ``M``."""
    n = M.n_outputs
    val: Any = Fraction(1, n) if exact else 1.0 / n
    U = np.empty(M.shape, dtype=object if exact else float)
    U[...] = val
    return Mechanism(U, inputs=M.inputs, outputs=M.outputs, exact=exact)


def mixing_threshold(
    definition: PrivacyDefinition, mechanism: Mechanism, U: Mechanism | None = None, *, atol: float | None = None
) -> MixingThreshold:
    """The smallest ``t`` with ``(1 − t)·mechanism + t·U`` in ``definition``'s closure (module docstring).

    Parameters
    ----------
    definition : PrivacyDefinition
        ε-DP, randomized response, or any definition whose row cone decides its closure.
    mechanism : Mechanism
    U : Mechanism, optional
        Same inputs and outputs as ``mechanism``; default the uniform mechanism.
    atol : float, optional
        Float-mode tolerance of the membership check.

    Raises
    ------
    InvalidParameterError
        A finite definition whose row cone does not decide its closure (no row inequalities), or ``U`` on other
        outputs.
    SolverError
        The mixed mechanism failed its membership check (a bug: the closed form is exact).

    Examples
    --------
    >>> import privgeom as pg
    >>> pg.mixing_threshold(pg.RandomizedResponse(1, "3/4"), pg.randomized_response(1, "4/5")).t
    Fraction(1, 6)
    """
    M = definition.check_mechanism(mechanism)
    tol = ATOL if atol is None else float(atol)
    exact = bool(definition.exact and M.exact and (U is None or U.exact))
    if U is None:
        U = uniform_mechanism(M, exact)
    U = definition.check_mechanism(U)
    if U.outputs != M.outputs:
        raise InvalidParameterError(f"U has outputs {list(U.outputs)[:8]}, the mechanism has {list(M.outputs)[:8]}")
    desc = closure_description(definition, exact)
    if desc.kind != "rows" or desc.inequalities is None:
        raise InvalidParameterError(
            f"{definition.name}: mixing_threshold needs a definition whose closure is given by "
            "row inequalities (ε-DP, randomized response, a row cone that decides the closure)"
        )
    X = M.matrix if exact else M.float_matrix()
    Y = U.matrix if exact else U.float_matrix()
    A = desc.inequalities
    if desc.equalities is not None and desc.equalities.shape[0]:
        A = np.vstack([A, desc.equalities, -desc.equalities])
    gM = X.dot(A.T)  # (n_out, n_ineq)
    gU = Y.dot(A.T)
    zero: Any = Fraction(0) if exact else 0.0
    one: Any = Fraction(1) if exact else 1.0
    eps = 0 if exact else tol
    low, high = zero, one
    low_at = high_at = None
    for (o, q), g in np.ndenumerate(gM):
        h = gU[o, q]
        if g < -eps:
            if not h > g:
                return MixingThreshold(
                    t=None,
                    mechanism=None,
                    exact=exact,
                    binding=_text(A[q], M, o),
                    upper=None,
                    membership=None,
                    detail=f"row {M.outputs[o]!r} violates {format_inequality(A[q], M.inputs)} for every t",
                )
            bound = g / (g - h)
            if bound > low:
                low, low_at = bound, (o, q)
        elif h < -eps:
            bound = g / (g - h)
            if bound < high:
                high, high_at = bound, (o, q)
    if low > high:
        o, q = high_at if high_at is not None else (0, 0)
        return MixingThreshold(
            t=None,
            mechanism=None,
            exact=exact,
            binding=_text(A[q], M, o),
            upper=high,
            membership=None,
            detail=f"t ≥ {fraction_str(low)} is needed, but t ≤ {fraction_str(high)} keeps "
            f"{format_inequality(A[q], M.inputs)} on row {M.outputs[o]!r}",
        )
    t = low
    mixed_matrix = (1 - t) * X + t * Y
    if not exact:
        mixed_matrix = np.clip(mixed_matrix, 0.0, None)
    mixed = Mechanism(mixed_matrix, inputs=M.inputs, outputs=M.outputs, exact=exact, atol=tol)
    ans = definition.contains(mixed, atol=tol)
    if not ans.member:
        raise SolverError(f"{definition.name}: the mixture at t = {fraction_str(t)} failed its membership check")
    binding = "none (the mechanism is already a member)" if low_at is None else _text(A[low_at[1]], M, low_at[0])
    if exact and low_at is not None:
        o, q = low_at
        assert mixed.matrix[o].dot(A[q]) == 0  # tight at t: no smaller weight works
    return MixingThreshold(
        t=t,
        mechanism=mixed,
        exact=exact,
        binding=binding,
        upper=high,
        membership=ans,
        detail=f"closed form over {gM.size} (row, inequality) pairs",
    )


def _text(a: np.ndarray, M: Mechanism, o: int) -> str:
    return f"{format_inequality(a, M.inputs)} on row {M.outputs[o]!r}"
