#include "core/teaching/mistakes.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/trace/plan.hpp"

namespace attnlab {

const std::vector<MistakeInfo>& all_mistakes() {
  static const std::vector<MistakeInfo> mistakes = {
      {Mistake::ForgetTranspose, "forget-transpose",
       "Forgetting the transpose after splitting heads",
       "scores come out (B, T, h, h): heads attend to heads instead of tokens", Stage::Transpose,
       "q = q.view(B, T, h, d_k)", "q = q.view(B, T, h, d_k).transpose(1, 2)", "scores"},
      {Mistake::ConcatNoTranspose, "concat-no-transpose",
       "Concatenating heads without transposing back",
       "no error, but each output row mixes tokens and heads: the output is scrambled",
       Stage::Concat, "out = context.view(B, T, h * d_v)",
       "out = context.transpose(1, 2).contiguous().view(B, T, h * d_v)", "concat"},
      {Mistake::ViewNoContiguous, "view-no-contiguous", "view() without contiguous()",
       "RuntimeError: view size is not compatible with input tensor's size and stride",
       Stage::Concat, "out = context.transpose(1, 2).view(B, T, h * d_v)",
       "out = context.transpose(1, 2).contiguous().view(B, T, h * d_v)", "concat"},
      {Mistake::ScaleDModel, "scale-d-model", "Scaling by sqrt(d_model) instead of sqrt(d_k)",
       "scores too small by sqrt(h): the softmax flattens and the entropy rises", Stage::Attend,
       "scores = scores / math.sqrt(d_model)", "scores = scores / math.sqrt(d_k)", "weights"},
      {Mistake::NoScale, "no-scale", "Forgetting to scale the scores",
       "scores too large by sqrt(d_k): the softmax saturates and the entropy drops", Stage::Attend,
       "scores = q @ k.transpose(-2, -1)", "scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)",
       "weights"},
      {Mistake::SoftmaxWrongAxis, "softmax-wrong-axis", "Softmax over the wrong axis",
       "normalised over the queries: columns sum to 1, rows do not", Stage::Attend,
       "weights = F.softmax(scores, dim=-2)", "weights = F.softmax(scores, dim=-1)", "weights"},
      {Mistake::MaskAfterSoftmax, "mask-after-softmax", "Masking after the softmax",
       "masked weights zeroed afterwards: rows sum to less than 1", Stage::Attend,
       "weights = F.softmax(scores, dim=-1).masked_fill(~visible, 0)",
       "weights = F.softmax(scores.masked_fill(~visible, float('-inf')), dim=-1)", "weights"},
      {Mistake::MaskZero, "mask-zero", "Masking with 0 instead of -inf",
       "exp(0) = 1: masked (future) tokens still get weight", Stage::Attend,
       "scores = scores.masked_fill(~visible, 0)",
       "scores = scores.masked_fill(~visible, float('-inf'))", "weights"},
      {Mistake::DropoutOnOutput, "dropout-on-output",
       "Dropout on the output instead of the weights",
       "attention weights untouched, value information dropped from the context", Stage::Attend,
       "context = F.dropout(weights @ v, p)", "context = F.dropout(weights, p) @ v", "context"},
      {Mistake::SharedQkProjection, "shared-qk-projection",
       "Reusing the same projection for Q and K",
       "K = Q: scores are symmetric and each token attends most to itself", Stage::Project,
       "k = x @ W_q", "k = x @ W_k", "scaled"},
  };
  return mistakes;
}

const MistakeInfo& mistake_info(Mistake mistake) {
  static const MistakeInfo none = {
      Mistake::None, "none", "No mistake: the correct code", "", Stage::Input, "", "", ""};
  for (const MistakeInfo& info : all_mistakes())
    if (info.id == mistake) return info;
  assert(mistake == Mistake::None && "every Mistake has an entry in all_mistakes()");
  return none;
}

bool parse_mistake(const std::string& name, Mistake& mistake) {
  if (name == "none") {
    mistake = Mistake::None;
    return true;
  }
  for (const MistakeInfo& info : all_mistakes()) {
    if (name == info.name) {
      mistake = info.id;
      return true;
    }
  }
  return false;
}

std::string mistake_names() {
  std::string names;
  for (const MistakeInfo& info : all_mistakes())
    names += (names.empty() ? "" : ", ") + std::string(info.name);
  return names;
}

double dropout_on_output_p(const Config& config) {
  return plan_for(config).context_dropout;
}

namespace {

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

std::string format(const char* pattern, double a, double b = 0) {
  char text[160];
  std::snprintf(text, sizeof text, pattern, a, b);
  return text;
}

// Mean weight a query puts on its own key, over (b, h, i) of (B, h, T, T) weights.
double mean_self_weight(const Trace& trace) {
  const Tensor& w = trace.find("weights")->tensor;
  const int64_t maps = w.size(0) * w.size(1), T = w.size(2);
  double sum = 0;
  for (int64_t m = 0; m < maps; ++m)
    for (int64_t i = 0; i < T; ++i) sum += w.data()[(m * T + i) * T + i];
  return sum / double(maps * T);
}

// Fills record_change (largest finite |buggy - correct| over the record) and visible_change (that
// over the largest finite |value| of either; 1 when the two cannot be compared).
void measure_change(const TensorRecord* correct, const TensorRecord* buggy, MistakeReport& r) {
  r.visible_change = 1;
  if (!correct || !buggy || !correct->tensor.has_values() || !buggy->tensor.has_values() ||
      correct->tensor.shape() != buggy->tensor.shape())
    return;
  const std::vector<Scalar> a = correct->tensor.to_vector(), b = buggy->tensor.to_vector();
  double largest = 0, change = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isfinite(a[i])) largest = std::max(largest, double(std::abs(a[i])));
    if (std::isfinite(b[i])) largest = std::max(largest, double(std::abs(b[i])));
    const double d = std::abs(double(b[i]) - double(a[i]));
    if (std::isfinite(d)) change = std::max(change, d);
  }
  r.record_change = change;
  r.visible_change = largest > 0 ? change / largest : (change > 0 ? 1 : 0);
}

