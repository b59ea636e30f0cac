"""Fuzzing the three doors user input comes through: the mechanism JSON loader, the definition spec parser and the
command line. Whatever comes in, the answer is a valid object or a typed :class:`privgeom.PrivgeomError` (exit code 2
with one line for the CLI) — never another exception — within a per-case deadline.

Hypothesis runs with the derandomised ``privgeom`` profile of ``tests/conftest.py``; the deadlines here replace the
profile's ``deadline=None`` because time is part of the property ("refuse before working").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import privgeom as pg
from privgeom.cli import main
from privgeom.definitions import parse_definition

FAST = settings(
    deadline=timedelta(seconds=2),
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CLI = settings(
    deadline=timedelta(seconds=5),
    max_examples=120,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------------------------------------------- JSON loader
def _check_mechanism(M: pg.Mechanism) -> None:
    """A loaded mechanism is valid: column-stochastic, non-negative, labels unique; it survives a round trip."""
    mat = M.matrix
    assert mat.ndim == 2 and M.n_inputs == len(M.inputs) and M.n_outputs == len(M.outputs)
    assert len(set(M.inputs)) == M.n_inputs and len(set(M.outputs)) == M.n_outputs
    if M.exact:
        assert all(v >= 0 for v in mat.flat) and all(s == 1 for s in mat.sum(axis=0))
    else:
        assert np.all(mat >= 0) and np.allclose(mat.sum(axis=0), 1, atol=1e-6)
    assert pg.Mechanism.from_json(M.to_json()) == M


def _load(doc) -> None:
    try:
        M = pg.Mechanism.from_json(doc)
    except pg.PrivgeomError:
        return
    _check_mechanism(M)


json_scalars = (
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=True) | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30,
)
entries = (
    st.fractions(min_value=-1, max_value=2, max_denominator=12).map(str)
    | st.integers(-1, 2)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(["1/0", "", "x", "3/4", "1e400", "nan"])
    | json_values
)


@FAST
@given(st.text(max_size=200))
def test_loader_on_random_text(text):
    _load(text)


@FAST
@given(st.binary(max_size=100))
def test_loader_on_random_bytes(raw):
    _load(raw)


@FAST
@given(json_values)
def test_loader_on_random_json_values(value):
    _load(value)
    _load(json.dumps(value))


@FAST
@given(
    st.fixed_dictionaries(
        {"matrix": st.lists(st.lists(entries, max_size=4), max_size=4)},
        optional={
            "privgeom": st.sampled_from(["mechanism", "cone", ""]) | json_values,
            "version": st.sampled_from([1, 2, 9, 0, "1", 1.0, True, None]) | json_values,
            "exact": st.booleans() | json_values,
            "inputs": st.lists(st.text(max_size=3) | st.integers(), max_size=5) | json_values,
            "outputs": st.lists(st.text(max_size=3), max_size=5) | json_values,
            "extra": json_values,
        },
    )
)
def test_loader_on_documents_close_to_the_schema(doc):
    _load(doc)
    _load(json.dumps(doc))


@st.composite
def stochastic_documents(draw):
    """Valid documents of random size (exact or float), sometimes with one entry perturbed."""
    n_out, n_in = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    cols = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(0, 9), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([Fraction(x, sum(w)) for x in w])
    exact = draw(st.booleans())
    matrix = [[str(cols[j][i]) if exact else float(cols[j][i]) for j in range(n_in)] for i in range(n_out)]
    if draw(st.booleans()):
        i, j = draw(st.integers(0, n_out - 1)), draw(st.integers(0, n_in - 1))
        matrix[i][j] = draw(entries)
    return {
        "privgeom": "mechanism",
        "version": 1,
        "matrix": matrix,
        "inputs": [f"d{j}" for j in range(n_in)],
        "outputs": [f"o{i}" for i in range(n_out)],
    }


@FAST
@given(stochastic_documents())
def test_loader_on_valid_and_nearly_valid_documents(doc):
    _load(doc)


@FAST
@given(st.integers(1, 200_000), st.sampled_from(["[", '{"a":', '[{"matrix":']))
def test_loader_on_deep_nesting(depth, opener):
    text = opener * depth
    with pytest.raises(pg.FormatError):
        pg.Mechanism.from_json(text)
    closer = {"[": "]", '{"a":': "}", '[{"matrix":': "}]"}[opener]
    with pytest.raises(pg.FormatError):
        pg.Mechanism.from_json(opener * depth + "1" + closer * depth)


# ---------------------------------------------------------------------------------------------------- spec parser
KINDS = ["rr", "dp", "finite", "adp", "pufferfish", "geometric", "krr", "frapp", "", "RR", "nope"]
KEYS = ["k", "p", "n", "graph", "eps", "exp_eps", "delta", "alpha", "N", "gamma", "exact", "json", "data", "x", ""]
VALUES = [
    "3/4",
    "1/2",
    "2",
    "3",
    "0",
    "-1",
    "nan",
    "inf",
    "1e400",
    "x",
    "",
    "true",
    "hamming",
    "path",
    "complete",
    "edges",
    "ln(3)",
    "[",
    "]",
    "{}",
    '"',
    "1/0",
    "0.75",
]
# sizes near the limits that must be refused (or accepted) at once; dp graphs stay small or far beyond the limit
# (building a 2^20-node Hamming graph is the cost work of the size limits, not what this test times)
SIZES = ["1", "2", "3", "4", "26", "27", "40", "64", "1000", str(2**31), str(10**12), "10**12", "1e3"]


@st.composite
def specs(draw):
    kind = draw(st.sampled_from(KINDS) | st.text(max_size=4))
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(KEYS) | st.text(max_size=3), st.sampled_from(VALUES) | st.text(max_size=6)),
            max_size=5,
        )
    )
    if kind in ("rr", "krr", "geometric", "frapp") and draw(st.booleans()):
        size_key = {"rr": "k", "krr": "n", "geometric": "n", "frapp": "k"}[kind]
        pairs.append((size_key, draw(st.sampled_from(SIZES))))
    if kind == "dp" and draw(st.booleans()):
        pairs += [
            ("graph", draw(st.sampled_from(["hamming", "path", "complete"]))),
            (draw(st.sampled_from(["k", "n"])), draw(st.sampled_from(["1", "2", "3", "0", "-2", "40", "10**12"]))),
        ]
    sep = draw(st.sampled_from([":", "", "::", " : "]))
    return kind + sep + ",".join(f"{k}={v}" if draw(st.booleans()) or not k else k for k, v in pairs)


def _parse(spec) -> None:
    try:
        d = parse_definition(spec)
    except pg.PrivgeomError:
        return
    assert isinstance(d, pg.PrivacyDefinition)
    assert len(d.inputs) >= 1 and isinstance(d.spec(), str)


@FAST
@given(specs())
def test_spec_parser_on_structured_specs(spec):
    _parse(spec)


@FAST
@given(st.text(max_size=60))
def test_spec_parser_on_random_text(spec):
    _parse(spec)


@FAST
@given(json_values)
def test_spec_parser_on_non_strings_and_inline_json(value):
    _parse(value)
    _parse("finite:json=" + json.dumps(value))


# ---------------------------------------------------------------------------------------------------- command line
WORKDIR = Path(tempfile.mkdtemp(prefix="privgeom-fuzz-"))
pg.randomized_response(2, "3/4").save(WORKDIR / "m.json")
(WORKDIR / "deep.json").write_text("[" * 5000)
(WORKDIR / "bad.json").write_text("{")

COMMANDS = [
    ["analyze"],
    ["closure"],
    ["rowcone"],
    ["semantics"],
    ["relax"],
    ["epsilon"],
    ["delta"],
    ["compare"],
    ["optimal"],
    ["voting", "accuracy"],
    ["voting", "influence"],
    ["voting", "welfare"],
    ["voting", "epsilon"],
    ["smoothed", "delta"],
    ["smoothed", "shm"],
    ["voting"],
    ["smoothed"],
    ["nope"],
    [],
]
FLAGS = [
    "-m",
    "--mechanism",
    "--graph",
    "--eps",
    "--exp-eps",
    "--curve",
    "--plot",
    "--out",
    "--max-delta",
    "--prior",
    "--utility",
    "--family",
    "--method",
    "--rays",
    "--check",
    "-n",
    "--rho",
    "--float",
    "--i",
    "--theta",
    "--weights",
    "--quota",
    "--width",
    "--count",
    "--values",
    "--voter",
    "--n",
    "--T",
    "--lost",
    "--at",
    "--q",
    "--dist",
    "--x",
    "--rtol",
    "--json",
    "--",
    "-",
    "--nope",
]
TOKENS = [
    "m.json",
    "deep.json",
    "bad.json",
    "missing.json",
    "x.txt",
    "p.png",
    "nodir/p.png",
    "rr:k=2,p=3/4",
    "rr:k=27,p=3/4",
    "rr:k=2,p=2",
    "dp:graph=hamming,k=2,exp_eps=3",
    "dp:graph=path,n=3,exp_eps=2",
    "bogus",
    "majority",
    "dictator",
    "parity",
    "table",
    "weighted",
    "tribes",
    "hamming",
    "complete",
    "path",
    "edges:11-10",
    "1/2",
    "3/4",
    "2",
    "3",
    "0",
    "-1",
    "1e400",
    "nan",
    "ln(3)",
    "ln(0)",
    "abc",
    "",
    "1,1",
    "1/2,1/2,0,0",
    "uniform",
    "accuracy",
    "fourier_motzkin",
    "lp",
]


@st.composite
def argvs(draw):
    argv = list(draw(st.sampled_from(COMMANDS)))
    if argv[:1] == ["voting"] and len(argv) == 2:
        argv.append(draw(st.sampled_from(["majority", "dictator", "and", "or", "parity", "table", "nope"])))
        argv += ["-n", draw(st.sampled_from(["1", "3", "5", "0", "-1", "x"]))]
    for _ in range(draw(st.integers(0, 6))):
        argv.append(draw(st.sampled_from(FLAGS)))
        if draw(st.integers(0, 3)):
            argv.append(draw(st.sampled_from(TOKENS) | st.text(max_size=6)))
    return argv


@CLI
@given(argvs())
def test_cli_on_random_argument_lists(argv):
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(WORKDIR)  # outputs a random --out/--plot may write stay in the fuzz directory
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: --help (0) or an argument error (2, one line)
                code = exc.code
    finally:
        os.chdir(here)
    text = err.getvalue()
    assert code in (0, 1, 2), (argv, code, text)
    assert "Traceback" not in text and "internal error" not in text, (argv, text)
    if code == 2:
        lines = text.strip("\n").splitlines()
        assert len(lines) == 1 and lines[0].startswith("privgeom"), (argv, text)
