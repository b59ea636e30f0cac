"""Spec strings for privacy definitions: ``"rr:k=3,p=3/4"``, ``"dp:graph=hamming,k=2,exp_eps=3"`` …

A spec is ``<kind>:<key>=<value>,<key>=<value>,…``. Commas inside brackets or quotes do not split (so inline JSON
works: ``finite:json=[…]``). Each kind has a factory registered with :func:`register_definition_kind`; it receives
the parameters as a ``dict`` of strings, *pops* the keys it understands, and returns a
:class:`~privgeom.definitions.PrivacyDefinition`. Keys left over are reported as a :class:`~privgeom.FormatError`.

Built-in kinds
--------------
``rr``
    ``k=<int>,p=<rational or float>[,exact=false]`` — :class:`RandomizedResponse`.
``dp``
    ``graph=hamming,k=<int>`` | ``graph=complete,n=<int>`` | ``graph=path,n=<int>`` |
    ``graph=replace-one,n=<int>,records=<m or a;b>`` (databases; ``categories=`` for histograms) |
    ``graph=add-remove,n=<int>,records=…`` (every size ``0..n``) |
    ``graph=edges,inputs=a;b;c,edges=a~b;b~c``, then ``exp_eps=<rational ≥ 1>`` or ``eps=<number or ln(r)>``,
    optionally ``exact=false`` — :class:`DifferentialPrivacy` (``eps=1.2`` is float mode).
``cone``
    ``file=<path.json>`` or ``json=<JSON>`` — :class:`ConeDefinition` (a polyhedral cone over the datasets; format
    in :mod:`privgeom.definitions._cone_definition`).
``finite``
    ``file=<path.json>`` (one mechanism or a JSON list of them, ``Mechanism.to_json`` format) or
    ``json=<the same JSON inline>`` — :class:`FiniteDefinition`.

Compound forms
--------------
``intersection(SPEC, SPEC, …)`` and ``hull(SPEC, SPEC, …)`` combine at least two definitions on the same datasets
(:func:`~privgeom.intersection`, :func:`~privgeom.hull`; registered by :mod:`privgeom.analyses`). The members are
specs themselves, written as they are: ``intersection(rr:k=2,p=3/4, dp:graph=hamming,k=2,exp_eps=3)`` — a part
that opens with ``<kind>:`` or ``<name>(`` starts the next member (:func:`split_compound`). Forms nest (at most
:data:`MAX_SPEC_NESTING` deep). ``d.spec()`` of what :func:`~privgeom.intersection` and :func:`~privgeom.hull` return is
such a form, read back as the same definition when the members' specs are. The other design operations
(:func:`~privgeom.without`, :func:`~privgeom.only`, :func:`~privgeom.from_guarantees`, :func:`~privgeom.compose` of
definitions) return a :class:`ConeDefinition` or :class:`FiniteDefinition` whose spec is its exact JSON document
(``cone:json=…``, ``finite:json=…``): their parameters (facet positions, a predicate) are not part of the spec.

Examples
--------
>>> parse_definition("rr:k=2,p=3/4").name
'randomized response (k=2, p=3/4)'
>>> parse_definition("dp:graph=path,n=5,eps=1.2").exact
False
>>> d = parse_definition("dp:graph=hamming,k=2,exp_eps=3")
>>> parse_definition(d.spec()).spec() == d.spec()
True
>>> parse_definition("rr:k=2")
Traceback (most recent call last):
...
privgeom._core.errors.FormatError: spec 'rr:k=2': rr needs p=<value>
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .._core.domain import Domain
from .._core.errors import FormatError, InvalidInputError, InvalidParameterError, PrivgeomError
from .._core.arrays import parse_int
from .._core.lazy import SPEC_LOADERS
from ._base import PrivacyDefinition

__all__ = [
    "parse_definition",
    "register_definition_kind",
    "definition_kinds",
    "split_spec",
    "spec_int",
    "spec_required",
    "spec_bool",
    "DefinitionFactory",
    "CompoundFactory",
    "split_compound",
    "MAX_SPEC_NESTING",
]

DefinitionFactory = Callable[[dict[str, str]], PrivacyDefinition]
#: The factory of a compound form ``name(SPEC, SPEC, …)``: the parsed member definitions, in order.
CompoundFactory = Callable[[list[PrivacyDefinition]], PrivacyDefinition]

_KINDS: dict[str, DefinitionFactory] = {}
_COMPOUND: dict[str, CompoundFactory] = {}

#: How deeply compound forms may nest (``intersection(hull(…), …)``): deeper specs are refused, not recursed into.
MAX_SPEC_NESTING = 32

#: The start of one definition inside a compound form: ``<kind>:`` or ``<name>(`` (a parameter is ``<key>=``).
_MEMBER_START = re.compile(r"\s*([A-Za-z0-9_-]+)\s*([:(])")


def register_definition_kind(
    name: str, factory: Callable[[Any], PrivacyDefinition], *, replace: bool = False, compound: bool = False
) -> None:
    """Register a spec kind: ``parse_definition("<name>:…")`` calls ``factory(params)``; with ``compound=True`` a
    compound form: ``parse_definition("<name>(SPEC, SPEC, …)")`` calls ``factory([definition, definition, …])``.

    Parameters
    ----------
    name : str
        Lower-case identifier (letters, digits, ``_``, ``-``).
    factory : callable
        Takes the ``dict`` of string parameters, pops what it uses, returns a :class:`PrivacyDefinition`; for a
        compound form, takes the list of the (at least two) parsed member definitions.
    replace : bool
        Allow overriding an existing kind.
    compound : bool
        Register a compound form ``name(…)`` (:func:`~privgeom.intersection`, :func:`~privgeom.hull` register theirs).

    Raises
    ------
    InvalidInputError
        A bad name, or a kind that is already registered (without ``replace=True``), or a name registered as the
        other sort (a kind and a compound form never share a name).
    """
    if not isinstance(name, str) or not name or not all(ch.isalnum() or ch in "_-" for ch in name):
        raise InvalidInputError(f"a definition kind must be a simple identifier, got {name!r}")
    table, other = (_COMPOUND, _KINDS) if compound else (_KINDS, _COMPOUND)
    if name in other:
        raise InvalidInputError(f"{name!r} is already registered as a {'kind' if compound else 'compound form'}")
    if name in table and not replace:
        raise InvalidInputError(f"definition kind {name!r} is already registered")
    if not callable(factory):
        raise InvalidInputError(f"the factory of definition kind {name!r} is not callable")
    table[name] = factory


def _load_compound_forms() -> None:
    while SPEC_LOADERS:  # the façade's import of the module registering intersection(…) and hull(…)
        SPEC_LOADERS.pop(0)()


def definition_kinds(*, compound: bool = False) -> tuple[str, ...]:
    """The registered spec kinds (``compound=True``: the compound forms ``name(…)``), sorted."""
    if compound:
        _load_compound_forms()
    return tuple(sorted(_COMPOUND if compound else _KINDS))


def _top_level_parts(text: str, spec: str) -> list[str]:
    """``text`` split at the commas outside ``[]``, ``{}``, ``()`` and double quotes (FormatError naming ``spec`` when
    the brackets or quotes do not balance). The one tokenizer of specs: parameters and compound members alike."""
    parts: list[str] = []
    depth, quote = 0, False
    cur: list[str] = []
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "[{(":
            depth += 1
        elif not quote and ch in "]})":
            depth -= 1
            if depth < 0:
                raise FormatError(f"spec {spec!r}: unbalanced {ch!r}")
        if ch == "," and depth == 0 and not quote:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth or quote:
        raise FormatError(f"spec {spec!r}: unbalanced brackets or quotes")
    parts.append("".join(cur))
    return parts


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"kind:k1=v1,k2=v2"`` into ``("kind", {"k1": "v1", "k2": "v2"})``.

    Commas inside ``[]``, ``{}``, ``()`` or double quotes do not separate parameters.

    Raises
    ------
    FormatError
        No ``kind:``, an empty or duplicated key, a part without ``=``, unbalanced brackets.

    Examples
    --------
    >>> split_spec('finite:json=[{"a": [1, 2]}],x=1')
    ('finite', {'json': '[{"a": [1, 2]}]', 'x': '1'})
    """
    if not isinstance(spec, str):
        raise FormatError(f"a definition spec must be a string, got {type(spec).__name__}")
    kind, sep, rest = spec.strip().partition(":")
    kind = kind.strip()
    if not sep or not kind:
        raise FormatError(f"spec {spec!r}: expected '<kind>:<key>=<value>,…' (e.g. 'rr:k=3,p=3/4')")
    parts = _top_level_parts(rest, spec)
    params: dict[str, str] = {}
    for part in parts:
        if not part.strip() and len(parts) == 1:
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise FormatError(f"spec {spec!r}: part {part.strip()!r} is not <key>=<value>")
        if key in params:
            raise FormatError(f"spec {spec!r}: key {key!r} given twice")
        params[key] = value.strip()
    return kind, params


