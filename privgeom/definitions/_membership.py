"""The results of consistent-closure membership: the answer, its witnesses and certificates, and the nearest member.

A privacy definition is a set of mechanisms over one ordered input domain (Lin & Kifer's row-cone paper,
``docs/theory.md`` §2–3); :meth:`~privgeom.PrivacyDefinition.contains` answers "is ``M`` in the consistent closure?"
with a :class:`Membership`: a yes carries a *witness* (how to build ``M`` from the definition), a no carries a
*certificate* (why it cannot be built). Both are re-verified before they are returned (exactly in exact mode, within
``atol`` in float mode). :meth:`~privgeom.PrivacyDefinition.nearest` answers with a :class:`Nearest`.

These types sit below every module of :mod:`privgeom.definitions` that builds them (the base class in ``_base.py``,
the row-cone tests of ``_rows.py``, the closure LP of ``_closure.py``, the nearest-member LP of ``_nearest.py``), so
the base class can call those modules without an import circle; so does :class:`Definition`, the part of the
definition interface those modules read (a typing protocol that every ``PrivacyDefinition`` satisfies). Users receive
the results; they are public in :mod:`privgeom.results`.

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
>>> import privgeom as pg
>>> ans = pg.RandomizedResponse(2, "3/4").contains(pg.randomized_response(2, "2/3"))
>>> type(ans) is Membership, type(ans.witness) is ClosureWitness, ans.method, ans.exact
(True, True, 'kronecker-inverse', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .._core.errors import InvalidTypeError
from .._core.numbers import fraction_str, number_text, Scalar
from .._core.results import Decision, Result, to_jsonable
from ..mechanisms import Mechanism

if TYPE_CHECKING:  # pragma: no cover
    from ..geometry._cone import Cone

#: Vectors longer than this are left out of JSON output (a k = 20 certificate has 2^20 entries).
_JSON_VECTOR_LIMIT = 4096

__all__ = [
    "Definition",
    "Membership",
    "ClosureWitness",
    "RowWitness",
    "SeparatingCertificate",
    "RowCertificate",
    "CompletionWitness",
    "Nearest",
    "NearestCertificate",
]


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


class Definition(Protocol):
    """What the generic routes below the base class (``_rows.py``, ``_nearest.py``) read of a privacy definition: the
    part of :class:`~privgeom.PrivacyDefinition`'s interface they need, as a typing protocol, so that they annotate
    their argument without importing the base class that calls them."""

    @property
    def name(self) -> str: ...
    @property
    def inputs(self) -> tuple[str, ...]: ...
    @property
    def n_inputs(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def row_cone_decides_closure(self) -> bool: ...
    def row_cone(self) -> Cone: ...
    def check_mechanism(self, mechanism: Mechanism) -> Mechanism: ...
    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership: ...
