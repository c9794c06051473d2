// The seeds' hyperparameter table, computed: each real model's attention layer in shape-only mode.
#pragma once

#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnlab {

struct ModelRow {
  std::string preset;  // "bert-base"
  std::string model;   // "BERT-base"
  int64_t d_model = 0, n_heads = 0, d_k = 0, context = 0;
  int64_t parameters = 0;       // per attention layer: W_q, W_k, W_v, W_o and biases
  int64_t attention_bytes = 0;  // one sequence: h * T^2 float32 weights
  double flops = 0;             // one sequence, one forward of the layer
};

// Transformer base, BERT-base, BERT-large, GPT-2 small, GPT-3 and the tiny transformer, from
// their presets with B = 1; never allocates.
std::vector<ModelRow> model_table();

}  // namespace attnlab
