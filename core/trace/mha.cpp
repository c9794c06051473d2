// The batched path: one projection GEMM per Q/K/V, heads split off with view + transpose (no
// copies), attention per (batch, head) read through the real strides, concat by transpose +
// contiguous + view, then the output projection. Every intermediate goes into the trace. What
// runs is the plan's (core/trace/plan.hpp): this file only computes it.
#include "core/trace/mha.hpp"

#include <cctype>
#include <limits>

#include "core/attention/head_attention.hpp"
#include "core/kernels/batched_ops.hpp"
#include "core/kernels/blas_threads.hpp"
#include "core/kernels/linear.hpp"
#include "core/kernels/parallel.hpp"
#include "core/model/errors.hpp"
#include "core/model/masks.hpp"
#include "core/model/tokenizer.hpp"
#include "core/position/rope_alibi.hpp"
#include "core/trace/diagnostics.hpp"
#include "core/trace/plan.hpp"
#include "core/trace/plan_sizes.hpp"
#include "core/trace/trace_builder.hpp"
#include "core/variants/kv_cache_decode.hpp"
#include "core/variants/latent_attention.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

namespace {

class BatchedRun {
 public:
  BatchedRun(const Plan& plan, const Inputs& inputs, const RunControl& control, Trace& trace)
      : p_(plan),
        c_(plan.config),
        in_(inputs),
        control_(control),
        trace_(trace),
        builder_(plan, trace),
        B_(c_.batch),
        T_(c_.tokens()),
        h_(c_.n_heads),
        dk_(c_.head_dim_k()),
        dv_(c_.head_dim_v()),
        rope_(c_.latent() ? c_.rope_dim : 0),
        compute_(!c_.shape_only) {}

  void run() {
    const Tensor x = builder_.add("x", in_.x);
    if (!in_.labels.words.empty()) trace_.records.back().formula = in_.labels.words;
    const Tensor x_kv = c_.cross() ? builder_.add("x_kv", in_.x_kv) : x;
    step_done(1);
    const Tensor q_source = c_.q_latent > 0 ? project(x, in_.w_dq, {}, "c_q") : x;
    const Tensor kv_source = c_.latent() ? project(x, in_.w_dkv, {}, "c_kv") : x_kv;
    Tensor q, k, v;
    if (p_.fused_qkv) {  // one GEMM, then each projection a column block of it: views
      const Tensor qkv = project(x, parameter("w_qkv"), parameter("b_qkv"), "qkv");
      const int64_t wq = h_ * dk_, wk = c_.kv_heads() * dk_, wv = c_.kv_heads() * dv_;
      q = builder_.add("q", qkv.narrow(2, 0, wq));  // (B, T, h*d_k), strides (T*W, W, 1)
      k = builder_.add("k", qkv.narrow(2, wq, wk));
      v = builder_.add("v", qkv.narrow(2, wq + wk, wv));
    } else {
      q = project(q_source, in_.w_q, in_.b_q, "q");
      k = project(kv_source, p_.shared_qk ? in_.w_q : in_.w_k, p_.shared_qk ? in_.b_q : in_.b_k,
                  "k");
      v = project(kv_source, in_.w_v, in_.b_v, "v");
    }
    Tensor q_rope, k_rope;
    if (rope_ > 0) {
      q_rope = project(q_source, in_.w_qr, {}, "q_rope", rope_);
      k_rope = project(x, in_.w_kr, {}, "k_rope", rope_);
    }
    step_done(2);
    const int64_t Tk = c_.key_tokens(), hk = c_.kv_heads();
    Tensor q_heads = builder_.add("q_split", q.view({B_, T_, h_, dk_}));
    Tensor k_heads = builder_.add("k_split", k.view({B_, Tk, hk, dk_}));
    Tensor v_heads = builder_.add("v_split", v.view({B_, Tk, hk, dv_}));
    if (rope_ > 0) q_rope = builder_.add("q_rope_split", q_rope.view({B_, T_, h_, rope_}));
    step_done(3);
    if (p_.heads_transposed) {  // (B, T, h, d) -> (B, h, T, d): only the strides swap
      q_heads = builder_.add("q_heads", q_heads.transpose(1, 2));
      k_heads = builder_.add("k_heads", k_heads.transpose(1, 2));
      v_heads = builder_.add("v_heads", v_heads.transpose(1, 2));
    }
    if (p_.rotate) {  // Llama's RoPE, before GQA's expand: the cache would hold the turned keys
      q_heads = rotate(q_heads, "q_rot");
      k_heads = rotate(k_heads, "k_rot");
    }
    if (c_.grouped()) {
      k_heads = expand_groups(k_heads, "k");
      v_heads = expand_groups(v_heads, "v");
    }
    if (rope_ > 0) {
      q_rope = builder_.add("q_rope_heads", q_rope.transpose(1, 2));
      // (B, T, d_rope) -> (B, 1, T, d_rope) -> (B, h, T, d_rope), stride 0 on h
      k_rope = builder_.add("k_rope_heads", k_rope.unsqueeze(1).expand({B_, h_, T_, rope_}));
      q_heads = join_rope(q_heads, q_rope, "q_full");
      k_heads = join_rope(k_heads, k_rope, "k_full");
    }
    step_done(4);
    Tensor context = ablate(attend(q_heads, k_heads, v_heads));
    step_done(5);
    const Tensor concat = concatenate(context);
    if (trace_.failure.failed) return;
    step_done(6);
    output_project(concat);
    beside_the_forward_pass();
    step_done(7);
  }

