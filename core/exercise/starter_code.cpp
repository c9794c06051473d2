#include "core/exercise/starter_code.hpp"

#include "core/exercise/exercise.hpp"
#include "core/model/masks.hpp"

namespace attnlab {

namespace {

// What both scripts share: loading the folder and saving the answer. {LOAD} and {SAVE} in the
// scripts below are replaced by these.
constexpr const char* kLoad = R"(HERE = os.path.dirname(os.path.abspath(__file__))
EXERCISE = json.load(open(os.path.join(HERE, "exercise.json")))
SIZES = EXERCISE["sizes"]


def load(name):
    """An input as a float32 array, or None when this exercise has no such file."""
    path = os.path.join(HERE, name + ".npy")
    return np.load(path) if os.path.exists(path) else None


x = load("x")                                   # (B, T, d_in)
w_q, w_k, w_v = load("w_q"), load("w_k"), load("w_v")  # (d_in, h*d_k), (d_in, n_kv*d_k), (d_in, n_kv*d_v)
w_o = load("w_o")                               # (h*d_v, d_model), None without an output projection
b_q, b_k, b_v, b_o = load("b_q"), load("b_k"), load("b_v"), load("b_o")  # None without biases
# (B, T, T) booleans: visible[b, i, j] is True when query i of sequence b may attend to key j.
visible = np.array(EXERCISE["mask"]["visible"], dtype=bool)
)";

constexpr const char* kSave = R"(def save(stages):
    """Writes answer.npz: each stage under its export name, float32, C order."""
    known = [s["name"] for s in EXERCISE["stages"]]
    unknown = sorted(set(stages) - set(known))
    if unknown:
        print("note: not stages of this exercise (check ignores them):", ", ".join(unknown))
    arrays = {name: np.ascontiguousarray(to_numpy(value), dtype=np.float32)
              for name, value in stages.items()}
    np.savez(os.path.join(HERE, "answer.npz"), **arrays)
    print("saved", ", ".join(arrays), "to answer.npz; grade it with: attnlab-cli check", HERE)


if __name__ == "__main__":
    try:
        stages = mha()
    except NotImplementedError as e:
        np.savez(os.path.join(HERE, "answer.npz"), not_implemented=np.zeros(0, np.float32))
        print("mha() is not implemented yet (" + str(e) + "): fill in its body, then run this again")
        raise SystemExit(1)
    save(stages)
)";

constexpr const char* kTask = R"(
    The stages, by the names the grader knows (exercise.json lists each with its shape):
      q, k, v          (B, T, h*d_k), (B, T, n_kv*d_k), (B, T, n_kv*d_v)  the projections
      q_split          (B, T, h, d_k)        q.view(B, T, h, d_k)
      q_heads          (B, h, T, d_k)        q_split.transpose(1, 2)   (k_heads, v_heads alike)
      scores           (B, h, T, T)          q_heads @ k_heads^T
      scaled           (B, h, T, T)          scores / sqrt(d_k)
      masked           (B, h, T, T)          -inf where visible is False (only with a mask)
      weights          (B, h, T, T)          softmax over the keys (the last axis)
      context          (B, h, T, d_v)        weights @ v_heads
      context_t        (B, T, h, d_v)        context.transpose(1, 2)
      concat           (B, T, h*d_v)         the heads side by side
      out              (B, T, d_out)         concat @ w_o (+ b_o); concat itself without w_o
    Return any subset: out alone is allowed, and more stages let the grader say where it goes wrong.
    With fewer K/V heads than query heads (n_kv_heads < n_heads) each K/V head serves
    n_heads / n_kv_heads query heads in a row: repeat k_heads and v_heads along the head axis.
    """
)";

std::string replace(std::string text, const std::string& key, const std::string& value) {
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

}  // namespace

std::string numpy_starter() {
  std::string text = R"(#!/usr/bin/env python3
"""Attention Lab exercise: multi-head attention in NumPy, without looking at the reference.

Fill in mha() below, then run   python3 mha.py   (it writes answer.npz)
and grade it with               attnlab-cli check .
"""
import json
import os

import numpy as np

{LOAD}
n_heads, n_kv_heads = SIZES["n_heads"], SIZES["n_kv_heads"]
d_k, d_v = SIZES["d_k"], SIZES["d_v"]


def to_numpy(value):
    return np.asarray(value)


def mha():
    """Multi-head attention of x with the weights above. Returns a dict of the stages you
    computed, e.g. {"q": q, "scores": scores, "out": out}.
{TASK}
    stages = {}
    # Your code here.
    raise NotImplementedError("the body of mha() in mha.py is still to be written")
    return stages


{SAVE})";
  text = replace(text, "{LOAD}", kLoad);
  text = replace(text, "{TASK}", kTask);
  return replace(text, "{SAVE}", kSave);
}

