#!/usr/bin/python3
"""Longer than training (issue 23): train one task with every position encoding and several seeds
(`attnlab-cli train --pos P --eval-seq-len 2T 4T`), read each run's history.json "length_eval",
and print a markdown table of the accuracy at T, 2T and 4T: mean ± sample standard deviation over
the seeds, in percent; "n/a" where the learned table has no rows (it is never extrapolated).

Usage: tools/length_experiment.py [--cli build/app/attnlab-cli] [--task previous-token]
           [--seeds 0 1 2] [-- TRAIN FLAGS...]
The train flags after "--" replace the defaults below (task, sizes, steps); --pos, --seed,
--eval-seq-len and --out are added per run. Only the standard library is needed.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ENCODINGS = ["none", "sinusoidal", "learned", "rope", "alibi"]
DEFAULTS = {
    "previous-token": ["--layers", "1", "--heads", "4", "--d-model", "32", "--seq-len", "16",
                       "--vocab", "16", "--steps", "1500", "--batch-size", "32", "--lr", "3e-3"],
    # V = 4T: the fresh tokens of a 4T-long sequence can all differ, so every target is unique
    "induction": ["--layers", "2", "--heads", "4", "--d-model", "32", "--seq-len", "16",
                  "--vocab", "64", "--steps", "2500", "--batch-size", "32", "--lr", "3e-3"],
}


def flag(args, name):
    return int(args[args.index(name) + 1])


def run(cli, task, flags, pos, seed, out):
    T = flag(flags, "--seq-len")
    cmd = [cli, "train", "--task", task, *flags, "--pos", pos, "--seed", str(seed),
           "--eval-seq-len", str(2 * T), str(4 * T), "--log-every", "100000", "--out", out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"length_experiment: {' '.join(cmd)} failed: {proc.stderr.strip()}")
    with open(os.path.join(out, "history.json")) as f:
        return json.load(f)["length_eval"]


def cell(values, reason):
    if reason:
        return "n/a"
    if len(values) == 1:
        return f"{100 * values[0]:.1f}"
    return f"{100 * statistics.mean(values):.1f} ± {100 * statistics.stdev(values):.1f}"


def main(argv):
    if "--" in argv:
        argv, train_flags = argv[: argv.index("--")], argv[argv.index("--") + 1:]
    else:
        train_flags = None
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", default="build/app/attnlab-cli")
    ap.add_argument("--task", default="previous-token", choices=sorted(DEFAULTS))
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    args = ap.parse_args(argv)
    flags = train_flags if train_flags is not None else DEFAULTS[args.task]
    T = flag(flags, "--seq-len")
    rows = []
    with tempfile.TemporaryDirectory(prefix="attnlab_length_") as root:
        for pos in ENCODINGS:
            per_length = {}
            for seed in args.seeds:
                for e in run(args.cli, args.task, flags, pos, seed, os.path.join(root, pos)):
                    values, reason = per_length.setdefault(e["seq_len"], ([], None))
                    if e["available"]:
                        values.append(min(e["accuracy"]))
                    else:
                        per_length[e["seq_len"]] = (values, e["not_available"])
            rows.append((pos, [cell(*per_length[L]) for L in (T, 2 * T, 4 * T)],
                         [per_length[L][1] for L in (T, 2 * T, 4 * T) if per_length[L][1]]))
    seeds = " ".join(str(s) for s in args.seeds)
    print(f"`{args.task}`, trained at T = {T}, accuracy in % on 256 fresh sequences, "
          f"mean ± sd over seeds {seeds}:\n")
    print(f"| pos | T = {T} | 2T = {2 * T} | 4T = {4 * T} |")
    print("| --- | --- | --- | --- |")
    notes = set()
    for pos, cells, reasons in rows:
        print(f"| {pos} | " + " | ".join(cells) + " |")
        notes.update(reasons)
    for note in sorted(notes):
        print(f"\nn/a: {note[len('n/a: '):]}, so it has nothing to add beyond T.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
