"""Entry points where a definition with known structure answers an analysis in closed form, before the generic route.

Each hook is a :func:`functools.singledispatch` function on the definition's type whose default returns None (use
the generic route). A structured definition registers its own answer in its own module, e.g. randomized response on
its hypercube in :mod:`._rr_orbits`; the generic modules only call the hook.

Examples
--------
>>> structured_summary(object(), rays=False, definition=None, group=None) is None
True
>>> structured_relaxation(object(), "hamming", "auto") is None
True
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

__all__ = ["structured_relaxation", "structured_summary"]


@singledispatch
def structured_summary(obj: Any, *, rays: bool, definition: str | None, group: Any) -> Any:
    """A :class:`~privgeom.analyses.RowConeSummary` of ``obj`` from its structure, or None (generic route)."""
    return None


@singledispatch
def structured_relaxation(obj: Any, family: Any, method: str) -> Any:
    """A :class:`~privgeom.analyses.Relaxation` of ``obj`` onto ``family`` from its structure, or None (generic
    route). Called before the family is expanded, so ``family`` is what the caller gave (e.g. ``"hamming"``)."""
    return None
