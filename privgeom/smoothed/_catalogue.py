"""Small mechanisms of the smoothed-DP paper as exact :class:`~privgeom.Mechanism` matrices.

- :func:`shm` — the sampling-histogram mechanism (Liu, Wang & Xia, Section 5.1) without/with replacement;
- :func:`majority_vote` — ``M_ρ f``: every vote is kept with probability ``(1 + ρ)/2`` (flipped otherwise), then
  the majority rule is applied (``ρ = 1``: the noiseless majority of the motivating example);
- :func:`sampling_sum` — the sum of ``T`` records sampled without replacement (Theorem 3, Algorithm 2);
- :func:`joint` (composition, Proposition 3), :func:`precompose` and :func:`push_forward` (pre-processing,
  Proposition 4).

Every mechanism is built on a :class:`privgeom.Domain` (``Domain.databases``, ``Domain.histograms``,
``Domain.counts``, ``Domain.bits``), so ``M.domain`` names its datasets and their neighbour relations and the core
analyses (``privgeom.delta(M, "replace-one", eps)``) apply directly.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from .._core.domain import Domain
from .._core.errors import DomainMismatchError, InvalidParameterError
from .._core.arrays import check_dense_size, parse_int
from .._core.numbers import Scalar
from ..analyses.composition._mechanism import ComposedMechanism
from ..mechanisms import Mechanism
from ._domains import database_points, histograms, input_domain, record_values
from ._reduction import count_compositions
from .._core.level import LevelLike, ScalarLike

__all__ = [
    "shm",
    "majority_vote",
    "sampling_sum",
    "joint",
    "precompose",
    "push_forward",
]

#: ``inputs=`` names of :func:`shm` -> the Domain kind of its columns.
SHM_INPUTS = {"histogram": "histograms", "count": "counts", "database": "databases"}


def _shm_column(h: Sequence[int], T: int, n: int, replace: bool, outs: list[tuple[int, ...]]) -> list[Fraction]:
    if replace:
        col = []
        for s in outs:
            coef = math.factorial(T)
            prob = Fraction(1)
            for hj, sj in zip(h, s):
                coef //= math.factorial(sj)
                prob *= Fraction(hj, n) ** sj
            col.append(coef * prob)
        return col
    total = math.comb(n, T)
    return [Fraction(math.prod(math.comb(hj, sj) for hj, sj in zip(h, s)), total) for s in outs]


def shm(n: int, T: int, categories: int = 2, replace: bool = False, *, inputs: str | Domain = "histogram") -> Mechanism:
    """The sampling-histogram mechanism as an exact matrix (Liu, Wang & Xia, Section 5.1 / Appendix H).

    Sample ``T`` of the ``n`` records uniformly without replacement (``replace=False``; multivariate hypergeometric)
    or ``T`` times with replacement (multinomial ``(T, h/n)``) and publish the histogram of the sample.

    Parameters
    ----------
    n, T : int
        Agents and sample size (``T <= n`` without replacement).
    categories : int
        Size ``k`` of the record domain ``{0, …, k−1}``.
    replace : bool
        Sample with replacement.
    inputs : ``"histogram"`` (default), ``"count"``, ``"database"`` or a Domain
        Columns are ``Domain.histograms(n, k)`` (``"[h_0,…]"``: the mechanism is anonymous), ``Domain.counts(n)``
        (the count of record 1; two categories only; outputs are then counts ``"0".."T"``) or
        ``Domain.databases(n, k)`` (all ``k^n`` databases ``"(x_1,…,x_n)"``); a Domain of one of these kinds and
        sizes may be passed instead of the name. Outputs are sample histograms ``"[s_0,…]"`` (counts for counts).

    Examples
    --------
    >>> M = shm(3, 2, inputs="count")
    >>> M.inputs, M.outputs, M.domain.kind
    (('0', '1', '2', '3'), ('0', '1', '2'), 'counts')
    >>> [str(v) for v in M.column("1")]
    ['1/3', '2/3', '0']
    >>> shm(2, 1, inputs="database").column("(0,1)").tolist()
    [Fraction(1, 2), Fraction(1, 2)]
    """
    n = parse_int(n, name="n", min=1)
    T = parse_int(T, name="T", min=0)
    k = parse_int(categories, name="categories", min=2)
    if not replace and T > n:
        raise InvalidParameterError(f"without replacement T must be <= n, got T = {T} > n = {n}")
    given: Domain | None = inputs if isinstance(inputs, Domain) else None
    kind = given.kind if given is not None else SHM_INPUTS.get(inputs) if isinstance(inputs, str) else None
    if kind not in SHM_INPUTS.values():
        raise InvalidParameterError(
            f"inputs must be one of {tuple(SHM_INPUTS)} or a Domain of one of the kinds {tuple(SHM_INPUTS.values())}, "
            f"got {inputs!r}"
        )
    if kind == "counts" and k != 2:
        raise InvalidParameterError("inputs='count' needs categories=2")
    # sizes first, from closed forms (nothing enumerated): refuse before building any list
    n_in = n + 1 if kind == "counts" else (count_compositions(n, k) if kind == "histograms" else k**n)
    n_out = T + 1 if kind == "counts" else count_compositions(T, k)
    check_dense_size(
        n_out,
        n_in,
        exact=True,
        what=f"shm(n={n}, T={T}, categories={k}) as a matrix (for large n use SamplingHistogram(n, T), whose routes build no matrix)",
    )
    if kind == "counts":
        dom, out_dom = Domain.counts(n), Domain.counts(T)
    elif kind == "histograms":
        dom, out_dom = Domain.histograms(n, k), Domain.histograms(T, k)
    else:
        dom, out_dom = Domain.databases(n, k), Domain.histograms(T, k)
    if given is not None:
        if given.up_to or given.n != n or len(record_values(given)) != k:
            raise DomainMismatchError(
                f"inputs={given.kind}(n={given.n}, {len(record_values(given))} values) does not match shm(n={n}, "
                f"categories={k})"
            )
        dom = given
    ins = histograms(dom)
    outs: list[tuple[int, ...]] = [(T - c, c) for (c,) in out_dom.points] if kind == "counts" else list(out_dom.points)
    cache: dict[tuple[int, ...], list[Fraction]] = {}
    cols = [cache.setdefault(h, _shm_column(h, T, n, replace, outs)) for h in ins]
    mat = np.array(cols, dtype=object).T
    return Mechanism(mat, dom, out_dom.labels, exact=True)


def _keep_probability(rho: ScalarLike | None, eps: LevelLike | None) -> Any:
    """The validated keep-probability ``ρ`` from ``rho=`` or from ``eps=`` (at most one; neither: ``ρ = 1``).

    The bridge is exact: keeping a vote with probability ``p = (1 + ρ)/2`` is randomized response with
    ``e^ε = p/(1 − p) = (1 + ρ)/(1 − ρ)``, so ``ρ = (e^ε − 1)/(e^ε + 1)`` (``docs/theory.md`` §17), rational
    when ``e^ε`` is.

    Examples
    --------
    >>> _keep_probability(None, "ln(3)").rho, _keep_probability(None, None).rho
    (Fraction(1, 2), Fraction(1, 1))
    """
    from ..voting._common import noise  # the one bridge between ρ and ε

    return noise(rho, eps=eps, default=1)


def majority_vote(
    n: int, rho: ScalarLike | None = None, *, eps: LevelLike | None = None, tie: str = "1", inputs: str = "count"
) -> Mechanism:
    """``M_ρ f`` for the majority rule ``f`` on ``n`` binary votes: ``P(f(y) = r | x)``, built by :mod:`privgeom.voting`.

    Every vote ``x_j`` is kept with probability ``(1 + ρ)/2`` and flipped otherwise (randomized response on the
    ballots), then ``f`` = majority of the noisy votes ``y`` is published (Evren & Vepakomma, Definition 2; the
    motivating example of Liu, Wang & Xia is ``ρ = 1``, the noiseless majority). One mechanism, one labelling: the
    matrix is :func:`privgeom.voting.mechanism` of the rule (outputs ``"1"``, ``"-1"``), on the profiles
    (``Domain.bits(n)`` labels ``"11…1"`` …) or, by vote count, on ``Domain.counts(n)`` (``"0"`` … ``"n"`` votes
    ``1``; every profile with ``c`` ones has the same column, computed by the voting by-count engine).

    Parameters
    ----------
    n : int
    rho : rational or float in [0, 1], optional
        The keep-probability parameter (default 1: no noise).
    eps : ε (float, ``"ln(r)"``, LogRational or PrivacyLevel), optional
        Instead of ``rho``: the level of the randomized response on each ballot, ``ρ = (e^ε − 1)/(e^ε + 1)``
        (``docs/theory.md`` §17; exact when ``e^ε`` is rational).
    tie : ``"1"``, ``"0"`` or ``"coin"``
        Outcome of a tie (even ``n``): ``1`` (``threshold(n, -1)``), ``-1`` (``threshold(n, 0)``), or a fair coin
        (the even mixture of the two mechanisms; the coin is independent of the votes).
    inputs : ``"count"`` (default, columns ``"0".."n"``) or ``"database"`` (all ``2^n`` vote profiles)

    Examples
    --------
    >>> M = majority_vote(3)
    >>> M.outputs, [str(v) for v in M.row("1")]
    (('1', '-1'), ['0', '0', '1', '1'])
    >>> [str(v) for v in majority_vote(1, "1/2").row("1")]
    ['1/4', '3/4']
    >>> majority_vote(1, eps="ln(3)") == majority_vote(1, "1/2")   # e^ε = 3: ρ = (3 − 1)/(3 + 1)
    True
    >>> from privgeom import voting
    >>> majority_vote(3, "1/2", inputs="database") == voting.mechanism(voting.majority(3), "1/2")
    True
    """
    from .. import voting
    from ..voting._counts import noisy_counts

    n = parse_int(n, name="n", min=1)
    r = _keep_probability(rho, eps)
    if tie not in ("0", "1", "coin"):
        raise InvalidParameterError(f"tie must be '0', '1' or 'coin', got {tie!r}")
    if inputs not in ("count", "database"):
        raise InvalidParameterError(f"inputs must be 'count' or 'database', got {inputs!r}")
    if n % 2:
        rules = [voting.majority(n)]
    else:  # f = 1 iff (sum of votes) > θ: ties go to 1 with θ = -1, to -1 with θ = 0
        rules = {"1": [voting.threshold(n, -1)], "0": [voting.threshold(n, 0)]}.get(
            tie, [voting.threshold(n, -1), voting.threshold(n, 0)]
        )
    one: Scalar = Fraction(1) if r.exact else 1.0
    if inputs == "database":  # the vote profiles are Domain.bits(n), in the order of voting.mechanism
        mechs = [voting.mechanism(f, r.rho) for f in rules]
        mat = mechs[0].matrix if len(mechs) == 1 else (mechs[0].matrix + mechs[1].matrix) * (one / 2)
        return Mechanism(mat, _same_labels(Domain.bits(n), mechs[0].inputs), mechs[0].outputs, exact=r.exact)
    check_dense_size(2, n + 1, exact=r.exact, what=f"majority_vote(n={n}) by vote count")
    # P(f(y) = 1 | c ones) = (1 + T_rho f(c)) / 2 for a ±1 rule (T_rho f(c) = E[f(y)], by the voting count engine)
    t: Any = sum(
        (noisy_counts(f, r, exact=r.exact) for f in rules), np.zeros(n + 1, dtype=object if r.exact else float)
    )
    p1: Any = (t / len(rules) + one) / 2
    mat = np.empty((2, n + 1), dtype=object if r.exact else float)
    mat[0] = p1
    mat[1] = one - p1
    return Mechanism(mat, Domain.counts(n), ["1", "-1"], exact=r.exact)


def _same_labels(dom: Domain, labels: Sequence[str]) -> Domain:
    """``dom``, after checking that it labels the columns ``labels`` in this order."""
    if tuple(labels) != dom.labels:
        raise DomainMismatchError(
            f"columns {list(labels[:6])} are not in the order of the domain {list(dom.labels[:6])}"
        )
    return dom


def sampling_sum(n: int, T: int, values: Sequence[int]) -> Mechanism:
    """Sum of ``T`` of the ``n`` records sampled without replacement (the sampling average of Theorem 3, times ``T``).

    Records are the integers ``values``; inputs are all databases ``"(x_1,…,x_n)"``, outputs the possible sums.

    Examples
    --------
    >>> M = sampling_sum(2, 1, [0, 1])
    >>> M.outputs, M.column("(0,1)").tolist()
    (('0', '1'), [Fraction(1, 2), Fraction(1, 2)])
    """
    n = parse_int(n, name="n", min=1)
    T = parse_int(T, name="T", min=0)
    if T > n:
        raise InvalidParameterError(f"T must be <= n, got T = {T} > n = {n}")
    vals = sorted({parse_int(v, name="record value") for v in values})
    dom = Domain.databases(n, vals)
    dbs = [tuple(vals[i] for i in p) for p in dom.points]
    sums = sorted({sum(c) for c in itertools.combinations_with_replacement(vals, T)})
    where = {s: i for i, s in enumerate(sums)}
    check_dense_size(len(sums), len(dbs), exact=True, what="sampling_sum")
    mat = np.empty((len(sums), len(dbs)), dtype=object)
    mat.fill(Fraction(0))
    w = Fraction(1, math.comb(n, T))
    for j, x in enumerate(dbs):
        for S in itertools.combinations(range(n), T):
            mat[where[sum(x[i] for i in S)], j] += w
    return Mechanism(mat, dom, [str(s) for s in sums], exact=True)


def joint(first: Mechanism, second: Mechanism) -> Mechanism:
    """Composition ``(M_1, M_2)(x) = (M_1(x), M_2(x))`` with independent randomness (Proposition 3).

    Both mechanisms must share their inputs; outputs are pairs ``"o1|o2"``.

    Examples
    --------
    >>> A = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["0", "1"], outputs=["a", "b"])
    >>> J = joint(A, A)
    >>> J.outputs[:2], J.column("0")[0]
    (('a|a', 'a|b'), Fraction(9, 16))
    """
    if first.inputs != second.inputs:
        raise DomainMismatchError("joint() needs two mechanisms on the same inputs")
    return ComposedMechanism([(first, 1), (second, 1)]).dense()  # the one sequential composition of privgeom


def precompose(mechanism: Mechanism, f: Mapping[Any, Any], records: Sequence[Any]) -> Mechanism:
    """``M ∘ f``: apply a deterministic record map ``f: X → X'`` to every record, then ``M`` (Proposition 4).

    ``mechanism`` has database inputs over ``X'``; the result has all databases over ``records = X``.

    Examples
    --------
    >>> M = majority_vote(2, inputs="database")
    >>> Mf = precompose(M, {"a": 0, "b": 1, "c": 1}, ["a", "b", "c"])
    >>> Mf.n_inputs, Mf.column("(a,c)").tolist() == M.column("01").tolist()
    (9, True)
    """
    dom = input_domain(mechanism, "database")
    if dom.kind not in ("databases", "bits"):
        raise DomainMismatchError(f"precompose needs a mechanism on databases, got {dom.describe()}")
    fmap = {str(k): str(v) for k, v in f.items()}
    recs = [str(r) for r in records]
    missing = [r for r in recs if r not in fmap]
    if missing:
        raise DomainMismatchError(f"f is not defined on records {missing}")
    column = {lab: i for i, lab in enumerate(mechanism.inputs)}
    index = {p: column[lab] for p, lab in zip(database_points(dom), dom.labels)}
    rec_index = {r: i for i, r in enumerate(record_values(dom))}
    new_dom = Domain.databases(int(dom.n or 0), recs)
    cols = []
    for p in new_dom.points:
        x = [recs[i] for i in p]
        try:
            key = tuple(rec_index[fmap[r]] for r in x)
        except KeyError as err:
            raise DomainMismatchError(f"f maps into {err.args[0]!r}, not a record of the mechanism") from None
        if key not in index:
            raise DomainMismatchError(f"f(x) for x = {tuple(x)} is not an input of the mechanism")
        cols.append(index[key])
    mat = (mechanism.matrix if mechanism.exact else mechanism.float_matrix())[:, cols]
    return Mechanism(mat, new_dom, mechanism.outputs, exact=mechanism.exact)


def push_forward(
    distribution: Sequence[Scalar], f: Mapping[Any, Any], records: Sequence[Any], targets: Sequence[Any]
) -> list[Scalar]:
    """The law ``f(π)`` of ``f(X)`` for ``X ~ π`` (``π`` over ``records``, result over ``targets``).

    Examples
    --------
    >>> push_forward([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], {"a": 0, "b": 1, "c": 1}, "abc", [0, 1])
    [Fraction(1, 2), Fraction(1, 2)]
    """
    tindex = {str(t): i for i, t in enumerate(targets)}
    zero: Scalar = Fraction(0) if all(isinstance(v, Fraction) for v in distribution) else 0.0
    out = [zero] * len(tindex)
    fmap = {str(k): str(v) for k, v in f.items()}
    for r, p in zip(records, distribution):
        out[tindex[fmap[str(r)]]] += p
    return out
