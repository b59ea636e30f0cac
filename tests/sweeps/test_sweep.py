"""``pg.sweep`` and ``privgeom sweep``: every query against theory values, errors recorded per point, resume (counted
calls), output files, the local process scheduler and a two-worker Dask LocalCluster equal to the serial run; the grid
runner underneath (its run keys, the connection to a scheduler, the limits a worker sees, batch sizes)."""

from __future__ import annotations

import importlib
import json
import math
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
from privgeom.sweeps._queries import QUERIES


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def answers(frame: pd.DataFrame) -> list[dict]:
    """Rows without the timing column and a file's run key, NaN as None (for point-by-point equality)."""
    return [
        {
            k: (None if isinstance(v, float) and math.isnan(v) else v)
            for k, v in r.items()
            if k not in ("seconds", "run")
        }
        for r in frame.to_dict("records")
    ]


# ---------------------------------------------------------------------------------------------------- done when
def test_done_when_cli_relax_gives_p_over_one_minus_p(capsys, tmp_path):
    out = tmp_path / "s.parquet"
    code, text, _ = run(
        capsys,
        "sweep",
        "rr:k={k},p={p}",
        "--grid",
        "k=2..6",
        "--grid",
        "p=2/3,3/4",
        "--query",
        "relax",
        "--out",
        out,
        "--scheduler",
        "serial",
    )
    assert code == 0 and "10 points, 0 with an error" in text
    frame = pd.read_parquet(out)
    assert frame["k"].tolist() == [2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    for row in frame.to_dict("records"):
        p = Fraction(row["p"])
        assert Fraction(row["exp_eps_exact"]) == p / (1 - p)  # Theorem: RR relaxes to e^ε = p/(1−p)-DP
        assert row["recognised"] == "dp" and row["error"] is None
        assert row["exp_eps"] == pytest.approx(float(p / (1 - p)))
        assert row["eps_exact"] == f"ln({p / (1 - p)})"


#: The points the factory below was called with (module level: a template's closure is part of its run key).
CALLS: list[tuple] = []


def _factory(k: int, p: str):
    CALLS.append((k, p))  # p = 1/3: parse_definition refuses p < 1/2 with a typed error
    if k == 3 and p == "3/4":
        raise ZeroDivisionError("not a privgeom error")
    return pg.parse_definition(f"rr:k={k},p={p}")


def test_bad_point_is_recorded_and_rerun_skips_answered_points(tmp_path):
    calls, factory = CALLS, _factory
    calls.clear()
    grid = {"k": [2, 3], "p": ["3/4", "1/3"]}
    out = tmp_path / "s.csv"
    first = pg.sweep(factory, grid, "relax", scheduler="serial", out=out)
    assert len(calls) == 4
    errors = first["error"].tolist()
    assert errors[0] is None and errors[1].startswith("InvalidParameterError: ") and "1/3" in errors[1]
    assert errors[2].startswith("ZeroDivisionError: not a privgeom error") and errors[3].startswith("InvalidParam")
    assert first["exp_eps_exact"].tolist()[0] == "3"
    calls.clear()
    second = pg.sweep(factory, grid, "relax", scheduler="serial", out=out)
    assert len(calls) == 3  # only the three points with an error are tried again
    assert answers(second)[0] == answers(first)[0]
    # a grown grid evaluates only the new points; the file keeps every row
    calls.clear()
    grid2 = {"k": [2, 4], "p": ["3/4"]}
    third = pg.sweep(factory, grid2, "relax", scheduler="serial", out=out)
    assert calls == [(4, "3/4")] and third["exp_eps_exact"].tolist() == ["3", "3"]
    assert len(pd.read_csv(out)) == 5  # 4 earlier points + (4, 3/4)


def test_resume_counts_calls_with_parquet(tmp_path):
    calls = []

    def f(point):
        calls.append(point["n"])
        if point["n"] == 3:
            raise pg.InvalidParameterError("n = 3 refused")
        return {"square": point["n"] ** 2}

    out = tmp_path / "g.parquet"
    rows = _grid.run_grid(f, {"n": [1, 2, 3, 4]}, scheduler="serial", out=out)
    assert calls == [1, 2, 3, 4] and [r["error"] for r in rows][2] == "InvalidParameterError: n = 3 refused"
    calls.clear()
    rows = _grid.run_grid(f, {"n": [1, 2, 3, 4]}, scheduler="serial", out=out)
    assert calls == [3] and [r.get("square") for r in rows] == [1, 4, None, 16]


# ---------------------------------------------------------------------------------------------------- queries
def one(template, query, **options):
    frame = pg.sweep(template, {"p": ["3/4"]}, query, scheduler="serial", **options)
    row = frame.to_dict("records")[0]
    assert row["error"] is None, row["error"]
    return row


def test_query_epsilon_delta_and_curve_closed_forms():
    # k = 1 randomized response with p = 3/4: ε = ln(p/(1−p)) = ln 3, δ(0) = TV = 2p − 1 = 1/2
    row = one("rr:k=1,p={p}", "epsilon")
    assert (row["exp_eps_exact"], row["eps_exact"], row["infinite"]) == ("3", "ln(3)", False)
    row = one("rr:k=1,p={p}", "delta", exp_eps="1")
    assert Fraction(row["delta_exact"]) == Fraction(1, 2) and row["exp_eps_exact"] == "1"
    row = one("rr:k=1,p={p}", "delta", exp_eps="2")  # δ = p − e^ε (1 − p) = 3/4 − 2/4
    assert Fraction(row["delta_exact"]) == Fraction(1, 4)
    row = one("rr:k=1,p={p}", "delta_curve")
    assert Fraction(row["delta_at_0_exact"]) == Fraction(1, 2) and row["eps_zero_exact"] == "ln(3)"
    assert Fraction(row["delta_at_inf_exact"]) == 0 and row["pieces"] >= 1


def test_query_delta_follows_a_grid_axis_in_an_option():
    frame = pg.sweep("rr:k=1,p=3/4", {"e": ["1", "2", "3"]}, "delta", exp_eps="{e}", scheduler="serial")
    assert [Fraction(d) for d in frame["delta_exact"]] == [Fraction(1, 2), Fraction(1, 4), Fraction(0)]


def test_query_compare_optimal_closure():
    frame = pg.sweep("rr:k=2,p={p}", {"p": ["2/3", "3/4", "4/5"]}, "compare", spec="rr:k=2,p=3/4", scheduler="serial")
    assert frame["relation"].tolist() == ["subset", "equal", "superset"]
    # optimal accuracy over closure(rr:k, p) with a uniform prior is p^k (the RR mechanism itself)
    frame = pg.sweep("rr:k={k},p=2/3", {"k": [1, 2]}, "optimal", scheduler="serial")
    assert [Fraction(v) for v in frame["value_exact"]] == [Fraction(2, 3), Fraction(4, 9)]
    # rr(2, 3/5) is in closure(rr:k=2,p) iff p >= 3/5 (Theorem 3.4: weaker RR simulates stronger)
    M = pg.randomized_response(2, "3/5")
    frame = pg.sweep("rr:k=2,p={p}", {"p": ["11/20", "3/5", "2/3"]}, "closure", mechanism=M, scheduler="serial")
    assert frame["member"].tolist() == [False, True, True]


def test_query_smoothed_and_accuracy_match_direct_calls():
    frame = pg.sweep(
        "shm:n={n},T={T}", {"n": [1000], "T": [900, 990]}, "smoothed", eps=1.0, q="0.3;0.5", scheduler="serial"
    )
    for row in frame.to_dict("records"):
        direct = pg.smoothed.smoothed_delta(pg.smoothed.SamplingHistogram(row["n"], row["T"]), 1.0, [0.3, 0.5])
        assert row["delta"] == direct.value and row["error_bound"] == direct.error_bound
    # Stab_ρ(Maj_3) = 3ρ/4 + ρ³/4, accuracy = 1/2 + Stab/2 = 45/64 at ρ = 1/2
    frame = pg.sweep("majority:n={n}", {"n": [1, 3]}, "accuracy", rho="1/2", scheduler="serial")
    assert [Fraction(v) for v in frame["accuracy_exact"]] == [Fraction(3, 4), Fraction(45, 64)]


def test_registry_entries_have_help_and_fields_contract():
    assert {"epsilon", "delta", "delta_curve", "relax", "compare", "optimal", "closure", "smoothed", "accuracy"} <= set(
        QUERIES
    )
    for q in QUERIES.values():
        assert q.help and q.function.__name__.startswith("_")


# ---------------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call, error, text",
    [
        (lambda: pg.sweep("rr:k={k}", {"k": [2]}, "nope"), pg.InvalidParameterError, "unknown query 'nope'"),
        (lambda: pg.sweep("rr:k={k}", {"k": [2]}, "relax", spec="x"), pg.InvalidParameterError, "no option 'spec'"),
        (lambda: pg.sweep("rr:k={k}", {"k": [2]}, "compare"), pg.InvalidParameterError, "needs the option(s) spec"),
        (lambda: pg.sweep("rr:k={k},p={p}", {"k": [2]}, "relax"), pg.InvalidParameterError, "{p}"),
        (lambda: pg.sweep("rr:k=2,p=3/4", {"k": [2]}, "relax"), pg.InvalidParameterError, "'k' is used neither"),
        (lambda: pg.sweep("rr:k={k}", {"k": []}, "relax"), pg.InvalidParameterError, "'k' has no values"),
        (lambda: pg.sweep("rr:k={k}", {"k": [2, 2]}, "relax"), pg.InvalidParameterError, "repeats"),
        (lambda: pg.sweep("rr:k={k}", {"k": [2]}, "relax", out="x.txt"), pg.FormatError, "x.txt"),
        (lambda: pg.sweep("rr:k={k}", {"k": [2]}, "relax", scheduler="gpu"), pg.InvalidParameterError, "'gpu'"),
        (lambda: pg.sweep(3, {"k": [2]}, "relax"), pg.InvalidTypeError, "int"),
    ],
)
def test_bad_input_is_refused_before_any_point(call, error, text):
    with pytest.raises(error) as err:
        call()
    assert text in str(err.value)


