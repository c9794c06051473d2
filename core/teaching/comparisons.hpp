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

// Times the per-head loop (seeds 001/003) and the batched forward on the same inputs, `runs`
// times each, alternating, and compares their outputs.
PathComparison compare_paths(const Config& config, const Inputs& inputs, int runs = 5,
                             const RunControl& control = {});

}  // namespace attnlab
