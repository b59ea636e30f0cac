"""The deployed local-DP frequency-estimation protocols as exact matrices on a domain of ``d`` values.

Each factory returns a :class:`~privgeom.Mechanism` whose columns are the ``d`` values of one user (the inputs, the
same :class:`~privgeom.Domain` of labels as :func:`~privgeom.kary_randomized_response`) and whose rows are the
protocol's reports, exact (Fractions) when the privacy parameter is rational. The theory, in our words, with the
proof that each protocol is exactly ``ε``-locally DP (ε-DP on the complete graph of the ``d`` values), is
``docs/theory.md`` §"Deployed local-DP protocols":

* :func:`unary_encoding` — optimized unary encoding (OUE) and symmetric unary encoding (SUE, basic one-time RAPPOR);
* :func:`local_hashing` — binary / optimized local hashing (BLH, OLH) over an explicit universal hash family, with
  its exact collision probability (:func:`hash_collision_probability`) and unbiased estimator
  (:func:`local_hashing_estimator`);
* :func:`hadamard_response` — Hadamard response;
* :func:`subset_selection` — ω-subset selection (``s = 1`` is k-ary randomized response).

The number of reports is checked against the global size limit ``ldp_outputs`` (:func:`privgeom.get_limits`)
from its formula, before anything is enumerated, and the matrix against ``exact_entries`` / ``dense_entries``.

Examples
--------
>>> M = hadamard_response(3, exp_eps=3)
>>> M.outputs, [str(v) for v in M.column("0")]
(('0', '1', '2', '3'), ['3/8', '1/8', '3/8', '1/8'])
>>> import privgeom as pg
>>> [str(pg.epsilon(f(4, exp_eps=3), "complete").level.eps) for f in (unary_encoding, hadamard_response, subset_selection)]
['ln(3)', 'ln(3)', 'ln(3)']
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import numpy as np

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.level import LevelLike, PrivacyLevel, ScalarLike
from .._core.limits import register_limit
from .._core.arrays import check_dense_size, parse_int
from .._core.hints import limit_hint
from .._core.numbers import parse_scalar, Scalar
from .._core.limits import current_limit
from ._catalogue import _value_labels
from ._mechanism import Mechanism

__all__ = [
    "unary_encoding",
    "local_hashing",
    "hadamard_response",
    "subset_selection",
    "hash_family",
    "olh_default_g",
    "subset_default_s",
    "hash_collision_probability",
    "local_hashing_estimator",
]

#: Largest number of reports (rows) an LDP protocol factory enumerates: ``2^d`` for unary encoding, ``P(P−1)·g``
#: for local hashing, ``C(d, s)`` for subset selection. Read at call time (global size limit ``ldp_outputs``).
MAX_LDP_OUTPUTS = 2**20
register_limit(
    "ldp_outputs",
    globals(),
    "MAX_LDP_OUTPUTS",
    "largest number of reports a local-DP protocol factory enumerates (2^d for unary encoding, "
    "C(d, s) for subset selection, hash functions x g for local hashing)",
)

#: Beyond ``2^62`` reports no memory holds the matrix: refused without suggesting to raise the limit.
_UNREACHABLE_LOG2 = 62


def _check_outputs(log2_count: float, count: int | None, what: str) -> None:
    """Refuse ``count`` reports (``log2_count`` its base-2 logarithm, ``count`` None when astronomically large)."""
    if log2_count > _UNREACHABLE_LOG2 or count is None:
        raise SizeLimitError(
            f"{what} has about 2^{log2_count:.0f} reports: no computer's memory holds its matrix; "
            "refused before enumerating anything (choose a smaller domain)"
        )
    if count > current_limit("ldp_outputs"):
        raise SizeLimitError(
            f"{what} has {count:,} reports (limit {current_limit('ldp_outputs'):,}); refused "
            "before enumerating "
            f"them — {limit_hint('ldp_outputs', count)}"
        )


def _level(exp_eps: ScalarLike | None, eps: LevelLike | None, exact: bool | None, owner: str) -> Scalar:
    """``e^ε`` from exactly one of ``exp_eps=`` / ``eps=`` (:meth:`PrivacyLevel.parse`; ``e^ε >= 1``)."""
    if exp_eps is None and eps is None:
        raise InvalidParameterError(f"{owner} needs its privacy level: exp_eps=<e^ε >= 1> or eps=<ε >= 0>")
    return PrivacyLevel.parse(eps, exp_eps, exact=exact).exp_eps


def _labels(d: int | Sequence[Any]) -> list[str]:
    return _value_labels(d, name="d")


class _Protocol(NamedTuple):
    """Every factory's prelude: the value ``labels``, their number ``n``, ``t = e^ε`` (:func:`_level`) and whether it
    is ``exact``."""

    labels: list[str]
    n: int
    t: Scalar
    exact: bool


def _protocol_level(
    d: int | Sequence[Any], exp_eps: ScalarLike | None, eps: LevelLike | None, exact: bool | None, owner: str
) -> _Protocol:
    """The value labels, their number, ``e^ε`` (:func:`_level`) and whether it is exact: every factory's prelude."""
    labels = _labels(d)
    t = _level(exp_eps, eps, exact, owner)
    return _Protocol(labels=labels, n=len(labels), t=t, exact=isinstance(t, Fraction))


