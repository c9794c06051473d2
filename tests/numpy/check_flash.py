#!/usr/bin/python3
"""attnlab-cli --flash BR:BC (issue 24: FlashAttention's tiled online softmax) recomputed in NumPy
(float64) from the inputs and weights an ordinary --export of the same flags writes:
  out      the layer's output, softmax(q k^T / sqrt(d_k)) v per head, concat, W_o;
  flash_m  (steps, T) every row's running max after each tile of head 0 of sequence 0, the tiles
           visited query block by query block, key block by key block: the rows of the current
           block hold the max over the visible keys of key blocks 0..kb, earlier blocks their
           final max, later blocks -inf (not reached);
  flash_l  the same for sum_j exp(s_j - m) over those keys (0 where nothing was seen).
Masks, T not a multiple of the tiles, fully masked rows (padding 0), GQA and ALiBi (its bias
-m_h |t - s|, m_h = 2^(-8(h+1)/H), from the formula: added inside every tile) are covered.
Prints the worst relative error per configuration and "N passed, M failed"."""
import os
import sys
import tempfile

import numpy as np

from export_checks import bias, compare, config, export, load, run_all, softmax, visible

CLI = os.environ["ATTNLAB_CLI"]

CONFIGS = [
    ["--flash", "4:4", "--seq-len", "8", "--d-model", "8", "--heads", "2", "--mask", "causal"],
    ["--flash", "3:5", "--seq-len", "13", "--d-model", "12", "--heads", "3", "--mask", "causal",
     "--bias", "--seed", "3"],
    ["--flash", "2:3", "--seq-len", "11", "--d-model", "8", "--heads", "2", "--batch", "2",
     "--mask", "padding:0,7", "--seed", "5"],
    ["--flash", "4:2", "--seq-len", "17", "--d-model", "16", "--heads", "4", "--mask",
     "window:3:1", "--no-output-proj"],
    ["--flash", "8:8", "--seq-len", "10", "--d-model", "16", "--heads", "4", "--kv-heads", "2"],
    ["--flash", "4:3", "--seq-len", "13", "--d-model", "32", "--heads", "4", "--batch", "2",
     "--pos", "alibi"],
    ["--flash", "3:4", "--seq-len", "11", "--d-model", "16", "--heads", "4", "--kv-heads", "2",
     "--pos", "alibi", "--mask", "causal"],
]


def tile_sizes(args):
    rows, cols = args[args.index("--flash") + 1].split(":")
    return int(rows), int(cols)


def reference(d):
    """Per head: q, k, v (B, h, T, d) from the exported X and weights, with the config's masks."""
    cfg = config(d)
    x = load(d, "x")
    B, T, _ = x.shape
    h, n_kv = cfg["n_heads"], cfg.get("n_kv_heads") or cfg["n_heads"]
    q = x @ load(d, "w_q") + bias(d, "b_q")
    k = x @ load(d, "w_k") + bias(d, "b_k")
    v = x @ load(d, "w_v") + bias(d, "b_v")
    dk, dv = q.shape[-1] // h, v.shape[-1] // n_kv
    heads = lambda t, n, w: np.repeat(t.reshape(B, T, n, w).transpose(0, 2, 1, 3), h // n, axis=1)
    q, k, v = heads(q, h, dk), heads(k, n_kv, dk), heads(v, n_kv, dv)
    vis = visible(cfg, B, T, T)[:, None]
    scaled = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dk)
    if cfg.get("pos") == "alibi":  # -m_h |t - s| with m_h = 2^(-8 (h + 1) / H)
        slopes = 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
        distance = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
        scaled = scaled - slopes[:, None, None] * distance
    context = softmax(scaled, vis) @ v  # (B, h, T, d_v)
    concat = context.transpose(0, 2, 1, 3).reshape(B, T, h * dv)
    out = concat @ load(d, "w_o") + bias(d, "b_o") if cfg["output_proj"] else concat
    return out, np.where(vis, scaled, -np.inf)[0, 0]


def sweep_rows(s, br, bc):
    """flash_m and flash_l of head 0 of sequence 0, from its masked scores s (T, T)."""
    T = s.shape[0]
    m_now, l_now = np.full(T, -np.inf), np.zeros(T)
    m_steps, l_steps = [], []
    for q0 in range(0, T, br):
        for k0 in range(0, T, bc):
            rows = slice(q0, min(T, q0 + br))
            seen = s[rows, :min(T, k0 + bc)]  # every key block up to this one
            m = seen.max(axis=1)
            with np.errstate(invalid="ignore"):
                l = np.where(np.isinf(m), 0.0, np.exp(seen - m[:, None]).sum(axis=1))
            m_now[rows], l_now[rows] = m, np.nan_to_num(l)
            m_steps.append(m_now.copy())
            l_steps.append(l_now.copy())
    return np.array(m_steps), np.array(l_steps)


def check(args):
    with tempfile.TemporaryDirectory() as work:
        plain, tiled = os.path.join(work, "plain"), os.path.join(work, "tiled")
        flash_at = args.index("--flash")
        export(CLI, args[:flash_at] + args[flash_at + 2:], plain)
        export(CLI, args, tiled)
        out, scores = reference(plain)
        flash_m, flash_l = sweep_rows(scores, *tile_sizes(args))
        return compare(tiled, {"out": out, "flash_m": flash_m, "flash_l": flash_l})


if __name__ == "__main__":
    sys.exit(run_all(CONFIGS, check))
