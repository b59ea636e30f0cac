"""What a row cone protects: Bayesian semantics, readable summaries and symbolic (parametric) row cones.

A folder of :mod:`privgeom.analyses`; its public names are exported there."""
