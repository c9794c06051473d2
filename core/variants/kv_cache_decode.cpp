// What runs is the plan's (its prefill and decode steps, named, worded and recorded as every other
// step); this file computes it with the per-head kernel the forward pass uses.
#include "core/variants/kv_cache_decode.hpp"

#include <algorithm>

#include "core/attention/head_attention.hpp"
#include "core/kernels/batched_ops.hpp"
#include "core/kernels/linear.hpp"
#include "core/model/masks.hpp"
#include "core/trace/plan_sizes.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

namespace {

class CachedDecoder {
 public:
  CachedDecoder(const Plan& plan, const Inputs& in, TraceBuilder& builder,
                const RunControl& control)
      : p_(plan),
        c_(plan.config),
        in_(in),
        builder_(builder),
        control_(control),
        B_(c_.batch),
        T_(c_.tokens()),
        h_(c_.n_heads),
        hk_(c_.kv_heads()),
        g_(c_.group_size()),
        dk_(c_.head_dim_k()),
        dv_(c_.head_dim_v()),
        d_in_(c_.input_dim()),
        choices_(attention_choices(plan)),
        visible_(choices_.mask ? visibility(c_.mask, B_, T_) : std::vector<uint8_t>{}) {}

  // Computes every step; what they cost is the plan's (nothing reruns to count).
  DecodeTrace run() {
    const int64_t P = p_.decode_prompt;
    prefill(P);
    for (int64_t i = 0; P + i < T_; ++i) {
      step(i, P + i);
      control_.check_cancel();
    }
    return planned_decode(p_);
  }

 private:
  // [SECTION] prefill: the prompt's K and V, (B, P, n_kv*d) -> the cache (B, n_kv, T, d), a
  // static cache with room for all T tokens; the records are views of its first P slots.
  void prefill(int64_t P) {
    const Tensor prompt = in_.x.narrow(1, 0, P).contiguous("prompt");  // (B, P, d_in)
    k_cache_ = Tensor::zeros("prefill_k_cache", {B_, hk_, T_, dk_});
    v_cache_ = Tensor::zeros("prefill_v_cache", {B_, hk_, T_, dv_});
    // (B, P, n_kv*d_k) -> (B, n_kv, P, d_k), turned by positions 0 .. P-1 with RoPE
    Tensor k = linear(prompt, in_.w_k, in_.b_k, "k").view({B_, P, hk_, dk_}).transpose(1, 2);
    if (p_.rotate) k = rotate_half(k, in_.rope_inv_freq, "k_rot");
    write_cache(k, k_cache_, 0);
    write_cache(linear(prompt, in_.w_v, in_.b_v, "v").view({B_, P, hk_, dv_}).transpose(1, 2),
                v_cache_, 0);
    builder_.add("prefill_k_cache", k_cache_.narrow(2, 0, P),
                 2.0 * B_ * P * d_in_ * hk_ * dk_ + (p_.rotate ? rotation_flops(k.shape()) : 0));
    builder_.add("prefill_v_cache", v_cache_.narrow(2, 0, P), 2.0 * B_ * P * d_in_ * hk_ * dv_);
  }

  // cache[:, :, first:first + n] = kv, kv (B, n_kv, n, d) read through its strides
  static void write_cache(const Tensor& kv, Tensor& cache, int64_t first) {
    for (int64_t b = 0; b < kv.size(0); ++b)
      for (int64_t j = 0; j < kv.size(1); ++j)
        for (int64_t t = 0; t < kv.size(2); ++t)
          for (int64_t e = 0; e < kv.size(3); ++e)
            cache.at({b, j, first + t, e}) = kv.at({b, j, t, e});
  }

