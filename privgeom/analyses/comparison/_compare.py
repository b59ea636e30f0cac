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
>>> from privgeom.graphs import hamming_graph
>>> c = compare(RandomizedResponse(2, "3/4"), DifferentialPrivacy(hamming_graph(2), exp_eps=3))
>>> c.relation, c.a_in_b.method, c.b_in_a.holds
('subset', 'row-cone', False)
>>> w = c.b_in_a.witness
>>> [str(v) for v in w.row], w.posterior_minus
(['3', '1', '1', '3'], Fraction(9, 14))
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import singledispatch
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ..._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError, SolverError
from ..._core.level import PrivacyLevel
from ..._core.limits import register_limit
from ..._core.numeric import Scalar, fraction_str, limit_hint
from ..._core.results import Decision, Result
from ...definitions import Membership, PrivacyDefinition
from ...geometry import Cone
from ...mechanisms import Mechanism
from ..guarantees._semantics import Guarantee, GuaranteeCheck, check_guarantee, guarantee_from_normal

__all__ = ["RELATIONS", "Comparison", "Inclusion", "InclusionWitness", "compare", "inclusion", "extreme_mechanisms",
           "generating_mechanisms", "inequality_text", "dominant_pair", "dp_level_rule", "CONE_METHODS"]

#: The possible values of :attr:`Comparison.relation`.
RELATIONS = ("equal", "subset", "superset", "incomparable", "undecided")

#: Largest number of extreme rays for which :func:`extreme_mechanisms` enumerates the vertex mechanisms.
MAX_EXTREME_RAYS = 40
register_limit("extreme_mechanism_rays", globals(), "MAX_EXTREME_RAYS",
               "most extreme rays of a row cone whose extreme (vertex) mechanisms extreme_mechanisms() enumerates")
#: Largest number of extreme rays scanned for the simplest refuting generator (beyond: the first one found).
MAX_WITNESS_SCAN = 2000
#: How :func:`inclusion` compares row cones: ``"auto"``, ``"rays"`` (enumerate X's extreme rays), ``"lp"``
#: (generators of X or one LP per facet orbit of Y, :mod:`privgeom.analyses.comparison._containment`).
CONE_METHODS = ("auto", "rays", "lp")
#: Up to this many datasets ``method="auto"`` enumerates rays (cheap there, and it picks the simplest refuting
#: generator: for ε-DP on a hypercube the parity pattern); beyond it uses the LP route. The ray route's cost
#: explodes past it: ε-DP on the Hamming graph has 2,470 rays at k = 4 and 4·10^9 or more at k = 6.
MAX_RAYS_ROUTE_INPUTS = 16


#: Row-cone containment kernels filled by modules above this one (``"lp"``: :mod:`privgeom.analyses.comparison._containment`,
#: which registers itself on import).
_CONE_ROUTES: dict[str, Any] = {}


@dataclass(frozen=True)
class _RowCones:
    """How ``rowcone(X)`` and ``rowcone(Y)`` compare, as a route of :func:`inclusion` found it: the fields of a
    :class:`~privgeom.geometry.Containment` that :func:`inclusion` reads, the route and (LP route) how it decided."""

    holds: bool
    witness: Any
    violated_normal: Any
    value: Any
    kind: str | None
    exact: bool
    route: str
    how: str = ""


def _lp_how(c: Any) -> str:
    if c.how == "generators":
        return (f"generators of the smaller row cone checked against every facet of the larger, one per orbit "
                f"({c.orbits} orbit(s), {c.checks:,} products, exact={c.exact})")
    return (f"one LP per facet orbit of the larger row cone over the facets of the smaller ({c.lps} LP(s) for "
            f"{c.orbits} orbit(s); optimum recovered exactly from HiGHS's basis"
            f"{', exact Farkas multipliers' if c.holds and c.exact else ''})")


