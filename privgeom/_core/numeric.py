"""Scalars and arrays in two modes: exact (``fractions.Fraction``) and float.

privgeom never mixes the two silently. A value is *exact* when it is an ``int``, a ``Fraction``, a rational string
(``"3/4"``, ``"0.75"``) or a numpy integer; Python/numpy floats are *float*. Exact arrays are numpy ``object`` arrays
of ``Fraction``; float arrays are ``float64``. The number kinds themselves (``Scalar``, :class:`LogRational`), their
parsing (:func:`parse_scalar`), text and JSON live in :mod:`privgeom._core.numbers` and are re-exported here.

Examples
--------
>>> from privgeom._core.numeric import parse_scalar, LogRational
>>> parse_scalar("3/4")
Fraction(3, 4)
>>> parse_scalar(0.75)
0.75
>>> eps = LogRational(3)
>>> str(eps), round(float(eps), 6)
('ln(3)', 1.098612)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Sequence, TypeAlias

import numpy as np

from .errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .hints import LIMIT_OPTIONS, command_line, how_to, limit_hint, on_command_line  # noqa: F401 - re-exported
from .numbers import (  # noqa: F401 - re-exported: the number kinds, their parsing and text live in numbers.py
    TINY,
    LogRational,
    Scalar,
    fraction_str,
    is_exact_scalar,
    log10_of_log,
    log10_text,
    log_of_ratio,
    memory_text,
    parse_scalar,
    scalar_from_json,
    scalar_to_json,
)

__all__ = [
    "Scalar",
    "ATOL",
    "ROUNDOFF",
    "TINY",
    "MAX_DENSE_ENTRIES",
    "MAX_EXACT_ENTRIES",
    "parse_scalar",
    "parse_int",
    "is_exact_scalar",
    "log_of_ratio",
    "to_exact_array",
    "to_float_array",
    "readonly",
    "check_dense_size",
    "limit_hint",
    "memory_text",
    "fraction_str",
    "scalar_to_json",
    "scalar_from_json",
    "LogRational",
]



#: A vector as the package reads one: a 1-D array or a sequence of numbers (``int``, ``Fraction``, rational strings
#: such as ``"3/4"``, ``float``), e.g. a row of a mechanism or a point tested against a cone.
VectorLike: TypeAlias = np.ndarray | Sequence[Fraction | float | int | str]
#: A matrix as the package reads one: a 2-D array or a sequence of rows of numbers (as :data:`VectorLike`), e.g. a
#: mechanism's matrix or a cone's generators or facets.
MatrixLike: TypeAlias = np.ndarray | Sequence[Sequence[Fraction | float | int | str]]

#: Default absolute tolerance of float mode (column sums, signs, cone membership).
ATOL = 1e-9


def tolerance(atol: float | None, default: float = ATOL) -> float:
    """The absolute tolerance of a float-mode call: ``atol`` when given, else ``default`` (the tolerance of the
    object the call is about, :data:`ATOL` unless it was built with another).

    The one convention of privgeom: a constructor stores ``atol`` (default :data:`ATOL`); every call on or about
    objects takes ``atol=None``, meaning "the object's own tolerance", or a number to override it. Tolerances are
    absolute; exact (Fraction) inputs ignore them. The only relative tolerance is the ``rtol`` of a search that
    stops when no candidate can improve its best value by more than that fraction (``smoothed_delta``).

    Examples
    --------
    >>> tolerance(None), tolerance(1e-6), tolerance(None, default=1e-3)
    (1e-09, 1e-06, 0.001)
    >>> tolerance(-1.0)
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidParameterError: atol must be a finite number >= 0, got atol=-1.0
    """
    if atol is None:
        return float(default)
    if isinstance(atol, (bool, np.bool_)) or not isinstance(atol, (int, float, np.floating, np.integer)):
        raise InvalidTypeError(f"atol must be a number >= 0, got {atol!r:.60} ({type(atol).__name__})")
    if not math.isfinite(float(atol)) or atol < 0:
        raise InvalidParameterError(f"atol must be a finite number >= 0, got atol={atol!r}")
    return float(atol)


#: Float round-off: a float quantity that is zero in exact arithmetic is treated as zero below this magnitude
#: (LP weights, envelope comparisons); much smaller than :data:`ATOL`, which judges the user's data.
ROUNDOFF = 1e-12
#: Largest dense float array privgeom will allocate (2**26 float64 entries = 512 MiB).
MAX_DENSE_ENTRIES = 2**26
#: Largest dense exact (Fraction) array privgeom will allocate (a Fraction costs about 100 bytes or more).
MAX_EXACT_ENTRIES = 2**22
#: Bytes per entry of a dense float64 array and (a low estimate) of an exact array of Fractions, for the memory
#: estimates of size refusals.
FLOAT_ENTRY_BYTES = 8
EXACT_ENTRY_BYTES = 100
#: A size refusal whose estimated memory exceeds this many bytes (1 PiB) does not suggest raising the limit: it
#: says the memory instead (no machine holds it).
UNREACHABLE_BYTES = 2**50


def parse_int(
    value: Any,
    *,
    name: str = "value",
    min: int | None = None,
    max: int | None = None,
    what: str = "",
    allow_str: bool = False,
) -> int:
    """Validate one integer parameter (a size, a count, an index): THE integer validator of privgeom.

    Accepts Python and numpy integers, and with ``allow_str=True`` integer strings (``"12"``, from the CLI and
    spec strings); refuses booleans, floats (even ``3.0``: a size is never silently rounded) and anything else.

    Parameters
    ----------
    value : int, numpy integer or str
    name : str
        Name of the parameter in messages.
    min, max : int, optional
        Inclusive bounds. Exceeding ``max`` raises :class:`SizeLimitError` (a size the caller refuses to work on);
        going below ``min`` raises :class:`InvalidParameterError`.
    what : str
        What ``max`` protects, for the message (e.g. ``"datasets privgeom enumerates"``).

    Raises
    ------
    InvalidTypeError
        Booleans, floats, None and non-numbers.
    InvalidParameterError
        Non-integer strings, values below ``min``.
    SizeLimitError
        Values above ``max``.

    Examples
    --------
    >>> parse_int("12", name="n", min=1, allow_str=True), parse_int(np.int64(3), name="k")
    (12, 3)
    >>> parse_int(0, name="n", min=1)
    Traceback (most recent call last):
        ...
    privgeom._core.errors.InvalidParameterError: n must be >= 1, got 0
    """
    if isinstance(value, (bool, np.bool_)) or value is None:
        raise InvalidTypeError(f"{name} must be an integer, got {value!r}")
    if isinstance(value, str) and allow_str:
        text = value.strip()
        try:
            out = int(text, 10)
        except ValueError:
            raise InvalidParameterError(f"{name} = {value!r} is not an integer") from None
    elif isinstance(value, (int, np.integer)):
        out = int(value)
    else:
        raise InvalidTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if min is not None and out < min:
        raise InvalidParameterError(f"{name} must be >= {min}, got {out}")
    if max is not None and out > max:
        raise SizeLimitError(f"{name} = {out} is more than {max}" + (f", the most {what}" if what else "") + "; refused")
    return out


def check_dense_size(n_rows: int, n_cols: int, *, exact: bool, what: str) -> None:
    """Refuse to allocate an ``n_rows x n_cols`` dense array that would exhaust memory.

    The limits are the global size limits ``exact_entries`` and ``dense_entries`` (:func:`privgeom.get_limits`,
    raised with :func:`privgeom.set_limits` or :func:`privgeom.limits`), read at call time. The message names the
    sizes, the memory they would need and the limit; beyond :data:`UNREACHABLE_BYTES` it says the memory instead of
    suggesting to raise the limit.

    Raises
    ------
    SizeLimitError
        When the array has more than ``MAX_EXACT_ENTRIES`` (exact) or ``MAX_DENSE_ENTRIES`` (float) entries.

    Examples
    --------
    >>> check_dense_size(4, 4, exact=True, what="toy")
    >>> check_dense_size(8001, 8001, exact=True, what="krr(n=8000)")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: krr(n=8000) would need a dense 8001 x 8001 exact array (64,016,001 entries, about 6.0 GiB; limit 4,194,304 entries); refused before allocating — raise it with pg.set_limits(exact_entries=64016001) or `with pg.limits(exact_entries=64016001):`
    """
    limit = MAX_EXACT_ENTRIES if exact else MAX_DENSE_ENTRIES
    entries = int(n_rows) * int(n_cols)
    if entries > limit:
        mode = "exact" if exact else "float"
        n_bytes = entries * (EXACT_ENTRY_BYTES if exact else FLOAT_ENTRY_BYTES)
        head = (f"{what} would need a dense {n_rows} x {n_cols} {mode} array ({entries:,} entries, "
                f"about {memory_text(n_bytes)}; limit {limit:,} entries); refused before allocating")
        if n_bytes > UNREACHABLE_BYTES:
            raise SizeLimitError(f"{head} — no computer's memory holds it; use a structured method instead")
        raise SizeLimitError(f"{head} — {limit_hint('exact_entries' if exact else 'dense_entries', entries)}")


def readonly(array: np.ndarray) -> np.ndarray:
    """Return ``array`` with its write flag cleared (a view; no copy)."""
    view = array.view()
    view.flags.writeable = False
    return view


def to_exact_array(values: Any, *, name: str = "array") -> np.ndarray:
    """Convert a nested sequence or array to a numpy object array of Fractions (floats converted bit-exactly)."""
    arr = np.asarray(values, dtype=object)
    flat = [parse_scalar(v, name=name, exact=True) for v in arr.ravel()]
    out = np.empty(arr.shape, dtype=object)
    out.ravel()[:] = flat if flat else []
    return out


def to_float_array(values: Any) -> np.ndarray:
    """Convert a nested sequence or array (Fractions allowed) to float64."""
    arr = np.asarray(values)
    if arr.dtype == object:
        return np.vectorize(float, otypes=[float])(arr) if arr.size else arr.astype(float)
    return arr.astype(float)


def _as_fraction_list(values: Iterable[Any]) -> list[Fraction]:
    return [parse_scalar(v, exact=True) for v in values]  # type: ignore[misc]


# ================================================================================================ binomial log-pmf
# One implementation of the binomial and hypergeometric log-pmfs for the whole package (voting by vote count, the
# smoothed sampling-histogram mechanism). Loader (2000), *Fast and accurate computation of binomial probabilities*:
# ``ln P(Bin(n, p) = k)`` through the Stirling remainder ``stirlerr`` and the deviance
# ``bd0(x, m) = x ln(x/m) + m − x`` evaluated without cancellation, which keeps a relative error of a few ulps for
# every ``n`` (``gammaln`` differences lose about ten digits at ``n = 10^5``).


def _stirlerr_table() -> np.ndarray:
    """``stirlerr(k)`` for ``k = 0..15`` in 50-digit decimal arithmetic (the float formula cancels badly)."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 50
        two_pi = Decimal("6.28318530717958647692528676655900576839433879875021")
        out = [0.0]
        fact = Decimal(1)
        for k in range(1, 16):
            fact *= k
            d = Decimal(k)
            out.append(float(fact.ln() - (d + Decimal("0.5")) * d.ln() + d - two_pi.ln() / 2))
    return np.array(out)


