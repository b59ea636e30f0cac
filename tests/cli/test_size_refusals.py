"""Sizes before work: large inputs of the core commands are refused from their sizes, before the
expensive routine runs.

Each row names the routine that does the work a refusal must come before; the test replaces it by a function that
fails the test when entered (counting work, never timing it), runs the command (or the Python call) and checks the
refusal: exit code 2, one line naming the limit and how to raise it in the reader's form (``--limit``/the command's
own option on the command line, ``pg.set_limits`` in Python).
"""

from __future__ import annotations

import ast
import importlib
import re
import shlex
from pathlib import Path
from typing import Any, Callable

import networkx as nx
import pytest

import privgeom as pg
from privgeom.cli import main
from privgeom.testing import hamming_graph

ROOT = Path(__file__).resolve().parents[2]
RR2 = str(ROOT / "examples" / "rr2_mechanism.json")

#: A routine that must not run: ``"module:attribute"`` (``networkx:bfs_tree`` is the first step of the ε-DP ray
#: enumeration, after its size check).
Routine = str


def _forbid(monkeypatch: pytest.MonkeyPatch, routines: tuple[Routine, ...]) -> list[str]:
    entered: list[str] = []
    for spec in routines:
        module, _, attr = spec.partition(":")
        owner: Any = importlib.import_module(module)
        for part in attr.split(".")[:-1]:
            owner = getattr(owner, part)
        name = attr.split(".")[-1]

        def fail(*args: Any, _spec: str = spec, **kwargs: Any) -> Any:
            entered.append(_spec)
            raise AssertionError(f"{_spec} ran before the size refusal")

        monkeypatch.setattr(owner, name, fail)
    return entered


#: How a refusal names a limit: ``--limit NAME=``, ``set_limits(NAME=``, ``(NAME)``, ``(the limit NAME)``,
#: ``the limit NAME``, ``the NAME limit``, ``the size limit NAME`` (NAME in snake case, with at least one ``_``).
_SNAKE = r"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
_NAMED = re.compile(
    rf"--limit {_SNAKE}=|set_limits\({_SNAKE}=|\({_SNAKE}\)|\(the limit {_SNAKE}\)|"
    rf"\blimit {_SNAKE}\b|\b{_SNAKE} limit\b"
)


def limit_names(message: str) -> set[str]:
    """The limit names a refusal message mentions (:data:`_NAMED`).

    >>> sorted(limit_names("more than the limit of 20,000 (max_orbits) — raise it with --limit dp_ray_orbits=9"))
    ['dp_ray_orbits', 'max_orbits']
    """
    return {next(g for g in m.groups() if g) for m in _NAMED.finditer(message)}


def test_the_limit_names_of_the_reported_message_are_found():
    # the message the command printed before: two names for one limit, one of them not a registered limit
    old = (
        "the eps-DP cone over 64 datasets has at least 93,207 orbits of extreme rays under the hypercube group of "
        "order 46,080, more than the limit of 20,000 (max_orbits); refused before searching — raise it with "
        "--limit dp_ray_orbits=93207"
    )
    assert limit_names(old) == {"max_orbits", "dp_ray_orbits"} and "max_orbits" not in pg.get_limits()


def _literal_text(node: ast.AST) -> str:
    """The literal parts of the strings and f-strings under ``node``, joined."""
    return "".join(v.value for v in ast.walk(node) if isinstance(v, ast.Constant) and isinstance(v.value, str))


def test_every_refusal_in_the_package_names_a_registered_limit():
    # statically, over every module: each SizeLimitError's message text and each limit_hint(NAME, ...) call names
    # only registered limits (a keyword such as max_orbits is Python's spelling, not a limit --limit can raise)
    registered = set(pg.get_limits())
    bad = []
    modules = "*.py"  # a variable: tests/test_examples.py reads glob("…") patterns as scripts another test runs
    for path in sorted((ROOT / "privgeom").rglob(modules)):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "SizeLimitError":
                bad += [f"{path.name}:{node.lineno}: {n}" for n in limit_names(_literal_text(node)) - registered]
            elif name == "limit_hint" and node.args and isinstance(node.args[0], ast.Constant):
                if node.args[0].value not in registered:
                    bad.append(f"{path.name}:{node.lineno}: limit_hint({node.args[0].value!r})")
    assert not bad, bad


