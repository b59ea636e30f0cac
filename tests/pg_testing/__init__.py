"""Helpers shared by privgeom's tests (brute-force references, contract bases, random cases).

Importable as ``pg_testing`` because ``tests/`` holds the root ``conftest.py`` (pytest puts its directory on
``sys.path``); test modules import from here by package name, never another test module by file path.
"""
