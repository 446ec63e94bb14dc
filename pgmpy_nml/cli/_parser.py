"""The command line's parser: one small function adds each command's arguments.

Building it imports nothing beyond the standard library (and the score registry's names),
so ``--help`` and ``--version`` answer at once; the commands import pandas, pgmpy and
numba when they run.
"""

from __future__ import annotations

import argparse

from .._limits import (
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_RESTARTS,
    AUTO_SOLVER_MAX_VARIABLES,
    CANDIDATE_METHODS,
    EXACT_TIME_LIMIT,
    ID_MIN_DISTINCT,
    LOCAL_TIME_LIMIT,
    MAX_WHOLE_NUMBER_STATES,
    SOLVER_DEFAULT_MAX_PARENTS,
)
from .._version import __version__
from ._argtypes import (
    _comma_list,
    _delimiter,
    _discretization,
    _non_negative_int,
    _positive_float,
    _test_size,
    _time_limit,
    _whole_number_at_least,
    max_parents,
    parent_limit,
    score_name,
    spec_type,
)
from ._requests import ESTIMATORS, MISSING_CHOICES
from .cv import cmd_cv
from .evaluate import cmd_evaluate
from .fit import cmd_fit
from .learn import cmd_learn
from .score import cmd_score


def _score_names(aliases=True):
    """Every name the score registry accepts (canonical names, and aliases unless told not)."""
    from ..scores.registry import score_names

    return score_names(aliases=aliases)


def _score_help(default):
    from ..scores.registry import score_names

    return f"{', '.join(score_names())} (aliases: bic, aic, ll, bdj); default {default}"


class _Renamed(argparse.Action):
    """An old name of an option: sets the new one's value, and records the rename in
    ``renamed`` for the command to say (after the line argparse's errors take)."""

    def __init__(self, option_strings, dest, new_name="", **kwargs):
        self.new_name = new_name
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.renamed = [*getattr(namespace, "renamed", []), (option_string, self.new_name)]
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """argparse, with every error on one line (exit code 2)."""

    def error(self, message):
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_DATA_EPILOG = (
    "Data files: one column per variable, one row per sample, a header of unique names; "
    "the delimiter (, ; tab | space :) is detected. Cells NA, NaN, ? and empty cells are "
    "missing values: such rows are refused unless --dropna drops them (keeping every state "
    "of the file) or --missing says otherwise (em: structural EM, EM parameters or the "
    "observed-data log-loss; available: the scores pnal and nal). R's row-names "
    "column is ignored. A column that looks continuous (decimals, or more than "
    f"{MAX_WHOLE_NUMBER_STATES} distinct whole numbers) or like an identifier (at least "
    f"{ID_MIN_DISTINCT} distinct values, more than one per two rows) is refused: drop it "
    "with --drop-columns, or keep it with --discrete."
)


def _data_args(parser, what="the data"):
    group = parser.add_argument_group("data file")
    group.add_argument(
        "data_file",
        nargs="?",
        metavar="CSV",
        help=f"CSV file of {what} (default: the bundled example data)",
    )
    group.add_argument("--data", metavar="CSV", help="the same, as an option")
    group.add_argument(
        "--delimiter",
        type=_delimiter,
        metavar="CHAR",
        help="field delimiter, e.g. ';' or tab (default: detected)",
    )
    group.add_argument(
        "--na-values",
        type=_comma_list,
        metavar="A,B",
        help="cells that mean a missing value, replacing the default NA,NaN,? (empty cells "
        "are always missing; --na-values '' reads NA as a state)",
    )
    group.add_argument(
        "--dropna", action="store_true", help="drop rows with a missing value, and say how many"
    )
    group.add_argument(
        "--drop-columns", type=_comma_list, default=(), metavar="A,B", help="columns to ignore"
    )
    group.add_argument(
        "--discrete",
        type=_comma_list,
        default=(),
        metavar="A,B",
        help="keep these columns as variables even if they look continuous or like an ID",
    )


