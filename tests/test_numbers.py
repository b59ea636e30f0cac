"""One module for numbers: ``privgeom/_core/numbers.py`` prints, reads and serialises every kind
of number — each kind in each style, both sides of the one threshold ``MAX_PRINTED_BITS``, JSON round trips — and a
grep test keeps a second number formatter from appearing anywhere else in the package; the LaTeX of one inequality
(``privgeom/_core/display.py``), whose coefficients are numbers printed the LaTeX way.

Reference values are computed independently of the module: with ``mpmath`` at 60 digits (logs, huge quotients) or
by hand from the definition (``2^200 = 1.606938…e60``).
"""

from __future__ import annotations

import ast
import json
import math
import re
import struct
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import privgeom as pg
from privgeom._core import numbers as N
from privgeom import InvalidParameterError, InvalidTypeError
from privgeom._core.numbers import (
    MAX_PRINTED_BITS,
    fraction_str,
    level_text,
    log10_text,
    number_html,
    number_latex,
    number_text,
    printable,
    scalar_from_json,
    scalar_to_json,
)
from privgeom import LogRational
from privgeom._core.results import to_jsonable
from privgeom import Quantity

PACKAGE = Path(__file__).resolve().parents[1] / "privgeom"
#: A variable, not a literal: tests/test_examples.py reads literal glob patterns of test files as scripts they run.
PY_FILES = "*.py"
BIG = 2**MAX_PRINTED_BITS  # the smallest integer with more than MAX_PRINTED_BITS bits


@pytest.fixture(autouse=True)
def _mp_precision():
    with mpmath.workdps(60):  # references to 60 digits: ratios within 2^-127 of 1 stay distinct from 1
        yield


def _mp_sci(x: mpmath.mpf, digits: int) -> tuple[str, int]:
    """Mantissa (``digits`` significant digits, trailing zeros stripped as %g does) and exponent of ``x > 0``."""
    e = int(mpmath.floor(mpmath.log10(x)))
    m = x / mpmath.mpf(10) ** e
    text = mpmath.nstr(m, digits, strip_zeros=True)
    if text.startswith("10"):
        e, text = e + 1, mpmath.nstr(m / 10, digits, strip_zeros=True)
    return text.rstrip("0").rstrip(".") if "." in text else text, e


# ------------------------------------------------------------------------------------------------ kinds × styles
# (value, number_text, number_text(approx=True), number_latex, scalar_to_json)
SMALL_CASES = [
    (Fraction(3, 4), "3/4", "3/4 ≈ 0.75", "\\frac{3}{4}", "3/4"),
    (Fraction(-1, 3), "-1/3", "-1/3 ≈ -0.333333", "-\\frac{1}{3}", "-1/3"),
    (Fraction(12), "12", "12", "12", "12"),
    (7, "7", "7", "7", 7),
    (np.int64(-5), "-5", "-5", "-5", -5),
    (0.1 + 0.2, "0.3", "0.3", "0.3", 0.30000000000000004),
    (1.5e-7, "1.5e-07", "1.5e-07", "1.5 \\times 10^{-7}", 1.5e-07),
    (np.float64(2.0) / 3, "0.666667", "0.666667", "0.666667", 2 / 3),
    (math.inf, "inf", "inf", "\\infty", "inf"),
    (-math.inf, "-inf", "-inf", "-\\infty", "-inf"),
    (LogRational(3), "ln(3)", "ln(3) ≈ 1.09861", "\\ln 3", {"ln": "3", "value": math.log(3)}),
    (
        LogRational(Fraction(9, 4)),
        "ln(9/4)",
        "ln(9/4) ≈ 0.81093",
        "\\ln \\frac{9}{4}",
        {"ln": "9/4", "value": math.log(2.25)},
    ),
]


@pytest.mark.parametrize("value, text, approx, latex, data", SMALL_CASES, ids=[repr(c[0]) for c in SMALL_CASES])
def test_each_kind_in_each_style(value, text, approx, latex, data):
    assert number_text(value) == text
    assert number_text(value, approx=True) == approx
    assert number_latex(value) == latex
    assert number_html(value, approx=True) == approx.replace("&", "&amp;").replace("<", "&lt;")
    assert scalar_to_json(value) == data
    assert json.loads(json.dumps(scalar_to_json(value))) == data  # plain JSON data
    if isinstance(value, (Fraction, int, np.integer, LogRational)):
        assert fraction_str(value) == text  # the exact text: the same while printable


