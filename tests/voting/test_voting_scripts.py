"""The voting example (Figure 2 PNG) and benchmark run with --quick."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(script: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )


def test_example_writes_figure2(tmp_path: Path) -> None:
    proc = _run(ROOT / "examples" / "voting_figure2.py", "--out", str(tmp_path), "--quick", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    png = tmp_path / "voting_figure2.png"
    assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"
    assert "0.6666666667" in proc.stdout  # the arcsin limit at rho = 0.5


def test_benchmark_quick(tmp_path: Path) -> None:
    proc = _run(ROOT / "benchmarks" / "bench_voting.py", "--quick", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "rec/fast" in proc.stdout and "WHT s" in proc.stdout and "counts s" in proc.stdout