@pytest.mark.parametrize(
    "option, text",
    [
        ("k", "NAME="),
        ("k=", "NAME="),
        ("k=2..x", "integer ends"),
        ("k=5..2", "empty"),
        ("k=1,,2", "empty value"),
    ],
)
def test_grid_option_errors(option, text):
    with pytest.raises(pg.FormatError, match=text):
        _grid.parse_grid_option(option)


def test_grid_size_is_refused_before_expansion():
    with pg.limits(grid_points=3):
        with pytest.raises(pg.SizeLimitError, match="grid_points"):
            _grid.expand_grid({"a": [1, 2], "b": [1, 2]})


def test_missing_extra_raises_one_typed_error(monkeypatch):
    real = importlib.import_module

    def fake(name, *args, **kwargs):
        if name in ("pandas", "dask", "pyarrow", "distributed"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(pg.MissingDependencyError) as err:
        pg.sweep("rr:k={k},p=3/4", {"k": [2]}, "relax")
    assert "privgeom[sweep]" in str(err.value) and isinstance(err.value, ImportError)


# ---------------------------------------------------------------------------------------------------- CLI
def test_cli_json_plot_and_error_exit(capsys, tmp_path):
    plot = tmp_path / "lines.png"
    code, out, _ = run(
        capsys,
        "sweep",
        "rr:k=2,p={p}",
        "--grid",
        "p=2/3,3/4,1/3",
        "--query",
        "epsilon",
        "--plot",
        plot,
        "--scheduler",
        "serial",
        "--json",
    )
    data = json.loads(out)
    assert code == 1 and data["errors"] == 1 and plot.read_bytes()[:4] == b"\x89PNG"
    assert [r["exp_eps_exact"] for r in data["rows"]] == ["2", "3", None]
    heat = tmp_path / "heat.png"
    code, out, _ = run(
        capsys,
        "sweep",
        "rr:k={k},p={p}",
        "--grid",
        "k=1..2",
        "--grid",
        "p=2/3,3/4",
        "--query",
        "relax",
        "--plot",
        heat,
        "--scheduler",
        "serial",
    )
    assert code == 0 and heat.exists()
    code, _, err = run(capsys, "sweep", "rr:k={k}", "--grid", "k=2..x", "--query", "relax")
    assert code == 2 and "2..x" in err


# ---------------------------------------------------------------------------------------------------- Dask
GRID = {"k": [1, 2, 3], "p": ["2/3", "3/4", "1/3"]}


@pytest.fixture(scope="module")
def serial_frame():
    return pg.sweep("rr:k={k},p={p}", GRID, "relax", scheduler="serial")


def test_local_process_scheduler_equals_serial(serial_frame):
    frame = pg.sweep("rr:k={k},p={p}", GRID, "relax", scheduler="processes", batch=2, workers=2)
    assert answers(frame) == answers(serial_frame)


def test_local_cluster_equals_serial_point_by_point(serial_frame, tmp_path):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl,
        distributed.Client(cl) as client,
    ):
        by_client = pg.sweep("rr:k={k},p={p}", GRID, "relax", scheduler=client, batch=2)
        out = tmp_path / "c.parquet"
        by_address = pg.sweep("rr:k={k},p={p}", GRID, "relax", scheduler=cl.scheduler_address, out=out)
        cli = tmp_path / "cli.parquet"
        code = main(
            [
                "sweep",
                "rr:k={k},p={p}",
                "--grid",
                "k=2..6",
                "--grid",
                "p=2/3,3/4",
                "--query",
                "relax",
                "--out",
                str(cli),
                "--scheduler",
                cl.scheduler_address,
                "--batch",
                "3",
            ]
        )
    serial_cli = tmp_path / "serial.parquet"
    assert (
        code == 0
        and main(
            [
                "sweep",
                "rr:k={k},p={p}",
                "--grid",
                "k=2..6",
                "--grid",
                "p=2/3,3/4",
                "--query",
                "relax",
                "--out",
                str(serial_cli),
                "--scheduler",
                "serial",
            ]
        )
        == 0
    )
    assert answers(pd.read_parquet(cli)) == answers(pd.read_parquet(serial_cli))  # done when: identical rows
    assert answers(by_client) == answers(serial_frame)
    assert answers(by_address) == answers(serial_frame)
    assert answers(pd.read_parquet(out)) == answers(serial_frame)


