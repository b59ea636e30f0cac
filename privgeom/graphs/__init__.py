"""Neighbour relations over datasets, as networkx graphs whose nodes are dataset labels.

One public function, :func:`neighbour_graph`: ``neighbour_graph("hamming", Domain.bits(2))``,
``neighbour_graph(Domain.counts(5), Domain.counts(5))`` (the path), ``neighbour_graph("complete", labels)`` or a user
graph checked against the datasets. Every ``graph=`` parameter of the package accepts the same arguments directly.

Examples
--------
>>> from privgeom import Domain
>>> from privgeom.graphs import neighbour_graph
>>> neighbour_graph("hamming", Domain.bits(3)).number_of_edges()
12
"""

from .._core.removed import removed_names_getattr as _removed_names_getattr
from ._graphs import neighbour_graph

__all__ = ["neighbour_graph"]

#: A removed name raises an AttributeError naming its replacement (privgeom._core.removed; CHANGELOG.md).
__getattr__ = _removed_names_getattr(__name__)
