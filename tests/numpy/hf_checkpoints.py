#!/usr/bin/python3
"""Tiny random Hugging Face checkpoints, written in NumPy alone, in the exact layouts of the
published models: config.json as transformers writes it, and the weights as .safetensors (one
file, or shards with model.safetensors.index.json), for GPT-2, the Llama family (llama, mistral,
qwen2), BERT, Phi-3 and Gemma. Also reads such folders back (read_folder), so that a reference
computes with the very values a F16/BF16 file holds.

    python3 tests/numpy/hf_checkpoints.py OUTDIR    # writes every case's folder as OUTDIR/<case>

safetensors: an 8-byte little-endian header length, the JSON header (compact, "__metadata__"
first, padded with spaces to a multiple of 8 as the official writer does), then the tensors' bytes
in the header's order (larger dtypes first, then by name, as the official writer orders them)."""
import json
import os
import struct
import sys

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "U8": np.uint8}
TORCH_DTYPE = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}


# ---- safetensors ----------------------------------------------------------------------------

def to_bf16_bits(a):
    """float32 -> bfloat16 bits (uint16), rounding to nearest, ties to even."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = bits + 0x7FFF + ((bits >> 16) & 1)
    return (rounded >> 16).astype(np.uint16)


def from_bf16_bits(bits):
    """bfloat16 bits (uint16) -> float32, exactly."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def encode(array, dtype):
    """The raw little-endian bytes of `array` stored as `dtype` ("F32", "F16", "BF16", "U8")."""
    if dtype == "BF16":
        stored = to_bf16_bits(array)
    else:
        stored = np.asarray(array).astype(DTYPES[dtype])
    return np.ascontiguousarray(stored).astype(stored.dtype.newbyteorder("<")).tobytes()


