"""Figure 2 of the referendum paper: accuracy of ``M_ρ Maj_n`` against ``n`` for several ``ρ``.

Each curve is the exact accuracy (the closed-form majority spectrum, float) over odd ``n``; the dashed line at
``1/2 + arcsin(ρ)/π`` is its limit (Equation (3), Sheppard's formula). Drawn with the object-oriented matplotlib API
and the Agg canvas — no ``pyplot`` state, nothing shown.

Examples
--------
>>> data = figure2_data(rhos=(0.5,), n_max=5)
>>> data["n"], [round(a, 6) for a in data["accuracy"][0.5]], round(data["limit"][0.5], 6)
([1, 3, 5], [0.75, 0.703125, 0.687744], 0.666667)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from .._errors import InvalidParameterError
from ._accuracy import accuracy, majority_accuracy_limit
from ._common import parse_rho
from ._rules import majority

__all__ = ["figure2", "figure2_data", "save_figure2", "FIGURE2_RHOS"]

#: Default correlations drawn in Figure 2.
FIGURE2_RHOS = (0.1, 0.3, 0.5, 0.7, 0.9)


def figure2_data(rhos: Sequence[Any] = FIGURE2_RHOS, n_max: int = 101) -> dict[str, Any]:
    """The numbers behind Figure 2: ``{"n": odd n, "accuracy": {ρ: [...]}, "limit": {ρ: 1/2 + arcsin(ρ)/π}}``."""
    if isinstance(n_max, bool) or not isinstance(n_max, int) or n_max < 1:
        raise InvalidParameterError(f"n_max must be a positive integer, got {n_max!r}")
    values = [float(parse_rho(r).rho) for r in rhos]
    if not values:
        raise InvalidParameterError("Figure 2 needs at least one rho")
    ns = list(range(1, n_max + 1, 2))
    acc = {r: [float(accuracy(majority(n), r)) for n in ns] for r in values}
    return {"n": ns, "accuracy": acc, "limit": {r: majority_accuracy_limit(r) for r in values}}


def figure2(rhos: Sequence[Any] = FIGURE2_RHOS, n_max: int = 101) -> Any:
    """A matplotlib ``Figure`` reproducing Figure 2 (accuracy of majority vs ``n``, with the arcsin limits)."""
    from matplotlib.figure import Figure

    data = figure2_data(rhos, n_max)
    fig = Figure(figsize=(7.0, 4.5), layout="constrained")
    ax = fig.add_subplot()
    colours = [f"C{i % 10}" for i in range(len(data["accuracy"]))]
    for colour, (rho, acc) in zip(colours, data["accuracy"].items()):
        ax.plot(data["n"], acc, marker="o", markersize=2.5, linewidth=1.2, color=colour, label=f"ρ = {rho:g}")
        ax.axhline(data["limit"][rho], color=colour, linestyle="--", linewidth=0.8)
    ax.set_xlabel("number of voters n (odd)")
    ax.set_ylabel("accuracy  P[M_ρ Maj_n(x) = Maj_n(x)]")
    ax.set_title("Randomized response on majority (Figure 2); dashed: 1/2 + arcsin(ρ)/π")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize="small")
    return fig


def save_figure2(path: str | Path, rhos: Sequence[Any] = FIGURE2_RHOS, n_max: int = 101, *, dpi: int = 120) -> Path:
    """Write Figure 2 as a PNG to ``path`` (a file, or a directory that gets ``voting_figure2.png``); returns the path."""
    target = Path(path)
    if target.suffix.lower() != ".png":
        target = target / "voting_figure2.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    figure2(rhos, n_max).savefig(target, dpi=dpi, format="png")
    return target
