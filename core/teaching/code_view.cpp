#include "core/teaching/code_view.hpp"

#include "core/trace/narration.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {

namespace {

// Pads code to a column so the shape comments line up.
std::string line(const std::string& code, const std::string& comment) {
  std::string text = "    " + code;
  if (comment.empty()) return text;
  if (text.size() < 52) text.resize(52, ' ');
  return text + "  # " + comment;
}

}  // namespace

std::vector<CodeLine> reference_code(const Config& c) {
  const Plan plan = plan_for(c);
  std::vector<CodeLine> code;
  code.push_back(
      {"def forward(self, x):                                # x: (B, T, d_in)", Stage::Input});
  code.push_back({line("B, T, _ = x.shape", ""), Stage::Input});
  for (const PlannedStep& step : plan.steps) {
    const Words words = narrate(plan, step);
    if (!words.in_code && !step.left_out) continue;
    const std::string note = words.note.empty() ? "" : "  " + words.note;
    const std::string text = step.left_out ? line("# " + words.code, words.note)
                                           : line(words.code, axes_label(step.axes) + note);
    code.push_back({text, step.stage, step.substep, step.changed});
  }
  return code;
}

}  // namespace attnlab
