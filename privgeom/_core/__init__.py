"""The base layer of privgeom: errors, exact and float scalars, results, domains, privacy levels, limits, I/O.

Every other package imports from here and nothing here imports from them (``docs/ARCHITECTURE.md``). The public
names are re-exported by :mod:`privgeom`; the modules of this package are private implementation modules.
"""
