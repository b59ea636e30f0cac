"""The named queries of :func:`privgeom.sweep`: each answers one question about one grid point as flat fields.

A query is a private function ``(obj, options) -> {field: value}`` registered in :data:`QUERIES` with
:func:`register_query`. ``obj`` is what the template built for the point (a spec string is parsed by the query's
``parse``, :func:`privgeom.parse_definition` by default); ``options`` are the query's options, already formatted with
the point's values (an option ``"{eps}"`` follows a grid axis ``eps``).

Field convention: a number is a ``float`` column ``x`` and, where the answer is exact, its exact text in ``x_exact``
(``"2/3"``, ``"ln(3)"``; ``None`` for float answers), so that a Parquet column has one type and nothing exact is
lost. Booleans and names are plain columns.

Adding a query is one line (the function's docstring is its help)::

    register_query("dp_bounds", _dp_bounds, needs="definition", options=("graph",))

Examples
--------
>>> sorted(QUERIES)[:4]
['accuracy', 'closure', 'compare', 'composed_delta']
>>> QUERIES["relax"].run("rr:k=2,p=3/4", {})["exp_eps_exact"]
'3'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping

from .._core.errors import FormatError, InvalidParameterError, InvalidTypeError
from .._core.level import PrivacyLevel
from .._core.arrays import parse_int
from .._core.numbers import LogRational, parse_scalar
from ..analyses import (
    compare,
    delta,
    delta_curve,
    dp_bounds,
    epsilon,
    ldp_utility_gap,
    optimal_mechanism,
    relax_pairwise,
)
from ..definitions import parse_definition
from ..mechanisms import Mechanism
from .. import smoothed as _smoothed
from .. import voting as _voting

__all__ = ["Query", "QUERIES", "register_query", "exact_fields", "as_mechanism"]


@dataclass(frozen=True)
class Query:
    """A registered query: its function, what it needs, its options (``required`` ones first) and its help."""

    name: str
    function: Callable[[Any, Mapping[str, Any]], dict[str, Any]]
    needs: str
    options: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    parse: Callable[[str], Any] = field(default=parse_definition)

    @property
    def help(self) -> str:
        """The first paragraph of the function's docstring."""
        return (self.function.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse unknown options and missing required ones (before any point runs)."""
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            valid = ", ".join(self.options) or "none"
            raise InvalidParameterError(
                f"query {self.name!r} takes no option {', '.join(map(repr, unknown))} (its options: {valid})"
            )
        missing = [o for o in self.required if options.get(o) is None]
        if missing:
            raise InvalidParameterError(f"query {self.name!r} needs the option(s) {', '.join(missing)}")

    def run(self, obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """Answer for one point: ``obj`` is a built object or a spec string (parsed by :attr:`parse`)."""
        if isinstance(obj, str):
            obj = self.parse(obj)
        return self.function(obj, options)


#: Name -> query (filled by :func:`register_query`).
QUERIES: dict[str, Query] = {}


def register_query(
    name: str,
    function: Callable[[Any, Mapping[str, Any]], dict[str, Any]],
    *,
    needs: str,
    options: tuple[str, ...] = (),
    required: tuple[str, ...] = (),
    parse: Callable[[str], Any] | None = None,
) -> Query:
    """Register ``function`` as the query ``name`` (its docstring is the help of ``privgeom sweep --query``)."""
    if not name.isidentifier():
        raise InvalidParameterError(f"query name {name!r} is not an identifier")
    q = Query(name, function, needs, tuple(options), tuple(required), parse or parse_definition)
    QUERIES[name] = q
    return q


# ---------------------------------------------------------------------------------------------------- helpers
def exact_fields(name: str, value: Any) -> dict[str, Any]:
    """``{name: float, name_exact: text or None}`` for a number (Fraction, LogRational, int, float).

    Examples
    --------
    >>> exact_fields("delta", Fraction(1, 3))
    {'delta': 0.3333333333333333, 'delta_exact': '1/3'}
    >>> exact_fields("eps", 0.5)
    {'eps': 0.5, 'eps_exact': None}
    """
    if value is None:
        return {name: float("nan"), f"{name}_exact": None}
    if isinstance(value, (Fraction, LogRational, int)) and not isinstance(value, bool):
        return {name: float(value), f"{name}_exact": str(value)}
    return {name: float(value), f"{name}_exact": None}


def as_mechanism(obj: Any) -> Mechanism:
    """The mechanism of a point: a :class:`Mechanism`, or a definition generated by exactly one mechanism."""
    if isinstance(obj, Mechanism):
        return obj
    mechs = getattr(obj, "mechanisms", None)
    if isinstance(mechs, tuple) and len(mechs) == 1 and isinstance(mechs[0], Mechanism):
        return mechs[0]
    what = obj.spec() if hasattr(obj, "spec") else type(obj).__name__
    raise InvalidTypeError(
        f"this query needs a mechanism; the template gave {what}, which is not generated by "
        "one mechanism (use an rr/k-rr/frapp/geometric spec or a factory returning a Mechanism)"
    )


def _graph(M: Mechanism, options: Mapping[str, Any]) -> Any:
    g = options.get("graph")
    return g if g is not None else M.domain.default_relation


def _mechanism_option(value: Any) -> Mechanism:
    if isinstance(value, Mechanism):
        return value
    if isinstance(value, (str, Path)):
        return Mechanism.load(value)
    raise InvalidTypeError(f"the mechanism option must be a Mechanism or a JSON file, got {type(value).__name__}")


def _level(options: Mapping[str, Any], owner: str) -> PrivacyLevel:
    eps, exp_eps = options.get("eps"), options.get("exp_eps")
    if (eps is None) == (exp_eps is None):
        raise InvalidParameterError(f"query {owner!r} needs exactly one of the options eps and exp_eps")
    return PrivacyLevel.parse(eps=eps, exp_eps=exp_eps, name="eps", owner=owner)


# ---------------------------------------------------------------------------------------------------- queries
def _epsilon(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Exact ε of the point's mechanism over a neighbour relation (option ``graph``; default: the inputs' default).

    Fields: ``eps``/``eps_exact``, ``exp_eps``/``exp_eps_exact`` (``inf`` when infinite), ``infinite``.
    """
    M = as_mechanism(obj)
    r = epsilon(M, _graph(M, options))
    if r.infinite:
        return {**exact_fields("eps", float("inf")), **exact_fields("exp_eps", float("inf")), "infinite": True}
    return {
        **exact_fields("eps", r.level.eps if r.exact else float(r.level.eps)),
        **exact_fields("exp_eps", r.level.exp_eps if r.exact else float(r.level.exp_eps)),
        "infinite": False,
    }


def _delta(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """δ(ε) of the point's mechanism (hockey-stick divergence over neighbours) at option ``eps`` or ``exp_eps``.

    Fields: ``delta``/``delta_exact``, ``exp_eps``/``exp_eps_exact``.
    """
    M = as_mechanism(obj)
    level = _level(options, "delta")
    r = delta(M, _graph(M, options), level)
    return {
        **exact_fields("delta", r.delta if r.exact else float(r.delta)),
        **exact_fields("exp_eps", r.level.exp_eps if r.exact else float(r.level.exp_eps)),
    }


def _delta_curve(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The whole δ(ε) curve of the point's mechanism, summarised: δ at ε = 0, the ε where δ reaches 0, δ as ε → ∞,
    the number of linear pieces in e^ε.

    Fields: ``delta_at_0``/``_exact``, ``eps_zero``/``_exact`` (``inf`` if δ never reaches 0), ``delta_at_inf``/
    ``_exact``, ``pieces``.
    """
    M = as_mechanism(obj)
    c = delta_curve(M, _graph(M, options), [0])
    ex = c.exact
    return {
        **exact_fields("delta_at_0", c.deltas[0] if ex else float(c.deltas[0])),
        **exact_fields("eps_zero", c.level.eps if ex else float(c.level.eps)),
        **exact_fields("delta_at_inf", c.delta_at_infinity if ex else float(c.delta_at_infinity)),
        "pieces": len(c.pieces),
    }


def _relax(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Relax the point's definition to its pairs (option ``pairs``, default ``hamming``): the recognised definition
    and its e^ε (Fourier–Motzkin / difference-constraint route of :func:`privgeom.relax_pairwise`).

    Fields: ``recognised``, ``exp_eps``/``exp_eps_exact``, ``eps``/``eps_exact``, ``kept``, ``route``.
    """
    r = relax_pairwise(obj, options.get("pairs") or "hamming")
    level = r.level
    return {
        "recognised": r.recognised,
        **exact_fields("exp_eps", None if level is None else level.exp_eps),
        **exact_fields("eps", None if level is None else level.eps),
        "kept": int(r.kept),
        "route": r.route,
    }


def _compare(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The closure relation between the point's definition and a fixed one (option ``spec``): equal, subset
    (the point is stronger), superset or incomparable.

    Fields: ``relation``, ``exact``.
    """
    other = options["spec"]
    other = parse_definition(other) if isinstance(other, str) else other
    r = compare(obj, other)
    return {"relation": r.relation, "exact": bool(r.exact)}


def _parse_pair(spec: str) -> tuple[Any, Any]:
    """``"A | B"`` (two specs joined by ``|``) -> the two definitions."""
    parts = spec.split("|")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise FormatError(
            f"pair template {spec!r}: write two specs joined by '|', e.g. 'oue:d=3,exp_eps=3|hr:d=3,exp_eps=3'"
        )
    return parse_definition(parts[0].strip()), parse_definition(parts[1].strip())


def _pair(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The closure relation between the two definitions of the point (template ``A|B``, or a callable returning
    the pair): :func:`privgeom.compare`'s relation of A to B, and who can simulate whom — A simulates B when B is in
    the consistent closure of A, i.e. the relation is ``superset`` or ``equal``.

    Fields: ``relation``, ``a_simulates_b``, ``b_simulates_a``, ``exact``.
    """
    if not (isinstance(obj, tuple) and len(obj) == 2):
        raise InvalidTypeError(f"query 'pair' needs two definitions (template 'A|B'), got {type(obj).__name__}")
    a, b = (parse_definition(x) if isinstance(x, str) else x for x in obj)
    r = compare(a, b)
    return {
        "relation": r.relation,
        "a_simulates_b": r.relation in ("superset", "equal"),
        "b_simulates_a": r.relation in ("subset", "equal"),
        "exact": bool(r.exact),
    }


def _optimal(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The largest expected utility over the closure of the point's definition (options ``utility``, default
    ``accuracy``, and ``prior``, default uniform), certified by :func:`privgeom.optimal_mechanism`.

    Fields: ``value``/``value_exact``, ``formulation``.
    """
    r = optimal_mechanism(obj, options.get("utility") or "accuracy", options.get("prior"))
    return {**exact_fields("value", r.value if r.exact else float(r.value)), "formulation": r.formulation}


def _closure(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Is a fixed mechanism (option ``mechanism``: a Mechanism or a JSON file) in the consistent closure of the
    point's definition? (verified witness or certificate, :meth:`privgeom.PrivacyDefinition.contains`).

    Fields: ``member``, ``method``, ``exact``.
    """
    r = obj.contains(_mechanism_option(options["mechanism"]))
    return {"member": bool(r.member), "method": r.method, "exact": bool(r.exact)}


def _dp_bounds(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The DP sandwich of the point's definition over a neighbour graph (option ``graph``, default ``hamming``):
    ``inner``, the largest e^ε with every ε-DP mechanism a member (of the row cone), and ``outer``, the smallest e^ε
    with every member ε-DP, by :func:`privgeom.dp_bounds` (``docs/theory.md`` §13).

    Fields: ``inner``/``inner_exact`` (e^ε; an irrational root as its polynomial text), ``inner_kind`` (exact,
    algebraic, float, infinite), ``outer``/``outer_exact``, ``outer_kind`` (exact, float, infinite).
    """
    b = dp_bounds(obj, options.get("graph") or "hamming")
    inner: dict[str, Any]
    if b.inner_kind == "infinite":
        inner = {"inner": float("inf"), "inner_exact": "inf"}
    elif b.inner_kind == "exact":
        inner = exact_fields("inner", b.inner.exp_eps)
    else:
        inner = {"inner": float(b.inner.exp_eps), "inner_exact": b.inner_root if b.inner_kind == "algebraic" else None}
    if b.outer.exp_eps == float("inf"):
        outer, outer_kind = {"outer": float("inf"), "outer_exact": "inf"}, "infinite"
    else:
        exact_outer = isinstance(b.outer.exp_eps, Fraction)
        outer = exact_fields("outer", b.outer.exp_eps if exact_outer else float(b.outer.exp_eps))
        outer_kind = "exact" if exact_outer else "float"
    return {**inner, "inner_kind": b.inner_kind, **outer, "outer_kind": outer_kind}


def _ldp_gap(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The optimal utility of a local-DP protocol (the point: ``oue:d=4,exp_eps=3``, a Mechanism, …) against the
    best ε-LDP mechanism at its own exact ε, by :func:`privgeom.ldp_utility_gap` (options ``utility``, default
    ``accuracy``, and ``prior``, default uniform).

    Fields: ``exp_eps``, ``value``, ``best``, ``gap`` (each with ``_exact``).
    """
    g = ldp_utility_gap(obj, options.get("utility") or "accuracy", options.get("prior"))
    return {
        **exact_fields("exp_eps", g.level.exp_eps),
        **exact_fields("value", g.value),
        **exact_fields("best", g.best),
        **exact_fields("gap", g.gap),
    }


_SHM = re.compile(r"^\s*shm\s*:\s*(.*)$")


def _parse_shm(spec: str) -> dict[str, Any]:
    """``"shm:n=1000,T=900"`` (optionally ``,replace=1``) -> the parameters of the sampling-histogram mechanism."""
    m = _SHM.match(spec)
    if not m:
        raise FormatError(f"smoothed template {spec!r}: write shm:n=N,T=T (the sampling-histogram mechanism)")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in m.group(1).split(","))):
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in ("n", "T", "replace"):
            raise FormatError(f"smoothed template {spec!r}: unknown parameter {part!r} (use n, T, replace)")
        params[key.strip()] = parse_int(value.strip(), name=key.strip(), min=0, allow_str=True)
    if "n" not in params or "T" not in params:
        raise FormatError(f"smoothed template {spec!r}: needs n and T")
    return params


def _distributions(value: Any) -> Any:
    """Option ``q``: the Bernoulli parameters of Π's vertices, ``"0.3;0.5"`` or a list."""
    if isinstance(value, str):
        return [parse_scalar(v.strip(), name="q") for v in value.split(";") if v.strip()]
    return value


def _smoothed_delta(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Smoothed δ at option ``eps`` over distributions Π: for a template ``shm:n=N,T=T`` the sampling-histogram
    mechanism with two-record votes, Π the Bernoulli laws of option ``q`` (``"0.3;0.5"``; certified fast path);
    for a Mechanism, option ``dist`` (distributions over its records) and ``n`` records.

    Fields: ``delta`` (float), ``error_bound``, ``truncation_bound`` (SHM) or ``delta_exact`` (exact mechanisms).
    """
    eps = options["eps"]
    if isinstance(obj, dict):
        if options.get("q") is None:
            raise InvalidParameterError("query 'smoothed' on an shm template needs the option q (e.g. 0.3;0.5)")
        r = _smoothed.smoothed_delta(
            _smoothed.SamplingHistogram(obj["n"], obj["T"], bool(obj.get("replace", 0))),
            eps,
            _distributions(options["q"]),
        )
        return {
            "delta": float(r.value),
            "error_bound": float(r.error_bound),
            "truncation_bound": float(r.truncation_bound),
        }
    M = as_mechanism(obj)
    if options.get("dist") is None:
        raise InvalidParameterError("query 'smoothed' on a mechanism needs the option dist (distributions of Π)")
    n = options.get("n")
    s = _smoothed.smoothed_delta(
        M, eps, options["dist"], None if n is None else parse_int(n, name="n", min=1, allow_str=True)
    )
    value = s.value
    return {**exact_fields("delta", value if s.exact else float(value))}


_RULES: dict[str, Callable[..., Any]] = {
    "majority": _voting.majority,
    "parity": _voting.parity,
    "conjunction": _voting.conjunction,
    "disjunction": _voting.disjunction,
    "dictator": _voting.dictator,
    "threshold": _voting.threshold,
    "tribes": _voting.tribes,
}


def _parse_rule(spec: str) -> Any:
    """``"majority:n=11"``, ``"threshold:n=9,theta=2"``, ``"tribes:width=2,count=3"`` -> a voting rule."""
    name, _, rest = spec.partition(":")
    factory = _RULES.get(name.strip())
    if factory is None:
        raise FormatError(f"voting template {spec!r}: the rule must be one of {', '.join(_RULES)} (e.g. majority:n=11)")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise FormatError(f"voting template {spec!r}: {part!r} is not NAME=VALUE")
        params[key.strip()] = parse_int(value.strip(), name=key.strip(), allow_str=True)
    try:
        return factory(**params)
    except TypeError:
        raise FormatError(f"voting template {spec!r}: {name} takes other parameters") from None


def _accuracy(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Accuracy P[M_ρ f(x) = f(x)] of randomized response with correlation ρ (option ``rho``) on a voting rule
    (template ``majority:n=N``, ``threshold:n=N,theta=T``, ``tribes:width=W,count=C``, … or a factory returning a
    rule), by :func:`privgeom.voting.accuracy` (option ``method``, default ``auto``).

    Fields: ``accuracy``/``accuracy_exact``.
    """
    q = _voting.accuracy(obj, options["rho"], method=options.get("method") or "auto")
    return exact_fields("accuracy", q.value if q.exact else float(q.value))


register_query("epsilon", _epsilon, needs="mechanism", options=("graph",))
register_query("delta", _delta, needs="mechanism", options=("eps", "exp_eps", "graph"))
register_query("delta_curve", _delta_curve, needs="mechanism", options=("graph",))
register_query("relax", _relax, needs="definition", options=("pairs",))
register_query("compare", _compare, needs="definition", options=("spec",), required=("spec",))
register_query("pair", _pair, needs="two definitions A|B", parse=_parse_pair)
register_query("optimal", _optimal, needs="definition", options=("utility", "prior"))
register_query("closure", _closure, needs="definition", options=("mechanism",), required=("mechanism",))
register_query("dp_bounds", _dp_bounds, needs="definition", options=("graph",))
register_query("ldp_gap", _ldp_gap, needs="mechanism", options=("utility", "prior"))
register_query(
    "smoothed",
    _smoothed_delta,
    needs="mechanism or shm:n=,T=",
    options=("eps", "q", "dist", "n"),
    required=("eps",),
    parse=_parse_shm,
)
register_query(
    "accuracy", _accuracy, needs="voting rule", options=("rho", "method"), required=("rho",), parse=_parse_rule
)