std::string torch_starter() {
  std::string text = R"(#!/usr/bin/env python3
"""Attention Lab exercise: multi-head attention in PyTorch, without looking at the reference.

Fill in mha() below, then run   python3 mha_torch.py   (it writes answer.npz)
and grade it with               attnlab-cli check .
"""
import json
import os

import numpy as np
import torch

{LOAD}
n_heads, n_kv_heads = SIZES["n_heads"], SIZES["n_kv_heads"]
d_k, d_v = SIZES["d_k"], SIZES["d_v"]
T_ = lambda a: None if a is None else torch.from_numpy(a)
x, w_q, w_k, w_v, w_o = T_(x), T_(w_q), T_(w_k), T_(w_v), T_(w_o)
b_q, b_k, b_v, b_o = T_(b_q), T_(b_k), T_(b_v), T_(b_o)
visible = torch.from_numpy(visible)


def to_numpy(value):
    return value.detach().cpu().numpy() if torch.is_tensor(value) else np.asarray(value)


def mha():
    """Multi-head attention of x with the weights above (torch tensors, row vectors:
    q = x @ w_q). Returns a dict of the stages you computed, e.g. {"q": q, "out": out}.
{TASK}
    stages = {}
    # Your code here.
    raise NotImplementedError("the body of mha() in mha_torch.py is still to be written")
    return stages


{SAVE})";
  text = replace(text, "{LOAD}", kLoad);
  text = replace(text, "{TASK}", kTask);
  return replace(text, "{SAVE}", kSave);
}

std::string exercise_readme(const Exercise& e) {
  const Config& c = e.config;
  const auto n = [](int64_t v) { return std::to_string(v); };
  std::string text = "# Exercise: multi-head attention, coded by you\n\n";
  text +=
      "Write multi-head attention without looking at a reference, on this folder's inputs, "
      "and let `attnlab-cli check` grade every stage you hand in.\n\n";
  text += "## The task\n\n";
  text += "- Input `x.npy`: " + n(c.batch) + " sequence(s) of T = " + n(c.tokens()) +
          " tokens, each a row of d_in = " + n(c.input_dim()) + " numbers: (B, T, d_in) = (" +
          n(c.batch) + ", " + n(c.tokens()) + ", " + n(c.input_dim()) + ").\n";
  text += "- Heads: h = " + n(c.n_heads) + " query heads of d_k = " + n(c.head_dim_k()) +
          " (values d_v = " + n(c.head_dim_v()) + ")";
  if (c.grouped())
    text += ", sharing n_kv = " + n(c.kv_heads()) +
            " K/V heads (grouped-query attention: " + "each K/V head serves " + n(c.group_size()) +
            " query heads in a row)";
  text += ".\n";
  text +=
      "- Weights, row vectors as in the seeds (`q = x @ w_q`): `w_q.npy` (d_in, h*d_k), "
      "`w_k.npy` (d_in, n_kv*d_k), `w_v.npy` (d_in, n_kv*d_v)";
  if (c.output_proj) text += ", `w_o.npy` (h*d_v, d_model)";
  text += c.bias ? "; biases `b_q.npy`, `b_k.npy`, `b_v.npy`" +
                       std::string(c.output_proj ? ", `b_o.npy`" : "") + " added after each product"
                 : "; no biases";
  text += ".\n";
  text += "- Mask: " + describe(c.mask) +
          " (exercise.json's `mask.visible[b][i][j]` is 1 where query i may attend to key j; "
          "masked scores are -inf before the softmax).\n";
  text += "- Scale the scores by 1/sqrt(d_k); softmax over the keys (the last axis).\n";
  text += c.output_proj ? "- Output: the heads' contexts side by side (B, T, h*d_v), times `w_o`: "
                          "`out` is (B, T, d_model) = (" +
                              n(c.batch) + ", " + n(c.tokens()) + ", " + n(c.d_model) + ").\n"
                        : "- No output projection: `out` is the concat itself, (B, T, h*d_v) = (" +
                              n(c.batch) + ", " + n(c.tokens()) + ", " + n(c.out_dim()) + ").\n";
  text +=
      "\n## Doing it\n\n"
      "1. Fill in `mha()` in `mha.py` (NumPy) or `mha_torch.py` (PyTorch). It returns a dict "
      "of the stages you computed, by these names (any subset; `out` alone is allowed):\n\n"
      "   | name | shape |\n   | --- | --- |\n";
  for (const std::string& name : stage_names(e.answer)) {
    const TensorRecord* r = e.answer.find(name);
    text += "   | `" + name + "` | " + shape_to_string(r->tensor.shape()) + " " + r->axes_text() +
            " |\n";
  }
  text +=
      "\n2. Run it: `python3 mha.py` writes `answer.npz`.\n"
      "3. Grade it: `attnlab-cli check .` prints each stage right or wrong, the first wrong "
      "one, and the mistake when it is a known one, with its fix.\n";
  return text;
}

}  // namespace attnlab
