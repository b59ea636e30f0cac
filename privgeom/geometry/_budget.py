"""Never a silent hour: the cost of a generic cone enumeration estimated before it runs, and refused over the budget.

A generic conversion (V→H: the facets of a cone given by generators; H→V: the extreme rays of a cone given by
inequalities) by any engine of :mod:`privgeom.geometry._engines` is preceded by :func:`check_enumeration`, which
estimates the size of the answer and the time the route will take, and refuses — before the engine starts, within a
fraction of a second — when either exceeds the budget in force (the registered limits ``engine_rows`` and
``engine_seconds``, :func:`privgeom.set_limits`, ``--limit`` on the command line). The rule (``docs/theory.md`` §21):

1. **Bound.** ``U(n, d)``, McMullen's upper bound on the facets of a cone with ``n`` generators whose span has
   dimension ``d`` (:func:`upper_bound_rows`; by polarity also the rays of ``n``
   inequalities), ``d`` the ambient dimension less the linear rows. When ``U ≤ engine_rows`` and
   ``U · SECONDS_PER_ROW[engine] ≤ engine_seconds`` nothing can exceed the budget: the conversion runs at once, and
   small inputs never pay for an estimate.
2. **Probe.** Otherwise the chosen engine (in the calling process, one thread) converts random sub-samples of the
   rows (a fixed seed; the linear rows always kept) of growing size ``m_0 = d + 2``, ``m_{j+1} = m_j + max(1,
   ⌊m_j/16⌋)``, while the output rows of all steps, with the next step's predicted by the growth of ``U``, stay
   within :data:`PROBE_ROWS` (work, so that an input always gets the same forecast; :data:`PROBE_SECONDS` caps a
   slow machine). Each step gives the *fill ratio* ``ρ_j = f(m_j) / U(m_j, d)`` of the answer against the bound.
3. **Extrapolation.** The answer is taken to grow as a power of the bound: ``f̂ = f(m_J) · (U(n, d) /
   U(m_J, d))^α``, with ``α`` the least-squares slope of ``log f(m_j)`` on ``log U(m_j, d)`` over the steps,
   clipped to ``[0, 1]`` (random cones fill less of the bound as rows are added: ``α < 1``; one step gives
   ``α = 1``, the fill ratio kept), and ``f(m_J) ≤ f̂ ≤ U(n, d)``; a probe that reached all ``n`` rows gives the
   exact count (then the route runs and counts its own answer). The time estimate is ``f̂ · SECONDS_PER_ROW[engine]`` (the engine, the canonical
   form and the verification, per output row, measured by ``benchmarks/bench_engines.py``).
   The forecast is trusted only when the probe converted at least half of the ``n`` rows: small samples of a
   structured input can fill far more of the bound than the whole does (the generators of the hull of two
   definitions mostly lie on a few facets; the rays of a few of ε-DP's inequalities outnumber those of all of
   them), so a probe that cannot reach ``⌈n/2⌉`` rows — predicted before it starts when ``U(⌈n/2⌉, d)`` exceeds
   :data:`PROBE_MAX_ROWS` — gives no forecast (rule ``"unprobed"``) and the conversion runs under the hard guards,
   its progress shown on a terminal.
4. **Refusal.** ``f̂ > engine_rows`` or the time estimate over ``engine_seconds`` raises a
   :class:`~privgeom.SizeLimitError` naming the estimate, the probe it comes from, the bound and the limit to raise.

The estimate is a forecast, not a bound: a conversion it lets through is still held by the hard guards of the
engine route (the worker process stopped at ``engine_seconds``, the answer's row count checked against
``engine_rows`` before it is canonicalised), so a wrong forecast costs time, never a wrong answer.

Examples
--------
>>> import numpy as np
>>> square = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1], [0, 0, 1]])
>>> e = estimate_enumeration("V", square, np.zeros((0, 3), dtype=np.int64), "cdd")
>>> e.rows, e.rule
(4, 'bound')
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from .._core.errors import SizeLimitError
from .._core.hints import limit_hint
from .._core.limits import current_limit

__all__ = [
    "Estimate",
    "Probe",
    "estimate_enumeration",
    "check_enumeration",
    "PROBE_SECONDS",
    "PROBE_ROWS",
    "SECONDS_PER_ROW",
    "upper_bound_rows",
]

#: Wall-clock seconds the probe of step 2 may spend at most (a step predicted to pass it is not started).
PROBE_SECONDS = 1.0
#: Output rows the probe's steps may produce in all: its work, so that the same input gives the same forecast on any
#: machine (:data:`PROBE_SECONDS` only caps a slow engine or machine).
PROBE_ROWS = 3_000
#: Seconds per output row of a whole generic conversion (the engine, canonical form, exact verification): the largest
#: rate per engine in the whole-route times of ``benchmarks/bench_engines.py`` (random mechanisms 20 x 10 … 28 x 14),
#: scaled to the 2-core reference machine by its Normaliz time on the 30 x 16 mechanism (79 µs per facet, engine
#: alone); the largest rate, so that a conversion forecast within ``engine_seconds`` is not stopped by it later.
SECONDS_PER_ROW = {"cdd": 5.0e-4, "normaliz": 3.0e-4, "ppl": 2.5e-4}
#: The probe is not tried when the bound for half of the rows exceeds this many output rows: it could not reach half of
#: them within its work :data:`PROBE_ROWS`, and a forecast from fewer than half of the rows is not trusted.
PROBE_MAX_ROWS = 5 * PROBE_ROWS
#: The seed of the probe's sub-samples (the same input always gives the same estimate).
PROBE_SEED = 0


class Probe(NamedTuple):
    """One step of the probe: ``m`` rows converted by the engine gave ``found`` output rows in ``seconds``."""

    m: int
    found: int
    seconds: float


class Estimate(NamedTuple):
    """The forecast of a generic conversion (module doc).

    ``rows``: estimated output rows; ``bound``: the upper bound theorem's ``U(n, d)``; ``seconds``: estimated time
    of the route; ``rule``: ``"bound"`` (no probe needed: ``rows`` is the bound), ``"probe"`` (extrapolated from
    ``probes``), ``"exact"`` (the probe converted every row) or ``"unprobed"`` (the bound exceeds the budget but no
    trusted forecast could be made: ``rows`` is the bound, and nothing is refused); ``probes``: the probe's steps."""

    kind: str
    n: int
    dim: int
    engine: str
    rows: int
    bound: int
    seconds: float
    rule: str
    probes: tuple[Probe, ...] = ()

    def describe(self) -> str:
        """How the estimate was reached, in words (the middle of a refusal message).

        >>> Estimate("V", 30, 16, "normaliz", 150000, 341088, 18.0, "probe", (Probe(19, 558, 0.1), Probe(21, 2510, 0.4))).describe()
        'forecast: normaliz converted 21 random generators of the 30 into 2,510 facets, 73% of the bound 3,432 for 21, extrapolated to 30 as a power of the bound, which the upper bound theorem puts at 341,088'
        """
        what = "facets" if self.kind == "V" else "rays"
        inputs = "generators" if self.kind == "V" else "inequalities"
        if self.rule == "exact" and self.probes:
            return f"counted: the probe converted all {self.n} {inputs} with {self.engine}"
        if self.rule == "probe" and self.probes:
            last = self.probes[-1]
            ub = upper_bound_rows(last.m, self.dim)
            return (
                f"forecast: {self.engine} converted {last.m} random {inputs} of the {self.n} into {last.found:,} {what}, "
                f"{last.found / max(ub, 1):.0%} of the bound {ub:,} for {last.m}, extrapolated to {self.n} as a "
                f"power of the bound, which the upper bound theorem puts at {self.bound:,}"
            )
        return f"the upper bound theorem allows {self.bound:,} {what} for {self.n} {inputs} in R^{self.dim}"