#: (command line, routines that must not run, fragments of the one-line refusal)
CLI_ROWS: list[tuple[str, tuple[Routine, ...], tuple[str, ...]]] = [
    # semantics rr:k=20 without --all now answers per orbit (tests/analyses/test_orbit_routes.py); --all is refused
    (
        "semantics rr:k=20,p=3/4 --all",
        ("privgeom.cli._core:_listed_positions",),
        ("1,099,511,627,776 numbers", "--limit listed_coefficients=1099511627776"),
    ),
    # relax rr:k=20 onto its Hamming pairs answers per orbit (tests/cli/test_core_cli.py); all pairs are refused
    (
        "relax rr:k=20,p=3/4 --family all-pairs",
        ("privgeom.cli._core:relax", "privgeom.cli._routes:subset_family"),
        ("549,755,289,600 subsets", "--max-family 549755289600 (or --limit relax_family=549755289600)"),
    ),
    (
        "relax rr:k=10,p=3/4 --family triples",
        ("privgeom.cli._core:relax", "privgeom.cli._routes:subset_family"),
        ("178,433,024 subsets", "--max-family 178433024"),
    ),
    (
        "relax dp:graph=hamming,k=4,exp_eps=3 --family triples",
        ("privgeom.geometry._cone:Cone.project",),
        ("estimated work 64² × 13 = 53,248", "--limit block_work=53248"),
    ),
    (
        "optimal dp:graph=path,n=100000,exp_eps=2",
        ("privgeom.analyses.optimal._optimal_lp:_rows_lp", "privgeom.analyses.optimal._optimal_lp:special_lp"),
        ("10,000,200,001 variables", "--max-lp-size 60000800002"),
    ),
    (
        f"epsilon -m {RR2} --graph hamming --max-work 10",
        ("privgeom.analyses.profiles._scan:_matrix_views",),
        ("288 units of work", "--max-work 288"),
    ),
    (
        f"delta -m {RR2} --graph complete --exp-eps 2 --limit profile_work=10",
        ("privgeom.analyses.profiles._scan:_matrix_views",),
        ("432 units of work", "--max-work 432"),
    ),
    (
        "compare rr:k=20,p=3/4 dp:graph=hamming,k=20,exp_eps=3",
        ("privgeom.cli._closures:compare",),
        ("10,485,760 edges", "--limit graph_edges=10485760"),
    ),
    # Q5's 395,094 rays are listed by orbit (434 orbits); Q6 has at least 2^32 rays in 93,207 orbits or more
    (
        "rowcone dp:graph=hamming,k=6,exp_eps=3 --rays",
        ("privgeom.definitions._ray_orbits:_search",),
        ("at least 93,207 orbits", "--limit dp_ray_orbits=93207"),
    ),
    (
        "rowcone dp:graph=hamming,k=5,exp_eps=3 --rays --all",
        ("privgeom.geometry._cdd:h_to_v",),
        ("at least 65,536 extreme rays", "--limit dp_rays=65536"),
    ),
    (
        "analyze dp:graph=path,n=1000000000,exp_eps=2",
        ("privgeom.definitions._dp:DifferentialPrivacy.__init__",),
        ("1,000,000,001 datasets", "--limit domain_size=1000000001"),
    ),
    # a relation that needs a networkx graph: its 1,124,250 edges are refused before one is listed (the path needs
    # no graph: its edges are index arithmetic, tests/definitions/test_dp_path_scale.py)
    (
        "analyze dp:graph=complete,n=1500,exp_eps=2",
        ("privgeom._core.domain:Domain._edges",),
        ("1,124,250 edges", "--limit graph_edges=1124250"),
    ),
    (
        "rowcone rr:k=27,p=3/4",
        ("privgeom.definitions._rr:RandomizedResponse.row_cone",),
        ("2^27 datasets", "--limit domain_size=134217728"),
    ),
    # a mechanism of the wrong size: the counts are compared before rr:k=20's 1,048,576 labels are built
    (
        f"closure rr:k=20,p=3/4 -m {RR2}",
        ("privgeom.definitions._rr:bit_strings", "privgeom._core.domain:_LazyBitLabels.build"),
        ("has 4 inputs (11, 10, 01, 00)", "rr:k=20,p=3/4 has 1,048,576 datasets"),
    ),
    (
        "rowcone rr:k=3,p=3/4 --all --limit listed_coefficients=10",
        ("privgeom.cli._core:describe_row_cone",),
        ("more than the 10 a text listing shows", "--limit listed_coefficients=64"),
    ),
]


