"""Results show public type names: nothing a user receives prints, reprs or displays as a private class.

Structured routes return private subclasses that only build parts lazily (the Hamming relaxation of randomized
response, its one facet orbit); they must read as the documented public type (``Relaxation``, ``FacetOrbit``) in
``repr``, ``str`` and the notebook display. The scan at the end checks every private class of the package that
subclasses a public one.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil


import privgeom as pg
from privgeom import describe_row_cone


def test_relax_pairwise_of_randomized_response_reads_as_relaxation():
    r = pg.relax_pairwise(pg.RandomizedResponse(2, "3/4"), "hamming")
    assert isinstance(r, pg.Relaxation) and type(r).__name__ == "Relaxation"
    assert repr(r).startswith("Relaxation(cone=") and "_Orbit" not in repr(r)
    assert "_Orbit" not in str(r) and "<b>Relaxation</b>" in r._repr_html_()
    assert r.level.exp_eps == 3 and r.definition.contains(pg.randomized_response(2, "3/4")).member


def test_randomized_response_facet_orbit_reads_as_facet_orbit():
    orbit = describe_row_cone(pg.RandomizedResponse(3, "3/4")).facet_orbits[0]
    assert type(orbit).__name__ == "FacetOrbit" and repr(orbit).startswith("FacetOrbit(")
    assert "_Orbit" not in repr(orbit) and "_Orbit" not in orbit._repr_html_()
    assert orbit.size == 8


def _private_subclasses_of_public_types():
    found = []
    for info in pkgutil.walk_packages(pg.__path__, "privgeom."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and obj.__module__ == module.__name__ and obj.__qualname__.startswith("_"):
                public = [
                    b
                    for b in obj.__mro__[1:]
                    if b.__module__.startswith("privgeom") and not b.__name__.startswith("_") and hasattr(b, "summary")
                ]
                if public:
                    found.append((obj, public[0]))
    return found


def test_every_private_result_subclass_is_shown_under_its_public_base():
    found = _private_subclasses_of_public_types()
    assert {cls.__qualname__ for cls, _ in found} >= {"_OrbitRelaxation", "_OrbitFacetOrbit"}
    for cls, base in found:
        assert cls.__name__ == base.__name__, (cls.__qualname__, base.__name__)
        assert "__repr__" in cls.__dict__, cls.__qualname__  # the dataclass repr would print the private qualname
