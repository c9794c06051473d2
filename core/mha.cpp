// The batched path: one projection GEMM per Q/K/V, heads split off with view + transpose (no
// copies), attention per (batch, head) read through the real strides, concat by transpose +
// contiguous + view, then the output projection. Every intermediate goes into the trace.
#include "core/mha.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "core/attention_math.hpp"
#include "core/blas_threads.hpp"
#include "core/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/linear.hpp"
#include "core/masks.hpp"
#include "core/parallel.hpp"
#include "core/tokenizer.hpp"
#include "core/trace_builder.hpp"

namespace attnlab {

namespace {

using RowMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Strides2 = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
using MatrixView = Eigen::Map<RowMatrix, 0, Strides2>;
using ConstMatrixView = Eigen::Map<const RowMatrix, 0, Strides2>;

// The last two dimensions of a tensor as a matrix, at the given leading indices, read through
// the tensor's own strides (so a transposed view is used as it is, without a copy).
ConstMatrixView matrix_at(const Tensor& t, int64_t i0, int64_t i1) {
  const Shape& s = t.strides();
  const Scalar* base = t.data() + i0 * s[0] + i1 * s[1];
  return ConstMatrixView(base, t.size(2), t.size(3), Strides2(s[2], s[3]));
}

MatrixView mutable_matrix_at(const Tensor& t, int64_t i0, int64_t i1) {
  const Shape& s = t.strides();
  Scalar* base = t.data() + i0 * s[0] + i1 * s[1];
  return MatrixView(base, t.size(2), t.size(3), Strides2(s[2], s[3]));
}

// A contiguous tensor's elements as a (rows, cols) matrix.
Eigen::Map<RowMatrix> flat(const Tensor& t, int64_t rows, int64_t cols) {
  return Eigen::Map<RowMatrix>(t.data(), rows, cols);
}

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
        compute_(!config.shape_only) {}

  void run() {
    const Tensor x =
        builder_.add(Stage::Input,
                     {"x", "", "(B, T, d_in)", "X = token embedding + position encoding",
                      "x  # (B, T, d_in)", 0},
                     in_.x);
    step_done(1);
    const Tensor q = project(x, in_.w_q, in_.b_q, "q", "Q", dk_);
    const Tensor k = project(x, in_.w_k, in_.b_k, "k", "K", dk_);
    const Tensor v = project(x, in_.w_v, in_.b_v, "v", "V", dv_);
    step_done(2);
    const Tensor q_split = split(q, "q", "Q", dk_);
    const Tensor k_split = split(k, "k", "K", dk_);
    const Tensor v_split = split(v, "v", "V", dv_);
    step_done(3);
    const Tensor q_heads = transpose(q_split, "q");
    const Tensor k_heads = transpose(k_split, "k");
    const Tensor v_heads = transpose(v_split, "v");
    step_done(4);
    const Tensor context = attend(q_heads, k_heads, v_heads);
    step_done(5);
    const Tensor concat = concatenate(context);
    step_done(6);
    output_project(concat);
    step_done(7);
  }

 private:
  // [SECTION] project: (B, T, d_in) @ (d_in, h*d) -> (B, T, h*d)
  Tensor project(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& name,
                 const std::string& letter, int64_t d) {
    const int64_t d_in = c_.input_dim(), width = h_ * d;
    Tensor out = Tensor::empty(name, {B_, T_, width}, compute_);
    const double flops = 2.0 * B_ * T_ * d_in * width;
    if (compute_) {
      linear(x.data(), B_ * T_, d_in, w.data(), width, b.storage() ? b.data() : nullptr,
             out.data());
    }
    const std::string axes = name != "v" ? "(B, T, h*d_k)" : "(B, T, h*d_v)";
    const std::string bias = b.storage() ? " + b_" + name : "";
    builder_.add(Stage::Project,
                 {name, "", axes, letter + " = X W_" + name + bias,
                  name + " = x @ W_" + name + bias + "  # " + axes,
                  flops + (b.storage() ? double(B_ * T_ * width) : 0.0)},
                 out);
    check_cancel();
    return out;
  }

