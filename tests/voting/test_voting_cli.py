"""``privgeom voting accuracy|influence|welfare|epsilon|figure`` through the real entry point."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from privgeom import voting
from privgeom import LogRational
from privgeom.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["voting", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_accuracy(capsys) -> None:
    code, out, _ = run(capsys, "accuracy", "majority", "-n", "3", "--rho", "1/2")
    assert code == 0 and "45/64" in out and "arcsin" in out
    code, out, _ = run(capsys, "accuracy", "majority", "-n", "100001", "--rho", "1/2", "--json")
    data = json.loads(out)
    assert code == 0 and abs(data["accuracy"] - float(voting.accuracy(voting.majority(100001), 0.5))) < 1e-15
    code, out, _ = run(capsys, "accuracy", "tribes", "--width", "2", "--count", "2", "--rho", "1/2", "--json")
    assert json.loads(out)["accuracy"] == "1425/2048"
    code, out, _ = run(
        capsys, "accuracy", "threshold", "-n", "5", "--theta", "1", "--rho", "1/3", "--method", "recursion"
    )
    assert code == 0 and str(voting.accuracy(voting.threshold(5, 1), Fraction(1, 3)).value) in out


def test_influence(capsys) -> None:
    code, out, _ = run(capsys, "influence", "majority", "-n", "5", "--rho", "1/2", "--json")
    data = json.loads(out)
    assert code == 0 and data["influence"]["0"] == "3/8" and data["probabilistic_influence"]["0"] == "15/64"
    code, out, _ = run(capsys, "influence", "weighted", "--weights", "3,1,1,1", "--quota", "4")
    assert code == 0 and "7/8" in out and "Banzhaf" in out
    code, out, _ = run(capsys, "influence", "majority", "-n", "100001")
    assert code == 0 and "every voter" in out and "252.31" in out


def test_welfare(capsys) -> None:
    code, out, _ = run(capsys, "welfare", "majority", "-n", "5", "--rho", "1/3", "--json")
    data = json.loads(out)
    assert code == 0 and data["welfare"] == "15/8" and data["welfare_noisy"] == "5/8"


def test_epsilon_and_exit_codes(capsys) -> None:
    code, out, _ = run(capsys, "epsilon", "majority", "-n", "3", "--rho", "1/2")
    assert code == 0 and "ln(11/5)" in out and "ln(3)" in out
    code, out, _ = run(capsys, "epsilon", "dictator", "-n", "3", "--rho", "1/2", "--eps", "1")
    assert code == 1 and "NOT" in out
    code, out, _ = run(capsys, "epsilon", "majority", "-n", "3", "--rho", "1/2", "--eps", "0.8", "--json")
    data = json.loads(out)
    assert code == 0 and data["private"] is True and data["level"]["eps"]["ln"] == "11/5"
    code, out, _ = run(capsys, "epsilon", "majority", "-n", "100001", "--rho", "0.9", "--float")
    assert code == 0 and "counts" in out


def test_errors_exit_2(capsys) -> None:
    code, _, err = run(capsys, "accuracy", "majority", "-n", "4", "--rho", "1/2")
    assert code == 2 and "odd" in err
    code, _, err = run(capsys, "accuracy", "weighted", "--rho", "1/2")
    assert code == 2 and "--weights" in err
    code, _, err = run(capsys, "accuracy", "majority", "-n", "3", "--rho", "2")
    assert code == 2 and "rho" in err


def test_figure(capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "figure", "--out", str(tmp_path), "--n-max", "21", "--rhos", "0.5,0.9", "--json")
    data = json.loads(out)
    png = Path(data["path"])
    assert code == 0 and png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert abs(data["limit"]["0.5"] - (0.5 + 1 / 6)) < 1e-15


def test_table_values_and_bad_input_are_one_line_errors(capsys) -> None:
    code, out, _ = run(capsys, "influence", "table", "--values", "1/2,0.5,1,-1", "--rho", "1/2", "--json")
    data = json.loads(out)
    assert code == 0 and data["influence"]["0"] == "5/16"  # real-valued tables are fine for influence
    for argv in (
        ["accuracy", "table", "--values", "1,x,1,1", "--rho", "1/2"],
        ["accuracy", "table", "--values", "1,0.5,1,1", "--rho", "1/2"],
        ["accuracy", "table", "--values", "1,1,1", "--rho", "1/2"],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and "internal error" not in err, err


def test_epsilon_at_large_n(capsys) -> None:
    code, out, _ = run(capsys, "epsilon", "or", "-n", "100001", "--rho", "1/2")
    assert code == 0 and "ln(3)" in out and "attains" in out  # Remark 1's closed form, exact
    code, out, _ = run(capsys, "epsilon", "parity", "-n", "100001", "--rho", "1/2", "--json")
    data = json.loads(out)
    # the exact ratio has ~30,000-digit integers: JSON carries it in hexadecimal (numbers.MAX_PRINTED_BITS), exactly
    assert code == 0 and data["level"]["eps"]["ln"].startswith("0x") and data["attains_bound"] is False
    assert LogRational.from_dict(data["level"]["eps"]) == voting.epsilon(voting.parity(100001), "1/2").level.eps
