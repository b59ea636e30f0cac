"""How privgeom objects look in a notebook and in LaTeX: the renderers of the library's types.

The entry points are :func:`privgeom.to_html` and :func:`privgeom.to_latex` (and every object's ``_repr_html_``):
single-dispatch functions of the base layer (:mod:`privgeom._core.display`), which lower layers call without
knowing the types above them. This package registers the renderer of each type (:mod:`privgeom.display._renderers`:
mechanisms as labelled tables, cones as counts with their facets and rays, guarantees as sentences, memberships and
comparisons as the answer with its witness or certificate); it loads on the first rendering, not at
``import privgeom``. It exports no names of its own.

Examples
--------
>>> import privgeom as pg
>>> "<table" in pg.to_html(pg.randomized_response(1, "3/4"))
True
"""

__all__: list[str] = []
