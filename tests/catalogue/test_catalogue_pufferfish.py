"""Pufferfish: reduction to ε-DP, strictly weaker / stronger / incomparable instances, JSON format, errors."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from privgeom import (
    DomainMismatchError,
    FormatError,
    InvalidInputError,
    InvalidParameterError,
    InvalidTypeError,
    Mechanism,
    randomized_response,
)
from privgeom.testing import complete_graph, hamming_graph, path_graph
from privgeom.definitions import parse_definition
from privgeom.results import CompletionWitness
from privgeom import DifferentialPrivacy
from privgeom import Pufferfish

from privgeom.testing import DATA

H2 = list(hamming_graph(2).nodes)


@pytest.mark.parametrize("graph", [path_graph(3), hamming_graph(2), complete_graph(4)], ids=["P3", "Q2", "K4"])
@pytest.mark.parametrize("prior", ["uniform", "skewed"])
def test_singleton_secrets_on_graph_edges_is_epsilon_dp(graph, prior) -> None:
    """θ(· | {D}) = e_D for every prior with θ(D) > 0, so the conditions are exactly x_i ≤ e^ε x_j on edges."""
    n = graph.number_of_nodes()
    pr = None if prior == "uniform" else [F(i + 1, n * (n + 1) // 2) for i in range(n)]
    pf = Pufferfish.from_graph(graph, exp_eps=F(5, 2), prior=pr)
    dp = DifferentialPrivacy(graph, exp_eps=F(5, 2))
    assert pf.row_cone() == dp.row_cone()
    assert pf.row_cone().equals(dp.row_cone()).holds
    assert pf.n_conditions == 2 * graph.number_of_edges()


def test_a_prior_without_full_support_weakens_the_reduction() -> None:
    """With θ(D) = 0 the pairs through D impose nothing: strictly weaker than ε-DP."""
    G = path_graph(2)
    pf = Pufferfish.from_graph(G, exp_eps=2, prior=[F(1, 2), F(1, 2), 0])
    dp = DifferentialPrivacy(G, exp_eps=2)
    assert pf.n_conditions == 2
    assert dp.row_cone().issubset(pf.row_cone()).holds
    back = pf.row_cone().issubset(dp.row_cone())
    assert not back.holds and np.dot(back.violated_normal, back.witness) < 0


def _bit_secret(exp_eps: int = 3) -> Pufferfish:
    return Pufferfish(
        H2, {"bob=1": ["11", "10"], "bob=0": ["01", "00"]}, [("bob=1", "bob=0")], [[F(1, 4)] * 4], exp_eps=exp_eps
    )


def test_strictly_weaker_than_dp_secret_is_a_bit() -> None:
    """Protecting only 'first bit = 1 vs 0' under a uniform prior is implied by ε-DP (sum two edge inequalities)."""
    pf = _bit_secret()
    dp = DifferentialPrivacy.hamming(2, exp_eps=3)
    assert dp.row_cone().issubset(pf.row_cone()).holds
    back = pf.row_cone().issubset(dp.row_cone())
    assert not back.holds
    x, a = back.witness, back.violated_normal
    assert pf.contains_row(x).member and not dp.contains_row(x).member and np.dot(a, x) < 0
    # a concrete mechanism: allowed by the Pufferfish instance, not ε-DP
    M = Mechanism([["1/2", 0, 0, "1/2"], ["1/2", 1, 1, "1/2"]], inputs=H2)
    assert pf.contains(M).member and not dp.contains(M).member


def test_strictly_stronger_than_dp_all_pairs_discriminative() -> None:
    """Singleton secrets with *all* pairs discriminative is ε-DP on K_4 ⊊ ε-DP on the Hamming graph."""
    pf = Pufferfish.from_graph(complete_graph(H2), exp_eps=3)
    dp = DifferentialPrivacy.hamming(2, exp_eps=3)
    assert pf.row_cone().issubset(dp.row_cone()).holds
    back = dp.row_cone().issubset(pf.row_cone())
    assert not back.holds
    assert not pf.contains(randomized_response(2, "3/4")).member  # 11 vs 00: ratio 9 > 3
    assert dp.contains(randomized_response(2, "3/4")).member


def test_correlated_prior_is_incomparable_with_dp() -> None:
    """Prior θ(11) = θ(00) = 1/2 (bits perfectly correlated): the secret 'bit 1' becomes x11 vs x00."""
    pf = Pufferfish(
        H2, {"b1": ["11", "10"], "b0": ["01", "00"]}, [("b1", "b0")], [{"11": "1/2", "00": "1/2"}], exp_eps=3
    )
    dp = DifferentialPrivacy.hamming(2, exp_eps=3)
    assert not pf.row_cone().issubset(dp.row_cone()).holds
    assert not dp.row_cone().issubset(pf.row_cone()).holds
    cond = {tuple(int(v) for v in c.normal) for c in pf.conditions}
    assert cond == {(-1, 0, 0, 3), (3, 0, 0, -1)}


def test_several_priors_intersect() -> None:
    priors = [[F(1, 4)] * 4, {"11": "1/2", "00": "1/2"}]
    both = Pufferfish(H2, {"b1": ["11", "10"], "b0": ["01", "00"]}, [("b1", "b0")], priors, exp_eps=2)
    one = [Pufferfish(H2, {"b1": ["11", "10"], "b0": ["01", "00"]}, [("b1", "b0")], [p], exp_eps=2) for p in priors]
    assert both.row_cone() == one[0].row_cone().intersect(one[1].row_cone())


@pytest.mark.parametrize("seed", range(6))
def test_contains_is_row_by_row(seed: int) -> None:
    pf = Pufferfish.load(DATA / "correlated.json")
    rng = np.random.default_rng(seed)
    raw = rng.integers(1, 5, size=(3, 3))
    M = Mechanism([[F(int(raw[o, i]), int(raw[:, i].sum())) for i in range(3)] for o in range(3)], inputs=pf.inputs)
    cone = pf.row_cone()
    expected = all(cone.contains(x).member for x in M.matrix)
    ans = pf.contains(M)
    assert ans.member == expected and ans.exact
    if not ans.member:
        c = ans.certificate
        assert sum(a * b for a, b in zip(c.normal, M.matrix[c.row])) == c.value < 0


def test_contains_row_builds_a_member() -> None:
    pf = _bit_secret(exp_eps=2)
    for x in ([1, 0, 0, 1], [3, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]):
        ans = pf.contains_row(x)
        assert ans.member and isinstance(ans.witness, CompletionWitness)
        W = ans.witness
        assert pf.contains(W.mechanism).member
        assert [W.scale * v for v in W.mechanism.row(0)] == [F(v) for v in x]
    no = pf.contains_row([1, 1, 0, 0])
    assert not no.member and "[prior 0]" in no.certificate.inequality


def test_json_round_trip_and_specs(tmp_path: Path) -> None:
    pf = Pufferfish.load(DATA / "bit_secret.json")
    assert pf.spec() == f"pufferfish:file={DATA / 'bit_secret.json'}"
    again = parse_definition(pf.spec())
    assert isinstance(again, Pufferfish) and again.row_cone() == pf.row_cone()
    inline = Pufferfish(pf.inputs, pf.secrets, pf.pairs, list(pf.priors), exp_eps=3)
    assert inline.spec().startswith("pufferfish:data=") and "=" not in inline.spec()[len("pufferfish:data=") :]
    assert parse_definition(inline.spec()).row_cone() == pf.row_cone()
    path = tmp_path / "saved.json"
    inline.save(path)
    assert json.loads(path.read_text())["exp_eps"] == "3"
    assert Pufferfish.load(path).row_cone() == pf.row_cone()
    flt = Pufferfish.load(DATA / "bit_secret_float.json")
    assert not flt.exact and flt.row_cone().to_exact(max_denominator=100) == pf.row_cone()
    ln = Pufferfish.from_json({**pf.to_dict(), "exp_eps": None, "eps": "ln(3)"})
    assert ln.exact and ln.level.exp_eps == 3


def test_bad_input_raises_typed_errors(tmp_path: Path) -> None:
    sec = {"s": ["11"], "t": ["00"]}
    with pytest.raises(DomainMismatchError, match="unknown datasets"):
        Pufferfish(H2, {"s": ["11", "zz"]}, [], [[F(1, 4)] * 4], exp_eps=2)
    with pytest.raises(InvalidInputError, match="unknown secret"):
        Pufferfish(H2, sec, [("s", "u")], [[F(1, 4)] * 4], exp_eps=2)
    with pytest.raises(InvalidInputError, match="itself"):
        Pufferfish(H2, sec, [("s", "s")], [[F(1, 4)] * 4], exp_eps=2)
    with pytest.raises(InvalidInputError, match="empty"):
        Pufferfish(H2, {"s": []}, [], [[F(1, 4)] * 4], exp_eps=2)
    with pytest.raises(InvalidParameterError, match="sums to 3/4"):
        Pufferfish(H2, sec, [("s", "t")], [[F(1, 4)] * 3 + [0]], exp_eps=2)
    with pytest.raises(InvalidParameterError, match="negative"):
        Pufferfish(H2, sec, [("s", "t")], [[F(1, 2), F(1, 2), F(1, 4), F(-1, 4)]], exp_eps=2)
    with pytest.raises(InvalidParameterError, match="4 datasets"):
        Pufferfish(H2, sec, [("s", "t")], [[F(1, 2), F(1, 2)]], exp_eps=2)
    with pytest.raises(InvalidParameterError, match="exactly one"):
        Pufferfish(H2, sec, [("s", "t")], [[F(1, 4)] * 4])
    with pytest.raises(InvalidTypeError):
        Pufferfish(H2, sec, [("s", "t")], {"11": 1}, exp_eps=2)
    with pytest.raises(InvalidInputError, match="repeated"):
        Pufferfish(["a", "a"], {"s": ["a"]}, [], [[1, 0]], exp_eps=2)
    with pytest.raises(DomainMismatchError):
        Pufferfish(H2, sec, [("s", "t")], [{"zz": 1}], exp_eps=2)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(FormatError, match="not valid JSON"):
        Pufferfish.load(bad)
    with pytest.raises(FormatError, match="cannot read"):
        Pufferfish.load(tmp_path / "missing.json")
    with pytest.raises(FormatError, match="unknown keys"):
        Pufferfish.from_json({"datasets": ["a"], "secrets": {}, "pairs": [], "priors": [], "colour": 1})
    with pytest.raises(FormatError, match="missing keys"):
        Pufferfish.from_json({"datasets": ["a"]})
    with pytest.raises(FormatError, match="exactly one of file"):
        parse_definition("pufferfish:")
    with pytest.raises(FormatError, match="base64"):
        parse_definition("pufferfish:data=***")
    pf = _bit_secret()
    with pytest.raises(DomainMismatchError):
        pf.contains(randomized_response(3, "3/4"))
    with pytest.raises(DomainMismatchError):
        pf.contains_row([1, 2, 3])