_STIRLERR = _stirlerr_table()
#: Number of terms after which Loader's deviance series is abandoned (it converges long before, |v| < 0.053).
_BD0_MAX_TERMS = 60


def stirlerr(x: Any) -> np.ndarray:
    """``ln Γ(x+1) − ((x + 1/2) ln x − x + ln √(2π))`` for integer-valued ``x >= 0`` (Loader 2000): table up to 15,
    then the Stirling series to the ``x^-9`` term.

    Examples
    --------
    >>> ref = math.lgamma(21) - (20.5 * math.log(20) - 20 + 0.5 * math.log(2 * math.pi))
    >>> abs(float(stirlerr(np.array([20.0]))[0]) - ref) < 1e-15
    True
    """
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    small = x <= 15
    if np.any(small):
        out[small] = _STIRLERR[x[small].astype(int)]
    big = ~small
    if np.any(big):
        xb = x[big]
        inv2 = 1.0 / (xb * xb)
        s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
        out[big] = (s0 - (s1 - (s2 - (s3 - s4 * inv2) * inv2) * inv2) * inv2) / xb
    return out


def bd0(x: Any, m: Any) -> np.ndarray:
    """Deviance ``x ln(x/m) + m − x >= 0`` without cancellation when ``x ≈ m`` (Loader 2000, series in
    ``v = (x−m)/(x+m)`` summed until it no longer changes in floats); ``x >= 0``, ``m > 0``.

    Examples
    --------
    >>> float(bd0(np.array([5.0]), np.array([5.0]))[0]), round(float(bd0(np.array([0.0]), np.array([2.0]))[0]), 15)
    (0.0, 2.0)
    """
    x, m = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(m, dtype=float))
    out = np.empty(x.shape)
    near = np.abs(x - m) < 0.1 * (x + m)
    if np.any(near):
        xn, mn = x[near], m[near]
        v = (xn - mn) / (xn + mn)
        s = (xn - mn) * v
        ej = 2 * xn * v
        v2 = v * v
        for j in range(1, _BD0_MAX_TERMS):
            ej = ej * v2
            s1 = s + ej / (2 * j + 1)
            if np.array_equal(s1, s):  # stop when no term changes the sum any more (the most accurate rule)
                break
            s = s1
        out[near] = s
    far = ~near
    if np.any(far):
        xf, mf = x[far], m[far]
        with np.errstate(divide="ignore", invalid="ignore"):
            out[far] = np.where(xf > 0, xf * np.log(np.where(xf > 0, xf, 1.0) / mf), 0.0) + mf - xf
    return out


