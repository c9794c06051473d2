"""What check_export.py and check_variants.py share: running attnlab-cli --export, reading the
folder back, the masks and softmax of the reference, the comparison of the folder with it, and
the loop over configurations that reports "N passed, M failed".
Tolerance: |ours - reference| <= 1e-5 * max(1, max|reference|)."""
import json
import os
import subprocess

import numpy as np

TOL = 1e-5


def load(d, name):
    return np.load(os.path.join(d, name + ".npy")).astype(np.float64)


def has(d, name):
    return os.path.exists(os.path.join(d, name + ".npy"))


def bias(d, name):
    """An exported bias, or 0 when the config has none."""
    return load(d, name) if has(d, name) else 0.0


def config(d):
    return json.load(open(os.path.join(d, "trace.json")))["config"]


def export(cli, args, d):
    """attnlab-cli ARGS --export D, which must succeed."""
    run = subprocess.run([cli, *args, "--export", d], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr.strip()


def padding_lengths(cfg, B):
    """Each sequence's key length under the padding mask (one given length applies to all)."""
    lengths = cfg["mask"]["padding"]
    return lengths * B if len(lengths) == 1 else lengths


def visible(cfg, B, T, Tk):
    """(B, T, T_k): which key each query may see (causal and window compare positions: T == T_k)."""
    m = cfg["mask"]
    i = np.arange(T)[:, None]
    j = np.arange(Tk)[None, :]
    vis = np.ones((B, T, Tk), dtype=bool)
    if m["causal"]:
        vis &= (j <= i)[None]
    if m["padding"]:
        for b, length in enumerate(padding_lengths(cfg, B)):
            vis[b] &= j < length
    if m["window"] > 0:
        g = m["global_tokens"]
        vis &= ((np.abs(i - j) <= m["window"]) | (i < g) | (j < g))[None]
    return vis


def softmax(scaled, vis):
    """Softmax over the last axis with hidden keys at -inf; a row with no visible key is 0."""
    row_max = np.where(vis, scaled, -1e300).max(-1, keepdims=True)
    row_max = np.where(row_max == -1e300, 0.0, row_max)
    e = np.where(vis, np.exp(scaled - row_max), 0.0)
    total = e.sum(-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def rope_inv_freq(cfg, dk):
    """Llama's RoPE: theta^(-2i/d_k) for i < d_k/2 (transformers' default rope_init_fn)."""
    return cfg["rope_theta"] ** (-2.0 * np.arange(dk // 2) / dk)


def rotate_half(x, inv_freq, first=0):
    """transformers' apply_rotary_pos_emb on x (..., T, d): x * cos + rotate_half(x) * sin, the
    angle of position t (first + index on axis -2) t * inv_freq repeated over both halves."""
    T, d = x.shape[-2:]
    angle = np.arange(first, first + T)[:, None] * np.concatenate([inv_freq, inv_freq])[None, :]
    turned = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], -1)
    return x * np.cos(angle) + turned * np.sin(angle)


def compare(d, ref):
    """The worst relative error of each exported tensor against ref (float32, C order, same shape
    and the same -inf pattern required)."""
    worst = {}
    for name, want in ref.items():
        assert has(d, name), f"{name}.npy was not exported"
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


def run_all(configs, check):
    """check(args) -> {tensor: worst error} for each configuration; prints one line each and
    "N passed, M failed"; returns the exit code."""
    passed = failed = 0
    for args in configs:
        label = " ".join(args)
        try:
            worst = check(args)
            name, diff = max(worst.items(), key=lambda kv: kv[1])
            torch_part = [v for n, v in worst.items() if n.startswith("torch")]
            versus = f"; against torch {max(torch_part):.2e}" if torch_part else ""
            print(f"{label}: {len(worst)} tensors, max |ours - ref| / scale = {diff:.2e} ({name})"
                  + versus)
            assert diff < TOL, f"{name} differs by {diff}"
            passed += 1
        except AssertionError as err:
            print(f"FAIL {label}: {err}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
