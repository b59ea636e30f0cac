"""Second new-user pass over the command line: options a user gets wrong end with exit 2 and a one-line error naming
the value, before any work, the same way on every command that takes them."""

from __future__ import annotations

import pytest

from privgeom.cli import main


def _run(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("bad", ["-1", "3/2", "nan"])
def test_shuffle_max_delta_outside_unit_interval_is_an_error(capsys, bad):
    """δ is a probability: a --max-delta outside [0, 1] is bad input (exit 2, naming it), as on ``delta``, not a
    completed run that reports every δ above it (exit 1)."""
    code, out, err = _run(capsys, ["shuffle", "--local", "rr:k=1,p=3/4", "-n", "3", "--max-delta", bad])
    assert code == 2 and out == ""
    assert "--max-delta" in err and bad in err and "Traceback" not in err


def test_shuffle_max_delta_in_range_still_decides(capsys):
    """The bound still decides the exit code: RR(3/4) on 3 users has δ(0) > 0, so --max-delta 0 exits 1."""
    code, out, _ = _run(capsys, ["shuffle", "--local", "rr:k=1,p=3/4", "-n", "3", "--max-delta", "0"])
    assert code == 1 and "δ" in out


@pytest.mark.parametrize("option, value", [("--coords", "11,10,01"), ("--rows", "m.json")])
def test_rowcone_plot_options_without_plot_are_refused(capsys, option, value):
    """--coords and --rows only choose what --plot draws; without --plot they used to be silently ignored."""
    code, out, err = _run(capsys, ["rowcone", "rr:k=2,p=3/4", option, value])
    assert code == 2 and out == ""
    assert option in err and value in err and "--plot" in err


def _rr1_file(tmp_path):

    import privgeom as pg

    path = tmp_path / "rr1.json"
    path.write_text(pg.randomized_response(1, "3/4").to_json())
    return str(path)


@pytest.mark.parametrize("others", ["0=x", "0=2.5"])
def test_shuffle_others_count_not_an_integer_is_an_error(capsys, tmp_path, others):
    """A count in --others that is no integer was an internal error (a bare int() ValueError)."""
    code, out, err = _run(
        capsys, ["shuffle", "--local", _rr1_file(tmp_path), "-n", "5", "--change", "1:0", "--others", others]
    )
    assert code == 2 and out == "" and "internal error" not in err
    assert f"--others '{others}'" in err and repr(others.split("=")[1]) in err


def test_shuffle_others_exact_value(capsys, tmp_path):
    """δ(0) of 5 users of RR(3/4), the others all holding 0, the user 1 → 0: with S ~ Bin(4, 1/4) the tallies differ
    by 1/2 (P(S = t − 1) − P(S = t)), so δ(0) = 1/4 Σ_t |P(S = t − 1) − P(S = t)| = 1/4 · 216/256 = 27/128."""
    code, out, _ = _run(
        capsys, ["shuffle", "--local", _rr1_file(tmp_path), "-n", "5", "--change", "1:0", "--others", "0=4"]
    )
    assert code == 0 and "δ(0) = 27/128 (exact)" in out


def test_shuffle_missing_local_file_is_named(capsys):
    """A --local FILE.json that does not exist is reported as a missing file, not as a malformed spec."""
    code, out, err = _run(capsys, ["shuffle", "--local", "/nonexistent/local.json", "-n", "5"])
    assert code == 2 and "cannot read mechanism file '/nonexistent/local.json'" in err


@pytest.mark.parametrize("floor", ["5", "101/100"])
def test_design_floor_above_any_mechanism_is_an_error(capsys, floor):
    """Accuracy under the uniform prior is at most Σ_D π_D max_ω u(D, ω) = 1 for every mechanism, so a floor above 1
    is bad input (exit 2 naming it), not a report listing "none" for BASE and the new definition."""
    code, out, err = _run(
        capsys, ["design", "rr:k=2,p=3/4", "--utility", "accuracy", "--prior", "uniform", "--at-least", floor]
    )
    assert code == 2 and out == ""
    assert f"--at-least {floor}" in err and "at most" in err and "= 1 " in err


def test_design_floor_reachable_by_some_mechanism_is_answered(capsys):
    """A floor of 1 is reached (by the identity mechanism) though not by RR(3/4)'s closure (best 9/16): answered."""
    code, out, _ = _run(
        capsys, ["design", "rr:k=2,p=3/4", "--utility", "accuracy", "--prior", "uniform", "--at-least", "1"]
    )
    assert code == 0 and "1 is above its best expected utility 9/16" in out
