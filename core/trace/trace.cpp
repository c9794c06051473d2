#include "core/trace/trace.hpp"

namespace attnlab {

namespace {
constexpr const char* kStageNames[kStageCount] = {"input",  "project", "split",         "transpose",
                                                  "attend", "concat",  "output-project"};
}

const char* stage_name(Stage stage) {
  return kStageNames[static_cast<int>(stage)];
}

bool parse_stage(const std::string& text, Stage& stage) {
  for (int i = 0; i < kStageCount; ++i) {
    if (text == kStageNames[i] || text == std::to_string(i)) {
      stage = static_cast<Stage>(i);
      return true;
    }
  }
  return false;
}

namespace {
constexpr const char* kSubstepNames[kSubstepCount] = {
    "",          "QK^T",       "scale", "mask",   "softmax", "dropout", "@V",   "ablate",
    "transpose", "contiguous", "view",  "expand", "rope",    "rotate",  "alibi"};
}

const char* substep_name(Substep substep) {
  return kSubstepNames[static_cast<int>(substep)];
}

bool parse_substep(const std::string& text, Substep& substep) {
  for (int i = 0; i < kSubstepCount; ++i) {
    if (text == kSubstepNames[i]) {
      substep = static_cast<Substep>(i);
      return true;
    }
  }
  return false;
}

const char* axis_kind_name(AxisKind kind) {
  constexpr const char* kNames[] = {"batch", "token", "head", "key", "feature", "group"};
  return kNames[static_cast<int>(kind)];
}

std::string axes_label(const Axes& axes) {
  std::string text = "(";
  for (size_t i = 0; i < axes.size(); ++i) text += (i ? ", " : "") + axes[i].symbol;
  return text + ")";
}

int find_axis(const Axes& axes, AxisKind kind) {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].kind == kind) return int(i);
  return -1;
}

const char* pass_name(Pass pass) {
  constexpr const char* kNames[] = {"forward", "prefill", "decode", "absorbed"};
  return kNames[static_cast<int>(pass)];
}

const TensorRecord* Trace::find(const std::string& name) const {
  for (const std::vector<TensorRecord>* list : {&records, &parameters, &side_records})
    for (const TensorRecord& r : *list)
      if (r.name == name) return &r;
  return nullptr;
}

const TensorRecord* Trace::find(Op op, char which) const {
  for (const TensorRecord& r : records)
    if (r.op == op && r.which == which) return &r;
  return nullptr;
}

const TensorRecord* Trace::find(Pass pass, Op op, char which, int64_t position) const {
  for (const TensorRecord& r : side_records)
    if (r.pass == pass && r.op == op && r.which == which && r.position == position) return &r;
  return nullptr;
}

const TensorRecord* Trace::weights() const {
  const TensorRecord* zeroed = find(Op::ZeroMasked);
  return zeroed ? zeroed : find(Op::Softmax);
}

std::vector<const TensorRecord*> Trace::pass_records(Pass pass, int64_t position) const {
  std::vector<const TensorRecord*> out;
  for (const TensorRecord& r : side_records)
    if (r.pass == pass && (position < 0 || r.position == position)) out.push_back(&r);
  return out;
}

std::vector<const TensorRecord*> Trace::stage_records(Stage stage) const {
  std::vector<const TensorRecord*> out;
  for (const TensorRecord& r : records)
    if (r.stage == stage) out.push_back(&r);
  return out;
}

double Trace::stage_flops(Stage stage) const {
  double sum = 0;
  for (const TensorRecord* r : stage_records(stage)) sum += r->flops;
  return sum;
}

int64_t Trace::stage_bytes(Stage stage) const {
  int64_t sum = 0;
  for (const TensorRecord* r : stage_records(stage)) sum += r->bytes;
  return sum;
}

}  // namespace attnlab
