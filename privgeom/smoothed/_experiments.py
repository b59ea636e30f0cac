"""The experiments of Liu, Wang & Xia, *Smoothed Differential Privacy* (Sections 1, 5.2, 6), each writing a PNG and a CSV.

- :func:`elections_experiment` — Figure 2 (left) and Appendix I: smoothed δ of SHM with 10%, 1%, 0.1% of the votes
  lost, ``Π = conv{DC, NE-2}`` (2020 two-party shares), ``ε ∈ {1, 1.5, 2, 3}``, reference lines ``1/n`` and ``T/n``;
- :func:`motivating_experiment` — Figure 1: ``δ(x)`` at the actual two-party totals of every presidential election
  1920–2020 with 0.2% of the votes lost, ``ε = ln(0.51/0.49)``;
- :func:`sgd_experiment` — Figure 2 (right): one SGD step with 8-bit quantised Gaussian gradients, exact output laws
  by a subset-sum dynamic program, the expectation over databases by Monte Carlo (standard error and a rigorous
  Hoeffding interval; exact enumeration of histograms is out of reach at the paper's sizes);
- :func:`sampling_sum_experiment` — Theorem 3: the sampling average of finely discretised continuous data stays at
  ``δ ≈ T/n`` whereas the binary (SHM) case is exponentially small (exact expectation over all histograms where
  affordable, Monte Carlo with a rigorous Hoeffding interval elsewhere).

Plots use :class:`matplotlib.figure.Figure` directly (no pyplot state, Agg canvas).
"""

from __future__ import annotations

import csv
import io
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from .._core.extras import require
from .._core.errors import InvalidParameterError, SizeLimitError
from .._core.grid import run_grid
from .._core.io import check_output_dir
from .._core.limits import current_limit, register_limit
from .._core.progress import Progress  # the shared tqdm bar (re-exported here for existing callers)
from .._core.hints import limit_hint
from .._core.numbers import LogRational
from .._core.arrays import parse_int
from .._core.results import Result
from ._shm import shm_database_delta, shm_smoothed_sweep
from ._subsetsum import (
    count_histograms,
    discretised_uniform,
    expected_sampling_delta,
    quantised_gaussian,
    sampling_delta,
)
from .._core.level import LevelLike
from .._core.numbers import number_text

__all__ = [
    "Progress",
    "ExperimentResult",
    "load_elections",
    "load_jurisdictions",
    "election_vertices",
    "elections_experiment",
    "motivating_experiment",
    "sgd_experiment",
    "sampling_sum_experiment",
    "hoeffding_halfwidth",
    "EXPERIMENTS",
]


#: Smallest value plotted on a log scale (a zero δ is drawn at this floor instead of at ``-inf``).
LOG_FLOOR = 1e-300


@dataclass(frozen=True)
class ExperimentResult(Result):
    """Files written by an experiment and its rows (the CSV content).

    ``exact`` is False: the rows hold floats (certified bounds or Monte Carlo errors are in the rows and ``note``).
    """

    name: str
    csv: str
    png: str
    rows: tuple[dict, ...]
    seconds: float
    note: str
    exact: bool = False

    def summary(self) -> str:
        return f"{self.name}: {len(self.rows)} rows in {self.seconds:.1f} s -> {self.csv}, {self.png}\n  {self.note}"


# ---------------------------------------------------------------------------------------------------- data
def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("privgeom.data").joinpath(name).read_text()
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def load_elections() -> list[dict[str, Any]]:
    """National two-party popular votes of the US presidential elections 1920–2020 (``privgeom/data/elections.csv``).

    Examples
    --------
    >>> rows = load_elections()
    >>> len(rows), rows[-1]["year"], rows[-1]["democrat_votes"], rows[-1]["republican_votes"]
    (26, 2020, 81283501, 74223975)
    """
    out = []
    for r in _read_csv("elections.csv"):
        out.append(
            {
                "year": int(r["year"]),
                "democrat": r["democrat"],
                "democrat_votes": int(r["democrat_votes"]),
                "republican": r["republican"],
                "republican_votes": int(r["republican_votes"]),
                "source": r["source"],
            }
        )
    return out


