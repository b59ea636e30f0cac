"""Bayesian semantics of a row cone (Lin & Kifer, Section III-C and Theorem 4.5).

Every valid inequality ``a·x ≥ 0`` of the row cone of a privacy definition is a guarantee: with
``S+ = {D_i : a_i > 0}`` and ``S- = {D_i : a_i < 0}``, an attacker whose prior on ``S+ ∪ S-`` is proportional to
``|a_i|`` never believes ``S-`` more likely than ``S+`` after seeing any output of any mechanism in the consistent
closure: ``P(S+ | ω) - P(S- | ω) ∝ Σ_i a_i M[ω, i] ≥ 0``. The facets are the complete list: every valid inequality
is a non-negative combination of facets (Farkas). See ``docs/theory.md`` §4.

On bit-string domains the sign pattern is often affine over GF(2): ``S+`` and ``S-`` are the datasets with even and
odd parity of a subset ``J`` of the bits (for randomized response, Theorem 4.3, ``J`` is every bit). That is
recognised and named by :mod:`._wording`, which words the sentences.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, singledispatch
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

import numpy as np

from ..._core.lazy import LazySequence
from ..._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError
from ..._core.arrays import ATOL, tolerance, VectorLike
from ..._core.numbers import parse_scalar, Scalar
from ..._core.limits import current_limit
from ..._core.numbers import integer_json, scalar_to_json
from ..._core.numbers import number_text as _fmt
from ..._core.results import Decision, Result, to_jsonable
from ...definitions._rr import RandomizedResponse
from ...mechanisms._mechanism import Mechanism
from .._coerce import as_cone
from ._wording import MAX_LISTED, long_text, parity_sentence, parity_structure, scaled_weights
from ..._core.level import ScalarLike

if TYPE_CHECKING:
    from ...definitions._base import PrivacyDefinition
    from ...geometry._cone import Cone

__all__ = [
    "Guarantee",
    "GuaranteeCheck",
    "ProductPriorCheck",
    "semantics",
    "guarantee_from_normal",
    "check_guarantee",
    "check_product_prior",
]


@dataclass(frozen=True)
class SparseNormal:
    """A facet normal given by its support: ``a[index[t]] = values[t]``, every other of the ``n`` entries zero.

    A :class:`Guarantee` whose source is (or returns) a ``SparseNormal`` reads its sets, prior and sentence from the
    support alone; the dense coefficients are built only when asked for (ε-DP facets ``e^ε x_j − x_i ≥ 0`` have two
    nonzeros among up to millions of datasets).

    Examples
    --------
    >>> SparseNormal(4, (2, 0), (Fraction(3), Fraction(-1))).dense(exact=True).tolist()
    [Fraction(-1, 1), Fraction(0, 1), Fraction(3, 1), Fraction(0, 1)]
    """

    n: int
    index: tuple[int, ...]
    values: tuple[Any, ...]

    def dense(self, *, exact: bool) -> np.ndarray:
        """The normal as a length-``n`` array (Fractions in exact mode, floats otherwise)."""
        out = np.full(self.n, Fraction(0), dtype=object) if exact else np.zeros(self.n)
        for i, v in zip(self.index, self.values):
            out[i] = v
        return out


def sparse_difference_facet(cone: Any, i: int) -> SparseNormal | None:
    """Facet ``i`` of a ``"difference"`` cone (``x_a ≤ c x_b``, then ``x_i ≥ 0`` for the listed coordinates) as a
    :class:`SparseNormal`, normalised like :func:`~privgeom.geometry._structure.normalised_facet` (primitive integers
    in exact mode, unit max-abs entry in float mode); None for any other cone.

    Examples
    --------
    >>> from privgeom import DifferentialPrivacy
    >>> sparse_difference_facet(DifferentialPrivacy.path(3, exp_eps="3/2").row_cone(), 1)
    SparseNormal(n=4, index=(2, 1), values=(Fraction(3, 1), Fraction(-2, 1)))
    """
    st = cone.structure
    if st is None or st.kind != "difference" or st.difference is None:
        return None
    d = st.difference
    n = cone.ambient_dim
    exact = bool(cone.exact)
    if i >= len(d.a):
        return SparseNormal(n, (int(d.nonneg[i - len(d.a)]),), (Fraction(1) if exact else 1.0,))
    a, b = int(d.a[i]), int(d.b[i])
    if exact:  # c·x_b − x_a scaled by the denominator q of c = p/q: (p, −q), coprime
        c = Fraction(d.c[i])
        return SparseNormal(n, (b, a), (Fraction(c.numerator), Fraction(-c.denominator)))
    cf = float(d.c[i])
    top = max(abs(cf), 1.0)
    return SparseNormal(n, (b, a), (cf / top, -1.0 / top))


class _Split(NamedTuple):
    """The support of a guarantee's normal: indices of ``S+`` and ``S-`` (by decreasing ``|a|``, then index) and the
    tolerance below which a float coefficient counts as zero (0 in exact mode)."""

    plus: tuple[int, ...]
    minus: tuple[int, ...]
    tol: Scalar


@dataclass(frozen=True, eq=False)
class Guarantee(Result):
    """One Bayesian guarantee read off a facet ``a·x ≥ 0`` of a row cone.

    Everything but the labels is computed on first access from the normal ``a`` (given directly or as a
    zero-argument callable), so that thousands of guarantees over thousands of datasets cost nothing until read.

    Attributes
    ----------
    coefficients : tuple
        The normal ``a`` (Fractions in exact mode), one entry per dataset in ``labels`` order.
    labels : tuple of str
        Dataset labels.
    s_plus, s_minus : tuple of str
        ``{D : a_D > 0}`` and ``{D : a_D < 0}`` (ordered by decreasing ``|a_D|``, then label order).
    n_plus, n_minus : int
        Their sizes.
    prior : dict
        The attacker prior on ``S+ ∪ S-``, proportional to ``|a|`` and normalised to sum 1.
    structure : str
        A structural description when one is recognised (parity of a subset of bits), else ``""``.
    parity_bits : tuple of int or None
        The bit positions ``J`` (0-based, left to right) whose parity separates ``S+`` from ``S-``.
    text : str
        The guarantee in one plain sentence; it lists at most :data:`~privgeom.analyses.guarantees._wording.MAX_LISTED` datasets and names larger sets by
        their rule (parity, Hamming distance) or their size.

    Examples
    --------
    >>> import privgeom as pg
    >>> g = pg.semantics(pg.RandomizedResponse(1, "3/4"))[0]
    >>> isinstance(g, pg.Guarantee), g.text.split(" whatever")[0]
    (True, 'An attacker whose prior over {1, 0} is proportional to (3, 1) never ends up believing {0} more likely than {1},')
    """

    labels: tuple[str, ...]
    exact: bool
    source: "VectorLike | SparseNormal | Callable[[], VectorLike | SparseNormal | None]" = field(repr=False)

    def summary(self) -> str:
        return self.text

    def _repr_latex_(self) -> str:
        from ..._core.display import to_latex

        return f"${to_latex(self)}$"

    @property
    def normal(self) -> np.ndarray:
        """The coefficients as an array."""
        return np.array(self.coefficients, dtype=object if self.exact else float)

    @property
    def integer_normal(self) -> np.ndarray | None:
        """The exact coefficients as a read-only ``int64`` array when they are integers of at most 62 bits (cone
        facets are primitive integer rows), else ``None``; reading it builds no ``Fraction``."""
        ints = self._integers
        if ints is None:
            return None
        view = ints.view()
        view.flags.writeable = False
        return view

    # ------------------------------------------------------------------------------------------ lazy reading
    @cached_property
    def _raw(self) -> Any:
        return self.source() if callable(self.source) else self.source

    @cached_property
    def _sparse(self) -> SparseNormal | None:
        raw = self._raw
        if not isinstance(raw, SparseNormal):
            return None
        if raw.n != len(self.labels):
            raise DomainMismatchError(f"a normal of length {raw.n} for {len(self.labels)} datasets")
        return raw

    @cached_property
    def coefficients(self) -> tuple[Any, ...]:
        raw = self._raw
        if isinstance(raw, SparseNormal):
            raw = raw.dense(exact=self.exact)
        vals = list(raw.tolist() if isinstance(raw, np.ndarray) else raw)
        if len(vals) != len(self.labels):
            raise DomainMismatchError(f"a normal of length {len(vals)} for {len(self.labels)} datasets")
        if self.exact:
            return tuple(
                v if isinstance(v, Fraction) else parse_scalar(v, name="coefficient", exact=True) for v in vals
            )
        return tuple(float(v) for v in vals)

    @cached_property
    def _integers(self) -> np.ndarray | None:
        """The exact coefficients as an ``int64`` array when they are integers of at most 62 bits (the normals of
        cone facets are primitive integer rows), else None. The sets, the parity and the Hamming profile are then
        read with array operations instead of one ``Fraction`` comparison per dataset."""
        if not self.exact:
            return None
        raw = self._raw
        if isinstance(raw, np.ndarray) and raw.dtype.kind in "iu":
            return raw.astype(np.int64, copy=False).ravel()
        vals = self.coefficients
        if not all(isinstance(v, int) or v.denominator == 1 for v in vals):
            return None
        ints = [int(v) for v in vals]
        if any(abs(v) >= 2**62 for v in ints):
            return None
        return np.array(ints, dtype=np.int64)

    @cached_property
    def _split(self) -> _Split:
        """Indices of S+ and S- (by decreasing |a|, then index) and the zero tolerance."""
        sp = self._sparse
        if sp is not None:  # the support alone: as the dense routes below, restricted to it
            vals = dict(zip(sp.index, sp.values))
            tol_s: Scalar = 0 if self.exact else ATOL * max(1.0, max((abs(float(v)) for v in sp.values), default=1.0))
            order_s = sorted((i for i, v in vals.items() if abs(v) > tol_s), key=lambda i: (-abs(vals[i]), i))
            plus_s = tuple(i for i in order_s if vals[i] > tol_s)
            minus_s = tuple(i for i in order_s if vals[i] < -tol_s)
            if not plus_s and not minus_s:
                raise InvalidParameterError("the zero vector is not a guarantee")
            return _Split(plus=plus_s, minus=minus_s, tol=tol_s)
        ints = self._integers
        if ints is not None:
            if len(ints) != len(self.labels):
                raise DomainMismatchError(f"a normal of length {len(ints)} for {len(self.labels)} datasets")
            nz = np.flatnonzero(ints)
            ordered = nz[np.lexsort((nz, -np.abs(ints[nz])))]
            signs = ints[ordered]
            if not len(ordered):
                raise InvalidParameterError("the zero vector is not a guarantee")
            pos: tuple[int, ...] = tuple(ordered[signs > 0].tolist())
            neg: tuple[int, ...] = tuple(ordered[signs < 0].tolist())
            return _Split(plus=pos, minus=neg, tol=0)
        c = self.coefficients
        tol: Scalar = 0 if self.exact else ATOL * max(1.0, max((abs(float(v)) for v in c), default=1.0))
        support = (
            np.flatnonzero(np.asarray(c, dtype=object) != 0).tolist()
            if self.exact
            else np.flatnonzero(np.abs(np.asarray(c, dtype=float)) > tol).tolist()
        )
        order = sorted(support, key=lambda i: (-abs(c[i]), i))
        plus = tuple(i for i in order if c[i] > tol)
        minus = tuple(i for i in order if c[i] < -tol)
        if not plus and not minus:
            raise InvalidParameterError("the zero vector is not a guarantee")
        return _Split(plus=plus, minus=minus, tol=tol)

    @property
    def s_plus(self) -> tuple[str, ...]:
        return tuple(self.labels[i] for i in self._split.plus)

    @property
    def s_minus(self) -> tuple[str, ...]:
        return tuple(self.labels[i] for i in self._split.minus)

    @property
    def n_plus(self) -> int:
        return len(self._split.plus)

    @property
    def n_minus(self) -> int:
        return len(self._split.minus)

    @cached_property
    def prior(self) -> dict[str, Any]:
        plus, minus, _ = self._split
        sp = self._sparse
        c: Any = dict(zip(sp.index, sp.values)) if sp is not None else self.coefficients
        support = sorted(plus + minus, key=lambda i: (-abs(c[i]), i))
        total = sum(abs(c[i]) for i in support)
        return {self.labels[i]: abs(c[i]) / total for i in support}

    @cached_property
    def _parity(self) -> tuple[tuple[int, ...] | None, str]:
        plus, minus, tol = self._split
        n_support = len(plus) + len(minus)
        # Two datasets always fit some parity, so a parity reading of a 2-point support inside a larger domain (a
        # DP pair) says nothing; on a full support (k = 1) it names the protected bit.
        if not minus or not (n_support > 2 or n_support == len(self.labels)):
            return None, ""
        ints = self._integers
        signs: Any = (
            np.sign(ints)
            if ints is not None
            else [1 if v > tol else (-1 if v < -tol else 0) for v in self.coefficients]
        )
        par = parity_structure(self.labels, signs)
        if par is None:
            return None, ""
        J, const = par
        return J, parity_sentence(J, const, self.labels[plus[0]], full=n_support == len(self.labels))

    @property
    def parity_bits(self) -> tuple[int, ...] | None:
        return self._parity[0]

    @property
    def structure(self) -> str:
        return self._parity[1]

    @cached_property
    def text(self) -> str:
        plus, minus, _ = self._split
        if len(plus) + len(minus) > MAX_LISTED:
            return long_text(self)
        splus, sminus = self.s_plus, self.s_minus
        if not minus:
            if len(plus) == 1:
                return (
                    f"x_{splus[0]} ≥ 0: probabilities are non-negative. This facet is no Bayesian guarantee (S- "
                    f"is empty); it constrains no attacker's inference."
                )
            return (
                f"A non-negative combination of the probabilities of {{{', '.join(splus)}}} is non-negative: "
                f"S- is empty, so this facet constrains no attacker's inference."
            )
        shown = splus + sminus
        weights = scaled_weights([self.prior[d] for d in shown])
        text = (
            f"An attacker whose prior over {{{', '.join(shown)}}} is proportional to "
            f"({', '.join(_fmt(w) for w in weights)}) never ends up believing {{{', '.join(sminus)}}} more likely "
            f"than {{{', '.join(splus)}}}, whatever the output"
        )
        return text + (f"; {self.structure}." if self.structure else ".")

    # ------------------------------------------------------------------------------------------ identity, JSON
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Guarantee):
            return NotImplemented
        return (self.labels, self.exact, self.coefficients) == (other.labels, other.exact, other.coefficients)

    def __hash__(self) -> int:
        return hash((self.labels, self.coefficients))

    def _integer_prior_json(self) -> dict[str, str]:
        """``to_jsonable(self.prior)`` from the integer normal: ``|a_D| / Σ|a|`` reduced by one gcd per distinct
        weight, in the prior's order (decreasing ``|a_D|``, then dataset order), without a ``Fraction`` per dataset."""
        plus, minus, _ = self._split
        ints = self._integers
        assert ints is not None
        idx = np.asarray(plus + minus, dtype=np.int64)
        order = idx[np.lexsort((idx, -np.abs(ints[idx])))]
        weights = np.abs(ints[order]).tolist()
        total = sum(weights)  # Python integers: no int64 overflow in the sum
        text: dict[int, str] = {}
        for v in set(weights):
            text[v] = scalar_to_json(Fraction(v, total))
        return {self.labels[i]: text[v] for i, v in zip(order.tolist(), weights)}

    def to_dict(self, *, labels: bool = True) -> dict[str, Any]:
        """The complete data (coefficients, S+, S-, prior, structure, text); ``labels=False`` leaves out the
        dataset labels (written once by streaming writers)."""
        ints = self._integers
        out: dict[str, Any] = {
            "coefficients": [integer_json(v) for v in ints.tolist()]
            if ints is not None
            else to_jsonable(self.coefficients)
        }  # a Fraction n/1 is written "n": the same text
        if labels:
            out["labels"] = list(self.labels)
        prior = self._integer_prior_json() if ints is not None else to_jsonable(self.prior)
        out.update(
            {
                "s_plus": list(self.s_plus),
                "s_minus": list(self.s_minus),
                "prior": prior,
                "structure": self.structure,
                "parity_bits": to_jsonable(self.parity_bits),
                "text": self.text,
                "exact": self.exact,
            }
        )
        return out


