"""The certified worst case of a shuffled tally over every dataset, by branch and bound over the other users' inputs.

A neighbouring pair is ``(c, a, b)``: the histogram ``c`` of the other ``N = n − 1`` users' inputs (``k`` counts summing
to ``N``) and the changing user's two inputs. A *box* is ``{c : lo <= c <= hi, Σ c = N}`` for one ordered ``(a, b)``.

**The bound** (``docs/theory.md`` §18.8). Every ``c`` in a box dominates ``lo`` (tightened so that
``lo_x = max(lo_x, N − Σ_{y≠x} hi_y)``), so its tally is the tally of the pair ``(lo, a, b)`` plus the reports of the
``N − |lo|`` remaining users, whose law does not depend on the changing user: a post-processing (a Markov kernel
applied to both laws), which never increases the hockey-stick divergence. Hence ``δ_c(ε) <= δ_lo(ε)`` — one pair
evaluation with ``1 + |lo|`` users bounds the whole box.

**The search.** Best first: the box of largest upper bound is taken; a single dataset is evaluated (its value and
certified relative error); a box whose upper bound is below the best certified lower bound is pruned. A box on one
side of the best dataset found so far (along its widest coordinate) is *peeled*: only its part next to that dataset,
a fraction ``f`` of its distance to it wide, is evaluated, and the rest keeps the box's bound until it is taken
(``f`` adapted along each chain: ×1.04 after a prune, ×0.75 after a miss — the large-deviation heuristic of §18.8
says a box may be about a fixed fraction of its distance wide). A box whose bound is not low enough is split along its
widest coordinate, at the best dataset's value when it straddles it (that value a child of its own), else at the
middle; children inherit their parent's bound until they are taken. Box bounds use ``bound_evaluator`` (for binary
reports the general-pair route on a coarser, still certified, window). All comparisons are conservative: a value enters as ``[v (1 − e), v (1 + e)]`` with ``e``
the evaluator's certified relative error. An evaluator failure propagates as an error; nothing is pruned without a
bound. The result is the largest certified value, the datasets whose intervals meet it (ties), and a relative error
covering both the value's own error and every resolved dataset that could still be above it.

Symmetry: when swapping the two inputs and the two reports of a 2 × 2 local mechanism leaves it unchanged (binary
randomized response), the direction ``(b → a)`` with ``c`` equals ``(a → b)`` with ``c`` reversed, and only ``a → b``
is searched.

Examples
--------
>>> import math
>>> R = [[0.75, 0.25], [0.25, 0.75]]
>>> w = certified_worst_case(R, 8, 1.5)           # binary RR, p = 3/4, n = 8, e^ε = 3/2
>>> round(math.exp(w.log_value) * 131072, 6), sorted(w.attaining)   # 8019/131072 at one dissenter
(8019.0, [((1, 6), 1, 0), ((6, 1), 0, 1)])
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import math
from dataclasses import dataclass
from typing import Callable, Sequence

from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.hints import limit_hint
from .._core.limits import current_limit, register_limit
from ._engine import TailSum
from ._pairs_binary import binary_pair_delta_log
from ._pairs import pair_delta_log
from ._mixture import ProfileEvaluator, common_law, mixture_bound, profile_of
from ._pairs_rr3 import rr3_delta_over_m, rr3_evaluator

__all__ = [
    "certified_worst_case",
    "WorstSearch",
    "default_evaluator",
    "is_rr3",
    "rr3_profile",
    "rr3_or_general",
    "MAX_CERTIFIED_BOXES",
    "Evaluator",
]

#: A pair evaluator: ``(R, others, a, b, t) -> TailSum`` (``ln δ`` with a certified relative error).
Evaluator = Callable[[Sequence[Sequence[float]], Sequence[int], int, int, float], TailSum]

#: Largest number of pair evaluations of one certified worst-case search.
MAX_CERTIFIED_BOXES = 20_000
register_limit(
    "shuffle_certified_boxes",
    globals(),
    "MAX_CERTIFIED_BOXES",
    "pair evaluations of the branch and bound that certifies the worst case of a shuffled tally over every dataset",
)
#: Largest width of a peeled box, as a fraction of its distance to the best dataset, when the mixture bound is on
#: (it prunes boxes hundreds of times wider than their distance; the corner bound alone about a tenth).
_MAX_FRACTION = 1e4
#: With the mixture bound, a box on one side of the best dataset is split with its near part this fraction wide.
_NEAR_SPLIT = 0.125
#: A box leaving at most a quarter of the users open whose mixture bound is estimated to miss the best value by less
#: than this (nats) is halved instead.
_HALVE_EXCESS = 0.02
#: Initial fraction of its distance to the best dataset a near box is made wide.
_START_FRACTION = 0.05


def _binary_bound(R: Sequence[Sequence[float]], others: Sequence[int], a: int, b: int, t: float) -> TailSum:
    """The binary evaluator with a coarser certified window (``10^-6``): a cheaper upper bound for a box."""
    return binary_pair_delta_log(R, others, a, b, t, window=1e-6)


def is_rr3(R: Sequence[Sequence[float]]) -> bool:
    """Is ``R`` 3-ary randomized response (``R[j][x] = p`` on the diagonal, ``q < p`` elsewhere, doubles)?"""
    if len(R) != 3 or any(len(row) != 3 for row in R):
        return False
    p, q = float(R[0][0]), float(R[1][0])
    return 1.0 / 3.0 < p < 1.0 and all(float(R[j][x]) == (p if j == x else q) for j in range(3) for x in range(3))


#: Pairs whose other users all but this many hold one input go to the general route first (the clone closed form
#: of §18.2, or a core with a tiny minority: faster there than the 3-RR route when the core holds a or b).
_FEW_DISSENTERS = 2
#: A 3-RR route answer looser than this goes to the general route too (the better certified answer is kept).
_RR3_LOOSE = 1e-6


def rr3_or_general(R: Sequence[Sequence[float]], others: Sequence[int], a: int, b: int, t: float) -> TailSum:
    """The 3-RR route (§18.10); for clone pairs and pairs with one or two dissenters, and where the 3-RR route refuses,
    cannot close its tail or certifies only loosely, the general log-space route (§18.7), which is fast when one input
    holds nearly all the other users. The answer with the smaller certified error is returned; both failing is an
    error."""
    if sum(others) - max(others) <= _FEW_DISSENTERS:  # a clone pair or nearly: the general route's closed form / core
        with contextlib.suppress(SizeLimitError, InvalidParameterError):  # refused there: the 3-RR route below
            return pair_delta_log(R, others, a, b, t)
    first: TailSum | None = None
    try:
        first = rr3_evaluator(R, others, a, b, t)
        if first.rel_error <= _RR3_LOOSE:
            return first
    except (SizeLimitError, InvalidParameterError):
        if max(others) < sum(others) - 64:  # the general route would be slower still: report the refusal
            raise
    try:
        second = pair_delta_log(R, others, a, b, t)
    except (SizeLimitError, InvalidParameterError):
        if first is None:
            raise
        return first
    return second if first is None or second.rel_error < first.rel_error else first


def rr3_profile(
    R_aug: Sequence[Sequence[float]], others: Sequence[int], a: int, b: int, t: float, ms: Sequence[int]
) -> list[TailSum]:
    """The mixture bound's profile for 3-ary randomized response (its common law is uniform): every run of
    consecutive ``m`` in one call of the recurrence over uniform users (:func:`rr3_delta_over_m`, §18.10)."""
    p, q = float(R_aug[0][0]), float(R_aug[1][0])
    c = 3 - a - b
    A, B, C = int(others[a]), int(others[b]), int(others[c])
    order = sorted(set(int(m) for m in ms))
    got: dict[int, TailSum] = {}
    start = 0
    for i in range(1, len(order) + 1):
        if i == len(order) or order[i] != order[i - 1] + 1:
            lo_m, hi_m = order[start], order[i - 1]
            got.update(zip(range(lo_m, hi_m + 1), rr3_delta_over_m(p, A, B, C, lo_m, hi_m, t, q=q)))
            start = i
    return [got[int(m)] for m in ms]


def default_evaluator(n_outputs: int) -> Evaluator:
    """The pair evaluator for a local mechanism with ``n_outputs`` reports.

    Binary reports: :func:`~privgeom.amplification._pairs_binary.binary_pair_delta_log` (``n`` up to ``10^6`` and
    beyond); three or four reports: :func:`~privgeom.amplification._pairs.pair_delta_log` (``n`` up to about
    ``10^4``; a pair whose minority is too large for it is refused by the limit ``shuffle_pair_work``).
    """
    if n_outputs == 2:
        return binary_pair_delta_log
    if n_outputs <= 4:
        return pair_delta_log  # any pair with up to four merged outputs (docs/theory.md §18.7)
    raise InvalidParameterError(
        f"the certified worst case beyond the exhaustive sizes needs a pair evaluator for {n_outputs} reports; "
        "privgeom has them for up to 4 reports (use scope='all' at small n, or scope='clones'/'near' for a lower bound)"
    )


@dataclass(frozen=True)
class WorstSearch:
    """Outcome of :func:`certified_worst_case`.

    ``log_value`` is ``ln`` of the largest certified ``δ``; the true worst case lies within ``rel_error`` of
    ``e^{log_value}``. ``attaining`` lists ``(others, a, b)`` of every dataset whose certified interval reaches the
    best lower bound (ties within the error), the best first.
    """

    log_value: float
    rel_error: float
    attaining: tuple[tuple[tuple[int, ...], int, int], ...]
    evaluations: int
    pruned: int
    datasets: int
    symmetric: bool


class _OverBudget(SizeLimitError):
    """The search's own limit on pair evaluations (never caught inside the search)."""


