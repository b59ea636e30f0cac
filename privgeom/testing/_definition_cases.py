"""Privacy-definition cases shared by the contract tests (:mod:`privgeom.testing`).

Each :class:`DefinitionCase` builds one definition and lists mechanisms that theory says are members of its
consistent closure (its own mechanisms, post-processings, mixtures) and mechanisms that are not. Later definitions
((ε,δ)-DP, Pufferfish, FRAPP …) are added by appending to :data:`CASES` (or to
:data:`privgeom.testing.CATALOGUE_CASES`); every check of the contract then runs on them
(``tests/definitions/test_contract.py``), for every membership method the definition lists in
``membership_methods``.

Fields
------
id : str
    pytest id.
make : callable () -> PrivacyDefinition
members, non_members : callable (definition) -> list of Mechanism
    Known answers (from theory, not from privgeom).
float_twin : callable () -> PrivacyDefinition, optional
    The same definition in float mode (exact/float agreement is checked on every listed mechanism).
row_cone : bool
    Whether ``row_cone()`` is small enough to compute in the contract tests.
rows_in, rows_out : callable (definition) -> list of vectors, optional
    Vectors known to be inside / outside the row cone (for ``contains_row``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction as F
from typing import Any, Callable

import numpy as np

from privgeom import Mechanism, mixture, randomized_response
from privgeom import Cone
from privgeom.definitions import (
    ConeDefinition,
    DifferentialPrivacy,
    FiniteDefinition,
    PrivacyDefinition,
    RandomizedResponse,
)


@dataclass(frozen=True)
class DefinitionCase:
    id: str
    make: Callable[[], PrivacyDefinition]
    members: Callable[[PrivacyDefinition], list[Mechanism]]
    non_members: Callable[[PrivacyDefinition], list[Mechanism]]
    float_twin: Callable[[], PrivacyDefinition] | None = None
    row_cone: bool = True
    rows_in: Callable[[PrivacyDefinition], list[Any]] = field(default=lambda d: [])
    rows_out: Callable[[PrivacyDefinition], list[Any]] = field(default=lambda d: [])


# ---------------------------------------------------------------------------------------------------- helpers
def stochastic(n_out: int, n_in: int, seed: int) -> list[list[F]]:
    """A column-stochastic rational matrix with small denominators (deterministic)."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 5, size=(n_out, n_in))
    raw[0, raw.sum(axis=0) == 0] = 1
    sums = raw.sum(axis=0)
    return [[F(int(raw[o, i]), int(sums[i])) for i in range(n_in)] for o in range(n_out)]


def post(M: Mechanism, n_out: int, seed: int) -> Mechanism:
    """A random post-processing ``A ∘ M``."""
    return M.post_process(stochastic(n_out, M.n_outputs, seed))


def constant(inputs: tuple[str, ...], dist: list[Any]) -> Mechanism:
    """A mechanism that ignores its input (a post-processing of anything)."""
    return Mechanism([[v] * len(inputs) for v in dist], inputs=inputs)


def identity(inputs: tuple[str, ...]) -> Mechanism:
    """The mechanism that reveals the dataset."""
    n = len(inputs)
    return Mechanism([[int(i == j) for j in range(n)] for i in range(n)], inputs=inputs)


def bit_reveal(k: int) -> Mechanism:
    """Reveal the first bit exactly (bit strings in reverse lexicographic order)."""
    from privgeom.mechanisms._factories import bit_strings

    labels = bit_strings(k)
    return Mechanism([[int(s[0] == "1") for s in labels], [int(s[0] == "0") for s in labels]], inputs=labels)


# ---------------------------------------------------------------------------------------------------- RR
def _rr_members(d: PrivacyDefinition) -> list[Mechanism]:
    assert isinstance(d, RandomizedResponse)
    k, p = d.k, d.p
    M = randomized_response(k, p)
    weaker = randomized_response(k, (F(1, 2) + F(p)) / 2)  # 1/2 < p' < p
    return [
        M,
        weaker,  # Theorem 4.3: RR(p') is a post-processing of RR(p) for 1/2 < p' < p
        post(M, 3, seed=1),
        mixture([post(M, 2, seed=2), post(weaker, 2, seed=3)], ["1/3", "2/3"]),
        constant(M.inputs, ["1/4", "3/4"]),
    ]


def _rr_non_members(d: PrivacyDefinition) -> list[Mechanism]:
    assert isinstance(d, RandomizedResponse)
    k, p = d.k, d.p
    stronger = randomized_response(k, (1 + F(p)) / 2)  # p < p' ≤ 1: more accurate, not in the closure
    out = [stronger, identity(stronger.inputs), bit_reveal(k)]
    return out


def _rr_rows_out(d: PrivacyDefinition) -> list[Any]:
    n = d.n_inputs
    return [[1] + [0] * (n - 1), [0] * (n - 1) + [1]]


