"""The sweep queries of the local-DP study (``pair``, ``dp_bounds``, ``ldp_gap``) against theory, and
``examples/ldp_study.py`` (quick grid) producing its Parquet files, table and figure with the entries theory fixes."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

import privgeom as pg
from privgeom.cli import main
from privgeom.testing import hamming_graph

ROOT = Path(__file__).resolve().parents[2]


def test_dp_bounds_query_rr1_inner_equals_outer_equals_odds():
    # RR(1, p) over the one-edge Hamming graph is exactly ε-DP with e^ε = p/(1−p): inner = outer = p/(1−p)
    frame = pg.sweep("rr:k=1,p={p}", {"p": ["2/3", "3/4", "4/5"]}, "dp_bounds", graph="hamming", scheduler="serial")
    assert frame["error"].isna().all()
    for row in frame.to_dict("records"):
        p = Fraction(row["p"])
        assert Fraction(row["inner_exact"]) == Fraction(row["outer_exact"]) == p / (1 - p)
        assert row["inner_kind"] == row["outer_kind"] == "exact" and row["inner"] == float(p / (1 - p))


def test_dp_bounds_query_matches_the_direct_call_and_rr3():
    # RR(3, 3/4) on the cube: inner 9/7 (docs/design.md), outer p/(1−p) = 3 (one bit differs on an edge)
    row = pg.sweep("rr:k={k},p=3/4", {"k": [3]}, "dp_bounds", scheduler="serial").iloc[0]
    direct = pg.dp_bounds(pg.RandomizedResponse(3, "3/4"), hamming_graph(3))
    assert row["inner_exact"] == str(direct.inner.exp_eps) == "9/7"
    assert row["outer_exact"] == str(direct.outer.exp_eps) == "3"


def test_pair_query_relations_from_theory():
    frame = pg.sweep(
        "ss:d={d},s=1,exp_eps={e}|krr:n={d},exp_eps={e}", {"d": [3, 4], "e": [2, 5]}, "pair", scheduler="serial"
    )
    # 1-subset selection is k-ary randomized response: equal closures, each simulates the other
    assert set(frame["relation"]) == {"equal"} and frame["a_simulates_b"].all() and frame["b_simulates_a"].all()
    # k-RR (3 values, e^ε = 3) simulates Hadamard response (HR is strictly inside ε-LDP, whose closure is k-RR's)
    row = pg.sweep("krr:n=3,exp_eps={e}|hr:d=3,exp_eps={e}", {"e": [3]}, "pair", scheduler="serial").iloc[0]
    assert (row["relation"], row["a_simulates_b"], row["b_simulates_a"]) == ("superset", True, False)
    # the same relation read from the other side
    row = pg.sweep("hr:d=3,exp_eps={e}|krr:n=3,exp_eps={e}", {"e": [3]}, "pair", scheduler="serial").iloc[0]
    assert (row["relation"], row["a_simulates_b"], row["b_simulates_a"]) == ("subset", False, True)
    assert (
        row["relation"]
        == pg.compare(pg.parse_definition("hr:d=3,exp_eps=3"), pg.parse_definition("krr:n=3,exp_eps=3")).relation
    )


def test_pair_query_bad_template_is_recorded():
    frame = pg.sweep("krr:n={d},exp_eps=3", {"d": [3]}, "pair", scheduler="serial")
    assert frame.loc[0, "error"].startswith("FormatError") and "'|'" in frame.loc[0, "error"]


def test_ldp_gap_query_known_values():
    # d = 3, e^ε = 3: HR 1/10, OUE 29/240, 1-subset selection 0 (module doc of pg.ldp_utility_gap); best = 3/5
    frame = pg.sweep("{p}:d=3,exp_eps=3", {"p": ["hr", "oue", "ss"]}, "ldp_gap", scheduler="serial")
    assert frame["gap_exact"].tolist() == ["1/10", "29/240", "0"]
    assert set(frame["best_exact"]) == {"3/5"} and set(frame["exp_eps_exact"]) == {"3"}
    for row in frame.to_dict("records"):
        assert Fraction(row["best_exact"]) - Fraction(row["value_exact"]) == Fraction(row["gap_exact"])


def test_cli_dp_bounds_query(capsys, tmp_path):
    out = tmp_path / "b.csv"
    code = main(
        [
            "sweep",
            "rr:k=1,p={p}",
            "--grid",
            "p=3/4",
            "--query",
            "dp_bounds",
            "--graph",
            "hamming",
            "--out",
            str(out),
            "--scheduler",
            "serial",
        ]
    )
    capsys.readouterr()
    frame = pd.read_csv(out)
    assert code == 0 and frame.loc[0, "inner"] == frame.loc[0, "outer"] == 3.0


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ldp_study")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "ldp_study.py"), "--quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=out,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def test_study_writes_parquet_table_and_figure(study: Path):
    for name in ("pairs", "gap", "delta_curve", "delta", "bounds"):
        assert (study / f"ldp_{name}.parquet").is_file(), name
    assert (study / "ldp_study.png").stat().st_size > 10_000
    report = (study / "ldp_study_report.md").read_text(encoding="utf-8")
    assert "![" in report and "ldp_study.png" in report and "| k-ary RR | subset selection |" in report


def test_study_entries_agree_with_theory(study: Path):
    pairs = pd.read_parquet(study / "ldp_pairs.parquet")
    gap = pd.read_parquet(study / "ldp_gap.parquet")
    assert len(pairs) == 15 * 3 * 3 and len(gap) == 6 * 3 * 3 and pairs["error"].isna().all()
    rel = {(r.pair, r.d, r.e): r.relation for r in pairs.itertuples()}
    # k-RR and subset selection with ω = 1 (Ye & Barg's default when d <= e^ε + 1) are the same mechanism
    assert rel[("krr-ss", 3, 3)] == rel[("krr-ss", 4, 5)] == "equal"
    # Hadamard response is strictly inside ε-LDP: k-RR (whose closure is all of ε-LDP) simulates it, not conversely
    assert rel[("krr-hr", 3, 3)] == "superset"
    g = {(r.p, r.d, r.e): r.gap_exact for r in gap.itertuples()}
    assert (g[("hr", 3, 3)], g[("oue", 3, 3)], g[("ss", 3, 3)], g[("krr", 3, 3)]) == ("1/10", "29/240", "0", "0")
    # the DP sandwich's outer bound is the nominal e^ε of every protocol
    bounds = pd.read_parquet(study / "ldp_bounds.parquet")
    assert (bounds["outer_exact"] == bounds["e"].astype(str)).all()