def log_binom_pmf(k: Any, n: Any, p: Any, q: Any) -> np.ndarray:
    """``ln P(Bin(n, p) = k)``, vectorised over ``k`` (and broadcast over ``n``, ``p``, ``q``), with ``q = 1 − p``
    passed separately so that the smaller of the two carries full relative precision.

    Loader's saddle-point form (Loader 2000): the relative error of the probability is a few ulps near the mode and
    ``ulp(|ln P|)`` in the far tails; no underflow (``ln P`` is returned below ``1e-308`` too); ``-inf`` outside
    ``0..n`` and where the probability is 0. The two means ``n p`` and ``n q`` are formed so that they add up to ``n``
    exactly, the larger derived from the smaller (else the total mass is off by about ``n`` ulps), and the edge
    terms ``p^n``, ``q^n`` take the log of the larger probability as ``log1p(−smaller)``.

    Examples
    --------
    >>> float(log_binom_pmf(np.array([0]), 10, 0.5, 0.5)[0]) == -10 * math.log(2)
    True
    >>> round(float(np.exp(log_binom_pmf(np.array([50]), 100, 0.5, 0.5))[0]), 12)
    0.079589237387
    """
    k, n, p, q = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (k, n, p, q)))
    out = np.full(k.shape, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = np.where(p <= q, np.log(p), np.log1p(-q))
        lq = np.where(q <= p, np.log(q), np.log1p(-p))
        inside = (k >= 0) & (k <= n)
        lo = inside & (k == 0)
        if np.any(lo):
            out[lo] = np.where(n[lo] == 0, 0.0, np.where(q[lo] > 0, n[lo] * lq[lo], -np.inf))
        hi = inside & (k == n) & (k > 0)
        if np.any(hi):
            out[hi] = np.where(p[hi] > 0, n[hi] * lp[hi], -np.inf)
        mid = inside & (k > 0) & (k < n) & (p > 0) & (q > 0)
        if np.any(mid):
            km, nm, pm, qm = k[mid], n[mid], p[mid], q[mid]
            nk = nm - km
            small = np.where(pm <= qm, nm * pm, nm * qm)
            mean_p = np.where(pm <= qm, small, nm - small)
            mean_q = nm - mean_p
            val = stirlerr(nm) - stirlerr(km) - stirlerr(nk) - bd0(km, mean_p) - bd0(nk, mean_q)
            out[mid] = val - 0.5 * (math.log(2 * math.pi) + np.log(km) + np.log1p(-km / nm))
    return out


def log_hypergeom_pmf(y: Any, n: Any, N: Any, T: Any) -> np.ndarray:
    """``ln P(Y = y)`` for ``Y ~ Hypergeometric``: ``T`` draws without replacement from ``n`` items of which ``N``
    are marked, ``P(Y = y) = C(N, y) C(n−N, T−y) / C(n, T)``.

    Written as a ratio of three binomial probabilities with the same (arbitrary) ``p = T/n`` — the powers of ``p``
    and ``q`` cancel — so each factor keeps Loader's relative precision (Loader 2000, §4); ``-inf`` off the support.

    Examples
    --------
    >>> p = float(np.exp(log_hypergeom_pmf(np.array([2.0]), 10, 5, 4))[0])   # C(5,2) C(5,2) / C(10,4) = 10/21
    >>> abs(p - 10 / 21) < 1e-15
    True
    """
    y, n, N, T = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (y, n, N, T)))
    p, q = T / n, (n - T) / n
    norm = log_binom_pmf(T, n, p, q)
    return log_binom_pmf(y, N, p, q) + log_binom_pmf(T - y, n - N, p, q) - norm


