#include "core/exercise/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/exercise/grade.hpp"
#include "core/model/errors.hpp"
#include "core/model/masks.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {

namespace {

using Values = std::vector<Scalar>;
constexpr double kSumTolerance = 1e-3;  // a softmax's sums, as float32 answers hold them

NamedMistake named(Mistake m, std::string evidence) {
  const MistakeInfo& info = mistake_info(m);
  return {info.name, info.title, info.symptom, info.wrong, info.right, m, std::move(evidence)};
}

NamedMistake no_output_projection(std::string evidence) {
  return {"no-output-projection",
          "Leaving out the output projection",
          "out is the heads' concat: the heads are never mixed by W_o",
          "return concat",
          "return concat @ W_o  # (B, T, d_model); + b_o with biases",
          Mistake::None,
          std::move(evidence)};
}

NamedMistake mask_missing(std::string evidence) {
  return {"mask-missing",
          "Leaving out the mask",
          "masked (future) keys get weight as if there were no mask",
          "weights = F.softmax(scores, dim=-1)",
          "weights = F.softmax(scores.masked_fill(~visible, float('-inf')), dim=-1)",
          Mistake::None,
          std::move(evidence)};
}

// What the diagnosis reads: the student's tensor when given with this shape, else null.
struct Reader {
  const Exercise& e;
  const Answer& a;
  const Tensor* given(const std::string& name) const { return a.find(name); }
  const Tensor* given_shaped(const std::string& name) const {
    const Tensor* g = a.find(name);
    const TensorRecord* r = e.answer.find(name);
    return g && r && g->shape() == r->tensor.shape() ? g : nullptr;
  }
  const Tensor& right(const std::string& name) const { return e.answer.find(name)->tensor; }
  bool wrong(const std::string& name) const {
    const Tensor* g = given(name);
    return g && e.answer.find(name) && !same_answer(*g, right(name));
  }
};

Tensor tensor_of(const Values& values, const Shape& shape) {
  Tensor t = Tensor::zeros("candidate", shape);
  std::copy(values.begin(), values.end(), t.data());
  return t;
}

// The attend stage's variants on scaled scores (B, h, T, T), as each mistake computes them. The
// grader's own softmax, on purpose: it simulates what a student wrote (masked with 0, not masked,
// masked after the softmax, the wrong axis) from the student's own scores, which the per-head
// kernel (core/attention, the correct path only) does not compute.
enum class Attend { Right, MaskZero, MaskMissing, MaskAfterSoftmax, WrongAxis };

Tensor attend(const Tensor& scaled, const std::vector<uint8_t>& visible, Attend how) {
  const Shape& shape = scaled.shape();  // (B, h, T, T)
  const int64_t B = shape[0], H = shape[1], T = shape[2], K = shape[3];
  Values s = scaled.to_vector(), w(s.size(), 0);
  const auto seen = [&](int64_t b, int64_t i, int64_t j) { return visible[(b * T + i) * K + j]; };
  const float minus_inf = -std::numeric_limits<float>::infinity();
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < K; ++j) {
          float& v = s[((b * H + h) * T + i) * K + j];
          if (seen(b, i, j)) continue;
          if (how == Attend::Right || how == Attend::WrongAxis) v = minus_inf;
          if (how == Attend::MaskZero) v = 0;
        }
  // Softmax over keys (j), or over queries (i) for the wrong axis.
  const bool over_queries = how == Attend::WrongAxis;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t line = 0; line < (over_queries ? K : T); ++line) {
        const auto at = [&](int64_t n) {
          const int64_t i = over_queries ? n : line, j = over_queries ? line : n;
          return ((b * H + h) * T + i) * K + j;
        };
        const int64_t count = over_queries ? T : K;
        double top = -std::numeric_limits<double>::infinity(), sum = 0;
        for (int64_t n = 0; n < count; ++n) top = std::max(top, double(s[at(n)]));
        if (std::isinf(top)) continue;  // nothing visible: zeros
        for (int64_t n = 0; n < count; ++n) sum += std::exp(double(s[at(n)]) - top);
        for (int64_t n = 0; n < count; ++n)
          w[at(n)] = float(std::exp(double(s[at(n)]) - top) / sum);
      }
  if (how == Attend::MaskAfterSoftmax)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < T; ++i)
          for (int64_t j = 0; j < K; ++j)
            if (!seen(b, i, j)) w[((b * H + h) * T + i) * K + j] = 0;
  return tensor_of(w, shape);
}

