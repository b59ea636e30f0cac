"""Numbers: THE module that reads, prints and serialises every kind of number privgeom handles.

Kinds of number
    * exact integers (any size) and ``fractions.Fraction`` — exact mode;
    * ``float`` (and numpy scalars) — float mode;
    * :class:`LogRational` — ``ln(r)`` of a positive rational, kept exactly (the exact form of ε);
    * log-space values — a positive number known by its ``log10`` only (a δ far below ``1e-308``), printed by
      :func:`log10_text`.

Styles
    :func:`number_text` (plain text for people), :func:`number_latex` (LaTeX math), :func:`number_html` (escaped HTML),
    :func:`fraction_str` (the exact text: ``p/q``, a float's ``repr``), :func:`level_text` (a level or a probability
    for tables and legends: ``ln(3) ≈ 1.09861``), :func:`log10_text` and :func:`memory_text` (bytes). JSON:
    :func:`scalar_to_json` and its inverse :func:`scalar_from_json`; parsing: :func:`parse_scalar`.

Too big to print in full
    One threshold, :data:`MAX_PRINTED_BITS` = 128 bits (39 decimal digits): an integer, or a numerator or denominator,
    with more bits is never written out in decimal. Text shows the number by its size and its value to ``digits``
    significant digits (``≈ 0.0460275144190344 (exact rational, 297-bit denominator)``,
    ``ln(a/b with ~52-digit integers) ≈ 0.52574908464``); JSON writes it exactly in hexadecimal
    (``"0x1f/0x2"``), which has no length limit (Python refuses to convert integers of more than 4,300 decimal
    digits to decimal text) and reads back bit for bit.

JSON of numbers (one shape per kind; ``docs/ARCHITECTURE.md``, "Results")
    * an exact rational or integer: the string ``"p/q"`` (``"3"`` for an integer; a Python ``int`` up to the
      threshold stays a JSON number), in hexadecimal ``"0x…/0x…"`` beyond the threshold;
    * a float: a JSON number; ``"inf"``, ``"-inf"``, ``"nan"`` for the non-finite ones;
    * a :class:`LogRational`: ``{"ln": <the ratio as an exact rational>, "value": <ln as a float>}`` with
      ``"log10": log10(ln ratio)`` added when the float underflows (``0 < ln ratio < 1e-300``).
    :func:`scalar_from_json` also reads the shapes of earlier versions: ``{"ln": null, "numerator_hex": …,
    "denominator_hex": …}``, ``{"ln": null, "value": …}`` (a float) and ``{"exact": "p/q" | null, "value": …}``.

Examples
--------
>>> from fractions import Fraction
>>> number_text(Fraction(3, 4)), number_text(0.1 + 0.2), number_text(LogRational(3), approx=True)
('3/4', '0.3', 'ln(3) ≈ 1.09861')
>>> number_text(Fraction(1, 3**90), digits=4)
'≈ 1.146e-43 (exact rational, 143-bit denominator)'
>>> number_latex(Fraction(-3, 4)), number_html(LogRational(Fraction(9, 4)))
('-\\\\frac{3}{4}', 'ln(9/4)')
>>> scalar_to_json(Fraction(3, 4)), scalar_to_json(Fraction(2**130, 3)), scalar_to_json(LogRational(3))
('3/4', '0x400000000000000000000000000000000/0x3', {'ln': '3', 'value': 1.0986122886681098})
>>> scalar_from_json('0x400000000000000000000000000000000/0x3') == Fraction(2**130, 3)
True
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational, Real
from collections.abc import Mapping
from typing import Any, Union

import numpy as np

from .errors import FormatError, InvalidParameterError, InvalidTypeError

__all__ = [
    "Scalar",
    "TINY",
    "MAX_PRINTED_BITS",
    "is_exact_scalar",
    "parse_scalar",
    "log_of_ratio",
    "log10_of_log",
    "LogRational",
    "printable",
    "number_text",
    "number_latex",
    "number_html",
    "fraction_str",
    "level_text",
    "log10_text",
    "memory_text",
    "scalar_to_json",
    "scalar_from_json",
    "integer_json",
]

Scalar = Union[Fraction, float]

#: A positive float below this is too close to the bottom of the double range to take its log10 reliably (a
#: quantity this small is carried by its log instead: :func:`log10_of_log`).
TINY = 1e-300

#: THE "too big to print in full" threshold: an integer (or the numerator or denominator of a rational, or of the
#: ratio of a :class:`LogRational`) of more than this many bits — 2^128 ≈ 3.4e38, at most 39 decimal digits, so
#: that a fraction fits on a line — is not written out in decimal: text shows its size and value
#: (:func:`number_text`), JSON writes it exactly in hexadecimal (:func:`scalar_to_json`).
MAX_PRINTED_BITS = 128

_LOG10_2 = math.log10(2)


# ================================================================================================== parsing
def is_exact_scalar(value: Any) -> bool:
    """Return True when ``value`` is an exact rational (int, Fraction, numpy integer or rational string)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, Fraction, np.integer)):
        return True
    if isinstance(value, str):
        return _rational_from_text(value) is not None
    return False


