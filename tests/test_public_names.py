"""A lean public surface: at most 132 distinct public names, each documented with an example.

The public names are the union of the ``__all__`` of :mod:`privgeom` and its public subpackages. Result and
certificate types that users only receive, and the kernels and formatters underneath, are not public: they live in
the private modules (``privgeom.x._y``), where tests and the package's own code import them. Run with ``-s`` to see
the count.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
import sys
import types
from pathlib import Path

import pytest

import privgeom

ROOT = Path(__file__).resolve().parents[1]
#: Variables, not literals: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES, NOTEBOOKS, MARKDOWN = "*.py", "*.ipynb", "*.md"

#: The packages whose ``__all__`` make the public surface (a ``paper`` namespace counts when it exists).
PACKAGES = (
    "privgeom",
    "privgeom.analyses",
    "privgeom.definitions",
    "privgeom.geometry",
    "privgeom.mechanisms",
    "privgeom.graphs",
    "privgeom.voting",
    "privgeom.voting.paper",
    "privgeom.smoothed",
    "privgeom.smoothed.paper",
    "privgeom.sweeps",
    "privgeom.plots",
    "privgeom.cli",
    "privgeom.amplification",
)
#: The budget of public names. 0.2 cut the surface from 251 names to 117 under a cap of 120. The cap is 125 since
#: release 0.2 added five capabilities that are names of their own, none an alias or a received type: the
#: ``results`` namespace (where received types live, so they stay out of this count), the ``limits`` context, and
#: composition and amplification (``compose``, ``shuffled``, ``subsampled``). Raising it again needs the same kind
#: of reason: a new capability, never a second spelling. It is 128 since the design operations ``from_guarantees``,
#: ``without`` and ``only`` became functions of ``pg`` (they were methods of the definition classes, which no longer
#: have them: the same capabilities, one spelling each). It is 132 since amplification shows its
#: work: the report on shuffled and subsampled definitions and the published bounds it is compared with (FMT's clone
#: bound, the privacy blanket, Balle–Barthe–Gaboardi, the subsample's law) — the CLI printed them from private
#: modules before — and the command line's parser is public for programs that embed it.
MAX_PUBLIC_NAMES = 132

#: Names of a subpackage's ``__all__`` that are not top-level names, with the reason.
NOT_TOP_LEVEL = {
    ("privgeom.sweeps", "register_query"): "the extension point of sweeps, read as pg.sweeps.register_query",
    ("privgeom.cli", "main"): "the console-script entry point (privgeom = privgeom.cli:main)",
    ("privgeom.cli", "build_parser"): "the argument parser, for programs that embed the command line",
    ("privgeom.amplification", "amplification_report"): "the shuffled or subsampled definition's report",
    ("privgeom.amplification", "fmt_delta"): "a published bound, compared with the exact profile",
    ("privgeom.amplification", "blanket_delta"): "a published bound, compared with the exact profile",
    ("privgeom.amplification", "bbg_bound"): "a published bound, compared with the exact profile",
    ("privgeom.amplification", "sampling_law"): "the subsample's histogram law behind pg.subsampled",
}
#: Subpackages with their own vocabulary (rules, paper checks), reached as ``pg.voting.x`` / ``pg.smoothed.x``.
OWN_VOCABULARY = ("privgeom.voting", "privgeom.smoothed")

#: Top-level names documented by a ``#:`` comment in ``privgeom/__init__.py`` rather than a docstring: type aliases
#: are ``typing`` objects, which carry no docstring of their own (Sphinx reads the comment).
ALIASES = ("LevelLike", "ScalarLike", "RelationLike", "InputsLike")


def _existing(packages: tuple[str, ...]) -> list[types.ModuleType]:
    modules = []
    for name in packages:
        if importlib.util.find_spec(name) is not None:
            modules.append(importlib.import_module(name))
    return modules


def public_names() -> dict[str, list[str]]:
    """``name -> [packages whose __all__ lists it]`` over :data:`PACKAGES`."""
    where: dict[str, list[str]] = {}
    for module in _existing(PACKAGES):
        for name in module.__all__:
            where.setdefault(name, []).append(module.__name__)
    return where


def test_at_most_132_public_names() -> None:
    where = public_names()
    per_package = {m.__name__: len(m.__all__) for m in _existing(PACKAGES)}
    message = f"{len(where)} distinct public names (budget {MAX_PUBLIC_NAMES}); per package: " + ", ".join(
        f"{k} {v}" for k, v in per_package.items()
    )
    print(f"\n{message}")
    assert len(where) <= MAX_PUBLIC_NAMES, message


#: The share of the budget outside voting (24) and smoothed (12), the two subpackages with their own vocabulary.
MAX_CORE_NAMES = MAX_PUBLIC_NAMES - 24 - 12


def test_the_core_keeps_room_for_voting_and_smoothed() -> None:
    core = {
        name
        for module in _existing(PACKAGES)
        if not module.__name__.startswith(OWN_VOCABULARY)
        for name in module.__all__
    }
    print(f"\n{len(core)} public names outside voting and smoothed (share {MAX_CORE_NAMES})")
    assert len(core) <= MAX_CORE_NAMES, sorted(core)


def test_every_public_name_resolves_and_is_unique_per_package() -> None:
    for module in _existing(PACKAGES):
        assert len(module.__all__) == len(set(module.__all__)), module.__name__
        for name in module.__all__:
            assert getattr(module, name) is not None, (module.__name__, name)


def test_subpackages_export_only_top_level_names() -> None:
    # a public name has one home at the top level; the subpackage __all__ is the same object under a longer path
    top = set(privgeom.__all__)
    for module in _existing(PACKAGES[1:]):
        if module.__name__.startswith(OWN_VOCABULARY):
            continue
        for name in module.__all__:
            if (module.__name__, name) in NOT_TOP_LEVEL:
                continue
            assert name in top, f"{module.__name__}.{name} is public but not a top-level name"
            assert getattr(privgeom, name) is getattr(module, name), (module.__name__, name)
    for package, name in NOT_TOP_LEVEL:
        assert name in importlib.import_module(package).__all__, (package, name)


def _examples(doc: str | None) -> bool:
    return bool(doc) and re.search(r"^\s*Examples\n\s*-{8}", doc or "", re.M) is not None and ">>>" in (doc or "")


@pytest.mark.parametrize("name", [n for n in privgeom.__all__ if n not in ALIASES])
def test_every_top_level_name_has_a_docstring_with_examples(name: str) -> None:
    obj = getattr(privgeom, name)
    assert _examples(inspect.getdoc(obj) if not isinstance(obj, types.ModuleType) else obj.__doc__), (
        f"privgeom.{name} needs a docstring with an Examples section (numpydoc, runnable)"
    )


def test_the_aliases_are_documented_where_they_are_bound() -> None:
    lines = (ROOT / "privgeom" / "__init__.py").read_text(encoding="utf-8").splitlines()
    for alias in ALIASES:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{alias}:"))
        assert lines[at - 1].startswith("#: "), alias


# ------------------------------------------------------------------------------------ no hidden public names
#: Public packages (whose ``__init__`` has an ``__all__``) and their exported names, read from the sources.
def _exports() -> dict[str, set[str]]:
    out = {}
    for init in (ROOT / "privgeom").rglob("__init__.py"):
        package = ".".join(init.relative_to(ROOT).parent.parts)
        if any(part.startswith("_") for part in package.split(".")):
            continue
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                out[package] = set(ast.literal_eval(node.value))
    return out


def _exported(exports: dict[str, set[str]], package: str, name: str) -> bool:
    if name.startswith("_") or name in exports[package] or name == "__version__":
        return True
    folder = ROOT / package.replace(".", "/")
    return (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()  # a submodule


def _python_files() -> list[Path]:
    return sorted(
        p
        for top in ("privgeom", "tests", "examples", "benchmarks", "docs")
        for p in (ROOT / top).rglob(PY_FILES)
        if "_build" not in p.parts and "generated" not in p.parts
    )


def _package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1])


def test_no_code_imports_a_name_a_package_does_not_export() -> None:
    # `from privgeom.analyses import hockey_stick` would keep a private kernel reachable under a public path:
    # private names are imported from their modules (`privgeom.analyses.profiles._profile`)
    exports = _exports()
    bad = []
    for path in _python_files():
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = _package_of(path).split(".")
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target in exports and path != ROOT / target.replace(".", "/") / "__init__.py":
                bad += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {target}.{a.name}"
                    for a in node.names
                    if not _exported(exports, target, a.name)
                ]
        for lineno, line in enumerate(source.splitlines(), 1):  # doctests
            m = re.match(r"\s*>>> from (privgeom(?:\.\w+)*) import ([\w, ]+)$", line)
            if m and m.group(1) in exports:
                bad += [
                    f"{path.relative_to(ROOT)}:{lineno} {m.group(1)}.{n.strip()}"
                    for n in m.group(2).split(",")
                    if not _exported(exports, m.group(1), n.strip().split(" ")[0])
                ]
    assert not bad, f"imports of names their package does not export: {bad}"


def test_readme_docs_and_examples_use_public_names() -> None:
    exports = _exports()
    texts = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob(MARKDOWN)),
        *sorted((ROOT / "examples").glob(PY_FILES)),
        *sorted((ROOT / "examples").glob(NOTEBOOKS)),
    ]
    bad = []
    for path in texts:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in re.finditer(r"(?<![\w.])pg\.([A-Za-z]\w*)", line):
                if not _exported(exports, "privgeom", m.group(1)):
                    bad.append(f"{path.relative_to(ROOT)}:{lineno} pg.{m.group(1)}")
    assert not bad, f"non-public names in README, docs or examples: {bad}"


if __name__ == "__main__":  # pragma: no cover
    print(len(public_names()))
    sys.exit(0)
