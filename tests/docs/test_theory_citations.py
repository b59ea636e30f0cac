"""Docstrings cite the papers and ``docs/theory.md`` sections that exist, and never a file outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THEORY = (ROOT / "docs" / "theory.md").read_text(encoding="utf-8")
SECTIONS = {int(n) for n in re.findall(r"^## (\d+)\. ", THEORY, flags=re.M)}
# (no literal glob pattern here: tests/test_examples.py reads glob("...") in test files as "this test runs those scripts")
PY = "*.py"
SOURCES = sorted((ROOT / "privgeom").rglob(PY)) + sorted(p for p in (ROOT / "examples").iterdir() if p.suffix == ".py")


def test_theory_has_the_papers_results() -> None:
    assert SECTIONS == set(range(1, 22))
    for needle in (
        "Theorem 3.4",
        "Theorem 4.3",
        "Example 4.4",
        "Theorem 4.5",
        "Section V",
        "Proposition 2",
        "Remark 1",
        "Definition 5",
        "Theorem 6",
        "Definition 2",
        "Definition 3",
        "Theorem 1",
        "Theorem 2",
    ):
        assert needle in THEORY, needle


def test_cited_theory_sections_exist() -> None:
    cited = 0
    for path in SOURCES:
        for sec in re.findall(r"docs/theory\.md(?:``)?,? §(\d+)", path.read_text(encoding="utf-8")):
            assert int(sec) in SECTIONS, f"{path.relative_to(ROOT)} cites docs/theory.md §{sec}, which does not exist"
            cited += 1
    assert cited >= 10


def test_no_citation_outside_the_repository() -> None:
    """Docstrings cite the papers and docs/theory.md, never the workplace's reference pages or seed papers."""
    outside = re.compile(r"reference/[\w-]+\.md|\.\./shared|shared/(?:reference|seeds)")
    offenders = [
        f"{path.relative_to(ROOT)}:{i}"
        for path in SOURCES
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert not offenders, offenders
