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
    orbit = [line for line in lines if line.split(" | ")[0] in ("orbit relax", "orbit analyze")]
    assert len(orbit) == 4 and all(line.endswith("| yes") for line in orbit), orbit  # RR per orbit vs generic
    scale = [line for line in lines if line.startswith("scale | ") and "| spec |" not in line]  # own graph vs all pairs
    assert len(scale) == 6 and all("| yes |" in line for line in scale), scale
    geo = next(line for line in scale if "geometric:n=6," in line)
    assert "recognised=dp, exp_eps=2, lost=5, orbits=4" in geo  # the 5 interior facets, in 3 orbits + 1 kept orbit


def test_same_answers_is_na_when_only_one_route_answered() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_analysis", BENCH)  # the benchmarks script
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    a = {"status": "ok", "seconds": 0.1, "exp_eps": "3", "lost": 4}
    assert bench.same_answers({"new": a, "old": {"status": "refused"}}) == "n/a"
    assert bench.same_answers({"new": a, "old": None}) == "n/a"
    assert bench.same_answers({"new": {"status": "out of reach"}, "old": a}) == "n/a"
    assert bench.same_answers({"new": a, "old": dict(a, seconds=2.0)}) == "yes"
    assert bench.same_answers({"new": a, "old": dict(a, lost=3)}) == "NO"
