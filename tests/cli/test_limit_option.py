"""``--limit NAME=N`` on every command, and refusals a command-line user can act on.

Every command takes the global, repeatable ``--limit NAME=N`` (added where ``--json`` is added, so commands registered
later get it too): it applies :func:`privgeom.limits` for the run and restores the limits afterwards. A refusal raised
while a command runs names the command-line form (``--limit block_work=384``, or the command's own option such as
``--max-work`` first when it has one); the same refusal in Python names ``pg.set_limits(...)``. A refusal never
suggests the route that just refused.

The table lowers a limit with ``--limit`` so that a small case is refused, checks that the message names the value
to pass, then passes that value with ``--limit`` and checks that the same command now gives its answer.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

import privgeom as pg
from privgeom.cli import build_parser, main
from privgeom.testing import hamming_graph

ROOT = Path(__file__).resolve().parents[2]
RR2 = str(ROOT / "examples" / "rr2_mechanism.json")  # randomized response on 2 bits, p = 2/3: ε = ln 2


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code)  # type: ignore[arg-type]
    out, err = capsys.readouterr()
    return code, out, err


#: (command line, the low --limit, the form the refusal must name (with the needed value), words of the answer once
#: the needed value is passed with --limit)
CASES: list[tuple[str, str, str, tuple[str, ...]]] = [
    (
        "relax rr:k=3,p=3/4 --method block",
        "block_work=100",
        "--limit block_work=384",
        ("exactly ε-differential privacy", "e^ε = 3"),
    ),
    (
        f"epsilon -m {RR2} --graph hamming",
        "profile_work=10",
        "--max-work 288 (or --limit profile_work=288)",
        ("ε = ln(2)",),
    ),
    (
        f"delta -m {RR2} --graph complete --exp-eps 2",
        "profile_work=10",
        "--max-work 432 (or --limit profile_work=432)",
        ("= 2/9 (exact)",),
    ),
    # 16 is the proven lower bound on the rays the refusal names; the cone has 38 (raised to 38 below)
    # --rays alone counts the rays by orbit whatever dp_rays is; --all lists every one
    ("rowcone dp:graph=hamming,k=3,exp_eps=3 --rays --all", "dp_rays=10", "--limit dp_rays=16", ("38 extreme rays",)),
    (
        "optimal dp:graph=path,n=3,exp_eps=2",
        "optimal_lp_size=10",
        "--max-lp-size 40 (or --limit optimal_lp_size=40)",
        ("expected utility",),
    ),
    ("analyze dp:graph=path,n=20,exp_eps=2", "domain_size=10", "--limit domain_size=21", ("1. consistent closure",)),
    (
        "relax rr:k=3,p=3/4 --family all-pairs",
        "relax_family=20",
        "--max-family 28 (or --limit relax_family=28)",
        ("Projecting onto 28 pairs",),
    ),
    ("rowcone rr:k=2,p=3/4 --all", "listed_coefficients=5", "--limit listed_coefficients=16", ("4 facets",)),
    # the voters of a rule stored by vote count: --max-n is the command's own option for count_voters
    (
        "voting accuracy majority -n 21 --rho 1/2",
        "count_voters=20",
        "--max-n 21 (or --limit count_voters=21)",
        ("Acc(M_rho majority(21)) at rho = 1/2: 193447200300840513/288230376151711744",),
    ),
]


@pytest.mark.parametrize("line,low,form,answer", CASES, ids=[c[0].split(" -")[0] for c in CASES])
def test_limit_lowered_then_raised_lets_the_work_through(line, low, form, answer, capsys):
    before = dict(pg.get_limits())
    code, out, err = _run(shlex.split(line) + ["--limit", low], capsys)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("privgeom: error: "), err
    assert form in err, (form, err)
    assert "pg.set_limits" not in err and "pg.limits" not in err, err  # the command-line form on the command line
    assert dict(pg.get_limits()) == before  # restored after the run, also after a refusal
    needed = re.search(r"--limit (\w+=\d+)", err).group(1)  # type: ignore[union-attr]
    if needed == "dp_rays=16":  # a lower bound: the enumeration finds 38 rays
        needed = "dp_rays=38"
    code, out, err = _run(shlex.split(line) + ["--limit", low, "--limit", needed], capsys)  # the last one wins
    assert code == 0, (code, err)
    for word in answer:
        assert word in out, (word, out)
    assert dict(pg.get_limits()) == before


def test_the_same_refusal_in_python_names_the_python_form():
    with pg.limits(block_work=100):
        with pytest.raises(pg.SizeLimitError) as err:
            pg.relax(pg.RandomizedResponse(3, "3/4"), [("111", "110")], method="block")
    text = str(err.value)
    assert "pg.set_limits(block_work=384)" in text and "--limit" not in text
    assert "use method='auto'" in text  # block was asked for: the difference route is a real alternative


def test_relax_triples_never_suggests_the_route_that_ran(capsys):
    """A regression: ``--family triples`` ran method auto (the difference route takes pairs only, so the cone route ran);
    the refusal said "use method='auto'" and named ``pg.set_limits``."""
    code, out, err = _run(["relax", "dp:graph=hamming,k=4,exp_eps=3", "--family", "triples"], capsys)
    assert code == 2
    assert "--limit block_work=53248" in err and "the difference-constraint route takes pairs only" in err, err
    assert "method='auto'" not in err and "--method auto" not in err and "pg.set_limits" not in err, err
    with pytest.raises(pg.SizeLimitError) as exc:  # in Python: the Python form, and still no 'auto'
        pg.relax(pg.parse_definition("dp:graph=hamming,k=4,exp_eps=3"), "triples")
    assert "pg.set_limits(block_work=53248)" in str(exc.value) and "method='auto'" not in str(exc.value)


def test_domain_size_refusal_names_the_command_line_form(capsys):
    """A regression: ``analyze dp:graph=path,n=1000000000`` named ``pg.set_limits(domain_size=…)``."""
    code, out, err = _run(["analyze", "dp:graph=path,n=1000000000,exp_eps=2"], capsys)
    assert code == 2 and "--limit domain_size=1000000001" in err and "pg.set_limits" not in err, err
    with pytest.raises(pg.SizeLimitError, match=r"pg\.set_limits\(domain_size=1000000001\)"):
        pg.parse_definition("dp:graph=path,n=1000000000,exp_eps=2")


def test_max_rays_is_a_registered_limit(capsys):
    """A regression: the ray enumerator's 50,000 cap was not in ``pg.get_limits()`` and nothing raised it."""
    info = pg.get_limits().info("dp_rays")
    assert info.value == info.default == 50_000
    code, out, err = _run(["rowcone", "dp:graph=hamming,k=5,exp_eps=3", "--rays", "--all"], capsys)  # every ray
    assert code == 2 and "--limit dp_rays=65536" in err and "65,536" in err, err
    code, out, err = _run(["rowcone", "dp:graph=hamming,k=5,exp_eps=3", "--rays"], capsys)  # by orbit
    assert code == 0 and "extreme rays: 395,094 in 434 orbits" in out, (out, err)
    with pytest.raises(pg.SizeLimitError, match=r"max_rays=65536 or pg\.set_limits\(dp_rays=65536\)"):
        pg.DifferentialPrivacy(hamming_graph(5), exp_eps=3).row_cone().rays
    with pg.limits(dp_rays=37):  # 38 rays: the enumeration itself refuses, naming the limit
        with pytest.raises(pg.SizeLimitError, match=r"pg\.set_limits\(dp_rays=N\)"):
            pg.DifferentialPrivacy(hamming_graph(3), exp_eps=3).row_cone().rays
    with pg.limits(dp_rays=38):
        assert len(pg.DifferentialPrivacy(hamming_graph(3), exp_eps=3).row_cone().rays) == 38