def safetensors_bytes(tensors, metadata=None):
    """tensors: {name: (array, dtype)} -> the bytes of a .safetensors file."""
    order = sorted(tensors, key=lambda n: (-np.dtype(DTYPES[tensors[n][1]]).itemsize, n))
    header = {"__metadata__": metadata} if metadata is not None else {}
    blobs, offset = [], 0
    for name in order:
        array, dtype = tensors[name]
        blob = encode(array, dtype)
        header[name] = {"dtype": dtype, "shape": list(np.shape(array)),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def write_safetensors(path, tensors):
    with open(path, "wb") as f:
        f.write(safetensors_bytes(tensors, {"format": "pt"}))


def write_sharded(folder, tensors, n_shards):
    """model-0000i-of-0000n.safetensors, tensors dealt out in name order, and
    model.safetensors.index.json mapping each tensor to its shard."""
    names = sorted(tensors)
    weight_map, total = {}, 0
    for i, part in enumerate(np.array_split(np.array(names, dtype=object), n_shards)):
        shard = f"model-{i + 1:05d}-of-{n_shards:05d}.safetensors"
        write_safetensors(os.path.join(folder, shard), {n: tensors[n] for n in part})
        for n in part:
            weight_map[n] = shard
            total += len(encode(*tensors[n]))
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        f.write(json.dumps(index, indent=2, sort_keys=True) + "\n")


def read_safetensors(path):
    """{name: float64 array} for the float tensors of a .safetensors file (U8/BOOL buffers are
    skipped: no model weight is stored so)."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    out = {}
    for name, e in header.items():
        if e["dtype"] not in TORCH_DTYPE:
            continue
        begin, end = e["data_offsets"]
        raw = np.frombuffer(data[8 + n + begin:8 + n + end], dtype=np.dtype(DTYPES[e["dtype"]])
                            .newbyteorder("<"))
        values = from_bf16_bits(raw) if e["dtype"] == "BF16" else raw
        out[name] = values.astype(np.float64).reshape(e["shape"])
    return out


def read_folder(folder):
    """(config dict, {name: float64 array}) of a model folder, single-file or sharded."""
    config = json.load(open(os.path.join(folder, "config.json")))
    index = os.path.join(folder, "model.safetensors.index.json")
    if os.path.exists(index):
        shards = sorted(set(json.load(open(index))["weight_map"].values()))
    else:
        shards = ["model.safetensors"]
    weights = {}
    for shard in shards:
        weights.update(read_safetensors(os.path.join(folder, shard)))
    return config, weights


# ---- random weights -------------------------------------------------------------------------

class Init:
    """Random tensors with std 0.2 (attention far from uniform), norms' weights near 1."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def w(self, *shape):
        return (0.2 * self.rng.standard_normal(shape)).astype(np.float32)

    def b(self, n):
        return (0.1 * self.rng.standard_normal(n)).astype(np.float32)

    def norm(self, n):
        return (1 + 0.1 * self.rng.standard_normal(n)).astype(np.float32)


def write_config(folder, config):
    """As PretrainedConfig.to_json_file writes it: sorted keys, indent 2, a final newline."""
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write(json.dumps(config, indent=2, sort_keys=True) + "\n")


def write_weights(folder, tensors, dtype, shards):
    """float32 tensors stored as `dtype`, uint8 buffers as U8; one file or `shards` shards."""
    typed = {n: (a, dtype if a.dtype == np.float32 else "U8") for n, a in tensors.items()}
    if shards > 1:
        write_sharded(folder, typed, shards)
    else:
        write_safetensors(os.path.join(folder, "model.safetensors"), typed)


# ---- GPT-2 ----------------------------------------------------------------------------------

def gpt2_tensors(c, init, prefix, mask_buffer):
    d, n_pos = c["n_embd"], c["n_positions"]
    t = {"wte.weight": init.w(c["vocab_size"], d), "wpe.weight": init.w(n_pos, d)}
    causal = np.tril(np.ones((n_pos, n_pos), dtype=np.float32))[None, None]  # (1, 1, P, P)
    for i in range(c["n_layer"]):
        p = f"h.{i}."
        for ln in ("ln_1", "ln_2"):
            t[p + ln + ".weight"], t[p + ln + ".bias"] = init.norm(d), init.b(d)
        # Conv1D stores (in, out): y = x @ W + b; c_attn's columns are q | k | v
        for name, n_in, n_out in (("attn.c_attn", d, 3 * d), ("attn.c_proj", d, d),
                                  ("mlp.c_fc", d, 4 * d), ("mlp.c_proj", 4 * d, d)):
            t[p + name + ".weight"], t[p + name + ".bias"] = init.w(n_in, n_out), init.b(n_out)
        if mask_buffer:
            t[p + "attn.bias"] = causal if mask_buffer == "F32" else causal.astype(np.uint8)
    t["ln_f.weight"], t["ln_f.bias"] = init.norm(d), init.b(d)
    t = {prefix + n: a for n, a in t.items()}
    if not c.get("tie_word_embeddings", True):
        t["lm_head.weight"] = init.w(c["vocab_size"], d)
    return t


def write_gpt2(folder, seed=0, dtype="F32", tied=True, prefix="", mask_buffer="F32", shards=1,
               d=32, n_layer=2, n_head=4, vocab=120, n_positions=64):
    """GPT-2 as the published gpt2 (no prefix, causal buffer h.N.attn.bias stored as F32), or as
    GPT2LMHeadModel.save_pretrained writes it (prefix "transformer.", lm_head.weight if untied;
    mask_buffer "U8" or None for other vintages)."""
    c = {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
         "attn_pdrop": 0.1, "bos_token_id": vocab - 1, "embd_pdrop": 0.1,
         "eos_token_id": vocab - 1, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
         "model_type": "gpt2", "n_ctx": n_positions, "n_embd": d, "n_head": n_head,
         "n_inner": None, "n_layer": n_layer, "n_positions": n_positions,
         "reorder_and_upcast_attn": False, "resid_pdrop": 0.1,
         "scale_attn_by_inverse_layer_idx": False, "scale_attn_weights": True, "torch_dtype": TORCH_DTYPE[dtype],
         "transformers_version": "4.44.2", "use_cache": True, "vocab_size": vocab}
    if not tied:  # save_pretrained writes only what differs from the defaults (tied)
        c["tie_word_embeddings"] = False
    write_config(folder, c)
    write_weights(folder, gpt2_tensors(c, Init(seed), prefix, mask_buffer), dtype, shards)


# ---- Llama, Mistral, Qwen2 ------------------------------------------------------------------

LLAMA_ARCH = {"llama": "LlamaForCausalLM", "mistral": "MistralForCausalLM",
              "qwen2": "Qwen2ForCausalLM"}


def llama_tensors(c, init):
    d, f, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    h, kv = c["num_attention_heads"], c["num_key_value_heads"]
    dh = c.get("head_dim") or d // h
    t = {"model.embed_tokens.weight": init.w(v, d), "model.norm.weight": init.norm(d)}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t[p + "input_layernorm.weight"] = init.norm(d)
        t[p + "post_attention_layernorm.weight"] = init.norm(d)
        # nn.Linear stores (out, in): y = x @ W.T
        for name, n_out, n_in in (("q", h * dh, d), ("k", kv * dh, d), ("v", kv * dh, d),
                                  ("o", d, h * dh)):
            t[p + f"self_attn.{name}_proj.weight"] = init.w(n_out, n_in)
            if (c["model_type"] == "qwen2" and name != "o") or c.get("attention_bias"):
                t[p + f"self_attn.{name}_proj.bias"] = init.b(n_out)
        for name, n_out, n_in in (("gate", f, d), ("up", f, d), ("down", d, f)):
            t[p + f"mlp.{name}_proj.weight"] = init.w(n_out, n_in)
            if c.get("mlp_bias"):
                t[p + f"mlp.{name}_proj.bias"] = init.b(n_out)
    if not c["tie_word_embeddings"]:
        t["lm_head.weight"] = init.w(v, d)
    return t


def write_llama(folder, model_type="llama", seed=0, dtype="F32", tied=False, shards=1, d=32,
                n_layers=2, n_heads=4, n_kv_heads=2, head_dim=None, d_ff=64, vocab=150,
                rope_theta=10000.0, rope_scaling=None, max_positions=128, biases=False):
    """biases: Llama's attention_bias and mlp_bias (q, k, v, o and the MLP's projections)."""
    c = {"architectures": [LLAMA_ARCH[model_type]], "attention_dropout": 0.0,
         "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": d,
         "initializer_range": 0.02, "intermediate_size": d_ff,
         "max_position_embeddings": max_positions, "model_type": model_type,
         "num_attention_heads": n_heads, "num_hidden_layers": n_layers,
         "num_key_value_heads": n_kv_heads, "rms_norm_eps": 1e-06, "rope_theta": rope_theta,
         "tie_word_embeddings": tied, "torch_dtype": TORCH_DTYPE[dtype],
         "transformers_version": "4.44.2", "use_cache": True, "vocab_size": vocab}
    if model_type == "llama":
        c.update({"attention_bias": biases, "mlp_bias": biases, "pretraining_tp": 1,
                  "rope_scaling": rope_scaling})
    elif model_type == "mistral":
        c["sliding_window"] = 4096
    else:
        c.update({"max_window_layers": n_layers, "sliding_window": max_positions,
                  "use_sliding_window": False})
    if head_dim is not None:
        c["head_dim"] = head_dim
    write_config(folder, c)
    write_weights(folder, llama_tensors(c, Init(seed)), dtype, shards)


# ---- Phi-3 ----------------------------------------------------------------------------------

def phi3_tensors(c, init):
    d, f, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    h, kv = c["num_attention_heads"], c["num_key_value_heads"]
    dh = d // h
    t = {"model.embed_tokens.weight": init.w(v, d), "model.norm.weight": init.norm(d)}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t[p + "input_layernorm.weight"] = init.norm(d)
        t[p + "post_attention_layernorm.weight"] = init.norm(d)
        # nn.Linear (out, in); qkv_proj's rows are q (h*dh) | k (kv*dh) | v (kv*dh)
        t[p + "self_attn.qkv_proj.weight"] = init.w((h + 2 * kv) * dh, d)
        t[p + "self_attn.o_proj.weight"] = init.w(d, h * dh)
        # gate_up_proj's rows are gate (f) | up (f)
        t[p + "mlp.gate_up_proj.weight"] = init.w(2 * f, d)
        t[p + "mlp.down_proj.weight"] = init.w(d, f)
    t["lm_head.weight"] = init.w(v, d)
    return t


def write_phi3(folder, seed=0, dtype="F32", shards=1, d=32, n_layers=2, n_heads=4, n_kv_heads=4,
               d_ff=64, vocab=140, max_positions=128):
    """Phi3ForCausalLM as Phi-3-mini-4k-instruct's config.json has it (untied head)."""
    c = {"architectures": ["Phi3ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
         "embd_pdrop": 0.0, "eos_token_id": vocab - 1, "hidden_act": "silu", "hidden_size": d,
         "initializer_range": 0.02, "intermediate_size": d_ff,
         "max_position_embeddings": max_positions, "model_type": "phi3",
         "num_attention_heads": n_heads, "num_hidden_layers": n_layers,
         "num_key_value_heads": n_kv_heads, "original_max_position_embeddings": max_positions,
         "pad_token_id": vocab - 1, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05,
         "rope_scaling": None, "rope_theta": 10000.0, "sliding_window": max_positions - 1,
         "tie_word_embeddings": False, "torch_dtype": TORCH_DTYPE[dtype],
         "transformers_version": "4.44.2", "use_cache": True, "vocab_size": vocab}
    write_config(folder, c)
    write_weights(folder, phi3_tensors(c, Init(seed)), dtype, shards)


# ---- Gemma ----------------------------------------------------------------------------------

def gemma_tensors(c, init):
    d, f, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    h, kv, dh = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]

    def norm_offset(n):  # GemmaRMSNorm multiplies by 1 + w: its weight is stored near 0
        return (0.1 * init.rng.standard_normal(n)).astype(np.float32)

    t = {"model.embed_tokens.weight": init.w(v, d), "model.norm.weight": norm_offset(d)}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t[p + "input_layernorm.weight"] = norm_offset(d)
        t[p + "post_attention_layernorm.weight"] = norm_offset(d)
        for name, n_out, n_in in (("q", h * dh, d), ("k", kv * dh, d), ("v", kv * dh, d),
                                  ("o", d, h * dh)):
            t[p + f"self_attn.{name}_proj.weight"] = init.w(n_out, n_in)
        t[p + "mlp.gate_proj.weight"] = init.w(f, d)
        t[p + "mlp.up_proj.weight"] = init.w(f, d)
        t[p + "mlp.down_proj.weight"] = init.w(d, f)
    return t  # tied: no lm_head.weight, the head is embed_tokens


def write_gemma(folder, seed=0, dtype="F32", shards=1, d=32, n_layers=2, n_heads=4, n_kv_heads=1,
                head_dim=16, d_ff=64, vocab=160, max_positions=128):
    """GemmaForCausalLM as gemma-2b's config.json has it: head_dim apart from hidden_size / heads,
    hidden_act "gelu" beside hidden_activation "gelu_pytorch_tanh" (the one GemmaMLP uses), no
    tie_word_embeddings key (GemmaConfig's default: tied)."""
    c = {"architectures": ["GemmaForCausalLM"], "attention_bias": False,
         "attention_dropout": 0.0, "bos_token_id": 2, "eos_token_id": 1, "head_dim": head_dim,
         "hidden_act": "gelu", "hidden_activation": "gelu_pytorch_tanh", "hidden_size": d,
         "initializer_range": 0.02, "intermediate_size": d_ff,
         "max_position_embeddings": max_positions, "model_type": "gemma",
         "num_attention_heads": n_heads, "num_hidden_layers": n_layers,
         "num_key_value_heads": n_kv_heads, "pad_token_id": 0, "rms_norm_eps": 1e-06,
         "rope_scaling": None, "rope_theta": 10000.0, "torch_dtype": TORCH_DTYPE[dtype],
         "transformers_version": "4.44.2", "use_cache": True, "vocab_size": vocab}
    write_config(folder, c)
    write_weights(folder, gemma_tensors(c, Init(seed)), dtype, shards)


# ---- BERT -----------------------------------------------------------------------------------

def bert_tensors(c, init, prefix, pooler, mlm_head, decoder_weight):
    d, f, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]

    def dense(name, n_out, n_in):  # nn.Linear: (out, in)
        t[name + ".weight"], t[name + ".bias"] = init.w(n_out, n_in), init.b(n_out)

    def layer_norm(name):
        t[name + ".weight"], t[name + ".bias"] = init.norm(d), init.b(d)

    t = {"embeddings.word_embeddings.weight": init.w(v, d),
         "embeddings.position_embeddings.weight": init.w(c["max_position_embeddings"], d),
         "embeddings.token_type_embeddings.weight": init.w(c["type_vocab_size"], d)}
    layer_norm("embeddings.LayerNorm")
    for i in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):
            dense(p + "attention.self." + name, d, d)
        dense(p + "attention.output.dense", d, d)
        layer_norm(p + "attention.output.LayerNorm")
        dense(p + "intermediate.dense", f, d)
        dense(p + "output.dense", d, f)
        layer_norm(p + "output.LayerNorm")
    if pooler:
        dense("pooler.dense", d, d)
    t = {prefix + n: a for n, a in t.items()}
    if mlm_head:
        dense("cls.predictions.transform.dense", d, d)
        layer_norm("cls.predictions.transform.LayerNorm")
        t["cls.predictions.bias"] = init.b(v)
        if decoder_weight:  # tied: the same values as the word embeddings
            t["cls.predictions.decoder.weight"] = t[prefix + "embeddings.word_embeddings.weight"]
    return t