def _check_matrix(log2_count: float, count: int | None, n: int, is_exact: bool, what: str) -> None:
    """Refuse ``count`` reports (:func:`_check_outputs`), then a ``count x n`` matrix (``check_dense_size``)."""
    _check_outputs(log2_count, count, what)
    assert count is not None
    check_dense_size(count, n, exact=is_exact, what=what)


def _exact_sqrt(t: Fraction) -> Fraction | None:
    """``√t`` when ``t`` is the square of a rational, else None."""
    a, b = math.isqrt(t.numerator), math.isqrt(t.denominator)
    return Fraction(a, b) if a * a == t.numerator and b * b == t.denominator else None


# ---------------------------------------------------------------------------------------------- unary encoding
def unary_encoding(
    d: int | Sequence[Any],
    *,
    exp_eps: ScalarLike | None = None,
    eps: LevelLike | None = None,
    exp_half_eps: ScalarLike | None = None,
    optimized: bool = True,
    exact: bool | None = None,
) -> Mechanism:
    """Unary encoding: OUE (``optimized=True``) or SUE, basic one-time RAPPOR (``optimized=False``).

    The value ``x`` is encoded as the one-hot vector ``e_x ∈ {0,1}^d`` and every bit is reported independently: a 1
    stays 1 with probability ``p``, a 0 becomes 1 with probability ``q``. The report ``y ∈ {0,1}^d`` has
    ``P(y | x) = Π_i P(y_i | e_x[i])`` (``docs/theory.md`` §"Deployed local-DP protocols", *Unary encoding*):

    * OUE (Wang, Blocki, Li & Jha, *Locally differentially private protocols for frequency estimation*, USENIX
      Security 2017, optimized unary encoding): ``p = 1/2``, ``q = 1/(e^ε + 1)``;
    * SUE = basic one-time RAPPOR (Erlingsson, Pihur & Korolova, *RAPPOR*, CCS 2014, with one hash function and
      no instantaneous step; Wang et al. 2017, symmetric unary encoding): ``p = e^{ε/2}/(e^{ε/2} + 1)``,
      ``q = 1 − p``.

    Both are exactly ε-LDP: the largest ratio is ``p(1−q)/(q(1−p)) = e^ε``, at a report with ``y_x = 1, y_{x'} = 0``.

    Parameters
    ----------
    d : int or sequence
        ``d >= 2`` values (labelled ``'0'..'d-1'``) or their labels. The reports are the ``2^d`` bit strings in
        reverse lexicographic order (``'1…1'`` first), bit ``i`` standing for value ``i``.
    exp_eps, eps : privacy level
        Exactly one (or ``exp_half_eps`` for SUE): ``e^ε >= 1`` (rational → exact) or ``ε >= 0``.
    exp_half_eps : rational or float, optional
        SUE only: ``e^{ε/2} >= 1`` directly, so that any rational value gives an exact SUE (``e^ε = exp_half_eps²``).
    optimized : bool
        OUE (default) or SUE.
    exact : bool, optional
        Force the mode. SUE's ``p`` needs ``e^{ε/2}``: with a rational ``exp_eps`` it is exact only when ``exp_eps``
        is the square of a rational (``4``, ``9/4``); otherwise pass ``exp_half_eps=`` or ``exact=False``.

    Raises
    ------
    InvalidParameterError
        ``d < 2``, ``e^ε < 1``, no level or two levels, ``exp_half_eps`` with OUE, or exact SUE with a rational
        ``exp_eps`` that is not a square.
    SizeLimitError
        ``2^d`` reports beyond the limit ``ldp_outputs``, or ``2^d x d`` entries beyond ``exact_entries`` /
        ``dense_entries`` (checked before allocating).

    Examples
    --------
    >>> M = unary_encoding(2, exp_eps=3)
    >>> M.outputs
    ('11', '10', '01', '00')
    >>> [str(v) for v in M.column("0")]
    ['1/8', '3/8', '1/8', '3/8']
    >>> [str(v) for v in unary_encoding(2, exp_eps=4, optimized=False).column("0")]
    ['2/9', '4/9', '1/9', '2/9']
    >>> unary_encoding(3, exp_eps=2, optimized=False)
    Traceback (most recent call last):
    ...
    privgeom._core.errors.InvalidParameterError: SUE needs e^(ε/2) = √(exp_eps) and exp_eps = 2 is not the square of a rational: pass exp_half_eps= (exact) or exact=False (floats)
    """
    labels = _labels(d)
    n = len(labels)
    if exp_half_eps is not None:
        if optimized:
            raise InvalidParameterError(
                "exp_half_eps= is SUE's parameter (optimized=False); OUE takes exp_eps= or eps="
            )
        if exp_eps is not None or eps is not None:
            raise InvalidParameterError("give exactly one of exp_eps=, eps=, exp_half_eps=")
        half = parse_scalar(exp_half_eps, name="exp_half_eps", exact=exact)
        if half < 1:
            raise InvalidParameterError(f"exp_half_eps = e^(ε/2) must be >= 1, got exp_half_eps = {half}")
        t: Scalar = half * half
    else:
        t = _level(exp_eps, eps, exact, "unary_encoding")
    is_exact = isinstance(t, Fraction)
    p: Scalar
    q: Scalar
    if optimized:
        p, q = (Fraction(1, 2) if is_exact else 0.5), 1 / (t + 1)
        kind = "OUE"
    else:
        if exp_half_eps is not None:
            root: Scalar | None = half
        elif is_exact:
            assert isinstance(t, Fraction)
            root = _exact_sqrt(t)
            if root is None:
                raise InvalidParameterError(
                    f"SUE needs e^(ε/2) = √(exp_eps) and exp_eps = {t} is not the square of a rational: pass "
                    "exp_half_eps= (exact) or exact=False (floats)"
                )
        else:
            root = math.sqrt(t)
        assert root is not None
        p = root / (root + 1)
        q = 1 - p
        kind = "SUE"
    what = f"unary_encoding({kind}, d={n})"
    if n > _UNREACHABLE_LOG2:
        _check_outputs(float(n), None, what)
    _check_matrix(float(n), 2**n, n, is_exact, what)
    # P(y | x) depends only on the weight |y| and on y_x: p^{y_x}(1−p)^{1−y_x} q^{|y|−y_x}(1−q)^{d−1−|y|+y_x}
    one: Scalar = Fraction(1) if is_exact else 1.0
    qp = [one]
    rp = [one]
    for _ in range(n):
        qp.append(qp[-1] * q)
        rp.append(rp[-1] * (1 - q))
    table = np.empty((n + 1, 2), dtype=object if is_exact else float)
    for w in range(n + 1):
        table[w, 0] = (1 - p) * qp[w] * rp[n - 1 - w] if w <= n - 1 else 0
        table[w, 1] = p * qp[w - 1] * rp[n - w] if w >= 1 else 0
    outs = ["".join(bits) for bits in itertools.product("10", repeat=n)]
    B = np.array([[c == "1" for c in o] for o in outs], dtype=np.intp)
    weights = B.sum(axis=1)
    mat = table[weights[:, None], B]
    return Mechanism(mat, inputs=labels, outputs=outs, exact=is_exact)


