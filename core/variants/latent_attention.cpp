#include "core/variants/latent_attention.hpp"

#include <cmath>
#include <limits>

#include "core/kernels/attention_math.hpp"
#include "core/kernels/batched_ops.hpp"
#include "core/kernels/linear.hpp"
#include "core/model/masks.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

const char* const kAbsorbedWhy =
    "W_UK joins the query and W_UV the output, so each decode step scores straight against the "
    "cached latent: nothing re-expands the cache into per-head K and V";

namespace {

// y (B, n, d_out) = x (B, n, d_in) @ w (d_in, d_out); x and w contiguous.
Tensor times(const Tensor& x, const Tensor& w, const std::string& name) {
  Tensor y = Tensor::empty(name, {x.size(0), x.size(1), w.size(1)});
  linear(x.data(), x.size(0) * x.size(1), x.size(2), w.data(), w.size(1), nullptr, y.data());
  return y;
}

// Columns [first, first + n) of a contiguous (rows, cols) matrix, as a new contiguous one.
Tensor columns(const Tensor& w, int64_t first, int64_t n, bool transpose) {
  const int64_t rows = w.size(0), cols = w.size(1);
  Tensor out = Tensor::empty("block", transpose ? Shape{n, rows} : Shape{rows, n});
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j)
      out.data()[transpose ? j * rows + r : r * n + j] = w.data()[r * cols + first + j];
  return out;
}

// Rows [first, first + n) of a contiguous (B, T, width) tensor's sequence b, columns
// [col, col + width_part): a contiguous (n, width_part) matrix.
Tensor block(const Tensor& t, int64_t b, int64_t col, int64_t width_part) {
  const int64_t T = t.size(1), width = t.size(2);
  Tensor out = Tensor::empty("block", {T, width_part});
  const Scalar* src = t.data() + b * T * width;
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < width_part; ++j)
      out.data()[i * width_part + j] = src[i * width + col + j];
  return out;
}

// y (rows, d_out) = x (rows, d_in) @ w (d_in, d_out), plain buffers.
void matmul(const Tensor& x, const Tensor& w, Tensor& y) {
  linear(x.data(), x.size(0), x.size(1), w.data(), w.size(1), nullptr, y.data());
}

}  // namespace

TensorRecord absorbed_latent_attention(const Config& c, const Inputs& in) {
  const int64_t B = c.batch, T = c.tokens(), h = c.n_heads, dk = c.head_dim_k(),
                dv = c.head_dim_v(), dc = c.kv_latent, dr = c.rope_dim;
  // The shared inputs, as the trace's path makes them.
  const Tensor c_q = c.q_latent > 0 ? times(in.x, in.w_dq, "c_q") : in.x;  // (B, T, d_c' | d_in)
  const Tensor q = times(c_q, in.w_q, "q");                                // (B, T, h*d_k)
  const Tensor c_kv = times(in.x, in.w_dkv, "c_kv");                       // (B, T, d_c)
  Tensor q_rope, k_rope;
  if (dr > 0) {
    q_rope = times(c_q, in.w_qr, "q_rope");   // (B, T, h*d_rope)
    k_rope = times(in.x, in.w_kr, "k_rope");  // (B, T, d_rope)
    rotate_by_position(q_rope, dr);
    rotate_by_position(k_rope, dr);
  }
  const std::vector<uint8_t> visible = visibility(c.mask, B, T);
  const auto factor = static_cast<Scalar>(1.0 / std::sqrt(double(c.score_dim())));
  const int64_t map = T * T;
  Tensor concat = Tensor::empty("concat", {B, T, h * dv});  // (B, T, h*d_v)
  Tensor scores = Tensor::empty("scores", {T, T});
  Tensor rope_scores = Tensor::empty("rope_scores", {T, T});
  Tensor weights = Tensor::empty("weights", {T, T});
  Tensor q_absorbed = Tensor::empty("q_absorbed", {T, dc});
  Tensor latent_context = Tensor::empty("latent_context", {T, dc});
  Tensor context = Tensor::empty("context", {T, dv});
  for (int64_t hd = 0; hd < h; ++hd) {
    const Tensor w_uk_t = columns(in.w_k, hd * dk, dk, true);  // W_UK_i^T (d_k, d_c)
    const Tensor w_uv = columns(in.w_v, hd * dv, dv, false);   // W_UV_i (d_c, d_v)
    const bool off = hd < int64_t(c.ablated_heads.size()) && c.ablated_heads[size_t(hd)];
    for (int64_t b = 0; b < B; ++b) {
      const Tensor latent = block(c_kv, b, 0, dc);           // c_kv of sequence b (T, d_c)
      const Tensor latent_t = columns(latent, 0, dc, true);  // (d_c, T)
      matmul(block(q, b, hd * dk, dk), w_uk_t, q_absorbed);  // q_i W_UK_i^T (T, d_c)
      matmul(q_absorbed, latent_t, scores);                  // (T, d_c) @ (d_c, T)
      if (dr > 0) {
        const Tensor k_rope_t = columns(block(k_rope, b, 0, dr), 0, dr, true);  // (d_rope, T)
        matmul(block(q_rope, b, hd * dr, dr), k_rope_t, rope_scores);
        for (int64_t e = 0; e < map; ++e) scores.data()[e] += rope_scores.data()[e];
      }
      scale_values(scores.data(), factor, scores.data(), map);
      mask_map(scores.data(), visible.data() + b * map, -std::numeric_limits<Scalar>::infinity(),
               scores.data(), T, T);
      softmax_rows(scores.data(), weights.data(), T, T);
      if (c.dropout > 0) {
        dropout_values(weights.data(), c.dropout, c.dropout_seed, (b * h + hd) * map,
                       weights.data(), map);
      }
      matmul(weights, latent, latent_context);  // A_i c_kv (T, d_c)
      matmul(latent_context, w_uv, context);    // (A_i c_kv) W_UV_i (T, d_v)
      Scalar* dst = concat.data() + b * T * h * dv + hd * dv;
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < dv; ++j) dst[i * h * dv + j] = off ? 0 : context.data()[i * dv + j];
    }
  }
  Tensor out = c.output_proj ? times(concat, in.w_o, "out_absorbed") : concat;  // (B, T, out_dim)
  TensorRecord r;
  r.name = "out_absorbed";
  r.stage = Stage::OutputProject;
  r.tensor = out;
  r.axes = {
      {AxisKind::Batch, "B", B, 1},
      {AxisKind::Token, "T", T, 1},
      {AxisKind::Feature, c.output_proj ? "d_model" : "h*d_v", out.size(2), c.output_proj ? 1 : h}};
  r.storage_owner = r.name;
  r.bytes = out.numel() * int64_t(sizeof(Scalar));
  r.formula = "Y = concat_i(softmax((q_i W_UK_i^T) c_kv^T + q_rope_i k_rope^T) c_kv W_UV_i) W_o";
  r.pytorch = "out = absorbed(q @ W_uk.mT, c_kv, W_uv) @ self.W_o  # " + axes_label(r.axes);
  return r;
}

}  // namespace attnlab
