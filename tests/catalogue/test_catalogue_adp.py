"""(ε, δ)-DP: hockey-stick membership against brute force, LP cross-check, orthant row cone, δ = 0 is ε-DP."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import (
    DomainMismatchError,
    FormatError,
    InvalidParameterError,
    InvalidTypeError,
    Mechanism,
    randomized_response,
)
from privgeom.testing import complete_graph, hamming_graph, path_graph
from privgeom import delta as profile_delta
from privgeom.definitions import parse_definition
from privgeom import ApproximateDP
from privgeom.results import CompletionWitness, HockeyStickCertificate, HockeyStickWitness
from privgeom import DifferentialPrivacy


def random_mechanism(n_out: int, n_in: int, seed: int, *, zeros: bool = True) -> Mechanism:
    rng = np.random.default_rng(seed)
    raw = rng.integers(0 if zeros else 1, 6, size=(n_out, n_in))
    raw[0, raw.sum(axis=0) == 0] = 1
    sums = raw.sum(axis=0)
    return Mechanism(
        [[F(int(raw[o, i]), int(sums[i])) for i in range(n_in)] for o in range(n_out)],
        inputs=[str(i) for i in range(n_in)],
    )


def brute_force_delta(M: Mechanism, edges: list[tuple[int, int]], r: F) -> F:
    """max over directed edges and over *all* output sets S of P(S | D) − r P(S | D')."""
    m = M.matrix
    best = F(0)
    outs = range(M.n_outputs)
    for i, j in edges + [(j, i) for i, j in edges]:
        for size in range(M.n_outputs + 1):
            for S in itertools.combinations(outs, size):
                best = max(best, sum((m[w, i] - r * m[w, j] for w in S), F(0)))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_hockey_stick_matches_brute_force_and_profile(seed: int) -> None:
    M = random_mechanism(4, 3, seed)
    G = path_graph(2)
    r = F(3, 2)
    exact_delta = brute_force_delta(M, [(0, 1), (1, 2)], r)
    assert exact_delta == profile_delta(M, G, exp_eps=r).delta  # independent implementation (analyses layer)
    yes = ApproximateDP(G, exp_eps=r, delta=exact_delta).contains(M)
    assert yes.member and yes.exact and isinstance(yes.witness, HockeyStickWitness)
    assert yes.witness.max_value == exact_delta
    assert yes.witness.lp_value == pytest.approx(float(exact_delta), abs=1e-8)  # LP cross-check ran and agreed
    if exact_delta > 0:
        no = ApproximateDP(G, exp_eps=r, delta=exact_delta - F(1, 1000)).contains(M)
        assert not no.member and no.exact
        cert = no.certificate
        assert isinstance(cert, HockeyStickCertificate) and cert.verify(M)
        # re-verify by hand: the event S of the certificate has P(S|D) − r P(S|D') = value > δ
        i, j = M.inputs.index(cert.edge[0]), M.inputs.index(cert.edge[1])
        rows = [M.outputs.index(o) for o in cert.outputs]
        value = sum(M.matrix[w, i] for w in rows) - r * sum(M.matrix[w, j] for w in rows)
        assert value == cert.value == exact_delta and value > exact_delta - F(1, 1000)


@pytest.mark.parametrize("seed", range(5))
def test_lp_method_agrees_in_float(seed: int) -> None:
    M = random_mechanism(5, 4, 100 + seed).to_float()
    G = complete_graph(4)
    d = profile_delta(M, G, exp_eps=2.0).delta
    for delta, expected in ((min(1.0, d + 1e-3), True), (max(0.0, d - 1e-3), d < 1e-3)):
        adp = ApproximateDP(G, exp_eps=2.0, delta=delta)
        a, b = adp.contains(M, method="lp"), adp.contains(M, method="hockey-stick")
        assert a.member == b.member == expected
        assert a.method == "lp" and not a.exact
        if not a.member:
            assert a.certificate.verify(M)


def test_boundary_member_and_certificate_event() -> None:
    M = randomized_response(2, "3/4")  # hockey stick 1/4 at e^eps = 2 (hand computation in cases_catalogue.py)
    assert ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/4").contains(M).member
    no = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/5").contains(M)
    assert not no.member
    c = no.certificate
    assert (c.p_from, c.p_to, c.value) == (F(9 + 3, 16), F(3 + 1, 16), F(1, 4))
    assert "delta = 1/5" in str(no)


@given(seed=st.integers(0, 10_000), n_out=st.integers(1, 3))
def test_closed_under_post_processing_and_mixing(seed: int, n_out: int) -> None:
    adp = ApproximateDP(path_graph(2), exp_eps=2, delta="1/5")
    M = random_mechanism(3, 3, seed, zeros=False)
    d = profile_delta(M, path_graph(2), exp_eps=2).delta
    adp = ApproximateDP(path_graph(2), exp_eps=2, delta=d)
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 4, size=(n_out, 3))
    raw[0, raw.sum(axis=0) == 0] = 1
    A = [[F(int(raw[o, w]), int(raw[:, w].sum())) for w in range(3)] for o in range(n_out)]
    assert adp.contains(M).member
    assert adp.contains(M.post_process(A)).member
    from privgeom import mixture

    assert adp.contains(mixture([M, M.post_process(A)], ["1/3", "2/3"])).member


