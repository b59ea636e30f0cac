"""Designing privacy definitions: from chosen guarantees, by dropping or keeping guarantees, intersections and hulls.

Every operation returns a :class:`~privgeom.definitions.ConeDefinition` (``docs/theory.md`` §13): a cone over the
datasets whose members are the mechanisms with every row in it.

* :func:`from_guarantees` — the definition that gives exactly the listed guarantees ``a·x ≥ 0`` (as
  :func:`~privgeom.semantics` returns them, as coefficient vectors, or as attacker statements
  ``{"prior": {D: w}, "s_plus": [...], "s_minus": [...]}`` meaning ``Σ_{S+} w_D x_D ≥ Σ_{S-} w_D x_D``). A
  guarantee implied by the others is reported with the certificate (Farkas' lemma, ``docs/theory.md`` §13):
  non-negative weights ``λ`` on the other guarantees and ``μ`` on ``x ≥ 0`` with ``a = Σ λ_j a_j + μ``.
* :func:`without` — drop facets (0-based positions in the listing of ``rowcone --all``, or whole symmetry orbits as
  ``describe_row_cone`` numbers them); the weaker definition.
* :func:`only` — keep the guarantees a predicate accepts.
* :func:`intersection` — both sets of guarantees: ``R_A ∩ R_B``; :func:`hull` — the smallest cone definition
  containing both: the conic hull of ``R_A ∪ R_B``.

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
from ..._core.arrays import ATOL, readonly
from ..._core.numbers import fraction_str, parse_scalar, Scalar
from ..._core.results import Result
from ...definitions import PrivacyDefinition
from ...definitions._base import register_generic
from ...definitions._cone_definition import ConeDefinition
from ...definitions._rows import format_inequality
from ...geometry._cone import Cone
from ...geometry._lp import exact_nonnegative_solution, rational_candidates, solve_lp

__all__ = ["RedundantGuarantee", "from_guarantees", "without", "only", "intersection", "hull", "listed_facets",
           "guarantee_vector"]


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
            raise DomainMismatchError(f"a guarantee over {list(glabels)[:8]} does not match the datasets {list(labels)[:8]}")
        where = {d: i for i, d in enumerate(glabels)}
        vals = [item.coefficients[where[d]] for d in labels]
    elif isinstance(item, dict):
        unknown = set(item) - {"prior", "s_plus", "s_minus"}
        if unknown or "prior" not in item:
            raise InvalidInputError(f"an attacker statement needs 'prior', 's_plus', 's_minus' (got keys {sorted(item)})")
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
            raise InvalidTypeError(f"a guarantee must be a Guarantee, a coefficient vector or an attacker statement "
                                   f"(dict), got {type(item).__name__}") from None
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
        The guarantees exclude every mechanism (the all-ones vector violates one).
    DomainMismatchError, InvalidInputError, InvalidTypeError
        A guarantee over other datasets or of the wrong form.
    """
    labels = Domain.coerce(inputs).labels
    items = list(guarantees)
    if not items:
        raise InvalidInputError("from_guarantees: no guarantees given (the orthant alone is every mechanism: use "
                                "ConeDefinition(Cone.from_facets(identity)) if that is meant)")
    vecs = [guarantee_vector(g, labels) for g in items]
    exact = all(v.dtype == object for v in vecs)
    if not exact:
        vecs = [v.astype(float) for v in vecs]
    kept = list(range(len(vecs)))
    redundant: list[RedundantGuarantee] = []
    for k in range(len(vecs)):
        others = [j for j in kept if j != k]
        rows = np.vstack([vecs[j] for j in others]) if others else np.zeros((0, len(labels)),
                                                                           dtype=object if exact else float)
        sol = _implied(vecs[k], rows, exact)
        if sol is None:
            continue
        lam, mu = sol
        use = [(j, w) for j, w in zip(others, lam) if w != 0]
        kept.remove(k)
        combo = " + ".join(f"{fraction_str(w)}·g{j}" for j, w in use) or "0"
        text = (f"guarantee g{k} ({format_inequality(vecs[k], labels)}) is implied: g{k} = {combo}"
                + (" + a non-negative combination of x ≥ 0" if any(v != 0 for v in mu) else ""))
        redundant.append(RedundantGuarantee(index=k, implied_by=tuple(j for j, _ in use),
                                            weights=tuple(w for _, w in use), slack=tuple(mu.tolist()), exact=exact,
                                            text=text))
    F = np.vstack([vecs[j] for j in kept])
    out = ConeDefinition(Cone.from_facets(F, exact=exact, labels=labels), name=name)
    out._redundant = tuple(redundant)
    return out


# ---------------------------------------------------------------------------------------------------- dropping
def listed_facets(definition_or_cone: Any) -> np.ndarray:
    """The facets in the order ``privgeom rowcone --all`` lists them (the closed-form order of a structured row cone,
    else the canonical order), densely (size-checked by the cone).

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy
    >>> listed_facets(DifferentialPrivacy.path(2, exp_eps=2))[0].tolist()
    [Fraction(-1, 1), Fraction(2, 1), Fraction(0, 1)]
    """
    from ...geometry._canonical import normalise_rows
    from ...geometry._structure import structured_facet

    cone = definition_or_cone.row_cone() if isinstance(definition_or_cone, PrivacyDefinition) else definition_or_cone
    st = cone.structure
    if st is not None and (st.facet is not None or (st.kind == "difference" and st.difference is not None)) \
            and st.n_facets is not None:
        from ..._core.arrays import check_dense_size

        check_dense_size(st.n_facets, cone.ambient_dim, exact=cone.exact, what="the listed facets")
        rows = []
        for i in range(st.n_facets):  # one row at a time, as the listing does (normalise_rows would sort them)
            raw = structured_facet(cone, i)
            arr = np.array([[Fraction(v) for v in raw]], dtype=object) if cone.exact \
                else np.asarray(raw, dtype=float).reshape(1, -1)
            rows.append(normalise_rows(arr, exact=cone.exact, atol=cone.atol)[0])
        return readonly(np.vstack(rows))
    return cone.facets


