"""Parametric row cones (privgeom.analyses.guarantees._symbolic): closed forms of Theorem 4.3, ε-DP and the geometric
mechanism, and agreement with the numeric (exact) route at fresh rational points."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy as sp

import privgeom as pg
from privgeom import symbolic_row_cone
from privgeom.testing import hamming_graph

p, t, a = sp.symbols("p t a")


def _normalised_set(rows, sym, at):
    """Rows scaled by |first non-zero coefficient| at a point, as a set of simplified tuples (positive scaling)."""
    out = set()
    for r in rows:
        first = next(c for c in r if c != 0)
        s = sp.sign(first.subs(sym, at))
        out.add(tuple(sp.cancel(c / (s * first)) for c in r))
    return out


def _theorem_4_3(k):
    labels = ["".join(b) for b in itertools.product("10", repeat=k)]
    rows = []
    for s in labels:
        ham = [sum(x != y for x, y in zip(s, d)) for d in labels]
        rows.append(tuple(p**h * (p - 1) ** (k - h) for h in ham))
    return labels, rows


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_theorem_4_3_symbolic_and_numeric_agree(k):
    s = symbolic_row_cone(f"rr:k={k},p=p", "p")
    labels, closed = _theorem_4_3(k)
    assert list(s.labels) == labels
    assert s.interval == (sp.Rational(1, 2), 1)
    assert sp.Rational(1, 2) in s.breakpoints and 1 in s.breakpoints
    assert _normalised_set(s.facets, p, sp.Rational(3, 4)) == _normalised_set(closed, p, sp.Rational(3, 4))
    # ten fresh rational p (not the samples, not the verification points): symbolic == numeric
    fresh = [Fraction(1, 2) + Fraction(j, 2 * 23) for j in range(1, 23, 2)][:10]
    assert len(fresh) == 10 and not set(fresh) & (set(s.samples) | set(s.verified_at))
    for x in fresh:
        assert s.evaluate(x) == pg.RandomizedResponse(k, x).row_cone()


def test_theorem_4_3_k2_polynomials_exactly():
    s = symbolic_row_cone("rr:k=2,p=p", "p")
    want = {tuple(sp.expand(c) for c in r) for r in _theorem_4_3(2)[1]}
    got = {tuple(sp.expand(c) for c in r) for r in s.facets}
    # each facet of Theorem 4.3 up to the sign (-1)^k, which is +1 for k = 2
    assert got == want


def test_dp_facets_in_exp_eps():
    s = symbolic_row_cone("dp:graph=hamming,k=2,exp_eps=t", "t")
    g = hamming_graph(2)
    labels = list(s.labels)
    want = set()
    for u, v in g.edges:
        for i, j in ((u, v), (v, u)):
            row = [sp.Integer(0)] * 4
            row[labels.index(i)] = t
            row[labels.index(j)] = sp.Integer(-1)
            want.add(tuple(row))
    assert set(s.facets) == want
    assert s.interval == (1, sp.oo) and s.breakpoints == (1,)
    for x in (Fraction(3, 2), Fraction(7, 3), Fraction(11)):
        assert s.evaluate(x) == pg.DifferentialPrivacy(g, exp_eps=x).row_cone()


def test_geometric_facets_in_alpha():
    s = symbolic_row_cone("geometric:n=3,alpha=a", "a")
    want = {(1, -a, 0, 0), (0, 0, -a, 1), (-a, 1 + a**2, -a, 0), (0, -a, 1 + a**2, -a)}
    assert {tuple(sp.expand(c) for c in f) for f in s.facets} == {tuple(sp.expand(c) for c in w) for w in want}
    assert s.interval == (0, 1)


def test_latex_and_json():
    s = symbolic_row_cone("rr:k=1,p=p", "p")
    tex = s.to_latex()
    assert tex.startswith("\\begin{align}") and "x_{1}" in tex and "p" in tex
    d = s.to_dict()
    assert d["facets"] == [["p", "p - 1"], ["p - 1", "p"]]


def test_bad_input():
    with pytest.raises(pg.InvalidParameterError):
        symbolic_row_cone("rr:k=2,p=3/4", "p")
    with pytest.raises(pg.InvalidParameterError):
        symbolic_row_cone("pufferfish:file=x.json,q=q", "q")
    with pytest.raises(pg.InvalidParameterError):
        symbolic_row_cone(lambda x: pg.RandomizedResponse(1, x), "p")


def test_verification_is_real():
    # M(t) = [[t, 1-t], [1-t, t]]: the two facets swap signs at t = 1/2. On each side the symbolic cone is found and
    # verified with the breakpoint reported; across t = 1/2 no single formula holds and the route refuses.
    def fam(t):
        return pg.FiniteDefinition([pg.Mechanism([[t, 1 - t], [1 - t, t]])])

    above = symbolic_row_cone(fam, "t", interval=(Fraction(1, 2), Fraction(1)))
    below = symbolic_row_cone(fam, "t", interval=(Fraction(0), Fraction(1, 2)))
    assert len(above.facets) == len(below.facets) == 2
    assert sp.Rational(1, 2) in above.breakpoints and sp.Rational(1, 2) in below.breakpoints
    with pytest.raises(pg.PrivgeomError):
        symbolic_row_cone(fam, "t", interval=(Fraction(1, 4), Fraction(3, 4)))
    # An invalid parameter range is refused too (RR needs p in (1/2, 1]).
    with pytest.raises(pg.PrivgeomError):
        symbolic_row_cone(lambda x: pg.RandomizedResponse(1, x), "p", interval=(Fraction(1, 2), Fraction(3, 2)))


def test_a_callable_family_gives_the_spec_family_result():
    """The two family sources (a spec, a callable with its interval) read the same family: Theorem 4.3 for one bit,
    facets ``p x_1 − (1 − p) x_0 ≥ 0`` and its mirror, on the same interval and breakpoints."""
    by_spec = symbolic_row_cone("rr:k=1,p=p", "p")
    by_callable = symbolic_row_cone(lambda x: pg.RandomizedResponse(1, x), "p", interval=("1/2", 1))
    assert by_callable.facets == by_spec.facets and by_callable.rays == by_spec.rays
    assert by_callable.interval == by_spec.interval == (sp.Rational(1, 2), 1)
    assert by_callable.breakpoints == by_spec.breakpoints and by_callable.family == "<lambda>"