def write_bert(folder, seed=0, dtype="F32", prefix="bert.", pooler=True, mlm_head=True,
               decoder_weight=False, shards=1, d=48, n_layers=2, n_heads=4, d_ff=96, vocab=200,
               max_positions=64):
    """BertForMaskedLM / BertForPreTraining (prefix "bert.", MLM head "cls.predictions.*") or
    BertModel (no prefix, no head)."""
    arch = "BertForMaskedLM" if mlm_head else "BertModel"
    c = {"architectures": [arch], "attention_probs_dropout_prob": 0.1,
         "classifier_dropout": None, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
         "hidden_size": d, "initializer_range": 0.02, "intermediate_size": d_ff,
         "layer_norm_eps": 1e-12, "max_position_embeddings": max_positions, "model_type": "bert",
         "num_attention_heads": n_heads, "num_hidden_layers": n_layers, "pad_token_id": 0,
         "position_embedding_type": "absolute", "torch_dtype": TORCH_DTYPE[dtype],
         "transformers_version": "4.44.2", "type_vocab_size": 2, "use_cache": True,
         "vocab_size": vocab}
    write_config(folder, c)
    tensors = bert_tensors(c, Init(seed), prefix, pooler, mlm_head, decoder_weight)
    write_weights(folder, tensors, dtype, shards)