def split_compound(spec: str) -> tuple[str, list[str]] | None:
    """Split ``"name(S1, S2, …)"`` into ``("name", ["S1", "S2", …])``; None for a ``kind:…`` spec.

    The commas come from the one spec tokenizer (outside brackets and quotes). A member starts at a part that opens
    with ``<kind>:`` or ``<name>(``; the parts after it that are ``<key>=<value>`` are its parameters, so the
    members' own commas need no quoting: ``intersection(rr:k=2,p=3/4, dp:graph=hamming,k=2,exp_eps=3)``.

    Raises
    ------
    FormatError
        No closing ``)`` at the end, unbalanced brackets, an empty member, or a first part that is not a definition
        (each message names the text).

    Examples
    --------
    >>> split_compound("intersection(rr:k=2,p=3/4, hull(rr:k=2,p=2/3, rr:k=2,p=3/5))")
    ('intersection', ['rr:k=2,p=3/4', 'hull(rr:k=2,p=2/3, rr:k=2,p=3/5)'])
    >>> split_compound("rr:k=2,p=3/4") is None
    True
    """
    if not isinstance(spec, str):
        raise FormatError(f"a definition spec must be a string, got {type(spec).__name__}")
    head = _MEMBER_START.match(spec)
    if head is None or head.group(2) != "(":
        return None
    name, text = head.group(1), spec.strip()
    if not text.endswith(")"):
        raise FormatError(
            f"spec {spec!r}: {name}(…) must end with the ')' that closes its '(' (unbalanced or trailing text)"
        )
    members: list[str] = []
    body = text[text.index("(") + 1 : -1]
    for part in _top_level_parts(body, spec) if body.strip() else []:
        if not part.strip():
            raise FormatError(f"spec {spec!r}: an empty member in {name}(…) (two commas in a row or a trailing comma)")
        if _MEMBER_START.match(part):
            members.append(part.strip())
        elif members:
            members[-1] += "," + part.rstrip()
        else:
            raise FormatError(
                f"spec {spec!r}: {part.strip()!r} does not start a definition (expected '<kind>:…' or '<name>(…)')"
            )
    return name, members