#: What each ``--missing`` policy does, in each command's words.
_MISSING_HELP: dict[str, str | dict[str, str]] = {
    "available": "keep them (available) for the scores of incomplete data, pnal and nal, "
    "which score each family on the rows where it is complete (assumes values missing "
    "completely at random)",
    "em": {
        "learn": "learn from every row by structural EM (em: the missing cells filled in "
        "from the network, any score and search; valid when values are missing at "
        "random), parameters by EM",
        "cv": "learn each training split by structural EM (em) and score each test row on "
        "its observed cells, the missing ones summed out",
        "fit": "fit the parameters by EM on every row (em: valid when values are missing "
        "at random)",
        "evaluate": "score each row on its observed cells, the missing ones summed out (em: "
        "the observed-data likelihood that EM maximizes)",
    },
}


def _missing_arg(parser, command):
    """``--missing``: the policies ``command`` offers (``_requests.MISSING_CHOICES``)."""
    choices = MISSING_CHOICES[command]
    ways = ["refuse them (error, the default)", "drop them (drop, as --dropna)"]
    for choice in choices[2:]:
        text = _MISSING_HELP[choice]
        ways.append(text if isinstance(text, str) else text[command])
    parser.add_argument(
        "--missing",
        choices=list(choices),
        help="rows with missing values: " + "; ".join(ways),
    )


def _discretize_arg(parser):
    parser.add_argument(
        "--discretize",
        type=_discretization,
        metavar="METHOD[:BINS]",
        help="cut the continuous columns into BINS intervals (default 3): hartemink "
        "(information-preserving), quantile (equal frequency), quantile-ties (equal "
        "frequency, never splitting a tied value) or interval (equal width); no interval is "
        "left empty; the cut points go to the JSON summary, for evaluate --cut-points",
    )
    parser.add_argument(
        "--discretize-columns",
        type=_comma_list,
        default=(),
        metavar="A,B",
        help="also cut these numeric columns (whole numbers, or ones that look like "
        "identifiers, e.g. a count or a concentration); with --discretize's METHOD[:BINS], "
        "hartemink:3 without it",
    )


def _states_from_arg(parser):
    parser.add_argument(
        "--states-from",
        action="append",
        default=[],
        metavar="FILE",
        help="also declare the states this CSV file holds (e.g. the test or validation "
        "rows, with the same columns), so that the network can score rows with values the "
        "training rows lack; repeatable",
    )


def _cut_points_arg(parser):
    parser.add_argument(
        "--cut-points",
        metavar="JSON",
        help="instead of --discretize: cut the columns where an earlier run cut them, with "
        "its JSON summary (learn --discretize) or a JSON object column -> cut points",
    )


def _method_arg(parser):
    parser.add_argument(
        "--method",
        choices=["auto", "exact", "dp", *CANDIDATE_METHODS, "hill", "tabu"],
        default="auto",
        help=f"exact (globally optimal: subset DP, or A* or integer programming over candidate "
        f"parent sets with --max-parents, default {SOLVER_DEFAULT_MAX_PARENTS} above "
        f"{AUTO_EXACT_MAX_VARIABLES} variables; dp, astar or solver name the engine, and "
        "'astar|solver' or 'solver|solver' run two engines on two cores, the first proof "
        "wins, 'order|solver' an order search for the network beside the solver for the "
        "bound), hill climbing or tabu search (heuristic); auto: exact up to "
        f"{AUTO_SOLVER_MAX_VARIABLES} variables, hill climbing with {AUTO_RESTARTS} order-based "
        "restarts above",
    )
    parser.add_argument(
        "--time-limit",
        type=_time_limit,
        metavar="SECONDS",
        help="stop the exact solver after this long and report the best network with its "
        f"proven gap to the optimum (learn's default: {EXACT_TIME_LIMIT:g} s; 'inf' runs until "
        "proven optimal); a local search with restarts begins none after it (default "
        f"{LOCAL_TIME_LIMIT:g} s)",
    )


