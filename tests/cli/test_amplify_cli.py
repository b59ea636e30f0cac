"""``privgeom shuffle`` and ``privgeom subsample`` through the real entry point: reports, --json, plots, exit codes."""

from __future__ import annotations

import json

import privgeom as pg
from privgeom.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_shuffle_definition_report_of_binary_rr_over_four_users(capsys, tmp_path):
    png = tmp_path / "s.png"
    code, out, _ = run(
        capsys, "shuffle", "--local", "rr:k=1,p=3/4", "-n", 4, "--eps", "ln(2)", "--fmt", "--definition", "--plot", png
    )
    assert code == 0 and png.exists()
    # worst case over all datasets at e^ε = 2: the clone pair, δ = 27/256; FMT's bound 125/864 is above it
    assert "worst case over all datasets: δ(ln(2)) = 27/256" in out and "δ ≤ 125/864  [exact ≤ bound]" in out
    # the shuffled definition: 5 facets in 3 orbits, DP sandwich between e^ε = 17/15 and e^ε = 3
    assert "5 facets" in out and "5 guarantees" in out
    assert "inner: every ε-DP mechanism with e^ε ≤ 17/15" in out and "outer: every member is ε-DP with e^ε = 3" in out


def test_shuffle_json_large_n_and_max_delta(capsys):
    code, out, _ = run(
        capsys, "shuffle", "--local", "rr:k=1,p=3/4", "-n", 100000, "--eps", "0.05", "--scope", "clones", "--json"
    )
    data = json.loads(out)
    w = data["points"][0]["worst_case"]
    assert code == 0 and w["certified"] is False and w["scope"] == "clone pairs" and w["delta"]["log10"] < -40
    # beyond the exhaustive sizes, auto is the certified branch and bound over every dataset (binary reports)
    code, out, _ = run(capsys, "shuffle", "--local", "rr:k=1,p=3/4", "-n", 2000, "--eps", "0.2", "--json")
    w = json.loads(out)["points"][0]["worst_case"]
    assert code == 0 and w["certified"] is True and w["scope"] == "all datasets (branch and bound)"
    assert w["boxes_pruned"] > 0 and w["delta"]["rel_error"] < 1e-9 and w["attaining"][0]["others"] == [1998, 1]
    code, out, _ = run(capsys, "shuffle", "--local", "rr:k=1,p=3/4", "-n", 10, "--eps", "0", "--max-delta", "1/100")
    assert code == 1
    code, out, _ = run(
        capsys,
        "shuffle",
        "--local",
        "rr:k=1,p=3/4",
        "-n",
        5,
        "--eps",
        "ln(3/2)",
        "--others",
        "1=3,0=1",
        "--change",
        "1:0",
    )
    assert code == 0 and "others 3×1, 1×0; user: 1 → 0" in out


def test_subsample_reproduces_bbg_exactly(capsys, tmp_path):
    m = tmp_path / "m.json"
    pg.Mechanism([["3/4", "1/4", "1/4"], ["1/4", "3/4", "3/4"]], pg.Domain.histograms(1, 2, up_to=True)).save(m)
    out_file = tmp_path / "sub.json"
    code, out, _ = run(
        capsys,
        "subsample",
        "-m",
        m,
        "--records",
        1,
        "--every-size",
        "--rate",
        "1/10",
        "--eps",
        "ln(2)",
        "--out",
        out_file,
        "--plot",
        tmp_path / "b.png",
    )
    assert code == 0 and "e^ε' = 6/5" in out and "[holds; gap 0]" in out
    assert pg.Mechanism.load(out_file).shape == (2, 3)
    code, out, _ = run(capsys, "subsample", "-m", m, "--rate", "1/10", "--json")  # the domain found from the inputs
    data = json.loads(out)
    assert data["exp_eps_subsampled"] == "6/5" and data["bbg_exp_eps"] == "6/5" and data["holds"] is True


def test_subsample_refuses_a_file_whose_inputs_are_not_the_histograms(capsys, tmp_path):
    m = tmp_path / "m.json"
    pg.randomized_response(1, "3/4").save(m)
    code, _, err = run(capsys, "subsample", "-m", m, "--records", 1, "--rate", "1/2")
    assert code == 2 and "not the histograms of 1 records" in err
    code, _, err = run(capsys, "subsample", "-m", m, "--rate", "1/2")
    assert code == 2 and "not the histograms of a number of records" in err


