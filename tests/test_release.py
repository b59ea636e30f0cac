"""Release habits: one version, a changelog with the rename table, removed names that name their replacement, and
the development configuration (.ci/run's four steps, ruff, mypy's unused-ignore check) where a maintainer expects it."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import json
import re
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

import privgeom as pg
from privgeom._core.removed import REMOVED, REMOVED_METHODS, RemovedMethod, removed_name_error

ROOT = Path(__file__).resolve().parents[1]
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
#: ``(package, name)`` of every removed name, the package as a module name.
ENTRIES = [
    (package if package == "privgeom" else f"privgeom.{package}", name)
    for package, table in REMOVED.items()
    for name in table
]


def _replacement(package: str, name: str) -> str:
    return REMOVED[package.removeprefix("privgeom.")][name]


# ------------------------------------------------------------------------------------------------------ version
def _written_version() -> str:
    tree = ast.parse((ROOT / "privgeom" / "_version.py").read_text(encoding="utf-8"))
    return next(
        ast.literal_eval(n.value)
        for n in tree.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__version__"
    )


def test_the_version_is_written_once() -> None:
    assert pg.__version__ == _written_version() == "0.2.0"
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "privgeom._version.__version__"}
    # no second literal: no `__version__ = "…"` and no version string anywhere else in the package
    others = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "privgeom").rglob(PY_FILES)
        if p.name != "_version.py"
        and (
            re.search(r"^__version__\s*=", p.read_text(encoding="utf-8"), re.M)
            or f'"{pg.__version__}"' in p.read_text(encoding="utf-8")
        )
    ]
    assert not others, others


def _installed_from_this_tree() -> bool:
    try:
        dist = importlib.metadata.distribution("privgeom")
    except importlib.metadata.PackageNotFoundError:
        return False
    if Path(str(dist.locate_file(""))).resolve() == ROOT:  # the editable build's privgeom.egg-info in this tree
        return True
    text = dist.read_text("direct_url.json")  # an editable install's record of where its source is
    if not text:
        return False
    url = json.loads(text).get("url", "")
    return url.startswith("file:") and Path(unquote(urlparse(url).path)).resolve() == ROOT


def test_the_installed_metadata_reads_the_same_version() -> None:
    if not _installed_from_this_tree():
        pytest.skip("the installed privgeom distribution is not an editable install of this checkout")
    assert importlib.metadata.version("privgeom") == pg.__version__


# ------------------------------------------------------------------------------------------------------ changelog
def test_the_changelog_opens_with_unreleased_then_this_version() -> None:
    sections = re.findall(r"^## \[([^\]]+)\]", CHANGELOG, re.M)
    assert sections[:2] == ["Unreleased", pg.__version__], sections
    assert "keepachangelog.com" in CHANGELOG
    for heading in ("### Added", "### Changed", "### Removed"):
        assert heading in CHANGELOG.split(f"## [{pg.__version__}]")[1].split("\n## [")[0], heading


def test_the_changelog_table_lists_every_removed_name_with_its_replacement() -> None:
    rows = dict(re.findall(r"^\| `([\w.]+)` \| (.+) \|$", CHANGELOG, re.M))
    for package, name in ENTRIES:
        short = "pg" if package == "privgeom" else package.replace("privgeom.", "pg.")
        assert f"{short}.{name}" in rows, f"{short}.{name} is missing from CHANGELOG.md's table"
        assert rows[f"{short}.{name}"].replace("\\|", "|") == _replacement(package, name), name


# ------------------------------------------------------------------------------------------------------ removed names
@pytest.mark.parametrize(("package", "name"), ENTRIES, ids=[f"{p}.{n}" for p, n in ENTRIES])
def test_a_removed_name_answers_with_its_replacement(package: str, name: str) -> None:
    module = importlib.import_module(package)
    with pytest.raises(AttributeError) as info:
        getattr(module, name)
    assert str(info.value) == f"{package}.{name} was removed in 0.2; use {_replacement(package, name)}"
    assert not hasattr(module, name) and name not in getattr(module, "__all__", ())


#: How a replacement's text names its objects: ``pg.x`` is ``privgeom.x``; ``voting.x``/``smoothed.x`` are the
#: subpackages; ``d.x`` a definition's method, ``M``/``Mechanism.x`` a mechanism's, ``Cone.x`` a cone's.
PREFIXES = {
    "pg": "privgeom",
    "privgeom": "privgeom",
    "voting": "privgeom.voting",
    "smoothed": "privgeom.smoothed",
    "d": "privgeom.PrivacyDefinition",
    "Mechanism": "privgeom.Mechanism",
    "Cone": "privgeom.Cone",
}


def _resolve(dotted: str) -> object:
    head, *rest = dotted.split(".")
    obj: object = importlib.import_module("privgeom")
    for part in PREFIXES[head].split(".")[1:] + rest:
        obj = getattr(obj, part) if not isinstance(obj, dict) else obj[part]
    return obj


@pytest.mark.parametrize(("package", "name"), ENTRIES, ids=[f"{p}.{n}" for p, n in ENTRIES])
def test_every_replacement_exists(package: str, name: str) -> None:
    text = _replacement(package, name)
    names = re.findall(r"(?<![\w.\"])((?:pg|privgeom|voting|smoothed|d|Mechanism|Cone)(?:\.[A-Za-z_]\w*)+)", text)
    assert names, f"{package}.{name}: the replacement {text!r} names no object"
    for dotted in names:
        assert _resolve(dotted) is not None, dotted


def test_an_unknown_name_still_fails_plainly() -> None:
    assert str(removed_name_error("privgeom", "no_such_name")) == "module 'privgeom' has no attribute 'no_such_name'"
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        pg.voting.no_such_name  # noqa: B018


def test_no_removed_name_is_public_again() -> None:
    for package, table in REMOVED.items():
        module = importlib.import_module(package if package == "privgeom" else f"privgeom.{package}")
        exported = set(getattr(module, "__all__", ()))
        assert not exported & set(table), (package, exported & set(table))


#: ``(class, method)`` of every method that became a function, with an instance of the class to read it from.
METHODS = [(owner, name) for owner, table in REMOVED_METHODS.items() for name in table]
INSTANCES = {
    "PrivacyDefinition": lambda: pg.RandomizedResponse(1, "3/4"),
    "ConeDefinition": lambda: pg.ConeDefinition(pg.RandomizedResponse(1, "3/4").row_cone()),
}


@pytest.mark.parametrize(("owner", "name"), METHODS, ids=[f"{o}.{n}" for o, n in METHODS])
def test_a_removed_method_answers_with_its_function(owner: str, name: str) -> None:
    use = REMOVED_METHODS[owner][name]
    message = f"{owner}.{name} was removed in 0.2; use {use}"
    cls = getattr(pg, owner)
    assert isinstance(cls.__dict__[name], RemovedMethod)
    instance = INSTANCES[owner]()
    subclass = type(instance)  # a subclass inherits the answer, which names the class that had the method
    for holder in (cls, subclass, instance):
        with pytest.raises(AttributeError) as info:
            getattr(holder, name)
        assert str(info.value) == message
        assert not hasattr(holder, name)
    function = _resolve(use.split("(")[0])
    assert callable(function) and function.__module__ == "privgeom.analyses.design._design"
    rows = dict(re.findall(r"^\| `([\w.]+)` \| (.+) \|$", CHANGELOG, re.M))
    assert rows.get(f"{owner}.{name}") == use, f"{owner}.{name} is missing from CHANGELOG.md's table"


def test_the_design_functions_replace_the_methods_with_the_same_answers() -> None:
    rr = pg.RandomizedResponse(2, "3/4")
    # RR(2, 3/4)'s facets are the columns of the Kronecker inverse of M_rr (Theorem 4.3), scaled: [9, -3, -3, 1] first
    dropped = pg.without(rr, [0])
    assert [9, -3, -3, 1] not in dropped.row_cone().int_facets.tolist()
    assert pg.compare(dropped, rr).relation == "superset"
    kept = pg.only(rr, lambda g: True)
    assert pg.compare(kept, rr).relation == "equal"
    back = pg.from_guarantees(pg.semantics(rr), rr.inputs)
    assert pg.compare(back, rr).relation == "equal" and back.redundant == ()


def test_a_removed_method_entry_needs_its_replacement() -> None:
    # a class body binding RemovedMethod to a name missing from REMOVED_METHODS fails when the class is made
    with pytest.raises(TypeError, match=r"PrivacyDefinition\.shiny is not in REMOVED_METHODS"):
        RemovedMethod().__set_name__(pg.PrivacyDefinition, "shiny")


# ------------------------------------------------------------------------------------------------------ tooling
def test_ci_runs_lint_types_tests_and_docs_as_separate_steps() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r'steps=\("\$\{@:-lint types tests docs\}"\)', ci)
    for step, command in (
        ("lint", "bootstrap.sh lint"),
        ("types", "bootstrap.sh types"),
        ("tests", "bootstrap.sh test --ignore"),
        ("docs", 'bootstrap.sh test "$DOCS_TEST"'),
    ):
        assert re.search(rf"^\s+{step}\) bash scripts/{re.escape(command)}", ci, re.M), step
    boot = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    assert "ruff check" in boot and "ruff format --check" in boot and "-m mypy" in boot


def test_lint_and_type_configuration() -> None:
    ruff = PYPROJECT["tool"]["ruff"]
    assert ruff["line-length"] == 120 and "format" in ruff and ruff["lint"]["select"]
    assert PYPROJECT["tool"]["mypy"]["warn_unused_ignores"] is True
    assert any(dep.startswith("ruff") for dep in PYPROJECT["project"]["optional-dependencies"]["test"])
    hooks = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "ruff check" in hooks and "ruff format" in hooks and "mypy" in hooks
