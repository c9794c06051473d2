"""The forward pass of a Hugging Face model folder in float64 NumPy, written from transformers'
modeling_gpt2.py, modeling_llama.py (mistral and qwen2 are the same with their keys),
modeling_bert.py, modeling_phi3.py and modeling_gemma.py, independently of the C++ app. It reads
the folder through hf_checkpoints' reader, so F16/BF16 weights are the very values the file
holds.

forward(folder, token_ids, layer) returns, with B sequences of T tokens:
  attentions (n_layers, B, h, T, T)  every layer's softmax weights (output_attentions)
  logits     (B, T, vocab)           the LM head's (BERT: the MLM head's; absent without one)
  and for layer `layer`:
  x          (B, T, d)      what the attention block reads: ln_1 / input_layernorm's output
                            (BERT, post-LN: the layer's input hidden state)
  q          (B, T, h*dh)   projected, before splitting into heads and before RoPE
  k, v       (B, T, kv*dh)  (kv K/V heads under grouped-query attention)
  weights    (B, h, T, T)
  out        (B, T, d)      after c_proj / o_proj / attention.output.dense, before the residual
                            (and before BERT's attention.output.LayerNorm)"""
import math

import numpy as np

from hf_checkpoints import from_bf16_bits, read_folder, to_bf16_bits


# ---- pieces ---------------------------------------------------------------------------------

def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)  # biased, as nn.LayerNorm
    return (x - mean) / np.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    """LlamaRMSNorm: x * rsqrt(mean(x^2) + eps) * w."""
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * w


def gelu_new(x):
    """GPT-2's gelu_new: the tanh approximation."""
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    """BERT's "gelu": the exact one, 0.5 x (1 + erf(x / sqrt 2))."""
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def silu(x):
    return x / (1 + np.exp(-x))


def softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def split_heads(x, n):
    """(B, T, n*dh) -> (B, n, T, dh)"""
    B, T, _ = x.shape
    return x.reshape(B, T, n, -1).transpose(0, 2, 1, 3)


def merge_heads(x):
    """(B, n, T, dh) -> (B, T, n*dh)"""
    B, n, T, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, n * dh)


def attend(q, k, v, causal):
    """q (B, h, T, dh), k and v (B, h, T, dh) -> weights (B, h, T, T), context (B, T, h*dh).
    Scores scaled by 1/sqrt(dh); causal: a query sees keys at its position and before."""
    T = q.shape[2]
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(q.shape[-1])  # (B, h, T, T)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = softmax(scores)  # (B, h, T, T)
    return weights, merge_heads(weights @ v)


def linear(x, weights, name):
    """nn.Linear: x @ W.T + b, W stored (out, in); no bias when the file has none."""
    y = x @ weights[name + ".weight"].T
    return y + weights[name + ".bias"] if name + ".bias" in weights else y


def conv1d(x, weights, name):
    """GPT-2's Conv1D: x @ W + b, W stored (in, out)."""
    return x @ weights[name + ".weight"] + weights[name + ".bias"]


def strip_prefix(weights, prefix):
    """The base model's tensors without `prefix` ("transformer.", "bert."); others unchanged."""
    return {n[len(prefix):] if n.startswith(prefix) else n: a for n, a in weights.items()}


# ---- GPT-2 ----------------------------------------------------------------------------------

