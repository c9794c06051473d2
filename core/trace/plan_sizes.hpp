// The plan's sizes: each step's shape, new bytes and FLOPs worked out from the shapes alone, as
// llm.c's one table of activation sizes both counts and allocates. Validating a config, each
// path's memory rule and decoding's FLOP counts read them: nothing runs to learn a size.
#pragma once

#include <cstdint>

#include "core/model/config.hpp"
#include "core/trace/plan.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

// Fills every step's sizes (shape, elements, view, bytes, flops, reached): plan_for calls it last.
void size_steps(Plan& plan);

// [SECTION] sums over the plan

// FLOPs of the recorded steps the run reaches in a pass (for Pass::Decode, of one decoded token t,
// or of every token when position is -1): Pass::Forward's equal the trace's Counters::flops.
double planned_flops(const Plan& plan, Pass pass, int64_t position = -1);
// New bytes of the recorded steps the run reaches in a pass: Pass::Forward's equal Counters::bytes.
int64_t planned_bytes(const Plan& plan, Pass pass);
// Float32 bytes of the parameters and buffers a run holds (the trace's parameter records: the
// weights, or fused QKV's joined ones, RoPE's frequencies, the position table, ALiBi's bias).
int64_t planned_parameter_bytes(const Config& config);

// The counters a run of `config` ends with (parameters, FLOPs, bytes, attention and cache sizes),
// without running it: the parameters counted from the config, FLOPs and bytes from its plan.
Counters planned_counters(const Config& config);
// The same with FLOPs and bytes 0: what a run starts its counters from.
Counters parameter_counters(const Config& config);

// [SECTION] decoding

// FLOPs of the forward pass over the first `tokens` tokens (the masks as they apply to them),
// from that prefix's plan: the prompt's pass, or what a run without a cache recomputes per token.
double prefix_forward_flops(const Config& config, int64_t tokens);
// What KV-cache decoding costs (plan.decode_prompt > 0; else empty), from the plan: each step's
// FLOPs equal the sum of its decode records' FLOPs.
DecodeTrace planned_decode(const Plan& plan);

// [SECTION] each path's memory rule, in bytes (0 when a size is not positive, INT64_MAX beyond
// what can be counted). The traced run's, which holds every record, is trace_bytes_needed
// (core/model/config.hpp).

// forward() holds its working set, not the records: X, the parameters, Q, K, V, the concat and
// the output, one (T, T_k) scratch map per worker thread and the (B, T, T_k) mask of bytes.
int64_t forward_bytes_needed(const Config& config);
// The tiled run (FlashAttention), linear in T: X, the parameters, Q, K, V, the concat and the
// output, plus `held` bytes of tiles and row statistics (core/flash's flash_bytes_needed).
int64_t tiled_bytes_needed(const Config& config, int64_t held);

}  // namespace attnlab
