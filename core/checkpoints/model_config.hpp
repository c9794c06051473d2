// A Hugging Face model folder's config.json, read into the sizes this app needs, for the three
// families it opens: GPT-2 (`gpt2`), the Llama family (`llama`, `mistral`, `qwen2`) and BERT
// (`bert`). Each family names its sizes differently (GPT-2's n_embd is Llama's hidden_size);
// here they get one name each.
#pragma once

#include <cstdint>
#include <string>

namespace attnlab {

enum class ModelFamily { Gpt2, Llama, Bert };

// Llama 3's frequency-dependent RoPE scaling ("rope_type": "llama3"), or plain linear scaling
// (positions divided by `factor`); none when the config has no rope_scaling.
struct RopeScaling {
  std::string type;  // "", "llama3" or "linear"
  double factor = 1, low_freq_factor = 1, high_freq_factor = 4;
  int64_t original_max_positions = 0;
};

struct ModelSpec {
  ModelFamily family = ModelFamily::Gpt2;
  std::string model_type;  // as the config says: "gpt2", "llama", "mistral", "qwen2", "bert"
  int64_t vocab = 0, d_model = 0, n_layers = 0, n_heads = 0, n_kv_heads = 0, d_head = 0;
  int64_t d_ff = 0;           // the MLP's hidden width
  int64_t max_positions = 0;  // learned positions (GPT-2, BERT) or the trained context (RoPE)
  double norm_eps = 1e-5;     // LayerNorm's (GPT-2, BERT) or RMSNorm's (Llama) epsilon
  std::string activation;     // "gelu_new" (GPT-2), "silu" (Llama's SwiGLU), "gelu" (BERT, erf)
  double rope_theta = 10000;  // Llama family
  RopeScaling rope_scaling;
  bool tied_embeddings = true;  // the output head reuses the token embeddings
  bool qkv_bias = false;        // biases on q, k, v (GPT-2, BERT, Qwen2)
  int64_t type_vocab = 0;       // BERT's token types
  bool causal = true;           // false for BERT
};

// "GPT-2", "Llama family", "BERT": the family's name for people.
const char* family_name(ModelFamily family);

// Parses config.json text; `label` names the file in messages. Throws UserError (one line) for
// text that is not JSON, a model_type other than the families above (listing them), a missing
// or non-positive size (naming its key), or sizes that do not fit together (heads not dividing
// the width, K/V heads not dividing the heads).
ModelSpec parse_model_config(const std::string& text, const std::string& label);

// Reads `folder`/config.json and parses it.
ModelSpec read_model_config(const std::string& folder);

}  // namespace attnlab
