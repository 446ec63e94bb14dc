"""One registry of score names: what the command line, the searches and the tools accept.

:func:`make_score` builds a score from a name, data and parameters;
:func:`score_names` lists the names; :func:`register_score` adds a score (your
own, for example), after which every entry point that takes a score name takes
the new one too. The names follow pgmpy's where pgmpy has the score (``bdeu``,
``k2``, ``bic-d``, ``aic-d``, ``ll-d``, ``bds``), with bnlearn's short forms as
aliases (``bic``, ``aic``, ``ll``, ``bdj``).
"""

from __future__ import annotations

import importlib
import inspect
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from .._typing import Score, StateNames

__all__ = [
    "ScoreSpec",
    "get_score_spec",
    "make_score",
    "register_score",
    "resolve_score",
    "score_names",
    "spec_for_score",
    "unregister_score",
]


@dataclass(frozen=True)
class ScoreSpec:
    """A registered score.

    Attributes
    ----------
    name : str
        The canonical name.
    factory : callable or str
        ``factory(data, state_names=None, **params)`` returns a score object; a
        string ``"module:name"`` (a module of this package) is imported on first use,
        so that listing the names imports nothing heavy.
    params : dict
        The parameters ``make_score`` accepts, with their defaults.
    aliases : tuple of str
        Other names for the same score.
    score_equivalent : bool or None
        Whether Markov-equivalent DAGs always get the same score (None: unknown).
    description : str
        One line for listings and ``--help``.
    parameter_estimator : str
        The parameters that match the score (its own prior), one of
        :data:`~pgmpy_nml.scores.registry.PARAMETER_ESTIMATORS`: what
        :func:`~pgmpy_nml.models.default_parameter_estimator`, the searches' defaults,
        the study tools and the command line's ``--params auto`` fit.
    """

    name: str
    factory: Callable | str
    params: dict = field(default_factory=dict)
    aliases: tuple = ()
    score_equivalent: bool | None = None
    description: str = ""
    parameter_estimator: str = "fsnml"

    def load(self) -> Callable:
        """The factory itself (imported on first use when given as ``"module:name"``)."""
        if not isinstance(self.factory, str):
            return self.factory
        module, _, attr = self.factory.partition(":")
        return getattr(importlib.import_module(f"pgmpy_nml.{module}"), attr)


#: The parameter estimators a score can declare as its own
#: (``register_score(..., parameter_estimator=...)``): ``"fsnml"`` (fsNML, no
#: hyperparameter), ``"fsnml-available"`` (fsNML on the rows complete on each family, for
#: the scores of incomplete data), ``"bdeu"`` (the BDeu prior with the score's
#: ``equivalent_sample_size``), ``"dirichlet"`` (pseudo-count ``alpha`` per cell),
#: ``"k2"`` (pseudo-count 1) and ``"mle"`` (maximum likelihood: unseen configurations
#: get probability 0).
PARAMETER_ESTIMATORS = ("fsnml", "fsnml-available", "bdeu", "dirichlet", "k2", "mle")

_SPECS: dict[str, ScoreSpec] = {}
#: pgmpy's score classes (new and legacy API) -> the registered score they compute
_PGMPY_CLASSES = {
    "BDeu": "bdeu",
    "K2": "k2",
    "BIC": "bic-d",
    "AIC": "aic-d",
    "LogLikelihood": "ll-d",
    "LogLikeliHood": "ll-d",
    "BDs": "bds",
}
_LOOKUP: dict[str, str] = {}


