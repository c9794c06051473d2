#!/usr/bin/python3
"""Hostile Hugging Face model folders: attnlab-cli --model must refuse each one with exit code 2
and exactly one line on stderr naming the file, tensor or key at fault, never crash (no signal)
and never hang (each run within TIMEOUT seconds). A good tiny GPT-2, Llama and BERT folder
(hf_checkpoints.py) must open (exit 0): the control cases. Each hostile folder is one of them,
broken one way: the safetensors bytes (truncated, lying header lengths, a header that is not
JSON, overlapping or out-of-range offsets, dtypes that are no float, a NaN), the folder (no
weights, a shard missing, only pytorch_model.bin, no config.json, no tokenizer), config.json
(sizes that disagree with the weights, absurd, negative or not numbers, a family it does not
open) or the command line (--tokens outside the vocabulary, not numbers or empty; --layer or
--ablate out of range).

    ATTNLAB_CLI=build/app/attnlab-cli check_hostile_models.py

Prints one line per case and "N passed, M failed"; the exit code is 1 on a failure."""
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

import hf_checkpoints as ckpt

TIMEOUT = 20  # seconds per run
GOOD_TOKENS = "1,2,3"

# ---- the good folders -----------------------------------------------------------------------
# gpt2: d 32, 2 layers, 4 heads, vocab 120, 64 positions, F32, one model.safetensors
# llama: d 32, 2 layers, 4 heads (2 K/V), vocab 150, BF16, two shards with an index
# bert: d 48, 2 layers, 4 heads, vocab 200, F32, prefix "bert.", MLM head
# phi3: d 32, 2 layers, 4 heads (4 K/V) of 8, vocab 140, F32, fused qkv_proj and gate_up_proj
# gemma: d 40, 3 layers, 4 heads (2 K/V) of 12, vocab 160, BF16, tied head
# gpt2-12: d 48, 2 layers, 12 heads: --ablate is checked against the model's heads, not a preset's

GOOD = {
    "gpt2": lambda d: ckpt.write_gpt2(d, seed=1),
    "llama": lambda d: ckpt.write_llama(d, seed=3, dtype="BF16", shards=2),
    "bert": lambda d: ckpt.write_bert(d, seed=8),
    "phi3": lambda d: ckpt.write_phi3(d, seed=10),
    "gemma": lambda d: ckpt.write_case("gemma-gqa-bf16", d),
    "gpt2-12": ckpt.CASES["gpt2-12-heads"],
}


# ---- editing safetensors bytes --------------------------------------------------------------

def read_st(path):
    """(header dict, data bytes) of a .safetensors file, the header in its order."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + n]), data[8 + n:]


def write_st(path, header, body, header_text=None, length=None):
    """The file from `header` (or raw `header_text` bytes) and `body`; `length` overrides the
    8-byte header length."""
    text = header_text if header_text is not None else json.dumps(
        header, separators=(",", ":")).encode()
    if header_text is None:
        text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text) if length is None else length) + text + body)


def edit_header(path, change):
    """change(header, body) edits the header dict in place (and may return a new body)."""
    header, body = read_st(path)
    body = change(header, body) or body
    write_st(path, header, body)


def edit_config(folder, **changes):
    path = os.path.join(folder, "config.json")
    config = json.load(open(path))
    for key, value in changes.items():
        if value is DELETE:
            config.pop(key, None)
        else:
            config[key] = value
    with open(path, "w") as f:
        json.dump(config, f, indent=2)


DELETE = object()


def st(folder):
    return os.path.join(folder, "model.safetensors")


# ---- the hostile variants -------------------------------------------------------------------

def truncate_data(folder):
    path = st(folder)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size - size // 3)


def truncate_header(folder):
    path = st(folder)
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
    with open(path, "r+b") as f:
        f.truncate(8 + n // 2)


def length_past_end(folder):
    path = st(folder)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.write(struct.pack("<Q", size))  # the header would end past the file


def length_200mb(folder):
    with open(st(folder), "r+b") as f:
        f.write(struct.pack("<Q", 200_000_000))


def length_200mb_sparse(folder):
    """The file really is 210 MB (sparse, no disk used): the header length fits the file but is
    over the 100 MB limit, so it must be refused before 200 MB are allocated or read."""
    path = st(folder)
    with open(path, "r+b") as f:
        f.write(struct.pack("<Q", 200_000_000))
        f.truncate(210_000_000)


def length_max(folder):
    with open(st(folder), "r+b") as f:
        f.write(struct.pack("<Q", 2 ** 64 - 1))


def header_not_json(folder):
    header, body = read_st(st(folder))
    size = len(json.dumps(header, separators=(",", ":")))
    text = (b"this is not json {" + b"x" * size)[:size]
    write_st(st(folder), None, body, header_text=text + b" " * (-len(text) % 8))


def header_json_array(folder):
    _, body = read_st(st(folder))
    write_st(st(folder), None, body, header_text=b"[1, 2, 3]")


def header_deeply_nested(folder):
    _, body = read_st(st(folder))
    write_st(st(folder), None, body, header_text=b"[" * 200_000 + b"]" * 200_000)


def header_entry_not_object(folder):
    edit_header(st(folder), lambda h, b: h.__setitem__("wte.weight", [1, 2]))


def header_offsets_negative(folder):
    def change(h, b):
        h["wte.weight"]["data_offsets"] = [-4, h["wte.weight"]["data_offsets"][1]]
    edit_header(st(folder), change)


def header_shape_strings(folder):
    def change(h, b):
        h["wte.weight"]["shape"] = ["120", "32"]
    edit_header(st(folder), change)


def overlapping(folder):
    """h.0.ln_1.bias over h.0.ln_1.weight's bytes (both 32 float32s)."""
    def change(h, b):
        h["h.0.ln_1.bias"]["data_offsets"] = list(h["h.0.ln_1.weight"]["data_offsets"])
    edit_header(st(folder), change)