def _rr_case(k: int, p: str) -> DefinitionCase:
    return DefinitionCase(
        id=f"rr-k{k}-p{p.replace('/', '_')}",
        make=lambda: RandomizedResponse(k, p),
        members=_rr_members,
        non_members=_rr_non_members,
        float_twin=lambda: RandomizedResponse(k, float(F(p))),
        rows_in=lambda d: [list(r) for r in randomized_response(k, p).matrix] + [[1] * d.n_inputs],
        rows_out=_rr_rows_out,
    )


# ---------------------------------------------------------------------------------------------------- finite
_THREE_BY_TWO: list[list[Any]] = [["1/2", 0], ["1/2", "1/2"], [0, "1/2"]]


def _m32() -> Mechanism:
    return Mechanism(_THREE_BY_TWO, inputs=["a", "b"])


def _three_by_two() -> DefinitionCase:
    return DefinitionCase(
        id="finite-3x2",
        make=lambda: FiniteDefinition([_m32()]),
        members=lambda d: [
            _m32(),
            post(_m32(), 2, seed=5),
            Mechanism([["1/2", "1/4"], ["1/2", "3/4"]], inputs=["a", "b"]),
            constant(("a", "b"), [1]),
        ],
        # identity: rows (1,0), (0,1) lie in the row cone (the whole orthant) but it is not in the closure
        non_members=lambda d: [identity(("a", "b")), Mechanism([[1, "1/4"], [0, "3/4"]], inputs=["a", "b"])],
        float_twin=lambda: FiniteDefinition([_m32().to_float()]),
        rows_in=lambda d: [[1, 0], [0, 1], ["1/3", "2/3"]],
        rows_out=lambda d: [[-1, 1]],
    )


def _two_mechanisms() -> FiniteDefinition:
    A = Mechanism([["2/3", "1/3", "1/3"], ["1/3", "2/3", "1/3"], [0, 0, "1/3"]], inputs=["x", "y", "z"])
    B = Mechanism([["1/2", "1/4", "1/4"], ["1/2", "3/4", "3/4"]], inputs=["x", "y", "z"])
    return FiniteDefinition([A, B])


def _two_members(d: PrivacyDefinition) -> list[Mechanism]:
    assert isinstance(d, FiniteDefinition)
    A, B = d.mechanisms
    return [A, B, mixture([post(A, 2, seed=7), post(B, 2, seed=8)], ["1/4", "3/4"]), mixture([A, B], ["1/2", "1/2"])]


def _two_case() -> DefinitionCase:
    return DefinitionCase(
        id="finite-two-mechanisms",
        make=_two_mechanisms,
        members=_two_members,
        non_members=lambda d: [identity(("x", "y", "z")), Mechanism([[1, 0, 0], [0, 1, 1]], inputs=["x", "y", "z"])],
        float_twin=lambda: FiniteDefinition([M.to_float() for M in _two_mechanisms().mechanisms]),
        rows_in=lambda d: [["2/3", "1/3", "1/3"], ["1/2", "3/4", "3/4"]],
        rows_out=lambda d: [[1, 0, 0], [0, 1, 0]],
    )


# ---------------------------------------------------------------------------------------------------- DP
def _dp_hamming_members(d: PrivacyDefinition) -> list[Mechanism]:
    M = randomized_response(2, "3/4")  # ratio p/(1-p) = 3 = e^eps: on the boundary
    return [
        M,
        randomized_response(2, "2/3"),
        post(M, 3, seed=11),
        constant(M.inputs, ["1/5", "4/5"]),
        mixture([M, randomized_response(2, "3/5")], ["1/2", "1/2"]),
    ]


def _dp_hamming() -> DefinitionCase:
    return DefinitionCase(
        id="dp-hamming2-exp3",
        make=lambda: DifferentialPrivacy.hamming(2, exp_eps=3),
        members=_dp_hamming_members,
        non_members=lambda d: [randomized_response(2, "4/5"), identity(tuple(d.inputs)), bit_reveal(2)],
        float_twin=lambda: DifferentialPrivacy.hamming(2, exp_eps=3.0),
        rows_in=lambda d: [[9, 3, 3, 1], [1, 1, 1, 1]],
        rows_out=lambda d: [[4, 1, 1, 1], [1, 0, 0, 0]],
    )


def _geometric(n: int, r: F) -> Mechanism:
    """Truncated geometric mechanism on counts 0..n with ratio r (satisfies DP with e^eps = r on the path)."""
    q = 1 / r
    rows = []
    for o in range(n + 1):
        row = []
        for c in range(n + 1):
            if o in (0, n):
                row.append(q ** abs(o - c) / (1 + q))
            else:
                row.append(q ** abs(o - c) * (1 - q) / (1 + q))
        rows.append(row)
    return Mechanism(rows, inputs=[str(c) for c in range(n + 1)])


