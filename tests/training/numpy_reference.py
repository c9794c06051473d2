#!/usr/bin/python3
"""Independent NumPy (float64) reference for the trainer of issue 12 ("Heads that learn").

Reads a saved model (MODEL_DIR: model.json + the parameter .npy files written by
`attnlab-cli train --out`) and a gradient dump (GRADS_DIR: written by
`attnlab-cli train --steps 0 --grads`), recomputes the loss on the dumped batch and the gradient
of every parameter with a hand-derived backward pass, and compares:

    max|ours - reference| <= rtol * max(1, max|reference|)      (per tensor, rtol default 1e-4)

One line per compared tensor, a summary, exit status 0 when everything matches, 1 on any
mismatch, 2 when the directories cannot be read (missing file, bad shape, missing key).

Usage:
    numpy_reference.py MODEL_DIR GRADS_DIR [--rtol X] [--mask causal|none|auto] [--verbose]
    numpy_reference.py --self-test
    numpy_reference.py --make-example DIR   (random model in DIR/model, its grads in DIR/grads)

--self-test builds a random tiny model (2 layers, biases, MLP, 2 outputs, d_k != d_model/h,
d_v != d_k), writes it and a batch in the same format to a temporary directory, writes the
gradients computed by central finite differences in float64 as grad_<name>.npy, and runs the
ordinary check (analytic backward against those) on it; it then corrupts one gradient and the
loss and checks that the comparison fails. Only /usr/bin/python3 and NumPy are needed.

Model conventions (the issue's "The model" section). Everything that could differ on the C++ side
is a constant below so it can be adjusted in one place:
  * X = tok_emb[tokens] + P, P by model.json's "pos" (issue 23; absent = "learned"):
      learned: pos_emb[:T];  sinusoidal: PE[t, 2i] = sin(t / 10000^(2i/D)), PE[t, 2i+1] = cos(...),
      fixed;  none, rope, alibi: P = 0
  * rope: after the projection, q and k of each head (d_k) become x*cos + rotate_half(x)*sin with
    angle t * 10000^(-2i/d_k), rotate_half(x) = cat(-x[d_k/2:], x[:d_k/2]) (Llama's pairing)
  * alibi: scores[i, j] += -m_h * |i - j| before the mask, m_h = 2^(-8 (h+1) / H) (h 0-based)
  * each layer l: z = z + MHA_l(z), then, when the layer has MLP weights, z = z + MLP_l(z)
      q = z W_q + b_q, viewed (B, T, h, d_k) and transposed to (B, h, T, d_k) (same for k; v with
      d_v = w_v.shape[1] / h); scores = q k^T / sqrt(d_k); the causal mask (key j > query i gets
      -inf) unless the task is bidirectional; softmax over the keys; context = weights v;
      heads concatenated back to (B, T, h*d_v) (head-major: columns [i*d_v, (i+1)*d_v) are head
      i); out = concat W_o + b_o
      MLP: relu(z W_1 + b_1) W_2 + b_2, hidden width from mlp_w1's shape (4 d_model)
  * logits_j = z U_j + c_j   (U_j = unembed{j} (D, V_j), c_j = unembed{j}_bias (V_j))
  * loss = sum over outputs j of the mean cross-entropy over the positions with target != -1
    (an output with no target at all contributes 0)
  * no layer norm, no dropout; weight decay is not part of the loss (AdamW decays decoupled).
"""
import argparse
import glob
import json
import os
import re
import shutil
import sys
import tempfile

import numpy as np

# ---- conventions (adjust here if the C++ side differs) ------------------------------------------
IGNORE_INDEX = -1                        # target value meaning "no target at this position"
BIDIRECTIONAL_TASKS = {"reverse", "sort"}  # tasks trained without the causal mask
SCALE_BY_SQRT_DK = True                  # scores / sqrt(d_k); False: no scaling
HEADS_KEYS = ("heads", "n_heads", "num_heads")  # model.json spellings accepted for h
LOSS_KEYS = ("loss", "total_loss", "value")      # loss.json spellings accepted for the total loss
DEFAULT_RTOL = 1e-4

POSITION_ENCODINGS = ("none", "sinusoidal", "learned", "rope", "alibi")
ROPE_THETA = 10000.0

PER_LAYER = ["w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o",
             "mlp_w1", "mlp_b1", "mlp_w2", "mlp_b2"]


class FormatError(Exception):
    """A directory that cannot be checked (missing file, bad shape, missing key): exit 2."""


