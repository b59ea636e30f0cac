"""The intersection of privacy definitions that their row cones do not decide: membership in every one of them.

``closure(A) ∩ closure(B)`` is closed under post-processing and under mixtures (each closure is, Lin & Kifer
Definition 3.3), so it is its own consistent closure: ``M`` is in it iff ``M`` is in ``closure(A)`` and in
``closure(B)``. When both row cones decide their closures (ε-DP, randomized response, cone definitions, …) this set
is the cone definition of ``R_A ∩ R_B`` and :func:`~privgeom.intersection` returns that
:class:`~privgeom.ConeDefinition`. When one of them is not decided by its row cone ((ε, δ)-DP with ``δ > 0``, a
finite definition whose row cone is not simplicial …) no cone describes the intersection: the rows of
``RR(2, 9/10)`` lie in the row cone of ``(1, 1/10)``-DP (the whole orthant) although the mechanism is not
``(1, 1/10)``-DP. :class:`IntersectionDefinition` then answers membership by asking every member
(:meth:`IntersectionDefinition.contains`): a "no" carries the failing member's certificate, a "yes" every member's
verified membership (:class:`IntersectionWitness`).

:func:`~privgeom.compare` knows that an intersection is inside each of its members (``method`` ``"intersection-member"``).

Its row cone is ``R_A ∩ R_B`` (``docs/theory.md`` §13): a row ``x`` of a member lies in both; conversely, for ``x``
in both there are ``c_A, c_B > 0`` with ``[[c x], [1 − c x]]`` in each closure (merge the outputs of a mixture of
generating mechanisms, each of whose rows ``x`` is a non-negative combination of), and ``c = min(c_A, c_B)`` works for
both because moving mass from the first row to the second is a post-processing. The row cone does not decide its
membership (:attr:`IntersectionDefinition.row_cone_decides_closure` is False).

Examples
--------
>>> import privgeom as pg
>>> both = pg.intersection(pg.RandomizedResponse(2, "9/10"), pg.parse_definition("adp:graph=hamming,k=2,eps=1,delta=1/10"))
>>> type(both).__name__, both.row_cone_decides_closure
('IntersectionDefinition', False)
>>> no = both.contains(pg.randomized_response(2, "9/10"))
>>> no.member, no.method, no.detail.startswith("not in adp:")
(False, 'intersection', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..._core.errors import DomainMismatchError, InvalidInputError, InvalidTypeError
from ..._core.results import Result
from ...definitions import PrivacyDefinition
from ...definitions._base import Membership
from ...definitions._cone_definition import ConeDefinition
from ...geometry._cone import Cone
from ...mechanisms import Mechanism
from ..comparison._compare import Inclusion, _inclusion, _pair_rule

__all__ = ["IntersectionDefinition", "IntersectionWitness", "short_spec", "symmetric_intersection"]


def short_spec(d: PrivacyDefinition) -> str:
    """A definition's spec when it is short (at most 60 characters), else its name."""
    spec = d.spec()
    return spec if len(spec) <= 60 else d.name


@dataclass(frozen=True)
class IntersectionWitness(Result):
    """Proof that a mechanism is in every member of an intersection: each member's verified membership.

    Attributes
    ----------
    definitions : tuple of str
        The members (specs, or names when long), in order.
    memberships : tuple of Membership
        The answer of each member's ``contains`` (every one a "yes", each with its own witness).
    """

    definitions: tuple[str, ...]
    memberships: tuple[Membership, ...]

    @property
    def exact(self) -> bool:
        """True when every member answered in exact arithmetic."""
        return all(m.exact for m in self.memberships)

    def summary(self) -> str:
        return "; ".join(f"in {d} [{m.method}]" for d, m in zip(self.definitions, self.memberships))


