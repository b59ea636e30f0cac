"""Row-cone containment ``rowcone(X) ⊆ rowcone(Y)`` without listing extreme rays: generators or LPs, per orbit.

The generic route (:meth:`privgeom.geometry.Cone.issubset`) enumerates the extreme rays of ``rowcone(X)``; for
ε-DP on the Hamming graph of ``k`` bits there are billions of them at ``k = 6``. Here each direction uses whichever
description is small (docs/theory.md, "Containment without enumeration"):

* **generators of X against facets of Y.** When ``rowcone(X)`` has few, known generators (randomized response: the
  ``2^k`` rows of ``M_rr``, Lin & Kifer Theorem 4.3), ``rowcone(X) ⊆ rowcone(Y)`` iff every generator satisfies every
  facet of ``Y``. A generator that fails is the refuting witness.
* **an LP per facet of Y over the facets of X.** ``rowcone(X) ⊆ {a·x ≥ 0}`` iff ``min a·x`` over
  ``rowcone(X) ∩ {1·x = 1}`` is ``≥ 0`` (the cone is the conic hull of that slice when it lies in the orthant).
  The LP is solved by HiGHS and its optimum recovered exactly from the optimal basis
  (:mod:`privgeom.geometry._exact_lp`): a negative exact minimiser is a point of ``rowcone(X)`` outside ``Y`` (the
  refuting witness, re-verified on X's facets), and a non-negative optimum comes with exact dual multipliers on X's
  facets and the normalisation (reduced costs ``≥ 0``): the Farkas certificate ``a = Σ_f y_f f + λ 1 + s``,
  ``y, s ≥ 0``, ``λ ≥ 0``.

**Symmetry.** Let ``G`` be a group of dataset permutations mapping both cones onto themselves (the generators both
definitions register with :func:`privgeom.automorphisms` have in common). Since ``a·(g x) = (g⁻¹ a)·x`` and ``G``
permutes the generators of X and the facets of Y, it suffices to check one generator of X per ``G``-orbit (against
every facet of Y), or to solve one LP per ``G``-orbit of Y's facets. For randomized response against ε-DP on the
Hamming graph, the hypercube group makes both one orbit: one generator and one LP.

Examples
--------
>>> from privgeom.definitions import RandomizedResponse, DifferentialPrivacy
>>> rr, dp = RandomizedResponse(3, "3/4"), DifferentialPrivacy.hamming(3, exp_eps=3)
>>> c = lp_containment(rr, dp)
>>> c.holds, c.how, c.checks
(True, 'generators', 24)
>>> d = lp_containment(dp, rr)
>>> d.holds, d.how, d.lps, d.value < 0
(False, 'lp', 1, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import singledispatch
from typing import Any, Callable, NamedTuple

import numpy as np

from ..._core.errors import SolverError
from ..._core.arrays import ATOL
from ...definitions import PrivacyDefinition

__all__ = ["LPContainment", "lp_containment", "cone_generators", "ConeGenerators"]


@dataclass(frozen=True)
class LPContainment:
    """Outcome of :func:`lp_containment` (private: :func:`~privgeom.compare` reports it as an ``Inclusion``).

    ``holds``; ``how`` is ``"generators"`` or ``"lp"``; ``witness`` a point of ``rowcone(X)`` with
    ``normal·witness = value < 0`` for a facet ``normal`` of ``rowcone(Y)`` when it fails; ``farkas`` the exact dual
    multipliers proving each facet-orbit LP optimum ``≥ 0`` (one tuple per LP) when it holds; ``checks`` the number
    of (generator, facet) products evaluated, ``lps`` the number of LPs solved, ``orbits`` the orbit count used.
    """

    holds: bool
    how: str
    exact: bool
    witness: np.ndarray | None
    normal: np.ndarray | None
    value: Any
    farkas: tuple[tuple[Fraction, ...], ...]
    checks: int
    lps: int
    orbits: int
    group_order: int | None


# ---------------------------------------------------------------------------------------------------- families
class _Ratios(NamedTuple):
    """Difference constraints ``x_a[t] ≤ c[t] x_b[t]`` as three aligned arrays."""

    a: np.ndarray
    b: np.ndarray
    c: np.ndarray


@dataclass(frozen=True)
class _Facets:
    """The facets of a row cone as an indexed family: ``vector(t)``, all of them as difference constraints when
    ``diff`` (``x_a ≤ c x_b``), and ``act(p, items)`` the facet each facet goes to under an automorphism ``p``."""

    n: int
    vector: Callable[[int], np.ndarray]
    act: Callable[[np.ndarray, np.ndarray], np.ndarray] | None
    diff: _Ratios | None


def _facets(definition: PrivacyDefinition) -> _Facets | None:
    cone = definition.row_cone()
    st = cone.structure
    if st is None:
        return None
    N = len(definition.inputs)
    if st.difference is not None:
        a, b = np.asarray(st.difference.a, dtype=np.int64), np.asarray(st.difference.b, dtype=np.int64)
        c = np.array(list(st.difference.c), dtype=object if cone.exact else float)
        if len(st.difference.nonneg) or len(set(st.difference.c)) != 1:
            return None  # keep to the uniform ratio cones (ε-DP) whose non-negativity is implied
        keys = a * N + b
        order = np.argsort(keys)
        skeys = keys[order]

        def act(p: np.ndarray, items: np.ndarray) -> np.ndarray:
            img = p[a[items]] * N + p[b[items]]
            pos = np.searchsorted(skeys, img)
            pos = np.minimum(pos, len(skeys) - 1)
            if not np.array_equal(skeys[pos], img):
                raise SolverError("a registered automorphism does not map the ratio constraints onto themselves")
            return order[pos]

        def vector(t: int) -> np.ndarray:
            v = np.zeros(N, dtype=object) if cone.exact else np.zeros(N)
            v[b[t]] += c[t]
            v[a[t]] -= 1
            return v

        return _Facets(n=len(a), vector=vector, act=act, diff=_Ratios(a=a, b=b, c=c))
    if st.facet is not None and st.n_facets is not None and st.dim == N:  # full-dimensional: no equalities
        fa = st.extra.get("facet_action")
        return _Facets(
            n=int(st.n_facets),
            vector=lambda t: np.asarray(st.facet(t)),  # type: ignore[misc]
            act=fa,
            diff=None,
        )
    return None


class ConeGenerators(NamedTuple):
    """A known generating family of a row cone: ``n`` generators, ``generator(i)`` the ``i``-th, and ``act(p,
    items)`` the generator each generator goes to under an automorphism ``p``."""

    n: int
    generator: Callable[[int], np.ndarray]
    act: Callable[..., Any]


@singledispatch
def cone_generators(definition: Any) -> ConeGenerators | None:
    """``(n, generator(i), act)`` when the row cone has few known generators (a registry by type), else None.

    ``act(p, items)`` gives the generator each generator goes to under an automorphism ``p``.
    """
    return None


def _rr_generators(rr: Any) -> ConeGenerators:
    """The rows of ``M_rr = ⊗^k [[p, 1−p], [1−p, p]]`` (Lin & Kifer Theorem 4.3: they generate the row cone), row
    ``i`` (output = dataset ``i``) built as a Kronecker product without the others. The hypercube group maps row
    ``ω`` to row ``p(ω)`` (``M_rr[p ω, p D] = M_rr[ω, D]``)."""
    p = rr.p
    one = Fraction(1) if rr.exact else 1.0

    def row(i: int) -> np.ndarray:
        bits = rr.inputs[i]
        out = np.array([one], dtype=object if rr.exact else float)
        for ch in bits:  # dataset bit 1 first (reverse lexicographic labels)
            out = np.kron(out, np.array((p, 1 - p) if ch == "1" else (1 - p, p), dtype=out.dtype))
        return out

    return ConeGenerators(n=rr.n_inputs, generator=row, act=lambda perm, items: perm[items])


def _register() -> None:
    from ...definitions import RandomizedResponse

    cone_generators.register(RandomizedResponse, _rr_generators)


_register()


def _primitive(x: np.ndarray) -> np.ndarray:
    """A positive multiple of a rational vector with coprime integer entries (as Fractions); floats unchanged."""
    if x.dtype != object:
        return x
    import math

    den = 1
    for v in x:
        den = den * Fraction(v).denominator // math.gcd(den, Fraction(v).denominator)
    ints = [int(Fraction(v) * den) for v in x]
    g = 0
    for v in ints:
        g = math.gcd(g, v)
    return np.array([Fraction(v, g or 1) for v in ints], dtype=object)


# ---------------------------------------------------------------------------------------------------- group
def _preserves(D: PrivacyDefinition, registered: set[tuple[int, ...]], p: tuple[int, ...]) -> bool:
    """Does the dataset permutation ``p`` map ``rowcone(D)`` onto itself? A ratio cone: its constraint set is mapped
    onto itself (checked); otherwise only a generator of D's registered (verified) group is accepted."""
    if p in registered:
        return True
    st = D.row_cone().structure
    if st is None or st.difference is None:
        return False
    d = st.difference
    if len(d.nonneg) or len(set(d.c)) != 1:
        return False
    N = len(D.inputs)
    arr = np.asarray(p, dtype=np.int64)
    a, b = np.asarray(d.a, dtype=np.int64), np.asarray(d.b, dtype=np.int64)
    return bool(np.array_equal(np.sort(a * N + b), np.sort(arr[a] * N + arr[b])))


