"""The sweep queries of amplification: n and rate as template fields, against the direct calls."""

from __future__ import annotations

import re
from fractions import Fraction as F


import privgeom as pg


def test_shuffle_query_over_n_matches_the_direct_worst_case() -> None:
    frame = pg.sweep("rr:k=1,p=3/4 @ n={n}", {"n": [2, 4, 8]}, "shuffle", scheduler="serial", eps="ln(3/2)")
    for n, text, certified in zip(frame["n"], frame["delta_exact"], frame["certified"]):
        w = pg.shuffled(pg.randomized_response(1, "3/4"), int(n)).worst_case("ln(3/2)")
        assert F(text) == w.delta.value and bool(certified) == w.certified


def test_subsample_query_over_rate_reproduces_bbg(tmp_path) -> None:
    m = tmp_path / "m.json"
    pg.Mechanism([["3/4", "1/4", "1/4"], ["1/4", "3/4", "3/4"]], pg.Domain.histograms(1, 2, up_to=True)).save(m)
    frame = pg.sweep(
        f"{m} @ rate={{rate}}, records=1, every_size=1", {"rate": ["1/10", "1/2"]}, "subsample", scheduler="serial"
    )
    assert frame["exp_eps_subsampled_exact"].tolist() == ["6/5", "2"] == frame["bbg_exp_eps_exact"].tolist()
    assert frame["holds"].tolist() == [True, True]


def test_bad_templates_are_refused() -> None:
    # a sweep records the refusal of each point in its "error" column: the type and the message
    def refusal(template: str, query: str, **options: str) -> str:
        frame = pg.sweep(template, {"k": [1]}, query, scheduler="serial", **options)
        assert list(frame.columns) == ["k", "seconds", "error"], frame.columns
        return str(frame["error"][0])

    assert re.match(r"FormatError: .*BASE @ key=value", refusal("rr:k={k},p=3/4", "shuffle", eps="ln(2)"))
    assert re.match(r"FormatError: .*n=N only", refusal("rr:k={k},p=3/4 @ m=3", "shuffle", eps="ln(2)"))
    assert re.match(r"FormatError: .*records required", refusal("m.json @ rate=1/2, size={k}", "subsample"))
