"""Sphinx extension of the privgeom documentation.

- ``config-inited``: writes ``api/index.rst`` (autosummary tables of the ``__all__`` of ``privgeom``,
  ``privgeom.voting``, ``privgeom.smoothed``, ``privgeom.sweeps``, ``privgeom.plots`` and ``privgeom.results``, so the API reference always matches the code)
  and the example gallery ``gallery/`` (one page per script of ``examples/``: its description, the command that runs
  it, its figures and output when it is executed at build time, and its source).
- ``api/cli.rst``: the command-line reference, generated from :func:`privgeom.cli.build_parser` (every command
  and sub-command with its usage and options).

Gallery execution is controlled by ``privgeom_gallery_run`` (``"cheap"``: only ``privgeom_gallery_cheap``; ``"all"``;
``"none"``). Examples run as subprocesses with ``--quick`` (when they offer it; not the examples of
``privgeom_gallery_full`` in ``"all"`` mode, which run at full size) and ``--out DIR``, two at a time;
their PNG files become the page's figures. A run is skipped when neither the example nor the package changed since
the last build (hash stamp). A failing example is a Sphinx warning, hence an error under ``-W``.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

LOG = logging.getLogger(__name__)
API_MODULES = (
    "privgeom",
    "privgeom.voting",
    "privgeom.voting.paper",
    "privgeom.smoothed",
    "privgeom.sweeps",
    "privgeom.plots",
    "privgeom.results",
)
PAPERS = (
    ("Row-cone analysis (Lin & Kifer)", ("rr_", "compare_", "kov_")),
    ("Randomized response on voting rules (Evren & Vepakomma)", ("voting_",)),
    ("Smoothed differential privacy (Liu, Wang & Xia)", ("smoothed_",)),
)
MAX_OUTPUT_LINES = 60


def _rst_escape(text: str) -> str:
    return re.sub(r"([*`|_\\])", r"\\\1", text)


def _heading(text: str, ch: str) -> str:
    return f"{text}\n{ch * max(len(text), 3)}\n"


# ------------------------------------------------------------------------------------------------------ API
def write_api(src: Path) -> None:
    import importlib

    lines = [
        _heading("API reference", "="),
        "Generated from the ``__all__`` of each package; every page is the object's numpydoc docstring.",
        "",
    ]
    documented: dict[str, list[str]] = {}
    seen: dict[int, str] = {}  # an object listed by two packages (privgeom.Membership, privgeom.results.Membership)
    for modname in API_MODULES:  # has one page, under the first package that lists it
        mod = importlib.import_module(modname)
        names = [n for n in getattr(mod, "__all__", []) if not isinstance(getattr(mod, n, None), type(sys))]
        again = [n for n in names if id(getattr(mod, n)) in seen]
        names = [n for n in names if n not in again]
        seen.update((id(getattr(mod, n)), f"{modname}.{n}") for n in names)
        documented[modname] = names
        doc = (mod.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        lines += [_heading(f"``{modname}``", "-"), _rst_escape(doc), ""]
        if again:
            lines += [
                "Also here, documented above: "
                + ", ".join(f":obj:`{n} <{seen[id(getattr(mod, n))]}>`" for n in again)
                + ".",
                "",
            ]
        lines += [f".. currentmodule:: {modname}", "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {n}" for n in names] + [""]
    out = src / "api"
    out.mkdir(exist_ok=True)
    # drop stubs of names that left __all__ (else autodoc fails on them and Sphinx warns they are in no toctree)
    wanted = {f"{m}.{n}" for m, ns in documented.items() for n in ns}
    for stub in (out / "generated").glob("*.rst"):
        if stub.stem not in wanted:
            stub.unlink()
    text = "\n".join(lines)
    target = out / "index.rst"
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


# ------------------------------------------------------------------------------------------------------ gallery
def _doc_parts(path: Path) -> tuple[str, str]:
    doc = ast.get_docstring(ast.parse(path.read_text())) or path.stem
    first = " ".join(doc.split("\n\n")[0].split())
    m = re.search(r"^(.{8,110}?)(: |\. )", first)
    title = m.group(1) if m else first[:110]
    return title, doc


def _package_hash(root: Path) -> str:
    h = hashlib.sha256()
    for f in sorted((root / "privgeom").rglob("*.py")):
        h.update(f.read_bytes())
    return h.hexdigest()


def _run_example(script: Path, out: Path, root: Path, quick: bool = True) -> tuple[Path, int, str]:
    src = script.read_text()
    argv = [sys.executable, str(script)]
    if quick and "--quick" in src:
        argv.append("--quick")
    if "--out" in src:
        argv += ["--out", str(out)]
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=out, env=env)
    return script, proc.returncode, proc.stdout + (proc.stderr if proc.returncode else "")


def write_gallery(app: Sphinx, src: Path, root: Path) -> None:
    scripts = sorted((root / "examples").glob("*.py"))
    gal = src / "gallery"
    images = gal / "images"
    runs = gal / "_runs"
    images.mkdir(parents=True, exist_ok=True)
    runs.mkdir(parents=True, exist_ok=True)
    mode = app.config.privgeom_gallery_run
    chosen = (
        {s.name for s in scripts}
        if mode == "all"
        else (set(app.config.privgeom_gallery_cheap) if mode == "cheap" else set())
    )
    pkg = _package_hash(root) + mode
    full = set(app.config.privgeom_gallery_full) if mode == "all" else set()
    todo = []
    for s in scripts:
        if s.name not in chosen:
            continue
        stamp = runs / f"{s.stem}.stamp"
        key = hashlib.sha256(s.read_bytes() + pkg.encode()).hexdigest()
        if stamp.exists() and stamp.read_text() == key:
            continue
        d = runs / s.stem
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        todo.append((s, d, stamp, key))
    if todo:
        LOG.info(f"[privgeom gallery] running {len(todo)} example(s): {', '.join(s.name for s, *_ in todo)}")
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda t: _run_example(t[0], t[1], root, t[0].name not in full), todo))
        for (s, d, stamp, key), (_, code, output) in zip(todo, results):
            (d / "output.txt").write_text(output)
            if code != 0:
                LOG.warning(f"[privgeom gallery] example {s.name} failed (exit {code}):\n{output[-2000:]}")
                continue
            stamp.write_text(key)
    index = [
        _heading("Gallery of examples", "="),
        "Every script in ``examples/`` reproduces results of one of the three papers; each page shows what it "
        "checks, the command that runs it, its source and — for the examples executed when the documentation is "
        "built (quick sizes) — its figures and output. The test suite runs every example.",
        "",
    ]
    for paper, prefixes in PAPERS + (("Other examples", ()),):
        mine = (
            [s for s in scripts if s.name.startswith(prefixes)]
            if prefixes
            else [s for s in scripts if not any(s.name.startswith(p) for _, ps in PAPERS for p in ps)]
        )
        if not mine:
            continue
        index += [_heading(paper, "-"), ".. toctree::", "   :maxdepth: 1", ""]
        index += [f"   {s.stem}" for s in mine] + [""]
        for s in mine:
            pngs = sorted((runs / s.stem).glob("*.png")) if (runs / s.stem / "output.txt").exists() else []
            for p in pngs:
                shutil.copyfile(p, images / f"{s.stem}__{p.name}")
            if pngs:
                index += [
                    f".. image:: images/{s.stem}__{pngs[0].name}",
                    "   :width: 30%",
                    f"   :target: {s.stem}.html",
                    "",
                ]
            _write_example_page(gal, s, pngs, runs / s.stem / "output.txt")
    _write_if_changed(gal / "index.rst", "\n".join(index))


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _write_example_page(gal: Path, script: Path, pngs: list[Path], output: Path) -> None:
    title, doc = _doc_parts(script)
    src = script.read_text()
    flags = (" --quick" if "--quick" in src else "") + (" --out out" if "--out" in src else "")
    lines = [f".. _gallery-{script.stem}:", "", _heading(_rst_escape(title), "="), ".. code-block:: text", ""]
    lines += ["   " + ln if ln else "" for ln in doc.splitlines()] + [""]
    lines += [
        "Run it from the repository's root (``--quick`` for reduced sizes where offered)::",
        "",
        f"   .venv/bin/python examples/{script.name}{flags.replace(' --quick', '')}",
        "",
    ]
    if pngs:
        lines += [_heading("Figures", "-")]
        for p in pngs:
            lines += [
                f".. figure:: images/{script.stem}__{p.name}",
                "   :width: 90%",
                "",
                f"   ``{p.name}`` (run with{flags}, built with the documentation)",
                "",
            ]
    if output.exists() and pngs is not None and output.read_text().strip():
        out_lines = output.read_text().rstrip().splitlines()
        shown = out_lines[:MAX_OUTPUT_LINES]
        lines += [
            _heading("Output", "-"),
            f"Printed by the run with{flags or ' no options'}"
            + (f" (first {MAX_OUTPUT_LINES} of {len(out_lines)} lines)" if len(out_lines) > MAX_OUTPUT_LINES else "")
            + ":",
            "",
            ".. code-block:: text",
            "",
        ]
        lines += ["   " + ln if ln.strip() else "" for ln in shown] + [""]
    lines += [_heading("Source", "-"), f".. literalinclude:: ../../examples/{script.name}", "   :language: python", ""]
    _write_if_changed(gal / f"{script.stem}.rst", "\n".join(lines))


# ------------------------------------------------------------------------------------------------------ CLI
def _subparsers(parser: Any) -> dict[str, Any]:
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def write_cli(src: Path) -> None:
    """``api/cli.rst``: every command and sub-command of ``privgeom`` with its help, from the argument parser."""
    from privgeom.cli import build_parser

    os.environ["COLUMNS"] = "110"
    parser = build_parser()
    rst: list[str] = [
        _heading("Command-line reference", "="),
        "Every command takes ``--json`` and exits with 0 (yes), 1 (no) or 2 (error: one line on stderr). "
        "Definitions are written as specs such as ``rr:k=3,p=3/4`` or ``dp:graph=hamming,k=2,exp_eps=3``. "
        "This page is generated from the argument parser (``privgeom.cli.build_parser``), so it "
        "lists exactly the options of this version.",
        "",
        "::",
        "",
    ]
    rst += ["   " + ln for ln in parser.format_help().splitlines()] + [""]
    for name, sub in _subparsers(parser).items():
        rst.append(_heading(f"privgeom {name}", "-"))
        children = _subparsers(sub)
        if children:
            rst += [_rst_escape(sub.description or ""), ""]
            for cname, child in children.items():
                rst.append(_heading(f"privgeom {name} {cname}", "~"))
                rst += ["::", ""] + ["   " + ln for ln in child.format_help().splitlines()] + [""]
        else:
            rst += ["::", ""] + ["   " + ln for ln in sub.format_help().splitlines()] + [""]
    out = src / "api"
    out.mkdir(exist_ok=True)
    _write_if_changed(out / "cli.rst", "\n".join(rst))


# ------------------------------------------------------------------------------------------------------ setup
def _on_config_inited(app: Sphinx, config: Any) -> None:
    # Before Sphinx discovers the source files, so the generated pages are found (and autosummary stubs made).
    src = Path(app.srcdir)
    root = src.parent
    write_api(src)
    write_cli(src)
    write_gallery(app, src, root)
    for report in REPORTS:
        _ensure_report(src, report)


#: The reports that pages include, written by the examples' runs: ``docs/design.md`` includes the first
#: (``examples/design_definition.py``), ``docs/ldp_study.md`` the second (``examples/ldp_study.py``).
DESIGN_REPORT = Path("gallery") / "_runs" / "design_definition" / "design_report.md"
LDP_STUDY_REPORT = Path("gallery") / "_runs" / "ldp_study" / "ldp_study_report.md"
REPORTS = (DESIGN_REPORT, LDP_STUDY_REPORT)


def _ensure_report(src: Path, report: Path) -> None:
    """When the gallery did not run the example that writes ``report`` (``PRIVGEOM_DOCS_GALLERY=none``), say so in
    the page instead of failing the include."""
    path = src / report
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"*(The numbers of this page are computed by ``examples/{report.parent.name}.py`` when the "
            "documentation is built; this build did not run the examples.)*\n",
            encoding="utf-8",
        )


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("privgeom_gallery_run", "cheap", "env")
    app.add_config_value("privgeom_gallery_cheap", [], "env")
    app.add_config_value("privgeom_gallery_full", [], "env")
    app.connect("config-inited", _on_config_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
