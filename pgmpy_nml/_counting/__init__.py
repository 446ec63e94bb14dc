"""Compiled counting shared by the scores, the estimators and every search.

:mod:`.tables` counts the contingency table of one family; :mod:`.subsets` counts
every variable subset at once into the statistics of all parent sets (the subset
dynamic programming, the candidate pruning and the local search use it).
"""

from .tables import configuration_index, dense_ids, family_table, full_family_table, sum_nlogn

__all__ = ["configuration_index", "dense_ids", "family_table", "full_family_table", "sum_nlogn"]