# ---------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class InclusionWitness(Result):
    """Why ``closure(X) ⊄ closure(Y)``: a mechanism of ``closure(X)`` outside ``closure(Y)``.

    Attributes
    ----------
    kind : {"row", "mechanism"}
        ``"row"``: a generator ``row`` of ``rowcone(X)`` violates the facet ``facet`` of ``rowcone(Y)``.
        ``"mechanism"``: every row is in ``rowcone(Y)`` but a generating (or extreme) mechanism of ``X`` is not in
        ``closure(Y)`` (the certificate is ``Y``'s separating functional in ``not_in_larger``).
    row : numpy array or None
        The generator ``x`` (primitive integers in exact mode).
    facet : numpy array or None
        The facet (or oriented equality) ``a`` of ``rowcone(Y)`` with ``a·x < 0``; ``facet_text`` prints it.
    value : Fraction, float or None
        ``a·x`` (negative).
    mechanism : Mechanism or None
        A mechanism in ``closure(X)`` (verified, see ``in_source``) and not in ``closure(Y)`` (``not_in_larger``).
        For ``kind="row"`` its output ``"witness"`` has the row ``x / scale``.
    scale : Fraction, float or None
        The ``c`` of the rows ``x / c`` and ``1 − x / c``.
    guarantee : Guarantee or None
        The Bayesian guarantee of ``Y`` read off ``a`` (prior ``∝ |a|`` on ``S+ ∪ S-``).
    prior_plus, prior_minus : Fraction, float or None
        ``P(S+)`` and ``P(S-)`` under that prior.
    posterior_plus, posterior_minus : Fraction, float or None
        ``P(S+ | witness)`` and ``P(S- | witness)``: the guarantee is broken (``posterior_minus > posterior_plus``).
    check : GuaranteeCheck or None
        Posteriors on every output of ``mechanism``.
    in_source, not_in_larger : Membership or None
        ``X.contains(mechanism)`` (a yes) and ``Y.contains(mechanism)`` (a no with its certificate).
    text : str
    """

    kind: str
    row: np.ndarray | None
    facet: np.ndarray | None
    facet_text: str
    value: Scalar | None
    mechanism: Mechanism | None
    scale: Scalar | None
    guarantee: Guarantee | None
    prior_plus: Scalar | None
    prior_minus: Scalar | None
    posterior_plus: Scalar | None
    posterior_minus: Scalar | None
    check: GuaranteeCheck | None = field(repr=False)
    in_source: Membership | None = field(repr=False)
    not_in_larger: Membership | None
    text: str

    def summary(self) -> str:
        return self.text


@dataclass(frozen=True)
class Inclusion(Decision):
    """One direction of a comparison: is ``closure(smaller) ⊆ closure(larger)``?

    Attributes
    ----------
    smaller, larger : str
        Specs of the two definitions.
    holds : bool or None
        The answer; ``None`` when privgeom cannot decide it (see ``detail``).
    method : str
        ``"row-cone"`` (by rays, or by generators / one LP per facet orbit: ``detail`` says which),
        ``"dp-level"`` (ε-DP levels on one graph), ``"dominant-pair"`` ((ε, δ)-DP), ``"generating-mechanisms"``,
        ``"extreme-mechanisms"`` or ``"undecided"``.
    exact : bool
        True when every step was decided in exact rational arithmetic.
    witness : InclusionWitness or None
        For ``holds=False``.
    detail : str
        How it was decided, in one or two sentences.
    smaller_level, larger_level : PrivacyLevel or None
        For ``method="dp-level"`` (ε-DP on one graph) and ``"dominant-pair"`` ((ε, δ)-DP): the two ε compared;
        None otherwise.
    """

    smaller: str
    larger: str
    holds: bool | None
    method: str
    exact: bool
    witness: InclusionWitness | None
    detail: str
    smaller_level: PrivacyLevel | None = None
    larger_level: PrivacyLevel | None = None

    def summary(self) -> str:
        verdict = {True: "⊆", False: "⊄", None: "⊆?"}[self.holds]
        text = f"closure({self.smaller}) {verdict} closure({self.larger})  [{self.method}, " \
               f"{'exact' if self.exact else 'float'}]: {self.detail}"
        if self.witness is not None:
            text += "\n  witness: " + self.witness.text.replace("\n", "\n  ")
        return text


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


# ---------------------------------------------------------------------------------------------------- helpers
@singledispatch
def generating_mechanisms(definition: Any) -> tuple[Mechanism, ...] | None:
    """The finite list of mechanisms a definition is made of, or None for definitions given by constraints.

    Dispatch hook (``functools.singledispatch``): the default reads a ``mechanisms`` attribute.
    """
    mechs = getattr(definition, "mechanisms", None)
    if mechs is None:
        return None
    mechs = tuple(mechs)
    return mechs if mechs and all(isinstance(m, Mechanism) for m in mechs) else None


