"""Limits shared by the tools that make a choice for the user.

The command line (``pgmpy-nml learn --method auto``), :func:`~pgmpy_nml.learning_saturation`
and :class:`~pgmpy_nml.OptimalESS` (``method="auto"``) all use the exact search up
to :data:`AUTO_EXACT_MAX_VARIABLES` variables and hill climbing above, so the same
data get the same kind of search everywhere. The command line's data files are
checked against the column limits below.
"""

#: ``auto`` runs the exact (globally optimal) search up to this many variables and
#: hill climbing (a local optimum) above. Exact search costs O(n^2 2^n) time and
#: O(n 2^n) memory: with the compiled scores (fNML, qNML, BD, BDeu, K2, BIC, AIC,
#: LL) 20 variables and 2000 rows take about 5 s and 250 MB on two cores; every
#: further variable doubles both.
AUTO_EXACT_MAX_VARIABLES = 20

#: The A* search over candidate parent sets keeps sets of variables as bits of an int64.
ASTAR_MAX_VARIABLES = 63

#: Data files (``pgmpy-nml``): a mostly numeric column with more distinct whole
#: numbers than this looks continuous (an age, a count) and is refused unless
#: declared discrete.
MAX_WHOLE_NUMBER_STATES = 20

#: Data files: a column with at least this many distinct values, more than one per
#: two rows, looks like an identifier and is refused unless declared discrete.
ID_MIN_DISTINCT = 20

#: The command line's ``--method auto`` and ``exact`` above :data:`AUTO_EXACT_MAX_VARIABLES`
#: variables run the exact solver over candidate parent sets (integer programming); without
#: ``--max-parents`` they use this parent limit, GOBNILP's default, and say so.
SOLVER_DEFAULT_MAX_PARENTS = 3

#: ``pgmpy-nml learn`` stops the exact solver after this many seconds unless
#: ``--time-limit`` says otherwise, and prints the gap and how to go further.
EXACT_TIME_LIMIT = 600.0

#: ``--method auto`` runs the exact solver up to this many variables (the range of the
#: field's benchmark instances, 17 to 63 variables) and tabu search with restarts above.
AUTO_SOLVER_MAX_VARIABLES = 64
