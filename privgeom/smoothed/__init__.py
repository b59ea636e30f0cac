"""Smoothed differential privacy (Liu, Wang & Xia, *Smoothed Differential Privacy*, TMLR 2023; arXiv 2107.01559).

- :func:`database_delta` — the database-wise privacy parameter ``δ_{ε,M}(x)`` (Definition 2, Theorem 1);
- :func:`smoothed_delta` — ``max_{π ∈ Π^n} E_{x~π}[δ(x)]`` (Definition 3) with distribution reduction
  (Proposition 5) and its maximiser; :func:`expected_delta` — ``E_{x~π}[δ(x)]`` for one product distribution;
- :func:`shm` — the sampling-histogram mechanism as a matrix (small ``n``); :class:`SamplingHistogram` — the same
  mechanism by its parameters, for the fast exact routes ``method="shm"`` of both functions (large ``n``, Theorem 2);
- :func:`majority_vote` — the (noisy) majority of the motivating example;
- :mod:`privgeom.smoothed.paper` — the paper's results as executable checks (Theorem 1, Propositions 1–5) and its
  experiments (Figures 1 and 2, Theorem 3).

Database labels come from :class:`privgeom.Domain` (``Domain.databases``, ``Domain.histograms``,
``Domain.counts``); ``δ(x)`` is the hockey-stick distance of ``privgeom.delta`` at one database.

Examples
--------
>>> from privgeom import smoothed
>>> M = smoothed.shm(3, 2)                      # the sampling-histogram mechanism, n = 3 agents, T = 2 samples
>>> d = smoothed.database_delta(M, "ln(2)")     # δ(x) at every database x (histograms of the 3 votes)
>>> d.at("[2,1]"), d.delta
(Fraction(2, 3), Fraction(2, 3))
>>> fast = smoothed.database_delta(smoothed.SamplingHistogram(3, 2), "ln(2)", x=1)  # no matrix: log space
>>> abs(fast.delta - 2 / 3) < 1e-15
True
"""

from typing import Any

from ._catalogue import majority_vote, shm
from ._database import database_delta
from ._results import DatabaseDelta, SamplingHistogram, SmoothedDelta
from ._smoothed import expected_delta, smoothed_delta

__all__ = [
    # privacy parameters (Definitions 2 and 3, Theorem 1) and their results
    "database_delta",
    "DatabaseDelta",
    "smoothed_delta",
    "SmoothedDelta",
    "expected_delta",
    # the sampling-histogram mechanism (Theorem 2): a matrix for small n, its parameters for the fast routes
    "shm",
    "SamplingHistogram",
    # the motivating example's mechanism
    "majority_vote",
]


def __getattr__(name: str) -> Any:
    """``smoothed.paper`` loads on first use (PEP 562): the experiments need matplotlib and the data files."""
    if name == "paper":
        import importlib

        return importlib.import_module(f"{__name__}.paper")
    from .._core.removed import removed_name_error  # a removed name answers with its replacement

    raise removed_name_error(__name__, name)