# ---------------------------------------------------------------------------------------------- local hashing
def _next_prime(n: int) -> int:
    """The smallest prime ``>= max(n, 2)`` (trial division; ``n`` is bounded by the size limits)."""
    c = max(n, 2)
    while any(c % f == 0 for f in range(2, math.isqrt(c) + 1)):
        c += 1
    return c


def hash_family(d: int, g: int) -> tuple[int, list[tuple[int, int]]]:
    """The universal family of local hashing: ``h_{a,b}(x) = ((a x + b) mod P) mod g``, ``1 <= a < P``, ``0 <= b < P``.

    ``P`` is the smallest prime ``>= d``. For ``x ≠ x'`` in ``0..d−1`` at most ``|H|/g`` of the ``P(P−1)`` functions
    collide (Carter & Wegman, *Universal classes of hash functions*, JCSS 18, 1979; proof in
    ``docs/theory.md`` §"Deployed local-DP protocols"). Returns ``P`` and the pairs ``(a, b)`` in lexicographic order.

    Examples
    --------
    >>> P, family = hash_family(4, 2)
    >>> P, len(family), family[:3]
    (5, 20, [(1, 0), (1, 1), (1, 2)])
    """
    d = parse_int(d, name="d", min=2)
    g = parse_int(g, name="g", min=2)
    P = _next_prime(d)
    return P, [(a, b) for a in range(1, P) for b in range(P)]


