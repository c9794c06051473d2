#!/usr/bin/python3
"""attnlab-cli's training gradients against the NumPy reference (numpy_reference.py), on a few
configurations including the issue's "2-layer, biased, MLP-on model":

    attnlab-cli train ... --steps 0 --out MODEL --grads GRADS
    numpy_reference.py MODEL GRADS          (loss and every grad_<name>.npy, rtol 1e-4)

Usage: ATTNLAB_CLI=build/app/attnlab-cli tests/training/check_cli_grads.py [--torch] [--keep]
       (or the CLI's path as the first argument). --torch also runs torch_reference.py.
Exit 0 when every configuration matches, 1 otherwise, 77 (ctest's SKIP_RETURN_CODE
convention) when no CLI is given or it does not exist.

To run it in ctest (needs one line in tests/CMakeLists.txt, not added here):
  add_test(NAME training_numpy_grads COMMAND ${CMAKE_COMMAND} -E env
           ATTNLAB_CLI=$<TARGET_FILE:attnlab-cli> /usr/bin/python3
           ${CMAKE_CURRENT_SOURCE_DIR}/training/check_cli_grads.py)
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

COMMON = ["--steps", "0", "--lr", "3e-3"]
CONFIGS = [
    # the "Done when": 2 layers, biased, MLP on
    ["--task", "previous-and-first", "--layers", "2", "--heads", "2", "--d-model", "16",
     "--seq-len", "8", "--vocab", "10", "--mlp", "--bias", "--batch-size", "4", "--seed", "1"],
    # d_k != d_model / h, no bias, one output
    ["--task", "previous-token", "--layers", "1", "--heads", "3", "--d-model", "12", "--d-k", "5",
     "--seq-len", "7", "--vocab", "9", "--no-bias", "--batch-size", "3", "--seed", "2"],
    ["--task", "first-token", "--layers", "1", "--heads", "1", "--d-model", "8",
     "--seq-len", "6", "--vocab", "5", "--bias", "--batch-size", "5", "--seed", "3"],
    # the benchmark's model, at its real size
    ["--task", "previous-and-first", "--layers", "1", "--heads", "2", "--d-model", "32",
     "--seq-len", "12", "--vocab", "16", "--batch-size", "64", "--seed", "0"],
    ["--task", "induction", "--layers", "2", "--heads", "2", "--d-model", "16",
     "--seq-len", "16", "--vocab", "12", "--batch-size", "4", "--seed", "4"],
    # issue 23: each position encoding (RoPE and ALiBi inside both layers)
    ["--task", "induction", "--layers", "2", "--heads", "2", "--d-model", "16", "--pos", "rope",
     "--seq-len", "10", "--vocab", "12", "--mlp", "--batch-size", "4", "--seed", "6"],
    ["--task", "induction", "--layers", "2", "--heads", "4", "--d-model", "16", "--pos", "alibi",
     "--seq-len", "10", "--vocab", "12", "--batch-size", "4", "--seed", "7"],
    ["--task", "previous-token", "--layers", "1", "--heads", "2", "--d-model", "12",
     "--pos", "sinusoidal", "--seq-len", "8", "--vocab", "9", "--batch-size", "4", "--seed", "8"],
    ["--task", "previous-token", "--layers", "1", "--heads", "2", "--d-model", "12",
     "--pos", "none", "--seq-len", "8", "--vocab", "9", "--batch-size", "4", "--seed", "9"],
]
# Bidirectional (no causal mask): the issue allows `reverse` or `sort`; the first accepted is used.
BIDIRECTIONAL = ["--layers", "1", "--heads", "2", "--d-model", "8", "--seq-len", "6",
                 "--vocab", "6", "--bias", "--mlp", "--batch-size", "3", "--seed", "5"]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def main(argv):
    cli = next((a for a in argv if not a.startswith("--")), os.environ.get("ATTNLAB_CLI"))
    use_torch, keep = "--torch" in argv, "--keep" in argv
    if not cli or not os.path.isfile(cli):
        print(f"skip: no attnlab-cli ({cli!r}); set ATTNLAB_CLI or pass its path")
        return 77
    root = tempfile.mkdtemp(prefix="attnlab_cli_grads_")
    results = []
    configs = [(c, None) for c in CONFIGS] + [(BIDIRECTIONAL, ["reverse", "sort"]),
                                              (BIDIRECTIONAL + ["--pos", "alibi"], ["reverse"])]
    try:
        for i, (cfg, tasks) in enumerate(configs):
            model, grads = os.path.join(root, f"c{i}", "model"), os.path.join(root, f"c{i}", "grads")
            os.makedirs(os.path.dirname(model), exist_ok=True)
            attempts = [cfg + ["--task", t] for t in tasks] if tasks else [cfg]
            proc, args = None, None
            for args in attempts:
                shutil.rmtree(model, ignore_errors=True)
                shutil.rmtree(grads, ignore_errors=True)
                proc = run([cli, "train"] + args + COMMON + ["--out", model, "--grads", grads])
                if proc.returncode == 0:
                    break
            label = " ".join(args)
            print(f"\n== {label}")
            if proc.returncode != 0:
                print(f"FAIL: attnlab-cli exited {proc.returncode}: "
                      f"{(proc.stderr or proc.stdout).strip()[:500]}")
                results.append((label, False))
                continue
            ok = True
            checkers = ["numpy_reference.py"] + (["torch_reference.py"] if use_torch else [])
            for script in checkers:
                chk = run(["/usr/bin/python3", os.path.join(HERE, script), model, grads,
                           "--quiet"])
                print(chk.stdout.rstrip())
                if chk.stderr.strip():
                    print(chk.stderr.rstrip())
                ok &= chk.returncode == 0
            results.append((label, ok))
    finally:
        if keep:
            print(f"\nkept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    failed = [l for l, ok in results if not ok]
    print(f"\n{len(results) - len(failed)} passed, {len(failed)} failed")
    for l in failed:
        print(f"  failed: {l}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
