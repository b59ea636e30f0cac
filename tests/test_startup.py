"""A fast start: ``import privgeom`` and the command line load heavy modules on first use only.

The public names resolve through PEP 562 ``__getattr__``; registries that modules fill when imported (size limits,
renderers, commands) load those modules before they are read. Each check that a module is *not*
imported runs in a fresh interpreter (this test process has imported everything). No timing here: the start-up
times are measured by ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import privgeom

ROOT = Path(__file__).resolve().parents[1]
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"
#: Third-party modules that ``import privgeom`` must not import (each costs 0.1–0.5 s).
HEAVY = ("networkx", "scipy.optimize", "scipy.sparse", "cdd", "sympy", "matplotlib", "cvxpy", "dask", "pandas")
SUBPACKAGES = ("analyses", "definitions", "geometry", "graphs", "mechanisms", "plots", "smoothed", "sweeps", "voting")


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter (this checkout first on the path); its stdout."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _loaded_after(code: str) -> list[str]:
    """The modules of :data:`HEAVY` in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    out = _fresh(f"import sys\n{code}\nimport json; print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    return list(json.loads(out.strip().splitlines()[-1]))


def test_import_privgeom_loads_no_heavy_dependency() -> None:
    assert _loaded_after("import privgeom") == []


def test_a_voting_answer_loads_no_heavy_dependency() -> None:
    code = (
        "from privgeom.cli import main\n"
        "assert main(['voting', 'accuracy', 'majority', '-n', '100001', '--rho', '1/2']) == 0"
    )
    assert _loaded_after(code) == []


def test_help_loads_no_command_module() -> None:
    code = (
        "import contextlib, io\nfrom privgeom.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "assert not [m for m in sys.modules if m.startswith('privgeom.cli._') and m not in "
        "('privgeom.cli._main', 'privgeom.cli._registry', 'privgeom.cli._index')], sorted(sys.modules)"
    )
    assert _loaded_after(code) == []


def test_first_use_loads_what_it_needs() -> None:
    # the lazy names are the real objects, and reading one imports its module
    code = "import privgeom as pg\nassert pg.RandomizedResponse(1, '3/4').row_cone().n_facets == 2"
    assert "networkx" in _loaded_after(code)


@pytest.mark.parametrize("package", ("privgeom",) + tuple(f"privgeom.{p}" for p in SUBPACKAGES))
def test_every_public_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, (package, name)
    assert set(module.__all__) <= set(dir(module))


def test_public_names_resolve_to_their_definitions() -> None:
    from privgeom.analyses.profiles._profile import epsilon
    from privgeom.definitions._rr import RandomizedResponse

    assert privgeom.epsilon is epsilon and privgeom.analyses.epsilon is epsilon
    assert privgeom.RandomizedResponse is RandomizedResponse
    assert privgeom.voting is importlib.import_module("privgeom.voting")
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        privgeom.nonexistent  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        privgeom.analyses.nonexistent  # noqa: B018


def _all_modules() -> list[str]:
    return sorted(
        f"privgeom.{'.'.join(p.relative_to(ROOT / 'privgeom').with_suffix('').parts)}"
        for p in (ROOT / "privgeom").rglob(PY_FILES)
        if p.name != "__init__.py" and p.name != "__main__.py"
    )


def test_get_limits_in_a_fresh_process_lists_every_limit() -> None:
    for name in _all_modules():
        importlib.import_module(name)
    everything = sorted(privgeom.get_limits())
    fresh = json.loads(_fresh("import privgeom as pg, json; print(json.dumps(sorted(pg.get_limits())))"))
    assert fresh == everything
    assert len(everything) >= 30
    # a limit can be set in a fresh process before its module was imported
    out = _fresh(
        "import privgeom as pg; pg.set_limits(dd_dim=80); from privgeom.geometry import _cdd; print(_cdd.MAX_DD_DIM)"
    )
    assert out.strip() == "80"


def test_the_limit_modules_are_listed() -> None:
    registering = set()
    for path in (ROOT / "privgeom").rglob(PY_FILES):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "register_limit" for n in ast.walk(tree)):
            registering.add("privgeom." + ".".join(path.relative_to(ROOT / "privgeom").with_suffix("").parts))
    registering -= {"privgeom._core.limits"}  # registers its own limits when imported
    assert registering <= set(privgeom._LIMIT_MODULES), sorted(registering - set(privgeom._LIMIT_MODULES))


def test_design_operations_and_renderers_load_on_first_use() -> None:
    code = (
        "import privgeom as pg\n"
        "assert pg.RandomizedResponse(1, '3/4').nearest(pg.randomized_response(1, '4/5')).certificate.optimal\n"
        "assert 'privgeom.analyses.design._design' not in sys.modules\n"
        "assert 'privgeom.display._renderers' not in sys.modules\n"
        "assert pg.without(pg.RandomizedResponse(1, '3/4'), [0]).row_cone().n_facets == 2\n"
        "print(pg.to_latex(pg.randomized_response(1, '3/4')))"
    )
    out = _fresh("import sys\n" + code)
    from privgeom._core.display import to_latex

    assert out.strip() == to_latex(privgeom.randomized_response(1, "3/4")).strip()
    assert "pmatrix" in out


def test_the_command_index_matches_the_registry() -> None:
    from privgeom.cli._index import COMMAND_INDEX
    from privgeom.cli._main import build_parser
    from privgeom.cli._registry import COMMANDS, GROUPS

    build_parser()  # imports every command module
    registered = [(n, c.help) for n, c in COMMANDS.items()] + [(n, g.help) for n, g in GROUPS.items()]
    assert {n: h for n, (_, h) in COMMAND_INDEX.items()} == dict(registered)
    for name, (module, _) in COMMAND_INDEX.items():
        cmd = COMMANDS.get(name) or GROUPS[name].children[next(iter(GROUPS[name].children))]
        assert cmd.run.__module__ in (module, "privgeom.cli._paper"), (name, module)


def test_help_lists_every_command_as_the_full_parser_does() -> None:
    from privgeom.cli._main import _parser_for, build_parser

    full = build_parser().format_help()
    assert _parser_for(["--help"]).format_help() == full
    from privgeom.cli._index import COMMAND_INDEX

    for name in COMMAND_INDEX:
        assert f"    {name}" in full, name


def test_help_in_a_fresh_process_lists_every_command() -> None:
    from privgeom.cli._main import build_parser
    from privgeom.cli._registry import COMMANDS, GROUPS

    build_parser()
    out = _fresh("import sys\nfrom privgeom.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    for name in list(COMMANDS) + list(GROUPS):
        assert f"\n    {name}" in out, name


def _options(parser: object) -> dict[str, set[str]]:
    import argparse

    assert isinstance(parser, argparse.ArgumentParser)
    out: dict[str, set[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for child, opts in _options(sub).items():
                    out[f"{name} {child}".strip()] = opts
    out[""] = {s for a in parser._actions for s in a.option_strings}
    return out


def test_a_command_parses_as_with_the_full_parser() -> None:
    # the parser of one run (the command's module only) has the command's full set of options, --latex etc. included
    from privgeom.cli._index import COMMAND_INDEX
    from privgeom.cli._main import _parser_for, build_parser

    full = _options(build_parser())
    for name in COMMAND_INDEX:
        mine = _options(_parser_for([name]))
        for path, opts in full.items():
            if path.split(" ")[0] == name:
                assert mine[path] == opts, path


def test_the_startup_benchmark_runs() -> None:
    # benchmarks/bench_startup.py --quick (this file names it, so tests/test_examples.py leaves it to this test)
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_startup.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert [line.split("  ")[0] for line in lines[2:]] == [
        'python -c "import numpy"',
        'python -c "import privgeom"',
        "privgeom --help",
        "privgeom voting accuracy majority -n 100001 --rho 1/2",
    ]
    assert lines[2].split()[-1] == "1.0" and lines[2].split()[-3] == "1.0"  # the numpy row is the unit


@pytest.mark.parametrize("package", ["privgeom", "privgeom.analyses"])
def test_the_lazy_table_matches_the_type_checking_imports(package: str) -> None:
    # mypy reads the imports under `if TYPE_CHECKING:`, the interpreter the lazy table: each name imported for the
    # type checker resolves at run time to the object it names, and every public name is either imported at once
    # or imported for the type checker
    module = importlib.import_module(package)
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    typed = {}
    for node in ast.walk(block):
        if isinstance(node, ast.ImportFrom):
            source = importlib.import_module("." * node.level + (node.module or ""), package)
            for a in node.names:
                typed[a.asname or a.name] = getattr(source, a.name)
    assert len(typed) >= 20  # the block was found and read
    for name, value in typed.items():
        assert getattr(module, name) is value, name
    eager = set(_fresh(f"import {package} as m; print(' '.join(vars(m)))").split())
    assert set(module.__all__) <= eager | set(typed), sorted(set(module.__all__) - eager - set(typed))