#: A float within this many units in the last place of a half-integer ``k + 1/2`` is read as that half-integer when
#: rounding a default size (:func:`_nearest_int`): ``e^ε`` computed from ``ε = ln(5/2)`` may land one ulp either side
#: of ``5/2``, and the default must not depend on which.
_TIE_ULPS = 4


def _nearest_int(x: Scalar) -> int:
    """The integer nearest to ``x``, halves to even (Python's ``round`` and NumPy's ``rint``, the convention of
    pure-ldp's and multi-freq-ldpy's defaults); exact on Fractions. A float within :data:`_TIE_ULPS` ulps of a
    half-integer is rounded as that exact half-integer, so ``eps=ln(r)`` and ``exp_eps=r`` agree.

    Examples
    --------
    >>> _nearest_int(Fraction(5, 2)), _nearest_int(Fraction(7, 2)), _nearest_int(math.exp(math.log(3)))
    (2, 4, 3)
    """
    if isinstance(x, Fraction):
        return round(x)
    x = float(x)
    half = math.floor(x) + 0.5
    if abs(x - half) <= _TIE_ULPS * math.ulp(half):
        return round(Fraction(half))
    return round(x)


def olh_default_g(exp_eps: Scalar) -> int:
    """OLH's hash range ``g = round(e^ε) + 1`` (Wang, Blocki, Li & Jha, USENIX Security 2017, §4.4: the variance
    ``4 e^ε ... / (e^ε − 1)²`` of local hashing is smallest at ``g = e^ε + 1``, used as the nearest integer; the same
    default as pure-ldp's ``round(exp(ε)) + 1``), at least 2. Halves round to even; the float ``e^ε`` of
    ``eps=ln(r)`` gives the same ``g`` as ``exp_eps=r`` (:func:`_nearest_int`).

    Examples
    --------
    >>> olh_default_g(Fraction(3)), olh_default_g(math.exp(math.log(3))), olh_default_g(Fraction(7, 2)), olh_default_g(1.2)
    (4, 4, 5, 2)
    """
    return max(_nearest_int(exp_eps) + 1, 2)


