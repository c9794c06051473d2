// The production path: the same output as run() but nothing recorded. Q, K, V are read per head
// through their strides (no split copies), each (sequence, head) goes through the per-head kernel
// (core/attention/head_attention.hpp) with the plan's choices in a per-thread scratch map, and each
// head's context lands straight in the concat layout.
#pragma once

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"

namespace attnlab {

// `inputs` must be complete (see complete_inputs); returns out (B, T, d_out). Ablated heads
// (config.ablated_heads) contribute a zero context; mistakes are not simulated here.
// Throws UserError for an invalid config or one whose working set (forward_bytes_needed: no
// records are held) is above config.memory_cap_bytes, Cancelled when `control` asks it to stop.
Tensor forward(const Config& config, const Inputs& inputs, const RunControl& control = {});

// The attention work forward() hands to parallel_for over its B·h (sequence, head) pairs,
// 2·B·h·T·T_k·(d_k + d_v) FLOPs: spread over the cores only from kParallelFlops
// (core/kernels/parallel.hpp) up; below it every head runs on the calling thread.
double forward_attention_flops(const Config& config);

}  // namespace attnlab
