"""Designing a definition: chosen guarantees, dropping or keeping guarantees, intersections, hulls, the DP sandwich.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
