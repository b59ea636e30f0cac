"""Comparing two privacy definitions by their consistent closures (Lin & Kifer's row-cone analysis).

``compare(A, B)`` decides how ``closure(A)`` and ``closure(B)`` are related — ``subset``, ``superset``, ``equal`` or
``incomparable`` (``undecided`` when privgeom cannot prove one direction either way) — one inclusion at a time.
For ``closure(X) ⊆ closure(Y)``:

1. **Row cones.** ``closure(X) ⊆ closure(Y)`` implies ``rowcone(X) ⊆ rowcone(Y)`` (every row of a member of
   ``closure(X)`` is a row of a member of ``closure(Y)``; Definition 3.5). So a generator ``x`` of ``rowcone(X)``
   violating a facet ``a`` of ``rowcone(Y)`` (``a·x < 0``) refutes the inclusion — always, for every definition.
2. If the row cones are nested and ``Y.row_cone_decides_closure`` (a theorem for that definition: ε-DP, randomized
   response, …), the inclusion holds: every member of ``closure(X)`` has its rows in ``rowcone(X) ⊆ rowcone(Y)``.
3. Otherwise the row cones cannot decide (``docs/theory.md`` §3: the row cone does not determine the closure in
   general) and privgeom uses closure membership (an LP, Theorem 3.4):

   * ``X`` finite, ``{M_1..M_m}``: ``closure(X) ⊆ closure(Y)`` iff every ``M_j ∈ closure(Y)``, because
     ``closure(Y)`` is closed under post-processing and mixing (Definition 3.3) — ``"generating-mechanisms"``;
   * ``X`` decided by its row cone (e.g. ε-DP): ``closure(X)`` is the set of mechanisms with rows in
     ``C = rowcone(X)``. Writing each row as a non-negative combination of the extreme rays ``r`` of ``C`` and
     merging outputs shows that every member is a post-processing of a mechanism with rows ``β_r r``, ``β ≥ 0``,
     ``Σ_r β_r r = 1``; those form a polytope, whose vertices (the *extreme mechanisms* — for local DP, Kairouz,
     Oh & Viswanath's staircase mechanisms) generate ``closure(X)`` by mixing. So the inclusion holds iff every
     extreme mechanism is in ``closure(Y)`` — ``"extreme-mechanisms"``;
   * anything else is reported as undecided (``holds=None``), never guessed.

**Witnesses.** For a refuting generator ``x`` (step 1) privgeom builds a two-output mechanism in ``closure(X)``:
rows ``x / c`` and ``1 − x / c`` for the smallest ``c`` that puts ``c·1 − x`` in ``rowcone(X)`` (``c ≥ max x`` and
``c ≥ a·x / a·1`` for every facet ``a`` of ``rowcone(X)``; the constant mechanisms are in every closure, so any
larger ``c`` works too), re-verified with ``X.contains``. Its first row violates the facet ``a`` of ``rowcone(Y)``,
so it is not in ``closure(Y)``; and the facet is a Bayesian guarantee of ``Y`` (Section III-C): under the attacker
prior ``∝ |a|`` the witness output makes ``S-`` a posteriori more likely than ``S+`` — the numbers are reported.

Examples
--------
>>> from privgeom.definitions import RandomizedResponse, DifferentialPrivacy
>>> c = compare(RandomizedResponse(2, "3/4"), DifferentialPrivacy.hamming(2, exp_eps=3))
>>> c.relation, c.a_in_b.method, c.b_in_a.holds
('subset', 'row-cone', False)
>>> w = c.b_in_a.witness
>>> [str(v) for v in w.row], w.posterior_minus
(['3', '1', '1', '3'], Fraction(9, 14))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from ..._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from ..._core.limits import register_limit
from ..._core.hints import limit_hint
from ..._core.limits import current_limit
from ..._core.results import Result
from ...definitions import PrivacyDefinition
from ...definitions._generating import generating_mechanisms
from ...geometry import Cone
from ...mechanisms import Mechanism
from ._containment import LPContainment, lp_containment
from ._inclusion import (  # noqa: F401  (Inclusion and the dedicated rules are importable from here too)
    Inclusion,
    _adp_pair_rule,
    _inclusion,
    _pair_rule,
    _register_pair_rules,
    dominant_pair,
    dp_level_rule,
)
from ._witness import InclusionWitness, _label, _mechanism_witness, _row_witness, _simplest_violator, inequality_text

__all__ = [
    "RELATIONS",
    "Comparison",
    "Inclusion",
    "InclusionWitness",
    "compare",
    "inclusion",
    "extreme_mechanisms",
    "inequality_text",
    "dominant_pair",
    "dp_level_rule",
    "CONE_METHODS",
]

#: The possible values of :attr:`Comparison.relation`.
RELATIONS = ("equal", "subset", "superset", "incomparable", "undecided")

#: Largest number of extreme rays for which :func:`extreme_mechanisms` enumerates the vertex mechanisms.
MAX_EXTREME_RAYS = 40
register_limit(
    "extreme_mechanism_rays",
    globals(),
    "MAX_EXTREME_RAYS",
    "most extreme rays of a row cone whose extreme (vertex) mechanisms extreme_mechanisms() enumerates",
)
#: How :func:`inclusion` compares row cones: ``"auto"``, ``"rays"`` (enumerate X's extreme rays), ``"lp"``
#: (generators of X or one LP per facet orbit of Y, :mod:`privgeom.analyses.comparison._containment`).
CONE_METHODS = ("auto", "rays", "lp")
#: Up to this many datasets ``method="auto"`` enumerates rays (cheap there, and it picks the simplest refuting
#: generator: for ε-DP on a hypercube the parity pattern); beyond it uses the LP route. The ray route's cost
#: explodes past it: ε-DP on the Hamming graph has 2,470 rays at k = 4 and 4·10^9 or more at k = 6.
MAX_RAYS_ROUTE_INPUTS = 16


@dataclass(frozen=True)
class _RowCones:
    """How ``rowcone(X)`` and ``rowcone(Y)`` compare, as a route of :func:`inclusion` found it: the fields of a
    :class:`~privgeom.geometry._cone_results.Containment` that :func:`inclusion` reads, the route and (LP route) how it decided."""

    holds: bool
    witness: Any
    violated_normal: Any
    value: Any
    kind: str | None
    exact: bool
    route: str
    how: str = ""


def _lp_how(c: LPContainment) -> str:
    if c.how == "generators":
        return (
            f"generators of the smaller row cone checked against every facet of the larger, one per orbit "
            f"({c.orbits} orbit(s), {c.checks:,} products, exact={c.exact})"
        )
    return (
        f"one LP per facet orbit of the larger row cone over the facets of the smaller ({c.lps} LP(s) for "
        f"{c.orbits} orbit(s); optimum recovered exactly from HiGHS's basis"
        f"{', exact Farkas multipliers' if c.holds and c.exact else ''})"
    )


# ---------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Comparison(Result):
    """Result of :func:`compare`: the relation of ``closure(A)`` and ``closure(B)`` and both inclusions.

    ``relation`` is one of :data:`RELATIONS`: ``"equal"``, ``"subset"`` (``A ⊊ B``), ``"superset"`` (``A ⊋ B``),
    ``"incomparable"`` or ``"undecided"`` (one inclusion could not be decided and the other does not settle it).
    """

    relation: str
    a: str
    b: str
    a_in_b: Inclusion
    b_in_a: Inclusion
    exact: bool
    text: str

    def summary(self) -> str:
        return "\n".join([self.text, "- " + self.a_in_b.summary(), "- " + self.b_in_a.summary()])


# ---------------------------------------------------------------------------------------------------- extreme
def extreme_mechanisms(cone: Cone) -> list[Mechanism]:
    """The vertices of ``{β ≥ 0 : Σ_r β_r r = 1}`` over the extreme rays ``r`` of a pointed row cone, as mechanisms.

    Every mechanism whose rows lie in ``cone`` is a post-processing of a mixture of these (see the module
    docstring); for local DP (ε-DP on a complete graph) they are the staircase mechanisms of Kairouz, Oh &
    Viswanath (JMLR 2016). Output ``r<i>`` of a vertex mechanism is ``β_i`` times the ``i``-th ray.

    Raises
    ------
    SizeLimitError
        More than :data:`MAX_EXTREME_RAYS` extreme rays (the vertex enumeration would be too large).

    Examples
    --------
    >>> c = Cone.from_facets([[3, -1], [-1, 3]], labels=["a", "b"])   # x_a ≤ 3 x_b, x_b ≤ 3 x_a
    >>> [M.matrix.tolist() for M in extreme_mechanisms(c)]
    [[[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]]
    """
    rays = cone.rays
    n_rays, dim = rays.shape
    if n_rays > current_limit("extreme_mechanism_rays"):
        raise SizeLimitError(
            f"the row cone has {n_rays} extreme rays; enumerating the extreme mechanisms is limited "
            f"to {current_limit('extreme_mechanism_rays')} rays — "
            f"{limit_hint('extreme_mechanism_rays', n_rays)}"
        )
    if len(cone.lineality):
        raise DomainMismatchError("extreme mechanisms need a pointed cone (a row cone inside the orthant)")
    exact = cone.exact
    one, zero = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)
    facets = [[one if j == i else zero for j in range(n_rays + 1)] for i in range(n_rays + 1)]
    eqs = [[rays[r][d] for r in range(n_rays)] + [-one] for d in range(dim)]
    poly = Cone.from_facets(facets, eqs, exact=exact)
    out = []
    for v in poly.rays:
        t = v[-1]
        if t == 0:
            continue
        beta = [b / t for b in v[:-1]]
        used = [i for i in range(n_rays) if beta[i] != 0]
        mat = [[beta[i] * rays[i][d] for d in range(dim)] for i in used]
        out.append(Mechanism(mat, inputs=cone.labels, outputs=[f"r{i}" for i in used], exact=exact))
    return out


# ---------------------------------------------------------------------------------------------------- inclusion
def inclusion(X: PrivacyDefinition, Y: PrivacyDefinition, *, method: str = "auto") -> Inclusion:
    """Decide ``closure(X) ⊆ closure(Y)`` (see the module docstring for the three methods and the witness).

    ``method`` picks how the row cones are compared (:data:`CONE_METHODS`): ``"rays"`` enumerates the extreme
    rays of ``rowcone(X)`` (the simplest refuting generator is chosen); ``"lp"`` checks generators of X or solves one
    LP per facet orbit of ``rowcone(Y)`` (:mod:`privgeom.analyses.comparison._containment`; never lists rays); ``"auto"`` first
    tries the registered fast rules (ε-DP levels on one graph: :func:`dp_level_rule`), then ``"rays"`` up to
    :data:`MAX_RAYS_ROUTE_INPUTS` datasets and ``"lp"`` beyond (falling back to ``"rays"`` where no cheap
    description exists).

    Examples
    --------
    >>> from privgeom.definitions import RandomizedResponse
    >>> inclusion(RandomizedResponse(2, "2/3"), RandomizedResponse(2, "3/4")).holds   # more noise: a stronger definition
    True
    >>> inclusion(RandomizedResponse(2, "3/4"), RandomizedResponse(2, "2/3")).witness.facet_text
    '4 x[10] + x[01] ≥ 2 x[11] + 2 x[00]'

    """
    _check_pair(X, Y)
    if method not in CONE_METHODS:
        raise InvalidParameterError(f"unknown compare method {method!r}; choose one of {list(CONE_METHODS)}")
    if method == "auto" and (fast := dp_level_rule(X, Y)) is not None:
        return fast
    cx, cy = X.row_cone(), Y.row_cone()
    route = method if method != "auto" else ("lp" if len(X.inputs) > MAX_RAYS_ROUTE_INPUTS else "rays")
    cones = _ROW_CONE_ROUTES[route](X, Y, required=method == route)
    if cones is None:  # "auto": no cheap description for the LP route
        cones = _ROW_CONE_ROUTES["rays"](X, Y, required=True)
    assert cones is not None
    if not cones.holds:
        return _refuted_by_row_cones(X, Y, cx, cy, cones)
    if Y.row_cone_decides_closure:
        how = f" ({cones.how})" if cones.how else ""
        return _inclusion(
            X,
            Y,
            holds=True,
            method="row-cone",
            exact=cones.exact,
            detail=f"rowcone({_label(X)}) ⊆ rowcone({_label(Y)}){how} and membership in "
            f"closure({_label(Y)}) is decided by its row cone",
        )
    return _beyond_row_cones(X, Y, cx, cones.exact)


def _route_rays(X: PrivacyDefinition, Y: PrivacyDefinition, *, required: bool) -> _RowCones:
    """``method="rays"``: enumerate the extreme rays of ``rowcone(X)`` and test each against the facets of
    ``rowcone(Y)`` (:meth:`~privgeom.geometry.Cone.issubset`). Needs both V- and H-representations (double
    description, exponential in the worst case: 2,470 rays for ε-DP on the 4-cube); picks the simplest refuting
    generator. Always applies."""
    c = X.row_cone().issubset(Y.row_cone())
    return _RowCones(
        holds=c.holds,
        witness=c.witness,
        violated_normal=c.violated_normal,
        value=c.value,
        kind=c.kind,
        exact=bool(c.exact),
        route="rays",
    )


def _route_lp(X: PrivacyDefinition, Y: PrivacyDefinition, *, required: bool) -> _RowCones | None:
    """``method="lp"``: generators of ``rowcone(X)`` checked against every facet orbit of ``rowcone(Y)``, or one LP
    per facet orbit (:mod:`privgeom.analyses.comparison._containment`, ``docs/theory.md`` §16); never lists rays.
    Needs cheap facets of ``rowcone(Y)`` and generators or ratio facets of ``rowcone(X)``: None otherwise (an error
    when the route was asked for by name)."""
    lpc = lp_containment(X, Y)
    if lpc is None:
        if required:
            raise InvalidParameterError(
                f"method='lp' needs cheap facets of rowcone({_label(Y)}) and generators or "
                f"ratio facets of rowcone({_label(X)}); use method='rays'"
            )
        return None
    return _RowCones(
        holds=lpc.holds,
        witness=lpc.witness,
        violated_normal=lpc.normal,
        value=lpc.value,
        kind="facet",
        exact=bool(lpc.exact),
        route="lp",
        how=_lp_how(lpc),
    )


#: The row-cone routes of :func:`inclusion` (``method=``; ``"auto"`` picks ``"rays"`` up to
#: :data:`MAX_RAYS_ROUTE_INPUTS` datasets, ``"lp"`` beyond, falling back to ``"rays"``).
_ROW_CONE_ROUTES: dict[str, Callable[..., _RowCones | None]] = {"rays": _route_rays, "lp": _route_lp}


def _refuted_by_row_cones(
    X: PrivacyDefinition, Y: PrivacyDefinition, cx: Cone, cy: Cone, cones: _RowCones
) -> Inclusion:
    """A point of ``rowcone(X)`` outside ``rowcone(Y)`` refutes the inclusion for any definition (module docstring,
    step 1): the LP route's point as it is, the rays route's simplest refuting generator."""
    exact = cones.exact
    if cones.route == "lp":
        w = _row_witness(X, Y, np.asarray(cones.witness), np.asarray(cones.violated_normal), cones.value, cx, exact)
        return _inclusion(
            X,
            Y,
            holds=False,
            method="row-cone",
            exact=exact,
            witness=w,
            detail=f"{cones.how}: a point of rowcone({_label(X)}) violates a facet of "
            f"rowcone({_label(Y)}); rows of members of the closure lie in the row cone, so this "
            f"refutes the inclusion for any definition",
        )
    if not exact:
        cx, cy = (c.to_float() if c.exact else c for c in (cx, cy))
    x, normal, value = _simplest_violator(cx, cy, cones)
    w = _row_witness(X, Y, x, normal, value, cx, exact)
    return _inclusion(
        X,
        Y,
        holds=False,
        method="row-cone",
        exact=exact,
        witness=w,
        detail=f"a generator of rowcone({_label(X)}) violates a {cones.kind} of rowcone({_label(Y)}); rows "
        f"of members of the closure lie in the row cone, so this refutes the inclusion for any "
        f"definition",
    )


def _beyond_row_cones(X: PrivacyDefinition, Y: PrivacyDefinition, cx: Cone, exact: bool) -> Inclusion:
    """Nested row cones but ``Y`` not decided by its row cone: a dedicated pair rule, else LP membership in
    ``closure(Y)`` of the generating (finite ``X``) or extreme (``X`` decided by its row cone) mechanisms of ``X``
    (module docstring, step 3); undecided otherwise."""
    special = _pair_rule(X, Y)
    if special is not None:
        return special
    gens = generating_mechanisms(X)
    how, method = "generating mechanisms", "generating-mechanisms"
    if gens is None and X.row_cone_decides_closure:
        try:
            gens = tuple(extreme_mechanisms(cx))
        except SizeLimitError as err:
            return _inclusion(
                X,
                Y,
                holds=None,
                method="undecided",
                exact=exact,
                detail=f"the row cones are nested but {_label(Y)} is not decided by its row cone, and {err}",
            )
        how, method = "extreme mechanisms", "extreme-mechanisms"
    if gens is None:
        return _inclusion(
            X,
            Y,
            holds=None,
            method="undecided",
            exact=exact,
            detail=f"rowcone({_label(X)}) ⊆ rowcone({_label(Y)}), but neither definition's closure is "
            f"decided by the row cones here, and {_label(X)} is neither finite nor decided by its "
            f"row cone",
        )
    for j, M in enumerate(gens):
        m = Y.contains(M if M.exact == Y.exact else M.to_float())
        exact = exact and m.exact
        if not m.member:
            w = _mechanism_witness(X, Y, M, m, f"{how[:-1]} #{j}")
            return _inclusion(
                X,
                Y,
                holds=False,
                method=method,
                exact=exact,
                witness=w,
                detail=f"the row cones are nested but {how[:-1]} #{j} of {_label(X)} is not in "
                f"closure({_label(Y)}) (LP membership, Theorem 3.4)",
            )
    return _inclusion(
        X,
        Y,
        holds=True,
        method=method,
        exact=exact,
        detail=f"the row cones are nested and all {len(gens)} {how} of {_label(X)} are in "
        f"closure({_label(Y)}) (LP membership), which is closed under post-processing and mixing",
    )


def _check_pair(X: Any, Y: Any) -> None:
    for d in (X, Y):
        if not isinstance(d, PrivacyDefinition):
            raise InvalidTypeError(f"compare() takes privacy definitions, got {type(d).__name__}")
    if tuple(X.inputs) != tuple(Y.inputs):
        raise DomainMismatchError(
            f"the definitions have different input domains: {list(X.inputs)[:8]} and "
            f"{list(Y.inputs)[:8]} (same datasets in the same order needed)"
        )


def compare(def_a: PrivacyDefinition, def_b: PrivacyDefinition, *, method: str = "auto") -> Comparison:
    """How the consistent closures of two privacy definitions over the same datasets are related.

    Parameters
    ----------
    def_a, def_b : PrivacyDefinition
        Same :attr:`~PrivacyDefinition.inputs` (labels and order).
    method : {"auto", "rays", "lp"}
        How row cones are compared (:func:`inclusion`): enumerate rays, or generators / one LP per facet orbit.

    Returns
    -------
    Comparison
        ``relation`` ∈ :data:`RELATIONS` and the two :class:`Inclusion` answers (``a_in_b``: ``A ⊆ B``,
        ``b_in_a``: ``B ⊆ A``), each saying how it was decided (row cones, LP membership of the generating or
        extreme mechanisms) and, when it fails, carrying an :class:`InclusionWitness`: a mechanism of the larger
        closure outside the other, the facet it violates and the attacker posteriors that show the difference.

    Raises
    ------
    InvalidTypeError
        An argument is not a :class:`~privgeom.definitions.PrivacyDefinition`.
    DomainMismatchError
        The datasets differ.

    Notes
    -----
    Source: Lin & Kifer, row-cone analysis of privacy definitions — Definition 3.3 and Theorem 3.4 (consistent
    closure), Definition 3.5 (row cone), Section III-C (facets as Bayesian guarantees), Theorem 4.3 and Example 4.4
    (the facets of randomized response protect parity). Mixed exact/float inputs are compared in float
    (``exact=False``).

    Examples
    --------
    Randomized response on two bits with ``p = 3/4`` is strictly stronger than ε-DP on the Hamming graph with
    ``e^ε = 3``; the witness is randomized response on the *parity* bit, which DP allows and RR forbids.

    >>> from privgeom.definitions import RandomizedResponse, DifferentialPrivacy
    >>> c = compare(RandomizedResponse(2, "3/4"), DifferentialPrivacy.hamming(2, exp_eps=3))
    >>> c.relation
    'subset'
    >>> w = c.b_in_a.witness
    >>> w.mechanism.matrix.tolist() == [[Fraction(3, 4), Fraction(1, 4), Fraction(1, 4), Fraction(3, 4)],
    ...                                 [Fraction(1, 4), Fraction(3, 4), Fraction(3, 4), Fraction(1, 4)]]
    True
    >>> w.facet_text, (w.prior_plus, w.prior_minus), (w.posterior_plus, w.posterior_minus)
    ('9 x[10] + x[01] ≥ 3 x[11] + 3 x[00]', (Fraction(5, 8), Fraction(3, 8)), (Fraction(5, 14), Fraction(9, 14)))
    """
    _check_pair(def_a, def_b)
    ab = inclusion(def_a, def_b, method=method)
    ba = inclusion(def_b, def_a, method=method)
    table = {(True, True): "equal", (True, False): "subset", (False, True): "superset", (False, False): "incomparable"}
    relation = table.get((ab.holds, ba.holds), "undecided")  # type: ignore[arg-type]
    A, B = _label(def_a), _label(def_b)
    phrase = {
        "equal": f"closure({A}) = closure({B})",
        "subset": f"closure({A}) ⊊ closure({B}): {A} is strictly stronger (allows fewer mechanisms)",
        "superset": f"closure({A}) ⊋ closure({B}): {A} is strictly weaker (allows more mechanisms)",
        "incomparable": f"closure({A}) and closure({B}) are incomparable: each allows a mechanism the other forbids",
        "undecided": f"the relation of closure({A}) and closure({B}) could not be decided (see below)",
    }[relation]
    methods = {ab.method, ba.method}
    how = "decided by row cones" if methods == {"row-cone"} else "decided by " + " and ".join(sorted(methods))
    return Comparison(
        relation=relation,
        a=def_a.spec(),
        b=def_b.spec(),
        a_in_b=ab,
        b_in_a=ba,
        exact=ab.exact and ba.exact,
        text=f"{relation}: {phrase} ({how})",
    )