def _common_group(X: PrivacyDefinition, Y: PrivacyDefinition) -> Any:
    """The group generated by those registered automorphism generators of X or Y that map both row cones onto
    themselves (:func:`_preserves`); trivial when there are none (still correct, only slower)."""
    from ...geometry._symmetry import SymmetryGroup, automorphisms

    try:
        gx, gy = automorphisms(X), automorphisms(Y)
    except Exception:  # noqa: BLE001 - no registered group: no symmetry used
        return SymmetryGroup.trivial(tuple(X.inputs))
    sx, sy = set(gx.generators), set(gy.generators)
    gens = tuple(
        dict.fromkeys(g for g in (*gx.generators, *gy.generators) if _preserves(X, sx, g) and _preserves(Y, sy, g))
    )
    order = gx.order if set(gens) == sx else (gy.order if set(gens) == sy else None)
    return SymmetryGroup(labels=tuple(X.inputs), generators=gens, source="common", order=order, complete=False)


def _orbit_reps(G: Any, n: int, act: Callable[..., Any] | None) -> list[int]:
    if act is None or not G.generators:
        return list(range(n))
    return [o.members[0] for o in G.orbits_of_items(n, act, vectorised=True)]


# ---------------------------------------------------------------------------------------------------- decide
def lp_containment(X: PrivacyDefinition, Y: PrivacyDefinition) -> LPContainment | None:
    """Decide ``rowcone(X) ⊆ rowcone(Y)`` from generators of X or facets of X, per orbit (module docstring).

    Returns None when neither description is known cheaply (the caller falls back to ray enumeration).
    """
    fy = _facets(Y)
    if fy is None:
        return None
    exact = bool(X.exact and Y.exact)
    G = _common_group(X, Y)
    gens = cone_generators(X)
    if gens is not None:
        n_gen, gen, act = gens
        reps = _orbit_reps(G, n_gen, act)
        checks = 0
        for i in reps:
            x = gen(i)
            if fy.diff is not None:
                a, b, c = fy.diff
                vals = c * x[b] - x[a]
                checks += len(a)
                bad = np.flatnonzero(vals < 0)
                if len(bad):
                    t = int(bad[0])
                    xp = _primitive(x)
                    return LPContainment(
                        holds=False,
                        how="generators",
                        exact=exact,
                        witness=xp,
                        normal=fy.vector(t),
                        value=fy.vector(t).dot(xp),
                        farkas=(),
                        checks=checks,
                        lps=0,
                        orbits=len(reps),
                        group_order=G.order,
                    )
            else:
                for t in range(fy.n):
                    f = fy.vector(t)
                    v = f.dot(x)
                    checks += 1
                    if v < 0:
                        xp = _primitive(x)
                        return LPContainment(
                            holds=False,
                            how="generators",
                            exact=exact,
                            witness=xp,
                            normal=f,
                            value=f.dot(xp),
                            farkas=(),
                            checks=checks,
                            lps=0,
                            orbits=len(reps),
                            group_order=G.order,
                        )
        return LPContainment(
            holds=True,
            how="generators",
            exact=exact,
            witness=None,
            normal=None,
            value=None,
            farkas=(),
            checks=checks,
            lps=0,
            orbits=len(reps),
            group_order=G.order,
        )
    fx = _facets(X)
    if fx is None or fx.diff is None:
        return None
    reps = _orbit_reps(G, fy.n, fy.act)
    farkas: list[tuple[Any, ...]] = []
    for t in reps:
        normal = fy.vector(t)
        sol, val = _min_over_difference_cone(fx.diff, normal, len(X.inputs), exact)
        if val < 0:
            x = _primitive(np.array(sol, dtype=object if exact else float))
            a, b, c = fx.diff
            if np.any(x < 0) or np.any(c * x[b] - x[a] < (0 if exact else -ATOL)):  # pragma: no cover - verified LP
                raise SolverError("the containment LP minimiser is not in the row cone; please report")
            return LPContainment(
                holds=False,
                how="lp",
                exact=exact,
                witness=x,
                normal=normal,
                value=normal.dot(x),
                farkas=(),
                checks=0,
                lps=len(farkas) + 1,
                orbits=len(reps),
                group_order=G.order,
            )
        farkas.append(tuple(sol))
    return LPContainment(
        holds=True,
        how="lp",
        exact=exact,
        witness=None,
        normal=None,
        value=None,
        farkas=tuple(farkas),
        checks=0,
        lps=len(reps),
        orbits=len(reps),
        group_order=G.order,
    )


