"""Reading real CSV files: R and pandas exports, delimiters, headers, suspicious columns."""

import numpy as np
import pytest

from pgmpy_nml._csv import CsvOptions, dropped_states_note, read_data
from pgmpy_nml._limits import ID_MIN_DISTINCT, MAX_WHOLE_NUMBER_STATES
from pgmpy_nml.exceptions import CsvError


def write(tmp_path, text, name="data.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def refusal(path):
    """The message of the CsvError that reading ``path`` raises."""
    with pytest.raises(CsvError) as info:
        read_data(path)
    return str(info.value)


def r_votes(n=40, seed=0, na_rate=0.1):
    """A HouseVotes84-like file as R's write.csv writes it: row names, quotes, NA."""
    rng = np.random.default_rng(seed)
    lines = ['"","Class","V1","V2"']
    for i in range(n):
        votes = ["NA" if rng.random() < na_rate else f'"{rng.choice(["y", "n"])}"' for _ in "12"]
        party = rng.choice(["democrat", "republican"])
        lines.append(",".join([f'"{i + 1}"', f'"{party}"', *votes]))
    return "\n".join(lines) + "\n"


def test_r_export_row_names_quotes_and_na(tmp_path):
    path = write(tmp_path, r_votes())
    message = refusal(path)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert "missing values ('NA')" in message and "'V1' (" in message and "'V2' (" in message
    assert "--dropna" in message and "--na-values" in message and "dropna()" not in message

    table = read_data(path, CsvOptions(dropna=True))
    assert list(table.data.columns) == ["Class", "V1", "V2"]
    assert set(table.data["V1"]) == {"y", "n"} and table.data.notna().all().all()
    n_dropped = 40 - len(table.data)
    assert n_dropped > 0
    assert f"dropped {n_dropped} of 40 rows with a missing value (--dropna)" in table.notes
    assert any("row names" in note for note in table.notes)

    # --na-values '' makes NA an ordinary state, explicitly
    table = read_data(path, CsvOptions(na_values=()))
    assert len(table.data) == 40 and "NA" in set(table.data["V1"])


@pytest.mark.parametrize("token", ["NA", "NaN", "?", ""])
def test_default_missing_tokens(tmp_path, token):
    path = write(tmp_path, f"A,B\nx,1\ny,{token}\nx,2\n")
    with pytest.raises(CsvError, match=r"1 of 3 rows have missing values .* in 'B' \(1\)"):
        read_data(path)


def test_custom_missing_tokens_replace_the_default(tmp_path):
    path = write(tmp_path, "A,B\nx,1\ny,-9\nx,NA\n")
    table = read_data(path, CsvOptions(na_values=("-9",), dropna=True))
    assert table.data.to_dict("list") == {"A": ["x", "x"], "B": ["1", "NA"]}


def test_short_rows_are_missing_values(tmp_path):
    path = write(tmp_path, "A,B,C\nx,1,u\ny,2\n")
    with pytest.raises(CsvError, match=r"'C' \(1\)"):
        read_data(path)


def test_every_row_missing_with_dropna(tmp_path):
    path = write(tmp_path, "A,B\nx,NA\nNA,1\n")
    with pytest.raises(CsvError, match="every one of the 2 rows has a missing value"):
        read_data(path, CsvOptions(dropna=True))


def test_column_without_values(tmp_path):
    path = write(tmp_path, "A,B\nx,NA\ny,NA\n")
    with pytest.raises(CsvError, match=r"'B' has no values.*--drop-columns B"):
        read_data(path, CsvOptions(dropna=True))


def breast_cancer(n=60, seed=0):
    """A BreastCancer-like file: an Id column, 1-10 scores, NA, a class."""
    rng = np.random.default_rng(seed)
    lines = ['"Id","Cl.thickness","Bare.nuclei","Class"']
    for i in range(n):
        nuclei = "NA" if i % 13 == 0 else f'"{rng.integers(1, 11)}"'
        lines.append(
            f'"{1000025 + 7 * (i - i % 10 // 9)}","{rng.integers(1, 11)}",{nuclei},'
            f'"{rng.choice(["benign", "malignant"])}"'
        )
    return "\n".join(lines) + "\n"


def test_identifier_column(tmp_path):
    path = write(tmp_path, breast_cancer())
    message = refusal(path)
    assert (
        "column 'Id' looks like an identifier (" in message
        and "distinct values in 60 rows" in message
    )
    assert "--drop-columns Id" in message and "--discrete Id" in message
    table = read_data(path, CsvOptions(drop_columns=("Id",), dropna=True))
    assert list(table.data.columns) == ["Cl.thickness", "Bare.nuclei", "Class"]
    table = read_data(path, CsvOptions(discrete=("Id",), dropna=True))
    assert "Id" in table.data.columns


def test_identifier_of_strings(tmp_path):
    names = "\n".join(f"person{i},{'ab'[i % 2]}" for i in range(ID_MIN_DISTINCT + 5))
    path = write(tmp_path, "Name,G\n" + names + "\n")
    with pytest.raises(CsvError, match="'Name' looks like an identifier"):
        read_data(path)


def test_integer_coded_continuous_column(tmp_path):
    n_values = MAX_WHOLE_NUMBER_STATES + 1
    rows = "\n".join(f"{17 + i % n_values},{'xy'[i % 2]}" for i in range(4 * n_values))
    path = write(tmp_path, "age,G\n" + rows + "\n")
    with pytest.raises(CsvError, match=rf"'age' looks continuous \({n_values} distinct whole"):
        read_data(path)
    assert read_data(path, CsvOptions(discrete=("age",))).data.shape == (4 * n_values, 2)
    # as many values as allowed is fine
    rows = "\n".join(f"{i % (n_values - 1)},{'xy'[i % 2]}" for i in range(4 * n_values))
    assert read_data(write(tmp_path, "age,G\n" + rows + "\n")).data.shape[1] == 2


def test_a_stray_token_does_not_hide_a_continuous_column(tmp_path):
    rng = np.random.default_rng(1)
    rows = [f"{rng.normal():.3f},{'xy'[i % 2]}" for i in range(30)]
    rows[4] = "oops,x"
    path = write(tmp_path, "X,G\n" + "\n".join(rows) + "\n")
    with pytest.raises(CsvError, match=r"'X' looks continuous \(decimal values .*'oops'"):
        read_data(path)


def test_few_decimal_levels_can_be_declared_discrete(tmp_path):
    path = write(tmp_path, "dose,G\n0.5,x\n1.5,y\n0.5,y\n")
    with pytest.raises(CsvError, match="'dose' looks continuous"):
        read_data(path)
    assert read_data(path, CsvOptions(discrete=("dose",))).data["dose"].tolist() == [
        "0.5",
        "1.5",
        "0.5",
    ]


def test_several_bad_columns_in_one_line(tmp_path):
    rows = "\n".join(f"{i},{i * 1.5},{'xy'[i % 2]}" for i in range(30))
    path = write(tmp_path, "Id,w,G\n" + rows + "\n")
    with pytest.raises(CsvError, match=r"2 columns cannot be .*--drop-columns Id,w"):
        read_data(path)


def test_semicolon_files_are_sniffed(tmp_path):
    path = write(tmp_path, "A;B;C\nx;u;p\ny;v;q\nx;v;p\n")
    table = read_data(path)
    assert list(table.data.columns) == ["A", "B", "C"] and table.delimiter == ";"
    assert any("delimited by ';'" in note for note in table.notes)


def test_european_decimal_commas_are_continuous(tmp_path):
    rows = "\n".join(f"{'xy'[i % 2]};{60 + i},{i % 10}" for i in range(30))
    path = write(tmp_path, "G;W\n" + rows + "\n")
    with pytest.raises(
        CsvError, match=r"'W' looks continuous \(decimal values such as '61,1', '62,2', '63,3'\)"
    ):
        read_data(path)


@pytest.mark.parametrize(("delimiter", "name"), [("\t", "tab"), ("|", "pipe")])
def test_other_delimiters(tmp_path, delimiter, name):
    text = "\n".join(delimiter.join(row) for row in [["A", "B"], ["x", "u"], ["y", "v"]])
    table = read_data(write(tmp_path, text + "\n", f"{name}.txt"))
    assert list(table.data.columns) == ["A", "B"] and table.delimiter == delimiter


def test_a_wrong_delimiter_is_an_error_not_one_column(tmp_path):
    path = write(tmp_path, "A;B;C\nx;u;p\ny;v;q\n")
    with pytest.raises(
        CsvError, match=r"single column 'A;B;C' with delimiter ','.*--delimiter ';'"
    ):
        read_data(path, CsvOptions(delimiter=","))


def test_r_write_table_header_one_short(tmp_path):
    path = write(tmp_path, '"A" "B"\n"1" "x" "u"\n"2" "y" NA\n"3" "x" "v"\n', "votes.txt")
    table = read_data(path, CsvOptions(dropna=True))
    assert table.delimiter == " " and table.data.to_dict("list") == {
        "A": ["x", "x"],
        "B": ["u", "v"],
    }
    assert any("one name fewer than the rows" in note for note in table.notes)


def test_pandas_index_column_is_ignored(tmp_path):
    path = write(tmp_path, ",A,B\n0,x,u\n1,y,v\n2,x,v\n")
    table = read_data(path)
    assert list(table.data.columns) == ["A", "B"]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("A,B,A\nx,u,p\ny,v,q\n", r"duplicated column names \('A' in columns 1, 3\); rename"),
        ("A,,C\nx,u,p\ny,v,q\n", r"column 2 of the header has no name"),
        (",A\nx,u\nx,v\n", r"column 1 of the header has no name"),
        ("A,B\n", "has a header but no data rows"),
        ("\n\n", "is empty"),
        ("A,B\nx,u\ny,v,w,z\n", r"delimiter ',': Expected 2 fields in line 3, saw 4"),
    ],
)
def test_bad_headers_and_shapes(tmp_path, text, match):
    with pytest.raises(CsvError, match=match):
        read_data(write(tmp_path, text))