def hash_collision_probability(d: int, g: int) -> Fraction:
    """``Pr_h[h(x) = h(x')]`` for ``x ≠ x'`` over the family of :func:`hash_family`, exactly; the same for every pair.

    For ``x ≠ x'`` the map ``(a, b) ↦ (u, v) = (a x + b, a x' + b) mod P`` is a bijection from the family onto the
    pairs ``u ≠ v`` of residues mod ``P`` (its determinant ``x − x'`` is invertible, and ``a ≠ 0`` iff ``u ≠ v``;
    Carter & Wegman 1979, Prop. 7). Write ``P = g·k + r`` with ``0 <= r < g``: ``r`` classes mod ``g`` hold ``k + 1``
    residues and ``g − r`` hold ``k``, so ``h(x) = h(x')`` for ``r k (k + 1) + (g − r) k (k − 1)`` of the ``P(P − 1)``
    functions: ``c = k (g k − g + 2r) / (P (P − 1))``. It is strictly below ``1/g`` for every ``g >= 2``
    (``c = 1/g`` would need ``g k (1 − g) = r (r − 1)``: for ``k >= 1`` the left side is negative and the right is
    not, and for ``k = 0``, i.e. ``g > P``, the right side is ``P (P − 1) > 0``; e.g. ``P = 5``, ``g = 2``: ``2/5``), so Wang et al.'s estimator, which assumes ``1/g``, is biased on this family
    (:func:`local_hashing_estimator`).

    Examples
    --------
    >>> hash_collision_probability(4, 2), hash_collision_probability(4, 4), hash_collision_probability(3, 3)
    (Fraction(2, 5), Fraction(1, 10), Fraction(0, 1))
    """
    P, _ = hash_family(d, g)
    k, r = divmod(P, g)
    return Fraction(k * (g * k - g + 2 * r), P * (P - 1))


def local_hashing_estimator(
    d: int | Sequence[Any],
    g: int | None = None,
    *,
    exp_eps: ScalarLike | None = None,
    eps: LevelLike | None = None,
    exact: bool | None = None,
    collision: str = "family",
) -> np.ndarray:
    """The linear frequency estimator of :func:`local_hashing`: a ``d × reports`` matrix ``E`` with
    ``f̂ = E · (report counts) / n``.

    A report ``(h, y)`` *supports* value ``v`` when ``h(v) = y``. Given ``x = v`` it does with probability
    ``p = e^ε / (e^ε + g − 1)``; given ``x ≠ v`` with ``q = c p + (1 − c)(1 − p)/(g − 1)``, where ``c`` is the
    collision probability of the family (the same for every pair, :func:`hash_collision_probability`). So
    ``E[v, (h, y)] = (1{h(v) = y} − q) / (p − q)`` is unbiased: ``E · M = I`` exactly (Wang, Blocki, Li & Jha,
    USENIX Security 2017, §4.4, with their ``q = 1/g`` replaced by the family's exact ``q``).

    Parameters
    ----------
    d, g, exp_eps, eps, exact
        As :func:`local_hashing` (the same default ``g``).
    collision : {"family", "ideal"}
        ``"family"`` (default): ``c`` of the Carter–Wegman family that :func:`local_hashing` draws from, the unbiased
        estimator. ``"ideal"``: ``c = 1/g``, i.e. ``q = 1/g``, Wang et al.'s estimator for an idealised family (the
        one pure-ldp and multi-freq-ldpy use); on this family it is biased whenever ``c ≠ 1/g``.

    Raises
    ------
    InvalidParameterError
        ``e^ε = 1`` (then ``p = q``: no estimator is unbiased), an unknown ``collision``, and as :func:`local_hashing`.

    Returns
    -------
    numpy.ndarray
        ``d × (P(P − 1) g)``, rows in the order of the values and columns in the order of ``local_hashing``'s
        reports; Fractions when exact.

    Examples
    --------
    >>> M = local_hashing(3, 2, exp_eps=3)
    >>> E = local_hashing_estimator(3, 2, exp_eps=3)
    >>> E.dot(M.matrix).tolist() == np.eye(3, dtype=int).tolist()
    True
    >>> W = local_hashing_estimator(3, 2, exp_eps=3, collision="ideal")
    >>> [str(v) for v in W.dot(M.matrix)[0]]
    ['1', '-1/3', '-1/3']
    """
    if collision not in ("family", "ideal"):
        raise InvalidParameterError(f"collision must be 'family' or 'ideal', got {collision!r}")
    _, n, t, is_exact = _protocol_level(d, exp_eps, eps, exact, "local_hashing_estimator")
    g = olh_default_g(t) if g is None else parse_int(g, name="g", min=2)
    count = _next_prime(n) * (_next_prime(n) - 1) * g
    _check_matrix(math.log2(count), count, n, is_exact, f"local_hashing_estimator(d={n}, g={g})")
    c: Scalar = hash_collision_probability(n, g) if collision == "family" else Fraction(1, g)
    if not is_exact:
        c = float(c)
    p = t / (t + g - 1)
    q = c * p + (1 - c) * (1 - p) / (g - 1)
    if p == q:  # e^ε = 1: p = q = 1/g, the reports do not depend on the value
        raise InvalidParameterError(
            "local_hashing_estimator needs e^ε > 1: at e^ε = 1 the reports carry no "
            "information about the value, so no estimator is unbiased"
        )
    P, family = hash_family(n, g)
    E = np.full((n, count), -q / (p - q), dtype=object if is_exact else float)
    xs = np.arange(n)
    for j, (a, b) in enumerate(family):
        E[xs, j * g + (a * xs + b) % P % g] = (1 - q) / (p - q)
    return E


