"""Sizes before work: smoothed-DP commands refuse from their sizes alone, before the expensive
routine (monkeypatched to raise, so entering it fails the test). Nothing is timed."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import privgeom as pg
from privgeom import smoothed
from privgeom.smoothed import _catalogue, _experiments, _fastpath, _smoothed, _subsetsum

from privgeom.testing import assert_cli_refused, boom


CLI_ROWS = [  # argv, routines that must never run, words of the refusal
    (
        ["smoothed", "shm", "--n", "20000000", "--lost", "1/1000", "--eps", "1"],
        [(_fastpath, "_log_upper_bound_block"), (_fastpath, "pair_log_distance_block")],
        ["20,000,001 counts", "smoothed_counts = 16,777,216", "--limit smoothed_counts=20000001"],
    ),
    (
        ["smoothed", "figure", "sgd", "--databases", "1000000000", "--out", "{tmp}"],
        [(_experiments, "sampling_delta"), (_experiments, "quantised_gaussian")],
        ["21,000,000,000 random databases", "smoothed_databases = 20,000"],
    ),
    (
        ["smoothed", "figure", "theorem3", "--databases", "1000000000", "--out", "{tmp}"],
        [(_experiments, "sampling_delta"), (_experiments, "expected_sampling_delta")],
        ["random databases", "--limit smoothed_databases="],
    ),
]


@pytest.mark.parametrize("argv, routines, words", CLI_ROWS, ids=[" ".join(r[0][:3]) for r in CLI_ROWS])
def test_cli_refused_before_the_work(
    argv: list[str],
    routines: list[tuple[Any, str]],
    words: list[str],
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for module, name in routines:
        monkeypatch.setattr(module, name, boom)
    assert_cli_refused(argv, words, tmp_path, capsys)


API_ROWS: list[tuple[str, Callable[[], Any], list[tuple[Any, str]], str]] = [
    (
        "k=3 matrix fallback",
        lambda: smoothed.smoothed_delta(smoothed.SamplingHistogram(200, 100), 1, [["1/3", "1/3", "1/3"]]),
        [(_smoothed, "shm"), (_smoothed, "_prepare")],
        "shm_matrix_entries",
    ),
    (
        "shm as a matrix",
        lambda: smoothed.shm(20000, 10000, inputs="count"),
        [(_catalogue.Domain, "counts")],
        "exact_entries",
    ),
    (
        "smoothed table",
        lambda: smoothed.smoothed_delta(smoothed.SamplingHistogram(2**24, 2**23), 1, ["1/10", "1/2"]),
        [(_fastpath, "_log_upper_bound_block")],
        "smoothed_counts",
    ),
    (
        "sgd experiment",
        lambda: smoothed.paper.experiment("sgd", ".", databases=10**6),
        [(_experiments, "sampling_delta"), (_subsetsum, "sampling_delta")],
        "smoothed_databases",
    ),
]


@pytest.mark.parametrize("name, call, routines, limit", API_ROWS, ids=[r[0] for r in API_ROWS])
def test_api_refused_before_the_work(
    name: str,
    call: Callable[[], Any],
    routines: list[tuple[Any, str]],
    limit: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
) -> None:
    monkeypatch.chdir(tmp_path)
    for module, attr in routines:
        monkeypatch.setattr(module, attr, boom)
    with pytest.raises(pg.SizeLimitError) as err:
        call()
    assert f"pg.set_limits({limit}=" in str(err.value), str(err.value)
