"""``rowcone --all`` and ``semantics --all`` stream their listing: the command returns an
:class:`~privgeom.cli._registry.Outcome` whose ``lines`` are produced lazily, and the main program prints each line
(flushed) as it is made. The tests count work when the first lines are written (facet rows, guarantees built),
never time, and check the printed text against the closed form and against the joined lines.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import privgeom.cli._core as core
from privgeom import SizeLimitError
from privgeom._core.lazy import LazySequence
from privgeom.cli import main
from privgeom.cli._registry import Outcome

ROOT = Path(__file__).resolve().parents[2]
RR2 = str(ROOT / "examples" / "rr2_mechanism.json")


class _Recorder(io.StringIO):
    """A stdout that records, for each line written, how much work had been done when it was written."""

    def __init__(self, work: Callable[[], int]) -> None:
        super().__init__()
        self.work = work
        self.at: list[tuple[str, int]] = []

    def write(self, s: str) -> int:
        if s.strip():
            self.at.append((s, self.work()))
        return super().write(s)


def _run(monkeypatch: pytest.MonkeyPatch, argv: list[str], work: Callable[[], int]) -> tuple[int, _Recorder]:
    out = _Recorder(work)
    monkeypatch.setattr(sys, "stdout", out)
    code = main(argv)
    return code, out


def test_rowcone_all_text_is_the_closed_form_and_unchanged() -> None:
    """rr:k=2, p=3/4: the facets are Σ_D p^ham(s,D) (p−1)^(2−ham(s,D)) x_D ≥ 0 scaled by 16, i.e. 9, 1 at s and its
    complement and −3 at the two others (Theorem 4.3); header and ``[i]`` numbering as before streaming."""
    buf = io.StringIO()
    old, sys.stdout = sys.stdout, buf
    try:
        assert main(["rowcone", "rr:k=2,p=3/4", "--all"]) == 0
    finally:
        sys.stdout = old
    lines = buf.getvalue().splitlines()
    assert lines[0] == "row cone in R^4: dimension 4, 4 facets, 4 extreme rays, pointed"
    # numbered in the order of row_cone().facets (the order of semantics and of design --drop)
    assert lines[-4:] == [
        "  [0] 9·x_11 + 1·x_00 − 3·x_10 − 3·x_01 ≥ 0",
        "  [1] 9·x_00 + 1·x_11 − 3·x_10 − 3·x_01 ≥ 0",
        "  [2] 9·x_10 + 1·x_01 − 3·x_11 − 3·x_00 ≥ 0",
        "  [3] 9·x_01 + 1·x_10 − 3·x_11 − 3·x_00 ≥ 0",
    ]
    assert lines[2].startswith("  symmetry: hypercube group of order 8")


def test_rowcone_all_prints_its_first_lines_before_the_facets_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    real = core.facet_rows

    def counting(cone: Any) -> Any:
        rows, count = real(cone)
        return (lambda: (made.append(1) or r for r in rows())), count

    monkeypatch.setattr(core, "facet_rows", counting)
    code, out = _run(monkeypatch, ["rowcone", "rr:k=6,p=3/4", "--all"], lambda: len(made))
    facet_lines = [(s, n) for s, n in out.at if s.startswith("  [")]
    assert code == 0 and len(facet_lines) == 64
    assert out.at[0][0].startswith("row cone in R^64") and out.at[0][1] == 0  # header: no facet row made yet
    assert [n for _, n in facet_lines] == list(range(1, 65))  # facet i printed right after row i was made
    # the same text as the eager listing: the lazy lines joined
    summary = core.describe_row_cone(core.parse_definition("rr:k=6,p=3/4"))
    cone = core.parse_definition("rr:k=6,p=3/4").row_cone()
    assert out.getvalue() == "\n".join(core._rowcone_listing(summary, cone, None)) + "\n"


def test_semantics_all_builds_each_guarantee_when_its_line_is_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    real = core.semantics

    def counting(d: Any) -> Any:
        gs = real(d)
        return LazySequence(len(gs), lambda i: (built.append(i), gs[i])[1])

    monkeypatch.setattr(core, "semantics", counting)
    code, out = _run(monkeypatch, ["semantics", "rr:k=5,p=3/4", "--all"], lambda: len(built))
    assert code == 0
    header, n_at_header = out.at[0]
    assert header.startswith("32 guarantees of rr:k=5,p=3/4 ([i]: facet i as rowcone --all") and n_at_header == 0
    guarantee_lines = [(s, n) for s, n in out.at if s.startswith("- [")]
    assert [n for _, n in guarantee_lines] == list(range(1, 33))  # one guarantee built per printed line
    # the [i] numbers are the rowcone --all positions: a permutation of 0..31
    numbers = sorted(int(s[3 : s.index("]")]) for s, _ in guarantee_lines)
    assert numbers == list(range(32))


def test_semantics_all_with_check_keeps_the_order_of_its_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["semantics", "rr:k=2,p=3/4", "--all", "--check", RR2]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("4 guarantees of rr:k=2,p=3/4") and len(lines) == 6
    assert all(line.startswith("- [") for line in lines[1:5])
    assert lines[5] == f"checked on {RR2}: 4 of 4 guarantees hold"


def test_out_file_line_comes_after_the_listing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "o.json"
    assert main(["rowcone", "rr:k=2,p=3/4", "--all", "--out", str(target)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("  [3] ") and lines[-1].startswith(f"complete data written to {target} (")
    assert target.stat().st_size > 0


def test_json_is_not_a_listing(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["semantics", "rr:k=2,p=3/4", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["guarantees"]) == 4 and data["definition"] == "rr:k=2,p=3/4"


def test_an_error_while_streaming_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[int] = []
    real = core.format_facet

    def failing(*args: Any, **kwargs: Any) -> str:
        calls.append(1)
        if len(calls) == 3:
            raise SizeLimitError("refused while listing")
        return real(*args, **kwargs)

    monkeypatch.setattr(core, "format_facet", failing)
    assert main(["rowcone", "rr:k=2,p=3/4", "--all"]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].startswith("  [1] ")  # the two lines made before the error were printed
    assert err.strip() == "privgeom: error: refused while listing"


def test_outcome_lines_and_appended() -> None:
    lazy = Outcome("", None, lines=(str(i) for i in range(3))).appended("end")
    assert list(lazy.iter_lines()) == ["0", "1", "2", "end"]
    plain = Outcome("a\nb", None).appended("c")
    assert plain.text == "a\nb\nc" and plain.lines is None and list(plain.iter_lines()) == ["a", "b", "c"]