 private:
  // [SECTION] project: (B, T, d_in) @ (d_in, width) -> (B, T, width); with rotary > 0 each
  // rotary-wide chunk of a row is then rotated by its token's position (MLA's RoPE parts).
  Tensor project(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& name,
                 int64_t rotary = 0) {
    const int64_t rows = x.size(0) * x.size(1), d_in = x.size(2), width = w.size(1);
    Tensor out = Tensor::empty(name, {x.size(0), x.size(1), width}, compute_);
    if (compute_) {
      linear(x.data(), rows, d_in, w.data(), width, b.storage() ? b.data() : nullptr, out.data());
      if (rotary > 0) rotate_by_position(out, rotary);
    }
    const double flops = 2.0 * rows * d_in * width + (b.storage() ? double(rows * width) : 0) +
                         (rotary > 0 ? rotation_flops(out.shape()) : 0);
    builder_.add(name, out, flops);
    check_cancel();
    return out;
  }

  // A parameter record's tensor (fused QKV's w_qkv, b_qkv); undefined when the trace has none.
  Tensor parameter(const std::string& name) const {
    for (const TensorRecord& r : trace_.parameters)
      if (r.name == name) return r.tensor;
    return Tensor();
  }

  // [SECTION] RoPE (rotate-half): (B, h|n_kv, T, d_k) read through the transpose's strides ->
  // a new contiguous (B, h|n_kv, T, d_k), each token's pairs (i, i + d_k/2) turned by its position.
  Tensor rotate(const Tensor& heads, const std::string& name) {
    const Tensor turned = rotate_half(heads, in_.rope_inv_freq, name, 0, compute_);
    check_cancel();
    return builder_.add(name, turned, rotation_flops(turned.shape()));
  }

  // [SECTION] GQA/MQA: (B, n_kv, T_k, d) -> expand (B, n_kv, g, T_k, d), a view with stride 0 on
  // g -> reshape (B, h, T_k, d): a copy, unless n_kv = 1 (then still a view, stride 0 on h).
  Tensor expand_groups(const Tensor& kv_heads, const std::string& n) {
    const int64_t hk = kv_heads.size(1), g = c_.group_size(), Tk = kv_heads.size(2);
    const int64_t d = kv_heads.size(3);
    const Tensor grouped =
        builder_.add(n + "_grouped", kv_heads.unsqueeze(2).expand({B_, hk, g, Tk, d}));
    const Tensor expanded = grouped.reshape({B_, h_, Tk, d}, n + "_expanded");
    check_cancel();
    return builder_.add(n + "_expanded", expanded, 0);
  }