def partly_overlapping(folder):
    """h.0.ln_1.bias starts 8 bytes inside h.0.ln_1.weight."""
    def change(h, b):
        begin = h["h.0.ln_1.weight"]["data_offsets"][0] + 8
        h["h.0.ln_1.bias"]["data_offsets"] = [begin, begin + 32 * 4]
    edit_header(st(folder), change)


def out_of_range(folder):
    def change(h, b):
        e = h["ln_f.weight"]
        size = e["data_offsets"][1] - e["data_offsets"][0]
        e["data_offsets"] = [len(b) + 64, len(b) + 64 + size]
    edit_header(st(folder), change)


def offsets_huge(folder):
    def change(h, b):
        h["ln_f.weight"]["data_offsets"] = [2 ** 64 - 128, 2 ** 64 - 1]
    edit_header(st(folder), change)


def reversed_offsets(folder):
    def change(h, b):
        begin, end = h["ln_f.weight"]["data_offsets"]
        h["ln_f.weight"]["data_offsets"] = [end, begin]
    edit_header(st(folder), change)


def size_disagrees(folder):
    """ln_f.weight's range one float short of its shape."""
    def change(h, b):
        h["ln_f.weight"]["data_offsets"][1] -= 4
    edit_header(st(folder), change)


def dtype_i32(folder):
    """wte.weight's bytes called I32: the same size, but no float."""
    edit_header(st(folder), lambda h, b: h["wte.weight"].__setitem__("dtype", "I32"))


