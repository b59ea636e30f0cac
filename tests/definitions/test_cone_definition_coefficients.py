"""Cone-definition files with coefficients beyond the float range are refused when read, naming the entry.

An exact entry such as ``"1e400"`` or the JSON integer ``9·10^400`` is a valid exact number, but the analyses of a
cone definition read its rows (and what is derived from them) in floats, so such a row used to fail deep inside an
analysis with an internal error. Each case below must end with exit code 2 and one line that names the entry;
in float mode ``"1e400"`` overflows a float and the parser says so.
"""

from __future__ import annotations

import json
import shlex

import pytest

import privgeom as pg
from privgeom.cli import main
from privgeom import ConeDefinition

BIG = 9 * 10**400


def _file(tmp_path, entry, exact=True, key="facets"):
    rows = [[entry, "-1"], ["-1", "3"]]
    doc = {
        "privgeom": "cone-definition",
        "version": 1,
        "exact": exact,
        "labels": ["0", "1"],
        "facets": rows,
        "equalities": [],
    }
    if key == "equalities":
        doc["facets"], doc["equalities"] = [["1", "0"]], [[entry, "-1"]]
    text = json.dumps(doc).replace('"@BIG@"', str(BIG))  # a JSON integer literal with 401 digits
    path = tmp_path / "c.json"
    path.write_text(text)
    return path


def _run(line, capsys):
    try:
        code = main(shlex.split(line))
    except SystemExit as exc:
        code = exc.code
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("command", ["analyze", "optimal"])
@pytest.mark.parametrize(
    "entry, exact, fragment",
    [
        ("1e400", True, "facets[0, 0] = ≈ 1e+400"),
        ("@BIG@", True, "facets[0, 0] = ≈ 9e+400"),
        ("1e-400", True, "facets[0, 0] = ≈ 1e-400"),
        ("1e400", False, "facets[0, 0] = '1e400' is too large for a float"),
    ],
)
def test_out_of_range_entries_are_named(command, entry, exact, fragment, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _file(tmp_path, entry, exact)
    code, err = _run(f"{command} cone:file=c.json", capsys)
    assert code == 2 and len(err) == 1, err
    assert "internal error" not in err[0] and fragment in err[0], err[0]


def test_equality_rows_are_checked_too(tmp_path):
    path = _file(tmp_path, "1e400", key="equalities")
    with pytest.raises(pg.InvalidInputError, match=r"equalities\[0, 0\] = ≈ 1e\+400"):
        ConeDefinition.load(path)


def test_the_limit_is_the_float_range_of_the_lowest_terms_row(tmp_path):
    """2^1023 (1024 bits) is refused, 2^1022 (1023 bits) is read; a row is judged in lowest integer terms, so
    [2^1100, -2^1100] (that is [1, -1]) is fine."""
    ok = ConeDefinition.from_dict(
        {"privgeom": "cone-definition", "labels": ["0", "1"], "facets": [[str(2**1022), "-1"], ["-1", "3"]]}
    )
    assert ok.row_cone().n_facets == 2
    with pytest.raises(pg.InvalidInputError, match=r"1024 bits, beyond the float range \(at most 1023 bits"):
        ConeDefinition.from_dict(
            {"privgeom": "cone-definition", "labels": ["0", "1"], "facets": [[str(2**1023), "-1"], ["-1", "3"]]}
        )
    same = ConeDefinition.from_dict(
        {
            "privgeom": "cone-definition",
            "labels": ["1", "0"],
            "facets": [[str(3 * 2**1100), str(-(2**1100))], ["-1", "3"]],
        }
    )
    assert same.contains(pg.randomized_response(1, "3/4")).member


def test_a_python_cone_with_a_huge_coefficient_is_refused():
    with pytest.raises(pg.InvalidInputError, match=r"facet 0 of the cone, coefficient \[0, 0\]"):
        ConeDefinition(pg.Cone.from_facets([[10**400, -1], [-1, 3]], labels=["a", "b"]))