def register_score(
    name: str,
    factory: Callable | str,
    *,
    params: dict | None = None,
    aliases: Sequence[str] = (),
    score_equivalent: bool | None = None,
    description: str = "",
    replace: bool = False,
    parameter_estimator: str = "fsnml",
) -> ScoreSpec:
    """Add a score to the registry.

    Parameters
    ----------
    name : str
        Canonical name (case-insensitive).
    factory : callable or str
        ``factory(data, state_names=None, **params)``; a score class usually is one.
        A string ``"module:name"`` names one in this package, imported on first use.
    params : dict, optional
        Accepted parameters and their defaults. By default, the keyword parameters
        of ``factory`` other than ``data`` and ``state_names``.
    aliases : str or iterable of str
        Other names (a single string is one alias).
    score_equivalent : bool, optional
    description : str
    replace : bool, default False
        Allow replacing an existing registration of ``name`` or an alias.
    parameter_estimator : str, default "fsnml"
        The parameters that match the score, one of
        :data:`~pgmpy_nml.scores.registry.PARAMETER_ESTIMATORS` (``"bdeu"`` for a
        BDeu-type score, say): the default of
        :func:`~pgmpy_nml.models.default_parameter_estimator` and ``--params auto``.

    Returns
    -------
    ScoreSpec

    Raises
    ------
    TypeError
        For a name or alias that is not a string, a factory that is not callable
        (nor ``"module:name"``); :func:`make_score` raises it when the factory returns
        something without ``local_score``, naming the registered score.
    ValueError
        For an empty name or alias, or one already registered (without ``replace``).

    Examples
    --------
    >>> from pgmpy_nml.scores import BDConstant, make_score, register_score, unregister_score
    >>> spec = register_score("bd-2", lambda data, state_names=None: BDConstant(
    ...     data, alpha=2.0, state_names=state_names), replace=True)
    >>> import pandas as pd
    >>> round(make_score("bd-2", pd.DataFrame({"A": [0, 1, 1]})).local_score("A", []), 4)
    -2.3026
    >>> unregister_score("bd-2")
    """
    key = _checked_name(name, "name")
    if isinstance(aliases, str):  # one alias, not its letters
        aliases = (aliases,)
    elif not isinstance(aliases, Iterable):
        raise TypeError(
            f"aliases must be a string or a sequence of strings, got {type(aliases).__name__}."
        )
    aliases = tuple(_checked_name(a, "alias") for a in aliases)
    _check_factory(factory, key)
    if score_equivalent not in (True, False, None):
        raise TypeError(f"score_equivalent must be True, False or None, got {score_equivalent!r}.")
    if params is None:
        params = _keyword_defaults(factory)
    elif not isinstance(params, Mapping):
        raise TypeError(f"params must be a dict of parameter -> default, got {params!r}.")
    if parameter_estimator not in PARAMETER_ESTIMATORS:
        raise ValueError(
            f"parameter_estimator must be one of {', '.join(map(repr, PARAMETER_ESTIMATORS))}, "
            f"got {parameter_estimator!r}."
        )
    spec = ScoreSpec(
        key,
        factory,
        dict(params),
        aliases,
        score_equivalent,
        str(description),
        parameter_estimator,
    )
    names = (spec.name, *spec.aliases)
    taken = [n for n in names if n in _LOOKUP and _LOOKUP[n] != spec.name]
    if (taken or spec.name in _SPECS) and not replace:
        raise ValueError(
            f"Score name(s) {taken or [spec.name]} are already registered; pass replace=True "
            "to replace them."
        )
    _SPECS[spec.name] = spec
    for n in names:
        _LOOKUP[n] = spec.name
    return spec


def _checked_name(name: Any, what: str) -> str:
    """A registry name: a non-empty string without surrounding blanks, lower-cased."""
    if not isinstance(name, str):
        raise TypeError(f"A score's {what} must be a string, got {type(name).__name__} {name!r}.")
    if not name.strip():
        raise ValueError(f"A score's {what} must be a non-empty string, got {name!r}.")
    if name != name.strip():
        raise ValueError(f"A score's {what} must not start or end with blanks, got {name!r}.")
    return name.lower()


def _check_factory(factory: Any, name: str) -> None:
    """A factory is a callable or ``"module:name"`` of this package."""
    if isinstance(factory, str):
        module, colon, attr = factory.partition(":")
        if not (colon and module and attr):
            raise ValueError(
                f"The factory of score {name!r} is the string {factory!r}; a string factory "
                'must be "module:name" of this package (e.g. "scores.fnml:FNML"): give the '
                "callable itself."
            )
    elif not callable(factory):
        raise TypeError(
            f"The factory of score {name!r} must be callable as factory(data, "
            f"state_names=None, **params) (a score class, say), got "
            f"{type(factory).__name__} {factory!r}."
        )


