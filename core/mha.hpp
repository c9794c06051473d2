// Multi-head attention, step by step. Two paths that must agree:
//   run()      batched over heads with views, as the theory seed and PyTorch do it; records a Trace
//   run_loop() one head at a time from column slices of the weights, as seeds 001 and 003 do it
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "core/config.hpp"
#include "core/inputs.hpp"
#include "core/trace.hpp"

namespace attnlab {

// Lets a GUI worker thread follow and stop a long run.
struct RunControl {
  const std::atomic<bool>* cancel = nullptr;  // set to true to stop; run() throws Cancelled
  std::function<void(double)> progress;       // called with 0..1 as the stages complete
};

class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "cancelled"; }
};

// Validates the config (throws UserError with every issue), completes the inputs, and computes
// every stage. With config.shape_only the trace holds shapes, strides and counters, no values.
Trace run(const Config& config, const Inputs& inputs = {}, const RunControl& control = {});

struct LoopResult {
  Tensor out;                   // (B, T, d_out)
  std::vector<Tensor> weights;  // per head: (B, T, T) attention weights
  std::vector<Tensor> context;  // per head: (B, T, d_v)
};

// The per-head loop of seeds 001/003 on the same inputs (dropout included, same mask).
LoopResult run_loop(const Config& config, const Inputs& inputs = {});

}  // namespace attnlab
