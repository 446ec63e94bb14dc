"""Analysis tools from the papers: what the scores tell about data and structures.

:mod:`~pgmpy_nml.analysis.forest` computes the exact NML of forest-structured
networks, :mod:`~pgmpy_nml.analysis.ess` Steck's optimal equivalent sample size and
:mod:`~pgmpy_nml.analysis.saturation` BDeu's prior sensitivity over growing samples.
They sit above the scores and the searches and import nothing from :mod:`pgmpy_nml.study`
or the command line.
"""
