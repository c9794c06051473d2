// Multi-head latent attention's "absorbed" form (DeepSeek-V2): the same output as the trace's
// path, computed the way a decoder runs it. W_UK is folded into the query side,
//   q_i K_i^T = q_i (c_kv W_UK_i)^T = (q_i W_UK_i^T) c_kv^T,
// so every head scores straight against the cached latent c_kv (B, T_k, d_c), and W_UV after the
// weights, (A_i c_kv) W_UV_i: K and V per head are never formed. Why it matters for decoding: the
// cache holds only c_kv and the rotary key (d_c + d_rope numbers per token), and no step has to
// up-project the whole cache back into keys and values.
#pragma once

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

// One line for the app and the CLI: why the absorbed form matters when decoding.
extern const char* const kAbsorbedWhy;

// The absorbed path's output (B, T, out_dim) from complete inputs of an MLA config (latent(),
// values computed), recorded as "out_absorbed" with the same dropout and ablated heads.
TensorRecord absorbed_latent_attention(const Config& config, const Inputs& inputs);

}  // namespace attnlab