  // [SECTION] MLA: torch.cat([nope, rope], -1): (B, h, T, d_k) + (B, h, T, d_rope) -> (B, h, T,
  // d_k + d_rope), read through both inputs' strides.
  Tensor join_rope(const Tensor& nope, const Tensor& rope, const std::string& name) {
    const int64_t Tn = nope.size(2), dn = nope.size(3), dr = rope.size(3);
    Tensor joined = Tensor::empty(name, {B_, h_, Tn, dn + dr}, compute_);
    if (compute_) {
      Scalar* out = joined.data();
      for (int64_t b = 0; b < B_; ++b)
        for (int64_t hd = 0; hd < h_; ++hd)
          for (int64_t t = 0; t < Tn; ++t, out += dn + dr) {
            for (int64_t e = 0; e < dn; ++e) out[e] = nope.at({b, hd, t, e});
            for (int64_t e = 0; e < dr; ++e) out[dn + e] = rope.at({b, hd, t, e});
          }
    }
    return builder_.add(name, joined);
  }

  // [SECTION] attend: scores, scale, mask, softmax, [dropout], weights @ V.
  // q, k, v are (L0, L1, T', d): (B, h, T, d) in a correct run, (B, T, h, d) when the transpose
  // was forgotten; the maps are (L0, L1, T', T'). Every sub-step of one map runs while that map
  // is in cache, and each writes its own recorded tensor (or is a view when it changes nothing).
  Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v) {
    const Shape maps{q.size(0), q.size(1), q.size(2), k.size(2)};
    const int64_t dq = q.size(3);  // d_k, or d_k + d_rope with MLA's rotary part
    const int64_t pairs = maps[0] * maps[1], M = maps[2], N = maps[3];
    const double map_elements = double(pairs) * M * N;
    Tensor scores = Tensor::empty("scores", maps, compute_);
    Tensor scaled = p_.scale ? Tensor::empty("scaled", maps, compute_) : scores;
    Tensor biased = p_.alibi ? Tensor::empty("biased", maps, compute_) : scaled;
    Tensor masked = p_.mask_before_softmax ? Tensor::empty("masked", maps, compute_) : biased;
    Tensor softmaxed =
        Tensor::empty(p_.mask_after_softmax ? "weights_before_mask" : "weights", maps, compute_);
    Tensor weights = p_.mask_after_softmax ? Tensor::empty("weights", maps, compute_) : softmaxed;
    Tensor used = p_.drop_weights ? Tensor::empty("weights_dropout", maps, compute_) : weights;
    const Shape context_shape{maps[0], maps[1], M, dv_};
    Tensor attended = Tensor::empty("context", context_shape, compute_);
    Tensor context = p_.drop_context ? Tensor::empty("context", context_shape, compute_) : attended;

    if (compute_) {
      const std::vector<uint8_t> visible =
          p_.mask_fits ? visibility(c_.mask, B_, M, N) : std::vector<uint8_t>{};
      // The per-head kernel's choices (core/attention/head_attention.hpp), from the same plan; the
      // sub-steps below are its steps one record at a time, with the plan's mistakes.
      const AttentionChoices choices = attention_choices(p_);
      const auto factor = static_cast<Scalar>(choices.scale);
      const Scalar fill = p_.mask_fill_zero ? 0.0f : -std::numeric_limits<Scalar>::infinity();
      const Tensor k_t = k.transpose(-2, -1);
      const int64_t map = M * N;
      parallel_for(
          pairs, map_elements * (2.0 * (dq + dv_) + 10.0), [&](int64_t begin, int64_t end) {
            for (int64_t pair = begin; pair < end && !cancel_requested(); ++pair) {
              const uint8_t* seen =
                  p_.mask_fits ? visible.data() + (pair / maps[1]) * M * N : nullptr;
              matmul_map(q, k_t, scores, pair);  // (T, d_k) @ (d_k, T)
              if (p_.scale)
                scale_values(map_data(scores, pair), factor, map_data(scaled, pair), map);
              if (p_.alibi)  // + alibi_bias[h]: (T, T_k), the same for every sequence
                add_alibi(map_data(scaled, pair), map_data(biased, pair), N, M, N, 0, 0,
                          in_.alibi_bias.data() + (pair % maps[1]) * map, N, 0.0);
              if (p_.mask_before_softmax)
                mask_map(map_data(biased, pair), seen, fill, map_data(masked, pair), M, N);
              if (p_.softmax_over_queries) {
                softmax_columns(map_data(masked, pair), map_data(softmaxed, pair), M, N);
              } else {
                softmax_rows(map_data(masked, pair), map_data(softmaxed, pair), M, N);
              }
              if (p_.mask_after_softmax)
                mask_map(map_data(softmaxed, pair), seen, 0.0f, map_data(weights, pair), M, N);
              if (p_.drop_weights) {
                dropout_values(map_data(weights, pair), choices.dropout, choices.dropout_seed,
                               pair * map, map_data(used, pair), map);
              }
              matmul_map(used, v, attended, pair);  // (T, T) @ (T, d_v)
              if (p_.drop_context) {
                dropout_values(map_data(attended, pair), p_.context_dropout, c_.dropout_seed,
                               pair * M * dv_, map_data(context, pair), M * dv_);
              }
            }
          });
      check_cancel();
    }
    // Records in the order the sub-steps run, each named and worded by the plan.
    builder_.add("scores", scores, 2.0 * map_elements * dq);
    builder_.add("scaled", scaled, p_.scale ? map_elements : 0);
    if (p_.alibi) builder_.add("biased", biased, map_elements);
    builder_.add("masked", masked, p_.mask_before_softmax ? map_elements : 0);
    builder_.add(p_.mask_after_softmax ? "weights_before_mask" : "weights", softmaxed,
                 5.0 * map_elements);
    if (p_.mask_after_softmax) builder_.add("weights", weights, map_elements);
    if (p_.drop_weights) builder_.add("weights_dropout", used, map_elements);
    builder_.add(p_.drop_context ? "context_before_dropout" : "context", attended,
                 2.0 * map_elements * dv_);
    if (p_.drop_context) builder_.add("context", context, double(context.numel()));
    return context;
  }