// What a student's weights (B, h, T, T) add up to: the rows' sums over the keys, and the largest
// weight on a masked key.
struct WeightSums {
  double least_row = 0, most_row = 0, most_masked = 0;
};

WeightSums weight_sums(const Tensor& weights, const std::vector<uint8_t>& visible) {
  const Shape& shape = weights.shape();
  const int64_t B = shape[0], H = shape[1], T = shape[2], K = shape[3];
  const Values w = weights.to_vector();
  WeightSums sums{std::numeric_limits<double>::infinity(), 0, 0};
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < T; ++i) {
        double row = 0;
        for (int64_t j = 0; j < K; ++j) {
          const double v = w[((b * H + h) * T + i) * K + j];
          row += v;
          if (!visible[(b * T + i) * K + j]) sums.most_masked = std::max(sums.most_masked, v);
        }
        sums.least_row = std::min(sums.least_row, row);
        sums.most_row = std::max(sums.most_row, row);
      }
  return sums;
}

// The least-squares factor c with given ≈ c * right over entries finite in both; 0 when the
// factor does not explain the given values.
double constant_factor(const Tensor& given, const Tensor& right) {
  const Values g = given.to_vector(), r = right.to_vector();
  double gr = 0, rr = 0;
  for (size_t i = 0; i < g.size(); ++i)
    if (std::isfinite(g[i]) && std::isfinite(r[i]))
      gr += double(g[i]) * r[i], rr += double(r[i]) * r[i];
  if (rr == 0) return 0;
  const double c = gr / rr;
  Values scaled_right(r.size());
  for (size_t i = 0; i < r.size(); ++i) scaled_right[i] = float(c * r[i]);
  return same_answer(given, tensor_of(scaled_right, right.shape())) ? c : 0;
}

bool near(double a, double b) {
  return std::abs(a - b) <= 0.01 * std::abs(b);
}

std::string factor_text(double c) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", c);
  return text;
}

