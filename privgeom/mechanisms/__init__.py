"""Mechanisms: immutable column-stochastic matrices and their factories."""

from ._factories import bit_strings, randomized_response
from ._mechanism import JSON_SCHEMA, Mechanism, mixture

__all__ = ["Mechanism", "mixture", "randomized_response", "bit_strings", "JSON_SCHEMA"]
