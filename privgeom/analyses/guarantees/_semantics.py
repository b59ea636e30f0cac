"""Bayesian semantics of a row cone (Lin & Kifer, Section III-C and Theorem 4.5).

Every valid inequality ``a·x ≥ 0`` of the row cone of a privacy definition is a guarantee: with
``S+ = {D_i : a_i > 0}`` and ``S- = {D_i : a_i < 0}``, an attacker whose prior on ``S+ ∪ S-`` is proportional to
``|a_i|`` never believes ``S-`` more likely than ``S+`` after seeing any output of any mechanism in the consistent
closure: ``P(S+ | ω) - P(S- | ω) ∝ Σ_i a_i M[ω, i] ≥ 0``. The facets are the complete list: every valid inequality
is a non-negative combination of facets (Farkas). See ``docs/theory.md`` §4.

On bit-string domains the sign pattern is often affine over GF(2): ``S+`` and ``S-`` are the datasets with even and
odd parity of a subset ``J`` of the bits (for randomized response, Theorem 4.3, ``J`` is every bit). That is
recognised and named by :mod:`._wording`, which words the sentences. One guarantee is a
:class:`~privgeom.analyses.guarantees._guarantee.Guarantee` (:mod:`._guarantee`); this module lists them for a row
cone (:func:`semantics`) and checks a mechanism against them (:func:`check_guarantee`, :func:`check_product_prior`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import singledispatch
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

import numpy as np

from ..._core.lazy import LazySequence
from ..._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError
from ..._core.arrays import ATOL, tolerance
from ..._core.numbers import parse_scalar, Scalar
from ..._core.limits import current_limit
from ..._core.results import Decision
from ...definitions._rr import RandomizedResponse
from ...mechanisms._mechanism import Mechanism
from .._coerce import as_cone
from ._guarantee import (  # noqa: F401  (the guarantee type and its builders are importable from here too)
    Guarantee,
    SparseNormal,
    _Split,
    guarantee_from_normal,
    sparse_difference_facet,
)
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