// The signatures, stage by stage. Each adds what it finds.
void by_signature(const Reader& in, const Config& c, std::vector<NamedMistake>& found) {
  const Trace& right = in.e.answer;
  const int64_t B = c.batch, T = c.tokens(), h = c.n_heads;
  // forget-transpose: attention maps of shape (B, T, h, h), or the heads never moved.
  for (const char* name : {"scores", "scaled", "masked", "weights"}) {
    const Tensor* g = in.given(name);
    if (g && T != h && g->shape() == Shape{B, T, h, h}) {
      found.push_back(
          named(Mistake::ForgetTranspose,
                std::string(name) + " is " + shape_to_string(g->shape()) + " (B, T, h, h), not " +
                    shape_to_string(right.find(name)->tensor.shape()) + " (B, h, T, T)"));
      break;
    }
  }
  if (found.empty()) {
    for (const char* name : {"q_heads", "k_heads", "v_heads"}) {
      const Tensor* g = in.given(name);
      const std::string split = std::string(name).substr(0, 1) + "_split";
      if (g && right.find(name) && g->shape() != right.find(name)->tensor.shape() &&
          same_answer(*g, right.find(split)->tensor)) {
        found.push_back(named(Mistake::ForgetTranspose,
                              std::string(name) + " is " + split + " itself, " +
                                  shape_to_string(g->shape()) + " (B, T, h, d): never transposed"));
        break;
      }
    }
  }
  // shared-qk-projection: K equal to Q.
  for (const auto& [k, q] : {std::pair{"k", "q"}, std::pair{"k_heads", "q_heads"}}) {
    const Tensor* g = in.given(k);
    if (g && in.wrong(k) && right.find(q) && same_answer(*g, right.find(q)->tensor)) {
      found.push_back(
          named(Mistake::SharedQkProjection, std::string(k) + " equals the right " + q));
      break;
    }
  }
  // Scaling: scaled a constant factor off.
  if (const Tensor* g = in.given_shaped("scaled"); g && in.wrong("scaled")) {
    const double factor = constant_factor(*g, right.find("scaled")->tensor);
    const double dk = double(c.head_dim_k());
    if (factor > 0 && near(factor, std::sqrt(dk)) && dk > 1)
      found.push_back(named(Mistake::NoScale, "scaled is sqrt(d_k) = " + factor_text(factor) +
                                                  " times the right one: the scores unscaled"));
    else if (factor > 0 && near(factor, 1 / std::sqrt(double(h))) && h > 1)
      found.push_back(
          named(Mistake::ScaleDModel, "scaled is 1/sqrt(h) = " + factor_text(factor) +
                                          " times the right one: divided by sqrt(d_model)"));
  }
  // The attend stage: the weights against each way of masking and normalising the scores given
  // (the student's own scaled when it has the right shape, else the right one).
  if (const Tensor* w = in.given_shaped("weights"); w && in.wrong("weights")) {
    const Tensor* own = in.given_shaped("scaled");
    const Tensor& base = own ? *own : right.find("scaled")->tensor;
    const std::vector<uint8_t> visible = visibility(c.mask, B, T);
    const Tensor proper = attend(base, visible, Attend::Right);
    const WeightSums sums = weight_sums(*w, visible);
    const std::vector<std::pair<Attend, NamedMistake>> ways{
        {Attend::WrongAxis,
         named(Mistake::SoftmaxWrongAxis, "each column of weights sums to 1; the rows sum from " +
                                              format_number(sums.least_row) + " to " +
                                              format_number(sums.most_row))},
        {Attend::MaskZero, named(Mistake::MaskZero, "masked keys get weight (up to " +
                                                        format_number(sums.most_masked) +
                                                        "), what exp(0) gives them")},
        {Attend::MaskAfterSoftmax,
         named(Mistake::MaskAfterSoftmax, "masked weights are 0 and rows sum to as little as " +
                                              format_number(sums.least_row))},
        {Attend::MaskMissing,
         mask_missing("the weights are the softmax of the unmasked scores: masked keys get up "
                      "to " +
                      format_number(sums.most_masked))},
    };
    bool matched = same_answer(*w, proper);  // right given the student's own scores
    for (const auto& [way, mistake] : ways) {
      const Tensor candidate = attend(base, visible, way);
      if (matched || same_answer(candidate, proper) || !same_answer(*w, candidate)) continue;
      found.push_back(mistake);
      matched = true;
    }
  }
  // mask-zero from the masked stage itself: 0 where the right one has -inf.
  if (const Tensor* m = in.given_shaped("masked"); m && in.wrong("masked") && c.mask.any()) {
    const Values g = m->to_vector(), r = right.find("masked")->tensor.to_vector();
    bool zero_where_masked = false, all = true;
    for (size_t i = 0; i < g.size(); ++i)
      if (std::isinf(r[i])) (g[i] == 0 ? zero_where_masked = true : all = false);
    const bool listed = std::any_of(found.begin(), found.end(),
                                    [](const NamedMistake& n) { return n.name == "mask-zero"; });
    if (zero_where_masked && all && !listed)
      found.push_back(named(Mistake::MaskZero, "masked holds 0, not -inf, where keys are hidden"));
  }
  // concat-no-transpose: concat is the context's memory read without moving the heads back.
  if (const Tensor* g = in.given_shaped("concat"); g && in.wrong("concat")) {
    const Tensor* own = in.given_shaped("context");
    const Tensor& context = own ? *own : right.find("context")->tensor;
    if (same_answer(*g, tensor_of(context.to_vector(), g->shape())))
      found.push_back(named(Mistake::ConcatNoTranspose,
                            "concat is context (B, h, T, d_v) viewed as (B, T, h*d_v): each row "
                            "mixes heads and tokens"));
  }
  // The output projection left out: out equal to the concat.
  if (const Tensor* g = in.given("out"); g && c.output_proj && in.wrong("out")) {
    const Tensor* own = in.given("concat");
    if (same_answer(*g, right.find("concat")->tensor) || (own && same_answer(*g, *own)))
      found.push_back(no_output_projection("out equals the concat: W_o was never applied"));
  }
}

