"""Resuming a sweep from its output file reuses only rows whose whole key matches (template, query, options, a file
option's content, grid names, privgeom's version, grid values), in CSV and Parquet alike; a file no sweep wrote is
refused; an unreachable scheduler is refused at once with the address and the reason; the size limits of the sweep
reach its workers (threads, local processes, a LocalCluster).

Values from theory: randomized response on one bit with keep-probability p relaxes to exactly e^ε = p/(1−p) DP
(p = 3/4: 3, p = 2/3: 2); the DP sandwich of RR(k, 2/3) has outer bound e^ε = 2 (the same ratio); RR(1, 2/3) is a
post-processing of RR(1, 3/4) (in its consistent closure) while RR(1, 9/10) is not (it is more informative).
"""

from __future__ import annotations

import json
import os
import socket
import time
from fractions import Fraction
from functools import partial

import pandas as pd
import pytest

import privgeom as pg
from privgeom._core import grid as _grid
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


def test_run_grid_keys_by_function_and_reuses_only_its_own_rows(tmp_path):
    out = tmp_path / "g.csv"
    calls: list[int] = []

    def square(point):
        calls.append(point["n"])
        return {"value": point["n"] ** 2}

    def cube(point):
        calls.append(point["n"])
        return {"value": point["n"] ** 3}

    assert [r["value"] for r in _grid.run_grid(square, {"n": [2, 3]}, scheduler="serial", out=out)] == [4, 9]
    assert [r["value"] for r in _grid.run_grid(cube, {"n": [2, 3]}, scheduler="serial", out=out)] == [8, 27]
    calls.clear()
    assert [r["value"] for r in _grid.run_grid(square, {"n": [2, 3]}, scheduler="serial", out=out)] == [4, 9]
    assert calls == []  # its own rows, not evaluated again
    report: dict = {}
    rows = _grid.run_grid(square, {"n": [2, 3]}, scheduler="serial", out=out, key={"what": "other"}, report=report)
    assert calls == [2, 3] and report["reused"] == 0 and "run" not in rows[0]


#: Points evaluated by the two functions below (module level: a function's closure is part of its run key).
SEEN: list[tuple] = []


def _by_n(point):
    SEEN.append(("n", point["n"]))
    return {"count": point["n"] + 1, "half": point["n"] / 2, "flag": point["n"] > 1, "text": "2/3"}


def _by_m(point):
    SEEN.append(("m", point["m"]))
    return {"count": -point["m"]}


@pytest.mark.parametrize("fmt", FORMATS)
def test_runs_with_other_axes_in_one_file_keep_their_values_and_types(tmp_path, fmt):
    """Two runs with different grid axes leave gaps in each other's columns: the integers must come back as the
    same integers (``2``, not ``2.0``), so that each run still finds its own rows."""
    out = tmp_path / f"two.{fmt}"
    calls, by_n, by_m = SEEN, _by_n, _by_m
    calls.clear()

    first = _grid.run_grid(by_n, {"n": [1, 2]}, scheduler="serial", out=out)
    _grid.run_grid(by_m, {"m": [5]}, scheduler="serial", out=out)
    calls.clear()
    again = _grid.run_grid(by_n, {"n": [1, 2]}, scheduler="serial", out=out)
    assert calls == []  # before: n came back as 1.0 and 2.0, whose text is not that of 1 and 2
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in first
    ]
    assert [type(r["count"]) for r in again] == [int, int] and [r["flag"] for r in again] == [False, True]
    assert _grid.run_grid(by_m, {"m": [5]}, scheduler="serial", out=out)[0]["count"] == -5 and calls == []


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


def test_the_connection_is_given_two_seconds(monkeypatch):
    seen = {}

    def fake(address, timeout):
        seen["timeout"] = timeout
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", fake)
    with pytest.raises(pg.InvalidParameterError, match=r"'tcp://10\.255\.255\.1:8786': timed out \(within 2 s\)"):
        _grid.connect("tcp://10.255.255.1:8786")
    assert seen["timeout"] == _grid.CONNECT_TIMEOUT <= 2


@pytest.mark.parametrize(
    "address, words",
    [("tcp://127.0.0.1:x", "the port 'x' is not an integer"), ("tcp://:8786", "write tcp://HOST:PORT")],
)
def test_a_malformed_address_is_refused(address, words):
    with pytest.raises(pg.InvalidParameterError, match=words):
        _grid.connect(address)


# ---------------------------------------------------------------------------------------------------- limits
def _limit_seen(point):
    return {"profile_work": pg.get_limits()["profile_work"]}


