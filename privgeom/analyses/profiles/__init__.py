"""Privacy profiles of finite mechanisms: ε, δ(ε), the δ(ε) curve, and the utility gap of local protocols.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
