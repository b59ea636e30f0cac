"""Optional dependencies: the extras of ``pip install privgeom[...]`` and the one way code imports from them.

``pip install privgeom`` brings what the analyses need (numpy, scipy, pycddlib, networkx, HiGHS, tqdm for the
progress bars); the rest comes with an extra, and ``bash scripts/bootstrap.sh`` installs them all (``[all]``):

========== ====================== ==========================================================================
extra      brings                 needed by
========== ====================== ==========================================================================
``plot``   matplotlib             :func:`privgeom.plot`, the paper figures (``voting.paper``, ``smoothed.paper``)
``symbolic`` sympy                :func:`privgeom.symbolic_row_cone`, exact algebraic levels of
                                  :func:`privgeom.dp_bounds`
``convex`` cvxpy                  :func:`privgeom.least_informative` (an exponential-cone program)
``sweep``  dask, pandas, pyarrow  :func:`privgeom.sweep` (see :mod:`privgeom._core.grid`)
========== ====================== ==========================================================================

Without its extra, a function that needs one raises :class:`~privgeom.MissingDependencyError` (an ``ImportError``)
whose message names the extra; nothing fails at ``import privgeom``. Code imports an optional module with
:func:`require` inside the function that needs it, or holds it as an :func:`optional_module` placeholder that imports
on first attribute access (a module-level ``import sympy as sp`` becomes ``sp = optional_module(...)``).

Examples
--------
>>> require("matplotlib.figure", extra="plot", feature="a demo").Figure.__name__
'Figure'
>>> import sys
>>> saved = sys.modules.pop("cvxpy", None)
>>> sys.modules["cvxpy"] = None  # Python's marker of a module that cannot be imported: as if not installed
>>> require("cvxpy", extra="convex", feature="pg.least_informative")
Traceback (most recent call last):
    ...
privgeom._core.errors.MissingDependencyError: pg.least_informative needs cvxpy, which is not installed: pip install 'privgeom[convex]'
>>> del sys.modules["cvxpy"]
>>> if saved is not None:
...     sys.modules["cvxpy"] = saved
>>> sp = optional_module("sympy", extra="symbolic", feature="a demo")  # imports nothing yet
>>> sp.Rational(1, 3) + sp.Rational(1, 6)
1/2
"""

from __future__ import annotations

import importlib
from types import MappingProxyType, ModuleType
from typing import Any

from .errors import InvalidParameterError, MissingDependencyError

__all__ = ["EXTRAS", "require", "optional_module"]

#: Each extra and the top-level modules it brings (``pyproject.toml`` lists the distributions and their versions).
EXTRAS = MappingProxyType(
    {
        "plot": ("matplotlib",),
        "symbolic": ("sympy",),
        "convex": ("cvxpy",),
        "sweep": ("dask", "distributed", "pandas", "pyarrow"),
    }
)


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` (of the optional ``extra``), or raise :class:`MissingDependencyError` naming the extra.

    Parameters
    ----------
    module : str
        The module to import (``"matplotlib.figure"``); its top-level package must belong to ``extra``.
    extra : str
        A key of :data:`EXTRAS`.
    feature : str
        What needs it, as the message names it (``"pg.plot"``).
    """
    top = module.partition(".")[0]
    if top not in EXTRAS.get(extra, ()):
        raise InvalidParameterError(f"module {module!r} is not part of the extra {extra!r} ({dict(EXTRAS)})")
    try:
        return importlib.import_module(module)
    except ImportError as err:
        if isinstance(err, MissingDependencyError):
            raise
        raise MissingDependencyError(
            f"{feature} needs {top}, which is not installed: pip install 'privgeom[{extra}]'"
        ) from err


class _OptionalModule:
    """A stand-in for an optional module: the first attribute read imports it through :func:`require`."""

    __slots__ = ("_name", "_extra", "_feature", "_module")

    def __init__(self, name: str, extra: str, feature: str) -> None:
        self._name, self._extra, self._feature = name, extra, feature
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = require(self._name, extra=self._extra, feature=self._feature)
        return getattr(self._module, attribute)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<optional module {self._name!r} of privgeom[{self._extra}], {state}>"


def optional_module(name: str, *, extra: str, feature: str) -> Any:
    """A placeholder for the optional module ``name`` that imports it (with :func:`require`) on first use."""
    return _OptionalModule(name, extra, feature)