# ---------------------------------------------------------------------------------------------------- row cone
@pytest.mark.parametrize("graph", [hamming_graph(2), path_graph(3), complete_graph(4)], ids=["Q2", "P3", "K4"])
def test_row_cone_is_the_orthant_when_delta_positive(graph) -> None:
    adp = ApproximateDP(graph, exp_eps=3, delta="1/100")
    cone = adp.row_cone()
    n = adp.n_inputs
    assert cone.n_facets == n and (cone.facets == np.eye(n, dtype=int)).all()
    assert not adp.row_cone_decides_closure
    assert "III-D.2" in adp.semantics_note and "empty" in adp.semantics_note
    rng = np.random.default_rng(5)
    for _ in range(5):
        x = [F(int(v), 7) for v in rng.integers(0, 9, size=n)]
        ans = adp.contains_row(x)
        assert ans.member and isinstance(ans.witness, CompletionWitness)
        W = ans.witness
        assert adp.contains(W.mechanism, method="hockey-stick").member  # the witness member, re-verified
        assert [W.scale * v for v in W.mechanism.row(W.row)] == x
    # a mechanism all of whose rows are in the orthant, yet not a member: the row cone does not decide
    assert not adp.contains(Mechanism(np.eye(n, dtype=int).tolist(), inputs=adp.inputs)).member


def test_rows_of_tiny_mass_cost_nothing() -> None:
    """Any row, even one that breaks ε-DP, fits in an (ε, δ)-DP mechanism once scaled below δ."""
    adp = ApproximateDP(hamming_graph(2), exp_eps=1, delta="1/10")
    ans = adp.contains_row([1, 0, 0, 0])
    assert ans.member and ans.witness.scale == 10
    dp = DifferentialPrivacy.hamming(2, exp_eps=1)
    assert not dp.contains(ans.witness.mechanism).member


@pytest.mark.parametrize(
    "graph, r", [(path_graph(3), F(2)), (complete_graph(4), F(3, 2)), (hamming_graph(3), F(3))], ids=["P3", "K4", "Q3"]
)
def test_delta_zero_is_epsilon_dp(graph, r) -> None:
    adp = ApproximateDP(graph, exp_eps=r, delta=0)
    dp = DifferentialPrivacy(graph, exp_eps=r)
    assert adp.row_cone_decides_closure
    cone = adp.row_cone()
    assert cone == dp.row_cone()
    # independent: the cone generated by the enumerated extreme rays r^u is checked in test_catalogue_dp_cones.py
    n = adp.n_inputs
    for seed in range(8):
        M = random_mechanism(3, n, 200 + seed, zeros=False)
        M = Mechanism(M.matrix, inputs=adp.inputs)
        assert adp.contains(M).member == dp.contains(M).member
    from privgeom import truncated_geometric

    if graph.name.startswith("path"):
        assert adp.contains(truncated_geometric(3, 1 / r)).member
        assert not adp.contains(truncated_geometric(3, 1 / (r + 1))).member


def test_float_parameters_and_spec_round_trip() -> None:
    a = ApproximateDP(hamming_graph(2), eps=1.0, delta=F(1, 10))
    assert not a.exact and a.level.exp_eps == pytest.approx(np.e)
    assert a.spec() == "adp:graph=hamming,k=2,eps=1.0,delta=1/10"
    b = parse_definition("adp:graph=hamming,k=2,eps=1,delta=1/10")
    assert isinstance(b, ApproximateDP) and not b.exact and b.level.exp_eps == pytest.approx(np.e)
    c = parse_definition("adp:graph=complete,n=3,exp_eps=3,delta=1/4")
    assert c.exact and c.spec() == "adp:graph=complete,n=3,exp_eps=3,delta=1/4"
    d = ApproximateDP(path_graph(2), exp_eps=3, delta=0.25)  # float δ makes the definition float
    assert not d.exact and parse_definition(d.spec()).exact is False
    e = ApproximateDP([("a", "b"), ("b", "c")], exp_eps=2, delta="1/3")
    assert parse_definition(e.spec()).inputs == ("a", "b", "c")
    f = ApproximateDP(DifferentialPrivacy.path(2, eps="ln(2)"), delta="1/8")
    assert f.exact and f.level.exp_eps == 2 and str(f.level) == "ln(2)"
    assert isinstance(f.pure_dp, DifferentialPrivacy)


def test_bad_inputs_raise_typed_errors() -> None:
    G = hamming_graph(2)
    with pytest.raises(InvalidParameterError, match="delta"):
        ApproximateDP(G, exp_eps=2, delta="-1/10")
    with pytest.raises(InvalidParameterError, match="delta"):
        ApproximateDP(G, exp_eps=2, delta=2)
    with pytest.raises(InvalidParameterError, match="exactly one"):
        ApproximateDP(G, eps=1.0, exp_eps=2, delta=0)
    with pytest.raises(InvalidParameterError, match="exp_eps"):
        ApproximateDP(G, exp_eps="1/2", delta=0)
    with pytest.raises(InvalidParameterError, match="exact=True"):
        ApproximateDP(G, exp_eps=2, delta=0.1, exact=True)
    with pytest.raises(InvalidParameterError):
        ApproximateDP(DifferentialPrivacy.path(2, exp_eps=2), exp_eps=3, delta=0)
    with pytest.raises(InvalidTypeError):
        ApproximateDP(G, exp_eps=2, delta=None)
    adp = ApproximateDP(G, exp_eps=2, delta="1/10")
    with pytest.raises(InvalidTypeError):
        adp.contains([[1]])  # type: ignore[arg-type]
    with pytest.raises(DomainMismatchError):
        adp.contains(randomized_response(3, "3/4"))
    with pytest.raises(InvalidParameterError, match="unknown membership method"):
        adp.contains(randomized_response(2, "3/4"), method="simplex")
    with pytest.raises(DomainMismatchError):
        adp.contains_row([1, 2])
    with pytest.raises(FormatError, match="delta"):
        parse_definition("adp:graph=hamming,k=2,exp_eps=2")
    with pytest.raises(FormatError, match="unknown key"):
        parse_definition("adp:graph=hamming,k=2,exp_eps=2,delta=0,colour=red")
