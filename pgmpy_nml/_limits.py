"""Size limits shared by the tools that choose a search for the user.

The command line (``pgmpy-nml learn --method auto``), :func:`~pgmpy_nml.learning_saturation`
and :class:`~pgmpy_nml.OptimalESS` (``search="auto"``) all use the exact search up
to :data:`AUTO_EXACT_MAX_VARIABLES` variables and hill climbing above, so the same
data get the same kind of search everywhere.
"""

#: ``auto`` runs the exact (globally optimal) search up to this many variables and
#: hill climbing (a local optimum) above. Exact search costs O(n^2 2^n) time and
#: O(n 2^n) memory: with the compiled scores (fNML, qNML, BD, BDeu, K2, BIC, AIC,
#: LL) 20 variables and 2000 rows take about 5 s and 250 MB on two cores; every
#: further variable doubles both.
AUTO_EXACT_MAX_VARIABLES = 20
