#include "core/trace/plan.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/model/inputs.hpp"

namespace attnlab {

namespace {

// The p dropout-on-output drops the context with when the dropout setting is 0: the bug would
// otherwise change nothing.
constexpr double kContextDropoutWhenOff = 0.1;

// [SECTION] the decisions

void decide(const Config& c, Plan& p) {
  const Mistake bug = c.mistake;
  p.shared_qk = bug == Mistake::SharedQkProjection;
  p.heads_transposed = bug != Mistake::ForgetTranspose;
  p.scale = bug != Mistake::NoScale;
  p.scale_by = bug == Mistake::ScaleDModel ? c.d_model : c.head_dim_k();
  p.mask_fits = c.mask.any() && p.heads_transposed;
  p.mask_after_softmax = p.mask_fits && bug == Mistake::MaskAfterSoftmax;
  p.mask_before_softmax = p.mask_fits && !p.mask_after_softmax;
  p.mask_fill_zero = bug == Mistake::MaskZero;
  p.softmax_over_queries = bug == Mistake::SoftmaxWrongAxis;
  p.drop_context = bug == Mistake::DropoutOnOutput;
  p.drop_weights = c.dropout > 0 && !p.drop_context;
  p.context_dropout = c.dropout > 0 ? c.dropout : kContextDropoutWhenOff;
  for (int64_t hd = 0; hd < c.n_heads && hd < int64_t(c.ablated_heads.size()); ++hd)
    if (c.ablated_heads[size_t(hd)]) p.ablated.push_back(hd);
  p.concat = bug == Mistake::ConcatNoTranspose  ? Plan::ConcatPath::ViewOnly
             : bug == Mistake::ViewNoContiguous ? Plan::ConcatPath::ViewFails
                                                : Plan::ConcatPath::TransposeCopyView;
}

// [SECTION] the steps

struct Sizes {
  int64_t B, T, h, dk, dv, d_in, d_model;
};

Axis batch(const Sizes& s) {
  return {AxisKind::Batch, "B", s.B};
}
Axis tokens(const Sizes& s) {
  return {AxisKind::Token, "T", s.T};
}
Axis heads(const Sizes& s) {
  return {AxisKind::Head, "h", s.h};
}
Axis feature(const std::string& symbol, int64_t size, int64_t side_by_side = 1) {
  return {AxisKind::Feature, symbol, size, side_by_side};
}

// One projection's project, split and transpose steps (q, k or v).
void add_head_steps(const Config& c, const Plan& p, const Sizes& s, char which,
                    std::vector<PlannedStep>& steps) {
  const std::string n(1, which);
  const bool is_v = which == 'v';
  const std::string d = is_v ? "d_v" : "d_k";
  const int64_t width = is_v ? s.dv : s.dk;
  const bool shared = p.shared_qk && which == 'k';
  const std::string weight = shared ? "q" : n;
  std::vector<std::string> inputs = {"x", "w_" + weight};
  if (c.bias) inputs.push_back("b_" + weight);
  steps.push_back({Op::Project,
                   which,
                   Stage::Project,
                   Substep::None,
                   n,
                   {batch(s), tokens(s), feature("h*" + d, s.h * width, s.h)},
                   inputs,
                   true,
                   shared});
  steps.push_back({Op::Split,
                   which,
                   Stage::Split,
                   Substep::None,
                   n + "_split",
                   {batch(s), tokens(s), heads(s), feature(d, width)},
                   {n},
                   true,
                   false});
  steps.push_back({Op::Transpose,
                   which,
                   Stage::Transpose,
                   Substep::None,
                   n + "_heads",
                   {batch(s), heads(s), tokens(s), feature(d, width)},
                   {n + "_split"},
                   p.heads_transposed,
                   !p.heads_transposed,
                   !p.heads_transposed});
}

void add_attend_steps(const Plan& p, const Sizes& s, std::vector<PlannedStep>& steps) {
  const std::string q = p.heads_transposed ? "q_heads" : "q_split";
  const std::string k = p.heads_transposed ? "k_heads" : "k_split";
  const std::string v = p.heads_transposed ? "v_heads" : "v_split";
  // (B, h, T, T), or (B, T, h, h) when the heads stayed in axis 2.
  const Axes maps = p.heads_transposed
                        ? Axes{batch(s), heads(s), tokens(s), {AxisKind::Key, "T", s.T}}
                        : Axes{batch(s), tokens(s), heads(s), {AxisKind::Key, "h", s.h}};
  const Axes context = p.heads_transposed
                           ? Axes{batch(s), heads(s), tokens(s), feature("d_v", s.dv)}
                           : Axes{batch(s), tokens(s), heads(s), feature("d_v", s.dv)};
  const Mistake bug = p.config.mistake;
  auto add = [&](Op op, Substep sub, const std::string& name, const Axes& axes,
                 std::vector<std::string> inputs, bool recorded, bool changed) {
    steps.push_back({op, 0, Stage::Attend, sub, name, axes, std::move(inputs), recorded, changed});
  };
  add(Op::Scores, Substep::Scores, "scores", maps, {q, k}, true, false);
  add(Op::Scale, Substep::Scale, "scaled", maps, {"scores"}, true,
      bug == Mistake::NoScale || bug == Mistake::ScaleDModel);
  steps.back().left_out = !p.scale;
  add(Op::Mask, Substep::Mask, "masked", maps, {"scaled"}, true,
      p.mask_before_softmax && p.mask_fill_zero);
  const std::string softmaxed = p.mask_after_softmax ? "weights_before_mask" : "weights";
  add(Op::Softmax, Substep::Softmax, softmaxed, maps, {"masked"}, true, p.softmax_over_queries);
  add(Op::ZeroMasked, Substep::Mask, "weights", maps, {"weights_before_mask"}, p.mask_after_softmax,
      p.mask_after_softmax);
  add(Op::DropWeights, Substep::Dropout, "weights_dropout", maps, {"weights"}, p.drop_weights,
      false);
  add(Op::AttendValues, Substep::AttendValues,
      p.drop_context ? "context_before_dropout" : "context", context,
      {p.drop_weights ? "weights_dropout" : "weights", v}, true, false);
  add(Op::DropContext, Substep::Dropout, "context", context, {"context_before_dropout"},
      p.drop_context, p.drop_context);
  add(Op::Ablate, Substep::Ablate, "context_ablated", context, {"context"}, !p.ablated.empty(),
      false);
}

void add_concat_steps(const Config& c, const Plan& p, const Sizes& s,
                      std::vector<PlannedStep>& steps) {
  using Path = Plan::ConcatPath;
  const std::string context = p.ablated.empty() ? "context" : "context_ablated";
  const Axes back = p.heads_transposed ? Axes{batch(s), tokens(s), heads(s), feature("d_v", s.dv)}
                                       : Axes{batch(s), heads(s), tokens(s), feature("d_v", s.dv)};
  steps.push_back({Op::TransposeBack,
                   0,
                   Stage::Concat,
                   Substep::TransposeBack,
                   "context_t",
                   back,
                   {context},
                   p.concat != Path::ViewOnly,
                   false});
  steps.push_back({Op::Contiguous,
                   0,
                   Stage::Concat,
                   Substep::Contiguous,
                   "context_contiguous",
                   back,
                   {"context_t"},
                   p.concat == Path::TransposeCopyView,
                   false});
  // view-no-contiguous fails here unless the transposed context happens to be contiguous (one
  // head, or one token): then the view goes through and the run carries on.
  const std::string viewed = p.concat == Path::ViewOnly    ? context
                             : p.concat == Path::ViewFails ? "context_t"
                                                           : "context_contiguous";
  steps.push_back({Op::ConcatView,
                   0,
                   Stage::Concat,
                   Substep::View,
                   "concat",
                   {batch(s), tokens(s), feature("h*d_v", s.h * s.dv, s.h)},
                   {viewed},
                   true,
                   p.concat != Path::TransposeCopyView});
  std::vector<std::string> inputs = {"concat"};
  if (c.output_proj) inputs.push_back("w_o");
  if (c.output_proj && c.bias) inputs.push_back("b_o");
  const Axis width =
      c.output_proj ? feature("d_model", s.d_model) : feature("h*d_v", s.h * s.dv, s.h);
  steps.push_back({Op::OutputProject,
                   0,
                   Stage::OutputProject,
                   Substep::None,
                   "out",
                   {batch(s), tokens(s), width},
                   inputs,
                   true,
                   false});
}

}  // namespace

Plan plan_for(const Config& c) {
  Plan p;
  p.config = c;
  decide(c, p);
  const Sizes s{c.batch,        c.tokens(),    c.n_heads, c.head_dim_k(),
                c.head_dim_v(), c.input_dim(), c.d_model};
  p.steps.push_back({Op::Input,
                     0,
                     Stage::Input,
                     Substep::None,
                     "x",
                     {batch(s), tokens(s), feature("d_in", s.d_in)},
                     {},
                     true,
                     false});
  for (char which : {'q', 'k', 'v'}) add_head_steps(c, p, s, which, p.steps);
  // Project, split and transpose run q, k, v one stage at a time: order them by stage.
  std::stable_sort(p.steps.begin(), p.steps.end(), [](const PlannedStep& a, const PlannedStep& b) {
    return int(a.stage) < int(b.stage);
  });
  add_attend_steps(p, s, p.steps);
  add_concat_steps(c, p, s, p.steps);
  return p;
}

const PlannedStep& Plan::step(const std::string& name) const {
  // The last recorded step of that name: "context" is the dropped one under dropout-on-output.
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (it->recorded && it->name == name) return *it;
  throw std::logic_error("the plan has no recorded step named " + name);
}

double element_bound(const Config& c) {
  for (int64_t size :
       {c.batch, c.tokens(), c.n_heads, c.head_dim_k(), c.head_dim_v(), c.input_dim(), c.d_model}) {
    if (size <= 0) return 0;
    // Far beyond every limit validate() sets: no size product below may be formed in int64.
    if (size > (int64_t{1} << 30)) return std::numeric_limits<double>::infinity();
  }
  double total = 0;
  const auto add = [&](const Shape& shape) {
    double n = 1;
    for (int64_t size : shape) n *= double(size);
    total += n;
  };
  for (const PlannedStep& step : plan_for(c).steps) {
    Shape shape;
    for (const Axis& axis : step.axes) shape.push_back(axis.size);
    add(shape);
  }
  for (const Shape& shape : parameter_shapes(c)) add(shape);
  return total;
}

}  // namespace attnlab
