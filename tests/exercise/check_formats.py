#!/usr/bin/env python3
"""attnlab-cli check --format json|junit|gradescope (issue 39, the course's autograder): each
format on right and wrong answers of students_numpy.py, parsed back by Python's json and
xml.etree, against what the students' own arrays say (which stages are right, the first wrong
one) and exercise.json's "points"; --output; and bad input (an unknown format, bad points, an
output folder that is missing) as one line and exit 2, with no file written.

Usage: ATTNLAB_CLI=build/app/attnlab-cli /usr/bin/python3 check_formats.py"""
import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import students_numpy  # noqa: E402
from script_checks import check, failures, run  # noqa: E402

FORMATS = "text, json, junit or gradescope"


def save(folder, stages, names=None, file="answer.npz"):
    path = os.path.join(folder, file)
    np.savez(path, **{n: np.ascontiguousarray(v, dtype=np.float32) for n, v in stages.items()
                      if names is None or n in names})
    return path


def agrees(given, right):
    """The grader's rule, written here on its own: same shape; |given - right| within 1e-4 of
    max(1, max |right|) where right is finite; a large negative fill where right is -inf."""
    given, right = np.asarray(given, np.float32).astype(np.float64), np.asarray(right, np.float64)
    if given.shape != right.shape:
        return False
    finite = np.isfinite(right)
    scale = max(1.0, float(np.abs(right[finite]).max())) if finite.any() else 1.0
    return bool(np.all(np.abs(given[finite] - right[finite]) <= 1e-4 * scale)
                and np.all(given[~finite] <= -1e4))


def expected(stage_names, given, right):
    """Per stage of the exercise: "right", "wrong" or "not given"; and the first wrong one."""
    verdicts = {n: ("not given" if n not in given else
                    "right" if agrees(given[n], right[n]) else "wrong") for n in stage_names}
    first = next((n for n in stage_names if verdicts[n] == "wrong"), None)
    return verdicts, first


def formats(folder, answer):
    """The three formats of one answer, parsed; the exit codes; the text report."""
    results = {}
    for f in ("text", "json", "junit", "gradescope"):
        code, out, err = run("check", folder, "--answer", answer, "--format", f)
        results[f] = (code, out, err)
    codes = {f: r[0] for f, r in results.items()}
    text = results["text"][1]
    data = json.loads(results["json"][1])
    junit = ET.fromstring(results["junit"][1])
    gradescope = json.loads(results["gradescope"][1])
    return codes, text, data, junit, gradescope


