"""Exporting an edge's exact privacy-loss distribution to Google's ``dp_accounting`` (optional extra ``accountants``).

A user who composes a privgeom mechanism with Gaussian or Laplace mechanisms in the accountant they already use
needs the mechanism's privacy-loss distribution in that accountant's type. :func:`to_dp_accounting` builds
``dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution`` from the two output distributions of a
directed edge (``from_two_probability_mass_functions``: the pessimistic or optimistic discretisation of the loss
``ln(P(ω | D) / P(ω | D'))``, Sommer, Meiser & Mohammadi 2019; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022
for the connect-the-dots/rounding variants). :func:`dp_accounting_bracket` composes it ``k`` times and returns the
accountant's bracket ``[optimistic, pessimistic]`` of δ(ε), which must contain privgeom's exact value.

Examples
--------
>>> import pytest; _ = pytest.importorskip("dp_accounting")
>>> from privgeom import compose, randomized_response
>>> M = randomized_response(1, "3/4")
>>> lo, hi = dp_accounting_bracket(M, ("1", "0"), 10, 1.0)
>>> lo <= float(compose(M, k=10).delta([("1", "0")], 1.0).delta) <= hi
True
"""

from __future__ import annotations

import math
from typing import Any

from ..._core.errors import MissingDependencyError
from ...mechanisms._mechanism import Mechanism

__all__ = ["to_dp_accounting", "dp_accounting_bracket", "to_prv_accountant"]


def _pld_module() -> Any:
    try:
        from dp_accounting.pld import privacy_loss_distribution
    except ImportError as exc:  # pragma: no cover - the extra is installed in the test environment
        raise MissingDependencyError(
            "exporting to dp_accounting needs the optional extra: "
            "pip install 'privgeom[accountants]' (or pip install dp_accounting)"
        ) from exc
    return privacy_loss_distribution


def to_dp_accounting(
    mechanism: Mechanism,
    edge: tuple[str, str],
    *,
    pessimistic: bool = True,
    value_discretization_interval: float = 1e-4,
) -> Any:
    """The privacy-loss distribution of ``mechanism`` on the directed edge ``(D, D')`` as a ``dp_accounting``
    ``PrivacyLossDistribution`` (its ``from_two_probability_mass_functions``, with the accountant's default
    discretisation unless given; ``pessimistic=False`` gives the optimistic estimate). Outputs impossible on both
    datasets are left out; outputs impossible on ``D'`` only become the accountant's infinite-loss mass.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("dp_accounting")
    >>> from privgeom import randomized_response
    >>> pld = to_dp_accounting(randomized_response(1, "3/4"), ("1", "0"))
    >>> 0.5 <= float(pld.get_delta_for_epsilon(0.0)) < 0.5001    # δ(0) = 1/2 exactly, rounded up
    True
    """
    pld = _pld_module()
    i, j = (mechanism.inputs.index(e) for e in edge)
    X = mechanism.float_matrix()
    upper = {w: math.log(float(X[w, i])) for w in range(mechanism.n_outputs) if X[w, i] > 0}
    lower = {w: math.log(float(X[w, j])) for w in range(mechanism.n_outputs) if X[w, j] > 0}
    # dp_accounting's δ(ε) is sup_S μ_upper(S) − e^ε μ_lower(S): upper is P(· | D), lower is P(· | D')
    return pld.from_two_probability_mass_functions(
        log_probability_mass_function_lower=lower,
        log_probability_mass_function_upper=upper,
        pessimistic_estimate=pessimistic,
        value_discretization_interval=value_discretization_interval,
        symmetric=True,
    )


def dp_accounting_bracket(
    mechanism: Mechanism, edge: tuple[str, str], k: int, eps: float, **options: Any
) -> tuple[float, float]:
    """``(optimistic, pessimistic)`` δ(ε) of the ``k``-fold composition on one directed edge, from
    ``dp_accounting`` (``self_compose`` of the exported distribution)."""
    out = []
    for pess in (False, True):
        p = to_dp_accounting(mechanism, edge, pessimistic=pess, **options)
        out.append(
            float(p.self_compose(k).get_delta_for_epsilon(eps)) if k > 1 else float(p.get_delta_for_epsilon(eps))
        )
    return out[0], out[1]


def to_prv_accountant(mechanism: Mechanism, edge: tuple[str, str]) -> Any:
    """The privacy random variable of ``mechanism`` on the directed edge ``(D, D')`` for Microsoft's
    ``prv_accountant`` (Gopi, Lee & Wutschitz 2021): the loss ``ln(P(ω | D) / P(ω | D'))`` under ``D``, a step
    CDF over the finite ratio classes, with the mass of outputs impossible on ``D'`` as ``pm_inf``.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("prv_accountant")
    >>> from privgeom import randomized_response
    >>> prv = to_prv_accountant(randomized_response(1, "3/4"), ("1", "0"))
    >>> float(prv.cdf(0.0)), float(prv.cdf(1.2))
    (0.25, 1.0)
    """
    try:
        from prv_accountant.privacy_random_variables import PrivacyRandomVariable
    except ImportError as exc:  # pragma: no cover
        raise MissingDependencyError("exporting to prv_accountant needs pip install prv_accountant") from exc
    import numpy as np

    from ._loss import INF, ratio_classes

    i, j = (mechanism.inputs.index(e) for e in edge)
    classes = ratio_classes(mechanism, i, j)
    finite = [(math.log(float(c.ratio)), float(c.p)) for c in classes if c.ratio != INF and c.ratio != 0]
    p_inf = sum(float(c.p) for c in classes if c.ratio == INF)
    losses = np.array([x for x, _ in finite])
    masses = np.array([m for _, m in finite]) / (1.0 - p_inf if p_inf < 1 else 1.0)

    class _FinitePRV(PrivacyRandomVariable):
        def cdf(self, t: Any) -> Any:
            t = np.asarray(t, dtype=float)
            return (masses[None, :] * (losses[None, :] <= t.reshape(-1, 1))).sum(axis=1).reshape(t.shape)

        def rdp(self, alpha: float) -> float:  # Rényi divergence of order alpha of the finite part (Mironov 2017)
            return float(np.log(np.sum(masses * np.exp((alpha - 1) * losses))) / (alpha - 1))

        @property
        def pm_inf(self) -> float:
            return p_inf

    return _FinitePRV()
