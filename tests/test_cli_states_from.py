"""``--states-from FILE``: a network learned on training rows declares the states that
other files (the test rows) hold, so that ``evaluate`` can score them (issue 37: nips has
a column that is constant in its training split)."""

import json

import numpy as np
import pandas as pd
import pytest
from pgmpy.readwrite import BIFReader

from pgmpy_nml import FSNMLEstimator, log_loss


def _files(tmp_path):
    rng = np.random.default_rng(3)
    train = pd.DataFrame(rng.integers(0, 2, (60, 4)), columns=list("ABCD"))
    train["B"] = (train["A"] ^ (rng.random(60) < 0.1)).astype(int)
    train["D"] = 1  # constant in training
    test = pd.DataFrame(rng.integers(0, 2, (25, 4)), columns=list("ABCD"))
    test.loc[0, "C"] = 2  # a state of C that training lacks too
    paths = tmp_path / "train.csv", tmp_path / "test.csv"
    train.to_csv(paths[0], index=False)
    test.to_csv(paths[1], index=False)
    return train, test, paths


@pytest.mark.long  # four runs of the console script
def test_learn_declares_the_test_states_and_evaluate_scores_them(tmp_path, cli):
    train, test, (train_csv, test_csv) = _files(tmp_path)
    model_path, summary = tmp_path / "m.bif", tmp_path / "m.json"
    code, out, err = cli("learn", train_csv, "--out", model_path)
    assert code == 0, err
    code, out, err = cli("evaluate", test_csv, "--model", model_path)
    assert code == 2
    assert "column 'C' has value(s) '2'" in err or "column 'D' has value(s) '0'" in err
    assert f"--states-from {test_csv}" in err  # the refusal says how to fix it

    code, out, err = cli(
        "learn", train_csv, "--states-from", test_csv, "--out", model_path, "--json", summary
    )
    assert code == 0, err
    assert f"--states-from {test_csv}: declared 2 state(s) the data do not hold" in out
    assert "C: 0, 1, 2" not in out and "C: 2" in out and "D: 0" in out
    model = BIFReader(str(model_path)).get_model()
    assert model.get_cpds("D").state_names["D"] == ["0", "1"]
    assert model.get_cpds("C").state_names["C"] == ["0", "1", "2"]
    assert all(np.all(cpd.values > 0) for cpd in model.get_cpds())  # fsNML: all positive

    code, out, err = cli("evaluate", test_csv, "--model", model_path, "--json", summary)
    assert code == 0, err
    # the same figure as the library's: fsNML on the learned structure, states declared
    edges = json.loads(summary.read_text())
    states = {c: ["0", "1"] for c in "ABD"} | {"C": ["0", "1", "2"]}
    reference = model.copy()
    reference.remove_cpds(*reference.get_cpds())
    reference.fit(train.astype(str), estimator=FSNMLEstimator(state_names=states))
    expected = log_loss(reference, test.astype(str))
    assert abs(edges["log_loss"] - expected) < 1e-9


def test_fit_declares_them_too_and_the_flag_is_checked(tmp_path, cli):
    _, _, (train_csv, test_csv) = _files(tmp_path)
    model_path = tmp_path / "f.bif"
    code, _, err = cli(
        "fit", train_csv, "--edges", "A->B", "--states-from", test_csv, "--out", model_path
    )
    assert code == 0, err
    assert BIFReader(str(model_path)).get_model().get_cpds("D").state_names["D"] == ["0", "1"]
    # an output onto the file it reads states from is refused, nothing written
    code, _, err = cli("learn", train_csv, "--states-from", test_csv, "--json", test_csv)
    assert code == 2 and "--states-from" in err
    assert pd.read_csv(test_csv).shape == (25, 4)
    # a states file without one of the data's columns: one line naming it
    pd.DataFrame({"A": [0, 1]}).to_csv(tmp_path / "narrow.csv", index=False)
    code, _, err = cli("learn", train_csv, "--states-from", tmp_path / "narrow.csv")
    assert code == 2 and err.count("\n") == 1 and "'B'" in err, err