@pytest.mark.parametrize("line,routines,fragments", CLI_ROWS, ids=[r[0].split(" -")[0] for r in CLI_ROWS])
def test_cli_refuses_from_the_sizes(line, routines, fragments, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    entered = _forbid(monkeypatch, routines)
    try:
        code = main(shlex.split(line))
    except SystemExit as exc:
        code = int(exc.code)  # type: ignore[arg-type]
    out, err = capsys.readouterr()
    assert not entered, entered
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    assert "pg.set_limits" not in err, err
    named = limit_names(err)  # one name: the registered limit that --limit raises, never a Python keyword
    assert named <= set(pg.get_limits()) and len(named) <= 1, (named, err)


def test_analyze_reports_a_refused_row_cone_without_building_the_guarantees(monkeypatch, capsys):
    """``analyze`` reports every part it could do: the refused row cone must not cost the guarantees' work."""
    monkeypatch.setattr(
        pg.RandomizedResponse, "orbit_structure", lambda self: None
    )  # the generic route (per orbit it answers: below)
    entered = _forbid(monkeypatch, ("privgeom.analyses.guarantees._semantics:_rr_semantics",))
    code = main(["analyze", "rr:k=18,p=3/4"])
    out, err = capsys.readouterr()
    assert not entered and code == 0, (entered, code, err)
    assert "2. row cone: refused" in out and "--limit exact_entries=68719476736" in out


def test_analyze_rr18_answers_per_orbit(monkeypatch, capsys):
    """Per orbit (RandomizedResponse.orbit_structure) every part of ``analyze rr:k=18`` answers, without the dense facet builder."""
    entered = _forbid(monkeypatch, ("privgeom.geometry._structure:kronecker_integer_rows",))
    code = main(["analyze", "rr:k=18,p=3/4"])
    out, err = capsys.readouterr()
    assert not entered and code == 0, (entered, code, err)
    assert "refused" not in out and "the 262144 facets form 1 orbit" in out
    assert "e^ε = 3 (ε = ln(3)); 262144 of 262144 original guarantees are lost" in out


#: (call, routines that must not run, fragments of the refusal)
PYTHON_ROWS: list[tuple[Callable[[], Any], tuple[Routine, ...], tuple[str, ...]]] = [
    (
        lambda: pg.relax(pg.parse_definition("dp:graph=hamming,k=4,exp_eps=3"), "triples"),
        ("privgeom.geometry._cone:Cone.project",),
        ("pg.set_limits(block_work=53248)",),
    ),
    (
        lambda: pg.DifferentialPrivacy(hamming_graph(5), exp_eps=3).row_cone().rays,
        ("networkx:bfs_tree",),
        ("max_rays=65536 or pg.set_limits(dp_rays=65536)",),
    ),
    (
        lambda: pg.optimal_mechanism(pg.parse_definition("dp:graph=path,n=100000,exp_eps=2")),
        ("privgeom.analyses.optimal._optimal_lp:_rows_lp", "privgeom.analyses.optimal._optimal_lp:special_lp"),
        ("max_lp_size=60000800002 or pg.set_limits(optimal_lp_size=60000800002)",),
    ),
    (
        lambda: pg.epsilon(pg.Mechanism.load(RR2), "hamming", max_work=10),
        ("privgeom.analyses.profiles._scan:_matrix_views",),
        ("max_work=288 or pg.set_limits(profile_work=288)",),
    ),
    (
        lambda: pg.relax_pairwise(pg.RandomizedResponse(12, "3/4"), "complete"),
        ("privgeom._core.domain:Domain.relation",),
        ("8,386,560 pairs", "pg.set_limits(relax_family=8386560)"),
    ),
    (
        lambda: pg.RandomizedResponse(27, "3/4"),
        ("privgeom._core.domain:Domain.bits",),
        ("2^27 datasets", "pg.set_limits(domain_size=134217728)"),
    ),
    (
        lambda: pg.DifferentialPrivacy(pg.Domain.labels([str(i) for i in range(1500)]).relation("complete"), exp_eps=2),
        ("privgeom._core.domain:Domain._edges",),
        ("max_edges=1124250 or pg.set_limits(graph_edges=1124250)",),
    ),
    (
        lambda: pg.parse_definition("dp:graph=path,n=1000000000,exp_eps=2"),
        ("privgeom.definitions._dp:DifferentialPrivacy.__init__",),
        ("pg.set_limits(domain_size=1000000001)",),
    ),
]


@pytest.mark.parametrize("call,routines,fragments", PYTHON_ROWS, ids=[r[2][0][:40] for r in PYTHON_ROWS])
def test_python_refuses_from_the_sizes(call, routines, fragments, monkeypatch):
    entered = _forbid(monkeypatch, routines)
    with pytest.raises(pg.SizeLimitError) as err:
        call()
    assert not entered, entered
    for fragment in fragments:
        assert fragment in str(err.value), (fragment, str(err.value))
    assert "--limit" not in str(err.value)


def test_the_forbidding_helper_detects_a_routine_that_runs(monkeypatch):
    """The table's check can fail: a routine that does run is reported."""
    entered = _forbid(monkeypatch, ("networkx:bfs_tree",))
    with pytest.raises(AssertionError, match="bfs_tree ran"):
        nx.bfs_tree(nx.path_graph(2), 0)
    assert entered == ["networkx:bfs_tree"]


def _cone_document(n: int) -> dict[str, Any]:
    """A cone definition in R^n: x_i ≤ 3 x_{i+1} around a cycle (every row a facet of ε-DP's kind)."""
    rows = []
    for i in range(n):
        row = [0] * n
        row[i], row[(i + 1) % n] = -1, 3
        rows.append(row)
    return {"privgeom": "cone-definition", "version": 1, "labels": [f"d{i}" for i in range(n)], "facets": rows}


def test_cone_rays_are_refused_from_the_document_before_preparing_it(monkeypatch, capsys, tmp_path):
    # a cone in R^70: its rays need double description, beyond the dd_dim limit of 64 dimensions — refused from the
    # document's 70 labels, before the definition's canonical form (an LP per row) is computed
    import json

    from privgeom.testing import assert_cli_refused, count_calls, forbid
    from privgeom.definitions import _cone_definition

    (tmp_path / "cone70.json").write_text(json.dumps(_cone_document(70)))
    forbid(monkeypatch, _cone_definition, "_face_of_ones")
    assert_cli_refused(
        ["rowcone", "cone:file={tmp}/cone70.json", "--rays"],
        ["ambient dimension 70", "refused before preparing the definition", "--limit dd_dim=70"],
        tmp_path,
        capsys,
    )
    assert_cli_refused(
        ["relax", "cone:file={tmp}/cone70.json", "--method", "block"],
        ["70 datasets exceed the double-description limit of 64", "--limit dd_dim=70"],
        tmp_path,
        capsys,
    )
    inline = "cone:json=" + json.dumps(_cone_document(70), separators=(",", ":"))
    assert_cli_refused(["rowcone", inline, "--rays"], ["ambient dimension 70", "--limit dd_dim=70"], tmp_path, capsys)
    # within the limit the same route prepares the definition once and answers: R^4, 4 facets, 4 rays
    monkeypatch.undo()
    prepared = count_calls(monkeypatch, _cone_definition, "_face_of_ones")
    (tmp_path / "cone4.json").write_text(json.dumps(_cone_document(4)))
    code = main(["rowcone", f"cone:file={tmp_path}/cone4.json", "--rays", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and prepared == [1] and len(data["facets"]) == 4 and len(data["rays"]) == 4


def test_semantics_all_is_refused_from_the_structure_before_the_guarantees(monkeypatch, capsys):
    # rr:k=12: 4,096 facets × 4,096 coefficients = 16,777,216 numbers, beyond the listed_coefficients limit:
    # refused from the structure's facet count, before the 4,096 guarantees are built
    entered = _forbid(monkeypatch, ("privgeom.cli._core:semantics",))
    code = main(["semantics", "rr:k=12,p=3/4", "--all"])
    err = capsys.readouterr().err
    assert entered == []
    assert code == 2 and "16,777,216 numbers" in err and "--limit listed_coefficients=16777216" in err, err