  // [SECTION] ablation: the context of switched-off heads set to zero before concat.
  Tensor ablate(const Tensor& context) {
    if (p_.ablated.empty()) return context;
    Tensor ablated = Tensor::empty("context_ablated", context.shape(), compute_);
    if (compute_) {
      std::copy_n(context.data(), context.numel(), ablated.data());
      // Through a (B, h, T, d_v) view, whichever axis the heads are in.
      Tensor by_head = p_.heads_transposed ? ablated : ablated.transpose(1, 2);
      for (int64_t hd : p_.ablated)
        for (int64_t b = 0; b < B_; ++b)
          for (int64_t t = 0; t < T_; ++t)
            for (int64_t e = 0; e < dv_; ++e) by_head.at({b, hd, t, e}) = 0.0f;
    }
    return builder_.add("context_ablated", ablated);
  }

  // [SECTION] concat: transpose back (a view), contiguous (the one copy), view to (B, T, h*d_v).
  Tensor concatenate(const Tensor& context) {
    const Shape concat_shape{B_, T_, h_ * dv_};
    if (p_.concat == Plan::ConcatPath::ViewOnly)
      return builder_.add("concat", context.view(concat_shape));
    const Tensor back = builder_.add("context_t", context.transpose(1, 2));
    if (p_.concat == Plan::ConcatPath::ViewFails) {
      try {
        return builder_.add("concat", back.view(concat_shape));
      } catch (const ViewError& e) {
        trace_.failure = {true, Stage::Concat,
                          std::string("RuntimeError: ") + e.what() +
                              " -- raised by out.view(B, T, h * d_v) in the concat stage"};
        return Tensor();
      }
    }
    const Tensor copied = builder_.add("context_contiguous", back.contiguous("concat"));
    check_cancel();
    return builder_.add("concat", copied.view(concat_shape));
  }

  // [SECTION] output projection: (B, T, h*d_v) @ (h*d_v, d_model) -> (B, T, d_model)
  void output_project(const Tensor& concat) {
    if (!c_.output_proj) {
      builder_.add("out", concat);
      return;
    }
    const int64_t width_in = h_ * dv_, width_out = c_.d_model;
    Tensor out = Tensor::empty("out", {B_, T_, width_out}, compute_);
    if (compute_) {
      linear(concat.data(), B_ * T_, width_in, in_.w_o.data(), width_out,
             in_.b_o.storage() ? in_.b_o.data() : nullptr, out.data());
    }
    builder_.add("out", out,
                 2.0 * B_ * T_ * width_in * width_out +
                     (in_.b_o.storage() ? double(B_ * T_ * width_out) : 0.0));
  }

  // [SECTION] the plan's passes beside the forward pass: decoding with a KV cache (its rows must
  // be the forward pass's), MLA's absorbed form (its output must be `out`).
  void beside_the_forward_pass() {
    if (p_.decode_prompt > 0) trace_.decode = decode_with_cache(p_, in_, builder_, control_);
    if (p_.absorbed) {
      const Tensor absorbed = absorbed_latent_attention(p_, in_, builder_);
      trace_.absorbed.max_abs_difference = max_abs_difference(builder_.recorded("out"), absorbed);
      check_cancel();
    }
  }

