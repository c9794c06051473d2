#!/usr/bin/python3
"""Real models' layouts, offline: tiny random Hugging Face checkpoints (hf_checkpoints.py) opened
by attnlab-cli --model, against a float64 NumPy forward written from transformers' modeling files
(hf_reference.py). Tolerance: |ours - ref| <= 1e-4 * max(1, max|ref|), per tensor.

    check_pretrained.py           each case through $ATTNLAB_CLI --model DIR --tokens ... --layer L
                                  --export OUT, compared with the reference
    check_pretrained.py --self    the writer and the reference alone: bytes read back, bfloat16
                                  rounding, softmax rows, causal zeros, prefixes, RoPE scaling,
                                  Phi-3's fused tensors cut apart as Llama's
    check_pretrained.py --torch   the reference against forwards built from torch ops and
                                  nn.MultiheadAttention (needs python3-torch)

Each prints one line per case and "N passed, M failed"; the exit code is 1 on a failure.

What the CLI must export into OUT (B = 1 sequence of the T given tokens, h heads, kv K/V heads,
dh the head width, d the model width, L the --layer, counted from 0):
  token_ids.npy  (B, T) int64             the tokens as given
  attentions.npy (n_layers, B, h, T, T)   float32, every layer's softmax weights
  logits.npy     (B, T, vocab) float32    the LM head's; BERT: the MLM head's (cls.predictions),
                                          checked only when the checkpoint has that head
  x.npy          (B, T, d)                layer L's attention input: ln_1 / input_layernorm's
                                          output; BERT: the layer's input hidden state
  q.npy (B, T, h*dh), k.npy and v.npy (B, T, kv*dh)   projected, biases added, before RoPE
  weights.npy    (B, h, T, T)             layer L's softmax weights
  out.npy        (B, T, d)                after c_proj / o_proj / attention.output.dense, before
                                          the residual (and BERT's LayerNorm)
  residual.npy   (B, T, d)                h + out (BERT: attention.output.LayerNorm of it)
  mlp_in.npy     (B, T, d)                the second norm of the residual (BERT: the residual)
  mlp_hidden.npy (B, T, d_ff)             the MLP's activations (Llama, Phi-3: silu(gate) * up;
                                          Gemma: gelu_tanh(gate) * up)
  block_out.npy  (B, T, d)                the block's output, the next layer's input
all float32 and C-contiguous."""
import importlib.util
import json
import math
import os
import struct
import sys
import tempfile

import numpy as np

import hf_checkpoints as ckpt
from export_checks import compare, export
from hf_reference import forward, rope_inv_freq

TOL = 1e-4
TORCH_TOL = 1e-9  # float64 on both sides

# (checkpoint case of hf_checkpoints.CASES, token ids, the layer to probe)
CASES = [
    ("gpt2-f32-tied", [1, 5, 9, 13, 2, 7, 11, 3], 1),
    ("gpt2-f16-prefix-untied", [4, 8, 15, 16, 23, 42, 0, 119, 7, 1], 2),
    ("llama-gqa-bf16-untied-sharded", [1, 5, 9, 100, 149, 3, 77], 0),
    ("llama3-rope-scaling", [1, 12, 35, 7, 99, 140, 5, 8, 60, 2, 31, 17], 1),
    ("llama-linear-rope", [3, 1, 4, 1, 5, 9, 2, 6, 5], 1),
    ("llama-attention-mlp-bias", [1, 2, 3, 149, 148, 70, 8, 9], 2),
    ("mistral-head-dim", [1, 170, 22, 5, 64, 9, 13, 179], 1),
    ("qwen2-bias-tied-bf16", [149, 0, 10, 20, 30, 40, 50, 60, 70, 80], 1),
    ("phi3-f32", [1, 17, 33, 2, 139, 64, 5, 90], 1),
    ("phi3-gqa-bf16-sharded", [7, 3, 120, 45, 45, 8, 0, 77, 31], 2),
    ("gemma-mqa-f32", [2, 150, 9, 31, 4, 88, 16, 159], 0),
    ("gemma-gqa-bf16", [2, 11, 22, 33, 44, 55, 66, 77, 88, 99, 121], 2),
    ("bert-prefix-mlm", [101, 7, 19, 55, 199, 3, 102], 0),
    ("bert-noprefix-f16", [2, 4, 6, 8, 10, 12, 14, 16, 18, 149], 2),
]

