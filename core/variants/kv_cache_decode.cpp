#include "core/variants/kv_cache_decode.hpp"

#include <cmath>
#include <limits>

#include "core/kernels/attention_math.hpp"
#include "core/kernels/linear.hpp"
#include "core/model/masks.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {

namespace {

Axis axis(AxisKind kind, const char* symbol, int64_t size, int64_t heads = 1) {
  return {kind, symbol, size, heads};
}

// One record of a decode step. `owner` is the storage's first record (a view's) or "" (new).
TensorRecord record(const std::string& name, Stage stage, Substep substep, Axes axes,
                    const Tensor& t, std::vector<std::string> inputs, std::string formula,
                    std::string pytorch, double flops, const std::string& owner = "") {
  TensorRecord r;
  r.name = name;
  r.stage = stage;
  r.substep = substep;
  for (size_t i = 0; i < axes.size(); ++i) axes[i].size = t.shape()[i];
  r.axes = std::move(axes);
  r.inputs = std::move(inputs);
  r.tensor = t;
  r.is_view = !owner.empty();
  r.storage_owner = owner.empty() ? name : owner;
  r.formula = std::move(formula);
  r.pytorch = std::move(pytorch) + "  # " + axes_label(r.axes);
  r.flops = flops;
  r.bytes = owner.empty() ? t.storage()->numel * int64_t(sizeof(Scalar)) : 0;
  return r;
}

// rows (B, n, width) = x (B, n, d_in) @ w (+ b)
Tensor project(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& name) {
  Tensor out = Tensor::empty(name, {x.size(0), x.size(1), w.size(1)});
  linear(x.data(), x.size(0) * x.size(1), x.size(2), w.data(), w.size(1),
         b.storage() ? b.data() : nullptr, out.data());
  return out;
}

class CachedDecoder {
 public:
  CachedDecoder(const Config& c, const Inputs& in)
      : c_(c),
        in_(in),
        B_(c.batch),
        T_(c.tokens()),
        h_(c.n_heads),
        hk_(c.kv_heads()),
        g_(c.group_size()),
        dk_(c.head_dim_k()),
        dv_(c.head_dim_v()),
        d_in_(c.input_dim()) {}

  DecodeTrace run() {
    DecodeTrace out;
    out.prompt_tokens = T_ - c_.decode_steps;
    prefill(out);
    for (int64_t i = 0; i < c_.decode_steps; ++i)
      out.steps.push_back(step(i, out.prompt_tokens + i));
    return out;
  }

