"""Readable summaries of a row cone and its semantics: counts, symmetry orbits and one representative per orbit.

A row cone (Lin & Kifer, Section III) can have thousands of facets over thousands of datasets — randomized response
on ``k`` bits has ``2^k`` facets of ``2^k`` coefficients each (Theorem 4.3). The automorphisms of the definition
(:func:`~privgeom.automorphisms`) permute the facets and their Bayesian guarantees (Section III-C), so a reader needs
the counts, the orbits and one representative of each. This module computes those without building what the
structure already knows: the facets of randomized response are indexed by strings ``s`` and permuted like the
strings; the facets of ε-DP are the directed edges of the neighbour graph (Section V); other cones are read from
their canonical facets.

Examples
--------
>>> from privgeom import RandomizedResponse
>>> s = describe_row_cone(RandomizedResponse(10, "3/4"))
>>> s.n_facets, [o.size for o in s.facet_orbits], s.group_order
(1024, [1024], 3715891200)
>>> print(s.facet_orbits[0].inequality)  # doctest: +NORMALIZE_WHITESPACE
59049·X0 − 19683·X1 + 6561·X2 − 2187·X3 + 729·X4 − 243·X5 + 81·X6 − 27·X7 + 9·X8 − 3·X9 + 1·X10 ≥ 0, where Xh is
the sum of x_D over the datasets D at Hamming distance h from 0000000000
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar, cast

import numpy as np

from ..._core.lazy import LazySequence
from ..._core.errors import InvalidInputError, PrivgeomError
from ..._core.limits import register_limit
from ..._core.arrays import ATOL
from ..._core.numbers import number_text as _fmt
from ..._core.results import Result
from ...geometry._cone import Cone
from ...geometry._structure import normalised_facet, structured_facet
from ...geometry._symmetry import Orbit, SymmetryGroup, automorphisms, source_phrase
from ...definitions._orbit_structure import OrbitStructure, orbit_structure_of
from .._coerce import as_cone
from ._semantics import Guarantee, SparseNormal, sparse_difference_facet
from ._wording import MAX_LISTED, bit_matrix, parity_sentence

if TYPE_CHECKING:
    from ...definitions._base import PrivacyDefinition

__all__ = [
    "FacetOrbit",
    "RowConeSummary",
    "describe_row_cone",
    "format_facet",
    "format_vector",
    "guarantee_with_parity",
    "orbit_summary",
    "shown_as_public_base",
]

#: The JSON of a summary carries the representative's inequality and sentence for this many orbits (all carry their
#: size and members; the facets themselves are in the complete data).
MAX_ORBIT_TEXTS = 100

#: Most coefficients a text listing of every facet/guarantee/ray shows (``rowcone --all``, ``semantics --all``): a
#: screenful per line is unreadable long before this; larger listings are refused before any work and go to
#: ``--out FILE`` / ``--json``, which carry every one as data.
MAX_LISTED_COEFFICIENTS = 10**7
register_limit(
    "listed_coefficients",
    globals(),
    "MAX_LISTED_COEFFICIENTS",
    "most coefficients a text listing of every facet, guarantee or ray prints (rowcone/semantics --all; "
    "--out and --json carry any number)",
)


def _terms(values: Sequence[Any], names: Sequence[str]) -> str:
    """``3·a − 1·b + …`` (sorted as given; zero coefficients skipped)."""
    parts: list[str] = []
    for v, name in zip(values, names):
        if v == 0:
            continue
        mag = _fmt(abs(v))
        if not parts:
            parts.append(f"{'−' if v < 0 else ''}{mag}·{name}")
        else:
            parts.append(f"{'−' if v < 0 else '+'} {mag}·{name}")
    return " ".join(parts) if parts else "0"


def _hamming_classes(
    normal: Sequence[Any] | np.ndarray, labels: Sequence[str], exact: bool
) -> tuple[int, dict[int, Any]] | None:
    """``(t, {h: c_h})`` when the coefficient of ``D`` depends only on ``h = ham(D, t)``, ``t`` the largest entry."""
    bits = bit_matrix(tuple(labels))
    if bits is None:
        return None
    vals = list(normal)
    t = max(range(len(vals)), key=lambda i: (abs(vals[i]), -i))
    dist = (bits != bits[t]).sum(axis=1).tolist()
    prof: dict[int, Any] = {}
    for h, v in zip(dist, vals):
        if prof.setdefault(h, v) != v:
            if exact or abs(float(prof[h]) - float(v)) > ATOL * max(1.0, abs(float(v))):
                return None
    return t, dict(sorted(prof.items()))


def format_facet(
    normal: Sequence[Any] | SparseNormal, labels: Sequence[str], *, exact: bool = True, limit: int = MAX_LISTED
) -> str:
    """A facet ``a·x ≥ 0`` as one readable line: in full up to ``limit`` terms, else grouped by Hamming distance
    (bit-string datasets whose coefficient depends only on the distance to one dataset), else by its size.

    Examples
    --------
    >>> format_facet([3, -1, 0], ["a", "b", "c"])
    '3·x_a − 1·x_b ≥ 0'
    >>> from privgeom import RandomizedResponse
    >>> print(format_facet(RandomizedResponse(4, "3/4").facet("1111", scaled=True), RandomizedResponse(4, "3/4").inputs))
    81·X0 − 27·X1 + 9·X2 − 3·X3 + 1·X4 ≥ 0, where Xh is the sum of x_D over the datasets D at Hamming distance h from 0000
    """
    if isinstance(normal, SparseNormal):  # the support alone (ε-DP facets: two nonzeros)
        if len([v for v in normal.values if v != 0]) <= limit:
            sv = dict(zip(normal.index, normal.values))
            order_s = sorted((i for i, v in sv.items() if v != 0), key=lambda i: (-float(sv[i]), i))
            return _terms([sv[i] for i in order_s], [f"x_{labels[i]}" for i in order_s]) + " ≥ 0"
        arr: np.ndarray = normal.dense(exact=exact)
    else:
        arr = normal if isinstance(normal, np.ndarray) else np.asarray(list(normal), dtype=object)
    nz = np.flatnonzero(arr != 0).tolist()  # one vectorised pass: facets of large cones are long and sparse
    vals = arr
    if len(nz) <= limit:
        order = sorted(nz, key=lambda i: (-float(vals[i]), i))
        return _terms([vals[i] for i in order], [f"x_{labels[i]}" for i in order]) + " ≥ 0"
    classes = _hamming_classes(vals, labels, exact)
    if classes is not None:
        t, prof = classes
        return (
            _terms(list(prof.values()), [f"X{h}" for h in prof]) + f" ≥ 0, where Xh is the sum of x_D over the "
            f"datasets D at Hamming distance h from {labels[t]}"
        )
    lo, hi = min(vals[i] for i in nz), max(vals[i] for i in nz)
    return (
        f"a·x ≥ 0 with {len(nz)} nonzero coefficients from {_fmt(lo)} to {_fmt(hi)} (largest on "
        f"{labels[max(nz, key=lambda i: (vals[i], -i))]}; every coefficient with --all or --json)"
    )


def format_vector(vector: Sequence[Any], labels: Sequence[str], *, exact: bool = True, limit: int = MAX_LISTED) -> str:
    """A ray as one readable line (same grouping rules as :func:`format_facet`).

    Examples
    --------
    >>> format_vector([1, 0, 3], ["a", "b", "c"])
    '(a: 1, c: 3)'
    """
    vals = list(vector)
    nz = [i for i, v in enumerate(vals) if v != 0]
    if len(nz) <= limit:
        return "(" + ", ".join(f"{labels[i]}: {_fmt(vals[i])}" for i in nz) + ")"
    classes = _hamming_classes(vals, labels, exact)
    if classes is not None:
        t, prof = classes
        shown = ", ".join(f"{_fmt(v)}" for v in prof.values())
        return f"x_D = ({shown})[h] at Hamming distance h = {', '.join(map(str, prof))} from {labels[t]}"
    return f"{len(nz)} nonzero entries from {_fmt(min(vals[i] for i in nz))} to {_fmt(max(vals[i] for i in nz))}"


@dataclass(frozen=True, eq=False)
class FacetOrbit(Result):
    """One orbit of facets under the symmetry group: its size, a representative (index into the facet order used by
    :func:`describe_row_cone`), the representative as a readable inequality and its Bayesian guarantee (both built on
    first read, so that thousands of orbits cost nothing until shown)."""

    size: int
    representative: int
    members: tuple[int, ...] = field(repr=False)
    labels: tuple[str, ...] = field(repr=False)
    exact: bool = field(repr=False)
    source: Any = field(repr=False)

    @cached_property
    def _raw(self) -> Any:
        return self.source()

    @cached_property
    def _sparse(self) -> SparseNormal | None:
        """The representative as its support when the source gives it so (already normalised), else None."""
        raw = self._raw
        return raw if isinstance(raw, SparseNormal) else None

    @cached_property
    def normal(self) -> np.ndarray:
        """The representative facet, normalised like canonical facets (primitive integers / unit max-abs)."""
        sp = self._sparse
        return sp.dense(exact=self.exact) if sp is not None else normalised_facet(self._raw, self.exact)

    @cached_property
    def inequality(self) -> str:
        sp = self._sparse
        return format_facet(sp if sp is not None else list(self.normal), self.labels, exact=self.exact)

    @cached_property
    def guarantee(self) -> Guarantee:
        sp = self._sparse
        return Guarantee(labels=self.labels, exact=self.exact, source=sp if sp is not None else self.normal)

    def summary(self) -> str:
        return f"{self.size} facet{'s' if self.size != 1 else ''} like {self.inequality}"

    def to_dict(self, *, text: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"size": self.size, "representative": self.representative, "members": list(self.members)}
        if text:
            out.update({"inequality": self.inequality, "guarantee": self.guarantee.text})
        return out


_T = TypeVar("_T")


def shown_as_public_base(cls: type[_T]) -> type[_T]:
    """Show a private subclass under the name of its public base: ``type(x).__name__`` (read by summaries and the
    notebook display) and the repr say ``Relaxation`` / ``FacetOrbit``, the type the user is documented to receive.
    The subclasses only build parts lazily; ``__qualname__`` stays private, so pickling still finds the class."""
    base = next(c for c in cls.__mro__[1:] if not c.__name__.startswith("_"))
    base_repr: Any = base.__repr__
    private = cls.__qualname__

    def __repr__(self: Any) -> str:
        text = base_repr(self)  # a dataclass repr: '<qualname>(field=…, …)'
        return base.__name__ + text[len(private) :] if text.startswith(private) else text

    cls.__repr__ = __repr__  # type: ignore[method-assign]
    cls.__name__ = base.__name__
    return cls


def guarantee_with_parity(
    labels: tuple[str, ...], source: Any, parity: tuple[tuple[int, ...], int, str] | None
) -> Guarantee:
    """The guarantee of an exact facet (``source`` gives its primitive integer normal) whose parity rule is known in
    closed form (``(J, c, t)``: ``S+ = {D : c + Σ_{j∈J} D_j even}``, ``t`` the dataset with the largest coefficient;
    see :class:`~privgeom.definitions._orbit_structure.OrbitStructure`): the answer
    :func:`~privgeom.analyses.guarantees._wording.parity_structure` would find by elimination, set without it."""
    g = Guarantee(labels=labels, exact=True, source=source)
    if parity is not None:
        J, const, t = parity
        g.__dict__["_parity"] = (J, parity_sentence(J, const, t, full=True))
    return g


@shown_as_public_base
@dataclass(frozen=True, eq=False)
class _OrbitFacetOrbit(FacetOrbit):
    """A facet orbit of a definition known per orbit: the representative is already primitive integers (no pass over
    Fractions) and its guarantee carries the parity rule the definition gives (:func:`orbit_summary`)."""

    @cached_property
    def normal(self) -> np.ndarray:
        return cast(np.ndarray, self.source())

    @cached_property
    def guarantee(self) -> Guarantee:
        return guarantee_with_parity(self.labels, lambda: self.normal, self.__dict__.get("_parity_rule"))


def _hamming_class_text(profile: tuple[str, list[Any]]) -> str:
    """A facet whose coefficient depends only on the Hamming distance ``h`` from ``t``, as :func:`format_facet` writes
    it (``profile = (t, values by h)``)."""
    t, values = profile
    return (
        _terms(values, [f"X{h}" for h in range(len(values))]) + f" ≥ 0, where Xh is the sum of x_D over the "
        f"datasets D at Hamming distance h from {t}"
    )


def orbit_summary(
    obj: Any, *, rays: bool = False, definition: str | None = None, group: SymmetryGroup | None = None
) -> RowConeSummary | None:
    """The summary of a definition that offers its structure per orbit
    (:class:`~privgeom.definitions._orbit_structure.OrbitStructured`), one facet orbit at a time from that data;
    None (the generic route of :func:`describe_row_cone`) for any other object, for rays or a given group.

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> s = orbit_summary(RandomizedResponse(12, "3/4"))
    >>> s.n_facets, [o.size for o in s.facet_orbits], s.group_source
    (4096, [4096], 'hypercube')
    >>> orbit_summary(RandomizedResponse(12, "3/4"), rays=True) is None
    True
    """
    os = orbit_structure_of(obj)
    if rays or group is not None or os is None:
        return None
    return _summary_of_orbits(os, definition)


def _summary_of_orbits(os: OrbitStructure, definition: str | None) -> RowConeSummary:
    cone, G, labels = os.cone, os.group, os.labels
    st = cone.structure
    n = len(labels)

    def make(j: int) -> FacetOrbit:
        fo = os.facet_orbits[j]
        rep = fo.representative
        o = _OrbitFacetOrbit(
            size=fo.size,
            representative=rep,
            members=cast(tuple, fo.members),
            labels=labels,
            exact=True,
            source=lambda: os.normal(rep),
        )
        if os.parity is not None:
            o.__dict__["_parity_rule"] = os.parity(rep)
        if n > MAX_LISTED and os.hamming_profile is not None:  # the text of format_facet, in closed form
            o.__dict__["inequality"] = _hamming_class_text(os.hamming_profile(rep))
        return o

    return RowConeSummary(
        definition=definition if definition is not None else os.name,
        n_datasets=n,
        dim=cone.dim,
        pointed=cone.is_pointed,
        n_facets=os.n_facets,
        n_equalities=0,
        n_rays=st.n_rays if st is not None else None,
        rule=st.description if st is not None else "",
        group_source=G.source,
        group_order=G.order,
        group_complete=G.complete,
        facet_orbits=LazySequence(len(os.facet_orbits), make),
        ray_orbits=None,
        notes=(),
        group=G,
        exact=True,
    )


@dataclass(frozen=True)
class RowConeSummary(Result):
    """Counts, symmetry and facet orbits of a row cone (see :func:`describe_row_cone`)."""

    definition: str
    n_datasets: int
    dim: int
    pointed: bool
    n_facets: int
    n_equalities: int
    n_rays: int | None
    rule: str
    group_source: str
    group_order: int | None
    group_complete: bool
    facet_orbits: Sequence[FacetOrbit]
    ray_orbits: tuple[tuple[int, str], ...] | None
    notes: tuple[str, ...]
    group: SymmetryGroup = field(repr=False)
    exact: bool = True

    def header(self) -> str:
        """The one-line description of the cone."""
        rays = f"{self.n_rays:,} extreme rays" if self.n_rays is not None else "extreme rays not computed (--rays)"
        eq = f", {self.n_equalities} equalities" if self.n_equalities else ""
        return (
            f"row cone in R^{self.n_datasets}: dimension {self.dim}, {self.n_facets} facets{eq}, {rays}, "
            f"{'pointed' if self.pointed else 'not pointed'}"
        )

    def symmetry_line(self) -> str:
        order = f"of order {self.group_order:,}" if self.group_order is not None else "of unknown order"
        what = "all automorphisms" if self.group_complete else "a subgroup of the automorphisms"
        n_orb = len(self.facet_orbits)
        return (
            f"symmetry: {source_phrase(self.group_source)} group {order} ({what}); the {self.n_facets} facets form {n_orb} "
            f"orbit{'s' if n_orb != 1 else ''}"
        )

    def lines(self, *, max_orbits: int = 20, indent: str = "  ") -> list[str]:
        """The readable report: header, rule, symmetry, one line per facet orbit (at most ``max_orbits``)."""
        out = [self.header()]
        if self.rule:
            out.append(f"{indent}{self.rule}")
        out.append(f"{indent}{self.symmetry_line()}")
        for o in self.facet_orbits[:max_orbits]:
            out.append(f"{indent}- {o.size} × {o.inequality}")
        if len(self.facet_orbits) > max_orbits:
            shown = sum(o.size for o in self.facet_orbits[:max_orbits])  # the rest are counted, not built
            out.append(
                f"{indent}… {len(self.facet_orbits) - max_orbits} more orbits ({self.n_facets - shown} facets); "
                "--all lists every facet"
            )
        if self.ray_orbits is not None:
            out.append(
                f"{indent}extreme rays: {self.n_rays:,} in {len(self.ray_orbits):,} orbit"
                f"{'s' if len(self.ray_orbits) != 1 else ''}"
            )
            for size, text in self.ray_orbits[:max_orbits]:
                out.append(f"{indent}- {size} × {text}")
            if len(self.ray_orbits) > max_orbits:
                out.append(f"{indent}… {len(self.ray_orbits) - max_orbits} more ray orbits; --all lists every ray")
        out += [f"{indent}note: {n}" for n in self.notes]
        return out

    def summary(self) -> str:
        return "\n".join(self.lines())

    def to_dict(self) -> dict[str, Any]:
        return {
            "definition": self.definition,
            "n_datasets": self.n_datasets,
            "dim": self.dim,
            "pointed": self.pointed,
            "n_facets": self.n_facets,
            "n_equalities": self.n_equalities,
            "n_rays": self.n_rays,
            "rule": self.rule,
            "symmetry": self.group.to_dict()
            if self.group.n * len(self.group.generators) <= 100_000
            else {"source": self.group_source, "order": self.group_order},
            "facet_orbits": [o.to_dict(text=j < MAX_ORBIT_TEXTS) for j, o in enumerate(self.facet_orbits)],
            "ray_orbits": None
            if self.ray_orbits is None
            else [{"size": s, "representative": t} for s, t in self.ray_orbits],
            "notes": list(self.notes),
        }


# ------------------------------------------------------------------------------------------------ orbit finders
def _group_of(obj: Any, cone: Cone) -> SymmetryGroup:
    try:
        return automorphisms(obj)
    except PrivgeomError:
        return SymmetryGroup.trivial(cone.labels, source="trivial (symmetry search refused)")


def _singletons(n: int) -> tuple[Orbit, ...]:
    return tuple(Orbit(representative=i, members=(i,), size=1) for i in range(n))


def _kronecker_orbits(G: SymmetryGroup, n: int) -> tuple[Orbit, ...]:
    """Randomized response: facet ``s`` goes to facet ``π(s)`` (the entries depend on ``ham(s, D)`` only)."""
    return G.orbits_of_items(n, lambda p, items: p[items], vectorised=True)


def _difference_orbits(G: SymmetryGroup, data: Any, n: int) -> Sequence[Orbit] | None:
    """ε-DP: the facets are the directed constraints ``x_a ≤ c x_b`` (then ``x_i ≥ 0`` for isolated ``i``).

    A group of one involution (the reversal of a path) gives orbits ``{t, g(t)}`` read off the image array of ``g``
    in one pass, listed lazily (:func:`_involution_orbits`); otherwise the orbits are the components of the maps."""
    a, b = np.asarray(data.a, dtype=np.int64), np.asarray(data.b, dtype=np.int64)
    iso = np.asarray(data.nonneg, dtype=np.int64)
    if data.c and data.c.count(data.c[0]) != len(data.c):  # one ratio (count: identity first, no hashing)
        return None
    codes = np.concatenate([a * n + b, -1 - iso])
    order = np.argsort(codes)
    sorted_codes = codes[order]

    def act(p: np.ndarray, items: np.ndarray) -> np.ndarray:
        img = np.concatenate([p[a] * n + p[b], -1 - p[iso]])[items]
        pos = np.searchsorted(sorted_codes, img)
        pos = np.minimum(pos, len(sorted_codes) - 1)
        if not np.array_equal(sorted_codes[pos], img):
            raise InvalidInputError("the group does not map the constraints to themselves")
        return order[pos]

    try:
        if len(G.generators) == 1:
            img = act(np.asarray(G.generators[0], dtype=np.int64), np.arange(len(codes), dtype=np.int64))
            if np.array_equal(img[img], np.arange(len(codes))):
                return _involution_orbits(img)
        return G.orbits_of_items(len(codes), act, vectorised=True)
    except InvalidInputError:
        return None


def _involution_orbits(img: np.ndarray) -> Sequence[Orbit]:
    """The orbits of the group ``{id, g}`` of an involution with image array ``img`` (``img[img] = id``): ``{t}`` when
    ``g(t) = t``, else ``{t, g(t)}``; in the order and form of :meth:`SymmetryGroup.orbits_of_items` (by smallest
    member, members ascending), each built when read.

    For ε-DP on the path ``0 − 1 − … − n`` under the reversal ``v ↦ n − v`` the directed edge ``i → i+1`` goes to
    ``n−i → n−i−1``: every orbit is a pair (``docs/theory.md`` §7).

    Examples
    --------
    >>> [o.members for o in _involution_orbits(np.array([3, 1, 2, 0]))]
    [(0, 3), (1,), (2,)]
    """
    reps = np.flatnonzero(np.arange(len(img)) <= img)

    def orbit(j: int) -> Orbit:
        t = int(reps[j])
        u = int(img[t])
        return Orbit(representative=t, members=(t,) if u == t else (t, u), size=1 if u == t else 2)

    return LazySequence(len(reps), orbit)


def _ray_orbits(cone: Cone, G: SymmetryGroup) -> tuple[int, tuple[tuple[int, str], ...]]:
    """The generic route: the canonical rays, their orbits by hashing the permuted rows, one text per orbit."""
    R = cone.rays
    try:
        rorb = G.orbits_of_rows(R, atol=cone.atol)
    except InvalidInputError:
        rorb = _singletons(len(R))
    labels = tuple(cone.labels)
    return len(R), tuple((o.size, format_vector(R[o.representative], labels, exact=cone.exact)) for o in rorb)


def _kronecker_ray_orbits(cone: Cone, G: SymmetryGroup) -> tuple[int, tuple[tuple[int, str], ...]] | None:
    """Randomized response: the ray of output ``ω`` (a row of ``M_rr``, entries depending on ``ham(ω, D)`` only) goes
    to the ray of ``π(ω)``, so the ray orbits are the orbits of the strings; each orbit is shown by its first member
    in the canonical ray order, as the generic route does. Integer rows from the structure, no ``Fraction``."""
    from ...geometry._structure import kronecker_integer_rows

    st = cone.structure
    if st is None or st.kind != "kronecker" or G.source != "hypercube":
        return None
    K = kronecker_integer_rows(cone, "V", sort=False)
    if K is None:
        return None
    n = len(K)
    canonical = (
        np.lexsort(K.T[::-1])[::-1]
        if K.dtype != object
        else np.array(sorted(range(n), key=lambda i: tuple(K[i].tolist()), reverse=True), dtype=np.int64)
    )
    position = np.empty(n, dtype=np.int64)
    position[canonical] = np.arange(n)
    found = []
    for o in _kronecker_orbits(G, n):
        members = np.asarray(o.members, dtype=np.int64)
        first = int(members[np.argmin(position[members])])
        found.append((int(position[first]), o.size, first))
    found.sort()
    labels = tuple(cone.labels)
    return n, tuple((size, format_vector(K[first].tolist(), labels, exact=True)) for _, size, first in found)


def _dp_ray_orbits(obj: Any, cone: Cone, G: SymmetryGroup) -> tuple[int, tuple[tuple[int, str], ...]] | None:
    """ε-DP with ``e^ε > 1`` on a connected graph: one lex-leader ray per orbit by orderly generation
    (:func:`~privgeom.definitions.dp_ray_orbits`, ``docs/theory.md`` §7), sizes by orbit–stabiliser; no ray is listed,
    so cones of 10^5 rays and more (the 5-cube: 395,094) are described by their orbits."""
    from ...definitions._dp import DifferentialPrivacy
    from ...definitions._ray_orbits import dp_ray_orbits

    st = cone.structure
    if (
        st is None
        or st.kind != "difference"
        or not isinstance(obj, DifferentialPrivacy)
        or not obj.level.exp_eps > 1
        or st.rays is None
    ):
        return None  # st.rays is None: a disconnected graph (rays by double description)
    orb = dp_ray_orbits(obj, group=G)
    labels = tuple(cone.labels)
    if len(labels) > MAX_LISTED:  # the exponents say more than "32 nonzero entries from 1 to 9"
        base = _fmt(obj.level.exp_eps)
        return orb.n_rays, tuple(
            (size, f"x_D = {base}^u_D with u = ({' '.join(str(e) for e in u)}) in dataset order")
            for size, u in zip(orb.sizes, orb.patterns.tolist())
        )
    R = orb.rays() if cone.exact else np.power(float(obj.level.exp_eps), orb.patterns.astype(float))
    return orb.n_rays, tuple((size, format_vector(list(r), labels, exact=cone.exact)) for size, r in zip(orb.sizes, R))


def describe_row_cone(
    obj: PrivacyDefinition | Cone,
    *,
    rays: bool = False,
    definition: str | None = None,
    group: SymmetryGroup | None = None,
) -> RowConeSummary:
    """Counts, symmetry orbits and one representative per orbit of the facets (and rays) of a row cone.

    Parameters
    ----------
    obj : PrivacyDefinition or Cone
        The symmetry group is that of the definition (:func:`~privgeom.automorphisms`); a bare cone uses the group it
        carries (trivial by default).
    rays : bool
        Also compute the extreme rays and their orbits. Otherwise the rays are never computed (their count is shown
        only when the cone's structure knows it).
    definition : str, optional
        Name shown in the summary (default: the definition's spec).
    group : SymmetryGroup, optional
        A group known to map the cone to itself (e.g. the stabiliser of a relaxation family), instead of searching.

    Notes
    -----
    Facet orbits are found without building the facets where the structure allows: for randomized response
    (Theorem 4.3) the facet of ``s`` maps to the facet of ``π(s)``; for ε-DP (Section V) the facet of a directed edge
    maps to the facet of its image. Otherwise the canonical facets are built (size-checked) and their orbits found by
    hashing the permuted rows. The facet indices of the orbits refer to that order (strings, directed constraints, or
    canonical facets).

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy
    >>> s = describe_row_cone(DifferentialPrivacy.hamming(3, exp_eps=3), rays=True)
    >>> s.n_facets, [o.size for o in s.facet_orbits], sorted(size for size, _ in s.ray_orbits)
    (24, [24], [2, 8, 8, 8, 12])
    """
    per_orbit = orbit_summary(obj, rays=rays, definition=definition, group=group)  # a definition known per orbit
    if per_orbit is not None:
        return per_orbit
    cone = as_cone(obj)
    name = definition if definition is not None else (obj.spec() if hasattr(obj, "spec") else "a cone")
    G = group if group is not None else _group_of(obj, cone)
    labels, exact = tuple(cone.labels), cone.exact
    n = cone.ambient_dim
    st = cone.structure
    notes: list[str] = []
    if G.note and not G.complete:  # a bounded search cut short, or a search not started: say so where it is read
        notes.append(G.note)
    orbits: Sequence[Orbit] | None = None
    facet_rows: np.ndarray | None = None
    n_eq = 0
    if st is not None and st.kind == "kronecker" and st.facet is not None and G.source == "hypercube":
        orbits = _kronecker_orbits(G, cone.n_facets)
    elif st is not None and st.kind == "difference" and st.difference is not None:
        orbits = _difference_orbits(G, st.difference, n)
    elif (
        st is not None
        and st.facet is not None
        and callable(st.extra.get("facet_action"))
        and st.extra.get("facet_action_source") == G.source
        and st.n_facets is not None
    ):
        orbits = G.orbits_of_items(st.n_facets, st.extra["facet_action"], vectorised=True)  # e.g. the geometric
    if orbits is None:
        facet_rows = cone.facets
        n_eq = len(cone.equalities)
        try:
            orbits = G.orbits_of_rows(facet_rows, atol=cone.atol)
        except InvalidInputError:
            notes.append("the symmetry group found does not permute these facets; each facet is its own orbit")
            orbits = _singletons(len(facet_rows))

    def source(i: int) -> Callable[[], Any]:
        if facet_rows is not None:
            rows = facet_rows
            return lambda: rows[i]
        if st is not None and st.kind == "difference" and st.difference is not None:
            return lambda: sparse_difference_facet(cone, i)  # two nonzeros: nothing dense for the report
        return lambda: structured_facet(cone, i)

    orbit_list = orbits if isinstance(orbits, LazySequence) else list(orbits)

    def facet_orbit(j: int) -> FacetOrbit:  # built when read: large cones have 10^5 orbits, a report shows 20
        o = orbit_list[j]
        return FacetOrbit(
            size=o.size,
            representative=o.representative,
            members=o.members,
            labels=labels,
            exact=exact,
            source=source(o.representative),
        )

    facet_orbits = LazySequence(len(orbit_list), facet_orbit)
    n_rays: int | None = st.n_rays if st is not None else None
    ray_orbits = None
    if rays:
        known = _kronecker_ray_orbits(cone, G) if orbits is not None and facet_rows is None else None
        known = known if known is not None else _dp_ray_orbits(obj, cone, G)
        if known is not None:
            n_rays, ray_orbits = known
        else:
            n_rays, ray_orbits = _ray_orbits(cone, G)
        if not (st is not None and st.pointed) and len(cone.lineality):
            notes.append(f"the cone contains a {len(cone.lineality)}-dimensional linear subspace")
    rule = st.description if st is not None else ""
    return RowConeSummary(
        definition=name,
        n_datasets=n,
        dim=cone.dim,
        pointed=cone.is_pointed,
        n_facets=cone.n_facets,
        n_equalities=n_eq,
        n_rays=n_rays,
        rule=rule,
        group_source=G.source,
        group_order=G.order,
        group_complete=G.complete and group is None,
        facet_orbits=facet_orbits,
        ray_orbits=ray_orbits,
        notes=tuple(notes),
        group=G,
        exact=bool(cone.exact),
    )
