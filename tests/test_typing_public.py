"""Public parameters that have a privgeom type are annotated with it, never ``Any``.

A privacy level is a :data:`privgeom.LevelLike` (``eps=``) or a :data:`privgeom.ScalarLike` (``exp_eps=``, ``rho=``,
``p=``, …), a neighbour relation a :data:`privgeom.RelationLike` (``graph=``, ``relation=``) and the datasets an
:data:`privgeom.InputsLike` (``inputs=``). The test walks the ``__all__`` of the public packages — functions, classes
(their constructors) and the public methods of those classes — and resolves every annotation with
:func:`typing.get_type_hints`.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import types
import typing
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import privgeom

MODULES = (
    "privgeom",
    "privgeom.voting",
    "privgeom.smoothed",
    "privgeom.analyses",
    "privgeom.definitions",
    "privgeom.geometry",
    "privgeom.mechanisms",
    "privgeom.graphs",
    "privgeom.plots",
    "privgeom.sweeps",
    "privgeom.voting.paper",
    "privgeom.smoothed.paper",
)

#: Parameter names that always have a privgeom type.
TYPED_NAMES = frozenset({"eps", "exp_eps", "graph", "relation", "inputs", "rho", "p", "alpha", "gamma", "delta"})

#: (file relative to privgeom/, qualified name, parameter) still annotated ``Any`` in files owned by other work in
#: progress; remove an entry when its file is typed.
ALLOWED_ANY = frozenset({})

#: Public parameters for which ``Any`` is the right annotation, with the reason.
ANY_IS_RIGHT: dict[tuple[str, str, str], str] = {
    ("_core/display.py", "to_html", "obj"): "dispatches on the type of any object (generic rendering otherwise)",
    ("_core/display.py", "to_latex", "obj"): "dispatches on the type of any object",
    ("plots/_plot.py", "plot", "obj"): "a functools.singledispatch: an unknown type is a typed error naming it",
    ("plots/_plot.py", "plot", "args"): "forwarded to the drawing registered for the type of obj",
    ("plots/_plot.py", "plot", "kwargs"): "forwarded to the drawing registered for the type of obj",
    ("geometry/_symmetry.py", "automorphisms", "obj"): "a functools.singledispatch over cones and definitions",
    ("geometry/_symmetry.py", "automorphisms", "options"): "forwarded to the handler registered for obj's type",
    ("_core/level.py", "PrivacyLevel.coerce", "kwargs"): "forwarded to PrivacyLevel.parse (exact=, name=, …)",
    ("sweeps/_sweep.py", "sweep", "scheduler"): "a name, an address or a distributed.Client (optional dependency)",
    ("sweeps/_sweep.py", "sweep", "options"): "the named query's options, each checked by the query",
    (
        "voting/_accuracy.py",
        "majority_accuracy_data",
        "scheduler",
    ): "as sweep's scheduler: a name, an address or a Client",
    ("smoothed/paper.py", "check", "args"): "forwarded to the check named by `result` (each check types its own)",
    ("smoothed/paper.py", "check", "kwargs"): "forwarded to the check named by `result`",
    ("smoothed/paper.py", "experiment", "options"): "forwarded to the experiment named by `name`",
}

PACKAGE = Path(privgeom.__file__).resolve().parent

# names imported only under ``if TYPE_CHECKING:`` in some modules
_LOCALNS: dict[str, Any] = {"Mechanism": privgeom.Mechanism, "Domain": privgeom.Domain, "Cone": privgeom.Cone}


def _source(obj: Any, owner: Any) -> str:
    for candidate in (obj, owner):
        try:
            path = Path(inspect.getsourcefile(candidate) or "")
        except TypeError:
            continue
        if path.is_file():
            return path.resolve().relative_to(PACKAGE).as_posix()
    return "?"


def _public_callables() -> Iterator[tuple[str, str, Callable[..., Any], Any]]:
    """``(file, qualified name, function, owner)`` for each public callable, once each."""
    seen: set[int] = set()
    for modname in MODULES:
        if importlib.util.find_spec(modname) is None:  # a paper namespace not created yet
            continue
        mod = importlib.import_module(modname)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)):
                continue
            if inspect.isclass(obj):
                if not obj.__module__.startswith("privgeom"):
                    continue
                members: list[tuple[str, Any]] = []
                if "__init__" in vars(obj):
                    members.append((obj.__name__, vars(obj)["__init__"]))
                for attr, member in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    if isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    if inspect.isfunction(member):
                        members.append((f"{obj.__name__}.{attr}", member))
                for qual, fn in members:
                    if id(fn) not in seen:
                        seen.add(id(fn))
                        yield _source(fn, obj), qual, fn, obj
            elif inspect.isfunction(obj) or hasattr(obj, "__wrapped__") or hasattr(obj, "registry"):
                fn = inspect.unwrap(obj)
                if id(fn) not in seen and getattr(fn, "__module__", "").startswith("privgeom"):
                    seen.add(id(fn))
                    yield _source(fn, None), getattr(fn, "__name__", name), fn, None


def _is_any(hint: Any) -> bool:
    if hint is Any:
        return True
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and any(a is Any for a in typing.get_args(hint))


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn, localns=_LOCALNS)
    except NameError:  # a forward reference this test does not know: judge the written annotation instead
        out: dict[str, Any] = {}
        for pname, param in inspect.signature(fn).parameters.items():
            ann = param.annotation
            if isinstance(ann, str):
                parts = {part.strip() for part in ann.split("|")}
                out[pname] = Any if parts & {"Any", "typing.Any"} else ann
            elif ann is not inspect.Parameter.empty:
                out[pname] = ann
        return out


def _offenders() -> list[tuple[str, str, str]]:
    """The parameters named like a privacy level, a number, a relation or inputs (:data:`TYPED_NAMES`) that are
    annotated ``Any`` or not annotated."""
    return [o for o in _any_parameters() if o[2] in TYPED_NAMES]


def _any_parameters() -> list[tuple[str, str, str]]:
    """``(file, qualified name, parameter)`` of every public parameter annotated ``Any`` or not annotated."""
    found = []
    for path, qual, fn, _owner in _public_callables():
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            continue
        hints = _hints(fn)
        found += [
            (path, qual, pname)
            for pname in params
            if pname not in ("self", "cls") and (pname not in hints or _is_any(hints[pname]))
        ]
    return found


def test_no_public_parameter_is_any_where_a_type_exists() -> None:
    # every parameter of every public callable (functions, constructors, public methods): Any only where it is
    # right (ANY_IS_RIGHT, with the reason)
    offenders = [o for o in _any_parameters() if o not in ANY_IS_RIGHT]
    assert not offenders, (
        f"public parameters annotated Any or not annotated (types: ScalarLike, LevelLike, "
        f"RelationLike, InputsLike, MatrixLike, VectorLike, PriorLike, UtilityLike): {offenders}"
    )


def test_the_any_reasons_are_current() -> None:
    # an entry of ANY_IS_RIGHT names a parameter that exists and is still Any (else it is stale)
    assert set(ANY_IS_RIGHT) <= set(_any_parameters()), sorted(set(ANY_IS_RIGHT) - set(_any_parameters()))


def test_walk_finds_the_public_api() -> None:
    quals = {qual for _path, qual, _fn, _owner in _public_callables()}
    for expected in (
        "DifferentialPrivacy",
        "Pufferfish",
        "RandomizedResponse",
        "epsilon",
        "delta",
        "delta_curve",
        "neighbour_graph",
        "database_delta",
        "smoothed_delta",
        "PrivacyLevel.parse",
        "accuracy",
        "DifferentialPrivacy.hamming",
    ):
        assert expected in quals, expected


def test_public_parameters_are_not_typed_any() -> None:
    offenders = [o for o in _offenders() if o not in ALLOWED_ANY]
    assert not offenders, (
        f"public parameters annotated Any (use privgeom's LevelLike, ScalarLike, RelationLike, InputsLike): {offenders}"
    )


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("eps", "LevelLike"),
        ("exp_eps", "ScalarLike"),
        ("graph", "RelationLike"),
        ("rho", "ScalarLike"),
    ],
)
def test_the_core_uses_the_aliases(name: str, hint: str) -> None:
    alias = getattr(privgeom, hint)
    fn = {"eps": privgeom.delta, "exp_eps": privgeom.delta, "graph": privgeom.epsilon, "rho": privgeom.voting.accuracy}[
        name
    ]
    got = typing.get_type_hints(fn)[name]
    assert set(typing.get_args(_resolved(alias))) <= set(typing.get_args(got)) | {got}, (name, got)


def _resolved(alias: object) -> object:
    """``alias`` with its forward references resolved (``GraphLike`` names ``nx.Graph`` as a string: networkx is
    imported on first use, not by ``import privgeom``)."""
    import networkx

    def probe() -> None: ...

    probe.__annotations__ = {"x": alias}
    return typing.get_type_hints(probe, globalns={"nx": networkx})["x"]


def test_aliases_accept_what_the_parsers_accept() -> None:
    from fractions import Fraction

    import networkx as nx

    for value in (Fraction(3, 2), 1.5, "3/2", 2):
        assert isinstance(value, typing.get_args(privgeom.ScalarLike))
        assert privgeom.PrivacyLevel.parse(exp_eps=value).exp_eps == (2 if value == 2 else Fraction(3, 2))
    for eps in ("ln(2)", privgeom.LogRational(Fraction(2)), privgeom.PrivacyLevel.parse(exp_eps=2)):
        assert isinstance(eps, typing.get_args(privgeom.LevelLike))
        assert privgeom.PrivacyLevel.parse(eps=eps).exp_eps == 2
    dom = privgeom.Domain.bits(2)
    graphs = ["hamming", dom, dom.relation("hamming"), [("11", "10"), ("11", "01"), ("10", "00"), ("01", "00")]]
    edges = {frozenset(e) for e in privgeom.neighbour_graph("hamming", dom).edges}
    for relation in graphs:
        assert isinstance(relation, (str, privgeom.Domain, nx.Graph, list))
        assert {frozenset(e) for e in privgeom.neighbour_graph(relation, dom).edges} == edges
