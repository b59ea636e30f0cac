"""Notebook display (``_repr_html_``) and LaTeX export (privgeom._core.display), checked by parsing the HTML."""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

import privgeom as pg
from privgeom import to_html, to_latex
from privgeom.testing import hamming_graph


class _Tables(HTMLParser):
    """Collects the text of every table cell (by table) and all text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.text: list[str] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}> after {self.stack[-3:]}"
        self.stack.pop()
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(html: str) -> _Tables:
    p = _Tables()
    p.feed(html)
    p.close()
    assert not p.stack, f"unclosed tags {p.stack}"
    return p


RR2 = pg.RandomizedResponse(2, "3/4")


def test_mechanism_table_is_labelled_and_exact():
    M = pg.randomized_response(2, "3/4")
    p = parse(M._repr_html_())
    (table,) = p.tables
    assert table[0] == ["", "11", "10", "01", "00"]  # header: datasets
    assert [r[0] for r in table[1:]] == list(M.outputs)
    assert table[1][1:] == [str(v) for v in M.matrix[0]] == ["9/16", "3/16", "3/16", "1/16"]


def test_cone_html_counts_facets_and_sets():
    cone = RR2.row_cone()
    p = parse(cone._repr_html_())
    counts = {r[0]: r[1] for r in p.tables[0]}
    assert counts["facets"] == "4" and counts["extreme rays"] == "4" and counts["dimension"] == "4"
    facets = p.tables[1]
    assert facets[0][:5] == ["", "11", "10", "01", "00"] and facets[0][-2:] == ["S+", "S−"]
    for row, a in zip(facets[1:], cone.facets):
        assert row[1:5] == [str(v) for v in a]
        plus = {lab for lab, v in zip(cone.labels, a) if v > 0}
        assert (
            row[5]
            == "{" + ", ".join(sorted(plus, key=lambda d: (-abs(a[cone.labels.index(d)]), cone.labels.index(d)))) + "}"
        )
    rays = p.tables[2]
    assert len(rays) == 1 + 4


def test_large_cone_is_truncated_with_classes():
    dp = pg.DifferentialPrivacy(hamming_graph(4), exp_eps=2)
    bare = pg.Cone.from_facets(dp.row_cone().facets, labels=dp.row_cone().labels)  # carries no symmetry group
    p = parse(bare._repr_html_())
    text = "".join(p.text)
    hidden = re.search(r"(\d+) more rows not shown", text)
    assert hidden is not None and 0 < int(hidden.group(1)) < bare.n_facets
    shown = bare.n_facets - int(hidden.group(1))  # the rows a notebook table shows at most
    assert len(p.tables[1]) == 1 + shown
    # all 64 facets 2 x_j - x_i >= 0 have the same multiset of coefficients: one class
    assert f"{bare.n_facets} facets in 1 coefficient classes" in text
    # the definition's own cone carries the hypercube group: one orbit instead
    assert "64 facets in 1 orbits" in "".join(parse(dp.row_cone()._repr_html_()).text)


def test_membership_yes_and_no_show_witness_and_certificate():
    yes = RR2.contains(pg.randomized_response(2, "2/3"))
    no = RR2.contains(pg.randomized_response(2, "7/8"))
    ty, tn = "".join(parse(yes._repr_html_()).text), "".join(parse(no._repr_html_()).text)
    assert "member" in ty and "NOT" not in ty and "witness" in ty
    assert "NOT a member" in tn and "certificate" in tn and str(no.certificate.value) in tn


def test_guarantee_sentence_sets_and_prior():
    g = pg.semantics(RR2)[1]
    p = parse(g._repr_html_())
    text = "".join(p.text)
    assert g.text in text
    kv = {r[0]: r[1] for r in p.tables[0]}
    assert kv["S+"] == "{" + ", ".join(g.s_plus) + "}" and kv["S−"] == "{" + ", ".join(g.s_minus) + "}"
    prior = p.tables[1]
    assert prior[0] == list(g.prior) and prior[1] == [str(g.prior[d]) for d in g.prior]
    assert sum(Fraction(v) for v in prior[1]) == 1


def test_comparison_relaxation_and_eps_results():
    dp = pg.DifferentialPrivacy(hamming_graph(2), exp_eps=3)
    c = pg.compare(RR2, dp)
    text = "".join(parse(c._repr_html_()).text)
    assert "subset" in text and "⊄" in text and "witness" in text
    r = pg.relax_pairwise(RR2, "hamming")
    p = parse(r._repr_html_())
    assert "ε-differential privacy" in "".join(p.text) and "ln(3)" in "".join(p.text)
    bounds = [t for t in p.tables if t and t[0][:1] == ["pair"]][0]
    assert all(row[1] == row[2] == "3" for row in bounds[1:])
    e = pg.epsilon(pg.randomized_response(2, "3/4"), hamming_graph(2))
    assert "ln(3)" in "".join(parse(e._repr_html_()).text)
    d = pg.delta(pg.randomized_response(2, "3/4"), hamming_graph(2), exp_eps=2)
    assert str(d.delta) in "".join(parse(d._repr_html_()).text)


def test_html_escapes_labels():
    M = pg.Mechanism([[1, 0], [0, 1]], inputs=["<a>", "b&c"])
    html = M._repr_html_()
    assert "<a>" not in html and "&lt;a&gt;" in html
    assert parse(html).tables[0][0] == ["", "<a>", "b&c"]


# ------------------------------------------------------------------------------------------------------ LaTeX
EXAMPLE_4_4 = r"""\begin{align}
  x_{00} + 9 x_{11} &\geq 3 x_{01} + 3 x_{10} \\
  9 x_{00} + x_{11} &\geq 3 x_{01} + 3 x_{10} \\
  x_{01} + 9 x_{10} &\geq 3 x_{00} + 3 x_{11} \\
  9 x_{01} + x_{10} &\geq 3 x_{00} + 3 x_{11}
