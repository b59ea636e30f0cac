"""Notebook display (HTML) and LaTeX export of privgeom objects.

Two single-dispatch functions render any privgeom object:

- :func:`to_html` — an HTML fragment for Jupyter (``_repr_html_`` of :class:`~privgeom.Mechanism`,
  :class:`~privgeom.Cone` and every :class:`~privgeom._core.results.Result` delegates here): mechanisms as labelled
  tables, cones as counts followed by their facets (with ``S+``/``S−``) and extreme rays, guarantees as the sentence
  with ``S+``, ``S−`` and the attacker's prior, memberships and comparisons as the answer with its witness or
  certificate. Long tables are truncated; a truncated facet list also counts the facets by *coefficient class*
  (facets whose coefficients are the same multiset — a coarsening of the symmetry orbits of the cone).
- :func:`to_latex` — LaTeX source: a cone's facets, or the guarantees returned by :func:`~privgeom.semantics`, as an
  ``align`` environment of inequalities ``Σ_{a_i > 0} a_i x_{D_i} ≥ Σ_{a_i < 0} |a_i| x_{D_i}`` with the dataset labels
  as subscripts, in the form of Lin & Kifer's Example 4.4 (docs/theory.md §5); a mechanism as a ``pmatrix``.

The renderers for library types live in :mod:`privgeom.display._renderers`, which imports this module and registers
them; the façade (``privgeom/__init__.py``) puts its import into :data:`LOADERS`, run before the first rendering (so
this module never imports a layer above it, and ``import privgeom`` does not load the renderers).

Examples
--------
>>> import privgeom as pg
>>> print(to_latex(pg.RandomizedResponse(2, "3/4").row_cone()))
\\begin{align}
  x_{00} + 9 x_{11} &\\geq 3 x_{01} + 3 x_{10} \\\\
  9 x_{00} + x_{11} &\\geq 3 x_{01} + 3 x_{10} \\\\
  x_{01} + 9 x_{10} &\\geq 3 x_{00} + 3 x_{11} \\\\
  9 x_{01} + x_{10} &\\geq 3 x_{00} + 3 x_{11}
\\end{align}
>>> "<table" in to_html(pg.randomized_response(1, "3/4"))
True
"""

from __future__ import annotations

import dataclasses
import html
from functools import singledispatch
from typing import Any, Callable, Sequence

import numpy as np

from .errors import InvalidTypeError
from .numbers import number_latex, number_text

__all__ = ["to_html", "to_latex", "register_html", "register_latex", "latex_inequality", "MAX_ROWS", "MAX_COLS"]

#: Rows (facets, rays, outputs, pair bounds) shown before an HTML table is truncated.
MAX_ROWS = 24
#: Columns (datasets) shown before an HTML table is truncated.
MAX_COLS = 16

STYLE = "border-collapse:collapse;font-family:monospace;font-size:90%"
_CELL = "border:1px solid #bbb;padding:2px 6px;text-align:right"
CELL_L = "border:1px solid #bbb;padding:2px 6px;text-align:left"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "#": r"\#",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "^": r"\^{}",
    "~": r"\~{}",
}


def latex_label(label: str) -> str:
    """``x_{label}``: alphanumeric labels as they are, others inside ``\\text{}`` with special characters escaped."""
    if label.isalnum():
        return f"x_{{{label}}}"
    return "x_{\\text{" + "".join(_LATEX_SPECIAL.get(ch, ch) for ch in label) + "}}"


def _label_key(label: str) -> tuple[int, int, str]:
    # Numeric labels (bit strings, counts) in increasing numeric order, as in Example 4.4 (x_00 before x_11).
    return (0, int(label), label) if label.isdigit() else (1, 0, label)


def _terms_latex(terms: Sequence[tuple[Any, str]], coef: Callable[[Any], str]) -> str:
    if not terms:
        return "0"
    parts = []
    for c, lab in sorted(terms, key=lambda t: _label_key(t[1])):
        s = coef(c)
        parts.append(f"{s} {latex_label(lab)}" if s else latex_label(lab))
    return " + ".join(parts)


def _coef_latex(c: Any) -> str:
    """The LaTeX coefficient of a term, empty for 1."""
    s = number_latex(c)
    return "" if s == "1" else s