def check_answer(label, folder, stage_names, points, given, right, mistakes):
    answer = save(folder, given)
    verdicts, first = expected(stage_names, given, right)
    codes, text, data, junit, gs = formats(folder, answer)
    want_code = 1 if first else 0
    check(set(codes.values()) == {want_code}, f"{label}: exit {want_code} in every format ({codes})")
    # JSON: the report as data.
    check(data["report"] == text, f"{label}: json's report is the text report")
    check(data["passed"] == (first is None), f"{label}: json passed = {first is None}")
    check(data["first_wrong"] == first, f"{label}: json first_wrong = {first} ({data['first_wrong']})")
    check([m["name"] for m in data["mistakes"]] == mistakes,
          f"{label}: json mistakes = {mistakes} ({[m['name'] for m in data['mistakes']]})")
    check(all(m["fix"] and m["fix"] in text for m in data["mistakes"]), f"{label}: json fix in the report")
    check((data["unexplained"] is not None) == (first is not None and not mistakes),
          f"{label}: json unexplained only when nothing known explains it")
    check([s["name"] for s in data["stages"]] == stage_names, f"{label}: json stages in pipeline order")
    got = {s["name"]: ("not given" if not s["given"] else "right" if s["right"] else "wrong")
           for s in data["stages"]}
    check(got == verdicts, f"{label}: json stage verdicts as the arrays say")
    for s in data["stages"]:
        if s["given"] and s["shape_ok"]:
            g, r = np.asarray(given[s["name"]], np.float32), right[s["name"]]
            finite = np.isfinite(r)
            err = float(np.abs(g[finite] - r[finite]).max()) if finite.any() else 0.0
            ok = abs(s["max_error"] - err) <= 1e-5 * max(1.0, err)
            check(ok and s["entries"] == r.size, f"{label}: json {s['name']} max_error {s['max_error']:.3g} "
                  f"(numpy {err:.3g}), entries {s['entries']}")
            if s["right"]:
                check(s["worst"] is None and s["wrong_entries"] == 0, f"{label}: json {s['name']} right: no worst")
            else:
                w = s["worst"]
                at = float(r[tuple(w["index"])]) if w and len(w["index"]) == r.ndim else None
                check(at is not None and (float(w["right"]) == at if not np.isfinite(at) else
                                          abs(float(w["right"]) - at) <= 1e-6 * max(1, abs(at))),
                      f"{label}: json {s['name']} worst entry's right value at its index")
    # JUnit.
    suite = junit.find("testsuite")
    cases = suite.findall("testcase")
    check(suite.get("name") == "attnlab-check" and [c.get("name") for c in cases] == stage_names,
          f"{label}: junit suite attnlab-check, a testcase per stage")
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    skipped = [c.get("name") for c in cases if c.find("skipped") is not None]
    check(failed == [n for n in stage_names if verdicts[n] == "wrong"] and
          skipped == [n for n in stage_names if verdicts[n] == "not given"] and
          suite.get("failures") == str(len(failed)) and suite.get("skipped") == str(len(skipped)),
          f"{label}: junit failures {failed}, skipped {len(skipped)}")
    check(suite.find("system-out").text == text, f"{label}: junit system-out is the report")
    if first:
        message = cases[stage_names.index(first)].find("failure").get("message")
        want = [first + ": WRONG", "the first wrong stage"] + mistakes
        check(all(w in message for w in want), f"{label}: junit failure message {message!r} names {want}")
        if not mistakes:
            check("nothing known explains it" in message, f"{label}: junit says nothing known explains it")
    # Gradescope.
    tests = gs["tests"]
    check(gs["output"] == text and gs["visibility"] == "visible", f"{label}: gradescope output is the report")
    check([t["name"] for t in tests] == stage_names, f"{label}: gradescope a test per stage")
    worth = {n: points.get(n, 0) if points else 1 for n in stage_names}
    check(all(t["max_score"] == worth[t["name"]] for t in tests), f"{label}: gradescope max_score as points say")
    scores = {t["name"]: t["score"] for t in tests}
    check(scores == {n: worth[n] if verdicts[n] == "right" else 0 for n in stage_names},
          f"{label}: gradescope scores: points for the right stages only")
    check(abs(gs["score"] - sum(scores.values())) < 1e-9, f"{label}: gradescope score {gs['score']} is their sum")
    check(all(t["output"].startswith(t["name"] + ": ") for t in tests), f"{label}: gradescope outputs name their stage")
    if first:
        out = next(t["output"] for t in tests if t["name"] == first)
        check(all(f"Mistake: {m} " in out for m in mistakes) and "fix:" in out if mistakes else
              "Diagnosis: " in out, f"{label}: gradescope {first}'s output holds the diagnosis")


def check_output_option(folder, answer, tmp):
    path = os.path.join(tmp, "results.json")
    _, formatted, _ = run("check", folder, "--answer", answer, "--format", "gradescope")
    _, text, _ = run("check", folder, "--answer", answer)
    code, out, err = run("check", folder, "--answer", answer, "--format", "gradescope", "--output", path)
    check(code == 0 and open(path).read() == formatted and out == text and err == "",
          "--output: the file holds the format, stdout the text report")
    leftovers = [f for f in os.listdir(tmp) if f.startswith("results.json.tmp")]
    check(leftovers == [], f"--output: no temporary file left ({leftovers})")
    # An answer that cannot be read: exit 2, the old results kept whole.
    open(path, "w").write("old results")
    junk = os.path.join(tmp, "junk.npz")
    open(junk, "wb").write(b"not an archive")
    code, out, err = run("check", folder, "--answer", junk, "--format", "gradescope", "--output", path)
    check(code == 2 and len(err.strip().splitlines()) == 1 and open(path).read() == "old results",
          f"--output with an unreadable answer: exit 2, the file untouched ({err.strip()})")


def one_line_exit_2(args, what, must_contain):
    code, out, err = run(*args)
    lines = err.strip().splitlines()
    check(code == 2 and len(lines) == 1 and all(m in err for m in must_contain) and out == "",
          f"{what}: exit 2 with one line naming {must_contain} ({err.strip()})")