def _orbit_members(definition: PrivacyDefinition, orbits: Sequence[int]) -> set[int]:
    from ..guarantees._summary import describe_row_cone

    facet_orbits = describe_row_cone(definition).facet_orbits
    out: set[int] = set()
    for j in orbits:
        if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < len(facet_orbits):
            raise InvalidParameterError(f"orbit {j!r} does not exist: the row cone has {len(facet_orbits)} facet orbits "
                                        f"(0 … {len(facet_orbits) - 1})")
        out |= set(int(i) for i in facet_orbits[int(j)].members)
    return out


def without(definition: PrivacyDefinition, facets: Iterable[int] = (), *, orbits: Iterable[int] = (),
            name: str | None = None) -> ConeDefinition:
    """The weaker definition without some facets of the row cone (equalities are kept).

    Parameters
    ----------
    facets : iterable of int
        0-based positions in the listing of :func:`listed_facets` (= ``privgeom rowcone --all``).
    orbits : iterable of int
        Whole symmetry orbits, numbered as :func:`~privgeom.describe_row_cone` lists them.

    Examples
    --------
    >>> from privgeom import RandomizedResponse, randomized_response
    >>> weaker = without(RandomizedResponse(1, "3/4"), [0])
    >>> weaker.row_cone().n_facets, weaker.contains(randomized_response(1, "9/10")).member
    (2, False)
    """
    F = listed_facets(definition)
    drop = set()
    for i in facets:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(F):
            raise InvalidParameterError(f"facet {i!r} does not exist: the row cone has {len(F)} facets (0 … {len(F) - 1})")
        drop.add(int(i))
    drop |= _orbit_members(definition, list(orbits)) if orbits else set()
    if not drop:
        raise InvalidParameterError("without(): name at least one facet or orbit to drop")
    keep = [i for i in range(len(F)) if i not in drop]
    cone = definition.row_cone()
    n = cone.ambient_dim
    rows = F[keep] if keep else np.zeros((0, n), dtype=F.dtype)
    new = Cone.from_facets(rows, cone.equalities if len(cone.equalities) else None, exact=cone.exact, labels=cone.labels)
    return ConeDefinition(new, name=name or f"{_short(definition)} without {len(drop)} facet{'s' if len(drop) != 1 else ''}")


def only(definition: PrivacyDefinition, predicate: Callable[[Any], bool], *, name: str | None = None) -> ConeDefinition:
    """The definition keeping only the guarantees (:func:`~privgeom.semantics`, two per equality) ``predicate``
    accepts; ``x ≥ 0`` is always kept.

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
    gs = [g for g in semantics(definition) if predicate(g)]
    cone = definition.row_cone()
    n = cone.ambient_dim
    rows = np.vstack([g.normal for g in gs]) if gs else np.zeros((0, n), dtype=object if cone.exact else float)
    new = Cone.from_facets(rows, exact=cone.exact, labels=cone.labels)
    return ConeDefinition(new, name=name or f"{_short(definition)}, {len(gs)} chosen guarantees")


# ---------------------------------------------------------------------------------------------------- combining
def _short(d: PrivacyDefinition) -> str:
    spec = d.spec()
    return spec if len(spec) <= 60 else d.name


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
        raise DomainMismatchError(f"the definitions have different datasets: {list(a.inputs)[:6]} and {list(b.inputs)[:6]}")
    ca, cb = a.row_cone(), b.row_cone()
    exact = bool(ca.exact and cb.exact)
    if not exact:
        ca, cb = (c.to_float() if c.exact else c for c in (ca, cb))
    return _RowCones(a=ca, b=cb, exact=exact)


def intersection(a: PrivacyDefinition, b: PrivacyDefinition) -> ConeDefinition:
    """Both sets of guarantees: the cone definition of ``R_A ∩ R_B`` (``docs/theory.md`` §13).

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy, RandomizedResponse, compare
    >>> both = intersection(RandomizedResponse(2, "3/4"), DifferentialPrivacy.hamming(2, exp_eps=2))
    >>> compare(both, RandomizedResponse(2, "3/4")).relation
    'subset'
    """
    ca, cb, exact = _pair(a, b)
    eq = [e for e in (ca.equalities, cb.equalities) if len(e)]
    cone = Cone.from_facets(np.vstack([ca.facets, cb.facets]), np.vstack(eq) if eq else None, exact=exact,
                            labels=ca.labels)
    return ConeDefinition(cone, name=f"intersection({_short(a)}, {_short(b)})")


def hull(a: PrivacyDefinition, b: PrivacyDefinition) -> ConeDefinition:
    """The smallest cone definition containing both: the conic hull of ``R_A ∪ R_B`` (``docs/theory.md`` §13).

    Examples
    --------
    >>> from privgeom import RandomizedResponse, compare
    >>> h = hull(RandomizedResponse(1, "3/4"), RandomizedResponse(1, "2/3"))
    >>> compare(h, RandomizedResponse(1, "3/4")).relation
    'equal'
    """
    ca, cb, exact = _pair(a, b)
    cone = Cone.from_generators(np.vstack([ca.rays, cb.rays]), exact=exact, labels=ca.labels)
    return ConeDefinition(cone, name=f"hull({_short(a)}, {_short(b)})")


register_generic("without", without)  # PrivacyDefinition.without
register_generic("only", only)  # PrivacyDefinition.only
register_generic("from_guarantees", from_guarantees)  # ConeDefinition.from_guarantees
