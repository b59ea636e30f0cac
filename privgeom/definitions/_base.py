"""The :class:`PrivacyDefinition` interface: what every privacy definition answers and shares.

A privacy definition is a set of mechanisms over one ordered input domain (Lin & Kifer's row-cone paper,
``docs/theory.md`` §2–3). Its *consistent closure* (Definition 3.3, Theorem 3.4) adds every post-processing and
every mixture; its *row cone* (Definition 3.5) is the cone of all rows of all mechanisms in the closure.

:meth:`PrivacyDefinition.contains` answers "is ``M`` in the consistent closure?" with a :class:`Membership` carrying
a verified witness or certificate; its result types live in ``_membership.py`` (re-exported here). The generic
routes every definition inherits are plain calls into the modules of this package that implement them:
:meth:`~PrivacyDefinition.contains_row` runs ``_rows.generic_row_membership`` (the row cone's own test) and
:meth:`~PrivacyDefinition.nearest` the LP of ``_nearest.py``; neither imports this module, so there is no circle.
The design operations (``pg.without``, ``pg.only``, ``pg.from_guarantees``) are functions of
``analyses/design/_design.py``, not methods.

Examples
--------
>>> from privgeom.definitions import RandomizedResponse
>>> from privgeom import randomized_response
>>> ans = RandomizedResponse(2, "3/4").contains(randomized_response(2, "2/3"))
>>> bool(ans), ans.method, ans.exact
(True, 'kronecker-inverse', True)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SolverError
from .._core.level import PrivacyLevel, ScalarLike
from .._core.arrays import ATOL, readonly
from .._core.numbers import Scalar
from .._core.removed import RemovedMethod
from ..mechanisms import Mechanism
from ..geometry._structure import RowTest
from ..geometry._symmetry import automorphisms, trivial_automorphisms
from ._membership import (
    ClosureWitness,
    CompletionWitness,
    Membership,
    Nearest,
    NearestCertificate,
    RowCertificate,
    RowWitness,
    SeparatingCertificate,
)
from ._nearest import nearest as nearest_member
from ._rows import generic_row_membership

if TYPE_CHECKING:  # pragma: no cover
    from ..geometry._cone import Cone

__all__ = [
    "PrivacyDefinition",
    "Membership",
    "ClosureWitness",
    "RowWitness",
    "SeparatingCertificate",
    "RowCertificate",
    "CompletionWitness",
    "Nearest",
    "NearestCertificate",
]


# ---------------------------------------------------------------------------------------------------- interface
class PrivacyDefinition(ABC):
    """A privacy definition: a set of mechanisms over one ordered input domain (Lin & Kifer, Section III).

    Subclasses implement consistent-closure membership (:meth:`contains`), the row cone (:meth:`row_cone`), say
    honestly whether the row cone alone decides membership (:attr:`row_cone_decides_closure`) and give a spec
    string that :func:`~privgeom.definitions.parse_definition` reads back (:meth:`spec`).

    What every definition shares lives here: the datasets (:attr:`inputs`, from ``self._inputs``), the mode
    (:attr:`exact`, from ``self._exact``), the float tolerance (``self._atol``, :data:`~privgeom._core.arrays.ATOL`
    unless the constructor takes ``atol=``), the row test a lazily built cone calls back (:meth:`_cone_contains`),
    its symmetry (:meth:`_symmetry`), the once-built row cone (:meth:`_cached_row_cone`), the certificate of a
    negative entry (:meth:`_negative_entry`) and the two-output completion of a row (:meth:`_completion`). A
    subclass sets ``_inputs`` and ``_exact`` in its constructor and states only what differs.

    Class attribute ``membership_methods`` lists the values ``contains(..., method=...)`` accepts besides
    ``"auto"`` (the shared contract tests run every one of them).

    Examples
    --------
    >>> import privgeom as pg
    >>> rr = pg.RandomizedResponse(1, "3/4")
    >>> isinstance(rr, pg.PrivacyDefinition), rr.inputs, rr.row_cone().n_facets
    (True, ('1', '0'), 2)
    """

    #: Backends accepted by :meth:`contains` besides ``"auto"``.
    membership_methods: tuple[str, ...] = ()
    #: Dataset labels, in order (set by every constructor).
    _inputs: tuple[str, ...]
    #: True when the parameters are exact rationals (set by every constructor).
    _exact: bool
    #: Float-mode tolerance used when a call passes ``atol=None``.
    _atol: float = ATOL

    # -- identity ---------------------------------------------------------------------------------------------
    @property
    def inputs(self) -> tuple[str, ...]:
        """Dataset labels (the input domain, in order)."""
        return self._inputs

    @property
    def exact(self) -> bool:
        """True when the definition's parameters are exact rationals."""
        return self._exact

    @property
    @abstractmethod
    def name(self) -> str:
        """Short human-readable name, e.g. ``"randomized response (k=2, p=3/4)"``."""

    @abstractmethod
    def spec(self) -> str:
        """Spec string read back by :func:`~privgeom.definitions.parse_definition` (e.g. ``"rr:k=2,p=3/4"``)."""

    # -- geometry ---------------------------------------------------------------------------------------------
    @abstractmethod
    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Is ``mechanism`` in the consistent closure of this definition (Lin & Kifer, Theorem 3.4)?"""

    @abstractmethod
    def row_cone(self) -> "Cone":
        """The row cone (Lin & Kifer, Definition 3.5) as a :class:`~privgeom.geometry.Cone` over :attr:`inputs`."""

    @property
    @abstractmethod
    def row_cone_decides_closure(self) -> bool:
        """True only when "every row in the row cone" is *equivalent* to closure membership (a theorem)."""

    def nearest(
        self,
        mechanism: Mechanism,
        norm: str = "l1",
        *,
        atol: float | None = None,
        solver: str = "dual",
        max_nonzeros: int | None = None,
    ) -> "Nearest":
        """The closest mechanism of the closure to ``mechanism`` (``"l1"``, ``"l1-column"`` or ``"linf"``), verified.

        The answer to "my mechanism fails — what is the smallest change that passes?": the LP of ``_nearest.py``
        (:func:`privgeom.definitions._nearest.nearest`), its norms and its certificates.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> from privgeom.definitions import DifferentialPrivacy
        >>> rep = DifferentialPrivacy.hamming(1, exp_eps=3).nearest(randomized_response(1, "4/5"), "linf")
        >>> rep.distance, rep.membership.member, rep.certificate.optimal   # 4/5 − s ≤ 3 (1/5 + s) at s = 1/20
        (Fraction(1, 20), True, True)
        """
        return nearest_member(self, mechanism, norm, atol=atol, solver=solver, max_nonzeros=max_nonzeros)

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is the vector ``x`` (one value per dataset) in the row cone? Default: :meth:`row_cone` ``.contains``."""
        return generic_row_membership(self, x, atol=atol)

    # -- the design operations are functions (pg.without, pg.only); reading these names says so, for one release
    without = RemovedMethod()
    only = RemovedMethod()

    # -- helpers for subclasses ------------------------------------------------------------------------------
    @property
    def n_inputs(self) -> int:
        """Number of datasets."""
        return len(self.inputs)

    def _tol(self, atol: float | None) -> float:
        """The float tolerance of one call: ``atol``, else the definition's (``self._atol``)."""
        return self._atol if atol is None else float(atol)

    @staticmethod
    def _checked_atol(atol: Any, owner: str) -> float:
        """``atol`` as a non-negative float (the constructors that take ``atol=``), else InvalidParameterError."""
        if isinstance(atol, bool) or not isinstance(atol, (int, float)) or not atol >= 0:
            raise InvalidParameterError(f"{owner}: atol must be a non-negative float, got {atol!r}")
        return float(atol)

    def _symmetry(self) -> Any:
        """The dataset permutations mapping the row cone onto itself (:func:`~privgeom.automorphisms`), for the
        ``"symmetry"`` entry of a lazily built cone's structure."""
        return automorphisms(self)

    def _cone_contains(self, x: np.ndarray, exact: bool, atol: float) -> RowTest:
        """:meth:`contains_row` in the form a lazily built cone calls back (``ConeStructure.contains``)."""
        ans = self.contains_row(x, atol=atol)
        if ans.member:
            return RowTest(member=True)
        cert: Any = ans.certificate
        return RowTest(member=False, normal=cert.normal, value=cert.value)

    def _cached_row_cone(self, build: Callable[[], "Cone"]) -> "Cone":
        """The row cone built once by ``build`` and kept (a definition is immutable)."""
        cached = self.__dict__.get("_row_cone_cached")
        if cached is None:
            cached = self.__dict__["_row_cone_cached"] = build()
        return cached

    def _completion(
        self,
        row: list[Any],
        scale: Scalar,
        exact: bool,
        check: Callable[[Mechanism], Membership],
        method: str,
        detail: str,
    ) -> Membership:
        """The "yes" for a vector ``x ≥ 0`` given as ``row = x / scale``: the two-output mechanism ``[[row], [1 − row]]``
        is built, verified a member by ``check`` and returned as a :class:`CompletionWitness`.

        The definitions whose row cone is reached this way ((ε, δ)-DP with δ > 0, Pufferfish) choose ``row`` so that
        membership is a theorem (see :class:`CompletionWitness`); a failed check is a SolverError, never a "no".
        """
        one: Any = Fraction(1) if exact else 1.0
        M = Mechanism([row, [one - v for v in row]], inputs=self.inputs, outputs=["x", "rest"], exact=exact)
        member = check(M)
        if not member.member:  # pragma: no cover - a theorem, checked anyway
            raise SolverError(f"{self.name}: the completion {[str(v) for v in row][:8]} is not a member; please report")
        return Membership(
            member=True,
            method=method,
            exact=exact,
            witness=CompletionWitness(mechanism=M, row=0, scale=scale, membership=member),
            detail=detail,
        )

    def _negative_entry(
        self, vec: np.ndarray, exact: bool, tol: float, method: str, detail: Callable[[int], str] | None = None
    ) -> Membership | None:
        """The "no" for a vector with a negative entry (it leaves the orthant ``x ≥ 0`` that contains every row
        cone), or None when every entry is non-negative (within ``tol`` in float mode).

        The certificate is the inequality ``x_i ≥ 0`` of the first negative entry ``i``, labelled ``"nonnegative"``.
        """
        neg = [i for i, v in enumerate(vec) if (v < 0 if exact else v < -tol)]
        if not neg:
            return None
        i = neg[0]
        normal = np.array([Fraction(0)] * self.n_inputs, dtype=object) if exact else np.zeros(self.n_inputs)
        normal[i] = 1
        cert = RowCertificate(
            row=-1,
            output="",
            normal=readonly(normal),
            value=vec[i],
            inequality=f"x[{self.inputs[i]}] ≥ 0",
            label="nonnegative",
        )
        return Membership(
            member=False,
            method=method,
            exact=exact,
            certificate=cert,
            detail=detail(i) if detail is not None else "a negative entry",
        )

    def check_mechanism(self, mechanism: Mechanism) -> Mechanism:
        """Return ``mechanism`` if it is a :class:`Mechanism` over exactly :attr:`inputs`; raise otherwise.

        Raises
        ------
        InvalidTypeError
            Not a Mechanism.
        DomainMismatchError
            Different input labels (or order) from the definition.
        """
        if not isinstance(mechanism, Mechanism):
            raise InvalidTypeError(f"{self.name}: contains() takes a Mechanism, got {type(mechanism).__name__}")
        if tuple(mechanism.inputs) != tuple(self.inputs):
            raise DomainMismatchError(
                f"{self.name}: the mechanism's inputs {list(mechanism.inputs)[:8]} differ from the definition's "
                f"inputs {list(self.inputs)[:8]}"
            )
        return mechanism

    def check_method(self, method: str) -> str:
        """Validate ``method`` against ``"auto"`` and :attr:`membership_methods`."""
        if method != "auto" and method not in self.membership_methods:
            raise InvalidParameterError(
                f"{self.name}: unknown membership method {method!r}; choose 'auto' or one of {list(self.membership_methods)}"
            )
        return method

    def __contains__(self, mechanism: Mechanism) -> bool:
        return self.contains(mechanism).member

    def __repr__(self) -> str:
        try:
            text = self.spec()
        except Exception:  # a definition without a spec form still prints
            text = self.name
        return f"<{type(self).__name__} {text!r}>"


class HasLevel:
    """Mixin of the definitions with a privacy level (ε-DP, (ε, δ)-DP, Pufferfish, the local protocols; k-ary
    randomized response has the same :attr:`level`, built on first use from its amplification).

    :attr:`level` is the one name of ε: ``level.eps`` (a :class:`~privgeom.LogRational` in exact mode) and
    ``level.exp_eps`` (``e^ε``, a Fraction in exact mode). The constructors still take ``eps=`` or ``exp_eps=``.
    """

    _level: PrivacyLevel

    @property
    def level(self) -> PrivacyLevel:
        """The privacy level ε as a :class:`~privgeom.PrivacyLevel` (``.eps``, ``.exp_eps``, ``.exact``).

        Examples
        --------
        >>> from privgeom.definitions import DifferentialPrivacy
        >>> lv = DifferentialPrivacy.path(2, exp_eps=3).level
        >>> str(lv), lv.exp_eps
        ('ln(3)', Fraction(3, 1))
        """
        return self._level


automorphisms.register(
    PrivacyDefinition, trivial_automorphisms
)  # privgeom.automorphisms (geometry never imports definitions)
