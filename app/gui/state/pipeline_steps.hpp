// The walk through a trace: one step per (stage, sub-step) the trace recorded, in order:
// input, project, split, transpose, attend (QKᵀ, scale, mask, softmax, [dropout], ·V),
// concat (transpose, contiguous, view), output-project.
#pragma once

#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnlab::gui {

struct PipelineStep {
  Stage stage = Stage::Input;
  Substep substep = Substep::None;  // the record's substep (None for single-step stages)
  std::string label;                // for the strip: "QKᵀ", "÷√d_k", "·V", ...
};

std::vector<PipelineStep> pipeline_steps(const Trace& trace);

// Index of the step with this stage and sub-step, or -1.
int find_step(const std::vector<PipelineStep>& steps, Stage stage, Substep substep);
// Index of the stage's first step, or -1.
int first_step_of(const std::vector<PipelineStep>& steps, Stage stage);

// The records a step shows, in trace order.
std::vector<const TensorRecord*> step_records(const Trace& trace, const PipelineStep& step);

// The query's line through the trace: from the last record back through each record's first
// input (out <- concat <- ... <- context <- weights <- ... <- scores <- q <- x), the path every
// variant shares; the key/value side, MLA's latents and rotary parts branch off it.
bool on_query_line(const Trace& trace, const TensorRecord& record);

// What a stage or step makes for the queries: its last record on the query's line (q for
// project, even where cross-attention's k, v or MLA's k_rope come after it), else its last
// record; null when it has none.
const TensorRecord* query_record(const Trace& trace, Stage stage);
const TensorRecord* query_record(const Trace& trace, const PipelineStep& step);

// The records the step's records were computed from (their `inputs`; parameters left out), each
// once, in the order they are named.
std::vector<const TensorRecord*> step_inputs(const Trace& trace, const PipelineStep& step);

}  // namespace attnlab::gui
