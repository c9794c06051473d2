#!/usr/bin/env python3
"""attnlab-cli exercise and check against students' code written independently of the core
(students_numpy.py; with --torch, students_torch.py): right answers pass whole and partial, each
classic mistake is named from the full answer and from `out` alone, bugs
no known mistake explains get no name, and unreadable answers give exit 2 with one line.

Usage: ATTNLAB_CLI=build/app/attnlab-cli /usr/bin/python3 check_exercises.py [--torch]"""
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import students_numpy  # noqa: E402
from script_checks import check, failures, run  # noqa: E402

PRESETS = ["seed002", "seed003", "gqa"]
MISTAKES = ["forget-transpose", "shared-qk-projection", "no-scale", "scale-d-model",
            "softmax-wrong-axis", "mask-zero", "mask-after-softmax", "concat-no-transpose",
            "no-output-projection"]
UNKNOWN_BUGS = ["interleaved-heads", "residual-added"]
# The same mistake written another way: named from the full answer (out alone differs from the
# simulator's way of writing it).
VARIANTS = {"forget-transpose-both": ["forget-transpose"]}
# Mistakes combined: each named from the full answer.
COMBINED = ["no-scale+concat-no-transpose", "softmax-wrong-axis+no-output-projection"]


def applies(preset, mistake, p):
    causal = p["sizes"]["T"] > 1 and not p["visible"].all()
    if mistake in ("mask-zero", "mask-after-softmax"):
        return causal
    if mistake == "no-output-projection":
        return p["w_o"] is not None
    if mistake == "shared-qk-projection":
        return p["sizes"]["n_kv_heads"] == p["sizes"]["n_heads"]
    return True


def save(folder, stages, names=None, compressed=False, file="answer.npz"):
    arrays = {n: np.ascontiguousarray(v, dtype=np.float32) for n, v in stages.items()
              if names is None or n in names}
    path = os.path.join(folder, file)
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return path


def grade(folder, answer):
    return run("check", folder, "--answer", answer)


def named(out):
    return [line.split()[1] for line in out.splitlines() if line.startswith("Mistake: ")]


def check_preset(preset, student, tmp, label):
    folder = os.path.join(tmp, preset)
    code, _, err = run("exercise", folder, "--preset", preset)
    check(code == 0, f"{label} {preset}: exercise written ({err.strip()})")
    p = students_numpy.load_exercise(folder)
    right = student(p, None)
    code, out, _ = grade(folder, save(folder, right))
    check(code == 0 and "Every given stage is right" in out, f"{label} {preset}: right answer, whole")
    for subset in (["out"], ["q", "k", "v"], ["weights", "concat"], ["scores", "out"]):
        code, out, _ = grade(folder, save(folder, right, subset))
        check(code == 0, f"{label} {preset}: right answer, only {'+'.join(subset)}")
    code, out, _ = grade(folder, save(folder, right, compressed=True))
    check(code == 0, f"{label} {preset}: right answer, np.savez_compressed")
    npy_dir = os.path.join(tmp, preset + "_npy")
    os.makedirs(npy_dir, exist_ok=True)
    for n, v in right.items():
        np.save(os.path.join(npy_dir, n + ".npy"), np.ascontiguousarray(v, dtype=np.float32))
    code, out, _ = grade(folder, npy_dir)
    check(code == 0, f"{label} {preset}: right answer as a folder of .npy")
    for mistake in MISTAKES:
        if not applies(preset, mistake, p):
            continue
        wrong = student(p, mistake)
        code, out, _ = grade(folder, save(folder, wrong))
        check(code == 1 and named(out) == [mistake],
              f"{label} {preset} {mistake}: named from the full answer (got {named(out)})")
        code, out, _ = grade(folder, save(folder, wrong, ["out"]))
        check(code == 1 and named(out) == [mistake],
              f"{label} {preset} {mistake}: named from out alone (got {named(out)})")
    combined = {c: c.split("+") for c in COMBINED if all(applies(preset, m, p) for m in c.split("+"))}
    for bugs, mistakes in {**VARIANTS, **combined}.items():
        code, out, _ = grade(folder, save(folder, student(p, bugs)))
        check(code == 1 and sorted(named(out)) == sorted(mistakes),
              f"{label} {preset} {bugs}: named {mistakes} from the full answer (got {named(out)})")
    for bug in UNKNOWN_BUGS:
        wrong = student(p, bug)
        for subset in (None, ["out"]):
            code, out, _ = grade(folder, save(folder, wrong, subset))
            check(code == 1 and named(out) == [] and "nothing known explains it" in out,
                  f"{label} {preset} {bug} ({'full' if subset is None else 'out alone'}): "
                  f"no false name (got {named(out)})")
    return folder, p, right


def one_line_exit_2(args, what, must_contain):
    code, out, err = run(*args)
    lines = err.strip().splitlines()
    check(code == 2 and len(lines) == 1 and must_contain in err and out == "",
          f"{what}: exit 2 with one line ({err.strip()})")


