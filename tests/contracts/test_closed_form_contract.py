"""Catalogue closed forms of ε (theory, exact) against privgeom.epsilon on their neighbour graphs.

Each case is a closed form from the literature turned into an EpsilonResult-returning fast path:
randomized response ``ln(p/(1-p))`` on the Hamming graph (Lin & Kifer §V), the truncated geometric mechanism
``ln(1/α)`` on the path (Ghosh, Roughgarden & Sundararajan 2012), k-ary randomized response ``ln(γ)`` … on the
complete graph (Kairouz, Oh & Viswanath 2016), and voting's Proposition 2 bound when Remark 1 holds. Every case
carries the witness its theory names (edge, output, both probabilities from the formula), which the contract checks
against the mechanism's entries.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from privgeom.testing import EpsilonContract, ProfileCase

import privgeom as pg
from privgeom import voting
from privgeom.results import EpsilonResult
from privgeom import kary_randomized_response, truncated_geometric
from privgeom.testing import complete_graph


def _closed(ratio: Fraction, graph: str, edge: tuple[str, str], output: str, p: Fraction, q: Fraction) -> EpsilonResult:
    """A closed form as a core result, with the witness the theory names: ``output``'s probabilities ``p`` under
    ``edge[0]`` and ``q`` under ``edge[1]``, computed here from the formula (never read from the matrix), ``p/q`` the
    closed-form ratio. The contract then checks the edge is an edge and ``p, q`` are the mechanism's entries."""
    assert p / q == ratio, (p, q, ratio)
    return EpsilonResult(
        level=pg.PrivacyLevel.from_exp_eps(ratio),
        exact=True,
        infinite=False,
        edge=edge,
        output=output,
        p=p,
        q=q,
        n_edges=1,
        graph=graph,
    )


def _rr(k: int, P: Fraction) -> EpsilonResult:
    # M[ω, D] = p^(k−h) (1−p)^h with h the Hamming distance: output 1…1 under 1…1 and under 01…1 (one bit flipped)
    ones = "1" * k
    return _closed(P / (1 - P), "hamming", (ones, "0" + ones[1:]), ones, P**k, P ** (k - 1) * (1 - P))


def _geometric(A: Fraction) -> EpsilonResult:
    # truncated geometric: output 0 has mass 1/(1+α) under input 0 and α/(1+α) under input 1 (GRS 2012, §2)
    return _closed(1 / A, "path", ("0", "1"), "0", 1 / (1 + A), A / (1 + A))


def _krr(k: int, R: Fraction) -> EpsilonResult:
    # k-RR (KOV 2016, eq. (10)): output 0 has e^ε/(e^ε+k−1) under input 0 and 1/(e^ε+k−1) under input 1
    return _closed(R, "complete", ("0", "1"), "0", R / (R + k - 1), 1 / (R + k - 1))


def _remark1(f: voting.Rule) -> EpsilonResult:
    """Remark 1 at ρ = 1/2: each vote is kept with probability (1+ρ)/2 = 3/4. The dictator's output 1 has 3/4 under
    x_0 = 1 and 1/4 under x_0 = 0; AND(n)'s output 1 needs every noisy vote 1: (3/4)^n vs (3/4)^(n−1)·(1/4); OR(n)'s
    output −1 needs every noisy vote 0: (1/4)^(n−1)·(3/4) with one vote 0 vs (1/4)^n with none."""
    n, ones, keep, flip = f.n, "1" * f.n, Fraction(3, 4), Fraction(1, 4)
    if f.name.startswith("dictator"):
        return _closed(Fraction(3), "hamming", (ones, "0" + ones[1:]), "1", keep, flip)
    if f.name.startswith("and"):
        return _closed(Fraction(3), "hamming", (ones, ones[:-1] + "0"), "1", keep**n, keep ** (n - 1) * flip)
    assert f.name.startswith("or")
    return _closed(Fraction(3), "hamming", (ones[:-1] + "0", ones), "-1", flip ** (n - 1) * keep, flip**n)


def _cases() -> list[tuple[str, Any, Any, Any]]:
    out: list[tuple[str, Any, Any, Any]] = []
    for k in (1, 2, 3):
        for p in ("3/4", "2/3", "9/10"):
            P = Fraction(p)
            out.append(
                (
                    f"rr(k={k},p={p})",
                    lambda k=k, P=P: _rr(k, P),
                    lambda k=k, p=p: pg.randomized_response(k, p),
                    lambda M, k=k: pg.Domain.bits(k).relation("hamming"),
                )
            )
    for n in (1, 3, 6):
        for a in ("1/2", "1/3"):
            A = Fraction(a)
            out.append(
                (
                    f"geometric(n={n},alpha={a})",
                    lambda A=A: _geometric(A),
                    lambda n=n, a=a: truncated_geometric(n, a),
                    lambda M, n=n: pg.Domain.counts(n).relation("path"),
                )
            )
    for k in (2, 3, 5):
        R = Fraction(k + 1, 2)
        out.append(
            (
                f"krr(k={k},exp_eps={R})",
                lambda k=k, R=R: _krr(k, R),
                lambda k=k, R=R: kary_randomized_response(k, exp_eps=R),
                lambda M: complete_graph(M.inputs),
            )
        )
    for f in (voting.dictator(3), voting.conjunction(4), voting.disjunction(5)):
        out.append(
            (
                f"remark1-{f.name}",
                lambda f=f: _remark1(f),
                lambda f=f: voting.mechanism(f, "1/2"),
                lambda M, f=f: pg.Domain.bits(f.n).relation("hamming"),
            )
        )
    return out


class TestClosedForms(EpsilonContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        return [ProfileCase(name=n, fast=fast, mechanism=mech, graph=graph) for n, fast, mech, graph in _cases()]
