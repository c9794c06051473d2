// A Hugging Face model folder's config.json, read into the sizes this app needs, for the families
// of the architecture table (architectures.hpp: gpt2, llama, mistral, qwen2, bert, phi3, gemma).
// Each family names its sizes differently (GPT-2's n_embd is Llama's hidden_size); its row says
// which key holds which, and here they get one name each.
#pragma once

#include <cstdint>
#include <string>

#include "core/checkpoints/architectures.hpp"

namespace attnlab {

// Llama 3's frequency-dependent RoPE scaling ("rope_type": "llama3"), or plain linear scaling
// (positions divided by `factor`); none when the config has no rope_scaling.
struct RopeScaling {
  std::string type;  // "", "llama3" or "linear"
  double factor = 1, low_freq_factor = 1, high_freq_factor = 4;
  int64_t original_max_positions = 0;
};

struct ModelSpec {
  const Architecture* arch =
      nullptr;             // the family's row: names, behaviour (never null once parsed)
  std::string model_type;  // as the config says: "gpt2", "llama", "qwen2", "gemma", ...
  int64_t vocab = 0, d_model = 0, n_layers = 0, n_heads = 0, n_kv_heads = 0, d_head = 0;
  int64_t d_ff = 0;           // the MLP's hidden width
  int64_t max_positions = 0;  // learned positions (GPT-2, BERT) or the trained context (RoPE)
  double norm_eps = 1e-5;     // LayerNorm's (GPT-2, BERT) or RMSNorm's epsilon
  std::string activation;     // as the config names it: "gelu_new", "silu", "gelu", ...
  Activation act = Activation::GeluTanh;  // what that name computes
  double rope_theta = 10000;              // RoPE families
  RopeScaling rope_scaling;
  bool tied_embeddings = true;  // the output head reuses the token embeddings
  bool qkv_bias = false;        // biases on q, k, v (GPT-2, BERT, Qwen2, attention_bias)
  bool o_bias = false;          // a bias on the output projection (GPT-2, BERT, attention_bias)
  bool mlp_bias = false;        // biases on the MLP's projections (GPT-2, BERT, mlp_bias)
  int64_t type_vocab = 0;       // BERT's token types
  bool causal = true;           // false for BERT
};

// Parses config.json text; `label` names the file in messages. Throws UserError (one line) for
// text that is not JSON, a model_type no row of the table opens (listing those), a missing or
// non-positive size (naming its key), or sizes that do not fit together (heads not dividing the
// width, K/V heads not dividing the heads).
ModelSpec parse_model_config(const std::string& text, const std::string& label);

// Reads `folder`/config.json and parses it.
ModelSpec read_model_config(const std::string& folder);

}  // namespace attnlab
