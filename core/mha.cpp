// The batched path: one projection GEMM per Q/K/V, heads split off with view + transpose (no
// copies), attention per (batch, head) read through the real strides, concat by transpose +
// contiguous + view, then the output projection. Every intermediate goes into the trace.
#include "core/mha.hpp"

#include <cctype>
#include <cmath>
#include <limits>

#include "core/batched_ops.hpp"
#include "core/blas_threads.hpp"
#include "core/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/linear.hpp"
#include "core/masks.hpp"
#include "core/mistakes.hpp"
#include "core/parallel.hpp"
#include "core/tokenizer.hpp"
#include "core/trace_builder.hpp"

namespace attnlab {

namespace {

class BatchedRun {
 public:
  BatchedRun(const Config& config, const Inputs& inputs, const RunControl& control, Trace& trace)
      : c_(config),
        in_(inputs),
        control_(control),
        trace_(trace),
        builder_(trace),
        B_(config.batch),
        T_(config.tokens()),
        h_(config.n_heads),
        dk_(config.head_dim_k()),
        dv_(config.head_dim_v()),
        compute_(!config.shape_only),
        bug_(config.mistake) {}

  void run() {
    const Tensor x =
        builder_.add(Stage::Input,
                     {"x", "", "(B, T, d_in)", "X = token embedding + position encoding",
                      "x  # (B, T, d_in)", 0},
                     in_.x);
    step_done(1);
    const bool shared_qk = bug_ == Mistake::SharedQkProjection;
    const Tensor q = project(x, in_.w_q, in_.b_q, "q", "W_q");
    const Tensor k = project(x, shared_qk ? in_.w_q : in_.w_k, shared_qk ? in_.b_q : in_.b_k, "k",
                             shared_qk ? "W_q" : "W_k");
    const Tensor v = project(x, in_.w_v, in_.b_v, "v", "W_v");
    step_done(2);
    const Tensor q_split = split(q, "q", dk_);
    const Tensor k_split = split(k, "k", dk_);
    const Tensor v_split = split(v, "v", dv_);
    step_done(3);
    Tensor context;
    if (bug_ == Mistake::ForgetTranspose) {
      notice(
          "forget-transpose: the heads stay in axis 2, so attention runs over (B, T, h, d_k) "
          "and each token's heads attend to each other");
      step_done(4);
      context = attend(q_split, k_split, v_split);
    } else {
      const Tensor q_heads = transpose(q_split, "q");
      const Tensor k_heads = transpose(k_split, "k");
      const Tensor v_heads = transpose(v_split, "v");
      step_done(4);
      context = attend(q_heads, k_heads, v_heads);
    }
    context = ablate(context);
    step_done(5);
    const Tensor concat = concatenate(context);
    if (trace_.failure.failed) return;
    step_done(6);
    output_project(concat);
    step_done(7);
  }

 private:
  // [SECTION] project: (B, T, d_in) @ (d_in, h*d) -> (B, T, h*d)
  Tensor project(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& name,
                 const std::string& weight_name) {
    const int64_t d_in = c_.input_dim(), width = w.size(1);
    Tensor out = Tensor::uninitialized(name, {B_, T_, width}, compute_);
    const double flops = 2.0 * B_ * T_ * d_in * width;
    if (compute_) {
      linear(x.data(), B_ * T_, d_in, w.data(), width, b.storage() ? b.data() : nullptr,
             out.data());
    }
    const std::string axes = name != "v" ? "(B, T, h*d_k)" : "(B, T, h*d_v)";
    const std::string bias = b.storage() ? " + b_" + weight_name.substr(2) : "";
    std::string letter = name;
    letter[0] = static_cast<char>(std::toupper(letter[0]));
    const std::string bug = weight_name == "W_q" && name == "k" ? "  (bug: W_k unused)" : "";
    builder_.add(Stage::Project,
                 {name, "", axes, letter + " = X " + weight_name + bias + bug,
                  name + " = x @ " + weight_name + bias + "  # " + axes,
                  flops + (b.storage() ? double(B_ * T_ * width) : 0.0)},
                 out);
    check_cancel();
    return out;
  }

  // [SECTION] split: (B, T, h*d) viewed as (B, T, h, d); same storage, no data moves.
  Tensor split(const Tensor& t, const std::string& name, int64_t d) {
    const std::string dn = name != "v" ? "d_k" : "d_v";
    std::string letter = name;
    letter[0] = static_cast<char>(std::toupper(letter[0]));
    return builder_.add(
        Stage::Split,
        {name + "_split", "", "(B, T, h, " + dn + ")",
         letter + " viewed as h heads of " + dn + " columns each",
         name + " = " + name + ".view(B, T, h, " + dn + ")  # (B, T, h, " + dn + ")", 0},
        t.view({B_, T_, h_, d}));
  }