_HEX = re.compile(r"\s*([+-]?)0[xX]([0-9a-fA-F]+)(?:\s*/\s*0[xX]([0-9a-fA-F]+))?\s*")


def _rational_from_text(text: str) -> Fraction | None:
    """``"3/4"``, ``"0.75"``, ``"1e-3"`` or the hexadecimal JSON form ``"-0x1f/0x2"`` as a Fraction; None if neither."""
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        pass
    m = _HEX.fullmatch(text)
    if m is None or (m.group(3) is not None and int(m.group(3), 16) == 0):
        return None
    value = Fraction(int(m.group(2), 16), int(m.group(3), 16) if m.group(3) else 1)
    return -value if m.group(1) == "-" else value


def parse_scalar(value: Any, *, name: str = "value", exact: bool | None = None) -> Scalar:
    """Parse one number into a ``Fraction`` (exact) or a ``float``.

    Parameters
    ----------
    value : int, Fraction, float, str or numpy scalar
        Strings are parsed as rationals (``"3/4"``, ``"0.75"``, ``"1e-3"``, and the hexadecimal form
        ``"0x1f/0x2"`` that :func:`scalar_to_json` writes beyond :data:`MAX_PRINTED_BITS`).
    name : str
        Name used in error messages.
    exact : bool, optional
        ``True`` forces a Fraction (floats are converted exactly, bit for bit); ``False`` forces a float;
        ``None`` keeps the mode of the input.

    Raises
    ------
    InvalidTypeError
        For booleans, None, complex numbers and other non-numbers.
    InvalidParameterError
        For unparsable strings, NaN and infinities, and (with ``exact=False``) rationals beyond the float range.

    Examples
    --------
    >>> parse_scalar("2/6"), parse_scalar(3, exact=False), parse_scalar(0.5, exact=True)
    (Fraction(1, 3), 3.0, Fraction(1, 2))
    """
    if isinstance(value, bool) or value is None:
        raise InvalidTypeError(f"{name} must be a number, got {value!r}")
    out: Scalar
    if isinstance(value, str):
        parsed = _rational_from_text(value)
        if parsed is None:
            raise InvalidParameterError(f"{name} = {value!r} is not a rational number like '3/4' or '0.75'")
        out = parsed
    elif isinstance(value, (int, np.integer)):
        out = Fraction(int(value))
    elif isinstance(value, Fraction):
        out = value
    elif isinstance(value, (float, np.floating)):
        out = float(value)
        if not math.isfinite(out):
            raise InvalidParameterError(f"{name} = {value!r} is not finite")
    elif isinstance(value, Rational):
        out = Fraction(int(value.numerator), int(value.denominator))
    elif isinstance(value, Real):
        out = float(value)
        if not math.isfinite(out):
            raise InvalidParameterError(f"{name} = {value!r} is not finite")
    else:
        raise InvalidTypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if exact is True and isinstance(out, float):
        return Fraction(out)
    if exact is False and isinstance(out, Fraction):
        try:
            return float(out)
        except OverflowError:
            raise InvalidParameterError(f"{name} = {value!r} is too large for a float") from None
    return out


# ================================================================================================== exact logs
#: Beyond this binary exponent gap between numerator and denominator, ``num / den`` would overflow a float, so
#: :func:`log_of_ratio` scales by a power of two first.
_LOG_SHIFT_LIMIT = 1000


