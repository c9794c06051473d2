#include "core/model/forward.hpp"

#include "core/attention/head_attention.hpp"
#include "core/kernels/blas_threads.hpp"
#include "core/kernels/linear.hpp"
#include "core/kernels/parallel.hpp"
#include "core/model/errors.hpp"
#include "core/model/masks.hpp"
#include "core/trace/plan.hpp"
#include "core/trace/plan_sizes.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

namespace {

const Scalar* data_or_null(const Tensor& t) {
  return t.storage() ? t.data() : nullptr;
}

}  // namespace

double forward_attention_flops(const Config& c) {
  return 2.0 * double(c.batch) * double(c.n_heads) * double(c.tokens()) * double(c.key_tokens()) *
         double(c.head_dim_k() + c.head_dim_v());
}

Tensor forward(const Config& c, const Inputs& in, const RunControl& control) {
  use_single_threaded_blas();
  const std::vector<ConfigIssue> issues = validate_settings(c);
  if (!issues.empty()) throw UserError(describe(issues));
  if (const int64_t need = forward_bytes_needed(c); need > c.memory_cap_bytes) {
    throw UserError("forward() needs " + format_bytes(double(need)) + " (" + std::to_string(need) +
                    " bytes) for X, the weights, Q, K, V, a score map per thread and the output, "
                    "above the cap of " +
                    format_bytes(double(c.memory_cap_bytes)) + ": lower B, T or the widths");
  }
  if (c.mistake != Mistake::None) throw UserError("forward() computes the correct path only");
  if (c.latent())
    throw UserError(
        "the production path computes multi-head, grouped-query and cross-attention; "
        "latent attention (MLA) is computed by the traced run");
  const Plan plan = plan_for(c);  // what runs: RoPE, and every head's attention choices
  const int64_t B = c.batch, T = c.tokens(), d_in = c.input_dim(), h = c.n_heads;
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v();
  // K and V: n_kv heads (query head hd reads K/V head hd / g), from x_kv's T_k rows when crossed.
  const int64_t Tk = c.key_tokens(), hk = c.kv_heads(), g = c.group_size();
  const int64_t d_kv = c.kv_input_dim();
  const Tensor& x_kv = c.cross() ? in.x_kv : in.x;
  const int64_t rows = B * T, qk_width = h * dk, v_width = h * dv;
  const int64_t k_width = hk * dk, kv_v_width = hk * dv;

  // (B*T, h*d) and (B*T_k, n_kv*d): row b*T + t holds every head's slice side by side.
  Values q(size_t(rows * qk_width)), k(size_t(B * Tk * k_width)), v(size_t(B * Tk * kv_v_width));
  linear(in.x.data(), rows, d_in, in.w_q.data(), qk_width, data_or_null(in.b_q), q.data());
  control.check_cancel();
  linear(x_kv.data(), B * Tk, d_kv, in.w_k.data(), k_width, data_or_null(in.b_k), k.data());
  control.check_cancel();
  linear(x_kv.data(), B * Tk, d_kv, in.w_v.data(), kv_v_width, data_or_null(in.b_v), v.data());
  control.check_cancel();
  if (plan.rotate) {  // Llama's RoPE: every head's q and k turned by its token's position
    rotate_half_rows(q.data(), rows, T, qk_width, dk, in.rope_inv_freq.data());
    rotate_half_rows(k.data(), B * Tk, Tk, k_width, dk, in.rope_inv_freq.data());
  }

  const AttentionChoices choices = attention_choices(plan);
  const std::vector<uint8_t> visible =
      choices.mask ? visibility(c.mask, B, T, Tk) : std::vector<uint8_t>{};  // (B, T, T_k)
  Values concat(size_t(rows * v_width));                                     // (B, T, h*d_v)
  parallel_for(B * h, forward_attention_flops(c), [&](int64_t begin, int64_t end) {
    HeadScratch scratch;  // this thread's (T, T_k) map
    for (int64_t pair = begin; pair < end && !control.cancel_requested(); ++pair) {
      const int64_t b = pair / h, hd = pair % h, kv = hd / g;
      // Head hd of sequence b: (T, d) with rows h*d apart, as q.view(...).transpose(1, 2) reads;
      // its K/V head kv: (T_k, d) with rows n_kv*d apart; its context lands in concat's layout.
      HeadOperands<Scalar> op{q.data() + b * T * qk_width + hd * dk,
                              qk_width,
                              k.data() + b * Tk * k_width + kv * dk,
                              k_width,
                              v.data() + b * Tk * kv_v_width + kv * dv,
                              kv_v_width,
                              concat.data() + b * T * v_width + hd * dv,
                              v_width,
                              T,
                              Tk,
                              dk,
                              dv,
                              b,
                              hd};
      if (choices.bias) {  // ALiBi: this head's (T, T_k) distance bias
        op.bias = in.alibi_bias.data() + hd * T * Tk;
        op.bias_stride = Tk;
      }
      if (choices.mask) {
        op.visible = visible.data() + b * T * Tk;
        op.visible_stride = Tk;
      }
      op.dropout_index = pair * T * Tk;
      attend_head(op, choices, scratch);
    }
  });
  control.check_cancel();  // the loop above stops early when asked; its result is incomplete

  if (!c.output_proj) {
    Tensor out = Tensor::zeros("out", {B, T, v_width});
    out.storage()->values = std::move(concat);
    return out;
  }
  Tensor out = Tensor::empty("out", {B, T, c.d_model});
  linear(concat.data(), rows, v_width, in.w_o.data(), c.d_model, data_or_null(in.b_o), out.data());
  return out;
}

}  // namespace attnlab
