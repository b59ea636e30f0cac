"""Randomized response as a privacy definition: ``{M_rr(p)}`` on ``k`` bits (Lin & Kifer, Section IV).

Theorem 4.3 (Lin & Kifer): ``x ∈ rowcone({M_rr(p)})`` iff for every bit string ``s`` of length ``k``

    Σ_i p^{ham(s, D_i)} (p − 1)^{k − ham(s, D_i)} x_i ≥ 0,

and ``M ∈ closure({M_rr(p)})`` iff every row of ``M`` is in the row cone. The facet of ``s`` is column ``s̄`` (the
complement of ``s``) of ``K = ⊗^k [[p, p−1], [p−1, p]]`` and ``M_rr^{-1} = (2p−1)^{-k} K``, so

    x · facet_s = (2p − 1)^k (x M_rr^{-1})_{s̄},

and membership of a row is one Kronecker-structured transform (``O(k 2^k)``, no ``2^k x 2^k`` matrix) plus a sign
check: the ``"kronecker-inverse"`` method. Exact mode with ``p = a/b`` works on integers
(``K_int = ⊗[[a, a−b], [a−b, a]] = b^k K``) and verifies every witness modulo primes (``_kron.py``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, SolverError
from .._core.arrays import check_dense_size, readonly
from .._core.columns import fit_int_array, fits_int64, int_columns_to_fractions, widen
from .._core.numbers import fraction_str, Scalar
from ..mechanisms import Mechanism, randomized_response
from ..mechanisms._factories import bit_strings, check_k, rr_parameter
from ..geometry._symmetry import automorphisms, rr_automorphisms
from ._base import ClosureWitness, Membership, PrivacyDefinition, RowCertificate, RowWitness
from ._kron import (
    INT64_SAFE,
    BitLabels,
    ModularIntegers,
    kron_apply,
    verify_kron_identity,
)
from ._nearest import ClosureDescription, closure_description, description_nonzeros
from ._rows import as_vector
from ._rr_kronecker import (  # noqa: F401  (the Kronecker route's types and helpers, importable from here too)
    _RowsDecision,
    _Transformed,
    certificate,
    contains_factored,
    decide,
    dense_fits as _dense_fits,
    per_bit_factors,
    transform,
)
from .._core.level import ScalarLike
from .._core.numbers import number_text

if TYPE_CHECKING:
    from ._orbit_structure import OrbitStructure

__all__ = ["RandomizedResponse"]


class RandomizedResponse(PrivacyDefinition):
    """Randomized response ``{M_rr(p)}`` on ``k`` bits, ``M_rr = ⊗^k [[p, 1−p], [1−p, p]]`` (Lin & Kifer, §IV).

    Parameters
    ----------
    k : int
        Number of bits (datasets are the ``2^k`` bit strings, ``1…1`` first). ``2^k`` within the ``domain_size`` size
        limit (26 bits by default) for row membership; dense objects (the mechanism, the full facet matrix) obey the dense size limits.
    p : rational or float in (1/2, 1]
        Truth probability. Rational (``"3/4"``, ``Fraction(3, 4)``) means exact mode.
    exact : bool, optional
        Force exact or float mode.

    Raises
    ------
    InvalidParameterError
        ``p`` outside ``(1/2, 1]``, ``k < 1``.
    SizeLimitError
        ``k`` above the enumerable limit.

    Notes
    -----
    Membership methods: ``"kronecker-inverse"`` (default; Theorem 4.3, per-axis inverse), ``"linear-solve"``
    (dense ``M' M_rr^{-1}``), ``"lp"`` (the generic closure LP) and ``"row-cone"`` (double description). All agree;
    the row cone decides the closure (Theorem 4.3), so :attr:`row_cone_decides_closure` is True.

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> rr = RandomizedResponse(2, "3/4")
    >>> ans = rr.contains(randomized_response(2, "2/3"))
    >>> ans.member, ans.method, ans.witness.post_processings[0][0].tolist()
    (True, 'kronecker-inverse', [Fraction(25, 36), Fraction(5, 36), Fraction(5, 36), Fraction(1, 36)])
    >>> no = rr.contains(randomized_response(2, "4/5"))
    >>> no.member, no.certificate.label
    (False, '01')
    >>> rr.facet("11").tolist()     # 9/16 x00 + 1/16 x11 − 3/16 (x10 + x01) ≥ 0
    [Fraction(1, 16), Fraction(-3, 16), Fraction(-3, 16), Fraction(9, 16)]
    """

    membership_methods = ("kronecker-inverse", "linear-solve", "lp", "row-cone")

    def __init__(self, k: int, p: ScalarLike, *, exact: bool | None = None) -> None:
        self._k = check_k(k)
        self._p: Scalar = rr_parameter(p, exact=exact)
        self._exact = isinstance(self._p, Fraction)
        self._labels = BitLabels(self._k)
        if isinstance(self._p, Fraction):
            self._a, self._b = self._p.numerator, self._p.denominator

    # ------------------------------------------------------------------------------------------------ identity
    @property
    def k(self) -> int:
        """Number of bits."""
        return self._k

    @property
    def p(self) -> Scalar:
        """Truth probability."""
        return self._p

    @property
    def n_inputs(self) -> int:
        """Number of datasets ``2^k`` (without building their labels)."""
        return 1 << self._k

    @cached_property
    def inputs(self) -> tuple[str, ...]:
        """The ``2^k`` bit strings in reverse lexicographic order (refused beyond the dense size limit)."""
        check_dense_size(1, self.n_inputs, exact=True, what=f"the {self.n_inputs} dataset labels of k={self._k}")
        return tuple(bit_strings(self._k))

    @property
    def name(self) -> str:
        return f"randomized response (k={self._k}, p={fraction_str(self._p)})"

    def spec(self) -> str:
        """``rr:k=<k>,p=<p>`` (``,exact=false`` for a float ``p``)."""
        return f"rr:k={self._k},p={fraction_str(self._p)}" + ("" if self._exact else ",exact=false")

    @property
    def row_cone_decides_closure(self) -> bool:
        """True: Theorem 4.3 (``M_rr`` is invertible, so its rows are linearly independent)."""
        return True

    @cached_property
    def mechanism(self) -> Mechanism:
        """``M_rr(p)`` (exact: kept factored, :attr:`~privgeom.Mechanism.factors`; its dense matrix and a float one
        are refused beyond the dense size limits)."""
        return randomized_response(self._k, self._p)

    @property
    def mechanisms(self) -> tuple[Mechanism, ...]:
        """``(M_rr(p),)``: the definition is this one mechanism."""
        return (self.mechanism,)

    @cached_property
    def _finite(self) -> Any:
        from ._finite import FiniteDefinition

        return FiniteDefinition([self.mechanism], name=self.name)

    # ------------------------------------------------------------------------------------------------ kernels
    def _inverse_kernel(self, exact: bool) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
        if exact:
            a, b = self._a, self._b
            return ((a, a - b), (a - b, a))
        p = float(self._p)
        return ((p, p - 1.0), (p - 1.0, p))

    def _forward_kernel(self, exact: bool) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
        if exact:
            a, b = self._a, self._b
            return ((a, b - a), (b - a, a))
        p = float(self._p)
        return ((p, 1.0 - p), (1.0 - p, p))

    def _factor(self) -> int:
        """``((2a − b) b)^k``: ``K_int · M_int = factor · I``."""
        return ((2 * self._a - self._b) * self._b) ** self._k

    # ------------------------------------------------------------------------------------------------ facets
    def _bits(self, s: str | int) -> str:
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            if not 0 <= int(s) < self.n_inputs:
                raise InvalidParameterError(f"facet index {s} out of range 0..{self.n_inputs - 1}")
            return self._labels[int(s)]
        if not isinstance(s, str) or len(s) != self._k or set(s) - {"0", "1"}:
            raise InvalidParameterError(f"a facet is named by a bit string of length {self._k}, got {s!r}")
        return s

    def facet(self, s: str | int, *, scaled: bool = False) -> np.ndarray:
        """The facet normal of Theorem 4.3 for the bit string ``s``: ``a_i = p^{ham(s,D_i)} (p−1)^{k−ham(s,D_i)}``.

        Built lazily in ``O(2^k)`` as a Kronecker product of ``k`` two-vectors, without the other facets.

        Parameters
        ----------
        s : str or int
            Bit string of length ``k`` (or an index into :attr:`inputs`, meaning that dataset's label).
        scaled : bool
            Exact mode only: return the integer vector ``b^k · a`` (``p = a/b``), int64 or Python ints.

        Examples
        --------
        >>> RandomizedResponse(1, "3/4").facet("1").tolist(), RandomizedResponse(1, "3/4").facet("1", scaled=True).tolist()
        ([Fraction(-1, 4), Fraction(3, 4)], [-1, 3])
        """
        bits = self._bits(s)
        one: tuple[Any, Any]
        zero: tuple[Any, Any]
        if scaled and not self._exact:
            raise InvalidParameterError("facet(scaled=True) needs an exact (rational) p")
        if scaled:
            a, b = self._a, self._b
            big = max(a, b - a) ** self._k >= INT64_SAFE
            check_dense_size(1, self.n_inputs, exact=big, what=f"facet {bits}")
            one, zero = (a - b, a), (a, a - b)  # coefficient for D bit (1, 0) when s bit is 1 / 0
            out = np.array([1], dtype=object if big else np.int64)
        else:
            check_dense_size(1, self.n_inputs, exact=self._exact, what=f"facet {bits}")
            p = self._p
            one, zero = (p - 1, p), (p, p - 1)
            out = np.array([Fraction(1) if self._exact else 1.0], dtype=object if self._exact else float)
        for ch in bits:
            f = np.array(one if ch == "1" else zero, dtype=out.dtype)
            out = np.kron(out, f)
        return readonly(out)

    def facets(self) -> np.ndarray:
        """All ``2^k`` facet normals as rows (``facets()[i] = facet(inputs[i])``); dense, size-checked."""
        check_dense_size(self.n_inputs, self.n_inputs, exact=self._exact, what=f"the facet matrix of {self.name}")
        rows = [self.facet(i) for i in range(self.n_inputs)]
        return readonly(np.vstack(rows))

    def row_cone(self) -> Any:
        """The row cone, known in closed form (Theorem 4.3): nothing is built until it is asked for.

        A :class:`~privgeom.geometry.Cone` carrying a ``"kronecker"`` structure: ``2^k`` facets (Theorem 4.3, known
        irredundant: the cone is simplicial), ``2^k`` extreme rays (the rows of ``M_rr``), dimension ``2^k``, pointed.
        Membership of a vector is the ``O(k 2^k)`` Kronecker inverse of :meth:`contains_row`, and the projection onto a
        pair ``(a, b)`` is the interval ``[r^{-h}, r^h]`` of ratios ``x_a / x_b`` with ``r = p/(1−p)`` and
        ``h = ham(a, b)`` (Lin & Kifer, Section V), factorised bit by bit: ``max_o Π_t M(o_t, a_t) / M(o_t, b_t)``
        ``= Π_t max_{o_t} …``. The dense facets (``2^k x 2^k``) are built only on demand, size-checked first.

        Examples
        --------
        >>> cone = RandomizedResponse(2, "3/4").row_cone()
        >>> cone.n_facets, cone.n_rays, cone.is_pointed
        (4, 4, True)
        >>> big = RandomizedResponse(14, "3/4").row_cone()          # no 2^14 x 2^14 matrix
        >>> big.n_facets, big.dim, big.contains([1] * 2**14).member
        (16384, 16384, True)
        """
        return self._cached_row_cone(self._build_row_cone)

    def _build_row_cone(self) -> Any:
        from ..geometry._cone import Cone
        from ..geometry._structure import ConeStructure

        n, k = self.n_inputs, self._k
        structure = ConeStructure(
            "kronecker",
            f"for every bit string s, one facet Σ_D p^ham(s,D) (p−1)^(k−ham(s,D)) x_D ≥ 0 (Theorem 4.3) — {n} facets, "
            f"one orbit; the extreme rays are the {n} rows of M_rr (a Kronecker product of {k} one-bit cones)",
            n_facets=n,
            n_rays=n,
            dim=n,
            pointed=True,
            facets=self.facets,
            rays=lambda: self.mechanism.matrix,
            contains=self._cone_contains,
            pair_bounds=self.pair_bounds,
            facet=lambda i: self.facet(i),
            extra={"k": k, "p": self._p, "facet_action": lambda p, items: p[items], "symmetry": self._symmetry},
            canonical_facets=self._canonical_facets if self._exact else None,
        )
        return Cone.from_structure(structure, labels=self.inputs, exact=self._exact)

    def orbit_structure(self) -> OrbitStructure | None:
        """The row cone and its Hamming relaxation per orbit of the hypercube group (the one fast-path protocol of
        definitions, :class:`~privgeom.definitions._orbit_structure.OrbitStructured`): one facet orbit, one edge
        orbit, every facet lost with a verified witness (Theorem 4.3, Section V; ``definitions/_rr_orbits.py``).
        None outside exact ``1/2 < p < 1``, ``k ≥ 2`` (the generic routes answer). Built once per definition.

        Examples
        --------
        >>> s = RandomizedResponse(4, "3/4").orbit_structure()
        >>> s.n_facets, len(s.facet_orbits), s.group.order, s.pairs("hamming").bound
        (16, 1, 384, Fraction(3, 1))
        >>> RandomizedResponse(1, "3/4").orbit_structure() is None
        True
        """
        if "_orbit_structure" not in self.__dict__:
            from ._rr_orbits import rr_orbit_structure

            self.__dict__["_orbit_structure"] = rr_orbit_structure(self)
        return self.__dict__["_orbit_structure"]

    def _canonical_facets(self) -> np.ndarray:
        """All facets in the canonical integer form of a Cone, built as one integer Kronecker power (no per-row work).

        Row ``s`` of ``⊗^k [[a−b, a], [a, a−b]]`` (``p = a/b``; bit 1 first) is ``b^k`` times the facet of ``s``;
        ``gcd(a, a−b) = 1`` makes it primitive, and the rows are sorted in decreasing lexicographic order.
        """
        n, k = self.n_inputs, self._k
        check_dense_size(n, n, exact=True, what=f"the facet matrix of {self.name}")
        a, b = self._a, self._b
        big = max(a, b - a) ** k >= INT64_SAFE
        K = np.array([[1]], dtype=object if big else np.int64)
        B = np.array([[a - b, a], [a, a - b]], dtype=K.dtype)
        for _ in range(k):
            K = np.kron(K, B)
        order = np.lexsort(K.T[::-1])[::-1]
        return K[order]  # integers, as a Cone stores its canonical rows (Cone.int_facets); no Fraction built

    def pair_bounds(
        self, ia: Sequence[int] | np.ndarray, ib: Sequence[int] | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``sup x_a / x_b`` over the row cone for index arrays ``ia``, ``ib``: ``r^{ham(a, b)}``, ``r = p/(1−p)``.

        The projection of the row cone onto a pair is the cone of the projected generators (rows of ``M_rr``), an
        interval of ratios; for a Kronecker product the maximum over the ``2^k`` rows factorises into ``k`` one-bit
        maxima ``max(p/(1−p), (1−p)/p) = r`` per differing bit (Lin & Kifer, Section V). Symmetric, so forward and
        backward bounds agree. ``p = 1`` gives ``math.inf`` for ``a ≠ b``.

        Examples
        --------
        >>> fwd, bwd = RandomizedResponse(3, "3/4").pair_bounds([0, 0], [1, 7])
        >>> fwd.tolist(), bwd.tolist()
        ([Fraction(3, 1), Fraction(27, 1)], [Fraction(3, 1), Fraction(27, 1)])
        """
        import math

        ia = np.asarray(ia, dtype=np.int64)
        ib = np.asarray(ib, dtype=np.int64)
        x = np.bitwise_xor(ia, ib)
        h = np.zeros(len(x), dtype=np.int64)
        for t in range(self._k):
            h += (x >> t) & 1
        out = np.empty(len(x), dtype=object if self._exact else float)
        p = self._p
        if p == 1:
            out[:] = [Fraction(1) if v == 0 else math.inf for v in h] if self._exact else np.where(h == 0, 1.0, np.inf)
        elif self._exact:
            r = Fraction(p) / (1 - Fraction(p))
            powers = [r**e for e in range(self._k + 1)]
            out[:] = [powers[int(v)] for v in h]
        else:
            out[:] = (float(p) / (1.0 - float(p))) ** h.astype(float)
        return readonly(out), readonly(out)

    # ------------------------------------------------------------------------------------------------ core
    def _transform(self, X: np.ndarray, exact: bool) -> _Transformed:
        """Facet values of the rows of ``X`` (:func:`~privgeom.definitions._rr_kronecker.transform`)."""
        return transform(self, X, exact)

    def _certificate(
        self,
        W: np.ndarray,
        Xint: np.ndarray | None,
        dens: list[int] | None,
        X: np.ndarray,
        o: int,
        output: str,
        exact: bool,
        atol: float,
    ) -> RowCertificate:
        """The verified facet certificate of row ``o`` (:func:`~privgeom.definitions._rr_kronecker.certificate`)."""
        return certificate(self, W, Xint, dens, X, o, output, exact, atol)

    def _decide(
        self,
        X: np.ndarray,
        exact: bool,
        atol: float,
        outputs: Sequence[str],
        ints: tuple[np.ndarray, list[int]] | None = None,
    ) -> _RowsDecision:
        """Every row of ``X`` through the Kronecker inverse (:func:`~privgeom.definitions._rr_kronecker.decide`)."""
        return decide(self, X, exact, atol, outputs, ints)

    def coefficients(self, x: Sequence[ScalarLike] | np.ndarray) -> np.ndarray:
        """The unique ``y`` with ``x = y · M_rr`` (``y = x M_rr^{-1}``), by the per-axis inverse of Theorem 4.3.

        ``x · facet(s) = (2p − 1)^k · y[s̄]``, where ``s̄`` is the complement of ``s`` (its index in :attr:`inputs` is
        ``int(s, 2)``); ``x`` is in the row cone iff ``y ≥ 0``. Exact (Fractions) for rational ``x`` and ``p``.

        Examples
        --------
        >>> RandomizedResponse(1, "3/4").coefficients([1, 1]).tolist()
        [Fraction(1, 1), Fraction(1, 1)]
        """
        vec, exact = as_vector(x, self.n_inputs, exact=self._exact)
        W, _, dens = self._transform(vec.reshape(1, -1), exact)
        if not exact:
            return W[0] / (2 * float(self._p) - 1) ** self._k
        assert dens is not None
        d = dens[0] * (2 * self._a - self._b) ** self._k
        ints = W.row(0).to_ints() if isinstance(W, ModularIntegers) else W[0]
        out = np.empty(self.n_inputs, dtype=object)
        out[:] = [Fraction(int(v), d) for v in ints]
        return out

    # ------------------------------------------------------------------------------------------------ membership
    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is the length-``2^k`` vector ``x`` in the row cone? Kronecker inverse, ``O(k 2^k)``, verified.

        Integer or Fraction entries (with exact ``p``) are decided exactly on scaled integers; float entries in
        float mode: member iff every facet value (facets have ℓ1 norm 1) is ``≥ −atol``.

        Examples
        --------
        >>> rr = RandomizedResponse(3, "3/4")
        >>> rr.contains_row([27, 9, 9, 3, 9, 3, 3, 1]).member        # a row of M_rr, times 64
        True
        >>> rr.contains_row([1, 0, 0, 0, 0, 0, 0, 0]).certificate.label
        '001'
        """
        tol = self._tol(atol)
        vec, exact = as_vector(x, self.n_inputs, exact=self._exact)
        X = vec.reshape(1, -1)
        member, cert, W, Xint, dens = self._decide(X, exact, tol, [""])
        if not member:
            assert cert is not None
            cert = replace(cert, row=-1, output="")
            return Membership(
                member=False,
                method="kronecker-inverse",
                exact=exact,
                certificate=cert,
                detail=f"x violates the facet of s={cert.label} (Theorem 4.3)",
            )
        gens = f"rows of M_rr(k={self._k}, p={fraction_str(self._p)})"
        if exact:
            assert Xint is not None and dens is not None
            if not verify_kron_identity(W, self._k, self._forward_kernel(True), self._factor(), Xint):
                raise SolverError(f"{self.name}: Kronecker witness failed exact verification")  # pragma: no cover
            den = dens[0] * (2 * self._a - self._b) ** self._k
            nums = W.row(0) if isinstance(W, ModularIntegers) else readonly(W[0])
            wit = RowWitness(generators=gens, residual=Fraction(0), numerators=nums, denominator=den)
        else:
            y = W[0] / (2 * float(self._p) - 1) ** self._k
            back = kron_apply(y, self._k, self._forward_kernel(False))
            resid = float(np.abs(back - vec).max())
            if resid > tol * max(1.0, float(np.abs(vec).max())):
                raise SolverError(
                    f"{self.name}: float Kronecker witness residual {number_text(resid, digits=3)} exceeds atol"
                )
            wit = RowWitness(generators=gens, residual=resid, _coefficients=readonly(y))
        return Membership(
            member=True,
            method="kronecker-inverse",
            exact=exact,
            witness=wit,
            detail="x = y · M_rr with y = x M_rr^{-1} ≥ 0 (Theorem 4.3)",
        )

    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Closure membership; by default every row through the Kronecker inverse (Theorem 4.3).

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> rr = RandomizedResponse(2, "3/4")
        >>> yes = rr.contains(randomized_response(2, "2/3"))
        >>> yes.member, yes.method, bool((yes.witness.post_processings[0].dot(rr.mechanism.matrix)
        ...                               == randomized_response(2, "2/3").matrix).all())
        (True, 'kronecker-inverse', True)
        >>> no = rr.contains(randomized_response(2, "4/5"))
        >>> no.member, bool(no.certificate.value < 0)
        (False, True)

        Raises
        ------
        DomainMismatchError
            The mechanism is not over the ``2^k`` bit strings (in order).
        SizeLimitError
            ``"linear-solve"``, ``"lp"`` or ``"row-cone"`` would build a too large dense ``M_rr``.

        Notes
        -----
        A factored exact mechanism of ``k`` one-bit factors (``randomized_response(k, p')``, a :func:`frapp` on
        bits) whose dense witness would exceed the dense size limit is decided from its factors
        (:meth:`_contains_factored`): the witness is then a factored :class:`~privgeom.Mechanism`.
        """
        self.check_method(method)
        M = self.check_mechanism(mechanism)
        tol = self._tol(atol)
        if method not in ("auto", "kronecker-inverse"):
            return self._finite.contains(M, method=method, atol=atol)
        exact = self._exact and M.exact
        if exact and self._per_bit_factors(M) is not None and not _dense_fits(M.n_outputs, self.n_inputs):
            return self._contains_factored(M, tol)
        if exact:  # integer rows straight from the integer columns: x[o] = num[o] (L / den) / L
            C = M.int_columns
            L = math.lcm(*(int(d) for d in set(C.denominators.tolist())))
            scaled = (
                C.numerators * (L // C.denominators)
                if fits_int64(L, C.max_numerator())
                else widen(C.numerators)[0] * (L // widen(C.denominators)[0])
            )
            X = fit_int_array(scaled)
            member, cert, W, Xint, dens = self._decide(X, exact, tol, M.outputs, ints=(X, [L] * X.shape[0]))
        else:
            X = M.float_matrix()
            member, cert, W, Xint, dens = self._decide(X, exact, tol, M.outputs)
        if not member:
            assert cert is not None
            return Membership(
                member=False,
                method="kronecker-inverse",
                exact=exact,
                certificate=cert,
                detail=f"row {cert.output!r} violates the facet of s={cert.label} (Theorem 4.3)",
            )
        m = X.shape[0]
        check_dense_size(m, self.n_inputs, exact=exact, what="the post-processing witness")
        if exact:
            assert Xint is not None and dens is not None
            c = (2 * self._a - self._b) ** self._k
            ok = verify_kron_identity(W, self._k, self._forward_kernel(True), self._factor(), Xint)
            Wi = W.to_ints() if isinstance(W, ModularIntegers) else W
            # column sums of A = W / (dens c) on integers: Σ_o W[o, j] (L / dens[o]) = L c with L = lcm(dens)
            Ld = math.lcm(*set(dens))
            scale = np.array([Ld // d for d in dens], dtype=object)[:, None]
            ok = ok and bool((widen(np.asarray(Wi))[0] * scale).sum(axis=0).tolist() == [Ld * c] * Wi.shape[1])
            A = int_columns_to_fractions(np.asarray(Wi).T, np.array([d * c for d in dens], dtype=object)).T
            wit = ClosureWitness(
                components=(0,), weights=(Fraction(1),), post_processings=(readonly(A),), residual=Fraction(0)
            )
        else:
            A = np.clip(W / (2 * float(self._p) - 1) ** self._k, 0.0, None)
            back = kron_apply(A, self._k, self._forward_kernel(False))
            resid = float(np.abs(back - X).max())
            ok = resid <= tol and bool((np.abs(A.sum(axis=0) - 1.0) <= tol).all())
            wit = ClosureWitness(components=(0,), weights=(1.0,), post_processings=(readonly(A),), residual=resid)
        if not ok:
            raise SolverError(
                f"{self.name}: the Kronecker witness did not verify"
                + ("" if exact else f" within atol={number_text(tol)} (tolerance boundary)")
            )
        return Membership(
            member=True,
            method="kronecker-inverse",
            exact=exact,
            witness=wit,
            detail="M' = Y · M_rr with Y = M' M_rr^{-1} ≥ 0 (Theorem 4.3)",
        )

    # ------------------------------------------------------------------------------------------------ factored
    def _per_bit_factors(self, M: Mechanism) -> tuple[Mechanism, ...] | None:
        """The ``k`` one-bit factors of ``M``, else None (:func:`~privgeom.definitions._rr_kronecker.per_bit_factors`)."""
        return per_bit_factors(self, M)

    def _contains_factored(self, M: Mechanism, atol: float) -> Membership:
        """Closure membership of a product of one-bit mechanisms from its factors
        (:func:`~privgeom.definitions._rr_kronecker.contains_factored`)."""
        return contains_factored(self, M, atol)


# privgeom.automorphisms (geometry never imports definitions) and the closure of d.nearest's LP, beside the type
automorphisms.register(RandomizedResponse, rr_automorphisms)


@closure_description.register(RandomizedResponse)
def _rr_description(definition: RandomizedResponse, exact: bool) -> ClosureDescription:
    F = definition.facets()  # row s: the facet of Theorem 4.3 (a column of the Kronecker inverse of M_rr)
    return ClosureDescription(kind="rows", inequalities=F if exact else F.astype(float))


@description_nonzeros.register(RandomizedResponse)
def _rr_nonzeros(definition: RandomizedResponse, n_out: int) -> int:
    return n_out * definition.n_inputs * definition.n_inputs  # the 2^k dense facets on every output row