def test_max_delta_answers_yes_only_with_a_proof_over_every_dataset(capsys):
    # n = 10^5 over the clone pairs: their maximum (3.3e-45) is only a lower bound on the worst case; FMT's proven
    # bound is 2.1e-23
    base = ("shuffle", "--local", "rr:k=1,p=3/4", "-n", 100000, "--eps", "0.05", "--scope", "clones", "--json")
    base = base + ("--max-delta",)
    code, out, _ = run(capsys, *base, "1e-30")  # between the two: undecided, never a "yes"
    data = json.loads(out)
    assert code == 2 and data["error"] == "SizeLimitError" and "undecided" in data["message"]
    code, out, _ = run(capsys, *base, "1e-20")  # above FMT's bound: yes, by the proven bound
    verdict = json.loads(out)["points"][0]["max_delta"]
    assert code == 0 and verdict["holds"] is True and "FMT" in verdict["reason"]
    code, out, _ = run(capsys, *base, "1e-50")  # below the clone pair's exact value: no, with the pair
    verdict = json.loads(out)["points"][0]["max_delta"]
    assert code == 1 and verdict["holds"] is False and "99999×0" in verdict["reason"]
    # the certified worst case decides both ways at n = 2000 (δ = 7.4e-16 over every dataset)
    cert = ("shuffle", "--local", "rr:k=1,p=3/4", "-n", 2000, "--eps", "0.2", "--json", "--max-delta")
    code, out, _ = run(capsys, *cert, "1e-15")
    verdict = json.loads(out)["points"][0]["max_delta"]
    assert code == 0 and verdict["holds"] is True and "over every neighbouring pair" in verdict["reason"]
    assert run(capsys, *cert, "1e-16")[0] == 1
    # exhaustive at n = 10: yes / no decided over every dataset
    small = ("shuffle", "--local", "rr:k=1,p=3/4", "-n", 10, "--eps", "0.5", "--max-delta")
    assert run(capsys, *small, "1/10")[0] == 0 and run(capsys, *small, "1/100")[0] == 1
    code, _, err = run(capsys, *small, "2")
    assert code == 2 and "--max-delta '2' is outside [0, 1]" in err


def test_shuffle_names_a_missing_local_mechanism_file(capsys, tmp_path):
    code, _, err = run(capsys, "shuffle", "--local", tmp_path / "missing.json", "-n", 10, "--eps", "0.5")
    assert code == 2 and "cannot read mechanism file" in err and "missing.json" in err


def test_shuffle_others_counts_must_be_integers(capsys):
    for bad in ("1=x", "1=-2,0=11", "1=1.5"):
        code, out, _ = run(
            capsys,
            "shuffle",
            "--local",
            "rr:k=1,p=3/4",
            "-n",
            10,
            "--eps",
            "0.5",
            "--others",
            bad,
            "--change",
            "1:0",
            "--json",
        )
        data = json.loads(out)
        assert code == 2 and data["error"] == "InvalidParameterError" and "--others count of '1'" in data["message"]


def test_max_delta_never_decides_on_a_float_sum_without_an_error_bound(capsys, tmp_path):
    # a float local mechanism with four merged report categories: δ is summed in floats with no stated error bound
    m = tmp_path / "l.json"
    pg.Mechanism(
        [[0.4, 0.2, 0.2, 0.2], [0.2, 0.4, 0.2, 0.2], [0.2, 0.2, 0.4, 0.2], [0.2, 0.2, 0.2, 0.4]],
        inputs=["a", "b", "c", "d"],
        exact=False,
    ).save(m)
    code, out, _ = run(
        capsys,
        "shuffle",
        "--local",
        m,
        "-n",
        3,
        "--eps",
        "0.1",
        "--others",
        "a=2",
        "--change",
        "b:c",
        "--json",
        "--max-delta",
        "1/10",
    )
    data = json.loads(out)
    assert code == 2 and "undecided" in data["message"]


def test_argument_errors_are_json_with_json(capsys):
    for argv in (
        ("shuffle", "--local", "rr:k=1,p=3/4", "-n", "nan", "--eps", "0.5", "--json"),
        ("compose", "rr:k=1,p=3/4", "--k", "nan", "--json"),
        ("subsample", "-m", "m.json", "--rate", "1/10", "--size", "1", "--json"),
    ):
        with __import__("pytest").raises(SystemExit) as stop:
            run(capsys, *argv)
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and json.loads(out)["error"] == "FormatError" and "error:" in err