def _label(d: PrivacyDefinition) -> str:
    """The spec when short, else the definition's name (finite definitions inline their JSON in the spec)."""
    spec = d.spec()
    return spec if len(spec) <= 80 else d.name


def _zero(exact: bool) -> Any:
    return Fraction(0) if exact else 0.0


def _dot(a: Any, x: Any, exact: bool) -> Any:
    if exact:
        return sum((Fraction(u) * Fraction(v) for u, v in zip(a, x)), Fraction(0))
    return float(np.dot(np.asarray(a, dtype=float), np.asarray(x, dtype=float)))


def _term(label: str) -> str:
    return f"x[{label}]"


def inequality_text(normal: Sequence[Any], labels: Sequence[str]) -> str:
    """``Σ a_D x[D] ≥ 0`` written with positive terms on the left, e.g. ``'9 x[10] + x[01] ≥ 3 x[00] + 3 x[11]'``.

    Examples
    --------
    >>> inequality_text([-3, 9, 1, -3], ["11", "10", "01", "00"])
    '9 x[10] + x[01] ≥ 3 x[11] + 3 x[00]'
    """
    def side(terms: list[tuple[Any, str]]) -> str:
        if not terms:
            return "0"
        out = []
        for c, lab in terms:
            cs = fraction_str(c) if isinstance(c, Fraction) else f"{float(c):.6g}"
            out.append(_term(lab) if c == 1 else f"{cs} {_term(lab)}")
        return " + ".join(out)

    pos = [(a, lab) for a, lab in zip(normal, labels) if a > 0]
    neg = [(-a, lab) for a, lab in zip(normal, labels) if a < 0]
    return f"{side(pos)} ≥ {side(neg)}"


def _witness_scale(x: np.ndarray, cone: Cone, exact: bool) -> Scalar:
    """Smallest ``c ≥ max x`` with ``c·1 − x`` satisfying every facet of ``cone`` (``a·1 > 0``) — see module doc.

    Ratio cones (``x_a ≤ r x_b``, ``a·1 = r − 1``, ``a·x = r x_b − x_a``) are scanned vectorised from their
    constraints; a cone with more than :data:`MAX_WITNESS_SCAN` other facets starts from ``max x`` and the caller
    doubles ``c`` until the witness verifies."""
    best: Any = max(x)
    st = cone.structure
    if st is not None and st.difference is not None and not len(st.difference.nonneg):
        d = st.difference
        xs = np.asarray(x, dtype=object if exact else float)
        cs = np.array(list(d.c), dtype=object if exact else float)
        ok = cs > 1
        if ok.any():
            num = cs[ok] * xs[np.asarray(d.b)[ok]] - xs[np.asarray(d.a)[ok]]
            c = max(num / (cs[ok] - 1))
            best = c if c > best else best
        return Fraction(best) if exact else float(best)
    if cone.n_facets > MAX_WITNESS_SCAN:
        return Fraction(best) if exact else float(best)
    for a in cone.facets:
        s = sum(a) if exact else float(np.sum(a.astype(float)))
        if s > 0:
            c = _dot(a, x, exact) / s
            if c > best:
                best = c
    return Fraction(best) if exact else float(best)


def _two_output(row: np.ndarray, scale: Scalar, labels: Sequence[str], exact: bool) -> Mechanism:
    if exact:
        top = [Fraction(v) / scale for v in row]
        rows = [top, [1 - v for v in top]]
    else:
        t = np.asarray(row, dtype=float) / float(scale)
        rows = [list(t), list(1.0 - t)]
    return Mechanism(rows, inputs=labels, outputs=["witness", "other"], exact=exact)


class _RowWitness(NamedTuple):
    """A two-output mechanism of ``closure(X)`` with rows ``x / scale`` and ``1 − x / scale``, and ``X.contains`` of it
    (all None when none was found)."""

    mechanism: Mechanism | None
    scale: Scalar | None
    membership: Membership | None


