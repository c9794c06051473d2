#!/usr/bin/env python3
"""attnlab-cli train --steps 0 --grads against NumPy (issue 12): an independent float64 forward of
the saved model on the saved batch must give loss.json's loss, and central finite differences of
that NumPy loss must give every grad_<name>.npy. Also checks model.json and the .npy layout.
Usage: ATTNLAB_CLI=... check_train_numpy.py  (prints the max differences; exits 1 on a mismatch)"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

CLI = os.environ["ATTNLAB_CLI"]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def forward_loss(p, cfg, tokens, targets):
    """The model of issue 12 in NumPy: X = E[tokens] + P; z = z + MHA(z) [+ MLP]; CE per output."""
    B, T = tokens.shape
    h, dk = cfg["heads"], cfg["d_k"]
    z = p["tok_emb"][tokens] + p["pos_emb"][None, :T]  # (B, T, D)
    for l in range(cfg["layers"]):
        g = lambda n: p.get(f"layer{l}.{n}")
        def proj(w, b):
            y = z @ g(w)
            return y + g(b) if cfg["bias"] else y
        q = proj("w_q", "b_q").reshape(B, T, h, dk).transpose(0, 2, 1, 3)  # (B, h, T, d_k)
        k = proj("w_k", "b_k").reshape(B, T, h, dk).transpose(0, 2, 1, 3)
        v = proj("w_v", "b_v").reshape(B, T, h, dk).transpose(0, 2, 1, 3)
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dk)  # (B, h, T, T)
        if cfg["causal"]:
            scores = np.where(np.tril(np.ones((T, T), bool)), scores, -np.inf)
        scores = scores - scores.max(-1, keepdims=True)
        w = np.exp(scores)
        w /= w.sum(-1, keepdims=True)
        ctx = (w @ v).transpose(0, 2, 1, 3).reshape(B, T, h * dk)  # (B, T, h*d_k)
        out = ctx @ g("w_o")
        if cfg["bias"]:
            out = out + g("b_o")
        z = z + out
        if cfg["mlp"]:
            hidden = np.maximum(z @ g("mlp_w1") + g("mlp_b1"), 0)
            z = z + hidden @ g("mlp_w2") + g("mlp_b2")
    loss = 0.0
    for j, y in enumerate(targets):
        logits = z @ p[f"unembed{j}"] + p[f"unembed{j}_bias"]  # (B, T, V_j)
        logits = logits - logits.max(-1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
        mask = y >= 0
        loss += -logp[mask, y[mask]].mean()
    return loss


def run_case(task, extra):
    with tempfile.TemporaryDirectory() as work:
        out, grads = os.path.join(work, "model"), os.path.join(work, "grads")
        args = [CLI, "train", "--task", task, "--steps", "0", "--batch-size", "3", "--lr", "1e-3",
                "--seed", "5", "--out", out, "--grads", grads] + extra
        subprocess.run(args, check=True, capture_output=True)
        cfg = json.load(open(os.path.join(out, "model.json")))
        p = {}
        for entry in cfg["parameters"]:
            a = np.load(os.path.join(out, entry["name"] + ".npy"))
            check(a.dtype == np.float32 and list(a.shape) == entry["shape"] and a.flags.c_contiguous,
                  f"{task}: {entry['name']} is float32 C-order {entry['shape']}")
            p[entry["name"]] = a.astype(np.float64)
        tokens = np.load(os.path.join(grads, "batch_tokens.npy"))
        check(tokens.dtype == np.int64 and tokens.shape == (3, cfg["seq_len"]), f"{task}: tokens")
        targets = [np.load(os.path.join(grads, f"batch_targets{j}.npy"))
                   for j in range(len(cfg["outputs"]))]
        reported = json.load(open(os.path.join(grads, "loss.json")))["loss"]
        loss = forward_loss(p, cfg, tokens, targets)
        print(f"{task}: loss NumPy {loss:.7f} attnlab {reported:.7f}")
        check(abs(loss - reported) <= 1e-5 * max(1.0, abs(loss)), f"{task}: loss")
        eps = 1e-5
        for name, value in p.items():
            grad = np.load(os.path.join(grads, "grad_" + name + ".npy")).astype(np.float64)
            check(grad.shape == value.shape, f"{task}: grad_{name} shape")
            numeric = np.zeros_like(value)
            for i in np.ndindex(value.shape):
                saved = value[i]
                value[i] = saved + eps
                plus = forward_loss(p, cfg, tokens, targets)
                value[i] = saved - eps
                minus = forward_loss(p, cfg, tokens, targets)
                value[i] = saved
                numeric[i] = (plus - minus) / (2 * eps)
            diff = np.abs(grad - numeric).max()
            scale = max(np.abs(numeric).max(), 1e-3)  # b_k's exact gradient is 0
            print(f"  grad_{name:16s} max|diff| {diff:.2e}  relative {diff / scale:.2e}")
            check(diff / scale < 1e-3, f"{task}: grad_{name} relative error {diff / scale:.2e}")


run_case("previous-and-first", ["--layers", "2", "--heads", "2", "--d-model", "6", "--d-k", "4",
                                "--seq-len", "5", "--vocab", "5", "--mlp", "--bias"])
run_case("reverse", ["--layers", "1", "--heads", "2", "--d-model", "4", "--seq-len", "4",
                     "--vocab", "4", "--no-bias"])
print(f"{'FAILED: ' + str(len(failures)) if failures else 'all checks passed'}")
sys.exit(1 if failures else 0)