def symmetric_intersection(*cones: Cone) -> Cone | None:
    """``R_A ∩ R_B ∩ …`` of exact full-dimensional cones by orbit, when a symmetry group one of them carries
    (:attr:`~privgeom.geometry.Cone.symmetry`: randomized response's and ε-DP's hypercube group, …) maps the stacked
    facets of all of them to themselves; None otherwise (the caller stacks the facets and removes the redundant ones
    row by row).

    An automorphism of every cone is one of their intersection, so the facets of the intersection fall into orbits
    and one LP per orbit decides which of the stacked rows are facets, each with an exact certificate
    (:func:`~privgeom.geometry._redundancy.irredundant_by_orbits`, ``docs/theory.md`` §21). The cone keeps the group.

    Examples
    --------
    >>> import privgeom as pg
    >>> rr, dp = pg.RandomizedResponse(5, "3/4"), pg.DifferentialPrivacy.hamming(5, exp_eps=2)
    >>> both = symmetric_intersection(rr.row_cone(), dp.row_cone())
    >>> both.structure.kind, both.n_facets, both.symmetry.order
    ('symmetric', 192, 3840)
    """
    from ...geometry._redundancy import symmetric_structure

    if not all(c.exact for c in cones) or any(len(c.int_equalities) for c in cones):
        return None
    rows = np.vstack([c.int_facets for c in cones])  # int64, or Python ints when one block holds them
    tried: list[Any] = []
    for group in (c.symmetry for c in cones):
        if group is None or group.is_trivial() or any(group is g for g in tried):
            continue
        tried.append(group)
        st = symmetric_structure(rows, group)
        if st is not None:
            return Cone.from_structure(st, labels=cones[0].labels, exact=True)
    return None


def _exact_if_integral(cone: Cone) -> Cone:
    """A float cone whose facets and equalities are all integers (the orthant of (ε, δ)-DP at an irrational ε) as the
    same cone in exact mode, so that it does not turn an exact intersection into a float one; any other cone as is."""
    if cone.exact:
        return cone
    F, E = cone.facets, cone.equalities
    if not all(float(v).is_integer() for v in [*F.ravel(), *E.ravel()]):
        return cone
    ints = [[int(v) for v in row] for row in F]
    eqs = [[int(v) for v in row] for row in E]
    return Cone.from_facets(
        np.array(ints, dtype=object).reshape(len(ints), cone.ambient_dim), eqs or None, exact=True, labels=cone.labels
    )