# ---- loading -------------------------------------------------------------------------------------
def _load_npy(path, what):
    if not os.path.isfile(path):
        raise FormatError(f"{what}: {path} is missing")
    try:
        return np.load(path, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 - any unreadable file is a format error
        raise FormatError(f"{what}: {path} cannot be read as .npy ({e})")


def _as_int(value, default):
    """An integer setting from model.json, or default when absent or not a plain integer."""
    if isinstance(value, bool) or value is None:
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return default


def load_model(model_dir, verbose=True):
    """model.json + parameters (as float64) + the resolved structure."""
    mj_path = os.path.join(model_dir, "model.json")
    if not os.path.isfile(mj_path):
        raise FormatError(f"{mj_path} is missing: {model_dir} is not a model directory")
    with open(mj_path) as f:
        meta = json.load(f)
    if not isinstance(meta, dict):
        raise FormatError(f"{mj_path}: expected a JSON object, got {type(meta).__name__}")
    if verbose:
        print(f"model.json keys: {', '.join(sorted(meta))}")

    params = {}
    for path in sorted(glob.glob(os.path.join(model_dir, "*.npy"))):
        name = os.path.basename(path)[:-4]
        arr = _load_npy(path, name)
        if arr.dtype != np.float32 and verbose:
            print(f"note: {name}.npy is {arr.dtype}, the issue says float32")
        params[name] = arr.astype(np.float64)

    pos = meta.get("pos", "learned")
    if pos not in POSITION_ENCODINGS:
        raise FormatError(f"model.json: pos={pos!r} is none of {POSITION_ENCODINGS}")
    for need in ("tok_emb",) + (("pos_emb",) if pos == "learned" else ()):
        if need not in params:
            raise FormatError(f"{model_dir}: {need}.npy is missing")
    V, D = params["tok_emb"].shape
    if pos == "learned" and (params["pos_emb"].ndim != 2 or params["pos_emb"].shape[1] != D):
        raise FormatError(f"pos_emb has shape {params['pos_emb'].shape}, expected (T, {D})")

    # Layers: model.json's count, cross-checked with the files.
    n_layers_files = 0
    while f"layer{n_layers_files}.w_q" in params:
        n_layers_files += 1
    n_layers = _as_int(meta.get("layers", meta.get("n_layers")), n_layers_files)
    if n_layers != n_layers_files:
        raise FormatError(f"model.json says {n_layers} layers, the files have {n_layers_files}")
    if n_layers < 1:
        raise FormatError(f"{model_dir}: no layer0.w_q.npy")

    heads = next((meta[k] for k in HEADS_KEYS if k in meta), None)
    if heads is None:
        raise FormatError(f"model.json has none of {HEADS_KEYS}: the number of heads is needed")
    heads_raw, heads = heads, _as_int(heads, None)
    if heads is None or heads < 1:
        raise FormatError(f"model.json: heads={heads_raw!r} is not a positive integer")

    layers = []
    for l in range(n_layers):
        p = {k: params.get(f"layer{l}.{k}") for k in PER_LAYER}
        for k in ("w_q", "w_k", "w_v", "w_o"):
            if p[k] is None:
                raise FormatError(f"layer{l}.{k}.npy is missing")
        hdk = p["w_q"].shape[1]
        hdv = p["w_v"].shape[1]
        if hdk % heads or hdv % heads:
            raise FormatError(f"layer{l}: w_q {p['w_q'].shape} / w_v {p['w_v'].shape} not "
                              f"divisible by {heads} heads")
        expect = {"w_q": (D, hdk), "w_k": (D, hdk), "w_v": (D, hdv), "w_o": (hdv, D),
                  "b_q": (hdk,), "b_k": (hdk,), "b_v": (hdv,), "b_o": (D,)}
        has_bias = [p[k] is not None for k in ("b_q", "b_k", "b_v", "b_o")]
        if any(has_bias) and not all(has_bias):
            raise FormatError(f"layer{l}: some biases present, some missing: {has_bias}")
        has_mlp = [p[k] is not None for k in ("mlp_w1", "mlp_b1", "mlp_w2", "mlp_b2")]
        if any(has_mlp) and not all(has_mlp):
            raise FormatError(f"layer{l}: some MLP parameters present, some missing")
        if all(has_mlp):
            H = p["mlp_w1"].shape[1]
            expect.update({"mlp_w1": (D, H), "mlp_b1": (H,), "mlp_w2": (H, D), "mlp_b2": (D,)})
        for k, shape in expect.items():
            if p[k] is not None and p[k].shape != shape:
                raise FormatError(f"layer{l}.{k} has shape {p[k].shape}, expected {shape}")
        layers.append({"d_k": hdk // heads, "d_v": hdv // heads, "bias": all(has_bias),
                       "mlp": all(has_mlp)})
        dk_json = _as_int(meta.get("d_k"), 0)
        if dk_json != 0 and dk_json != hdk // heads:
            raise FormatError(f"model.json d_k={dk_json} but w_q gives {hdk // heads}")

    for flag in ("bias", "mlp"):
        if isinstance(meta.get(flag), bool):
            have = [x[flag] for x in layers]
            if any(h != meta[flag] for h in have):
                raise FormatError(f"model.json says {flag}={meta[flag]} but the files give "
                                  f"{flag} per layer {have}")

    n_out = 0
    while f"unembed{n_out}" in params:
        n_out += 1
    if n_out == 0:
        raise FormatError(f"{model_dir}: unembed0.npy is missing")
    for j in range(n_out):
        U = params[f"unembed{j}"]
        if U.ndim != 2 or U.shape[0] != D:
            raise FormatError(f"unembed{j} has shape {U.shape}, expected ({D}, V_{j})")
        if f"unembed{j}_bias" not in params:
            raise FormatError(f"unembed{j}_bias.npy is missing")
        if params[f"unembed{j}_bias"].shape != (U.shape[1],):
            raise FormatError(f"unembed{j}_bias has shape {params[f'unembed{j}_bias'].shape}, "
                              f"expected ({U.shape[1]},)")

    if _as_int(meta.get("d_model"), D) != D:
        raise FormatError(f"model.json d_model={meta['d_model']} but tok_emb is {V}x{D}")
    if _as_int(meta.get("vocab"), V) != V:
        raise FormatError(f"model.json vocab={meta['vocab']} but tok_emb is {V}x{D}")

    known = {"tok_emb"} | ({"pos_emb"} if pos == "learned" else set()) | {f"unembed{j}" for j in range(n_out)} | \
            {f"unembed{j}_bias" for j in range(n_out)} | \
            {f"layer{l}.{k}" for l in range(n_layers) for k in PER_LAYER}
    unknown = sorted(set(params) - known)
    if unknown:
        raise FormatError(f"unexpected parameter files (not in the issue's list): {unknown}")

    if pos == "rope" and any(x["d_k"] % 2 for x in layers):
        raise FormatError("pos=rope needs an even d_k")
    structure = {"V": V, "D": D, "heads": heads, "layers": layers, "n_out": n_out,
                 "causal": task_is_causal(meta), "pos": pos}
    return meta, params, structure


def task_is_causal(meta):
    """Causal unless model.json says otherwise: an explicit flag wins, else the task name."""
    for key in ("causal",):
        if key in meta:
            return bool(meta[key])
    for key in ("bidirectional",):
        if key in meta:
            return not bool(meta[key])
    mask = meta.get("mask")
    if isinstance(mask, str):
        return mask == "causal"
    return meta.get("task") not in BIDIRECTIONAL_TASKS


def load_grads(grads_dir, n_out, verbose=True):
    tokens = _load_npy(os.path.join(grads_dir, "batch_tokens.npy"), "batch tokens")
    if tokens.ndim != 2 or tokens.dtype.kind not in "iu":
        raise FormatError(f"batch_tokens has shape {tokens.shape} dtype {tokens.dtype}, "
                          "expected int64 (B, T)")
    if tokens.dtype != np.int64 and verbose:
        print(f"note: batch_tokens.npy is {tokens.dtype}, the issue says int64")
    targets = []
    for j in range(n_out):
        t = _load_npy(os.path.join(grads_dir, f"batch_targets{j}.npy"), f"targets {j}")
        if t.shape != tokens.shape or t.dtype.kind not in "iu":
            raise FormatError(f"batch_targets{j} has shape {t.shape} dtype {t.dtype}, "
                              f"expected int64 {tokens.shape}")
        targets.append(t.astype(np.int64))
    extra = os.path.join(grads_dir, f"batch_targets{n_out}.npy")
    if os.path.exists(extra):
        raise FormatError(f"{extra} exists but the model has only {n_out} outputs")
    lpath = os.path.join(grads_dir, "loss.json")
    if not os.path.isfile(lpath):
        raise FormatError(f"{lpath} is missing")
    with open(lpath) as f:
        loss_doc = json.load(f)
    grads = {}
    for path in sorted(glob.glob(os.path.join(grads_dir, "grad_*.npy"))):
        grads[os.path.basename(path)[5:-4]] = _load_npy(path, "gradient").astype(np.float64)
    return tokens.astype(np.int64), targets, loss_doc, grads


def parse_loss(loss_doc):
    """(total, per-output list or None) from loss.json, whatever its exact shape."""
    if isinstance(loss_doc, (int, float)):
        return float(loss_doc), None
    if isinstance(loss_doc, dict):
        total = next((loss_doc[k] for k in LOSS_KEYS if isinstance(loss_doc.get(k), (int, float))),
                     None)
        per = None
        for k in ("losses", "loss_per_output", "per_output", "output_losses"):
            if isinstance(loss_doc.get(k), list):
                per = [float(x) for x in loss_doc[k]]
        if total is None and per is not None:
            total = sum(per)
        if total is None:
            raise FormatError(f"loss.json: none of {LOSS_KEYS} is a number: keys "
                              f"{sorted(loss_doc)}")
        return float(total), per
    raise FormatError(f"loss.json: expected a number or an object, got {loss_doc!r}")


# ---- forward and backward ------------------------------------------------------------------------
def _softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def sinusoidal_table(T, D):
    """Vaswani et al.: PE[t, 2i] = sin(t / 10000^(2i/D)), PE[t, 2i+1] = cos(t / 10000^(2i/D))."""
    pe = np.zeros((T, D))
    t = np.arange(T)[:, None]
    two_i = np.arange(0, D, 2)[None, :]
    pe[:, 0::2] = np.sin(t / 10000.0 ** (two_i / D))
    pe[:, 1::2] = np.cos(t / 10000.0 ** (two_i[:, : D // 2] / D))
    return pe


def rope_cos_sin(T, dk):
    """cos and sin (T, dk) of t * theta^(-2i/dk), each half repeated (Llama's layout)."""
    inv = ROPE_THETA ** (-np.arange(0, dk, 2) / dk)              # (dk/2)
    angle = np.arange(T)[:, None] * inv[None, :]                  # (T, dk/2)
    angle = np.concatenate([angle, angle], axis=1)                # (T, dk)
    return np.cos(angle), np.sin(angle)


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def alibi_bias(T, heads):
    """(h, T, T): -m_h |i - j|, m_h = 2^(-8 (h+1) / H)."""
    slopes = 2.0 ** (-8.0 * (np.arange(heads) + 1) / heads)
    dist = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * dist[None]


def forward(params, structure, tokens, targets):
    """Loss (total, per output), logits and a cache for backward."""
    B, T = tokens.shape
    h = structure["heads"]
    pos = structure.get("pos", "learned")
    if pos == "learned" and T > params["pos_emb"].shape[0]:
        raise FormatError(f"batch has T={T} but pos_emb has {params['pos_emb'].shape[0]} rows")
    if tokens.min() < 0 or tokens.max() >= structure["V"]:
        raise FormatError(f"batch tokens outside [0, {structure['V']})")
    z = params["tok_emb"][tokens]
    if pos == "learned":
        z = z + params["pos_emb"][None, :T]
    elif pos == "sinusoidal":
        z = z + sinusoidal_table(T, structure["D"])[None]
    cache = {"layers": []}
    if structure["causal"]:
        visible = np.tril(np.ones((T, T), dtype=bool))  # key j <= query i
    else:
        visible = np.ones((T, T), dtype=bool)
    for l, ls in enumerate(structure["layers"]):
        pre = f"layer{l}."
        dk, dv = ls["d_k"], ls["d_v"]
        c = {"z_in": z}

        def proj(w, b, width):
            y = z @ params[pre + w]
            if ls["bias"]:
                y = y + params[pre + b]
            return y.reshape(B, T, h, width).transpose(0, 2, 1, 3)  # (B, h, T, width)
        q, k, v = proj("w_q", "b_q", dk), proj("w_k", "b_k", dk), proj("w_v", "b_v", dv)
        if pos == "rope":  # (B, h, T, dk), turned by position t
            cos, sin = rope_cos_sin(T, dk)
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
        scale = 1.0 / np.sqrt(dk) if SCALE_BY_SQRT_DK else 1.0
        scores = (q @ k.transpose(0, 1, 3, 2)) * scale
        if pos == "alibi":
            scores = scores + alibi_bias(T, h)[None]
        scores = np.where(visible, scores, -np.inf)
        weights = _softmax(scores)
        ctx = weights @ v                                   # (B, h, T, dv)
        concat = ctx.transpose(0, 2, 1, 3).reshape(B, T, h * dv)
        out = concat @ params[pre + "w_o"]
        if ls["bias"]:
            out = out + params[pre + "b_o"]
        z = z + out
        c.update(q=q, k=k, v=v, weights=weights, concat=concat, scale=scale)
        if ls["mlp"]:
            c["z_mid"] = z
            hid = z @ params[pre + "mlp_w1"] + params[pre + "mlp_b1"]
            act = np.maximum(hid, 0.0)
            z = z + act @ params[pre + "mlp_w2"] + params[pre + "mlp_b2"]
            c.update(hid=hid, act=act)
        cache["layers"].append(c)
    cache["z_final"] = z
    losses, dlogits, logits_all = [], [], []
    for j in range(structure["n_out"]):
        logits = z @ params[f"unembed{j}"] + params[f"unembed{j}_bias"]
        tgt = targets[j]
        valid = tgt != IGNORE_INDEX
        Vj = logits.shape[-1]
        if np.any((tgt[valid] < 0) | (tgt[valid] >= Vj)):
            raise FormatError(f"batch_targets{j} has values outside [0, {Vj}) other than "
                              f"{IGNORE_INDEX}")
        n = int(valid.sum())
        m = logits.max(axis=-1, keepdims=True)
        logp = logits - m - np.log(np.sum(np.exp(logits - m), axis=-1, keepdims=True))
        safe = np.where(valid, tgt, 0)
        nll = -np.take_along_axis(logp, safe[..., None], axis=-1)[..., 0]
        losses.append(float(nll[valid].sum() / n) if n else 0.0)
        d = np.exp(logp)
        d[..., :] -= np.eye(Vj)[safe]
        d *= valid[..., None] / max(n, 1)
        dlogits.append(d)
        logits_all.append(logits)
    cache["dlogits"] = dlogits
    return sum(losses), losses, logits_all, cache


def backward(params, structure, tokens, cache):
    """Gradient of the total loss for every parameter present in params."""
    B, T = tokens.shape
    h = structure["heads"]
    g = {}
    z = cache["z_final"]
    dz = np.zeros_like(z)
    for j, d in enumerate(cache["dlogits"]):
        g[f"unembed{j}"] = np.einsum("btd,btv->dv", z, d)
        g[f"unembed{j}_bias"] = d.sum(axis=(0, 1))
        dz += d @ params[f"unembed{j}"].T
    for l in reversed(range(len(structure["layers"]))):
        ls, c, pre = structure["layers"][l], cache["layers"][l], f"layer{l}."
        dk, dv = ls["d_k"], ls["d_v"]
        if ls["mlp"]:
            # z_out = z_mid + relu(z_mid W1 + b1) W2 + b2
            g[pre + "mlp_w2"] = np.einsum("bth,btd->hd", c["act"], dz)
            g[pre + "mlp_b2"] = dz.sum(axis=(0, 1))
            dhid = (dz @ params[pre + "mlp_w2"].T) * (c["hid"] > 0)
            g[pre + "mlp_w1"] = np.einsum("btd,bth->dh", c["z_mid"], dhid)
            g[pre + "mlp_b1"] = dhid.sum(axis=(0, 1))
            dz = dz + dhid @ params[pre + "mlp_w1"].T
        # z_mid = z_in + concat W_o + b_o
        z_in = c["z_in"]
        g[pre + "w_o"] = np.einsum("btc,btd->cd", c["concat"], dz)
        if ls["bias"]:
            g[pre + "b_o"] = dz.sum(axis=(0, 1))
        dconcat = dz @ params[pre + "w_o"].T                      # (B, T, h*dv)
        dctx = dconcat.reshape(B, T, h, dv).transpose(0, 2, 1, 3)  # (B, h, T, dv)
        w = c["weights"]
        dweights = dctx @ c["v"].transpose(0, 1, 3, 2)            # (B, h, T, T)
        dvv = w.transpose(0, 1, 3, 2) @ dctx                      # (B, h, T, dv)
        dscores = w * (dweights - np.sum(dweights * w, axis=-1, keepdims=True))
        dscores *= c["scale"]  # masked entries have w = 0, hence dscores = 0
        dq = dscores @ c["k"]                                     # (B, h, T, dk)
        dkk = dscores.transpose(0, 1, 3, 2) @ c["q"]              # (B, h, T, dk)
        if structure.get("pos") == "rope":
            # q_rot = q cos + rotate_half(q) sin is linear in q: its transpose gives
            # dq = dq_rot cos - rotate_half(dq_rot sin)   (rotate_half^T = -rotate_half)
            cos, sin = rope_cos_sin(T, dk)
            dq = dq * cos - rotate_half(dq * sin)
            dkk = dkk * cos - rotate_half(dkk * sin)
        dz_next = dz.copy()  # the residual
        for name, bname, dy, width in (("w_q", "b_q", dq, dk), ("w_k", "b_k", dkk, dk),
                                       ("w_v", "b_v", dvv, dv)):
            dflat = dy.transpose(0, 2, 1, 3).reshape(B, T, h * width)
            g[pre + name] = np.einsum("btd,btc->dc", z_in, dflat)
            if ls["bias"]:
                g[pre + bname] = dflat.sum(axis=(0, 1))
            dz_next += dflat @ params[pre + name].T
        dz = dz_next
    dtok = np.zeros_like(params["tok_emb"])
    np.add.at(dtok, tokens, dz)
    g["tok_emb"] = dtok
    if structure.get("pos", "learned") == "learned":
        dpos = np.zeros_like(params["pos_emb"])
        dpos[:T] = dz.sum(axis=0)
        g["pos_emb"] = dpos
    return g


def loss_and_grads(params, structure, tokens, targets):
    total, per, _, cache = forward(params, structure, tokens, targets)
    return total, per, backward(params, structure, tokens, cache)


# ---- comparison ----------------------------------------------------------------------------------
def compare(name, ours, ref, rtol):
    """(ok, line): max|ours - ref| <= rtol * max(1, max|ref|)."""
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if ours.shape != ref.shape:
        return False, f"FAIL {name:22s} shape {ours.shape}, reference {ref.shape}"
    if not np.all(np.isfinite(ours)):
        return False, f"FAIL {name:22s} has non-finite values"
    err = float(np.max(np.abs(ours - ref))) if ours.size else 0.0
    scale = max(1.0, float(np.max(np.abs(ref))) if ref.size else 0.0)
    ok = err <= rtol * scale
    return ok, (f"{'ok  ' if ok else 'FAIL'} {name:22s} shape {str(ref.shape):12s} "
                f"max|ref| {float(np.max(np.abs(ref))) if ref.size else 0.0:10.4g}  "
                f"max|diff| {err:10.3g}  rel {err / scale:9.2e}")


def check(model_dir, grads_dir, rtol=DEFAULT_RTOL, mask="auto", verbose=True, show_ok=True):
    """Returns the exit status: 0 all match, 1 mismatch, 2 unreadable input."""
    try:
        meta, params, st = load_model(model_dir, verbose=verbose)
        if mask != "auto":
            st["causal"] = mask == "causal"
        tokens, targets, loss_doc, their = load_grads(grads_dir, st["n_out"], verbose=verbose)
        their_loss, their_per = parse_loss(loss_doc)
        total, per, ours = loss_and_grads(params, st, tokens, targets)
    except FormatError as e:
        print(f"error: {e}")
        return 2
    B, T = tokens.shape
    print(f"model: task={meta.get('task', '?')} V={st['V']} D={st['D']} heads={st['heads']} "
          f"layers={len(st['layers'])} "
          f"d_k={[x['d_k'] for x in st['layers']]} d_v={[x['d_v'] for x in st['layers']]} "
          f"bias={[x['bias'] for x in st['layers']]} mlp={[x['mlp'] for x in st['layers']]} "
          f"outputs={st['n_out']} mask={'causal' if st['causal'] else 'none'} pos={st['pos']}; "
          f"batch B={B} T={T}")
    failures = 0
    ok, line = compare("loss", np.array(their_loss), np.array(total), rtol)
    print(line + f"   (file {their_loss:.8g}, reference {total:.8g})")
    failures += not ok
    if their_per is not None:
        ok, line = compare("loss per output", np.array(their_per), np.array(per), rtol)
        print(line)
        failures += not ok
    for name in sorted(ours):
        if name not in their:
            print(f"FAIL {name:22s} grad_{name}.npy is missing")
            failures += 1
            continue
        ok, line = compare(name, their[name], ours[name], rtol)
        if show_ok or not ok:
            print(line)
        failures += not ok
    for name in sorted(set(their) - set(ours)):
        print(f"FAIL grad_{name}.npy has no matching parameter")
        failures += 1
    n = len(ours) + 1 + (their_per is not None)
    print(f"{n - failures} of {n} match (rtol {rtol:g}), {failures} mismatched")
    return 1 if failures else 0


# ---- self-test -----------------------------------------------------------------------------------
def random_model(rng, V=7, D=6, T=5, heads=2, d_k=4, d_v=3, layers=2, bias=True, mlp=True,
                 out_vocabs=(7, 5), pos="learned"):
    p = {"tok_emb": rng.normal(0, 1, (V, D))}
    if pos == "learned":
        p["pos_emb"] = rng.normal(0, 1, (T, D))
    for l in range(layers):
        pre = f"layer{l}."
        p[pre + "w_q"] = rng.normal(0, 0.7, (D, heads * d_k))
        p[pre + "w_k"] = rng.normal(0, 0.7, (D, heads * d_k))
        p[pre + "w_v"] = rng.normal(0, 0.5, (D, heads * d_v))
        p[pre + "w_o"] = rng.normal(0, 0.5, (heads * d_v, D))
        if bias:
            p[pre + "b_q"] = rng.normal(0, 0.3, heads * d_k)
            p[pre + "b_k"] = rng.normal(0, 0.3, heads * d_k)
            p[pre + "b_v"] = rng.normal(0, 0.3, heads * d_v)
            p[pre + "b_o"] = rng.normal(0, 0.3, D)
        if mlp:
            p[pre + "mlp_w1"] = rng.normal(0, 0.5, (D, 4 * D))
            p[pre + "mlp_b1"] = rng.normal(0, 0.3, 4 * D)
            p[pre + "mlp_w2"] = rng.normal(0, 0.3, (4 * D, D))
            p[pre + "mlp_b2"] = rng.normal(0, 0.3, D)
    for j, Vj in enumerate(out_vocabs):
        p[f"unembed{j}"] = rng.normal(0, 0.5, (D, Vj))
        p[f"unembed{j}_bias"] = rng.normal(0, 0.3, Vj)
    meta = {"task": "self-test", "layers": layers, "heads": heads, "d_model": D, "d_k": d_k,
            "seq_len": T, "vocab": V, "mlp": mlp, "bias": bias, "outputs": list(out_vocabs),
            "pos": pos}
    return meta, p


def write_model(model_dir, meta, params):
    os.makedirs(model_dir, exist_ok=True)
    with open(os.path.join(model_dir, "model.json"), "w") as f:
        json.dump(meta, f, indent=1)
    for name, arr in params.items():
        np.save(os.path.join(model_dir, name + ".npy"), np.ascontiguousarray(arr, np.float32))


def finite_difference_grads(params, st, tokens, targets, eps=1e-6):
    g = {}
    for name, arr in params.items():
        grad = np.zeros_like(arr)
        flat, gflat = arr.reshape(-1), grad.reshape(-1)
        for i in range(flat.size):
            old = flat[i]
            flat[i] = old + eps
            lp = forward(params, st, tokens, targets)[0]
            flat[i] = old - eps
            lm = forward(params, st, tokens, targets)[0]
            flat[i] = old
            gflat[i] = (lp - lm) / (2 * eps)
        g[name] = grad
    return g


def self_test_case(root, label, rng, task, B, targets_fn, **model_kwargs):
    print(f"\n== self-test: {label} ==")
    meta, p = random_model(rng, **model_kwargs)
    meta["task"] = task
    model_dir, grads_dir = os.path.join(root, label, "model"), os.path.join(root, label, "grads")
    write_model(model_dir, meta, p)
    # Reload: the reference must use exactly the float32 values the files hold.
    _, params, st = load_model(model_dir, verbose=False)
    T, V = meta["seq_len"], p["tok_emb"].shape[0]
    tokens = rng.integers(0, V, (B, T)).astype(np.int64)
    targets = targets_fn(rng, tokens, [p[f"unembed{j}"].shape[1] for j in range(st["n_out"])])
    os.makedirs(grads_dir, exist_ok=True)
    np.save(os.path.join(grads_dir, "batch_tokens.npy"), tokens)
    for j, t in enumerate(targets):
        np.save(os.path.join(grads_dir, f"batch_targets{j}.npy"), t.astype(np.int64))
    total, per, _, _ = forward(params, st, tokens, targets)
    with open(os.path.join(grads_dir, "loss.json"), "w") as f:
        json.dump({"loss": total, "losses": per}, f)
    fd = finite_difference_grads(params, st, tokens, targets)
    for name, arr in fd.items():
        np.save(os.path.join(grads_dir, f"grad_{name}.npy"), arr)  # float64: FD is the truth
    status = check(model_dir, grads_dir, rtol=1e-6)
    return status, model_dir, grads_dir


def make_example(out_dir, seed=0):
    """A random model (2 layers, biases, MLP, 2 outputs, d_k != d_model/h) and a
    previous-and-first batch in the CLI's format, with this script's analytic gradients:
    OUT/model and OUT/grads (for checking other implementations, e.g. torch_reference.py)."""
    rng = np.random.default_rng(seed)
    meta, p = random_model(rng, V=9, D=8, T=6, heads=2, d_k=3, d_v=3, out_vocabs=(9, 9))
    meta["task"] = "previous-and-first"
    model_dir, grads_dir = os.path.join(out_dir, "model"), os.path.join(out_dir, "grads")
    write_model(model_dir, meta, p)
    _, params, st = load_model(model_dir, verbose=False)
    tokens = rng.integers(0, 9, (4, 6)).astype(np.int64)
    t0 = np.full_like(tokens, IGNORE_INDEX)
    t1 = np.full_like(tokens, IGNORE_INDEX)
    t0[:, 1:] = tokens[:, :-1]
    t1[:, 1:] = tokens[:, :1]
    total, per, grads = loss_and_grads(params, st, tokens, [t0, t1])
    os.makedirs(grads_dir, exist_ok=True)
    np.save(os.path.join(grads_dir, "batch_tokens.npy"), tokens)
    np.save(os.path.join(grads_dir, "batch_targets0.npy"), t0)
    np.save(os.path.join(grads_dir, "batch_targets1.npy"), t1)
    with open(os.path.join(grads_dir, "loss.json"), "w") as f:
        json.dump({"loss": total, "losses": per}, f)
    for name, arr in grads.items():
        np.save(os.path.join(grads_dir, f"grad_{name}.npy"), arr.astype(np.float32))
    print(f"wrote {model_dir} and {grads_dir} (loss {total:.6f})")
    return 0


def self_test():
    rng = np.random.default_rng(12)
    root = tempfile.mkdtemp(prefix="attnlab_numpy_ref_")
    failures = []

    def prev_and_first(rng, tokens, vocabs):
        t0 = np.full_like(tokens, IGNORE_INDEX)
        t1 = np.full_like(tokens, IGNORE_INDEX)
        t0[:, 1:] = tokens[:, :-1] % vocabs[0]
        t1[:, 1:] = (tokens[:, :1] % vocabs[1]).repeat(tokens.shape[1] - 1, axis=1)
        return [t0, t1]

    def random_targets(rng, tokens, vocabs):
        out = []
        for Vj in vocabs:
            t = rng.integers(0, Vj, tokens.shape)
            t[rng.random(tokens.shape) < 0.3] = IGNORE_INDEX
            out.append(t)
        return out

    try:
        cases = [
            ("2 layers, biases, MLP, 2 outputs, d_k=4 d_v=3 (causal)", "previous-and-first", 3,
             prev_and_first, dict()),
            ("1 layer, no bias, no MLP, 1 output, bidirectional (reverse)", "reverse", 2,
             random_targets, dict(layers=1, bias=False, mlp=False, out_vocabs=(7,), d_k=3,
                                  d_v=3, heads=2)),
            ("1 layer, 3 heads, MLP, no bias, random targets with -1", "previous-token", 2,
             random_targets, dict(layers=1, bias=False, mlp=True, heads=3, d_k=2, d_v=2,
                                  out_vocabs=(7, 3))),
            # issue 23: the other position encodings
            ("rope, 2 layers, biases, MLP, d_k=4 d_v=3", "previous-and-first", 2,
             prev_and_first, dict(pos="rope")),
            ("alibi, 1 layer, 3 heads, bidirectional (reverse)", "reverse", 2, random_targets,
             dict(pos="alibi", layers=1, mlp=False, heads=3, d_k=2, d_v=2, out_vocabs=(7,))),
            ("alibi, 1 layer, causal", "previous-token", 2, random_targets,
             dict(pos="alibi", layers=1, mlp=False, out_vocabs=(7,))),
            ("sinusoidal, 1 layer", "previous-token", 2, random_targets,
             dict(pos="sinusoidal", layers=1, mlp=False, out_vocabs=(7,))),
            ("none, 1 layer", "previous-token", 2, random_targets,
             dict(pos="none", layers=1, mlp=False, out_vocabs=(7,))),
        ]
        last, by_pos = None, {}
        for label, task, B, tf, kw in cases:
            safe_label = re.sub(r"[^a-z0-9]+", "_", label.lower())
            status, model_dir, grads_dir = self_test_case(root, safe_label, rng, task, B, tf, **kw)
            if status != 0:
                failures.append(label)
            last = last or (model_dir, grads_dir)
            by_pos.setdefault(kw.get("pos", "learned"), (model_dir, grads_dir))
        # A model checked with another encoding than it has must fail (each one matters).
        for pos, other in (("rope", "none"), ("alibi", "none"), ("sinusoidal", "none")):
            print(f"\n== self-test: a {pos} model read as {other} must fail ==")
            model_dir, grads_dir = by_pos[pos]
            mj = os.path.join(model_dir, "model.json")
            with open(mj) as f:
                meta = json.load(f)
            with open(mj, "w") as f:
                json.dump(dict(meta, pos=other), f)
            if check(model_dir, grads_dir, verbose=False, show_ok=False) != 1:
                failures.append(f"{pos} read as {other} not detected")
            with open(mj, "w") as f:
                json.dump(meta, f)
        # Negative checks: the comparison must notice a wrong gradient, a wrong loss, a missing
        # gradient and a bad model folder.
        model_dir, grads_dir = last
        print("\n== self-test: a corrupted gradient must fail ==")
        path = os.path.join(grads_dir, "grad_layer1.w_k.npy")
        good = np.load(path)
        bad = good.copy()
        bad.reshape(-1)[3] += 1e-3 * max(1.0, np.abs(good).max())
        np.save(path, bad)
        if check(model_dir, grads_dir, verbose=False, show_ok=False) != 1:
            failures.append("corrupted gradient not detected")
        np.save(path, good)
        print("\n== self-test: a wrong loss must fail ==")
        lpath = os.path.join(grads_dir, "loss.json")
        with open(lpath) as f:
            doc = json.load(f)
        with open(lpath, "w") as f:
            json.dump({"loss": doc["loss"] * (1 + 1e-3)}, f)
        if check(model_dir, grads_dir, verbose=False, show_ok=False) != 1:
            failures.append("wrong loss not detected")
        with open(lpath, "w") as f:
            json.dump(doc, f)
        print("\n== self-test: a missing gradient must fail ==")
        os.rename(path, path + ".away")
        if check(model_dir, grads_dir, verbose=False, show_ok=False) != 1:
            failures.append("missing gradient not detected")
        os.rename(path + ".away", path)
        print("\n== self-test: the wrong mask must fail ==")
        if check(model_dir, grads_dir, mask="none", verbose=False, show_ok=False) != 1:
            failures.append("causal vs bidirectional not distinguished")
        print("\n== self-test: a folder that is not a model must exit 2 ==")
        if check(grads_dir, grads_dir, verbose=False, show_ok=False) != 2:
            failures.append("bad model folder not reported")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print()
    if failures:
        print("SELF-TEST FAILED: " + "; ".join(failures))
        return 1
    print("self-test passed: the analytic backward matches central finite differences (float64) "
          "and mismatches are detected")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model_dir", nargs="?")
    ap.add_argument("grads_dir", nargs="?")
    ap.add_argument("--rtol", type=float, default=DEFAULT_RTOL,
                    help="max|ours-ref| <= rtol * max(1, max|ref|) per tensor (default 1e-4)")
    ap.add_argument("--mask", choices=["auto", "causal", "none"], default="auto",
                    help="override the mask (auto: causal unless model.json's task is "
                         f"one of {sorted(BIDIRECTIONAL_TASKS)} or it says otherwise)")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--make-example", metavar="DIR",
                    help="write a random model to DIR/model and a batch with this script's "
                         "gradients (float32) to DIR/grads, then exit")
    ap.add_argument("--quiet", action="store_true", help="do not print model.json's keys")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.make_example:
        return make_example(args.make_example)
    if not args.model_dir or not args.grads_dir:
        ap.print_usage()
        print("error: MODEL_DIR and GRADS_DIR are required (or --self-test)")
        return 2
    return check(args.model_dir, args.grads_dir, rtol=args.rtol, mask=args.mask,
                 verbose=not args.quiet)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
