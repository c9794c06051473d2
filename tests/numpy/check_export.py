#!/usr/bin/python3
"""Every exported stage of attnlab-cli, recomputed in NumPy (float64) from the exported x and
weights, on configurations chosen here (biases, masks, d_k != d_model/h, no W_o, dropout, B > 1,
Llama's RoPE with --rope-theta: q_rot and k_rot, and rope_inv_freq against theta^(-2i/d_k)).
Everything is float32, as in PyTorch, so the tolerance is 1e-5 relative to each tensor's largest
magnitude (at least 1): |ours - numpy| <= 1e-5 * max(1, max|numpy|).
Prints the worst relative error per configuration and "N passed, M failed"."""
import os
import sys
import tempfile

import numpy as np

from export_checks import (bias, compare, config, export, has, load, rope_inv_freq, rotate_half,
                           run_all, softmax, visible)

CLI = os.environ["ATTNLAB_CLI"]

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
    ["--preset", "seed003", "--rope-theta", "10000"],
    ["--d-model", "16", "--heads", "4", "--seq-len", "9", "--batch", "2", "--rope-theta", "10000",
     "--bias", "--mask", "causal", "--seed", "4"],
    ["--d-model", "64", "--heads", "4", "--seq-len", "24", "--rope-theta", "500000", "--seed", "8"],
]


def reference(d):
    cfg = config(d)
    x = load(d, "x")
    B, T, _ = x.shape
    h = cfg["n_heads"]
    ref = {"x": x}
    for n in "qkv":
        ref[n] = x @ load(d, "w_" + n) + bias(d, "b_" + n)
        ref[n + "_split"] = ref[n].reshape(B, T, h, -1)
        ref[n + "_heads"] = ref[n + "_split"].transpose(0, 2, 1, 3)
    dk = ref["q_heads"].shape[-1]
    q, k = ref["q_heads"], ref["k_heads"]
    if cfg["rope_theta"] > 0:  # Llama's RoPE after the transpose
        inv_freq = ref["rope_inv_freq"] = rope_inv_freq(cfg, dk)
        q = ref["q_rot"] = rotate_half(q, inv_freq)
        k = ref["k_rot"] = rotate_half(k, inv_freq)
    ref["scores"] = q @ k.transpose(0, 1, 3, 2)
    ref["scaled"] = ref["scores"] / np.sqrt(dk)
    vis = visible(cfg, B, T, T)[:, None]  # (B, 1, T, T) broadcasts over heads
    ref["masked"] = np.where(vis, ref["scaled"], -np.inf)
    ref["weights"] = softmax(ref["scaled"], vis)
    used = ref["weights"]
    if cfg["dropout"] > 0:
        # The drop pattern is the core's (seeded); check the survivors' scaling against it.
        dropped = load(d, "weights_dropout")
        keep = dropped != 0
        used = np.where(keep, ref["weights"] / (1 - cfg["dropout"]), 0.0)
        ref["weights_dropout"] = used
    ref["context"] = used @ ref["v_heads"]
    ref["context_t"] = ref["context"].transpose(0, 2, 1, 3)
    ref["concat"] = ref["context_t"].reshape(B, T, -1)
    ref["out"] = ref["concat"] @ load(d, "w_o") + bias(d, "b_o") if has(d, "w_o") else ref["concat"]
    return ref


def check(args):
    with tempfile.TemporaryDirectory() as d:
        export(CLI, args, d)
        return compare(d, reference(d))


if __name__ == "__main__":
    sys.exit(run_all(CONFIGS, check))
