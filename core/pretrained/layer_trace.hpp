// One layer of a pretrained model as an ordinary run of the core: its attention's input, weights
// and sizes as a Config and Inputs, so the six stages, the heads panel, the mistakes and the
// export all work on the real heads. The rest of the block (residual, norm, MLP) stays in
// pretrained_forward.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/pretrained/pretrained_forward.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

struct LayerOfModel {
  Config config;  // sizes, bias, causal mask, K/V heads, rotary positions from the model
  Inputs inputs;  // x = the layer's attention input (1, T, d); the layer's real W and b
};

// Throws UserError when `layer` is not one of the model's.
LayerOfModel layer_of_model(const PretrainedModel& model, const PretrainedRun& run, int64_t layer);

// run() on that layer, its token labels the model's own pieces (T of them).
Trace trace_layer(const PretrainedModel& model, const PretrainedRun& run, int64_t layer,
                  const std::vector<std::string>& pieces);

// The real model's files for an export beside the layer's stage tensors: token_ids.npy (B, T)
// int64, attentions.npy (n_layers, B, h, T, T) as transformers' output_attentions stacked, and
// logits.npy (B, T, vocab) when the model has an output head; and the rest of block `layer`:
// residual.npy, mlp_in.npy, mlp_hidden.npy, block_out.npy.
std::vector<std::pair<std::string, std::string>> model_export_files(const PretrainedRun& run,
                                                                    int64_t layer);

}  // namespace attnlab