def test_unknown_columns_in_flags(tmp_path):
    path = write(tmp_path, "A,B\nx,u\ny,v\n")
    with pytest.raises(CsvError, match=r"--drop-columns names 'Z', not a column"):
        read_data(path, CsvOptions(drop_columns=("Z",)))
    with pytest.raises(CsvError, match=r"--discrete names 'Z', not a column"):
        read_data(path, CsvOptions(discrete=("Z",)))


def test_columns_a_network_uses(tmp_path):
    path = write(tmp_path, "Id,A,B\n1,x,NA\n2,y,v\n")
    table = read_data(path, use=["A"])  # Id and B are not checked
    assert list(table.data.columns) == ["A"] and len(table.data) == 2
    with pytest.raises(CsvError, match=r"has no column 'C', which the network needs"):
        read_data(path, use=["A", "C"])


def test_encoding_bom_and_whitespace(tmp_path):
    path = write(tmp_path, "\ufeffA, B\nx , u\ny, v\n")
    table = read_data(path)
    assert table.data.to_dict("list") == {"A": ["x", "y"], "B": ["u", "v"]}
    latin = write(tmp_path, "A,B\ncafé,u\n", "latin.csv", encoding="latin-1")
    with pytest.raises(CsvError, match="is not UTF-8 text"):
        read_data(latin)


