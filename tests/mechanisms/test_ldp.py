"""The deployed local-DP protocols (privgeom.mechanisms._ldp): values from the papers' formulas, exact ε, errors.

Theory: docs/theory.md §"Deployed local-DP protocols". Every expected value below is written from the protocol's
definition (per-bit probabilities, hash collisions counted by brute force, the Hadamard matrix built by Sylvester's
recursion), not read back from privgeom.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest

import privgeom as pg
from privgeom.mechanisms._ldp import (
    hash_collision_probability,
    hash_family,
    local_hashing_estimator,
    olh_default_g,
    subset_default_s,
)
from privgeom.testing import bit_strings
from privgeom.definitions._ldp import LocalProtocol

LEVELS = [F(1), F(2), F(3), F(5, 2)]


def _all_protocols(d: int, t: F) -> list[pg.Mechanism]:
    out = [
        pg.unary_encoding(d, exp_eps=t),
        pg.hadamard_response(d, exp_eps=t),
        pg.local_hashing(d, exp_eps=t),
        pg.local_hashing(d, 2, exp_eps=t),
        pg.subset_selection(d, exp_eps=t),
    ]
    out += [pg.unary_encoding(d, exp_half_eps=t, optimized=False)]  # e^ε = t²
    out += [pg.subset_selection(d, s, exp_eps=t) for s in range(1, d)]
    return out


# ------------------------------------------------------------------------------------------------ stochastic, exact
@pytest.mark.parametrize("d", [2, 3, 4, 6])
@pytest.mark.parametrize("t", LEVELS, ids=str)
def test_columns_sum_to_one_exactly(d: int, t: F) -> None:
    for M in _all_protocols(d, t):
        assert M.exact and M.inputs == tuple(str(i) for i in range(d))
        for j in range(d):
            col = [F(v) for v in M.matrix[:, j]]
            assert sum(col) == 1 and min(col) > 0


@pytest.mark.parametrize("d", [2, 3, 5])
@pytest.mark.parametrize("t", LEVELS, ids=str)
def test_exact_epsilon_is_the_nominal_one(d: int, t: F) -> None:
    for M in _all_protocols(d, t)[:5] + _all_protocols(d, t)[6:]:
        assert pg.epsilon(M, "complete").level.eps == pg.LogRational(t), M
    sue = pg.unary_encoding(d, exp_half_eps=t, optimized=False)
    assert pg.epsilon(sue, "complete").level.eps == pg.LogRational(t * t)


def test_float_mode_agrees_with_exact() -> None:
    for exact, floats in [
        (pg.unary_encoding(4, exp_eps=3), pg.unary_encoding(4, exp_eps=3.0)),
        (pg.unary_encoding(3, exp_eps=4, optimized=False), pg.unary_encoding(3, exp_eps=4.0, optimized=False)),
        (pg.local_hashing(4, 3, exp_eps=3), pg.local_hashing(4, 3, exp_eps=3.0)),
        (pg.hadamard_response(5, exp_eps=2), pg.hadamard_response(5, eps=math.log(2.0))),
        (pg.subset_selection(5, 2, exp_eps=3), pg.subset_selection(5, 2, exp_eps=3, exact=False)),
    ]:
        assert not floats.exact and floats.outputs == exact.outputs
        np.testing.assert_allclose(floats.float_matrix(), exact.float_matrix(), rtol=1e-12)
        assert abs(pg.epsilon(floats, "complete").level.eps - float(pg.epsilon(exact, "complete").level.eps)) < 1e-12
    # SUE with an irrational e^(ε/2) exists only in float mode
    M = pg.unary_encoding(3, exp_eps=2, optimized=False, exact=False)
    assert abs(pg.epsilon(M, "complete").level.eps - math.log(2)) < 1e-12


def test_eps_as_a_logarithm_is_exact() -> None:
    assert pg.unary_encoding(3, eps="ln(3)") == pg.unary_encoding(3, exp_eps=3)
    assert pg.subset_selection(4, 2, eps=pg.LogRational(2)) == pg.subset_selection(4, 2, exp_eps=2)


# ------------------------------------------------------------------------------------------------ unary encoding
def _bit_marginals(M: pg.Mechanism, x: int) -> list[F]:
    """``P(y_i = 1 | x)`` for every bit ``i``, summed over the reports."""
    return [
        sum((F(M.matrix[o, x]) for o, lab in enumerate(M.outputs) if lab[i] == "1"), F(0)) for i in range(M.n_inputs)
    ]


@pytest.mark.parametrize("d", [2, 3, 5])
def test_oue_bits_are_independent_with_p_one_half_and_q_one_over_e_eps_plus_one(d: int) -> None:
    t = F(3)
    M = pg.unary_encoding(d, exp_eps=t)
    p, q = F(1, 2), 1 / (t + 1)
    for x in range(d):
        marg = _bit_marginals(M, x)
        assert marg == [p if i == x else q for i in range(d)]
        for o, lab in enumerate(M.outputs):  # the joint law is the product of the marginals
            expected = math.prod((marg[i] if c == "1" else 1 - marg[i] for i, c in enumerate(lab)), start=F(1))
            assert M.matrix[o, x] == expected


def test_sue_is_basic_one_time_rappor() -> None:
    # RAPPOR's permanent randomized response with f = 1/2: a bit is kept w.p. 1 − f/2 = 3/4, raised w.p. f/2 = 1/4;
    # ε = 2 ln((1 − f/2)/(f/2)) = ln 9
    M = pg.unary_encoding(4, exp_eps=9, optimized=False)
    assert M == pg.unary_encoding(4, exp_half_eps=3, optimized=False)
    for x in range(4):
        assert _bit_marginals(M, x) == [F(3, 4) if i == x else F(1, 4) for i in range(4)]
    assert pg.epsilon(M, "complete").level.eps == pg.LogRational(9)


def test_unary_encoding_reports_are_bit_strings_in_the_package_order() -> None:
    assert pg.unary_encoding(3, exp_eps=2).outputs == tuple(bit_strings(3))
    M = pg.unary_encoding(["a", "b"], exp_eps=3)
    assert M.inputs == ("a", "b") and M.outputs == ("11", "10", "01", "00")


# ------------------------------------------------------------------------------------------------ local hashing
@pytest.mark.parametrize("d, g", [(2, 2), (3, 2), (4, 3), (5, 4), (7, 5), (8, 3), (10, 12)])
def test_hash_family_is_universal(d: int, g: int) -> None:
    P, family = hash_family(d, g)
    assert P >= d and all(P % f for f in range(2, P)) and not any(all(c % f for f in range(2, c)) for c in range(d, P))
    assert len(family) == len(set(family)) == P * (P - 1)
    for x, y in itertools.combinations(range(d), 2):
        collisions = sum(((a * x + b) % P) % g == ((a * y + b) % P) % g for a, b in family)
        assert collisions * g <= len(family), (x, y, collisions)


def test_local_hashing_is_krr_on_the_hashed_value() -> None:
    t, d, g = F(3), 4, 3
    M = pg.local_hashing(d, g, exp_eps=t)
    P, family = hash_family(d, g)
    assert M.n_outputs == len(family) * g
    for x in range(d):
        for j, (a, b) in enumerate(family):
            v = ((a * x + b) % P) % g
            block = [M.matrix[j * g + y, x] for y in range(g)]
            assert M.outputs[j * g] == f"{a}x+{b}->0"
            # choose h uniformly, then g-ary randomized response on h(x)
            assert block == [(t if y == v else 1) / (len(family) * (t + g - 1)) for y in range(g)]


def test_olh_default_range() -> None:
    """g = round(e^ε) + 1 (Wang et al. 2017; pure-ldp's round(exp(ε)) + 1), halves to even, at least 2."""
    assert olh_default_g(F(3)) == 4 and olh_default_g(F(5, 2)) == 3 and olh_default_g(F(7, 2)) == 5
    assert olh_default_g(F(1)) == 2 and olh_default_g(F(13, 10)) == 2 and olh_default_g(F(27, 10)) == 4
    assert [olh_default_g(x) for x in (math.e, math.exp(2.0), math.exp(0.5))] == [4, 8, 3]  # e^2 = 7.39, e^0.5 = 1.65
    assert pg.local_hashing(3, exp_eps=3) == pg.local_hashing(3, 4, exp_eps=3)


@pytest.mark.parametrize("r", [F(3), F(5, 2), F(7, 2), F(9, 2), F(6), F(11, 2)])
def test_olh_and_subset_defaults_agree_between_eps_and_exp_eps(r: F) -> None:
    """``eps=ln(r)`` (a float e^ε a few ulps off r) gives the same g and s as ``exp_eps=r`` (ceil gave g = 5 at r = 3)."""
    t = math.exp(math.log(r))
    assert olh_default_g(t) == olh_default_g(r) == max(round(r) + 1, 2)
    for d in (4, 9, 11, 13):
        assert subset_default_s(d, t) == subset_default_s(d, r)
    assert pg.local_hashing(3, eps=math.log(r)).n_outputs == pg.local_hashing(3, exp_eps=r).n_outputs
    spec = pg.parse_definition(f"olh:d=3,eps={math.log(r)!r}").spec()
    assert f",g={round(r) + 1}," in spec


def test_olh_default_at_ln3_is_four() -> None:
    assert math.exp(math.log(3)) != 3  # the float e^ε is not 3 ...
    assert olh_default_g(math.exp(math.log(3))) == 4  # ... and still g = round(3) + 1
    assert pg.local_hashing(3, eps=math.log(3)).n_outputs == 3 * 2 * 4


@pytest.mark.parametrize("d, g", [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (5, 4), (7, 5), (8, 3), (10, 12)])
def test_hash_collision_probability_is_exact_for_every_pair(d: int, g: int) -> None:
    """Counted over the whole family for every pair x ≠ x': the same for all pairs, equal to the closed form, and
    strictly below 1/g."""
    P, family = hash_family(d, g)
    c = hash_collision_probability(d, g)
    for x, y in itertools.combinations(range(d), 2):
        collisions = sum(((a * x + b) % P) % g == ((a * y + b) % P) % g for a, b in family)
        assert F(collisions, len(family)) == c
    assert c < F(1, g)


@pytest.mark.parametrize("d, g, t", [(3, 2, F(3)), (4, 3, F(2)), (5, None, F(3)), (4, 2, F(5, 2)), (6, 4, F(11, 10))])
def test_local_hashing_estimator_is_unbiased_exactly(d: int, g: int | None, t: F) -> None:
    """E · M = I in Fractions: for every true value x, the expected estimate of every v is 1{v = x}."""
    M = pg.local_hashing(d, g, exp_eps=t)
    E = local_hashing_estimator(d, g, exp_eps=t)
    assert E.shape == (d, M.n_outputs)
    assert E.dot(M.matrix).tolist() == np.eye(d, dtype=int).tolist()
    # Wang et al.'s estimator (q = 1/g, an idealised family) is biased on this family: off-diagonal expectations are
    # (q_family − 1/g)/(p − 1/g) < 0
    W = local_hashing_estimator(d, g, exp_eps=t, collision="ideal")
    G = olh_default_g(t) if g is None else g
    c, p = hash_collision_probability(d, G), t / (t + G - 1)
    q = c * p + (1 - c) * (1 - p) / (G - 1)
    bias = (q - F(1, G)) / (p - F(1, G)) if p != F(1, G) else None
    WM = W.dot(M.matrix)
    if bias is not None:
        assert all(WM[v, x] == (1 if v == x else bias) for v in range(d) for x in range(d))
        assert bias < 0


def test_local_hashing_estimator_floats_and_bad_option() -> None:
    E = local_hashing_estimator(4, 3, eps=1.0)
    M = pg.local_hashing(4, 3, eps=1.0)
    assert E.dtype == float and np.allclose(E @ M.matrix, np.eye(4), atol=1e-12)
    with pytest.raises(pg.InvalidParameterError, match="'uniform'"):
        local_hashing_estimator(4, 3, exp_eps=2, collision="uniform")
    with pytest.raises(pg.InvalidParameterError, match="e\\^ε > 1"):
        local_hashing_estimator(4, 3, exp_eps=1)


# ------------------------------------------------------------------------------------------------ Hadamard response
def _sylvester(K: int) -> np.ndarray:
    H = np.array([[1]])
    while H.shape[0] < K:
        H = np.block([[H, H], [H, -H]])
    return H


def test_hadamard_response_d3_is_the_explicit_k4_matrix() -> None:
    # K = 4; columns 1, 2, 3 of H_4: C_0 = {0, 2}, C_1 = {0, 1}, C_2 = {0, 3}; in: 2·3/(4·4) = 3/8, off: 1/8
    M = pg.hadamard_response(3, exp_eps=3)
    a, b = F(3, 8), F(1, 8)
    assert M.outputs == ("0", "1", "2", "3")
    assert M.matrix.tolist() == [[a, a, a], [b, a, b], [a, b, b], [b, b, a]]


@pytest.mark.parametrize("d", [2, 3, 4, 7, 8, 9])
def test_hadamard_response_against_sylvester(d: int) -> None:
    t = F(5, 2)
    M = pg.hadamard_response(d, exp_eps=t)
    K = M.n_outputs
    assert K > d and K & (K - 1) == 0 and K // 2 <= d  # the smallest power of two above d
    H = _sylvester(K)
    for x in range(d):
        assert [M.matrix[y, x] for y in range(K)] == [
            2 * (t if H[y, x + 1] == 1 else 1) / (K * (1 + t)) for y in range(K)
        ]


# ------------------------------------------------------------------------------------------------ subset selection
@pytest.mark.parametrize("d", [2, 3, 5])
@pytest.mark.parametrize("t", LEVELS, ids=str)
def test_subset_selection_with_one_element_is_kary_randomized_response(d: int, t: F) -> None:
    assert pg.subset_selection(d, 1, exp_eps=t) == pg.kary_randomized_response(d, exp_eps=t)
    labels = ["x", "y", "z"][: max(d, 2)] if d <= 3 else [f"v{i}" for i in range(d)]
    assert pg.subset_selection(labels, 1, exp_eps=t) == pg.kary_randomized_response(labels, exp_eps=t)


def test_subset_selection_probabilities_and_default_size() -> None:
    t, d, s = F(2), 5, 2
    M = pg.subset_selection(d, s, exp_eps=t)
    Z = math.comb(d - 1, s - 1) * t + math.comb(d - 1, s)  # 4·2 + 6 = 14
    assert Z == 14 and M.n_outputs == math.comb(d, s)
    for o, S in enumerate(itertools.combinations(range(d), s)):
        assert M.outputs[o] == ",".join(map(str, S))
        assert [M.matrix[o, x] for x in range(d)] == [(t if x in S else 1) / Z for x in range(d)]
    # s = the integer nearest to d/(e^ε + 1) (multi-freq-ldpy's rint, halves to even), within 1..d−1:
    # 6/3 = 2 -> 2; 7/4 -> 2; 2/2 = 1 -> 1; 5/2 -> 2 (⌈·⌉ gave 3); 10/4 = 5/2 -> 2; 11/3 -> 4 (⌈·⌉ gave 4);
    # 13/5 -> 3; 14/5 -> 3; 3/2 -> 2, and 9/(e^ε + 1) at e^ε = 8 -> 1
    assert [
        subset_default_s(6, F(2)),
        subset_default_s(7, F(3)),
        subset_default_s(2, F(1)),
        subset_default_s(5, F(1)),
        subset_default_s(10, F(3)),
        subset_default_s(11, F(2)),
        subset_default_s(13, F(4)),
        subset_default_s(14, F(4)),
        subset_default_s(3, F(1)),
        subset_default_s(9, F(8)),
    ] == [2, 2, 1, 2, 2, 4, 3, 3, 2, 1]
    assert subset_default_s(8, F(2)) == 3 and subset_default_s(7, F(1)) == 4  # 8/3 -> 3 (not ⌈·⌉ = 3); 7/2 -> 4
    assert pg.subset_selection(6, exp_eps=2) == pg.subset_selection(6, 2, exp_eps=2)


# ------------------------------------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize("factory", [pg.unary_encoding, pg.local_hashing, pg.hadamard_response, pg.subset_selection])
def test_bad_domain_and_level(factory: object) -> None:
    with pytest.raises(pg.InvalidParameterError, match="got 1"):
        factory(1, exp_eps=3)  # type: ignore[operator]
    with pytest.raises(pg.InvalidParameterError, match="1/2"):
        factory(3, exp_eps="1/2")  # type: ignore[operator]
    with pytest.raises(pg.InvalidParameterError, match="exp_eps"):
        factory(3)  # type: ignore[operator]
    with pytest.raises(pg.InvalidParameterError):
        factory(3, exp_eps=3, eps=1.0)  # type: ignore[operator]
    with pytest.raises(pg.InvalidTypeError):
        factory(2.5, exp_eps=3)  # type: ignore[operator]


def test_bad_protocol_parameters() -> None:
    for s in (0, 4, -1):
        with pytest.raises(pg.InvalidParameterError, match=f"s = {s}"):
            pg.subset_selection(4, s, exp_eps=3)
    with pytest.raises(pg.InvalidParameterError, match="g must be >= 2, got 1"):
        pg.local_hashing(4, 1, exp_eps=3)
    with pytest.raises(pg.InvalidParameterError, match="exp_eps = 3 is not the square"):
        pg.unary_encoding(4, exp_eps=3, optimized=False)
    with pytest.raises(pg.InvalidParameterError, match="exp_half_eps"):
        pg.unary_encoding(4, exp_half_eps=2)
    with pytest.raises(pg.InvalidParameterError, match="exp_half_eps = 1/2"):
        pg.unary_encoding(4, exp_half_eps="1/2", optimized=False)
    with pytest.raises(pg.InvalidParameterError, match="','"):
        pg.subset_selection(["a,b", "c", "d"], 2, exp_eps=2)


def test_oversize_domains_are_refused_before_enumerating() -> None:
    with pytest.raises(pg.SizeLimitError, match=r"2\^30|1,073,741,824 reports") as err:
        pg.unary_encoding(30, exp_eps=3)
    assert "pg.set_limits(ldp_outputs=1073741824)" in str(err.value) and "d=30" in str(err.value)
    with pytest.raises(pg.SizeLimitError, match="no computer's memory"):
        pg.unary_encoding(100, exp_eps=3)
    with pytest.raises(pg.SizeLimitError, match="no computer's memory"):
        pg.subset_selection(200, 100, exp_eps=3)
    with pytest.raises(pg.SizeLimitError, match="ldp_outputs"):
        pg.subset_selection(40, 10, exp_eps=3)
    with pytest.raises(pg.SizeLimitError, match="ldp_outputs"):
        pg.local_hashing(200, 100, exp_eps=3)  # P = 211: 211·210·100 reports
    with pg.limits(ldp_outputs=2**18), pytest.raises(pg.SizeLimitError, match="exact_entries"):
        pg.unary_encoding(18, exp_eps=3)  # within ldp_outputs, but 2^18 x 18 Fractions is beyond exact_entries


# ------------------------------------------------------------------------------------------------ spec kinds
@pytest.mark.parametrize(
    "spec, mechanism, canonical",
    [
        ("oue:d=4,exp_eps=3", lambda: pg.unary_encoding(4, exp_eps=3), "oue:d=4,exp_eps=3"),
        ("oue:d=3,eps=ln(3)", lambda: pg.unary_encoding(3, exp_eps=3), "oue:d=3,exp_eps=3"),
        ("sue:d=3,exp_eps=9/4", lambda: pg.unary_encoding(3, exp_eps="9/4", optimized=False), "sue:d=3,exp_eps=9/4"),
        ("sue:d=3,exp_half_eps=2", lambda: pg.unary_encoding(3, exp_eps=4, optimized=False), "sue:d=3,exp_half_eps=2"),
        ("olh:d=4,exp_eps=3", lambda: pg.local_hashing(4, 4, exp_eps=3), "olh:d=4,g=4,exp_eps=3"),
        ("olh:d=4,g=3,exp_eps=3", lambda: pg.local_hashing(4, 3, exp_eps=3), "olh:d=4,g=3,exp_eps=3"),
        ("blh:d=4,exp_eps=3", lambda: pg.local_hashing(4, 2, exp_eps=3), "blh:d=4,exp_eps=3"),
        ("hr:d=4,exp_eps=3", lambda: pg.hadamard_response(4, exp_eps=3), "hr:d=4,exp_eps=3"),
        ("ss:d=4,s=2,exp_eps=3", lambda: pg.subset_selection(4, 2, exp_eps=3), "ss:d=4,s=2,exp_eps=3"),
        ("ss:d=6,exp_eps=2", lambda: pg.subset_selection(6, 2, exp_eps=2), "ss:d=6,s=2,exp_eps=2"),
        (
            "hr:d=3,exp_eps=3,exact=false",
            lambda: pg.hadamard_response(3, exp_eps=3.0),
            "hr:d=3,exp_eps=3.0,exact=false",
        ),
    ],
)
def test_spec_kinds_build_the_factories_mechanisms(spec: str, mechanism: object, canonical: str) -> None:
    D = pg.parse_definition(spec)
    assert isinstance(D, LocalProtocol) and isinstance(D, pg.FiniteDefinition)
    assert D.mechanism == mechanism()  # type: ignore[operator]
    assert D.spec() == canonical and pg.parse_definition(canonical).spec() == canonical
    assert pg.epsilon(D.mechanism, "complete").level.eps == (
        pg.LogRational(D.level.exp_eps) if D.exact else pytest.approx(math.log(D.level.exp_eps))
    )


@pytest.mark.parametrize(
    "spec, message",
    [
        ("oue:d=4", "exactly one of exp_eps"),
        ("oue:d=4,exp_eps=3,eps=1", "exactly one of exp_eps"),
        ("hr:exp_eps=3", "hr needs d="),
        ("olh:d=4,exp_eps=3,s=2", "unknown key"),
        ("ss:d=4,s=4,exp_eps=3", "s = 4"),
        ("sue:d=3,exp_eps=2", "exp_eps = 2 is not the square"),
        ("sue:d=3,exp_half_eps=2,exp_eps=4", "exactly one of"),
        ("blh:d=3,exp_eps=1/3", "1/3"),
    ],
)
def test_bad_specs_name_the_value(spec: str, message: str) -> None:
    with pytest.raises(pg.PrivgeomError, match=message):
        pg.parse_definition(spec)


# ------------------------------------------------------------------------------------------------ utility gap
@pytest.mark.parametrize("d", [3, 4])
def test_utility_gap_matches_the_closed_forms(d: int) -> None:
    # accuracy, uniform prior: the closure's optimum is the MAP decoder (1/d) Σ_y max_x M[y, x]; the ε-LDP optimum
    # is k-RR's e^ε/(e^ε + d − 1) (module doc of privgeom.analyses.profiles._ldp_gap)
    t = F(3)
    for M in [
        pg.unary_encoding(d, exp_eps=t),
        pg.local_hashing(d, exp_eps=t),
        pg.hadamard_response(d, exp_eps=t),
        pg.subset_selection(d, 2, exp_eps=t),
        pg.subset_selection(d, 1, exp_eps=t),
    ]:
        g = pg.ldp_utility_gap(M)
        map_value = sum((max(F(v) for v in row) for row in M.matrix), F(0)) / d
        assert g.exact and g.level.exp_eps == t
        assert g.value == map_value and g.best == t / (t + d - 1) and g.gap == g.best - g.value >= 0
    assert pg.ldp_utility_gap(pg.subset_selection(d, 1, exp_eps=t)).gap == 0  # k-RR is optimal for accuracy
    sue = pg.ldp_utility_gap(f"sue:d={d},exp_half_eps=2")  # e^ε = 4 from the matrix, not from the spec
    assert sue.level.exp_eps == 4 and sue.best == F(4, 4 + d - 1)
    assert "gap" in str(sue) and '"gap"' in sue.to_json()


def test_utility_gap_refuses_non_private_and_multi_mechanism_inputs() -> None:
    with pytest.raises(pg.InvalidParameterError, match="ε = ∞"):
        pg.ldp_utility_gap(pg.Mechanism([[1, 0], [0, 1]]))
    two = pg.definitions.FiniteDefinition([pg.hadamard_response(3, exp_eps=2), pg.hadamard_response(3, exp_eps=3)])
    with pytest.raises(pg.InvalidParameterError, match="2 mechanisms"):
        pg.ldp_utility_gap(two)
    with pytest.raises(pg.InvalidTypeError):
        pg.ldp_utility_gap(3)  # type: ignore[arg-type]
    floats = pg.ldp_utility_gap(pg.hadamard_response(3, exp_eps=3.0))
    assert not floats.exact and abs(floats.gap - 0.1) < 1e-9
