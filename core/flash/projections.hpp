// Q, K and V of every head side by side, as the tiled run and the recorded sweep read them.
#pragma once

#include <vector>

#include "core/attention/head_attention.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

// (B*T, h*d_k) queries and (B*T_k, n_kv*d) keys and values: row b*T + t holds every head's slice
// side by side (q.view(B, T, h, d_k) before its transpose); RoPE applied when the config has it.
struct Projections {
  Values q, k, v;
  int64_t q_width = 0, k_width = 0, v_width = 0;  // h*d_k, n_kv*d_k, n_kv*d_v
  // ALiBi: the inputs' (h, T, T_k) bias when they hold one, else each head's slope m_h (the bias
  // -m_h |t - s| is then computed inside each tile).
  const Scalar* bias = nullptr;
  std::vector<double> alibi_slopes;
};

Projections project_qkv(const Config& config, const Inputs& inputs);

// Head hd of sequence b, read through the strides of `p` (and its (T, T_k) bias), writing its (T,
// d_v) output rows `out_stride` apart from `out`.
HeadOperands<Scalar> head_operands(const Config& config, const Projections& p, int64_t b,
                                   int64_t hd, Scalar* out, int64_t out_stride);

}  // namespace attnlab