def guarantee_from_normal(
    normal: Sequence[ScalarLike] | np.ndarray, labels: Sequence[str], *, exact: bool | None = None
) -> Guarantee:
    """Build the :class:`Guarantee` of one valid inequality ``normal · x ≥ 0``.

    Examples
    --------
    >>> g = guarantee_from_normal([9, -3, -3, 1], ["11", "10", "01", "00"])
    >>> g.s_plus, g.s_minus, [str(g.prior[d]) for d in ("11", "00", "01", "10")]
    (('11', '00'), ('10', '01'), ['9/16', '1/16', '3/16', '3/16'])
    >>> print(g.text)  # doctest: +NORMALIZE_WHITESPACE
    An attacker whose prior over {11, 00, 10, 01} is proportional to (9, 1, 3, 3) never ends up believing
    {10, 01} more likely than {11, 00}, whatever the output; S+ and S- are the datasets whose bits have
    even and odd parity (even and odd Hamming distance from 11).
    """
    labels = tuple(str(s) for s in labels)
    if len(normal) != len(labels):
        raise DomainMismatchError(f"a normal of length {len(normal)} for {len(labels)} datasets")
    if exact is None:
        exact = all(isinstance(v, (int, Fraction, np.integer)) for v in normal)
    coeffs: tuple[Any, ...] = tuple(parse_scalar(v, name="coefficient", exact=exact) for v in normal)
    g = Guarantee(labels=labels, exact=bool(exact), source=coeffs)
    g._split  # validate now: the zero vector is refused at once
    return g


