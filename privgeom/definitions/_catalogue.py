"""Catalogue definitions: closed-form facets of well-known mechanisms, extreme rays of ε-DP cones, spec kinds.

This module adds to the definition registry the spec kinds ``geometric``, ``frapp``, ``krr``, ``adp`` and
``pufferfish`` (see :func:`register_catalogue`), builds the finite definitions of three classical mechanisms with
their row cones in closed form, and re-exports the extreme-ray enumeration of ε-DP cones (:mod:`._dp_rays`).

Spec strings
------------
``geometric:n=4,alpha=1/2``
    The truncated geometric mechanism on ``{0..n}`` (Ghosh, Roughgarden & Sundararajan, STOC 2009).
``frapp:N=3,gamma=4,k=1``
    FRAPP / PRAM with γ-amplification, ``N`` values per record, ``k`` records (Agrawal & Haritsa, ICDE 2005).
``krr:n=4,exp_eps=3`` or ``krr:n=4,p=1/2``
    k-ary randomized response on ``n`` values (Kairouz, Oh & Viswanath, JMLR 2016).
``adp:graph=hamming,k=2,eps=1,delta=1/10`` (also ``exp_eps=``; ``graph=path,n=…``, ``graph=complete,n=…``)
    (ε, δ)-DP, :class:`~privgeom.definitions.ApproximateDP`.
``pufferfish:file=spec.json`` (or ``pufferfish:data=<base64>``)
    :class:`~privgeom.definitions.Pufferfish`; JSON format in :mod:`privgeom.definitions._pufferfish`.

Notes
-----
**Truncated geometric mechanism.** On ``{0..n}`` with ``0 < α < 1`` the mechanism adds two-sided geometric noise
``P(Z = z) = (1−α)/(1+α) · α^{|z|}`` and clamps to ``[0, n]``, so ``G[z, i] = d_z α^{|z−i|}`` with
``d_0 = d_n = 1/(1+α)`` and ``d_z = (1−α)/(1+α)`` for ``0 < z < n``. Hence ``G = D K`` with ``D = diag(d)`` and
the Kac–Murdock–Szegő matrix ``K[z, i] = α^{|z−i|}``.

*Claim.* ``K^{-1} = T / (1 − α²)`` with ``T`` tridiagonal: ``T[0,0] = T[n,n] = 1``, ``T[z,z] = 1 + α²`` for
``0 < z < n``, ``T[z, z±1] = −α``.

*Proof.* Compute ``(K T)[z, i]``. For an interior column ``0 < i < n`` it is
``−α·α^{|z−i+1|} + (1+α²) α^{|z−i|} − α·α^{|z−i−1|}``. If ``z < i`` put ``m = i − z ≥ 1``: the sum is
``−α^{m} + α^{m} + α^{m+2} − α^{m+2} = 0``; ``z > i`` is symmetric; ``z = i`` gives ``−α² + 1 + α² − α² = 1 − α²``.
For the column ``i = 0``, ``(K T)[z, 0] = α^{z} − α·α^{|z−1|}``, which is ``1 − α²`` at ``z = 0`` and
``α^z − α^z = 0`` for ``z ≥ 1``; ``i = n`` is symmetric. So ``K T = (1 − α²) I``. ∎

Hence ``G^{-1} = K^{-1} D^{-1}`` is tridiagonal: ``G^{-1}[i, z] = T[i, z] / ((1 − α²) d_z)``. ``G`` is square and
invertible, so (``docs/theory.md`` §3) ``x ∈ rowcone({G})`` iff ``y = x G^{-1} ≥ 0`` (``x = y G``), and the
closure is decided by the row cone. The cone is simplicial: ``n + 1`` extreme rays (the rows of ``G``) and ``n + 1``
facets, the columns of ``G^{-1}``, i.e. (dropping the positive factors ``1/((1−α²) d_z)``) the columns of ``T``::

    x_0 − α x_1 ≥ 0,    (1 + α²) x_z − α (x_{z−1} + x_{z+1}) ≥ 0  (0 < z < n),    x_n − α x_{n−1} ≥ 0.

*Strictly inside ε-DP on the path.* With ``e^ε = 1/α`` every row of ``G`` satisfies ``α ≤ x_{i+1}/x_i ≤ 1/α``
(``|z−i|`` changes by one), so ``rowcone(G) ⊆ DP``. For ``n ≥ 2`` the DP row ``x = (1/α, 1, 1/α, …)`` (alternating,
ratios exactly ``e^ε``) violates the interior facet ``z = 1``:
``(1+α²)·1 − α·(2/α) = α² − 1 < 0``. So the closure of the geometric mechanism is strictly smaller than ε-DP.

**FRAPP / k-ary randomized response.** One record with ``N`` values is perturbed by
``A = x((γ−1) I + J)`` with ``x = 1/(γ + N − 1)`` (diagonal ``γx``, off-diagonal ``x``: ratio γ, "γ-amplification").
For ``γ > 1``, ``A^{-1} = (1/x)(1/(γ−1)) (I − J/(γ + N − 1))``: indeed
``((γ−1)I + J)(I − J/(γ+N−1)) = (γ−1) I + J − (γ − 1 + N) J/(γ + N − 1) = (γ−1) I`` since ``J² = N J``. Column ``z`` of
``A^{-1}`` is a positive multiple of ``f_z = (γ+N−1) e_z − 1``: entry ``γ + N − 2`` at ``z`` and ``−1`` elsewhere. With
``k`` independent records the mechanism is ``⊗^k A`` with inverse ``⊗^k A^{-1}``, so the facets are
``f_{z_1} ⊗ … ⊗ f_{z_k}``: the entry at dataset ``i`` is ``(−1)^{h} (γ+N−2)^{k−h}`` with ``h`` the number of records
on which ``i`` and ``z`` differ (a Hamming distance) — the sign alternates with ``h``. k-ary randomized response with
``e^ε = γ`` is the case ``k = 1`` (with truth probability ``p``: ``γ = p(N−1)/(1−p)``). For ``N = 2`` this is the
randomized-response cone of Lin & Kifer (Theorem 4.3) with ``γ = p/(1−p)``.

**Symmetry groups** (registered with :func:`privgeom.automorphisms`; each verified on construction by checking
that its generators map the set of normalised rows of ``G`` onto itself, :func:`~privgeom.geometry._symmetry.known_group`).
``G`` is invertible (``γ > 1``, ``0 < α < 1``), so its rows are the ``n`` extreme rays and the columns of ``G^{-1}``
the facets; an automorphism ``π`` of the row cone permutes the rays and (its transpose) the facets.

* *k-ary randomized response / FRAPP with* ``γ = 1``: every permutation of the datasets maps ``G`` (constant rows)
  to itself; the symmetric group, complete.
* *FRAPP on* ``k`` *records of* ``N`` *values,* ``γ > 1`` (k-ary RR is ``k = 1``): ``G[z, i] = x^k γ^{k − h(z, i)}``
  with ``h`` the Hamming distance on ``[N]^k``. Any permutation of the values of *one* record (the others fixed)
  and any permutation of the records keeps ``h``, hence maps row ``z`` to row ``π(z)``: these generate the wreath
  product ``S_N ≀ S_k`` of order ``(N!)^k k!`` (value permutations act on each record independently, not only
  uniformly). *Complete:* every row of ``G`` sums to 1 and a coordinate permutation keeps sums and normalisation, so
  ``π`` maps row ``z`` to exactly some row ``σ(z)``: ``γ^{−h(σz, πi)} = γ^{−h(z, i)}`` for all ``z, i``, i.e.
  ``h(σz, πi) = h(z, i)`` (``γ > 1``); ``z = i`` gives ``σ = π``, so ``π`` is an isometry of the Hamming scheme
  ``H(k, N)``, whose isometry group is ``S_N ≀ S_k`` (Brouwer, Cohen & Neumaier, *Distance-Regular Graphs*,
  Theorem 9.2.1). For ``k = 1`` this is the symmetric group ``S_N``; for ``N = 2`` the hyperoctahedral group.
* *Truncated geometric on* ``{0..n}``: the reversal ``i ↦ n − i`` (``d_{n−z} = d_z``, so
  ``G[n−z, n−i] = G[z, i]``), order 2, complete: the cone is simplicial with facet ``z`` the column ``z`` of the
  tridiagonal ``T``, whose positive entry sits at ``z`` and negative entries at ``z ± 1``. An automorphism maps facet
  ``z`` to a positive multiple of some facet ``τ(z)``; comparing the positive entries, ``π(z) = τ(z)``, and the
  negative ones, ``{π(z−1), π(z+1)} ∩ … = {π(z) − 1, π(z) + 1} ∩ [0, n]``. So ``π`` preserves the adjacency
  ``|i − j| = 1`` of the path ``0 − 1 − … − n``, whose only automorphisms are the identity and the reversal.

**Extreme rays and facets of ε-DP cones** are enumerated and proved in :mod:`privgeom.definitions._dp_rays`
(re-exported here).

Examples
--------
>>> [str(v) for v in geometric_facets(2, "1/2")[1]]
['-1/2', '5/4', '-1/2']
>>> [[int(v) for v in f] for f in frapp_facets(2, 3, 2)]
[[9, -3, -3, 1], [-3, 9, 1, -3], [-3, 1, 9, -3], [1, -3, -3, 9]]
>>> from privgeom import complete_graph
>>> len(dp_ray_patterns(complete_graph(4)))
14
"""