def test_nan_and_booleans():
    assert number_text(math.nan) == "nan" and scalar_to_json(math.nan) == "nan"
    assert math.isnan(scalar_from_json("nan")) and number_latex(math.nan) == "\\mathrm{NaN}"
    assert number_text(True) == "True" and number_text(np.bool_(False)) == "False" and scalar_to_json(True) is True


def test_digits_and_separator():
    assert number_text(Fraction(1, 3), digits=12, approx=True) == "1/3 ≈ 0.333333333333"
    assert number_text(LogRational(2), digits=12, approx=True, sep=" = ") == "ln(2) = 0.69314718056"
    assert number_text(math.pi, digits=15) == "3.14159265358979"
    assert fraction_str(0.1) == "0.1" and fraction_str(1 / 3) == repr(1 / 3)  # floats in full (repr)


def test_level_text_shows_the_decimal_value_of_exact_logs_only():
    assert level_text(LogRational(3)) == "ln(3) ≈ 1.09861" and level_text(Fraction(1, 4)) == "1/4"
    assert level_text(math.inf) == "inf" and level_text(0.25) == "0.25"


# ------------------------------------------------------------------------------------------------ the threshold
def test_threshold_integers_both_sides():
    below, above = BIG - 1, BIG  # 128 and 129 bits
    assert printable(below) and not printable(above)
    assert number_text(below) == str(below) == "340282366920938463463374607431768211455"
    mant, exp = _mp_sci(mpmath.mpf(above), 6)
    assert (
        number_text(above) == f"≈ {mant}e+{exp} (exact integer, 129 bits)" == "≈ 3.40282e+38 (exact integer, 129 bits)"
    )
    assert scalar_to_json(below) == below and scalar_to_json(above) == hex(above)  # JSON: exact either way
    assert number_latex(below) == str(below) and number_latex(above) == "\\approx 3.40282 \\times 10^{38}"


def test_threshold_fractions_both_sides():
    below, above = Fraction(1, BIG - 1), Fraction(1, BIG)
    assert number_text(below) == f"1/{BIG - 1}" and scalar_to_json(below) == f"1/{BIG - 1}"
    mant, exp = _mp_sci(1 / mpmath.mpf(BIG), 15)
    assert number_text(above, big_digits=15) == f"≈ {mant}e{exp} (exact rational, 129-bit denominator)"
    assert scalar_to_json(above) == f"0x1/{hex(BIG)}"
    # a big numerator over a small denominator names the numerator
    assert number_text(Fraction(3**100, 2)) == "≈ 2.57689e+47 (exact rational, 159-bit numerator)"
    assert number_text(-Fraction(BIG, 3)).startswith("≈ -1.13427e+38 (exact rational, 129-bit numerator)")


def test_threshold_log_rationals_both_sides():
    below = LogRational(Fraction(BIG - 1, BIG - 3))
    above = LogRational(Fraction(BIG + 1, BIG - 1))
    assert printable(below) and not printable(above)
    assert str(below) == f"ln({BIG - 1}/{BIG - 3})"
    ref = mpmath.log(mpmath.mpf(BIG + 1) / (BIG - 1))  # = 2^-127 (1 + O(2^-256))
    mant, exp = _mp_sci(ref, 12)
    assert (
        str(above)
        == f"ln(a/b with ~39-digit integers) ≈ {mant}e{exp}"
        == "ln(a/b with ~39-digit integers) ≈ 5.87747175411e-39"
    )
    data = scalar_to_json(above)
    assert data["ln"] == f"{hex(BIG + 1)}/{hex(BIG - 1)}" and data["value"] == float(ref) and "log10" not in data
    assert scalar_to_json(below)["ln"] == f"{BIG - 1}/{BIG - 3}"