\end{align}"""


def test_example_4_4_latex_known_string():
    assert to_latex(pg.semantics(RR2)) == EXAMPLE_4_4
    assert RR2.row_cone().to_latex() == EXAMPLE_4_4


def test_example_4_4_latex_matches_the_paper_formula():
    # Lin & Kifer Example 4.4: p² x00 + (1-p)² x11 ≥ p(1-p)(x01 + x10), etc.; scaled by 16 at p = 3/4.
    p = Fraction(3, 4)
    lab = ["11", "10", "01", "00"]
    paper = [
        {"00": p * p, "11": (1 - p) ** 2, "01": -p * (1 - p), "10": -p * (1 - p)},
        {"00": (1 - p) ** 2, "11": p * p, "01": -p * (1 - p), "10": -p * (1 - p)},
        {"01": p * p, "10": (1 - p) ** 2, "00": -p * (1 - p), "11": -p * (1 - p)},
        {"01": (1 - p) ** 2, "10": p * p, "00": -p * (1 - p), "11": -p * (1 - p)},
    ]
    from_paper = pg.Cone.from_facets([[16 * f[d] for d in lab] for f in paper], labels=lab).to_latex()
    expected = {line.rstrip(" \\").strip() for line in from_paper.splitlines()[1:-1]}
    got = set(EXAMPLE_4_4.splitlines()[1:-1])
    assert {g.rstrip(" \\").strip() for g in got} == expected and len(expected) == 4


def test_generic_result_falls_back_to_field_table():
    from privgeom.results import PairBound

    b = PairBound(("11", "10"), Fraction(3), Fraction(3))
    p = parse(to_html(b))
    assert "PairBound" in "".join(p.text) and ["pair", "11, 10"] in p.tables[0]


# ------------------------------------------------------------------------------------------------------ notebook
def test_example_notebook_runs_and_displays_html(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "notebook_display.ipynb"
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    htmls = [
        out["data"]["text/html"]
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if "text/html" in out.get("data", {})
    ]
    kinds = {
        cls
        for h in htmls
        for cls in (
            "Mechanism",
            "Cone",
            "Membership",
            "Guarantee",
            "Relaxation",
            "EpsilonResult",
            "DeltaResult",
            "Comparison",
            "SymbolicRowCone",
        )
        if f'class="privgeom-{cls}"' in h
    }
    assert kinds == {
        "Mechanism",
        "Cone",
        "Membership",
        "Guarantee",
        "Relaxation",
        "EpsilonResult",
        "DeltaResult",
        "Comparison",
        "SymbolicRowCone",
    }
    cone_html = next(h for h in htmls if 'class="privgeom-Cone"' in h and "facets a·x" in h)
    assert parse(cone_html).tables[1][1][1:5] == [str(v) for v in RR2.row_cone().facets[0]]
    printed = "".join(
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream"
    )
    assert EXAMPLE_4_4 in printed


def test_large_symmetric_cone_shows_orbits():
    cone = pg.RandomizedResponse(5, "3/4").row_cone()  # 32 facets, one orbit of the hypercube group (Theorem 4.3)
    p = parse(cone._repr_html_())
    text = "".join(p.text)
    assert "32 facets in 1 orbits" in text
    orbit_table = [t for t in p.tables if t and t[0][:2] == ["facets in orbit", "representative"]][0]
    assert orbit_table[1][0] == "32"


def test_example_4_4_snippet_compiles_with_latex_when_available(tmp_path):
    """Optional: compile the snippet when a TeX installation is present (CI does not depend on TeX)."""
    import shutil
    import subprocess

    tex = shutil.which("pdflatex")
    if tex is None:
        pytest.skip("pdflatex is not installed")
    (tmp_path / "ex.tex").write_text(
        "\\documentclass{article}\\usepackage{amsmath,amssymb}\\begin{document}\n"
        + EXAMPLE_4_4
        + "\n"
        + pg.symbolic_row_cone("rr:k=2,p=p", "p").to_latex()
        + "\n"
        + to_latex(pg.compare(RR2, pg.DifferentialPrivacy(hamming_graph(2), exp_eps=3)))
        + "\n\\end{document}\n"
    )
    proc = subprocess.run(
        [tex, "-interaction=nonstopmode", "-halt-on-error", "ex.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_witness_post_processings_render_as_tables_not_reprs():
    rr = pg.FiniteDefinition([pg.randomized_response(1, "3/4")])
    html = rr.contains(pg.randomized_response(1, "2/3"), method="lp")._repr_html_()
    assert "Fraction(" not in html and "post_processings" in html and "<td" in html and "5/6" in html


def test_coinciding_profiles_stay_visible_and_named():
    M = pg.randomized_response(2, "3/4")
    fig = pg.plot({"a": M, "b": M}, hamming_graph(2))
    lines = [ln for ln in fig.axes[0].get_lines() if len(ln.get_xdata()) > 1]
    assert lines[0].get_linestyle() != lines[1].get_linestyle()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels[1].endswith("same curve as a") and "same curve" not in labels[0]