# ---- the cases ------------------------------------------------------------------------------

LLAMA3_SCALING = {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                  # Llama 3.1 says 8192; 32 puts every band (kept, smoothed, divided) within
                  # head_dim 16 at theta 1e4, so short sequences show the scaling
                  "original_max_position_embeddings": 32, "rope_type": "llama3"}

CASES = {
    "gpt2-f32-tied": lambda d: write_gpt2(d, seed=1),
    # GPT-2 small's 12 heads (d_k 4): --ablate and keys for heads past 9
    "gpt2-12-heads": lambda d: write_gpt2(d, seed=10, d=48, n_head=12),
    "gpt2-f16-prefix-untied": lambda d: write_gpt2(d, seed=2, dtype="F16", tied=False,
                                                   prefix="transformer.", mask_buffer="U8",
                                                   n_layer=3),
    "llama-gqa-bf16-untied-sharded": lambda d: write_llama(d, seed=3, dtype="BF16", shards=2),
    "llama3-rope-scaling": lambda d: write_llama(d, seed=4, d=64, tied=True,
                                                 rope_scaling=LLAMA3_SCALING),
    "llama-linear-rope": lambda d: write_llama(d, seed=5, n_kv_heads=4, rope_scaling={
        "factor": 4.0, "rope_type": "linear"}),
    "llama-attention-mlp-bias": lambda d: write_llama(d, seed=14, biases=True, n_layers=3),
    "mistral-head-dim": lambda d: write_llama(d, model_type="mistral", seed=6, d=48,
                                              head_dim=16, d_ff=96, vocab=180),
    "qwen2-bias-tied-bf16": lambda d: write_llama(d, model_type="qwen2", seed=7, dtype="BF16",
                                                  tied=True, n_layers=3, n_kv_heads=1,
                                                  rope_theta=1000000.0),
    "phi3-f32": lambda d: write_phi3(d, seed=10),
    "phi3-gqa-bf16-sharded": lambda d: write_phi3(d, seed=11, dtype="BF16", shards=2, d=48,
                                                  n_heads=6, n_kv_heads=2, d_ff=80, n_layers=3),
    "gemma-mqa-f32": lambda d: write_gemma(d, seed=12),
    "gemma-gqa-bf16": lambda d: write_gemma(d, seed=13, dtype="BF16", d=40, n_heads=4,
                                            n_kv_heads=2, head_dim=12, d_ff=72, n_layers=3),
    "bert-prefix-mlm": lambda d: write_bert(d, seed=8, decoder_weight=True),
    "bert-noprefix-f16": lambda d: write_bert(d, seed=9, dtype="F16", prefix="", mlm_head=False,
                                              n_layers=3, vocab=150),
}


def write_case(name, folder):
    os.makedirs(folder, exist_ok=True)
    CASES[name](folder)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: hf_checkpoints.py OUTDIR")
    for case in CASES:
        write_case(case, os.path.join(sys.argv[1], case))
        print(os.path.join(sys.argv[1], case))
