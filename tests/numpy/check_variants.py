#!/usr/bin/python3
"""The next lessons' variants of attnlab-cli, recomputed in NumPy (float64) from the exported
inputs and weights: grouped-query and multi-query attention (n_kv_heads in {1, 2, h}, the
k_grouped / k_expanded views), KV-cache decoding (1 and 7 tokens; every decode{i}_* tensor and the
prefill cache, and each step's output against the full causal run), multi-head latent attention
(with and without the rotary part and the query latent; the absorbed form's output) and
cross-attention (T_q != T_k from a second sentence or an --x-kv file, padding on the key side),
and Llama's RoPE (--rope-theta) with GQA/MQA and with KV-cache decoding (each token turned by
its position; the cache holds turned keys).
Tolerance as in check_export.py: |ours - numpy| <= 1e-5 * max(1, max|numpy|).

With --torch, cross-attention is also checked against PyTorch's nn.MultiheadAttention(kdim=...,
vdim=...) built from the same exported weights (a second, independent reference).
Prints the worst relative error per configuration and "N passed, M failed"."""
import os
import sys
import tempfile

import numpy as np

from export_checks import (bias, compare, config, export, has, load, padding_lengths,
                           rope_inv_freq, rotate_half, run_all, softmax, visible)

CLI = os.environ["ATTNLAB_CLI"]

GQA = [
    ["--d-model", "16", "--heads", "4", "--kv-heads", "1", "--seq-len", "6", "--seed", "2"],
    ["--d-model", "16", "--heads", "4", "--kv-heads", "2", "--seq-len", "7", "--batch", "2",
     "--bias", "--mask", "causal", "--seed", "4"],
    ["--d-model", "16", "--heads", "4", "--kv-heads", "4", "--seq-len", "5", "--bias"],
    ["--d-model", "32", "--heads", "8", "--kv-heads", "2", "--seq-len", "9", "--batch", "2",
     "--mask", "padding:9,5", "--seed", "7"],
    ["--d-model", "32", "--heads", "8", "--kv-heads", "1", "--seq-len", "8", "--mask", "causal",
     "--no-output-proj"],
    ["--d-in", "5", "--d-model", "12", "--heads", "4", "--kv-heads", "2", "--d-k", "6", "--d-v",
     "3", "--seq-len", "6", "--bias", "--seed", "13"],
]
DECODE = [
    ["--d-model", "16", "--heads", "4", "--seq-len", "8", "--decode", "1", "--seed", "3"],
    ["--d-model", "16", "--heads", "4", "--seq-len", "9", "--decode", "7", "--batch", "2",
     "--bias", "--seed", "5"],
    ["--d-model", "32", "--heads", "8", "--kv-heads", "2", "--seq-len", "8", "--decode", "1"],
    ["--d-model", "32", "--heads", "8", "--kv-heads", "2", "--seq-len", "10", "--decode", "7",
     "--bias", "--batch", "2", "--seed", "8"],
    ["--d-model", "16", "--heads", "4", "--kv-heads", "1", "--seq-len", "8", "--decode", "7",
     "--d-k", "6", "--d-v", "3", "--seed", "6"],
    ["--d-model", "16", "--heads", "4", "--kv-heads", "1", "--seq-len", "4", "--decode", "1",
     "--no-output-proj"],
]
MLA = [
    ["--d-model", "16", "--heads", "4", "--mla", "6", "--seq-len", "7", "--seed", "1"],
    ["--d-model", "16", "--heads", "4", "--mla", "6:4", "--seq-len", "7", "--batch", "2",
     "--mask", "causal", "--seed", "2"],
    ["--d-model", "32", "--heads", "8", "--mla", "8:2", "--q-latent", "12", "--seq-len", "9",
     "--mask", "padding:6", "--seed", "3"],
    ["--d-model", "24", "--heads", "3", "--mla", "10", "--q-latent", "9", "--seq-len", "5",
     "--d-k", "5", "--d-v", "7"],
]
ROPE = [
    ["--d-model", "16", "--heads", "4", "--kv-heads", "2", "--seq-len", "7", "--batch", "2",
     "--rope-theta", "10000", "--bias", "--mask", "causal", "--seed", "4"],
    ["--d-model", "32", "--heads", "8", "--kv-heads", "1", "--seq-len", "9", "--rope-theta",
     "500000", "--seed", "7"],
    ["--d-model", "16", "--heads", "4", "--seq-len", "9", "--decode", "5", "--rope-theta", "10000",
     "--bias", "--batch", "2", "--seed", "5"],
    ["--d-model", "32", "--heads", "8", "--kv-heads", "2", "--seq-len", "10", "--decode", "7",
     "--rope-theta", "10000", "--d-k", "6", "--seed", "8"],
]
CROSS = [
    ["--d-model", "16", "--heads", "4", "--sentence", "The cat sat on the mat",
     "--sentence-kv", "Le chat"],
    ["--d-model", "16", "--heads", "4", "--kv-heads", "2", "--sentence", "A dog",
     "--sentence-kv", "Ein Hund lief schnell über die Wiese", "--mask", "padding:5", "--bias"],
    ["--d-model", "12", "--heads", "3", "--seq-len", "5", "--batch", "2", "--x-kv", "{xkv:2:8:7}",
     "--mask", "padding:8,3", "--seed", "9"],
    ["--d-model", "16", "--heads", "4", "--kv-heads", "2", "--seq-len", "3", "--x-kv",
     "{xkv:1:6:5}", "--mask", "padding:4", "--bias", "--seed", "10"],
    ["--d-model", "8", "--heads", "2", "--seq-len", "7", "--x-kv", "{xkv:1:2:3}"],
    ["--d-model", "20", "--heads", "5", "--seq-len", "4", "--batch", "3", "--x-kv",
     "{xkv:3:9:6}", "--mask", "padding:9,2,6", "--bias", "--seed", "12"],
]


