"""The local-search engine that :class:`~pgmpy_nml.LocalSearch` drives.

- ``rows``: local scores of every one-edge change of a child (compiled counting of
  the score's statistics, or the score's ``local_score``), from ``_kernels``;
- ``engine``: the search state (network, closure, local-score table) and its moves,
  from ``_move_kernels``;
- ``climb``: the searches (greedy and tabu climbs, perturbed restarts, candidate
  rounds);
- ``screen``: the candidate parents of the sparse candidate algorithm, from
  ``_screen_kernels``.

Lower layers only: this package never imports the estimators, the subset DP or the
candidate pipeline.
"""