PROBED = ("attentions", "logits", "x", "q", "k", "v", "weights", "out", "residual", "mlp_in",
          "mlp_hidden", "block_out")


def worst_error(got, want):
    """|got - want| / max(1, max|want|), the largest over the tensor; shapes must agree."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    return float(np.abs(got - want).max()) / max(1.0, float(np.abs(want).max()))


def report(cases, check, tol):
    """check(case) -> {tensor: worst error}; one line per case, then "N passed, M failed"."""
    passed = failed = 0
    for case in cases:
        name = case[0] if isinstance(case, tuple) else case
        try:
            worst = check(case)
            tensor, diff = max(worst.items(), key=lambda kv: kv[1])
            print(f"{name}: {len(worst)} tensors, max |ours - ref| / scale = {diff:.2e} "
                  f"({tensor})")
            assert diff <= tol, f"{tensor} differs by {diff:.2e} (tolerance {tol:.0e})"
            passed += 1
        except AssertionError as err:
            print(f"FAIL {name}: {err}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# ---- the CLI against the reference ----------------------------------------------------------

def check_cli(case):
    name, tokens, layer = case
    with tempfile.TemporaryDirectory() as tmp:
        model, out = os.path.join(tmp, "model"), os.path.join(tmp, "out")
        ckpt.write_case(name, model)
        export(os.environ["ATTNLAB_CLI"], ["--model", model, "--tokens",
                                           ",".join(map(str, tokens)), "--layer", str(layer)],
               out)
        ids = np.load(os.path.join(out, "token_ids.npy"))
        assert ids.dtype == np.int64 and ids.tolist() == [tokens], f"token_ids.npy: {ids}"
        ref = forward(model, [tokens], layer)
        return compare(out, {n: ref[n] for n in PROBED if n in ref})


# ---- the writer and the reference alone -----------------------------------------------------

def check_bf16_rounding():
    """Ties go to the even neighbour (0x3F80 down, 0x3F82 up), just above a tie rounds up, and
    float32's largest value rounds to infinity, as torch's bfloat16 conversion does."""
    values = np.array([1, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20, -2.5,
                       np.finfo(np.float32).max], dtype=np.float32)
    want = [0x3F80, 0x3F80, 0x3F82, 0x3F81, 0xC020, 0x7F80]
    got = ckpt.to_bf16_bits(values).tolist()
    assert got == want, f"bfloat16 bits {[hex(g) for g in got]}"
    return {"bf16 bits": 0.0}


def check_file_layout():
    """Bytes read back as written: the header's length and padding, metadata, the data's size,
    and every dtype's values (F16 as numpy's float16, BF16 as the rounding above), each near
    the float32 written."""
    rng = np.random.default_rng(0)
    arrays = {"a": rng.standard_normal((3, 5)).astype(np.float32),
              "b.weight": rng.standard_normal(7).astype(np.float32),
              "c": rng.standard_normal((2, 2, 2)).astype(np.float32)}
    checked = {}
    for dtype, item, near in (("F32", 4, 0), ("F16", 2, 1e-3), ("BF16", 2, 1e-2)):
        data = ckpt.safetensors_bytes({n: (a, dtype) for n, a in arrays.items()},
                                      {"format": "pt"})
        (n,) = struct.unpack("<Q", data[:8])
        assert n % 8 == 0, f"{dtype}: header of {n} bytes"
        assert data[8:8 + n].startswith(b'{"__metadata__":{"format":"pt"}'), dtype
        assert len(data) == 8 + n + item * sum(a.size for a in arrays.values()), dtype
        with tempfile.NamedTemporaryFile(suffix=".safetensors") as f:
            f.write(data)
            f.flush()
            back = ckpt.read_safetensors(f.name)
        for name, a in arrays.items():
            if dtype == "BF16":
                want = ckpt.from_bf16_bits(ckpt.to_bf16_bits(a))
            else:
                want = a.astype(np.float16 if dtype == "F16" else np.float32)
            assert np.array_equal(back[name], want.astype(np.float64)), f"{dtype} {name}"
            assert worst_error(back[name], a) <= near, f"{dtype} {name} far from the float32"
            checked[f"{dtype} {name}"] = 0.0
    return checked


def check_sharded():
    """A sharded folder reads back as the same checkpoint written as one file; total_size is
    the tensors' bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        one, two = os.path.join(tmp, "one"), os.path.join(tmp, "two")
        for folder, shards in ((one, 1), (two, 3)):
            os.makedirs(folder)
            ckpt.write_llama(folder, seed=3, dtype="BF16", shards=shards)
        (_, a), (_, b) = ckpt.read_folder(one), ckpt.read_folder(two)
        assert sorted(a) == sorted(b) and all(np.array_equal(a[n], b[n]) for n in a)
        index = json.load(open(os.path.join(two, "model.safetensors.index.json")))
        assert index["metadata"]["total_size"] == 2 * sum(x.size for x in a.values())
        assert sorted(set(index["weight_map"].values())) == [
            f"model-0000{i}-of-00003.safetensors" for i in (1, 2, 3)]
    return {"shards": 0.0}


