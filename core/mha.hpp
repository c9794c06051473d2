// Multi-head attention, step by step. Two paths that must agree:
//   run()      batched over heads with views, as the theory seed and PyTorch do it; records a Trace
//   run_loop() one head at a time from column slices of the weights, as seeds 001 and 003 do it
#pragma once

#include <vector>

#include "core/config.hpp"
#include "core/inputs.hpp"
#include "core/run_control.hpp"
#include "core/trace.hpp"

namespace attnlab {

// Validates the config (throws UserError with every issue), completes the inputs, and computes
// every stage. With config.shape_only the trace holds shapes, strides and counters, no values.
Trace run(const Config& config, const Inputs& inputs = {}, const RunControl& control = {});

struct LoopResult {
  Tensor out;                   // (B, T, d_out)
  std::vector<Tensor> weights;  // per head: (B, T, T) attention weights
  std::vector<Tensor> context;  // per head: (B, T, d_v)
};

// The per-head loop of seeds 001/003 on the same inputs (dropout included, same mask).
LoopResult run_loop(const Config& config, const Inputs& inputs = {},
                    const RunControl& control = {});

}  // namespace attnlab