def local_hashing(
    d: int | Sequence[Any],
    g: int | None = None,
    *,
    exp_eps: ScalarLike | None = None,
    eps: LevelLike | None = None,
    exact: bool | None = None,
) -> Mechanism:
    """Local hashing (BLH for ``g = 2``, OLH for ``g = round(e^ε) + 1``, the default) over an explicit universal family.

    The user draws ``h`` uniformly from the family of :func:`hash_family` (``P(P−1)`` functions, ``P`` the smallest
    prime ``>= d``), computes ``v = h(x) ∈ 0..g−1``, and reports ``h`` and ``y``, where ``y = v`` with probability
    ``e^ε/(e^ε + g − 1)`` and each other value with probability ``1/(e^ε + g − 1)`` (k-ary randomized response on
    ``g`` values): ``P((h, y) | x) = (e^ε if h(x) = y else 1) / (|H| (e^ε + g − 1))``. Wang, Blocki, Li & Jha, USENIX
    Security 2017 (binary and optimized local hashing; they leave the family open: ours is Carter & Wegman's).

    The ratio of two columns is ``e^ε``, 1 or ``e^{−ε}`` on every report, and ``e^ε`` is attained (some ``h`` with
    ``h(x) = 0``, ``h(x') = 1``), so the protocol is exactly ε-LDP (``docs/theory.md`` §"Deployed local-DP protocols").

    Two values collide under this family with probability :func:`hash_collision_probability` (at most ``1/g``, and
    usually below it), not the ``1/g`` of an idealised family that Wang et al.'s estimator assumes: the matching
    unbiased estimator is :func:`local_hashing_estimator`.

    Parameters
    ----------
    d : int or sequence
        ``d >= 2`` values or their labels; value ``i`` is hashed as the integer ``i``.
    g : int, optional
        Hash range, ``>= 2``; default ``round(e^ε) + 1`` (:func:`olh_default_g`).
    exp_eps, eps : privacy level
        Exactly one: ``e^ε >= 1`` (rational → exact) or ``ε >= 0``.
    exact : bool, optional
        Force the mode.

    Returns
    -------
    Mechanism
        Reports labelled ``"{a}x+{b}->{y}"`` (the hash ``h_{a,b}`` and the reported value ``y``).

    Raises
    ------
    InvalidParameterError
        ``d < 2``, ``g < 2``, ``e^ε < 1``.
    SizeLimitError
        ``P(P−1)·g`` reports beyond the limit ``ldp_outputs``.

    Examples
    --------
    >>> M = local_hashing(3, 2, exp_eps=3)
    >>> M.shape, M.outputs[:2]
    ((12, 3), ('1x+0->0', '1x+0->1'))
    >>> [str(v) for v in M.column("1")[:2]]
    ['1/24', '1/8']
    """
    labels, n, t, is_exact = _protocol_level(d, exp_eps, eps, exact, "local_hashing")
    g = olh_default_g(t) if g is None else parse_int(g, name="g", min=2)
    what = f"local_hashing(d={n}, g={g})"
    P = _next_prime(n)  # n is at most a few thousand here: the labels' dense check refuses more
    count = P * (P - 1) * g
    _check_matrix(math.log2(count), count, n, is_exact, what)
    _, family = hash_family(n, g)
    size = len(family)
    hit, miss = t / (size * (t + g - 1)), 1 / (size * (t + g - 1))
    mat = np.full((count, n), miss, dtype=object if is_exact else float)
    outs: list[str] = []
    xs = np.arange(n)
    for j, (a, b) in enumerate(family):
        h = (a * xs + b) % P % g
        mat[j * g + h, xs] = hit
        outs.extend(f"{a}x+{b}->{y}" for y in range(g))
    return Mechanism(mat, inputs=labels, outputs=outs, exact=is_exact)


