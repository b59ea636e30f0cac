"""Closed-form finite definitions: one square invertible mechanism ``G`` with a known inverse (the catalogue's base).

``M ∈ closure({G})`` iff ``Y = M G^{-1} ≥ 0`` (then ``M = Y G`` with ``Y`` column-stochastic; Lin & Kifer, Theorem
3.4 with one mechanism, ``docs/theory.md`` §3), so the row cone is simplicial: the rows of ``G`` are its extreme rays
and the columns of ``G^{-1}`` (positively scaled) its facets. The families live in :mod:`._geometric` (truncated
geometric mechanism) and :mod:`._frapp` (FRAPP / PRAM and k-ary randomized response); their spec kinds are
registered by :mod:`._catalogue`.

Notes
-----
**Symmetry groups** (registered with :func:`privgeom.automorphisms`; each verified on construction by checking
that its generators map the set of normalised rows of ``G`` onto itself, :func:`~privgeom.geometry._symmetry.known_group`).
``G`` is invertible (``γ > 1``, ``0 < α < 1``), so its rows are the ``n`` extreme rays and the columns of ``G^{-1}``
the facets; an automorphism ``π`` of the row cone permutes the rays and (its transpose) the facets.
The group of each family is proved in its module and built by :func:`_symmetric_group` / :func:`_known` here.

Examples
--------
>>> from privgeom.definitions._frapp import KaryRRDefinition
>>> d = KaryRRDefinition(3, exp_eps=2)
>>> isinstance(d, ClosedFormDefinition), d.contains(d.mechanism, method="closed-form").member
(True, True)
"""

from __future__ import annotations

import math
from abc import abstractmethod
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.errors import InvalidParameterError, InvalidTypeError, SolverError
from .._core.level import ScalarLike
from .._core.arrays import readonly
from .._core.numbers import fraction_str, parse_scalar, Scalar
from ..geometry._symmetry import SymmetryGroup, known_group, symmetric_generators
from ..mechanisms import Mechanism
from ._base import ClosureWitness, Membership, RowCertificate
from ._closure import verify_closure_witness
from ._finite import FiniteDefinition
from ._rows import format_inequality

__all__ = ["ClosedFormDefinition"]


# ------------------------------------------------------------------------------------------------- parameters
def _alpha(alpha: ScalarLike) -> Scalar:
    a = parse_scalar(alpha, name="alpha")
    if not 0 < a < 1:
        raise InvalidParameterError(f"the geometric mechanism needs 0 < alpha < 1, got alpha = {fraction_str(a)}")
    return a


