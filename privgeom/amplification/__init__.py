"""Amplification, exactly: the shuffled tally of a local mechanism and subsampled mechanisms.

- :func:`shuffled` — ``n`` users apply a local mechanism, only the histogram of the reports is published (the shuffle
  model); exact privacy profiles per neighbouring pair, the worst case over datasets (``docs/theory.md`` §18);
- :func:`subsampled` — a mechanism run on a random subsample (Poisson, or without replacement), as an exact matrix,
  with the tight bounds of Balle, Barthe & Gaboardi (2018) to compare (``docs/theory.md`` §19).

Examples
--------
>>> import privgeom as pg
>>> pg.shuffled(pg.randomized_response(1, "3/4"), 4).worst_case("ln(2)").certified
True
"""

from ._shuffle import shuffled
from ._subsample import subsampled

__all__ = ["shuffled", "subsampled"]