from __future__ import annotations

import math
from abc import abstractmethod

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from .._core.errors import FormatError, InvalidParameterError, InvalidTypeError, SolverError
from .._core.level import PrivacyLevel, ScalarLike
from .._core.numeric import ATOL, Scalar, fraction_str, parse_scalar, readonly
from ..mechanisms import Mechanism
from ._base import ClosureWitness, Membership, PrivacyDefinition, RowCertificate
from ._closure import verify_closure_witness
from ._dp_rays import (
    dp_cone_rays,
    dp_ray_count_lower_bound,
    dp_ray_patterns,
    hypercube_dp_ray_count,
)
from ._finite import FiniteDefinition
from ._registry import (
    definition_kinds,
    parse_definition,
    register_definition_kind,
    spec_bool,
    spec_int,
    spec_required,
)
from ._rows import format_inequality
from ..geometry._symmetry import SymmetryGroup, automorphisms, known_group, symmetric_generators

__all__ = [
    "ClosedFormDefinition",
    "GeometricDefinition",
    "FrappDefinition",
    "KaryRRDefinition",
    "register_catalogue",
    "CATALOGUE_KINDS",
    "geometric_inverse",
    "geometric_facets",
    "frapp_facets",
    "frapp_inverse",
    "krr_gamma",
    "frapp_generators",
    "dp_ray_patterns",
    "dp_cone_rays",
    "dp_ray_count_lower_bound",
    "hypercube_dp_ray_count",
]



