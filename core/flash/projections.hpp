// Q, K and V of every head side by side, as the tiled run and the recorded sweep read them.
#pragma once

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

// (B*T, h*d_k) queries and (B*T_k, n_kv*d) keys and values: row b*T + t holds every head's slice
// side by side (q.view(B, T, h, d_k) before its transpose); RoPE applied when the config has it.
struct Projections {
  Values q, k, v;
  int64_t q_width = 0, k_width = 0, v_width = 0;  // h*d_k, n_kv*d_k, n_kv*d_v
};

Projections project_qkv(const Config& config, const Inputs& inputs);

// Head hd of sequence b: where its query, key and value rows start in `p`.
struct HeadOffsets {
  int64_t q, k, v;
};
HeadOffsets head_offsets(const Config& config, const Projections& p, int64_t b, int64_t hd);

}  // namespace attnlab