def _row_witness_mechanism(X: PrivacyDefinition, x: np.ndarray, cx: Cone, exact: bool) -> _RowWitness:
    """A two-output mechanism of ``closure(X)`` whose first row is a multiple of ``x`` (verified by ``X.contains``)."""
    labels = list(X.inputs)
    scale = _witness_scale(x, cx, exact)
    tried: list[Scalar] = [scale] + [scale * 2**k for k in range(1, 11)]
    for c in tried:
        W = _two_output(x, c, labels, exact)
        W = W if W.exact == X.exact else (W.to_float() if not X.exact else W)
        m = X.contains(W)
        if m.member:  # the facet bound c* suffices when X is decided by its row cone; doubling covers the rest
            return _RowWitness(mechanism=W, scale=c, membership=m)
    for M in generating_mechanisms(X) or ():  # finite X: merge the outputs of a generator with a row ∝ x
        mat = M.matrix if exact and M.exact else M.float_matrix()
        for row in mat:
            ratios = {(Fraction(u) / Fraction(v)) if exact else round(float(u) / float(v), 9)
                      for u, v in zip(row, x) if v != 0}
            if len(ratios) == 1 and all((u == 0) == (v == 0) for u, v in zip(row, x)):
                (ratio,) = ratios
                c = 1 / ratio
                W = _two_output(x, c, labels, exact)
                m = X.contains(W if W.exact == X.exact else W.to_float())
                if m.member:
                    return _RowWitness(mechanism=W, scale=c, membership=m)
    return _RowWitness(mechanism=None, scale=None, membership=None)


def _row_witness(X: PrivacyDefinition, Y: PrivacyDefinition, x: np.ndarray, normal: np.ndarray, value: Any,
                 cx: Cone, exact: bool) -> InclusionWitness:
    labels = list(X.inputs)
    a = np.asarray(normal)
    if value > 0:  # an equality e·x = 0 violated with e·x > 0: use -e, which is also valid for rowcone(Y)
        a, value = -a, -value
    text_ineq = inequality_text(list(a), labels)
    g = guarantee_from_normal(list(a), labels, exact=exact)
    W, scale, in_x = _row_witness_mechanism(X, x, cx, exact)
    pp = sum((g.prior[d] for d in g.s_plus), _zero(exact))
    pm = sum((g.prior[d] for d in g.s_minus), _zero(exact))
    lines = [f"the row x = ({', '.join(fraction_str(v) for v in x)}) over ({', '.join(labels)}) is in "
             f"rowcone({_label(X)}) but violates the facet {text_ineq} of rowcone({_label(Y)}) "
             f"(value {fraction_str(value)} < 0)."]
    chk = None
    post_p = post_m = None
    not_y = None
    if W is not None:
        chk = check_guarantee(W, g)
        if "witness" in chk.outputs:
            i = chk.outputs.index("witness")
            post_p, post_m = chk.posterior_plus[i], chk.posterior_minus[i]
        not_y = Y.contains(W if W.exact == Y.exact else W.to_float())
        lines.append(f"The mechanism with rows x/{fraction_str(scale)} and 1 − x/{fraction_str(scale)} is in "  # type: ignore[arg-type]
                     f"closure({_label(X)}) [{in_x.method}] and not in closure({_label(Y)}) [{not_y.method}].")  # type: ignore[union-attr]
    else:
        lines.append(f"(no two-output mechanism of closure({_label(X)}) with the row x was found to show numbers)")
    if g.s_minus:
        lines.append(f"Guarantee of {_label(Y)} it breaks: {g.text}")
        if post_p is not None:
            lines.append(f"Attacker prior: P(S+) = {fraction_str(pp)}, P(S-) = {fraction_str(pm)}; after seeing the "
                         f"output ω of that mechanism whose probabilities are the row x/{fraction_str(scale)}: "  # type: ignore[arg-type]
                         f"P(S+ | ω) = {fraction_str(post_p)} < P(S- | ω) = {fraction_str(post_m)}.")  # type: ignore[arg-type]
    return InclusionWitness(kind="row", row=np.asarray(x), facet=a, facet_text=text_ineq, value=value, mechanism=W,
                            scale=scale, guarantee=g, prior_plus=pp, prior_minus=pm, posterior_plus=post_p,
                            posterior_minus=post_m, check=chk, in_source=in_x, not_in_larger=not_y,
                            text="\n".join(lines))