 private:
  // [SECTION] prefill: the prompt's K and V, (B, P, n_kv*d) -> the cache (B, n_kv, T, d), a
  // static cache with room for all T tokens; records are views of its first P slots.
  void prefill(DecodeTrace& out) {
    const int64_t P = out.prompt_tokens;
    const Tensor prompt = in_.x.narrow(1, 0, P).contiguous("prompt");  // (B, P, d_in)
    k_cache_ = Tensor::zeros("prefill_k_cache", {B_, hk_, T_, dk_});
    v_cache_ = Tensor::zeros("prefill_v_cache", {B_, hk_, T_, dv_});
    write_cache(project(prompt, in_.w_k, in_.b_k, "k").view({B_, P, hk_, dk_}).transpose(1, 2),
                k_cache_, 0);
    write_cache(project(prompt, in_.w_v, in_.b_v, "v").view({B_, P, hk_, dv_}).transpose(1, 2),
                v_cache_, 0);
    const Axes k_axes = {axis(AxisKind::Batch, "B", B_), axis(AxisKind::Head, "n_kv", hk_),
                         axis(AxisKind::Token, "P", P), axis(AxisKind::Feature, "d_k", dk_)};
    Axes v_axes = k_axes;
    v_axes[3].symbol = "d_v";
    out.prefill.push_back(record("prefill_k_cache", Stage::Project, Substep::None, k_axes,
                                 k_cache_.narrow(2, 0, P), {"x", "w_k"},
                                 "the prompt's keys, computed once: the cache's first P slots",
                                 "k_cache[:, :, :P] = k", 2.0 * B_ * P * d_in_ * hk_ * dk_));
    out.prefill.push_back(record("prefill_v_cache", Stage::Project, Substep::None, v_axes,
                                 v_cache_.narrow(2, 0, P), {"x", "w_v"},
                                 "the prompt's values, computed once", "v_cache[:, :, :P] = v",
                                 2.0 * B_ * P * d_in_ * hk_ * dv_));
    // The prompt's own pass: every prompt token's output, as the full run computes it.
    Config prompt_only = c_;
    prompt_only.seq_len = P;
    prompt_only.decode_steps = 0;
    prompt_only.shape_only = true;
    out.prefill_flops = attnlab::run(prompt_only).counters.flops;
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
  DecodeStep step(int64_t i, int64_t t) {
    const std::string n = "decode" + std::to_string(i) + "_";
    const int64_t keys = t + 1;
    DecodeStep s;
    s.position = t;
    const Axis batch = axis(AxisKind::Batch, "B", B_), one = axis(AxisKind::Token, "1", 1);
    const Axis heads = axis(AxisKind::Head, "h", h_), kv_heads = axis(AxisKind::Head, "n_kv", hk_);
    const Axis cached = axis(AxisKind::Token, "t+1", keys), key = axis(AxisKind::Key, "t+1", keys);
    const Axis dk = axis(AxisKind::Feature, "d_k", dk_), dv = axis(AxisKind::Feature, "d_v", dv_);

    const Tensor x = in_.x.narrow(1, t, 1).contiguous(n + "x");  // (B, 1, d_in)
    s.records.push_back(record(n + "x", Stage::Input, Substep::None,
                               {batch, one, axis(AxisKind::Feature, "d_in", d_in_)}, x, {"x"},
                               "X_t: only the new token enters", "x_t = x[:, t:t+1]", 0));
    // (B, 1, h*d_k) -> (B, 1, h, d_k) -> (B, h, 1, d_k); K and V the same with n_kv heads
    const double project_flops = 2.0 * B_ * d_in_;
    const Tensor q = project(x, in_.w_q, in_.b_q, n + "q").view({B_, 1, h_, dk_}).transpose(1, 2);
    const Tensor k = project(x, in_.w_k, in_.b_k, n + "k").view({B_, 1, hk_, dk_}).transpose(1, 2);
    const Tensor v = project(x, in_.w_v, in_.b_v, n + "v").view({B_, 1, hk_, dv_}).transpose(1, 2);
    s.records.push_back(record(n + "q", Stage::Project, Substep::None, {batch, heads, one, dk}, q,
                               {n + "x", "w_q"}, "q_t = X_t W_q: one query per head",
                               "q = (x_t @ W_q).view(B, 1, h, d_k).transpose(1, 2)",
                               project_flops * h_ * dk_));
    s.records.push_back(record(n + "k", Stage::Project, Substep::None, {batch, kv_heads, one, dk},
                               k, {n + "x", "w_k"}, "k_t = X_t W_k: the new token's key only",
                               "k = (x_t @ W_k).view(B, 1, n_kv, d_k).transpose(1, 2)",
                               project_flops * hk_ * dk_));
    s.records.push_back(record(n + "v", Stage::Project, Substep::None, {batch, kv_heads, one, dv},
                               v, {n + "x", "w_v"}, "v_t = X_t W_v: the new token's value only",
                               "v = (x_t @ W_v).view(B, 1, n_kv, d_v).transpose(1, 2)",
                               project_flops * hk_ * dv_));
    write_cache(k, k_cache_, t);
    write_cache(v, v_cache_, t);
    const Tensor k_seen = k_cache_.narrow(2, 0, keys), v_seen = v_cache_.narrow(2, 0, keys);
    s.records.push_back(record(n + "k_cache", Stage::Transpose, Substep::None,
                               {batch, kv_heads, cached, dk}, k_seen, {"prefill_k_cache", n + "k"},
                               "K cache: k_t written into slot t; t + 1 keys, none recomputed",
                               "k_cache[:, :, t] = k; keys = k_cache[:, :, :t+1]", 0,
                               "prefill_k_cache"));
    s.records.push_back(
        record(n + "v_cache", Stage::Transpose, Substep::None, {batch, kv_heads, cached, dv},
               v_seen, {"prefill_v_cache", n + "v"}, "V cache: v_t written into slot t",
               "v_cache[:, :, t] = v; values = v_cache[:, :, :t+1]", 0, "prefill_v_cache"));
    // The (1 x (t + 1)) score row of each head over its K/V head's cache, scaled and masked.
    Tensor scores = Tensor::empty(n + "scores", {B_, h_, 1, keys});
    Tensor weights = Tensor::empty(n + "weights", {B_, h_, 1, keys});
    Tensor context = Tensor::zeros(n + "context", {B_, h_, 1, dv_});
    const double scale = 1.0 / std::sqrt(double(dk_));
    for (int64_t b = 0; b < B_; ++b)
      for (int64_t hd = 0; hd < h_; ++hd) {
        const int64_t kv = hd / g_;
        for (int64_t j = 0; j < keys; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < dk_; ++e)
            dot += double(q.at({b, hd, 0, e})) * k_seen.at({b, kv, j, e});
          scores.at({b, hd, 0, j}) = key_visible(c_.mask, b, t, j)
                                         ? static_cast<Scalar>(dot * scale)
                                         : -std::numeric_limits<Scalar>::infinity();
        }
        Scalar* row = &weights.at({b, hd, 0, 0});
        for (int64_t j = 0; j < keys; ++j) row[j] = scores.at({b, hd, 0, j});
        masked_softmax_row(row, keys);
        if (hd < int64_t(c_.ablated_heads.size()) && c_.ablated_heads[size_t(hd)]) continue;
        for (int64_t e = 0; e < dv_; ++e) {
          double sum = 0;
          for (int64_t j = 0; j < keys; ++j) sum += double(row[j]) * v_seen.at({b, kv, j, e});
          context.at({b, hd, 0, e}) = static_cast<Scalar>(sum);
        }
      }
    const double row_elements = double(B_ * h_ * keys);
    s.records.push_back(record(
        n + "scores", Stage::Attend, Substep::Scores, {batch, heads, one, key}, scores,
        {n + "q", n + "k_cache"}, "s = q_t K^T / sqrt(d_k): one row of t + 1 scores per head",
        "scores = q @ keys.transpose(-2, -1) / math.sqrt(d_k)", row_elements * (2.0 * dk_ + 1)));
    s.records.push_back(record(n + "weights", Stage::Attend, Substep::Softmax,
                               {batch, heads, one, key}, weights, {n + "scores"},
                               "a = softmax(s): the new row of each head's map",
                               "weights = F.softmax(scores, dim=-1)", 5.0 * row_elements));
    s.records.push_back(record(n + "context", Stage::Attend, Substep::AttendValues,
                               {batch, heads, one, dv}, context, {n + "weights", n + "v_cache"},
                               "c = a V over the cached values", "context = weights @ values",
                               2.0 * row_elements * dv_));
    // (B, h, 1, d_v) -> (B, 1, h*d_v) -> out (B, 1, d_out)
    const Tensor concat = context.transpose(1, 2).contiguous(n + "concat").view({B_, 1, h_ * dv_});
    const Tensor out = c_.output_proj ? project(concat, in_.w_o, in_.b_o, n + "out") : concat;
    s.records.push_back(record(
        n + "out", Stage::OutputProject, Substep::None,
        {batch, one, axis(AxisKind::Feature, c_.output_proj ? "d_model" : "h*d_v", out.size(2))},
        out, {n + "context"}, "y_t: row t of the full causal run's output",
        c_.output_proj ? "out = context.transpose(1, 2).reshape(B, 1, h * d_v) @ W_o"
                       : "out = context.transpose(1, 2).reshape(B, 1, h * d_v)",
        c_.output_proj ? 2.0 * B_ * h_ * dv_ * out.size(2) : 0));
    for (const TensorRecord& r : s.records) s.flops += r.flops;
    Config full = c_;
    full.seq_len = keys;
    full.decode_steps = 0;
    full.shape_only = true;
    s.recompute_flops = attnlab::run(full).counters.flops;
    s.cache_bytes = kv_cache_bytes(c_, keys);
    return s;
  }

  const Config& c_;
  const Inputs& in_;
  const int64_t B_, T_, h_, hk_, g_, dk_, dv_, d_in_;
  Tensor k_cache_, v_cache_;  // (B, n_kv, T, d): slot t holds token t's key / value
};

}  // namespace

DecodeTrace decode_with_cache(const Config& config, const Inputs& inputs) {
  return CachedDecoder(config, inputs).run();
}

int64_t kv_cache_bytes(const Config& c, int64_t tokens) {
  return c.batch * c.kv_heads() * tokens * (c.head_dim_k() + c.head_dim_v()) *
         int64_t(sizeof(Scalar));
}

}  // namespace attnlab
