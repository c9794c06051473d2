// The per-head loop of seeds 001 and 003: one head at a time from column slices of the weights,
// with plain matrices. Written independently of the traced batched run (core/trace/mha.hpp) so
// that the two can check each other.
#pragma once

#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"

namespace attnlab {

struct LoopResult {
  Tensor out;                   // (B, T, d_out)
  std::vector<Tensor> weights;  // per head: (B, T, T) attention weights
  std::vector<Tensor> context;  // per head: (B, T, d_v)
};

// The loop on the same inputs as run() (dropout, masks, ALiBi, RoPE and switched-off heads as the
// plan decides them). Throws UserError for a mistake (the loop computes the correct path) or MLA.
LoopResult run_loop(const Config& config, const Inputs& inputs = {},
                    const RunControl& control = {});

}  // namespace attnlab
