"""One design: ε travels as :class:`~privgeom.PrivacyLevel`, one name per quantity, no alias properties.

Static checks over the sources of ``privgeom/`` (parsed with :mod:`ast`, nothing imported) and one check over the
result types themselves (every module imported):

- the one conversion "ε from e^ε" is :func:`privgeom._core.level.eps_of` (or a ``PrivacyLevel``); no other line
  builds a ``LogRational`` and takes a float logarithm to choose between them;
- no property is an alias of another public attribute (its body ``return self.name``, or a docstring calling it an
  alias);
- every result type that states a privacy level does so in a field ``level`` (a :class:`PrivacyLevel`), never in
  ``eps``/``epsilon``/``exp_eps``/``exp_epsilon`` fields;
- results are built by keyword everywhere in the package (a positional construction of a result type fails).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from pathlib import Path

import pytest

import privgeom as pg
from privgeom import Result

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "privgeom"
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"
#: The modules that implement the conversion itself.
CONVERSION_HOME = {"_core/level.py", "_core/numbers.py"}
_LOG = re.compile(r"\b(?:math|np|numpy)\.log\(")
LEVEL_NAMES = {"eps", "epsilon", "exp_eps", "exp_epsilon"}


def _sources() -> list[tuple[str, str]]:
    return [(str(p.relative_to(PACKAGE)), p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob(PY_FILES))]


def inline_conversions(sources: list[tuple[str, str]]) -> list[str]:
    """Lines that choose between ``LogRational(r)`` and a float logarithm themselves."""
    out = []
    for rel, text in sources:
        if rel in CONVERSION_HOME:
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            if "LogRational(" in line and _LOG.search(line):
                out.append(f"{rel}:{lineno}: {line.strip()}")
    return out


#: The one exception: the vocabulary every result speaks (``.holds`` on a decision, ``.value`` on a one-number result)
#: reads a field stored under its domain word, which callers keep using (privgeom.results documents both names).
SYNONYMS = {
    "Membership.holds": "member",
    "ConeMembership.holds": "member",
    "DeltaResult.value": "delta",
    "MixingThreshold.value": "t",
}


def alias_properties(sources: list[tuple[str, str]]) -> list[str]:
    """Properties whose body only returns another public attribute of ``self``, or that call themselves aliases
    (except the vocabulary's :data:`SYNONYMS`)."""
    out = []
    for rel, text in sources:
        for cls in (n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ClassDef)):
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef) or not any(
                    isinstance(d, ast.Name)
                    and d.id in ("property", "cached_property")
                    or isinstance(d, ast.Attribute)
                    and d.attr == "cached_property"
                    for d in fn.decorator_list
                ):
                    continue
                doc = ast.get_docstring(fn) or ""
                body = fn.body[1:] if doc else fn.body
                target = None
                if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Attribute):
                    value = body[0].value
                    if isinstance(value.value, ast.Name) and value.value.id == "self":
                        target = value.attr
                if SYNONYMS.get(f"{cls.name}.{fn.name}") == target and target is not None:
                    continue
                if (target is not None and not target.startswith("_")) or re.match(r"\s*alias\b", doc, re.I):
                    out.append(f"{rel}:{fn.lineno}: {cls.name}.{fn.name}" + (f" -> {target}" if target else ""))
    return out


def test_no_inline_eps_from_exp_eps() -> None:
    offenders = inline_conversions(_sources())
    assert not offenders, (
        "ε from e^ε written inline (use privgeom._core.level.eps_of or PrivacyLevel):\n  " + "\n  ".join(offenders)
    )


def test_no_alias_property() -> None:
    offenders = alias_properties(_sources())
    assert not offenders, "alias properties (keep one name per quantity):\n  " + "\n  ".join(offenders)


def test_the_static_checks_can_fail() -> None:
    bad = (
        "x.py",
        "class R:\n    @property\n    def epsilon(self):\n        return self.eps\n"
        "e = LogRational(r) if exact else math.log(r)\n",
    )
    assert alias_properties([bad]) and inline_conversions([bad])


def _result_types() -> list[type]:
    for path in sorted(PACKAGE.rglob(PY_FILES)):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__main__" or "plots" in parts:
            continue
        importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    seen, todo = [], [Result]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen and sub.__module__.startswith("privgeom"):
                seen.append(sub)
                todo.append(sub)
    return seen


def test_results_state_levels_as_privacy_levels() -> None:
    offenders = []
    for cls in _result_types():
        if not dataclasses.is_dataclass(cls):
            continue
        names = {f.name for f in dataclasses.fields(cls)}
        if names & LEVEL_NAMES:
            offenders.append(f"{cls.__module__}.{cls.__qualname__}: fields {sorted(names & LEVEL_NAMES)}")
    assert not offenders, "results carrying ε outside a `level: PrivacyLevel` field:\n  " + "\n  ".join(offenders)


def positional_constructions(sources: list[tuple[str, str]], types: set[str]) -> list[str]:
    """Calls ``T(a, b, …)`` of a result type ``T`` with positional arguments."""
    out = []
    for rel, text in sources:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in types and node.args:
                out.append(f"{rel}:{node.lineno}: {node.func.id}(<{len(node.args)} positional>)")
    return out


def test_results_are_built_by_keyword() -> None:
    types = {cls.__name__ for cls in _result_types() if dataclasses.is_dataclass(cls)}
    assert {"Membership", "Relaxation", "EpsilonResult", "OptimalMechanism", "SymmetryGroup"} <= types
    offenders = positional_constructions(_sources(), types)
    assert not offenders, "results built from positional arguments (build them by keyword):\n  " + "\n  ".join(
        offenders
    )
    assert positional_constructions([("x.py", "Relaxation(cone, ())")], types)  # the check can fail


@pytest.mark.parametrize(
    "make",
    [
        lambda: pg.epsilon(pg.randomized_response(2, "3/4"), "hamming"),
        lambda: pg.relax_pairwise(pg.RandomizedResponse(2, "3/4")),
    ],
)
def test_level_results_have_a_privacy_level(make) -> None:
    assert isinstance(make().level, pg.PrivacyLevel)