def _checked_score(score: Any, spec: ScoreSpec) -> Any:
    """What a factory built, if it is a score; else a message that names the registration."""
    if not callable(getattr(score, "local_score", None)):
        raise TypeError(
            f"The factory registered as score {spec.name!r} returned a "
            f"{type(score).__name__}, not a score (an object with "
            "local_score(variable, parents)); fix the factory and register it again with "
            "replace=True."
        )
    return score


def unregister_score(name: str) -> None:
    """Remove a registered score and its aliases.

    Parameters
    ----------
    name : str
        The canonical name or an alias.

    Examples
    --------
    >>> from pgmpy_nml.scores import BDConstant, register_score, score_names, unregister_score
    >>> _ = register_score("bd-3", BDConstant)
    >>> unregister_score("bd-3")
    >>> "bd-3" in score_names()
    False
    """
    spec = get_score_spec(name)
    del _SPECS[spec.name]
    for n in (spec.name, *spec.aliases):
        _LOOKUP.pop(n, None)


def _keyword_defaults(factory) -> dict:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return {}
    return {
        p.name: p.default
        for p in signature.parameters.values()
        if p.default is not inspect.Parameter.empty and p.name not in ("data", "state_names")
    }


def score_names(aliases: bool = False) -> list[str]:
    """The registered score names.

    Parameters
    ----------
    aliases : bool, default False
        Also list the aliases (``bic`` for ``bic-d``, ...).

    Returns
    -------
    list of str
        Sorted.

    Examples
    --------
    >>> from pgmpy_nml import score_names
    >>> [name for name in score_names() if "nml" in name]
    ['fnml', 'qnml']
    """
    return sorted(_LOOKUP) if aliases else sorted(_SPECS)


def get_score_spec(name: str, argument: str = "score") -> ScoreSpec:
    """The registration of a score name or alias.

    Parameters
    ----------
    name : str
        Case-insensitive.
    argument : str, default "score"
        What the caller calls the name, for the error message.

    Returns
    -------
    ScoreSpec

    Raises
    ------
    ValueError
        For an unknown name, listing the known ones.

    Examples
    --------
    >>> from pgmpy_nml.scores import get_score_spec
    >>> spec = get_score_spec("BIC")
    >>> spec.name, spec.score_equivalent
    ('bic-d', True)
    """
    if not isinstance(name, str):
        raise TypeError(f"A score name must be a string, got {type(name).__name__}.")
    key = name.lower()
    if key not in _LOOKUP:
        raise ValueError(
            f"Unknown {argument} {name!r}; use a score object or one of: "
            f"{', '.join(score_names())}."
        )
    return _SPECS[_LOOKUP[key]]


def spec_for_score(score: Any) -> ScoreSpec | None:
    """The registration a score object (or name) was built from, or None if unknown.

    A name or alias gives its spec. An object matches the spec whose factory is its
    class (this package's scores), or the pgmpy score of the same class name
    (``pgmpy.structure_score`` and the legacy ``pgmpy.estimators`` classes: pgmpy's
    ``BDeu`` and ``K2`` are the ``bdeu`` and ``k2`` scores). Subclasses and other scores
    give None.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml.scores import FNML, spec_for_score
    >>> spec_for_score(FNML(pd.DataFrame({"A": [0, 1]}))).name
    'fnml'
    >>> spec_for_score("BIC").score_equivalent
    True
    """
    if isinstance(score, str):
        return get_score_spec(score)
    kind = type(score)
    for spec in _SPECS.values():
        if spec.load() is kind:
            return spec
    if kind.__module__.startswith("pgmpy."):
        name = _PGMPY_CLASSES.get(kind.__name__)
        return _SPECS.get(name) if name else None
    return None


def takes_encoded(factory) -> bool:
    """Whether a score factory takes encoded (e.g. counted) data: this package's scores do,
    pgmpy's want a DataFrame."""
    from ._base import DiscreteScore

    return bool(getattr(factory, "_takes_encoded", False)) or (
        isinstance(factory, type) and issubclass(factory, DiscreteScore)
    )


def _check_takes_encoded(name: str, factory, data) -> None:
    """Only this package's scores take encoded (e.g. counted) data; pgmpy's want a DataFrame."""
    from .._data import EncodedData
    from .._frames import is_dask_frame

    if not isinstance(data, EncodedData) and not is_dask_frame(data):
        return
    if takes_encoded(factory):
        return
    raise ValueError(
        f"Score {name!r} is pgmpy's and scores a pandas DataFrame row by row; it cannot take "
        "counted data (distinct rows with counts, as from a Dask DataFrame). Use one of this "
        "package's scores (fnml, qnml, bdeu, k2, bd), or give a pandas DataFrame."
    )


