"""The results of Liu, Wang & Xia, *Smoothed Differential Privacy* (TMLR 2023; arXiv 2107.01559), as executable
checks, and the paper's experiments — ``privgeom.smoothed.paper``.

- :func:`check` — one result of the paper (:data:`CHECKS`: ``"Theorem 1"``, ``"Proposition 1"`` … ``"Proposition
  5"``) computed on both sides on a finite instance, exactly when the inputs are rational and ``e^ε`` is rational; a
  :class:`PropertyCheck`;
- :func:`experiment` — one experiment of the paper (:data:`EXPERIMENTS`: ``"elections"`` (Figure 2 left),
  ``"motivating"`` (Figure 1), ``"sgd"`` (Figure 2 right), ``"theorem3"``), writing a PNG and a CSV; an
  :class:`ExperimentResult`.

The statements, the experiments' parameters and their data (``privgeom/data/elections.csv``,
``jurisdictions_2020.csv``) are described in the docstrings of the functions of :data:`CHECKS` and
:data:`EXPERIMENTS`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from .._core.errors import InvalidParameterError
from ._experiments import EXPERIMENTS, ExperimentResult
from ._properties import (
    PropertyCheck,
    check_composition,
    check_distribution_reduction,
    check_dp_delta,
    check_dp_implies_smoothed,
    check_post_processing,
    check_pre_processing,
)

__all__ = ["check", "PropertyCheck", "experiment", "ExperimentResult"]

#: The checks by the paper's result: its statement and arguments are in each function's docstring.
CHECKS: dict[str, Callable[..., PropertyCheck]] = {
    "Theorem 1": check_dp_delta,  # max_x δ(x) is the DP δ: (mechanism, eps, graph=None)
    "Proposition 1": check_dp_implies_smoothed,  # DP ⇒ smoothed DP: (mechanism, eps, distributions)
    "Proposition 2": check_post_processing,  # (mechanism, A, eps, distributions)
    "Proposition 3": check_composition,  # (first, second, eps1, eps2, distributions)
    "Proposition 4": check_pre_processing,  # (mechanism, f, records, eps, distributions)
    "Proposition 5": check_distribution_reduction,  # distribution reduction: (mechanism, eps, distributions)
}


def check(result: str, *args: Any, **kwargs: Any) -> PropertyCheck:
    """Check one result of the paper on a finite instance: both sides computed, compared (``holds``).

    Parameters
    ----------
    result : str
        A key of :data:`CHECKS` (``"Theorem 1"``, ``"Proposition 1"`` … ``"Proposition 5"``).
    *args, **kwargs
        The instance, as the function of :data:`CHECKS` takes it (``atol=`` for float mode).

    Examples
    --------
    >>> from privgeom.smoothed import majority_vote
    >>> check("Proposition 1", majority_vote(3, "1/2"), "ln(2)", ["1/5", "1/2"]).holds
    True
    >>> M = majority_vote(2, "1/2")
    >>> c = check("Proposition 3", M, M, "ln(2)", "ln(3/2)", ["1/4", "1/2"])
    >>> c.holds, c.exact, c.relation
    (True, True, '<=')
    """
    if result not in CHECKS:
        raise InvalidParameterError(f"unknown result {result!r} of the smoothed-DP paper; use one of {list(CHECKS)}")
    return CHECKS[result](*args, **kwargs)


def experiment(
    name: str, out: str | Path = ".", *, quick: bool = False, progress: bool | None = None, **options: Any
) -> ExperimentResult:
    """Run one experiment of the paper, writing ``smoothed_<name>.png`` and ``.csv`` into the existing folder ``out``.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS`: ``"elections"``, ``"motivating"``, ``"sgd"`` or ``"theorem3"``.
    out : path
        An existing output directory (never created).
    quick : bool
        Reduced sizes (seconds).
    progress : bool, optional
        Force the stderr progress bar on/off.
    **options
        The experiment's own options (its docstring): e.g. ``databases=`` and ``seed=`` for ``sgd``/``theorem3``,
        ``scheduler=`` for ``elections``/``motivating``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = experiment("motivating", tmp, quick=True)
    >>> r.name, [row["year"] for row in r.rows]
    ('motivating', [2012, 2016, 2020])
    """
    if name not in EXPERIMENTS:
        raise InvalidParameterError(f"unknown experiment {name!r}; use one of {sorted(EXPERIMENTS)}")
    return EXPERIMENTS[name](out, quick=quick, progress=progress, **options)