def log1mexp(x: float) -> float:
    """``ln(1 − e^x)`` for ``x <= 0`` without cancellation (Mächler 2012)."""
    if x == -math.inf:
        return 0.0
    if x > -math.log(2):
        return math.log(-math.expm1(x))
    return math.log1p(-math.exp(x))


def log_binom_tail(n: int, p: float, q: float, t: int, *, upper: bool) -> float:
    """``ln P(Bin(n, p) >= t)`` (``upper=True``) or ``ln P(Bin(n, p) <= t)`` (``upper=False``), without underflow.

    The small side of the distribution is summed outward from ``t`` (terms decrease geometrically, ratios
    ``(n−k)p / ((k+1)q)``); the large side is ``log1p`` of minus the small side, so there is no cancellation.

    Examples
    --------
    >>> round(math.exp(log_binom_tail(10, 0.5, 0.5, 8, upper=True)), 12) == round(56 / 1024, 12)
    True
    """
    if upper:
        if t <= 0:
            return 0.0
        if t > n:
            return -math.inf
        if t > n * p:
            return _outward_sum(n, p, q, t, +1)
        return log1mexp(_outward_sum(n, p, q, t - 1, -1))
    if t >= n:
        return 0.0
    if t < 0:
        return -math.inf
    if t < n * p:
        return _outward_sum(n, p, q, t, -1)
    return log1mexp(_outward_sum(n, p, q, t + 1, +1))


