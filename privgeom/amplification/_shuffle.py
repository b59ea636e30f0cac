"""The shuffled tally: ``n`` users apply a local mechanism and only the histogram of their reports is published.

:func:`shuffled` builds a :class:`Shuffled` (never a dense matrix beyond small ``n``); its privacy profile is exact
for every neighbouring pair (two datasets that differ in one user's input): exact rationals from the Poisson-multinomial
law for small ``n``, the clone closed form (exact or in log space, certified relative error) for the pairs whose other
users all hold one input, at ``n`` up to ``10^6`` for binary reports (``docs/theory.md`` §18).

The worst case over datasets (:meth:`Shuffled.worst_case`) is exhaustive when it can be (every histogram of the other
users' inputs, every ordered pair of inputs of the user who changes); beyond, for binary reports, it is certified by
branch and bound over the other users' input histograms (:mod:`privgeom.amplification._worst`, ``docs/theory.md``
§18.8): a box of datasets is bounded by one pair with fewer users (the others' reports are a post-processing), a single
dataset is evaluated by the general-pair route (:mod:`privgeom.amplification._pairs_binary`). The maximum over the
*clone pairs* alone (every other user holds one input) is only a lower bound, and says so (``certified=False``): the
worst dataset is not always a clone pair (binary randomized response with ``p = 3/4``, ``n = 8``, ``e^ε = 3/2``: one
dissenter among the others).

Examples
--------
>>> import privgeom as pg
>>> S = pg.shuffled(pg.randomized_response(1, "3/4"), 3)
>>> r = S.delta("ln(2)", S.pair(others={"1": 2}, a="1", b="0"))
>>> r.value, r.route
(Fraction(9, 64), 'clone closed form (exact)')
>>> w = S.worst_case("ln(2)")
>>> w.certified, w.delta.value, [str(p) for p in w.attaining]
(True, Fraction(9, 64), ['others 2×1; user: 1 → 0', 'others 2×0; user: 0 → 1'])
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from .._core.domain import Domain
from .._core.errors import InvalidParameterError, InvalidTypeError, SizeLimitError
from .._core.level import LevelLike, PrivacyLevel
from .._core.limits import register_limit
from .._core.numbers import log_of_ratio
from .._core.arrays import check_dense_size, parse_int
from .._core.hints import limit_hint
from .._core.numbers import Scalar
from ..definitions._base import PrivacyDefinition
from ..definitions._generating import generating_mechanisms
from ..mechanisms import Mechanism
from ..smoothed._reduction import compositions, count_compositions
from ._shuffle_results import ShuffleDelta, ShuffleEpsilon, ShufflePair, ShuffleWorstCase
from ._worst import certified_worst_case, default_evaluator, is_rr3
from ._engine import (
    clone_delta_exact,
    dissenter_delta_log,
    clone_delta_log,
    clone_epsilon,
    exact_pair_delta,
    exact_pair_laws,
    merge_clone,
    TailSum,
)
from ._pairs import pair_delta_log
from .._core.limits import current_limit

__all__ = [
    "shuffled",
    "Shuffled",
    "ShufflePair",
    "ShuffleDelta",
    "ShuffleWorstCase",
    "MAX_EXACT_TALLIES",
    "MAX_EXHAUSTIVE_WORK",
    "MAX_DISSENTER_WORK",
]

#: Largest number of possible tallies ``C(n + m − 1, m − 1)`` for which the exact Poisson-multinomial law of a
#: neighbouring pair (and the dense matrix) is built.
MAX_EXACT_TALLIES = 20_000
register_limit(
    "shuffle_tallies",
    globals(),
    "MAX_EXACT_TALLIES",
    "possible tallies C(n+m-1, m-1) of a shuffled mechanism for its exact laws, dense matrix and exhaustive worst case",
)
#: Largest work ``pairs × tallies²`` of the exhaustive worst case (every histogram of the other users' inputs, every
#: ordered pair of inputs, each with its exact Poisson-multinomial law).
MAX_EXHAUSTIVE_WORK = 2_000_000
register_limit(
    "shuffle_exhaustive_work",
    globals(),
    "MAX_EXHAUSTIVE_WORK",
    "pairs x tallies^2 of the exhaustive worst case of a shuffled mechanism over every dataset",
)
#: Largest work ``(n + 1)(d + 1)`` of the log-space route of a binary-report pair with ``d`` dissenters.
MAX_DISSENTER_WORK = 10**8
register_limit(
    "shuffle_dissenter_work",
    globals(),
    "MAX_DISSENTER_WORK",
    "(n+1)(d+1) of the log-space delta of a shuffled pair whose other users hold one input except d",
)
#: Pair evaluations the certified search may take under ``scope="auto"`` before the worst case falls back to the
#: clone maximum (labelled a lower bound): at small ``ε`` the profile over datasets is flat and few boxes prune.
AUTO_CERTIFIED_BUDGET = 600
#: Route thresholds (not limits: the log-space route gives the same answer to a stated relative error): the clone
#: closed form is summed in exact rationals up to these ``n`` (one and two merged dimensions).
EXACT_CLONE_MAX_N = {1: 10**9, 2: 2000, 3: 120}
_ROUTES = ("auto", "exact", "log")
#: Floor of the relative tolerance under which two float values of δ are ties in the worst case (a few ulps of
#: accumulated rounding, when no route bounds its error).
TIE_RTOL = 1e-12


def _local(local: Any) -> Mechanism:
    if isinstance(local, Mechanism):
        return local
    gens = generating_mechanisms(local)
    if gens is None or len(gens) != 1:
        raise InvalidTypeError(
            f"the local mechanism must be a privgeom.Mechanism or a definition made of one mechanism, got {local!r}"
        )
    return gens[0]


@dataclass(frozen=True, eq=False)
class Shuffled:
    """``n`` users apply ``local``; the tally (histogram of reports) is published.

    Build with :func:`shuffled`. Datasets are histograms of the users' inputs (``Domain.histograms(n, inputs)``),
    neighbours differ in one user's input (``replace-one``).
    """

    local: Mechanism
    n: int
    exact: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "exact", bool(self.local.exact))

    # ---------------------------------------------------------------- datasets
    @property
    def inputs(self) -> tuple[str, ...]:
        return tuple(self.local.inputs)

    @property
    def n_tallies(self) -> int:
        """Number of possible tallies, ``C(n + m − 1, m − 1)``."""
        return count_compositions(self.n, self.local.n_outputs)

    def _rows(self, exact: bool) -> list[list[Scalar]]:
        mat = self.local.matrix if exact else self.local.float_matrix()
        return [
            [mat[j, x] if exact else float(mat[j, x]) for x in range(self.local.n_inputs)]
            for j in range(self.local.n_outputs)
        ]

    def _index(self, label: Any) -> int:
        text = str(label)
        if text not in self.inputs:
            raise InvalidParameterError(
                f"{label!r} is not an input of the local mechanism; inputs are {list(self.inputs)}"
            )
        return self.inputs.index(text)

    def pair(
        self, others: Mapping[Any, int] | Sequence[int] | None = None, a: Any = None, b: Any = None
    ) -> ShufflePair:
        """A neighbouring pair: ``others`` (a mapping input → count, or counts in input order, summing to ``n − 1``;
        default: all other users hold ``b``) and the changing user's inputs ``a`` → ``b`` (default the first two
        inputs).

        Examples
        --------
        >>> import privgeom as pg
        >>> S = pg.shuffled(pg.randomized_response(1, "3/4"), 4)
        >>> S.pair({"1": 2, "0": 1}, "1", "0").datasets()
        ('[3,1]', '[2,2]')
        """
        k = len(self.inputs)
        ia = self._index(a if a is not None else self.inputs[0])
        ib = self._index(b if b is not None else self.inputs[1 if ia == 0 else 0])
        if ia == ib:
            raise InvalidParameterError(
                f"a neighbouring pair needs two different inputs, got a = b = {self.inputs[ia]!r}"
            )
        if others is None:
            counts = [0] * k
            counts[ib] = self.n - 1
        elif isinstance(others, Mapping):
            counts = [0] * k
            for key, c in others.items():
                counts[self._index(key)] = parse_int(c, name=f"others[{key!r}]", min=0)
        else:
            counts = [parse_int(c, name="others", min=0) for c in others]
            if len(counts) != k:
                raise InvalidParameterError(f"others must give {k} counts (one per input), got {len(counts)}")
        if sum(counts) != self.n - 1:
            raise InvalidParameterError(f"the other users' counts must sum to n - 1 = {self.n - 1}, got {sum(counts)}")
        return ShufflePair(others=tuple(counts), a=self.inputs[ia], b=self.inputs[ib], inputs=self.inputs)

    def clone_pairs(self) -> list[ShufflePair]:
        """Every ordered pair whose other users all hold one input: ``k · k (k − 1)`` pairs."""
        k = len(self.inputs)
        out = []
        for c in range(k):
            counts = tuple(self.n - 1 if i == c else 0 for i in range(k))
            for a in range(k):
                for b in range(k):
                    if a != b:
                        out.append(ShufflePair(others=counts, a=self.inputs[a], b=self.inputs[b], inputs=self.inputs))
        return out

    def dissenter_pairs(self, most: int) -> list[ShufflePair]:
        """The ordered pairs whose other users hold one input except ``1..most`` of them, who hold another."""
        k = len(self.inputs)
        out = []
        for c in range(k):
            for c2 in range(k):
                for d in range(1, min(most, (self.n - 1) // 2) + 1):
                    if c2 == c or self.n - 1 - d <= d:
                        continue
                    counts = tuple(self.n - 1 - d if i == c else (d if i == c2 else 0) for i in range(k))
                    out += [
                        ShufflePair(others=counts, a=self.inputs[a], b=self.inputs[b], inputs=self.inputs)
                        for a in range(k)
                        for b in range(k)
                        if a != b
                    ]
        return out

    def all_pairs(self) -> list[ShufflePair]:
        """Every ordered neighbouring pair up to the order of the users (exhaustive search)."""
        k = len(self.inputs)
        out = []
        for others in compositions(self.n - 1, k):
            for a in range(k):
                for b in range(k):
                    if a != b:
                        out.append(
                            ShufflePair(others=tuple(others), a=self.inputs[a], b=self.inputs[b], inputs=self.inputs)
                        )
        return out

    # ---------------------------------------------------------------- profiles
    def _check_exact_size(self, what: str) -> None:
        if self.n_tallies > current_limit("shuffle_tallies"):
            raise SizeLimitError(
                f"{what} needs the law of {self.n_tallies:,} tallies (n = {self.n}, {self.local.n_outputs} outputs), "
                f"above the limit shuffle_tallies = {current_limit('shuffle_tallies'):,}; {limit_hint('shuffle_tallies', self.n_tallies)}"
            )

    def delta(self, eps: LevelLike, pair: ShufflePair | None = None, *, method: str = "auto") -> ShuffleDelta:
        """``δ(ε) = E_{e^ε}(P_a ‖ P_b)`` of the tally for one ordered neighbouring pair (default: the worst case).

        ``method``: ``"auto"`` (exact rationals when the data are rational and ``n`` is small, else log space),
        ``"exact"`` or ``"log"`` (certified log space: clone pairs, binary pairs with dissenters, and any pair of a local
        mechanism with up to four merged outputs, ``docs/theory.md`` §18.7). Mixed pairs use the exact
        Poisson-multinomial law while it fits (limit ``shuffle_tallies``), log space beyond.

        Examples
        --------
        >>> import privgeom as pg
        >>> S = pg.shuffled(pg.randomized_response(1, "3/4"), 200)
        >>> d = S.delta("ln(2)", S.pair(a="1", b="0"), method="log")
        >>> e = S.delta("ln(2)", S.pair(a="1", b="0"), method="exact")
        >>> abs(d.value / float(e.value) - 1) <= d.rel_error
        True
        """
        if method not in _ROUTES:
            raise InvalidParameterError(f"unknown method {method!r}; choose one of {', '.join(_ROUTES)}")
        level = PrivacyLevel.coerce(eps, name="eps")
        if pair is None:
            return self.worst_case(level).delta
        if pair.inputs != self.inputs or sum(pair.others) != self.n - 1:
            raise InvalidParameterError(
                f"the pair {pair} is not a neighbouring pair of this shuffled mechanism (n = {self.n})"
            )
        exact = self.exact and level.exact
        a, b = self.inputs.index(pair.a), self.inputs.index(pair.b)
        c = pair.clone_input
        if c is None:
            held = sorted((cnt, i) for i, cnt in enumerate(pair.others) if cnt)
            dissent = len(held) == 2 and self.local.n_outputs == 2
            exact_fits = self.n_tallies <= current_limit("shuffle_tallies")
            if not dissent and (method == "log" or (method == "auto" and not exact_fits)):
                return self._log_pair(level, pair, a, b)  # any pair with up to 4 merged outputs (§18.7)
            if method == "log" or (method == "auto" and dissent and not (exact and exact_fits)):
                if not dissent:
                    raise InvalidParameterError(
                        f"the log-space route needs binary reports and a pair whose other users hold at most two "
                        f"inputs, got {pair}"
                    )
                (d, minority), (_, majority) = held
                work = (self.n + 1) * (d + 1)
                if work > current_limit("shuffle_dissenter_work"):
                    raise SizeLimitError(
                        f"the log-space δ of a pair with {d:,} dissenters among n = {self.n} users costs {work:,}, above "
                        f"the limit shuffle_dissenter_work = {current_limit('shuffle_dissenter_work'):,}; "
                        f"{limit_hint('shuffle_dissenter_work', work)}"
                    )
                frows = [[float(v) for v in row] for row in self._rows(False)]
                tail = dissenter_delta_log(frows, self.n, majority, minority, d, a, b, float(level.exp_eps))
                return self._from_log(tail, level, pair, "clone tally with dissenters (log space)")
            self._check_exact_size("the exact δ of a mixed pair")
            if self.exact and not exact:
                return self._bracketed(level, pair, a, b)
            value = exact_pair_delta(
                self._rows(exact), pair.others, a, b, level.exp_eps if exact else float(level.exp_eps)
            )
            return self._result(value, level, pair, exact, "exact Poisson-multinomial law", 0)
        dims = len(merge_clone(self._rows(exact), c, a, b).probs)
        small = self.n <= EXACT_CLONE_MAX_N.get(dims, 0)
        fits = dims > 3 and self.n_tallies <= current_limit("shuffle_tallies")  # no log-space route: the exact law
        if method == "exact" or (method == "auto" and exact and (small or fits)):
            if not exact:
                if method == "exact":
                    raise InvalidParameterError("method='exact' needs an exact local mechanism and a rational e^ε")
            elif dims <= 3:
                value = clone_delta_exact(self._rows(True), self.n, c, a, b, Fraction(level.exp_eps))
                return self._result(value, level, pair, True, "clone closed form (exact)", self.n + 1)
            self._check_exact_size("the exact δ")
            value = exact_pair_delta(self._rows(exact), pair.others, a, b, level.exp_eps)
            return self._result(value, level, pair, exact, "exact Poisson-multinomial law", 0)
        merged = merge_clone(self._rows(False), c, a, b)
        if len(merged.probs) > 3:
            if method == "log" or self.n_tallies > current_limit("shuffle_tallies"):
                return self._log_pair(level, pair, a, b)  # four merged categories: the core sum of §18.7
            self._check_exact_size(
                f"this clone pair ({len(merged.probs)} merged output categories; the log-space "
                "closed form handles at most 3)"
            )
            if self.exact:
                return self._bracketed(level, pair, a, b)
            value = exact_pair_delta(self._rows(False), pair.others, a, b, float(level.exp_eps))
            return self._result(value, level, pair, False, "exact Poisson-multinomial law (floats)", 0)
        s = clone_delta_log(merged, self.n, float(level.exp_eps))
        return self._from_log(s, level, pair, "clone closed form (log space)")

    def _bracketed(self, level: PrivacyLevel, pair: ShufflePair, a: int, b: int) -> ShuffleDelta:
        """δ of an exact local mechanism at an irrational ``e^ε``, certified: ``δ(t)`` is non-increasing in ``t``, so
        the exact law at the rationals ``t_lo ≤ e^ε ≤ t_hi`` (the double ``e^ε`` moved 4 ulps each way; ``exp`` is
        accurate to about one) brackets it; the value is the bracket's middle, ``rel_error`` its half-width
        relative to it."""
        t = float(level.exp_eps)
        lo_t, hi_t = t, t
        for _ in range(4):
            lo_t, hi_t = math.nextafter(lo_t, 0.0), math.nextafter(hi_t, math.inf)
        rows = self._rows(True)
        upper = Fraction(exact_pair_delta(rows, pair.others, a, b, Fraction(max(lo_t, 1.0))))
        lower = Fraction(exact_pair_delta(rows, pair.others, a, b, Fraction(hi_t)))
        mid = (upper + lower) / 2
        rel = float((upper - lower) / (2 * mid)) if mid > 0 else 0.0
        log10 = log_of_ratio(mid) / math.log(10) if mid > 0 else -math.inf
        return ShuffleDelta(
            value=float(mid),
            log10=log10,
            rel_error=rel,
            level=level,
            pair=pair,
            n=self.n,
            exact=False,
            route="exact Poisson-multinomial law (bracketed e^ε)",
            terms=0,
        )

    def _log_pair(self, level: PrivacyLevel, pair: ShufflePair, a: int, b: int) -> ShuffleDelta:
        """Any pair with up to four merged outputs in log space (:func:`~privgeom.amplification._pairs.pair_delta_log`,
        ``docs/theory.md`` §18.7), with its certified relative error."""
        s = pair_delta_log(self._rows(False), pair.others, a, b, float(level.exp_eps))
        return self._from_log(s, level, pair, "core and minority (log space)")

    def _from_log(self, s: TailSum, level: PrivacyLevel, pair: ShufflePair, route: str) -> ShuffleDelta:
        """The result of a log-space route: ``δ = e^{log_value}`` (0.0 below the float range, ``log10`` kept) with the
        route's certified relative error."""
        lv = s.log_value
        return ShuffleDelta(
            value=math.exp(lv) if lv > -745 else 0.0,
            log10=lv / math.log(10) if lv > -math.inf else -math.inf,
            rel_error=s.rel_error,
            level=level,
            pair=pair,
            n=self.n,
            exact=False,
            route=route,
            terms=s.terms,
        )

    def _result(
        self, value: Scalar, level: PrivacyLevel, pair: ShufflePair, exact: bool, route: str, terms: int
    ) -> ShuffleDelta:
        if isinstance(value, Fraction):
            log10 = log_of_ratio(value) / math.log(10) if value > 0 else -math.inf
            return ShuffleDelta(
                value=value,
                log10=log10,
                rel_error=0.0,
                level=level,
                pair=pair,
                n=self.n,
                exact=True,
                route=route,
                terms=terms,
            )
        v = float(value)  # the law summed in floats: no error bound is claimed (rel_error is NaN)
        route = route if route.endswith("(floats)") else f"{route} (floats)"
        return ShuffleDelta(
            value=v,
            log10=math.log10(v) if v > 0 else -math.inf,
            rel_error=math.nan,
            level=level,
            pair=pair,
            n=self.n,
            exact=False,
            route=route,
            terms=terms,
        )

    def worst_case(self, eps: LevelLike, *, scope: str = "auto", dissenters: int = 3) -> ShuffleWorstCase:
        """The largest ``δ(ε)`` over neighbouring pairs and the pairs attaining it.

        ``scope``: ``"all"`` (every histogram of the other users' inputs and every ordered pair of inputs; needs
        the exact laws, limit ``shuffle_tallies``), ``"certified"`` (every dataset too, by branch and bound over the
        other users' input histograms: boxes of datasets bounded by one pair evaluation with fewer users,
        ``docs/theory.md`` §18.8; binary reports at any ``n``, three or four reports at small ``n``; the value carries a
        certified relative error),
        ``"clones"`` (the pairs whose other users all hold one input: any ``n``; a lower bound on the worst case,
        ``certified=False``), ``"near"`` (the clone pairs and, for binary reports, the pairs with ``1..dissenters``
        other users holding a second input; still a lower bound) or ``"auto"`` (``all`` while its work
        ``pairs × tallies²`` is within the limit ``shuffle_exhaustive_work``, else ``certified`` for binary reports
        while it needs at most ``AUTO_CERTIFIED_BUDGET`` pair evaluations — at small ``ε`` the profile over datasets
        is flat and little prunes —, else ``clones``, the scope saying why).

        Examples
        --------
        >>> import privgeom as pg
        >>> w = pg.shuffled(pg.randomized_response(1, "3/4"), 8).worst_case("ln(3/2)", scope="certified")
        >>> w.certified, round(w.delta.value * 131072, 6), [p.summary() for p in w.attaining]
        (True, 8019.0, ['others 6×1, 1×0; user: 1 → 0', 'others 1×1, 6×0; user: 0 → 1'])
        """
        if scope not in ("auto", "all", "certified", "clones", "near"):
            raise InvalidParameterError(f"unknown scope {scope!r}; choose one of auto, all, certified, clones, near")
        level = PrivacyLevel.coerce(eps, name="eps")
        k = len(self.inputs)
        work = count_compositions(self.n - 1, k) * k * (k - 1) * self.n_tallies**2
        exhaustive = scope == "all" or (
            scope == "auto"
            and self.n_tallies <= current_limit("shuffle_tallies")
            and work <= current_limit("shuffle_exhaustive_work")
        )
        fallback = ""
        if scope == "certified":
            return self._certified(level)
        if scope == "auto" and not exhaustive and self._certifiable():
            budget = min(AUTO_CERTIFIED_BUDGET, current_limit("shuffle_certified_boxes"))
            try:
                return self._certified(level, budget=budget)
            except SizeLimitError:  # a flat profile (small ε) prunes little: the clone maximum, labelled a lower bound
                fallback = f" (the certified search needs more than {budget:,} pair evaluations here)"
        if exhaustive:
            self._check_exact_size("the exhaustive worst case")
            if work > current_limit("shuffle_exhaustive_work"):
                raise SizeLimitError(
                    f"the exhaustive worst case over every dataset of n = {self.n} users costs {work:,} (pairs × "
                    f"tallies²), above the limit shuffle_exhaustive_work = {current_limit('shuffle_exhaustive_work'):,}; scope='clones' "
                    f"examines the clone pairs at any n; {limit_hint('shuffle_exhaustive_work', work)}"
                )
            pairs = self.all_pairs()
        else:
            pairs = self.clone_pairs() + (self.dissenter_pairs(dissenters) if scope == "near" else [])
        method = "exact" if exhaustive and self.exact and level.exact else "auto"
        rows = self._rows(self.exact)
        seen: dict[Any, ShuffleDelta] = {}  # clone pairs with the same merged law have the same δ (symmetry)
        results = []
        for p in pairs:
            c = p.clone_input
            key = None if c is None else merge_clone(rows, c, self.inputs.index(p.a), self.inputs.index(p.b))
            if key is not None and key in seen:
                r = seen[key]
                results.append(dataclasses.replace(r, pair=p))
                continue
            r = self.delta(level, p, method=method)
            if key is not None:
                seen[key] = r
            results.append(r)
        if all(r.exact and isinstance(r.value, Fraction) for r in results):
            best = max(results, key=lambda r: r.value)  # exact values compared exactly (log10 rounds ties together)
        else:
            best = max(results, key=lambda r: r.log10)
        errs = [r.rel_error for r in results if not math.isnan(r.rel_error)]
        tol = 0.0 if best.exact else (4 * max(errs, default=0.0) + TIE_RTOL) / math.log(10)
        attaining = tuple(
            r.pair for r in results if (r.value == best.value if best.exact else r.log10 >= best.log10 - tol)
        )
        label = (
            "all datasets"
            if exhaustive
            else ("clone pairs" if scope != "near" else f"clone pairs and pairs with at most {dissenters} dissenters")
        ) + fallback
        return ShuffleWorstCase(
            delta=best,
            attaining=attaining,
            scope=label,
            certified=exhaustive,
            pairs_checked=len(pairs),
            level=level,
            exact=best.exact,
        )

    def _certifiable(self, *, explicit: bool = False) -> bool:
        """Binary reports with at most two distinct report laws (the binary route convolves two binomials, fast at any
        ``n``: what ``scope="auto"`` uses), or — asked for explicitly — three or four reports (the core-and-minority
        route of ``docs/theory.md`` §18.7, whose cost grows with the square of a box's minority: practical at small
        ``n`` only; 3-ary randomized response has a route of its own, §18.10 with the mixture bound of §18.9, to
        ``n = 10^4`` — asked for explicitly too: near the level where the worst dataset changes kind the search can
        take minutes)."""
        if self.local.n_outputs == 2:
            return len({tuple(col) for col in zip(*self._rows(False))}) <= 2
        return explicit and self.local.n_outputs <= 4

    def _certified(self, level: PrivacyLevel, budget: int | None = None) -> ShuffleWorstCase:
        """The worst case over every dataset by branch and bound (:mod:`privgeom.amplification._worst`)."""
        if self.n < 2:
            raise InvalidParameterError(f"a neighbouring pair needs n >= 2 users, got n = {self.n}")
        evaluator = default_evaluator(self.local.n_outputs)
        if not self._certifiable(explicit=budget is None):
            raise InvalidParameterError(
                f"the certified worst case handles up to 4 reports, and binary reports with at most two distinct "
                f"report laws among the inputs; this local mechanism has {self.local.n_inputs} inputs with "
                f"{len({tuple(col) for col in zip(*self._rows(False))})} distinct laws (use scope='all' at small n, "
                "or scope='clones' for a lower bound)"
            )
        rows = [[float(v) for v in row] for row in self._rows(False)]
        search = certified_worst_case(
            rows, self.n, float(level.exp_eps), None if is_rr3(rows) else evaluator, budget=budget
        )
        pairs = tuple(
            ShufflePair(others=c, a=self.inputs[a], b=self.inputs[b], inputs=self.inputs)
            for c, a, b in search.attaining
        )
        tail = TailSum(search.log_value, search.rel_error, search.datasets)
        delta = self._from_log(tail, level, pairs[0], "branch and bound over every dataset (log space)")
        return ShuffleWorstCase(
            delta=delta,
            attaining=pairs,
            scope="all datasets (branch and bound)",
            certified=True,
            pairs_checked=search.evaluations,
            level=level,
            exact=False,
            boxes_pruned=search.pruned,
        )

    def epsilon(self) -> ShuffleEpsilon:
        """Pure ``ε`` of the tally over every neighbouring pair: ``max_{a,b,j} R[j, a]/R[j, b]`` over the outputs
        ``j`` all users can report — the local ``ε₀`` (``docs/theory.md`` §18.3: the tally where every report is
        ``j`` has likelihood ratio exactly ``R[j, a]/R[j, b]``, and no tally has a larger one).

        Examples
        --------
        >>> import privgeom as pg
        >>> e = pg.shuffled(pg.randomized_response(1, "3/4"), 1000).epsilon()
        >>> e.level.exp_eps, str(e.level)
        (Fraction(3, 1), 'ln(3)')
        """
        rows = self._rows(self.exact)
        k = len(self.inputs)
        best: tuple[Any, ShufflePair | None, str] = (Fraction(1) if self.exact else 1.0, None, "")
        for c in range(k):
            for a in range(k):
                for b in range(k):
                    if a == b:
                        continue
                    ratio, _ = clone_epsilon(merge_clone(rows, c, a, b))
                    if ratio > best[0]:
                        j = max(range(len(rows)), key=lambda j: (rows[j][a] / rows[j][b]) if rows[j][b] else math.inf)
                        others = tuple(self.n - 1 if i == c else 0 for i in range(k))
                        tally = "[" + ",".join(str(self.n if i == j else 0) for i in range(len(rows))) + "]"
                        best = (
                            ratio,
                            ShufflePair(others=others, a=self.inputs[a], b=self.inputs[b], inputs=self.inputs),
                            tally,
                        )
        level = PrivacyLevel.from_exp_eps(best[0], allow_infinite=True)
        return ShuffleEpsilon(level=level, pair=best[1], tally=best[2], exact=self.exact)

    # ---------------------------------------------------------------- matrices and definitions
    def mechanism(self) -> Mechanism:
        """The dense matrix: columns = histograms of the ``n`` inputs, rows = tallies (small ``n`` only).

        Examples
        --------
        >>> import privgeom as pg
        >>> M = pg.shuffled(pg.randomized_response(1, "3/4"), 2).mechanism()
        >>> M.inputs, [str(v) for v in M.column("[1,1]")]
        (('[2,0]', '[1,1]', '[0,2]'), ['3/16', '5/8', '3/16'])
        """
        self._check_exact_size("the dense shuffled matrix")
        dom = Domain.histograms(self.n, self.inputs)
        out = Domain.histograms(self.n, tuple(self.local.outputs))
        check_dense_size(len(out.points), len(dom.points), exact=self.exact, what="the dense shuffled matrix")
        rows = self._rows(self.exact)
        cols = []
        zero: Scalar = Fraction(0) if self.exact else 0.0
        for h in dom.points:
            others = list(h)
            i = next(i for i, c in enumerate(others) if c)
            others[i] -= 1
            support, law, _ = exact_pair_laws(rows, others, i, i)
            table = dict(zip(support, law))
            cols.append([table.get(tuple(o), zero) for o in out.points])
        return Mechanism(np.array(cols, dtype=object if self.exact else float).T, dom, out.labels, exact=self.exact)

    def relation(self) -> Any:
        """The neighbour relation of the shuffle model on the input histograms (``replace-one``) as a graph."""
        return Domain.histograms(self.n, self.inputs).relation("replace-one")

    def __repr__(self) -> str:
        return f"Shuffled(n={self.n}, local={self.local.n_inputs}→{self.local.n_outputs} {'exact' if self.exact else 'float'})"


