"""Mechanisms: immutable column-stochastic matrices and their factories.

The storage types (``IntColumns``), the JSON schema of mechanism files and the matrix kernels live in the private
modules (``privgeom.mechanisms._mechanism``, ``_checks`` (the JSON schema and the input checks), ``_intmat``,
``_catalogue``, ``_factories``, ``_ldp``).

Examples
--------
>>> from privgeom.mechanisms import mixture, randomized_response
>>> mixture([randomized_response(1, "3/4"), randomized_response(1, 1)], ["1/2", "1/2"]).matrix.tolist()
[[Fraction(7, 8), Fraction(1, 8)], [Fraction(1, 8), Fraction(7, 8)]]
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from ._catalogue import frapp, kary_randomized_response, truncated_geometric
from ._factories import randomized_response
from ._ldp import hadamard_response, local_hashing, subset_selection, unary_encoding
from ._mechanism import Mechanism, mixture

__all__ = [
    "Mechanism",
    "mixture",
    "randomized_response",
    "truncated_geometric",
    "kary_randomized_response",
    "frapp",
    "unary_encoding",
    "local_hashing",
    "hadamard_response",
    "subset_selection",
]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
