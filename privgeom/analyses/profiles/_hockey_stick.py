"""δ(ε) as a hockey-stick divergence: :class:`DeltaResult`, δ of a prepared edge scan and of two distributions.

For one directed edge ``(D, D')`` the smallest ``δ`` with ``P(M(D) ∈ S) ≤ e^ε P(M(D') ∈ S) + δ`` for every event
``S`` is the hockey-stick divergence ``Σ_ω (M[ω, D] − e^ε M[ω, D'])₊``, attained by the event
``S = {ω : M[ω, D] > e^ε M[ω, D']}`` (Barthe & Olmedo 2013; Balle, Barthe & Gaboardi 2018, Def. 2 and Thm. 1).
:func:`_delta_on` takes its maximum over the edges of a prepared scan (module ``_scan``) with that witness event;
it is the computation behind the routes of :func:`privgeom.analyses.delta` (module ``_profile``).
:func:`hockey_stick` and :func:`hockey_stick_event` give the divergence of two validated distributions; all of them
call the kernel :func:`~privgeom._core.columns.hockey_stick_columns`.

Examples
--------
>>> from privgeom import PrivacyLevel, randomized_response
>>> from privgeom.analyses.profiles._scan import _prepare
>>> r = _delta_on(_prepare(randomized_response(1, "3/4"), "hamming"), PrivacyLevel.from_exp_eps(2), fraction=False)
>>> r.delta, r.outputs, hockey_stick(["3/4", "1/4"], ["1/4", "3/4"], 2)
(Fraction(1, 4), ('1',), Fraction(1, 4))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple, Sequence

import numpy as np

from ..._core.errors import InvalidParameterError, InvalidTypeError
from ..._core.level import PrivacyLevel, ScalarLike
from ..._core.numbers import level_text as format_level
from ..._core.arrays import ATOL
from ..._core.columns import hockey_stick_columns
from ..._core.numbers import is_exact_scalar, LogRational, parse_scalar, Scalar
from ..._core.results import Result
from ...mechanisms._mechanism import Mechanism
from ._scan import _delta_scan, _Prepared

__all__ = ["DeltaResult", "hockey_stick", "hockey_stick_event"]


@dataclass(frozen=True)
class DeltaResult(Result):
    """The exact ``δ(ε)`` of a mechanism over a neighbour graph, with the edge and event that attain it.

    Attributes
    ----------
    delta : Fraction or float
        ``max over directed edges (D, D') of Σ_ω (P(M(D) = ω) − e^ε P(M(D') = ω))₊``.
    level : PrivacyLevel
        The ε asked for: ``level.eps`` (a LogRational when ``e^ε`` is rational) and ``level.exp_eps`` (``e^ε``).
    exact : bool
        True when ``delta`` is an exact Fraction (exact mechanism and rational ``e^ε``).
    edge : tuple of str or None
        The witness direction ``(D, D')`` (None when the graph has no edges).
    outputs : tuple of str
        The witness event ``S = {ω : P(M(D) = ω) > e^ε P(M(D') = ω)}``, so that
        ``delta = P(M(D) ∈ S) − e^ε P(M(D') ∈ S)``; empty when ``delta = 0``.
    p_event, q_event : Fraction or float
        ``P(M(D) ∈ S)`` and ``P(M(D') ∈ S)``.
    n_edges : int
        Number of (undirected) edges examined.
    graph : str
        Name of the neighbour graph.
    detail : str
        Notes (e.g. why the computation fell back to floats).
    """

    #: What :attr:`value` measures (the unit of the one number this result answers).
    unit: ClassVar[str] = "probability: δ, the largest hockey-stick divergence over the graph's edges"

    delta: Scalar
    level: PrivacyLevel
    exact: bool
    edge: tuple[str, str] | None
    outputs: tuple[str, ...]
    p_event: Scalar
    q_event: Scalar
    n_edges: int
    graph: str
    detail: str = ""

    @property
    def value(self) -> Scalar:
        """The one number this result answers (δ): the name every one-number result answers
        with; ``.delta`` is the same value under its domain name, :attr:`unit` says what it measures."""
        return self.delta

    def __float__(self) -> float:
        return float(self.delta)

    def summary(self) -> str:
        mode = "exact" if self.exact else "float"
        head = (
            f"δ(ε = {format_level(self.level.eps)}) = {format_level(self.delta)} ({mode}) over {self.n_edges} edges "
            f"of {self.graph!r}"
        )
        if self.edge is None:
            text = head + "; no edges"
        elif not self.outputs:
            text = head + "; no event separates any pair of neighbours at this ε"
        else:
            d, d2 = self.edge
            shown = ", ".join(self.outputs[:8]) + (", …" if len(self.outputs) > 8 else "")
            text = (
                f"{head}; attained on edge {d} → {d2} with the event S = {{{shown}}}: "
                f"P(S | {d}) = {format_level(self.p_event)}, e^ε P(S | {d2}) = {format_level(self.level.exp_eps)} × "
                f"{format_level(self.q_event)}"
            )
        return text + (f" [{self.detail}]" if self.detail else "")


def _delta_on(P: _Prepared, level: PrivacyLevel, fraction: bool) -> DeltaResult:
    """δ(ε) of a prepared scan (:func:`_delta_scan`) with its witness event ``S = {ω : M[ω, D] > e^ε M[ω, D']}``
    (Balle, Barthe & Gaboardi 2018, Thm. 1: the worst event of the hockey-stick divergence)."""
    M, t = P.M, level.exp_eps
    exact = M.exact and isinstance(t, Fraction)
    note = level.note or ("e^ε given as a float: computed in float" if M.exact and not exact else "")
    zero: Scalar = Fraction(0) if exact else 0.0
    if len(P.I) == 0:
        return DeltaResult(
            delta=zero,
            level=level,
            exact=exact,
            edge=None,
            outputs=(),
            p_event=zero,
            q_event=zero,
            n_edges=0,
            graph=P.graph,
            detail=note,
        )
    value, d = _delta_scan(P, t, fraction)
    a = list(M.column(int(P.I[d]))) if exact else [float(v) for v in P.X[:, P.I[d]]]
    b = list(M.column(int(P.J[d]))) if exact else [float(v) for v in P.X[:, P.J[d]]]
    if value > 0:
        if not exact and math.isinf(t):
            S = [w for w in range(M.n_outputs) if b[w] == 0 and a[w] > 0]
        else:
            S = [w for w in range(M.n_outputs) if a[w] - t * b[w] > 0]
    else:
        S = []
    p_ev: Scalar = sum((a[w] for w in S), zero)
    q_ev: Scalar = sum((b[w] for w in S), zero)
    return DeltaResult(
        delta=value,
        level=level,
        exact=exact,
        edge=P.label(d),
        outputs=tuple(M.outputs[w] for w in S),
        p_event=p_ev,
        q_event=q_ev,
        n_edges=P.n_edges,
        graph=P.graph,
        detail=note,
    )


# ---------------------------------------------------------------------------------------------------- hockey stick
def _distribution(values: Any, name: str, exact: bool | None) -> list[Scalar]:
    if isinstance(values, (str, bytes)) or isinstance(values, Mechanism):
        raise InvalidTypeError(f"{name} must be a sequence of probabilities, got {type(values).__name__}")
    try:
        items = list(np.asarray(values, dtype=object).ravel()) if isinstance(values, np.ndarray) else list(values)
    except TypeError:
        raise InvalidTypeError(f"{name} must be a sequence of probabilities, got {values!r}") from None
    if not items:
        raise InvalidParameterError(f"{name} is empty")
    out = [parse_scalar(v, name=f"{name}[{i}]", exact=exact) for i, v in enumerate(items)]
    for i, v in enumerate(out):
        if v < 0:
            raise InvalidParameterError(f"{name}[{i}] = {format_level(v)} is negative; probabilities must be >= 0")
    total = sum(out)
    if (exact and total != 1) or (not exact and abs(float(total) - 1.0) > ATOL * max(1, len(out))):
        raise InvalidParameterError(
            f"{name} sums to {format_level(total)}, not 1: it is not a probability distribution"
        )
    return out


class _Pair(NamedTuple):
    """Two validated distributions on the same outputs and ``t = e^ε`` (all exact, or all float)."""

    p: list[Scalar]
    q: list[Scalar]
    t: Scalar


def _pair(P: Any, Q: Any, exp_eps: ScalarLike | LogRational) -> _Pair:
    if isinstance(exp_eps, LogRational):
        exp_eps = exp_eps.ratio
    t = parse_scalar(exp_eps, name="exp_eps")
    if t < 0:
        raise InvalidParameterError(f"exp_eps must be >= 0, got {format_level(t)}")
    raw = [list(x) if not isinstance(x, (str, bytes, Mechanism)) and hasattr(x, "__iter__") else x for x in (P, Q)]
    exact = isinstance(t, Fraction) and all(isinstance(r, list) and all(is_exact_scalar(v) for v in r) for r in raw)
    p = _distribution(raw[0], "P", exact)
    q = _distribution(raw[1], "Q", exact)
    if len(p) != len(q):
        raise InvalidParameterError(
            f"P and Q must be distributions on the same outputs, got lengths {len(p)} and {len(q)}"
        )
    return _Pair(p=p, q=q, t=t if exact else float(t))


def hockey_stick(P: Sequence[ScalarLike], Q: Sequence[ScalarLike], exp_eps: ScalarLike | LogRational) -> Scalar:
    """The hockey-stick divergence ``E_t(P ‖ Q) = Σ_ω (P(ω) − t Q(ω))₊ = max_S (P(S) − t Q(S))`` with ``t = e^ε``.

    ``P`` is ``(ε, δ)``-indistinguishable from ``Q`` in one direction iff ``E_{e^ε}(P ‖ Q) ≤ δ`` (Barthe & Olmedo
    2013; Balle, Barthe & Gaboardi 2018, Def. 2). The maximising event is :func:`hockey_stick_event`; both validate
    their inputs and then call the kernel :func:`hockey_stick_columns`.

    Parameters
    ----------
    P, Q : sequences of probabilities
        Two distributions on the same finite outputs (non-negative, summing to 1).
    exp_eps : rational, float or LogRational
        ``t = e^ε >= 0`` (a LogRational ``ln r`` means ``t = r``).

    Returns
    -------
    Fraction or float
        Exact when every probability and ``t`` are rational.

    Examples
    --------
    >>> hockey_stick(["3/4", "1/4"], ["1/4", "3/4"], 1)
    Fraction(1, 2)
    >>> hockey_stick(["3/4", "1/4"], ["1/4", "3/4"], 2)
    Fraction(1, 4)
    >>> hockey_stick([0.75, 0.25], [0.25, 0.75], 3)
    0.0
    """
    p, q, t = _pair(P, Q, exp_eps)
    value = hockey_stick_columns(_column(p, t), _column(q, t), t)[0]
    return value if isinstance(t, Fraction) else float(value)


def _column(values: list[Scalar], t: Scalar) -> np.ndarray:
    return np.array(values, dtype=object if isinstance(t, Fraction) else float)


def hockey_stick_event(
    P: Sequence[ScalarLike], Q: Sequence[ScalarLike], exp_eps: ScalarLike | LogRational
) -> tuple[int, ...]:
    """The event ``S = {ω : P(ω) > t Q(ω)}`` (output indices) attaining :func:`hockey_stick`.

    Examples
    --------
    >>> hockey_stick_event(["1/2", "1/3", "1/6"], ["1/6", "1/3", "1/2"], 2)
    (0,)
    """
    p, q, t = _pair(P, Q, exp_eps)
    _, mask = hockey_stick_columns(_column(p, t), _column(q, t), t, events=True)
    return tuple(int(w) for w in np.flatnonzero(mask[:, 0]))
