"""Sizes before work: voting commands refuse from their sizes alone, before the expensive routine.

Each row runs a command whose size is over a limit with the routine that would do (or allocate for) the work
monkeypatched to raise: the refusal must come first, be one line on stderr naming the limit and how to raise it,
and exit 2. Nothing is timed.
"""

from __future__ import annotations

from typing import Any

import pytest

from privgeom import voting
from privgeom.cli import main
from privgeom.voting import _accuracy, _counts, _rule, _rules

from privgeom.testing import assert_cli_refused, boom


ROWS = [  # argv, (module, attribute) that must never run, words of the refusal
    (
        ["voting", "epsilon", "majority", "-n", "9999999", "--rho", "1/2"],
        (voting, "majority"),
        ["9,999,999 steps", "voting_count_work = 4,000,000", "--limit voting_count_work=9999999"],
    ),
    (
        ["voting", "epsilon", "threshold", "-n", "9999999", "--theta", "3", "--rho", "1/2"],
        (voting, "threshold"),
        ["voting_count_work"],
    ),
    (
        ["voting", "epsilon", "and", "-n", "9999999", "--rho", "1/2", "--method", "counts"],
        (voting, "conjunction"),
        ["voting_count_work"],
    ),
    (
        ["voting", "epsilon", "parity", "-n", "3000", "--rho", "1/2", "--method", "counts"],
        (voting, "parity"),
        ["changes value 3,000 times", "9,000,000 steps"],
    ),
    (
        ["voting", "epsilon", "majority", "-n", "41", "--rho", "1/2", "--method", "table"],
        (voting, "majority"),
        ["2^41 profiles"],
    ),
    (
        ["voting", "accuracy", "majority", "-n", "10000001", "--rho", "1/2"],
        (_rules, "_sym"),
        ["10,000,001 voters", "--max-n"],
    ),
    (["voting", "influence", "parity", "-n", "10000001"], (_rules, "_sym"), ["10,000,001 voters"]),
    (
        ["voting", "epsilon", "tribes", "--width", "20", "--count", "3", "--rho", "1/2"],
        (_rule, "popcounts"),
        ["2^60 profiles"],
    ),
    (
        ["voting", "figure", "--n-max", "100001", "--out", "{tmp}"],
        (_accuracy, "_accuracy"),
        ["voting_figure_work = 20,000,000", "--limit voting_figure_work=12500750010"],
    ),  # 5 · 50001 · 50002
    (
        ["voting", "figure", "--n-max", "100001", "--out", "{tmp}"],
        (_accuracy, "majority_accuracy_figure"),
        ["voting_figure_work"],
    ),
]


@pytest.mark.parametrize("argv, routine, words", ROWS, ids=[" ".join(r[0][:4]) for r in ROWS])
def test_refused_before_the_work(
    argv: list[str],
    routine: tuple[Any, str],
    words: list[str],
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    module, name = routine
    monkeypatch.setattr(module, name, boom)
    monkeypatch.setattr(_counts, "level_log_probs", boom)
    assert_cli_refused(argv, words, tmp_path, capsys)


def test_the_same_commands_run_below_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    """The refusals are about size, not the inputs: smaller instances of the same commands answer."""
    assert main(["voting", "epsilon", "majority", "-n", "1001", "--rho", "1/2"]) == 0
    assert "output 1 on a profile with 1 vote +1 against its neighbour with 0 votes +1" in capsys.readouterr().out
    assert main(["voting", "epsilon", "threshold", "-n", "9999999", "--theta", "99999999", "--rho", "1/2"]) == 0
    assert "constant" in capsys.readouterr().out  # a threshold beyond n is constant: no by-count work, not refused