def _size(n: Any, name: str, minimum: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an integer, got {n!r}")
    if int(n) < minimum:
        raise InvalidParameterError(f"{name} must be >= {minimum}, got {n}")
    return int(n)


def _spec_scalar(value: Scalar) -> str:
    return fraction_str(value)


# ------------------------------------------------------------------------------------------- finite definitions
class ClosedFormDefinition(FiniteDefinition):
    """A one-mechanism definition whose matrix ``G`` is square and invertible with a closed-form inverse.

    ``M ∈ closure({G})`` iff ``Y = M G^{-1} ≥ 0`` (then ``M = Y G`` and ``Y`` is column-stochastic), so besides the
    methods of :class:`~privgeom.definitions.FiniteDefinition` :meth:`contains` accepts ``method="closed-form"``, and
    :meth:`row_cone` is built directly from the closed-form facets (the columns of ``G^{-1}``, positively scaled).
    Subclasses implement :meth:`closed_form_inverse` and :meth:`closed_form_facets`.
    """

    def __init__(self, mechanism: Mechanism, *, name: str, spec: str, invertible: bool = True) -> None:
        super().__init__([mechanism], name=name)
        self._spec = spec
        self._invertible = invertible
        if invertible:
            self.membership_methods = tuple(self.membership_methods) + ("closed-form",)

    def spec(self) -> str:
        return self._spec

    @property
    def mechanism(self) -> Mechanism:
        """The mechanism ``G``."""
        return self.mechanisms[0]

    @abstractmethod
    def closed_form_inverse(self) -> np.ndarray:
        """``G^{-1}`` (exact in exact mode)."""

    @abstractmethod
    def closed_form_facets(self) -> np.ndarray:
        """Facet normals (row ``z`` ∝ column ``z`` of ``G^{-1}``, positive factor)."""

    def row_cone(self) -> Any:
        """The row cone, known in closed form: simplicial, no double description and no redundancy removal.

        ``G`` is invertible, so its rows are linearly independent: they are the extreme rays, and the ``n`` columns
        of ``G^{-1}`` (positively scaled: :meth:`closed_form_facets`) are the irredundant facets (Lin & Kifer,
        Theorem 3.4 with an invertible mechanism). Counts, membership (by the facets) and the pair bounds
        ``max_g g_a / g_b`` over the rows (the projection onto a pair, Section V) need nothing else.
        """
        if not self._invertible:
            return super().row_cone()
        from ..geometry import Cone
        from ..geometry._projection import generator_pair_bounds
        from ..geometry._structure import ConeStructure

        n = self.n_inputs
        G = self.mechanism.matrix if self.exact else self.mechanism.float_matrix()
        structure = ConeStructure(
            "simplicial",
            f"{self.name}: one facet per column of G^-1 ({n}), the {n} rows of G as extreme rays",
            n_facets=n,
            n_rays=n,
            dim=n,
            pointed=True,
            facets=self.closed_form_facets,
            rays=lambda: G,
            pair_bounds=lambda ia, ib: generator_pair_bounds(G, ia, ib, exact=self.exact),
        )
        return Cone.from_structure(structure, labels=self.inputs, exact=self.exact)

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Closure membership; ``method="closed-form"`` multiplies by the closed-form inverse (see the class doc)."""
        if method != "closed-form":
            return super().contains(mechanism, method=method, atol=atol)
        M = self.check_mechanism(mechanism)
        self.check_method(method)
        tol = self._tol(atol)
        exact = self.exact and M.exact
        target = M.matrix if exact else M.float_matrix()
        G = self.mechanism.matrix if exact else self.mechanism.float_matrix()
        inv = self.closed_form_inverse()
        if not exact:
            inv = np.asarray(inv, dtype=float)
        Y = target.dot(inv)
        bad = np.argwhere(Y < 0) if exact else np.argwhere(np.asarray(Y, dtype=float) < -tol)
        if len(bad):
            o, z = min(((int(a), int(b)) for a, b in bad), key=lambda t: float(Y[t]))
            F = self.closed_form_facets()[z]
            F = F if exact else np.asarray(F, dtype=float)
            value = sum((a * b for a, b in zip(F, target[o])), Fraction(0)) if exact else float(np.dot(F, target[o]))
            gen_ok = all(v >= 0 for v in G.dot(F)) if exact else bool((G.dot(F) >= -tol).all())
            if not (gen_ok and (value < 0 if exact else value < -tol * float(np.abs(F).max()))):
                raise SolverError(f"{self.name}: the closed-form facet {z} does not verify; please report")
            cert = RowCertificate(
                row=o,
                output=M.outputs[o],
                normal=readonly(np.asarray(F)),
                value=value,
                inequality=format_inequality(F, self.inputs),
                label=f"closed-form facet {z}",
            )
            return Membership(
                member=False,
                method="closed-form",
                exact=exact,
                certificate=cert,
                detail=f"output {M.outputs[o]!r} violates closed-form facet {z} ({cert.inequality})",
            )
        if not exact:
            Y = np.clip(np.asarray(Y, dtype=float), 0.0, None)
        wit = ClosureWitness(
            components=(0,),
            weights=(Fraction(1) if exact else 1.0,),
            post_processings=(readonly(Y),),
            residual=Fraction(0) if exact else 0.0,
        )
        resid = verify_closure_witness([G], target, wit, exact=exact, atol=tol)
        if resid is None:  # float mode at the tolerance boundary: let the LP decide
            return super().contains(mechanism, method="lp", atol=atol)
        wit = replace(wit, residual=resid)
        return Membership(
            member=True, method="closed-form", exact=exact, witness=wit, detail="M · G^{-1} >= 0 (closed-form inverse)"
        )


# ------------------------------------------------------------------------------------------------- symmetry groups
def _known(D: ClosedFormDefinition, gens: list[tuple[int, ...]], source: str, order: int | None) -> SymmetryGroup:
    G = D.mechanism.matrix if D.exact else D.mechanism.float_matrix()
    return known_group(D.inputs, gens, source, order, True, G, exact=D.exact)


def _symmetric_group(D: ClosedFormDefinition) -> SymmetryGroup:
    n = D.n_inputs
    return _known(D, symmetric_generators(range(n), n), "symmetric", math.factorial(n) if n <= 4096 else None)