  // [SECTION] transpose: (B, T, h, d) -> (B, h, T, d); only the strides swap.
  Tensor transpose(const Tensor& split, const std::string& name) {
    const std::string dn = name != "v" ? "d_k" : "d_v";
    return builder_.add(Stage::Transpose,
                        {name + "_heads", "", "(B, h, T, " + dn + ")",
                         "swap the T and h axes: only the strides change",
                         name + " = " + name + ".transpose(1, 2)  # (B, h, T, " + dn + ")", 0},
                        split.transpose(1, 2));
  }

  // [SECTION] attend: scores, scale, mask, softmax, [dropout], weights @ V.
  // q, k, v are (L0, L1, T', d): (B, h, T, d) in a correct run, (B, T, h, d) when the transpose
  // was forgotten; the maps are (L0, L1, T', T'). Every sub-step of one map runs while that map
  // is in cache, and each writes its own recorded tensor (or is a view when it changes nothing).
  Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v) {
    const bool heads_last = bug_ == Mistake::ForgetTranspose;
    const std::string maps_axes = heads_last ? "(B, T, h, h)" : "(B, h, T, T)";
    const std::string context_axes = heads_last ? "(B, T, h, d_v)" : "(B, h, T, d_v)";
    const Shape maps{q.size(0), q.size(1), q.size(2), k.size(2)};
    const int64_t pairs = maps[0] * maps[1], M = maps[2], N = maps[3];
    const double map_elements = double(pairs) * M * N;

    const bool mask_fits = c_.mask.any() && !heads_last;
    if (c_.mask.any() && heads_last) {
      notice("the (T, T) mask does not fit (h, h) maps, so it was not applied");
    }
    const Plan plan{bug_ != Mistake::NoScale, mask_fits && bug_ != Mistake::MaskAfterSoftmax,
                    mask_fits && bug_ == Mistake::MaskAfterSoftmax,
                    c_.dropout > 0 && bug_ != Mistake::DropoutOnOutput,
                    bug_ == Mistake::DropoutOnOutput};
    const Tensor scores = Tensor::uninitialized("scores", maps, compute_);
    const Tensor scaled = plan.scale ? Tensor::uninitialized("scaled", maps, compute_) : scores;
    const Tensor masked = plan.mask ? Tensor::uninitialized("masked", maps, compute_) : scaled;
    const Tensor softmaxed = Tensor::uninitialized(
        plan.zero_after_softmax ? "weights_before_mask" : "weights", maps, compute_);
    const Tensor weights =
        plan.zero_after_softmax ? Tensor::uninitialized("weights", maps, compute_) : softmaxed;
    const Tensor used =
        plan.drop_weights ? Tensor::uninitialized("weights_dropout", maps, compute_) : weights;
    const Shape context_shape{maps[0], maps[1], M, dv_};
    const Tensor attended = Tensor::uninitialized("context", context_shape, compute_);
    const Tensor context =
        plan.drop_context ? Tensor::uninitialized("context", context_shape, compute_) : attended;
    const double context_dropout = dropout_on_output_p(c_);

    if (compute_) {
      const std::vector<uint8_t> visible =
          mask_fits ? visibility(c_.mask, B_, T_) : std::vector<uint8_t>{};
      const int64_t by = bug_ == Mistake::ScaleDModel ? c_.d_model : dk_;
      const auto factor = static_cast<Scalar>(1.0 / std::sqrt(double(by)));
      const Scalar fill =
          bug_ == Mistake::MaskZero ? 0.0f : -std::numeric_limits<Scalar>::infinity();
      const Tensor k_t = k.transpose(-2, -1);
      const int64_t map = M * N;
      parallel_for(
          pairs, map_elements * (2.0 * (dk_ + dv_) + 10.0), [&](int64_t begin, int64_t end) {
            for (int64_t pair = begin; pair < end && !cancel_requested(); ++pair) {
              const uint8_t* seen =
                  mask_fits ? visible.data() + (pair / maps[1]) * T_ * T_ : nullptr;
              matmul_map(q, k_t, scores, pair);  // (T, d_k) @ (d_k, T)
              if (plan.scale)
                scale_values(map_data(scores, pair), factor, map_data(scaled, pair), map);
              if (plan.mask)
                mask_map(map_data(scaled, pair), seen, fill, map_data(masked, pair), M, N);
              if (bug_ == Mistake::SoftmaxWrongAxis) {
                softmax_columns(map_data(masked, pair), map_data(softmaxed, pair), M, N);
              } else {
                softmax_rows(map_data(masked, pair), map_data(softmaxed, pair), M, N);
              }
              if (plan.zero_after_softmax)
                mask_map(map_data(softmaxed, pair), seen, 0.0f, map_data(weights, pair), M, N);
              if (plan.drop_weights) {
                dropout_values(map_data(weights, pair), c_.dropout, c_.dropout_seed, pair * map,
                               map_data(used, pair), map);
              }
              matmul_map(used, v, attended, pair);  // (T, T) @ (T, d_v)
              if (plan.drop_context) {
                dropout_values(map_data(attended, pair), context_dropout, c_.dropout_seed,
                               pair * M * dv_, map_data(context, pair), M * dv_);
              }
            }
          });
      check_cancel();
    }
    record_attend(plan, scores, scaled, masked, softmaxed, weights, used, attended, context,
                  maps_axes, context_axes, map_elements, context_dropout);
    return context;
  }

