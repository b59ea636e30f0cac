"""Sphinx configuration of the privgeom documentation (``bash scripts/bootstrap.sh docs``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import privgeom  # noqa: E402

project = "privgeom"
author = "the privgeom authors"
copyright = "privgeom authors"  # noqa: A001
version = release = privgeom.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "myst_parser",
    "privgeom_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "ARCHITECTURE.md", "**/.ipynb_checkpoints", "gallery/_runs"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = False

intersphinx_mapping: dict[str, tuple[str, str | None]] = {}

html_theme = "alabaster"
html_title = "privgeom"
html_static_path: list[str] = []
templates_path = ["_templates"]
html_theme_options = {
    "description": "Privacy definitions as geometry",
    "page_width": "1100px",
    "sidebar_width": "230px",
}

# Gallery (privgeom_docs): which examples are executed at build time. "cheap" runs the quick, figure-producing
# examples of each paper (the rest are shown as code with their command); "all" runs every example with --quick;
# "none" runs nothing. Override with PRIVGEOM_DOCS_GALLERY=all|cheap|none.
privgeom_gallery_run = os.environ.get("PRIVGEOM_DOCS_GALLERY", "cheap")
privgeom_gallery_cheap = [
    "rr_cone_pictures.py",
    "voting_figure2.py",
    "smoothed_motivating.py",
    "design_definition.py",
    "ldp_study.py",
]
# Examples that "all" runs at full size (without --quick): the LDP study's full grid, d = 2..6 (docs/ldp_study.md).
privgeom_gallery_full = ["ldp_study.py"]
