// KV-cache decoding: the lesson after multi-head attention. The first P = T - N tokens (the
// prompt) are processed once: their keys and values fill the cache (B, n_kv, P, d). Then each of
// the last N tokens is decoded alone: only its q, k, v are computed (B, h|n_kv, 1, d), k and v
// are appended to the cache (B, n_kv, t + 1, d), and its query attends over the whole cache: a
// (1 x (t + 1)) score row per head. Its output equals row t of the full causal run.
#pragma once

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"
#include "core/trace/trace.hpp"
#include "core/trace/trace_builder.hpp"

namespace attnlab {

// Computes the plan's prefill and decode steps (plan.decode_prompt > 0; complete inputs with
// values) with the shared kernels, recording each through `builder`, and returns what each step
// cost, counted from the plan (planned_decode, core/trace/plan_sizes.hpp). Grouped K/V heads share
// their cache entries (query head hd reads K/V head hd / g); ablated heads contribute a zero
// context.
DecodeTrace decode_with_cache(const Plan& plan, const Inputs& inputs, TraceBuilder& builder,
                              const RunControl& control);

// Float32 bytes of a K and V cache holding `tokens` tokens: B * n_kv * tokens * (d_k + d_v) * 4.
int64_t kv_cache_bytes(const Config& config, int64_t tokens);

}  // namespace attnlab
