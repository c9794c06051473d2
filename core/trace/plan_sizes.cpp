// Each step's sizes from its axes and the config, counted as the traced run (core/trace/mha.cpp),
// decoding (core/variants/kv_cache_decode.cpp) and MLA's absorbed form (latent_attention.cpp)
// count their records: a test runs every variant and compares them record by record.
#include "core/trace/plan_sizes.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "core/model/inputs.hpp"
#include "core/model/threads_available.hpp"

namespace attnlab {

namespace {

constexpr double kFloatBytes = double(sizeof(Scalar));
constexpr double kMaxBytes = 9e18;  // below INT64_MAX, with room for a sum of a few
constexpr int64_t kUncountable = std::numeric_limits<int64_t>::max();

int64_t saturated(double bytes) {
  return bytes > kMaxBytes ? kUncountable : int64_t(bytes);
}

int64_t add_saturated(int64_t a, int64_t b) {
  return a > kUncountable - b ? kUncountable : a + b;
}

double product(const Shape& shape) {
  double n = 1;
  for (int64_t size : shape) n *= double(std::max<int64_t>(size, 0));
  return n;
}

bool has_bias(const PlannedStep& s) {
  return std::any_of(s.inputs.begin(), s.inputs.end(),
                     [](const std::string& name) { return name.rfind("b_", 0) == 0; });
}

// The steps recorded so far by name (the latest of each), to read an input's sizes.
class Sizer {
 public:
  explicit Sizer(Plan& plan) : p_(plan), c_(plan.config) {}

  void run() {
    bool reached = true;
    for (PlannedStep& s : p_.steps) {
      for (const Axis& axis : s.axes) s.shape.push_back(axis.size);
      // view-no-contiguous's failing view raises: nothing from there on runs.
      if (s.recorded && s.op == Op::ConcatView && p_.concat_view_fails) reached = false;
      s.reached = reached;
      if (!s.recorded || !reached) continue;
      s.elements = product(s.shape);
      size(s);
      s.bytes = s.view ? 0 : saturated(s.elements * kFloatBytes);
      if (s.op == Op::PrefillCache)  // the cache holds all T slots; the record views P of them
        s.bytes = saturated(s.elements / double(std::max<int64_t>(s.shape[2], 1)) *
                            double(c_.tokens()) * kFloatBytes);
      recorded_[s.name] = &s;
    }
  }

 private:
  // Input i of s as recorded so far; an empty step when there is none (a config validate()
  // refuses, e.g. K/V heads that do not divide the heads, is planned all the same).
  const PlannedStep& input(const PlannedStep& s, size_t i) const {
    static const PlannedStep kNone{};
    const auto found = i < s.inputs.size() ? recorded_.find(s.inputs[i]) : recorded_.end();
    return found == recorded_.end() ? kNone : *found->second;
  }
  double last(const PlannedStep& s) const { return s.shape.empty() ? 0 : double(s.shape.back()); }

  // view and flops of one recorded step, as the run computes it.
  void size(PlannedStep& s) {
    const double n = s.elements;
    switch (s.op) {
      case Op::Input:
      case Op::Ablate:
      case Op::JoinRope:
        return;  // new storage; no arithmetic counted
      case Op::ProjectFused:
      case Op::Project:
      case Op::Compress:
      case Op::RopeProject:  // (rows, d_from) @ (d_from, width) (+ b), MLA's rope parts rotated
        s.flops = 2.0 * n * last(input(s, 0)) + (has_bias(s) ? n : 0) +
                  (s.op == Op::RopeProject ? 3.0 * n : 0);
        return;
      case Op::SplitColumns:
      case Op::Split:
      case Op::Transpose:
      case Op::ExpandHeads:
      case Op::TransposeBack:
      case Op::ConcatView:
      case Op::CacheAppend:
        s.view = true;
        return;
      case Op::MergeGroups: {  // reshape: a view only when one of (n_kv, g) is 1, else a copy
        const Shape& grouped = input(s, 0).shape;
        s.view = grouped.size() < 3 || grouped[1] == 1 || grouped[2] == 1;
        return;
      }
      case Op::Rotate:  // 6 per pair of values, in the forward pass and when decoding
        s.flops = 3.0 * n;
        return;
      case Op::Scores:  // 2 d_q per score (d_q: d_k, or d_k + d_rope with MLA)
        s.flops = 2.0 * n * last(input(s, 0));
        return;
      case Op::Scale:  // no-scale leaves the scores as they are: a view
        s.view = !p_.scale;
        s.flops = p_.scale ? n : 0;
        return;
      case Op::Mask:
        s.view = !p_.mask_before_softmax;
        s.flops = p_.mask_before_softmax ? n : 0;
        return;
      case Op::AddBias:
      case Op::ZeroMasked:
      case Op::DropWeights:
      case Op::DropContext:
        s.flops = n;
        return;
      case Op::Softmax:
      case Op::DecodeSoftmax:
        s.flops = 5.0 * n;
        return;
      case Op::AttendValues:
      case Op::DecodeAttend:  // 2 d_v per weight
        s.flops = 2.0 * input(s, 0).elements * last(s);
        return;
      case Op::Contiguous:  // the transposed context is already contiguous with one head or token
        s.view = s.shape[1] == 1 || s.shape[2] == 1;
        return;
      case Op::OutputProject:  // concat @ W_o (+ b_o), or the concat itself
        s.view = !c_.output_proj;
        if (c_.output_proj) s.flops = 2.0 * input(s, 0).elements * last(s) + (has_bias(s) ? n : 0);
        return;
      case Op::PrefillCache:  // the prompt's K or V projection (no bias counted), k turned by RoPE
        s.flops = 2.0 * n * double(c_.input_dim()) + (s.which == 'k' && p_.rotate ? 3.0 * n : 0);
        return;
      case Op::DecodeInput:  // x[:, t:t+1].contiguous(): x itself when that is contiguous
        s.view = s.shape[0] == 1 || c_.tokens() == 1;
        return;
      case Op::DecodeProject:  // (B, 1, d_in) @ (d_in, heads*d) (no bias counted)
        s.flops = 2.0 * n * double(c_.input_dim());
        return;
      case Op::DecodeScores:  // q_t K^T and the scale: 2 d_k + 1 per score
        s.flops = n * (2.0 * last(input(s, 0)) + 1.0);
        return;
      case Op::DecodeOutput:  // context (B, h, 1, d_v) @ W_o, or the context viewed as the concat
        s.view = !c_.output_proj;
        if (c_.output_proj) s.flops = 2.0 * input(s, 0).elements * double(c_.d_model);
        return;
      case Op::AbsorbedOutput:
        s.flops = absorbed_flops();
        return;
    }
  }

