#include "app/gui/pipeline_steps.hpp"

namespace attnlab::gui {

namespace {

std::string substep_label(const std::string& substep) {
  if (substep == "QK^T") return "QK\u1D40";
  if (substep == "scale") return "\u00F7\u221Ad_k";
  if (substep == "@V") return "\u00B7V";
  return substep;
}

}  // namespace

std::vector<PipelineStep> pipeline_steps(const Trace& trace) {
  std::vector<PipelineStep> steps;
  for (const TensorRecord& record : trace.records) {
    if (!steps.empty() && steps.back().stage == record.stage &&
        steps.back().substep == record.substep)
      continue;
    steps.push_back({record.stage, record.substep, substep_label(record.substep)});
  }
  return steps;
}

int find_step(const std::vector<PipelineStep>& steps, Stage stage, const std::string& substep) {
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

}  // namespace attnlab::gui