def check_case_consistency(case):
    """Softmax rows sum to 1, causal models see no later key, BERT sees every key, the probed
    layer is the one in attentions, and the probed shapes fit the config."""
    name, tokens, layer = case
    with tempfile.TemporaryDirectory() as tmp:
        ckpt.write_case(name, tmp)
        config, _ = ckpt.read_folder(tmp)
        ref = forward(tmp, [tokens, tokens[::-1]], layer)  # B = 2
    att = ref["attentions"]  # (n_layers, B, h, T, T)
    T = len(tokens)
    worst = {"row sums": float(np.abs(att.sum(-1) - 1).max())}
    upper = att[..., np.triu_indices(T, 1)[0], np.triu_indices(T, 1)[1]]
    if config["model_type"] == "bert":
        assert upper.min() > 0, "BERT hides a key"
    else:
        assert np.all(upper == 0), "a causal model sees a later key"
    assert np.array_equal(att[layer], ref["weights"])
    assert att.std(-1).max() > 0.05, "attention is nearly uniform"
    B, h = 2, att.shape[2]
    for n in ("x", "q", "k", "v", "out"):
        assert ref[n].shape[:2] == (B, T), n
    assert ref["q"].shape[2] % h == 0 and ref["k"].shape == ref["v"].shape
    return worst


def check_prefixes():
    """The prefix variants compute the same as the bare names (same seed, same values)."""
    worst = {}
    with tempfile.TemporaryDirectory() as tmp:
        for family, writer, prefix, extra in (
                ("gpt2", ckpt.write_gpt2, "transformer.", {}),
                ("bert", ckpt.write_bert, "bert.", {"mlm_head": False})):
            bare, prefixed = os.path.join(tmp, family), os.path.join(tmp, family + "-prefixed")
            for folder, p in ((bare, ""), (prefixed, prefix)):
                os.makedirs(folder)
                writer(folder, seed=5, prefix=p, **extra)
            a, b = forward(bare, [[1, 2, 3, 4]], 0), forward(prefixed, [[1, 2, 3, 4]], 0)
            for n in a:
                worst[f"{family} {n}"] = worst_error(b[n], a[n])
                assert worst[f"{family} {n}"] == 0, f"{family} {n}: prefix changes it"
    return worst


def meta_llama3_inv_freq(inv_freq, s):
    """Meta's llama3 apply_scaling, one frequency at a time (written apart from the
    reference's vectorised form)."""
    out = []
    for freq in inv_freq:
        wavelen = 2 * math.pi / freq
        if wavelen < s["original_max_position_embeddings"] / s["high_freq_factor"]:
            out.append(freq)
        elif wavelen > s["original_max_position_embeddings"] / s["low_freq_factor"]:
            out.append(freq / s["factor"])
        else:
            smooth = ((s["original_max_position_embeddings"] / wavelen - s["low_freq_factor"])
                      / (s["high_freq_factor"] - s["low_freq_factor"]))
            out.append((1 - smooth) * freq / s["factor"] + smooth * freq)
    return np.array(out)