  bool cancel_requested() const { return control_.cancel_requested(); }
  void check_cancel() const { control_.check_cancel(); }
  void step_done(int stages_done) const {
    check_cancel();
    control_.report(double(stages_done) / kStageCount);
  }

  const Plan& p_;
  const Config& c_;
  const Inputs& in_;
  const RunControl& control_;
  Trace& trace_;
  TraceBuilder builder_;
  const int64_t B_, T_, h_, dk_, dv_;
  const int64_t rope_;  // MLA's d_rope; 0 without a rotary part
  const bool compute_;
};

TensorRecord parameter_record(const std::string& name, const Tensor& t, Axes axes) {
  TensorRecord r;
  r.name = name;
  r.stage = Stage::Project;
  for (size_t i = 0; i < axes.size() && i < t.shape().size(); ++i) axes[i].size = t.shape()[i];
  r.axes = std::move(axes);
  r.tensor = t;
  r.storage_owner = name;
  r.formula = "parameter";
  r.pytorch = "self." + std::string(1, char(std::toupper(name[0]))) + name.substr(1);
  if (name == "rope_inv_freq") {  // a buffer, not a learned weight
    r.formula = "theta^(-2i/d_k), i < d_k/2 (or the model's own)";
    r.pytorch = "self.rotary_emb.inv_freq";
  }
  if (name == "pos") {  // word order: the table added to the toy embeddings
    r.stage = Stage::Input;
    r.formula = "position table: row t added to token t's embedding";
    r.pytorch = "self.pos[:T]";
  }
  if (name == "alibi_bias") {  // a buffer: -m_h |t - s|
    r.stage = Stage::Attend;
    r.formula = "ALiBi: -m_h |t - s|, m_h = 2^(-8(h+1)/H)";
    r.pytorch = "self.alibi_bias[:, :T, :T]";
  }
  r.bytes = t.numel() * static_cast<int64_t>(sizeof(Scalar));
  return r;
}

// [W_q | W_k | W_v] (d_in, h*d_k + n_kv*(d_k + d_v)), or their biases joined the same way.
Tensor join_columns(const std::vector<const Tensor*>& parts, const std::string& name,
                    bool compute) {
  const int64_t rows = parts[0]->dim() == 2 ? parts[0]->size(0) : 1;
  int64_t width = 0;
  for (const Tensor* t : parts) width += t->size(-1);
  Tensor joined = parts[0]->dim() == 2 ? Tensor::empty(name, {rows, width}, compute)
                                       : Tensor::empty(name, {width}, compute);
  if (!compute) return joined;
  int64_t column = 0;
  for (const Tensor* t : parts) {
    const std::vector<Scalar> values = t->to_vector();
    const int64_t w = t->size(-1);
    for (int64_t r = 0; r < rows; ++r)
      std::copy(values.begin() + r * w, values.begin() + (r + 1) * w,
                joined.data() + r * width + column);
    column += w;
  }
  return joined;
}

