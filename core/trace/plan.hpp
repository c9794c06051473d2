// One plan per run: everything a run will do, decided once from its config. Which sub-steps run,
// which one the injected mistake changes, which heads are off, and every record the trace will
// hold with its axes and inputs, and what each record will hold and cost (its shape, bytes and
// FLOPs, worked out from the shapes alone: core/trace/plan_sizes.hpp). The traced run computes it,
// the narration words it, the code view prints it, and the memory rules and FLOP counts read its
// sizes: none of them decides again.
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

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
  Pass pass = Pass::Forward;
  int64_t position = -1;  // Pass::Decode: the token t this step decodes

  // [SECTION] sizes, worked out from the shapes alone (core/trace/plan_sizes.cpp): what the
  // run's record of this step holds and cost, without running it. Besides the shape, all 0 for a
  // step not recorded or not reached.
  Shape shape;          // the record's sizes (its axes' sizes)
  double elements = 0;  // their product (a double: never overflows, exact below 2^53)
  bool view = false;    // reads storage an earlier record (or x) allocated: holds no new bytes
  int64_t bytes = 0;    // new float32 storage it allocates (0 for a view); INT64_MAX: uncountable
  double flops = 0;     // to compute it, counted as the run counts them
  bool reached = true;  // false: the run stops before it (view-no-contiguous's failing view)
};

// Fused QKV: W_qkv's columns, h*d_k + n_kv*(d_k + d_v), and their symbol ("3*h*d_k").
int64_t fused_width(const Config& config);
std::string fused_symbol(const Config& config);

// The record names of decode step `step` (0 for the first decoded token): "decode0_q".
std::string decode_name(int64_t step, const std::string& part);

struct Plan {
  Config config;
  // [SECTION] the decisions, each made here once
  bool shared_qk = false;        // K projected with W_q (shared-qk-projection)
  bool fused_qkv = false;        // one GEMM makes q | k | v, each then a view of its columns
  bool heads_transposed = true;  // false: forget-transpose, attention over (B, T, h, d)
  // Llama's RoPE turns q and k after the transpose (rope_theta > 0). Not with forget-transpose:
  // cos and sin have one row per position, which (B, T, h, d_k) does not have on axis 2.
  bool rotate = false;
  // ALiBi adds its bias to the (T, T) maps before the mask (pos = alibi). Not with
  // forget-transpose: the maps are (h, h) there, and the bias has no distance to read.
  bool alibi = false;
  bool scale = true;       // false: no-scale
  int64_t scale_by = 1;    // d_k, or d_model (scale-d-model)
  bool mask_fits = false;  // a mask exists and the maps are (T, T)
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
  // Beside the forward pass: only with values (not shape-only).
  int64_t decode_prompt = 0;  // decoding with a KV cache: P prompt tokens, then T - P steps; 0 off
  bool absorbed = false;      // MLA: the absorbed form's output checked against `out`
  // [SECTION] the steps, in order: every record of the trace (the forward pass, then the passes
  // beside it), and the lines a mistake removes
  std::vector<PlannedStep> steps;

  // [SECTION] sizes (core/trace/plan_sizes.cpp)
  // view-no-contiguous: the transposed context's strides cannot be viewed as (B, T, h*d_v) (more
  // than one head, token and value dimension), so the run stops at concat.
  bool concat_view_fails = false;

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