def check_rope_scaling():
    """llama3 scaling as Meta writes it, for the case's config and for Llama 3.1's own numbers;
    the case's sequence is long enough for the scaling to change the attention."""
    worst = {}
    for label, s, theta, dh in (("case", ckpt.LLAMA3_SCALING, 10000.0, 16),
                                ("llama3.1", {"factor": 8.0, "low_freq_factor": 1.0,
                                              "high_freq_factor": 4.0, "rope_type": "llama3",
                                              "original_max_position_embeddings": 8192},
                                 500000.0, 128)):
        c = {"rope_theta": theta, "rope_scaling": s}
        plain = 1.0 / theta ** (np.arange(0, dh, 2) / dh)
        worst[label] = worst_error(rope_inv_freq(c, dh), meta_llama3_inv_freq(plain, s))
        assert worst[label] < 1e-15, label
    name, tokens, layer = next(c for c in CASES if c[0] == "llama3-rope-scaling")
    with tempfile.TemporaryDirectory() as tmp:
        ckpt.write_case(name, tmp)
        scaled = forward(tmp, [tokens], layer)["attentions"]
        config_path = os.path.join(tmp, "config.json")
        config = json.load(open(config_path))
        config["rope_scaling"] = None
        ckpt.write_config(tmp, config)
        plain = forward(tmp, [tokens], layer)["attentions"]
    assert np.abs(scaled - plain).max() > 1e-2, "the scaling hardly changes the attention"
    return worst


def check_phi3_is_llama_fused():
    """Phi-3's reference on a checkpoint equals Llama's on the same values with qkv_proj cut into
    q_proj | k_proj | v_proj and gate_up_proj into gate_proj | up_proj (rows)."""
    name, tokens, layer = next(c for c in CASES if c[0] == "phi3-gqa-bf16-sharded")
    with tempfile.TemporaryDirectory() as tmp:
        phi3, llama = os.path.join(tmp, "phi3"), os.path.join(tmp, "llama")
        ckpt.write_case(name, phi3)
        config, w = ckpt.read_folder(phi3)
        h, kv, f = (config[k] for k in ("num_attention_heads", "num_key_value_heads",
                                        "intermediate_size"))
        dh = config["hidden_size"] // h
        split = {}
        for n, a in w.items():
            if n.endswith("qkv_proj.weight"):
                base = n[:-len("qkv_proj.weight")]
                q, k, v = np.split(a, [h * dh, (h + kv) * dh])
                split.update({base + "q_proj.weight": q, base + "k_proj.weight": k,
                              base + "v_proj.weight": v})
            elif n.endswith("gate_up_proj.weight"):
                base = n[:-len("gate_up_proj.weight")]
                split[base + "gate_proj.weight"], split[base + "up_proj.weight"] = a[:f], a[f:]
            else:
                split[n] = a
        os.makedirs(llama)
        ckpt.write_config(llama, {**config, "model_type": "llama",
                                  "architectures": ["LlamaForCausalLM"]})
        ckpt.write_weights(llama, {n: a.astype(np.float32) for n, a in split.items()}, "F32", 1)
        a, b = forward(phi3, [tokens], layer), forward(llama, [tokens], layer)
    worst = {n: worst_error(a[n], b[n]) for n in a}
    assert max(worst.values()) < 1e-12, worst
    return worst


SELF_CHECKS = [("bf16 rounding", check_bf16_rounding), ("safetensors layout", check_file_layout),
               ("sharded folder", check_sharded), ("prefixes", check_prefixes),
               ("rope scaling", check_rope_scaling),
               ("phi3 = llama fused", check_phi3_is_llama_fused)]


def check_self(case):
    if case[0] in dict(SELF_CHECKS):
        return dict(SELF_CHECKS)[case[0]]()
    return check_case_consistency(case)


# ---- the reference against torch ------------------------------------------------------------

