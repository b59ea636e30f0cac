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
  :func:`majority_accuracy_bounds` (Equation (3)), :func:`figure2` / :func:`save_figure2`.
- **Privacy**: :func:`mechanism` (a :class:`privgeom.Mechanism` on the datasets of ``randomized_response(n, p)``),
  :func:`epsilon` (exact, with Proposition 2's bound), :func:`remark1`.
- **Checks**: :func:`check_all` and one ``check_*`` per result of the paper.

Examples
--------
>>> from fractions import Fraction
>>> from privgeom import voting
>>> maj = voting.majority(3)
>>> voting.stability(maj, "1/2"), voting.accuracy(maj, "1/2")
(Fraction(13, 32), Fraction(45, 64))
>>> voting.probabilistic_influence(maj, "1/2", 0) == (1 + Fraction(1, 4)) / 2 * voting.influence(maj, 0)
True
"""

from ._accuracy import (
    ACCURACY_METHODS,
    FIGURE2_RHOS,
    MajorityAccuracy,
    accuracy,
    figure2,
    figure2_data,
    majority_accuracy_bounds,
    majority_accuracy_limit,
    paper_recursion_accuracy,
    save_figure2,
    stability,
)
from ._banzhaf import Banzhaf, banzhaf
from ._fourier import FourierSpectrum, fourier, noise_operator
from ._influence import COUPLINGS, influence, probabilistic_influence, total_influence, total_probabilistic_influence, welfare
from ._mechanism import Remark1, VotingEpsilon, epsilon, mechanism, proposition2_bound, remark1
from ._rules import (
    MAX_COUNT_VOTERS,
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
    check_all,
    check_closed_form,
    check_equation1,
    check_equation2,
    check_equation3,
    check_lemma10,
    check_proposition2,
    check_proposition4,
    check_proposition5,
    check_remark1,
    check_theorem3,
    check_theorem6,
    random_rule,
)

__all__ = [
    # rules
    "Rule",
    "MAX_COUNT_VOTERS",
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
    "random_rule",
    # Fourier
    "FourierSpectrum",
    "fourier",
    "noise_operator",
    "stability",
    # influence, welfare, power
    "influence",
    "total_influence",
    "probabilistic_influence",
    "total_probabilistic_influence",
    "COUPLINGS",
    "welfare",
    "Banzhaf",
    "banzhaf",
    # accuracy
    "accuracy",
    "ACCURACY_METHODS",
    "paper_recursion_accuracy",
    "majority_accuracy_limit",
    "majority_accuracy_bounds",
    "MajorityAccuracy",
    "figure2",
    "figure2_data",
    "FIGURE2_RHOS",
    "save_figure2",
    # privacy
    "mechanism",
    "epsilon",
    "VotingEpsilon",
    "proposition2_bound",
    "remark1",
    "Remark1",
    # executable theorems
    "TheoremCheck",
    "check_all",
    "check_proposition2",
    "check_remark1",
    "check_theorem3",
    "check_proposition4",
    "check_proposition5",
    "check_theorem6",
    "check_lemma10",
    "check_equation1",
    "check_equation2",
    "check_equation3",
    "check_closed_form",
]
