// Head pruning on a trained model: each head switched off in turn (its rows of W_o zeroed, so its
// context adds nothing to the output, as the core's ablation does) and the real loss increase on
// a batch measured, not a weight norm; then the k least important heads removed together and the
// accuracy that is left.
#pragma once

#include <vector>

#include "core/training/model.hpp"
#include "core/training/model_io.hpp"

namespace attnlab::training {

struct HeadPruning {
  LossReport intact;                     // the whole model on the batch
  std::vector<double> loss_increase;     // per head (layer-major): loss without it - intact loss
  std::vector<int64_t> least_important;  // heads, smallest loss increase first
  // [k]: the model with the k least important heads off (k = 0 .. all heads).
  std::vector<LossReport> without_least;
};

HeadPruning prune_heads(const SavedModel& model, const Batch& batch);

// `params` with head `head` of layer `layer` switched off (its h*d_k rows of W_o set to 0).
void switch_head_off(const ModelShape& shape, Parameters<float>& params, int64_t layer,
                     int64_t head);

}  // namespace attnlab::training