def torch_forward(folder, ids, layer):
    """The same models from torch ops: nn.MultiheadAttention for GPT-2 and BERT, RoPE as
    complex rotations and GQA by repeat_interleave for the Llama family, Phi-3 and Gemma."""
    import torch
    import torch.nn.functional as F

    config, raw = ckpt.read_folder(folder)
    w = {n: torch.from_numpy(a) for n, a in raw.items()}
    for prefix in ("transformer.", "bert."):
        w = {n[len(prefix):] if n.startswith(prefix) else n: a for n, a in w.items()}
    ids = torch.tensor(ids)
    T = ids.shape[1]
    kind = config["model_type"]

    def mha(x, wq, bq, wo, bo, n_heads, causal):
        """nn.MultiheadAttention, in_proj (3d, d), returning out and per-head weights."""
        d = x.shape[-1]
        m = torch.nn.MultiheadAttention(d, n_heads, batch_first=True, dtype=torch.float64)
        with torch.no_grad():
            m.in_proj_weight.copy_(wq)
            m.in_proj_bias.copy_(bq)
            m.out_proj.weight.copy_(wo)
            m.out_proj.bias.copy_(bo)
            mask = torch.ones(T, T, dtype=torch.bool).triu(1) if causal else None
            out, weights = m(x, x, x, attn_mask=mask, need_weights=True,
                             average_attn_weights=False)
        q, k, v = F.linear(x, wq, bq).chunk(3, dim=-1)
        return dict(q=q, k=k, v=v, weights=weights, out=out)

    layers, hidden = [], None
    if kind == "gpt2":
        eps, h = config["layer_norm_epsilon"], config["n_head"]
        hidden = w["wte.weight"][ids] + w["wpe.weight"][:T]
        for i in range(config["n_layer"]):
            p = f"h.{i}."
            x = F.layer_norm(hidden, hidden.shape[-1:], w[p + "ln_1.weight"], w[p + "ln_1.bias"],
                             eps)
            r = mha(x, w[p + "attn.c_attn.weight"].T, w[p + "attn.c_attn.bias"],
                    w[p + "attn.c_proj.weight"].T, w[p + "attn.c_proj.bias"], h, True)
            hidden = residual = hidden + r["out"]
            m = F.layer_norm(hidden, hidden.shape[-1:], w[p + "ln_2.weight"], w[p + "ln_2.bias"],
                             eps)
            inner = F.gelu(F.linear(m, w[p + "mlp.c_fc.weight"].T, w[p + "mlp.c_fc.bias"]),
                           approximate="tanh")
            hidden = hidden + F.linear(inner, w[p + "mlp.c_proj.weight"].T,
                                       w[p + "mlp.c_proj.bias"])
            layers.append(dict(x=x, **r, residual=residual, mlp_in=m, mlp_hidden=inner,
                               block_out=hidden))
        hidden = F.layer_norm(hidden, hidden.shape[-1:], w["ln_f.weight"], w["ln_f.bias"], eps)
        tied = config.get("tie_word_embeddings", True)
        logits = hidden @ (w["wte.weight"] if tied else w["lm_head.weight"]).T
    elif kind == "bert":
        eps, h = config["layer_norm_eps"], config["num_attention_heads"]

        def ln(x, name):
            return F.layer_norm(x, x.shape[-1:], w[name + ".weight"], w[name + ".bias"], eps)

        def lin(x, name):
            return F.linear(x, w[name + ".weight"], w[name + ".bias"])

        hidden = ln(w["embeddings.word_embeddings.weight"][ids]
                    + w["embeddings.position_embeddings.weight"][:T]
                    + w["embeddings.token_type_embeddings.weight"][torch.zeros_like(ids)],
                    "embeddings.LayerNorm")
        for i in range(config["num_hidden_layers"]):
            p = f"encoder.layer.{i}."
            s = p + "attention.self."
            wq = torch.cat([w[s + n + ".weight"] for n in ("query", "key", "value")])
            bq = torch.cat([w[s + n + ".bias"] for n in ("query", "key", "value")])
            r = mha(hidden, wq, bq, w[p + "attention.output.dense.weight"],
                    w[p + "attention.output.dense.bias"], h, False)
            x = hidden
            a = ln(r["out"] + hidden, p + "attention.output.LayerNorm")
            inner = F.gelu(lin(a, p + "intermediate.dense"))
            hidden = ln(lin(inner, p + "output.dense") + a, p + "output.LayerNorm")
            layers.append(dict(x=x, **r, residual=a, mlp_in=a, mlp_hidden=inner,
                               block_out=hidden))
        logits = None
        if "cls.predictions.bias" in w:
            t = ln(F.gelu(lin(hidden, "cls.predictions.transform.dense")),
                   "cls.predictions.transform.LayerNorm")
            logits = t @ w["embeddings.word_embeddings.weight"].T + w["cls.predictions.bias"]
    else:
        eps, h = config["rms_norm_eps"], config["num_attention_heads"]
        kv = config["num_key_value_heads"]
        dh = config.get("head_dim") or config["hidden_size"] // h
        theta = config["rope_theta"]
        inv_freq = 1.0 / theta ** (np.arange(0, dh, 2) / dh)
        s = config.get("rope_scaling") or {}
        if s.get("rope_type") == "llama3":
            inv_freq = meta_llama3_inv_freq(inv_freq, s)
        elif s.get("rope_type") == "linear":
            inv_freq = inv_freq / s["factor"]
        angles = torch.outer(torch.arange(T, dtype=torch.float64), torch.from_numpy(inv_freq))
        turn = torch.polar(torch.ones_like(angles), angles)  # (T, dh/2) complex

        gemma = kind == "gemma"

        def rms(x, weight):  # GemmaRMSNorm scales by 1 + weight
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * (
                1 + weight if gemma else weight)

        def lin(x, name):
            b = w.get(name + ".bias")
            return F.linear(x, w[name + ".weight"], b)

        def rotate(x, n):  # (B, T, n*dh) -> (B, n, T, dh), dims i and i + dh/2 as one complex
            x = x.view(x.shape[0], T, n, dh).transpose(1, 2)
            z = torch.complex(x[..., :dh // 2], x[..., dh // 2:]) * turn
            return torch.cat([z.real, z.imag], dim=-1)

        hidden = w["model.embed_tokens.weight"][ids]
        if gemma:  # the normalizer as a tensor of the checkpoint's dtype, back in float64
            dtype = {"bfloat16": torch.bfloat16, "float16": torch.float16}.get(
                config["torch_dtype"], torch.float32)
            hidden = hidden * torch.tensor(config["hidden_size"] ** 0.5, dtype=dtype).double()
        for i in range(config["num_hidden_layers"]):
            p = f"model.layers.{i}."
            x = rms(hidden, w[p + "input_layernorm.weight"])
            if p + "self_attn.qkv_proj.weight" in w:  # Phi-3
                q, k, v = lin(x, p + "self_attn.qkv_proj").split([h * dh, kv * dh, kv * dh], -1)
            else:
                q, k, v = (lin(x, p + f"self_attn.{n}_proj") for n in "qkv")
            qh = rotate(q, h)
            kh = rotate(k, kv).repeat_interleave(h // kv, dim=1)
            vh = v.view(v.shape[0], T, kv, dh).transpose(1, 2).repeat_interleave(h // kv, dim=1)
            scores = (qh @ kh.transpose(-1, -2)) / math.sqrt(dh)
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -math.inf)
            weights = scores.softmax(-1)
            out = lin((weights @ vh).transpose(1, 2).reshape(x.shape[0], T, h * dh),
                      p + "self_attn.o_proj")
            hidden = residual = hidden + out
            m = rms(hidden, w[p + "post_attention_layernorm.weight"])
            if p + "mlp.gate_up_proj.weight" in w:  # Phi-3
                gate, up = lin(m, p + "mlp.gate_up_proj").chunk(2, dim=-1)
            else:
                gate, up = lin(m, p + "mlp.gate_proj"), lin(m, p + "mlp.up_proj")
            gated = (F.gelu(gate, approximate="tanh") if gemma else F.silu(gate)) * up
            hidden = hidden + lin(gated, p + "mlp.down_proj")
            layers.append(dict(x=x, q=q, k=k, v=v, weights=weights, out=out, residual=residual,
                               mlp_in=m, mlp_hidden=gated, block_out=hidden))
        hidden = rms(hidden, w["model.norm.weight"])
        tied = config.get("tie_word_embeddings", gemma)
        logits = hidden @ (w["model.embed_tokens.weight"] if tied else w["lm_head.weight"]).T
    result = {n: t.numpy() for n, t in layers[layer].items()}
    result["attentions"] = np.stack([r["weights"].numpy() for r in layers])
    if logits is not None:
        result["logits"] = logits.numpy()
    return result


def check_torch(case):
    name, tokens, layer = case
    with tempfile.TemporaryDirectory() as tmp:
        ckpt.write_case(name, tmp)
        ids = [tokens, tokens[::-1]]  # B = 2
        ref, theirs = forward(tmp, ids, layer), torch_forward(tmp, ids, layer)
    assert sorted(ref) == sorted(theirs), f"tensors {sorted(ref)} != {sorted(theirs)}"
    return {n: worst_error(ref[n], theirs[n]) for n in ref}


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "--self":
        sys.exit(report(SELF_CHECKS + CASES, check_self, TORCH_TOL))
    if mode == "--torch":
        if importlib.util.find_spec("torch") is None:
            sys.exit("--torch needs python3-torch (import torch fails)")
        sys.exit(report(CASES, check_torch, TORCH_TOL))
    if "ATTNLAB_CLI" not in os.environ:
        sys.exit("set ATTNLAB_CLI to attnlab-cli's path (or pass --self or --torch)")
    sys.exit(report(CASES, check_cli, TOL))