def _outward_sum(n: int, p: float, q: float, t: int, direction: int) -> float:
    """``ln Σ_{k >= t} P(k)`` (direction +1) or ``ln Σ_{k <= t} P(k)`` (−1) when ``t`` lies on the small side."""
    head = float(log_binom_pmf(np.array([t]), n, p, q)[0])
    if head == -math.inf:
        return head
    if direction > 0:
        k = np.arange(t, n, dtype=float)
        ratios = (n - k) / (k + 1) * (p / q) if q > 0 else np.zeros_like(k)
    else:
        k = np.arange(t, 0, -1, dtype=float)
        ratios = k / (n - k + 1) * (q / p) if p > 0 else np.zeros_like(k)
    if ratios.size == 0:
        return head
    prods = np.cumprod(ratios)
    return head + math.log1p(math.fsum(prods.tolist()))


__all__ += ["stirlerr", "bd0", "log_binom_pmf", "log_hypergeom_pmf", "log_binom_tail", "log1mexp", "log10_text",
            "log10_of_log"]


def hockey_stick_columns(A: Any, B: Any, exp_eps: Any, *, events: bool = False) -> Any:
    """The one hockey-stick kernel: ``Σ_ω (A[ω, c] − t B[ω, c])₊`` for every column ``c`` at once, ``t = e^ε``.

    Every δ(ε) of the package goes through this function (:func:`~privgeom.analyses.delta`,
    :func:`~privgeom.analyses.profiles._hockey_stick.hockey_stick`, the (ε, δ)-DP membership test and the database-wise δ of smoothed DP;
    it lives here, below every layer, and :mod:`privgeom.analyses` re-exports it): for a finite output space the
    worst event of the pair ``(A[:, c], B[:, c])`` is ``S = {ω : A[ω, c] > t B[ω, c]}`` and the value is ``A(S) − t B(S)`` (Barthe & Olmedo
    2013; Balle, Barthe & Gaboardi 2018, Def. 2 and Thm. 1). No validation: callers pass columns of a mechanism.

    Parameters
    ----------
    A, B : 2-D arrays of the same shape (outputs × pairs)
        Object arrays of Fractions give exact values when ``exp_eps`` is a Fraction (computed on integers by
        :func:`hockey_stick_int`); anything else is computed in float64 (vectorised).
    exp_eps : Fraction, int or float
        ``t >= 0``; ``math.inf`` (float mode) gives ``Σ_ω A[ω, c] [B[ω, c] = 0]``.
    events : bool
        Also return the boolean mask of the worst events (``outputs × pairs``).

    Returns
    -------
    numpy.ndarray or (numpy.ndarray, numpy.ndarray)
        One value per column (object array of Fractions in exact mode, float64 otherwise) and, with
        ``events=True``, the mask.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> A = np.array([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], dtype=object)
    >>> hockey_stick_columns(A, A[:, ::-1], F(2)).tolist()
    [Fraction(1, 4), Fraction(1, 4)]
    >>> vals, mask = hockey_stick_columns(A.astype(float), A[:, ::-1].astype(float), 1.0, events=True)
    >>> vals.tolist(), mask[:, 0].tolist()
    ([0.5, 0.5], [True, False])
    """
    A, B = np.asarray(A), np.asarray(B)
    if A.ndim == 1:
        A, B = A[:, None], B[:, None]
    if isinstance(exp_eps, LogRational):
        exp_eps = exp_eps.ratio
    exact = A.dtype == object and B.dtype == object and isinstance(exp_eps, (Fraction, int))
    if exact:
        t = Fraction(exp_eps)
        An, Ad = int_columns(A)
        Bn, Bd = int_columns(B)
        values, mask = hockey_stick_int(An, Ad, Bn, Bd, t.numerator, t.denominator, events=True)
    else:
        Af = A.astype(float) if A.dtype != float else A
        Bf = B.astype(float) if B.dtype != float else B
        tf = float(exp_eps)
        if math.isinf(tf):
            mask = (Bf == 0) & (Af > 0)
            values = np.where(mask, Af, 0.0).sum(axis=0)
        else:
            diff = Af - tf * Bf
            mask = diff > 0
            values = np.where(mask, diff, 0.0).sum(axis=0)
    return (values, mask) if events else values