# ---------------------------------------------------------------------------------------------- Hadamard response
def hadamard_response(
    d: int | Sequence[Any],
    *,
    exp_eps: ScalarLike | None = None,
    eps: LevelLike | None = None,
    exact: bool | None = None,
) -> Mechanism:
    """Hadamard response (Acharya, Sun & Zhang, *Hadamard response: estimating distributions privately,
    efficiently, and with little communication*, AISTATS 2019).

    ``K`` is the smallest power of 2 greater than ``d``; ``H_K`` the Sylvester Hadamard matrix,
    ``H[y, c] = (−1)^{popcount(y AND c)}``. Value ``x`` (0-based) owns column ``x + 1`` (column 0 is all ones) and
    the set ``C_x = {y : H[y, x+1] = +1}`` of ``K/2`` reports. ``P(y | x) = 2e^ε/(K(1 + e^ε))`` on ``C_x`` and
    ``2/(K(1 + e^ε))`` off it. Two distinct columns agree on exactly ``K/2`` rows, so ``C_x ≠ C_{x'}`` and the ratio
    ``e^ε`` is attained: exactly ε-LDP (``docs/theory.md`` §"Deployed local-DP protocols").

    Parameters
    ----------
    d : int or sequence
        ``d >= 2`` values or their labels.
    exp_eps, eps : privacy level
        Exactly one: ``e^ε >= 1`` (rational → exact) or ``ε >= 0``.
    exact : bool, optional
        Force the mode.

    Returns
    -------
    Mechanism
        ``K`` reports labelled ``'0'..'K-1'``.

    Examples
    --------
    >>> M = hadamard_response(["a", "b", "c", "d"], exp_eps=1)
    >>> M.n_outputs, set(M.matrix.ravel().tolist())
    (8, {Fraction(1, 8)})
    """
    labels, n, t, is_exact = _protocol_level(d, exp_eps, eps, exact, "hadamard_response")
    K = 1 << n.bit_length()  # smallest power of two > n
    what = f"hadamard_response(d={n})"
    _check_matrix(math.log2(K), K, n, is_exact, what)
    on, off = 2 * t / (K * (1 + t)), 2 / (K * (1 + t))
    mat = np.empty((K, n), dtype=object if is_exact else float)
    for y in range(K):
        for x in range(n):
            mat[y, x] = on if bin(y & (x + 1)).count("1") % 2 == 0 else off
    return Mechanism(mat, inputs=labels, outputs=[str(y) for y in range(K)], exact=is_exact)


# ---------------------------------------------------------------------------------------------- subset selection
def subset_default_s(d: int, exp_eps: Scalar) -> int:
    """The default subset size: the integer nearest to ``d/(e^ε + 1)`` (halves to even), within ``1..d−1``.

    Ye & Barg (IEEE Trans. Inf. Theory 64(8), 2018, §IV) and Wang et al. (arXiv:1607.08025, 2016, §5) show that the
    best size is about ``d/(e^ε + 1)`` (the optimum over integers is one of its two neighbours);
    multi-freq-ldpy's subset selection takes the nearest integer, ``max(1, rint(d/(e^ε + 1)))``, and so does
    privgeom (exact on Fractions; a float ``e^ε`` within a few ulps of a tie rounds as the tie, :func:`_nearest_int`).

    Examples
    --------
    >>> subset_default_s(6, Fraction(2)), subset_default_s(4, 1.0), subset_default_s(10, Fraction(3))
    (2, 2, 2)
    """
    return min(
        max(_nearest_int(Fraction(d) / (exp_eps + 1) if isinstance(exp_eps, Fraction) else d / (exp_eps + 1)), 1), d - 1
    )


