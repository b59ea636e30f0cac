"""One Bayesian guarantee of a row cone (Lin & Kifer, Section III-C): :class:`Guarantee`, read lazily off a facet
``a·x ≥ 0`` given densely, as a callable or by its support (:class:`SparseNormal`).

With ``S+ = {D_i : a_i > 0}`` and ``S- = {D_i : a_i < 0}``, an attacker whose prior on ``S+ ∪ S-`` is proportional to
``|a_i|`` never believes ``S-`` more likely than ``S+`` after seeing any output of any mechanism in the consistent
closure: ``P(S+ | ω) - P(S- | ω) ∝ Σ_i a_i M[ω, i] ≥ 0``. :func:`guarantee_from_normal` builds the guarantee of any
valid inequality; :func:`privgeom.semantics` (:mod:`._semantics`) lists those of every facet of a row cone.

Examples
--------
>>> g = guarantee_from_normal([3, -1], ["1", "0"])
>>> g.s_plus, g.s_minus, str(g.prior["1"])
(('1',), ('0',), '3/4')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ..._core.errors import DomainMismatchError, InvalidParameterError
from ..._core.arrays import ATOL, VectorLike
from ..._core.numbers import parse_scalar, Scalar
from ..._core.numbers import integer_json, scalar_to_json
from ..._core.numbers import number_text as _fmt
from ..._core.results import Result, to_jsonable
from ..._core.level import ScalarLike
from ._wording import MAX_LISTED, long_text, parity_sentence, parity_structure, scaled_weights

__all__ = ["Guarantee", "SparseNormal", "guarantee_from_normal", "sparse_difference_facet"]


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

    @classmethod
    def from_normal(
        cls, normal: Sequence[ScalarLike] | np.ndarray, labels: Sequence[str], *, exact: bool | None = None
    ) -> "Guarantee":
        """The guarantee of one valid inequality ``normal · x ≥ 0`` over the datasets ``labels`` (Lin & Kifer,
        Section V: ``S+ = {a > 0}``, ``S- = {a < 0}``, prior ∝ ``|a|``); exact for integer or Fraction entries.

        Examples
        --------
        >>> g = Guarantee.from_normal([9, -3, -3, 1], ["11", "10", "01", "00"])
        >>> g.s_plus, g.s_minus, g.parity_bits
        (('11', '00'), ('10', '01'), (0, 1))
        """
        return guarantee_from_normal(normal, labels, exact=exact)

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
