"""Routes of the core commands and the sizes checked before them: relaxation families, methods, cone documents.

``--family`` is parsed by :func:`_family` and resolved by :func:`_default_family` (nothing built); the per-orbit
route a definition offers from its structure is taken first (:func:`_relaxation_route`, as ``analyze`` and
:func:`privgeom.analyses.relax_pairwise` do), and only a family that the generic route will expand is checked, from
its size (:func:`_check_family_size`, the size limit ``relax_family``) before it is built. :func:`_relax_method`
refuses block elimination beyond the double-description limit from the number of datasets alone, and
:func:`_check_cone_rays_early` the extreme rays of a cone definition: for a ``cone:`` spec both read the number of
datasets from the JSON document (:func:`_cone_document_dim`), before the definition is prepared.
"""

from __future__ import annotations

import argparse
from typing import Any

from .._core.domain import Domain
from .._core.errors import FormatError, InvalidParameterError, PrivgeomError, SizeLimitError
from .._core.io import load_json, parse_json
from .._core.arrays import parse_int
from .._core.hints import limit_hint
from ..analyses.relaxation._relax_orbits import orbit_relaxation
from ..analyses.relaxation._relaxation import FAMILIES, family_name, subset_family
from ..definitions._registry import split_spec
from .._core.limits import current_limit

__all__ = ["FM_MAX_DATASETS"]


def _family(value: str) -> Any:
    """A family name (:data:`~privgeom.analyses.relaxation._relaxation.FAMILIES`: ``hamming``, ``all-pairs``, ``triples`` and the relation
    names ``replace-one``, ``add-remove``, ``path``, ``complete``) or an explicit list ``11:10,11:01`` (subsets
    joined by ':'); a value without ':' is a name, checked by :func:`~privgeom.analyses.relaxation._relaxation.family_name`.

    Raises
    ------
    InvalidParameterError
        An empty family (``--family ''``), naming the value.
    FormatError
        A malformed list.
    """
    if not value.strip():
        raise InvalidParameterError(
            f"--family {value!r} is empty: use one of {', '.join(FAMILIES)} or a list of subsets like 11:10,11:01"
        )
    if ":" not in value and "," not in value:
        return value.strip().lower()
    subsets = [tuple(part.split(":")) for part in value.split(",") if part]
    if not subsets or any(len(s) < 1 or "" in s for s in subsets):
        raise FormatError(f"bad subset family {value!r}: use hamming, all-pairs, triples or a list like 11:10,11:01")
    return subsets


def _default_family(labels: Any, requested: str | None, datasets: Any = None) -> Any:
    """The requested family, its name resolved (:func:`~privgeom.analyses.relaxation._relaxation.family_name`;
    ``datasets``: the definition's :func:`~privgeom.analyses.relaxation._relaxation.relaxation_domain`, whose relation
    names are families), else ``hamming`` on bit strings and ``all-pairs`` otherwise. Nothing is built:
    :func:`_checked_family` checks the family before a route that expands it."""
    if requested is not None:
        family = _family(requested)
        return family_name(family, labels if datasets is None else datasets) if isinstance(family, str) else family
    bits = bool(labels) and Domain.from_labels(labels).is_bits
    return "hamming" if bits else "all-pairs"


def _checked_family(
    labels: Any, family: Any, max_family: int | None = None, datasets: Any = None, *, requested: bool = True
) -> None:
    """Check a family that the generic route will expand: its size from the number of datasets (refused beyond
    ``max_family``, the size limit ``relax_family``), then a ``requested`` family's subsets against the datasets (the
    typed error naming them: a bad family is a user error)."""
    _check_family_size(labels, family, max_family)
    if requested and (not isinstance(family, str) or family == "hamming"):
        subset_family(labels if datasets is None else datasets, family)


def _relaxation_route(
    definition: Any,
    labels: Any,
    family: Any,
    method: str | None,
    max_family: int,
    datasets: Any,
    *,
    requested: bool = True,
) -> Any:
    """The relaxation the definition answers per orbit from its structure (randomized response onto its Hamming
    pairs: :func:`~privgeom.analyses.relaxation._relax_orbits.orbit_relaxation`, the route ``analyze`` and
    :func:`~privgeom.analyses.relax_pairwise` take), else None after checking the family for the generic route
    (:func:`_checked_family`): a family too large to expand is refused only when it would be expanded."""
    known = orbit_relaxation(definition, family, method or "auto")
    if known is None:
        _checked_family(labels, family, max_family, datasets, requested=requested)
    return known


#: Above this many datasets the CLI projects by block elimination instead of one-coordinate-at-a-time Fourier–Motzkin
#: (same cone, cross-checked in the tests; FM's per-step redundancy LPs take about a minute on 16 datasets).
FM_MAX_DATASETS = 8