def upper_bound_rows(n_rows: int, dim: int) -> int:
    """An upper bound on the facets of a pointed cone with ``n_rows`` generators in ``R^dim`` (by polarity, also on the
    rays of a cone with ``n_rows`` inequalities): McMullen's upper bound theorem for a ``(dim−1)``-polytope with
    ``n`` vertices, ``f = C(n − ⌈d/2⌉, ⌊d/2⌋) + C(n − ⌊d/2⌋ − 1, ⌈d/2⌉ − 1)`` (the cyclic polytope; Ziegler,
    *Lectures on Polytopes*, Theorem 8.23). Shown to the user as the size a conversion may reach.

    >>> upper_bound_rows(6, 3), upper_bound_rows(30, 16)   # a hexagon's 6 edges
    (6, 341088)
    """
    d = dim - 1
    if n_rows <= dim or d < 2:
        return max(n_rows, 1) if d >= 1 else 1
    lo, hi = d // 2, (d + 1) // 2
    return math.comb(n_rows - hi, lo) + math.comb(n_rows - lo - 1, hi - 1)


def _convert(kind: str, main: np.ndarray, lin: np.ndarray, engine: str) -> int:
    """The number of facets (``"V"``) or rays (``"H"``) of a sample, by ``engine`` in the calling process (one
    thread), exactly (cdd when the engine is not installed)."""
    from . import _cdd, _normaliz

    if engine == "normaliz" and _normaliz.normaliz_available():
        fn = _normaliz.normaliz_v_to_h if kind == "V" else _normaliz.normaliz_h_to_v
        return len(fn(main.tolist(), lin.tolist(), threads=1)[0])
    if engine == "ppl" and _normaliz.ppl_available():
        return len((_normaliz.ppl_v_to_h if kind == "V" else _normaliz.ppl_h_to_v)(main.tolist(), lin.tolist())[0])
    cdd_fn = _cdd.v_to_h if kind == "V" else _cdd.h_to_v
    return len(cdd_fn(main.astype(object), lin.astype(object), exact=True)[0])