def subset_selection(
    d: int | Sequence[Any],
    s: int | None = None,
    *,
    exp_eps: ScalarLike | None = None,
    eps: LevelLike | None = None,
    exact: bool | None = None,
) -> Mechanism:
    """ω-subset selection (Ye & Barg, *Optimal schemes for discrete distribution estimation under locally
    differential privacy*, IEEE Trans. Inf. Theory 64(8), 2018; Wang et al., *Mutual information optimally
    local private discrete distribution estimation*, arXiv:1607.08025, 2016).

    Report an ``s``-subset ``S`` of the ``d`` values with ``P(S | x) = e^ε / Z`` if ``x ∈ S`` and ``1/Z`` otherwise,
    ``Z = C(d−1, s−1) e^ε + C(d−1, s)`` (``C(d−1, s−1)`` subsets contain ``x``, ``C(d−1, s)`` do not). A subset
    containing ``x`` but not ``x'`` exists for ``1 <= s <= d−1``, so the protocol is exactly ε-LDP; ``s = 1`` is
    k-ary randomized response (``docs/theory.md`` §"Deployed local-DP protocols").

    Parameters
    ----------
    d : int or sequence
        ``d >= 2`` values or their labels (no commas when ``s >= 2``: commas join a subset's labels).
    s : int, optional
        Subset size in ``1..d−1``; default the integer nearest to ``d/(e^ε + 1)`` (:func:`subset_default_s`).
    exp_eps, eps : privacy level
        Exactly one: ``e^ε >= 1`` (rational → exact) or ``ε >= 0``.
    exact : bool, optional
        Force the mode.

    Returns
    -------
    Mechanism
        ``C(d, s)`` reports in lexicographic order, labelled by their values joined with ``','``.

    Raises
    ------
    InvalidParameterError
        ``d < 2``, ``s`` outside ``1..d−1``, ``e^ε < 1``, a label with a comma.
    SizeLimitError
        ``C(d, s)`` reports beyond the limit ``ldp_outputs``.

    Examples
    --------
    >>> M = subset_selection(4, 2, exp_eps=2)
    >>> M.outputs
    ('0,1', '0,2', '0,3', '1,2', '1,3', '2,3')
    >>> [str(v) for v in M.column("0")]
    ['2/9', '2/9', '2/9', '1/9', '1/9', '1/9']
    """
    labels, n, t, is_exact = _protocol_level(d, exp_eps, eps, exact, "subset_selection")
    s = subset_default_s(n, t) if s is None else parse_int(s, name="s")
    if not 1 <= s <= n - 1:
        raise InvalidParameterError(f"subset_selection on d = {n} values needs s in 1..{n - 1}, got s = {s}")
    if s >= 2 and any("," in v for v in labels):
        raise InvalidParameterError(f"subset_selection value labels cannot contain ',' (it joins a subset): {labels}")
    what = f"subset_selection(d={n}, s={s})"
    log2 = (math.lgamma(n + 1) - math.lgamma(s + 1) - math.lgamma(n - s + 1)) / math.log(2)
    _check_matrix(log2, math.comb(n, s) if log2 <= _UNREACHABLE_LOG2 else None, n, is_exact, what)
    count = math.comb(n, s)
    Z = math.comb(n - 1, s - 1) * t + math.comb(n - 1, s)
    inside, outside = t / Z, 1 / Z
    mat = np.full((count, n), outside, dtype=object if is_exact else float)
    outs: list[str] = []
    for j, S in enumerate(itertools.combinations(range(n), s)):
        mat[j, list(S)] = inside
        outs.append(",".join(labels[i] for i in S))
    return Mechanism(mat, inputs=labels, outputs=outs, exact=is_exact)
