"""The DP-cone benchmark runs end to end in its ``--quick`` mode and prints its table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_dp_cones.py"


def test_bench_dp_cones_quick() -> None:
    out = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("2 | 4 | 8 |") and "| 6 |" in line for line in lines)
    assert any(line.startswith("3 | 8 | 24 |") and "| 38 |" in line for line in lines)
    assert "Out of reach" in out.stdout and "k=6" in out.stdout
