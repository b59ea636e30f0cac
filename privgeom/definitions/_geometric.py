"""The truncated geometric mechanism as a privacy definition: closed-form inverse, tridiagonal facets, reversal.

Ghosh, Roughgarden & Sundararajan, *Universally utility-maximizing privacy mechanisms* (STOC 2009). Spec kind
``geometric:n=4,alpha=1/2`` (registered by :mod:`._catalogue`).

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

**Symmetry group** (registered with :func:`privgeom.automorphisms`; see :mod:`._closed_form`).

* *Truncated geometric on* ``{0..n}``: the reversal ``i ↦ n − i`` (``d_{n−z} = d_z``, so
  ``G[n−z, n−i] = G[z, i]``), order 2, complete: the cone is simplicial with facet ``z`` the column ``z`` of the
  tridiagonal ``T``, whose positive entry sits at ``z`` and negative entries at ``z ± 1``. An automorphism maps facet
  ``z`` to a positive multiple of some facet ``τ(z)``; comparing the positive entries, ``π(z) = τ(z)``, and the
  negative ones, ``{π(z−1), π(z+1)} ∩ … = {π(z) − 1, π(z) + 1} ∩ [0, n]``. So ``π`` preserves the adjacency
  ``|i − j| = 1`` of the path ``0 − 1 − … − n``, whose only automorphisms are the identity and the reversal.

Examples
--------
>>> [str(v) for v in geometric_facets(2, "1/2")[1]]
['-1/2', '5/4', '-1/2']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .._core.errors import SolverError
from .._core.level import ScalarLike
from .._core.arrays import readonly
from .._core.numbers import parse_scalar, Scalar
from ..geometry._symmetry import SymmetryGroup, automorphisms
from ..mechanisms import Mechanism
from ._closed_form import ClosedFormDefinition, _alpha, _size, _spec_scalar

__all__ = ["GeometricDefinition", "geometric_inverse", "geometric_facets"]


# ------------------------------------------------------------------------------------------------- closed forms
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


# ------------------------------------------------------------------------------------------------- definition
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
        return built

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
                cache[k] = inv**k
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
            "simplicial",
            f"{self.name}: one facet per column of G^-1 ({n}), the {n} rows of G as extreme rays",
            n_facets=n,
            n_rays=n,
            dim=n,
            pointed=True,
            facets=self.closed_form_facets,
            rays=rays,
            pair_bounds=self.pair_bounds,
            facet=self.facet_row,
            extra={
                "facet_action": lambda p, items: np.asarray(p)[np.asarray(items)],  # facet z sits at z
                "facet_action_source": "reversal",
                "reversal_index": last,
            },
        )
        return Cone.from_structure(structure, labels=self.inputs, exact=self.exact)

    def closed_form_inverse(self) -> np.ndarray:
        return geometric_inverse(self._n, self._alpha)

    def closed_form_facets(self) -> np.ndarray:
        return geometric_facets(self._n, self._alpha)


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
    return SymmetryGroup(labels=D.inputs, generators=(rev,), source="reversal", order=2, complete=True)


automorphisms.register(
    GeometricDefinition, _geometric_automorphisms
)  # privgeom.automorphisms (geometry never imports definitions)
