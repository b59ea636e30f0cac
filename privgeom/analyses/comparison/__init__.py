"""Comparing two definitions by their row cones: inclusion with witnesses, containment per orbit.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
