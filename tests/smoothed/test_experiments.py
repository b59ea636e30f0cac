"""The paper's experiments: shipped data, example scripts and benchmark (``--quick``), the CLI."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from privgeom.cli import main
from privgeom.smoothed import majority_vote

ROOT = Path(__file__).resolve().parents[2]


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