def semantics(definition_or_cone: PrivacyDefinition | Cone) -> Sequence[Guarantee]:
    """The Bayesian guarantees of a privacy definition: one per facet of its row cone (two per equality).

    The guarantees are lazy (see :class:`Guarantee`): building them costs nothing per dataset; their sets, priors
    and sentences are computed when read. Randomized response is read from the closed form of Theorem 4.3 (Lin &
    Kifer) without building its row cone.

    Parameters
    ----------
    definition_or_cone : PrivacyDefinition or Cone

    Returns
    -------
    sequence of Guarantee
        In the order of the canonical facets (then equalities, each as ``e·x ≥ 0`` and ``-e·x ≥ 0``); for randomized
        response, the facet of string ``s`` in the same canonical order up to ``RR_CANONICAL_MAX`` datasets, in
        dataset order beyond; for other cones known in closed form whose dense facets would exceed the size limits,
        in the order of the structure, each guarantee built when read (a tuple-like ``LazySequence``; normals
        scaled to primitive integers in exact mode, to unit max-abs entry in float mode, as canonical facets are).

    Examples
    --------
    >>> from privgeom import RandomizedResponse
    >>> gs = semantics(RandomizedResponse(2, "3/4"))
    >>> len(gs), all(g.parity_bits == (0, 1) for g in gs)
    (4, True)
    >>> g = semantics(RandomizedResponse(10, "3/4"))[0]      # 1024 guarantees, nothing built until read
    >>> g.n_plus, g.n_minus
    (512, 512)
    >>> print(g.text)  # doctest: +NORMALIZE_WHITESPACE
    An attacker whose prior over all 1024 datasets is proportional to 3^(−h) for the datasets at Hamming distance h
    from 1111111111 never ends up believing S- more likely than S+, whatever the output; S+ is the 512 datasets at
    even and S- the 512 at odd Hamming distance from 1111111111 (parity of the bits relative to 1111111111).
    """
    return _semantics(definition_or_cone)