// How large the change in the compared record is, in words.
std::string describe_change(const MistakeReport& r, const TensorRecord* correct,
                            const TensorRecord* buggy) {
  if (!correct || !buggy) return "the buggy run stops before it makes " + r.record;
  if (correct->tensor.shape() != buggy->tensor.shape())
    return r.record + " is " + shape_to_string(buggy->tensor.shape()) + " " + buggy->axes_text() +
           " instead of " + shape_to_string(correct->tensor.shape()) + " " + correct->axes_text();
  return "the largest change in " + r.record +
         format(" is %.3g, %.0f%% of its largest value", r.record_change, 100 * r.visible_change);
}

// Why view() refused: the transposed context's strides do not let h and d_v merge.
std::string view_failure_layout(const Trace& buggy) {
  const TensorRecord* back = buggy.find("context_t");  // (B, T, h, d_v), non-contiguous
  if (!back) return "";
  const Tensor& t = back->tensor;
  char why[160];
  std::snprintf(why, sizeof why,
                ": merging h and d_v into one axis needs h's stride to be d_v = %lld, it is %lld "
                "(each token's heads lie %lld apart in memory)",
                (long long)t.size(3), (long long)t.strides()[2], (long long)t.strides()[2]);
  return back->name + " = context.transpose(1, 2) is " + shape_to_string(t.shape()) + " " +
         back->axes_text() + " with strides " + shape_to_string(t.strides()) + why;
}

}  // namespace