@pytest.mark.parametrize(
    "value,words",
    [
        ("blocks=3", ["--limit 'blocks=3'", "unknown size limit 'blocks'", "block_work", "dp_rays", "domain_size"]),
        ("block_work", ["--limit 'block_work'", "write NAME=N", "block_work"]),
        ("block_work=x", ["--limit 'block_work=x'", "'x'"]),
        ("block_work=0", ["--limit 'block_work=0'", ">= 1"]),
        ("block_work=2.5", ["--limit 'block_work=2.5'"]),
    ],
)
def test_bad_limit_options_exit_2_before_any_work(value, words, capsys, monkeypatch):
    monkeypatch.setattr(
        "privgeom.analyses.relaxation._relaxation.relax", lambda *a, **k: pytest.fail("the command ran")
    )
    before = dict(pg.get_limits())
    code, out, err = _run(["relax", "rr:k=2,p=3/4", "--limit", value], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err, (word, err)
    assert dict(pg.get_limits()) == before


def test_every_command_takes_limit():
    """``--limit`` is added once, where ``--json`` is: every command of the parser (each sub-command of a group) has
    both."""

    def subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        action = next((a for a in p._actions if isinstance(a, argparse._SubParsersAction)), None)
        return dict(action.choices) if action is not None else {}

    commands: list[tuple[str, argparse.ArgumentParser]] = []
    for name, p in subparsers(build_parser()).items():
        children = subparsers(p)
        commands += [(f"{name} {child}", q) for child, q in children.items()] if children else [(name, p)]
    assert len(commands) > 15 and "voting accuracy" in dict(commands)
    missing = [
        path
        for path, p in commands
        if "--limit" not in p._option_string_actions or "--json" not in p._option_string_actions
    ]
    assert not missing, missing


def test_limit_with_json_reports_the_refusal_as_json(capsys):
    import json

    code, out, err = _run(["relax", "rr:k=3,p=3/4", "--method", "block", "--limit", "block_work=100", "--json"], capsys)
    assert code == 2 and json.loads(out)["error"] == "SizeLimitError"
    assert "--limit block_work=384" in json.loads(out)["message"]


def test_input_file_size_is_a_limit_too(capsys):
    """The largest input file read was a hidden cap; it is the size limit ``file_bytes``."""
    size = Path(RR2).stat().st_size
    code, out, err = _run(["epsilon", "-m", RR2, "--graph", "hamming", "--limit", "file_bytes=100"], capsys)
    assert code == 2 and "larger than 100 bytes" in err and f"--limit file_bytes={size}" in err, err
    code, out, err = _run(["epsilon", "-m", RR2, "--graph", "hamming", "--limit", f"file_bytes={size}"], capsys)
    assert code == 0 and "ε = ln(2)" in out, err