def latex_inequality(
    normal: Sequence[Any],
    labels: Sequence[str],
    *,
    coef: Callable[[Any], str] | None = None,
    align: bool = True,
    zero: Callable[[Any], bool] | None = None,
    negative: Callable[[Any], bool] | None = None,
) -> str:
    """One valid inequality ``a·x ≥ 0`` as ``Σ_{a_i>0} a_i x_i ≥ Σ_{a_i<0} |a_i| x_i`` in LaTeX.

    Parameters
    ----------
    normal : sequence
        The coefficients ``a``, one per dataset.
    labels : sequence of str
        Dataset labels, used as subscripts.
    coef : callable, optional
        Formats the magnitude of a coefficient (default: integers and ``\\frac``, 1 omitted). The symbolic route
        passes a sympy printer.
    align : bool
        Put ``&`` before the relation (for an ``align`` environment).
    zero, negative : callable, optional
        Sign tests for non-numeric coefficients (default: ``c == 0`` and ``c < 0``).

    Examples
    --------
    >>> latex_inequality([9, -3, -3, 1], ["11", "10", "01", "00"], align=False)
    'x_{00} + 9 x_{11} \\\\geq 3 x_{01} + 3 x_{10}'
    """
    coef = coef or _coef_latex
    is_zero = zero or (lambda c: c == 0)
    is_neg = negative or (lambda c: c < 0)
    plus = [(c, lab) for c, lab in zip(normal, labels) if not is_zero(c) and not is_neg(c)]
    minus = [(-c, lab) for c, lab in zip(normal, labels) if not is_zero(c) and is_neg(c)]
    rel = "&\\geq" if align else "\\geq"
    return f"{_terms_latex(plus, coef)} {rel} {_terms_latex(minus, coef)}"


def align_env(lines: Sequence[str]) -> str:
    """Lines joined into ``\\begin{align} … \\end{align}``."""
    return "\\begin{align}\n" + " \\\\\n".join("  " + ln for ln in lines) + "\n\\end{align}"


# ------------------------------------------------------------------------------------------------------ HTML bits
def escape(x: Any) -> str:
    return html.escape(str(x))


