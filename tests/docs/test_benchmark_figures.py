"""Benchmark figures come from the benchmarks: each script publishes its tables into a marked block of
docs/benchmarks.md (benchmarks/_report.py), and the README quotes no benchmark figure of its own."""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import _report  # noqa: E402  (benchmarks/_report.py: the publishing helper of the benchmark scripts)

#: A measured figure: a time, a size in bytes or a speed-up ratio (``0.5 s``, ``2.7–3.4 s``, ``14.7 MB``, ``×470``).
FIGURE = re.compile(r"\b\d+(?:\.\d+)?(?:[–-]\d+(?:\.\d+)?)?\s?(?:s|ms|µs|MB|GB|MiB|GiB)\b|×\s?\d")


def _publishing_scripts() -> list[str]:
    # (not a glob pattern: tests/test_examples.py reads those as "scripts another test runs")
    return sorted(
        p.stem
        for p in (ROOT / "benchmarks").iterdir()
        if p.name.startswith("bench_") and p.suffix == ".py" and "_report.run(" in p.read_text(encoding="utf-8")
    )


def test_every_benchmark_but_the_sweeps_publishes_through_the_helper():
    scripts = _publishing_scripts()
    assert {"bench_core", "bench_output", "bench_smoothed", "bench_exact", "bench_analysis"} <= set(scripts)


def test_the_published_blocks_are_well_formed():
    page = _report.DOC.read_text(encoding="utf-8")
    found = _report.blocks()
    scripts = set(_publishing_scripts())
    assert found and set(found) <= scripts, (sorted(found), sorted(scripts))
    for name in scripts:
        assert page.count(_report.START.format(name)) == page.count(_report.END.format(name)) <= 1, name
    for name, text in found.items():
        head = text.splitlines()[0]
        # the command, the machine (cores) and the date of the run that printed the table
        assert re.fullmatch(
            rf"\*`python benchmarks/{name}\.py[^`]*`( \(quick sizes\))? on .+ cores.*; "
            r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\*",
            head,
        ), head
        assert "```text\n" in text and text.rstrip().endswith("```"), name


def test_the_readme_quotes_no_benchmark_figure():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/benchmarks.md" in readme
    offenders = [p for p in re.split(r"\n\s*\n", readme) if "bench" in p and FIGURE.search(p)]
    assert not offenders, [p[:200] for p in offenders]


def test_the_figure_pattern_finds_the_figures_the_readme_used_to_quote():
    old = (
        "Kronecker path at k = 6 against 6.3–6.9 s for the generic LP (×200–620) and 2.7–3.4 s for double "
        "description; `privgeom rowcone rr:k=10,p=3/4 --rays --out FILE` (14.7 MB of JSON)"
    )
    assert [m.group(0) for m in FIGURE.finditer(old)] == ["6.3–6.9 s", "×2", "2.7–3.4 s", "14.7 MB"]
    assert not FIGURE.search("RR(k, 3/4) at k = 6, rr:k=20,p=3/4 (2^20 datasets), §5")


def test_publish_replaces_a_block_in_place_and_appends_a_new_one(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nintro\n", encoding="utf-8")
    when = dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.timezone.utc)
    _report.publish("bench_a", _report.block("bench_a", "first\n", [], when=when, where="X, 2 cores"), doc)
    _report.publish("bench_b", _report.block("bench_b", "other\n", ["--quick"], when=when, where="X, 2 cores"), doc)
    _report.publish("bench_a", _report.block("bench_a", "second\n", [], when=when, where="X, 2 cores"), doc)
    found = _report.blocks(doc)
    assert list(found) == ["bench_a", "bench_b"]
    assert "second" in found["bench_a"] and "first" not in doc.read_text() and "(quick sizes)" in found["bench_b"]
    assert doc.read_text().startswith("# Benchmarks\n\nintro\n\n## bench_a\n")
    doc.write_text(doc.read_text() + _report.START.format("bench_a") + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="not one well-formed pair"):
        _report.publish("bench_a", "x", doc)
