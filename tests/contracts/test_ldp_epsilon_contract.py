"""The deployed local-DP protocols' nominal ε, with a witness from theory, against privgeom.epsilon (local DP).

Each case is a protocol of ``privgeom.mechanisms._ldp`` at a rational ``e^ε``; its "fast path" is the closed form
of ``docs/theory.md`` §"Deployed local-DP protocols": ε = the nominal ε on the complete graph of the ``d`` values,
attained on the edge ``0 → 1`` at a report named by the proof, with both probabilities written from the formulas
(not read from the matrix). The shared contract checks the value equals ``privgeom.epsilon`` exactly and that the
witness is genuine (the edge is in the graph, the probabilities are the matrix entries, their ratio is ``e^ε``).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from privgeom.testing import EpsilonContract, ProfileCase

import privgeom as pg
from privgeom.results import EpsilonResult
from privgeom.testing import complete_graph


def _witnessed(t: Fraction, output: str, p: Fraction, q: Fraction, d: int) -> EpsilonResult:
    assert p / q == t  # the proof's report attains the nominal ratio
    return EpsilonResult(
        level=pg.PrivacyLevel.from_exp_eps(t),
        exact=True,
        infinite=False,
        edge=("0", "1"),
        output=output,
        p=p,
        q=q,
        n_edges=d * (d - 1) // 2,
        graph="complete",
    )


def _ue(d: int, t: Fraction, optimized: bool) -> EpsilonResult:
    if optimized:  # OUE: p = 1/2, q = 1/(e^ε + 1)
        p, q = Fraction(1, 2), 1 / (t + 1)
    else:  # SUE: p = e^{ε/2}/(e^{ε/2} + 1), q = 1 − p (t is a rational square here)
        r = Fraction(int(t.numerator**0.5), int(t.denominator**0.5))
        assert r * r == t
        p, q = r / (r + 1), 1 / (r + 1)
    # report: bit 0 set, every other bit clear; value 0 keeps its bit (p), value 1 has bit 0 raised (q)
    return _witnessed(t, "1" + "0" * (d - 1), p * (1 - q) ** (d - 1), q * (1 - p) * (1 - q) ** (d - 2), d)


def _lh(d: int, t: Fraction, g: int) -> EpsilonResult:
    P = next(c for c in range(max(d, 2), 2 * d + 2) if all(c % f for f in range(2, c)))
    size = P * (P - 1)
    # h_{1,0}(0) = 0 and h_{1,0}(1) = 1 (P, g >= 2): the report (h_{1,0}, 0) is a hit for 0, a miss for 1
    return _witnessed(t, "1x+0->0", t / (size * (t + g - 1)), 1 / (size * (t + g - 1)), d)


def _hr(d: int, t: Fraction) -> EpsilonResult:
    K = 1 << d.bit_length()
    # value 0 owns column 1 (the even rows), value 1 column 2 (rows with bit 1 clear): row 2 is in C_0 only
    return _witnessed(t, "2", 2 * t / (K * (1 + t)), 2 / (K * (1 + t)), d)


def _ss(d: int, s: int, t: Fraction) -> EpsilonResult:
    Z = comb(d - 1, s - 1) * t + comb(d - 1, s)
    subset = ",".join(["0"] + [str(i) for i in range(2, s + 1)])  # contains 0, not 1
    return _witnessed(t, subset, t / Z, 1 / Z, d)


def _cases() -> list[ProfileCase]:
    out: list[ProfileCase] = []

    def add(name: str, fast: Any, mech: Any) -> None:
        out.append(ProfileCase(name=name, fast=fast, mechanism=mech, graph=lambda M: complete_graph(M.inputs)))

    for d in (2, 3, 5):
        for t in (Fraction(2), Fraction(3), Fraction(5, 2)):
            add(
                f"oue(d={d},e^eps={t})",
                lambda d=d, t=t: _ue(d, t, True),
                lambda d=d, t=t: pg.unary_encoding(d, exp_eps=t),
            )
            add(f"hr(d={d},e^eps={t})", lambda d=d, t=t: _hr(d, t), lambda d=d, t=t: pg.hadamard_response(d, exp_eps=t))
            for g in (2, 3, 4):
                add(
                    f"lh(d={d},g={g},e^eps={t})",
                    lambda d=d, t=t, g=g: _lh(d, t, g),
                    lambda d=d, t=t, g=g: pg.local_hashing(d, g, exp_eps=t),
                )
            for s in range(1, d):
                add(
                    f"ss(d={d},s={s},e^eps={t})",
                    lambda d=d, s=s, t=t: _ss(d, s, t),
                    lambda d=d, s=s, t=t: pg.subset_selection(d, s, exp_eps=t),
                )
        for t in (Fraction(4), Fraction(9, 4), Fraction(9)):
            add(
                f"sue(d={d},e^eps={t})",
                lambda d=d, t=t: _ue(d, t, False),
                lambda d=d, t=t: pg.unary_encoding(d, exp_eps=t, optimized=False),
            )
    return out


class TestLocalProtocols(EpsilonContract):
    @classmethod
    def cases(cls) -> list[ProfileCase]:
        return _cases()
