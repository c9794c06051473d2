// What runs is the plan's absorbed step, recorded as every other step; this file computes it
// from the forward pass's own tensors with the per-head kernel the forward pass uses.
#include "core/variants/latent_attention.hpp"

#include <algorithm>

#include "core/attention/head_attention.hpp"
#include "core/kernels/batched_ops.hpp"
#include "core/kernels/linear.hpp"
#include "core/model/masks.hpp"

namespace attnlab {

const char* const kAbsorbedWhy =
    "W_UK joins the query and W_UV the output, so each decode step scores straight against the "
    "cached latent: nothing re-expands the cache into per-head K and V";

Tensor absorbed_latent_attention(const Plan& p, const Inputs& in, TraceBuilder& builder) {
  const Config& c = p.config;
  const int64_t B = c.batch, T = c.tokens(), h = c.n_heads, dk = c.head_dim_k(),
                dv = c.head_dim_v(), dc = c.kv_latent, dr = c.rope_dim;
  // The forward pass's own q per head: (B, T, h*d_k) -> (B, h, T, d_k), and its latent c_kv.
  const Tensor q = builder.recorded("q").view({B, T, h, dk}).transpose(1, 2);
  // Each head's W_UK_i^T (d_k, d_c) and W_UV_i (d_c, d_v): views of W_k, W_v (d_c, h*d).
  const Tensor w_uk_t =
      in.w_k.view({dc, h, dk}).transpose(0, 1).transpose(1, 2).unsqueeze(0).expand({B, h, dk, dc});
  const Tensor w_uv = in.w_v.view({dc, h, dv}).transpose(0, 1).unsqueeze(0).expand({B, h, dc, dv});
  // MLA's rotary parts, as the forward pass rotated them: q_rope (B, h, T, d_rope) and the one
  // rotary key (B, T, d_rope). Each head scores [q_i W_UK_i^T | q_rope_i] against [c_kv | k_rope]:
  // (T, d_c + d_rope) @ (d_c + d_rope, T), the sum of the latent and the rotary scores.
  Tensor q_rope, k_rope;
  if (dr > 0) {
    q_rope = builder.recorded("q_rope").view({B, T, h, dr}).transpose(1, 2);
    k_rope = builder.recorded("k_rope");  // (B, T, d_rope)
  }
  const Tensor c_kv = builder.recorded("c_kv");  // (B, T, d_c)
  Values keys(size_t(B * T * (dc + dr)));        // (B, T, d_c + d_rope): [c_kv | k_rope]
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < T; ++t) {
      Scalar* row = keys.data() + (b * T + t) * (dc + dr);
      for (int64_t e = 0; e < dc; ++e) row[e] = c_kv.at({b, t, e});
      for (int64_t e = 0; e < dr; ++e) row[dc + e] = k_rope.at({b, t, e});
    }
  Tensor q_absorbed = Tensor::empty("q_absorbed", {B, h, T, dc});
  Values queries(size_t(T * (dc + dr)));  // one head's [q_i W_UK_i^T | q_rope_i] (T, d_c + d_rope)
  Tensor latent_context = Tensor::empty("latent_context", {B, h, T, dc});
  Tensor context = Tensor::empty("context", {B, h, T, dv});
  const AttentionChoices choices = attention_choices(p);  // the forward pass's
  const std::vector<uint8_t> visible =
      choices.mask ? visibility(c.mask, B, T) : std::vector<uint8_t>{};  // (B, T, T)
  HeadScratch scratch;
  const int64_t map = T * T;
  for (int64_t pair = 0; pair < B * h; ++pair) {
    const int64_t b = pair / h, hd = pair % h;
    matmul_map(q, w_uk_t, q_absorbed, pair);  // q_i W_UK_i^T: (T, d_k) @ (d_k, d_c)
    for (int64_t t = 0; t < T; ++t) {
      Scalar* row = queries.data() + t * (dc + dr);
      std::copy_n(map_data(q_absorbed, pair) + t * dc, dc, row);
      for (int64_t e = 0; e < dr; ++e) row[dc + e] = q_rope.at({b, hd, t, e});
    }
    // The per-head kernel over the latent: A_i = softmax(...), then A_i c_kv (T, d_c).
    HeadOperands<Scalar> op{queries.data(),
                            dc + dr,
                            keys.data() + b * T * (dc + dr),
                            dc + dr,
                            c_kv.data() + b * T * dc,
                            dc,
                            map_data(latent_context, pair),
                            dc,
                            T,
                            T,
                            dc + dr,
                            dc,
                            b,
                            hd};
    if (choices.mask) {
      op.visible = visible.data() + b * map;
      op.visible_stride = T;
    }
    op.dropout_index = pair * map;
    attend_head(op, choices, scratch);
    matmul_map(latent_context, w_uv, context, pair);  // (A_i c_kv) W_UV_i: (T, d_c) @ (d_c, d_v)
  }
  // (B, h, T, d_v) -> (B, T, h*d_v) -> out (B, T, out_dim)
  const Tensor concat = context.transpose(1, 2).contiguous("concat_absorbed").view({B, T, h * dv});
  const Tensor out = c.output_proj ? linear(concat, in.w_o, in.b_o, "out_absorbed") : concat;
  const double pairs = double(B * h);
  const double flops =
      pairs * (2.0 * T * dk * dc + 2.0 * map * dc + (dr > 0 ? map * (2.0 * dr + 1) : 0) +
               7.0 * map + 2.0 * map * dc + 2.0 * T * dc * dv) +
      (c.output_proj ? 2.0 * B * T * h * dv * c.d_model : 0);
  return builder.add("out_absorbed", out, flops);
}

}  // namespace attnlab