  // [SECTION] split: (B, T, h*d) viewed as (B, T, h, d); same storage, no data moves.
  Tensor split(const Tensor& t, const std::string& name, const std::string& letter, int64_t d) {
    const std::string dn = name != "v" ? "d_k" : "d_v";
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

  // [SECTION] attend: scores, scale, mask, softmax, [dropout], weights @ V; per (b, h).
  Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v) {
    const Shape maps{B_, h_, T_, T_};
    const double map_elements = double(B_) * h_ * T_ * T_;
    Tensor scores = Tensor::empty("scores", maps, compute_);
    for_each_head(2.0 * map_elements * dk_, [&](int64_t b, int64_t hd) {
      mutable_matrix_at(scores, b, hd).noalias() =
          matrix_at(q, b, hd) * matrix_at(k, b, hd).transpose();  // (T, d_k) @ (d_k, T)
    });
    builder_.add(Stage::Attend,
                 {"scores", "QK^T", "(B, h, T, T)", "S = Q K^T  (per head)",
                  "scores = q @ k.transpose(-2, -1)  # (B, h, T, T)", 2.0 * map_elements * dk_},
                 scores);
    check_cancel();

    Tensor scaled = Tensor::empty("scaled", maps, compute_);
    const auto inv_sqrt_dk = static_cast<Scalar>(1.0 / std::sqrt(double(dk_)));
    if (compute_) flat(scaled, 1, scaled.numel()) = flat(scores, 1, scores.numel()) * inv_sqrt_dk;
    builder_.add(Stage::Attend,
                 {"scaled", "scale", "(B, h, T, T)", "S / sqrt(d_k), d_k = " + std::to_string(dk_),
                  "scores = scores / math.sqrt(d_k)  # (B, h, T, T)", map_elements},
                 scaled);

    Tensor masked = scaled;  // without a mask, "masked" is the scaled tensor itself
    if (c_.mask.any()) {
      masked = Tensor::empty("masked", maps, compute_);
      if (compute_) apply_mask(scaled, masked);
    }
    builder_.add(
        Stage::Attend,
        {"masked", "mask", "(B, h, T, T)",
         c_.mask.any() ? "masked keys set to -inf (" + describe(c_.mask) + ")"
                       : "no mask: the scaled scores unchanged",
         c_.mask.any() ? "scores = scores.masked_fill(~visible, float('-inf'))" : "# no mask",
         c_.mask.any() ? map_elements : 0.0},
        masked);
    check_cancel();

    Tensor weights = Tensor::empty("weights", maps, compute_);
    if (compute_) softmax(masked, weights);
    builder_.add(Stage::Attend,
                 {"weights", "softmax", "(B, h, T, T)", "A = softmax(S) over the keys (last axis)",
                  "weights = F.softmax(scores, dim=-1)  # (B, h, T, T)", 5.0 * map_elements},
                 weights);

    Tensor used_weights = weights;
    if (c_.dropout > 0) {
      used_weights = Tensor::empty("weights_dropout", maps, compute_);
      if (compute_) dropout(weights, used_weights);
      builder_.add(Stage::Attend,
                   {"weights_dropout", "dropout", "(B, h, T, T)",
                    "each weight zeroed with p = " + std::to_string(c_.dropout) +
                        ", survivors scaled by 1/(1-p)",
                    "weights = F.dropout(weights, p)  # (B, h, T, T)", map_elements},
                   used_weights);
    }
    check_cancel();

    Tensor context = Tensor::empty("context", {B_, h_, T_, dv_}, compute_);
    for_each_head(2.0 * map_elements * dv_, [&](int64_t b, int64_t hd) {
      mutable_matrix_at(context, b, hd).noalias() =
          matrix_at(used_weights, b, hd) * matrix_at(v, b, hd);  // (T, T) @ (T, d_v)
    });
    builder_.add(Stage::Attend,
                 {"context", "@V", "(B, h, T, d_v)", "C = A V  (per head)",
                  "context = weights @ v  # (B, h, T, d_v)", 2.0 * map_elements * dv_},
                 context);
    return context;
  }

  void apply_mask(const Tensor& scaled, const Tensor& masked) {
    const std::vector<uint8_t> visible = visibility(c_.mask, B_, T_);  // (B, T, T)
    const Scalar minus_inf = -std::numeric_limits<Scalar>::infinity();
    for_each_row(double(scaled.numel()), [&](int64_t row) {  // row = (b*h + hd)*T + i
      const int64_t b = row / (h_ * T_), i = row % T_;
      const Scalar* src = scaled.data() + row * T_;
      const uint8_t* seen = visible.data() + (b * T_ + i) * T_;
      Scalar* dst = masked.data() + row * T_;
      for (int64_t j = 0; j < T_; ++j) dst[j] = seen[j] ? src[j] : minus_inf;
    });
  }

