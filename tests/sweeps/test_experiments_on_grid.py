"""The seeds' experiments run their grids through the sweep engine (privgeom/_core/grid.py) and give the same numbers as
the direct serial loops they replaced (recomputed here point by point at quick sizes), on every scheduler; the
shipped election data they read is plausible (years, totals, the two jurisdictions of the vertices)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privgeom import voting
from privgeom import LogRational
from privgeom.smoothed._experiments import (
    election_vertices,
    elections_experiment,
    load_elections,
    load_jurisdictions,
    motivating_experiment,
)
from privgeom.smoothed._shm import shm_database_delta, shm_smoothed_sweep


@pytest.mark.parametrize("scheduler", ["serial", "processes"])
def test_elections_rows_equal_the_direct_loop(tmp_path, scheduler):
    panels = [(Fraction(1, 10), (1000, 1500)), (Fraction(1, 100), (10_000,))]
    eps = (1.0, 3.0)
    rows = elections_experiment(tmp_path, panels=panels, eps=eps, scheduler=scheduler).rows
    expected = []
    for lost, ns in panels:
        for n in ns:
            T = n - int(lost * n)
            for e, r in zip(eps, shm_smoothed_sweep(n, T, eps, election_vertices())):
                expected.append((str(lost), n, T, e, r.value, r.error_bound, r.counts[0]))
    got = [(r["lost"], r["n"], r["T"], r["eps"], r["delta"], r["error_bound"], r["agents_dc"]) for r in rows]
    assert got == expected
    assert (tmp_path / "smoothed_elections.csv").read_text().count("\n") == len(expected) + 1


def test_motivating_rows_equal_the_direct_loop(tmp_path):
    rows = motivating_experiment(tmp_path, quick=True, scheduler="serial").rows
    eps = LogRational(Fraction(51, 49))
    data = load_elections()[-3:]
    assert [r["year"] for r in rows] == [d["year"] for d in data]
    for r, d in zip(rows, data):
        n = d["democrat_votes"] + d["republican_votes"]
        T = n - round(Fraction(1, 500) * n)
        direct = shm_database_delta(n, T, eps, d["republican_votes"])
        assert (r["n"], r["T"], r["delta"], r["truncation_bound"]) == (n, T, direct.value, direct.truncation_bound)
    assert list(rows[0]) == [
        "year",
        "democrat_votes",
        "republican_votes",
        "n",
        "T",
        "republican_share",
        "delta",
        "log10_delta",
        "truncation_bound",
        "dp_delta_T_over_n",
    ]


@pytest.mark.parametrize("scheduler", ["serial", "threads"])
def test_voting_figure_data_equals_the_direct_loop(scheduler):
    rhos = (0.1, 0.5, 0.9, 0.5)  # a repeated ρ is one curve, as before
    data = voting.paper.majority_accuracy_data(rhos, n_max=15, scheduler=scheduler)
    ns = list(range(1, 16, 2))
    assert data["n"] == ns and list(data["accuracy"]) == [0.1, 0.5, 0.9]
    for rho, accs in data["accuracy"].items():
        assert accs == [float(voting.accuracy(voting.majority(n), rho)) for n in ns]
    # n = 1: accuracy (1 + ρ)/2 exactly
    assert [accs[0] for accs in data["accuracy"].values()] == [0.55, 0.75, 0.95]


def test_election_data_is_plausible() -> None:
    rows = load_elections()
    assert [r["year"] for r in rows] == list(range(1920, 2021, 4))
    last = rows[-1]
    assert (last["democrat"], last["democrat_votes"], last["republican"], last["republican_votes"]) == (
        "Biden",
        81_283_501,
        "Trump",
        74_223_975,
    )
    by_year = {r["year"]: r for r in rows}
    assert by_year[1920]["republican_votes"] == 16_144_093 and by_year[1960]["democrat"] == "Kennedy"
    for r in rows:
        total = r["democrat_votes"] + r["republican_votes"]
        assert 2.4e7 < total < 1.6e8
        # no candidate above 70% of the two-party vote since 1920 (Liu, Wang & Xia, Section 1)
        assert 0.3 < r["republican_votes"] / total < 0.7
        assert r["source"].startswith("Wikipedia")
    totals = [r["democrat_votes"] + r["republican_votes"] for r in rows]
    assert totals[-1] == max(totals)
    j = load_jurisdictions()
    assert j["DC"] == (317_323, 18_586) and j["NE-2"] == (176_468, 154_377)
    qs = election_vertices()
    assert qs == [Fraction(18_586, 335_909), Fraction(154_377, 330_845)]
    assert 0.05 < qs[0] < 0.06 and 0.46 < qs[1] < 0.47