def shuffled(local: Mechanism | PrivacyDefinition, n: int) -> Shuffled:
    """The shuffle model of ``n`` users who each apply ``local``: only the histogram of the reports is published.

    Parameters
    ----------
    local : Mechanism or a definition made of one mechanism
        The local mechanism (``k`` inputs, ``m`` outputs): randomized response, ``k``-ary randomized response, a
        local-DP protocol (``pg.unary_encoding``, …) or any finite mechanism.
    n : int
        Number of users (``>= 1``).

    Returns
    -------
    Shuffled
        With :meth:`Shuffled.delta` (one neighbouring pair), :meth:`Shuffled.worst_case`, :meth:`Shuffled.epsilon`,
        and for small ``n`` the dense :meth:`Shuffled.mechanism` (a privgeom Mechanism: every analysis applies).

    Examples
    --------
    >>> import privgeom as pg
    >>> S = pg.shuffled(pg.randomized_response(1, "3/4"), 10**6)
    >>> r = S.delta(0.05, S.pair(a="1", b="0"))
    >>> r.route, round(r.log10, 6), r.rel_error < 1e-9
    ('clone closed form (log space)', -427.734375, True)
    """
    n = parse_int(n, name="n", min=1, max=10**12)
    return Shuffled(_local(local), n)