void fill_parameters(const Plan& plan, const Inputs& given, Trace& trace) {
  const Config& c = plan.config;
  auto add = [&](const std::string& name, const Tensor& t, Axes axes) {
    if (t.storage()) trace.parameters.push_back(parameter_record(name, t, std::move(axes)));
  };
  Inputs in = given;
  if (plan.fused_qkv) {
    // GPT-2's c_attn: one weight (d_in, h*d_k + n_kv*(d_k + d_v)) and one bias for q | k | v,
    // listed instead of the six they join (undefined below, so not added).
    const Axis fused{AxisKind::Feature, fused_symbol(c), 0, 1};
    const bool compute = !c.shape_only;
    add("w_qkv", join_columns({&in.w_q, &in.w_k, &in.w_v}, "w_qkv", compute),
        {{AxisKind::Feature, "d_in", 0, 1}, fused});
    if (c.bias) add("b_qkv", join_columns({&in.b_q, &in.b_k, &in.b_v}, "b_qkv", compute), {fused});
    in.w_q = in.w_k = in.w_v = in.b_q = in.b_k = in.b_v = Tensor();
  }
  const int64_t h = c.n_heads, hk = c.kv_heads();
  const auto f = [](const char* symbol, int64_t heads = 1) {
    return Axis{AxisKind::Feature, symbol, 0, heads};
  };
  const Axis d_model = f("d_model"), values = f("h*d_v", h);
  const Axis q_from = f(c.q_latent > 0 ? "d_c'" : "d_in");
  const Axis kv_from = f(c.latent() ? "d_c" : c.cross() ? "d_in_kv" : "d_in");
  const Axis kv_keys = c.grouped() ? f("n_kv*d_k", hk) : f("h*d_k", h);
  const Axis kv_values = c.grouped() ? f("n_kv*d_v", hk) : values;
  add("w_q", in.w_q, {q_from, f("h*d_k", h)});
  add("w_k", in.w_k, {kv_from, kv_keys});
  add("w_v", in.w_v, {kv_from, kv_values});
  add("w_o", in.w_o, {values, d_model});
  add("b_q", in.b_q, {f("h*d_k", h)});
  add("b_k", in.b_k, {kv_keys});
  add("b_v", in.b_v, {kv_values});
  add("b_o", in.b_o, {d_model});
  add("w_dkv", in.w_dkv, {f("d_in"), f("d_c")});
  add("w_dq", in.w_dq, {f("d_in"), f("d_c'")});
  add("w_qr", in.w_qr, {q_from, f("h*d_rope", h)});
  add("w_kr", in.w_kr, {f("d_in"), f("d_rope")});
  add("rope_inv_freq", in.rope_inv_freq, {f("d_k/2")});
  add("pos", in.pos, {{AxisKind::Token, "T", 0, 1}, f("d_in")});
  add("alibi_bias", in.alibi_bias,
      {{AxisKind::Head, "h", 0, 1}, {AxisKind::Token, "T", 0, 1}, {AxisKind::Key, "T", 0, 1}});
}

// Token labels: the sentence's, or x0, x1, ... when X came from a file without a sentence.
std::vector<std::string> token_labels(const Config& c, const Inputs& inputs) {
  if (int64_t(inputs.labels.tokens.size()) == c.tokens()) return inputs.labels.tokens;
  if (!inputs.x.storage() || !c.sentence.empty()) return tokens_for(c.sentence, c.tokens());
  std::vector<std::string> labels;
  for (int64_t t = 0; t < c.tokens(); ++t) labels.push_back("x" + std::to_string(t));
  return labels;
}

// Cross-attention's key labels: the key/value sentence's, or kv0, kv1, ... for X_kv from a file.
std::vector<std::string> key_token_labels(const Config& c, const Inputs& inputs) {
  if (!c.cross()) return {};
  if (!inputs.x_kv.storage() || !c.sentence_kv.empty())
    return tokens_for(c.sentence_kv, c.key_tokens());
  std::vector<std::string> labels;
  for (int64_t t = 0; t < c.key_tokens(); ++t) labels.push_back("kv" + std::to_string(t));
  return labels;
}

}  // namespace

Trace run(const Config& config, const Inputs& inputs, const RunControl& control) {
  use_single_threaded_blas();
  const std::vector<ConfigIssue> issues = validate(config);
  if (!issues.empty()) throw UserError(describe(issues));
  const Plan plan = plan_for(config);
  Trace trace;
  trace.config = config;
  trace.shape_only = config.shape_only;
  trace.tokens = token_labels(config, inputs);
  trace.tokens_kv = key_token_labels(config, inputs);
  trace.counters = parameter_counters(config);  // FLOPs and bytes added record by record
  trace.diagnostics.notices = notices_for(config);
  for (std::string& notice : plan_notices(plan))
    trace.diagnostics.notices.push_back(std::move(notice));
  const Inputs complete = config.shape_only
                              ? shape_only_inputs(config)
                              : complete_inputs(config, trace.tokens, inputs, trace.tokens_kv);
  fill_parameters(plan, complete, trace);
  BatchedRun(plan, complete, control, trace).run();
  if (!config.shape_only) diagnose(trace);  // the weights exist even when concat failed
  return trace;
}

Inputs trace_inputs(const Trace& trace, const Inputs& given) {
  return complete_inputs(trace.config, trace.tokens, given, trace.tokens_kv);
}

}  // namespace attnlab
