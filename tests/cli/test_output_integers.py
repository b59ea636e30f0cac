"""Output at disk speed: the rays and facets of randomized response reach ``--out`` / ``--json``
as integer rows built from the Kronecker structure, and ``semantics --all`` reads its guarantees from integer
normals — the same bytes as the ``Fraction`` route, with that route's entry points forbidden (work counted, not
timed; the timings are in ``benchmarks/bench_output.py``). Also the CLI kernels under the guarantees: the predicate
language of ``design --only`` on a guarantee built from its normal."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import privgeom as pg
from privgeom._core.results import to_jsonable
from privgeom.testing import forbid
from privgeom.analyses.guarantees import _semantics
from privgeom import Guarantee
from privgeom.analyses.guarantees._wording import parity_structure
from privgeom.cli import main
from privgeom.cli._render import IntegerRow, StreamedData, Stream, facet_rows, ray_rows
from privgeom.geometry import Cone
from privgeom.geometry._canonical import normalise_rows
from privgeom.geometry._structure import kronecker_integer_rows, structured_facet
from privgeom.testing import bit_strings


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("p", ["3/4", "2/3", "9/10", "1"])
def test_integer_rows_are_the_canonical_rows(k, p):
    """Theorem 4.3 as one Kronecker power: the same rows as the Fraction route (canonical rays from M_rr, each facet
    normalised alone), and their JSON is the same text."""
    cone = pg.RandomizedResponse(k, p).row_cone()
    V, H = kronecker_integer_rows(cone, "V"), kronecker_integer_rows(cone, "H")
    assert V.dtype == np.int64 and H.dtype == np.int64
    assert V.tolist() == [[int(x) for x in r] for r in cone.rays.tolist()]
    for i in range(2**k):
        alone = normalise_rows(np.array([[Fraction(x) for x in structured_facet(cone, i)]], dtype=object), exact=True)
        assert H[i].tolist() == [int(x) for x in alone[0]]
        assert IntegerRow(H[i]).json() == json.dumps(to_jsonable(alone[0]))
    assert sorted(map(tuple, H.tolist()), reverse=True) == [tuple(int(x) for x in r) for r in cone.facets.tolist()]


def test_integer_rows_beyond_int64_are_python_integers():
    cone = pg.RandomizedResponse(3, "999999999999/1000000000000").row_cone()  # entries ~10^36
    V = kronecker_integer_rows(cone, "V")
    assert V.dtype == object and V.tolist() == [[int(x) for x in r] for r in cone.rays.tolist()]


def test_other_cones_keep_their_route():
    assert kronecker_integer_rows(pg.RandomizedResponse(2, 0.75).row_cone(), "V") is None  # float
    assert kronecker_integer_rows(pg.DifferentialPrivacy.hamming(2, exp_eps=3).row_cone(), "H") is None
    c = Cone.from_generators([[1, 0], [1, 1]])
    rows, n = ray_rows(c)
    assert n == 2 and [list(r) for r in rows()] == c.rays.tolist()


def _old_rowcone_json(spec: str) -> dict:
    """The Fraction route: canonical rays and each facet normalised alone, through to_jsonable."""
    cone = pg.parse_definition(spec).row_cone()
    facets = [
        normalise_rows(np.array([[Fraction(x) for x in structured_facet(cone, i)]], dtype=object), exact=True)[0]
        for i in range(cone.n_facets)
    ]
    facets.sort(key=tuple, reverse=True)  # the canonical order of cone.facets, which the listing follows
    return {"facets": to_jsonable(facets), "rays": to_jsonable(cone.rays), "lineality": []}


def test_rowcone_rays_out_is_the_fraction_route_without_fractions(capsys, tmp_path, monkeypatch):
    spec = "rr:k=6,p=3/4"
    expected = _old_rowcone_json(spec)
    # neither the V-representation (M_rr as Fractions, canonicalised) nor a per-row normalisation may run
    forbid(monkeypatch, Cone, "_vrep")
    forbid(monkeypatch, Cone, "_structured_rows")
    from privgeom.geometry import _canonical

    forbid(monkeypatch, _canonical, "normalise_rows")
    out = tmp_path / "r.json"
    text = _run(capsys, "rowcone", spec, "--rays", "--out", str(out))
    assert "64 extreme rays" in text and "extreme rays: 64 in 1 orbit" in text
    assert "729·X0" in text and "x_D = (729, 243, 81, 27, 9, 3, 1)[h]" in text
    data = json.loads(out.read_text())
    for key in ("facets", "rays", "lineality"):
        assert data[key] == expected[key], key
    assert data["summary"]["ray_orbits"][0][0] == 64
    streamed = json.loads(_run(capsys, "rowcone", spec, "--rays", "--json"))
    assert streamed["rays"] == expected["rays"] and streamed["facets"] == expected["facets"]


def test_rowcone_all_lists_integer_rays(capsys):
    text = _run(capsys, "rowcone", "rr:k=2,p=3/4", "--rays", "--all")
    assert "extreme rays:\n  (9, 3, 3, 1)\n  (3, 9, 1, 3)\n  (3, 1, 9, 3)\n  (1, 3, 3, 9)" in text


def test_streamed_integer_rows_match_to_dict():
    rows = [IntegerRow(np.array([3, -1])), IntegerRow(np.array([-1, 3]))]
    data = StreamedData([("facets", Stream(lambda: iter(rows), 2))])
    import io

    buf = io.StringIO()
    data.write_json(buf)
    assert json.loads(buf.getvalue()) == data.to_dict() == {"facets": [["3", "-1"], ["-1", "3"]]}


def test_semantics_all_reads_integer_normals(capsys, monkeypatch):
    """The guarantee sentences of RR come from the integer normals: no coefficient tuple of Fractions is built."""
    expected = [g.text for g in _semantics.semantics(pg.RandomizedResponse(5, "3/4"))]

    def no_fractions(self):
        raise AssertionError("Guarantee.coefficients was read: the integer route was not taken")

    monkeypatch.setattr(Guarantee, "coefficients", property(no_fractions))
    out = _run(capsys, "semantics", "rr:k=5,p=3/4", "--all")
    lines = out.splitlines()
    assert lines[0].startswith("32 guarantees of rr:k=5,p=3/4")
    assert [line.split("] ", 1)[1] for line in lines[1:]] == expected  # "- [i] text": numbered as rowcone --all


def _routes(normal, labels):
    """The same guarantee read from an int64 normal (integer route) and from normal/7 as Fractions (the Fraction
    route: non-integer coefficients), which must agree on everything scale-free."""
    ints = Guarantee(tuple(labels), True, np.array(normal, dtype=np.int64))
    frac = Guarantee(tuple(labels), True, [Fraction(int(v), 7) for v in normal])
    assert ints._integers is not None and frac._integers is None
    return ints, frac


@pytest.mark.parametrize("normal", [[9, -3, -3, 1], [3, -1, 0, 0], [1, 0, 0, 0], [5, -5, 1, -1], [2, 1, 0, -3]])
def test_integer_route_equals_fraction_route(normal):
    a, b = _routes(normal, ["11", "10", "01", "00"])
    assert (a.s_plus, a.s_minus, a.parity_bits, a.structure, a.text) == (
        b.s_plus,
        b.s_minus,
        b.parity_bits,
        b.structure,
        b.text,
    )
    da, db = a.to_dict(), b.to_dict()
    assert da["prior"] == db["prior"] == to_jsonable(a.prior)
    assert da["coefficients"] == to_jsonable(a.coefficients) == [str(v) for v in normal]


@pytest.mark.parametrize("spec", ["rr:k=4,p=3/4", "rr:k=5,p=2/3", "dp:graph=hamming,k=4,exp_eps=2"])
def test_integer_route_equals_fraction_route_on_long_guarantees(spec):
    """Over 12 datasets the sentence names sets by rule: Hamming profile, parity, or sizes and weights."""
    d = pg.parse_definition(spec)
    for g in list(_semantics.semantics(d))[:6]:
        normal = [int(v) for v in g.coefficients]
        a, b = _routes(normal, g.labels)
        assert a.text == b.text == g.text
        assert a.to_dict()["prior"] == b.to_dict()["prior"] == to_jsonable(a.prior)


def _parity_reference(labels, signs):
    """Row-by-row Gaussian elimination over GF(2) (the previous implementation), as an independent reference."""
    k = len(labels[0])
    mat = [[int(ch) for ch in s] + [1] + [0 if sg > 0 else 1] for s, sg in zip(labels, signs) if sg != 0]
    if not mat:
        return None
    pivots, row = [], 0
    for col in range(k + 1):
        pr = next((i for i in range(row, len(mat)) if mat[i][col]), None)
        if pr is None:
            continue
        mat[row], mat[pr] = mat[pr], mat[row]
        for i in range(len(mat)):
            if i != row and mat[i][col]:
                mat[i] = [a ^ b for a, b in zip(mat[i], mat[row])]
        pivots.append(col)
        row += 1
    if any(not any(r[: k + 1]) and r[k + 1] for r in mat):
        return None
    sol = [0] * (k + 1)
    for i, col in enumerate(pivots):
        sol[col] = mat[i][k + 1]
    J = tuple(j for j in range(k) if sol[j])
    return (J, sol[k]) if J else None


def test_parity_structure_vectorised_matches_elimination():
    rng = np.random.default_rng(5)
    labels = bit_strings(4)
    found = 0
    for _ in range(300):
        J = rng.integers(0, 2, size=4)
        c = int(rng.integers(0, 2))
        par = [1 if (c + int(np.dot(J, [int(ch) for ch in s]))) % 2 == 0 else -1 for s in labels]
        masked = [p if m else 0 for p, m in zip(par, rng.integers(0, 2, size=16))]
        for sg in (rng.integers(-1, 2, size=16).tolist(), par, masked):
            got = parity_structure(labels, sg)
            assert got == _parity_reference(labels, sg), sg
            found += got is not None
    assert found > 100


def test_benchmark_quick_runs_and_routes_agree():
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_output.py"
    proc = subprocess.run([sys.executable, str(bench), "--quick"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [
        line
        for line in proc.stdout.splitlines()
        if line.split(" | ")[0] in ("rays --out", "facets --out", "ray orbits", "semantics --all")
    ]
    assert len(rows) == 4 and all(line.endswith("| yes") for line in rows), rows


@pytest.mark.parametrize("spec", ["dp:graph=hamming,k=3,exp_eps=3/2", "dp:graph=path,n=5,exp_eps=2"])
def test_difference_facets_are_integer_rows(spec, monkeypatch):
    """ε-DP (Lin & Kifer, Section V): x_a ≤ (p/q) x_b is the primitive row p at b, −q at a — the same JSON as each
    structured facet normalised alone as Fractions."""
    cone = pg.parse_definition(spec).row_cone()
    alone = [
        normalise_rows(np.array([[Fraction(x) for x in structured_facet(cone, i)]], dtype=object), exact=True)[0]
        for i in range(cone.n_facets)
    ]
    expected = [json.dumps(to_jsonable(r)) for r in sorted(alone, key=tuple, reverse=True)]  # cone.facets' order
    from privgeom.geometry import _canonical

    forbid(monkeypatch, _canonical, "normalise_rows")
    rows, n = facet_rows(cone)
    got = [r.json() for r in rows()]
    assert n == len(got) == len(expected) and got == expected


def test_rowcone_out_reads_back_as_the_same_cone(capsys, tmp_path):
    out = tmp_path / "r3.json"
    _run(capsys, "rowcone", "rr:k=3,p=3/4", "--rays", "--out", str(out))
    data = json.loads(out.read_text())
    cone = pg.RandomizedResponse(3, "3/4").row_cone()
    assert Cone.from_dict(data) == cone
    assert Cone.from_generators(data["rays"], labels=data["labels"]) == cone


def test_only_language() -> None:
    from privgeom.analyses.guarantees._semantics import guarantee_from_normal
    from privgeom.cli._design import parse_predicate

    g = guarantee_from_normal([Fraction(3), Fraction(-1), Fraction(0)], ["a", "b", "c"])
    assert parse_predicate("n_plus == 1 and (s_minus contains b or n_minus > 4)")(g)
    assert not parse_predicate("not (n_plus == 1)")(g)
    assert parse_predicate("s_plus == a")(g) and parse_predicate("text contains 'attacker'")(g)
    with pytest.raises(pg.FormatError):
        parse_predicate("__import__('os')")
