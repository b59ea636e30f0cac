"""The sweep queries of amplification: ``shuffle`` (the shuffled tally's worst δ) and ``subsample`` (ε after subsampling).

Their grid axes are fields of the template, which :func:`privgeom.sweep` fills at every point: the number of users
``{n}`` and the sampling rate ``{rate}`` need no new sweep option.

- ``shuffle``: template ``"LOCAL @ n={n}"`` (``LOCAL`` a definition spec made of one mechanism, e.g.
  ``"rr:k=1,p=3/4 @ n={n}"``), option ``eps`` (required) and ``scope`` (``auto``, ``all``, ``clones``);
  fields ``delta``/``delta_exact``, ``log10_delta``, ``rel_error``, ``certified`` (every dataset examined) and
  ``pair`` (a pair attaining it).
- ``subsample``: template ``"FILE.json @ rate={rate}, records=N[, categories=C][, every_size=1][, removed=V]"`` or
  ``"FILE.json @ size=T, population=N, records=T"``; fields ``exp_eps``, ``exp_eps_subsampled``, ``bbg_exp_eps``
  (each with its ``_exact`` text) and ``holds``.

Examples
--------
>>> import privgeom as pg
>>> frame = pg.sweep("rr:k=1,p=3/4 @ n={n}", {"n": [2, 3]}, "shuffle", scheduler="serial", eps="ln(2)")
>>> frame["delta_exact"].tolist(), frame["certified"].tolist()
(['3/16', '9/64'], [True, True])
"""

from __future__ import annotations

from typing import Any, Mapping

from .._core.domain import Domain
from .._core.errors import FormatError
from .._core.arrays import parse_int
from ..amplification import shuffled, subsampled
from ..amplification._subsample import bbg_bound
from ..analyses import epsilon
from ..definitions import parse_definition
from ..mechanisms import Mechanism
from ._queries import as_mechanism, exact_fields, register_query

__all__: list[str] = []


def _split(spec: str, what: str) -> tuple[str, dict[str, str]]:
    if "@" not in spec:
        raise FormatError(f"{what} template {spec!r}: write 'BASE @ key=value, …' (e.g. 'rr:k=1,p=3/4 @ n={{n}}')")
    base, _, params = spec.rpartition("@")
    out: dict[str, str] = {}
    for part in params.split(","):
        key, eq, value = part.partition("=")
        if not eq:
            raise FormatError(f"{what} template {spec!r}: {part.strip()!r} is not key=value")
        out[key.strip()] = value.strip()
    return base.strip(), out


def _parse_shuffle(spec: str) -> Any:
    base, params = _split(spec, "shuffle")
    if set(params) != {"n"}:
        raise FormatError(f"shuffle template {spec!r}: the parameters are n=N only, got {sorted(params)}")
    return shuffled(as_mechanism(parse_definition(base)), parse_int(params["n"], name="n", min=1, allow_str=True))


def _shuffle(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The worst δ(ε) of the shuffled tally over neighbouring pairs (option ``eps``, required; ``scope``: auto, all,
    clones), by ``pg.shuffled(local, n).worst_case``."""
    w = obj.worst_case(options["eps"], scope=options.get("scope") or "auto")
    r = w.delta
    return {
        **exact_fields("delta", r.value),
        "log10_delta": r.log10,
        "rel_error": r.rel_error,
        "certified": w.certified,
        "pair": str(r.pair),
    }


def _parse_subsample(spec: str) -> Any:
    base, params = _split(spec, "subsample")
    known = {"rate", "size", "population", "records", "categories", "every_size", "removed"}
    if not set(params) <= known or "records" not in params:
        raise FormatError(
            f"subsample template {spec!r}: parameters {sorted(known)} (records required), got {sorted(params)}"
        )
    raw = Mechanism.load(base)
    dom = Domain.histograms(
        parse_int(params["records"], name="records", min=0, allow_str=True),
        parse_int(params.get("categories", "2"), name="categories", min=1, allow_str=True),
        up_to=params.get("every_size", "0") not in ("0", "false", ""),
    )
    M = Mechanism(raw.matrix, dom, raw.outputs, exact=raw.exact)
    if "rate" in params:
        return (
            M,
            subsampled(M, rate=params["rate"], removed=params.get("removed")),
            params["rate"],
            "add-remove" if "removed" not in params else "replace-one",
        )
    size = parse_int(params["size"], name="size", min=0, allow_str=True)
    pop = parse_int(params["population"], name="population", min=size, allow_str=True)
    from fractions import Fraction

    return M, subsampled(M, size=size, n=pop), Fraction(size, pop), "replace-one"


def _subsample(obj: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The exact ε of a subsampled mechanism next to Balle–Barthe–Gaboardi's bound ``ln(1 + γ(e^ε − 1))``."""
    M, S, rate, relation = obj
    t0 = epsilon(M, relation).level.exp_eps
    t1 = epsilon(S, relation).level.exp_eps
    bound = bbg_bound(t0, rate)[0]
    return {
        **exact_fields("exp_eps", t0),
        **exact_fields("exp_eps_subsampled", t1),
        **exact_fields("bbg_exp_eps", bound),
        "holds": bool(t1 <= bound),
    }


register_query(
    "shuffle", _shuffle, needs="LOCAL @ n=N", options=("eps", "scope"), required=("eps",), parse=_parse_shuffle
)
register_query("subsample", _subsample, needs="FILE.json @ rate=γ, records=N", parse=_parse_subsample)
