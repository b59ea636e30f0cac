"""smoothed.database_delta and the SHM fast path against privgeom.delta on the same replace-one graphs.

The contract: ``smoothed.database_delta(M, eps)`` and ``pg.delta(M, ..., eps)`` agree on every shared case;
the SHM tail-sum route (``method="shm"`` on a ``SamplingHistogram``) agrees with ``pg.delta`` on the edges at the queried count.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
from privgeom.testing import DeltaContract, ProfileCase
from privgeom.testing import random_mechanism

import privgeom as pg
from privgeom import smoothed

EPS = ("ln(3/2)", 0, "ln(5)", 0.4)


def _replace_one(M: pg.Mechanism) -> nx.Graph:
    """The replace-one relation of the mechanism's Domain (built by Domain from the structure, never read back
    from the labels' syntax): ``pg.neighbour_graph("replace-one", M)``."""
    assert M.domain.kind in ("databases", "histograms", "counts", "bits"), M.domain.kind
    return pg.neighbour_graph("replace-one", M)


def _mechanisms() -> list[tuple[str, Any]]:
    return [
        ("shm(4,2,count)", lambda: smoothed.shm(4, 2, inputs="count")),
        ("shm(3,2,histogram)", lambda: smoothed.shm(3, 2, inputs="histogram")),
        ("shm(3,2,database)", lambda: smoothed.shm(3, 2, inputs="database")),
        ("shm(3,2,replace,count)", lambda: smoothed.shm(3, 2, replace=True, inputs="count")),
        ("shm(3,2,k=3)", lambda: smoothed.shm(3, 2, 3)),
        ("majority_vote(3,1/2)", lambda: smoothed.majority_vote(3, "1/2", inputs="database")),
        ("majority_vote(5,1)", lambda: smoothed.majority_vote(5, 1)),
        ("rr(3,3/4)", lambda: pg.randomized_response(3, "3/4")),
        ("random(seed=1)", lambda: random_mechanism(1, n=2, records=3)),
        ("random(seed=2,anonymous)", lambda: random_mechanism(2, n=3, records=2, anonymous=True)),
        ("float shm(5,3)", lambda: pg.Mechanism(smoothed.shm(5, 3, inputs="count").to_float(), pg.Domain.counts(5))),
    ]


class TestDatabaseDelta(DeltaContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        out = []
        for name, make in _mechanisms():
            for eps in EPS:
                out.append(
                    ProfileCase(
                        name=f"{name}-eps={eps}",
                        fast=lambda make=make, eps=eps: smoothed.database_delta(make(), eps),
                        mechanism=make,
                        graph=_replace_one,
                        eps=eps,
                    )
                )
        return out


def _star(N: int, n: int):  # the replace-one edges at count N
    def graph(M: pg.Mechanism) -> nx.Graph:
        G = nx.Graph()
        G.add_nodes_from(M.inputs)
        G.add_edges_from((str(N), str(m)) for m in (N - 1, N + 1) if 0 <= m <= n)
        return G

    return graph


class TestSHMDatabaseDelta(DeltaContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        out = []
        for n, T, replace in ((10, 5, False), (12, 11, False), (8, 3, True), (30, 20, False)):
            for N in (0, 1, n // 2, n):
                for eps in (0.0, 0.5, 2.0):
                    out.append(
                        ProfileCase(
                            name=f"shm({n},{T},{'with' if replace else 'without'})-N={N}-eps={eps}",
                            fast=lambda n=n, T=T, N=N, eps=eps, replace=replace: smoothed.database_delta(
                                smoothed.SamplingHistogram(n, T, replace), eps, x=N, method="shm"
                            ),
                            mechanism=lambda n=n, T=T, replace=replace: smoothed.shm(
                                n, T, replace=replace, inputs="count"
                            ).to_float(),
                            graph=_star(N, n),
                            eps=eps,
                            atol=1e-12,
                        )
                    )
        return out


def test_smoothed_mechanisms_carry_their_domain() -> None:
    """The factories build on a Domain, so the core analyses take a relation name directly."""
    cases = {
        "counts": smoothed.shm(4, 2, inputs="count"),
        "histograms": smoothed.shm(3, 2),
        "databases": smoothed.shm(2, 1, inputs="database"),
        "bits": smoothed.majority_vote(3, "1/2", inputs="database"),
    }
    for kind, M in cases.items():
        assert M.domain.kind == kind
        core = pg.delta(M, "replace-one", "ln(3/2)")
        assert smoothed.database_delta(M, "ln(3/2)").delta == core.delta
        assert smoothed.database_delta(M, "ln(3/2)", M.domain).delta == core.delta
    assert smoothed.majority_vote(3).domain.kind == "counts"