  // Which sub-steps write a tensor of their own (the others are views of the step before).
  struct Plan {
    bool scale, mask, zero_after_softmax, drop_weights, drop_context;
  };

  void record_attend(const Plan& plan, const Tensor& scores, const Tensor& scaled,
                     const Tensor& masked, const Tensor& softmaxed, const Tensor& weights,
                     const Tensor& used, const Tensor& attended, const Tensor& context,
                     const std::string& axes, const std::string& context_axes, double map_elements,
                     double context_dropout) {
    builder_.add(Stage::Attend,
                 {"scores", "QK^T", axes, "S = Q K^T  (per head)",
                  "scores = q @ k.transpose(-2, -1)  # " + axes, 2.0 * map_elements * dk_},
                 scores);
    const bool by_d_model = bug_ == Mistake::ScaleDModel;
    const int64_t by = by_d_model ? c_.d_model : dk_;
    builder_.add(
        Stage::Attend,
        !plan.scale
            ? TraceBuilder::Step{"scaled", "scale", axes,
                                 "not scaled (bug): scores keep their size",
                                 "# scores = scores / math.sqrt(d_k)  <- missing", 0}
            : TraceBuilder::Step{"scaled", "scale", axes,
                                 by_d_model ? "S / sqrt(d_model) (bug: should be sqrt(d_k)), "
                                              "d_model = " +
                                                  std::to_string(by)
                                            : "S / sqrt(d_k), d_k = " + std::to_string(by),
                                 std::string("scores = scores / math.sqrt(") +
                                     (by_d_model ? "d_model" : "d_k") + ")  # " + axes,
                                 map_elements},
        scaled);
    const bool zero_fill = bug_ == Mistake::MaskZero;
    builder_.add(
        Stage::Attend,
        !plan.mask
            ? TraceBuilder::Step{"masked", "mask", axes,
                                 c_.mask.any() ? "mask not applied before the softmax"
                                               : "no mask: the scaled scores unchanged",
                                 "# no mask", 0}
            : TraceBuilder::Step{"masked", "mask", axes,
                                 zero_fill ? "masked keys set to 0, not -inf (bug): exp(0) = 1 "
                                             "lets them through"
                                           : "masked keys set to -inf (" + describe(c_.mask) + ")",
                                 std::string("scores = scores.masked_fill(~visible, ") +
                                     (zero_fill ? "0" : "float('-inf')") + ")  # " + axes,
                                 map_elements},
        masked);
    const bool wrong_axis = bug_ == Mistake::SoftmaxWrongAxis;
    builder_.add(
        Stage::Attend,
        {plan.zero_after_softmax ? "weights_before_mask" : "weights", "softmax", axes,
         wrong_axis ? "softmax over the queries, dim=-2 (bug): columns sum to 1, rows do not"
                    : "A = softmax(S) over the keys (last axis)",
         std::string("weights = F.softmax(scores, dim=") + (wrong_axis ? "-2" : "-1") + ")  # " +
             axes,
         5.0 * map_elements},
        softmaxed);
    if (plan.zero_after_softmax) {
      builder_.add(Stage::Attend,
                   {"weights", "mask", axes,
                    "masked weights zeroed AFTER the softmax (bug): rows no longer sum to 1",
                    "weights = weights.masked_fill(~visible, 0)  # " + axes, map_elements},
                   weights);
    }
    if (plan.drop_weights) {
      builder_.add(Stage::Attend,
                   {"weights_dropout", "dropout", axes,
                    "each weight zeroed with p = " + format_number(c_.dropout) +
                        ", survivors scaled by 1/(1-p)",
                    "weights = F.dropout(weights, p)  # " + axes, map_elements},
                   used);
    }
    builder_.add(Stage::Attend,
                 {plan.drop_context ? "context_before_dropout" : "context", "@V", context_axes,
                  "C = A V  (per head)", "context = weights @ v  # " + context_axes,
                  2.0 * map_elements * dv_},
                 attended);
    if (plan.drop_context) {
      if (c_.dropout <= 0)
        notice("dropout-on-output: dropout is off, so p = " + format_number(context_dropout) +
               " is used");
      builder_.add(Stage::Attend,
                   {"context", "dropout", context_axes,
                    "dropout on the context instead of the weights (bug), p = " +
                        format_number(context_dropout),
                    "context = F.dropout(context, p)  # " + context_axes, double(context.numel())},
                   context);
    }
  }

