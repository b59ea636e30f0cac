"""Composition of mechanisms and of privacy definitions: composed mechanisms kept factored, their exact privacy
profiles per edge, the composition theorems as checks, accountant exports and composed definitions.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
