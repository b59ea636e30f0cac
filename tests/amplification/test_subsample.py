"""Subsampled mechanisms: BBG's tight formula attained exactly, never exceeded (RR, geometric, random mechanisms),
and the sampling-histogram mechanism of the smoothed-DP paper as sampling without replacement."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom.amplification import bbg_bound, sampling_law


def _on_counts(K: pg.Mechanism, dom: pg.Domain) -> pg.Mechanism:
    """The mechanism ``K`` applied to the number of records with value 1 (the count query)."""
    idx = [int(K.inputs.index(str(h[1]))) for h in dom.points]
    return pg.Mechanism(K.matrix[:, idx], dom, K.outputs)


def _random_mechanism(dom: pg.Domain, outputs: int, rng: random.Random) -> pg.Mechanism:
    cols = []
    for _ in dom.points:
        w = [rng.randint(1, 9) for _ in range(outputs)]
        cols.append([F(x, sum(w)) for x in w])
    return pg.Mechanism(np.array(cols, dtype=object).T, dom, [str(i) for i in range(outputs)])


def _exp_eps(M: pg.Mechanism, relation: str) -> F:
    return pg.epsilon(M, relation).level.exp_eps


def _delta(M: pg.Mechanism, relation: str, t: F) -> F:
    return pg.delta(M, relation, eps=f"ln({t})" if t != 1 else 0).delta


def test_bbg_is_attained_exactly() -> None:
    dom = pg.Domain.histograms(1, 2, up_to=True)
    M = pg.Mechanism([["3/4", "1/4", "1/4"], ["1/4", "3/4", "3/4"]], dom)
    assert _exp_eps(M, "add-remove") == 3
    S = pg.subsampled(M, rate=F(1, 10))
    assert _exp_eps(S, "add-remove") == F(6, 5) == bbg_bound(3, F(1, 10))[0]
    assert str(pg.epsilon(S, "add-remove").level.eps) == "ln(6/5)"


def _bases(dom: pg.Domain) -> list[pg.Mechanism]:
    n = dom.n
    rng = random.Random(7)
    return (
        ([_on_counts(pg.randomized_response(1, "3/4"), dom)] if n == 1 else [])
        + [
            _on_counts(pg.kary_randomized_response(n + 1, exp_eps=3), dom),
            _on_counts(pg.truncated_geometric(n, "1/2"), dom),
        ]
        + [_random_mechanism(dom, 3, rng) for _ in range(6)]
    )


@pytest.mark.parametrize("rate", [F(1, 10), F(1, 3), F(3, 4)])
def test_poisson_add_remove_never_exceeds_bbg(rate: F) -> None:
    for n in (1, 2):
        dom = pg.Domain.histograms(n, 2, up_to=True)
        for M in _bases(dom):
            S = pg.subsampled(M, rate=rate)
            t = _exp_eps(M, "add-remove")
            bound = bbg_bound(t, rate)[0]
            assert _exp_eps(S, "add-remove") <= bound
            for s in (F(1), F(6, 5), F(2)):  # the profile form: δ'(ln(1 + γ(s − 1))) ≤ γ δ(ln s)
                assert _delta(S, "add-remove", 1 + rate * (s - 1)) <= rate * _delta(M, "add-remove", s)


@pytest.mark.parametrize("rate", [F(1, 10), F(1, 2)])
def test_poisson_replaced_by_a_fixed_value_never_exceeds_bbg(rate: F) -> None:
    dom = pg.Domain.histograms(2, 2)
    for M in _bases(dom):
        S = pg.subsampled(M, rate=rate, removed="0")
        t = _exp_eps(M, "replace-one")
        assert _exp_eps(S, "replace-one") <= bbg_bound(t, rate)[0]


@pytest.mark.parametrize("N", [3, 4])
def test_without_replacement_never_exceeds_bbg(N: int) -> None:
    dom = pg.Domain.histograms(2, 2)
    gamma = F(2, N)
    for M in _bases(dom):
        S = pg.subsampled(M, size=2, n=N)
        t = _exp_eps(M, "replace-one")
        assert _exp_eps(S, "replace-one") <= bbg_bound(t, gamma)[0]
        for s in (F(1), F(3, 2)):
            assert _delta(S, "replace-one", 1 + gamma * (s - 1)) <= gamma * _delta(M, "replace-one", s)


@pytest.mark.parametrize("N, T, k", [(2, 1, 2), (3, 2, 2), (4, 2, 2), (5, 3, 2), (3, 1, 3), (4, 2, 3)])
def test_sampling_histogram_mechanism_is_sampling_without_replacement(N: int, T: int, k: int) -> None:
    inner = pg.Domain.histograms(T, k)
    identity = pg.Mechanism(np.eye(len(inner.points), dtype=int).astype(object), inner, inner.labels)
    S = pg.subsampled(identity, size=T, n=N)
    shm = pg.smoothed.shm(N, T, k)
    assert S.inputs == shm.inputs and S.outputs == shm.outputs
    assert (S.matrix == shm.matrix).all()


def test_sampling_laws_by_enumeration() -> None:
    h = (2, 1, 1)
    records = [0, 0, 1, 2]
    for T in range(5):
        law = sampling_law(h, size=T)
        counts: dict[tuple[int, ...], int] = {}
        for sub in itertools.combinations(range(4), T):
            s = tuple(sum(records[i] == j for i in sub) for j in range(3))
            counts[s] = counts.get(s, 0) + 1
        total = math.comb(4, T)
        assert law == {s: F(c, total) for s, c in counts.items()}
    law = sampling_law(h, rate="1/3")
    assert sum(law.values()) == 1 and law[(0, 0, 0)] == F(2, 3) ** 4


def test_bad_input_is_refused() -> None:
    dom = pg.Domain.histograms(1, 2, up_to=True)
    M = pg.Mechanism([["3/4", "1/4", "1/4"], ["1/4", "3/4", "3/4"]], dom)
    for bad in ("3/2", "0", 0.0, "-1/10", float("nan")):
        with pytest.raises(pg.InvalidParameterError, match="rate"):
            pg.subsampled(M, rate=bad)
    with pytest.raises(pg.InvalidParameterError, match=r"rate must lie in \(0, 1\].*rate = 0"):
        bbg_bound(3, 0)
    with pytest.raises(pg.InvalidParameterError, match="exactly one of"):
        pg.subsampled(M)
    with pytest.raises(pg.DomainMismatchError, match="one size"):
        pg.subsampled(M, rate="1/2", removed="0")
    fixed = _on_counts(pg.randomized_response(1, "3/4"), pg.Domain.histograms(1, 2))
    with pytest.raises(pg.DomainMismatchError, match="every size"):
        pg.subsampled(fixed, rate="1/2")
    with pytest.raises(pg.InvalidParameterError, match="removed='7'"):
        pg.subsampled(fixed, rate="1/2", removed="7")
    with pytest.raises(pg.DomainMismatchError, match="histograms"):
        pg.subsampled(pg.randomized_response(1, "3/4"), rate="1/2")
    with pytest.raises(pg.InvalidParameterError, match="needs n="):
        pg.subsampled(fixed, size=1)
