// Side-by-side runs for teaching: one head against many, the per-head loop against the batched
// computation.
#pragma once

#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

struct HeadCountComparison {
  Trace single;  // the same weights read as one head of width h*d_k
  Trace multi;   // the config as it is
};

// Seed 003's point: same parameters, attention memory x h, head_dim shrinks as heads grow.
// `inputs` must be complete. The single-head run keeps mask, biases and output projection.
// Like every measurement: refuses a config without values, follows `control`.
HeadCountComparison compare_head_counts(const Config& config, const Inputs& inputs,
                                        const RunControl& control = {});

struct PathComparison {
  double max_abs_difference = 0;  // between the two outputs
  double loop_ms = 0;             // median over the runs
  double batched_ms = 0;
  int runs = 0;
};

// How the two paths split the same work (counts, the same on every machine): the loop makes five
// matrix products per (sequence, head), Q, K and V from that head's columns, the scores and
// weights @ V, then W_o, one after another; the batched path makes four products over every head
// and sequence at once (Q, K, V, W_o), each B·h times the rows·columns of the loop's, and attends
// its B·h heads in parallel over the cores once their work reaches kParallelFlops. Below that
// (a toy size) both do the same tiny products on one thread, and the batched path's fixed cost
// per call (its plan, its buffers) is what the clock measures: it loses.
struct PathWork {
  int64_t loop_products = 0;       // 5·B·h + 1 (W_o): one after another
  int64_t batched_products = 0;    // 4: Q, K, V, W_o over all heads
  int64_t head_pairs = 0;          // B·h (sequence, head) attention kernels of the batched path
  double attention_flops = 0;      // their work (forward_attention_flops)
  bool heads_in_parallel = false;  // attention_flops >= kParallelFlops: spread over the cores
};
PathWork path_work(const Config& config);

// Times the per-head loop (seeds 001/003) and the batched forward on the same inputs, `runs`
// times each, alternating, and compares their outputs.
PathComparison compare_paths(const Config& config, const Inputs& inputs, int runs = 5,
                             const RunControl& control = {});

}  // namespace attnlab
