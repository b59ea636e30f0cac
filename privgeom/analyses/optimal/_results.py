"""The result types of the optimal-mechanism analyses, shared by every route (``docs/theory.md`` §14, §16).

:class:`OptimalMechanism` with its :class:`OptimalityCertificate` (every LP and closed-form route of
:func:`~privgeom.analyses.optimal_mechanism`), :class:`LPSize` (the LP an optimisation would build),
:class:`StaircaseOptimum` and :class:`KOVRegimes` (local DP after Kairouz, Oh & Viswanath).

Examples
--------
>>> LPSize(formulation="rows", variables=9, constraints=15, nonzeros=33).size
42
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ..._core.level import PrivacyLevel
from ..._core.numbers import fraction_str, Scalar
from ..._core.numbers import number_text
from ..._core.results import Result
from ...definitions import Membership
from ...mechanisms import Mechanism

__all__ = ["OptimalityCertificate", "OptimalMechanism", "LPDims", "LPSize", "StaircaseOptimum", "KOVRegimes"]


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
            return (
                f"NOT certified: dual bound {fraction_str(self.bound)}, value {fraction_str(self.value)}; {self.detail}"
            )
        how = (
            "exactly (rational arithmetic)"
            if self.exact
            else f"in float (gap {number_text(float(self.gap), digits=3)}, tolerance {number_text(self.tolerance)})"
        )
        return f"optimal: dual bound {fraction_str(self.bound)} = value {fraction_str(self.value)}, verified {how}; {self.detail}"


@dataclass(frozen=True)
class OptimalMechanism(Result):
    """Result of :func:`optimal_mechanism`: an optimal ``mechanism`` (outputs = the utility's outputs), its expected
    utility ``value`` (``Σ_D π(D) Σ_ω U[D, ω] M[ω, D]``), ``exact`` (certified in rational arithmetic), the
    ``formulation`` (``"rows"``, ``"closure"`` or ``"hockey-stick"``), the definition's spec, the
    :class:`OptimalityCertificate` and ``membership``: ``definition.contains(mechanism)``, an independent re-check.
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "expected utility under the prior (or nats for objective='information')"

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


class LPDims(NamedTuple):
    """The three sizes of an LP, as a registered size estimate (:func:`special_lp_size`) or the symmetry-reduced LP
    reports them before anything is built."""

    variables: int
    constraints: int
    nonzeros: int


@dataclass(frozen=True)
class LPSize(Result):
    """Size of an optimal-mechanism LP, estimated from the definition and the number of outputs before building it.

    ``size = nonzeros + variables`` is what :data:`MAX_OPTIMAL_LP_SIZE` limits.

    Examples
    --------
    >>> LPSize(formulation="rows", variables=9, constraints=15, nonzeros=33).summary()
    'rows LP: 9 variables, 15 constraints, 33 nonzeros (size 42)'
    """

    formulation: str
    variables: int
    constraints: int
    nonzeros: int

    @property
    def size(self) -> int:
        """``nonzeros + variables``."""
        return self.nonzeros + self.variables

    def summary(self) -> str:
        return (
            f"{self.formulation} LP: {self.variables:,} variables, {self.constraints:,} constraints, "
            f"{self.nonzeros:,} nonzeros (size {self.size:,})"
        )


@dataclass(frozen=True)
class StaircaseOptimum(Result):
    """Result of :func:`staircase_optimum`: the optimal staircase mechanism of local DP for a row utility.

    ``patterns`` are the patterns with ``θ_s > 0``, ``mechanism`` has rows ``θ_s s`` (output label: the pattern
    as a bit string, 1 = ``e^ε``), ``value = Σ θ_s μ(s)``; ``bound`` is a dual bound ``Σ_D y_D`` with
    ``y·s ≥ μ(s)`` for every pattern, so ``value ≤ optimum ≤ bound``. ``level`` is the local-DP level (``e^ε``
    of the patterns).
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "expected utility under the prior"

    n: int
    level: PrivacyLevel
    utility: str
    value: Scalar
    bound: Scalar
    exact: bool
    theta: tuple[Scalar, ...]
    patterns: tuple[str, ...]
    mechanism: Mechanism

    def summary(self) -> str:
        return (
            f"staircase optimum ({self.utility}, n={self.n}, e^ε={fraction_str(self.level.exp_eps)}): value "
            f"{fraction_str(self.value)} (dual bound {fraction_str(self.bound)}) with patterns "
            f"{', '.join(self.patterns)}"
        )


@dataclass(frozen=True)
class KOVRegimes(Result):
    """Utility of the binary mechanism, k-ary randomized response and the staircase optimum over a grid of ε.

    ``binary_optimal_up_to``: the largest ε (bisected between grid points) up to which the best binary
    mechanism attains the optimum; ``rr_optimal_from``: the smallest ε from which randomized response does;
    ``crossover``: where the binary and RR curves cross (``None`` when they do not cross on the grid). The three
    are float :class:`~privgeom.PrivacyLevel` values; ``eps_grid`` is the grid of ε (floats) the curves are sampled on.
    """

    n: int
    utility: str
    eps_grid: tuple[float, ...]
    binary: tuple[float, ...]
    rr: tuple[float, ...]
    optimum: tuple[float, ...]
    crossover: PrivacyLevel | None
    binary_optimal_up_to: PrivacyLevel | None
    rr_optimal_from: PrivacyLevel | None
    text: str

    @property
    def exact(self) -> bool:
        """False: the utilities compared (mutual information) are floats."""
        return False

    def summary(self) -> str:
        return self.text
