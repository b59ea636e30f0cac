"""Matplotlib figures (Agg-safe: figures are built without pyplot and never shown)."""

from ._cone import cone_slice, cone_slices, plot_privacy_profiles
from ._kov import plot_kov_regimes
from ._profile import plot_delta_curve
from ._sweep import plot_sweep, save_sweep_plot

__all__ = ["plot_delta_curve", "plot_kov_regimes", "cone_slice", "cone_slices", "plot_privacy_profiles", "plot_sweep",
           "save_sweep_plot"]
