#!/usr/bin/python3
"""Word order (--pos) of attnlab-cli, recomputed in NumPy (float64) straight from the formulas:
  sinusoidal  pos[t, 2i] = sin(t / 10000^(2i/d)), pos[t, 2i+1] = cos(...), and x = x(none) + pos
  learned     x = x(none) + pos: the table (T, d_in) is what is added to the toy embeddings
  rope        q_rot / k_rot = rotate-half of q_heads / k_heads at base 10000 (or --rope-theta)
  alibi       alibi_bias[h, t, s] = -2^(-8(h+1)/H) |t - s|, biased = scaled + alibi_bias before
              the mask, and the weights, context and output from there
  none        no pos, x = the token embeddings alone
Every run is exported twice, with the encoding and with --pos none, so that the token embeddings
(seeded by each token's text) are read from the export, not recomputed.
Tolerance as in check_export.py: |ours - numpy| <= 1e-5 * max(1, max|numpy|)."""
import os
import sys
import tempfile

import numpy as np

from export_checks import bias, compare, config, export, has, load, run_all, softmax, visible

CLI = os.environ["ATTNLAB_CLI"]
SENTENCE = ["--sentence", "the cat sat on the mat because it was tired"]

CONFIGS = [
    ["--pos", "sinusoidal", "--d-model", "16", "--heads", "4", *SENTENCE],
    ["--pos", "sinusoidal", "--d-in", "6", "--d-model", "8", "--heads", "2", "--seq-len", "13"],
    ["--pos", "learned", "--d-model", "16", "--heads", "4", "--seed", "3", *SENTENCE],
    ["--pos", "rope", "--d-model", "16", "--heads", "4", "--mask", "causal", *SENTENCE],
    ["--pos", "rope", "--rope-theta", "500000", "--d-model", "16", "--heads", "2", "--batch", "2",
     *SENTENCE],
    ["--pos", "alibi", "--d-model", "16", "--heads", "4", *SENTENCE],
    ["--pos", "alibi", "--d-model", "32", "--heads", "8", "--mask", "causal", "--bias",
     "--seq-len", "9", "--seed", "5"],
    ["--pos", "alibi", "--d-model", "12", "--heads", "3", "--kv-heads", "1", "--batch", "2",
     "--mask", "padding:7,4", "--seq-len", "7"],
    ["--pos", "none", "--d-model", "16", "--heads", "4", *SENTENCE],
]


def sinusoidal(T, d):
    t = np.arange(T)[:, None]
    i = np.arange(d)[None, :]
    angle = t / 10000.0 ** ((i - i % 2) / d)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


def rotate_half(x, theta):
    """Llama's apply_rotary_pos_emb, written out: pair (i, i + d/2) turned by t * theta^(-2i/d)."""
    T, d = x.shape[-2:]
    inv = theta ** (-2.0 * np.arange(d // 2) / d)
    angle = np.arange(T)[:, None] * inv[None, :]  # (T, d/2)
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([a * np.cos(angle) - b * np.sin(angle),
                           b * np.cos(angle) + a * np.sin(angle)], -1)


def alibi(h, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, h + 1) / h)
    distance = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * distance[None]


def reference(d, plain):
    """What the export in d must hold, from its weights and the --pos none export's x."""
    cfg = config(d)
    pos = cfg["pos"]
    tokens_only = load(plain, "x")  # (B, T, d_in): the token embeddings, no position
    B, T, d_in = tokens_only.shape
    h = cfg["n_heads"]
    ref = {}
    if pos == "sinusoidal":
        ref["pos"] = sinusoidal(T, d_in)
    if pos == "learned":  # a seeded table: check its range, then that it is what was added
        table = load(d, "pos")
        assert table.shape == (T, d_in) and np.abs(table).max() <= 1.0, "learned pos out of range"
        ref["pos"] = table
    assert has(d, "pos") == (pos in ("sinusoidal", "learned")), "pos.npy only for additive ones"
    x = ref["x"] = tokens_only + (ref["pos"][None] if "pos" in ref else 0.0)
    q = x @ load(d, "w_q") + bias(d, "b_q")
    k = x @ load(d, "w_k") + bias(d, "b_k")
    v = x @ load(d, "w_v") + bias(d, "b_v")
    dk = q.shape[-1] // h
    n_kv = k.shape[-1] // dk
    qh = q.reshape(B, T, h, dk).transpose(0, 2, 1, 3)
    kh = k.reshape(B, T, n_kv, dk).transpose(0, 2, 1, 3)
    vh = v.reshape(B, T, n_kv, -1).transpose(0, 2, 1, 3)
    if pos == "rope":
        theta = cfg["rope_theta"] or 10000.0
        qh = ref["q_rot"] = rotate_half(qh, theta)
        kh = ref["k_rot"] = rotate_half(kh, theta)
    assert has(d, "q_rot") == (pos == "rope") and has(d, "alibi_bias") == (pos == "alibi")
    g = h // n_kv
    kh, vh = np.repeat(kh, g, axis=1), np.repeat(vh, g, axis=1)
    ref["scaled"] = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(dk)
    scores = ref["scaled"]
    if pos == "alibi":
        ref["alibi_bias"] = alibi(h, T)
        scores = ref["biased"] = ref["scaled"] + ref["alibi_bias"][None]
    vis = visible(cfg, B, T, T)[:, None]
    ref["weights"] = softmax(scores, vis)
    ref["context"] = ref["weights"] @ vh
    ref["out"] = ref["context"].transpose(0, 2, 1, 3).reshape(B, T, -1) @ load(d, "w_o") + bias(
        d, "b_o")
    return ref


def run_config(args):
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as plain:
        export(CLI, args, d)
        at = args.index("--pos")
        export(CLI, args[:at] + ["--pos", "none"] + args[at + 2 :], plain)
        return compare(d, reference(d, plain))


if __name__ == "__main__":
    sys.exit(run_all(CONFIGS, run_config))
