"""The results of :mod:`privgeom.smoothed` — one type per quantity, whatever route computed it — and the
sampling-histogram mechanism as a description (Liu, Wang & Xia, *Smoothed Differential Privacy*).

- :class:`DatabaseDelta` — ``δ_{ε,M}(x)`` (Definition 2) of every database over a matrix, or at one database of
  the sampling-histogram mechanism by its log-space tail sums (``method="shm"``, with the threshold event);
- :class:`SmoothedDelta` — ``max_{π ∈ Π^n} E_{x~π}[δ(x)]`` (Definition 3) with its maximiser, exact over a matrix
  or certified in log space for the sampling-histogram mechanism (``method="shm"``);
- :class:`SamplingHistogram` — the sampling-histogram mechanism (Section 5.1) given by ``n``, ``T`` and
  ``replace``, without its matrix: the input of the fast routes.
"""

from __future__ import annotations

from typing import ClassVar

import math
from dataclasses import dataclass
from fractions import Fraction

from .._core.errors import DomainMismatchError, InvalidParameterError
from .._core.level import PrivacyLevel
from .._core.arrays import parse_int
from .._core.hints import limit_hint
from .._core.numbers import fraction_str, log10_text, Scalar
from .._core.numbers import number_text
from .._core.results import Result
from ..analyses.profiles._hockey_stick import DeltaResult
from ._fastpath import family

__all__ = ["SamplingHistogram", "DatabaseDelta", "SmoothedDelta", "log10_of"]


def log10_of(x: Scalar) -> float:
    """``log10(x)`` of a non-negative Fraction or float (``-inf`` at 0); a Fraction far below the smallest double
    keeps its finite logarithm (numerator and denominator are taken apart).

    Examples
    --------
    >>> log10_of(Fraction(1, 10**400)), log10_of(0.0)
    (-400.0, -inf)
    """
    if x <= 0:
        return -math.inf
    if isinstance(x, Fraction):
        return math.log10(x.numerator) - math.log10(x.denominator)
    return math.log10(float(x))