@singledispatch
def _semantics(obj: Any) -> Sequence[Guarantee]:
    """The guarantees of any row cone (a definition's or a cone's); definitions known in closed form register their
    own below."""
    cone = as_cone(obj)
    labels, exact = tuple(cone.labels), cone.exact
    st = cone.structure
    if st is not None and st.n_facets is not None and (st.facet is not None or st.difference is not None):
        limit = current_limit("exact_entries") if exact else current_limit("dense_entries")
        if st.n_facets * cone.ambient_dim > limit:  # too large to build densely: one facet at a time, lazily
            from ...geometry._structure import normalised_facet, structured_facet

            def one(i: int) -> Guarantee:
                if st.difference is not None:  # two nonzeros: no dense vector until the coefficients are read
                    return Guarantee(labels=labels, exact=exact, source=lambda: sparse_difference_facet(cone, i))
                return Guarantee(
                    labels=labels, exact=exact, source=lambda: normalised_facet(structured_facet(cone, i), exact)
                )

            return LazySequence(st.n_facets, one)  # built when read: a report reads a dozen of 200,000
    F, E = cone.facets, cone.equalities
    out = [Guarantee(labels=labels, exact=exact, source=_row(F, i)) for i in range(len(F))]
    for i in range(len(E)):
        out.append(Guarantee(labels=labels, exact=exact, source=_row(E, i)))
        out.append(Guarantee(labels=labels, exact=exact, source=_row(E, i, -1)))
    return tuple(out)