def log_of_ratio(ratio: Fraction) -> float:
    """``ln(ratio)`` of a positive rational to full relative precision: THE accurate log of a rational.

    Near 1 (``|ratio − 1| ≤ 1/2``) through ``log1p`` of the correctly rounded ``(num − den)/den``; elsewhere through
    the correctly rounded quotient ``num / den``, scaled by a power of two when the integers have thousands of
    digits (``ln(num) − ln(den)`` would cancel near 1 and lose digits far from it).

    Examples
    --------
    >>> log_of_ratio(Fraction(2**60 + 1, 2**60 - 1)) == math.log1p(2 / (2**60 - 1))
    True
    >>> abs(log_of_ratio(Fraction(3**50000, 2**70000)) - (50000 * math.log(3) - 70000 * math.log(2))) < 1e-9
    True
    """
    if ratio <= 0:
        raise InvalidParameterError(f"the logarithm needs a positive ratio, got {ratio}")
    d = ratio - 1
    if abs(d) <= Fraction(1, 2):
        return math.log1p(d.numerator / d.denominator)  # int / int is correctly rounded in Python
    num, den = ratio.numerator, ratio.denominator
    shift = num.bit_length() - den.bit_length()  # ratio = 2^shift · m with m in (1/2, 2)
    if abs(shift) < _LOG_SHIFT_LIMIT:
        return math.log(num / den)
    m = num / (den << shift) if shift >= 0 else (num << -shift) / den  # big-int true division is correctly rounded
    return math.log(m) + shift * math.log(2)


def log10_of_log(ratio: Fraction) -> float:
    """``log10(ln(ratio))`` for a rational ``ratio > 1``, finite even when ``ln(ratio)`` underflows a double
    (``ratio = 1 + d`` with ``d < 1e-300``: ``ln(1 + d) = d (1 − d/2 + …)``, so ``log10 ln(ratio) = log10 d`` to
    double precision; ``math.log10`` takes Python integers of any size).

    Examples
    --------
    >>> round(log10_of_log(Fraction(3)), 12) == round(math.log10(math.log(3)), 12)
    True
    >>> round(log10_of_log(1 + Fraction(1, 2**4000)), 6)    # ln(1 + 2^-4000) = 7.6e-1205
    -1204.119983
    """
    value = log_of_ratio(ratio)
    if value > TINY:
        return math.log10(value)
    d = ratio - 1
    return math.log10(d.numerator) - math.log10(d.denominator)


