"""No literal tolerances in the library: every small float is a named constant.

Every module under ``privgeom/`` is parsed with :mod:`ast` (nothing is imported). A float literal of magnitude
below :data:`SMALL` (``1e-9``, ``1e-12``, ``1e-300``, ...) is a tolerance or a cut-off; it may appear only in a
module-level assignment, i.e. a named constant with a ``#:`` comment saying what it is and why that value (or it
is the core's :data:`privgeom._core.arrays.ATOL` — user data tolerance, the default of ``atol=`` — or
:data:`privgeom._core.arrays.ROUNDOFF` — float round-off of exact quantities). Docstrings and doctests are strings, not
literals, so they are not concerned.

:data:`ALLOWED` lists the modules that still hold such literals and have not been converted yet; it only shrinks
(a listed module that no longer needs it fails :func:`test_allow_list_is_not_stale`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "privgeom"
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"

#: Float literals below this magnitude are tolerances / cut-offs and must be named constants.
SMALL = 1e-6

#: Modules (paths relative to the repository) that still hold small float literals outside a module-level
#: constant. Remove a module from the list when it is converted; never add one.
ALLOWED = frozenset(
    {
        "privgeom/_core/progress.py",
        "privgeom/analyses/optimal/_optimal_adp.py",
        "privgeom/definitions/_approx_dp.py",
    }
)


def small_literals(source: str) -> list[tuple[int, float]]:
    """``(line, value)`` of the float literals ``0 < |v| < SMALL`` outside module-level assignments of ``source``.

    >>> small_literals("ATOL = 1e-9\\ndef f(x, atol=1e-9):\\n    return x < 1e-12 or x > 0.5")
    [(2, 1e-09), (3, 1e-12)]
    """
    tree = ast.parse(source)
    named: set[int] = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            named.update(id(sub) for sub in ast.walk(node))
    found = [
        (sub.lineno, sub.value)
        for sub in ast.walk(tree)
        if isinstance(sub, ast.Constant)
        and isinstance(sub.value, float)
        and 0 < abs(sub.value) < SMALL
        and id(sub) not in named
    ]
    return sorted(found)


def offenders() -> dict[str, list[tuple[int, float]]]:
    out = {}
    for path in sorted(PACKAGE.rglob(PY_FILES)):
        found = small_literals(path.read_text(encoding="utf-8"))
        if found:
            out[path.relative_to(ROOT).as_posix()] = found
    return out


def test_scanner_sees_literals() -> None:
    assert small_literals("def f(x):\n    return x < -1e-9\n") == [(2, 1e-9)]
    assert small_literals("TOL = 1e-9\nPAIR = (1e-9, 1e-12)\nX: float = 1e-300\n") == []
    assert small_literals("class A:\n    tol = 1e-9\n") == [(2, 1e-9)]  # only module-level constants are named
    assert small_literals('"""Use 1e-9."""\nx = "1e-12"\n') == []
    assert small_literals("def f(x):\n    return x * 1e3 + 1e-3\n") == []  # not below SMALL


def test_no_literal_tolerances() -> None:
    bad = {path: found for path, found in offenders().items() if path not in ALLOWED}
    lines = [f"{path}:{line}: {value!r}" for path, found in bad.items() for line, value in found]
    assert not lines, (
        "small float literals outside a named module-level constant (use privgeom._core.arrays.ATOL / "
        "ROUNDOFF, the caller's atol=, or a named constant with a #: comment):\n" + "\n".join(lines)
    )


@pytest.mark.parametrize("path", sorted(ALLOWED))
def test_allow_list_is_not_stale(path: str) -> None:
    file = ROOT / path
    assert file.exists(), f"{path} is in ALLOWED but does not exist: remove it from tests/test_constants.py"
    assert small_literals(file.read_text(encoding="utf-8")), (
        f"{path} holds no small float literal any more: remove it from ALLOWED in tests/test_constants.py"
    )
