"""Contract-test cases for the catalogue definitions, in the format of :mod:`privgeom.testing`.

``CATALOGUE_CASES`` lists :class:`~privgeom.testing.DefinitionCase` objects for (ε, δ)-DP (δ > 0 and
δ = 0), Pufferfish (from JSON files, inline ``data=`` specs and the DP-equivalent instance), the truncated geometric
mechanism, FRAPP (one and two records) and k-ary randomized response. Every known answer below comes from theory
(hand-computed hockey-stick values, Pufferfish conditions, the closed forms of ``privgeom.definitions._catalogue``),
not from privgeom.

``tests/catalogue/test_catalogue_contract.py`` runs every shared contract check on them; the mechanism builders are
those of :mod:`privgeom.testing`, reused rather than copied.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any, cast

from privgeom import Mechanism, mixture, randomized_response
from privgeom.graphs._graphs import hamming_graph, path_graph
from privgeom.definitions import PrivacyDefinition
from privgeom import ApproximateDP
from privgeom import FrappDefinition, GeometricDefinition, KaryRRDefinition
from privgeom import Pufferfish
from privgeom import frapp, kary_randomized_response, truncated_geometric

from ._definition_cases import DefinitionCase, bit_reveal, constant, identity, post

#: The Pufferfish JSON files of the catalogue tests.
DATA = Path(__file__).resolve().with_name("data")

# ---------------------------------------------------------------------------------------------------- helpers
# The shared contract suite's builders, reused rather than copied.
first_bit = bit_reveal


def two_row(x: list[Any], inputs: tuple[str, ...]) -> Mechanism:
    """``[[x], [1 − x]]`` (x with entries in [0, 1])."""
    return Mechanism([[F(v) for v in x], [1 - F(v) for v in x]], inputs=inputs)


H2 = tuple(hamming_graph(2).nodes)  # ('11', '10', '01', '00')


# ---------------------------------------------------------------------------------------------------- (ε, δ)-DP
# Hand computation (rows and columns ordered 11, 10, 01, 00): RR(2, p) has columns ⊗[[p, 1-p], [1-p, p]].
# Hockey stick of the edge 11 -> 10 at e^ε = 2 (the worst edge by symmetry):
#   p = 3/4: M(11) = (9, 3, 3, 1)/16, M(10) = (3, 9, 1, 3)/16: (9 - 6)/16 + (3 - 2)/16 = 1/4      -> member for δ = 1/4
#   p = 4/5: M(11) = (16, 4, 4, 1)/25, M(10) = (4, 16, 1, 4)/25: (16 - 8)/25 + (4 - 2)/25 = 2/5   -> not a member
#   p = 2/3: M(11) = (4, 2, 2, 1)/9,  M(10) = (2, 4, 1, 2)/9:  ratios ≤ 2 everywhere: 0           -> member
# [[x/4], [1 - x/4]] for x = (1, 0, 0, 0): hockey stick = total variation = 1/4 on the edges at 11 -> member (not ε-DP).
# identity: 1 on every edge -> not a member; the first bit: also 1.
def _adp_members(d: PrivacyDefinition) -> list[Mechanism]:
    M = randomized_response(2, "3/4")
    return [
        M,
        randomized_response(2, "2/3"),
        post(M, 3, seed=21),
        constant(H2, ["1/3", "2/3"]),
        mixture([M, randomized_response(2, "3/5")], ["1/2", "1/2"]),
        two_row(["1/4", 0, 0, 0], H2),
    ]


def _adp_case() -> Any:
    return DefinitionCase(
        id="adp-hamming2-exp2-delta1_4",
        make=lambda: ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/4"),
        members=_adp_members,
        non_members=lambda d: [
            randomized_response(2, "4/5"),
            identity(H2),
            first_bit(2),
            two_row(["1/2", 0, 0, 0], H2),
        ],
        float_twin=lambda: ApproximateDP(hamming_graph(2), exp_eps=2.0, delta=0.25),
        rows_in=lambda d: [[1, 0, 0, 0], [0, 0, 0, 1], [9, 3, 3, 1], [0, 0, 0, 0]],
        rows_out=lambda d: [[-1, 1, 1, 1], [0, 0, "-1/2", 0]],
    )


def _adp_pure_case() -> Any:
    # δ = 0 is ε-DP on the path with e^ε = 2: the geometric mechanism with α = 1/2 is on the boundary, α = 1/3 is not DP
    return DefinitionCase(
        id="adp-path2-exp2-delta0",
        make=lambda: ApproximateDP(path_graph(2), exp_eps=2, delta=0),
        members=lambda d: [
            truncated_geometric(2, "1/2"),
            truncated_geometric(2, "2/3"),
            post(truncated_geometric(2, "1/2"), 2, 23),
        ],
        non_members=lambda d: [truncated_geometric(2, "1/3"), identity(("0", "1", "2"))],
        float_twin=lambda: ApproximateDP(path_graph(2), exp_eps=2.0, delta=0.0),
        rows_in=lambda d: [[1, 2, 4], [2, 1, 2]],
        rows_out=lambda d: [[1, 3, 3], [1, 0, 0]],
    )


# ---------------------------------------------------------------------------------------------------- Pufferfish
# bit_secret.json: secrets "bob=1" = {11, 10}, "bob=0" = {01, 00} (the first bit), uniform prior, e^ε = 3. The
# conditions are x11 + x10 ≤ 3 (x01 + x00) and x01 + x00 ≤ 3 (x11 + x10). ε-DP on the Hamming graph implies them
# (add x11 ≤ 3 x01 and x10 ≤ 3 x00), so RR(2, 3/4) is a member; the first bit violates them.
def _pf_bit_members(d: PrivacyDefinition) -> list[Mechanism]:
    M = randomized_response(2, "3/4")
    return [
        M,
        post(M, 2, seed=31),
        constant(H2, ["1/2", "1/2"]),
        two_row(["1/2", 0, 0, "1/2"], H2),  # not ε-DP (0 vs 1/2 on an edge) but fine for this secret
        mixture([M, two_row(["1/2", 0, 0, "1/2"], H2)], ["1/3", "2/3"]),
    ]


def _pf_bit_case() -> Any:
    return DefinitionCase(
        id="pufferfish-bit-secret-exp3",
        make=lambda: Pufferfish.load(DATA / "bit_secret.json"),
        members=_pf_bit_members,
        non_members=lambda d: [first_bit(2), identity(H2), two_row([1, "1/4", 0, 0], H2)],
        float_twin=lambda: Pufferfish.load(DATA / "bit_secret_float.json"),
        rows_in=lambda d: [[1, 0, 0, 1], [1, 1, 1, 1], [9, 3, 3, 1]],
        rows_out=lambda d: [[1, 1, 0, 0], [4, 0, 1, 0]],
    )


# correlated.json: datasets a, b, c; secrets {a} vs {b, c}; two priors: uniform and (1/2, 1/2, 0); e^ε = 2.
#   uniform:      x_a ≤ 2 (x_b + x_c)/2 = x_b + x_c  and  (x_b + x_c)/2 ≤ 2 x_a
#   (1/2, 1/2, 0): x_a ≤ 2 x_b  and  x_b ≤ 2 x_a
def _pf_corr_case() -> Any:
    abc = ("a", "b", "c")
    return DefinitionCase(
        id="pufferfish-two-priors-exp2",
        make=lambda: Pufferfish.load(DATA / "correlated.json"),
        members=lambda d: [
            two_row(["1/2", "1/2", "1/2"], abc),
            two_row(["1/2", "1/4", "1/2"], abc),
            Mechanism([["1/2", "1/4", "1/4"], ["1/2", "3/4", "3/4"]], inputs=abc),
        ],
        # (1/2, 1/8, 1/2): x_a = 1/2 > 2 x_b = 1/4 violates the second prior only
        non_members=lambda d: [two_row(["1/2", "1/8", "1/2"], abc), identity(abc)],
        rows_in=lambda d: [[1, 1, 0], [2, 1, 1], [1, 1, 1]],
        rows_out=lambda d: [[1, 0, 1], [4, 1, 1]],
    )


def _pf_dp_case() -> Any:
    # secrets = single datasets, pairs = edges of the path 0-1-2, uniform prior: exactly ε-DP with e^ε = 2
    return DefinitionCase(
        id="pufferfish-as-dp-path2-exp2",
        make=lambda: Pufferfish.from_graph(path_graph(2), exp_eps=2),
        members=lambda d: [truncated_geometric(2, "1/2"), truncated_geometric(2, "3/5")],
        non_members=lambda d: [truncated_geometric(2, "1/3"), identity(("0", "1", "2"))],
        float_twin=lambda: Pufferfish.from_graph(path_graph(2), exp_eps=2.0, prior=[0.25, 0.5, 0.25]),
        rows_in=lambda d: [[1, 2, 4]],
        rows_out=lambda d: [[1, 3, 3]],
    )


# ---------------------------------------------------------------------------------------------------- finite catalogue
# Geometric (n = 2, α = 1/2): closure = {M : M G^{-1} ≥ 0}. G(α') for α ≤ α' < 1 is a member (its rows satisfy the
# tridiagonal facets: (1+α²) α' ≥ α (1 + α'²) iff (α' − α)(1 − α α') ≥ 0). G(1/3) has ratio 3 > 2 = e^ε, so it is not
# even ε-DP. [[x/4], [1 − x/4]] with x = (2, 1, 2) is ε-DP (ratios 2 and 3/2) but violates the facet
# 5 x_1 − 2 x_0 − 2 x_2 ≥ 0 (value 5 − 8 < 0): the closure is strictly inside ε-DP.
def _geo_case() -> Any:
    inputs = ("0", "1", "2")
    return DefinitionCase(
        id="geometric-n2-alpha1_2",
        make=lambda: GeometricDefinition(2, "1/2"),
        members=lambda d: [
            truncated_geometric(2, "1/2"),
            truncated_geometric(2, "2/3"),
            post(truncated_geometric(2, "1/2"), 3, seed=41),
            constant(inputs, ["1/5", "4/5"]),
        ],
        non_members=lambda d: [truncated_geometric(2, "1/3"), identity(inputs), two_row(["1/2", "1/4", "1/2"], inputs)],
        float_twin=lambda: GeometricDefinition(2, 0.5),
        rows_in=lambda d: [[1, 1, 1], [4, 2, 1], [1, 2, 1]],
        rows_out=lambda d: [[2, 1, 2], [1, 1, 0]],
    )


# FRAPP on two binary records, γ = 3: FRAPP(γ') for 1 ≤ γ' ≤ γ is a post-processing (A(γ)^{-1} A(γ') ∝
# (γ+N−1)(γ'−1) I + (γ − γ') J ≥ 0, and Kronecker powers of non-negative matrices are non-negative); γ' = 4 is not.
def _frapp_case() -> Any:
    inputs = tuple(frapp(2, 3, 2).inputs)
    return DefinitionCase(
        id="frapp-N2-gamma3-k2",
        make=lambda: FrappDefinition(2, 3, 2),
        members=lambda d: [frapp(2, 3, 2), frapp(2, 2, 2), post(frapp(2, 3, 2), 2, seed=43)],
        non_members=lambda d: [frapp(2, 4, 2), identity(inputs)],
        float_twin=lambda: FrappDefinition(2, 3.0, 2),
        rows_in=lambda d: [[9, 3, 3, 1], [1, 1, 1, 1]],
        rows_out=lambda d: [[1, 0, 0, 0], [3, 1, 1, 0]],
    )


def _krr_case() -> Any:
    inputs = ("0", "1", "2", "3")
    return DefinitionCase(
        id="krr-n4-exp3",
        make=lambda: KaryRRDefinition(4, exp_eps=3),
        members=lambda d: [
            kary_randomized_response(4, exp_eps=3),
            kary_randomized_response(4, exp_eps=2),
            post(kary_randomized_response(4, exp_eps=3), 2, seed=47),
        ],
        # facets 5 x_z ≥ Σ_{i≠z} x_i (γ + N − 2 = 5): k-RR with e^ε = 4 has the row (4, 1, 1, 1)/7 and
        # 5·1 < 4 + 1 + 1 (facet z = 1); so does the vector (5, 1, 1, 1)
        non_members=lambda d: [kary_randomized_response(4, exp_eps=4), identity(inputs)],
        float_twin=lambda: KaryRRDefinition(4, exp_eps=3.0),
        rows_in=lambda d: [[3, 1, 1, 1], [1, 1, 1, 1]],
        rows_out=lambda d: [[5, 1, 1, 1], [1, 0, 0, 0]],
    )


# ---------------------------------------------------------------------------------------------------- local DP
# The deployed local-DP protocols as one-mechanism definitions {M} (docs/theory.md, "Deployed local-DP protocols").
# Members: M, post-processings, a mixture of post-processings, a constant. Non-members: every member is ε-LDP with
# the protocol's nominal ε (post-processing and mixing keep ε-DP), so k-ary randomized response at a larger e^ε and
# the identity (ε = ∞) are outside. Row cone: the rows of M (and their sum, the all-ones vector) are inside; a vector
# with two coordinates in ratio > e^ε (e_0, and (e^ε + 1, 1, …, 1)) is outside, since a non-negative combination of
# rows keeps every coordinate ratio within [e^-ε, e^ε].
def _ldp_case(id: str, spec: str, float_spec: str, t: F) -> Any:
    from privgeom import parse_definition

    def members(d: Any) -> list[Mechanism]:
        M = d.mechanism
        return [
            M,
            post(M, 3, seed=53),
            mixture([post(M, 2, seed=59), post(M, 2, seed=61)], ["1/3", "2/3"]),
            constant(d.inputs, ["1/2", "1/2"]),
        ]

    def non_members(d: Any) -> list[Mechanism]:
        return [kary_randomized_response(list(d.inputs), exp_eps=t + 1), identity(d.inputs)]

    def rows_out(d: Any) -> list[Any]:
        n = d.n_inputs
        return [[1] + [0] * (n - 1), [t + 1] + [1] * (n - 1)]

    return DefinitionCase(
        id=id,
        make=lambda: parse_definition(spec),
        members=members,
        non_members=non_members,
        float_twin=lambda: parse_definition(float_spec),
        rows_in=lambda d: [list(r) for r in cast(Any, d).mechanism.matrix[:3]] + [[1] * d.n_inputs],
        rows_out=rows_out,
    )


LDP_CASES: list[Any] = [
    _ldp_case("oue-d3-exp3", "oue:d=3,exp_eps=3", "oue:d=3,exp_eps=3,exact=false", F(3)),
    _ldp_case("sue-d3-exp4", "sue:d=3,exp_eps=4", "sue:d=3,exp_eps=4,exact=false", F(4)),
    _ldp_case("sue-d3-half3_2", "sue:d=3,exp_half_eps=3/2", "sue:d=3,exp_half_eps=3/2,exact=false", F(9, 4)),
    _ldp_case("olh-d3-exp3", "olh:d=3,exp_eps=3", "olh:d=3,exp_eps=3,exact=false", F(3)),
    _ldp_case("blh-d3-exp2", "blh:d=3,exp_eps=2", "blh:d=3,exp_eps=2,exact=false", F(2)),
    _ldp_case("hr-d3-exp3", "hr:d=3,exp_eps=3", "hr:d=3,eps=1.0986122886681098", F(3)),
    _ldp_case("ss-d4-s2-exp2", "ss:d=4,s=2,exp_eps=2", "ss:d=4,s=2,exp_eps=2,exact=false", F(2)),
]


#: The catalogue's cases for the shared contract suite.
CATALOGUE_CASES: list[Any] = [
    _adp_case(),
    _adp_pure_case(),
    _pf_bit_case(),
    _pf_corr_case(),
    _pf_dp_case(),
    _geo_case(),
    _frapp_case(),
    _krr_case(),
    *LDP_CASES,
]
