"""Neighbour relations over datasets, as networkx graphs whose nodes are dataset labels."""

from ._graphs import complete_graph, hamming_graph, neighbour_graph, path_graph
from ._graphs import edge_index_pairs  # noqa: F401  (internal helper, not public: kept for definitions/_approx_dp.py)

__all__ = ["hamming_graph", "path_graph", "complete_graph", "neighbour_graph"]