def _mechanism_witness(X: PrivacyDefinition, Y: PrivacyDefinition, M: Mechanism, m: Membership,
                       how: str) -> InclusionWitness:
    text = (f"{how} of {_label(X)} has every row in rowcone({_label(Y)}) but is not in closure({_label(Y)}) "
            f"[{m.method}]: {m.certificate.summary() if m.certificate is not None else m.detail}")
    return InclusionWitness(kind="mechanism", row=None, facet=None, facet_text="", value=None, mechanism=M, scale=None,
                            guarantee=None, prior_plus=None, prior_minus=None, posterior_plus=None,
                            posterior_minus=None, check=None, in_source=None, not_in_larger=m, text=text)


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
    if n_rays > MAX_EXTREME_RAYS:
        raise SizeLimitError(f"the row cone has {n_rays} extreme rays; enumerating the extreme mechanisms is limited "
                             f"to {MAX_EXTREME_RAYS} rays — {limit_hint('extreme_mechanism_rays', n_rays)}")
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


class _Violator(NamedTuple):
    """A generator ``x`` of the smaller row cone, a row ``normal`` of the larger one and ``value = normal·x < 0``."""

    x: np.ndarray
    normal: np.ndarray
    value: Any


def _simplest_violator(cx: Cone, cy: Cone, cont: Any) -> _Violator:
    """Among the extreme rays of ``cx`` outside ``cy``, the one with the fewest distinct entries (then the largest
    normalised violation), with the most violated facet of ``cy`` — simple witnesses read best (for ε-DP on a
    hypercube the two-valued rays are the parity patterns). Falls back to ``cont``'s witness for huge cones."""
    best: tuple[Any, ...] | None = None
    if len(cx.rays) <= MAX_WITNESS_SCAN and not len(cx.lineality):
        for r in cx.rays:
            m = cy.contains(r)
            if m.member:
                continue
            a = np.asarray(m.normal)
            val: Any = m.value
            if m.kind == "equality" and val > 0:
                a, val = -a, -val
            score = (len(set(r.tolist())), float(val) / float(max(abs(v) for v in a)) / float(max(r)))
            if best is None or score < best[0]:
                best = (score, np.asarray(r), a, val)
    if best is None:
        return _Violator(x=np.asarray(cont.witness), normal=np.asarray(cont.violated_normal), value=cont.value)
    return _Violator(x=best[1], normal=best[2], value=best[3])


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
        return _inclusion(X, Y, holds=True, method="row-cone", exact=cones.exact,
                          detail=f"rowcone({_label(X)}) ⊆ rowcone({_label(Y)}){how} and membership in "
                                 f"closure({_label(Y)}) is decided by its row cone")
    return _beyond_row_cones(X, Y, cx, cones.exact)


def _route_rays(X: PrivacyDefinition, Y: PrivacyDefinition, *, required: bool) -> _RowCones:
    """``method="rays"``: enumerate the extreme rays of ``rowcone(X)`` and test each against the facets of
    ``rowcone(Y)`` (:meth:`~privgeom.geometry.Cone.issubset`). Needs both V- and H-representations (double
    description, exponential in the worst case: 2,470 rays for ε-DP on the 4-cube); picks the simplest refuting
    generator. Always applies."""
    c = X.row_cone().issubset(Y.row_cone())
    return _RowCones(holds=c.holds, witness=c.witness, violated_normal=c.violated_normal, value=c.value, kind=c.kind,
                     exact=bool(c.exact), route="rays")


def _route_lp(X: PrivacyDefinition, Y: PrivacyDefinition, *, required: bool) -> _RowCones | None:
    """``method="lp"``: generators of ``rowcone(X)`` checked against every facet orbit of ``rowcone(Y)``, or one LP
    per facet orbit (:mod:`privgeom.analyses.comparison._containment`, ``docs/theory.md`` §16); never lists rays.
    Needs cheap facets of ``rowcone(Y)`` and generators or ratio facets of ``rowcone(X)``: None otherwise (an error
    when the route was asked for by name)."""
    if "lp" not in _CONE_ROUTES:  # filled from above on first use (privgeom.analyses.comparison._containment)
        importlib.import_module("privgeom.analyses.comparison._containment")
    lpc = _CONE_ROUTES["lp"](X, Y)
    if lpc is None:
        if required:
            raise InvalidParameterError(f"method='lp' needs cheap facets of rowcone({_label(Y)}) and generators or "
                                        f"ratio facets of rowcone({_label(X)}); use method='rays'")
        return None
    return _RowCones(holds=lpc.holds, witness=lpc.witness, violated_normal=lpc.normal, value=lpc.value, kind="facet",
                     exact=bool(lpc.exact), route="lp", how=_lp_how(lpc))


