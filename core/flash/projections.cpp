#include "core/flash/projections.hpp"

#include "core/kernels/linear.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

namespace {

const Scalar* data_or_null(const Tensor& t) {
  return t.storage() ? t.data() : nullptr;
}

}  // namespace

Projections project_qkv(const Config& c, const Inputs& in) {
  const int64_t B = c.batch, T = c.tokens(), Tk = c.key_tokens(), hk = c.kv_heads();
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v();
  const Tensor& x_kv = c.cross() ? in.x_kv : in.x;
  Projections p;
  p.q_width = c.n_heads * dk;
  p.k_width = hk * dk;
  p.v_width = hk * dv;
  p.q.resize(size_t(B * T * p.q_width));
  p.k.resize(size_t(B * Tk * p.k_width));
  p.v.resize(size_t(B * Tk * p.v_width));
  linear(in.x.data(), B * T, c.input_dim(), in.w_q.data(), p.q_width, data_or_null(in.b_q),
         p.q.data());
  linear(x_kv.data(), B * Tk, c.kv_input_dim(), in.w_k.data(), p.k_width, data_or_null(in.b_k),
         p.k.data());
  linear(x_kv.data(), B * Tk, c.kv_input_dim(), in.w_v.data(), p.v_width, data_or_null(in.b_v),
         p.v.data());
  if (c.rotary()) {  // Llama's RoPE: every head's q and k turned by its token's position
    rotate_half_rows(p.q.data(), B * T, T, p.q_width, dk, in.rope_inv_freq.data());
    rotate_half_rows(p.k.data(), B * Tk, Tk, p.k_width, dk, in.rope_inv_freq.data());
  }
  if (c.alibi() && in.alibi_bias.has_values()) p.bias = in.alibi_bias.data();
  if (c.alibi() && !p.bias) p.alibi_slopes = alibi_slopes(c.n_heads);
  return p;
}

HeadOperands<Scalar> head_operands(const Config& c, const Projections& p, int64_t b, int64_t hd,
                                   Scalar* out, int64_t out_stride) {
  const int64_t T = c.tokens(), Tk = c.key_tokens(), kv = hd / c.group_size();
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v();
  HeadOperands<Scalar> op{p.q.data() + b * T * p.q_width + hd * dk,
                          p.q_width,
                          p.k.data() + b * Tk * p.k_width + kv * dk,
                          p.k_width,
                          p.v.data() + b * Tk * p.v_width + kv * dv,
                          p.v_width,
                          out,
                          out_stride,
                          T,
                          Tk,
                          dk,
                          dv,
                          b,
                          hd};
  if (p.bias) {  // head hd's (T, T_k) map of the (h, T, T_k) bias
    op.bias = p.bias + hd * T * Tk;
    op.bias_stride = Tk;
  }
  if (!p.alibi_slopes.empty()) op.alibi_slope = p.alibi_slopes[size_t(hd)];
  return op;
}

}  // namespace attnlab
