"""privgeom: privacy definitions as geometry.

Mechanisms are column-stochastic matrices; a privacy definition is a set of them; its consistent closure and row
cone tell what it allows and what it protects (Lin & Kifer's row-cone analysis).
"""

from ._errors import (
    DomainMismatchError,
    FormatError,
    InvalidInputError,
    InvalidMechanismError,
    InvalidParameterError,
    InvalidTypeError,
    PrivgeomError,
    SizeLimitError,
    SolverError,
)
from ._numeric import LogRational
from .graphs import complete_graph, hamming_graph, neighbour_graph, path_graph
from .mechanisms import Mechanism, bit_strings, mixture, randomized_response

__version__ = "0.1.0"

__all__ = [
    "PrivgeomError",
    "InvalidInputError",
    "InvalidTypeError",
    "InvalidMechanismError",
    "InvalidParameterError",
    "FormatError",
    "SizeLimitError",
    "SolverError",
    "DomainMismatchError",
    "LogRational",
    "Mechanism",
    "mixture",
    "randomized_response",
    "bit_strings",
    "hamming_graph",
    "path_graph",
    "complete_graph",
    "neighbour_graph",
]
