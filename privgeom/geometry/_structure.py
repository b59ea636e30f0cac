"""What is already known about a cone: :class:`ConeStructure`, so that nothing is recomputed by double description.

Many row cones are known in closed form: randomized response is simplicial with the ``2^k`` facets of Lin & Kifer's
Theorem 4.3 and the ``2^k`` rows of ``M_rr`` as extreme rays (a Kronecker product of ``k`` one-bit cones); ε-DP
over a graph is cut out by one irredundant inequality ``x_i ≤ e^ε x_j`` per directed edge (Lin & Kifer, Section V);
the geometric, FRAPP and k-RR mechanisms are invertible, so their row cones are simplicial with the columns of
``G^{-1}`` as facets. A :class:`ConeStructure` carries this knowledge into :class:`~privgeom.geometry.Cone`:

- counts (facets, rays, dimension, pointedness) answered without building any matrix;
- facets known to be irredundant and rays known to be extreme, built only on demand and then only normalised and
  sorted (never passed through cdd's redundancy removal);
- a structured membership test and the ratio bounds ``sup x_a / x_b`` over the cone (its projection onto a pair,
  Lin & Kifer Section V), e.g. ``r^{ham(a, b)}`` for randomized response, factorised bit by bit;
- for cones cut out by ratio bounds (*difference constraints*), the bounds themselves.

Every dense representation is size-checked from the known counts *before* it is built.

Examples
--------
>>> import numpy as np
>>> from privgeom.geometry import Cone
>>> s = ConeStructure("simplicial", "the positive quadrant", n_facets=2, n_rays=2, dim=2, pointed=True,
...                   facets=lambda: np.eye(2, dtype=int), rays=lambda: np.eye(2, dtype=int))
>>> c = Cone.from_structure(s, labels=["a", "b"], exact=True)
>>> c.n_facets, c.n_rays, c.is_pointed, repr(c)
(2, 2, True, "<Cone in R^2 (exact): simplicial, 2 facets, 2 rays (not built); labels ['a', 'b']>")
>>> c.facets.tolist()
[[Fraction(1, 1), Fraction(0, 1)], [Fraction(0, 1), Fraction(1, 1)]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Protocol

import numpy as np

from .._core.errors import SizeLimitError
from .._core.limits import current_limit
from ._canonical import canonical_pair, empty

__all__ = [
    "ConeStructure",
    "DifferenceData",
    "RowTest",
    "StructuredCone",
    "check_rows_size",
    "kronecker_integer_row",
    "kronecker_integer_rows",
    "normalised_facet",
    "structured_facet",
    "structured_rows",
]


class RowTest(NamedTuple):
    """One vector tested against a row cone, as :attr:`ConeStructure.contains` reports it: ``member``, and for a no
    the violated inequality ``normal`` with ``normal · x = value < 0``."""

    member: bool
    normal: Any = None
    value: Any = None


@dataclass(frozen=True)
class DifferenceData:
    """A cone ``{x ≥ 0 : x_a ≤ c x_b for every constraint (a, b, c)}`` (ratio bounds = difference constraints in
    log space). ``a``, ``b`` are int arrays of coordinate indices, ``c`` the bounds (Fractions in exact mode, floats
    otherwise; all finite and positive). The coordinates in ``nonneg`` carry a facet ``x_i ≥ 0`` (the others'
    non-negativity is implied)."""

    a: np.ndarray
    b: np.ndarray
    c: tuple[Any, ...]
    nonneg: tuple[int, ...] = ()


@dataclass(frozen=True)
class ConeStructure:
    """Known facts about a cone (see the module doc). Every field is optional except ``kind``.

    Attributes
    ----------
    kind : str
        ``"kronecker"``, ``"difference"``, ``"simplicial"``, ...
    description : str
        One readable sentence (e.g. "for every bit string s, one facet Σ_D p^{ham(s,D)} (p−1)^{k−ham(s,D)} x_D ≥ 0").
    n_facets, n_rays, dim : int or None
        Counts known without building anything.
    pointed : bool or None
    facets : callable returning the irredundant facet rows (any positive scaling), or None
        The cone must then have no equalities (it is full-dimensional).
    rays : callable returning the extreme rays, or None (the cone must then be pointed)
    contains : callable ``(x, exact, atol) ->`` :class:`RowTest` or None
        Structured membership of a vector (``normal`` a violated valid inequality with value ``normal·x``).
    pair_bounds : callable ``(ia, ib) -> (forward, backward)`` or None
        For index arrays ``ia``, ``ib``: ``forward[t] = sup x_{ia[t]} / x_{ib[t]}`` over the cone (``math.inf`` when
        unbounded), ``backward`` the reverse ratio; Fractions in exact mode.
    facet : callable ``(i) -> row`` or None
        One facet row by index (in the order of ``facets()``), without building the others.
    difference : DifferenceData or None
        The ratio constraints when the cone is cut out by them.
    extra : dict
        Anything else known (``"symmetry"``: a callable returning the symmetry group; ``"facet_action"``:
        a vectorised ``(p, items) -> images`` giving the facet index each facet maps to under an automorphism ``p``).
    canonical_facets : callable or None
        The facets already in the canonical form of :class:`~privgeom.geometry.Cone` (primitive, sorted; exact
        mode only): used as they are, no normalisation at all.
    """

    kind: str
    description: str = ""
    n_facets: int | None = None
    n_rays: int | None = None
    dim: int | None = None
    pointed: bool | None = None
    facets: Callable[[], Any] | None = field(default=None, repr=False)
    rays: Callable[[], Any] | None = field(default=None, repr=False)
    contains: Callable[[np.ndarray, bool, float], RowTest] | None = field(default=None, repr=False)
    pair_bounds: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None = field(
        default=None, repr=False
    )
    facet: Callable[[int], Any] | None = field(default=None, repr=False)
    difference: DifferenceData | None = field(default=None, repr=False)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)
    canonical_facets: Callable[[], Any] | None = field(default=None, repr=False)


class StructuredCone(Protocol):
    """What the functions below read of a cone: its :class:`ConeStructure` (None when none is known), its ambient
    dimension and its mode. :class:`~privgeom.geometry.Cone` is one; naming the protocol instead of the class keeps
    this module below ``_cone`` (which imports it)."""

    @property
    def structure(self) -> ConeStructure | None: ...

    @property
    def ambient_dim(self) -> int: ...

    @property
    def exact(self) -> bool: ...


def check_rows_size(n_rows: int | None, dim: int, *, exact: bool, what: str) -> None:
    """Refuse to build ``n_rows x dim`` rows beyond the dense limits, naming the sizes (before any work).

    Raises
    ------
    SizeLimitError
        ``n_rows * dim`` above the global size limit ``exact_entries`` (exact) or ``dense_entries`` (float),
        read at call time (:func:`privgeom.get_limits`; raise it with :func:`privgeom.set_limits` or
        :func:`privgeom.limits`).

    Examples
    --------
    >>> check_rows_size(4, 4, exact=True, what="facets")
    >>> check_rows_size(2**14, 2**14, exact=True, what="the facets")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: the facets would need a dense 16384 x 16384 exact array (268,435,456 entries, about 25.0 GiB; limit 4,194,304 entries); refused before building anything — raise it with pg.set_limits(exact_entries=268435456) or `with pg.limits(exact_entries=268435456):`, or use the counts, membership and pair bounds, which need no dense matrix
    """
    from .._core import arrays as _arrays, hints as _hints, numbers as _numbers

    if n_rows is None:
        return
    limit = current_limit("exact_entries") if exact else current_limit("dense_entries")
    entries = int(n_rows) * int(dim)
    if entries > limit:
        mode = "exact" if exact else "float"
        n_bytes = entries * (_arrays.EXACT_ENTRY_BYTES if exact else _arrays.FLOAT_ENTRY_BYTES)
        head = (
            f"{what} would need a dense {n_rows} x {dim} {mode} array ({entries:,} entries, about "
            f"{_numbers.memory_text(n_bytes)}; limit {limit:,} entries); refused before building anything"
        )
        alternative = "use the counts, membership and pair bounds, which need no dense matrix"
        if n_bytes > _arrays.UNREACHABLE_BYTES:
            raise SizeLimitError(f"{head} — no computer's memory holds it; {alternative}")
        hint = _hints.limit_hint("exact_entries" if exact else "dense_entries", entries)
        raise SizeLimitError(f"{head} — {hint}, or {alternative}")


def structured_rows(
    st: ConeStructure, kind: str, dim: int, *, exact: bool, atol: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The facets (``kind="H"``) or extreme rays (``"V"``) that the structure ``st`` gives for a cone in ``R^dim``, in
    canonical form (integer rows in exact mode; no equalities / lineality), size-checked before anything is built;
    None when the structure does not give them. Known facets are irredundant and known rays extreme, so they are only
    normalised and sorted (no double description); ``canonical_facets`` are used as they are.

    >>> s = ConeStructure("simplicial", n_facets=2, facets=lambda: [[0, 2], [3, 0]])
    >>> structured_rows(s, "H", 2, exact=True, atol=0.0)[0].tolist(), structured_rows(s, "V", 2, exact=True, atol=0.0)
    ([[1, 0], [0, 1]], None)
    """
    source = st.facets if kind == "H" else st.rays
    count = st.n_facets if kind == "H" else st.n_rays
    if source is None:
        return None
    what = "the facets" if kind == "H" else "the extreme rays"
    check_rows_size(count, dim, exact=exact, what=f"{what} of this {st.kind} cone in R^{dim}")
    if kind == "H" and exact and st.canonical_facets is not None:
        return np.asarray(st.canonical_facets()), np.zeros((0, dim), dtype=np.int64)
    rows = np.array(source(), dtype=object if exact else float).reshape(-1, dim)
    if exact and not all(type(v) is int or isinstance(v, Fraction) for v in rows.ravel()):
        rows = np.vectorize(Fraction, otypes=[object])(rows) if rows.size else rows
    return canonical_pair(rows, empty(dim, exact), exact=exact, atol=atol, as_int=exact)


