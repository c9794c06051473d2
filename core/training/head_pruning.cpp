#include "core/training/head_pruning.hpp"

#include <algorithm>
#include <numeric>

namespace attnlab::training {

void switch_head_off(const ModelShape& shape, Parameters<float>& params, int64_t layer,
                     int64_t head) {
  // W_o (h*d_k, D): rows [head*d_k, (head+1)*d_k) carry this head's context into the output.
  const int64_t d_k = shape.head_dim();
  params[params.layout.layers[size_t(layer)].w_o].middleRows(head * d_k, d_k).setZero();
}

HeadPruning prune_heads(const SavedModel& model, const Batch& batch) {
  const ModelShape& shape = model.shape;
  const int64_t heads = shape.layers * shape.heads;
  ForwardCache<float> cache;
  HeadPruning result;
  result.intact = forward_loss(shape, model.parameters, batch, cache);
  for (int64_t index = 0; index < heads; ++index) {
    Parameters<float> pruned = model.parameters;
    switch_head_off(shape, pruned, index / shape.heads, index % shape.heads);
    result.loss_increase.push_back(forward_loss(shape, pruned, batch, cache).loss -
                                   result.intact.loss);
  }
  result.least_important.resize(size_t(heads));
  std::iota(result.least_important.begin(), result.least_important.end(), 0);
  std::stable_sort(result.least_important.begin(), result.least_important.end(),
                   [&](int64_t a, int64_t b) {
                     return result.loss_increase[size_t(a)] < result.loss_increase[size_t(b)];
                   });
  Parameters<float> pruned = model.parameters;
  result.without_least.push_back(result.intact);
  for (const int64_t index : result.least_important) {
    switch_head_off(shape, pruned, index / shape.heads, index % shape.heads);
    result.without_least.push_back(forward_loss(shape, pruned, batch, cache));
  }
  return result;
}

}  // namespace attnlab::training