LOW = 10  # RR(2, 3/4)'s ε scan costs more than 10 units of profile_work (tests/test_limits.py)


def _epsilon_rows(scheduler, **kw):
    frame = pg.sweep("rr:k=2,p={p}", {"p": ["3/4", "2/3"]}, "epsilon", scheduler=scheduler, **kw)
    return [(e is None, (e or "").split(":")[0]) for e in frame["error"]], frame


@pytest.mark.parametrize("scheduler", ["threads", "processes"])
def test_local_workers_see_the_limits_of_the_sweep(scheduler):
    rows, frame = _epsilon_rows(scheduler, batch=1, workers=2)
    assert rows == [(True, "")] * 2 and frame["exp_eps_exact"].tolist() == ["3", "2"]
    with pg.limits(profile_work=LOW):
        rows, frame = _epsilon_rows(scheduler, batch=1, workers=2)
    assert rows == [(False, "SizeLimitError")] * 2 and all("profile_work" in e for e in frame["error"])
    seen = _grid.run_grid(_limit_seen, {"n": [1, 2, 3]}, scheduler=scheduler, batch=1, workers=2)
    assert {r["profile_work"] for r in seen} == {pg.get_limits()["profile_work"]}


def _record_pid(point, path):
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{point['n']} {os.getpid()}\n")
    return {"n2": point["n"] ** 2}


def test_a_dask_cluster_worker_sees_the_limit_of_the_sweep_that_sent_it(tmp_path):
    distributed = pytest.importorskip("distributed")
    default = pg.get_limits().info("profile_work").default
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl,
        distributed.Client(cl) as client,
    ):
        with pg.limits(profile_work=LOW):
            inside = _grid.run_grid(_limit_seen, {"n": [1, 2, 3, 4]}, scheduler=client, batch=1)
            refused, _ = _epsilon_rows(client, batch=1)
        outside = _grid.run_grid(_limit_seen, {"n": [1, 2]}, scheduler=cl.scheduler_address, batch=1)
        answered, _ = _epsilon_rows(client, batch=1)
        old = pg.set_limits(profile_work=LOW + 1)  # the process value travels too
        try:
            by_process = _grid.run_grid(_limit_seen, {"n": [1, 2]}, scheduler=client, batch=1)
        finally:
            pg.set_limits(**old)
        on_workers = client.run(lambda: pg.get_limits()["profile_work"])  # nothing stays behind on a worker
        # the warm-up plugin: every worker evaluated the measured point before the tasks (n = 2, the last of the
        # PROBE_POINTS evaluated here)
        log = tmp_path / "pids.txt"
        squares = _grid.run_grid(partial(_record_pid, path=str(log)), {"n": [1, 2, 3, 4, 5, 6]}, scheduler=client)
        worker_pids = set(client.run(os.getpid).values())
        plugins = client.run(lambda dask_worker: sorted(dask_worker.plugins))
    assert [r["n2"] for r in squares] == [1, 4, 9, 16, 25, 36]
    lines = [line.split() for line in log.read_text().splitlines()]
    assert {pid for n, pid in lines if n == "2"} >= {str(p) for p in worker_pids} and len(worker_pids) == 2
    assert all("privgeom-sweep-warm-up" in names for names in plugins.values())
    assert [r["profile_work"] for r in inside] == [LOW] * 4 and refused == [(False, "SizeLimitError")] * 2
    assert [r["profile_work"] for r in outside] == [default] * 2 and answered == [(True, "")] * 2
    assert [r["profile_work"] for r in by_process] == [LOW + 1] * 2
    assert set(on_workers.values()) == {default}


def _slow_point(point):
    time.sleep(0.05)  # every point costs at least 0.05 s
    return {"twice": 2 * point["n"]}


def test_batches_follow_the_measured_cost_of_a_point():
    report: dict = {}
    rows = _grid.run_grid(_slow_point, {"n": list(range(101))}, scheduler="processes", workers=2, report=report)
    assert [r["twice"] for r in rows] == [2 * n for n in range(101)]
    assert report["per_point"] >= 0.05
    # about TASK_SECONDS (0.5 s) of work per task, at most 10 points here: fewer than the balance rule alone gives
    # (99 points after the PROBE_POINTS measured in-process, over 2 workers x 4 tasks: 13)
    todo = 101 - _grid.PROBE_POINTS
    assert report["batch"] == _grid.batch_size(todo, 2, per_point=report["per_point"]) <= 10
    assert _grid.batch_size(todo, 2) == 13