def dtype_f8(folder):
    """wte.weight really stored as F8_E4M3, one byte per element."""
    header, body = read_st(st(folder))
    tensors = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        begin, end = e["data_offsets"]
        tensors[name] = (e["dtype"], e["shape"], body[begin:end])
    dtype, shape, raw = tensors["wte.weight"]
    tensors["wte.weight"] = ("F8_E4M3", shape, bytes(len(raw) // 4))
    new_header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, (dtype, shape, raw) in tensors.items():
        new_header[name] = {"dtype": dtype, "shape": shape,
                            "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    write_st(st(folder), new_header, b"".join(blobs))


def dtype_unknown(folder):
    edit_header(st(folder), lambda h, b: h["wte.weight"].__setitem__("dtype", "Q4_K"))


def nan_weight(folder):
    def change(h, b):
        begin = h["h.1.mlp.c_fc.weight"]["data_offsets"][0]
        body = bytearray(b)
        body[begin + 40:begin + 44] = struct.pack("<f", float("nan"))
        return bytes(body)
    edit_header(st(folder), change)


def inf_weight_bf16(folder):
    """Llama's BF16 shards: +Inf in a layer-1 weight."""
    index = json.load(open(os.path.join(folder, "model.safetensors.index.json")))
    name = "model.layers.1.mlp.up_proj.weight"
    path = os.path.join(folder, index["weight_map"][name])

    def change(h, b):
        begin = h[name]["data_offsets"][0]
        body = bytearray(b)
        body[begin + 6:begin + 8] = struct.pack("<H", 0x7F80)
        return bytes(body)
    edit_header(path, change)


def remove(folder, *names):
    for name in names:
        os.remove(os.path.join(folder, name))


def shard_missing(folder):
    remove(folder, "model-00002-of-00002.safetensors")


def index_not_json(folder):
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        f.write("{\"weight_map\": ")


def index_escapes_folder(folder):
    path = os.path.join(folder, "model.safetensors.index.json")
    index = json.load(open(path))
    index["weight_map"]["model.norm.weight"] = "../../etc/passwd"
    json.dump(index, open(path, "w"))


def only_pytorch_bin(folder):
    """Just pytorch_model.bin: no config.json, no safetensors."""
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    with open(os.path.join(folder, "pytorch_model.bin"), "wb") as f:
        f.write(b"PK\x03\x04" + bytes(60))


def config_and_pytorch_bin(folder):
    remove(folder, "model.safetensors")
    with open(os.path.join(folder, "pytorch_model.bin"), "wb") as f:
        f.write(b"PK\x03\x04" + bytes(60))


def safetensors_is_folder(folder):
    remove(folder, "model.safetensors")
    os.mkdir(st(folder))


def safetensors_is_fifo(folder):
    """A named pipe nobody writes to: opening it would wait for ever."""
    remove(folder, "model.safetensors")
    os.mkfifo(st(folder))


def huge_number_config(folder):
    """n_layer 10^400: a number no double holds."""
    path = os.path.join(folder, "config.json")
    text = open(path).read().replace('"n_layer": 2', '"n_layer": 1' + "0" * 400)
    open(path, "w").write(text)


def rename_with_newline(folder):
    """wpe.weight renamed "wpe.weight\\nsecond line" (and its shape broken to be refused)."""
    def change(h, b):
        e = h.pop("wpe.weight")
        e["dtype"] = "Q4"
        h["wpe.weight\nsecond line"] = e
    edit_header(st(folder), change)


def config_not_json(folder):
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write("{\"model_type\": \"gpt2\", \"n_embd\": ")


def config_deeply_nested(folder):
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write("{\"model_type\": \"gpt2\", \"x\": " + "[" * 200_000 + "]" * 200_000 + "}")


# ---- the cases ------------------------------------------------------------------------------
# (name, good folder, how to break it, extra arguments (None: --tokens 1,2,3), substrings the one
# line must hold)

ARGS = None

CASES = [
    # safetensors bytes
    ("truncated model.safetensors", "gpt2", truncate_data, ARGS,
     ["model.safetensors", "truncated"]),
    ("truncated inside the header", "gpt2", truncate_header, ARGS, ["model.safetensors", "header"]),
    ("header length past the end", "gpt2", length_past_end, ARGS, ["model.safetensors", "header"]),
    ("header length 200 MB, small file", "gpt2", length_200mb, ARGS,
     ["model.safetensors", "200000000-byte header"]),
    ("header length 200 MB, 210 MB sparse file", "gpt2", length_200mb_sparse, ARGS,
     ["model.safetensors", "200000000-byte header"]),
    ("header length 2^64-1", "gpt2", length_max, ARGS, ["model.safetensors", "header"]),
    ("header not JSON", "gpt2", header_not_json, ARGS, ["model.safetensors", "not JSON"]),
    ("header a JSON array", "gpt2", header_json_array, ARGS, ["model.safetensors", "not JSON"]),
    ("header nested 200,000 deep", "gpt2", header_deeply_nested, ARGS, ["model.safetensors"]),
    ("header entry not an object", "gpt2", header_entry_not_object, ARGS,
     ["model.safetensors", "wte.weight"]),
    ("negative data_offsets", "gpt2", header_offsets_negative, ARGS,
     ["model.safetensors", "wte.weight"]),
    ("shape of strings", "gpt2", header_shape_strings, ARGS, ["model.safetensors", "wte.weight"]),
    ("overlapping data_offsets", "gpt2", overlapping, ARGS,
     ["model.safetensors", "h.0.ln_1.bias", "h.0.ln_1.weight"]),
    ("partly overlapping data_offsets", "gpt2", partly_overlapping, ARGS,
     ["model.safetensors", "h.0.ln_1.bias", "h.0.ln_1.weight"]),
    ("data_offsets out of range", "gpt2", out_of_range, ARGS, ["model.safetensors", "ln_f.weight"]),
    ("data_offsets near 2^64", "gpt2", offsets_huge, ARGS, ["model.safetensors", "ln_f.weight"]),
    ("data_offsets reversed", "gpt2", reversed_offsets, ARGS, ["model.safetensors", "ln_f.weight"]),
    ("byte range shorter than the shape", "gpt2", size_disagrees, ARGS,
     ["model.safetensors", "ln_f.weight"]),
    ("weight stored as I32", "gpt2", dtype_i32, ARGS, ["wte.weight", "I32"]),
    ("weight stored as F8_E4M3", "gpt2", dtype_f8, ARGS, ["wte.weight", "F8_E4M3"]),
    ("unknown dtype Q4_K", "gpt2", dtype_unknown, ARGS, ["wte.weight", "Q4_K"]),
    ("NaN in a weight", "gpt2", nan_weight, ARGS, ["h.1.mlp.c_fc.weight", "NaN"]),
    ("Inf in a BF16 shard", "llama", inf_weight_bf16, ARGS,
     ["model.layers.1.mlp.up_proj.weight", "Inf"]),
    # the folder
    ("no model.safetensors", "gpt2", lambda d: remove(d, "model.safetensors"), ARGS,
     ["model.safetensors"]),
    ("index names a missing shard", "llama", shard_missing, ARGS,
     ["model-00002-of-00002.safetensors"]),
    ("index not JSON", "llama", index_not_json, ARGS, ["model.safetensors.index.json"]),
    ("index points outside the folder", "llama", index_escapes_folder, ARGS,
     ["model.safetensors.index.json", "../../etc/passwd"]),
    ("only pytorch_model.bin", "gpt2", only_pytorch_bin, ARGS, ["config.json"]),
    ("config.json and pytorch_model.bin", "gpt2", config_and_pytorch_bin, ARGS,
     ["pytorch_model.bin", "safe_serialization"]),
    ("model.safetensors is a folder", "gpt2", safetensors_is_folder, ARGS, ["model.safetensors"]),
    ("model.safetensors is a named pipe", "gpt2", safetensors_is_fifo, ARGS,
     ["model.safetensors"]),
    ("no config.json", "gpt2", lambda d: remove(d, "config.json"), ARGS, ["config.json"]),
    ("no tokenizer, --sentence", "gpt2", None, ["--sentence", "the cat sat"],
     ["vocab.json", "--tokens"]),
    ("no tokenizer, --sentence (llama)", "llama", None, ["--sentence", "the cat sat"],
     ["tokenizer.json", "--tokens"]),
    ("no tokenizer, --sentence (bert)", "bert", None, ["--sentence", "the cat sat"],
     ["vocab.txt", "--tokens"]),
    # config.json
    ("config.json not JSON", "gpt2", config_not_json, ARGS, ["config.json"]),
    ("config.json nested 200,000 deep", "gpt2", config_deeply_nested, ARGS, ["config.json"]),
    ("n_embd disagrees with the weights", "gpt2", lambda d: edit_config(d, n_embd=64), ARGS,
     ["wte.weight", "config.json"]),
    ("hidden_size disagrees (llama)", "llama", lambda d: edit_config(d, hidden_size=64), ARGS,
     ["model.embed_tokens.weight", "config.json"]),
    ("num_key_value_heads disagrees (llama)", "llama",
     lambda d: edit_config(d, num_key_value_heads=4), ARGS, ["k_proj.weight", "config.json"]),
    ("num_key_value_heads disagrees with qkv_proj (phi3)", "phi3",
     lambda d: edit_config(d, num_key_value_heads=2), ARGS,
     ["model.layers.0.self_attn.qkv_proj.weight", "config.json"]),
    ("intermediate_size disagrees with gate_up_proj (phi3)", "phi3",
     lambda d: edit_config(d, intermediate_size=48), ARGS,
     ["model.layers.0.mlp.gate_up_proj.weight", "config.json"]),
    ("rope_scaling longrope (phi3)", "phi3",
     lambda d: edit_config(d, rope_scaling={"type": "longrope", "short_factor": [1.0] * 4,
                                            "long_factor": [1.0] * 4}), ARGS,
     ["rope_scaling", "longrope"]),
    ("head_dim disagrees (gemma)", "gemma", lambda d: edit_config(d, head_dim=10), ARGS,
     ["q_proj.weight", "config.json"]),
    ("head_dim missing: GemmaConfig's 256 (gemma)", "gemma",
     lambda d: edit_config(d, head_dim=DELETE), ARGS, ["q_proj.weight", "(1024, 40)"]),
    ("hidden_activation relu (gemma)", "gemma", lambda d: edit_config(d, hidden_activation="relu"),
     ARGS, ["hidden_activation", "relu"]),
    ("n_layer 3, the file has 2", "gpt2", lambda d: edit_config(d, n_layer=3), ARGS, ["h.2."]),
    ("num_hidden_layers 3, the file has 2 (bert)", "bert",
     lambda d: edit_config(d, num_hidden_layers=3), ARGS, ["encoder.layer.2."]),
    ("n_embd 10^12", "gpt2", lambda d: edit_config(d, n_embd=10 ** 12), ARGS, ["n_embd"]),
    ("n_layer 10^9", "gpt2", lambda d: edit_config(d, n_layer=10 ** 9), ARGS,
     ["h.2.", "1000000000 layers"]),
    ("n_layer 10^12", "gpt2", lambda d: edit_config(d, n_layer=10 ** 12), ARGS, ["n_layer"]),
    ("n_layer 2^64 - 1", "gpt2", lambda d: edit_config(d, n_layer=2 ** 64 - 1), ARGS,
     ["n_layer"]),
    ("n_layer 10^400", "gpt2", huge_number_config, ARGS, ["config.json"]),
    ("vocab_size 10^12", "gpt2", lambda d: edit_config(d, vocab_size=10 ** 12), ARGS,
     ["vocab_size"]),
    ("n_positions 2^62", "gpt2", lambda d: edit_config(d, n_positions=2 ** 62), ARGS,
     ["n_positions"]),
    ("n_inner 2^62", "gpt2", lambda d: edit_config(d, n_inner=2 ** 62), ARGS, ["n_inner"]),
    ("head_dim 2^62 + 2 (llama)", "llama",
     lambda d: edit_config(d, head_dim=2 ** 62 + 2, num_key_value_heads=4), ARGS, ["head_dim"]),
    ("n_head -4", "gpt2", lambda d: edit_config(d, n_head=-4), ARGS, ["n_head"]),
    ("n_embd a string", "gpt2", lambda d: edit_config(d, n_embd="32"), ARGS, ["n_embd"]),
    ("n_embd 32.5", "gpt2", lambda d: edit_config(d, n_embd=32.5), ARGS, ["n_embd"]),
    ("n_embd missing", "gpt2", lambda d: edit_config(d, n_embd=DELETE), ARGS, ["n_embd"]),
    ("n_head does not divide n_embd", "gpt2", lambda d: edit_config(d, n_head=5), ARGS,
     ["config.json", "5 heads"]),
    ("activation_function relu", "gpt2", lambda d: edit_config(d, activation_function="relu"),
     ARGS, ["activation_function", "relu"]),
    ("hidden_act gelu (llama)", "llama", lambda d: edit_config(d, hidden_act="gelu"), ARGS,
     ["hidden_act", "gelu"]),
    ("tie_word_embeddings a string", "gpt2",
     lambda d: edit_config(d, tie_word_embeddings="false"), ARGS, ["tie_word_embeddings"]),
    ("layer_norm_epsilon a string", "gpt2",
     lambda d: edit_config(d, layer_norm_epsilon="1e-5"), ARGS, ["layer_norm_epsilon"]),
    ("rope_scaling a list (llama)", "llama", lambda d: edit_config(d, rope_scaling=[8.0]), ARGS,
     ["rope_scaling"]),
    ("model_type t5", "gpt2", lambda d: edit_config(d, model_type="t5"), ARGS,
     ["t5", "gpt2", "llama", "mistral", "qwen2", "bert", "phi3", "gemma"]),
    ("model_type a number", "gpt2", lambda d: edit_config(d, model_type=7), ARGS,
     ["model_type"]),
    ("model_type with a newline", "gpt2", lambda d: edit_config(d, model_type="t5\nsecond"),
     ARGS, ["model_type", "t5"]),
    ("tensor name with a newline", "gpt2", rename_with_newline, ARGS,
     ["model.safetensors", "wpe.weight\\nsecond line"]),
    # the command line
    ("--tokens id = vocab", "gpt2", None, ["--tokens", "1,120,3"], ["120", "vocabulary"]),
    ("--tokens id 2^63", "gpt2", None, ["--tokens", "1,9223372036854775808"], ["--tokens"]),
    ("--tokens abc", "gpt2", None, ["--tokens", "abc"], ["--tokens", "abc"]),
    ("--tokens 1,,2", "gpt2", None, ["--tokens", "1,,2"], ["--tokens"]),
    ("--tokens -1", "gpt2", None, ["--tokens=-1"], ["--tokens", "-1"]),
    ("--tokens empty", "gpt2", None, ["--tokens", ""], ["--tokens", "empty"]),
    ("--tokens past n_positions", "gpt2", None, ["--tokens", ",".join(["1"] * 65)],
     ["65 tokens", "64 positions"]),
    ("--layer 2 of 2 layers", "gpt2", None, ["--tokens", GOOD_TOKENS, "--layer", "2"],
     ["--layer 2"]),
    ("--layer -1", "gpt2", None, ["--tokens", GOOD_TOKENS, "--layer=-1"], ["--layer"]),
    ("--layer 2^40", "llama", None, ["--tokens", GOOD_TOKENS, "--layer", str(2 ** 40)],
     ["--layer"]),
    ("--ablate 6 of 12 heads (opens)", "gpt2-12", None,
     ["--tokens", GOOD_TOKENS, "--layer", "1", "--ablate", "6", "--ablate", "11", "--next-token"],
     None),
    ("--ablate 12 of 12 heads", "gpt2-12", None, ["--tokens", GOOD_TOKENS, "--ablate", "12"],
     ["--ablate 12: heads are numbered 0..11"]),
]

def run_cli(folder, args):
    cli = os.environ["ATTNLAB_CLI"]
    started = time.monotonic()
    try:
        run = subprocess.run([cli, "--model", folder, *args], capture_output=True, text=True,
                             timeout=TIMEOUT, errors="replace")
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running after {TIMEOUT} s (a hang?)")
    return run, time.monotonic() - started


def check_refused(folder, args, wanted):
    run, seconds = run_cli(folder, args)
    assert run.returncode >= 0, (f"killed by {signal.Signals(-run.returncode).name}: "
                                 f"{run.stderr.strip()[-300:]!r}")
    lines = run.stderr.strip("\n").split("\n") if run.stderr.strip() else []
    assert run.returncode == 2, f"exit code {run.returncode}, stderr {run.stderr.strip()[-300:]!r}"
    assert len(lines) == 1, f"{len(lines)} lines on stderr: {run.stderr.strip()[:400]!r}"
    line = lines[0]
    missing = [w for w in wanted if w not in line]
    assert not missing, f"the message lacks {missing}: {line!r}"
    return line, seconds


def check_good(folder, args):
    run, seconds = run_cli(folder, args)
    assert run.returncode == 0, f"exit code {run.returncode}: {run.stderr.strip()[-300:]!r}"
    return f"exit 0, {len(run.stdout.splitlines())} lines of output", seconds


def main():
    if "ATTNLAB_CLI" not in os.environ:
        sys.exit("set ATTNLAB_CLI to attnlab-cli's path")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        good = {}
        for family, write in GOOD.items():
            good[family] = os.path.join(tmp, "good", family)
            os.makedirs(good[family])
            write(good[family])
        cases = [(f"good {family} folder (control)", family, None, None, None) for family in GOOD]
        cases += CASES
        for i, (name, family, breaker, args, wanted) in enumerate(cases):
            folder = os.path.join(tmp, f"case{i}")
            shutil.copytree(good[family], folder)
            if breaker:
                breaker(folder)
            args = ["--tokens", GOOD_TOKENS] if args is None else args
            try:
                if wanted is None:
                    what, seconds = check_good(folder, args)
                else:
                    what, seconds = check_refused(folder, args, wanted)
                print(f"{name}: {seconds:.2f} s: {what}")
                passed += 1
            except AssertionError as err:
                print(f"FAIL {name}: {err}")
                failed += 1
            shutil.rmtree(folder, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
