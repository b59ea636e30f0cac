"""The :class:`PrivacyDefinition` interface and the results of consistent-closure membership.

A privacy definition is a set of mechanisms over one ordered input domain (Lin & Kifer's row-cone paper,
``docs/theory.md`` §2–3). Its *consistent closure* (Definition 3.3, Theorem 3.4) adds every post-processing and
every mixture; its *row cone* (Definition 3.5) is the cone of all rows of all mechanisms in the closure.

:meth:`PrivacyDefinition.contains` answers "is ``M`` in the consistent closure?" with a :class:`Membership`: a
yes carries a *witness* (how to build ``M`` from the definition), a no carries a *certificate* (why it cannot be
built). Both are re-verified before they are returned (exactly in exact mode, within ``atol`` in float mode).

Witness and certificate types
-----------------------------
:class:`ClosureWitness`
    Post-processings ``A_j`` and mixture weights ``λ_j`` with ``M = Σ_j λ_j A_j M_j`` (Theorem 3.4).
:class:`RowWitness`
    Non-negative coefficients ``y`` with ``x = y · G`` for one row ``x`` and generator rows ``G``.
:class:`SeparatingCertificate`
    A functional ``W`` (same shape as ``M``) and a bound ``β``: every ``N`` in the closure has ``⟨W, N⟩ ≥ β``
    but ``⟨W, M⟩ < β``.
:class:`RowCertificate`
    One row ``x`` of ``M`` and a valid inequality ``a · x ≥ 0`` of the row cone that it violates (a facet, a DP edge
    inequality or an equality of the cone's span). Rows of members lie in the row cone, so this proves "no" for
    every definition.

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
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import numpy as np

from .._core.registry import registry
from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SolverError
from .._core.level import PrivacyLevel, ScalarLike
from .._core.arrays import ATOL, readonly
from .._core.numbers import fraction_str, Scalar
from .._core.numbers import number_text
from .._core.results import Decision, Result, to_jsonable
from ..mechanisms import Mechanism
from ..geometry._structure import RowTest
from ..geometry._symmetry import automorphisms, trivial_automorphisms

if TYPE_CHECKING:  # pragma: no cover
    from ..geometry._cone import Cone

#: Vectors longer than this are left out of JSON output (a k = 20 certificate has 2^20 entries).
_JSON_VECTOR_LIMIT = 4096

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


# ---------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class ClosureWitness(Result):
    """Proof of closure membership: ``M = Σ_j λ_j A_j M_j`` (Lin & Kifer, Theorem 3.4).

    Attributes
    ----------
    components : tuple of int
        Indices (into the definition's list of mechanisms) of the ``M_j`` that are used (``λ_j > 0``).
    weights : tuple of Fraction or float
        The mixture weights ``λ_j`` (a probability vector over ``components``).
    post_processings : tuple of numpy arrays (or factored Mechanisms)
        Column-stochastic ``A_j`` (rows = outputs of ``M``, columns = outputs of ``M_j``). Beyond the dense size
        limit, :class:`~privgeom.RandomizedResponse` returns a factored :class:`~privgeom.Mechanism` (inputs = outputs
        of ``M_j``; :attr:`~privgeom.Mechanism.factors`) instead of a dense array.
    residual : Fraction or float
        ``max |Σ_j λ_j A_j M_j − M|``: exactly 0 in exact mode, at most the tolerance in float mode.
    """

    components: tuple[int, ...]
    weights: tuple[Scalar, ...]
    post_processings: tuple[Any, ...]  # numpy arrays; factored Mechanisms beyond the dense limit
    residual: Scalar = 0

    def summary(self) -> str:
        parts = [f"λ={fraction_str(w)}·A{j}∘M{c}" for j, (c, w) in enumerate(zip(self.components, self.weights))]
        return "M = " + " + ".join(parts) + f" (residual {fraction_str(self.residual)})"


@dataclass(frozen=True)
class RowWitness(Result):
    """Proof that a row ``x`` lies in a cone: ``x = Σ_g y_g · generator_g`` with every ``y_g ≥ 0``.

    Attributes
    ----------
    coefficients : numpy array
        The ``y_g`` (Fractions in exact mode). For huge structured cones (randomized response at ``k = 20``) the
        array is built lazily from ``numerators / denominator`` on first access (``numerators``: an integer
        array or big integers held modularly).
    generators : str
        What the generators are (e.g. ``"rows of M_rr(3/4)"``).
    residual : Fraction or float
        ``max |y · G − x|`` (0 in exact mode).
    """

    generators: str
    residual: Scalar = 0
    numerators: Any = field(default=None, repr=False)
    denominator: int = field(default=1, repr=False)
    _coefficients: np.ndarray | None = field(default=None, repr=False)

    @property
    def coefficients(self) -> np.ndarray:
        """The coefficients ``y`` (Fractions in exact mode, floats otherwise)."""
        if self._coefficients is not None:
            return self._coefficients
        if self.numerators is None:
            raise InvalidTypeError("this RowWitness holds no coefficients")
        from fractions import Fraction

        nums = self.numerators.to_ints() if hasattr(self.numerators, "to_ints") else self.numerators
        if nums.dtype.kind == "f":
            out = nums / self.denominator
        else:
            d = int(self.denominator)
            out = np.array([Fraction(int(v), d) for v in nums], dtype=object)
        object.__setattr__(self, "_coefficients", out)
        return out

    def __len__(self) -> int:
        if self._coefficients is not None:
            return len(self._coefficients)
        if self.numerators is None:
            return 0
        return int(self.numerators.shape[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "generators": self.generators,
            "residual": to_jsonable(self.residual),
            "coefficients": to_jsonable(self.coefficients)
            if len(self) <= _JSON_VECTOR_LIMIT
            else "(omitted: too long)",
        }

    def summary(self) -> str:
        return f"row = y · ({self.generators}) with y ≥ 0 ({len(self)} coefficients)"


@dataclass(frozen=True)
class SeparatingCertificate(Result):
    """Proof of non-membership by a separating functional (LP duality / Farkas' lemma).

    For every ``N = Σ_j λ_j A_j M_j`` in the closure,
    ``⟨W, N⟩ = Σ_j λ_j Σ_{o,ω} A_j[o, ω] (W M_jᵀ)[o, ω] ≥ min_j Σ_ω min_o (W M_jᵀ)[o, ω] = bound``, because each
    column of ``A_j`` is a probability vector. The mechanism ``M`` has ``⟨W, M⟩ = value < bound``.

    Attributes
    ----------
    functional : numpy array
        ``W``, same shape as the tested mechanism (Fractions in exact mode).
    bound : Fraction or float
        ``β = min_j Σ_ω min_o (W M_jᵀ)[o, ω]``, recomputed from ``W`` when verifying.
    value : Fraction or float
        ``⟨W, M⟩`` (strictly below ``bound``; in float mode by more than the tolerance).
    """

    functional: np.ndarray
    bound: Scalar
    value: Scalar

    @property
    def gap(self) -> Scalar:
        """``bound − value > 0``."""
        return self.bound - self.value

    def summary(self) -> str:
        return (
            f"separating functional W: every mechanism in the closure has ⟨W, N⟩ ≥ {fraction_str(self.bound)}, "
            f"but ⟨W, M⟩ = {fraction_str(self.value)}"
        )


@dataclass(frozen=True)
class RowCertificate(Result):
    """Proof of non-membership by one row that leaves the row cone.

    Every row of every mechanism in the closure satisfies ``normal · x ≥ 0`` (a valid inequality of the row cone:
    a facet, an edge inequality of DP, or ``±e · x ≥ 0`` for an equality ``e · x = 0`` of the cone's span). Row
    ``row`` of the tested mechanism has ``normal · x = value < 0`` (Lin & Kifer, Definition 3.5 and Section III-C).

    Attributes
    ----------
    row : int
        Index of the offending output (row) of the tested mechanism (``-1`` when a bare vector was tested).
    output : str
        Its label.
    normal : numpy array
        The inequality ``a`` over the inputs (Fractions in exact mode). Omitted from JSON when longer than 4096.
    value : Fraction or float
        ``a · x`` (negative).
    inequality : str
        Readable form, e.g. ``"3 x[00] - x[01] >= 0"`` or ``"x[11] <= 3 x[10]"``.
    label : str
        Which inequality (facet bit string ``s``, DP edge ``"11->10"``, ``"span"`` …).
    edge : tuple of str or None
        For DP: the neighbour pair ``(D_i, D_j)`` with ``x_i ≤ e^ε x_j`` violated.
    """

    row: int
    output: str
    normal: np.ndarray
    value: Scalar
    inequality: str
    label: str = ""
    edge: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {f: to_jsonable(getattr(self, f)) for f in ("row", "output", "value", "inequality", "label", "edge")}
        d["normal"] = to_jsonable(self.normal) if len(self.normal) <= _JSON_VECTOR_LIMIT else "(omitted: too long)"
        return d

    def summary(self) -> str:
        where = f"row {self.output!r}" if self.row >= 0 else "the vector"
        return f"{where} violates {self.inequality} (value {fraction_str(self.value)} < 0)"


@dataclass(frozen=True)
class Membership(Decision):
    """Answer to "is this mechanism (or row) in the consistent closure / row cone?".

    Attributes
    ----------
    member : bool
        The answer; ``bool(membership)`` is ``member``. :attr:`holds` is the same answer under the name every
        decision of privgeom uses (primary, what generic code reads); ``member`` is its synonym in the domain word.
    method : str
        Which procedure decided: ``"kronecker-inverse"``, ``"linear-solve"``, ``"lp"``,
        ``"dp-row-inequalities"``, ``"row-cone"`` …
    exact : bool
        True when the answer (and its witness / certificate) was verified in exact rational arithmetic; False for
        float mode (verified within ``atol``).
    witness : ClosureWitness, RowWitness or None
        For a yes: how to build the mechanism. None for definitions that are their own closure (e.g. DP), and for
        method ``"row-cone"`` where the row cone decides the closure: checking every row against every facet
        *is* the proof there.
    certificate : SeparatingCertificate, RowCertificate or None
        For a no: why it is not a member (always present for a no).
    detail : str
        A readable sentence.

    Examples
    --------
    >>> import privgeom as pg
    >>> m = pg.RandomizedResponse(1, "3/4").contains(pg.randomized_response(1, "2/3"))
    >>> isinstance(m, pg.Membership), m.holds, m.member, m.method
    (True, True, True, 'kronecker-inverse')
    """

    member: bool
    method: str
    exact: bool
    witness: Result | None = None
    certificate: Result | None = None
    detail: str = ""

    @property
    def holds(self) -> bool:
        """The answer, under the name every yes/no result answers with (primary): ``.member`` is the same value
        under the domain word, kept as its documented synonym."""
        return self.member

    def __bool__(self) -> bool:
        return bool(self.member)

    def summary(self) -> str:
        verdict = "member" if self.member else "not a member"
        mode = "exact" if self.exact else "float"
        text = f"{verdict} (method {self.method}, {mode})"
        if self.detail:
            text += f": {self.detail}"
        proof = self.witness if self.member else self.certificate
        if proof is not None:
            text += f"\n  {'witness' if self.member else 'certificate'}: {proof.summary()}"
        return text


@dataclass(frozen=True)
class CompletionWitness(Result):
    """Proof that a vector ``x`` is in the row cone: ``x = scale · (row 0 of mechanism)`` for a verified member.

    The member is ``[[c x], [1 − c x]]`` for a small ``c > 0``. For (ε, δ)-DP, ``c = min(1, δ) / max(x)``: the
    total-variation distance between two columns is ``c |x_D − x_D'| ≤ min(1, δ)`` and the hockey-stick value at any
    ``e^ε ≥ 1`` is at most the total variation. For Pufferfish, ``c ≤ (e^ε − 1) / (a·x)`` for every condition
    ``a`` with ``a·x > 0`` (and ``c ≤ 1/max(x)``), because ``a·1 = e^ε − 1``.

    Attributes
    ----------
    mechanism : Mechanism
        The two-output member.
    row : int
        Which row of ``mechanism`` is proportional to ``x`` (0).
    scale : Fraction or float
        ``x = scale · mechanism.row(row)`` (``scale = 1/c``).
    membership : Membership
        The verified hockey-stick membership of ``mechanism``.
    """

    mechanism: Mechanism
    row: int
    scale: Scalar
    membership: Membership

    def summary(self) -> str:
        rows = "; ".join(", ".join(fraction_str(v) for v in r) for r in self.mechanism.matrix)
        return (
            f"x = {fraction_str(self.scale)} · row {self.row} of the member [{rows:.200}] "
            f"({self.membership.witness.summary() if self.membership.witness is not None else 'verified'})"
        )


@to_jsonable.register(RowWitness)
@to_jsonable.register(RowCertificate)
def _row_result_json(obj: Any) -> Any:
    return obj.to_dict()


# ---------------------------------------------------------------------------------------------------- nearest
#: The results of :meth:`PrivacyDefinition.nearest` (computed by ``_nearest.py``), beside the other results of
#: membership.
@dataclass(frozen=True)
class NearestCertificate(Result):
    """LP-duality lower bound on the distance from ``M`` to the closure.

    Attributes
    ----------
    lower_bound : Fraction or float
        ``b · y`` for a dual-feasible ``y`` (checked: ``Aᵀ y ≤ c``, exactly in exact mode): no mechanism of the
        closure is closer to ``M`` than this.
    functional : numpy array
        The part of ``y`` on the rows ``N − D⁺ + D⁻ = M`` (same shape as ``M``).
    optimal : bool
        ``lower_bound`` equals the reported distance: the repaired mechanism is a nearest one.
    """

    lower_bound: Scalar
    functional: np.ndarray
    optimal: bool

    def summary(self) -> str:
        how = "= the distance: optimal" if self.optimal else "(a lower bound)"
        return f"every mechanism in the closure is at distance ≥ {fraction_str(self.lower_bound)} {how}"


@dataclass(frozen=True)
class Nearest(Result):
    """The closest mechanism of the closure to a given mechanism, with its distance and proofs.

    Attributes
    ----------
    mechanism : Mechanism
        The repaired mechanism ``N`` (same inputs and outputs as the given one; exact in exact mode).
    distance : Fraction or float
        ``‖N − M‖`` in ``norm``, computed from ``mechanism`` (exactly in exact mode).
    norm : str
        ``"l1"``, ``"l1-column"`` or ``"linf"`` (see the module docstring).
    exact : bool
    method : str
        ``"mixture-lp"`` (finite definitions) or ``"row-cone-lp"``; ``"member"`` when ``M`` already was a member.
    membership : Membership
        The verified membership of ``mechanism`` (its witness).
    certificate : NearestCertificate or None
        The optimality certificate (LP dual); None when ``M`` is a member (distance 0 needs none).
    original_member : bool
        Whether the given mechanism was already in the closure.
    """

    mechanism: Mechanism
    distance: Scalar
    norm: str
    exact: bool
    method: str
    membership: Membership
    certificate: NearestCertificate | None
    original_member: bool
    detail: str = ""

    def summary(self) -> str:
        if self.original_member:
            return "the mechanism is already in the closure (distance 0)"
        d = number_text(self.distance if self.exact else float(self.distance))
        text = (
            f"nearest member at {self.norm} distance {d} ({'exact' if self.exact else 'float'}, {self.method}); "
            f"membership verified [{self.membership.method}]"
        )
        if self.certificate is not None:
            text += f"\n  optimality: {self.certificate.summary()}"
        return text


# ---------------------------------------------------------------------------------------------------- interface
#: The generic implementations behind :meth:`PrivacyDefinition.nearest` (installed by ``_nearest``),
#: :meth:`PrivacyDefinition.contains_row` (``_rows``) and the design operations ``without``, ``only`` and
#: ``from_guarantees`` (``analyses/design/_design.py``). Those modules import this one, so the base class reaches them
#: through this table of the base layer (:mod:`privgeom._core.registry`); the package's façade names the module
#: providing each entry, imported on first use.
GENERIC_OPERATIONS = registry("definition operations")


def register_generic(name: str, implementation: Callable[..., Any]) -> None:
    """Install the generic implementation of the :class:`PrivacyDefinition` method ``name``."""
    GENERIC_OPERATIONS[name] = implementation


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

        The answer to "my mechanism fails — what is the smallest change that passes?": see
        :func:`privgeom.definitions._nearest.nearest` (``_nearest.py``) for the LP, the norms and the certificates.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> from privgeom.definitions import DifferentialPrivacy
        >>> rep = DifferentialPrivacy.hamming(1, exp_eps=3).nearest(randomized_response(1, "4/5"), "linf")
        >>> rep.distance, rep.membership.member, rep.certificate.optimal   # 4/5 − s ≤ 3 (1/5 + s) at s = 1/20
        (Fraction(1, 20), True, True)
        """
        nearest = GENERIC_OPERATIONS["nearest"]  # privgeom.definitions._nearest.nearest
        return nearest(self, mechanism, norm, atol=atol, solver=solver, max_nonzeros=max_nonzeros)

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is the vector ``x`` (one value per dataset) in the row cone? Default: :meth:`row_cone` ``.contains``."""
        generic_row_membership = GENERIC_OPERATIONS["contains_row"]  # privgeom.definitions._rows
        return generic_row_membership(self, x, atol=atol)

    # -- design (docs/theory.md §13) ---------------------------------------------------------------------------
    def without(self, facets: Iterable[int] = (), *, orbits: Iterable[int] = ()) -> "PrivacyDefinition":
        """The weaker cone definition without some facets of the row cone: 0-based positions in
        ``row_cone().facets`` (the order of :func:`~privgeom.semantics` and ``privgeom rowcone --all``), or whole
        symmetry orbits. A design operation: implemented by :func:`privgeom.analyses.design._design.without`, reached
        through the registry of the base layer; refused for a definition its row cone does not decide.

        Examples
        --------
        >>> from privgeom import RandomizedResponse
        >>> RandomizedResponse(2, "3/4").without([0]).row_cone().n_facets   # 3 facets left, and x_00 ≥ 0
        4
        """
        return GENERIC_OPERATIONS["without"](self, facets, orbits=orbits)

    def only(self, predicate: Callable[[Any], bool]) -> "PrivacyDefinition":
        """The cone definition keeping the guarantees (:func:`privgeom.semantics`) that ``predicate`` accepts. A design
        operation: implemented by :func:`privgeom.analyses.design._design.only`, reached through the registry of the
        base layer; refused for a definition its row cone does not decide."""
        return GENERIC_OPERATIONS["only"](self, predicate)

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