def make_score(
    name: str, data: pd.DataFrame, state_names: StateNames | None = None, **params: Any
) -> Score:
    """Build the score called ``name`` on ``data``.

    Parameters
    ----------
    name : str
        A name of :func:`score_names` (case-insensitive), or an alias.
    data : pandas.DataFrame
    state_names : dict, optional
        Variable -> list of states; declared, unobserved states count.
    **params
        The score's parameters (e.g. ``equivalent_sample_size`` for the BDeu family,
        ``alpha`` for ``bd``); ``ValueError`` names the accepted ones otherwise.

    Returns
    -------
    score object
        Usable in both pgmpy search APIs and in this package's searches.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml.scores import make_score
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 0]})
    >>> type(make_score("bdeu", data, equivalent_sample_size=5)).__name__
    'BDeu'
    >>> make_score("bdeu", data, ess=5)
    Traceback (most recent call last):
    ...
    ValueError: Score 'bdeu' takes the parameter(s) equivalent_sample_size, not ess.
    """
    spec = get_score_spec(name)
    unknown = sorted(set(params) - set(spec.params))
    if unknown:
        accepted = ", ".join(spec.params) or "none"
        raise ValueError(
            f"Score {spec.name!r} takes the parameter(s) {accepted}, not {', '.join(unknown)}."
        )
    factory = spec.load()
    _check_takes_encoded(spec.name, factory, data)
    score = factory(data, state_names=state_names, **{**spec.params, **params})
    return _checked_score(score, spec)


def resolve_score(
    scoring_method: str | Score,
    data: pd.DataFrame | None,
    state_names: StateNames | None = None,
    params: Mapping[str, Any] | None = None,
    *,
    bind: str = "check",
    caller: str = "fit()",
) -> Score:
    """The score object that ``scoring_method`` names or is, for ``data``: one policy.

    Every entry point that takes ``scoring_method`` (the searches, the study tools,
    the analysis tools) resolves it here.

    Parameters
    ----------
    scoring_method : str or score object
        A registered name or alias (:func:`score_names`), built on ``data`` by
        :func:`make_score`; or a score object with ``local_score(variable, parents)``.
    data : pandas.DataFrame or None
        The data to score. Required for a name; None takes a score object as it is.
    state_names : dict, optional
        Declared states, for a score given by name.
    params : dict, optional
        The parameters of a score given by name.
    bind : {"check", "rebind"}, default "check"
        What a score object must be on ``data``: ``"check"``, built on these data (a
        search learns from its score's data); ``"rebind"``, rebuilt on them with its
        class and parameters (:func:`~pgmpy_nml.study.rebind_score`; the study tools
        refit one procedure on many data sets).
    caller : str, default "fit()"
        Who needs the data, for the message when a name comes without data.

    Returns
    -------
    score object

    Raises
    ------
    ValueError
        For an unknown name (listing the known ones), a name without data, parameters
        or states given with a score object, or a score object built on other data.
    TypeError
        For an object without ``local_score``.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml.scores import resolve_score
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1], "B": [0, 1, 1, 1]})
    >>> score = resolve_score("bdeu", data, params={"equivalent_sample_size": 4})
    >>> type(score).__name__, score.equivalent_sample_size
    ('BDeu', 4.0)
    >>> resolve_score(score, data) is score
    True
    >>> resolve_score("nope", data)
    Traceback (most recent call last):
    ...
    ValueError: Unknown scoring_method 'nope'; use a score object or one of: ...
    """
    from ._binding import check_same_data, rebind_score

    if bind not in ("check", "rebind"):
        raise ValueError(f"bind must be 'check' or 'rebind', got {bind!r}.")
    if isinstance(scoring_method, str):
        get_score_spec(scoring_method, argument="scoring_method")
        if data is None:
            raise ValueError(
                f"{caller} needs data when scoring_method is a score name ({scoring_method!r})."
            )
        return make_score(scoring_method, data, state_names, **(params or {}))
    if not hasattr(scoring_method, "local_score"):
        raise TypeError(
            "scoring_method must be a score name or a score object with local_score(), got "
            f"{type(scoring_method).__name__}."
        )
    if state_names is not None or params:
        raise ValueError(
            "state_names and score parameters are for a score given by name; a score object "
            "carries its own."
        )
    if data is None:
        return scoring_method
    if bind == "rebind":
        return rebind_score(scoring_method, data)
    check_same_data(scoring_method, data)
    return scoring_method