# ---------------------------------------------------------------------------------------------------- SHM
@dataclass(frozen=True)
class SamplingHistogram:
    """The sampling-histogram mechanism with two records (Liu, Wang & Xia, Section 5.1), by its parameters.

    ``T`` of the ``n`` records are sampled uniformly (without replacement, or with) and the number of ones in the
    sample is published; the input is the number ``N`` of ones among the ``n`` records. No matrix is built: the
    ``method="shm"`` routes of :func:`~privgeom.smoothed.database_delta` and
    :func:`~privgeom.smoothed.smoothed_delta` work on the laws of the sample count directly (``n`` in the
    billions), and their ``method="matrix"`` / ``"enumeration"`` routes build :func:`~privgeom.smoothed.shm`.

    Attributes
    ----------
    n : int — agents (records)
    T : int — sample size (``T <= n`` without replacement)
    replace : bool — sample with replacement

    Examples
    --------
    >>> M = SamplingHistogram(10, 9)
    >>> M.dp_delta, str(M)
    (Fraction(9, 10), 'SHM (n = 10, T = 9, without replacement)')
    """

    n: int
    T: int
    replace: bool = False

    def __post_init__(self) -> None:
        n, T = parse_int(self.n, name="n"), parse_int(self.T, name="T")
        if n < 1 or T < 0:
            raise InvalidParameterError(f"need n >= 1 and T >= 0, got n = {n}, T = {T}")
        if not self.replace and T > n:
            raise InvalidParameterError(f"without replacement T must be <= n, got T = {T} > n = {n}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "T", T)
        object.__setattr__(self, "replace", bool(self.replace))

    @property
    def dp_delta(self) -> Fraction:
        """The DP δ of SHM, ``max_N δ(N)``: ``T/n`` without replacement, ``1 − (1 − 1/n)^T`` with (Theorem 2)."""
        return family(self.n, self.T, self.replace).dp_delta()

    def count(self, x: int | str) -> int:
        """The database ``x`` as its number of ones ``N`` (an int or its label ``"N"``), checked to lie in ``0..n``."""
        N = parse_int(x, name="N", min=0, allow_str=True)
        if N > self.n:
            raise InvalidParameterError(f"N must be an integer in 0..{self.n}, got {N}")
        return N

    def __str__(self) -> str:
        return f"SHM (n = {self.n}, T = {self.T}, {'with' if self.replace else 'without'} replacement)"


# ---------------------------------------------------------------------------------------------------- δ(x)
@dataclass(frozen=True)
class DatabaseDelta(DeltaResult):
    """Database-wise ``δ_{ε,M}(x)`` (Definition 2), as a :class:`~privgeom.analyses.profiles._hockey_stick.DeltaResult` over the graph examined.

    ``delta`` is the maximum of ``δ(x)`` over the graph examined, with its witness ``edge`` and event ``outputs``:
    over a matrix (``method="matrix"``) every database, so ``delta = max_x δ(x)`` is the DP δ of
    ``privgeom.delta(M, graph, ε)`` (Theorem 1); for a :class:`SamplingHistogram` (``method="shm"``) the
    replace-one edges at the one database ``x`` asked for, so ``delta = δ(x)``.

    Attributes
    ----------
    level : PrivacyLevel — the ε asked for (``level.eps``, ``level.exp_eps``)
    inputs : tuple of str — the databases examined
    values : tuple — ``δ(x)`` per input
    worst : tuple — per input, the neighbour attaining ``δ(x)`` (None when it has no neighbour)
    argmax : str — a database attaining ``delta``
    x : str or None — the queried database, if any
    value : scalar — ``δ(x)`` when ``x`` was given, else ``delta``
    method : str — ``"matrix"`` (hockey-stick kernel on the columns) or ``"shm"`` (log-space tail sums)
    log10 : float — ``log10(value)``; on the ``shm`` route computed in log space end to end, so finite and right
        even when ``value`` underflows a double to 0.0 (``-inf`` only when the value is provably 0)
    truncation_bound, log10_truncation : float — a rigorous bound on the neglected tail mass (``shm``; 0 and
        ``-inf`` over a matrix) and its log10
    threshold, side : int or None, str — ``shm``: the worst event is the one-sided tail ``{Y side threshold}`` of
        the sample count ``Y`` (monotone likelihood ratio); its outputs are listed in ``outputs`` with ``p_event``,
        ``q_event`` when there are at most 10,000 of them, else ``outputs`` is empty and ``p_event``, ``q_event``
        are NaN
    mechanism : SamplingHistogram or None — the mechanism of the ``shm`` route

    Examples
    --------
    >>> from privgeom import randomized_response
    >>> from privgeom.smoothed import database_delta
    >>> r = database_delta(randomized_response(2, "3/4"), "ln(2)")
    >>> r.delta, r.edge, r.outputs, r.at("10"), str(r.level)
    (Fraction(1, 4), ('11', '10'), ('11', '01'), Fraction(1, 4), 'ln(2)')
    >>> float(r), r.exact, r.method
    (0.25, True, 'matrix')
    """

    inputs: tuple[str, ...] = ()
    values: tuple[Scalar, ...] = ()
    worst: tuple[str | None, ...] = ()
    argmax: str = ""
    x: str | None = None
    value: Scalar = 0
    method: str = "matrix"
    log10: float = -math.inf
    truncation_bound: float = 0.0
    log10_truncation: float = -math.inf
    threshold: int | None = None
    side: str = ""
    mechanism: SamplingHistogram | None = None

    def at(self, x: str) -> Scalar:
        """``δ(x)`` of one database label."""
        try:
            return self.values[self.inputs.index(str(x))]
        except ValueError:
            raise DomainMismatchError(f"{x!r} is not an input; inputs: {list(self.inputs)[:8]}") from None

    def summary(self) -> str:
        if self.mechanism is not None:
            return self._shm_summary(self.mechanism)
        mode = "exact" if self.exact else "float"
        head = f"database-wise δ at ε = {self.level} ({mode}, Liu-Wang-Xia Definition 2)"
        if self.x is not None:
            return f"{head}: δ({self.x}) = {fraction_str(self.value)} (worst neighbour {self.worst[self.inputs.index(self.x)]})"
        lines = [head + ":"]
        for lab, v, w in list(zip(self.inputs, self.values, self.worst))[:20]:
            lines.append(f"  δ({lab}) = {fraction_str(v)}" + (f"  [vs {w}]" if w is not None else ""))
        if len(self.inputs) > 20:
            lines.append(f"  … {len(self.inputs) - 20} more")
        lines.append(f"max_x δ(x) = {fraction_str(self.delta)} at {self.argmax}: (ε, δ)-DP iff δ >= this (Theorem 1)")
        return "\n".join(lines)

    def _shm_summary(self, M: SamplingHistogram) -> str:
        how = "with" if M.replace else "without"
        zero = " (provably 0: the one-sided tails are empty)" if self.log10 == -math.inf else ""
        event = (
            f"; worst event: sample count {self.side} {self.threshold} on the edge {self.edge[0]} → {self.edge[1]}"
            if self.threshold is not None and self.edge is not None
            else ""
        )
        return (
            f"δ(x) of SHM (n = {M.n}, T = {M.T}, {how} replacement) at N = {self.x} ones, ε = {self.level}: "
            f"{log10_text(self.log10)}{zero} (log10 = {self.log10:.2f}; tails <= "
            f"{log10_text(self.log10_truncation, 2)}){event}; DP δ = {fraction_str(M.dp_delta)}"
        )


# ---------------------------------------------------------------------------------------------------- smoothed δ
@dataclass(frozen=True)
class SmoothedDelta(Result):
    """``max_{π ∈ Π^n} E_{x~π}[δ_{ε,M}(x)]`` (Definition 3) with the maximising assignment.

    Attributes
    ----------
    value : scalar
        The smoothed δ (the best value found; exact when ``exact`` and ``error_bound == 0``).
    error_bound : scalar
        Certified: the maximum over the vertex assignments is at most ``value + error_bound`` (0 unless a grid or
        the branch-and-bound of ``method="shm"`` stopped short of the exact maximiser).
    truncation_bound : float
        ``shm``: a rigorous bound on every neglected tail (binomial windows, hypergeometric/binomial remainders);
        0 over a matrix. The smoothed δ lies in ``[value, upper]``, ``upper = value + error_bound +
        truncation_bound``.
    level : PrivacyLevel
        The ε asked for.
    counts : tuple of int or None
        Agents per vertex at the maximiser (symmetric / anonymous case).
    assignment : tuple of int
        Vertex index of each agent at the maximiser (``maximiser`` gives the distributions themselves); empty on
        the ``shm`` route, whose maximiser is ``counts``.
    vertices : tuple of tuple
        Vertices of ``conv(Π)`` (Proposition 5), as probability vectors over ``records``.
    method : str
        ``"enumeration"`` (all ``|V|^n`` assignments), ``"compositions"`` (all counts), ``"grid"`` or ``"shm"``
        (the certified branch-and-bound of the sampling-histogram mechanism over the vertex counts).
    evaluated : int
        Expectations evaluated.
    dp_delta : scalar
        ``max_x δ(x)``, the DP δ (Theorem 1); ``value <= dp_delta`` (Proposition 1).
    log10, log10_upper : float
        ``log10`` of ``value`` and of ``upper``; on the ``shm`` route computed in log space (finite even when the
        floats underflow).
    complete : bool
        False when the ``shm`` branch-and-bound stopped at the ``smoothed_work`` limit; ``[value, upper]`` is then
        what the evaluated windows certify and ``work_needed`` a work budget certainly enough to finish.
    work, work_needed, cells : int
        ``shm``: window evaluations (expectations and sharp cell bounds), a sufficient budget, cells visited.
    seconds : float
        ``shm``: the time of the search.
    mechanism : SamplingHistogram or None
        The mechanism of the ``shm`` route.

    ``float(r)`` is the value as a float.
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "probability: the smoothed δ"

    value: Scalar
    error_bound: Scalar
    exact: bool
    level: PrivacyLevel
    n: int
    records: tuple[str, ...]
    vertices: tuple[tuple[Scalar, ...], ...]
    counts: tuple[int, ...] | None
    assignment: tuple[int, ...]
    method: str
    evaluated: int
    dp_delta: Scalar
    truncation_bound: float = 0.0
    log10: float = math.nan
    log10_upper: float = math.nan
    complete: bool = True
    work: int = 0
    work_needed: int = 0
    cells: int = 0
    seconds: float = 0.0
    mechanism: SamplingHistogram | None = None

    def __post_init__(self) -> None:
        if math.isnan(self.log10):
            object.__setattr__(self, "log10", log10_of(self.value))
        if math.isnan(self.log10_upper):
            object.__setattr__(self, "log10_upper", log10_of(self.value + self.error_bound))

    def __float__(self) -> float:
        return float(self.value)

    @property
    def upper(self) -> Scalar:
        """Certified upper bound of the smoothed δ: ``value + error_bound + truncation_bound``."""
        total = self.value + self.error_bound
        return total + self.truncation_bound if self.truncation_bound else total

    @property
    def maximiser(self) -> tuple[tuple[Scalar, ...], ...]:
        """The maximising distributions ``(π_1, …, π_n)``, one per agent (empty on the ``shm`` route)."""
        return tuple(self.vertices[a] for a in self.assignment)

    def summary(self) -> str:
        if self.mechanism is not None:
            return self._shm_summary(self.mechanism)
        mode = "exact" if self.exact else "float"
        where = (
            "counts per vertex " + str(self.counts) if self.counts is not None else "assignment " + str(self.assignment)
        )
        err = "" if self.error_bound == 0 else f" (certified error <= {fraction_str(self.error_bound)}, grid)"
        verts = ", ".join("[" + ", ".join(fraction_str(v) for v in vx) + "]" for vx in self.vertices)
        return (
            f"smoothed δ at ε = {self.level}, n = {self.n} ({mode}, Liu-Wang-Xia Definition 3): "
            f"{fraction_str(self.value)}{err}\n"
            f"  maximiser: {where} over the {len(self.vertices)} vertices of conv(Π): {verts}\n"
            f"  method: {self.method} ({self.evaluated} evaluated); DP δ = max_x δ(x) = {fraction_str(self.dp_delta)}"
        )

    def _shm_summary(self, M: SamplingHistogram) -> str:
        how = "with" if M.replace else "without"
        verts = ", ".join(fraction_str(v[1]) for v in self.vertices)
        lo, hi = log10_text(self.log10), log10_text(self.log10_upper)
        stopped = (
            ""
            if self.complete
            else (
                f"\n  stopped at the work limit smoothed_work after {self.work:,} window evaluations: the smoothed δ lies in "
                f"the certified bracket [{lo}, {hi}]; {limit_hint('smoothed_work', self.work_needed)}"
            )
        )
        return (
            f"smoothed δ of SHM (n = {M.n}, T = {M.T}, {how} replacement) at ε = {self.level}: "
            f"{log10_text(self.log10)}\n"
            f"  {'maximiser' if self.complete else 'best found'}: {self.counts} agents at the vertices q = {verts}\n"
            f"  certified: true value <= {hi} (branch-and-bound gap {number_text(float(self.error_bound), digits=2)}, "
            f"tails {number_text(self.truncation_bound, digits=2)}); DP δ = {fraction_str(self.dp_delta)} "
            f"({self.evaluated} expectations, {self.work} window evaluations, {self.seconds:.2f} s)" + stopped
        )
