"""How much utility a local-DP protocol gives up against the best ε-LDP mechanism at its own ε.

A protocol ``M`` on ``d`` values is ε-locally DP with ε its exact ``pg.epsilon(M, "complete")`` (``docs/theory.md``
§12). Every mechanism an analyst can build from its reports is in the consistent closure of ``{M}`` (Lin & Kifer,
Theorem 3.4), which lies inside ε-DP on the complete graph; so the best expected utility over the closure is at most
the best over ε-LDP, and :func:`ldp_utility_gap` returns both optima (two :func:`~privgeom.optimal_mechanism` LPs,
exact with certificates for rational inputs) and their difference.

For ``utility="accuracy"`` and a uniform prior both optima have closed forms: the closure's is the MAP decoder's
``(1/d) Σ_y max_x M[y, x]`` (the post-processing that guesses the likeliest value of each report), and the ε-LDP
optimum is k-ary randomized response's ``e^ε / (e^ε + d − 1)`` (Kairouz, Oh & Viswanath, JMLR 2016, §4); the tests
check the LPs against them.

Examples
--------
>>> import privgeom as pg
>>> g = ldp_utility_gap(pg.hadamard_response(3, exp_eps=3))
>>> g.value, g.best, g.gap
(Fraction(1, 2), Fraction(3, 5), Fraction(1, 10))
>>> ldp_utility_gap("ss:d=4,s=1,exp_eps=3").gap   # 1-subset selection is k-ary randomized response: optimal
Fraction(0, 1)
"""

from __future__ import annotations

from typing import ClassVar

from dataclasses import dataclass

from ..._core.errors import InvalidParameterError, InvalidTypeError
from ..._core.level import PrivacyLevel
from ..._core.numbers import fraction_str, Scalar
from ..._core.results import Result
from ...definitions import DifferentialPrivacy, FiniteDefinition, parse_definition
from ...graphs._graphs import complete_graph
from ...mechanisms import Mechanism
from ..optimal._optimal import optimal_mechanism
from ..optimal._optimal_lp import PriorLike, UtilityLike
from ._profile import epsilon

__all__ = ["UtilityGap", "ldp_utility_gap"]


@dataclass(frozen=True)
class UtilityGap(Result):
    """The optimal utility of a protocol's closure against the best ε-LDP mechanism at the protocol's exact ε.

    Attributes
    ----------
    protocol : str
        The protocol's name.
    level : PrivacyLevel
        The protocol's exact ε on the complete graph (``level.exp_eps`` is ``e^ε``).
    value : Fraction or float
        The best expected utility over the closure of ``{M}`` (post-processings of the protocol's reports).
    best : Fraction or float
        The best expected utility over ε-DP on the complete graph (ε-LDP) at the same ε.
    gap : Fraction or float
        ``best − value >= 0``.
    exact : bool
        Both optima exact.
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "expected utility given up (best ε-LDP mechanism minus the protocol)"

    protocol: str
    level: PrivacyLevel
    value: Scalar
    best: Scalar
    gap: Scalar
    exact: bool

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        return (
            f"{self.protocol}: optimal utility {fraction_str(self.value)} against {fraction_str(self.best)} for "
            f"the best ε-LDP mechanism at e^ε = {fraction_str(self.level.exp_eps)}: gap {fraction_str(self.gap)} ({mode})"
        )


def ldp_utility_gap(
    protocol: Mechanism | FiniteDefinition | str, utility: UtilityLike = "accuracy", prior: PriorLike = None
) -> UtilityGap:
    """The utility a local-DP protocol gives up against the best ε-LDP mechanism at its own exact ε (module doc).

    Parameters
    ----------
    protocol : Mechanism, one-mechanism FiniteDefinition or spec string
        The protocol (``pg.unary_encoding(…)``, ``"oue:d=4,exp_eps=3"``, …); its ε is computed, not assumed.
    utility, prior
        As for :func:`~privgeom.optimal_mechanism` (default: accuracy of guessing the value, uniform prior).

    Raises
    ------
    InvalidTypeError
        Not a mechanism, a finite definition or a spec.
    InvalidParameterError
        A definition of several mechanisms, or a protocol whose ε is infinite (it is not locally private).

    Examples
    --------
    >>> import privgeom as pg
    >>> print(ldp_utility_gap("oue:d=3,exp_eps=3"))
    optimized unary encoding on 3 values (exp_eps=3): optimal utility 23/48 against 3/5 for the best ε-LDP mechanism at e^ε = 3: gap 29/240 (exact)
    """
    D = parse_definition(protocol) if isinstance(protocol, str) else protocol
    if isinstance(D, Mechanism):
        D = FiniteDefinition([D])
    if not isinstance(D, FiniteDefinition):
        raise InvalidTypeError(
            f"ldp_utility_gap takes a mechanism, a one-mechanism finite definition or a spec, "
            f"got {type(protocol).__name__}"
        )
    if len(D.mechanisms) != 1:
        raise InvalidParameterError(
            f"ldp_utility_gap compares one protocol, got a definition of {len(D.mechanisms)} mechanisms"
        )
    M = D.mechanisms[0]
    eps = epsilon(M, complete_graph(M.inputs))
    if eps.infinite:
        raise InvalidParameterError(f"{D.name} has ε = ∞ on the complete graph: it is not locally private")
    own = optimal_mechanism(D, utility, prior)
    best = optimal_mechanism(DifferentialPrivacy(complete_graph(M.inputs), exp_eps=eps.level.exp_eps), utility, prior)
    exact = bool(own.exact and best.exact)
    value, top = (own.value, best.value) if exact else (float(own.value), float(best.value))
    return UtilityGap(protocol=D.name, level=eps.level, value=value, best=top, gap=top - value, exact=exact)
