"""Neighbour relations over datasets, as networkx graphs whose nodes are dataset labels."""

from ._graphs import complete_graph, edge_index_pairs, hamming_graph, neighbour_graph, path_graph

__all__ = ["hamming_graph", "path_graph", "complete_graph", "neighbour_graph", "edge_index_pairs"]