def _row(A: np.ndarray, i: int, sign: int = 1) -> Any:
    return (lambda: A[i]) if sign == 1 else (lambda: -A[i])


@_semantics.register(RandomizedResponse)
def _rr_semantics(rr: RandomizedResponse) -> Sequence[Guarantee]:
    """Theorem 4.3: the facet of ``s`` is ``a_D = p^{ham(s,D)} (p−1)^{k−ham(s,D)}`` (built on first read)."""
    labels = tuple(rr.inputs)

    def facet(i: int) -> Any:
        if rr.exact:  # integers (int64, or Python ints beyond 62 bits): no Fraction until coefficients are read
            return lambda: rr.facet(i, scaled=True)

        def unit() -> np.ndarray:
            a = np.asarray(rr.facet(i), dtype=float)
            return a / np.abs(a).max()

        return unit

    if rr.n_inputs > RR_CANONICAL_MAX:  # dataset order (see _rr_canonical_order); built when read
        return LazySequence(rr.n_inputs, lambda i: Guarantee(labels=labels, exact=rr.exact, source=facet(i)))
    return tuple(Guarantee(labels=labels, exact=rr.exact, source=facet(int(i))) for i in _rr_canonical_order(rr))


#: Largest randomized-response domain whose guarantees are put in the canonical facet order (0.7 s at 4096).
RR_CANONICAL_MAX = 4096