def _min_over_difference_cone(diff: _Ratios, normal: np.ndarray, N: int, exact: bool) -> tuple[tuple[Any, ...], Any]:
    """``min normal·x`` over ``{x ≥ 0 : x_a ≤ c x_b, 1·x = 1}``: ``(x, value)`` when negative, else ``(duals, value)``.

    HiGHS solves it in floats. A negative optimum is then rationalised (:func:`~privgeom.geometry._lp.rational_candidates`)
    and accepted only if the rational point passes every constraint and ``normal·x < 0`` exactly; otherwise, and for
    a non-negative optimum, the exact optimum is recovered from HiGHS's optimal basis and verified (primal and dual
    feasibility, equal objectives) by :class:`~privgeom.analyses.optimal._optimal_adp._LP` — its duals are then the Farkas
    multipliers.
    """
    from ...geometry._lp import rational_candidates
    from ..optimal._optimal_adp import _LP

    a, b, c = diff
    ub = [{int(i): 1, int(j): -cc} for i, j, cc in zip(a, b, c)]
    eq = [{j: 1 for j in range(N)}]
    flt = _LP(
        N,
        [-float(v) for v in normal],
        eq,
        [1],
        [{k: float(v) for k, v in r.items()} for r in ub],
        False,
        "containment LP",
    ).solve()
    value = -flt.fun
    if not exact:
        return (tuple(np.clip(flt.x, 0, None)) if value < -ATOL else tuple(flt.eq_duals or ())), value
    if value < 0:
        for cand in rational_candidates(np.clip(flt.x, 0, None)):
            if np.all(cand >= 0) and not np.any(c * cand[b] - cand[a] < 0):
                v = normal.dot(cand)
                if v < 0:
                    return tuple(cand / sum(cand)), v / sum(cand)
    res = _LP(N, [-v for v in normal], eq, [1], ub, True, "containment LP").solve()
    assert res.exact is not None  # _LP raises rather than return no exact optimum for exact inputs
    exact_value = res.exact.value
    return (res.exact.x if exact_value < 0 else res.exact.y), exact_value