// Grouped K/V heads as plain multi-head attention (the simulator's ground): each K/V head's
// columns of w_k, w_v (and b_k, b_v) repeated for the g query heads it serves, in a row. The
// numbers after the projections are the same.
Tensor repeat_head_columns(const Tensor& t, int64_t kv_heads, int64_t group) {
  if (!t.storage()) return t;
  const int64_t rows = t.dim() == 2 ? t.size(0) : 1, cols = t.size(-1), width = cols / kv_heads;
  const Values v = t.to_vector();
  Values out;
  out.reserve(v.size() * group);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t head = 0; head < kv_heads; ++head)
      for (int64_t copy = 0; copy < group; ++copy)
        out.insert(out.end(), v.begin() + r * cols + head * width,
                   v.begin() + r * cols + (head + 1) * width);
  return tensor_of(out, t.dim() == 2 ? Shape{rows, cols * group} : Shape{cols * group});
}

// The stages a grouped exercise computes on the K/V side (n_kv heads): the plain simulation makes
// them with h heads, so they are compared with the right answer (no mistake lives there).
bool kv_side(const std::string& name) {
  return name[0] == 'k' || name[0] == 'v';
}

// Every simulated mistake whose traced run gives exactly the stages given (and changes one).
void by_simulation(const Reader& in, const Config& c, std::vector<NamedMistake>& found) {
  Config plain = c;
  Inputs inputs = in.e.inputs;
  if (c.grouped()) {
    plain.n_kv_heads = 0;
    for (Tensor* t : {&inputs.w_k, &inputs.w_v, &inputs.b_k, &inputs.b_v})
      *t = repeat_head_columns(*t, c.kv_heads(), c.group_size());
  }
  for (const MistakeInfo& info : all_mistakes()) {
    if (c.grouped() && info.id == Mistake::SharedQkProjection) continue;  // W_q has h heads
    Config buggy = plain;
    buggy.mistake = info.id;
    Trace sim;
    try {
      sim = run(buggy, inputs);
    } catch (const UserError&) {
      continue;
    }
    if (sim.failure.failed) continue;
    bool explains = true, changes = false;
    for (const AnswerArray& a : in.a.arrays) {
      const TensorRecord* r = in.e.answer.find(a.name);
      if (!r || r->stage == Stage::Input) continue;
      const TensorRecord* s = c.grouped() && kv_side(a.name) ? r : sim.find(a.name);
      if (!s || !same_answer(a.tensor, s->tensor)) {
        explains = false;
        break;
      }
      changes = changes || !same_answer(s->tensor, r->tensor);
    }
    if (explains && changes)
      found.push_back(named(info.id, "the simulator's " + std::string(info.name) +
                                         " run on these inputs gives exactly the stages given"));
  }
  const Tensor* out = in.given("out");
  if (c.output_proj && out && in.a.arrays.size() == 1 && in.wrong("out") &&
      same_answer(*out, in.right("concat")))
    found.push_back(no_output_projection("out equals the right concat: W_o was never applied"));
}

std::string join_heads(const std::vector<int64_t>& heads) {
  std::string text;
  for (int64_t h : heads) text += (text.empty() ? "" : ", ") + std::to_string(h);
  return text;
}

std::string where_it_differs(const StageGrade& s) {
  std::string text = "nothing known explains it: the first wrong stage is " + s.name + " " + s.axes;
  if (!s.shape_ok)
    return text + ", given " + shape_to_string(s.given_shape) + " where the exercise's is " +
           shape_to_string(s.right_shape) + ": an answer to another exercise, or a wrong reshape";
  text += ": " + std::to_string(s.wrong_entries) + " of " + std::to_string(s.entries) +
          " entries differ";
  if (!s.differing_heads.empty())
    text += std::string(s.differing_heads.size() == 1 ? ", in head " : ", in heads ") +
            join_heads(s.differing_heads);
  if (!s.worst_index.empty())
    text += "; the largest at " + shape_to_string(s.worst_index) + ": " +
            format_number(s.worst_given) + " given, " + format_number(s.worst_right) + " right";
  return text;
}

}  // namespace

Diagnosis diagnose(const Exercise& exercise, const Answer& answer,
                   const std::vector<StageGrade>& stages) {
  Diagnosis d;
  const Reader in{exercise, answer};
  by_signature(in, exercise.config, d.mistakes);
  if (d.mistakes.empty()) by_simulation(in, exercise.config, d.mistakes);
  if (d.mistakes.empty()) {
    for (const StageGrade& s : stages) {
      if (!s.wrong()) continue;
      d.unexplained = where_it_differs(s);
      break;
    }
  }
  return d;
}

}  // namespace attnlab
