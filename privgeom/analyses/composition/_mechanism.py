"""Composed mechanisms kept factored, and their exact privacy profiles over a neighbour graph.

``ComposedMechanism((M_1, k_1), (M_2, k_2), …)`` runs ``M_j`` ``k_j`` times on the same dataset with independent
randomness (sequential composition; Dwork & Roth 2014, §3.5): its column at ``D`` is
``M_1[:, D]^{⊗ k_1} ⊗ M_2[:, D]^{⊗ k_2} ⊗ …`` — the column-wise (Khatri–Rao) product, which is also the smoothed-DP
paper's Proposition 3 ``joint``. It is never formed: ε, δ(ε) and the δ curve are computed per class of directed
edges from the ratio classes of each part (module ``_loss``): the exact privacy-loss distribution while it has at
most :data:`~privgeom.analyses.composition._loss.MAX_COMPOSITION_ATOMS` atoms, the certified log-space sum
(module ``_certified``) beyond, for one or two distinct mechanisms. :meth:`ComposedMechanism.dense` builds the matrix when it is
small (for checks). The *independent* product on product domains is :meth:`privgeom.Mechanism.product`.

Examples
--------
>>> from privgeom import randomized_response
>>> C = ComposedMechanism([(randomized_response(1, "3/4"), 3)])
>>> C.n_outputs, str(C.epsilon("hamming").level)
(8, 'ln(27)')
>>> C.delta("hamming", exp_eps=3).delta
Fraction(3, 8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ..._core.domain import RelationLike
from ..._core.errors import DomainMismatchError, InvalidParameterError, InvalidTypeError, SizeLimitError
from ..._core.level import LevelLike, PrivacyLevel, ScalarLike
from ..._core.numbers import level_text as format_level
from ..._core.arrays import check_dense_size, parse_int
from ..._core.hints import limit_hint
from ..._core.numbers import Scalar
from ..._core.numbers import number_text
from ..._core.results import Result
from ...mechanisms._mechanism import Mechanism
from ..profiles._profile_curve import DeltaCurve, DeltaPiece
from ..profiles._pure_dp import EpsilonResult
from ..profiles._scan import _prepare
from ._certified import CertifiedDelta, certified_delta, certified_delta_pair
from ._loss import INF, LossDistribution, RatioClass, check_runs, compose_losses, ratio_classes, split_at_exp
from ..._core.limits import current_limit

__all__ = ["ComposedMechanism", "CompositionDelta"]


@dataclass(frozen=True)
class CompositionDelta(Result):
    """``δ(ε)`` of a composed mechanism over a neighbour graph, with the edge and the event that attain it.

    Attributes
    ----------
    delta : Fraction or float
        The value: a Fraction when exact and ``e^ε`` rational; else a float (``intercept − e^ε · slope`` rounded,
        or the middle of the certified bracket).
    level : PrivacyLevel
        The ε asked for.
    exact : bool
        True when ``intercept`` and ``slope`` are the exact rationals with ``δ = intercept − e^ε · slope`` (then
        ``lo = hi = δ`` up to the rounding of an irrational ``e^ε``).
    route : str
        ``"exact"`` (privacy-loss atoms) or ``"certified"`` (log-space sum with a stated error bound).
    intercept, slope : Fraction or None
        ``P(M(D) ∈ S)`` and ``P(M(D') ∈ S)`` of the witness event (exact route).
    lo, hi : Fraction or float
        A bracket of δ: equal to δ on the exact route with rational ``e^ε``; the certified bracket otherwise.
    edge : tuple of str or None
        The witness direction ``(D, D')``.
    classes : tuple of tuple of RatioClass
        The ratio classes of each part on the witness edge.
    counts : tuple of int
        How many times each part runs.
    n_atoms : int
        Distinct composed ratios (exact route) or count-vector states summed (certified route) on the witness edge.
    n_edges : int
    graph : str
    detail : str
    """

    delta: Scalar
    level: PrivacyLevel
    exact: bool
    route: str
    intercept: Fraction | None
    slope: Fraction | None
    lo: Scalar
    hi: Scalar
    edge: tuple[str, str] | None
    classes: tuple[tuple[RatioClass, ...], ...]
    counts: tuple[int, ...]
    n_atoms: int
    n_edges: int
    graph: str
    detail: str = ""

    def __float__(self) -> float:
        return float(self.delta)

    def event_text(self) -> str:
        """The witness event in words: the outputs by how many of each ratio class they take."""
        terms = []
        for j, (cls, k) in enumerate(zip(self.classes, self.counts)):
            finite = [c for c in cls if c.ratio != INF and c.ratio != 0]
            names = " · ".join(f"({format_level(c.ratio)})^n{j}[{'/'.join(c.outputs)}]" for c in finite)
            terms.append(f"({names})" if names else "1")
        inf = [o for cls in self.classes for c in cls if c.ratio == INF for o in c.outputs]
        text = (
            f"S = {{output tuples whose counts nj[c] of outputs in ratio class c of part j (Σ_c nj[c] = k_j) "
            f"satisfy {' · '.join(terms)} > e^ε}}"
        )
        return text + (f" ∪ {{tuples with an output in {{{', '.join(inf)}}}, impossible on D'}}" if inf else "")

    def summary(self) -> str:
        parts = " + ".join(f"{k} runs" for k in self.counts)
        if self.exact and isinstance(self.delta, Fraction):
            val = f"{format_level(self.delta)} (exact)"
        elif self.exact:
            val = (
                f"{format_level(self.intercept)} − e^ε·{format_level(self.slope)} ≈ "
                f"{number_text(float(self.delta), digits=12)} (exact form)"
            )
        else:
            lo, hi = number_text(float(self.lo), digits=12), number_text(float(self.hi), digits=12)
            val = f"∈ [{lo}, {hi}] ({self.route}; width {number_text(float(self.hi) - float(self.lo), digits=3)})"
        head = f"δ(ε = {format_level(self.level.eps)}) of a composition ({parts}) {val if val.startswith('∈') else '= ' + val} over {self.n_edges} edges of {self.graph!r}"
        if self.edge is None:
            return head + "; no edges"
        d, d2 = self.edge
        return (
            head
            + f"; attained on edge {d} → {d2} ({self.n_atoms:,} atoms) with {self.event_text()}"
            + (f" [{self.detail}]" if self.detail else "")
        )


class ComposedMechanism:
    """Mechanisms run on the same dataset with independent randomness, kept factored (never a dense matrix).

    Parameters
    ----------
    parts : sequence of (Mechanism, int)
        Each mechanism with how many times it runs; all share their datasets (inputs).

    Attributes
    ----------
    parts : tuple of (Mechanism, int)
    k : int
        Total number of runs.
    inputs : tuple of str
    exact : bool
        Every part is exact.
    n_outputs : int
        ``Π_j |Ω_j|^{k_j}`` (a Python int, possibly huge).

    Examples
    --------
    >>> from privgeom import Mechanism
    >>> A = Mechanism([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["0", "1"], outputs=["a", "b"])
    >>> C = ComposedMechanism([(A, 2)])
    >>> C.dense().outputs, [str(v) for v in C.dense().column("0")]
    (('a|a', 'a|b', 'b|a', 'b|b'), ['9/16', '3/16', '3/16', '1/16'])
    """

    def __init__(self, parts: Sequence[tuple[Mechanism, int]]):
        out: list[tuple[Mechanism, int]] = []
        for item in parts:
            M, k = item
            if not isinstance(M, Mechanism):
                raise InvalidTypeError(f"compose needs privgeom Mechanisms, got {type(M).__name__}")
            k = parse_int(k, name="k", min=1)
            for n, (N, kn) in enumerate(out):  # equal mechanisms are one part run more often
                if N is M or N == M:
                    out[n] = (N, kn + k)
                    break
            else:
                out.append((M, k))
        if not out:
            raise InvalidParameterError("compose needs at least one mechanism")
        check_runs(sum(k for _, k in out))
        first = out[0][0]
        for n, (M, k) in enumerate(out):
            if M.inputs != first.inputs:
                if sorted(M.inputs) != sorted(first.inputs):
                    raise DomainMismatchError(
                        f"sequential composition runs every mechanism on the same datasets; inputs "
                        f"{list(first.inputs)[:6]} and {list(M.inputs)[:6]} differ"
                    )
                out[n] = (M.restrict(first.inputs), k)  # the same datasets listed in another order: align the columns
        self.parts: tuple[tuple[Mechanism, int], ...] = tuple(out)
        self.k = sum(k for _, k in out)
        self.inputs = first.inputs
        self.exact = all(M.exact for M, _ in out)
        self.n_outputs = math.prod(M.n_outputs**k for M, k in out)

    @property
    def n_inputs(self) -> int:
        """Number of datasets."""
        return len(self.inputs)

    def __repr__(self) -> str:
        parts = ", ".join(f"{M.n_outputs}-output × {k}" for M, k in self.parts)
        return f"ComposedMechanism({parts}; {self.n_inputs} inputs, {self.n_outputs:,} composed outputs)"

    def summary(self) -> str:
        """One line: the parts and sizes."""
        return repr(self)

    def to_dict(self) -> dict[str, Any]:
        """``{"privgeom": "composed-mechanism", "parts": [{"mechanism": …, "k": …}, …]}`` (plain JSON data)."""
        return {"privgeom": "composed-mechanism", "parts": [{"mechanism": M.to_dict(), "k": k} for M, k in self.parts]}

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        import json

        return json.dumps(self.to_dict())

    # ------------------------------------------------------------------------------------------------ dense
    def dense(self) -> Mechanism:
        """The composed mechanism as a dense :class:`~privgeom.Mechanism` (outputs ``"o1|o2|…"``), refused beyond
        the dense size limits. Column ``D`` is the Kronecker product of the parts' columns at ``D``."""
        check_dense_size(self.n_outputs, self.n_inputs, exact=self.exact, what="this composed mechanism")
        seq = [M for M, k in self.parts for _ in range(k)]
        cols = []
        labels = [""]
        for n, M in enumerate(seq):
            labels = [f"{u}|{o}" if n else o for u in labels for o in M.outputs]
        for i in range(self.n_inputs):
            col: Any = np.array([Fraction(1)] if self.exact else [1.0], dtype=object if self.exact else float)
            for M in seq:
                c = M.column(i) if self.exact else M.float_matrix()[:, i]
                col = np.kron(col, c) if not self.exact else np.array([x * y for x in col for y in c], dtype=object)
            cols.append(col)
        return Mechanism(np.column_stack(cols), self.parts[0][0].domain, labels, exact=self.exact)

    # ------------------------------------------------------------------------------------------------ edges
    def _edges(self, graph: RelationLike, max_work: int | None) -> tuple[list[tuple[int, int]], int, str]:
        """One directed edge ``(i, j)`` per class of directed edges on which every part has the same pairs of
        column entries (so the same ratio classes), the number of undirected edges, and the graph's name."""
        preps = [_prepare(M, graph, max_work=max_work, what="a composed profile") for M, _ in self.parts]
        P0 = preps[0]
        if len(preps) == 1:
            reps = [int(r) for r in P0.reps]
        else:
            ids = np.stack([_class_ids(P) for P in preps])
            _, first = np.unique(ids, axis=1, return_index=True)
            reps = sorted(int(r) for r in first)
        return [(int(P0.I[d]), int(P0.J[d])) for d in reps], P0.n_edges, P0.graph

    def _classes(self, i: int, j: int) -> list[tuple[tuple[RatioClass, ...], int]]:
        return [(ratio_classes(M, i, j), k) for M, k in self.parts]

    def loss(self, edge: tuple[int | str, int | str]) -> LossDistribution:
        """The exact privacy-loss distribution on one directed edge ``(D, D')`` (labels or column indices).

        Raises :class:`~privgeom.SizeLimitError` beyond ``composition_atoms`` atoms and
        :class:`~privgeom.InvalidMechanismError` for float parts."""
        i, j = (self._dataset(e) for e in edge)
        return self._exact_loss(i, j, required=True)  # type: ignore[return-value]

    def _dataset(self, key: int | str) -> int:
        """Column index of a dataset given by label or index."""
        if isinstance(key, str):
            if key not in self.inputs:
                raise DomainMismatchError(
                    f"{key!r} is not a dataset of this composition; datasets: {list(self.inputs)[:8]}"
                )
            return self.inputs.index(key)
        return parse_int(key, name="dataset index", min=0, max=self.n_inputs - 1)

    def _exact_loss(self, i: int, j: int, *, required: bool) -> LossDistribution | None:
        if not self.exact:
            if required:
                raise InvalidParameterError("the exact privacy-loss distribution needs exact mechanisms")
            return None
        L = compose_losses(self._classes(i, j))
        if L is None and required:
            raise SizeLimitError(
                f"the exact privacy-loss distribution of this composition on edge "
                f"{self.inputs[i]} → {self.inputs[j]} has more atoms than the limit "
                f"{current_limit('composition_atoms'):,}; refused — {limit_hint('composition_atoms')}"
            )
        return L

    def to_dp_accounting(
        self, edge: tuple[str, str], *, pessimistic: bool = True, value_discretization_interval: float = 1e-4
    ) -> Any:
        """The composition's privacy-loss distribution on the directed edge ``(D, D')`` in Google's
        ``dp_accounting`` (optional extra ``accountants``): each part exported
        (:func:`~privgeom.analyses.composition._accountants.to_dp_accounting`), self-composed ``k_j`` times and
        composed with the others — ready to compose further with the accountant's Gaussian or Laplace mechanisms.

        Examples
        --------
        >>> import pytest; _ = pytest.importorskip("dp_accounting")
        >>> from privgeom import randomized_response
        >>> C = ComposedMechanism([(randomized_response(1, "3/4"), 4)])
        >>> pld = C.to_dp_accounting(("1", "0"))
        >>> bool(abs(pld.get_delta_for_epsilon(0.0) - float(C.delta("hamming", exp_eps=1).delta)) < 1e-3)
        True
        """
        from ._accountants import to_dp_accounting

        out = None
        for M, k in self.parts:
            p = to_dp_accounting(
                M, edge, pessimistic=pessimistic, value_discretization_interval=value_discretization_interval
            )
            p = p.self_compose(k) if k > 1 else p
            out = p if out is None else out.compose(p)
        return out

    # ------------------------------------------------------------------------------------------------ ε
    def epsilon(self, graph: RelationLike, *, max_work: int | None = None) -> EpsilonResult:
        """The exact ε of pure DP of the composition over ``graph``: per directed edge the product of every run's
        largest ratio, ``ε = max_edges Σ_j k_j ε_j(edge)`` — additive on each edge (Dwork & Roth 2014, Thm. 3.14, tight
        on one edge because the product of the worst outputs attains it).

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> str(ComposedMechanism([(randomized_response(1, "3/4"), 2), (randomized_response(1, "2/3"), 1)])
        ...     .epsilon("hamming").level)
        'ln(18)'
        """
        edges, n_edges, name = self._edges(graph, max_work)
        best: tuple[Any, int, int, list[tuple[RatioClass, int]]] | None = None
        for i, j in edges:
            ratio: Any = Fraction(1) if self.exact else 1.0
            wit = []
            for classes, k in self._classes(i, j):
                top = classes[0]
                wit.append((top, k))
                ratio = INF if (top.ratio == INF or ratio == INF) else ratio * top.ratio**k
            if best is None or (ratio > best[0]):
                best = (ratio, i, j, wit)
        if best is None:
            lv = PrivacyLevel.from_exp_eps(1) if self.exact else PrivacyLevel.from_eps(0.0)
            return EpsilonResult(
                level=lv,
                exact=self.exact,
                infinite=False,
                edge=None,
                output=None,
                p=None,
                q=None,
                n_edges=n_edges,
                graph=name,
            )
        ratio, i, j, wit = best
        one: Any = Fraction(1) if self.exact else 1.0
        p, q = one, one
        for (M, _), (c, k) in zip(self.parts, wit):  # the witness output: the class's first output, every run
            w = M.outputs.index(c.outputs[0])
            a, b = (M.column(i)[w], M.column(j)[w]) if self.exact else (M.float_matrix()[w, i], M.float_matrix()[w, j])
            p, q = p * a**k, q * b**k
        output = "|".join(f"{c.outputs[0]}^{k}" if k > 1 else c.outputs[0] for c, k in wit)
        inf = ratio == INF
        level = (
            PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True)
            if inf
            else (
                PrivacyLevel.from_exp_eps(ratio)
                if self.exact
                else PrivacyLevel.from_eps(math.log(ratio), allow_infinite=True)
            )
        )
        return EpsilonResult(
            level=level,
            exact=self.exact,
            infinite=inf,
            edge=(self.inputs[i], self.inputs[j]),
            output=output,
            p=p,
            q=q,
            n_edges=n_edges,
            graph=name,
        )

    # ------------------------------------------------------------------------------------------------ δ(ε)
    def delta(
        self,
        graph: RelationLike,
        eps: LevelLike | None = None,
        *,
        exp_eps: ScalarLike | None = None,
        route: str = "auto",
        max_work: int | None = None,
    ) -> CompositionDelta:
        """``δ(ε)`` of the composition over ``graph``: the largest hockey-stick divergence over directed edges
        (Balle, Barthe & Gaboardi 2018, Thm. 1), from the composed privacy-loss distribution of each edge class.

        Parameters
        ----------
        graph : str, Domain, networkx.Graph or iterable of pairs
            The neighbour relation (as :func:`privgeom.delta`).
        eps, exp_eps :
            The level, parsed by :meth:`privgeom.PrivacyLevel.parse`. A rational ``e^ε`` gives an exact Fraction; a
            float ε (``5.0``) gives the exact form ``intercept − e^ε · slope`` with rational intercept and slope.
        route : {"auto", "exact", "certified"}
            ``"exact"``: the privacy-loss atoms (refused beyond ``composition_atoms``); ``"certified"``: the
            log-space sum with its stated bracket (one or two distinct mechanisms); ``"auto"``: exact when it fits,
            else certified.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> C = ComposedMechanism([(randomized_response(1, "3/4"), 10)])
        >>> r = C.delta("hamming", 5.0)
        >>> r.exact, str(r.intercept), str(r.slope)
        (True, '137781/262144', '109/262144')
        """
        if route not in ("auto", "exact", "certified"):
            raise InvalidParameterError(f"unknown route {route!r}; use one of auto, exact, certified")
        level = PrivacyLevel.parse(eps, exp_eps, allow_infinite=True)
        edges, n_edges, name = self._edges(graph, max_work)
        counts = tuple(k for _, k in self.parts)
        if not edges:
            z = Fraction(0)
            return CompositionDelta(
                delta=z,
                level=level,
                exact=True,
                route="exact",
                intercept=z,
                slope=z,
                lo=z,
                hi=z,
                edge=None,
                classes=(),
                counts=counts,
                n_atoms=0,
                n_edges=n_edges,
                graph=name,
            )
        results = [self._delta_edge(i, j, level, route) for i, j in edges]
        best = max(range(len(results)), key=lambda n: (_order_key(results[n], level), -n))
        return self._result(edges[best], results[best], level, counts, n_edges, name)

    def _delta_edge(self, i: int, j: int, level: PrivacyLevel, route: str) -> tuple[str, Any, Any]:
        """``(route, value or hi, payload)`` of one directed edge."""
        t = level.exp_eps
        if route != "certified" and self.exact and not (isinstance(t, float) and math.isinf(t)):
            L = self._exact_loss(i, j, required=route == "exact")
            if L is not None:
                if isinstance(t, Fraction):
                    n = L.count_above(t)
                    a, b = L.line(n)
                    return "exact", a - t * b, (L, n)
                n = split_at_exp(L, float(level.eps))
                a, b = L.line(n)
                return "exact", float(a) - float(t) * float(b), (L, n)
        if route == "exact":
            raise InvalidParameterError("route='exact' needs exact mechanisms and a finite e^ε")
        if len(self.parts) > 2 and not self.exact:
            raise InvalidParameterError(
                f"δ of a composition of {len(self.parts)} distinct float mechanisms: float "
                f"mechanisms have no exact route and the certified route takes one or two "
                f"distinct mechanisms (give exact mechanisms, or compose fewer)"
            )
        if len(self.parts) > 2:
            raise SizeLimitError(
                f"the exact privacy-loss distribution of this composition of more than two distinct "
                f"mechanisms has more atoms than the limit {current_limit('composition_atoms'):,}, and the "
                f"certified route takes one or two; {limit_hint('composition_atoms')}"
            )
        if len(self.parts) == 2:
            (M1, k1), (M2, k2) = self.parts
            c = certified_delta_pair((ratio_classes(M1, i, j), k1), (ratio_classes(M2, i, j), k2), t)
        else:
            M, k = self.parts[0]
            c = certified_delta(ratio_classes(M, i, j), k, t)
        return "certified", c.hi, c

    def _result(
        self,
        edge: tuple[int, int],
        res: tuple[str, Any, Any],
        level: PrivacyLevel,
        counts: tuple[int, ...],
        n_edges: int,
        name: str,
    ) -> CompositionDelta:
        i, j = edge
        classes = tuple(c for c, _ in self._classes(i, j))
        labels = (self.inputs[i], self.inputs[j])
        route, value, payload = res
        if route == "exact":
            L, n = payload
            a, b = L.line(n)
            exact_t = isinstance(level.exp_eps, Fraction)
            d: Scalar = a - level.exp_eps * b if exact_t else max(0.0, float(a) - float(level.exp_eps) * float(b))
            note = "" if exact_t else "e^ε irrational: δ = intercept − e^ε·slope exactly, the float value rounded"
            return CompositionDelta(
                delta=d,
                level=level,
                exact=True,
                route="exact",
                intercept=a,
                slope=b,
                lo=d,
                hi=d,
                edge=labels,
                classes=classes,
                counts=counts,
                n_atoms=L.n_atoms,
                n_edges=n_edges,
                graph=name,
                detail=note,
            )
        c: CertifiedDelta = payload
        note = (
            f"certified: rounding ≤ {number_text(c.rounding, digits=2)} (double-precision kernels within 1e-13 "
            f"relative), pruned mass ≤ {number_text(c.pruned, digits=2)}"
        )
        return CompositionDelta(
            delta=c.value,
            level=level,
            exact=False,
            route="certified",
            intercept=None,
            slope=None,
            lo=c.lo,
            hi=c.hi,
            edge=labels,
            classes=classes,
            counts=counts,
            n_atoms=c.n_states,
            n_edges=n_edges,
            graph=name,
            detail=note,
        )

    # ------------------------------------------------------------------------------------------------ δ curve
    def delta_curve(
        self, graph: RelationLike, *, exp_eps_values: Sequence[ScalarLike] | None = None, max_work: int | None = None
    ) -> DeltaCurve:
        """The whole exact profile ``e^ε ↦ δ`` of the composition: the upper envelope over edge classes of each
        edge's lines ``P(S_i) − e^ε Q(S_i)``, ``S_i`` the ``i`` largest composed ratios (Balle, Barthe & Gaboardi
        2018, Thm. 1). Exact mechanisms only; refused beyond ``composition_atoms``.

        Examples
        --------
        >>> from privgeom import randomized_response
        >>> curve = ComposedMechanism([(randomized_response(1, "3/4"), 2)]).delta_curve("hamming")
        >>> [(str(t), str(d)) for t, d in curve.breakpoints]
        [('1', '1/2'), ('9', '0')]
        """
        edges, n_edges, name = self._edges(graph, max_work)
        lines: list[tuple[Fraction, Fraction, tuple[str, str], str]] = [(Fraction(0), Fraction(0), ("", ""), "∅")]
        for i, j in edges:
            L = self._exact_loss(i, j, required=True)
            assert L is not None
            lab = (self.inputs[i], self.inputs[j])
            for n in range(L.n_atoms + 1):
                a, b = L.line(n)
                what = "ratio = ∞" if n == 0 else f"composed ratio ≥ {format_level(L.ratios[n - 1])}"
                lines.append((a, b, lab, what))
        hull = _upper_envelope(lines)
        pieces: list[DeltaPiece] = []
        bps: list[tuple[Scalar, Scalar]] = []
        start: Scalar = Fraction(1)
        for n, (a, b, lab, what) in enumerate(hull):
            end: Scalar = _cross(hull[n], hull[n + 1]) if n + 1 < len(hull) else math.inf
            pieces.append(
                DeltaPiece(start=start, end=end, intercept=a, slope=b, edge=lab if lab[0] else None, outputs=(what,))
            )
            bps.append((start, a - start * b))
            start = end
        last = hull[-1]
        done = last[0] == 0
        lv = (
            PrivacyLevel.from_exp_eps(pieces[-1].start)
            if done
            else PrivacyLevel.from_exp_eps(math.inf, allow_infinite=True)
        )
        levels = [PrivacyLevel.parse(exp_eps=v) for v in exp_eps_values or ()]
        from ..profiles._profile_curve import evaluate_pieces

        deltas = tuple(evaluate_pieces(pieces, lv_.exp_eps, True) for lv_ in levels)
        return DeltaCurve(
            exact=True,
            pieces=tuple(pieces),
            breakpoints=tuple(bps),
            level=lv,
            delta_at_infinity=Fraction(0) if done else last[0],
            eps_values=tuple(x.eps for x in levels),
            deltas=deltas,
            values_exact=all(x.exact for x in levels),
            n_edges=n_edges,
            graph=name,
        )


def _order_key(res: tuple[str, Any, Any], level: PrivacyLevel) -> Any:
    """How edges are ranked: exact δ as a Fraction (rational ``e^ε``), ``a − e^ε b`` in 80-digit decimals (exact
    linear forms at an irrational ``e^ε``: never a float tie-break between exact values), else the bracket's top."""
    route, value, payload = res
    if route != "exact":
        return Decimal(float(value))
    if isinstance(level.exp_eps, Fraction):
        return value  # a Fraction: compared exactly (Decimal and Fraction compare exactly too)
    L, n = payload
    a, b = L.line(n)
    ctx = Context(prec=80)
    return ctx.subtract(_decimal(a), ctx.multiply(ctx.exp(Decimal(float(level.eps))), _decimal(b)))


def _decimal(x: Fraction) -> Decimal:
    return Context(prec=80).divide(Decimal(x.numerator), Decimal(x.denominator))


def _cross(l1: tuple[Any, ...], l2: tuple[Any, ...]) -> Fraction:
    """``t`` where the lines ``A − tB`` of ``l1`` (steeper) and ``l2`` cross."""
    return Fraction(l1[0] - l2[0]) / (l1[1] - l2[1])


def _upper_envelope(lines: list[tuple[Fraction, Fraction, Any, Any]]) -> list[tuple[Fraction, Fraction, Any, Any]]:
    """The lines ``A − tB`` on the upper envelope over ``t ≥ 1``, in order of increasing ``t`` (decreasing slope
    ``B``): the convex-hull trick in exact arithmetic (the same as the single-mechanism curve's)."""
    best: dict[Fraction, tuple[Fraction, Fraction, Any, Any]] = {}
    for line in lines:
        cur = best.get(line[1])
        if cur is None or line[0] > cur[0]:
            best[line[1]] = line
    hull: list[tuple[Fraction, Fraction, Any, Any]] = []
    for line in sorted(best.values(), key=lambda x: -x[1]):
        while hull and line[0] >= hull[-1][0]:
            hull.pop()  # no smaller intercept and a smaller slope: above everywhere on t ≥ 0
        while len(hull) >= 2 and _cross(hull[-2], line) <= _cross(hull[-2], hull[-1]):
            hull.pop()
        hull.append(line)
    while len(hull) >= 2 and _cross(hull[0], hull[1]) <= 1:
        hull.pop(0)
    return hull


def _class_ids(P: Any) -> np.ndarray:
    """A class id per directed edge of a prepared scan: edges with the same multiset of entry pairs share it."""
    ids = P.ids
    nv = int(ids.max()) + 1 if ids.size else 1
    keys = ids[:, P.I].astype(np.int64) * nv + ids[:, P.J]
    keys.sort(axis=0)
    _, inv = np.unique(keys.T, axis=0, return_inverse=True)
    return np.asarray(inv).ravel()