def test_huge_and_tiny_values_print_through_their_log10():
    # far outside the double range: mantissa and exponent from the logarithm (mpmath as the reference)
    x = Fraction(7**2000, 3)
    mant, exp = _mp_sci(mpmath.mpf(7) ** 2000 / 3, 6)
    assert number_text(x) == f"≈ {mant}e+{exp} (exact rational, 5615-bit numerator)"
    tiny = LogRational(1 + Fraction(1, 2**4000))  # ln(1 + 2^-4000) = 2^-4000 (1 - 2^-4001 + …) ≈ 7.6e-1205
    mant, exp = _mp_sci(mpmath.log1p(mpmath.mpf(2) ** -4000), 12)
    assert number_text(tiny, digits=12, approx=True, sep=" = ").endswith(f" = {mant}e{exp}")
    assert mant == "7.58607870347" and exp == -1205
    data = scalar_to_json(tiny)
    assert data["value"] == 0.0 and data["log10"] == pytest.approx(
        float(mpmath.log10(mpmath.log1p(mpmath.mpf(2) ** -4000))), rel=1e-15
    )
    assert (
        number_text(LogRational(1 / (1 + Fraction(1, 2**4000))), digits=12)
        == f"ln(a/b with ~1204-digit integers) ≈ -{mant}e{exp}"
    )


def test_log10_text():
    assert log10_text(-2.0) == "0.01" and log10_text(-math.inf) == "0" and log10_text(math.inf) == "inf"
    assert log10_text(-48228829.547766924) == "2.83291e-48228830"  # the README's smoothed δ
    assert log10_text(1000 + math.log10(2)) == "2e+1000"
    assert log10_text(-400 - 1e-9, 3) == "1e-400"  # mantissa 9.99999… rounds to 10: the exponent moves up
    assert log10_text(math.log10(3.5) + 305) == "3.5e+305"


# ------------------------------------------------------------------------------------------------ JSON round trips
def _json_trip(value):
    return scalar_from_json(json.loads(json.dumps(scalar_to_json(value))))


fractions = st.builds(Fraction, st.integers(-(2**400), 2**400), st.integers(1, 2**400))


@given(fractions)
def test_fraction_json_round_trip_is_the_identity(x):
    back = _json_trip(x)
    assert type(back) is Fraction and back == x


@given(st.floats(allow_nan=False))
def test_float_json_round_trip_is_bit_for_bit(x):
    back = _json_trip(x)
    assert type(back) is float and struct.pack("<d", back) == struct.pack("<d", x)


@given(st.integers(-(2**300), 2**300))
def test_integer_json_round_trip(n):
    back = _json_trip(n)
    assert back == n and isinstance(back, Fraction)  # an exact number reads back exact


@given(st.builds(Fraction, st.integers(1, 2**300), st.integers(1, 2**300)))
def test_log_rational_json_round_trip(r):
    assert _json_trip(LogRational(r)) == LogRational(r)


def test_old_json_shapes_still_load():
    r = Fraction(3**9000, 2**14000)  # the old hex shape of LogRational (integers beyond 14,000 bits)
    old = {
        "ln": None,
        "numerator_hex": hex(r.numerator),
        "denominator_hex": hex(r.denominator),
        "value": float(LogRational(r)),
    }
    assert scalar_from_json(old) == LogRational(r)
    assert scalar_from_json({"exact": "1425/2048", "value": 0.6958}) == Fraction(1425, 2048)  # voting CLI
    assert scalar_from_json({"exact": None, "value": 0.25}) == 0.25  # the exact value was left out: the float
    assert scalar_from_json({"ln": None, "value": 1e-300}) == 1e-300
    assert scalar_from_json({"ln": "11/5", "value": 0.78}) == LogRational(Fraction(11, 5))
    assert scalar_from_json("3/4") == Fraction(3, 4) and scalar_from_json(3) == Fraction(3)


def test_bad_json_names_the_value():
    with pytest.raises(InvalidParameterError, match=r"p = \{'x': 1\} is not the JSON form of a number"):
        scalar_from_json({"x": 1}, name="p")
    with pytest.raises(InvalidParameterError, match="'0xg/0x1'"):
        scalar_from_json("0xg/0x1")
    with pytest.raises(InvalidParameterError, match="'0x1/0x0'"):
        scalar_from_json("0x1/0x0")
    with pytest.raises(InvalidTypeError):
        scalar_to_json(object())


