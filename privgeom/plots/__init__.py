"""Matplotlib figures (Agg-safe: figures are built without pyplot and never shown)."""

from ._profile import plot_delta_curve

__all__ = ["plot_delta_curve"]
