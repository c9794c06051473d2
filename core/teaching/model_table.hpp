// The seeds' hyperparameter table, computed: each real model's attention layer counted from its
// plan's sizes (nothing runs).
#pragma once

#include <string>
#include <vector>

#include "core/trace/trace.hpp"
#include "core/variants/cache_comparison.hpp"

namespace attnlab {

struct ModelRow {
  std::string preset;  // "bert-base"
  std::string model;   // "BERT-base"
  int64_t d_model = 0, n_heads = 0, d_k = 0, context = 0;
  int64_t n_kv_heads = 0;        // K/V heads (= n_heads for multi-head attention)
  int64_t layers = 0;            // attention layers in the whole model
  int64_t parameters = 0;        // per attention layer: W_q, W_k, W_v, W_o and biases
  int64_t attention_bytes = 0;   // one sequence: h * T^2 float32 weights
  double flops = 0;              // one sequence, one forward of the layer
  int64_t kv_parameters = 0;     // per layer: what makes K and V
  int64_t kv_cache_numbers = 0;  // per token per layer: 2 n_kv d_k (MLA: d_c + d_rope)
  // The whole model's KV cache for one token: numbers * layers * 2 bytes (fp16, as served).
  int64_t kv_cache_bytes_per_token() const { return kv_cache_numbers * layers * 2; }
};

// Transformer base, BERT-base, BERT-large, GPT-2 small, GPT-3, the tiny transformer, Llama 2 70B,
// Mistral 7B and DeepSeek-V2, from their presets with B = 1; never allocates.
std::vector<ModelRow> model_table();

// DeepSeek-V2's layer as MHA, GQA with 8 groups, MQA and its own MLA: the cache per token.
std::vector<CacheRow> deepseek_v2_cache_rows();
extern const int64_t kDeepSeekV2Layers;

}  // namespace attnlab