def test_results_and_saved_mechanisms_use_the_one_json():
    q = Quantity(Fraction(2**200, 3), "x")
    assert q.to_dict()["value"] == f"{hex(2**200)}/0x3" and to_jsonable([Fraction(1, 2), 2.5]) == ["1/2", 2.5]
    assert q.summary() == "x = ≈ 5.35646014753e+59 (exact rational, 201-bit numerator) (exact)"
    p = Fraction(1, 2) + Fraction(1, 2**200)  # a mechanism whose entries are too big to print: JSON in hex, exact
    M = pg.Mechanism([[p, 1 - p], [1 - p, p]])
    data = json.loads(M.to_json())
    assert data["matrix"][0][0].startswith("0x") and pg.Mechanism.from_json(data) == M


def test_integer_rows_are_written_as_their_fractions_are():
    from privgeom.cli._render import IntegerRow

    for values in ([3, -1, 0], [2**130, -(2**129), 7]):
        row = IntegerRow(np.array(values, dtype=object))
        as_fractions = json.dumps(to_jsonable([Fraction(v) for v in values]))
        assert row.json() == as_fractions == json.dumps([N.integer_json(v) for v in values])
        assert [scalar_from_json(v) for v in json.loads(row.json())] == values
    assert IntegerRow(np.array([5, -2])).json() == '["5", "-2"]'  # int64 rows


def test_parse_scalar_reads_the_hex_json_form():
    assert N.parse_scalar("-0x1f/0x2") == Fraction(-31, 2) and N.parse_scalar("0X10") == 16
    assert N.is_exact_scalar("0x3/0x4") and not N.is_exact_scalar("0x")


# ------------------------------------------------------------------------------------------------ one formatter
#: A function named like a number formatter (``_fmt``, ``fmt_coef``, ``format_x``, ``_num``, ``_show``, ``x_text``,
#: ``x_str``, ``_shown``) that itself formats numbers: a numeric format spec (``:.6g``, ``:g``, ``.3e``, ``.1f``, ``%``)
#: or a ``bit_length()`` size test. A function of that name that delegates to numbers.py is fine.
FORMATTER_NAME = re.compile(r"^_?(fmt|format|num|number|show|shown)(_\w+)?$|_(fmt|num|number|text|str|shown)$")
NUMERIC_SPEC = re.compile(r"[eEfFgG%]$")
#: The general format of numbers (``:g``, ``:.6g``, ``:>18.10g``): number_text's job everywhere. Fixed-point and
#: exponent formats of diagnostics (``{seconds:.2f} s``, ``gap {g:.3e}``) are not flagged.
G_SPEC = re.compile(r"^[<>^=]?\d*(\.\d+)?[gG]$")


def _numeric_specs(node: ast.AST) -> list[str]:
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.FormattedValue) and n.format_spec is not None:
            spec = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in n.format_spec.values)
            if NUMERIC_SPEC.search(spec):
                out.append(spec)
    return out


def _calls_exact_text(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("str", "repr", "fraction_str")
        for n in ast.walk(node)
    )


def _rounding_specs(tree: ast.AST) -> set[int]:
    """ids of the f-string parts read straight back by ``float(f"{x:.9g}")``: rounding, not text."""
    return {
        id(v)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "float"
        and len(n.args) == 1
        and isinstance(n.args[0], ast.JoinedStr)
        for v in n.args[0].values
    }


def second_formatters(source: str, where: str) -> list[str]:
    """The number formatters written in ``source`` outside numbers.py: formatter-named functions that format numbers
    themselves, ``str(x) if exact else f"{x:.6g}"``-style choices between an exact text and a float format,
    ``bit_length()`` compared with a constant of 100 or more (a "too big to print" threshold of its own), and any
    ``{x:.6g}``-style (general format) field of an f-string."""
    found = []
    tree = ast.parse(source)
    rounding = _rounding_specs(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None and id(node) not in rounding:
            spec = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.format_spec.values)
            if G_SPEC.match(spec):
                found.append(f"{where}:{node.lineno} {{{ast.unparse(node.value)[:50]}:{spec}}} (use number_text)")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and FORMATTER_NAME.search(node.name):
            bits = [n for n in ast.walk(node) if isinstance(n, ast.Attribute) and n.attr == "bit_length"]
            if _numeric_specs(node) or bits:
                found.append(f"{where}:{node.lineno} function {node.name} formats numbers itself")
        elif isinstance(node, ast.IfExp):
            for a, b in ((node.body, node.orelse), (node.orelse, node.body)):
                if _calls_exact_text(a) and not _numeric_specs(a) and _numeric_specs(b):
                    found.append(f"{where}:{node.lineno} exact-or-float text: {ast.unparse(node)[:80]}")
                    break
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(
                isinstance(s, ast.Call) and isinstance(s.func, ast.Attribute) and s.func.attr == "bit_length"
                for s in ast.walk(node)
            ) and any(isinstance(s, ast.Constant) and isinstance(s.value, int) and s.value >= 100 for s in sides):
                found.append(f"{where}:{node.lineno} a bit-size threshold of its own: {ast.unparse(node)[:80]}")
    return found