  // [SECTION] one decode step: token t alone, attending over the t + 1 cached keys
  void step(int64_t i, int64_t t) {
    const auto name = [i](const char* part) { return decode_name(i, part); };
    const auto add = [&](const char* part, const Tensor& tensor, double flops) {
      return builder_.add(name(part), tensor, flops);
    };
    const int64_t keys = t + 1;
    const Tensor x = add("x", in_.x.narrow(1, t, 1).contiguous(name("x")), 0);  // (B, 1, d_in)
    // (B, 1, h*d_k) -> (B, 1, h, d_k) -> (B, h, 1, d_k); K and V the same with n_kv heads
    const double project_flops = 2.0 * B_ * d_in_;
    Tensor q =
        add("q", linear(x, in_.w_q, in_.b_q, name("q")).view({B_, 1, h_, dk_}).transpose(1, 2),
            project_flops * h_ * dk_);
    Tensor k =
        add("k", linear(x, in_.w_k, in_.b_k, name("k")).view({B_, 1, hk_, dk_}).transpose(1, 2),
            project_flops * hk_ * dk_);
    if (p_.rotate) {  // RoPE: (B, h|n_kv, 1, d_k) turned by the token's position t
      q = add("q_rot", rotate_half(q, in_.rope_inv_freq, name("q_rot"), t), 3.0 * B_ * h_ * dk_);
      k = add("k_rot", rotate_half(k, in_.rope_inv_freq, name("k_rot"), t), 3.0 * B_ * hk_ * dk_);
    }
    const Tensor v =
        add("v", linear(x, in_.w_v, in_.b_v, name("v")).view({B_, 1, hk_, dv_}).transpose(1, 2),
            project_flops * hk_ * dv_);
    write_cache(k, k_cache_, t);
    write_cache(v, v_cache_, t);
    const Tensor cached_k = add("k_cache", k_cache_.narrow(2, 0, keys), 0);  // views of the cache
    const Tensor cached_v = add("v_cache", v_cache_.narrow(2, 0, keys), 0);
    // The (1 x (t + 1)) score row of each head over its K/V head's cache, through the per-head
    // kernel with the forward pass's choices: row t of each map of the forward pass.
    Tensor scores = Tensor::empty(name("scores"), {B_, h_, 1, keys});
    Tensor weights = Tensor::empty(name("weights"), {B_, h_, 1, keys});
    Tensor context = Tensor::empty(name("context"), {B_, h_, 1, dv_});  // switched-off heads: 0
    HeadScratch scratch;
    for (int64_t pair = 0; pair < B_ * h_; ++pair) {
      const int64_t b = pair / h_, hd = pair % h_, kv = hd / g_;
      // q (1, d_k) of head hd; the cache's first t + 1 slots of K/V head kv: (t + 1, d), rows d
      // apart; the context row of head hd.
      HeadOperands<Scalar> op{q.data() + b * q.strides()[0] + hd * q.strides()[1],
                              q.strides()[2],
                              k_cache_.data() + (b * hk_ + kv) * T_ * dk_,
                              dk_,
                              v_cache_.data() + (b * hk_ + kv) * T_ * dv_,
                              dv_,
                              map_data(context, pair),
                              dv_,
                              1,
                              keys,
                              dk_,
                              dv_,
                              b,
                              hd};
      if (choices_.bias) {  // ALiBi: row t of head hd's bias, over the t + 1 cached keys
        op.bias = in_.alibi_bias.data() + (hd * T_ + t) * T_;
        op.bias_stride = T_;
      }
      if (choices_.mask) {  // row t of sequence b's (T, T) visibility
        op.visible = visible_.data() + (b * T_ + t) * T_;
        op.visible_stride = T_;
      }
      op.scores = map_data(scores, pair);
      op.scores_stride = keys;
      op.weights = map_data(weights, pair);
      op.weights_stride = keys;
      attend_head(op, choices_, scratch);
    }
    const double row_elements = double(B_ * h_ * keys);
    add("scores", scores, row_elements * (2.0 * dk_ + 1));
    add("weights", weights, 5.0 * row_elements);
    add("context", context, 2.0 * row_elements * dv_);
    // (B, h, 1, d_v) -> (B, 1, h*d_v) -> out (B, 1, d_out)
    const Tensor concat =
        context.transpose(1, 2).contiguous(name("concat")).view({B_, 1, h_ * dv_});
    if (c_.output_proj) {
      add("out", linear(concat, in_.w_o, in_.b_o, name("out")),
          2.0 * B_ * h_ * dv_ * double(c_.d_model));
    } else {
      add("out", concat, 0);
    }
  }

  const Plan& p_;
  const Config& c_;
  const Inputs& in_;
  TraceBuilder& builder_;
  const RunControl& control_;
  const int64_t B_, T_, h_, hk_, g_, dk_, dv_, d_in_;
  const AttentionChoices choices_;      // the forward pass's: scale, ALiBi, mask, heads off
  const std::vector<uint8_t> visible_;  // (B, T, T): the forward pass's mask
  Tensor k_cache_, v_cache_;            // (B, n_kv, T, d): slot t holds token t's key / value
};

}  // namespace

DecodeTrace decode_with_cache(const Plan& plan, const Inputs& inputs, TraceBuilder& builder,
                              const RunControl& control) {
  return CachedDecoder(plan, inputs, builder, control).run();
}

int64_t kv_cache_bytes(const Config& c, int64_t tokens) {
  return c.batch * c.kv_heads() * tokens * (c.head_dim_k() + c.head_dim_v()) *
         int64_t(sizeof(Scalar));
}

}  // namespace attnlab