__all__ += ["hockey_stick_columns"]


# ---------------------------------------------------------------------------------------------------- exact integers
#: Largest magnitude an ``int64`` holds; integer kernels keep every intermediate at or below it (checked from bounds
#: before computing) and otherwise compute on Python integers (object arrays), never wrapping around.
INT64_MAX = 2**63 - 1

_numerator = np.frompyfunc(lambda v: v.numerator, 1, 1)
_denominator = np.frompyfunc(lambda v: v.denominator, 1, 1)
_int_div = np.frompyfunc(lambda a, b: a / b, 2, 1)  # Python int / int: correctly rounded, no overflow for big ints


def max_abs_int(array: np.ndarray) -> int:
    """The largest ``|v|`` of an integer array (int64 or object array of Python ints) as a Python int (0 if empty).

    Examples
    --------
    >>> max_abs_int(np.array([3, -7])), max_abs_int(np.array([2**70, -1], dtype=object)) == 2**70
    (7, True)
    """
    if array.size == 0:
        return 0
    if array.dtype == object:
        return int(max(abs(int(array.max())), abs(int(array.min()))))
    return max(abs(int(array.max())), abs(int(array.min())))


def fits_int64(*bounds: int) -> bool:
    """True when the product of the non-negative ``bounds`` is at most :data:`INT64_MAX` (checked in Python ints).

    Examples
    --------
    >>> fits_int64(2**31, 2**31), fits_int64(2**32, 2**31)
    (True, False)
    """
    prod = 1
    for b in bounds:
        prod *= int(b)
    return prod <= INT64_MAX