def _probe(kind: str, main: np.ndarray, lin: np.ndarray, dim: int, engine: str) -> tuple[Probe, ...]:
    """Step 2 of the module doc: the engine on random sub-samples of growing size within :data:`PROBE_SECONDS`."""
    n = len(main)
    order = np.random.default_rng(PROBE_SEED).permutation(n)
    rows = np.asarray([[int(v) for v in r] for r in main.tolist()], dtype=object).reshape(main.shape)
    lin_rows = np.asarray([[int(v) for v in r] for r in lin.tolist()], dtype=object).reshape(lin.shape)
    start = time.perf_counter()
    steps: list[Probe] = []
    m = min(n, dim + 2)
    while True:
        t = time.perf_counter()
        found = _convert(kind, rows[np.sort(order[:m])], lin_rows, engine)
        steps.append(Probe(m, found, time.perf_counter() - t))
        if m >= n:
            return tuple(steps)
        nxt = min(n, m + max(1, m // 16))
        growth = upper_bound_rows(nxt, dim) / max(upper_bound_rows(m, dim), 1)
        work = sum(p.found for p in steps) + found * growth  # output rows converted so far and by the next step
        late = time.perf_counter() - start + steps[-1].seconds * growth > PROBE_SECONDS
        if work > PROBE_ROWS or late:
            return tuple(steps)
        m = nxt


def _extrapolate(probes: tuple[Probe, ...], n: int, dim: int) -> int:
    """Step 3 of the module doc: ``f̂ = f(m_J) · (U(n) / U(m_J))^α``, ``α`` the least-squares slope of ``log f`` on
    ``log U`` over the probe's steps, clipped to ``[0, 1]`` (1 with a single step)."""
    last = probes[-1]
    bound = upper_bound_rows(n, dim)
    if last.m >= n:
        return last.found
    pts = [(math.log(upper_bound_rows(p.m, dim)), math.log(p.found)) for p in probes if p.found > 0]
    alpha = 1.0
    if len(pts) >= 2 and pts[-1][0] > pts[0][0]:
        mx = sum(x for x, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        sxx = sum((x - mx) ** 2 for x, _ in pts)
        alpha = min(1.0, max(0.0, sum((x - mx) * (y - my) for x, y in pts) / sxx)) if sxx > 0 else 1.0
    grown = last.found * (bound / max(upper_bound_rows(last.m, dim), 1)) ** alpha
    return int(min(bound, max(last.found, round(grown))))


def estimate_enumeration(kind: str, main: np.ndarray, lin: np.ndarray, engine: str) -> Estimate:
    """The forecast of converting ``main`` (generators for ``kind="V"``, inequalities for ``"H"``) with the linear
    rows ``lin`` by ``engine`` (module doc: steps 1–3; the probe runs only when the bound exceeds the budget).

    Examples
    --------
    >>> import numpy as np
    >>> rays = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]])
    >>> import privgeom as pg
    >>> with pg.limits(engine_rows=1):          # the bound (4 facets) exceeds the budget: the probe converts all
    ...     e = estimate_enumeration("V", rays, np.zeros((0, 3), dtype=np.int64), "cdd")
    >>> e.rows, e.rule, e.probes[-1].m
    (3, 'exact', 4)
    """
    n = len(main)
    dim = main.shape[1] - len(lin)
    bound = upper_bound_rows(n, dim)
    rate = SECONDS_PER_ROW.get(engine, SECONDS_PER_ROW["cdd"])
    within = bound <= current_limit("engine_rows") and bound * rate <= current_limit("engine_seconds")
    if within or n == 0:
        return Estimate(kind, n, dim, engine, bound, bound, bound * rate, "bound")
    half = -(-n // 2)
    if main.shape[1] > current_limit("dd_dim") or upper_bound_rows(half, dim) > PROBE_MAX_ROWS:
        # the engine refuses the dimension itself at once; or no probe could convert half of the rows in time
        return Estimate(kind, n, dim, engine, bound, bound, bound * rate, "unprobed")
    probes = _probe(kind, main, lin, dim, engine)
    if probes[-1].m < half:  # too small a sample to speak for the whole input
        return Estimate(kind, n, dim, engine, bound, bound, bound * rate, "unprobed", probes)
    rows = _extrapolate(probes, n, dim)
    return Estimate(kind, n, dim, engine, rows, bound, rows * rate, "exact" if probes[-1].m >= n else "probe", probes)


def check_enumeration(kind: str, main: np.ndarray, lin: np.ndarray, engine: str) -> Estimate:
    """Refuse a generic conversion whose forecast (:func:`estimate_enumeration`) exceeds ``engine_rows`` rows or
    ``engine_seconds`` seconds, before the engine starts (module doc, step 4); else return the forecast.

    Raises
    ------
    SizeLimitError
        Naming the estimate, how it was reached, and the limit to raise (``pg.set_limits(...)`` / ``--limit``).

    Examples
    --------
    >>> import numpy as np
    >>> import privgeom as pg
    >>> rows = np.random.default_rng(0).integers(1, 20, size=(20, 10))    # 20 random generators in R^10
    >>> with pg.limits(engine_rows=1000):  # doctest: +ELLIPSIS
    ...     check_enumeration("V", rows, rows[:0], "normaliz")
    Traceback (most recent call last):
    ...
    privgeom._core.errors.SizeLimitError: facets of 20 generators in R^10 by normaliz: about ... facets (...), more than the limit of 1,000 (engine_rows); refused before running normaliz — raise it with ...

    (How far the probe gets depends on the time it is allowed, :data:`PROBE_SECONDS`: on an idle machine it converts
    18 of the 20 generators into 1,004 facets, 70 % of the bound 1,430 for 18, and forecasts 1,823; on a busy one it
    converts fewer.)
    >>> from privgeom.geometry import Cone
    >>> Cone.from_generators(rows.tolist()).n_facets                    # the forecast was 6% high
    1724
    """
    from . import _normaliz

    if (engine == "normaliz" and not _normaliz.normaliz_available()) or (
        engine == "ppl" and not _normaliz.ppl_available()
    ):
        return Estimate(kind, len(main), main.shape[1], engine, 0, 0, 0.0, "unprobed")  # the route names the package
    est = estimate_enumeration(kind, main, lin, engine)
    if est.rule != "probe":  # nothing to fear, no forecast, or a count the route will make again and check
        return est
    what = "facets" if kind == "V" else "rays"
    head = (
        f"{what} of {est.n} {'generators' if kind == 'V' else 'inequalities'} in R^{main.shape[1]} by {engine}: "
        f"{'' if est.rule == 'exact' else 'about '}{est.rows:,} {what} ({est.describe()})"
    )
    if est.rows > current_limit("engine_rows"):
        raise SizeLimitError(
            f"{head}, more than the limit of {current_limit('engine_rows'):,} (engine_rows); refused "
            f"before running {engine} — {limit_hint('engine_rows', est.rows)}"
        )
    if est.seconds > current_limit("engine_seconds"):
        need = int(est.seconds) + 1
        raise SizeLimitError(
            f"{head}, estimated {need:,} s at {est.seconds / max(est.rows, 1) * 1e6:.0f} µs per {what[:-1]} for "
            f"{engine}, more than the budget of {current_limit('engine_seconds'):,} s (engine_seconds); refused "
            f"before running {engine} — {limit_hint('engine_seconds', need)}"
        )
    return est