def _local_search_args(parser):
    parser.add_argument(
        "--restarts",
        type=spec_type("LocalSearch", "restarts", "--restarts"),
        metavar="N",
        help="restarts of the local search from the best network with --perturb variables "
        "moved in its order "
        f"(default 0; {AUTO_RESTARTS} when --method auto climbs hills above "
        f"{AUTO_SOLVER_MAX_VARIABLES} variables)",
    )
    parser.add_argument(
        "--perturb",
        type=spec_type("LocalSearch", "perturb", "--perturb"),
        default=10,
        metavar="K",
        help="variables moved in the network's order before each restart (default 10)",
    )
    parser.add_argument(
        "--tabu-length",
        type=spec_type("LocalSearch", "tabu_length", "--tabu-length"),
        default=10,
        metavar="L",
        help="networks tabu search remembers, and non-improving steps it allows (default 10)",
    )


def _ess_arg(parser):
    parser.add_argument(
        "--ess",
        type=_positive_float,
        default=1.0,
        help="equivalent sample size (> 0) of the BDeu-type scores and estimator (default 1)",
    )


#: What no ``--max-parents`` means, for its help.
_DEFAULT_LIMIT = (
    f"no limit for the exact search up to {AUTO_EXACT_MAX_VARIABLES} variables, "
    f"{SOLVER_DEFAULT_MAX_PARENTS} for the exact solver above {AUTO_EXACT_MAX_VARIABLES} "
    "variables; hill climbing and tabu search set one on held-out rows only where the rows "
    "are fewer than the variables"
)


def _max_parents_arg(parser):
    parser.add_argument(
        "--max-parents",
        type=max_parents,
        default=None,
        metavar="K",
        help=f"largest number of parents of a variable (default: {_DEFAULT_LIMIT})",
    )


def _parent_limits_arg(parser):
    """``cv``'s ``--max-parents``: one limit or several, each a procedure per score."""
    parser.add_argument(
        "--max-parents",
        nargs="+",
        type=parent_limit,
        default=[None],
        metavar="K",
        help="largest number of parents of a variable; several (e.g. 'default 2') make one "
        "procedure per score and limit, compared on the same splits; 'default' is the "
        f"search's own rule ({_DEFAULT_LIMIT})",
    )


def _structure_args(parser, what):
    """``--model`` or ``--edges``: the given structure (``what`` names it in the help)."""
    parser.add_argument("--model", metavar="BIF", help=f"the {what} (.bif or .xml)")
    parser.add_argument("--edges", action="append", metavar="A->B[,C->D]", help="or its edges")


def _output_args(parser, network=True):
    """``--out`` (the network, when the command writes one) and ``--json`` (the summary)."""
    if network:
        parser.add_argument(
            "--out",
            metavar="FILE",
            help="write the network: .bif, .xml (XMLBIF) or .dot (structure)",
        )
    parser.add_argument("--json", metavar="FILE", help="write a JSON summary")


def _command(sub, name, func, what="the data", **texts):
    """A subcommand running ``func``: its data-file options (``what`` names the data) and help."""
    parser = sub.add_parser(name, epilog=_DATA_EPILOG, **texts)
    _data_args(parser, what)
    parser.set_defaults(func=func)
    return parser