#: The row-cone routes of :func:`inclusion` (``method=``; ``"auto"`` picks ``"rays"`` up to
#: :data:`MAX_RAYS_ROUTE_INPUTS` datasets, ``"lp"`` beyond, falling back to ``"rays"``).
_ROW_CONE_ROUTES: dict[str, Callable[..., _RowCones | None]] = {"rays": _route_rays, "lp": _route_lp}


def _inclusion(X: PrivacyDefinition, Y: PrivacyDefinition, *, holds: bool | None, method: str, exact: bool,
               detail: str, witness: InclusionWitness | None = None, levels: tuple[PrivacyLevel, PrivacyLevel] | None = None) -> Inclusion:
    """The :class:`Inclusion` ``closure(X) ⊆ closure(Y)``, built by keyword."""
    lx, ly = levels if levels is not None else (None, None)
    return Inclusion(smaller=X.spec(), larger=Y.spec(), holds=holds, method=method, exact=exact, witness=witness,
                     detail=detail, smaller_level=lx, larger_level=ly)


def _refuted_by_row_cones(X: PrivacyDefinition, Y: PrivacyDefinition, cx: Cone, cy: Cone, cones: _RowCones) -> Inclusion:
    """A point of ``rowcone(X)`` outside ``rowcone(Y)`` refutes the inclusion for any definition (module docstring,
    step 1): the LP route's point as it is, the rays route's simplest refuting generator."""
    exact = cones.exact
    if cones.route == "lp":
        w = _row_witness(X, Y, np.asarray(cones.witness), np.asarray(cones.violated_normal), cones.value, cx, exact)
        return _inclusion(X, Y, holds=False, method="row-cone", exact=exact, witness=w,
                          detail=f"{cones.how}: a point of rowcone({_label(X)}) violates a facet of rowcone({_label(Y)}); "
                                 f"rows of members of the closure lie in the row cone, so this refutes the inclusion for "
                                 f"any definition")
    if not exact:
        cx, cy = (c.to_float() if c.exact else c for c in (cx, cy))
    x, normal, value = _simplest_violator(cx, cy, cones)
    w = _row_witness(X, Y, x, normal, value, cx, exact)
    return _inclusion(X, Y, holds=False, method="row-cone", exact=exact, witness=w,
                      detail=f"a generator of rowcone({_label(X)}) violates a {cones.kind} of rowcone({_label(Y)}); rows "
                             f"of members of the closure lie in the row cone, so this refutes the inclusion for any "
                             f"definition")


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
            return _inclusion(X, Y, holds=None, method="undecided", exact=exact,
                              detail=f"the row cones are nested but {_label(Y)} is not decided by its row cone, and {err}")
        how, method = "extreme mechanisms", "extreme-mechanisms"
    if gens is None:
        return _inclusion(X, Y, holds=None, method="undecided", exact=exact,
                          detail=f"rowcone({_label(X)}) ⊆ rowcone({_label(Y)}), but neither definition's closure is "
                                 f"decided by the row cones here, and {_label(X)} is neither finite nor decided by its "
                                 f"row cone")
    for j, M in enumerate(gens):
        m = Y.contains(M if M.exact == Y.exact else M.to_float())
        exact = exact and m.exact
        if not m.member:
            w = _mechanism_witness(X, Y, M, m, f"{how[:-1]} #{j}")
            return _inclusion(X, Y, holds=False, method=method, exact=exact, witness=w,
                              detail=f"the row cones are nested but {how[:-1]} #{j} of {_label(X)} is not in "
                                     f"closure({_label(Y)}) (LP membership, Theorem 3.4)")
    return _inclusion(X, Y, holds=True, method=method, exact=exact,
                      detail=f"the row cones are nested and all {len(gens)} {how} of {_label(X)} are in "
                             f"closure({_label(Y)}) (LP membership), which is closed under post-processing and mixing")