  // [SECTION] ablation: the context of switched-off heads set to zero before concat.
  Tensor ablate(const Tensor& context) {
    std::vector<int64_t> heads;
    for (int64_t hd = 0; hd < h_ && hd < int64_t(c_.ablated_heads.size()); ++hd)
      if (c_.ablated_heads[size_t(hd)]) heads.push_back(hd);
    if (heads.empty()) return context;
    Tensor ablated = Tensor::uninitialized("context_ablated", context.shape(), compute_);
    const bool heads_last = bug_ == Mistake::ForgetTranspose;
    if (compute_) {
      std::copy_n(context.data(), context.numel(), ablated.data());
      // Through a (B, h, T, d_v) view, whichever axis the heads are in.
      Tensor by_head = heads_last ? ablated.transpose(1, 2) : ablated;
      for (int64_t hd : heads)
        for (int64_t b = 0; b < B_; ++b)
          for (int64_t t = 0; t < T_; ++t)
            for (int64_t e = 0; e < dv_; ++e) by_head.at({b, hd, t, e}) = 0.0f;
    }
    std::string list;
    for (int64_t hd : heads) list += (list.empty() ? "" : ", ") + std::to_string(hd);
    return builder_.add(
        Stage::Attend,
        {"context_ablated", "ablate", heads_last ? "(B, T, h, d_v)" : "(B, h, T, d_v)",
         "heads " + list + " switched off: their context is 0", "context[:, [" + list + "]] = 0",
         0},
        ablated);
  }

  // [SECTION] concat: transpose back (a view), contiguous (the one copy), view to (B, T, h*d_v).
  Tensor concatenate(const Tensor& context) {
    const Shape concat_shape{B_, T_, h_ * dv_};
    if (bug_ == Mistake::ConcatNoTranspose) {
      return builder_.add(Stage::Concat,
                          {"concat", "view", "(B, T, h*d_v)",
                           "viewed without transposing back (bug): row t mixes heads and tokens",
                           "out = context.view(B, T, h * d_v)  # (B, T, h*d_v)", 0},
                          context.view(concat_shape));
    }
    const bool heads_last = bug_ == Mistake::ForgetTranspose;
    const std::string back_axes = heads_last ? "(B, h, T, d_v)" : "(B, T, h, d_v)";
    const Tensor back = builder_.add(
        Stage::Concat,
        {"context_t", "transpose", back_axes, "swap axes 1 and 2 back: a non-contiguous view",
         "out = context.transpose(1, 2)  # " + back_axes, 0},
        context.transpose(1, 2));
    if (bug_ == Mistake::ViewNoContiguous) {
      try {
        back.view(concat_shape);
      } catch (const ViewError& e) {
        trace_.failure = {true, Stage::Concat,
                          std::string("RuntimeError: ") + e.what() +
                              " -- raised by out.view(B, T, h * d_v) in the concat stage"};
        return Tensor();
      }
    }
    const Tensor copied =
        builder_.add(Stage::Concat,
                     {"context_contiguous", "contiguous", back_axes,
                      "copy into row-major order: each token's heads side by side",
                      "out = out.contiguous()  # " + back_axes, 0},
                     back.contiguous("concat"));
    check_cancel();
    return builder_.add(Stage::Concat,
                        {"concat", "view", "(B, T, h*d_v)",
                         "heads laid side by side: h*d_v = " + std::to_string(h_ * dv_),
                         "out = out.view(B, T, h * d_v)  # (B, T, h*d_v)", 0},
                        copied.view(concat_shape));
  }

