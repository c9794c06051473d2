#include "core/trace/plan.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/model/inputs.hpp"
#include "core/trace/plan_sizes.hpp"

namespace attnlab {

namespace {

// The p dropout-on-output drops the context with when the dropout setting is 0: the bug would
// otherwise change nothing.
constexpr double kContextDropoutWhenOff = 0.1;

// [SECTION] the decisions

void decide(const Config& c, Plan& p) {
  const Mistake bug = c.mistake;
  p.shared_qk = bug == Mistake::SharedQkProjection;
  p.fused_qkv = c.fused_qkv && !p.shared_qk && !c.latent() && !c.cross();
  p.heads_transposed = bug != Mistake::ForgetTranspose;
  p.rotate = c.rotary() && p.heads_transposed;
  p.alibi = c.alibi() && p.heads_transposed;
  p.scale = bug != Mistake::NoScale;
  p.scale_by = bug == Mistake::ScaleDModel ? c.d_model : c.score_dim();
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
  // The passes beside the forward pass need its values.
  if (c.decode_steps > 0 && !c.shape_only) p.decode_prompt = c.tokens() - c.decode_steps;
  p.absorbed = c.latent() && !c.shape_only;
  p.concat = bug == Mistake::ConcatNoTranspose  ? Plan::ConcatPath::ViewOnly
             : bug == Mistake::ViewNoContiguous ? Plan::ConcatPath::ViewFails
                                                : Plan::ConcatPath::TransposeCopyView;
}

// [SECTION] the steps

struct Sizes {
  int64_t B, T, h, dk, dv, d_in, d_model;
  int64_t Tk, hk, g;  // key tokens (T_k with cross-attention), K/V heads, query heads per K/V head
  int64_t d_in_kv, d_c, d_cq, d_rope;
};

Axis batch(const Sizes& s) {
  return {AxisKind::Batch, "B", s.B};
}
Axis tokens(const Sizes& s) {
  return {AxisKind::Token, "T", s.T};
}
// The keys' and values' tokens: T_k, another sentence's, with cross-attention.
Axis key_tokens(const Config& c, const Sizes& s) {
  return {AxisKind::Token, c.cross() ? "T_k" : "T", s.Tk};
}
Axis heads(const Sizes& s) {
  return {AxisKind::Head, "h", s.h};
}
Axis feature(const std::string& symbol, int64_t size, int64_t side_by_side = 1) {
  return {AxisKind::Feature, symbol, size, side_by_side};
}

PlannedStep step(Op op, char which, Stage stage, const std::string& name, Axes axes,
                 std::vector<std::string> inputs, Substep substep = Substep::None) {
  return {op, which, stage, substep, name, std::move(axes), std::move(inputs), true, false};
}

// One projection's project, split and transpose steps (q, k or v). K and V have n_kv heads
// (GQA/MQA) and, with cross-attention, T_k tokens from x_kv; with MLA they come from c_kv.
void add_head_steps(const Config& c, const Plan& p, const Sizes& s, char which,
                    std::vector<PlannedStep>& steps) {
  const std::string n(1, which);
  const bool is_q = which == 'q', is_v = which == 'v';
  const std::string d = is_v ? "d_v" : "d_k";
  const int64_t width = is_v ? s.dv : s.dk;
  const Axis t = is_q ? tokens(s) : key_tokens(c, s);
  const Axis hd = is_q || !c.grouped() ? heads(s) : Axis{AxisKind::Head, "n_kv", s.hk};
  const bool shared = p.shared_qk && which == 'k';
  const std::string weight = shared ? "q" : n;
  const std::string source = is_q         ? (c.q_latent > 0 ? "c_q" : "x")
                             : c.latent() ? "c_kv"
                             : c.cross()  ? "x_kv"
                                          : "x";
  std::vector<std::string> inputs = {source, "w_" + weight};
  if (c.bias) inputs.push_back("b_" + weight);
  if (p.fused_qkv) inputs = {"qkv"};
  steps.push_back({p.fused_qkv ? Op::SplitColumns : Op::Project,
                   which,
                   Stage::Project,
                   Substep::None,
                   n,
                   {batch(s), t, feature(hd.symbol + "*" + d, hd.size * width, hd.size)},
                   inputs,
                   true,
                   shared});
  steps.push_back(step(Op::Split, which, Stage::Split, n + "_split",
                       {batch(s), t, hd, feature(d, width)}, {n}));
  steps.push_back({Op::Transpose,
                   which,
                   Stage::Transpose,
                   Substep::None,
                   n + "_heads",
                   {batch(s), hd, t, feature(d, width)},
                   {n + "_split"},
                   p.heads_transposed,
                   !p.heads_transposed,
                   !p.heads_transposed});
}

// Llama's RoPE: each head's q and k turned by its token's position, after the transpose (and
// before GQA's expand, which reads the turned k). With forget-transpose the lines are there,
// commented out: the rotation is skipped (plan_notices says why).
void add_rotate_steps(const Config& c, const Plan& p, const Sizes& s,
                      std::vector<PlannedStep>& steps) {
  const Axis dk = feature("d_k", s.dk);
  const Axis kv_heads = c.grouped() ? Axis{AxisKind::Head, "n_kv", s.hk} : heads(s);
  steps.push_back(step(Op::Rotate, 'q', Stage::Transpose, "q_rot",
                       {batch(s), heads(s), tokens(s), dk}, {"q_heads", "rope_inv_freq"},
                       Substep::Rotate));
  steps.push_back(step(Op::Rotate, 'k', Stage::Transpose, "k_rot",
                       {batch(s), kv_heads, key_tokens(c, s), dk}, {"k_heads", "rope_inv_freq"},
                       Substep::Rotate));
  for (auto it = steps.end() - 2; it != steps.end(); ++it) {
    it->recorded = p.rotate;
    it->left_out = !p.rotate;
  }
}

// GQA/MQA: each K/V head expanded to the g query heads it serves, by a stride of 0, then
// reshaped to (B, h, T_k, d): the copy PyTorch's repeat_kv makes (none with one K/V head).
void add_group_steps(const Config& c, const Plan& p, const Sizes& s,
                     std::vector<PlannedStep>& steps) {
  for (char which : {'k', 'v'}) {
    const std::string n(1, which);
    const Axis f = feature(which == 'v' ? "d_v" : "d_k", which == 'v' ? s.dv : s.dk);
    const Axis kv_heads{AxisKind::Head, "n_kv", s.hk}, group{AxisKind::Group, "g", s.g};
    const std::string source = which == 'k' && p.rotate ? "k_rot" : n + "_heads";
    steps.push_back(step(Op::ExpandHeads, which, Stage::Transpose, n + "_grouped",
                         {batch(s), kv_heads, group, key_tokens(c, s), f}, {source},
                         Substep::Expand));
    steps.push_back(step(Op::MergeGroups, which, Stage::Transpose, n + "_expanded",
                         {batch(s), heads(s), key_tokens(c, s), f}, {n + "_grouped"},
                         Substep::Expand));
  }
}

// MLA: the latent the queries (c_q, optional) or the keys and values (c_kv) are made from.
void add_latent_step(const Config& c, const Sizes& s, char which, std::vector<PlannedStep>& steps) {
  if (which == 'q' && c.q_latent > 0)
    steps.push_back(step(Op::Compress, 'q', Stage::Project, "c_q",
                         {batch(s), tokens(s), feature("d_c'", s.d_cq)}, {"x", "w_dq"}));
  if (which == 'k' && c.latent())
    steps.push_back(step(Op::Compress, 'k', Stage::Project, "c_kv",
                         {batch(s), tokens(s), feature("d_c", s.d_c)}, {"x", "w_dkv"}));
}

// MLA's decoupled rotary query and key: the rotary query is split into heads like q, the one
// rotary key expanded to every head (stride 0), and each joins its head's query or key.
void add_rope_steps(const Config& c, const Sizes& s, std::vector<PlannedStep>& steps) {
  const std::string q_source = c.q_latent > 0 ? "c_q" : "x";
  const Axis rope = feature("d_rope", s.d_rope);
  steps.push_back(step(Op::RopeProject, 'r', Stage::Project, "q_rope",
                       {batch(s), tokens(s), feature("h*d_rope", s.h * s.d_rope, s.h)},
                       {q_source, "w_qr"}));
  steps.push_back(step(Op::RopeProject, 'k', Stage::Project, "k_rope", {batch(s), tokens(s), rope},
                       {"x", "w_kr"}));
  steps.push_back(step(Op::Split, 'r', Stage::Split, "q_rope_split",
                       {batch(s), tokens(s), heads(s), rope}, {"q_rope"}));
  steps.push_back(step(Op::Transpose, 'r', Stage::Transpose, "q_rope_heads",
                       {batch(s), heads(s), tokens(s), rope}, {"q_rope_split"}));
  steps.push_back(step(Op::ExpandHeads, 'r', Stage::Transpose, "k_rope_heads",
                       {batch(s), heads(s), tokens(s), rope}, {"k_rope"}, Substep::Expand));
  const Axis joined = feature("d_k+d_rope", s.dk + s.d_rope);
  steps.push_back(step(Op::JoinRope, 'q', Stage::Transpose, "q_full",
                       {batch(s), heads(s), tokens(s), joined}, {"q_heads", "q_rope_heads"},
                       Substep::JoinRope));
  steps.push_back(step(Op::JoinRope, 'k', Stage::Transpose, "k_full",
                       {batch(s), heads(s), tokens(s), joined}, {"k_heads", "k_rope_heads"},
                       Substep::JoinRope));
}

void add_attend_steps(const Plan& p, const Sizes& s, std::vector<PlannedStep>& steps) {
  const Config& c = p.config;
  const bool rope = c.latent() && s.d_rope > 0;
  const std::string q = !p.heads_transposed ? "q_split"
                        : rope              ? "q_full"
                        : p.rotate          ? "q_rot"
                                            : "q_heads";
  const std::string k = !p.heads_transposed ? "k_split"
                        : rope              ? "k_full"
                        : c.grouped()       ? "k_expanded"
                        : p.rotate          ? "k_rot"
                                            : "k_heads";
  const std::string v = !p.heads_transposed ? "v_split" : c.grouped() ? "v_expanded" : "v_heads";
  // (B, h, T, T_k), or (B, T, h, h) when the heads stayed in axis 2.
  const Axes maps =
      p.heads_transposed
          ? Axes{batch(s), heads(s), tokens(s), {AxisKind::Key, key_tokens(c, s).symbol, s.Tk}}
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
  // ALiBi: the per-head distance bias (h, T, T_k) broadcast over the batch, before the mask.
  add(Op::AddBias, Substep::Bias, "biased", maps, {"scaled", "alibi_bias"}, p.alibi, false);
  steps.back().left_out = c.alibi() && !p.alibi;
  add(Op::Mask, Substep::Mask, "masked", maps, {p.alibi ? "biased" : "scaled"}, true,
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

// [SECTION] beside the forward pass

PlannedStep beside(Pass pass, int64_t position, PlannedStep s) {
  s.pass = pass;
  s.position = position;
  return s;
}

// KV-cache decoding: the prompt's K and V cached once (views of a cache with room for T tokens),
// then each later token alone: its q, k, v, the cache grown by one slot, a score row per head.
void add_decode_steps(const Plan& p, const Sizes& s, std::vector<PlannedStep>& steps) {
  const int64_t P = p.decode_prompt;
  const Axis kv_heads{AxisKind::Head, "n_kv", s.hk}, one{AxisKind::Token, "1", 1};
  const Axis dk = feature("d_k", s.dk), dv = feature("d_v", s.dv);
  for (char which : {'k', 'v'}) {
    const std::string n(1, which);
    std::vector<std::string> inputs = {"x", "w_" + n};
    if (which == 'k' && p.rotate) inputs.push_back("rope_inv_freq");  // the cache holds k turned
    steps.push_back(beside(
        Pass::Prefill, -1,
        step(Op::PrefillCache, which, Stage::Project, "prefill_" + n + "_cache",
             {batch(s), kv_heads, {AxisKind::Token, "P", P}, which == 'k' ? dk : dv}, inputs)));
  }
  for (int64_t i = 0; P + i < s.T; ++i) {
    const int64_t t = P + i;
    const auto name = [&](const std::string& part) { return decode_name(i, part); };
    const auto add = [&](PlannedStep planned) {
      steps.push_back(beside(Pass::Decode, t, planned));
    };
    const Axis cached{AxisKind::Token, "t+1", t + 1}, key{AxisKind::Key, "t+1", t + 1};
    add(step(Op::DecodeInput, 0, Stage::Input, name("x"), {batch(s), one, feature("d_in", s.d_in)},
             {"x"}));
    add(step(Op::DecodeProject, 'q', Stage::Project, name("q"), {batch(s), heads(s), one, dk},
             {name("x"), "w_q"}));
    add(step(Op::DecodeProject, 'k', Stage::Project, name("k"), {batch(s), kv_heads, one, dk},
             {name("x"), "w_k"}));
    add(step(Op::DecodeProject, 'v', Stage::Project, name("v"), {batch(s), kv_heads, one, dv},
             {name("x"), "w_v"}));
    // RoPE: the token's q and k turned by its position t before k enters the cache.
    if (p.rotate) {
      add(step(Op::Rotate, 'q', Stage::Transpose, name("q_rot"), {batch(s), heads(s), one, dk},
               {name("q"), "rope_inv_freq"}, Substep::Rotate));
      add(step(Op::Rotate, 'k', Stage::Transpose, name("k_rot"), {batch(s), kv_heads, one, dk},
               {name("k"), "rope_inv_freq"}, Substep::Rotate));
    }
    const std::string q = name(p.rotate ? "q_rot" : "q"), k = name(p.rotate ? "k_rot" : "k");
    add(step(Op::CacheAppend, 'k', Stage::Transpose, name("k_cache"),
             {batch(s), kv_heads, cached, dk}, {"prefill_k_cache", k}));
    add(step(Op::CacheAppend, 'v', Stage::Transpose, name("v_cache"),
             {batch(s), kv_heads, cached, dv}, {"prefill_v_cache", name("v")}));
    add(step(Op::DecodeScores, 0, Stage::Attend, name("scores"), {batch(s), heads(s), one, key},
             {q, name("k_cache")}, Substep::Scores));
    add(step(Op::DecodeSoftmax, 0, Stage::Attend, name("weights"), {batch(s), heads(s), one, key},
             {name("scores")}, Substep::Softmax));
    add(step(Op::DecodeAttend, 0, Stage::Attend, name("context"), {batch(s), heads(s), one, dv},
             {name("weights"), name("v_cache")}, Substep::AttendValues));
    const Axis width =
        p.config.output_proj ? feature("d_model", s.d_model) : feature("h*d_v", s.h * s.dv, s.h);
    add(step(Op::DecodeOutput, 0, Stage::OutputProject, name("out"), {batch(s), one, width},
             {name("context")}));
  }
}

// MLA's absorbed form: the forward pass's q (and rotary parts) scored against its latent c_kv.
void add_absorbed_step(const Config& c, const Sizes& s, std::vector<PlannedStep>& steps) {
  std::vector<std::string> inputs = {"q", "c_kv", "w_k", "w_v"};
  if (s.d_rope > 0) inputs.insert(inputs.end(), {"q_rope", "k_rope"});
  if (c.output_proj) inputs.push_back("w_o");
  const Axis width =
      c.output_proj ? feature("d_model", s.d_model) : feature("h*d_v", s.h * s.dv, s.h);
  steps.push_back(beside(Pass::Absorbed, -1,
                         step(Op::AbsorbedOutput, 0, Stage::OutputProject, "out_absorbed",
                              {batch(s), tokens(s), width}, inputs)));
}

}  // namespace

int64_t fused_width(const Config& c) {
  return c.n_heads * c.head_dim_k() + c.kv_heads() * (c.head_dim_k() + c.head_dim_v());
}

std::string fused_symbol(const Config& c) {
  if (!c.grouped() && c.head_dim_v() == c.head_dim_k()) return "3*h*d_k";
  return c.grouped() ? "h*d_k+n_kv*(d_k+d_v)" : "h*(2*d_k+d_v)";
}

std::string decode_name(int64_t step, const std::string& part) {
  return "decode" + std::to_string(step) + "_" + part;
}

Plan plan_for(const Config& c) {
  Plan p;
  p.config = c;
  decide(c, p);
  const Sizes s{c.batch,          c.tokens(),
                c.n_heads,        c.head_dim_k(),
                c.head_dim_v(),   c.input_dim(),
                c.d_model,        c.key_tokens(),
                c.kv_heads(),     c.group_size(),
                c.kv_input_dim(), c.kv_latent,
                c.q_latent,       c.latent() ? c.rope_dim : 0};
  p.steps.push_back(
      step(Op::Input, 0, Stage::Input, "x", {batch(s), tokens(s), feature("d_in", s.d_in)}, {}));
  if (c.cross())
    p.steps.push_back(step(Op::Input, 'k', Stage::Input, "x_kv",
                           {batch(s), key_tokens(c, s), feature("d_in_kv", s.d_in_kv)}, {}));
  if (p.fused_qkv) {
    std::vector<std::string> inputs = {"x", "w_qkv"};
    if (c.bias) inputs.push_back("b_qkv");
    p.steps.push_back(step(Op::ProjectFused, 0, Stage::Project, "qkv",
                           {batch(s), tokens(s), feature(fused_symbol(c), fused_width(c))},
                           inputs));
  }
  for (char which : {'q', 'k', 'v'}) {
    add_latent_step(c, s, which, p.steps);
    add_head_steps(c, p, s, which, p.steps);
  }
  if (c.rotary()) add_rotate_steps(c, p, s, p.steps);
  if (c.grouped() && s.g > 0) add_group_steps(c, p, s, p.steps);
  if (c.latent() && s.d_rope > 0) add_rope_steps(c, s, p.steps);
  // Project, split and transpose run q, k, v one stage at a time: order them by stage.
  std::stable_sort(p.steps.begin(), p.steps.end(), [](const PlannedStep& a, const PlannedStep& b) {
    return int(a.stage) < int(b.stage);
  });
  add_attend_steps(p, s, p.steps);
  add_concat_steps(c, p, s, p.steps);
  if (p.decode_prompt > 0) add_decode_steps(p, s, p.steps);
  if (p.absorbed) add_absorbed_step(c, s, p.steps);
  size_steps(p);
  return p;
}

const PlannedStep& Plan::step(const std::string& name) const {
  // The last recorded step of that name: "context" is the dropped one under dropout-on-output.
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (it->recorded && it->name == name) return *it;
  throw std::logic_error("the plan has no recorded step named " + name);
}

double element_bound(const Config& c) {
  for (int64_t size : {c.batch, c.tokens(), c.n_heads, c.head_dim_k(), c.head_dim_v(),
                       c.input_dim(), c.d_model, c.key_tokens(), c.kv_heads(), c.kv_input_dim()}) {
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
  for (const PlannedStep& step : plan_for(c).steps) add(step.shape);
  for (const Shape& shape : parameter_shapes(c)) add(shape);
  if (c.fused_qkv) add({c.input_dim(), fused_width(c)});  // W_qkv, joined from W_q, W_k, W_v
  return total;
}

}  // namespace attnlab