def html_table(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    index: Sequence[str] | None = None,
    total_rows: int | None = None,
    total_cols: int | None = None,
    caption: str = "",
) -> str:
    """A small HTML table; says how many rows/columns were left out when truncated."""
    out = [f'<table class="privgeom" style="{STYLE}">']
    if caption:
        out.append(f'<caption style="text-align:left">{escape(caption)}</caption>')
    head = ([""] if index is not None else []) + list(header)
    if total_cols is not None and total_cols > len(header):
        head.append(f"… {total_cols - len(header)} more")
    out.append("<thead><tr>" + "".join(f'<th style="{_CELL}">{escape(h)}</th>' for h in head) + "</tr></thead><tbody>")
    for r, row in enumerate(rows):
        cells = [f'<th style="{_CELL}">{escape(index[r])}</th>'] if index is not None else []
        cells += [f'<td style="{_CELL}">{escape(number_text(v))}</td>' for v in row]
        if total_cols is not None and total_cols > len(header):
            cells.append(f'<td style="{_CELL}">…</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    if total_rows is not None and total_rows > len(rows):
        out.append(f"<p><i>… {total_rows - len(rows)} more rows not shown (of {total_rows}).</i></p>")
    return "".join(out)


def matrix_html(mat: np.ndarray, rows: Sequence[str], cols: Sequence[str], caption: str = "") -> str:
    nr, nc = mat.shape
    shown = mat[:MAX_ROWS, :MAX_COLS]
    return html_table(
        [str(c) for c in cols[:MAX_COLS]],
        [list(r) for r in shown],
        index=[str(r) for r in rows[:MAX_ROWS]],
        total_rows=nr,
        total_cols=nc,
        caption=caption,
    )


def div(kind: str, body: str) -> str:
    return f'<div class="privgeom-{escape(kind)}">{body}</div>'


def value_html(v: Any) -> str:
    """A field value: nested results and arrays rendered, scalars as text."""
    if v is None:
        return "—"
    if isinstance(v, np.ndarray) and v.ndim == 2 and v.size:
        n, m = v.shape
        return matrix_html(v, [str(i) for i in range(n)], [str(j) for j in range(m)])
    if isinstance(v, np.ndarray):
        return escape(", ".join(number_text(x) for x in v.ravel()[:MAX_COLS]) + (" …" if v.size > MAX_COLS else ""))
    if _renderable(v):
        return to_html(v)
    if isinstance(v, (tuple, list)) and v and all(isinstance(x, np.ndarray) and x.ndim == 2 for x in v):
        shown = "".join(f"<li>{value_html(x)}</li>" for x in v[:MAX_ROWS])  # e.g. a witness's post-processings
        more = f"<li><i>… {len(v) - MAX_ROWS} more</i></li>" if len(v) > MAX_ROWS else ""
        return f"<ul>{shown}{more}</ul>"
    if isinstance(v, (tuple, list)) and v and all(_renderable(x) for x in v):
        shown = "".join(f"<li>{to_html(x)}</li>" for x in v[:MAX_ROWS])
        more = f"<li><i>… {len(v) - MAX_ROWS} more</i></li>" if len(v) > MAX_ROWS else ""
        return f"<ul>{shown}{more}</ul>"
    if isinstance(v, (tuple, list)):
        return escape(", ".join(number_text(x) for x in v[:MAX_COLS]) + (" …" if len(v) > MAX_COLS else ""))
    if isinstance(v, dict):
        return escape(", ".join(f"{k}: {number_text(x)}" for k, x in list(v.items())[:MAX_COLS]))
    return escape(number_text(v))


def _renderable(v: Any) -> bool:
    return html_block.dispatch(type(v)) is not html_block.dispatch(object) or (
        dataclasses.is_dataclass(v) and not isinstance(v, type)
    )


# ------------------------------------------------------------------------------------------------------ dispatch
@singledispatch
def html_block(obj: Any) -> str:
    """Default HTML: a result dataclass as its summary and a table of its fields, anything else as text."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        summary = obj.summary() if hasattr(obj, "summary") else ""
        rows = "".join(
            f'<tr><th style="{CELL_L}">{escape(f.name)}</th><td style="{CELL_L}">'
            f"{value_html(getattr(obj, f.name))}</td></tr>"
            for f in dataclasses.fields(obj)
            if f.repr and f.name != "text"
        )
        return div(
            type(obj).__name__,
            f'<p><b>{escape(type(obj).__name__)}</b>: {escape(summary)}</p><table style="{STYLE}">{rows}</table>',
        )
    return f"<pre>{escape(obj)}</pre>"


@singledispatch
def latex_block(obj: Any) -> str:
    raise InvalidTypeError(
        f"no LaTeX form for {type(obj).__name__}; use a Cone, a Guarantee, the tuple returned by "
        f"semantics(), a Mechanism or a symbolic row cone"
    )


#: Functions that import the modules registering renderers (the package root adds one that imports
#: ``privgeom.display._renderers``, loaded on first use to keep ``import privgeom`` fast); run once, before dispatching.
#: One of the two loader lists through which the façade tells the base layer about higher modules (the other is
#: ``_core.limits.LOADERS``; docs/ARCHITECTURE.md, "How lower code reaches higher code").
LOADERS: list[Callable[[], None]] = []


def _load_renderers() -> None:
    while LOADERS:
        LOADERS.pop(0)()


#: Register an HTML renderer for a type: ``@register_html(MyResult)`` (functools.singledispatch).
register_html = html_block.register
#: Register a LaTeX renderer for a type: ``@register_latex(MyResult)``.
register_latex = latex_block.register


def to_html(obj: Any) -> str:
    """An HTML fragment showing ``obj`` (what ``_repr_html_`` returns in notebooks).

    Dispatches (``functools.singledispatch``) on the type: mechanisms, cones, guarantees, memberships,
    comparisons, relaxations and the ε/δ results have dedicated renderers; any other result dataclass is shown as its
    summary followed by a table of its fields.

    Examples
    --------
    >>> import privgeom as pg
    >>> h = to_html(pg.semantics(pg.RandomizedResponse(1, "3/4"))[0])
    >>> "S+" in h and "prior" in h
    True
    """
    _load_renderers()
    return html_block(obj)


def to_latex(obj: Any) -> str:
    """LaTeX source for ``obj``: a cone or the tuple of guarantees from :func:`~privgeom.semantics` as an ``align``
    environment, one guarantee as one inequality, a mechanism as a ``pmatrix`` (docs/theory.md §5, Example 4.4).

    Examples
    --------
    >>> import privgeom as pg
    >>> print(to_latex(pg.semantics(pg.RandomizedResponse(1, "3/4"))))
    \\begin{align}
      3 x_{1} &\\geq x_{0} \\\\
      3 x_{0} &\\geq x_{1}
    \\end{align}
    """
    _load_renderers()
    return latex_block(obj)


@latex_block.register(tuple)
@latex_block.register(list)
def _latex_seq(obj: Sequence[Any]) -> str:
    if not obj:
        raise InvalidTypeError("no LaTeX form for an empty sequence")
    lines = []
    for g in obj:
        if not hasattr(g, "coefficients") or not hasattr(g, "labels"):
            raise InvalidTypeError(
                f"to_latex of a sequence needs guarantees (from semantics()), got {type(g).__name__}"
            )
        lines.append(latex_inequality(g.coefficients, g.labels))
    return align_env(lines)
