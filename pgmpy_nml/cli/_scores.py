"""The scores and parameter estimators the flags name (the library's registry builds them),
and the fitting of a network's parameters."""

from __future__ import annotations

from ..exceptions import InputError
from ._errors import UserError
from ._inputs import Data


def score_names(aliases: bool = True) -> list[str]:
    """Every name the score registry accepts (canonical names, and aliases unless told not)."""
    from ..scores.registry import score_names as names

    return names(aliases=aliases)


def check_missing_scores(data: Data, names, flag: str) -> None:
    """With --missing available and missing cells, every score must take incomplete data
    (the parameters of every --params count each family on its complete rows)."""
    if not data.frame.isna().to_numpy().any():
        return
    from ..scores import get_score_spec

    takes = [n for n in score_names() if _takes_missing(get_score_spec(n))]
    refused = [n for n in names if not _takes_missing(get_score_spec(n))]
    if refused:
        raise UserError(
            f"--missing available keeps rows with missing values, which only the scores for "
            f"incomplete data take ({', '.join(takes)}); {flag} {refused[0]} refuses them: use "
            f"{flag} {takes[-1]}, or drop those rows with --dropna"
        )


def _takes_missing(spec) -> bool:
    """Whether a registered score scores incomplete data (each family on its complete rows)."""
    return getattr(spec.load(), "_missing", "error") == "available"


def make_score(name: str, data: Data, ess: float, states: dict | None = None):
    """The score ``name`` on ``data``, its states declared (``states``, default the data's:
    those of the file, also those only dropped rows held)."""
    from ..scores import get_score_spec
    from ..scores import make_score as make

    params = {}
    if "equivalent_sample_size" in get_score_spec(name).params:
        params["equivalent_sample_size"] = ess
    declared = data.states if states is None else states
    return make(name, data.frame, state_names=declared or None, **params)


def score_parameters(score) -> dict[str, float]:
    """The parameters a score was built with (for the JSON summary)."""
    names = {"equivalent_sample_size": "ess", "alpha": "alpha", "epsilon": "epsilon"}
    return {key: float(getattr(score, attr)) for attr, key in names.items() if hasattr(score, attr)}


def estimator(name: str, ess: float, incomplete: bool = False):
    """The estimator of --params ``name``; ``incomplete``: the data keep missing cells
    (--missing available), which fsNML then counts family by family. Built by the
    library's one builder of estimators by name."""
    from ..models import _parameter_estimator

    kind = "fsnml-available" if name == "fsnml" and incomplete else name
    return _parameter_estimator(kind, values={"equivalent_sample_size": ess})


def score_estimator(name: str, ess: float):
    """``--params auto``: the parameter estimator of the score ``name`` with ``--ess``
    (:func:`~pgmpy_nml.models.default_parameter_estimator`)."""
    from ..models import default_parameter_estimator
    from ..scores import get_score_spec

    if "equivalent_sample_size" in get_score_spec(name).params:
        return default_parameter_estimator(name, equivalent_sample_size=ess)
    return default_parameter_estimator(name)


def fit(dag, data: Data, params: str, ess: float, score: str = "fnml", em: bool = False):
    """Fit ``dag`` on ``data`` with --params ``params`` (``"auto"``: the prior of the score
    named ``score``, :func:`score_estimator`); every state of ``data`` is a state of the
    network. ``em`` (``--missing em``): by EM over the missing cells, the M-step that
    estimator's formula (:class:`~pgmpy_nml.EMEstimator`)."""
    from ..models import fit_network

    incomplete = bool(data.frame.isna().to_numpy().any())
    if params == "auto":
        chosen = score_estimator(score, ess)
    else:
        chosen = estimator(params, ess, incomplete and not em)
    if em and incomplete:
        from ..estimators import EMEstimator

        chosen = EMEstimator(m_step_estimator=chosen)
    try:
        return fit_network(dag, data.frame, chosen, state_names=data.states or None)
    except InputError as err:  # a table too large to fit: say it in flags
        search_flag = "set the search's max_parents"
        if search_flag not in str(err):
            raise
        words = str(err).replace(
            search_flag, "learn with --max-parents; --params none writes the structure alone"
        )
        raise UserError(words) from None


def estimator_label(params: str, score: str, ess: float) -> str:
    """What ``--params`` chose, in words (``auto`` says which prior of the score named
    ``score``)."""
    if params != "auto":
        return params
    chosen = score_estimator(score, ess)
    kind = type(chosen).__name__
    if kind == "FSNMLEstimator":
        return "auto: fsnml"
    if kind == "DiscreteMLE":
        return "auto: mle"
    prior = chosen.prior_type
    if prior == "BDeu":
        return f"auto: bdeu prior, ess {chosen.equivalent_sample_size:g}"
    if prior == "dirichlet":
        return f"auto: dirichlet prior, pseudo-count {chosen.pseudo_counts:g}"
    return f"auto: {prior.lower()} prior"
