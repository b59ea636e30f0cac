"""Amplification, exactly: the shuffled tally of a local mechanism and subsampled mechanisms.

- :func:`shuffled` — ``n`` users apply a local mechanism, only the histogram of the reports is published (the shuffle
  model); exact privacy profiles per neighbouring pair, the worst case over datasets (``docs/theory.md`` §18);
- :func:`subsampled` — a mechanism run on a random subsample (Poisson, or without replacement), as an exact matrix,
  with the tight bounds of Balle, Barthe & Gaboardi (2018) to compare (``docs/theory.md`` §19);
- :func:`amplification_report` — the shuffled or subsampled *definition*: its row cone, what it protects, where it
  sits between two DP levels;
- the published bounds, computed exactly where the paper's formula allows: :func:`fmt_delta` (Feldman, McMillan &
  Talwar's clone bound), :func:`blanket_delta` (the privacy blanket), :func:`bbg_bound` (Balle, Barthe & Gaboardi),
  and :func:`sampling_law`, the law of a subsample's histogram.

Examples
--------
>>> import privgeom as pg
>>> pg.shuffled(pg.randomized_response(1, "3/4"), 4).worst_case("ln(2)").certified
True
"""

from ._definitions import amplification_report
from ._literature import blanket_delta, fmt_delta
from ._shuffle import shuffled
from ._subsample import bbg_bound, sampling_law, subsampled

__all__ = ["shuffled", "subsampled", "amplification_report", "fmt_delta", "blanket_delta", "bbg_bound", "sampling_law"]
