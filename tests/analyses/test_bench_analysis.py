"""The analysis benchmark runs end to end in its ``--quick`` mode; new and old routes give the same answers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_analysis.py"


def test_bench_analysis_quick() -> None:
    out = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    rows = [line for line in lines if line.split(" | ")[0] in ("analyze", "relax", "semantics")]
    assert len(rows) == 6
    assert all("| yes |" in line for line in rows), rows
    relax3 = next(line for line in rows if line.startswith("relax | 3 |"))
    assert "recognised=dp, exp_eps=3, lost=8, kept=0, LPs (orbits)=1" in relax3