def _rr_canonical_order(rr: Any) -> np.ndarray:
    """Facet indices ``s`` in the canonical order of :class:`~privgeom.Cone` (decreasing lexicographic rows).

    Entry ``D`` of facet ``s`` is ``g(h) = p^h (p−1)^{k−h}`` with ``h = ham(s, D)``, and ``ham`` of two datasets is
    the popcount of the XOR of their indices; rows are compared column by column through the rank of ``g(h)``
    (exact comparison of the ``k + 1`` values), refining only the ties, so the ``2^k x 2^k`` matrix is never built.
    Above :data:`RR_CANONICAL_MAX` datasets the refinement is skipped and the facets keep dataset order.
    """
    k, n, p = rr.k, rr.n_inputs, rr.p
    if n > RR_CANONICAL_MAX:
        return np.arange(n, dtype=np.int64)
    values = [p**h * (p - 1) ** (k - h) for h in range(k + 1)]
    rank = np.array([sorted(set(values)).index(v) for v in values], dtype=np.int64)
    idx = np.arange(n, dtype=np.int64)
    group = np.zeros(n, dtype=np.int64)
    for j in range(n):
        x = idx ^ j
        pop = np.zeros(n, dtype=np.int64)
        for b in range(k):
            pop += (x >> b) & 1
        col = rank[pop]
        order = np.lexsort((-col, group))
        g_sorted, c_sorted = group[order], col[order]
        new = np.concatenate(([True], (g_sorted[1:] != g_sorted[:-1]) | (c_sorted[1:] != c_sorted[:-1])))
        group = np.empty(n, dtype=np.int64)
        group[order] = np.cumsum(new) - 1
        if new.all():
            break
    return np.argsort(group, kind="stable")


@dataclass(frozen=True)
class GuaranteeCheck(Decision):
    """Posterior check of one guarantee on every output of a mechanism.

    ``posterior_plus[ω]`` and ``posterior_minus[ω]`` are ``P(S+ | ω)`` and ``P(S- | ω)`` under the prior
    (outputs of probability 0 under the prior are skipped and reported in ``skipped``).
    """

    holds: bool
    guarantee: Guarantee
    outputs: tuple[str, ...]
    posterior_plus: tuple[Scalar, ...]
    posterior_minus: tuple[Scalar, ...]
    violating_output: str | None
    skipped: tuple[str, ...]
    exact: bool = False

    def summary(self) -> str:
        if self.holds:
            return f"holds on all {len(self.outputs)} outputs: {self.guarantee.text}"
        return f"VIOLATED on output {self.violating_output}: {self.guarantee.text}"