def gpt2_forward(c, w, ids, layer):
    w = strip_prefix(w, "transformer.")
    eps, n_head = c["layer_norm_epsilon"], c["n_head"]
    T = ids.shape[1]
    hidden = w["wte.weight"][ids] + w["wpe.weight"][np.arange(T)]  # (B, T, d)
    attentions, probe = [], {}
    for i in range(c["n_layer"]):
        p = f"h.{i}."
        x = layer_norm(hidden, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)  # (B, T, d)
        q, k, v = np.split(conv1d(x, w, p + "attn.c_attn"), 3, axis=-1)  # 3 x (B, T, d)
        weights, context = attend(split_heads(q, n_head), split_heads(k, n_head),
                                  split_heads(v, n_head), causal=True)
        out = conv1d(context, w, p + "attn.c_proj")  # (B, T, d)
        hidden = residual = hidden + out
        m = layer_norm(hidden, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        inner = gelu_new(conv1d(m, w, p + "mlp.c_fc"))  # (B, T, d_ff)
        hidden = hidden + conv1d(inner, w, p + "mlp.c_proj")
        attentions.append(weights)
        if i == layer:
            probe = dict(x=x, q=q, k=k, v=v, weights=weights, out=out, residual=residual,
                         mlp_in=m, mlp_hidden=inner, block_out=hidden)
    hidden = layer_norm(hidden, w["ln_f.weight"], w["ln_f.bias"], eps)
    head = w["wte.weight"] if c.get("tie_word_embeddings", True) else w["lm_head.weight"]
    return dict(attentions=np.stack(attentions), logits=hidden @ head.T, **probe)


# ---- Llama, Mistral, Qwen2 ------------------------------------------------------------------

def rope_inv_freq(c, dh):
    """(dh/2,) inverse frequencies 1/theta^(2i/dh), adjusted by rope_scaling as transformers'
    _compute_linear_scaling_rope_parameters and _compute_llama3_parameters do."""
    inv_freq = 1.0 / c.get("rope_theta", 10000.0) ** (np.arange(0, dh, 2) / dh)
    s = c.get("rope_scaling") or {}
    kind = s.get("rope_type", s.get("type", "default"))
    if kind == "linear":
        return inv_freq / s["factor"]
    if kind != "llama3":
        return inv_freq
    factor, low, high = s["factor"], s["low_freq_factor"], s["high_freq_factor"]
    old_context = s["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv_freq
    scaled = np.where(wavelen > old_context / low, inv_freq / factor, inv_freq)
    smooth = (old_context / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = (wavelen >= old_context / high) & (wavelen <= old_context / low)
    return np.where(medium, smoothed, scaled)


def rope(x, inv_freq):
    """x (B, n, T, dh) rotated as apply_rotary_pos_emb: x cos + rotate_half(x) sin, positions
    0..T-1, the angles of dims i and i + dh/2 alike."""
    T, half = x.shape[2], x.shape[3] // 2
    freqs = np.arange(T)[:, None] * inv_freq[None, :]  # (T, dh/2)
    emb = np.concatenate([freqs, freqs], axis=-1)  # (T, dh)
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)  # rotate_half
    return x * np.cos(emb) + rotated * np.sin(emb)


def llama_forward(c, w, ids, layer):
    eps = c["rms_norm_eps"]
    h = c["num_attention_heads"]
    kv = c.get("num_key_value_heads") or h
    dh = c.get("head_dim") or c["hidden_size"] // h
    inv_freq = rope_inv_freq(c, dh)
    hidden = w["model.embed_tokens.weight"][ids]  # (B, T, d)
    attentions, probe = [], {}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        x = rms_norm(hidden, w[p + "input_layernorm.weight"], eps)  # (B, T, d)
        q = linear(x, w, p + "self_attn.q_proj")  # (B, T, h*dh)
        k = linear(x, w, p + "self_attn.k_proj")  # (B, T, kv*dh)
        v = linear(x, w, p + "self_attn.v_proj")  # (B, T, kv*dh)
        q_heads = rope(split_heads(q, h), inv_freq)  # (B, h, T, dh)
        k_heads = rope(split_heads(k, kv), inv_freq)  # (B, kv, T, dh)
        # repeat_kv: query head j reads K/V head j // (h / kv)
        k_heads = np.repeat(k_heads, h // kv, axis=1)  # (B, h, T, dh)
        v_heads = np.repeat(split_heads(v, kv), h // kv, axis=1)  # (B, h, T, dh)
        weights, context = attend(q_heads, k_heads, v_heads, causal=True)
        out = linear(context, w, p + "self_attn.o_proj")  # (B, T, d)
        hidden = residual = hidden + out
        m = rms_norm(hidden, w[p + "post_attention_layernorm.weight"], eps)
        gated = silu(linear(m, w, p + "mlp.gate_proj")) * linear(m, w, p + "mlp.up_proj")
        hidden = hidden + linear(gated, w, p + "mlp.down_proj")
        attentions.append(weights)
        if i == layer:
            probe = dict(x=x, q=q, k=k, v=v, weights=weights, out=out, residual=residual,
                         mlp_in=m, mlp_hidden=gated, block_out=hidden)
    hidden = rms_norm(hidden, w["model.norm.weight"], eps)
    tied = c.get("tie_word_embeddings", False)  # LlamaConfig's, MistralConfig's, Qwen2Config's
    head = w["model.embed_tokens.weight"] if tied else w["lm_head.weight"]
    return dict(attentions=np.stack(attentions), logits=hidden @ head.T, **probe)


# ---- Phi-3 ----------------------------------------------------------------------------------

def phi3_forward(c, w, ids, layer):
    """modeling_phi3.py: Llama's block with q, k, v sliced from one qkv_proj and gate, up chunked
    from one gate_up_proj (up * silu(gate))."""
    eps = c["rms_norm_eps"]
    h = c["num_attention_heads"]
    kv = c.get("num_key_value_heads") or h
    dh = c["hidden_size"] // h  # Phi3Attention's head_dim
    inv_freq = rope_inv_freq(c, dh)
    hidden = w["model.embed_tokens.weight"][ids]  # (B, T, d)
    attentions, probe = [], {}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        x = rms_norm(hidden, w[p + "input_layernorm.weight"], eps)  # (B, T, d)
        qkv = linear(x, w, p + "self_attn.qkv_proj")  # (B, T, (h + 2 kv) dh)
        q = qkv[..., :h * dh]  # (B, T, h*dh)
        k = qkv[..., h * dh:(h + kv) * dh]  # (B, T, kv*dh)
        v = qkv[..., (h + kv) * dh:]  # (B, T, kv*dh)
        q_heads = rope(split_heads(q, h), inv_freq)  # (B, h, T, dh)
        k_heads = np.repeat(rope(split_heads(k, kv), inv_freq), h // kv, axis=1)
        v_heads = np.repeat(split_heads(v, kv), h // kv, axis=1)  # (B, h, T, dh)
        weights, context = attend(q_heads, k_heads, v_heads, causal=True)
        out = linear(context, w, p + "self_attn.o_proj")  # (B, T, d)
        hidden = residual = hidden + out
        m = rms_norm(hidden, w[p + "post_attention_layernorm.weight"], eps)
        gate, up = np.split(linear(m, w, p + "mlp.gate_up_proj"), 2, axis=-1)  # 2 x (B, T, d_ff)
        gated = up * silu(gate)
        hidden = hidden + linear(gated, w, p + "mlp.down_proj")
        attentions.append(weights)
        if i == layer:
            probe = dict(x=x, q=q, k=k, v=v, weights=weights, out=out, residual=residual,
                         mlp_in=m, mlp_hidden=gated, block_out=hidden)
    hidden = rms_norm(hidden, w["model.norm.weight"], eps)
    tied = c.get("tie_word_embeddings", False)  # Phi3Config's default
    head = w["model.embed_tokens.weight"] if tied else w["lm_head.weight"]
    return dict(attentions=np.stack(attentions), logits=hidden @ head.T, **probe)


# ---- Gemma ----------------------------------------------------------------------------------

def gemma_rms_norm(x, w, eps):
    """GemmaRMSNorm: x * rsqrt(mean(x^2) + eps) * (1 + w)."""
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * (1.0 + w)


def in_torch_dtype(value, torch_dtype):
    """torch.tensor(value, dtype=torch_dtype) as float64: the value rounded to that format."""
    if torch_dtype == "bfloat16":
        return float(from_bf16_bits(to_bf16_bits(np.array([value], dtype=np.float32)))[0])
    if torch_dtype == "float16":
        return float(np.float16(value))
    return float(np.float32(value))


GELUS = {"gelu_pytorch_tanh": gelu_new, "gelu_new": gelu_new, "gelu": gelu_erf}


def gemma_forward(c, w, ids, layer):
    """modeling_gemma.py: the embeddings times sqrt(hidden_size) as a tensor of the model's dtype,
    GemmaRMSNorm, GeGLU with hidden_activation (gelu_pytorch_tanh when absent), head_dim from the
    config, K/V heads repeated, the head tied to embed_tokens."""
    eps = c.get("rms_norm_eps", 1e-6)
    h = c["num_attention_heads"]
    kv = c.get("num_key_value_heads") or h
    dh = c.get("head_dim") or 256  # GemmaConfig's default
    act = GELUS[c.get("hidden_activation") or "gelu_pytorch_tanh"]
    inv_freq = rope_inv_freq(c, dh)
    normalizer = in_torch_dtype(math.sqrt(c["hidden_size"]), c["torch_dtype"])
    hidden = w["model.embed_tokens.weight"][ids] * normalizer  # (B, T, d)
    attentions, probe = [], {}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        x = gemma_rms_norm(hidden, w[p + "input_layernorm.weight"], eps)  # (B, T, d)
        q = linear(x, w, p + "self_attn.q_proj")  # (B, T, h*dh)
        k = linear(x, w, p + "self_attn.k_proj")  # (B, T, kv*dh)
        v = linear(x, w, p + "self_attn.v_proj")  # (B, T, kv*dh)
        q_heads = rope(split_heads(q, h), inv_freq)  # (B, h, T, dh)
        k_heads = np.repeat(rope(split_heads(k, kv), inv_freq), h // kv, axis=1)
        v_heads = np.repeat(split_heads(v, kv), h // kv, axis=1)  # (B, h, T, dh)
        weights, context = attend(q_heads, k_heads, v_heads, causal=True)  # scale 1/sqrt(dh)
        out = linear(context, w, p + "self_attn.o_proj")  # (B, T, d)
        hidden = residual = hidden + out
        m = gemma_rms_norm(hidden, w[p + "post_attention_layernorm.weight"], eps)
        gated = act(linear(m, w, p + "mlp.gate_proj")) * linear(m, w, p + "mlp.up_proj")
        hidden = hidden + linear(gated, w, p + "mlp.down_proj")
        attentions.append(weights)
        if i == layer:
            probe = dict(x=x, q=q, k=k, v=v, weights=weights, out=out, residual=residual,
                         mlp_in=m, mlp_hidden=gated, block_out=hidden)
    hidden = gemma_rms_norm(hidden, w["model.norm.weight"], eps)
    tied = c.get("tie_word_embeddings", True)  # GemmaConfig's default
    head = w["model.embed_tokens.weight"] if tied else w["lm_head.weight"]
    return dict(attentions=np.stack(attentions), logits=hidden @ head.T, **probe)


# ---- BERT -----------------------------------------------------------------------------------

def bert_forward(c, w, ids, layer):
    w = strip_prefix(w, "bert.")
    eps, h = c["layer_norm_eps"], c["num_attention_heads"]
    T = ids.shape[1]

    def norm(x, name):
        return layer_norm(x, w[name + ".weight"], w[name + ".bias"], eps)

    # token_type_ids all 0, position ids 0..T-1
    hidden = norm(w["embeddings.word_embeddings.weight"][ids]
                  + w["embeddings.position_embeddings.weight"][np.arange(T)]
                  + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
    attentions, probe = [], {}
    for i in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        x = hidden  # (B, T, d): post-LN, the layer reads its input as it is
        q, k, v = (linear(x, w, p + "attention.self." + n) for n in ("query", "key", "value"))
        weights, context = attend(split_heads(q, h), split_heads(k, h), split_heads(v, h),
                                  causal=False)
        out = linear(context, w, p + "attention.output.dense")  # (B, T, d)
        a = norm(out + x, p + "attention.output.LayerNorm")
        inner = gelu_erf(linear(a, w, p + "intermediate.dense"))  # (B, T, d_ff)
        hidden = norm(linear(inner, w, p + "output.dense") + a, p + "output.LayerNorm")
        attentions.append(weights)
        if i == layer:
            probe = dict(x=x, q=q, k=k, v=v, weights=weights, out=out, residual=a, mlp_in=a,
                         mlp_hidden=inner, block_out=hidden)
    result = dict(attentions=np.stack(attentions), **probe)
    if "cls.predictions.bias" in w:
        t = norm(gelu_erf(linear(hidden, w, "cls.predictions.transform.dense")),
                 "cls.predictions.transform.LayerNorm")
        # the decoder is tied to the word embeddings; its bias is cls.predictions.bias
        result["logits"] = (t @ w["embeddings.word_embeddings.weight"].T
                            + w["cls.predictions.bias"])  # (B, T, vocab)
    return result


FORWARDS = {"gpt2": gpt2_forward, "llama": llama_forward, "mistral": llama_forward,
            "qwen2": llama_forward, "bert": bert_forward, "phi3": phi3_forward,
            "gemma": gemma_forward}


def forward(folder, token_ids, layer):
    """token_ids (B, T) ints; layer: the layer whose x, q, k, v, weights and out are returned."""
    config, weights = read_folder(folder)
    ids = np.asarray(token_ids, dtype=np.int64)
    return FORWARDS[config["model_type"]](config, weights, ids, layer)
