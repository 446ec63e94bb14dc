"""Numbers behind the choices the package makes for the user, importable without numpy.

The choice of search is :func:`pgmpy_nml.search.choose_search`, the one ``"auto"``
policy of :class:`~pgmpy_nml.ExactSearch`, the command line (``pgmpy-nml learn
--method auto``), :func:`~pgmpy_nml.learning_saturation` and
:class:`~pgmpy_nml.analysis.ess.OptimalESS` (``method="auto"``); the thresholds it
shares with the command line's ``--help`` (which must answer without numpy) are here,
with the limits of the command line's data files and of its exact solver.
"""

#: The exact choice takes the subset DP (exact, no parent limit) up to this many
#: variables when no parent limit is given; the tools that search many times (``OptimalESS``,
#: ``learning_saturation``: ``choose_search(..., repeated=True)``) search exactly up to
#: here and climb hills above. Exact search costs O(n^2 2^n) time and O(n 2^n) memory:
#: with the compiled scores (fNML, qNML, BD, BDeu, K2, BIC, AIC, LL) 20 variables and
#: 2000 rows take about 5 s and 250 MB on two cores; every further variable doubles both.
AUTO_EXACT_MAX_VARIABLES = 20

#: ``choose_search``'s ``"auto"`` (the command line's ``--method auto``) runs an exact
#: search up to this many variables (above :data:`AUTO_EXACT_MAX_VARIABLES`: A* or the
#: solver over candidate parent sets; the range of the field's benchmark instances, 17 to
#: 63 variables) and hill climbing above (the command line adds restarts).
AUTO_SOLVER_MAX_VARIABLES = 64

#: The exact engines over candidate parent sets, and the portfolios of two of them (one
#: ``method`` vocabulary for the policy, the estimators and the command line's parser).
CANDIDATE_METHODS = ("astar", "solver", "astar|solver", "solver|solver", "order|solver")

#: Above the subset DP, the exact search over candidate parent sets (A* or the solver)
#: takes at most this many parents per variable unless told otherwise
#: (``max_parents="auto"``; GOBNILP's default), and says so.
SOLVER_DEFAULT_MAX_PARENTS = 3

#: The A* search over candidate parent sets keeps sets of variables as bits of an int64.
ASTAR_MAX_VARIABLES = 63

#: ``pgmpy-nml learn`` stops the exact solver after this many seconds unless
#: ``--time-limit`` says otherwise, and prints the gap and how to go further.
EXACT_TIME_LIMIT = 600.0

#: Above :data:`AUTO_SOLVER_MAX_VARIABLES` variables the command line's ``--method auto``
#: climbs hills with this many order-based restarts (``--restarts`` overrides it): on the
#: density-estimation benchmark (``benchmarks/bench_density.py``, seven real binary data
#: sets) hill climbing with order-based restarts reached a given score with less CPU
#: than tabu search with or without them, and 1,000 restarts took 14 s on pumsb_star (163
#: variables, 12,262 rows) for 0.17 nats per test row more than one climb.
AUTO_RESTARTS = 1000

#: ... and this many where it searches many times over (each fold of ``cv``, each
#: ``--bootstrap`` resample, each structure step of ``--missing em``): on pumsb_star
#: 10 order-based restarts gained 0.031 nats per row over one climb for 30% more CPU.
AUTO_REPEATED_RESTARTS = 10

#: ... and begins no restart after this many seconds unless ``--time-limit`` says
#: otherwise (thousands of variables: a climb takes minutes there).
LOCAL_TIME_LIMIT = 300.0

#: Data files (``pgmpy-nml``): a mostly numeric column with more distinct whole
#: numbers than this looks continuous (an age, a count) and is refused unless
#: declared discrete.
MAX_WHOLE_NUMBER_STATES = 20

#: Data files: a column with at least this many distinct values, more than one per
#: two rows, looks like an identifier and is refused unless declared discrete.
ID_MIN_DISTINCT = 20