def _symmetric(R: Sequence[Sequence[float]]) -> bool:
    """Is a 2 × 2 ``R`` unchanged when its inputs and its reports are both swapped?"""
    return len(R) == 2 and len(R[0]) == 2 and R[0][0] == R[1][1] and R[0][1] == R[1][0]


def _relabellings(R: Sequence[Sequence[float]]) -> list[tuple[int, ...]]:
    """The permutations ``σ`` of the inputs for which some permutation of the reports maps ``R`` onto itself
    (``R[τ(j)][σ(x)] = R[j][x]``): relabelling a dataset by ``σ`` and its tally by ``τ`` (a bijection) keeps ``δ``.
    Up to four inputs (all ``k!`` permutations are tried); the identity alone beyond."""
    k = len(R[0])
    if k > 4:
        return [tuple(range(k))]
    rows = sorted(tuple(float(v) for v in row) for row in R)
    out = []
    for sigma in itertools.permutations(range(k)):
        moved = sorted(tuple(float(row[sigma[x]]) for x in range(k)) for row in R)
        if moved == rows:
            out.append(sigma)
    return out


def _tighten(lo: tuple[int, ...], hi: tuple[int, ...], N: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    sl, sh = sum(lo), sum(hi)
    if sl > N or sh < N:
        return None
    lo2 = tuple(max(l, N - (sh - h)) for l, h in zip(lo, hi))
    hi2 = tuple(min(h, N - (sl - l)) for l, h in zip(lo, hi))
    return lo2, hi2


def _interval(s: TailSum) -> tuple[float, float]:
    """``ln`` of the certified bracket ``[v (1 − e), v (1 + e)]``."""
    if s.log_value == -math.inf:
        return -math.inf, -math.inf
    lower = s.log_value + (math.log1p(-s.rel_error) if s.rel_error < 1 else -math.inf)
    return lower, s.log_value + math.log1p(s.rel_error)


def certified_worst_case(
    R: Sequence[Sequence[float]],
    n: int,
    t: float,
    evaluator: Evaluator | None = None,
    *,
    bound_evaluator: Evaluator | None = None,
    candidates: Sequence[tuple[int, ...]] = (),
    on_prune: Callable[[tuple[int, ...], tuple[int, ...], int, int, float], None] | None = None,
    budget: int | None = None,
    mixture: bool | None = None,
    profile: ProfileEvaluator | None = None,
) -> WorstSearch:
    """``max`` over every neighbouring pair of the shuffled tally's ``δ`` at ``e^ε = t``, certified.

    Parameters
    ----------
    R : rows of floats
        The local mechanism, ``R[j][x]`` the probability of report ``j`` on input ``x``.
    n : int
        Number of users (``>= 2``).
    t : float
        ``e^ε >= 1``.
    evaluator : callable, optional
        ``(R, others, a, b, t) -> TailSum``; default: for 3-ary randomized response the route of §18.10
        (:func:`~privgeom.amplification._pairs_rr3.rr3_evaluator`, with :func:`rr3_profile` for the mixture bound),
        else :func:`default_evaluator` for the number of reports.
    bound_evaluator : callable, optional
        The evaluator of the boxes' upper bounds (its certified ``e^{ln δ}(1 + e)`` is used; it may be coarser);
        default ``evaluator`` (for the default binary evaluator: the same with a ``10^-6`` window).
    candidates : sequence of count vectors, optional
        Datasets of the other users evaluated first (the clone datasets and those with 1 to 3 dissenters always
        are): a good lower bound early prunes more.
    budget : int, optional
        At most this many pair evaluations (and never more than the limit ``shuffle_certified_boxes``).
    mixture : bool, optional
        Bound a box that its lower corner does not prune by the mixture lemma (``docs/theory.md`` §18.9) too; default
        on for three or more reports, off for binary reports (their corner bound prunes well, and their fast evaluator
        takes at most two report laws).
    profile : callable, optional
        ``(R_aug, others_aug, a, b, t, ms) -> [TailSum]`` evaluating the mixture bound's ``f(m)`` for many ``m`` at
        once; default: ``bound_evaluator`` once per ``m``.
    on_prune : callable, optional
        Called as ``on_prune(lo, hi, a, b, log_upper)`` for every box pruned by its own evaluated bound (an audit
        trail: every dataset of the box has ``ln δ <= log_upper``).

    Raises
    ------
    SizeLimitError
        More than ``shuffle_certified_boxes`` evaluations would be needed.
    InvalidParameterError
        From the evaluator (a failure is an error, never a pruned box).
    """
    k = len(R[0])
    N = n - 1
    if n < 2:
        raise InvalidParameterError(f"the worst case over neighbouring pairs needs n >= 2, got {n}")
    rr3 = is_rr3(R)
    ev = evaluator if evaluator is not None else (rr3_or_general if rr3 else default_evaluator(len(R)))
    if bound_evaluator is not None:
        bound_ev = bound_evaluator
    else:
        bound_ev = _binary_bound if ev is binary_pair_delta_log else ev
    mix = len(R) >= 3 if mixture is None else bool(mixture)
    if profile is None and rr3 and bound_ev is rr3_or_general:
        profile = rr3_profile
    prof = profile if profile is not None else profile_of(bound_ev)
    dense = profile is not None  # a profile evaluator shares work between consecutive m: ask for every m at once
    group = _relabellings(R)
    symmetric = len(group) > 1
    directions = []  # one ordered pair (a, b) per orbit of the relabellings
    for a, b in ((a, b) for a in range(k) for b in range(k) if a != b):
        if not any((g[a], g[b]) in directions for g in group):
            directions.append((a, b))
    limit = current_limit("shuffle_certified_boxes")
    limit = limit if budget is None else min(limit, budget)
    evaluations = pruned = 0
    resolved: dict[tuple[tuple[int, ...], int, int], tuple[float, float, TailSum]] = {}
    best_lower = -math.inf
    best_key: tuple[tuple[int, ...], int, int] | None = None
    best_by_direction: dict[tuple[int, int], tuple[int, ...]] = {}

    def evaluate(others: tuple[int, ...], a: int, b: int, bound: bool = False) -> TailSum:
        nonlocal evaluations
        evaluations += 1
        if evaluations > limit:
            raise _OverBudget(
                f"the certified worst case over every dataset of n = {n} users needs more than {limit:,} pair "
                f"evaluations (limit shuffle_certified_boxes); {limit_hint('shuffle_certified_boxes')}"
            )
        return (bound_ev if bound else ev)(R, others, a, b, t)

    def resolve(c: tuple[int, ...], a: int, b: int) -> tuple[float, float]:
        nonlocal best_lower, best_key
        key = (c, a, b)
        if key not in resolved:
            s = evaluate(c, a, b)
            lo_, hi_ = _interval(s)
            resolved[key] = (lo_, hi_, s)
            if lo_ > best_lower or best_key is None:
                best_lower, best_key = lo_, key
            if (a, b) not in best_by_direction or lo_ > resolved[(best_by_direction[(a, b)], a, b)][0]:
                best_by_direction[(a, b)] = c
        return resolved[key][0], resolved[key][1]

    def corner(lo: tuple[int, ...], a: int, b: int) -> TailSum:
        """The corner bound (§18.8); when the evaluator refuses the corner (its size limit, or a tail it cannot
        certify) or certifies it only loosely (relative error >= 1), the bound of a smaller corner — every input but the most held one halved,
        until the evaluator answers well: the lemma of §18.8 holds for any ``lo' <= lo``."""
        cur = lo
        while True:
            try:
                s = evaluate(cur, a, b, True)
                if s.rel_error < 1 or not any(cur):
                    return s
            except _OverBudget:
                raise
            except (SizeLimitError, InvalidParameterError):  # refused, or a tail it cannot certify: a smaller corner
                if not any(cur):
                    raise
            big = max(range(k), key=lambda x: cur[x])
            smaller = tuple(v if x == big else v // 2 for x, v in enumerate(cur))
            cur = smaller if smaller != cur else tuple(0 for _ in cur)

    excess: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], float] = {}  # estimated miss of a box's bound
    f_cache: dict[tuple[tuple[int, ...], int, int, tuple[float, ...]], dict[int, float]] = {}

    def box_upper(lo: tuple[int, ...], hi: tuple[int, ...], a: int, b: int) -> float:
        """``ln`` of the box's certified upper bound: the lower corner alone (§18.8), then — when that does not prune
        and the mixture bound is on — the mixture lemma of §18.9 over the users the box leaves open."""
        nonlocal evaluations
        f0 = corner(lo, a, b)
        upper = _interval(f0)[1]
        anchor = best_by_direction.get((a, b))
        if (
            not mix
            or upper < best_lower
            or (anchor is not None and all(l <= v <= h for l, v, h in zip(lo, anchor, hi)))
        ):
            return upper  # pruned already, or no bound can prune a box holding the best dataset
        X = [x for x in range(k) if hi[x] > lo[x]]
        r = N - sum(lo)
        if evaluations + r + 2 > limit:  # the profile may cost up to r + 2 evaluations
            return upper
        try:
            law = common_law(R, X)
            memo = f_cache.setdefault((lo, a, b, law[1] if law else ()), {})
            got = mixture_bound(R, lo, r, X, a, b, t, prof, target=best_lower, f0=f0, dense=dense, cache=memo)
        except _OverBudget:
            raise
        except (SizeLimitError, InvalidParameterError):  # the corner bound stands (sound); the box is split instead
            return upper
        if got is None:
            return upper
        value, used, estimate = got
        evaluations += used
        excess[(lo, hi, a, b)] = estimate - best_lower
        return min(upper, value)

    # candidates: clones and a few dissenters in every direction, then the caller's
    seeds: list[tuple[int, ...]] = []
    for x in range(k):
        for y in range(k):
            for d in range(0, 2 if mix else 4):  # with the mixture bound one dissenter suffices to start
                if (d == 0 and y != x) or (d > 0 and y == x) or d > N:
                    continue
                counts = [0] * k
                counts[x] += N - d
                counts[y] += d
                seeds.append(tuple(counts))
    seeds += [tuple(int(v) for v in cand) for cand in candidates]
    for seed in dict.fromkeys(seeds):
        for a, b in directions:
            resolve(seed, a, b)

    # best-first search; heap items: (−upper, tiebreak, lo, hi, a, b, evaluated, fraction used for a near box)
    counter = itertools.count()
    heap: list[tuple[float, int, tuple[int, ...], tuple[int, ...], int, int, bool, float]] = []
    full = _tighten((0,) * k, (N,) * k, N)
    assert full is not None
    for a, b in directions:
        heap.append((-math.inf, next(counter), full[0], full[1], a, b, False, 0.0))
    heapq.heapify(heap)
    while heap:
        neg_up, _, lo, hi, a, b, done, frac = heapq.heappop(heap)
        up = -neg_up
        if up < best_lower:  # every box left is below the best lower bound (by its own or an enclosing box's bound)
            left = [(lo, hi, a, b, up)] + [(i[2], i[3], i[4], i[5], -i[0]) for i in heap if not i[6] or i[2] != i[3]]
            pruned += len(left)
            if on_prune is not None:
                for box in left:
                    on_prune(*box)
            break
        if lo == hi:  # one dataset
            if done:
                continue  # resolved; its interval is in `resolved`
            lower, upper = resolve(lo, a, b)
            heapq.heappush(heap, (-upper, next(counter), lo, hi, a, b, True, 0.0))
            continue
        anchor = best_by_direction.get((a, b))
        if not done:
            frac = frac or _START_FRACTION
            # with the mixture bound a box is bounded through its corner and its number of open users, which peeling
            # a narrow part off does not change: the whole box is bounded at once
            peel = None if mix else _peel(lo, hi, N, anchor, frac)
            adapt = False
            if peel is not None:  # evaluate only the narrow part next to the anchor; the rest keeps this bound
                (nlo, nhi), rest, adapt = peel
                if nlo == nhi:
                    heapq.heappush(heap, (-up, next(counter), nlo, nhi, a, b, False, 0.0))
                    if rest is not None:
                        heapq.heappush(heap, (-up, next(counter), rest[0], rest[1], a, b, False, frac))
                    continue
                upper = box_upper(nlo, nhi, a, b)
                if adapt:  # widen after a prune, narrow after a miss (the chain of this box only)
                    frac = (
                        min(_MAX_FRACTION if mix else 0.5, frac * (2.0 if mix else 1.04))
                        if upper < best_lower
                        else max(1e-4, frac * 0.75)
                    )
                if rest is not None:
                    heapq.heappush(heap, (-up, next(counter), rest[0], rest[1], a, b, False, frac))
                lo, hi = nlo, nhi
            else:
                upper = box_upper(lo, hi, a, b)
            if upper < best_lower:
                pruned += 1
                if on_prune is not None:
                    on_prune(lo, hi, a, b, upper)
                continue
            heapq.heappush(heap, (-upper, next(counter), lo, hi, a, b, True, frac))
            continue
        # with the mixture bound: a box that missed by little is halved, one far from pruning cut close to the anchor
        small_miss = excess.get((lo, hi, a, b), math.inf) < _HALVE_EXCESS and 4 * (N - sum(lo)) <= N
        near = (0.5 if small_miss else _NEAR_SPLIT) if mix else 0.5
        for child in _split(lo, hi, N, anchor, near):
            heapq.heappush(heap, (-up, next(counter), child[0], child[1], a, b, False, frac))
    assert best_key is not None
    lower_best = best_lower
    value = resolved[best_key][2]
    tops = [(hi_, key) for key, (lo_, hi_, _) in resolved.items() if hi_ >= lower_best]
    upper_best = max(hi_ for hi_, _ in tops)
    rel = max(math.expm1(upper_best - value.log_value), -math.expm1(lower_best - value.log_value), value.rel_error)
    attaining = [key for _, key in sorted(tops, key=lambda p: -resolved[p[1]][2].log_value)]
    if symmetric:  # the images of each attaining dataset under the relabellings (the same δ)
        attaining = [
            (tuple(key[0][g.index(x)] for x in range(k)), g[key[1]], g[key[2]]) for key in attaining for g in group
        ]
    return WorstSearch(
        log_value=value.log_value,
        rel_error=rel,
        attaining=tuple(dict.fromkeys(attaining)),
        evaluations=evaluations,
        pruned=pruned,
        datasets=len(resolved),
        symmetric=symmetric,
    )