def check_bad_input(folder, answer, tmp):
    one_line_exit_2(["check", folder, "--answer", answer, "--format", "xml"], "--format xml",
                    ["--format xml", FORMATS])
    missing = os.path.join(tmp, "no-such-folder", "results.json")
    one_line_exit_2(["check", folder, "--answer", answer, "--format", "json", "--output", missing],
                    "--output into a missing folder", [missing])
    check(not os.path.exists(os.path.dirname(missing)), "--output into a missing folder: nothing made")
    exercise_json = os.path.join(folder, "exercise.json")
    original = open(exercise_json).read()
    source = os.path.join(folder, "exercise.json")
    for points, words in [({"out": -1}, ['"points" of "out"', "0 or more", "-1"]),
                          ({"out": "four"}, ['"points" of "out"', "number", '"four"']),
                          ({"out": None}, ['"points" of "out"', "number", "null"]),
                          ({"attn": 2}, ['"points" names "attn"', "the stages are q, k, v"]),
                          (3, ['key "points"', "object"])]:
        doc = json.loads(original)
        doc["points"] = points
        open(exercise_json, "w").write(json.dumps(doc))
        for f in ("gradescope", "text"):
            one_line_exit_2(["check", folder, "--answer", answer, "--format", f],
                            f"points {json.dumps(points)} ({f})", [source] + words)
    open(exercise_json, "w").write(original)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for preset, points in [("seed002", {}), ("gqa", {"out": 4, "weights": 2.5, "q": 0})]:
            folder = os.path.join(tmp, preset)
            code, _, err = run("exercise", folder, "--preset", preset)
            check(code == 0, f"{preset}: exercise written ({err.strip()})")
            doc = json.load(open(os.path.join(folder, "exercise.json")))
            stage_names = [s["name"] for s in doc["stages"]]
            if points:
                doc["points"] = points
                json.dump(doc, open(os.path.join(folder, "exercise.json"), "w"), indent=1)
            p = students_numpy.load_exercise(folder)
            right = students_numpy.student_mha(p, None)
            cases = [("right, whole", right, []),
                     ("right, out alone", {"out": right["out"]}, []),
                     ("forget-transpose", students_numpy.student_mha(p, "forget-transpose"),
                      ["forget-transpose"]),
                     ("no-scale", students_numpy.student_mha(p, "no-scale"), ["no-scale"]),
                     ("softmax-wrong-axis, out alone",
                      {"out": students_numpy.student_mha(p, "softmax-wrong-axis")["out"]},
                      ["softmax-wrong-axis"]),
                     ("unknown bug", students_numpy.student_mha(p, "residual-added"), [])]
            if preset == "gqa":
                cases.append(("mask-zero", students_numpy.student_mha(p, "mask-zero"), ["mask-zero"]))
            for label, given, mistakes in cases:
                check_answer(f"{preset} {label}", folder, stage_names, points, given, right, mistakes)
            # The untouched starter: nothing scored, said so.
            marker = os.path.join(folder, "marker.npz")
            np.savez(marker, not_implemented=np.zeros(0, np.float32))
            codes, text, data, junit, gs = formats(folder, marker)
            check(set(codes.values()) == {1} and "not implemented yet" in text and gs["score"] == 0
                  and data["not_implemented"] and gs["output"] == text and
                  len(junit.find("testsuite").findall("testcase/skipped")) == len(stage_names),
                  f"{preset}: the untouched starter scores 0 and says not implemented")
        # Names that XML and JSON must escape, in an answer's ignored arrays: parsed back whole.
        folder = os.path.join(tmp, "seed002")
        odd = 'a<&"b\'>'
        answer = save(folder, {"out": right_out(folder), odd: np.zeros(1)}, file="odd.npz")
        codes, text, data, junit, gs = formats(folder, answer)
        check(data["ignored"] == [odd] and odd in junit.find("testsuite/system-out").text and
              odd in gs["output"], f"the array name {odd!r} parsed back whole from json and junit")
        answer = save(folder, students_numpy.student_mha(students_numpy.load_exercise(folder), None))
        check_output_option(folder, answer, tmp)
        check_bad_input(folder, answer, tmp)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


def right_out(folder):
    return students_numpy.student_mha(students_numpy.load_exercise(folder), None)["out"]


if __name__ == "__main__":
    sys.exit(main())