def check_bad_input(folder, p, right, tmp):
    one_line_exit_2(["check", os.path.join(tmp, "missing")], "missing exercise folder",
                    "no such exercise folder")
    os.remove(os.path.join(folder, "answer.npz"))
    one_line_exit_2(["check", folder], "no answer.npz yet", "run python3 mha.py")
    junk = os.path.join(tmp, "junk.npz")
    open(junk, "wb").write(b"this is not an archive at all")
    one_line_exit_2(["check", folder, "--answer", junk], "not an archive", "not a .npz archive")
    whole = open(save(folder, right, file="whole.npz"), "rb").read()
    for cut in (len(whole) // 3, len(whole) - 10, 30):
        path = os.path.join(tmp, f"cut{cut}.npz")
        open(path, "wb").write(whole[:cut] if cut != 30 else b"PK" + whole[2:cut])
        one_line_exit_2(["check", folder, "--answer", path], f"truncated archive ({cut} bytes)",
                        path)
    compressed = open(save(folder, right, compressed=True, file="c.npz"), "rb").read()
    path = os.path.join(tmp, "flipped.npz")
    # Corrupt the first entry's deflated data (past its local header and name).
    broken = bytearray(compressed)
    for i in range(60, 90):
        broken[i] ^= 0x5A
    open(path, "wb").write(bytes(broken))
    one_line_exit_2(["check", folder, "--answer", path], "corrupt deflate data", path)
    path = os.path.join(tmp, "one.npy")
    np.save(path, right["out"].astype(np.float32))
    one_line_exit_2(["check", folder, "--answer", path], "a lone .npy", "not a .npz archive")
    path = os.path.join(tmp, "ints.npz")
    np.savez(path, out=np.zeros((2, 2), dtype=np.int64))
    one_line_exit_2(["check", folder, "--answer", path], "an integer array", "dtype")
    # Another config's answer: shapes say so.
    q = right["q"]
    other = {"q": np.zeros(q.shape[:-1] + (q.shape[-1] - 1,))}
    code, out, _ = grade(folder, save(folder, other))
    want = f"q is {tuple(q.shape[:-1]) + (q.shape[-1] - 1,)}; this exercise's q is {tuple(q.shape)}"
    check(code == 1 and want.replace(",)", ")") in out, f"another config's answer: '{want}'")
    # NaN, named with its first index.
    w = np.array(right["weights"], dtype=np.float32)
    w[0, 1, 2, 0] = np.nan
    code, out, _ = grade(folder, save(folder, {"weights": w}))
    check(code == 1 and "NaN at index (0, 1, 2, 0)" in out, "NaN named with its first index")
    # Unknown names listed, ignored; the known ones still graded.
    code, out, _ = grade(folder, save(folder, {"out": right["out"], "attn": right["weights"],
                                               "hidden": right["q"]}))
    check(code == 0 and "Ignored (not stages of this exercise): attn, hidden" in out,
          "unknown names listed and ignored")
    # The starters are valid Python (mha_torch.py is run only where torch is installed).
    for starter in ("mha.py", "mha_torch.py"):
        r = subprocess.run(["/usr/bin/python3", "-m", "py_compile", os.path.join(folder, starter)],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"{starter} compiles ({r.stderr.strip()})")
    # The starter filled in (by the students' NumPy code): its loading and saving grade right.
    text = open(os.path.join(folder, "mha.py")).read()
    marker = '    raise NotImplementedError("the body of mha() in mha.py is still to be written")'
    check(marker in text, "mha.py has the body to fill in")
    filled = os.path.join(folder, "filled.py")
    open(filled, "w").write(text.replace(marker, (
        f"    import sys; sys.path.insert(0, {HERE!r}); import students_numpy as s\n"
        "    return s.student_mha(s.load_exercise(HERE))")))
    r = subprocess.run(["/usr/bin/python3", filled], capture_output=True, text=True)
    code, out, _ = run("check", folder)
    check(r.returncode == 0 and code == 0, f"the starter filled in grades right ({r.stderr.strip()})")
    os.remove(filled)
    # The untouched starter.
    code = subprocess.run(["/usr/bin/python3", os.path.join(folder, "mha.py")],
                          capture_output=True, text=True).returncode
    check(code == 1, "the untouched starter exits 1")
    code, out, _ = run("check", folder)
    check(code == 1 and "not implemented yet" in out, "check says the starter is not implemented yet")


def main():
    torch = "--torch" in sys.argv
    student = students_numpy.student_mha
    label = "numpy"
    if torch:
        import students_torch
        student, label = students_torch.student_mha, "torch"
    with tempfile.TemporaryDirectory() as tmp:
        results = [check_preset(preset, student, tmp, label) for preset in PRESETS]
        if not torch:
            check_bad_input(*results[1], tmp)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