def _dp_path() -> DefinitionCase:
    return DefinitionCase(
        id="dp-path3-exp2",
        make=lambda: DifferentialPrivacy.path(3, exp_eps=2),
        members=lambda d: [_geometric(3, F(2)), _geometric(3, F(3, 2)), post(_geometric(3, F(2)), 2, seed=13)],
        non_members=lambda d: [_geometric(3, F(3)), identity(tuple(d.inputs))],
        float_twin=lambda: DifferentialPrivacy.path(3, eps=float(np.log(2.0))),
        rows_in=lambda d: [[1, 2, 4, 8], [1, 1, 1, 1]],
        rows_out=lambda d: [[1, 3, 3, 3]],
    )


def _krr(n: int, r: F) -> Mechanism:
    """k-ary randomized response: report the truth w.p. r/(r+n-1), each other value w.p. 1/(r+n-1)."""
    return Mechanism(
        [[r / (r + n - 1) if i == j else 1 / (r + n - 1) for j in range(n)] for i in range(n)],
        inputs=[str(i) for i in range(n)],
    )


def _dp_complete() -> DefinitionCase:
    return DefinitionCase(
        id="dp-complete3-ln2",
        make=lambda: DifferentialPrivacy.complete(3, eps="ln(2)"),
        members=lambda d: [_krr(3, F(2)), _krr(3, F(3, 2)), post(_krr(3, F(2)), 2, seed=17)],
        non_members=lambda d: [_krr(3, F(3)), identity(tuple(d.inputs))],
        float_twin=lambda: DifferentialPrivacy.complete(3, eps=float(np.log(2.0))),
        rows_in=lambda d: [[2, 1, 1]],
        rows_out=lambda d: [[3, 1, 1]],
    )


# ---------------------------------------------------------------------------------------------------- cone definitions
def _cone_rr() -> DefinitionCase:
    """The RR(2, 3/4) row cone as a cone definition: the same members as RR (its closure is decided by the cone)."""
    base = RandomizedResponse(2, "3/4")
    return DefinitionCase(
        id="cone-rr2-3_4",
        make=lambda: ConeDefinition(RandomizedResponse(2, "3/4").row_cone()),
        members=lambda d: _rr_members(base),
        non_members=lambda d: _rr_non_members(base),
        float_twin=lambda: ConeDefinition(RandomizedResponse(2, "3/4").row_cone().to_float()),
        rows_in=lambda d: [list(r) for r in randomized_response(2, "3/4").matrix] + [[1] * 4],
        rows_out=_rr_rows_out,
    )


def _cone_dp_generators() -> DefinitionCase:
    """ε-DP on the path 0-1-2-3 at e^ε = 2, given by its extreme rays (V-representation)."""

    def make() -> ConeDefinition:
        return ConeDefinition(
            Cone.from_generators(DifferentialPrivacy.path(3, exp_eps=2).row_cone().rays, labels=["0", "1", "2", "3"])
        )

    return DefinitionCase(
        id="cone-dp-path3-rays",
        make=make,
        members=lambda d: [_geometric(3, F(2)), _geometric(3, F(3, 2)), post(_geometric(3, F(2)), 2, seed=13)],
        non_members=lambda d: [_geometric(3, F(3)), identity(tuple(d.inputs))],
        float_twin=lambda: ConeDefinition(make().row_cone().to_float()),
        rows_in=lambda d: [[1, 2, 4, 8], [1, 1, 1, 1]],
        rows_out=lambda d: [[1, 3, 3, 3]],
    )


def _tight_cone() -> Cone:
    # x_a ≥ x_b is tight at 1, so members have x_a = x_b on every row; 2 x_a ≥ x_c.
    return Cone.from_facets([[1, -1, 0], [2, 0, -1]], labels=["a", "b", "c"])


def _cone_with_equality() -> DefinitionCase:
    return DefinitionCase(
        id="cone-face-equality",
        make=lambda: ConeDefinition(_tight_cone()),
        members=lambda d: [
            Mechanism([["1/2", "1/2", "1/4"], ["1/2", "1/2", "3/4"]], inputs=["a", "b", "c"]),
            constant(("a", "b", "c"), ["1/3", "2/3"]),
        ],
        non_members=lambda d: [
            Mechanism([[1, 0, "1/2"], [0, 1, "1/2"]], inputs=["a", "b", "c"]),
            Mechanism([["1/4", "1/4", 1], ["3/4", "3/4", 0]], inputs=["a", "b", "c"]),
            identity(("a", "b", "c")),
        ],
        float_twin=lambda: ConeDefinition(_tight_cone().to_float()),
        rows_in=lambda d: [[1, 1, 2], [1, 1, 0]],
        rows_out=lambda d: [[1, 0, 0], [1, 1, 3]],
    )


#: Every definition the contract tests run on. Append new cases here.
CASES: list[DefinitionCase] = [
    _rr_case(1, "3/4"),
    _rr_case(2, "3/4"),
    _rr_case(3, "2/3"),
    _three_by_two(),
    _two_case(),
    _dp_hamming(),
    _dp_path(),
    _dp_complete(),
    _cone_rr(),
    _cone_dp_generators(),
    _cone_with_equality(),
]