def test_no_such_file(tmp_path):
    with pytest.raises(CsvError, match="no such data file"):
        read_data(tmp_path / "nope.csv")


# -- states only dropped rows hold, and delimiters (issue 34, items 2 and 5) --------------
def test_dropped_rows_keep_their_states_and_say_so(tmp_path):
    """soybean's case: classes that occur only in rows with a missing cell are states of
    the file all the same; --dropna keeps them as states (``Table.states``) and names them."""
    rows = ["class,leaf,stem"] + ["a,x,u", "b,y,v", "a,y,u", "b,x,v"] * 5
    rows += ["rare,NA,u", "rare,x,NA", "b,z,NA"]  # 'rare' and leaf 'z' only with an NA
    path = write(tmp_path, "\n".join(rows) + "\n")
    table = read_data(path, CsvOptions(dropna=True))
    assert set(table.data["class"]) == {"a", "b"} and set(table.data["leaf"]) == {"x", "y"}
    assert table.states == {
        "class": ["a", "b", "rare"],
        "leaf": ["x", "y", "z"],
        "stem": ["u", "v"],
    }
    assert table.dropped_states == {"class": ["rare"], "leaf": ["z"]}
    note = dropped_states_note(table.dropped_states)
    assert note.startswith("states that only the dropped rows hold are kept")
    assert "'class': 'rare'" in note and "'leaf': 'z'" in note and "stem" not in note
    assert dropped_states_note({}) is None


def test_states_are_the_files_values_in_the_packages_order(tmp_path):
    path = write(tmp_path, "A,B\n10,x\n2,y\n1,x\n2,NA\n")
    table = read_data(path, CsvOptions(dropna=True))
    assert table.states == {"A": ["1", "2", "10"], "B": ["x", "y"]}  # numbers as numbers
    assert table.dropped_states == {}  # none lost


def test_a_colon_delimited_file_is_detected(tmp_path):
    table = read_data(write(tmp_path, "A:B:C\nx:u:1\ny:v:2\nx:v:1\n"))
    assert list(table.data.columns) == ["A", "B", "C"] and table.delimiter == ":"
    assert any("delimited by ':'" in note for note in table.notes)


@pytest.mark.parametrize("char", ["#", "!", "^", "~"])
def test_a_file_of_one_column_names_the_delimiter_it_looks_like(tmp_path, char):
    """Not "an identifier, drop it": the character that splits every line alike."""
    text = "\n".join(char.join(row) for row in [["A", "B", "C"], *[["x", "u", "1"]] * 30])
    message = refusal(write(tmp_path, text + "\n"))
    assert f"fields look delimited by {char!r}" in message and "--delimiter" in message
    assert "identifier" not in message


def test_a_real_single_column_file_is_still_read(tmp_path):
    table = read_data(write(tmp_path, "answer\nyes\nno\nyes\n"))
    assert list(table.data.columns) == ["answer"]
