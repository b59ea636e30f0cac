"""voting.epsilon (closed forms, Remark 1, by-count and table engines) against privgeom.epsilon on the Hamming graph.

The contract: ``voting.epsilon(f, rho)`` and ``pg.epsilon(voting.mechanism(f, rho), "hamming")`` return the
same type and value for every rule at n <= 10 (n = 9, 10 on a subset in the default suite, all under -m slow).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from privgeom.testing import EpsilonContract, ProfileCase

import privgeom as pg
from privgeom import voting
from privgeom.testing import random_rule

RHOS = ("1/2", "1/3", "999/1000", 0.3, 0, 1)


def _rules(n: int) -> list[voting.Rule]:
    odd = n if n % 2 else n - 1
    rules = [
        voting.majority(odd),
        voting.threshold(n, 1),
        voting.conjunction(n),
        voting.disjunction(n),
        voting.parity(n),
        voting.dictator(n, n - 1),
        voting.Rule.constant(n, -1),
        voting.majority(weights=[1] * (n - 1) + [2]),
        random_rule(n, seed=n),
    ]
    if n >= 2:
        rules.append(voting.tribes(2, n // 2))
    return rules


def _case(f: voting.Rule, rho: Any, method: str = "auto") -> ProfileCase:
    hamming: Callable[[pg.Mechanism], Any] = lambda M: pg.Domain.bits(f.n).relation("hamming")  # noqa: E731
    return ProfileCase(
        name=f"{f.name}-rho={rho}-{method}",
        fast=lambda: voting.epsilon(f, rho, method=method),
        mechanism=lambda: voting.mechanism(f, rho),
        graph=hamming,
    )


class TestVotingEpsilon(EpsilonContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        out = [_case(f, rho) for n in range(1, 7) for f in _rules(n) for rho in RHOS]
        out += [_case(f, rho, "table") for f in _rules(4) for rho in ("1/2", 0.3)]
        out += [_case(f, "1/2", "counts") for f in _rules(5) if f.is_symmetric]
        out += [_case(f, "1/3") for n in (9, 10) for f in _rules(n)[:3]]  # the largest n on a subset
        return out


@pytest.mark.slow
class TestVotingEpsilonLargeN(EpsilonContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        return [_case(f, rho) for n in (7, 8, 9, 10) for f in _rules(n) for rho in ("1/2", 0.3, 1)]
