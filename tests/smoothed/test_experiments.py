"""The paper's experiments: shipped data, example scripts and benchmark (``--quick``), the CLI."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from privgeom.cli import main
from privgeom.smoothed import majority_vote
from privgeom.smoothed._experiments import election_vertices, load_elections, load_jurisdictions

ROOT = Path(__file__).resolve().parents[2]


def test_election_data_is_plausible() -> None:
    rows = load_elections()
    assert [r["year"] for r in rows] == list(range(1920, 2021, 4))
    last = rows[-1]
    assert (last["democrat"], last["democrat_votes"], last["republican"], last["republican_votes"]) == (
        "Biden",
        81_283_501,
        "Trump",
        74_223_975,
    )
    by_year = {r["year"]: r for r in rows}
    assert by_year[1920]["republican_votes"] == 16_144_093 and by_year[1960]["democrat"] == "Kennedy"
    for r in rows:
        total = r["democrat_votes"] + r["republican_votes"]
        assert 2.4e7 < total < 1.6e8
        # no candidate above 70% of the two-party vote since 1920 (Liu, Wang & Xia, Section 1)
        assert 0.3 < r["republican_votes"] / total < 0.7
        assert r["source"].startswith("Wikipedia")
    totals = [r["democrat_votes"] + r["republican_votes"] for r in rows]
    assert totals[-1] == max(totals)
    j = load_jurisdictions()
    assert j["DC"] == (317_323, 18_586) and j["NE-2"] == (176_468, 154_377)
    qs = election_vertices()
    assert qs == [Fraction(18_586, 335_909), Fraction(154_377, 330_845)]
    assert 0.05 < qs[0] < 0.06 and 0.46 < qs[1] < 0.47


SCRIPTS = sorted((ROOT / "examples").glob("smoothed_*.py")) + [ROOT / "benchmarks" / "bench_smoothed.py"]


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_scripts_run_quick(script: Path, tmp_path: Path) -> None:
    argv = [sys.executable, str(script), "--quick"]
    if script.parent.name == "examples":
        argv += ["--out", str(tmp_path)]
    proc = subprocess.run(
        argv, capture_output=True, text=True, timeout=300, cwd=tmp_path, env={**os.environ, "MPLBACKEND": "Agg"}
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stdout.strip()
    if script.parent.name == "examples":
        stem = script.stem
        assert (tmp_path / f"{stem}.png").stat().st_size > 1000
        with (tmp_path / f"{stem}.csv").open() as fh:
            rows = list(csv.DictReader(fh))
        assert rows
        if stem == "smoothed_elections":
            for r in rows:
                # certified and far below the DP value T/n
                assert float(r["delta"]) < float(r["dp_delta_T_over_n"])
                assert float(r["truncation_bound"]) < 1e-20 * float(r["delta"])
    else:
        assert "ratio" in proc.stdout


def test_cli_delta_shm_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "maj.json"
    majority_vote(3).save(path)
    assert main(["smoothed", "delta", "--mechanism", str(path), "--eps", "ln(2)"]) == 0
    assert "Theorem 1" in capsys.readouterr().out
    code = main(
        [
            "smoothed",
            "delta",
            "--mechanism",
            str(path),
            "--eps",
            "ln(2)",
            "--q",
            "1/4",
            "--q",
            "1/3",
            "--check",
            "1/2",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["value"] == "2/3"
    assert main(["smoothed", "delta", "--mechanism", str(path), "--eps", "ln(2)", "--q", "1/4", "--check", "3/4"]) == 0
    capsys.readouterr()
    assert main(["smoothed", "shm", "--n", "1000", "2000", "--lost", "1/10", "--eps", "1", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 4 and rows[0]["counts"] == [1000, 0]
    assert main(["smoothed", "shm", "--n", "1000", "--T", "900", "--q", "1/2", "--at", "500", "--check", "1e-3"]) == 0
    capsys.readouterr()
    assert main(["smoothed", "figure", "motivating", "--quick", "--out", str(tmp_path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert Path(info["png"]).exists() and Path(info["csv"]).exists()
    assert main(["smoothed", "shm", "--n", "10", "--T", "20", "--q", "1/2"]) == 2  # T > n: one-line error
    assert "error" in capsys.readouterr().err
