// What runs is the plan's absorbed step, recorded as every other step; this file computes it
// from the forward pass's own tensors with the kernels the forward pass uses.
#include "core/variants/latent_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
  // The forward pass's own q and latent, per head: (B, T, h*d_k) -> (B, h, T, d_k), and c_kv
  // (B, T, d_c) read by every head through a stride of 0: (B, h, T, d_c).
  const Tensor q = builder.recorded("q").view({B, T, h, dk}).transpose(1, 2);
  const Tensor latent = builder.recorded("c_kv").unsqueeze(1).expand({B, h, T, dc});
  const Tensor latent_t = latent.transpose(-2, -1);  // (B, h, d_c, T)
  // Each head's W_UK_i^T (d_k, d_c) and W_UV_i (d_c, d_v): views of W_k, W_v (d_c, h*d).
  const Tensor w_uk_t =
      in.w_k.view({dc, h, dk}).transpose(0, 1).transpose(1, 2).unsqueeze(0).expand({B, h, dk, dc});
  const Tensor w_uv = in.w_v.view({dc, h, dv}).transpose(0, 1).unsqueeze(0).expand({B, h, dc, dv});
  // MLA's rotary parts, as the forward pass rotated them: q_rope (B, h, T, d_rope) and the one
  // rotary key (B, h, d_rope, T).
  Tensor q_rope, k_rope_t;
  if (dr > 0) {
    q_rope = builder.recorded("q_rope").view({B, T, h, dr}).transpose(1, 2);
    k_rope_t = builder.recorded("k_rope").unsqueeze(1).expand({B, h, T, dr}).transpose(-2, -1);
  }
  Tensor q_absorbed = Tensor::empty("q_absorbed", {B, h, T, dc});
  Tensor scores = Tensor::empty("scores", {B, h, T, T});
  Tensor rope_scores = Tensor::empty("rope_scores", {B, h, T, T});
  Tensor weights = Tensor::empty("weights", {B, h, T, T});
  Tensor latent_context = Tensor::empty("latent_context", {B, h, T, dc});
  Tensor context = Tensor::zeros("context", {B, h, T, dv});  // ablated heads stay 0
  const std::vector<uint8_t> visible =
      p.mask_before_softmax ? visibility(c.mask, B, T) : std::vector<uint8_t>{};
  const auto factor = static_cast<Scalar>(1.0 / std::sqrt(double(p.scale_by)));
  const int64_t map = T * T;
  for (int64_t pair = 0; pair < B * h; ++pair) {
    Scalar* s = map_data(scores, pair);
    matmul_map(q, w_uk_t, q_absorbed, pair);         // q_i W_UK_i^T: (T, d_k) @ (d_k, d_c)
    matmul_map(q_absorbed, latent_t, scores, pair);  // (T, d_c) @ (d_c, T)
    if (dr > 0) {
      matmul_map(q_rope, k_rope_t, rope_scores, pair);  // (T, d_rope) @ (d_rope, T)
      const Scalar* r = map_data(rope_scores, pair);
      for (int64_t e = 0; e < map; ++e) s[e] += r[e];
    }
    scale_values(s, factor, s, map);
    if (!visible.empty())
      mask_map(s, visible.data() + (pair / h) * map, -std::numeric_limits<Scalar>::infinity(), s, T,
               T);
    Scalar* w = map_data(weights, pair);
    softmax_rows(s, w, T, T);
    if (p.drop_weights) dropout_values(w, c.dropout, c.dropout_seed, pair * map, w, map);
    if (std::find(p.ablated.begin(), p.ablated.end(), pair % h) != p.ablated.end()) continue;
    matmul_map(weights, latent, latent_context, pair);  // A_i c_kv: (T, T) @ (T, d_c)
    matmul_map(latent_context, w_uv, context, pair);    // (A_i c_kv) W_UV_i: (T, d_c) @ (d_c, d_v)
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