OLD_FORMATTERS = {  # what the package had before numbers.py: each must be found
    "display.fmt": 'def fmt(v):\n    if isinstance(v, float):\n        return f"{float(v):.6g}"\n    return str(v)\n',
    "profile.format_level": 'def format_level(value):\n    return f"{value} ≈ {float(value):.6g}"\n',
    "pufferfish._fmt": 'def _fmt(v):\n    return fraction_str(v) if isinstance(v, Fraction) else f"{float(v):.6g}"\n',
    "nearest inline": 'd = fraction_str(self.distance) if self.exact else f"{float(self.distance):.6g}"\n',
    "voting._log_text": 'def _log_text(value):\n    digits = value.bit_length() * 0.30103\n    return f"{digits:.0f}"\n',
    "LogRational.__str__": "if max(num, den).bit_length() > 200:\n    pass\n",
    "mechanism table": "cells = [f\"{(str(v) if exact else f'{v:.4g}'):>8}\" for v in row]\n",
    "inline g format": 'msg = f"gap {gap:.3g} exceeds the tolerance {tol:g}"\n',
    "aligned g format": 'line = f"{i:>6} {float(r):>18.10g}"\n',
    "summary": 'def summary(self):\n    return f"accuracy {self.accuracy:.15g}"\n',
}


@pytest.mark.parametrize("name", sorted(OLD_FORMATTERS))
def test_the_detector_finds_the_old_formatters(name):
    assert second_formatters(OLD_FORMATTERS[name], name), name


def test_the_detector_leaves_unrelated_code_alone():
    fine = (
        "def _log_text(v):\n    return number_text(v, digits=12)\n"
        'msg = f"gap {number_text(gap, digits=3)} after {seconds:.2f} s; gap {gap:.3e}; {n:>6} {label!r:>8}"\n'
        "K = 1 << n.bit_length()\nbig = value.bit_length() > 62\n"
        'key = float(f"{x:.9g}")\n'
    )
    assert second_formatters(fine, "fine") == []


def test_no_second_number_formatter_in_the_package():
    found = []
    for path in sorted(PACKAGE.rglob(PY_FILES)):
        if path == PACKAGE / "_core" / "numbers.py":
            continue
        found += second_formatters(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
    assert not found, "number formatting belongs in privgeom/_core/numbers.py:\n" + "\n".join(found)


def test_tiny_epsilon_is_printed_from_its_logarithm() -> None:
    """Parity at n = 9999, ρ = 1/2 (the voting level): ε = ln((1 + 2^-9999)/(1 − 2^-9999)) ≈ 2^-9998, far below a
    double; its log10 comes from the logarithm, against mpmath at 30 digits."""
    ratio = Fraction(2**9999 + 1, 2**9999 - 1)
    with mpmath.workdps(30):
        x = mpmath.mpf(2) ** -9999
        ref = float(mpmath.log10(mpmath.log1p(x) - mpmath.log1p(-x)))
    assert math.isclose(N.log10_of_log(ratio), ref, rel_tol=1e-14)


def test_latex_fractions_floats_and_labels():
    from privgeom import to_latex
    from privgeom._core.display import latex_inequality

    assert (
        latex_inequality([Fraction(1, 2), -1], ["a", "b_c"], align=False) == r"\frac{1}{2} x_{a} \geq x_{\text{b\_c}}"
    )
    assert latex_inequality([1.5, -2.0], ["0", "1"], align=False) == r"1.5 x_{0} \geq 2 x_{1}"
    g = pg.semantics(pg.RandomizedResponse(1, "3/4"))[0]
    assert g._repr_latex_() == r"$3 x_{1} \geq x_{0}$"
    with pytest.raises(pg.InvalidTypeError):
        to_latex(object())
    with pytest.raises(pg.InvalidTypeError):
        to_latex([1, 2])
