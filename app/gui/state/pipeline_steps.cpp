#include "app/gui/state/pipeline_steps.hpp"

#include <algorithm>

namespace attnlab::gui {

namespace {

// The strip's label: "QKᵀ", "÷√d_k", "·V", "RoPE"; a stage's plain step by the stage's name
// (transpose before its expand); the others by their name.
std::string substep_label(Stage stage, Substep substep) {
  switch (substep) {
    case Substep::None:
      return stage_name(stage);
    case Substep::Scores:
      return "QK\u1D40";
    case Substep::Scale:
      return "\u00F7\u221Ad_k";
    case Substep::AttendValues:
      return "\u00B7V";
    case Substep::Rotate:
      return "RoPE";
    case Substep::Bias:
      return "+ALiBi";
    default:
      return substep_name(substep);
  }
}

}  // namespace

std::vector<PipelineStep> pipeline_steps(const Trace& trace) {
  std::vector<PipelineStep> steps;
  for (const TensorRecord& record : trace.records) {
    if (!steps.empty() && steps.back().stage == record.stage &&
        steps.back().substep == record.substep)
      continue;
    steps.push_back({record.stage, record.substep, substep_label(record.stage, record.substep)});
  }
  return steps;
}

int find_step(const std::vector<PipelineStep>& steps, Stage stage, Substep substep) {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].stage == stage && steps[i].substep == substep) return int(i);
  return -1;
}

int first_step_of(const std::vector<PipelineStep>& steps, Stage stage) {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].stage == stage) return int(i);
  return -1;
}

std::vector<const TensorRecord*> step_records(const Trace& trace, const PipelineStep& step) {
  std::vector<const TensorRecord*> out;
  for (const TensorRecord& record : trace.records)
    if (record.stage == step.stage && record.substep == step.substep) out.push_back(&record);
  return out;
}

bool on_query_line(const Trace& trace, const TensorRecord& record) {
  const TensorRecord* at = trace.records.empty() ? nullptr : &trace.records.back();
  while (at && at != &record) {
    const TensorRecord* next = nullptr;
    if (!at->inputs.empty())
      for (const TensorRecord& r : trace.records)
        if (r.name == at->inputs.front() && &r < at) next = &r;  // the latest of that name
    at = next;
  }
  return at == &record;
}

namespace {

const TensorRecord* last_on_query_line(const Trace& trace,
                                       const std::vector<const TensorRecord*>& records) {
  for (auto it = records.rbegin(); it != records.rend(); ++it)
    if (on_query_line(trace, **it)) return *it;
  return records.empty() ? nullptr : records.back();
}

}  // namespace

const TensorRecord* query_record(const Trace& trace, Stage stage) {
  return last_on_query_line(trace, trace.stage_records(stage));
}

const TensorRecord* query_record(const Trace& trace, const PipelineStep& step) {
  return last_on_query_line(trace, step_records(trace, step));
}

std::vector<const TensorRecord*> step_inputs(const Trace& trace, const PipelineStep& step) {
  const std::vector<const TensorRecord*> made = step_records(trace, step);
  std::vector<const TensorRecord*> inputs;
  for (const TensorRecord* record : made) {
    for (const std::string& name : record->inputs) {
      const TensorRecord* input = nullptr;
      for (const TensorRecord& r : trace.records)
        if (r.name == name) input = &r;
      const bool made_here = std::find(made.begin(), made.end(), input) != made.end();
      const bool listed = std::find(inputs.begin(), inputs.end(), input) != inputs.end();
      if (input && !made_here && !listed) inputs.push_back(input);
    }
  }
  return inputs;
}

}  // namespace attnlab::gui
