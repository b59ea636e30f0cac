"""Subsampled mechanisms as exact matrices, and the tight bounds of Balle, Barthe & Gaboardi (2018) to compare.

A mechanism ``M`` on histograms of records is run on a random subsample of the database (``docs/theory.md`` §19):

- **Poisson** (``rate=γ``): each record is kept independently with probability ``γ``. A removed record is *absent*
  (``M`` is defined on databases of every size, ``Domain.histograms(n, c, up_to=True)``; neighbours: add/remove) or
  *replaced by a fixed value* ``removed=v`` (``M`` on databases of size ``n``; neighbours: replace-one).
- **Without replacement** (``size=T, n=N``): ``T`` of the ``N`` records are drawn uniformly (``M`` on databases of
  size ``T``; the subsampled mechanism on databases of size ``N``; neighbours: replace-one). The sampling-histogram
  mechanism of the smoothed-DP paper (Liu, Wang & Xia, Section 5.1) is the special case ``M`` = the identity on the
  sample's histogram: ``subsampled(identity, size=T, n=N) == smoothed.shm(N, T, k)``.

Column ``h`` of the result is ``Σ_s P(sample = s | h) M[:, s]``: product binomials ``Π_j Bin(h_j, γ)(s_j)`` (Poisson)
or the multivariate hypergeometric ``Π_j C(h_j, s_j) / C(N, T)``; exact in rationals.

:func:`bbg_bound` is the tight amplification bound of Balle, Barthe & Gaboardi (*Privacy amplification by
subsampling: tight analyses via couplings and divergences*, NeurIPS 2018, Theorems 8–10 and Table 1): a mechanism that
is ``(ε, δ)``-DP gives ``(ln(1 + γ(e^ε − 1)), γδ)`` after Poisson subsampling under add/remove and after sampling
``T`` of ``N`` without replacement under replace-one (``γ = T/N``).

Examples
--------
>>> import privgeom as pg
>>> from fractions import Fraction as F
>>> dom = pg.Domain.histograms(1, 2, up_to=True)        # databases [0,0] (empty), [1,0], [0,1]
>>> M = pg.Mechanism([["3/4", "1/4", "1/4"], ["1/4", "3/4", "3/4"]], dom)
>>> S = subsampled(M, rate="1/10")
>>> pg.epsilon(S, "add-remove").level.exp_eps, bbg_bound(F(3), "1/10")[0]
(Fraction(6, 5), Fraction(6, 5))
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Iterator

import numpy as np

from .._core.domain import Domain
from .._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError
from .._core.level import ScalarLike
from .._core.arrays import check_dense_size, parse_int
from .._core.numbers import parse_scalar, Scalar
from ..mechanisms import Mechanism

__all__ = ["subsampled", "bbg_bound", "sampling_law"]


def _rate(rate: ScalarLike) -> Scalar:
    g = parse_scalar(rate, name="rate")
    if not 0 < g <= 1:
        raise InvalidParameterError(
            f"rate must lie in (0, 1] (the probability that a record is kept; 0 keeps none "
            f"and ignores the data), got rate = {rate}"
        )
    return g


def bbg_bound(exp_eps: ScalarLike, rate: ScalarLike, delta: ScalarLike = 0) -> tuple[Scalar, Scalar]:
    """``(e^{ε'}, δ')`` with ``e^{ε'} = 1 + γ (e^ε − 1)`` and ``δ' = γ δ`` (Balle, Barthe & Gaboardi 2018, Thms 8–10).

    The bound of Poisson subsampling under add/remove (a removed record is absent), and of sampling without
    replacement under replace-one with ``γ = T/N``; exact when the inputs are rational. Applied to the privacy profile
    it reads ``δ_{M'}(ln(1 + γ(e^ε − 1))) ≤ γ δ_M(ε)`` for every ``ε ≥ 0``.

    Examples
    --------
    >>> bbg_bound(3, "1/10")
    (Fraction(6, 5), Fraction(0, 1))
    >>> bbg_bound(2.0, 0.5, 0.01)
    (1.5, 0.005)
    """
    g = _rate(rate)
    t = parse_scalar(exp_eps, name="exp_eps")
    d = parse_scalar(delta, name="delta")
    if t < 1:
        raise InvalidParameterError(f"exp_eps must be >= 1, got {exp_eps}")
    if not 0 <= d <= 1:
        raise InvalidParameterError(f"delta must lie in [0, 1], got {delta}")
    return 1 + g * (t - 1), g * d


def _binom_weights(h: tuple[int, ...], g: Scalar) -> Iterator[tuple[tuple[int, ...], Scalar]]:
    """``(s, Π_j Bin(h_j, γ)(s_j))`` for every ``s ≤ h``."""
    one = Fraction(1) if isinstance(g, Fraction) else 1.0
    for s in itertools.product(*(range(c + 1) for c in h)):
        w = one
        for hj, sj in zip(h, s):
            w = w * math.comb(hj, sj) * g**sj * (1 - g) ** (hj - sj)
        yield s, w


def _hypergeom_weights(h: tuple[int, ...], T: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """``(s, Π_j C(h_j, s_j) / C(N, T))`` for every sub-histogram ``s`` of size ``T``."""
    total = math.comb(sum(h), T)
    for s in itertools.product(*(range(c + 1) for c in h)):
        if sum(s) == T:
            yield s, Fraction(math.prod(math.comb(hj, sj) for hj, sj in zip(h, s)), total)


def sampling_law(
    h: tuple[int, ...], *, rate: ScalarLike | None = None, size: int | None = None
) -> dict[tuple[int, ...], Scalar]:
    """Law of the subsample's histogram: Poisson (``rate``) or ``size`` draws without replacement.

    Examples
    --------
    >>> sampling_law((1, 1), size=1)
    {(0, 1): Fraction(1, 2), (1, 0): Fraction(1, 2)}
    >>> sampling_law((2,), rate="1/2")
    {(0,): Fraction(1, 4), (1,): Fraction(1, 2), (2,): Fraction(1, 4)}
    """
    if (rate is None) == (size is None):
        raise InvalidParameterError("give exactly one of rate= (Poisson) and size= (without replacement)")
    if rate is not None:
        return dict(_binom_weights(tuple(h), _rate(rate)))
    return dict(_hypergeom_weights(tuple(h), parse_int(size, name="size", min=0, max=sum(h))))


def subsampled(
    mechanism: Mechanism,
    rate: ScalarLike | None = None,
    *,
    size: int | None = None,
    n: int | None = None,
    removed: str | int | None = None,
) -> Mechanism:
    """The mechanism run on a random subsample of its database, as an exact matrix.

    Parameters
    ----------
    mechanism : Mechanism
        ``M`` on histograms of records (``mechanism.domain`` a ``Domain.histograms``).
    rate : rational or float, optional
        Poisson subsampling: each record kept with probability ``γ``. ``M``'s domain must hold every size
        (``up_to=True``; a removed record is absent; compare under ``add-remove``) unless ``removed`` names a record
        value that replaces each removed record (``M`` on databases of one size; compare under ``replace-one``).
    size, n : int, optional
        Sampling without replacement: ``M`` is on databases of ``size`` records; the result is on databases of ``n``
        records (``size <= n``); compare under ``replace-one``.
    removed : record value, optional
        See ``rate``.

    Returns
    -------
    Mechanism
        Same outputs as ``M``; inputs the databases (histograms) of the subsampled mechanism.

    Raises
    ------
    InvalidParameterError
        Neither or both of ``rate`` and ``size``; a rate outside ``(0, 1]``; ``size > n``; ``removed`` not a record value.
    DomainMismatchError
        ``M`` is not on histograms of the sizes the scheme needs.

    Examples
    --------
    >>> import privgeom as pg
    >>> I = pg.Mechanism(np.eye(3, dtype=int).astype(object), pg.Domain.histograms(2, 2), pg.Domain.histograms(2, 2).labels)
    >>> S = subsampled(I, size=2, n=3)          # = the sampling-histogram mechanism shm(3, 2)
    >>> S.inputs, [str(v) for v in S.column("[2,1]")]
    (('[3,0]', '[2,1]', '[1,2]', '[0,3]'), ['1/3', '2/3', '0'])
    """
    if not isinstance(mechanism, Mechanism):
        raise InvalidTypeError(f"subsampled needs a privgeom.Mechanism, got {type(mechanism).__name__}")
    dom = mechanism.domain
    if dom is None or dom.kind != "histograms":
        raise DomainMismatchError(
            "subsampled needs a mechanism on histograms of records (inputs=pg.Domain.histograms(n, categories, ...)), "
            f"got inputs {list(mechanism.inputs)[:4]}…"
        )
    if (rate is None) == (size is None):
        raise InvalidParameterError("give exactly one of rate= (Poisson subsampling) and size= (without replacement)")
    exact = mechanism.exact
    col = {tuple(p): i for i, p in enumerate(dom.points)}
    values = tuple(dom.values)
    if rate is not None:
        g = _rate(rate)
        if exact and not isinstance(g, Fraction):
            raise InvalidParameterError(f"an exact mechanism needs a rational rate, got {rate!r}")
        if removed is None:
            if not dom.up_to:
                raise DomainMismatchError(
                    "Poisson subsampling with absent records needs M on databases of every size "
                    "(Domain.histograms(n, c, up_to=True)); or name removed=<record value>"
                )
            target, fill = dom, None
        else:
            if dom.up_to:
                raise DomainMismatchError(
                    "removed=<value> replaces each removed record: M must be on databases of one size"
                )
            if str(removed) not in values:
                raise InvalidParameterError(f"removed={removed!r} is not a record value; values are {list(values)}")
            target, fill = dom, values.index(str(removed))
        check_dense_size(mechanism.n_outputs, len(target.points), exact=exact, what="the subsampled mechanism")
        cols = []
        for h in target.points:
            acc = np.zeros(mechanism.n_outputs, dtype=object if exact else float)
            for s, w in _binom_weights(tuple(h), g):
                if w == 0:
                    continue
                if fill is not None:
                    s = tuple(c + (sum(h) - sum(s)) * (j == fill) for j, c in enumerate(s))
                acc = acc + w * mechanism.matrix[:, col[s]]
            cols.append(acc)
        return Mechanism(np.array(cols).T, target, mechanism.outputs, exact=exact)
    T = parse_int(size, name="size", min=0)
    if dom.up_to or dom.n != T:
        raise DomainMismatchError(
            f"sampling without replacement of size {T} needs M on databases of exactly {T} records, "
            f"got {dom.kind}(n={dom.n}{', up_to' if dom.up_to else ''})"
        )
    if n is None:
        raise InvalidParameterError("sampling without replacement needs n= (the number of records of the database)")
    N = parse_int(n, name="n", min=T)
    target = Domain.histograms(N, values)
    check_dense_size(mechanism.n_outputs, len(target.points), exact=exact, what="the subsampled mechanism")
    cols = []
    for h in target.points:
        acc = np.zeros(mechanism.n_outputs, dtype=object if exact else float)
        for s, w in _hypergeom_weights(tuple(h), T):
            acc = acc + (w if exact else float(w)) * mechanism.matrix[:, col[s]]
        cols.append(acc)
    return Mechanism(np.array(cols).T, target, mechanism.outputs, exact=exact)
