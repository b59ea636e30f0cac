"""``privgeom epsilon | delta | compare | optimal`` through the real entry point: text, --json, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json

import pytest

import privgeom as pg
from privgeom.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def rr_file(tmp_path):
    path = tmp_path / "rr.json"
    pg.randomized_response(2, "3/4").save(path)
    return path


# ---------------------------------------------------------------------------------------------------- epsilon
def test_epsilon_hamming_and_complete(capsys, rr_file):
    code, out, _ = run(capsys, "epsilon", "--mechanism", rr_file, "--graph", "hamming")
    assert code == 0 and "ln(3)" in out and "e^ε = 3" in out and "11 → 10" in out
    code, out, _ = run(capsys, "epsilon", "-m", rr_file, "--graph", "complete", "--json")
    data = json.loads(out)
    assert code == 0 and data["level"]["eps"]["ln"] == "9" and data["edge"] == ["11", "00"]
    assert (data["p"], data["q"]) == ("9/16", "1/16")


def test_epsilon_path_and_edges(capsys, rr_file):
    code, out, _ = run(capsys, "epsilon", "-m", rr_file, "--graph", "path", "--json")
    assert code == 0 and json.loads(out)["n_edges"] == 3
    code, out, _ = run(capsys, "epsilon", "-m", rr_file, "--graph", "edges:11-10,01:00", "--json")
    data = json.loads(out)
    assert code == 0 and data["n_edges"] == 2 and data["level"]["eps"]["ln"] == "3"


def test_epsilon_infinite_exits_1(capsys, tmp_path):
    path = tmp_path / "m.json"
    pg.Mechanism([[1, "1/2"], [0, "1/2"]], inputs=["a", "b"]).save(path)
    code, out, _ = run(capsys, "epsilon", "-m", path, "--graph", "complete")
    assert code == 1 and "ε = ∞" in out


@pytest.mark.parametrize(
    "graph,msg",
    [
        ("cycle", "unknown --graph"),
        ("edges:11-12", "nodes ['12'] are not the datasets' labels"),
        ("edges:11", "bad edge"),
    ],
)
def test_epsilon_bad_graph_exits_2(capsys, rr_file, graph, msg):
    code, out, err = run(capsys, "epsilon", "-m", rr_file, "--graph", graph)
    assert code == 2 and msg in err and out == ""


def test_epsilon_hamming_needs_equal_lengths(capsys, tmp_path):
    path = tmp_path / "m.json"
    pg.Mechanism([[1, 1], [0, 0]], inputs=["a", "bb"]).save(path)
    code, _, err = run(capsys, "epsilon", "-m", path)
    assert code == 2 and "equal length" in err


def test_missing_mechanism_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "epsilon", "-m", tmp_path / "nope.json")
    assert code == 2 and "cannot read mechanism file" in err


# ---------------------------------------------------------------------------------------------------- delta
def test_delta_exact_value_and_witness(capsys, rr_file):
    code, out, _ = run(capsys, "delta", "-m", rr_file, "--exp-eps", "2", "--json")
    data = json.loads(out)["delta"]
    assert code == 0 and data["delta"] == "1/4" and data["exact"] and data["edge"] == ["11", "10"]
    code, out, _ = run(capsys, "delta", "-m", rr_file, "--eps", "ln(2)")
    assert code == 0 and "= 1/4 (exact)" in out


def test_delta_float_eps(capsys, rr_file):
    code, out, _ = run(capsys, "delta", "-m", rr_file, "--eps", "0.5", "--json")
    data = json.loads(out)["delta"]
    assert code == 0 and not data["exact"] and data["delta"] == pytest.approx(0.75 - 0.25 * 2.718281828459045**0.5)


def test_delta_curve_and_plot(capsys, rr_file, tmp_path):
    png = tmp_path / "d.png"
    code, out, _ = run(capsys, "delta", "-m", rr_file, "--plot", png, "--json")
    data = json.loads(out)
    assert code == 0 and png.stat().st_size > 1000
    assert data["curve"]["breakpoints"] == [["1", "1/2"], ["3", "0"]]
    code, out, _ = run(capsys, "delta", "-m", rr_file, "--curve", "--exp-eps", "2")
    assert code == 0 and "δ = 0 from ε = ln(3)" in out


@pytest.mark.parametrize("bound,code", [("1/4", 0), ("1/5", 1)])
def test_delta_max_delta_exit_codes(capsys, rr_file, bound, code):
    got, out, _ = run(capsys, "delta", "-m", rr_file, "--exp-eps", "2", "--max-delta", bound)
    assert got == code and ("≤" if code == 0 else ">") in out


def test_delta_argument_errors(capsys, rr_file):
    code, _, err = run(capsys, "delta", "-m", rr_file)
    assert code == 2 and "needs --eps, --exp-eps or --curve" in err
    code, _, err = run(capsys, "delta", "-m", rr_file, "--curve", "--max-delta", "1/2")
    assert code == 2 and "--max-delta needs" in err
    code, _, err = run(capsys, "delta", "-m", rr_file, "--exp-eps", "1/2")
    assert code == 2 and "must be >= 1" in err
    with pytest.raises(SystemExit) as exc:  # argparse: --eps and --exp-eps are mutually exclusive
        main(["delta", "-m", str(rr_file), "--eps", "1", "--exp-eps", "2"])
    assert exc.value.code == 2


# ---------------------------------------------------------------------------------------------------- compare
def test_compare_rr_inside_dp(capsys):
    code, out, _ = run(capsys, "compare", "rr:k=2,p=3/4", "dp:graph=hamming,k=2,exp_eps=3")
    assert code == 0
    assert out.startswith("subset")
    assert "P(S+ | ω) = 5/14 < P(S- | ω) = 9/14" in out
    code, out, _ = run(capsys, "compare", "rr:k=2,p=3/4", "dp:graph=hamming,k=2,exp_eps=3", "--json")
    data = json.loads(out)
    assert data["relation"] == "subset"
    w = data["b_in_a"]["witness"]
    assert w["row"] == ["3", "1", "1", "3"] and w["mechanism"]["matrix"][0] == ["3/4", "1/4", "1/4", "3/4"]
    assert (w["prior_plus"], w["posterior_plus"], w["posterior_minus"]) == ("5/8", "5/14", "9/14")


@pytest.mark.parametrize(
    "a,b,code,rel",
    [
        ("dp:graph=hamming,k=2,exp_eps=3", "rr:k=2,p=3/4", 1, "superset"),
        ("rr:k=2,p=3/4", "rr:k=2,p=3/4", 0, "equal"),
        ("dp:graph=path,n=2,exp_eps=2", "dp:graph=complete,n=3,exp_eps=2", 1, "superset"),  # more edges: stronger
        ("dp:graph=complete,n=3,exp_eps=2", "dp:graph=path,n=2,exp_eps=2", 0, "subset"),
        ("dp:graph=path,n=2,exp_eps=2", "dp:graph=complete,n=3,exp_eps=3", 1, "incomparable"),
    ],
)
def test_compare_exit_codes(capsys, a, b, code, rel):
    got, out, _ = run(capsys, "compare", a, b, "--json")
    assert got == code and json.loads(out)["relation"] == rel


def test_compare_errors(capsys):
    code, _, err = run(capsys, "compare", "rr:k=2,p=3/4", "rr:k=3,p=3/4")
    assert code == 2 and "different input domains" in err
    code, _, err = run(capsys, "compare", "rr:k=2", "rr:k=2,p=3/4")
    assert code == 2 and "needs p" in err


# ---------------------------------------------------------------------------------------------------- optimal
def test_optimal_local_dp_accuracy(capsys, tmp_path):
    out_file = tmp_path / "opt.json"
    code, out, _ = run(capsys, "optimal", "dp:graph=complete,n=4,exp_eps=3", "--out", out_file)
    assert code == 0 and "expected utility 1/2" in out and "verified exactly" in out
    M = pg.Mechanism.load(out_file)
    assert [str(v) for v in M.column("0")] == ["1/2", "1/6", "1/6", "1/6"]
    code, out, _ = run(capsys, "optimal", "dp:graph=complete,n=4,exp_eps=3", "--json")
    data = json.loads(out)
    assert data["value"] == "1/2" and data["certificate"]["exact"] and data["formulation"] == "rows"


def test_optimal_utility_and_prior_files(capsys, tmp_path):
    u = tmp_path / "u.json"
    u.write_text(json.dumps({"matrix": [[1, 0], [0, 1], [0, 1], [1, 0]], "outputs": ["even", "odd"]}))
    p = tmp_path / "p.json"
    p.write_text(json.dumps({"11": "1/2", "10": "1/6", "01": "1/6", "00": "1/6"}))
    code, out, _ = run(capsys, "optimal", "rr:k=2,p=3/4", "--utility", u, "--json")
    data = json.loads(out)
    assert code == 0 and data["formulation"] == "closure"
    # guessing the parity through RR(3/4): the output's parity is right with probability p² + (1-p)² = 5/8
    assert data["value"] == "5/8" and data["mechanism"]["outputs"] == ["even", "odd"]
    # with P(even) = 2/3 a priori, always answering "even" is better than following the output
    code, out, _ = run(capsys, "optimal", "rr:k=2,p=3/4", "--utility", u, "--prior", p, "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "2/3" and data["mechanism"]["matrix"][0] == ["1", "1", "1", "1"]
    code, out, _ = run(capsys, "optimal", "rr:k=2,p=3/4", "--prior", "1/2,1/6,1/6,1/6", "--json")
    assert code == 0 and json.loads(out)["value"] == "9/16"


@pytest.mark.parametrize(
    "extra,msg",
    [
        (["--prior", "1/2,1/2"], "2 entries for 4 datasets"),
        (
            ["--utility", "missing.json"],
            "'missing.json': no such file; use a built-in utility (accuracy) or a JSON file",
        ),
        (["--utility", "nosuch"], "'nosuch': no such utility; use a built-in utility (accuracy) or a JSON file"),
        (["--prior", "1/2,1/4,1/4,1/4"], "sum to 1"),
    ],
)
def test_optimal_errors(capsys, extra, msg):
    code, _, err = run(capsys, "optimal", "rr:k=2,p=3/4", *extra)
    assert code == 2 and msg in err


def test_optimal_bad_json_file(capsys, tmp_path):
    u = tmp_path / "u.json"
    u.write_text("{not json")
    code, _, err = run(capsys, "optimal", "rr:k=2,p=3/4", "--utility", u)
    assert code == 2 and "malformed utility JSON" in err


# ---------------------------------------------------------------------------------------------------- relations
def test_default_hamming_is_never_silently_replaced(capsys, tmp_path):
    path = tmp_path / "path4.json"
    pg.truncated_geometric(3, "1/2").save(path)  # inputs "0".."3": not bit strings
    code, out, err = run(capsys, "epsilon", "-m", path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "hamming does not apply" in err and "path, complete" in err and "Traceback" not in err
    code, out, _ = run(capsys, "epsilon", "-m", path, "--graph", "path", "--json")
    assert code == 0 and json.loads(out)["level"]["eps"]["ln"] == "2"  # geometric(α = 1/2): ln 2 on the path


def test_max_work_refuses_before_computing(capsys, rr_file):
    code, out, err = run(capsys, "delta", "-m", rr_file, "--graph", "complete", "--exp-eps", "2", "--max-work", "10")
    assert code == 2 and out == "" and "--max-work" in err and "6 edges" in err
    code, _, err = run(capsys, "epsilon", "-m", rr_file, "--max-work", "x")
    assert code == 2 and "'x'" in err
    code, out, _ = run(capsys, "epsilon", "-m", rr_file, "--graph", "complete", "--max-work", "10", "--json")
    assert code == 0 and json.loads(out)["level"]["eps"]["ln"] == "9"  # the complete route does not scan edges


def test_eps_option_goes_through_privacy_level(capsys, rr_file):
    code, out, _ = run(capsys, "delta", "-m", rr_file, "--eps", "ln(2)", "--json")
    assert code == 0 and json.loads(out)["delta"]["delta"] == "1/4"  # same as --exp-eps 2 (hand value for RR(3/4))
    code, _, err = run(capsys, "delta", "-m", rr_file, "--eps", "-1")
    assert code == 2 and "--eps must be >= 0" in err


def test_optimal_summarises_a_large_mechanism_and_prints_it_with_all(capsys, tmp_path):
    # RR(5, 3/4): 32 × 32 = 1,024 entries; the optimum for accuracy is RR itself, value (3/4)^5 = 243/1024 and its
    # entries are 3^h / 4^5 for h = 0..5 (6 distinct values)
    code, out, _ = run(capsys, "optimal", "rr:k=5,p=3/4")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 3, out  # value, the mechanism in one line, the certificate
    assert "expected utility 243/1024" in lines[0] and "verified exactly" in lines[2]
    assert (
        lines[1].startswith(
            "mechanism: 32 outputs × 32 inputs, exact; 1,024 nonzero entries, 6 distinct, from 1/1024 to 243/1024"
        )
        and "--all prints it" in lines[1]
    )
    code, out, _ = run(capsys, "optimal", "rr:k=5,p=3/4", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "243/1024" and data["certificate"]["verified"]
    assert data["mechanism"]["shape"] == [32, 32] and "matrix" not in data["mechanism"]
    assert "witness" not in data["membership"] and data["membership"]["member"]
    assert len(out) < 3000  # no 32 × 32 matrix, no 32 × 32 post-processing witness
    out_file = tmp_path / "rr5.json"
    code, out, _ = run(capsys, "optimal", "rr:k=5,p=3/4", "--all", "--out", out_file)
    assert code == 0 and len(out.strip().splitlines()) == 1 + 33 + 1 + 1  # value, the table, certificate, file line
    assert pg.Mechanism.load(out_file) == pg.randomized_response(5, "3/4")
    code, out, _ = run(capsys, "optimal", "rr:k=5,p=3/4", "--all", "--json")
    assert len(json.loads(out)["mechanism"]["matrix"]) == 32