def rotate(rows, d_rope, first=0):
    """RoPE on (B, T, n*d_rope): pair (2p, 2p+1) of each d_rope chunk turned by t * 10000^(-2p/d)."""
    B, T, width = rows.shape
    out = rows.copy().reshape(B, T, width // d_rope, d_rope // 2, 2)
    t = np.arange(first, first + T)[None, :, None, None]
    angle = t * 10000.0 ** (-2.0 * np.arange(d_rope // 2) / d_rope)[None, None, None, :]
    a, b = out[..., 0].copy(), out[..., 1].copy()
    out[..., 0] = a * np.cos(angle) - b * np.sin(angle)
    out[..., 1] = a * np.sin(angle) + b * np.cos(angle)
    return out.reshape(B, T, width)


def reference(d):
    cfg = config(d)
    x = load(d, "x")
    B, T, _ = x.shape
    h = cfg["n_heads"]
    ref = {"x": x}
    q_source = x
    if has(d, "w_dq"):
        q_source = ref["c_q"] = x @ load(d, "w_dq")
    kv_source = x
    if has(d, "x_kv"):
        kv_source = ref["x_kv"] = load(d, "x_kv")
    if has(d, "w_dkv"):
        kv_source = ref["c_kv"] = x @ load(d, "w_dkv")
    Tk = kv_source.shape[1]
    ref["q"] = q_source @ load(d, "w_q") + bias(d, "b_q")
    ref["k"] = kv_source @ load(d, "w_k") + bias(d, "b_k")
    ref["v"] = kv_source @ load(d, "w_v") + bias(d, "b_v")
    dk = ref["q"].shape[-1] // h
    n_kv = ref["k"].shape[-1] // dk
    assert n_kv == (cfg["n_kv_heads"] or h), f"K width {ref['k'].shape[-1]} is not n_kv * d_k"
    g = h // n_kv
    for n, tokens, heads in (("q", T, h), ("k", Tk, n_kv), ("v", Tk, n_kv)):
        ref[n + "_split"] = ref[n].reshape(B, tokens, heads, -1)
        ref[n + "_heads"] = ref[n + "_split"].transpose(0, 2, 1, 3)
    heads = {"k": ref["k_heads"], "v": ref["v_heads"]}
    q_full = ref["q_heads"]
    if cfg["rope_theta"] > 0:  # Llama's RoPE after the transpose, before GQA's expand
        inv_freq = ref["rope_inv_freq"] = rope_inv_freq(cfg, dk)
        q_full = ref["q_rot"] = rotate_half(ref["q_heads"], inv_freq)
        heads["k"] = ref["k_rot"] = rotate_half(ref["k_heads"], inv_freq)
    if g > 1:  # (B, n_kv, T_k, d) -> (B, n_kv, g, T_k, d) stride 0 on g -> (B, h, T_k, d)
        for n in "kv":
            hd = heads[n]
            ref[n + "_grouped"] = np.broadcast_to(hd[:, :, None], (B, n_kv, g) + hd.shape[2:])
            heads[n] = ref[n + "_expanded"] = ref[n + "_grouped"].reshape(B, h, Tk, -1)
    k_full = heads["k"]
    d_rope = cfg["rope_dim"] if cfg["kv_latent"] > 0 else 0
    if d_rope > 0:
        ref["q_rope"] = rotate(q_source @ load(d, "w_qr"), d_rope)
        ref["k_rope"] = rotate(x @ load(d, "w_kr"), d_rope)
        ref["q_rope_split"] = ref["q_rope"].reshape(B, T, h, d_rope)
        ref["q_rope_heads"] = ref["q_rope_split"].transpose(0, 2, 1, 3)
        ref["k_rope_heads"] = np.broadcast_to(ref["k_rope"][:, None], (B, h, T, d_rope))
        q_full = ref["q_full"] = np.concatenate([q_full, ref["q_rope_heads"]], -1)
        k_full = ref["k_full"] = np.concatenate([k_full, ref["k_rope_heads"]], -1)
    ref["scores"] = q_full @ k_full.transpose(0, 1, 3, 2)
    ref["scaled"] = ref["scores"] / np.sqrt(dk + d_rope)
    vis = visible(cfg, B, T, Tk)[:, None]  # (B, 1, T, T_k) broadcasts over heads
    ref["masked"] = np.where(vis, ref["scaled"], -np.inf)
    ref["weights"] = softmax(ref["scaled"], vis)
    ref["context"] = ref["weights"] @ heads["v"]
    ref["context_t"] = ref["context"].transpose(0, 2, 1, 3)
    ref["concat"] = ref["context_t"].reshape(B, T, -1)
    ref["out"] = ref["concat"] @ load(d, "w_o") + bias(d, "b_o") if has(d, "w_o") else ref["concat"]
    if cfg["kv_latent"] > 0:
        ref["out_absorbed"] = ref["out"]
    if cfg["decode_steps"] > 0:
        add_decode(d, cfg, ref, dk, n_kv)
    return ref


def add_decode(d, cfg, ref, dk, n_kv):
    """Prefill of P = T - N prompt tokens, then N steps each computing one token's q, k, v."""
    x = ref["x"]
    B, T, _ = x.shape
    h, g = cfg["n_heads"], cfg["n_heads"] // n_kv
    P = T - cfg["decode_steps"]
    rope = cfg["rope_theta"] > 0
    keys = ref["k_rot"] if rope else ref["k_heads"]  # the cache holds turned keys with RoPE
    ref["prefill_k_cache"] = keys[:, :, :P]
    ref["prefill_v_cache"] = ref["v_heads"][:, :, :P]
    w = {n: load(d, "w_" + n) for n in "qkv"}
    b = {n: bias(d, "b_" + n) for n in "qkv"}
    w_o = load(d, "w_o") if has(d, "w_o") else None
    visible_keys = visible(cfg, B, T, T)[:, None]  # (B, 1, T, T)
    for i in range(cfg["decode_steps"]):
        t, n = P + i, f"decode{i}_"
        x_t = ref[n + "x"] = x[:, t : t + 1]  # (B, 1, d_in)
        q = (x_t @ w["q"] + b["q"]).reshape(B, 1, h, dk).transpose(0, 2, 1, 3)
        k = (x_t @ w["k"] + b["k"]).reshape(B, 1, n_kv, dk).transpose(0, 2, 1, 3)
        v = (x_t @ w["v"] + b["v"]).reshape(B, 1, n_kv, -1).transpose(0, 2, 1, 3)
        ref[n + "q"], ref[n + "k"], ref[n + "v"] = q, k, v
        if rope:  # the token turned by its position t
            q = ref[n + "q_rot"] = rotate_half(q, ref["rope_inv_freq"], t)
            k = ref[n + "k_rot"] = rotate_half(k, ref["rope_inv_freq"], t)
        # The cache after this step: the prompt's and every decoded token's keys, this one last.
        k_cache = ref[n + "k_cache"] = np.concatenate([keys[:, :, :t], k], 2)
        v_cache = ref[n + "v_cache"] = np.concatenate([ref["v_heads"][:, :, :t], v], 2)
        k_all, v_all = np.repeat(k_cache, g, 1), np.repeat(v_cache, g, 1)  # (B, h, t + 1, d)
        scores = ref[n + "scores"] = q @ k_all.transpose(0, 1, 3, 2) / np.sqrt(dk)
        ref[n + "weights"] = softmax(scores, visible_keys[:, :, t : t + 1, : t + 1])
        ref[n + "context"] = ref[n + "weights"] @ v_all
        concat = ref[n + "context"].transpose(0, 2, 1, 3).reshape(B, 1, -1)
        ref[n + "out"] = concat @ w_o + bias(d, "b_o") if w_o is not None else concat
        # The decoded token's output is the full causal run's row t.
        assert np.allclose(ref[n + "out"], ref["out"][:, t : t + 1], atol=1e-9)


def torch_reference(d):
    """nn.MultiheadAttention(kdim, vdim) from the exported weights: out and per-head weights."""
    import torch

    cfg = config(d)
    x, x_kv = load(d, "x"), load(d, "x_kv")
    w = {n: torch.from_numpy(load(d, n).T.copy()) for n in ("w_q", "w_k", "w_v", "w_o")}
    E, h = w["w_q"].shape[0], cfg["n_heads"]
    assert w["w_q"].shape == (E, x.shape[-1]), "nn.MultiheadAttention needs d_in == d_model"
    mha = torch.nn.MultiheadAttention(E, h, kdim=x_kv.shape[-1], vdim=x_kv.shape[-1],
                                      bias=has(d, "b_q"), batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        if mha.in_proj_weight is not None:  # kdim == vdim == embed_dim: one packed weight
            mha.in_proj_weight.copy_(torch.cat([w["w_q"], w["w_k"], w["w_v"]]))
        else:
            mha.q_proj_weight.copy_(w["w_q"])
            mha.k_proj_weight.copy_(w["w_k"])
            mha.v_proj_weight.copy_(w["w_v"])
        mha.out_proj.weight.copy_(w["w_o"])
        if has(d, "b_q"):
            mha.in_proj_bias.copy_(torch.from_numpy(np.concatenate(
                [load(d, "b_q"), load(d, "b_k"), load(d, "b_v")])))
            mha.out_proj.bias.copy_(torch.from_numpy(load(d, "b_o")))
    B, Tk = x_kv.shape[:2]
    padded = None
    if cfg["mask"]["padding"]:
        lengths = np.array(padding_lengths(cfg, B))
        padded = torch.from_numpy(np.arange(Tk)[None, :] >= lengths[:, None])  # True: hidden
    mha.eval()
    out, weights = mha(torch.from_numpy(x), torch.from_numpy(x_kv), torch.from_numpy(x_kv),
                       key_padding_mask=padded, need_weights=True, average_attn_weights=False)
    return {"out": out.detach().numpy(), "weights": weights.detach().numpy()}


def write_x_kv(spec, folder):
    """{xkv:B:T_k:d_in_kv} -> a seeded random (B, T_k, d_in_kv) .npy in folder."""
    B, Tk, width = (int(n) for n in spec.strip("{}").split(":")[1:])
    path = os.path.join(folder, "x_kv_input.npy")
    np.save(path, np.random.default_rng(Tk * 31 + width).standard_normal((B, Tk, width)).astype(np.float32))
    return path


def run_config(args, use_torch):
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as inputs:
        args = [write_x_kv(a, inputs) if a.startswith("{xkv") else a for a in args]
        export(CLI, args, d)
        worst = compare(d, reference(d))
        cfg = config(d)
        if use_torch and cfg["n_kv_heads"] in (0, cfg["n_heads"]):  # MultiheadAttention: no GQA
            worst.update({"torch " + n: e for n, e in compare(d, torch_reference(d)).items()})
        return worst


if __name__ == "__main__":
    use_torch = "--torch" in sys.argv[1:]
    sys.exit(run_all(CROSS if use_torch else GQA + DECODE + MLA + CROSS + ROPE,
                     lambda args: run_config(args, use_torch)))
