"""Reference compile times of the package's kernels (generated: do not edit by hand).

CPU seconds numba took to compile each kernel (with the kernels it calls) on an
empty cache, in a fresh process per run, for the estimate of
:mod:`pgmpy_nml._compiling`. Written by::

    python benchmarks/bench_startup.py --compile-times pgmpy_nml/_compile_times.py

on 2026-11-29, 2 cores (AMD EPYC), 1-minute load average 1.9-3.7, on 16 (local search)
or 10 (exact search) binary variables of nltcs. Runs: 'local search':
LocalSearch('fnml'), LocalSearch('bdeu'); 'exact search': ExactSearch('fnml'),
ExactSearch('bdeu'), ExactSearch('fnml', method='astar'), ExactSearch('fnml',
method='solver').
"""

#: entry -> its reference runs -> kernel (a serial twin under its kernel's name) -> s
SECONDS: dict[str, list[dict[str, float]]] = {
    "local search": [
        {  # LocalSearch('fnml')
            "pgmpy_nml.search._local._kernels.item_statistics": 15.59,
            "pgmpy_nml.search._local._scan_kernels.cached_best_move": 7.61,
            "pgmpy_nml.numerics.regret._log_regret_many": 0.86,
            "pgmpy_nml.search._local._kernels.plan_items": 0.73,
            "pgmpy_nml.search._local._bit_kernels.state_bits": 0.68,
            "pgmpy_nml.search._local._move_kernels.reachability": 0.41,
            "pgmpy_nml.search._local._kernels.reduce_deferred": 0.39,
            "pgmpy_nml.search._local._screen_kernels.reach_add": 0.09,
        },
        {  # LocalSearch('bdeu')
            "pgmpy_nml.search._local._kernels.item_statistics": 17.03,
            "pgmpy_nml.search._local._scan_kernels.cached_best_move": 8.59,
            "pgmpy_nml.search._local._bit_kernels.state_bits": 0.91,
            "pgmpy_nml.search._local._kernels.plan_items": 0.55,
            "pgmpy_nml.search._local._move_kernels.reachability": 0.40,
            "pgmpy_nml.search._local._screen_kernels.reach_add": 0.11,
        },
    ],
    "exact search": [
        {  # ExactSearch('fnml')
            "pgmpy_nml._counting.subsets._subset_statistics_parallel": 5.83,
            "pgmpy_nml.search._dp._kernels.best_parent_sets_all": 2.27,
            "pgmpy_nml.numerics.regret._log_regret_many": 0.97,
            "pgmpy_nml.search._dp._kernels.best_sinks": 0.17,
        },
        {  # ExactSearch('bdeu')
            "pgmpy_nml._counting.subsets._subset_statistics_parallel": 5.51,
            "pgmpy_nml.search._dp._kernels.best_parent_sets_all": 2.27,
            "pgmpy_nml.numerics.gamma.log_rising": 0.42,
            "pgmpy_nml.search._dp._kernels.best_sinks": 0.17,
        },
        {  # ExactSearch('fnml', method='astar')
            "pgmpy_nml._counting.subsets._listed_statistics": 5.58,
            "pgmpy_nml._counting.subsets._listed_statistics_parallel": 1.76,
            "pgmpy_nml.search.candidates._heuristics._greedy_kernel": 1.28,
            "pgmpy_nml.numerics.regret._log_regret_many": 0.95,
            "pgmpy_nml.search.candidates._astar._expand": 0.90,
            "pgmpy_nml.search.candidates._heuristics._improve_kernel": 0.75,
            "pgmpy_nml.search.candidates._pattern_database._group_table": 0.55,
            "pgmpy_nml.search.candidates._astar._slot": 0.32,
            "pgmpy_nml._counting.subsets.colex_ranks": 0.22,
            "pgmpy_nml.search.candidates._astar._push": 0.20,
            "pgmpy_nml.search.candidates._astar._path": 0.19,
            "pgmpy_nml.search.candidates._pattern_database._h": 0.11,
        },
        {  # ExactSearch('fnml', method='solver')
            "pgmpy_nml._counting.subsets._listed_statistics": 5.10,
            "pgmpy_nml.search.candidates._clusters._peel": 2.78,
            "pgmpy_nml._counting.subsets._listed_statistics_parallel": 1.69,
            "pgmpy_nml.search.candidates._heuristics._greedy_kernel": 1.10,
            "pgmpy_nml.numerics.regret._log_regret_many": 0.99,
            "pgmpy_nml.search.candidates._heuristics._improve_kernel": 0.77,
            "pgmpy_nml._counting.subsets.colex_ranks": 0.24,
        },
    ],
}
