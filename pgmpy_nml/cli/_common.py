"""What every command of the command line shares: the user's mistake (:class:`UserError`),
the names of the formats and estimators, the scores and parameters built from flags, and
the small tables and summaries every command prints."""

from __future__ import annotations


class UserError(Exception):
    """A mistake in the command line or the files: one line, exit code 2."""


ESTIMATORS = ["fsnml", "mle", "bdeu", "k2"]


DISCRETIZE_METHODS = ["hartemink", "quantile", "quantile-ties", "interval"]


#: Output formats by file extension.
NETWORK_FORMATS = {".bif": "BIF", ".xml": "XMLBIF", ".xmlbif": "XMLBIF", ".dot": "DOT"}


#: Formats that need a fitted network (DOT draws the structure only).
FITTED_FORMATS = {"BIF", "XMLBIF"}


def _score_names(aliases=True):
    """Every name the score registry accepts (canonical names, and aliases unless told not)."""
    from ..scores.registry import score_names

    return score_names(aliases=aliases)


def _score_help(default):
    from ..scores.registry import score_names

    return f"{', '.join(score_names())} (aliases: bic, aic, ll, bdj); default {default}"


def _missing_policy(args):
    """``error``, ``drop`` (--dropna or --missing drop) or ``available`` (--missing available)."""
    chosen = getattr(args, "missing", None)
    if args.dropna and chosen not in (None, "drop"):
        raise UserError(f"--dropna and --missing {chosen} contradict each other: give one")
    return "drop" if args.dropna else (chosen or "error")


def _check_missing_scores(args, data, names, flag):
    """With --missing available and missing cells, every score must take incomplete data
    (the parameters of every --params count each family on its complete rows)."""
    if _missing_policy(args) != "available" or not data.isna().to_numpy().any():
        return
    from ..scores import get_score_spec

    takes = [n for n in _score_names() if _takes_missing(get_score_spec(n))]
    refused = [n for n in names if not _takes_missing(get_score_spec(n))]
    if refused:
        raise UserError(
            f"--missing available keeps rows with missing values, which only the scores for "
            f"incomplete data take ({', '.join(takes)}); {flag} {refused[0]} refuses them: use "
            f"{flag} {takes[-1]}, or drop those rows with --dropna"
        )


def _takes_missing(spec):
    """Whether a registered score scores incomplete data (each family on its complete rows)."""
    return getattr(spec.load(), "_missing", "error") == "available"


def _parse_edges(specs, variables, flag):
    edges = []
    for spec in specs or []:
        for item in spec.split(","):
            item = item.strip()
            if not item:
                continue
            if "->" not in item:
                raise UserError(f"{flag} {item!r} is not of the form PARENT->CHILD")
            u, v = (x.strip() for x in item.split("->", 1))
            for node in (u, v):
                if node not in variables:
                    raise UserError(f"{flag} {item!r} names {node!r}, which is not a data column")
            if u == v:
                raise UserError(f"{flag} {item!r}: a variable cannot be its own parent")
            edges.append((u, v))
    return edges


def _structure(args, data, model=None):
    """A DAG from a network file or from --edges."""
    from pgmpy.base import DAG

    if model is not None:
        dag = DAG(model.edges())
        dag.add_nodes_from(model.nodes())
        return dag
    dag = DAG(_parse_edges(args.edges, list(data.columns), "--edges"))
    dag.add_nodes_from(data.columns)
    return dag


def _score(name, data, ess, state_names=None):
    """The score ``name`` built on ``data``: the one place the command line builds scores."""
    from ..scores import get_score_spec, make_score

    params = {}
    if "equivalent_sample_size" in get_score_spec(name).params:
        params["equivalent_sample_size"] = ess
    return make_score(name, data, state_names=state_names, **params)


def _score_parameters(score):
    """The parameters a score was built with (for the JSON summary)."""
    names = {"equivalent_sample_size": "ess", "alpha": "alpha", "epsilon": "epsilon"}
    return {key: float(getattr(score, attr)) for attr, key in names.items() if hasattr(score, attr)}


def _estimator(name, ess, incomplete=False):
    """The estimator of --params ``name``; ``incomplete``: the data keep missing cells
    (--missing available), which fsNML then counts family by family. Built by the
    library's one builder of estimators by name."""
    from ..models import _parameter_estimator

    kind = "fsnml-available" if name == "fsnml" and incomplete else name
    return _parameter_estimator(kind, values={"equivalent_sample_size": ess})


def _fit(dag, data, estimator_name, ess, score=None):
    """Fit ``dag``; ``"auto"`` takes the score's own prior (default_parameter_estimator)."""
    from ..models import default_parameter_estimator, fit_network

    if estimator_name == "auto":
        estimator = default_parameter_estimator(score)
    else:
        estimator = _estimator(estimator_name, ess, bool(data.isna().to_numpy().any()))
    return fit_network(dag, data, estimator)


def _estimator_label(name, score):
    """What ``--params`` chose, in words (``auto`` says which prior)."""
    if name != "auto":
        return name
    from ..models import default_parameter_estimator

    estimator = default_parameter_estimator(score)
    kind = type(estimator).__name__
    if kind == "FSNMLEstimator":
        return "auto: fsnml"
    if kind == "DiscreteMLE":
        return "auto: mle"
    prior = estimator.prior_type
    if prior == "BDeu":
        return f"auto: bdeu prior, ess {estimator.equivalent_sample_size:g}"
    if prior == "dirichlet":
        return f"auto: dirichlet prior, pseudo-count {estimator.pseudo_counts:g}"
    return f"auto: {prior.lower()} prior"


def _edges_text(dag):
    edges = sorted(dag.edges())
    return ", ".join(f"{u}->{v}" for u, v in edges) if edges else "(no edges)"


def _table(header, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(header, widths, strict=True))]
    lines += ["  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(lines)


def _data_summary(command, source, notes, data) -> dict:
    """The first fields of every command's JSON summary: the command and its data."""
    return {"command": command, "data": source, "data_notes": notes, "n_samples": len(data)}


def _print_data(source, data, notes, what="data"):
    print(f"{what}: {source}; {len(data)} rows, {data.shape[1]} variables")
    for note in notes:
        print(f"  note: {note}")