def test_default_scheduler_stays_in_process_for_short_sweeps():
    calls = []
    rows = _grid.run_grid(lambda pt: calls.append(pt["n"]) or {"twice": 2 * pt["n"]}, {"n": [1, 2, 3]})
    assert calls == [1, 2, 3] and [r["twice"] for r in rows] == [2, 4, 6]  # counted here: no worker process


def test_default_scheduler_hands_the_rest_to_dask_processes(serial_frame, monkeypatch):
    monkeypatch.setattr(_grid, "AUTO_SERIAL_SECONDS", 0.0)  # one point in-process, then the rest is "long"
    monkeypatch.setattr(_grid, "AUTO_PARALLEL_SECONDS", 0.0)
    used = []
    real = _grid._stream_local
    monkeypatch.setattr(_grid, "_stream_local", lambda *a, **k: used.append(a[2]) or real(*a, **k))
    frame = pg.sweep("rr:k={k},p={p}", GRID, "relax", workers=2, batch=3)
    assert used == ["processes"] and answers(frame) == answers(serial_frame)


# ---------------------------------------------------------------------------------------------------- the grid runner
# Keys and rows of the grid runner itself (privgeom/_core/grid.py): a function's own rows, other axes in one file.
FORMATS = ["csv", "parquet"]


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


# ---------------------------------------------------------------------------------------------------- scheduler, limits, batches
# The connection to a Dask scheduler (two seconds, a malformed address), the size limits of a sweep on its workers
# (threads, local processes, a LocalCluster) and batches sized from the measured cost of a point.


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
