"""What every definition shares through :class:`~privgeom.definitions.PrivacyDefinition` and the level mixin.

The base class holds the identity (``inputs``, ``exact``), the tolerance, the cone callback ``_cone_contains``, the
cached row cone, the certificate of a negative entry and the two-output completion of a row; the DP family
(ε-DP, (ε, δ)-DP, Pufferfish, k-ary RR, the local protocols) states its ε as ``level`` only. Each check runs on every
case of the core and catalogue contracts, against values recomputed here.
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from privgeom.testing import CATALOGUE_CASES
from privgeom.testing import CASES
from privgeom.testing import definition

from privgeom import LogRational, Mechanism, PrivacyLevel, randomized_response
from privgeom.testing import hamming_graph, path_graph
from privgeom.definitions import (
    ApproximateDP,
    DifferentialPrivacy,
    KaryRRDefinition,
    Pufferfish,
    RandomizedResponse,
    parse_definition,
)
from privgeom.results import HockeyStickWitness
from privgeom.results import CompletionWitness

ALL_CASES = [pytest.param(c, id=c.id) for c in list(CASES) + list(CATALOGUE_CASES)]


def _dot(normal: Any, x: Any) -> F:
    return sum((F(a) * F(b) for a, b in zip(normal, x)), F(0))


@pytest.mark.parametrize("case", ALL_CASES)
def test_cone_callback_agrees_with_contains_row(case: Any) -> None:
    """``_cone_contains`` (the callback a lazily built cone uses) answers as ``contains_row`` does, and a no carries
    an inequality that the vector violates (``normal · x = value < 0``, recomputed exactly)."""
    d = definition(case)
    M = case.members(d)[0]
    vectors = [list(M.matrix[0])] + list(case.rows_in(d)) + list(case.rows_out(d))
    for x in vectors[:6]:
        vec = np.array([F(v) for v in x], dtype=object) if d.exact else np.array([float(v) for v in x])
        test = d._cone_contains(vec, d.exact, 1e-9)
        assert isinstance(test, tuple) and test._fields == ("member", "normal", "value")  # the RowTest named tuple
        assert test.member == d.contains_row(x).member, (case.id, x)
        if not test.member:
            assert test.value < 0 and _dot(test.normal, x) == (F(test.value) if d.exact else _dot(test.normal, x))


@pytest.mark.parametrize("case", ALL_CASES)
def test_negative_entry_is_refused_with_its_inequality(case: Any) -> None:
    """Every row cone lies in the orthant (rows of mechanisms are probabilities): ``(-1, 1, …, 1)`` is a no whose
    certificate ``normal · x`` is negative; where the shared certificate is used it is ``x_0 ≥ 0`` itself."""
    d = definition(case)
    x = [-1] + [1] * (d.n_inputs - 1)
    ans = d.contains_row(x)
    assert not ans.member and not bool(ans)
    assert _dot(ans.certificate.normal, x) < 0
    if ans.certificate.label == "nonnegative":
        assert ans.certificate.inequality == f"x[{d.inputs[0]}] ≥ 0" and ans.certificate.value == -1


@pytest.mark.parametrize("case", ALL_CASES)
def test_identity_comes_from_the_base_class(case: Any) -> None:
    d = definition(case)
    if "_inputs" in vars(d):  # randomized response lists its 2^k labels on first use instead
        assert d.inputs is d._inputs
    assert d.exact is d._exact and d.n_inputs == len(d.inputs)
    assert d._tol(None) == d._atol and d._tol(0.5) == 0.5
    if isinstance(d, (DifferentialPrivacy, RandomizedResponse, ApproximateDP, Pufferfish)):
        assert d.row_cone() is d.row_cone()  # built once (_cached_row_cone)


def test_membership_answers_holds_like_every_decision() -> None:
    # RR(2/3) is in the closure of RR(3/4) (1/2 <= 2/3 <= 3/4): .holds is the vocabulary, .member its synonym
    ans = RandomizedResponse(2, "3/4").contains(randomized_response(2, "2/3"))
    assert ans.holds is ans.member is True and bool(ans)


# ---------------------------------------------------------------------------------------------------- levels
def test_dp_family_states_its_level_only() -> None:
    dp = DifferentialPrivacy.hamming(2, eps="ln(3)")
    adp = ApproximateDP(dp, delta="1/4")
    pf = Pufferfish.from_graph(path_graph(2), exp_eps=3)
    krr = KaryRRDefinition(4, p="1/2")  # γ = p (n − 1) / (1 − p) = 3 (Kairouz, Oh & Viswanath)
    oue = parse_definition("oue:d=3,exp_eps=3")
    for d in (dp, adp, pf, krr, oue):
        assert d.level == PrivacyLevel.from_exp_eps(3) and d.level.eps == LogRational(3), d
        assert not hasattr(d, "exp_eps") and not hasattr(d, "eps"), d
    sue = parse_definition("sue:d=3,exp_half_eps=2")  # e^{ε/2} = 2, so e^ε = 4
    assert sue.level.exp_eps == 4 and str(sue.level) == "ln(4)"


def test_a_float_part_makes_the_level_float() -> None:
    """A float δ or a float prior makes the whole definition float, its level included (same e^ε as a float)."""
    adp = ApproximateDP(hamming_graph(2), exp_eps=3, delta=0.25)
    assert not adp.exact and not adp.level.exact and adp.level.exp_eps == 3.0
    pf = Pufferfish.from_graph(path_graph(1), exp_eps=2, prior=[0.5, 0.5])
    assert not pf.exact and not pf.level.exact and pf.level.exp_eps == 2.0
    assert pf.name.startswith(f"Pufferfish(eps={math.log(2):.6g},")
    dp = DifferentialPrivacy.path(2, eps=1.5)
    assert not dp.level.exact and dp.level.eps == 1.5 and dp.level.exp_eps == pytest.approx(math.exp(1.5))


def test_hockey_stick_proofs_state_the_level_they_used() -> None:
    adp = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/4")
    M = randomized_response(2, "3/4")
    yes = adp.contains(M)
    assert isinstance(yes.witness, HockeyStickWitness) and yes.witness.level == adp.level
    assert max(yes.witness.values) == F(1, 4)  # RR(2, 3/4) at e^ε = 2: δ = 1/4 (hockey stick on the corner edge)
    no = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/5").contains(M)
    c = no.certificate
    assert c.level.exp_eps == 2 and c.value == c.p_from - 2 * c.p_to == F(1, 4) and c.verify(M)
    flt = adp.contains(M.to_float())  # a float mechanism: float hockey stick, float level
    assert not flt.exact and not flt.witness.level.exact and flt.witness.level.exp_eps == 2.0


def test_completion_witness_is_shared() -> None:
    """ADP (δ > 0) and Pufferfish prove ``x ≥ 0`` in the row cone by the member ``[[x / scale], [1 − x / scale]]``."""
    for d, x in (
        (ApproximateDP(hamming_graph(1), exp_eps=2, delta="1/2"), [3, 1]),
        (Pufferfish.from_graph(path_graph(1), exp_eps=2), [1, 2]),
    ):
        ans = d.contains_row(x)
        w = ans.witness
        assert ans.member and isinstance(w, CompletionWitness) and w.membership.member
        row = w.mechanism.row(0)
        assert [w.scale * v for v in row] == [F(v) for v in x]
        assert all(a + b == 1 for a, b in zip(row, w.mechanism.row(1)))
    pf = Pufferfish.from_graph(path_graph(1), exp_eps=2)
    assert not pf.contains(Mechanism([[1, 0], [0, 1]], inputs=pf.inputs)).member  # the identity is not 2-Pufferfish
