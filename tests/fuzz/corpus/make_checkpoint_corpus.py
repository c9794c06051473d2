"""Writes the seed corpora of fuzz_safetensors and fuzz_model_config: small valid .safetensors
files (each float dtype, an integer buffer, metadata, an empty tensor, a scalar) and broken ones
(truncated, lying lengths, overlaps, out-of-range offsets, unknown dtypes, NaN), and config.json
as the published gpt2, TinyLlama, Llama-3.2-1B, Qwen2.5-0.5B, Mistral and bert-base ship it, and
broken ones (absurd, negative or mistyped sizes, unknown families and activations).

Run from anywhere: /usr/bin/python3 tests/fuzz/corpus/make_checkpoint_corpus.py
The outputs are committed; rerun only to change them."""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ST_DIR = os.path.join(HERE, "safetensors")
CONFIG_DIR = os.path.join(HERE, "model_config")


def write(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def st(tensors, metadata=None, length=None, header_text=None):
    """tensors: [(name, dtype, shape, raw bytes)] back to back; or a raw header."""
    header = {"__metadata__": metadata} if metadata else {}
    data, offset = b"", 0
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        data += raw
        offset += len(raw)
    text = header_text if header_text is not None else json.dumps(
        header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(text) if length is None else length) + text + data


def f32(*values):
    return struct.pack(f"<{len(values)}f", *values)


def f16(*values):
    return struct.pack(f"<{len(values)}e", *values)


def make_safetensors():
    good = [("w", "F32", [2, 3], f32(1, 2, 3, 4, 5, 6)), ("b", "F16", [3], f16(0.5, -1, 2)),
            ("bf", "BF16", [2], struct.pack("<2H", 0x3F80, 0xC040)),
            ("d", "F64", [1], struct.pack("<d", 0.25)), ("ids", "I64", [2], bytes(16))]
    seeds = {
        "good_every_dtype": st(good, {"format": "pt"}),
        "good_single_f32": st([("h.0.attn.c_attn.weight", "F32", [1, 3], f32(1, 2, 3))]),
        "good_empty_tensor": st([("e", "F32", [0, 4], b""), ("w", "F32", [1], f32(1))]),
        "good_scalar": st([("s", "F32", [], f32(7))]),
        "good_mask_buffer_u8": st([("h.0.attn.bias", "U8", [1, 1, 2, 2], bytes([1, 0, 1, 1]))]),
        "good_padded_header": st(good[:1], header_text=json.dumps(
            {"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}}).encode() + b"   "),
        "empty": b"",
        "length_only": struct.pack("<Q", 0),
        "truncated": st(good)[:-7],
        "length_past_end": st(good, length=10 ** 6),
        "length_200mb": st(good, length=200_000_000),
        "header_not_json": st([], header_text=b"{\"w\": [1, 2"),
        "header_array": st([], header_text=b"[1, 2, 3]"),
        "header_nested": st([], header_text=b"{\"a\":" + b"[" * 500 + b"]" * 500 + b"}"),
        "overlap": st([], header_text=json.dumps(
            {"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
             "b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}).encode()) + f32(1),
        "out_of_range": st([], header_text=json.dumps(
            {"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}).encode()) + f32(1),
        "offsets_reversed": st([], header_text=json.dumps(
            {"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}}).encode()) + f32(1, 2),
        "offsets_huge": st([], header_text=json.dumps(
            {"a": {"dtype": "F32", "shape": [1], "data_offsets": [2 ** 64 - 4, 2 ** 64 - 1]}})
            .encode()) + f32(1),
        "shape_disagrees": st([("w", "F32", [3], f32(1, 2))]),
        "shape_negative": st([("w", "F32", [-1], f32(1))]),
        "shape_huge_empty": st([("w", "F32", [0, 2 ** 50, 2 ** 50], b"")]),
        "dtype_unknown": st([("w", "Q4_K", [2], b"ab")]),
        "dtype_f8": st([("w", "F8_E4M3", [2], b"ab")]),
        "dtype_i32": st([("w", "I32", [1], bytes(4))]),
        "nan": st([("w", "F32", [2], f32(1, float("nan")))]),
        "inf_f16": st([("w", "F16", [1], struct.pack("<H", 0x7C00))]),
        "name_with_newline": st([("a\nb", "Q4", [1], b"a")]),
        "entry_not_object": st([], header_text=b"{\"w\": 5}"),
        "metadata_not_strings": st(good[:1], {"format": 5, "n": {"a": 1}}),
    }
    for name, data in seeds.items():
        write(ST_DIR, name + ".safetensors", data)


GPT2 = {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
        "attn_pdrop": 0.1, "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256,
        "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "gpt2",
        "n_ctx": 1024, "n_embd": 768, "n_head": 12, "n_inner": None, "n_layer": 12,
        "n_positions": 1024, "resid_pdrop": 0.1, "vocab_size": 50257}
TINYLLAMA = {"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2,
             "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02,
             "intermediate_size": 5632, "max_position_embeddings": 2048, "model_type": "llama",
             "num_attention_heads": 32, "num_hidden_layers": 22, "num_key_value_heads": 4,
             "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None,
             "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
             "vocab_size": 32000}
LLAMA32 = {"architectures": ["LlamaForCausalLM"], "attention_bias": False, "head_dim": 64,
           "hidden_act": "silu", "hidden_size": 2048, "intermediate_size": 8192,
           "max_position_embeddings": 131072, "model_type": "llama", "num_attention_heads": 32,
           "num_hidden_layers": 16, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
           "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                            "original_max_position_embeddings": 8192, "rope_type": "llama3"},
           "rope_theta": 500000.0, "tie_word_embeddings": True, "vocab_size": 128256}
QWEN25 = {"architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu", "hidden_size": 896,
          "intermediate_size": 4864, "max_position_embeddings": 32768, "max_window_layers": 24,
          "model_type": "qwen2", "num_attention_heads": 14, "num_hidden_layers": 24,
          "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
          "sliding_window": 32768, "tie_word_embeddings": True, "use_sliding_window": False,
          "vocab_size": 151936}
MISTRAL = {"architectures": ["MistralForCausalLM"], "head_dim": 128, "hidden_act": "silu",
           "hidden_size": 4096, "intermediate_size": 14336, "max_position_embeddings": 32768,
           "model_type": "mistral", "num_attention_heads": 32, "num_hidden_layers": 32,
           "num_key_value_heads": 8, "rms_norm_eps": 1e-05, "rope_theta": 1000000.0,
           "sliding_window": None, "tie_word_embeddings": False, "vocab_size": 32768}
BERT = {"architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1,
        "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768,
        "initializer_range": 0.02, "intermediate_size": 3072, "layer_norm_eps": 1e-12,
        "max_position_embeddings": 512, "model_type": "bert", "num_attention_heads": 12,
        "num_hidden_layers": 12, "pad_token_id": 0, "position_embedding_type": "absolute",
        "type_vocab_size": 2, "vocab_size": 30522}

PHI3 = {"architectures": ["Phi3ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
        "embd_pdrop": 0.0, "eos_token_id": 32000, "hidden_act": "silu", "hidden_size": 3072,
        "initializer_range": 0.02, "intermediate_size": 8192, "max_position_embeddings": 4096,
        "model_type": "phi3", "num_attention_heads": 32, "num_hidden_layers": 32,
        "num_key_value_heads": 32, "original_max_position_embeddings": 4096,
        "pad_token_id": 32000, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05, "rope_scaling": None,
        "rope_theta": 10000.0, "sliding_window": 2047, "tie_word_embeddings": False,
        "torch_dtype": "bfloat16", "vocab_size": 32064}
GEMMA = {"architectures": ["GemmaForCausalLM"], "attention_bias": False,
         "attention_dropout": 0.0, "bos_token_id": 2, "eos_token_id": 1, "head_dim": 256,
         "hidden_act": "gelu", "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2048,
         "initializer_range": 0.02, "intermediate_size": 16384, "max_position_embeddings": 8192,
         "model_type": "gemma", "num_attention_heads": 8, "num_hidden_layers": 18,
         "num_key_value_heads": 1, "pad_token_id": 0, "rms_norm_eps": 1e-06,
         "rope_scaling": None, "rope_theta": 10000.0, "torch_dtype": "bfloat16",
         "vocab_size": 256000}


def make_model_config():
    seeds = {"gpt2": GPT2, "tinyllama": TINYLLAMA, "llama32": LLAMA32, "qwen25": QWEN25,
             "mistral": MISTRAL, "bert": BERT, "phi3": PHI3, "gemma": GEMMA,
             "gemma_by_class": {k: v for k, v in GEMMA.items() if k != "model_type"},
             "phi3_longrope": {**PHI3, "rope_scaling": {"type": "longrope", "factor": 32}},
             "phi3_partial_rotary": {**PHI3, "partial_rotary_factor": 0.75},
             "llama_linear_rope": {**TINYLLAMA, "rope_scaling": {"type": "linear", "factor": 4}},
             "gpt2_untied_gelu": {**GPT2, "tie_word_embeddings": False,
                                  "activation_function": "gelu"},
             "t5": {"model_type": "t5", "d_model": 512},
             "n_embd_huge": {**GPT2, "n_embd": 10 ** 12},
             "head_dim_wraps": {**TINYLLAMA, "head_dim": 2 ** 62 + 64},
             "n_head_negative": {**GPT2, "n_head": -4},
             "n_embd_string": {**GPT2, "n_embd": "768"},
             "n_embd_float": {**GPT2, "n_embd": 768.5},
             "heads_not_dividing": {**GPT2, "n_head": 7},
             "kv_heads_not_dividing": {**TINYLLAMA, "num_key_value_heads": 5},
             "activation_relu": {**GPT2, "activation_function": "relu"},
             "rope_yarn": {**TINYLLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4}},
             "rope_llama3_equal_factors": {**LLAMA32, "rope_scaling": {
                 **LLAMA32["rope_scaling"], "high_freq_factor": 1.0}},
             "rope_scaling_list": {**TINYLLAMA, "rope_scaling": [4]},
             "model_type_number": {**GPT2, "model_type": 7},
             "tie_string": {**GPT2, "tie_word_embeddings": "false"},
             "empty_object": {}}
    for name, config in seeds.items():
        write(CONFIG_DIR, name + ".json", json.dumps(config, indent=2, sort_keys=True) + "\n")
    write(CONFIG_DIR, "not_json.json", "{\"model_type\": \"gpt2\", \"n_embd\": ")
    write(CONFIG_DIR, "number_overflow.json", "{\"model_type\": \"gpt2\", \"n_embd\": 1e400}")
    write(CONFIG_DIR, "nested.json", "{\"model_type\": \"gpt2\", \"x\": " + "[" * 500 +
          "]" * 500 + "}")


def main():
    os.makedirs(ST_DIR, exist_ok=True)
    os.makedirs(CONFIG_DIR, exist_ok=True)
    make_safetensors()
    make_model_config()


if __name__ == "__main__":
    main()