def spec_required(params: dict[str, str], key: str, kind: str) -> str:
    """Pop a required parameter (FormatError naming it when missing or empty)."""
    value = params.pop(key, None)
    if value is None or value == "":
        raise FormatError(f"{kind} needs {key}=<value>")
    return value


def spec_int(params: dict[str, str], key: str, kind: str, *, minimum: int | None = None) -> int:
    """Pop a required integer parameter (validated by :func:`privgeom._core.arrays.parse_int`), at least ``minimum``.

    The error names the spec's key (``krr: n=1 must be >= 2``), not the parameter of the class it feeds.
    """
    raw = spec_required(params, key, kind)
    try:
        value = parse_int(raw, name=f"{kind}: {key}", allow_str=True)
    except InvalidParameterError:
        raise FormatError(f"{kind}: {key}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise InvalidParameterError(f"{kind}: {key}={raw} must be >= {minimum}")
    return value


def spec_bool(params: dict[str, str], key: str, kind: str) -> bool | None:
    """Pop an optional ``true``/``false`` parameter (None when absent)."""
    raw = params.pop(key, None)
    if raw is None:
        return None
    low = raw.lower()
    if low in ("true", "1", "yes"):
        return True
    if low in ("false", "0", "no"):
        return False
    raise FormatError(f"{kind}: {key}={raw!r} is not true/false")


def parse_definition(spec: str | PrivacyDefinition) -> PrivacyDefinition:
    """Build a privacy definition from a spec string (a :class:`PrivacyDefinition` is returned unchanged).

    The built-in kinds are the definitions of Lin & Kifer's row-cone paper: ``rr`` (randomized response, §IV),
    ``dp`` (ε-differential privacy over a neighbour graph, §V) and ``finite`` (a finite set of mechanisms,
    Theorem 3.4); the catalogue modules register more kinds with :func:`register_definition_kind`.

    Examples
    --------
    >>> parse_definition("rr:k=3,p=3/4").spec()
    'rr:k=3,p=3/4'
    >>> d = parse_definition("dp:graph=hamming,k=2,exp_eps=3")
    >>> d.level.exp_eps, d.inputs
    (Fraction(3, 1), ('11', '10', '01', '00'))
    >>> parse_definition("rr:k=3")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.FormatError: spec 'rr:k=3': rr needs p=<value>

    Raises
    ------
    FormatError
        Malformed spec, unknown kind, missing or unknown keys (the message names the bad part).
    InvalidParameterError, SizeLimitError, DomainMismatchError, …
        A well-formed spec with a bad value; the message is prefixed with the spec.
    """
    if isinstance(spec, PrivacyDefinition):
        return spec
    return _parse(spec, 0)


def _parse(spec: str, depth: int) -> PrivacyDefinition:
    compound = split_compound(spec)
    if compound is not None:
        return _parse_compound(spec, *compound, depth=depth)
    kind, params = split_spec(spec)
    factory = _KINDS.get(kind)
    if factory is None:
        raise FormatError(
            f"spec {spec!r}: unknown definition kind {kind!r}; known kinds: {list(definition_kinds())}"
            f" and compound forms {[f'{c}(…)' for c in definition_kinds(compound=True)]}"
        )
    try:
        definition = factory(params)
    except PrivgeomError as err:
        raise type(err)(f"spec {spec!r}: {err}") from None
    if params:
        raise FormatError(f"spec {spec!r}: unknown key(s) {sorted(params)} for kind {kind!r}")
    return definition


def _parse_compound(spec: str, name: str, members: list[str], *, depth: int) -> PrivacyDefinition:
    """``name(S1, S2, …)``: parse every member (errors name the member), then the registered factory."""
    _load_compound_forms()
    factory = _COMPOUND.get(name)
    if factory is None:
        raise FormatError(
            f"spec {spec!r}: unknown compound form {name!r}(…); known: {list(definition_kinds(compound=True))}"
        )
    if depth >= MAX_SPEC_NESTING:
        raise FormatError(f"spec {spec[:80]!r}…: compound forms nested more than {MAX_SPEC_NESTING} deep; refused")
    if len(members) < 2:
        raise FormatError(f"spec {spec!r}: {name}(…) needs at least two definitions, got {len(members)}: {members}")
    parsed: list[PrivacyDefinition] = []
    for i, text in enumerate(members, 1):
        try:
            parsed.append(_parse(text, depth + 1))
        except PrivgeomError as err:
            raise type(err)(f"spec {spec!r}, member {i}: {err}") from None
    try:
        return factory(parsed)
    except PrivgeomError as err:
        raise type(err)(f"spec {spec!r}: {err}") from None


# ---------------------------------------------------------------------------------------------------- built-ins
def _rr(params: dict[str, str]) -> PrivacyDefinition:
    from ._rr import RandomizedResponse

    k = spec_int(params, "k", "rr")
    p = spec_required(params, "p", "rr")
    exact = spec_bool(params, "exact", "rr")
    return RandomizedResponse(k, p, exact=exact)


def _dp(params: dict[str, str]) -> PrivacyDefinition:
    from ._dp import DifferentialPrivacy

    graph = spec_required(params, "graph", "dp")
    exact = spec_bool(params, "exact", "dp")
    eps = params.pop("eps", None)
    exp_eps = params.pop("exp_eps", None)
    if (eps is None) == (exp_eps is None):
        raise FormatError("dp needs exactly one of eps=<ε> and exp_eps=<e^ε>")
    if graph in _DP_SPEC_GRAPHS:
        key, domain_of = _DP_SPEC_GRAPHS[graph]
        domain = domain_of(spec_int(params, key, "dp"))
        return DifferentialPrivacy(graph, eps=eps, exp_eps=exp_eps, inputs=domain, exact=exact)
    if graph in ("replace-one", "add-remove"):
        domain = _structured_domain(params, graph == "add-remove")
        return DifferentialPrivacy(graph, eps=eps, exp_eps=exp_eps, inputs=domain, exact=exact)
    if graph == "edges":
        inputs = [s for s in spec_required(params, "inputs", "dp").split(";")]
        raw = params.pop("edges", "")
        edges = []
        for part in raw.split(";") if raw else []:
            u, tilde, v = part.partition("~")
            if not tilde:
                raise FormatError(f"dp: edge {part!r} is not <label>~<label>")
            edges.append((u, v))
        return DifferentialPrivacy(edges, eps=eps, exp_eps=exp_eps, inputs=inputs, exact=exact)
    raise FormatError(f"dp: graph={graph!r} is not one of {', '.join(_DP_SPEC_GRAPHS)}, replace-one, add-remove, edges")


def _structured_domain(params: dict[str, str], up_to: bool) -> Domain:
    """``n=<int>`` and exactly one of ``records=<m or a;b;c>`` (databases) / ``categories=<…>`` (histograms)."""
    n = spec_int(params, "n", "dp")
    given = [k for k in ("records", "categories") if k in params]
    if len(given) != 1:
        raise FormatError(
            "dp: graph=replace-one/add-remove needs n= and exactly one of records= (databases) and "
            f"categories= (histograms); got {given or 'neither'}"
        )
    raw = params.pop(given[0])
    values: Any = int(raw) if raw.isdigit() else [v for v in raw.split(";")]
    if given[0] == "records":
        return Domain.databases(n, values, up_to=up_to)
    return Domain.histograms(n, values, up_to=up_to)


def _complete_domain(n: int) -> Domain:
    if n < 2:
        raise InvalidParameterError(f"dp: graph=complete needs n >= 2 datasets, got n = {n}")
    return Domain.from_labels(range(n))


def _path_domain(n: int) -> Domain:
    if n < 1:
        raise InvalidParameterError(f"dp: graph=path needs n >= 1 (the counts 0..n and at least one edge), got {n}")
    return Domain.counts(n)


#: ``dp:graph=<name>``: the size key and the :class:`~privgeom.Domain` the named relation lives on.
_DP_SPEC_GRAPHS: dict[str, tuple[str, Callable[[int], Domain]]] = {
    "hamming": ("k", Domain.bits),
    "complete": ("n", _complete_domain),
    "path": ("n", _path_domain),
}


def _finite(params: dict[str, str]) -> PrivacyDefinition:
    from ._finite import FiniteDefinition, _mechanisms_from_json

    path = params.pop("file", None)
    inline = params.pop("json", None)
    if (path is None) == (inline is None):
        raise FormatError("finite needs exactly one of file=<path.json> and json=<JSON>")
    if path is not None:
        return FiniteDefinition.load(path)
    assert inline is not None
    return FiniteDefinition(_mechanisms_from_json(inline, where="finite:json"))


def _cone(params: dict[str, str]) -> PrivacyDefinition:
    from ._cone_definition import ConeDefinition

    path = params.pop("file", None)
    inline = params.pop("json", None)
    if (path is None) == (inline is None):
        raise FormatError("cone needs exactly one of file=<path.json> and json=<JSON>")
    if path is not None:
        return ConeDefinition.load(path)
    assert inline is not None
    return ConeDefinition.from_dict(inline)


register_definition_kind("rr", _rr)
register_definition_kind("dp", _dp)
register_definition_kind("finite", _finite)
register_definition_kind("cone", _cone)
