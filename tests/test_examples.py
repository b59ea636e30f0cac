"""Every example and benchmark script runs to completion (reduced sizes via --quick where the script offers it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[f"{p.parent.name}/{p.name}" for p in SCRIPTS])
def test_script_runs(script: Path, tmp_path: Path) -> None:
    source = script.read_text()
    argv = [sys.executable, str(script)]
    if "--quick" in source:
        argv.append("--quick")
    if "--out" in source:
        argv += ["--out", str(tmp_path)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=tmp_path,
                          env={**os.environ, "MPLBACKEND": "Agg"})
    assert proc.returncode == 0, f"{script.name} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert proc.stdout.strip(), f"{script.name} printed nothing"
