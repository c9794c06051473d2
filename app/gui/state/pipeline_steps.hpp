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

// The records the step's records were computed from (their `inputs`; parameters left out), each
// once, in the order they are named.
std::vector<const TensorRecord*> step_inputs(const Trace& trace, const PipelineStep& step);

}  // namespace attnlab::gui
