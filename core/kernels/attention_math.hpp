// The per-row arithmetic the per-head kernel (core/attention) and the traced run's sub-steps
// share: masked softmax and dropout. The per-head loop, which checks them, has its own.
#pragma once

#include <cstdint>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// In place over one row of n scores, where -inf marks a masked key: softmax over the visible
// keys. A row with no visible key becomes all zeros (not NaN) and the function returns false.
bool masked_softmax_row(Scalar* row, int64_t n);

// Inverted dropout on one row: each weight is zeroed with probability p (decided by
// uniform_at(seed, first_index + j)) and the survivors are scaled by 1 / (1 - p), as PyTorch does.
void dropout_row(Scalar* row, int64_t n, double p, uint64_t seed, int64_t first_index);

}  // namespace attnlab