def fit_int_array(array: np.ndarray) -> np.ndarray:
    """An integer array as ``int64`` when every entry fits, else as an object array of Python ints.

    Examples
    --------
    >>> fit_int_array(np.array([1, 2], dtype=object)).dtype, fit_int_array(np.array([2**64], dtype=object)).dtype
    (dtype('int64'), dtype('O'))
    """
    if array.dtype == object:
        return array.astype(np.int64) if max_abs_int(array) <= INT64_MAX else array
    return array.astype(np.int64, copy=False)


def widen(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays as object arrays of Python ints (exact arithmetic of any size)."""
    return tuple(a if a.dtype == object else a.astype(object) for a in arrays)


def int_columns(F: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(num, den)`` with ``F[:, c] = num[:, c] / den[c]`` and ``den[c] > 0`` the least common denominator of column
    ``c`` (so the form is unique: two exact matrices are equal iff their ``num`` and ``den`` are).

    ``F`` is a 2-D array of Fractions or ints. Computed on the global least common multiple ``L`` of the
    denominators and reduced per column by ``g = gcd(L, num[:, c])``: the column's least common denominator is
    ``L / g``. ``int64`` when the numbers fit, object arrays of Python ints otherwise.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> num, den = int_columns(np.array([[F(3, 4), F(1, 3)], [F(1, 4), F(2, 3)]], dtype=object))
    >>> num.tolist(), den.tolist(), num.dtype
    ([[3, 1], [1, 2]], [4, 3], dtype('int64'))
    """
    F = np.asarray(F, dtype=object)
    if F.ndim == 1:
        F = F[:, None]
    n, d = _numerator(F), _denominator(F)
    L = math.lcm(*set(d.ravel().tolist())) if d.size else 1
    if fits_int64(L, 1 + max_abs_int(n)):
        A = n.astype(np.int64) * (L // d.astype(np.int64))
        g = np.gcd(np.gcd.reduce(A, axis=0), L) if A.shape[0] else np.full(A.shape[1], L, dtype=np.int64)
    else:
        A = n * (L // d)
        g = np.gcd(np.gcd.reduce(A, axis=0), L) if A.shape[0] else np.full(A.shape[1], L, dtype=object)
    g = np.where(g == 0, L, g)
    return fit_int_array(A // g), fit_int_array(L // g)


def int_columns_to_fractions(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """The object array of Fractions ``num[:, c] / den[c]`` (the inverse of :func:`int_columns`)."""
    nums = num.ravel().tolist()  # Python ints (tolist converts int64 at C speed)
    dens = np.broadcast_to(den, num.shape).ravel().tolist()
    out = np.empty(num.size, dtype=object)
    out[:] = list(map(Fraction, nums, dens))
    return out.reshape(num.shape)


def int_columns_to_float(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num[:, c] / den[c]`` as float64, correctly rounded (as ``float(Fraction)``): one IEEE division when both
    integers are exact in float64 (below ``2**53``), Python's exact ``int / int`` otherwise.

    Examples
    --------
    >>> int_columns_to_float(np.array([[1], [2]]), np.array([3])).tolist()
    [[0.3333333333333333], [0.6666666666666666]]
    """
    if num.dtype != object and den.dtype != object and max(max_abs_int(num), max_abs_int(den)) < 2**53:
        return num.astype(float) / den.astype(float)
    return np.asarray(_int_div(*widen(num, np.broadcast_to(den, num.shape))), dtype=float).reshape(num.shape)


def int_columns_log(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``ln(num[:, c] / den[c])`` as float64 (0 where ``num`` is 0), from the logs of the integers, so numbers
    beyond the float range neither overflow nor underflow (relative error ~1e-16 of ``ln num`` and ``ln den``)."""
    if num.dtype != object and den.dtype != object:
        return np.log(np.where(num == 0, 1, num).astype(float)) - np.log(den.astype(float))
    lg = np.frompyfunc(lambda v: math.log(v) if v else 0.0, 1, 1)
    return (np.asarray(lg(num), dtype=float) - np.asarray(lg(den), dtype=float)).reshape(num.shape)


def hockey_stick_int(An: np.ndarray, Ad: np.ndarray, Bn: np.ndarray, Bd: np.ndarray, p: int, q: int, *,
                     events: bool = False) -> Any:
    """Exact hockey-stick sums on common denominators: the integer core of :func:`hockey_stick_columns`.

    Column ``c`` of ``A`` is ``An[:, c] / Ad[c]``, of ``B`` likewise, ``t = p / q`` (``p >= 0``, ``q > 0``). With the
    common denominator ``q Ad[c] Bd[c]`` every term of ``Σ_ω (A[ω, c] − t B[ω, c])₊`` is the integer
    ``D[ω, c] = q Bd[c] An[ω, c] − p Ad[c] Bn[ω, c]`` over it (Balle, Barthe & Gaboardi 2018, Thm. 1, the worst event
    being ``{ω : D[ω, c] > 0}``). ``int64`` when the bound ``rows · (|q Bd An| + |p Ad Bn|)`` fits, Python
    integers otherwise. Returns Fractions (object array), and the event mask with ``events=True``.

    Examples
    --------
    >>> An = np.array([[3], [1]]); Bn = np.array([[1], [3]]); d = np.array([4])
    >>> hockey_stick_int(An, d, Bn, d, 2, 1).tolist()
    [Fraction(1, 4)]
    """
    rows = max(1, An.shape[0])
    big = not fits_int64(rows, q * max_abs_int(Bd) * max_abs_int(An) + p * max_abs_int(Ad) * max_abs_int(Bn) + 1)
    if big or any(a.dtype == object for a in (An, Ad, Bn, Bd)):
        if big:
            An, Ad, Bn, Bd = widen(An, Ad, Bn, Bd)
        else:
            An, Ad, Bn, Bd = (a.astype(np.int64) for a in (An, Ad, Bn, Bd))
    D = An * (Bd * q) - Bn * (Ad * p)
    mask = D > 0
    sums = np.where(mask, D, 0).sum(axis=0)
    dens = Ad * Bd * q
    values = np.empty(D.shape[1], dtype=object)
    values[:] = [Fraction(int(s), int(d)) for s, d in zip(sums, dens)]
    return (values, np.asarray(mask, dtype=bool)) if events else values


__all__ += ["INT64_MAX", "max_abs_int", "fits_int64", "fit_int_array", "widen", "int_columns", "int_columns_to_fractions",
            "int_columns_to_float", "int_columns_log", "hockey_stick_int"]
