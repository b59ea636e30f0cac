"""(ε, δ)-differential privacy over a neighbour graph: hockey-stick membership, LP cross-check, orthant row cone.

A mechanism ``M`` (``M[ω, i] = P(M(D_i) = ω)``) satisfies (ε, δ)-DP over a neighbour graph ``G`` (Dwork,
Kenthapadi, McSherry, Mironov & Naor, *Our data, ourselves*, EUROCRYPT 2006) when for every edge ``{D, D'}``, in
both directions, and every set ``S`` of outputs,

    ``P(M(D) ∈ S) ≤ e^ε P(M(D') ∈ S) + δ``.

For a finite output space the worst ``S`` is ``{ω : M[ω, D] > e^ε M[ω, D']}``, so the condition is the
*hockey-stick* bound ``Σ_ω (M[ω, D] − e^ε M[ω, D'])₊ ≤ δ`` on every directed edge (Barthe & Olmedo, ICALP 2013;
Balle, Barthe & Gaboardi, NeurIPS 2018, Definition 2 and Theorem 1). With auxiliary variables ``t_ω`` it is a linear
feasibility problem: ``t_ω ≥ M[ω, D] − e^ε M[ω, D']``, ``t ≥ 0``, ``Σ_ω t_ω ≤ δ``.

Geometry (Lin & Kifer, row-cone analysis, §III-B.1 and §III-D; ``docs/theory.md`` §8):

* (ε, δ)-DP is closed under post-processing and mixing, so it *is* its own consistent closure; membership is decided
  by the hockey-stick values themselves.
* For ``δ > 0`` its row cone is the whole non-negative orthant: every ``x ≥ 0`` is (a multiple of) a row of a member,
  because a row of tiny mass costs almost nothing (:meth:`ApproximateDP.contains_row` builds that member). The row
  cone then carries no Bayesian (row-wise) semantics, and it does not decide membership: row-wise semantics are empty
  and only "randomized" semantics that do not rescale rows remain (Lin & Kifer, §III-D.2).
* For ``δ = 0`` it is ε-DP: the row cone is ``{x : x_i ≤ e^ε x_j for every edge, both directions; x ≥ 0}`` and it
  decides membership row by row.

Examples
--------
>>> from privgeom import randomized_response
>>> from privgeom.graphs._graphs import hamming_graph
>>> adp = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/4")
>>> ans = adp.contains(randomized_response(2, "3/4"))
>>> bool(ans), ans.method, ans.exact, str(ans.witness.max_value)
(True, 'hockey-stick', True, '1/4')
>>> no = ApproximateDP(hamming_graph(2), exp_eps=2, delta="1/5").contains(randomized_response(2, "3/4"))
>>> bool(no), no.certificate.edge, no.certificate.outputs, str(no.certificate.value)
(False, ('11', '10'), ('11', '01'), '1/4')
>>> adp.row_cone_decides_closure, adp.row_cone().n_facets
(False, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

import networkx as nx
import numpy as np

from .._core.domain import InputsLike, RelationLike
from .._core.level import LevelLike, PrivacyLevel, ScalarLike
from .._core.errors import InvalidParameterError, SizeLimitError, SolverError
from .._core.limits import register_limit
from .._core.arrays import ATOL, tolerance
from .._core.columns import hockey_stick_columns
from .._core.hints import how_to, limit_hint
from .._core.numbers import fraction_str, parse_scalar, Scalar
from .._core.limits import current_limit
from .._core.numbers import number_text
from .._core.results import Result
from ..graphs._graphs import edge_index_pairs
from ..mechanisms import Mechanism
from ._base import CompletionWitness, HasLevel, Membership, PrivacyDefinition
from ._dp import DifferentialPrivacy
from ._rows import as_vector

__all__ = [
    "ApproximateDP",
    "HockeyStickWitness",
    "HockeyStickCertificate",
    "CompletionWitness",
    "hockey_stick_values",
    "MAX_ADP_LP_VARIABLES",
    "MAX_CROSS_CHECK_VARIABLES",
]

#: Largest number of auxiliary variables ``t`` of the (ε, δ)-DP membership LP (outputs × directed edges).
MAX_ADP_LP_VARIABLES = 2_000_000
#: Above this many auxiliary variables ``method="auto"`` skips the LP cross-check (and says so in the detail).
MAX_CROSS_CHECK_VARIABLES = 100_000
register_limit(
    "adp_lp_variables",
    globals(),
    "MAX_ADP_LP_VARIABLES",
    "largest (eps, delta)-DP membership LP (method='lp'), in auxiliary variables (outputs x directed edges)",
)

#: Why the row cone of (ε, δ)-DP with δ > 0 says nothing (shown by :attr:`ApproximateDP.semantics_note`).
ORTHANT_NOTE = (
    "For delta > 0 the row cone of (eps, delta)-DP is the whole non-negative orthant: every vector x >= 0 is, up to "
    "scaling, a row of some (eps, delta)-DP mechanism (scale x down until its mass is at most delta and complete the "
    "column sums with a second output). Its only valid inequalities are x_D >= 0, so row-wise (Bayesian) semantics "
    "are empty: no prior-to-posterior guarantee holds for every output of every member. The row cone does not "
    "decide membership either; the hockey-stick condition (a property of whole columns, not of rows) does. Only "
    "'randomized' semantics that look at unscaled probability vectors remain (Lin & Kifer, Section III-D.2)."
)


# ---------------------------------------------------------------------------------------------------- hockey stick
class HockeyStickValue(NamedTuple):
    """The hockey-stick value ``Σ_ω (M[ω, i] − r M[ω, j])₊`` of the directed pair ``(i, j)`` and its worst event
    (the outputs ``ω`` with ``M[ω, i] > r M[ω, j]``)."""

    i: int
    j: int
    value: Scalar
    event: tuple[int, ...]


def hockey_stick_values(matrix: np.ndarray, pairs: Sequence[tuple[int, int]], ratio: Scalar) -> list[HockeyStickValue]:
    """``Σ_ω (M[ω, i] − r M[ω, j])₊`` and the maximising event for every *directed* pair ``(i, j)`` given
    (a wrapper of :func:`privgeom._core.columns.hockey_stick_columns`, the package's one hockey-stick kernel).

    Exact (Fractions) when ``matrix`` is an object array of Fractions and ``ratio`` is a Fraction; float otherwise.

    Returns
    -------
    list of HockeyStickValue
        ``(i, j, value, event)`` per pair; ``event`` = indices ``ω`` with ``M[ω, i] > r M[ω, j]`` (the worst set ``S``).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> M = np.array([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], dtype=object)
    >>> hockey_stick_values(M, [(0, 1)], F(2))
    [HockeyStickValue(i=0, j=1, value=Fraction(1, 4), event=(0,))]
    """
    pairs = [(int(i), int(j)) for i, j in pairs]
    if not pairs:
        return []
    exact = matrix.dtype == object and isinstance(ratio, Fraction)
    out: list[HockeyStickValue] = []
    step = max(1, (1 << 18) // max(1, matrix.shape[0]))  # bounded memory: blocks of columns
    for start in range(0, len(pairs), step):
        block = pairs[start : start + step]
        values, mask = hockey_stick_columns(
            matrix[:, [i for i, _ in block]], matrix[:, [j for _, j in block]], ratio, events=True
        )
        out.extend(
            HockeyStickValue(
                i, j, values[c] if exact else float(values[c]), tuple(int(w) for w in np.flatnonzero(mask[:, c]))
            )
            for c, (i, j) in enumerate(block)
        )
    return out


# ---------------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class HockeyStickWitness(Result):
    """Proof that a mechanism is (ε, δ)-DP: the hockey-stick value of every directed edge is at most ``δ``.

    (ε, δ)-DP is its own consistent closure, so these values *are* the proof (no post-processing witness needed).

    Attributes
    ----------
    edges : tuple of (str, str)
        Directed edges ``(D, D')``.
    values : tuple of Fraction or float
        ``Σ_ω (M[ω, D] − e^ε M[ω, D'])₊`` for each directed edge, in the same order.
    level : PrivacyLevel
        The ε the values were computed at (``level.exp_eps``: a Fraction in exact mode).
    delta : Fraction or float
        The slack δ.
    lp_value : float or None
        The LP cross-check's optimum ``min max_edge Σ_ω t_ω`` (None when the cross-check was not run).
    """

    edges: tuple[tuple[str, str], ...]
    values: tuple[Scalar, ...]
    level: PrivacyLevel
    delta: Scalar
    lp_value: float | None = None

    @property
    def max_value(self) -> Scalar:
        """The largest hockey-stick value (the δ the mechanism actually needs at this ε)."""
        return max(self.values) if self.values else Fraction(0)

    @property
    def worst_edge(self) -> tuple[str, str] | None:
        """The directed edge attaining :attr:`max_value`."""
        if not self.values:
            return None
        return self.edges[max(range(len(self.values)), key=lambda k: self.values[k])]

    def summary(self) -> str:
        worst = self.worst_edge
        where = f" on {worst[0]}->{worst[1]}" if worst else ""
        return (
            f"every directed edge has hockey-stick value <= delta = {fraction_str(self.delta)} "
            f"(largest {fraction_str(self.max_value)}{where}, {len(self.edges)} directed edges)"
        )


@dataclass(frozen=True)
class HockeyStickCertificate(Result):
    """Proof that a mechanism is not (ε, δ)-DP: an edge, a direction and an output set ``S`` with
    ``P(M(D) ∈ S) − e^ε P(M(D') ∈ S) > δ``.

    Attributes
    ----------
    edge : (str, str)
        The directed edge ``(D, D')``.
    outputs : tuple of str
        The event ``S`` (output labels).
    p_from, p_to : Fraction or float
        ``P(M(D) ∈ S)`` and ``P(M(D') ∈ S)``.
    value : Fraction or float
        ``p_from − e^ε p_to`` (``> δ``).
    level : PrivacyLevel
        The ε of the inequality (``level.exp_eps``: a Fraction in exact mode).
    delta : Fraction or float
    """

    edge: tuple[str, str]
    outputs: tuple[str, ...]
    p_from: Scalar
    p_to: Scalar
    value: Scalar
    level: PrivacyLevel
    delta: Scalar

    def verify(self, mechanism: Mechanism, *, atol: float | None = None) -> bool:
        """Recompute ``P(M(D) ∈ S) − e^ε P(M(D') ∈ S)`` from ``mechanism`` and check that it exceeds ``δ``."""
        i, j = mechanism.inputs.index(self.edge[0]), mechanism.inputs.index(self.edge[1])
        rows = [mechanism.outputs.index(o) for o in self.outputs]
        ratio = self.level.exp_eps
        exact = mechanism.exact and self.level.exact and isinstance(self.delta, Fraction)
        m = mechanism.matrix if exact else mechanism.float_matrix()
        zero: Any = Fraction(0) if exact else 0.0
        p = sum((m[w, i] for w in rows), zero)
        q = sum((m[w, j] for w in rows), zero)
        if exact:
            return bool(p - ratio * q > self.delta)
        return bool(float(p) - float(ratio) * float(q) > float(self.delta) + tolerance(atol))

    def summary(self) -> str:
        d, d2 = self.edge
        ratio = self.level.exp_eps
        return (
            f"P(M({d}) in S) - {fraction_str(ratio)}·P(M({d2}) in S) = {fraction_str(self.p_from)} - "
            f"{fraction_str(ratio)}·{fraction_str(self.p_to)} = {fraction_str(self.value)} > delta = "
            f"{fraction_str(self.delta)} for S = {{{', '.join(self.outputs)}}}"
        )


# ---------------------------------------------------------------------------------------------------- definition
class ApproximateDP(HasLevel, PrivacyDefinition):
    """(ε, δ)-differential privacy over a neighbour graph (Dwork et al., EUROCRYPT 2006).

    Parameters
    ----------
    graph : str, Domain, networkx.Graph, iterable of label pairs, or DifferentialPrivacy
        The neighbour relation, resolved by :func:`privgeom.neighbour_graph` as for
        :class:`~privgeom.definitions.DifferentialPrivacy`: a relation name (``"hamming"``, ``"path"``,
        ``"complete"``, …; needs ``inputs``), a :class:`~privgeom.Domain`, or a graph / edge list whose nodes are
        dataset labels (e.g. a Blowfish-style policy graph). An ε-DP definition may be given instead of graph and ε
        (its (ε, δ) relaxation).
    eps, exp_eps : number, exactly one
        The privacy parameter as ``ε ≥ 0`` (a :class:`~privgeom.LogRational`, ``"ln(r)"`` or ``0`` keep exact mode;
        any other ``ε`` makes ``e^ε`` irrational, hence float mode) or as the ratio ``e^ε ≥ 1`` (rational → exact).
    delta : number in [0, 1]
        The additive slack ``δ`` (rational → exact; a float makes the definition float).
    inputs : sequence of str, optional
        Dataset labels in order (default: the graph's nodes in order).
    exact : bool, optional
        ``False`` forces float mode; ``True`` refuses an irrational ``e^ε``.
    atol : float
        Float-mode tolerance.

    Notes
    -----
    * Membership (:meth:`contains`) computes the hockey-stick value ``Σ_ω (M[ω, D] − e^ε M[ω, D'])₊`` of every
      directed edge directly (exactly when ``M``, ``e^ε`` and ``δ`` are rational) and, as an independent cross-check,
      solves the auxiliary-variable LP ``min s`` s.t. ``t_{e,ω} ≥ M[ω, D] − e^ε M[ω, D']``, ``t ≥ 0``,
      ``Σ_ω t_{e,ω} ≤ s`` with HiGHS, whose optimum is the largest hockey-stick value; a disagreement beyond the
      tolerance raises :class:`~privgeom.SolverError`. ``method="lp"`` decides with the LP alone (float).
    * The definition equals its own consistent closure (Lin & Kifer, §III-B.1): post-processing and mixing never
      increase a hockey-stick divergence.
    * Row cone: the orthant for ``δ > 0`` (see :attr:`semantics_note`), the ε-DP cone for ``δ = 0``.

    Examples
    --------
    >>> from privgeom import Mechanism
    >>> from privgeom.graphs._graphs import path_graph
    >>> adp = ApproximateDP(path_graph(1), exp_eps=1, delta="1/10")
    >>> M = Mechanism([["1/2", "2/5"], ["1/2", "3/5"]], inputs=["0", "1"])
    >>> ans = adp.contains(M); bool(ans), [str(v) for v in ans.witness.values]
    (True, ['1/10', '1/10'])
    >>> adp.spec(), adp.row_cone_decides_closure
    ('adp:graph=path,n=1,exp_eps=1,delta=1/10', False)
    >>> str(adp.contains_row([5, 0]).witness.scale)
    '50'
    """

    membership_methods = ("hockey-stick", "lp")

    def __init__(
        self,
        graph: RelationLike | DifferentialPrivacy,
        eps: LevelLike | None = None,
        exp_eps: ScalarLike | None = None,
        *,
        delta: ScalarLike,
        inputs: InputsLike | None = None,
        exact: bool | None = None,
        atol: float = ATOL,
    ) -> None:
        # graph validation and the ratio e^ε exactly as for ε-DP (same spec syntax, same exactness rules)
        if isinstance(graph, DifferentialPrivacy):
            if eps is not None or exp_eps is not None or inputs is not None:
                raise InvalidParameterError(
                    "ApproximateDP: a DifferentialPrivacy definition already fixes the graph, ε and the inputs; "
                    "do not also give eps=, exp_eps= or inputs="
                )
            dp = graph
            if exact is False and dp.exact:
                dp = DifferentialPrivacy(dp.graph, exp_eps=dp.level.exp_eps, inputs=dp.inputs, exact=False)
            elif exact is True and not dp.exact:
                raise InvalidParameterError(f"ApproximateDP: exact=True but {dp.name} is float")
        else:
            dp = DifferentialPrivacy(graph, eps=eps, exp_eps=exp_eps, inputs=inputs, exact=exact)
        d = parse_scalar(delta, name="delta", exact=False if exact is False else None)
        if not 0 <= d <= 1:
            raise InvalidParameterError(f"ApproximateDP: delta must be in [0, 1], got delta = {fraction_str(d)}")
        if exact is True and not isinstance(d, Fraction):
            raise InvalidParameterError(f"ApproximateDP: exact=True but delta = {d!r} is a float; give it as '1/10'")
        self._exact = dp.exact and isinstance(d, Fraction)
        self._delta_text = fraction_str(d)
        self._needs_float_flag = dp.exact and not self._exact
        if not self._exact and dp.exact:  # a float δ makes the whole definition float
            dp = DifferentialPrivacy(dp.graph, exp_eps=dp.level.exp_eps, inputs=dp.inputs, exact=False)
        self._dp = dp
        self._graph = self._dp.graph
        self._inputs = self._dp.inputs
        self._level = self._dp.level
        self._ratio: Scalar = self._level.exp_eps
        self._delta: Scalar = d if self._exact else float(d)
        self._atol = self._checked_atol(atol, "ApproximateDP")
        pairs = edge_index_pairs(self._graph, self._inputs)
        self._directed = [(i, j) for i, j in pairs] + [(j, i) for i, j in pairs]

    # -- identity ---------------------------------------------------------------------------------------------
    @property
    def graph(self) -> nx.Graph:
        """The validated neighbour graph (nodes = :attr:`inputs`); a copy."""
        return self._graph.copy()

    @property
    def delta(self) -> Scalar:
        """``δ``."""
        return self._delta

    @property
    def pure_dp(self) -> Any:
        """The ε-DP definition with the same graph and ε (equal to this one when ``δ = 0``)."""
        return self._dp

    @property
    def name(self) -> str:
        eps = number_text(self._level.eps if self._level.exact else float(self._level.eps))
        gname = getattr(self._graph, "name", "") or "user graph"
        return f"(eps={eps}, delta={fraction_str(self._delta)})-DP (graph {gname})"

    def spec(self) -> str:
        """``adp:<the dp spec's graph and ε>,delta=…`` (``exact=false`` is kept when the definition is float).

        Raises
        ------
        FormatError
            A user graph whose labels cannot be written into a spec (as for ε-DP).
        """
        body = self._dp.spec().partition(":")[2]
        if self._needs_float_flag and "exact=false" not in body:
            body += ",exact=false"
        return f"adp:{body},delta={self._delta_text}"

    @property
    def semantics_note(self) -> str:
        """Why the row cone does or does not carry meaning for this (ε, δ) (Lin & Kifer, §III-D.2)."""
        if self._delta == 0:
            return (
                "delta = 0: (eps, 0)-DP is eps-DP; its row cone {x >= 0 : x_D <= e^eps x_D' on every edge} decides "
                "membership row by row and each edge inequality is a Bayesian guarantee (Lin & Kifer, Section III-D.1)."
            )
        return ORTHANT_NOTE

    @property
    def row_cone_decides_closure(self) -> bool:
        """True only for ``δ = 0`` (ε-DP), or trivially when every mechanism is a member (``δ = 1`` or no edges)."""
        return bool(self._delta == 0 or self._delta >= 1 or not self._directed)

    # -- geometry ---------------------------------------------------------------------------------------------
    def row_cone(self) -> Any:
        """The non-negative orthant when ``δ > 0``; the ε-DP cone when ``δ = 0`` (H-representation)."""
        from ..geometry import Cone

        if self._delta > 0:
            eye = np.eye(self.n_inputs, dtype=int)
            return self._cached_row_cone(
                lambda: Cone.from_facets(eye, exact=self._exact, labels=self._inputs, atol=self._atol)
            )
        return self._dp.row_cone()

    def contains_row(self, x: Sequence[ScalarLike] | np.ndarray, *, atol: float | None = None) -> Membership:
        """Is ``x`` in the row cone? For ``δ > 0``: iff ``x ≥ 0``, with a member having ``x`` (scaled) as a row.

        For ``δ = 0`` this is ε-DP's row test (edge inequalities).

        Examples
        --------
        >>> from privgeom.graphs._graphs import complete_graph
        >>> ans = ApproximateDP(complete_graph(3), exp_eps=2, delta="1/2").contains_row([1, 0, 3])
        >>> bool(ans), [str(v) for v in ans.witness.mechanism.row(0)], str(ans.witness.scale)
        (True, ['1/6', '0', '1/2'], '6')
        """
        tol = self._tol(atol)
        if self._delta == 0:
            return self._dp.contains_row(x, atol=tol)
        vec, exact = as_vector(x, self.n_inputs, exact=self._exact)
        vec = np.array([Fraction(v) for v in vec], dtype=object) if exact else vec.astype(float)
        negative = self._negative_entry(
            vec, exact, tol, "orthant-completion", detail=lambda i: f"x[{self._inputs[i]}] = {fraction_str(vec[i])} < 0"
        )
        if negative is not None:
            return negative
        top = max(vec) if len(vec) else 0
        one: Any = Fraction(1) if exact else 1.0
        if top <= (0 if exact else tol):
            c: Any = one
            row = [v * 0 for v in vec]
        else:
            c = min(one, self._delta if exact else float(self._delta)) / top
            row = [max(v * c, 0 * c) for v in vec]
        scale = 1 / c if top > (0 if exact else tol) else one * 0
        # a theorem: the total variation of the member is at most min(1, δ), which bounds every hockey-stick value
        return self._completion(
            row,
            scale,
            exact,
            lambda M: self.contains(M, method="hockey-stick", atol=tol),
            "orthant-completion",
            "x >= 0 is a row of a member: the row cone is the whole orthant (delta > 0)",
        )

    # -- membership -------------------------------------------------------------------------------------------
    def contains(self, mechanism: Mechanism, *, method: str = "auto", atol: float | None = None) -> Membership:
        """Is ``mechanism`` (ε, δ)-DP over the graph? (It is its own closure, so this is closure membership.)

        Parameters
        ----------
        mechanism : Mechanism
            Over exactly :attr:`inputs`.
        method : {"auto", "hockey-stick", "lp"}
            ``"hockey-stick"``: the exact hockey-stick values; ``"auto"``: the same plus the LP cross-check (skipped
            above :data:`MAX_CROSS_CHECK_VARIABLES` variables, which the detail says); ``"lp"``: the LP decides (in exact
            mode its answer is re-verified, and if need be corrected, by the exact hockey-stick values).
        atol : float, optional
            Float tolerance (default: the definition's).

        Returns
        -------
        Membership
            Yes: :class:`HockeyStickWitness`; no: :class:`HockeyStickCertificate` (re-verified).

        Raises
        ------
        SolverError
            The LP failed or disagrees with the direct computation.
        """
        M = self.check_mechanism(mechanism)
        method = self.check_method(method)
        tol = self._tol(atol)
        exact = self._exact and M.exact
        ratio: Scalar = self._ratio if exact else float(self._ratio)
        level = self._level if exact == self._level.exact else PrivacyLevel.from_exp_eps(ratio)
        delta: Scalar = self._delta if exact else float(self._delta)
        n_vars = M.n_outputs * len(self._directed)
        lp_value: float | None = None
        note = ""
        if method in ("auto", "lp"):
            if n_vars > (current_limit("adp_lp_variables") if method == "lp" else MAX_CROSS_CHECK_VARIABLES):
                if method == "lp":
                    other = how_to("method='hockey-stick'", "--method hockey-stick")
                    raise SizeLimitError(
                        f"{self.name}: the membership LP would have {n_vars:,} auxiliary variables ({M.n_outputs:,} "
                        f"outputs x {len(self._directed):,} directed edges; limit "
                        f"{current_limit('adp_lp_variables'):,}); refused "
                        f"before building it — use {other}, or "
                        f"{limit_hint('adp_lp_variables', n_vars)}"
                    )
                note = f"; LP cross-check skipped ({n_vars:,} variables)"
            else:
                lp_value, lp_t = self._lp(M.float_matrix(), float(ratio))
        if method == "lp" and not exact:
            assert lp_value is not None
            return self._decide_lp(M, lp_value, lp_t, level, float(delta), tol)
        # exact mode: the LP's float answer (if any) is re-verified by the exact hockey-stick values
        m = M.matrix if exact else M.float_matrix()
        values = hockey_stick_values(m, self._directed, ratio)
        if lp_value is not None:
            direct = max((float(v) for _, _, v, _ in values), default=0.0)
            if abs(direct - lp_value) > max(1e-7, 100 * tol):
                raise SolverError(
                    f"{self.name}: the membership LP gives max hockey-stick {lp_value!r} but the direct computation "
                    f"gives {direct!r}; no answer can be given"
                )
            note = f"; LP cross-check agrees (max hockey-stick {number_text(lp_value)})"
        bad = [(i, j, v, ev) for i, j, v, ev in values if (v > delta if exact else v > float(delta) + tol)]
        used = "lp" if method == "lp" else "hockey-stick"
        if not bad:
            wit = HockeyStickWitness(
                edges=tuple((self._inputs[i], self._inputs[j]) for i, j, _, _ in values),
                values=tuple(v for _, _, v, _ in values),
                level=level,
                delta=delta,
                lp_value=lp_value,
            )
            return Membership(
                member=True,
                method=used,
                exact=exact,
                witness=wit,
                detail=f"hockey-stick <= delta on every directed edge{note}",
            )
        i, j, v, ev = max(bad, key=lambda t: float(t[2]))
        cert = self._certificate(M, m, i, j, ev, level, delta, exact)
        if not cert.verify(M, atol=tol):  # pragma: no cover - defensive
            raise SolverError(f"{self.name}: could not verify the hockey-stick certificate {cert.summary()}")
        return Membership(
            member=False,
            method=used,
            exact=exact,
            certificate=cert,
            detail=f"hockey-stick {fraction_str(v)} > delta on {self._inputs[i]}->{self._inputs[j]}{note}",
        )

    def _certificate(
        self,
        M: Mechanism,
        m: np.ndarray,
        i: int,
        j: int,
        event: Sequence[int],
        level: PrivacyLevel,
        delta: Scalar,
        exact: bool,
    ) -> HockeyStickCertificate:
        zero: Any = Fraction(0) if exact else 0.0
        p = sum((m[w, i] for w in event), zero)
        q = sum((m[w, j] for w in event), zero)
        if not exact:
            p, q = float(p), float(q)
        return HockeyStickCertificate(
            edge=(self._inputs[i], self._inputs[j]),
            outputs=tuple(M.outputs[w] for w in event),
            p_from=p,
            p_to=q,
            value=p - level.exp_eps * q,
            level=level,
            delta=delta,
        )

    def _lp(self, m: np.ndarray, ratio: float) -> tuple[float, np.ndarray]:
        """``min s`` s.t. ``t_{e,ω} ≥ m[ω,i] − r m[ω,j]``, ``Σ_ω t_{e,ω} ≤ s``, ``t, s ≥ 0`` (HiGHS)."""
        import scipy.sparse as sp

        from ..geometry._lp import solve_lp

        n_out = m.shape[0]
        n_e = len(self._directed)
        if n_e == 0:
            return 0.0, np.zeros((0, n_out))
        nt = n_out * n_e
        # rows 0..nt-1: -t_{e,ω} ≤ -(m[ω,i] - r m[ω,j]);  rows nt..nt+n_e-1: Σ_ω t_{e,ω} - s ≤ 0
        eye = sp.identity(nt, format="csr")
        block1 = sp.hstack([-eye, sp.csr_matrix((nt, 1))])
        sums = sp.kron(sp.identity(n_e), np.ones((1, n_out)))
        block2 = sp.hstack([sums, -np.ones((n_e, 1))])
        A = sp.vstack([block1, block2]).tocsr()
        rhs = np.concatenate([-(m[:, i] - ratio * m[:, j]) for i, j in self._directed] + [np.zeros(n_e)])
        c = np.zeros(nt + 1)
        c[-1] = 1.0
        res = solve_lp(c, A_ub=A, b_ub=rhs, bounds=(0, None), what=f"{self.name} membership LP")
        if res.status != "optimal" or res.x is None or res.fun is None:
            raise SolverError(f"{self.name}: the membership LP is {res.status} although it is always feasible")
        return float(res.fun), res.x[:-1].reshape(n_e, n_out)

    def _decide_lp(
        self, M: Mechanism, value: float, t: np.ndarray, level: PrivacyLevel, delta: float, tol: float
    ) -> Membership:
        m = M.float_matrix()
        ratio = float(level.exp_eps)
        if value <= delta + tol:
            sums = t.sum(axis=1)
            wit = HockeyStickWitness(
                edges=tuple((self._inputs[i], self._inputs[j]) for i, j in self._directed),
                values=tuple(float(v) for v in sums),
                level=level,
                delta=delta,
                lp_value=value,
            )
            return Membership(
                member=True,
                method="lp",
                exact=False,
                witness=wit,
                detail=f"LP optimum max_edge Σ t = {number_text(value)} <= delta",
            )
        sums = t.sum(axis=1)
        e = int(np.argmax(sums))
        i, j = self._directed[e]
        event = [w for w in range(m.shape[0]) if t[e, w] > tol and m[w, i] - ratio * m[w, j] > 0]
        cert = self._certificate(M, m, i, j, event, level, delta, False)
        if not cert.verify(M, atol=tol):
            raise SolverError(f"{self.name}: the LP's event does not verify ({cert.summary()}); no answer can be given")
        return Membership(
            member=False, method="lp", exact=False, certificate=cert, detail=f"LP optimum {number_text(value)} > delta"
        )
