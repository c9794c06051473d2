#!/usr/bin/env python3
"""docs/autograder/run_autograder, as Gradescope runs it, on a fake /autograder layout in a
temporary folder (AUTOGRADER_ROOT): the course's exercise in source/exercise with "points", a
submission in, results/results.json out, validated against Gradescope's fields (score, tests with
name, score, max_score, output) and against what the student handed in: a right or wrong
answer.npz, a filled-in or untouched mha.py, one that crashes, nothing, a broken archive. The
course's folder is left as it was. docs/autograder/setup.sh installs only packages the project's
own setup.sh names.

Usage: ATTNLAB_CLI=build/app/attnlab-cli /usr/bin/python3 check_autograder.py"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import students_numpy  # noqa: E402

CLI = os.path.abspath(os.environ.get("ATTNLAB_CLI", "build/app/attnlab-cli"))
RUN = os.path.join(REPO, "docs", "autograder", "run_autograder")
POINTS = {"out": 4, "weights": 2, "q": 0.5}
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def snapshot(folder):
    return {f: open(os.path.join(folder, f), "rb").read() for f in sorted(os.listdir(folder))}


def autograde(root, submission):
    """A fresh submission/ and results/ under root, run_autograder run; its results.json."""
    for sub in ("submission", "results"):
        shutil.rmtree(os.path.join(root, sub), ignore_errors=True)
    os.makedirs(os.path.join(root, "submission"))
    for name, content in submission.items():
        path = os.path.join(root, "submission", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, dict):
            np.savez(path, **{n: np.asarray(v, np.float32) for n, v in content.items()})
        else:
            open(path, "wb" if isinstance(content, bytes) else "w").write(content)
    env = dict(os.environ, AUTOGRADER_ROOT=root, ATTNLAB_CLI=CLI, PYTHON="/usr/bin/python3")
    r = subprocess.run([RUN], cwd=root, env=env, capture_output=True, text=True)
    path = os.path.join(root, "results", "results.json")
    results = json.load(open(path)) if os.path.exists(path) else None
    return r.returncode, results


def valid(results, stage_names):
    """Gradescope's fields, each of its type; tests one per stage, the score their sum."""
    if not isinstance(results, dict) or not isinstance(results.get("output"), str):
        return False
    if not isinstance(results.get("score"), (int, float)) or results.get("visibility") != "visible":
        return False
    tests = results.get("tests")
    if not tests:
        return True  # a submission that could not be graded: its reason in output, scored 0
    fields_ok = all(isinstance(t.get("name"), str) and isinstance(t.get("output"), str) and
                    isinstance(t.get("score"), (int, float)) and
                    isinstance(t.get("max_score"), (int, float)) and 0 <= t["score"] <= t["max_score"]
                    for t in tests)
    return (fields_ok and [t["name"] for t in tests] == stage_names and
            abs(results["score"] - sum(t["score"] for t in tests)) < 1e-9 and
            all(t["max_score"] == POINTS.get(t["name"], 0) for t in tests))


def main():
    total = None
    with tempfile.TemporaryDirectory() as root:
        exercise = os.path.join(root, "source", "exercise")
        r = subprocess.run([CLI, "exercise", exercise, "--preset", "seed003"], capture_output=True, text=True)
        check(r.returncode == 0, f"the course's exercise written ({r.stderr.strip()})")
        doc = json.load(open(os.path.join(exercise, "exercise.json")))
        doc["points"] = POINTS
        json.dump(doc, open(os.path.join(exercise, "exercise.json"), "w"), indent=1)
        stage_names = [s["name"] for s in doc["stages"]]
        total = sum(POINTS.values())
        before = snapshot(exercise)
        p = students_numpy.load_exercise(exercise)
        right = students_numpy.student_mha(p, None)
        starter = open(os.path.join(exercise, "mha.py")).read()
        marker = '    raise NotImplementedError("the body of mha() in mha.py is still to be written")'
        check(marker in starter, "mha.py has the body to fill in")
        filled = starter.replace(marker, (
            f"    import sys; sys.path.insert(0, {HERE!r}); import students_numpy as s\n"
            "    return s.student_mha(s.load_exercise(HERE), {bug!r})"))

        code, res = autograde(root, {"answer.npz": right})
        check(code == 0 and valid(res, stage_names) and res["score"] == total,
              f"right answer.npz: score {res and res['score']} of {total}")
        check(res is not None and "Every given stage is right" in res["output"],
              "right answer.npz: the output is the report")

        code, res = autograde(root, {"homework/answer.npz": students_numpy.student_mha(p, "no-scale")})
        tests = {t["name"]: t for t in res["tests"]} if res else {}
        check(code == 0 and valid(res, stage_names) and 0 < res["score"] < total and
              tests["out"]["score"] == 0 and tests["q"]["score"] == POINTS["q"],
              f"no-scale answer.npz in a subfolder: score {res and res['score']} of {total}, out 0")
        check("scaled" in tests and "Mistake: no-scale" in tests["scaled"]["output"] and
              "fix:" in tests["scaled"]["output"] and "First wrong stage: scaled" in res["output"],
              "no-scale: the first wrong stage's test names the mistake and its fix")

        code, res = autograde(root, {"mha.py": filled.replace("{bug!r}", "None")})
        check(code == 0 and valid(res, stage_names) and res["score"] == total,
              f"mha.py filled in, run by the autograder: score {res and res['score']} of {total}")
        code, res = autograde(root, {"mha.py": filled.replace("{bug!r}", "'softmax-wrong-axis'")})
        check(code == 0 and valid(res, stage_names) and res["score"] < total and
              "Mistake: softmax-wrong-axis" in res["output"],
              f"mha.py with softmax over the wrong axis: score {res and res['score']}, mistake named")

        code, res = autograde(root, {"mha.py": starter})
        check(code == 0 and valid(res, stage_names) and res["score"] == 0 and
              "not implemented yet" in res["output"], "the untouched mha.py: score 0, not implemented")

        crash = starter.replace(marker, '    raise ValueError("shapes (3, 4) and (5, 4) not aligned")')
        code, res = autograde(root, {"mha.py": crash})
        check(code == 0 and valid(res, stage_names) and res["score"] == 0 and
              "wrote no answer.npz" in res["output"] and
              "ValueError: shapes (3, 4) and (5, 4) not aligned" in res["output"],
              "an mha.py that raises: score 0, its traceback's last line in the output")

        code, res = autograde(root, {"notes.txt": "I did it on paper"})
        check(code == 0 and valid(res, stage_names) and res["score"] == 0 and
              "Nothing to grade" in res["output"], "nothing to grade: score 0, said so")

        code, res = autograde(root, {"answer.npz": b"this is not an archive"})
        check(code == 0 and valid(res, stage_names) and res["score"] == 0 and
              "not a .npz archive" in res["output"], "a broken answer.npz: score 0, said why")

        check(snapshot(exercise) == before, "the course's exercise folder is left as it was")

    # setup.sh installs only packages the project's own setup.sh names (Debian's, by name).
    text = open(os.path.join(REPO, "docs", "autograder", "setup.sh")).read()
    wanted = re.search(r"apt-get install -y((?:.|\n)*?)\n\n", text).group(1)
    wanted = wanted.replace("\\", " ").split()
    project = open(os.path.join(REPO, "setup.sh")).read()
    named = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", project))
    check(wanted and all(w in named for w in wanted),
          f"setup.sh installs {wanted}: each a package the project's setup.sh names")
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