  void softmax(const Tensor& masked, const Tensor& weights) {
    for_each_row(5.0 * double(masked.numel()), [&](int64_t row) {
      std::copy_n(masked.data() + row * T_, T_, weights.data() + row * T_);
      masked_softmax_row(weights.data() + row * T_, T_);
    });
  }

  void dropout(const Tensor& weights, const Tensor& dropped) {
    for_each_row(20.0 * double(weights.numel()), [&](int64_t row) {
      std::copy_n(weights.data() + row * T_, T_, dropped.data() + row * T_);
      dropout_row(dropped.data() + row * T_, T_, c_.dropout, c_.dropout_seed, row * T_);
    });
  }

  // [SECTION] concat: transpose back (a view), contiguous (the one copy), view to (B, T, h*d_v).
  Tensor concatenate(const Tensor& context) {
    const Tensor back = builder_.add(
        Stage::Concat,
        {"context_t", "transpose", "(B, T, h, d_v)", "swap h and T back: a non-contiguous view",
         "out = context.transpose(1, 2)  # (B, T, h, d_v)", 0},
        context.transpose(1, 2));
    const Tensor copied =
        builder_.add(Stage::Concat,
                     {"context_contiguous", "contiguous", "(B, T, h, d_v)",
                      "copy into row-major order: each token's heads side by side",
                      "out = out.contiguous()  # (B, T, h, d_v)", 0},
                     back.contiguous("concat"));
    check_cancel();
    return builder_.add(Stage::Concat,
                        {"concat", "view", "(B, T, h*d_v)",
                         "heads laid side by side: h*d_v = " + std::to_string(h_ * dv_),
                         "out = out.view(B, T, h * d_v)  # (B, T, h*d_v)", 0},
                        copied.view({B_, T_, h_ * dv_}));
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
    Tensor out = Tensor::empty("out", {B_, T_, width_out}, compute_);
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

  // fn(b, hd) for every (sequence, head) pair, spread over the cores. A cancel request stops
  // the remaining pairs; the Cancelled exception is thrown here, on the calling thread.
  template <typename Fn>
  void for_each_head(double flops, Fn fn) {
    if (!compute_) return;
    parallel_for(B_ * h_, flops, [&](int64_t begin, int64_t end) {
      for (int64_t pair = begin; pair < end && !cancel_requested(); ++pair)
        fn(pair / h_, pair % h_);
    });
    check_cancel();
  }

  // fn(row) for every row of a (B, h, T, T) map, spread over the cores.
  template <typename Fn>
  void for_each_row(double flops, Fn fn) {
    parallel_for(B_ * h_ * T_, flops, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) fn(row);
    });
  }

  bool cancel_requested() const {
    return control_.cancel && control_.cancel->load(std::memory_order_relaxed);
  }
  void check_cancel() const {
    if (cancel_requested()) throw Cancelled();
  }
  void step_done(int stages_done) const {
    check_cancel();
    if (control_.progress) control_.progress(double(stages_done) / kStageCount);
  }

  const Config& c_;
  const Inputs& in_;
  const RunControl& control_;
  Trace& trace_;
  TraceBuilder builder_;
  const int64_t B_, T_, h_, dk_, dv_;
  const bool compute_;
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

// Shapes of every input without values, for shape-only mode.
Inputs shape_only_inputs(const Config& c) {
  const int64_t d_in = c.input_dim(), h = c.n_heads, dk = c.head_dim_k(), dv = c.head_dim_v();
  Inputs in;
  in.x = Tensor::empty("x", {c.batch, c.tokens(), d_in}, false);
  in.w_q = Tensor::empty("w_q", {d_in, h * dk}, false);
  in.w_k = Tensor::empty("w_k", {d_in, h * dk}, false);
  in.w_v = Tensor::empty("w_v", {d_in, h * dv}, false);
  if (c.output_proj) in.w_o = Tensor::empty("w_o", {h * dv, c.d_model}, false);
  if (c.bias) {
    in.b_q = Tensor::empty("b_q", {h * dk}, false);
    in.b_k = Tensor::empty("b_k", {h * dk}, false);
    in.b_v = Tensor::empty("b_v", {h * dv}, false);
    if (c.output_proj) in.b_o = Tensor::empty("b_o", {c.d_model}, false);
  }
  return in;
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
  if (!config.shape_only) diagnose(trace);
  return trace;
}

}  // namespace attnlab
