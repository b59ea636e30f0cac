"""Catalogue closed forms of ε (theory, exact) against privgeom.epsilon on their neighbour graphs.

Each case is a closed form from the literature turned into an EpsilonResult-returning fast path:
randomized response ``ln(p/(1-p))`` on the Hamming graph (Lin & Kifer §V), the truncated geometric mechanism
``ln(1/α)`` on the path (Ghosh, Roughgarden & Sundararajan 2012), k-ary randomized response ``ln(γ)`` … on the
complete graph (Kairouz, Oh & Viswanath 2016), and voting's Proposition 2 bound when Remark 1 holds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pg_testing.contracts import EpsilonContract, ProfileCase

import privgeom as pg
from privgeom import voting
from privgeom.analyses import EpsilonResult
from privgeom.mechanisms._catalogue import kary_randomized_response, truncated_geometric


def _closed(ratio: Fraction, graph: str) -> EpsilonResult:
    """A bare closed form as a core result (no witness: edge None, p = q = None)."""
    return EpsilonResult(pg.LogRational(ratio), True, False, None, None, None, None, 0, graph)


def _cases() -> list[tuple[str, Any, Any, Any]]:
    out: list[tuple[str, Any, Any, Any]] = []
    for k in (1, 2, 3):
        for p in ("3/4", "2/3", "9/10"):
            P = Fraction(p)
            out.append((f"rr(k={k},p={p})", lambda P=P: _closed(P / (1 - P), "hamming"),
                        lambda k=k, p=p: pg.randomized_response(k, p), lambda M, k=k: pg.Domain.bits(k).relation("hamming")))
    for n in (1, 3, 6):
        for a in ("1/2", "1/3"):
            A = Fraction(a)
            out.append((f"geometric(n={n},alpha={a})", lambda A=A: _closed(1 / A, "path"),
                        lambda n=n, a=a: truncated_geometric(n, a), lambda M, n=n: pg.Domain.counts(n).relation("path")))
    for f in (voting.dictator(3), voting.conjunction(4), voting.disjunction(5)):
        out.append((f"remark1-{f.name}", lambda: _closed(Fraction(3), "hamming"),
                    lambda f=f: voting.mechanism(f, "1/2"), lambda M, f=f: pg.Domain.bits(f.n).relation("hamming")))
    return out


class TestClosedForms(EpsilonContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        return [ProfileCase(name=n, fast=fast, mechanism=mech, graph=graph) for n, fast, mech, graph in _cases()]
