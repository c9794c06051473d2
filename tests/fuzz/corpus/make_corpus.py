"""Writes the fuzzers' seed corpora: valid and broken .npy files and preset JSON.

Run from anywhere with Debian's numpy: /usr/bin/python3 tests/fuzz/corpus/make_corpus.py
The valid files start the fuzzer on every branch that succeeds; each broken file starts it next to
one rejection (lying shape, huge size, wrong dtype, Fortran order, truncation, NaN/Inf, bad JSON,
wrong types, out-of-range values). The outputs are committed; rerun only to change them.
"""
import glob
import json
import os
import shutil
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
NPY_DIR = os.path.join(HERE, "npy")
PRESET_DIR = os.path.join(HERE, "preset")


def write(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def npy_with_header(header, data=b"", version=1):
    """A .npy file whose header dict is `header` verbatim (padded like numpy pads it)."""
    length_format = "<H" if version == 1 else "<I"
    preamble = 6 + 2 + struct.calcsize(length_format)
    text = header + " " * ((64 - (preamble + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY" + bytes([version, 0]) + struct.pack(length_format, len(text)) + \
        text.encode("latin-1") + data


def saved(array, version=None):
    import io

    buffer = io.BytesIO()
    if version:
        np.lib.format.write_array(buffer, array, version=version)
    else:
        np.save(buffer, array)
    return buffer.getvalue()


def make_npy():
    for path in glob.glob(os.path.join(REPO, "tests", "data", "npy", "*.npy")):
        shutil.copy(path, NPY_DIR)
    for path in glob.glob(os.path.join(REPO, "tests", "data", "seed002", "*.npy")):
        shutil.copy(path, os.path.join(NPY_DIR, "seed002_" + os.path.basename(path)))
    f4 = np.arange(12, dtype=np.float32).reshape(3, 4)
    write(NPY_DIR, "f4_3d_2x2x3.npy", saved(np.ones((2, 2, 3), dtype=np.float32)))
    write(NPY_DIR, "f4_empty_0x3.npy", saved(np.zeros((0, 3), dtype=np.float32)))
    write(NPY_DIR, "f8_inf.npy", saved(np.array([1.0, np.inf], dtype=np.float64)))
    write(NPY_DIR, "f8_too_big_for_f4.npy", saved(np.array([1e39], dtype=np.float64)))
    write(NPY_DIR, "f8_big_endian_2.npy", saved(np.array([0.5, -1.0], dtype=">f8")))
    write(NPY_DIR, "f4_trailing_bytes.npy", saved(f4) + b"\0\0\0\0")
    write(NPY_DIR, "lying_shape_huge.npy",
          npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }",
                          f4.tobytes()))
    write(NPY_DIR, "lying_shape_overflow.npy",
          npy_with_header("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (4294967296, 4294967296, 4294967296), }"))
    write(NPY_DIR, "negative_dim.npy",
          npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-3, 4), }"))
    write(NPY_DIR, "nine_dims.npy",
          npy_with_header("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1), }", b"\0\0\0\0"))
    write(NPY_DIR, "double_quotes_any_order.npy",
          npy_with_header('{"shape": (2,), "fortran_order": False, "descr": "<f4"}',
                          np.array([1, 2], dtype="<f4").tobytes()))
    write(NPY_DIR, "structured_dtype.npy",
          npy_with_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                          b"\0\0\0\0"))
    write(NPY_DIR, "repeated_key.npy",
          npy_with_header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
                          "'shape': (), }", b"\0\0\0\0"))
    write(NPY_DIR, "unterminated_header.npy",
          npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3,"))
    write(NPY_DIR, "python2_long.npy",
          npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }",
                          np.array([1, 2], dtype="<f4").tobytes()))
    write(NPY_DIR, "header_length_lies.npy", b"\x93NUMPY\x01\x00\xff\xff{'descr'")
    write(NPY_DIR, "version_4.npy", b"\x93NUMPY\x04\x00" + saved(f4)[8:])
    write(NPY_DIR, "magic_only.npy", b"\x93NUMPY")
    write(NPY_DIR, "not_npy.npy", b"PK\x03\x04 this is a zip, not a .npy")
    write(NPY_DIR, "empty.npy", b"")


