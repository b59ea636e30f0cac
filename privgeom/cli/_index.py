"""The commands of ``privgeom`` by name: the module that registers each and its one-line help.

``privgeom --help`` (or no command, or an unknown one) lists the commands from this table without importing any
command module, and ``privgeom COMMAND ...`` imports only the module of ``COMMAND`` (:func:`privgeom.cli._main.main`):
a fast start, since the command modules import the geometry layer, networkx, scipy, … . The order is the order of
``privgeom --help`` (top-level commands, then groups). tests/test_startup.py checks the table against the
registry that the modules fill (:mod:`privgeom.cli._registry`), so a new command must be added here too.
"""

from __future__ import annotations

__all__ = ["COMMAND_INDEX"]

#: ``name -> (module, help)`` of every top-level command and command group, in ``--help`` order.
COMMAND_INDEX: dict[str, tuple[str, str]] = {
    "analyze": (
        "privgeom.cli._analyze",
        "full report: closure facts, row cone, semantics, relaxation (default rr:k=2,p=3/4)",
    ),
    "closure": (
        "privgeom.cli._core",
        "is a mechanism (JSON file) in the consistent closure of a definition? exit 0 yes / 1 no",
    ),
    "rowcone": (
        "privgeom.cli._core",
        "facets (and extreme rays) of the row cone of a definition: counts, orbits, representatives",
    ),
    "semantics": (
        "privgeom.cli._core",
        "the Bayesian guarantees (S+, S-, attacker prior) of the facets of the row cone, by orbit",
    ),
    "relax": ("privgeom.cli._core", "relax a definition by projection onto subsets (Lin & Kifer §V); recognise ε-DP"),
    "epsilon": (
        "privgeom.cli._profile",
        "exact ε of a mechanism over a neighbour graph, with the edge and output attaining it; exit 1 if ε is infinite",
    ),
    "delta": (
        "privgeom.cli._profile",
        "exact δ(ε) of a mechanism (hockey-stick divergence over neighbours) with its witness edge and event; --curve for the whole profile",
    ),
    "compare": (
        "privgeom.cli._closures",
        "relation of the consistent closures of two definitions (subset, superset, equal, incomparable) with witnesses; exit 0 iff closure(A) ⊆ closure(B)",
    ),
    "optimal": (
        "privgeom.cli._closures",
        "the mechanism maximising expected utility over the closure of a definition (an LP), with an optimality certificate; --objective information: the least mutual information at a utility floor",
    ),
    "design": (
        "privgeom.cli._design",
        "build a new definition from BASE (drop, keep, add guarantees; intersect, hull): what it is, its DP sandwich and the utility it buys; exit 1 when no ε-DP level bounds it",
    ),
    "compose": (
        "privgeom.cli._compose",
        "compose definitions (row cone, closure decided or not, DP sandwich) or mechanisms (-m FILE --k K: exact ε, δ(ε), δ curve); exit 0 when the cone decides / ε is finite",
    ),
    "sweep": (
        "privgeom.cli._sweep",
        "one query over a grid of definitions or mechanisms, in parallel on Dask (Parquet/CSV, resumable)",
    ),
    "shuffle": (
        "privgeom.cli._amplify",
        "the shuffled tally of n users applying a local mechanism: exact δ(ε) at the worst neighbouring pair (or one pair), FMT's bound, the shuffled definition",
    ),
    "subsample": (
        "privgeom.cli._amplify",
        "a mechanism run on a Poisson or without-replacement subsample: exact ε and δ next to Balle-Barthe-Gaboardi's tight bound",
    ),
    "voting": (
        "privgeom.cli._voting",
        "randomized response on two-candidate voting rules (accuracy, influence, welfare, exact epsilon)",
    ),
    "smoothed": (
        "privgeom.cli._smoothed",
        "smoothed differential privacy: database-wise δ, smoothed δ, sampling-histogram mechanism, figures",
    ),
}
