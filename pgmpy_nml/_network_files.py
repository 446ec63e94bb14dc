"""Network files that read back to the network that was written: BIF, XMLBIF and DOT.

A fitted network is written as text, the text is read back with pgmpy's own reader
(:class:`~pgmpy.readwrite.BIFReader`, :class:`~pgmpy.readwrite.XMLBIFReader`) and
compared with the network: the same variables, edges, states (names and order) and
probabilities, or :class:`NetworkFileError` before anything is written. The error names
the variable, the state, the format and a format that keeps the name.

What each format can hold (pgmpy 1.1's readers):

* **XMLBIF** keeps every name as XML text, except an empty name (read back as
  ``None``) and the control characters XML 1.0 forbids. pgmpy's ``XMLBIFWriter``
  renames states to letters, digits and ``_`` (``St. Louis`` -> ``St_Louis``,
  ``<=50K`` and ``>50K`` both -> ``_50K``); this module writes them unchanged, and
  pgmpy's reader reads them back exactly.
* **BIF** has no quoting: pgmpy's ``BIFReader`` turns every ``"`` into a blank, strips
  blanks around names, splits state lists at ``,`` (or at blanks when a variable has a
  single state), ends a row of parent states at ``)`` and a state list at ``}``, drops
  ``//`` and ``/* */`` comments, splits a parentless variable's name at blanks (and
  variable names at ``{`` and ``|``), reads
  ``table`` or ``default`` followed by a number inside a variable's name as a table,
  and does not tell variable names apart by case. Names like these are refused.
* **DOT** (Graphviz) holds the structure only: names in double quotes, ``"`` written as
  ``\\"``; a backslash before the closing quote or before a line break cannot be written.

States are written as text (``str(state)``); pgmpy's readers give them back as strings.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import TYPE_CHECKING

from .exceptions import NetworkFileError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from pgmpy.models import DiscreteBayesianNetwork

    from ._typing import Graph

__all__ = ["FORMATS", "check_names", "read_network", "write_network"]

#: The network file formats and what they hold.
FORMATS = ("BIF", "XMLBIF", "DOT")
#: What to write instead when a format cannot hold a name.
_WAY_OUT = {
    "BIF": "write XMLBIF instead (a .xml file), which keeps every state name, or rename it",
    "XMLBIF": "rename it (no network format that pgmpy reads can hold it)",
    "DOT": "rename it",
}


# -- what each format cannot hold ------------------------------------------------------
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: pgmpy's BIFReader reads ``table``/``default`` then a number (its ``num_expr``
#: characters) anywhere in a probability block as the start of a table.
_BIF_TABLE_WORD = re.compile(r"(table|default)[0-9+\-.eE]")


def _blank(char: str) -> str:
    return {"\t": "a tab", "\n": "a line break", "\r": "a carriage return"}.get(
        char, f"the blank U+{ord(char):04X}"
    )


def _bif_problem(name: str, is_state: bool, single: bool) -> str | None:
    """Why BIF cannot hold ``name`` (a state, or a variable's name), or None."""
    if name == "" or name.isspace():
        return "it is empty or blank"
    if name != name.strip():
        return "it begins or ends with a blank, which BIF's reader strips"
    for token, why in (
        ('"', "BIF's reader turns quotes into blanks"),
        (",", "BIF separates names with commas"),
        ("//", "BIF's reader drops // comments"),
        ("/*", "BIF's reader drops /* */ comments"),
        ("*/", "BIF's reader drops /* */ comments"),
        ("}", "BIF ends a list of states at }"),
        (")", "BIF ends a row of parent states at )"),
    ):
        if token in name:
            return f"it holds {token!r} ({why})"
    other = [c for c in name if c.isspace() and c != " "]
    if other:
        return f"it holds {_blank(other[0])}, which BIF's reader splits or strips at"
    control = [c for c in name if unicodedata.category(c) == "Cc"]
    if control:
        return f"it holds the control character U+{ord(control[0]):04X}"
    if is_state:
        if single and " " in name:
            return (
                "it is the only state of its variable and holds a blank (BIF's reader splits "
                "a single state at blanks)"
            )
        return None
    for token in ("{", "|", " "):
        if token in name:
            what = "a blank" if token == " " else repr(token)
            return f"it holds {what} (BIF's reader splits a variable's name at it)"
    if _BIF_TABLE_WORD.search(name):
        return "BIF's reader reads 'table' or 'default' followed by a number in it as a table"
    return None


def _xml_problem(name: str) -> str | None:
    if name == "":
        return "it is empty (pgmpy's XMLBIF reader reads an empty name as None)"
    bad = _XML_FORBIDDEN.search(name)
    if bad:
        return f"it holds the control character U+{ord(bad.group()):04X}, which XML cannot hold"
    return None


def _dot_problem(name: str) -> str | None:
    if name.endswith("\\"):
        return "it ends with a backslash, which DOT reads as escaping the closing quote"
    if "\\\n" in name or "\\\r" in name:
        return "it holds a backslash before a line break, which DOT reads as a line continuation"
    if "\x00" in name:
        return "it holds the character U+0000"
    return None


def _refuse(kind: str, variable, state, why: str) -> NetworkFileError:
    what = f"the state {state!r} of variable {variable!r}" if state is not None else None
    what = what or f"the variable name {variable!r}"
    return NetworkFileError(
        f"{kind} cannot hold {what}: {why}; {_WAY_OUT[kind]}", variable, state, kind
    )


def check_names(kind: str, states: Mapping[str, Sequence | None]) -> None:
    """Refuse the first variable or state name that the format ``kind`` cannot hold.

    Parameters
    ----------
    kind : {"BIF", "XMLBIF", "DOT"}
    states : dict
        Variable -> its states (written as ``str(state)``); None when only the
        structure is written (DOT).

    Raises
    ------
    NetworkFileError
        Naming the variable, the state, the format and a way out.

    Examples
    --------
    >>> check_names("BIF", {"city": ["St. Louis", "Paris"], "income": ["<=50K", ">50K"]})
    >>> try:
    ...     check_names("BIF", {"answer": ["no, 0", "yes (1)"]})
    ... except NetworkFileError as err:
    ...     print(err.state, err.format)
    no, 0 BIF
    """
    if kind not in FORMATS:
        raise ValueError(f"unknown network file format {kind!r}; one of {', '.join(FORMATS)}")
    seen: dict[str, str] = {}
    for variable, names in states.items():
        text = str(variable)
        if kind == "BIF":
            why = _bif_problem(text, is_state=False, single=False)
            other = seen.setdefault(text.casefold(), text)
            if why is None and other != text:
                why = f"BIF's reader does not tell it from the variable {other!r} (case)"
        else:
            why = _xml_problem(text) if kind == "XMLBIF" else _dot_problem(text)
        if why:
            raise _refuse(kind, variable, None, why)
        if kind == "DOT" or names is None:
            continue
        names = [str(s) for s in names]
        for state in names:
            if kind == "BIF":
                why = _bif_problem(state, is_state=True, single=len(names) == 1)
            else:
                why = _xml_problem(state)
            if why:
                raise _refuse(kind, variable, state, why)


# -- writing and reading ---------------------------------------------------------------
def _dot_text(dag: Graph) -> str:
    def quote(name):
        return '"' + str(name).replace('"', '\\"') + '"'

    lines = ["digraph network {"]
    lines += [f"  {quote(v)};" for v in dag.nodes()]
    lines += [f"  {quote(u)} -> {quote(v)};" for u, v in sorted(dag.edges())]
    return "\n".join([*lines, "}"]) + "\n"


def _xmlbif_text(model: DiscreteBayesianNetwork) -> str:
    from pgmpy.readwrite import XMLBIFWriter

    class _Writer(XMLBIFWriter):
        """pgmpy's XMLBIF writer, without renaming the states (its reader needs none)."""

        def _make_valid_state_name(self, state_name):
            return str(state_name)

    # ElementTree writes a carriage return as is, and XML reads it as a line break
    return str(_Writer(model)).replace("\r", "&#13;")


def _bif_text(model: DiscreteBayesianNetwork) -> str:
    from pgmpy.readwrite import BIFWriter

    return str(BIFWriter(model))


@functools.cache
def _bif_reader() -> type:
    """pgmpy's ``BIFReader``, building its grammar once: pgmpy builds it on every read
    (1.4 s, most of it collapsing every unicode letter into ranges), the same each time."""
    from pgmpy.readwrite import BIFReader

    grammars = {}

    class Reader(BIFReader):
        def get_variable_grammar(self):
            if "variable" not in grammars:
                grammars["variable"] = super().get_variable_grammar()
            return grammars["variable"]

        def get_probability_grammar(self):
            if "probability" not in grammars:
                grammars["probability"] = super().get_probability_grammar()
            return grammars["probability"]

    return Reader


def _parse(text: str, kind: str) -> DiscreteBayesianNetwork:
    import warnings

    from pgmpy.readwrite import XMLBIFReader

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "XMLBIF":
            return XMLBIFReader(string=text).get_model()
        return _bif_reader()(string=text).get_model()


def _first_difference(model, back) -> str | None:
    """How ``back`` (read from the file) differs from ``model``, or None."""
    import numpy as np

    if set(map(str, model.nodes())) != set(back.nodes()):
        lost = sorted(set(map(str, model.nodes())) - set(back.nodes()))
        return f"the variables {lost} do not read back"
    if {(str(u), str(v)) for u, v in model.edges()} != set(back.edges()):
        return "the edges do not read back"
    for cpd in sorted(model.get_cpds(), key=lambda c: str(c.variable)):
        theirs = back.get_cpds(str(cpd.variable))
        if [str(v) for v in cpd.variables] != list(theirs.variables):
            return f"the parents of {cpd.variable!r} read back as {theirs.variables[1:]}"
        for v in cpd.variables:
            ours = [str(s) for s in cpd.state_names[v]]
            if ours != list(theirs.state_names[str(v)]):
                return f"the states of {v!r} read back as {theirs.state_names[str(v)]}"
        if not np.array_equal(np.asarray(cpd.get_values(), dtype=float), theirs.get_values()):
            return f"the probabilities of {cpd.variable!r} do not read back"
    return None


def network_text(model: DiscreteBayesianNetwork | Graph, kind: str) -> str:
    """The file's text, checked to read back to ``model``.

    Parameters
    ----------
    model : pgmpy DiscreteBayesianNetwork (fitted), or a DAG for ``"DOT"``
    kind : {"BIF", "XMLBIF", "DOT"}

    Returns
    -------
    str

    Raises
    ------
    NetworkFileError
        When the format cannot hold a name, or the text does not read back to ``model``.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.models import fit_network
    >>> data = pd.DataFrame({"city": ["St. Louis", "Paris"], "n": ["10", "2"]})
    >>> model = fit_network(DAG([("city", "n")]), data)
    >>> "St. Louis" in network_text(model, "XMLBIF")
    True
    """
    if kind == "DOT":
        check_names(kind, dict.fromkeys(model.nodes()))
        return _dot_text(model)
    check_names(kind, {cpd.variable: cpd.state_names[cpd.variable] for cpd in model.get_cpds()})
    text = _xmlbif_text(model) if kind == "XMLBIF" else _bif_text(model)
    try:
        difference = _first_difference(model, _parse(text, kind))
    except Exception as err:  # pgmpy's parsers raise many kinds
        difference = f"pgmpy's reader fails on it ({type(err).__name__}: {err})"
    if difference:
        raise NetworkFileError(
            f"the network does not survive a round trip through {kind}: {difference}; "
            f"{_WAY_OUT[kind]}",
            format=kind,
        )
    return text


def write_network(model: DiscreteBayesianNetwork | Graph, path: str | Path, kind: str) -> None:
    """Write ``model`` to ``path`` (UTF-8) if it reads back the same; nothing otherwise.

    Parameters
    ----------
    model : pgmpy DiscreteBayesianNetwork (fitted), or a DAG for ``"DOT"``
    path : str or Path
    kind : {"BIF", "XMLBIF", "DOT"}

    Raises
    ------
    NetworkFileError
        Before anything is written (see :func:`network_text`).

    Examples
    --------
    >>> import pandas as pd, tempfile, os
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.models import fit_network
    >>> model = fit_network(DAG([("A", "B")]), pd.DataFrame({"A": ["yes (1)", "no"], "B": [0, 1]}))
    >>> path = os.path.join(tempfile.mkdtemp(), "m.bif")
    >>> try:
    ...     write_network(model, path, "BIF")
    ... except NetworkFileError as err:
    ...     print(err.variable, err.state, os.path.exists(path))
    A yes (1) False
    """
    from pathlib import Path

    text = network_text(model, kind)
    Path(path).write_text(text, encoding="utf-8", newline="\n")


def read_network(path: str | Path, kind: str) -> DiscreteBayesianNetwork:
    """Read a BIF or XMLBIF file (UTF-8) with pgmpy's reader.

    Parameters
    ----------
    path : str or Path
    kind : {"BIF", "XMLBIF"}

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork

    Examples
    --------
    >>> import pandas as pd, tempfile, os
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.models import fit_network
    >>> model = fit_network(DAG([("A", "B")]), pd.DataFrame({"A": ["<=50K", ">50K"], "B": [0, 1]}))
    >>> path = os.path.join(tempfile.mkdtemp(), "m.xml")
    >>> write_network(model, path, "XMLBIF")
    >>> read_network(path, "XMLBIF").get_cpds("A").state_names["A"]
    ['<=50K', '>50K']
    """
    from pathlib import Path

    text = Path(path).read_text(encoding="utf-8")
    return _parse(text, kind)
