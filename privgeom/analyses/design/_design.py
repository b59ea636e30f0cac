"""Designing privacy definitions: from chosen guarantees, by dropping or keeping guarantees, intersections and hulls.

Every operation returns a :class:`~privgeom.definitions.ConeDefinition` (``docs/theory.md`` §13): a cone over the
datasets whose members are the mechanisms with every row in it — except an intersection with a definition that its
row cone does not decide, which is an :class:`~privgeom.analyses.design._intersection.IntersectionDefinition`
(membership in every member). Each is sound for every kind of definition, or refuses with the reason.

* :func:`from_guarantees` — the definition that gives exactly the listed guarantees ``a·x ≥ 0`` (as
  :func:`~privgeom.semantics` returns them, as coefficient vectors, or as attacker statements
  ``{"prior": {D: w}, "s_plus": [...], "s_minus": [...]}`` meaning ``Σ_{S+} w_D x_D ≥ Σ_{S-} w_D x_D``). A
  guarantee implied by the others is reported with the certificate (Farkas' lemma, ``docs/theory.md`` §13):
  non-negative weights ``λ`` on the other guarantees and ``μ`` on ``x ≥ 0`` with ``a = Σ λ_j a_j + μ``.
* :func:`without` — drop facets (0-based positions in ``row_cone().facets``, the order of ``pg.semantics`` and of
  ``rowcone --all``; or whole symmetry orbits as ``describe_row_cone`` numbers them); the weaker definition. Refused
  for a definition its row cone does not decide (its guarantees are not the facets of its row cone).
* :func:`only` — keep the guarantees a predicate accepts (refused as :func:`without` is).
* :func:`intersection` — both: ``closure(A) ∩ closure(B)``, the cone definition of ``R_A ∩ R_B`` when both row cones
  decide; :func:`hull` — the smallest cone definition containing both: the conic hull of ``R_A ∪ R_B``.

Examples
--------
>>> from privgeom import RandomizedResponse, semantics
>>> D = from_guarantees(semantics(RandomizedResponse(1, "3/4")), ["1", "0"])
>>> D.row_cone() == RandomizedResponse(1, "3/4").row_cone(), D.redundant
(True, ())
>>> E = from_guarantees([[3, -1], [-1, 3], [5, -1]], ["1", "0"])
>>> r = E.redundant[0]
>>> r.index, r.implied_by, r.weights, r.slack
(2, (0,), (Fraction(5, 3),), (Fraction(0, 1), Fraction(2, 3)))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, NamedTuple, Sequence

import numpy as np

from ..._core.domain import Domain, InputsLike
from ..._core.errors import DomainMismatchError, InvalidInputError, InvalidParameterError, InvalidTypeError, SolverError
from ..._core.arrays import ATOL
from ..._core.numbers import fraction_str, parse_scalar, Scalar
from ..._core.results import Result
from ...definitions import PrivacyDefinition
from ...definitions._cone_definition import ConeDefinition
from ...definitions._registry import register_definition_kind
from ...definitions._rows import format_inequality
from ...geometry._cone import Cone
from ...geometry._lp import exact_nonnegative_solution, rational_candidates, solve_lp
from ._intersection import IntersectionDefinition, short_spec as _short, symmetric_intersection

__all__ = [
    "RedundantGuarantee",
    "from_guarantees",
    "without",
    "only",
    "intersection",
    "hull",
    "listed_facets",
    "guarantee_vector",
]


@dataclass(frozen=True)
class RedundantGuarantee(Result):
    """A guarantee implied by the others: ``a_index = Σ_j weights_j a_{implied_by_j} + Σ_D slack_D e_D``, all weights
    ``≥ 0`` (Farkas' lemma: so ``a_index · x ≥ 0`` whenever the others hold and ``x ≥ 0``), verified.

    Attributes
    ----------
    index : int
        Position of the redundant guarantee in the list given.
    implied_by : tuple of int
        Positions of the guarantees of the combination (those kept).
    weights : tuple
        Their non-negative weights ``λ_j``.
    slack : tuple
        ``μ_D ≥ 0`` on ``x_D ≥ 0``, one per dataset.
    text : str
        A readable sentence.
    """

    index: int
    implied_by: tuple[int, ...]
    weights: tuple[Scalar, ...]
    slack: tuple[Scalar, ...]
    exact: bool
    text: str

    def summary(self) -> str:
        return self.text


# ---------------------------------------------------------------------------------------------------- parsing
def guarantee_vector(item: Any, labels: tuple[str, ...], *, exact: bool = True) -> np.ndarray:
    """One guarantee as a coefficient vector ``a`` over ``labels`` (``a·x ≥ 0``).

    ``item`` is a :class:`~privgeom.Guarantee` (or anything with ``coefficients`` and ``labels``; reordered to
    ``labels``), a sequence of numbers, or an attacker statement ``{"prior": {D: w}, "s_plus": [...],
    "s_minus": [...]}`` (``a_D = w_D`` on S+, ``−w_D`` on S−).

    Examples
    --------
    >>> guarantee_vector({"prior": {"a": "3/4", "b": "1/4"}, "s_plus": ["a"], "s_minus": ["b"]}, ("a", "b")).tolist()
    [Fraction(3, 4), Fraction(-1, 4)]
    """
    n = len(labels)
    if hasattr(item, "coefficients") and hasattr(item, "labels"):
        glabels = tuple(item.labels)
        if set(glabels) != set(labels) or len(glabels) != n:
            raise DomainMismatchError(
                f"a guarantee over {list(glabels)[:8]} does not match the datasets {list(labels)[:8]}"
            )
        where = {d: i for i, d in enumerate(glabels)}
        vals = [item.coefficients[where[d]] for d in labels]
    elif isinstance(item, dict):
        unknown = set(item) - {"prior", "s_plus", "s_minus"}
        if unknown or "prior" not in item:
            raise InvalidInputError(
                f"an attacker statement needs 'prior', 's_plus', 's_minus' (got keys {sorted(item)})"
            )
        prior, plus, minus = item["prior"], list(item.get("s_plus", [])), list(item.get("s_minus", []))
        if not isinstance(prior, dict):
            raise InvalidInputError(f"an attacker statement's prior must map datasets to weights, got {prior!r:.80}")
        bad = [d for d in [*plus, *minus, *prior] if d not in labels]
        if bad:
            raise DomainMismatchError(f"attacker statement: dataset {bad[0]!r} is not one of {list(labels)[:8]}")
        if set(plus) & set(minus):
            raise InvalidInputError(f"attacker statement: {sorted(set(plus) & set(minus))[:4]} in both S+ and S-")
        missing = [d for d in [*plus, *minus] if d not in prior]
        if missing:
            raise InvalidInputError(f"attacker statement: dataset {missing[0]!r} of S+/S- has no prior weight")
        vals = [0] * n
        for d in plus:
            vals[labels.index(d)] = parse_scalar(prior[d], name=f"prior[{d}]")
        for d in minus:
            vals[labels.index(d)] = -parse_scalar(prior[d], name=f"prior[{d}]")
    else:
        try:
            vals = list(item)
        except TypeError:
            raise InvalidTypeError(
                f"a guarantee must be a Guarantee, a coefficient vector or an attacker statement "
                f"(dict), got {type(item).__name__}"
            ) from None
        if len(vals) != n:
            raise DomainMismatchError(f"a coefficient vector of length {len(vals)} for {n} datasets")
    parsed = [v if isinstance(v, (Fraction, float)) else parse_scalar(v, name="guarantee coefficient") for v in vals]
    if exact and all(isinstance(v, (Fraction, int)) for v in parsed):
        out = np.empty(n, dtype=object)
        out[:] = [Fraction(v) for v in parsed]
        return out
    arr = np.array([float(v) for v in parsed])
    if not np.isfinite(arr).all():
        raise InvalidInputError("a guarantee has non-finite coefficients")
    return arr


def _implied(a: np.ndarray, others: np.ndarray, exact: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """``λ ≥ 0`` with ``μ = a − λ·others ≥ 0``, verified (exactly in exact mode); None when there is none."""
    m, n = others.shape
    if m == 0:
        return (np.zeros(0, dtype=object), a.copy()) if all(v >= 0 for v in a) else None
    A = others.astype(float)
    # maximise nothing: feasibility of  othersᵀ λ ≤ a,  λ ≥ 0
    res = solve_lp(np.zeros(m), A_ub=A.T, b_ub=a.astype(float), method="highs-ds", what="redundancy LP")
    if res.status != "optimal" or res.x is None:
        if not exact:
            return None
        sol = _exact_feasible(a, others)  # HiGHS may round; the exact simplex decides
        return sol
    lam = np.clip(res.x, 0.0, None)
    if not exact:
        mu = a.astype(float) - lam.dot(A)
        return (lam, mu) if (mu >= -ATOL * max(1.0, float(np.abs(a).max()))).all() else None
    for cand in rational_candidates(lam):
        mu = a - cand.dot(others)
        if all(v >= 0 for v in cand) and all(v >= 0 for v in mu):
            return cand, mu
    return _exact_feasible(a, others)


def _exact_feasible(a: np.ndarray, others: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    m, n = others.shape
    system = np.hstack([others.T, np.eye(n, dtype=int).astype(object)])  # othersᵀ λ + μ = a
    sol = exact_nonnegative_solution(system, list(a))
    if sol is None:
        return None
    lam = np.array(sol[:m], dtype=object)
    mu = a - lam.dot(others)
    if not (all(v >= 0 for v in lam) and all(v >= 0 for v in mu)):  # pragma: no cover - exact simplex
        raise SolverError("redundancy LP: the exact simplex returned a point that does not verify")
    return lam, mu


def from_guarantees(guarantees: Iterable[Any], inputs: InputsLike, *, name: str | None = None) -> ConeDefinition:
    """The cone definition whose guarantees are exactly ``guarantees`` (``a·x ≥ 0`` for each, plus ``x ≥ 0``).

    Redundant guarantees (implied by the others kept) are listed in ``.redundant`` as :class:`RedundantGuarantee`
    with their verified Farkas combination (``docs/theory.md`` §13); the definition is the same with or without them.

    Raises
    ------
    InvalidParameterError
        The guarantees exclude every mechanism (the all-ones vector violates one), or they constrain none (every one
        is implied by ``x ≥ 0``, e.g. ``[1, 1, 1, 1]``).
    InvalidInputError
        No guarantee, or a zero coefficient vector (``0 ≥ 0`` guarantees nothing); the message names its position.
    DomainMismatchError, InvalidTypeError
        A guarantee over other datasets or of the wrong form.

    Examples
    --------
    >>> from_guarantees([[1, 1]], ["a", "b"])
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: from_guarantees: every guarantee is implied by x ≥ 0 (guarantee 0: x[a] + x[b] ≥ 0), so together they constrain no mechanism
    """
    labels = Domain.coerce(inputs).labels
    items = list(guarantees)
    if not items:
        raise InvalidInputError(
            "from_guarantees: no guarantees given (the orthant alone is every mechanism: use "
            "ConeDefinition(Cone.from_facets(identity)) if that is meant)"
        )
    vecs = [guarantee_vector(g, labels) for g in items]
    for k, v in enumerate(vecs):
        if all(c == 0 for c in v):
            raise InvalidInputError(f"from_guarantees: guarantee {k} is the zero vector: 0 ≥ 0 guarantees nothing")
    exact = all(v.dtype == object for v in vecs)
    if not exact:
        vecs = [v.astype(float) for v in vecs]
    kept = list(range(len(vecs)))
    redundant: list[RedundantGuarantee] = []
    for k in range(len(vecs)):
        others = [j for j in kept if j != k]
        rows = (
            np.vstack([vecs[j] for j in others])
            if others
            else np.zeros((0, len(labels)), dtype=object if exact else float)
        )
        sol = _implied(vecs[k], rows, exact)
        if sol is None:
            continue
        lam, mu = sol
        use = [(j, w) for j, w in zip(others, lam) if w != 0]
        kept.remove(k)
        combo = " + ".join(f"{fraction_str(w)}·g{j}" for j, w in use) or "0"
        text = f"guarantee g{k} ({format_inequality(vecs[k], labels)}) is implied: g{k} = {combo}" + (
            " + a non-negative combination of x ≥ 0" if any(v != 0 for v in mu) else ""
        )
        redundant.append(
            RedundantGuarantee(
                index=k,
                implied_by=tuple(j for j, _ in use),
                weights=tuple(w for _, w in use),
                slack=tuple(mu.tolist()),
                exact=exact,
                text=text,
            )
        )
    if not kept:
        raise InvalidParameterError(
            f"from_guarantees: every guarantee is implied by x ≥ 0 (guarantee 0: "
            f"{format_inequality(vecs[0], labels)}), so together they constrain no mechanism"
        )
    F = np.vstack([vecs[j] for j in kept])
    out = ConeDefinition(Cone.from_facets(F, exact=exact, labels=labels), name=name)
    out._redundant = tuple(redundant)
    return out


# ---------------------------------------------------------------------------------------------------- dropping
def listed_facets(definition_or_cone: Any) -> np.ndarray:
    """The facets that the design operations number: ``row_cone().facets``, in that order (the canonical order, which
    :func:`~privgeom.semantics`, ``row_cone().int_facets``, the facet orbits of :func:`~privgeom.describe_row_cone`
    and ``privgeom rowcone --all`` share), after a size check (a structured cone too large to list densely is
    refused before any row is built).

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy, RandomizedResponse
    >>> listed_facets(DifferentialPrivacy.path(2, exp_eps=2))[0].tolist()
    [Fraction(2, 1), Fraction(-1, 1), Fraction(0, 1)]
    >>> rr = RandomizedResponse(2, "3/4")
    >>> listed_facets(rr)[0].tolist() == rr.row_cone().int_facets[0].tolist() == [9, -3, -3, 1]
    True
    """
    from ..._core.arrays import check_dense_size

    cone = definition_or_cone.row_cone() if isinstance(definition_or_cone, PrivacyDefinition) else definition_or_cone
    st = cone.structure
    if st is not None and st.n_facets is not None:
        check_dense_size(st.n_facets, cone.ambient_dim, exact=cone.exact, what="the facets of the row cone")
    return cone.facets


def _decided(definition: PrivacyDefinition, operation: str) -> None:
    """Refuse ``operation`` on a definition its row cone does not decide: its guarantees are not the facets of its row
    cone, so dropping or keeping facets would describe a cone definition (a superset), not a weaker form of it."""
    if not isinstance(definition, PrivacyDefinition):
        raise InvalidTypeError(f"{operation}() takes a privacy definition, got {type(definition).__name__}")
    if not definition.row_cone_decides_closure:
        raise InvalidParameterError(
            f"{operation}(): {_short(definition)} is not decided by its row cone (a mechanism with every row in it "
            f"can still be outside the definition), so its guarantees are not the facets of its row cone and "
            f"{operation}() would not give a weaker form of it; for the cone definition of its row cone use "
            f"ConeDefinition(D.row_cone()).{operation}(...)"
        )


def _orbit_members(definition: PrivacyDefinition, orbits: Sequence[int]) -> set[int]:
    """The positions in ``row_cone().facets`` of the facets of symmetry orbits ``orbits``, numbered as
    :func:`~privgeom.describe_row_cone` lists them (its member indices follow a structured cone's own facet order, so
    each orbit is found again on the canonical facets: the one holding its representative, under the same group)."""
    from ..guarantees._summary import describe_row_cone

    summary = describe_row_cone(definition)
    facet_orbits = summary.facet_orbits
    for j in orbits:
        if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < len(facet_orbits):
            raise InvalidParameterError(
                f"orbit {j!r} does not exist: the row cone has {len(facet_orbits)} facet orbits "
                f"(0 … {len(facet_orbits) - 1})"
            )
    cone = definition.row_cone()
    F = listed_facets(definition)

    def key(row: Any) -> tuple[Any, ...]:
        return tuple(row) if cone.exact else tuple(round(float(v), 9) + 0.0 for v in row)

    where = {key(row): i for i, row in enumerate(F)}
    try:
        canonical = [tuple(int(v) for v in o.members) for o in summary.group.orbits_of_rows(F, atol=cone.atol)]
    except InvalidInputError:  # the group does not permute these rows: describe_row_cone lists singletons then
        canonical = [(i,) for i in range(len(F))]
    orbit_of = {i: members for members in canonical for i in members}
    out: set[int] = set()
    for j in orbits:
        o = facet_orbits[int(j)]
        at = where.get(key(o.normal))
        members = orbit_of.get(at) if at is not None else None
        if members is None or len(members) != o.size:
            raise SolverError(
                f"orbit {j} ({o.size} facets) could not be found among the facets of the row cone; please report"
            )
        out |= set(members)
    return out


def without(
    definition: PrivacyDefinition, facets: Iterable[int] = (), *, orbits: Iterable[int] = (), name: str | None = None
) -> ConeDefinition:
    """The weaker definition without some facets of the row cone (equalities are kept).

    Parameters
    ----------
    facets : iterable of int
        0-based positions in ``definition.row_cone().facets`` (:func:`listed_facets`; the order of
        :func:`~privgeom.semantics`, ``row_cone().int_facets`` and ``privgeom rowcone --all``).
    orbits : iterable of int
        Whole symmetry orbits, numbered as :func:`~privgeom.describe_row_cone` lists them.

    Raises
    ------
    InvalidParameterError
        A facet or orbit that does not exist, nothing to drop, or a definition that its row cone does not decide
        ((ε, δ)-DP with ``δ > 0``, a finite definition that is not one simplicial mechanism …): its guarantees are
        not the facets of its row cone.

    Examples
    --------
    >>> from privgeom import RandomizedResponse, randomized_response
    >>> weaker = without(RandomizedResponse(1, "3/4"), [0])
    >>> weaker.row_cone().n_facets, weaker.contains(randomized_response(1, "9/10")).member
    (2, False)
    >>> rr = RandomizedResponse(2, "3/4")
    >>> dropped = rr.row_cone().int_facets[0].tolist()     # 9·x_11 − 3·x_10 − 3·x_01 + x_00 ≥ 0
    >>> dropped in without(rr, [0]).row_cone().int_facets.tolist(), dropped
    (False, [9, -3, -3, 1])
    """
    _decided(definition, "without")
    F = listed_facets(definition)
    drop = set()
    for i in facets:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(F):
            raise InvalidParameterError(
                f"facet {i!r} does not exist: the row cone has {len(F)} facets (0 … {len(F) - 1})"
            )
        drop.add(int(i))
    drop |= _orbit_members(definition, list(orbits)) if orbits else set()
    if not drop:
        raise InvalidParameterError("without(): name at least one facet or orbit to drop")
    keep = [i for i in range(len(F)) if i not in drop]
    cone = definition.row_cone()
    n = cone.ambient_dim
    rows = F[keep] if keep else np.zeros((0, n), dtype=F.dtype)
    new = Cone.from_facets(
        rows, cone.equalities if len(cone.equalities) else None, exact=cone.exact, labels=cone.labels
    )
    return ConeDefinition(
        new, name=name or f"{_short(definition)} without {len(drop)} facet{'s' if len(drop) != 1 else ''}"
    )


def only(definition: PrivacyDefinition, predicate: Callable[[Any], bool], *, name: str | None = None) -> ConeDefinition:
    """The definition keeping only the guarantees (:func:`~privgeom.semantics`, two per equality) ``predicate``
    accepts; ``x ≥ 0`` is always kept. Refused (InvalidParameterError) for a definition that its row cone does not
    decide, as :func:`without` is.

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy
    >>> D = only(DifferentialPrivacy.path(2, exp_eps=2), lambda g: "0" in g.s_minus)
    >>> D.row_cone().n_facets     # 2·x1 ≥ x0, and x ≥ 0
    3
    """
    from ..guarantees._semantics import semantics

    if not callable(predicate):
        raise InvalidTypeError(f"only() takes a predicate on Guarantee, got {type(predicate).__name__}")
    _decided(definition, "only")
    gs = [g for g in semantics(definition) if predicate(g)]
    cone = definition.row_cone()
    n = cone.ambient_dim
    rows = np.vstack([g.normal for g in gs]) if gs else np.zeros((0, n), dtype=object if cone.exact else float)
    new = Cone.from_facets(rows, exact=cone.exact, labels=cone.labels)
    return ConeDefinition(new, name=name or f"{_short(definition)}, {len(gs)} chosen guarantees")


# ---------------------------------------------------------------------------------------------------- combining
class _RowCones(NamedTuple):
    """The row cones of two definitions on the same datasets, in one mode (float unless both are exact)."""

    a: Cone
    b: Cone
    exact: bool


def _pair(a: PrivacyDefinition, b: PrivacyDefinition) -> _RowCones:
    for d in (a, b):
        if not isinstance(d, PrivacyDefinition):
            raise InvalidTypeError(f"expected a privacy definition, got {type(d).__name__}")
    if tuple(a.inputs) != tuple(b.inputs):
        raise DomainMismatchError(
            f"the definitions have different datasets: {list(a.inputs)[:6]} and {list(b.inputs)[:6]}"
        )
    ca, cb = a.row_cone(), b.row_cone()
    exact = bool(ca.exact and cb.exact)
    if not exact:
        ca, cb = (c.to_float() if c.exact else c for c in (ca, cb))
    return _RowCones(a=ca, b=cb, exact=exact)


def intersection(a: PrivacyDefinition, b: PrivacyDefinition) -> PrivacyDefinition:
    """Both sets of guarantees: the mechanisms in ``closure(A)`` and in ``closure(B)`` (``docs/theory.md`` §13).

    When both row cones decide their closures, that set is the cone definition of ``R_A ∩ R_B`` (a
    :class:`~privgeom.ConeDefinition`). Otherwise no cone describes it, and the answer is an
    :class:`~privgeom.analyses.design._intersection.IntersectionDefinition`: ``contains`` asks both definitions (a "no"
    carries the failing one's certificate) and its row cone is ``R_A ∩ R_B``. Either way
    ``intersection(a, b).contains(M).member == a.contains(M).member and b.contains(M).member``.

    Raises
    ------
    InvalidTypeError
        Something that is not a privacy definition.
    DomainMismatchError
        Definitions on different datasets.

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy, RandomizedResponse, compare, parse_definition, randomized_response
    >>> both = intersection(RandomizedResponse(2, "3/4"), DifferentialPrivacy.hamming(2, exp_eps=2))
    >>> type(both).__name__, compare(both, RandomizedResponse(2, "3/4")).relation
    ('ConeDefinition', 'subset')
    >>> adp = parse_definition("adp:graph=hamming,k=2,eps=1,delta=1/10")
    >>> intersection(RandomizedResponse(2, "9/10"), adp).contains(randomized_response(2, "9/10")).member
    False
    """
    ca, cb, exact = _pair(a, b)
    if not (a.row_cone_decides_closure and b.row_cone_decides_closure):
        return IntersectionDefinition([a, b])
    cone = symmetric_intersection(ca, cb) if exact else None
    if cone is None:
        eq = [e for e in (ca.equalities, cb.equalities) if len(e)]
        cone = Cone.from_facets(
            np.vstack([ca.facets, cb.facets]), np.vstack(eq) if eq else None, exact=exact, labels=ca.labels
        )
    out = ConeDefinition(cone, name=f"intersection({_short(a)}, {_short(b)})")
    out._spec = f"intersection({a.spec()}, {b.spec()})"  # read back by parse_definition as this cone
    return out


def hull(a: PrivacyDefinition, b: PrivacyDefinition) -> ConeDefinition:
    """The smallest cone definition containing both: the conic hull of ``R_A ∪ R_B`` (``docs/theory.md`` §13).

    Sound for every definition: the rows of a member of ``closure(A)`` lie in ``R_A``, so every member of either
    definition is a member of the hull; and a cone definition containing ``closure(A)`` has every row of ``R_A`` in
    its cone, so none is smaller. It is a cone definition even when ``A`` or ``B`` is not decided by its row cone
    (the hull with ``(ε, δ)``-DP, ``δ > 0``, whose row cone is the orthant, is every mechanism); it may hold more
    than the mixtures of post-processings of members of ``A`` and ``B``.

    Examples
    --------
    >>> from privgeom import RandomizedResponse, compare
    >>> h = hull(RandomizedResponse(1, "3/4"), RandomizedResponse(1, "2/3"))
    >>> compare(h, RandomizedResponse(1, "3/4")).relation
    'equal'
    """
    ca, cb, exact = _pair(a, b)
    cone = Cone.from_generators(np.vstack([ca.rays, cb.rays]), exact=exact, labels=ca.labels)
    out = ConeDefinition(cone, name=f"hull({_short(a)}, {_short(b)})")
    out._spec = f"hull({a.spec()}, {b.spec()})"  # read back by parse_definition as this cone
    return out


# ---------------------------------------------------------------------------------------------------- spec forms
def _intersection_of(members: list[PrivacyDefinition]) -> PrivacyDefinition:
    """The spec form ``intersection(S1, S2, …)``: what :func:`intersection` builds from the members — their
    :class:`IntersectionDefinition` when one is not decided by its row cone (as its :meth:`~IntersectionDefinition.spec`
    wrote it, so the spec reads back as the same definition), else the cone definition of ``R_1 ∩ R_2 ∩ …``.

    Examples
    --------
    >>> from privgeom import parse_definition
    >>> both = parse_definition("intersection(rr:k=2,p=3/4, adp:graph=hamming,k=2,exp_eps=2,delta=1/4)")
    >>> type(both).__name__, parse_definition(both.spec()).spec() == both.spec()
    ('IntersectionDefinition', True)
    """
    if not all(d.row_cone_decides_closure for d in members):
        return IntersectionDefinition(members)
    out = members[0]
    for d in members[1:]:
        out = intersection(out, d)
    return out


def _hull_of(members: list[PrivacyDefinition]) -> PrivacyDefinition:
    """The spec form ``hull(S1, S2, …)``: the conic hull of every member's row cone (:func:`hull`, folded; the hull
    of a union does not depend on the grouping)."""
    out: PrivacyDefinition = members[0]
    for d in members[1:]:
        out = hull(out, d)
    return out


register_definition_kind("intersection", _intersection_of, compound=True)
register_definition_kind("hull", _hull_of, compound=True)
