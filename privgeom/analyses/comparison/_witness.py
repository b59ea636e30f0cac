"""Witnesses of a failed inclusion ``closure(X) ⊄ closure(Y)`` (:class:`InclusionWitness`), as
:func:`~privgeom.analyses.compare` reports them (Lin & Kifer, Definition 3.5 and Section III-C).

For a generator ``x`` of ``rowcone(X)`` violating a facet ``a`` of ``rowcone(Y)`` (``a·x < 0``), the witness is a
two-output mechanism of ``closure(X)`` with rows ``x / c`` and ``1 − x / c`` for the smallest ``c`` that puts
``c·1 − x`` in ``rowcone(X)`` (:func:`_witness_scale`; the constant mechanisms are in every closure, so a larger ``c``
works too), re-verified with ``X.contains``. The facet is a Bayesian guarantee of ``Y``: under the attacker prior
``∝ |a|`` the witness output makes ``S-`` a posteriori more likely than ``S+``, and the posteriors are reported. When
the row cones are nested but a generating (or extreme) mechanism of ``X`` is not in ``closure(Y)``, that mechanism
is the witness, with ``Y``'s separating certificate.

Examples
--------
>>> inequality_text([1, -2], ["a", "b"])
'x[a] ≥ 2 x[b]'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import numpy as np

from ..._core.numbers import fraction_str, Scalar
from ..._core.numbers import number_text
from ..._core.results import Result
from ...definitions import Membership, PrivacyDefinition
from ...definitions._generating import generating_mechanisms
from ...geometry import Cone
from ...mechanisms import Mechanism
from ..guarantees._semantics import Guarantee, GuaranteeCheck, check_guarantee, guarantee_from_normal

__all__ = ["InclusionWitness", "inequality_text", "MAX_WITNESS_SCAN"]

#: Largest number of extreme rays scanned for the simplest refuting generator (beyond: the first one found).
MAX_WITNESS_SCAN = 2000


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
            cs = number_text(c)
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
    rows: list[list[Scalar]]
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
            ratios = {
                (Fraction(u) / Fraction(v)) if exact else round(float(u) / float(v), 9)
                for u, v in zip(row, x)
                if v != 0
            }
            if len(ratios) == 1 and all((u == 0) == (v == 0) for u, v in zip(row, x)):
                (ratio,) = ratios
                c = 1 / ratio
                W = _two_output(x, c, labels, exact)
                m = X.contains(W if W.exact == X.exact else W.to_float())
                if m.member:
                    return _RowWitness(mechanism=W, scale=c, membership=m)
    return _RowWitness(mechanism=None, scale=None, membership=None)


def _row_witness(
    X: PrivacyDefinition, Y: PrivacyDefinition, x: np.ndarray, normal: np.ndarray, value: Any, cx: Cone, exact: bool
) -> InclusionWitness:
    labels = list(X.inputs)
    a = np.asarray(normal)
    if value > 0:  # an equality e·x = 0 violated with e·x > 0: use -e, which is also valid for rowcone(Y)
        a, value = -a, -value
    text_ineq = inequality_text(list(a), labels)
    g = guarantee_from_normal(list(a), labels, exact=exact)
    W, scale, in_x = _row_witness_mechanism(X, x, cx, exact)
    pp = sum((g.prior[d] for d in g.s_plus), _zero(exact))
    pm = sum((g.prior[d] for d in g.s_minus), _zero(exact))
    lines = [
        f"the row x = ({', '.join(fraction_str(v) for v in x)}) over ({', '.join(labels)}) is in "
        f"rowcone({_label(X)}) but violates the facet {text_ineq} of rowcone({_label(Y)}) "
        f"(value {fraction_str(value)} < 0)."
    ]
    chk = None
    post_p = post_m = None
    not_y = None
    if W is not None:
        chk = check_guarantee(W, g)
        if "witness" in chk.outputs:
            i = chk.outputs.index("witness")
            post_p, post_m = chk.posterior_plus[i], chk.posterior_minus[i]
        not_y = Y.contains(W if W.exact == Y.exact else W.to_float())
        lines.append(
            f"The mechanism with rows x/{fraction_str(scale)} and 1 − x/{fraction_str(scale)} is in "
            f"closure({_label(X)}) [{in_x.method}] and not in closure({_label(Y)}) [{not_y.method}]."  # type: ignore[union-attr]
        )
    else:
        lines.append(f"(no two-output mechanism of closure({_label(X)}) with the row x was found to show numbers)")
    if g.s_minus:
        lines.append(f"Guarantee of {_label(Y)} it breaks: {g.text}")
        if post_p is not None:
            lines.append(
                f"Attacker prior: P(S+) = {fraction_str(pp)}, P(S-) = {fraction_str(pm)}; after seeing the "
                f"output ω of that mechanism whose probabilities are the row x/{fraction_str(scale)}: "
                f"P(S+ | ω) = {fraction_str(post_p)} < P(S- | ω) = {fraction_str(post_m)}."
            )
    return InclusionWitness(
        kind="row",
        row=np.asarray(x),
        facet=a,
        facet_text=text_ineq,
        value=value,
        mechanism=W,
        scale=scale,
        guarantee=g,
        prior_plus=pp,
        prior_minus=pm,
        posterior_plus=post_p,
        posterior_minus=post_m,
        check=chk,
        in_source=in_x,
        not_in_larger=not_y,
        text="\n".join(lines),
    )


def _mechanism_witness(
    X: PrivacyDefinition, Y: PrivacyDefinition, M: Mechanism, m: Membership, how: str
) -> InclusionWitness:
    text = (
        f"{how} of {_label(X)} has every row in rowcone({_label(Y)}) but is not in closure({_label(Y)}) "
        f"[{m.method}]: {m.certificate.summary() if m.certificate is not None else m.detail}"
    )
    return InclusionWitness(
        kind="mechanism",
        row=None,
        facet=None,
        facet_text="",
        value=None,
        mechanism=M,
        scale=None,
        guarantee=None,
        prior_plus=None,
        prior_minus=None,
        posterior_plus=None,
        posterior_minus=None,
        check=None,
        in_source=None,
        not_in_larger=m,
        text=text,
    )


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
