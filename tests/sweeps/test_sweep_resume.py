"""Resuming a sweep from its output file reuses only rows whose whole key matches (template, query, options, a file
option's content, grid names, privgeom's version, grid values), in CSV and Parquet alike; a file no sweep wrote is
refused; an unreachable scheduler is refused at once with the address and the reason (the size limits of the sweep on
its workers: tests/sweeps/test_sweep.py).

Values from theory: randomized response on one bit with keep-probability p relaxes to exactly e^ε = p/(1−p) DP
(p = 3/4: 3, p = 2/3: 2); the DP sandwich of RR(k, 2/3) has outer bound e^ε = 2 (the same ratio); RR(1, 2/3) is a
post-processing of RR(1, 3/4) (in its consistent closure) while RR(1, 9/10) is not (it is more informative).
"""

from __future__ import annotations

import json
import socket
from fractions import Fraction

import pandas as pd
import pytest

import privgeom as pg
from privgeom.cli import main

FORMATS = ["csv", "parquet"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def sweep_json(capsys, *argv):
    code, out, err = run(capsys, "sweep", *argv, "--scheduler", "serial", "--json")
    return code, (json.loads(out) if out.strip() else None), err


# ---------------------------------------------------------------------------------------------------- run keys
@pytest.mark.parametrize("fmt", FORMATS)
def test_another_template_on_the_same_file_is_evaluated_afresh(capsys, tmp_path, fmt):
    out = tmp_path / f"ok.{fmt}"
    code, first, _ = sweep_json(capsys, "rr:k={k},p=3/4", "--grid", "k=2,3", "--query", "relax", "--out", out)
    assert code == 0 and [r["exp_eps_exact"] for r in first["rows"]] == ["3", "3"] and first["skipped"] == 0
    code, second, _ = sweep_json(capsys, "rr:k={k},p=2/3", "--grid", "k=2,3", "--query", "relax", "--out", out)
    assert code == 0 and second["skipped"] == 0  # before run keys: "2 answered by an earlier run", e^ε = 3
    assert [Fraction(r["exp_eps_exact"]) for r in second["rows"]] == [Fraction(2, 3) / Fraction(1, 3)] * 2
    # the same sweep again reuses its own rows, and the first run's rows are still in the file
    code, third, _ = sweep_json(capsys, "rr:k={k},p=2/3", "--grid", "k=2,3", "--query", "relax", "--out", out)
    assert code == 0 and third["skipped"] == 2 and [r["exp_eps_exact"] for r in third["rows"]] == ["2", "2"]
    assert [r["seconds"] for r in third["rows"]] == [r["seconds"] for r in second["rows"]]  # the stored rows
    frame = pd.read_parquet(out) if fmt == "parquet" else pd.read_csv(out, dtype={"exp_eps_exact": str})
    assert sorted(frame["exp_eps_exact"]) == ["2", "2", "3", "3"]
    templates = {json.loads(t)["template"] for t in frame["run"]}
    assert templates == {"rr:k={k},p=3/4", "rr:k={k},p=2/3"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_another_query_on_the_same_file_answers_that_query(capsys, tmp_path, fmt):
    out = tmp_path / f"ok.{fmt}"
    assert sweep_json(capsys, "rr:k={k},p=2/3", "--grid", "k=2,3", "--query", "relax", "--out", out)[0] == 0
    code, data, _ = sweep_json(capsys, "rr:k={k},p=2/3", "--grid", "k=2,3", "--query", "dp_bounds", "--out", out)
    assert code == 0 and data["skipped"] == 0  # before run keys: the relax columns, exit 0
    for row in data["rows"]:
        assert row["error"] is None and row["outer_exact"] == "2" and "exp_eps" not in row
        assert Fraction(row["inner_exact"]) <= 2
    assert data["key"]["query"] == "dp_bounds"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_no_sweep_wrote_is_refused_naming_it(capsys, tmp_path, fmt):
    other = tmp_path / f"other.{fmt}"
    foreign = pd.DataFrame({"k": [2], "p": ["3/4"]})
    foreign.to_csv(other, index=False) if fmt == "csv" else foreign.to_parquet(other, index=False)
    code, out, err = run(
        capsys,
        "sweep",
        "rr:k={k},p={p}",
        "--grid",
        "k=2,3",
        "--grid",
        "p=3/4",
        "--query",
        "relax",
        "--out",
        other,
        "--scheduler",
        "serial",
    )
    assert code == 2 and out == ""  # before: the k = 2 row "answered", all NaN, exit 0
    assert str(other) in err and "no 'run' column" in err
    with pytest.raises(pg.FormatError, match="no 'run' column"):
        pg.sweep("rr:k={k},p=3/4", {"k": [2]}, "relax", scheduler="serial", out=other)
    assert pd.read_csv(other).shape == (1, 2) if fmt == "csv" else pd.read_parquet(other).shape == (1, 2)  # untouched


def test_an_option_file_enters_the_key_by_its_content(tmp_path):
    mech = tmp_path / "m.json"
    out = tmp_path / "closure.parquet"
    pg.randomized_response(1, "2/3").save(mech)
    first = pg.sweep("rr:k=1,p={p}", {"p": ["3/4"]}, "closure", mechanism=str(mech), scheduler="serial", out=out)
    assert first["member"].tolist() == [True]  # RR(2/3) post-processes RR(3/4)
    pg.randomized_response(1, "9/10").save(mech)  # same file name, another mechanism
    second = pg.sweep("rr:k=1,p={p}", {"p": ["3/4"]}, "closure", mechanism=str(mech), scheduler="serial", out=out)
    assert second.attrs["skipped"] == 0 and second["member"].tolist() == [False]
    assert second.attrs["key"]["options"]["mechanism"]["content"].startswith("sha256:")


def test_callable_templates_with_other_closures_never_share_rows(tmp_path):
    out = tmp_path / "c.parquet"
    found = []
    for p in ("3/4", "2/3"):  # one lambda, two closures: before, both were "<lambda>" and p = 2/3 reused e^ε = 3
        frame = pg.sweep(lambda k: pg.RandomizedResponse(k, p), {"k": [1]}, "relax", scheduler="serial", out=out)
        found.append((frame.attrs["skipped"], frame["exp_eps_exact"].tolist()))
    again = pg.sweep(lambda k: pg.RandomizedResponse(k, "2/3"), {"k": [1]}, "relax", scheduler="serial", out=out)
    assert found == [(0, ["3"]), (0, ["2"])] and again["exp_eps_exact"].tolist() == ["2"]


@pytest.mark.parametrize("name", ["run", "seconds", "error"])
def test_a_grid_axis_may_not_take_a_reserved_column(name):
    with pytest.raises(pg.InvalidParameterError, match=f"grid name '{name}' is taken"):
        pg.sweep("rr:k=1,p={%s}" % name, {name: ["3/4"]}, "relax", scheduler="serial")


def test_any_template_parameter_can_be_a_grid_axis():
    frame = pg.sweep(
        "krr:n={n},exp_eps={e}", {"n": [2, 3], "e": [2, "5/2"]}, "epsilon", graph="complete", scheduler="serial"
    )
    assert frame["error"].isna().all(), frame["error"].tolist()
    # k-ary randomized response with e^ε = e is exactly e-DP on the complete graph, whatever the number of values
    assert frame[["n", "e", "exp_eps_exact"]].values.tolist() == [
        [2, "2", "2"],
        [2, "5/2", "5/2"],
        [3, "2", "2"],
        [3, "5/2", "5/2"],
    ]


# ---------------------------------------------------------------------------------------------------- scheduler
def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed when the block ends: nothing listens there


def test_an_unreachable_scheduler_is_refused_before_any_point(capsys):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    calls = []
    with pytest.raises(pg.InvalidParameterError) as err:
        pg.sweep(
            lambda k: calls.append(k) or pg.RandomizedResponse(k, "3/4"), {"k": [1, 2]}, "relax", scheduler=address
        )
    assert calls == [] and address in str(err.value) and "refused" in str(err.value)
    code, out, text = run(
        capsys, "sweep", "rr:k={k},p=3/4", "--grid", "k=2,3", "--query", "relax", "--scheduler", "tcp://127.0.0.1:1"
    )
    assert code == 2 and out == "" and "tcp://127.0.0.1:1" in text and "OSError" not in text
    assert "cannot reach the Dask scheduler" in text