class IntersectionDefinition(PrivacyDefinition):
    """The mechanisms in the closure of every member: ``closure(A) ∩ closure(B) ∩ …`` (module docstring).

    Built by :func:`~privgeom.intersection` when some member is not decided by its row cone; otherwise the
    intersection is a :class:`~privgeom.ConeDefinition`.

    Parameters
    ----------
    members : sequence of PrivacyDefinition
        At least two definitions on the same datasets (in the same order). Nested intersections are flattened.

    Notes
    -----
    ``contains`` asks each member in turn and stops at the first "no", whose certificate it returns (a certificate
    that ``M`` is not in ``closure(A)`` proves that it is not in the smaller ``closure(A) ∩ closure(B)``). The
    answer is exact when every member answered exactly. :meth:`spec` is ``intersection(SPEC, SPEC, …)``, which
    :func:`~privgeom.parse_definition` reads back as the same definition (the members' specs read back).

    Examples
    --------
    >>> import privgeom as pg
    >>> adp = pg.parse_definition("adp:graph=hamming,k=2,exp_eps=2,delta=1/4")
    >>> both = IntersectionDefinition([pg.RandomizedResponse(2, "3/4"), adp])
    >>> yes = both.contains(pg.randomized_response(2, "2/3"))
    >>> yes.member, [m.method for m in yes.witness.memberships]
    (True, ['kronecker-inverse', 'hockey-stick'])
    >>> both.row_cone() == pg.RandomizedResponse(2, "3/4").row_cone()
    True
    """

    def __init__(self, members: Sequence[PrivacyDefinition]) -> None:
        flat: list[PrivacyDefinition] = []
        for d in members:
            if not isinstance(d, PrivacyDefinition):
                raise InvalidTypeError(f"an intersection takes privacy definitions, got {type(d).__name__}")
            flat.extend(d.members if isinstance(d, IntersectionDefinition) else (d,))
        if len(flat) < 2:
            raise InvalidInputError(f"an intersection needs at least two definitions, got {len(flat)}")
        inputs = tuple(flat[0].inputs)
        for d in flat[1:]:
            if tuple(d.inputs) != inputs:
                raise DomainMismatchError(
                    f"the definitions have different datasets: {list(inputs)[:6]} and {list(d.inputs)[:6]}"
                )
        self._members = tuple(flat)
        self._inputs = inputs
        self._exact = all(d.exact for d in flat)

    @property
    def members(self) -> tuple[PrivacyDefinition, ...]:
        """The intersected definitions, in order."""
        return self._members

    @property
    def name(self) -> str:
        return "intersection(" + ", ".join(short_spec(d) for d in self._members) + ")"

    def spec(self) -> str:
        """``intersection(SPEC, SPEC, …)``, the members' specs: :func:`~privgeom.parse_definition` reads it back as
        an intersection of the same members (a compound form of :mod:`privgeom.definitions._registry`)."""
        return "intersection(" + ", ".join(d.spec() for d in self._members) + ")"

    @property
    def row_cone_decides_closure(self) -> bool:
        """False: a member is not decided by its row cone, so neither is the intersection (module docstring)."""
        return False

    def row_cone(self) -> Cone:
        """``R_A ∩ R_B ∩ …`` (module docstring), canonical; float unless every member's row cone is exact."""
        return self._cached_row_cone(self._build_row_cone)

    def _build_row_cone(self) -> Cone:
        cones = [_exact_if_integral(d.row_cone()) for d in self._members]
        exact = all(c.exact for c in cones)
        symmetric = symmetric_intersection(*cones) if exact else None  # by orbit when a member's group permutes all
        if symmetric is not None:
            return ConeDefinition(symmetric).row_cone()
        if not exact:
            cones = [c.to_float() if c.exact else c for c in cones]
        facets = np.vstack([c.facets for c in cones])
        eqs = [c.equalities for c in cones if len(c.equalities)]
        cone = Cone.from_facets(facets, np.vstack(eqs) if eqs else None, exact=exact, labels=self._inputs)
        return ConeDefinition(cone).row_cone()

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Is ``mechanism`` in the closure of every member? The first "no" is returned with that member's certificate."""
        self.check_method(method)
        M = self.check_mechanism(mechanism)
        answers: list[Membership] = []
        for d in self._members:
            ans = d.contains(M, atol=atol)
            if not ans.member:
                return Membership(
                    member=False,
                    method="intersection",
                    exact=ans.exact,
                    certificate=ans.certificate,
                    detail=f"not in {short_spec(d)} [{ans.method}]" + (f": {ans.detail}" if ans.detail else ""),
                )
            answers.append(ans)
        witness = IntersectionWitness(
            definitions=tuple(short_spec(d) for d in self._members), memberships=tuple(answers)
        )
        return Membership(
            member=True,
            method="intersection",
            exact=all(a.exact for a in answers),
            witness=witness,
            detail=f"in every one of the {len(answers)} definitions",
        )

    def to_dict(self) -> dict[str, Any]:
        """The members' specs and the row-cone flag (JSON data; :meth:`spec` is the form that reads back)."""
        return {"intersection": [d.spec() for d in self._members], "row_cone_decides_closure": False}


def _member_rule(X: IntersectionDefinition, Y: Any) -> Inclusion | None:
    """``closure(A) ∩ closure(B) ⊆ closure(A)``: an intersection is inside each of its members (the same object or
    the same spec), whatever decides their membership; None (the generic rules) for any other ``Y``."""
    for d in X.members:
        if d is Y or d.spec() == Y.spec():
            return _inclusion(
                X,
                Y,
                holds=True,
                method="intersection-member",
                exact=True,
                detail=f"{short_spec(Y)} is one of the intersected definitions, and an intersection is "
                f"inside each of them",
            )
    return None


_pair_rule.register(IntersectionDefinition, _member_rule)  # compare(): an intersection is inside its members