def normalised_facet(raw: Any, exact: bool) -> np.ndarray:
    """One facet row scaled to primitive integers (exact) or unit max-abs entry (float), touching only its nonzero
    entries (facets of large cones are sparse)."""
    arr = np.asarray(raw, dtype=object if exact else float).ravel()
    nz = [i for i, v in enumerate(arr.tolist()) if v != 0]
    if not exact:
        top = max((abs(float(arr[i])) for i in nz), default=1.0)
        return arr / top
    vals = [Fraction(arr[i]) for i in nz]
    den = 1
    for v in vals:
        den = math.lcm(den, v.denominator)
    ints = [int(v * den) for v in vals]
    g = 0
    for x in ints:
        g = math.gcd(g, x)
    out = np.full(len(arr), Fraction(0), dtype=object)
    for i, x in zip(nz, ints):
        out[i] = Fraction(x // (g or 1))
    return out


def structured_facet(cone: StructuredCone, i: int) -> Any:
    """Facet ``i`` of a structured cone (difference constraints or a facet callback), built alone (no H-rep)."""
    st = cone.structure
    if st is not None and st.kind == "difference" and st.difference is not None:
        d = st.difference
        row = np.zeros(cone.ambient_dim, dtype=object if cone.exact else float)
        if i < len(d.a):
            row[int(d.b[i])] = d.c[i] if cone.exact else float(d.c[i])
            row[int(d.a[i])] = -1 if not cone.exact else Fraction(-1)
        else:
            row[int(d.nonneg[i - len(d.a)])] = Fraction(1) if cone.exact else 1.0
        return row
    assert st is not None and st.facet is not None
    return np.asarray(st.facet(i))


#: Integers below this magnitude are kept in ``int64`` rows (products of two such never overflow in a check).
_INT64_ROWS = 2**62


def kronecker_integer_rows(cone: StructuredCone, kind: str, *, sort: bool = True) -> np.ndarray | None:
    """The facets (``kind="H"``) or extreme rays (``"V"``) of an exact ``"kronecker"`` cone as primitive integer rows,
    built from the structure in one Kronecker power, without a single ``Fraction``; None for any other cone.

    For randomized response with ``p = a/b`` (Lin & Kifer, Theorem 4.3; see ``docs/theory.md``), ``b^k`` times the
    facet of ``s`` is row ``s`` of ``⊗^k [[a−b, a], [a, a−b]]`` and ``b^k`` times the ray of output ``ω`` (a row of
    ``M_rr``) is row ``ω`` of ``⊗^k [[a, b−a], [b−a, a]]`` (bit 1 first, the datasets' order). ``gcd(a, b−a) = 1``
    makes every row primitive, so these are exactly the canonical rows of :class:`~privgeom.geometry.Cone`. Facets
    come in the structure's order (row ``i`` is the facet of dataset ``i``, as :func:`structured_facet` gives it),
    rays in the canonical order (decreasing lexicographic; ``sort=False``: row ``i`` is the ray of output ``i``). ``int64`` when the entries fit, Python ints otherwise.

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> cone = RandomizedResponse(1, "3/4").row_cone()
    >>> kronecker_integer_rows(cone, "H").tolist(), kronecker_integer_rows(cone, "V").tolist()
    ([[-1, 3], [3, -1]], [[3, 1], [1, 3]])
    """
    st = cone.structure
    if st is None or st.kind != "kronecker" or not cone.exact or kind not in ("H", "V"):
        return None
    k, p = st.extra.get("k"), st.extra.get("p")
    if not isinstance(k, int) or not isinstance(p, Fraction) or not 0 < p <= 1:
        return None
    a, b = p.numerator, p.denominator
    n = 2**k
    check_rows_size(
        n, n, exact=True, what=f"the {'facets' if kind == 'H' else 'extreme rays'} of this kronecker cone in R^{n}"
    )
    big = max(a, b - a) ** k >= _INT64_ROWS
    dtype: Any = object if big else np.int64
    B = np.array([[a - b, a], [a, a - b]] if kind == "H" else [[a, b - a], [b - a, a]], dtype=dtype)
    K = np.array([[1]], dtype=dtype)
    for _ in range(k):
        K = np.kron(K, B)
    if kind == "V" and sort:
        if big:
            order = np.array(sorted(range(n), key=lambda i: tuple(K[i].tolist()), reverse=True), dtype=np.int64)
        else:
            order = np.lexsort(K.T[::-1])[::-1]
        K = K[order]
    K.setflags(write=False)
    return K


def kronecker_integer_row(cone: StructuredCone, i: int) -> np.ndarray | None:
    """Row ``i`` of :func:`kronecker_integer_rows` ``(cone, "H")`` (the facet of dataset ``i``) alone, in ``O(2^k)``
    memory: the Kronecker product of the ``k`` rows of ``[[a−b, a], [a, a−b]]`` picked by the bits of ``i`` (most
    significant first); None for any other cone.

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> cone = RandomizedResponse(2, "3/4").row_cone()
    >>> [kronecker_integer_row(cone, i).tolist() for i in range(4)] == kronecker_integer_rows(cone, "H").tolist()
    True
    """
    st = cone.structure
    if st is None or st.kind != "kronecker" or not cone.exact:
        return None
    k, p = st.extra.get("k"), st.extra.get("p")
    if not isinstance(k, int) or not isinstance(p, Fraction) or not 0 < p <= 1:
        return None
    a, b = p.numerator, p.denominator
    dtype: Any = object if max(a, b - a) ** k >= _INT64_ROWS else np.int64
    B = np.array([[a - b, a], [a, a - b]], dtype=dtype)
    row = np.array([1], dtype=dtype)
    for t in range(k - 1, -1, -1):
        row = np.kron(row, B[(i >> t) & 1])
    row.setflags(write=False)
    return row
