// One plan per run: everything a run will do, decided once from its config. Which sub-steps run,
// which one the injected mistake changes, which heads are off, and every record the trace will
// hold with its axes and inputs. The traced run computes it, the narration words it, the code
// view prints it, and the memory estimate is a shape-only run of it: none of them decides again.
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

// What a planned step does (a record of the trace, or a line of the code view).
enum class Op {
  Input,          // x: (B, T, d_in)
  Project,        // q|k|v = x @ W (+ b): (B, T, h*d); MLA's k|v = c_kv @ W_uk|W_uv
  Compress,       // MLA: c_kv = x @ W_dkv (B, T, d_c), c_q = x @ W_dq (B, T, d_c')
  RopeProject,    // MLA: q_rope (B, T, h*d_rope), k_rope (B, T, d_rope), rotated by position
  ExpandHeads,    // GQA/MLA: .unsqueeze().expand(): K/V heads repeated by a stride of 0
  MergeGroups,    // GQA: .reshape(B, h, T, d): copies (a view when there is one K/V head)
  JoinRope,       // MLA: torch.cat([nope, rope], -1): (B, h, T, d_k + d_rope)
  Split,          // .view(B, T, h, d)
  Transpose,      // .transpose(1, 2): (B, h, T, d)
  Scores,         // q @ k^T: (B, h, T, T)
  Scale,          // / sqrt(d_k)
  Mask,           // masked_fill(~visible, -inf)
  Softmax,        // softmax over the keys
  ZeroMasked,     // mask-after-softmax: masked weights zeroed after the softmax
  DropWeights,    // dropout on the weights
  AttendValues,   // weights @ v: (B, h, T, d_v)
  DropContext,    // dropout-on-output: dropout on the context
  Ablate,         // switched-off heads' context = 0
  TransposeBack,  // concat: .transpose(1, 2)
  Contiguous,     // concat: .contiguous()
  ConcatView,     // concat: .view(B, T, h*d_v)
  OutputProject,  // concat @ W_o (+ b_o), or the concat itself without W_o
};

struct PlannedStep {
  Op op;
  char which = 0;  // 'q', 'k' or 'v' (or 'r', MLA's rotary query) for the per-projection steps
  Stage stage = Stage::Input;
  Substep substep = Substep::None;
  std::string name;                 // the record's (export) name
  Axes axes;                        // of the record
  std::vector<std::string> inputs;  // records and parameters it reads
  bool recorded = true;   // makes a record in the trace (false: not this run's, or left out)
  bool changed = false;   // this is the step the injected mistake changes
  bool left_out = false;  // the mistake removed this line (shown commented out in the code)
};

struct Plan {
  Config config;
  // [SECTION] the decisions, each made here once
  bool shared_qk = false;        // K projected with W_q (shared-qk-projection)
  bool heads_transposed = true;  // false: forget-transpose, attention over (B, T, h, d)
  bool scale = true;             // false: no-scale
  int64_t scale_by = 1;          // d_k, or d_model (scale-d-model)
  bool mask_fits = false;        // a mask exists and the maps are (T, T)
  bool mask_before_softmax = false;
  bool mask_fill_zero = false;        // mask-zero: masked scores set to 0, not -inf
  bool softmax_over_queries = false;  // softmax-wrong-axis
  bool mask_after_softmax = false;
  bool drop_weights = false;     // dropout > 0, on the weights
  bool drop_context = false;     // dropout-on-output
  double context_dropout = 0;    // its p
  std::vector<int64_t> ablated;  // heads switched off, ascending
  enum class ConcatPath {
    TransposeCopyView,
    ViewOnly,
    ViewFails
  } concat = ConcatPath::TransposeCopyView;
  // [SECTION] the steps, in order: every record of the trace, and the lines a mistake removes
  std::vector<PlannedStep> steps;

  // The recorded step of that name; throws std::logic_error when the plan has none (a bug).
  const PlannedStep& step(const std::string& name) const;
};

// The plan for a config (valid or not: sizes are read as they are).
Plan plan_for(const Config& config);

// An upper bound on the float32 elements a run could hold, in double (every planned tensor and
// parameter counted as its own storage): the guard against sizes no int64 count can hold. 0 when
// a size is not positive.
double element_bound(const Config& config);

}  // namespace attnlab