MistakeReport compare_with_correct(const Trace& correct, const Trace& buggy) {
  MistakeReport r;
  const Diagnostics& good = correct.diagnostics;
  const Diagnostics& bad = buggy.diagnostics;
  r.entropy_correct_bits = mean(good.head_entropy_bits);
  r.entropy_buggy_bits = mean(bad.head_entropy_bits);
  r.max_future_weight = bad.max_masked_weight;
  r.max_row_sum_error = bad.max_row_sum_error;
  r.failure = buggy.failure.message;
  if (buggy.config.mistake != Mistake::None) {
    r.record = mistake_info(buggy.config.mistake).lands_in;
    measure_change(correct.find(r.record), buggy.find(r.record), r);
    r.too_small_to_see = r.visible_change < kVisibleChange;
    r.effect = describe_change(r, correct.find(r.record), buggy.find(r.record));
  }
  if (buggy.failure.failed) r.layout = view_failure_layout(buggy);
  const TensorRecord* good_out = correct.find("out");
  const TensorRecord* bad_out = buggy.find("out");
  r.outputs_comparable = good_out && bad_out && good_out->tensor.has_values() &&
                         bad_out->tensor.has_values() &&
                         good_out->tensor.shape() == bad_out->tensor.shape();
  if (r.outputs_comparable)
    r.out_max_abs_error = max_abs_difference(good_out->tensor, bad_out->tensor);

  std::string& s = r.symptom;
  switch (buggy.config.mistake) {
    case Mistake::None:
      s = "no mistake injected";
      break;
    case Mistake::ForgetTranspose:
      s = "scores are " + shape_to_string(buggy.find("scores")->tensor.shape()) +
          " (B, T, h, h): each token's heads attend to each other instead of tokens to tokens";
      break;
    case Mistake::ViewNoContiguous:
      s = "the run stops in the concat stage: " + r.failure;
      break;
    case Mistake::ScaleDModel:
    case Mistake::NoScale:
      s = format(r.entropy_buggy_bits < r.entropy_correct_bits
                     ? "saturated softmax: entropy drops from %.2f to %.2f bits per row"
                     : "flattened softmax: entropy rises from %.2f to %.2f bits per row",
                 r.entropy_correct_bits, r.entropy_buggy_bits);
      break;
    case Mistake::SoftmaxWrongAxis:
    case Mistake::MaskAfterSoftmax:
      s = format("rows no longer sum to 1: max |row sum - 1| = %.3f", r.max_row_sum_error);
      break;
    case Mistake::MaskZero:
      s = correct.config.mask.any()
              ? format("masked tokens leak: largest weight on a masked key = %.3f (correct: 0)",
                       r.max_future_weight)
              : "no mask is set, so masking with 0 changes nothing: turn on the causal mask";
      break;
    case Mistake::SharedQkProjection:
      s = format(
          "scores are symmetric (K = Q); the weight a token puts on itself goes from %.2f "
          "to %.2f",
          mean_self_weight(correct), mean_self_weight(buggy));
      break;
    case Mistake::DropoutOnOutput:
    case Mistake::ConcatNoTranspose:
      s = mistake_info(buggy.config.mistake).symptom;
      break;
  }
  if (r.outputs_comparable) s += format("; output max |error| = %.3g", r.out_max_abs_error);
  return r;
}

std::optional<ShowcaseConfig> config_where_it_shows(const Config& config) {
  Config c = config;
  c.d_k = c.d_v = 0;
  switch (config.mistake) {
    case Mistake::NoScale: {
      // Unscaled scores are sqrt(d_k) times too large: at d_k = 32, 5.7 times.
      c.d_model = 32 * c.n_heads;
      return ShowcaseConfig{
          c, "d_model = " + std::to_string(c.d_model) + " (d_k = 32)",
          format("the missing 1/sqrt(d_k) is then a factor of 5.7 instead of %.2g",
                 std::sqrt(double(config.head_dim_k())))};
    }
    case Mistake::ScaleDModel:
      // sqrt(d_model) / sqrt(d_k) = sqrt(h): 8 heads divide the scores 2.8 times too much.
      c.n_heads = 8;
      c.d_model = 8 * 4;
      return ShowcaseConfig{c, "8 heads, d_model = 32",
                            format("sqrt(d_model) is then sqrt(h) = 2.8 times sqrt(d_k), not %.2g",
                                   std::sqrt(double(config.n_heads)))};
    case Mistake::MaskZero:
    case Mistake::MaskAfterSoftmax:
      if (config.mask.any()) return std::nullopt;
      c = config;
      c.mask.causal = true;
      return ShowcaseConfig{c, "the causal mask on",
                            "without a mask this mistake has nothing to get wrong"};
    case Mistake::ConcatNoTranspose:
    case Mistake::ViewNoContiguous:
      if (config.n_heads > 1) return std::nullopt;
      c.n_heads = 2;
      c.d_model += c.d_model % 2;
      return ShowcaseConfig{c, "2 heads", "with one head the transpose moves nothing"};
    default:
      return std::nullopt;
  }
}

}  // namespace attnlab
