"""Every example and benchmark script runs to completion (reduced sizes via --quick where the script offers it).

Scripts that a dedicated test already runs (checking their output files) are not run twice.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALL_SCRIPTS = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py"))


def _covered_elsewhere(script: Path) -> bool:
    """True when another test module runs this script itself (and checks its outputs); run each script once."""
    here = Path(__file__).resolve()
    for f in (ROOT / "tests").rglob("test_*.py"):
        if f.resolve() == here:
            continue
        text = f.read_text()
        if script.name in text or any(
            fnmatch.fnmatch(script.name, pat) for pat in re.findall(r'glob\("([^"]+)"\)', text)
        ):
            return True
    return False


SCRIPTS = [p for p in ALL_SCRIPTS if not _covered_elsewhere(p)]


def test_every_script_is_run_somewhere() -> None:
    assert len(ALL_SCRIPTS) >= 10
    assert SCRIPTS, "the generic runner should still run the scripts no other test covers"


@pytest.mark.parametrize("script", SCRIPTS, ids=[f"{p.parent.name}/{p.name}" for p in SCRIPTS])
def test_script_runs(script: Path, tmp_path: Path) -> None:
    source = script.read_text()
    argv = [sys.executable, str(script)]
    if "--quick" in source:
        argv.append("--quick")
    if "--out" in source:
        argv += ["--out", str(tmp_path)]
    proc = subprocess.run(
        argv, capture_output=True, text=True, timeout=600, cwd=tmp_path, env={**os.environ, "MPLBACKEND": "Agg"}
    )
    assert proc.returncode == 0, f"{script.name} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert proc.stdout.strip(), f"{script.name} printed nothing"
