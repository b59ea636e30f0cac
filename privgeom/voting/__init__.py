"""Randomized response on two-candidate voting rules: influence, welfare, accuracy and exact privacy.

Implements Evren & Vepakomma, *Effects of privacy-inducing noise on welfare and influence of referendum systems*
(arXiv 2201.10115): each vote is kept with probability ``ρ`` and re-drawn uniformly otherwise (randomized response
with ``p = (1+ρ)/2``), and the rule ``f`` is applied to the noisy votes — the mechanism ``M_ρ f``.

- **Rules**: :func:`majority`, :func:`dictator`, :func:`conjunction`, :func:`disjunction`, :func:`threshold`,
  :func:`weighted_majority`, :func:`weighted_threshold`, :func:`tribes`, :func:`parity`, :func:`constant`,
  :func:`symmetric`, :func:`from_truth_table`, :func:`from_function`. Symmetric rules live by vote count (any ``n``).
- **Fourier**: :func:`fourier` (Walsh–Hadamard), :func:`noise_operator` (``T_ρ``), :func:`stability`.
- **Influence and welfare**: :func:`influence`, :func:`total_influence`, :func:`probabilistic_influence`
  (Definition 5, with its coupling documented and alternatives for contrast), :func:`welfare`, :func:`banzhaf`.
- **Accuracy**: :func:`accuracy` (closed forms, Fourier, exact and log-space counts, the paper's recursion),
  :func:`majority_accuracy_bounds` (Equation (3)), :func:`majority_accuracy_figure` / :func:`save_majority_accuracy_figure`.
- **Privacy**: :func:`mechanism` (a :class:`privgeom.Mechanism` on the datasets of ``randomized_response(n, p)``),
  :func:`epsilon` (exact, with Proposition 2's bound), :func:`attains_bound` (Remark 1).
- **Checks**: :func:`check_all` and one ``check_*`` per result of the paper.

Numbers come back typed: one number as a :class:`privgeom.Quantity` (``.value`` is the Fraction or float,
``float(q)`` converts, ``.exact``, ``summary()``, ``to_json()``; it compares with plain numbers), one number per voter
as :class:`Influences` (indexable and iterable like the tuple of values, with ``.total``), ε as
:class:`VotingEpsilon` and Proposition 2's bound as a :class:`privgeom.PrivacyLevel`.

Examples
--------
>>> from fractions import Fraction
>>> from privgeom import voting
>>> maj = voting.majority(3)
>>> voting.stability(maj, "1/2").value, voting.accuracy(maj, "1/2").value
(Fraction(13, 32), Fraction(45, 64))
>>> voting.probabilistic_influence(maj, "1/2", 0).value == (1 + Fraction(1, 4)) / 2 * voting.influence(maj, 0).value
True
>>> voting.influence(maj).total, float(voting.welfare(maj, "1/2"))
(Fraction(3, 2), 0.75)
"""

from ._accuracy import (
    accuracy,
    majority_accuracy_bounds,
    majority_accuracy_data,
    majority_accuracy_figure,
    majority_accuracy_limit,
    MajorityAccuracy,
    paper_recursion_accuracy,
    save_majority_accuracy_figure,
    stability,
)
from ._banzhaf import Banzhaf, banzhaf
from ._fourier import FourierSpectrum, fourier, noise_operator
from ._influence import Influences, influence, probabilistic_influence, total_influence, total_probabilistic_influence, welfare
from ._mechanism import BoundAttainment, VotingEpsilon, attains_bound, epsilon, epsilon_bound, mechanism
from ._rules import (
    Rule,
    conjunction,
    constant,
    dictator,
    disjunction,
    from_function,
    from_truth_table,
    majority,
    parity,
    symmetric,
    threshold,
    tribes,
    weighted_majority,
    weighted_threshold,
)
from ._theorems import (
    TheoremCheck,
    check_accuracy_closed_form,
    check_accuracy_stability,
    check_all,
    check_bound_attainment,
    check_epsilon_bound,
    check_majority_accuracy_limit,
    check_majority_maximises_welfare,
    check_monotone_welfare,
    check_noisy_welfare,
    check_probabilistic_influence,
    check_stability_noise_operator,
    check_welfare_fourier,
)

__all__ = [
    # rules
    "Rule",
    "majority",
    "dictator",
    "conjunction",
    "disjunction",
    "threshold",
    "weighted_majority",
    "weighted_threshold",
    "tribes",
    "parity",
    "constant",
    "symmetric",
    "from_truth_table",
    "from_function",
    # Fourier
    "FourierSpectrum",
    "fourier",
    "noise_operator",
    "stability",
    # influence, welfare, power
    "Influences",
    "influence",
    "total_influence",
    "probabilistic_influence",
    "total_probabilistic_influence",
    "welfare",
    "Banzhaf",
    "banzhaf",
    # accuracy
    "accuracy",
    "paper_recursion_accuracy",
    "majority_accuracy_limit",
    "majority_accuracy_bounds",
    "MajorityAccuracy",
    "majority_accuracy_data",
    "majority_accuracy_figure",
    "save_majority_accuracy_figure",
    # privacy
    "mechanism",
    "epsilon",
    "VotingEpsilon",
    "epsilon_bound",
    "attains_bound",
    "BoundAttainment",
    # the paper's results as executable checks (the paper's numbers are in their docstrings)
    "TheoremCheck",
    "check_all",
    "check_epsilon_bound",  # Proposition 2
    "check_bound_attainment",  # Remark 1
    "check_probabilistic_influence",  # Theorem 3
    "check_majority_maximises_welfare",  # Proposition 4
    "check_monotone_welfare",  # Proposition 5
    "check_noisy_welfare",  # Theorem 6
    "check_welfare_fourier",  # Lemma 10
    "check_accuracy_stability",  # Equation (1)
    "check_stability_noise_operator",  # Equation (2)
    "check_majority_accuracy_limit",  # Equation (3)
    "check_accuracy_closed_form",  # Section 6
]