# ------------------------------------------------------------------------------------------------- closed forms
def _alpha(alpha: ScalarLike) -> Scalar:
    a = parse_scalar(alpha, name="alpha")
    if not 0 < a < 1:
        raise InvalidParameterError(f"the geometric mechanism needs 0 < alpha < 1, got alpha = {fraction_str(a)}")
    return a


def _size(n: Any, name: str, minimum: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an integer, got {n!r}")
    if int(n) < minimum:
        raise InvalidParameterError(f"{name} must be >= {minimum}, got {n}")
    return int(n)


def geometric_inverse(n: int, alpha: ScalarLike) -> np.ndarray:
    """The exact tridiagonal inverse of the truncated geometric matrix on ``{0..n}`` (module Notes).

    ``G^{-1}[i, z] = T[i, z] / ((1 − α²) d_z)`` with ``T`` tridiagonal (``1, 1+α², …, 1+α², 1`` on the diagonal,
    ``−α`` beside it), ``d_0 = d_n = 1/(1+α)``, ``d_z = (1−α)/(1+α)`` otherwise.

    Examples
    --------
    >>> [[str(v) for v in row] for row in geometric_inverse(1, "1/2")]
    [['2', '-1'], ['-1', '2']]
    """
    n = _size(n, "n", 1)
    a = _alpha(alpha)
    exact = isinstance(a, Fraction)
    one: Any = Fraction(1) if exact else 1.0
    d = [(1 - a) / (1 + a) for _ in range(n + 1)]
    d[0] = d[n] = one / (1 + a)
    out = np.full((n + 1, n + 1), 0 * one, dtype=object if exact else float)
    for i in range(n + 1):
        for z in range(n + 1):
            t: Any = 0 * one
            if i == z:
                t = one if i in (0, n) else 1 + a * a
            elif abs(i - z) == 1:
                t = -a
            out[i, z] = t / ((1 - a * a) * d[z])
    return out


def geometric_facets(n: int, alpha: ScalarLike) -> np.ndarray:
    """The ``n + 1`` facets of the truncated geometric mechanism's row cone: the columns of the tridiagonal ``T``.

    Row ``z`` is the normal ``a`` of ``a · x ≥ 0``: ``x_0 − α x_1``, ``(1+α²) x_z − α(x_{z−1} + x_{z+1})``,
    ``x_n − α x_{n−1}`` (module Notes for the proof).
    """
    n = _size(n, "n", 1)
    a = _alpha(alpha)
    exact = isinstance(a, Fraction)
    one: Any = Fraction(1) if exact else 1.0
    out = np.full((n + 1, n + 1), 0 * one, dtype=object if exact else float)
    for z in range(n + 1):
        out[z, z] = one if z in (0, n) else 1 + a * a
        if z > 0:
            out[z, z - 1] = -a
        if z < n:
            out[z, z + 1] = -a
    return out


def frapp_facets(N: int, gamma: ScalarLike, k: int = 1) -> np.ndarray:
    """The ``N^k`` facets of the FRAPP row cone: ``f_{z_1} ⊗ … ⊗ f_{z_k}``, ``f_z = (γ+N−1) e_z − 1``.

    Entry ``(z, i)`` is ``(−1)^h (γ+N−2)^{k−h}`` with ``h`` the number of records where ``i`` and ``z`` differ;
    datasets and facets are ordered like ``np.kron`` (first record most significant). Needs ``γ > 1``.
    """
    N = _size(N, "N", 2)
    k = _size(k, "k", 1)
    g = parse_scalar(gamma, name="gamma")
    if not g > 1:
        raise InvalidParameterError(f"FRAPP facets need gamma > 1 (the matrix is singular at gamma = 1), got {fraction_str(g)}")
    size = N**k
    from .._core.numeric import check_dense_size

    exact = isinstance(g, Fraction)
    check_dense_size(size, size, exact=exact, what=f"the FRAPP facets (N={N}, k={k})")
    c = g + N - 2
    powers = [c**e for e in range(k + 1)]
    digits = list(product(range(N), repeat=k))
    out = np.empty((size, size), dtype=object if exact else float)
    for zi, z in enumerate(digits):
        for ii, i in enumerate(digits):
            h = sum(1 for s, t in zip(z, i) if s != t)
            out[zi, ii] = (-1) ** h * powers[k - h]
    return out


def frapp_inverse(N: int, gamma: ScalarLike, k: int = 1) -> np.ndarray:
    """``(⊗^k A)^{-1} = ⊗^k A^{-1}`` with ``A^{-1} = ((γ+N−1) I − J)/(γ − 1)`` (module Notes); needs ``γ > 1``.

    Examples
    --------
    >>> [[str(v) for v in row] for row in frapp_inverse(2, 3)]
    [['3/2', '-1/2'], ['-1/2', '3/2']]
    """
    N = _size(N, "N", 2)
    k = _size(k, "k", 1)
    g = parse_scalar(gamma, name="gamma")
    if not g > 1:
        raise InvalidParameterError(f"the FRAPP matrix is singular at gamma = {fraction_str(g)}; the inverse needs gamma > 1")
    from .._core.numeric import check_dense_size

    exact = isinstance(g, Fraction)
    check_dense_size(N**k, N**k, exact=exact, what=f"the FRAPP inverse (N={N}, k={k})")
    one: Any = Fraction(1) if exact else 1.0
    base = np.full((N, N), -one / (g - 1), dtype=object if exact else float)
    for i in range(N):
        base[i, i] = (g + N - 2) / (g - 1)
    out = base
    for _ in range(k - 1):
        out = np.kron(out, base)
    return out


def krr_gamma(n_values: int, *, exp_eps: ScalarLike | None = None, p: ScalarLike | None = None) -> Scalar:
    """The amplification ``γ = e^ε`` of k-ary randomized response from ``exp_eps`` or the truth probability ``p``.

    ``p = γ / (γ + n − 1)``, i.e. ``γ = p (n − 1) / (1 − p)``; needs ``1/n ≤ p < 1`` (``γ ≥ 1``).

    Examples
    --------
    >>> krr_gamma(4, p="1/2"), krr_gamma(4, exp_eps=3)
    (Fraction(3, 1), Fraction(3, 1))
    """
    n_values = _size(n_values, "n_values", 2)
    if (exp_eps is None) == (p is None):
        raise InvalidParameterError(f"k-ary randomized response: give exactly one of exp_eps= and p= (got {exp_eps!r}, {p!r})")
    if exp_eps is not None:
        return PrivacyLevel.parse(exp_eps=exp_eps, owner="k-ary randomized response").exp_eps
    q = parse_scalar(p, name="p")
    if not Fraction(1, n_values) <= q < 1 if isinstance(q, Fraction) else not 1.0 / n_values <= q < 1.0:
        raise InvalidParameterError(f"k-ary randomized response needs 1/{n_values} <= p < 1, got p = {fraction_str(q)}")
    return q * (n_values - 1) / (1 - q)


# ------------------------------------------------------------------------------------------- finite definitions
class ClosedFormDefinition(FiniteDefinition):
    """A one-mechanism definition whose matrix ``G`` is square and invertible with a closed-form inverse.

    ``M ∈ closure({G})`` iff ``Y = M G^{-1} ≥ 0`` (then ``M = Y G`` and ``Y`` is column-stochastic), so besides the
    methods of :class:`~privgeom.definitions.FiniteDefinition` :meth:`contains` accepts ``method="closed-form"``, and
    :meth:`row_cone` is built directly from the closed-form facets (the columns of ``G^{-1}``, positively scaled).
    Subclasses implement :meth:`closed_form_inverse` and :meth:`closed_form_facets`.
    """

    def __init__(self, mechanism: Mechanism, *, name: str, spec: str, invertible: bool = True) -> None:
        super().__init__([mechanism], name=name)
        self._spec = spec
        self._invertible = invertible
        if invertible:
            self.membership_methods = tuple(self.membership_methods) + ("closed-form",)

    def spec(self) -> str:
        return self._spec

    @property
    def mechanism(self) -> Mechanism:
        """The mechanism ``G``."""
        return self.mechanisms[0]

    @abstractmethod
    def closed_form_inverse(self) -> np.ndarray:
        """``G^{-1}`` (exact in exact mode)."""

    @abstractmethod
    def closed_form_facets(self) -> np.ndarray:
        """Facet normals (row ``z`` ∝ column ``z`` of ``G^{-1}``, positive factor)."""

    def row_cone(self) -> Any:
        """The row cone, known in closed form: simplicial, no double description and no redundancy removal.

        ``G`` is invertible, so its rows are linearly independent: they are the extreme rays, and the ``n`` columns
        of ``G^{-1}`` (positively scaled: :meth:`closed_form_facets`) are the irredundant facets (Lin & Kifer,
        Theorem 3.4 with an invertible mechanism). Counts, membership (by the facets) and the pair bounds
        ``max_g g_a / g_b`` over the rows (the projection onto a pair, Section V) need nothing else.
        """
        if not self._invertible:
            return super().row_cone()
        from ..geometry import Cone
        from ..geometry._projection import generator_pair_bounds
        from ..geometry._structure import ConeStructure

        n = self.n_inputs
        G = self.mechanism.matrix if self.exact else self.mechanism.float_matrix()
        structure = ConeStructure(
            "simplicial", f"{self.name}: one facet per column of G^-1 ({n}), the {n} rows of G as extreme rays",
            n_facets=n, n_rays=n, dim=n, pointed=True, facets=self.closed_form_facets, rays=lambda: G,
            pair_bounds=lambda ia, ib: generator_pair_bounds(G, ia, ib, exact=self.exact),
        )
        return Cone.from_structure(structure, labels=self.inputs, exact=self.exact)

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Closure membership; ``method="closed-form"`` multiplies by the closed-form inverse (see the class doc)."""
        if method != "closed-form":
            return super().contains(mechanism, method=method, atol=atol)
        M = self.check_mechanism(mechanism)
        self.check_method(method)
        tol = ATOL if atol is None else float(atol)
        exact = self.exact and M.exact
        target = M.matrix if exact else M.float_matrix()
        G = self.mechanism.matrix if exact else self.mechanism.float_matrix()
        inv = self.closed_form_inverse()
        if not exact:
            inv = np.asarray(inv, dtype=float)
        Y = target.dot(inv)
        bad = np.argwhere(Y < 0) if exact else np.argwhere(np.asarray(Y, dtype=float) < -tol)
        if len(bad):
            o, z = min(((int(a), int(b)) for a, b in bad), key=lambda t: float(Y[t]))
            F = self.closed_form_facets()[z]
            F = F if exact else np.asarray(F, dtype=float)
            value = sum((a * b for a, b in zip(F, target[o])), Fraction(0)) if exact else float(np.dot(F, target[o]))
            gen_ok = all(v >= 0 for v in G.dot(F)) if exact else bool((G.dot(F) >= -tol).all())
            if not (gen_ok and (value < 0 if exact else value < -tol * float(np.abs(F).max()))):
                raise SolverError(f"{self.name}: the closed-form facet {z} does not verify; please report")
            cert = RowCertificate(o, M.outputs[o], readonly(np.asarray(F)), value, format_inequality(F, self.inputs),
                                  label=f"closed-form facet {z}")
            return Membership(False, "closed-form", exact, certificate=cert,
                              detail=f"output {M.outputs[o]!r} violates closed-form facet {z} ({cert.inequality})")
        if not exact:
            Y = np.clip(np.asarray(Y, dtype=float), 0.0, None)
        wit = ClosureWitness((0,), (Fraction(1) if exact else 1.0,), (readonly(Y),), Fraction(0) if exact else 0.0)
        resid = verify_closure_witness([G], target, wit, exact=exact, atol=tol)
        if resid is None:  # float mode at the tolerance boundary: let the LP decide
            return super().contains(mechanism, method="lp", atol=atol)
        wit = ClosureWitness((0,), wit.weights, wit.post_processings, resid)
        return Membership(True, "closed-form", exact, witness=wit, detail="M · G^{-1} >= 0 (closed-form inverse)")


def _spec_scalar(value: Scalar) -> str:
    return fraction_str(value)


class GeometricDefinition(ClosedFormDefinition):
    """The truncated geometric mechanism on ``{0..n}`` as a privacy definition (closure of ``{G}``).

    Ghosh, Roughgarden & Sundararajan, *Universally utility-maximizing privacy mechanisms* (STOC 2009). The row cone
    is simplicial with the tridiagonal facets of the module Notes (proved there), and it decides membership.

    Parameters
    ----------
    n : int
        Largest count (``n ≥ 1``).
    alpha : rational or float in (0, 1)
        ``α = e^{−ε}``.
    exact : bool, optional
        Force the mode (default: exact iff ``alpha`` is rational).

    Examples
    --------
    The closure is strictly inside ε-DP on the path with ``e^ε = 1/α``:

    >>> from privgeom.definitions._dp import DifferentialPrivacy
    >>> geo = GeometricDefinition(2, "1/2")
    >>> dp = DifferentialPrivacy.path(2, exp_eps=2)
    >>> geo.row_cone().issubset(dp.row_cone()).holds
    True
    >>> back = dp.row_cone().issubset(geo.row_cone())
    >>> back.holds, back.witness.tolist(), back.violated_normal.tolist()
    (False, [Fraction(2, 1), Fraction(1, 1), Fraction(2, 1)], [Fraction(-2, 1), Fraction(5, 1), Fraction(-2, 1)])
    >>> geo.spec()
    'geometric:n=2,alpha=1/2'
    """

    def __init__(self, n: int, alpha: ScalarLike, *, exact: bool | None = None) -> None:
        # The dense (n+1)^2 mechanism is built on first use (``mechanisms``): the row cone, its symmetry, its pair
        # bounds and its facets are closed forms (module Notes), so ``analyze`` never needs it.
        self._n = _size(n, "n", 1)
        a = parse_scalar(alpha, name="alpha") if exact is None else parse_scalar(alpha, name="alpha", exact=exact)
        self._alpha = _alpha(a)
        self._given_alpha, self._given_exact = alpha, exact
        exact_mode = isinstance(self._alpha, Fraction)
        spec = f"geometric:n={self._n},alpha={_spec_scalar(self._alpha)}" + ("" if exact_mode else ",exact=false")
        self._exact = exact_mode
        self._inputs = tuple(str(i) for i in range(self._n + 1))
        self._name = f"truncated geometric mechanism (n={self._n}, alpha={_spec_scalar(self._alpha)})"
        self._source = None
        self._lp_cache = {}
        self._spec = spec
        self._invertible = True
        self.__dict__["_decides"] = True  # G is invertible (module Notes): its rows are independent
        self.membership_methods = ("lp", "linear-solve", "row-cone", "closed-form")

    @property
    def _mechs(self) -> tuple[Mechanism, ...]:  # type: ignore[override]
        """The mechanism, built on first use (``FiniteDefinition`` reads it here)."""
        built = self.__dict__.get("_built_mechs")
        if built is None:
            from ..mechanisms._catalogue import truncated_geometric

            M = truncated_geometric(self._n, self._given_alpha, exact=self._given_exact)
            built = (M if self._exact else M.to_float(),)
            self.__dict__["_built_mechs"] = built
        return built  # type: ignore[no-any-return]

    @property
    def alpha(self) -> Scalar:
        """``α = e^{−ε}``."""
        return self._alpha

    def facet_row(self, z: int) -> np.ndarray:
        """Facet ``z`` alone (column ``z`` of the tridiagonal ``T``, module Notes): three nonzero entries at most."""
        n, a = self._n, self._alpha
        one: Any = Fraction(1) if self._exact else 1.0
        row = np.full(n + 1, 0 * one, dtype=object if self._exact else float)
        row[z] = one if z in (0, n) else 1 + a * a
        if z > 0:
            row[z - 1] = -a
        if z < n:
            row[z + 1] = -a
        return row

    def pair_bounds(self, ia: np.ndarray, ib: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``sup x_a / x_b = α^{−|a−b|}`` over the row cone, both ways (module Notes: the sup over the cone is the max
        over its extreme rays, the rows ``G[z, ·] = d_z α^{|z−·|}``, attained at ``z = a``)."""
        d = np.abs(np.asarray(ia, dtype=np.int64) - np.asarray(ib, dtype=np.int64))
        inv: Any = 1 / self._alpha
        cache: dict[int, Any] = {}
        out = np.empty(len(d), dtype=object if self._exact else float)
        for t, k in enumerate(d.tolist()):
            if k not in cache:
                cache[k] = inv ** k
            out[t] = cache[k]
        return readonly(out), readonly(out.copy())

    def row_cone(self) -> Any:
        """The simplicial row cone from its closed forms (module Notes): facet ``z`` on demand (tridiagonal), the pair
        bounds ``α^{−|a−b|}``, the reversal acting on facets by ``z ↦ n − z``; the rays (rows of ``G``) only when
        asked for. Nothing of size ``(n+1)^2`` is built for counts, orbits, semantics or the relaxation."""
        from ..geometry import Cone
        from ..geometry._structure import ConeStructure

        n = self.n_inputs
        last = n - 1

        def rays() -> np.ndarray:
            M = self.mechanism
            return M.matrix if self._exact else M.float_matrix()

        structure = ConeStructure(
            "simplicial", f"{self.name}: one facet per column of G^-1 ({n}), the {n} rows of G as extreme rays",
            n_facets=n, n_rays=n, dim=n, pointed=True, facets=self.closed_form_facets, rays=rays,
            pair_bounds=self.pair_bounds, facet=self.facet_row,
            extra={"facet_action": lambda p, items: np.asarray(p)[np.asarray(items)],  # facet z sits at z
                   "facet_action_source": "reversal", "reversal_index": last},
        )
        return Cone.from_structure(structure, labels=self.inputs, exact=self.exact)

    def closed_form_inverse(self) -> np.ndarray:
        return geometric_inverse(self._n, self._alpha)

    def closed_form_facets(self) -> np.ndarray:
        return geometric_facets(self._n, self._alpha)


class FrappDefinition(ClosedFormDefinition):
    """FRAPP / PRAM with γ-amplification on ``k`` records of ``N`` values (Agrawal & Haritsa, ICDE 2005).

    Closed-form facets ``⊗ f_{z_r}``, ``f_z = (γ+N−1) e_z − 1`` (module Notes); needs ``γ > 1`` for them (at ``γ = 1``
    the mechanism is constant and the generic finite-definition methods are used).

    Examples
    --------
    >>> d = FrappDefinition(3, 4)
    >>> [[int(v) for v in f] for f in d.row_cone().facets]
    [[5, -1, -1], [-1, 5, -1], [-1, -1, 5]]
    >>> d.spec()
    'frapp:N=3,gamma=4,k=1'
    """

    def __init__(self, N: int, gamma: ScalarLike, k: int = 1, *, exact: bool | None = None) -> None:
        from ..mechanisms._catalogue import frapp

        N = _size(N, "N", 2)
        M = frapp(N, gamma, k, exact=exact)
        self._N, self._k = N, int(k)
        self._gamma = parse_scalar(gamma, name="gamma", exact=M.exact)
        spec = f"frapp:N={N},gamma={_spec_scalar(self._gamma)},k={self._k}" + ("" if M.exact else ",exact=false")
        super().__init__(M, name=f"FRAPP (N={N}, gamma={_spec_scalar(self._gamma)}, k={self._k})", spec=spec,
                         invertible=bool(self._gamma > 1))

    @property
    def gamma(self) -> Scalar:
        """The amplification γ."""
        return self._gamma

    @property
    def n_values(self) -> int:
        """``N``, the number of values of one record."""
        return self._N

    @property
    def n_records(self) -> int:
        """``k``, the number of records."""
        return self._k

    def closed_form_inverse(self) -> np.ndarray:
        return frapp_inverse(self._N, self._gamma, self._k)

    def closed_form_facets(self) -> np.ndarray:
        return frapp_facets(self._N, self._gamma, self._k)


class KaryRRDefinition(ClosedFormDefinition):
    """k-ary randomized response on ``n`` values (Kairouz, Oh & Viswanath, JMLR 2016): FRAPP with ``k = 1``.

    Examples
    --------
    >>> d = KaryRRDefinition(4, exp_eps=3)
    >>> d.spec(), [int(v) for v in d.closed_form_facets()[0]]
    ('krr:n=4,exp_eps=3', [5, -1, -1, -1])
    >>> KaryRRDefinition(4, p="1/2").spec()
    'krr:n=4,p=1/2'
    """

    def __init__(self, n_values: int, *, exp_eps: ScalarLike | None = None, p: ScalarLike | None = None, exact: bool | None = None) -> None:
        from ..mechanisms._catalogue import kary_randomized_response

        n = _size(n_values, "n_values", 2)
        M = kary_randomized_response(n, exp_eps=exp_eps, p=p, exact=exact)
        self._n = n
        self._gamma = krr_gamma(n, exp_eps=exp_eps, p=p)
        if not M.exact:
            self._gamma = float(self._gamma)
        key, val = ("exp_eps", exp_eps) if exp_eps is not None else ("p", p)
        shown = _spec_scalar(parse_scalar(val, name=key, exact=M.exact))
        spec = f"krr:n={n},{key}={shown}" + ("" if M.exact else ",exact=false")
        super().__init__(M, name=f"{n}-ary randomized response ({key}={shown})", spec=spec,
                         invertible=bool(self._gamma > 1))

    @property
    def level(self) -> PrivacyLevel:
        """The privacy level with ``e^ε = γ`` (a :class:`~privgeom.PrivacyLevel`; built on first use).

        Examples
        --------
        >>> str(KaryRRDefinition(4, p="1/2").level)
        'ln(3)'
        """
        return PrivacyLevel.from_exp_eps(self._gamma)

    def closed_form_inverse(self) -> np.ndarray:
        return frapp_inverse(self._n, self._gamma, 1)

    def closed_form_facets(self) -> np.ndarray:
        return frapp_facets(self._n, self._gamma, 1)


# ------------------------------------------------------------------------------------------------- symmetry groups
def _known(D: ClosedFormDefinition, gens: list[tuple[int, ...]], source: str, order: int | None) -> SymmetryGroup:
    G = D.mechanism.matrix if D.exact else D.mechanism.float_matrix()
    return known_group(D.inputs, gens, source, order, True, G, exact=D.exact)


def _symmetric_group(D: ClosedFormDefinition) -> SymmetryGroup:
    n = D.n_inputs
    return _known(D, symmetric_generators(range(n), n), "symmetric", math.factorial(n) if n <= 4096 else None)


def frapp_generators(N: int, k: int) -> list[tuple[int, ...]]:
    """Generators of ``S_N ≀ S_k`` on the ``N^k`` datasets in ``np.kron`` order (first record most significant):
    a transposition and an ``N``-cycle of the values of each record, and the swaps of adjacent records.

    Examples
    --------
    >>> frapp_generators(2, 2)
    [(2, 3, 0, 1), (1, 0, 3, 2), (0, 2, 1, 3)]
    """
    digits = list(product(range(N), repeat=k))
    where = {d: i for i, d in enumerate(digits)}
    value_maps = [tuple([1, 0] + list(range(2, N)))] + ([tuple(list(range(1, N)) + [0])] if N > 2 else [])
    gens = []
    for r in range(k):
        for vm in value_maps:
            gens.append(tuple(where[d[:r] + (vm[d[r]],) + d[r + 1:]] for d in digits))
    for r in range(k - 1):
        gens.append(tuple(where[d[:r] + (d[r + 1], d[r]) + d[r + 2:]] for d in digits))
    return gens


def _frapp_automorphisms(D: Any, **options: Any) -> SymmetryGroup:
    """Known group of FRAPP (module Notes, *Symmetry groups*): ``S_N ≀ S_k``, or ``S_{N^k}`` at ``γ = 1``."""
    if not D.gamma > 1:
        return _symmetric_group(D)
    N, k = D.n_values, D.n_records
    order = math.factorial(N) ** k * math.factorial(k) if N * k <= 4096 else None
    return _known(D, frapp_generators(N, k), f"wreath product S_{N} ≀ S_{k}" if k > 1 else "symmetric", order)


def _krr_automorphisms(D: Any, **options: Any) -> SymmetryGroup:
    """Known group of k-ary randomized response (module Notes): the symmetric group, complete."""
    return _symmetric_group(D)


def _geometric_automorphisms(D: Any, **options: Any) -> SymmetryGroup:
    """Known group of the truncated geometric mechanism (module Notes): the reversal, complete. Verified on the
    closed-form facets (``O(n)``: the reversal maps facet ``z`` onto facet ``n − z``), not on the dense ``G``."""
    n = D.n_inputs
    rev = tuple(range(n - 1, -1, -1))
    # facet z has (T[z, z−1], T[z, z], T[z, z+1]); the reversal maps it onto facet n−1−z iff the diagonal and the
    # off-diagonal of T read the same backwards (T[n−1−z, n−z] = T[z, z−1])
    diag = [D.facet_row(z)[z] for z in (0, 1, n - 2, n - 1)] if n >= 3 else [D.facet_row(z)[z] for z in range(n)]
    if diag != diag[::-1]:  # pragma: no cover - a theorem
        raise SolverError("the reversal does not map the geometric facets onto themselves; please report")
    return SymmetryGroup(D.inputs, (rev,), "reversal", 2, True)


automorphisms.register(FrappDefinition, _frapp_automorphisms)  # privgeom.automorphisms (geometry never imports definitions)
automorphisms.register(KaryRRDefinition, _krr_automorphisms)
automorphisms.register(GeometricDefinition, _geometric_automorphisms)


# --------------------------------------------------------------------------------------------------- spec kinds
def _geometric_spec(params: dict[str, str]) -> PrivacyDefinition:
    n = spec_int(params, "n", "geometric")
    alpha = spec_required(params, "alpha", "geometric")
    return GeometricDefinition(n, alpha, exact=spec_bool(params, "exact", "geometric"))


def _frapp_spec(params: dict[str, str]) -> PrivacyDefinition:
    N = spec_int(params, "N", "frapp")
    gamma = spec_required(params, "gamma", "frapp")
    k = spec_int(params, "k", "frapp") if "k" in params else 1
    return FrappDefinition(N, gamma, k, exact=spec_bool(params, "exact", "frapp"))


def _krr_spec(params: dict[str, str]) -> PrivacyDefinition:
    from ._dp import dp_level

    n = spec_int(params, "n", "krr")
    exact = spec_bool(params, "exact", "krr")
    given = {k: params.pop(k) for k in ("exp_eps", "eps", "p") if k in params}
    if len(given) != 1:
        raise FormatError(f"krr needs exactly one of exp_eps=, eps=, p=; got {sorted(given) or 'none'}")
    if "eps" in given:
        ratio = dp_level(eps=given["eps"], exact=exact, owner="krr").exp_eps
        return KaryRRDefinition(n, exp_eps=ratio, exact=exact)
    return KaryRRDefinition(n, exp_eps=given.get("exp_eps"), p=given.get("p"), exact=exact)


def _adp_spec(params: dict[str, str]) -> PrivacyDefinition:
    from ._approx_dp import ApproximateDP
    from ._dp import DifferentialPrivacy

    delta = spec_required(params, "delta", "adp")
    exact = params.get("exact")
    rest = ",".join(f"{k}={params.pop(k)}" for k in list(params))
    dp = parse_definition("dp:" + rest)
    if not isinstance(dp, DifferentialPrivacy):  # pragma: no cover - the dp kind always returns it
        raise FormatError("adp: the dp part of the spec did not give an ε-DP definition")
    return ApproximateDP(dp, delta=delta, exact=False if exact is not None and exact.lower() in ("false", "0", "no") else None)


def _pufferfish_spec(params: dict[str, str]) -> PrivacyDefinition:
    from ._pufferfish import Pufferfish

    path = params.pop("file", None)
    data = params.pop("data", None)
    if (path is None) == (data is None):
        raise FormatError("pufferfish needs exactly one of file=<spec.json> and data=<base64 JSON>")
    if path is not None:
        return Pufferfish.load(path)
    assert data is not None
    return Pufferfish.from_data_string(data)


#: The spec kinds this module registers, with their factories.
CATALOGUE_KINDS: dict[str, Any] = {
    "geometric": _geometric_spec,
    "frapp": _frapp_spec,
    "krr": _krr_spec,
    "adp": _adp_spec,
    "pufferfish": _pufferfish_spec,
}


def register_catalogue() -> None:
    """Register the spec kinds ``geometric``, ``frapp``, ``krr``, ``adp``, ``pufferfish`` (idempotent).

    Examples
    --------
    >>> register_catalogue()
    >>> parse_definition("krr:n=3,exp_eps=2").name
    '3-ary randomized response (exp_eps=2)'
    >>> parse_definition("adp:graph=hamming,k=2,eps=1,delta=1/10").exact
    False
    """
    known = set(definition_kinds())
    for name, factory in CATALOGUE_KINDS.items():
        if name not in known:
            register_definition_kind(name, factory)


register_catalogue()