def _pgmpy(cls_name: str):
    def factory(data, state_names=None, **params):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
            from pgmpy import structure_score

        return getattr(structure_score, cls_name)(data, state_names=state_names, **params)

    factory.__name__ = cls_name
    return factory


def _k2(data, state_names=None):
    """K2: BD with every hyperparameter 1 (Cooper and Herskovits 1992)."""
    from .bd import BDConstant

    return BDConstant(data, alpha=1.0, state_names=state_names)


_k2._takes_encoded = True  # type: ignore[attr-defined]


# size: a table of data, one registration per built-in score
def _register_builtin() -> None:
    # classes by "module:name": importing the registry (for the command line's
    # --help, say) must not import pgmpy
    FNML, QNML = "scores.fnml:FNML", "scores.qnml:QNML"
    BDConstant, BDeu = "scores.bd:BDConstant", "scores.bd:BDeu"
    MinBDeu, MaxBDeu = "scores.bdeu_bounds:MinBDeu", "scores.bdeu_bounds:MaxBDeu"
    NAL, PNAL = "scores.nal:NAL", "scores.nal:PNAL"
    ess = {"equivalent_sample_size": 1.0}
    register_score("fnml", FNML, score_equivalent=False, description="factorized NML")
    register_score("qnml", QNML, score_equivalent=True, description="quotient NML")
    register_score(
        "bdeu",
        BDeu,
        params=ess,
        score_equivalent=True,
        description="BDeu (textbook)",
        parameter_estimator="bdeu",
    )
    register_score(
        "bd",
        BDConstant,
        params={"alpha": 0.5},
        aliases=("bdj",),
        score_equivalent=False,
        description="BD with a constant hyperparameter (BD1/2 by default)",
        parameter_estimator="dirichlet",
    )
    register_score(
        "k2",
        _k2,
        params={},
        score_equivalent=False,
        description="K2 (BD with alpha 1, textbook)",
        parameter_estimator="k2",
    )
    contamination = {"equivalent_sample_size": 1.0, "epsilon": 0.5}
    register_score(
        "min-bdeu",
        MinBDeu,
        params=contamination,
        score_equivalent=False,
        description="BDeu under the least favourable prior",
        parameter_estimator="bdeu",  # the centre of its prior set
    )
    register_score(
        "max-bdeu",
        MaxBDeu,
        params=contamination,
        score_equivalent=False,
        description="BDeu under the most favourable prior",
        parameter_estimator="bdeu",
    )
    register_score(
        "pnal",
        PNAL,
        params={"penalty": None},
        score_equivalent=False,
        description="penalized node-average likelihood, for missing values (Balov 2013)",
        parameter_estimator="fsnml-available",
    )
    register_score(
        "nal",
        NAL,
        params={},
        score_equivalent=False,
        description="node-average likelihood, for missing values (Balov 2013)",
        parameter_estimator="fsnml-available",
    )
    # pgmpy's likelihood-based scores, under pgmpy's names and the short ones
    for name, cls_name, what in (
        ("bic-d", "BIC", "BIC"),
        ("aic-d", "AIC", "AIC"),
        ("ll-d", "LogLikelihood", "log-likelihood"),
    ):
        register_score(
            name,
            _pgmpy(cls_name),
            params={},
            aliases=(name.removesuffix("-d"),),
            score_equivalent=True,
            description=f"{what} (pgmpy)",
        )
    register_score(
        "bds",
        _pgmpy("BDs"),
        params={"equivalent_sample_size": 1.0},
        score_equivalent=False,
        description="Bayesian Dirichlet sparse (pgmpy)",
        parameter_estimator="bdeu",  # pgmpy has no BDs estimator
    )


_register_builtin()