def _mech_values(mechanism: Mechanism, labels: Sequence[str], exact: bool) -> np.ndarray:
    if not isinstance(mechanism, Mechanism):
        raise InvalidTypeError(f"expected a Mechanism, got {type(mechanism).__name__}")
    if tuple(mechanism.inputs) != tuple(labels):
        try:
            mechanism = mechanism.restrict(list(labels))
        except Exception:
            raise DomainMismatchError(
                f"mechanism inputs {list(mechanism.inputs)[:8]} do not match the datasets {list(labels)[:8]}"
            ) from None
    use_exact = exact and mechanism.exact
    return mechanism.matrix if use_exact else mechanism.float_matrix()


def check_guarantee(mechanism: Mechanism, guarantee: Guarantee, *, atol: float | None = None) -> GuaranteeCheck:
    """Compute posteriors under the guarantee's prior and confirm ``P(S+|ω) ≥ P(S-|ω)`` on every output.

    The Bayesian reading of a valid inequality of the row cone (Lin & Kifer, Section III-C). Exact when both the mechanism and the guarantee are exact; otherwise float with tolerance ``atol`` (default :data:`~privgeom._core.arrays.ATOL`).

    Examples
    --------
    >>> from privgeom import randomized_response, RandomizedResponse
    >>> g = semantics(RandomizedResponse(2, "3/4"))[0]
    >>> check_guarantee(randomized_response(2, "3/4"), g).holds
    True
    """
    atol = tolerance(atol)
    exact = guarantee.exact and mechanism.exact
    M = _mech_values(mechanism, guarantee.labels, exact)
    idx = {d: i for i, d in enumerate(guarantee.labels)}
    plus_post, minus_post, outs, skipped = [], [], [], []
    violating = None
    for w, row in enumerate(M):
        joint_plus = sum((guarantee.prior[d] * row[idx[d]] for d in guarantee.s_plus), start=0 * row[0])
        joint_minus = sum((guarantee.prior[d] * row[idx[d]] for d in guarantee.s_minus), start=0 * row[0])
        evidence = joint_plus + joint_minus
        label = mechanism.outputs[w]
        if evidence == 0 or (not exact and float(evidence) <= atol * 1e-3):
            skipped.append(label)
            continue
        pp, pm = joint_plus / evidence, joint_minus / evidence
        outs.append(label)
        plus_post.append(pp if exact else float(pp))
        minus_post.append(pm if exact else float(pm))
        if violating is None and (pp < pm if exact else float(pp) < float(pm) - atol):
            violating = label
    return GuaranteeCheck(
        holds=violating is None,
        guarantee=guarantee,
        outputs=tuple(outs),
        posterior_plus=tuple(plus_post),
        posterior_minus=tuple(minus_post),
        violating_output=violating,
        skipped=tuple(skipped),
        exact=bool(exact),
    )


class ParityViolation(NamedTuple):
    """Where Theorem 4.5 fails: the bits ``J``, the output, and ``P(parity of J even)`` a priori and a posteriori
    on that output (the a-priori more likely parity became the less likely one)."""

    bits: tuple[int, ...]
    output: str
    prior_even: Scalar
    posterior_even: Scalar


@dataclass(frozen=True)
class ProductPriorCheck(Decision):
    """Theorem 4.5 (Lin & Kifer) checked for one product prior: the a-priori more likely parity of every
    eligible subset ``J`` of bits stays a-posteriori more likely on every output.

    ``eligible_bits`` are the bits with ``q_j ≥ p`` or ``q_j ≤ 1-p``; ``subsets_checked`` counts the non-empty
    subsets of them; ``violation`` is a :class:`ParityViolation` ``(bits, output, prior_even, posterior_even)`` or
    None.
    """

    holds: bool
    q: tuple[Scalar, ...]
    p: Scalar
    eligible_bits: tuple[int, ...]
    subsets_checked: int
    outputs_checked: int
    violation: ParityViolation | None
    exact: bool = False

    def summary(self) -> str:
        if self.holds:
            one = self.subsets_checked == 1
            return (
                f"Theorem 4.5 holds: {self.subsets_checked} subset{'' if one else 's'} of the bits "
                f"{list(self.eligible_bits)} {'keeps its' if one else 'keep their'} a-priori more likely parity on "
                f"all {self.outputs_checked} output{'' if self.outputs_checked == 1 else 's'}"
            )
        assert self.violation is not None
        J, w, pr, po = self.violation
        return f"Theorem 4.5 VIOLATED for bits {list(J)} on output {w}: prior P(even)={pr}, posterior P(even)={po}"