def build_parser():
    """The parser of every command (one-line errors, exit code 2)."""
    parser = _Parser(
        prog="pgmpy-nml",
        description="NML-family scores, fsNML parameters and exact structure learning for "
        "discrete Bayesian networks (a pgmpy plugin). Without a command: learn a network "
        "from the bundled example data.",
        epilog="Run pgmpy-nml COMMAND --help for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"pgmpy-nml {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _learn_parser(sub)
    _score_parser(sub)
    _fit_parser(sub)
    _evaluate_parser(sub)
    _cv_parser(sub)
    return parser


def _params_help(first):
    """``--params auto``'s help: each registered score's own estimator, from its spec."""
    from ..scores.registry import get_score_spec

    by_kind: dict[str, list[str]] = {}
    for name in _score_names(aliases=False):
        by_kind.setdefault(get_score_spec(name).parameter_estimator, []).append(name)
    words = {
        "fsnml-available": "fsnml on each family's complete rows",
        "dirichlet": "the Dirichlet prior (pseudo-count alpha)",
        "bdeu": "the BDeu prior (--ess)",
        "k2": "the K2 prior",
    }
    listed = "; ".join(f"{words.get(k, k)} for {', '.join(v)}" for k, v in by_kind.items())
    return (
        f"{first}auto (default): the score's own prior, as its registration declares "
        f"({listed}); fsnml, not mle, for the likelihood scores, whose mle would give unseen "
        "combinations probability 0"
    )


def _learn_parser(sub):
    learn = _command(
        sub,
        "learn",
        cmd_learn,
        help="learn a network (structure and parameters) from data",
        description="Learn a network's structure, then its parameters, from a CSV file.",
    )
    _learn_search_args(learn.add_argument_group("structure search"))
    learn.add_argument(
        "--params",
        choices=["auto", *ESTIMATORS, "none"],
        default="auto",
        help=_params_help("parameter estimator; "),
    )
    learn.add_argument(
        "--bootstrap",
        type=_non_negative_int,
        default=0,
        metavar="B",
        help="also learn B bootstrap resamples with the same search and report each arc's "
        "strength and direction and the averaged network (seed: --seed, default 0)",
    )
    learn.add_argument(
        "--subsample",
        action="store_true",
        help="with --bootstrap: learn half-size subsamples drawn without replacement "
        "instead of resamples with replacement (advised for fnml, which fits repeated rows)",
    )
    _discretize_arg(learn)
    _missing_arg(learn, "learn")
    _ess_arg(learn)
    _states_from_arg(learn)
    _output_args(learn)
    learn.add_argument(
        "--out-averaged",
        metavar="FILE",
        help="with --bootstrap: write the averaged network (the arcs above the strength "
        "threshold, parameters as --params) to FILE: .bif, .xml or .dot; --out writes the "
        "learned one",
    )


def _learn_search_args(search):
    """``learn``'s structure search: score, method, parent limit, constraints, resources."""
    search.add_argument(
        "--score", choices=_score_names(), default="fnml", metavar="NAME", help=_score_help("fnml")
    )
    _method_arg(search)
    _max_parents_arg(search)
    search.add_argument("--require", action="append", metavar="A->B[,C->D]", help="required edges")
    search.add_argument("--forbid", action="append", metavar="A->B[,C->D]", help="forbidden edges")
    search.add_argument(
        "--tiers",
        metavar="'A,S;E;O,R,T'",
        help="temporal tiers separated by ';' (variables by ','): no edge from a later tier "
        "into an earlier one; variables not listed are free",
    )
    search.add_argument(
        "--max-memory",
        type=spec_type("ExactSearch", "max_memory", "--max-memory", given=True),
        metavar="SIZE",
        help="memory the exact search may use, e.g. 8G (default: 90%% of what is free)",
    )
    search.add_argument(
        "--n-jobs",
        type=spec_type("ExactSearch", "n_jobs", "--n-jobs"),
        metavar="N",
        help="threads of the exact search (default and -1: all cores; -2: all but one)",
    )
    _local_search_args(search)
    search.add_argument(
        "--seed",
        type=spec_type("LocalSearch", "random_state", "--seed"),
        metavar="N",
        help="seed of the local search's random restarts and of --bootstrap (default 0); "
        "ties between equally good moves go to the earlier column. The exact search has no "
        "randomness. Every run with the same data and options gives the same network",
    )


def _score_parser(sub):
    score = _command(
        sub,
        "score",
        cmd_score,
        help="score a given network, per node and in total",
        description="Score a given network on data, per node and in total.",
    )
    _structure_args(score, "network")
    score.add_argument(
        "--scores",
        nargs="+",
        type=score_name,
        choices=_score_names(),
        metavar="NAME",
        help=_score_help("fnml qnml bdeu bic"),
    )
    _missing_arg(score, "score")
    _ess_arg(score)
    _discretize_arg(score)
    _cut_points_arg(score)
    _output_args(score, network=False)


def _fit_parser(sub):
    fit = _command(
        sub,
        "fit",
        cmd_fit,
        help="fit the parameters of a given structure",
        description="Fit the parameters of a given structure.",
    )
    _structure_args(fit, "structure")
    fit.add_argument(
        "--params",
        choices=ESTIMATORS,
        default="fsnml",
        help="parameter estimator (default fsnml: no hyperparameter, every probability "
        "positive; bdeu takes --ess)",
    )
    fit.add_argument(  # its old name (learn and cv call it --params): still taken, with a note
        "--estimator",
        dest="params",
        choices=ESTIMATORS,
        action=_Renamed,
        new_name="--params",
        help=argparse.SUPPRESS,
    )
    _ess_arg(fit)
    _discretize_arg(fit)
    _cut_points_arg(fit)
    _states_from_arg(fit)
    _missing_arg(fit, "fit")
    _output_args(fit)


def _evaluate_parser(sub):
    evaluate = _command(
        sub,
        "evaluate",
        cmd_evaluate,
        "the test data",
        help="log-loss of a fitted network on test data",
        description="Average negative log-probability of test rows under a fitted network.",
    )
    evaluate.add_argument("--model", metavar="BIF", required=True, help="the fitted network")
    evaluate.add_argument("--bits", action="store_true", help="report bits instead of nats")
    evaluate.add_argument(
        "--cut-points",
        metavar="JSON",
        help="cut continuous test columns where training was cut: the JSON summary of "
        "learn --discretize (or a JSON object column -> cut points)",
    )
    _missing_arg(evaluate, "evaluate")
    _output_args(evaluate, network=False)


def _cv_parser(sub):
    cv = _command(
        sub,
        "cv",
        cmd_cv,
        help="cross-validate learning procedures (search + score + parameters) side by side",
        description="Cross-validate whole learning procedures on the same splits and compare "
        "them pairwise: each split learns the structure and the parameters on its training "
        "rows and measures the loss on its test rows.",
    )
    procedure = cv.add_argument_group("procedures")
    procedure.add_argument(
        "--scores",
        nargs="+",
        type=score_name,
        choices=_score_names(),
        metavar="NAME",
        help="one procedure per score, the first the baseline: " + _score_help("fnml qnml bdeu"),
    )
    _method_arg(procedure)
    _parent_limits_arg(procedure)
    procedure.add_argument(
        "--params",
        choices=["auto", *ESTIMATORS],
        default="auto",
        help="parameter estimator; auto (default): each score's own prior",
    )
    _ess_arg(procedure)
    _discretize_arg(procedure)
    _missing_arg(procedure, "cv")
    _cv_split_args(cv.add_argument_group("splits and loss"))
    _output_args(cv, network=False)


def _cv_split_args(splits):
    """``cv``'s splits (folds, runs, hold-out, test size, seed) and its loss."""
    splits.add_argument(
        "--folds",
        type=_whole_number_at_least(2, " (each fold is the test set once)"),
        default=10,
        metavar="K",
        help="folds, or hold-out splits with --hold-out (at least 2; default 10)",
    )
    splits.add_argument(
        "--runs",
        type=_whole_number_at_least(1),
        default=1,
        metavar="R",
        help="repetitions (default 1)",
    )
    splits.add_argument(
        "--hold-out",
        action="store_true",
        help="K random train/test splits instead of K folds (see --test-size)",
    )
    splits.add_argument(
        "--test-size",
        type=_test_size,
        metavar="N",
        help="hold-out test rows: a count, or a fraction below 1 (default: rows / K)",
    )
    splits.add_argument(
        "--loss",
        choices=["log-loss", "error"],
        default="log-loss",
        help="log-loss (nats per test row, default) or classification error of --target",
    )
    splits.add_argument("--target", metavar="VARIABLE", help="the variable --loss error predicts")
    splits.add_argument(
        "--seed",
        type=spec_type("LocalSearch", "random_state", "--seed"),
        metavar="N",
        help="seed of the splits (default 0)",
    )
