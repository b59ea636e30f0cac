"""Theorem 3.4 (Lin & Kifer): the consistent closure is every mixture of post-processings.

Builds Priv(1) (post-processings A ∘ M) and Priv(2) (mixtures) of a two-mechanism definition with random exact
post-processings, checks each is in closure(Priv) by the LP of the reference page, and re-builds it from the witness
``M' = Σ_j λ_j A_j M_j`` exactly. Then shows a non-member with its separating certificate, and the 3x2 example where
the row cone does *not* decide closure membership.

Run: python examples/rr_closure_theorem_3_4.py [--seed N]
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction

import numpy as np

import privgeom as pg


def random_stochastic(rng: random.Random, n_out: int, n_in: int) -> list[list[Fraction]]:
    cols = []
    for _ in range(n_in):
        w = [Fraction(rng.randint(0, 4)) for _ in range(n_out)]
        if not any(w):
            w[0] = Fraction(1)
        cols.append([v / sum(w) for v in w])
    return [[cols[j][i] for j in range(n_in)] for i in range(n_out)]


def rebuild(witness, mechanisms):
    total = None
    for j, lam, A in zip(witness.components, witness.weights, witness.post_processings):
        term = lam * np.asarray(A, dtype=object).dot(mechanisms[j].matrix)
        total = term if total is None else total + term
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--trials", type=int, default=4)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    M1 = pg.randomized_response(2, "3/4")
    first_bit = pg.randomized_response(1, "9/10").product(pg.Mechanism([[1, 1]], inputs=["1", "0"], outputs=["*"]))
    priv = pg.FiniteDefinition([M1, first_bit])
    print(f"Priv = {{RR(k=2, p=3/4), RR(p=9/10) on the first bit only}} over datasets {', '.join(priv.inputs)}")

    print("\nPriv(1) and Priv(2) of Theorem 3.4 are inside closure(Priv):")
    for t in range(args.trials):
        A1 = random_stochastic(rng, 3, M1.n_outputs)
        A2 = random_stochastic(rng, 3, first_bit.n_outputs)
        lam = Fraction(rng.randint(1, 9), 10)
        candidate = pg.mixture(
            [M1.post_process(A1, outputs=["a", "b", "c"]), first_bit.post_process(A2, outputs=["a", "b", "c"])],
            [lam, 1 - lam],
        )
        ans = priv.contains(candidate, method="lp")
        rebuilt = rebuild(ans.witness, priv.mechanisms)
        exact_match = bool(np.all(rebuilt == candidate.matrix))
        print(
            f"  trial {t}: λ = {lam}: member = {ans.member} [{ans.method}], witness rebuilds M' exactly: {exact_match}"
        )
        assert ans.member and exact_match

    identity = pg.Mechanism(np.eye(4, dtype=int), inputs=priv.inputs)
    ans = priv.contains(identity)
    print(f"\nThe identity (publish the data) is not in the closure: member = {ans.member} [{ans.method}]")
    print(f"  certificate: {ans.certificate.summary()}")
    assert not ans.member

    tricky = pg.FiniteDefinition([pg.Mechanism([["1/2", 0], ["1/2", "1/2"], [0, "1/2"]])])
    ident2 = pg.Mechanism([[1, 0], [0, 1]])
    ans = tricky.contains(ident2)
    cone = tricky.row_cone()
    print(
        "\nM = [[1/2, 0], [1/2, 1/2], [0, 1/2]]: its row cone is the whole orthant "
        f"({cone.n_facets} facets: x >= 0), row cone decides closure: {tricky.row_cone_decides_closure}"
    )
    print(f"  both rows of the identity lie in the row cone: {all(cone.contains(r).member for r in ident2.matrix)}")
    print(f"  yet the identity is in closure({{M}}): {ans.member} [{ans.method}] — decided by the LP, not the row cone")
    assert not ans.member and not tricky.row_cone_decides_closure


if __name__ == "__main__":
    main()
