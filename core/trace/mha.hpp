// Multi-head attention, step by step: run() computes the config's plan batched over heads with
// views, as the theory seed and PyTorch do it, and records a Trace. (The per-head loop it must
// agree with is core/model/mha_loop.hpp.)
#pragma once

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

// Validates the config (throws UserError with every issue), completes the inputs, and computes
// every stage. With config.shape_only the trace holds shapes, strides and counters, no values.
Trace run(const Config& config, const Inputs& inputs = {}, const RunControl& control = {});

// The complete inputs `trace` was computed from: `given` (what the user gave, e.g. a preset's X)
// completed from the trace's config and its tokens, the key/value side's too. Every measurement
// on a shown trace (head importance, one head vs many, loop vs batched) starts from these.
Inputs trace_inputs(const Trace& trace, const Inputs& given);

}  // namespace attnlab
