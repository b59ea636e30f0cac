"""Tables filled from above: how a lower module reaches code of a higher one without importing it.

A lower module sometimes needs an implementation that lives higher up: :meth:`PrivacyDefinition.nearest`
(``definitions/_base.py``) runs the LP of ``definitions/_nearest.py``, which imports the base class;
:meth:`PrivacyDefinition.without` runs the design operations of ``analyses/design/_design.py``, two layers up.
Importing upwards would close a circle. Instead the lower module reads a :class:`Registry` — a named table of this
base layer — and the higher module writes into it when it is imported.

Because privgeom loads its subpackages on first use (PEP 562), the higher module may not be imported yet when the
table is first read. The package's façade (``privgeom/__init__.py``, the top layer, which imports downwards only)
therefore says which module provides which entry (:meth:`Registry.provide`); a lookup of a missing entry imports its
provider, and iteration imports every provider. No lower module ever names a higher one, not even in a string, so
the import graph has no circle (``tests/test_architecture.py`` counts module names in strings as imports).

Examples
--------
>>> table = registry("doctest example")
>>> table.provide({"sqrt": "math"})       # the façade: the module "math" provides the entry "sqrt"
>>> import math
>>> table["sqrt"] = math.sqrt              # normally done by the provider when it is imported
>>> table["sqrt"](9.0), "cbrt" in table
(3.0, False)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any, Callable, Mapping

__all__ = ["Registry", "registry", "REGISTRIES"]


class Registry(dict[str, Any]):
    """A named table ``name -> implementation`` whose entries are written by the modules that provide them.

    A missing entry with a known provider imports that provider once and is looked up again; :meth:`load_all` imports
    every provider (for listings). Unknown entries raise ``KeyError`` as in a dict.
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.providers: dict[str, str] = {}
        self.loaders: list[Callable[[], None]] = []
        self._imported: set[str] = set()

    def provide(self, providers: Mapping[str, str]) -> None:
        """Declare the module that provides each entry (called by the package's façade)."""
        self.providers.update(providers)

    def on_first_read(self, loader: Callable[[], None]) -> None:
        """Run ``loader`` (once) before the table is first read in full (:meth:`load_all`)."""
        self.loaders.append(loader)

    def load_all(self) -> None:
        """Import every provider and run every pending loader (before listing or dispatching over the table)."""
        for module in dict.fromkeys(self.providers.values()):
            if module not in self._imported:  # once per provider, however often the table is listed
                importlib.import_module(module)
                self._imported.add(module)
        while self.loaders:
            self.loaders.pop(0)()

    def __missing__(self, key: str) -> Any:
        module = self.providers.get(key)
        if module is not None:
            importlib.import_module(module)
            if dict.__contains__(self, key):
                return dict.__getitem__(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        self.load_all()
        return super().__iter__()


#: Every registry by name (one table per name, shared by the module that reads it and the façade that fills it).
REGISTRIES: dict[str, Registry] = {}


def registry(name: str) -> Registry:
    """The registry called ``name``, created empty on first use."""
    table = REGISTRIES.get(name)
    if table is None:
        table = REGISTRIES[name] = Registry(name)
    return table