# Broken variants of a small valid preset: each breaks one rule.
BROKEN_PRESETS = {
    "bad_json": '{"d_model": 4, "n_heads": 2',
    "not_object": "[1, 2, 3]",
    "wrong_type_d_model": {"d_model": "four", "n_heads": 2},
    "float_n_heads": {"d_model": 4, "n_heads": 2.5},
    "negative_seq_len": {"seq_len": -1},
    "zero_batch": {"batch": 0},
    "heads_over_d_model": {"d_model": 4, "n_heads": 8},
    "not_divisible": {"d_model": 10, "n_heads": 4},
    "dropout_one": {"dropout": 1.0},
    "dropout_string": {"dropout": "0.1"},
    "padding_over_t": {"seq_len": 4, "mask": {"padding": [9]}},
    "padding_count_vs_batch": {"seq_len": 4, "batch": 3, "mask": {"padding": [1, 2]}},
    "window_and_global": {"seq_len": 8, "mask": {"window": 2, "global_tokens": 1, "causal": True}},
    "global_without_window": {"seq_len": 8, "mask": {"global_tokens": 2}},
    "unknown_keys": {"d_model": 4, "heads": 2, "mask": {"sliding": 3}, "inputs": {"w_z": [1]}},
    "over_memory_cap": {"batch": 64, "seq_len": 4096, "d_model": 512, "n_heads": 8},
    "huge_shape_only": {"batch": 65536, "seq_len": 1048576, "d_model": 1048576, "n_heads": 4096,
                        "shape_only": True},
    "huge_seed": {"seed": 18446744073709551615, "dropout_seed": -1},
    "ragged_x": {"inputs": {"x": [[1, 2, 3, 4], [1, 2]]}},
    "x_with_string": {"inputs": {"x": [[1, 2, 3, "a"]]}},
    "wrong_weight_shape": {"d_model": 4, "n_heads": 2, "inputs": {"x": [[1, 2, 3, 4]],
                                                                  "w_q": [[1, 2], [3, 4]]}},
    "batched_x": {"d_model": 2, "n_heads": 1, "inputs": {"x": [[[1, 2]], [[3, 4]]]}},
    "utf8_sentence": {"sentence": "Der Kätzchen saß auf der Matte. 猫が座った 😀", "d_model": 8,
                      "n_heads": 2, "mask": {"causal": True}, "dropout": 0.25, "bias": True},
    "control_sentence": {"sentence": "tab\there\u0001bell\u0007\u007f", "d_model": 6,
                         "n_heads": 3, "output_proj": False},
    "empty_sentence": {"sentence": "", "seq_len": 0, "d_model": 4, "n_heads": 4, "d_k": 3,
                       "d_v": 5},
}

# The next lessons' variants (and mistakes, ablation): valid presets of each, and ones their rules
# refuse.
VARIANT_PRESETS = {
    "variant_mqa": {"d_model": 16, "n_heads": 4, "n_kv_heads": 1, "seq_len": 6, "bias": True},
    "variant_gqa_causal": {"d_model": 16, "n_heads": 8, "n_kv_heads": 2, "seq_len": 7, "batch": 2,
                           "d_k": 4, "mask": {"causal": True}},
    "variant_kv_heads_not_divisor": {"d_model": 16, "n_heads": 4, "n_kv_heads": 3},
    "variant_cross": {"sentence": "the cat sat", "sentence_kv": "le chat est assis", "d_model": 8,
                      "n_heads": 2, "mask": {"padding": [3]}},
    "variant_cross_x_kv": {"d_model": 4, "n_heads": 2, "seq_len": 2, "d_in_kv": 3,
                           "inputs": {"x_kv": [[1, 0, 2], [0.5, -1, 0], [2, 2, 2]]}},
    "variant_cross_causal": {"sentence_kv": "a b", "mask": {"causal": True}},
    "variant_decode": {"d_model": 16, "n_heads": 4, "n_kv_heads": 2, "seq_len": 8,
                       "decode_steps": 3, "mask": {"causal": True, "padding": [6]}, "bias": True},
    "variant_decode_all": {"seq_len": 4, "decode_steps": 4, "mask": {"causal": True}},
    "variant_decode_cross": {"sentence_kv": "x y", "decode_steps": 1},
    "variant_mla": {"d_model": 16, "n_heads": 4, "seq_len": 7, "kv_latent": 6, "rope_dim": 4,
                    "q_latent": 5, "mask": {"causal": True}, "dropout": 0.2},
    "variant_mla_odd_rope": {"d_model": 16, "n_heads": 4, "kv_latent": 8, "rope_dim": 3},
    "variant_mla_gqa": {"d_model": 16, "n_heads": 4, "kv_latent": 8, "n_kv_heads": 2},
    "variant_rope_without_latent": {"rope_dim": 2},
    "variant_mistake_ablated": {"d_model": 8, "n_heads": 2, "seq_len": 5,
                                "mistake": "mask-after-softmax", "mask": {"causal": True},
                                "ablated_heads": [False, True]},
    "variant_mistake_unknown": {"mistake": "sideways"},
}


def make_preset():
    for path in glob.glob(os.path.join(REPO, "assets", "presets", "*.json")):
        shutil.copy(path, PRESET_DIR)
    for name, content in {**BROKEN_PRESETS, **VARIANT_PRESETS}.items():
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        write(PRESET_DIR, name + ".json", text)


def main():
    os.makedirs(NPY_DIR, exist_ok=True)
    os.makedirs(PRESET_DIR, exist_ok=True)
    make_npy()
    make_preset()


if __name__ == "__main__":
    main()
