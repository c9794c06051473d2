// Multi-head latent attention's "absorbed" form (DeepSeek-V2): the same output as the trace's
// path, computed the way a decoder runs it. W_UK is folded into the query side,
//   q_i K_i^T = q_i (c_kv W_UK_i)^T = (q_i W_UK_i^T) c_kv^T,
// so every head scores straight against the cached latent c_kv (B, T_k, d_c), and W_UV after the
// weights, (A_i c_kv) W_UV_i: K and V per head are never formed. Why it matters for decoding: the
// cache holds only c_kv and the rotary key (d_c + d_rope numbers per token), and no step has to
// up-project the whole cache back into keys and values.
#pragma once

#include "core/model/inputs.hpp"
#include "core/trace/trace_builder.hpp"

namespace attnlab {

// One line for the app and the CLI: why the absorbed form matters when decoding.
extern const char* const kAbsorbedWhy;

// The plan's absorbed step (plan.absorbed): out_absorbed (B, T, out_dim) from the forward pass's
// recorded q, c_kv (and q_rope, k_rope) and the weights in `inputs`, with the plan's scale, mask,
// dropout and ablated heads, computed with the forward pass's kernels and recorded through
// `builder`. Returns it.
Tensor absorbed_latent_attention(const Plan& plan, const Inputs& inputs, TraceBuilder& builder);

}  // namespace attnlab
