"""Properties of smoothed DP as executable checks (Liu, Wang & Xia, Theorem 1 and Propositions 1–5).

Each ``check_*`` function computes both sides of a statement of the paper on a finite instance — exactly, with
Fractions, when the inputs are rational and ``e^ε`` is rational — and returns a :class:`PropertyCheck`. The test suite
runs them on random instances small enough for brute force (``privgeom/testing/_smoothed_oracle.py``).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .._core.level import LevelLike, PrivacyLevel
from .._core.arrays import ATOL
from .._core.numbers import fraction_str, Scalar
from .._core.results import Decision
from ..analyses import delta as core_delta
from ..mechanisms import Mechanism
from ._catalogue import joint, precompose, push_forward
from ._database import database_delta
from ._domains import input_domain, neighbour_graph_of, record_values
from ._reduction import parse_distributions
from ._smoothed import expected_delta, smoothed_delta
from .._core.domain import RelationLike

__all__ = [
    "PropertyCheck",
    "check_dp_delta",
    "check_dp_implies_smoothed",
    "check_post_processing",
    "check_composition",
    "check_pre_processing",
    "check_distribution_reduction",
]

#: Largest number of outputs for which :func:`check_dp_delta` enumerates every event (``2^outputs`` subsets).
MAX_EVENT_OUTPUTS = 16


@dataclass(frozen=True)
class PropertyCheck(Decision):
    """Outcome of one property check: ``holds`` iff ``lhs <= rhs`` (or ``lhs == rhs`` for equalities).

    ``exact`` is True when both sides are exact Fractions; ``bool(check)`` is ``holds``."""

    name: str
    holds: bool
    lhs: Scalar
    rhs: Scalar
    relation: str
    exact: bool
    detail: str

    def summary(self) -> str:
        verdict = "holds" if self.holds else "FAILS"
        return f"{self.name}: {fraction_str(self.lhs)} {self.relation} {fraction_str(self.rhs)} — {verdict} ({self.detail})"


def _cmp(lhs: Scalar, rhs: Scalar, relation: str, atol: float) -> bool:
    exact = isinstance(lhs, Fraction) and isinstance(rhs, Fraction)
    if relation == "==":
        return lhs == rhs if exact else abs(float(lhs) - float(rhs)) <= atol
    return lhs <= rhs if exact else float(lhs) <= float(rhs) + atol


def _make(name: str, lhs: Scalar, rhs: Scalar, relation: str, detail: str, atol: float) -> PropertyCheck:
    exact = isinstance(lhs, Fraction) and isinstance(rhs, Fraction)
    return PropertyCheck(
        name=name, holds=_cmp(lhs, rhs, relation, atol), lhs=lhs, rhs=rhs, relation=relation, exact=exact, detail=detail
    )


def check_dp_delta(
    mechanism: Mechanism, eps: LevelLike, graph: RelationLike | None = None, *, atol: float = ATOL
) -> PropertyCheck:
    """Theorem 1: ``max_x δ_{ε,M}(x)`` equals the DP δ ``max_{x~x'} max_S P[M(x)∈S] − e^ε P[M(x')∈S]``.

    The right-hand side enumerates every event ``S`` (all ``2^|outputs|`` subsets, up to :data:`MAX_EVENT_OUTPUTS`
    outputs; beyond that
    the maximising event ``{y : P[M(x)=y] > e^ε P[M(x')=y]}``).

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> check_dp_delta(randomized_response(2, "3/4"), "ln(2)").holds
    True
    """
    level = PrivacyLevel.coerce(eps)
    e = level.exp_eps
    G = neighbour_graph_of(mechanism, graph, input_domain(mechanism))
    exact = mechanism.exact and isinstance(e, Fraction)
    mat = mechanism.matrix if exact else mechanism.float_matrix()
    idx = {s: i for i, s in enumerate(mechanism.inputs)}
    k = mechanism.n_outputs
    best: Scalar = Fraction(0) if exact else 0.0
    for u, v in G.edges:
        for i, j in ((idx[u], idx[v]), (idx[v], idx[u])):
            p, q = mat[:, i], mat[:, j]
            if k <= MAX_EVENT_OUTPUTS:
                for mask in range(1 << k):
                    S = [y for y in range(k) if mask >> y & 1]
                    val = sum((p[y] for y in S), 0 * e) - e * sum((q[y] for y in S), 0 * e)
                    best = max(best, val)
            else:
                S = [y for y in range(k) if p[y] > e * q[y]]
                best = max(best, sum((p[y] - e * q[y] for y in S), 0 * e))
    lhs = database_delta(mechanism, level, graph).delta
    detail = "max_x δ(x) vs max over neighbours and events"
    # the core's approximate-DP δ (privgeom.analyses.delta) must agree too
    core = core_delta(mechanism, G, level)
    value = core.delta
    agree = (
        value == best
        if isinstance(value, Fraction) and isinstance(best, Fraction)
        else abs(float(value) - float(best)) <= atol
    )
    detail += f"; privgeom.analyses.delta = {fraction_str(value)}"
    if not agree:
        return PropertyCheck(
            name="Theorem 1 (DP = worst case of δ(x))",
            holds=False,
            lhs=lhs,
            rhs=value,
            relation="==",
            exact=exact,
            detail=detail,
        )
    return _make("Theorem 1 (DP = worst case of δ(x))", lhs, best, "==", detail, atol)


def check_dp_implies_smoothed(
    mechanism: Mechanism, eps: LevelLike, distributions: Any, *, atol: float = ATOL
) -> PropertyCheck:
    """Proposition 1: the smoothed δ never exceeds the DP δ (``max_x δ(x)``).

    Examples
    --------
    >>> from privgeom.smoothed import majority_vote
    >>> check_dp_implies_smoothed(majority_vote(3, "1/2"), "ln(2)", ["1/5", "1/2"]).holds
    True
    """
    r = smoothed_delta(mechanism, eps, distributions)
    return _make("Proposition 1 (DP ⇒ smoothed DP)", r.value, r.dp_delta, "<=", f"n = {r.n}", atol)


def check_post_processing(
    mechanism: Mechanism, A: Any, eps: LevelLike, distributions: Any, *, atol: float = ATOL
) -> PropertyCheck:
    """Proposition 2: ``smoothed δ(A ∘ M) <= smoothed δ(M)`` for a column-stochastic ``A`` (randomised allowed).

    Examples
    --------
    >>> from privgeom.smoothed import shm
    >>> check_post_processing(shm(3, 2, inputs="count"), [[1, 1, 0], [0, 0, 1]], "ln(2)", ["1/3"]).holds
    True
    """
    after = smoothed_delta(mechanism.post_process(A), eps, distributions)
    before = smoothed_delta(mechanism, eps, distributions)
    return _make("Proposition 2 (post-processing)", after.value, before.value, "<=", "smoothed δ of A∘M vs of M", atol)


def check_composition(
    first: Mechanism, second: Mechanism, eps1: LevelLike, eps2: LevelLike, distributions: Any, *, atol: float = ATOL
) -> PropertyCheck:
    """Proposition 3: ``(M_1, M_2)`` is ``(ε_1 + ε_2, δ_1 + δ_2, Π)``-smoothed DP (the levels compose by
    ``PrivacyLevel`` addition, exact when both levels are).

    Examples
    --------
    >>> from privgeom.smoothed import majority_vote
    >>> M = majority_vote(2, "1/2")
    >>> check_composition(M, M, "ln(2)", "ln(3/2)", ["1/4", "1/2"]).holds
    True
    """
    d1 = smoothed_delta(first, eps1, distributions).value
    d2 = smoothed_delta(second, eps2, distributions).value
    both = smoothed_delta(
        joint(first, second), PrivacyLevel.coerce(eps1) + PrivacyLevel.coerce(eps2), distributions
    ).value
    return _make("Proposition 3 (composition)", both, d1 + d2, "<=", "smoothed δ of (M1, M2) at ε1+ε2 vs δ1 + δ2", atol)


def check_pre_processing(
    mechanism: Mechanism,
    f: Mapping[Any, Any],
    records: Sequence[Any],
    eps: LevelLike,
    distributions: Any,
    *,
    atol: float = ATOL,
) -> PropertyCheck:
    """Proposition 4: ``smoothed δ(M ∘ f, Π) <= smoothed δ(M, f(Π))`` for a deterministic record map ``f``.

    ``mechanism`` has database inputs over ``X'``; ``distributions`` are over ``records = X``.

    Examples
    --------
    >>> from privgeom.smoothed import majority_vote
    >>> M = majority_vote(2, "1/2", inputs="database")
    >>> check_pre_processing(M, {"a": 0, "b": 1, "c": 1}, "abc", "ln(2)", [["1/2", "1/4", "1/4"]]).holds
    True
    """
    rows, _ = parse_distributions(distributions, k=len(records))
    pushed = [push_forward(r, f, records, record_values(input_domain(mechanism, "database"))) for r in rows]
    lhs = smoothed_delta(precompose(mechanism, f, records), eps, rows, records=[str(r) for r in records]).value
    rhs = smoothed_delta(mechanism, eps, pushed).value
    return _make("Proposition 4 (pre-processing)", lhs, rhs, "<=", "smoothed δ of M∘f under Π vs of M under f(Π)", atol)


def check_distribution_reduction(
    mechanism: Mechanism, eps: LevelLike, distributions: Any, *, mixtures: int = 3, seed: int = 0, atol: float = ATOL
) -> PropertyCheck:
    """Proposition 5: the maximum over all of ``Π^n`` (brute force, every agent any member of ``Π``, plus random
    points of ``conv(Π)``) equals the maximum over the vertices of ``conv(Π)`` computed by :func:`smoothed_delta`.

    Examples
    --------
    >>> from privgeom.smoothed import majority_vote
    >>> check_distribution_reduction(majority_vote(3, "1/2"), "ln(2)", ["1/5", "1/3", "1/2"]).holds
    True
    """
    rows, exact = parse_distributions(distributions)
    reduced = smoothed_delta(mechanism, eps, rows)
    n = reduced.n
    best: Scalar | None = None
    for choice in itertools.product(range(len(rows)), repeat=n):
        val = expected_delta(mechanism, eps, [rows[c] for c in choice], records=reduced.records).value
        best = val if best is None or val > best else best
    rng = random.Random(seed)
    for _ in range(mixtures):
        agents = []
        for _a in range(n):
            w = [Fraction(rng.randint(0, 6)) for _ in rows]
            if sum(w) == 0:
                w[0] = Fraction(1)
            tot = sum(w)
            mix = [sum((wi / tot * r[j] for wi, r in zip(w, rows)), Fraction(0)) for j in range(len(rows[0]))]
            agents.append(mix if exact else [float(v) for v in mix])
        val = expected_delta(mechanism, eps, agents, records=reduced.records).value
        if val > reduced.value + (0 if exact and isinstance(val, Fraction) else atol):
            return _make(
                "Proposition 5 (distribution reduction)",
                val,
                reduced.value,
                "<=",
                "a point of conv(Π)^n beats the vertices",
                atol,
            )
    assert best is not None
    return _make(
        "Proposition 5 (distribution reduction)",
        best,
        reduced.value,
        "==",
        f"max over Π^n ({len(rows)}^{n} choices) vs over the {len(reduced.vertices)} vertices",
        atol,
    )
