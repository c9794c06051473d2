"""attnlab.exercise: the settings as the command line takes them, the same refusals, the inputs,
mask, sizes and stages, and save() = attnlab-cli exercise DIR."""
import json
import os

import numpy as np
import pytest

import attnlab


def test_preset_matches_the_command_lines_folder(cli, tmp_path):
    ex = attnlab.exercise("seed003")
    assert cli("exercise", str(tmp_path / "cli"), "--preset", "seed003").returncode == 0
    doc = json.load(open(tmp_path / "cli" / "exercise.json"))
    for name in ("x", "w_q", "w_k", "w_v"):
        np.testing.assert_array_equal(getattr(ex, name), np.load(tmp_path / "cli" / (name + ".npy")))
    assert ex.w_o is None and ex.b_q is None  # seed003: no output projection, no biases
    assert ex.sizes == doc["sizes"]
    assert ex.stages == [(s["name"], tuple(s["shape"])) for s in doc["stages"]]
    assert ex.sizes["n_heads"] == 2 and ex.x.shape == (1, 11, 8)


def test_keywords_are_the_command_lines_flags(cli, tmp_path):
    ex = attnlab.exercise(d_model=8, n_heads=2, mask="causal", seq_len=11, bias=True, seed=5)
    flags = ["--d-model", "8", "--heads", "2", "--mask", "causal", "--seq-len", "11", "--bias",
             "--seed", "5"]
    assert cli("exercise", str(tmp_path / "cli"), *flags).returncode == 0
    for name in ("x", "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"):
        np.testing.assert_array_equal(getattr(ex, name), np.load(tmp_path / "cli" / (name + ".npy")))
    # The mask: True where query i may see key j; causal: j <= i.
    T = ex.sizes["T"]
    assert ex.mask.dtype == bool and ex.mask.shape == (1, T, T)
    np.testing.assert_array_equal(ex.mask[0], np.tril(np.ones((T, T), dtype=bool)))
    assert ex.sizes["d_k"] == 4 and ex.sizes["bias"] is True


@pytest.mark.parametrize("keywords, flags", [
    ({"d_model": 8, "n_heads": 3}, ["--d-model", "8", "--heads", "3"]),
    ({"mask": "diagonal"}, ["--mask", "diagonal"]),
    ({"fused_qkv": True}, ["--fused-qkv"]),
    ({"n_heads": "two"}, ["--heads", "two"]),
])
def test_refusals_are_the_command_lines_words(cli, tmp_path, keywords, flags):
    with pytest.raises(ValueError) as refused:
        attnlab.exercise(**keywords)
    said = cli("exercise", str(tmp_path / "never"), *flags)
    assert said.returncode == 2 and not (tmp_path / "never").exists()
    line = said.stderr.strip()
    assert str(refused.value) in line and len(str(refused.value)) > 20, (line, str(refused.value))


def test_unknown_setting_and_preset():
    with pytest.raises(ValueError, match=r"n_head=: unknown setting; the settings are .*n_heads"):
        attnlab.exercise(n_head=2)
    with pytest.raises(ValueError, match="seed999"):
        attnlab.exercise("seed999")
    with pytest.raises(ValueError, match="give True or False"):
        attnlab.exercise(bias="yes")


def test_save_writes_the_folder_and_keeps_a_students_file(cli, tmp_path, capsys):
    ex = attnlab.exercise("seed003")
    folder = tmp_path / "ex1"
    written = ex.save(folder)
    assert sorted(written) == sorted(os.listdir(folder))
    assert "mha.py" in written and "x.npy" in written
    # Byte for byte what the command line writes.
    assert cli("exercise", str(tmp_path / "cli"), "--preset", "seed003").returncode == 0
    for name in os.listdir(folder):
        assert (folder / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    # A student's mha.py is never overwritten; force moves it aside.
    (folder / "mha.py").write_text("# my work\n")
    assert ex.save(folder) == []
    assert "kept mha.py" in capsys.readouterr().err
    assert (folder / "mha.py").read_text() == "# my work\n"
    ex.save(folder, force=True)
    assert (folder / "mha.py.~1~").read_text() == "# my work\n"
    assert "moved mha.py to mha.py.~1~" in capsys.readouterr().err
    # Another exercise's folder is refused whole, with the command line's words.
    with pytest.raises(ValueError, match="holds another exercise"):
        attnlab.exercise("seed002").save(folder)


def test_exercise_folder_loads_back(tmp_path):
    ex = attnlab.exercise(d_model=8, n_heads=2, mask="causal", seq_len=11)
    ex.save(tmp_path / "ex")
    back = attnlab.exercise(str(tmp_path / "ex"))
    assert back.label == str(tmp_path / "ex")
    np.testing.assert_array_equal(back.w_q, ex.w_q)
    assert back.stages == ex.stages
