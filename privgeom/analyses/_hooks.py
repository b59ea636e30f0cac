"""Entry points where a definition with known structure answers an analysis in closed form, before the generic route.

Each hook dispatches on the definition's type (:func:`functools.singledispatch`); its default returns None (use the
generic route). A structured definition registers its own answer in its own module, e.g. randomized response on its
hypercube in :mod:`._rr_orbits`; the generic modules only call the hook. The registering modules are listed in
:data:`STRUCTURED_ANSWERS` (named by the package's façade) and imported on a hook's first call (the package loads its modules on first use, so nothing
else guarantees they ran).

Examples
--------
>>> structured_summary(object(), rays=False, definition=None, group=None) is None
True
>>> structured_relaxation(object(), "hamming", "auto") is None
True
"""

from __future__ import annotations

from functools import singledispatch, update_wrapper
from typing import Any, Callable

from .._core.registry import registry

__all__ = ["STRUCTURED_ANSWERS", "structured_relaxation", "structured_summary"]

#: The modules that register structured answers with the hooks are named by the package's façade
#: (:mod:`privgeom._core.registry`) and imported before a hook's first dispatch.
STRUCTURED_ANSWERS = registry("structured answers")


class _Hook:
    """A single-dispatch hook that imports the providers of :data:`STRUCTURED_ANSWERS` before its first dispatch."""

    def __init__(self, default: Callable[..., Any]) -> None:
        self._dispatch = singledispatch(default)
        self.register = self._dispatch.register
        update_wrapper(self, default)

    def __call__(self, obj: Any, *args: Any, **kwargs: Any) -> Any:
        STRUCTURED_ANSWERS.load_all()
        return self._dispatch(obj, *args, **kwargs)


@_Hook
def structured_summary(obj: Any, *, rays: bool, definition: str | None, group: Any) -> Any:
    """A :class:`~privgeom.analyses.guarantees._summary.RowConeSummary` of ``obj`` from its structure, or None (generic route)."""
    return None


@_Hook
def structured_relaxation(obj: Any, family: Any, method: str) -> Any:
    """A :class:`~privgeom.analyses.Relaxation` of ``obj`` onto ``family`` from its structure, or None (generic
    route). Called before the family is expanded, so ``family`` is what the caller gave (e.g. ``"hamming"``)."""
    return None