def _peel(
    lo: tuple[int, ...], hi: tuple[int, ...], N: int, anchor: tuple[int, ...] | None, fraction: float
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]] | None, bool] | None:
    """For a box on one side of ``anchor`` along its widest coordinate: the near part (a ``fraction`` of its distance
    to the anchor wide), the rest, and whether the near part is as wide as the fraction asked (not clipped to one
    dataset or to half the box); None when the box straddles the anchor or the near part would be half of it."""
    if anchor is None:
        return None
    x = max(range(len(lo)), key=lambda i: (hi[i] - lo[i], -i))
    l, h = lo[x], hi[x]
    if l <= anchor[x] <= h:
        return None
    d = l - anchor[x] if anchor[x] < l else anchor[x] - h
    want = int(fraction * d)
    width = max(1, want)
    if 2 * width > h - l + 1:  # the box is about as narrow as asked: evaluated whole
        return None
    near_cut = (l, l + width - 1) if anchor[x] < l else (h - width + 1, h)
    far_cut = (l + width, h) if anchor[x] < l else (l, h - width)
    out = []
    for cl, ch in (near_cut, far_cut):
        t = _tighten(lo[:x] + (cl,) + lo[x + 1 :], hi[:x] + (ch,) + hi[x + 1 :], N)
        out.append(t)
    if out[0] is None:
        return None
    return out[0], out[1], width >= 2


def _split(
    lo: tuple[int, ...], hi: tuple[int, ...], N: int, anchor: tuple[int, ...] | None, near: float = 0.5
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Children of a box: split along its widest coordinate — at the anchor's value when the box straddles it (that
    value a child of its own), else with the part next to the anchor a fraction ``near`` of the box wide (the middle
    by default: the mixture bound prunes far parts at once, so the search then cuts close to the anchor)."""
    x = max(range(len(lo)), key=lambda i: (hi[i] - lo[i], -i))
    l, h = lo[x], hi[x]
    target = anchor[x] if anchor is not None else l
    if l < target < h:
        cuts = [(l, target - 1), (target, target), (target + 1, h)]
    elif target == l:
        cuts = [(l, l), (l + 1, h)]
    elif target == h:
        cuts = [(l, h - 1), (h, h)]
    else:
        width = max(1, int((h - l + 1) * near))
        mid = l + width - 1 if target < l else h - width
        cuts = [(l, mid), (mid + 1, h)]
    out = []
    for cl, ch in cuts:
        t = _tighten(lo[:x] + (cl,) + lo[x + 1 :], hi[:x] + (ch,) + hi[x + 1 :], N)
        if t is not None:
            out.append(t)
    return out
