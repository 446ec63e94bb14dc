r"""Cross-validation of whole learning procedures (bnlearn's ``bn.cv``), and paired comparisons.

A *learning procedure* is a structure search with a score followed by a
parameter estimator (:class:`~pgmpy_nml.study.LearningProcedure`). Each split of
the data trains the procedure on one part and measures a loss on the other:

- ``"log-loss"``: the average negative log predictive probability of the test
  rows, :math:`-\frac{1}{|T|}\sum_{d \in T} \log P(d \mid \hat{\mathcal B})`
  (:func:`~pgmpy_nml.log_loss`, bnlearn's ``"logl"`` with the opposite sign);
- ``"error"``: the classification error of a target variable predicted from all
  the others, :math:`\hat x_t = \arg\max_s P(X_t = s \mid x_{-t})`, which needs only
  the target's Markov blanket (bnlearn's ``"pred"``).

:func:`compare_procedures` runs several procedures on the *same* splits and
reports paired differences, the way the seeds' experiments compare fNML, qNML
and BDeu (Silander, Roos and Myllymäki 2010 report the mean and 1.96 standard
deviations over 100 random 50/50 train-test splits).
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._sparse import inner_fits
from .._validate import as_bool
from ._splits import _splits, cv_splits, user_splits

if TYPE_CHECKING:
    from collections.abc import Hashable
    from typing import Any

    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import RandomState, ScoringMethod, SearchLike, StateNames
    from ._procedure import LearningProcedure

__all__ = [
    "CVComparison",
    "CVResult",
    "compare_procedures",
    "cross_validate",
    "cv_splits",
    "predict_target",
    "user_splits",
]

LOSSES = ("log-loss", "error")


def predict_target(
    model: DiscreteBayesianNetwork, data: pd.DataFrame, target: Hashable
) -> pd.Series:
    r"""The most probable state of ``target`` given every other variable, for each row.

    .. math::

        \hat x_t = \arg\max_s \Bigl[\log \theta_{t \mid \mathrm{pa}(t)}(s)
            + \sum_{c \in \mathrm{ch}(t)} \log \theta_{c \mid \mathrm{pa}(c)}(x_c)
            \big|_{x_t = s}\Bigr],

    exact inference on the target's Markov blanket; ties go to the first state. Missing
    cells in the other columns are summed out (exact, :func:`~pgmpy_nml.log_loss`'s
    ``missing="marginalize"``): then :math:`\hat x_t = \arg\max_s P(X_t = s, x_O)`.

    Parameters
    ----------
    model : pgmpy DiscreteBayesianNetwork
        Fitted.
    data : pandas.DataFrame
        A column for every node (the target's own column is ignored).
    target : hashable
        A node of the model.

    Returns
    -------
    pandas.Series
        The predicted states, indexed like ``data``.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> from pgmpy_nml import FSNMLEstimator
    >>> from pgmpy_nml.study import predict_target
    >>> train = pd.DataFrame({"A": [0, 0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 1, 1]})
    >>> model = DiscreteBayesianNetwork([("A", "B")]).fit(train, estimator=FSNMLEstimator())
    >>> predict_target(model, pd.DataFrame({"A": [0, 1], "B": [0, 1]}), "A").tolist()
    [0, 1]
    """
    if target not in model.nodes():
        raise ValueError(f"target {target!r} is not a node of the model.")
    frame = data.copy()
    cpd_target = {cpd.variable: cpd for cpd in model.get_cpds()}.get(target)
    if cpd_target is None:
        raise ValueError(f"The model has no CPD for {target!r}: fit it first.")
    from ..evaluate import _cpd_log_prob, _encode_for_model, _plan

    states = list(cpd_target.state_names[target])
    frame[target] = states[0]  # the target's own value is not used
    if frame[list(model.nodes())].isna().to_numpy().any():
        # missing cells elsewhere: P(target = s, observed cells), the others summed out
        scores = np.empty((len(states), len(frame)))
        for s, state in enumerate(states):
            frame[target] = state
            _, plan, tables = _plan(model, frame)
            scores[s] = plan.log_likelihood(tables, per_row=True)
        best = np.argmax(scores, axis=0)
        return pd.Series([states[i] for i in best], index=data.index, name=target)
    _, cpds, encoded = _encode_for_model(model, frame)
    codes = encoded.codes.copy()
    involved = [target, *model.successors(target)]
    scores = np.empty((len(states), encoded.n_samples))
    for s in range(len(states)):
        codes[encoded.index[target]] = s
        scores[s] = sum(_cpd_log_prob(cpds[v], encoded, codes) for v in involved)
    best = np.argmax(scores, axis=0)
    return pd.Series([states[i] for i in best], index=data.index, name=target)


def _evaluated(test, loss, target, missing):
    """The test rows a loss is computed on: every row for ``missing="em"`` (the log-loss
    of its observed cells; for ``"error"``, the rows whose target is observed), else the
    complete rows."""
    if missing != "em":
        return test.dropna()  # missing="available": only complete test rows can be evaluated
    if loss == "error":
        return test[test[target].notna()]
    return test


def _loss(model, test, loss, target, base, missing="error"):
    """The loss of ``model`` on ``test``, and why it is infinite (None if it is not)."""
    from ..evaluate import _log_loss

    test = _evaluated(test, loss, target, missing)
    if len(test) == 0:
        return math.nan, None
    if loss == "log-loss":
        return _log_loss(model, test, base, "marginalize" if missing == "em" else "error")
    predicted = predict_target(model, test, target)
    error = np.mean(predicted.astype(str).to_numpy() != test[target].astype(str).to_numpy())
    return float(error), None


def _run_split(procedure, data, train, test, loss, target, base, keep_model, missing="error"):
    start = time.perf_counter()
    with inner_fits():
        fitted = procedure.fresh().fit(data.iloc[train].reset_index(drop=True))
        model = fitted.model_
        value, infinite = _loss(model, data.iloc[test], loss, target, base, missing)
    from ..evaluate import n_parameters

    return {
        "loss": value,
        "infinite": infinite,
        "n_test": len(_evaluated(data.iloc[test], loss, target, missing)),
        "n_edges": fitted.dag_.number_of_edges(),
        "n_parameters": int(n_parameters(model)),
        "seconds": time.perf_counter() - start,
        "model": model if keep_model else None,
    }


@dataclass(frozen=True)
class CVResult:
    """The losses of one learning procedure over cross-validation splits.

    Attributes
    ----------
    folds : pandas.DataFrame
        One row per split: ``run``, ``fold``, ``n_train``, ``n_test``, ``loss``,
        ``n_edges``, ``n_parameters`` (free parameters of the fitted network,
        :func:`~pgmpy_nml.n_parameters`), ``seconds``.
    loss : str
        ``"log-loss"`` or ``"error"``.
    models : list
        The fitted networks, one per split (with ``return_models=True``).

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml.study import CVResult
    >>> folds = pd.DataFrame({"run": [0, 0], "fold": [0, 1], "n_train": [5, 5], "n_test": [5, 5],
    ...                       "loss": [1.0, 2.0], "n_edges": [1, 1], "seconds": [0.1, 0.1]})
    >>> result = CVResult(folds, "log-loss")
    >>> result.mean, round(result.se, 4)
    (1.5, 0.5)
    """

    folds: pd.DataFrame
    loss: str
    models: list = field(default_factory=list, repr=False)

    @property
    def mean(self) -> float:
        """Average loss over the splits."""
        return float(self.folds["loss"].mean())

    @property
    def std(self) -> float:
        """Standard deviation of the loss over the splits (nan when a loss is infinite)."""
        losses = self.folds["loss"]
        if len(losses) < 2 or np.isinf(losses.to_numpy(dtype=float)).any():
            return math.nan
        return float(losses.std(ddof=1))

    @property
    def se(self) -> float:
        """Standard error of the mean loss, ``std / sqrt(n_splits)``."""
        return self.std / math.sqrt(len(self.folds))

    def __str__(self) -> str:
        return (
            f"{self.loss}: {self.mean:.4f} +- {self.se:.4f} (standard error) over "
            f"{len(self.folds)} splits"
        )


def _prepare(data, procedure, scoring_method, settings, loss, target, state_names, missing):
    from .._data import encode_data
    from ._procedure import as_procedure, boundary_missing

    encoded = encode_data(data, state_names, missing=boundary_missing(missing))
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {', '.join(LOSSES)}, got {loss!r}.")
    if loss == "error":
        if target is None:
            raise ValueError('loss="error" needs the target variable to predict (target=...).')
        if target not in data.columns:
            raise ValueError(f"target {target!r} is not a column of the data.")
    procedure = as_procedure(procedure, scoring_method, **settings)
    if procedure.parameter_estimator is None:
        procedure.set_params(parameter_estimator="auto")
    if procedure.state_names is None:
        procedure.set_params(state_names=encoded.state_names)
    if missing in ("available", "em") and procedure.missing == "error":
        procedure.set_params(missing=missing)  # a procedure's own policy is kept
    return procedure


def cross_validate(
    data: pd.DataFrame,
    *,
    method: SearchLike | LearningProcedure = "auto",
    scoring_method: ScoringMethod | None = None,
    scheme: str | None = None,
    k: int | None = None,
    runs: int = 1,
    test_size: int | float | None = None,
    cv: Any = None,
    loss: str = "log-loss",
    target: Hashable | None = None,
    score_params: Mapping[str, Any] | None = None,
    parameter_estimator: DiscreteParameterEstimator | str | None = "auto",
    max_parents: int | None = None,
    state_names: StateNames | None = None,
    missing: str = "error",
    base: float = math.e,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    return_models: bool = False,
    show_progress: bool = False,
) -> CVResult:
    """Cross-validate a learning procedure (bnlearn's ``bn.cv``).

    Every split learns the structure and the parameters on the training rows and
    measures the loss on the test rows (:func:`cv_splits` draws the splits). All
    splits use the states of the whole data, so a state missing from a training
    fold still has a (prior) probability in the fitted tables.

    Parameters
    ----------
    data : pandas.DataFrame
    method : str, search object or LearningProcedure, default "auto"
        A method name (``"auto"``, ``"dp"``, ``"astar"``, ``"solver"``: the exact
        search; ``"hill"``, ``"tabu"``: the local search), a search object or a
        procedure.
        The learning procedure: see :class:`~pgmpy_nml.study.LearningProcedure`.
    scoring_method : str or score object, optional
        With a method name or a search object (default ``"fnml"`` for a name).
    scheme, k, runs, test_size, random_state
        The splits; see :func:`cv_splits` (default ``"k-fold"`` with ``k=10``).
    cv : scikit-learn splitter or list of (train, test), optional
        The user's own splits instead (none of the five above may be given then): a
        splitter such as ``KFold(5, shuffle=True, random_state=0)`` or
        ``StratifiedKFold`` (called as ``cv.split(data, data[target])``), or
        (train, test) pairs of row positions; checked by :func:`user_splits`.
    loss : {"log-loss", "error"}, default "log-loss"
    target : hashable, optional
        The variable to predict, for ``loss="error"``.
    score_params : dict, optional
        Parameters of a score given by name.
    parameter_estimator : "auto" or pgmpy estimator, default "auto"
        "auto": the score's own prior (:func:`~pgmpy_nml.models.default_parameter_estimator`).
    max_parents : int, optional
        The parent limit; it also applies to a :class:`LearningProcedure` given as
        ``method`` (as in :func:`~pgmpy_nml.study.bootstrap_strength`).
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.
    state_names : dict, optional
        Declared states (default: those of ``data``).
    missing : {"error", "drop", "available", "em"}, default "error"
        Missing values: refused; incomplete rows dropped before splitting (with a
        warning that says how many); kept for training with a score that handles
        them (``"pnal"``), the loss then measured on the complete test rows only
        (``n_test`` counts them); or ``"em"``: learned by structural EM
        (:class:`~pgmpy_nml.StructuralEM`) and evaluated on every test row, the
        log-loss of its observed cells (the missing ones summed out,
        :func:`~pgmpy_nml.log_loss` with ``missing="marginalize"``; for
        ``loss="error"``, the rows whose target is observed, predicted from their
        observed cells). A :class:`~pgmpy_nml.study.LearningProcedure` that sets its
        own policy keeps it (compare ``"em"`` against ``"available"`` or ``"drop"``
        on the same test rows with ``missing="em"`` here).
    base : float, default e
        Logarithm base of the log-loss (2 for bits).
    n_jobs : int, optional
        joblib workers over the splits (or a backend from ``joblib.parallel_config``).
        With joblib's process backends the first split runs here and is timed; the
        others go to worker processes (about 3 s each to start) only if they would take
        more than 10 s here, and otherwise run here too, with the same result.
    return_models : bool, default False
        Keep the fitted network of every split in ``models``.
    show_progress : bool, default False
        Report the finished splits on stderr: a progress bar on a terminal,
        otherwise a line every 10 seconds (and at the start and the end).

    Returns
    -------
    CVResult

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.study import cross_validate
    >>> _, data = sample_network("cancer", 500, random_state=0)
    >>> result = cross_validate(data, scoring_method="qnml", k=5, random_state=0)
    >>> result.folds["n_test"].sum(), result.loss
    (np.int64(500), 'log-loss')
    >>> 0 < result.mean < 5
    True
    """
    show_progress = as_bool(show_progress, "show_progress")
    settings: dict[str, Any] = {"score_params": score_params} if score_params else {}
    if not isinstance(method, _procedure_type()):
        settings.update(parameter_estimator=parameter_estimator, max_parents=max_parents)
    elif max_parents is not None:  # as bootstrap_strength: a given limit applies to it too
        settings["max_parents"] = max_parents
    data, splits = _splits(data, cv, scheme, k, runs, test_size, random_state, target, missing)
    procedure = _prepare(data, method, scoring_method, settings, loss, target, state_names, missing)
    results = _run_all(
        {"": procedure},
        data,
        splits,
        loss,
        target,
        base,
        n_jobs,
        return_models,
        show_progress,
        missing,
    )
    _warn_infinite("", results[""])
    return _result(splits, results[""], loss)


def _warn_infinite(name, outputs):
    """Warn, once per procedure, that some splits' log-losses are infinite, and why."""
    from ..evaluate import InfiniteLossWarning

    reasons = [o["infinite"] for o in outputs if o["infinite"] is not None]
    if not reasons:
        return
    who = f"Procedure {name!r}: " if name else ""
    warning = InfiniteLossWarning(
        f"{who}{len(reasons)} of {len(outputs)} splits give an infinite log-loss, so the mean "
        f"is inf and the standard errors are undefined (nan); in the first such split "
        f"{reasons[0]} "
        "Use parameter_estimator='auto' (the score's prior, or fsNML) or FSNMLEstimator() "
        "to keep every probability positive."
    )
    warning.procedure, warning.reason = name, reasons[0]  # for the command line's note
    warnings.warn(warning, stacklevel=3)


def _procedure_type():
    from ._procedure import LearningProcedure

    return LearningProcedure


def _run_all(
    procedures, data, splits, loss, target, base, n_jobs, keep_models, show_progress, missing
):
    from joblib import delayed

    from .._progress import Progress
    from ._workers import run_tasks

    tasks = [(name, split) for split in splits for name in procedures]
    jobs = (
        delayed(_run_split)(
            procedures[name], data, split[2], split[3], loss, target, base, keep_models, missing
        )
        for name, split in tasks
    )
    desc = "cross-validation"
    if len(procedures) > 1:
        desc += f" ({len(procedures)} procedures x {len(splits)} splits)"
    with Progress(len(tasks), desc, "fits", show=show_progress) as progress:
        outputs = run_tasks(jobs, len(tasks), n_jobs, progress)
    results: dict[str, list] = {name: [] for name in procedures}
    for (name, _), out in zip(tasks, outputs, strict=True):
        results[name].append(out)
    return results


def _result(splits, outputs, loss):
    folds = pd.DataFrame(
        {
            "run": [s[0] for s in splits],
            "fold": [s[1] for s in splits],
            "n_train": [len(s[2]) for s in splits],
            "n_test": [o["n_test"] for o in outputs],
            "loss": [o["loss"] for o in outputs],
            "n_edges": [o["n_edges"] for o in outputs],
            "n_parameters": [o["n_parameters"] for o in outputs],
            "seconds": [o["seconds"] for o in outputs],
        }
    )
    models = [o["model"] for o in outputs if o["model"] is not None]
    return CVResult(folds, loss, models)


@dataclass(frozen=True)
class CVComparison:
    """Several learning procedures on the same splits.

    Attributes
    ----------
    results : dict
        Procedure name -> :class:`CVResult`.
    baseline : str
        The procedure the others are compared with.
    summary : pandas.DataFrame
        One row per procedure: ``mean``, ``std``, ``se`` of its loss;
        ``diff`` (mean over splits of its loss minus the baseline's: negative is
        better for both losses), ``diff_se`` (standard error of that paired
        difference, ``sd(d) / sqrt(J)`` over the ``J`` splits), ``diff_se_corrected``
        (Nadeau and Bengio's correction for overlapping training sets,
        ``sqrt((1/J + n_test/n_train) var(d))``), ``wins`` (fraction of splits where
        it beats the baseline), ``mean_edges`` and ``mean_parameters`` (the average
        model size: free parameters of the fitted networks, per split in
        ``results[name].folds["n_parameters"]``).

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.study import compare_procedures
    >>> _, data = sample_network("cancer", 200, random_state=0)
    >>> cmp = compare_procedures(data, {"fNML": "fnml", "qNML": "qnml"}, k=2, random_state=0)
    >>> cmp.baseline, cmp.losses.shape
    ('fNML', (2, 2))
    """

    results: dict
    baseline: str
    summary: pd.DataFrame

    @property
    def losses(self) -> pd.DataFrame:
        """Loss per split (rows, indexed by run and fold) and procedure (columns)."""
        first = next(iter(self.results.values())).folds
        index = pd.MultiIndex.from_arrays([first["run"], first["fold"]], names=["run", "fold"])
        return pd.DataFrame(
            {name: r.folds["loss"].to_numpy() for name, r in self.results.items()}, index=index
        )

    def __str__(self) -> str:
        return self.summary.to_string(float_format=lambda x: f"{x:.4f}")


def compare_procedures(
    data: pd.DataFrame,
    procedures: Mapping[str, LearningProcedure | str],
    *,
    baseline: str | None = None,
    scheme: str | None = None,
    k: int | None = None,
    runs: int = 1,
    test_size: int | float | None = None,
    cv: Any = None,
    loss: str = "log-loss",
    target: Hashable | None = None,
    state_names: StateNames | None = None,
    missing: str = "error",
    base: float = math.e,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    show_progress: bool = False,
) -> CVComparison:
    r"""Cross-validate several learning procedures on the same splits, with paired differences.

    For split :math:`j` let :math:`d_j = L_j(\text{procedure}) - L_j(\text{baseline})`.
    The summary reports :math:`\bar d`, its standard error
    :math:`s_d / \sqrt{J}` and the corrected one of Nadeau and Bengio (2003),
    :math:`\sqrt{(1/J + n_{test}/n_{train})\, s_d^2}`, which accounts for the
    training sets of different splits overlapping (the plain one is too small then).
    Pairing removes the variation between splits that all procedures share, so a
    difference can be clear even when the procedures' own error bars overlap.

    Parameters
    ----------
    data : pandas.DataFrame
    procedures : dict
        Name -> :class:`~pgmpy_nml.study.LearningProcedure`, or a score name for the
        exact search with that score and its own prior for the parameters (e.g.
        ``{"fNML+fsNML": "fnml", "qNML+fsNML": "qnml", "BDeu+Bayes": "bdeu"}``).
    baseline : str, optional
        Default: the first procedure.
    scheme, k, runs, test_size, cv, random_state, loss, target, state_names, missing, base, n_jobs
        As :func:`cross_validate`: drawn splits, or the user's own (``cv``).
    show_progress : bool, default False
        Report each finished fit of a procedure on a split, as :func:`cross_validate`.

    Returns
    -------
    CVComparison

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.study import compare_procedures
    >>> _, data = sample_network("cancer", 300, random_state=0)
    >>> cmp = compare_procedures(data, {"fNML": "fnml", "BDeu": "bdeu"}, k=3, random_state=0)
    >>> list(cmp.summary.columns)  # doctest: +NORMALIZE_WHITESPACE
    ['mean', 'std', 'se', 'diff', 'diff_se', 'diff_se_corrected', 'wins', 'mean_edges',
     'mean_parameters']
    >>> float(cmp.summary.loc["fNML", "diff"])
    0.0

    References
    ----------
    .. [1] C. Nadeau, Y. Bengio. "Inference for the generalization error". Machine
       Learning 52, 2003, 239-281.
    .. [2] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5), 2010,
       Sec. 5.2.
    """
    from ._procedure import LearningProcedure

    show_progress = as_bool(show_progress, "show_progress")
    if not isinstance(procedures, Mapping) or not procedures:
        raise TypeError("procedures must be a non-empty dict of name -> LearningProcedure.")
    data, splits = _splits(data, cv, scheme, k, runs, test_size, random_state, target, missing)
    prepared = {}
    for name, proc in procedures.items():
        if isinstance(proc, str):
            proc = LearningProcedure(scoring_method=proc)
        prepared[name] = _prepare(data, proc, None, {}, loss, target, state_names, missing)
    if baseline is None:
        baseline = next(iter(prepared))
    if baseline not in prepared:
        raise ValueError(f"baseline {baseline!r} is not one of the procedures {list(prepared)}.")
    outputs = _run_all(
        prepared, data, splits, loss, target, base, n_jobs, False, show_progress, missing
    )
    for name in prepared:
        _warn_infinite(name, outputs[name])
    results = {name: _result(splits, outputs[name], loss) for name in prepared}
    reference = results[baseline].folds["loss"].to_numpy()
    n_test = np.mean([len(s[3]) for s in splits])
    n_train = np.mean([len(s[2]) for s in splits])
    rows = {}
    for name, result in results.items():
        with np.errstate(invalid="ignore"):  # inf - inf: nan, reported by _warn_infinite
            d = result.folds["loss"].to_numpy() - reference
        j = len(d)
        # a paired difference with an infinite loss has no variance
        var_d = float(np.var(d, ddof=1)) if j > 1 and np.isfinite(d).all() else math.nan
        with np.errstate(invalid="ignore"):
            rows[name] = {
                "mean": result.mean,
                "std": result.std,
                "se": result.se,
                "diff": float(np.mean(d)),
                "diff_se": math.sqrt(var_d / j) if j > 1 else math.nan,
                "diff_se_corrected": math.sqrt((1 / j + n_test / n_train) * var_d)
                if j > 1
                else math.nan,
                "wins": float(np.mean(d < 0)),
                "mean_edges": float(result.folds["n_edges"].mean()),
                "mean_parameters": float(result.folds["n_parameters"].mean()),
            }
    summary = pd.DataFrame.from_dict(rows, orient="index")
    summary.index.name = "procedure"
    return CVComparison(results, baseline, summary)
