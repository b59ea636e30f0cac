"""Mechanism: validation of bad input (typed errors, clear messages), operations, JSON round trips, RR factory."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privgeom import (
    DomainMismatchError,
    FormatError,
    InvalidMechanismError,
    InvalidParameterError,
    InvalidTypeError,
    Mechanism,
    PrivgeomError,
    SizeLimitError,
    mixture,
    randomized_response,
)
from privgeom.testing import bit_strings

RR1 = [["3/4", "1/4"], ["1/4", "3/4"]]


# ------------------------------------------------------------------------------------------------ construction
def test_exact_and_float_modes():
    M = Mechanism(RR1, inputs=["1", "0"], outputs=["y", "n"])
    assert M.exact and M.matrix.dtype == object and M.matrix[0, 0] == Fraction(3, 4)
    assert M.shape == (2, 2) and M.n_inputs == 2 and M.n_outputs == 2
    assert M.inputs == ("1", "0") and M.outputs == ("y", "n")
    F = Mechanism([[0.75, 0.25], [0.25, 0.75]])
    assert not F.exact and F.matrix.dtype == np.float64
    assert F.inputs == ("d0", "d1") and F.outputs == ("o0", "o1")
    # ints are exact; one float anywhere makes the whole matrix float; exact= forces the mode
    assert Mechanism([[1, 0], [0, 1]]).exact
    assert not Mechanism([[1, 0.0], [0, 1]]).exact
    assert Mechanism([[0.5, 1], [0.5, 0]], exact=True).matrix[0, 0] == Fraction(1, 2)
    assert Mechanism(RR1, exact=False).matrix[0, 0] == 0.75
    assert Mechanism(np.eye(2, dtype=int)).exact and not Mechanism(np.eye(2)).exact
    assert Mechanism(np.eye(2), exact=True).exact
    assert Mechanism(np.array(RR1, dtype=object)).exact


def test_matrix_is_read_only_and_copied():
    src = np.array([[0.5, 1.0], [0.5, 0.0]])
    M = Mechanism(src)
    src[0, 0] = 7.0
    assert M.matrix[0, 0] == 0.5
    with pytest.raises(ValueError):
        M.matrix[0, 0] = 1.0
    assert not M.row(0).flags.writeable


def test_float_tolerance():
    # tiny negative entries within atol are clamped to 0; column sums within tolerance accepted
    M = Mechanism([[-1e-12, 1.0], [1.0 + 1e-12, 0.0]])
    assert M.matrix[0, 0] == 0.0
    with pytest.raises(InvalidMechanismError, match="negative"):
        Mechanism([[-1e-6, 1.0], [1.0 + 1e-6, 0.0]])
    assert Mechanism([[-1e-6, 1.0], [1.0 + 1e-6, 0.0]], atol=1e-5).matrix[0, 0] == 0.0
    with pytest.raises(InvalidMechanismError, match="column 1 sums to"):
        Mechanism([[0.5, 0.5], [0.5, 0.5 + 1e-6]])


@pytest.mark.parametrize(
    "matrix, kwargs, error, match",
    [
        # not column-stochastic
        ([[0.5, 0.2], [0.4, 0.8]], {}, InvalidMechanismError, r"column 0 sums to 0\.9.*column-stochastic"),
        ([["1/2", "1/3"], ["1/2", "1/3"]], {}, InvalidMechanismError, "column 1 sums to 2/3, not 1"),
        ([[0.1, 1], [0.9, 0]], {"exact": True}, InvalidMechanismError, "column 0 sums to"),
        # negative
        ([["-1/2", 1], ["3/2", 0]], {}, InvalidMechanismError, r"entry \[0, 0\] = -1/2 is negative"),
        ([[-0.5, 1], [1.5, 0]], {}, InvalidMechanismError, r"entry \[0, 0\] = -0\.5 is negative"),
        # NaN / inf, whatever the container and mode
        ([[math.nan, 1], [1, 0]], {}, InvalidMechanismError, "nan is not finite"),
        ([[math.inf, 1], [1, 0]], {}, InvalidMechanismError, "inf is not finite"),
        (np.array([[math.nan, 1], [1, 0]]), {}, InvalidMechanismError, "nan is not finite"),
        (np.array([[math.inf, 1], [1, 0]]), {"exact": True}, InvalidMechanismError, "inf is not finite"),
        ([["nan", 1], [1, 0]], {}, InvalidMechanismError, "'nan' is not a rational number"),
        # ragged, empty, wrong dimension
        ([[0.5, 0.5], [0.5]], {}, InvalidMechanismError, r"ragged matrix: rows have lengths \[1, 2\]"),
        ([], {}, InvalidMechanismError, "at least one output row"),
        ([[]], {}, InvalidMechanismError, "at least one input column"),
        (np.zeros((0, 2)), {}, InvalidMechanismError, r"cannot be empty, got shape \(0, 2\)"),
        (np.ones(3), {}, InvalidMechanismError, r"must be 2-D, got an array of shape \(3,\)"),
        ([1, 0], {}, InvalidMechanismError, "row 0 of the matrix is 1"),
        # not numbers
        ("abc", {}, InvalidTypeError, "2-D list or array, got str"),
        (None, {}, InvalidTypeError, "got NoneType"),
        ([[None, 1], [1, 0]], {}, InvalidTypeError, "matrix entry None"),
        ([[True, False], [False, True]], {}, InvalidTypeError, "matrix entry True"),
        (np.eye(2, dtype=bool), {}, InvalidTypeError, "matrix entry"),
        (np.array([[1j, 0], [0, 1]]), {}, InvalidTypeError, "complex"),
        ([["x", 1], [1, 0]], {}, InvalidMechanismError, "'x' is not a rational number like '3/4'"),
        # labels
        (RR1, {"inputs": ["a"]}, InvalidMechanismError, r"1 input labels given for a matrix with 2 inputs"),
        (RR1, {"outputs": ["a", "b", "c"]}, InvalidMechanismError, "3 output labels"),
        (RR1, {"inputs": ["a", "a"]}, InvalidMechanismError, r"input labels must be unique; repeated: \['a'\]"),
        (RR1, {"inputs": "ab"}, InvalidMechanismError, "single string 'ab'"),
        (RR1, {"outputs": ["x", "x"]}, InvalidMechanismError, "output labels must be unique"),
    ],
)
def test_invalid_mechanisms_raise_typed_errors(matrix, kwargs, error, match):
    with pytest.raises(error, match=match) as info:
        Mechanism(matrix, **kwargs)
    assert isinstance(info.value, PrivgeomError)


def test_errors_subclass_builtins():
    with pytest.raises(ValueError):
        Mechanism([[0.5, 0.2], [0.4, 0.8]])
    with pytest.raises(TypeError):
        Mechanism("abc")


def test_size_limit_is_checked_before_allocating(monkeypatch):
    monkeypatch.setattr("privgeom._core.arrays.MAX_EXACT_ENTRIES", 3)
    with pytest.raises(SizeLimitError, match="2 x 2 exact"):
        Mechanism(RR1)
    with pytest.raises(SizeLimitError, match="exact"):
        Mechanism(np.eye(2, dtype=int))  # integer arrays are exact: the exact limit applies
    assert not Mechanism(np.eye(2)).exact  # float arrays use the float limit


# ------------------------------------------------------------------------------------------------ accessors
def test_rows_columns_and_labels():
    M = Mechanism([["1/2", 1, 0], ["1/2", 0, 1]], inputs=["a", "b", "c"], outputs=["y", "n"])
    assert list(M.row("y")) == [Fraction(1, 2), 1, 0] and list(M.row(1)) == list(M.row("n"))
    assert list(M.column("c")) == [0, 1] and list(M.column(-1)) == [0, 1]
    with pytest.raises(InvalidMechanismError, match="unknown output label 'z'"):
        M.row("z")
    with pytest.raises(InvalidMechanismError, match=r"input index 5 out of range 0\.\.2"):
        M.column(5)
    with pytest.raises(InvalidMechanismError, match="unknown output label True"):
        M.row(True)


def test_float_and_exact_conversion():
    M = Mechanism(RR1)
    F = M.to_float()
    assert not F.exact and F.matrix[0, 0] == 0.75 and F.to_float() is F
    assert F.to_exact() == M and M.to_exact() is M
    assert M.float_matrix().dtype == np.float64
    with pytest.raises(InvalidMechanismError, match="sums to"):
        Mechanism([[0.1, 0.5], [0.9, 0.5]]).to_exact()  # 0.1 + 0.9 is not 1 bit-exactly... nor are they exact


def test_repr_str_and_equality():
    M = Mechanism(RR1, inputs=["1", "0"])
    assert "exact" in repr(M) and "3/4" in str(M)
    assert M == Mechanism(RR1, inputs=["1", "0"])
    assert M != Mechanism(RR1, inputs=["a", "b"])
    assert M != M.to_float()
    assert M != Mechanism([[1, 0], [0, 1]], inputs=["1", "0"])
    assert M != Mechanism([[1, 1, 1]], inputs=["1", "0", "x"])
    assert (M == 3) is False
    with pytest.raises(TypeError):
        hash(M)


def test_copy_constructor():
    M = Mechanism(RR1)
    assert Mechanism(M) == M
    assert Mechanism(M, inputs=["a", "b"]).inputs == ("a", "b")
    assert not Mechanism(M, exact=False).exact
    assert Mechanism(M.to_float(), exact=True).exact


# ------------------------------------------------------------------------------------------------ operations
def test_post_process():
    M = Mechanism(RR1, inputs=["1", "0"], outputs=["1", "0"])
    merged = M.post_process([[1, 1]], outputs=["any"])
    assert merged.outputs == ("any",) and list(merged.matrix[0]) == [1, 1] and merged.exact
    flip = Mechanism([[0, 1], [1, 0]])
    assert (flip @ M).matrix.tolist() == [[Fraction(1, 4), Fraction(3, 4)], [Fraction(3, 4), Fraction(1, 4)]]
    assert not M.post_process(np.eye(2)).exact  # a float A makes the result float
    with pytest.raises(DomainMismatchError, match="1 columns but the mechanism has 2 outputs"):
        M.post_process([[1], [0]])
    with pytest.raises(InvalidMechanismError, match="column-stochastic"):
        M.post_process([["1/2", 1], ["1/3", 0]])
    with pytest.raises(TypeError):
        M @ 3  # noqa: B018


def test_mixture():
    A = Mechanism([[1, 0], [0, 1]], outputs=["y", "n"])
    B = Mechanism([[0, 1], [1, 0]], outputs=["y", "n"])
    mix = mixture([A, B], ["1/4", "3/4"])
    assert mix.exact and mix.matrix.tolist() == [[Fraction(1, 4), Fraction(3, 4)], [Fraction(3, 4), Fraction(1, 4)]]
    assert not mixture([A, B], [0.25, 0.75]).exact
    assert not mixture([A, B.to_float()], ["1/4", "3/4"]).exact
    C = Mechanism([[1, 1]], outputs=["c"])
    disjoint = mixture([A, C], ["1/2", "1/2"])
    assert disjoint.outputs == ("0:y", "0:n", "1:c") and disjoint.matrix[2, 0] == Fraction(1, 2)


@pytest.mark.parametrize(
    "mechs, weights, error, match",
    [
        ([], [], InvalidMechanismError, "one weight per mechanism, got 0 and 0"),
        (["A", "A"], [1], InvalidMechanismError, "got 2 and 1"),
        (["A", "A"], ["1/2", "1/3"], InvalidMechanismError, "sum to 1, got 5/6"),
        (["A", "A"], ["3/2", "-1/2"], InvalidMechanismError, r">= 0, got \['3/2', '-1/2'\]"),
        (["x", "A"], ["1/2", "1/2"], InvalidTypeError, "Mechanism objects, got str"),
        (["A", "x"], ["1/2", "1/2"], InvalidTypeError, "Mechanism objects, got str"),
        (["A", "RR2"], ["1/2", "1/2"], DomainMismatchError, "different inputs"),
        (["A", "A"], [True, False], InvalidTypeError, "must be a number"),
    ],
)
def test_mixture_bad_input(mechs, weights, error, match):
    table = {"A": Mechanism(RR1, inputs=["1", "0"]), "RR2": randomized_response(2, "3/4")}
    with pytest.raises(error, match=match):
        mixture([table.get(m, m) for m in mechs], weights)


def test_product_is_kronecker():
    M = Mechanism(RR1, inputs=["1", "0"], outputs=["1", "0"])
    P = M.product(M)
    assert P == randomized_response(2, "3/4")
    assert P.inputs == ("11", "10", "01", "00")
    assert M.product(M, sep="|").inputs == ("1|1", "1|0", "0|1", "0|0")
    # colliding labels fall back to ","
    A = Mechanism([[1]], inputs=["1"], outputs=["a"])
    B = Mechanism([[1]], inputs=["11"], outputs=["b"])
    Q = Mechanism([[1]], inputs=["11"], outputs=["a"]).product(Mechanism([[1]], inputs=["1"], outputs=["b"]))
    assert A.product(B).inputs == ("111",) and Q.inputs == ("111",)
    X = Mechanism([[1, 1]], inputs=["1", "11"])
    assert X.product(X).inputs == ("1,1", "1,11", "11,1", "11,11")
    assert not M.product(M.to_float()).exact


def test_restrict_and_drop_zero_rows():
    M = Mechanism([["1/2", 0, 0], ["1/2", 1, 0], [0, 0, 1]], inputs=["a", "b", "c"])
    R = M.restrict(["b", "a"])
    assert R.inputs == ("b", "a") and list(R.column("a")) == [Fraction(1, 2), Fraction(1, 2), 0]
    D = R.drop_zero_rows()
    assert D.outputs == ("o0", "o1") and D.shape == (2, 2)
    assert M.restrict([0]).inputs == ("a",)
    with pytest.raises(InvalidMechanismError, match="at least one input"):
        M.restrict([])
    with pytest.raises(InvalidMechanismError, match="unknown input label 'z'"):
        M.restrict(["z"])
    with pytest.raises(InvalidMechanismError, match="unique"):
        M.restrict(["a", "a"])


# ------------------------------------------------------------------------------------------------ JSON
@st.composite
def mechanisms(draw):
    n_in, n_out = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cols = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(0, 9), min_size=n_out, max_size=n_out).filter(lambda v: sum(v) > 0))
        cols.append([Fraction(x, sum(w)) for x in w])
    M = Mechanism([[c[i] for c in cols] for i in range(n_out)])
    return M if draw(st.booleans()) else M.to_float()


@given(mechanisms())
def test_json_round_trip(M):
    data = M.to_dict()
    assert set(data) <= set(Mechanism.JSON_SCHEMA["properties"]) and data["privgeom"] == "mechanism"
    text = json.dumps(data)
    back = Mechanism.from_json(text)
    assert back == M and back.exact == M.exact
    assert Mechanism.from_json(data) == M


def test_save_and_load(tmp_path):
    M = randomized_response(2, "2/3")
    path = tmp_path / "rr.json"
    M.save(path)
    assert json.loads(path.read_text())["matrix"][0][0] == "4/9"
    assert Mechanism.load(path) == M
    with pytest.raises(FormatError, match="cannot read mechanism file"):
        Mechanism.load(tmp_path / "missing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\x89PNG\r\n")
    with pytest.raises(FormatError, match="not UTF-8 JSON text"):
        Mechanism.load(binary)
    bad = tmp_path / "bad.json"
    bad.write_text('{"matrix": [[1]], "colour": 1}')
    with pytest.raises(FormatError, match=r"bad\.json.*unknown fields"):
        Mechanism.load(bad)


@pytest.mark.parametrize(
    "doc, error, match",
    [
        ("{bad json", FormatError, "malformed mechanism JSON"),
        ("[1, 2]", FormatError, "must be an object, got list"),
        ('{"privgeom": "cone", "matrix": [[1]]}', FormatError, "not a mechanism document"),
        ('{"inputs": ["a"]}', FormatError, "no 'matrix' field"),
        ('{"matrix": [[1]], "colour": 1}', FormatError, r"unknown fields.*colour"),
        ('{"matrix": [[1]], "exact": "yes"}', FormatError, "'exact' must be true or false"),
        ('{"matrix": "abc"}', FormatError, "'matrix' must be a list of rows"),
        ('{"matrix": [1, 2]}', FormatError, "'matrix' must be a list of rows"),
        ('{"matrix": [[1]], "inputs": "a"}', FormatError, "'inputs' must be a list"),
        ('{"matrix": [[1]], "outputs": {"a": 1}}', FormatError, "'outputs' must be a list"),
        ('{"matrix": [["1/2", "1/2"]]}', InvalidMechanismError, "column 0 sums to 1/2"),
        ('{"matrix": [[1], [0]], "inputs": ["a", "b"]}', InvalidMechanismError, "2 input labels"),
        ('{"matrix": [["1/2"], ["1/2"]], "exact": true}', None, None),
        ('{"matrix": [[1]], "inputs": [{"a": 1}]}', FormatError, "'inputs' labels must be strings"),
        ('{"matrix": [[1]], "outputs": [null]}', FormatError, "'outputs' labels must be strings"),
        (b'\xff\xfe{"matrix": [[1]]}', FormatError, "malformed mechanism JSON"),
    ],
)
def test_malformed_json(doc, error, match):
    if error is None:
        assert Mechanism.from_json(doc).exact
        return
    with pytest.raises(error, match=match):
        Mechanism.from_json(doc)


# ------------------------------------------------------------------------------------------------ randomized response
def test_randomized_response_matrix():
    M = randomized_response(2, "3/4")
    assert M.inputs == M.outputs == ("11", "10", "01", "00") == tuple(bit_strings(2))
    assert [str(v) for v in M.row("11")] == ["9/16", "3/16", "3/16", "1/16"]
    # entry = p^(agreeing bits) (1-p)^(flipped bits)
    p = Fraction(2, 3)
    M3 = randomized_response(3, p)
    for i, d in enumerate(M3.inputs):
        for w, o in enumerate(M3.outputs):
            flips = sum(a != b for a, b in zip(d, o))
            assert M3.matrix[w, i] == p ** (3 - flips) * (1 - p) ** flips
    F = randomized_response(2, 0.75)
    assert not F.exact and np.allclose(F.matrix, M.float_matrix())
    assert randomized_response(1, 1).matrix.tolist() == [[1, 0], [0, 1]]
    assert randomized_response(1, 0.75, exact=True).exact


@pytest.mark.parametrize(
    "k, p, error, match",
    [
        (2, "1/2", InvalidParameterError, r"p in \(1/2, 1\], got p = 1/2"),
        (2, 0.4, InvalidParameterError, r"got p = 0\.4"),
        (2, "3/2", InvalidParameterError, "got p = 3/2"),
        (2, 0, InvalidParameterError, "got p = 0"),
        (2, math.nan, InvalidParameterError, "nan is not finite"),
        (2, None, InvalidTypeError, "p must be a number"),
        (2, "three quarters", InvalidParameterError, "not a rational number"),
        (0, "3/4", InvalidParameterError, "k must be >= 1, got 0"),
        (2.0, "3/4", InvalidTypeError, "positive integer, got 2.0"),
        (True, "3/4", InvalidTypeError, "positive integer, got True"),
        (30, "3/4", SizeLimitError, r"2\^30 datasets"),
        (14, 0.75, SizeLimitError, r"16384 x 16384 float"),
    ],
)
def test_randomized_response_bad_parameters(k, p, error, match):
    with pytest.raises(error, match=match):
        randomized_response(k, p)


def test_exact_randomized_response_stays_factored_and_refuses_only_its_dense_matrix():
    M = randomized_response(12, "3/4")  # built from 12 one-bit factors: no 4096 x 4096 array
    assert M.exact and M.shape == (4096, 4096) and len(M.factors) == 12
    assert M.row("1" * 12)[0] == Fraction(3, 4) ** 12 and M.column("0" * 12)[0] == Fraction(1, 4) ** 12
    assert sum(M.column(5)) == 1
    with pytest.raises(SizeLimitError, match=r"4096 x 4096 exact"):
        M.matrix
    copy = Mechanism(M, outputs=[f"y{i}" for i in range(4096)])  # a relabelled copy stays factored
    assert copy.factors == M.factors and copy.outputs[1] == "y1" and copy.inputs == M.inputs
    small = randomized_response(3, "3/4")
    dense = Mechanism(small.matrix.tolist(), inputs=small.inputs, outputs=small.outputs)
    assert small == dense and list(small.row(2)) == list(dense.row(2))


def test_bit_strings():
    assert bit_strings(1) == ["1", "0"]
    assert bit_strings(3)[0] == "111" and bit_strings(3)[-1] == "000" and len(bit_strings(3)) == 8
    with pytest.raises(InvalidParameterError):
        bit_strings(0)


def test_operations_on_the_same_datasets_keep_the_domain():
    import privgeom as pg

    M = pg.Mechanism([[1, 0, "1/2"], [0, 1, "1/2"]], inputs=pg.Domain.counts(2))
    for derived in (M.to_float(), M.to_float().to_exact(), M.post_process([[1, 1]]), M.drop_zero_rows()):
        assert derived.domain == M.domain and derived.domain.kind == "counts"
    assert M.restrict(["0", "2"]).domain.kind == "labels"  # fewer datasets: plain labels