# ---------------------------------------------------------------------------------------------------- ε-DP levels
def dp_level_rule(X: Any, Y: Any) -> Inclusion | None:
    """ε-DP at two levels on the same graph: ``closure(X) ⊆ closure(Y)`` iff ``e^ε_X ≤ e^ε_Y`` (docs/theory.md,
    "Containment without enumeration"); None when the pair is not of that form.

    The row cone ``{x ≥ 0 : x_i ≤ t x_j on every edge}`` grows with ``t`` (``x_i ≤ t x_j ≤ t' x_j`` for
    ``x_j ≥ 0``), and ε-DP is decided by its row cone, so ``t_X ≤ t_Y`` gives the inclusion. If ``t_X > t_Y ≥ 1``,
    the two-point row ``x_a = t_X``, ``x = 1`` elsewhere (``a`` an endpoint of an edge ``ab``) satisfies every
    constraint of X (``1 ≤ t_X x_a`` as ``t_X ≥ 1``) and violates ``x_a ≤ t_Y x_b``: it is the witness (re-verified
    by :func:`_row_witness` through both definitions' ``contains``).

    Examples
    --------
    >>> from privgeom.definitions import DifferentialPrivacy
    >>> from privgeom.graphs import hamming_graph
    >>> a, b = (DifferentialPrivacy(hamming_graph(2), exp_eps=t) for t in (2, 3))
    >>> dp_level_rule(a, b).holds, dp_level_rule(b, a).witness.row.tolist()
    (True, [Fraction(1, 1), Fraction(1, 1), Fraction(1, 1), Fraction(3, 1)])
    """
    from ...definitions import DifferentialPrivacy

    if type(X) is not DifferentialPrivacy or type(Y) is not DifferentialPrivacy:
        return None
    ex, ey = ({frozenset(map(str, e)) for e in D.graph.edges} for D in (X, Y))
    if ex != ey or not ex:
        return None
    exact = bool(X.exact and Y.exact)
    rx, ry = (X.exp_eps, Y.exp_eps) if exact else (float(X.exp_eps), float(Y.exp_eps))
    why = (f"ε-DP on the same graph ({len(ex):,} edges) at e^ε = {fraction_str(rx)} and {fraction_str(ry)}: the row "
           f"cone is monotone in e^ε")
    levels = (PrivacyLevel.from_exp_eps(rx), PrivacyLevel.from_exp_eps(ry))
    if rx <= ry:
        return _inclusion(X, Y, holds=True, method="dp-level", exact=exact, levels=levels,
                          detail=f"{why}, and ε-DP is decided by its row cone")
    a, b = sorted(min(ex, key=sorted))
    labels = list(X.inputs)
    ia, ib = labels.index(a), labels.index(b)
    one: Any = Fraction(1) if exact else 1.0
    x = np.array([rx if i == ia else one for i in range(len(labels))], dtype=object if exact else float)
    normal = np.array([ry if i == ib else (-one if i == ia else 0 * one) for i in range(len(labels))],
                      dtype=object if exact else float)
    w = _row_witness(X, Y, x, normal, ry - rx, X.row_cone(), exact)
    if w.in_source is None or not w.in_source.member or w.not_in_larger is None or w.not_in_larger.member:
        raise SolverError(f"the two-point witness for {_label(X)} ⊄ {_label(Y)} does not verify; please report")
    return _inclusion(X, Y, holds=False, method="dp-level", exact=exact, witness=w, levels=levels,
                      detail=f"{why}, and the two-point row with {fraction_str(rx)} at {a} violates x[{a}] ≤ "
                             f"{fraction_str(ry)}·x[{b}]")


# ---------------------------------------------------------------------------------------------------- (ε, δ)-DP pairs
@singledispatch
def _pair_rule(X: Any, Y: Any) -> Inclusion | None:
    """A dedicated decision of ``closure(X) ⊆ closure(Y)`` for some pairs of definition types (registry on ``X``)."""
    return None


def dominant_pair(exp_eps: Scalar, delta: Scalar) -> tuple[list[Scalar], list[Scalar]]:
    """The four-output pair ``(P, Q)`` that every (ε, δ)-DP pair of distributions is a post-processing of.

    ``P = (δ, (1−δ) t/(1+t), (1−δ)/(1+t), 0)`` and ``Q`` reversed, ``t = e^ε`` (Kairouz, Oh & Viswanath, *The
    composition theorem for differential privacy*, ICML 2015, Section 2: the privacy region of any (ε, δ)-DP pair
    is inside that of ``(P, Q)``, hence by Blackwell's theorem it is a post-processing of it).

    Examples
    --------
    >>> [str(v) for v in dominant_pair(Fraction(2), Fraction(1, 10))[0]]
    ['1/10', '3/5', '3/10', '0']
    """
    t, d = exp_eps, delta
    P = [d, (1 - d) * t / (1 + t), (1 - d) / (1 + t), 0 * d]
    return P, P[::-1]


