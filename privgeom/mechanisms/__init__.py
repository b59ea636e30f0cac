"""Mechanisms: immutable column-stochastic matrices and their factories."""

from ._catalogue import frapp, frapp_matrix, kary_randomized_response, truncated_geometric
from ._factories import bit_strings, randomized_response
from ._ldp import hadamard_response, local_hashing, subset_selection, unary_encoding
from ._intmat import IntColumns
from ._mechanism import JSON_SCHEMA, Mechanism, mixture

__all__ = [
    "Mechanism",
    "IntColumns",
    "mixture",
    "randomized_response",
    "bit_strings",
    "truncated_geometric",
    "kary_randomized_response",
    "frapp",
    "frapp_matrix",
    "JSON_SCHEMA",
    "unary_encoding",
    "local_hashing",
    "hadamard_response",
    "subset_selection",
]
