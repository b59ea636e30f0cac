"""Relaxing a definition by enlarging its row cone: double description, difference constraints, what is lost.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
