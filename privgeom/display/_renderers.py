"""HTML and LaTeX renderers of the library's types, registered with :mod:`privgeom._core.display`.

Loaded on first use: the first :func:`privgeom.to_html`, :func:`privgeom.to_latex` or ``_repr_html_`` runs
:data:`privgeom._core.display.LOADERS`, where the façade (``privgeom/__init__.py``) put the import of this module;
``import privgeom`` itself does not load it. It sits at the top of the layers and may import from every one, while
:mod:`privgeom._core.display` never imports it. Fields that only some result types have (``graph``, ``n_edges``,
``edge``, …) are read with ``getattr``, so a missing field degrades to the generic table, never fails.

Examples
--------
>>> import privgeom as pg
>>> from privgeom._core.display import to_html
>>> "member" in to_html(pg.RandomizedResponse(1, "3/4").contains(pg.randomized_response(1, "2/3")))
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .._core.display import (
    MAX_COLS,
    MAX_ROWS,
    CELL_L,
    STYLE,
    div,
    escape,
    html_block,
    latex_block,
    matrix_html,
    value_html,
    align_env,
    html_table,
    latex_inequality,
)
from .._core.numbers import number_html, number_latex, number_text
from ..analyses.comparison._compare import Comparison, Inclusion
from ..analyses.profiles._hockey_stick import DeltaResult
from ..analyses.profiles._pure_dp import EpsilonResult
from ..analyses.relaxation._relaxation import Relaxation
from ..analyses.guarantees._semantics import Guarantee, guarantee_from_normal
from ..definitions._base import Membership
from ..geometry._cone import Cone
from ..mechanisms._mechanism import Mechanism

__all__: list[str] = []


def _kv(rows: list[tuple[str, str]]) -> str:
    """A two-column table of (name, already-escaped HTML value)."""
    body = "".join(f'<tr><th style="{CELL_L}">{escape(k)}</th><td style="{CELL_L}">{v}</td></tr>' for k, v in rows)
    return f'<table style="{STYLE}">{body}</table>'


def _set(labels: Any, limit: int = 8) -> str:
    labels = [str(x) for x in labels]
    if len(labels) > limit:
        return "{" + ", ".join(labels[:limit]) + f", … ({len(labels)} datasets)}}"
    return "{" + ", ".join(labels) + "}"


def _text_inequality(normal: Any, labels: Any) -> str:
    """``Σ_{a>0} a_i x_i ≥ Σ_{a<0} |a_i| x_i`` as plain text (the HTML counterpart of the LaTeX form)."""

    def side(terms: list[tuple[Any, str]]) -> str:
        return " + ".join(f"{'' if c == 1 else number_text(c) + '·'}x{lab}" for c, lab in terms) or "0"

    plus = [(c, lab) for c, lab in zip(normal, labels) if c > 0]
    minus = [(-c, lab) for c, lab in zip(normal, labels) if c < 0]
    return f"{side(plus)} ≥ {side(minus)}"


# ------------------------------------------------------------------------------------------------------ Mechanism
@html_block.register(Mechanism)
def _mechanism_html(m: Mechanism) -> str:
    head = (
        f"<p><b>Mechanism</b>: {m.n_outputs} outputs × {m.n_inputs} datasets, "
        f"{'exact' if m.exact else 'float'}; entry (ω, D) = P(M(D) = ω)</p>"
    )
    return div("Mechanism", head + matrix_html(m.matrix, m.outputs, m.inputs))


@latex_block.register(Mechanism)
def _mechanism_latex(m: Mechanism) -> str:
    rows = [" & ".join(number_latex(v) for v in row) for row in m.matrix]
    return "\\begin{pmatrix}\n" + " \\\\\n".join("  " + r for r in rows) + "\n\\end{pmatrix}"


# ------------------------------------------------------------------------------------------------------ Cone
def _facet_rows(cone: Cone, facets: np.ndarray) -> list[list[Any]]:
    rows = []
    for a in facets:
        g = guarantee_from_normal(list(a), cone.labels, exact=cone.exact) if any(v != 0 for v in a) else None
        splus = _set(g.s_plus) if g else ""
        sminus = _set(g.s_minus) if g and g.s_minus else "∅"
        rows.append(list(a[:MAX_COLS]) + [splus, sminus])
    return rows


def _classes(facets: np.ndarray) -> Counter:
    return Counter(tuple(sorted((number_text(v) for v in a), key=str)) for a in facets)


def _orbits(cone: Cone) -> Any:
    """Facet orbits under the symmetry group the cone carries (None when it carries none)."""
    from ..analyses.guarantees._summary import describe_row_cone

    try:
        summary = describe_row_cone(cone)
    except Exception:  # noqa: BLE001 - display must never fail; fall back to coefficient classes
        return None
    if not summary.group_order or summary.group_order <= 1:
        return None
    return summary.facet_orbits


@html_block.register(Cone)
def _cone_html(cone: Cone) -> str:
    labels = list(cone.labels)
    nf = cone.n_facets
    # Rays need a double description conversion when the cone was given by facets: only list them when they are
    # already known or the cone is small.
    rays_known = getattr(cone, "_v", None) is not None or cone.ambient_dim <= 8
    counts = [
        ("ambient dimension", str(cone.ambient_dim)),
        ("dimension", str(cone.dim)),
        ("facets", str(nf)),
        ("equalities", str(len(cone.equalities))),
    ]
    if rays_known:
        counts += [("extreme rays", str(cone.n_rays)), ("pointed", str(cone.is_pointed))]
    counts.append(("arithmetic", "exact (rational)" if cone.exact else f"float (atol {number_text(cone.atol)})"))
    parts = [
        f"<p><b>Cone</b> in R<sup>{cone.ambient_dim}</sup> over the datasets {escape(', '.join(labels[:MAX_COLS]))}"
        f"{' …' if len(labels) > MAX_COLS else ''}</p>",
        _kv([(k, escape(v)) for k, v in counts]),
    ]
    header = [str(x) for x in labels[:MAX_COLS]] + ["S+", "S−"]
    facets = cone.facets
    parts.append(
        html_table(
            header,
            _facet_rows(cone, facets[:MAX_ROWS]),
            index=[f"facet {i + 1}" for i in range(min(nf, MAX_ROWS))],
            total_rows=nf,
            caption="facets a·x ≥ 0 (one column per dataset)",
        )
    )
    orbits = _orbits(cone) if nf > MAX_ROWS else None
    if orbits is not None:
        parts.append(
            html_table(
                ["facets in orbit", "representative", "S+", "S−"],
                [
                    [o.size, o.inequality, _set(o.guarantee.s_plus), _set(o.guarantee.s_minus) or "∅"]
                    for o in orbits[:MAX_ROWS]
                ],
                total_rows=len(orbits),
                caption=f"{nf} facets in {len(orbits)} orbits of the cone's symmetry group",
            )
        )
    elif nf > MAX_ROWS:
        cls = _classes(facets)
        parts.append(
            f"<p>{nf} facets in {len(cls)} coefficient classes (facets with the same multiset of "
            f"coefficients; symmetric facets share a class): "
            + escape(
                ", ".join(f"{n} × ({', '.join(c[:8])}{', …' if len(c) > 8 else ''})" for c, n in cls.most_common(8))
            )
            + (" …" if len(cls) > 8 else "")
            + "</p>"
        )
    if len(cone.equalities):
        parts.append(
            matrix_html(
                cone.equalities,
                [f"equality {i + 1}" for i in range(len(cone.equalities))],
                labels,
                caption="equalities e·x = 0",
            )
        )
    if rays_known and cone.n_rays:
        parts.append(
            matrix_html(cone.rays, [f"ray {i + 1}" for i in range(cone.n_rays)], labels, caption="extreme rays")
        )
    return div("Cone", "".join(parts))


@latex_block.register(Cone)
def _cone_latex(cone: Cone) -> str:
    lines = [latex_inequality(a, cone.labels) for a in cone.facets]
    for e in cone.equalities:
        lines.append(latex_inequality(e, cone.labels).replace("&\\geq", "&="))
    if not lines:
        return "\\text{the whole space } \\mathbb{R}^{%d}" % cone.ambient_dim
    return align_env(lines)


# ------------------------------------------------------------------------------------------------------ Guarantee
@html_block.register(Guarantee)
def _guarantee_html(g: Guarantee) -> str:
    prior = html_table(list(g.prior), [[g.prior[d] for d in g.prior]], caption="attacker prior on S+ ∪ S−")
    rows = [
        ("S+", escape(_set(g.s_plus))),
        ("S−", escape(_set(g.s_minus)) if g.s_minus else "∅"),
        ("facet", escape(_text_inequality(g.coefficients, g.labels))),
    ]
    if g.structure:
        rows.append(("structure", escape(g.structure)))
    return div("Guarantee", f"<p><b>Guarantee</b>: {escape(g.text)}</p>" + _kv(rows) + prior)


@latex_block.register(Guarantee)
def _guarantee_latex(g: Guarantee) -> str:
    return latex_inequality(g.coefficients, g.labels, align=False)


# ------------------------------------------------------------------------------------------------------ answers
def _proof_html(proof: Any, what: str) -> str:
    if proof is None:
        return ""
    return f"<p><b>{escape(what)}</b>:</p>" + value_html(proof)


@html_block.register(Membership)
def _membership_html(m: Membership) -> str:
    verdict = "member" if m.member else "NOT a member"
    colour = "#1a7f37" if m.member else "#b42318"
    head = (
        f'<p><b>Membership</b>: <span style="color:{colour};font-weight:bold">{verdict}</span> '
        f"(method {escape(m.method)}, {'exact' if m.exact else 'float'})</p>"
    )
    body = f"<p>{escape(m.detail)}</p>" if m.detail else ""
    proof = _proof_html(m.witness, "witness") if m.member else _proof_html(m.certificate, "certificate")
    return div("Membership", head + body + proof)


@html_block.register(Inclusion)
def _inclusion_html(inc: Inclusion) -> str:
    verdict = {True: "⊆", False: "⊄", None: "⊆ ?"}[inc.holds]
    head = f"<p>closure({escape(inc.smaller)}) {verdict} closure({escape(inc.larger)}) [{escape(inc.method)}]: {escape(inc.detail)}</p>"
    wit = f"<p><b>witness</b>: {escape(inc.witness.text)}</p>" if inc.witness is not None else ""
    return div("Inclusion", head + wit)


@html_block.register(Comparison)
def _comparison_html(c: Comparison) -> str:
    head = f"<p><b>Comparison</b>: relation <b>{escape(c.relation)}</b>. {escape(c.text)}</p>"
    return div(
        "Comparison",
        head + "<ul><li>" + _inclusion_html(c.a_in_b) + "</li><li>" + _inclusion_html(c.b_in_a) + "</li></ul>",
    )


@html_block.register(Relaxation)
def _relaxation_html(r: Relaxation) -> str:
    eps = r.level.eps if r.level is not None else None
    rows = [
        ("method", escape(r.method)),
        ("subsets", escape(len(r.subsets))),
        ("recognised", escape(r.recognised or "no known definition")),
        ("guarantees kept", escape(r.kept)),
        ("guarantees lost", escape(len(r.lost))),
    ]
    if eps is not None:
        rows.append(("ε", number_html(eps, approx=True)))
    parts = [f"<p><b>Relaxation</b>: {escape(r.text)}</p>", _kv(rows)]
    if r.pair_bounds:
        shown = r.pair_bounds[:MAX_ROWS]
        parts.append(
            html_table(
                ["pair", "x_D ≤ r·x_D′", "x_D′ ≤ r·x_D"],
                [[f"{b.pair[0]}, {b.pair[1]}", b.forward, b.backward] for b in shown],
                total_rows=len(r.pair_bounds),
                caption="ratio bounds of the pairs",
            )
        )
    if r.lost:
        parts.append(
            "<p>guarantees no longer implied:</p><ul>"
            + "".join(f"<li>{escape(g.text)}</li>" for g in r.lost[:MAX_ROWS])
            + "</ul>"
        )
    parts.append(_cone_html(r.cone))
    return div("Relaxation", "".join(parts))


def _eps_html(r: Any) -> str:
    kind = type(r).__name__
    fields = [
        ("exact", str(r.exact)),
        ("graph", str(getattr(r, "graph", ""))),
        ("edges", str(getattr(r, "n_edges", ""))),
        ("eps", number_text(r.level.eps)),
        ("exp_eps", number_text(r.level.exp_eps)),
    ]
    for name in ("delta", "edge", "output", "outputs", "p", "q", "p_event", "q_event"):
        v = getattr(r, name, None)
        if v is not None and not callable(v) and name not in {k for k, _ in fields}:
            fields.append((name, number_text(v) if not isinstance(v, tuple) else ", ".join(map(str, v))))
    return div(kind, f"<p><b>{escape(kind)}</b>: {escape(r.summary())}</p>" + _kv([(k, escape(v)) for k, v in fields]))


html_block.register(EpsilonResult)(_eps_html)
html_block.register(DeltaResult)(_eps_html)


# ------------------------------------------------------------------------------------------------------ LaTeX of answers
def _spec_tex(spec: str) -> str:
    return (
        "\\texttt{"
        + "".join({"_": r"\_", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "#": r"\#"}.get(ch, ch) for ch in spec)
        + "}"
    )


_REL = {
    "equal": "=",
    "subset": "\\subsetneq",
    "superset": "\\supsetneq",
    "incomparable": "\\not\\subseteq",
    "undecided": "\\;?\\;",
}


@latex_block.register(Comparison)
def _comparison_latex(c: Comparison) -> str:
    """The relation of the closures, and for a strict inclusion the facet of the stronger definition that a row of
    the weaker one violates (its guarantee is what the weaker definition gives up)."""
    a, b = f"\\operatorname{{closure}}({_spec_tex(c.a)})", f"\\operatorname{{closure}}({_spec_tex(c.b)})"
    if c.relation == "incomparable":
        rel = f"{a} \\not\\subseteq {b} \\text{{ and }} {b} \\not\\subseteq {a}"
    else:
        rel = f"{a} {_REL.get(c.relation, '?')} {b}"
    lines = ["% needs \\usepackage{amsmath,amssymb}", f"\\[ {rel} \\]"]
    for inc in (c.a_in_b, c.b_in_a):
        w = inc.witness
        if w is not None and w.guarantee is not None and w.row is not None:
            g = w.guarantee
            lines.append(f"% a row of closure({inc.smaller}) violates this facet of rowcone({inc.larger}):")
            lines.append(f"\\[ {latex_inequality(g.coefficients, g.labels, align=False)} \\]")
            lines.append(
                f"% violating row x = ({', '.join(number_text(v) for v in w.row)}) over ({', '.join(g.labels)})"
            )
    return "\n".join(lines)


@latex_block.register(Relaxation)
def _relaxation_latex(r: Relaxation) -> str:
    eps = r.level.eps if r.level is not None else None
    head = f"% relaxation: {r.text}"
    if r.recognised == "dp" and eps is not None:
        head += f"\n% recognised as epsilon-DP with \\varepsilon = {number_latex(eps)}"
    return head + "\n" + _cone_latex(r.cone)