  // MLA's absorbed form: per (sequence, head) q W_UK^T, its scores against c_kv, the rotary scores,
  // scale + mask + softmax (7 per score), A c_kv and its W_UV; then W_o.
  double absorbed_flops() const {
    const double B = double(c_.batch), T = double(c_.tokens()), h = double(c_.n_heads);
    const double dk = double(c_.head_dim_k()), dv = double(c_.head_dim_v());
    const double dc = double(c_.kv_latent), dr = double(c_.rope_dim), map = T * T;
    return B * h *
               (2.0 * T * dk * dc + 2.0 * map * dc + (dr > 0 ? map * (2.0 * dr + 1) : 0) +
                7.0 * map + 2.0 * map * dc + 2.0 * T * dc * dv) +
           (c_.output_proj ? 2.0 * B * T * h * dv * double(c_.d_model) : 0);
  }

  Plan& p_;
  const Config& c_;
  std::map<std::string, const PlannedStep*> recorded_;
};

// The (B, T, h, d_v) context transposed back has strides (h T d_v, d_v, T d_v, 1): PyTorch's view
// to (B, T, h*d_v) needs h and d_v adjacent in memory, which they are only with one head, token or
// value dimension (core/tensor/tensor.cpp's view_strides).
bool concat_view_fails(const Plan& p) {
  const Config& c = p.config;
  return p.concat == Plan::ConcatPath::ViewFails && c.n_heads > 1 && c.tokens() > 1 &&
         c.head_dim_v() > 1;
}

const PlannedStep* find_step(const Plan& plan, Pass pass, int64_t position,
                             const std::string& name) {
  for (const PlannedStep& s : plan.steps)
    if (s.pass == pass && s.position == position && s.recorded && s.name == name) return &s;
  return nullptr;
}

}  // namespace

void size_steps(Plan& plan) {
  plan.concat_view_fails = concat_view_fails(plan);
  Sizer(plan).run();
}

double planned_flops(const Plan& plan, Pass pass, int64_t position) {
  double sum = 0;
  for (const PlannedStep& s : plan.steps)
    if (s.pass == pass && (position < 0 || s.position == position) && s.recorded && s.reached)
      sum += s.flops;
  return sum;
}

int64_t planned_bytes(const Plan& plan, Pass pass) {
  int64_t sum = 0;
  for (const PlannedStep& s : plan.steps)
    if (s.pass == pass && s.recorded && s.reached) sum = add_saturated(sum, s.bytes);
  return sum;
}

int64_t planned_parameter_bytes(const Config& c) {
  // Fused QKV's W_qkv and b_qkv join W_q, W_k, W_v and their biases: the same numbers.
  double bytes = 0;
  for (const Shape& shape : parameter_shapes(c)) bytes += product(shape) * kFloatBytes;
  return saturated(bytes);
}

Counters parameter_counters(const Config& c) {
  Counters n;
  const int64_t h = c.n_heads, hk = c.kv_heads(), dk = c.head_dim_k(), dv = c.head_dim_v();
  const int64_t d_in = c.input_dim(), q_in = c.q_latent > 0 ? c.q_latent : d_in;
  const int64_t kv_in = c.latent() ? c.kv_latent : c.kv_input_dim();
  const int64_t rope = c.latent() ? c.rope_dim : 0;
  // K/V: W_k, W_v over n_kv heads (MLA: W_uk, W_uv from d_c, plus W_dkv and W_kr from d_in).
  const int64_t kv_weights =
      kv_in * hk * (dk + dv) + (c.latent() ? d_in * (c.kv_latent + rope) : 0);
  const int64_t q_weights = q_in * h * (dk + rope) + (c.q_latent > 0 ? d_in * c.q_latent : 0);
  n.qkv_weights = q_weights + kv_weights;
  n.qkv_biases = c.bias ? h * dk + hk * (dk + dv) : 0;
  n.out_weights = c.output_proj ? h * dv * c.d_model : 0;
  n.out_bias = (c.bias && c.output_proj) ? c.d_model : 0;
  n.attention_elements = c.batch * h * c.tokens() * c.key_tokens();
  n.kv_parameters = kv_weights + (c.bias ? hk * (dk + dv) : 0);
  n.kv_cache_numbers = c.latent() ? c.kv_latent + rope : hk * (dk + dv);
  return n;
}

Counters planned_counters(const Config& c) {
  Config forward_only = c;
  forward_only.shape_only = true;  // the passes beside the forward pass are not in the counters
  const Plan plan = plan_for(forward_only);
  Counters n = parameter_counters(c);
  n.flops = planned_flops(plan, Pass::Forward);
  n.bytes = planned_bytes(plan, Pass::Forward);
  return n;
}

double prefix_forward_flops(const Config& c, int64_t tokens) {
  Config prefix = c;
  prefix.seq_len = tokens;
  prefix.decode_steps = 0;
  prefix.shape_only = true;
  // The masks as they apply to the first `tokens` tokens (FLOPs depend only on there being one).
  for (int64_t& length : prefix.mask.padding_lengths) length = std::min(length, tokens);
  prefix.mask.global_tokens = std::min(prefix.mask.global_tokens, tokens);
  return planned_flops(plan_for(prefix), Pass::Forward);
}

DecodeTrace planned_decode(const Plan& plan) {
  DecodeTrace out;
  if (plan.decode_prompt <= 0) return out;
  const Config& c = plan.config;
  out.prompt_tokens = plan.decode_prompt;
  out.prefill_flops = prefix_forward_flops(c, out.prompt_tokens);
  for (int64_t i = 0; out.prompt_tokens + i < c.tokens(); ++i) {
    DecodeStep step;
    step.position = out.prompt_tokens + i;
    step.flops = planned_flops(plan, Pass::Decode, step.position);
    step.recompute_flops = prefix_forward_flops(c, step.position + 1);
    double cached = 0;  // the K and V caches' first t + 1 slots
    for (const char* part : {"k_cache", "v_cache"})
      if (const PlannedStep* s = find_step(plan, Pass::Decode, step.position, decode_name(i, part)))
        cached += s->elements;
    step.cache_bytes = saturated(cached * kFloatBytes);
    out.steps.push_back(step);
  }
  return out;
}

int64_t trace_bytes_needed(const Config& config) {
  const double bound = element_bound(config);
  if (bound <= 0) return 0;
  if (bound > kMaxCountableElements) return kUncountable;
  Config forward_only = config;
  forward_only.shape_only = true;  // the passes beside the forward pass are not counted
  return add_saturated(planned_bytes(plan_for(forward_only), Pass::Forward),
                       planned_parameter_bytes(config));
}

namespace {

// The float32 bytes of the forward pass's inputs, projections, concat and output as forward()
// and the tiled run hold them: each a buffer of its own (no views, no fused columns).
double held_activations(const Config& config) {
  Config forward_only = config;
  forward_only.shape_only = true;
  const Plan plan = plan_for(forward_only);
  double elements = 0;
  for (const char* name : {"x", "x_kv", "q", "k", "v", "concat"})
    if (const PlannedStep* s = find_step(plan, Pass::Forward, -1, name)) elements += s->elements;
  if (config.output_proj) elements += plan.step("out").elements;
  return elements * kFloatBytes;
}

}  // namespace

int64_t forward_bytes_needed(const Config& c) {
  const double bound = element_bound(c);
  if (bound <= 0) return 0;
  if (bound > kMaxCountableElements) return kUncountable;
  const double maps = double(c.tokens()) * double(c.key_tokens());  // one (T, T_k) per thread
  const double workers = double(std::min<int64_t>(usable_cores(), c.batch * c.n_heads));
  const double mask = c.mask.any() ? double(c.batch) * maps : 0;  // one byte per (b, i, j)
  return saturated(held_activations(c) + double(planned_parameter_bytes(c)) +
                   workers * maps * kFloatBytes + mask);
}

int64_t tiled_bytes_needed(const Config& c, int64_t held) {
  const double bound = element_bound(c);
  if (bound <= 0) return 0;
  if (bound > kMaxCountableElements) return kUncountable;
  // ALiBi's (h, T, T_k) bias is computed inside each tile from the heads' slopes, never held.
  const double alibi_table =
      c.alibi() ? double(c.n_heads) * double(c.tokens()) * double(c.key_tokens()) * kFloatBytes : 0;
  return saturated(held_activations(c) + double(planned_parameter_bytes(c)) - alibi_table +
                   double(held));
}

}  // namespace attnlab
