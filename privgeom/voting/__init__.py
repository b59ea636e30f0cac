"""Randomized response on two-candidate voting rules: influence, welfare, accuracy and exact privacy.

Implements Evren & Vepakomma, *Effects of privacy-inducing noise on welfare and influence of referendum systems*
(arXiv 2201.10115): each vote is kept with probability ``ρ`` and re-drawn uniformly otherwise (randomized response
with ``p = (1+ρ)/2``), and the rule ``f`` is applied to the noisy votes — the mechanism ``M_ρ f``. Every function that
takes the noise accepts it as ``rho=`` or as the privacy level ``eps=`` of that randomized response (exactly one):
``e^ε = (1+ρ)/(1-ρ)``, so ``ρ = (e^ε-1)/(e^ε+1)`` (``docs/theory.md`` §17); ``eps="ln(3)"`` is ``ρ = 1/2`` exactly.

- **Rules**: :func:`majority` (also weighted: ``weights=``, ``quota=``), :func:`threshold` (also weighted),
  :func:`dictator`, :func:`conjunction`, :func:`disjunction`, :func:`tribes`, :func:`parity`, and the class methods
  :meth:`Rule.from_truth_table`, :meth:`Rule.from_function`, :meth:`Rule.symmetric`, :meth:`Rule.constant`.
  Symmetric rules live by vote count (any ``n``).
- **Fourier**: :func:`fourier` (Walsh–Hadamard), :func:`noise_operator` (``T_ρ``), :func:`stability`.
- **Influence and welfare**: :func:`influence` (``.total`` is ``I[f]``), :func:`probabilistic_influence`
  (Definition 5, with its coupling documented and alternatives for contrast), :func:`welfare`, :func:`banzhaf`.
- **Accuracy**: :func:`accuracy` (closed forms, Fourier, exact and log-space counts, the paper's recursion).
- **Privacy**: :func:`mechanism` (a :class:`privgeom.Mechanism` on ``Domain.bits(n)``, the datasets of
  ``randomized_response(n, p)``), :func:`epsilon` (exact, next to Proposition 2's bound).
- **The paper**: :mod:`privgeom.voting.paper` — its results as checks (``paper.CHECKS``, ``paper.check_all``),
  Remark 1's condition, Equation (3) and Figure 2.

Numbers come back typed: one number as a :class:`privgeom.Quantity` (``.value`` is the Fraction or float,
``float(q)`` converts, ``.exact``, ``summary()``, ``to_json()``; it compares with plain numbers), one number per voter
as an ``Influences`` (indexable and iterable like the tuple of values, with ``.total``), ε as a ``VotingEpsilon``
whose ``level`` and ``bound`` (Proposition 2) are :class:`privgeom.PrivacyLevel` values.

Examples
--------
>>> from fractions import Fraction
>>> from privgeom import voting
>>> maj = voting.majority(3)
>>> voting.stability(maj, "1/2").value, voting.accuracy(maj, "1/2").value, voting.accuracy(maj, eps="ln(3)").value
(Fraction(13, 32), Fraction(45, 64), Fraction(45, 64))
>>> voting.probabilistic_influence(maj, "1/2", 0).value == (1 + Fraction(1, 4)) / 2 * voting.influence(maj, 0).value
True
>>> voting.influence(maj).total, float(voting.welfare(maj, "1/2"))
(Fraction(3, 2), 0.75)
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from . import paper  # noqa: F401  (the public subpackage voting.paper, read as pg.voting.paper)
from ._accuracy import accuracy, stability
from ._banzhaf import banzhaf
from ._fourier import fourier, noise_operator
from ._influence import influence, probabilistic_influence, welfare
from ._mechanism import epsilon, mechanism
from ._rules import Rule, conjunction, dictator, disjunction, majority, parity, threshold, tribes

__all__ = [
    # rules (more as class methods of Rule)
    "Rule",
    "majority",
    "threshold",
    "dictator",
    "conjunction",
    "disjunction",
    "tribes",
    "parity",
    # Fourier
    "fourier",
    "noise_operator",
    "stability",
    # influence, welfare, power
    "influence",
    "probabilistic_influence",
    "welfare",
    "banzhaf",
    # accuracy
    "accuracy",
    # privacy
    "mechanism",
    "epsilon",
]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