def _adp_pair_rule(X: Any, Y: Any) -> Inclusion | None:
    """(ε₁, δ₁)-DP ⊆ (ε₂, δ₂)-DP when Y's edges are among X's: decided by the dominant pair.

    Hockey-stick divergences only decrease under post-processing, so every member's pair on an edge of X has
    ``H_{e^{ε₂}} ≤ H_{e^{ε₂}}(P, Q)`` (:func:`dominant_pair`): if that is ``≤ δ₂`` the inclusion holds on every edge of
    Y. Otherwise the mechanism with column ``P`` at one endpoint ``a`` of an edge ``ab`` of Y and ``Q`` everywhere
    else is in X (its only non-zero divergences are those of ``(P, Q)`` and ``(Q, P)``, both (ε₁, δ₁)) and not in Y.
    """
    from ...definitions import ApproximateDP
    from ...definitions._approx_dp import hockey_stick_values

    if not isinstance(Y, ApproximateDP):
        return None
    ex, ey = ({frozenset(map(str, e)) for e in D.graph.edges} for D in (X, Y))
    if not ey <= ex:
        return None
    exact = bool(X.exact and Y.exact)
    conv = (lambda v: v) if exact else float
    rx, dx, ry, dy = (conv(v) for v in (X.exp_eps, X.delta, Y.exp_eps, Y.delta))
    levels = (PrivacyLevel.from_exp_eps(rx), PrivacyLevel.from_exp_eps(ry))
    if not ey:
        return _inclusion(X, Y, holds=True, method="dominant-pair", exact=exact, levels=levels,
                          detail=f"{_label(Y)} has no edges, so every mechanism is in it")
    P, Q = dominant_pair(rx, dx)
    pair = np.array([[p, q] for p, q in zip(P, Q)], dtype=object if exact else float)
    worst = hockey_stick_values(pair, [(0, 1)], ry)[0][2]
    why = (f"every (ε, δ)-DP pair is a post-processing of the dominant pair of {_label(X)} (Kairouz, Oh & Viswanath "
           f"2015, Section 2), whose hockey-stick divergence at e^ε = {fraction_str(ry)} is {fraction_str(worst)}")
    if worst <= dy:
        return _inclusion(X, Y, holds=True, method="dominant-pair", exact=exact, levels=levels,
                          detail=f"{why} <= δ = {fraction_str(dy)}, and every edge of {_label(Y)} is an edge of "
                                 f"{_label(X)}")
    a, b = sorted(next(iter(sorted(ey, key=sorted))))
    cols = [P if d == a else Q for d in X.inputs]
    M = Mechanism([[c[w] for c in cols] for w in range(4)], inputs=X.inputs, outputs=["p", "mid+", "mid-", "q"],
                  exact=exact)
    in_x, not_y = X.contains(M), Y.contains(M)
    if not in_x.member or not_y.member:  # pragma: no cover - a theorem, checked anyway
        raise SolverError(f"the dominant-pair witness for {_label(X)} ⊄ {_label(Y)} does not verify; please report")
    w = _mechanism_witness(X, Y, M, not_y, f"the dominant-pair mechanism (column P at {a}, Q elsewhere)")
    return _inclusion(X, Y, holds=False, method="dominant-pair", exact=exact, witness=w, levels=levels,
                      detail=f"{why} > δ = {fraction_str(dy)}")


def _register_pair_rules() -> None:
    from ...definitions import ApproximateDP

    _pair_rule.register(ApproximateDP, _adp_pair_rule)


_register_pair_rules()


def _check_pair(X: Any, Y: Any) -> None:
    for d in (X, Y):
        if not isinstance(d, PrivacyDefinition):
            raise InvalidTypeError(f"compare() takes privacy definitions, got {type(d).__name__}")
    if tuple(X.inputs) != tuple(Y.inputs):
        raise DomainMismatchError(f"the definitions have different input domains: {list(X.inputs)[:8]} and "
                                  f"{list(Y.inputs)[:8]} (same datasets in the same order needed)")


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
    >>> from privgeom.graphs import hamming_graph
    >>> c = compare(RandomizedResponse(2, "3/4"), DifferentialPrivacy(hamming_graph(2), exp_eps=3))
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
    return Comparison(relation=relation, a=def_a.spec(), b=def_b.spec(), a_in_b=ab, b_in_a=ba, exact=ab.exact and ba.exact,
                      text=f"{relation}: {phrase} ({how})")
