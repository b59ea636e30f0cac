"""The import graph of ``privgeom`` follows docs/ARCHITECTURE.md, and tests import each other only by package name.

Every module under ``privgeom/`` is parsed with :mod:`ast` (nothing is imported), including the imports inside
functions, and its imports are resolved to modules (relative imports included; ``from . import x`` is the module
``x`` when ``x`` is a submodule, else the package's ``__init__``). Imports guarded by ``if TYPE_CHECKING:`` do not
run and are ignored; dynamic imports (``importlib.import_module``) are not seen.

Rules:

1. **No cycle between sibling modules** (the modules of one package, e.g. ``definitions/_base.py`` and
   ``definitions/_rows.py``), whether the imports are at module level or inside functions. A package ``__init__`` is
   its façade: it imports its submodules by design, so it is not a node of its package's graph; in exchange a
   submodule never imports its own package's ``__init__`` (``from . import name`` of a re-exported name, or
   ``from privgeom.definitions import X`` inside ``definitions/``), which would be a cycle through the façade.
   The root package counts its top-level modules (``_numeric.py``, ``_display.py``, …) as siblings.
2. **No private name crosses a package boundary**: ``from ..analyses.profiles._profile import _fmt`` in ``plots/`` is
   refused (promote the helper: give it a public name in its module). Importing a public name from another
   package's private module (``from ..geometry._lp import solve_lp``) or the private module itself
   (``from ..geometry import _cdd``) is fine, but an underscore attribute of such a module (``_cdd._helper``) is
   not.
3. **Layers** (docs/ARCHITECTURE.md): a module imports only its own layer or lower ones, at module level *and*
   inside functions, except for the imports listed in :data:`UPWARD_ALLOWED` (each with its reason; the list is
   empty: every upward dependency was turned into a registry filled from above or moved down). Two packages of one
   layer may not depend on each other both ways.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "privgeom"
TESTS = ROOT / "tests"
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"

#: Layer of each package (docs/ARCHITECTURE.md: imports only go downwards). The root package's own modules are the
#: base layer (errors, numerics, results, Domain, PrivacyLevel, I/O, the display dispatch) except the façade
#: (``privgeom/__init__.py``, ``__main__.py``), ``results.py`` (the namespace of every layer's result types) and
#: ``_version.py``, which sit on top. The renderers of every layer's types are the package ``privgeom.display``.
LAYERS: dict[str, int] = {
    "privgeom": 0,
    "privgeom._core": 0,
    "privgeom.data": 0,
    "privgeom.mechanisms": 1,
    "privgeom.graphs": 1,
    "privgeom.geometry": 2,
    "privgeom.definitions": 3,
    "privgeom.analyses": 4,
    "privgeom.voting": 5,
    "privgeom.smoothed": 5,
    "privgeom.amplification": 5,
    "privgeom.sweeps": 6,
    "privgeom.plots": 7,
    "privgeom.display": 7,
    "privgeom.cli": 7,
    "privgeom.testing": 9,
}
TOP = 8
TOP_MODULES = {"privgeom", "privgeom.__main__", "privgeom.results", "privgeom._version"}

#: Upward imports tolerated (importer, imported module) -> reason. Keep it empty; an entry needs a reason why a
#: registry filled from above (or moving the shared piece down) does not work.
UPWARD_ALLOWED: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool

    @property
    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class Import:
    source: str  # importing module
    target: str  # imported module (a package name means its __init__)
    name: str | None  # the name imported from ``target`` (None: the module itself)
    line: int
    in_function: bool

    def where(self) -> str:
        what = f"{self.target}.{self.name}" if self.name else self.target
        return f"{self.source}:{self.line} imports {what}{' (inside a function)' if self.in_function else ''}"


def _modules() -> dict[str, Module]:
    out = {}
    for path in sorted(PACKAGE.rglob(PY_FILES)):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = Module(".".join(parts), path, is_package)
    return out


MODULES = _modules()


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (not run)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def _function_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    return inside


def _resolve_from(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.package.split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _parse(module: Module) -> tuple[list[Import], list[tuple[str, str, int]]]:
    """The module's imports of privgeom modules, and the underscore attributes it reads from module aliases
    imported from other packages: ``(alias target module, attribute, line)``."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))
    skip, inside = _type_checking_nodes(tree), _function_nodes(tree)
    imports: list[Import] = []
    aliases: dict[str, str] = {}  # local name -> imported privgeom module (module imports only)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "privgeom" or a.name.startswith("privgeom."):
                    imports.append(Import(module.name, a.name, None, node.lineno, id(node) in inside))
                    if a.asname:
                        aliases[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(module, node)
            if base != "privgeom" and not base.startswith("privgeom."):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in MODULES:
                    imports.append(Import(module.name, sub, None, node.lineno, id(node) in inside))
                    aliases[a.asname or a.name] = sub
                else:
                    imports.append(Import(module.name, base, a.name, node.lineno, id(node) in inside))
    attributes = [
        (aliases[n.value.id], n.attr, n.lineno)
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in aliases
    ]
    return imports, attributes


PARSED = {name: _parse(m) for name, m in MODULES.items()}
IMPORTS = [imp for imports, _ in PARSED.values() for imp in imports]


def unit(name: str) -> str:
    """The package of :data:`LAYERS` a module belongs to: the longest key that is a prefix of its package (the
    topic folders of ``analyses/`` belong to ``privgeom.analyses``)."""
    package = MODULES[name].package
    keys = [k for k in LAYERS if package == k or package.startswith(k + ".")]
    return max(keys, key=len)


def _layer(name: str) -> int:
    if name in TOP_MODULES:
        return TOP
    return LAYERS[unit(name)]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _fail(title: str, offenders: list[str]) -> None:
    if offenders:
        pytest.fail(f"{title} ({len(offenders)}):\n  " + "\n  ".join(sorted(set(offenders))), pytrace=False)


# ------------------------------------------------------------------------------------------------------ the graph
def test_every_import_resolves_to_a_module() -> None:
    unknown = [imp.where() for imp in IMPORTS if imp.target not in MODULES]
    _fail("imports of privgeom modules that do not exist", unknown)


def test_every_package_has_a_layer() -> None:
    missing = sorted({m.package for m in MODULES.values() if unit(m.name) == "privgeom" and m.package != "privgeom"})
    assert not missing, f"packages without a layer in LAYERS (add them, following docs/ARCHITECTURE.md): {missing}"


def sibling_graph(imports: list[Import]) -> dict[str, nx.DiGraph]:
    """One directed graph per package: its (non-``__init__``) modules and the imports between them."""
    graphs: dict[str, nx.DiGraph] = {}
    for imp in imports:
        src, dst = MODULES[imp.source], MODULES.get(imp.target)
        if dst is None or src.is_package or dst.is_package or src.name == dst.name or src.package != dst.package:
            continue
        g = graphs.setdefault(src.package, nx.DiGraph())
        g.add_edge(src.name, dst.name)
        g.edges[src.name, dst.name].setdefault("at", []).append(imp)
    return graphs


def sibling_cycles(imports: list[Import]) -> list[str]:
    out = []
    for package, g in sorted(sibling_graph(imports).items()):
        for component in nx.strongly_connected_components(g):
            if len(component) < 2:
                continue
            sub = g.subgraph(component)
            cycle = next(iter(nx.simple_cycles(sub)))
            steps = []
            for a, b in zip(cycle, cycle[1:] + cycle[:1]):
                first = sub.edges[a, b]["at"][0]
                steps.append(
                    f"{a.rpartition('.')[2]} -> {b.rpartition('.')[2]} (line {first.line}"
                    f"{', in a function' if first.in_function else ''})"
                )
            out.append(
                f"{package}: {len(component)} modules {sorted(c.rpartition('.')[2] for c in component)} "
                f"form a cycle, e.g. " + ", ".join(steps)
            )
    return out


def test_no_cycle_between_sibling_modules() -> None:
    _fail(
        "import cycles between modules of one package (move the shared piece into the lower module or a new "
        "private module both import, or fill a registry from the upper module)",
        sibling_cycles(IMPORTS),
    )


def hidden_imports(module: Module) -> list[Import]:
    """What the import rules above do not run but a reader (and a type checker) still follows: imports under
    ``if TYPE_CHECKING:``, and module names written as strings (``importlib.import_module("privgeom.x._y")``, tables
    of modules to load on first use)."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))
    typing_only = _type_checking_nodes(tree)
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    out = []
    for node in ast.walk(tree):
        if id(node) in typing_only and isinstance(node, ast.ImportFrom):
            base = _resolve_from(module, node)
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append(Import(module.name, sub if sub in MODULES else base, None, node.lineno, False))
        elif id(node) in typing_only and isinstance(node, ast.Import):
            out.extend(Import(module.name, a.name, None, node.lineno, False) for a in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in MODULES and node.value != "privgeom":
                out.append(Import(module.name, node.value, None, node.lineno, True))
    return [imp for imp in out if imp.target in MODULES]


HIDDEN = [imp for m in MODULES.values() for imp in hidden_imports(m)]


def module_cycles(imports: list[Import]) -> list[str]:
    """Cycles in the whole import graph of ``privgeom``: every module, across packages and folders (a package's
    ``__init__`` is a node too, as the module that runs on ``import privgeom.x``)."""
    g = nx.DiGraph()
    for imp in imports:
        if imp.target in MODULES and imp.source != imp.target:
            g.add_edge(imp.source, imp.target)
    out = []
    for component in nx.strongly_connected_components(g):
        if len(component) > 1:
            cycle = next(iter(nx.simple_cycles(g.subgraph(component))))
            out.append(f"{len(component)} modules form a cycle, e.g. " + " -> ".join(cycle + cycle[:1]))
    return out


def test_no_cycle_anywhere_in_the_import_graph() -> None:
    _fail(
        "import cycles across the package, counting imports for type checkers and module names in strings "
        "(move the shared piece down; a registry filled from above is loaded by the package's façade, which "
        "imports downwards)",
        module_cycles(IMPORTS + HIDDEN),
    )


def test_no_submodule_imports_its_own_package_init() -> None:
    offenders = [
        imp.where() + " (its own package's __init__: a cycle through the façade; import the submodule)"
        for imp in IMPORTS
        if not MODULES[imp.source].is_package
        and MODULES.get(imp.target) is not None
        and MODULES[imp.target].is_package
        and imp.target == MODULES[imp.source].package
    ]
    _fail("submodules importing their own package", offenders)


# ------------------------------------------------------------------------------------------------ private names
def test_no_private_name_crosses_a_package_boundary() -> None:
    offenders = []
    for imp in IMPORTS:
        dst = MODULES.get(imp.target)
        if dst is None or unit(dst.name) == unit(imp.source):
            continue
        if imp.name is not None and _private(imp.name):
            offenders.append(imp.where())
    for name, (_, attributes) in PARSED.items():
        for target, attr, line in attributes:
            if unit(target) != unit(name) and _private(attr):
                offenders.append(f"{name}:{line} reads {target}.{attr}")
    _fail("private names used across packages (give the helper a public name in its module)", offenders)


# ------------------------------------------------------------------------------------------------------- layers
def upward_imports(imports: list[Import]) -> list[str]:
    out = []
    for imp in imports:
        if imp.target not in MODULES or (imp.source, imp.target) in UPWARD_ALLOWED:
            continue
        lo, hi = _layer(imp.source), _layer(imp.target)
        if hi > lo:
            out.append(f"{imp.where()}: layer {lo} -> layer {hi}")
    return out


def test_imports_only_go_down_the_layers() -> None:
    _fail(
        "imports going up the layers of docs/ARCHITECTURE.md (type-checking imports and module names in strings "
        "included)",
        upward_imports(IMPORTS + HIDDEN),
    )


def test_packages_of_one_layer_do_not_depend_on_each_other_both_ways() -> None:
    pairs: dict[tuple[str, str], Import] = {}
    for imp in IMPORTS:
        if imp.target not in MODULES or imp.source in TOP_MODULES or imp.target in TOP_MODULES:
            continue
        a, b = unit(imp.source), unit(imp.target)
        if a != b and LAYERS[a] == LAYERS[b]:
            pairs.setdefault((a, b), imp)
    both = [f"{pairs[a, b].where()} and {pairs[b, a].where()}" for a, b in pairs if a < b and (b, a) in pairs]
    _fail("packages of one layer importing each other", both)


def test_the_allow_list_is_current() -> None:
    seen = {(imp.source, imp.target) for imp in IMPORTS}
    stale = [f"{a} -> {b}" for a, b in UPWARD_ALLOWED if (a, b) not in seen]
    assert not stale, f"UPWARD_ALLOWED lists imports that no longer exist: {stale}"


# ------------------------------------------------------------------------------------- the checks catch offenders
def _extra(source: str, target: str, name: str | None = None, in_function: bool = True) -> Import:
    return Import(source, target, name, 1, in_function)


def test_the_checks_see_an_introduced_cycle_and_upward_import() -> None:
    """Guards the guards: an extra import inside a function is reported by each rule."""
    cycle = sibling_cycles(IMPORTS + [_extra("privgeom.definitions._rows", "privgeom.definitions._base")])
    assert any("_base" in c and "_rows" in c for c in cycle), cycle
    assert upward_imports([_extra("privgeom.geometry._cone", "privgeom.definitions._dp")])
    across = module_cycles(IMPORTS + [_extra("privgeom._core.arrays", "privgeom.analyses.profiles._profile")])
    assert any("privgeom._core.arrays" in c for c in across), across


# -------------------------------------------------------------------------------------------------- module map
MAP_BEGIN = (
    "<!-- module map: generated from LAYERS in tests/test_architecture.py; regenerate with "
    "`python tests/test_architecture.py` -->"
)
MAP_END = "<!-- end of module map -->"
ARCHITECTURE_MD = ROOT / "docs" / "ARCHITECTURE.md"


def _summary(path: Path, width: int) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    line = doc.strip().split("\n")[0].rstrip(".")
    line = re.sub(r":(?:class|func|mod|meth|attr|data):`~?([^`]+)`", r"\1", line).replace("`", "")
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"


def render_module_map() -> str:
    """The layers of :data:`LAYERS` with every folder and module of ``privgeom/`` under its layer, each with the
    first line of its docstring: the map ``docs/ARCHITECTURE.md`` opens with."""
    by_layer: dict[int, list[str]] = {}
    for package in sorted({m.package for m in MODULES.values()}):
        layer = TOP if package == "privgeom" else LAYERS[unit(package)]
        by_layer.setdefault(layer, []).append(package)
    lines = []
    for layer in sorted(by_layer):
        lines.append(f"layer {layer}" + (" (the façade)" if layer == TOP else ""))
        for package in by_layer[layer]:
            folder = package.replace(".", "/") + "/"
            init = MODULES[package]
            modules = sorted(
                (
                    m
                    for m in MODULES.values()
                    if m.package == package and not m.is_package and (layer == TOP) == (m.name in TOP_MODULES)
                ),
                key=lambda m: m.name,
            )
            if layer == TOP:
                modules = [init] + modules
            else:
                lines.append(f"  {folder:<34} {_summary(init.path, 80)}")
            for m in modules:
                name = m.path.name if layer != TOP else f"privgeom/{m.path.name}"
                lines.append(f"    {name:<32} {_summary(m.path, 80)}")
    return "\n".join(lines)


def _documented_map() -> str | None:
    text = ARCHITECTURE_MD.read_text(encoding="utf-8")
    if MAP_BEGIN not in text or MAP_END not in text:
        return None
    block = text.split(MAP_BEGIN, 1)[1].split(MAP_END, 1)[0]
    return block.strip().removeprefix("```").removesuffix("```").strip("\n")


def write_module_map() -> None:
    text = ARCHITECTURE_MD.read_text(encoding="utf-8")
    block = f"{MAP_BEGIN}\n```\n{render_module_map()}\n```\n{MAP_END}"
    if MAP_BEGIN in text:
        head, rest = text.split(MAP_BEGIN, 1)
        text = head + block + rest.split(MAP_END, 1)[1]
    else:
        first, _, rest = text.partition("\n")
        text = f"{first}\n\n{block}\n{rest}"
    ARCHITECTURE_MD.write_text(text, encoding="utf-8")


def test_architecture_md_opens_with_the_module_map_of_the_folders() -> None:
    """The folder tree, the layers the import test enforces and the map in docs/ARCHITECTURE.md are one table."""
    documented = _documented_map()
    assert documented is not None, f"docs/ARCHITECTURE.md has no module map; run `python {Path(__file__).name}`"
    head = ARCHITECTURE_MD.read_text(encoding="utf-8").split(MAP_BEGIN, 1)[0]
    assert head.count("\n## ") == 0, "the module map must come first in docs/ARCHITECTURE.md"
    assert documented == render_module_map(), (
        "docs/ARCHITECTURE.md's module map differs from the folders and LAYERS; regenerate it with "
        "`python tests/test_architecture.py`"
    )


def test_every_module_of_the_package_is_on_the_map() -> None:
    rendered = render_module_map()
    missing = [m.name for m in MODULES.values() if not m.is_package and m.path.name not in rendered]
    assert not missing, missing


# -------------------------------------------------------------------------------------------------------- tests/
_LOADERS = re.compile(r"\b(spec_from_file_location|SourceFileLoader|SourcelessFileLoader)\b")
#: Directories of scripts that tests may load by path (they are not test modules).
_SCRIPT_DIRS = ("examples", "benchmarks", "scripts", "docs")


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob(PY_FILES) if "__pycache__" not in p.parts)


def test_no_test_loads_another_test_file_by_path() -> None:
    """Shared test code lives in the public :mod:`privgeom.testing`; no test module loads another file of ``tests/``
    through ``importlib`` machinery."""
    offenders = []
    for path in _test_files():
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        for lineno, line in enumerate(text.splitlines(), 1):
            if _LOADERS.search(line) and not any(d in line for d in _SCRIPT_DIRS):
                offenders.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    _fail("test files loading files by path (move the shared code into privgeom/testing and import it)", offenders)


def test_no_test_imports_another_test_module() -> None:
    """A module of ``tests/`` (e.g. ``test_contract`` or a cases file) is never imported
    by name either (pytest's rootdir on ``sys.path`` would make that work by accident)."""
    local = {p.stem for p in _test_files() if p.stem not in ("conftest", "__init__")}
    offenders = []
    for path in _test_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            for n in names:
                if n.split(".")[0] in local:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {n}")
    _fail("test files importing other test modules", offenders)


if __name__ == "__main__":  # regenerate the module map of docs/ARCHITECTURE.md
    write_module_map()
    print(render_module_map())