def check_product_prior(
    mechanism: Mechanism, p: ScalarLike, q: Sequence[ScalarLike], *, max_bits: int = 16
) -> ProductPriorCheck:
    """Check Theorem 4.5 of Lin & Kifer for a mechanism on bit strings and a product prior ``P(bit j = 1) = q_j``.

    For every non-empty subset ``J`` of the bits whose ``q_j ≥ p`` or ``q_j ≤ 1 - p``, and every output ``ω``: if
    parity 0 of ``J`` is a priori at least as likely as parity 1 then ``P(parity(J)=0 | ω) ≥ P(parity(J)=1 | ω)``,
    and symmetrically. Exact when the mechanism, ``p`` and ``q`` are exact.

    The theorem says this holds for every ``M`` whose rows lie in ``rowcone(RR(p))``, and only for those.

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> check_product_prior(randomized_response(2, "3/4"), "3/4", ["3/4", "1/5"]).holds
    True
    """
    labels = mechanism.inputs
    if not mechanism.domain.is_bits:
        raise DomainMismatchError(f"Theorem 4.5 needs bit-string datasets, got {list(labels)[:6]}")
    k = len(labels[0])
    if k > max_bits:
        from ..._core.errors import SizeLimitError

        raise SizeLimitError(f"check_product_prior enumerates 2^{k} subsets; k = {k} exceeds max_bits = {max_bits}")
    if len(q) != k:
        raise DomainMismatchError(f"q has {len(q)} entries for {k} bits")
    exact = mechanism.exact and all(isinstance(parse_scalar(v), Fraction) for v in [p, *q])
    pv = parse_scalar(p, name="p", exact=exact)
    qv = [parse_scalar(v, name="q", exact=exact) for v in q]
    if any(not 0 <= v <= 1 for v in qv):
        raise InvalidParameterError(f"prior bit probabilities must lie in [0, 1], got {[str(v) for v in qv]}")
    M = mechanism.matrix if exact else mechanism.float_matrix()
    bits = np.array([[int(ch) for ch in s] for s in labels])
    prior = []
    for row in bits:
        pr = Fraction(1) if exact else 1.0
        for j, b in enumerate(row):
            pr *= qv[j] if b else 1 - qv[j]
        prior.append(pr)
    prior_arr = np.array(prior, dtype=object if exact else float)
    eligible = tuple(j for j in range(k) if qv[j] >= pv or qv[j] <= 1 - pv)
    joint = M * prior_arr[None, :]  # joint[ω, D] = P(D) P(ω | D)
    count = 0
    for r in range(1, len(eligible) + 1):
        for J in itertools.combinations(eligible, r):
            count += 1
            odd = bits[:, list(J)].sum(axis=1) % 2 == 1
            prior_even = prior_arr[~odd].sum()
            prior_odd = prior_arr[odd].sum()
            even_joint = joint[:, ~odd].sum(axis=1)
            odd_joint = joint[:, odd].sum(axis=1)
            for w in range(M.shape[0]):
                e, o = even_joint[w], odd_joint[w]
                bad = (prior_even >= prior_odd and e < o) or (prior_odd >= prior_even and o < e)
                if not exact:
                    tol = ATOL * max(1.0, float(e + o))
                    bad = (prior_even >= prior_odd and e < o - tol) or (prior_odd >= prior_even and o < e - tol)
                if bad:
                    post = e / (e + o)
                    violation = ParityViolation(
                        bits=J, output=mechanism.outputs[w], prior_even=prior_even, posterior_even=post
                    )
                    return ProductPriorCheck(
                        holds=False,
                        q=tuple(qv),
                        p=pv,
                        eligible_bits=eligible,
                        subsets_checked=count,
                        outputs_checked=M.shape[0],
                        violation=violation,
                        exact=bool(exact),
                    )
    return ProductPriorCheck(
        holds=True,
        q=tuple(qv),
        p=pv,
        eligible_bits=eligible,
        subsets_checked=count,
        outputs_checked=M.shape[0],
        violation=None,
        exact=bool(exact),
    )