def load_jurisdictions() -> dict[str, tuple[int, int]]:
    """2020 two-party votes ``(D, R)`` of the hull vertices DC and NE-2 (``privgeom/data/jurisdictions_2020.csv``).

    Examples
    --------
    >>> load_jurisdictions()["DC"]
    (317323, 18586)
    """
    return {
        r["jurisdiction"]: (int(r["democrat_votes"]), int(r["republican_votes"]))
        for r in _read_csv("jurisdictions_2020.csv")
    }


def election_vertices() -> list[Fraction]:
    """Republican two-party shares ``q`` of the vertices of ``conv(Π)``: DC and Nebraska's 2nd district (2020).

    Examples
    --------
    >>> [str(q) for q in election_vertices()]
    ['18586/335909', '154377/330845']
    """
    j = load_jurisdictions()
    return [Fraction(j[k][1], j[k][0] + j[k][1]) for k in ("DC", "NE-2")]


def _figure(ncols: int, width: float = 5.0) -> tuple[Any, Any]:
    Figure = require("matplotlib.figure", extra="plot", feature="the figures of smoothed.paper").Figure

    fig = Figure(figsize=(width * ncols, 4.0), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, axes


def _write_csv(path: Path, rows: Sequence[dict]) -> None:
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def _log10(x: float) -> float:
    return math.log10(x) if x > 0 else -math.inf


# ---------------------------------------------------------------------------------------------------- elections
ELECTION_PANELS: tuple[tuple[Fraction, tuple[int, ...]], ...] = (
    (Fraction(1, 10), tuple(range(1000, 5001, 500))),
    (Fraction(1, 100), tuple(range(10_000, 50_001, 5_000))),
    (Fraction(1, 1000), tuple(range(100_000, 500_001, 50_000))),
)
ELECTION_EPS = (1.0, 1.5, 2.0, 3.0)


def elections_experiment(
    out: str | Path = ".",
    *,
    quick: bool = False,
    progress: bool | None = None,
    panels: Sequence[tuple[Fraction, Sequence[int]]] | None = None,
    eps: Sequence[float] | None = None,
    scheduler: Any = None,
) -> ExperimentResult:
    """Smoothed δ of SHM in elections with lost ballots (Liu, Wang & Xia, Section 6, Figure 2 left, Appendix I).

    ``T = n − lost·n`` ballots are counted; votes are i.i.d. Bernoulli(``q``) with ``q ∈ conv{q_DC, q_NE-2}``
    (2020 Republican two-party shares; by the symmetry of SHM ``q`` and ``1 − q`` are equivalent). Every point is
    the exact, certified maximum over the number of agents at each vertex (:func:`~privgeom.smoothed.smoothed_delta`, ``method="shm"``). The points
    ``(lost, n)`` run through the grid runner of :func:`privgeom.sweep` (``scheduler``: ``None`` uses every core once
    the work outlasts a second, ``"serial"`` stays in this process; see :mod:`privgeom._core.grid`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = elections_experiment(tmp, panels=[(Fraction(1, 10), [1000])], eps=[1.0])
    >>> row = r.rows[0]
    >>> row["T"], row["agents_dc"], round(row["log10_delta"], 3), row["dp_delta_T_over_n"]
    (900, 1000, -1.811, 0.9)
    """
    t0 = time.perf_counter()
    out = check_output_dir(out, what="out")  # an existing folder: never created (a missing one is an error)
    if panels is None:
        quick_panels = (
            (Fraction(1, 10), (1000, 1500)),
            (Fraction(1, 100), (10_000, 15_000)),
            (Fraction(1, 1000), (100_000, 150_000)),
        )
        panels = quick_panels if quick else ELECTION_PANELS
    eps = tuple(eps) if eps is not None else ((1.0, 3.0) if quick else ELECTION_EPS)
    verts = election_vertices()
    points = [{"lost": lost, "n": n} for lost, ns in panels for n in ns]  # one task per n: all ε in one pass
    done = run_grid(
        partial(_election_point, eps=tuple(eps), verts=tuple(verts)),
        points,
        scheduler=scheduler,
        progress=progress,
        label="elections",
        errors="raise",
    )
    rows: list[dict[str, Any]] = [row for point in done for row in point["rows"]]
    csv_path, png_path = out / "smoothed_elections.csv", out / "smoothed_elections.png"
    _write_csv(csv_path, rows)
    fig, axes = _figure(len(panels))
    for ax, (lost, ns) in zip(axes, panels):
        for e in eps:
            pts = [r for r in rows if r["lost"] == str(lost) and r["eps"] == e]
            ax.plot([r["n"] for r in pts], [r["log10_delta"] for r in pts], marker="o", label=f"ε = {number_text(e)}")
        ns_ = np.array(ns, dtype=float)
        ax.plot(ns_, np.log10(1 / ns_), "k--", label="1/n")
        ax.plot(ns_, np.log10(1 - float(lost)) * np.ones_like(ns_), "k:", label="T/n (DP)")
        ax.set_title(f"{number_text(float(lost) * 100)}% of votes lost")
        ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
        ax.set_xlabel("n (voters)")
        ax.set_ylabel("log10 δ")
        ax.legend(fontsize=7)
    fig.savefig(png_path, dpi=110)
    worst = max(r["error_bound"] + r["truncation_bound"] for r in rows)
    note = (
        f"Π = conv{{DC, NE-2}} (2020); every value certified (largest gap + tail bound {number_text(worst, digits=2)})"
    )
    return ExperimentResult(
        name="elections",
        csv=str(csv_path),
        png=str(png_path),
        rows=tuple(rows),
        seconds=time.perf_counter() - t0,
        note=note,
    )


def _election_point(point: dict[str, Any], *, eps: tuple[float, ...], verts: tuple[Fraction, ...]) -> dict[str, Any]:
    """The rows of one ``(lost, n)`` of :func:`elections_experiment` (one grid point: every ε in one pass)."""
    lost, n = point["lost"], point["n"]
    T = n - int(lost * n)
    rows = []
    for e, r in zip(eps, shm_smoothed_sweep(n, T, eps, list(verts))):
        counts = r.counts or (0,)  # the shm route always states the agents per vertex
        rows.append(
            {
                "lost": str(lost),
                "n": n,
                "T": T,
                "eps": e,
                "delta": r.value,
                "log10_delta": r.log10,
                "error_bound": r.error_bound,
                "truncation_bound": r.truncation_bound,
                "agents_dc": counts[0],
                "agents_ne2": counts[1] if len(counts) > 1 else 0,
                "dp_delta_T_over_n": T / n,
                "one_over_n": 1 / n,
                "seconds": round(r.seconds, 4),
                "complete": r.complete,
            }
        )
    return {"rows": rows}


# ---------------------------------------------------------------------------------------------------- motivating
def motivating_experiment(
    out: str | Path = ".",
    *,
    quick: bool = False,
    progress: bool | None = None,
    lost: Fraction = Fraction(1, 500),
    eps: LevelLike = LogRational(Fraction(51, 49)),
    scheduler: Any = None,
) -> ExperimentResult:
    """``δ(x)`` of SHM at the actual two-party totals of each US presidential election 1920–2020 (Figure 1).

    ``n = D + R`` votes, ``N = R`` (by symmetry ``D`` gives the same value), ``T = n − round(lost·n)`` (0.2% lost),
    ``ε = ln(0.51/0.49)`` (an adversary accuracy threshold of 51%). DP would give ``δ = T/n ≈ 1``. The elections run
    through the grid runner of :func:`privgeom.sweep` (``scheduler`` as in :func:`elections_experiment`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = motivating_experiment(tmp, quick=True)
    >>> [(row["year"], round(row["log10_delta"], 1)) for row in r.rows]
    [(2012, -26.8), (2016, -27.2), (2020, -31.9)]
    """
    t0 = time.perf_counter()
    out = check_output_dir(out, what="out")  # an existing folder: never created (a missing one is an error)
    data = load_elections()
    if quick:
        data = data[-3:]
    points = [
        {"year": d["year"], "democrat_votes": d["democrat_votes"], "republican_votes": d["republican_votes"]}
        for d in data
    ]
    done = run_grid(
        partial(_motivating_point, lost=lost, eps=eps),
        points,
        scheduler=scheduler,
        progress=progress,
        label="motivating",
        errors="raise",
    )
    rows: list[dict[str, Any]] = [{k: v for k, v in r.items() if k not in ("seconds", "error")} for r in done]
    csv_path, png_path = out / "smoothed_motivating.csv", out / "smoothed_motivating.png"
    _write_csv(csv_path, rows)
    fig, (ax,) = _figure(1, width=8.0)
    years = [r["year"] for r in rows]
    ax.bar(years, [r["log10_delta"] for r in rows], width=2.5, label="δ(x) at the actual votes")
    dp_line = math.log10(rows[0]["dp_delta_T_over_n"])  # log10(T/n) ≈ 0: the bars hang far below it
    ax.axhline(dp_line, color="k", linestyle=":", linewidth=2, label=f"DP: T/n (log10 = {dp_line:.4f})")
    finite = [r["log10_delta"] for r in rows if math.isfinite(r["log10_delta"])]
    bottom = min(finite + [dp_line]) if finite else dp_line - 1
    span = max(dp_line - bottom, 1.0)
    # room above the DP line so that it is drawn inside the axes, not on their top border
    ax.set_ylim(bottom - 0.05 * span, dp_line + 0.12 * span)
    ax.set_xlabel("election year")
    ax.set_ylabel("log10 δ(x)")
    ax.set_title(f"US presidential elections, {number_text(float(lost) * 100)}% of votes lost, ε = {eps}")
    ax.legend(fontsize=8)
    fig.savefig(png_path, dpi=110)
    note = f"largest δ(x) = {number_text(max(r['delta'] for r in rows), digits=3)} (year {max(rows, key=lambda r: r['delta'])['year']})"
    return ExperimentResult(
        name="motivating",
        csv=str(csv_path),
        png=str(png_path),
        rows=tuple(rows),
        seconds=time.perf_counter() - t0,
        note=note,
    )


def _motivating_point(d: dict[str, Any], *, lost: Fraction, eps: LevelLike) -> dict[str, Any]:
    """The row of one election of :func:`motivating_experiment` (one grid point)."""
    n = d["democrat_votes"] + d["republican_votes"]
    T = n - round(lost * n)
    r = shm_database_delta(n, T, eps, d["republican_votes"])
    return {
        "n": n,
        "T": T,
        "republican_share": d["republican_votes"] / n,
        "delta": r.value,
        "log10_delta": r.log10,
        "truncation_bound": r.truncation_bound,
        "dp_delta_T_over_n": T / n,
    }


# ---------------------------------------------------------------------------------------------------- SGD
SGD_NS = tuple(range(100, 251, 25))
SGD_EPS = (0.5, 1.0, 3.0)


def sgd_experiment(
    out: str | Path = ".",
    *,
    quick: bool = False,
    progress: bool | None = None,
    databases: int | None = None,
    seed: int = 0,
    ns: Sequence[int] | None = None,
    eps: Sequence[float] = SGD_EPS,
) -> ExperimentResult:
    """One SGD step with 8-bit quantised gradients (Section 6, Figure 2 right).

    Per-example gradients follow the 8-bit quantisation ``⌈256 g⌉ ∈ {−127..128}`` of ``N(0, 0.12²)`` or
    ``N(0.1, 0.12²)`` (the two vertices of ``Π``); a batch of ``T = round(√n)`` examples is sampled without
    replacement and the re-quantised mean ``⌈Σ/T⌉`` is published. For each database the output law and ``δ(x)`` are
    exact (subset-sum dynamic program, :func:`~privgeom.smoothed._subsetsum.sampling_delta`); no output law is
    sampled.

    The expectation over databases is **not** exact at the paper's sizes, and cannot reasonably be: the mechanism
    is anonymous, so ``E[δ(x)] = Σ_h P(h) δ(h)`` over histograms ``h`` of ``n`` records on 256 values — about
    ``C(355, 255) ≈ 10^{90}`` of them for ``n = 100`` — and ``δ(h)`` (a maximum over the replaced and replacing
    values of positive parts of the whole subset-sum law) admits no recursion over counts. So ``E[δ(x)]`` is averaged
    over ``databases`` random databases (common random numbers across vertex counts ``m``), reported with its
    standard error and a rigorous 95% Hoeffding half-width (``δ(x) ∈ [0, T/n]``), for ``m ∈ {0, n/2, n}`` agents at
    ``N(0, 0.12²)``; the plotted value is the largest of these means — an estimate of a *lower bound* of the smoothed
    δ (the maximum runs over every ``m``, Proposition 5). The exact expectation is available for small instances
    (:func:`~privgeom.smoothed._subsetsum.expected_sampling_delta`) and the tests check the estimator against it.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = sgd_experiment(tmp, quick=True, ns=[16], databases=2, eps=[1.0])
    >>> [(row["n"], row["T"], row["agents_at_N(0)"]) for row in r.rows]
    [(16, 4, 0), (16, 4, 16)]
    >>> all(0 < row["mean_delta"] < row["dp_delta_T_over_n"] for row in r.rows)
    True
    """
    t0 = time.perf_counter()
    out = check_output_dir(out, what="out")  # an existing folder: never created (a missing one is an error)
    ns = tuple(ns) if ns is not None else ((100,) if quick else SGD_NS)
    S = databases if databases is not None else (3 if quick else 20)
    if S < 2:
        raise InvalidParameterError("sgd_experiment needs at least 2 databases per point (standard error)")
    ms_of = (lambda n: (0, n)) if quick else (lambda n: (0, n // 2, n))
    check_databases("sgd", sum(len(ms_of(n)) for n in ns) * S)  # sizes before work (and before S x n draws)
    cdfs = [np.cumsum(quantised_gaussian(mu, 0.12)) for mu in (0.0, 0.1)]
    rng = np.random.default_rng(parse_int(seed, name="seed", min=0))
    bar = Progress(sum(len(ms_of(n)) for n in ns) * S, "sgd", enabled=progress)
    rows: list[dict[str, Any]] = []
    for n in ns:
        T = round(math.sqrt(n))
        U = rng.random((S, n))
        for m in ms_of(n):
            vals = np.zeros((S, len(eps)))
            for s in range(S):
                x = np.concatenate(
                    [np.searchsorted(cdfs[0], U[s, :m], side="right"), np.searchsorted(cdfs[1], U[s, m:], side="right")]
                ).clip(0, 255)
                vals[s] = sampling_delta(x.tolist(), T, 256, eps, bin_width=T)
                bar.update(note=f"n={n} m={m}")
            for k, e in enumerate(eps):
                mean, se = float(vals[:, k].mean()), float(vals[:, k].std(ddof=1) / math.sqrt(S))
                rows.append(
                    {
                        "n": n,
                        "T": T,
                        "eps": e,
                        "agents_at_N(0)": m,
                        "mean_delta": mean,
                        "stderr": se,
                        "hoeffding95": hoeffding_halfwidth(T / n, S),
                        "log10_mean_delta": _log10(mean),
                        "databases": S,
                        "dp_delta_T_over_n": T / n,
                    }
                )
    bar.close()
    csv_path, png_path = out / "smoothed_sgd.csv", out / "smoothed_sgd.png"
    _write_csv(csv_path, rows)
    fig, (ax,) = _figure(1, width=6.0)
    for e in eps:
        best = [max((r for r in rows if r["n"] == n and r["eps"] == e), key=lambda r: r["mean_delta"]) for n in ns]
        y = np.maximum(np.array([r["mean_delta"] for r in best]), LOG_FLOOR)
        ses = np.array([r["stderr"] for r in best])
        ly = np.log10(y)
        lower = ly - np.log10(np.maximum(y - 2 * ses, y / 10))
        upper = np.log10(y + 2 * ses) - ly
        ax.errorbar(ns, ly, yerr=[lower, upper], marker="o", capsize=3, label=f"ε = {number_text(e)}")
    ax.plot(ns, [math.log10(round(math.sqrt(n)) / n) for n in ns], "k:", label="T/n (DP)")
    ax.set_xlabel("n (training examples)")
    ax.set_ylabel("log10 δ (mean ± 2 s.e.)")
    ax.set_title("SGD step, 8-bit gradients, batch T = round(√n)")
    ax.legend(fontsize=8)
    fig.savefig(png_path, dpi=110)
    note = (
        f"exact output laws and δ(x) (subset-sum DP); E over {S} random databases per point: Monte Carlo "
        f"(s.e. and rigorous 95% Hoeffding half-width {number_text(hoeffding_halfwidth(max(r['dp_delta_T_over_n'] for r in rows), S), digits=2)} "
        "reported); max over m ∈ {0, n/2, n} only"
    )
    return ExperimentResult(
        name="sgd", csv=str(csv_path), png=str(png_path), rows=tuple(rows), seconds=time.perf_counter() - t0, note=note
    )


# ---------------------------------------------------------------------------------------------------- Theorem 3
TH3_NS = (4, 6, 8, 12, 16, 24, 32)
TH3_LEVELS = (2, 8, 64, 1024)


#: Largest number of random databases (one exact δ(x) each) of one Monte Carlo experiment (``sgd``, ``theorem3``);
#: the defaults use 420 and 840. Registered as ``smoothed_databases``.
MAX_MC_DATABASES = 20_000
register_limit(
    "smoothed_databases",
    globals(),
    "MAX_MC_DATABASES",
    "random databases (one exact δ(x) each) of one Monte Carlo smoothed-DP experiment",
)


def check_databases(name: str, total: int) -> None:
    """Refuse, before drawing anything, a Monte Carlo experiment over more than ``smoothed_databases`` databases."""
    if total > current_limit("smoothed_databases"):
        raise SizeLimitError(
            f"the {name} experiment would evaluate δ(x) on {total:,} random databases (limit smoothed_databases = "
            f"{current_limit('smoothed_databases'):,}), refused before any work; lower --databases or "
            f"{limit_hint('smoothed_databases', total)}"
        )


def hoeffding_halfwidth(bound: float, samples: int, alpha: float = 0.05) -> float:
    """Half-width of a two-sided ``1 − alpha`` Hoeffding interval for the mean of ``samples`` i.i.d. draws in ``[0, bound]``.

    ``δ(x)`` of a sampling mechanism lies in ``[0, T/n]`` (the changed record is sampled with probability ``T/n``), so
    ``|mean − E δ| <= bound·sqrt(ln(2/alpha) / (2·samples))`` with probability ``>= 1 − alpha`` (Hoeffding 1963,
    Theorem 2) — a rigorous, distribution-free statement about a Monte Carlo average (unlike the standard error).

    Examples
    --------
    >>> round(hoeffding_halfwidth(0.1, 20), 4)
    0.0304
    """
    if samples < 1 or not 0 < alpha < 1:
        raise InvalidParameterError(f"need samples >= 1 and 0 < alpha < 1, got {samples}, {alpha}")
    return float(bound) * math.sqrt(math.log(2 / alpha) / (2 * samples))


def sampling_sum_experiment(
    out: str | Path = ".",
    *,
    quick: bool = False,
    progress: bool | None = None,
    databases: int | None = None,
    seed: int = 0,
    T: int = 2,
    eps: float = 1.0,
    ns: Sequence[int] | None = None,
    levels: Sequence[int] | None = None,
    max_histograms: int = 8_000,
) -> ExperimentResult:
    """Theorem 3: the sampling average of finely discretised continuous data is not smoothed-private (``δ ≈ T/n``).

    Records are uniform on ``K`` equally spaced levels (a discretised Uniform[0, 1)); a batch of ``T`` records is
    sampled without replacement and its exact sum (equivalently the average) is published. ``Π`` is the single
    uniform law, so the smoothed δ is ``E[δ(x)]``. It is computed **exactly** (every histogram of the database with
    its multinomial probability and its exact ``δ``, :func:`~privgeom.smoothed._subsetsum.expected_sampling_delta`)
    whenever there are at most ``max_histograms`` histograms — always for ``K = 2``, where it is also cross-checked
    against the SHM fast path (:func:`~privgeom.smoothed.smoothed_delta`, ``method="shm"``, column ``shm_delta``). Beyond that (``C(n + K − 1, K − 1)``
    histograms, e.g. ``~10^{10}`` for ``K = 64, n = 8``) ``E[δ(x)]`` is a Monte Carlo average of exact per-database
    values over ``databases`` random databases, reported with its standard error and a rigorous 95% Hoeffding
    half-width (``δ(x) ∈ [0, T/n]``). As ``K`` grows, subset sums stop colliding and ``δ`` rises to ``T/n``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = sampling_sum_experiment(tmp, ns=[6], levels=[2, 4096], databases=3)
    >>> two, fine = r.rows
    >>> two["method"], round(two["delta"], 3), round(two["shm_delta"], 3)
    ('exact', 0.11, 0.11)
    >>> fine["method"], round(fine["delta"], 3), round(fine["dp_delta_T_over_n"], 3)
    ('monte carlo', 0.333, 0.333)
    """
    t0 = time.perf_counter()
    out = check_output_dir(out, what="out")  # an existing folder: never created (a missing one is an error)
    ns = tuple(ns) if ns is not None else ((4, 6) if quick else TH3_NS)
    levels = tuple(levels) if levels is not None else ((2, 8, 64) if quick else TH3_LEVELS)
    S = databases if databases is not None else (6 if quick else 40)
    if S < 2:
        raise InvalidParameterError(f"sampling_sum_experiment needs at least 2 databases per point, got {S}")
    check_databases("theorem3", S * sum(count_histograms(n, K) > max_histograms for K in levels for n in ns))
    rng = np.random.default_rng(parse_int(seed, name="seed", min=0))
    bar = Progress(len(ns) * len(levels), "theorem3", enabled=progress)
    rows: list[dict[str, Any]] = []
    nan = float("nan")
    for K in levels:
        p = discretised_uniform(K)
        for n in ns:
            row: dict[str, Any] = {"levels": K, "n": n, "T": T, "eps": eps}
            if count_histograms(n, K) <= max_histograms:
                vals, hists = expected_sampling_delta([p], [n], T, [eps], max_histograms=max_histograms)
                row.update(delta=float(vals[0]), method="exact", stderr=0.0, hoeffding95=0.0, samples=hists)
            else:
                mc = np.array([sampling_delta(rng.choice(K, size=n, p=p).tolist(), T, K, [eps])[0] for _ in range(S)])
                row.update(
                    delta=float(mc.mean()),
                    method="monte carlo",
                    stderr=float(mc.std(ddof=1) / math.sqrt(S)),
                    hoeffding95=hoeffding_halfwidth(T / n, S),
                    samples=S,
                )
            row["shm_delta"] = shm_smoothed_sweep(n, T, [eps], [[0.5, 0.5]])[0].value if K == 2 else nan
            row["dp_delta_T_over_n"] = T / n
            rows.append(row)
            bar.update(note=f"K={K} n={n}")
    bar.close()
    csv_path, png_path = out / "smoothed_theorem3.csv", out / "smoothed_theorem3.png"
    _write_csv(csv_path, rows)
    fig, (ax,) = _figure(1, width=6.0)
    for K in levels:
        pts = [r for r in rows if r["levels"] == K]
        line = ax.plot([r["n"] for r in pts], [r["delta"] for r in pts], marker="o", label=f"K = {K} levels")[0]
        mc_pts = [r for r in pts if r["method"] != "exact"]
        if mc_pts:
            ax.errorbar(
                [r["n"] for r in mc_pts],
                [r["delta"] for r in mc_pts],
                yerr=[r["hoeffding95"] for r in mc_pts],
                fmt="none",
                capsize=3,
                color=line.get_color(),
            )
        if K == 2:
            ax.plot(
                [r["n"] for r in pts], [r["shm_delta"] for r in pts], "x", color="k", label="K = 2 via SHM fast path"
            )
    ax.plot(ns, [T / n for n in ns], "k:", linewidth=2, zorder=5, label="T/n (DP)")
    ax.set_xlabel("n")
    ax.set_ylabel("smoothed δ = E[δ(x)]")
    ax.set_title(f"Sampling average, T = {T}, ε = {number_text(eps)}, uniform on K levels")
    ax.legend(fontsize=8)
    fig.savefig(png_path, dpi=110)
    n_mc = sum(r["method"] != "exact" for r in rows)
    note = (
        f"{len(rows) - n_mc} points exact (all histograms); {n_mc} Monte Carlo over {S} databases "
        "(exact δ(x) each; error bars = rigorous 95% Hoeffding half-width)"
    )
    return ExperimentResult(
        name="theorem3",
        csv=str(csv_path),
        png=str(png_path),
        rows=tuple(rows),
        seconds=time.perf_counter() - t0,
        note=note,
    )


#: Name -> experiment function (used by the CLI ``privgeom smoothed figure NAME``).
EXPERIMENTS: dict[str, Callable[..., ExperimentResult]] = {
    "elections": elections_experiment,
    "motivating": motivating_experiment,
    "sgd": sgd_experiment,
    "theorem3": sampling_sum_experiment,
}
