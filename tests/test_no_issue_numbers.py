"""Code says what, not which ticket: no issue number in the package, the tests, the benchmarks or the architecture
notes (docstrings, comments, strings).

A reference to a ticket by its number means nothing to a reader of the code and goes stale with the tracker; the
behaviour it points at is described in words, and ``CHANGELOG.md`` records when it changed.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"
#: The word "issue" followed by a number, any case, with or without "#" (written so that this file matches nothing).
ISSUE = re.compile(r"\b" + "issue" + r"s?\s*#?\d+", re.IGNORECASE)


def issue_references(paths: list[Path]) -> list[str]:
    out = []
    for path in paths:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ISSUE.search(line):
                out.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()[:100]}")
    return out


def test_no_issue_number_in_the_code() -> None:
    paths = sorted(p for top in ("privgeom", "tests", "benchmarks") for p in (ROOT / top).rglob(PY_FILES))
    paths.append(ROOT / "docs" / "ARCHITECTURE.md")
    found = issue_references(paths)
    assert not found, "issue numbers in the code (say what, not which ticket):\n  " + "\n  ".join(found)


def test_the_check_can_fail(tmp_path: Path) -> None:
    bad = ROOT / "tests" / "_issue_probe.py"
    try:
        bad.write_text(
            '"""Fixed in ' + "Issue" + ' 14, item 6."""\nx = 1  # see ' + "issue" + " #3\n", encoding="utf-8"
        )
        assert len(issue_references([bad])) == 2
    finally:
        bad.unlink()
    assert not issue_references([Path(__file__)])  # the word alone, without a number, is fine