  // [SECTION] output projection: (B, T, h*d_v) @ (h*d_v, d_model) -> (B, T, d_model)
  void output_project(const Tensor& concat) {
    if (!c_.output_proj) {
      builder_.add(Stage::OutputProject,
                   {"out", "", "(B, T, h*d_v)", "no output projection: the output is the concat",
                    "return out  # (B, T, h*d_v)", 0},
                   concat);
      return;
    }
    const int64_t width_in = h_ * dv_, width_out = c_.d_model;
    Tensor out = Tensor::uninitialized("out", {B_, T_, width_out}, compute_);
    if (compute_) {
      linear(concat.data(), B_ * T_, width_in, in_.w_o.data(), width_out,
             in_.b_o.storage() ? in_.b_o.data() : nullptr, out.data());
    }
    const std::string bias = in_.b_o.storage() ? " + b_o" : "";
    builder_.add(Stage::OutputProject,
                 {"out", "", "(B, T, d_model)", "Y = concat W_o" + bias,
                  "out = out @ W_o" + bias + "  # (B, T, d_model)",
                  2.0 * B_ * T_ * width_in * width_out +
                      (in_.b_o.storage() ? double(B_ * T_ * width_out) : 0.0)},
                 out);
  }

  void notice(const std::string& text) { trace_.diagnostics.notices.push_back(text); }

  bool cancel_requested() const { return control_.cancel_requested(); }
  void check_cancel() const { control_.check_cancel(); }
  void step_done(int stages_done) const {
    check_cancel();
    control_.report(double(stages_done) / kStageCount);
  }

  const Config& c_;
  const Inputs& in_;
  const RunControl& control_;
  Trace& trace_;
  TraceBuilder builder_;
  const int64_t B_, T_, h_, dk_, dv_;
  const bool compute_;
  const Mistake bug_;
};

TensorRecord parameter_record(const std::string& name, const Tensor& t, const std::string& axes) {
  TensorRecord r;
  r.name = name;
  r.stage = Stage::Project;
  r.axes = axes;
  r.tensor = t;
  r.storage_owner = name;
  r.formula = "parameter";
  r.pytorch = name;
  r.bytes = t.numel() * static_cast<int64_t>(sizeof(Scalar));
  return r;
}

void fill_parameters(const Inputs& in, Trace& trace) {
  auto add = [&](const std::string& name, const Tensor& t, const std::string& axes) {
    if (t.storage()) trace.parameters.push_back(parameter_record(name, t, axes));
  };
  add("w_q", in.w_q, "(d_in, h*d_k)");
  add("w_k", in.w_k, "(d_in, h*d_k)");
  add("w_v", in.w_v, "(d_in, h*d_v)");
  add("w_o", in.w_o, "(h*d_v, d_model)");
  add("b_q", in.b_q, "(h*d_k)");
  add("b_k", in.b_k, "(h*d_k)");
  add("b_v", in.b_v, "(h*d_v)");
  add("b_o", in.b_o, "(d_model)");
}

Counters parameter_counts(const Config& c) {
  Counters n;
  const int64_t h = c.n_heads, dk = c.head_dim_k(), dv = c.head_dim_v();
  n.qkv_weights = c.input_dim() * h * (2 * dk + dv);
  n.qkv_biases = c.bias ? h * (2 * dk + dv) : 0;
  n.out_weights = c.output_proj ? h * dv * c.d_model : 0;
  n.out_bias = (c.bias && c.output_proj) ? c.d_model : 0;
  n.attention_elements = c.batch * h * c.tokens() * c.tokens();
  return n;
}

// Token labels: the sentence's, or x0, x1, ... when X came from a file without a sentence.
std::vector<std::string> token_labels(const Config& c, const Inputs& inputs) {
  if (!inputs.x.storage() || !c.sentence.empty()) return tokens_for(c.sentence, c.tokens());
  std::vector<std::string> labels;
  for (int64_t t = 0; t < c.tokens(); ++t) labels.push_back("x" + std::to_string(t));
  return labels;
}

}  // namespace

Trace run(const Config& config, const Inputs& inputs, const RunControl& control) {
  use_single_threaded_blas();
  const std::vector<ConfigIssue> issues = validate(config);
  if (!issues.empty()) throw UserError(describe(issues));
  Trace trace;
  trace.config = config;
  trace.shape_only = config.shape_only;
  trace.tokens = token_labels(config, inputs);
  trace.counters = parameter_counts(config);
  trace.diagnostics.notices = notices_for(config);
  const Inputs complete =
      config.shape_only ? shape_only_inputs(config) : complete_inputs(config, trace.tokens, inputs);
  fill_parameters(complete, trace);
  BatchedRun(config, complete, control, trace).run();
  if (!config.shape_only) diagnose(trace);  // the weights exist even when concat failed
  return trace;
}

}  // namespace attnlab
