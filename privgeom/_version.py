"""The version of privgeom, written once: ``pyproject.toml`` reads it (``[tool.setuptools.dynamic]``) and
:mod:`privgeom` re-exports it as ``privgeom.__version__``; ``CHANGELOG.md`` has a section per release."""

__version__ = "0.2.0"
