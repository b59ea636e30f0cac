"""Optimal mechanisms over a consistent closure: the LP, its symmetric and closed-form routes, information cost.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