@dataclass(frozen=True)
class LogRational:
    """The natural logarithm of a positive rational, kept exactly: ``ln(ratio)``.

    Used for exact privacy parameters: ``ε = ln(p/(1-p))`` is ``LogRational(Fraction(p, 1-p))``.
    Compares, orders and converts to float through the ratio (``ln`` is increasing), so
    ``LogRational(3) > LogRational(2)`` is decided exactly. ``str`` is :func:`fraction_str`, the JSON form
    :func:`scalar_to_json`.

    Examples
    --------
    >>> e = LogRational(Fraction(3, 1))
    >>> e.ratio, str(e), e.to_dict()
    (Fraction(3, 1), 'ln(3)', {'ln': '3', 'value': 1.0986122886681098})
    >>> LogRational.from_json(e.to_json()) == e
    True
    >>> LogRational(1) == 0, LogRational(Fraction(9, 4)) < LogRational(3)
    (True, True)
    >>> float(LogRational(Fraction(10**30 + 1, 10**30)))  # near 1: no cancellation
    1e-30
    """

    ratio: Fraction

    def __post_init__(self) -> None:
        ratio = parse_scalar(self.ratio, name="ratio", exact=True)
        if ratio <= 0:
            raise InvalidParameterError(f"the logarithm needs a positive ratio, got {ratio}")
        object.__setattr__(self, "ratio", ratio)

    def __float__(self) -> float:
        return log_of_ratio(self.ratio)

    def __str__(self) -> str:
        return fraction_str(self)

    def _key(self, other: Any) -> tuple[Fraction, Fraction] | None:
        if isinstance(other, LogRational):
            return self.ratio, other.ratio
        if isinstance(other, (int, np.integer)) and int(other) == 0:
            return self.ratio, Fraction(1)
        return None

    def __eq__(self, other: Any) -> bool:
        key = self._key(other)
        if key is not None:
            return key[0] == key[1]
        if isinstance(other, (float, int)):
            return float(self) == float(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("ln", self.ratio))

    def __lt__(self, other: Any) -> bool:
        key = self._key(other)
        if key is not None:
            return key[0] < key[1]
        return float(self) < float(other)

    def __le__(self, other: Any) -> bool:
        return self == other or self < other

    def __gt__(self, other: Any) -> bool:
        return not self <= other

    def __ge__(self, other: Any) -> bool:
        return not self < other

    def to_dict(self) -> dict[str, Any]:
        """``{"ln": "<ratio>", "value": <float>}`` (:func:`scalar_to_json`)."""
        return scalar_to_json(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "LogRational":
        """Read back :meth:`to_dict` (:func:`scalar_from_json`)."""
        value = scalar_from_json(dict(data), name="LogRational")
        if not isinstance(value, LogRational):
            raise FormatError(f"{dict(data)!r} is not the JSON of a LogRational ({{'ln': 'p/q', 'value': …}})")
        return value

    def to_json(self, indent: int | None = 1) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> "LogRational":
        """Read back :meth:`to_json` (JSON text, or its dict)."""
        return cls.from_dict(text if isinstance(text, Mapping) else json.loads(text))


# ================================================================================================== text
def _bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _exact(value: Any) -> Fraction | None:
    """``value`` as a Fraction when it is an exact number (int, numpy integer, Fraction, other rational), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    return None


def printable(value: Any) -> bool:
    """True when ``value`` is written out in full: its integers (of a rational, or of the ratio of a
    :class:`LogRational`) have at most :data:`MAX_PRINTED_BITS` bits. Floats always are.

    Examples
    --------
    >>> printable(Fraction(1, 2**128 - 1)), printable(Fraction(1, 2**128)), printable(1e300)
    (True, False, True)
    """
    if isinstance(value, LogRational):
        return _bits(value.ratio) <= MAX_PRINTED_BITS
    exact = _exact(value)
    return exact is None or _bits(exact) <= MAX_PRINTED_BITS


def _float_text(value: float, digits: int) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}g}"


def _decimal(value: Fraction, digits: int) -> str:
    """The value of a rational of any size to ``digits`` significant digits (through its log10 outside the range of
    a double)."""
    if value == 0:
        return "0"
    sign, a = ("-" if value < 0 else ""), abs(value)
    try:
        f = float(a)  # correctly rounded
    except OverflowError:
        f = math.inf
    if TINY <= f < math.inf:
        return sign + _float_text(f, digits)
    return sign + log10_text(math.log10(a.numerator) - math.log10(a.denominator), digits)


def _log_value(value: LogRational, digits: int) -> str:
    """``ln(ratio)`` to ``digits`` significant digits, to full relative precision; a value below a double's range
    keeps its digits and exponent (through :func:`log10_of_log`)."""
    r = value.ratio
    ln = log_of_ratio(r)
    if r == 1 or abs(ln) >= TINY:
        return _float_text(ln, digits)
    return ("-" if r < 1 else "") + log10_text(log10_of_log(r if r > 1 else 1 / r), digits)


def number_text(
    value: Any, *, digits: int = 6, approx: bool = False, sep: str = " ≈ ", big_digits: int | None = None
) -> str:
    """A number as text for people: THE text formatter of privgeom.

    Exact numbers are written exactly — ``3/4``, ``12``, ``ln(3)`` — while their integers have at most
    :data:`MAX_PRINTED_BITS` bits; beyond, by their size and value (``≈ 0.0460275 (exact rational, 297-bit
    denominator)``, ``ln(a/b with ~52-digit integers) ≈ 0.525749``). Floats with ``digits`` significant digits
    (``inf``, ``-inf``, ``nan`` as such); booleans as ``True``/``False``; anything else with ``str``.

    Parameters
    ----------
    value : int, Fraction, float, LogRational, bool or numpy scalar
    digits : int
        Significant digits of floats and of the decimal value of exact numbers.
    approx : bool
        Follow an exact non-integer (a fraction, an exact log) by its decimal value: ``3/4 ≈ 0.75``.
    sep : str
        What stands between an exact number and its decimal value (``" ≈ "``; ``" = "`` where the digits are
        meant as the value to that precision).
    big_digits : int, optional
        Significant digits of the value of a number too big to print in full (default ``digits``).

    Examples
    --------
    >>> number_text(Fraction(3, 4), approx=True), number_text(2 / 3), number_text(np.int64(7)), number_text(True)
    ('3/4 ≈ 0.75', '0.666667', '7', 'True')
    >>> number_text(LogRational(Fraction(3**100, 2**100)), digits=12, sep=" = ")
    'ln(a/b with ~48-digit integers) = 40.5465108108'
    >>> number_text(2**200)
    '≈ 1.60694e+60 (exact integer, 201 bits)'
    >>> number_text(-Fraction(3**200, 7))
    '≈ -3.79449e+94 (exact rational, 317-bit numerator)'
    """
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    big = big_digits if big_digits is not None else digits
    if isinstance(value, LogRational):
        bits = _bits(value.ratio)
        if bits <= MAX_PRINTED_BITS:
            head = f"ln({value.ratio})"
            return head + sep + _log_value(value, digits) if approx else head
        return f"ln(a/b with ~{bits * _LOG10_2:.0f}-digit integers){sep}{_log_value(value, big)}"
    exact = _exact(value)
    if exact is not None:
        if _bits(exact) <= MAX_PRINTED_BITS:
            text = str(exact)
            return text + sep + _decimal(exact, digits) if approx and exact.denominator != 1 else text
        p, q = abs(exact.numerator).bit_length(), exact.denominator.bit_length()
        what = (
            f"integer, {p} bits"
            if exact.denominator == 1
            else (f"rational, {q}-bit denominator" if q > MAX_PRINTED_BITS else f"rational, {p}-bit numerator")
        )
        return f"≈ {_decimal(exact, big)} (exact {what})"
    if isinstance(value, (float, np.floating, Real)):
        return _float_text(float(value), digits)
    return str(value)


def fraction_str(value: Any) -> str:
    """The exact text of a number: ``p/q`` (``3`` for an integer), ``ln(r)``, a float's ``repr`` (every digit, so
    the float reads back bit for bit); beyond :data:`MAX_PRINTED_BITS` the short form of :func:`number_text` with
    12 significant digits. ``str`` of a :class:`LogRational` and of an exact level.

    Examples
    --------
    >>> fraction_str(Fraction(6, 8)), fraction_str(0.1), fraction_str(LogRational(3)), fraction_str(Fraction(4))
    ('3/4', '0.1', 'ln(3)', '4')
    """
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return number_text(value, digits=12)


def level_text(value: Any) -> str:
    """A privacy level or a probability as short text, for tables, legends and curves: ``ln(r) ≈ x`` for exact logs,
    ``p/q`` for Fractions, 6 significant digits for floats (:func:`number_text`).

    Examples
    --------
    >>> level_text(LogRational(3)), level_text(Fraction(1, 4)), level_text(math.inf), level_text(0.25)
    ('ln(3) ≈ 1.09861', '1/4', 'inf', '0.25')
    """
    return number_text(value, approx=isinstance(value, LogRational))


def number_html(value: Any, *, digits: int = 6, approx: bool = False) -> str:
    """:func:`number_text` escaped for HTML.

    Examples
    --------
    >>> number_html(Fraction(3, 4), approx=True), number_html(2**300)
    ('3/4 ≈ 0.75', '≈ 2.03704e+90 (exact integer, 301 bits)')
    """
    return html.escape(number_text(value, digits=digits, approx=approx))


def _latex_decimal(text: str) -> str:
    """``1.5e-07`` → ``1.5 \\times 10^{-7}`` (LaTeX has no e-notation); other decimals as they are."""
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa} \\times 10^{{{int(exponent)}}}"


def number_latex(value: Any, *, digits: int = 6) -> str:
    """A number in LaTeX math: integers as they are, ``\\frac{p}{q}`` (sign in front), ``\\ln 3``, floats with
    ``digits`` significant digits (``1.5 \\times 10^{-7}``, ``\\infty``); beyond :data:`MAX_PRINTED_BITS`,
    ``\\approx`` and the value.

    Examples
    --------
    >>> number_latex(Fraction(-3, 4)), number_latex(7), number_latex(LogRational(Fraction(3, 2))), number_latex(1.5e-7)
    ('-\\\\frac{3}{4}', '7', '\\\\ln \\\\frac{3}{2}', '1.5 \\\\times 10^{-7}')
    >>> number_latex(Fraction(1, 3**90)), number_latex(-math.inf)
    ('\\\\approx 1.14574 \\\\times 10^{-43}', '-\\\\infty')
    """
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, LogRational):
        if printable(value):
            return f"\\ln {number_latex(value.ratio, digits=digits)}"
        return f"\\approx {_latex_decimal(_log_value(value, digits))}"
    exact = _exact(value)
    if exact is not None:
        if _bits(exact) > MAX_PRINTED_BITS:
            return f"\\approx {_latex_decimal(_decimal(exact, digits))}"
        sign, a = ("-" if exact < 0 else ""), abs(exact)
        return f"{sign}{a.numerator}" if a.denominator == 1 else f"{sign}\\frac{{{a.numerator}}}{{{a.denominator}}}"
    f = float(value)
    if math.isnan(f):
        return "\\mathrm{NaN}"
    if math.isinf(f):
        return "\\infty" if f > 0 else "-\\infty"
    return _latex_decimal(f"{f:.{digits}g}")


def log10_text(log10: float, digits: int = 6) -> str:
    """A positive number given by its ``log10``, for people: ``%g`` while it is a normal double, else mantissa and
    exponent from the logarithm (``2.83291e-48228830``), so values far outside the double range still print right.

    Examples
    --------
    >>> log10_text(-2.0), log10_text(-48228829.547766924), log10_text(-math.inf), log10_text(1000.5)
    ('0.01', '2.83291e-48228830', '0', '3.16228e+1000')
    >>> log10_text(-400 - 1e-9, 3)     # the mantissa rounds up to 10: the exponent moves
    '1e-400'
    """
    if log10 == -math.inf:
        return "0"
    if log10 == math.inf:
        return "inf"
    if -300 < log10 < 300:
        return f"{10.0**log10:.{digits}g}"
    whole = math.floor(log10)
    mantissa = f"{10.0 ** (log10 - whole):.{digits}g}"
    if float(mantissa) >= 10:  # 9.9999… rounded up
        whole += 1
        mantissa = f"{float(mantissa) / 10:.{digits}g}"
    return f"{mantissa}e{whole:+d}" if whole > 0 else f"{mantissa}e{whole}"


def memory_text(n_bytes: int | float) -> str:
    """``n_bytes`` in words (``"512.0 MiB"``, ``"6.4 GB"`` style, binary units; huge sizes in powers of ten).

    Examples
    --------
    >>> memory_text(2**29), memory_text(3 * 10**12), memory_text(8 * 10**40)
    ('512.0 MiB', '2.7 TiB', '8e+40 bytes')
    """
    value = float(n_bytes)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if value < 1024 or unit == "PiB":
            break
        value /= 1024
    if unit == "PiB" and value >= 1024:
        return f"{float(n_bytes):.3g} bytes"
    return f"{int(value)} bytes" if unit == "bytes" else f"{value:.1f} {unit}"


# ================================================================================================== JSON
def _rational_json(value: Fraction) -> str:
    """``"p/q"`` (``"p"`` for an integer); in hexadecimal (``"-0x1f/0x2"``) beyond :data:`MAX_PRINTED_BITS`."""
    if value.numerator.bit_length() <= MAX_PRINTED_BITS and value.denominator.bit_length() <= MAX_PRINTED_BITS:
        return str(value)
    sign = "-" if value < 0 else ""
    num = hex(abs(value.numerator))
    return sign + (num if value.denominator == 1 else f"{num}/{hex(value.denominator)}")


def integer_json(value: int) -> str:
    """An exact integer in the JSON shape of the rational it is (``scalar_to_json(Fraction(value))``), straight from
    the integer: ``"-3"``, hexadecimal beyond :data:`MAX_PRINTED_BITS` — for integer rows (facets, rays, guarantees)
    written without building Fractions.

    Examples
    --------
    >>> integer_json(-3), integer_json(2**129) == scalar_to_json(Fraction(2**129))
    ('-3', True)
    """
    value = int(value)
    if abs(value).bit_length() <= MAX_PRINTED_BITS:
        return str(value)
    return ("-" if value < 0 else "") + hex(abs(value))


def scalar_to_json(value: Any) -> Any:
    """THE JSON form of a number (module docstring, "JSON of numbers"): an exact rational as the string ``"p/q"``
    (hexadecimal beyond :data:`MAX_PRINTED_BITS`; a Python integer up to it stays a JSON number), a float as a
    number (``"inf"``/``"-inf"``/``"nan"`` when not finite), a :class:`LogRational` as ``{"ln": …, "value": …}``
    (and ``"log10"`` when the float underflows). :func:`scalar_from_json` reads it back exactly.

    Examples
    --------
    >>> scalar_to_json(Fraction(3, 4)), scalar_to_json(7), scalar_to_json(0.5), scalar_to_json(-math.inf)
    ('3/4', 7, 0.5, '-inf')
    >>> scalar_to_json(LogRational(1 + Fraction(1, 2**1100)))
    {'ln': '0x...', 'value': 0.0, 'log10': -331.13...}
    """
    kind = type(value)
    if kind is Fraction:  # the common cases first: JSON of large exact or float arrays goes through here
        return _rational_json(value)
    if kind is float:
        return value if math.isfinite(value) else ("nan" if math.isnan(value) else ("inf" if value > 0 else "-inf"))
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    if isinstance(value, LogRational):
        r = value.ratio
        ln = log_of_ratio(r)
        out: dict[str, Any] = {"ln": _rational_json(r), "value": ln}
        if r > 1 and ln < TINY:  # underflows a double: its log10 is still exact to double precision
            out["log10"] = log10_of_log(r)
        return out
    if isinstance(value, (int, np.integer)) and int(value).bit_length() <= MAX_PRINTED_BITS:
        return int(value)
    exact = _exact(value)
    if exact is not None:
        return _rational_json(exact)
    if isinstance(value, (float, np.floating, Real)):
        f = float(value)
        if math.isfinite(f):
            return f
        return "nan" if math.isnan(f) else ("inf" if f > 0 else "-inf")
    raise InvalidTypeError(f"not a number: {type(value).__name__} {value!r}")


_NON_FINITE = {"inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def scalar_from_json(data: Any, *, name: str = "value") -> Scalar | LogRational:
    """Inverse of :func:`scalar_to_json`: a Fraction, a float or a :class:`LogRational`, exactly as written.

    Also reads the shapes of earlier versions (saved files still load): ``{"ln": null, "numerator_hex": …,
    "denominator_hex": …}`` (an exact log), ``{"exact": "p/q", "value": …}`` (a Fraction) and, where the exact
    value was left out, ``{"ln": null, "value": …}`` and ``{"exact": null, "value": …}`` (the float ``value``).

    Raises
    ------
    InvalidParameterError, InvalidTypeError
        For data that is no number, naming ``name`` and the data.

    Examples
    --------
    >>> scalar_from_json("3/4"), scalar_from_json(0.5), scalar_from_json({"ln": "3", "value": 1.0986})
    (Fraction(3, 4), 0.5, LogRational(ratio=Fraction(3, 1)))
    >>> scalar_from_json({"ln": None, "numerator_hex": "0x3", "denominator_hex": "0x2", "value": 0.405})
    LogRational(ratio=Fraction(3, 2))
    >>> scalar_from_json({"exact": None, "value": 0.25}), scalar_from_json("-inf")
    (0.25, -inf)
    """
    if isinstance(data, dict):
        if data.get("ln") is not None:
            return LogRational(Fraction(parse_scalar(data["ln"], name=f"{name}.ln", exact=True)))
        if data.get("numerator_hex") is not None and data.get("denominator_hex") is not None:
            return LogRational(Fraction(int(data["numerator_hex"], 16), int(data["denominator_hex"], 16)))
        if data.get("exact") is not None:
            return parse_scalar(data["exact"], name=f"{name}.exact", exact=True)
        if ("ln" in data or "exact" in data) and isinstance(data.get("value"), (int, float)):
            return float(data["value"])
        raise InvalidParameterError(f"{name} = {data!r} is not the JSON form of a number")
    if isinstance(data, float):
        return data
    if isinstance(data, str) and data.strip().lower() in _NON_FINITE:
        return _NON_FINITE[data.strip().lower()]
    return parse_scalar(data, name=name)
