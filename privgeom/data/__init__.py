"""Data files shipped with privgeom (the smoothed-DP paper's election tables); no code."""
