#!/usr/bin/python3
"""Every exported stage of attnlab-cli, recomputed in NumPy (float64) from the exported x and
weights, on configurations chosen here (biases, masks, d_k != d_model/h, no W_o, dropout, B > 1).
Everything is float32, as in PyTorch, so the tolerance is 1e-5 relative to each tensor's largest
magnitude (at least 1): |ours - numpy| <= 1e-5 * max(1, max|numpy|).
Prints the worst relative error per configuration and "N passed, M failed"."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

CLI = os.environ["ATTNLAB_CLI"]
TOL = 1e-5

CONFIGS = [
    ["--preset", "seed002"],
    ["--preset", "seed003"],
    ["--d-model", "12", "--heads", "3", "--seq-len", "7", "--batch", "2", "--seed", "11"],
    ["--d-model", "8", "--heads", "2", "--d-k", "6", "--d-v", "3", "--seq-len", "5", "--bias"],
    ["--d-in", "5", "--d-model", "16", "--heads", "4", "--seq-len", "9", "--mask", "causal",
     "--mask", "window:2:1", "--bias", "--seed", "3"],
    ["--d-model", "8", "--heads", "8", "--seq-len", "6", "--batch", "3", "--mask", "padding:0,3,6",
     "--no-output-proj"],
    ["--d-model", "8", "--heads", "2", "--seq-len", "12", "--dropout", "0.3", "--dropout-seed", "5"],
    ["--d-model", "6", "--heads", "1", "--sentence", "The cat sat on the mat", "--mask", "causal"],
    ["--d-model", "64", "--heads", "8", "--seq-len", "32", "--batch", "2", "--bias", "--seed", "9"],
    ["--d-model", "512", "--heads", "8", "--seq-len", "128", "--bias", "--mask", "causal"],
]


def visible_mask(cfg, B, T):
    m = cfg["mask"]
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    vis = np.ones((B, T, T), dtype=bool)
    if m["causal"]:
        vis &= (j <= i)[None]
    if m["padding"]:
        lengths = m["padding"] * B if len(m["padding"]) == 1 else m["padding"]
        for b in range(B):
            vis[b] &= (j < lengths[b])
    if m["window"] > 0:
        g = m["global_tokens"]
        local = (np.abs(i - j) <= m["window"]) | (i < g) | (j < g)
        vis &= local[None]
    return vis  # (B, T, T)


def reference(d):
    cfg = json.load(open(os.path.join(d, "trace.json")))["config"]
    L = lambda n: np.load(os.path.join(d, n + ".npy")).astype(np.float64)
    has = lambda n: os.path.exists(os.path.join(d, n + ".npy"))
    x = L("x")
    B, T, _ = x.shape
    h = cfg["n_heads"]
    ref = {"x": x}
    for n in "qkv":
        ref[n] = x @ L("w_" + n) + (L("b_" + n) if has("b_" + n) else 0)
        ref[n + "_split"] = ref[n].reshape(B, T, h, -1)
        ref[n + "_heads"] = ref[n + "_split"].transpose(0, 2, 1, 3)
    dk = ref["q_heads"].shape[-1]
    ref["scores"] = ref["q_heads"] @ ref["k_heads"].transpose(0, 1, 3, 2)
    ref["scaled"] = ref["scores"] / np.sqrt(dk)
    vis = visible_mask(cfg, B, T)[:, None]  # (B, 1, T, T) broadcasts over heads
    ref["masked"] = np.where(vis, ref["scaled"], -np.inf)
    row_max = np.where(vis, ref["scaled"], -1e300).max(-1, keepdims=True)
    row_max = np.where(row_max == -1e300, 0.0, row_max)  # rows with no visible key
    e = np.where(vis, np.exp(ref["scaled"] - row_max), 0.0)
    total = e.sum(-1, keepdims=True)
    ref["weights"] = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    used = ref["weights"]
    if cfg["dropout"] > 0:
        # The drop pattern is the core's (seeded); check the survivors' scaling against it.
        dropped = L("weights_dropout")
        keep = dropped != 0
        used = np.where(keep, ref["weights"] / (1 - cfg["dropout"]), 0.0)
        ref["weights_dropout"] = used
    ref["context"] = used @ ref["v_heads"]
    ref["context_t"] = ref["context"].transpose(0, 2, 1, 3)
    ref["concat"] = ref["context_t"].reshape(B, T, -1)
    ref["out"] = ref["concat"] @ L("w_o") + (L("b_o") if has("b_o") else 0) if has("w_o") else ref["concat"]
    return ref


def compare(d, ref):
    worst = {}
    for name, want in ref.items():
        got = np.load(os.path.join(d, name + ".npy"))
        assert got.dtype == np.float32 and got.flags.c_contiguous, name
        assert got.shape == want.shape, f"{name}: shape {got.shape} != {want.shape}"
        finite = np.isfinite(want)
        assert np.array_equal(finite, np.isfinite(got)), f"{name}: -inf pattern differs"
        assert np.all(got[~finite] == want[~finite]), f"{name}: non-finite values differ"
        if finite.any():
            scale = max(1.0, float(np.abs(want[finite]).max()))
            worst[name] = float(np.abs(got[finite] - want[finite]).max()) / scale
        else:
            worst[name] = 0.0
    return worst


def main():
    passed = failed = 0
    for args in CONFIGS:
        with tempfile.TemporaryDirectory() as d:
            run = subprocess.run([CLI, *args, "--export", d], capture_output=True, text=True)
            try:
                assert run.returncode == 0, run.stderr.strip()
                worst = compare(d, reference(d))
                name, diff = max(worst.items(), key=lambda kv: kv[1])
                print(f"{' '.join(args)}: max |ours - numpy| / scale = {diff:.2e} ({name})")
                assert diff < TOL, f"{name} differs by {diff}"
                passed += 1
            except AssertionError as err:
                print(f"FAIL {' '.join(args)}: {err}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