def _relax_method(dim: int, requested: str | None) -> str:
    """The relaxation method (``auto`` by default: the difference-constraint route where it applies) for a row cone
    in ``R^dim``; the cone route by block elimination beyond the double-description limit is refused here, before
    anything is built (for a ``cone:`` spec, from its document's labels, before the definition is prepared)."""
    method = requested or "auto"

    blocky = method == "block" or (method == "cone" and dim > FM_MAX_DATASETS)
    if blocky and dim > current_limit("dd_dim"):
        raise SizeLimitError(
            f"relaxation by block elimination: {dim} datasets exceed the "
            f"double-description limit of {current_limit('dd_dim')} dimensions (dd_dim); refused before "
            "running cdd — use --method auto or difference, which need no double description, or "
            f"{limit_hint('dd_dim', dim)}"
        )
    return method


def _max_family(args: argparse.Namespace) -> int:
    """``--max-family`` (the global size limit ``relax_family`` for one command; also ``--limit relax_family=N``)."""
    value = getattr(args, "max_family", None)
    return (
        current_limit("relax_family") if value is None else parse_int(value, name="--max-family", min=1, allow_str=True)
    )


def _max_family_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-family",
        dest="max_family",
        metavar="N",
        default=None,
        help=f"refuse relaxation families of more than N subsets (default: the size limit relax_family, "
        f"{current_limit('relax_family'):,}); checked from the sizes before the family is built",
    )


def _check_family_size(labels: Any, family: Any, limit: int | None = None) -> None:
    """Refuse a relaxation family whose size (computed from the number of datasets) exceeds ``limit`` (default: the
    size limit ``relax_family``; ``--max-family``)."""
    cap = current_limit("relax_family") if limit is None else limit
    n = len(labels)
    k = len(labels[0]) if n else 0
    size = (
        {"hamming": n * k // 2, "all-pairs": n * (n - 1) // 2, "triples": n * (n - 1) * (n - 2) // 6}.get(family, None)
        if isinstance(family, str)
        else len(family)
    )
    if size is not None and size > cap:
        raise SizeLimitError(
            f"the relaxation family {family!r} has {size:,} subsets of the {n:,} datasets, more than "
            f"the limit of {cap:,} subsets; refused before expanding it — give --family a smaller "
            f"list, or {limit_hint('relax_family', size)}"
        )


def _family_sets(labels: Any, family: Any) -> list[tuple[str, ...]]:
    """The subsets of a family; ``hamming`` by flipping each bit of each label (``O(N k)``), else
    :func:`~privgeom.analyses.relaxation._relaxation.subset_family`."""
    if family != "hamming" or not isinstance(labels, (list, tuple)):
        return subset_family(labels, family)
    where = {s: i for i, s in enumerate(labels)}
    out: list[tuple[str, ...]] = []
    for s in labels:
        for j in range(len(s)):
            t = s[:j] + ("0" if s[j] == "1" else "1") + s[j + 1 :]
            if where.get(t, -1) > where[s]:
                out.append((s, t))
    if not out or len(out) * 2 != len(labels) * len(labels[0]):
        return subset_family(labels, family)  # not a full cube: the generic rule (and its error messages)
    return out


def _cone_document_dim(spec: str) -> int | None:
    """The number of datasets of a ``cone:file=`` / ``cone:json=`` spec, read from its JSON document without
    preparing the definition (None for other specs, or a document the definition's own parser will reject)."""
    if not isinstance(spec, str):
        return None
    try:
        kind, params = split_spec(spec)
    except PrivgeomError:
        return None  # parse_definition names the error
    if kind.lower() != "cone" or ("file" in params) == ("json" in params):
        return None
    doc = (
        load_json(params["file"], what="cone definition")
        if "file" in params
        else parse_json(params["json"], what="cone definition", where="cone:json")
    )
    labels = doc.get("labels") if isinstance(doc, dict) else None
    return len(labels) if isinstance(labels, list) else None


def _check_cone_rays_early(spec: str) -> None:
    """Refuse the extreme rays of a cone definition (``cone:file=`` / ``cone:json=``) from its document, before the
    definition is prepared: its canonical form costs a linear program per given row (minutes for a cone in R^70),
    and its rays come from double description (a cone definition has no closed-form rays), which the size limit
    ``dd_dim`` refuses beyond its number of dimensions — the ambient dimension is the number of datasets, which
    preparation does not change (:func:`privgeom.geometry._cdd.h_to_v` checks the same before running cdd)."""

    dim = _cone_document_dim(spec)
    if dim is not None and dim > current_limit("dd_dim"):  # the limit dd_dim, read at call time
        shown = spec if len(spec) <= 60 else spec[:57] + "..."
        raise SizeLimitError(
            f"the extreme rays of {shown}: ambient dimension {dim} (its datasets) exceeds the "
            f"double-description limit of {current_limit('dd_dim')} dimensions (dd_dim); refused before "
            "preparing the definition, whose rays need double description — "
            f"{limit_hint('dd_dim', dim)}"
        )
